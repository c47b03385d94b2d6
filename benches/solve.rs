//! Times the exact solver on the fixed positions of
//! `tests/fixtures/solver-positions.txt`: each is solved a few times with a
//! fresh solver (256 MB table); min / median / max time, nodes, nodes per
//! second, and a check that the verdict is the expected one.
//!
//! Usage: `cargo bench --bench solve [-- NAME...]` (only the entries whose
//! name contains one of the words); `SOLVE_REPEAT` sets the repetitions
//! (default 3); `SOLVE_ENGINE=pns-id` times the deepening df-pn prover
//! instead (same verdicts), `SOLVE_ENGINE=pns` df-pn at the horizon (a win
//! may then be reported within more plies than the shortest, which counts
//! as agreeing). `SOLVE_THREADS` (default 1) sets the alpha-beta solver's
//! threads (`Solver::set_threads`, lazy SMP; the same verdicts, nodes of all
//! threads); the df-pn provers run on one thread and refuse more. This
//! bench never changes the list; it only reads it.

#[path = "../tests/it/support/solver_positions.rs"]
mod positions;

use game_search::pns::Pns;
use game_search::solver::{Solver, Verdict};
use senat_lab::games::senat::Senat;
use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::time::Duration;

fn main() -> ExitCode {
    let filters: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let engine = std::env::var("SOLVE_ENGINE").unwrap_or_else(|_| "ab".to_string());
    if !["ab", "pns", "pns-id"].contains(&engine.as_str()) {
        eprintln!("solve bench: SOLVE_ENGINE={engine}: expected ab, pns or pns-id");
        return ExitCode::FAILURE;
    }
    let repeat: usize = std::env::var("SOLVE_REPEAT").ok().and_then(|r| r.parse().ok()).unwrap_or(3).max(1);
    let threads = match std::env::var("SOLVE_THREADS") {
        Err(_) => NonZeroUsize::MIN,
        Ok(t) => match t.parse::<NonZeroUsize>() {
            Ok(n) => n,
            Err(_) => {
                eprintln!("solve bench: SOLVE_THREADS={t}: expected a thread count, 1 or more");
                return ExitCode::FAILURE;
            }
        },
    };
    if threads.get() > 1 && engine != "ab" {
        eprintln!("solve bench: SOLVE_THREADS={threads} is for SOLVE_ENGINE=ab (df-pn runs on one thread)");
        return ExitCode::FAILURE;
    }
    println!("engine {engine}  threads {threads}  repeat {repeat}");
    let entries = match positions::entries() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("solve bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut bad = false;
    for e in entries.iter().filter(|e| filters.is_empty() || filters.iter().any(|f| e.name.contains(f.as_str()))) {
        let mut times: Vec<Duration> = Vec::new();
        let mut nodes = 0;
        let mut verdict = None;
        for _ in 0..repeat {
            let sol = match engine.as_str() {
                "pns" | "pns-id" => {
                    let mut p = Pns::<Senat>::with_table_mb(256);
                    p.deepen = engine == "pns-id";
                    p.solve(&e.state, e.max_depth)
                }
                _ => {
                    let mut s = Solver::<Senat>::with_table_mb(256);
                    s.set_threads(threads);
                    s.solve(&e.state, e.max_depth)
                }
            };
            times.push(sol.elapsed);
            nodes = sol.nodes;
            verdict = Some(sol.verdict);
        }
        times.sort();
        let secs = |d: Duration| d.as_secs_f64();
        let med = times[times.len() / 2];
        // Df-pn at the horizon may prove a longer win than the shortest.
        let ok = match (verdict, e.expected) {
            (Some(Verdict::Win(p)), Verdict::Win(a)) | (Some(Verdict::Loss(p)), Verdict::Loss(a))
                if engine == "pns" =>
            {
                a <= p && p <= e.max_depth
            }
            (v, x) => v == Some(x),
        };
        bad |= !ok;
        println!(
            "{:<16} depth {:>2}  {:<10} min {:>8.3}s  median {:>8.3}s  max {:>8.3}s  nodes {:>11}  nodes/s {:>10.0}{}",
            e.name,
            e.max_depth,
            format!("{:?}", verdict.unwrap_or(e.expected)),
            secs(times[0]),
            secs(med),
            secs(times[times.len() - 1]),
            nodes,
            nodes as f64 / secs(med).max(1e-9),
            if ok { String::new() } else { format!("  EXPECTED {:?}", e.expected) }
        );
    }
    if bad { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
