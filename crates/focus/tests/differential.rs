//! The fast generator against `reference::legal_moves` (a plain generator from GAMES.md's text),
//! on positions reached by random play from the start of each variant: same sets, no duplicates,
//! and `count_moves`, `nth_move`, `is_legal` agree with the list; `play` and `outcome` agree with the
//! reference's plain versions.

mod common;

use common::variants;
use focus_rules::{Move, Position, Variant, perft, reference};
use std::collections::HashSet;
use testkit::SplitMix64;

const POSITIONS: usize = if testkit::UNOPTIMISED { 3_000 } else { 10_000 };

#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    with_reserve: usize,
    overflows: usize,
    passes: usize,
    swaps: usize,
    ended: usize,
}

fn compare(p: &Position, rng: &mut SplitMix64) {
    let mut fast = Vec::new();
    p.legal_moves(&mut fast);
    let set: HashSet<Move> = fast.iter().copied().collect();
    assert_eq!(set.len(), fast.len(), "duplicate moves in {p}");
    let slow = reference::legal_moves(p);
    let slow_set: HashSet<Move> = slow.iter().copied().collect();
    assert_eq!(slow_set.len(), slow.len(), "reference duplicates in {p}");
    assert_eq!(set, slow_set, "generators disagree in {p}");
    assert_eq!(p.count_moves(), fast.len(), "count_moves in {p}");
    assert_eq!(p.outcome(), reference::outcome(p), "outcome in {p}");
    assert_eq!(fast.is_empty(), p.outcome().is_some(), "empty iff over in {p}");
    for (i, &m) in fast.iter().enumerate() {
        assert_eq!(p.nth_move(i), m, "nth_move {i} in {p}");
        assert!(p.is_legal(m), "{m} not legal in {p}");
    }
    // Random candidates: is_legal agrees with the list.
    for _ in 0..20 {
        let (a, b) = (rng.below(64) as u8, rng.below(64) as u8);
        let m = match rng.below(4) {
            0 => Move::Step { from: a, to: b },
            1 => Move::Enter { to: a },
            2 => Move::Pass,
            _ => Move::Swap { own: a, other: b },
        };
        assert_eq!(p.is_legal(m), set.contains(&m), "is_legal({m:?}) in {p}");
    }
}

fn run(v: Variant, seed: u64) -> Seen {
    let mut rng = SplitMix64::new(seed);
    let mut seen = Seen::default();
    while seen.positions < POSITIONS {
        let mut p = Position::start(v);
        // Games of random length, so that starts and swap phases come up often.
        let length = 50 + rng.below(1500);
        for _ in 0..length {
            compare(&p, &mut rng);
            seen.positions += 1;
            seen.with_reserve += (0..p.players()).any(|q| p.reserve(q) > 0) as usize;
            seen.swaps += (p.swaps_played() < 2) as usize;
            let n = p.count_moves();
            if n == 0 {
                seen.ended += 1;
                break;
            }
            let m = p.nth_move(rng.below(n));
            seen.passes += (m == Move::Pass) as usize;
            let before: usize = (0..p.players()).map(|q| p.on_board(q)).sum();
            let expected = reference::play(&p, m);
            p.play_unchecked(m);
            assert_eq!(reference::snapshot(&p), expected, "play {m}: fast and reference disagree, now {p}");
            let after: usize = (0..p.players()).map(|q| p.on_board(q)).sum();
            seen.overflows += (after + matches!(m, Move::Step { .. }) as usize <= before) as usize;
        }
    }
    seen
}

#[test]
fn fast_and_reference_agree() {
    for (i, v) in variants().into_iter().enumerate() {
        let seen = run(v, 0x5eed + i as u64);
        eprintln!("variant `{}`: {seen:?}", v.to_text());
        assert!(seen.positions >= POSITIONS);
        assert!(seen.with_reserve > POSITIONS / 1000, "too few reserves: {seen:?}");
        assert!(seen.overflows > POSITIONS / 1000, "too few overflows: {seen:?}");
        if v.players == 4 && POSITIONS >= 10_000 {
            assert!(seen.passes > 0, "no pass seen: {seen:?}");
        }
        if v.fix == focus_rules::Fix::Swap {
            assert!(seen.swaps >= 2, "too few swap positions: {seen:?}");
        }
    }
}

/// Every position after P0's first swap: P1's filtered swaps against the reference.
#[test]
fn second_swap_filter_agrees() {
    let p = Position::start(Variant::parse("fix=swap").unwrap());
    let mut first = Vec::new();
    p.legal_moves(&mut first);
    let step = if testkit::UNOPTIMISED { 17 } else { 1 };
    let mut rng = SplitMix64::new(7);
    let mut total = 0;
    for &m in first.iter().step_by(step) {
        let mut q = p;
        q.play_unchecked(m);
        compare(&q, &mut rng);
        total += q.count_moves();
    }
    if step == 1 {
        assert_eq!(total as u64, perft(&p, 2));
    }
}

/// Perft through the reference generator equals the fast perft (shallow).
#[test]
fn reference_perft() {
    fn rperft(p: &Position, d: u32) -> u64 {
        if d == 0 {
            return 1;
        }
        reference::legal_moves(p)
            .into_iter()
            .map(|m| {
                let mut q = *p;
                q.play_unchecked(m);
                rperft(&q, d - 1)
            })
            .sum()
    }
    for v in variants() {
        let p = Position::start(v);
        let d = if v.fix == focus_rules::Fix::Swap { 1 } else { 2 };
        assert_eq!(rperft(&p, d), perft(&p, d), "variant `{}`", v.to_text());
    }
}
