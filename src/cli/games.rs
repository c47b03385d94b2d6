//! `--game focus|focus4|debacle` on the commands that make sense for every
//! game: `moves`, `perft`, `show`, `replay`, `selfplay`, `merge`, `arena`,
//! `analyze`, `solve` and `bestmove`. Each command's Sénat handler sends other games
//! here; everything below is generic over [`LabGame`], and [`on_game!`] is
//! the one place that maps a `--game` name onto an adapter.
//!
//! This module parses and prints; rules come from the rules crates through
//! the lab's adapters, and it never writes a file itself (batches and arenas
//! write through the lab's atomic outputs).

use crate::cli::batch::{
    ArenaArgs, ArenaOutputs, SelfplayArgs, arena_report, progress_bar, sprt_arg, summary_path, threads_or_all,
};
use crate::cli::bestmove::BestmoveArgs;
use crate::cli::common::{Result, input};
use crate::cli::rules::{PerftArgs, ReplayArgs, ShowArgs};
use crate::cli::search::{AnalyzeArgs, SolveArgs};
use clap::Args;
use game_search::alphabeta::{Limits, Searcher};
use game_search::mcts::{self, Mcts};
use game_search::solver::{Solver, Verdict};
use game_search::{Game, WIN_BOUND};
use senat_lab::arena::Schedule;
use senat_lab::games::agent::{AgentSpec, DEFAULT_CUT, DEFAULT_SCALE, LabRollout, LeafValue};
use senat_lab::games::{GameKind, LabEval, LabGame, TextError, arena, batch, legal_moves, position_arg, result_line};
use senat_lab::selfplay::{Existing, Shard};
use senat_lab::winprob::WinChance;
use senat_rules::Variant as SenatVariant;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Which game, and its variant options.
#[derive(Args, Debug, Clone)]
pub(crate) struct GameArg {
    /// The game: senat (the default), focus (2 players), focus4 (4 players in
    /// two partnerships) or debacle (a match to 30).
    #[arg(long, value_name = "GAME", default_value = "senat", value_parser = parse_game)]
    pub(crate) game: GameKind,
    /// The game's rules variant, `key=value,...`; `help` lists the keys of
    /// the game (Sénat: first_giver, first_mover, closure, majority,
    /// repetition). README "Other games" describes each.
    #[arg(long, value_name = "OPTIONS", default_value = "")]
    pub(crate) variant: String,
    /// With --game dominoes: 2, 3 or 4 players (the variant's `players=`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=4))]
    pub(crate) players: Option<u8>,
}

fn parse_game(text: &str) -> std::result::Result<GameKind, String> {
    GameKind::parse(text).map_err(|e| e.to_string())
}

impl GameArg {
    /// Whether the command goes to this module (a game other than Sénat).
    pub(crate) fn other(&self) -> Result<bool> {
        if self.players.is_some() && self.game != GameKind::Dominoes {
            return input("--players is for --game dominoes (focus4 is Focus with 4 players)");
        }
        Ok(self.game != GameKind::Senat)
    }

    /// Sénat's variant (`--variant first_giver=red,...`), or `None` when
    /// `--variant help` asked for the keys, which are then printed.
    pub(crate) fn senat_variant(&self, out: &mut impl Write) -> Result<Option<SenatVariant>> {
        if self.variant.trim() == "help" {
            writeln!(out, "variant options of senat (--variant key=value,...):\n{}", SenatVariant::HELP)?;
            return Ok(None);
        }
        SenatVariant::parse(&self.variant).map(Some).or_else(|e| input(format_args!("--variant: {e}")))
    }

    /// The full variant text (the game's own options, then the user's).
    fn full(&self) -> String {
        self.game.variant(&self.variant)
    }
}

