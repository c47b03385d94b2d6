//! The one reader of weights files: Sénat's learned weights (`play.`,
//! `draft.`, `net.`, `draft_net.` lines, `senat_lab::learned::Learned::parse`)
//! and every other game's network files (`game=`, `linear.`, `net.` lines,
//! `senat_lab::games::learn::GameWeights::parse_shape`) are read through
//! [`entries`], which refuses, with the line at fault:
//!
//! - a line that is not `key=value`, and a key given twice;
//! - a file whose check line does not hold: a file cut short (rows
//!   missing), with rows added, or with a row edited (a number cut mid-way,
//!   a digit changed).
//!
//! Numbers are read by [`number`]: finite and within ±[`MAX_WEIGHT`].
//!
//! **The check line.** Every file senat writes carries, as its first
//! `key=value` line (after the `#` comments), `check=rows:<N>
//! fnv1a64:<16 hex digits>`: the number of `key=value` lines after it and
//! the 64-bit FNV-1a hash of those lines, each as `key=value\n` (key and
//! value trimmed, comments and blank lines left out, so that comments may
//! be edited). [`seal`] adds it.
//!
//! A file without a check line (written before it existed) is still read:
//! then the network's shape says what it must hold
//! ([`WeightsFile::missing_net`]: every `net.w1.<i>` row of its inputs,
//! `net.b1`, `net.w2`, `net.b2`), so a headerless file cut short is
//! refused too; only an edit that keeps every line well-formed goes
//! unseen there. (Files written before the check line left out the rows of
//! all-zero weights: such a file, with no check line, is refused, naming
//! the rows it lacks.)
//!
//! The check line tells nothing that the rest of the file does not, so a
//! batch's identity hashes a weights file without it ([`without_check`]):
//! adding one to a file changes no batch that reads it.
//!
//! This module never reads a file itself (callers read through
//! [`crate::limits::read_text`]), never prints, and never panics on any
//! input.

use crate::limits::{MAX_WEIGHT, clip as quote};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

/// The key of the check line.
pub const CHECK_KEY: &str = "check";

/// One `key=value` line of a weights file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<'a> {
    /// Its 1-based line number in the file.
    pub line: usize,
    /// The key, trimmed.
    pub key: &'a str,
    /// The value, trimmed (a `#` comment left out).
    pub value: &'a str,
}

/// A weights file's `key=value` lines, checked ([`entries`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsFile<'a> {
    /// The lines after the check line (all of them where there is none), in order.
    pub entries: Vec<Entry<'a>>,
    /// Whether the file has a check line (whose row count held).
    pub checked: bool,
    /// The check line's hash, where it does not hold: refused by
    /// [`WeightsFile::verdict`], after the caller has read the rows (so
    /// that a row that is itself wrong is named first, at its line).
    mismatch: Option<FileError>,
    /// The number of the file's last line (0 for an empty file).
    pub last_line: usize,
}

/// Why a weights file was refused: the line at fault and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong with it, one line.
    pub why: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

impl std::error::Error for FileError {}

/// A weight's text as a number of type `T` (`f32` for a network, `f64`),
/// parsed as `T` (so exactly as before the bound): finite and within
/// ±[`MAX_WEIGHT`]; the error quotes the text ([`crate::limits::clip`]) and says the range.
pub fn number<T: std::str::FromStr + Into<f64> + Copy>(text: &str) -> Result<T, String> {
    match text.parse::<T>() {
        Ok(v) if v.into().is_finite() && v.into().abs() <= MAX_WEIGHT => Ok(v),
        Ok(v) if v.into().is_finite() => Err(format!("`{}` is beyond ±{MAX_WEIGHT:e}", quote(text))),
        _ => Err(format!("`{}` is not a finite number", quote(text))),
    }
}

