//! Monte Carlo tree search: UCT (or PUCT with priors) over any [`Game`],
//! with a pluggable [`Rollout`] (which also supplies the priors, see
//! [`Rollout::priority`]), tree reuse between moves, a memory cap, and two
//! ways to search on several threads.
//!
//! **Parallelism.** [`Config::parallel`] chooses between two modes.
//!
//! - [`Parallel::Root`] (the default): each thread grows its own tree from
//!   the same root with its own generator (seeded from the search seed and
//!   the thread index), and the root statistics are summed at the end (root
//!   parallelism). Threads share nothing while they run, and a search is a
//!   pure function of (root, seed, config) for every thread count. The price
//!   is that each tree sees only its share of the playouts, so deep lines
//!   are explored less than in one tree.
//! - [`Parallel::Tree`]: all threads grow one shared tree (tree
//!   parallelism with virtual loss, in `mcts/shared.rs`): atomic statistics,
//!   children created once per node by whichever thread gets there first, a
//!   virtual loss on every node of a thread's path while its rollout runs
//!   (outside any lock) so that the other threads spread out, and one shared
//!   playout budget. Every playout deepens the same tree, so with several
//!   threads it grows deeper than root mode's trees for the same playouts.
//!   With one thread it is a pure function of (root, seed, config) and,
//!   short of the memory cap and the time limit, makes the same choices as
//!   root mode without proofs (virtual loss only ever counts other threads'
//!   playouts); with several the interleaving of the threads decides. The
//!   shared tree proves nothing (see **Proofs**).
//!
//! Root mode is kept, and may still win: when rollouts are cheap (a
//! tic-tac-toe playout is a few plies) the shared tree's atomics and the
//! cache lines its threads contend for cost a visible share of the time,
//! while root trees share nothing; and when several threads must give
//! reproducible results (pinned outputs, regression tests), only root mode
//! does. For long rollouts (a Sénat playout is about a hundred plies) the
//! tree walk is a small part of a playout and the shared tree costs little.
//! Measured on one thread of a loaded 2-core machine (medians of three,
//! the ignored test `playout_rate_root_against_tree` of `tests/toys.rs`):
//! tic-tac-toe 0.87 M playouts/s in root mode against 0.74 M in tree mode,
//! 60-stone Nim 0.69 M against 0.53 M, and Sénat's start 31 k for both.
//!
//! **Memory.** In root mode nodes live in one arena per tree, children
//! contiguous; when an arena reaches its share of the cap, leaves stop
//! being expanded and playouts go on from the leaves (the tree stops
//! growing, the search does not stop). The shared tree counts its nodes
//! against the whole cap ([`shared_node_bytes`] each) and stops growing the
//! same way.
//!
//! **Players.** Each node sums the rewards of the player who made the move
//! into it, read from the rollout's per-player [`Scores`], and selection
//! maximizes the mean of the player to move among its children: right for
//! any number of players, and for partners (who share a score).
//!
//! **Chance.** A chance node ([`Game::is_chance`]) is a tree node whose
//! children are its outcomes; the descent draws one by its probability
//! instead of selecting (the outcomes' own statistics are never read).
//!
//! **Proofs** ([`Config::solver`], on by default; MCTS-Solver of Winands,
//! Björnsson and Saito 2008 with the score bounds of Cazenave and
//! Saffidine 2010, in `mcts/proof.rs`). In [`Parallel::Root`] trees of
//! two-team games ([`crate::solver::check`], partners proving together),
//! a node reached for the first time is asked [`Game::result`]; a terminal
//! one gets exact bounds, and bounds are backed up the path while they
//! change (a move proved won for the side to move proves its parent won,
//! all moves proved lost prove it lost, bounds settle draws; a chance node
//! is proved only when every outcome is, with the same outcome). Bounds
//! carry the distance to the end, so a shorter proved win and a longer
//! proved loss are worth more. A proved node is never searched below: a
//! playout that reaches it backs up its value (the results of a terminal
//! state, else 1, ½ or 0) instead of a rollout; the descent skips children
//! proved lost for the mover; [`Report::best`] is the shortest proved win
//! if there is one, never a proved loss while another move is open (if
//! all are lost, the one put off longest), else the most visited move; a
//! tree stops early once its root is proved; [`Report::proofs`] and
//! [`Report::proof`] tell what was proved. Proofs come from terminal
//! results only, never from a rollout or a prior. They cost a
//! [`Game::result`] call on each node's first visit and nothing in memory
//! (the two `i16` bounds fit in the node's padding: 40 bytes for Sénat's
//! moves before and after). Measured with `senat analyze --engine mcts` on
//! one thread of a loaded 2-core machine, single runs: random rollouts,
//! 100k playouts, 55 k playouts/s off against 49 k on; `--rollout eval
//! --prior 1000`, 200k playouts, 119 k and 101 k off against 78 k and 91 k
//! on (noisy). Sénat's forced wins of 7 plies need proof trees of about
//! two million nodes (the exact solver's count), more than 200k playouts
//! prove. The
//! shared tree ([`Parallel::Tree`]) and [`Mcts::search_determinized`] (a
//! proof in one world says nothing of the observer's position) prove
//! nothing and behave as with proofs off.
//!
//! **Hidden information.** [`Mcts::search_determinized`] searches several
//! determinizations of the root ([`ImperfectInformation::determinize`]),
//! one tree each, and sums the root statistics by move.
//!
//! This module must never know a game's rules (everything comes from
//! [`Game`] and the [`Rollout`]) nor draw randomness from anywhere but the
//! seed it is given.

