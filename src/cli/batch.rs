//! The batch commands: `selfplay`, `merge`, `bench` and `arena`: argument
//! checks, progress bars and the tables they print. The games themselves
//! are played by `senat_lab::selfplay` and `senat_lab::arena`; this module never
//! plays a move itself.

use crate::cli::common::{
    Result, TIME_PER_MOVE_HELP, input, opening_moves, policy, read_opening, time_per_move, timed,
};
use crate::cli::games::{self, GameArg};
use clap::Args;
use senat_lab::arena::{self, Arena, Schedule};
use senat_lab::games::GameKind;
use senat_lab::policy::PolicySpec;
use senat_lab::rating::Sprt;
use senat_lab::selfplay::output::{self, IfExists, OutFile};
use senat_lab::selfplay::{self, Batch, Existing, Matchup, Outputs, Shard};
use senat_lab::stats::Summary;
use senat_rules::Variant;
use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `senat merge`.
#[derive(Args, Debug)]
pub(crate) struct MergeArgs {
    /// The games files to merge (any order).
    #[arg(required = true)]
    pub(crate) inputs: Vec<PathBuf>,
    /// The merged games file.
    #[arg(long, value_name = "PATH")]
    pub(crate) out: PathBuf,
    /// The summary CSV of all games (empty: none).
    #[arg(long, value_name = "PATH", default_value = "summary.csv")]
    pub(crate) summary: String,
    /// Overwrite existing output files.
    #[arg(long)]
    pub(crate) force: bool,
    #[arg(short, long, help = crate::cli::common::QUIET_HELP)]
    pub(crate) quiet: bool,
    /// Sénat: print the histogram of play lengths (10-ply bins) under the
    /// summary table (the summary file always has it).
    #[arg(long)]
    pub(crate) histogram: bool,
    /// The game of the inputs (optional: their identity lines name it; when
    /// given, it must be theirs).
    #[arg(long, value_name = "GAME", value_parser = GameKind::parse)]
    pub(crate) game: Option<GameKind>,
}

/// Arguments of `senat bench`.
#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// Games per measurement.
    #[arg(long, default_value_t = 100_000)]
    pub(crate) games: u64,
    /// Comma-separated policies, each playing itself.
    #[arg(long, default_value = "random,greedy")]
    pub(crate) policies: String,
    /// Threads of the parallel measurement (default: all cores).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Batch seed.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// The game (`--game`): Sénat only so far.
    #[command(flatten)]
    pub(crate) senat_only: crate::cli::common::SenatOnly,
}

