//! An exact solver: proves a win, a loss or a draw within a number of
//! plies, or says that it does not know.
//!
//! It must never use a heuristic in a verdict: a line that has not ended
//! within the horizon proves nothing. The table stores proven facts only
//! ("X can force ... within d plies", or "X cannot within d plies");
//! heuristics (the game's [`Game::priority`], the move that decided a node
//! last time, killer moves) only choose the order in which moves are tried.
//!
//! How it works: for horizons 1, 2, … it runs depth-limited AND/OR searches
//! ("can the side to move force a win within d plies?", then the same for
//! the opponent). Each node stores in a fixed-size table the smallest horizon
//! at which its goal was proven, the largest at which it was disproven, and
//! the move that decided it, which is tried first when the node comes back
//! at the next horizon. Nodes one ply from the horizon only need the results
//! of the children, which [`Solvable::result_after`] gives without building
//! them. Keys are [`Game::hash`], which must cover everything that decides
//! the value (for Sénat: the repetition window and the clock), so a stored
//! fact is valid wherever its key comes back.
//!
//! **Game bounds.** Where the game's [`Solvable::min_plies`] says that
//! the goal cannot be reached within the plies left, the node is answered
//! "no" without a search ([`Solver::bounds`]); the bound must be a proven
//! lower bound, never an estimate, so the verdicts are the same with it or
//! without it (only the nodes differ).
//!
//! **Teams and chance.** Verdicts are for the team of the player to move
//! at the root against the other team: a prover needs exactly two teams
//! ([`check`]); partners' moves are the team's choices. A chance node is
//! an adversary: a goal is forced there only if it is forced after every
//! outcome of positive probability, so verdicts stay exact ("whatever
//! falls"), and a game that chance decides is seldom decided here.

use super::{Game, Scores, standing, teams};
use std::cmp::Ordering;
use std::time::{Duration, Instant};

/// What the solver may ask of a game beyond [`Game`]: shortcuts that must
/// give exactly what the plain definitions give.
pub trait Solvable: Game {
    /// The results if the game is over after `m` is played from `s`
    /// (`None` if it goes on): `Self::result(&Self::apply(s, m))`, which is
    /// the default; a game may answer without building the whole state.
    fn result_after(s: &Self::State, m: Self::Move) -> Option<Scores> {
        Self::result(&Self::apply(s, m))
    }

    /// Whether the game may be over after `m` with `goal` reached for
    /// `player`'s team: `false` only when it certainly is not (the provers
    /// then skip [`Self::result_after`]); a cheap filter, never a verdict.
    /// The default is `true`.
    fn may_reach(_s: &Self::State, _m: Self::Move, _player: usize, _goal: Goal) -> bool {
        true
    }

    /// A lower bound on the plies after which the game can be over at `s`
    /// with `goal` reached for `player`'s team, over every line of every
    /// player (`u32::MAX`: never). It must never exceed the true fewest
    /// plies: the provers answer "not within `d` plies" without a search
    /// wherever it exceeds `d`. It may be asked where the game is over,
    /// and must then be 0 if the goal is reached there. The default, 0, is
    /// no bound.
    fn min_plies(_s: &Self::State, _player: usize, _goal: Goal) -> u32 {
        0
    }
}

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

impl Verdict {
    /// The verdict one ply earlier, for the same team: the value of a
    /// position for a player whose partner (or who) is to move after the
    /// move that led to `self`'s position.
    pub fn before_own_move(self) -> Verdict {
        match self {
            Verdict::Win(n) => Verdict::Win(n + 1),
            Verdict::Loss(n) => Verdict::Loss(n + 1),
            Verdict::Draw(n) => Verdict::Draw(n + 1),
            Verdict::Unknown => Verdict::Unknown,
        }
    }

