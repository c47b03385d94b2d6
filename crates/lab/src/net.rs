//! A small value network ([`Net`]), added to a learned evaluation's
//! logistic sum: the logit of a position is the hand-made features'
//! weighted sum *plus* this network's output, so a network with a zero
//! output layer is exactly the logistic model it started from. Sénat's
//! learned evaluation ([`crate::learned::Learned`]) and every other game's
//! ([`crate::games::learn`]) use the same network, file lines and trainer
//! ([`crate::net_train`]); each game says which inputs are on.
//!
//! Sénat's network ([`inputs`]) sees the position from the side to move: one input per
//! (cell, colour shown relative to the mover, symbol), per restricted
//! occupied cell, per (cell, colour a quarter turn can bring up), per pile
//! count of each side, per stretch of the closure clock, and whether the
//! mover is red ([`inputs`]). About sixty of its [`INPUTS`] inputs are on
//! in a position, so the hidden layer is a sum of that many weight rows
//! (an NNUE-style accumulator) followed by a clipped ReLU and one output.
//! Agents read it through rows summed ahead per cell state (`CellRows`:
//! about 25 rows a position), kept up to date per thread from the last
//! position evaluated (`LastSums`: a move changes a few cells, whose rows
//! alone are taken out and put in), the same sums to the bit. Seen from
//! the other side the
//! value changes sign, so the two sides' probabilities still add up to one.
//!
//! Weights are `f32`; the file form is `net.<name>=<numbers>` lines inside
//! a learned weights file ([`Net::parse_line`], [`Net::to_text`]). Training
//! and its losses use the `f32` network ([`Net::output`]); agents use its
//! integer form ([`Net::infer`]: 16-bit hidden sums, an exact integer
//! output sum), made from the weights on the first inference.
//! This module only reads positions: no search, no I/O, no randomness
//! (the trainer, [`crate::net_train`], draws the first weights).

use senat_rules::board::{CELLS, Cell};
use senat_rules::dice::{Colour, DICE, Die, Face, Side, Symbol};
use senat_rules::position::{Layers, Phase, Position};
use std::cell::RefCell;
use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// Sénat's board inputs: cell × (mover's colour, the opponent's, white) × symbol.
const BOARD: usize = CELLS * 9;
/// Restricted occupied cells.
const RESTRICTED: usize = BOARD;
/// Cell × (a quarter turn can show the mover's colour, the opponent's).
const TURNS: usize = RESTRICTED + CELLS;
/// The mover's pile, 0 to 4 dice (more is a decided game).
const OWN_PILE: usize = TURNS + 2 * CELLS;
/// The opponent's pile, 0 to 4.
const OPP_PILE: usize = OWN_PILE + 5;
/// The closure clock in [`CLOCK_STEPS`] stretches of the variant's closure.
const CLOCK: usize = OPP_PILE + 5;
/// Stretches of the clock.
pub const CLOCK_STEPS: usize = 12;
/// The mover is red.
const RED: usize = CLOCK + CLOCK_STEPS;
/// Number of Sénat's inputs.
pub const INPUTS: usize = RED + 1;
/// The most of Sénat's inputs on in one position (every cell's board input, its
/// restricted flag and both turn inputs, the piles, the clock, red).
pub const MAX_ACTIVE: usize = 4 * CELLS + 4;
/// The largest hidden layer a file may give.
pub const MAX_HIDDEN: usize = 256;

/// Sénat's draft network's inputs: the board's ([`BOARD`], as in play), then
/// each die left in the reserve × whether the mover is red.
const D_RESERVE: usize = BOARD;
/// The die being placed × whether the mover is red.
const D_PENDING: usize = D_RESERVE + 2 * DICE;
/// Placements made (0 to 23, the pending one not counted).
const D_PLACED: usize = D_PENDING + 2 * DICE;
/// The mover places (rather than gives).
const D_PLACING: usize = D_PLACED + DICE + 1;
/// The mover is red.
const D_RED: usize = D_PLACING + 1;
/// Number of the draft network's inputs.
pub const DRAFT_INPUTS: usize = D_RED + 1;
/// The most of them on in one position.
pub const DRAFT_MAX_ACTIVE: usize = CELLS + DICE + 4;

/// Room for the longest listing: a power of two, so that an index masked
/// by `LIST_ROOM - 1` needs no bounds check.
const LIST_ROOM: usize = 128;
const _: () = assert!(MAX_ACTIVE <= LIST_ROOM && DRAFT_MAX_ACTIVE <= LIST_ROOM);

/// Inputs being listed into a fixed buffer (no growth or bounds checks on
/// the way).
struct Listing {
    /// The inputs so far, then room.
    buf: [u16; LIST_ROOM],
    /// How many.
    n: usize,
}

impl Listing {
    /// An empty listing.
    #[inline(always)]
    fn new() -> Self {
        Listing { buf: [0; LIST_ROOM], n: 0 }
    }

    /// Adds input `i`.
    #[inline(always)]
    fn put(&mut self, i: usize) {
        // The game's bound (MAX_ACTIVE) keeps n below LIST_ROOM: the mask
        // only spares the check (kept in debug and test builds).
        debug_assert!(self.n < LIST_ROOM, "more inputs than LIST_ROOM");
        self.buf[self.n & (LIST_ROOM - 1)] = i as u16;
        self.n += 1;
    }

    /// Adds input `base + stride · k` for each cell index `k` in `bits`.
    #[inline(always)]
    fn put_cells(&mut self, mut bits: u32, base: usize, stride: usize) {
        while bits != 0 {
            self.put(base + stride * bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }

    /// The inputs listed.
    #[inline(always)]
    fn as_slice(&self) -> &[u16] {
        &self.buf[..self.n.min(LIST_ROOM)]
    }
}

/// Bit `k` of `x`'s low 16 bits moved to bit `4k` (x86 `pdep` when available).
#[inline(always)]
fn to_nibbles(x: u32) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the bmi2 target feature is enabled at compile time.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_pdep_u64(u64::from(x & 0xffff), 0x1111_1111_1111_1111)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        to_nibbles_portable(x)
    }
}

/// [`to_nibbles`] without `pdep`: each step doubles the gaps.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2", not(test)), allow(dead_code))]
#[inline(always)]
fn to_nibbles_portable(x: u32) -> u64 {
    let mut x = u64::from(x & 0xffff);
    x = (x | x << 24) & 0x0000_00ff_0000_00ff;
    x = (x | x << 12) & 0x000f_000f_000f_000f;
    x = (x | x << 6) & 0x0303_0303_0303_0303;
    (x | x << 3) & 0x1111_1111_1111_1111
}

/// The board inputs of `p` seen from its side to move (one per die: cell
/// × colour shown, the mover's, the opponent's or white, × symbol), in
/// cell order. Each cell's colour and symbol are first computed for all
/// cells at once, one nibble a cell; then one pass over the dice (one loop
/// exit to mispredict) reads each die's nibble.
#[inline(always)]
fn board_inputs(p: &Position, l: &Layers, out: &mut Listing) {
    let words = board_nibbles(p, l);
    let mut occ = l.occupied.0;
    while occ != 0 {
        let i = occ.trailing_zeros() as usize;
        occ &= occ - 1;
        out.put(i * 9 + nibble(&words, i));
    }
}

/// Each cell's board input less `9 · cell` (3 · colour shown relative to
/// the mover + symbol, 0 to 8), one nibble a cell: cells 0–15 in the first
/// word, 16–22 in the second. Meaningful for occupied cells only.
#[inline(always)]
fn board_nibbles(p: &Position, l: &Layers) -> [u64; 2] {
    let (mine, theirs) = match p.side_to_move() {
        Side::Red => (l.red.0, l.blue.0),
        Side::Blue => (l.blue.0, l.red.0),
    };
    let (square, circle) = (l.square.0, l.circle.0);
    // Mine 0, theirs 1, white 2; triangle 0, square 1, circle 2: the
    // nibble is 3 · colour + symbol = 6 + square + 2 · circle − 6 · mine −
    // 3 · theirs. Every nibble of the sum is at most 8 and of the
    // difference at least 0, so no nibble carries into or borrows from the
    // next.
    let nibbles = |shift: u32| {
        let n = |b: u32| to_nibbles(b >> shift);
        (0x6666_6666_6666_6666 + n(square) + 2 * n(circle)) - (6 * n(mine) + 3 * n(theirs))
    };
    [nibbles(0), nibbles(16)]
}

