//! `senat arena` for every game: colour-swapped pairs (or duplicate deals
//! with seats rotated, for dominoes), round robins, gauntlets and ladders,
//! the SPRT, think time, books, and the one table every game prints. The
//! matches are played by the lab's one arena loop (`senat_lab::arena`);
//! this module checks arguments, picks the game's front end and prints.

use crate::cli::common::{
    Result, TIME_PER_MOVE_HELP, input, policy, progress_bar, threads_or_all, time_per_move, timed,
};
use crate::cli::game::{self, GameArg, on_game};
use clap::Args;
use senat_lab::arena::{Arena, Contest, Schedule};
use senat_lab::games::GameKind;
use senat_lab::games::arena::{self as lab_arena, LabContest};
use senat_lab::games::dominoes_arena::{DominoArena, DominoContest};
use senat_lab::games::senat_arena::{SenatArena, SenatContest};
use senat_lab::policy::PolicySpec;
use senat_lab::rating::Sprt;
use senat_lab::selfplay::output::{self, IfExists, OutFile};
use senat_rules::Variant;
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
    if a.game.other()? {
        return lab_arena(&a, out);
    }
    if a.no_duplicate {
        return input("--no-duplicate is for --game dominoes");
    }
    let Some(v) = a.game.senat_variant(out)? else { return Ok(()) };
    cmd_arena(a, v, out)
}

/// `senat arena` for Sénat: the agents, the draft and the SPRT read, the
/// games played by the one arena ([`play`]).
pub(crate) fn cmd_arena(a: ArenaArgs, variant: Variant, out: &mut impl Write) -> Result<()> {
    let pairs = pairs(&a, "games")?;
    let ms = time_per_move(a.time_per_move)?;
    let agents = a
        .agents
        .iter()
        .enumerate()
        .map(|(i, t)| Ok(timed(policy(&format!("agent {}", i + 1), t)?, ms)))
        .collect::<Result<Vec<PolicySpec>>>()?;
    let draft = if a.draft == "own" { None } else { Some(timed(policy("draft", &a.draft)?, ms)) };
    let arena = SenatArena {
        game: SenatContest { draft, book: a.book_plies.unwrap_or(0), variant },
        agents,
        pairs,
        seed: a.seed,
        schedule: Schedule::from_flags(a.gauntlet, a.ladder),
        sprt: sprt_arg(&a)?,
    };
    let timing = ms.map_or(String::new(), |ms| format!("; {ms} ms per move for searching agents"));
    let played =
        Played { banner: None, unit: "games", tail: format!(" (draft: {}{timing})", a.draft), view_game: None };
    play(&arena, &a, played, out)
}

/// Game pairs of `--games`: an even number ≥ 2 (`unit`: games or matches).
fn pairs(a: &ArenaArgs, unit: &str) -> Result<u64> {
    if a.games == 0 || a.games % 2 == 1 {
        return input(format_args!("--games {}: give an even number ≥ 2 ({unit} are played in pairs)", a.games));
    }
    Ok(a.games / 2)
}

/// How [`play`] reports a game's arena: a line before the table, what a
/// game is called, the end of the "played" line, the `--game` of the
/// `senat view` hint.
struct Played {
    banner: Option<String>,
    unit: &'static str,
    tail: String,
    view_game: Option<String>,
}

/// Every game's arena: checked, its files created (refused when one exists
/// without `--force`, and kept apart from the files it reads), played with
/// a progress bar, the files committed, the one table and the report
/// printed.
fn play<C: Contest>(arena: &Arena<C>, a: &ArenaArgs, p: Played, out: &mut impl Write) -> Result<()> {
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
    let played: u64 = results.iter().map(|r| r.count.wdl.games()).sum();
    let report = format!("played {played} {} in {secs:.1} s on {threads} threads{}", p.unit, p.tail);
    arena_report(out, &report, written, a, p.view_game.as_deref())
}

/// The test of `--sprt`, if given (every game's arena).
pub(crate) fn sprt_arg(a: &ArenaArgs) -> Result<Option<Sprt>> {
    a.sprt.as_deref().map(|t| Sprt::parse(t).or_else(|e| input(format_args!("--sprt {t}: {e}")))).transpose()
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
        output::check_distinct(inputs, &outputs).or_else(input)?;
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
pub(crate) fn arena_report(
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

/// `senat arena --game …`.
pub(crate) fn lab_arena(a: &ArenaArgs, out: &mut impl Write) -> Result<()> {
    if a.draft != "random" {
        return input(format_args!("--draft is for Sénat (its placement phase); --game {} has no draft", a.game.game));
    }
    if a.game.game == GameKind::Dominoes {
        if a.time_per_move.is_some() {
            return input(game::DOMINO_NO_TIME);
        }
        return domino_arena(a, out);
    }
    if a.no_duplicate {
        return input("--no-duplicate is for --game dominoes");
    }
    let pairs = pairs(a, "games")?;
    let ms = time_per_move(a.time_per_move)?;
    let agents = a
        .agents
        .iter()
        .enumerate()
        .map(|(i, t)| game::timed_agent(t, &format!("--agent {}", i + 1), ms))
        .collect::<Result<Vec<_>>>()?;
    let sprt = sprt_arg(a)?;
    on_game!(a.game.game, G => {
        for (i, spec) in agents.iter().enumerate() {
            game::fitting::<G>(spec, &format!("--agent {}", i + 1))?;
        }
        let book = a.book_plies.unwrap_or(lab_arena::DEFAULT_BOOK);
        let contest = game::text(LabContest::<G>::new(a.game.game, &a.game.full(), book, a.moves.is_some()))?;
        let arena = Arena {
            game: contest,
            agents,
            pairs,
            seed: a.seed,
            schedule: Schedule::from_flags(a.gauntlet, a.ladder),
            sprt,
        };
        let kind = a.game.game;
        let banner = format!("# {kind} arena: {pairs} pairs per pairing, book {book} plies, seed {}", a.seed);
        let played = Played { banner: Some(banner), unit: "games", tail: String::new(), view_game: Some(kind.to_string()) };
        play(&arena, a, played, out)
    })
}

/// `senat arena --game dominoes`: duplicate deals (`--no-duplicate` to
/// measure the luck they remove).
pub(crate) fn domino_arena(a: &ArenaArgs, out: &mut impl Write) -> Result<()> {
    if game::domino_variant_help(&a.game, out)? {
        return Ok(());
    }
    let pairs = pairs(a, "matches")?;
    let variant = game::domino_variant(&a.game)?;
    let agents = a
        .agents
        .iter()
        .enumerate()
        .map(|(i, t)| game::domino_spec(t, &format!("--agent {}", i + 1)))
        .collect::<Result<Vec<_>>>()?;
    let duplicate = !a.no_duplicate;
    let arena = DominoArena {
        game: DominoContest { variant, duplicate, moves: a.moves.is_some() },
        agents,
        pairs,
        seed: a.seed,
        schedule: Schedule::from_flags(a.gauntlet, a.ladder),
        sprt: sprt_arg(a)?,
    };
    let deals = if duplicate { "duplicate" } else { "independent" };
    let banner = format!(
        "# dominoes arena, {} players, {pairs} pairs per pairing, {deals} deals, seed {}",
        variant.players, a.seed
    );
    let played =
        Played { banner: Some(banner), unit: "matches", tail: String::new(), view_game: Some("dominoes".into()) };
    play(&arena, a, played, out)
}
