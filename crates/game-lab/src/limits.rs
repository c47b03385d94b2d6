//! Bounds on every number a user gives (command-line flags, policy specs,
//! record files): each check returns the value, or a one-line message that
//! names the flag and the value and says the accepted range ([`LimitError`]).
//!
//! - Time limits: more than 0 and at most [`MAX_SECONDS`] (a year), finite.
//! - Memory (transposition tables, MCTS trees): at most [`memory_cap_mb`],
//!   half the machine's memory as `/proc/meminfo` reports it (`MemTotal`),
//!   or [`FALLBACK_MEMORY_MB`] where that file cannot be read; megabytes
//!   become bytes by checked arithmetic ([`mb_to_bytes`]).
//! - Threads: 1 to [`max_threads`], four per core the system reports
//!   (`available_parallelism`), never fewer than [`MIN_THREAD_CAP`].
//! - Search depths and solver horizons: at most [`MAX_DEPTH`] plies.
//! - Time per move of a searching policy (`movetime=`, `--time-per-move`):
//!   1 to [`MAX_MOVETIME_MS`] milliseconds.
//! - Heuristic weights: finite, |w| ≤ [`MAX_WEIGHT`], so that every
//!   evaluation is a finite number.
//! - Move temperatures (`temp=`): 0 (off) to [`MAX_TEMP`], finite; the
//!   plies they apply to (`temp_plies=`): 0 to [`MAX_TEMP_PLIES`]; book
//!   plies (`--book-plies`): 0 to [`MAX_TEMP_PLIES`].
//! - Node budgets of the root guard (`guard_nodes=`): 1 to [`MAX_NODES`].
//! - MCTS exploration constants (`--c`, `c=`): 0 to [`MAX_EXPLORATION`],
//!   finite, for every game.
//! - MCTS prior temperatures (`--prior`, `prior=`): above 0, at most
//!   [`MAX_TEMP`], finite, for every game.
//! - Flags read from text ([`megabytes_text`], [`exploration_text`]): text
//!   that is no number of the kind (`NaN`, `-1`, `2^64`) is refused with
//!   the same message as a number out of bounds.
//! - Record files: at most [`MAX_RECORD_BYTES`], lines of at most
//!   [`MAX_LINE_BYTES`], UTF-8 ([`read_text`]).
//!
//! Refusals are [`LimitError`]s. This module never exits, prints or panics
//! on a bad value: the caller decides what a refusal means.

use std::io::Read;
use std::path::Path;
use std::time::Duration;

/// The longest time limit in seconds (365 days).
pub const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// The memory cap in megabytes when `/proc/meminfo` cannot be read (16 GiB).
pub const FALLBACK_MEMORY_MB: usize = 16 << 10;

/// The thread cap is never below this, whatever the number of cores.
pub const MIN_THREAD_CAP: usize = 64;

/// The deepest alpha-beta search and the largest solver horizon, in plies
/// (the table stores depths in a byte; depth 10 already takes minutes).
pub const MAX_DEPTH: u32 = 120;

/// The longest time per move of a searching policy, in milliseconds (10
/// minutes: a batch or an arena plays many moves).
pub const MAX_MOVETIME_MS: u64 = 10 * 60 * 1000;

/// The largest |weight| of a heuristic evaluation.
pub const MAX_WEIGHT: f64 = 1e6;

/// The largest move temperature (`temp=`): visits^(1/T) or a softmax of
/// scores / T; in the units of the scores for agents that soften scores
/// (alpha-beta's evaluation units).
pub const MAX_TEMP: f64 = 1e6;

/// The most plies a move temperature (`temp_plies=`) or a random book
/// (`--book-plies`) may cover.
pub const MAX_TEMP_PLIES: u32 = 10_000;

/// The largest node budget of a proof attempt (`guard_nodes=`): ten
/// billion, minutes of solving.
pub const MAX_NODES: u64 = 10_000_000_000;

/// The most MCTS playouts of one search (`--playouts`, `playouts=`): 2³⁰,
/// more than 10 minutes at 1.7 million playouts a second, and far from the
/// 2³² that a node's 32-bit visit count holds.
pub const MAX_PLAYOUTS: u64 = 1 << 30;

