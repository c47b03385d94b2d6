//! The texts of Focus (NOTATION.md): move text (`d4-d6`, `+e5`, `pass`,
//! `swap:b7,d7`), the one-line position text, both directions, with typed
//! errors that say what is wrong and where; and the text board for a terminal.
//!
//! What it must never do: panic on any input text, accept a position the rules
//! cannot hold (stack over 5, more pieces than a player owns…), or do I/O.

use crate::board::{self, MAX_HEIGHT, SQUARES, Square, make, parse_square, square_name};
use crate::position::{Move, Outcome, Position, total_pieces};
use crate::variant::{Fix, Variant, VariantError};
use std::fmt;

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Step { from, to } => write!(f, "{}-{}", square_name(from), square_name(to)),
            Move::Enter { to } => write!(f, "+{}", square_name(to)),
            Move::Pass => write!(f, "pass"),
            Move::Swap { own, other } => write!(f, "swap:{},{}", square_name(own), square_name(other)),
        }
    }
}

/// Why a move text is not a legal move here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is empty.
    Empty,
    /// The text has none of the forms `d4-d6`, `+e5`, `pass`, `swap:b7,d7`.
    Syntax(String),
    /// A square name that is not a1..h8.
    BadSquare(String),
    /// A removed corner square.
    RemovedSquare(String),
    /// The game is over: no move is legal.
    GameOver,
    /// The opening swaps are not played yet: only a swap is legal.
    SwapFirst,
    /// A swap outside the swap phase.
    NoSwapNow,
    /// A step whose two squares are not on one file or rank (or are the same square).
    NotStraight {
        /// From.
        from: String,
        /// To.
        to: String,
    },
    /// A step from a square whose stack the mover does not control.
    NotYourStack {
        /// The square.
        square: String,
    },
    /// A step longer than the stack is tall.
    TooFar {
        /// The square.
        square: String,
        /// Its height.
        height: usize,
        /// The distance asked.
        distance: usize,
    },
    /// An entry without a reserve piece.
    NoReserve,
    /// A pass while the player can move (passing is only for a blocked 4-player player).
    PassNotAllowed,
    /// A blocked player must pass.
    MustPass,
    /// A swap whose first square does not hold one of the mover's pieces.
    SwapNotOwn {
        /// The square.
        square: String,
    },
    /// A swap whose second square does not hold one of the opponent's pieces.
    SwapNotOther {
        /// The square.
        square: String,
    },
    /// P1's swap would leave the board symmetric (GAMES.md §1.8).
    SwapSymmetric,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => write!(f, "empty move text"),
            MoveError::Syntax(t) => {
                write!(f, "move `{t}` is not of the forms d4-d6, +e5, pass, swap:b7,d7")
            }
            MoveError::BadSquare(t) => write!(f, "`{t}` is not a square name (a1..h8)"),
            MoveError::RemovedSquare(t) => write!(f, "square {t} is a removed corner square"),
            MoveError::GameOver => write!(f, "the game is over"),
            MoveError::SwapFirst => write!(f, "the opening swaps come first: play swap:<own>,<other>"),
            MoveError::NoSwapNow => write!(f, "no swap now: the swap phase is over or not in this variant"),
            MoveError::NotStraight { from, to } => {
                write!(f, "{from}-{to} is not a straight orthogonal step")
            }
            MoveError::NotYourStack { square } => write!(f, "the mover does not control a stack on {square}"),
            MoveError::TooFar { square, height, distance } => {
                write!(f, "the stack on {square} is {height} high and cannot go {distance} squares")
            }
            MoveError::NoReserve => write!(f, "the mover has no reserve piece to enter"),
            MoveError::PassNotAllowed => write!(f, "pass is only for a blocked player in the 4-player game"),
            MoveError::MustPass => write!(f, "the mover is blocked and must pass"),
            MoveError::SwapNotOwn { square } => write!(f, "swap: {square} does not hold a piece of the mover"),
            MoveError::SwapNotOther { square } => {
                write!(f, "swap: {square} does not hold a piece of the opponent")
            }
            MoveError::SwapSymmetric => write!(f, "swap: this exchange leaves the board symmetric"),
        }
    }
}

impl std::error::Error for MoveError {}

fn read_square(t: &str) -> Result<Square, MoveError> {
    match parse_square(t) {
        None => Err(MoveError::BadSquare(t.to_string())),
        Some(sq) if !board::is_playable(sq) => Err(MoveError::RemovedSquare(t.to_string())),
        Some(sq) => Ok(sq),
    }
}

