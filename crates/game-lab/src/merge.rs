//! The one merge of every game's self-play batches: the games files of a
//! batch's shards, given in any order, joined into one games file and one
//! summary, or refused with the reason.
//!
//! What an identity line, a header and a row mean is the batch format's
//! ([`ShardFormat`], written beside each game in the games' lab); the proof that the inputs are exactly one
//! complete batch is made here, once, for every game: every file has an
//! identity, all identities agree but for the shard, shards `1..N` are each
//! given exactly once, each file ends with a whole row and holds exactly its
//! shard's games in order, and every row passes the format's check.
//!
//! This module never plays a game, never names one, and never writes but through
//! [`OutFile`]: the outputs are created only once the identities prove one
//! batch, and renamed into place only when every row has passed, so a
//! failed or killed merge leaves the old files (or none).

use crate::output::{self, IfExists, OutFile, OutputError};
use crate::runner::{RunError, Shard};
use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// What the merge needs from a batch format: its identity, its header and
/// its rows, and the summary they add up to.
pub trait ShardFormat {
    /// The format's error: the merge's own failures ([`RunError`]) convert into it.
    type Error: From<RunError> + std::error::Error + Send + 'static;
    /// A games file's batch identity.
    type Id: Clone;
    /// What the rows add up to.
    type Sum: Default;
    /// The identity of `path` from its first line (with its newline, not
    /// empty), or the error that says why it is none.
    fn identity(path: &Path, line: &str) -> Result<Self::Id, Self::Error>;
    /// The slice of the batch the file holds.
    fn shard(id: &Self::Id) -> Shard;
    /// The games of the whole batch.
    fn games(id: &Self::Id) -> u64;
    /// The batch seed.
    fn seed(id: &Self::Id) -> u64;
    /// The first field but the shard where two identities differ: its key,
    /// then the values in `a` and in `b`.
    fn difference(a: &Self::Id, b: &Self::Id) -> Option<(String, String, String)>;
    /// The header line to write for the file `path` of `id`, whose header
    /// line is `line` (an older file's header is written under today's
    /// name); an error where it is not a games file's header.
    fn header(path: &Path, id: &Self::Id, line: &str) -> Result<String, Self::Error>;
    /// Checks `row`, line `line` of `path`, as game `expected` of `id`, and
    /// adds it to `sum`.
    fn add_row(
        path: &Path,
        line: u64,
        row: &csv::StringRecord,
        id: &Self::Id,
        expected: u64,
        sum: &mut Self::Sum,
    ) -> Result<(), Self::Error>;
    /// The identity line of the merged file: `id` over the whole batch.
    fn merged_line(id: &Self::Id) -> String;
    /// Writes the summary of the merged batch (the merge commits it with
    /// the games file).
    fn write_summary(out: &mut OutFile, id: &Self::Id, sum: &Self::Sum) -> Result<(), Self::Error>;
    /// The error of a file whose second line is neither the games header
    /// ([`ShardFormat::header`]'s error `e`) nor a companion's, as
    /// [`check_file`] reports it: by default `e` itself.
    fn not_a_header(e: Self::Error) -> Self::Error {
        e
    }
}

/// A failed read or write of `path`, as the runner reports it.
fn io_err(what: &'static str, path: &Path, e: impl std::fmt::Display) -> RunError {
    RunError::Output(OutputError::Io { what, path: path.to_path_buf(), message: e.to_string() })
}

/// Reads the first line of `path` (`None`: the file is empty).
fn first_line(path: &Path) -> Result<Option<String>, RunError> {
    let f = File::open(path).map_err(|e| io_err("read", path, e))?;
    let mut line = Vec::new();
    io::BufReader::new(f).take(1 << 20).read_until(b'\n', &mut line).map_err(|e| io_err("read", path, e))?;
    if line.is_empty() {
        return Ok(None);
    }
    String::from_utf8(line).map(Some).map_err(|_| RunError::Identity {
        path: path.to_path_buf(),
        message: "the first line is not UTF-8 (not a games file of `senat selfplay`)".into(),
    })
}

/// The rows of a games file of format `F`, after its identity and header.
type Rows = csv::Reader<io::BufReader<File>>;

/// Opens the games file `path` of batch `id` as the merge and a check of
/// a file ([`check_file`]) read it: its last row must be whole (a row cut
/// short is an interrupted run); returns its header as the format writes
/// it ([`ShardFormat::header`]) and its rows.
fn open_rows<F: ShardFormat>(path: &Path, id: &F::Id) -> Result<(String, Rows), F::Error> {
    let mut r = io::BufReader::with_capacity(1 << 20, whole_rows(path)?);
    let mut line = Vec::new();
    r.read_until(b'\n', &mut line).map_err(|e| io_err("read", path, e))?;
    line.clear();
    // The header line ("" where the file holds its identity alone).
    r.read_until(b'\n', &mut line).map_err(|e| io_err("read", path, e))?;
    let head = F::header(path, id, &String::from_utf8_lossy(&line))?;
    Ok((head, csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(r)))
}