mod proof;
mod shared;

pub use proof::Proof;

use super::{Game, ImperfectInformation, MAX_PLAYERS, Scores, standing};
use crate::rng::{GameRng, below, mix64, rng_from_seed};
use rand::Rng;
use shared::{SharedTree, Worker};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Plays a game from a state to its end and reports the result.
pub trait Rollout<G: Game>: Clone + Send {
    /// The per-player results of a game played on from `s` (which may be over).
    fn rollout(&mut self, s: &G::State, rng: &mut GameRng) -> Scores;

    /// The priority of move `m` at `s` when the tree expands `s` (larger is
    /// better): children are ordered by it (unvisited ones are tried best
    /// first) and, with [`Selection::Puct`], their priors are its softmax.
    /// The default is [`Game::priority`]; a leaf evaluator that knows
    /// better (a policy network, a lab heuristic) overrides it. It is asked
    /// once per child at expansion, never during the descent.
    fn priority(&mut self, s: &G::State, m: G::Move) -> i32 {
        G::priority(s, m)
    }
}

/// Uniformly random moves through [`Game::moves`], for any game, and
/// chance outcomes drawn by their probabilities; a game longer than
/// `max_plies` scores the same for every player.
#[derive(Debug)]
pub struct UniformRollout<G: Game> {
    buf: Vec<G::Move>,
    outcomes: Vec<(G::Move, f64)>,
    /// Plies after which a rollout gives up and scores a draw.
    pub max_plies: u32,
}

impl<G: Game> Clone for UniformRollout<G> {
    fn clone(&self) -> Self {
        UniformRollout { buf: Vec::new(), outcomes: Vec::new(), max_plies: self.max_plies }
    }
}

impl<G: Game> Default for UniformRollout<G> {
    fn default() -> Self {
        UniformRollout { buf: Vec::new(), outcomes: Vec::new(), max_plies: 10_000 }
    }
}

/// Equal shares for every player: what an unfinished rollout scores.
fn even(players: usize) -> Scores {
    let mut r = [0.0; MAX_PLAYERS];
    r[..players].fill(1.0 / players as f64);
    r
}

impl<G: Game> Rollout<G> for UniformRollout<G>
where
    G::State: Send,
    G::Move: Send,
{
    fn rollout(&mut self, s: &G::State, rng: &mut GameRng) -> Scores {
        let mut s = s.clone();
        for _ in 0..self.max_plies {
            if let Some(r) = G::result(&s) {
                return r;
            }
            if G::is_chance(&s) {
                G::chance_outcomes(&s, &mut self.outcomes);
                match draw(rng, self.outcomes.iter().map(|o| o.1)) {
                    Some(i) => s = G::apply(&s, self.outcomes[i].0),
                    None => break,
                }
                continue;
            }
            G::moves(&s, &mut self.buf);
            if self.buf.is_empty() {
                break;
            }
            s = G::apply(&s, self.buf[below(rng, self.buf.len())]);
        }
        G::result(&s).unwrap_or_else(|| even(G::players(&s)))
    }
}

/// An index drawn with the given probabilities (`None` if there are none);
/// rounding errors fall on the last one.
pub fn draw(rng: &mut GameRng, probs: impl Iterator<Item = f64>) -> Option<usize> {
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut acc = 0.0;
    let mut last = None;
    for (i, p) in probs.enumerate() {
        acc += p;
        if u < acc {
            return Some(i);
        }
        last = Some(i);
    }
    last
}

/// How a child is chosen during the descent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// UCB1: `Q + c·√(ln N / n)`, every child tried once first.
    Uct {
        /// Exploration constant `c`.
        c: f64,
    },
    /// AlphaZero's rule: `Q + c·P·√N / (1 + n)`, with `Q` = ½ for an
    /// unvisited child; priors `P` come from [`Rollout::priority`] (by
    /// default [`Game::priority`]) through a softmax of temperature `temp`.
    Puct {
        /// Exploration constant `c`.
        c: f64,
        /// Softmax temperature over [`Rollout::priority`] (large: uniform).
        temp: f64,
    },
}

/// What a search may spend and how it chooses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Playouts per search, over all threads.
    pub playouts: u64,
    /// Wall-clock limit per search (then results depend on the machine).
    pub time: Option<Duration>,
    /// Selection rule.
    pub selection: Selection,
    /// Memory cap of all trees together, in bytes.
    pub memory: usize,
    /// Threads.
    pub threads: usize,
    /// How the threads share the work: one tree each or one tree for all.
    pub parallel: Parallel,
    /// Proofs in the tree (see "Proofs" in the module doc): terminal
    /// states met in the tree and the wins, losses and draws they force
    /// are marked and backed up, proved nodes are not searched further,
    /// proved-lost moves are not tried while another is open, a proved win
    /// is played at once and the search stops when the root is proved. On
    /// by default; off, a search is exactly what it was before proofs
    /// existed. Only [`Parallel::Root`] searches of two-team games prove
    /// anything ([`crate::solver::check`]); elsewhere it changes nothing.
    pub solver: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            playouts: 1000,
            time: None,
            selection: Selection::Uct { c: 1.0 },
            memory: 256 << 20,
            threads: 1,
            parallel: Parallel::Root,
            solver: true,
        }
    }
}