    /// The verdict one ply earlier, for the other team: the value of a
    /// position for the player who made the move that led to `self`'s
    /// position, when a rival is to move after it.
    pub fn before_move(self) -> Verdict {
        match self {
            Verdict::Win(n) => Verdict::Loss(n + 1),
            Verdict::Loss(n) => Verdict::Win(n + 1),
            Verdict::Draw(n) => Verdict::Draw(n + 1),
            Verdict::Unknown => Verdict::Unknown,
        }
    }
}

/// What the solver found.
#[derive(Clone, Debug)]
pub struct Solution<M> {
    /// The verdict.
    pub verdict: Verdict,
    /// A principal line that realizes the verdict (empty if unknown).
    pub pv: Vec<M>,
    /// The deepest horizon searched to the end.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Whether the time limit stopped the search (the verdict is then what
    /// the completed horizons showed).
    pub timed_out: bool,
}

impl<M> Solution<M> {
    /// The solution of the position before the move `m` that led to this
    /// one, for the player who made it: the verdict seen one ply earlier
    /// ([`Verdict::before_move`]), `m` first in the line, one more ply of depth.
    pub fn before_move(mut self, m: M) -> Solution<M> {
        self.verdict = self.verdict.before_move();
        self.pv.insert(0, m);
        self.depth += 1;
        self
    }

    /// As [`Solution::before_move`], for a move after which the mover's
    /// team is still to move ([`Verdict::before_own_move`]).
    pub fn before_own_move(mut self, m: M) -> Solution<M> {
        self.verdict = self.verdict.before_own_move();
        self.pv.insert(0, m);
        self.depth += 1;
        self
    }

    /// The solution, seen from `root`'s player to move, of the position
    /// `child` reached by `m` (solved as `self`); unknown where `child` is
    /// a chance node (which has no player to move).
    pub(super) fn seen_from<G: Game<Move = M>>(self, root: &G::State, child: &G::State, m: M) -> Solution<M> {
        if G::is_chance(child) {
            return Solution { verdict: Verdict::Unknown, pv: vec![m], depth: 0, ..self };
        }
        if G::team(child, G::to_move(child)) == G::team(root, G::to_move(root)) {
            self.before_own_move(m)
        } else {
            self.before_move(m)
        }
    }
}

/// What a player (with their team) wants to force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// A win.
    Win,
    /// A win or a draw.
    AtLeastDraw,
}

/// One table entry: a key, the smallest horizon at which the goal was
/// proven (0: never), the largest at which it was disproven (0: never), and
/// the deciding move as an index in the game's move order plus one (0: none).
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    proven: u8,
    disproven: u8,
    mv: u16,
}

impl Slot for Entry {
    fn key(&self) -> u64 {
        self.key
    }

    /// The horizon this entry's facts cost.
    fn worth(&self) -> u64 {
        self.proven.max(self.disproven) as u64
    }

    fn fresh(key: u64) -> Entry {
        Entry { key, ..Entry::default() }
    }
}

/// An entry of a [`Table`]: its key and what it cost (for replacement).
pub(super) trait Slot: Copy + Default {
    /// The key.
    fn key(&self) -> u64;
    /// What the entry's facts cost; 0: the entry holds nothing.
    fn worth(&self) -> u64;
    /// An empty entry for `key`.
    fn fresh(key: u64) -> Self;
}

/// Entries per bucket: a key may sit in any entry of its bucket.
const BUCKET: usize = 4;

/// Moves of a node picked one at a time before the rest are sorted.
const PICKED: usize = 3;

/// A fixed-size table of facts: buckets of [`BUCKET`] entries; a new key
/// replaces the entry of its bucket that is worth least.
pub(super) struct Table<E: Slot> {
    entries: Vec<E>,
    mask: usize,
}

