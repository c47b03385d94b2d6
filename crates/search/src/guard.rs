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
//! [`check_ranking`] is the policy after the search alone, over any prover:
//! a game whose proofs are not [`Solver`]'s (hidden hands) guards its
//! moves with it the same way.
//!
//! What this module must never do: name a game, use a heuristic in a
//! verdict (every answer is the exact solver's), or change a move unless a
//! proof says so: without a proof the search's choice stands.

use crate::solver::{Solvable, Solver, Verdict};
use std::time::Duration;

/// What the guard may spend per move and how deep it looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GuardConfig {
    /// Largest horizon in plies of the win search and the loss checks (the
    /// move counts as one).
    pub depth: u32,
    /// Horizon of the win search made before the search ([`Guard::before`]),
    /// at most [`GuardConfig::depth`]; 0: none (the wins within `depth`
    /// are then looked for with [`Guard::win_within`] alone).
    pub before: u32,
    /// Nodes of one proof attempt: a hard cap ([`Solver::node_cap`]), so
    /// the guard's answers depend on the position alone; a capped attempt
    /// proves what its completed horizons proved.
    pub nodes: u64,
    /// Wall-clock limit of one proof attempt, if any (then answers depend
    /// on the machine's speed).
    pub time: Option<Duration>,
    /// Moves of the search's ranking checked for a proved loss, at most.
    pub checks: usize,
    /// Node cap of each check after the search's choice was proved lost
    /// (a critical position: the replacement is worth a longer look).
    pub rescue: u64,
    /// Transposition table of the solver, in megabytes.
    pub table_mb: usize,
}

impl Default for GuardConfig {
    fn default() -> GuardConfig {
        GuardConfig { depth: 7, before: 7, nodes: 1_000_000, time: None, checks: 3, rescue: 10_000_000, table_mb: 16 }
    }
}

/// What the guard decided, for reports.
#[derive(Clone, Debug, PartialEq)]
pub enum GuardNote<M> {
    /// A forced win within this many plies, by this move.
    Win(M, u32),
    /// Every move of the search's ranking is proved lost; this one holds
    /// out longest (lost within `plies`).
    Lost {
        /// The move played.
        played: M,
        /// Its proved loss, in plies.
        plies: u32,
    },
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
    /// [`GuardConfig::before`] plies that the node cap proves, with its length.
    pub fn before(&mut self, root: &G::State) -> Option<(G::Move, u32)> {
        let horizon = self.config.before.min(self.config.depth);
        if horizon == 0 {
            return None;
        }
        self.win_in(root, self.config.nodes, horizon)
    }

    /// The first move of the shortest forced win within
    /// [`GuardConfig::depth`] plies, with another node cap than the quick
    /// one (a deeper look where a search says the game is nearly won).
    pub fn win_within(&mut self, root: &G::State, nodes: u64) -> Option<(G::Move, u32)> {
        self.win_in(root, nodes, self.config.depth)
    }

    /// The first move of the shortest forced win within `horizon` plies
    /// that a search of `nodes` nodes proves.
    fn win_in(&mut self, root: &G::State, nodes: u64, horizon: u32) -> Option<(G::Move, u32)> {
        self.solver.node_cap = Some(nodes);
        // Only the mover's win is asked (the solver's one-question search):
        // whether the rival wins is asked by `after`, move by move.
        let sol = self.solver.forced_win(root, G::to_move(root), horizon);
        self.solver.node_cap = Some(self.config.nodes);
        self.nodes += sol.nodes;
        match sol.verdict {
            Verdict::Win(n) => sol.pv.first().map(|&m| (m, n)),
            _ => None,
        }
    }

    /// The plies within which playing `m` at `root` is proved lost (the
    /// rival forces a win within [`GuardConfig::depth`] plies, `m` one of
    /// them), if the node cap proves it.
    pub fn loses(&mut self, root: &G::State, m: G::Move) -> Option<u32> {
        self.loses_within(root, m, self.config.nodes)
    }