/// The hash of entry lines as the check line gives it.
fn hash(entries: &[Entry<'_>]) -> u64 {
    let mut bytes = Vec::new();
    for e in entries {
        bytes.extend_from_slice(e.key.as_bytes());
        bytes.push(b'=');
        bytes.extend_from_slice(e.value.as_bytes());
        bytes.push(b'\n');
    }
    fnv1a64(&bytes)
}

/// The check line's value for `entries`.
fn check_value(entries: &[Entry<'_>]) -> String {
    format!("rows:{} fnv1a64:{:016x}", entries.len(), hash(entries))
}

/// Reads a check line's value: the row count and the hash.
fn parse_check(value: &str) -> Option<(usize, u64)> {
    let mut words = value.split_whitespace();
    let rows = words.next()?.strip_prefix("rows:")?.parse().ok()?;
    let hex = words.next()?.strip_prefix("fnv1a64:")?;
    if hex.len() != 16 || words.next().is_some() {
        return None;
    }
    Some((rows, u64::from_str_radix(hex, 16).ok()?))
}

/// The `key=value` lines of a weights file's `text`, numbered from 1
/// (`#` comments and blank lines left out; a byte-order mark at the start
/// skipped), checked: each is `key=value`, no key twice, and the check
/// line, where the file has one, gives their number; its hash is checked
/// by [`WeightsFile::verdict`], once the caller has read the rows.
pub fn entries(text: &str) -> Result<WeightsFile<'_>, FileError> {
    let mut all = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (line, l) in crate::limits::record_lines(text) {
        let Some((key, value)) = l.split_once('=') else {
            return Err(FileError { line, why: format!("`{}` is not key=value", quote(l)) });
        };
        let (key, value) = (key.trim(), value.trim());
        if let Some(first) = seen.insert(key, line) {
            return Err(FileError { line, why: format!("`{}` given twice (first at line {first})", quote(key)) });
        }
        all.push(Entry { line, key, value });
    }
    let last_line = text.lines().count();
    if let Some(e) = all.iter().skip(1).find(|e| e.key == CHECK_KEY) {
        return Err(FileError { line: e.line, why: "the check line must be the first key=value line".into() });
    }
    let Some(first) = all.first().copied().filter(|e| e.key == CHECK_KEY) else {
        return Ok(WeightsFile { entries: all, checked: false, last_line, mismatch: None });
    };
    let rest = all.split_off(1);
    let Some((rows, want)) = parse_check(first.value) else {
        return Err(FileError {
            line: first.line,
            why: format!("`check={}` is not `check=rows:<N> fnv1a64:<16 hex digits>`", quote(first.value)),
        });
    };
    if rest.len() < rows {
        return Err(FileError {
            line: last_line,
            why: format!(
                "the file ends after {} of the {rows} rows that its check line (line {}) announces: cut short?",
                rest.len(),
                first.line
            ),
        });
    }
    if rest.len() > rows {
        return Err(FileError {
            line: rest[rows].line,
            why: format!("a row beyond the {rows} that the check line (line {}) announces", first.line),
        });
    }
    let got = hash(&rest);
    let mismatch = (got != want).then(|| FileError {
        line: first.line,
        why: format!(
            "the rows after it hash to fnv1a64:{got:016x}, not the fnv1a64:{want:016x} it gives: \
             the file was edited or damaged"
        ),
    });
    Ok(WeightsFile { entries: rest, checked: true, last_line, mismatch })
}

impl WeightsFile<'_> {
    /// Refuses the file where its check line's hash does not hold (at the
    /// check line; call it once every row has been read, so that a row
    /// wrong in itself is named at its own line first).
    pub fn verdict(&self) -> Result<(), FileError> {
        self.mismatch.clone().map_or(Ok(()), Err)
    }

    /// Whether the file gives `key`.
    fn has(&self, key: &str) -> bool {
        self.entries.iter().any(|e| e.key == key)
    }

    /// For a file without a check line whose network `prefix` (`net`,
    /// `draft_net`) has `inputs` inputs: the error that names what the
    /// network lacks (`net.b1`, `net.w2`, `net.b2`, the `net.w1.<i>` rows
    /// of every input), at the file's last line; `None` when it lacks
    /// nothing, or when the file's check line vouches for it.
    pub fn missing_net(&self, prefix: &str, inputs: usize) -> Option<FileError> {
        if self.checked {
            return None;
        }
        let mut missing: Vec<String> =
            ["b1", "w2", "b2"].iter().map(|k| format!("{prefix}.{k}")).filter(|k| !self.has(k)).collect();
        let mut rows = vec![false; inputs];
        for e in &self.entries {
            let row = e.key.strip_prefix(prefix).and_then(|k| k.strip_prefix(".w1.")).and_then(|i| i.parse().ok());
            if let Some(slot) = row.and_then(|i: usize| rows.get_mut(i)) {
                *slot = true;
            }
        }
        let mut i = 0;
        while i < inputs {
            if rows[i] {
                i += 1;
                continue;
            }
            let from = i;
            while i < inputs && !rows[i] {
                i += 1;
            }
            missing.push(if i - from == 1 {
                format!("{prefix}.w1.{from}")
            } else {
                format!("{prefix}.w1.{from} to {prefix}.w1.{}", i - 1)
            });
        }
        if missing.is_empty() {
            return None;
        }
        Some(FileError {
            line: self.last_line,
            why: format!(
                "the file ends without {} (cut short? a file without a check line must give every row)",
                missing.join(", ")
            ),
        })
    }
}