/// Runs `$body` with `$G` the adapter of `$kind` (never Sénat).
macro_rules! on_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            GameKind::Focus | GameKind::Focus4 => {
                type $G = senat_lab::games::focus::Focus;
                $body
            }
            GameKind::Debacle => {
                type $G = senat_lab::games::debacle::Debacle;
                $body
            }
            GameKind::Senat | GameKind::Dominoes => unreachable!("Sénat and dominoes have their own handlers"),
        }
    };
}

fn text<T>(r: std::result::Result<T, TextError>) -> Result<T> {
    r.or_else(input)
}

/// `--variant help`: prints the keys and stops.
pub(crate) fn variant_help<G: LabGame>(g: &GameArg, out: &mut impl Write) -> Result<bool> {
    if g.variant.trim() == "help" {
        writeln!(out, "variant options of {} (--variant key=value,...):\n{}", g.game, G::variant_help())?;
        return Ok(true);
    }
    Ok(false)
}

/// The position named on the command line (`start` when none is given).
pub(crate) fn position<G: LabGame>(words: &[String], g: &GameArg) -> Result<G::State> {
    let t = words.join(" ");
    let t = if t.trim().is_empty() { "start".to_string() } else { t };
    let s = text(position_arg::<G>(&t, &g.full()))?;
    same_game::<G>(&s, g)?;
    Ok(s)
}

/// focus4 and focus are one adapter: a position must be the named game's.
fn same_game<G: LabGame>(s: &G::State, g: &GameArg) -> Result<()> {
    let players = G::players(s);
    if (g.game == GameKind::Focus4) != (players == 4) && g.game != GameKind::Debacle {
        return input(format_args!("the position has {players} players, which is not --game {}", g.game));
    }
    Ok(())
}

/// A record of a game read and played: its name (for messages), every
/// position from its start (`states[i]` after `i` moves) and its moves.
pub(crate) struct Played<G: LabGame> {
    pub(crate) name: String,
    pub(crate) states: Vec<G::State>,
    pub(crate) moves: Vec<G::Move>,
}

/// Reads a record as `replay --game` does (`start` or a position text on
/// its first line, then one move per line, `#` comments) and plays it,
/// stopping at the first bad line with its number.
pub(crate) fn play_record<G: LabGame>(file: &Path, g: &GameArg) -> Result<Played<G>> {
    let name = senat_rules::notation::escape(&file.display().to_string());
    let body = senat_lab::limits::read_text(file).or_else(|e| input(format_args!("{e}")))?;
    let mut lines = senat_lab::limits::record_lines(&body);
    let Some((n0, first)) = lines.next() else { return input(format_args!("{name}: empty record")) };
    let start = position_arg::<G>(first, &g.full()).or_else(|e| input(format_args!("{name}:{n0}: {e}")))?;
    same_game::<G>(&start, g).or_else(|e| match e {
        crate::cli::common::Failure::Input(m) => input(format_args!("{name}:{n0}: {m}")),
        e => Err(e),
    })?;
    let (mut states, mut moves) = (vec![start], Vec::new());
    for (n, l) in lines {
        let s = states[states.len() - 1];
        let m = G::parse_move(&s, l).or_else(|e| input(format_args!("{name}:{n}: {e}")))?;
        states.push(G::apply(&s, m));
        moves.push(m);
    }
    Ok(Played { name, states, moves })
}

fn sorted_moves<G: LabGame>(s: &G::State) -> Vec<String> {
    let mut v: Vec<String> = legal_moves::<G>(s).into_iter().map(G::move_text).collect();
    v.sort();
    v
}

/// `senat moves --game …`.
pub(crate) fn moves(pos: &[String], g: &GameArg, out: &mut impl Write) -> Result<()> {
    if g.game == GameKind::Dominoes {
        return crate::cli::dominoes::moves(pos, g, out);
    }
    on_game!(g.game, G => {
        if variant_help::<G>(g, out)? {
            return Ok(());
        }
        let s = position::<G>(pos, g)?;
        for m in sorted_moves::<G>(&s) {
            writeln!(out, "{m}")?;
        }
        Ok(())
    })
}

