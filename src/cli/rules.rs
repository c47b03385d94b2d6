//! The rules commands: `moves`, `perft`, `show` and `replay`, which read a
//! position or a game record and print what the rules say about it. They
//! call `senat_rules` for every rule; this module never searches, plays a
//! policy or writes a file (`replay --svg` is the view module's).

use crate::cli::common::{PosArg, Result, input, play_record, read_record, result_line, sorted_moves, write_position};
use crate::cli::games::{self, GameArg};
use crate::cli::view::replay_pictures;
use clap::Args;
use senat_lab::limits;
use senat_rules::perft::{divide_with, perft, perft_full};
use senat_rules::position::Position;
use senat_rules::variant::Variant;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `senat perft`.
#[derive(Args, Debug)]
pub(crate) struct PerftArgs {
    #[command(flatten)]
    pub(crate) pos: PosArg,
    #[command(flatten)]
    pub(crate) game: GameArg,
    /// Number of half-moves (plies) to look ahead, 0 to 120; 0 counts the position itself.
    #[arg(short, long, value_name = "N")]
    pub(crate) depth: u32,
    /// Before the total, print each legal move with the leaf count below it.
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
    /// The game record to play.
    pub(crate) file: PathBuf,
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
        return games::moves(&a.pos.pos, &a.game, out);
    }
    let Some(v) = a.game.senat_variant(out)? else { return Ok(()) };
    cmd_moves(&a.pos.resolve(v)?, out)
}

/// `senat perft`.
pub(crate) fn perft_command(a: PerftArgs, out: &mut impl Write) -> Result<()> {
    if a.game.other()? {
        return games::perft(&a, out);
    }
    let Some(v) = a.game.senat_variant(out)? else { return Ok(()) };
    let depth = limits::depth("--depth", a.depth, 0).or_else(input)?;
    cmd_perft(&a.pos.resolve(v)?, depth, a.divide, a.full, out)
}

/// `senat show`; `colour`: stdout takes terminal colours.
pub(crate) fn show(a: ShowArgs, out: &mut impl Write, colour: bool) -> Result<()> {
    if a.game.other()? {
        return games::show(&a, out, colour);
    }
    let Some(v) = a.game.senat_variant(out)? else { return Ok(()) };
    let p = a.pos.resolve(v)?;
    write_position(out, &p, colour && !a.plain)
}

/// `senat replay`; `colour`: stdout takes terminal colours.
pub(crate) fn replay(a: ReplayArgs, out: &mut impl Write, colour: bool) -> Result<()> {
    if a.game.other()? {
        return games::replay(&a, out, colour);
    }
    let Some(v) = a.game.senat_variant(out)? else { return Ok(()) };
    cmd_replay(&a.file, v, a.quiet, colour && !a.plain, out)?;
    match a.svg {
        Some(dir) => replay_pictures(&a.file, &dir, a.force, out),
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

fn cmd_replay(file: &Path, v: Variant, quiet: bool, ansi: bool, out: &mut impl Write) -> Result<()> {
    let (name, record) = read_record(file, v)?;
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