impl<E: Slot> Table<E> {
    /// A table of about `mb` megabytes (at least one bucket).
    pub(super) fn new(mb: usize) -> Table<E> {
        let want = (mb.max(1) << 20) / std::mem::size_of::<E>();
        // The largest power of two that fits, and at least one bucket.
        let n = ((want / 2 + 1).next_power_of_two()).max(BUCKET);
        Table { entries: vec![E::default(); n], mask: (n - 1) & !(BUCKET - 1) }
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize ^ (key >> 32) as usize) & self.mask
    }

    /// The entry of `key`, if it is there and holds something.
    pub(super) fn get(&self, key: u64) -> Option<E> {
        let b = self.bucket(key);
        self.entries[b..b + BUCKET].iter().find(|e| e.key() == key && e.worth() > 0).copied()
    }

    /// The entry of `key`, made (empty) if it is not there.
    pub(super) fn entry(&mut self, key: u64) -> &mut E {
        let b = self.bucket(key);
        let bucket = &mut self.entries[b..b + BUCKET];
        let i = match bucket.iter().position(|e| e.key() == key) {
            Some(i) => i,
            None => {
                let i = (0..BUCKET).min_by_key(|&i| bucket[i].worth()).unwrap_or(0);
                bucket[i] = E::fresh(key);
                i
            }
        };
        &mut bucket[i]
    }
}

/// The default table size of [`Solver::new`], in megabytes.
pub const DEFAULT_TABLE_MB: usize = 16;

/// The largest horizon (the table stores horizons in a byte).
pub const MAX_HORIZON: u32 = 250;

/// The solver; keep it to keep its table.
pub struct Solver<G: Solvable> {
    table: Table<Entry>,
    nodes: u64,
    bufs: Vec<Vec<(i32, u16, G::Move)>>,
    scratch: Vec<G::Move>,
    killers: Vec<[Option<G::Move>; 2]>,
    deadline: Option<Instant>,
    /// Calls of `forces` since the start, for looking at the clock now and then.
    calls: u64,
    stopped: bool,
    /// Stop deepening after about this many nodes (None: no limit).
    pub node_limit: Option<u64>,
    /// Stop as soon as this many nodes are visited, even in the middle of
    /// a horizon (None: no cap); like [`Solver::time_limit`] the verdict is
    /// then that of the completed horizons, but it depends on nothing but
    /// the position, so a capped search is reproducible on any machine.
    pub node_cap: Option<u64>,
    /// Stop after about this long, even in the middle of a horizon (None:
    /// no limit); the verdict is then that of the completed horizons.
    pub time_limit: Option<Duration>,
    /// Whether to cut a node where the game's [`Solvable::min_plies`]
    /// exceeds the plies left (on by default; off only to measure what the
    /// bound saves: the verdicts are the same either way).
    pub bounds: bool,
}

/// Salts that make one table key per (state, player, goal).
pub(super) const QUERY_SALT: [u64; 8] = [
    0,
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
    0x082e_fa98_ec4e_6c89,
    0x4528_21e6_38d0_1377,
    0xbe54_66cf_34e9_0c6c,
    0xc0ac_29b7_c97c_50dd,
];

impl<G: Solvable> Default for Solver<G> {
    fn default() -> Self {
        Solver::new()
    }
}

/// Why the provers cannot answer for a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// The players form this many teams; the provers need two.
    Teams(usize),
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsupported::Teams(n) => write!(f, "the provers need two teams, this game has {n}"),
        }
    }
}

impl std::error::Error for Unsupported {}

/// Whether the provers can answer for `root`: its players must form two
/// teams. [`Solver::solve`] and [`super::pns::Pns::solve`] answer
/// [`Verdict::Unknown`] where they cannot.
pub fn check<G: Game>(root: &G::State) -> Result<(), Unsupported> {
    match teams::<G>(root) {
        2 => Ok(()),
        n => Err(Unsupported::Teams(n)),
    }
}

/// The verdict for `me` of a game that is over at `s` with scores `r`.
pub(super) fn ended<G: Game>(s: &G::State, r: &Scores, me: usize) -> Verdict {
    match standing::<G>(s, r, me) {
        Ordering::Greater => Verdict::Win(0),
        Ordering::Equal => Verdict::Draw(0),
        Ordering::Less => Verdict::Loss(0),
    }
}

