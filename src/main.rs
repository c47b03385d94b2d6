//! `senat`: the command-line front end of the Sénat engine.
//!
//! Every command reads positions and moves in the project's notation (SPN
//! and move text, see `NOTATION.md`) and writes the same notation back, so
//! that its output can be pasted into another command or another tool.
//!
//! Errors are one line on stderr, prefixed `senat: error: `, with exit
//! code 2 for usage and input errors; a closed stdout (`| head`) ends the
//! program quietly.

use clap::{Args, Parser, Subcommand};
use senat::arena::{self, Arena, Schedule};
use senat::perft::{divide, perft, perft_full};
use senat::policy::PolicySpec;
use senat::rating::Sprt;
use senat::search::alphabeta::{Limits, Report, Searcher};
use senat::search::mcts::{self, Mcts, bare_rollouts};
use senat::search::senat::{Senat, SenatEval, SenatRollout, SenatState};
use senat::search::solver::{Solver, Verdict};
use senat::search::{WIN, WIN_BOUND};
use senat::selfplay::{self, Batch, Existing, Matchup, Outputs, Shard};
use senat::stats::Summary;
use senat::{Game, Move, MoveError, Position, render, sample};
use std::fmt;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

// ---- command line -------------------------------------------------------

const POS_HELP: &str = "The position: `start` (empty board, blue gives first), `sample` \
(the position after the draft of the sample game of the rules) or an SPN. An SPN contains \
spaces: pass it as one quoted argument or as several arguments, which are joined with \
single spaces";

const EXAMPLES: &str = "\
Examples:
  senat moves start
  senat perft sample --depth 3 --divide
  senat show '.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 0'
  senat replay tests/fixtures/sample-game.txt --quiet
  senat selfplay --games 100000 --red greedy --blue random --out games.csv --force

Positions are written in SPN and moves in move text, as in the project's NOTATION.md.";

/// Reference engine and research tool for the dice game Sénat.
#[derive(Parser, Debug)]
#[command(name = "senat", version, about, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the legal moves of a position, one per line, in move text, sorted
    /// by byte order of the text.
    #[command(after_help = "\
Examples:
  senat moves start          # the 22 give moves of the draft (g1, g3..g23)
  senat moves sample         # blue's first play moves in the sample game
  senat moves .,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 0")]
    Moves(PosArg),

    /// Count the leaf nodes of the move tree to a given depth (perft).
    ///
    /// The last line of stdout is the count alone; time and speed go to
    /// stderr. A position where the game is over by majority, closure or
    /// block has no children; repetition is ignored (perft has no history).
    #[command(after_help = "\
Examples:
  senat perft start --depth 3
  senat perft sample --depth 2 --divide     # one `<move> <count>` line per move, then the total
  senat perft sample --depth 3 --full       # play every leaf instead of counting the last ply")]
    Perft {
        #[command(flatten)]
        pos: PosArg,
        /// Number of half-moves (plies) to look ahead; 0 counts the position itself.
        #[arg(short, long, value_name = "N")]
        depth: u32,
        /// Before the total, print each legal move with the leaf count below it.
        #[arg(long)]
        divide: bool,
        /// Play every move including the leaves (copy-make), instead of counting
        /// the moves of the last ply without playing them (bulk counting).
        #[arg(long)]
        full: bool,
    },

    /// Draw the board of a position with ▲■● symbols, then print its SPN.
    #[command(after_help = "\
Examples:
  senat show sample
  senat show sample --plain   # colours as letters r, b, w after each symbol
Colours use terminal escapes when stdout is a terminal (unless NO_COLOR is set).")]
    Show {
        #[command(flatten)]
        pos: PosArg,
        /// Never colour with terminal escapes: write the colour as a letter.
        #[arg(long)]
        plain: bool,
    },

    /// Play a game record, checking every move, and print the result.
    ///
    /// A record is a text file: the first line is the start position (an SPN,
    /// `start`, or `sample` for the sample game's start), then one
    /// move per line. `#` starts a comment, also at the end of a line; blank
    /// lines are ignored. The command fails (exit 2) at the first unparsable
    /// or illegal move, naming its line.
    #[command(after_help = "\
Examples:
  senat replay tests/fixtures/sample-game.txt          # every position, then the result
  senat replay tests/fixtures/sample-game.txt --quiet  # the result only")]
    Replay {
        /// The game record to play.
        file: PathBuf,
        /// Print only the result, not the position after each move.
        #[arg(short, long)]
        quiet: bool,
        /// Never colour with terminal escapes: write the colour as a letter.
        #[arg(long)]
        plain: bool,
    },

    /// Play a batch of complete games (draft and play) between two policies,
    /// in parallel, and write one CSV row per game plus a summary.
    ///
    /// Game i draws all its randomness from a generator seeded from (seed, i):
    /// the files are byte-identical for any --threads, and the union of the
    /// shards of --shard K/N is the unsharded run. Existing files are never
    /// overwritten without --force; --resume continues a games file where it
    /// stops (an interrupted run), without losing or repeating a game.
    #[command(after_help = "\
Examples:
  senat selfplay --force                                # 100000 random games -> games.csv, summary.csv
  senat selfplay --games 20000 --red greedy --blue random --out g.csv --summary s.csv
  senat selfplay --red 'heuristic:pile=12,exposed=-1' --blue heuristic:file=w.txt --out h.csv
  senat selfplay --games 1000000 --shard 3/8 --out shard3.csv --summary ''   # one slice of a big batch
  senat selfplay --games 1000000 --out big.csv --resume # continue an interrupted run

Policies: random | greedy | heuristic[:key=value,...] | heuristic:file=<path>;
heuristic weights: pile, win, own_i, opp_i, square, exposed, full_i.")]
    Selfplay(SelfplayArgs),

    /// Concatenate games files of the shards of one batch into one games file
    /// (in game order, checking that no game is missing or repeated) and
    /// write their summary.
    #[command(after_help = "\
