//! Sénat perft against two chess move generators, in one process and one thread.
//!
//! * cozy-chess, bulk counting at the last ply, on Kiwipete;
//! * shakmaty, copy-make playing every leaf, on Kiwipete;
//! * Sénat `perft` (bulk) and `perft_full` (copy-make, every leaf played) on
//!   the sample position, at depths chosen to give comparable node counts.
//!
//! Each line is timed several times; the table shows the median, minimum
//! and maximum wall time, and the median time the thread spent on a CPU
//! (Linux `CLOCK_THREAD_CPUTIME_ID`), the fairer figure on a machine shared
//! with other work. Run with `cargo bench --bench peer_perft`; add `-- --quick`
//! (or set `PEER_QUICK=1`) for smaller depths and fewer runs. The Sénat
//! depths can be forced with `SENAT_BULK_DEPTH` and `SENAT_FULL_DEPTH`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use senat_rules::Position;

#[path = "support/cozy.rs"]
mod cozy;
use cozy::{KIWIPETE, cozy_perft};

/// Known Kiwipete leaf counts, index = depth.
const KIWIPETE_NODES: [u64; 6] = [1, 48, 2_039, 97_862, 4_085_603, 193_690_690];

// ---- shakmaty: copy-make, every leaf played ------------------------------------

fn shakmaty_perft_full(pos: &shakmaty::Chess, depth: u32) -> u64 {
    use shakmaty::Position as _;
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += if depth == 1 {
            black_box(&child);
            1
        } else {
            shakmaty_perft_full(&child, depth - 1)
        };
    }
    nodes
}

// ---- the Sénat position -----------------------------------------------------------

/// A position after a draft of uniformly random legal moves from `seed`.
fn random_draft(seed: u64) -> Position {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut p = Position::start();
    while !p.is_play() {
        let moves = p.legal_moves();
        assert!(!moves.is_empty(), "the draft always has a move");
        p.play_unchecked(moves[rng.random_range(0..moves.len())]);
    }
    p
}

/// The sample position of the rules, or, while `senat_rules::sample::START` does
/// not parse (it is still a placeholder), a seeded random draft.
fn sample_position() -> (Position, String) {
    match senat_rules::sample::START.parse::<Position>() {
        Ok(p) => (p, "sample".to_string()),
        Err(_) => {
            let seed = (1..).find(|&s| random_draft(s).count_moves() > 0).expect("some draft has moves");
            (random_draft(seed), format!("draft(seed {seed})"))
        }
    }
}

// ---- timing and the table --------------------------------------------------------------

struct Row {
    engine: &'static str,
    position: String,
    depth: u32,
    nodes: u64,
    times: Vec<Duration>,
    /// Thread CPU time of each run, where the platform tells it.
    cpu: Vec<Option<Duration>>,
}

impl Row {
    fn sorted(&self) -> Vec<Duration> {
        let mut t = self.times.clone();
        t.sort();
        t
    }
    fn median(&self) -> Duration {
        let t = self.sorted();
        t[t.len() / 2]
    }
    fn nps(&self, t: Duration) -> f64 {
        self.nodes as f64 / t.as_secs_f64()
    }
    fn median_nps(&self) -> f64 {
        self.nps(self.median())
    }
    fn median_cpu(&self) -> Option<Duration> {
        let mut t = self.cpu.iter().copied().collect::<Option<Vec<_>>>()?;
        t.sort();
        Some(t[t.len() / 2])
    }
}

/// CPU time this thread has run (Linux `CLOCK_THREAD_CPUTIME_ID`).
#[cfg(target_os = "linux")]
fn thread_cpu() -> Option<Duration> {
    use std::ffi::{c_int, c_long};
    #[repr(C)]
    struct Timespec {
        tv_sec: c_long,
        tv_nsec: c_long,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: c_int, ts: *mut Timespec) -> c_int;
    }
    const CLOCK_THREAD_CPUTIME_ID: c_int = 3;
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the C library's
    // `clock_gettime` only writes it.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