/// Whether the results `r` (of a game over at `s`) reach `goal` for `player`'s team.
pub(super) fn reaches<G: Game>(s: &G::State, r: &Scores, player: usize, goal: Goal) -> bool {
    match goal {
        Goal::Win => standing::<G>(s, r, player) == Ordering::Greater,
        Goal::AtLeastDraw => standing::<G>(s, r, player) != Ordering::Less,
    }
}

/// Whether `player`'s team chooses at `s` (an OR node of a proof): a
/// partner is to move, and it is not chance.
#[inline]
pub(super) fn chooses<G: Game>(s: &G::State, player: usize) -> bool {
    !G::is_chance(s) && G::team(s, G::to_move(s)) == G::team(s, player)
}

/// What a prover walks at `s`: the legal moves, or at a chance node the
/// outcomes of positive probability.
#[inline]
pub(super) fn successors<G: Game>(s: &G::State, out: &mut Vec<G::Move>) {
    if G::is_chance(s) {
        let mut outcomes = Vec::new();
        G::chance_outcomes(s, &mut outcomes);
        out.clear();
        out.extend(outcomes.into_iter().filter(|o| o.1 > 0.0).map(|o| o.0));
    } else {
        G::moves(s, out);
    }
}

/// A player of the other team than `me`'s (two teams).
pub(super) fn opponent<G: Game>(s: &G::State, me: usize) -> usize {
    let players = G::players(s).max(1);
    (0..players).find(|&p| G::team(s, p) != G::team(s, me)).unwrap_or((me + 1) % players)
}

impl<G: Solvable> Solver<G> {
    /// A solver with an empty table of [`DEFAULT_TABLE_MB`] megabytes.
    pub fn new() -> Solver<G> {
        Solver::with_table_mb(DEFAULT_TABLE_MB)
    }

    /// A solver with an empty table of about `mb` megabytes (at least one).
    pub fn with_table_mb(mb: usize) -> Solver<G> {
        Solver {
            table: Table::new(mb),
            nodes: 0,
            bufs: Vec::new(),
            scratch: Vec::new(),
            killers: Vec::new(),
            deadline: None,
            calls: 0,
            stopped: false,
            node_limit: None,
            node_cap: None,
            time_limit: None,
            bounds: true,
        }
    }

    /// Solves `root` with horizons 1, 2, … up to `max_depth` plies (at most
    /// [`MAX_HORIZON`]), stopping at the first win or loss (so it is the
    /// fastest one). A draw is looked for at horizons up to 4 and at the last
    /// horizon completed, and reported with the smallest horizon that shows it.
    pub fn solve(&mut self, root: &G::State, max_depth: u32) -> Solution<G::Move> {
        let start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.deadline = self.time_limit.map(|t| start + t);
        let sol = self.solve_inner(root, max_depth.min(MAX_HORIZON), start);
        self.deadline = None;
        sol
    }

