//! The rules of Débâcle (GAMES.md §3): a 6×6 board of dice, two-action
//! turns of flips and rolls, captures by rolling, compulsory rebonds, the
//! end-of-turn recovery, rounds to 5 captures and the match to 30.
//!
//! The whole match is the game: `Position` holds the board, the captured
//! piles, the turn phase, the scores and the safeguard counters, and every
//! decision (a regular action, a rebond, a recovery decision) is one ply.
//! `NOTATION.md` describes the texts and every choice left open by GAMES.md.
//!
//! What this crate must never do: I/O, search, or randomness of its own
//! (the optional random setup is `Variant::faces`, chosen by the caller).
//!
//! # The verbs
//!
//! The four rules crates (`senat-rules`, `focus-rules`, `debacle-rules`,
//! `dominoes-rules`) name the same operations the same way:
//!
//! * `legal_moves(&mut out)`: the legal moves, into `out` (cleared first;
//!   Sénat's returns a `MoveList`), with `count_moves`;
//! * `is_legal(m)`: whether `m` is among them;
//! * `check(m)`: `Ok(())` if `m` is legal, otherwise why not
//!   ([`MoveError::Illegal`]);
//! * `play(m)`: plays `m` if it is legal, otherwise returns the error of
//!   `check` and leaves the position as it was;
//! * `play_unchecked(m)`: the fast path for a move known to be legal (from
//!   the generator, or checked): no check beyond a `debug_assert!` of
//!   `is_legal` in debug builds; an illegal move leaves an inconsistent
//!   position. Searches, playouts and perft use it.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod notation;
mod position;
pub mod reference;
mod variant;
mod zobrist;

pub use notation::{MoveError, PositionError, parse_move_text, parse_square, square_name};
pub use position::{Dir, Move, Phase, Position, Square, perft};
pub use variant::{Scoring, Variant, VariantError};

use std::fmt;

/// The result of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `team` (0 South, 1 North) won.
    Win {
        /// The winner.
        team: usize,
    },
    /// Equal totals after the last round allowed.
    Draw,
}

impl Outcome {
    /// 1 for each winning-team player, 0 for losers, 0.5 for all on a draw; unused entries 0.
    pub fn scores(&self, players: usize) -> [f64; 4] {
        let mut s = [0.0; 4];
        for (p, x) in s.iter_mut().enumerate().take(players) {
            *x = match *self {
                Outcome::Win { team } => f64::from(u8::from(p % 2 == team)),
                Outcome::Draw => 0.5,
            };
        }
        s
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { team: 0 } => f.write_str("South wins"),
            Outcome::Win { .. } => f.write_str("North wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}
