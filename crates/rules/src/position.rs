//! The bit-packed position and how moves change it.
//!
//! A `Position` is 32 bytes and `Copy`: a 4-bit code per cell (symbol and
//! shown colour) and a 5-bit die number per cell, with the small counters
//! tucked into the spare high bits. Move generation gathers the codes into
//! bitboards (symbol and colour planes) once per position. It never checks legality when playing a
//! move (that is `movegen`'s job) and never parses text (that is `notation`'s).

use crate::board::{Bitboard, Cell};
use crate::dice::{Colour, Die, Face, FaceSet, Side, Symbol};
use crate::moves::{DOOR, Move};
use crate::variant::{MAX_CLOSURE, MAX_MAJORITY, MAX_REPETITION, Ties, Variant};
use crate::zobrist;

/// The number of dice in a pile that wins by majority, in the rules (a
/// variant may change it: ask [`Position::majority_at`]).
pub const MAJORITY: u8 = 5;
/// The clock value at which the game closes, in the rules (a variant may
/// change it: ask [`Position::closure`]).
pub const CLOSURE: u8 = 60;

/// The phase of the game and what the side to move must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Draft: the side to move gives a die from the reserve.
    Give,
    /// Draft: the side to move places this die.
    Place(Die),
    /// Play.
    Play,
    /// After the draft, under `swap=yes` only: the side to move (the one
    /// that would move second in play) keeps its colour or swaps (`keep`,
    /// `swap`). The board is full; no play move yet.
    Decide,
}

/// The three piles of dice that went through the door.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Piles {
    /// Dice that left showing red.
    pub red: u8,
    /// Dice that left showing blue.
    pub blue: u8,
    /// Dice that left showing white (the discard, nobody's).
    pub white: u8,
}

impl Piles {
    /// The pile of a side.
    #[inline]
    pub const fn of(self, side: Side) -> u8 {
        match side {
            Side::Red => self.red,
            Side::Blue => self.blue,
        }
    }

    /// The side with the bigger pile (`None` when they are equal): the
    /// winner when piles are counted.
    pub fn leader(self) -> Option<Side> {
        match self.red.cmp(&self.blue) {
            std::cmp::Ordering::Greater => Some(Side::Red),
            std::cmp::Ordering::Less => Some(Side::Blue),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Dice in all three piles.
    pub const fn total(self) -> u8 {
        self.red + self.blue + self.white
    }
}

/// A set of dice as a bitmask over die numbers (bit n = die n).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct DieSet(pub u32);

impl DieSet {
    /// All 23 dice.
    pub const ALL: DieSet = DieSet(((1 << 24) - 1) & !1);

    /// Whether `d` is in the set.
    #[inline]
    pub const fn contains(self, d: Die) -> bool {
        self.0 >> d.number() & 1 != 0
    }

    /// Number of dice in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The dice in increasing number.
    pub fn iter(self) -> impl Iterator<Item = Die> {
        Die::all().filter(move |&d| self.contains(d))
    }
}

const BOARD: u32 = Bitboard::ALL.0;
const NONE_CELL: u32 = 31;

// Meta fields in the high bits of the second code word (cells use bits 0–27):
// (shift, width).
type Field = (u32, u32);
const R0: Field = (28, 5);
const R1: Field = (33, 5);
const SIDE: Field = (38, 1);
const PHASE: Field = (39, 2);
const PILE_RED: Field = (41, 3);
const PILE_BLUE: Field = (44, 3);
// Bits 47–51 hold variant keys (below): the white discard is not stored, it
// is what the board and the other piles leave of the 23 dice in play
// ([`Position::piles`]), 0 in the draft.
const PENDING: Field = (52, 5);
/// The cell bits of the second code word (cells 16–22).
const CODES_HI: u64 = (1 << 28) - 1;
/// Bit 0 of every nibble.
const NIBBLE_LOW: u64 = 0x1111_1111_1111_1111;

/// Which code word and bit offset hold cell index `c`: cells 0–15 in word 0,
/// cells 16–22 in word 1, 4 bits each.
#[inline(always)]
const fn code_slot(c: usize) -> (usize, u32) {
    let w = (c >= 16) as usize;
    (w, (4 * c - 64 * w) as u32)
}

/// Gathers bit 0 of each nibble of `x` into contiguous bits (x86 `pext` when available).
#[inline(always)]
fn gather_nibbles(x: u64) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the bmi2 target feature is enabled at compile time.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_pext_u64(x, NIBBLE_LOW) as u32
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let mut x = x & NIBBLE_LOW;
        x = (x | x >> 3) & 0x0303_0303_0303_0303;
        x = (x | x >> 6) & 0x000f_000f_000f_000f;
        x = (x | x >> 12) & 0x0000_00ff_0000_00ff;
        ((x | x >> 24) & 0xffff) as u32
    }
}

/// Cells whose die number is in the second dice word (cells 12–22).
const CELLS_HI_DICE: u32 = 11;

/// Bit 0 of each of the first `fields` 5-bit fields of `x`, gathered into
/// contiguous bits (x86 `pext` when available).
#[inline(always)]
fn gather_fives(x: u64, fields: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // Bit 0 of every 5-bit field of a word (12 fields), the first `fields`.
        const FIVE_LOW: u64 = 0x0084_2108_4210_8421;
        // SAFETY: the bmi2 target feature is enabled at compile time.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_pext_u64(x, FIVE_LOW & ((1u64 << (5 * fields)) - 1)) as u32
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        gather_fives_portable(x, fields)
    }
}

/// [`gather_fives`] without `pext`.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2", not(test)), allow(dead_code))]
#[inline(always)]
fn gather_fives_portable(x: u64, fields: u32) -> u32 {
    (0..fields).fold(0, |acc, k| acc | (((x >> (5 * k)) & 1) as u32) << k)
}

