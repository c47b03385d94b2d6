//! Tiles and sets of tiles: a tile is a number 0..28, a set is 28 bits.
//!
//! What it must never do: know anything about hands, turns or players.

use std::fmt;

/// One tile of the double-six set, 0..28: the tile {a, b} with a ≥ b is
/// number a(a+1)/2 + b, so 0-0 is 0, 1-0 is 1, 1-1 is 2, …, 6-6 is 27.
/// Written with the higher end first: "6-4".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

const fn tables() -> ([u8; 28], [u8; 28]) {
    let mut hi = [0u8; 28];
    let mut lo = [0u8; 28];
    let mut a = 0;
    while a < 7 {
        let mut b = 0;
        while b <= a {
            let i = a * (a + 1) / 2 + b;
            hi[i] = a as u8;
            lo[i] = b as u8;
            b += 1;
        }
        a += 1;
    }
    (hi, lo)
}

const HILO: ([u8; 28], [u8; 28]) = tables();
pub(crate) const HI: [u8; 28] = HILO.0;
pub(crate) const LO: [u8; 28] = HILO.1;

const fn num_masks() -> [u32; 8] {
    let mut m = [0u32; 8];
    let mut i = 0;
    while i < 28 {
        m[HI[i] as usize] |= 1 << i;
        m[LO[i] as usize] |= 1 << i;
        i += 1;
    }
    m
}

/// `NUM[n]`: the tiles carrying the number n; `NUM[7]` (no end) is empty.
pub(crate) const NUM: [u32; 8] = num_masks();

const fn ranks() -> [u8; 28] {
    let mut r = [0u8; 28];
    let mut i = 0;
    while i < 28 {
        r[i] = if HI[i] == LO[i] { 100 + HI[i] } else { (HI[i] + LO[i]) * 8 + HI[i] };
        i += 1;
    }
    r
}

/// The opening rank of GAMES.md §2.2: doubles first (6-6 down to 0-0), then
/// by weight, ties by the higher end. Larger is stronger.
pub(crate) const RANK: [u8; 28] = ranks();

/// All 28 tiles.
pub(crate) const ALL: u32 = (1 << 28) - 1;

impl Tile {
    /// The tile with ends `a` and `b` (in either order); `None` past 6.
    pub const fn new(a: u8, b: u8) -> Option<Tile> {
        if a > 6 || b > 6 {
            return None;
        }
        let (h, l) = if a >= b { (a, b) } else { (b, a) };
        Some(Tile(h * (h + 1) / 2 + l))
    }

    /// The tile number `i` (0..28); `None` past 27.
    pub const fn from_index(i: u8) -> Option<Tile> {
        if i < 28 { Some(Tile(i)) } else { None }
    }

    /// Its number, 0..28.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Its two ends, the higher first.
    pub const fn ends(self) -> (u8, u8) {
        (HI[self.0 as usize], LO[self.0 as usize])
    }

    /// Its value: the sum of its pips.
    pub const fn pips(self) -> u8 {
        HI[self.0 as usize] + LO[self.0 as usize]
    }

    /// Whether both ends are equal.
    pub const fn is_double(self) -> bool {
        HI[self.0 as usize] == LO[self.0 as usize]
    }

    /// Whether one of its ends shows `n`.
    pub const fn has(self, n: u8) -> bool {
        HI[self.0 as usize] == n || LO[self.0 as usize] == n
    }

    /// Its place in the opening order of GAMES.md §2.2 (larger opens first).
    pub const fn opening_rank(self) -> u8 {
        RANK[self.0 as usize]
    }

    /// The end left showing when this tile is put against `n` (which it must carry).
    pub(crate) const fn other(self, n: u8) -> u8 {
        let (h, l) = self.ends();
        if h == n { l } else { h }
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (h, l) = self.ends();
        write!(f, "{h}-{l}")
    }
}

/// A set of tiles: bit i is tile i (28 bits used).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TileSet(pub u32);

impl TileSet {
    /// The empty set.
    pub const EMPTY: TileSet = TileSet(0);
    /// All 28 tiles.
    pub const ALL: TileSet = TileSet(ALL);

    /// The tiles carrying `n` (0..=6; empty otherwise).
    pub const fn with_number(n: u8) -> TileSet {
        TileSet(if n < 8 { NUM[n as usize] } else { 0 })
    }
    /// Number of tiles.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    /// Whether it holds no tile.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Whether it holds `t`.
    pub const fn contains(self, t: Tile) -> bool {
        self.0 >> t.0 & 1 == 1
    }
    /// Adds `t`.
    pub fn insert(&mut self, t: Tile) {
        self.0 |= 1 << t.0;
    }
    /// Removes `t`.
    pub fn remove(&mut self, t: Tile) {
        self.0 &= !(1 << t.0);
    }
    /// The union.
    pub const fn union(self, o: TileSet) -> TileSet {
        TileSet(self.0 | o.0)
    }
    /// The intersection.
    pub const fn intersection(self, o: TileSet) -> TileSet {
        TileSet(self.0 & o.0)
    }
    /// The tiles of `self` not in `o`.
    pub const fn minus(self, o: TileSet) -> TileSet {
        TileSet(self.0 & !o.0)
    }
    /// The sum of the pips of its tiles.
    pub fn pips(self) -> u32 {
        self.iter().map(|t| u32::from(t.pips())).sum()
    }
    /// The highest-ranked tile (GAMES.md §2.2 order), if any.
    pub fn best_opener(self) -> Option<Tile> {
        self.iter().max_by_key(|t| t.opening_rank())
    }
    /// Its tiles in increasing number.
    pub fn iter(self) -> TileIter {
        TileIter(self.0)
    }
}

/// The tiles of a [`TileSet`], in increasing number.
#[derive(Clone, Debug)]
pub struct TileIter(u32);

impl Iterator for TileIter {
    type Item = Tile;
    fn next(&mut self) -> Option<Tile> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Tile(i))
    }
}

impl FromIterator<Tile> for TileSet {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> TileSet {
        let mut s = TileSet::EMPTY;
        for t in iter {
            s.insert(t);
        }
        s
    }
}

impl fmt::Display for TileSet {
    /// The tiles joined by '.', in increasing number; "-" when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (i, t) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}