/// `text` (a weights file without a check line) with its check line
/// added before its first `key=value` line; `text` itself where it has
/// one, or where a line is refused by [`entries`] (nothing to vouch for).
pub fn seal(text: &str) -> String {
    let Ok(file) = entries(text) else { return text.to_string() };
    if file.checked {
        return text.to_string();
    }
    let Some(first) = file.entries.first() else { return text.to_string() };
    let at: usize = text.split_inclusive('\n').take(first.line - 1).map(str::len).sum();
    format!("{}{CHECK_KEY}={}\n{}", &text[..at], check_value(&file.entries), &text[at..])
}

/// The bytes of a weights file with its check line left out (the bytes
/// themselves where it has none): what a batch's identity hashes, so
/// that adding a check line to a file changes no batch.
pub fn without_check(bytes: &[u8]) -> Cow<'_, [u8]> {
    let mut at = 0;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let body = line.trim_ascii_start();
        if body.starts_with(b"#") || body.trim_ascii().is_empty() {
            at += line.len();
            continue;
        }
        // The first key=value line: the check line, or none is there.
        if body.starts_with(CHECK_KEY.as_bytes()) && body[CHECK_KEY.len()..].trim_ascii_start().starts_with(b"=") {
            let mut out = bytes[..at].to_vec();
            out.extend_from_slice(&bytes[at + line.len()..]);
            return Cow::Owned(out);
        }
        break;
    }
    Cow::Borrowed(bytes)
}

/// 64-bit FNV-1a, fed piece by piece (the batch identity's weights hash);
/// the hash so far is its field.
pub struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv::new()
    }
}

impl Fnv {
    /// The hash of nothing (FNV-1a's offset basis).
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    /// Feeds `bytes`.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    /// Feeds a weights file's bytes as a batch identity hashes them: its
    /// length and bytes without its check line ([`without_check`]), so
    /// that adding a check line keeps the batches that read it.
    pub fn write_file(&mut self, bytes: &[u8]) {
        let bytes = without_check(bytes);
        self.write(&(bytes.len() as u64).to_le_bytes());
        self.write(&bytes);
    }
}

/// The hash of one weights file as a batch identity records it
/// ([`Fnv::write_file`]).
pub fn file_hash(bytes: &[u8]) -> u64 {
    let mut h = Fnv::new();
    h.write_file(bytes);
    h.0
}