/// `senat perft --game …` (bulk counting at the last ply where the rules
/// crate does it; `--full` is Sénat's only).
pub(crate) fn perft(a: &PerftArgs, out: &mut impl Write) -> Result<()> {
    if a.full {
        return input("--full is for Sénat; the other games' perft counts the last ply as their rules crate does");
    }
    let depth = senat_lab::limits::depth("--depth", a.depth, 0).or_else(input)?;
    if a.game.game == GameKind::Dominoes {
        return crate::cli::dominoes::perft(&a.pos.pos, &a.game, depth, out);
    }
    on_game!(a.game.game, G => {
        if variant_help::<G>(&a.game, out)? {
            return Ok(());
        }
        let s = position::<G>(&a.pos.pos, &a.game)?;
        if a.divide && depth == 0 {
            return input("--divide needs --depth 1 or more");
        }
        let started = Instant::now();
        let total = if a.divide {
            let mut lines: Vec<(String, u64)> = legal_moves::<G>(&s)
                .into_iter()
                .map(|m| (G::move_text(m), G::perft(&G::apply(&s, m), depth - 1)))
                .collect();
            lines.sort();
            for (m, n) in &lines {
                writeln!(out, "{m} {n}")?;
            }
            lines.iter().map(|l| l.1).sum()
        } else {
            G::perft(&s, depth)
        };
        let elapsed = started.elapsed().as_secs_f64();
        writeln!(out, "{total}")?;
        out.flush()?;
        eprintln!("perft depth {depth}: {total} nodes in {elapsed:.3} s, {:.2} Mnodes/s", total as f64 / elapsed.max(1e-9) / 1e6);
        Ok(())
    })
}

/// `senat show --game …`.
pub(crate) fn show(a: &ShowArgs, out: &mut impl Write, colour: bool) -> Result<()> {
    if a.game.game == GameKind::Dominoes {
        return crate::cli::dominoes::show(&a.pos.pos, &a.game, out);
    }
    on_game!(a.game.game, G => {
        if variant_help::<G>(&a.game, out)? {
            return Ok(());
        }
        let s = position::<G>(&a.pos.pos, &a.game)?;
        write_state::<G>(out, &s, colour && !a.plain)
    })
}

fn write_state<G: LabGame>(out: &mut impl Write, s: &G::State, colour: bool) -> Result<()> {
    out.write_all(G::board(s, colour).as_bytes())?;
    writeln!(out, "{}", G::position_text(s))?;
    Ok(())
}

/// `senat replay --game …`: a record is the start (`start` or a position
/// text) on its first line, then one move per line; `#` starts a comment.
pub(crate) fn replay(a: &ReplayArgs, out: &mut impl Write, colour: bool) -> Result<()> {
    if a.svg.is_some() {
        return input("--svg is for Sénat records only");
    }
    let colour = colour && !a.plain;
    if a.game.game == GameKind::Dominoes {
        return crate::cli::dominoes::replay(a, out);
    }
    on_game!(a.game.game, G => {
        let name = a.file.display().to_string();
        let meta = std::fs::metadata(&a.file).or_else(|e| input(format_args!("cannot read {name}: {e}")))?;
        if meta.len() > 16 << 20 {
            return input(format_args!("{name}: a record is at most 16 MiB"));
        }
        let body = std::fs::read_to_string(&a.file).or_else(|e| input(format_args!("cannot read {name}: {e}")))?;
        let mut lines = senat_lab::limits::record_lines(&body);
        let Some((n0, first)) = lines.next() else { return input(format_args!("{name}: empty record")) };
        let mut s = position_arg::<G>(first, &a.game.full()).or_else(|e| input(format_args!("{name}:{n0}: {e}")))?;
        if !a.quiet {
            writeln!(out, "start")?;
            write_state::<G>(out, &s, colour)?;
        }
        for (ply, (n, l)) in lines.enumerate() {
            let m = G::parse_move(&s, l).or_else(|e| input(format_args!("{name}:{n}: {e}")))?;
            s = G::apply(&s, m);
            if !a.quiet {
                writeln!(out, "\n{}. {}", ply + 1, G::move_text(m))?;
                write_state::<G>(out, &s, colour)?;
            }
        }
        if !a.quiet {
            writeln!(out)?;
        }
        writeln!(out, "{}", result_line::<G>(&s))?;
        Ok(())
    })
}

