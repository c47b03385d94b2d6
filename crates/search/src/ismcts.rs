//! Information-set Monte Carlo tree search for one observer (SO-ISMCTS,
//! Cowling, Powley and Whitehouse 2012, "Information Set Monte Carlo Tree
//! Search"), over any [`ImperfectInformation`] game.
//!
//! **One tree over information sets.** A node stands for an information
//! set of the observer: it is reached from the root by a sequence of moves
//! as the observer sees them, their keys by
//! [`ImperfectInformation::observed_move`] (another player's hidden draw is
//! one key, whatever was drawn). Each playout draws a fresh determinization
//! `d` of the root ([`ImperfectInformation::determinize`], which keeps what
//! the observer knows, their own hidden part included) and walks the tree
//! with it:
//!
//! - at a decision node, the legal moves of `d` are mapped to keys; only
//!   the children whose key is available in `d` compete, and each of them
//!   counts how often it was available. An available key without a child
//!   is expanded first (the highest [`Rollout::priority`] of its moves,
//!   ties broken by the generator), the playout then rolls out from there;
//!   otherwise the child maximizing UCB with availability,
//!   `Q + c·√(ln A / n)` (`A` the child's availability count, this playout
//!   included, `n` its visits, `Q` its mean for the player who moved into
//!   it), is followed. The move of `d` behind the key is applied (if several
//!   moves share the key, one of them uniformly at random);
//! - at a chance node, an outcome of `d` is drawn by its probability and
//!   the child keyed by its observed key is followed (created, and the
//!   descent stops there, if it is new), so outcomes the observer cannot
//!   tell apart share one child;
//! - the rollout plays on from the state reached, and every node of the
//!   path adds the reward of the player who moved into it (max^n-style,
//!   partners sharing scores through the game's results, as in [`crate::mcts`]).
//!
//! Opponents thus choose in the observer's tree, among the moves the
//! determinization gives them, with statistics pooled over all the worlds
//! the observer cannot tell apart (no separate tree per player): their
//! choices cannot follow their own hidden part, the known weakness of the
//! single-observer algorithm (multi-observer ISMCTS, a tree per player, was
//! left out). The rollout sees the whole determinization.
//!
//! [`Rollout::priority`] is asked, at each expansion, for one move of
//! every available key not yet in the tree (not once per child as in
//! [`crate::mcts`]: children appear one at a time).
//!
//! **Determinism.** With a playout limit and no time limit a search is a
//! function of (root, observer, seed, config): all randomness (the
//! determinizations, tie-breaks, chance, the rollouts) comes from one
//! generator seeded by [`crate::rng::rng_from_seed`]. One thread.
//!
//! **Memory.** Nodes live in one arena, children in a linked list (they
//! appear one by one as worlds make them available). When the arena holds
//! [`Config::memory`] / [`node_bytes`] nodes the tree stops growing: the
//! descent keeps choosing among the available children it has, and rolls
//! out where it has none (or where a chance outcome has no child); the
//! root still gets a child for every key. Trees
//! are not kept between searches (each search starts afresh; the last tree
//! stays readable through [`Ismcts::children`]).
//!
//! This module must never know a game's rules nor draw randomness from
//! anywhere but the seed it is given.

use super::{Game, ImperfectInformation};
use crate::mcts::{Report, Rollout, draw, most_visited};
use crate::rng::{GameRng, below, rng_from_seed};
use std::time::{Duration, Instant};

/// What a search may spend and how it explores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Playouts per search.
    pub playouts: u64,
    /// Wall-clock limit per search (then results depend on the machine).
    pub time: Option<Duration>,
    /// Exploration constant `c` of UCB with availability counts (0.7 by
    /// default, a common choice for rewards in 0..1).
    pub c: f64,
    /// Memory cap of the tree, in bytes (see [`node_bytes`]).
    pub memory: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config { playouts: 1000, time: None, c: 0.7, memory: 256 << 20 }
    }
}

/// No node (end of a child list).
const NONE: u32 = u32::MAX;

/// One node: the key of the move that led to it, and the statistics of
/// the player who made that move.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    /// The observed key of the move into this node (`None` at the root).
    key: Option<M>,
    /// Sum of the rewards of `player` over the playouts through this node.
    reward: f64,
    visits: u32,
    /// Playouts that reached the parent with this key available and went
    /// on to one of the parent's children.
    avail: u32,
    /// First child, [`NONE`] if none.
    first: u32,
    /// Next sibling, [`NONE`] if none.
    next: u32,
    /// The player who made the move (0 for a chance outcome, never read).
    player: u8,
}

impl<M> Node<M> {
    fn new(key: Option<M>, player: u8) -> Node<M> {
        Node { key, reward: 0.0, visits: 0, avail: 0, first: NONE, next: NONE, player }
    }
}