/// Cell `i`'s nibble of [`board_nibbles`].
#[inline(always)]
fn nibble(words: &[u64; 2], i: usize) -> usize {
    (words[(i >> 4) & 1] >> (4 * (i & 15))) as usize & 15
}

/// Bit `k` of `x`'s low 8 bits moved to bit `8k` (a byte per cell).
#[inline(always)]
fn to_bytes(x: u32) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the bmi2 target feature is enabled at compile time.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_pdep_u64(u64::from(x & 0xff), 0x0101_0101_0101_0101)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        to_bytes_portable(x)
    }
}

/// [`to_bytes`] without `pdep`.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2", not(test)), allow(dead_code))]
#[inline(always)]
fn to_bytes_portable(x: u32) -> u64 {
    (0..8).fold(0, |acc, k| acc | u64::from(x >> k & 1) << (8 * k))
}

/// Nibble `k` of `x`'s low 32 bits moved to byte `k`.
#[inline(always)]
fn nibbles_to_bytes(x: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the bmi2 target feature is enabled at compile time.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_pdep_u64(x & 0xffff_ffff, 0x0f0f_0f0f_0f0f_0f0f)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        nibbles_to_bytes_portable(x)
    }
}

/// [`nibbles_to_bytes`] without `pdep`.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2", not(test)), allow(dead_code))]
#[inline(always)]
fn nibbles_to_bytes_portable(x: u64) -> u64 {
    (0..8).fold(0, |acc, k| acc | (x >> (4 * k) & 15) << (8 * k))
}

/// Each cell's state of [`CellRows`], a byte a cell (cells 0–22, then a
/// spare 0): its board input ([`board_nibbles`]) or [`EMPTY`], plus 10 if a
/// quarter turn can show the mover's colour (`to_me`), plus 20 if the
/// opponent's (`to_them`). Computed eight cells at a time (each byte at
/// most 39: no byte carries into the next).
#[inline(always)]
fn cell_states(p: &Position, l: &Layers, to_me: u32, to_them: u32) -> [u8; 24] {
    let words = board_nibbles(p, l);
    let occ = l.occupied.0;
    let nibbles = [words[0], words[0] >> 32, words[1]];
    let mut out = [0u8; 24];
    for (k, chunk) in out.chunks_exact_mut(8).enumerate() {
        let shift = 8 * k as u32;
        let here = to_bytes(occ >> shift);
        let empty = to_bytes(!occ >> shift);
        // The board input where a die is (0xff · a 0/1 byte keeps it).
        let board = (nibbles_to_bytes(nibbles[k]) & (here * 0xff)) + EMPTY as u64 * empty;
        let state = board + 10 * to_bytes(to_me >> shift) + 20 * to_bytes(to_them >> shift);
        chunk.copy_from_slice(&state.to_le_bytes());
    }
    out[CELLS..].fill(0);
    out
}

/// Every cell's state of [`CellRows`] in `p` (layers `l`), seen from its
/// side to move ([`cell_states`] with the quarter turns' colours).
#[inline(always)]
fn states_of(p: &Position, l: &Layers) -> [u8; 24] {
    let me = p.side_to_move();
    let t = p.turnable();
    cell_states(p, l, t.of(me).0, t.of(me.other()).0)
}

/// The state of [`cell_states`] of a cell holding die `d` showing face
/// `f`, seen from a mover playing `mine`: what one cell's die alone decides.
const fn piece_state(d: Die, f: Face, mine: Colour) -> u8 {
    let colour = d.colour(f);
    let shown = if colour as u8 == mine as u8 {
        0
    } else if matches!(colour, Colour::White) {
        2
    } else {
        1
    };
    let symbol = match f.symbol() {
        Symbol::Triangle => 0,
        Symbol::Square => 1,
        Symbol::Circle => 2,
    };
    // The colours a quarter turn can bring up.
    let turns = d.turns(f);
    let (mut to_me, mut to_them) = (0, 0);
    let mut k = 0;
    while k < 6 {
        let g = Face::ALL[k];
        if turns.contains(g) {
            let c = d.colour(g);
            if c as u8 == mine as u8 {
                to_me = 1;
            } else if !matches!(c, Colour::White) {
                to_them = 1;
            }
        }
        k += 1;
    }
    3 * shown + symbol + 10 * to_me + 20 * to_them
}

/// [`piece_state`] of every die and face (at `(number − 1) · 6 + face
/// index`), for a red mover (`[0]`) and a blue one (`[1]`).
static PIECE_STATES: [[u8; DICE * 6]; 2] = {
    let mut t = [[0u8; DICE * 6]; 2];
    let mut n = 1;
    while n <= DICE {
        let Some(d) = Die::new(n as u8) else { panic!("dice 1 to 23") };
        let mut k = 0;
        while k < 6 {
            t[0][(n - 1) * 6 + k] = piece_state(d, Face::ALL[k], Colour::Red);
            t[1][(n - 1) * 6 + k] = piece_state(d, Face::ALL[k], Colour::Blue);
            k += 1;
        }
        n += 1;
    }
    t
};

/// Cell `i`'s state of [`cell_states`] in `p`, read from its die alone.
#[inline(always)]
fn cell_state(p: &Position, i: usize) -> u8 {
    let cell = Cell::from_index(i as u8).expect("a cell of the board");
    match p.piece_at(cell) {
        None => EMPTY as u8,
        Some((d, f)) => {
            let mover = usize::from(p.side_to_move() == Side::Blue);
            PIECE_STATES[mover][(usize::from(d.number()) - 1) * 6 + usize::from(f.index())]
        }
    }
}

/// The closure clock's stretch, 0 to [`CLOCK_STEPS`] − 1.
#[inline(always)]
fn clock_step(p: &Position) -> usize {
    let closure = usize::from(p.closure().max(1));
    (usize::from(p.clock()) * CLOCK_STEPS / closure).min(CLOCK_STEPS - 1)
}

/// The inputs that are on in draft position `p`, seen from its side to
/// move (the giver, or the placer): the dice placed (`board_inputs`),
/// the reserve, the die being placed, the placements made, whether the
/// mover places and whether it is red.
pub fn draft_inputs(p: &Position, out: &mut Vec<u16>) {
    into_vec(p, out, list_draft_inputs);
}

/// `list`'s inputs of `p`, into `out` (cleared first).
fn into_vec(p: &Position, out: &mut Vec<u16>, list: fn(&Position, &mut Listing)) {
    let mut v = Listing::new();
    list(p, &mut v);
    out.clear();
    out.extend_from_slice(v.as_slice());
}

/// [`draft_inputs`], into the empty listing `v`.
#[inline]
fn list_draft_inputs(p: &Position, v: &mut Listing) {
    board_inputs(p, &p.layers(), v);
    let red = usize::from(p.side_to_move() == Side::Red);
    // Die n (1 to 23) is bit n of the reserve.
    v.put_cells(p.reserve().0 >> 1, D_RESERVE + red, 2);
    if let Phase::Place(d) = p.phase() {
        v.put(D_PENDING + 2 * (usize::from(d.number()) - 1) + red);
        v.put(D_PLACING);
    }
    v.put(D_PLACED + (p.dice_count() as usize).min(DICE));
    if red == 1 {
        v.put(D_RED);
    }
}

/// The inputs that are on in play position `p`, seen from its side to move.
pub fn inputs(p: &Position, out: &mut Vec<u16>) {
    into_vec(p, out, list_inputs);
}

/// [`inputs`], into the empty listing `v`.
#[inline]
fn list_inputs(p: &Position, v: &mut Listing) {
    let me = p.side_to_move();
    let l = p.layers();
    board_inputs(p, &l, v);
    v.put_cells((p.restricted() & l.occupied).0, RESTRICTED, 1);
    // A quarter turn's colours, read from the rules' table: the mover's,
    // then the opponent's.
    let t = p.turnable();
    v.put_cells(t.of(me).0, TURNS, 2);
    v.put_cells(t.of(me.other()).0, TURNS + 1, 2);
    let piles = p.piles();
    v.put(OWN_PILE + usize::from(piles.of(me).min(4)));
    v.put(OPP_PILE + usize::from(piles.of(me.other()).min(4)));
    v.put(CLOCK + clock_step(p));
    if me == Side::Red {
        v.put(RED);
    }
}

