//! The integration tests of the `senat` binary, in one test binary: each
//! module is one suite (what was one file of tests/ each), and `support`
//! holds their shared helpers. One binary links the lab once instead of
//! once per suite, which was most of the test build's time.
//!
//! Run one suite with `cargo test --profile ci --test it SUITE::` (for
//! example `--test it serve::`), one test by its name.

mod support {
    pub mod cli;
    pub mod files;
    pub mod games;
    pub mod solver_positions;
}

mod annotate;
mod arena;
mod batch_integrity;
mod bestmove;
mod bounds;
mod cli;
mod design;
mod docs;
mod dominoes;
mod draft_stats;
mod hostile_input;
mod mcts;
mod metrics;
mod named_agents;
mod opening;
mod other_games;
mod parquet;
mod play;
mod playthrough;
mod policy_specs;
mod render;
mod search;
mod selfplay;
mod senat_variants;
mod serve;
mod solver;
mod solver_bounds;
mod sprt;
mod strong_agents;
mod tactics;
mod train_net;
mod user_faults;
mod variety;
mod viewer;
