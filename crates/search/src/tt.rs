//! The words of a lock-free table entry, shared by the tables of
//! [`super::alphabeta`] and [`super::solver`].
//!
//! An entry is two `AtomicU64` words, `key ^ data` and `data`, written and
//! read with relaxed ordering (plain moves on x86). A reader takes the key
//! to be the XOR of the two words, so an entry torn by a concurrent writer
//! (one word of one write, the other of another) reads as some other key: a
//! miss (the XOR trick of Hyatt and Mann). `data == 0` marks an empty
//! entry, so a table's packed data must never be 0.
//!
//! [`table`] makes a table's memory, asking Linux for transparent huge
//! pages: a search probes its table at random, and with 4 KiB pages a
//! table of gigabytes misses the TLB on nearly every probe. Every table of
//! the crate gets its memory from [`reserve`], which asks for it fallibly:
//! a refusal (a process memory limit, as `ulimit -v` or Slurm sets) is a
//! [`TableError`], not an abort.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The memory of a table refused by the system (a process memory limit,
/// as `ulimit -v` or Slurm sets, or no memory left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The bytes asked for.
    pub bytes: usize,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot allocate a table of {} MiB: the system refused the memory (a process memory limit?); ask for a smaller one",
            self.bytes.div_ceil(1 << 20)
        )
    }
}

impl std::error::Error for TableError {}

/// An empty vector with room for exactly `n` values of `T`, or the
/// [`TableError`] of the refused memory (never an abort).
pub(crate) fn reserve<T>(n: usize) -> Result<Vec<T>, TableError> {
    let mut v = Vec::new();
    let refused = || TableError { bytes: n.saturating_mul(std::mem::size_of::<T>()) };
    v.try_reserve_exact(n).map_err(|_| refused())?;
    Ok(v)
}

/// Huge pages on Linux (x86-64 and aarch64): 2 MiB.
const HUGE_PAGE: usize = 2 << 20;

/// A table's entries: a slice that lives in its own memory mapping where
/// it is at least two huge pages (Linux), else on the heap.
///
/// Why a mapping of its own: agents are built afresh for every game of a
/// batch, so a batch allocates and frees a table per game. From the heap,
/// glibc serves such blocks after the first free from its arenas (its mmap
/// threshold rises to the freed size), and there the freed tables were not
/// given back: `senat train-net --game connect4 --generator
/// ab:depth=1,tt=16` held 680 MB after 1,000 games (41 MB with glibc's
/// threshold fixed by `MALLOC_MMAP_THRESHOLD_`), and a 40,000-game run with
/// a labeller was killed for memory. A mapping is returned to the system
/// when the table is dropped.
pub(crate) struct Table<T> {
    /// The first entry.
    ptr: std::ptr::NonNull<T>,
    /// The entries.
    len: usize,
    /// Bytes mapped (`len` entries rounded up to a page), 0 on the heap.
    mapped: usize,
}

// SAFETY: a `Table<T>` owns its entries as a `Box<[T]>` would.
unsafe impl<T: Send> Send for Table<T> {}
// SAFETY: shared access is to `&[T]` only.
unsafe impl<T: Sync> Sync for Table<T> {}

impl<T> std::ops::Deref for Table<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised entries owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for Table<T> {
    fn drop(&mut self) {
        // SAFETY: the entries are initialised and dropped once, here; the
        // memory is then freed as it was obtained: unmapped, or as the
        // boxed slice it was made from.
        unsafe {
            let entries = std::ptr::slice_from_raw_parts_mut(self.ptr.as_ptr(), self.len);
            if self.mapped > 0 {
                std::ptr::drop_in_place(entries);
                unmap(self.ptr.as_ptr().cast(), self.mapped);
            } else {
                drop(Box::from_raw(entries));
            }
        }
    }
}

impl<T> fmt::Debug for Table<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table").field("len", &self.len).field("mapped", &self.mapped).finish()
    }
}

/// `n` entries made by `make`. A table of at least two huge pages gets a
/// memory mapping of its own ([`Table`]) that Linux is asked to back with
/// transparent huge pages (`madvise(MADV_HUGEPAGE)`, before the entries are
/// written). The advice is a hint: where the kernel refuses it the table is
/// the same, in small pages; elsewhere than Linux the table is on the
/// heap. Memory the system refuses is a [`TableError`].
pub(crate) fn table<T>(n: usize, mut make: impl FnMut() -> T) -> Result<Table<T>, TableError> {
    let bytes = n.saturating_mul(std::mem::size_of::<T>());
    if bytes >= 2 * HUGE_PAGE
        && let Some((ptr, mapped)) = map::<T>(bytes)?
    {
        advise_huge(ptr.as_ptr() as usize, bytes);
        for i in 0..n {
            // SAFETY: entry `i` lies inside the mapping, unwritten.
            unsafe { ptr.as_ptr().add(i).write(make()) };
        }
        return Ok(Table { ptr, len: n, mapped });
    }
    let mut v = reserve(n)?;
    v.extend(std::iter::repeat_with(make).take(n));
    let entries = Box::into_raw(v.into_boxed_slice());
    // SAFETY: a boxed slice's pointer is never null (dangling but aligned when empty).
    let ptr = unsafe { std::ptr::NonNull::new_unchecked(entries.cast::<T>()) };
    Ok(Table { ptr, len: n, mapped: 0 })
}

