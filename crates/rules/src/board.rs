//! Board geometry: cells, rows, neighbours and bitboards of cells.
//!
//! Cells are numbered 0..23 internally (S1 = 0 … I23 = 22); a `Bitboard`
//! holds one bit per cell. This module knows nothing of dice or rules.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// Number of cells on the board.
pub const CELLS: usize = 23;

/// One of the three rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Row {
    /// Top row, S1..S11.
    S = 0,
    /// Middle row, M12..M18.
    M = 1,
    /// Bottom row, I19..I23, just above the door.
    I = 2,
}

impl Row {
    /// All rows, top to bottom.
    pub const ALL: [Row; 3] = [Row::S, Row::M, Row::I];

    /// The cells of this row.
    #[inline]
    pub const fn cells(self) -> Bitboard {
        match self {
            Row::S => Bitboard::ROW_S,
            Row::M => Bitboard::ROW_M,
            Row::I => Bitboard::ROW_I,
        }
    }

    /// The row letter (S, M or I).
    pub const fn letter(self) -> char {
        match self {
            Row::S => 'S',
            Row::M => 'M',
            Row::I => 'I',
        }
    }
}

/// A cell of the board, S1 … I23.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell with internal index `i` (0..23), or `None`.
    pub const fn from_index(i: u8) -> Option<Cell> {
        if (i as usize) < CELLS { Some(Cell(i)) } else { None }
    }

    /// The cell with printed number `n` (1..=23), or `None`.
    pub const fn from_number(n: u8) -> Option<Cell> {
        if n >= 1 && n <= 23 { Some(Cell(n - 1)) } else { None }
    }

    #[inline]
    pub(crate) const fn new_unchecked(i: u8) -> Cell {
        debug_assert!((i as usize) < CELLS);
        Cell(i)
    }

    /// Internal index 0..23.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Printed number 1..=23.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// The row the cell is in.
    #[inline]
    pub const fn row(self) -> Row {
        if self.0 < 11 {
            Row::S
        } else if self.0 < 18 {
            Row::M
        } else {
            Row::I
        }
    }

    /// The one-bit bitboard of this cell.
    #[inline]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// All cells, S1 to I23.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }

    /// The neighbours of the cell in its row (0, 1 or 2 cells).
    #[inline]
    pub const fn neighbours(self) -> Bitboard {
        Bitboard(((self.bb().0 << 1) & Bitboard::NOT_FIRST.0) | ((self.bb().0 >> 1) & Bitboard::NOT_LAST.0))
    }

    /// Parses `S1`, `M15`, `I23` …: the letter must match the number's row.
    pub fn parse(s: &str) -> Option<Cell> {
        let mut chars = s.chars();
        let row = match chars.next()? {
            'S' => Row::S,
            'M' => Row::M,
            'I' => Row::I,
            _ => return None,
        };
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return None;
        }
        let cell = Cell::from_number(digits.parse().ok()?)?;
        (cell.row() == row).then_some(cell)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.row().letter(), self.number())
    }
}

/// A set of cells, one bit per cell (bit 0 = S1).
///
/// ```text
///  S  .  .  .  .  .  .  .  .  .  .  .    bits  0..=10
///  M           .  .  .  .  .  .  .       bits 11..=17
///  I              .  .  .  .  .          bits 18..=22
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u32);

impl Bitboard {
    /// No cell.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every cell.
    pub const ALL: Bitboard = Bitboard((1 << CELLS) - 1);
    /// Row S.
    pub const ROW_S: Bitboard = Bitboard(0x7ff);
    /// Row M.
    pub const ROW_M: Bitboard = Bitboard(0x7f << 11);
    /// Row I.
    pub const ROW_I: Bitboard = Bitboard(0x1f << 18);
    /// Cells that have a left neighbour (all but S1, M12, I19).
    pub const NOT_FIRST: Bitboard = Bitboard(Self::ALL.0 & !(1 | 1 << 11 | 1 << 18));
    /// Cells that have a right neighbour (all but S11, M18, I23).
    pub const NOT_LAST: Bitboard = Bitboard(Self::ALL.0 & !(1 << 10 | 1 << 17 | 1 << 22));

    /// Number of cells in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `c` is in the set.
    #[inline]
    pub const fn contains(self, c: Cell) -> bool {
        self.0 >> c.0 & 1 != 0
    }

    /// The cells whose right neighbour is in the set, shifted onto that neighbour:
    /// `self.right()` = the right neighbours of the cells of `self`.
    #[inline]
    pub const fn right(self) -> Bitboard {
        Bitboard((self.0 << 1) & Self::NOT_FIRST.0)
    }

    /// The left neighbours of the cells of `self`.
    #[inline]
    pub const fn left(self) -> Bitboard {
        Bitboard((self.0 >> 1) & Self::NOT_LAST.0)
    }

    /// The lowest cell of the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 { None } else { Some(Cell(self.0.trailing_zeros() as u8)) }
    }
}

impl Iterator for Bitboard {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        let c = self.first()?;
        self.0 &= self.0 - 1;
        Some(c)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len() as usize, Some(self.len() as usize))
    }
}

macro_rules! bit_ops {
    ($($tr:ident $f:ident $op:tt),*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, o: Bitboard) -> Bitboard { Bitboard(self.0 $op o.0) }
        }
    )*};
}
bit_ops!(BitAnd bitand &, BitOr bitor |, BitXor bitxor ^);

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, o: Bitboard) {
        self.0 &= o.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, o: Bitboard) {
        self.0 |= o.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_partition_the_board() {
        assert_eq!(Bitboard::ROW_S.len(), 11);
        assert_eq!(Bitboard::ROW_M.len(), 7);
        assert_eq!(Bitboard::ROW_I.len(), 5);
        assert_eq!(Bitboard::ROW_S | Bitboard::ROW_M | Bitboard::ROW_I, Bitboard::ALL);
    }

    #[test]
    fn neighbours_stay_in_the_row() {
        let c = |s| Cell::parse(s).unwrap();
        assert_eq!(c("S1").neighbours(), c("S2").bb());
        assert_eq!(c("S11").neighbours(), c("S10").bb());
        assert_eq!(c("M12").neighbours(), c("M13").bb());
        assert_eq!(c("M15").neighbours(), c("M14").bb() | c("M16").bb());
        assert_eq!(c("I23").neighbours(), c("I22").bb());
    }

    #[test]
    fn cell_names_round_trip() {
        for cell in Cell::all() {
            assert_eq!(Cell::parse(&cell.to_string()), Some(cell));
        }
        for bad in ["S12", "M11", "I24", "X3", "S", "S01", "I0", "s1"] {
            assert_eq!(Cell::parse(bad), None, "{bad}");
        }
    }
}
