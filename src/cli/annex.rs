//! `senat draft-stats`: the strategy annex's tables and plots from games
//! files. The counting is `senat_lab::annex`, the drawing `senat_lab::plot`; this
//! module opens the files, refuses to overwrite, writes the tables
//! atomically and prints the summary.

use crate::cli::common::{Result, batch_variant, input};
use clap::Args;
use senat_lab::annex::{Annex, Table};
use senat_lab::plot;
use senat_rules::Side;
use senat_rules::notation::escape;
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `senat draft-stats`.
#[derive(Args, Debug)]
pub(crate) struct DraftStatsArgs {
    /// Games files written by `senat selfplay` or `senat merge` (leading `#` lines are skipped).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// The folder of the CSV tables (created if missing).
    #[arg(long, value_name = "DIR")]
    out_dir: PathBuf,
    /// Per-move files (`senat selfplay --moves`) for the legal-move tables and the branching plot.
    #[arg(long, value_name = "FILE")]
    moves: Vec<PathBuf>,
    /// Also draw the plots (SVG and PNG) into this folder (created if missing).
    #[arg(long, value_name = "DIR")]
    plot: Option<PathBuf>,
    /// Overwrite existing tables and plots.
    #[arg(long)]
    force: bool,
    #[arg(short, long, help = crate::cli::common::QUIET_HELP)]
    quiet: bool,
    /// The game (`--game`): Sénat only so far.
    #[command(flatten)]
    pub(crate) senat_only: crate::cli::common::SenatOnly,
}

fn refuse_existing(path: &Path, force: bool) -> Result<()> {
    if !force && path.exists() {
        return input(format_args!("{} already exists; pass --force to overwrite it", path.display()));
    }
    Ok(())
}

fn make_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).or_else(|e| input(format_args!("cannot create {}: {e}", dir.display())))
}

/// Opens a games or moves file for reading, buffered; an input error names it.
pub(crate) fn open(path: &Path) -> Result<BufReader<File>> {
    let f = File::open(path).or_else(|e| input(format_args!("cannot read {}: {e}", path.display())))?;
    Ok(BufReader::with_capacity(1 << 20, f))
}

/// Writes `t` to `dir/<name>` through a temporary file and a rename.
fn write_table(dir: &Path, t: &Table) -> Result<()> {
    let path = dir.join(t.name);
    let tmp = dir.join(format!(".{}.tmp", t.name));
    let fail = |e: &dyn std::fmt::Display| input::<()>(format_args!("cannot write {}: {e}", path.display()));
    let write = || -> std::result::Result<(), csv::Error> {
        let mut w = csv::Writer::from_path(&tmp)?;
        w.write_record(&t.header)?;
        for r in &t.rows {
            w.write_record(r)?;
        }
        w.flush()?;
        Ok(())
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(&tmp);
        return fail(&e);
    }
    std::fs::rename(&tmp, &path).or_else(|e| fail(&e))
}

/// The first line of `path` if it is a batch identity line (`# senat-batch …`).
fn identity_line(path: &Path) -> Result<Option<String>> {
    let mut line = String::new();
    std::io::BufRead::read_line(&mut open(path)?, &mut line)
        .or_else(|e| input(format_args!("cannot read {}: {e}", path.display())))?;
    Ok(line.starts_with("# senat-batch ").then(|| line.trim_end().to_string()))
}

