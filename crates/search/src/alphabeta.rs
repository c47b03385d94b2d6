//! Negamax alpha-beta with iterative deepening, aspiration windows, a
//! transposition table and move ordering, generic over [`Game`] and
//! [`Evaluator`].
//!
//! **Players, teams and chance.** The search is two-sided: the team of the
//! player to move at the root (the max side) against every other player
//! (the min side: the paranoid reduction, see the crate documentation).
//! A node's score is for its own side; a child's score is negated only when
//! its side differs.
//! With more than two teams leaves are scored by
//! [`Evaluator::eval_for`] the root player, and table keys are salted by
//! the root team (a value depends on who the coalition is against). At a
//! chance node ([`Game::is_chance`], which counts as the max side) the
//! score is the expectation over the outcomes, each searched with a full
//! window at the same depth (chance costs no depth), rounded to an
//! integer; chance nodes are not stored in the table and end the
//! principal variation. Scores beyond [`WIN_BOUND`] are forced results
//! only where no chance node lies on the way.
//!
//! Its scores are heuristic beyond the horizon: it must never be used to
//! claim a proven result (that is [`super::solver`]'s job), except for
//! scores beyond [`WIN_BOUND`], which come from terminal states only. Its
//! threads must never wait on each other (no locks) nor take a helper's
//! result as the answer: helpers only fill the shared table.
//!
//! **Repetition and the table.** A state's value may depend on its history
//! (repetition) and on counters (a clock), not just on the position. The
//! table is keyed by [`Game::hash`], which a game must make cover all of
//! that (a game with repetition hashes its repetition window as a
//! multiset, for instance): two states share an entry only if their
//! futures are the same, so every probe is sound (up to 64-bit
//! collisions).
//!
//! **Replacement.** Each bucket has two entries: a depth-preferred one,
//! replaced only by a search at least as deep (or of a newer search, or of
//! the same state), and an always-replace one that takes everything else.
//! Deep results survive the flood of shallow ones, and the newest shallow
//! results are still found.
//!
//! **Sharing the table between threads.** The table is lock-free: each
//! entry is two `AtomicU64` words, `key ^ data` and `data` (`tt::XorPair`,
//! shared with [`super::solver`]'s table), written and read with relaxed
//! ordering (plain moves on x86). A reader accepts an entry
//! only if the two words still XOR to its key, so an entry torn by a
//! concurrent writer reads as a miss (the XOR trick of Hyatt and Mann). The
//! move is stored as its index in [`Game::moves`]'s list for the state, so a
//! table move is looked up in the legal list of the state being searched
//! and can never be illegal, even after a collision. Why not striped locks:
//! they would take a lock on every probe and store (millions a second per
//! thread, on the search's hot path), while relaxed atomic loads and stores
//! compile to the plain moves of a single-threaded table; a lost or torn
//! write only costs a little search effort, never a wrong result. Measured
//! (callgrind, the command line's `bench-search --depth 6 --no-history`, one thread):
//! 1.84 G instructions against 1.78 G for the former single-threaded
//! `Option<Entry>` table, all other changes of the same commit included;
//! a striped-lock table was not built to compare. Entries are 16 bytes
//! (they were 24), so a table of the same size holds more of them.
//!
//! **Threads (lazy SMP).** With [`Searcher::set_threads`] `T > 1`, `T - 1`
//! helper threads search the same root by iterative deepening at the same
//! time, odd helpers one ply deeper than the main thread, all sharing the
//! table; they report nothing but what they leave in the table. The main
//! thread's last completed iteration is the result, and when it is done (or
//! out of time or nodes) a shared stop flag ends the helpers. With `T = 1`
//! no thread is started and the search is deterministic (same move, score,
//! principal variation and node count every time); with more it is not.
//!
//! **Move ordering.** The table's move first, then by [`Evaluator::order`]
//! (plus a bonus for the two killer moves of the ply); the quiet moves (no
//! bonus and no evaluator hint) by the history heuristic where the game
//! gives moves an index ([`Game::move_index`]): how often, and how deep, a
//! quiet move caused a cutoff for the same player in this search, less how
//! often it was tried in vain before another quiet move's cutoff. Ordering
//! never changes the score of a fixed-depth search without a table (with
//! one, an entry deeper than needed, stored under one order and not under
//! another, can).