/// Checks `rows` of the games file `path` of batch `id` as the games of its
/// shard from the first on ([`ShardFormat::add_row`], the check of
/// `--resume` too), adding each to `sum` and handing it to `each`; refuses
/// a row beyond the shard. Returns the index of the game after the last row.
fn check_rows<F: ShardFormat>(
    path: &Path,
    id: &F::Id,
    mut rows: Rows,
    sum: &mut F::Sum,
    mut each: impl FnMut(&csv::StringRecord) -> Result<(), RunError>,
) -> Result<u64, F::Error> {
    let range = F::shard(id).range(F::games(id));
    let mut next = range.start;
    let mut rec = csv::StringRecord::new();
    while rows.read_record(&mut rec).map_err(|e| io_err("read", path, e))? {
        // The file's line: the reader starts after the identity and the header.
        let number = rec.position().map_or(0, |p| p.line() + 2);
        if next == range.end {
            return Err(RunError::Identity {
                path: path.to_path_buf(),
                message: format!("line {number}: a row beyond the shard's games {}..{}", range.start, range.end),
            }
            .into());
        }
        F::add_row(path, number, &rec, id, next, sum)?;
        each(&rec)?;
        next += 1;
    }
    Ok(next)
}

/// Checks the batch file `path` of format `F` as `merge` and `--resume`
/// read one, before it is converted (`senat convert`): its identity; a
/// games file's header and every row ([`ShardFormat::add_row`]; its rows
/// may stop before the end of its shard, as an interrupted run's); the
/// header of any other file of the batch one of `companions` (its moves or
/// side file); and no last row cut short.
pub fn check_file<F: ShardFormat>(path: &Path, companions: &[String]) -> Result<(), F::Error> {
    let line = first_line(path)?
        .ok_or_else(|| RunError::Identity { path: path.to_path_buf(), message: "empty file".into() })?;
    let id = F::identity(path, &line)?;
    let mut second = Vec::new();
    let mut r = io::BufReader::new(File::open(path).map_err(|e| io_err("read", path, e))?);
    r.read_until(b'\n', &mut second).map_err(|e| io_err("read", path, e))?;
    second.clear();
    r.by_ref().take(1 << 20).read_until(b'\n', &mut second).map_err(|e| io_err("read", path, e))?;
    let second = String::from_utf8_lossy(&second);
    if companions.iter().any(|h| *h == second) {
        return whole_rows(path).map(drop).map_err(F::Error::from);
    }
    let (_, rows) = open_rows::<F>(path, &id).map_err(F::not_a_header)?;
    check_rows::<F>(path, &id, rows, &mut F::Sum::default(), |_| Ok(()))?;
    Ok(())
}

/// Opens `path` at its start, refusing it where its last row is cut short
/// (an interrupted run's file, of any kind).
fn whole_rows(path: &Path) -> Result<File, RunError> {
    let mut f = File::open(path).map_err(|e| io_err("read", path, e))?;
    let mut tail = Vec::new();
    if f.seek(SeekFrom::End(-1)).is_ok() {
        f.read_to_end(&mut tail).map_err(|e| io_err("read", path, e))?;
    }
    if tail != b"\n" {
        return Err(RunError::Incomplete(format!(
            "{} ends with an incomplete row (an interrupted run? continue it with --resume)",
            path.display()
        )));
    }
    f.seek(SeekFrom::Start(0)).map_err(|e| io_err("read", path, e))?;
    Ok(f)
}