impl Position {
    /// Reads a move text and checks it is legal here (syntax and legality, with a precise error).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if text.is_empty() {
            return Err(MoveError::Empty);
        }
        let m = if text == "pass" {
            Move::Pass
        } else if let Some(rest) = text.strip_prefix('+') {
            Move::Enter { to: read_square(rest)? }
        } else if let Some(rest) = text.strip_prefix("swap:") {
            let Some((a, b)) = rest.split_once(',') else {
                return Err(MoveError::Syntax(text.to_string()));
            };
            Move::Swap { own: read_square(a)?, other: read_square(b)? }
        } else if let Some((a, b)) = text.split_once('-') {
            Move::Step { from: read_square(a)?, to: read_square(b)? }
        } else {
            return Err(MoveError::Syntax(text.to_string()));
        };
        self.check(m)?;
        Ok(m)
    }

    /// Whether `m` is legal here, and if not, why: the decision of
    /// [`Position::is_legal`], with the precise reason of a refusal
    /// ([`Position::parse_move`] after the syntax, [`Position::play`]).
    pub fn check(&self, m: Move) -> Result<(), MoveError> {
        // Squares the move text cannot name (a `Move` built in code).
        let squares = match m {
            Move::Step { from, to } => [Some(from), Some(to)],
            Move::Enter { to } => [Some(to), None],
            Move::Swap { own, other } => [Some(own), Some(other)],
            Move::Pass => [None, None],
        };
        for sq in squares.into_iter().flatten() {
            if sq >= 64 {
                return Err(MoveError::BadSquare(square_name(sq)));
            }
            if !board::is_playable(sq) {
                return Err(MoveError::RemovedSquare(square_name(sq)));
            }
        }
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let me = self.to_move();
        if self.swaps_played() < 2 {
            let Move::Swap { own, other } = m else {
                return Err(MoveError::SwapFirst);
            };
            if self.controller(own) != Some(me) {
                return Err(MoveError::SwapNotOwn { square: square_name(own) });
            }
            if self.controller(other) != Some(1 - me) {
                return Err(MoveError::SwapNotOther { square: square_name(other) });
            }
            if !self.is_legal(m) {
                return Err(MoveError::SwapSymmetric);
            }
            return Ok(());
        }
        let blocked = !self.can_play(me);
        match m {
            Move::Swap { .. } => return Err(MoveError::NoSwapNow),
            Move::Pass if !blocked => return Err(MoveError::PassNotAllowed),
            Move::Pass => {}
            _ if blocked => return Err(MoveError::MustPass),
            Move::Enter { .. } if self.reserve(me) == 0 => return Err(MoveError::NoReserve),
            Move::Enter { .. } => {}
            Move::Step { from, to } => {
                let (ff, fr, tf, tr) = (from % 8, from / 8, to % 8, to / 8);
                if from == to || (ff != tf && fr != tr) {
                    return Err(MoveError::NotStraight { from: square_name(from), to: square_name(to) });
                }
                if self.controller(from) != Some(me) {
                    return Err(MoveError::NotYourStack { square: square_name(from) });
                }
                let distance = (ff.abs_diff(tf) + fr.abs_diff(tr)) as usize;
                let height = self.height(from);
                if distance > height {
                    return Err(MoveError::TooFar { square: square_name(from), height, distance });
                }
            }
        }
        debug_assert!(self.is_legal(m));
        Ok(())
    }
}