/// 64-bit FNV-1a of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = Fnv::new();
    h.write(bytes);
    h.0
}

/// `text` without its check line, as text: for tests that edit a file's
/// rows to see each of its refusals.
pub fn unsealed(text: &str) -> String {
    String::from_utf8(without_check(text.as_bytes()).into_owned()).expect("UTF-8 in, UTF-8 out")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_known_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    const BODY: &str = "# a comment\n\ngame=x\nlinear.a=1.5 # why\nnet.b2=0.25\n";

    #[test]
    fn a_sealed_file_reads_back_and_its_identity_bytes_are_the_unsealed_ones() {
        let sealed = seal(BODY);
        assert!(sealed.starts_with("# a comment\n\ncheck=rows:3 fnv1a64:"), "{sealed}");
        let f = entries(&sealed).unwrap();
        assert!(f.checked && f.verdict().is_ok());
        assert_eq!(
            f.entries.iter().map(|e| (e.key, e.value)).collect::<Vec<_>>(),
            [("game", "x"), ("linear.a", "1.5"), ("net.b2", "0.25")]
        );
        assert_eq!(seal(&sealed), sealed);
        assert_eq!(&*without_check(sealed.as_bytes()), BODY.as_bytes());
        assert_eq!(&*without_check(BODY.as_bytes()), BODY.as_bytes());
        // Comments may change; rows may not.
        assert!(entries(&sealed.replace("# why", "# because")).is_ok());
    }

    #[test]
    fn cut_edited_repeated_and_misplaced_lines_are_refused_with_their_line() {
        let sealed = seal(BODY);
        let line_of = |t: &str| entries(t).unwrap_err().line;
        let cut: String = sealed.lines().take(5).map(|l| format!("{l}\n")).collect();
        let e = entries(&cut).unwrap_err();
        assert_eq!(e.line, 5, "{e}");
        assert!(e.why.contains("ends after 2 of the 3 rows"), "{e}");
        let edited = sealed.replace("1.5", "1.6");
        assert_eq!(entries(&edited).unwrap().verdict().unwrap_err().line, 3);
        assert_eq!(line_of(&format!("{sealed}net.w2=1\n")), 7);
        assert_eq!(line_of(&format!("{BODY}game=y\n")), 6);
        assert_eq!(line_of(&format!("{BODY}check=rows:0 fnv1a64:0000000000000000\n")), 6);
        assert_eq!(line_of(&sealed.replace("fnv1a64:", "fnv:")), 3);
        assert_eq!(line_of("a=1\nnot a pair\n"), 2);
        assert!(entries(&format!("{}=1\n", "k".repeat(5000))).is_ok());
        let e = entries(&format!("{}\n", "x".repeat(5000))).unwrap_err().to_string();
        assert!(e.len() < 300, "{e}");
    }

    #[test]
    fn numbers_are_finite_and_bounded() {
        assert_eq!(number::<f64>("-1e6"), Ok(-1e6));
        assert_eq!(number::<f32>("0.1"), Ok(0.1f32));
        assert!(number::<f64>("1.0000001e6").unwrap_err().contains("beyond"));
        for bad in ["nan", "inf", "1e309", "1.2e-", "", "x"] {
            assert!(number::<f64>(bad).unwrap_err().contains("not a finite number"), "{bad}");
        }
    }

    #[test]
    fn a_headerless_network_must_give_every_row() {
        let text = "net.hidden=1\nnet.b1=0\nnet.w2=1\nnet.w1.0=1\nnet.w1.3=1\n";
        let f = entries(text).unwrap();
        let e = f.missing_net("net", 5).unwrap();
        assert_eq!(e.line, 5);
        assert!(e.why.contains("net.b2, net.w1.1 to net.w1.2, net.w1.4 (cut short?"), "{e}");
        assert_eq!(entries(&seal(text)).unwrap().missing_net("net", 5), None);
    }
}
