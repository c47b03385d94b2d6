//! Connect Four positions for the generic solver, side by side with other
//! solvers (`experiments/connect4-solver.sh`).
//!
//! - `connect4_solve generate N MIN MAX SEED`: prints N random 7 × 6
//!   positions (column digits, one a line) of MIN to MAX discs, not over,
//!   where the side to move has no win at once (the public solvers' test
//!   sets hold such positions).
//! - `connect4_solve solve [TABLE_MB]`: reads positions one a line and
//!   prints `POSITION SCORE NODES MICROSECONDS` for each, solved exactly by
//!   the generic solver (one thread, one table kept across positions, 64 MB
//!   by default; no principal line: [`Solver::line`] off). SCORE is on
//!   the public solvers' scale: for the side to move, 22 minus the
//!   winner's discs at the end if it wins (7 × 6), the negative if it
//!   loses, 0 for a draw; then a last line `total …`.

use connect4_rules::Position;
use game_search::solver::{Solver, Verdict};
use senat_lab::games::connect4::{Connect4, random_open_position};
use std::io::{BufRead, Write};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["generate", n, min, max, seed] => {
            let num = |s: &str| s.parse::<u64>().unwrap_or_else(|_| fail(&format!("not a number: {s}")));
            generate(num(n), num(min) as u32, num(max) as u32, num(seed));
        }
        ["solve"] => solve(64),
        ["solve", mb] => solve(mb.parse().unwrap_or_else(|_| fail(&format!("not a table size in MB: {mb}")))),
        _ => fail("usage: connect4_solve generate N MIN MAX SEED | connect4_solve solve [TABLE_MB]"),
    }
}

fn fail(message: &str) -> ! {
    eprintln!("connect4_solve: {message}");
    std::process::exit(2)
}

fn generate(n: u64, min: u32, max: u32, seed: u64) {
    if min > max || max >= 42 {
        fail("MIN must be at most MAX, and MAX below 42");
    }
    let mut rng = testkit::SplitMix64::new(seed);
    let mut out = std::io::stdout().lock();
    let mut made = 0;
    while made < n {
        let stones = min + rng.below((max - min + 1) as usize) as u32;
        let Some(p) = random_open_position(stones, |n| rng.below(n)) else { continue };
        writeln!(out, "{p}").expect("stdout");
        made += 1;
    }
}

fn solve(mb: usize) {
    let mut solver = Solver::<Connect4>::try_with_table_mb(mb).unwrap_or_else(|e| fail(&e.to_string()));
    // The score is all that is printed (as the peers print): no line.
    solver.line = false;
    let mut out = std::io::stdout().lock();
    let (mut positions, mut nodes, mut micros) = (0u64, 0u64, 0u128);
    for (i, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.unwrap_or_else(|e| fail(&format!("line {}: {e}", i + 1)));
        let p: Position = line.trim().parse().unwrap_or_else(|e| fail(&format!("line {}: {e}", i + 1)));
        let start = Instant::now();
        let s = solver.solve(&p, 42);
        let us = start.elapsed().as_micros();
        let cells = p.variant().cells() as i64;
        // The winner's discs when its last disc lands, `n` plies ahead.
        let winner_discs = |n: u32| (i64::from(p.ply()) + i64::from(n) + 1) / 2;
        let score = match s.verdict {
            Verdict::Win(n) => (cells + 2) / 2 - winner_discs(n),
            Verdict::Loss(n) => winner_discs(n) - (cells + 2) / 2,
            Verdict::Draw(_) => 0,
            Verdict::Unknown => fail(&format!("{p}: undecided")),
        };
        writeln!(out, "{p} {score} {} {us}", s.nodes).expect("stdout");
        positions += 1;
        nodes += s.nodes;
        micros += us;
    }
    writeln!(out, "total {positions} positions {nodes} nodes {micros} us").expect("stdout");
}
