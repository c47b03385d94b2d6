//! The rules of Sénat: dice, board, moves, positions, the move generator,
//! the game record with its history and end check, notation, perft and the
//! sample game.
//!
//! What this crate must never do: perform I/O beyond parsing and writing
//! text, search, or choose moves (no randomness policy lives here). Every
//! rule is written once: the move generator ([`movegen`]) is the single
//! encoding of legal moves, [`game`] the single history and end check.
#![deny(missing_docs)]

pub mod board;
pub mod dice;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod record;
pub mod sample;
pub mod variant;
mod zobrist;

pub use board::{Bitboard, Cell, Row};
pub use dice::{Colour, Die, Face, FaceSet, Side, Symbol};
pub use game::{EndReason, Game, History, Outcome};
pub use movegen::{Illegal, MoveList, MoveSet, PlayMoves};
pub use moves::{Dest, Move, MoveKind};
pub use notation::{MoveError, ParseError, PositionError, Setup, SpnError};
pub use position::{DieSet, Layers, Phase, Piles, Position};
pub use record::{Record, RecordError};
pub use variant::{Variant, VariantError};