Examples:
  senat merge --out games.csv --summary summary.csv shard-*.csv")]
    Merge {
        /// The games files to merge (any order).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The merged games file.
        #[arg(long, value_name = "PATH")]
        out: PathBuf,
        /// The summary CSV of all games (empty: none).
        #[arg(long, value_name = "PATH", default_value = "summary.csv")]
        summary: String,
        /// Overwrite existing output files.
        #[arg(long)]
        force: bool,
        /// Do not print the summary table.
        #[arg(short, long)]
        quiet: bool,
    },

    /// Measure complete games per second (draft included, nothing written)
    /// for each policy against itself, on one thread and on --threads
    /// threads, and the scaling efficiency.
    #[command(after_help = "\
Examples:
  senat bench
  senat bench --games 200000 --policies random,greedy,heuristic --threads 2")]
    Bench {
        /// Games per measurement.
        #[arg(long, default_value_t = 100_000)]
        games: u64,
        /// Comma-separated policies, each playing itself.
        #[arg(long, default_value = "random,greedy")]
        policies: String,
        /// Threads of the parallel measurement (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Batch seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },

    /// Search a position and print the best move, its score, the principal
    /// variation and the speed.
    ///
    /// `--engine ab` (alpha-beta: iterative deepening, transposition table):
    /// scores are from the side to move, in thousandths of a pile; a forced
    /// result found within the horizon is printed as `win in N` / `loss in N`
    /// (plies). Give --depth, --time or both (the first reached stops).
    ///
    /// `--engine mcts` (UCT with random rollouts, one tree per thread): the
    /// score is the side to move's mean result over the playouts through the
    /// best move (1 win, ½ draw); give --playouts, --time or both. With one
    /// thread and no --time the result is a function of --seed.
    #[command(after_help = "\
Examples:
  senat analyze sample --depth 5
  senat analyze sample --time 2 --tt-mb 256
  senat analyze sample --time 5 --threads 2
  senat analyze sample --engine mcts --playouts 20000 --threads 2
  senat analyze --history game.txt --depth 6   # the last position of a record, with its history")]
    Analyze {
        /// The position (ignored with --history).
        #[arg(value_name = "POS", num_args = 0.., help = POS_HELP)]
        pos: Vec<String>,
        /// The search engine: `ab` (alpha-beta) or `mcts` (Monte Carlo tree search).
        #[arg(long, default_value = "ab")]
        engine: String,
        /// MCTS: playouts (default 10000 unless --time is given).
        #[arg(long, value_name = "N")]
        playouts: Option<u64>,
        /// Search threads: alpha-beta threads share the table (lazy SMP);
        /// MCTS threads grow one tree each (root parallelism). With 1 thread
        /// alpha-beta is deterministic; MCTS is deterministic for a seed and a
        /// thread count (without --time).
        #[arg(long, value_name = "T", default_value_t = 1)]
        threads: usize,
        /// MCTS: seed of the playouts.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// MCTS: UCT exploration constant.
        #[arg(long, value_name = "C", default_value_t = 1.0)]
        c: f64,
        /// MCTS: memory cap of the trees in megabytes.
        #[arg(long, value_name = "M", default_value_t = 512)]
        memory_mb: usize,
        /// MCTS: rollout policy, `random` or `greedy` (scoring pushes first, no gifts).
        #[arg(long, default_value = "random", value_parser = parse_rollout)]
        rollout: SenatRollout,
        /// Deepest iteration in plies.
        #[arg(long, value_name = "N")]
        depth: Option<u32>,
        /// Time limit in seconds.
        #[arg(long, value_name = "S")]
        time: Option<f64>,
        /// Transposition table size in megabytes (0: none).
        #[arg(long, value_name = "M", default_value_t = 64)]
        tt_mb: usize,
        /// A game record whose final position is searched, with its repetition history.
        #[arg(long, value_name = "FILE")]
        history: Option<PathBuf>,
    },

    /// Prove a win, loss or draw within --max-depth plies, or say it is
    /// unknown: no heuristic enters the verdict.
    ///
    /// Horizons 1, 2, ... are tried in turn, so a win or loss is the fastest
    /// one. With --history, the final position of the record is solved with
    /// the record's repetition history.
    #[command(after_help = "\
Examples:
  senat solve '.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb b - 4-4-13 0' --max-depth 3
  senat solve --history game.txt --max-depth 9 --time 60
  senat solve --history game.txt --max-depth 7 --each-move")]
    Solve {
        /// The position (ignored with --history).
        #[arg(value_name = "POS", num_args = 0.., help = POS_HELP)]
        pos: Vec<String>,
        /// A game record whose final position is solved, with its repetition history.
        #[arg(long, value_name = "FILE")]
        history: Option<PathBuf>,
        /// The largest horizon in plies.
        #[arg(long, value_name = "N")]
        max_depth: u32,
        /// Stop after about S seconds (per move with --each-move); the
        /// verdict is then that of the completed horizons.
        #[arg(long, value_name = "S")]
        time: Option<f64>,
        /// Table size in megabytes.
        #[arg(long, value_name = "M", default_value_t = 256)]
        tt_mb: usize,
        /// Solve each legal move in turn: one line per move with the verdict
        /// for the side to move if it plays it (horizon --max-depth, the move included).
        #[arg(long)]
        each_move: bool,
    },

    /// Play matches between agents and rate them: games in colour-swapped
    /// pairs from the same seed, W/D/L and pentanomial counts, Elo with a 95%
    /// interval, normalized Elo, LOS and draw ratio per pairing.
    ///
    /// Agents are policies (`senat selfplay --help` lists them): random,
    /// greedy, heuristic[:weights], mcts[:playouts=N,c=C,…], ab[:depth=N,tt=M].
    /// In pair k both games use game seed (seed, k): with the default shared
    /// draft (--draft random) both start from the same draft, each agent
    /// playing red once. Results never depend on --concurrency.
    #[command(after_help = "\
Examples:
  senat arena random greedy heuristic --games 400
  senat arena heuristic 'ab:depth=2' 'mcts:playouts=1000' --gauntlet --games 200 --out arena.csv --force
  senat arena random greedy heuristic 'ab:depth=2' --ladder --games 200
  senat arena 'ab:depth=3' 'ab:depth=2' --games 2000 --sprt elo0=0,elo1=20,alpha=0.05,beta=0.05")]
    Arena(ArenaArgs),

    /// Measure MCTS playouts per second on one thread and on several, against
    /// bare random rollouts from the same position (the tree's overhead).
    ///
    /// Each measurement is repeated --repeat times; min, median and max are
    /// printed. The position is the sample game's start unless given.
    #[command(after_help = "\
Examples:
  senat bench-mcts --playouts 20000 --threads 2
  senat bench-mcts start --playouts 5000 --repeat 5")]
    BenchMcts {
        /// The position.
        #[arg(value_name = "POS", num_args = 0.., help = POS_HELP)]
        pos: Vec<String>,
        /// Playouts per search (and bare rollouts per measurement).
        #[arg(long, default_value_t = 20_000)]
        playouts: u64,
        /// Threads of the parallel measurement (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Repetitions of each measurement.
        #[arg(long, default_value_t = 3)]
        repeat: usize,
        /// Seed of the playouts.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Rollout policy, `random` or `greedy`.
        #[arg(long, default_value = "random", value_parser = parse_rollout)]
        rollout: SenatRollout,
    },

    /// Measure alpha-beta nodes per second and time to depth on the sample
    /// game's start; with --threads T above 1, also with T threads (a fresh
    /// table each), and the speedup.
    #[command(after_help = "\
Examples:
  senat bench-search --depth 5
  senat bench-search --depth 7 --threads 2")]
    BenchSearch {
        /// Search depth in plies.
        #[arg(long, default_value_t = 5)]
        depth: u32,
        /// Transposition table size in megabytes.
        #[arg(long, default_value_t = 64)]
        tt_mb: usize,
        /// Threads of the second search (1: only the single-threaded one).
        #[arg(long, value_name = "T", default_value_t = 1)]
        threads: usize,
        /// Turn the history heuristic off (to measure what it gains).
        #[arg(long)]
        no_history: bool,
    },
}

