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
//! **The other goal's facts.** A win implies at least a draw, so where a
//! node has no entry for its question, the same player's entry for the
//! other goal may answer it (a win proven within `d` proves "at least a
//! draw" within `d`; "at least a draw" disproven disproves a win), and its
//! move is tried first otherwise. The draw questions of the last horizon
//! thus start from the win questions' refutations: 6.5 M nodes instead of
//! 74.6 M after the sample game's twelfth move at horizon 10 (one thread,
//! the code of 8950ef9).
//!
//! **Game bounds.** Where the game's [`Solvable::min_plies`] says that
//! the goal cannot be reached within the plies left, the node is answered
//! "no" without a search ([`Solver::bounds`]); the bound must be a proven
//! lower bound, never an estimate, so the verdicts are the same with it or
//! without it (only the nodes differ).
//!
//! **Game shortcuts.** Three more hooks, each exact: a game may name the
//! moves not worth trying two plies or more from the horizon, those that
//! lose at once ([`Solvable::moves_to_try`]: a rival wins on the next ply,
//! so such a move proves nothing for its mover and refutes nothing
//! against the prover); it may ask a question more plainly
//! ([`Solvable::same_question`]: where a player wins only on its own
//! plies, a win within 8 plies for the side to move is a win within 7;
//! the table's facts then serve every depth that is the same question);
//! and it may change the move order's helpers and the table's use
//! ([`Solvable::KILLERS`], [`Solvable::OTHER_GOAL`],
//! [`Solvable::TABLE_DEPTH`]). With their defaults nothing changes; Connect
//! Four uses them all (the fast solvers' "non-losing moves", and wins only
//! on the mover's plies).
//!
//! **Relaxations.** A game may answer a question with a relaxed game
//! ([`Solvable::relaxed`]): the same position under rules that can only
//! help the player's goal (its "no" holds for the game itself) or only
//! hinder it (its "yes" holds), and whose states transpose more (Sénat
//! without repetition: no history in the key). Each question is asked of
//! the relaxation first; an answer that does not carry over is asked again
//! of the game itself, so the verdicts are the same with relaxations or
//! without them ([`Solver::relax`]; only the nodes differ).
//!
//! **Threads (lazy SMP).** With [`Solver::set_threads`] `T > 1`, `T - 1`
//! helper threads ask the same questions of the same root at the same time
//! and share the table. Helper `k` asks the questions of a horizon in
//! another order (rotated by `k`, the last horizon's first draw question
//! included, so with two threads the helper answers the second question
//! while the main thread works on the first); odd helpers stay at the main
//! thread's horizon and try the choosing side's moves near the root
//! backwards (the two threads start at the two ends of a list that must be
//! refuted move by move), even helpers go one horizon ahead; every helper
//! tries moves of equal order in its own order. The table is
//! lock-free: each entry is two `AtomicU64` words, `key ^ data` and `data`
//! (the XOR trick of Hyatt and Mann, the words of [`super::alphabeta`]'s
//! table), so an entry torn by a concurrent write reads as a miss. The
//! helpers report nothing but what they leave in the table, and every
//! entry is a proven fact (proven within d plies, or not within d), true
//! whichever thread found it, so the main thread's answers, and the
//! verdicts, are those of one thread; only the lines (a proof may take
//! another move), the node counts and the times differ. The main thread's
//! decision is the result: when it is made (or the node cap, node limit
//! or time limit stops it, all threads' nodes counting) a shared stop flag
//! ends the helpers, and the line is then found by the main thread alone.
//! Helpers need states that can be shared between threads
//! (`G::State: Sync`); with `T = 1` no thread is started and a search is
//! what it was before threads existed (same line and node count).
//!
//! **Teams and chance.** Verdicts are for the team of the player to move
//! at the root against the other team: a prover needs exactly two teams
//! ([`check`]); partners' moves are the team's choices. A chance node is
//! an adversary: a goal is forced there only if it is forced after every
//! outcome of positive probability, so verdicts stay exact ("whatever
//! falls"), and a game that chance decides is seldom decided here.

use super::shape::Shape;
use super::tt::{TableError, XorPair};
use super::{Game, Scores, standing, teams};
use std::cmp::Ordering;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// What the solver may ask of a game beyond [`Game`]: shortcuts that must
/// give exactly what the plain definitions give.
pub trait Solvable: Game {
    /// Whether the provers try the moves that decided sibling nodes (the
    /// killers) before the game's [`Game::priority`] order: yes by
    /// default; a game whose order knows better (Connect Four's threats)
    /// says no. Only the order changes, never a verdict.
    const KILLERS: bool = true;

    /// Whether a node with no fact for its question looks up the same
    /// player's other goal (see the module documentation): yes by default.
    /// A game whose other goal is seldom asked where this one is says no
    /// (Connect Four asks at least a draw only with the whole board left to
    /// fill: a second look-up at nearly every new node found nothing).
    const OTHER_GOAL: bool = true;

    /// The fewest plies left at which a node's facts are looked up in the
    /// table and stored there (at least 2: one ply from the horizon a node
    /// is never stored). 2 by default; a game whose small subtrees cost
    /// less than a look-up in a large table may say more. Only the nodes
    /// and the time change, never a verdict.
    const TABLE_DEPTH: u32 = 2;

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

    /// Whether the side to move at `s` (a game not over, not a chance
    /// node) has a move that ends the game at once with its team winning:
    /// `true` only where one certainly exists, `false` where unsure (the
    /// default). The provers then answer such a node without generating its
    /// moves: proven for that team's goals, disproven for the other's.
    fn wins_at_once(_s: &Self::State) -> bool {
        false
    }

