//! SPN and move text (NOTATION.md), both directions, with a validated setup.
//!
//! Text becomes a `Setup` (plain data), which becomes a `Position` only
//! after every check of `Setup::validate`. Errors name the token, its
//! column and what was expected; nothing here panics on bad input.

use crate::board::{CELLS, Cell, Row};
use crate::dice::{Die, Face, Side};
use crate::movegen::Illegal;
use crate::moves::{Dest, Move, MoveKind};
use crate::position::{Phase, Piles, Position};
use crate::variant::Variant;
use std::fmt;

/// The start of a game in SPN.
pub const START_SPN: &str = ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 0";

/// Plain, unvalidated description of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Die and top face on each cell, S1 first.
    pub cells: [Option<(Die, Face)>; CELLS],
    /// Phase (and die to place).
    pub phase: Phase,
    /// Side to move.
    pub side: Side,
    /// Restricted cells.
    pub restricted: Vec<Cell>,
    /// Piles.
    pub piles: Piles,
    /// Clock.
    pub clock: u8,
    /// In play under `swap=yes`: the players have exchanged colours
    /// (`swapped:b`); `false` everywhere else.
    pub swapped: bool,
}

/// Why a well-formed setup cannot be a position of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A die stands on two cells (or is on the board and waiting to be placed).
    DieTwice(Die),
    /// A restricted cell is empty.
    RestrictedEmpty(Cell),
    /// A cell is named twice in the restricted set.
    RestrictedTwice(Cell),
    /// More than two restricted dice.
    TooManyRestricted(usize),
    /// Restricted dice during the draft.
    RestrictedInDraft,
    /// Dice on the board plus piles is not 23.
    PilesDontAddUp {
        /// Dice on the board.
        on_board: usize,
        /// Dice in the piles.
        in_piles: usize,
    },
    /// A pile over its side's majority, or both sides at theirs.
    PileTooBig {
        /// Red's majority in the variant (5 in the rules).
        red: u8,
        /// Blue's majority in the variant (5 in the rules).
        blue: u8,
    },
    /// Piles or clock not zero during the draft.
    DraftNotClean,
    /// The clock is over the closure.
    ClockTooHigh {
        /// The clock.
        clock: u8,
        /// The closure of the variant (60 in the rules).
        closure: u8,
    },
    /// The side to move contradicts the number of dice placed.
    WrongSideForDraft {
        /// Dice on the board.
        placed: usize,
        /// The side that must move.
        expected: Side,
    },
    /// The board is full but the draft is not over.
    DraftOnFullBoard,
    /// The decision after the draft (`decide:`) or a swapped game
    /// (`swapped:`) in a variant without `swap=yes`.
    NoSwapInVariant,
    /// The decision after the draft with a board that is not the end of a
    /// draft: 23 dice, empty piles, clock 0, nothing restricted.
    DecideNotAfterDraft,
    /// The decision after the draft by the wrong side: the one that would
    /// move second decides.
    WrongSideToDecide {
        /// The side that decides.
        expected: Side,
    },
    /// No die has left the board, so the clock counts every play half-move
    /// since the first mover's first (blue's in the rules): the first mover
    /// moves at even clocks, the other side at odd ones.
    ClockParity {
        /// The side to move.
        side: Side,
        /// The clock.
        clock: u8,
        /// The side that made the first play move.
        first_mover: Side,
    },
    /// A restricted die at clock 0 with empty piles: no move has been played.
    RestrictedBeforeAnyMove(Cell),
    /// Two restricted dice not in rows M and S, or M and I (only a
    /// permutation restricts two: the target in the row it was pushed into,
    /// the dislodged die in the row the target left).
    RestrictedPair(Cell, Cell),
    /// Two restricted dice in rows S and M (or M and I) although neither row
    /// a permutation between them pushes into is full.
    PermutationRowNotFull(Cell, Cell),
    /// Two restricted dice at clock 0: a permutation makes the clock tick.
    PermutationAtClockZero,
    /// At clock 0 (a die has just gone through the door) a restricted die
    /// outside row I: only the pusher's target of an ejection is restricted.
    RestrictedAfterDoor(Cell),
    /// At clock 0 a restricted die in row I, but row I is not full: an
    /// ejection leaves it full.
    EjectionRowNotFull(Cell),
    /// At clock 0 with dice in the piles and nothing restricted, row I is
    /// full: the die just pushed through the door left it.
    DoorPushFromFullRow,
    /// A pile of the majority with a non-zero clock: the game ended when its
    /// last die went through the door, which set the clock to 0.
    MajorityWithClock {
        /// The clock.
        clock: u8,
        /// The majority of the variant.
        majority: u8,
    },
    /// The dice off the board cannot make the piles: each die is in the pile
    /// of a colour it can show (dice 1 and 2 never show white, die 3 always
    /// does, die 4 never shows red, die 23 never blue).
    PilesImpossible {
        /// The piles.
        piles: Piles,
        /// The dice off the board.
        off_board: Vec<Die>,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionError::*;
        match self {
            DieTwice(d) => write!(f, "die {d} appears twice"),
            RestrictedEmpty(c) => write!(f, "restricted cell {c} is empty"),
            RestrictedTwice(c) => write!(f, "restricted cell {c} is named twice"),
            TooManyRestricted(n) => write!(f, "{n} restricted dice, at most 2 can be"),
            RestrictedInDraft => write!(f, "no die can be restricted during the draft"),
            PilesDontAddUp { on_board, in_piles } => {
                write!(f, "{on_board} dice on the board and {in_piles} in the piles do not make 23")
            }
            PileTooBig { red, blue } if red == blue => {
                write!(f, "a pile holds more than {red} dice, or both hold {red}")
            }
            PileTooBig { red, blue } => write!(
                f,
                "the red pile holds more than {red} dice or the blue pile more than {blue}, or both reach theirs"
            ),
            DraftNotClean => write!(f, "piles and clock must be 0 during the draft"),
            ClockTooHigh { clock, closure } => write!(f, "clock {clock} is over {closure}"),
            WrongSideForDraft { placed, expected } => {
                write!(f, "with {placed} dice placed, the side to move must be {expected} ({})", expected.letter())
            }
            DraftOnFullBoard => write!(f, "the board is full, the draft is over: the turn must be b or r"),
            NoSwapInVariant => {
                write!(f, "`decide:` and `swapped:` belong to the variant swap=yes (add it to --variant)")
            }
            DecideNotAfterDraft => write!(
                f,
                "the decision (decide:) comes right after the draft: 23 dice on the board, empty piles, clock 0, \
                 nothing restricted"
            ),
            WrongSideToDecide { expected } => write!(
                f,
                "the side that would move second in play decides after the draft: {expected} (decide:{})",
                expected.letter()
            ),
            ClockParity { side, clock, first_mover } => write!(
                f,
                "{side} to move at clock {clock} with empty piles: with no die off the board the clock counts \
                 every play half-move, so {first_mover} moves at even clocks and {} at odd ones",
                first_mover.other()
            ),
            RestrictedBeforeAnyMove(c) => {
                write!(f, "restricted cell {c} at clock 0 with empty piles: no move has been played yet")
            }
            RestrictedPair(a, b) => write!(
                f,
                "restricted cells {a} and {b}: only a permutation restricts two dice, one in row M and one in row S or I"
            ),
            PermutationRowNotFull(a, b) => write!(
                f,
                "restricted cells {a} and {b} come from a permutation, which leaves the row pushed into full, \
                 but {}",
                if a.row() == Row::I || b.row() == Row::I {
                    "row M is not full"
                } else {
                    "neither row S nor row M is full"
                }
            ),
            PermutationAtClockZero => {
                write!(f, "two restricted dice at clock 0: a permutation makes the clock tick, only the door resets it")
            }
            RestrictedAfterDoor(c) => write!(
                f,
                "restricted cell {c} at clock 0: a die has just gone through the door, and only an ejection restricts \
                 a die (its target, in row I)"
            ),
            EjectionRowNotFull(c) => {
                write!(
                    f,
                    "restricted cell {c} at clock 0 is the target of an ejection, which leaves row I full, but it is not"
                )
            }
            DoorPushFromFullRow => write!(
                f,
                "clock 0 with nothing restricted means a die was just pushed through the door from row I, \
                 but row I is full"
            ),
            MajorityWithClock { clock, majority } => write!(
                f,
                "a pile of {majority} ends the game when its last die goes through the door, at clock 0, not {clock}"
            ),
            PilesImpossible { piles, off_board } => {
                let dice: Vec<String> = off_board.iter().map(|d| d.to_string()).collect();
                write!(
                    f,
                    "the dice off the board ({}) cannot make piles {}-{}-{}: dice 1 and 2 never show white, \
                     die 3 always does, die 4 never shows red, die 23 never blue",
                    dice.join(" "),
                    piles.red,
                    piles.blue,
                    piles.white
                )
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl Setup {
    /// Checks every rule a reachable position obeys and builds it: the
    /// counts (dice once each, 23 with the piles, piles and clock in range,
    /// the draft's turn order), and in play what the clock, the piles and
    /// the restricted set say about the moves that led there (see
    /// [`PositionError`]). `tests/validate.rs` checks it against random play
    /// and an independent reading of the rules.
    pub fn validate(&self) -> Result<Position, PositionError> {
        self.validate_in(Variant::RULES)
    }

    /// [`Setup::validate`] under the rules of variant `v`: the clock up to its
    /// closure, piles up to its majority, the draft's turns from its first
    /// giver, the clock's parity from its first mover. The position carries `v`.
    pub fn validate_in(&self, v: Variant) -> Result<Position, PositionError> {
        use PositionError::*;
        let mut seen = 0u32;
        for (d, _) in self.cells.iter().flatten() {
            if seen >> d.number() & 1 != 0 {
                return Err(DieTwice(*d));
            }
            seen |= 1 << d.number();
        }
        let on_board = seen.count_ones() as usize;
        if self.restricted.len() > 2 {
            return Err(TooManyRestricted(self.restricted.len()));
        }
        for (i, c) in self.restricted.iter().enumerate() {
            if self.restricted[..i].contains(c) {
                return Err(RestrictedTwice(*c));
            }
            if self.cells[c.index()].is_none() {
                return Err(RestrictedEmpty(*c));
            }
        }
        if self.clock > v.closure {
            return Err(ClockTooHigh { clock: self.clock, closure: v.closure });
        }
        if (self.swapped || self.phase == Phase::Decide) && !v.swap {
            return Err(NoSwapInVariant);
        }
        match self.phase {
            Phase::Decide => {
                if on_board != 23 || self.piles != Piles::default() || self.clock != 0 || !self.restricted.is_empty() {
                    return Err(DecideNotAfterDraft);
                }
                if self.side != v.first_mover.other() {
                    return Err(WrongSideToDecide { expected: v.first_mover.other() });
                }
            }
            Phase::Play => {
                let in_piles = self.piles.total() as usize;
                if on_board + in_piles != 23 {
                    return Err(PilesDontAddUp { on_board, in_piles });
                }
                let (r, b) = (self.piles.red, self.piles.blue);
                let (mr, mb) = (v.majority_of(Side::Red), v.majority_of(Side::Blue));
                if r > mr || b > mb || (r >= mr && b >= mb) {
                    return Err(PileTooBig { red: mr, blue: mb });
                }
                self.validate_play(seen, v)?;
            }
            Phase::Give | Phase::Place(_) => {
                if on_board == 23 {
                    return Err(DraftOnFullBoard);
                }
                if let Phase::Place(d) = self.phase
                    && seen >> d.number() & 1 != 0
                {
                    return Err(DieTwice(d));
                }
                if !self.restricted.is_empty() {
                    return Err(RestrictedInDraft);
                }
                if self.piles != Piles::default() || self.clock != 0 {
                    return Err(DraftNotClean);
                }
                // Placement k = on_board + 1: the first giver gives when k is odd.
                let giver = v.giver(on_board as u32 + 1);
                let expected = if self.phase == Phase::Give { giver } else { giver.other() };
                if self.side != expected {
                    return Err(WrongSideForDraft { placed: on_board, expected });
                }
            }
        }
        let swapped = self.swapped && self.phase == Phase::Play;
        let mut p =
            Position::from_parts(&self.cells, self.phase, self.side, &self.restricted, self.piles, self.clock, swapped);
        p.set_variant(v);
        Ok(p)
    }

    /// The checks of a play position beyond the counts: what the clock, the
    /// piles and the restricted set say about the last move (RULES-NOTES
    /// points 1, 7 and 9). `on_board` has bit `n` set for die `n` on the board.
    fn validate_play(&self, on_board: u32, v: Variant) -> Result<(), PositionError> {
        use PositionError::*;
        let (piles, clock) = (self.piles, self.clock);
        if let Some(side) = v.majority_winner(piles)
            && clock != 0
        {
            return Err(MajorityWithClock { clock, majority: v.majority_of(side) });
        }
        let off_board: Vec<Die> = Die::all().filter(|d| on_board >> d.number() & 1 == 0).collect();
        if !piles_can_hold(&off_board, piles) {
            return Err(PilesImpossible { piles, off_board });
        }
        let full = |row: Row| Cell::all().filter(|c| c.row() == row).all(|c| self.cells[c.index()].is_some());
        if piles.total() == 0 {
            // The first mover plays at clock 0 and the clock counts every half-move.
            let first_turn = clock.is_multiple_of(2);
            if first_turn != (self.side == v.first_mover) {
                return Err(ClockParity { side: self.side, clock, first_mover: v.first_mover });
            }
            if clock == 0
                && let Some(&c) = self.restricted.first()
            {
                return Err(RestrictedBeforeAnyMove(c));
            }
        }
        match *self.restricted.as_slice() {
            [] if clock == 0 && piles.total() > 0 && full(Row::I) => return Err(DoorPushFromFullRow),
            [c] if clock == 0 && c.row() != Row::I => return Err(RestrictedAfterDoor(c)),
            [c] if clock == 0 && !full(Row::I) => return Err(EjectionRowNotFull(c)),
            [a, b] => {
                let (x, y) = if a.row() == Row::M { (a, b) } else { (b, a) };
                if x.row() != Row::M || y.row() == Row::M {
                    return Err(RestrictedPair(a, b));
                }
                // Into row M (from S or I) or into row S (from M).
                let pushed_into_full = full(Row::M) || (y.row() == Row::S && full(Row::S));
                if !pushed_into_full {
                    return Err(PermutationRowNotFull(a, b));
                }
                if clock == 0 {
                    return Err(PermutationAtClockZero);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The setup of a position (faces canonical).
    pub fn from_position(p: &Position) -> Setup {
        let mut cells = [None; CELLS];
        for c in p.occupied() {
            cells[c.index()] = p.piece_at(c);
        }
        Setup {
            cells,
            phase: p.phase(),
            side: p.side_to_move(),
            restricted: p.restricted().collect(),
            piles: p.piles(),
            clock: p.clock(),
            swapped: p.swapped(),
        }
    }
}

/// Whether the dice `off_board` can be spread over the piles, each die in
/// the pile of a colour it can show: by Hall's theorem, for every set of
/// colours the dice that can only show colours of the set must fit in the
/// piles of the set (and the totals agree).
fn piles_can_hold(off_board: &[Die], piles: Piles) -> bool {
    let cap = [piles.red as usize, piles.blue as usize, piles.white as usize];
    if off_board.len() != cap.iter().sum::<usize>() {
        return false;
    }
    let shows = |d: Die| Face::ALL.iter().fold(0u8, |m, &f| m | 1 << d.colour(f) as u8);
    (1u8..8).all(|set| {
        let need = off_board.iter().filter(|&&d| shows(d) & !set == 0).count();
        let room: usize = (0..3).filter(|i| set >> i & 1 != 0).map(|i| cap[i]).sum();
        need <= room
    })
}

/// A token that does not read as expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The offending token (may be empty when something is missing).
    pub token: String,
    /// 1-based column of the token in the input, in characters (not bytes).
    pub column: usize,
    /// What was expected there.
    pub expected: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.token.is_empty() {
            write!(f, "column {}: missing token, expected {}", self.column, self.expected)
        } else {
            let bom = if self.token.contains('\u{feff}') { " (with a byte-order mark, U+FEFF)" } else { "" };
            write!(f, "column {}: `{}`{bom}: expected {}", self.column, escape(&self.token), self.expected)
        }
    }
}

/// Whether `c` prints nothing visible (or moves the cursor): control
/// characters, and the format and separator characters that are invisible
/// (soft hyphen, zero-width and direction marks, line and paragraph
/// separators, word joiners, the byte-order mark U+FEFF, tags).
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{ad}' | '\u{61c}' | '\u{180e}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}' | '\u{e0000}'..='\u{e007f}')
}

/// Input text made safe to echo in a one-line message: newline, tab and
/// carriage return as `\n`, `\t`, `\r`, other invisible characters as
/// `\u{…}` (a byte-order mark is `\u{feff}`); everything else unchanged.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if invisible(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// The 1-based character column of the 1-based byte column `byte_column` of `text`.
fn char_column(text: &str, byte_column: usize) -> usize {
    text.char_indices().take_while(|&(i, _)| i + 1 < byte_column).count() + 1
}

impl std::error::Error for ParseError {}

/// Why an SPN string is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpnError {
    /// The text does not follow the grammar.
    Parse(ParseError),
    /// The text is well formed but the position cannot occur.
    Invalid(PositionError),
}

impl fmt::Display for SpnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpnError::Parse(e) => write!(f, "bad SPN: {e}"),
            SpnError::Invalid(e) => write!(f, "impossible position: {e}"),
        }
    }
}

