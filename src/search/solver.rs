//! An exact solver: proves a win, a loss or a draw within a number of
//! plies, or says that it does not know.
//!
//! It must never use a heuristic in a verdict: a line that has not ended
//! within the horizon proves nothing. The table stores proven facts only
//! ("X can force ... within d plies", or "X cannot within d plies").

use super::{Game, Scores};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

/// The game-theoretic value of the root for the side to move, as far as
/// the horizon shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move forces a win within this many plies.
    Win(u32),
    /// The opponent forces a win within this many plies.
    Loss(u32),
    /// Both sides can force the game to end within this many plies with at
    /// least a draw: a draw with best play.
    Draw(u32),
    /// Not decided within the horizon.
    Unknown,
}

/// What the solver found.
#[derive(Clone, Debug)]
pub struct Solution<M> {
    /// The verdict.
    pub verdict: Verdict,
    /// A principal line that realizes the verdict (empty if unknown).
    pub pv: Vec<M>,
    /// The deepest horizon searched.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// What a player wants to force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Goal {
    Win,
    AtLeastDraw,
}

/// Table entry for one (state, player, goal): the smallest horizon at which
/// the goal was proven, and the largest at which it was disproven.
#[derive(Clone, Copy, Debug, Default)]
struct Fact {
    proven: Option<u32>,
    disproven: Option<u32>,
}

/// Keys are hashes already: the table uses them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The solver; keep it to keep its table.
pub struct Solver<G: Game> {
    table: HashMap<u64, Fact, BuildHasherDefault<KeyHasher>>,
    nodes: u64,
    bufs: Vec<Vec<(i32, G::Move)>>,
    scratch: Vec<G::Move>,
    /// Stop deepening after about this many nodes (None: no limit).
    pub node_limit: Option<u64>,
}

const QUERY_SALT: [u64; 8] = [
    0,
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
    0x082e_fa98_ec4e_6c89,
    0x4528_21e6_38d0_1377,
    0xbe54_66cf_34e9_0c6c,
    0xc0ac_29b7_c97c_50dd,
];

impl<G: Game> Default for Solver<G> {
    fn default() -> Self {
        Solver::new()
    }
}

fn reaches(r: &Scores, player: usize, goal: Goal) -> bool {
    let best_other = r.iter().enumerate().filter(|&(p, _)| p != player).map(|(_, &v)| v).fold(f64::MIN, f64::max);
    match goal {
        Goal::Win => r[player] > best_other,
        Goal::AtLeastDraw => r[player] >= best_other,
    }
}

impl<G: Game> Solver<G> {
    /// A solver with an empty table.
    pub fn new() -> Solver<G> {
        Solver { table: HashMap::default(), nodes: 0, bufs: Vec::new(), scratch: Vec::new(), node_limit: None }
    }

    /// Solves `root` with horizons 1, 2, … up to `max_depth` plies, stopping at
    /// the first verdict (so a win or loss is the fastest one).
    pub fn solve(&mut self, root: &G::State, max_depth: u32) -> Solution<G::Move> {
        let start = Instant::now();
        self.nodes = 0;
        let me = G::to_move(root);
        let done = |verdict, pv, depth, nodes| Solution { verdict, pv, depth, nodes, elapsed: start.elapsed() };
        if let Some(r) = G::result(root) {
            let v = if reaches(&r, me, Goal::Win) {
                Verdict::Win(0)
            } else if reaches(&r, me, Goal::AtLeastDraw) {
                Verdict::Draw(0)
            } else {
                Verdict::Loss(0)
            };
            return done(v, Vec::new(), 0, 0);
        }
        let opp = |s: &G::State| (G::to_move(s) + 1) % G::players(s);
        let mut depth = 0;
        for d in 1..=max_depth {
            depth = d;
            if self.forces(root, me, Goal::Win, d, 0) {
                let pv = self.line(root, me, Goal::Win, d);
                return done(Verdict::Win(d), pv, d, self.nodes);
            }
            // Two players: the opponent is the next player.
            let other = opp(root);
            if self.forces(root, other, Goal::Win, d, 0) {
                let pv = self.line(root, other, Goal::Win, d);
                return done(Verdict::Loss(d), pv, d, self.nodes);
            }
            if self.forces(root, me, Goal::AtLeastDraw, d, 0) && self.forces(root, other, Goal::AtLeastDraw, d, 0) {
                let pv = self.line(root, me, Goal::AtLeastDraw, d);
                return done(Verdict::Draw(d), pv, d, self.nodes);
            }
            if self.node_limit.is_some_and(|n| self.nodes >= n) {
                break;
            }
        }
        done(Verdict::Unknown, Vec::new(), depth, self.nodes)
    }

