//! A design's round played in shards (`senat design --shard K/N`, one
//! Slurm array task each) and folded back (`--fold`, or `--resume`).
//!
//! Round `r`'s games are listed in the one order every run plays and logs
//! them ([`round_jobs`]: each open variant × column pair's games of the
//! round, pair by pair); shard `K/N` plays the `K`-th of `N` contiguous
//! slices of that list (the selfplay batch's [`Shard::range`]) and writes
//! them to `DIR/round-R/shard-K.csv` ([`shard_text`]), atomically, by the
//! caller. The shards' rows joined in shard order are therefore the rows
//! an unsharded run logs for the round, and the fold appends them to the
//! round log as that run would: the same `rounds.csv`, byte for byte.
//! [`pending`] proves a round's shard files are exactly one complete
//! round of this design (each file's identity line, round, shard count
//! and every row's variant, column and game), or names what is missing.
//!
//! This module never plays a game, never decides a verdict and never
//! writes or removes a file.

use super::report::{LOG_HEADER, LOG_HEADER_SEAT, LogError, LogRow, log_header, parse_row, row_line};
use crate::runner::Shard;
use std::path::{Path, PathBuf};

/// The magic of a shard file's first line.
pub const SHARD_MAGIC: &str = "# senat-design-shard v1";

/// The games of a round in the order every run plays and logs them: for
/// each open pair (by its index in `pairs`), in order, the games `span`.
pub fn round_jobs(pairs: usize, span: std::ops::Range<u64>) -> Vec<(usize, u64)> {
    (0..pairs).flat_map(|p| span.clone().map(move |g| (p, g))).collect()
}

/// The folder of round `r`'s shard files: `DIR/round-R`.
pub fn round_dir(dir: &Path, r: u64) -> PathBuf {
    dir.join(format!("round-{r}"))
}

/// Shard `k`'s file of round `r`: `DIR/round-R/shard-K.csv`.
pub fn shard_path(dir: &Path, r: u64, k: u64) -> PathBuf {
    round_dir(dir, r).join(format!("shard-{k}.csv"))
}

fn first_line(identity: &str, r: u64) -> String {
    format!("{SHARD_MAGIC} {identity} round={r} shard=")
}

/// The text of shard `s`'s file of round `r` of design `identity`: its
/// identity line (`# senat-design-shard v1 <design> round=R shard=K/N`),
/// the round log's header, its rows as the round log writes them, and
/// `#end R`.
///
/// `seat`: the design has a target on the first giver's seat ([`log_header`]).
pub fn shard_text(identity: &str, r: u64, s: Shard, rows: &[LogRow], seat: bool) -> Vec<u8> {
    let mut out = format!("{}{}/{}\n{}\n", first_line(identity, r), s.k, s.n, log_header(seat));
    for x in rows {
        out += &row_line(r, x);
    }
    out += &format!("#end {r}\n");
    out.into_bytes()
}

/// Reads shard file `path` of round `r` of design `identity`: its shard
/// and its rows, each checked against `expected` (the round's games as
/// (variant, column, game), in [`round_jobs`] order): the file must hold
/// exactly its slice of them, whole (ending with `#end R`).
pub fn read_shard(
    path: &Path,
    identity: &str,
    r: u64,
    expected: &[(usize, usize, u64)],
) -> Result<(Shard, Vec<LogRow>), LogError> {
    let invalid = |why: String| LogError::Invalid { path: path.to_path_buf(), why };
    let text =
        std::fs::read_to_string(path).map_err(|e| LogError::Io { path: path.to_path_buf(), message: e.to_string() })?;
    let mut lines = text.lines();
    let head = lines.next().unwrap_or("");
    let want = first_line(identity, r);
    let Some(ks) = head.strip_prefix(&want) else {
        return Err(invalid(format!(
            "it is not a shard of round {r} of this design:\n  it holds: {head}\n  this run: {want}K/N"
        )));
    };
    let s = Shard::parse(ks).map_err(|e| invalid(e.to_string()))?;
    if !matches!(lines.next(), Some(LOG_HEADER | LOG_HEADER_SEAT)) {
        return Err(invalid(format!("its second line is not `{LOG_HEADER}`")));
    }
    let span = s.range(expected.len() as u64);
    let slice = &expected[span.start as usize..span.end as usize];
    let mut rows = Vec::with_capacity(slice.len());
    let mut ended = false;
    for l in lines {
        if ended {
            return Err(invalid(format!("a line after `#end {r}`: `{l}`")));
        }
        if l == format!("#end {r}") {
            ended = true;
            continue;
        }
        let (round, row) = parse_row(l).ok_or_else(|| invalid(format!("bad row `{l}`")))?;
        let Some(&(v, t, g)) = slice.get(rows.len()) else {
            return Err(invalid(format!("more rows than shard {}/{}'s {} games", s.k, s.n, slice.len())));
        };
        if round != r || (row.variant, row.tier, row.game) != (v, t, g) {
            return Err(invalid(format!(
                "row `{l}` is not the round's next game (round {r}, variant {v}, column {t}, game {g})"
            )));
        }
        rows.push(row);
    }
    if !ended || rows.len() != slice.len() {
        return Err(invalid(format!(
            "it is cut: {} of shard {}/{}'s {} games{}",
            rows.len(),
            s.k,
            s.n,
            slice.len(),
            if ended { "" } else { ", no `#end` line" }
        )));
    }
    Ok((s, rows))
}

