//! Seeded random generators: every random choice of the crate (self-play
//! games, rollouts of the searches) comes from a [`GameRng`] seeded here
//! from 64-bit seeds, so that a run is a pure function of its seed.
//!
//! This module never reads entropy from the system or a clock.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The random generator of one game.
pub type GameRng = Xoshiro256PlusPlus;

/// A generator seeded from a 64-bit seed by filling its 256-bit state with
/// four successive outputs of splitmix64 (the procedure the xoshiro authors
/// recommend), written out here so that it never depends on a crate version.
pub fn rng_from_seed(seed: u64) -> GameRng {
    let mut state = seed;
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_exact_mut(8) {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        chunk.copy_from_slice(&mix64(state).to_le_bytes());
    }
    GameRng::from_seed(bytes)
}

/// The splitmix64 finalizer: a bijective mix of 64 bits.
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform index below `n` (`n` ≥ 1) by Lemire's multiply-shift; the bias,
/// below n / 2⁶⁴, is negligible for move lists.
#[inline]
pub fn below(rng: &mut GameRng, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}
