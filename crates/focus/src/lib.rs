//! The rules of Focus (Sid Sackson), 2 players and the 4-player partnership
//! game, as GAMES.md §1 specifies them: the 52-square board, stacks of up to 5
//! with overflow from the bottom, reserves, the forced pass and team end of the
//! 4-player game, Sackson's symmetry fixes as variant options, a ply cap; the
//! move and position texts (NOTATION.md), Zobrist hashing, perft, and a second
//! plain generator ([`reference`]) for differential tests.
//!
//! What this crate must never do: I/O, search, or randomness other than what a
//! caller passes in (pick a random move with [`Position::count_moves`] and
//! [`Position::nth_move`]).
//!
//! # The verbs
//!
//! The four rules crates (`senat-rules`, `focus-rules`, `debacle-rules`,
//! `dominoes-rules`) name the same operations the same way:
//!
//! * `legal_moves(&mut out)`: the legal moves, into `out` (cleared first;
//!   Sénat's returns a `MoveList`), with `count_moves` and `nth_move`
//!   views of the same generator;
//! * `is_legal(m)`: whether `m` is among them;
//! * `check(m)`: `Ok(())` if `m` is legal, otherwise why not ([`MoveError`]);
//! * `play(m)`: plays `m` if it is legal, otherwise returns the error of
//!   `check` and leaves the position as it was;
//! * `play_unchecked(m)`: the fast path for a move known to be legal (from
//!   the generator, or checked): no check beyond a `debug_assert!` of
//!   `is_legal` in debug builds; an illegal move leaves an inconsistent
//!   position. Searches, playouts and perft use it.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod board;
mod notation;
mod position;
pub mod reference;
mod variant;

pub use board::{MAX_HEIGHT, SQUARES, Square, is_playable, parse_square, square_name};
pub use notation::{MoveError, PositionError};
pub use position::{Move, Outcome, Position, total_pieces};
pub use variant::{Fix, MAX_CAP, Order, Variant, VariantError};

/// Counts the leaves of the move tree of depth `depth` from `p` (bulk counting at the last ply).
pub fn perft(p: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => p.count_moves() as u64,
        _ => {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            moves
                .iter()
                .map(|&m| {
                    let mut q = *p;
                    q.play_unchecked(m);
                    perft(&q, depth - 1)
                })
                .sum()
        }
    }
}
