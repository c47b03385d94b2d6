//! A second exact prover: depth-first proof-number search (df-pn, Nagai
//! 2002) with a depth limit and a fixed-size table, giving the verdicts of
//! [`super::solver`] ([`Verdict`], [`Solution`]).
//!
//! Where the alpha-beta solver searches every line to a uniform horizon,
//! df-pn is best-first: each node carries a proof number (how many leaves
//! must still be proven for the goal to be forced) and a disproof number,
//! and the search always goes down the most-proving child, so a narrow
//! forcing line is followed deep before wide quiet lines are searched. Each
//! question ("can `player` force `goal` within `d` plies?") is one df-pn
//! run at horizon `d`: a node `r` plies from the horizon that has not ended
//! is disproven at `r = 0`; one ply from it only the children's results
//! count ([`Solvable::result_after`]).
//!
//! The table stores proven facts, which are valid wherever the key comes
//! back: "forced within `n` plies" (reused at any `r >= n`) and "not
//! forced within `r` plies" (reused at any smaller `r`), and, for nodes
//! in progress, proof and disproof numbers at one `r` (used only at that
//! `r`; they order the search and never decide a verdict).
//!
//! Graph history interaction: df-pn with a table is unsound when a table
//! key leaves out history that decides the value (a repetition reached by
//! one path and not another). Keys here are [`super::Game::hash`], which
//! must cover everything that decides the value (for Sénat: the positions
//! since the last die went through the door, as a multiset, and the clock),
//! so a stored fact depends on the key alone, whatever path reached it.
//! With such a key the game graph has no cycle at all in Sénat (the clock
//! grows by one each ply until a die leaves the board for good), and the
//! depth limit ends every path in any game.
//!
//! A win is reported within the length of the proof found (the longest
//! line of the proof tree, the opponent resisting), which may be more than
//! the shortest win: the horizon is what bounds it.

use super::Game;
use super::TableError;
use super::solver::{
    Goal, MAX_HORIZON, QUERY_SALT, Slot, Solution, Solvable, Table, Verdict, check, chooses, ended, opponent, reaches,
    successors,
};
use std::time::{Duration, Instant};

/// An infinite proof or disproof number.
const INF: u64 = u64::MAX;

/// One table entry (32 bytes): for a (state, player, goal) key, the
/// shortest proof found plus one (0: none), the largest horizon disproven
/// plus one (0: none), the proof and disproof numbers of a node in
/// progress at horizon `r`, the work spent below it, and the deciding move
/// (index in the game's move order plus one; 0: none).
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    pn: u32,
    dn: u32,
    work: u32,
    r: u8,
    proof: u8,
    disproof: u8,
    mv: u16,
}

impl Slot for Entry {
    fn key(&self) -> u64 {
        self.key
    }

    fn worth(&self) -> u64 {
        // Facts cost at least one node; an entry with nothing in it is worth 0.
        let known = self.proof != 0 || self.disproof != 0 || self.pn != 0 || self.dn != 0;
        if known { self.work as u64 + 1 } else { 0 }
    }

    fn fresh(key: u64) -> Entry {
        Entry { key, ..Entry::default() }
    }
}

/// What is known of a node at a horizon: proof and disproof numbers and,
/// when proven, the length of the proof.
#[derive(Clone, Copy, Debug)]
struct Numbers {
    pn: u64,
    dn: u64,
    len: u32,
}

impl Numbers {
    const UNKNOWN: Numbers = Numbers { pn: 1, dn: 1, len: 0 };
    const DISPROVEN: Numbers = Numbers { pn: INF, dn: 0, len: 0 };
    fn proven(len: u32) -> Numbers {
        Numbers { pn: 0, dn: INF, len }
    }
}

/// A child of a node being searched.
struct Child<G: Game> {
    state: G::State,
    key: u64,
    /// The game is over there: whether the goal is reached (`false` too
    /// where the game's bound puts the goal beyond the child's horizon).
    end: Option<bool>,
    /// Index in the game's move order plus one.
    index: u16,
}

