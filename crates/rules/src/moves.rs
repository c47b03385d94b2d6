//! Moves of both phases: a packed 4-byte `Move` and its readable `MoveKind`.
//!
//! A move here is only data; whether it is legal is the position's business.

use crate::board::Cell;
use crate::dice::{Die, Face};
use std::fmt;

/// Where a pushed die goes: a cell of the destination row, or the door.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dest {
    /// A cell of the destination row (free, or occupied in a full row).
    Cell(Cell),
    /// Through the door (target in row I only).
    Door,
}

impl fmt::Display for Dest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dest::Cell(c) => c.fmt(f),
            Dest::Door => f.write_str("D"),
        }
    }
}

/// A move, as a readable enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    /// Draft: the giver hands `die` to the other side (`g3`).
    Give(Die),
    /// Draft: the receiver places the given die on a free cell with a top face (`17@M13=Sb`).
    Place(Die, Cell, Face),
    /// Play: a die of the mover's colour moves to a free cell of its row (`M16-M17`).
    Shift {
        /// The die's cell.
        from: Cell,
        /// A free cell of the same row.
        to: Cell,
    },
    /// Play: a triangle agent flips its neighbour (`I21>I20`).
    Flip {
        /// The triangle.
        agent: Cell,
        /// The flipped neighbour.
        target: Cell,
    },
    /// Play: a square agent pushes its neighbour to another row (`M13>M14:I19`).
    Push {
        /// The square.
        agent: Cell,
        /// The pushed neighbour.
        target: Cell,
        /// Where it goes.
        to: Dest,
    },
    /// Play: a circle agent gives its neighbour a quarter turn (`I19>I20=Sb`).
    Turn {
        /// The circle.
        agent: Cell,
        /// The turned neighbour.
        target: Cell,
        /// The target's new (canonical) top face.
        face: Face,
    },
    /// After the draft, under `swap=yes` only: the player who would move
    /// second keeps its colour (`keep`).
    Keep,
    /// After the draft, under `swap=yes` only: the two players exchange
    /// colours, the board unchanged (`swap`).
    Swap,
}

/// A move packed in 4 bytes; see [`MoveKind`] for its meaning.
///
/// Layout: bits 0–2 kind, 3–7 die or first cell, 8–12 second cell,
/// 13–17 push destination (23 = door), 18–20 face.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u32);

const GIVE: u32 = 0;
const PLACE: u32 = 1;
const SHIFT: u32 = 2;
const FLIP: u32 = 3;
const PUSH: u32 = 4;
const TURN: u32 = 5;
/// The decision after the draft (`swap=yes`): `a` is 1 for a swap, 0 to keep.
const DECIDE: u32 = 6;
/// The destination code of the door.
pub(crate) const DOOR: u32 = 23;

impl Move {
    #[inline]
    const fn pack(kind: u32, a: u32, b: u32, c: u32, face: u32) -> Move {
        Move(kind | a << 3 | b << 8 | c << 13 | face << 18)
    }

    /// Give `die`.
    #[inline]
    pub const fn give(die: Die) -> Move {
        Move::pack(GIVE, die.number() as u32, 0, 0, 0)
    }
    /// Place `die` on `cell` showing `face`.
    #[inline]
    pub const fn place(die: Die, cell: Cell, face: Face) -> Move {
        Move::pack(PLACE, die.number() as u32, cell.index() as u32, 0, face.index() as u32)
    }
    /// Move the die on `from` to `to`.
    #[inline]
    pub const fn shift(from: Cell, to: Cell) -> Move {
        Move::pack(SHIFT, from.index() as u32, to.index() as u32, 0, 0)
    }
    /// `agent` flips `target`.
    #[inline]
    pub const fn flip(agent: Cell, target: Cell) -> Move {
        Move::pack(FLIP, agent.index() as u32, target.index() as u32, 0, 0)
    }
    /// `agent` pushes `target` to `to`.
    #[inline]
    pub const fn push(agent: Cell, target: Cell, to: Dest) -> Move {
        let c = match to {
            Dest::Cell(c) => c.index() as u32,
            Dest::Door => DOOR,
        };
        Move::pack(PUSH, agent.index() as u32, target.index() as u32, c, 0)
    }
    /// `agent` turns `target` to `face`.
    #[inline]
    pub const fn turn(agent: Cell, target: Cell, face: Face) -> Move {
        Move::pack(TURN, agent.index() as u32, target.index() as u32, 0, face.index() as u32)
    }
    /// The decision after the draft: exchange colours (`swap`) or not (`keep`).
    #[inline]
    pub const fn decide(swap: bool) -> Move {
        Move::pack(DECIDE, swap as u32, 0, 0, 0)
    }

