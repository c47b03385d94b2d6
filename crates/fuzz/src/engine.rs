//! The mutation engine: takes the seeds of a target (its corpus files and
//! inputs from its generator), mutates them (bit flips, byte changes,
//! inserts, deletes, duplicated ranges, tokens of the format, splices of two
//! seeds) and runs the target on each case, catching panics. There is no
//! coverage feedback: the format-aware generators and dictionaries stand in
//! for it.
//!
//! What it must never do: draw from an unseeded source (a run is repeatable
//! from its seed and case count), or stop at the first crash (it counts them
//! and keeps one input per distinct message).

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

/// A small seeded generator (xorshift64*), enough to drive mutations.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value, zero included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next_u64() % n as u64) as usize }
    }

    /// True with probability 1/`n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Bytes that break text formats: separators, digits, blanks, line ends,
/// signs, and the start of multi-byte UTF-8.
const INTERESTING: &[u8] = b"0123456789 ,./-:=@>#\t\r\n\"'\\%+eE.\x00\xff\xc3\xa9";

/// A fuzz target: a name, the function under test and its format's tokens.
#[derive(Clone, Copy)]
pub struct Target {
    /// The name, also the corpus and regression folder name.
    pub name: &'static str,
    /// What it checks, one line.
    pub about: &'static str,
    /// Runs one input; panics on a bug.
    pub run: fn(&[u8]),
    /// Tokens of the format, inserted or substituted by mutations.
    pub dict: &'static [&'static str],
    /// Makes a fresh well-formed input (mutated like the seeds).
    pub generate: fn(&mut Rng) -> Vec<u8>,
    /// Largest input the engine makes for this target.
    pub max_len: usize,
}

/// One mutation of `data`, in place.
fn mutate_once(rng: &mut Rng, data: &mut Vec<u8>, seeds: &[Vec<u8>], dict: &[&str]) {
    let len = data.len();
    match rng.below(11) {
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            data[i] = *rng.pick(INTERESTING);
        }
        2 => {
            let i = rng.below(len + 1);
            data.insert(i, *rng.pick(INTERESTING));
        }
        3 if len > 0 => {
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(8));
            data.drain(i..i + n);
        }
        4 if len > 0 => {
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(16));
            let chunk: Vec<u8> = data[i..i + n].to_vec();
            let at = rng.below(len + 1);
            data.splice(at..at, chunk);
        }
        5 | 6 if !dict.is_empty() => {
            let tok = rng.pick(dict).as_bytes();
            let i = rng.below(len + 1);
            if rng.one_in(2) && i < len {
                // Replace the run of same-class bytes at `i` by the token.
                let class = |b: u8| b.is_ascii_alphanumeric();
                let c = class(data[i]);
                let end = (i..len).find(|&j| class(data[j]) != c).unwrap_or(len);
                data.splice(i..end, tok.iter().copied());
            } else {
                data.splice(i..i, tok.iter().copied());
            }
        }
        7 if !seeds.is_empty() => {
            // Splice: a prefix of this input and a suffix of another seed.
            let other = rng.pick(seeds);
            let cut = rng.below(len + 1);
            let from = rng.below(other.len() + 1);
            data.truncate(cut);
            data.extend_from_slice(&other[from..]);
        }
        8 if len > 0 => {
            // A number: digits replaced by a boundary value.
            let nums = [
                "0",
                "1",
                "-1",
                "23",
                "24",
                "99",
                "100",
                "255",
                "256",
                "4294967296",
                "18446744073709551615",
                "18446744073709551616",
                "1e308",
                "1e309",
                "NaN",
                "inf",
                "-0",
                "0.5",
                "5e-324",
                "0x10",
                "+3",
                "00",
            ];
            let i = rng.below(len);
            let end = (i..len).find(|&j| !data[j].is_ascii_digit()).unwrap_or(len).max(i + 1).min(len);
            data.splice(i..end, rng.pick(&nums).bytes());
        }
        9 if len > 1 => {
            let a = rng.below(len);
            let b = rng.below(len);
            data.swap(a, b);
        }
        _ if len > 0 => {
            let i = rng.below(len);
            data.truncate(i);
        }
        _ => data.push(*rng.pick(INTERESTING)),
    }
}

