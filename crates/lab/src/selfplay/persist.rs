//! Batch files: running a batch into its games, moves and summary files
//! (fresh or resumed), and merging the games files of a batch's shards.
//!
//! Every file is written through [`OutFile`] and checked against the
//! batch identity; this module never plays a game itself (scheduling does)
//! and never overwrites a file unless asked to (`force` or `resume`).

use super::codec::{GAMES_HEADER, MOVES_HEADER, RowError, header_bytes};
use super::output::{self, IfExists, Located, OutFile};
use super::schedule::drive;
use super::{
    Batch, Error, Existing, Format, Identity, Outputs, PolicyId, Report, Shard, check_opening, identity, io_err,
    opening_text,
};
use crate::policy::PolicySpec;
use crate::stats::{SUMMARY_HEADER, Summary};
use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// interruption); returns the new length.
fn truncate_to_last_line(f: &mut File) -> io::Result<u64> {
    let len = f.seek(SeekFrom::End(0))?;
    let mut end = len;
    let mut buf = vec![0u8; 1 << 16];
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        let n = (end - start) as usize;
        f.seek(SeekFrom::Start(start))?;
        f.read_exact(&mut buf[..n])?;
        if let Some(i) = buf[..n].iter().rposition(|&c| c == b'\n') {
            let keep = start + i as u64 + 1;
            f.set_len(keep)?;
            f.seek(SeekFrom::End(0))?;
            return Ok(keep);
        }
        end = start;
    }
    f.set_len(0)?;
    f.seek(SeekFrom::Start(0))?;
    Ok(0)
}

/// Checks that the CSV header of `path` is `header`.
/// Checks that the CSV header of `path` is `header`.
fn check_header<R: Read>(rdr: &mut csv::Reader<R>, path: &Path, header: &[&str]) -> Result<(), Error> {
    let h = rdr.headers().map_err(|e| io_err("read", path, e))?;
    if h.iter().ne(header.iter().copied()) {
        return Err(Error::Identity {
            path: path.to_path_buf(),
            message: format!("not a senat selfplay file: its header is not `{}`", header.join(",")),
        });
    }
    Ok(())
}

/// A games or moves file opened for reading: its identity and a CSV reader
/// positioned at the header.
struct Reading {
    id: Identity,
    rdr: csv::Reader<io::BufReader<File>>,
}

/// Opens `path` and reads its identity line; `Ok(None)` for an empty file.
fn open_reading(path: &Path) -> Result<Option<Reading>, Error> {
    let f = File::open(path).map_err(|e| io_err("read", path, e))?;
    let mut r = io::BufReader::with_capacity(1 << 20, f);
    if r.fill_buf().map_err(|e| io_err("read", path, e))?.is_empty() {
        return Ok(None);
    }
    let id = match identity::read_identity(&mut r).map_err(|e| io_err("read", path, e))? {
        None => return Err(Error::Identity { path: path.into(), message: identity::NO_IDENTITY.into() }),
        Some(Err(error)) => return Err(Error::BadIdentity { path: path.into(), error }),
        Some(Ok(id)) => id,
    };
    Ok(Some(Reading { id, rdr: csv::Reader::from_reader(r) }))
}

/// The line of the current record in the file (the identity line comes first).
fn file_line(rec_line: Option<&csv::Position>) -> u64 {
    rec_line.map_or(0, |p| p.line() + 1)
}

fn mismatch(path: &Path, what: &str, d: (String, String, String)) -> Error {
    let (key, file, run) = d;
    Error::Identity {
        path: path.to_path_buf(),
        message: format!(
            "{what}: the file has {key}={file}, this run {key}={run} (a resumed run repeats the batch's arguments)"
        ),
    }
}