/// Why a position text is not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The text is empty.
    Empty,
    /// The first field is not `focus`.
    Tag(String),
    /// Wrong number of space-separated fields.
    FieldCount {
        /// Fields expected (6, or 7 with `fix=swap`).
        expected: usize,
        /// Fields found.
        found: usize,
    },
    /// The variant field does not parse.
    Variant(VariantError),
    /// The variant field parses but is not written the canonical way (`-` for the default).
    NonCanonicalVariant {
        /// The field.
        found: String,
        /// The canonical form.
        canonical: String,
    },
    /// Not 8 ranks separated by `/`.
    RankCount(usize),
    /// A rank with the wrong number of squares.
    SquareCount {
        /// Rank 1..8.
        rank: usize,
        /// Its playable squares.
        expected: usize,
        /// Squares found.
        found: usize,
    },
    /// A square whose text is neither `.` nor 1..5 player digits.
    BadStack {
        /// The square.
        square: String,
        /// Its text.
        text: String,
    },
    /// A stack taller than 5.
    StackTooTall {
        /// The square.
        square: String,
        /// Its height.
        height: usize,
    },
    /// A piece of a player the variant does not have.
    NoSuchPlayer {
        /// The square.
        square: String,
        /// The digit.
        player: usize,
    },
    /// A labelled field (`res=`, `turn=`, `ply=`, `swaps=`) missing or with a bad number.
    BadField {
        /// The label expected.
        field: &'static str,
        /// The text found.
        text: String,
    },
    /// The reserve field has the wrong number of entries.
    ReserveCount {
        /// Players.
        expected: usize,
        /// Entries found.
        found: usize,
    },
    /// A player has more pieces (board + reserve) than he started with.
    TooManyPieces {
        /// The player.
        player: usize,
        /// Pieces counted.
        count: usize,
        /// Pieces owned at the start.
        total: usize,
    },
    /// The side to move is not a player.
    ToMove(usize),
    /// The ply is over the variant's cap.
    PlyOverCap {
        /// The ply.
        ply: u32,
        /// The cap.
        cap: u32,
    },
    /// The swap phase does not fit the rest (ply, side to move, board).
    SwapPhase(String),
    /// A 2-player position at ply > 0 where the player who just moved controls no stack: every
    /// move (step, entry, swap) leaves its mover on top of at least one stack.
    Unreachable(usize),
    /// The side to move is not the one the ply gives: every decision (swaps and passes too)
    /// passes the turn to the next player in the variant's order, from player 0 at ply 0.
    TurnMismatch {
        /// The side to move written.
        turn: usize,
        /// The ply.
        ply: u32,
        /// The player to move at that ply.
        expected: usize,
    },
    /// The ply is below the number of stacks lost since the start: a decision empties at most
    /// one square that held a stack (a step of a whole stack), so at most one stack per ply.
    PlyBelowStacksLost {
        /// The ply.
        ply: u32,
        /// Stacks at the start minus stacks on the board.
        lost: usize,
    },
    /// The ply is below half the number of squares that differ from the start: a decision
    /// changes at most two squares.
    PlyBelowSquaresChanged {
        /// The ply.
        ply: u32,
        /// Squares whose stack differs from the start.
        changed: usize,
    },
    /// The start board again after 1 to `players` moves: each player has moved at most once, and
    /// undoing the first move needs a second move by the player on top of its destination.
    StartBoardAgain {
        /// The ply.
        ply: u32,
        /// The moves played (the ply less the swaps).
        moves: u32,
    },
    /// Fewer than 5 pieces on the board: a piece leaves the board only by an overflow, which
    /// leaves 5 on the destination.
    TooFewOnBoard {
        /// The pieces on the board.
        pieces: usize,
    },
    /// A 4-player position at ply > 0 that no decision leads to: the team of the player who just
    /// moved cannot play (a step or an entry leaves the mover on top of a stack), or he is
    /// blocked (so he passed) while the other team cannot play either (the game was already over).
    TeamUnreachable {
        /// The player who just moved.
        mover: usize,
        /// The team that cannot play (0 = players 0 and 2, 1 = players 1 and 3).
        team: usize,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Empty => write!(f, "empty position text"),
            PositionError::Tag(t) => write!(f, "position text starts with `{t}`, expected `focus`"),
            PositionError::FieldCount { expected, found } => {
                write!(f, "position text has {found} fields, expected {expected}")
            }
            PositionError::Variant(e) => write!(f, "position variant: {e}"),
            PositionError::NonCanonicalVariant { found, canonical } => {
                write!(f, "position variant `{found}` is written `{canonical}`")
            }
            PositionError::RankCount(n) => write!(f, "board has {n} ranks, expected 8 separated by /"),
            PositionError::SquareCount { rank, expected, found } => {
                write!(f, "rank {rank} has {found} squares, expected {expected}")
            }
            PositionError::BadStack { square, text } => {
                write!(f, "square {square}: `{text}` is not `.` or player digits bottom to top")
            }
            PositionError::StackTooTall { square, height } => {
                write!(f, "square {square}: stack of {height} pieces, at most 5")
            }
            PositionError::NoSuchPlayer { square, player } => {
                write!(f, "square {square}: player {player} does not exist in this variant")
            }
            PositionError::BadField { field, text } => write!(f, "field `{text}`: expected {field}<number>"),
            PositionError::ReserveCount { expected, found } => {
                write!(f, "reserves: {found} entries, expected {expected}")
            }
            PositionError::TooManyPieces { player, count, total } => {
                write!(f, "player {player} has {count} pieces on board and in reserve, more than {total}")
            }
            PositionError::ToMove(p) => write!(f, "side to move {p} is not a player"),
            PositionError::PlyOverCap { ply, cap } => write!(f, "ply {ply} is over the cap {cap}"),
            PositionError::SwapPhase(why) => write!(f, "swap phase: {why}"),
            PositionError::Unreachable(p) => {
                write!(
                    f,
                    "turn: player {p} just moved yet controls no stack (a move leaves its mover on top of a stack)"
                )
            }
            PositionError::TurnMismatch { turn, ply, expected } => {
                write!(
                    f,
                    "turn={turn} at ply={ply}: player {expected} moves at that ply (every decision passes the turn)"
                )
            }
            PositionError::PlyBelowStacksLost { ply, lost } => {
                write!(f, "ply={ply} is below {lost}, the stacks lost since the start (a decision loses at most one)")
            }
            PositionError::PlyBelowSquaresChanged { ply, changed } => write!(
                f,
                "ply={ply} is too low for the {changed} squares that differ from the start (a decision changes at most 2)"
            ),
            PositionError::StartBoardAgain { ply, moves } => write!(
                f,
                "ply={ply}: the start board after {moves} move(s), yet undoing a move takes a second move by the player on top"
            ),
            PositionError::TooFewOnBoard { pieces } => write!(
                f,
                "board: {pieces} piece(s), fewer than 5 (a piece leaves the board only by an overflow, which leaves 5)"
            ),
            PositionError::TeamUnreachable { mover, team } => write!(
                f,
                "turn: player {mover} just moved, yet team {team} (players {team} and {}) cannot play: no decision leads there",
                team + 2
            ),
        }
    }
}

