//! The generic laboratory: what self-play, the arena, design and the
//! pictures need whatever the game — interval arithmetic ([`stats`]),
//! match statistics and the SPRT ([`rating`]), bounds on every number a
//! user gives ([`limits`]), output files written atomically ([`output`]),
//! the one batch runner of every game and its shards ([`runner`]), the
//! one merge of a batch's shards ([`merge`]), the
//! distinct games of a batch ([`variety`]), one-line accounts of a
//! search ([`thinking`]) and the drawing surface of every picture
//! ([`canvas`]).
//!
//! The one spec grammar of every game's agents ([`spec`], with [`named`]
//! agents and the move [`temperature`]) and the one reader of weights
//! files ([`weights_file`]) are here, the games giving their keys and
//! weights their meaning. The one arena of every game ([`arena`]: colour-swapped pairs, SPRT,
//! the table and the files) and `senat design`'s decisions, reports and
//! self-test ([`design`]) are here too.
//!
//! What this crate must never do: depend on a rules crate or name a game.
//! The compiler enforces the first (its only path dependency is
//! `game-search`, which never names a game either); the games' lab
//! (`senat-lab`) builds on it and re-exports its modules under their old
//! paths.
#![deny(missing_docs)]

pub mod accuracy;
pub mod agent;
pub mod alphabeta;
pub mod arena;
pub mod canvas;
pub mod design;
pub mod guarded;
pub mod identity;
pub mod limits;
pub mod mcts;
pub mod merge;
pub mod named;
pub mod output;
pub mod rating;
pub mod runner;
pub mod spec;
pub mod stats;
pub mod suggest;
pub mod temperature;
#[cfg(test)]
mod testgames;
pub mod thinking;
pub mod variety;
pub mod weights_file;
pub mod winprob;
