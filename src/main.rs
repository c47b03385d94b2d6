//! `senat`: the command-line front end of the Sénat engine.
//!
//! Every command reads positions and moves in the project's notation (SPN
//! and move text, see `NOTATION.md`) and writes the same notation back, so
//! that its output can be pasted into another command or another tool.
//!
//! Errors are one line on stderr, prefixed `senat: error: `, with exit
//! code 2 for usage and input errors; a closed stdout (`| head`) ends the
//! program quietly.

mod cli;

use clap::{Args, Parser, Subcommand};
use cli::annex::{DraftStatsArgs, cmd_draft_stats};
use cli::batch::{cmd_arena, cmd_bench, cmd_merge, cmd_selfplay};
use cli::search::{
    SolveOptions, cmd_analyze, cmd_analyze_mcts, cmd_bench_mcts, cmd_bench_search, cmd_solve, parse_rollout,
    search_root, search_threads, seconds,
};
use senat_rules::notation::escape;
use senat_rules::perft::{divide, perft, perft_full};
use game_search::mcts;
use senat_lab::adapter::{SenatRollout, SenatState};
use senat_lab::{limits, render};
use senat_rules::{Game, Move, MoveError, Position, sample};
use std::fmt;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

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
  senat replay crates/rules/data/sample-game.txt --quiet
  senat selfplay --games 100000 --red greedy --blue random --out games.csv --force

Positions are written in SPN and moves in move text, as in the project's NOTATION.md.

Errors are one line on stderr, `senat: error: ...` (exit 2), input echoed with
control characters escaped. Numbers are bounded: times above 0 and at most a year,
megabytes at most half of MemTotal (/proc/meminfo), threads at most 4 per core
(64 always accepted), depths at most 120 plies, weights within ±1e6.";

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
        /// Number of half-moves (plies) to look ahead, 0 to 120; 0 counts the position itself.
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
    /// lines are ignored; a byte-order mark at the start of the file is
    /// skipped. A record is at most 16 MiB of UTF-8 text, with lines of at
    /// most 4096 bytes. The command fails (exit 2) at the first unparsable
    /// or illegal move, naming its line.
    #[command(after_help = "\
Examples:
  senat replay crates/rules/data/sample-game.txt          # every position, then the result
  senat replay crates/rules/data/sample-game.txt --quiet  # the result only")]
    Replay {
        /// The game record to play.
        file: PathBuf,
        /// Print only the result, not the position after each move.
        #[arg(short, long)]
        quiet: bool,
        /// Never colour with terminal escapes: write the colour as a letter.
        #[arg(long)]
        plain: bool,
        /// Also draw every ply as an SVG picture into this folder (ply-000.svg, …).
        #[arg(long, value_name = "DIR")]
        svg: Option<PathBuf>,
        /// With --svg: overwrite existing pictures.
        #[arg(long, requires = "svg")]
        force: bool,
    },

    /// Draw the board of a position, or of a ply of a game record, as an SVG
    /// or PNG picture (the rules' figure: three rows, the door, the piles).
    #[command(after_help = "\
Examples:
  senat render sample --out board.svg
  senat render crates/rules/data/sample-game.txt --ply 5 --out ply5.png
  senat render '.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 0' --out start.svg
The same input always gives the same bytes. Existing files are kept unless --force.")]
    Render(cli::view::RenderArgs),

    /// Write a game viewer: one self-contained HTML page that steps through a
    /// game record, or a game of a selfplay games file, ply by ply.
    #[command(after_help = "\
Examples:
  senat view crates/rules/data/sample-game.txt --out game.html
  senat view games.csv --game 12 --out game12.html
Open the page in a browser; `#ply=N` in its address opens ply N; arrow keys step.")]
    View(cli::view::ViewArgs),

    /// Play a game against an engine in the terminal (the draft included):
    /// type moves in move text, or `help` for the commands.
    #[command(after_help = "\
Examples:
  senat play                                  # you are blue, against the heuristic policy
  senat play --engine 'mcts:playouts=200' --as red
  senat play --engine 'ab:depth=2' --from sample
