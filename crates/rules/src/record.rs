//! Game records: the text `senat replay`, `view`, `render`, `solve
//! --history` and `--opening` read — blank lines and `#` comments skipped,
//! the first line a position (`start`, `sample` or SPN), then one move per
//! line in move text — and the one replay that checks each move in turn.
//!
//! What this module must never do: read files (callers hand it text) or
//! accept a move the game does not allow: every move is parsed against the
//! position it is played in and played through [`GameRecord::play`].

use crate::game::GameRecord;
use crate::moves::Move;
use crate::notation::{MoveError, SpnError, escape};
use crate::position::Position;
use crate::sample;
use crate::variant::Variant;
use std::fmt;

/// A game record as written: its start position and its moves, each with
/// the number of the line it was on (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The start position.
    pub start: Position,
    /// The moves as written, each with its line number.
    pub moves: Vec<(usize, String)>,
}

/// Why a position argument (`start`, `sample` or an SPN) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionArgError {
    /// One word that is none of the three forms.
    NotAPosition(String),
    /// An SPN that does not parse or describes an impossible position.
    Spn(SpnError, String),
}

impl fmt::Display for PositionArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionArgError::NotAPosition(w) => {
                write!(f, "`{}` is not a position: expected `start`, `sample` or an SPN", escape(w))
            }
            PositionArgError::Spn(e, spn) => write!(f, "{e} in `{}`", escape(spn)),
        }
    }
}

impl std::error::Error for PositionArgError {}

/// A position as users name one: `start` (the empty board), `sample` (the
/// position after the draft of the sample game) or an SPN.
pub fn parse_position_arg(text: &str) -> Result<Position, PositionArgError> {
    parse_position_arg_in(text, Variant::RULES)
}

/// [`parse_position_arg`] under the rules of variant `v`: `start` is the
/// variant's start, `sample` and an SPN are validated under `v`.
pub fn parse_position_arg_in(text: &str, v: Variant) -> Result<Position, PositionArgError> {
    match text.trim() {
        "start" => Ok(Position::start_of(v)),
        "sample" => Position::from_spn_in(sample::START, v).map_err(|e| PositionArgError::Spn(e, "sample".into())),
        word if !word.contains(char::is_whitespace) && !word.contains('/') => {
            Err(PositionArgError::NotAPosition(word.to_string()))
        }
        spn => Position::from_spn_in(spn, v).map_err(|e| PositionArgError::Spn(e, spn.to_string())),
    }
}

/// Why a record was refused; [`RecordError::line`] says where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// No line holds anything but blanks and comments.
    Empty,
    /// The first line is not a position.
    Start {
        /// Its line number.
        line: usize,
        /// Why.
        error: PositionArgError,
    },
    /// A move does not parse or is not legal where it is played.
    Move {
        /// Its line number.
        line: usize,
        /// The move as written.
        text: String,
        /// Why.
        error: MoveError,
    },
    /// A move comes after the end of the game.
    Over {
        /// Its line number.
        line: usize,
        /// The move as written.
        text: String,
        /// How the game ended, as [`crate::Outcome`] writes it.
        outcome: String,
    },
}