/// How the threads of a search share the work (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Parallel {
    /// Root parallelism: one tree per thread, root statistics summed at the
    /// end; a function of (root, seed, config) for any thread count.
    #[default]
    Root,
    /// Tree parallelism: all threads grow one shared tree, spread apart by
    /// virtual loss; a function of (root, seed, config) with one thread only.
    Tree,
}

/// The parent's term of a selection rule from its visit count: `ln N` for
/// UCT, `√N` for PUCT (`N` at least 1).
fn parent_term(sel: Selection, visits: u64) -> f64 {
    match sel {
        Selection::Uct { .. } => (visits.max(1) as f64).ln(),
        Selection::Puct { .. } => (visits.max(1) as f64).sqrt(),
    }
}

/// The selection value of a child with `visits` and summed `reward`, under
/// a parent whose [`parent_term`] is `term`; `None` for an unvisited child
/// under UCT (tried first, in order).
fn child_value(sel: Selection, term: f64, reward: f64, visits: u64, prior: f32) -> Option<f64> {
    match sel {
        Selection::Uct { c } => (visits > 0).then(|| reward / visits as f64 + c * (term / visits as f64).sqrt()),
        Selection::Puct { c, .. } => {
            let q = if visits == 0 { 0.5 } else { reward / visits as f64 };
            Some(q + c * prior as f64 * term / (1.0 + visits as f64))
        }
    }
}

/// Fills `ranked` with the moves of `buf` and their [`Rollout::priority`],
/// best first (a stable sort: ties keep the game's order).
fn rank<G: Game, R: Rollout<G>>(s: &G::State, buf: &[G::Move], rollout: &mut R, ranked: &mut Vec<(i32, G::Move)>) {
    ranked.clear();
    ranked.extend(buf.iter().map(|&m| (rollout.priority(s, m), m)));
    ranked.sort_by_key(|&(p, _)| std::cmp::Reverse(p));
}

/// The priors of `ranked` children (best first), in order, through `push`:
/// uniform under UCT, the softmax of the priorities under PUCT (each
/// child's weight computed once, into `weights`). Returns whether the
/// priors never increase along `ranked` (see [`SORTED`]).
fn priors<M: Copy>(sel: Selection, ranked: &[(i32, M)], weights: &mut Vec<f64>, mut push: impl FnMut(M, f32)) -> bool {
    let uniform = 1.0 / ranked.len().max(1) as f32;
    match sel {
        Selection::Puct { temp, .. } if !ranked.is_empty() => {
            // Softmax of the priorities (the first is the largest).
            let top = ranked[0].0 as f64;
            let weight = |p: i32| ((p as f64 - top) / temp.max(1e-9)).exp();
            weights.clear();
            weights.extend(ranked.iter().map(|&(p, _)| weight(p)));
            let sum: f64 = weights.iter().sum();
            let mut last = f32::INFINITY;
            let mut sorted = true;
            for (&(_, m), &w) in ranked.iter().zip(weights.iter()) {
                let prior = (w / sum) as f32;
                // A NaN prior compares false: it clears the flag too.
                sorted &= prior <= last;
                last = prior;
                push(m, prior);
            }
            sorted
        }
        _ => {
            ranked.iter().for_each(|&(_, m)| push(m, uniform));
            true
        }
    }
}

/// The most visited move of `moves`; ties go to the better mean, then to
/// the first in priority order.
pub(crate) fn most_visited<M: Copy>(moves: &[(M, u64, f64)]) -> Option<M> {
    moves
        .iter()
        .enumerate()
        .max_by(|(i, a), (j, b)| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)).then(j.cmp(i)))
        .map(|(_, m)| m.0)
}

const EXPANDED: u8 = 1;
/// A chance node: its children are outcomes, drawn by their priors.
const CHANCE: u8 = 2;
/// The children's priors never increase in child order (the order of
/// [`rank`]: always, but checked as they are made). Under PUCT an
/// unvisited child's value then never exceeds that of an earlier
/// unvisited one, so [`Tree::select`] visits them in order: the visited
/// children come before every unvisited one it may choose, and it stops
/// at the first such unvisited child instead of reading the rest.
const SORTED: u8 = 4;

/// One node: the move that led to it and the statistics of the player who
/// made that move.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: Option<M>,
    /// Sum of the rewards of `player` over the playouts through this node.
    reward: f64,
    visits: u32,
    /// Index of the first child; children are contiguous.
    first: u32,
    children: u32,
    prior: f32,
    /// The player who made `mv` (whose rewards are summed here).
    player: u8,
    flags: u8,
    /// Pessimistic bound on the node's value for the first team (see
    /// `mcts/proof.rs`); read and written only when the tree proves.
    lo: i16,
    /// Optimistic bound, likewise.
    hi: i16,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, player: u8, prior: f32) -> Node<M> {
        let (lo, hi) = proof::UNKNOWN;
        Node { mv, reward: 0.0, visits: 0, first: 0, children: 0, prior, player, flags: 0, lo, hi }
    }

    /// Whether the bounds decide the node's outcome.
    fn is_proved(&self) -> bool {
        proof::proved(self.lo, self.hi)
    }
}

/// The size of one tree node of [`Parallel::Root`] trees, for memory caps.
pub fn node_bytes<G: Game>() -> usize {
    std::mem::size_of::<Node<G::Move>>()
}

/// The size of one node of the [`Parallel::Tree`] shared tree (atomic
/// statistics, children behind a once-cell), for memory caps.
pub fn shared_node_bytes<G: Game>() -> usize {
    shared::node_bytes::<G::Move>()
}