    /// Whether this is the decision after the draft (`keep` or `swap`).
    #[inline]
    pub const fn is_decision(self) -> bool {
        self.raw_kind() == DECIDE
    }

    #[inline]
    pub(crate) const fn raw_kind(self) -> u32 {
        self.0 & 7
    }
    #[inline]
    pub(crate) const fn a(self) -> u32 {
        self.0 >> 3 & 31
    }
    #[inline]
    pub(crate) const fn b(self) -> u32 {
        self.0 >> 8 & 31
    }
    #[inline]
    pub(crate) const fn c(self) -> u32 {
        self.0 >> 13 & 31
    }
    #[inline]
    pub(crate) const fn face_raw(self) -> u32 {
        self.0 >> 18 & 7
    }

    /// The readable form of the move.
    pub fn kind(self) -> MoveKind {
        let cell = |i: u32| Cell::new_unchecked(i as u8);
        let face = Face::new(self.face_raw() as u8).expect("packed face");
        match self.raw_kind() {
            GIVE => MoveKind::Give(Die::from_raw(self.a() as u8)),
            PLACE => MoveKind::Place(Die::from_raw(self.a() as u8), cell(self.b()), face),
            SHIFT => MoveKind::Shift { from: cell(self.a()), to: cell(self.b()) },
            FLIP => MoveKind::Flip { agent: cell(self.a()), target: cell(self.b()) },
            PUSH => MoveKind::Push {
                agent: cell(self.a()),
                target: cell(self.b()),
                to: if self.c() == DOOR { Dest::Door } else { Dest::Cell(cell(self.c())) },
            },
            TURN => MoveKind::Turn { agent: cell(self.a()), target: cell(self.b()), face },
            DECIDE if self.a() == 1 => MoveKind::Swap,
            DECIDE => MoveKind::Keep,
            k => unreachable!("move kind {k}"),
        }
    }

    /// Whether this move sends a die through the door (a push to the door or an ejection
    /// is decided by the position; this only says "push to the door").
    #[inline]
    pub const fn is_door_push(self) -> bool {
        self.raw_kind() == PUSH && self.c() == DOOR
    }

    /// Whether this is a push (`matches!(self.kind(), MoveKind::Push { .. })`,
    /// without decoding the move).
    #[inline]
    pub const fn is_push(self) -> bool {
        self.raw_kind() == PUSH
    }
}

/// Cells and faces, for the dense move index.
const CELLS: usize = crate::board::CELLS;
const FACES: usize = 6;
const _: () = assert!(DOOR as usize == CELLS);
/// Bases of the move kinds in the space of [`Move::index`].
const PLACE_BASE: usize = crate::dice::DICE + 1;
const SHIFT_BASE: usize = PLACE_BASE + CELLS * FACES;
const FLIP_BASE: usize = SHIFT_BASE + CELLS * CELLS;
const PUSH_BASE: usize = FLIP_BASE + CELLS * CELLS;
const TURN_BASE: usize = PUSH_BASE + CELLS * 2 * (CELLS + 1);

impl Move {
    /// Every [`Move::index`] is below this (2,608).
    pub const INDEX_SPACE: usize = TURN_BASE + CELLS * 2 * FACES;

    /// A dense index of the move (for per-move tables such as the history
    /// heuristic of the searches), below [`Move::INDEX_SPACE`]: a gift by its
    /// die; a placement by cell and face (not by die: the die is the one
    /// given); a shift by its two cells; a flip by agent and target; a push
    /// by agent, side of the target (left or right) and destination; a turn
    /// by agent, side and new face. Distinct legal moves of one position get
    /// distinct indices; `None` for a move of no kind and for the decision
    /// after the draft (`keep`, `swap`: outside the space, so that the space
    /// of the rules' game is unchanged); a malformed move of a known kind may
    /// share an index: it is only ever a hint.
    #[inline]
    pub fn index(self) -> Option<usize> {
        // Per kind: base, then the weights of a, b, side (b > a), c and face;
        // branch-free, as moves of all kinds are mixed in one list.
        const W: [[usize; 6]; 8] = [
            [0, 1, 0, 0, 0, 0],
            [PLACE_BASE, 0, FACES, 0, 0, 1],
            [SHIFT_BASE, CELLS, 1, 0, 0, 0],
            [FLIP_BASE, CELLS, 1, 0, 0, 0],
            // The door's code is CELLS: one past the cells.
            [PUSH_BASE, 2 * (CELLS + 1), 0, CELLS + 1, 1, 0],
            [TURN_BASE, 2 * FACES, 0, FACES, 0, 1],
            [Move::INDEX_SPACE, 0, 0, 0, 0, 0],
            [Move::INDEX_SPACE, 0, 0, 0, 0, 0],
        ];
        let w = &W[self.raw_kind() as usize];
        let (a, b) = (self.a() as usize, self.b() as usize);
        let i = w[0]
            + a * w[1]
            + b * w[2]
            + usize::from(b > a) * w[3]
            + self.c() as usize * w[4]
            + self.face_raw() as usize * w[5];
        (i < Move::INDEX_SPACE).then_some(i)
    }
}

