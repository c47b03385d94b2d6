//! Fuzzing for senat: a target for every text the tool reads (SPN, move
//! text, game records, policy specs, `--shard`, SPRT specs, games-file
//! identity lines and rows, heuristic weights files, merge inputs) and a
//! "legal moves are legal" target over reachable positions, driven by a
//! small mutation engine ([`engine`]) that runs on stable Rust, offline.
//!
//! A target takes arbitrary bytes and panics only when it finds a bug: a
//! panic in the code under test, or a broken property (a round trip that
//! does not come back, a generated move that is not legal...).
//!
//! What this crate must never do: change the behaviour of the crates it
//! tests, or read or write files outside the temporary directory it is given.
#![deny(missing_docs)]

pub mod catalog_targets;
pub mod connect4_targets;
pub mod debacle_targets;
pub mod dominoes_targets;
pub mod engine;
pub mod focus_targets;
pub mod targets;