/// The size of one tree node, for memory caps.
pub fn node_bytes<G: Game>() -> usize {
    std::mem::size_of::<Node<G::Move>>()
}

/// The statistics of one child of a node, as [`Ismcts::children`] gives them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Child<M> {
    /// The observed key of the move into the child.
    pub key: M,
    /// Playouts through the child.
    pub visits: u64,
    /// Playouts that went on from the parent with this key available
    /// (at least `visits`; for a chance outcome, equal to it).
    pub available: u64,
    /// The mean reward of the player who made the move (0.5 if unvisited).
    pub mean: f64,
}

/// The keys available at a decision node in one determinization: a key,
/// the index of its first move in the move buffer, how many moves share
/// it, and its child if it has one.
#[derive(Clone, Copy)]
struct Class<M> {
    key: M,
    first: usize,
    count: usize,
    child: u32,
}

/// A single-observer information-set MCTS searcher.
pub struct Ismcts<G: Game, R> {
    config: Config,
    rollout: R,
    nodes: Vec<Node<G::Move>>,
    path: Vec<u32>,
    buf: Vec<G::Move>,
    keys: Vec<G::Move>,
    classes: Vec<Class<G::Move>>,
    outcomes: Vec<(G::Move, f64)>,
    rollout_time: Duration,
}

