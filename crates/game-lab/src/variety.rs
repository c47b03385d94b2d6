//! How varied a batch is: the number of distinct games among a games
//! file's rows, and the warning a batch of (nearly) one game repeated
//! deserves.
//!
//! A game is named by some columns of its row (Sénat: its draft and play
//! moves; Focus and Débâcle: its plies and final position). Two equal rows
//! are two plays of one game: agents that draw no randomness (search
//! without a move temperature, `temp=`) from one start play one game,
//! however many seeds.

use std::fmt;
use std::path::{Path, PathBuf};

/// Below this share of distinct games a batch is warned about.
pub const MIN_DISTINCT_SHARE: f64 = 0.9;

/// Distinct games among a batch's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variety {
    /// Games (rows).
    pub games: u64,
    /// Distinct games among them.
    pub distinct: u64,
}

/// A games file that cannot be read for its distinct games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarietyError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub message: String,
}

impl fmt::Display for VarietyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot count the distinct games of {}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for VarietyError {}

impl Variety {
    /// The distinct games of `keys`, one key per game.
    pub fn of<K: std::hash::Hash + Eq>(keys: impl IntoIterator<Item = K>) -> Variety {
        let mut seen = ahash::AHashSet::new();
        let mut games = 0;
        for k in keys {
            games += 1;
            seen.insert(k);
        }
        Variety { games, distinct: seen.len() as u64 }
    }

    /// The summary line: `distinct games: D of N (P%)`.
    pub fn line(&self) -> String {
        let share = if self.games == 0 { 100.0 } else { 100.0 * self.distinct as f64 / self.games as f64 };
        format!("distinct games: {} of {} ({share:.1}%)", self.distinct, self.games)
    }

    /// The warning for a batch of two games or more with fewer than
    /// [`MIN_DISTINCT_SHARE`] distinct ones, `None` otherwise. It names the
    /// cause (`deterministic`: no agent draws randomness and no random book
    /// is played) and the fix (a move temperature, `book_flag`).
    pub fn warning(&self, deterministic: bool, book_flag: &str) -> Option<String> {
        if self.games < 2 || self.distinct as f64 >= MIN_DISTINCT_SHARE * self.games as f64 {
            return None;
        }
        let what = if self.distinct == 1 {
            format!("all {} games are one game repeated", self.games)
        } else {
            format!(
                "only {} of {} games are distinct (fewer than {:.0}%)",
                self.distinct,
                self.games,
                100.0 * MIN_DISTINCT_SHARE
            )
        };
        let cause = if deterministic {
            "the agents are deterministic (searches without a move temperature, no random book)"
        } else {
            "the agents draw little randomness"
        };
        Some(format!(
            "{what}: {cause}; for varied games give the agents a move temperature \
             (e.g. mcts:...,temp=1 or ab:...,temp=50) or start every game with random plies ({book_flag})"
        ))
    }
}

/// The draft moves that name a game's draft opening: the first four
/// (issue 58: distinct openings per 1,000 games).
pub const OPENING_MOVES: usize = 4;

/// The beginning of a `draft_moves` field (move texts separated by single
/// blanks) that names the game's draft opening: its first
/// [`OPENING_MOVES`] moves (all of them in a shorter draft).
pub fn opening_prefix(draft: &[u8]) -> &[u8] {
    match draft.iter().enumerate().filter(|&(_, &b)| b == b' ').nth(OPENING_MOVES - 1) {
        Some((i, _)) => &draft[..i],
        None => draft,
    }
}

/// The line of distinct draft openings: `distinct draft openings (first
/// 4 draft moves): D of N games (R per 1,000 games)`.
pub fn openings_line(v: &Variety) -> String {
    let per = if v.games == 0 { 0.0 } else { 1000.0 * v.distinct as f64 / v.games as f64 };
    format!(
        "distinct draft openings (first {OPENING_MOVES} draft moves): {} of {} games ({per:.1} per 1,000 games)",
        v.distinct, v.games
    )
}