/// A fresh anonymous mapping of at least `bytes` (page-aligned, so aligned
/// for `T` whose alignment is at most a page), and its length; `Ok(None)`
/// where there are no mappings here (not Linux) or `T` asks for more
/// alignment; the system's refusal is a [`TableError`].
#[cfg(target_os = "linux")]
fn map<T>(bytes: usize) -> Result<Option<(std::ptr::NonNull<T>, usize)>, TableError> {
    const PAGE: usize = 4096;
    if std::mem::align_of::<T>() > PAGE {
        return Ok(None);
    }
    let len = bytes.checked_next_multiple_of(PAGE).ok_or(TableError { bytes })?;
    // SAFETY: an anonymous private mapping at an address of the kernel's
    // choosing touches no existing memory.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(TableError { bytes });
    }
    Ok(std::ptr::NonNull::new(p.cast::<T>()).map(|p| (p, len)))
}

/// Elsewhere: the heap.
#[cfg(not(target_os = "linux"))]
fn map<T>(_bytes: usize) -> Result<Option<(std::ptr::NonNull<T>, usize)>, TableError> {
    Ok(None)
}

/// Returns a mapping of [`map`] to the system.
#[cfg(target_os = "linux")]
unsafe fn unmap(p: *mut u8, len: usize) {
    // SAFETY (caller's): `p` and `len` are a mapping of `map`, unmapped once.
    // A failure (impossible for a whole mapping) would only leak it.
    unsafe { libc::munmap(p.cast(), len) };
}

/// Elsewhere: never called (no mappings).
#[cfg(not(target_os = "linux"))]
unsafe fn unmap(_p: *mut u8, _len: usize) {}

/// Advises huge pages for the whole huge pages inside `[start, start + bytes)`.
#[cfg(target_os = "linux")]
fn advise_huge(start: usize, bytes: usize) {
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: the range lies inside the vector's own allocation (its
        // capacity, not yet written); MADV_HUGEPAGE changes neither the
        // mapping's contents nor its validity, only how the kernel backs
        // it. The result is ignored: a refused hint leaves small pages.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

/// Elsewhere: no advice.
#[cfg(not(target_os = "linux"))]
fn advise_huge(_start: usize, _bytes: usize) {}

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
    use super::{HUGE_PAGE, TableError, XorPair, reserve, table};

    #[test]
    fn a_table_holds_what_make_made() {
        // Small (no advice) and large (advised): the same entries.
        for n in [3, 2 * HUGE_PAGE / 8 + 5] {
            let mut k = 0u64;
            let t = table(n, || {
                k += 1;
                k
            })
            .expect("a small table");
            assert_eq!(t.len(), n);
            assert!(t.iter().enumerate().all(|(i, &x)| x == i as u64 + 1));
        }
    }

    #[test]
    fn a_large_table_has_its_own_mapping_and_drops_every_entry_once() {
        use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
        static DROPPED: AtomicUsize = AtomicUsize::new(0);
        struct Counted(u64);
        impl Drop for Counted {
            fn drop(&mut self) {
                DROPPED.fetch_add(1, Relaxed);
            }
        }
        for n in [5, 2 * HUGE_PAGE / 8 + 3] {
            DROPPED.store(0, Relaxed);
            let t = table(n, || Counted(7)).expect("a table");
            assert_eq!((t.len(), t.iter().all(|c| c.0 == 7)), (n, true));
            let large = n > 5;
            assert_eq!(t.mapped > 0, large && cfg!(target_os = "linux"), "{t:?}");
            if t.mapped > 0 {
                assert!(
                    t.mapped >= n * 8 && t.mapped.is_multiple_of(4096) && (t.as_ptr() as usize).is_multiple_of(4096),
                    "{t:?}"
                );
            }
            drop(t);
            assert_eq!(DROPPED.load(Relaxed), n);
        }
    }

    #[test]
    fn memory_refused_is_an_error_not_an_abort() {
        // More than the address space: refused by the allocator itself.
        let e = reserve::<[u64; 2]>(usize::MAX / 8).unwrap_err();
        assert_eq!(e, TableError { bytes: usize::MAX });
        assert!(e.to_string().starts_with("cannot allocate a table of "), "{e}");
        assert!(table(usize::MAX / 16, u128::default).is_err());
        assert_eq!(reserve::<u64>(5).map(|v| v.capacity()), Ok(5));
    }

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