/// One tree and its working buffers (one per thread).
struct Tree<G: Game> {
    root: G::State,
    nodes: Vec<Node<G::Move>>,
    cap: usize,
    path: Vec<u32>,
    buf: Vec<G::Move>,
    outcomes: Vec<(G::Move, f64)>,
    ranked: Vec<(i32, G::Move)>,
    /// The softmax weights of `ranked` ([`priors`]).
    weights: Vec<f64>,
    /// Time spent in rollouts by this tree's playouts.
    rollout_time: Duration,
    /// Whether this tree proves (asked for, and two teams).
    solve: bool,
    /// Per player: +1 for the first team (player 0's), -1 for the other.
    side: [i8; MAX_PLAYERS],
}

impl<G: Game> Tree<G> {
    fn new(root: G::State, cap: usize, solve: bool) -> Tree<G> {
        let solve = solve && crate::solver::check::<G>(&root).is_ok();
        let mut side = [1; MAX_PLAYERS];
        for (p, s) in side.iter_mut().enumerate().take(G::players(&root).min(MAX_PLAYERS)) {
            *s = if G::team(&root, p) == G::team(&root, 0) { 1 } else { -1 };
        }
        let mut t = Tree {
            root,
            nodes: Vec::new(),
            cap: cap.max(1),
            path: Vec::new(),
            buf: Vec::new(),
            outcomes: Vec::new(),
            ranked: Vec::new(),
            weights: Vec::new(),
            rollout_time: Duration::ZERO,
            solve,
            side,
        };
        t.nodes.push(Node::new(None, 0, 1.0));
        t
    }

    /// Adds the children of `n` (state `s`) if the cap allows; they are
    /// ordered by [`Rollout::priority`] so that unvisited ones are tried best first.
    fn expand<R: Rollout<G>>(&mut self, n: usize, s: &G::State, sel: Selection, rollout: &mut R) {
        // The root is always expanded, whatever the cap.
        if n != 0 && self.nodes.len() >= self.cap {
            return;
        }
        if G::is_chance(s) {
            G::chance_outcomes(s, &mut self.outcomes);
            if n != 0 && self.nodes.len() + self.outcomes.len() > self.cap {
                return;
            }
            let first = self.nodes.len() as u32;
            // Children of chance carry the outcome's probability as prior; their player is never read.
            self.nodes.extend(self.outcomes.iter().map(|&(m, p)| Node::new(Some(m), 0, p as f32)));
            let node = &mut self.nodes[n];
            node.first = first;
            node.children = self.outcomes.len() as u32;
            node.flags |= EXPANDED | CHANCE;
            return;
        }
        G::moves(s, &mut self.buf);
        if n != 0 && self.nodes.len() + self.buf.len() > self.cap {
            return;
        }
        let player = G::to_move(s) as u8;
        rank::<G, R>(s, &self.buf, rollout, &mut self.ranked);
        let first = self.nodes.len() as u32;
        let nodes = &mut self.nodes;
        let sorted = priors(sel, &self.ranked, &mut self.weights, |m, p| nodes.push(Node::new(Some(m), player, p)));
        let node = &mut self.nodes[n];
        node.first = first;
        node.children = self.ranked.len() as u32;
        node.flags |= EXPANDED | if sorted { SORTED } else { 0 };
    }

    /// The child of `n` to descend into; when the tree proves, never one
    /// proved lost for the player to move (the node would be proved lost,
    /// and not searched, if every child were).
    fn select(&self, n: usize, sel: Selection) -> usize {
        let best = self.scan(n, sel, true);
        debug_assert_eq!(best, self.scan(n, sel, false), "the first unvisited child ends the scan");
        best
    }

    /// [`Tree::select`]'s scan of the children, which may stop at the first
    /// unvisited one under [`SORTED`] if `stop` (the same child: the debug
    /// builds check it at every selection).
    #[inline(always)]
    fn scan(&self, n: usize, sel: Selection, stop: bool) -> usize {
        let node = &self.nodes[n];
        let kids = node.first as usize..(node.first + node.children) as usize;
        let term = parent_term(sel, node.visits as u64);
        let mut best = kids.start;
        let mut best_v = f64::NEG_INFINITY;
        // The sign of the mover's frame (all children share the mover).
        let sign = if self.solve { self.side[self.nodes[kids.start].player as usize] } else { 0 };
        // An unvisited child's value rises with its prior for c ≥ 0 (a
        // negative c is refused by the specs, but this does not rest on it).
        let sorted = stop && node.flags & SORTED != 0 && matches!(sel, Selection::Puct { c, .. } if c >= 0.0);
        for i in kids {
            let k = &self.nodes[i];
            if sign != 0 && (if sign > 0 { k.hi } else { -k.lo }) < 0 {
                continue; // Proved lost for the mover.
            }
            let Some(v) = child_value(sel, term, k.reward, k.visits as u64, k.prior) else {
                return i;
            };
            if v > best_v {
                best_v = v;
                best = i;
            }
            if sorted && k.visits == 0 {
                // No later child can do better (SORTED): each later one is
                // unvisited, with a prior no larger, and a tie keeps this one.
                break;
            }
        }
        best
    }

    /// The child of chance node `n` drawn by the outcomes' probabilities.
    fn sample(&self, n: usize, rng: &mut GameRng) -> usize {
        let node = &self.nodes[n];
        let first = node.first as usize;
        let kids = &self.nodes[first..first + node.children as usize];
        first + draw(rng, kids.iter().map(|k| k.prior as f64)).unwrap_or(0)
    }

