//! Legal move generation, counting, picking and checking: the single
//! encoding of the rules of movement.
//!
//! Moves come out as dense sets (one die or agent–target pair with a
//! bitboard of destinations or a set of faces), in the manner of
//! cozy-chess. The sets of a play position are gathered once, in
//! [`PlayMoves`]; everything else is a view of them: [`Position::generate`]
//! walks them in generation order (the order of [`Position::legal_moves`]),
//! counting sums their sizes ([`Position::count_moves`], popcounts, never
//! enumerating), the `k`-th move walks their sizes in index order
//! ([`PlayMoves::nth`], [`nth_move`]), and [`Position::check`] is membership
//! in them (the typed reason of a refusal is diagnosed afterwards, for the
//! message only). This module reads positions; it never changes one, never
//! draws randomness and never returns a move that is not legal.

use crate::board::{Bitboard, Cell, Row};
use crate::dice::{Colour, Die, Face, FaceSet, Side, Symbol};
use crate::moves::{Dest, Move, MoveKind};
use crate::position::{DieSet, FLIP_TO, Phase, Position, TURN_COUNT, TURN_FACES};
use std::fmt;

/// A dense set of legal moves that share their mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveSet {
    /// Draft: give any of these dice.
    Give(DieSet),
    /// Draft: place `die` on any of `cells` with any of `faces`.
    Place {
        /// The die to place.
        die: Die,
        /// Free cells.
        cells: Bitboard,
        /// Its distinct top faces.
        faces: FaceSet,
    },
    /// Move the die on `from` to any of `to`.
    Shift {
        /// The die's cell.
        from: Cell,
        /// Free cells of its row.
        to: Bitboard,
    },
    /// `agent` flips `target`.
    Flip {
        /// The triangle.
        agent: Cell,
        /// Its neighbour.
        target: Cell,
    },
    /// `agent` pushes `target` to any of `to`, or through the door if `door`.
    Push {
        /// The square.
        agent: Cell,
        /// Its neighbour.
        target: Cell,
        /// Destination cells (other rows).
        to: Bitboard,
        /// Whether the door is a destination (target in row I).
        door: bool,
    },
    /// `agent` turns `target` to any of `faces`.
    Turn {
        /// The circle.
        agent: Cell,
        /// Its neighbour.
        target: Cell,
        /// New top faces.
        faces: FaceSet,
    },
    /// After the draft (`swap=yes`): `keep`, then `swap`.
    Decide,
}

