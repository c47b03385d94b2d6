//! Seeded random numbers for the tests, benches and examples of the
//! workspace: one copy of each small generator instead of one per test
//! folder, so that a suite's random games are a pure function of its seeds.
//!
//! * [`SplitMix64`] is the test generator: new tests use it.
//! * [`XorShift64`] is the generator the dominoes suites and a few Sénat
//!   tests were written with; it stays so that their seeds (chosen to find
//!   particular rounds, or for statistical checks) draw the same sequences.
//!
//! Neither is for the programs: self-play and search draw from
//! `game_search::rng`, and the Zobrist keys of the rules crates are their
//! own compile-time constants. No dependencies, no I/O, no entropy.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

/// True in a build without optimisation (`opt-level = 0`, plain `cargo
/// test`): suites that would take minutes there run fewer cases. Not
/// `cfg!(debug_assertions)`, which the optimised CI profile turns on too.
pub const UNOPTIMISED: bool = cfg!(testkit_unoptimised);

/// SplitMix64 (Steele, Lea and Flood, 2014): the state advances by the
/// golden-ratio increment and each output is its mix. Any seed, zero
/// included, gives a full-period sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator whose first output mixes `seed + 0x9e37_79b9_7f4a_7c15`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` ≥ 1): the next output modulo `n` (slightly
    /// biased towards small numbers, which random play does not mind).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Marsaglia's xorshift64 with the shifts 13, 7, 17: each output is the
/// new state. The seed must not be 0 (its sequence is all zeros).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XorShift64(u64);

impl XorShift64 {
    /// A generator started at state `seed` (not 0); the first output is the
    /// state after one step.
    pub const fn new(seed: u64) -> XorShift64 {
        XorShift64(seed)
    }

    /// The next 64 bits (the new state).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (`n` ≥ 1): the next output modulo `n`.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Whether `text` holds the domino `a-b` (either way round) as a token of
/// its own, not inside a longer number (`1-2` is not in `11-23`): how the
/// tests look for a hidden tile in a page, a picture or a board.
pub fn has_domino(text: &str, a: u8, b: u8) -> bool {
    [format!("{a}-{b}"), format!("{b}-{a}")].iter().any(|needle| {
        text.match_indices(needle.as_str()).any(|(i, _)| {
            let before = text[..i].chars().next_back().is_some_and(|c| c.is_ascii_digit());
            let after = text[i + needle.len()..].chars().next().is_some_and(|c| c.is_ascii_digit());
            !before && !after
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published first outputs of splitmix64 from seed 0, and the
    /// first of seed 1234567 (the reference C code's).
    #[test]
    fn splitmix64_matches_the_reference() {
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(r.next_u64(), 0x06c4_5d18_8009_454f);
        let mut r = SplitMix64::new(1_234_567);
        assert_eq!(r.next_u64(), 6_457_827_717_110_365_317);
    }

    /// Three steps of xorshift64 from 1, worked by hand.
    #[test]
    fn xorshift64_matches_its_definition() {
        let mut r = XorShift64::new(1);
        let mut x = 1u64;
        for _ in 0..3 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            assert_eq!(r.next_u64(), x);
        }
        assert_eq!(XorShift64::new(1).next_u64(), 0x4082_2041);
    }

    #[test]
    fn below_stays_below() {
        let (mut a, mut b) = (SplitMix64::new(5), XorShift64::new(5));
        for n in 1..200 {
            assert!(a.below(n) < n);
            assert!(b.below(n) < n);
        }
    }
}