/// CPU time this thread has run: not measured off Linux.
#[cfg(not(target_os = "linux"))]
fn thread_cpu() -> Option<Duration> {
    None
}

/// Times `f` `runs` times (after one untimed warm-up unless `warm`), checking
/// that every run returns `nodes`.
fn measure(
    engine: &'static str,
    position: &str,
    depth: u32,
    nodes: u64,
    runs: usize,
    warm: bool,
    mut f: impl FnMut() -> u64,
) -> Row {
    if !warm {
        assert_eq!(f(), nodes, "{engine} {position} depth {depth}: wrong node count");
    }
    let (times, cpu) = (0..runs)
        .map(|_| {
            let c = thread_cpu();
            let t = Instant::now();
            let n = f();
            let e = t.elapsed();
            let c = thread_cpu().zip(c).map(|(b, a)| b.saturating_sub(a));
            assert_eq!(n, nodes, "{engine} {position} depth {depth}: wrong node count");
            (e, c)
        })
        .unzip();
    let row = Row { engine, position: position.to_string(), depth, nodes, times, cpu };
    eprintln!(
        "  {:<17} {:<16} depth {} {:>13} nodes  median {:>9.3} s  {:>7.2} Mnps",
        row.engine,
        row.position,
        row.depth,
        row.nodes,
        row.median().as_secs_f64(),
        row.median_nps() / 1e6
    );
    row
}

fn mnps(x: f64) -> String {
    format!("{:.2}", x / 1e6)
}

fn print_table(rows: &[Row]) {
    let head = [
        "engine",
        "position",
        "depth",
        "nodes",
        "median s",
        "min s",
        "max s",
        "Mnps median",
        "Mnps min",
        "Mnps max",
        "cpu s median",
        "Mnps cpu",
    ];
    let body: Vec<[String; 12]> = rows
        .iter()
        .map(|r| {
            let t = r.sorted();
            let (min, max) = (t[0], t[t.len() - 1]);
            let cpu = r.median_cpu();
            [
                r.engine.to_string(),
                r.position.clone(),
                r.depth.to_string(),
                r.nodes.to_string(),
                format!("{:.4}", r.median().as_secs_f64()),
                format!("{:.4}", min.as_secs_f64()),
                format!("{:.4}", max.as_secs_f64()),
                mnps(r.median_nps()),
                mnps(r.nps(max)),
                mnps(r.nps(min)),
                cpu.map_or("n/a".into(), |c| format!("{:.4}", c.as_secs_f64())),
                cpu.map_or("n/a".into(), |c| mnps(r.nps(c))),
            ]
        })
        .collect();
    let width: Vec<usize> =
        (0..head.len()).map(|i| body.iter().map(|b| b[i].chars().count()).fold(head[i].len(), usize::max)).collect();
    let line = |cells: Vec<&str>| {
        let mut s = String::from("|");
        for (i, c) in cells.into_iter().enumerate() {
            let pad = " ".repeat(width[i] - c.chars().count());
            if i < 2 {
                s += &format!(" {c}{pad} |");
            } else {
                s += &format!(" {pad}{c} |");
            }
        }
        s
    };
    println!();
    println!("{}", line(head.to_vec()));
    let rule: Vec<String> = width.iter().map(|&w| "-".repeat(w)).collect();
    println!("{}", line(rule.iter().map(String::as_str).collect()).replace(' ', "-"));
    for b in &body {
        println!("{}", line(b.iter().map(String::as_str).collect()));
    }
}

/// The deepest Sénat depth whose bulk leaf count stays within `max` nodes,
/// judged by growing the depth while the next count, predicted from the
/// last branching factor, fits. Returns the depth and its count.
fn choose_depth(p: &Position, max: u64) -> (u32, u64) {
    let (mut depth, mut nodes, mut prev) = (1, senat_rules::perft::perft(p, 1), 1u64);
    loop {
        let branching = nodes as f64 / prev.max(1) as f64;
        if depth >= 12 || nodes == 0 || nodes as f64 * branching.max(1.0) > max as f64 {
            return (depth, nodes);
        }
        prev = nodes;
        depth += 1;
        nodes = senat_rules::perft::perft(p, depth);
    }
}