/// The distinct games of a games CSV (lines starting with `#` skipped, a
/// header line, then one row per game), each named by the fields
/// `columns` (0-based) and, with `last`, the row's last field.
pub fn distinct_in_file(path: &Path, columns: &[usize], last: bool) -> Result<Variety, VarietyError> {
    let err = |message: String| VarietyError { path: path.to_path_buf(), message };
    let mut r =
        csv::ReaderBuilder::new().comment(Some(b'#')).flexible(true).from_path(path).map_err(|e| err(e.to_string()))?;
    r.byte_headers().map_err(|e| err(e.to_string()))?;
    // Each game is kept as a 128-bit digest of its key fields, not the
    // fields themselves: 16 bytes a game, so a million-game file costs
    // 16 MB here, and two different games share a digest with odds of
    // about n²/2¹²⁹. One record is reused and its bytes are hashed as
    // they are (no UTF-8 check): the count runs after every batch, on
    // files of hundreds of megabytes.
    let mut keys: Vec<u128> = Vec::new();
    let mut row = csv::ByteRecord::new();
    while r.read_byte_record(&mut row).map_err(|e| err(e.to_string()))? {
        let last = last.then(|| row.iter().next_back().unwrap_or(b""));
        keys.push(row_key(columns.iter().map(|&c| row.get(c).unwrap_or(b"")), last));
    }
    Ok(Variety::of(keys))
}

/// The key of a games row for [`Variety::of`]: the digest of its key
/// fields' bytes (and, with `last`, its last field's) as the file holds
/// them, so that a runner that writes the row and [`distinct_in_file`]
/// reading it back name the game alike.
pub fn row_key<'a>(fields: impl Iterator<Item = &'a [u8]> + Clone, last: Option<&[u8]>) -> u128 {
    digest_of(&(Fields(fields), last))
}

/// Hashes a row's key fields as one value, without collecting them.
struct Fields<I>(I);

impl<'a, I: Iterator<Item = &'a [u8]> + Clone> std::hash::Hash for Fields<I> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        for f in self.0.clone() {
            f.hash(h);
        }
    }
}

/// A 128-bit digest of any hashable value, as the games files' keys are
/// digested (two aHash passes with fixed, different keys: the same on
/// every run of one build): a game's key for [`Variety::of`] without
/// keeping the game.
pub fn digest_of<T: std::hash::Hash + ?Sized>(x: &T) -> u128 {
    let half = |k: u64| ahash::RandomState::with_seeds(k, k ^ 0x5e4a7, k.rotate_left(17), !k).hash_one(x);
    (half(0x5e4a_7d15_c0de_0001) as u128) << 64 | half(0x0d15_c0de_5e4a_7002) as u128
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_warns() {
        let one = Variety::of(["a"; 40]);
        assert_eq!(one, Variety { games: 40, distinct: 1 });
        let w = one.warning(true, "--book-plies K").unwrap();
        assert!(w.starts_with("all 40 games are one game repeated: the agents are deterministic"), "{w}");
        assert!(w.contains("temp=") && w.contains("--book-plies K"), "{w}");
        let few = Variety { games: 100, distinct: 89 };
        assert!(few.warning(false, "--book-plies K").unwrap().starts_with("only 89 of 100 games are distinct"));
        assert_eq!(Variety { games: 100, distinct: 90 }.warning(true, "x"), None);
        assert_eq!(Variety { games: 1, distinct: 1 }.warning(true, "x"), None);
        assert_eq!(Variety::of(["a", "b", "a"]).line(), "distinct games: 2 of 3 (66.7%)");
    }

    #[test]
    fn reads_a_games_file() {
        let dir = std::env::temp_dir().join(format!("senat-variety-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.csv");
        std::fs::write(&path, "# id line\ngame,moves,end\n0,a b,x\n1,a b,y\n2,a b,x\n").unwrap();
        assert_eq!(distinct_in_file(&path, &[1], false).unwrap(), Variety { games: 3, distinct: 1 });
        assert_eq!(distinct_in_file(&path, &[1], true).unwrap(), Variety { games: 3, distinct: 2 });
        let e = distinct_in_file(&dir.join("none.csv"), &[1], false).unwrap_err().to_string();
        assert!(e.starts_with("cannot count the distinct games of "), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