/// The largest MCTS exploration constant (`--c`, `c=`) of every game.
pub const MAX_EXPLORATION: f64 = 100.0;

/// The largest record file (game records, weights files): 16 MiB.
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

/// The longest line of a record file, in bytes.
pub const MAX_LINE_BYTES: usize = 4096;

/// The most bytes of read text that a message quotes ([`clip`]).
pub const QUOTE_BYTES: usize = 200;

/// `text` for a message: at most [`QUOTE_BYTES`] bytes (cut at a character
/// boundary), `… (N bytes)` where cut, so that an error line never echoes a
/// long line of a file.
pub fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= QUOTE_BYTES {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut at = QUOTE_BYTES;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    std::borrow::Cow::Owned(format!("{}… ({} bytes)", &text[..at], text.len()))
}

/// How a value is named in a message: `--flag value` for a flag,
/// `` `key=value` `` for a key of a spec.
fn label(flag: &str, value: impl std::fmt::Display) -> String {
    if flag.starts_with('-') { format!("{flag} {value}") } else { format!("`{flag}={value}`") }
}

/// A number for a message: plain when moderate, in exponent form when huge
/// or tiny (`1e20`, not twenty-one digits).
fn number(x: f64) -> String {
    if x != 0.0 && x.is_finite() && !(1e-4..1e7).contains(&x.abs()) { format!("{x:e}") } else { format!("{x}") }
}

/// A value out of its bounds, or a record file refused. Each carries the
/// value as the message names it (`--flag value` or `` `key=value` ``), or
/// the file's name; its text is one line that says the accepted range.
#[derive(Clone, Debug, PartialEq)]
pub enum LimitError {
    /// A time limit out of (0, [`MAX_SECONDS`]].
    Seconds {
        /// The flag and value.
        value: String,
    },
    /// A time limit that is no [`Duration`].
    Duration {
        /// The flag and value.
        value: String,
        /// Why.
        error: std::time::TryFromFloatSecsError,
    },
    /// A size out of `min..=cap` megabytes.
    Megabytes {
        /// The flag and value.
        value: String,
        /// The smallest size accepted.
        min: usize,
        /// The largest size accepted ([`memory_cap_mb`]).
        cap: usize,
        /// How the cap was found.
        how: &'static str,
    },
    /// A thread count out of `1..=max`.
    Threads {
        /// The flag and value.
        value: String,
        /// The most threads accepted ([`max_threads`]).
        max: usize,
        /// The cores the system reports.
        cores: usize,
    },
    /// A depth out of `min..=`[`MAX_DEPTH`].
    Depth {
        /// The flag and value.
        value: String,
        /// The smallest depth accepted.
        min: u32,
    },
    /// A time per move out of `1..=`[`MAX_MOVETIME_MS`] milliseconds.
    Movetime {
        /// The flag and value.
        value: String,
    },
    /// A weight that is not finite or beyond ±[`MAX_WEIGHT`].
    Weight {
        /// The key and value.
        value: String,
    },
    /// A move temperature that is not finite or out of `0..=`[`MAX_TEMP`].
    Temp {
        /// The key and value.
        value: String,
    },
    /// A value margin (`vary=`) that is not finite or out of `0..=1`.
    Margin {
        /// The key and value.
        value: String,
    },
    /// A ply count (temperature plies, book plies) above [`MAX_TEMP_PLIES`].
    Plies {
        /// The key or flag and value.
        value: String,
    },
    /// A node budget out of `1..=`[`MAX_NODES`].
    Nodes {
        /// The key or flag and value.
        value: String,
    },
    /// A playout count out of `1..=`[`MAX_PLAYOUTS`].
    Playouts {
        /// The key or flag and value.
        value: String,
    },
    /// An exploration constant that is not finite or out of `0..=`[`MAX_EXPLORATION`].
    Exploration {
        /// The key or flag and value.
        value: String,
    },
    /// A prior temperature that is not finite or out of (0, [`MAX_TEMP`]].
    Prior {
        /// The key or flag and value.
        value: String,
    },
    /// A file that cannot be opened or read.
    Read {
        /// The file.
        name: String,
        /// The system's reason, as text.
        error: String,
    },
    /// A file larger than [`MAX_RECORD_BYTES`].
    TooLarge {
        /// The file.
        name: String,
    },
    /// A file that is not UTF-8.
    NotUtf8 {
        /// The file.
        name: String,
        /// The offset of the first invalid byte.
        offset: usize,
    },
    /// A line longer than [`MAX_LINE_BYTES`].
    LongLine {
        /// The file.
        name: String,
        /// The 1-based line number.
        line: usize,
        /// Its length in bytes.
        bytes: usize,
    },
}

