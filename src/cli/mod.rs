//! The commands of `senat`, one module per family, with their clap argument
//! types: [`rules`] (moves, perft, show, replay), [`view`] (render, view), [`play`] (play), [`batch`] (selfplay, merge, bench), [`arena`] (arena), [`search`] (analyze,
//! solve, bench-mcts, bench-search), [`bestmove`] (bestmove), [`annotate`] (annotate) and [`annex`] (draft-stats), [`metrics`] (metrics), [`design`] (design), [`tune`] (tune), [`fit_leaf`] (fit-leaf), [`serve`] (serve); [`common`]
//! holds what they share (errors, positions, records, policy flags), and
//! [`game`] which game a command is about (`--game`, `--variant`, the other
//! games' positions, records and agent specs). `common` and `game` import
//! no command module, and no command module imports another but `rules`
//! (`replay --svg` draws through `view`) and `metrics` (files opened as
//! `annex` opens them): the modules form no circle.
//!
//! `main.rs` only parses the command line and dispatches here; nothing in
//! this module imports from it.

pub(crate) mod annex;
pub(crate) mod annotate;
pub(crate) mod arena;
pub(crate) mod batch;
pub(crate) mod bestmove;
pub(crate) mod common;
pub(crate) mod design;
pub(crate) mod explore;
pub(crate) mod fit_leaf;
pub(crate) mod game;
pub(crate) mod metrics;
pub(crate) mod play;
pub(crate) mod rules;
pub(crate) mod search;
pub(crate) mod serve;
pub(crate) mod train_net;
pub(crate) mod tune;
pub(crate) mod view;
