//! Perft: counting the legal move sequences of a given length.
//!
//! A position where majority or closure holds, or with no legal move, has
//! no children; repetition is ignored (perft has no history).

use crate::moves::Move;
use crate::position::Position;

/// Leaf count at `depth`, counting the last ply without playing it (bulk counting).
pub fn perft(p: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => p.count_moves() as u64,
        _ => {
            let mut n = 0;
            p.generate(|set| {
                set.for_each(|m| {
                    let mut c = *p;
                    c.play_unchecked(m);
                    n += perft(&c, depth - 1);
                });
                false
            });
            n
        }
    }
}

/// Leaf count at `depth`, playing every move including the leaves (copy-make).
pub fn perft_full(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    p.generate(|set| {
        set.for_each(|m| {
            let mut c = *p;
            c.play_unchecked(m);
            n += if depth == 1 {
                std::hint::black_box(&c);
                1
            } else {
                perft_full(&c, depth - 1)
            };
        });
        false
    });
    n
}

/// The leaf count below each legal move, sorted by move text.
pub fn divide(p: &Position, depth: u32) -> Vec<(Move, u64)> {
    divide_with(p, depth, perft)
}

/// [`divide`] with another counter below each move (e.g. [`perft_full`]):
/// `count(child, depth - 1)` for every legal move, sorted by move text.
pub fn divide_with(p: &Position, depth: u32, count: impl Fn(&Position, u32) -> u64) -> Vec<(Move, u64)> {
    let mut out: Vec<(Move, u64)> = p
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut c = *p;
            c.play_unchecked(m);
            (m, count(&c, depth.saturating_sub(1)))
        })
        .collect();
    out.sort_by_cached_key(|(m, _)| m.to_string());
    out
}