use super::tt::{TableError, XorPair};
use super::{Evaluator, Game, MAX_PLAYERS, WIN, WIN_BOUND, mix_salt, score_for, teams, terminal_score};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// What a table score is: exact, or a bound from a cutoff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact = 1,
    /// The true score is at least this (fail high).
    Lower = 2,
    /// The true score is at most this (fail low).
    Upper = 3,
}

/// A decoded table entry.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    /// The best move's index in the state's move list.
    mv: Option<u16>,
    score: i32,
    depth: u8,
    bound: Bound,
    generation: u8,
}

/// Generations are kept modulo 64 (6 bits of the packed entry).
const GENERATION_MASK: u8 = 63;

impl Entry {
    /// Packs everything but the key; never 0 (the bound is 1 to 3), so 0
    /// marks an empty slot.
    fn pack(&self) -> u64 {
        let mv = self.mv.map_or(0, |i| i as u64 + 1);
        (self.score as u32 as u64)
            | mv << 32
            | (self.depth as u64) << 48
            | (self.bound as u64) << 56
            | ((self.generation & GENERATION_MASK) as u64) << 58
    }

    fn unpack(key: u64, data: u64) -> Option<Entry> {
        let bound = match data >> 56 & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let mv = (data >> 32) as u16;
        Some(Entry {
            key,
            mv: mv.checked_sub(1),
            score: data as u32 as i32,
            depth: (data >> 48) as u8,
            bound,
            generation: (data >> 58) as u8,
        })
    }
}

/// Two entries of two words each, `key ^ data` then `data` ([`XorPair`]);
/// one cache line holds two buckets.
#[derive(Debug, Default)]
#[repr(align(32))]
struct Bucket([XorPair; 2]);

impl Bucket {
    fn write(&self, i: usize, e: &Entry) {
        self.0[i].store(e.key, e.pack());
    }

    /// The entry in slot `i`, if any and not torn.
    fn entry(&self, i: usize) -> Option<Entry> {
        let (key, data) = self.0[i].load();
        Entry::unpack(key, data)
    }
}

/// A fixed-size transposition table of two-entry buckets (depth-preferred
/// and always-replace), shareable between threads (lock-free, see the
/// module documentation).
#[derive(Debug)]
pub struct Table {
    buckets: super::tt::Table<Bucket>,
    generation: u8,
}

