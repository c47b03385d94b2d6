//! Legal move generation, counting and checking.
//!
//! Moves come out as dense sets (one die or agent–target pair with a
//! bitboard of destinations or a set of faces), in the manner of
//! cozy-chess: counting is popcounts, filtering a mask. Counting never
//! enumerates. This module reads positions; it never changes one.

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
        }) as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` on each move of the set.
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
        }
    }
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

/// The working bitboards of one move generation (the planes are gathered once).
pub(crate) struct Masks {
    pub(crate) free: Bitboard,
    /// Occupied and not restricted: may be a target or be dislodged.
    pub(crate) avail: Bitboard,
    /// Shows the mover's colour and not restricted: may move or act.
    pub(crate) own: Bitboard,
    pub(crate) tri: Bitboard,
    pub(crate) sq: Bitboard,
    pub(crate) circ: Bitboard,
    pub(crate) white: Bitboard,
}

impl Masks {
    #[inline]
    pub(crate) fn new(p: &Position) -> Masks {
        let pl = p.planes();
        let occ = Bitboard(pl.sym0 | pl.sym1);
        let restricted = p.restricted();
        let avail = Bitboard(occ.0 & !restricted.0);
        let own = match p.side_to_move() {
            Side::Red => pl.red,
            Side::Blue => pl.blue,
        };
        Masks {
            free: !occ,
            avail,
            own: Bitboard(own & !restricted.0),
            tri: Bitboard(pl.sym0 & !pl.sym1),
            sq: Bitboard(pl.sym1 & !pl.sym0),
            circ: Bitboard(pl.sym0 & pl.sym1),
            white: Bitboard(occ.0 & !(pl.red | pl.blue)),
        }
    }

    /// Where a pushed die may land in `row`: its free cells, or, when it is
    /// full, its dice that may be dislodged.
    #[inline]
    pub(crate) fn landing(&self, row: Row) -> Bitboard {
        let free = self.free & row.cells();
        if free.is_empty() { self.avail & row.cells() } else { free }
    }

    /// Targets a flip may act on among `targets`.
    #[inline]
    pub(crate) fn flippable(&self, p: &Position, targets: Bitboard) -> Bitboard {
        let mut ok = targets & !self.white;
        for c in targets & self.white {
            if FLIP_TO[p.dc(c.index())] != 0 {
                ok |= c.bb();
            }
        }
        ok
    }
}

/// The die kinds the giver may give: one move for the identical dice 1 and 2.
#[inline]
pub(crate) fn giveable(reserve: DieSet) -> DieSet {
    if reserve.0 & 0b10 != 0 { DieSet(reserve.0 & !0b100) } else { reserve }
}

impl Position {
    /// Calls `f` with every dense set of legal moves; stops early and returns
    /// `true` as soon as `f` returns `true`. A finished game (majority or
    /// closure) has no legal move.
    pub fn generate(&self, mut f: impl FnMut(MoveSet) -> bool) -> bool {
        if self.is_over_by_rule() {
            return false;
        }
        match self.phase() {
            Phase::Give => {
                let g = giveable(self.reserve());
                return !g.is_empty() && f(MoveSet::Give(g));
            }
            Phase::Place(die) => {
                return f(MoveSet::Place { die, cells: !self.occupied(), faces: die.placements() });
            }
            Phase::Play => {}
        }
        let m = Masks::new(self);
        // Shifts.
        for from in m.own {
            let to = m.free & from.row().cells();
            if !to.is_empty() && f(MoveSet::Shift { from, to }) {
                return true;
            }
        }
        let land = [m.landing(Row::S), m.landing(Row::M), m.landing(Row::I)];
        let push_to = [land[1], land[0] | land[2], land[1]];
        for agent in m.own {
            let targets = agent.neighbours() & m.avail;
            if m.tri.contains(agent) {
                for target in m.flippable(self, targets) {
                    if f(MoveSet::Flip { agent, target }) {
                        return true;
                    }
                }
            } else if m.sq.contains(agent) {
                for target in targets {
                    let row = target.row();
                    let set = MoveSet::Push { agent, target, to: push_to[row as usize], door: row == Row::I };
                    if !set.is_empty() && f(set) {
                        return true;
                    }
                }
            } else {
                for target in targets {
                    let faces = FaceSet(TURN_FACES[self.dc(target.index())]);
                    if !faces.is_empty() && f(MoveSet::Turn { agent, target, faces }) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The number of legal moves, counted without enumerating them.
    #[inline]
    pub fn count_moves(&self) -> usize {
        if self.is_over_by_rule() {
            return 0;
        }
        match self.phase() {
            Phase::Give => return giveable(self.reserve()).len() as usize,
            Phase::Place(die) => return ((!self.occupied()).len() * die.placements().len()) as usize,
            Phase::Play => {}
        }
        let m = Masks::new(self);
        let rows = [Row::S.cells(), Row::M.cells(), Row::I.cells()];
        let mut n = 0;
        // Shifts: own dice of a row times its free cells.
        if !m.free.is_empty() {
            for r in rows {
                n += (m.own & r).len() * (m.free & r).len();
            }
        }
        // Flips.
        let tri = m.own & m.tri;
        let (fr, fl) = (tri.right() & m.avail, tri.left() & m.avail);
        let ok = m.flippable(self, fr | fl);
        n += (fr & ok).len() + (fl & ok).len();
        // Pushes: pairs per target row times destinations of that row.
        let sq = m.own & m.sq;
        let (pr, pl) = (sq.right() & m.avail, sq.left() & m.avail);
        let pairs = |r: Bitboard| (pr & r).len() + (pl & r).len();
        let land = [m.landing(Row::S).len(), m.landing(Row::M).len(), m.landing(Row::I).len()];
        n += pairs(rows[0]) * land[1] + pairs(rows[1]) * (land[0] + land[2]) + pairs(rows[2]) * (land[1] + 1);
        // Turns.
        let circ = m.own & m.circ;
        let (tr, tl) = (circ.right() & m.avail, circ.left() & m.avail);
        let twice = tr & tl;
        for t in tr | tl {
            n += (TURN_COUNT[self.dc(t.index())] as u32) << twice.contains(t) as u32;
        }
        n as usize
    }

    /// All legal moves.
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

    /// Whether `m` is legal here, and if not, why.
    pub fn check(&self, m: Move) -> Result<(), Illegal> {
        use Illegal::*;
        if let Some(side) = self.majority() {
            return Err(GameOver(format!("{side} has a majority")));
        }
        if self.clock() >= crate::position::CLOSURE {
            return Err(GameOver("the clock reached 60".into()));
        }
        let kind = m.kind();
        match (self.phase(), kind) {
            (Phase::Give, MoveKind::Give(d)) => {
                let reserve = self.reserve();
                if !reserve.contains(d) {
                    return Err(NotInReserve(d));
                }
                return if giveable(reserve).contains(d) { Ok(()) } else { Err(IdenticalDice) };
            }
            (Phase::Place(p), MoveKind::Place(d, c, f)) => {
                if p != d {
                    return Err(WrongDie { given: p, named: d });
                }
                if self.occupied().contains(c) {
                    return Err(Occupied(c));
                }
                return if d.canonical(f) == f { Ok(()) } else { Err(NotCanonical(f)) };
            }
            (Phase::Give, _) => return Err(WrongPhase("the draft: a die must be given")),
            (Phase::Place(_), _) => return Err(WrongPhase("the draft: the given die must be placed")),
            (Phase::Play, MoveKind::Give(_) | MoveKind::Place(..)) => {
                return Err(WrongPhase("play: the draft is over"));
            }
            _ => {}
        }
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
            let (_, af) = self.piece_at(agent).expect("checked");
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
            MoveKind::Give(_) | MoveKind::Place(..) => unreachable!(),
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
        }
    }
}

impl std::error::Error for Illegal {}