impl std::error::Error for SpnError {}

fn err(token: &str, column: usize, expected: impl Into<String>) -> ParseError {
    ParseError { token: token.to_string(), column, expected: expected.into() }
}

/// Splits `s` on `sep`, giving each piece with its 1-based column (offset by `base`).
fn pieces(s: &str, sep: char, base: usize) -> impl Iterator<Item = (&str, usize)> {
    let mut col = base;
    s.split(sep).map(move |p| {
        let c = col;
        col += p.len() + sep.len_utf8();
        (p, c)
    })
}

fn parse_die(s: &str, col: usize) -> Result<Die, ParseError> {
    let ok = !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit()) && !s.starts_with('0');
    ok.then(|| s.parse().ok().and_then(Die::new)).flatten().ok_or_else(|| err(s, col, "a die number 1..23"))
}

fn parse_face(s: &str, col: usize) -> Result<Face, ParseError> {
    Face::from_code(s).ok_or_else(|| err(s, col, "a face code: Tr Sr Cr Tb Sb Cb"))
}

fn parse_cell(s: &str, col: usize) -> Result<Cell, ParseError> {
    Cell::parse(s).ok_or_else(|| err(s, col, "a cell: S1..S11, M12..M18 or I19..I23"))
}

fn parse_side(s: &str, col: usize) -> Result<Side, ParseError> {
    match s {
        "b" => Ok(Side::Blue),
        "r" => Ok(Side::Red),
        _ => Err(err(s, col, "a side: b or r")),
    }
}