/// Refuses inputs that would count games twice or mix batches: a file
/// given twice, two games files of the same batch and shard (one identity
/// line), and a moves file of a batch that none of the games files is of.
fn check_inputs(files: &[std::path::PathBuf], moves: &[std::path::PathBuf]) -> Result<()> {
    let shown = |p: &Path| escape(&p.display().to_string());
    let mut seen: Vec<(std::path::PathBuf, &Path)> = Vec::new();
    for p in files.iter().chain(moves) {
        let real = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
        if let Some((_, first)) = seen.iter().find(|(r, _)| *r == real) {
            return input(format_args!(
                "{} is given twice (as {}): its games would count twice",
                shown(p),
                shown(first)
            ));
        }
        seen.push((real, p));
    }
    let mut games: Vec<(String, &Path)> = Vec::new();
    for p in files {
        if let Some(id) = identity_line(p)? {
            if let Some((_, first)) = games.iter().find(|(i, _)| *i == id) {
                return input(format_args!(
                    "{} and {} hold the same batch and shard (one identity line): its games would count twice",
                    shown(first),
                    shown(p)
                ));
            }
            games.push((id, p));
        }
    }
    // A moves file may be a shard of a merged games file, or the reverse:
    // the batch is the identity without its shard and range.
    let batch = |id: &str| -> String {
        id.split(' ').filter(|t| !t.starts_with("shard=") && !t.starts_with("range=")).collect::<Vec<_>>().join(" ")
    };
    for p in moves {
        if let Some(id) = identity_line(p)?
            && !games.is_empty()
            && !games.iter().any(|(g, _)| batch(g) == batch(&id))
        {
            return input(format_args!(
                "{}: a moves file of another batch than the games files given (its identity line is none of theirs)",
                shown(p)
            ));
        }
    }
    Ok(())
}

pub(crate) fn cmd_draft_stats(a: DraftStatsArgs, out: &mut impl Write) -> Result<()> {
    a.senat_only
        .check("draft-stats", "tabulates Sénat's draft (gives and placements), which the other games do not have")?;
    for name in Annex::table_names(!a.moves.is_empty()) {
        refuse_existing(&a.out_dir.join(name), a.force)?;
    }
    check_inputs(&a.files, &a.moves)?;
    let started = Instant::now();
    let mut annex = Annex::new();
    for path in &a.files {
        // The tables name placers and movers by the rules' roles (red places
        // the odd dice, blue moves first): a batch that swaps a role is refused.
        let v = batch_variant(path)?;
        if v.swap {
            return input(format_args!(
                "{}: its batch is the variant `{v}`: draft-stats names placers and movers by colour, and under \
                 swap=yes the decision after the draft may change the player of a colour (not supported)",
                path.display()
            ));
        }
        if v.first_giver != Side::Blue || v.first_mover != Side::Blue {
            return input(format_args!(
                "{}: its batch is the variant `{v}`, which swaps who gives or moves first; draft-stats names \
                 placers and movers by the rules' roles, so it reads batches where blue gives and moves first",
                escape(&path.display().to_string())
            ));
        }
        annex.read_games_in(&path.display().to_string(), open(path)?, v).or_else(input)?;
    }
    for path in &a.moves {
        annex.read_moves(&path.display().to_string(), open(path)?).or_else(input)?;
    }
    let read_s = started.elapsed().as_secs_f64();
    if let Some(dir) = &a.plot {
        for name in plot::plot_names(&annex) {
            for ext in ["svg", "png"] {
                refuse_existing(&dir.join(format!("{name}.{ext}")), a.force)?;
            }
        }
    }
    make_dir(&a.out_dir)?;
    let tables = annex.tables();
    for t in &tables {
        write_table(&a.out_dir, t)?;
    }
    let plots = match &a.plot {
        Some(dir) => {
            make_dir(dir)?;
            plot::write_plots(&annex, dir).or_else(|e| input(format_args!("plot: {e}")))?
        }
        None => Vec::new(),
    };
    if !a.quiet {
        out.write_all(annex.summary_text().as_bytes())?;
    }
    // The result, printed even when quiet: the files written.
    {
        writeln!(
            out,
            "read {} games from {} file(s) in {read_s:.2} s; wrote {} tables to {}{}",
            annex.games(),
            a.files.len(),
            tables.len(),
            a.out_dir.display(),
            match &a.plot {
                Some(dir) => format!(" and {} plot files to {}", plots.len(), dir.display()),
                None => String::new(),
            }
        )?;
    }
    if !a.quiet && a.plot.is_some() && a.moves.is_empty() {
        writeln!(out, "no branching plot: it needs a per-move file (--moves)")?;
    }
    Ok(())
}
