//! The rules of block dominoes as played on Playboard (GAMES.md §2): a
//! double-six set as 28 bits, the chain's two open ends, the deal and the
//! boneyard as chance events, the forced opener, draw-until-playable, the
//! pass only with an empty boneyard, the domino and block endings, scoring
//! with its tie-breaks, and the match to 100. OpenSpiel's
//! `python_block_dominoes` is an option (`rules=openspiel`).
//!
//! The whole match is one game: [`State`] holds the hands, the boneyard,
//! the chain, the public history of the round, the scores and the round
//! count. Agents see an [`Observation`], never a [`State`]; [`sample`]
//! draws full states consistent with an observation (determinization).
//! `NOTATION.md` describes the texts and every choice GAMES.md left open.
//!
//! What this crate must never do: I/O, search, or randomness of its own
//! (chance outcomes are moves chosen by the caller; the sampler takes the
//! caller's random source).
//!
//! # The verbs
//!
//! The four rules crates (`senat-rules`, `focus-rules`, `debacle-rules`,
//! `dominoes-rules`) name the same operations the same way:
//!
//! * `legal_moves(&mut out)`: the legal decisions, into `out` (cleared
//!   first; Sénat's returns a `MoveList`); at a chance node the moves are
//!   the `chance_outcomes` instead, and the verbs below take both kinds;
//! * `is_legal(m)`: whether `m` is among them;
//! * `check(m)`: `Ok(())` if `m` is legal, otherwise why not
//!   ([`MoveError::Illegal`]);
//! * `play(m)`: plays `m` if it is legal, otherwise returns the error of
//!   `check` and leaves the state as it was;
//! * `play_unchecked(m)`: the fast path for a move known to be legal (from
//!   the generator, or checked): no check beyond a few `debug_assert!`s;
//!   an illegal move leaves an inconsistent state. Searches, playouts and
//!   perft use it.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod notation;
mod observation;
pub mod reference;
mod state;
mod tile;
mod variant;

pub use notation::{MoveError, ObservationError, StateError};
pub use observation::{Observation, Sampler, sample};
pub use state::{End, Event, Move, RoundEnd, RoundEndKind, State, perft};
pub use tile::{Tile, TileSet};
pub use variant::{Variant, VariantError};

use std::fmt;

/// The result of a match (or, with `rules=openspiel`, of the single hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `player` won the match.
    Win {
        /// The winner.
        player: usize,
    },
    /// The round limit was reached first (Playboard), or the single hand
    /// ended with nobody scoring (OpenSpiel: a tie on pips, going out
    /// against a lone 0-0 included).
    Draw,
}

impl Outcome {
    /// 1 for the winner and 0 for the others; 1/players for everybody on a
    /// draw; unused entries 0.
    pub fn scores(&self, players: usize) -> [f64; 4] {
        let mut s = [0.0; 4];
        for (p, x) in s.iter_mut().enumerate().take(players) {
            *x = match *self {
                Outcome::Win { player } => f64::from(u8::from(p == player)),
                Outcome::Draw => 1.0 / players as f64,
            };
        }
        s
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { player } => write!(f, "player {player} wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}