/// The df-pn prover; keep it to keep its table.
pub struct Pns<G: Solvable> {
    table: Table<Entry>,
    nodes: u64,
    scratch: Vec<G::Move>,
    deadline: Option<Instant>,
    calls: u64,
    stopped: bool,
    /// Stop after about this long (None: no limit); the verdict is then
    /// that of the horizons completed before.
    pub time_limit: Option<Duration>,
    /// Deepen: ask the questions at horizons 1, 2, … up to the one asked
    /// and stop at the first win or loss, which is then the shortest (as
    /// the alpha-beta solver does); without it (the default), only at the
    /// horizon asked.
    pub deepen: bool,
    /// Ask one question only: whether this player forces a win (the verdict
    /// is then a win, a loss or unknown, never a draw); `None` (the default):
    /// the side to move's win, the opponent's, then the draw.
    pub only: Option<usize>,
    /// Whether to disprove a child where the game's [`Solvable::min_plies`]
    /// exceeds its horizon without searching it (on by default, as
    /// [`super::solver::Solver::bounds`]).
    pub bounds: bool,
}

impl<G: Solvable> Default for Pns<G> {
    fn default() -> Self {
        Pns::with_table_mb(super::solver::DEFAULT_TABLE_MB)
    }
}

/// `a + b`, infinite if either is.
fn add(a: u64, b: u64) -> u64 {
    a.saturating_add(b)
}

/// A number for the table: finite numbers stay finite.
fn stored(v: u64) -> u32 {
    v.min(u32::MAX as u64 - 1) as u32
}

