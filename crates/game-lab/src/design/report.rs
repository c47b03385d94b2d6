//! What a design leaves behind: the round log (`DIR/rounds.csv`, every
//! game's outcome, appended one whole round at a time, which `--resume`
//! reads back), the table rows (`DIR/design.csv` and the printed table)
//! and the picture's data.
//!
//! The round log is append-only: each round is written with one
//! `write_all` of its rows and an `#end R` line, then synced; a run killed
//! mid-round leaves a round without its `#end`, which the resume cuts off
//! and plays again (the same games: they are a function of the seed and
//! the index). The first line is the design's identity; a resume refuses
//! a log of another design.
//!
//! This module never plays a game and never decides a verdict.

use super::GameOutcome;
use super::decide::{Design, Verdict};
use crate::output::csv_record;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The magic of a round log's first line.
pub const LOG_MAGIC: &str = "# senat-design v1";

/// The header of a round log's rows.
pub const LOG_HEADER: &str = "round,variant,tier,game,score,draw,plies";

/// The header of the rows of a design with a target on the first giver's
/// seat (`--seat-first`): [`LOG_HEADER`] and `seat`, the seat's score
/// (absent from an Elo gap's rows).
pub const LOG_HEADER_SEAT: &str = "round,variant,tier,game,score,draw,plies,seat";

/// The header of a round log's rows: [`LOG_HEADER_SEAT`] for a design
/// with a seat target, else [`LOG_HEADER`].
pub fn log_header(seat: bool) -> &'static str {
    if seat { LOG_HEADER_SEAT } else { LOG_HEADER }
}

/// The columns of `design.csv`.
pub const CSV_HEADER: [&str; 8] = ["variant", "tier", "target", "estimate", "lo", "hi", "verdict", "games"];

/// Why a round log cannot be used.
#[derive(Debug)]
pub enum LogError {
    /// Reading or writing failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// The log exists and `--resume` was not given.
    Exists(PathBuf),
    /// `--resume` found no log.
    Missing(PathBuf),
    /// The log is another design's, or damaged.
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            LogError::Exists(p) => {
                write!(f, "{} exists: add --resume to continue that design, or choose another --out", p.display())
            }
            LogError::Missing(p) => write!(f, "--resume: {} does not exist (nothing to resume)", p.display()),
            LogError::Invalid { path, why } => write!(f, "{}: {why}", path.display()),
        }
    }
}

impl std::error::Error for LogError {}

/// One logged game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogRow {
    /// The variant's index.
    pub variant: usize,
    /// The column's index: a tier's, or for the `e`-th Elo gap the
    /// number of tiers plus `e`.
    pub tier: usize,
    /// The game's index (its seed's).
    pub game: u64,
    /// Its outcome.
    pub outcome: GameOutcome,
}

#[cfg(test)]
impl LogRow {
    /// A test row: variant `v`, tier 0, game `g`, a game of `score`
    /// (`draw` or not) and `plies` plies, no seat target.
    pub(crate) fn for_test(v: usize, g: u64, score: f64, draw: bool, plies: u32) -> LogRow {
        LogRow { variant: v, tier: 0, game: g, outcome: GameOutcome { score, draw, plies, seat: None } }
    }
}

/// The round log of a design.
#[derive(Debug)]
pub struct RoundLog {
    path: PathBuf,
    /// `None` when read only ([`RoundLog::read`]).
    file: Option<File>,
    done: BTreeMap<u64, Vec<LogRow>>,
}

/// One logged game's line, with its newline.
pub(crate) fn row_line(round: u64, x: &LogRow) -> String {
    let o = x.outcome;
    let seat = o.seat.map_or(String::new(), |s| format!(",{s}"));
    format!("{round},{},{},{},{},{},{}{seat}\n", x.variant, x.tier, x.game, o.score, o.draw as u8, o.plies)
}