/// A new case: a seed or a generated input, mutated 0 to 16 times.
pub fn make_case(rng: &mut Rng, target: &Target, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut data = if seeds.is_empty() || rng.one_in(3) { (target.generate)(rng) } else { rng.pick(seeds).clone() };
    let most = if rng.one_in(4) { 16 } else { 4 };
    let n = if rng.one_in(8) { 0 } else { 1 + rng.below(most) };
    for _ in 0..n {
        mutate_once(rng, &mut data, seeds, target.dict);
    }
    data.truncate(target.max_len);
    data
}

/// What a run found.
#[derive(Debug, Default)]
pub struct Report {
    /// Cases run.
    pub cases: u64,
    /// Cases that panicked.
    pub crashes: u64,
    /// One input per distinct panic message: (message, input).
    pub distinct: Vec<(String, Vec<u8>)>,
    /// Time spent.
    pub elapsed: Duration,
}

thread_local! {
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Installs a panic hook that records the message quietly (a fuzz run
/// panics on purpose, possibly millions of times); returns the old hook's
/// restoring guard.
pub fn quiet_panics() {
    panic::set_hook(Box::new(|info| {
        let msg = info.to_string();
        LAST_PANIC.with(|l| *l.borrow_mut() = msg);
    }));
}

/// Runs `target` on one input, returning the panic message if it panicked.
/// Call [`quiet_panics`] first to keep the messages off stderr.
pub fn run_one(target: &Target, data: &[u8]) -> Option<String> {
    match panic::catch_unwind(AssertUnwindSafe(|| (target.run)(data))) {
        Ok(()) => None,
        Err(_) => Some(LAST_PANIC.with(|l| l.borrow().clone())),
    }
}

/// The key under which crashes count as the same bug: the message's first
/// line with digits dropped (values differ between inputs, the place does not).
fn crash_key(msg: &str) -> String {
    msg.lines().next().unwrap_or("").chars().filter(|c| !c.is_ascii_digit()).take(200).collect()
}

/// Runs `target` until `cases` cases or `time` has passed, whichever comes
/// first, with seeds `seeds` and generator seed `seed`.
pub fn fuzz(target: &Target, seeds: &[Vec<u8>], seed: u64, cases: u64, time: Duration) -> Report {
    let mut rng = Rng::new(seed ^ fnv1a(target.name.as_bytes()));
    let start = Instant::now();
    let mut report = Report::default();
    let mut keys: Vec<String> = Vec::new();
    while report.cases < cases {
        if report.cases.is_multiple_of(64) && start.elapsed() >= time {
            break;
        }
        let data = make_case(&mut rng, target, seeds);
        report.cases += 1;
        if let Some(msg) = run_one(target, &data) {
            report.crashes += 1;
            let key = crash_key(&msg);
            if !keys.contains(&key) && keys.len() < 50 {
                keys.push(key);
                report.distinct.push((msg, data));
            }
        }
    }
    report.elapsed = start.elapsed();
    report
}

/// FNV-1a, to name crash files by their content.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// The files of a folder, sorted by name (none when it does not exist).
pub fn read_dir_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| Some((e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).ok()?)))
        .collect();
    files.sort();
    files
}

/// The corpus folder of the crate (`crates/fuzz/corpus`).
pub fn corpus_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus"))
}

/// The regression folder of the crate (`crates/fuzz/regressions`).
pub fn regressions_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/regressions"))
}

/// The seeds of a target: its corpus files and its regression inputs.
pub fn seeds_of(target: &Target) -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = read_dir_files(&corpus_dir().join(target.name)).into_iter().map(|f| f.1).collect();
    seeds.extend(read_dir_files(&regressions_dir().join(target.name)).into_iter().map(|f| f.1));
    seeds
}
