//! Move generation, move making, hashing and perft on a fixed spread of positions.
//!
//! The spread: the start, the sample position of the rules (or, while
//! `senat_rules::sample::START` is a placeholder, a seeded random draft), and
//! 32 play positions reached by seeded random play after seeded random drafts.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use senat_rules::{Move, Position};

/// Plies of play (after the draft) at which spread positions are taken.
const PLIES: [usize; 4] = [5, 15, 30, 45];
/// Games played for the spread; each gives one position per entry of `PLIES`.
const GAMES: u64 = 8;

fn random_move(p: &Position, rng: &mut Xoshiro256PlusPlus) -> Option<Move> {
    let moves = p.legal_moves();
    (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())])
}

/// A position after a draft of uniformly random legal moves from `seed`.
fn random_draft(seed: u64) -> Position {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut p = Position::start();
    while !p.is_play() {
        let m = random_move(&p, &mut rng).expect("the draft always has a move");
        p.play_unchecked(m);
    }
    p
}

/// The sample position of the rules, or, while `senat_rules::sample::START` does
/// not parse, the first seeded random draft with a legal move.
fn sample_position() -> (Position, String) {
    match senat_rules::sample::START.parse::<Position>() {
        Ok(p) => (p, "sample".to_string()),
        Err(_) => {
            let seed = (1..).find(|&s| random_draft(s).count_moves() > 0).expect("some draft has moves");
            (random_draft(seed), format!("draft{seed}"))
        }
    }
}

/// Play positions from seeded random games: one per game and entry of
/// `PLIES`. A game that ends too early is replaced by the next seed.
fn mid_game_positions() -> Vec<Position> {
    let mut out = Vec::new();
    let mut seed = 1000;
    while out.len() < GAMES as usize * PLIES.len() {
        seed += 1;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut p = random_draft(seed);
        let mut taken = Vec::new();
        for ply in 1..=PLIES[PLIES.len() - 1] {
            let Some(m) = random_move(&p, &mut rng) else {
                break;
            };
            p.play_unchecked(m);
            if PLIES.contains(&ply) && p.count_moves() > 0 {
                taken.push(p);
            }
        }
        if taken.len() == PLIES.len() {
            out.extend(taken);
        }
    }
    out
}

struct Spread {
    sample: Position,
    sample_name: String,
    /// The start, the sample and the mid-game positions.
    all: Vec<Position>,
    /// Each position of `all` with its legal moves and hash.
    with_moves: Vec<(Position, Vec<Move>, u64)>,
    total_moves: u64,
}

fn spread() -> Spread {
    let (sample, sample_name) = sample_position();
    let mut all = vec![Position::start(), sample];
    all.extend(mid_game_positions());
    let with_moves: Vec<_> = all.iter().map(|p| (*p, p.legal_moves().to_vec(), p.hash())).collect();
    let total_moves = with_moves.iter().map(|(_, m, _)| m.len() as u64).sum();
    for (p, m, _) in &with_moves {
        assert_eq!(p.count_moves(), m.len(), "count_moves disagrees with legal_moves on {p:?}");
    }
    eprintln!("spread: {} positions ({sample_name} = {}), {total_moves} legal moves", all.len(), sample.to_spn());
    Spread { sample, sample_name, all, with_moves, total_moves }
}

fn generate_count(p: &Position) -> usize {
    let mut n = 0;
    p.generate(|set| {
        n += set.len();
        false
    });
    n
}

fn bench_generation(c: &mut Criterion, s: &Spread) {
    let sample_moves = s.sample.count_moves() as u64;
    let mut g = c.benchmark_group("legal_moves");
    g.throughput(Throughput::Elements(sample_moves));
    g.bench_function(&s.sample_name, |b| b.iter(|| black_box(&s.sample).legal_moves().len()));
    g.throughput(Throughput::Elements(s.total_moves));
    g.bench_function("spread", |b| b.iter(|| s.all.iter().map(|p| black_box(p).legal_moves().len()).sum::<usize>()));
    g.finish();

    let mut g = c.benchmark_group("count_moves");
    g.throughput(Throughput::Elements(sample_moves));
    g.bench_function(&s.sample_name, |b| b.iter(|| black_box(&s.sample).count_moves()));
    g.throughput(Throughput::Elements(s.total_moves));
    g.bench_function("spread", |b| b.iter(|| s.all.iter().map(|p| black_box(p).count_moves()).sum::<usize>()));
    g.finish();

    let mut g = c.benchmark_group("generate_sets");
    g.throughput(Throughput::Elements(sample_moves));
    g.bench_function(&s.sample_name, |b| b.iter(|| generate_count(black_box(&s.sample))));
    g.throughput(Throughput::Elements(s.total_moves));
    g.bench_function("spread", |b| b.iter(|| s.all.iter().map(|p| generate_count(black_box(p))).sum::<usize>()));
    g.finish();
}

fn bench_making(c: &mut Criterion, s: &Spread) {
    let mut g = c.benchmark_group("make");
    g.throughput(Throughput::Elements(s.total_moves));
    g.bench_function("play_unchecked/spread", |b| {
        b.iter(|| {
            for (p, moves, _) in &s.with_moves {
                for &m in moves {
                    let mut child = *p;
                    child.play_unchecked(black_box(m));
                    black_box(&child);
                }
            }
        })
    });
    g.bench_function("play_hashed/spread", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (p, moves, h) in &s.with_moves {
                for &m in moves {
                    let mut child = *p;
                    let mut hash = *h;
                    child.play_hashed(black_box(m), &mut hash);
                    black_box(&child);
                    acc ^= hash;
                }
            }
            acc
        })
    });
    g.throughput(Throughput::Elements(s.all.len() as u64));
    g.bench_function("hash_from_scratch/spread", |b| {
        b.iter(|| s.all.iter().fold(0, |acc, p| acc ^ black_box(p).hash()))
    });
    g.finish();
}

fn bench_perft(c: &mut Criterion, s: &Spread) {
    let mut g = c.benchmark_group("perft");
    for depth in 1..=4 {
        let nodes = senat_rules::perft::perft(&s.sample, depth);
        if depth == 4 {
            g.sample_size(10);
        }
        g.throughput(Throughput::Elements(nodes));
        g.bench_with_input(BenchmarkId::new(format!("bulk/{}", s.sample_name), depth), &depth, |b, &d| {
            b.iter(|| senat_rules::perft::perft(black_box(&s.sample), d))
        });
    }
    g.sample_size(10);
    let depth = 3;
    let nodes = senat_rules::perft::perft(&s.sample, depth);
    g.throughput(Throughput::Elements(nodes));
    g.bench_with_input(BenchmarkId::new(format!("full/{}", s.sample_name), depth), &depth, |b, &d| {
        b.iter(|| senat_rules::perft::perft_full(black_box(&s.sample), d))
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    let s = spread();
    bench_generation(c, &s);
    bench_making(c, &s);
    bench_perft(c, &s);
}

criterion_group! {
    name = movegen;
    config = Criterion::default()
        .measurement_time(Duration::from_millis(2500))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(20);
    targets = benches
}
criterion_main!(movegen);