    /// Whether `player` can force the game to end within `depth` plies with
    /// `goal` reached, whatever the others do.
    fn forces(&mut self, s: &G::State, player: usize, goal: Goal, depth: u32, ply: usize) -> bool {
        self.nodes += 1;
        if let Some(r) = G::result(s) {
            return reaches(&r, player, goal);
        }
        if depth == 0 {
            return false;
        }
        // One key per (state, player, goal): the query picks one of eight salts.
        let query = (player << 1 | (goal == Goal::Win) as usize) & 7;
        let key = G::hash(s) ^ QUERY_SALT[query];
        // Nodes one ply from the horizon are cheaper to redo than to store.
        let stored = depth >= 2;
        if let Some(f) = self.table.get(&key).filter(|_| stored) {
            if f.proven.is_some_and(|p| p <= depth) {
                return true;
            }
            if f.disproven.is_some_and(|p| p >= depth) {
                return false;
            }
        }
        while self.bufs.len() <= ply {
            self.bufs.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        G::moves(s, &mut self.scratch);
        moves.clear();
        let mine = G::to_move(s) == player;
        // Moves that score first: they decide quickly. One ply from the
        // horizon the defender's first move that does not end the game
        // refutes, whatever the order: no need to sort there.
        if mine || depth > 1 {
            moves.extend(self.scratch.iter().map(|&m| (G::priority(s, m), m)));
            moves.sort_by_key(|&(o, _)| std::cmp::Reverse(o));
        } else {
            moves.extend(self.scratch.iter().map(|&m| (0, m)));
        }
        let mut result = !mine;
        for &(_, m) in &moves {
            let child = G::apply(s, m);
            let v = self.forces(&child, player, goal, depth - 1, ply + 1);
            if v == mine {
                result = mine;
                break;
            }
        }
        self.bufs[ply] = moves;
        if !stored {
            return result;
        }
        let f = self.table.entry(key).or_default();
        if result {
            f.proven = Some(f.proven.map_or(depth, |p| p.min(depth)));
        } else {
            f.disproven = Some(f.disproven.map_or(depth, |p| p.max(depth)));
        }
        result
    }

    /// A line along which `player` forces `goal` within `depth`: the player's
    /// moves keep the goal forced in the fewest plies; the others' moves
    /// resist longest.
    fn line(&mut self, root: &G::State, player: usize, goal: Goal, depth: u32) -> Vec<G::Move> {
        let mut s = root.clone();
        let mut pv = Vec::new();
        let mut left = depth;
        while G::result(&s).is_none() && left > 0 {
            let mut moves = Vec::new();
            G::moves(&s, &mut moves);
            let mine = G::to_move(&s) == player;
            // The smallest horizon of each child at which the goal is forced.
            let mut pick: Option<(u32, G::Move)> = None;
            for &m in &moves {
                let child = G::apply(&s, m);
                let need = (0..left).find(|&d| self.forces(&child, player, goal, d, 0));
                let Some(need) = need else { continue };
                let better = match pick {
                    None => true,
                    Some((n, _)) => (mine && need < n) || (!mine && need > n),
                };
                if better {
                    pick = Some((need, m));
                }
            }
            let Some((need, m)) = pick else { break };
            pv.push(m);
            s = G::apply(&s, m);
            left = need;
        }
        pv
    }
}
