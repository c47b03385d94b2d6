//! The search commands: `analyze` (alpha-beta or MCTS), `solve`,
//! `bench-search` and `bench-mcts` (`analyze` and `solve` for every game;
//! dominoes' `solve` is the lab's proof of a round): limits checked, searches run, results
//! printed. The searches live in `game_search`; this module never
//! searches by itself.

use crate::cli::common::{
    POS_HELP, Result, exploration_flag, input, memory_mb_flag, parse_position, play_record, prior_flag, read_record,
    sample_start, tt_mb_flag,
};
use crate::cli::game::GameArg;
use clap::Args;
use game_search::alphabeta::{Limits, Report, Searcher};
use game_search::mcts::{self, Mcts, bare_rollouts};
use game_search::pns::Pns;
use game_search::shape::{Level, Shape, Tally};
use game_search::solver::{Asked, Goal, Progress, Solution, Solver, Verdict};
use game_search::{WIN, WIN_BOUND};
use senat_lab::catalog::{analyze, solve};
use senat_lab::games::senat::{Senat, SenatEval, SenatRollout, SenatState};
use senat_lab::limits;
use senat_lab::proof_store::ProofStore;
use senat_lab::selfplay::output::{IfExists, OutFile};
use senat_lab::winprob::WinChance;
use senat_rules::{GameRecord, Move, Variant};
use std::io::Write;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Arguments of `senat analyze`.
#[derive(Args, Debug)]
pub(crate) struct AnalyzeArgs {
    #[command(flatten)]
    pub(crate) game: GameArg,
    /// The position (ignored with --history).
    #[arg(value_name = "POS", num_args = 0.., help = POS_HELP)]
    pub(crate) pos: Vec<String>,
    /// The search engine: `ab` (alpha-beta) or `mcts` (Monte Carlo tree search).
    #[arg(long, default_value = "ab")]
    pub(crate) engine: String,
    /// MCTS: playouts (default 10000 unless --time is given).
    #[arg(long, value_name = "N")]
    pub(crate) playouts: Option<u64>,
    /// Search threads: alpha-beta threads share the table (lazy SMP, every
    /// game); Sénat's MCTS threads grow one tree each (root parallelism) or
    /// one shared tree (`--parallel tree`). With 1 thread
    /// alpha-beta is deterministic; MCTS is deterministic for a seed and a
    /// thread count (without --time). Alpha-beta helper threads never search
    /// deeper than the main thread, so a depth-d line is a depth-d result.
    /// At most 4 per core (64 always accepted).
    #[arg(long, value_name = "T", default_value_t = 1)]
    pub(crate) threads: usize,
    /// MCTS: seed of the playouts.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// MCTS: UCT exploration constant (0 to 100).
    #[arg(long, value_name = "C", default_value_t = 1.0, value_parser = exploration_flag)]
    pub(crate) c: f64,
    /// MCTS: memory cap of the trees in megabytes (at most half the
    /// machine's memory, MemTotal of /proc/meminfo; 16384 if unreadable).
    #[arg(long, value_name = "M", default_value_t = 512, value_parser = memory_mb_flag)]
    pub(crate) memory_mb: usize,
    /// MCTS: rollout policy, `random`, `greedy` (scoring pushes first, no
    /// gifts) or `eval` (no rollout: the learned evaluation's value of the leaf).
    #[arg(long, default_value = "random", value_parser = parse_rollout)]
    pub(crate) rollout: SenatRollout,
    /// MCTS: PUCT with priors through a softmax of this temperature over the
    /// rollout's move priorities (with `--rollout eval`: the learned
    /// log-odds ×1000, so 1000 is a softmax of the log-odds). Default: UCT.
    #[arg(long, value_name = "TEMP", value_parser = prior_flag)]
    pub(crate) prior: Option<f64>,
    /// MCTS: `root` (one tree per thread, statistics summed at the root) or
    /// `tree` (one shared tree, virtual loss).
    #[arg(long, default_value = "root", value_parser = ["root", "tree"])]
    pub(crate) parallel: String,
    /// MCTS: proofs in the tree (`on`: proved wins, losses and draws are
    /// marked, backed up and played or avoided; root mode only).
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub(crate) solve: String,
    /// Deepest iteration in plies (1 to 120).
    #[arg(long, value_name = "N")]
    pub(crate) depth: Option<u32>,
    /// Time limit in seconds (above 0, at most 31536000: a year).
    #[arg(long, value_name = "S")]
    pub(crate) time: Option<f64>,
    /// Transposition table size in megabytes (0: none; at most half the
    /// machine's memory, MemTotal of /proc/meminfo; 16384 if unreadable).
    #[arg(long, value_name = "M", default_value_t = 64, value_parser = tt_mb_flag)]
    pub(crate) tt_mb: usize,
    /// A game record whose final position is searched, with its repetition history.
    #[arg(long, value_name = "FILE")]
    pub(crate) history: Option<PathBuf>,
    /// Also print the K best moves (1 to 256), best first, one `multipv`
    /// line each with its win probability for the side to move: alpha-beta
    /// searches every other root move to the depth reached, one ply less
    /// after it; MCTS ranks the root moves by visits. Without it, nothing
    /// more than `bestmove`, `score`, `win` and `pv` is printed.
    #[arg(long, value_name = "K")]
    pub(crate) multipv: Option<usize>,
}