/// Resumes the games file: checks its identity, drops a cut-off last row,
/// checks the rows, and returns the summary of the rows so far and the
/// next game index.
fn resume_games(id: &Identity, out: &mut OutFile) -> Result<(Summary, u64), Error> {
    let path = out.path().to_path_buf();
    let actual = out.writing().to_path_buf();
    let start = id.shard.range(id.games).start;
    // Empty, or an identity line cut short: the run died before its first row.
    let existing = if holds_prefix_of(&actual, id)? { None } else { open_reading(&actual)? };
    if let Some(r) = &existing
        && let Some(d) = r.id.difference(id, false)
    {
        return Err(mismatch(&path, "cannot resume: it holds another batch", d));
    }
    // A file of an older format goes on under its own line.
    let id = &Identity { format: existing.as_ref().map_or(id.format, |r| r.id.format), ..id.clone() };
    let len = truncate_to_last_line(out.file()).map_err(|e| io_err("repair", &path, e))?;
    let mut summary = Summary::default();
    let mut next = start;
    let id_len = id.line().len() as u64;
    if existing.is_none() {
        out.file().set_len(0).map_err(|e| io_err("repair", &path, e))?;
        out.file().seek(SeekFrom::Start(0)).map_err(|e| io_err("repair", &path, e))?;
        out.write_all(id.line().as_bytes())?;
        out.write_all(&header_bytes(&GAMES_HEADER))?;
        return Ok((summary, next));
    }
    if len == id_len {
        out.write_all(&header_bytes(&GAMES_HEADER))?;
        return Ok((summary, next));
    }
    let Some(mut r) = open_reading(&actual)? else { return Err(changed(&path)) };
    check_header(&mut r.rdr, &path, &GAMES_HEADER)?;
    let mut rec = csv::StringRecord::new();
    while r.rdr.read_record(&mut rec).map_err(|e| io_err("read", &path, e))? {
        let line = file_line(rec.position());
        let (k, g) = identity::check_row(&rec, id, next).map_err(|error| Error::BadRow {
            path: path.clone(),
            line,
            resuming: true,
            error,
        })?;
        summary.add(&k, &g);
        next += 1;
    }
    Ok((summary, next))
}

/// Whether `path` holds no more than a beginning of `id`'s line, in either
/// format (empty, or an identity line cut short by a kill).
fn holds_prefix_of(path: &Path, id: &Identity) -> Result<bool, Error> {
    let len = std::fs::metadata(path).map_err(|e| io_err("read", path, e))?.len();
    let lines = [Format::V1, Format::V2].map(|format| Identity { format, ..id.clone() }.line());
    if lines.iter().all(|line| len >= line.len() as u64) {
        return Ok(false);
    }
    let bytes = std::fs::read(path).map_err(|e| io_err("read", path, e))?;
    Ok(lines.iter().any(|line| line.len() as u64 > len && line.as_bytes().starts_with(&bytes)))
}

fn changed(path: &Path) -> Error {
    io_err("read", path, "the file changed while it was read")
}

