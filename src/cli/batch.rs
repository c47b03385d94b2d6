//! The batch commands: `selfplay`, `merge`, `convert` and `bench`, for
//! every game (`--game`): argument checks, progress bars and the tables
//! they print.
//! The games themselves are played by `senat_lab::selfplay` and
//! `senat_lab::games::batch`; this module never plays a move itself.

use crate::cli::common::{
    Result, TIME_PER_MOVE_HELP, input, opening_moves, policy, progress_bar, read_opening, summary_path, threads_or_all,
    time_per_move, timed, written,
};
use crate::cli::game::{self, GameArg, on_game};
use clap::Args;
use senat_lab::games::GameKind;
use senat_lab::games::{LabGame, batch};
use senat_lab::selfplay::columnar::{self, FileFormat, Pending};
use senat_lab::selfplay::output::IfExists;
use senat_lab::selfplay::{self, Batch, Existing, Matchup, Outputs, Shard};
use senat_rules::Variant;
use std::io::Write;
use std::path::{Path, PathBuf};

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
    /// With --game dominoes: also write one row per round to this file
    /// (its `opener` column: the seat that made the round's first play).
    #[arg(long, value_name = "PATH")]
    pub(crate) rounds: Option<PathBuf>,
    /// With --game dominoes: play every deal once per seat rotation, the
    /// games of a deal in a row: game i is rotation k = i mod P (P the
    /// players) of deal i div P, in which seat s holds, round by round, the
    /// hand that seat (s + k) mod P holds in rotation 0, the boneyard and
    /// its draws unchanged (so every hand is played from every seat, the
    /// deal's luck cancelled); --games must be a multiple of P. Written in the identity line as
    /// rotate=true: merge and --resume refuse to mix rotated and unrotated
    /// files.
    #[arg(long)]
    pub(crate) rotate: bool,
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
    /// The files' format: csv, parquet or csv,parquet. With parquet every
    /// output PATH is written as PATH with the extension .parquet (typed
    /// columns, the identity line in the metadata key senat.identity): the
    /// batch is played into a CSV beside it, NAME.parquet.csv (resumable as
    /// ever), converted at the end and removed; csv,parquet plays into PATH
    /// with the extension .csv and keeps it.
    #[arg(long, value_name = "FORMAT", default_value = "csv", value_parser = FileFormat::parse)]
    pub(crate) format: FileFormat,
}

/// Arguments of `senat convert`.
#[derive(Args, Debug)]
pub(crate) struct ConvertArgs {
    /// The batch CSV to convert: a games, moves, rounds or summary file of
    /// `senat selfplay` or `senat merge`.
    pub(crate) input: PathBuf,
    /// The Parquet file (default: the input with the extension .parquet).
    #[arg(long, value_name = "PATH")]
    pub(crate) out: Option<PathBuf>,
    /// Overwrite an existing output file.
    #[arg(long)]
    pub(crate) force: bool,
    #[arg(short, long, help = crate::cli::common::QUIET_HELP)]
    pub(crate) quiet: bool,
}

/// `senat convert`.
pub(crate) fn convert(a: ConvertArgs, out: &mut impl Write) -> Result<()> {
    let to = a.out.clone().unwrap_or_else(|| a.input.with_extension("parquet"));
    let if_exists = if a.force { IfExists::Overwrite } else { IfExists::Refuse { resumable: false } };
    let c = columnar::convert(&a.input, &to, if_exists, senat_lab::catalog::check_batch_file).or_else(input)?;
    if !a.quiet {
        let cols: Vec<String> = c.columns.iter().map(|(n, t)| format!("{n}:{}", t.name())).collect();
        writeln!(out, "{} rows, {} columns: {}", c.rows, cols.len(), cols.join(" "))?;
    }
    // The result, printed even when quiet: the file written.
    writeln!(out, "{}", written(&[("parquet", Some(&to))]))?;
    Ok(())
}

/// A batch's outputs for `--format`: the CSV files the run writes (the
/// named paths with csv, the CSV beside each Parquet file otherwise) and
/// the Parquet outputs, prepared before any game.
struct Files {
    out: PathBuf,
    moves: Option<PathBuf>,
    rounds: Option<PathBuf>,
    summary: Option<PathBuf>,
    pending: Pending,
    /// Every file written, by role (the last line's).
    shown: Vec<(String, PathBuf)>,
}