    fn solve_inner(&mut self, root: &G::State, max_depth: u32, start: Instant) -> Solution<G::Move> {
        let me = G::to_move(root);
        let done = |s: &Self, verdict, pv, depth| Solution {
            verdict,
            pv,
            depth,
            nodes: s.nodes,
            elapsed: start.elapsed(),
            timed_out: s.stopped,
        };
        if let Some(r) = G::result(root) {
            return done(self, ended::<G>(root, &r, me), Vec::new(), 0);
        }
        if check::<G>(root).is_err() {
            return done(self, Verdict::Unknown, Vec::new(), 0);
        }
        let other = opponent::<G>(root, me);
        let mut completed = 0;
        for d in 1..=max_depth {
            if self.forces(root, me, Goal::Win, d, 0) {
                let pv = self.line(root, me, Goal::Win, d);
                return done(self, Verdict::Win(d), pv, d);
            }
            if self.stopped {
                break;
            }
            if self.forces(root, other, Goal::Win, d, 0) {
                let pv = self.line(root, other, Goal::Win, d);
                return done(self, Verdict::Loss(d), pv, d);
            }
            if self.stopped {
                break;
            }
            completed = d;
            // A draw at horizon d holds at every larger horizon (each side
            // keeps forcing its draw): it is enough to look at small horizons
            // and at the last one.
            let last = d == max_depth || self.node_limit.is_some_and(|n| self.nodes >= n);
            if (d <= 4 || last) && self.draw(root, me, other, d) {
                let d = (1..=d).find(|&h| self.draw(root, me, other, h)).unwrap_or(d);
                let pv = self.line(root, me, Goal::AtLeastDraw, d);
                return done(self, Verdict::Draw(d), pv, d);
            }
            if last || self.stopped {
                break;
            }
        }
        done(self, Verdict::Unknown, Vec::new(), completed)
    }

    /// One question only: whether `player`'s team forces a win within
    /// `max_depth` plies of `root` (horizons 1, 2, … in turn, so the
    /// fastest). The verdict is [`Verdict::Win`] or [`Verdict::Loss`] as
    /// seen by the side to move at `root` when the answer is yes, otherwise
    /// [`Verdict::Unknown`] (no draw, no verdict about the other team).
    /// Cheaper than [`Solver::solve`], which asks about both teams and draws.
    pub fn forced_win(&mut self, root: &G::State, player: usize, max_depth: u32) -> Solution<G::Move> {
        let start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.deadline = self.time_limit.map(|t| start + t);
        let me = G::to_move(root);
        let ours = G::team(root, player) == G::team(root, me);
        let mut sol = Solution {
            verdict: Verdict::Unknown,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            timed_out: false,
        };
        if G::result(root).is_none() && check::<G>(root).is_ok() {
            for d in 1..=max_depth.min(MAX_HORIZON) {
                if self.forces(root, player, Goal::Win, d, 0) {
                    sol.pv = self.line(root, player, Goal::Win, d);
                    sol.verdict = if ours { Verdict::Win(d) } else { Verdict::Loss(d) };
                    sol.depth = d;
                    break;
                }
                if self.stopped {
                    break;
                }
                sol.depth = d;
            }
        }
        self.deadline = None;
        sol.nodes = self.nodes;
        sol.elapsed = start.elapsed();
        sol.timed_out = self.stopped;
        sol
    }

    /// The team that is not `me`'s at `s` (two-team games): a seat of it.
    pub fn rival(s: &G::State, me: usize) -> usize {
        opponent::<G>(s, me)
    }

    /// Solves each move of `root` in turn with [`Self::solve_move`] (one
    /// table for all; the limits apply to each move), in the game's order.
    pub fn solve_moves(&mut self, root: &G::State, max_depth: u32) -> Vec<(G::Move, Solution<G::Move>)> {
        let mut moves = Vec::new();
        G::moves(root, &mut moves);
        moves.into_iter().map(|m| (m, self.solve_move(root, m, max_depth))).collect()
    }

    /// Solves the position after the legal move `m` of `root` with horizon
    /// `max_depth - 1`: the verdict for the side to move at `root` if it
    /// plays `m` (the move counts as a ply), its line starting with `m`.
    pub fn solve_move(&mut self, root: &G::State, m: G::Move, max_depth: u32) -> Solution<G::Move> {
        let child = G::apply(root, m);
        self.solve(&child, max_depth.saturating_sub(1)).seen_from::<G>(root, &child, m)
    }

    /// Whether both sides force at least a draw within `depth` plies.
    fn draw(&mut self, root: &G::State, me: usize, other: usize, depth: u32) -> bool {
        let other_holds = self.forces(root, other, Goal::AtLeastDraw, depth, 0);
        if !other_holds || self.stopped {
            return false;
        }
        let me_holds = self.forces(root, me, Goal::AtLeastDraw, depth, 0);
        me_holds && !self.stopped
    }

