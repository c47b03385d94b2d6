//! `senat metrics`: Ludii's game metrics of files of games, one table per
//! file: Sénat's games files, and the other games' moves files (Focus,
//! 4-player Focus, Débâcle, dominoes: `selfplay --game G --moves M.csv`),
//! the game read from each file's identity line. The replay and the metrics
//! are `senat_lab::metrics` (Sénat's games files read by
//! `senat_lab::annex::GameRows`, the moves files by
//! `senat_lab::metrics::records`); this module opens the files, prints the
//! tables and writes the CSV atomically (refusing to overwrite without
//! `--force`). The games are replayed from the start of the variant the
//! file's identity line names (the rules' when it names none).

use crate::cli::annex::open;
use crate::cli::common::{Result, batch_variant, input, refuse_existing, write_atomic};
use clap::Args;
use senat_lab::annex::GameRows;
use senat_lab::games::GameKind;
use senat_lab::games::batch::batch_game;
use senat_lab::learned::Learned;
use senat_lab::limits;
use senat_lab::metrics::records::MovesFile;
use senat_lab::metrics::{self, MetricRow, Metrics, MetricsError};
use senat_lab::stats::REASONS;
use senat_rules::{EndReason, Position};
use std::borrow::Cow;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use std::time::Instant;

/// The columns of the CSV.
const CSV_HEADER: [&str; 7] = ["file", "metric", "value", "low", "high", "games", "definition"];

/// Arguments of `senat metrics`.
#[derive(Args, Debug)]
pub(crate) struct MetricsArgs {
    /// Sénat: games files written by `senat selfplay` or `senat merge` (leading `#` lines are skipped).
    /// Focus, focus4, debacle, connect4, dominoes: the moves files of `senat selfplay --game G --moves M.csv` (their
    /// games files hold no moves). Each file is one table (e.g. one per strength tier), labelled by its name;
    /// the game is read from each file's first line.
    #[arg(value_name = "FILES", required = true)]
    files: Vec<PathBuf>,
    /// Also write the tables as one CSV: file,metric,value,low,high,games,definition.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Overwrite an existing --out file.
    #[arg(long)]
    force: bool,
    /// The game of the files (senat, focus, focus4, debacle, connect4, dominoes): a file of another game is refused.
    /// Without it, each file's own.
    #[arg(long = "game", value_name = "GAME")]
    game: Option<String>,
    /// Value the positions by this weights file's learned evaluation instead of the game's own (the evaluated
    /// metrics: DecisivenessMoves, LeadChange, Drama). Sénat: a learned weights file as `learned:file=` reads it
    /// (crates/lab/data/net-senat.txt is the shipped one with the value network); focus, focus4, debacle,
    /// connect4: a file of `senat train-net --game G` as `mcts:file=` reads it (of the files' game); not dominoes.
    /// The definitions name the file and its hash
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
}