impl std::error::Error for PositionError {}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.variant().to_text();
        write!(f, "focus {} ", if v.is_empty() { "-" } else { &v })?;
        for r in (0..8u8).rev() {
            if r != 7 {
                f.write_str("/")?;
            }
            let mut first = true;
            for fl in 0..8u8 {
                let sq = r * 8 + fl;
                if !board::is_playable(sq) {
                    continue;
                }
                if !first {
                    f.write_str(",")?;
                }
                first = false;
                let h = self.height(sq);
                if h == 0 {
                    f.write_str(".")?;
                }
                for l in 0..h {
                    write!(f, "{}", self.piece(sq, l).unwrap_or(0))?;
                }
            }
        }
        let res: Vec<String> = (0..self.players()).map(|p| self.reserve(p).to_string()).collect();
        write!(f, " res={} turn={} ply={}", res.join("/"), self.to_move(), self.ply())?;
        if self.variant().fix == Fix::Swap {
            write!(f, " swaps={}", self.swaps_played())?;
        }
        Ok(())
    }
}

fn number(field: &'static str, text: &str, max: u64) -> Result<u64, PositionError> {
    let bad = || PositionError::BadField { field, text: text.to_string() };
    let digits = text.strip_prefix(field).ok_or_else(bad)?;
    let ok = !digits.is_empty()
        && digits.len() <= 10
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    if !ok {
        return Err(bad());
    }
    let n: u64 = digits.parse().map_err(|_| bad())?;
    if n > max {
        return Err(bad());
    }
    Ok(n)
}