/// Arguments of `senat solve`.
#[derive(Args, Debug)]
pub(crate) struct SolveArgs {
    #[command(flatten)]
    pub(crate) game: GameArg,
    /// The position (ignored with --history).
    #[arg(value_name = "POS", num_args = 0.., help = POS_HELP)]
    pub(crate) pos: Vec<String>,
    /// A game record whose final position is solved, with its repetition history.
    #[arg(long, value_name = "FILE")]
    pub(crate) history: Option<PathBuf>,
    /// The largest horizon in plies (1 to 120); required, but for a game
    /// whose rules bound its length (connect4: the cells left), where it
    /// is by default that bound (the game's end).
    #[arg(long, value_name = "N")]
    pub(crate) max_depth: Option<u32>,
    /// Stop after about S seconds (per move with --each-move); the
    /// verdict is then that of the completed horizons.
    #[arg(long, value_name = "S")]
    pub(crate) time: Option<f64>,
    /// Table size in megabytes (at most half the machine's memory,
    /// MemTotal of /proc/meminfo; 16384 if unreadable).
    #[arg(long, value_name = "M", default_value_t = 256, value_parser = tt_mb_flag)]
    pub(crate) tt_mb: usize,
    /// Solve each legal move in turn: one line per move with the verdict
    /// for the side to move if it plays it (horizon --max-depth, the move included).
    #[arg(long)]
    pub(crate) each_move: bool,
    /// The prover: `ab` (iterative-deepening alpha-beta), `pns` (df-pn at
    /// the horizon) or `pns-id` (df-pn at horizons 1, 2, ...).
    #[arg(long, value_name = "ENGINE", default_value = "ab")]
    pub(crate) engine: String,
    /// Only ask whether SIDE (`red` or `blue`) forces a win within
    /// --max-depth (all the time goes to it; the verdict is then a win, a
    /// loss or unknown, never a draw). Not with --store.
    #[arg(long, value_name = "SIDE")]
    pub(crate) prove: Option<String>,
    /// Cut lines where the game's lower bound on the
    /// plies to a result exceeds the plies left (Sénat: the dice a side is
    /// short of in its pile, and how soon repetition, closure or block can
    /// end the game); `off` only to measure what it saves, the verdicts are
    /// the same.
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub(crate) bounds: String,
    /// --engine ab: ask a question first of the game without repetition
    /// where every end by repetition falls on one side of it (Sénat: a
    /// side's win when the other holds 4 dice, a side's draw when it holds
    /// 4 itself), keeping the answers that carry over and asking the others
    /// again; `off` only to measure what it saves, the verdicts are the same.
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub(crate) relax: String,
    /// A proof store (Sénat, --engine ab): facts proved before answer
    /// without a search, new ones are added (the file is written atomically
    /// at the end; created if absent). A store of another variant or format
    /// is refused.
    #[arg(long, value_name = "FILE")]
    pub(crate) store: Option<PathBuf>,
    /// Threads of --engine ab (lazy SMP): helper threads ask the same
    /// questions at the same time and share the table, whose entries are
    /// proven facts only, so the verdict and its horizon are the same for
    /// every thread count (the line, the nodes and the time are not). The
    /// nodes are those of all threads. At most 4 per core (64 always
    /// accepted).
    #[arg(long, value_name = "T", default_value_t = 1)]
    pub(crate) threads: usize,
    /// With --engine ab: print on stderr each question answered at each
    /// horizon (which side is asked to force a win or at least a draw, the
    /// answer, the nodes and the time so far), for a long search.
    #[arg(long)]
    pub(crate) progress: bool,
    /// With --engine ab on one thread: after the verdict, print the shape
    /// of the tree (lines starting `shape`): per plies left, the nodes
    /// where the asked side chooses (OR) and where the other side does
    /// (AND), cut by a move or with every move tried, the moves tried per
    /// node and how often the first one decided; all questions and all
    /// horizons of the deepening together (one question with --prove).
    /// Not with --each-move or --store.
    #[arg(long)]
    pub(crate) shape: bool,
}

/// Arguments of `senat bench-mcts`.
#[derive(Args, Debug)]
pub(crate) struct BenchMctsArgs {
    /// The position.
    #[arg(value_name = "POS", num_args = 0.., help = POS_HELP)]
    pub(crate) pos: Vec<String>,
    /// Playouts per search (and bare rollouts per measurement).
    #[arg(long, default_value_t = 20_000)]
    pub(crate) playouts: u64,
    /// Threads of the parallel measurement (default: all cores).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Repetitions of each measurement.
    #[arg(long, default_value_t = 3)]
    pub(crate) repeat: usize,
    /// Seed of the playouts.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Rollout policy, `random` or `greedy`.
    #[arg(long, default_value = "random", value_parser = parse_rollout)]
    pub(crate) rollout: SenatRollout,
    /// The game (`--game`): Sénat only so far.
    #[command(flatten)]
    pub(crate) senat_only: crate::cli::common::SenatOnly,
}

/// Arguments of `senat bench-search`.
#[derive(Args, Debug)]
pub(crate) struct BenchSearchArgs {
    /// Search depth in plies (1 to 120).
    #[arg(long, default_value_t = 5)]
    pub(crate) depth: u32,
    /// Transposition table size in megabytes (at most half the machine's memory).
    #[arg(long, default_value_t = 64, value_parser = tt_mb_flag)]
    pub(crate) tt_mb: usize,
    /// Threads of the second search (1: only the single-threaded one).
    #[arg(long, value_name = "T", default_value_t = 1)]
    pub(crate) threads: usize,
    /// Turn the history heuristic off (to measure what it gains).
    #[arg(long)]
    pub(crate) no_history: bool,
    /// The game (`--game`): Sénat only so far.
    #[command(flatten)]
    pub(crate) senat_only: crate::cli::common::SenatOnly,
}