    /// [`Guard::loses`] with another node cap for this attempt.
    pub fn loses_within(&mut self, root: &G::State, m: G::Move, nodes: u64) -> Option<u32> {
        let child = G::apply(root, m);
        let rival = Solver::<G>::rival(root, G::to_move(root));
        self.solver.node_cap = Some(nodes);
        let sol = self.solver.forced_win(&child, rival, self.config.depth.saturating_sub(1));
        self.solver.node_cap = Some(self.config.nodes);
        self.nodes += sol.nodes;
        match sol.verdict {
            Verdict::Win(n) | Verdict::Loss(n) => Some(n + 1),
            _ => None,
        }
    }

    /// After the search: `ranking` is the search's moves, best first. If
    /// the first is proved lost, the next ones are checked in turn, each
    /// with [`GuardConfig::rescue`] nodes (at most
    /// [`GuardConfig::checks`] moves in all): the first not proved lost
    /// replaces it ([`GuardNote::Saved`]); if every move of the ranking is
    /// proved lost, the one that holds out longest is played
    /// ([`GuardNote::Lost`]); otherwise nothing changes.
    pub fn after(&mut self, root: &G::State, ranking: &[G::Move]) -> GuardNote<G::Move> {
        let (quick, rescue) = (self.config.nodes, self.config.rescue.max(self.config.nodes));
        check_ranking(ranking, self.config.checks, |m, replacement| {
            self.loses_within(root, m, if replacement { rescue } else { quick })
        })
    }

    /// The move a note plays, if it changes or confirms one.
    pub fn played(note: &GuardNote<G::Move>) -> Option<G::Move> {
        match *note {
            GuardNote::Win(m, _) | GuardNote::Lost { played: m, .. } | GuardNote::Saved { played: m, .. } => Some(m),
            GuardNote::Nothing => None,
        }
    }

    /// [`Guard::before`], then `search` (which returns its ranking, best
    /// first), then [`Guard::after`]: the move to play and what the guard did.
    pub fn choose(
        &mut self,
        root: &G::State,
        search: impl FnOnce() -> Vec<G::Move>,
    ) -> (Option<G::Move>, GuardNote<G::Move>) {
        if let Some((m, n)) = self.before(root) {
            return (Some(m), GuardNote::Win(m, n));
        }
        let ranking = search();
        let note = self.after(root, &ranking);
        (Guard::<G>::played(&note).or(ranking.first().copied()), note)
    }
}

/// The policy of [`Guard::after`] over any prover, so that a game whose
/// proofs are not [`Solver`]'s (hidden information, say) guards its moves
/// the same way: `ranking` is the search's moves, best first; `loses(m,
/// replacement)` is the plies within which `m` is proved lost, `None` when
/// not proved (`replacement`: the search's choice was refused and `m` is a
/// candidate to replace it, which may earn a longer look). The first move
/// is checked; if it is proved lost, the next ones in turn (at most
/// `checks` moves in all): the first not proved lost replaces it
/// ([`GuardNote::Saved`]); if every move of the ranking is proved lost,
/// the one that holds out longest is named ([`GuardNote::Lost`]);
/// otherwise [`GuardNote::Nothing`]. Without a proof nothing changes.
pub fn check_ranking<M: Copy + PartialEq>(
    ranking: &[M],
    checks: usize,
    mut loses: impl FnMut(M, bool) -> Option<u32>,
) -> GuardNote<M> {
    let Some(&first) = ranking.first() else { return GuardNote::Nothing };
    let mut refused = None;
    let mut longest: Option<(M, u32)> = None;
    let checks = checks.max(1);
    for &m in ranking.iter().take(checks) {
        match (loses(m, refused.is_some()), refused) {
            (None, None) => return GuardNote::Nothing,
            (None, Some(plies)) => return GuardNote::Saved { refused: first, plies, played: m },
            (Some(n), _) => {
                refused.get_or_insert(n);
                if longest.is_none_or(|(_, l)| n > l) {
                    longest = Some((m, n));
                }
            }
        }
    }
    match longest {
        Some((played, plies)) if ranking.len() <= checks && played != first => GuardNote::Lost { played, plies },
        Some((_, plies)) if ranking.len() <= checks => GuardNote::Lost { played: first, plies },
        _ => GuardNote::Nothing,
    }
}
