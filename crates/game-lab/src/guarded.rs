//! The root guard of the search crate ([`game_search::guard`]) as the MCTS
//! agents of every game use it (`guard=D,guard_nodes=N` in their specs):
//! made lazily with a fresh table for each game, asked before the search
//! for a forced win and after it about the chosen move, and described in
//! one line for `senat bestmove`'s stderr.
//!
//! What this module must never do: know which game it guards, or change a
//! move without the guard's proof.

use crate::limits::{self, LimitError};
use game_search::guard::{Guard, GuardConfig, GuardNote};
use game_search::solver::Solvable;

/// Default horizon of `guard=` when only `guard_nodes=` is given.
pub const DEFAULT_GUARD_DEPTH: u32 = 7;
/// Default node cap of the quick proof attempts (`guard_nodes=`): the win
/// looked for before each search, each loss check after it.
pub const DEFAULT_GUARD_NODES: u64 = 50_000;
/// Default node cap of the deep look for a win (`guard_deep=`), made only
/// where the search's value for the mover is at least [`DEEP_VALUE`].
pub const DEFAULT_GUARD_DEEP: u64 = 8_000_000;

/// A search's value for the mover (mean result, 1 a win) from which the
/// guard looks for a forced win again with the deep node cap: a position
/// the search already sees as nearly won is where a forced win is likely,
/// and where converting it sooner matters.
pub const DEEP_VALUE: f64 = 0.9;
/// The node cap of the checks of replacement moves, in multiples of the
/// quick cap (`guard_nodes`), once the search's choice is proved lost.
pub const RESCUE_FACTOR: u64 = 10;
/// The most eligible moves skipped between two deep looks of one game:
/// after `k` deep looks in a row that proved nothing, the next
/// `min(2^k - 1, MAX_DEEP_SKIP)` eligible moves go without one. A game
/// that stays won for a long time without a short forced win costs a few
/// deep looks, not one per move; any proof (deep or quick) restarts the count.
pub const MAX_DEEP_SKIP: u32 = 15;

/// The guard keys of an MCTS spec (`guard=D,guard_nodes=N,guard_deep=N,
/// guard_before=D`), the same for every game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GuardSpec {
    /// Horizon in plies (0: no guard).
    pub depth: u32,
    /// Node cap of the quick attempts.
    pub nodes: u64,
    /// Node cap of the deep look for a win.
    pub deep: u64,
    /// Horizon of the quick look for a win before the search (0: none);
    /// `None`: the guard's horizon.
    pub before: Option<u32>,
}

/// The spec keys [`GuardSpec::set`] reads.
pub const GUARD_KEYS: &[&str] = &["guard", "guard_nodes", "guard_deep", "guard_before"];

impl GuardSpec {
    /// No guard (the defaults of the other keys).
    pub const OFF: GuardSpec =
        GuardSpec { depth: 0, nodes: DEFAULT_GUARD_NODES, deep: DEFAULT_GUARD_DEEP, before: None };

