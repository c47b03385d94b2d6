//! Zobrist keys, fixed at compile time.
//!
//! Keys cover what makes two positions the same game state: dice kinds and
//! top faces on cells, the restricted set, the side to move, the draft phase
//! and the piles. The clock is deliberately left out (RULES-NOTES point 8).
//! Dice 1 and 2 share their keys; faces are always canonical, so the
//! equivalences of RULES-NOTES point 3 give equal hashes.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// Keys for a die on a cell, indexed `[cell][die << 4 | code]` where `code` is the
/// position's 4-bit cell code (symbol and shown colour, which with the die
/// give the canonical face); die 2 reuses die 1's keys.
pub(crate) static PIECE: [[u64; 512]; 23] = {
    let mut t = [[0u64; 512]; 23];
    let mut s = 0x0005_e4a7_u64;
    let mut c = 0;
    while c < 23 {
        let mut i = 16;
        while i < 384 {
            if i >> 4 == 2 {
                t[c][i] = t[c][i - 16];
            } else {
                let (ns, k) = splitmix(s);
                s = ns;
                t[c][i] = k;
            }
            i += 1;
        }
        c += 1;
    }
    t
};

const fn block<const N: usize>(seed: u64, zero_first: bool) -> [u64; N] {
    let mut t = [0u64; N];
    let mut s = seed;
    let mut i = 0;
    while i < N {
        let (ns, k) = splitmix(s);
        s = ns;
        t[i] = if zero_first && i == 0 { 0 } else { k };
        i += 1;
    }
    t
}

/// Key of a restricted cell.
/// Index 31 (no cell) has key 0.
pub(crate) static RESTRICTED: [u64; 32] = {
    let k: [u64; 32] = block(0x7e57_11c7, false);
    let mut t = [0u64; 32];
    let mut i = 0;
    while i < 23 {
        t[i] = k[i];
        i += 1;
    }
    t
};
/// Key present when blue is to move.
pub(crate) const BLUE_TO_MOVE: u64 = 0x1f83_d9ab_fb41_bd6b;
/// Key of the draft's give phase.
pub(crate) const GIVE_PHASE: u64 = 0x5be0_cd19_137e_2179;
/// Key of the decision after the draft (`swap=yes`): keep or swap.
pub(crate) const DECIDE_PHASE: u64 = 0x3c6e_f372_fe94_f82b;
/// Key present in play once the players have swapped colours (`swap`).
pub(crate) const SWAPPED: u64 = 0xa54f_f53a_5f1d_36f1;
/// Key of the draft's place phase, by the kind of die to place.
pub(crate) static PLACE_PHASE: [u64; 24] = block(0x9ace_d0c4, true);
/// Keys of pile sizes, `[colour][size]`; size 0 has key 0.
pub(crate) static PILE: [[u64; 32]; 3] = [block(0x0ed1, true), block(0xb1e, true), block(0x3417e, true)];
