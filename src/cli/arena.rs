//! `senat arena` for every game: colour-swapped pairs (or duplicate deals
//! with seats rotated, for dominoes), round robins, gauntlets and ladders,
//! the SPRT, think time, books, and the one table every game prints. The
//! catalog reads the arguments into the game's arena
//! (`senat_lab::catalog::arena`, as for Python) and the lab's one loop
//! plays it (`senat_lab::arena`); this module parses the command line,
//! creates the files and prints.

use crate::cli::common::{Result, TIME_PER_MOVE_HELP, input, progress_bar, threads_or_all};
use crate::cli::game::GameArg;
use clap::Args;
use senat_lab::arena::{Arena, Contest, Schedule};
use senat_lab::catalog::{
    self,
    arena::{About, ArenaPlan, WithArena},
};
use senat_lab::selfplay::output::{self, IfExists, OutFile};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

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
    /// With --ladder: draw its rating list as a PNG picture (each agent's
    /// chained Elo with its 95% interval, the first agent at 0): with one
    /// agent family at growing budgets, a skill trace.
    #[arg(long, value_name = "FILE.png", requires = "ladder")]
    pub(crate) plot: Option<PathBuf>,
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
    /// Per-game CSV file (none by default, or empty as in selfplay; for
    /// dominoes one row per match).
    #[arg(long, value_name = "FILE", value_parser = optional_path())]
    pub(crate) out: Option<PathBuf>,
    /// Summary CSV file, one row per pairing (none by default), in the same
    /// columns for every game; a game's own columns follow. Empty: none,
    /// as in selfplay.
    #[arg(long, value_name = "FILE", value_parser = optional_path())]
    pub(crate) summary: Option<PathBuf>,
    /// A file of every game's moves (none by default), one row per game
    /// that `senat view` reads: `senat view FILE --index N` shows game N
    /// (Sénat: `game,pairing,pair,red,blue,winner,reason,draft_moves,
    /// play_moves,final_spn`; focus, focus4, debacle, connect4 and dominoes:
    /// `game,pairing,pair,first,second,moves`).
    #[arg(long, value_name = "FILE", value_parser = optional_path())]
    pub(crate) moves: Option<PathBuf>,
    /// Overwrite existing output files.
    #[arg(long)]
    pub(crate) force: bool,
    #[arg(short, long, help = crate::cli::common::QUIET_HELP)]
    pub(crate) quiet: bool,
}

/// `senat arena`: `--threads` checked first (as every command checks it),
/// then [`cmd_arena`] or the other games' arena.
/// The parser of an optional output path that may be given empty (`""`:
/// none, as selfplay's `--summary ""`); the arena drops empty paths.
fn optional_path() -> impl clap::builder::TypedValueParser<Value = PathBuf> {
    use clap::builder::TypedValueParser;
    clap::builder::OsStringValueParser::new().map(PathBuf::from)
}

pub(crate) fn arena(mut a: ArenaArgs, out: &mut impl Write) -> Result<()> {
    for path in [&mut a.out, &mut a.summary, &mut a.moves] {
        if path.as_ref().is_some_and(|p| p.as_os_str().is_empty()) {
            *path = None;
        }
    }
    threads_or_all(a.concurrency)?;
    a.game.other()?;
    if a.game.variant_help(out)? {
        return Ok(());
    }
    let variant = a.game.catalog_variant();
    let label = |what: &str| format!("--{what}");
    let plan = ArenaPlan {
        game: a.game.game,
        variant: &variant,
        agents: &a.agents,
        games: a.games,
        seed: a.seed,
        schedule: Schedule::from_flags(a.gauntlet, a.ladder),
        sprt: a.sprt.as_deref(),
        book: a.book_plies,
        draft: &a.draft,
        time_per_move: a.time_per_move,
        duplicate: !a.no_duplicate,
        moves: a.moves.is_some(),
        label: &label,
    };
    catalog::arena::arena(&plan, Cli { a: &a, out }).or_else(input)?
}

/// The command line's use of an arena: play it into the files and print.
struct Cli<'a, W> {
    a: &'a ArenaArgs,
    out: &'a mut W,
}

impl<W: Write> WithArena for Cli<'_, W> {
    type Output = Result<()>;
    fn with<C: Contest>(self, arena: Arena<C>, about: About) -> Result<()> {
        play(&arena, self.a, about, self.out)
    }
}