    /// One playout: descend, expand, roll out, back up.
    fn playout<R: Rollout<G>>(&mut self, sel: Selection, rollout: &mut R, rng: &mut GameRng) {
        self.path.clear();
        self.path.push(0);
        let mut n = 0usize;
        let mut s = self.root.clone();
        loop {
            let node = &self.nodes[n];
            if self.solve && node.is_proved() {
                break; // Proved: its value is backed up instead of a search below.
            }
            // A leaf is expanded on its second visit (the root at once), then
            // the playout takes one step below it and rolls out from there.
            let leaf = node.flags & EXPANDED == 0;
            if leaf && (node.visits > 0 || n == 0) {
                self.expand(n, &s, sel, rollout);
            }
            if self.nodes[n].children == 0 {
                break; // An unexpanded leaf, or the game is over here.
            }
            n = if self.nodes[n].flags & CHANCE != 0 { self.sample(n, rng) } else { self.select(n, sel) };
            s = G::apply(&s, self.nodes[n].mv.expect("a child has a move"));
            self.path.push(n as u32);
            if leaf {
                break;
            }
        }
        let (settled, changed) = if self.solve { self.settle(n, &s) } else { (None, false) };
        let r = match settled {
            Some(r) => r,
            None => {
                let started = Instant::now();
                let r = rollout.rollout(&s, rng);
                self.rollout_time += started.elapsed();
                r
            }
        };
        for &i in &self.path {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.reward += r[node.player as usize];
        }
        if changed {
            self.back_up_bounds();
        }
    }

    /// The value of the end `n` (state `s`) of a proving tree's descent
    /// without a rollout, if it is proved: the results of a terminal state
    /// (found and marked on its first visit), or 1, 0 or ½ per player for
    /// another proved node. Also whether `n`'s bounds changed.
    fn settle(&mut self, n: usize, s: &G::State) -> (Option<Scores>, bool) {
        let node = self.nodes[n];
        if node.is_proved() {
            if node.children == 0
                && let Some(r) = G::result(s)
            {
                return (Some(r), false);
            }
            let mut r = [0.0; MAX_PLAYERS];
            let players = G::players(s).min(MAX_PLAYERS);
            for (p, v) in r.iter_mut().enumerate().take(players) {
                *v = match node.lo.signum() * self.side[p] as i16 {
                    1 => 1.0,
                    -1 => 0.0,
                    _ => 0.5,
                };
            }
            return (Some(r), false);
        }
        if node.visits > 0 || node.children > 0 {
            return (None, false);
        }
        match G::result(s) {
            Some(r) => {
                let v = proof::terminal(standing::<G>(s, &r, 0));
                let node = &mut self.nodes[n];
                (node.lo, node.hi) = (v, v);
                (Some(r), true)
            }
            None => (None, false),
        }
    }

    /// The bounds of the node's children one ply up, combined: max or min
    /// for the first or the other team to move, min of the pessimistic and
    /// max of the optimistic bounds at chance.
    fn combine(&self, n: usize) -> (i16, i16) {
        let node = &self.nodes[n];
        let kids = &self.nodes[node.first as usize..(node.first + node.children) as usize];
        let mut bounds = kids.iter().map(|k| (proof::up(k.lo), proof::up(k.hi)));
        let Some(first) = bounds.next() else { return (node.lo, node.hi) };
        let chance = node.flags & CHANCE != 0;
        let maxing = self.side[kids[0].player as usize] > 0;
        bounds.fold(first, |(lo, hi), (l, h)| {
            if chance {
                (lo.min(l), hi.max(h))
            } else if maxing {
                (lo.max(l), hi.max(h))
            } else {
                (lo.min(l), hi.min(h))
            }
        })
    }

    /// Recomputes the bounds of the nodes of the last playout's path from
    /// the bottom up, as long as they change.
    fn back_up_bounds(&mut self) {
        for j in (0..self.path.len().saturating_sub(1)).rev() {
            let p = self.path[j] as usize;
            let (lo, hi) = self.combine(p);
            let node = &mut self.nodes[p];
            if (node.lo, node.hi) == (lo, hi) {
                break;
            }
            (node.lo, node.hi) = (lo, hi);
        }
    }

    /// Makes the child reached by `m` the root, keeping its subtree (copied
    /// breadth-first into a fresh arena); a fresh tree if `m` was never expanded.
    fn advance(&mut self, m: G::Move) {
        let next = G::apply(&self.root, m);
        let root = &self.nodes[0];
        let child = (root.first..root.first + root.children).find(|&i| self.nodes[i as usize].mv == Some(m));
        let Some(child) = child else {
            *self = Tree::new(next, self.cap, self.solve);
            return;
        };
        let mut fresh = Vec::with_capacity(self.nodes.len());
        let mut top = self.nodes[child as usize];
        top.mv = None;
        fresh.push(top);
        // Breadth-first copy: `fresh[i]` still points into the old arena until rewritten.
        let mut i = 0;
        while i < fresh.len() {
            let (first, count) = (fresh[i].first as usize, fresh[i].children as usize);
            if count > 0 {
                fresh[i].first = fresh.len() as u32;
                fresh.extend_from_slice(&self.nodes[first..first + count]);
            }
            i += 1;
        }
        self.nodes = fresh;
        self.root = next;
    }
}

