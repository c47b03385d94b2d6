//! Self-play at scale: complete games (draft and play) between chosen
//! policies, run in parallel and streamed to CSV files in game order.
//!
//! Reproducibility: game `i` of a batch with seed `s` draws all its
//! randomness from one xoshiro256++ generator seeded with
//! [`game_seed`]`(s, i)`, so a game is the same whatever the number of
//! threads, the chunking, or the shard that plays it, and output files are
//! byte-identical for any `--threads`. Memory stays flat: games are played
//! in windows of chunks, and each window is written (moves file first, then
//! games file, each with one `write_all` of whole rows) before the next but
//! one is started.
//!
//! Every games and moves file starts with the batch's identity line
//! ([`identity`]), so that [`merge()`](fn@merge) proves its inputs are exactly one
//! complete batch and a resumed [`run`] that it continues the same batch.
//! Outputs are written through [`output::OutFile`]: checked distinct,
//! locked, created before the first game as `PATH.partial` and renamed into
//! place at the end.
//!
//! This module drives policies and the rules; it never decides a move
//! itself, never draws randomness outside a game's own generator, and never
//! overwrites an existing file unless asked to (`force` or `resume`).
//!
//! One job per file: [`play`] (the game loop), [`codec`] (CSV rows written
//! and read back), [`schedule`] (shards, chunks, threads), [`persist`]
//! (running a batch into files, resuming), [`merge`](mod@merge) (the one merge of
//! every game's shards), [`identity`] (the batch
//! identity line and the row checks), [`output`] (atomic, locked output
//! files) and [`columnar`] (Parquet copies of the CSV files). This file
//! holds the batch's types and the error they share.

pub mod codec;
pub mod columnar;
pub mod identity;
pub use game_lab::merge;
pub use game_lab::output;
use output::OutputError;
pub mod persist;
pub mod play;
pub use game_lab::runner;
pub mod schedule;

pub use codec::{
    GAMES_HEADER, MOVES_HEADER, RowError, VARY_COLUMNS, games_header, parse_game_row, push_move_text, winner_name,
};
pub use identity::{Format, Identity, IdentityError, PolicyId, WeightsError};
pub use persist::{identity_of, merge, run, write_summary};
pub use play::{
    OpeningError, PlayedGame, ThinkTime, check_opening, opening_text, play_game, play_game_timed, play_game_timed_from,
    random_opening,
};
pub(crate) use schedule::pool;
pub use schedule::{Shard, ShardError, simulate};

use crate::policy::PolicySpec;
use crate::stats::{PairKey, Summary};
use senat_rules::moves::Move;
use senat_rules::variant::Variant;
use std::path::{Path, PathBuf};

pub use game_lab::runner::game_seed;

/// Red's and blue's policies for both phases.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    /// Red's play policy.
    pub red: PolicySpec,
    /// Blue's play policy.
    pub blue: PolicySpec,
    /// Red's draft policy.
    pub draft_red: PolicySpec,
    /// Blue's draft policy.
    pub draft_blue: PolicySpec,
}

impl Matchup {
    /// Whether a policy of the matchup draws value-bounded choices
    /// ([`PolicySpec::varies`]): then the games file has the loss columns
    /// ([`codec::VARY_COLUMNS`]).
    pub fn varies(&self) -> bool {
        [&self.red, &self.blue, &self.draft_red, &self.draft_blue].iter().any(|p| p.varies())
    }

    /// The names, as the summary groups them.
    pub fn key(&self) -> PairKey {
        PairKey {
            red: self.red.name.clone(),
            blue: self.blue.name.clone(),
            draft_red: self.draft_red.name.clone(),
            draft_blue: self.draft_blue.name.clone(),
        }
    }
}

/// A batch: which games to play, between whom.
#[derive(Clone, Debug)]
pub struct Batch {
    /// The batch seed.
    pub seed: u64,
    /// Games in the whole batch (all shards).
    pub games: u64,
    /// The slice of it to play here.
    pub shard: Shard,
    /// The players.
    pub matchup: Matchup,
    /// Forced first moves of every game (empty: none), legal from the start
    /// ([`check_opening`]; [`run`] refuses an opening that fails it).
    pub opening: Vec<Move>,
    /// Uniformly random plies at the start of every game, after the forced
    /// opening if any (`--book-plies`; 0: none), drawn from the game's own
    /// generator (seed, index) before any policy is asked: varied games
    /// for policies that draw no randomness.
    pub book_plies: u32,
    /// The rules variant of every game (`Variant::RULES`: the rules).
    pub variant: Variant,
}