/// `senat analyze`: alpha-beta ([`cmd_analyze`]) or MCTS ([`cmd_analyze_mcts`]),
/// with the flags of the engine checked.
pub(crate) fn analyze(a: AnalyzeArgs, out: &mut impl Write) -> Result<()> {
    if a.game.other()? {
        return lab_analyze(&a, out);
    }
    let AnalyzeArgs {
        pos,
        engine,
        playouts,
        threads,
        seed,
        c,
        memory_mb,
        rollout,
        prior,
        parallel,
        solve,
        depth,
        time,
        tt_mb,
        history,
        game,
        multipv,
    } = a;
    let multipv = analyze::checked_multipv(multipv).or_else(input)?;
    let Some(v) = game.senat_variant(out)? else { return Ok(()) };
    let game = search_game(&pos, history.as_deref(), v)?;
    match engine.as_str() {
        "mcts" => {
            let time = seconds(time)?;
            if depth.is_some() {
                return input("--depth is for --engine ab; MCTS takes --playouts or --time");
            }
            let threads = limits::threads("--threads", threads).or_else(input)?;
            let playouts = match (playouts, time) {
                (Some(n), _) => limits::playouts("--playouts", n).or_else(input)?,
                (None, Some(_)) => u64::MAX,
                (None, None) => 10_000,
            };
            let config = mcts::Config {
                playouts,
                time,
                selection: match prior {
                    Some(temp) => mcts::Selection::Puct { c, temp },
                    None => mcts::Selection::Uct { c },
                },
                memory: limits::mb_to_bytes(memory_mb).unwrap_or(usize::MAX),
                threads,
                parallel: if parallel == "tree" { mcts::Parallel::Tree } else { mcts::Parallel::Root },
                solver: solve == "on",
            };
            cmd_analyze_mcts(&SenatState::from_game(&game), config, rollout, seed, multipv, out)
        }
        _ => cmd_analyze(&game, v, &engine, depth, time, tt_mb, search_threads(threads)?, multipv, out),
    }
}

/// `senat bench-mcts`: the position and the counts checked, then [`cmd_bench_mcts`].
pub(crate) fn bench_mcts(a: BenchMctsArgs, out: &mut impl Write) -> Result<()> {
    a.senat_only
        .check("bench-mcts", "measures Sénat's MCTS only so far (`analyze --game G --engine mcts` prints its speed)")?;
    let BenchMctsArgs { pos, playouts, threads, repeat, seed, rollout, senat_only: _ } = a;
    let p = if pos.is_empty() { sample_start()? } else { parse_position(&pos.join(" "), Variant::RULES)? };
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 || playouts == 0 || repeat == 0 {
        return input("--threads, --playouts and --repeat must be ≥ 1");
    }
    let threads = limits::threads("--threads", threads).or_else(input)?;
    let playouts = limits::playouts("--playouts", playouts).or_else(input)?;
    cmd_bench_mcts(&SenatState::new(p), playouts, threads, repeat, seed, rollout, out)
}

/// `senat solve`.
impl SolveArgs {
    /// `--max-depth`, or the game's own horizon where it has one (`None`:
    /// the flag is required, refused as the parser refuses a missing flag).
    fn horizon(&self, own: Option<u32>) -> Result<u32> {
        match self.max_depth.or(own) {
            Some(d) => Ok(d),
            None => {
                input("the following required arguments were not provided: --max-depth <N> (see `senat solve --help`)")
            }
        }
    }
}

pub(crate) fn solve(a: SolveArgs, out: &mut impl Write) -> Result<()> {
    if a.game.other()? {
        return lab_solve(&a, out);
    }
    shape_allowed(&a)?;
    let threads = search_threads(a.threads)?;
    let Some(v) = a.game.senat_variant(out)? else { return Ok(()) };
    let root = search_root(&a.pos, a.history.as_deref(), v)?;
    let opts = SolveOptions {
        max_depth: a.horizon(None)?,
        time: a.time,
        tt_mb: a.tt_mb,
        each_move: a.each_move,
        engine: a.engine,
        prove: a.prove,
        bounds: a.bounds == "on",
        relax: a.relax == "on",
        store: a.store,
        variant: v,
        threads,
        progress: a.progress,
        shape: a.shape,
    };
    cmd_solve(&root, &opts, out)
}

/// `senat bench-search`.
pub(crate) fn bench_search(a: BenchSearchArgs, out: &mut impl Write) -> Result<()> {
    a.senat_only
        .check("bench-search", "measures Sénat's alpha-beta only so far (`analyze --game G` prints its speed)")?;
    cmd_bench_search(a.depth, a.tt_mb, search_threads(a.threads)?, a.no_history, out)
}

/// The state to search, in variant `v`: the final position of a record
/// (with its history), or a position with no history (`start` if none is
/// given, as in every other game).
pub(crate) fn search_root(pos: &[String], history: Option<&Path>, v: Variant) -> Result<SenatState> {
    Ok(SenatState::from_game(&search_game(pos, history, v)?))
}

/// The game searched: the position given, or with `--history` the record's
/// game (its repetition history with it).
fn search_game(pos: &[String], history: Option<&Path>, v: Variant) -> Result<GameRecord> {
    let Some(file) = history else {
        let text = if pos.is_empty() { "start".to_string() } else { pos.join(" ") };
        return Ok(GameRecord::new(parse_position(&text, v)?));
    };
    let (name, record) = read_record(file, v)?;
    play_record(&name, &record, |_, _, _| Ok(()))
}

pub(crate) fn line_text(pv: &[Move]) -> String {
    pv.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
}

/// A score for people: `win in N` / `loss in N` for forced results, else the number.
pub(crate) fn score_text(score: i32) -> String {
    if score > WIN_BOUND {
        format!("win in {}", WIN - score)
    } else if score < -WIN_BOUND {
        format!("loss in {}", WIN + score)
    } else {
        score.to_string()
    }
}

/// The `--threads` of a search: 1 to [`limits::max_threads`].
pub(crate) fn search_threads(threads: usize) -> Result<NonZeroUsize> {
    let t = limits::threads("--threads", threads).or_else(input)?;
    NonZeroUsize::new(t).map_or_else(|| input("--threads 0: expected 1 or more search threads"), Ok)
}

/// How `analyze` maps alpha-beta scores (see `senat_lab::winprob`).
const HAND_WIN: &str = "logistic of score / 1507, fitted to self-play results";