/// Arguments of `senat arena`.
#[derive(Args, Debug)]
struct ArenaArgs {
    /// The agents (at least two), as policies.
    #[arg(value_name = "AGENT", required = true, num_args = 2..)]
    agents: Vec<String>,
    /// Games per pairing, an even number (pairs of games).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Seed: pair k of every pairing uses game seed (seed, k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The draft policy of both sides in every game, or `own` for each agent
    /// to draft with its own policy.
    #[arg(long, default_value = "random", value_name = "POLICY|own")]
    draft: String,
    /// The first agent against each of the others (default: round robin).
    #[arg(long, conflicts_with = "ladder")]
    gauntlet: bool,
    /// Each agent against the next (list them weakest first), with a
    /// chained rating list: first agent 0, 95% intervals.
    #[arg(long)]
    ladder: bool,
    /// Stop a two-agent match when the SPRT decides: elo0=E0,elo1=E1,alpha=A,beta=B.
    #[arg(long, value_name = "SPEC")]
    sprt: Option<String>,
    /// Games played at once (default: all cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Per-game CSV file (none by default).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Summary CSV file, one row per pairing (none by default).
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,
    /// Overwrite existing output files.
    #[arg(long)]
    force: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Arguments of `senat selfplay`.
#[derive(Args, Debug)]
struct SelfplayArgs {
    /// Games in the batch (all shards together).
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Worker threads (default: all cores). Never changes the output.
    #[arg(long)]
    threads: Option<usize>,
    /// Batch seed: game i uses a generator seeded from (seed, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Red's play policy.
    #[arg(long, default_value = "random", value_name = "POLICY")]
    red: String,
    /// Blue's play policy.
    #[arg(long, default_value = "random", value_name = "POLICY")]
    blue: String,
    /// Red's draft policy (default: red's play policy; greedy drafts at random).
    #[arg(long, value_name = "POLICY")]
    draft_red: Option<String>,
    /// Blue's draft policy (default: blue's play policy).
    #[arg(long, value_name = "POLICY")]
    draft_blue: Option<String>,
    /// The games file: one row per game.
    #[arg(long, value_name = "PATH", default_value = "games.csv")]
    out: PathBuf,
    /// The summary CSV (empty: none).
    #[arg(long, value_name = "PATH", default_value = "summary.csv")]
    summary: String,
    /// Also write one row per move to this file.
    #[arg(long, value_name = "PATH")]
    moves: Option<PathBuf>,
    /// Play only the K-th of N disjoint slices of the game indices (1 <= K <= N).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Overwrite existing output files.
    #[arg(long, conflicts_with = "resume")]
    force: bool,
    /// Continue the games (and moves) file where it stops.
    #[arg(long)]
    resume: bool,
    /// No progress bar and no summary table.
    #[arg(short, long)]
    quiet: bool,
}

/// A position on the command line (possibly split over several arguments).
#[derive(Args, Debug)]
struct PosArg {
    #[arg(value_name = "POS", required = true, num_args = 1.., help = POS_HELP)]
    pos: Vec<String>,
}

// ---- errors -------------------------------------------------------------

/// Why a command failed.
enum Failure {
    /// Bad input: a position, a move, a record (exit code 2).
    Input(String),
    /// Writing the output failed (exit code 1, or quiet success on a closed pipe).
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

type Result<T, E = Failure> = std::result::Result<T, E>;

fn input<T>(msg: impl fmt::Display) -> Result<T> {
    Err(Failure::Input(msg.to_string()))
}

// ---- main ---------------------------------------------------------------

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with code 0, usage errors to stderr with code 2.
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    let stdout = io::stdout();
    let colour = stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut out = BufWriter::new(stdout.lock());
    let result = run(cli.command, &mut out, colour).and_then(|()| Ok(out.flush()?));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(failure) => {
            // Show what was printed before the failure (a replay up to the bad move) first.
            let _ = out.flush();
            let (msg, code) = match failure {
                Failure::Input(msg) => (msg, 2),
                Failure::Io(e) => (format!("cannot write the output: {e}"), 1),
            };
            eprintln!("senat: error: {msg}");
            ExitCode::from(code)
        }
    }
}

