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
pub use game_lab::runner::{STOP, Shard, ShardError, drive, pool, stop_requested};
use senat_rules::position::Position;
use std::time::Instant;

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

/// Plays a batch without writing anything: the summary and the seconds taken.
pub fn simulate(b: &Batch, threads: usize) -> Result<(Summary, f64), Error> {
    let key = b.matchup.key();
    let mut summary = Summary::default();
    let started = Instant::now();
    drive::<_, Error>(
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