/// The outputs of `a` for its `--format`, the Parquet ones created.
fn files(a: &SelfplayArgs, existing: Existing) -> Result<Files> {
    let summary = summary_path(&a.summary);
    let side = if a.game.game == GameKind::Dominoes { "rounds" } else { "side" };
    let roles = [
        ("games", "--out", Some(&a.out)),
        ("moves", "--moves", a.moves.as_ref()),
        (side, "--rounds", a.rounds.as_ref()),
        ("summary", "--summary", summary.as_ref()),
    ];
    let named: Vec<(&str, &Path)> = roles.iter().filter_map(|(_, f, p)| p.map(|p| (*f, p.as_path()))).collect();
    let (csvs, pending) = columnar::prepare(a.format, &named, existing).or_else(input)?;
    let mut csvs = csvs.into_iter();
    let mut next = |p: Option<&PathBuf>| p.and_then(|_| csvs.next());
    let (out, moves, rounds, summary_csv) =
        (next(Some(&a.out)), next(a.moves.as_ref()), next(a.rounds.as_ref()), next(summary.as_ref()));
    let mut shown = Vec::new();
    for ((role, _, p), csv) in roles.iter().zip([&out, &moves, &rounds, &summary_csv]) {
        let (Some(p), Some(csv)) = (p, csv) else { continue };
        match a.format.parquet_path(p) {
            None => shown.push((role.to_string(), csv.clone())),
            Some(pq) => {
                shown.push((role.to_string(), pq));
                if a.format == FileFormat::Both {
                    shown.push((format!("{role} csv"), csv.clone()));
                }
            }
        }
    }
    Ok(Files { out: out.expect("the games file"), moves, rounds, summary: summary_csv, pending, shown })
}

impl Files {
    /// The last line of the run: every file written.
    fn written(&self) -> String {
        let shown: Vec<(&str, Option<&PathBuf>)> = self.shown.iter().map(|(r, p)| (r.as_str(), Some(p))).collect();
        written(&shown)
    }
}

/// The `--force`/`--resume` of a batch.
fn existing(a: &SelfplayArgs) -> Existing {
    if a.resume {
        Existing::Resume
    } else if a.force {
        Existing::Overwrite
    } else {
        Existing::Refuse
    }
}

/// `senat merge`.
pub(crate) fn merge(a: MergeArgs, out: &mut impl Write) -> Result<()> {
    if a.inputs.first().is_some_and(|p| starts_with(p, b"# dominoes-batch")) {
        return input(
            "this dominoes batch was written before dominoes joined the one batch format (`# dominoes-batch 1`): \
             it cannot be merged; play its shards again",
        );
    }
    let other = a.inputs.first().is_some_and(|p| is_other_batch(p));
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
        return lab_merge(&a.inputs, &a.out, &a.summary, a.force, a.quiet, out);
    }
    cmd_merge(&a.inputs, &a.out, &a.summary, a.force, a.quiet, a.histogram, out)
}

/// `senat bench`.
pub(crate) fn bench(a: BenchArgs, out: &mut impl Write) -> Result<()> {
    a.senat_only
        .check("bench", "measures Sénat's self-play only so far (`selfplay --game G` prints its games per second)")?;
    cmd_bench(a.games, &a.policies, a.threads, a.seed, out)
}