impl std::fmt::Display for LimitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LimitError::Seconds { value } => {
                write!(f, "{value}: expected seconds above 0 and at most {MAX_SECONDS} (365 days)")
            }
            LimitError::Duration { value, error } => write!(f, "{value}: {error}"),
            LimitError::Megabytes { value, min, cap, how } => {
                write!(f, "{value}: expected megabytes in {min}..={cap} ({how})")
            }
            LimitError::Threads { value, max, cores } => write!(
                f,
                "{value}: expected 1..={max} threads (4 per core, {cores} cores here, at least {MIN_THREAD_CAP})"
            ),
            LimitError::Depth { value, min } => write!(f, "{value}: expected a depth in {min}..={MAX_DEPTH} plies"),
            LimitError::Movetime { value } => {
                write!(f, "{value}: expected milliseconds per move in 1..={MAX_MOVETIME_MS} (10 minutes)")
            }
            LimitError::Weight { value } => {
                write!(f, "{value}: out of range (accepted: finite, -{MAX_WEIGHT:e}..={MAX_WEIGHT:e})")
            }
            LimitError::Temp { value } => {
                write!(f, "{value}: expected a temperature in 0..={MAX_TEMP:e} (0: off)")
            }
            LimitError::Margin { value } => {
                write!(f, "{value}: expected a value margin in 0..=1 (score units: a win 1, a draw 0.5; 0: off)")
            }
            LimitError::Plies { value } => write!(f, "{value}: expected plies in 0..={MAX_TEMP_PLIES}"),
            LimitError::Nodes { value } => write!(f, "{value}: expected a node count from 1 to {MAX_NODES}"),
            LimitError::Playouts { value } => {
                write!(f, "{value}: expected a playout count from 1 to {MAX_PLAYOUTS} (2^30)")
            }
            LimitError::Exploration { value } => {
                write!(f, "{value}: expected an exploration constant from 0 to {MAX_EXPLORATION}")
            }
            LimitError::Prior { value } => {
                write!(f, "{value}: expected a prior temperature above 0 and at most {MAX_TEMP:e}")
            }
            LimitError::Read { name, error } => write!(f, "cannot read {name}: {error}"),
            LimitError::TooLarge { name } => {
                write!(f, "{name}: larger than {} MiB, the largest record accepted", MAX_RECORD_BYTES >> 20)
            }
            LimitError::NotUtf8 { name, offset } => {
                write!(f, "{name}: not UTF-8 text (invalid byte at offset {offset})")
            }
            LimitError::LongLine { name, line, bytes } => {
                write!(f, "{name}:{line}: line of {bytes} bytes, longer than the {MAX_LINE_BYTES} accepted")
            }
        }
    }
}

impl std::error::Error for LimitError {}

/// A time limit of `secs` seconds for `flag`, checked: finite, above 0, at
/// most [`MAX_SECONDS`].
pub fn seconds(flag: &str, secs: f64) -> Result<Duration, LimitError> {
    if !(secs.is_finite() && secs > 0.0 && secs <= MAX_SECONDS) {
        return Err(LimitError::Seconds { value: label(flag, number(secs)) });
    }
    Duration::try_from_secs_f64(secs).map_err(|error| LimitError::Duration { value: label(flag, number(secs)), error })
}

/// The machine's memory in megabytes (`MemTotal` of `/proc/meminfo`), if known.
pub fn machine_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// The most megabytes a table or a tree may take: half the machine's
/// memory, or [`FALLBACK_MEMORY_MB`] where it is unknown; and how it was found.
pub fn memory_cap_mb() -> (usize, &'static str) {
    match machine_memory_mb() {
        Some(mb) => ((mb / 2).max(1), "half of MemTotal in /proc/meminfo"),
        None => (FALLBACK_MEMORY_MB, "a fixed cap: /proc/meminfo is unreadable"),
    }
}