fn run(command: Command, out: &mut impl Write, colour: bool) -> Result<()> {
    match command {
        Command::Moves(pos) => cmd_moves(&pos.resolve()?, out),
        Command::Perft { pos, depth, divide, full } => cmd_perft(&pos.resolve()?, depth, divide, full, out),
        Command::Show { pos, plain } => {
            let p = pos.resolve()?;
            write_position(out, &p, colour && !plain)
        }
        Command::Replay { file, quiet, plain } => cmd_replay(&file, quiet, colour && !plain, out),
        Command::Selfplay(args) => cmd_selfplay(args, out),
        Command::Merge { inputs, out: path, summary, force, quiet } => {
            cmd_merge(&inputs, &path, &summary, force, quiet, out)
        }
        Command::Bench { games, policies, threads, seed } => cmd_bench(games, &policies, threads, seed, out),
        Command::Analyze {
            pos,
            engine,
            playouts,
            threads,
            seed,
            c,
            memory_mb,
            rollout,
            depth,
            time,
            tt_mb,
            history,
        } => {
            let root = search_root(&pos, history.as_deref())?;
            match engine.as_str() {
                "mcts" => {
                    let time = seconds(time)?;
                    if depth.is_some() {
                        return input("--depth is for --engine ab; MCTS takes --playouts or --time");
                    }
                    if threads == 0 || memory_mb == 0 || !(c.is_finite() && c >= 0.0) {
                        return input("--threads and --memory-mb must be ≥ 1 and --c a number ≥ 0");
                    }
                    let playouts = match (playouts, time) {
                        (Some(0), _) => return input("--playouts must be ≥ 1"),
                        (Some(n), _) => n,
                        (None, Some(_)) => u64::MAX,
                        (None, None) => 10_000,
                    };
                    let config = mcts::Config {
                        playouts,
                        time,
                        selection: mcts::Selection::Uct { c },
                        memory: memory_mb << 20,
                        threads,
                    };
                    cmd_analyze_mcts(&root, config, rollout, seed, out)
                }
                _ => cmd_analyze(&root, &engine, depth, time, tt_mb, search_threads(threads)?, out),
            }
        }
        Command::Arena(a) => cmd_arena(a, out),
        Command::BenchMcts { pos, playouts, threads, repeat, seed, rollout } => {
            let p = if pos.is_empty() { sample_start()? } else { parse_position(&pos.join(" "))? };
            let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            if threads == 0 || playouts == 0 || repeat == 0 {
                return input("--threads, --playouts and --repeat must be ≥ 1");
            }
            cmd_bench_mcts(&SenatState::new(p), playouts, threads, repeat, seed, rollout, out)
        }
        Command::Solve { pos, history, max_depth, time, tt_mb, each_move } => {
            let opts = SolveOptions { max_depth, time, tt_mb, each_move };
            cmd_solve(&search_root(&pos, history.as_deref())?, &opts, out)
        }
        Command::BenchSearch { depth, tt_mb, threads, no_history } => {
            cmd_bench_search(depth, tt_mb, search_threads(threads)?, no_history, out)
        }
    }
}

// ---- positions ----------------------------------------------------------

impl PosArg {
    fn resolve(&self) -> Result<Position> {
        parse_position(&self.pos.join(" "))
    }
}

/// Reads a position: the words `start` or `sample`, or an SPN.
fn parse_position(text: &str) -> Result<Position> {
    match text.trim() {
        "start" => Ok(Position::start()),
        "sample" => sample_start(),
        word if !word.contains(char::is_whitespace) && !word.contains('/') => {
            input(format_args!("`{word}` is not a position: expected `start`, `sample` or an SPN"))
        }
        spn => spn.parse().or_else(|e| input(format_args!("{e} in `{spn}`"))),
    }
}

/// The position after the draft of the sample game of the rules.
fn sample_start() -> Result<Position> {
    sample::START.parse().or_else(|e| input(format_args!("senat::sample::START: {e}")))
}

fn write_position(out: &mut impl Write, p: &Position, ansi: bool) -> Result<()> {
    out.write_all(render::board(p, ansi).as_bytes())?;
    writeln!(out, "{}", p.to_spn())?;
    Ok(())
}

// ---- moves --------------------------------------------------------------

/// The legal moves in move text, sorted by byte order.
fn sorted_moves(p: &Position) -> Vec<String> {
    let mut moves: Vec<String> = p.legal_moves().iter().map(Move::to_string).collect();
    moves.sort_unstable();
    moves
}

fn cmd_moves(p: &Position, out: &mut impl Write) -> Result<()> {
    for m in sorted_moves(p) {
        writeln!(out, "{m}")?;
    }
    Ok(())
}

// ---- perft --------------------------------------------------------------

fn cmd_perft(p: &Position, depth: u32, by_move: bool, full: bool, out: &mut impl Write) -> Result<()> {
    if by_move && depth == 0 {
        return input("--divide needs --depth 1 or more");
    }
    let count = |p: &Position, d: u32| if full { perft_full(p, d) } else { perft(p, d) };
    let started = Instant::now();
    let total = if by_move {
        let lines: Vec<(Move, u64)> = if full {
            let mut v: Vec<(Move, u64)> = p
                .legal_moves()
                .iter()
                .map(|&m| {
                    let mut c = *p;
                    c.play_unchecked(m);
                    (m, count(&c, depth - 1))
                })
                .collect();
            v.sort_by_cached_key(|(m, _)| m.to_string());
            v
        } else {
            divide(p, depth)
        };
        for (m, n) in &lines {
            writeln!(out, "{m} {n}")?;
        }
        lines.iter().map(|(_, n)| n).sum()
    } else {
        count(p, depth)
    };
    let elapsed = started.elapsed().as_secs_f64();
    writeln!(out, "{total}")?;
    out.flush()?;
    let rate = if elapsed > 0.0 { total as f64 / elapsed } else { f64::INFINITY };
    let how = if full { "full" } else { "bulk" };
    eprintln!("perft depth {depth} ({how}): {total} nodes in {elapsed:.3} s, {:.2} Mnodes/s", rate / 1e6);
    Ok(())
}