    fn check_time(&mut self) {
        if self.deadline.is_some_and(|t| Instant::now() >= t) {
            self.stopped = true;
        }
    }

    /// Whether `player` can force the game to end within `depth` plies with
    /// `goal` reached, whatever the others do. After a stop the answer means
    /// nothing (and nothing is stored).
    fn forces(&mut self, s: &G::State, player: usize, goal: Goal, depth: u32, ply: usize) -> bool {
        // One state per ply for the children (more if ever needed, see `forces_at`).
        let stack = &mut vec![s.clone(); depth as usize];
        self.forces_at(s, player, goal, depth, ply, stack)
    }

    /// [`Self::forces`], the children of this ply made in the first state
    /// of `stack` ([`Game::apply_into`]), theirs in the rest.
    fn forces_at(
        &mut self,
        s: &G::State,
        player: usize,
        goal: Goal,
        depth: u32,
        ply: usize,
        stack: &mut [G::State],
    ) -> bool {
        self.nodes += 1;
        // Before the result, which may cost a move generation (block): the
        // bound is 0 where the game is over with the goal reached.
        if self.bounds && G::min_plies(s, player, goal) > depth {
            return false;
        }
        if let Some(r) = G::result(s) {
            return reaches::<G>(s, &r, player, goal);
        }
        if depth == 0 {
            return false;
        }
        if self.deadline.is_some() {
            self.calls += 1;
            if self.calls.is_multiple_of(1024) {
                self.check_time();
            }
        }
        if self.node_cap.is_some_and(|cap| self.nodes >= cap) {
            self.stopped = true;
        }
        if self.stopped {
            return false;
        }
        let mine = chooses::<G>(s, player);
        if depth == 1 {
            return self.last_ply(s, player, goal, mine);
        }
        // One key per (state, player, goal): the query picks one of eight salts.
        let query = (player << 1 | (goal == Goal::Win) as usize) & 7;
        let key = G::hash(s) ^ QUERY_SALT[query];
        let mut first = 0;
        if let Some(e) = self.table.get(key) {
            if e.proven != 0 && e.proven as u32 <= depth {
                return true;
            }
            if e.disproven as u32 >= depth {
                return false;
            }
            first = e.mv;
        }
        while self.bufs.len() <= ply {
            self.bufs.push(Vec::new());
            self.killers.push([None; 2]);
        }
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        successors::<G>(s, &mut self.scratch);
        moves.clear();
        // The move that decided this node before, then the moves that decided
        // its siblings (killers), then the game's order (moves that score
        // first).
        let killers = self.killers[ply];
        moves.extend(self.scratch.iter().enumerate().map(|(i, &m)| {
            let i = i as u16 + 1;
            let o = if i == first {
                i32::MAX
            } else if killers[0] == Some(m) {
                i32::MAX - 1
            } else if killers[1] == Some(m) {
                i32::MAX - 2
            } else {
                G::priority(s, m)
            };
            (o, i, m)
        }));
        let mut more;
        let (child, rest) = match stack.split_first_mut() {
            Some(slots) => slots,
            None => {
                more = vec![s.clone(); depth as usize];
                more.split_first_mut().expect("depth ≥ 2 states")
            }
        };
        let mut result = !mine;
        let mut best = 0;
        // In the order of a sort by (order, index), larger order and smaller
        // index first (the indices are distinct, so the order is total): the
        // first few picked one by one (a node often stops after one or two),
        // the rest sorted only when it is reached.
        let rank = |&(o, i, _): &(i32, u16, G::Move)| (std::cmp::Reverse(o), i);
        for k in 0..moves.len() {
            if k < PICKED {
                if let Some(top) = (k..moves.len()).min_by_key(|&j| rank(&moves[j])) {
                    moves.swap(k, top);
                }
            } else if k == PICKED {
                moves[PICKED..].sort_unstable_by_key(rank);
            }
            let (_, i, m) = moves[k];
            G::apply_into(s, m, child);
            let v = self.forces_at(child, player, goal, depth - 1, ply + 1, rest);
            if self.stopped {
                break;
            }
            if v == mine {
                result = mine;
                best = i;
                let k = &mut self.killers[ply];
                if k[0] != Some(m) {
                    k[1] = k[0];
                    k[0] = Some(m);
                }
                break;
            }
        }
        self.bufs[ply] = moves;
        if self.stopped {
            return false;
        }
        let e = self.table.entry(key);
        let d = depth as u8;
        if result {
            if e.proven == 0 || e.proven > d {
                e.proven = d;
            }
        } else {
            e.disproven = e.disproven.max(d);
        }
        if best != 0 {
            e.mv = best;
        }
        result
    }