impl From<MoveKind> for Move {
    fn from(k: MoveKind) -> Move {
        match k {
            MoveKind::Give(d) => Move::give(d),
            MoveKind::Place(d, c, f) => Move::place(d, c, f),
            MoveKind::Shift { from, to } => Move::shift(from, to),
            MoveKind::Flip { agent, target } => Move::flip(agent, target),
            MoveKind::Push { agent, target, to } => Move::push(agent, target, to),
            MoveKind::Turn { agent, target, face } => Move::turn(agent, target, face),
            MoveKind::Keep => Move::decide(false),
            MoveKind::Swap => Move::decide(true),
        }
    }
}

/// The longest move text (`M13>M14:I19`, `I19>I20=Sb`) fits in this many bytes.
pub const MOVE_TEXT_MAX: usize = 11;

/// The move text of a move, built on the stack: the single definition of
/// the text (`g3`, `17@M13=Sb`, `M16-M17`, `I21>I20`, `M13>M14:I19`,
/// `I20>I21:D`, `I19>I20=Sb`; `keep` and `swap` under `swap=yes`) that [`Move::write_text`], `Display for Move`
/// and `Display for MoveKind` all use.
#[derive(Clone, Copy)]
pub struct MoveText {
    buf: [u8; 16],
    len: u8,
}

/// The text of each cell (`S1`…`I23`) by index, padded to four bytes, and
/// its length; index 23 (a push's door code) is `D`.
const CELL_TEXT: [([u8; 4], u8); CELLS + 1] = {
    let mut t = [(*b"D\0\0\0", 1u8); CELLS + 1];
    let mut i = 0;
    while i < CELLS {
        let c = Cell::new_unchecked(i as u8);
        let n = c.number();
        let letter = c.row().letter() as u8;
        t[i] = if n >= 10 { ([letter, b'0' + n / 10, b'0' + n % 10, 0], 3) } else { ([letter, b'0' + n, 0, 0], 2) };
        i += 1;
    }
    t
};

/// The two-letter codes of the faces by index, padded to four bytes.
const FACE_TEXT: [([u8; 4], u8); FACES] =
    [(*b"Tr\0\0", 2), (*b"Sr\0\0", 2), (*b"Cr\0\0", 2), (*b"Tb\0\0", 2), (*b"Sb\0\0", 2), (*b"Cb\0\0", 2)];

impl MoveText {
    /// The text of `m`, read from its packed fields (the same text as
    /// writing `m.kind()` field by field: die numbers, cells as row letter
    /// and number, faces by code). The play moves, whose kinds come in no
    /// predictable order, are written without branching on the kind.
    #[inline]
    pub fn of(m: Move) -> MoveText {
        let mut t = MoveText { buf: [0; 16], len: 0 };
        let kind = m.raw_kind();
        if kind == DECIDE {
            t.buf[..4].copy_from_slice(if m.a() == 1 { b"swap" } else { b"keep" });
            t.len = 4;
            return t;
        }
        let cell = |i: u32| CELL_TEXT[i as usize % (CELLS + 1)];
        if kind == GIVE || kind == PLACE {
            let d = m.a() as u8 % 100;
            let mut at = 0;
            if kind == GIVE {
                t.buf[0] = b'g';
                at = 1;
            }
            if d >= 10 {
                t.buf[at] = b'0' + d / 10;
                at += 1;
            }
            t.buf[at] = b'0' + d % 10;
            at += 1;
            if kind == PLACE {
                let (c, lc) = cell(m.b());
                t.buf[at] = b'@';
                t.buf[at + 1..at + 5].copy_from_slice(&c);
                at += 1 + lc as usize;
                let (f, lf) = FACE_TEXT[m.face_raw() as usize % FACES];
                t.buf[at] = b'=';
                t.buf[at + 1..at + 5].copy_from_slice(&f);
                at += 1 + lf as usize;
            }
            t.len = at as u8;
            return t;
        }
        // `a` SEP `b`, then `:c` (push) or `=face` (turn) or nothing.
        let (a, la) = cell(m.a());
        let (b, lb) = cell(m.b());
        t.buf[..4].copy_from_slice(&a);
        let mut at = la as usize;
        t.buf[at] = if kind == SHIFT { b'-' } else { b'>' };
        t.buf[at + 1..at + 5].copy_from_slice(&b);
        at += 1 + lb as usize;
        let push = kind == PUSH;
        let (x, lx) = if push { cell(m.c()) } else { FACE_TEXT[m.face_raw() as usize % FACES] };
        t.buf[at] = if push { b':' } else { b'=' };
        t.buf[at + 1..at + 5].copy_from_slice(&x);
        at += if kind >= PUSH { 1 + lx as usize } else { 0 };
        t.len = at as u8;
        t
    }