/// Arguments of `senat arena`.
#[derive(Args, Debug)]
pub(crate) struct ArenaArgs {
    /// The agents (at least two), as policies (with --game other than
    /// senat: random, greedy, ab[:...] or mcts[:...]).
    #[arg(value_name = "AGENT", required = true, num_args = 2..)]
    pub(crate) agents: Vec<String>,
    #[command(flatten)]
    pub(crate) game: GameArg,
    /// Games per pairing, an even number (pairs of games).
    #[arg(long, default_value_t = 100)]
    pub(crate) games: u64,
    /// Seed: pair k of every pairing uses game seed (seed, k).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// The draft policy of both sides in every game, or `own` for each agent
    /// to draft with its own policy.
    #[arg(long, default_value = "random", value_name = "POLICY|own")]
    pub(crate) draft: String,
    /// The first agent against each of the others (default: round robin).
    #[arg(long, conflicts_with = "ladder")]
    pub(crate) gauntlet: bool,
    /// Each agent against the next (list them weakest first), with a
    /// chained rating list: first agent 0, 95% intervals.
    #[arg(long)]
    pub(crate) ladder: bool,
    #[arg(long, value_name = "MS", help = TIME_PER_MOVE_HELP)]
    pub(crate) time_per_move: Option<u64>,
    /// Start both games of every pair with the same K random plies (a
    /// "book"; the draft's first gives and placements): varied games for
    /// agents that draw no randomness (MCTS with `rollout=eval`, alpha-beta),
    /// which with `--draft own` would otherwise replay one pair of games.
    /// (Default 0 for Sénat, 4 for the other games.)
    #[arg(long, value_name = "K")]
    pub(crate) book_plies: Option<u32>,
    /// With --game dominoes: the two matches of a pair deal from different
    /// seeds (to measure the luck that duplicate deals remove).
    #[arg(long)]
    pub(crate) no_duplicate: bool,
    /// Stop a two-agent match when the SPRT decides:
    /// elo0=E0,elo1=E1,alpha=A,beta=B[,model=logistic|normalized] (fishtest's
    /// generalized SPRT on pentanomial counts; logistic Elo by default).
    #[arg(long, value_name = "SPEC")]
    pub(crate) sprt: Option<String>,
    /// Games played at once, as `--threads` of every other command
    /// (default: all cores; at most 4 per core, and at least 64 are always
    /// accepted). `--concurrency` is the old name, still accepted.
    #[arg(long = "threads", visible_alias = "concurrency", value_name = "N")]
    pub(crate) concurrency: Option<usize>,
    /// Per-game CSV file (none by default; for dominoes one row per match).
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
    /// Summary CSV file, one row per pairing (none by default), in the same
    /// columns for every game; a game's own columns follow.
    #[arg(long, value_name = "FILE")]
    pub(crate) summary: Option<PathBuf>,
    /// A file of every game's moves (none by default), one row per game
    /// that `senat view` reads: `senat view FILE --index N` shows game N
    /// (Sénat: in the columns of a self-play games file; focus, focus4,
    /// debacle and dominoes: `game,pairing,pair,first,second,moves`).
    #[arg(long, value_name = "FILE")]
    pub(crate) moves: Option<PathBuf>,
    /// Overwrite existing output files.
    #[arg(long)]
    pub(crate) force: bool,
    #[arg(short, long, help = crate::cli::common::QUIET_HELP)]
    pub(crate) quiet: bool,
}

/// Arguments of `senat selfplay`.
#[derive(Args, Debug)]
pub(crate) struct SelfplayArgs {
    /// Games in the batch (all shards together).
    #[arg(long, default_value_t = 100_000)]
    pub(crate) games: u64,
    /// Worker threads (default: all cores; at most 4 per core, and at
    /// least 64 are always accepted). Never changes the output.
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Batch seed: game i uses a generator seeded from (seed, i).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Red's play policy.
    #[arg(long, default_value = "random", value_name = "POLICY")]
    pub(crate) red: String,
    /// Blue's play policy.
    #[arg(long, default_value = "random", value_name = "POLICY")]
    pub(crate) blue: String,
    #[command(flatten)]
    pub(crate) game: GameArg,
    /// With --game other than senat: the agent of the first player's team
    /// (random, greedy, ab[:...] or mcts[:...]).
    #[arg(long, default_value = "random", value_name = "AGENT")]
    pub(crate) first: String,
    /// With --game other than senat: the agent of the second team.
    #[arg(long, default_value = "random", value_name = "AGENT")]
    pub(crate) second: String,
    /// Start every game with K uniformly random plies drawn from its own
    /// seed (varied games for agents that draw no randomness; written in
    /// the moves file, counted in the plies; Sénat: after --opening, in the
    /// batch identity as book_plies=K).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub(crate) book_plies: u32,
    /// With --game dominoes: also write one row per round to this file.
    #[arg(long, value_name = "PATH")]
    pub(crate) rounds: Option<PathBuf>,
    /// Red's draft policy (default: red's play policy; greedy drafts at random).
    #[arg(long, value_name = "POLICY")]
    pub(crate) draft_red: Option<String>,
    /// Blue's draft policy (default: blue's play policy).
    #[arg(long, value_name = "POLICY")]
    pub(crate) draft_blue: Option<String>,
    #[arg(long, value_name = "MS", help = TIME_PER_MOVE_HELP)]
    pub(crate) time_per_move: Option<u64>,
    /// The games file: one row per game.
    #[arg(long, value_name = "PATH", default_value = "games.csv")]
    pub(crate) out: PathBuf,
    /// The summary CSV (empty: none).
    #[arg(long, value_name = "PATH", default_value = "summary.csv")]
    pub(crate) summary: String,
    /// Also write one row per move to this file (dominoes: one row per
    /// match, every move of it, deals and draws included).
    #[arg(long, value_name = "PATH")]
    pub(crate) moves: Option<PathBuf>,
    /// Play only the K-th of N disjoint slices of the game indices (1 <= K <= N).
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<String>,
    /// Force the first moves of every game: a file of moves in move text,
    /// one per line from the start of the draft (`#` starts a comment).
    #[arg(long, value_name = "FILE")]
    pub(crate) opening: Option<PathBuf>,
    /// Force blue's first give (`g3`): the one-move opening `gN`.
    #[arg(long, value_name = "gN", conflicts_with = "opening")]
    pub(crate) force_first_give: Option<String>,
    /// Overwrite existing output files.
    #[arg(long, conflicts_with = "resume")]
    pub(crate) force: bool,
    /// Continue the games (and moves) file where it stops.
    #[arg(long)]
    pub(crate) resume: bool,
    #[arg(short, long, help = crate::cli::common::QUIET_HELP)]
    pub(crate) quiet: bool,
    /// Sénat: print the histogram of play lengths (10-ply bins) under the
    /// summary table (the summary file always has it).
    #[arg(long)]
    pub(crate) histogram: bool,
}