Commands at the prompt: <move>, moves, hint, undo, board, save FILE, quit, help.")]
    Play(cli::view::PlayArgs),

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
        /// thread count (without --time). Alpha-beta helper threads never search
        /// deeper than the main thread, so a depth-d line is a depth-d result.
        /// At most 4 per core (64 always accepted).
        #[arg(long, value_name = "T", default_value_t = 1)]
        threads: usize,
        /// MCTS: seed of the playouts.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// MCTS: UCT exploration constant.
        #[arg(long, value_name = "C", default_value_t = 1.0)]
        c: f64,
        /// MCTS: memory cap of the trees in megabytes (at most half the
        /// machine's memory, MemTotal of /proc/meminfo; 16384 if unreadable).
        #[arg(long, value_name = "M", default_value_t = 512)]
        memory_mb: usize,
        /// MCTS: rollout policy, `random` or `greedy` (scoring pushes first, no gifts).
        #[arg(long, default_value = "random", value_parser = parse_rollout)]
        rollout: SenatRollout,
        /// Deepest iteration in plies (1 to 120).
        #[arg(long, value_name = "N")]
        depth: Option<u32>,
        /// Time limit in seconds (above 0, at most 31536000: a year).
        #[arg(long, value_name = "S")]
        time: Option<f64>,
        /// Transposition table size in megabytes (0: none; at most half the
        /// machine's memory, MemTotal of /proc/meminfo; 16384 if unreadable).
        #[arg(long, value_name = "M", default_value_t = 64)]
        tt_mb: usize,
        /// A game record whose final position is searched, with its repetition history.
        #[arg(long, value_name = "FILE")]
        history: Option<PathBuf>,
    },

    /// Prove a win, loss or draw within --max-depth plies, or say it is
    /// unknown: no heuristic enters the verdict.
    ///
    /// `--engine ab` (the default): alpha-beta AND/OR searches at horizons
    /// 1, 2, ... in turn, so a win or loss is the fastest one. `--engine
    /// pns`: depth-first proof-number search (df-pn) at the horizon
    /// --max-depth directly, best-first, so narrow forcing lines are followed
    /// deep; a win or loss is then within the length of the proof found (not
    /// always the shortest). `--engine pns-id`: df-pn at horizons 1, 2, ...
    /// in turn (the fastest win or loss, as `ab`). With --history, the final
    /// position of the record is solved with the record's repetition history.
    #[command(after_help = "\
Examples:
  senat solve '.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb b - 4-4-13 0' --max-depth 3
  senat solve --history game.txt --max-depth 9 --time 60
  senat solve --history game.txt --max-depth 15 --engine pns --time 60
  senat solve --history game.txt --max-depth 7 --each-move")]
    Solve {
        /// The position (ignored with --history).
        #[arg(value_name = "POS", num_args = 0.., help = POS_HELP)]
        pos: Vec<String>,
        /// A game record whose final position is solved, with its repetition history.
        #[arg(long, value_name = "FILE")]
        history: Option<PathBuf>,
        /// The largest horizon in plies (1 to 120).
        #[arg(long, value_name = "N")]
        max_depth: u32,
        /// Stop after about S seconds (per move with --each-move); the
        /// verdict is then that of the completed horizons.
        #[arg(long, value_name = "S")]
        time: Option<f64>,
        /// Table size in megabytes (at most half the machine's memory,
        /// MemTotal of /proc/meminfo; 16384 if unreadable).
        #[arg(long, value_name = "M", default_value_t = 256)]
        tt_mb: usize,
        /// Solve each legal move in turn: one line per move with the verdict
        /// for the side to move if it plays it (horizon --max-depth, the move included).
        #[arg(long)]
        each_move: bool,
        /// The prover: `ab` (iterative-deepening alpha-beta), `pns` (df-pn at
        /// the horizon) or `pns-id` (df-pn at horizons 1, 2, ...).
        #[arg(long, value_name = "ENGINE", default_value = "ab")]
        engine: String,
        /// With --engine pns or pns-id: only ask whether SIDE (`red` or
        /// `blue`) forces a win within --max-depth (all the time goes to it).
        #[arg(long, value_name = "SIDE")]
        prove: Option<String>,
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
        /// Search depth in plies (1 to 120).
        #[arg(long, default_value_t = 5)]
        depth: u32,
        /// Transposition table size in megabytes (at most half the machine's memory).
        #[arg(long, default_value_t = 64)]
        tt_mb: usize,
        /// Threads of the second search (1: only the single-threaded one).
        #[arg(long, value_name = "T", default_value_t = 1)]
        threads: usize,
        /// Turn the history heuristic off (to measure what it gains).
        #[arg(long)]
        no_history: bool,
    },

    /// The strategy annex: read games files and write tables of the draft,
    /// the openings, game lengths and end reasons (CSV, Wilson 95%
    /// intervals), and optionally plots (SVG and PNG). See the README.
    #[command(after_help = "\