/// Every game's arena: checked, its files created (refused when one exists
/// without `--force`, and kept apart from the files it reads), played with
/// a progress bar, the files committed, the one table and the report
/// printed.
fn play<C: Contest>(arena: &Arena<C>, a: &ArenaArgs, p: About, out: &mut impl Write) -> Result<()> {
    arena.check().or_else(input)?;
    let threads = threads_or_all(a.concurrency)?;
    let weights = C::inputs(arena);
    let inputs: Vec<(&str, &Path)> = weights.iter().map(|w| ("the weights file", w.as_path())).collect();
    let outs = ArenaOutputs::create(a, &inputs)?;
    let bar = progress_bar(arena.pairs * 2 * arena.pairings().len() as u64, a.quiet);
    let started = Instant::now();
    let (results, written) =
        arena.run_to_files(threads, &|n| bar.set_position(n), outs.moves, outs.games, outs.summary).or_else(input)?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    if let Some(banner) = &p.banner {
        writeln!(out, "{banner}")?;
    }
    out.write_all(arena.table(&results).as_bytes())?;
    if let Some(path) = a.plot.as_deref() {
        let points: Vec<senat_lab::plot::LadderPoint> = arena
            .names()
            .into_iter()
            .zip(senat_lab::arena::ladder_ratings(&results))
            .map(|(name, r)| (name, r.elo, r.err))
            .collect();
        let title = format!("senat arena --ladder: {} games per step, seed {}", arena.pairs * 2, arena.seed);
        senat_lab::plot::write_ladder_png(path, &title, &points).or_else(|e| input(format_args!("--plot: {e}")))?;
    }
    let played: u64 = results.iter().map(|r| r.count.wdl.games()).sum();
    let report = format!("played {played} {} in {secs:.1} s on {threads} threads{}", p.unit, p.tail);
    arena_report(out, &report, written, a, p.view_game.as_deref())
}

/// The outputs of `senat arena` in any game: checked distinct from each
/// other and from the `inputs`, and created (as temporary files) before the
/// first game.
struct ArenaOutputs {
    games: Option<OutFile>,
    moves: Option<OutFile>,
    summary: Option<OutFile>,
}

impl ArenaOutputs {
    /// The outputs `a` names, refused when one exists without `--force`.
    fn create(a: &ArenaArgs, inputs: &[(&str, &Path)]) -> Result<ArenaOutputs> {
        let mut outputs: Vec<(&str, &Path)> = Vec::new();
        outputs.extend(a.out.as_deref().map(|p| ("--out", p)));
        outputs.extend(a.summary.as_deref().map(|p| ("--summary", p)));
        outputs.extend(a.moves.as_deref().map(|p| ("--moves", p)));
        outputs.extend(a.plot.as_deref().map(|p| ("--plot", p)));
        output::check_distinct(inputs, &outputs).or_else(input)?;
        if let Some(p) = a.plot.as_deref()
            && p.exists()
            && !a.force
        {
            return input(format_args!("{} already exists; pass --force to overwrite it", p.display()));
        }
        let if_exists = if a.force { IfExists::Overwrite } else { IfExists::Refuse { resumable: false } };
        let create = |p: Option<&Path>| p.map(|p| OutFile::create(p, if_exists)).transpose().or_else(input);
        Ok(ArenaOutputs {
            games: create(a.out.as_deref())?,
            moves: create(a.moves.as_deref())?,
            summary: create(a.summary.as_deref())?,
        })
    }
}

/// The lines after every arena's table: how many games in how long, how
/// to see one, and last the files written (`wrote games g.csv, moves
/// m.csv, summary s.csv`); the first two are left out under `--quiet`. `view_game` is the `--game …` words of the
/// `senat view` hint (`None` for Sénat).
fn arena_report(
    out: &mut impl Write,
    played: &str,
    written: (Option<PathBuf>, Option<PathBuf>),
    a: &ArenaArgs,
    view_game: Option<&str>,
) -> Result<()> {
    if !a.quiet {
        writeln!(out, "{played}")?;
        if let Some(p) = &written.1 {
            let game = view_game.map_or(String::new(), |g| format!("--game {g} "));
            let shown = senat_rules::notation::escape(&p.display().to_string());
            writeln!(out, "to see a game: senat view {game}{shown} --index N")?;
        }
    }
    if written.0.is_some() || written.1.is_some() || a.summary.is_some() {
        let files = [("games", written.0.as_ref()), ("moves", written.1.as_ref()), ("summary", a.summary.as_ref())];
        writeln!(out, "{}", crate::cli::common::written(&files))?;
    }
    Ok(())
}