/// An agent spec of the lab's games, its error naming `flag`.
pub(crate) fn agent(text: &str, flag: &str) -> Result<AgentSpec> {
    AgentSpec::parse(text).or_else(|e| input(format_args!("{flag}: {e}")))
}

/// `senat bestmove --game …`: the agent's move on the last line of stdout,
/// its account on stderr.
pub(crate) fn bestmove(a: &BestmoveArgs, out: &mut impl Write) -> Result<()> {
    if a.history.is_some() {
        return input(format_args!(
            "--history is for Sénat; --game {} takes the position text (repetition does not matter there)",
            a.game.game
        ));
    }
    if a.game.game == GameKind::Dominoes {
        return crate::cli::dominoes::bestmove(a, out);
    }
    let spec = agent(&a.agent, "--agent")?;
    on_game!(a.game.game, G => {
        if variant_help::<G>(&a.game, out)? {
            return Ok(());
        }
        let s = position::<G>(&a.pos, &a.game)?;
        if G::result(&s).is_some() {
            return input(format_args!("the game is over ({})", result_line::<G>(&s)));
        }
        if legal_moves::<G>(&s).is_empty() {
            return input("no legal move in this position");
        }
        let mut player = spec.build::<G>();
        let m = player.choose(&s, &mut game_search::rng::rng_from_seed(a.seed));
        crate::cli::bestmove::report(player.explain(), &spec.to_string());
        writeln!(out, "{}", G::move_text(m))?;
        Ok(())
    })
}

