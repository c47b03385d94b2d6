//! Shared helpers of the tests: a tiny seeded generator and random play.

#![allow(dead_code)]

use debacle_rules::{Move, Position};

/// splitmix64, enough for random play.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays a random legal move; false when the match is over.
pub fn random_step(p: &mut Position, rng: &mut Rng, buf: &mut Vec<Move>) -> bool {
    p.legal_moves(buf);
    if buf.is_empty() {
        return false;
    }
    let m = buf[rng.below(buf.len())];
    p.play_unchecked(m);
    true
}
