//! Batch files: running a batch into its games, moves and summary files
//! (fresh or resumed), and merging the games files of a batch's shards.
//!
//! Every file is written through [`OutFile`] and checked against the
//! batch identity; this module never plays a game itself (scheduling does)
//! and never overwrites a file unless asked to (`force` or `resume`).

use super::codec::{GAMES_HEADER, MOVES_HEADER, RowError, games_header, header_bytes};
use super::output::OutFile;
use super::schedule::run_chunk;
use super::{
    Batch, Error, Format, Identity, Outputs, PolicyId, Report, Shard, check_opening, identity, io_err, opening_text,
};
use crate::policy::PolicySpec;
use crate::stats::{SUMMARY_HEADER, Summary};
use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

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

/// Resumes the games file (with [`super::codec::VARY_COLUMNS`] where
/// `varies`): checks its identity, drops a cut-off last row, checks the
/// rows, and returns what they sum to so far and the next game index.
fn resume_games(id: &Identity, out: &mut OutFile, varies: bool) -> Result<(SenatSum, u64), Error> {
    let header = games_header(id.variant, varies);
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
    let mut sum = SenatSum { summary: Summary::default(), keys: Vec::new(), openings: Vec::new() };
    let mut next = start;
    let id_len = id.line().len() as u64;
    if existing.is_none() {
        out.file().set_len(0).map_err(|e| io_err("repair", &path, e))?;
        out.file().seek(SeekFrom::Start(0)).map_err(|e| io_err("repair", &path, e))?;
        out.write_all(id.line().as_bytes())?;
        out.write_all(&header_bytes(&header))?;
        return Ok((sum, next));
    }
    if len == id_len {
        out.write_all(&header_bytes(&header))?;
        return Ok((sum, next));
    }
    let Some(mut r) = open_reading(&actual)? else { return Err(changed(&path)) };
    check_header(&mut r.rdr, &path, &header)?;
    let mut rec = csv::StringRecord::new();
    while r.rdr.read_record(&mut rec).map_err(|e| io_err("read", &path, e))? {
        let line = file_line(rec.position());
        let (k, g) = identity::check_row(&rec, id, next).map_err(|error| Error::BadRow {
            path: path.clone(),
            line,
            resuming: true,
            error,
        })?;
        sum.add_row(&k, &g, &rec);
        next += 1;
    }
    Ok((sum, next))
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

/// Writes the summary CSV to an output (committed by its caller, with
/// the other outputs of the command).
pub fn write_summary(out: &mut OutFile, s: &Summary) -> Result<(), Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in std::iter::once(SUMMARY_HEADER.map(String::from)).chain(s.rows()) {
        w.write_record(&row).map_err(|e| io_err("write", out.path(), e))?;
    }
    let bytes = w.into_inner().map_err(|e| io_err("write", out.path(), e.error()))?;
    Ok(out.write_all(&bytes)?)
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

/// Sénat's batch files as the one runner ([`super::runner`]) writes them:
/// the [`Identity`] line, [`games_header`] of its variant and (if wanted) [`MOVES_HEADER`],
/// rows of [`super::codec::RowWriter`], resumed by [`resume_games`] and
/// [`resume_moves`], summarised into a [`Summary`].
struct SenatRun<'a> {
    batch: &'a Batch,
    id: Identity,
    key: crate::stats::PairKey,
    with_moves: bool,
}

/// What a Sénat run or merge sums: the summary, and every game's key for
/// the distinct-games count (resumed or merged games' read from their
/// rows, played ones' taken as their rows are written: the file is not
/// read again).
#[derive(Default)]
pub struct SenatSum {
    summary: Summary,
    keys: Vec<u128>,
    /// Every game's draft-opening key ([`crate::variety::opening_prefix`]).
    openings: Vec<u128>,
}

impl SenatSum {
    /// Adds the games row `rec`, checked as matchup `key`'s game `g`.
    fn add_row(&mut self, key: &crate::stats::PairKey, g: &crate::stats::GameSummary, rec: &csv::StringRecord) {
        self.summary.add(key, g);
        let fields = super::codec::GAMES_VARIETY_COLUMNS.iter().map(|&c| rec.get(c).unwrap_or("").as_bytes());
        self.keys.push(crate::variety::row_key(fields, None));
        let draft = rec.get(super::codec::GAMES_VARIETY_COLUMNS[0]).unwrap_or("").as_bytes();
        self.openings.push(crate::variety::row_key(std::iter::once(crate::variety::opening_prefix(draft)), None));
    }
}

/// What a merge of Sénat's shards made: the summary of every game, its
/// distinct games and its distinct draft openings.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The summary of every game.
    pub summary: Summary,
    /// How many of them are distinct games (by their draft and play moves).
    pub variety: crate::variety::Variety,
    /// How many distinct draft openings they have.
    pub openings: crate::variety::Variety,
}