    /// Which of the legal moves `moves` of `s` (a game not over, not a
    /// chance node; `moves` in the game's order) the provers try where two
    /// plies or more are left: bit `i` for `moves[i]` (a move past the
    /// 64th is always tried). A move may be left out only if the game goes
    /// on after it, a rival of its mover is then to move, and that rival
    /// has a move that ends the game at once with its team winning (the
    /// move loses at once). The default, every bit set, leaves nothing out.
    ///
    /// Why the verdicts stay exact, with their distances: where the mover
    /// is of the proving team, a move left out cannot help it (the rival
    /// ends the game on the next ply with the goal missed, a win or a draw
    /// alike); where the mover is a rival, the proving team wins on the
    /// next ply after it, which is within the plies left (two or more), so
    /// the move refutes nothing. Where every move is left out the node is
    /// lost for the mover, which is what an empty list answers.
    fn moves_to_try(_s: &Self::State, _moves: &[Self::Move]) -> u64 {
        u64::MAX
    }

    /// The same question, asked more plainly: `(goal2, depth2)`, `depth2`
    /// at most `depth`, such that `player`'s team forces `goal` within
    /// `depth` plies at `s` exactly when it forces `goal2` within `depth2`
    /// plies (a game that always ends within `n` plies may cap the depth
    /// at `n`; one where the goal can be reached on some plies only may
    /// take the last of those within `depth`). The provers ask it at every
    /// node, so answers stored for one depth serve the depths that are the
    /// same question. The default, `(goal, depth)`, changes nothing.
    fn same_question(_s: &Self::State, _player: usize, goal: Goal, depth: u32) -> (Goal, u32) {
        (goal, depth)
    }

    /// A relaxation of the question whether `player`'s team forces `goal`
    /// at `s` (a game not over): the same position in a game whose answers
    /// of one kind ([`Relaxation::keeps`]) are answers of this game too, and
    /// which is cheaper to search. `None` (the default): none.
    ///
    /// The relaxed game's states must hash apart from this game's, and
    /// every relaxation of every state must be states of one relaxed game
    /// (the solver's table mixes their facts, across questions too); a
    /// relaxed state is never relaxed again (`None` there).
    fn relaxed(_s: &Self::State, _player: usize, _goal: Goal) -> Option<Relaxation<Self::State>> {
        None
    }
}

/// A question asked of a relaxed game ([`Solvable::relaxed`]).
#[derive(Clone, Copy, Debug)]
pub struct Relaxation<S> {
    /// The position, in the relaxed game.
    pub state: S,
    /// Which of its answers hold for the game itself.
    pub keeps: Keeps,
}

/// Which answers of a relaxed question hold for the game itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keeps {
    /// "Not forced": the relaxed game is at least as good for the goal.
    Noes,
    /// "Forced": the relaxed game is at most as good for the goal.
    Yeses,
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
    /// A principal line that realizes the verdict (empty if unknown, or
    /// where [`Solver::line`] is off).
    pub pv: Vec<M>,
    /// The deepest horizon searched to the end.
    pub depth: u32,
    /// Nodes visited (by all threads, see [`Solver::set_threads`]).
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
/// Every entry states facts only, true whoever found them, so any thread
/// may trust any entry that is not torn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    key: u64,
    proven: u8,
    disproven: u8,
    mv: u16,
}

impl Entry {
    /// The horizon this entry's facts cost (0: it holds nothing).
    fn worth(&self) -> u64 {
        self.proven.max(self.disproven) as u64
    }

    /// Everything but the key, in the low 32 bits; 0 only for an entry that
    /// holds nothing (never stored).
    fn pack(&self) -> u64 {
        self.proven as u64 | (self.disproven as u64) << 8 | (self.mv as u64) << 16
    }

    fn unpack(key: u64, data: u64) -> Entry {
        Entry { key, proven: data as u8, disproven: (data >> 8) as u8, mv: (data >> 16) as u16 }
    }
}

/// Entries per bucket: a key may sit in any entry of its bucket.
const BUCKET: usize = 4;

/// Moves of a node picked one at a time before the rest are sorted.
const PICKED: usize = 3;

/// Plies from the root within which odd helper threads try the choosing
/// side's moves backwards (see [`Worker::forces_at`]).
const SPLIT_PLIES: usize = 3;

/// A bucket of [`SharedTable`]: four entries, one cache line.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket([XorPair; BUCKET]);

/// The solver's table: buckets of [`BUCKET`] entries, a new key replacing
/// the entry of its bucket that is worth least (as [`Table`]), lock-free so
/// that the threads of a search share it. Each entry is a [`XorPair`]: a
/// torn entry reads as a miss, and two threads updating one entry at once
/// lose one update, never a fact's truth (each writes facts it read or
/// proved).
pub(super) struct SharedTable {
    buckets: super::tt::Table<Bucket>,
}

impl SharedTable {
    /// A table of about `mb` megabytes (at least one bucket): as many
    /// entries as [`Table::new`] makes of 16-byte entries.
    /// Memory the system refuses is a [`TableError`].
    fn new(mb: usize) -> Result<SharedTable, TableError> {
        let want = mb.max(1).saturating_mul(1 << 20) / std::mem::size_of::<XorPair>();
        let n = ((want / 2 + 1).next_power_of_two()).max(BUCKET);
        Ok(SharedTable { buckets: super::tt::table(n / BUCKET, Bucket::default)? })
    }

    /// The bucket of `key` (the one [`Table`] would take for it).
    fn bucket(&self, key: u64) -> &Bucket {
        let i = (key as usize ^ (key >> 32) as usize) / BUCKET;
        &self.buckets[i & (self.buckets.len() - 1)]
    }