fn parse_count(s: &str, col: usize, max: u8, what: &str) -> Result<u8, ParseError> {
    let ok = !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| s.parse::<u8>().ok().filter(|&n| n <= max))
        .flatten()
        .ok_or_else(|| err(s, col, format!("{what}, a number 0..{max}")))
}

/// Parses SPN into a setup, checking only the grammar. Error columns count
/// characters.
pub fn parse_setup(spn: &str) -> Result<Setup, ParseError> {
    parse_setup_bytes(spn).map_err(|e| ParseError { column: char_column(spn, e.column), ..e })
}

/// A blank inside a field (the board, the restricted list, the piles), as a
/// field that ends or starts with a separator next to a blank: the error at
/// the blank. `fields` are the blank-separated fields with their byte columns.
fn stray_blank(spn: &str, fields: &[(&str, usize)]) -> Option<ParseError> {
    let seps = [',', '/', '-', ':'];
    let joins = |a: &str, b: &str| (a != "-" && a.ends_with(seps)) || (b != "-" && b.starts_with(seps));
    let i = fields.windows(2).position(|w| joins(w[0].0, w[1].0))?;
    let (text, col) = fields[i];
    let at = col + text.len();
    let blank: String = spn[at - 1..].chars().take_while(|c| c.is_whitespace()).collect();
    Some(err(
        &blank,
        at,
        "no blank inside a field: the board, the restricted cells and the piles are written without spaces",
    ))
}