/// `senat selfplay --game …`.
pub(crate) fn selfplay(a: &SelfplayArgs, out: &mut impl Write) -> Result<()> {
    if a.histogram {
        return input("--histogram is for Sénat's summary table; the other games print no length histogram");
    }
    for (set, flag) in [
        (a.red != "random" || a.blue != "random", "--red/--blue (use --first/--second)"),
        (a.draft_red.is_some() || a.draft_blue.is_some(), "--draft-red/--draft-blue"),
        (a.opening.is_some() || a.force_first_give.is_some(), "--opening/--force-first-give"),
        (a.time_per_move.is_some(), "--time-per-move (give movetime=MS in the agent spec)"),
    ] {
        if set {
            return input(format_args!("{flag} is for Sénat; --game {} does not take it", a.game.game));
        }
    }
    if a.game.game != GameKind::Dominoes && a.rounds.is_some() {
        return input("--rounds is for --game dominoes");
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
        if crate::cli::dominoes::variant_help(&a.game, out)? {
            return Ok(());
        }
        if a.book_plies != 0 {
            return input("--book-plies is not for --game dominoes (every deal is already random)");
        }
        let variant = crate::cli::dominoes::variant(&a.game)?.to_text();
        let agents =
            [crate::cli::dominoes::spec(&a.first, "--first")?, crate::cli::dominoes::spec(&a.second, "--second")?];
        let b = batch::Batch { game: a.game.game, variant, seed: a.seed, games: a.games, shard, book: 0, agents };
        return run_batch::<senat_lab::dominoes::Dominoes>(a, &b, threads, false, out);
    }
    let agents = [agent(&a.first, "--first")?, agent(&a.second, "--second")?];
    on_game!(a.game.game, G => {
        if variant_help::<G>(&a.game, out)? {
            return Ok(());
        }
        let start = text(G::start(&a.game.full()))?;
        let b = batch::Batch { game: a.game.game, variant: G::variant_text(&start), seed: a.seed, games: a.games, shard, book: a.book_plies, agents };
        let deterministic = agents.iter().all(|g| g.deterministic()) && a.book_plies == 0;
        run_batch::<G>(a, &b, threads, deterministic, out)
    })
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
    let outputs = batch::Outputs {
        games: a.out.clone(),
        moves: a.moves.clone(),
        side: a.rounds.clone(),
        summary: summary_path(&a.summary),
        existing: if a.resume {
            Existing::Resume
        } else if a.force {
            Existing::Overwrite
        } else {
            Existing::Refuse
        },
    };
    let range = b.shard.range(a.games);
    let bar = progress_bar(range.end - range.start, a.quiet);
    let r = batch::run::<G>(b, &outputs, threads, &|done| bar.set_position(done)).or_else(input)?;
    bar.finish_and_clear();
    // Distinct games by their moves where a moves file was written (its
    // second column), otherwise by plies and final position (the games
    // file keeps no moves): two games that differ only before they
    // converge (Débâcle's later rounds, say) count as one there.
    let variety = match &a.moves {
        Some(m) if senat_lab::selfplay::output::Located::new(m).is_ok_and(|l| l.is_file()) => {
            senat_lab::variety::distinct_in_file(m, &[1], false)
        }
        _ => senat_lab::variety::distinct_in_file(&a.out, &[5], true),
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
        writeln!(
            out,
            "{} games played ({} resumed) in {:.1} s: {:.0} games/s, {:.0} plies/s",
            r.played,
            r.resumed,
            r.seconds,
            r.played as f64 / r.seconds.max(1e-9),
            (r.tally.plies as f64 * r.played as f64 / r.tally.games.max(1) as f64) / r.seconds.max(1e-9)
        )?;
        writeln!(out, "{}", variety.line())?;
    }
    // The result, printed even when quiet: the files written.
    let summary = summary_path(&a.summary);
    let side = if a.game.game == GameKind::Dominoes { "rounds" } else { "side" };
    writeln!(
        out,
        "{}",
        crate::cli::batch::written(&[
            ("games", Some(&a.out)),
            ("moves", a.moves.as_ref()),
            (side, a.rounds.as_ref()),
            ("summary", summary.as_ref())
        ])
    )?;
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
pub(crate) fn merge(
    inputs: &[std::path::PathBuf],
    path: &Path,
    summary: &str,
    force: bool,
    quiet: bool,
    out: &mut impl Write,
) -> Result<()> {
    let game = batch::game_of(&inputs[0]).or_else(input)?;
    let summary = summary_path(summary);
    let (what, t) = if game == GameKind::Dominoes {
        batch::merge::<senat_lab::dominoes::Dominoes>(inputs, path, summary.as_deref(), force)
    } else {
        on_game!(game, G => batch::merge::<G>(inputs, path, summary.as_deref(), force))
    }
    .or_else(input)?;
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
    }
    // The result, printed even when quiet: the files written.
    let games = path.to_path_buf();
    writeln!(out, "{}", crate::cli::batch::written(&[("games", Some(&games)), ("summary", summary.as_ref())]))?;
    Ok(())
}