/// What a search found, at the root.
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// The most visited move (`None` if the game is over).
    pub best: Option<M>,
    /// Per root move: visits and the mean reward of the player to move.
    pub moves: Vec<(M, u64, f64)>,
    /// The line of most visited children from the root (in root mode, of
    /// the first tree), cut to the best move if it starts elsewhere.
    pub pv: Vec<M>,
    /// Playouts made by this search.
    pub playouts: u64,
    /// Nodes in the trees at the end.
    pub nodes: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Time spent in rollouts, summed over threads (the rest of the
    /// threads' time is the tree's: descent, expansion, backup).
    pub rollout_time: Duration,
    /// Per root move, in the order of `moves`: its proved outcome for the
    /// side to move at the root, the move counting as a ply (`None`: not
    /// proved, or the search did not prove, see [`Config::solver`]).
    pub proofs: Vec<Option<Proof>>,
    /// The proved outcome of the root for the side to move there.
    pub proof: Option<Proof>,
}

impl<M> Report<M> {
    /// The same report with each move mapped by `f` (as texts, for a front end).
    pub fn map<N>(self, f: impl Fn(M) -> N) -> Report<N> {
        Report {
            best: self.best.map(&f),
            moves: self.moves.into_iter().map(|(m, n, v)| (f(m), n, v)).collect(),
            pv: self.pv.into_iter().map(&f).collect(),
            playouts: self.playouts,
            nodes: self.nodes,
            elapsed: self.elapsed,
            rollout_time: self.rollout_time,
            proofs: self.proofs,
            proof: self.proof,
        }
    }

