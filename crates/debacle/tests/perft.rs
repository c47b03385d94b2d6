//! Pinned perft counts at the start of each variant the issue names, and
//! GAMES.md §3.6's reference numbers.

use debacle_rules::{Position, Variant, perft};
use std::collections::HashSet;

fn start(v: &str) -> Position {
    Position::start(Variant::parse(v).unwrap())
}

#[test]
fn games_md_reference_numbers() {
    let p = start("");
    assert_eq!(perft(&p, 1), 12);
    assert_eq!(perft(&p, 2), 158);
    let mut after_two = HashSet::new();
    let mut texts = HashSet::new();
    let (mut first, mut second) = (Vec::new(), Vec::new());
    p.legal_moves(&mut first);
    for &a in &first {
        let mut q = p;
        q.play_unchecked(a);
        q.legal_moves(&mut second);
        for &b in &second {
            let mut r = q;
            r.play_unchecked(b);
            assert_eq!(r.to_move(), 1, "after two actions of South's first turn, North moves");
            // Distinct game states: the board, phase and counters, not the ply.
            after_two.insert(r.hash());
            texts.insert(r.to_string());
        }
    }
    assert_eq!(texts.len(), 93, "distinct positions (texts)");
    assert_eq!(after_two.len(), 93, "distinct hashes");
}

/// Perft 1..6 (1..5 in debug builds).
const DEPTHS: usize = if testkit::UNOPTIMISED { 5 } else { 6 };

fn check(v: &str, expected: &[u64]) {
    let p = start(v);
    for (d, &n) in expected.iter().enumerate().take(DEPTHS) {
        assert_eq!(perft(&p, d as u32 + 1), n, "variant `{v}` depth {}", d + 1);
    }
}

#[test]
fn perft_default() {
    check("", &[12, 158, 1896, 24964, 374142, 5771839]);
}

#[test]
fn perft_winner_relocate() {
    check("scoring=winner,relocate_on_end=yes", &[12, 158, 1896, 24964, 374142, 5771839]);
}

/// Depth 7 takes about a second in release: run with `--ignored`.
#[test]
#[ignore]
fn perft_7() {
    assert_eq!(perft(&start(""), 7), 86_495_850);
    assert_eq!(perft(&start("scoring=winner,relocate_on_end=yes"), 7), 86_495_850);
}