    /// Reads one `key=value` if `key` is a guard key (`Ok(false)`: not one);
    /// bounds from [`crate::limits`].
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, LimitError> {
        let n = |v: &str| v.trim().parse::<u64>().ok();
        match key.trim() {
            "guard" => {
                let d = n(value).and_then(|d| u32::try_from(d).ok()).unwrap_or(u32::MAX);
                self.depth = limits::depth(key.trim(), d, 0)?;
            }
            "guard_nodes" => self.nodes = limits::nodes(key.trim(), n(value).unwrap_or(0))?,
            "guard_deep" => self.deep = limits::nodes(key.trim(), n(value).unwrap_or(0))?,
            "guard_before" => {
                let d = n(value).and_then(|d| u32::try_from(d).ok()).unwrap_or(u32::MAX);
                self.before = Some(limits::depth(key.trim(), d, 0)?);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A fresh guard for one game.
    pub fn build<G: Solvable>(&self) -> RootGuard<G> {
        let mut guard = RootGuard::new(self.depth, self.nodes, self.deep);
        if let (Some(before), Some(config)) = (self.before, guard.config.as_mut()) {
            config.before = before;
        }
        guard
    }
}

impl Default for GuardSpec {
    fn default() -> GuardSpec {
        GuardSpec::OFF
    }
}

impl std::fmt::Display for GuardSpec {
    /// The keys that differ from [`GuardSpec::OFF`], each after a comma
    /// (`,guard=7`); nothing for no guard.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.depth == 0 {
            return Ok(());
        }
        write!(f, ",guard={}", self.depth)?;
        if self.nodes != DEFAULT_GUARD_NODES {
            write!(f, ",guard_nodes={}", self.nodes)?;
        }
        if self.deep != DEFAULT_GUARD_DEEP {
            write!(f, ",guard_deep={}", self.deep)?;
        }
        if let Some(before) = self.before {
            write!(f, ",guard_before={before}")?;
        }
        Ok(())
    }
}

/// A guard for one agent: `None` when the spec has no `guard=`.
pub struct RootGuard<G: Solvable> {
    config: Option<GuardConfig>,
    deep: u64,
    guard: Option<Guard<G>>,
    note: Option<GuardNote<G::Move>>,
    /// Deep looks in a row that proved nothing, in this game.
    deep_fails: u32,
    /// Eligible moves still to go without a deep look.
    deep_skip: u32,
    /// Deep looks made in this game.
    deep_looks: u32,
}

impl<G: Solvable> RootGuard<G> {
    /// A guard of `depth` plies (0: none), `nodes` per quick proof
    /// attempt and `deep` for the deep look.
    pub fn new(depth: u32, nodes: u64, deep: u64) -> RootGuard<G> {
        // Every move of the ranking may be checked: a proved loss is cheap
        // (the first move not proved lost, capped or not, ends the checks).
        // Once the search's choice is refused, each replacement gets ten
        // times the quick cap (a critical position, and a rare one).
        let config = (depth > 0).then(|| GuardConfig {
            depth,
            before: depth,
            nodes,
            checks: usize::MAX,
            rescue: nodes.saturating_mul(RESCUE_FACTOR),
            ..GuardConfig::default()
        });
        RootGuard { config, deep, guard: None, note: None, deep_fails: 0, deep_skip: 0, deep_looks: 0 }
    }

    /// Whether the spec asked for a guard.
    pub fn on(&self) -> bool {
        self.config.is_some()
    }

    /// Forgets the table (a new game).
    pub fn reset(&mut self) {
        self.guard = None;
        self.note = None;
        self.deep_fails = 0;
        self.deep_skip = 0;
        self.deep_looks = 0;
    }

    /// Deep looks made in this game (see [`MAX_DEEP_SKIP`]).
    pub fn deep_looks(&self) -> u32 {
        self.deep_looks
    }

    /// Whether this eligible move gets a deep look (and counts it).
    fn take_deep_look(&mut self) -> bool {
        if self.deep_skip > 0 {
            self.deep_skip -= 1;
            return false;
        }
        self.deep_looks += 1;
        true
    }

    /// Records what a deep look found.
    fn deep_result(&mut self, proved: bool) {
        if proved {
            self.deep_fails = 0;
        } else {
            self.deep_fails = self.deep_fails.saturating_add(1);
            self.deep_skip = (1u32 << self.deep_fails.min(31)).saturating_sub(1).min(MAX_DEEP_SKIP);
        }
    }

    fn guard(&mut self) -> Option<&mut Guard<G>> {
        let config = self.config?;
        Some(self.guard.get_or_insert_with(|| Guard::new(config)))
    }

    /// Before the search: the first move of a forced win within the
    /// horizon, if the guard proves one (then no search is needed).
    pub fn before(&mut self, s: &G::State) -> Option<G::Move> {
        self.note = None;
        let (m, n) = self.guard()?.before(s)?;
        self.note = Some(GuardNote::Win(m, n));
        // A proved win: the deep looks start afresh.
        self.deep_fails = 0;
        self.deep_skip = 0;
        Some(m)
    }

