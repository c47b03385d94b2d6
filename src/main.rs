//! `senat`: the command-line front end of the Sénat engine.
//!
//! Every command reads positions and moves in the project's notation (SPN
//! and move text, see `crates/rules/NOTATION.md`) and writes the same notation back, so
//! that its output can be pasted into another command or another tool.
//!
//! Errors are one line on stderr, prefixed `senat: error: `, with exit
//! code 2 for usage and input errors; a closed stdout (`| head`) ends the
//! program quietly.

mod cli;

use clap::{Parser, Subcommand};
use cli::common::{Failure, Result};
use cli::{
    annex, annotate, arena, batch, bestmove, design, explore, fit_leaf, metrics, play, rules, search, serve, train_net,
    tune, view,
};
use senat_rules::notation::escape;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

// ---- command line -------------------------------------------------------

const EXAMPLES: &str = "\
Examples:
  senat moves start
  senat perft sample --depth 3 --divide
  senat show '.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 0'
  senat replay crates/rules/data/sample-game.txt --quiet
  senat selfplay --games 100000 --red greedy --blue random --out games.csv --force

Positions are written in SPN and moves in move text, as in crates/rules/NOTATION.md
(Sénat; every other game in crates/GAME/NOTATION.md; docs/notation.md sums them up).

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
    Moves(rules::MovesArgs),

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
    Perft(rules::PerftArgs),

    /// Draw the board of a position with ▲■● symbols, then print its SPN.
    #[command(after_help = "\
Examples:
  senat show sample
  senat show sample --plain   # colours as letters r, b, w after each symbol
Colours use terminal escapes when stdout is a terminal (unless NO_COLOR is set).")]
    Show(rules::ShowArgs),

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
  senat replay crates/rules/data/sample-game.txt --quiet  # the result only
  senat replay games.csv --index 3 --quiet                # game 3 of a batch file (any game: it names its game)
Which file of a batch holds a game, for every game: docs/formats.md, \"Which file holds a game\".")]
    Replay(rules::ReplayArgs),

    /// Draw the board of a position, or of a ply of a game record, as an SVG
    /// or PNG picture (the rules' figure: three rows, the door, the piles).
    #[command(after_help = "\
Examples:
  senat render sample --out board.svg
  senat render crates/rules/data/sample-game.txt --ply 5 --out ply5.png
  senat render '.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 0' --out start.svg
The same input always gives the same bytes. Existing files are kept unless --force.")]
    Render(view::RenderArgs),

    /// Write a game viewer: one self-contained HTML page that steps through a
    /// game record, or a game of a batch file of any game (`--index N`: a
    /// games or moves file of selfplay, an arena's moves file; the file
    /// names its game), ply by ply.
    #[command(after_help = "\
Examples:
  senat view crates/rules/data/sample-game.txt --out game.html
  senat view games.csv --index 12 --out game12.html
  senat view focus-moves.csv --index 3 --out focus3.html
  senat view dominoes-moves.csv --index 0 --seat 1 --out match.html
  senat view --game focus focus-record.txt --out focus.html      # a record names no game: --game
  senat view games.csv --index 12 --annotate top --out game12.html  # annotated, then shown
Which file of a batch holds a game, for every game: docs/formats.md, \"Which file holds a game\".
Open the page in a browser; `#ply=N` in its address opens ply N; arrow keys step.
Dominoes pages show one seat's view (player 0 unless --seat) unless --reveal.
An annotated record (senat annotate, or --annotate here) adds the engine's win probability as a
bar beside the board and a graph, the marks ?! ? ?? in the move list and on the graph, each
side's accuracy (mean loss of win probability per move) and a switch of point of view.")]
    View(view::ViewArgs),

    /// The opening explorer: one page (and a CSV) of the first moves of
    /// the games of batch files of any game, lichess's explorer for
    /// self-play: at each prefix every next move with its games and the
    /// first player's score with a 95% interval, filterable by the agents
    /// that played them.
    #[command(after_help = "\
