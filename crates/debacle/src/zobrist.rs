//! Zobrist keys, fixed at compile time, and the mixing of the few wide
//! numbers (scores, round) that are not worth a table.
//!
//! The hash covers what decides the game from here on: the dice on the
//! board, both captured piles, the side to move, the turn phase (regular
//! action, flipped die, pending rebond, recovery decision), both match
//! scores, the round number, the round starter and the match result. It
//! leaves out the safeguard counters (turns of the round, turns without a
//! capture, and whether this turn captured), the ply count and the variant.
//!
//! What it must never do: draw keys at run time (hashes are the same in
//! every process and every build).

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// A well-mixed 64-bit function of `x` (one splitmix step).
pub(crate) const fn mix(x: u64) -> u64 {
    splitmix(x ^ 0xdeba_c1e0_0000_0000).1
}

/// Keys of a die on a square: `[square][code]`, code 1..=12 (0, empty, has key 0).
pub(crate) static PIECE: [[u64; 13]; 36] = {
    let mut t = [[0u64; 13]; 36];
    let mut s = 0xdeba_c1e5_u64;
    let mut sq = 0;
    while sq < 36 {
        let mut c = 1;
        while c < 13 {
            let (ns, k) = splitmix(s);
            s = ns;
            t[sq][c] = k;
            c += 1;
        }
        sq += 1;
    }
    t
};

/// Keys of a captured pile: `[holder][value - 1][count]`, count 0 has key 0.
pub(crate) static PILE: [[[u64; 7]; 6]; 2] = {
    let mut t = [[[0u64; 7]; 6]; 2];
    let mut s = 0x0000_1e5c_a9e5_u64;
    let mut p = 0;
    while p < 2 {
        let mut v = 0;
        while v < 6 {
            let mut n = 1;
            while n < 7 {
                let (ns, k) = splitmix(s);
                s = ns;
                t[p][v][n] = k;
                n += 1;
            }
            v += 1;
        }
        p += 1;
    }
    t
};