#[allow(clippy::too_many_arguments)] // The flags of `analyze --engine ab`, checked here one by one.
pub(crate) fn cmd_analyze(
    game: &GameRecord,
    v: Variant,
    engine: &str,
    depth: Option<u32>,
    time: Option<f64>,
    tt_mb: usize,
    threads: NonZeroUsize,
    multipv: Option<usize>,
    out: &mut impl Write,
) -> Result<()> {
    if engine != "ab" {
        return input(format_args!("--engine `{engine}`: unknown engine (accepted: ab, mcts)"));
    }
    let time = seconds(time)?;
    if depth.is_none() && time.is_none() {
        return input("give --depth N, --time S or both");
    }
    let depth = depth.map(|d| limits::depth("--depth", d, 1)).transpose().or_else(input)?;
    not_over(&SenatState::from_game(game))?;
    // The catalog's analysis (the Python package's too) of the game so far.
    let p = senat_lab::catalog::Position::of_senat_game(game.clone(), v);
    let engine = analyze::Engine::AlphaBeta { depth: Some(depth.unwrap_or(64)), tt_mb, threads };
    let analyze::Analysis::AlphaBeta { report: r, seat: me, win, lines, .. } =
        analyze::analyze(&p, &engine, time, multipv).or_else(input)?
    else {
        unreachable!("an alpha-beta engine gives an alpha-beta analysis of a game not over")
    };
    for it in &r.iterations {
        writeln!(
            out,
            "depth {:>2}  score {:>10}  nodes {:>11}  time {:>8.3}s  pv {}",
            it.depth,
            score_text(it.score),
            it.nodes,
            it.elapsed.as_secs_f64(),
            it.pv.join(" ")
        )?;
    }
    let best = r.best.as_deref().unwrap_or("(none)");
    writeln!(out, "bestmove {best}")?;
    writeln!(out, "score {} ({me} to move)", score_text(r.score))?;
    writeln!(out, "win {win} ({me} to move; {})", HAND_WIN)?;
    writeln!(out, "pv {}", r.pv.join(" "))?;
    for (i, (m, score, win, pv)) in lines.iter().enumerate() {
        writeln!(out, "multipv {}  move {m}  win {win}  score {}  pv {}", i + 1, score_text(*score), pv.join(" "))?;
    }
    writeln!(
        out,
        "depth {}  nodes {}  time {:.3}s  nodes/s {:.0}  threads {}",
        r.depth,
        r.nodes,
        r.elapsed.as_secs_f64(),
        r.nps(),
        r.threads
    )?;
    Ok(())
}

/// A `--time` in seconds, checked ([`limits::seconds`]).
pub(crate) fn seconds(time: Option<f64>) -> Result<Option<Duration>> {
    time.map(|t| limits::seconds("--time", t)).transpose().or_else(input)
}

/// Refuses a root where the game is over (nothing to search).
fn not_over(root: &SenatState) -> Result<()> {
    match root.outcome() {
        Some(o) => input(format_args!("the game is over ({o})")),
        None => Ok(()),
    }
}

/// `random` or `greedy`, for --rollout.
pub(crate) fn parse_rollout(text: &str) -> std::result::Result<SenatRollout, String> {
    SenatRollout::from_name(text).ok_or_else(|| format!("`{text}`: expected random, greedy or eval"))
}

pub(crate) fn cmd_analyze_mcts(
    root: &SenatState,
    config: mcts::Config,
    rollout: SenatRollout,
    seed: u64,
    multipv: Option<usize>,
    out: &mut impl Write,
) -> Result<()> {
    not_over(root)?;
    let mut searcher = Mcts::<Senat, SenatRollout>::new(config, rollout);
    let r = searcher.search(root, seed);
    let mut ranked = r.moves.clone();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)));
    writeln!(out, "{:<14} {:>10} {:>8}", "move", "visits", "score")?;
    for (m, visits, mean) in ranked.iter().take(10) {
        writeln!(out, "{:<14} {visits:>10} {mean:>8.4}", m.to_string())?;
    }
    let best = r.best.map_or("(none)".to_string(), |m| m.to_string());
    writeln!(out, "bestmove {best}")?;
    writeln!(out, "score {:.4} (mean result for {} to move, 1 = win)", r.value(), root.position().side_to_move())?;
    writeln!(
        out,
        "win {} ({} to move; the mean result, a draw counting half)",
        WinChance::from_mean(r.value(), r.proof),
        root.position().side_to_move()
    )?;
    writeln!(out, "pv {}", line_text(&r.pv))?;
    if let Some(k) = multipv {
        let mut by_visits: Vec<usize> = (0..r.moves.len()).collect();
        by_visits.sort_by(|&a, &b| r.moves[b].1.cmp(&r.moves[a].1).then(r.moves[b].2.total_cmp(&r.moves[a].2)));
        for (i, &j) in by_visits.iter().take(k).enumerate() {
            let (m, visits, mean) = r.moves[j];
            let win = WinChance::from_mean(mean, r.proofs.get(j).copied().flatten());
            let pv = if Some(m) == r.best { line_text(&r.pv) } else { m.to_string() };
            writeln!(out, "multipv {}  move {m}  win {win}  visits {visits}  pv {pv}", i + 1)?;
        }
    }
    if let Some(p) = r.proof {
        writeln!(out, "proof {p:?} (plies, for {} to move)", root.position().side_to_move())?;
    }
    writeln!(
        out,
        "playouts {}  threads {}  nodes {}  time {:.3}s  playouts/s {:.0}",
        r.playouts,
        config.threads,
        r.nodes,
        r.elapsed.as_secs_f64(),
        r.playouts_per_s()
    )?;
    Ok(())
}

/// Min, median and max of some rates.
pub(crate) fn spread(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[0], v[v.len() / 2], v[v.len() - 1])
}