impl std::str::FromStr for Position {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Position, PositionError> {
        if text.is_empty() {
            return Err(PositionError::Empty);
        }
        let fields: Vec<&str> = text.split(' ').collect();
        if fields[0] != "focus" {
            return Err(PositionError::Tag(fields[0].to_string()));
        }
        if fields.len() < 2 {
            return Err(PositionError::FieldCount { expected: 6, found: fields.len() });
        }
        let vtext = if fields[1] == "-" { "" } else { fields[1] };
        let v = Variant::parse(vtext).map_err(PositionError::Variant)?;
        let canonical = v.to_text();
        if vtext != canonical || fields[1].is_empty() {
            let canonical = if canonical.is_empty() { "-".to_string() } else { canonical };
            return Err(PositionError::NonCanonicalVariant { found: fields[1].to_string(), canonical });
        }
        let expected = if v.fix == Fix::Swap { 7 } else { 6 };
        if fields.len() != expected {
            return Err(PositionError::FieldCount { expected, found: fields.len() });
        }
        let ranks: Vec<&str> = fields[2].split('/').collect();
        if ranks.len() != 8 {
            return Err(PositionError::RankCount(ranks.len()));
        }
        let mut bd = [0u16; 64];
        let mut count = [0usize; 4];
        for (i, rank_text) in ranks.iter().enumerate() {
            let r = 7 - i as u8;
            let squares: Vec<Square> = (0..8).map(|f| r * 8 + f).filter(|&s| board::is_playable(s)).collect();
            let cells: Vec<&str> = rank_text.split(',').collect();
            if cells.len() != squares.len() {
                return Err(PositionError::SquareCount {
                    rank: r as usize + 1,
                    expected: squares.len(),
                    found: cells.len(),
                });
            }
            for (&sq, cell) in squares.iter().zip(cells) {
                let square = square_name(sq);
                if cell == "." {
                    continue;
                }
                if cell.is_empty() || !cell.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(PositionError::BadStack { square, text: cell.to_string() });
                }
                if cell.len() > MAX_HEIGHT {
                    return Err(PositionError::StackTooTall { square, height: cell.len() });
                }
                let mut c = 0u16;
                for (l, b) in cell.bytes().enumerate() {
                    let p = (b - b'0') as usize;
                    if p >= v.players {
                        return Err(PositionError::NoSuchPlayer { square, player: p });
                    }
                    count[p] += 1;
                    c |= (p as u16) << (2 * l);
                }
                bd[sq as usize] = make(cell.len(), c);
            }
        }
        let res_text = fields[3]
            .strip_prefix("res=")
            .ok_or(PositionError::BadField { field: "res=", text: fields[3].to_string() })?;
        let parts: Vec<&str> = res_text.split('/').collect();
        if parts.len() != v.players {
            return Err(PositionError::ReserveCount { expected: v.players, found: parts.len() });
        }
        let total = total_pieces(v.players);
        let mut reserve = [0u8; 4];
        for (p, part) in parts.iter().enumerate() {
            let n = number("", part, total as u64)
                .map_err(|_| PositionError::BadField { field: "res=", text: fields[3].to_string() })?;
            reserve[p] = n as u8;
            if count[p] + n as usize > total {
                return Err(PositionError::TooManyPieces { player: p, count: count[p] + n as usize, total });
            }
        }
        for (p, &c) in count.iter().enumerate().take(v.players) {
            if c > total {
                return Err(PositionError::TooManyPieces { player: p, count: c + reserve[p] as usize, total });
            }
        }
        let turn = number("turn=", fields[4], 9)? as usize;
        if turn >= v.players {
            return Err(PositionError::ToMove(turn));
        }
        let ply = number("ply=", fields[5], u32::MAX as u64)? as u32;
        if ply > v.cap {
            return Err(PositionError::PlyOverCap { ply, cap: v.cap });
        }
        let swaps = if v.fix == Fix::Swap { number("swaps=", fields[6], 2)? as u8 } else { 2 };
        if swaps < 2 {
            let start = Position::start(v);
            if ply != swaps as u32 || turn != swaps as usize {
                return Err(PositionError::SwapPhase(format!(
                    "{swaps} swaps played needs ply={swaps} and turn={swaps}"
                )));
            }
            if reserve != [0; 4] || SQUARES.iter().any(|&s| (start.board[s as usize] == 0) != (bd[s as usize] == 0)) {
                return Err(PositionError::SwapPhase("the board must hold the start's 36 single pieces".into()));
            }
            // Same 36 occupied squares and at most 18 pieces each: 36 single pieces, 18 each.
            if swaps == 0 && bd != start.board {
                return Err(PositionError::SwapPhase("no swap played yet, the board must be the start".into()));
            }
            let diff = SQUARES.iter().filter(|&&s| bd[s as usize] != start.board[s as usize]).count();
            if swaps == 1 && diff != 2 {
                return Err(PositionError::SwapPhase(
                    "one swap played: exactly 2 squares differ from the start".into(),
                ));
            }
        } else if v.fix == Fix::Swap && ply < 2 {
            return Err(PositionError::SwapPhase("both swaps played needs ply >= 2".into()));
        } else if v.fix == Fix::Swap && ply == 2 {
            let start = Position::start(v);
            let singles = SQUARES.iter().all(|&s| (start.board[s as usize] == 0) == (bd[s as usize] == 0))
                && SQUARES.iter().all(|&s| board::height(bd[s as usize]) <= 1);
            if reserve != [0; 4] || !singles {
                return Err(PositionError::SwapPhase(
                    "the board after both swaps must hold the start's 36 single pieces".into(),
                ));
            }
            // At most 4 squares differ from the start: the bound on squares changed checks it.
            if crate::position::symmetric(&bd) {
                return Err(PositionError::SwapPhase(
                    "after both swaps the board is not symmetric (P1's swap may not restore the symmetry)".into(),
                ));
            }
        }
        let pos = Position::assemble(v, bd, reserve, turn as u8, ply, swaps);
        pos.check_history()?;
        Ok(pos)
    }
}

