//! The rules commands: `moves`, `perft`, `show` and `replay`, for every
//! game (`--game`), which read a position or a game record and print what
//! the rules say about it: Sénat through `senat_rules`, Focus and Débâcle
//! through the lab's adapters, dominoes through `dominoes_rules`. This
//! module never searches, plays a policy or writes a file (`replay --svg`
//! is the view module's).

use crate::cli::common::{
    IndexedGame, IndexedRecord, PosArg, RecordText, Result, indexed_game, input, play_record, read_record,
    record_failure, result_line, sorted_moves, write_position,
};
use crate::cli::game::GameArg;
use crate::cli::view::replay_pictures;
use clap::Args;
use senat_lab::limits;
use senat_rules::perft::{divide_with, perft, perft_full};
use senat_rules::position::Position;
use senat_rules::{GameRecord, Record};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `senat perft`.
#[derive(Args, Debug)]
pub(crate) struct PerftArgs {
    #[command(flatten)]
    pub(crate) pos: PosArg,
    #[command(flatten)]
    pub(crate) game: GameArg,
    /// Number of half-moves (plies) to look ahead, 0 to 120; 0 counts the
    /// position itself. Required (but for `--variant help`).
    #[arg(short, long, value_name = "N")]
    pub(crate) depth: Option<u32>,
    /// Before the total, print each legal move (at a dominoes chance node,
    /// each outcome of the deal or draw) with the leaf count below it.
    #[arg(long)]
    pub(crate) divide: bool,
    /// Play every move including the leaves (copy-make), instead of counting
    /// the moves of the last ply without playing them (bulk counting).
    #[arg(long)]
    pub(crate) full: bool,
}

/// Arguments of `senat show`.
#[derive(Args, Debug)]
pub(crate) struct ShowArgs {
    #[command(flatten)]
    pub(crate) pos: PosArg,
    #[command(flatten)]
    pub(crate) game: GameArg,
    /// Never colour with terminal escapes: write the colour as a letter.
    #[arg(long)]
    pub(crate) plain: bool,
}

/// Arguments of `senat replay`.
#[derive(Args, Debug)]
pub(crate) struct ReplayArgs {
    /// The game record to play, or with --index a batch file: a games or
    /// moves file of `senat selfplay` (any game) or an arena's moves file.
    pub(crate) file: PathBuf,
    /// Play game N of a batch file (its `game` column); the game and the
    /// variant are the file's (its identity line). Which file holds the
    /// games of each game: docs/formats.md, "Which file holds a game".
    #[arg(long, value_name = "N")]
    pub(crate) index: Option<u64>,
    #[command(flatten)]
    pub(crate) game: GameArg,
    #[arg(short, long, help = crate::cli::common::QUIET_HELP)]
    pub(crate) quiet: bool,
    /// Never colour with terminal escapes: write the colour as a letter.
    #[arg(long)]
    pub(crate) plain: bool,
    /// Also draw every ply as an SVG picture into this folder (ply-000.svg, …).
    #[arg(long, value_name = "DIR")]
    pub(crate) svg: Option<PathBuf>,
    /// With --svg: overwrite existing pictures.
    #[arg(long, requires = "svg")]
    pub(crate) force: bool,
}

/// Arguments of `senat moves`.
#[derive(Args, Debug)]
pub(crate) struct MovesArgs {
    #[command(flatten)]
    pub(crate) pos: PosArg,
    #[command(flatten)]
    pub(crate) game: GameArg,
}

/// `senat moves`: the legal moves, one per line, sorted.
pub(crate) fn moves(a: MovesArgs, out: &mut impl Write) -> Result<()> {
    if a.game.other()? {
        return lab_moves(&a.pos, &a.game, out);
    }
    let Some(v) = a.game.senat_rules_variant(out)? else { return Ok(()) };
    cmd_moves(&a.pos.resolve(v)?, out)
}

/// `senat perft`.
pub(crate) fn perft_command(a: PerftArgs, out: &mut impl Write) -> Result<()> {
    if a.game.other()? {
        return lab_perft(&a, out);
    }
    let Some(v) = a.game.senat_rules_variant(out)? else { return Ok(()) };
    let depth = perft_depth(a.depth)?;
    cmd_perft(&a.pos.resolve(v)?, depth, a.divide, a.full, out)
}