pub(crate) fn cmd_selfplay(a: SelfplayArgs, out: &mut impl Write) -> Result<()> {
    if a.game.other()? {
        return lab_selfplay(&a, out);
    }
    if a.first != "random" || a.second != "random" || a.rounds.is_some() {
        return input(
            "--first/--second/--rounds are for --game focus, focus4, debacle, connect4 or dominoes; \
             Sénat's sides are --red and --blue, its openings --opening and --book-plies",
        );
    }
    if a.rotate {
        return input("--rotate is for --game dominoes (it rotates the deal's hands among the seats)");
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
    let existing = existing(&a);
    let files = files(&a, existing)?;
    let outputs =
        Outputs { games: files.out.clone(), moves: files.moves.clone(), summary: files.summary.clone(), existing };
    let range = shard.range(a.games);
    let bar = progress_bar(range.end - range.start, a.quiet);
    let report = selfplay::run(&batch, &outputs, threads, &|done| bar.set_position(done)).or_else(input)?;
    bar.finish_and_clear();
    // Distinct games by move sequence (draft and play moves), over the whole
    // file: counted by the runner as it writes and resumes the rows.
    let variety = report.variety;
    let deterministic = [&batch.matchup.red, &batch.matchup.blue, &batch.matchup.draft_red, &batch.matchup.draft_blue]
        .iter()
        .all(|p| p.deterministic());
    if let Some(w) = variety.warning(deterministic && book_plies == 0, "--book-plies K") {
        eprintln!("senat: warning: {w}");
    }
    if !a.quiet {
        out.write_all(report.summary.table(a.histogram).as_bytes())?;
        writeln!(out, "{}", variety.line())?;
        writeln!(out, "{}", senat_lab::variety::openings_line(&report.openings))?;
        writeln!(out, "{}", rate_line(report.played, report.resumed, report.seconds, threads, None))?;
    }
    let line = files.written();
    files.pending.finish().or_else(input)?;
    // The result, printed even when quiet: the files written.
    writeln!(out, "{line}")?;
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
    let m = selfplay::merge(inputs, path, summary_file.as_deref(), force).or_else(input)?;
    if !quiet {
        out.write_all(m.summary.table(histogram).as_bytes())?;
        writeln!(out, "{}", m.variety.line())?;
        writeln!(out, "{}", senat_lab::variety::openings_line(&m.openings))?;
        writeln!(out, "merged {} games from {} files", m.summary.games(), inputs.len())?;
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

/// `senat selfplay --game …`.
pub(crate) fn lab_selfplay(a: &SelfplayArgs, out: &mut impl Write) -> Result<()> {
    if a.histogram {
        return input("--histogram is for Sénat's summary table; the other games print no length histogram");
    }
    for (set, flag) in [
        (a.red != "random" || a.blue != "random", "--red/--blue (use --first/--second)"),
        (a.draft_red.is_some() || a.draft_blue.is_some(), "--draft-red/--draft-blue"),
        (a.opening.is_some() || a.force_first_give.is_some(), "--opening/--force-first-give"),
    ] {
        if set {
            return input(format_args!("{flag} is for Sénat; --game {} does not take it", a.game.game));
        }
    }
    if a.game.game != GameKind::Dominoes && a.rounds.is_some() {
        return input("--rounds is for --game dominoes");
    }
    if a.game.game != GameKind::Dominoes && a.rotate {
        return input("--rotate is for --game dominoes (it rotates the deal's hands among the seats)");
    }
    if a.games == 0 {
        return input("--games 0: a batch needs at least 1 game");
    }
    let shard = match &a.shard {
        Some(s) => Shard::parse(s).or_else(input)?,
        None => Shard::ALL,
    };
    let threads = threads_or_all(a.threads)?;
    if a.game.game == GameKind::Dominoes {
        if a.game.variant_help(out)? {
            return Ok(());
        }
        if a.book_plies != 0 {
            return input("--book-plies is not for --game dominoes (every deal is already random)");
        }
        if a.time_per_move.is_some() {
            return input(game::DOMINO_NO_TIME);
        }
        let variant = game::domino_variant(&a.game)?.to_text();
        let agents = [game::domino_spec(&a.first, "--first")?, game::domino_spec(&a.second, "--second")?];
        let b = batch::Batch {
            game: a.game.game,
            variant,
            seed: a.seed,
            games: a.games,
            shard,
            book: 0,
            agents,
            rotate: a.rotate,
        };
        return run_batch::<senat_lab::games::dominoes::Dominoes>(a, &b, threads, false, out);
    }
    let ms = time_per_move(a.time_per_move)?;
    let agents = [game::timed_agent(&a.first, "--first", ms)?, game::timed_agent(&a.second, "--second", ms)?];
    on_game!(a.game.game, G => {
        if a.game.variant_help(out)? {
            return Ok(());
        }
        game::fitting::<G>(&agents[0], "--first")?;
        game::fitting::<G>(&agents[1], "--second")?;
        let start = game::text(G::start(&a.game.full()))?;
        let b = batch::Batch { game: a.game.game, variant: G::variant_text(&start), seed: a.seed, games: a.games, shard, book: a.book_plies, agents, rotate: false };
        let deterministic = agents.iter().all(|g| g.deterministic()) && a.book_plies == 0;
        run_batch::<G>(a, &b, threads, deterministic, out)
    })
}

/// The speed line of every game's self-play report: games played (after
/// those resumed) in seconds on threads, games/s and per thread, and plies/s
/// where the plies played are known (`plies`, over the games played).
fn rate_line(played: u64, resumed: u64, seconds: f64, threads: usize, plies: Option<f64>) -> String {
    let rate = played as f64 / seconds.max(1e-9);
    let after = if resumed > 0 { format!(" (after {resumed} resumed)") } else { String::new() };
    let plies = plies.map_or(String::new(), |p| format!(", {:.0} plies/s", p / seconds.max(1e-9)));
    format!(
        "played {played} games{after} in {seconds:.2} s on {threads} threads: {rate:.0} games/s ({:.0} per thread){plies}",
        rate / threads as f64
    )
}

/// Runs batch `b` of `G` with the outputs of `a` and prints its summary:
/// the one self-play front end of every game but Sénat. `deterministic`:
/// the agents draw no randomness (a batch of one game repeated is then
/// warned about).
fn run_batch<G: batch::BatchGame>(
    a: &SelfplayArgs,
    b: &batch::Batch<G::Spec>,
    threads: usize,
    deterministic: bool,
    out: &mut impl Write,
) -> Result<()> {
    let existing = existing(a);
    let files = files(a, existing)?;
    let outputs = batch::Outputs {
        games: files.out.clone(),
        moves: files.moves.clone(),
        side: files.rounds.clone(),
        summary: files.summary.clone(),
        existing,
    };
    let range = b.shard.range(a.games);
    let bar = progress_bar(range.end - range.start, a.quiet);
    let r = batch::run::<G>(b, &outputs, threads, &|done| bar.set_position(done)).or_else(input)?;
    bar.finish_and_clear();
    // Distinct games by their moves where a moves file was written (its
    // second column), otherwise by plies and final position (the games
    // file keeps no moves): two games that differ only before they
    // converge (Débâcle's later rounds, say) count as one there.
    let variety = match &files.moves {
        Some(m) if senat_lab::selfplay::output::Located::new(m).is_ok_and(|l| l.is_file()) => {
            senat_lab::variety::distinct_in_file(m, &[1], false)
        }
        _ => senat_lab::variety::distinct_in_file(&files.out, &[5], true),
    }
    .or_else(input)?;
    if let Some(w) = variety.warning(deterministic, "--book-plies K") {
        eprintln!("senat: warning: {w}");
    }
    if !a.quiet {
        let t = &r.tally;
        let variant = if b.variant.is_empty() { String::new() } else { format!(" ({})", b.variant) };
        let title = format!("{}{variant}, {} vs {}", b.game, b.agents[0], b.agents[1]);
        let outcomes = [("first wins", t.first), ("second wins", t.second), ("draws", t.draws)];
        out.write_all(senat_lab::stats::outcome_table(&title, t.games, &outcomes).as_bytes())?;
        writeln!(
            out,
            "  score      {:.4} for the first team; plies mean {:.2}, max {}",
            t.first_score(),
            t.plies as f64 / t.games.max(1) as f64,
            t.max_plies
        )?;
        if t.capped > 0 {
            writeln!(
                out,
                "  capped     {} of {} games ended at the ply cap, not by a rule (the summary's `capped`)",
                t.capped, t.games
            )?;
        }
        if let Some(line) = t.loss.line(batch::LOSS_TEAMS) {
            writeln!(out, "{line}")?;
        }
        writeln!(out, "{}", variety.line())?;
        let plies = r.tally.plies as f64 * r.played as f64 / r.tally.games.max(1) as f64;
        writeln!(out, "{}", rate_line(r.played, r.resumed, r.seconds, threads, Some(plies)))?;
    }
    let line = files.written();
    files.pending.finish().or_else(input)?;
    // The result, printed even when quiet: the files written.
    writeln!(out, "{line}")?;
    Ok(())
}

/// Whether `path` is a games file of another game than Sénat (by its
/// identity line).
pub(crate) fn is_other_batch(path: &Path) -> bool {
    senat_lab::games::batch::batch_game(path).is_some_and(|g| g != GameKind::Senat)
}

/// Whether the file at `path` starts with `prefix`.
pub(crate) fn starts_with(path: &Path, prefix: &[u8]) -> bool {
    use std::io::Read;
    let mut head = vec![0u8; prefix.len()];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && head == prefix
}

/// `senat merge` of another game's shards (the game is the first input's).
pub(crate) fn lab_merge(
    inputs: &[std::path::PathBuf],
    path: &Path,
    summary: &str,
    force: bool,
    quiet: bool,
    out: &mut impl Write,
) -> Result<()> {
    let summary = summary_path(summary);
    let (what, t, variety) = senat_lab::catalog::merge_batch(inputs, path, summary.as_deref(), force).or_else(input)?;
    if !quiet {
        writeln!(
            out,
            "merged {} files: {what}, {} games: first {} / second {} / draws {}",
            inputs.len(),
            t.games,
            t.first,
            t.second,
            t.draws
        )?;
        // Distinct games by plies and final position, as selfplay counts a
        // games file without its moves file (summed by the merge).
        writeln!(out, "{}", variety.line())?;
    }
    // The result, printed even when quiet: the files written.
    let games = path.to_path_buf();
    writeln!(out, "{}", written(&[("games", Some(&games)), ("summary", summary.as_ref())]))?;
    Ok(())
}