/// `mb` megabytes in bytes, or `None` if that does not fit a `usize`.
pub fn mb_to_bytes(mb: usize) -> Option<usize> {
    mb.checked_mul(1 << 20)
}

/// A size of `mb` megabytes for `flag`, checked: at least `min`, at most
/// [`memory_cap_mb`].
pub fn megabytes(flag: &str, mb: usize, min: usize) -> Result<usize, LimitError> {
    let (cap, how) = memory_cap_mb();
    if mb < min || mb > cap || mb_to_bytes(mb).is_none() {
        return Err(LimitError::Megabytes { value: label(flag, mb), min, cap, how });
    }
    Ok(mb)
}

/// A size in megabytes for `flag` from its text, checked as [`megabytes`]
/// does; text that is no whole number (`-1`, `NaN`, beyond `usize`) is
/// refused with the same message.
pub fn megabytes_text(flag: &str, text: &str, min: usize) -> Result<usize, LimitError> {
    match text.parse::<usize>() {
        Ok(mb) => megabytes(flag, mb, min),
        Err(_) => {
            let (cap, how) = memory_cap_mb();
            Err(LimitError::Megabytes { value: label(flag, text), min, cap, how })
        }
    }
}

/// An MCTS exploration constant for `key`, checked: finite, 0 to
/// [`MAX_EXPLORATION`] (one bound for every game).
pub fn exploration(key: &str, c: f64) -> Result<f64, LimitError> {
    if !(c.is_finite() && (0.0..=MAX_EXPLORATION).contains(&c)) {
        return Err(LimitError::Exploration { value: label(key, number(c)) });
    }
    Ok(c)
}

/// An exploration constant for `key` from its text, checked as
/// [`exploration`] does; text that is no number is refused with the same
/// message, which quotes the text as given.
pub fn exploration_text(key: &str, text: &str) -> Result<f64, LimitError> {
    text.parse::<f64>()
        .ok()
        .and_then(|c| exploration(key, c).ok())
        .ok_or_else(|| LimitError::Exploration { value: label(key, text) })
}

/// An MCTS prior temperature for `key` (`--prior`, `prior=`), checked:
/// finite, above 0, at most [`MAX_TEMP`] (one bound for every game).
pub fn prior(key: &str, t: f64) -> Result<f64, LimitError> {
    if !(t.is_finite() && t > 0.0 && t <= MAX_TEMP) {
        return Err(LimitError::Prior { value: label(key, number(t)) });
    }
    Ok(t)
}

/// A prior temperature for `key` from its text, checked as [`prior`]
/// does; text that is no number is refused with the same message.
pub fn prior_text(key: &str, text: &str) -> Result<f64, LimitError> {
    text.parse::<f64>()
        .ok()
        .and_then(|t| prior(key, t).ok())
        .ok_or_else(|| LimitError::Prior { value: label(key, text) })
}

/// The most threads a command accepts: 4 per core the system reports, at
/// least [`MIN_THREAD_CAP`].
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_mul(4).max(MIN_THREAD_CAP)
}

/// A thread count for `flag`, checked: 1 to [`max_threads`].
pub fn threads(flag: &str, n: usize) -> Result<usize, LimitError> {
    let max = max_threads();
    if n == 0 || n > max {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        return Err(LimitError::Threads { value: label(flag, n), max, cores });
    }
    Ok(n)
}

/// A depth in plies for `flag`, checked: `min` to [`MAX_DEPTH`].
pub fn depth(flag: &str, d: u32, min: u32) -> Result<u32, LimitError> {
    if d < min || d > MAX_DEPTH {
        return Err(LimitError::Depth { value: label(flag, d), min });
    }
    Ok(d)
}

/// A time per move in milliseconds for `flag`, checked: 1 to [`MAX_MOVETIME_MS`].
pub fn movetime_ms(flag: &str, ms: u64) -> Result<u64, LimitError> {
    if ms == 0 || ms > MAX_MOVETIME_MS {
        return Err(LimitError::Movetime { value: label(flag, ms) });
    }
    Ok(ms)
}