/// What a round's folder holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// No shard file (no folder, or an empty one).
    Nothing,
    /// Some of `n` shards: those missing, by number.
    Partial {
        /// The shard count the files name.
        n: u64,
        /// The missing shards' numbers (1-based).
        missing: Vec<u64>,
    },
    /// Every shard: the round's rows, in [`round_jobs`] order.
    Complete(Vec<LogRow>),
}

/// The shard files of round `r` of design `identity` in `DIR/round-R`
/// (names `shard-K.csv`; anything else, such as a killed writer's
/// `.partial` file, is ignored): nothing, a partial round, or the complete
/// round's rows, every file checked by [`read_shard`]. Files that name
/// different shard counts, or a file whose name is not its shard, are an
/// error.
pub fn pending(dir: &Path, identity: &str, r: u64, expected: &[(usize, usize, u64)]) -> Result<Pending, LogError> {
    let folder = round_dir(dir, r);
    let entries = match std::fs::read_dir(&folder) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Pending::Nothing),
        Err(e) => return Err(LogError::Io { path: folder, message: e.to_string() }),
    };
    let mut found: Vec<(u64, Shard, Vec<LogRow>)> = Vec::new();
    for e in entries {
        let e = e.map_err(|e| LogError::Io { path: folder.clone(), message: e.to_string() })?;
        let name = e.file_name();
        let Some(k) = name.to_str().and_then(|n| n.strip_prefix("shard-")?.strip_suffix(".csv")?.parse::<u64>().ok())
        else {
            continue;
        };
        let path = e.path();
        let (s, rows) = read_shard(&path, identity, r, expected)?;
        if s.k != k {
            return Err(LogError::Invalid { path, why: format!("it holds shard {}/{}, not shard {k}", s.k, s.n) });
        }
        found.push((k, s, rows));
    }
    let Some(n) = found.first().map(|f| f.1.n) else { return Ok(Pending::Nothing) };
    if let Some(f) = found.iter().find(|f| f.1.n != n) {
        return Err(LogError::Invalid {
            path: folder,
            why: format!(
                "its shards were played with different counts (shard {}/{} beside shards of {n}): remove the \
                 folder and play the round again",
                f.1.k, f.1.n
            ),
        });
    }
    found.sort_by_key(|f| f.0);
    let missing: Vec<u64> = (1..=n).filter(|k| !found.iter().any(|f| f.0 == *k)).collect();
    if !missing.is_empty() {
        return Ok(Pending::Partial { n, missing });
    }
    Ok(Pending::Complete(found.into_iter().flat_map(|f| f.2).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(v: usize, g: u64) -> LogRow {
        LogRow::for_test(v, g, 0.25, false, 7)
    }

    /// Three shards of a round of 2 pairs × 4 games: written in any order,
    /// read back as the round's rows in order; one missing is named; a
    /// file of another design or a cut one is refused.
    #[test]
    fn shards_fold_into_the_round() {
        let dir = std::env::temp_dir().join(format!("senat-design-shards-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(round_dir(&dir, 3)).unwrap();
        let pairs = [(0usize, 0usize), (2, 0)];
        let jobs = round_jobs(2, 12..16);
        let expected: Vec<(usize, usize, u64)> = jobs.iter().map(|&(p, g)| (pairs[p].0, pairs[p].1, g)).collect();
        let all: Vec<LogRow> = expected.iter().map(|&(v, _, g)| row(v, g)).collect();
        assert_eq!(pending(&dir, "id", 3, &expected).unwrap(), Pending::Nothing);
        let write = |k: u64| {
            let s = Shard { k, n: 3 };
            let r = s.range(all.len() as u64);
            let text = shard_text("id", 3, s, &all[r.start as usize..r.end as usize], false);
            std::fs::write(shard_path(&dir, 3, k), text).unwrap();
        };
        write(3);
        write(1);
        std::fs::write(round_dir(&dir, 3).join("shard-2.csv.partial"), "junk").unwrap();
        assert_eq!(pending(&dir, "id", 3, &expected).unwrap(), Pending::Partial { n: 3, missing: vec![2] });
        assert!(matches!(pending(&dir, "other", 3, &expected), Err(LogError::Invalid { .. })));
        write(2);
        assert_eq!(pending(&dir, "id", 3, &expected).unwrap(), Pending::Complete(all.clone()));
        let p = shard_path(&dir, 3, 2);
        let text = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, text.replace("#end 3\n", "")).unwrap();
        let e = pending(&dir, "id", 3, &expected).unwrap_err().to_string();
        assert!(e.contains("it is cut"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