// ---- replay -------------------------------------------------------------

/// A game record: its start position and its moves, each with its 1-based line number.
struct Record {
    start: Position,
    moves: Vec<(usize, String)>,
}

/// Reads a game record; `name` is used in error messages.
fn parse_record(name: &str, text: &str) -> Result<Record> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("").trim()))
        .filter(|(_, line)| !line.is_empty());
    let Some((n, first)) = lines.next() else {
        return input(format_args!("{name}: no start position (the record is empty)"));
    };
    let start = match parse_position(first) {
        Ok(p) => p,
        Err(Failure::Input(e)) => return input(format_args!("{name}:{n}: start position: {e}")),
        Err(e) => return Err(e),
    };
    let moves = lines.map(|(n, m)| (n, m.to_string())).collect();
    Ok(Record { start, moves })
}

/// Reads and parses a game record file; the name is for messages.
fn read_record(file: &Path) -> Result<(String, Record)> {
    let name = file.display().to_string();
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => return input(format_args!("cannot read {name}: {e}")),
    };
    let record = parse_record(&name, &text)?;
    Ok((name, record))
}

fn cmd_replay(file: &Path, quiet: bool, ansi: bool, out: &mut impl Write) -> Result<()> {
    let (name, record) = read_record(file)?;
    let mut game = Game::new(record.start);
    if !quiet {
        writeln!(out, "start")?;
        write_position(out, game.position(), ansi)?;
    }
    for (ply, (line, text)) in record.moves.iter().enumerate() {
        let at = format!("{name}:{line}: move `{text}`");
        // Checked first so that the message says the game is over rather than
        // why the move would be illegal in the final position.
        if let Some(o) = game.outcome() {
            return input(format_args!("{at}: the game is already over ({o})"));
        }
        let m = match game.position().parse_move(text) {
            Ok(m) => m,
            Err(e) => return input(format_args!("{at}: {e}")),
        };
        if let Err(e) = game.play(m) {
            return input(format_args!("{at}: {}", MoveError::Illegal(e)));
        }
        if !quiet {
            writeln!(out, "\n{}. {m}", ply + 1)?;
            write_position(out, game.position(), ansi)?;
        }
    }
    if !quiet {
        writeln!(out)?;
    }
    writeln!(out, "{}", result_line(&game))?;
    Ok(())
}

/// The result of a game, with the piles: `blue wins by majority (red 4, blue 5, white 0)`.
fn result_line(game: &Game) -> String {
    let p = game.position();
    let piles = p.piles();
    let piles = format!("red {}, blue {}, white {}", piles.red, piles.blue, piles.white);
    match game.outcome() {
        Some(o) => format!("{o} ({piles})"),
        None => format!("game not over after {} moves ({piles}), {} to move", game.moves().len(), p.side_to_move()),
    }
}

// ---- selfplay, merge, bench ---------------------------------------------

fn policy(flag: &str, text: &str) -> Result<PolicySpec> {
    PolicySpec::parse(text).or_else(|e| input(format_args!("--{flag}: {e}")))
}

fn threads_or_all(threads: Option<usize>) -> Result<usize> {
    match threads {
        Some(0) => input("--threads 0: give at least 1 thread (or leave it out for all cores)"),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

fn summary_path(text: &str) -> Option<PathBuf> {
    (!text.is_empty()).then(|| PathBuf::from(text))
}

/// A progress bar on stderr, hidden when stderr is not a terminal or when quiet.
fn progress_bar(total: u64, quiet: bool) -> indicatif::ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:40} {human_pos}/{human_len} games  {rate} games/s  ETA {eta}  ({elapsed})",
    )
    .map(|s| {
        s.with_key("rate", |state: &indicatif::ProgressState, w: &mut dyn fmt::Write| {
            let _ = write!(w, "{:.0}", state.per_sec());
        })
    });
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar
}

fn cmd_selfplay(a: SelfplayArgs, out: &mut impl Write) -> Result<()> {
    if a.games == 0 {
        return input("--games 0: a batch needs at least 1 game");
    }
    let shard = match &a.shard {
        Some(s) => Shard::parse(s).or_else(input)?,
        None => Shard::ALL,
    };
    let red = policy("red", &a.red)?;
    let blue = policy("blue", &a.blue)?;
    let draft_red = policy("draft-red", a.draft_red.as_deref().unwrap_or(&a.red))?;
    let draft_blue = policy("draft-blue", a.draft_blue.as_deref().unwrap_or(&a.blue))?;
    let threads = threads_or_all(a.threads)?;
    let batch = Batch { seed: a.seed, games: a.games, shard, matchup: Matchup { red, blue, draft_red, draft_blue } };
    let existing = if a.resume {
        Existing::Resume
    } else if a.force {
        Existing::Overwrite
    } else {
        Existing::Refuse
    };
    let outputs = Outputs { games: a.out.clone(), moves: a.moves.clone(), summary: summary_path(&a.summary), existing };
    let range = shard.range(a.games);
    let bar = progress_bar(range.end - range.start, a.quiet);
    let report =
        selfplay::run(&batch, &outputs, threads, &|done| bar.set_position(done - range.start)).or_else(input)?;
    bar.finish_and_clear();
    if !a.quiet {
        out.write_all(report.summary.table().as_bytes())?;
        let rate = report.played as f64 / report.seconds.max(1e-9);
        writeln!(
            out,
            "played {} games{} in {:.2} s on {threads} threads: {:.0} games/s ({:.0} per thread); wrote {}",
            report.played,
            if report.resumed > 0 { format!(" (after {} resumed)", report.resumed) } else { String::new() },
            report.seconds,
            rate,
            rate / threads as f64,
            a.out.display()
        )?;
    }
    Ok(())
}

