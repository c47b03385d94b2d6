//! Picking the `k`-th legal move of a position without building the move
//! list: the counted categories of [`PlayMoves`] for play positions, direct
//! arithmetic for the draft. Random players and rollouts draw an index below
//! the move count and ask for that move.
//!
//! This module belongs to the rules: it never draws randomness itself and
//! never returns a move that [`Position::legal_moves`] would not contain.

use crate::board::{Bitboard, Cell, Row};
use crate::dice::{Face, FaceSet};
use crate::movegen::{Masks, MoveSet, giveable};
use crate::moves::{Dest, Move};
use crate::position::{Phase, Position};

/// The cell of the `k`-th set bit of `b` (k < b.len()).
#[inline]
fn nth_cell(b: Bitboard, k: usize) -> Cell {
    let mut bits = b.0;
    for _ in 0..k {
        bits &= bits - 1;
    }
    Cell::from_index(bits.trailing_zeros() as u8).expect("k below the set's size")
}

/// The `k`-th face of a face set (k < its len).
#[inline]
fn nth_face(f: FaceSet, k: usize) -> Face {
    f.iter().nth(k).expect("k below the set's size")
}

/// The `k`-th move of a dense set (`k < set.len()`), in the set's own order.
#[inline]
pub fn nth_in_set(set: MoveSet, k: usize) -> Move {
    match set {
        MoveSet::Give(dice) => Move::give(dice.iter().nth(k).expect("k below the set's size")),
        MoveSet::Place { die, cells, faces } => {
            let nf = faces.len() as usize;
            Move::place(die, nth_cell(cells, k / nf), nth_face(faces, k % nf))
        }
        MoveSet::Shift { from, to } => Move::shift(from, nth_cell(to, k)),
        MoveSet::Flip { agent, target } => Move::flip(agent, target),
        MoveSet::Push { agent, target, to, door } => {
            if k < to.len() as usize {
                Move::push(agent, target, Dest::Cell(nth_cell(to, k)))
            } else {
                debug_assert!(door);
                Move::push(agent, target, Dest::Door)
            }
        }
        MoveSet::Turn { agent, target, faces } => Move::turn(agent, target, nth_face(faces, k)),
    }
}

/// The `k`-th legal move in generation order (the order of
/// [`Position::legal_moves`]), found without building the list.
pub fn nth_move(p: &Position, mut k: usize) -> Option<Move> {
    let mut found = None;
    p.generate(|set| {
        let n = set.len();
        if k < n {
            found = Some(nth_in_set(set, k));
            true
        } else {
            k -= n;
            false
        }
    });
    found
}

/// A neighbour of `c` in its row: `-1` left, `+1` right.
#[inline]
fn beside(c: Cell, d: i8) -> Cell {
    Cell::from_index((c.index() as i8 + d) as u8).expect("a neighbour on the board")
}

/// The legal moves of a play position as counted categories (shifts by
/// row, flips, pushes by target row and agent side, turns), built in one
/// popcount pass: [`PlayMoves::len`] equals [`Position::count_moves`], and
/// [`PlayMoves::nth`] finds the `k`-th move by arithmetic instead of walking
/// the move generator. The order differs from [`Position::legal_moves`]; the
/// set is the same (a test checks the bijection). Built on the move
/// generator's masks (`movegen::Masks`), gathered once per position.
#[derive(Clone, Copy, Debug)]
pub struct PlayMoves<'a> {
    p: &'a Position,
    /// Per row: own dice and free cells.
    shifts: [(Bitboard, Bitboard); 3],
    /// Flippable targets right of their agent, left of it.
    flips: [Bitboard; 2],
    /// Per target row: destinations, door, targets right and left of their agent.
    pushes: [(Bitboard, bool, Bitboard, Bitboard); 3],
    /// Turn targets right and left of their agent.
    turns: [Bitboard; 2],
    /// Moves per category: 3 shift rows, 2 flip sides, 6 push groups, turns.
    counts: [u16; 12],
    total: usize,
}