impl<G: Solvable> Pns<G> {
    /// A prover with an empty table of about `mb` megabytes (at least one).
    /// Panics where the system refuses the table's memory;
    /// [`Pns::try_with_table_mb`] says so instead.
    pub fn with_table_mb(mb: usize) -> Pns<G> {
        Pns::try_with_table_mb(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A prover as [`Pns::with_table_mb`] makes it, or the [`TableError`]
    /// of the table's memory refused.
    pub fn try_with_table_mb(mb: usize) -> Result<Pns<G>, TableError> {
        Ok(Pns {
            table: Table::new(mb)?,
            nodes: 0,
            scratch: Vec::new(),
            deadline: None,
            calls: 0,
            stopped: false,
            time_limit: None,
            deepen: false,
            only: None,
            bounds: true,
        })
    }

    /// Solves `root` at horizon `max_depth` (at most [`MAX_HORIZON`]): a win
    /// if the side to move forces one within the horizon, else a loss if the
    /// opponent does, else a draw if both force at least a draw, else
    /// unknown. With [`Self::deepen`], horizons 1, 2, … in turn (the draw
    /// only at the last). `depth` is the last horizon completed (0: none).
    pub fn solve(&mut self, root: &G::State, max_depth: u32) -> Solution<G::Move> {
        let start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.deadline = self.time_limit.map(|t| start + t);
        let d = max_depth.min(MAX_HORIZON);
        let me = G::to_move(root);
        let first = if self.deepen { 1.min(d) } else { d };
        let (mut verdict, mut pv, mut depth) = (Verdict::Unknown, Vec::new(), 0);
        for h in first..=d {
            let (v, line) = self.solve_at(root, me, h, h == d);
            if self.stopped {
                break;
            }
            (verdict, pv, depth) = (v, line, h);
            if verdict != Verdict::Unknown {
                break;
            }
        }
        self.deadline = None;
        Solution { verdict, pv, depth, nodes: self.nodes, elapsed: start.elapsed(), timed_out: self.stopped }
    }

    /// The verdict at horizon `d` (draws only when `draw`).
    fn solve_at(&mut self, root: &G::State, me: usize, d: u32, draw: bool) -> (Verdict, Vec<G::Move>) {
        if let Some(r) = G::result(root) {
            return (ended::<G>(root, &r, me), Vec::new());
        }
        if check::<G>(root).is_err() {
            return (Verdict::Unknown, Vec::new());
        }
        let other = opponent::<G>(root, me);
        if self.only.is_none_or(|p| p == me)
            && let Some(n) = self.prove(root, me, Goal::Win, d)
        {
            return (Verdict::Win(n), self.line(root, me, Goal::Win, d));
        }
        if self.only.is_none_or(|p| p == other)
            && let Some(n) = self.prove(root, other, Goal::Win, d)
        {
            return (Verdict::Loss(n), self.line(root, other, Goal::Win, d));
        }
        if draw
            && self.only.is_none()
            && let Some(a) = self.prove(root, other, Goal::AtLeastDraw, d)
            && let Some(b) = self.prove(root, me, Goal::AtLeastDraw, d)
        {
            return (Verdict::Draw(a.max(b)), self.line(root, me, Goal::AtLeastDraw, d));
        }
        (Verdict::Unknown, Vec::new())
    }

    /// Solves the position after the legal move `m` of `root` at horizon
    /// `max_depth - 1`, as [`super::solver::Solver::solve_move`].
    pub fn solve_move(&mut self, root: &G::State, m: G::Move, max_depth: u32) -> Solution<G::Move> {
        let child = G::apply(root, m);
        self.solve(&child, max_depth.saturating_sub(1)).seen_from::<G>(root, &child, m)
    }

    /// The length of a proof that `player` forces `goal` within `d` plies
    /// from `s`, or `None` (not forced, or stopped).
    fn prove(&mut self, s: &G::State, player: usize, goal: Goal, d: u32) -> Option<u32> {
        if self.stopped {
            return None;
        }
        let key = self.key(s, player, goal);
        let n = self.mid(s, key, player, goal, d, INF, INF);
        (n.pn == 0 && !self.stopped).then_some(n.len)
    }

    fn key(&self, s: &G::State, player: usize, goal: Goal) -> u64 {
        G::hash(s) ^ QUERY_SALT[(player << 1 | (goal == Goal::Win) as usize) & 7]
    }

    /// What the table knows of `key` at horizon `r`.
    fn probe(&self, key: u64, r: u32) -> Numbers {
        match self.table.get(key) {
            Some(e) if e.proof != 0 && e.proof as u32 - 1 <= r => Numbers::proven(e.proof as u32 - 1),
            Some(e) if e.disproof != 0 && e.disproof as u32 > r => Numbers::DISPROVEN,
            Some(e) if e.r as u32 == r && e.pn != 0 && e.dn != 0 => {
                Numbers { pn: e.pn as u64, dn: e.dn as u64, len: 0 }
            }
            _ => Numbers::UNKNOWN,
        }
    }

    /// One ply from the horizon: only the children's results count.
    fn last_ply(&mut self, s: &G::State, player: usize, goal: Goal) -> bool {
        let mine = chooses::<G>(s, player);
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

    /// The numbers of a child at horizon `r`.
    fn child_numbers(&mut self, c: &Child<G>, r: u32) -> Numbers {
        match c.end {
            Some(true) => Numbers::proven(0),
            Some(false) => Numbers::DISPROVEN,
            None if r == 0 => Numbers::DISPROVEN,
            None => self.probe(c.key, r),
        }
    }

    /// The multiple-iterative-deepening step of df-pn: searches `s` (table
    /// key `key`, horizon `r`, not over) until its proof number reaches
    /// `th_pn` or its disproof number `th_dn`, stores what it found and
    /// returns it.
    #[allow(clippy::too_many_arguments)]
    fn mid(&mut self, s: &G::State, key: u64, player: usize, goal: Goal, r: u32, th_pn: u64, th_dn: u64) -> Numbers {
        self.nodes += 1;
        self.calls += 1;
        if self.deadline.is_some()
            && self.calls.is_multiple_of(1024)
            && self.deadline.is_some_and(|t| Instant::now() >= t)
        {
            self.stopped = true;
        }
        if self.stopped {
            return Numbers::UNKNOWN;
        }
        if r == 0 {
            return Numbers::DISPROVEN;
        }
        if r == 1 {
            return if self.last_ply(s, player, goal) { Numbers::proven(1) } else { Numbers::DISPROVEN };
        }
        let nodes_before = self.nodes;
        let mine = chooses::<G>(s, player);
        let first = self.table.get(key).map_or(0, |e| e.mv);
        successors::<G>(s, &mut self.scratch);
        let mut order: Vec<(i32, u16, G::Move)> = self
            .scratch
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let i = i as u16 + 1;
                (if i == first { i32::MAX } else { G::priority(s, m) }, i, m)
            })
            .collect();
        order.sort_by_key(|&(o, i, _)| (std::cmp::Reverse(o), i));
        let mut children: Vec<Child<G>> = Vec::with_capacity(order.len());
        for &(_, index, m) in &order {
            self.nodes += 1;
            let state = G::apply(s, m);
            // A child the game's bound puts out of reach of the child's
            // horizon is disproven there, before its result is asked.
            let end = if self.bounds && G::min_plies(&state, player, goal) > r - 1 {
                Some(false)
            } else {
                G::result(&state).map(|res| reaches::<G>(&state, &res, player, goal))
            };
            let key = self.key(&state, player, goal);
            children.push(Child { state, key, end, index });
        }
        // The children's numbers from the table once; then each search of a
        // child updates its own (so a table entry lost to a collision cannot
        // make this loop go round for ever).
        let nums: Vec<Numbers> = children.iter().map(|c| self.child_numbers(c, r - 1)).collect();
        let mut nums = nums;
        let (result, best) = loop {
            // OR node (the player moves): pn = min, dn = sum; AND node: the reverse.
            let (mut pn, mut dn, mut len);
            let (mut b1, mut v1, mut v2) = (0, INF, INF);
            if mine {
                (pn, dn, len) = (INF, 0, u32::MAX);
                for (i, n) in nums.iter().enumerate() {
                    dn = add(dn, n.dn);
                    if n.pn == 0 {
                        len = len.min(n.len.saturating_add(1));
                    }
                    if n.pn < v1 {
                        (b1, v2, v1) = (i, v1, n.pn);
                    } else if n.pn < v2 {
                        v2 = n.pn;
                    }
                }
                pn = pn.min(v1);
            } else {
                (pn, dn, len) = (0, INF, 0);
                for (i, n) in nums.iter().enumerate() {
                    pn = add(pn, n.pn);
                    len = len.max(n.len.saturating_add(1));
                    if n.dn < v1 {
                        (b1, v2, v1) = (i, v1, n.dn);
                    } else if n.dn < v2 {
                        v2 = n.dn;
                    }
                }
                dn = dn.min(v1);
            }
            let here = Numbers { pn, dn, len };
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.stopped {
                break (here, b1);
            }
            // Thresholds of the most-proving child, with the 1 + ε trick
            // (Pawlewicz and Lew) against re-expanding siblings.
            let c = &nums[b1];
            let near = |v2: u64| add(v2, v2 / 4 + 1);
            let (cp, cd) = if mine {
                (th_pn.min(near(v2)), if th_dn == INF { INF } else { th_dn - dn + c.dn })
            } else {
                (if th_pn == INF { INF } else { th_pn - pn + c.pn }, th_dn.min(near(v2)))
            };
            let child = &children[b1];
            nums[b1] = self.mid(&child.state, child.key, player, goal, r - 1, cp, cd);
        };
        if self.stopped {
            return result;
        }
        let work = (self.nodes - nodes_before).min(u32::MAX as u64) as u32;
        let mv = children.get(best).map_or(0, |c| c.index);
        let e = self.table.entry(key);
        e.work = e.work.saturating_add(work);
        e.mv = mv;
        if result.pn == 0 {
            let l = result.len.min(254) as u8 + 1;
            if e.proof == 0 || e.proof > l {
                e.proof = l;
            }
        } else if result.dn == 0 {
            e.disproof = e.disproof.max(r as u8 + 1);
        } else {
            (e.r, e.pn, e.dn) = (r as u8, stored(result.pn), stored(result.dn));
        }
        result
    }

    /// The length of a known proof that `player` forces `goal` within `r`
    /// plies from `s`, from results and the table only.
    fn known(&mut self, s: &G::State, player: usize, goal: Goal, r: u32) -> Option<u32> {
        if let Some(res) = G::result(s) {
            return reaches::<G>(s, &res, player, goal).then_some(0);
        }
        match r {
            0 => None,
            1 => self.last_ply(s, player, goal).then_some(1),
            _ => {
                let n = self.probe(self.key(s, player, goal), r);
                (n.pn == 0).then_some(n.len)
            }
        }
    }

    /// A line of the proof found: the player's moves keep the shortest proof
    /// known, the others' moves resist longest; it stops where the table
    /// lost the proof.
    fn line(&mut self, root: &G::State, player: usize, goal: Goal, depth: u32) -> Vec<G::Move> {
        let mut s = root.clone();
        let mut pv = Vec::new();
        let mut left = depth;
        let mut moves = Vec::new();
        while G::result(&s).is_none() && left > 0 {
            successors::<G>(&s, &mut moves);
            let mine = chooses::<G>(&s, player);
            let mut pick: Option<(u32, G::Move)> = None;
            for &m in &moves {
                let child = G::apply(&s, m);
                match self.known(&child, player, goal, left - 1) {
                    Some(n) if pick.is_none_or(|(b, _)| if mine { n < b } else { n > b }) => pick = Some((n, m)),
                    Some(_) => {}
                    None if !mine => {
                        pick = None;
                        break;
                    }
                    None => {}
                }
            }
            let Some((n, m)) = pick else { break };
            pv.push(m);
            s = G::apply(&s, m);
            left = n;
        }
        pv
    }
}
