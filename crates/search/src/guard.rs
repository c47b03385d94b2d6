//! A short exact search at the root, for agents that otherwise search by
//! statistics (MCTS): before the search, a forced win within a few plies is
//! looked for and played at once (the shortest); after it, the move the
//! search chose is checked and, if it is proved lost within the same few
//! plies while another move is not, the next candidate is taken instead.
//!
//! Why it pays: MCTS values near a certain result are probabilities close
//! to 1, nothing in them rewards winning sooner, and proofs in the tree
//! ([`crate::mcts`]'s solver) only reach results whose whole proof tree the
//! playouts happen to build. A depth-limited AND/OR search ([`Solver`])
//! proves a 7-ply Sénat win in about two million nodes, a fifth of a
//! second, which no 10,000-playout tree covers; bounded by a node budget
//! and a time, it costs a fixed share of each move.
//!
//! What this module must never do: name a game, use a heuristic in a
//! verdict (every answer is the exact solver's), or change a move unless a
//! proof says so: without a proof the search's choice stands.

use crate::solver::{Solvable, Solver, Verdict};
use std::time::Duration;

/// What the guard may spend per move and how deep it looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GuardConfig {
    /// Largest horizon in plies of the win search (the move counts as one).
    pub depth: u32,
    /// Nodes of one proof attempt: a hard cap ([`Solver::node_cap`]), so
    /// the guard's answers depend on the position alone; a capped attempt
    /// proves what its completed horizons proved.
    pub nodes: u64,
    /// Wall-clock limit of one proof attempt, if any (then answers depend
    /// on the machine's speed).
    pub time: Option<Duration>,
    /// Moves of the search's ranking checked for a proved loss, at most.
    pub checks: usize,
    /// Transposition table of the solver, in megabytes.
    pub table_mb: usize,
}

impl Default for GuardConfig {
    fn default() -> GuardConfig {
        GuardConfig { depth: 7, nodes: 1_000_000, time: None, checks: 3, table_mb: 16 }
    }
}

/// What the guard decided, for reports.
#[derive(Clone, Debug, PartialEq)]
pub enum GuardNote<M> {
    /// A forced win within this many plies, by this move.
    Win(M, u32),
    /// The position is lost within this many plies whatever is played
    /// (the search's choice stands).
    Lost(u32),
    /// The search's choice was proved lost within this many plies; this
    /// move, the next not proved lost in the search's ranking, replaces it.
    Saved {
        /// The search's choice.
        refused: M,
        /// Its proved loss, in plies.
        plies: u32,
        /// The move played instead.
        played: M,
    },
    /// No proof changed the search's choice.
    Nothing,
}

/// The root guard: a solver with its table, kept between the moves of a game.
pub struct Guard<G: Solvable> {
    config: GuardConfig,
    solver: Solver<G>,
    /// Nodes the guard visited since it was made.
    pub nodes: u64,
}

impl<G: Solvable> Guard<G> {
    /// A guard with a fresh table.
    pub fn new(config: GuardConfig) -> Guard<G> {
        let mut solver = Solver::with_table_mb(config.table_mb);
        solver.node_cap = Some(config.nodes);
        solver.time_limit = config.time;
        Guard { config, solver, nodes: 0 }
    }

    /// The configuration.
    pub fn config(&self) -> &GuardConfig {
        &self.config
    }

    /// Before the search: the first move of the shortest forced win within
    /// [`GuardConfig::depth`] plies that the budget proves, with its
    /// length; or the length of a proved loss (`Err`), or nothing.
    pub fn before(&mut self, root: &G::State) -> Result<Option<(G::Move, u32)>, u32> {
        let sol = self.solver.solve(root, self.config.depth);
        self.nodes += sol.nodes;
        match sol.verdict {
            Verdict::Win(n) => Ok(sol.pv.first().map(|&m| (m, n))),
            Verdict::Loss(n) => Err(n),
            _ => Ok(None),
        }
    }

    /// After the search: `ranking` is the search's moves, best first. If
    /// the first is proved lost within [`GuardConfig::depth`] plies, the
    /// next ones are checked in turn (at most [`GuardConfig::checks`] moves
    /// in all) and the first not proved lost is returned with the refused
    /// move and its loss; `None` keeps the search's choice.
    pub fn after(&mut self, root: &G::State, ranking: &[G::Move]) -> Option<(G::Move, G::Move, u32)> {
        let first = *ranking.first()?;
        let mut refused = None;
        for &m in ranking.iter().take(self.config.checks.max(1)) {
            let sol = self.solver.solve_move(root, m, self.config.depth);
            self.nodes += sol.nodes;
            match (sol.verdict, refused) {
                (Verdict::Loss(n), None) => refused = Some(n),
                (Verdict::Loss(_), Some(_)) => {}
                (_, None) => return None,
                (_, Some(n)) => return Some((m, first, n)),
            }
        }
        None
    }

    /// [`Guard::before`], then `search` (which returns its ranking, best
    /// first), then [`Guard::after`]: the move to play and what the guard did.
    pub fn choose(
        &mut self,
        root: &G::State,
        search: impl FnOnce() -> Vec<G::Move>,
    ) -> (Option<G::Move>, GuardNote<G::Move>) {
        let lost = match self.before(root) {
            Ok(Some((m, n))) => return (Some(m), GuardNote::Win(m, n)),
            Ok(None) => None,
            Err(n) => Some(n),
        };
        let ranking = search();
        if let Some(n) = lost {
            return (ranking.first().copied(), GuardNote::Lost(n));
        }
        match self.after(root, &ranking) {
            Some((played, refused, plies)) => (Some(played), GuardNote::Saved { refused, plies, played }),
            None => (ranking.first().copied(), GuardNote::Nothing),
        }
    }
}
