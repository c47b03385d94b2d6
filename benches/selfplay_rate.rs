//! Self-play speed against a named peer, in one process and one thread:
//!
//! * cozy-chess Kiwipete depth 5, bulk-counted at the last ply (as
//!   `benches/peer_perft.rs` does): nodes per second, the yardstick;
//! * random-vs-random complete games (draft and play) on one thread, with
//!   nothing written (`selfplay::simulate`, as `senat bench` plays them);
//! * the same games with the games file written, through the code path of
//!   `senat selfplay --out` (`selfplay::run`, one thread, to a temporary
//!   file that is removed afterwards).
//!
//! The figure of merit is games per second per million cozy-chess nodes per
//! second, so that machines (and a loaded machine) compare. Each measure is
//! taken `RUNS` times, interleaved, and the best (shortest) time is kept.
//!
//! `SELFPLAY_RATE_BINS=old=/path/to/senat,new=target/release/senat` also
//! times those binaries as processes in the same run (`senat selfplay
//! --threads 1 --out FILE` for the rate with the file, `senat bench
//! --threads 1` for the rate without), to compare versions side by side.
//! `SELFPLAY_RATE_GAMES` sets the games per measure (default 40000);
//! `-- --quick` uses 10000 games and 2 runs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use senat_lab::policy::PolicySpec;
use senat_lab::selfplay::{self, Batch, Existing, Matchup, Outputs, Shard};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const KIWIPETE_5: u64 = 193_690_690;

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes = 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

/// Cozy-chess Kiwipete-5 bulk nodes per second.
fn cozy_rate() -> f64 {
    let board: cozy_chess::Board = KIWIPETE.parse().expect("Kiwipete parses");
    let t = Instant::now();
    let n = cozy_perft(std::hint::black_box(&board), 5);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(n, KIWIPETE_5);
    n as f64 / secs
}

fn batch(games: u64) -> Batch {
    let random = PolicySpec::parse("random").expect("random is a policy");
    let matchup = Matchup { red: random.clone(), blue: random.clone(), draft_red: random.clone(), draft_blue: random };
    Batch { seed: 1, games, shard: Shard::ALL, matchup, opening: Vec::new() }
}

/// Games per second without output.
fn simulate_rate(b: &Batch) -> f64 {
    let t = Instant::now();
    let (s, _) = selfplay::simulate(b, 1).expect("simulate");
    s.games() as f64 / t.elapsed().as_secs_f64()
}

/// Games per second with the games file written (and committed) as
/// `senat selfplay --out FILE --summary ''` writes it.
fn run_rate(b: &Batch, file: &Path) -> f64 {
    let out = Outputs { games: file.to_path_buf(), moves: None, summary: None, existing: Existing::Overwrite };
    let t = Instant::now();
    let r = selfplay::run(b, &out, 1, &|_| {}).expect("selfplay run");
    let secs = t.elapsed().as_secs_f64();
    r.played as f64 / secs
}

/// Games per second of `senat selfplay` as a process (wall time).
fn bin_run_rate(bin: &str, games: u64, file: &Path) -> f64 {
    let t = Instant::now();
    let status = Command::new(bin)
        .args(["selfplay", "--games", &games.to_string(), "--seed", "1", "--red", "random", "--blue", "random"])
        .args(["--threads", "1", "--summary", "", "--force", "--quiet", "--out"])
        .arg(file)
        .status()
        .expect("run the binary");
    assert!(status.success(), "{bin} selfplay failed");
    games as f64 / t.elapsed().as_secs_f64()
}

/// Games per second that `senat bench --threads 1` reports for random.
fn bin_bench_rate(bin: &str, games: u64) -> f64 {
    let out = Command::new(bin)
        .args(["bench", "--games", &games.to_string(), "--policies", "random", "--threads", "1"])
        .output()
        .expect("run the binary");
    assert!(out.status.success(), "{bin} bench failed");
    let text = String::from_utf8_lossy(&out.stdout);
    let row = text.lines().find(|l| l.starts_with("random")).expect("a random row");
    row.split_whitespace().nth(4).and_then(|r| r.parse().ok()).expect("a games/s column")
}

fn best(xs: &[f64]) -> f64 {
    xs.iter().copied().fold(0.0, f64::max)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let games: u64 = std::env::var("SELFPLAY_RATE_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(if quick { 10_000 } else { 40_000 });
    let runs = if quick { 2 } else { 4 };
    let bins: Vec<(String, String)> = std::env::var("SELFPLAY_RATE_BINS")
        .unwrap_or_default()
        .split(',')
        .filter_map(|item| item.split_once('=').map(|(n, p)| (n.to_string(), p.to_string())))
        .collect();
    let file: PathBuf = std::env::temp_dir().join(format!("selfplay-rate-{}.csv", std::process::id()));
    let b = batch(games);

    let (mut cozy, mut sim, mut written) = (Vec::new(), Vec::new(), Vec::new());
    let mut by_bin: Vec<(Vec<f64>, Vec<f64>)> = vec![(Vec::new(), Vec::new()); bins.len()];
    for _ in 0..runs {
        cozy.push(cozy_rate());
        sim.push(simulate_rate(&b));
        written.push(run_rate(&b, &file));
        for ((_, bin), (s, w)) in bins.iter().zip(&mut by_bin) {
            s.push(bin_bench_rate(bin, games));
            w.push(bin_run_rate(bin, games, &file));
        }
    }
    let _ = std::fs::remove_file(&file);

    let mnodes = best(&cozy) / 1e6;
    println!("selfplay rate: random vs random, 1 thread, {games} games, best of {runs}");
    println!("cozy-chess Kiwipete-5 bulk: {mnodes:.1} M nodes/s");
    println!("{:<28} {:>10} {:>16}", "measure", "games/s", "per M cozy n/s");
    let line = |name: &str, rate: f64| println!("{name:<28} {rate:>10.0} {:>16.1}", rate / mnodes);
    line("no output (simulate)", best(&sim));
    line("games file (run)", best(&written));
    for ((name, _), (s, w)) in bins.iter().zip(&by_bin) {
        line(&format!("{name}: no output (bench)"), best(s));
        line(&format!("{name}: games file (selfplay)"), best(w));
    }
}
