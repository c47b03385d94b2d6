//! Helpers shared by the test files: a tiny seeded generator and random play.

#![allow(dead_code)]

use focus_rules::{Position, Variant};

/// splitmix64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays one random move; false when the game is over.
pub fn random_step(p: &mut Position, rng: &mut Rng) -> bool {
    let n = p.count_moves();
    if n == 0 {
        return false;
    }
    let m = p.nth_move(rng.below(n));
    p.play_unchecked(m);
    true
}

/// The variants the issue names.
pub fn variants() -> Vec<Variant> {
    ["", "players=4", "players=4,order=ccw", "fix=swap", "fix=draw"]
        .iter()
        .map(|t| Variant::parse(t).unwrap())
        .collect()
}