    /// Playouts per second.
    pub fn playouts_per_s(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The best move's mean reward for the player to move (0.5 if none).
    pub fn value(&self) -> f64 {
        self.moves.iter().max_by_key(|m| m.1).map_or(0.5, |m| m.2)
    }
}

/// A Monte Carlo tree searcher; keep it between moves to reuse its trees.
pub struct Mcts<G: Game, R> {
    config: Config,
    rollout: R,
    /// The trees of [`Parallel::Root`], one per thread.
    trees: Vec<Tree<G>>,
    /// The tree of [`Parallel::Tree`].
    shared: Option<SharedTree<G>>,
}

/// The seed of thread `t`'s generator in a search seeded with `seed`.
fn thread_seed(seed: u64, t: usize) -> u64 {
    mix64(seed ^ mix64(t as u64 + 1))
}

impl<G, R> Mcts<G, R>
where
    G: Game,
    G::State: Send,
    G::Move: Send + Sync,
    R: Rollout<G>,
{
    /// A searcher with no tree yet.
    pub fn new(config: Config, rollout: R) -> Mcts<G, R> {
        Mcts { config: Config { threads: config.threads.max(1), ..config }, rollout, trees: Vec::new(), shared: None }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Drops the trees (the next search starts afresh).
    pub fn clear(&mut self) {
        self.trees.clear();
        self.shared = None;
    }

    /// Tells the trees that `m` was played at their root, so that the next
    /// search from the resulting state keeps the subtree already grown.
    pub fn advance(&mut self, m: G::Move) {
        for t in &mut self.trees {
            t.advance(m);
        }
        if let Some(t) = &mut self.shared {
            t.advance(m);
        }
    }

    /// Nodes held by the trees now.
    pub fn nodes(&self) -> usize {
        self.trees.iter().map(|t| t.nodes.len()).sum::<usize>() + self.shared.as_ref().map_or(0, |t| t.core.nodes())
    }

    /// Searches `root` with generators seeded from `seed`, in the mode of
    /// [`Config::parallel`]. Trees whose root is not `root` (by
    /// [`Game::hash`]) are started afresh; the others keep what they grew
    /// before.
    pub fn search(&mut self, root: &G::State, seed: u64) -> Report<G::Move> {
        match self.config.parallel {
            Parallel::Root => self.search_root(root, seed),
            Parallel::Tree => self.search_shared(root, seed),
        }
    }

    /// [`Mcts::search`] with one tree per thread.
    fn search_root(&mut self, root: &G::State, seed: u64) -> Report<G::Move> {
        let start = Instant::now();
        let threads = self.config.threads;
        let cap = (self.config.memory / node_bytes::<G>() / threads).max(1);
        let key = G::hash(root);
        if self.trees.len() != threads || self.trees.iter().any(|t| G::hash(&t.root) != key) {
            self.trees = (0..threads).map(|_| Tree::new(root.clone(), cap, self.config.solver)).collect();
        }
        let before: u64 = self.trees.iter().map(|t| t.nodes[0].visits as u64).sum();
        for t in &mut self.trees {
            t.rollout_time = Duration::ZERO;
        }
        let (playouts, time, sel) = (self.config.playouts, self.config.time, self.config.selection);
        let work = |t: usize, tree: &mut Tree<G>, rollout: &mut R| {
            let mut rng = rng_from_seed(thread_seed(seed, t));
            let share = playouts / threads as u64 + u64::from((t as u64) < playouts % threads as u64);
            for i in 0..share {
                if i % 64 == 0 && time.is_some_and(|lim| start.elapsed() >= lim) {
                    break;
                }
                if tree.solve && tree.nodes[0].is_proved() {
                    break; // The root is proved: more playouts would change nothing.
                }
                tree.playout(sel, rollout, &mut rng);
            }
        };
        if threads == 1 {
            work(0, &mut self.trees[0], &mut self.rollout);
        } else {
            let rollout = &self.rollout;
            std::thread::scope(|scope| {
                for (t, tree) in self.trees.iter_mut().enumerate() {
                    let mut r = rollout.clone();
                    scope.spawn(move || work(t, tree, &mut r));
                }
            });
        }
        let after: u64 = self.trees.iter().map(|t| t.nodes[0].visits as u64).sum();
        self.report(after - before, start.elapsed())
    }

    /// [`Mcts::search`] with one tree for all threads: they draw playouts
    /// from one budget until it is spent or the time is up.
    fn search_shared(&mut self, root: &G::State, seed: u64) -> Report<G::Move> {
        let start = Instant::now();
        let threads = self.config.threads;
        let key = G::hash(root);
        if self.shared.as_ref().is_none_or(|t| G::hash(&t.state) != key) {
            let cap = (self.config.memory / shared_node_bytes::<G>()).max(1);
            self.shared = Some(SharedTree::new(root.clone(), cap));
        }
        let Some(tree) = self.shared.as_ref() else { unreachable!("the shared tree was just made") };
        let core = &tree.core;
        let before = core.root().visits();
        let (playouts, time, sel) = (self.config.playouts, self.config.time, self.config.selection);
        let started = AtomicU64::new(0);
        let work = |t: usize, state: &G::State, rollout: &mut R| -> Duration {
            let mut rng = rng_from_seed(thread_seed(seed, t));
            let mut worker = Worker::<G>::new();
            let mut i = 0u64;
            loop {
                if i.is_multiple_of(8) && time.is_some_and(|lim| start.elapsed() >= lim) {
                    break;
                }
                if started.fetch_add(1, Relaxed) >= playouts {
                    break;
                }
                worker.playout(core, state, sel, rollout, &mut rng);
                i += 1;
            }
            worker.rollout_time
        };
        let rollout_time = if threads == 1 {
            work(0, &tree.state, &mut self.rollout)
        } else {
            let rollout = &self.rollout;
            let work = &work;
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        let (state, mut r) = (tree.state.clone(), rollout.clone());
                        scope.spawn(move || work(t, &state, &mut r))
                    })
                    .collect();
                // A thread that panicked (in the game's or the rollout's code) passes its panic on.
                handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).sum()
            })
        };
        let playouts = core.root().visits() - before;
        let elapsed = start.elapsed();
        let root = core.root();
        let moves: Vec<(G::Move, u64, f64)> = root
            .children()
            .iter()
            .map(|k| {
                let visits = k.visits();
                let mean = if visits > 0 { k.reward() / visits as f64 } else { 0.5 };
                (k.mv().expect("a child has a move"), visits, mean)
            })
            .collect();
        let best = most_visited(&moves);
        let mut pv = Vec::new();
        let mut n = root;
        while let Some(k) = n.children().iter().filter(|k| k.visits() > 0).max_by_key(|k| k.visits()) {
            pv.push(k.mv().expect("a child has a move"));
            n = k;
        }
        if let (Some(b), Some(p)) = (best, pv.first())
            && *p != b
        {
            pv = vec![b];
        }
        let proofs = vec![None; moves.len()];
        Report { best, moves, pv, playouts, nodes: self.nodes(), elapsed, rollout_time, proofs, proof: None }
    }

    fn report(&self, playouts: u64, elapsed: Duration) -> Report<G::Move> {
        // Trees expand their root alike (same moves, same order); one that
        // made no playout has not expanded it and adds nothing.
        let first = self.trees.iter().max_by_key(|t| t.nodes[0].children).expect("one tree");
        let root = &first.nodes[0];
        let mut moves: Vec<(G::Move, u64, f64)> = Vec::with_capacity(root.children as usize);
        for i in root.first..root.first + root.children {
            let k = &first.nodes[i as usize];
            let (mut visits, mut reward) = (0u64, 0.0);
            for t in self.trees.iter().filter(|t| t.nodes[0].children == root.children) {
                let k2 = &t.nodes[i as usize];
                debug_assert_eq!(k2.mv, k.mv);
                visits += k2.visits as u64;
                reward += k2.reward;
            }
            let mean = if visits > 0 { reward / visits as f64 } else { 0.5 };
            moves.push((k.mv.expect("a child has a move"), visits, mean));
        }
        let (best, proofs, proof) = self.proved_choice(first, &moves);
        let mut pv = Vec::new();
        let mut n = 0usize;
        loop {
            let node = &first.nodes[n];
            let kids = node.first as usize..(node.first + node.children) as usize;
            let Some(k) = kids.filter(|&i| first.nodes[i].visits > 0).max_by_key(|&i| first.nodes[i].visits) else {
                break;
            };
            pv.push(first.nodes[k].mv.expect("a child has a move"));
            n = k;
        }
        if let (Some(b), Some(p)) = (best, pv.first())
            && *p != b
        {
            pv = vec![b];
        }
        let rollout_time = self.trees.iter().map(|t| t.rollout_time).sum();
        Report { best, moves, pv, playouts, nodes: self.nodes(), elapsed, rollout_time, proofs, proof }
    }

    /// The best move of root mode and the proofs at the root: the root
    /// bounds of every tree whose root was expanded like `first`'s meet
    /// (each is sound, so their intersection is). Without proofs the most
    /// visited move. With them: the shortest proved win if there is one,
    /// else the most visited move among those not proved lost, else (all
    /// lost) the loss that the side to move can put off longest.
    #[allow(clippy::type_complexity)]
    fn proved_choice(
        &self,
        first: &Tree<G>,
        moves: &[(G::Move, u64, f64)],
    ) -> (Option<G::Move>, Vec<Option<Proof>>, Option<Proof>) {
        if !first.solve {
            return (most_visited(moves), vec![None; moves.len()], None);
        }
        let root = &first.nodes[0];
        let alike: Vec<&Tree<G>> = self.trees.iter().filter(|t| t.nodes[0].children == root.children).collect();
        let meet =
            |i: usize| alike.iter().fold(proof::UNKNOWN, |(lo, hi), t| (lo.max(t.nodes[i].lo), hi.min(t.nodes[i].hi)));
        // Bounds in the frame of the side to move at the root.
        let me = first.side[G::to_move(&first.root).min(MAX_PLAYERS - 1)];
        let frame = |b: (i16, i16)| if me > 0 { b } else { proof::flip(b) };
        let kids: Vec<(i16, i16)> = (root.first..root.first + root.children)
            .map(|i| {
                let (lo, hi) = meet(i as usize);
                frame((proof::up(lo), proof::up(hi)))
            })
            .collect();
        let proofs: Vec<Option<Proof>> = kids.iter().map(|&b| Proof::from_bounds(b)).collect();
        let (mut lo, mut hi) =
            frame(self.trees.iter().fold(proof::UNKNOWN, |(lo, hi), t| (lo.max(t.nodes[0].lo), hi.min(t.nodes[0].hi))));
        if root.flags & CHANCE == 0 && !kids.is_empty() {
            lo = lo.max(kids.iter().map(|b| b.0).max().unwrap_or(lo));
            hi = hi.min(kids.iter().map(|b| b.1).max().unwrap_or(hi));
        }
        let proof = Proof::from_bounds((lo, hi));
        // The proved win or loss with the best pessimistic bound (the
        // shortest win, the farthest loss), then the most visits.
        let by_bound = |keep: &dyn Fn(Proof) -> bool| {
            (0..moves.len())
                .filter(|&i| proofs[i].is_some_and(keep))
                .max_by(|&i, &j| kids[i].0.cmp(&kids[j].0).then(moves[i].1.cmp(&moves[j].1)).then(j.cmp(&i)))
                .map(|i| moves[i].0)
        };
        if let Some(m) = by_bound(&|p| matches!(p, Proof::Win(_))) {
            return (Some(m), proofs, proof);
        }
        let open: Vec<(G::Move, u64, f64)> =
            (0..moves.len()).filter(|&i| !matches!(proofs[i], Some(Proof::Loss(_)))).map(|i| moves[i]).collect();
        let best = if open.is_empty() { by_bound(&|_| true) } else { most_visited(&open) };
        (best, proofs, proof)
    }
}

