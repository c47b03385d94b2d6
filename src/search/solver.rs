//! An exact solver: proves a win, a loss or a draw within a number of
//! plies, or says that it does not know.
//!
//! It must never use a heuristic in a verdict: a line that has not ended
//! within the horizon proves nothing. The table stores proven facts only
//! ("X can force ... within d plies", or "X cannot within d plies").

use super::{Game, Scores};
use std::collections::HashMap;
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

/// The solver; keep it to keep its table.
pub struct Solver<G: Game> {
    table: HashMap<(u64, u8), Fact>,
    nodes: u64,
    bufs: Vec<Vec<G::Move>>,
    /// Stop deepening after about this many nodes (None: no limit).
    pub node_limit: Option<u64>,
}

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
        Solver { table: HashMap::new(), nodes: 0, bufs: Vec::new(), node_limit: None }
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
        let key = (G::hash(s), (player as u8) << 1 | (goal == Goal::Win) as u8);
        if let Some(f) = self.table.get(&key) {
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
        G::moves(s, &mut moves);
        let mine = G::to_move(s) == player;
        // Children that end the game come first: they decide quickly.
        let mut result = !mine;
        for &m in &moves {
            let child = G::apply(s, m);
            let v = self.forces(&child, player, goal, depth - 1, ply + 1);
            if v == mine {
                result = mine;
                break;
            }
        }
        self.bufs[ply] = moves;
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
