//! The shared tree of [`Parallel::Tree`](super::Parallel::Tree): one tree
//! that every thread of a search grows at once, with atomic statistics and
//! virtual loss.
//!
//! A node's statistics are atomics (visits and a virtual-loss count packed
//! in one word, so that one atomic add moves a playout from in flight to
//! done; the reward sum as the bits of an `f64` updated by
//! compare-and-swap); its
//! children are created once, by the one thread that wins the node's
//! `EXPANDING` flag, and published through a [`OnceLock`], so a thread sees
//! either no children or all of them. A descending thread adds a virtual
//! loss to every node of its path (a visit that scores 0 for the mover
//! until the playout comes back), so that the other threads spread out;
//! the rollout runs outside any lock, and the backup takes the virtual
//! loss back and adds the real result. A node count, reserved before
//! children are published, holds the memory cap exactly: past it, leaves
//! stay leaves and playouts go on from them.
//!
//! This module must never block a thread on another (no lock, no waiting
//! on an expansion: a leaf being expanded elsewhere is played out from),
//! use `unsafe`, or draw randomness from anywhere but the generators it is
//! given.

use super::{Game, GameRng, Rollout, Selection, child_value, draw, parent_term, priors, rank};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Set by the thread that expands a node (never cleared once its children
/// are published; cleared again if the memory cap stopped it).
const EXPANDING: u8 = 1;
/// A chance node: its children are outcomes, drawn by their priors. Set
/// before the children are published (so whoever sees them sees it).
const CHANCE: u8 = 2;

/// One completed visit in [`Node::stats`] (visits are the high half).
const VISIT: u64 = 1 << 32;
/// One virtual loss in [`Node::stats`] (the low half).
const LOSS: u64 = 1;

/// One node of the shared tree: the move that led to it, the statistics of
/// the player who made it, and its children once expanded.
pub(super) struct Node<M> {
    mv: Option<M>,
    prior: f32,
    /// The player who made `mv` (whose rewards are summed here).
    player: u8,
    flags: AtomicU8,
    /// Completed visits (high 32 bits) and virtual losses (low 32 bits:
    /// playouts now below this node and not yet backed up).
    stats: AtomicU64,
    /// Sum of the rewards of `player`, as `f64` bits.
    reward: AtomicU64,
    children: OnceLock<Box<[Node<M>]>>,
}

impl<M: Copy> Node<M> {
    fn new(mv: Option<M>, player: u8, prior: f32) -> Node<M> {
        Node {
            mv,
            prior,
            player,
            flags: AtomicU8::new(0),
            stats: AtomicU64::new(0),
            reward: AtomicU64::new(0f64.to_bits()),
            children: OnceLock::new(),
        }
    }

    /// The move into this node (`None` at the root).
    pub(super) fn mv(&self) -> Option<M> {
        self.mv
    }

    /// Completed playouts through this node.
    pub(super) fn visits(&self) -> u64 {
        self.stats.load(Relaxed) / VISIT
    }

    /// Summed rewards of the player who moved into this node.
    pub(super) fn reward(&self) -> f64 {
        f64::from_bits(self.reward.load(Relaxed))
    }

    /// The children (empty if not expanded, or the game is over here).
    pub(super) fn children(&self) -> &[Node<M>] {
        self.children.get().map_or(&[], |k| k)
    }

    /// Adds `x` to the reward sum.
    fn add_reward(&self, x: f64) {
        // The closure always returns `Some`: the update cannot fail.
        let _ = self.reward.fetch_update(Relaxed, Relaxed, |b| Some((f64::from_bits(b) + x).to_bits()));
    }
}

/// The size of one node of the shared tree, for memory caps.
pub(super) fn node_bytes<M>() -> usize {
    std::mem::size_of::<Node<M>>()
}

/// The nodes of a shared tree and its cap: what the threads share.
pub(super) struct Core<M> {
    root: Node<M>,
    /// Nodes in the tree, the root included.
    nodes: AtomicUsize,
    /// The most nodes the tree may hold (the root is expanded past it).
    cap: usize,
}

impl<M: Copy + Eq> Core<M> {
    /// The root node.
    pub(super) fn root(&self) -> &Node<M> {
        &self.root
    }

    /// Nodes in the tree now.
    pub(super) fn nodes(&self) -> usize {
        self.nodes.load(Relaxed)
    }

    /// Reserves `k` nodes under the cap (`false`, and nothing reserved, if
    /// they do not fit or the tree is already full).
    fn reserve(&self, k: usize) -> bool {
        self.nodes.fetch_update(Relaxed, Relaxed, |c| (c < self.cap && c + k <= self.cap).then_some(c + k)).is_ok()
    }
}

/// A shared tree: its root state and its nodes.
pub(super) struct SharedTree<G: Game> {
    /// The state at the root.
    pub(super) state: G::State,
    /// The nodes, shared by the threads of a search.
    pub(super) core: Core<G::Move>,
}

impl<G: Game> SharedTree<G> {
    /// A tree of one unexpanded root that may grow to `cap` nodes.
    pub(super) fn new(state: G::State, cap: usize) -> SharedTree<G> {
        SharedTree { state, core: Core { root: Node::new(None, 0, 1.0), nodes: AtomicUsize::new(1), cap: cap.max(1) } }
    }

    /// Makes the child reached by `m` the root, keeping its subtree (moved
    /// out, not copied); a fresh tree if `m` was never expanded. Called
    /// between searches (it holds the tree exclusively).
    pub(super) fn advance(&mut self, m: G::Move) {
        let next = G::apply(&self.state, m);
        let cap = self.core.cap;
        let child = self
            .core
            .root
            .children
            .get_mut()
            .and_then(|kids| kids.iter_mut().find(|k| k.mv == Some(m)))
            .map(|k| std::mem::replace(k, Node::new(None, 0, 0.0)));
        let Some(mut top) = child else {
            *self = SharedTree::new(next, cap);
            return;
        };
        top.mv = None;
        // Count what is kept, depth-first without recursion.
        let mut nodes = 0usize;
        let mut stack = vec![&top];
        while let Some(n) = stack.pop() {
            nodes += 1;
            debug_assert_eq!(n.stats.load(Relaxed) % VISIT, 0, "no playout in flight between searches");
            stack.extend(n.children().iter());
        }
        self.core = Core { root: top, nodes: AtomicUsize::new(nodes), cap };
        self.state = next;
    }
}

/// The working buffers of one thread.
pub(super) struct Worker<'t, G: Game> {
    path: Vec<&'t Node<G::Move>>,
    buf: Vec<G::Move>,
    outcomes: Vec<(G::Move, f64)>,
    ranked: Vec<(i32, G::Move)>,
    /// The softmax weights of `ranked`.
    weights: Vec<f64>,
    /// Time spent in this thread's rollouts.
    pub(super) rollout_time: Duration,
}