/// Resumes the moves file: checks its identity and drops rows of games at
/// or after `next`.
fn resume_moves(id: &Identity, out: &mut OutFile, next: u64, start: u64) -> Result<(), Error> {
    let path = out.path().to_path_buf();
    let actual = out.writing().to_path_buf();
    let existing = if holds_prefix_of(&actual, id)? { None } else { open_reading(&actual)? };
    if let Some(r) = &existing
        && let Some(d) = r.id.difference(id, false)
    {
        return Err(mismatch(&path, "cannot resume: it is the moves file of another batch", d));
    }
    let id = &Identity { format: existing.as_ref().map_or(id.format, |r| r.id.format), ..id.clone() };
    let len = truncate_to_last_line(out.file()).map_err(|e| io_err("repair", &path, e))?;
    let id_len = id.line().len() as u64;
    if existing.is_none() || len <= id_len {
        if next > start {
            return Err(Error::Incomplete(format!(
                "cannot resume {}: it has no rows but the games file has",
                path.display()
            )));
        }
        out.file().set_len(0).map_err(|e| io_err("repair", &path, e))?;
        out.file().seek(SeekFrom::Start(0)).map_err(|e| io_err("repair", &path, e))?;
        out.write_all(id.line().as_bytes())?;
        out.write_all(&header_bytes(&MOVES_HEADER))?;
        return Ok(());
    }
    let Some(mut r) = open_reading(&actual)? else { return Err(changed(&path)) };
    check_header(&mut r.rdr, &path, &MOVES_HEADER)?;
    let mut rec = csv::ByteRecord::new();
    let mut cut = None;
    let mut last = None;
    while r.rdr.read_byte_record(&mut rec).map_err(|e| io_err("read", &path, e))? {
        let g: u64 = std::str::from_utf8(&rec[0]).ok().and_then(|s| s.parse().ok()).ok_or_else(|| Error::BadRow {
            path: path.clone(),
            line: file_line(rec.position()),
            resuming: false,
            error: RowError::NoGameIndex,
        })?;
        if g >= next {
            cut = rec.position().map(|p| p.byte() + id_len);
            break;
        }
        last = Some(g);
    }
    if next > start && last != Some(next - 1) && cut.is_none() {
        return Err(Error::Incomplete(format!(
            "cannot resume {}: it stops before game {} of the games file",
            path.display(),
            next - 1
        )));
    }
    if let Some(cut) = cut {
        out.file().set_len(cut).map_err(|e| io_err("repair", &path, e))?;
    }
    out.file().seek(SeekFrom::End(0)).map_err(|e| io_err("repair", &path, e))?;
    Ok(())
}

/// Which file a resumed output continues: the output itself if it exists,
/// else its `.partial` file if an interrupted run left one, else none.
pub(crate) fn resumable(path: &Path) -> Result<Option<PathBuf>, Error> {
    let loc = Located::new(path)?;
    if loc.is_file() {
        return Ok(Some(path.to_path_buf()));
    }
    if loc.meta.is_none() {
        let partial = output::partial_path(path);
        if partial.is_file() {
            return Ok(Some(partial));
        }
    }
    Ok(None)
}

/// Writes the summary CSV to an output (then commits it).
pub fn write_summary(mut out: OutFile, s: &Summary) -> Result<(), Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in std::iter::once(SUMMARY_HEADER.map(String::from)).chain(s.rows()) {
        w.write_record(&row).map_err(|e| io_err("write", out.path(), e))?;
    }
    let bytes = w.into_inner().map_err(|e| io_err("write", out.path(), e.error()))?;
    out.write_all(&bytes)?;
    out.commit()
}

/// The identity of batch `b` (reading and hashing its weights files).
pub fn identity_of(b: &Batch) -> Result<Identity, Error> {
    let m = &b.matchup;
    let id = |s: &PolicySpec| PolicyId::of(s).map_err(Error::Weights);
    Ok(Identity {
        seed: b.seed,
        games: b.games,
        shard: b.shard,
        policies: [id(&m.red)?, id(&m.blue)?, id(&m.draft_red)?, id(&m.draft_blue)?],
        opening: opening_text(&b.opening),
        book_plies: b.book_plies,
        variant: b.variant,
        format: Format::V2,
    })
}

