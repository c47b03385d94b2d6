//! Negamax alpha-beta with iterative deepening, aspiration windows, a
//! transposition table and move ordering, generic over [`Game`] and
//! [`Evaluator`].
//!
//! Its scores are heuristic beyond the horizon: it must never be used to
//! claim a proven result (that is [`super::solver`]'s job), except for
//! scores beyond [`WIN_BOUND`], which come from terminal states only.
//!
//! **Repetition and the table.** A state's value depends on its history
//! (repetition) and its clock (closure), not just on the position. The
//! table is keyed by [`Game::hash`], which for Sénat covers the position,
//! the clock and the whole repetition window as a multiset (see
//! [`super::senat::SenatState::key`]): two states share an entry only if
//! their futures are the same, so every probe is sound (up to 64-bit
//! collisions). Transpositions across a door push, after which the window
//! is the position alone, still share entries.
//!
//! **Replacement.** Each bucket has two entries: a depth-preferred one,
//! replaced only by a search at least as deep (or of a newer search, or of
//! the same state), and an always-replace one that takes everything else.
//! Deep results survive the flood of shallow ones, and the newest shallow
//! results are still found.

use super::{Evaluator, Game, WIN, WIN_BOUND, terminal_score};
use std::time::{Duration, Instant};

/// What a table score is: exact, or a bound from a cutoff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    key: u64,
    mv: Option<M>,
    score: i32,
    depth: i16,
    bound: Bound,
    generation: u8,
}

/// A fixed-size transposition table of two-entry buckets (depth-preferred
/// and always-replace).
#[derive(Debug)]
pub struct Table<M> {
    buckets: Vec<[Option<Entry<M>>; 2]>,
    generation: u8,
}

impl<M: Copy> Table<M> {
    /// A table of about `mb` megabytes (a power of two of buckets); 0 makes
    /// an empty table that stores nothing.
    pub fn new(mb: usize) -> Table<M> {
        let bucket = std::mem::size_of::<[Option<Entry<M>>; 2]>();
        let want = mb * (1 << 20) / bucket;
        let n = if want == 0 { 0 } else { 1usize << (usize::BITS - 1 - want.leading_zeros()) };
        Table { buckets: vec![[None, None]; n], generation: 0 }
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * 2
    }

    fn index(&self, key: u64) -> Option<usize> {
        (!self.buckets.is_empty()).then(|| (key as usize) & (self.buckets.len() - 1))
    }

    fn probe(&self, key: u64) -> Option<Entry<M>> {
        let b = &self.buckets[self.index(key)?];
        b.iter().flatten().find(|e| e.key == key).copied()
    }

    fn store(&mut self, e: Entry<M>) {
        let generation = self.generation;
        let Some(i) = self.index(e.key) else { return };
        let b = &mut self.buckets[i];
        let e = Entry { generation, ..e };
        let deep = match b[0] {
            None => true,
            Some(old) => old.key == e.key || e.depth >= old.depth || old.generation != generation,
        };
        if deep {
            b[0] = Some(e);
        } else {
            b[1] = Some(e);
        }
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
    /// Stop after about this many nodes.
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
    /// Nodes searched so far (all iterations).
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
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Every completed iteration.
    pub iterations: Vec<Iteration<M>>,
}

impl<M> Report<M> {
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

/// An alpha-beta searcher; keep it between searches to keep its table.
pub struct Searcher<G: Game, E> {
    eval: E,
    /// The transposition table.
    pub table: Table<G::Move>,
    killers: Vec<[Option<G::Move>; 2]>,
    moves: Vec<Vec<(i32, G::Move)>>,
    buf: Vec<G::Move>,
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    stop: bool,
    start: Instant,
    limits: Limits,
}

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

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with `eval` and a table of `tt_mb` megabytes (0: none).
    pub fn new(eval: E, tt_mb: usize) -> Searcher<G, E> {
        Searcher {
            eval,
            table: Table::new(tt_mb),
            killers: Vec::new(),
            moves: Vec::new(),
            buf: Vec::new(),
            pv: Vec::new(),
            nodes: 0,
            stop: false,
            start: Instant::now(),
            limits: Limits::depth(0),
        }
    }