pub(crate) fn cmd_bench_mcts(
    root: &SenatState,
    playouts: u64,
    threads: usize,
    repeat: usize,
    seed: u64,
    rollout: SenatRollout,
    out: &mut impl Write,
) -> Result<()> {
    not_over(root)?;
    let config = |threads| mcts::Config { playouts, threads, ..mcts::Config::default() };
    let (mut bare, mut one, mut many) = (Vec::new(), Vec::new(), Vec::new());
    let (mut tree_share, mut in_tree_len, mut bare_len) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..repeat as u64 {
        let (_, t) = bare_rollouts::<Senat, _>(root, &mut rollout.clone(), playouts, seed + i);
        bare.push(playouts as f64 / t.as_secs_f64().max(1e-9));
        let r = Mcts::<Senat, _>::new(config(1), rollout).search(root, seed + i);
        one.push(r.playouts_per_s());
        tree_share.push(1.0 - r.rollout_time.as_secs_f64() / r.elapsed.as_secs_f64().max(1e-9));
        in_tree_len.push(r.rollout_time.as_secs_f64() / r.playouts.max(1) as f64);
        bare_len.push(t.as_secs_f64() / playouts as f64);
        many.push(Mcts::<Senat, _>::new(config(threads), rollout).search(root, seed + i).playouts_per_s());
    }
    // Ratios per repetition: the runs of one repetition are back to back,
    // so they share the machine's state (frequency, other load).
    let overhead: Vec<f64> = one.iter().zip(&bare).map(|(o, b)| o / b).collect();
    let scaling: Vec<f64> = many.iter().zip(&one).map(|(m, o)| m / o).collect();
    let (overhead, scaling) = (spread(overhead), spread(scaling));
    let (bare, one, many) = (spread(bare), spread(one), spread(many));
    writeln!(
        out,
        "{playouts} playouts per measurement, {repeat} repetitions, {} rollouts (min / median / max playouts/s)",
        // The names this line has always printed (the variants' former names).
        match rollout {
            SenatRollout::Random => "Random",
            SenatRollout::GreedyRollout => "Greedy",
            SenatRollout::Eval(_) => "Eval",
        }
    )?;
    writeln!(out, "bare rollouts, 1 thread   {:>9.0} {:>9.0} {:>9.0}", bare.0, bare.1, bare.2)?;
    writeln!(out, "MCTS, 1 thread            {:>9.0} {:>9.0} {:>9.0}", one.0, one.1, one.2)?;
    writeln!(out, "MCTS, {threads} threads {:>13.0} {:>9.0} {:>9.0}", many.0, many.1, many.2)?;
    writeln!(
        out,
        "tree overhead: MCTS 1 thread / bare = {:.3} / {:.3} / {:.3} (min / median / max over repetitions)",
        overhead.0, overhead.1, overhead.2
    )?;
    let (share, in_tree, bare_t) = (spread(tree_share).1, spread(in_tree_len).1, spread(bare_len).1);
    writeln!(
        out,
        "  MCTS time outside rollouts {:.1}%; a rollout from the tree's leaves takes {:.2} µs, from the root {:.2} µs",
        100.0 * share,
        1e6 * in_tree,
        1e6 * bare_t
    )?;
    let t = threads as f64;
    writeln!(
        out,
        "scaling: {threads} threads / 1 thread = {:.3} / {:.3} / {:.3}, {:.1}% / {:.1}% / {:.1}% of linear",
        scaling.0,
        scaling.1,
        scaling.2,
        100.0 * scaling.0 / t,
        100.0 * scaling.1 / t,
        100.0 * scaling.2 / t
    )?;
    Ok(())
}

/// The options of `senat solve`.
pub(crate) struct SolveOptions {
    pub(crate) max_depth: u32,
    pub(crate) time: Option<f64>,
    pub(crate) tt_mb: usize,
    pub(crate) each_move: bool,
    /// `ab`, `pns` or `pns-id`.
    pub(crate) engine: String,
    /// `red` or `blue`: only ask whether that side forces a win.
    pub(crate) prove: Option<String>,
    /// Whether the provers cut with the game's bounds ([`Solver::bounds`], [`Pns::bounds`]).
    pub(crate) bounds: bool,
    /// Whether the alpha-beta prover asks the game's relaxations first ([`Solver::relax`]).
    pub(crate) relax: bool,
    /// The proof store file (`--store`).
    pub(crate) store: Option<PathBuf>,
    /// The variant of the position (the store's must be the same).
    pub(crate) variant: Variant,
    /// Threads of the alpha-beta prover (`--threads`).
    pub(crate) threads: NonZeroUsize,
    /// Whether to print each question answered (`--progress`).
    pub(crate) progress: bool,
    /// Whether to print the tree's shape (`--shape`).
    pub(crate) shape: bool,
}

/// `--shape`: checks that the search has one tree to count.
fn shape_allowed(a: &SolveArgs) -> Result<()> {
    if a.shape && (a.engine != "ab" || a.threads != 1 || a.each_move || a.store.is_some()) {
        return input(
            "--shape counts the tree of one search: --engine ab on one thread, without --each-move or --store",
        );
    }
    Ok(())
}

/// `--shape`: the lines `shape …` of a search's tree ([`Shape`]), deepest first, then the total.
fn write_shape(shape: &Shape, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "shape  (nodes searched move by move, 2 plies left or more; OR: the asked side chooses, AND: the other; \
         cut: a move decided, all: every move tried; moves tried per node; first: decided by the first move tried)"
    )?;
    let row = |l: &Level| {
        let first = |t: &Tally| 100.0 * t.at_first as f64 / t.nodes.max(1) as f64;
        format!(
            "OR-all {} ({:.2})  OR-cut {} ({:.2}, first {:.1}%)  AND-cut {} ({:.3}, first {:.1}%)  AND-all {} ({:.2})",
            l.or_exhausted.nodes,
            l.or_exhausted.moves_per_node(),
            l.or_cut.nodes,
            l.or_cut.moves_per_node(),
            first(&l.or_cut),
            l.and_cut.nodes,
            l.and_cut.moves_per_node(),
            first(&l.and_cut),
            l.and_exhausted.nodes,
            l.and_exhausted.moves_per_node(),
        )
    };
    for (left, l) in shape.levels() {
        writeln!(out, "shape  left {left:>3}  {}", row(l))?;
    }
    writeln!(out, "shape  total     {}", row(&shape.total()))?;
    Ok(())
}