/// `senat arena --game …`.
pub(crate) fn arena(a: &ArenaArgs, out: &mut impl Write) -> Result<()> {
    for (set, flag) in [
        (a.draft != "random", "--draft"),
        (a.time_per_move.is_some(), "--time-per-move (give movetime=MS in the agent spec)"),
    ] {
        if set {
            return input(format_args!("{flag} is for Sénat; --game {} does not take it", a.game.game));
        }
    }
    if a.game.game == GameKind::Dominoes {
        return crate::cli::dominoes::arena(a, out);
    }
    if a.no_duplicate {
        return input("--no-duplicate is for --game dominoes");
    }
    if a.games == 0 || a.games % 2 == 1 {
        return input(format_args!("--games {}: give an even number ≥ 2 (games are played in pairs)", a.games));
    }
    let agents = a
        .agents
        .iter()
        .enumerate()
        .map(|(i, t)| agent(t, &format!("--agent {}", i + 1)))
        .collect::<Result<Vec<_>>>()?;
    let threads = threads_or_all(a.concurrency)?;
    let sprt = sprt_arg(a)?;
    on_game!(a.game.game, G => {
        let start = text(G::start(&a.game.full()))?;
        let arena = arena::Arena {
            game: a.game.game,
            variant: G::variant_text(&start),
            agents,
            pairs: a.games / 2,
            seed: a.seed,
            schedule: Schedule::from_flags(a.gauntlet, a.ladder),
            book: a.book_plies.unwrap_or(DEFAULT_BOOK),
            sprt,
            moves: a.moves.is_some(),
        };
        run_arena::<G>(&arena, a, threads, out)
    })
}

/// Random plies shared by both games of a pair when `--book-plies` is not given.
pub(crate) const DEFAULT_BOOK: u32 = 4;

fn run_arena<G: LabGame>(arena: &arena::Arena, a: &ArenaArgs, threads: usize, out: &mut impl Write) -> Result<()> {
    let pairings = arena.pairings();
    senat_lab::arena::check_arena(arena.agents.len(), arena.pairs, pairings.len(), arena.sprt.is_some())
        .or_else(input)?;
    let mut outs = ArenaOutputs::create(a, &[])?;
    let games_header: Vec<&str> = arena::GAMES_COLUMNS.iter().chain(G::extra_columns()).copied().collect();
    let mut files = outs.files(&arena.identity(), &arena::MOVES_COLUMNS, &games_header)?;
    let bar = progress_bar(arena.pairs * 2 * pairings.len() as u64, a.quiet);
    let started = Instant::now();
    let results = arena
        .run::<G>(threads, &mut |g| {
            bar.inc(1);
            files.game(|| arena::moves_row(arena, &pairings, g), || arena::game_row(arena, &pairings, g))
        })
        .or_else(input)?;
    bar.finish_and_clear();
    let written = files.commit().or_else(input)?;
    if let Some(f) = outs.summary {
        let rows: Vec<Vec<String>> = results.iter().map(|r| arena::summary_row(arena, r)).collect();
        senat_lab::arena::write_summary(f, &arena::SUMMARY_EXTRA, &rows).or_else(input)?;
    }
    writeln!(
        out,
        "# {} arena: {} pairs per pairing, book {} plies, seed {}",
        arena.game, arena.pairs, arena.book, arena.seed
    )?;
    let names: Vec<String> = arena.agents.iter().map(ToString::to_string).collect();
    let rows: Vec<senat_lab::arena::TableRow> = results.iter().map(arena::PairingResult::table_row).collect();
    out.write_all(senat_lab::arena::table_text(&names, &rows, arena.schedule, arena.sprt.as_ref()).as_bytes())?;
    let played: u64 = results.iter().map(|r| r.count.wdl.games()).sum();
    let report = format!("played {played} games in {:.1} s on {threads} threads", started.elapsed().as_secs_f64());
    arena_report(out, &report, written, a, Some(&arena.game.to_string()))
}