/// `senat show`; `colour`: stdout takes terminal colours.
pub(crate) fn show(a: ShowArgs, out: &mut impl Write, colour: bool) -> Result<()> {
    if a.game.other()? {
        return lab_show(&a, out, colour);
    }
    let Some(v) = a.game.senat_rules_variant(out)? else { return Ok(()) };
    let p = a.pos.resolve(v)?;
    // A position alone shows the ends that need no history (majority, closure, block).
    write_position(out, &p, senat_rules::Outcome::of_occurrences(&p, 1), colour && !a.plain)
}

/// `senat replay`; `colour`: stdout takes terminal colours.
pub(crate) fn replay(a: ReplayArgs, out: &mut impl Write, colour: bool) -> Result<()> {
    if let Some(n) = a.index {
        return replay_indexed(&a, &indexed_game(&a.file, n, a.game.given())?, out, colour);
    }
    if a.game.other()? {
        if a.svg.is_some() {
            return input("--svg is for Sénat records only");
        }
        return lab_replay(&a, &RecordText::read(&a.file)?, &a.game, out, colour);
    }
    let Some(v) = a.game.senat_rules_variant(out)? else { return Ok(()) };
    let (name, record) = read_record(&a.file, v)?;
    let game = cmd_replay(&name, &record, a.quiet, colour && !a.plain, out)?;
    match a.svg {
        Some(dir) => replay_pictures(&game, &dir, a.force, out),
        None => Ok(()),
    }
}

/// `senat replay FILE --index N`: game N of a batch file, as its record
/// would be replayed.
fn replay_indexed(a: &ReplayArgs, batch: &IndexedGame, out: &mut impl Write, colour: bool) -> Result<()> {
    let g = GameArg::of_batch(batch, &a.game)?;
    if g.other()? {
        if a.svg.is_some() {
            return input("--svg is for Sénat records only");
        }
        return lab_replay(a, &batch.record(), &g, out, colour);
    }
    // Checked against its row first: a replay prints only a game that is the row's.
    batch.senat_game()?;
    let (name, record) = batch.senat_record()?;
    let game = cmd_replay(&name, &record, a.quiet, colour && !a.plain, out)?;
    match &a.svg {
        Some(dir) => replay_pictures(&game, dir, a.force, out),
        None => Ok(()),
    }
}

fn cmd_moves(p: &Position, out: &mut impl Write) -> Result<()> {
    for m in sorted_moves(p) {
        writeln!(out, "{m}")?;
    }
    Ok(())
}

// ---- perft --------------------------------------------------------------

/// `--depth`, required once `--variant help` is ruled out.
fn perft_depth(depth: Option<u32>) -> Result<u32> {
    let Some(d) = depth else { return input("--depth <N> is required, 0 to 120 (see `senat perft --help`)") };
    limits::depth("--depth", d, 0).or_else(input)
}

