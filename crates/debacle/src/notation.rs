//! Text forms: move text (`Fa1`, `Rb1f`, `Re5f@b1`, `RECc1`, `decline`),
//! the one-line position text, and the text board of `senat show`.
//! NOTATION.md describes every form.
//!
//! What it must never do: panic on bad input (every error is a typed value
//! that says what is wrong and where), or accept a position that no match
//! could hold in the ways the checks below know about.

use crate::Outcome;
use crate::position::{Dir, Move, Phase, Position, Square, code, home_rank, owner_of, step, value_of};
use crate::variant::{Scoring, Variant, VariantError};
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

fn side_letter(p: usize) -> char {
    if p == 0 { 's' } else { 'n' }
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
    /// A blank other than one space between fields (a tab, a no-break
    /// space, a second space).
    Blank {
        /// The blank.
        blank: char,
        /// Its 1-based column, in characters.
        column: usize,
    },
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
    /// The round starter is not the one the alternation gives: South starts the odd rounds,
    /// North the even ones.
    StarterMismatch {
        /// The round.
        round: u16,
        /// The starter written (0 South).
        starter: usize,
    },
    /// The side to move is not the one that the round's starter and its completed turns give.
    SideMismatch {
        /// The side written (0 South).
        side: usize,
        /// The side the starter and the turns give.
        expected: usize,
        /// Turns completed in the round.
        turns: u16,
    },
    /// More turns without a capture than completed turns in the round.
    QuietAboveTurns {
        /// The quiet counter.
        quiet: u16,
        /// The turns counter.
        turns: u16,
    },
    /// A die is held although no capture can have happened in this round: no completed turn
    /// reset the quiet counter (quiet = turns) and the turn in progress has no `+`.
    CaptureNotCounted {
        /// The quiet counter (equal to the turns counter).
        quiet: u16,
    },
    /// The `+` mark (the turn in progress captured) does not fit the phase or the piles.
    CaptureMark {
        /// Whether the mark is written.
        marked: bool,
        /// Why it does not fit.
        why: &'static str,
    },
    /// Scores that the completed rounds cannot have given under the variant's scoring.
    ScoresUnreachable {
        /// The scores.
        scores: [u32; 2],
        /// Rounds completed before the one shown (a running round is not scored yet).
        completed: u32,
        /// Whether the variant is `scoring=winner`.
        winner_only: bool,
    },
    /// A finished match whose last round's pile was not added to its holder's score.
    ScoreBelowPile {
        /// The holder.
        holder: usize,
        /// His score.
        score: u32,
        /// The sum of the dice he holds (added to his score when the round ended).
        pile: u32,
    },
    /// The ply is below the least number of decisions the round, the turns and the phase need.
    PlyTooLow {
        /// The ply.
        ply: u32,
        /// The least ply that fits.
        least: u64,
    },
    /// Round 1 before any capture, with a ply other than its regular actions: only a capture
    /// adds plies (its rebond, a recovery), so the ply is exactly two per completed turn and
    /// those of the turn in progress.
    PlyNotExact {
        /// The ply.
        ply: u32,
        /// The only ply that fits.
        exact: u64,
    },
    /// A finished match whose scores and round do not end it.
    ResultNotReached {
        /// The scores.
        scores: [u32; 2],
        /// The round.
        round: u16,
    },
    /// A finished match whose last round did not end: the side to move holds fewer than 5
    /// dice and no safeguard counter is at its limit.
    RoundNotOver,
    /// A finished match that is not left in phase 1 without `+` (the end of a round clears both).
    FinishedPhase,
    /// A finished match where the pile of 5 is held by the side not to move: the fifth capture
    /// ends the round during the capturer's own turn.
    FullPileNotMover {
        /// The holder of the 5 dice.
        holder: usize,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Blank { blank, column } => {
                write!(f, "column {column}: `{}`: expected a single space between fields", blank.escape_default())
            }
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
                write!(f, "{counter} {value} is above {limit}, the most this position can show under its variant")
            }
            PositionError::MatchShouldBeOver { scores } => {
                write!(f, "scores {}-{} would have ended the match, but it is running", scores[0], scores[1])
            }
            PositionError::ResultContradicted { scores } => {
                write!(f, "the result contradicts the scores {}-{}", scores[0], scores[1])
            }
            PositionError::StarterMismatch { round, starter } => write!(
                f,
                "starter `{}`: round {round} is started by {} (South starts round 1, then the starter alternates)",
                side_letter(*starter),
                side_name(((*round as usize) + 1) % 2)
            ),
            PositionError::SideMismatch { side, expected, turns } => write!(
                f,
                "side `{}`: the round's starter and its {turns} completed turns give {} to move",
                side_letter(*side),
                side_name(*expected)
            ),
            PositionError::QuietAboveTurns { quiet, turns } => write!(
                f,
                "quiet q{quiet} is above turns t{turns}: the turns without a capture are among the round's completed turns"
            ),
            PositionError::CaptureNotCounted { quiet } => write!(
                f,
                "quiet q{quiet} equals turns t{quiet} without `+`, yet a die is held: the turn that captured it would have reset quiet"
            ),
            PositionError::CaptureMark { why, .. } => write!(f, "quiet `+`: {why}"),
            PositionError::ScoresUnreachable { scores, completed, winner_only } => write!(
                f,
                "scores {}-{}: not reachable in {completed} scored round(s) under scoring={} ({})",
                scores[0],
                scores[1],
                if *winner_only { "winner" } else { "both" },
                if *winner_only {
                    "a round adds 5..30 to one player only, or nothing"
                } else {
                    "a round adds at most 30 to a player and 54 to both"
                }
            ),
            PositionError::ScoreBelowPile { holder, score, pile } => write!(
                f,
                "scores: {} has {score}, less than the {pile} of the dice he holds, added when the last round ended",
                side_name(*holder)
            ),
            PositionError::PlyTooLow { ply, least } => write!(
                f,
                "ply p{ply} is below {least}, the least the round, turns and phase need (a ply per past round, two per completed turn)"
            ),
            PositionError::PlyNotExact { ply, exact } => write!(
                f,
                "ply p{ply} is not {exact}: in round 1 before any capture every ply is a regular action, two per completed turn"
            ),
            PositionError::ResultNotReached { scores, round } => write!(
                f,
                "result: the match cannot be over at scores {}-{} in round {round} (no score at the target, rounds left)",
                scores[0], scores[1]
            ),
            PositionError::RoundNotOver => write!(
                f,
                "result: the last round did not end (the side to move holds fewer than 5 dice, no safeguard counter at its limit)"
            ),
            PositionError::FinishedPhase => {
                write!(f, "phase: a finished match shows phase 1 and no `+` (the end of a round clears them)")
            }
            PositionError::FullPileNotMover { holder } => write!(
                f,
                "piles: {} holds 5 dice but is not the side to move (the fifth capture ends the round in the capturer's turn)",
                side_name(*holder)
            ),
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

/// Whether `scores` can come from `rounds` ended rounds: under `scoring=both` a round adds at
/// most 30 to a player (5 dice of at most 6) and 54 to both (the other holds at most 4 dice);
/// under `scoring=winner` it adds 5..30 (5 dice of 1..6) to the player who captured 5, or nothing.
fn scores_reachable(scores: [u32; 2], rounds: u32, winner_only: bool) -> bool {
    let [a, b] = scores.map(u64::from);
    let r = rounds as u64;
    if winner_only {
        let wins = |s: u64| s.div_ceil(30);
        let fits = |s: u64| s == 0 || s >= 5;
        fits(a) && fits(b) && wins(a) + wins(b) <= r
    } else {
        a <= 30 * r && b <= 30 * r && a + b <= 54 * r
    }
}

impl FromStr for Position {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Position, PositionError> {
        // One space between fields (as Focus, dominoes and Sénat read
        // theirs): another blank, or a second space, is refused.
        if let Some((i, ch)) =
            text.char_indices().find(|&(i, ch)| ch.is_whitespace() && (ch != ' ' || text[..i].ends_with(' ')))
        {
            return Err(PositionError::Blank { blank: ch, column: text[..i].chars().count() + 1 });
        }
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
    ///
    /// Each check is a fact that holds at the start of every match and that every legal move
    /// keeps (so a position that legal play reaches is never refused, and a move from an
    /// accepted position leads to an accepted one):
    ///
    /// - the dice of a side on the board plus those the opponent holds are 6; no die stands on
    ///   its opponent's home row;
    /// - South starts the odd rounds and North the even ones; within a round the sides
    ///   alternate, so the starter and the completed turns give the side to move;
    /// - quiet ≤ turns; a held die means some turn of the round captured (quiet < turns, or
    ///   the `+` of the turn in progress); the `+` is absent at a turn's first action and after
    ///   a first-action flip, present during a rebond, and only when the mover holds a die;
    /// - every ended round added at most 30 points to a player (and 54 to both under
    ///   `scoring=both`; under `scoring=winner` 5..30 to one player or nothing);
    /// - a ply per ended round and two per completed turn at least; in round 1 before any
    ///   capture, exactly two per completed turn and those of the turn in progress;
    /// - a finished match is left as the end of a round leaves it: the side to move holds 5
    ///   dice, or a safeguard counter is at its limit; phase 1 without `+`; its result is the
    ///   one its scores, its round and that end give.
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
        let me = self.to_move as usize;
        if running {
            for holder in 0..2 {
                if self.held(holder) >= 5 {
                    return Err(PositionError::PileFull { holder });
                }
            }
            self.check_counters(v.turns as u32 - 1, v.quiet as u32 - 1)?;
            let [a, b] = self.scores;
            if (a >= v.target as u32 || b >= v.target as u32) && a != b {
                return Err(PositionError::MatchShouldBeOver { scores: self.scores });
            }
        } else {
            // The end of a round: the fifth capture (by the side to move, mid-turn) or a
            // safeguard (the counters at their limit after the turn's end).
            if self.held(1 - me) >= 5 {
                return Err(PositionError::FullPileNotMover { holder: 1 - me });
            }
            let five = (self.held(me) == 5).then_some(me);
            let [a, b] = self.scores;
            let t = v.target as u32;
            let higher = match a.cmp(&b) {
                std::cmp::Ordering::Greater => Some(Outcome::Win { team: 0 }),
                std::cmp::Ordering::Less => Some(Outcome::Win { team: 1 }),
                std::cmp::Ordering::Equal => None,
            };
            let mut expected = None;
            if a >= t || b >= t {
                expected = higher.or(five.map(|w| Outcome::Win { team: w }));
            }
            if expected.is_none() && self.round >= v.rounds {
                expected = Some(higher.unwrap_or(Outcome::Draw));
            }
            match expected {
                None => return Err(PositionError::ResultNotReached { scores: self.scores, round: self.round }),
                Some(o) if Some(o) != self.result => {
                    return Err(PositionError::ResultContradicted { scores: self.scores });
                }
                Some(_) => {}
            }
            if self.phase != (Phase::Action { index: 0, flipped: None }) || self.captured {
                return Err(PositionError::FinishedPhase);
            }
            if five.is_some() {
                self.check_counters(v.turns as u32 - 1, v.quiet as u32 - 1)?;
            } else {
                if self.turn < v.turns && self.quiet < v.quiet {
                    return Err(PositionError::RoundNotOver);
                }
                self.check_counters(v.turns as u32, v.quiet as u32)?;
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
        let starter = ((self.round - 1) % 2) as u8;
        if self.starter != starter {
            return Err(PositionError::StarterMismatch { round: self.round, starter: self.starter as usize });
        }
        if self.quiet > self.turn {
            return Err(PositionError::QuietAboveTurns { quiet: self.quiet, turns: self.turn });
        }
        // Turns completed in the round by the side that moves last: after a safeguard end the
        // side to move is the one that played the last turn.
        let safeguard_end = !running && self.held(me) < 5;
        let played = if safeguard_end { self.turn - 1 } else { self.turn };
        let expected = (self.starter as usize) ^ (played as usize & 1);
        if me != expected {
            return Err(PositionError::SideMismatch { side: me, expected, turns: self.turn });
        }
        let held_any = self.held(0) + self.held(1) > 0;
        let five_end = !running && !safeguard_end;
        if held_any && !five_end && self.quiet == self.turn && !self.captured {
            return Err(PositionError::CaptureNotCounted { quiet: self.quiet });
        }
        if running {
            let why = match self.phase {
                Phase::Action { index: 0, .. } if self.captured => {
                    Some("marked at phase 1, the first action of a turn (nothing captured yet)")
                }
                Phase::Action { flipped: Some(_), .. } if self.captured => {
                    Some("marked after a first action that flipped (a flip never captures)")
                }
                Phase::Rebond { .. } if !self.captured => Some("missing during a rebond (a rebond follows a capture)"),
                _ if self.captured && self.held(me) == 0 => {
                    Some("marked, but the side to move holds no die (a capture puts the die in his pile)")
                }
                _ => None,
            };
            if let Some(why) = why {
                return Err(PositionError::CaptureMark { marked: self.captured, why });
            }
        }
        // Scores: what the ended rounds can have given. A finished match has also scored its
        // last round, from the piles it shows.
        let sums: [u32; 2] =
            std::array::from_fn(|p| self.piles[p].iter().enumerate().map(|(i, &n)| (i as u32 + 1) * n as u32).sum());
        let winner_only = v.scoring == Scoring::Winner;
        let mut before = self.scores;
        if !running {
            for holder in 0..2 {
                let added = match v.scoring {
                    Scoring::Both => sums[holder],
                    Scoring::Winner if five_end && holder == me => sums[holder],
                    Scoring::Winner => 0,
                };
                if self.scores[holder] < added {
                    return Err(PositionError::ScoreBelowPile { holder, score: self.scores[holder], pile: added });
                }
                before[holder] -= added;
            }
        }
        let completed = self.round as u32 - 1;
        if !scores_reachable(before, completed, winner_only) {
            let shown = if running { completed } else { completed + 1 };
            return Err(PositionError::ScoresUnreachable { scores: self.scores, completed: shown, winner_only });
        }
        // Plies: one at least per ended round, two per completed turn, and those of the turn
        // in progress (a finished five-capture round: the capture).
        let current: u64 = match self.phase {
            _ if five_end => 1,
            _ if !running => 0,
            Phase::Action { index, .. } => index as u64,
            Phase::Rebond { after, .. } => after as u64,
            Phase::Recovery => 2,
        };
        let least = completed as u64 + 2 * self.turn as u64 + current;
        if (self.ply as u64) < least {
            return Err(PositionError::PlyTooLow { ply: self.ply, least });
        }
        // No past round and no capture yet: no rebond and no recovery either.
        let uncaptured = self.quiet == self.turn && !self.captured && !five_end;
        if self.round == 1 && uncaptured && self.ply as u64 != least {
            return Err(PositionError::PlyNotExact { ply: self.ply, exact: least });
        }
        Ok(())
    }

    /// The round number against the variant's rounds, and the turns and quiet counters against
    /// `turns` and `quiet`, the most they can show here.
    fn check_counters(&self, turns: u32, quiet: u32) -> Result<(), PositionError> {
        for (counter, value, limit) in [
            ("round", self.round as u32, self.variant.rounds as u32),
            ("turns", self.turn as u32, turns),
            ("quiet", self.quiet as u32, quiet),
        ] {
            if value > limit {
                return Err(PositionError::CounterTooHigh { counter, value, limit });
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "N6N5N4N3N2N1/....../....../....../....../S1S2S3S4S5S6 s 1 -/- 0-0 r1 s t0 q0 p0 - -";
    /// A finished match: South took his fifth die in round 5 and reached 36.
    const OVER: &str = "N6...../....../...S4../....../....../S1S2S3.S5. s 1 22345/1 36-11 r5 s t40 q3 p1000 s -";

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
        let cases: Vec<Case> = vec![
            (
                START.replace(" - -", " = -"),
                |e| matches!(e, PositionError::ResultNotReached { round: 1, .. }),
                "result: the match cannot be over at scores 0-0 in round 1 (no score at the target, rounds left)",
            ),
            (
                START.replace("0-0 r1 s t0 q0 p0", "16-1 r2 s t0 q0 p201"),
                |e| matches!(e, PositionError::StarterMismatch { round: 2, starter: 0 }),
                "starter `s`: round 2 is started by North (South starts round 1, then the starter alternates)",
            ),
            (
                START.replace(" s 1 ", " n 1 "),
                |e| matches!(e, PositionError::SideMismatch { side: 1, expected: 0, turns: 0 }),
                "side `n`: the round's starter and its 0 completed turns give South to move",
            ),
            (
                START.replace(" s 1 ", " n 1 ").replace("t0 q0 p0", "t3 q9 p6"),
                |e| matches!(e, PositionError::QuietAboveTurns { quiet: 9, turns: 3 }),
                "quiet q9 is above turns t3: the turns without a capture are among the round's completed turns",
            ),
            (
                "N6N5N4N3N2N1/....../....../....../....../S1S2S3S4S5. s 1 -/1 0-0 r1 s t2 q2 p4 - -".into(),
                |e| matches!(e, PositionError::CaptureNotCounted { quiet: 2 }),
                "quiet q2 equals turns t2 without `+`, yet a die is held: the turn that captured it would have reset quiet",
            ),
            (
                START.replace("q0", "q0+"),
                |e| matches!(e, PositionError::CaptureMark { marked: true, .. }),
                "quiet `+`: marked at phase 1, the first action of a turn (nothing captured yet)",
            ),
            (
                START.replace(" s 1 ", " s 2-a1 ").replace("t0 q0 p0", "t0 q0+ p1"),
                |e| matches!(e, PositionError::CaptureMark { marked: true, .. }),
                "quiet `+`: marked after a first action that flipped (a flip never captures)",
            ),
            (
                "N6N5N4N3.N1/....../....../..N3.../....../S1S2.S4S5S6 n r1c3 -/3 0-5 r2 n t4 q3 p17 - scoring=winner"
                    .into(),
                |e| matches!(e, PositionError::CaptureMark { marked: false, .. }),
                "quiet `+`: missing during a rebond (a rebond follows a capture)",
            ),
            (
                START.replace(" s 1 ", " s 2 ").replace("t0 q0 p0", "t0 q0+ p1"),
                |e| matches!(e, PositionError::CaptureMark { marked: true, .. }),
                "quiet `+`: marked, but the side to move holds no die (a capture puts the die in his pile)",
            ),
            (
                START.replace("0-0", "5-0"),
                |e| matches!(e, PositionError::ScoresUnreachable { completed: 0, winner_only: false, .. }),
                "scores 5-0: not reachable in 0 scored round(s) under scoring=both (a round adds at most 30 to a player and 54 to both)",
            ),
            (
                "N6N5N4N3.N1/....../....../..N3.../....../S1S2.S4S5S6 n r1c3 -/3 0-3 r2 n t4 q4+ p17 - scoring=winner"
                    .into(),
                |e| matches!(e, PositionError::ScoresUnreachable { completed: 1, winner_only: true, .. }),
                "scores 0-3: not reachable in 1 scored round(s) under scoring=winner (a round adds 5..30 to one player only, or nothing)",
            ),
            (
                START.replace(" s 1 ", " n 1 ").replace("0-0 r1 s", "30-25 r2 n").replace(" - -", " - target=100"),
                |e| matches!(e, PositionError::ScoresUnreachable { completed: 1, .. }),
                "scores 30-25: not reachable in 1 scored round(s) under scoring=both (a round adds at most 30 to a player and 54 to both)",
            ),
            (
                OVER.replace("36-11", "36-0"),
                |e| matches!(e, PositionError::ScoreBelowPile { holder: 1, score: 0, pile: 1 }),
                "scores: North has 0, less than the 1 of the dice he holds, added when the last round ended",
            ),
            (
                START.replace("t0 q0 p0", "t2 q2 p3"),
                |e| matches!(e, PositionError::PlyTooLow { ply: 3, least: 4 }),
                "ply p3 is below 4, the least the round, turns and phase need (a ply per past round, two per completed turn)",
            ),
            (
                START.replace("p0", "p1"),
                |e| matches!(e, PositionError::PlyNotExact { ply: 1, exact: 0 }),
                "ply p1 is not 0: in round 1 before any capture every ply is a regular action, two per completed turn",
            ),
            (
                START.replace("p0", "p5"),
                |e| matches!(e, PositionError::PlyNotExact { ply: 5, exact: 0 }),
                "ply p5 is not 0: in round 1 before any capture every ply is a regular action, two per completed turn",
            ),
            (
                OVER.replace(" s -", " n -"),
                |e| matches!(e, PositionError::ResultContradicted { .. }),
                "the result contradicts the scores 36-11",
            ),
            (
                START.replace("0-0", "30-0").replace(" - -", " s -"),
                |e| matches!(e, PositionError::RoundNotOver),
                "result: the last round did not end (the side to move holds fewer than 5 dice, no safeguard counter at its limit)",
            ),
            (
                OVER.replace(" s 1 ", " s 2 "),
                |e| matches!(e, PositionError::FinishedPhase),
                "phase: a finished match shows phase 1 and no `+` (the end of a round clears them)",
            ),
            (
                OVER.replace(" s 1 ", " n 1 "),
                |e| matches!(e, PositionError::FullPileNotMover { holder: 0 }),
                "piles: South holds 5 dice but is not the side to move (the fifth capture ends the round in the capturer's turn)",
            ),
            (
                "N6N5N4N3N2N1/....../....../....../....../S6S5S3S4S5S6 s 1 -/- 0-0 r1 s t1 q2 p2 = quiet=1,rounds=1"
                    .into(),
                |e| matches!(e, PositionError::CounterTooHigh { counter: "quiet", value: 2, limit: 1 }),
                "quiet 2 is above 1, the most this position can show under its variant",
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
        ok(OVER);
        // Round 1 can end 0-0 and, with rounds=1, so can the match: a draw.
        let mut p = Position::start(Variant::parse("quiet=1,rounds=1").unwrap());
        for m in ["Fa1", "Fb1"] {
            p.play_unchecked(p.parse_move(m).unwrap());
        }
        let text = p.to_string();
        assert_eq!(
            text,
            "N6N5N4N3N2N1/....../....../....../....../S6S5S3S4S5S6 s 1 -/- 0-0 r1 s t1 q1 p2 = quiet=1,rounds=1"
        );
        assert_eq!(ok(&text), p);
        // Equal totals at the target after a safeguard round: the match goes on.
        ok("N6N5N4N3N2N1/....../....../....../....../S1S2S3S4S5S6 s 2 -/- 30-30 r3 s t0 q0 p10 - quiet=1");
        // Scores under scoring=winner: 0, or 5 and more per round won.
        ok("N6N5N4N3.N1/....../....../..N3.../....../S1S2.S4S5S6 n r1c3 -/3 0-5 r2 n t4 q3+ p17 - scoring=winner");
        // A capture in the first turn: the pile is explained by the `+`.
        ok("N6N5N4N3N2N1/....../....../....../....../S1S2S3S4S5. s 1 -/1 0-0 r1 s t2 q0 p4 - -");
    }
}