/// `senat analyze --game …`: alpha-beta on the game's evaluation, or MCTS.
pub(crate) fn analyze(a: &AnalyzeArgs, out: &mut impl Write) -> Result<()> {
    if a.game.game == GameKind::Dominoes {
        return input(
            "analyze is not available for --game dominoes (hidden information): use its agents in selfplay or arena",
        );
    }
    if a.history.is_some() || a.prior.is_some() || a.parallel != "root" || a.threads != 1 {
        return input(format_args!(
            "--history, --prior, --parallel and --threads are for Sénat; --game {} does not take them",
            a.game.game
        ));
    }
    let multipv = match a.multipv {
        Some(k @ 1..=256) => Some(k),
        Some(k) => return input(format_args!("--multipv {k}: expected 1 to 256 moves")),
        None => None,
    };
    on_game!(a.game.game, G => {
        if variant_help::<G>(&a.game, out)? {
            return Ok(());
        }
        let s = position::<G>(&a.pos, &a.game)?;
        if G::result(&s).is_some() {
            writeln!(out, "{}", result_line::<G>(&s))?;
            return Ok(());
        }
        let time = a.time.map(|t| senat_lab::limits::seconds("--time", t)).transpose().or_else(input)?;
        let seat = G::seats(G::players(&s))[G::to_move(&s)];
        let names = |pv: &[<G as Game>::Move]| pv.iter().map(|&m| G::move_text(m)).collect::<Vec<_>>().join(" ");
        match a.engine.as_str() {
            "ab" => {
                let depth = senat_lab::limits::depth("--depth", a.depth.unwrap_or(if time.is_some() { 64 } else { 4 }), 1).or_else(input)?;
                let mut searcher: Searcher<G, LabEval> = Searcher::new(LabEval, a.tt_mb);
                let r = searcher.search(&s, Limits { depth, nodes: None, time });
                for it in &r.iterations {
                    writeln!(out, "depth {:>2}  score {:>8}  nodes {:>10}  {:>7.3} s  pv {}", it.depth, score_text(it.score), it.nodes, it.elapsed.as_secs_f64(), names(&it.pv))?;
                }
                let best = r.best.map(G::move_text).unwrap_or_default();
                writeln!(out, "bestmove {best} score {} depth {} nodes {} ({:.0} nodes/s)", score_text(r.score), r.depth, r.nodes, r.nps())?;
                let scale = G::eval_scale(&s);
                writeln!(out, "win {} ({seat} to move; logistic of score / {scale}, fitted to self-play results)", WinChance::from_score(r.score, scale))?;
                if let Some(k) = multipv {
                    for (i, (m, score, pv)) in searcher.multipv(&s, &r, k).iter().enumerate() {
                        let win = WinChance::from_score(*score, scale);
                        writeln!(out, "multipv {}  move {}  win {win}  score {}  pv {}", i + 1, G::move_text(*m), score_text(*score), names(pv))?;
                    }
                }
            }
            "mcts" => {
                let config = mcts::Config {
                    playouts: match a.playouts {
                        Some(n) => senat_lab::limits::playouts("--playouts", n).or_else(input)?,
                        None if time.is_some() => senat_lab::limits::MAX_PLAYOUTS,
                        None => 10_000,
                    },
                    time,
                    selection: mcts::Selection::Uct { c: a.c },
                    memory: senat_lab::limits::mb_to_bytes(a.memory_mb).unwrap_or(usize::MAX),
                    solver: a.solve == "on",
                    ..mcts::Config::default()
                };
                let mut m: Mcts<G, LabRollout<G>> = Mcts::new(config, LabRollout::new(LeafValue::Eval { cut: DEFAULT_CUT, scale: DEFAULT_SCALE }));
                let r = m.search(&s, a.seed);
                let mut moves = r.moves.clone();
                moves.sort_by_key(|m| std::cmp::Reverse(m.1));
                for (mv, n, v) in moves.iter().take(10) {
                    writeln!(out, "{:<16} visits {:>8}  value {:.3}", G::move_text(*mv), n, v)?;
                }
                let best = r.best.map(G::move_text).unwrap_or_default();
                writeln!(out, "bestmove {best} value {:.3} playouts {} ({:.0}/s) pv {}", r.value(), r.playouts, r.playouts_per_s(), names(&r.pv))?;
                writeln!(out, "win {} ({seat} to move; the mean result, a draw counting half)", WinChance::from_mean(r.value(), r.proof))?;
                if let Some(k) = multipv {
                    let mut by_visits: Vec<usize> = (0..r.moves.len()).collect();
                    by_visits.sort_by(|&x, &y| r.moves[y].1.cmp(&r.moves[x].1).then(r.moves[y].2.total_cmp(&r.moves[x].2)));
                    for (i, &j) in by_visits.iter().take(k).enumerate() {
                        let (m, visits, mean) = r.moves[j];
                        let win = WinChance::from_mean(mean, r.proofs.get(j).copied().flatten());
                        let pv = if Some(m) == r.best { names(&r.pv) } else { G::move_text(m) };
                        writeln!(out, "multipv {}  move {}  win {win}  visits {visits}  pv {pv}", i + 1, G::move_text(m))?;
                    }
                }
            }
            e => return input(format_args!("--engine {e}: with --game {} the engines are ab and mcts", a.game.game)),
        }
        Ok(())
    })
}