/// Runs a batch into files; `progress` is told the number of games done
/// (resumed ones included) after each window.
///
/// Before the first game every output is resolved, checked to be distinct
/// from the others and from the weights files, locked and created (as
/// `PATH.partial`); at the end each is renamed into place. `--resume`
/// continues `PATH` (or the `PATH.partial` left by a killed run) only if
/// its identity is the batch's.
pub fn run(b: &Batch, out: &Outputs, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> Result<Report, Error> {
    if b.games == 0 {
        return Err(Error::Invalid("--games 0: the batch must have at least 1 game".into()));
    }
    check_opening(b.variant, &b.opening).map_err(Error::Opening)?;
    let id = identity_of(b)?;
    let m = &b.matchup;
    let weights = identity::weight_inputs([&m.red, &m.blue, &m.draft_red, &m.draft_blue]);
    let inputs: Vec<(&str, &Path)> = weights.iter().map(|w| ("the weights file", w.as_path())).collect();
    let mut outputs: Vec<(&str, &Path)> = vec![("--out", &out.games)];
    outputs.extend(out.moves.as_deref().map(|p| ("--moves", p)));
    outputs.extend(out.summary.as_deref().map(|p| ("--summary", p)));
    output::check_distinct(&inputs, &outputs)?;

    let range = b.shard.range(b.games);
    let resume = out.existing == Existing::Resume;
    let fresh = |path: &Path| {
        OutFile::create(
            path,
            if out.existing == Existing::Overwrite {
                IfExists::Overwrite
            } else {
                IfExists::Refuse { resumable: true }
            },
        )
    };
    let games_old = if resume { resumable(&out.games)? } else { None };
    let moves_old = match (&out.moves, resume) {
        (Some(m), true) => resumable(m)?,
        _ => None,
    };
    if let (Some(m), None, Some(old)) = (&out.moves, &games_old, &moves_old)
        && old.as_path() == m.as_path()
    {
        return Err(Error::Identity {
            path: m.clone(),
            message: format!(
                "cannot resume: the moves file exists but the games file {} does not, so it belongs to another run; \
                 remove it, or run without --resume and with --force to replace both",
                out.games.display()
            ),
        });
    }
    let mut games_file = match &games_old {
        Some(actual) => OutFile::resume(&out.games, actual)?,
        None => fresh(&out.games)?,
    };
    let (mut summary, next) = if games_old.is_some() {
        resume_games(&id, &mut games_file)?
    } else {
        games_file.write_all(id.line().as_bytes())?;
        games_file.write_all(&header_bytes(&GAMES_HEADER))?;
        (Summary::default(), range.start)
    };
    if next > range.end {
        return Err(Error::Incomplete(format!(
            "cannot resume {}: it holds games up to {}, beyond its range {}..{}",
            out.games.display(),
            next - 1,
            range.start,
            range.end
        )));
    }
    let mut moves_file = match &out.moves {
        Some(path) => match (&moves_old, games_old.is_some()) {
            (Some(actual), true) => {
                let mut f = OutFile::resume(path, actual)?;
                resume_moves(&id, &mut f, next, range.start)?;
                Some(f)
            }
            _ if next > range.start => {
                return Err(Error::Incomplete(format!(
                    "cannot resume: {} is missing but {} has games",
                    path.display(),
                    out.games.display()
                )));
            }
            _ => {
                let mut f = if resume { OutFile::create(path, IfExists::Overwrite)? } else { fresh(path)? };
                f.write_all(id.line().as_bytes())?;
                f.write_all(&header_bytes(&MOVES_HEADER))?;
                Some(f)
            }
        },
        None => None,
    };
    // The summary is rewritten from all rows, so a resumed run replaces it.
    let summary_file = match &out.summary {
        Some(p) => Some(OutFile::create(
            p,
            if out.existing == Existing::Refuse { IfExists::Refuse { resumable: true } } else { IfExists::Overwrite },
        )?),
        None => None,
    };
    games_file.keep_on_failure();
    if let Some(f) = moves_file.as_mut() {
        f.keep_on_failure();
    }
    let resumed = next - range.start;
    let key = b.matchup.key();
    let started = Instant::now();
    let mut done = resumed;
    progress(done);
    let with_moves = moves_file.is_some();
    {
        let summary = &mut summary;
        let games_file = &mut games_file;
        let moves_file = &mut moves_file;
        drive(b, next..range.end, threads, true, with_moves, move |w| {
            // Moves first, then games: a resumed games file never runs ahead of its moves file.
            if let Some(f) = moves_file.as_mut() {
                f.write_all(&concat(w.iter().map(|c| &c.moves[..])))?;
            }
            games_file.write_all(&concat(w.iter().map(|c| &c.games[..])))?;
            for c in &w {
                summary.merge_tally(&key, &c.tally);
                done += c.tally.games;
            }
            progress(done);
            Ok(())
        })?;
    }
    // Moves first: a games file in place always has its moves file in place.
    if let Some(f) = moves_file {
        f.commit()?;
    }
    games_file.commit()?;
    let seconds = started.elapsed().as_secs_f64();
    if let Some(f) = summary_file {
        write_summary(f, &summary)?;
    }
    Ok(Report { summary, played: range.end - next, resumed, seconds })
}

/// The parts joined into one buffer (written with one `write_all`, so that
/// an interruption cuts at most the last row).
fn concat<'a>(parts: impl Iterator<Item = &'a [u8]> + Clone) -> Vec<u8> {
    let mut all = Vec::with_capacity(parts.clone().map(<[u8]>::len).sum());
    for p in parts {
        all.extend_from_slice(p);
    }
    all
}

