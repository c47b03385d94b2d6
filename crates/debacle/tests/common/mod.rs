//! Shared helpers of the tests: random play (with `testkit`'s generator).

#![allow(dead_code)]

use debacle_rules::{Move, Position};
use testkit::SplitMix64;

/// Plays a random legal move; false when the match is over.
pub fn random_step(p: &mut Position, rng: &mut SplitMix64, buf: &mut Vec<Move>) -> bool {
    p.legal_moves(buf);
    if buf.is_empty() {
        return false;
    }
    let m = buf[rng.below(buf.len())];
    p.play_unchecked(m);
    true
}
