//! Text forms: move text (`Fa1`, `Rb1f`, `Re5f@b1`, `RECc1`, `decline`),
//! the one-line position text, and the text board of `senat show`.
//! NOTATION.md describes every form.
//!
//! What it must never do: panic on bad input (every error is a typed value
//! that says what is wrong and where), or accept a position that no match
//! could hold in the ways the checks below know about.

use crate::Outcome;
use crate::position::{Dir, Move, Phase, Position, Square, code, home_rank, owner_of, step, value_of};
use crate::variant::{Variant, VariantError};
use std::fmt;
use std::str::FromStr;

/// The name of a square, `a1`..`f6`.
pub fn square_name(sq: Square) -> String {
    format!("{}{}", char::from(b'a' + sq % 6), sq / 6 + 1)
}

/// Reads a square name (`a1`..`f6`, file letter in either case).
pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].to_ascii_lowercase();
    if !(b'a'..=b'f').contains(&f) || !(b'1'..=b'6').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 6 + (f - b'a'))
}

fn side_name(p: usize) -> &'static str {
    if p == 0 { "South" } else { "North" }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dir::Forward => "f",
            Dir::Left => "l",
            Dir::Right => "r",
        })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Flip { square } => write!(f, "F{}", square_name(square)),
            Move::Roll { from, dir, home } => {
                write!(f, "R{}{dir}", square_name(from))?;
                if let Some(h) = home {
                    write!(f, "@{}", square_name(h))?;
                }
                Ok(())
            }
            Move::Recover { to } => write!(f, "REC{}", square_name(to)),
            Move::Decline => f.write_str("decline"),
        }
    }
}