/// `--progress`: each question the alpha-beta prover's main thread answers,
/// one line on stderr; `side` names a player.
fn progress_printer(side: fn(usize) -> String) -> Progress {
    Box::new(move |a: &Asked| {
        let goal = match a.goal {
            Goal::Win => "a win",
            Goal::AtLeastDraw => "at least a draw",
        };
        let answer = match a.answer {
            Some(true) => "yes",
            Some(false) => "no",
            None => "stopped",
        };
        eprintln!(
            "horizon {:>3}  {} forces {goal}: {answer}  nodes {}  time {:.3}s",
            a.depth,
            side(a.player),
            a.nodes,
            a.elapsed.as_secs_f64()
        );
    })
}

/// The proof store of `--store FILE`: read if the file exists, else empty.
fn open_store(path: &Path, v: Variant) -> Result<ProofStore> {
    if !path.exists() {
        return Ok(ProofStore::new(v));
    }
    let name = path.display();
    let text = std::fs::read_to_string(path).or_else(|e| input(format_args!("cannot read {name}: {e}")))?;
    ProofStore::parse(&text, v).or_else(|e| input(format_args!("--store {name}: {e}")))
}

/// The prover of `senat solve`.
enum Prover {
    /// The alpha-beta prover, and the one player asked about (`--prove`).
    Ab(Solver<Senat>, Option<usize>),
    Pns(Pns<Senat>),
}

impl Prover {
    fn new(
        engine: &str,
        tt_mb: usize,
        time: Option<std::time::Duration>,
        prove: Option<&str>,
        bounds: bool,
        relax: bool,
        threads: NonZeroUsize,
    ) -> Result<Prover> {
        if threads.get() > 1 && engine != "ab" {
            return input("--threads is for --engine ab (df-pn runs on one thread)");
        }
        let only = match prove {
            None => None,
            Some("red") => Some(senat_lab::games::senat::player(senat_rules::Side::Red)),
            Some("blue") => Some(senat_lab::games::senat::player(senat_rules::Side::Blue)),
            Some(p) => return input(format_args!("--prove {p}: expected `red` or `blue`")),
        };
        Ok(match engine {
            "ab" => {
                let mut s = Solver::try_with_table_mb(tt_mb).or_else(input)?;
                s.time_limit = time;
                s.bounds = bounds;
                s.relax = relax;
                s.set_threads(threads);
                Prover::Ab(s, only)
            }
            "pns" | "pns-id" => {
                let mut s = Pns::try_with_table_mb(tt_mb).or_else(input)?;
                s.time_limit = time;
                s.deepen = engine == "pns-id";
                s.only = only;
                s.bounds = bounds;
                Prover::Pns(s)
            }
            e => return input(format_args!("--engine {e}: expected `ab`, `pns` or `pns-id`")),
        })
    }

    fn solve(&mut self, root: &SenatState, max_depth: u32) -> Solution<Move> {
        match self {
            Prover::Ab(s, None) => s.solve(root, max_depth),
            Prover::Ab(s, Some(p)) => s.forced_win(root, *p, max_depth),
            Prover::Pns(s) => s.solve(root, max_depth),
        }
    }
}

/// A verdict in words, `me` being the side to move; an unknown verdict
/// names the horizon actually completed (`completed`), and --max-depth when
/// the search stopped before it.
pub(crate) fn verdict_text(v: Verdict, me: senat_rules::Side, completed: u32, max_depth: u32) -> String {
    match v {
        Verdict::Win(n) => format!("{me} (to move) wins within {n} plies"),
        Verdict::Loss(n) => format!("{} wins within {n} plies ({me} to move loses)", me.other()),
        Verdict::Draw(n) => format!("draw: both sides hold at least a draw, the game ends within {n} plies"),
        Verdict::Unknown if completed >= max_depth => format!("unknown within {max_depth} plies"),
        Verdict::Unknown => format!("unknown within {completed} plies (stopped before --max-depth {max_depth})"),
    }
}