impl<G, R> Ismcts<G, R>
where
    G: ImperfectInformation,
    R: Rollout<G>,
{
    /// A searcher with no tree yet.
    pub fn new(config: Config, rollout: R) -> Ismcts<G, R> {
        Ismcts {
            config,
            rollout,
            nodes: Vec::new(),
            path: Vec::new(),
            buf: Vec::new(),
            keys: Vec::new(),
            classes: Vec::new(),
            outcomes: Vec::new(),
            rollout_time: Duration::ZERO,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Nodes in the tree of the last search (0 before any).
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// The children of the node of the last search's tree reached from the
    /// root by `keys` (observed keys, as [`Child::key`] gives them), in the
    /// order they were created; `None` if there is no such node.
    pub fn children(&self, keys: &[G::Move]) -> Option<Vec<Child<G::Move>>> {
        if self.nodes.is_empty() {
            return None;
        }
        let mut n = 0;
        for &k in keys {
            n = self.kids(n).find(|&c| self.nodes[c].key == Some(k))?;
        }
        Some(self.kids(n).map(|c| self.child(c)).collect())
    }

    fn child(&self, c: usize) -> Child<G::Move> {
        let k = &self.nodes[c];
        let mean = if k.visits > 0 { k.reward / k.visits as f64 } else { 0.5 };
        Child { key: k.key.expect("a child has a key"), visits: k.visits as u64, available: k.avail as u64, mean }
    }

    /// The children of node `n`, in creation order.
    fn kids(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        let mut c = self.nodes[n].first;
        std::iter::from_fn(move || {
            (c != NONE).then(|| {
                let i = c as usize;
                c = self.nodes[i].next;
                i
            })
        })
    }

    /// Adds a child of `n` keyed `key` for `player`, after `last` (its
    /// last child, [`NONE`] if none); returns its index.
    fn add(&mut self, n: usize, last: u32, key: G::Move, player: u8) -> usize {
        let c = self.nodes.len();
        self.nodes.push(Node::new(Some(key), player));
        if last == NONE {
            self.nodes[n].first = c as u32;
        } else {
            self.nodes[last as usize].next = c as u32;
        }
        c
    }

    /// Searches `root` for `observer` with a generator seeded from `seed`:
    /// [`Config::playouts`] playouts (or fewer if [`Config::time`] runs
    /// out), each on a fresh determinization of `root`, in a fresh tree.
    /// The report's moves are the root's children by key, with visits and
    /// the mean reward of the player to move at `root`; when that is
    /// `observer` (the usual case) the keys are their moves and
    /// [`Report::best`], the most visited, is the move to play.
    pub fn search(&mut self, root: &G::State, observer: usize, seed: u64) -> Report<G::Move> {
        let start = Instant::now();
        let cap = (self.config.memory / node_bytes::<G>()).max(1);
        self.nodes.clear();
        self.nodes.push(Node::new(None, 0));
        self.rollout_time = Duration::ZERO;
        let mut rng = rng_from_seed(seed);
        let mut playouts = 0;
        for i in 0..self.config.playouts {
            if i % 64 == 0 && self.config.time.is_some_and(|lim| start.elapsed() >= lim) {
                break;
            }
            self.playout(root, observer, cap, &mut rng);
            playouts += 1;
        }
        self.report(playouts, start.elapsed())
    }

    /// One playout: determinize, descend, expand, roll out, back up.
    fn playout(&mut self, root: &G::State, observer: usize, cap: usize, rng: &mut GameRng) {
        let mut d = G::determinize(root, observer, rng);
        self.path.clear();
        self.path.push(0);
        let mut n = 0usize;
        loop {
            if G::result(&d).is_some() {
                break;
            }
            let room = n == 0 || self.nodes.len() < cap;
            if G::is_chance(&d) {
                G::chance_outcomes(&d, &mut self.outcomes);
                let Some(i) = draw(rng, self.outcomes.iter().map(|o| o.1)) else { break };
                let o = self.outcomes[i].0;
                let key = G::observed_move(&d, o, observer);
                let mut last = NONE;
                let mut found = None;
                for c in self.kids(n) {
                    if self.nodes[c].key == Some(key) {
                        found = Some(c);
                        break;
                    }
                    last = c as u32;
                }
                d = G::apply(&d, o);
                let c = match found {
                    Some(c) => c,
                    None if room => self.add(n, last, key, 0),
                    None => break, // The tree is full: roll out from here.
                };
                self.nodes[c].avail += 1;
                self.path.push(c as u32);
                if found.is_none() {
                    break;
                }
                n = c;
                continue;
            }
            G::moves(&d, &mut self.buf);
            if self.buf.is_empty() {
                break;
            }
            // The keys available in `d`, in the order of their first move.
            self.keys.clear();
            self.keys.extend(self.buf.iter().map(|&m| G::observed_move(&d, m, observer)));
            self.classes.clear();
            for (i, &k) in self.keys.iter().enumerate() {
                match self.classes.iter_mut().find(|c| c.key == k) {
                    Some(c) => c.count += 1,
                    None => self.classes.push(Class { key: k, first: i, count: 1, child: NONE }),
                }
            }
            let mut last = NONE;
            let mut c = self.nodes[n].first;
            while c != NONE {
                let key = self.nodes[c as usize].key;
                if let Some(class) = self.classes.iter_mut().find(|cl| Some(cl.key) == key) {
                    class.child = c;
                }
                last = c;
                c = self.nodes[c as usize].next;
            }
            let fresh = self.classes.iter().any(|c| c.child == NONE);
            let (class, expanded) = if fresh && room {
                // Expand the unexpanded key of highest priority (ties: the generator).
                let (mut best, mut best_p, mut ties) = (0, i32::MIN, 0u64);
                for j in 0..self.classes.len() {
                    let c = self.classes[j];
                    if c.child != NONE {
                        continue;
                    }
                    let p = self.rollout.priority(&d, self.buf[c.first]);
                    if p > best_p {
                        (best, best_p, ties) = (j, p, 1);
                    } else if p == best_p {
                        ties += 1;
                        if below(rng, ties as usize) == 0 {
                            best = j;
                        }
                    }
                }
                let player = G::to_move(&d) as u8;
                let c = self.add(n, last, self.classes[best].key, player);
                self.classes[best].child = c as u32;
                (best, true)
            } else {
                if self.classes.iter().all(|c| c.child == NONE) {
                    break; // The tree is full and nothing here is in it.
                }
                (self.select(), false)
            };
            for c in &self.classes {
                if c.child != NONE {
                    self.nodes[c.child as usize].avail += 1;
                }
            }
            let c = self.classes[class];
            let pick = if c.count == 1 { 0 } else { below(rng, c.count) };
            let m = (c.first..self.buf.len())
                .filter(|&i| self.keys[i] == c.key)
                .nth(pick)
                .map(|i| self.buf[i])
                .expect("the class has that many moves");
            d = G::apply(&d, m);
            self.path.push(c.child);
            n = c.child as usize;
            if expanded {
                break;
            }
        }
        let started = Instant::now();
        let r = self.rollout.rollout(&d, rng);
        self.rollout_time += started.elapsed();
        for &i in &self.path {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.reward += r[node.player as usize];
        }
    }

    /// The available class (with a child) of highest UCB with availability
    /// counts, this playout's availability included; an unvisited child
    /// first; ties go to the first in key order.
    fn select(&self) -> usize {
        let mut best = 0;
        let mut best_v = f64::NEG_INFINITY;
        for (j, c) in self.classes.iter().enumerate() {
            if c.child == NONE {
                continue;
            }
            let k = &self.nodes[c.child as usize];
            if k.visits == 0 {
                return j;
            }
            let avail = (k.avail + 1) as f64;
            let v = k.reward / k.visits as f64 + self.config.c * (avail.ln() / k.visits as f64).sqrt();
            if v > best_v {
                best_v = v;
                best = j;
            }
        }
        best
    }

    fn report(&self, playouts: u64, elapsed: Duration) -> Report<G::Move> {
        let moves: Vec<(G::Move, u64, f64)> = self
            .kids(0)
            .map(|c| {
                let k = self.child(c);
                (k.key, k.visits, k.mean)
            })
            .collect();
        let best = most_visited(&moves);
        let mut pv = Vec::new();
        let mut n = 0usize;
        while let Some(k) = self
            .kids(n)
            .filter(|&c| self.nodes[c].visits > 0)
            .max_by_key(|&c| (self.nodes[c].visits, std::cmp::Reverse(c)))
        {
            pv.push(self.nodes[k].key.expect("a child has a key"));
            n = k;
        }
        if let (Some(b), Some(p)) = (best, pv.first())
            && *p != b
        {
            pv = vec![b];
        }
        let proofs = vec![None; moves.len()];
        let (nodes, rollout_time) = (self.nodes.len(), self.rollout_time);
        Report { best, moves, pv, playouts, nodes, elapsed, rollout_time, proofs, proof: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::UniformRollout;
    use crate::{MAX_PLAYERS, Scores};

    /// A hidden bit; player 0 plays ALWAYS (available in every world) or
    /// ONLY (available only when the bit is set, a move the observer's
    /// determinizations disagree on, which no sound game would give its
    /// observer but which exercises availability); both end the game.
    struct Avail;

    const ALWAYS: u8 = 0;
    const ONLY: u8 = 1;

    #[derive(Clone, Copy, Debug)]
    struct S {
        bit: bool,
        done: Option<u8>,
    }

    impl Game for Avail {
        type State = S;
        type Move = u8;
        fn players(_: &S) -> usize {
            2
        }
        fn to_move(_: &S) -> usize {
            0
        }
        fn moves(s: &S, out: &mut Vec<u8>) {
            out.clear();
            if s.done.is_none() {
                out.push(ALWAYS);
                if s.bit {
                    out.push(ONLY);
                }
            }
        }
        fn apply(s: &S, m: u8) -> S {
            S { done: Some(m), ..*s }
        }
        fn result(s: &S) -> Option<Scores> {
            let v = match s.done? {
                ALWAYS => 0.3,
                _ => 0.9,
            };
            let mut r = [0.0; MAX_PLAYERS];
            r[0] = v;
            r[1] = 1.0 - v;
            Some(r)
        }
        fn hash(s: &S) -> u64 {
            s.bit as u64
        }
    }

    impl ImperfectInformation for Avail {
        fn determinize(s: &S, _observer: usize, rng: &mut GameRng) -> S {
            S { bit: below(rng, 2) == 1, ..*s }
        }
    }

    fn search(playouts: u64, seed: u64) -> (Report<u8>, Vec<Child<u8>>) {
        let config = Config { playouts, ..Config::default() };
        let mut t = Ismcts::<Avail, _>::new(config, UniformRollout::default());
        let r = t.search(&S { bit: false, done: None }, 0, seed);
        (r, t.children(&[]).expect("the root"))
    }

    #[test]
    fn availability_counts_add_up() {
        for (playouts, seed) in [(1, 1), (2, 2), (57, 3), (1000, 4)] {
            let (r, kids) = search(playouts, seed);
            assert_eq!(r.playouts, playouts);
            // Every playout goes on from the root: the children's visits add up to the root's.
            assert_eq!(kids.iter().map(|k| k.visits).sum::<u64>(), playouts);
            let always = kids.iter().find(|k| k.key == ALWAYS).expect("ALWAYS is always available");
            // ALWAYS is available in every playout from the one that created it on:
            // the first, or the first after ONLY's creation if ONLY came first.
            let only = kids.iter().find(|k| k.key == ONLY);
            let created_late = kids[0].key == ONLY;
            assert_eq!(always.available, playouts - u64::from(created_late), "{kids:?}");
            for k in &kids {
                assert!(k.visits <= k.available && k.available <= playouts, "{k:?}");
            }
            if let Some(only) = only {
                // ONLY is available in about half the worlds.
                if playouts >= 1000 {
                    let share = only.available as f64 / playouts as f64;
                    assert!((share - 0.5).abs() < 0.05, "{share}");
                    // When both are available ONLY wins (0.9 against 0.3): nearly all its availability is used.
                    assert!(only.visits + 50 > only.available, "{only:?}");
                    assert_eq!(r.best, Some(ALWAYS), "played in the worlds without ONLY, too");
                }
                // The playouts where ONLY was available split between the two;
                // the others all went to ALWAYS.
                assert_eq!(always.visits, playouts - only.visits);
            }
        }
        assert_eq!(search(1, 1).1.len(), 1, "one playout makes one child");
    }

    #[test]
    fn a_search_is_a_function_of_its_seed() {
        let (a, ka) = search(500, 9);
        let (b, kb) = search(500, 9);
        assert_eq!((&a.moves, a.nodes, &a.pv), (&b.moves, b.nodes, &b.pv));
        assert_eq!(ka, kb);
        let (c, _) = search(500, 10);
        assert_ne!(a.moves, c.moves, "another seed, other worlds");
    }
}