/// Why a move text is not a legal move here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Nothing but blanks.
    Empty,
    /// The text starts with none of `F`, `R`, `REC`, `decline`.
    UnknownAction {
        /// The text (blanks removed).
        text: String,
    },
    /// A square name is missing or wrong.
    BadSquare {
        /// The text where a square was expected.
        text: String,
    },
    /// A roll's direction is not `f`, `l` or `r`.
    BadDirection {
        /// The text where the direction was expected.
        text: String,
    },
    /// Characters after a complete move.
    Trailing {
        /// The extra characters.
        text: String,
    },
    /// A well-formed move that is not legal here.
    Illegal {
        /// The move, as written back.
        mv: String,
        /// Why it is not legal.
        reason: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => write!(f, "empty move text (expected Fa1, Rb1f, Re5f@b1, RECc1 or decline)"),
            MoveError::UnknownAction { text } => {
                write!(f, "`{text}`: unknown action (expected Fa1, Rb1f, Re5f@b1, RECc1 or decline)")
            }
            MoveError::BadSquare { text } => write!(f, "`{text}`: expected a square a1..f6"),
            MoveError::BadDirection { text } => {
                write!(f, "`{text}`: expected a roll direction f (forward), l (towards file a) or r (towards file f)")
            }
            MoveError::Trailing { text } => write!(f, "`{text}`: unexpected text after the move"),
            MoveError::Illegal { mv, reason } => write!(f, "illegal move {mv}: {reason}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Reads a square at the start of `t` (2 characters), or says what is wrong.
fn square_at(t: &str) -> Result<(Square, &str), MoveError> {
    let head: String = t.chars().take(2).collect();
    match parse_square(&head) {
        Some(sq) => Ok((sq, &t[2..])),
        None => Err(MoveError::BadSquare { text: t.into() }),
    }
}

/// Parses move text without a position (syntax only). Blanks anywhere are
/// ignored and letters may be in either case.
pub fn parse_move_text(text: &str) -> Result<Move, MoveError> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
    if t.is_empty() {
        return Err(MoveError::Empty);
    }
    let done =
        |m: Move, rest: &str| if rest.is_empty() { Ok(m) } else { Err(MoveError::Trailing { text: rest.into() }) };
    if t == "decline" {
        return Ok(Move::Decline);
    }
    if let Some(r) = t.strip_prefix("rec") {
        let (sq, rest) = square_at(r)?;
        return done(Move::Recover { to: sq }, rest);
    }
    if let Some(r) = t.strip_prefix('f') {
        let (sq, rest) = square_at(r)?;
        return done(Move::Flip { square: sq }, rest);
    }
    if let Some(r) = t.strip_prefix('r') {
        let (from, rest) = square_at(r)?;
        let dir = match rest.chars().next() {
            Some('f') => Dir::Forward,
            Some('l') => Dir::Left,
            Some('r') => Dir::Right,
            _ => return Err(MoveError::BadDirection { text: rest.into() }),
        };
        let rest = &rest[1..];
        if let Some(h) = rest.strip_prefix('@') {
            let (home, rest) = square_at(h)?;
            return done(Move::Roll { from, dir, home: Some(home) }, rest);
        }
        return done(Move::Roll { from, dir, home: None }, rest);
    }
    Err(MoveError::UnknownAction { text: t })
}

impl Position {
    /// Parses a move and checks it is legal here; the error says which and why.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = parse_move_text(text)?;
        self.check(m)?;
        Ok(m)
    }

    /// Whether `m` is legal here, and if not, why: the decision of
    /// [`Position::is_legal`], with the reason of a refusal in
    /// [`MoveError::Illegal`] ([`Position::parse_move`] after the syntax,
    /// [`Position::play`]).
    pub fn check(&self, m: Move) -> Result<(), MoveError> {
        if self.is_legal(m) {
            Ok(())
        } else {
            Err(MoveError::Illegal { mv: m.to_string(), reason: self.why_illegal(m) })
        }
    }

    /// Why `m` is not legal here (for error messages).
    fn why_illegal(&self, m: Move) -> String {
        // Squares no move text names (a `Move` built in code).
        let squares = match m {
            Move::Flip { square } => [Some(square), None],
            Move::Roll { from, home, .. } => [Some(from), home],
            Move::Recover { to } => [Some(to), None],
            Move::Decline => [None, None],
        };
        if let Some(sq) = squares.into_iter().flatten().find(|&sq| sq >= 36) {
            return format!("square {sq} is off the board (0..36)");
        }
        if let Some(o) = self.outcome() {
            return format!("the match is over ({o})");
        }
        let me = self.to_move;
        let home = home_rank(me);
        match (self.phase, m) {
            (Phase::Recovery, Move::Flip { .. } | Move::Roll { .. }) => {
                return "the turn ends with a recovery decision: REC<home square> or decline".into();
            }
            (Phase::Recovery, Move::Recover { to }) => {
                return if to / 6 != home {
                    format!("{} is not on your home row (rank {})", square_name(to), home + 1)
                } else {
                    format!("{} is occupied", square_name(to))
                };
            }
            (_, Move::Recover { .. } | Move::Decline) => return "no recovery decision is due now".into(),
            (Phase::Rebond { square, .. }, Move::Flip { square: s } | Move::Roll { from: s, .. }) if s != square => {
                return format!("the die on {} must make its rebond first", square_name(square));
            }
            _ => {}
        }
        let (Move::Flip { square: sq } | Move::Roll { from: sq, .. }) = m else { unreachable!() };
        let c = self.board[sq as usize];
        if c == 0 || owner_of(c) != me {
            return format!("no die of yours on {}", square_name(sq));
        }
        match m {
            Move::Flip { .. } => "the two regular actions may not flip the same die".into(),
            Move::Roll { dir, home: h, .. } => {
                let Some(t) = step(sq, dir, me) else { return "the roll would leave the board".into() };
                let tc = self.board[t as usize];
                if tc != 0 && owner_of(tc) == me {
                    return format!("{} holds your own die", square_name(t));
                }
                if tc != 0 {
                    let (v, tv) = (value_of(c), value_of(tc));
                    if !(v > tv || (v == 1 && tv != 1)) {
                        return format!("a {v} cannot capture a {tv} (needs a higher value, or a 1 against 2..6)");
                    }
                }
                match h {
                    None => format!(
                        "{} is on the enemy home row: name an empty home square, @a{}",
                        square_name(t),
                        home + 1
                    ),
                    Some(_) if t / 6 != home_rank(1 - me) => {
                        "only a roll onto the enemy home row names a home square".into()
                    }
                    Some(_) if !self.variant.relocate_on_end && tc != 0 && self.held(me as usize) == 4 => {
                        "this capture ends the round: no home square is named (relocate_on_end=no)".into()
                    }
                    Some(h) if h / 6 != home => format!("{} is not on your home row", square_name(h)),
                    Some(h) => format!("{} is occupied", square_name(h)),
                }
            }
            _ => "not legal here".into(),
        }
    }
}