impl Position {
    /// The checks that the ply, the side to move and the board fit a game played from the
    /// start. Each is a fact of the start position that every decision keeps, so a position
    /// that legal play reaches is never refused, and a legal move from an accepted position
    /// leads to an accepted one:
    ///
    /// - the side to move is the ply's: each decision passes the turn to the next player;
    /// - stacks at the start minus stacks now ≤ ply: only a step of a whole stack empties a
    ///   square, and it lands on one square, so a decision loses at most one stack (the
    ///   pieces in reserve or eliminated count among the lost: every piece started alone);
    /// - squares that differ from the start ≤ 2 × ply: a decision changes at most two squares;
    /// - at least 5 pieces on the board: only an overflow takes pieces off, and it leaves 5;
    /// - not the start board after 1 to `players` moves (swaps not counted): a move puts its
    ///   mover on top of its destination, and only a second move by whoever tops it then can
    ///   take the pieces off again, while nobody has moved twice yet. Unlike the others this
    ///   one is not kept by every move: from an accepted position that no game reaches, one
    ///   move may restore the start board and be refused;
    /// - 2 players, ply > 0: the player who just moved controls a stack (his destination);
    /// - 4 players, ply > 0: the team of the player who just moved can play; and if he cannot
    ///   himself (he passed), the other team can too (a pass changes nothing, and it was played
    ///   in a game that was still going on).
    fn check_history(&self) -> Result<(), PositionError> {
        let v = self.variant;
        let (turn, ply) = (self.to_move as usize, self.ply);
        let mut expected = 0u8;
        for _ in 0..ply % 4 {
            expected = Position { to_move: expected, ..*self }.next_player();
        }
        if turn != expected as usize {
            return Err(PositionError::TurnMismatch { turn, ply, expected: expected as usize });
        }
        let start = Position::start(v);
        let stacks = |p: &Position| SQUARES.iter().filter(|&&s| p.board[s as usize] != 0).count();
        let lost = stacks(&start).saturating_sub(stacks(self));
        if (ply as u64) < lost as u64 {
            return Err(PositionError::PlyBelowStacksLost { ply, lost });
        }
        let changed = SQUARES.iter().filter(|&&s| self.board[s as usize] != start.board[s as usize]).count();
        if 2 * (ply as u64) < changed as u64 {
            return Err(PositionError::PlyBelowSquaresChanged { ply, changed });
        }
        let pieces: usize = SQUARES.iter().map(|&s| board::height(self.board[s as usize])).sum();
        if pieces < 5 {
            return Err(PositionError::TooFewOnBoard { pieces });
        }
        let moves = ply - if v.fix == Fix::Swap { self.swaps as u32 } else { 0 };
        if changed == 0 && (1..=v.players as u32).contains(&moves) {
            return Err(PositionError::StartBoardAgain { ply, moves });
        }
        if ply > 0 {
            let n = v.players;
            let mover = (0..n)
                .find(|&q| Position { to_move: q as u8, ..*self }.next_player() as usize == turn)
                .expect("every player has a predecessor");
            if n == 2 {
                if self.ctrl[mover] == 0 {
                    return Err(PositionError::Unreachable(mover));
                }
            } else {
                let alive = |team: usize| self.can_play(team) || self.can_play(team + 2);
                let team = mover % 2;
                if !alive(team) {
                    return Err(PositionError::TeamUnreachable { mover, team });
                }
                if !self.can_play(mover) && !alive(1 - team) {
                    return Err(PositionError::TeamUnreachable { mover, team: 1 - team });
                }
            }
        }
        Ok(())
    }
}

const ANSI: [&str; 4] = ["\x1b[97m", "\x1b[31m", "\x1b[33m", "\x1b[32m"];