    /// Asks the processor to bring `key`'s bucket into the cache (a hint;
    /// nothing changes but the time of the next look-up).
    #[inline]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch never faults and reads nothing into the program.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry of `key`, if it is there, holds something and is not torn.
    fn get(&self, key: u64) -> Option<Entry> {
        self.bucket(key).0.iter().find_map(|p| p.get(key)).map(|data| Entry::unpack(key, data))
    }

    /// Updates the entry of `key` with `f` (an empty entry if it is not
    /// there, taking the place of the entry worth least) and writes it back.
    fn update(&self, key: u64, f: impl FnOnce(&mut Entry)) {
        let bucket = &self.bucket(key).0;
        let read: [Entry; BUCKET] = std::array::from_fn(|i| {
            let (k, data) = bucket[i].load();
            Entry::unpack(k, data)
        });
        let (i, mut e) = match read.iter().position(|e| e.key == key) {
            Some(i) => (i, read[i]),
            None => ((0..BUCKET).min_by_key(|&i| read[i].worth()).unwrap_or(0), Entry { key, ..Entry::default() }),
        };
        f(&mut e);
        if e.worth() > 0 {
            bucket[i].store(key, e.pack());
        }
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

/// A fixed-size table of facts for one thread (the df-pn prover's):
/// buckets of [`BUCKET`] entries; a new key replaces the entry of its bucket
/// that is worth least.
pub(super) struct Table<E: Slot> {
    entries: Vec<E>,
    mask: usize,
}

impl<E: Slot> Table<E> {
    /// A table of about `mb` megabytes (at least one bucket), or the
    /// [`TableError`] of memory the system refused.
    pub(super) fn new(mb: usize) -> Result<Table<E>, TableError> {
        let want = mb.max(1).saturating_mul(1 << 20) / std::mem::size_of::<E>();
        // The largest power of two that fits, and at least one bucket.
        let n = ((want / 2 + 1).next_power_of_two()).max(BUCKET);
        let mut entries = super::tt::reserve(n)?;
        entries.resize(n, E::default());
        Ok(Table { entries, mask: (n - 1) & !(BUCKET - 1) })
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

/// Calls of `forces` between two looks of a helper thread at the stop flag
/// (and two additions of its nodes to the shared count).
const HELPER_CHECK: u64 = 256;

/// The solver; keep it to keep its table.
pub struct Solver<G: Solvable> {
    table: SharedTable,
    /// The main thread's search state (kept between searches: its killers).
    main: Worker<G>,
    threads: NonZeroUsize,
    /// Runs helper threads beside the main thread (set by
    /// [`Solver::set_threads`], where states can be shared between threads).
    spawner: Option<Spawner<G>>,
    /// Stop deepening after about this many nodes (None: no limit; all
    /// threads' nodes together).
    pub node_limit: Option<u64>,
    /// Stop as soon as this many nodes are visited, even in the middle of
    /// a horizon (None: no cap); like [`Solver::time_limit`] the verdict is
    /// then that of the completed horizons, but with one thread it depends
    /// on nothing but the position, so a capped search is reproducible on
    /// any machine. With helper threads their nodes count too (as far as
    /// they have reported them), and it is not.
    pub node_cap: Option<u64>,
    /// Stop after about this long, even in the middle of a horizon (None:
    /// no limit); the verdict is then that of the completed horizons.
    pub time_limit: Option<Duration>,
    /// Whether to cut a node where the game's [`Solvable::min_plies`]
    /// exceeds the plies left (on by default; off only to measure what the
    /// bound saves: the verdicts are the same either way).
    pub bounds: bool,
    /// Whether to ask each question of the game's relaxation first, where
    /// it has one ([`Solvable::relaxed`]; on by default; off only to
    /// measure what it saves: the verdicts are the same either way).
    pub relax: bool,
    /// Whether a search finds the principal line of its verdict
    /// ([`Solution::pv`]; on by default). Off, the line is left empty and
    /// its searches are saved (a tenth of the nodes on Connect Four
    /// positions of 14-27 discs); the verdict is the same.
    pub line: bool,
    /// Called by the main thread after each question it asks (see
    /// [`Asked`]): progress for a long search; it changes nothing.
    pub progress: Option<Progress>,
}

/// What [`Solver::progress`] calls with each question answered.
pub type Progress = Box<dyn FnMut(&Asked) + Send>;

/// One question the main thread of [`Solver::solve`] or
/// [`Solver::forced_win`] asked at one horizon, and its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asked {
    /// The horizon in plies.
    pub depth: u32,
    /// The player whose team is asked to force `goal`.
    pub player: usize,
    /// What the team is asked to force.
    pub goal: Goal,
    /// The answer; `None` when a limit stopped the question.
    pub answer: Option<bool>,
    /// The search's nodes so far, all threads (as far as the helpers reported them).
    pub nodes: u64,
    /// The time since the search started.
    pub elapsed: Duration,
}

/// How a search runs `helpers` helper threads on `root` beside the main
/// thread's `main` (on the calling thread), until `main` returns: an
/// instance of [`with_helpers`], made where `G::State: Sync`.
type Spawner<G> = fn(&Shared, &<G as Game>::State, &Plan, usize, &mut dyn FnMut() -> Decision) -> Decision;

/// What the threads of one search share.
struct Shared<'a> {
    table: &'a SharedTable,
    /// Set when the main thread is done (or stopped): the helpers stop.
    stop: AtomicBool,
    /// The helpers' nodes, added in steps of about [`HELPER_CHECK`] calls.
    helper_nodes: AtomicU64,
    /// The main thread's current horizon.
    main_depth: AtomicU32,
    /// Whether there are helpers (whose nodes count towards the limits).
    helpers: bool,
    node_cap: Option<u64>,
    node_limit: Option<u64>,
    bounds: bool,
    relax: bool,
}

/// The questions a search asks at each horizon (what the helpers ask too).
struct Plan {
    /// (player, goal) pairs, in order.
    queries: [(usize, Goal); 2],
    /// How many of `queries` count.
    len: usize,
    /// The first draw question the main thread asks at the last horizon
    /// after the plan's (see [`Worker::decide`]); `None` if it asks none.
    /// The helpers ask it too once they reach that horizon; not the second,
    /// which the main thread asks only where the first holds.
    draw: Option<(usize, Goal)>,
    max_depth: u32,
}

impl Plan {
    /// The questions of horizon `d`, in the order helper `id` asks them:
    /// the plan's, then the draw questions at the last horizon, rotated by
    /// `id` so that each thread starts on another one (with two threads the
    /// helper takes the second question while the main thread is on the
    /// first, and the main thread finds it answered in the table).
    fn questions(&self, d: u32, id: usize) -> Vec<(usize, Goal)> {
        let mut q = self.queries[..self.len].to_vec();
        if d == self.max_depth {
            q.extend(self.draw);
        }
        let n = q.len();
        q.rotate_left(id % n);
        q
    }
}

/// What the main thread decided: the verdict, the deepest horizon
/// completed, and the question whose line realizes it (player, goal, horizon).
#[derive(Clone, Copy, Debug)]
struct Decision {
    verdict: Verdict,
    depth: u32,
    line: Option<(usize, Goal, u32)>,
}

/// One thread's search state: buffers, killers, counters.
struct Worker<G: Game> {
    /// 0 for the main thread.
    id: usize,
    /// XORed into the move indices that break ties of the move order (0 for
    /// the main thread): each helper tries equal moves in its own order.
    tie: u16,
    nodes: u64,
    /// Of `nodes`, those added to the shared count (helpers).
    reported: u64,
    bufs: Vec<Vec<(i32, u16, G::Move)>>,
    scratch: Vec<G::Move>,
    killers: Vec<[Option<G::Move>; 2]>,
    deadline: Option<Instant>,
    /// Calls of `forces` since the start, for looking at the clock (or the
    /// stop flag) now and then.
    calls: u64,
    stopped: bool,
    /// The search's start and [`Solver::progress`] (main thread only).
    start: Instant,
    progress: Option<Progress>,
    /// The tree's shape, where it is counted ([`Solver::count_shape`]; main thread only).
    shape: Option<Box<Shape>>,
}

/// The solution of a search started at `start` that searched nothing (the
/// game is over at the root, or the provers cannot answer there).
fn unsearched<M>(verdict: Verdict, start: Instant) -> Solution<M> {
    Solution { verdict, pv: Vec::new(), depth: 0, nodes: 0, elapsed: start.elapsed(), timed_out: false }
}

/// Runs `helpers` helper threads on `root` beside `main`, which runs on
/// this thread; when `main` returns, the stop flag ends the helpers, and
/// `main`'s decision is the search's.
fn with_helpers<G: Solvable>(
    sh: &Shared,
    root: &G::State,
    plan: &Plan,
    helpers: usize,
    main: &mut dyn FnMut() -> Decision,
) -> Decision
where
    G::State: Sync,
{
    /// Sets the stop flag when dropped: when the main thread is done, or
    /// panics (the helpers would otherwise search on to the last horizon).
    struct StopOnDrop<'a>(&'a AtomicBool);
    impl Drop for StopOnDrop<'_> {
        fn drop(&mut self) {
            self.0.store(true, Relaxed);
        }
    }
    std::thread::scope(|scope| {
        let _stop = StopOnDrop(&sh.stop);
        for id in 1..=helpers {
            scope.spawn(move || {
                let mut w = Worker::<G>::new(id);
                w.help(sh, root, plan);
                sh.helper_nodes.fetch_add(w.nodes - w.reported, Relaxed);
            });
        }
        main()
    })
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
    /// Panics where the system refuses the table's memory;
    /// [`Solver::try_with_table_mb`] says so instead.
    pub fn with_table_mb(mb: usize) -> Solver<G> {
        Solver::try_with_table_mb(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A solver as [`Solver::with_table_mb`] makes it, or the
    /// [`TableError`] of the table's memory refused.
    pub fn try_with_table_mb(mb: usize) -> Result<Solver<G>, TableError> {
        Ok(Solver {
            table: SharedTable::new(mb)?,
            main: Worker::new(0),
            threads: NonZeroUsize::MIN,
            spawner: None,
            node_limit: None,
            node_cap: None,
            time_limit: None,
            bounds: true,
            relax: true,
            line: true,
            progress: None,
        })
    }

    /// The number of threads a search uses (1 unless [`Solver::set_threads`] said more).
    pub fn threads(&self) -> usize {
        self.threads.get()
    }

    /// Solves `root` with horizons 1, 2, … up to `max_depth` plies (at most
    /// [`MAX_HORIZON`]), stopping at the first win or loss (so it is the
    /// fastest one). A draw is looked for at horizons up to 4 and at the last
    /// horizon completed, and reported with the smallest horizon that shows it.
    pub fn solve(&mut self, root: &G::State, max_depth: u32) -> Solution<G::Move> {
        let start = Instant::now();
        let me = G::to_move(root);
        let early = match G::result(root) {
            Some(r) => Some(ended::<G>(root, &r, me)),
            None => check::<G>(root).is_err().then_some(Verdict::Unknown),
        };
        if let Some(verdict) = early {
            return unsearched(verdict, start);
        }
        let other = opponent::<G>(root, me);
        let max_depth = max_depth.min(MAX_HORIZON);
        let plan = Plan {
            queries: [(me, Goal::Win), (other, Goal::Win)],
            len: 2,
            draw: Some((other, Goal::AtLeastDraw)),
            max_depth,
        };
        self.run(root, &plan, start, |w, sh| w.decide(sh, root, me, other, max_depth))
    }

    /// One question only: whether `player`'s team forces a win within
    /// `max_depth` plies of `root` (horizons 1, 2, … in turn, so the
    /// fastest). The verdict is [`Verdict::Win`] or [`Verdict::Loss`] as
    /// seen by the side to move at `root` when the answer is yes, otherwise
    /// [`Verdict::Unknown`] (no draw, no verdict about the other team).
    /// Cheaper than [`Solver::solve`], which asks about both teams and draws.
    pub fn forced_win(&mut self, root: &G::State, player: usize, max_depth: u32) -> Solution<G::Move> {
        let start = Instant::now();
        if G::result(root).is_some() || check::<G>(root).is_err() {
            return unsearched(Verdict::Unknown, start);
        }
        let ours = G::team(root, player) == G::team(root, G::to_move(root));
        let max_depth = max_depth.min(MAX_HORIZON);
        let plan = Plan { queries: [(player, Goal::Win); 2], len: 1, draw: None, max_depth };
        self.run(root, &plan, start, |w, sh| w.forced(sh, root, player, ours, max_depth))
    }

    /// Runs `decide` on the main thread (with the helpers beside it, if
    /// any), then finds the line of its decision.
    fn run(
        &mut self,
        root: &G::State,
        plan: &Plan,
        start: Instant,
        mut decide: impl FnMut(&mut Worker<G>, &Shared) -> Decision,
    ) -> Solution<G::Move> {
        let helpers = if self.spawner.is_some() { self.threads.get() - 1 } else { 0 };
        let sh = Shared {
            table: &self.table,
            stop: AtomicBool::new(false),
            helper_nodes: AtomicU64::new(0),
            main_depth: AtomicU32::new(0),
            helpers: helpers > 0,
            node_cap: self.node_cap,
            node_limit: self.node_limit,
            bounds: self.bounds,
            relax: self.relax,
        };
        let main = &mut self.main;
        main.nodes = 0;
        main.stopped = false;
        main.deadline = self.time_limit.map(|t| start + t);
        main.start = start;
        main.progress = self.progress.take();
        if let Some(shape) = main.shape.as_mut() {
            **shape = Shape::default();
        }
        let decision = match self.spawner {
            Some(spawn) if helpers > 0 => spawn(&sh, root, plan, helpers, &mut || decide(main, &sh)),
            _ => decide(main, &sh),
        };
        // The helpers are done: the line is the main thread's alone (its
        // searches are not part of the tree's shape).
        let shape = main.shape.take();
        let pv = match decision.line {
            Some((p, goal, d)) if self.line => main.line(&sh, root, p, goal, d),
            _ => Vec::new(),
        };
        main.shape = shape;
        main.deadline = None;
        self.progress = main.progress.take();
        Solution {
            verdict: decision.verdict,
            pv,
            depth: decision.depth,
            nodes: main.nodes + sh.helper_nodes.load(Relaxed),
            elapsed: start.elapsed(),
            timed_out: main.stopped,
        }
    }

    /// Whether later searches count the shape of the main thread's tree
    /// ([`Shape`]); off by default. The searches are the same either way.
    pub fn count_shape(&mut self, on: bool) {
        self.main.shape = on.then(Box::default);
    }

    /// The shape of the main thread's tree in the last search, where
    /// [`Solver::count_shape`] asked for it (the search that finds the
    /// line is left out). With helper threads it is the main thread's
    /// part only: the nodes it found answered in the table are not in it.
    pub fn shape(&self) -> Option<&Shape> {
        self.main.shape.as_deref()
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
}

impl<G: Solvable> Solver<G>
where
    G::State: Sync,
{
    /// Searches with `threads` threads (lazy SMP, see the module
    /// documentation): `threads - 1` helpers fill the shared table beside
    /// the main thread, whose answer is the search's. Verdicts are the same
    /// for every thread count; lines, node counts and times are not. 1, the
    /// default, starts no thread.
    pub fn set_threads(&mut self, threads: NonZeroUsize) {
        self.threads = threads;
        self.spawner = Some(with_helpers::<G>);
    }
}

impl<G: Solvable> Worker<G> {
    fn new(id: usize) -> Worker<G> {
        Worker {
            id,
            tie: (id as u16).wrapping_mul(0x9e37),
            nodes: 0,
            reported: 0,
            bufs: Vec::new(),
            scratch: Vec::new(),
            killers: Vec::new(),
            deadline: None,
            calls: 0,
            stopped: false,
            start: Instant::now(),
            progress: None,
            shape: None,
        }
    }

    /// The nodes of the search so far: this thread's and those the helpers reported.
    fn total_nodes(&self, sh: &Shared) -> u64 {
        self.nodes + if sh.helpers { sh.helper_nodes.load(Relaxed) } else { 0 }
    }

    /// [`Solver::solve`]'s horizons on the main thread.
    fn decide(&mut self, sh: &Shared, root: &G::State, me: usize, other: usize, max_depth: u32) -> Decision {
        let mut completed = 0;
        for d in 1..=max_depth {
            sh.main_depth.store(d, Relaxed);
            if self.ask(sh, root, me, Goal::Win, d) {
                return Decision { verdict: Verdict::Win(d), depth: d, line: Some((me, Goal::Win, d)) };
            }
            if self.stopped {
                break;
            }
            if self.ask(sh, root, other, Goal::Win, d) {
                return Decision { verdict: Verdict::Loss(d), depth: d, line: Some((other, Goal::Win, d)) };
            }
            if self.stopped {
                break;
            }
            completed = d;
            // A draw at horizon d holds at every larger horizon (each side
            // keeps forcing its draw): it is enough to look at small horizons
            // and at the last one.
            let last = d == max_depth || sh.node_limit.is_some_and(|n| self.total_nodes(sh) >= n);
            if (d <= 4 || last) && self.draw(sh, root, me, other, d) {
                let d = (1..=d).find(|&h| self.draw(sh, root, me, other, h)).unwrap_or(d);
                return Decision { verdict: Verdict::Draw(d), depth: d, line: Some((me, Goal::AtLeastDraw, d)) };
            }
            if last || self.stopped {
                break;
            }
        }
        Decision { verdict: Verdict::Unknown, depth: completed, line: None }
    }

    /// [`Solver::forced_win`]'s horizons on the main thread.
    fn forced(&mut self, sh: &Shared, root: &G::State, player: usize, ours: bool, max_depth: u32) -> Decision {
        let mut decision = Decision { verdict: Verdict::Unknown, depth: 0, line: None };
        for d in 1..=max_depth {
            sh.main_depth.store(d, Relaxed);
            if self.ask(sh, root, player, Goal::Win, d) {
                let verdict = if ours { Verdict::Win(d) } else { Verdict::Loss(d) };
                return Decision { verdict, depth: d, line: Some((player, Goal::Win, d)) };
            }
            if self.stopped {
                break;
            }
            decision.depth = d;
        }
        decision
    }

    /// A helper's search: the plan's questions ([`Plan::questions`], in
    /// the helper's own order) at horizons from the main thread's current
    /// one (one more for even helpers) up to the plan's last, until the stop
    /// flag; it answers nothing but what it leaves in the table.
    fn help(&mut self, sh: &Shared, root: &G::State, plan: &Plan) {
        let mut done = 0;
        while !sh.stop.load(Relaxed) {
            let ahead = sh.main_depth.load(Relaxed) + u32::from(self.id.is_multiple_of(2));
            let d = (done + 1).max(ahead).min(plan.max_depth);
            if d <= done {
                return;
            }
            for (player, goal) in plan.questions(d, self.id) {
                self.forces(sh, root, player, goal, d, 0);
                if self.stopped {
                    return;
                }
            }
            done = d;
        }
    }

    /// [`Self::forces`] at the root, on the main thread: the answer is
    /// also told to [`Solver::progress`].
    fn ask(&mut self, sh: &Shared, root: &G::State, player: usize, goal: Goal, depth: u32) -> bool {
        let answer = self.forces(sh, root, player, goal, depth, 0);
        let nodes = self.total_nodes(sh);
        if let Some(f) = self.progress.as_mut() {
            let answer = (!self.stopped).then_some(answer);
            f(&Asked { depth, player, goal, answer, nodes, elapsed: self.start.elapsed() });
        }
        answer
    }

    /// Whether both sides force at least a draw within `depth` plies.
    fn draw(&mut self, sh: &Shared, root: &G::State, me: usize, other: usize, depth: u32) -> bool {
        let other_holds = self.ask(sh, root, other, Goal::AtLeastDraw, depth);
        if !other_holds || self.stopped {
            return false;
        }
        let me_holds = self.ask(sh, root, me, Goal::AtLeastDraw, depth);
        me_holds && !self.stopped
    }

    /// A look now and then: the main thread at the clock; a helper reports
    /// its nodes and looks at the stop flag.
    #[cold]
    fn look(&mut self, sh: &Shared) {
        if self.id > 0 {
            sh.helper_nodes.fetch_add(self.nodes - self.reported, Relaxed);
            self.reported = self.nodes;
            if sh.stop.load(Relaxed) {
                self.stopped = true;
            }
        } else if self.deadline.is_some_and(|t| Instant::now() >= t) {
            self.stopped = true;
        }
    }

    /// Whether `player` can force the game to end within `depth` plies with
    /// `goal` reached, whatever the others do. After a stop the answer means
    /// nothing (and nothing is stored).
    fn forces(&mut self, sh: &Shared, s: &G::State, player: usize, goal: Goal, depth: u32, ply: usize) -> bool {
        // One state per ply for the children (more if ever needed, see `forces_at`).
        let stack = &mut vec![s.clone(); depth as usize];
        // The relaxation first; its answer where it holds for the game.
        if ply == 0
            && sh.relax
            && G::result(s).is_none()
            && let Some(r) = G::relaxed(s, player, goal)
        {
            let yes = self.forces_at(sh, &r.state, player, goal, depth, ply, stack);
            if self.stopped || yes == (r.keeps == Keeps::Yeses) {
                return yes;
            }
        }
        self.forces_at(sh, s, player, goal, depth, ply, stack)
    }

    /// [`Self::forces`], the children of this ply made in the first state
    /// of `stack` ([`Game::apply_into`]), theirs in the rest.
    // The shared part, the question, the ply and the children's states are
    // the recursion's own arguments.
    #[allow(clippy::too_many_arguments)]
    fn forces_at(
        &mut self,
        sh: &Shared,
        s: &G::State,
        player: usize,
        goal: Goal,
        depth: u32,
        ply: usize,
        stack: &mut [G::State],
    ) -> bool {
        self.nodes += 1;
        // The question as the game asks it most plainly (the same answer),
        // so that the table's facts for one depth serve every depth that
        // is the same question; never deeper, so `stack` is deep enough.
        let (goal, depth) = G::same_question(s, player, goal, depth);
        // One key per (state, player, goal): the query picks one of eight salts.
        let query = (player << 1 | (goal == Goal::Win) as usize) & 7;
        let key = G::hash(s) ^ QUERY_SALT[query];
        let tabled = depth >= G::TABLE_DEPTH.max(2);
        if tabled {
            sh.table.prefetch(key);
        }
        // Before the result, which may cost a move generation (block): the
        // bound is 0 where the game is over with the goal reached.
        if sh.bounds && G::min_plies(s, player, goal) > depth {
            return false;
        }
        if let Some(r) = G::result(s) {
            return reaches::<G>(s, &r, player, goal);
        }
        if depth == 0 {
            return false;
        }
        if self.id > 0 {
            self.calls += 1;
            if self.calls.is_multiple_of(HELPER_CHECK) {
                self.look(sh);
            }
        } else if self.deadline.is_some() {
            self.calls += 1;
            if self.calls.is_multiple_of(1024) {
                self.look(sh);
            }
        }
        if self.id == 0 && sh.node_cap.is_some_and(|cap| self.total_nodes(sh) >= cap) {
            self.stopped = true;
        }
        if self.stopped {
            return false;
        }
        let mine = chooses::<G>(s, player);
        // A win at once for the side to move: the player's goal is reached
        // if it is the player's team, and can no longer be otherwise.
        if !G::is_chance(s) && G::wins_at_once(s) {
            return mine;
        }
        if depth == 1 {
            return self.last_ply(s, player, goal, mine);
        }
        let mut first = 0;
        if !tabled {
        } else if let Some(e) = sh.table.get(key) {
            if e.proven != 0 && e.proven as u32 <= depth {
                return true;
            }
            if e.disproven as u32 >= depth {
                return false;
            }
            first = e.mv;
        }
        if first == 0 && tabled && G::OTHER_GOAL {
            // The same player's other goal at this node: a win implies at
            // least a draw, so a win proven within `depth` proves this
            // draw goal, and a draw disproven disproves this win; its move
            // (what decided it) is a good first try.
            if let Some(e) = sh.table.get(key ^ QUERY_SALT[query] ^ QUERY_SALT[query ^ 1]) {
                match goal {
                    Goal::AtLeastDraw if e.proven != 0 && e.proven as u32 <= depth => return true,
                    Goal::Win if e.disproven as u32 >= depth => return false,
                    _ => {}
                }
                first = e.mv;
            }
        }
        while self.bufs.len() <= ply {
            self.bufs.push(Vec::new());
            self.killers.push([None; 2]);
        }
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        successors::<G>(s, &mut self.scratch);
        moves.clear();
        // The moves worth trying: those left out lose at once for their
        // mover, which changes no answer here, two plies or more from the
        // horizon (see `Solvable::moves_to_try`). Indices stay those of the
        // whole list, so a stored move means the same move either way.
        let keep = if G::is_chance(s) { u64::MAX } else { G::moves_to_try(s, &self.scratch) };
        // The move that decided this node before, then the moves that decided
        // its siblings (killers), then the game's order (moves that score
        // first).
        let killers = if G::KILLERS { self.killers[ply] } else { [None; 2] };
        let order = |i: u16, m: G::Move| {
            if i == first {
                i32::MAX
            } else if killers[0] == Some(m) {
                i32::MAX - 1
            } else if killers[1] == Some(m) {
                i32::MAX - 2
            } else {
                G::priority(s, m)
            }
        };
        // Odd helpers walk the choosing side's nodes near the root
        // ([`SPLIT_PLIES`]) backwards, worst move first (see below).
        let backwards = self.id % 2 == 1 && mine && ply < SPLIT_PLIES;
        let tried_first = |i: usize| i + 1 == first as usize && (i >= 64 || keep >> i & 1 != 0);
        // Where the move that decided this node before is tried first (and
        // often decides it again), the others' order is asked only if it
        // does not: the same order, fewer calls of the game's priority.
        let lazy = first != 0 && !backwards && (0..self.scratch.len()).any(tried_first);
        moves.extend(self.scratch.iter().enumerate().filter(|&(i, _)| i >= 64 || keep >> i & 1 != 0).map(|(i, &m)| {
            let i = i as u16 + 1;
            let o = if !lazy {
                order(i, m)
            } else if i == first {
                i32::MAX
            } else {
                i32::MIN
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
        let mut tried = moves.len();
        // In the order of a sort by (order, index), larger order and smaller
        // index first (the indices are distinct, so the order is total): the
        // first few picked one by one (a node often stops after one or two),
        // the rest sorted only when it is reached. A helper XORs the indices
        // with its `tie` (still distinct): equal moves in its own order.
        //
        // Odd helpers walk the choosing side's nodes near the root
        // ([`SPLIT_PLIES`]) backwards, worst move first: where every move
        // must be refuted (no proof), the main thread and the helper then
        // start at the two ends of the list and share the work, each
        // finding the other's moves in the table where they meet.
        let tie = self.tie;
        let rank = |&(o, i, _): &(i32, u16, G::Move)| {
            if backwards { (i64::from(o), !i) } else { (-i64::from(o), i ^ tie) }
        };
        for k in 0..moves.len() {
            if lazy && k == 1 {
                for e in &mut moves[1..] {
                    e.0 = order(e.1, e.2);
                }
            }
            if k < PICKED {
                if let Some(top) = (k..moves.len()).min_by_key(|&j| rank(&moves[j])) {
                    moves.swap(k, top);
                }
            } else if k == PICKED {
                moves[PICKED..].sort_unstable_by_key(rank);
            }
            let (_, i, m) = moves[k];
            G::apply_into(s, m, child);
            let v = self.forces_at(sh, child, player, goal, depth - 1, ply + 1, rest);
            if self.stopped {
                break;
            }
            if v == mine {
                result = mine;
                best = i;
                tried = k + 1;
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
        if let Some(shape) = self.shape.as_mut() {
            shape.count(depth, mine, result == mine, tried);
        }
        let d = depth as u8;
        if !tabled {
            return result;
        }
        sh.table.update(key, |e| {
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
        });
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
    fn line(&mut self, sh: &Shared, root: &G::State, player: usize, goal: Goal, depth: u32) -> Vec<G::Move> {
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
                let first = sh.table.get(G::hash(&s) ^ QUERY_SALT[query]).map_or(0, |e| e.mv as usize);
                if first >= 1 && first <= moves.len() {
                    moves.swap(0, first - 1);
                }
                let Some(m) =
                    moves.iter().copied().find(|&m| self.forces(sh, &G::apply(&s, m), player, goal, left - 1, 0))
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
                    .find(|&m| left < 2 || !self.forces(sh, &G::apply(&s, m), player, goal, left - 2, 0));
                let (need, m) = match longest {
                    Some(m) => (left - 1, m),
                    None => {
                        let mut pick = None;
                        for &m in &moves {
                            let child = G::apply(&s, m);
                            let need = (0..left).find(|&d| self.forces(sh, &child, player, goal, d, 0)).unwrap_or(left);
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

#[cfg(test)]
mod tests {
    use super::{BUCKET, Entry, Goal, Plan, SharedTable};

    #[test]
    fn each_thread_starts_on_another_question() {
        let plan = Plan {
            queries: [(0, Goal::Win), (1, Goal::Win)],
            len: 2,
            draw: Some((1, Goal::AtLeastDraw)),
            max_depth: 5,
        };
        let (w0, w1, d1) = ((0, Goal::Win), (1, Goal::Win), (1, Goal::AtLeastDraw));
        assert_eq!(plan.questions(3, 0), [w0, w1], "the main thread's order");
        assert_eq!(plan.questions(3, 1), [w1, w0]);
        assert_eq!(plan.questions(5, 0), [w0, w1, d1], "the first draw question at the last horizon");
        assert_eq!(plan.questions(5, 1), [w1, d1, w0]);
        assert_eq!(plan.questions(5, 5), [d1, w0, w1]);
        let one = Plan { queries: [w1; 2], len: 1, draw: None, max_depth: 5 };
        assert_eq!(one.questions(5, 3), [w1]);
    }

    /// `n` keys of one bucket of `t` (the bucket of key 0).
    fn same_bucket(t: &SharedTable, n: usize) -> Vec<u64> {
        let home = t.bucket(0) as *const _;
        (1u64..).map(|k| k << 40).filter(|&k| std::ptr::eq(t.bucket(k), home)).take(n).collect()
    }

    #[test]
    fn shared_table_stores_and_probes() {
        let t = SharedTable::new(1).expect("a 1 MB table");
        assert!(t.get(7).is_none(), "empty");
        t.update(7, |e| e.proven = 5);
        assert_eq!(t.get(7), Some(Entry { key: 7, proven: 5, disproven: 0, mv: 0 }));
        // An update merges with what is there.
        t.update(7, |e| {
            e.disproven = 3;
            e.mv = 2;
        });
        assert_eq!(t.get(7), Some(Entry { key: 7, proven: 5, disproven: 3, mv: 2 }));
        assert!(t.get(8).is_none());
        // An update that proves nothing stores nothing.
        t.update(9, |e| e.mv = 1);
        assert!(t.get(9).is_none());
    }

    #[test]
    fn shared_table_replaces_the_entry_worth_least() {
        let t = SharedTable::new(1).expect("a 1 MB table");
        let keys = same_bucket(&t, BUCKET + 1);
        for (i, &k) in keys[..BUCKET].iter().enumerate() {
            t.update(k, |e| e.disproven = 10 + i as u8);
        }
        assert!(keys[..BUCKET].iter().all(|&k| t.get(k).is_some()));
        t.update(keys[BUCKET], |e| e.proven = 50);
        assert!(t.get(keys[0]).is_none(), "the cheapest fact went");
        assert!(keys[1..].iter().all(|&k| t.get(k).is_some()));
    }

    #[test]
    fn shared_table_rejects_torn_entries() {
        let t = SharedTable::new(1).expect("a 1 MB table");
        let keys = same_bucket(&t, 2);
        let (a, b) = (
            Entry { key: keys[0], proven: 4, ..Entry::default() },
            Entry { key: keys[1], disproven: 9, mv: 3, ..Entry::default() },
        );
        // The slot holds a's first word and b's second: neither key reads.
        t.bucket(a.key).0[0].store_words(a.key ^ a.pack(), b.pack());
        assert!(t.get(a.key).is_none());
        assert!(t.get(b.key).is_none());
        t.bucket(a.key).0[0].store(a.key, a.pack());
        assert_eq!(t.get(a.key), Some(a));
    }

    /// Threads writing different entries of one key as fast as they can:
    /// every read is one of the entries written, never a mix.
    #[test]
    fn shared_table_reads_whole_entries_under_concurrent_writes() {
        let t = SharedTable::new(1).expect("a 1 MB table");
        let key = 0x0123_4567_89ab_cdef;
        let written: Vec<Entry> =
            (1..=4u8).map(|i| Entry { key, proven: i, disproven: 100 + i, mv: 1000 + i as u16 }).collect();
        std::thread::scope(|scope| {
            for e in &written {
                let t = &t;
                scope.spawn(move || {
                    for _ in 0..20_000 {
                        t.bucket(key).0[0].store(key, e.pack());
                    }
                });
            }
            for _ in 0..20_000 {
                if let Some(got) = t.get(key) {
                    assert!(written.contains(&got), "{got:?}");
                }
            }
        });
    }
}