/// Why a text is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Not 12 blank-separated fields.
    FieldCount {
        /// Fields found.
        found: usize,
    },
    /// The board does not have 6 ranks separated by `/`.
    RankCount {
        /// Ranks found.
        found: usize,
    },
    /// A rank does not hold exactly 6 cells.
    RankLength {
        /// The rank, 1..6.
        rank: usize,
        /// The rank's text.
        text: String,
    },
    /// A cell token that is not `.`, `S1`..`S6` or `N1`..`N6`.
    BadCell {
        /// The square.
        square: String,
        /// The token.
        text: String,
    },
    /// A die value outside 1..6 (0, 7, …).
    BadValue {
        /// The square.
        square: String,
        /// The value as written.
        value: char,
    },
    /// A field that does not read.
    BadField {
        /// Which field.
        field: &'static str,
        /// Its text.
        text: String,
        /// What it should look like.
        expected: &'static str,
    },
    /// The variant field does not read.
    Variant(VariantError),
    /// A side's dice on the board plus those the opponent holds are not 6.
    DiceDontAddUp {
        /// The side, 0 South.
        side: usize,
        /// Its dice on the board.
        on_board: usize,
        /// Its dice the opponent holds.
        captured: usize,
    },
    /// A die stands on its opponent's home row (it would have been moved home).
    OnEnemyHome {
        /// The square.
        square: String,
    },
    /// A running round with a pile of 5 or more (the round would have ended).
    PileFull {
        /// The holder.
        holder: usize,
    },
    /// The pending rebond names a square without a die of the side to move.
    RebondNotMover {
        /// The square.
        square: String,
    },
    /// The flipped die of the second action is not a die of the side to move.
    FlippedNotMover {
        /// The square.
        square: String,
    },
    /// A recovery decision where the recovery is not offered.
    RecoveryNotOffered,
    /// A counter above what a running match can show under the variant.
    CounterTooHigh {
        /// Which counter.
        counter: &'static str,
        /// Its value.
        value: u32,
        /// The most a running match can show.
        limit: u32,
    },
    /// Scores that would have ended the match, in a running match.
    MatchShouldBeOver {
        /// The scores.
        scores: [u32; 2],
    },
    /// A result that the scores contradict.
    ResultContradicted {
        /// The scores.
        scores: [u32; 2],
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::FieldCount { found } => write!(
                f,
                "{found} fields, expected 12: board side phase piles scores round starter turns quiet ply result variant"
            ),
            PositionError::RankCount { found } => write!(f, "board has {found} ranks, expected 6 separated by `/`"),
            PositionError::RankLength { rank, text } => {
                write!(f, "rank {rank} `{text}` does not hold 6 cells (`.`, S1..S6, N1..N6)")
            }
            PositionError::BadCell { square, text } => {
                write!(f, "{square}: `{text}` is not a cell (expected `.`, S1..S6 or N1..N6)")
            }
            PositionError::BadValue { square, value } => write!(f, "{square}: die value {value} is not 1..6"),
            PositionError::BadField { field, text, expected } => write!(f, "{field} `{text}`: expected {expected}"),
            PositionError::Variant(e) => write!(f, "variant field: {e}"),
            PositionError::DiceDontAddUp { side, on_board, captured } => write!(
                f,
                "{}: {on_board} dice on the board and {captured} held by the opponent, expected 6 in all",
                side_name(*side)
            ),
            PositionError::OnEnemyHome { square } => {
                write!(f, "{square}: a die on its opponent's home row (it goes home at once)")
            }
            PositionError::PileFull { holder } => {
                write!(f, "{} holds 5 or more dice in a running match (the round would have ended)", side_name(*holder))
            }
            PositionError::RebondNotMover { square } => {
                write!(f, "pending rebond on {square}: no die of the side to move there")
            }
            PositionError::FlippedNotMover { square } => {
                write!(f, "flipped die on {square}: no die of the side to move there")
            }
            PositionError::RecoveryNotOffered => write!(
                f,
                "recovery phase, but the recovery is not offered (the mover's dice differ or the opponent holds none)"
            ),
            PositionError::CounterTooHigh { counter, value, limit } => {
                write!(f, "{counter} {value} is above {limit}, the most a running match shows under its variant")
            }
            PositionError::MatchShouldBeOver { scores } => {
                write!(f, "scores {}-{} would have ended the match, but it is running", scores[0], scores[1])
            }
            PositionError::ResultContradicted { scores } => {
                write!(f, "the result contradicts the scores {}-{}", scores[0], scores[1])
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..6).rev() {
            for file in 0..6 {
                let c = self.board[rank * 6 + file];
                if c == 0 {
                    f.write_str(".")?;
                } else {
                    write!(f, "{}{}", if owner_of(c) == 0 { 'S' } else { 'N' }, value_of(c))?;
                }
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let side = |p: u8| if p == 0 { "s" } else { "n" };
        write!(f, " {} ", side(self.to_move))?;
        match self.phase {
            Phase::Action { index: 0, .. } => f.write_str("1")?,
            Phase::Action { flipped: None, .. } => f.write_str("2")?,
            Phase::Action { flipped: Some(sq), .. } => write!(f, "2-{}", square_name(sq))?,
            Phase::Rebond { square, after } => write!(f, "r{after}{}", square_name(square))?,
            Phase::Recovery => f.write_str("rec")?,
        }
        let pile = |p: usize| {
            let s: String = (1..=6u8)
                .flat_map(|v| std::iter::repeat_n(char::from(b'0' + v), self.piles[p][v as usize - 1] as usize))
                .collect();
            if s.is_empty() { "-".to_string() } else { s }
        };
        write!(f, " {}/{}", pile(0), pile(1))?;
        write!(f, " {}-{}", self.scores[0], self.scores[1])?;
        write!(f, " r{} {}", self.round, side(self.starter))?;
        write!(f, " t{} q{}{}", self.turn, self.quiet, if self.captured { "+" } else { "" })?;
        write!(f, " p{}", self.ply)?;
        let result = match self.result {
            None => "-",
            Some(Outcome::Win { team: 0 }) => "s",
            Some(Outcome::Win { .. }) => "n",
            Some(Outcome::Draw) => "=",
        };
        let v = self.variant.to_text();
        write!(f, " {result} {}", if v.is_empty() { "-" } else { &v })
    }
}

fn number<T: FromStr>(
    field: &'static str,
    text: &str,
    prefix: &str,
    expected: &'static str,
) -> Result<T, PositionError> {
    let bad = || PositionError::BadField { field, text: text.into(), expected };
    let digits = text.strip_prefix(prefix).ok_or_else(bad)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    digits.parse().map_err(|_| bad())
}

fn side_field(field: &'static str, text: &str) -> Result<u8, PositionError> {
    match text {
        "s" => Ok(0),
        "n" => Ok(1),
        _ => Err(PositionError::BadField { field, text: text.into(), expected: "s (South) or n (North)" }),
    }
}

impl FromStr for Position {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 12 {
            return Err(PositionError::FieldCount { found: fields.len() });
        }
        let variant = if fields[11] == "-" {
            Variant::default()
        } else {
            Variant::parse(fields[11]).map_err(PositionError::Variant)?
        };
        let mut p = Position::start(variant);
        // Board.
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 6 {
            return Err(PositionError::RankCount { found: ranks.len() });
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 5 - i;
            let mut cells = Vec::new();
            let b = rank_text.as_bytes();
            let mut j = 0;
            while j < b.len() {
                let file = cells.len();
                let square = if file < 6 { square_name((rank * 6 + file) as u8) } else { format!("rank {}", rank + 1) };
                match b[j] {
                    b'.' => {
                        cells.push(0);
                        j += 1;
                    }
                    s @ (b'S' | b'N') => {
                        let Some(&d) = b.get(j + 1) else {
                            return Err(PositionError::BadCell { square, text: char::from(s).into() });
                        };
                        if !d.is_ascii_digit() {
                            let tok = String::from_utf8_lossy(&b[j..(j + 2).min(b.len())]).into_owned();
                            return Err(PositionError::BadCell { square, text: tok });
                        }
                        if !(b'1'..=b'6').contains(&d) {
                            return Err(PositionError::BadValue { square, value: char::from(d) });
                        }
                        cells.push(code(u8::from(s == b'N'), d - b'0'));
                        j += 2;
                    }
                    _ => {
                        let tok: String = rank_text[j..].chars().take(2).collect();
                        return Err(PositionError::BadCell { square, text: tok });
                    }
                }
            }
            if cells.len() != 6 {
                return Err(PositionError::RankLength { rank: rank + 1, text: (*rank_text).into() });
            }
            for (file, c) in cells.into_iter().enumerate() {
                p.board[rank * 6 + file] = c;
            }
        }
        p.to_move = side_field("side", fields[1])?;
        let sq_of = |field: &'static str, t: &str, expected: &'static str| {
            parse_square(t).ok_or_else(|| PositionError::BadField { field, text: fields[2].into(), expected })
        };
        const PHASE: &str = "1, 2, 2-<square>, r1<square>, r2<square> or rec";
        p.phase = match fields[2] {
            "1" => Phase::Action { index: 0, flipped: None },
            "2" => Phase::Action { index: 1, flipped: None },
            "rec" => Phase::Recovery,
            t if t.starts_with("2-") => Phase::Action { index: 1, flipped: Some(sq_of("phase", &t[2..], PHASE)?) },
            t if t.starts_with("r1") || t.starts_with("r2") => {
                Phase::Rebond { square: sq_of("phase", &t[2..], PHASE)?, after: t.as_bytes()[1] - b'0' }
            }
            t => return Err(PositionError::BadField { field: "phase", text: t.into(), expected: PHASE }),
        };
        // Piles.
        const PILES: &str = "two piles of digits 1..6 (or -) separated by `/`, South's first";
        let bad_piles = || PositionError::BadField { field: "piles", text: fields[3].into(), expected: PILES };
        let (a, b) = fields[3].split_once('/').ok_or_else(bad_piles)?;
        for (holder, t) in [a, b].into_iter().enumerate() {
            if t == "-" {
                continue;
            }
            if t.is_empty() || t.len() > 6 || !t.bytes().all(|c| (b'1'..=b'6').contains(&c)) {
                return Err(bad_piles());
            }
            for c in t.bytes() {
                p.piles[holder][(c - b'1') as usize] += 1;
            }
        }
        const SCORES: &str = "two scores like 12-7";
        let bad_scores = || PositionError::BadField { field: "scores", text: fields[4].into(), expected: SCORES };
        let (a, b) = fields[4].split_once('-').ok_or_else(bad_scores)?;
        p.scores = [number("scores", a, "", SCORES)?, number("scores", b, "", SCORES)?];
        p.round = number("round", fields[5], "r", "r<round number from 1>")?;
        p.starter = side_field("starter", fields[6])?;
        p.turn = number("turns", fields[7], "t", "t<turns completed in the round>")?;
        let (q, plus) = match fields[8].strip_suffix('+') {
            Some(q) => (q, true),
            None => (fields[8], false),
        };
        p.quiet = number("quiet", q, "q", "q<turns without a capture>, + when this turn captured").map_err(|_| {
            PositionError::BadField {
                field: "quiet",
                text: fields[8].into(),
                expected: "q<turns without a capture>, + when this turn captured",
            }
        })?;
        p.captured = plus;
        p.ply = number("ply", fields[9], "p", "p<plies since the start>")?;
        p.result = match fields[10] {
            "-" => None,
            "s" => Some(Outcome::Win { team: 0 }),
            "n" => Some(Outcome::Win { team: 1 }),
            "=" => Some(Outcome::Draw),
            t => {
                return Err(PositionError::BadField {
                    field: "result",
                    text: t.into(),
                    expected: "- (running), s or n (winner) or = (draw)",
                });
            }
        };
        p.validate()?;
        p.hash = p.hash_from_scratch();
        Ok(p)
    }
}

