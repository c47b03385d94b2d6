//! Faces, dice and their whitened faces: the dice tables.
//!
//! Everything here is a pure function of a die number and a face, computed
//! at compile time. This module knows nothing of the board or of moves.

use std::fmt;

/// One of the two sides, which is also one of the two printed colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Red: places the odd dice of the draft, moves second in play.
    Red = 0,
    /// Blue: gives first in the draft, moves first in play.
    Blue = 1,
}

impl Side {
    /// The other side.
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
        }
    }

    /// `r` or `b`, as in SPN.
    pub const fn letter(self) -> char {
        match self {
            Side::Red => 'r',
            Side::Blue => 'b',
        }
    }

    /// Both sides, red first.
    pub const ALL: [Side; 2] = [Side::Red, Side::Blue];
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Red => "red",
            Side::Blue => "blue",
        })
    }
}

/// The colour a die shows: a side's colour, or white (nobody's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Red face, not whitened.
    Red = 0,
    /// Blue face, not whitened.
    Blue = 1,
    /// A whitened face.
    White = 2,
}

impl Colour {
    /// The side this colour belongs to, if any.
    #[inline]
    pub const fn side(self) -> Option<Side> {
        match self {
            Colour::Red => Some(Side::Red),
            Colour::Blue => Some(Side::Blue),
            Colour::White => None,
        }
    }
}

/// The symbol of a face; it decides what a die does as an agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    /// ▲: flips its target.
    Triangle = 0,
    /// ■: pushes its target to another row.
    Square = 1,
    /// ●: gives its target a quarter turn.
    Circle = 2,
}

impl Symbol {
    /// All three symbols, in face-index order.
    pub const ALL: [Symbol; 3] = [Symbol::Triangle, Symbol::Square, Symbol::Circle];

    /// The Unicode glyph (▲■●).
    pub const fn glyph(self) -> char {
        match self {
            Symbol::Triangle => '▲',
            Symbol::Square => '■',
            Symbol::Circle => '●',
        }
    }
}

/// One of the six faces of a die, numbered as in NOTATION.md (0 = `Tr` … 5 = `Cb`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Face(u8);

impl Face {
    /// All six faces in index order.
    pub const ALL: [Face; 6] = [Face(0), Face(1), Face(2), Face(3), Face(4), Face(5)];

    /// The face with index `i` (0..6), or `None`.
    pub const fn new(i: u8) -> Option<Face> {
        if i < 6 { Some(Face(i)) } else { None }
    }

    /// The face with index `i`, which must be below 6 (checked in debug builds).
    #[inline]
    pub(crate) const fn from_raw(i: u8) -> Face {
        debug_assert!(i < 6);
        Face(i)
    }

    /// The face with a given symbol and printed colour.
    pub const fn from_parts(symbol: Symbol, printed: Side) -> Face {
        Face(symbol as u8 + 3 * printed as u8)
    }

    /// The face index 0..6.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Its symbol (index mod 3).
    #[inline]
    pub const fn symbol(self) -> Symbol {
        match self.0 % 3 {
            0 => Symbol::Triangle,
            1 => Symbol::Square,
            _ => Symbol::Circle,
        }
    }

    /// Its printed colour (index div 3), before any whitening.
    #[inline]
    pub const fn printed(self) -> Side {
        if self.0 < 3 { Side::Red } else { Side::Blue }
    }

    /// The face on the other end of its axis: same symbol, other colour.
    #[inline]
    pub const fn opposite(self) -> Face {
        Face((self.0 + 3) % 6)
    }