/// A logged game's line (without its newline) read back with its round;
/// `None` when it is not one.
pub(crate) fn parse_row(l: &str) -> Option<(u64, LogRow)> {
    let f: Vec<&str> = l.split(',').collect();
    if f.len() != 7 && f.len() != 8 {
        return None;
    }
    let seat = match f.get(7) {
        Some(s) => Some(s.parse::<f64>().ok().filter(|x| (0.0..=1.0).contains(x))?),
        None => None,
    };
    let row = LogRow {
        variant: f[1].parse().ok()?,
        tier: f[2].parse().ok()?,
        game: f[3].parse().ok()?,
        outcome: GameOutcome {
            score: f[4].parse().ok()?,
            draw: match f[5] {
                "1" => true,
                "0" => false,
                _ => return None,
            },
            plies: f[6].parse().ok()?,
            seat,
        },
    };
    Some((f[0].parse().ok()?, row))
}

/// The complete rounds of a log's text after its first line, and the
/// length of the text up to the last complete round (what a resume keeps).
fn parse_rounds(text: &str, path: &Path) -> Result<(BTreeMap<u64, Vec<LogRow>>, usize), LogError> {
    let invalid = |why: String| LogError::Invalid { path: path.to_path_buf(), why };
    let mut lines = text.split_inclusive('\n');
    lines.next();
    let mut keep = text.find('\n').map_or(text.len(), |i| i + 1);
    let mut done = BTreeMap::new();
    let mut pending: Vec<LogRow> = Vec::new();
    let mut at = keep;
    for line in lines {
        at += line.len();
        let l = line.trim_end();
        if !line.ends_with('\n') {
            break; // a cut last line
        }
        if l == LOG_HEADER || l == LOG_HEADER_SEAT {
            keep = at;
            continue;
        }
        if let Some(r) = l.strip_prefix("#end ") {
            let r: u64 = r.parse().map_err(|_| invalid(format!("bad line `{l}`")))?;
            done.insert(r, std::mem::take(&mut pending));
            keep = at;
            continue;
        }
        let (_, row) = parse_row(l).ok_or_else(|| invalid(format!("bad row `{l}`")))?;
        pending.push(row);
    }
    Ok((done, keep))
}

/// Checks a log's first line against design `first` (the magic and the identity).
fn check_first(text: &str, first: &str, path: &Path) -> Result<(), LogError> {
    let invalid = |why: String| LogError::Invalid { path: path.to_path_buf(), why };
    match text.split_inclusive('\n').next() {
        Some(l) if l.trim_end() == first => Ok(()),
        Some(l) => {
            Err(invalid(format!("it is the log of another design:\n  it holds: {}\n  this run: {first}", l.trim_end())))
        }
        None => Err(invalid("it is empty".into())),
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> LogError + '_ {
    move |e| LogError::Io { path: path.to_path_buf(), message: e.to_string() }
}

impl RoundLog {
    /// Opens the log at `path` for design `identity` (one line, no
    /// newline): a new one, or with `resume` the existing one, its complete
    /// rounds read back and any cut round removed.
    /// `seat`: the design has a target on the first giver's seat ([`log_header`]).
    pub fn open(path: &Path, identity: &str, resume: bool, seat: bool) -> Result<RoundLog, LogError> {
        let first = format!("{LOG_MAGIC} {identity}");
        if !resume {
            let mut file = OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    LogError::Exists(path.to_path_buf())
                } else {
                    io(path)(e)
                }
            })?;
            file.write_all(format!("{first}\n{}\n", log_header(seat)).as_bytes()).map_err(io(path))?;
            file.sync_data().map_err(io(path))?;
            return Ok(RoundLog { path: path.to_path_buf(), file: Some(file), done: BTreeMap::new() });
        }
        let mut file = OpenOptions::new().read(true).write(true).open(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound { LogError::Missing(path.to_path_buf()) } else { io(path)(e) }
        })?;
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(io(path))?;
        check_first(&text, &first, path)?;
        let (done, keep) = parse_rounds(&text, path)?;
        file.set_len(keep as u64).map_err(io(path))?;
        file.seek(SeekFrom::End(0)).map_err(io(path))?;
        Ok(RoundLog { path: path.to_path_buf(), file: Some(file), done })
    }

    /// Reads the log at `path` of design `identity` without changing it
    /// (a shard's view: a cut round is skipped, not removed); a missing
    /// log is a design with no round played. [`RoundLog::append`] refuses.
    pub fn read(path: &Path, identity: &str) -> Result<RoundLog, LogError> {
        let first = format!("{LOG_MAGIC} {identity}");
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io(path)(e)),
        };
        let done = if text.is_empty() {
            BTreeMap::new()
        } else {
            check_first(&text, &first, path)?;
            parse_rounds(&text, path)?.0
        };
        Ok(RoundLog { path: path.to_path_buf(), file: None, done })
    }

    /// The games of round `r` if it is logged.
    pub fn logged(&self, r: u64) -> Option<&[LogRow]> {
        self.done.get(&r).map(Vec::as_slice)
    }

    /// Rounds logged.
    pub fn rounds(&self) -> usize {
        self.done.len()
    }

    /// Appends round `r` (one write, then a sync).
    pub fn append(&mut self, r: u64, rows: &[LogRow]) -> Result<(), LogError> {
        let Some(file) = self.file.as_mut() else {
            return Err(LogError::Io { path: self.path.clone(), message: "opened read only".into() });
        };
        let mut buf = Vec::new();
        for x in rows {
            buf.extend(row_line(r, x).as_bytes());
        }
        buf.extend(format!("#end {r}\n").as_bytes());
        file.write_all(&buf).map_err(io(&self.path))?;
        file.sync_data().map_err(io(&self.path))?;
        self.done.insert(r, rows.to_vec());
        Ok(())
    }
}