impl Position {
    /// The text board for a terminal: 8 ranks (8 at the top), each square its stack's pieces as
    /// digits bottom to top (`.` empty; blank for a removed corner), the top piece marked (bold in
    /// colour, otherwise the top digit is followed by `'`); then reserves, eliminated pieces, the side
    /// to move, the ply and the outcome. With `colour`, digits use ANSI colours per player.
    pub fn board_text(&self, colour: bool) -> String {
        let mut s = String::new();
        for r in (0..8u8).rev() {
            s.push_str(&format!("{} ", r + 1));
            for f in 0..8u8 {
                let sq = r * 8 + f;
                if !board::is_playable(sq) {
                    s.push_str("       ");
                    continue;
                }
                let h = self.height(sq);
                let mut cell = String::new();
                let mut width = 0;
                if h == 0 {
                    cell.push('.');
                    width = 1;
                }
                for l in 0..h {
                    let p = self.piece(sq, l).unwrap_or(0);
                    let last = l + 1 == h;
                    if colour {
                        let bold = if last { "\x1b[1m" } else { "" };
                        cell.push_str(&format!("{}{bold}{p}\x1b[0m", ANSI[p]));
                    } else {
                        cell.push_str(&p.to_string());
                    }
                    width += 1;
                    if last && !colour {
                        cell.push('\'');
                        width += 1;
                    }
                }
                s.push(' ');
                s.push_str(&cell);
                s.push_str(&" ".repeat(6 - width));
            }
            s.push('\n');
        }
        s.push_str("  ");
        for f in 0..8u8 {
            s.push_str(&format!(" {}     ", (b'a' + f) as char));
        }
        s.push('\n');
        let names = |p: usize| -> String {
            if colour { format!("{}player {p}\x1b[0m", ANSI[p]) } else { format!("player {p}") }
        };
        for p in 0..self.players() {
            s.push_str(&format!(
                "{}: reserve {}, eliminated {}, controls {} stacks\n",
                names(p),
                self.reserve(p),
                self.eliminated(p),
                SQUARES.iter().filter(|&&q| self.controller(q) == Some(p)).count()
            ));
        }
        s.push_str(&format!("to move: {}, ply {} of {}", names(self.to_move()), self.ply(), self.variant().cap));
        if self.swaps_played() < 2 {
            s.push_str(&format!(", opening swap {} of 2", self.swaps_played() + 1));
        }
        match self.outcome() {
            None => {}
            Some(Outcome::Draw) => s.push_str(", game over: draw"),
            Some(Outcome::Win { team }) if self.players() == 2 => {
                s.push_str(&format!(", game over: player {team} wins"))
            }
            Some(Outcome::Win { team }) => {
                s.push_str(&format!(", game over: team {team} (players {} and {}) wins", team, team + 2))
            }
        }
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "focus - .,.,.,./0,0,1,1,0,0/.,1,1,0,0,1,1,./.,0,0,1,1,0,0,./.,1,1,0,0,1,1,./.,0,0,1,1,0,0,./\
                         1,1,0,0,1,1/.,.,.,. res=0/0 turn=0 ply=0";
    const EMPTY: &str =
        ".,.,.,./.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,./.,.,.,.";

    /// `EMPTY` with the stacks `cells` (square name, stack bottom to top).
    fn board(cells: &[(&str, &str)]) -> String {
        let mut ranks: Vec<Vec<String>> = EMPTY.split('/').map(|r| r.split(',').map(String::from).collect()).collect();
        for (sq, stack) in cells {
            let (f, r) = (sq.as_bytes()[0] - b'a', sq.as_bytes()[1] - b'1');
            let first = match r {
                0 | 7 => 2,
                1 | 6 => 1,
                _ => 0,
            };
            ranks[7 - r as usize][(f - first) as usize] = stack.to_string();
        }
        ranks.iter().map(|r| r.join(",")).collect::<Vec<_>>().join("/")
    }

    fn err(text: &str) -> PositionError {
        text.parse::<Position>().expect_err(text)
    }

    fn ok(text: &str) -> Position {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// A refused text, a check of its error variant, and the message.
    type Case = (String, fn(&PositionError) -> bool, &'static str);

    /// Each refused class: the text, the variant, and a one-line message naming the field.
    #[test]
    fn refused_classes() {
        let swap = Position::start(Variant::parse("fix=swap").unwrap()).to_string();
        let ccw = Position::start(Variant::parse("players=4,order=ccw").unwrap()).to_string();
        let cases: Vec<Case> = vec![
            (
                START.replace("turn=0", "turn=1"),
                |e| matches!(e, PositionError::TurnMismatch { turn: 1, ply: 0, expected: 0 }),
                "turn=1 at ply=0: player 0 moves at that ply (every decision passes the turn)",
            ),
            (
                ccw.replace("turn=0 ply=0", "turn=1 ply=1"),
                |e| matches!(e, PositionError::TurnMismatch { turn: 1, ply: 1, expected: 3 }),
                "turn=1 at ply=1: player 3 moves at that ply (every decision passes the turn)",
            ),
            (
                format!("focus - {EMPTY} res=0/0 turn=0 ply=0"),
                |e| matches!(e, PositionError::PlyBelowStacksLost { ply: 0, lost: 36 }),
                "ply=0 is below 36, the stacks lost since the start (a decision loses at most one)",
            ),
            (
                // 34 pieces gone (reserve or eliminated) in 11 plies.
                format!("focus - {} res=0/0 turn=1 ply=11", board(&[("d5", "0"), ("d4", "1")])),
                |e| matches!(e, PositionError::PlyBelowStacksLost { ply: 11, lost: 34 }),
                "ply=11 is below 34, the stacks lost since the start (a decision loses at most one)",
            ),
            (
                // b7 and d7, b6 and d6 exchanged colours: 4 squares in 1 ply.
                START
                    .replacen("/0,0,1,1,0,0/.,1,1,0,0,1,1,./", "/1,0,0,1,0,0/.,0,1,1,0,1,1,./", 1)
                    .replace("turn=0 ply=0", "turn=1 ply=1"),
                |e| matches!(e, PositionError::PlyBelowSquaresChanged { ply: 1, changed: 4 }),
                "ply=1 is too low for the 4 squares that differ from the start (a decision changes at most 2)",
            ),
            (
                // Player 0 just moved but controls nothing (his reserve does not help: a move
                // leaves its mover on top).
                format!("focus - {} res=3/0 turn=1 ply=35", board(&[("d5", "11111"), ("d4", "1")])),
                |e| matches!(e, PositionError::Unreachable(0)),
                "turn: player 0 just moved yet controls no stack (a move leaves its mover on top of a stack)",
            ),
            (
                format!("focus players=4 {} res=0/0/0/0 turn=1 ply=53", board(&[("d5", "11111"), ("a4", "3")])),
                |e| matches!(e, PositionError::TeamUnreachable { mover: 0, team: 0 }),
                "turn: player 0 just moved, yet team 0 (players 0 and 2) cannot play: no decision leads there",
            ),
            (
                // Player 0 is blocked, so he passed; but team 1 was already out before that pass.
                format!("focus players=4 {} res=0/0/0/0 turn=1 ply=53", board(&[("d5", "22222")])),
                |e| matches!(e, PositionError::TeamUnreachable { mover: 0, team: 1 }),
                "turn: player 0 just moved, yet team 1 (players 1 and 3) cannot play: no decision leads there",
            ),
            (
                START.replace("turn=0 ply=0", "turn=1 ply=1"),
                |e| matches!(e, PositionError::StartBoardAgain { ply: 1, moves: 1 }),
                "ply=1: the start board after 1 move(s), yet undoing a move takes a second move by the player on top",
            ),
            (
                START.replace("turn=0 ply=0", "turn=0 ply=2"),
                |e| matches!(e, PositionError::StartBoardAgain { ply: 2, moves: 2 }),
                "ply=2: the start board after 2 move(s), yet undoing a move takes a second move by the player on top",
            ),
            (
                swap.replace("turn=0 ply=0 swaps=0", "turn=1 ply=3 swaps=2"),
                |e| matches!(e, PositionError::StartBoardAgain { ply: 3, moves: 1 }),
                "ply=3: the start board after 1 move(s), yet undoing a move takes a second move by the player on top",
            ),
            (
                format!("focus - {} res=17/0 turn=0 ply=100", board(&[("d5", "0")])),
                |e| matches!(e, PositionError::TooFewOnBoard { pieces: 1 }),
                "board: 1 piece(s), fewer than 5 (a piece leaves the board only by an overflow, which leaves 5)",
            ),
            (
                swap.replace("turn=0 ply=0 swaps=0", "turn=0 ply=2 swaps=2"),
                |e| matches!(e, PositionError::SwapPhase(_)),
                "swap phase: after both swaps the board is not symmetric (P1's swap may not restore the symmetry)",
            ),
            (
                swap.replacen("/0,0,1,1,0,0/.,1,1,0,0,1,1,./", "/1,1,0,0,0,0/.,0,0,1,1,1,1,./", 1)
                    .replace("turn=0 ply=0 swaps=0", "turn=0 ply=2 swaps=2"),
                |e| matches!(e, PositionError::PlyBelowSquaresChanged { ply: 2, changed: 8 }),
                "ply=2 is too low for the 8 squares that differ from the start (a decision changes at most 2)",
            ),
            (
                swap.replacen("/0,0,1,1,0,0/", "/.,00,1,1,0,0/", 1)
                    .replace("turn=0 ply=0 swaps=0", "turn=0 ply=2 swaps=2"),
                |e| matches!(e, PositionError::SwapPhase(_)),
                "swap phase: the board after both swaps must hold the start's 36 single pieces",
            ),
        ];
        for (text, is, msg) in cases {
            let e = err(&text);
            assert!(is(&e), "{text}: {e:?}");
            assert_eq!(e.to_string(), msg, "{text}");
            assert!(!e.to_string().contains('\n'));
        }
    }

    /// What legal play reaches stays accepted: the checks above are not over-eager.
    #[test]
    fn reachable_edges_are_accepted() {
        assert_eq!(ok(START), Position::start(Variant::default()));
        // Both swaps played: 4 squares differ, the board is not symmetric.
        let mut p = Position::start(Variant::parse("fix=swap").unwrap());
        for m in ["swap:b7,d7", "swap:e7,c7"] {
            p.play_unchecked(p.parse_move(m).unwrap());
        }
        assert_eq!(ok(&p.to_string()), p);
        // A blocked player of the 4-player game passes: he controls nothing, his team and the
        // other team still play.
        let blocked = format!("focus players=4 {} res=0/0/0/0 turn=2 ply=50", board(&[("d5", "00000"), ("a4", "3")]));
        let mut p = ok(&blocked);
        p.play_unchecked(Move::Pass);
        assert_eq!(ok(&p.to_string()), p);
        // The winner's reserve is no obstacle when he controls a stack.
        ok(&format!("focus - {} res=3/0 turn=1 ply=35", board(&[("d5", "1111"), ("d4", "10")])));
        // Five pieces on the board: an overflow leaves that many.
        ok(&format!("focus - {} res=1/0 turn=0 ply=100", board(&[("d5", "00011")])));
        // The start board again once both players have moved twice.
        ok(&START.replace("turn=0 ply=0", "turn=0 ply=4"));
    }
}