Examples:
  senat draft-stats games.csv --out-dir annex
  senat draft-stats random.csv heuristic.csv --out-dir annex --plot annex/plots --force
  senat draft-stats games.csv --moves moves.csv --out-dir annex --plot plots")]
    DraftStats(DraftStatsArgs),
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
    /// Stop a two-agent match when the SPRT decides:
    /// elo0=E0,elo1=E1,alpha=A,beta=B[,model=logistic|normalized] (fishtest's
    /// generalized SPRT on pentanomial counts; logistic Elo by default).
    #[arg(long, value_name = "SPEC")]
    sprt: Option<String>,
    /// Games played at once (default: all cores; at most 4 per core, and
    /// at least 64 are always accepted).
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
    /// Worker threads (default: all cores; at most 4 per core, and at
    /// least 64 are always accepted). Never changes the output.
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
    /// Force the first moves of every game: a file of moves in move text,
    /// one per line from the start of the draft (`#` starts a comment).
    #[arg(long, value_name = "FILE")]
    opening: Option<PathBuf>,
    /// Force blue's first give (`g3`): the one-move opening `gN`.
    #[arg(long, value_name = "gN", conflicts_with = "opening")]
    force_first_give: Option<String>,
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
            use clap::error::ErrorKind;
            // Help and version go to stdout with code 0; usage errors are one line, code 2.
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            let line = if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                "no command given (see `senat --help`)".to_string()
            } else {
                // Clap echoes arguments raw: escape them before the lines are joined.
                let mut args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
                args.sort_by_key(|a| std::cmp::Reverse(a.len()));
                let rendered =
                    args.iter().filter(|a| escape(a) != **a).fold(e.to_string(), |r, a| r.replace(a, &escape(a)));
                clap_error_line(&rendered)
            };
            eprintln!("senat: error: {line}");
            return ExitCode::from(2);
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

/// A clap error message (`error: …`, details, `Usage: …`, a tip) as one
/// line: the message and its details joined by `; `, control characters
/// escaped, and a hint to the `--help` of the command the usage names.
fn clap_error_line(rendered: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    // Without a usage line, the command is the first argument if it names one.
    let mut command = match std::env::args().nth(1) {
        Some(sub) if <Cli as clap::CommandFactory>::command().find_subcommand(&sub).is_some() => format!("senat {sub}"),
        _ => "senat".to_string(),
    };
    for line in rendered.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(usage) = line.strip_prefix("Usage:") {
            let words: Vec<&str> = usage.split_whitespace().take_while(|w| !w.starts_with(['[', '<', '-'])).collect();
            if !words.is_empty() {
                command = words.join(" ");
            }
        } else if !line.starts_with("For more information") {
            let line = line.strip_prefix("error: ").unwrap_or(line);
            match parts.last_mut() {
                // The items of a list introduced by a colon follow it on the same line.
                Some(last) if last.ends_with(':') => {
                    last.push(' ');
                    last.push_str(line);
                }
                _ => parts.push(line.to_string()),
            }
        }
    }
    let message = escape(&parts.join("; "));
    format!("{message} (see `{command} --help`)")
}

