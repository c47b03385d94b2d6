//! The one batch runner of every game: which games a shard plays
//! ([`Shard`]), playing a range of games in parallel windows ([`drive`])
//! and a batch's outputs resolved, checked distinct, opened fresh or
//! resumed, its games written in game order, companions (moves, side rows)
//! before the games file, then committed and summarised ([`run`]).
//!
//! What a batch's files hold — the identity line, the headers, the rows of
//! a chunk of games, how an existing file is read back to continue it, the
//! summary — is its [`RunFormat`]'s, written beside each game in the games'
//! lab. This module never plays a game itself, never knows a game's rows
//! and never names a game; it never changes which game an index is (game
//! `i` is the same whatever the threads or chunks), never overwrites a file
//! unless asked to (`--force` or `--resume`), and writes only through
//! [`OutFile`].

use crate::output::{self, IfExists, Located, OutFile, OutputError};
use rayon::prelude::*;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::mpsc::sync_channel;
use std::time::Instant;

/// The seed of game `index` in a batch with seed `seed`:
/// `mix64(seed ^ mix64(index + 0x9E3779B97F4A7C15))`, where `mix64` is the
/// splitmix64 finalizer. Distinct indices give distinct seeds (both mixes are
/// bijections). The game's generator is `game_search::rng::rng_from_seed` of it:
/// every random choice of a batch comes from (the batch seed, the game index).
pub fn game_seed(seed: u64, index: u64) -> u64 {
    game_search::rng::mix64(seed ^ game_search::rng::mix64(index.wrapping_add(0x9E37_79B9_7F4A_7C15)))
}

/// Why the runner stopped: one line for the user. A format's error
/// converts from it ([`RunFormat::Error`]), keeping each message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The batch was stopped ([`STOP`]): its files are left as `PATH.partial`
    /// with whole rows, for `--resume`.
    Interrupted,
    /// An output could not be opened, written or committed.
    Output(OutputError),
    /// A file that belongs to another batch.
    Identity {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The files do not make one complete batch.
    Incomplete(String),
    /// A bad argument or setting.
    Invalid(String),
}

impl From<OutputError> for RunError {
    fn from(e: OutputError) -> RunError {
        RunError::Output(e)
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Interrupted => f.write_str(
                "interrupted: the games played so far are kept in the PATH.partial files; resume them to continue",
            ),
            RunError::Output(e) => e.fmt(f),
            RunError::Identity { path, message } => write!(f, "{}: {message}", path.display()),
            RunError::Incomplete(msg) | RunError::Invalid(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for RunError {}

/// What to do with output files that already exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Refuse to touch them.
    Refuse,
    /// Overwrite them.
    Overwrite,
    /// Continue the games file where it stops.
    Resume,
}

/// Which games of a batch to play: the `k`-th (1-based) of `n` disjoint,
/// contiguous slices of the game indices `0..games`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based shard number.
    pub k: u64,
    /// Number of shards.
    pub n: u64,
}

impl Shard {
    /// The whole batch.
    pub const ALL: Shard = Shard { k: 1, n: 1 };

    /// Parses `K/N` with 1 ≤ K ≤ N.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let (k, n) = text.split_once('/').ok_or_else(|| ShardError::NoSlash(text.into()))?;
        let num = |s: &str| s.trim().parse::<u64>().map_err(|_| ShardError::NotNumber(text.into()));
        let (k, n) = (num(k)?, num(n)?);
        if n == 0 || k == 0 || k > n {
            return Err(ShardError::OutOfRange(text.into()));
        }
        Ok(Shard { k, n })
    }

    /// The game indices of this shard in a batch of `games`.
    pub fn range(self, games: u64) -> std::ops::Range<u64> {
        let at = |i: u64| (games as u128 * i as u128 / self.n as u128) as u64;
        at(self.k - 1)..at(self.k)
    }
}