    /// [`Self::forces`] one ply from the horizon: only the children's results count.
    fn last_ply(&mut self, s: &G::State, player: usize, goal: Goal, mine: bool) -> bool {
        successors::<G>(s, &mut self.scratch);
        for &m in &self.scratch {
            self.nodes += 1;
            let reached = G::may_reach(s, m, player, goal)
                && G::result_after(s, m).is_some_and(|r| reaches::<G>(s, &r, player, goal));
            if reached == mine {
                return mine;
            }
        }
        !mine
    }

    /// A line along which `player` forces `goal` within `depth`, `depth`
    /// being the smallest such horizon: the player's moves keep the goal
    /// forced in the fewest plies (the move that proved the node first); the
    /// others' moves resist longest (the first that is not lost one ply sooner).
    /// Each step keeps the horizon the smallest, so one failed search per
    /// defender node is enough.
    fn line(&mut self, root: &G::State, player: usize, goal: Goal, depth: u32) -> Vec<G::Move> {
        let deadline = self.deadline.take();
        let stopped = std::mem::replace(&mut self.stopped, false);
        let query = (player << 1 | (goal == Goal::Win) as usize) & 7;
        let mut s = root.clone();
        let mut pv = Vec::new();
        let mut left = depth;
        let mut moves = Vec::new();
        while G::result(&s).is_none() && left > 0 {
            successors::<G>(&s, &mut moves);
            if chooses::<G>(&s, player) {
                // The stored deciding move first, then the game's order.
                let first = self.table.get(G::hash(&s) ^ QUERY_SALT[query]).map_or(0, |e| e.mv as usize);
                if first >= 1 && first <= moves.len() {
                    moves.swap(0, first - 1);
                }
                let Some(m) = moves.iter().copied().find(|&m| self.forces(&G::apply(&s, m), player, goal, left - 1, 0))
                else {
                    break;
                };
                pv.push(m);
                s = G::apply(&s, m);
                left -= 1;
            } else {
                // A reply not lost within left - 2 resists longest; if every
                // reply is, the longest resistance is found one by one.
                let longest = moves
                    .iter()
                    .copied()
                    .find(|&m| left < 2 || !self.forces(&G::apply(&s, m), player, goal, left - 2, 0));
                let (need, m) = match longest {
                    Some(m) => (left - 1, m),
                    None => {
                        let mut pick = None;
                        for &m in &moves {
                            let child = G::apply(&s, m);
                            let need = (0..left).find(|&d| self.forces(&child, player, goal, d, 0)).unwrap_or(left);
                            if pick.is_none_or(|(n, _)| need > n) {
                                pick = Some((need, m));
                            }
                        }
                        let Some(p) = pick else { break };
                        p
                    }
                };
                pv.push(m);
                s = G::apply(&s, m);
                left = need;
            }
        }
        self.deadline = deadline;
        self.stopped = stopped;
        pv
    }
}