Examples:
  senat explore games.csv --out explorer.html                     # a Sénat batch: its drafts
  senat explore a.csv b.csv --depth 20 --csv openings.csv          # two batches pooled, 20 moves deep
  senat explore focus-moves.csv --min-games 50                      # another game: its moves file
Every game is replayed from its start (each move checked, the result the rules'); the files are
streamed and only the tree of prefixes is held, so millions of games fit. The files must be of one
game and one variant. The score is the points of the player who moves first (blue in Sénat, white
in Focus, player 0 in dominoes), a draw counting half; games that ended unfinished (a ply cap)
count as draws and are counted in the output. Chance moves (dominoes' deals and draws) are left
out of the prefixes: a dominoes tree is of decisions. The page needs no network and runs only its own
script; the agent filter lists each pairing as the files name it (red/blue, first/second).")]
    Explore(explore::ExploreArgs),

    /// Serve the analysis board on this machine (http://127.0.0.1:8760/):
    /// one page for every game that opens a batch game, a record, a position
    /// or a new game, steps through it, plays moves, asks an agent to reply,
    /// analyses the shown position with the engine at a bounded budget, and
    /// downloads the record.
    #[command(after_help = serve::SERVE_HELP)]
    Serve(serve::ServeArgs),

    /// Play a game against an engine in the terminal (Sénat with its draft,
    /// or --game focus|focus4|debacle|connect4|dominoes): type moves in move text,
    /// or `help` for the commands.
    #[command(after_help = "\
Examples:
  senat play                                  # you are blue, against the heuristic policy
  senat play --engine 'mcts:playouts=200' --as red
  senat play --engine 'ab:depth=2' --from sample
  senat play --game focus --as black --engine mcts
  senat play --game focus4 --as north          # the engine plays your partner (south) too
  senat play --game debacle --variant target=10
  senat play --game dominoes --players 3 --as 1 --engine ismcts
Commands at the prompt: <move>, moves, hint, undo, board, legend, save FILE, quit, help
(dominoes: no undo, and a record is saved once the match is over).", after_long_help = named_help(false))]
    Play(play::PlayArgs),

    /// Play a batch of complete games (draft and play) between two policies,
    /// in parallel, and write one CSV row per game plus a summary.
    ///
    /// Game i draws all its randomness from a generator seeded from (seed, i):
    /// the files are byte-identical for any --threads, and the union of the
    /// shards of --shard K/N is the unsharded run. Existing files are never
    /// overwritten without --force; --resume continues a games file where it
    /// stops (an interrupted run), without losing or repeating a game.
    #[command(after_help = selfplay_help(false), after_long_help = selfplay_help(true))]
    Selfplay(batch::SelfplayArgs),

    /// Concatenate games files of the shards of one batch into one games file
    /// (in game order, checking that no game is missing or repeated) and
    /// write their summary.
    #[command(after_help = "\
Examples:
  senat merge --out games.csv --summary summary.csv shard-*.csv")]
    Merge(batch::MergeArgs),

    /// Convert a batch CSV (a games, moves, rounds or summary file) to Parquet.
    ///
    /// Typed columns (integers INT64, unsigned ones beyond i64 UINT_64,
    /// other numbers DOUBLE, the rest UTF-8; an empty cell is a null), the
    /// `#` identity line in the file's key-value metadata (senat.identity).
    /// `selfplay --format parquet` does this at the end of a run. Any other
    /// CSV is refused.
    #[command(after_help = "\
Examples:
  senat convert games.csv                         # -> games.parquet
  senat convert moves.csv --out m.parquet --force
Reading them (Python): pandas.read_parquet('games.parquet'), polars.read_parquet('games.parquet');
the identity: pyarrow.parquet.read_metadata('games.parquet').metadata[b'senat.identity'].")]
    Convert(batch::ConvertArgs),

    /// Measure complete games per second (draft included, nothing written)
    /// for each policy against itself, on one thread and on --threads
    /// threads, and the scaling efficiency.
    #[command(after_help = "\
Examples:
  senat bench
  senat bench --games 200000 --policies random,greedy,heuristic --threads 2")]
    Bench(batch::BenchArgs),

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
    Analyze(search::AnalyzeArgs),

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
    Solve(search::SolveArgs),

    /// Play matches between agents and rate them: games in colour-swapped
    /// pairs from the same seed, W/D/L and pentanomial counts, Elo with a 95%
    /// interval, normalized Elo, LOS and draw ratio per pairing.
    ///
    /// Every game (`--game`). Sénat's agents are policies (`senat selfplay
    /// --help` lists them): random, greedy, heuristic[:weights],
    /// mcts[:playouts=N,c=C,…,movetime=MS], ab[:depth=N,tt=M,movetime=MS],
    /// DRAFT>PLAY (its draft half drafts with --draft own); the other games'
    /// agents are listed below. Each agent's thinking time per game (mean,
    /// in ms) is reported beside its results; --time-per-move gives every
    /// searching agent the same time per move, to compare strength at equal
    /// time. In pair k both games use game seed (seed, k): with the default
    /// shared draft (--draft random) both start from the same draft, each
    /// agent playing red once; the other games swap colours (dominoes deals
    /// the same hands with the seats rotated). Results never depend on
    /// --threads (unless agents search for a time per move).
    #[command(after_help = "\
Examples:
  senat arena random greedy heuristic --games 400
  senat arena heuristic 'ab:depth=2' 'mcts:playouts=1000' --gauntlet --games 200 --out arena.csv --force
  senat arena random greedy heuristic 'ab:depth=2' --ladder --games 200
  senat arena 'ab:depth=3' 'ab:depth=2' --games 2000 --sprt elo0=0,elo1=20,alpha=0.05,beta=0.05
  senat arena mcts ab 'heuristic>mcts' --time-per-move 100 --draft own --games 200
  senat arena --game focus greedy 'ab:depth=2' top --games 200", after_long_help = agents_help())]
    Arena(arena::ArenaArgs),

    /// Print one agent's move in a position: the move alone on the last
    /// line of stdout (for `tail -1`), the agent's account on stderr (a
    /// search's value and visits or score and depth, its principal line).
    ///
    /// For every game: Sénat (a policy spec; --history FILE gives the game
    /// so far, so that repetition counts), --game focus|focus4|debacle|connect4 (an
    /// agent spec), --game dominoes (a dominoes agent; the position is an
    /// observation of the player to decide). The same --seed gives the same
    /// move (unless the spec searches for a time, movetime=). Errors (a bad
    /// spec or position, a game over, no legal move) are one line, exit 2.
    #[command(after_help = BESTMOVE_EXAMPLES, after_long_help = bestmove_help())]
    Bestmove(bestmove::BestmoveArgs),

    /// Annotate a game record: for every ply, the agent's win
    /// probability for the side to move, its best move and line, and a mark
    /// (?! ? ??) where the move played lost 0.05 / 0.10 / 0.20 or more of it.
    /// The output is still a record (`senat replay` reads it).
    #[command(after_help = annotate::MARKS_HELP)]
    Annotate(annotate::AnnotateArgs),

    /// Measure MCTS playouts per second on one thread and on several, against
    /// bare random rollouts from the same position (the tree's overhead).
    ///
    /// Each measurement is repeated --repeat times; min, median and max are
    /// printed. The position is the sample game's start unless given.
    #[command(after_help = "\
Examples:
  senat bench-mcts --playouts 20000 --threads 2
  senat bench-mcts start --playouts 5000 --repeat 5")]
    BenchMcts(search::BenchMctsArgs),

    /// Measure alpha-beta nodes per second and time to depth on the sample
    /// game's start; with --threads T above 1, also with T threads (a fresh
    /// table each), and the speedup.
    #[command(after_help = "\
Examples:
  senat bench-search --depth 5
  senat bench-search --depth 7 --threads 2")]
    BenchSearch(search::BenchSearchArgs),

    /// The strategy annex: read games files and write tables of the draft,
    /// the openings, game lengths and end reasons (CSV, Wilson 95%
    /// intervals), and optionally plots (SVG and PNG). See docs/commands/draft-stats.md.
    #[command(after_help = "\
Examples:
  senat draft-stats games.csv --out-dir annex
  senat draft-stats random.csv heuristic.csv --out-dir annex --plot annex/plots --force
  senat draft-stats games.csv --moves moves.csv --out-dir annex --plot plots")]
    DraftStats(annex::DraftStatsArgs),

    /// Ludii's game metrics of files of games (AdvantageP1, Balance,
    /// Completion, Drawishness, Duration by end reason, DecisivenessMoves,
    /// LeadChange, Drama, BranchingFactor, the shares of each end), each with
    /// a 95% interval, one table per file: every game is replayed from the
    /// start, its moves checked, the game's evaluation read at each ply.
    /// Sénat's games files; the moves files of Focus, Focus4, Débâcle,
    /// Connect Four and dominoes (`selfplay --game G --moves M.csv`). A metric is an
    /// estimate over a file's games, so there is no --index (docs/formats.md,
    /// "Which file holds a game").
    #[command(after_help = metrics_help())]
    Metrics(metrics::MetricsArgs),

    /// Which rules variants make the game fair at a level of play, certified:
    /// rounds of self-play games (the same seeds for every variant) over a
    /// variant space and agent tiers, an anytime-valid confidence sequence
    /// per variant × tier × target, each declared `in` (its interval inside
    /// the band), `out` (outside) or `undecided` (with --tolerance Z: inside
    /// the band widened by Z, outside the band narrowed by Z); games go only
    /// to undecided variants; the verdicts hold together with probability
    /// 1 − δ. Writes
    /// DIR/design.csv, DIR/design.png and the round log DIR/rounds.csv
    /// (`--resume` continues it). See docs/commands/design.md.
    #[command(after_help = "\
Examples:
  senat design --selftest                                       # the guarantee checked on planted truths
  senat design --selftest --tolerance 0.01                      # the same, within 0.01 of the band's edges
  senat design --game senat --space 'closure=40..60:10,first_mover=red|blue' --tiers fast \\
      --first 0.45..0.55 --budget-games 20000 --out design-senat
  senat design --game focus --space 'fix=none|reserve|tempo' --tiers mcts --first 0.45..0.55 --out d-focus
  senat design ... --out design-senat --resume                  # after an interruption, or with a larger budget")]
    Design(design::DesignArgs),

    /// Fit the learned evaluation (that of `learned`, `mcts:rollout=eval` and
    /// `ab:eval=learned`) to self-play outcomes by logistic regression, and
    /// write its weights.
    ///
    /// Each round plays games (the first with `heuristic`, later ones with
    /// `learned` and the weights of the round before), samples positions,
    /// fits one weight vector for play positions and one for draft positions,
    /// and measures the fit on held-out games, next to the hand-written
    /// evaluations (each given its best scale). The weights file is read back
    /// by `learned:file=<path>`; the shipped one is
    /// crates/lab/data/learned-weights.txt.
    #[command(after_help = "\
Examples:
  senat tune --out weights.txt                       # 3 rounds of 20000 games
  senat tune --games 2000 --rounds 1 --out quick.txt
  senat arena learned learned:file=weights.txt --games 400")]
    Tune(tune::TuneArgs),

    /// Train a small value network on self-play and write it with the
    /// learned weights (Sénat: read by `learned:file=<path>`; Focus: by
    /// `mcts:file=<path>`).
    ///
    /// Plays --games games with --generator (both sides, draft included),
    /// samples play positions, labels each with the game's result for the
    /// side to move, blended with --label's value of the position where a
    /// labelling search is given (expert iteration), and trains on top of
    /// the start's logistic model a network of --hidden clipped-ReLU units
    /// whose output is added to the play logit. A tenth of the games (whole
    /// games) is held out; each epoch's held-out loss is printed and the
    /// best epoch is kept. The draft weights are the start's.
    ///
    /// With --game focus (or focus4) the same trainer learns Focus: the
    /// generator and labeller are agents of that game, the linear part
    /// weighs the evaluation's four terms (each 1 at the start: exactly the
    /// evaluation through its fitted logistic), and the network sees every
    /// piece by square, level and player, and the reserves.
    #[command(after_help = "\
Examples:
  senat train-net --games 20000 --out net.txt
  senat train-net --games 2000 --label 'mcts:playouts=200,rollout=eval,prior=1000' --out net-ei.txt
  senat arena learned learned:file=net.txt --draft own --games 2000
  senat train-net --game focus --games 40000 --label ab:depth=3 --label-weight 0.7 --out focus-net.txt
  senat arena --game focus 'mcts:prior=500,c=1,file=focus-net.txt' ab:depth=3 --games 200")]
    TrainNet(train_net::TrainNetArgs),

    /// Count the round points of dominoes self-play, the data of the learned
    /// leaf of the dominoes searches (`leaf=learned` of pimc and ismcts).
    ///
    /// Plays --matches matches with --generator in every seat (match i deals
    /// from game seed (seed, i)), counts how many points each round gave its
    /// winner, and writes the counts with a header giving the command. From
    /// them `leaf=learned` solves each player's chance of winning the match
    /// from the scores and the target (2 players). Every --holdout-th match is
    /// left out of the counts and used to compare the model's log-loss with
    /// exp(score/25)'s. The shipped file, crates/lab/data/dominoes-leaf.txt,
    /// is compiled in.
    #[command(after_help = "\
Examples:
  senat fit-leaf --matches 200 --generator 'ismcts:playouts=100' --out leaf.txt
  senat fit-leaf --matches 2000 --seed 1 --out crates/lab/data/dominoes-leaf.txt --force")]
    FitLeaf(fit_leaf::FitLeafArgs),
}

const BESTMOVE_EXAMPLES: &str = "\
Examples:
  senat bestmove --agent top sample                     # Sénat: the strongest agent's move
  senat bestmove --agent 'ab:depth=4' --history game.txt  # the last position of a record, with its history
  senat bestmove --game focus --agent top start
  senat bestmove --game debacle --agent 'mcts:playouts=500' --seed 7 start
  senat bestmove --game dominoes --agent top 'o1 - play 1 0 0,0 0 ?6/3-1.3-2.4-0.4-1.4-2.4-3 ?14 1:3-3L,0:3-0L -'
  senat bestmove --agent strong sample 2>/dev/null | tail -1   # the move alone
Named agents: top, strong, fast, and sharp for Sénat (per game; `senat bestmove --help` lists them and the specs).";

/// The named agents of every game family, as help text built from the lab's tables.
fn named_help(all_games: bool) -> String {
    use senat_lab::named;
    let mut s =
        String::from("Named agents (a spec may be one of these names; output files record what it stands for):\n");
    s.push_str(if all_games { "Sénat:\n" } else { "" });
    s.push_str(&named::help(named::SENAT));
    if all_games {
        s.push_str("Focus, focus4, Débâcle, Connect Four (--game):\n");
        s.push_str(&named::help(named::GAMES));
        s.push_str("Dominoes (--game dominoes):\n");
        s.push_str(&named::help(named::DOMINOES));
    }
    s
}

const SELFPLAY_EXAMPLES: &str = "\
Examples:
  senat selfplay --force                                # 100000 random games -> games.csv, summary.csv
  senat selfplay --games 20000 --red greedy --blue random --out g.csv --summary s.csv
  senat selfplay --red 'heuristic:pile=12,exposed=-1' --blue heuristic:file=w.txt --out h.csv
  senat selfplay --games 1000000 --shard 3/8 --out shard3.csv --summary ''   # one slice of a big batch
  senat selfplay --games 1000000 --out big.csv --resume # continue an interrupted run
  senat selfplay --games 20000 --format parquet --out g.parquet --moves m.parquet --summary s.parquet
  senat selfplay --games 200 --red 'heuristic>mcts' --blue 'ab' --time-per-move 100 --out t.csv";

/// `senat selfplay --help` after the options: examples, the policies as the
/// parser's help states them ([`senat_lab::policy::POLICY_HELP`]), and with
/// `long` the named agents of every game.
fn selfplay_help(long: bool) -> String {
    let mut s = format!(
        "{SELFPLAY_EXAMPLES}\n\nPolicies: {}\n--time-per-move MS gives every searching policy movetime=MS; \
timed games depend on the machine, not on the seed alone.",
        senat_lab::policy::POLICY_HELP
    );
    if long {
        s.push_str("\n\nEvery game's agents (--game):\n");
        s.push_str(&agents_help());
    }
    s
}

/// `senat metrics --help` after the options: examples and one line per metric.
fn metrics_help() -> String {
    format!(
        "Examples:
  senat metrics games.csv
  senat metrics random.csv heuristic.csv learned.csv --out metrics.csv --force   # one table per tier
  senat selfplay --game focus --first greedy --second greedy --games 1000 --book-plies 4 --out f.csv --moves fm.csv
  senat metrics fm.csv                            # Focus, Focus4, Débâcle, dominoes: their moves files

Metrics (the definitions in full, Ludii's and where ours differs, are the CSV's last column):
{}",
        senat_lab::metrics::HELP
    )
}

/// Every family's agent specs as their parsers' help states them, then
/// the named agents of every game.
fn agents_help() -> String {
    format!(
        "Sénat policies: {}\n\nFocus and Débâcle agents: {}\n\nDominoes agents: {}\n\n{}",
        senat_lab::policy::POLICY_HELP,
        senat_lab::games::agent::AGENT_HELP,
        senat_lab::games::dominoes::DOMINO_AGENT_HELP,
        named_help(true)
    )
}

/// `senat bestmove --help` after the options: examples, every family's specs and names.
fn bestmove_help() -> String {
    format!("{BESTMOVE_EXAMPLES}\n\n{}\n--seed defaults to {}.", agents_help(), bestmove::DEFAULT_SEED)
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
            // A bounded flag out of its bounds: the limit's own line, as every command words it.
            let limit = std::error::Error::source(&e).and_then(|s| s.downcast_ref::<senat_lab::limits::LimitError>());
            let line = if let Some(limit) = limit {
                escape(&limit.to_string())
            } else if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
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
            // Every game's messages echo input: one line, control characters escaped.
            eprintln!("senat: error: {}", escape(&msg));
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

/// Runs one command; `colour`: stdout takes terminal colours.
fn run(command: Command, out: &mut impl Write, colour: bool) -> Result<()> {
    match command {
        Command::Moves(pos) => rules::moves(pos, out),
        Command::Perft(a) => rules::perft_command(a, out),
        Command::Show(a) => rules::show(a, out, colour),
        Command::Replay(a) => rules::replay(a, out, colour),
        Command::Render(a) => view::cmd_render(a, out),
        Command::View(a) => view::cmd_view(a, out),
        Command::Explore(a) => explore::explore_cmd(a, out),
        Command::Serve(a) => serve::cmd_serve(a, out),
        Command::Play(a) => play::cmd_play(a, out, colour, &mut io::stdin().lock()),
        Command::Selfplay(a) => batch::cmd_selfplay(a, out),
        Command::Merge(a) => batch::merge(a, out),
        Command::Convert(a) => batch::convert(a, out),
        Command::Bench(a) => batch::bench(a, out),
        Command::Analyze(a) => search::analyze(a, out),
        Command::Arena(a) => arena::arena(a, out),
        Command::DraftStats(a) => annex::cmd_draft_stats(a, out),
        Command::Metrics(a) => metrics::cmd_metrics(a, out),
        Command::Design(a) => design::cmd_design(a, out),
        Command::Tune(a) => tune::cmd_tune(a, out),
        Command::TrainNet(a) => train_net::cmd_train_net(a, out),
        Command::FitLeaf(a) => fit_leaf::cmd_fit_leaf(a, out),
        Command::BenchMcts(a) => search::bench_mcts(a, out),
        Command::Bestmove(a) => bestmove::bestmove(a, out),
        Command::Annotate(a) => annotate::annotate(a, out),
        Command::Solve(a) => search::solve(a, out),
        Command::BenchSearch(a) => search::bench_search(a, out),
    }
}