/// Why a shard's text (`K/N`) is not a shard; each holds the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardError {
    /// No `/`.
    NoSlash(String),
    /// K or N is not a number.
    NotNumber(String),
    /// Not 1 ≤ K ≤ N.
    OutOfRange(String),
}

impl std::fmt::Display for ShardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (ShardError::NoSlash(text) | ShardError::NotNumber(text) | ShardError::OutOfRange(text)) = self;
        write!(f, "--shard `{text}`: expected K/N with 1 <= K <= N (e.g. 3/8)")
    }
}

impl std::error::Error for ShardError {}

/// Games per chunk (the unit of parallel work) for a run of `games` on
/// `threads`: at least 64 chunks per thread where the batch allows, so that
/// a short batch of slow games (a search agent's) still keeps every thread
/// busy and the progress bar moving, and at most 256 games, so that a window
/// of cheap games stays small in memory.
fn chunk_size(games: u64, threads: usize) -> u64 {
    (games / (threads as u64 * 64)).clamp(1, 256)
}

/// Set to stop every batch of this process at once (an embedding's
/// Ctrl-C: Python's `senat.selfplay`; the command line never sets it, a
/// signal ends it). Signals are the process's, so the flag is too. A game
/// in progress finishes; no game after it is written, so the files stay
/// as `PATH.partial` with whole rows, and `--resume` continues them
/// ([`run`] returns [`RunError::Interrupted`]).
pub static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether [`STOP`] is set.
pub fn stop_requested() -> bool {
    STOP.load(std::sync::atomic::Ordering::Relaxed)
}

/// A pool of `threads` worker threads.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, RunError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| RunError::Invalid(format!("cannot start {threads} threads: {e}")))
}

/// Plays the games `range` of any batch on `threads` threads, `play`ing
/// them in chunks (contiguous sub-ranges), windows of chunks at a time, and
/// hands each finished window (its chunks in game order) to `sink` on
/// another thread while the next window is played. The one play loop of
/// every game's self-play: what a chunk is (rows, tallies) is the caller's.
pub fn drive<C: Send, E: From<RunError> + Send>(
    range: std::ops::Range<u64>,
    threads: usize,
    play: impl Fn(std::ops::Range<u64>) -> C + Sync,
    mut sink: impl FnMut(Vec<C>) -> Result<(), E> + Send,
) -> Result<(), E> {
    let pool = pool(threads)?;
    let chunk = chunk_size(range.end - range.start, threads);
    let window = chunk * threads as u64 * 16;
    let (tx, rx) = sync_channel::<Vec<C>>(1);
    std::thread::scope(|s| {
        let writer = s.spawn(move || -> Result<(), E> {
            for w in rx {
                sink(w)?;
            }
            Ok(())
        });
        let mut next = range.start;
        while next < range.end {
            let end = range.end.min(next + window);
            let chunks: Vec<std::ops::Range<u64>> =
                (next..end).step_by(chunk as usize).map(|a| a..(a + chunk).min(end)).collect();
            let out: Vec<C> = pool.install(|| chunks.into_par_iter().map(&play).collect());
            if tx.send(out).is_err() {
                break; // The writer stopped with an error, reported below.
            }
            next = end;
        }
        drop(tx);
        writer.join().unwrap_or_else(|_| Err(RunError::Invalid("the writer thread panicked".into()).into()))
    })
}