impl RecordError {
    /// The line the error is on, `None` for an empty record.
    pub fn line(&self) -> Option<usize> {
        match self {
            RecordError::Empty => None,
            RecordError::Start { line, .. } | RecordError::Move { line, .. } | RecordError::Over { line, .. } => {
                Some(*line)
            }
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Empty => f.write_str("no start position (the record is empty)"),
            RecordError::Start { error, .. } => write!(f, "start position: {error}"),
            RecordError::Move { text, error, .. } => write!(f, "move `{}`: {error}", escape(text)),
            RecordError::Over { text, outcome, .. } => {
                write!(f, "move `{}`: the game is already over ({outcome})", escape(text))
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// The lines of a text that hold something: numbered from 1, comments cut,
/// trimmed.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("").trim()))
        .filter(|(_, line)| !line.is_empty())
}

impl Record {
    /// Reads a record: its first content line is the start position.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        Record::parse_in(text, Variant::RULES)
    }

    /// [`Record::parse`] under the rules of variant `v`.
    pub fn parse_in(text: &str, v: Variant) -> Result<Record, RecordError> {
        let mut lines = content_lines(text);
        let Some((line, first)) = lines.next() else {
            return Err(RecordError::Empty);
        };
        let start = parse_position_arg_in(first, v).map_err(|error| RecordError::Start { line, error })?;
        let moves = lines.map(|(n, m)| (n, m.to_string())).collect();
        Ok(Record { start, moves })
    }

    /// An opening: moves only, one per line, played from the start of the draft.
    pub fn opening(text: &str) -> Record {
        Record::opening_in(text, Variant::RULES)
    }

    /// [`Record::opening`] from the start of variant `v`.
    pub fn opening_in(text: &str, v: Variant) -> Record {
        Record { start: Position::start_of(v), moves: content_lines(text).map(|(n, m)| (n, m.to_string())).collect() }
    }

    /// Plays the moves from the start, checking each (a move after the end
    /// of the game is refused too), and returns the game; `each(ply, move,
    /// game)` is called after every move (ply from 0) and may stop the replay
    /// with its own error.
    pub fn play_each<E: From<RecordError>>(
        &self,
        mut each: impl FnMut(usize, Move, &GameRecord) -> Result<(), E>,
    ) -> Result<GameRecord, E> {
        let mut game = GameRecord::new(self.start);
        for (ply, (line, text)) in self.moves.iter().enumerate() {
            // Checked first so that the message says the game is over rather
            // than why the move would be illegal in the final position.
            if let Some(o) = game.outcome() {
                return Err(RecordError::Over { line: *line, text: text.clone(), outcome: o.to_string() }.into());
            }
            let m = game.position().parse_move(text).map_err(|error| RecordError::Move {
                line: *line,
                text: text.clone(),
                error,
            })?;
            game.play(m).map_err(|e| RecordError::Move {
                line: *line,
                text: text.clone(),
                error: MoveError::Illegal(e),
            })?;
            each(ply, m, &game)?;
        }
        Ok(game)
    }

    /// Plays the moves (see [`Record::play_each`]).
    pub fn play(&self) -> Result<GameRecord, RecordError> {
        self.play_each(|_, _, _| Ok::<(), RecordError>(()))
    }

    /// The record of a game: its start in SPN, then its moves, one per line.
    pub fn text_of(game: &GameRecord) -> String {
        let mut out = game.start().to_spn();
        out.push('\n');
        for m in game.moves() {
            out.push_str(&m.to_string());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_record_replays_and_writes_back() {
        let r = Record::parse(sample::RECORD).unwrap();
        let game = r.play().unwrap();
        assert!(game.outcome().is_some(), "the sample game ends");
        let again = Record::parse(&Record::text_of(&game)).unwrap().play().unwrap();
        assert_eq!(again.moves(), game.moves());
        assert_eq!(again.position(), game.position());
    }

    #[test]
    fn errors_name_their_line() {
        assert_eq!(Record::parse("# nothing\n\n"), Err(RecordError::Empty));
        let e = Record::parse("\nfoo\n").unwrap_err();
        assert_eq!(e.line(), Some(2));
        assert_eq!(e.to_string(), "start position: `foo` is not a position: expected `start`, `sample` or an SPN");
        let e = Record::parse("start\ng1\nzz\n").unwrap().play().unwrap_err();
        assert_eq!(e.line(), Some(3));
        assert!(e.to_string().starts_with("move `zz`: "), "{e}");
    }

    #[test]
    fn a_move_after_the_end_is_refused() {
        let game = Record::parse(sample::RECORD).unwrap().play().unwrap();
        let extra = format!("{}{}\n", Record::text_of(&game), "g1");
        let e = Record::parse(&extra).unwrap().play().unwrap_err();
        assert!(matches!(e, RecordError::Over { .. }), "{e}");
        assert!(e.to_string().contains("the game is already over"), "{e}");
    }
}