impl Table {
    /// A table of about `mb` megabytes (a power of two of buckets); 0 makes
    /// an empty table that stores nothing. Panics where the system refuses
    /// the memory; [`Table::try_new`] says so instead.
    pub fn new(mb: usize) -> Table {
        Table::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mb` megabytes (as [`Table::new`]), or the
    /// [`TableError`] of memory the system refused.
    pub fn try_new(mb: usize) -> Result<Table, TableError> {
        let bucket = std::mem::size_of::<Bucket>();
        let want = mb.saturating_mul(1 << 20) / bucket;
        let n = if want == 0 { 0 } else { 1usize << (usize::BITS - 1 - want.leading_zeros()) };
        Ok(Table { buckets: super::tt::table(n, Bucket::default)?, generation: 0 })
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * 2
    }

    fn bucket(&self, key: u64) -> Option<&Bucket> {
        (!self.buckets.is_empty()).then(|| &self.buckets[(key as usize) & (self.buckets.len() - 1)])
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key)?;
        (0..2).filter_map(|i| b.entry(i)).find(|e| e.key == key)
    }

    fn store(&self, e: Entry) {
        let generation = self.generation & GENERATION_MASK;
        let Some(b) = self.bucket(e.key) else { return };
        let e = Entry { generation, ..e };
        let deep = match b.entry(0) {
            None => true,
            Some(old) => old.key == e.key || e.depth >= old.depth || old.generation != generation,
        };
        b.write(if deep { 0 } else { 1 }, &e);
    }

    /// Starts a new search: older entries become replaceable.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }
}

/// When to stop searching.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub depth: u32,
    /// Stop after about this many nodes (all threads together).
    pub nodes: Option<u64>,
    /// Stop after about this long.
    pub time: Option<Duration>,
}

impl Limits {
    /// Search to `depth` plies with no other limit.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth, nodes: None, time: None }
    }
}

/// One completed iteration of iterative deepening.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    /// Its depth in plies.
    pub depth: u32,
    /// The root score for the side to move.
    pub score: i32,
    /// Its principal variation.
    pub pv: Vec<M>,
    /// Nodes searched so far (all iterations; with helper threads, theirs
    /// are counted in steps of 1024).
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// The best move, `None` if the game is over at the root.
    pub best: Option<M>,
    /// Its score for the side to move (see [`WIN`] for forced results).
    pub score: i32,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched, all threads together.
    pub nodes: u64,
    /// Nodes searched by the main thread alone (all of `nodes` with one thread).
    pub main_nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Every completed iteration of the main thread.
    pub iterations: Vec<Iteration<M>>,
    /// Threads that searched (the main one included).
    pub threads: usize,
}

impl<M> Report<M> {
    /// The same report with each move mapped by `f` (as texts, for a front end).
    pub fn map<N>(self, f: impl Fn(M) -> N) -> Report<N> {
        let line = |pv: Vec<M>| pv.into_iter().map(&f).collect();
        Report {
            best: self.best.map(&f),
            score: self.score,
            pv: line(self.pv),
            depth: self.depth,
            nodes: self.nodes,
            main_nodes: self.main_nodes,
            elapsed: self.elapsed,
            iterations: self
                .iterations
                .into_iter()
                .map(|it| Iteration {
                    depth: it.depth,
                    score: it.score,
                    pv: line(it.pv),
                    nodes: it.nodes,
                    elapsed: it.elapsed,
                })
                .collect(),
            threads: self.threads,
        }
    }

    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Half-width of the aspiration window, in evaluation units.
const ASPIRATION: i32 = 50;
/// Move-ordering bonus of the table's move and of killer moves.
const TT_BONUS: i32 = 1 << 30;
const KILLER_BONUS: i32 = 500;
/// History scores stay within `±HISTORY_MAX` (each update moves a score
/// part of the way towards the bound: "history gravity").
const HISTORY_MAX: i32 = 1 << 14;
/// The deepest iteration a helper thread starts (the table stores depths in a byte).
const HELPER_MAX_DEPTH: u32 = 120;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

fn to_table(score: i32, ply: u32) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: u32) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// What the threads of one search share.
struct Shared<'a, E> {
    eval: &'a E,
    table: &'a Table,
    stop: &'a AtomicBool,
    /// Nodes of all threads, added in steps of [`CHECK_EVERY`].
    counted: &'a AtomicU64,
    start: Instant,
    limits: Limits,
    /// The depth of the main thread's current iteration (helpers never go deeper).
    main_depth: &'a AtomicU32,
    /// The player to move at the root, and their team (the max side).
    root_player: usize,
    root_team: usize,
    /// More than two teams (and the game does not negate every ply): leaves
    /// are scored for the root player and table keys are salted.
    paranoid: bool,
    /// XORed into table keys (0 unless `paranoid`).
    salt: u64,
}

/// Whether `s` belongs to the max side: the root's team, or chance.
#[inline]
fn max_side<G: Game>(s: &G::State, root_team: usize) -> bool {
    G::is_chance(s) || G::team(s, G::to_move(s)) == root_team
}

/// Whether a child's score must be negated to be its parent's.
#[inline]
fn flips<G: Game>(parent_max: bool, child: &G::State, root_team: usize) -> bool {
    parent_max != max_side::<G>(child, root_team)
}

/// The score of a finished game at `s` for the side of `s`.
#[inline]
fn terminal<G: Game>(s: &G::State, r: &super::Scores, ply: u32, root_player: usize, paranoid: bool) -> i32 {
    if !paranoid {
        return terminal_score::<G>(s, r, ply);
    }
    let v = score_for::<G>(s, r, root_player, ply);
    if max_side::<G>(s, G::team(s, root_player)) { v } else { -v }
}

/// The static score of `s` for the side of `s`.
#[inline]
fn leaf<G: Game, E: Evaluator<G>>(eval: &E, s: &G::State, root_player: usize, paranoid: bool) -> i32 {
    if !paranoid {
        return eval.eval(s);
    }
    let v = eval.eval_for(s, root_player);
    if max_side::<G>(s, G::team(s, root_player)) { v } else { -v }
}

/// Moves of a node that are ordered (the rest, if any, come last unordered):
/// a move's index in its list takes 16 bits of its sort key.
const ORDERED: usize = 1 << 16;

/// Moves picked one at a time before the rest of a list is sorted.
const PICKED: usize = 3;

/// The sort key of the `i`-th move of a list (`i < ORDERED`): by order, then
/// history, then the list's own order (the larger key first), so that an
/// unstable sort of the keys gives the order of a stable sort by
/// `(order, history)`, and the move is found again from its key.
#[inline]
fn sort_key(order: i32, history: i32, i: usize) -> i64 {
    let history = (history + HISTORY_MAX).clamp(0, 0xFFFF) as i64;
    ((order as i64) << 32) | history << 16 | (0xFFFF - i as i64)
}

/// The index and the order of a move from its [`sort_key`].
#[inline]
fn key_parts(key: i64) -> (usize, i32) {
    (0xFFFF - (key & 0xFFFF) as usize, (key >> 32) as i32)
}

/// One thread's own search state: killers, history, buffers and counters.
struct Worker<G: Game> {
    /// 0 for the main thread.
    id: usize,
    killers: Vec<[Option<G::Move>; 2]>,
    /// `MAX_PLAYERS * G::MOVE_INDEX_SPACE` scores, or empty (no history).
    history: Vec<i32>,
    /// Per ply: the moves as generated, and their sort keys.
    lists: Vec<Vec<G::Move>>,
    keys: Vec<Vec<i64>>,
    buf: Vec<G::Move>,
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    stop: bool,
}

impl<G: Game> Worker<G> {
    fn new(id: usize) -> Worker<G> {
        Worker {
            id,
            killers: Vec::new(),
            history: Vec::new(),
            lists: Vec::new(),
            keys: Vec::new(),
            buf: Vec::new(),
            pv: Vec::new(),
            nodes: 0,
            stop: false,
        }
    }

    /// Ready for a new search: counters and history cleared (killers kept).
    fn reset(&mut self, history: bool) {
        self.nodes = 0;
        self.stop = false;
        self.history.clear();
        if history {
            self.history.resize(MAX_PLAYERS * G::MOVE_INDEX_SPACE, 0);
        }
    }

    #[cold]
    fn grow(&mut self, plies: usize) {
        while self.lists.len() < plies {
            self.lists.push(Vec::new());
            self.keys.push(Vec::new());
            self.pv.push(Vec::new());
            self.killers.push([None, None]);
        }
    }

    /// The history slot of `m` for the player whose scores start at `base`.
    #[inline]
    fn history_slot(&self, base: usize, m: G::Move) -> Option<usize> {
        G::move_index(m).filter(|&i| i < G::MOVE_INDEX_SPACE).map(|i| base + i)
    }

    fn reward(&mut self, slot: Option<usize>, bonus: i32) {
        if let Some(h) = slot.and_then(|i| self.history.get_mut(i)) {
            *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        }
    }

    /// Counts `CHECK_EVERY` more nodes, checks the limits (main thread) and
    /// the stop flag.
    fn check<E>(&mut self, sh: &Shared<E>) {
        let total = sh.counted.fetch_add(CHECK_EVERY, Relaxed) + CHECK_EVERY;
        if self.id == 0
            && (sh.limits.nodes.is_some_and(|n| total >= n) || sh.limits.time.is_some_and(|t| sh.start.elapsed() >= t))
        {
            sh.stop.store(true, Relaxed);
        }
        if sh.stop.load(Relaxed) {
            self.stop = true;
        }
    }

    /// Iterative deepening over `depths`; the completed iterations (the
    /// first one even if stopped, so that there is always one).
    fn deepen<E: Evaluator<G>>(
        &mut self,
        sh: &Shared<E>,
        root: &G::State,
        depths: impl Iterator<Item = u32>,
        counted: impl Fn(&Self) -> u64,
    ) -> Vec<Iteration<G::Move>> {
        let mut iterations: Vec<Iteration<G::Move>> = Vec::new();
        let mut score: i32 = 0;
        for depth in depths {
            if self.id == 0 {
                sh.main_depth.store(depth, Relaxed);
            }
            self.grow(depth as usize + 2);
            // One state per ply for the children (deeper plies, past chance
            // nodes, get more as they need them).
            let stack = &mut vec![root.clone(); depth as usize + 1];
            let s = if depth >= 3 && score.abs() < WIN_BOUND {
                let (a, b) = (score - ASPIRATION, score + ASPIRATION);
                let s = self.negamax(sh, root, depth as i32, a, b, 0, stack);
                if !self.stop && (s <= a || s >= b) {
                    self.negamax(sh, root, depth as i32, -WIN - 1, WIN + 1, 0, stack)
                } else {
                    s
                }
            } else {
                self.negamax(sh, root, depth as i32, -WIN - 1, WIN + 1, 0, stack)
            };
            if self.stop && !iterations.is_empty() {
                break;
            }
            score = s;
            iterations.push(Iteration {
                depth,
                score,
                pv: self.pv[0].clone(),
                nodes: counted(self),
                elapsed: sh.start.elapsed(),
            });
            if self.stop || score.abs() > WIN_BOUND && depth as i32 >= WIN - score.abs() {
                break;
            }
        }
        iterations
    }

    // The window, the ply and the children's states are the recursion's own
    // arguments (a struct of them would be built again at every node).
    #[allow(clippy::too_many_arguments)]
    fn negamax<E: Evaluator<G>>(
        &mut self,
        sh: &Shared<E>,
        s: &G::State,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        stack: &mut [G::State],
    ) -> i32 {
        let p = ply as usize;
        if self.lists.len() < p + 2 {
            self.grow(p + 2);
        }
        self.pv[p].clear();
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.check(sh);
        }
        if self.stop {
            return 0;
        }
        // Where the moves will be generated (an inner decision node), a
        // block is left to the empty list.
        let inner = depth > 0 && !G::is_chance(s);
        if let Some(r) = if inner { G::result_unless_blocked(s) } else { G::result(s) } {
            return terminal::<G>(s, &r, ply, sh.root_player, sh.paranoid);
        }
        if G::is_chance(s) {
            return self.chance(sh, s, depth, ply, stack);
        }
        if depth <= 0 {
            return leaf::<G, E>(sh.eval, s, sh.root_player, sh.paranoid);
        }
        let key = G::hash(s) ^ sh.salt;
        let entry = sh.table.probe(key);
        if let Some(e) = entry
            && ply > 0
            && e.depth as i32 >= depth
        {
            let v = from_table(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            };
            if cut {
                return v;
            }
        }
        let mut list = std::mem::take(&mut self.lists[p]);
        G::moves(s, &mut list);
        if list.is_empty() {
            self.lists[p] = list;
            // A block (never in the table: a finished game stores nothing).
            if let Some(r) = G::result(s) {
                return terminal::<G>(s, &r, ply, sh.root_player, sh.paranoid);
            }
            return leaf::<G, E>(sh.eval, s, sh.root_player, sh.paranoid);
        }
        let mine_max = max_side::<G>(s, sh.root_team);
        // The table's move, looked up in this state's own list: always legal.
        let tt_move = entry.and_then(|e| e.mv).and_then(|i| list.get(i as usize)).copied();
        let history_base = (!self.history.is_empty()).then(|| G::to_move(s).min(MAX_PLAYERS - 1) * G::MOVE_INDEX_SPACE);
        let mut keys = std::mem::take(&mut self.keys[p]);
        keys.clear();
        let killers = self.killers[p];
        // The mover's history scores, by move index (empty: no history).
        let history: &[i32] = match history_base {
            Some(base) => &self.history[base..base + G::MOVE_INDEX_SPACE],
            None => &[],
        };
        keys.extend(list.iter().take(ORDERED).enumerate().map(|(i, &m)| {
            let mut order = sh.eval.order(s, m);
            if Some(m) == tt_move {
                order += TT_BONUS;
            } else if killers.contains(&Some(m)) {
                order += KILLER_BONUS;
            }
            // History orders the quiet moves only (no table, killer or evaluator bonus).
            let h = if order == 0 && !history.is_empty() {
                G::move_index(m).and_then(|j| history.get(j)).map_or(0, |&h| h)
            } else {
                0
            };
            sort_key(order, h, i)
        }));
        // The children's state: this ply's slot of the stack.
        let mut more;
        let (child, rest) = match stack.split_first_mut() {
            Some(slots) => slots,
            None => {
                more = vec![s.clone(); 16];
                more.split_first_mut().expect("16 states")
            }
        };
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_index = None;
        let bonus = depth * depth;
        for k in 0..list.len() {
            // Moves beyond the ordered ones come last, in the game's order, and count as not quiet.
            // Cut nodes mostly stop after a move or two: pick the first few
            // moves one by one, sort the rest only if they are needed.
            if k < PICKED {
                let top = (k..keys.len()).max_by_key(|&j| keys[j]);
                if let Some(top) = top {
                    keys.swap(k, top);
                }
            } else if k == PICKED && keys.len() > PICKED {
                keys[PICKED..].sort_unstable_by(|a, b| b.cmp(a));
            }
            let (i, order) = keys.get(k).map_or((k, 1), |&key| key_parts(key));
            let m = list[i];
            G::apply_into(s, m, child);
            let child = &*child;
            let v = if flips::<G>(mine_max, child, sh.root_team) {
                -self.negamax(sh, child, depth - 1, -beta, -alpha, ply + 1, rest)
            } else {
                self.negamax(sh, child, depth - 1, alpha, beta, ply + 1, rest)
            };
            if self.stop {
                break;
            }
            if v > best {
                best = v;
                best_index = u16::try_from(i).ok().filter(|&i| i != u16::MAX);
                let (head, tail) = self.pv.split_at_mut(p + 1);
                head[p].clear();
                head[p].push(m);
                head[p].extend_from_slice(&tail[0]);
                if v > alpha {
                    alpha = v;
                }
                if alpha >= beta {
                    if order < KILLER_BONUS && self.killers[p][0] != Some(m) {
                        self.killers[p] = [Some(m), self.killers[p][0]];
                    }
                    // A quiet move's cutoff: it gains, the quiet moves tried before it lose.
                    if let Some(base) = history_base
                        && order == 0
                    {
                        self.reward(self.history_slot(base, m), bonus);
                        for &key in &keys[..k.min(keys.len())] {
                            if let (j, 0) = key_parts(key) {
                                self.reward(self.history_slot(base, list[j]), -bonus);
                            }
                        }
                    }
                    break;
                }
            }
        }
        self.lists[p] = list;
        self.keys[p] = keys;
        if self.stop {
            return best.max(-WIN);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        sh.table.store(Entry {
            key,
            mv: best_index,
            score: to_table(best, ply),
            depth: depth.clamp(0, u8::MAX as i32) as u8,
            bound,
            generation: 0,
        });
        best
    }
}

impl<G: Game> Worker<G> {
    /// The expectation at a chance node `s` (the max side's score): each
    /// outcome searched with a full window at the same depth.
    fn chance<E: Evaluator<G>>(
        &mut self,
        sh: &Shared<E>,
        s: &G::State,
        depth: i32,
        ply: u32,
        stack: &mut [G::State],
    ) -> i32 {
        let mut outcomes = Vec::new();
        G::chance_outcomes(s, &mut outcomes);
        let mut sum = 0.0;
        for (m, prob) in outcomes {
            let child = G::apply(s, m);
            let v = self.negamax(sh, &child, depth, -WIN - 1, WIN + 1, ply + 1, stack);
            if self.stop {
                return 0;
            }
            sum += prob * if max_side::<G>(&child, sh.root_team) { v } else { -v } as f64;
        }
        self.pv[ply as usize].clear();
        sum.round() as i32
    }
}

/// An alpha-beta searcher; keep it between searches to keep its table.
pub struct Searcher<G: Game, E> {
    eval: E,
    /// The transposition table (shared by the threads of a search).
    pub table: Table,
    threads: usize,
    history: bool,
    main: Worker<G>,
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with `eval` and a table of `tt_mb` megabytes (0: none),
    /// one thread, and the history heuristic on. Panics where the system
    /// refuses the table's memory; [`Searcher::try_new`] says so instead.
    pub fn new(eval: E, tt_mb: usize) -> Searcher<G, E> {
        Searcher::try_new(eval, tt_mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A searcher as [`Searcher::new`] makes it, or the [`TableError`] of
    /// the table's memory refused.
    pub fn try_new(eval: E, tt_mb: usize) -> Result<Searcher<G, E>, TableError> {
        Ok(Searcher { eval, table: Table::try_new(tt_mb)?, threads: 1, history: true, main: Worker::new(0) })
    }

    /// Searches with `threads` threads (lazy SMP; 1, the default, is deterministic).
    pub fn set_threads(&mut self, threads: NonZeroUsize) {
        self.threads = threads.get();
    }

    /// The number of threads a search uses.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Turns the history heuristic on (the default) or off; it changes the
    /// order moves are tried in, never a fixed-depth score without a table.
    pub fn set_history(&mut self, on: bool) {
        self.history = on;
    }
}

impl<G: Game, E: Evaluator<G> + Sync> Searcher<G, E>
where
    G::State: Sync,
{
    /// Searches `root` by iterative deepening within `limits`. The result is
    /// that of the main thread's last completed iteration (or of its first,
    /// partial one, if none completed).
    pub fn search(&mut self, root: &G::State, limits: Limits) -> Report<G::Move> {
        let start = Instant::now();
        self.table.new_search();
        let stop = AtomicBool::new(false);
        let counted = AtomicU64::new(0);
        let main_depth = AtomicU32::new(1);
        let root_player = G::to_move(root);
        let root_team = G::team(root, root_player);
        let paranoid = teams::<G>(root) > 2;
        let sh = Shared {
            root_player,
            root_team,
            paranoid,
            salt: if paranoid { mix_salt(root_team) } else { 0 },
            eval: &self.eval,
            table: &self.table,
            stop: &stop,
            counted: &counted,
            start,
            limits,
            main_depth: &main_depth,
        };
        let (threads, history) = (self.threads, self.history);
        let main = &mut self.main;
        main.reset(history);
        // Iteration node counts: the main thread's exactly, the helpers' as counted so far.
        let count = |w: &Worker<G>| counted.load(Relaxed) - (w.nodes - w.nodes % CHECK_EVERY) + w.nodes;
        let (iterations, helper_nodes) = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|id| {
                    let sh = &sh;
                    scope.spawn(move || {
                        let mut w = Worker::<G>::new(id);
                        w.reset(history);
                        // Never deeper than the main thread's current iteration: a
                        // table entry of a deeper iteration would make the main
                        // thread's result at depth d that of a deeper search,
                        // labelled d. A helper ahead of it repeats that depth
                        // (with its own move order, which still fills the table).
                        let deepest = limits.depth.clamp(1, HELPER_MAX_DEPTH);
                        let mut next = 1 + (id % 2) as u32;
                        let depths = std::iter::from_fn(move || {
                            let d = next.min(sh.main_depth.load(Relaxed)).min(deepest);
                            next = d + 1;
                            Some(d)
                        });
                        w.deepen(sh, root, depths, |_| 0);
                        w.nodes
                    })
                })
                .collect();
            let iterations = main.deepen(&sh, root, 1..=limits.depth.max(1), count);
            stop.store(true, Relaxed);
            let helper_nodes: u64 =
                helpers.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).sum();
            (iterations, helper_nodes)
        });
        let last = iterations.last().cloned().expect("one iteration");
        // A first iteration stopped before its first move was searched: any legal move.
        let best = last.pv.first().copied().or_else(|| {
            G::moves(root, &mut self.main.buf);
            self.main.buf.first().copied()
        });
        Report {
            best,
            score: last.score,
            pv: last.pv,
            depth: last.depth,
            nodes: self.main.nodes + helper_nodes,
            main_nodes: self.main.nodes,
            elapsed: start.elapsed(),
            iterations,
            threads,
        }
    }
}

impl<G: Game, E: Evaluator<G> + Sync> Searcher<G, E>
where
    G::State: Sync,
{
    /// The `k` best root moves of `root` after a search `r` of it (the
    /// result of [`Searcher::search`]): `r`'s best move with its score and
    /// line, and every other root move searched to `r.depth − 1` plies
    /// after it with a full window (its static score at depth 1), so that
    /// each gets an exact score at the root's depth; sorted by score for
    /// the side to move, best first (ties in move order). Scores are for
    /// the side to move at the root; forced results keep their plies from
    /// the root. Exact with two teams (with more, each move's line is the
    /// coalition search of the player to move after it).
    pub fn multipv(&mut self, root: &G::State, r: &Report<G::Move>, k: usize) -> Vec<(G::Move, i32, Vec<G::Move>)> {
        let me = G::to_move(root);
        let team = G::team(root, me);
        let mut moves = Vec::new();
        G::moves(root, &mut moves);
        let mut lines: Vec<(G::Move, i32, Vec<G::Move>)> = Vec::new();
        if let Some(best) = r.best {
            lines.push((best, r.score, r.pv.clone()));
        }
        for m in moves {
            if Some(m) == r.best || k <= 1 {
                continue;
            }
            let child = G::apply(root, m);
            let (score, mut pv) = match G::result(&child) {
                Some(res) => (score_for::<G>(&child, &res, me, 1), Vec::new()),
                None if r.depth <= 1 => (self.eval.eval_for(&child, me), Vec::new()),
                None => {
                    let c = self.search(&child, Limits::depth(r.depth - 1));
                    let s = if G::team(&child, G::to_move(&child)) == team { c.score } else { -c.score };
                    // One ply more to a forced end seen from the root.
                    let s = if s > WIN_BOUND {
                        s - 1
                    } else if s < -WIN_BOUND {
                        s + 1
                    } else {
                        s
                    };
                    (s, c.pv)
                }
            };
            pv.insert(0, m);
            lines.push((m, score, pv));
        }
        lines.sort_by_key(|l| std::cmp::Reverse(l.1));
        lines.truncate(k);
        lines
    }
}

/// Plain negamax to `depth` plies with `eval` at the leaves: no pruning, no
/// table, no ordering; the same two sides and the same expectimax at chance
/// nodes as [`Searcher`], for the player to move at `s`. The reference that
/// [`Searcher`] must agree with.
pub fn minimax<G: Game, E: Evaluator<G>>(s: &G::State, eval: &E, depth: u32, ply: u32) -> i32 {
    let root_player = G::to_move(s);
    let paranoid = teams::<G>(s) > 2;
    plain::<G, E>(s, eval, depth, ply, root_player, paranoid)
}

fn plain<G: Game, E: Evaluator<G>>(s: &G::State, eval: &E, depth: u32, ply: u32, root: usize, paranoid: bool) -> i32 {
    let root_team = G::team(s, root);
    if let Some(r) = G::result(s) {
        return terminal::<G>(s, &r, ply, root, paranoid);
    }
    if G::is_chance(s) {
        let mut outcomes = Vec::new();
        G::chance_outcomes(s, &mut outcomes);
        let sum: f64 = outcomes
            .iter()
            .map(|&(m, prob)| {
                let child = G::apply(s, m);
                let v = plain::<G, E>(&child, eval, depth, ply + 1, root, paranoid);
                prob * if max_side::<G>(&child, root_team) { v } else { -v } as f64
            })
            .sum();
        return sum.round() as i32;
    }
    if depth == 0 {
        return leaf::<G, E>(eval, s, root, paranoid);
    }
    let mut moves = Vec::new();
    G::moves(s, &mut moves);
    if moves.is_empty() {
        return leaf::<G, E>(eval, s, root, paranoid);
    }
    let mine_max = max_side::<G>(s, root_team);
    moves
        .iter()
        .map(|&m| {
            let child = G::apply(s, m);
            let v = plain::<G, E>(&child, eval, depth - 1, ply + 1, root, paranoid);
            if flips::<G>(mine_max, &child, root_team) { -v } else { v }
        })
        .max()
        .expect("a move")
}