impl Position {
    /// The checks that a parsed position could occur in a match.
    fn validate(&self) -> Result<(), PositionError> {
        let running = self.result.is_none();
        if self.round == 0 {
            return Err(PositionError::BadField {
                field: "round",
                text: "r0".into(),
                expected: "r<round number from 1>",
            });
        }
        for side in 0..2 {
            let on_board = self.board.iter().filter(|&&c| c != 0 && owner_of(c) as usize == side).count();
            let captured = self.held(1 - side);
            if on_board + captured != 6 {
                return Err(PositionError::DiceDontAddUp { side, on_board, captured });
            }
        }
        for (sq, &c) in self.board.iter().enumerate() {
            if c != 0 && sq as u8 / 6 == home_rank(1 - owner_of(c)) {
                return Err(PositionError::OnEnemyHome { square: square_name(sq as u8) });
            }
        }
        let v = self.variant;
        if running {
            for holder in 0..2 {
                if self.held(holder) >= 5 {
                    return Err(PositionError::PileFull { holder });
                }
            }
            for (counter, value, limit) in [
                ("round", self.round as u32, v.rounds as u32),
                ("turns", self.turn as u32, v.turns as u32 - 1),
                ("quiet", self.quiet as u32, v.quiet as u32 - 1),
            ] {
                if value > limit {
                    return Err(PositionError::CounterTooHigh { counter, value, limit });
                }
            }
            let [a, b] = self.scores;
            if (a >= v.target as u32 || b >= v.target as u32) && a != b {
                return Err(PositionError::MatchShouldBeOver { scores: self.scores });
            }
        } else {
            let [a, b] = self.scores;
            let ok = match self.result {
                Some(Outcome::Win { team: 0 }) => a >= b,
                Some(Outcome::Win { .. }) => b >= a,
                _ => a == b,
            };
            if !ok {
                return Err(PositionError::ResultContradicted { scores: self.scores });
            }
        }
        let mine = |sq: Square| {
            let c = self.board[sq as usize];
            c != 0 && owner_of(c) == self.to_move
        };
        match self.phase {
            Phase::Rebond { square, .. } if !mine(square) => {
                return Err(PositionError::RebondNotMover { square: square_name(square) });
            }
            Phase::Action { flipped: Some(sq), .. } if !mine(sq) => {
                return Err(PositionError::FlippedNotMover { square: square_name(sq) });
            }
            Phase::Recovery if !self.recovery_offered() => return Err(PositionError::RecoveryNotOffered),
            _ => {}
        }
        Ok(())
    }