/// Sénat's games files as the one merge ([`super::merge`]) reads them:
/// the [`Identity`] line, [`GAMES_HEADER`], rows checked by
/// [`identity::check_row`] into a [`Summary`].
pub struct SenatFormat;

impl super::merge::ShardFormat for SenatFormat {
    type Id = Identity;
    type Sum = Summary;

    fn identity(path: &Path, line: &str) -> Result<Identity, Error> {
        match identity::read_identity(&mut line.as_bytes()).map_err(|e| io_err("read", path, e))? {
            None => Err(Error::Identity { path: path.into(), message: identity::NO_IDENTITY.into() }),
            Some(Err(error)) => Err(Error::BadIdentity { path: path.into(), error }),
            Some(Ok(id)) => Ok(id),
        }
    }
    fn shard(id: &Identity) -> Shard {
        id.shard
    }
    fn games(id: &Identity) -> u64 {
        id.games
    }
    fn seed(id: &Identity) -> u64 {
        id.seed
    }
    fn difference(a: &Identity, b: &Identity) -> Option<(String, String, String)> {
        a.difference(b, true)
    }
    fn header(path: &Path, _: &Identity, line: &str) -> Result<String, Error> {
        let want = String::from_utf8(header_bytes(&GAMES_HEADER)).expect("the header is ASCII");
        if line != want {
            return Err(Error::Identity {
                path: path.to_path_buf(),
                message: format!("not a senat selfplay file: its header is not `{}`", GAMES_HEADER.join(",")),
            });
        }
        Ok(want)
    }
    fn add_row(
        path: &Path,
        line: u64,
        row: &csv::StringRecord,
        id: &Identity,
        expected: u64,
        sum: &mut Summary,
    ) -> Result<(), Error> {
        let (key, g) = identity::check_row(row, id, expected).map_err(|error| Error::BadRow {
            path: path.to_path_buf(),
            line,
            resuming: false,
            error,
        })?;
        sum.add(&key, &g);
        Ok(())
    }
    fn merged_line(id: &Identity) -> String {
        Identity { shard: Shard::ALL, format: Format::V2, ..id.clone() }.line()
    }
    fn write_summary(out: OutFile, _: &Identity, sum: &Summary) -> Result<(), Error> {
        write_summary(out, sum)
    }
}

/// Joins the games files of the shards of one Sénat batch (in any order)
/// into `out`, and writes the summary of all games to `summary`: the one
/// merge of every game ([`super::merge::merge`]) on Sénat's format. It
/// proves the inputs are exactly one complete batch, every row possible
/// ([`identity::check_row`]), or refuses with the reason.
pub fn merge(inputs: &[PathBuf], out: &Path, summary: Option<&Path>, overwrite: bool) -> Result<Summary, Error> {
    super::merge::merge::<SenatFormat>(inputs, out, summary, overwrite).map(|(_, sum)| sum)
}
