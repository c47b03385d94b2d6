//! The learned evaluation's cost per position: the logistic model alone
//! (what `learned` and the MCTS priors compute) against the same with a
//! value network of 16, 32 and 64 hidden units (`file=` weights with `net.`
//! lines), on the children of play positions of seeded random games, as a
//! one-ply agent or an expansion evaluates them.
//!
//! The network's weights are pseudo-random (the cost does not depend on
//! their values). `cargo bench --bench eval`; each line's throughput is
//! evaluations per second.
//!
//! Group `senat_net` (issue 58) times the shipped value network
//! (`net=on`, crates/lab/data/net-senat.txt) on the children of the play
//! positions of 20 seeded games of `fast` against itself, side by side:
//! `listed` is the network as first computed (its inputs listed, then one
//! 16-bit row added per input: `Net::logit_listed`), `cell_rows` the same
//! value from the rows summed per cell state, every cell's from zero
//! (`Net::logit_fresh`), `incremental` the same value from the last
//! position's sum, adding and removing the rows of the cells that changed
//! (`Net::logit`, what agents use), in the positions' order (children of
//! one position in turn, as a one-ply agent or an expansion evaluates
//! them) and `incremental_shuffled` in a random order (its worst case);
//! `learned_before` and `learned_after` are the whole learned evaluation
//! with the listed and the incremental network (the logistic sum plus the
//! network). Group `parts` times the position accessors the network reads.

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

/// The children of the play positions of 20 seeded games of `fast`
/// (`learned:net=draft,temp=0.05`) against itself, each with the side that
/// moved into it, the games over left out.
fn fast_children() -> Vec<(Position, Side)> {
    let spec = senat_lab::policy::PolicySpec::parse("fast").expect("the named agent `fast`");
    let m = senat_lab::selfplay::Matchup {
        red: spec.clone(),
        blue: spec.clone(),
        draft_red: spec.clone(),
        draft_blue: spec,
    };
    let mut out = Vec::new();
    for index in 0..20 {
        let game = senat_lab::selfplay::play_game(&m, 58, index).game;
        let mut p = Position::start();
        for &m in game.moves() {
            if p.is_play() {
                let me = p.side_to_move();
                for &c in p.legal_moves().iter() {
                    let mut q = p;
                    q.play_unchecked(c);
                    if q.majority().is_none() {
                        out.push((q, me));
                    }
                }
            }
            p.play_unchecked(m);
        }
    }
    out
}

/// Issue 58's group: the shipped network as listed inputs and as summed
/// cell rows, alone and inside the learned evaluation.
fn bench_senat_net(c: &mut Criterion) {
    let positions = fast_children();
    eprintln!("{} child positions of 20 games of fast", positions.len());
    let w = Learned::shipped_net();
    let n = w.net.as_deref().expect("the shipped network");
    let mut g = c.benchmark_group("senat_net");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("listed", |b| {
        b.iter(|| positions.iter().map(|(p, me)| n.logit_listed(black_box(p), *me)).sum::<f64>())
    });
    g.bench_function("cell_rows", |b| {
        b.iter(|| positions.iter().map(|(p, me)| n.logit_fresh(black_box(p), *me)).sum::<f64>())
    });
    g.bench_function("incremental", |b| {
        b.iter(|| positions.iter().map(|(p, me)| n.logit(black_box(p), *me)).sum::<f64>())
    });
    // The same positions in a seeded random order: almost every one far
    // from the last, so the sums start from zero again (the worst case).
    let mut shuffled = positions.clone();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(58);
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, rng.random_range(0..=i));
    }
    g.bench_function("incremental_shuffled", |b| {
        b.iter(|| shuffled.iter().map(|(p, me)| n.logit(black_box(p), *me)).sum::<f64>())
    });
    g.bench_function("learned_before", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|(p, me)| w.logistic_logit(black_box(p), *me) + n.logit_listed(black_box(p), *me))
                .sum::<f64>()
        })
    });
    g.bench_function("learned_after", |b| {
        b.iter(|| positions.iter().map(|(p, me)| w.logit(black_box(p), *me)).sum::<f64>())
    });
    g.finish();
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

criterion_group!(benches, bench_senat_net, bench_eval);
criterion_main!(benches, parts);

/// Where the network's time goes besides its sums: the position accessors
/// it reads, each alone on `senat_net`'s positions (the layers of colour and
/// symbol, the quarter turns' colours, the restricted cells, the piles and
/// clock; `read_only` reads the side to move: the loop's own cost).
fn bench_parts(c: &mut Criterion) {
    let positions = fast_children();
    let mut g = c.benchmark_group("parts");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("layers", |b| {
        b.iter(|| positions.iter().map(|(p, _)| black_box(p).layers().occupied.0).fold(0, |a, x| a ^ x))
    });
    g.bench_function("turnable", |b| {
        b.iter(|| positions.iter().map(|(p, _)| black_box(p).turnable().red.0).fold(0, |a, x| a ^ x))
    });
    g.bench_function("restricted", |b| {
        b.iter(|| positions.iter().map(|(p, _)| black_box(p).restricted().0).fold(0, |a, x| a ^ x))
    });
    g.bench_function("piles_clock", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|(p, _)| {
                    let q = black_box(p);
                    u32::from(q.piles().red) + u32::from(q.clock()) + u32::from(q.closure())
                })
                .sum::<u32>()
        })
    });
    g.bench_function("read_only", |b| {
        b.iter(|| positions.iter().map(|(p, _)| black_box(p).side_to_move() as u32).sum::<u32>())
    });
    g.finish();
}
criterion_group!(parts, bench_parts);