impl<G, R> Mcts<G, R>
where
    G: ImperfectInformation,
    G::State: Send,
    G::Move: Send + Sync,
    R: Rollout<G>,
{
    /// Determinized search for `observer` (the player to move at `root`,
    /// whose legal moves must depend only on what they know): `worlds`
    /// states drawn by [`ImperfectInformation::determinize`] from seeds
    /// derived from `seed`, each searched afresh with its share of the
    /// playouts, and the root statistics summed by move (visits added,
    /// means weighted by visits). The best move is the most visited.
    /// Trees are not kept (a later [`Mcts::search`] starts afresh).
    pub fn search_determinized(&mut self, root: &G::State, observer: usize, worlds: u32, seed: u64) -> Report<G::Move> {
        let start = Instant::now();
        let worlds = worlds.max(1) as u64;
        let total = self.config.playouts;
        let mut moves: Vec<(G::Move, u64, f64)> = Vec::new();
        let (mut playouts, mut nodes, mut rollout_time) = (0, 0, Duration::ZERO);
        // A proof in one world proves nothing about the observer's position.
        let solver = std::mem::replace(&mut self.config.solver, false);
        for w in 0..worlds {
            let mut rng = rng_from_seed(mix64(seed ^ mix64(w + 0x5eed)));
            let world = G::determinize(root, observer, &mut rng);
            self.clear();
            self.config.playouts = total / worlds + u64::from(w < total % worlds);
            let r = self.search(&world, mix64(seed.wrapping_add(w)));
            playouts += r.playouts;
            nodes += r.nodes;
            rollout_time += r.rollout_time;
            for (m, visits, mean) in r.moves {
                match moves.iter_mut().find(|e| e.0 == m) {
                    Some(e) => {
                        e.1 += visits;
                        e.2 += mean * visits as f64;
                    }
                    None => moves.push((m, visits, mean * visits as f64)),
                }
            }
        }
        self.config.playouts = total;
        self.config.solver = solver;
        self.clear();
        for e in &mut moves {
            e.2 = if e.1 > 0 { e.2 / e.1 as f64 } else { 0.5 };
        }
        let best = most_visited(&moves);
        let proofs = vec![None; moves.len()];
        let pv = best.into_iter().collect();
        Report { best, moves, pv, playouts, nodes, elapsed: start.elapsed(), rollout_time, proofs, proof: None }
    }
}

/// Bare rollouts from `root`, `n` of them with one generator: the baseline
/// rate that tree overhead is measured against. Returns the mean reward of
/// the player to move and the elapsed time.
pub fn bare_rollouts<G: Game, R: Rollout<G>>(root: &G::State, rollout: &mut R, n: u64, seed: u64) -> (f64, Duration) {
    let start = Instant::now();
    let mut rng = rng_from_seed(thread_seed(seed, 0));
    let me = G::to_move(root);
    let mut sum = 0.0;
    for _ in 0..n {
        sum += rollout.rollout(root, &mut rng)[me];
    }
    (sum / n.max(1) as f64, start.elapsed())
}