pub(crate) fn cmd_solve(root: &SenatState, o: &SolveOptions, out: &mut impl Write) -> Result<()> {
    let time = seconds(o.time)?;
    limits::depth("--max-depth", o.max_depth, 1).or_else(input)?;
    let mut solver = Prover::new(&o.engine, o.tt_mb, time, o.prove.as_deref(), o.bounds, o.relax, o.threads)?;
    match &mut solver {
        Prover::Ab(s, _) if o.progress => {
            s.progress = Some(progress_printer(|p| senat_lab::games::senat::side(p).to_string()))
        }
        Prover::Pns(_) if o.progress => return input("--progress is for --engine ab"),
        _ => {}
    }
    if let Prover::Ab(s, _) = &mut solver {
        s.count_shape(o.shape);
    }
    if o.store.is_some() && o.engine != "ab" {
        return input("--store is for --engine ab");
    }
    if o.store.is_some() && o.prove.is_some() {
        return input("--store keeps whole verdicts: it does not take --prove, which asks one question");
    }
    let mut store = o.store.as_deref().map(|p| open_store(p, o.variant)).transpose()?;
    // The store's file is created (its temporary file, locked) before the
    // search, so that a path that cannot be written fails now, not after it.
    let store_file = o.store.as_deref().map(|p| OutFile::create(p, IfExists::Overwrite).or_else(input)).transpose()?;
    // A fact of the store, or the solver's answer, which the store keeps.
    let mut solve = |s: &SenatState, depth: u32| -> (Solution<Move>, bool) {
        if let Some(sol) = store.as_ref().and_then(|st| st.answer(s, depth)) {
            return (sol, true);
        }
        let sol = solver.solve(s, depth);
        if let Some(st) = store.as_mut() {
            st.record(s, &sol);
        }
        (sol, false)
    };
    let me = root.position().side_to_move();
    let rate = |nodes: u64, t: std::time::Duration| nodes as f64 / t.as_secs_f64().max(1e-9);
    if o.each_move {
        if let Some(end) = root.outcome() {
            return input(format_args!("the game is over ({end})"));
        }
        let (mut nodes, mut time) = (0, std::time::Duration::ZERO);
        let mut moves = Vec::new();
        <Senat as game_search::Game>::moves(root, &mut moves);
        for m in moves {
            // The position after the move, solved one ply shorter (as
            // `Solver::solve_move`), seen from the side that moves.
            let child = root.play(m);
            let (sol, kept) = solve(&child, o.max_depth.saturating_sub(1));
            let sol = sol.before_move(m);
            let stop = if sol.timed_out {
                format!("  (time out after depth {})", sol.depth)
            } else if kept {
                "  (from the store)".to_string()
            } else {
                String::new()
            };
            writeln!(
                out,
                "move {m:<12} verdict {}  nodes {}  time {:.3}s{stop}  pv {}",
                verdict_text(sol.verdict, me, sol.depth, o.max_depth),
                sol.nodes,
                sol.elapsed.as_secs_f64(),
                line_text(&sol.pv)
            )?;
            out.flush()?;
            nodes += sol.nodes;
            time += sol.elapsed;
        }
        writeln!(out, "total  nodes {nodes}  time {:.3}s  nodes/s {:.0}", time.as_secs_f64(), rate(nodes, time))?;
        return save_store(store_file, store.as_ref(), out);
    }
    let (sol, kept) = solve(root, o.max_depth);
    writeln!(out, "verdict {}", verdict_text(sol.verdict, me, sol.depth, o.max_depth))?;
    writeln!(out, "pv {}", line_text(&sol.pv))?;
    let stop = if sol.timed_out {
        "  (time out)"
    } else if kept {
        "  (from the store)"
    } else {
        ""
    };
    let threads = if o.threads.get() > 1 { format!("  threads {}", o.threads) } else { String::new() };
    writeln!(
        out,
        "depth {}  nodes {}  time {:.3}s  nodes/s {:.0}{threads}{stop}",
        sol.depth,
        sol.nodes,
        sol.elapsed.as_secs_f64(),
        rate(sol.nodes, sol.elapsed)
    )?;
    if let Prover::Ab(s, _) = &solver
        && let Some(shape) = s.shape()
    {
        write_shape(shape, out)?;
    }
    save_store(store_file, store.as_ref(), out)
}

/// Writes the store back into its file (renamed into place) if this run
/// added to it, and says so; otherwise the file stays as it was.
fn save_store(file: Option<OutFile>, store: Option<&ProofStore>, out: &mut impl Write) -> Result<()> {
    let (Some(mut file), Some(store)) = (file, store) else { return Ok(()) };
    if store.changed() {
        let shown = file.path().display().to_string();
        file.write_all(store.to_text().as_bytes()).or_else(input)?;
        file.commit().or_else(input)?;
        writeln!(out, "store {shown}: {} facts", store.len())?;
    }
    Ok(())
}

pub(crate) fn cmd_bench_search(
    depth: u32,
    tt_mb: usize,
    threads: NonZeroUsize,
    no_history: bool,
    out: &mut impl Write,
) -> Result<()> {
    let root = SenatState::new(sample_start()?);
    limits::depth("--depth", depth, 1).or_else(input)?;
    let run = |t: NonZeroUsize| -> Result<Report<Move>> {
        let mut searcher = Searcher::<Senat, SenatEval>::try_new(SenatEval::default(), tt_mb).or_else(input)?;
        searcher.set_threads(t);
        searcher.set_history(!no_history);
        Ok(searcher.search(&root, Limits::depth(depth)))
    };
    let one = run(NonZeroUsize::MIN)?;
    bench_line(&one, tt_mb, out)?;
    if threads.get() > 1 {
        let many = run(threads)?;
        bench_line(&many, tt_mb, out)?;
        let to_depth = |r: &Report<Move>| r.iterations.last().map_or(r.elapsed, |it| it.elapsed).as_secs_f64();
        writeln!(
            out,
            "speedup {} threads vs 1: time to depth {} x{:.2}, nodes/s x{:.2}",
            many.threads,
            depth,
            to_depth(&one) / to_depth(&many).max(1e-9),
            many.nps() / one.nps().max(1e-9)
        )?;
    }
    Ok(())
}

pub(crate) fn bench_line(r: &Report<Move>, tt_mb: usize, out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "alpha-beta sample depth {} tt {} MB threads {}: nodes {} (main thread {}) time {:.3}s nodes/s {:.0} best {} score {}",
        r.depth,
        tt_mb,
        r.threads,
        r.nodes,
        r.main_nodes,
        r.iterations.last().map_or(r.elapsed, |it| it.elapsed).as_secs_f64(),
        r.nps(),
        r.best.map_or("(none)".to_string(), |m| m.to_string()),
        score_text(r.score)
    )?;
    Ok(())
}