/// Joins the games files `inputs` of the shards of one batch of format
/// `F` (in any order) into `out`, and writes the summary of all games to
/// `summary`; an existing output is replaced only when `overwrite`.
/// Returns the merged batch's identity (the first input's) and its sum.
pub fn merge<F: ShardFormat>(
    inputs: &[PathBuf],
    out: &Path,
    summary: Option<&Path>,
    overwrite: bool,
) -> Result<(F::Id, F::Sum), F::Error> {
    if inputs.is_empty() {
        return Err(RunError::Invalid("merge: no input files".into()).into());
    }
    let ins: Vec<(&str, &Path)> = inputs.iter().map(|p| ("input", p.as_path())).collect();
    let mut outs = vec![("--out", out)];
    outs.extend(summary.map(|p| ("--summary", p)));
    output::check_distinct(&ins, &outs).map_err(RunError::Output)?;
    let if_exists = if overwrite { IfExists::Overwrite } else { IfExists::Refuse { resumable: false } };
    // Identities first: a set of shards that is not one batch fails before anything is written.
    let mut shards: Vec<(F::Id, &Path)> = Vec::new();
    for path in inputs {
        let line = first_line(path)?.ok_or_else(|| RunError::Identity {
            path: path.clone(),
            message: "empty file (a shard that never started?)".into(),
        })?;
        shards.push((F::identity(path, &line)?, path));
    }
    let (first, first_path) = shards[0].clone();
    let n = F::shard(&first).n;
    for (id, path) in &shards[1..] {
        if let Some((key, a, b)) = F::difference(&first, id) {
            return Err(RunError::Incomplete(format!(
                "{} and {} are not shards of one batch: {key}={a} in the first, {key}={b} in the second",
                first_path.display(),
                path.display()
            ))
            .into());
        }
        let s = F::shard(id);
        if s.n != n {
            return Err(RunError::Incomplete(format!(
                "{} and {} are not shards of one batch: shard {}/{n} and shard {}/{}",
                first_path.display(),
                path.display(),
                F::shard(&first).k,
                s.k,
                s.n
            ))
            .into());
        }
    }
    shards.sort_by_key(|(id, _)| F::shard(id).k);
    for w in shards.windows(2) {
        let k = F::shard(&w[0].0).k;
        if k == F::shard(&w[1].0).k {
            return Err(RunError::Incomplete(format!(
                "shard {k}/{n} is given twice: {} and {}",
                w[0].1.display(),
                w[1].1.display()
            ))
            .into());
        }
    }
    let games = F::games(&first);
    // The shards given are distinct and sorted, each within 1..=n, so the
    // first few missing ones lie within the first `given + LISTED` numbers:
    // an identity that claims 2^64 shards is answered at once, not by
    // walking (or listing) every one of them.
    const LISTED: usize = 10;
    let given: Vec<u64> = shards.iter().map(|(id, _)| F::shard(id).k).collect();
    let absent = n - given.len() as u64;
    let mut missing: Vec<String> = (1..=n)
        .filter(|k| given.binary_search(k).is_err())
        .take(LISTED)
        .map(|k| {
            let r = Shard { k, n }.range(games);
            format!("shard {k} of {n} (games {}..{})", r.start, r.end)
        })
        .collect();
    if absent > 0 {
        if absent > missing.len() as u64 {
            missing.push(format!("and {} more", absent - missing.len() as u64));
        }
        return Err(RunError::Incomplete(format!(
            "the files are not a complete batch: missing {} (seed {}, {games} games)",
            missing.join(", "),
            F::seed(&first)
        ))
        .into());
    }
    let mut games_out = OutFile::create(out, if_exists).map_err(RunError::Output)?;
    let summary_out = summary.map(|p| OutFile::create(p, if_exists)).transpose().map_err(RunError::Output)?;
    let mut w =
        io::BufWriter::with_capacity(1 << 20, games_out.file().try_clone().map_err(|e| io_err("write", out, e))?);
    let werr = |e: io::Error| io_err("write", out, e);
    w.write_all(F::merged_line(&first).as_bytes()).map_err(werr)?;
    let mut header: Option<String> = None;
    let mut sum = F::Sum::default();
    for (id, path) in &shards {
        let path: &Path = path;
        let (head, rows) = open_rows::<F>(path, id)?;
        match &header {
            None => {
                w.write_all(head.as_bytes()).map_err(werr)?;
                header = Some(head);
            }
            Some(h) if *h != head => {
                return Err(RunError::Identity {
                    path: path.to_path_buf(),
                    message: "its header differs from the first input's".into(),
                }
                .into());
            }
            Some(_) => {}
        }
        // The rows, read and written back as CSV (every format writes its
        // rows with the csv crate's defaults, so the bytes stay the same).
        let range = F::shard(id).range(games);
        let mut copy = csv::WriterBuilder::new().has_headers(false).flexible(true).from_writer(&mut w);
        let next = check_rows::<F>(path, id, rows, &mut sum, |rec| {
            copy.write_record(rec).map_err(|e| io_err("write", out, e))
        })?;
        copy.flush().map_err(werr)?;
        drop(copy);
        if next != range.end {
            let s = F::shard(id);
            return Err(RunError::Incomplete(format!(
                "{} (shard {}/{}) stops after {} of its {} games {}..{}: an interrupted run? continue it with --resume",
                path.display(),
                s.k,
                s.n,
                next - range.start,
                range.end - range.start,
                range.start,
                range.end
            ))
            .into());
        }
    }
    w.flush().map_err(werr)?;
    drop(w);
    let mut files = vec![games_out];
    if let Some(mut s) = summary_out {
        F::write_summary(&mut s, &first, &sum)?;
        files.push(s);
    }
    output::commit_all(files).map_err(RunError::Output)?;
    Ok((first, sum))
}