/// An output file, refused if it exists and `force` is off.
fn create_output(path: &Path, force: bool) -> Result<std::fs::File> {
    if !force && path.exists() {
        return input(format_args!("{} already exists; pass --force to overwrite it", path.display()));
    }
    std::fs::File::create(path).or_else(|e| input(format_args!("cannot create {}: {e}", path.display())))
}

/// `+12.3` / `-inf` for Elo figures.
fn elo_text(x: f64) -> String {
    if x.is_infinite() { if x > 0.0 { "+inf".into() } else { "-inf".into() } } else { format!("{x:+.1}") }
}

fn cmd_arena(a: ArenaArgs, out: &mut impl Write) -> Result<()> {
    if a.games == 0 || a.games % 2 == 1 {
        return input(format_args!("--games {}: give an even number ≥ 2 (games are played in pairs)", a.games));
    }
    let agents = a
        .agents
        .iter()
        .enumerate()
        .map(|(i, t)| policy(&format!("agent {}", i + 1), t))
        .collect::<Result<Vec<PolicySpec>>>()?;
    let draft = if a.draft == "own" { None } else { Some(policy("draft", &a.draft)?) };
    let sprt = match &a.sprt {
        Some(t) => Some(Sprt::parse(t).or_else(|e| input(format_args!("--sprt {t}: {e}")))?),
        None => None,
    };
    let concurrency = match a.concurrency {
        Some(0) => return input("--concurrency 0: give at least 1"),
        Some(c) => c,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let arena = Arena {
        agents,
        draft,
        pairs: a.games / 2,
        seed: a.seed,
        schedule: if a.gauntlet {
            Schedule::Gauntlet
        } else if a.ladder {
            Schedule::Ladder
        } else {
            Schedule::RoundRobin
        },
        sprt,
    };
    arena.check().or_else(input)?;
    let pairings = arena.pairings();
    let mut games_csv = match &a.out {
        Some(p) => {
            let mut w = csv::Writer::from_writer(create_output(p, a.force)?);
            w.write_record(arena::GAMES_HEADER).map_err(|e| io::Error::other(e.to_string()))?;
            Some((p.clone(), w))
        }
        None => None,
    };
    let summary_file = match &a.summary {
        Some(p) => Some(create_output(p, a.force)?),
        None => None,
    };
    let bar = progress_bar(a.games * pairings.len() as u64, a.quiet);
    let started = Instant::now();
    let results = arena
        .run(concurrency, &|n| bar.set_position(n), |games| {
            if let Some((path, w)) = &mut games_csv {
                for g in games {
                    w.write_record(arena::game_row(&arena, &pairings, g))
                        .and_then(|()| w.flush().map_err(csv::Error::from))
                        .map_err(|e| selfplay::Error(format!("cannot write {}: {e}", path.display())))?;
                }
            }
            Ok(())
        })
        .or_else(input)?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    if let Some(f) = summary_file {
        let mut w = csv::Writer::from_writer(f);
        w.write_record(arena::SUMMARY_HEADER).map_err(|e| io::Error::other(e.to_string()))?;
        for r in &results {
            w.write_record(arena::summary_row(&arena, r)).map_err(|e| io::Error::other(e.to_string()))?;
        }
        w.flush()?;
    }
    let name = |i: usize| arena.agents[i].name.as_str();
    let width = arena.agents.iter().map(|s| s.name.len()).max().unwrap_or(0).max(6);
    writeln!(
        out,
        "{:<width$}  {:<width$}  {:>6}  {:>15}  {:>24}  {:>7}  {:>16}  {:>6}  {:>5}",
        "first", "second", "games", "W-D-L", "pentanomial 0-½-1-1½-2", "score", "Elo ±95%", "nElo", "LOS"
    )?;
    for r in &results {
        let e = r.estimate();
        let c = r.penta.counts;
        let half = (e.elo_hi - e.elo_lo) / 2.0;
        let elo = if half.is_finite() { format!("{} ±{half:.1}", elo_text(e.elo)) } else { elo_text(e.elo) };
        writeln!(
            out,
            "{:<width$}  {:<width$}  {:>6}  {:>15}  {:>24}  {:>6.1}%  {:>16}  {:>6.1}  {:>4.1}%",
            name(r.first),
            name(r.second),
            r.wdl.games(),
            format!("{}-{}-{}", r.wdl.wins, r.wdl.draws, r.wdl.losses),
            format!("{}-{}-{}-{}-{}", c[0], c[1], c[2], c[3], c[4]),
            100.0 * e.score,
            elo,
            e.nelo,
            100.0 * e.los
        )?;
        writeln!(
            out,
            "{:<width$}  {:<width$}  Elo interval [{}, {}], nElo ±{:.1}, draw ratio {:.1}%",
            "",
            "",
            elo_text(e.elo_lo),
            elo_text(e.elo_hi),
            e.nelo_err,
            100.0 * r.wdl.draw_ratio()
        )?;
        if let (Some((llr, d)), Some(t)) = (r.sprt, &arena.sprt) {
            let (lo, hi) = t.bounds();
            writeln!(
                out,
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.3} in [{lo:.3}, {hi:.3}]: {}",
                t.elo0,
                t.elo1,
                t.alpha,
                t.beta,
                d.map_or("undecided (games exhausted)".to_string(), |d| d.to_string())
            )?;
        }
    }
    if arena.schedule == Schedule::Ladder {
        writeln!(out, "ladder (first agent = 0; a step is strict when its match's 95% interval excludes 0)")?;
        for (i, l) in arena::ladder_ratings(&results).iter().enumerate() {
            let step = if i == 0 {
                ""
            } else if l.step_above_zero {
                "  strict step up"
            } else {
                "  step not significant"
            };
            writeln!(out, "{:<width$}  {:>8} ±{:<6.1}{step}", name(i), elo_text(l.elo), l.err)?;
        }
    }
    let played: u64 = results.iter().map(|r| r.wdl.games()).sum();
    writeln!(out, "played {played} games in {secs:.1} s on {concurrency} threads (draft: {})", a.draft)?;
    if let Some((p, _)) = &games_csv {
        writeln!(out, "games written to {}", p.display())?;
    }
    Ok(())
}