fn run(command: Command, out: &mut impl Write, colour: bool) -> Result<()> {
    match command {
        Command::Moves(pos) => cmd_moves(&pos.resolve()?, out),
        Command::Perft { pos, depth, divide, full } => {
            let depth = limits::depth("--depth", depth, 0).or_else(input)?;
            cmd_perft(&pos.resolve()?, depth, divide, full, out)
        }
        Command::Show { pos, plain } => {
            let p = pos.resolve()?;
            write_position(out, &p, colour && !plain)
        }
        Command::Replay { file, quiet, plain, svg, force } => {
            cmd_replay(&file, quiet, colour && !plain, out)?;
            match svg {
                Some(dir) => cli::view::replay_pictures(&file, &dir, force, out),
                None => Ok(()),
            }
        }
        Command::Render(a) => cli::view::cmd_render(a, out),
        Command::View(a) => cli::view::cmd_view(a, out),
        Command::Play(a) => cli::view::cmd_play(a, out, colour, &mut io::stdin().lock()),
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
                    if !(c.is_finite() && c >= 0.0) {
                        return input(format_args!("--c {c}: expected a finite number ≥ 0"));
                    }
                    let threads = limits::threads("--threads", threads).or_else(input)?;
                    let memory_mb = limits::megabytes("--memory-mb", memory_mb, 1).or_else(input)?;
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
                        memory: limits::mb_to_bytes(memory_mb).unwrap_or(usize::MAX),
                        threads,
                    };
                    cmd_analyze_mcts(&root, config, rollout, seed, out)
                }
                _ => cmd_analyze(&root, &engine, depth, time, tt_mb, search_threads(threads)?, out),
            }
        }
        Command::Arena(a) => {
            if let Some(c) = a.concurrency.filter(|&c| c > 0) {
                limits::threads("--concurrency", c).or_else(input)?;
            }
            cmd_arena(a, out)
        }
        Command::DraftStats(a) => cmd_draft_stats(a, out),
        Command::BenchMcts { pos, playouts, threads, repeat, seed, rollout } => {
            let p = if pos.is_empty() { sample_start()? } else { parse_position(&pos.join(" "))? };
            let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            if threads == 0 || playouts == 0 || repeat == 0 {
                return input("--threads, --playouts and --repeat must be ≥ 1");
            }
            let threads = limits::threads("--threads", threads).or_else(input)?;
            cmd_bench_mcts(&SenatState::new(p), playouts, threads, repeat, seed, rollout, out)
        }
        Command::Solve { pos, history, max_depth, time, tt_mb, each_move, engine, prove } => {
            let opts = SolveOptions { max_depth, time, tt_mb, each_move, engine, prove };
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
            input(format_args!("`{}` is not a position: expected `start`, `sample` or an SPN", escape(word)))
        }
        spn => spn.parse().or_else(|e| input(format_args!("{e} in `{}`", escape(spn)))),
    }
}

/// The position after the draft of the sample game of the rules.
fn sample_start() -> Result<Position> {
    sample::START.parse().or_else(|e| input(format_args!("senat_rules::sample::START: {e}")))
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

/// Reads an opening file (moves from the start of the draft, one per line,
/// `#` comments) and checks each move in turn, naming its line on error.
fn read_opening(file: &Path) -> Result<Vec<Move>> {
    let name = escape(&file.display().to_string());
    let text = limits::read_text(file).map_err(|e| Failure::Input(escape(&e.to_string())))?;
    opening_moves(&name, &text)
}

/// The moves of an opening text (see [`read_opening`]); `name` is used in messages.
fn opening_moves(name: &str, text: &str) -> Result<Vec<Move>> {
    let moves = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("").trim().to_string()))
        .filter(|(_, line)| !line.is_empty())
        .collect();
    let record = Record { start: Position::start(), moves };
    let mut played = Vec::new();
    play_record(name, &record, |_, m, _| {
        played.push(m);
        Ok(())
    })?;
    Ok(played)
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
    let name = escape(&file.display().to_string());
    let text = limits::read_text(file).map_err(|e| Failure::Input(escape(&e.to_string())))?;
    let record = parse_record(&name, &text)?;
    Ok((name, record))
}

fn cmd_replay(file: &Path, quiet: bool, ansi: bool, out: &mut impl Write) -> Result<()> {
    let (name, record) = read_record(file)?;
    if !quiet {
        writeln!(out, "start")?;
        write_position(out, &record.start, ansi)?;
    }
    let game = play_record(&name, &record, |ply, m, game| {
        if !quiet {
            writeln!(out, "\n{}. {m}", ply + 1)?;
            write_position(out, game.position(), ansi)?;
        }
        Ok(())
    })?;
    if !quiet {
        writeln!(out)?;
    }
    writeln!(out, "{}", result_line(&game))?;
    Ok(())
}

/// Plays a record's moves from its start, checking each, and returns the
/// game; `each(ply, move, game)` is called after every move (ply from 0).
/// Fails at the first unparsable or illegal move, naming its line.
fn play_record(name: &str, record: &Record, mut each: impl FnMut(usize, Move, &Game) -> Result<()>) -> Result<Game> {
    let mut game = Game::new(record.start);
    for (ply, (line, text)) in record.moves.iter().enumerate() {
        let at = format!("{name}:{line}: move `{}`", escape(text));
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
        each(ply, m, &game)?;
    }
    Ok(game)
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
