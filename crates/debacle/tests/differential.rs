//! The fast generator and `reference::legal_moves` agree, as sets and
//! without duplicates, on positions reached by random play across rounds,
//! rebond and recovery phases included.

mod common;

use common::random_step;
use debacle_rules::{Dir, Move, Phase, Position, Variant, reference};
use std::collections::HashSet;
use testkit::SplitMix64;

const POSITIONS: usize = if testkit::UNOPTIMISED { 10_000 } else { 40_000 };

fn differential(variant: &str, seed: u64) {
    let v = Variant::parse(variant).unwrap();
    let mut rng = SplitMix64::new(seed);
    let mut p = Position::start(v);
    let mut buf = Vec::new();
    let (mut rebonds, mut recoveries, mut second, mut relocations, mut rounds, mut end_rolls) = (0, 0, 0, 0, 0, 0);
    for _ in 0..POSITIONS {
        if p.outcome().is_some() {
            p = Position::start(v);
        }
        p.legal_moves(&mut buf);
        let fast: HashSet<_> = buf.iter().copied().collect();
        assert_eq!(fast.len(), buf.len(), "duplicate moves in {p}");
        let slow_list = reference::legal_moves(&p);
        let slow: HashSet<_> = slow_list.iter().copied().collect();
        assert_eq!(slow.len(), slow_list.len(), "reference duplicates in {p}");
        assert_eq!(fast, slow, "generators disagree in {p}");
        match p.phase() {
            Phase::Rebond { .. } => rebonds += 1,
            Phase::Recovery => recoveries += 1,
            Phase::Action { index: 1, .. } => second += 1,
            _ => {}
        }
        let me = p.to_move();
        end_rolls += buf
            .iter()
            .filter(|m| match **m {
                Move::Roll { from, dir: Dir::Forward, home: None } => {
                    (me == 0 && from / 6 == 4) || (me == 1 && from / 6 == 1)
                }
                _ => false,
            })
            .count();
        relocations += buf.iter().filter(|m| matches!(m, Move::Roll { home: Some(_), .. })).count();
        let round = p.round();
        assert!(random_step(&mut p, &mut rng, &mut buf));
        if p.round() != round {
            rounds += 1;
        }
    }
    eprintln!(
        "`{variant}`: {POSITIONS} positions, {rebonds} rebond, {recoveries} recovery, {second} second-action, \
         {relocations} relocating moves, {end_rolls} round-ending rolls into the camp, {rounds} round changes"
    );
    if v.relocate_on_end {
        assert_eq!(end_rolls, 0);
    }
    assert!(rebonds > 0 && recoveries > 0 && second > 0 && relocations > 0 && rounds > 0);
}

#[test]
fn differential_default() {
    differential("", 1);
}

#[test]
fn differential_winner_relocate() {
    differential("scoring=winner,relocate_on_end=yes", 2);
}

#[test]
fn differential_other_options() {
    differential("faces=316254,recovery_resets=yes,quiet=20,turns=60,target=10,rounds=3", 3);
}