/// What the one runner needs from a batch format. The outputs are numbered:
/// 0 is the games file, then the companions in [`Plan::companions`]' order.
pub trait RunFormat: Sync {
    /// The format's error: the runner's own failures ([`RunError`]) convert into it.
    type Error: From<RunError> + std::error::Error + Send + 'static;
    /// What the summary is built from (all games of the output).
    type Sum: Send;
    /// What one chunk of games adds to it.
    type Part: Send;
    /// The first bytes of a fresh output `k`: the identity line and the header.
    fn fresh(&self, k: usize) -> Vec<u8>;
    /// Continues the existing games file and the companions that exist
    /// (`None`: missing; the runner creates it fresh, or refuses when the
    /// games file holds games): checks their identities and rows, cuts
    /// what follows the last game complete in all of them, and returns the
    /// summary of the games kept and the next game index.
    fn resume(&self, games: &mut OutFile, companions: &mut [Option<OutFile>]) -> Result<(Self::Sum, u64), Self::Error>;
    /// The summary of no games.
    fn empty(&self) -> Self::Sum;
    /// Plays the games `range`: each output's rows (games first) and their part of the summary.
    fn play(&self, range: Range<u64>) -> (Vec<Vec<u8>>, Self::Part);
    /// Adds a chunk's part to the summary.
    fn add(&self, sum: &mut Self::Sum, part: &Self::Part);
    /// Writes the summary file (the runner commits it with the others).
    fn write_summary(&self, out: &mut OutFile, sum: &Self::Sum) -> Result<(), Self::Error>;
}

/// Where a batch writes and what it may do with what is there.
pub struct Plan<'a> {
    /// Games in the whole batch.
    pub games: u64,
    /// The game indices this run holds (its shard's).
    pub range: Range<u64>,
    /// The games file.
    pub out: &'a Path,
    /// The files written beside it, each with its name in messages (`moves`).
    pub companions: Vec<(&'static str, &'a Path)>,
    /// The summary file, if wanted.
    pub summary: Option<&'a Path>,
    /// Every output with its flag, for the distinctness check.
    pub flags: Vec<(&'static str, &'a Path)>,
    /// The files the batch reads (weights), which no output may be.
    pub inputs: Vec<(&'static str, &'a Path)>,
    /// What to do with existing files.
    pub existing: Existing,
}

/// What a run did.
pub struct Ran<S> {
    /// The summary of every game of the output (resumed ones included).
    pub sum: S,
    /// Games played by this run.
    pub played: u64,
    /// Games found already in the file.
    pub resumed: u64,
    /// Seconds spent playing and writing.
    pub seconds: f64,
}

