//! Helpers shared by the test files: random play (with `testkit`'s generator) and the variants.

#![allow(dead_code)]

use focus_rules::{Position, Variant};
use testkit::SplitMix64;

/// Plays one random move; false when the game is over.
pub fn random_step(p: &mut Position, rng: &mut SplitMix64) -> bool {
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