    /// Searches `root` by iterative deepening within `limits`. The result is
    /// that of the last completed iteration (or of the first, partial one,
    /// if none completed).
    pub fn search(&mut self, root: &G::State, limits: Limits) -> Report<G::Move> {
        self.start = Instant::now();
        self.limits = limits;
        self.nodes = 0;
        self.stop = false;
        self.table.new_search();
        let mut iterations: Vec<Iteration<G::Move>> = Vec::new();
        let mut score: i32 = 0;
        for depth in 1..=limits.depth.max(1) {
            self.grow(depth as usize + 2);
            let s = if depth >= 3 && score.abs() < WIN_BOUND {
                let (a, b) = (score - ASPIRATION, score + ASPIRATION);
                let s = self.negamax(root, depth as i32, a, b, 0);
                if !self.stop && (s <= a || s >= b) {
                    self.negamax(root, depth as i32, -WIN - 1, WIN + 1, 0)
                } else {
                    s
                }
            } else {
                self.negamax(root, depth as i32, -WIN - 1, WIN + 1, 0)
            };
            if self.stop && !iterations.is_empty() {
                break;
            }
            score = s;
            iterations.push(Iteration {
                depth,
                score,
                pv: self.pv[0].clone(),
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
            });
            if self.stop || score.abs() > WIN_BOUND && depth as i32 >= WIN - score.abs() {
                break;
            }
        }
        let last = iterations.last().cloned().expect("one iteration");
        // A first iteration stopped before its first move was searched: any legal move.
        let best = last.pv.first().copied().or_else(|| {
            G::moves(root, &mut self.buf);
            self.buf.first().copied()
        });
        Report {
            best,
            score: last.score,
            pv: last.pv,
            depth: last.depth,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            iterations,
        }
    }

    fn grow(&mut self, plies: usize) {
        while self.moves.len() < plies {
            self.moves.push(Vec::new());
            self.pv.push(Vec::new());
            self.killers.push([None, None]);
        }
    }

    fn check_limits(&mut self) {
        if self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || self.limits.time.is_some_and(|t| self.start.elapsed() >= t)
        {
            self.stop = true;
        }
    }

    fn negamax(&mut self, s: &G::State, depth: i32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        let p = ply as usize;
        self.grow(p + 2);
        self.pv[p].clear();
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stop {
            return 0;
        }
        if let Some(r) = G::result(s) {
            return terminal_score::<G>(s, &r, ply);
        }
        if depth <= 0 {
            return self.eval.eval(s);
        }
        let key = G::hash(s);
        let entry = self.table.probe(key);
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
        let tt_move = entry.and_then(|e| e.mv);
        G::moves(s, &mut self.buf);
        if self.buf.is_empty() {
            return self.eval.eval(s);
        }
        let mut list = std::mem::take(&mut self.moves[p]);
        list.clear();
        let killers = self.killers[p];
        for &m in &self.buf {
            let mut o = self.eval.order(s, m);
            if Some(m) == tt_move {
                o += TT_BONUS;
            } else if killers.contains(&Some(m)) {
                o += KILLER_BONUS;
            }
            list.push((o, m));
        }
        list.sort_by_key(|&(o, _)| std::cmp::Reverse(o));
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = None;
        for &(o, m) in &list {
            let child = G::apply(s, m);
            let v = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
            if self.stop {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(m);
                let (head, tail) = self.pv.split_at_mut(p + 1);
                head[p].clear();
                head[p].push(m);
                head[p].extend_from_slice(&tail[0]);
                if v > alpha {
                    alpha = v;
                }
                if alpha >= beta {
                    if o < KILLER_BONUS && self.killers[p][0] != Some(m) {
                        self.killers[p] = [Some(m), self.killers[p][0]];
                    }
                    break;
                }
            }
        }
        self.moves[p] = list;
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
        self.table.store(Entry {
            key,
            mv: best_move,
            score: to_table(best, ply),
            depth: depth as i16,
            bound,
            generation: 0,
        });
        best
    }
}

/// Plain negamax to `depth` plies with `eval` at the leaves: no pruning, no
/// table, no ordering. The reference that [`Searcher`] must agree with.
pub fn minimax<G: Game, E: Evaluator<G>>(s: &G::State, eval: &E, depth: u32, ply: u32) -> i32 {
    if let Some(r) = G::result(s) {
        return terminal_score::<G>(s, &r, ply);
    }
    if depth == 0 {
        return eval.eval(s);
    }
    let mut moves = Vec::new();
    G::moves(s, &mut moves);
    if moves.is_empty() {
        return eval.eval(s);
    }
    moves.iter().map(|&m| -minimax::<G, E>(&G::apply(s, m), eval, depth - 1, ply + 1)).max().expect("a move")
}