/// The four cell planes of a position, computed once per move generation.
#[derive(Clone, Copy)]
pub(crate) struct Planes {
    /// Symbol bit 0: triangle or circle.
    pub sym0: u32,
    /// Symbol bit 1: square or circle.
    pub sym1: u32,
    /// Shows red.
    pub red: u32,
    /// Shows blue.
    pub blue: u32,
}
/// The board's cells by displayed colour and symbol, read once: what an
/// evaluation that asks [`Position::showing`] and [`Position::with_symbol`]
/// many times reads instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layers {
    /// Cells showing red.
    pub red: Bitboard,
    /// Cells showing blue.
    pub blue: Bitboard,
    /// Cells showing a triangle.
    pub triangle: Bitboard,
    /// Cells showing a square.
    pub square: Bitboard,
    /// Cells showing a circle.
    pub circle: Bitboard,
    /// Occupied cells.
    pub occupied: Bitboard,
}

/// The cells whose die a quarter turn can make show each side's colour
/// ([`Position::turnable`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turnable {
    /// Cells whose die a quarter turn can make show red.
    pub red: Bitboard,
    /// Cells whose die a quarter turn can make show blue.
    pub blue: Bitboard,
}

impl Turnable {
    /// The cells whose die a quarter turn can make show `side`'s colour.
    #[inline]
    pub fn of(&self, side: Side) -> Bitboard {
        match side {
            Side::Red => self.red,
            Side::Blue => self.blue,
        }
    }
}

impl Layers {
    /// Cells showing colour `c` (as [`Position::showing`]).
    #[inline]
    pub fn showing(&self, c: Colour) -> Bitboard {
        match c {
            Colour::Red => self.red,
            Colour::Blue => self.blue,
            Colour::White => Bitboard(self.occupied.0 & !(self.red.0 | self.blue.0)),
        }
    }

    /// Cells showing symbol `s` (as [`Position::with_symbol`]).
    #[inline]
    pub fn with_symbol(&self, s: Symbol) -> Bitboard {
        match s {
            Symbol::Triangle => self.triangle,
            Symbol::Square => self.square,
            Symbol::Circle => self.circle,
        }
    }
}

/// The clock lives in the spare high bits of the second die word.
const CLOCK_SHIFT: u32 = 55;

// The variant lives in the remaining spare bits, each field stored as its
// difference (xor) from the rules' value, so that all-zero bits are the
// game of the rules and a position built from parts starts in it.
/// Closure xor 60, bits 57–62 of the second code word.
const V_CLOSURE: u32 = 57;
/// First giver is red, bit 63 of the second code word.
const V_GIVER: u32 = 63;
/// Majority xor 5, bits 61–63 of the second die word.
const V_MAJORITY: u32 = 61;
/// Repetition xor 3, bits 60–62 of the first die word.
const V_REPETITION: u32 = 60;
/// First mover is red, bit 63 of the first die word.
const V_MOVER: u32 = 63;
/// Ties win for the second mover, bit 47 of the second code word.
const V_TIES: u32 = 47;
/// Second mover's majority xor majority, bits 48–50 of the second code word.
const V_SECOND: u32 = 48;
/// Swap after the draft (`swap=yes`), bit 51 of the second code word.
const V_SWAP: u32 = 51;
/// In play, the players have swapped colours: bit 52 of the second code
/// word, the lowest bit of the pending die, which is 0 outside the place phase.
const SWAPPED: u32 = 52;

/// Which die word and bit offset hold cell index `c`: cells 0–11 in word 0,
/// cells 12–22 in word 1, 5 bits each.
#[inline(always)]
const fn die_slot(c: usize) -> (usize, u32) {
    let w = (c >= 12) as usize;
    (w, (5 * c - 60 * w) as u32)
}

const PHASE_PLAY: u32 = 0;
const PHASE_GIVE: u32 = 1;
const PHASE_PLACE: u32 = 2;
const PHASE_DECIDE: u32 = 3;

/// The cell code of a face on a die: symbol bits 0–1 (1 ▲, 2 ■, 3 ●),
/// bit 2 shows red, bit 3 shows blue.
#[inline]
const fn code_of(die: Die, face: Face) -> u32 {
    let sym = face.symbol() as u32 + 1;
    let col = match die.colour(face) {
        Colour::Red => 4,
        Colour::Blue => 8,
        Colour::White => 0,
    };
    sym | col
}

/// Index of the per-(die, code) tables: `die << 4 | code`, below 512.
#[inline]
pub(crate) const fn dc_index(die: u32, code: u32) -> usize {
    ((die << 4 | code) & 511) as usize
}

/// Builds a table over (die, cell code) from an expression of (die, canonical face).
macro_rules! by_code {
    (|$d:ident, $f:ident| $e:expr) => {{
        let mut t = [0u8; 512];
        let mut n = 1;
        while n < 24 {
            let $d = Die::from_raw(n as u8);
            let mut i = 0;
            while i < 6 {
                let $f = $d.canonical(Face::ALL[i]);
                t[dc_index(n as u32, code_of($d, $f))] = $e;
                i += 1;
            }
            n += 1;
        }
        t
    }};
}

/// Canonical face index by (die, code).
static FACE_OF: [u8; 512] = by_code!(|d, f| f.index());
/// Code after a flip by (die, code); 0 when the flip is illegal.
pub(crate) static FLIP_TO: [u8; 512] =
    by_code!(|d, f| if d.can_flip(f) { code_of(d, d.canonical(f.opposite())) as u8 } else { 0 });
/// Faces a quarter turn can bring up, by (die, code).
pub(crate) static TURN_FACES: [u8; 512] = by_code!(|d, f| d.turns(f).0);
/// Colours a quarter turn can bring up, by (die, code): bit 0 red, bit 1 blue.
static TURN_COLOURS: [u8; 512] = by_code!(|d, f| turn_colours(d, d.turns(f)));

/// The colours among `faces` of die `d`: bit 0 red, bit 1 blue.
const fn turn_colours(d: Die, faces: FaceSet) -> u8 {
    let mut bits = 0;
    let mut i = 0;
    while i < 6 {
        if faces.contains(Face::ALL[i]) {
            bits |= match d.colour(Face::ALL[i]) {
                Colour::Red => 1,
                Colour::Blue => 2,
                Colour::White => 0,
            };
        }
        i += 1;
    }
    bits
}

