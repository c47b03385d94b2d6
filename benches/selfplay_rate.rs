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
//! second, so that machines compare. Each measure is taken several times,
//! interleaved, and the best is kept; rates are given both by wall time and
//! by CPU time (the process's, all its threads, or the child's: Linux
//! `getrusage`), the fairer figure on a machine shared with other work.
//!
//! `SELFPLAY_RATE_BINS=old=/path/to/senat,new=target/release/senat` also
//! times those binaries as processes in the same run (`senat selfplay
//! --threads 1 --out FILE` for the rate with the file, `senat bench
//! --threads 1` for the rate without), to compare versions side by side.
//! `SELFPLAY_RATE_GAMES` sets the games per measure (default 40000),
//! `SELFPLAY_RATE_RUNS` the runs (default 5); `-- --quick` uses 10000
//! games and 2 runs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use senat_lab::policy::PolicySpec;
use senat_lab::selfplay::{self, Batch, Existing, Matchup, Outputs, Shard};

#[path = "support/cozy.rs"]
mod cozy;
use cozy::{KIWIPETE, cozy_perft};

const KIWIPETE_5: u64 = 193_690_690;

/// User plus system CPU time of this process (`RUSAGE_SELF`, all threads)
/// or of its waited-for children (`RUSAGE_CHILDREN`).
#[cfg(target_os = "linux")]
fn cpu(children: bool) -> Duration {
    use std::ffi::{c_int, c_long};
    unsafe extern "C" {
        fn getrusage(who: c_int, usage: *mut c_long) -> c_int;
    }
    // struct rusage: two timevals (user, system), then 14 longs.
    let mut r: [c_long; 18] = [0; 18];
    // SAFETY: `r` is at least as large as a `struct rusage` and writable;
    // `getrusage` only writes it.
    let rc = unsafe { getrusage(if children { -1 } else { 0 }, r.as_mut_ptr()) };
    assert_eq!(rc, 0, "getrusage");
    let tv = |s: c_long, us: c_long| Duration::new(s as u64, us as u32 * 1000);
    tv(r[0], r[1]) + tv(r[2], r[3])
}

#[cfg(not(target_os = "linux"))]
fn cpu(_children: bool) -> Duration {
    Duration::ZERO
}

/// A rate measured both ways: per wall second and per CPU second.
#[derive(Clone, Copy, Default)]
struct Rate {
    wall: f64,
    cpu: f64,
}

/// Times `f`, which does `work` units (returned), in this process.
fn timed(children: bool, f: impl FnOnce() -> f64) -> Rate {
    let (c0, t0) = (cpu(children), Instant::now());
    let work = f();
    let (wall, c) = (t0.elapsed().as_secs_f64(), (cpu(children) - c0).as_secs_f64());
    Rate { wall: work / wall, cpu: if c > 0.0 { work / c } else { f64::NAN } }
}

/// Cozy-chess Kiwipete-5 bulk nodes per second.
fn cozy_rate() -> Rate {
    let board: cozy_chess::Board = KIWIPETE.parse().expect("Kiwipete parses");
    timed(false, || {
        let n = cozy_perft(std::hint::black_box(&board), 5);
        assert_eq!(n, KIWIPETE_5);
        n as f64
    })
}

fn batch(games: u64) -> Batch {
    let random = PolicySpec::parse("random").expect("random is a policy");
    let matchup = Matchup { red: random.clone(), blue: random.clone(), draft_red: random.clone(), draft_blue: random };
    Batch {
        seed: 1,
        games,
        shard: Shard::ALL,
        matchup,
        opening: Vec::new(),
        book_plies: 0,
        variant: senat_rules::Variant::RULES,
    }
}

/// Games per second without output.
fn simulate_rate(b: &Batch) -> Rate {
    timed(false, || selfplay::simulate(b, 1).expect("simulate").0.games() as f64)
}