pub(crate) fn threads_or_all(threads: Option<usize>) -> Result<usize> {
    match threads {
        Some(0) => input("--threads 0: give at least 1 thread (or leave it out for all cores)"),
        Some(t) => senat_lab::limits::threads("--threads", t).or_else(input),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

pub(crate) fn summary_path(text: &str) -> Option<PathBuf> {
    (!text.is_empty()).then(|| PathBuf::from(text))
}

/// The last line of a batch command: every file it wrote, by role
/// (`wrote games g.csv, moves m.csv, summary summary.csv`).
pub(crate) fn written(files: &[(&str, Option<&PathBuf>)]) -> String {
    let named: Vec<String> = files
        .iter()
        .filter_map(|(role, p)| {
            p.map(|p| format!("{role} {}", senat_rules::notation::escape(&p.display().to_string())))
        })
        .collect();
    format!("wrote {}", named.join(", "))
}

/// `senat merge`.
pub(crate) fn merge(a: MergeArgs, out: &mut impl Write) -> Result<()> {
    if a.inputs.first().is_some_and(|p| games::starts_with(p, b"# dominoes-batch")) {
        return input(
            "this dominoes batch was written before dominoes joined the one batch format (`# dominoes-batch 1`): \
             it cannot be merged; play its shards again",
        );
    }
    let other = a.inputs.first().is_some_and(|p| games::is_other_batch(p));
    match a.game {
        Some(GameKind::Senat) | None if !other => {}
        Some(g) if other => {
            let theirs = senat_lab::games::batch::game_of(&a.inputs[0]).or_else(input)?;
            if theirs != g {
                return input(format_args!("{} holds {theirs} games, not --game {g}", a.inputs[0].display()));
            }
        }
        None => {}
        Some(g) => return input(format_args!("{} holds Sénat games, not --game {g}", a.inputs[0].display())),
    }
    if other {
        if a.histogram {
            return input("--histogram is for Sénat's summary table; the other games print no length histogram");
        }
        return games::merge(&a.inputs, &a.out, &a.summary, a.force, a.quiet, out);
    }
    cmd_merge(&a.inputs, &a.out, &a.summary, a.force, a.quiet, a.histogram, out)
}

/// `senat bench`.
pub(crate) fn bench(a: BenchArgs, out: &mut impl Write) -> Result<()> {
    a.senat_only
        .check("bench", "measures Sénat's self-play only so far (`selfplay --game G` prints its games per second)")?;
    cmd_bench(a.games, &a.policies, a.threads, a.seed, out)
}

/// `senat arena`: the concurrency checked first, then [`cmd_arena`].
pub(crate) fn arena(a: ArenaArgs, out: &mut impl Write) -> Result<()> {
    if let Some(c) = a.concurrency.filter(|&c| c > 0) {
        senat_lab::limits::threads("--threads", c).or_else(input)?;
    }
    if a.game.other()? {
        return games::arena(&a, out);
    }
    if a.no_duplicate {
        return input("--no-duplicate is for --game dominoes");
    }
    let Some(v) = a.game.senat_variant(out)? else { return Ok(()) };
    cmd_arena(a, v, out)
}

/// A progress bar on stderr, hidden when stderr is not a terminal or when quiet.
pub(crate) fn progress_bar(total: u64, quiet: bool) -> indicatif::ProgressBar {
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

pub(crate) fn cmd_selfplay(a: SelfplayArgs, out: &mut impl Write) -> Result<()> {
    if a.game.other()? {
        return games::selfplay(&a, out);
    }
    if a.first != "random" || a.second != "random" || a.rounds.is_some() {
        return input(
            "--first/--second/--rounds are for --game focus, focus4, debacle or dominoes; \
             Sénat's sides are --red and --blue, its openings --opening and --book-plies",
        );
    }
    let Some(variant) = a.game.senat_variant(out)? else { return Ok(()) };
    let book_plies = senat_lab::limits::plies("--book-plies", a.book_plies as u64).or_else(input)?;
    if a.games == 0 {
        return input("--games 0: a batch needs at least 1 game");
    }
    let shard = match &a.shard {
        Some(s) => Shard::parse(s).or_else(input)?,
        None => Shard::ALL,
    };
    let ms = time_per_move(a.time_per_move)?;
    let red = timed(policy("red", &a.red)?, ms);
    let blue = timed(policy("blue", &a.blue)?, ms);
    let draft_red = timed(policy("draft-red", a.draft_red.as_deref().unwrap_or(&a.red))?, ms);
    let draft_blue = timed(policy("draft-blue", a.draft_blue.as_deref().unwrap_or(&a.blue))?, ms);
    let threads = threads_or_all(a.threads)?;
    let opening = match (&a.opening, &a.force_first_give) {
        (Some(file), _) => read_opening(file, variant)?,
        (None, Some(give)) => opening_moves("--force-first-give", give, variant)?,
        (None, None) => Vec::new(),
    };
    let matchup = Matchup { red, blue, draft_red, draft_blue };
    let batch = Batch { seed: a.seed, games: a.games, shard, matchup, opening, book_plies, variant };
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
    let report = selfplay::run(&batch, &outputs, threads, &|done| bar.set_position(done)).or_else(input)?;
    bar.finish_and_clear();
    // Distinct games by move sequence (draft and play moves), over the whole file.
    let variety = senat_lab::variety::distinct_in_file(&a.out, &[14, 15], false).or_else(input)?;
    let deterministic = [&batch.matchup.red, &batch.matchup.blue, &batch.matchup.draft_red, &batch.matchup.draft_blue]
        .iter()
        .all(|p| p.deterministic());
    if let Some(w) = variety.warning(deterministic && book_plies == 0, "--book-plies K") {
        eprintln!("senat: warning: {w}");
    }
    if !a.quiet {
        out.write_all(report.summary.table(a.histogram).as_bytes())?;
        writeln!(out, "{}", variety.line())?;
        let rate = report.played as f64 / report.seconds.max(1e-9);
        writeln!(
            out,
            "played {} games{} in {:.2} s on {threads} threads: {:.0} games/s ({:.0} per thread)",
            report.played,
            if report.resumed > 0 { format!(" (after {} resumed)", report.resumed) } else { String::new() },
            report.seconds,
            rate,
            rate / threads as f64,
        )?;
    }
    // The result, printed even when quiet: the files written.
    writeln!(
        out,
        "{}",
        written(&[("games", Some(&a.out)), ("moves", a.moves.as_ref()), ("summary", outputs.summary.as_ref())])
    )?;
    Ok(())
}

/// `senat arena` for Sénat: the agents, the draft and the SPRT read, the
/// games played by [`Arena::run`], the one table printed.
pub(crate) fn cmd_arena(a: ArenaArgs, variant: Variant, out: &mut impl Write) -> Result<()> {
    if a.games == 0 || a.games % 2 == 1 {
        return input(format_args!("--games {}: give an even number ≥ 2 (games are played in pairs)", a.games));
    }
    let ms = time_per_move(a.time_per_move)?;
    let agents = a
        .agents
        .iter()
        .enumerate()
        .map(|(i, t)| Ok(timed(policy(&format!("agent {}", i + 1), t)?, ms)))
        .collect::<Result<Vec<PolicySpec>>>()?;
    let draft = if a.draft == "own" { None } else { Some(timed(policy("draft", &a.draft)?, ms)) };
    let sprt = sprt_arg(&a)?;
    let concurrency = match a.concurrency {
        Some(0) => return input("--threads 0: give at least 1"),
        Some(c) => c,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let arena = Arena {
        agents,
        draft,
        pairs: a.games / 2,
        seed: a.seed,
        schedule: Schedule::from_flags(a.gauntlet, a.ladder),
        sprt,
        book: a.book_plies.unwrap_or(0),
        variant,
    };
    arena.check().or_else(input)?;
    let pairings = arena.pairings();
    let weights = selfplay::identity::weight_inputs(arena.agents.iter().chain(arena.draft.as_ref()));
    let inputs: Vec<(&str, &Path)> = weights.iter().map(|w| ("the weights file", w.as_path())).collect();
    let mut outs = ArenaOutputs::create(&a, &inputs)?;
    let identity = arena.identity_line().or_else(input)?;
    let mut files = outs.files(&identity, &arena::MOVES_HEADER, &arena::GAMES_HEADER)?;
    let bar = progress_bar(a.games * pairings.len() as u64, a.quiet);
    let started = Instant::now();
    let results = arena
        .run(concurrency, &|n| bar.set_position(n), |games| {
            for g in games {
                files.game(|| arena::moves_row(&arena, &pairings, g), || arena::game_row(&arena, &pairings, g))?;
            }
            Ok(())
        })
        .or_else(input)?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let written = files.commit().or_else(input)?;
    if let Some(f) = outs.summary {
        let rows: Vec<Vec<String>> = results.iter().map(|r| arena::summary_row(&arena, r)).collect();
        arena::write_summary(f, &[], &rows).or_else(input)?;
    }
    let names: Vec<String> = arena.agents.iter().map(|s| s.name.clone()).collect();
    let rows: Vec<arena::TableRow> = results.iter().map(arena::PairingResult::table_row).collect();
    out.write_all(arena::table_text(&names, &rows, arena.schedule, arena.sprt.as_ref()).as_bytes())?;
    let played: u64 = results.iter().map(|r| r.count.wdl.games()).sum();
    let timing = ms.map_or(String::new(), |ms| format!("; {ms} ms per move for searching agents"));
    let report = format!("played {played} games in {secs:.1} s on {concurrency} threads (draft: {}{timing})", a.draft);
    arena_report(out, &report, written, &a, None)
}

/// The test of `--sprt`, if given (every game's arena).
pub(crate) fn sprt_arg(a: &ArenaArgs) -> Result<Option<Sprt>> {
    a.sprt.as_deref().map(|t| Sprt::parse(t).or_else(|e| input(format_args!("--sprt {t}: {e}")))).transpose()
}

/// The outputs of `senat arena` in any game: checked distinct from each
/// other and from the `inputs`, and created (as temporary files) before the
/// first game.
pub(crate) struct ArenaOutputs {
    games: Option<OutFile>,
    moves: Option<OutFile>,
    /// The summary file (`--summary`), written at the end.
    pub(crate) summary: Option<OutFile>,
}

impl ArenaOutputs {
    /// The outputs `a` names, refused when one exists without `--force`.
    pub(crate) fn create(a: &ArenaArgs, inputs: &[(&str, &Path)]) -> Result<ArenaOutputs> {
        let mut outputs: Vec<(&str, &Path)> = Vec::new();
        outputs.extend(a.out.as_deref().map(|p| ("--out", p)));
        outputs.extend(a.summary.as_deref().map(|p| ("--summary", p)));
        outputs.extend(a.moves.as_deref().map(|p| ("--moves", p)));
        output::check_distinct(inputs, &outputs).or_else(input)?;
        let if_exists = if a.force { IfExists::Overwrite } else { IfExists::Refuse { resumable: false } };
        let create = |p: Option<&Path>| p.map(|p| OutFile::create(p, if_exists)).transpose().or_else(input);
        Ok(ArenaOutputs {
            games: create(a.out.as_deref())?,
            moves: create(a.moves.as_deref())?,
            summary: create(a.summary.as_deref())?,
        })
    }

    /// Starts the games and moves files under `identity` with their headers.
    pub(crate) fn files(
        &mut self,
        identity: &str,
        moves_header: &[&str],
        games_header: &[&str],
    ) -> Result<arena::ArenaFiles> {
        let moves = self.moves.take().map(|f| (f, moves_header));
        let games = self.games.take().map(|f| (f, games_header));
        arena::ArenaFiles::start(identity, moves, games).or_else(input)
    }
}

/// The lines after every arena's table: how many games in how long, and
/// the files written; the first is left out under `--quiet`, which keeps
/// the result alone on stdout. `view_game` is the `--game …` words of the
/// `senat view` hint (`None` for Sénat).
pub(crate) fn arena_report(
    out: &mut impl Write,
    played: &str,
    written: (Option<PathBuf>, Option<PathBuf>),
    a: &ArenaArgs,
    view_game: Option<&str>,
) -> Result<()> {
    if !a.quiet {
        writeln!(out, "{played}")?;
    }
    if let Some(p) = &written.0 {
        writeln!(out, "games written to {}", p.display())?;
    }
    if let Some(p) = &written.1 {
        let game = view_game.map_or(String::new(), |g| format!("--game {g} "));
        writeln!(out, "moves written to {} (senat view {game}{} --index N)", p.display(), p.display())?;
    }
    Ok(())
}

pub(crate) fn cmd_merge(
    inputs: &[PathBuf],
    path: &Path,
    summary: &str,
    force: bool,
    quiet: bool,
    histogram: bool,
    out: &mut impl Write,
) -> Result<()> {
    let summary_file = summary_path(summary);
    let s: Summary = selfplay::merge(inputs, path, summary_file.as_deref(), force).or_else(input)?;
    if !quiet {
        out.write_all(s.table(histogram).as_bytes())?;
        writeln!(out, "merged {} games from {} files", s.games(), inputs.len())?;
    }
    // The result, printed even when quiet: the files written.
    let games = path.to_path_buf();
    writeln!(out, "{}", written(&[("games", Some(&games)), ("summary", summary_file.as_ref())]))?;
    Ok(())
}

pub(crate) fn cmd_bench(
    games: u64,
    policies: &str,
    threads: Option<usize>,
    seed: u64,
    out: &mut impl Write,
) -> Result<()> {
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
        let batch = Batch {
            seed,
            games,
            shard: Shard::ALL,
            matchup,
            opening: Vec::new(),
            book_plies: 0,
            variant: Variant::RULES,
        };
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
