//! Random complete rounds and matches per second, one thread, for 2, 3 and
//! 4 players and the OpenSpiel variant.
//!
//! Run: `cargo run --release -p dominoes-rules --example dominoes_speed`.

use dominoes_rules::{Move, Sampler, State, Variant};
use std::time::Instant;
use testkit::XorShift64;

/// Plays random moves until the round (or, with `whole`, the match) is over; returns the moves played.
fn run(s: &mut State, seed: &mut XorShift64, whole: bool, chance: &mut Vec<(Move, f64)>, moves: &mut Vec<Move>) -> u64 {
    let mut n = 0;
    loop {
        if s.outcome().is_some() || (!whole && s.round_over() && n > 0) {
            return n;
        }
        if s.is_chance() {
            s.chance_outcomes(chance);
            let m = chance[seed.below(chance.len())].0;
            s.play_unchecked(m);
        } else {
            s.legal_moves(moves);
            let m = moves[seed.below(moves.len())];
            s.play_unchecked(m);
        }
        n += 1;
    }
}

fn run_one(s: &mut State, seed: &mut XorShift64, chance: &mut Vec<(Move, f64)>, moves: &mut Vec<Move>) {
    if s.is_chance() {
        s.chance_outcomes(chance);
        let m = chance[seed.below(chance.len())].0;
        s.play_unchecked(m);
    } else {
        s.legal_moves(moves);
        let m = moves[seed.below(moves.len())];
        s.play_unchecked(m);
    }
}

fn main() {
    let mut seed = XorShift64::new(0x1234_5678_9abc_def1);
    let mut chance = Vec::new();
    let mut moves = Vec::new();
    for text in ["", "players=3", "players=4", "rules=openspiel"] {
        let v = Variant::parse(text).expect("variant");
        let name = if text.is_empty() { "players=2" } else { text };
        let t = Instant::now();
        let mut rounds = 0u64;
        let mut plies = 0u64;
        while t.elapsed().as_secs_f64() < 1.0 {
            for _ in 0..1000 {
                let mut s = State::start(v);
                plies += run(&mut s, &mut seed, false, &mut chance, &mut moves);
                rounds += 1;
            }
        }
        let rps = rounds as f64 / t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut matches = 0u64;
        let mut mrounds = 0u64;
        while t.elapsed().as_secs_f64() < 1.0 {
            for _ in 0..20 {
                let mut s = State::start(v);
                run(&mut s, &mut seed, true, &mut chance, &mut moves);
                mrounds += u64::from(s.rounds_played());
                matches += 1;
            }
        }
        let mps = matches as f64 / t.elapsed().as_secs_f64();
        println!(
            "{name:16} rounds/s {rps:>10.0}  moves/round {:5.1}  matches/s {mps:>9.0}  rounds/match {:5.1}",
            plies as f64 / rounds as f64,
            mrounds as f64 / matches as f64
        );
        // Determinization: samples per second from the mover's observation at random mid-round decisions.
        let mut obs: Vec<Sampler> = Vec::new();
        while obs.len() < 2000 {
            let mut s = State::start(v);
            let stop = 14 + seed.below(30);
            for _ in 0..stop {
                if s.round_over() {
                    break;
                }
                let mut one = s;
                run_one(&mut one, &mut seed, &mut chance, &mut moves);
                s = one;
            }
            if !s.round_over() && !s.is_chance() && !s.dealing() {
                obs.push(Sampler::new(&s.observation(s.to_move())));
            }
        }
        let t = Instant::now();
        let mut k = 0u64;
        while t.elapsed().as_secs_f64() < 1.0 {
            for o in &obs {
                std::hint::black_box(o.draw(&mut || seed.next_u64()));
                k += 1;
            }
        }
        let sps = k as f64 / t.elapsed().as_secs_f64();
        println!(
            "{name:16} samples/s {sps:>10.0}  (a Sampler per observation, the mover at random mid-round decisions)"
        );
    }
}