fn cmd_merge(
    inputs: &[PathBuf],
    path: &Path,
    summary: &str,
    force: bool,
    quiet: bool,
    out: &mut impl Write,
) -> Result<()> {
    let summary_file = summary_path(summary);
    if !force {
        for p in std::iter::once(path).chain(summary_file.as_deref()) {
            if p.exists() {
                return input(format_args!("{} already exists; pass --force to overwrite it", p.display()));
            }
        }
    }
    let s: Summary = selfplay::merge(inputs, path, force).or_else(input)?;
    if let Some(sp) = &summary_file {
        selfplay::write_summary(sp, &s, force).or_else(input)?;
    }
    if !quiet {
        out.write_all(s.table().as_bytes())?;
        writeln!(out, "merged {} games from {} files into {}", s.games(), inputs.len(), path.display())?;
    }
    Ok(())
}

fn cmd_bench(games: u64, policies: &str, threads: Option<usize>, seed: u64, out: &mut impl Write) -> Result<()> {
    if games == 0 {
        return input("--games 0: a measurement needs at least 1 game");
    }
    let threads = threads_or_all(threads)?;
    writeln!(
        out,
        "{:<24} {:>7} {:>9} {:>8} {:>12} {:>14} {:>10}",
        "policy", "threads", "games", "seconds", "games/s", "games/s/thread", "efficiency"
    )?;
    for name in policies.split(',') {
        let spec = policy("policies", name)?;
        let matchup = Matchup { red: spec.clone(), blue: spec.clone(), draft_red: spec.clone(), draft_blue: spec };
        let batch = Batch { seed, games, shard: Shard::ALL, matchup };
        let mut single = 0.0;
        let mut counts = vec![1];
        if threads > 1 {
            counts.push(threads);
        }
        for t in counts {
            let (s, secs) = selfplay::simulate(&batch, t).or_else(input)?;
            let rate = s.games() as f64 / secs.max(1e-9);
            if t == 1 {
                single = rate;
            }
            let eff = rate / (single * t as f64);
            writeln!(
                out,
                "{:<24} {:>7} {:>9} {:>8.3} {:>12.0} {:>14.0} {:>9.1}%",
                name,
                t,
                s.games(),
                secs,
                rate,
                rate / t as f64,
                100.0 * eff
            )?;
            out.flush()?;
        }
    }
    Ok(())
}

// ---- analyze, solve, bench-search ---------------------------------------

/// The state to search: the final position of a record (with its history),
/// or a position with no history.
fn search_root(pos: &[String], history: Option<&Path>) -> Result<SenatState> {
    let Some(file) = history else {
        if pos.is_empty() {
            return input("no position: give a position or --history FILE");
        }
        return Ok(SenatState::new(parse_position(&pos.join(" "))?));
    };
    let (name, record) = read_record(file)?;
    let mut game = Game::new(record.start);
    for (line, text) in &record.moves {
        let at = format!("{name}:{line}: move `{text}`");
        let m = match game.position().parse_move(text) {
            Ok(m) => m,
            Err(e) => return input(format_args!("{at}: {e}")),
        };
        if let Err(e) = game.play(m) {
            return input(format_args!("{at}: {}", MoveError::Illegal(e)));
        }
    }
    Ok(SenatState::from_game(&game))
}

fn line_text(pv: &[Move]) -> String {
    pv.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
}

/// A score for people: `win in N` / `loss in N` for forced results, else the number.
fn score_text(score: i32) -> String {
    if score > WIN_BOUND {
        format!("win in {}", WIN - score)
    } else if score < -WIN_BOUND {
        format!("loss in {}", WIN + score)
    } else {
        score.to_string()
    }
}

/// The `--threads` of a search: 1 or more.
fn search_threads(threads: usize) -> Result<NonZeroUsize> {
    NonZeroUsize::new(threads).map_or_else(|| input("--threads 0: expected 1 or more search threads"), Ok)
}