impl super::runner::RunFormat for SenatRun<'_> {
    type Error = Error;
    type Sum = SenatSum;
    type Part = (crate::stats::Tally, Vec<u128>, Vec<u128>);

    fn fresh(&self, k: usize) -> Vec<u8> {
        let mut bytes = self.id.line().into_bytes();
        let games = games_header(self.id.variant, self.batch.matchup.varies());
        bytes.extend(header_bytes(if k == 0 { &games[..] } else { &MOVES_HEADER[..] }));
        bytes
    }
    fn resume(&self, games: &mut OutFile, companions: &mut [Option<OutFile>]) -> Result<(SenatSum, u64), Error> {
        let range = self.batch.shard.range(self.batch.games);
        let (sum, next) = resume_games(&self.id, games, self.batch.matchup.varies())?;
        // Beyond its range: the runner refuses the games file first.
        if next <= range.end
            && let Some(Some(f)) = companions.first_mut()
        {
            resume_moves(&self.id, f, next, range.start)?;
        }
        Ok((sum, next))
    }
    fn empty(&self) -> SenatSum {
        SenatSum { summary: Summary::default(), keys: Vec::new(), openings: Vec::new() }
    }
    fn play(&self, range: std::ops::Range<u64>) -> (Vec<Vec<u8>>, Self::Part) {
        let c = run_chunk(self.batch, range, true, self.with_moves);
        (vec![c.games, c.moves], (c.tally, c.keys, c.openings))
    }
    fn add(&self, sum: &mut SenatSum, part: &Self::Part) {
        sum.summary.merge_tally(&self.key, &part.0);
        sum.keys.extend_from_slice(&part.1);
        sum.openings.extend_from_slice(&part.2);
    }
    fn write_summary(&self, out: &mut OutFile, sum: &SenatSum) -> Result<(), Error> {
        write_summary(out, &sum.summary)
    }
}

/// Runs a batch into files (the one runner, [`super::runner::run`], on
/// Sénat's format); `progress` is told the number of games done (resumed
/// ones included) after each window.
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
    let mut flags: Vec<(&str, &Path)> = vec![("--out", &out.games)];
    flags.extend(out.moves.as_deref().map(|p| ("--moves", p)));
    flags.extend(out.summary.as_deref().map(|p| ("--summary", p)));
    let plan = super::runner::Plan {
        games: b.games,
        range: b.shard.range(b.games),
        out: &out.games,
        companions: out.moves.as_deref().map(|p| ("moves", p)).into_iter().collect(),
        summary: out.summary.as_deref(),
        flags,
        inputs: weights.iter().map(|w| ("the weights file", w.as_path())).collect(),
        existing: out.existing,
    };
    let format = SenatRun { batch: b, id, key: m.key(), with_moves: out.moves.is_some() };
    let r = super::runner::run(&format, &plan, threads, progress)?;
    let variety = crate::variety::Variety::of(r.sum.keys);
    let openings = crate::variety::Variety::of(r.sum.openings);
    Ok(Report { summary: r.sum.summary, variety, openings, played: r.played, resumed: r.resumed, seconds: r.seconds })
}

/// Sénat's games files as the one merge ([`super::merge`](mod@super::merge)) reads them:
/// the [`Identity`] line, [`games_header`] of its variant, rows checked by
/// [`identity::check_row`] into a [`Summary`].
pub struct SenatFormat;

impl super::merge::ShardFormat for SenatFormat {
    type Error = Error;

    fn not_a_header(e: Error) -> Error {
        crate::selfplay::not_a_header(e)
    }

    type Id = Identity;
    type Sum = SenatSum;

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
    fn header(path: &Path, id: &Identity, line: &str) -> Result<String, Error> {
        // Either header of the variant: with the value-loss columns (a batch
        // with `vary=`) or without; the merge requires every input to have
        // the first's.
        for varies in [false, true] {
            let want = String::from_utf8(header_bytes(&games_header(id.variant, varies))).expect("the header is ASCII");
            if line == want {
                return Ok(want);
            }
        }
        Err(Error::Identity {
            path: path.to_path_buf(),
            message: format!(
                "not a senat selfplay file: its header is not `{}` (with `swapped` under swap=yes, and the value-loss columns of vary= where a policy has it)",
                GAMES_HEADER.join(",")
            ),
        })
    }
    fn add_row(
        path: &Path,
        line: u64,
        row: &csv::StringRecord,
        id: &Identity,
        expected: u64,
        sum: &mut SenatSum,
    ) -> Result<(), Error> {
        let (key, g) = identity::check_row(row, id, expected).map_err(|error| Error::BadRow {
            path: path.to_path_buf(),
            line,
            resuming: false,
            error,
        })?;
        sum.add_row(&key, &g, row);
        Ok(())
    }
    fn merged_line(id: &Identity) -> String {
        Identity { shard: Shard::ALL, format: Format::V2, ..id.clone() }.line()
    }
    fn write_summary(out: &mut OutFile, _: &Identity, sum: &SenatSum) -> Result<(), Error> {
        write_summary(out, &sum.summary)
    }
}

/// Joins the games files of the shards of one Sénat batch (in any order)
/// into `out`, and writes the summary of all games to `summary`: the one
/// merge of every game ([`super::merge::merge`]) on Sénat's format. It
/// proves the inputs are exactly one complete batch, every row possible
/// ([`identity::check_row`]), or refuses with the reason; returns the
/// summary and the distinct games and draft openings, as a run reports them.
pub fn merge(inputs: &[PathBuf], out: &Path, summary: Option<&Path>, overwrite: bool) -> Result<Merged, Error> {
    let (_, sum) = super::merge::merge::<SenatFormat>(inputs, out, summary, overwrite)?;
    Ok(Merged {
        summary: sum.summary,
        variety: crate::variety::Variety::of(sum.keys),
        openings: crate::variety::Variety::of(sum.openings),
    })
}
