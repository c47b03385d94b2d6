//! The words of a lock-free table entry, shared by the tables of
//! [`super::alphabeta`] and [`super::solver`].
//!
//! An entry is two `AtomicU64` words, `key ^ data` and `data`, written and
//! read with relaxed ordering (plain moves on x86). A reader takes the key
//! to be the XOR of the two words, so an entry torn by a concurrent writer
//! (one word of one write, the other of another) reads as some other key: a
//! miss (the XOR trick of Hyatt and Mann). `data == 0` marks an empty
//! entry, so a table's packed data must never be 0.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One entry: `key ^ data`, then `data`.
#[derive(Debug, Default)]
pub(crate) struct XorPair([AtomicU64; 2]);

impl XorPair {
    /// The key and the data as they read now (a torn entry reads as a wrong key).
    #[inline]
    pub(crate) fn load(&self) -> (u64, u64) {
        let data = self.0[1].load(Relaxed);
        (self.0[0].load(Relaxed) ^ data, data)
    }

    /// Writes `key` and `data`.
    #[inline]
    pub(crate) fn store(&self, key: u64, data: u64) {
        self.0[0].store(key ^ data, Relaxed);
        self.0[1].store(data, Relaxed);
    }

    /// The data stored under `key`, if this entry holds `key` and something.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<u64> {
        let (k, data) = self.load();
        (k == key && data != 0).then_some(data)
    }

    /// Writes the two words as given (tests make torn entries with it).
    #[cfg(test)]
    pub(crate) fn store_words(&self, xored: u64, data: u64) {
        self.0[0].store(xored, Relaxed);
        self.0[1].store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::XorPair;

    #[test]
    fn store_then_get() {
        let p = XorPair::default();
        assert_eq!(p.get(0), None, "empty");
        p.store(0x1234_5678_9abc_def0, 42);
        assert_eq!(p.get(0x1234_5678_9abc_def0), Some(42));
        assert_eq!(p.get(0x1234_5678_9abc_def1), None, "another key");
        assert_eq!(p.load(), (0x1234_5678_9abc_def0, 42));
    }

    #[test]
    fn torn_entry_is_a_miss() {
        let p = XorPair::default();
        let (a, b) = ((0xaaaa_0000_1111_2222u64, 7u64), (0x5555_3333_4444_6666u64, 9u64));
        // The first word of one write, the second of the other.
        p.store_words(a.0 ^ a.1, b.1);
        assert_eq!(p.get(a.0), None);
        assert_eq!(p.get(b.0), None);
        p.store_words(b.0 ^ b.1, a.1);
        assert_eq!(p.get(a.0), None);
        assert_eq!(p.get(b.0), None);
    }
}