/// Whether a board field has fewer than its 3 rows of 11, 7 and 5 cells.
fn rows_look_incomplete(board: &str) -> bool {
    let rows: Vec<&str> = board.split('/').collect();
    rows.len() < 3 || rows.iter().zip([11, 7, 5]).any(|(r, n)| r.split(',').count() < n)
}

fn parse_setup_bytes(spn: &str) -> Result<Setup, ParseError> {
    // Fields are separated by one space (NOTATION.md), as Focus, Débâcle
    // and dominoes read theirs: another blank (a tab, a no-break space), or
    // a second space, is refused where it stands.
    if let Some((i, ch)) =
        spn.char_indices().find(|&(i, ch)| ch.is_whitespace() && (ch != ' ' || spn[..i].ends_with(' ')))
    {
        return Err(err(&ch.to_string(), i + 1, "a single space between fields"));
    }
    // Fields separated by single spaces; keep columns.
    let mut fields = Vec::new();
    let mut start = None;
    for (i, ch) in spn.char_indices().chain(std::iter::once((spn.len(), ' '))) {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                fields.push((&spn[s..i], s + 1));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    let names = [
        "the board (three rows separated by /)",
        "the turn: b, r, give:b, give:r, place:b:<die> or place:r:<die>",
        "the restricted cells: - or cells separated by commas",
        "the piles: red-blue-white",
        "the clock",
    ];
    if fields.len() > 5 {
        if let Some(e) = stray_blank(spn, &fields) {
            return Err(e);
        }
        if rows_look_incomplete(fields[0].0) {
            let (text, col) = fields[0];
            let at = col + text.len();
            let blank: String = spn[at - 1..].chars().take_while(|c| c.is_whitespace()).collect();
            return Err(err(&blank, at, "no blank inside the board (3 rows of 11, 7 and 5 cells, without spaces)"));
        }
        let (t, c) = fields[5];
        return Err(err(t, c, "the end of the SPN (5 fields: board, turn, restricted, piles, clock)"));
    }
    if fields.len() < 5 {
        return Err(err("", spn.len() + 1, names[fields.len()]));
    }
    let (board, bcol) = fields[0];
    let mut cells = [None; CELLS];
    let rows: Vec<_> = pieces(board, '/', bcol).collect();
    if rows.len() != 3 {
        return Err(err(board, bcol, format!("3 rows separated by /, found {}", rows.len())));
    }
    let mut index = 0;
    for (row, (text, col)) in Row::ALL.into_iter().zip(rows) {
        let tokens: Vec<_> = pieces(text, ',', col).collect();
        let want = row.cells().len() as usize;
        if tokens.len() != want {
            return Err(err(
                text,
                col,
                format!("{want} comma-separated cells in row {}, found {}", row.letter(), tokens.len()),
            ));
        }
        for (tok, c) in tokens {
            if tok != "." {
                let split = tok.find(|ch: char| !ch.is_ascii_digit()).unwrap_or(tok.len());
                if split == 0 || tok.len() != split + 2 {
                    return Err(err(tok, c, "`.` or a die number and a face code, like 17Sb"));
                }
                let die = parse_die(&tok[..split], c)?;
                let face = parse_face(&tok[split..], c + split)?;
                cells[index] = Some((die, face));
            }
            index += 1;
        }
    }
    let (turn, tcol) = fields[1];
    let parts: Vec<_> = pieces(turn, ':', tcol).collect();
    let mut swapped = false;
    let (phase, side) = match parts.as_slice() {
        [(s, c)] => (Phase::Play, parse_side(s, *c)?),
        [("give", _), (s, c)] => (Phase::Give, parse_side(s, *c)?),
        [("decide", _), (s, c)] => (Phase::Decide, parse_side(s, *c)?),
        [("swapped", _), (s, c)] => {
            swapped = true;
            (Phase::Play, parse_side(s, *c)?)
        }
        [("place", _), (s, c), (d, dc)] => {
            let side = parse_side(s, *c)?;
            (Phase::Place(parse_die(d, *dc)?), side)
        }
        _ => return Err(err(turn, tcol, names[1])),
    };
    let (restr, rcol) = fields[2];
    let restricted = if restr == "-" {
        Vec::new()
    } else {
        pieces(restr, ',', rcol).map(|(t, c)| parse_cell(t, c)).collect::<Result<_, _>>()?
    };
    let (piles, pcol) = fields[3];
    let p: Vec<_> = pieces(piles, '-', pcol).collect();
    if p.len() != 3 {
        return Err(err(piles, pcol, names[3]));
    }
    let piles = Piles {
        red: parse_count(p[0].0, p[0].1, 23, "the red pile")?,
        blue: parse_count(p[1].0, p[1].1, 23, "the blue pile")?,
        white: parse_count(p[2].0, p[2].1, 23, "the white discard")?,
    };
    let (clock, ccol) = fields[4];
    let clock = parse_count(clock, ccol, 99, "the clock")?;
    Ok(Setup { cells, phase, side, restricted, piles, clock, swapped })
}

impl std::str::FromStr for Position {
    type Err = SpnError;
    /// Parses and validates SPN.
    fn from_str(s: &str) -> Result<Position, SpnError> {
        Position::from_spn_in(s, Variant::RULES)
    }
}

impl Position {
    /// Parses SPN and validates it under the rules of variant `v` (the text
    /// does not say the variant: the caller does).
    pub fn from_spn_in(s: &str, v: Variant) -> Result<Position, SpnError> {
        parse_setup(s).map_err(SpnError::Parse)?.validate_in(v).map_err(SpnError::Invalid)
    }

    /// The position in SPN.
    pub fn to_spn(&self) -> String {
        let mut s = Vec::with_capacity(96);
        self.write_spn(&mut s);
        String::from_utf8(s).expect("SPN is ASCII")
    }

    /// Appends the position in SPN (the text of [`Position::to_spn`]) to
    /// `out`, without the formatting machinery and without allocating
    /// beyond `out`'s growth.
    pub fn write_spn(&self, out: &mut Vec<u8>) {
        fn num(out: &mut Vec<u8>, n: u8) {
            if n >= 100 {
                out.push(b'0' + n / 100);
            }
            if n >= 10 {
                out.push(b'0' + n / 10 % 10);
            }
            out.push(b'0' + n % 10);
        }
        for row in Row::ALL {
            if row != Row::S {
                out.push(b'/');
            }
            for (i, c) in row.cells().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                match self.piece_at(c) {
                    Some((d, f)) => {
                        num(out, d.number());
                        out.extend_from_slice(f.code().as_bytes());
                    }
                    None => out.push(b'.'),
                }
            }
        }
        out.push(b' ');
        let side = self.side_to_move().letter() as u8;
        match self.phase() {
            Phase::Play if self.swapped() => {
                out.extend_from_slice(b"swapped:");
                out.push(side);
            }
            Phase::Play => out.push(side),
            Phase::Decide => {
                out.extend_from_slice(b"decide:");
                out.push(side);
            }
            Phase::Give => {
                out.extend_from_slice(b"give:");
                out.push(side);
            }
            Phase::Place(d) => {
                out.extend_from_slice(b"place:");
                out.push(side);
                out.push(b':');
                num(out, d.number());
            }
        }
        // Restricted cells in the order of their texts (`S10` before `S2`).
        let mut texts = [([0u8; 3], 0usize); CELLS];
        let mut n = 0;
        for c in self.restricted() {
            let (t, len) = &mut texts[n];
            t[0] = c.row().letter() as u8;
            let k = c.number();
            *len = if k >= 10 {
                t[1] = b'0' + k / 10;
                t[2] = b'0' + k % 10;
                3
            } else {
                t[1] = b'0' + k;
                2
            };
            n += 1;
        }
        let texts = &mut texts[..n];
        texts.sort_unstable_by(|a, b| a.0[..a.1].cmp(&b.0[..b.1]));
        out.push(b' ');
        if texts.is_empty() {
            out.push(b'-');
        }
        for (i, (t, len)) in texts.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(&t[..*len]);
        }
        let p = self.piles();
        out.push(b' ');
        num(out, p.red);
        out.push(b'-');
        num(out, p.blue);
        out.push(b'-');
        num(out, p.white);
        out.push(b' ');
        num(out, self.clock());
    }

    /// Reads move text in this position: equivalent forms (die 2 for die 1,
    /// a non-canonical face) are brought to the canonical move, then the move
    /// is checked for legality.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = parse_move_text(text).map_err(MoveError::Parse)?;
        let m = self.normalize(m);
        self.check(m).map_err(MoveError::Illegal)?;
        Ok(m)
    }

    /// The canonical form of an equivalent move (RULES-NOTES point 3).
    pub fn normalize(&self, m: Move) -> Move {
        match m.kind() {
            MoveKind::Give(d) if d.number() == 2 && self.reserve().0 & 0b10 != 0 => Move::give(Die::new(1).unwrap()),
            MoveKind::Place(d, c, f) => {
                let d = match self.phase() {
                    Phase::Place(p) if p.kind() == d.kind() => p,
                    _ => d,
                };
                Move::place(d, c, d.canonical(f))
            }
            MoveKind::Turn { agent, target, face } => match self.piece_at(target) {
                Some((d, _)) => Move::turn(agent, target, d.canonical(face)),
                None => m,
            },
            _ => m,
        }
    }
}