impl<'t, G: Game> Worker<'t, G> {
    /// Empty buffers.
    pub(super) fn new() -> Worker<'t, G> {
        Worker {
            path: Vec::new(),
            buf: Vec::new(),
            outcomes: Vec::new(),
            ranked: Vec::new(),
            weights: Vec::new(),
            rollout_time: Duration::ZERO,
        }
    }

    /// Expands `n` (state `s`) if no other thread is at it and the cap
    /// allows (the root always); its children if it has them now.
    fn expand<R: Rollout<G>>(
        &mut self,
        core: &'t Core<G::Move>,
        n: &'t Node<G::Move>,
        s: &G::State,
        root: bool,
        sel: Selection,
        rollout: &mut R,
    ) -> Option<&'t [Node<G::Move>]> {
        if n.flags.fetch_or(EXPANDING, Relaxed) & EXPANDING != 0 {
            // Expanded, or being expanded by another thread: play out from here if not yet.
            return n.children.get().map(|k| &**k);
        }
        // Cheap early out before the moves are generated.
        if !root && core.nodes() >= core.cap {
            n.flags.fetch_and(!EXPANDING, Relaxed);
            return None;
        }
        let chance = G::is_chance(s);
        let kids: Vec<Node<G::Move>> = if chance {
            G::chance_outcomes(s, &mut self.outcomes);
            // Children of chance carry the outcome's probability as prior; their player is never read.
            self.outcomes.iter().map(|&(m, p)| Node::new(Some(m), 0, p as f32)).collect()
        } else {
            G::moves(s, &mut self.buf);
            let player = G::to_move(s) as u8;
            rank::<G, R>(s, &self.buf, rollout, &mut self.ranked);
            let mut kids = Vec::with_capacity(self.ranked.len());
            priors(sel, &self.ranked, &mut self.weights, |m, p| kids.push(Node::new(Some(m), player, p)));
            kids
        };
        if root {
            core.nodes.fetch_add(kids.len(), Relaxed);
        } else if !core.reserve(kids.len()) {
            n.flags.fetch_and(!EXPANDING, Relaxed);
            return None;
        }
        if chance {
            n.flags.fetch_or(CHANCE, Relaxed);
        }
        // This thread holds `EXPANDING`: nobody else sets the children.
        let _ = n.children.set(kids.into_boxed_slice());
        n.children.get().map(|k| &**k)
    }

    /// One playout: descend (adding virtual losses), expand, roll out, back
    /// up (taking them back).
    pub(super) fn playout<R: Rollout<G>>(
        &mut self,
        core: &'t Core<G::Move>,
        root: &G::State,
        sel: Selection,
        rollout: &mut R,
        rng: &mut GameRng,
    ) {
        self.path.clear();
        let mut n = &core.root;
        n.stats.fetch_add(LOSS, Relaxed);
        self.path.push(n);
        let mut s = root.clone();
        let mut at_root = true;
        loop {
            let mut kids = n.children.get().map(|k| &**k);
            // A leaf is expanded on its second visit (the root at once), then
            // the playout takes one step below it and rolls out from there.
            let leaf = kids.is_none();
            if leaf && (at_root || n.visits() > 0) {
                kids = self.expand(core, n, &s, at_root, sel, rollout);
            }
            let Some(kids) = kids.filter(|k| !k.is_empty()) else {
                break; // An unexpanded leaf, or the game is over here.
            };
            // `CHANCE` was set before the children were published, and `get` saw them.
            let i = if n.flags.load(Relaxed) & CHANCE != 0 {
                draw(rng, kids.iter().map(|k| k.prior as f64)).unwrap_or(0)
            } else {
                select(n, kids, sel)
            };
            n = &kids[i];
            n.stats.fetch_add(LOSS, Relaxed);
            self.path.push(n);
            s = G::apply(&s, n.mv.expect("a child has a move"));
            if leaf {
                break;
            }
            at_root = false;
        }
        let started = Instant::now();
        let r = rollout.rollout(&s, rng);
        self.rollout_time += started.elapsed();
        for node in &self.path {
            node.add_reward(r[node.player as usize]);
            // One more visit, one virtual loss less (the low half holds at least this one).
            node.stats.fetch_add(VISIT - LOSS, Relaxed);
        }
    }
}

/// The child of `parent` to descend into. Virtual losses count as visits
/// that scored 0; the parent's count leaves out this thread's own.
fn select<M>(parent: &Node<M>, kids: &[Node<M>], sel: Selection) -> usize {
    let visits = |n: &Node<M>| {
        let s = n.stats.load(Relaxed);
        s / VISIT + s % VISIT
    };
    let term = parent_term(sel, visits(parent).saturating_sub(1));
    let mut best = 0;
    let mut best_v = f64::NEG_INFINITY;
    for (i, k) in kids.iter().enumerate() {
        let Some(v) = child_value(sel, term, f64::from_bits(k.reward.load(Relaxed)), visits(k), k.prior) else {
            return i;
        };
        if v > best_v {
            best_v = v;
            best = i;
        }
    }
    best
}