/// The network: inputs → `hidden` clipped ReLUs → one output (log-odds
/// for the side to move, added to the logistic sum).
///
/// Agents evaluate it through its integer form ([`Net::infer`]), made
/// from the weights on the first inference and kept: change the weights
/// of a network before it is first inferred, or of a clone (a clone starts
/// without one). Training changes its own copy and reads [`Net::output`].
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// Inputs (rows of `w1`).
    pub inputs: usize,
    /// Hidden units.
    pub hidden: usize,
    /// Input weights, row `i` (input `i`) at `[i * hidden .. (i + 1) * hidden]`.
    pub w1: Vec<f32>,
    /// Hidden biases.
    pub b1: Vec<f32>,
    /// Output weights.
    pub w2: Vec<f32>,
    /// Output bias.
    pub b2: f32,
    /// The integer form, made on the first [`Net::infer`].
    quant: QuantCell,
}

/// The largest hidden scale of the integer form (a unit's 1.0 is at most
/// this many steps): finer adds nothing a game can see.
const QA_MAX: f64 = 4096.0;

/// The integer form of a [`Net`] ([`Net::infer`]): input weights and
/// biases in steps of 1/`qa` of a hidden unit's clipped range, summed in
/// 16 bits; output weights in steps of 1/`qb`, the output summed exactly
/// in 32 bits. The scales are the finest at which no hidden sum (every
/// input on) and no output sum can overflow, so every sum is exact and
/// the order of the additions does not matter (16 lanes at a time).
#[derive(Debug)]
struct Quant {
    /// Input weights, as [`Net::w1`].
    w1: Vec<i16>,
    /// Hidden biases.
    b1: Vec<i16>,
    /// Output weights.
    w2: Vec<i32>,
    /// A hidden unit's 1.0 (the top of the clipped ReLU).
    qa: i16,
    /// 1 / (qa · qb): from the output sum to log-odds.
    out_scale: f32,
    /// The output bias, as in the network.
    b2: f32,
}

impl Quant {
    /// The integer form of `n`, or `None` when its weights are too large
    /// for one (a hidden sum beyond 32,767 steps of one unit's range).
    fn new(n: &Net) -> Option<Quant> {
        let h = n.hidden;
        // The largest hidden sum, every input on; rounding adds at most half
        // a step per term.
        let bound = (0..h)
            .map(|u| f64::from(n.b1[u].abs()) + (0..n.inputs).map(|i| f64::from(n.w1[i * h + u].abs())).sum::<f64>())
            .fold(0.0, f64::max);
        let room = f64::from(i16::MAX) - (n.inputs as f64 + 1.0) * 0.5;
        let w2_sum: f64 = n.w2.iter().map(|w| f64::from(w.abs())).sum();
        // The output sum is at most qa · (qb · Σ|w2| + h / 2) < 2^31, with qb ≥ 1.
        let out_room = f64::from(i32::MAX) / (w2_sum + h as f64);
        let qa = (room / bound.max(f64::MIN_POSITIVE)).min(QA_MAX).min(out_room).floor();
        if qa < 1.0 {
            return None;
        }
        let qb = ((f64::from(i32::MAX) / qa - h as f64 * 0.5) / w2_sum.max(f64::MIN_POSITIVE)).min(1e9).floor();
        let q16 = |w: f32| (f64::from(w) * qa).round() as i16;
        Some(Quant {
            w1: n.w1.iter().map(|&w| q16(w)).collect(),
            b1: n.b1.iter().map(|&w| q16(w)).collect(),
            w2: n.w2.iter().map(|&w| (f64::from(w) * qb).round() as i32).collect(),
            qa: qa as i16,
            out_scale: (1.0 / (qa * qb)) as f32,
            b2: n.b2,
        })
    }

    /// The output for the inputs `active`, 16·`C` hidden units: each group
    /// of 16 sums stays in one 256-bit register.
    #[inline]
    fn output_lanes<const C: usize>(&self, active: &[u16]) -> f32 {
        let mut acc = [[0i16; 16]; C];
        for (c, a) in acc.iter_mut().enumerate() {
            *a = self.b1[16 * c..16 * c + 16].try_into().expect("16 biases");
        }
        for &i in active {
            let at = usize::from(i) * 16 * C;
            let row = &self.w1[at..at + 16 * C];
            for (c, a) in acc.iter_mut().enumerate() {
                let r: &[i16; 16] = row[16 * c..16 * c + 16].try_into().expect("16 weights");
                *a = add16(a, r);
            }
        }
        self.finish(acc.as_flattened())
    }

    /// The output for any hidden size.
    fn output_any(&self, active: &[u16]) -> f32 {
        let h = self.b1.len();
        let mut acc = [0i16; MAX_HIDDEN];
        acc[..h].copy_from_slice(&self.b1);
        for &i in active {
            let row = &self.w1[usize::from(i) * h..(usize::from(i) + 1) * h];
            for (a, w) in acc[..h].iter_mut().zip(row) {
                *a = a.wrapping_add(*w);
            }
        }
        self.finish(&acc[..h])
    }

    /// The clipped hidden sums `acc` through the output weights.
    #[inline(always)]
    fn finish(&self, acc: &[i16]) -> f32 {
        let mut sum = 0i32;
        for (&a, &w) in acc.iter().zip(&self.w2) {
            // Bounded by the scales: exact.
            sum = sum.wrapping_add(i32::from(a.clamp(0, self.qa)).wrapping_mul(w));
        }
        self.b2 + sum as f32 * self.out_scale
    }

    /// The output for the inputs `active`.
    #[inline]
    fn output(&self, active: &[u16]) -> f32 {
        match self.b1.len() {
            16 => self.output_lanes::<1>(active),
            32 => self.output_lanes::<2>(active),
            48 => self.output_lanes::<3>(active),
            64 => self.output_lanes::<4>(active),
            _ => self.output_any(active),
        }
    }
}

/// Adds `row` (16·`C` weights) to the sums `acc`, 16 lanes at a time.
#[inline(always)]
fn add_row<const C: usize>(acc: &mut [[i16; 16]; C], row: &[i16]) {
    for (c, a) in acc.iter_mut().enumerate() {
        let r: &[i16; 16] = row[16 * c..16 * c + 16].try_into().expect("16 weights");
        *a = add16(a, r);
    }
}

/// `a + b` lane by lane, wrapping (one 256-bit add).
#[inline(always)]
fn add16(a: &[i16; 16], b: &[i16; 16]) -> [i16; 16] {
    std::array::from_fn(|k| a[k].wrapping_add(b[k]))
}

/// A cell's states for [`CellRows`]: its board input (9 of them, or none
/// for an empty cell: 10) × a quarter turn can show the mover's colour ×
/// the opponent's.
const CELL_STATES: usize = 10 * 4;
/// The board input "none" of a cell state: an empty cell.
const EMPTY: usize = 9;
/// The combinations of the position-wide inputs: own pile (5) × the
/// opponent's (5) × the clock's stretch × red.
const GLOBALS: usize = 5 * 5 * CLOCK_STEPS * 2;

/// Sénat's play network's integer first layer with its rows summed ahead
/// by what one cell can show: a position's hidden sums are the row of its
/// position-wide inputs (piles, clock, red, with the biases) plus one row
/// per occupied cell (its board input and both turn inputs) plus the rows
/// of the restricted cells (at most two, [`Quant`]'s own), about 25 rows
/// instead of about 60; the tables (120 KB for 64 hidden units) are kept
/// small, as a row read from further than the first-level cache costs
/// more than an add. Each row is the wrapping
/// 16-bit sum of [`Quant`]'s rows that it stands for, and 16-bit wrapping
/// addition is associative and commutative: the sums, hence the outputs,
/// are [`Quant::output`]'s of the listed inputs to the bit
/// (`the_cell_rows_are_the_listed_sum_to_the_bit`).
#[derive(Debug)]
struct CellRows {
    /// This table's own number (never reused in a process): what the
    /// per-thread sums of [`LastSums`] are keyed by.
    id: u64,
    /// Hidden units (a multiple of 16, at most 64).
    hidden: usize,
    /// Row (cell, state) at `(cell · CELL_STATES + state) · hidden`, state
    /// = board input (or [`EMPTY`]) + 10 · (turn to the mover's colour + 2
    /// · turn to the opponent's).
    cells: Vec<i16>,
    /// Row `((own · 5 + opp) · CLOCK_STEPS + step) · 2 + red` at that index
    /// times `hidden`: the biases plus the piles', the clock's and red's rows.
    globals: Vec<i16>,
}