/// Number of quarter turns, by (die, code).
pub(crate) static TURN_COUNT: [u8; 512] = by_code!(|d, f| d.turns(f).len() as u8);
/// Code by (die, face) (`die << 3 | face`), for any face (canonical or not).
static CODE_OF: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut d = 1;
    while d < 24 {
        let die = Die::from_raw(d as u8);
        let mut f = 0;
        while f < 6 {
            t[d << 3 | f] = code_of(die, die.canonical(Face::ALL[f])) as u8;
            f += 1;
        }
        d += 1;
    }
    t
};

#[inline]
const fn code_by_face(die: u32, face: u32) -> u32 {
    CODE_OF[((die << 3 | face) & 255) as usize] as u32
}

/// A Sénat position: board, top faces, restricted set, piles, phase, side
/// to move and clock, in 32 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// 4-bit cell codes (see `code_of`): cells 0–15 in word 0, cells 16–22 in
    /// bits 0–27 of word 1; bits 28–56 of word 1 hold the meta fields.
    codes: [u64; 2],
    /// 5-bit die numbers: cells 0–11 in word 0, cells 12–22 in bits 0–54 of
    /// word 1; bits 55–60 of word 1 hold the clock.
    dice: [u64; 2],
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The start of a game of the rules: empty board, blue gives first.
    pub const fn start() -> Position {
        let meta = (NONE_CELL as u64) << R0.0
            | (NONE_CELL as u64) << R1.0
            | (PHASE_GIVE as u64) << PHASE.0
            | (Side::Blue as u64) << SIDE.0;
        Position { codes: [0, meta], dice: [0; 2] }
    }

    /// The start of a game of variant `v`: empty board, `v.first_giver` gives.
    pub fn start_of(v: Variant) -> Position {
        let mut p = Position::start();
        p.set_variant(v);
        let mut h = 0;
        p.set_side::<false>(v.first_giver, &mut h);
        p
    }

    /// The variant whose rules this position follows.
    #[inline]
    pub const fn variant(&self) -> Variant {
        Variant {
            first_giver: self.first_giver(),
            first_mover: self.first_mover(),
            closure: self.closure(),
            majority: self.majority_at(),
            repetition: self.repetition(),
            ties: self.ties(),
            second_majority: if self.codes[1] >> V_SECOND & 7 == 0 {
                None
            } else {
                Some(self.majority_of(self.first_mover().other()))
            },
            swap: self.codes[1] >> V_SWAP & 1 != 0,
        }
    }

    /// The same position under the rules of `v` (the board, piles, clock and
    /// side unchanged; check it with `Setup::validate_in` where `v` may not
    /// fit them).
    pub(crate) fn set_variant(&mut self, v: Variant) {
        debug_assert!((1..=MAX_CLOSURE).contains(&v.closure));
        debug_assert!((1..=MAX_MAJORITY).contains(&v.majority));
        debug_assert!((2..=MAX_REPETITION).contains(&v.repetition));
        debug_assert!(v.second_majority.is_none_or(|n| (1..=MAX_MAJORITY).contains(&n)));
        let r = Variant::RULES;
        let (c, m, t) =
            ((v.closure ^ r.closure) as u64, (v.majority ^ r.majority) as u64, (v.repetition ^ r.repetition) as u64);
        self.codes[1] = self.codes[1] & !(127 << V_CLOSURE)
            | (c & 63) << V_CLOSURE
            | ((v.first_giver == Side::Red) as u64) << V_GIVER;
        let second = (v.second_majority.unwrap_or(v.majority) ^ v.majority) as u64 & 7;
        self.codes[1] = self.codes[1] & !(31 << V_TIES)
            | ((v.ties == Ties::Second) as u64) << V_TIES
            | second << V_SECOND
            | (v.swap as u64) << V_SWAP;
        self.dice[1] = self.dice[1] & !(7 << V_MAJORITY) | (m & 7) << V_MAJORITY;
        self.dice[0] = self.dice[0] & !(15 << V_REPETITION)
            | (t & 7) << V_REPETITION
            | ((v.first_mover == Side::Red) as u64) << V_MOVER;
    }

    /// The play half-moves without a die through the door that close the game
    /// (60 in the rules).
    #[inline]
    pub const fn closure(&self) -> u8 {
        (self.codes[1] >> V_CLOSURE & 63) as u8 ^ CLOSURE
    }

    /// The dice in the first mover's pile that win (5 in the rules; the
    /// variant's `majority`). The other side's is [`Position::majority_of`].
    #[inline]
    pub const fn majority_at(&self) -> u8 {
        (self.dice[1] >> V_MAJORITY & 7) as u8 ^ MAJORITY
    }

    /// The dice in `side`'s pile that win at once: [`Position::majority_at`]
    /// for the first mover, the variant's `second_majority` for the other.
    #[inline]
    pub const fn majority_of(&self, side: Side) -> u8 {
        let (red, blue) = self.majorities();
        (if side as u8 == Side::Red as u8 { red } else { blue }) as u8
    }

    /// Whether the players have exchanged colours after the draft (`swap`
    /// played under `swap=yes`): the player who drafted as red now plays
    /// blue, and the other way round. Always `false` before play.
    #[inline]
    pub const fn swapped(&self) -> bool {
        self.get(PHASE) == PHASE_PLAY && self.codes[1] >> SWAPPED & 1 != 0
    }

    /// The seat of the player who plays `side` now: the colour that player
    /// had in the draft (`side` itself unless the players [swapped]).
    /// Agents, records and scores follow seats, the rules follow colours.
    ///
    /// [swapped]: Position::swapped
    #[inline]
    pub const fn seat_of(&self, side: Side) -> Side {
        if self.swapped() { side.other() } else { side }
    }

    /// Who wins equal piles when piles are counted (the variant's `ties`).
    #[inline]
    pub const fn ties(&self) -> Ties {
        if self.codes[1] >> V_TIES & 1 == 0 { Ties::Draw } else { Ties::Second }
    }

    /// The occurrences of one position that end the game (3 in the rules).
    #[inline]
    pub const fn repetition(&self) -> u8 {
        (self.dice[0] >> V_REPETITION & 7) as u8 ^ Variant::RULES.repetition
    }

    /// The side that makes the first play move (blue in the rules).
    #[inline]
    const fn first_mover(&self) -> Side {
        if self.dice[0] >> V_MOVER & 1 == 0 { Side::Blue } else { Side::Red }
    }

    /// The side that gives the first die of the draft (blue in the rules).
    #[inline]
    const fn first_giver(&self) -> Side {
        if self.codes[1] >> V_GIVER & 1 == 0 { Side::Blue } else { Side::Red }
    }

    /// The side that gives placement `k` (odd `k`: the first giver).
    #[inline]
    const fn giver_of(&self, k: u32) -> Side {
        if k % 2 == 1 { self.first_giver() } else { self.first_giver().other() }
    }

    // ---- raw field access -------------------------------------------------

    #[inline]
    const fn get(&self, f: Field) -> u32 {
        (self.codes[1] >> f.0) as u32 & ((1 << f.1) - 1)
    }

    #[inline]
    fn set(&mut self, f: Field, v: u32) {
        let m = ((1u64 << f.1) - 1) << f.0;
        self.codes[1] = (self.codes[1] & !m) | ((v as u64) << f.0 & m);
    }

    /// The four cell planes.
    #[inline]
    pub(crate) fn planes(&self) -> Planes {
        let (lo, hi) = (self.codes[0], self.codes[1] & CODES_HI);
        let plane = |k: u32| gather_nibbles(lo >> k) | gather_nibbles(hi >> k) << 16;
        Planes { sym0: plane(0), sym1: plane(1), red: plane(2), blue: plane(3) }
    }

    /// Die number on cell index `c` (0 when empty).
    #[inline]
    pub(crate) const fn die_raw(&self, c: usize) -> u32 {
        let (w, sh) = die_slot(c);
        let word = if w == 0 { self.dice[0] } else { self.dice[1] };
        (word >> sh) as u32 & 31
    }

    /// The cell code (see `code_of`) of cell index `c`.
    #[inline]
    pub(crate) const fn code_raw(&self, c: usize) -> u32 {
        let (w, sh) = code_slot(c);
        let word = if w == 0 { self.codes[0] } else { self.codes[1] };
        (word >> sh) as u32 & 15
    }

    /// The (die, code) table index of cell index `c`.
    #[inline]
    pub(crate) const fn dc(&self, c: usize) -> usize {
        dc_index(self.die_raw(c), self.code_raw(c))
    }

    /// Die and canonical face on cell index `c` (must be occupied).
    #[inline]
    pub(crate) fn piece_raw(&self, c: usize) -> (Die, Face) {
        let dc = self.dc(c);
        (Die::from_raw((dc >> 4) as u8), Face::from_raw(FACE_OF[dc]))
    }

    /// Toggles the code bits of cell index `c` by `code`.
    #[inline(always)]
    fn xor_code(&mut self, c: usize, code: u32) {
        let (w, sh) = code_slot(c);
        let v = (code as u64) << sh;
        self.codes[0] ^= if w == 0 { v } else { 0 };
        self.codes[1] ^= if w == 0 { 0 } else { v };
    }

    /// Toggles the die number bits of cell index `c` by `die`.
    #[inline(always)]
    fn xor_die(&mut self, c: usize, die: u32) {
        let (w, sh) = die_slot(c);
        let v = (die as u64) << sh;
        self.dice[0] ^= if w == 0 { v } else { 0 };
        self.dice[1] ^= if w == 0 { 0 } else { v };
    }

    /// Toggles (adds or removes) the piece `dc` on cell `c`, hash included.
    #[inline(always)]
    fn toggle<const H: bool>(&mut self, c: usize, dc: usize, h: &mut u64) {
        self.xor_code(c, dc as u32 & 15);
        self.xor_die(c, (dc >> 4) as u32);
        if H {
            *h ^= zobrist::PIECE[c][dc];
        }
    }

    /// Moves the piece `dc` from cell `from` to the empty cell `to`, hash included.
    #[inline(always)]
    fn move_piece<const H: bool>(&mut self, from: usize, to: usize, dc: usize, h: &mut u64) {
        self.xor_code(from, dc as u32 & 15);
        self.xor_code(to, dc as u32 & 15);
        self.xor_die(from, (dc >> 4) as u32);
        self.xor_die(to, (dc >> 4) as u32);
        if H {
            *h ^= zobrist::PIECE[from][dc] ^ zobrist::PIECE[to][dc];
        }
    }

    /// Replaces the restricted set; cells are stored smaller index first (31 = none),
    /// so that equal sets make equal positions.
    #[inline]
    fn set_restricted<const H: bool>(&mut self, a: u32, b: u32, h: &mut u64) {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        if H {
            for c in self.restricted() {
                *h ^= zobrist::RESTRICTED[c.index()];
            }
            *h ^= zobrist::RESTRICTED[a as usize & 31] ^ zobrist::RESTRICTED[b as usize & 31];
        }
        self.set(R0, a);
        self.set(R1, b);
    }

    #[inline(always)]
    fn toggle_side<const H: bool>(&mut self, h: &mut u64) {
        self.codes[1] ^= 1 << SIDE.0;
        if H {
            *h ^= zobrist::BLUE_TO_MOVE;
        }
    }

    #[inline]
    fn set_side<const H: bool>(&mut self, s: Side, h: &mut u64) {
        if self.side_to_move() != s {
            self.toggle_side::<H>(h);
        }
    }

    /// Adds a die that went through the door showing cell code `code` to its
    /// pile; the die is already off the board, as are `lifted` dice that the
    /// move puts back. The white discard is not stored ([`Position::piles`]):
    /// only its hash key changes.
    #[inline]
    fn bank<const H: bool>(&mut self, code: u32, lifted: u32, h: &mut u64) {
        let (field, idx) = if code & 4 != 0 {
            (PILE_RED, 0)
        } else if code & 8 != 0 {
            (PILE_BLUE, 1)
        } else {
            if H {
                // The banked die is off the board, counted in the discard already.
                let n = self.white_left(lifted) as usize - 1;
                *h ^= zobrist::PILE[2][n & 31] ^ zobrist::PILE[2][(n + 1) & 31];
            }
            return;
        };
        let n = self.get(field);
        if H {
            *h ^= zobrist::PILE[idx][n as usize & 31] ^ zobrist::PILE[idx][(n as usize + 1) & 31];
        }
        self.codes[1] += 1 << field.0;
    }

    #[inline(always)]
    fn tick_clock(&mut self) {
        self.dice[1] += 1 << CLOCK_SHIFT;
    }

    #[inline(always)]
    fn reset_clock(&mut self) {
        self.dice[1] &= !(63 << CLOCK_SHIFT);
    }

    #[inline]
    fn set_clock(&mut self, v: u32) {
        self.reset_clock();
        self.dice[1] |= (v.min(63) as u64) << CLOCK_SHIFT;
    }

    // ---- public reading -----------------------------------------------------

    /// The side that must make the next move (giver, placer or player).
    #[inline]
    pub const fn side_to_move(&self) -> Side {
        if self.get(SIDE) == 0 { Side::Red } else { Side::Blue }
    }

    /// The phase and what is to be done.
    #[inline]
    pub fn phase(&self) -> Phase {
        match self.get(PHASE) {
            PHASE_PLAY => Phase::Play,
            PHASE_GIVE => Phase::Give,
            PHASE_DECIDE => Phase::Decide,
            _ => Phase::Place(Die::from_raw(self.get(PENDING) as u8)),
        }
    }

    /// Whether the draft is over.
    #[inline]
    pub const fn is_play(&self) -> bool {
        self.get(PHASE) == PHASE_PLAY
    }

    /// Occupied cells.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        let (lo, hi) = (self.codes[0], self.codes[1] & CODES_HI);
        Bitboard(gather_nibbles(lo | lo >> 1) | gather_nibbles(hi | hi >> 1) << 16)
    }

    /// The cells whose die, or the face it shows, differs between `self`
    /// and `other` (a die come or gone included): what an evaluation
    /// kept up to date from `other` must read again. Word-wide, no loop
    /// over the cells.
    #[inline]
    pub fn cells_differing(&self, other: &Position) -> Bitboard {
        // A nibble (a cell's code) or a 5-bit field (its die) that differs
        // has a bit set; each is folded onto its lowest bit, then gathered.
        let codes = |x: u64| gather_nibbles(x | x >> 1 | x >> 2 | x >> 3);
        let (c0, c1) = (self.codes[0] ^ other.codes[0], (self.codes[1] ^ other.codes[1]) & CODES_HI);
        let dice = |x: u64, fields: u32| gather_fives(x | x >> 1 | x >> 2 | x >> 3 | x >> 4, fields);
        let (d0, d1) = (self.dice[0] ^ other.dice[0], self.dice[1] ^ other.dice[1]);
        Bitboard(codes(c0) | codes(c1) << 16 | dice(d0, 12) | dice(d1, CELLS_HI_DICE) << 12)
    }

    /// Number of dice on the board.
    #[inline]
    pub fn dice_count(&self) -> u32 {
        let (lo, hi) = (self.codes[0], self.codes[1] & CODES_HI);
        ((lo | lo >> 1) & NIBBLE_LOW).count_ones() + ((hi | hi >> 1) & NIBBLE_LOW).count_ones()
    }

    /// The cells by colour and symbol, in one read.
    #[inline]
    pub fn layers(&self) -> Layers {
        let p = self.planes();
        let (a, b) = (p.sym0, p.sym1);
        Layers {
            red: Bitboard(p.red),
            blue: Bitboard(p.blue),
            triangle: Bitboard(a & !b),
            square: Bitboard(b & !a),
            circle: Bitboard(a & b),
            occupied: Bitboard(a | b),
        }
    }

    /// Cells whose die shows colour `c`.
    #[inline]
    pub fn showing(&self, c: Colour) -> Bitboard {
        let p = self.planes();
        match c {
            Colour::Red => Bitboard(p.red),
            Colour::Blue => Bitboard(p.blue),
            Colour::White => Bitboard((p.sym0 | p.sym1) & !(p.red | p.blue)),
        }
    }

    /// Cells whose die shows symbol `s`.
    #[inline]
    pub fn with_symbol(&self, s: Symbol) -> Bitboard {
        let p = self.planes();
        let (a, b) = (p.sym0, p.sym1);
        Bitboard(match s {
            Symbol::Triangle => a & !b,
            Symbol::Square => b & !a,
            Symbol::Circle => a & b,
        })
    }

    /// Restricted cells (at most two).
    #[inline]
    pub const fn restricted(&self) -> Bitboard {
        Bitboard(((1u32 << self.get(R0)) | (1u32 << self.get(R1))) & BOARD)
    }

    /// The die on a cell.
    #[inline]
    pub fn die_at(&self, c: Cell) -> Option<Die> {
        Die::new(self.die_raw(c.index()) as u8)
    }

    /// The die on a cell with its canonical top face.
    #[inline]
    pub fn piece_at(&self, c: Cell) -> Option<(Die, Face)> {
        (self.die_raw(c.index()) != 0).then(|| self.piece_raw(c.index()))
    }

    /// The faces a quarter turn can bring up on the die on `c` (empty if none or no die).
    #[inline]
    pub fn turns_at(&self, c: Cell) -> FaceSet {
        FaceSet(TURN_FACES[self.dc(c.index())])
    }

    /// The cells whose die a quarter turn can make show red, and those it
    /// can make show blue (as [`Position::turns_at`] with each face's colour,
    /// read from a table: for evaluations that ask it of every cell).
    #[inline]
    pub fn turnable(&self) -> Turnable {
        // Every cell in turn, a fixed count the compiler unrolls (no loop
        // exit to mispredict, constant slots): an empty cell's (die 0,
        // code 0) entry is 0.
        let (mut red, mut blue) = (0u32, 0u32);
        for i in 0..crate::board::CELLS {
            let bits = u32::from(TURN_COLOURS[self.dc(i)]);
            red |= (bits & 1) << i;
            blue |= (bits >> 1) << i;
        }
        Turnable { red: Bitboard(red), blue: Bitboard(blue) }
    }

    /// Whether a flip of the die on `c` would change its shown colour (false if no die).
    #[inline]
    pub fn can_flip_at(&self, c: Cell) -> bool {
        FLIP_TO[self.dc(c.index())] != 0
    }

    /// The colour the die on a cell shows.
    pub fn colour_at(&self, c: Cell) -> Option<Colour> {
        self.piece_at(c).map(|(d, f)| d.colour(f))
    }

    /// The three piles. The white discard is what the board and the red and
    /// blue piles leave of the 23 dice in play (0 in the draft).
    #[inline]
    pub fn piles(&self) -> Piles {
        let (red, blue) = (self.get(PILE_RED) as u8, self.get(PILE_BLUE) as u8);
        Piles { red, blue, white: if self.is_play() { self.white_left(0) } else { 0 } }
    }

    /// The white discard in play, when `lifted` dice are off the board only
    /// for the time of a move (they will be put back).
    #[inline]
    fn white_left(&self, lifted: u32) -> u8 {
        (23 - lifted - self.dice_count() - self.get(PILE_RED) - self.get(PILE_BLUE)) as u8
    }

    /// Play half-moves since the last die went through the door.
    #[inline]
    pub const fn clock(&self) -> u8 {
        (self.dice[1] >> CLOCK_SHIFT) as u8 & 63
    }

    /// The side whose pile has reached its majority (5 in the rules;
    /// [`Position::majority_of`]), if any.
    #[inline]
    pub const fn majority(&self) -> Option<Side> {
        let (red, blue) = self.majorities();
        if self.get(PILE_RED) >= red {
            Some(Side::Red)
        } else if self.get(PILE_BLUE) >= blue {
            Some(Side::Blue)
        } else {
            None
        }
    }

    /// Red's and blue's majorities ([`Position::majority_of`]) without a
    /// branch: the second mover's differs from the first's by the stored xor.
    #[inline(always)]
    const fn majorities(&self) -> (u32, u32) {
        let m = self.majority_at() as u32;
        let x = (self.codes[1] >> V_SECOND & 7) as u32;
        // All ones when red moves first (blue is then the second mover).
        let red_first = 0u32.wrapping_sub((self.dice[0] >> V_MOVER & 1) as u32);
        (m ^ (x & !red_first), m ^ (x & red_first))
    }

    /// Whether majority or closure ends the game here (the ends that need no history
    /// and no move generation).
    #[inline]
    pub const fn is_over_by_rule(&self) -> bool {
        let (red, blue) = self.majorities();
        self.get(PILE_RED) >= red || self.get(PILE_BLUE) >= blue || self.clock() >= self.closure()
    }

    /// Dice on the board.
    pub fn dice_on_board(&self) -> DieSet {
        let mut s = 0;
        for c in self.occupied() {
            s |= 1 << self.die_raw(c.index());
        }
        DieSet(s)
    }

    /// Dice still in the reserve (draft): neither on the board nor waiting to be placed.
    pub fn reserve(&self) -> DieSet {
        let mut s = DieSet::ALL.0 & !self.dice_on_board().0;
        if let Phase::Place(d) = self.phase() {
            s &= !(1 << d.number());
        }
        if self.get(PHASE) == PHASE_PLAY {
            s = 0;
        }
        DieSet(s)
    }

    /// The Zobrist hash, computed from scratch.
    pub fn hash(&self) -> u64 {
        let mut h = 0;
        for c in self.occupied() {
            h ^= zobrist::PIECE[c.index()][self.dc(c.index())];
        }
        for c in self.restricted() {
            h ^= zobrist::RESTRICTED[c.index()];
        }
        if self.side_to_move() == Side::Blue {
            h ^= zobrist::BLUE_TO_MOVE;
        }
        h ^= match self.phase() {
            Phase::Play if self.swapped() => zobrist::SWAPPED,
            Phase::Play => 0,
            Phase::Decide => zobrist::DECIDE_PHASE,
            Phase::Give => zobrist::GIVE_PHASE,
            Phase::Place(d) => zobrist::PLACE_PHASE[d.kind() as usize],
        };
        let p = self.piles();
        h ^ zobrist::PILE[0][p.red as usize] ^ zobrist::PILE[1][p.blue as usize] ^ zobrist::PILE[2][p.white as usize]
    }

    // ---- building (used by the validated setup) ------------------------------

    /// Builds a position from parts already validated by `Setup`.
    pub(crate) fn from_parts(
        cells: &[Option<(Die, Face)>; 23],
        phase: Phase,
        side: Side,
        restricted: &[Cell],
        piles: Piles,
        clock: u8,
        swapped: bool,
    ) -> Position {
        let mut p = Position { codes: [0; 2], dice: [0; 2] };
        let mut h = 0;
        for (i, cell) in cells.iter().enumerate() {
            if let Some((d, f)) = cell {
                let code = code_by_face(d.number() as u32, f.index() as u32);
                p.toggle::<false>(i, dc_index(d.number() as u32, code), &mut h);
            }
        }
        let r = |i: usize| restricted.get(i).map_or(NONE_CELL, |c| c.index() as u32);
        p.set_restricted::<false>(r(0), r(1), &mut h);
        let (ph, pending) = match phase {
            Phase::Play => (PHASE_PLAY, swapped as u32),
            Phase::Decide => (PHASE_DECIDE, 0),
            Phase::Give => (PHASE_GIVE, 0),
            Phase::Place(d) => (PHASE_PLACE, d.number() as u32),
        };
        p.set(PHASE, ph);
        p.set(PENDING, pending);
        p.set(SIDE, side as u32);
        p.set(PILE_RED, piles.red as u32);
        p.set(PILE_BLUE, piles.blue as u32);
        // The white discard is not stored: `Setup` checked that the piles
        // and the board make 23 in play, and that piles are empty in the draft.
        p.set_clock(clock as u32);
        p
    }

    // ---- playing ------------------------------------------------------------

    /// What a legal move adds to the mover's pile and to the opponent's.
    /// Only a push sends a die through the door (to it, or ejected from a
    /// full row I), so any other move gives `(0, 0)` without being played.
    ///
    /// Read off the board without playing the move: the die that a push
    /// banks is its target (a push to the door) or the die on a full row I
    /// cell it pushes into (an ejection), and its pile is that of its
    /// colour, as [`Position::play_unchecked`] banks it.
    #[inline]
    pub fn pile_gain(&self, m: Move) -> (u8, u8) {
        if !m.is_push() {
            return (0, 0);
        }
        let (b, dest) = (m.b() as usize, m.c());
        let code = if dest == DOOR {
            self.code_raw(b)
        } else if dest >= 18 && self.die_raw(dest as usize) != 0 {
            self.code_raw(dest as usize)
        } else {
            return (0, 0);
        };
        // As `bank`: red if the code shows red, else blue if it shows blue, else white (nobody's pile).
        let colour = if code & 4 != 0 {
            Side::Red
        } else if code & 8 != 0 {
            Side::Blue
        } else {
            return (0, 0);
        };
        if colour == self.side_to_move() { (1, 0) } else { (0, 1) }
    }

    /// Plays a move known to be legal here (from `legal_moves` or checked
    /// with `is_legal`); an illegal move leaves an inconsistent position.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let mut h = 0;
        self.apply::<false>(m, &mut h);
    }

    /// As `play_unchecked`, updating `hash` (which must be this position's hash)
    /// incrementally.
    #[inline]
    pub fn play_hashed(&mut self, m: Move, hash: &mut u64) {
        self.apply::<true>(m, hash);
    }

    #[inline]
    fn apply<const H: bool>(&mut self, m: Move, h: &mut u64) {
        let (a, b) = (m.a() as usize, m.b() as usize);
        match m.raw_kind() {
            0 => {
                // give
                if H {
                    *h ^= zobrist::GIVE_PHASE ^ zobrist::PLACE_PHASE[Die::from_raw(a as u8).kind() as usize];
                }
                self.set(PHASE, PHASE_PLACE);
                self.set(PENDING, a as u32);
                self.toggle_side::<H>(h);
            }
            1 => {
                // place
                let die = Die::from_raw(a as u8);
                let code = code_by_face(a as u32, m.face_raw());
                self.toggle::<H>(b, dc_index(a as u32, code), h);
                self.set(PENDING, 0);
                if H {
                    *h ^= zobrist::PLACE_PHASE[die.kind() as usize];
                }
                let n = self.dice_count();
                if n == 23 && self.codes[1] >> V_SWAP & 1 != 0 {
                    // swap=yes: the player who would move second decides first.
                    if H {
                        *h ^= zobrist::DECIDE_PHASE;
                    }
                    self.set(PHASE, PHASE_DECIDE);
                    self.set_side::<H>(self.first_mover().other(), h);
                } else if n == 23 {
                    self.set(PHASE, PHASE_PLAY);
                    self.set_side::<H>(self.first_mover(), h);
                } else {
                    if H {
                        *h ^= zobrist::GIVE_PHASE;
                    }
                    self.set(PHASE, PHASE_GIVE);
                    // Placement n+1 is given by the first giver when n+1 is odd.
                    self.set_side::<H>(self.giver_of(n + 1), h);
                }
            }
            2 => {
                // shift: the die keeps its face
                let dc = self.dc(a);
                self.move_piece::<H>(a, b, dc, h);
                self.set_restricted::<H>(NONE_CELL, NONE_CELL, h);
                self.tick_clock();
                self.toggle_side::<H>(h);
            }
            6 => {
                // the decision after the draft: play begins, the first mover to move
                if H {
                    *h ^= zobrist::DECIDE_PHASE ^ if a == 1 { zobrist::SWAPPED } else { 0 };
                }
                self.set(PHASE, PHASE_PLAY);
                self.codes[1] |= (a as u64 & 1) << SWAPPED;
                self.set_side::<H>(self.first_mover(), h);
            }
            3 | 5 => {
                // flip or turn
                let dc = self.dc(b);
                let die = (dc >> 4) as u32;
                let new = if m.raw_kind() == 3 { FLIP_TO[dc] as u32 } else { code_by_face(die, m.face_raw()) };
                self.toggle::<H>(b, dc, h);
                self.toggle::<H>(b, dc_index(die, new), h);
                self.set_restricted::<H>(b as u32, NONE_CELL, h);
                self.tick_clock();
                self.toggle_side::<H>(h);
            }
            _ => {
                // push
                let dest = m.c();
                let target = self.dc(b);
                if dest == DOOR {
                    self.toggle::<H>(b, target, h);
                    self.bank::<H>(target as u32 & 15, 0, h);
                    self.set_restricted::<H>(NONE_CELL, NONE_CELL, h);
                    self.reset_clock();
                } else {
                    let t = dest as usize;
                    if self.die_raw(t) == 0 {
                        self.move_piece::<H>(b, t, target, h);
                        self.tick_clock();
                        self.set_restricted::<H>(dest, NONE_CELL, h);
                    } else {
                        self.toggle::<H>(b, target, h);
                        let other = self.dc(t);
                        self.toggle::<H>(t, other, h);
                        if t >= 18 {
                            // row I: ejection through the door
                            self.bank::<H>(other as u32 & 15, 1, h);
                            self.reset_clock();
                            self.set_restricted::<H>(dest, NONE_CELL, h);
                        } else {
                            // permutation
                            self.toggle::<H>(b, other, h);
                            self.tick_clock();
                            self.set_restricted::<H>(dest, b as u32, h);
                        }
                        self.toggle::<H>(t, target, h);
                    }
                }
                self.toggle_side::<H>(h);
            }
        }
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_spn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveKind;

    /// Plays `games` games from the start, each of at most `plies` random
    /// moves drawn from `rng`, showing `each` every position that has a
    /// move, with its legal moves, before one is played.
    fn random_walk(
        rng: &mut testkit::XorShift64,
        games: usize,
        plies: usize,
        mut each: impl FnMut(&Position, &[Move]),
    ) {
        for _ in 0..games {
            let mut p = Position::start();
            for _ in 0..plies {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                each(&p, &moves);
                p.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
    }

    #[test]
    fn cells_differing_are_the_cells_whose_piece_differs() {
        // Positions along random games, each against the next, one a few
        // plies on and one of another game: the word-wide mask is the
        // cell-by-cell comparison.
        let mut rng = testkit::XorShift64::new(11);
        let mut seen = Vec::new();
        random_walk(&mut rng, 40, 200, |p, _| seen.push(*p));
        let mut differing = 0;
        for (i, a) in seen.iter().enumerate() {
            for b in [seen[(i + 1) % seen.len()], seen[(i + 5) % seen.len()], seen[rng.below(seen.len())]] {
                let want =
                    Cell::all().filter(|&c| a.piece_at(c) != b.piece_at(c)).fold(0u32, |m, c| m | 1 << c.index());
                assert_eq!(a.cells_differing(&b).0, want, "{} against {}", a.to_spn(), b.to_spn());
                differing += want.count_ones();
            }
        }
        assert!(differing > 1000, "the positions differ somewhere ({differing})");
        for x in [0, u64::MAX, 0x0123_4567_89ab_cdef, 0x8421_0842_1084_2108] {
            for fields in [11, 12] {
                assert_eq!(gather_fives(x, fields), gather_fives_portable(x, fields), "{x:#x}");
            }
        }
    }

    #[test]
    fn layers_are_the_one_read_of_showing_and_with_symbol() {
        let mut p: Position = crate::sample::START.parse().unwrap();
        for k in 0..40 {
            let l = p.layers();
            for c in [Colour::Red, Colour::Blue, Colour::White] {
                assert_eq!(l.showing(c), p.showing(c), "{c:?} after {k} moves");
            }
            for s in Symbol::ALL {
                assert_eq!(l.with_symbol(s), p.with_symbol(s), "{s:?} after {k} moves");
            }
            assert_eq!(l.occupied, p.occupied());
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(k * 7) % moves.len()];
            p.play_unchecked(m);
        }
    }

    /// `pile_gain` read off the board agrees with playing the move, on
    /// every legal move of many positions of random games.
    #[test]
    fn pile_gain_is_that_of_playing_the_move() {
        let played = |p: &Position, m: Move| {
            if !matches!(m.kind(), MoveKind::Push { .. }) {
                return (0, 0);
            }
            let me = p.side_to_move();
            let before = p.piles();
            let mut q = *p;
            q.play_unchecked(m);
            let after = q.piles();
            (after.of(me) - before.of(me), after.of(me.other()) - before.of(me.other()))
        };
        let mut rng = testkit::XorShift64::new(7);
        let (mut pushes, mut banked) = (0, 0);
        random_walk(&mut rng, 200, 300, |p, moves| {
            for &m in moves {
                assert_eq!(p.pile_gain(m), played(p, m), "{m} in {}", p.to_spn());
                pushes += m.is_push() as u32;
                banked += (p.pile_gain(m) != (0, 0)) as u32;
            }
        });
        assert!(pushes > 1000 && banked > 100, "{pushes} pushes, {banked} banking");
    }

    /// `turnable` (a table) agrees with each die's quarter turns and their
    /// colours, on every cell of positions of random games.
    #[test]
    fn turnable_is_the_colours_of_the_quarter_turns() {
        let mut rng = testkit::XorShift64::new(5);
        let (mut red, mut blue) = (0, 0);
        for _ in 0..50 {
            let mut p = Position::start();
            for _ in 0..200 {
                let t = p.turnable();
                for cell in (0..crate::board::CELLS as u8).filter_map(Cell::from_index) {
                    let colours: Vec<Colour> = match p.piece_at(cell) {
                        Some((die, _)) => p.turns_at(cell).iter().map(|f| die.colour(f)).collect(),
                        None => Vec::new(),
                    };
                    let at = |b: Bitboard| b.0 >> cell.index() & 1 != 0;
                    assert_eq!(at(t.red), colours.contains(&Colour::Red), "{cell:?} in {}", p.to_spn());
                    assert_eq!(at(t.blue), colours.contains(&Colour::Blue), "{cell:?} in {}", p.to_spn());
                    assert_eq!(t.of(Side::Red), t.red);
                    red += at(t.red) as u32;
                    blue += at(t.blue) as u32;
                }
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        assert!(red > 1000 && blue > 1000, "{red} red, {blue} blue");
    }

    #[test]
    fn position_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Position>(), 32);
    }

    #[test]
    fn face_of_table_recovers_every_canonical_face() {
        for die in Die::all() {
            for f in Face::ALL {
                let c = die.canonical(f);
                let code = code_by_face(die.number() as u32, f.index() as u32);
                assert_eq!(code, code_of(die, c));
                assert_eq!(FACE_OF[dc_index(die.number() as u32, code)], c.index());
            }
        }
    }

    #[test]
    fn start_position() {
        let p = Position::start();
        assert_eq!(p.side_to_move(), Side::Blue);
        assert_eq!(p.phase(), Phase::Give);
        assert!(p.occupied().is_empty());
        assert!(p.restricted().is_empty());
        assert_eq!(p.reserve().len(), 23);
        assert_eq!(p.clock(), 0);
    }
}