fn score_text(s: i32) -> String {
    if s.abs() > WIN_BOUND {
        let plies = game_search::WIN - s.abs();
        format!("{}{plies}", if s > 0 { "win" } else { "loss" })
    } else {
        s.to_string()
    }
}

/// `senat solve --game …`: the exact solver to a horizon.
pub(crate) fn solve(a: &SolveArgs, out: &mut impl Write) -> Result<()> {
    if a.game.game == GameKind::Dominoes {
        return crate::cli::dominoes::solve(a, out);
    }
    if a.history.is_some() || a.engine != "ab" || a.prove.is_some() {
        return input(format_args!(
            "--history, --engine and --prove are for Sénat; --game {} does not take them",
            a.game.game
        ));
    }
    let depth = senat_lab::limits::depth("--max-depth", a.max_depth, 1).or_else(input)?;
    on_game!(a.game.game, G => {
        let s = position::<G>(&a.pos, &a.game)?;
        game_search::solver::check::<G>(&s).or_else(|e| input(e.to_string()))?;
        let mut solver: Solver<G> = Solver::with_table_mb(a.tt_mb);
        if let Some(t) = a.time {
            solver.time_limit = Some(senat_lab::limits::seconds("--time", t).or_else(input)?);
        }
        let verdict = |v: Verdict| match v {
            Verdict::Win(n) => format!("win for the side to move within {n} plies"),
            Verdict::Loss(n) => format!("loss for the side to move within {n} plies"),
            Verdict::Draw(n) => format!("draw within {n} plies"),
            Verdict::Unknown => format!("unknown within {depth} plies"),
        };
        let line = |pv: &[<G as game_search::Game>::Move]| pv.iter().map(|&m| G::move_text(m)).collect::<Vec<String>>().join(" ");
        if a.each_move {
            // Every legal move in turn, the verdict for the side to move at
            // the root if it plays it (the move is a ply of the horizon).
            let moves = senat_lab::games::legal_moves::<G>(&s);
            if moves.is_empty() {
                return input("the game is over here: no move to solve");
            }
            for m in moves {
                let started = Instant::now();
                let sol = solver.solve_move(&s, m, depth);
                let stopped = if sol.timed_out { " (stopped by --time)" } else { "" };
                writeln!(
                    out,
                    "move {} verdict {}{stopped}; line {}; {} nodes in {:.3} s",
                    G::move_text(m),
                    verdict(sol.verdict),
                    line(&sol.pv),
                    sol.nodes,
                    started.elapsed().as_secs_f64()
                )?;
                out.flush()?;
            }
            return Ok(());
        }
        let started = Instant::now();
        let sol = solver.solve(&s, depth);
        let pv = line(&sol.pv);
        let pv = if pv.is_empty() { String::new() } else { format!("; line {pv}") };
        let stopped = if sol.timed_out { " (stopped by --time)" } else { "" };
        writeln!(out, "{}{pv}{stopped}; {} nodes in {:.2} s", verdict(sol.verdict), sol.nodes, started.elapsed().as_secs_f64())?;
        Ok(())
    })
}