    /// The text board: a 6×6 grid of owner+value (ANSI colours when `colour`:
    /// South blue, North red), the piles, scores, round, side to move and phase.
    pub fn board_text(&self, colour: bool) -> String {
        let mut s = String::from("    a  b  c  d  e  f\n");
        for rank in (0..6).rev() {
            s.push_str(&format!("{} ", rank + 1));
            for file in 0..6 {
                let c = self.board[rank * 6 + file];
                if c == 0 {
                    s.push_str("  .");
                } else {
                    let (letter, ansi) = if owner_of(c) == 0 { ('S', "\x1b[1;34m") } else { ('N', "\x1b[1;31m") };
                    if colour {
                        s.push_str(&format!(" {ansi}{letter}{}\x1b[0m", value_of(c)));
                    } else {
                        s.push_str(&format!(" {letter}{}", value_of(c)));
                    }
                }
            }
            s.push_str(&format!("  {}\n", rank + 1));
        }
        s.push_str("    a  b  c  d  e  f\n");
        for p in 0..2 {
            let dice: Vec<String> = (1..=6u8)
                .flat_map(|v| std::iter::repeat_n(v.to_string(), self.piles[p][v as usize - 1] as usize))
                .collect();
            s.push_str(&format!(
                "{}: score {}, holds {} [{}]\n",
                side_name(p),
                self.scores[p],
                dice.len(),
                dice.join(" ")
            ));
        }
        s.push_str(&format!(
            "round {} (started by {}), {} turns played, {} without a capture\n",
            self.round,
            side_name(self.starter as usize),
            self.turn,
            self.quiet
        ));
        match self.result {
            Some(o) => s.push_str(&format!("match over: {o}\n")),
            None => {
                let phase = match self.phase {
                    Phase::Action { index: 0, .. } => "first action".to_string(),
                    Phase::Action { flipped: None, .. } => "second action".to_string(),
                    Phase::Action { flipped: Some(sq), .. } => {
                        format!("second action (the die on {} may not flip again)", square_name(sq))
                    }
                    Phase::Rebond { square, .. } => format!("rebond of the die on {}", square_name(square)),
                    Phase::Recovery => "recovery decision (REC<home square> or decline)".to_string(),
                };
                s.push_str(&format!("{} to move: {phase}\n", side_name(self.to_move as usize)));
            }
        }
        s
    }
}