impl CellRows {
    /// The summed rows of `q`, a Sénat play network ([`INPUTS`] inputs),
    /// or `None` for a hidden size without a kernel here (the listed
    /// inputs then serve).
    fn new(q: &Quant) -> Option<CellRows> {
        let h = q.b1.len();
        if !h.is_multiple_of(16) || h > 64 || q.w1.len() != INPUTS * h {
            return None;
        }
        let row = |i: usize| &q.w1[i * h..(i + 1) * h];
        let add = |acc: &mut [i16], r: &[i16]| acc.iter_mut().zip(r).for_each(|(a, w)| *a = a.wrapping_add(*w));
        let mut cells = vec![0i16; CELLS * CELL_STATES * h];
        for (k, acc) in cells.chunks_exact_mut(h).enumerate() {
            let (cell, state) = (k / CELL_STATES, k % CELL_STATES);
            let (board, flags) = (state % 10, state / 10);
            if board != EMPTY {
                add(acc, row(cell * 9 + board));
            }
            if flags & 1 != 0 {
                add(acc, row(TURNS + 2 * cell));
            }
            if flags & 2 != 0 {
                add(acc, row(TURNS + 2 * cell + 1));
            }
        }
        let mut globals = vec![0i16; GLOBALS * h];
        for (g, acc) in globals.chunks_exact_mut(h).enumerate() {
            let (red, step, opp, own) = (g % 2, g / 2 % CLOCK_STEPS, g / (2 * CLOCK_STEPS) % 5, g / (10 * CLOCK_STEPS));
            acc.copy_from_slice(&q.b1);
            add(acc, row(OWN_PILE + own));
            add(acc, row(OPP_PILE + opp));
            add(acc, row(CLOCK + step));
            if red == 1 {
                add(acc, row(RED));
            }
        }
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        Some(CellRows { id, hidden: h, cells, globals })
    }

    /// The network's output for play position `p` (seen from its side to
    /// move), as [`Quant::output`] of its listed inputs.
    /// With `fresh`, the cells' rows are summed from zero; otherwise from
    /// the thread's last sum ([`LastSums`]): the same value to the bit.
    #[inline]
    fn output(&self, q: &Quant, p: &Position, fresh: bool) -> f32 {
        match self.hidden {
            16 => self.output_lanes::<1>(q, p, fresh),
            32 => self.output_lanes::<2>(q, p, fresh),
            48 => self.output_lanes::<3>(q, p, fresh),
            _ => self.output_lanes::<4>(q, p, fresh),
        }
    }

    /// [`CellRows::output`] for 16·`C` hidden units, the sums in registers.
    #[inline]
    fn output_lanes<const C: usize>(&self, q: &Quant, p: &Position, fresh: bool) -> f32 {
        let me = p.side_to_move();
        let l = p.layers();
        let piles = p.piles();
        let own = usize::from(piles.of(me).min(4));
        let opp = usize::from(piles.of(me.other()).min(4));
        let g = ((own * 5 + opp) * CLOCK_STEPS + clock_step(p)) * 2 + usize::from(me == Side::Red);
        let at = g * 16 * C;
        let row = &self.globals[at..at + 16 * C];
        let mut acc: [[i16; 16]; C] = std::array::from_fn(|c| row[16 * c..16 * c + 16].try_into().expect("16 weights"));
        let restricted = (p.restricted() & l.occupied).0;
        if fresh {
            self.add_cells(&states_of(p, &l), &mut acc);
        } else {
            LAST_SUMS.with_borrow_mut(|last| last.add_cell_sums(self, p, &l, &mut acc));
        }
        let mut restricted = restricted;
        while restricted != 0 {
            let at = (RESTRICTED + restricted.trailing_zeros() as usize) * 16 * C;
            restricted &= restricted - 1;
            add_row(&mut acc, &q.w1[at..at + 16 * C]);
        }
        q.finish(acc.as_flattened())
    }

    /// Adds the cells' rows of `states` to `acc`, every cell: a fixed
    /// count the compiler unrolls, where an empty cell that no turn
    /// concerns adds its state's row of zeros, cheaper than a loop exit to
    /// mispredict.
    #[inline(always)]
    fn add_cells<const C: usize>(&self, states: &[u8; 24], acc: &mut [[i16; 16]; C]) {
        for (i, &state) in states.iter().enumerate().take(CELLS) {
            add_row(acc, self.cell_row::<C>(i, state));
        }
    }

    /// The row of cell `i` in state `state`.
    #[inline(always)]
    fn cell_row<const C: usize>(&self, i: usize, state: u8) -> &[i16] {
        let at = (i * CELL_STATES + usize::from(state)) * 16 * C;
        &self.cells[at..at + 16 * C]
    }
}

/// The incremental first layer: the cell rows' sum of the positions this
/// thread evaluated last, one per (table, side to move) for the last few
/// pairs, so that the next position's sum is the last one's plus the rows
/// of the cells whose die changed less their old rows
/// ([`Position::cells_differing`], each new state read from its die
/// alone: [`cell_state`]): a move changes a few cells, so evaluating a
/// position's children in turn, or the leaves of a search one after
/// another, reads and adds a few rows instead of every cell's. The sums
/// are 16-bit wrapping, in which subtraction undoes addition exactly: the
/// result is the sum from zero to the bit, whatever was evaluated before
/// and in whatever order (`the_last_sums_are_the_sums_from_zero`). Kept
/// per thread so that no caller passes state (searches run one per
/// thread); a table's sums are keyed by its never-reused number, so a
/// dropped table's can never be taken for a new one's.
struct LastSums {
    /// The slots, each a (table, side to move) pair's last sum.
    slots: [LastSum; LAST_SLOTS],
    /// The slot the next new pair takes (in turn).
    next: usize,
    /// Sums made from the last one (the tests' proof that the path runs).
    #[cfg(test)]
    incremental: usize,
}

/// Pairs of (table, side to move) kept per thread: both sides of two
/// networks (an arena of two network agents).
const LAST_SLOTS: usize = 4;

/// A changed-cell count beyond which the sum is made from zero: every
/// cell's row against two rows a changed cell.
const MOST_CHANGED: u32 = 8;

/// One (table, side to move) pair's last position, its cell states and
/// their rows' sum.
#[derive(Clone, Copy)]
struct LastSum {
    /// The table's [`CellRows::id`]; 0: none yet.
    id: u64,
    /// The side to move.
    mover: Side,
    /// The position.
    pos: Position,
    /// Its cell states ([`cell_states`]).
    states: [u8; 24],
    /// Their rows' sum (the first `C` groups of 16 hidden units).
    sums: [[i16; 16]; 4],
}

thread_local! {
    static LAST_SUMS: RefCell<LastSums> = const {
        RefCell::new(LastSums {
            slots: [LastSum {
                id: 0,
                mover: Side::Red,
                pos: Position::start(),
                states: [0; 24],
                sums: [[0; 16]; 4],
            }; LAST_SLOTS],
            next: 0,
            #[cfg(test)]
            incremental: 0,
        })
    };
}

impl LastSums {
    /// Adds to `acc` the sum of `rows`' cell rows for play position `p`
    /// (layers `l`), made from the last such sum of the same table and
    /// side to move where there is one and few cells changed, and kept as
    /// the last.
    #[inline(always)]
    fn add_cell_sums<const C: usize>(&mut self, rows: &CellRows, p: &Position, l: &Layers, acc: &mut [[i16; 16]; C]) {
        let mover = p.side_to_move();
        let found = self.slots.iter().position(|s| s.id == rows.id && s.mover == mover);
        let slot = match found {
            Some(k) => {
                let last = &mut self.slots[k];
                let mut changed = p.cells_differing(&last.pos).0;
                if changed.count_ones() <= MOST_CHANGED {
                    let sums: &mut [[i16; 16]; C] = (&mut last.sums[..C]).try_into().expect("C ≤ 4 groups");
                    while changed != 0 {
                        let i = changed.trailing_zeros() as usize;
                        changed &= changed - 1;
                        let state = cell_state(p, i);
                        sub_row(sums, rows.cell_row::<C>(i, last.states[i]));
                        add_row(sums, rows.cell_row::<C>(i, state));
                        last.states[i] = state;
                    }
                    last.pos = *p;
                    for (a, c) in acc.iter_mut().zip(sums.iter()) {
                        *a = add16(a, c);
                    }
                    #[cfg(test)]
                    {
                        self.incremental += 1;
                    }
                    return;
                }
                k
            }
            None => {
                let k = self.next;
                self.next = (k + 1) % LAST_SLOTS;
                k
            }
        };
        let states = states_of(p, l);
        let mut sums = [[0i16; 16]; C];
        rows.add_cells(&states, &mut sums);
        for (a, c) in acc.iter_mut().zip(&sums) {
            *a = add16(a, c);
        }
        let last = &mut self.slots[slot];
        *last = LastSum { id: rows.id, mover, pos: *p, states, sums: [[0; 16]; 4] };
        last.sums[..C].copy_from_slice(&sums);
    }
}