/// Why a move text is not a legal move here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not move text.
    Parse(ParseError),
    /// A move, but not a legal one.
    Illegal(Illegal),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Parse(e) => write!(f, "bad move text: {e}"),
            MoveError::Illegal(e) => write!(f, "illegal move: {e}"),
        }
    }
}

impl std::error::Error for MoveError {}

const MOVE_FORMS: &str =
    "a move: g<die>, <die>@<cell>=<face>, <cell>-<cell>, <cell>><cell>, <cell>><cell>:<cell|D> or <cell>><cell>=<face>";

/// Parses move text without a position (no normalization, no legality).
/// Error columns count characters.
pub fn parse_move_text(text: &str) -> Result<Move, ParseError> {
    parse_move_bytes(text).map_err(|e| ParseError { column: char_column(text, e.column), ..e })
}

fn parse_move_bytes(text: &str) -> Result<Move, ParseError> {
    let t = text.trim();
    let base = text.len() - text.trim_start().len() + 1;
    if t.is_empty() {
        return Err(err(t, base, MOVE_FORMS));
    }
    match t {
        "keep" => return Ok(Move::decide(false)),
        "swap" => return Ok(Move::decide(true)),
        _ => {}
    }
    if let Some(d) = t.strip_prefix('g') {
        return Ok(Move::give(parse_die(d, base + 1)?));
    }
    if let Some((d, rest)) = t.split_once('@') {
        let die = parse_die(d, base)?;
        let (c, f) = rest.split_once('=').ok_or_else(|| err(rest, base + d.len() + 1, "<cell>=<face> after @"))?;
        let cell = parse_cell(c, base + d.len() + 1)?;
        let face = parse_face(f, base + d.len() + c.len() + 2)?;
        return Ok(Move::place(die, cell, face));
    }
    if let Some((a, rest)) = t.split_once('>') {
        let agent = parse_cell(a, base)?;
        let col = base + a.len() + 1;
        if let Some((tg, dest)) = rest.split_once(':') {
            let target = parse_cell(tg, col)?;
            let dcol = col + tg.len() + 1;
            let to = if dest == "D" {
                Dest::Door
            } else {
                Dest::Cell(parse_cell(dest, dcol).map_err(|mut e| {
                    e.expected = "a destination: a cell or D (the door)".into();
                    e
                })?)
            };
            return Ok(Move::push(agent, target, to));
        }
        if let Some((tg, f)) = rest.split_once('=') {
            let target = parse_cell(tg, col)?;
            return Ok(Move::turn(agent, target, parse_face(f, col + tg.len() + 1)?));
        }
        return Ok(Move::flip(agent, parse_cell(rest, col)?));
    }
    if let Some((a, b)) = t.split_once('-') {
        let from = parse_cell(a, base)?;
        return Ok(Move::shift(from, parse_cell(b, base + a.len() + 1)?));
    }
    Err(err(t, base, MOVE_FORMS))
}