impl MoveSet {
    /// Number of moves in the set.
    #[inline]
    pub fn len(&self) -> usize {
        (match *self {
            MoveSet::Give(d) => d.len(),
            MoveSet::Place { cells, faces, .. } => cells.len() * faces.len(),
            MoveSet::Shift { to, .. } => to.len(),
            MoveSet::Flip { .. } => 1,
            MoveSet::Push { to, door, .. } => to.len() + door as u32,
            MoveSet::Turn { faces, .. } => faces.len(),
            MoveSet::Decide => 2,
        }) as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` on each move of the set, in the set's order (the order of
    /// [`MoveSet::nth`]).
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(Move)) {
        match *self {
            MoveSet::Give(dice) => dice.iter().for_each(|d| f(Move::give(d))),
            MoveSet::Place { die, cells, faces } => {
                for c in cells {
                    faces.iter().for_each(|face| f(Move::place(die, c, face)));
                }
            }
            MoveSet::Shift { from, to } => to.for_each(|t| f(Move::shift(from, t))),
            MoveSet::Flip { agent, target } => f(Move::flip(agent, target)),
            MoveSet::Push { agent, target, to, door } => {
                to.for_each(|t| f(Move::push(agent, target, Dest::Cell(t))));
                if door {
                    f(Move::push(agent, target, Dest::Door));
                }
            }
            MoveSet::Turn { agent, target, faces } => faces.iter().for_each(|face| f(Move::turn(agent, target, face))),
            MoveSet::Decide => {
                f(Move::decide(false));
                f(Move::decide(true));
            }
        }
    }

    /// The `k`-th move of the set in its own order (that of
    /// [`MoveSet::for_each`]), found by arithmetic; `None` if `k >= len()`.
    #[inline]
    pub fn nth(&self, k: usize) -> Option<Move> {
        match *self {
            MoveSet::Give(dice) => {
                if k >= dice.len() as usize {
                    return None;
                }
                Die::new(select(u64::from(dice.0), k) as u8).map(Move::give)
            }
            MoveSet::Place { die, cells, faces } => {
                let nf = faces.len() as usize;
                if nf == 0 {
                    return None;
                }
                Some(Move::place(die, nth_cell(cells, k / nf)?, nth_face(faces, k % nf)?))
            }
            MoveSet::Shift { from, to } => Some(Move::shift(from, nth_cell(to, k)?)),
            MoveSet::Flip { agent, target } => (k == 0).then(|| Move::flip(agent, target)),
            MoveSet::Push { agent, target, to, door } => {
                let n = to.len() as usize;
                if k < n {
                    Some(Move::push(agent, target, Dest::Cell(nth_cell(to, k)?)))
                } else {
                    (door && k == n).then(|| Move::push(agent, target, Dest::Door))
                }
            }
            MoveSet::Turn { agent, target, faces } => Some(Move::turn(agent, target, nth_face(faces, k)?)),
            MoveSet::Decide => (k < 2).then(|| Move::decide(k == 1)),
        }
    }

    /// Whether `m` is one of the set's moves.
    #[inline]
    pub fn contains(&self, m: Move) -> bool {
        match (*self, m.kind()) {
            (MoveSet::Give(dice), MoveKind::Give(d)) => dice.contains(d),
            (MoveSet::Place { die, cells, faces }, MoveKind::Place(d, c, f)) => {
                die == d && cells.contains(c) && faces.contains(f)
            }
            (MoveSet::Shift { from, to }, MoveKind::Shift { from: f, to: t }) => from == f && to.contains(t),
            (MoveSet::Flip { agent, target }, MoveKind::Flip { agent: a, target: t }) => agent == a && target == t,
            (MoveSet::Push { agent, target, to, door }, MoveKind::Push { agent: a, target: t, to: d }) => {
                agent == a
                    && target == t
                    && match d {
                        Dest::Door => door,
                        Dest::Cell(c) => to.contains(c),
                    }
            }
            (MoveSet::Turn { agent, target, faces }, MoveKind::Turn { agent: a, target: t, face }) => {
                agent == a && target == t && faces.contains(face)
            }
            (MoveSet::Decide, MoveKind::Keep | MoveKind::Swap) => true,
            _ => false,
        }
    }
}

/// The cell of the `k`-th set bit of `b`, `None` if `k >= b.len()`.
#[inline]
fn nth_cell(b: Bitboard, k: usize) -> Option<Cell> {
    if k >= b.len() as usize {
        return None;
    }
    Cell::from_index(select(u64::from(b.0), k) as u8)
}

/// The index of the `k`-th set bit of `bits` (`k` below its popcount): one
/// `pdep` instruction where BMI2 is on (x86-64-v3, see `.cargo/config.toml`),
/// else clearing the lowest bits one by one.
#[inline(always)]
fn select(bits: u64, k: usize) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the instruction is available: the build targets BMI2.
        unsafe { std::arch::x86_64::_pdep_u64(1u64 << k, bits).trailing_zeros() }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let mut bits = bits;
        for _ in 0..k {
            bits &= bits - 1;
        }
        bits.trailing_zeros()
    }
}

/// The `k`-th face of a face set, `None` if `k >= f.len()`.
#[inline]
fn nth_face(f: FaceSet, k: usize) -> Option<Face> {
    if k >= f.len() as usize {
        return None;
    }
    Face::new(select(u64::from(f.0), k) as u8)
}

/// A neighbour of `c` in its row: `-1` left, `+1` right (`None` off the row's end).
#[inline]
fn beside(c: Cell, d: i8) -> Option<Cell> {
    let n = if d < 0 { c.bb().left() } else { c.bb().right() };
    n.first()
}

/// Capacity of a [`MoveList`]: more than any position can have.
pub const MAX_MOVES: usize = 512;

/// A fixed-capacity list of moves, filled without allocating.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList { len: 0, moves: [Move::give(Die::from_raw(1)); MAX_MOVES] }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

/// The die kinds the giver may give: one move for the identical dice 1 and 2.
#[inline]
fn giveable(reserve: DieSet) -> DieSet {
    if reserve.0 & 0b10 != 0 { DieSet(reserve.0 & !0b100) } else { reserve }
}

/// The three rows, in order S, M, I.
const ROWS: [Bitboard; 3] = [Bitboard::ROW_S, Bitboard::ROW_M, Bitboard::ROW_I];

/// The dense sets of legal moves of a play position, gathered once in a few
/// bitboard operations: the single encoding of the rules of movement.
///
/// Two orders walk them. Generation order ([`PlayMoves::generate`], used by
/// [`Position::generate`] and [`Position::legal_moves`]): all shifts by
/// cell, then agent by agent the flips, pushes or turns of its targets.
/// Index order ([`PlayMoves::nth`], [`PlayMoves::for_each`]): shifts by
/// row, flips of targets right of their agent then left of it, pushes by
/// target row and then right/left, turns right then left. Both walk the same
/// sets; index order lets the `k`-th move be found by arithmetic on the
/// counts. Empty (no move) when the position is over by majority or closure,
/// or is not a play position.
#[derive(Clone, Copy, Debug)]
pub struct PlayMoves<'a> {
    p: &'a Position,
    /// Dice that may move or act: showing the mover's colour, not restricted.
    own: Bitboard,
    /// Free cells.
    free: Bitboard,
    /// The triangles of `own` (flip agents).
    tri: Bitboard,
    /// The squares of `own` (push agents).
    sq: Bitboard,
    /// Flippable targets right of their agent, left of it.
    flips: [Bitboard; 2],
    /// Push targets right of their agent, left of it.
    pushes: [Bitboard; 2],
    /// Push destinations per target row (S, M, I); row I also has the door.
    land: [Bitboard; 3],
    /// Turn targets right of their agent, left of it (some may have no face to turn to).
    turns: [Bitboard; 2],
}

impl<'a> PlayMoves<'a> {
    /// Gathers the move sets of `p` (none if it is not in play, or is over
    /// by majority or closure).
    #[inline(always)]
    pub fn new(p: &'a Position) -> PlayMoves<'a> {
        let e = Bitboard::EMPTY;
        if !p.is_play() || p.is_over_by_rule() {
            return PlayMoves {
                p,
                own: e,
                free: e,
                tri: e,
                sq: e,
                flips: [e; 2],
                pushes: [e; 2],
                land: [e; 3],
                turns: [e; 2],
            };
        }
        let pl = p.planes();
        let occ = Bitboard(pl.sym0 | pl.sym1);
        let restricted = p.restricted();
        // Occupied and not restricted: may be a target or be dislodged.
        let avail = Bitboard(occ.0 & !restricted.0);
        let mine = match p.side_to_move() {
            Side::Red => pl.red,
            Side::Blue => pl.blue,
        };
        let own = Bitboard(mine & !restricted.0);
        let free = !occ;
        let tri = own & Bitboard(pl.sym0 & !pl.sym1);
        let sq = own & Bitboard(pl.sym1 & !pl.sym0);
        let circ = own & Bitboard(pl.sym0 & pl.sym1);
        // Flips: coloured targets always, white ones when the flip shows a colour.
        let white = Bitboard(occ.0 & !(pl.red | pl.blue));
        let flippable = |targets: Bitboard| {
            let mut ok = targets & !white;
            for c in targets & white {
                if FLIP_TO[p.dc(c.index())] != 0 {
                    ok |= c.bb();
                }
            }
            ok
        };
        let (fr, fl) = (tri.right() & avail, tri.left() & avail);
        let ok = flippable(fr | fl);
        // Pushes land on a row's free cells, or on its available dice when it is full.
        let landing = |r: Bitboard| {
            let f = free & r;
            if f.is_empty() { avail & r } else { f }
        };
        let (ls, lm, li) = (landing(ROWS[0]), landing(ROWS[1]), landing(ROWS[2]));
        PlayMoves {
            p,
            own,
            free,
            tri,
            sq,
            flips: [fr & ok, fl & ok],
            pushes: [sq.right() & avail, sq.left() & avail],
            land: [lm, ls | li, lm],
            turns: [circ.right() & avail, circ.left() & avail],
        }
    }

    /// The number of destinations of a push of a target in row `r` (0 S, 1 M, 2 I).
    #[inline]
    fn push_dests(&self, r: usize) -> usize {
        self.land[r].len() as usize + (r == 2) as usize
    }

    /// The number of legal moves: the sum of the sets' sizes, by popcounts.
    #[inline(always)]
    pub fn len(&self) -> usize {
        let mut n = 0;
        for (i, r) in ROWS.into_iter().enumerate() {
            n += ((self.own & r).len() * (self.free & r).len()) as usize;
            n += ((self.pushes[0] & r).len() + (self.pushes[1] & r).len()) as usize * self.push_dests(i);
        }
        n += (self.flips[0].len() + self.flips[1].len()) as usize;
        let twice = self.turns[0] & self.turns[1];
        for t in self.turns[0] | self.turns[1] {
            n += (TURN_COUNT[self.p.dc(t.index())] as usize) << twice.contains(t) as u32;
        }
        n
    }

    /// Whether there is no legal move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The targets of `agent` in a pair of (right of agent, left of agent) sets, in cell order.
    #[inline]
    fn targets_of(agent: Cell, sets: [Bitboard; 2]) -> Bitboard {
        (agent.bb().right() & sets[0]) | (agent.bb().left() & sets[1])
    }

    /// The push set of `agent` and `target`.
    #[inline]
    fn push_set(&self, agent: Cell, target: Cell) -> MoveSet {
        let r = target.row() as usize;
        MoveSet::Push { agent, target, to: self.land[r], door: r == 2 }
    }

    /// The turn set of `agent` and `target`.
    #[inline]
    fn turn_set(&self, agent: Cell, target: Cell) -> MoveSet {
        MoveSet::Turn { agent, target, faces: FaceSet(TURN_FACES[self.p.dc(target.index())]) }
    }

    /// Calls `f` with every non-empty set in generation order; stops early
    /// and returns `true` as soon as `f` returns `true`.
    #[inline(always)]
    pub fn generate(&self, mut f: impl FnMut(MoveSet) -> bool) -> bool {
        for from in self.own {
            let to = self.free & from.row().cells();
            if !to.is_empty() && f(MoveSet::Shift { from, to }) {
                return true;
            }
        }
        for agent in self.own {
            if self.tri.contains(agent) {
                for target in Self::targets_of(agent, self.flips) {
                    if f(MoveSet::Flip { agent, target }) {
                        return true;
                    }
                }
            } else if self.sq.contains(agent) {
                for target in Self::targets_of(agent, self.pushes) {
                    let set = self.push_set(agent, target);
                    if !set.is_empty() && f(set) {
                        return true;
                    }
                }
            } else {
                for target in Self::targets_of(agent, self.turns) {
                    let set = self.turn_set(agent, target);
                    if !set.is_empty() && f(set) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Calls `f` with every non-empty set in index order (the order of
    /// [`PlayMoves::nth`]); stops early and returns `true` as soon as `f`
    /// returns `true`.
    pub fn for_each_set(&self, mut f: impl FnMut(MoveSet) -> bool) -> bool {
        for r in ROWS {
            let to = self.free & r;
            if to.is_empty() {
                continue;
            }
            for from in self.own & r {
                if f(MoveSet::Shift { from, to }) {
                    return true;
                }
            }
        }
        for (side, d) in [(0, -1), (1, 1)] {
            for target in self.flips[side] {
                let agent = beside(target, d).expect("a flip target has its agent beside it");
                if f(MoveSet::Flip { agent, target }) {
                    return true;
                }
            }
        }
        for r in ROWS {
            for (side, d) in [(0, -1), (1, 1)] {
                for target in self.pushes[side] & r {
                    let agent = beside(target, d).expect("a push target has its agent beside it");
                    let set = self.push_set(agent, target);
                    if !set.is_empty() && f(set) {
                        return true;
                    }
                }
            }
        }
        for (side, d) in [(0, -1), (1, 1)] {
            for target in self.turns[side] {
                let agent = beside(target, d).expect("a turn target has its agent beside it");
                let set = self.turn_set(agent, target);
                if !set.is_empty() && f(set) {
                    return true;
                }
            }
        }
        false
    }

    /// Calls `f` on every move in index order: `f` sees the move of index
    /// 0, 1, … as [`PlayMoves::nth`] numbers them.
    pub fn for_each(&self, mut f: impl FnMut(Move)) {
        self.for_each_set(|set| {
            set.for_each(&mut f);
            false
        });
    }

    /// The `k`-th move in index order, `None` if `k >= len()`: walks the
    /// sets' sizes, skipping whole groups of equal-sized sets by arithmetic.
    #[inline]
    pub fn nth(&self, mut k: usize) -> Option<Move> {
        // Shifts, row by row: own dice of the row times its free cells.
        for r in ROWS {
            let (from, to) = (self.own & r, self.free & r);
            let b = to.len() as usize;
            let n = from.len() as usize * b;
            if k < n {
                return MoveSet::Shift { from: nth_cell(from, k / b)?, to }.nth(k % b);
            }
            k -= n;
        }
        // Flips: one move per target.
        for (side, d) in [(0, -1), (1, 1)] {
            let n = self.flips[side].len() as usize;
            if k < n {
                let target = nth_cell(self.flips[side], k)?;
                return Some(Move::flip(beside(target, d)?, target));
            }
            k -= n;
        }
        // Pushes, by target row then side: targets times the row's destinations.
        for (i, r) in ROWS.into_iter().enumerate() {
            let nd = self.push_dests(i);
            for (side, d) in [(0, -1), (1, 1)] {
                let targets = self.pushes[side] & r;
                let n = targets.len() as usize * nd;
                if k < n {
                    let target = nth_cell(targets, k / nd)?;
                    return self.push_set(beside(target, d)?, target).nth(k % nd);
                }
                k -= n;
            }
        }
        // Turns: target by target.
        for (side, d) in [(0, -1), (1, 1)] {
            for target in self.turns[side] {
                let n = TURN_COUNT[self.p.dc(target.index())] as usize;
                if k < n {
                    return self.turn_set(beside(target, d)?, target).nth(k);
                }
                k -= n;
            }
        }
        None
    }

    /// Calls `f` on every push, the only moves that can send a die through
    /// the door (to it, or ejected from a full row I), in index order.
    pub fn for_each_push(&self, mut f: impl FnMut(Move)) {
        for r in ROWS {
            for (side, d) in [(0, -1), (1, 1)] {
                for target in self.pushes[side] & r {
                    if let Some(agent) = beside(target, d) {
                        self.push_set(agent, target).for_each(&mut f);
                    }
                }
            }
        }
    }

    /// Whether `m` is one of the legal moves: membership in the sets, a few bit tests.
    #[inline]
    pub fn contains(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::Shift { from, to } => self.own.contains(from) && from.row() == to.row() && self.free.contains(to),
            MoveKind::Flip { agent, target } => {
                self.tri.contains(agent) && Self::targets_of(agent, self.flips).contains(target)
            }
            MoveKind::Push { agent, target, .. } => {
                self.sq.contains(agent)
                    && Self::targets_of(agent, self.pushes).contains(target)
                    && self.push_set(agent, target).contains(m)
            }
            MoveKind::Turn { agent, target, .. } => {
                self.own.contains(agent)
                    && !self.tri.contains(agent)
                    && !self.sq.contains(agent)
                    && Self::targets_of(agent, self.turns).contains(target)
                    && self.turn_set(agent, target).contains(m)
            }
            MoveKind::Give(_) | MoveKind::Place(..) | MoveKind::Keep | MoveKind::Swap => false,
        }
    }
}

impl Position {
    /// The single move set of the draft, or of the decision after it
    /// (`None` in play, or if the draft has no move).
    #[inline]
    fn draft_set(&self) -> Option<MoveSet> {
        if self.is_over_by_rule() {
            return None;
        }
        match self.phase() {
            Phase::Give => {
                let g = giveable(self.reserve());
                (!g.is_empty()).then_some(MoveSet::Give(g))
            }
            Phase::Place(die) => Some(MoveSet::Place { die, cells: !self.occupied(), faces: die.placements() }),
            Phase::Decide => Some(MoveSet::Decide),
            Phase::Play => None,
        }
    }

    /// Calls `f` with every dense set of legal moves, in generation order;
    /// stops early and returns `true` as soon as `f` returns `true`. A
    /// finished game (majority or closure) has no legal move.
    #[inline]
    pub fn generate(&self, mut f: impl FnMut(MoveSet) -> bool) -> bool {
        if self.is_play() {
            PlayMoves::new(self).generate(f)
        } else {
            self.draft_set().is_some_and(|set| !set.is_empty() && f(set))
        }
    }

    /// The number of legal moves: the sum of the generated sets' sizes,
    /// counted without enumerating them.
    #[inline(always)]
    pub fn count_moves(&self) -> usize {
        if self.is_play() { PlayMoves::new(self).len() } else { self.draft_set().map_or(0, |s| s.len()) }
    }

    /// All legal moves, in generation order.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(|set| {
            set.for_each(|m| list.push(m));
            false
        });
        list
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_moves(&self) -> bool {
        self.generate(|_| true)
    }

    /// Whether `m` is legal here: membership in the generated sets.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        if self.is_play() {
            PlayMoves::new(self).contains(m)
        } else {
            self.draft_set().is_some_and(|set| set.contains(m))
        }
    }

    /// Whether `m` is legal here, and if not, why. The decision is
    /// [`Position::is_legal`] (membership in the generated sets); the reason
    /// of a refusal is diagnosed afterwards, for the message.
    pub fn check(&self, m: Move) -> Result<(), Illegal> {
        if self.is_legal(m) { Ok(()) } else { Err(self.diagnose(m)) }
    }

    /// Why `m`, which the generator does not list, is illegal.
    fn diagnose(&self, m: Move) -> Illegal {
        use Illegal::*;
        if let Some(side) = self.majority() {
            return GameOver(format!("{side} has a majority"));
        }
        if self.clock() >= self.closure() {
            return GameOver(format!("the clock reached {}", self.closure()));
        }
        let kind = m.kind();
        match (self.phase(), kind) {
            (Phase::Give, MoveKind::Give(d)) => {
                return if !self.reserve().contains(d) { NotInReserve(d) } else { IdenticalDice };
            }
            (Phase::Place(p), MoveKind::Place(d, c, f)) => {
                if p != d {
                    return WrongDie { given: p, named: d };
                }
                if self.occupied().contains(c) {
                    return Occupied(c);
                }
                return NotCanonical(f);
            }
            (Phase::Give, _) => return WrongPhase("the draft: a die must be given"),
            (Phase::Place(_), _) => return WrongPhase("the draft: the given die must be placed"),
            (Phase::Decide, _) => return WrongPhase("after the draft: the player to move must keep or swap"),
            (Phase::Play, MoveKind::Keep | MoveKind::Swap) => {
                return WrongPhase("play: keep and swap are the decision after the draft, under swap=yes");
            }
            (Phase::Play, MoveKind::Give(_) | MoveKind::Place(..)) => {
                return WrongPhase("play: the draft is over");
            }
            _ => {}
        }
        match self.diagnose_play(kind) {
            Err(why) => why,
            Ok(()) => NotGenerated,
        }
    }

    /// The first rule a play move breaks (`Ok` if none is found).
    fn diagnose_play(&self, kind: MoveKind) -> Result<(), Illegal> {
        use Illegal::*;
        let me = self.side_to_move();
        let restricted = self.restricted();
        let mine = |c: Cell| -> Result<(), Illegal> {
            match self.colour_at(c) {
                None => Err(Empty(c)),
                _ if restricted.contains(c) => Err(Restricted(c)),
                Some(col) if col.side() == Some(me) => Ok(()),
                Some(col) => Err(NotOwn(c, col)),
            }
        };
        let target_ok = |agent: Cell, target: Cell, symbol: Symbol| -> Result<(Die, Face), Illegal> {
            mine(agent)?;
            let (_, af) = self.piece_at(agent).ok_or(Empty(agent))?;
            if af.symbol() != symbol {
                return Err(WrongSymbol(agent, af.symbol(), symbol));
            }
            if !agent.neighbours().contains(target) {
                return Err(NotNeighbours(agent, target));
            }
            let piece = self.piece_at(target).ok_or(Empty(target))?;
            if restricted.contains(target) {
                return Err(Restricted(target));
            }
            Ok(piece)
        };
        match kind {
            MoveKind::Shift { from, to } => {
                mine(from)?;
                if from.row() != to.row() {
                    return Err(OtherRow(to));
                }
                if self.occupied().contains(to) {
                    return Err(Occupied(to));
                }
            }
            MoveKind::Flip { agent, target } => {
                let (d, f) = target_ok(agent, target, Symbol::Triangle)?;
                if !d.can_flip(f) {
                    return Err(NoColourChange(target));
                }
            }
            MoveKind::Turn { agent, target, face } => {
                let (d, f) = target_ok(agent, target, Symbol::Circle)?;
                if !d.turns(f).contains(face) {
                    return Err(BadTurn(target, face));
                }
            }
            MoveKind::Push { agent, target, to } => {
                target_ok(agent, target, Symbol::Square)?;
                let from_row = target.row();
                match to {
                    Dest::Door if from_row == Row::I => {}
                    Dest::Door => return Err(DoorFrom(target)),
                    Dest::Cell(c) => {
                        let allowed = match from_row {
                            Row::S => c.row() == Row::M,
                            Row::M => c.row() != Row::M,
                            Row::I => c.row() == Row::M,
                        };
                        if !allowed {
                            return Err(PushRow(target, c.row()));
                        }
                        let row_free = !self.occupied() & c.row().cells();
                        if self.occupied().contains(c) {
                            if !row_free.is_empty() {
                                return Err(MustLandFree(c));
                            }
                            if restricted.contains(c) {
                                return Err(Restricted(c));
                            }
                        }
                    }
                }
            }
            MoveKind::Give(_) | MoveKind::Place(..) => return Err(WrongPhase("play: the draft is over")),
            MoveKind::Keep | MoveKind::Swap => {
                return Err(WrongPhase("play: keep and swap are the decision after the draft, under swap=yes"));
            }
        }
        Ok(())
    }

    /// Plays `m` if it is legal.
    pub fn play(&mut self, m: Move) -> Result<(), Illegal> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }
}

/// The `k`-th move of a dense set (`k < set.len()`), in the set's own order:
/// [`MoveSet::nth`].
#[inline]
pub fn nth_in_set(set: MoveSet, k: usize) -> Option<Move> {
    set.nth(k)
}

/// The `k`-th legal move in index order ([`PlayMoves::nth`] in play, the
/// draft's single set otherwise), found without building the list; `None`
/// if `k` is not below [`Position::count_moves`].
#[inline]
pub fn nth_move(p: &Position, k: usize) -> Option<Move> {
    if p.is_play() { PlayMoves::new(p).nth(k) } else { nth_draft_move(p, k) }
}

/// The `k`-th legal move of a play position in index order ([`PlayMoves::nth`]).
#[inline]
pub fn nth_play_move(p: &Position, k: usize) -> Option<Move> {
    PlayMoves::new(p).nth(k)
}

/// The `k`-th legal draft move, in the order of [`Position::legal_moves`]
/// (gives by die number, dice 1 and 2 being one give; placements by cell,
/// then face); `None` in play or when `k` is too big.
#[inline]
pub fn nth_draft_move(p: &Position, k: usize) -> Option<Move> {
    if p.is_play() {
        return None;
    }
    p.draft_set()?.nth(k)
}

/// Why a move is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The game is already over.
    GameOver(String),
    /// The move belongs to another phase.
    WrongPhase(&'static str),
    /// The die to give is not in the reserve.
    NotInReserve(Die),
    /// A place move names another die than the one given.
    WrongDie {
        /// The die given.
        given: Die,
        /// The die named.
        named: Die,
    },
    /// Die 2 named while die 1, identical, is in the reserve.
    IdenticalDice,
    /// A non-canonical face was named.
    NotCanonical(Face),
    /// The cell is occupied.
    Occupied(Cell),
    /// The cell is empty.
    Empty(Cell),
    /// The die on the cell is restricted.
    Restricted(Cell),
    /// The die on the cell does not show the mover's colour.
    NotOwn(Cell, Colour),
    /// The agent shows another symbol than the move needs.
    WrongSymbol(Cell, Symbol, Symbol),
    /// Agent and target are not neighbours.
    NotNeighbours(Cell, Cell),
    /// A shift leaves its row.
    OtherRow(Cell),
    /// A flip would not change the shown colour.
    NoColourChange(Cell),
    /// A quarter turn to a face that is not lateral or shows another colour.
    BadTurn(Cell, Face),
    /// Only a die in row I can be pushed through the door.
    DoorFrom(Cell),
    /// A push into a row that is not next to the target's.
    PushRow(Cell, Row),
    /// A push dislodges a die while the row has a free cell.
    MustLandFree(Cell),
    /// The move generator does not list the move, and no rule above names why.
    NotGenerated,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Illegal::*;
        match self {
            GameOver(why) => write!(f, "the game is over: {why}"),
            WrongPhase(what) => write!(f, "this is {what}"),
            NotInReserve(d) => write!(f, "die {d} is not in the reserve"),
            WrongDie { given, named } => write!(f, "the die to place is {given}, not {named}"),
            IdenticalDice => write!(f, "dice 1 and 2 are identical: give die 1 while it is in the reserve"),
            NotCanonical(face) => write!(f, "face {face} is not written in canonical form"),
            Occupied(c) => write!(f, "cell {c} is occupied"),
            Empty(c) => write!(f, "cell {c} is empty"),
            Restricted(c) => write!(f, "the die on {c} is restricted"),
            NotOwn(c, col) => write!(f, "the die on {c} shows {col:?}, not the mover's colour"),
            WrongSymbol(c, has, needs) => {
                write!(f, "the agent on {c} shows a {has:?}, this move needs a {needs:?}")
            }
            NotNeighbours(a, t) => write!(f, "{a} and {t} are not neighbours"),
            OtherRow(c) => write!(f, "{c} is not in the die's row"),
            NoColourChange(c) => write!(f, "flipping {c} would not change its colour"),
            BadTurn(c, face) => {
                write!(f, "the die on {c} cannot turn to {face} (not a lateral face of the same colour)")
            }
            DoorFrom(c) => write!(f, "only a die in row I can go through the door, {c} is not"),
            PushRow(c, r) => write!(f, "a die on {c} cannot be pushed into row {}", r.letter()),
            MustLandFree(c) => write!(f, "{c} is occupied while its row has a free cell"),
            NotGenerated => write!(f, "the move is not among the legal moves"),
        }
    }
}

impl std::error::Error for Illegal {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameRecord;
    use proptest::prelude::*;
    use testkit::{SplitMix64, XorShift64};

    #[test]
    fn select_finds_the_kth_set_bit() {
        let mut rng = XorShift64::new(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2000 {
            let x = rng.next_u64();
            let mut bits = x;
            let mut k = 0;
            while bits != 0 {
                assert_eq!(select(x, k), bits.trailing_zeros(), "{x:#x} k={k}");
                bits &= bits - 1;
                k += 1;
            }
        }
    }

    /// Every position of a random game from the start (draft and play), until it ends.
    fn random_game(seed: u64) -> Vec<Position> {
        let mut rng = SplitMix64::new(seed);
        let mut game = GameRecord::new(Position::start());
        let mut seen = vec![*game.position()];
        while game.outcome().is_none() {
            let legal = game.position().legal_moves();
            let m = legal[rng.below(legal.len())];
            game.play(m).expect("a generated move is legal");
            seen.push(*game.position());
        }
        seen
    }

    /// The order of pick.rs's `PlayMoves` (before it was folded in here),
    /// written from its categories: shifts by row, flips right then left of
    /// their agent, pushes by target row then right/left, turns right then
    /// left; inside, by cell, destination (door last) and face.
    fn index_key(m: Move) -> (u32, u32, u32, u32) {
        let side = |agent: Cell, target: Cell| (target.index() < agent.index()) as u32;
        match m.kind() {
            MoveKind::Shift { from, to } => (from.row() as u32, from.index() as u32, to.index() as u32, 0),
            MoveKind::Flip { agent, target } => (3 + side(agent, target), target.index() as u32, 0, 0),
            MoveKind::Push { agent, target, to } => {
                let d = match to {
                    Dest::Cell(c) => c.index() as u32,
                    Dest::Door => 99,
                };
                (5 + 2 * target.row() as u32 + side(agent, target), target.index() as u32, d, 0)
            }
            MoveKind::Turn { agent, target, face } => {
                (11, side(agent, target), target.index() as u32, face.index() as u32)
            }
            MoveKind::Give(_) | MoveKind::Place(..) | MoveKind::Keep | MoveKind::Swap => {
                unreachable!("play moves only")
            }
        }
    }

    /// The generation order of `Position::legal_moves` as it has always been:
    /// shifts by cell, then agent by agent, target, destination (door last) or face.
    fn generation_key(m: Move) -> (u32, u32, u32, u32) {
        match m.kind() {
            MoveKind::Shift { from, to } => (0, from.index() as u32, to.index() as u32, 0),
            MoveKind::Flip { agent, target } => (1, agent.index() as u32, target.index() as u32, 0),
            MoveKind::Push { agent, target, to } => {
                let d = match to {
                    Dest::Cell(c) => c.index() as u32,
                    Dest::Door => 99,
                };
                (1, agent.index() as u32, target.index() as u32, d)
            }
            MoveKind::Turn { agent, target, face } => {
                (1, agent.index() as u32, target.index() as u32, face.index() as u32)
            }
            MoveKind::Give(_) | MoveKind::Place(..) | MoveKind::Keep | MoveKind::Swap => {
                unreachable!("play moves only")
            }
        }
    }

    /// Every move naming cells, faces and dice, legal or not, of the kinds of `p`'s phase and some others.
    fn candidates(rng: &mut SplitMix64, n: usize) -> Vec<Move> {
        let cell = |rng: &mut SplitMix64| Cell::from_index(rng.below(23) as u8).expect("a cell");
        let face = |rng: &mut SplitMix64| Face::ALL[rng.below(6)];
        (0..n)
            .map(|_| {
                let (a, b) = (cell(rng), cell(rng));
                // Half the time a neighbour, so that the rules past adjacency are exercised.
                let b = if rng.below(2) == 0 { a.neighbours().first().unwrap_or(b) } else { b };
                match rng.below(6) {
                    0 => Move::give(Die::new(1 + rng.below(23) as u8).expect("a die")),
                    1 => Move::place(Die::new(1 + rng.below(23) as u8).expect("a die"), a, face(rng)),
                    2 => Move::shift(a, b),
                    3 => Move::flip(a, b),
                    4 => Move::push(a, b, if rng.below(4) == 0 { Dest::Door } else { Dest::Cell(cell(rng)) }),
                    _ => Move::turn(a, b, face(rng)),
                }
            })
            .collect()
    }

    fn check_position(p: &Position, rng: &mut SplitMix64) {
        let legal = p.legal_moves();
        let n = p.count_moves();
        // Count is the sum of the generated sets' sizes.
        assert_eq!(n, legal.len(), "count {}", p.to_spn());
        let mut sets = 0;
        p.generate(|s| {
            sets += s.len();
            false
        });
        assert_eq!(sets, n);
        // Every k below the count names a distinct legal move; k = count names none.
        let by_index: Vec<Move> = (0..n).map(|k| nth_move(p, k).expect("k below the count")).collect();
        assert_eq!(nth_move(p, n), None);
        let mut a = by_index.clone();
        let mut b = legal.to_vec();
        a.sort();
        b.sort();
        assert_eq!(a, b, "nth covers the legal moves {}", p.to_spn());
        if p.is_play() {
            let pm = PlayMoves::new(p);
            assert_eq!(pm.len(), n);
            // nth equals the index-order list, which is pick.rs's order.
            let mut listed = Vec::new();
            pm.for_each(|m| listed.push(m));
            assert_eq!(listed, by_index, "nth is the index-order list {}", p.to_spn());
            let mut old = legal.to_vec();
            old.sort_by_key(|&m| index_key(m));
            assert_eq!(by_index, old, "index order is pick.rs's {}", p.to_spn());
            // Generation order is unchanged.
            assert!(legal.windows(2).all(|w| generation_key(w[0]) < generation_key(w[1])), "{}", p.to_spn());
            let mut pushes = Vec::new();
            pm.for_each_push(|m| pushes.push(m));
            let want: Vec<Move> =
                by_index.iter().copied().filter(|m| matches!(m.kind(), MoveKind::Push { .. })).collect();
            assert_eq!(pushes, want);
        } else {
            let draft: Vec<Move> = (0..n).map(|k| nth_draft_move(p, k).expect("k below the count")).collect();
            assert_eq!(draft, legal.to_vec(), "draft index order is generation order");
        }
        // Check is membership; a refusal always finds a named rule.
        for &m in legal.iter() {
            assert_eq!(p.check(m), Ok(()), "{m} in {}", p.to_spn());
        }
        for m in candidates(rng, 200) {
            let member = legal.contains(&m);
            match p.check(m) {
                Ok(()) => assert!(member, "{m} accepted in {}", p.to_spn()),
                Err(why) => {
                    assert!(!member, "{m} refused ({why}) in {}", p.to_spn());
                    assert_ne!(why, Illegal::NotGenerated, "{m} in {}", p.to_spn());
                }
            }
        }
    }

    #[test]
    fn sets_count_pick_and_check_agree_on_random_games() {
        let mut rng = SplitMix64::new(99);
        for seed in 0..40 {
            for p in random_game(seed) {
                check_position(&p, &mut rng);
            }
        }
    }

    #[test]
    fn move_set_nth_and_contains_follow_for_each() {
        for p in random_game(7) {
            p.generate(|set| {
                let mut all = Vec::new();
                set.for_each(|m| all.push(m));
                assert_eq!(all.len(), set.len());
                for (k, &m) in all.iter().enumerate() {
                    assert_eq!(set.nth(k), Some(m));
                    assert!(set.contains(m));
                }
                assert_eq!(set.nth(all.len()), None);
                false
            });
        }
    }

    #[test]
    fn an_ended_position_has_no_move() {
        let last = *random_game(3).last().expect("a game has positions");
        if last.is_over_by_rule() {
            assert_eq!(last.count_moves(), 0);
            assert_eq!(nth_move(&last, 0), None);
            assert!(!last.has_moves());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// On random reachable positions: count is the list's length, the
        /// k-th move is the index-order list's, and check agrees with
        /// membership in the generated sets.
        #[test]
        fn generator_views_agree(seed in any::<u64>(), cut in 0usize..200) {
            let game = random_game(seed);
            let p = game[cut % game.len()];
            check_position(&p, &mut SplitMix64::new(seed ^ 0x5eed));
        }
    }
}