pub use game_lab::runner::Existing;

/// Where a batch writes.
#[derive(Clone, Debug)]
pub struct Outputs {
    /// One row per game.
    pub games: PathBuf,
    /// One row per move, if wanted.
    pub moves: Option<PathBuf>,
    /// The summary CSV, if wanted.
    pub summary: Option<PathBuf>,
    /// What to do with existing files.
    pub existing: Existing,
}

/// What a finished batch reports.
#[derive(Clone, Debug)]
pub struct Report {
    /// All games of the output file (resumed ones included).
    pub summary: Summary,
    /// How many of them are distinct games (by their draft and play moves).
    pub variety: crate::variety::Variety,
    /// How many distinct draft openings (first [`crate::variety::OPENING_MOVES`]
    /// draft moves) they have.
    pub openings: crate::variety::Variety,
    /// Games played by this run.
    pub played: u64,
    /// Games found already in the file (`--resume`).
    pub resumed: u64,
    /// Seconds spent playing and writing.
    pub seconds: f64,
}

/// Why a batch, a merge or an arena failed: one line for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The batch was stopped ([`schedule::STOP`]): its files are left as
    /// `PATH.partial` with whole rows, for `--resume`.
    Interrupted,
    /// Reading, creating or writing an output, or two roles naming one file
    /// ([`output::OutputError`]).
    Output(OutputError),
    /// A file's first line is not a batch identity.
    BadIdentity {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: IdentityError,
    },
    /// A policy's weights file cannot be read.
    Weights(WeightsError),
    /// A shard that is not `K/N`.
    Shard(ShardError),
    /// An opening that cannot be played.
    Opening(OpeningError),
    /// A file's batch identity is missing or is not the expected one.
    Identity {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The files do not make one complete batch.
    Incomplete(String),
    /// A row that cannot be (or is not where it should be).
    BadRow {
        /// The file.
        path: PathBuf,
        /// 1-based line number in the file.
        line: u64,
        /// Whether it was found resuming the file (the message says so).
        resuming: bool,
        /// What is wrong.
        error: RowError,
    },
    /// A file that cannot be converted to Parquet, or a Parquet output
    /// that cannot be prepared ([`columnar`]).
    Convert {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: columnar::ConvertError,
    },
    /// A bad argument or setting.
    Invalid(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Interrupted => game_lab::runner::RunError::Interrupted.fmt(f),
            Error::Output(e) => e.fmt(f),
            Error::BadIdentity { path, error } => write!(f, "{}: bad batch identity: {error}", path.display()),
            Error::Weights(e) => e.fmt(f),
            Error::Shard(e) => e.fmt(f),
            Error::Opening(e) => e.fmt(f),
            Error::Identity { path, message } => write!(f, "{}: {message}", path.display()),
            Error::Incomplete(msg) | Error::Invalid(msg) => f.write_str(msg),
            Error::Convert { path, error } => write!(f, "{}: {error}", path.display()),
            Error::BadRow { path, line, resuming: false, error } => write!(f, "{}:{line}: {error}", path.display()),
            Error::BadRow { path, line, resuming: true, error } => {
                write!(f, "{}:{line}: cannot resume: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for Error {}

impl From<game_lab::runner::RunError> for Error {
    fn from(e: game_lab::runner::RunError) -> Error {
        use game_lab::runner::RunError;
        match e {
            RunError::Interrupted => Error::Interrupted,
            RunError::Output(e) => Error::Output(e),
            RunError::Identity { path, message } => Error::Identity { path, message },
            RunError::Incomplete(m) => Error::Incomplete(m),
            RunError::Invalid(m) => Error::Invalid(m),
        }
    }
}

impl From<OutputError> for Error {
    fn from(e: OutputError) -> Error {
        Error::Output(e)
    }
}

impl From<WeightsError> for Error {
    fn from(e: WeightsError) -> Error {
        Error::Weights(e)
    }
}

impl From<ShardError> for Error {
    fn from(e: ShardError) -> Error {
        Error::Shard(e)
    }
}

/// A file whose second line is neither its games header nor a
/// companion's, as a check of a batch file reports it
/// ([`merge::ShardFormat::not_a_header`]): the identity error says so.
pub(crate) fn not_a_header(e: Error) -> Error {
    match e {
        Error::Identity { path, message } => Error::Identity {
            path,
            message: format!("{message} (nor that of another file of its batch: is its header missing?)"),
        },
        e => e,
    }
}

pub(crate) fn io_err(what: &'static str, path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Output(OutputError::Io { what, path: path.to_path_buf(), message: e.to_string() })
}