/// One row of the table: a variant × tier × target.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The variant's text (`rules` for the default rules).
    pub variant: String,
    /// The tier's spec (an Elo gap's: `A>B`).
    pub tier: String,
    /// The target, as `first:LO..HI`, `draws:0..X`, `plies:LO..HI` or `elo(A>B)>=N`.
    pub target: String,
    /// The sample mean.
    pub estimate: f64,
    /// The confidence sequence's bounds.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// The verdict.
    pub verdict: Verdict,
    /// Games played (an Elo gap's: twice its pairs).
    pub games: u64,
}

/// The rows of a design: `variants` as given, and per column its name (a
/// tier's spec, an Elo gap's `A>B`) and its targets' names, in the
/// design's order (variant-major). A row's games are its observations
/// times the column's cost (an Elo gap's pairs count two games each).
pub fn rows(d: &Design, variants: &[String], columns: &[(String, Vec<String>)]) -> Vec<Row> {
    let mut out = Vec::new();
    for (v, name) in variants.iter().enumerate() {
        for (t, (tier, targets)) in columns.iter().enumerate() {
            for (k, target) in targets.iter().enumerate() {
                let c = d.cell(v, t, k);
                let (lo, hi) = c.interval();
                out.push(Row {
                    variant: if name.is_empty() { "rules".into() } else { name.clone() },
                    tier: tier.clone(),
                    target: target.clone(),
                    estimate: c.mean(),
                    lo,
                    hi,
                    verdict: c.verdict(),
                    games: c.count() * d.cost(t),
                });
            }
        }
    }
    out
}

/// The column `design.csv` gains, last, when the design has a tolerance
/// (its value on every row); a design without one has [`CSV_HEADER`] only.
pub const CSV_TOLERANCE: &str = "tolerance";

