//! The learned evaluation's cost per position: the logistic model alone
//! (what `learned` and the MCTS priors compute) against the same with a
//! value network of 16, 32 and 64 hidden units (`file=` weights with `net.`
//! lines), on the children of play positions of seeded random games, as a
//! one-ply agent or an expansion evaluates them.
//!
//! The network's weights are pseudo-random (the cost does not depend on
//! their values). `cargo bench --bench eval`; each line's throughput is
//! evaluations per second.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use senat_lab::learned::Learned;
use senat_lab::net::{INPUTS, Net};
use senat_rules::{Position, Side};

/// The children of the play positions of a few seeded random games, each
/// with the side that moved into it.
fn children() -> Vec<(Position, Side)> {
    let mut out = Vec::new();
    for seed in 1..=6u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut p = Position::start();
        for _ in 0..400 {
            let moves = p.legal_moves();
            if moves.is_empty() || p.majority().is_some() {
                break;
            }
            if p.is_play() {
                let me = p.side_to_move();
                for &m in moves.iter() {
                    let mut q = p;
                    q.play_unchecked(m);
                    out.push((q, me));
                }
            }
            p.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
    }
    out
}

/// The shipped weights with a network of `hidden` pseudo-random units.
fn with_net(hidden: usize) -> Learned {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(hidden as u64);
    let mut net = Net::zeros(INPUTS, hidden);
    let mut draw = || rng.random_range(-0.5f32..0.5);
    net.w1 = (0..INPUTS * hidden).map(|_| draw()).collect();
    net.b1 = (0..hidden).map(|_| draw()).collect();
    net.w2 = (0..hidden).map(|_| draw()).collect();
    net.b2 = draw();
    Learned { net: Some(Arc::new(net)), ..Learned::builtin().clone() }
}

fn bench_eval(c: &mut Criterion) {
    let positions = children();
    eprintln!("{} child positions", positions.len());
    let mut g = c.benchmark_group("learned_logit");
    g.throughput(Throughput::Elements(positions.len() as u64));
    let sum = |w: &Learned| positions.iter().map(|(p, me)| w.logit(black_box(p), *me)).sum::<f64>();
    let logistic = Learned::builtin();
    g.bench_function("logistic", |b| b.iter(|| sum(logistic)));
    for hidden in [16, 32, 64] {
        let w = with_net(hidden);
        g.bench_function(format!("net{hidden}"), |b| b.iter(|| sum(&w)));
    }
    g.finish();
    // The network alone on listed inputs: the `f32` network that training
    // reads against the integer form that agents read.
    let listed: Vec<Vec<u16>> = positions
        .iter()
        .map(|(p, _)| {
            let mut v = Vec::new();
            senat_lab::net::inputs(p, &mut v);
            v
        })
        .collect();
    let mut g = c.benchmark_group("net_kernel");
    g.throughput(Throughput::Elements(listed.len() as u64));
    g.bench_function("list_inputs", |b| {
        let mut v = Vec::new();
        b.iter(|| {
            positions
                .iter()
                .map(|(p, _)| {
                    senat_lab::net::inputs(black_box(p), &mut v);
                    v.len()
                })
                .sum::<usize>()
        })
    });
    g.bench_function("turnable", |b| {
        b.iter(|| positions.iter().map(|(p, _)| black_box(p).turnable().red.0.count_ones()).sum::<u32>())
    });
    for hidden in [32, 64] {
        let w = with_net(hidden);
        let n = w.net.as_deref().expect("a network");
        g.bench_function(format!("f32_{hidden}"), |b| {
            b.iter(|| listed.iter().map(|a| n.output(black_box(a))).sum::<f32>())
        });
        g.bench_function(format!("int_{hidden}"), |b| {
            b.iter(|| listed.iter().map(|a| n.infer(black_box(a))).sum::<f32>())
        });
    }
    g.finish();
}

criterion_group!(benches, bench_eval);
criterion_main!(benches);