/// A number for the printed table: to 4 decimals below 10 (shares, values),
/// above it to 2, or bare if whole (lengths, branching).
fn num(x: f64) -> String {
    if x.abs() < 10.0 {
        format!("{x:.4}")
    } else if x == x.round() {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

fn print_table(out: &mut impl Write, rows: &[MetricRow]) -> Result<()> {
    writeln!(out, "  {:<26} {:>9}  {:<22} {:>8}", "metric", "value", "95% interval", "games")?;
    for r in rows {
        let value = r.value.map_or("-".to_string(), num);
        let ci = r.interval.map_or(String::new(), |(lo, hi)| format!("[{}, {}]", num(lo), num(hi)));
        writeln!(out, "  {:<26} {:>9}  {:<22} {:>8}", r.name, value, ci, r.games)?;
    }
    Ok(())
}

fn csv_bytes(tables: &[(String, Vec<MetricRow>)]) -> Vec<u8> {
    let f6 = |x: f64| format!("{x:.6}");
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut write = || -> std::result::Result<(), csv::Error> {
        w.write_record(CSV_HEADER)?;
        for (file, rows) in tables {
            for r in rows {
                let (lo, hi) = r.interval.map_or((String::new(), String::new()), |(l, h)| (f6(l), f6(h)));
                w.write_record([
                    file.as_str(),
                    &r.name,
                    &r.value.map_or(String::new(), f6),
                    &lo,
                    &hi,
                    &r.games.to_string(),
                    &r.definition,
                ])?;
            }
        }
        w.flush()?;
        Ok(())
    };
    write().expect("writing CSV to memory cannot fail");
    w.into_inner().expect("a flushed in-memory writer")
}

/// The metrics of one Sénat games file, its closure-spike line printed
/// after the table (the output of the Sénat-only command, unchanged).
fn senat_table(path: &Path, name: &str, eval: &Valued, out: &mut impl Write) -> Result<Vec<MetricRow>> {
    let (eval, words) = eval;
    let started = Instant::now();
    // The games are replayed from the start of the batch's variant.
    let variant = batch_variant(path)?;
    let start = Position::start_of(variant);
    let rows = GameRows::new(name, open(path)?).or_else(input)?;
    let mut m: Metrics = metrics::metrics(&start, eval.as_ref(), rows).or_else(|e| match e {
        MetricsError::Replay(r) => input(format_args!("{name}:{}: {r}", r.line)),
        e => input(e),
    })?;
    if let Some(words) = words {
        m.profile.value_by(words);
    }
    let secs = started.elapsed().as_secs_f64();
    writeln!(out, "{name}: {} games ({}), replayed in {secs:.2} s", m.games, m.keys.join("; "))?;
    let rows = m.rows();
    print_table(out, &rows)?;
    let closures = m.reasons[REASONS.iter().position(|&r| r == EndReason::Closure).expect("closure is a reason")];
    match m.spike_lengths {
        Some((lo, hi)) => {
            let at = if lo == hi { format!("exactly {lo}") } else { format!("{lo} to {hi}") };
            writeln!(
                out,
                "  closure spike: {} of the {closures} closure games end at {at} play half-moves (no die through the door)",
                m.spike
            )?
        }
        None => {
            writeln!(out, "  closure spike: none of the {closures} closure games is without a die through the door")?
        }
    }
    Ok(rows)
}

/// Sénat's evaluation for the tables, and its words where it is not the
/// shipped logistic model's (`--weights`).
type Valued = (Cow<'static, Learned>, Option<String>);

/// Sénat's evaluation of `--weights` (a learned weights file), or the
/// shipped one.
fn senat_eval(weights: Option<&Path>) -> Result<Valued> {
    let Some(path) = weights else { return Ok((Cow::Borrowed(Learned::builtin()), None)) };
    let text = limits::read_text(path).or_else(|e| input(format_args!("--weights: {e}")))?;
    if let Some(game) = senat_lab::games::learn::game_line(&text) {
        return input(format_args!(
            "--weights {}: a weights file of {game}; a Sénat games file takes a learned weights file (as \
             `learned:file=` reads it)",
            path.display()
        ));
    }
    let w = Learned::parse(&text).or_else(|e| input(format_args!("--weights {}: {e}", path.display())))?;
    let words = format!(
        "the learned evaluation of {} ({}), P(win) of each side, a draw counting half",
        path.display(),
        senat_lab::identity::hash_text(Some(senat_lab::weights_file::file_hash(text.as_bytes())))
    );
    Ok((Cow::Owned(w), Some(words)))
}

/// The metrics of one moves file of another game than Sénat.
fn moves_table(path: &Path, name: &str, weights: Option<&Path>, out: &mut impl Write) -> Result<Vec<MetricRow>> {
    let started = Instant::now();
    let located = |e: MetricsError| match e {
        MetricsError::Replay(r) => format!("{name}:{}: {r}", r.line),
        MetricsError::Records { line: 0, message } => format!("{name}: {message}"),
        MetricsError::Records { line, message } => format!("{name}:{line}: {message}"),
        e => format!("{name}: {e}"),
    };
    let mut file = MovesFile::new(open(path)?).or_else(|e| input(located(e)))?;
    let game = file.identity.game;
    let weights = weights.map(|p| p.to_string_lossy().into_owned());
    let m = senat_lab::catalog::moves_file_metrics(&mut file, weights.as_deref()).or_else(|e| input(located(e)))?;
    let secs = started.elapsed().as_secs_f64();
    writeln!(out, "{name}: {} {game} games ({}), replayed in {secs:.2} s", m.games, m.keys.join("; "))?;
    let rows = m.rows();
    print_table(out, &rows)?;
    Ok(rows)
}

pub(crate) fn cmd_metrics(a: MetricsArgs, out: &mut impl Write) -> Result<()> {
    let want = match a.game.as_deref() {
        None => None,
        Some(g) => Some(GameKind::parse(g).or_else(|e| input(format_args!("--game: {e}")))?),
    };
    if let Some(path) = &a.out {
        refuse_existing(path, a.force)?;
    }
    // Read once, when the first Sénat file needs it.
    let mut eval: Option<Valued> = None;
    let mut tables = Vec::new();
    for path in &a.files {
        let name = path.display().to_string();
        let rows = match (batch_game(path), want) {
            (Some(found), Some(w)) if found != w => {
                return input(format_args!("{name}: a file of {found}, not of --game {w}"));
            }
            (None, Some(w)) if w != GameKind::Senat => {
                open(path)?;
                return input(format_args!(
                    "{name}: not a moves file of `senat selfplay --game {w} --moves M.csv` (its first line is not \
                     a batch identity)"
                ));
            }
            (Some(GameKind::Senat) | None, _) => {
                let eval = match &mut eval {
                    Some(e) => e,
                    e => e.insert(senat_eval(a.weights.as_deref())?),
                };
                senat_table(path, &name, eval, out)?
            }
            (Some(_), _) => moves_table(path, &name, a.weights.as_deref(), out)?,
        };
        tables.push((name, rows));
    }
    writeln!(out, "Definitions: `senat metrics --help`{}.", if a.out.is_some() { " and the CSV" } else { "" })?;
    if let Some(path) = &a.out {
        write_atomic(path, &csv_bytes(&tables), a.force)?;
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(())
}