    /// After the search: where the search's `value` for the mover is at
    /// least [`DEEP_VALUE`] (and the backoff of [`MAX_DEEP_SKIP`] allows
    /// it), the first move of a forced win that a look with the deep node
    /// cap proves; otherwise `chosen`, or what
    /// [`Guard::after`] plays instead over the search's ranking (`chosen`
    /// first, then the other moves of `moves` by visits): the first move
    /// not proved lost, or the longest loss where every move is lost.
    pub fn after(&mut self, s: &G::State, chosen: G::Move, moves: &[(G::Move, u64, f64)], value: f64) -> G::Move {
        let deep = self.deep;
        let Some(config) = self.config else { return chosen };
        if value >= DEEP_VALUE && deep > config.nodes && self.take_deep_look() {
            let found = self.guard().and_then(|g| g.win_within(s, deep));
            self.deep_result(found.is_some());
            if let Some((m, n)) = found {
                self.note = Some(GuardNote::Win(m, n));
                return m;
            }
        }
        let Some(guard) = self.guard() else { return chosen };
        let mut ranking: Vec<(G::Move, u64)> = moves.iter().filter(|m| m.0 != chosen).map(|m| (m.0, m.1)).collect();
        ranking.sort_by_key(|m| std::cmp::Reverse(m.1));
        let ranking: Vec<G::Move> = std::iter::once(chosen).chain(ranking.into_iter().map(|m| m.0)).collect();
        let note = guard.after(s, &ranking);
        let played = Guard::<G>::played(&note).unwrap_or(chosen);
        self.note = Some(note);
        played
    }

    /// What the guard did at the last move, as text (`None`: no guard, or nothing).
    pub fn explain(&self, text: impl Fn(G::Move) -> String) -> Option<String> {
        Some(match self.note.as_ref()? {
            GuardNote::Win(m, n) => format!("guard: {} forces a win within {n} plies", text(*m)),
            GuardNote::Lost { played, plies } => {
                format!("guard: every move loses, {} holds out longest ({plies} plies)", text(*played))
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    crate::testgames::one_heap_nim!(Nim);

    /// Which of `n` eligible moves get a deep look when every look fails,
    /// or when the look at `proved` proves a win.
    fn looks(n: u32, proved: Option<u32>) -> Vec<u32> {
        let mut g = RootGuard::<Nim>::new(7, 1_000, 100_000);
        let mut at = Vec::new();
        for i in 0..n {
            if g.take_deep_look() {
                at.push(i);
                g.deep_result(proved == Some(i));
            }
        }
        assert_eq!(g.deep_looks() as usize, at.len());
        at
    }

    #[test]
    fn guard_before_is_read_shown_and_reaches_the_guard() {
        let mut g = GuardSpec::OFF;
        for (k, v) in [("guard", "7"), ("guard_before", "0")] {
            assert_eq!(g.set(k, v), Ok(true));
        }
        assert_eq!(g.before, Some(0));
        assert_eq!(g.to_string(), ",guard=7,guard_before=0");
        assert_eq!(g.build::<Nim>().config.map(|c| (c.depth, c.before)), Some((7, 0)));
        let plain = GuardSpec { depth: 7, ..GuardSpec::OFF };
        assert_eq!(plain.to_string(), ",guard=7");
        assert_eq!(plain.build::<Nim>().config.map(|c| c.before), Some(7), "the guard's horizon by default");
        assert!(g.set("guard_before", "121").is_err(), "bounded as a depth");
        assert_eq!(g.set("guard_width", "1"), Ok(false));
    }

    #[test]
    fn failed_deep_looks_back_off_and_a_proof_restarts_them() {
        // Skips of 1, 3, 7, then 15 at most.
        assert_eq!(looks(80, None), vec![0, 2, 6, 14, 30, 46, 62, 78]);
        // A proof at the third look: the next eligible move looks again.
        assert_eq!(looks(20, Some(6)), vec![0, 2, 6, 7, 9, 13]);
        let mut g = RootGuard::<Nim>::new(7, 1_000, 100_000);
        g.take_deep_look();
        g.deep_result(false);
        g.reset();
        assert!(g.take_deep_look(), "a new game looks at once");
    }
}