/// Subtracts `row` (16·`C` weights) from the sums `acc`, wrapping.
#[inline(always)]
fn sub_row<const C: usize>(acc: &mut [[i16; 16]; C], row: &[i16]) {
    for (c, a) in acc.iter_mut().enumerate() {
        let r: &[i16; 16] = row[16 * c..16 * c + 16].try_into().expect("16 weights");
        *a = std::array::from_fn(|k| a[k].wrapping_sub(r[k]));
    }
}

/// Where a network keeps its integer form (and, for Sénat's play network,
/// its [`CellRows`]): empty in a new network and in a clone; never part of
/// a comparison.
#[derive(Default)]
struct QuantCell(OnceLock<Option<Quant>>, OnceLock<Option<CellRows>>);

impl Clone for QuantCell {
    fn clone(&self) -> QuantCell {
        QuantCell::default()
    }
}

impl PartialEq for QuantCell {
    fn eq(&self, _: &QuantCell) -> bool {
        true
    }
}

impl fmt::Debug for QuantCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.get().is_some() { "QuantCell(made)" } else { "QuantCell(not yet)" })
    }
}

impl Net {
    /// A network of `inputs` inputs and `hidden` units whose weights are all zero.
    pub fn zeros(inputs: usize, hidden: usize) -> Net {
        Net {
            inputs,
            hidden,
            w1: vec![0.0; inputs * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; hidden],
            b2: 0.0,
            quant: QuantCell::default(),
        }
    }

    /// The output for the inputs `active` (each listed once, as every
    /// game's listing does: the scales' bound counts each row once) as
    /// agents see it: the integer form's (made from the weights on the
    /// first call), within the rounding of its scales of [`Net::output`];
    /// [`Net::output`] itself for weights too large for an integer form.
    #[inline]
    pub fn infer(&self, active: &[u16]) -> f32 {
        match self.quant.0.get_or_init(|| Quant::new(self)) {
            Some(q) => q.output(active),
            None => self.output(active),
        }
    }