impl<'a> PlayMoves<'a> {
    /// Counts the moves of a play position (0 if it is over by majority or closure).
    pub fn new(p: &'a Position) -> PlayMoves<'a> {
        let empty = Bitboard::EMPTY;
        let mut m = PlayMoves {
            p,
            shifts: [(empty, empty); 3],
            flips: [empty; 2],
            pushes: [(empty, false, empty, empty); 3],
            turns: [empty; 2],
            counts: [0; 12],
            total: 0,
        };
        if p.is_over_by_rule() {
            return m;
        }
        let mk = Masks::new(p);
        let (own, free, avail) = (mk.own, mk.free, mk.avail);
        let rows = [Row::S.cells(), Row::M.cells(), Row::I.cells()];
        for (i, r) in rows.into_iter().enumerate() {
            m.shifts[i] = (own & r, free & r);
            m.counts[i] = ((own & r).len() * (free & r).len()) as u16;
        }
        // Flips: coloured targets always, white ones when the flip shows a colour.
        let tri = own & mk.tri;
        for (i, t) in [tri.right() & avail, tri.left() & avail].into_iter().enumerate() {
            let ok = mk.flippable(p, t);
            m.flips[i] = ok;
            m.counts[3 + i] = ok.len() as u16;
        }
        // Pushes: into a row's free cells, or onto its available dice when it is full.
        let (ls, lm, li) = (mk.landing(Row::S), mk.landing(Row::M), mk.landing(Row::I));
        let sq = own & mk.sq;
        let (sr, sl) = (sq.right() & avail, sq.left() & avail);
        for (i, (dests, door)) in [(lm, false), (ls | li, false), (lm, true)].into_iter().enumerate() {
            let r = rows[i];
            m.pushes[i] = (dests, door, sr & r, sl & r);
            let nd = dests.len() + door as u32;
            m.counts[5 + 2 * i] = ((sr & r).len() * nd) as u16;
            m.counts[6 + 2 * i] = ((sl & r).len() * nd) as u16;
        }
        // Turns.
        let circ = own & mk.circ;
        m.turns = [circ.right() & avail, circ.left() & avail];
        let mut turns = 0;
        for t in m.turns[0].chain(m.turns[1]) {
            turns += p.turns_at(t).len();
        }
        m.counts[11] = turns as u16;
        m.total = m.counts.iter().map(|&c| c as usize).sum();
        m
    }

    /// The number of legal moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.total
    }

    /// Whether there is no legal move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Calls `f` on every push, the only moves that can send a die through
    /// the door (to it, or ejected from a full row I).
    pub fn for_each_push(&self, mut f: impl FnMut(Move)) {
        for (dests, door, right, left) in self.pushes {
            for (targets, d) in [(right, -1), (left, 1)] {
                for t in targets {
                    let agent = beside(t, d);
                    for c in dests {
                        f(Move::push(agent, t, Dest::Cell(c)));
                    }
                    if door {
                        f(Move::push(agent, t, Dest::Door));
                    }
                }
            }
        }
    }

    /// The `k`-th move, `None` if `k >= len()`.
    pub fn nth(&self, mut k: usize) -> Option<Move> {
        let mut cat = 0;
        while cat < 12 && k >= self.counts[cat] as usize {
            k -= self.counts[cat] as usize;
            cat += 1;
        }
        match cat {
            0..=2 => {
                let (from, to) = self.shifts[cat];
                let b = to.len() as usize;
                Some(Move::shift(nth_cell(from, k / b), nth_cell(to, k % b)))
            }
            3 | 4 => {
                let t = nth_cell(self.flips[cat - 3], k);
                Some(Move::flip(beside(t, if cat == 3 { -1 } else { 1 }), t))
            }
            5..=10 => {
                let (dests, door, right, left) = self.pushes[(cat - 5) / 2];
                let (targets, d) = if cat % 2 == 1 { (right, -1) } else { (left, 1) };
                let nd = dests.len() as usize + door as usize;
                let t = nth_cell(targets, k / nd);
                let j = k % nd;
                let to = if j < dests.len() as usize { Dest::Cell(nth_cell(dests, j)) } else { Dest::Door };
                Some(Move::push(beside(t, d), t, to))
            }
            11 => {
                for (targets, d) in [(self.turns[0], -1), (self.turns[1], 1)] {
                    for t in targets {
                        let faces = self.p.turns_at(t);
                        let n = faces.len() as usize;
                        if k < n {
                            return Some(Move::turn(beside(t, d), t, nth_face(faces, k)));
                        }
                        k -= n;
                    }
                }
                None
            }
            _ => None,
        }
    }
}

/// The `k`-th legal move of a play position in [`PlayMoves`] order.
pub fn nth_play_move(p: &Position, k: usize) -> Option<Move> {
    PlayMoves::new(p).nth(k)
}

/// The `k`-th legal draft move, in the order of [`Position::legal_moves`]
/// (gives by die number, dice 1 and 2 being one give; placements by cell,
/// then face), found without walking the move generator; `None` in play or
/// when `k` is too big.
pub fn nth_draft_move(p: &Position, k: usize) -> Option<Move> {
    match p.phase() {
        Phase::Give => {
            // Dice 1 and 2 are identical: one give, `g1` while die 1 is left.
            giveable(p.reserve()).iter().nth(k).map(Move::give)
        }
        Phase::Place(die) => {
            let cells = !p.occupied();
            let faces = die.placements();
            let nf = faces.len() as usize;
            (k < cells.len() as usize * nf).then(|| Move::place(die, nth_cell(cells, k / nf), nth_face(faces, k % nf)))
        }
        Phase::Play => None,
    }
}