/// A heuristic weight, checked: finite and |w| ≤ [`MAX_WEIGHT`].
pub fn weight(key: &str, w: f64) -> Result<f64, LimitError> {
    if !(w.is_finite() && w.abs() <= MAX_WEIGHT) {
        return Err(LimitError::Weight { value: label(key, number(w)) });
    }
    Ok(w)
}

/// A move temperature for `key`, checked: finite, 0 to [`MAX_TEMP`].
pub fn temp(key: &str, t: f64) -> Result<f64, LimitError> {
    if !(t.is_finite() && (0.0..=MAX_TEMP).contains(&t)) {
        return Err(LimitError::Temp { value: label(key, number(t)) });
    }
    Ok(t)
}

/// A value margin for `key` (`vary=`), checked: finite, 0 to 1 (score
/// units: a win 1, a draw ½).
pub fn margin(key: &str, e: f64) -> Result<f64, LimitError> {
    if !(e.is_finite() && (0.0..=1.0).contains(&e)) {
        return Err(LimitError::Margin { value: label(key, number(e)) });
    }
    Ok(e)
}

/// A ply count for `flag` (temperature plies, book plies), checked: at
/// most [`MAX_TEMP_PLIES`].
pub fn plies(flag: &str, n: u64) -> Result<u32, LimitError> {
    if n > MAX_TEMP_PLIES as u64 {
        return Err(LimitError::Plies { value: label(flag, n) });
    }
    Ok(n as u32)
}

/// A node budget for `flag` (`guard_nodes=`), checked: 1 to [`MAX_NODES`].
pub fn nodes(flag: &str, n: u64) -> Result<u64, LimitError> {
    if n == 0 || n > MAX_NODES {
        return Err(LimitError::Nodes { value: label(flag, n) });
    }
    Ok(n)
}

/// A playout count for `flag` (`--playouts`, `playouts=`), checked: 1 to
/// [`MAX_PLAYOUTS`].
pub fn playouts(flag: &str, n: u64) -> Result<u64, LimitError> {
    if n == 0 || n > MAX_PLAYOUTS {
        return Err(LimitError::Playouts { value: label(flag, n) });
    }
    Ok(n)
}

/// The lines of a record's text that hold something, numbered from 1:
/// `#` starts a comment, blanks around are dropped, a byte-order mark at
/// the start is skipped.
pub fn record_lines(body: &str) -> impl Iterator<Item = (usize, &str)> {
    body.trim_start_matches('\u{feff}')
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
}

