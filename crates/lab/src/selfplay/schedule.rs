//! Batch scheduling: which games a shard plays, and playing a range of
//! games in parallel chunks, handing each window of finished chunks (in
//! game order) to a sink.
//!
//! It never writes a file itself (the sink does) and never changes which
//! game an index is: game `i` is the same whatever the threads or chunks.

use super::codec::RowWriter;
use super::play::{Players, play_with};
use super::{Batch, Error, game_seed};
use crate::policy::rng_from_seed;
use crate::stats::{Summary, Tally};
use rayon::prelude::*;
use senat_rules::position::Position;
use std::sync::mpsc::sync_channel;
use std::time::Instant;

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

/// The results of one chunk of Sénat games.
pub(super) struct ChunkOut {
    /// Its rows of the games file.
    pub(super) games: Vec<u8>,
    /// Its rows of the moves file (empty when not wanted).
    pub(super) moves: Vec<u8>,
    /// Its games' tally.
    pub(super) tally: Tally,
    /// Its games' keys for the distinct-games count (empty when no rows are built).
    pub(super) keys: Vec<u128>,
    /// Its games' draft-opening keys ([`crate::variety::opening_prefix`]).
    pub(super) openings: Vec<u128>,
}

/// Plays games `range` of batch `b` with one set of players; `emit`: builds
/// their rows (and the moves file's rows too, `with_moves`).
pub(super) fn run_chunk(b: &Batch, range: std::ops::Range<u64>, emit: bool, with_moves: bool) -> ChunkOut {
    let mut players = Players::new(&b.matchup);
    let mut rows = emit.then(|| RowWriter::new(&b.matchup, b.seed, with_moves));
    let mut tally = Tally::default();
    for i in range {
        if stop_requested() {
            break; // The runner writes nothing more ([`STOP`]).
        }
        let mut rng = rng_from_seed(game_seed(b.seed, i));
        let g = play_with(&mut players, Position::start_of(b.variant), &b.opening, b.book_plies, &mut rng, with_moves);
        tally.add(&g.summary());
        if let Some(w) = rows.as_mut() {
            w.write(i, &g);
        }
    }
    let (games, moves, keys, openings) = rows.map(RowWriter::into_rows).unwrap_or_default();
    ChunkOut { games, moves, tally, keys, openings }
}

/// Set to stop every batch of this process at once (an embedding's
/// Ctrl-C: Python's `senat.selfplay`; the command line never sets it, a
/// signal ends it). Signals are the process's, so the flag is too. A game
/// in progress finishes; no game after it is written, so the files stay
/// as `PATH.partial` with whole rows, and `--resume` continues them
/// ([`crate::selfplay::runner::run`] returns [`Error::Interrupted`]).
pub static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether [`STOP`] is set.
pub fn stop_requested() -> bool {
    STOP.load(std::sync::atomic::Ordering::Relaxed)
}

/// A pool of `threads` worker threads.
pub(crate) fn pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Invalid(format!("cannot start {threads} threads: {e}")))
}

/// Plays the games `range` of any batch on `threads` threads, `play`ing
/// them in chunks (contiguous sub-ranges), windows of chunks at a time, and
/// hands each finished window (its chunks in game order) to `sink` on
/// another thread while the next window is played. The one play loop of
/// every game's self-play: what a chunk is (rows, tallies) is the caller's.
pub(crate) fn drive<C: Send>(
    range: std::ops::Range<u64>,
    threads: usize,
    play: impl Fn(std::ops::Range<u64>) -> C + Sync,
    mut sink: impl FnMut(Vec<C>) -> Result<(), Error> + Send,
) -> Result<(), Error> {
    let pool = pool(threads)?;
    let chunk = chunk_size(range.end - range.start, threads);
    let window = chunk * threads as u64 * 16;
    let (tx, rx) = sync_channel::<Vec<C>>(1);
    std::thread::scope(|s| {
        let writer = s.spawn(move || -> Result<(), Error> {
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
        writer.join().unwrap_or_else(|_| Err(Error::Invalid("the writer thread panicked".into())))
    })
}

/// Plays a batch without writing anything: the summary and the seconds taken.
pub fn simulate(b: &Batch, threads: usize) -> Result<(Summary, f64), Error> {
    let key = b.matchup.key();
    let mut summary = Summary::default();
    let started = Instant::now();
    drive(
        b.shard.range(b.games),
        threads,
        |r| run_chunk(b, r, false, false),
        |w| {
            for c in w {
                summary.merge_tally(&key, &c.tally);
            }
            Ok(())
        },
    )?;
    Ok((summary, started.elapsed().as_secs_f64()))
}
