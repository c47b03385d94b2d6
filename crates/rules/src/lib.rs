//! The rules of Sénat: dice, board, moves, positions, the move generator,
//! the game record with its history and end check, notation, perft and the
//! sample game.
//!
//! What this crate must never do: perform I/O beyond parsing and writing
//! text, search, or choose moves (no randomness policy lives here). Every
//! rule is written once: the move generator ([`movegen`]) is the single
//! encoding of legal moves, [`game`] the single history and end check.
//!
//! # The verbs
//!
//! The four rules crates (`senat-rules`, `focus-rules`, `debacle-rules`,
//! `dominoes-rules`) name the same operations the same way:
//!
//! * `legal_moves()`: the legal moves, as a [`MoveList`] (no allocation:
//!   this is the hot path of the searches; the other crates fill a
//!   `&mut Vec<Move>`);
//! * `is_legal(m)`: whether `m` is among them;
//! * `check(m)`: `Ok(())` if `m` is legal, otherwise why not ([`Illegal`]);
//! * `play(m)`: plays `m` if it is legal, otherwise returns the error of
//!   `check` and leaves the position as it was;
//! * `play_unchecked(m)`: the fast path for a move known to be legal (from
//!   the generator, or checked): no check; an illegal move leaves an
//!   inconsistent position. Searches, playouts and perft use it.
//!
//! These are [`Position`]'s; [`GameRecord`] (a position with its history) has
//! `play` and `play_unchecked` too, its `play` also refusing any move once
//! the game is over.
#![deny(missing_docs)]

pub mod board;
pub mod bounds;
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
pub use game::{EndReason, GameRecord, History, Outcome};
pub use movegen::{Illegal, MoveList, MoveSet, PlayMoves};
pub use moves::{Dest, Move, MoveKind};
pub use notation::{MoveError, ParseError, PositionError, Setup, SpnError};
pub use position::{DieSet, Layers, Phase, Piles, Position, Turnable};
pub use record::{Record, RecordError};
pub use variant::{Ties, Variant, VariantError};