/// Reads a text file of at most [`MAX_RECORD_BYTES`], UTF-8, with lines of
/// at most [`MAX_LINE_BYTES`]; a byte-order mark at its start is skipped.
/// The message names the file (as `name`) and what is wrong.
pub fn read_text(path: &Path) -> Result<String, LimitError> {
    let name = || path.display().to_string();
    let read = |e: std::io::Error| LimitError::Read { name: name(), error: e.to_string() };
    let file = std::fs::File::open(path).map_err(read)?;
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES + 1).read_to_end(&mut bytes).map_err(read)?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(LimitError::TooLarge { name: name() });
    }
    let text = String::from_utf8(bytes)
        .map_err(|e| LimitError::NotUtf8 { name: name(), offset: e.utf8_error().valid_up_to() })?;
    let text = text.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(text);
    if let Some((n, line)) = text.lines().enumerate().find(|(_, l)| l.len() > MAX_LINE_BYTES) {
        return Err(LimitError::LongLine { name: name(), line: n + 1, bytes: line.len() });
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temperatures_and_plies() {
        assert_eq!(temp("temp", 0.0), Ok(0.0));
        assert_eq!(temp("temp", 1.5), Ok(1.5));
        assert!(temp("temp", -0.1).unwrap_err().to_string().starts_with("`temp=-0.1`: expected a temperature"));
        assert!(temp("temp", f64::NAN).is_err());
        assert!(temp("temp", 2e6).is_err());
        assert_eq!(plies("temp_plies", 16), Ok(16));
        assert_eq!(
            plies("--book-plies", 20_000).unwrap_err().to_string(),
            "--book-plies 20000: expected plies in 0..=10000"
        );
    }

    #[test]
    fn texts_of_flags_out_of_bounds_are_refused_as_numbers_are() {
        assert_eq!(megabytes_text("--tt-mb", "0", 0), Ok(0));
        for bad in ["-1", "NaN", "inf", "1e309", "18446744073709551616", "18446744073709551615", ""] {
            let e = megabytes_text("--tt-mb", bad, 0).unwrap_err().to_string();
            assert!(e.starts_with(&format!("--tt-mb {bad}: expected megabytes in 0..=")), "{e}");
        }
        assert!(
            megabytes_text("tt", "0", 1).unwrap_err().to_string().starts_with("`tt=0`: expected megabytes in 1..=")
        );
        assert_eq!(exploration_text("c", "0.4"), Ok(0.4));
        assert_eq!(prior_text("prior", "0.5"), Ok(0.5));
        for bad in ["0", "-1", "NaN", "inf", "1e309", "18446744073709551616", "x"] {
            let e = prior_text("prior", bad).unwrap_err().to_string();
            assert_eq!(e, format!("`prior={bad}`: expected a prior temperature above 0 and at most 1e6"));
        }
        assert_eq!(exploration("--c", MAX_EXPLORATION), Ok(100.0));
        for bad in ["-1", "NaN", "inf", "-inf", "1e309", "18446744073709551616", "100.5", "x"] {
            let e = exploration_text("c", bad).unwrap_err().to_string();
            assert!(e.ends_with(": expected an exploration constant from 0 to 100"), "{e}");
        }
        assert_eq!(
            exploration_text("--c", "18446744073709551616").unwrap_err().to_string(),
            "--c 18446744073709551616: expected an exploration constant from 0 to 100"
        );
    }

    #[test]
    fn playout_counts() {
        assert_eq!(playouts("--playouts", 1), Ok(1));
        assert_eq!(playouts("playouts", MAX_PLAYOUTS), Ok(MAX_PLAYOUTS));
        assert!(playouts("--playouts", 0).is_err());
        assert_eq!(
            playouts("--playouts", u64::MAX).unwrap_err().to_string(),
            "--playouts 18446744073709551615: expected a playout count from 1 to 1073741824 (2^30)"
        );
    }

    #[test]
    fn bounds_and_messages() {
        assert_eq!(seconds("--time", 1.5), Ok(Duration::from_millis(1500)));
        for bad in [0.0, -1.0, 1e20, f64::NAN, f64::INFINITY] {
            let e = seconds("--time", bad).unwrap_err().to_string();
            assert!(e.starts_with("--time ") && e.contains("365 days"), "{e}");
        }
        assert_eq!(mb_to_bytes(3), Some(3 << 20));
        assert_eq!(mb_to_bytes(usize::MAX), None);
        assert!(megabytes("--tt-mb", usize::MAX, 0).unwrap_err().to_string().contains("--tt-mb 18446744073709551615"));
        assert_eq!(megabytes("--tt-mb", 0, 0), Ok(0));
        assert!(megabytes("mb=", 0, 1).is_err());
        assert!(threads("--threads", 0).is_err() && threads("--threads", 10_000).is_err());
        assert_eq!(threads("--threads", 1), Ok(1));
        assert!(max_threads() >= MIN_THREAD_CAP);
        assert!(depth("--depth", MAX_DEPTH + 1, 1).unwrap_err().to_string().contains("1..=120"));
        assert_eq!(movetime_ms("movetime", 1), Ok(1));
        assert_eq!(movetime_ms("--time-per-move", MAX_MOVETIME_MS), Ok(MAX_MOVETIME_MS));
        let e = movetime_ms("--time-per-move", 0).unwrap_err().to_string();
        assert_eq!(e, "--time-per-move 0: expected milliseconds per move in 1..=600000 (10 minutes)");
        assert!(movetime_ms("movetime", MAX_MOVETIME_MS + 1).unwrap_err().to_string().starts_with("`movetime=600001`"));
        assert!(weight("own_i", 1e308).is_err() && weight("own_i", f64::NAN).is_err());
        assert_eq!(weight("own_i", -1e6), Ok(-1e6));
        assert_eq!(clip("short"), "short");
        let long = "é".repeat(300);
        assert!(clip(&long).len() < QUOTE_BYTES + 20 && clip(&long).ends_with("… (600 bytes)"));
    }
}