fn cmd_analyze(
    root: &SenatState,
    engine: &str,
    depth: Option<u32>,
    time: Option<f64>,
    tt_mb: usize,
    threads: NonZeroUsize,
    out: &mut impl Write,
) -> Result<()> {
    if engine != "ab" {
        return input(format_args!("--engine `{engine}`: unknown engine (accepted: ab, mcts)"));
    }
    let time = seconds(time)?;
    if depth.is_none() && time.is_none() {
        return input("give --depth N, --time S or both");
    }
    if let Some(o) = root.outcome() {
        return input(format_args!("the game is over ({o})"));
    }
    let limits = Limits { depth: depth.unwrap_or(64), nodes: None, time };
    let mut searcher = Searcher::<Senat, SenatEval>::new(SenatEval::default(), tt_mb);
    searcher.set_threads(threads);
    let r = searcher.search(root, limits);
    for it in &r.iterations {
        writeln!(
            out,
            "depth {:>2}  score {:>10}  nodes {:>11}  time {:>8.3}s  pv {}",
            it.depth,
            score_text(it.score),
            it.nodes,
            it.elapsed.as_secs_f64(),
            line_text(&it.pv)
        )?;
    }
    let best = r.best.map_or("(none)".to_string(), |m| m.to_string());
    writeln!(out, "bestmove {best}")?;
    writeln!(out, "score {} ({} to move)", score_text(r.score), root.position().side_to_move())?;
    writeln!(out, "pv {}", line_text(&r.pv))?;
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

/// A `--time` in seconds, checked.
fn seconds(time: Option<f64>) -> Result<Option<Duration>> {
    match time {
        Some(t) if !(t.is_finite() && t > 0.0) => input(format_args!("--time {t}: expected seconds > 0")),
        t => Ok(t.map(Duration::from_secs_f64)),
    }
}

/// `random` or `greedy`, for --rollout.
fn parse_rollout(text: &str) -> std::result::Result<SenatRollout, String> {
    match text {
        "random" => Ok(SenatRollout::Random),
        "greedy" => Ok(SenatRollout::Greedy),
        _ => Err(format!("`{text}`: expected random or greedy")),
    }
}

fn cmd_analyze_mcts(
    root: &SenatState,
    config: mcts::Config,
    rollout: SenatRollout,
    seed: u64,
    out: &mut impl Write,
) -> Result<()> {
    if let Some(o) = root.outcome() {
        return input(format_args!("the game is over ({o})"));
    }
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
    writeln!(out, "pv {}", line_text(&r.pv))?;
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
fn spread(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[0], v[v.len() / 2], v[v.len() - 1])
}

fn cmd_bench_mcts(
    root: &SenatState,
    playouts: u64,
    threads: usize,
    repeat: usize,
    seed: u64,
    rollout: SenatRollout,
    out: &mut impl Write,
) -> Result<()> {
    if let Some(o) = root.outcome() {
        return input(format_args!("the game is over ({o})"));
    }
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
    let (bare, one, many) = (spread(bare), spread(one), spread(many));
    writeln!(
        out,
        "{playouts} playouts per measurement, {repeat} repetitions, {rollout:?} rollouts (min / median / max playouts/s)"
    )?;
    writeln!(out, "bare rollouts, 1 thread   {:>9.0} {:>9.0} {:>9.0}", bare.0, bare.1, bare.2)?;
    writeln!(out, "MCTS, 1 thread            {:>9.0} {:>9.0} {:>9.0}", one.0, one.1, one.2)?;
    writeln!(out, "MCTS, {threads} threads {:>13.0} {:>9.0} {:>9.0}", many.0, many.1, many.2)?;
    writeln!(out, "tree overhead: MCTS 1 thread / bare = {:.3} (medians)", one.1 / bare.1)?;
    let (share, in_tree, bare_t) = (spread(tree_share).1, spread(in_tree_len).1, spread(bare_len).1);
    writeln!(
        out,
        "  MCTS time outside rollouts {:.1}%; a rollout from the tree's leaves takes {:.2} µs, from the root {:.2} µs",
        100.0 * share,
        1e6 * in_tree,
        1e6 * bare_t
    )?;
    writeln!(
        out,
        "scaling: {threads} threads / 1 thread = {:.3} (medians), {:.1}% of linear",
        many.1 / one.1,
        100.0 * many.1 / one.1 / threads as f64
    )?;
    Ok(())
}

/// The options of `senat solve`.
struct SolveOptions {
    max_depth: u32,
    time: Option<f64>,
    tt_mb: usize,
    each_move: bool,
}

/// A verdict in words, `me` being the side to move.
fn verdict_text(v: Verdict, me: senat::Side, max_depth: u32) -> String {
    match v {
        Verdict::Win(n) => format!("{me} (to move) wins within {n} plies"),
        Verdict::Loss(n) => format!("{} wins within {n} plies ({me} to move loses)", me.other()),
        Verdict::Draw(n) => format!("draw: both sides hold at least a draw, the game ends within {n} plies"),
        Verdict::Unknown => format!("unknown within {max_depth} plies"),
    }
}

fn cmd_solve(root: &SenatState, o: &SolveOptions, out: &mut impl Write) -> Result<()> {
    let mut solver = Solver::<Senat>::with_table_mb(o.tt_mb);
    solver.time_limit = match o.time {
        Some(t) if !(t.is_finite() && t > 0.0) => return input(format_args!("--time {t}: expected seconds > 0")),
        t => t.map(std::time::Duration::from_secs_f64),
    };
    let me = root.position().side_to_move();
    let rate = |nodes: u64, t: std::time::Duration| nodes as f64 / t.as_secs_f64().max(1e-9);
    if o.each_move {
        if let Some(end) = root.outcome() {
            return input(format_args!("the game is over ({end})"));
        }
        let (mut nodes, mut time) = (0, std::time::Duration::ZERO);
        let mut moves = Vec::new();
        <Senat as senat::search::Game>::moves(root, &mut moves);
        for m in moves {
            let sol = solver.solve_move(root, m, o.max_depth);
            let stop = if sol.timed_out { format!("  (time out after depth {})", sol.depth) } else { String::new() };
            writeln!(
                out,
                "move {m:<12} verdict {}  nodes {}  time {:.3}s{stop}  pv {}",
                verdict_text(sol.verdict, me, o.max_depth),
                sol.nodes,
                sol.elapsed.as_secs_f64(),
                line_text(&sol.pv)
            )?;
            out.flush()?;
            nodes += sol.nodes;
            time += sol.elapsed;
        }
        writeln!(out, "total  nodes {nodes}  time {:.3}s  nodes/s {:.0}", time.as_secs_f64(), rate(nodes, time))?;
        return Ok(());
    }
    let sol = solver.solve(root, o.max_depth);
    writeln!(out, "verdict {}", verdict_text(sol.verdict, me, o.max_depth))?;
    writeln!(out, "pv {}", line_text(&sol.pv))?;
    let stop = if sol.timed_out { "  (time out)" } else { "" };
    writeln!(
        out,
        "depth {}  nodes {}  time {:.3}s  nodes/s {:.0}{stop}",
        sol.depth,
        sol.nodes,
        sol.elapsed.as_secs_f64(),
        rate(sol.nodes, sol.elapsed)
    )?;
    Ok(())
}

fn cmd_bench_search(
    depth: u32,
    tt_mb: usize,
    threads: NonZeroUsize,
    no_history: bool,
    out: &mut impl Write,
) -> Result<()> {
    let root = SenatState::new(sample_start()?);
    let run = |t: NonZeroUsize| {
        let mut searcher = Searcher::<Senat, SenatEval>::new(SenatEval::default(), tt_mb);
        searcher.set_threads(t);
        searcher.set_history(!no_history);
        searcher.search(&root, Limits::depth(depth))
    };
    let one = run(NonZeroUsize::MIN);
    bench_line(&one, tt_mb, out)?;
    if threads.get() > 1 {
        let many = run(threads);
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

fn bench_line(r: &Report<Move>, tt_mb: usize, out: &mut impl Write) -> Result<()> {
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
