//! The rules of Connect Four as GAMES.md §4 specifies them: a board of
//! `width` columns and `height` rows (7 × 6 by default, 4 to 9 each, with
//! `(height + 1) × width ≤ 64` so that one `u64` holds it), discs dropped
//! into columns, four in a row (horizontal, vertical or diagonal) winning at
//! once, a full board drawn; the text forms (a position is `start` or the
//! columns played, digits `1`–`9` from the left, as the widely used public
//! solvers read them), perft, and a second plain model ([`reference`]) for
//! differential tests.
//!
//! What this crate must never do: I/O, search, or randomness other than what
//! a caller passes in (pick a random move with [`Position::count_moves`] and
//! [`Position::nth_move`]).
//!
//! # The verbs
//!
//! The same as the other rules crates (`senat-rules`, `focus-rules`,
//! `debacle-rules`, `dominoes-rules`):
//!
//! * `legal_moves(&mut out)`: the legal moves, into `out` (cleared first),
//!   left to right, with `count_moves` and `nth_move` views of the same
//!   list; a won or full board has none;
//! * `is_legal(m)`: whether `m` is among them;
//! * `check(m)`: `Ok(())` if `m` is legal, otherwise why not ([`MoveError`]);
//! * `play(m)`: plays `m` if it is legal, otherwise returns the error of
//!   `check` and leaves the position as it was;
//! * `play_unchecked(m)`: the fast path for a move known to be legal: no
//!   check beyond a `debug_assert!`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod position;
pub mod reference;
mod variant;

pub use position::{MAX_CELLS, Move, MoveError, Outcome, Position, PositionError};
pub use variant::{MAX_SIDE, MIN_SIDE, Variant, VariantError};

/// Counts the leaves of the move tree of depth `depth` from `p` (bulk
/// counting at the last ply; a won or full position is a leaf with no
/// moves, so it counts 0 below depth 0).
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