    /// The text's bytes (ASCII).
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len as usize]
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        // Only ASCII letters, digits and punctuation are ever written.
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

impl Move {
    /// Appends the move text of the move (the same text as its `Display`)
    /// to `out`, without the formatting machinery and without allocating
    /// beyond `out`'s growth.
    #[inline]
    pub fn write_text(&self, out: &mut Vec<u8>) {
        let t = MoveText::of(*self);
        // A fixed-size copy then a cut is cheaper than a copy of the exact length.
        let end = out.len() + t.len as usize;
        out.extend_from_slice(&t.buf);
        out.truncate(end);
    }
}

impl fmt::Display for MoveKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Move::from(*self).fmt(f)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(MoveText::of(*self).as_str())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_is_four_bytes() {
        assert_eq!(std::mem::size_of::<Move>(), 4);
    }

    #[test]
    fn index_is_dense_and_distinct_per_position() {
        let start: crate::Position = crate::sample::START.parse().unwrap();
        let mut seen = std::collections::HashSet::new();
        for m in start.legal_moves().iter() {
            let i = m.index().unwrap();
            assert!(i < Move::INDEX_SPACE, "{m}");
            assert!(seen.insert(i), "{m}: index {i} twice");
        }
        assert_eq!(Move(7).index(), None);
        assert_eq!(Move::decide(true).index(), None);
    }

    #[test]
    fn pack_round_trip() {
        let c = |s| Cell::parse(s).unwrap();
        let kinds = [
            MoveKind::Give(Die::new(3).unwrap()),
            MoveKind::Place(Die::new(17).unwrap(), c("M13"), Face::new(4).unwrap()),
            MoveKind::Shift { from: c("M16"), to: c("M17") },
            MoveKind::Flip { agent: c("I21"), target: c("I20") },
            MoveKind::Push { agent: c("M13"), target: c("M14"), to: Dest::Cell(c("I19")) },
            MoveKind::Push { agent: c("I20"), target: c("I21"), to: Dest::Door },
            MoveKind::Turn { agent: c("I19"), target: c("I20"), face: Face::new(4).unwrap() },
            MoveKind::Keep,
            MoveKind::Swap,
        ];
        let texts = ["g3", "17@M13=Sb", "M16-M17", "I21>I20", "M13>M14:I19", "I20>I21:D", "I19>I20=Sb", "keep", "swap"];
        for (k, t) in kinds.into_iter().zip(texts) {
            assert_eq!(Move::from(k).kind(), k);
            assert_eq!(Move::from(k).to_string(), t);
            assert_eq!(k.to_string(), t);
            let mut out = b"x ".to_vec();
            Move::from(k).write_text(&mut out);
            assert_eq!(out, format!("x {t}").into_bytes());
            assert!(t.len() <= MOVE_TEXT_MAX);
        }
        // Moves of every kind and field, against the field-by-field text.
        let reference = |k: MoveKind| match k {
            MoveKind::Give(d) => format!("g{d}"),
            MoveKind::Place(d, c, face) => format!("{d}@{c}={face}"),
            MoveKind::Shift { from, to } => format!("{from}-{to}"),
            MoveKind::Flip { agent, target } => format!("{agent}>{target}"),
            MoveKind::Push { agent, target, to } => format!("{agent}>{target}:{to}"),
            MoveKind::Turn { agent, target, face } => format!("{agent}>{target}={face}"),
            MoveKind::Keep => "keep".into(),
            MoveKind::Swap => "swap".into(),
        };
        for a in Cell::all() {
            for b in Cell::all() {
                for f in Face::ALL {
                    for m in [
                        Move::shift(a, b),
                        Move::flip(a, b),
                        Move::push(a, b, Dest::Cell(Cell::all().nth(f.index() as usize * 3).unwrap())),
                        Move::push(a, b, Dest::Door),
                        Move::turn(a, b, f),
                        Move::place(Die::new(b.number()).unwrap(), a, f),
                        Move::give(Die::new(a.number()).unwrap()),
                    ] {
                        assert_eq!(m.to_string(), reference(m.kind()));
                    }
                }
            }
        }
    }
}
