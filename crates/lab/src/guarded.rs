//! The root guard of the search crate ([`game_search::guard`]) as the MCTS
//! agents of every game use it (`guard=D,guard_nodes=N` in their specs):
//! made lazily with a fresh table for each game, asked before the search
//! for a forced win and after it about the chosen move, and described in
//! one line for `senat bestmove`'s stderr.
//!
//! What this module must never do: know which game it guards, or change a
//! move without the guard's proof.

use game_search::guard::{Guard, GuardConfig, GuardNote};
use game_search::solver::Solvable;

/// Default horizon of `guard=` when only `guard_nodes=` is given.
pub const DEFAULT_GUARD_DEPTH: u32 = 7;
/// Default node cap of one proof attempt (`guard_nodes=`).
pub const DEFAULT_GUARD_NODES: u64 = 200_000;

/// A guard for one agent: `None` when the spec has no `guard=`.
pub struct RootGuard<G: Solvable> {
    config: Option<GuardConfig>,
    guard: Option<Guard<G>>,
    note: Option<GuardNote<G::Move>>,
}

impl<G: Solvable> RootGuard<G> {
    /// A guard of `depth` plies (0: none) and `nodes` per proof attempt.
    pub fn new(depth: u32, nodes: u64) -> RootGuard<G> {
        // Every move of the ranking may be checked: a proved loss is cheap
        // (the first move not proved lost, capped or not, ends the checks).
        let config = (depth > 0).then(|| GuardConfig { depth, nodes, checks: usize::MAX, ..GuardConfig::default() });
        RootGuard { config, guard: None, note: None }
    }

    /// Whether the spec asked for a guard.
    pub fn on(&self) -> bool {
        self.config.is_some()
    }

    /// Forgets the table (a new game).
    pub fn reset(&mut self) {
        self.guard = None;
        self.note = None;
    }

    fn guard(&mut self) -> Option<&mut Guard<G>> {
        let config = self.config?;
        Some(self.guard.get_or_insert_with(|| Guard::new(config)))
    }

    /// Before the search: the first move of a forced win within the
    /// horizon, if the guard proves one (then no search is needed).
    pub fn before(&mut self, s: &G::State) -> Option<G::Move> {
        self.note = None;
        let found = self.guard()?.before(s);
        match found {
            Ok(Some((m, n))) => {
                self.note = Some(GuardNote::Win(m, n));
                Some(m)
            }
            Ok(None) => None,
            Err(n) => {
                self.note = Some(GuardNote::Lost(n));
                None
            }
        }
    }

    /// After the search: `chosen`, or the first move of the search's
    /// ranking (`moves`, with visits) that is not proved lost if `chosen`
    /// is. Nothing is checked in a position already proved lost.
    pub fn after(&mut self, s: &G::State, chosen: G::Move, moves: &[(G::Move, u64, f64)]) -> G::Move {
        if matches!(self.note, Some(GuardNote::Lost(_))) {
            return chosen;
        }
        let mut ranking: Vec<(G::Move, u64)> = moves.iter().filter(|m| m.0 != chosen).map(|m| (m.0, m.1)).collect();
        ranking.sort_by_key(|m| std::cmp::Reverse(m.1));
        let ranking: Vec<G::Move> = std::iter::once(chosen).chain(ranking.into_iter().map(|m| m.0)).collect();
        let Some(guard) = self.guard() else { return chosen };
        match guard.after(s, &ranking) {
            Some((played, refused, plies)) => {
                self.note = Some(GuardNote::Saved { refused, plies, played });
                played
            }
            None => chosen,
        }
    }

    /// What the guard did at the last move, as text (`None`: no guard, or nothing).
    pub fn explain(&self, text: impl Fn(G::Move) -> String) -> Option<String> {
        Some(match self.note.as_ref()? {
            GuardNote::Win(m, n) => format!("guard: {} forces a win within {n} plies", text(*m)),
            GuardNote::Lost(n) => format!("guard: every move loses within {n} plies"),
            GuardNote::Saved { refused, plies, played } => {
                format!("guard: {} loses within {plies} plies, {} instead", text(*refused), text(*played))
            }
            GuardNote::Nothing => return None,
        })
    }

    /// Nodes the guard's solver visited in this game.
    pub fn nodes(&self) -> u64 {
        self.guard.as_ref().map_or(0, |g| g.nodes)
    }
}
