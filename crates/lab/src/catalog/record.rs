//! A game record of any game played through the catalog ([`play`]): its
//! first line the start (`start` or a position text), then one move per
//! line, each played on the position before it, as `senat replay --game`
//! reads a record file or a game of a batch file. The caller sees every
//! position as it is reached, so a replay shows the game up to a bad line.
//!
//! What this module must never do: read a file (the caller gives the
//! lines, with their numbers), print, or parse arguments.

use std::fmt;

use super::{CatalogError, Position};
use crate::games::GameKind;

/// Why a record did not play to its end.
#[derive(Debug)]
pub enum RecordError<E> {
    /// The record has no line.
    Empty,
    /// Line `line` (its start, or a move) was refused.
    At {
        /// The record's line number.
        line: usize,
        /// Why.
        error: CatalogError,
    },
    /// The caller's own error, from its look at a position.
    Caller(E),
}

impl<E: fmt::Display> fmt::Display for RecordError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Empty => f.write_str("empty record"),
            RecordError::At { line, error } => write!(f, "{line}: {error}"),
            RecordError::Caller(e) => e.fmt(f),
        }
    }
}

/// Plays the record `lines` (each with its line number) of `game` in
/// `variant`: `each` sees the start (no move), then every move's text (in
/// the game's canonical form) and the position after it, as they are
/// played. A record must start from a
/// position that can be played on (not a dominoes observation). Returns
/// the last position.
pub fn play<'a, E>(
    game: GameKind,
    variant: &str,
    lines: impl IntoIterator<Item = (usize, &'a str)>,
    mut each: impl FnMut(Option<&str>, &Position) -> Result<(), E>,
) -> Result<Position, RecordError<E>> {
    let mut lines = lines.into_iter();
    let Some((n0, first)) = lines.next() else { return Err(RecordError::Empty) };
    let at = |line: usize| move |error: CatalogError| RecordError::At { line, error };
    let mut p = Position::read(game, first, variant).map_err(at(n0))?;
    if p.is_observation() {
        return Err(at(n0)(CatalogError::Refused("a record starts from a full state, not an observation".into())));
    }
    each(None, &p).map_err(RecordError::Caller)?;
    for (n, text) in lines {
        let (next, canonical) = p.play_named(text).map_err(at(n))?;
        p = next;
        each(Some(&canonical), &p).map_err(RecordError::Caller)?;
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::testing::position;

    fn numbered(lines: &[&'static str]) -> Vec<(usize, &'static str)> {
        lines.iter().enumerate().map(|(i, l)| (i + 1, *l)).collect()
    }

    #[test]
    fn every_position_is_seen_in_order_and_the_last_returned() {
        let mut seen = Vec::new();
        let end = play(GameKind::Connect4, "", numbered(&["start", "4", "4", "5"]), |m, p| {
            seen.push((m.map(str::to_string), p.text()));
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(end.text(), "445");
        let texts: Vec<&str> = seen.iter().map(|s| s.1.as_str()).collect();
        assert_eq!(texts, ["start", "4", "44", "445"]);
        assert_eq!(seen[0].0, None);
        assert_eq!(seen[3].0.as_deref(), Some("5"));
        // Each move as the game writes it, whatever the record's spelling.
        let mut moves = Vec::new();
        play(GameKind::Dominoes, "", numbered(&["start", "5-6>0"]), |m, _| {
            moves.extend(m.map(str::to_string));
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(moves, ["6-5>0"]);
    }

    #[test]
    fn a_bad_line_is_named_and_the_callers_error_kept() {
        let none = |_: Option<&str>, _: &Position| Ok::<(), &str>(());
        assert!(matches!(play(GameKind::Focus, "", Vec::new(), none), Err(RecordError::Empty)));
        let e = play(GameKind::Connect4, "", numbered(&["start", "4", "8"]), none).unwrap_err();
        assert!(matches!(&e, RecordError::At { line: 3, .. }), "{e}");
        let stop = |m: Option<&str>, _: &Position| if m == Some("4") { Err("stop") } else { Ok(()) };
        assert!(matches!(
            play(GameKind::Connect4, "", numbered(&["start", "3", "4"]), stop),
            Err(RecordError::Caller("stop"))
        ));
        // A dominoes observation is what one seat sees: nothing to replay from.
        let start = position(GameKind::Dominoes, "start");
        let deal = start.legal_moves()[0].clone();
        let seen = start.play(&deal).unwrap().observation(Some(0)).unwrap().text();
        let e = play(GameKind::Dominoes, "", vec![(7, seen.as_str())], none).unwrap_err();
        assert!(matches!(&e, RecordError::At { line: 7, error } if error.to_string().contains("observation")), "{e}");
    }
}
