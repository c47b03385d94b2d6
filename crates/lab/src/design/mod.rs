//! `senat design`: which rules variants make a game fair at a given level
//! of play, with a stated family-wise error. [`cs`] holds the anytime-valid
//! confidence sequences, [`decide`] the verdicts and the round loop,
//! [`selftest`] the planted truths that check the guarantee, [`space`] the
//! variant spaces, [`play`] the games of every game behind one function,
//! [`report`] the outputs (table, CSV, picture, the round log) and
//! [`shard`] a round played in shards and folded back.
//!
//! The decisions, the reports and the self-test are the generic lab's
//! (`game_lab::design`, re-exported here under their old paths); [`play`]
//! is here.
//!
//! What this module must never do: know a game's rules (it goes through
//! [`crate::games`] and Sénat's self-play), decide with an interval that
//! is not anytime-valid, or write a file but atomically.

pub use game_lab::design::{betting, cs, decide, report, selftest, shard, space};
pub mod play;