/// The CSV text of `rows` (header first), decided with tolerance
/// `tolerance`: [`CSV_HEADER`], and [`CSV_TOLERANCE`] last when it is > 0.
pub fn csv(rows: &[Row], tolerance: f64) -> Vec<u8> {
    let zoned = tolerance > 0.0;
    let mut header: Vec<&str> = CSV_HEADER.to_vec();
    if zoned {
        header.push(CSV_TOLERANCE);
    }
    let mut out = csv_record(&header);
    for r in rows {
        let mut fields = vec![
            r.variant.clone(),
            r.tier.clone(),
            r.target.clone(),
            format!("{:.4}", r.estimate),
            format!("{:.4}", r.lo),
            format!("{:.4}", r.hi),
            r.verdict.name().to_string(),
            r.games.to_string(),
        ];
        if zoned {
            fields.push(tolerance.to_string());
        }
        out.extend(csv_record(&fields));
    }
    out
}

/// The printed table of `rows`.
pub fn table(rows: &[Row]) -> String {
    let wv = rows.iter().map(|r| r.variant.len()).max().unwrap_or(7).max(7);
    let wt = rows.iter().map(|r| r.tier.len()).max().unwrap_or(4).max(4);
    let wg = rows.iter().map(|r| r.target.len()).max().unwrap_or(6).max(6);
    let mut s = format!(
        "{:wv$}  {:wt$}  {:wg$}  {:>8}  {:>17}  {:>9}  {:>7}\n",
        "variant", "tier", "target", "estimate", "interval", "verdict", "games"
    );
    for r in rows {
        s += &format!(
            "{:wv$}  {:wt$}  {:wg$}  {:>8.4}  {:>17}  {:>9}  {:>7}\n",
            r.variant,
            r.tier,
            r.target,
            r.estimate,
            format!("[{:.4}, {:.4}]", r.lo, r.hi),
            r.verdict.name(),
            r.games
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(v: usize, g: u64) -> LogRow {
        LogRow::for_test(v, g, 0.5, true, 40)
    }

    #[test]
    fn the_log_resumes_whole_rounds_only() {
        let dir = std::env::temp_dir().join(format!("senat-design-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("rounds.csv");
        let _ = std::fs::remove_file(&p);
        {
            let mut log = RoundLog::open(&p, "id=1", false, false).unwrap();
            log.append(0, &[row(0, 0), row(1, 0)]).unwrap();
        }
        assert!(matches!(RoundLog::open(&p, "id=1", false, false), Err(LogError::Exists(_))));
        // A round cut by a kill: rows without their #end.
        let mut f = OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b"1,0,0,1,1,0,33\n1,1,0,1,0").unwrap();
        drop(f);
        let mut log = RoundLog::open(&p, "id=1", true, false).unwrap();
        assert_eq!(log.rounds(), 1);
        assert_eq!(log.logged(0).unwrap(), &[row(0, 0), row(1, 0)]);
        assert!(log.logged(1).is_none());
        log.append(1, &[row(0, 1)]).unwrap();
        drop(log);
        let log = RoundLog::open(&p, "id=1", true, false).unwrap();
        assert_eq!(log.logged(1).unwrap(), &[row(0, 1)]);
        assert!(matches!(RoundLog::open(&p, "id=2", true, false), Err(LogError::Invalid { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The tolerance column is there only with a tolerance.
    #[test]
    fn the_csv_names_its_tolerance_only_when_there_is_one() {
        let d = super::super::decide::Design::new(1, 1, vec![super::super::decide::Band { lo: 0.4, hi: 0.6 }], 0.05)
            .unwrap();
        let r = rows(&d, &[String::new()], &[("t".into(), vec!["first:0.4..0.6".into()])]);
        let plain = String::from_utf8(csv(&r, 0.0)).unwrap();
        assert_eq!(
            plain,
            "variant,tier,target,estimate,lo,hi,verdict,games\nrules,t,first:0.4..0.6,0.5000,0.0000,1.0000,undecided,0\n"
        );
        let zoned = String::from_utf8(csv(&r, 0.01)).unwrap();
        assert!(zoned.starts_with("variant,tier,target,estimate,lo,hi,verdict,games,tolerance\n"), "{zoned}");
        assert!(zoned.ends_with(",undecided,0,0.01\n"), "{zoned}");
    }
}
