//! The laboratory of every game (Sénat, Focus, Débâcle, dominoes):
//! everything between the rules and the command line.
//!
//! What lives here: each game's adapter for the generic searches, in its
//! own module under [`games`], Sénat's evaluation and policies, self-play
//! and its CSV formats,
//! the arena and its statistics, the strategy annex, Ludii's game metrics
//! ([`metrics`]), plots and pictures, and terminal play against the agents
//! of every game ([`play`]).
//!
//! What this crate must never do: encode a rule of the game (it calls
//! `senat-rules`), search in a way that names Sénat inside `game-search`, or
//! parse command-line arguments (that is the binary's job).
#![deny(missing_docs)]

pub use game_lab::accuracy;
pub use game_lab::agent;
pub use game_lab::alphabeta;
pub mod annex;
pub mod arena;
pub mod catalog;
pub mod design;
pub mod eval;
pub mod explorer;
pub mod games;
pub use game_lab::guarded;
pub use game_lab::identity;
pub mod learned;
pub use game_lab::limits;
pub use game_lab::mcts;
pub mod metrics;
pub mod named;
pub mod net;
pub mod net_train;
pub mod picture;
pub mod play;
pub mod plot;
pub mod policy;
pub mod proof_store;
pub use game_lab::rating;
pub mod render;
pub mod selfplay;
pub use game_lab::spec;
pub mod stats;
pub use game_lab::suggest;
pub use game_lab::temperature;
pub use game_lab::thinking;
pub mod tune;
pub use game_lab::variety;
pub mod viewer;
pub use game_lab::weights_file;
pub mod winprob;