fn cmd_perft(p: &Position, depth: u32, by_move: bool, full: bool, out: &mut impl Write) -> Result<()> {
    if by_move && depth == 0 {
        return input("--divide needs --depth 1 or more");
    }
    let count = |p: &Position, d: u32| if full { perft_full(p, d) } else { perft(p, d) };
    let started = Instant::now();
    let total = if by_move {
        let lines = divide_with(p, depth, count);
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

/// Plays a Sénat record, printing every position unless `quiet`, then the
/// result; returns the game.
fn cmd_replay(name: &str, record: &Record, quiet: bool, ansi: bool, out: &mut impl Write) -> Result<GameRecord> {
    if !quiet {
        writeln!(out, "start")?;
        write_position(out, &record.start, senat_rules::Outcome::of_occurrences(&record.start, 1), ansi)?;
    }
    let game = play_record(name, record, |ply, m, game| {
        if !quiet {
            writeln!(out, "\n{}. {m}", ply + 1)?;
            write_position(out, game.position(), game.outcome(), ansi)?;
        }
        Ok(())
    })?;
    if !quiet {
        writeln!(out)?;
    }
    writeln!(out, "{}", result_line(&game))?;
    Ok(game)
}

/// `senat moves --game …`: the catalog's position of any game but Sénat;
/// at a dominoes chance node, each outcome with its probability.
pub(crate) fn lab_moves(pos: &PosArg, g: &GameArg, out: &mut impl Write) -> Result<()> {
    if g.variant.trim() == "help" {
        let help = senat_lab::catalog::variant_help(g.game);
        writeln!(out, "variant options of {} (--variant key=value,...):\n{help}", g.game)?;
        return Ok(());
    }
    let p = g.catalog_position(pos.words()?)?;
    if p.is_chance() {
        for (m, prob) in p.chance_outcomes() {
            writeln!(out, "{m} {prob:.6}")?;
        }
        return Ok(());
    }
    for m in p.legal_moves() {
        writeln!(out, "{m}")?;
    }
    Ok(())
}

/// `senat perft --game …`: the catalog's position of any game but Sénat
/// (bulk counting at the last ply where the rules crate does it; dominoes
/// counts chance outcomes and needs a full state; `--full` is Sénat's only).
pub(crate) fn lab_perft(a: &PerftArgs, out: &mut impl Write) -> Result<()> {
    if a.full {
        return input("--full is for Sénat; the other games' perft counts the last ply as their rules crate does");
    }
    if a.game.variant_help(out)? {
        return Ok(());
    }
    let depth = perft_depth(a.depth)?;
    let p = a.game.catalog_position(a.pos.words()?)?;
    if a.divide && depth == 0 {
        return input("--divide needs --depth 1 or more");
    }
    let started = Instant::now();
    let total = if a.divide {
        let mut lines = Vec::new();
        for m in p.legal_moves() {
            let n = p.play(&m).and_then(|q| q.perft(depth - 1)).or_else(input)?;
            lines.push((m, n));
        }
        lines.sort();
        for (m, n) in &lines {
            writeln!(out, "{m} {n}")?;
        }
        lines.iter().map(|l| l.1).sum()
    } else {
        p.perft(depth).or_else(input)?
    };
    let elapsed = started.elapsed().as_secs_f64();
    writeln!(out, "{total}")?;
    out.flush()?;
    eprintln!(
        "perft depth {depth}: {total} nodes in {elapsed:.3} s, {:.2} Mnodes/s",
        total as f64 / elapsed.max(1e-9) / 1e6
    );
    Ok(())
}

/// `senat show --game …` for every game but Sénat: the catalog's position
/// as it shows itself.
pub(crate) fn lab_show(a: &ShowArgs, out: &mut impl Write, colour: bool) -> Result<()> {
    if a.game.variant_help(out)? {
        return Ok(());
    }
    let p = a.game.catalog_position(a.pos.words()?)?;
    out.write_all(p.show(colour && !a.plain).as_bytes())?;
    Ok(())
}

/// `senat replay --game …` for every game but Sénat: a record is the start
/// (`start` or a position text) on its first line, then one move per line
/// (dominoes' chance outcomes too: `+6-4` a draw, `6-4>1` a deal); `#`
/// starts a comment. Played through the catalog
/// (`senat_lab::catalog::record`), each position shown as `show` shows it.
/// `record`: the file's lines, or a game of a batch file; `g`: its game.
pub(crate) fn lab_replay(
    a: &ReplayArgs,
    record: &RecordText,
    g: &GameArg,
    out: &mut impl Write,
    colour: bool,
) -> Result<()> {
    let colour = colour && !a.plain;
    let mut ply = 0;
    let end = senat_lab::catalog::record::play(g.game, &g.catalog_variant(), record.lines(), |m, p| -> Result<()> {
        if !a.quiet {
            match m {
                None => writeln!(out, "start")?,
                Some(m) => {
                    ply += 1;
                    writeln!(out, "\n{ply}. {m}")?;
                }
            }
            out.write_all(p.show(colour).as_bytes())?;
        }
        Ok(())
    });
    let end = end.or_else(|e| record_failure(&record.name, e))?;
    if !a.quiet {
        writeln!(out)?;
    }
    writeln!(out, "{}", end.result())?;
    Ok(())
}
