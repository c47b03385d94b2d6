//! Sénat: rules engine, notation and tools for a two-player game of 23 dice.
//!
//! Data flows one way: the CLI drives experiments, experiments drive
//! self-play, self-play drives search, and everything rests on the rules
//! (`dice`, `board`, `moves`, `position`, `movegen`, `pick`, `game`,
//! `notation`).
#![deny(missing_docs)]

pub mod annex;
pub mod arena;
pub mod board;
pub mod dice;
pub mod game;
pub mod limits;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod pick;
pub mod picture;
pub mod plot;
pub mod policy;
pub mod position;
pub mod rating;
pub mod render;
pub mod rng;
pub mod sample;
pub mod search;
pub mod selfplay;
pub mod stats;
pub mod viewer;
mod zobrist;

pub use board::{Bitboard, Cell, Row};
pub use dice::{Colour, Die, Face, FaceSet, Side, Symbol};
pub use game::{EndReason, Game, Outcome};
pub use movegen::{Illegal, MoveList, MoveSet};
pub use moves::{Dest, Move, MoveKind};
pub use notation::{MoveError, ParseError, PositionError, Setup, SpnError};
pub use position::{DieSet, Phase, Piles, Position};