/// `senat analyze --game …` for every game but Sénat: the catalog's
/// analysis (`senat_lab::catalog::analyze`), printed: alpha-beta on the
/// game's evaluation, or MCTS.
pub(crate) fn lab_analyze(a: &AnalyzeArgs, out: &mut impl Write) -> Result<()> {
    if a.history.is_some() || a.prior.is_some() || a.parallel != "root" {
        return input(format_args!(
            "--history, --prior and --parallel are for Sénat; --game {} does not take them",
            a.game.game
        ));
    }
    if a.threads != 1 && a.engine != "ab" {
        return input(format_args!("--threads: with --game {} only --engine ab searches with threads", a.game.game));
    }
    if a.game.variant_help(out)? {
        return Ok(());
    }
    let engine = match a.engine.as_str() {
        "ab" => analyze::Engine::AlphaBeta { depth: a.depth, tt_mb: a.tt_mb, threads: search_threads(a.threads)? },
        "mcts" => analyze::Engine::Mcts {
            playouts: a.playouts,
            c: a.c,
            memory_mb: a.memory_mb,
            solve: a.solve == "on",
            seed: a.seed,
        },
        e => return input(format_args!("--engine {e}: with --game {} the engines are ab and mcts", a.game.game)),
    };
    let p = a.game.catalog_position(&a.pos)?;
    let time = a.time.map(|t| limits::seconds("--time", t)).transpose().or_else(input)?;
    match analyze::analyze(&p, &engine, time, a.multipv).or_else(input)? {
        analyze::Analysis::Over(result) => writeln!(out, "{result}")?,
        analyze::Analysis::AlphaBeta { report: r, seat, scale, win, lines } => {
            for it in &r.iterations {
                writeln!(
                    out,
                    "depth {:>2}  score {:>8}  nodes {:>10}  {:>7.3} s  pv {}",
                    it.depth,
                    lab_score_text(it.score),
                    it.nodes,
                    it.elapsed.as_secs_f64(),
                    it.pv.join(" ")
                )?;
            }
            let best = r.best.as_deref().unwrap_or_default();
            writeln!(
                out,
                "bestmove {best} score {} depth {} nodes {} ({:.0} nodes/s)",
                lab_score_text(r.score),
                r.depth,
                r.nodes,
                r.nps()
            )?;
            writeln!(out, "win {win} ({seat} to move; logistic of score / {scale}, fitted to self-play results)")?;
            for (i, (m, score, win, pv)) in lines.iter().enumerate() {
                writeln!(
                    out,
                    "multipv {}  move {m}  win {win}  score {}  pv {}",
                    i + 1,
                    lab_score_text(*score),
                    pv.join(" ")
                )?;
            }
        }
        analyze::Analysis::Mcts { report: r, seat, win, lines } => {
            let mut moves = r.moves.clone();
            moves.sort_by_key(|m| std::cmp::Reverse(m.1));
            for (mv, n, v) in moves.iter().take(10) {
                writeln!(out, "{mv:<16} visits {n:>8}  value {v:.3}")?;
            }
            let best = r.best.as_deref().unwrap_or_default();
            writeln!(
                out,
                "bestmove {best} value {:.3} playouts {} ({:.0}/s) pv {}",
                r.value(),
                r.playouts,
                r.playouts_per_s(),
                r.pv.join(" ")
            )?;
            writeln!(out, "win {win} ({seat} to move; the mean result, a draw counting half)")?;
            for (i, (m, win, visits, pv)) in lines.iter().enumerate() {
                writeln!(out, "multipv {}  move {m}  win {win}  visits {visits}  pv {}", i + 1, pv.join(" "))?;
            }
        }
    }
    Ok(())
}

fn lab_score_text(s: i32) -> String {
    if s.abs() > WIN_BOUND {
        let plies = game_search::WIN - s.abs();
        format!("{}{plies}", if s > 0 { "win" } else { "loss" })
    } else {
        s.to_string()
    }
}

/// `senat solve --game …` for every game but Sénat: the catalog's solve
/// (`senat_lab::catalog::solve`), printed. The exact solver to a horizon
/// (the game's own bound by default, where its rules have one); for
/// dominoes, sure wins of the round from the observation of the player to
/// decide (one strategy for every consistent state, every draw and every
/// play of the others).
pub(crate) fn lab_solve(a: &SolveArgs, out: &mut impl Write) -> Result<()> {
    if a.history.is_some() || a.engine != "ab" || a.prove.is_some() || a.store.is_some() {
        return input(format_args!(
            "--history, --engine, --prove and --store are for Sénat; --game {} does not take them",
            a.game.game
        ));
    }
    shape_allowed(a)?;
    if a.game.variant_help(out)? {
        return Ok(());
    }
    let p = a.game.catalog_position(&a.pos)?;
    let depth = a.horizon(solve::own_horizon(&p))?;
    // Each move's line is printed as soon as it is solved (the first write
    // error is kept and returned).
    let mut written: std::io::Result<()> = Ok(());
    let mut print_move = |m: &str, sol: &solve::Proved| {
        if written.is_ok() {
            let stopped = if sol.timed_out { " (stopped by --time)" } else { "" };
            written = writeln!(
                out,
                "move {m} verdict {}{stopped}; line {}; {} nodes in {:.3} s",
                solve::verdict_text(sol.verdict, depth),
                sol.line.join(" "),
                sol.nodes,
                sol.elapsed.as_secs_f64()
            )
            .and_then(|()| out.flush());
        }
    };
    let request = solve::Request {
        max_depth: Some(depth),
        tt_mb: a.tt_mb,
        threads: search_threads(a.threads)?,
        time: a.time.map(|t| limits::seconds("--time", t)).transpose().or_else(input)?,
        bounds: a.bounds == "on",
        relax: a.relax == "on",
        shape: a.shape,
        each_move: a.each_move,
        progress: a.progress.then(|| progress_printer(|p| format!("player {p}"))),
        on_move: Some(&mut print_move),
    };
    let answer = solve::solve(&p, request).or_else(input)?;
    written?;
    match answer {
        solve::Answer::Exact { depth, root, shape, .. } => {
            if let Some(sol) = root {
                let pv = if sol.line.is_empty() { String::new() } else { format!("; line {}", sol.line.join(" ")) };
                let stopped = if sol.timed_out { " (stopped by --time)" } else { "" };
                let verdict = solve::verdict_text(sol.verdict, depth);
                writeln!(out, "{verdict}{pv}{stopped}; {} nodes in {:.2} s", sol.nodes, sol.elapsed.as_secs_f64())?;
            }
            if let Some(shape) = &shape {
                write_shape(shape, out)?;
            }
        }
        solve::Answer::Observation { observation, root, states, moves, elapsed } => {
            writeln!(out, "observation {observation}")?;
            for (m, v) in moves {
                writeln!(out, "move {m} verdict {v}")?;
            }
            if let Some(root) = root {
                writeln!(out, "{root}; {states}; {:.2} s", elapsed.as_secs_f64())?;
            }
        }
    }
    Ok(())
}