    /// The two-letter code of NOTATION.md (`Tr` … `Cb`).
    pub const fn code(self) -> &'static str {
        ["Tr", "Sr", "Cr", "Tb", "Sb", "Cb"][self.0 as usize]
    }

    /// Parses a two-letter face code.
    pub fn from_code(s: &str) -> Option<Face> {
        Face::ALL.into_iter().find(|f| f.code() == s)
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A set of faces as a 6-bit mask (bit i = face i).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FaceSet(pub u8);

impl FaceSet {
    /// No face.
    pub const EMPTY: FaceSet = FaceSet(0);

    /// Whether `f` is in the set.
    #[inline]
    pub const fn contains(self, f: Face) -> bool {
        self.0 >> f.0 & 1 != 0
    }

    /// Number of faces in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The faces in index order.
    pub fn iter(self) -> impl Iterator<Item = Face> {
        Face::ALL.into_iter().filter(move |&f| self.contains(f))
    }
}

/// One of the 23 dice, numbered 1..=23.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Die(u8);

/// Number of dice in the box.
pub const DICE: usize = 23;

impl Die {
    /// The die numbered `n` (1..=23), or `None`.
    pub const fn new(n: u8) -> Option<Die> {
        if n >= 1 && n <= 23 { Some(Die(n)) } else { None }
    }

    /// The die numbered `n`, which must be in 1..=23 (checked in debug builds).
    #[inline]
    pub(crate) const fn from_raw(n: u8) -> Die {
        debug_assert!(n >= 1 && n <= 23);
        Die(n)
    }

    /// The die number 1..=23.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0
    }

    /// All dice, 1 to 23.
    pub fn all() -> impl Iterator<Item = Die> {
        (1..=23).map(Die)
    }

    /// The kind of the die: dice 1 and 2 are the same kind (identical dice).
    #[inline]
    pub const fn kind(self) -> u8 {
        if self.0 == 2 { 1 } else { self.0 }
    }

    /// The faces whitened on this die.
    #[inline]
    pub const fn whitened(self) -> FaceSet {
        FaceSet(WHITENED[self.0 as usize])
    }

    /// The colour this die shows with face `f` on top.
    #[inline]
    pub const fn colour(self, f: Face) -> Colour {
        if self.whitened().contains(f) {
            Colour::White
        } else if f.0 < 3 {
            Colour::Red
        } else {
            Colour::Blue
        }
    }

    /// The canonical form of top face `f`: when both faces of its axis are
    /// whitened, the red-printed one (NOTATION.md, equivalences).
    #[inline]
    pub const fn canonical(self, f: Face) -> Face {
        let w = WHITENED[self.0 as usize];
        let s = f.0 % 3;
        if (w >> s) & 1 != 0 && (w >> (s + 3)) & 1 != 0 { Face(s) } else { f }
    }

    /// The distinct (canonical) top faces this die can be placed with.
    #[inline]
    pub const fn placements(self) -> FaceSet {
        FaceSet(PLACEMENTS[self.0 as usize])
    }

    /// Whether a flip of this die showing `f` is legal (the shown colour changes).
    #[inline]
    pub const fn can_flip(self, f: Face) -> bool {
        FLIPPABLE[self.0 as usize] >> f.0 & 1 != 0
    }

    /// The canonical faces a quarter turn can bring up from `f`.
    #[inline]
    pub const fn turns(self, f: Face) -> FaceSet {
        FaceSet(TURNS[self.0 as usize][f.0 as usize])
    }

    /// The canonical face with this symbol that shows colour `c`, if any.
    #[inline]
    pub const fn face_showing(self, s: Symbol, c: Colour) -> Option<Face> {
        let red = Face(s as u8);
        let blue = Face(s as u8 + 3);
        let (rc, bc) = (self.colour(red), self.colour(blue));
        if rc as u8 == c as u8 {
            Some(red)
        } else if bc as u8 == c as u8 {
            Some(blue)
        } else {
            None
        }
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Whitened-face masks by die number (index 0 unused).
const WHITENED: [u8; 24] = {
    let mut t = [0u8; 24];
    t[3] = 0b11_1111;
    let mut n = 4;
    let mut a = 0;
    while a < 6 {
        let mut b = a + 1;
        while b < 6 {
            let mut c = b + 1;
            while c < 6 {
                t[n] = (1 << a) | (1 << b) | (1 << c);
                n += 1;
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

const PLACEMENTS: [u8; 24] = {
    let mut t = [0u8; 24];
    let mut d = 1;
    while d < 24 {
        let die = Die(d as u8);
        let mut f = 0;
        while f < 6 {
            t[d] |= 1 << die.canonical(Face(f)).0;
            f += 1;
        }
        d += 1;
    }
    t
};

const FLIPPABLE: [u8; 24] = {
    let mut t = [0u8; 24];
    let mut d = 1;
    while d < 24 {
        let die = Die(d as u8);
        let mut f = 0;
        while f < 6 {
            let face = Face(f);
            if die.colour(face) as u8 != die.colour(face.opposite()) as u8 {
                t[d] |= 1 << f;
            }
            f += 1;
        }
        d += 1;
    }
    t
};

const TURNS: [[u8; 6]; 24] = {
    let mut t = [[0u8; 6]; 24];
    let mut d = 1;
    while d < 24 {
        let die = Die(d as u8);
        let mut f = 0;
        while f < 6 {
            let face = Face(f);
            let mut l = 0;
            while l < 6 {
                let lat = Face(l);
                if l % 3 != f % 3 && die.colour(lat) as u8 == die.colour(face) as u8 {
                    t[d][f as usize] |= 1 << die.canonical(lat).0;
                }
                l += 1;
            }
            f += 1;
        }
        d += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitened_triples_follow_notation() {
        assert_eq!(Die(1).whitened().0, 0);
        assert_eq!(Die(2).whitened().0, 0);
        assert_eq!(Die(3).whitened().0, 0b11_1111);
        assert_eq!(Die(4).whitened().0, 0b000_111);
        assert_eq!(Die(5).whitened().0, 0b001_011);
        assert_eq!(Die(6).whitened().0, 0b010_011);
        assert_eq!(Die(22).whitened().0, 0b110_100);
        assert_eq!(Die(23).whitened().0, 0b111_000);
        let mut seen = std::collections::HashSet::new();
        for d in 4..=23 {
            assert_eq!(Die(d).whitened().len(), 3);
            assert!(seen.insert(Die(d).whitened().0));
        }
    }

    #[test]
    fn twelve_dice_have_a_white_axis() {
        let n = (4..=23).filter(|&d| Die(d).placements().len() == 5).count();
        assert_eq!(n, 12);
        assert_eq!(Die(3).placements().len(), 3);
        assert_eq!(Die(1).placements().len(), 6);
    }

    #[test]
    fn eighteen_coloured_faces_cannot_turn() {
        // The rules' remark: 18 of the 72 coloured faces cannot be turned,
        // three squares per colour among them.
        let mut stuck = 0;
        let mut squares = [0; 2];
        for die in Die::all() {
            for f in Face::ALL {
                if die.colour(f) != Colour::White && die.turns(f).is_empty() {
                    stuck += 1;
                    if f.symbol() == Symbol::Square {
                        squares[f.printed() as usize] += 1;
                    }
                }
            }
        }
        // Coloured faces: 2 × 6 on dice 1–2 plus 3 × 20 on dice 4–23 = 72.
        assert_eq!(stuck, 18);
        assert_eq!(squares, [3, 3]);
    }

    #[test]
    fn flips_change_the_shown_colour() {
        assert!(!Die(3).can_flip(Face(0)));
        assert!(Die(1).can_flip(Face(4)));
        // Die 4 = {Tr, Sr, Cr} whitened: white Tr flips to blue Tb.
        assert!(Die(4).can_flip(Face(0)));
        // Die 5 = {Tr, Sr, Tb}: both triangles white, no flip.
        assert!(!Die(5).can_flip(Face(0)));
    }

    #[test]
    fn face_from_symbol_and_colour() {
        assert_eq!(Die(5).face_showing(Symbol::Triangle, Colour::White), Some(Face(0)));
        assert_eq!(Die(5).face_showing(Symbol::Square, Colour::Blue), Some(Face(4)));
        assert_eq!(Die(5).face_showing(Symbol::Square, Colour::Red), None);
        assert_eq!(Die(1).face_showing(Symbol::Circle, Colour::White), None);
    }
}