/// Games per second with the games file written (and committed) as
/// `senat selfplay --out FILE --summary ''` writes it.
fn run_rate(b: &Batch, file: &Path) -> Rate {
    let out = Outputs { games: file.to_path_buf(), moves: None, summary: None, existing: Existing::Overwrite };
    timed(false, || selfplay::run(b, &out, 1, &|_| {}).expect("selfplay run").played as f64)
}

/// Games per second of `senat selfplay` as a process (wall time).
fn bin_run_rate(bin: &str, games: u64, file: &Path) -> Rate {
    timed(true, || {
        let status = Command::new(bin)
            .args(["selfplay", "--games", &games.to_string(), "--seed", "1", "--red", "random", "--blue", "random"])
            .args(["--threads", "1", "--summary", "", "--force", "--quiet", "--out"])
            .arg(file)
            .status()
            .expect("run the binary");
        assert!(status.success(), "{bin} selfplay failed");
        games as f64
    })
}

/// Games per second of `senat bench --threads 1` for random: by wall time
/// as it reports, by CPU time of the whole process.
fn bin_bench_rate(bin: &str, games: u64) -> Rate {
    let mut wall = 0.0;
    let mut r = timed(true, || {
        let out = Command::new(bin)
            .args(["bench", "--games", &games.to_string(), "--policies", "random", "--threads", "1"])
            .output()
            .expect("run the binary");
        assert!(out.status.success(), "{bin} bench failed");
        let text = String::from_utf8_lossy(&out.stdout);
        let row = text.lines().find(|l| l.starts_with("random")).expect("a random row");
        wall = row.split_whitespace().nth(4).and_then(|r| r.parse().ok()).expect("a games/s column");
        games as f64
    });
    r.wall = wall;
    r
}

fn best(xs: &[Rate]) -> Rate {
    xs.iter().fold(Rate::default(), |a, r| Rate { wall: a.wall.max(r.wall), cpu: a.cpu.max(r.cpu) })
}

/// The number in environment variable `name`, or `default`.
fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let games = env_or("SELFPLAY_RATE_GAMES", if quick { 10_000 } else { 40_000 });
    let runs = env_or("SELFPLAY_RATE_RUNS", if quick { 2 } else { 5 }) as usize;
    let bins: Vec<(String, String)> = std::env::var("SELFPLAY_RATE_BINS")
        .unwrap_or_default()
        .split(',')
        .filter_map(|item| item.split_once('=').map(|(n, p)| (n.to_string(), p.to_string())))
        .collect();
    let file: PathBuf = std::env::temp_dir().join(format!("selfplay-rate-{}.csv", std::process::id()));
    let b = batch(games);

    let (mut cozy, mut sim, mut written) = (Vec::new(), Vec::new(), Vec::new());
    let mut by_bin: Vec<(Vec<Rate>, Vec<Rate>)> = vec![(Vec::new(), Vec::new()); bins.len()];
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

    let c = best(&cozy);
    let (wall_m, cpu_m) = (c.wall / 1e6, c.cpu / 1e6);
    println!("selfplay rate: random vs random, 1 thread, {games} games, best of {runs}");
    println!("cozy-chess Kiwipete-5 bulk: {wall_m:.1} M nodes/s (wall), {cpu_m:.1} M nodes/CPU-s");
    println!("{:<30} {:>9} {:>8} {:>11} {:>8}", "measure", "games/s", "per M", "games/CPU-s", "per M");
    let line = |name: &str, r: Rate| {
        println!("{name:<30} {:>9.0} {:>8.1} {:>11.0} {:>8.1}", r.wall, r.wall / wall_m, r.cpu, r.cpu / cpu_m)
    };
    line("no output (simulate)", best(&sim));
    line("games file (run)", best(&written));
    for ((name, _), (s, w)) in bins.iter().zip(&by_bin) {
        line(&format!("{name}: no output (bench)"), best(s));
        line(&format!("{name}: games file (selfplay)"), best(w));
    }
}