/// Runs a batch of format `f` into `plan`'s files on `threads` threads;
/// `progress` hears the number of games done (resumed ones included) after
/// each window.
///
/// Before the first game every output is resolved, checked to be distinct
/// from the others and from the inputs, locked and created (as
/// `PATH.partial`); at the end each is renamed into place, companions
/// first, so that a games file in place always has its companions in place.
/// `--resume` continues `PATH` (or the `PATH.partial` left by a killed run)
/// only if the format finds it to be the batch's.
pub fn run<F: RunFormat>(
    f: &F,
    plan: &Plan,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Ran<F::Sum>, F::Error> {
    if plan.games == 0 {
        return Err(RunError::Invalid("--games 0: the batch must have at least 1 game".into()).into());
    }
    output::check_distinct(&plan.inputs, &plan.flags).map_err(RunError::Output)?;
    let range = plan.range.clone();
    let resume = plan.existing == Existing::Resume;
    let fresh = |path: &Path| {
        OutFile::create(
            path,
            if plan.existing == Existing::Overwrite {
                IfExists::Overwrite
            } else {
                IfExists::Refuse { resumable: true }
            },
        )
        .map_err(RunError::Output)
    };
    let games_old = if resume { resumable(plan.out).map_err(RunError::Output)? } else { None };
    let mut olds = Vec::new();
    for &(flag, path) in &plan.companions {
        let old = if resume { resumable(path).map_err(RunError::Output)? } else { None };
        if let (None, Some(old)) = (&games_old, &old)
            && old.as_path() == path
        {
            return Err(RunError::Identity {
                path: path.to_path_buf(),
                message: format!(
                    "cannot resume: the {flag} file exists but the games file {} does not, so it belongs to another \
                     run; remove it, or run without --resume and with --force to replace both",
                    plan.out.display()
                ),
            }
            .into());
        }
        olds.push(old);
    }
    let mut games_file = match &games_old {
        Some(actual) => OutFile::resume(plan.out, actual).map_err(RunError::Output)?,
        None => fresh(plan.out)?,
    };
    let mut companions: Vec<Option<OutFile>> = Vec::new();
    let (mut sum, next) = if games_old.is_some() {
        for ((_, path), old) in plan.companions.iter().zip(&olds) {
            companions.push(match old {
                Some(actual) => Some(OutFile::resume(path, actual).map_err(RunError::Output)?),
                None => None,
            });
        }
        f.resume(&mut games_file, &mut companions)?
    } else {
        games_file.write_all(&f.fresh(0)).map_err(RunError::Output)?;
        companions.resize_with(plan.companions.len(), || None);
        (f.empty(), range.start)
    };
    if next > range.end {
        return Err(RunError::Incomplete(format!(
            "cannot resume {}: it holds games up to {}, beyond its range {}..{}",
            plan.out.display(),
            next - 1,
            range.start,
            range.end
        ))
        .into());
    }
    for (k, (c, &(_, path))) in companions.iter_mut().zip(&plan.companions).enumerate() {
        if c.is_some() {
            continue;
        }
        if next > range.start {
            return Err(RunError::Incomplete(format!(
                "cannot resume: {} is missing but {} has games",
                path.display(),
                plan.out.display()
            ))
            .into());
        }
        let mut file =
            if resume { OutFile::create(path, IfExists::Overwrite).map_err(RunError::Output)? } else { fresh(path)? };
        file.write_all(&f.fresh(k + 1)).map_err(RunError::Output)?;
        *c = Some(file);
    }
    let mut companions: Vec<OutFile> = companions.into_iter().map(|c| c.expect("every companion is open")).collect();
    // The summary is rewritten from all rows, so a resumed run replaces it.
    let summary_file = match plan.summary {
        Some(p) => Some(
            OutFile::create(
                p,
                if plan.existing == Existing::Refuse {
                    IfExists::Refuse { resumable: true }
                } else {
                    IfExists::Overwrite
                },
            )
            .map_err(RunError::Output)?,
        ),
        None => None,
    };
    games_file.keep_on_failure();
    for c in companions.iter_mut() {
        c.keep_on_failure();
    }
    let resumed = next - range.start;
    let started = Instant::now();
    let mut done = resumed;
    progress(done);
    {
        let (sum, games_file, companions) = (&mut sum, &mut games_file, &mut companions);
        drive(
            next..range.end,
            threads,
            |r| {
                let n = r.end - r.start;
                (f.play(r), n)
            },
            move |window| {
                // Stopped ([`STOP`]): this window may hold cut chunks;
                // nothing more is written.
                if stop_requested() {
                    return Err(RunError::Interrupted);
                }
                // Companions first, then games: a resumed games file never runs ahead of them.
                for (k, c) in companions.iter_mut().enumerate() {
                    c.write_all(&concat(window.iter().map(|((rows, _), _)| &rows[k + 1][..])))
                        .map_err(RunError::Output)?;
                }
                games_file
                    .write_all(&concat(window.iter().map(|((rows, _), _)| &rows[0][..])))
                    .map_err(RunError::Output)?;
                for ((_, part), n) in &window {
                    f.add(sum, part);
                    done += n;
                }
                progress(done);
                Ok(())
            },
        )?;
    }
    let seconds = started.elapsed().as_secs_f64();
    let mut files = companions;
    files.push(games_file);
    if let Some(mut out) = summary_file {
        f.write_summary(&mut out, &sum)?;
        files.push(out);
    }
    output::commit_all(files).map_err(RunError::Output)?;
    Ok(Ran { sum, played: range.end - next, resumed, seconds })
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
/// Which file a resumed output continues: the output itself if it exists,
/// else its `.partial` file if an interrupted run left one, else none.
pub fn resumable(path: &Path) -> Result<Option<PathBuf>, OutputError> {
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
