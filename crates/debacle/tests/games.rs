//! Every random match ends (the outcome is set) within the caps, and the
//! outcome's scores sum to 1.

mod common;

use common::random_step;
use debacle_rules::{Position, Variant};
use testkit::SplitMix64;

const GAMES: usize = if testkit::UNOPTIMISED { 20 } else { 200 };

fn matches(variant: &str, seed: u64) {
    let v = Variant::parse(variant).unwrap();
    let mut rng = SplitMix64::new(seed);
    let mut buf = Vec::new();
    // Per turn: 2 regular actions, at most 5 rebonds... per round 1 recovery decision: bounded by 16 plies.
    let bound = v.rounds as u64 * v.turns as u64 * 16;
    for _ in 0..GAMES {
        let mut p = Position::start(v);
        let mut plies = 0u64;
        while random_step(&mut p, &mut rng, &mut buf) {
            plies += 1;
            assert!(plies <= bound, "match over the caps: {p}");
            assert!(p.round() <= v.rounds);
            assert!(p.turns_in_round() < v.turns || p.outcome().is_some());
        }
        let o = p.outcome().expect("no moves means over");
        let s = o.scores(2);
        assert_eq!(s[0] + s[1], 1.0);
        assert_eq!(s[2] + s[3], 0.0);
        assert_eq!(p.count_moves(), 0);
        let back: Position = p.to_string().parse().unwrap();
        assert_eq!(back, p);
    }
}

#[test]
fn default_matches_end() {
    matches("", 11);
}

#[test]
fn winner_relocate_matches_end() {
    matches("scoring=winner,relocate_on_end=yes", 12);
}

#[test]
fn tight_caps_matches_end() {
    matches("quiet=3,turns=10,rounds=4,target=1", 13);
}