#[cfg(test)]
mod tests {
    use super::*;
    use testkit::XorShift64;

    /// SPN as `to_spn` wrote it with the formatting machinery.
    fn spn_by_fmt(p: &Position) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        for row in Row::ALL {
            if row != Row::S {
                s.push('/');
            }
            for (i, c) in row.cells().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                match p.piece_at(c) {
                    Some((d, f)) => write!(s, "{d}{f}").unwrap(),
                    None => s.push('.'),
                }
            }
        }
        let side = p.side_to_move().letter();
        match p.phase() {
            Phase::Play if p.swapped() => write!(s, " swapped:{side}").unwrap(),
            Phase::Play => write!(s, " {side}").unwrap(),
            Phase::Decide => write!(s, " decide:{side}").unwrap(),
            Phase::Give => write!(s, " give:{side}").unwrap(),
            Phase::Place(d) => write!(s, " place:{side}:{d}").unwrap(),
        }
        let mut restricted: Vec<String> = p.restricted().map(|c| c.to_string()).collect();
        restricted.sort();
        if restricted.is_empty() {
            s.push_str(" -");
        } else {
            write!(s, " {}", restricted.join(",")).unwrap();
        }
        let q = p.piles();
        write!(s, " {}-{}-{} {}", q.red, q.blue, q.white, p.clock()).unwrap();
        s
    }

    #[test]
    fn spn_is_written_as_the_formatting_machinery_wrote_it() {
        let mut rng = XorShift64::new(0x9E37_79B9_7F4A_7C15);
        let mut seen = 0;
        for _ in 0..40 {
            let mut p = Position::start();
            loop {
                assert_eq!(p.to_spn(), spn_by_fmt(&p));
                seen += 1;
                let moves = p.legal_moves();
                if moves.is_empty() || p.is_over_by_rule() {
                    break;
                }
                p.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        assert!(seen > 1000, "{seen}");
    }

    #[test]
    fn start_round_trip() {
        let p: Position = START_SPN.parse().unwrap();
        assert_eq!(p, Position::start());
        assert_eq!(p.to_spn(), START_SPN);
    }

    #[test]
    fn errors_name_token_and_column() {
        let e = parse_setup(".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,x give:b - 0-0-0 0").unwrap_err();
        assert_eq!(e.token, "x");
        assert_eq!(e.column, 45);
        let e = parse_setup(".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:g - 0-0-0 0").unwrap_err();
        assert_eq!(e.token, "g");
        let e = parse_setup(".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0").unwrap_err();
        assert!(e.expected.contains("clock"));
        let e = parse_setup("3Tx,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 0").unwrap_err();
        assert_eq!((e.token.as_str(), e.column), ("Tx", 2));
    }

    #[test]
    fn impossible_positions_are_rejected() {
        let bad = [
            ("3Tr,3Tr,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 0", "twice"),
            ("3Tr,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 0", "side to move must be red"),
            (".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b S1 0-0-0 0", "restricted"),
            (".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. b - 0-0-0 0", "23"),
            (".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 61", "clock"),
        ];
        for (spn, why) in bad {
            let e = spn.parse::<Position>().unwrap_err();
            assert!(e.to_string().contains(why), "{spn}: {e}");
        }
    }

    #[test]
    fn move_text_round_trip() {
        for t in ["g3", "17@M13=Sb", "M16-M17", "I21>I20", "M13>M14:I19", "I20>I21:D", "I19>I20=Sb"] {
            assert_eq!(parse_move_text(t).unwrap().to_string(), t);
        }
        for bad in ["", "g0", "g24", "S1-S12", "M13>M14:X", "I19>I20=Sx", "17@M13", "hello"] {
            assert!(parse_move_text(bad).is_err(), "{bad}");
        }
    }
}