    /// The hidden units' sums for the inputs `active` (before the ReLU).
    #[inline]
    pub fn accumulate(&self, active: &[u16], acc: &mut [f32]) {
        let h = self.hidden;
        acc[..h].copy_from_slice(&self.b1);
        for &i in active {
            let row = &self.w1[usize::from(i) * h..(usize::from(i) + 1) * h];
            for (a, w) in acc[..h].iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output for the inputs `active`.
    #[inline]
    pub fn output(&self, active: &[u16]) -> f32 {
        // Sizes with a kernel of their own keep the hidden sums in
        // registers (a slice of runtime length lives in memory, and each
        // row's add then waits on the last one's store); every size adds in
        // the same order, so the result is the same to the bit.
        match self.hidden {
            8 => self.output_fixed::<8>(active),
            16 => self.output_fixed::<16>(active),
            32 => self.output_fixed::<32>(active),
            64 => self.output_fixed::<64>(active),
            _ => self.output_any(active),
        }
    }

    /// [`Net::output`] for `H` hidden units (`H == self.hidden`).
    #[inline]
    fn output_fixed<const H: usize>(&self, active: &[u16]) -> f32 {
        let mut acc: [f32; H] = self.b1[..H].try_into().expect("H is the hidden size");
        for &i in active {
            let at = usize::from(i) * H;
            let row: &[f32; H] = self.w1[at..at + H].try_into().expect("a row of H weights");
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        let w2: &[f32; H] = self.w2[..H].try_into().expect("H output weights");
        let mut out = self.b2;
        for (a, w) in acc.iter().zip(w2) {
            out += a.clamp(0.0, 1.0) * w;
        }
        out
    }

    /// [`Net::output`] for any hidden size.
    fn output_any(&self, active: &[u16]) -> f32 {
        let mut acc = [0.0f32; MAX_HIDDEN];
        self.accumulate(active, &mut acc);
        let mut out = self.b2;
        for (a, w) in acc[..self.hidden].iter().zip(&self.w2) {
            out += a.clamp(0.0, 1.0) * w;
        }
        out
    }

    /// The network's log-odds that `me` wins Sénat play position `p`. The
    /// first layer's sums are kept per thread from the last position
    /// evaluated (the rows of the cells that changed taken out and put
    /// in: see the module's comment); the value is the same to the bit as
    /// [`Net::logit_fresh`]'s.
    #[inline]
    pub fn logit(&self, p: &Position, me: Side) -> f64 {
        self.logit_rows(p, me, false)
    }

    /// [`Net::logit`] with the cells' rows summed from zero instead of
    /// from the thread's last sums: the same value to the
    /// bit, at the cost of every cell's row; the reference of the tests
    /// and the bench.
    #[inline]
    pub fn logit_fresh(&self, p: &Position, me: Side) -> f64 {
        self.logit_rows(p, me, true)
    }

    /// [`Net::logit`], the cell rows from zero if `fresh`.
    #[inline(always)]
    fn logit_rows(&self, p: &Position, me: Side, fresh: bool) -> f64 {
        // The summed cell rows where there is an integer form with a kernel
        // for its size (the same value as the listed inputs', sooner).
        if let Some(q) = self.quant.0.get_or_init(|| Quant::new(self))
            && self.inputs == INPUTS
            && let Some(rows) = self.quant.1.get_or_init(|| CellRows::new(q))
        {
            let out = f64::from(rows.output(q, p, fresh));
            return if p.side_to_move() == me { out } else { -out };
        }
        self.logit_by(p, me, list_inputs)
    }

    /// The draft network's log-odds that `me` wins Sénat draft position `p`.
    #[inline]
    pub fn draft_logit(&self, p: &Position, me: Side) -> f64 {
        self.logit_by(p, me, list_draft_inputs)
    }

    /// [`Net::logit`] the way it was first computed: the inputs listed,
    /// then one row added per input (as [`Net::infer`]). The same value to
    /// the bit; kept as the reference of the tests and the bench.
    #[inline]
    pub fn logit_listed(&self, p: &Position, me: Side) -> f64 {
        self.logit_by(p, me, list_inputs)
    }

    /// The log-odds that `me` wins `p`, its inputs listed by `list` (the
    /// listing built on the stack, where it is read).
    #[inline(always)]
    fn logit_by(&self, p: &Position, me: Side, list: fn(&Position, &mut Listing)) -> f64 {
        let mut v = Listing::new();
        list(p, &mut v);
        let out = f64::from(self.infer(v.as_slice()));
        if p.side_to_move() == me { out } else { -out }
    }

    /// Reads one `net.<name>=<numbers>` line's key (without `net.`) and
    /// value into `self`, which [`Net::zeros`] sized from `net.hidden`;
    /// each number finite and within ±[`crate::limits::MAX_WEIGHT`]
    /// ([`crate::weights_file::number`]).
    pub fn parse_line(&mut self, key: &str, value: &str) -> Result<(), NetError> {
        let numbers = || -> Result<Vec<f32>, NetError> {
            value.split_whitespace().map(|t| crate::weights_file::number::<f32>(t).map_err(NetError::Number)).collect()
        };
        let h = self.hidden;
        let fill = |slot: &mut [f32], got: Vec<f32>| {
            if got.len() != slot.len() {
                return Err(NetError::Length { key: key.to_string(), expected: slot.len(), got: got.len() });
            }
            slot.copy_from_slice(&got);
            Ok(())
        };
        match key {
            "b1" => fill(&mut self.b1, numbers()?),
            "w2" => fill(&mut self.w2, numbers()?),
            "b2" => {
                let v = numbers()?;
                if v.len() != 1 {
                    return Err(NetError::Length { key: key.to_string(), expected: 1, got: v.len() });
                }
                self.b2 = v[0];
                Ok(())
            }
            _ => match key.strip_prefix("w1.").and_then(|i| i.parse::<usize>().ok()) {
                Some(i) if i < self.inputs => fill(&mut self.w1[i * h..(i + 1) * h], numbers()?),
                _ => Err(NetError::Unknown { key: key.to_string(), inputs: self.inputs }),
            },
        }
    }

    /// Reads one `net.<key>=<value>` line of a weights file into `net`
    /// (`None` until `net.hidden`, which must come first): `net.hidden`
    /// makes the network, `net.inputs` must say `inputs`, the others are
    /// [`Net::parse_line`]'s.
    pub fn read_line(net: &mut Option<Net>, inputs: usize, key: &str, value: &str) -> Result<(), NetError> {
        match (key, net.as_mut()) {
            ("hidden", None) => {
                let h = value
                    .parse::<usize>()
                    .ok()
                    .filter(|h| (1..=MAX_HIDDEN).contains(h))
                    .ok_or_else(|| NetError::Hidden(format!("`{value}` is not within 1 and {MAX_HIDDEN}")))?;
                *net = Some(Net::zeros(inputs, h));
                Ok(())
            }
            ("hidden", Some(_)) => Err(NetError::Hidden("given twice".into())),
            (_, None) => Err(NetError::Hidden("must come before the other net. lines".into())),
            ("inputs", Some(_)) if value == inputs.to_string() => Ok(()),
            ("inputs", Some(_)) => Err(NetError::Inputs { given: value.to_string(), expected: inputs }),
            (k, Some(n)) => n.parse_line(k, value),
        }
    }

    /// The network as `net.…` lines that [`Net::parse_line`] reads back
    /// exactly (`net.hidden` first; rows of all-zero input weights left out).
    pub fn to_text(&self) -> String {
        self.to_text_as("net")
    }

    /// [`Net::to_text`] with `prefix` in place of `net` (another network of the same file).
    pub fn to_text_as(&self, prefix: &str) -> String {
        let join = |v: &[f32]| v.iter().map(|x| format!("{x:?}")).collect::<Vec<_>>().join(" ");
        let mut s = format!("{prefix}.hidden={}\n{prefix}.inputs={}\n", self.hidden, self.inputs);
        s.push_str(&format!(
            "{prefix}.b1={}\n{prefix}.w2={}\n{prefix}.b2={:?}\n",
            join(&self.b1),
            join(&self.w2),
            self.b2
        ));
        for i in 0..self.inputs {
            let row = &self.w1[i * self.hidden..(i + 1) * self.hidden];
            if row.iter().any(|&x| x != 0.0) {
                s.push_str(&format!("{prefix}.w1.{i}={}\n", join(row)));
            }
        }
        s
    }
}

/// What is wrong with a `net.` line.
#[derive(Clone, Debug, PartialEq)]
pub enum NetError {
    /// A value that is not a finite number within ±[`crate::limits::MAX_WEIGHT`]:
    /// the message of [`crate::weights_file::number`].
    Number(String),
    /// A list has the wrong length.
    Length {
        /// The key.
        key: String,
        /// Numbers expected.
        expected: usize,
        /// Numbers given.
        got: usize,
    },
    /// No such weight.
    Unknown {
        /// The key, without `net.`.
        key: String,
        /// The network's inputs.
        inputs: usize,
    },
    /// `net.hidden` is missing, repeated, after other `net.` lines, or out of range.
    Hidden(String),
    /// `net.inputs` does not match the game's inputs.
    Inputs {
        /// The value given.
        given: String,
        /// The game's inputs.
        expected: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Number(why) => f.write_str(why),
            NetError::Length { key, expected, got } => {
                write!(f, "net.{key} needs {expected} numbers, got {got}")
            }
            NetError::Unknown { key, inputs } => write!(
                f,
                "unknown network weight `net.{key}` (accepted: net.hidden, net.inputs, net.b1, net.w2, net.b2, net.w1.<0..{}>)",
                inputs.saturating_sub(1)
            ),
            NetError::Hidden(why) => write!(f, "net.hidden: {why}"),
            NetError::Inputs { given, expected } => {
                write!(f, "net.inputs={given}, but this game's network has {expected} inputs")
            }
        }
    }
}

impl std::error::Error for NetError {}

#[cfg(test)]
mod tests {
    use super::*;
    use senat_rules::board::{Bitboard, Cell};
    use senat_rules::dice::{Colour, Symbol};
    use senat_rules::sample;

    fn holds(b: Bitboard, i: usize) -> bool {
        Cell::from_index(i as u8).is_some_and(|c| b.contains(c))
    }

    fn play_position() -> Position {
        sample::START.parse().unwrap()
    }

    #[test]
    fn inputs_are_in_range_distinct_and_cover_every_die() {
        let p = play_position();
        let mut v = Vec::new();
        inputs(&p, &mut v);
        assert!(v.len() <= MAX_ACTIVE);
        assert!(v.iter().all(|&i| usize::from(i) < INPUTS));
        let mut s = v.clone();
        s.sort_unstable();
        s.dedup();
        assert_eq!(s.len(), v.len());
        let board = v.iter().filter(|&&i| usize::from(i) < BOARD).count();
        assert_eq!(board as u32, p.dice_count(), "one board input per die");
        for &i in v.iter().filter(|&&i| usize::from(i) < BOARD) {
            assert!(holds(p.occupied(), usize::from(i) / 9));
        }
        assert_eq!(v.iter().filter(|&&i| (OWN_PILE..CLOCK).contains(&usize::from(i))).count(), 2);
    }

    #[test]
    fn the_value_changes_sign_with_the_point_of_view_and_text_round_trips() {
        let p = play_position();
        let mut n = Net::zeros(INPUTS, 4);
        for (k, w) in n.w1.iter_mut().enumerate() {
            *w = ((k * 7919) % 13) as f32 / 13.0 - 0.4;
        }
        n.b1 = vec![0.1, 0.2, -0.1, 0.3];
        n.w2 = vec![0.5, -0.25, 1.0, 0.75];
        n.b2 = 0.125;
        let (r, b) = (n.logit(&p, Side::Red), n.logit(&p, Side::Blue));
        assert_eq!(r, -b);
        assert_ne!(r, 0.0);
        let mut back = Net::zeros(INPUTS, 4);
        for line in n.to_text().lines() {
            let (k, v) = line.split_once('=').unwrap();
            let k = k.strip_prefix("net.").unwrap();
            if k != "hidden" && k != "inputs" {
                back.parse_line(k, v).unwrap();
            }
        }
        assert_eq!(back, n);
    }

    /// Every kernel size gives the general path's output to the bit, on
    /// positions of random games with pseudo-random weights; a size without
    /// a kernel takes the general path.
    #[test]
    fn the_fixed_size_kernels_are_the_general_sum() {
        let mut rng = testkit::XorShift64::new(3);
        let mut positions = Vec::new();
        let mut p = play_position();
        while positions.len() < 60 {
            let moves = p.legal_moves();
            if moves.is_empty() || p.majority().is_some() {
                p = play_position();
                continue;
            }
            positions.push(p);
            p.play_unchecked(moves[rng.below(moves.len())]);
        }
        for hidden in [8, 16, 32, 64, 5] {
            let mut n = Net::zeros(INPUTS, hidden);
            let mut draw = || (rng.below(2001) as f32 - 1000.0) / 1500.0;
            n.w1.iter_mut().for_each(|w| *w = draw());
            n.b1.iter_mut().for_each(|w| *w = draw());
            n.w2.iter_mut().for_each(|w| *w = draw());
            n.b2 = draw();
            let mut active = Vec::new();
            let mut seen = 0;
            for q in &positions {
                inputs(q, &mut active);
                let (fast, any) = (n.output(&active), n.output_any(&active));
                assert_eq!(fast.to_bits(), any.to_bits(), "hidden {hidden}, {}", q.to_spn());
                seen += (fast != n.b2) as u32;
            }
            assert!(seen > 50, "hidden {hidden}: the outputs vary ({seen})");
        }
    }

    /// Positions of random drafts (every phase) and of the plays after them.
    fn random_positions(seed: u64, n: usize) -> Vec<Position> {
        let mut rng = testkit::XorShift64::new(seed);
        let mut out = Vec::new();
        let mut p = Position::start();
        while out.len() < n {
            let moves = p.legal_moves();
            if moves.is_empty() || p.majority().is_some() {
                p = Position::start();
                continue;
            }
            out.push(p);
            p.play_unchecked(moves[rng.below(moves.len())]);
        }
        out
    }

    #[test]
    fn draft_inputs_are_in_range_distinct_and_say_the_reserve_and_the_pending_die() {
        let mut v = Vec::new();
        let drafts: Vec<Position> = random_positions(5, 3000).into_iter().filter(|p| !p.is_play()).collect();
        assert!(drafts.len() > 500, "{}", drafts.len());
        for p in &drafts {
            draft_inputs(p, &mut v);
            assert!(v.len() <= DRAFT_MAX_ACTIVE, "{}", p.to_spn());
            assert!(v.iter().all(|&i| usize::from(i) < DRAFT_INPUTS));
            let mut s = v.clone();
            s.sort_unstable();
            s.dedup();
            assert_eq!(s.len(), v.len(), "distinct: {}", p.to_spn());
            let count = |r: std::ops::Range<usize>| v.iter().filter(|&&i| r.contains(&usize::from(i))).count();
            assert_eq!(count(0..BOARD) as u32, p.dice_count(), "one board input per die");
            assert_eq!(count(D_RESERVE..D_PENDING) as u32, p.reserve().0.count_ones(), "the reserve");
            let placing = matches!(p.phase(), Phase::Place(_));
            assert_eq!(count(D_PENDING..D_PLACED), usize::from(placing), "the pending die");
            assert_eq!(count(D_PLACING..D_RED), usize::from(placing));
            assert_eq!(count(D_PLACED..D_PLACING), 1, "the placements made");
            assert_eq!(count(D_RED..DRAFT_INPUTS), usize::from(p.side_to_move() == Side::Red));
        }
    }

    /// The inputs as the first version listed them (by colour and symbol,
    /// then each cell's turn colours): another order, the same set.
    fn reference_inputs(p: &Position) -> Vec<u16> {
        let me = p.side_to_move();
        let l = p.layers();
        let mut out = Vec::new();
        let (mine, theirs) = if me == Side::Red { (Colour::Red, Colour::Blue) } else { (Colour::Blue, Colour::Red) };
        for (k, c) in [mine, theirs, Colour::White].into_iter().enumerate() {
            for (s, sym) in Symbol::ALL.into_iter().enumerate() {
                for i in 0..CELLS {
                    if holds(l.showing(c) & l.with_symbol(sym), i) {
                        out.push((i * 9 + k * 3 + s) as u16);
                    }
                }
            }
        }
        if !p.is_play() {
            let red = usize::from(me == Side::Red);
            for n in 1..=DICE {
                if p.reserve().0 >> n & 1 != 0 {
                    out.push((D_RESERVE + 2 * (n - 1) + red) as u16);
                }
            }
            if let Phase::Place(d) = p.phase() {
                out.push((D_PENDING + 2 * (usize::from(d.number()) - 1) + red) as u16);
                out.push(D_PLACING as u16);
            }
            out.push((D_PLACED + (p.dice_count() as usize).min(DICE)) as u16);
            if red == 1 {
                out.push(D_RED as u16);
            }
            return out;
        }
        let t = p.turnable();
        for i in 0..CELLS {
            if holds(p.restricted() & l.occupied, i) {
                out.push((RESTRICTED + i) as u16);
            }
            if holds(t.of(me), i) {
                out.push((TURNS + 2 * i) as u16);
            }
            if holds(t.of(me.other()), i) {
                out.push((TURNS + 2 * i + 1) as u16);
            }
        }
        let piles = p.piles();
        out.push((OWN_PILE + usize::from(piles.of(me).min(4))) as u16);
        out.push((OPP_PILE + usize::from(piles.of(me.other()).min(4))) as u16);
        let step = (usize::from(p.clock()) * CLOCK_STEPS / usize::from(p.closure().max(1))).min(CLOCK_STEPS - 1);
        out.push((CLOCK + step) as u16);
        if me == Side::Red {
            out.push(RED as u16);
        }
        out
    }

    /// Both forms of `to_nibbles` move bit k to bit 4k, and only the low 16.
    #[test]
    fn bits_spread_to_nibbles() {
        let mut rng = testkit::XorShift64::new(3);
        for n in 0..2000u32 {
            let x = if n < 32 { 1 << n } else { rng.next_u64() as u32 };
            let want = (0..16).filter(|k| x >> k & 1 != 0).fold(0u64, |acc, k| acc | 1 << (4 * k));
            assert_eq!(to_nibbles(x), want, "{x:#x}");
            assert_eq!(to_nibbles_portable(x), want, "{x:#x}");
        }
    }

    /// Both forms of `to_bytes` move bit k to byte k, and of
    /// `nibbles_to_bytes` nibble k to byte k, the low 8 only.
    #[test]
    fn bits_and_nibbles_spread_to_bytes() {
        let mut rng = testkit::XorShift64::new(31);
        for n in 0..2000u32 {
            let x = rng.next_u64();
            let b = if n < 32 { 1 << n } else { x as u32 };
            let want = (0..8).filter(|k| b >> k & 1 != 0).fold(0u64, |acc, k| acc | 1 << (8 * k));
            assert_eq!(to_bytes(b), want, "{b:#x}");
            assert_eq!(to_bytes_portable(b), want, "{b:#x}");
            let want = (0..8).fold(0u64, |acc, k| acc | (x >> (4 * k) & 15) << (8 * k));
            assert_eq!(nibbles_to_bytes(x), want, "{x:#x}");
            assert_eq!(nibbles_to_bytes_portable(x), want, "{x:#x}");
        }
    }

    /// The one-pass listings give the reference's inputs (as a set: the
    /// integer form's sums do not depend on the order) on positions of
    /// random drafts and plays.
    #[test]
    fn the_listings_are_the_reference_sets() {
        let (mut v, mut plays, mut drafts) = (Vec::new(), 0, 0);
        for p in random_positions(11, 4000) {
            if p.is_play() {
                inputs(&p, &mut v);
                plays += 1;
            } else {
                draft_inputs(&p, &mut v);
                drafts += 1;
            }
            let mut want = reference_inputs(&p);
            want.sort_unstable();
            v.sort_unstable();
            assert_eq!(v, want, "{}", p.to_spn());
        }
        assert!(plays > 1000 && drafts > 500, "{plays} plays, {drafts} drafts");
    }

    /// Pseudo-random weights of size `hidden`, drawn within `±scale`.
    fn random_net(inputs: usize, hidden: usize, scale: f32, rng: &mut testkit::XorShift64) -> Net {
        let mut n = Net::zeros(inputs, hidden);
        let mut draw = || (rng.below(2001) as f32 - 1000.0) / 1000.0 * scale;
        n.w1.iter_mut().for_each(|w| *w = draw());
        n.b1.iter_mut().for_each(|w| *w = draw());
        n.w2.iter_mut().for_each(|w| *w = draw());
        n.b2 = draw();
        n
    }

    /// How far the integer form may be from the `f32` network on `active`:
    /// each weight rounds by at most half a step, so a hidden sum by at
    /// most (inputs on + 1) half steps, the output by that times Σ|w2| plus
    /// half an output step per unit (and the `f32` sums' own rounding).
    fn integer_bound(n: &Net, q: &Quant, active: &[u16]) -> f64 {
        let qa = f64::from(q.qa);
        let qb = 1.0 / (f64::from(q.out_scale) * qa);
        let w2: f64 = n.w2.iter().map(|w| f64::from(w.abs())).sum();
        (active.len() as f64 + 1.0) * 0.5 / qa * w2 + n.hidden as f64 * 0.5 / qb + 1e-4
    }

    /// The integer form is within its bound of the `f32` network, for every
    /// kernel size and the general path, on weights small and large; its
    /// kernels agree to the bit with the general path (integer sums are
    /// exact); weights too large for one fall back to the `f32` network.
    #[test]
    fn the_integer_form_is_within_its_bound_and_its_kernels_agree() {
        let mut rng = testkit::XorShift64::new(7);
        let positions: Vec<Position> = random_positions(13, 1500).into_iter().filter(|p| p.is_play()).collect();
        let mut active = Vec::new();
        for (hidden, scale) in [(16, 0.3), (32, 0.5), (48, 0.2), (64, 1.0), (5, 0.5), (64, 40.0)] {
            let n = random_net(INPUTS, hidden, scale, &mut rng);
            let q = Quant::new(&n).expect("weights an integer form holds");
            let mut worst: f64 = 0.0;
            for p in &positions {
                inputs(p, &mut active);
                let (int, f) = (n.infer(&active), n.output(&active));
                assert_eq!(int.to_bits(), q.output_any(&active).to_bits(), "hidden {hidden}: kernel and general path");
                let gap = f64::from(int - f).abs();
                assert!(gap <= integer_bound(&n, &q, &active), "hidden {hidden}, scale {scale}: {gap}");
                worst = worst.max(gap);
            }
            assert!(worst > 0.0, "hidden {hidden}: the integer form rounds (the test sees it)");
        }
        let mut huge = random_net(INPUTS, 8, 1.0, &mut rng);
        huge.w1[0] = 1e6;
        assert!(Quant::new(&huge).is_none());
        inputs(&positions[0], &mut active);
        assert_eq!(huge.infer(&active).to_bits(), huge.output(&active).to_bits());
    }

    /// The shipped networks' integer forms stay within their bounds, and
    /// within 0.05 of a log-odds unit, of the `f32` networks, on the play
    /// and draft positions of random games (the largest gaps seen: about
    /// 0.019 in play, 0.003 in the draft; `--nocapture` prints them).
    #[test]
    fn the_shipped_networks_integer_forms_are_close() {
        let w = crate::learned::Learned::shipped_draft();
        let (play, draft) = (w.net.as_deref().unwrap(), w.draft_net.as_deref().unwrap());
        let mut active = Vec::new();
        let (mut worst_play, mut worst_draft): (f64, f64) = (0.0, 0.0);
        for p in random_positions(17, 3000) {
            let (n, worst) = if p.is_play() {
                inputs(&p, &mut active);
                (play, &mut worst_play)
            } else {
                draft_inputs(&p, &mut active);
                (draft, &mut worst_draft)
            };
            let q = Quant::new(n).unwrap();
            let gap = f64::from(n.infer(&active) - n.output(&active)).abs();
            assert!(gap <= integer_bound(n, &q, &active).min(0.05), "{gap} at {}", p.to_spn());
            *worst = worst.max(gap);
        }
        let (qp, qd) = (Quant::new(play).unwrap(), Quant::new(draft).unwrap());
        eprintln!(
            "largest gap: play {worst_play:.6} (qa {}, qb {:.0}), draft {worst_draft:.6} (qa {}, qb {:.0})",
            qp.qa,
            1.0 / (f64::from(qp.out_scale) * f64::from(qp.qa)),
            qd.qa,
            1.0 / (f64::from(qd.out_scale) * f64::from(qd.qa))
        );
    }

    /// The summed cell rows ([`CellRows`], what [`Net::logit`] reads) give
    /// the plain reference's output to the bit: the first version's input
    /// listing ([`reference_inputs`]) summed row by row
    /// ([`Quant::output_any`]), and [`Net::logit_listed`]; for every kernel
    /// size, weights small and large, the shipped network, and sizes
    /// without a kernel (the listing then serves).
    #[test]
    fn the_cell_rows_are_the_listed_sum_to_the_bit() {
        let mut rng = testkit::XorShift64::new(23);
        let positions: Vec<Position> = random_positions(29, 4000).into_iter().filter(|p| p.is_play()).collect();
        assert!(positions.len() > 1500, "{}", positions.len());
        let mut nets: Vec<(String, Net)> =
            [(16, 0.3), (32, 0.5), (48, 0.2), (64, 1.0), (64, 40.0), (5, 0.5), (80, 0.5)]
                .into_iter()
                .map(|(h, scale)| (format!("hidden {h}, scale {scale}"), random_net(INPUTS, h, scale, &mut rng)))
                .collect();
        let shipped = crate::learned::Learned::shipped_net().net.as_deref().expect("a network").clone();
        nets.push(("shipped".into(), shipped));
        for (what, n) in &nets {
            let q = Quant::new(n).expect("weights an integer form holds");
            let mut differ = 0;
            for p in &positions {
                let want = q.output_any(&reference_inputs(p));
                for me in [Side::Red, Side::Blue] {
                    let (fast, listed) = (n.logit(p, me), n.logit_listed(p, me));
                    assert_eq!(fast.to_bits(), listed.to_bits(), "{what}: {}", p.to_spn());
                    let sign = if p.side_to_move() == me { 1.0 } else { -1.0 };
                    assert_eq!(fast.to_bits(), (sign * f64::from(want)).to_bits(), "{what}: {}", p.to_spn());
                }
                differ += usize::from(want != q.b2);
            }
            assert!(differ > positions.len() / 2, "{what}: the outputs vary ({differ})");
            let rows = n.quant.1.get().expect("logit made the cell rows or refused them");
            assert_eq!(rows.is_some(), n.hidden.is_multiple_of(16) && n.hidden <= 64, "{what}");
        }
    }

    #[test]
    fn a_cells_state_is_read_from_its_die_alone() {
        let positions: Vec<Position> = random_positions(41, 3000).into_iter().filter(|p| p.is_play()).collect();
        let mut occupied = 0;
        for p in &positions {
            let states = states_of(p, &p.layers());
            for (i, &state) in states.iter().enumerate().take(CELLS) {
                assert_eq!(cell_state(p, i), state, "cell {i} of {}", p.to_spn());
                occupied += usize::from(usize::from(state) % 10 != EMPTY);
            }
        }
        assert!(occupied > 10 * positions.len(), "{occupied}");
    }

    #[test]
    fn the_last_sums_are_the_sums_from_zero() {
        // Positions in game order (few cells change from one to the next),
        // evaluated by networks in turn, each from both sides, then shuffled:
        // every value equals the listed inputs' to the bit, whichever sums
        // the thread kept (five tables and two movers for four slots).
        let mut rng = testkit::XorShift64::new(31);
        let positions: Vec<Position> = random_positions(37, 2500).into_iter().filter(|p| p.is_play()).collect();
        assert!(positions.len() > 1000, "{}", positions.len());
        let mut nets: Vec<Net> = [(16, 0.3), (48, 0.5), (64, 1.0), (64, 40.0)]
            .map(|(h, scale)| random_net(INPUTS, h, scale, &mut rng))
            .into();
        nets.push(crate::learned::Learned::shipped_net().net.as_deref().expect("a network").clone());
        let check = |n: &Net, p: &Position, me: Side| {
            let v = n.logit(p, me).to_bits();
            assert_eq!(v, n.logit_listed(p, me).to_bits(), "{}", p.to_spn());
            assert_eq!(v, n.logit_fresh(p, me).to_bits(), "{}", p.to_spn());
        };
        let before = LAST_SUMS.with_borrow(|l| l.incremental);
        for n in &nets {
            for p in &positions {
                check(n, p, p.side_to_move());
            }
        }
        let in_order = LAST_SUMS.with_borrow(|l| l.incremental) - before;
        assert!(in_order > nets.len() * positions.len() / 2, "{in_order} sums from the last");
        for p in &positions {
            for n in &nets {
                check(n, p, Side::Red);
                check(n, p, Side::Blue);
            }
        }
        let mut order: Vec<usize> = (0..positions.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for &i in &order {
            let n = &nets[rng.below(nets.len())];
            check(n, &positions[i], positions[i].side_to_move());
        }
        // A clone makes its own table: its sums never meet the original's.
        let copy = nets[2].clone();
        drop(nets);
        for p in positions.iter().take(200) {
            check(&copy, p, p.side_to_move());
        }
    }

    #[test]
    fn bad_lines_are_refused() {
        let mut n = Net::zeros(INPUTS, 2);
        assert!(matches!(n.parse_line("b1", "1 2 3"), Err(NetError::Length { expected: 2, got: 3, .. })));
        assert!(matches!(n.parse_line("w2", "1 nan"), Err(NetError::Number(_))));
        assert!(matches!(n.parse_line("w2", "1 2e6"), Err(NetError::Number(m)) if m.contains("beyond")));
        assert!(matches!(n.parse_line(&format!("w1.{INPUTS}"), "1 2"), Err(NetError::Unknown { .. })));
        assert!(matches!(n.parse_line("w9", "1"), Err(NetError::Unknown { .. })));
        n.parse_line("w1.3", "1 -1").unwrap();
        assert_eq!(&n.w1[6..8], &[1.0, -1.0]);
    }
}
