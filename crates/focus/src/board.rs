//! The board of Focus: the 52 playable squares of an 8×8 grid without its 12
//! corner squares (GAMES.md §1.2), square names, the step tables of the fast
//! generator, the stack encoding and the Zobrist keys.
//!
//! What it must never do: know about players, turns or the end of the game;
//! do I/O; draw randomness (the Zobrist keys are fixed constants).

/// A square: `rank * 8 + file`, files a–h = 0–7, ranks 1–8 = 0–7 (a1 = 0, h8 = 63).
/// The 12 corner squares are not playable.
pub type Square = u8;

/// Directions of a step, in the generator's order: north (rank up), east, south, west.
pub(crate) const DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// No square (off the board or a removed corner) in the step table.
pub(crate) const NONE: u8 = 255;

/// Tallest stack.
pub const MAX_HEIGHT: usize = 5;

/// Whether `(file, rank)` (0..8 each) is one of the 52 playable squares.
pub const fn playable_fr(file: i32, rank: i32) -> bool {
    if file < 0 || file > 7 || rank < 0 || rank > 7 {
        return false;
    }
    let fe = if file < 7 - file { file } else { 7 - file };
    let re = if rank < 7 - rank { rank } else { 7 - rank };
    fe + re > 1
}

/// Whether square index `sq` (0..64) is playable.
pub const fn is_playable(sq: Square) -> bool {
    sq < 64 && playable_fr((sq % 8) as i32, (sq / 8) as i32)
}

const fn playable_list() -> [Square; 52] {
    let mut out = [0u8; 52];
    let mut n = 0;
    let mut sq = 0;
    while sq < 64 {
        if is_playable(sq as u8) {
            out[n] = sq as u8;
            n += 1;
        }
        sq += 1;
    }
    out
}

/// The 52 playable squares in index order (a1 side first: c1 d1 e1 f1 b2 … f8).
pub const SQUARES: [Square; 52] = playable_list();

const fn dest_table() -> [[[u8; MAX_HEIGHT]; 4]; 64] {
    let mut t = [[[NONE; MAX_HEIGHT]; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        if is_playable(sq as u8) {
            let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
            let mut d = 0;
            while d < 4 {
                let mut k = 1;
                while k <= MAX_HEIGHT as i32 {
                    let (nf, nr) = (f + DIRS[d].0 as i32 * k, r + DIRS[d].1 as i32 * k);
                    if playable_fr(nf, nr) {
                        t[sq][d][(k - 1) as usize] = (nr * 8 + nf) as u8;
                    }
                    k += 1;
                }
                d += 1;
            }
        }
        sq += 1;
    }
    t
}

/// `DEST[sq][dir][k - 1]`: the square k steps from `sq` in `dir`, or [`NONE`].
pub(crate) const DEST: [[[u8; MAX_HEIGHT]; 4]; 64] = dest_table();

const fn reach_table() -> [[u8; MAX_HEIGHT + 1]; 64] {
    let mut t = [[0u8; MAX_HEIGHT + 1]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut h = 1;
        while h <= MAX_HEIGHT {
            let mut n = 0;
            let mut d = 0;
            while d < 4 {
                let mut k = 0;
                while k < h {
                    if DEST[sq][d][k] != NONE {
                        n += 1;
                    }
                    k += 1;
                }
                d += 1;
            }
            t[sq][h] = n;
            h += 1;
        }
        sq += 1;
    }
    t
}

/// `REACH[sq][h]`: how many steps a stack of height `h` on `sq` has (all k ≤ h, all directions).
pub(crate) const REACH: [[u8; MAX_HEIGHT + 1]; 64] = reach_table();

/// The name of a square, e.g. `d4` (any index 0..64, playable or not).
pub fn square_name(sq: Square) -> String {
    let f = (b'a' + sq % 8) as char;
    let r = (b'1' + sq / 8) as char;
    format!("{f}{r}")
}

/// Reads a square name `a1`..`h8` (lowercase) into an index; `None` when it is not a name.
/// The square may be a removed corner; check [`is_playable`].
pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 8 + (b[0] - b'a'))
}

// ---- stacks: a u16 per square; bits 0..3 height (0..5), then 2 bits per level, bottom first.

/// Height of an encoded stack.
#[inline(always)]
pub(crate) const fn height(s: u16) -> usize {
    (s & 7) as usize
}

/// Colour bits of an encoded stack (level i at bits 2i..2i+2, bottom = level 0).
#[inline(always)]
pub(crate) const fn colours(s: u16) -> u16 {
    s >> 3
}

/// Builds an encoded stack from its height and colour bits.
#[inline(always)]
pub(crate) const fn make(h: usize, c: u16) -> u16 {
    if h == 0 { 0 } else { (c << 3) | h as u16 }
}

/// Owner of the piece at `level` (0 = bottom) of an encoded stack.
#[inline(always)]
pub(crate) const fn piece(s: u16, level: usize) -> usize {
    ((s >> (3 + 2 * level)) & 3) as usize
}

/// Owner of the top piece (the controller); only for a non-empty stack.
#[inline(always)]
pub(crate) const fn top(s: u16) -> usize {
    piece(s, height(s) - 1)
}

// ---- Zobrist keys (fixed constants from splitmix64).

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const fn stack_keys() -> [[[u64; 4]; MAX_HEIGHT]; 64] {
    let mut t = [[[0u64; 4]; MAX_HEIGHT]; 64];
    let mut s = 0x466f_6375_7300_0001u64;
    let mut i = 0;
    while i < 64 {
        let mut l = 0;
        while l < MAX_HEIGHT {
            let mut c = 0;
            while c < 4 {
                let (ns, v) = splitmix(s);
                s = ns;
                t[i][l][c] = v;
                c += 1;
            }
            l += 1;
        }
        i += 1;
    }
    t
}

const fn small_keys<const N: usize, const M: usize>(seed: u64) -> [[u64; M]; N] {
    let mut t = [[0u64; M]; N];
    let mut s = seed;
    let mut i = 0;
    while i < N {
        let mut j = 0;
        while j < M {
            let (ns, v) = splitmix(s);
            s = ns;
            t[i][j] = v;
            j += 1;
        }
        i += 1;
    }
    t
}

/// Key of piece colour c at level l of square sq.
pub(crate) const Z_STACK: [[[u64; 4]; MAX_HEIGHT]; 64] = stack_keys();
/// Key of player p holding n reserve pieces (n ≤ 18).
pub(crate) const Z_RESERVE: [[u64; 19]; 4] = small_keys::<4, 19>(0x466f_6375_7300_0002);
/// Key of the side to move.
pub(crate) const Z_TURN: [[u64; 4]; 1] = small_keys::<1, 4>(0x466f_6375_7300_0003);
/// Key of the swap phase (swap decisions played: 0, 1, 2).
pub(crate) const Z_SWAPS: [[u64; 3]; 1] = small_keys::<1, 3>(0x466f_6375_7300_0004);

/// The Zobrist part of one square holding encoded stack `s`.
#[inline(always)]
pub(crate) fn stack_hash(sq: usize, s: u16) -> u64 {
    let mut h = 0;
    let keys = &Z_STACK[sq];
    for (l, key) in keys.iter().enumerate().take(height(s)) {
        h ^= key[piece(s, l)];
    }
    h
}