fn env_depth(name: &str) -> Option<u32> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick")
        || std::env::var("PEER_QUICK").is_ok_and(|v| !v.is_empty() && v != "0");
    let runs = if quick { 3 } else { 5 };
    // Depths: chess fixed; Sénat bounded by node budgets.
    let (cozy_depth, shak_depth) = if quick { (4, 3) } else { (5, 5) };
    let (bulk_max, full_max) = if quick { (5_000_000, 1_000_000) } else { (1_000_000_000, 100_000_000) };

    println!(
        "peer perft ({} mode, {runs} timed runs per line after one warm-up, one thread)",
        if quick { "quick" } else { "full" }
    );
    let mut rows = Vec::new();

    // (a) cozy-chess bulk on Kiwipete.
    let cozy: cozy_chess::Board = cozy_chess::Board::from_fen(KIWIPETE, false).expect("valid Kiwipete FEN");
    for d in 1..=3 {
        assert_eq!(cozy_perft(&cozy, d), KIWIPETE_NODES[d as usize], "cozy-chess Kiwipete depth {d}");
    }
    let nodes = KIWIPETE_NODES[cozy_depth as usize];
    rows.push(measure("cozy-chess bulk", "Kiwipete", cozy_depth, nodes, runs, false, || {
        cozy_perft(black_box(&cozy), cozy_depth)
    }));

    // (b) shakmaty copy-make, every leaf played, on Kiwipete.
    let shak: shakmaty::Chess = KIWIPETE
        .parse::<shakmaty::fen::Fen>()
        .expect("valid Kiwipete FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("legal Kiwipete position");
    for d in 1..=3 {
        assert_eq!(shakmaty_perft_full(&shak, d), KIWIPETE_NODES[d as usize], "shakmaty Kiwipete depth {d}");
    }
    let nodes = KIWIPETE_NODES[shak_depth as usize];
    rows.push(measure("shakmaty full", "Kiwipete", shak_depth, nodes, runs, false, || {
        shakmaty_perft_full(black_box(&shak), shak_depth)
    }));

    // (c) and (d): Sénat on the sample position.
    let (p, name) = sample_position();
    println!("Sénat position ({name}): {}", p.to_spn());
    let (bulk_depth, bulk_nodes) = match env_depth("SENAT_BULK_DEPTH") {
        Some(d) => (d, senat_rules::perft::perft(&p, d)),
        // The probe's last count doubles as the warm-up.
        None => choose_depth(&p, bulk_max),
    };
    rows.push(measure("senat bulk", &name, bulk_depth, bulk_nodes, runs, true, || {
        senat_rules::perft::perft(black_box(&p), bulk_depth)
    }));
    let full_depth = env_depth("SENAT_FULL_DEPTH").unwrap_or_else(|| choose_depth(&p, full_max).0);
    let full_nodes = senat_rules::perft::perft(&p, full_depth);
    rows.push(measure("senat full", &name, full_depth, full_nodes, runs, false, || {
        senat_rules::perft::perft_full(black_box(&p), full_depth)
    }));

    print_table(&rows);
    let ratio = |a: usize, b: usize| rows[a].median_nps() / rows[b].median_nps();
    let cpu_ratio = |a: usize, b: usize| {
        let nps = |r: &Row| r.median_cpu().map(|c| r.nps(c));
        nps(&rows[a]).zip(nps(&rows[b])).map_or("n/a".into(), |(x, y)| format!("{:.3}", x / y))
    };
    println!();
    println!("Sénat-bulk / cozy-chess-bulk (median nodes/s): wall {:.3}, cpu {}", ratio(2, 0), cpu_ratio(2, 0));
    println!("Sénat-full / shakmaty-full   (median nodes/s): wall {:.3}, cpu {}", ratio(3, 1), cpu_ratio(3, 1));
}
