//! The identity of a batch, written as the first line of every games and
//! moves file, so that `merge` can prove a set of shards is exactly one
//! complete batch and `--resume` that it continues the same batch:
//!
//! ```text
//! # senat-batch v2 game=senat variant=- seed=7 games=400 shard=2/3 range=133..266 red=greedy red_weights=- blue=random blue_weights=- draft_red=greedy draft_red_weights=- draft_blue=random draft_blue_weights=-
//! ```
//!
//! `v2` is the format version, the one every game's batch writes
//! (`game=` names the game, `variant=` its variant, `-` for the rules;
//! the fields after `range=` are the game's own). Files of format `v1`,
//! written before every game shared the line, have no `game=` field and
//! a `variant=` field after `range=` only where the variant is not the
//! rules; they are still read, resumed (under their own line) and merged
//! (into a `v2` file). A policy that reads a weights file
//! (`heuristic:file=PATH`, `learned:file=PATH`) has `*_weights=fnv1a64:<16 hex digits>`, the
//! FNV-1a hash of the file's bytes (of each file in order, when several),
//! so that a changed file is a different batch; `-` otherwise. A batch
//! whose games start with forced moves (`selfplay --opening FILE`) has a
//! last field `opening=<moves>`, the forced moves in move text separated by
//! blanks (so `g3%2017@M13=Sb` once escaped); without one the field is
//! absent, and the line is the one older versions wrote. A batch whose
//! games start with random plies (`selfplay --book-plies K`) has a last
//! field `book_plies=K`, absent when K is 0. Values are
//! percent-encoded where they hold `%`, blanks or control characters.
//! Readers skip the line as a comment (`#` never starts a row).
//!
//! The checks of a games row against its batch ([`check_row`]) live here
//! too: merge and resume share them.

use super::codec::RowError;
use super::{GAMES_HEADER, Shard, game_seed, parse_game_row};
use crate::policy::{PolicyKind, PolicySpec};
use crate::stats::{GameSummary, PairKey};
use senat_rules::dice::{Die, Side};
use senat_rules::game::EndReason;
use senat_rules::notation::parse_setup;
use senat_rules::position::Piles;
use senat_rules::variant::Variant;
use std::fmt;
use std::io::{self, BufRead, Read};
use std::path::PathBuf;

/// The format version written after `# senat-batch`.
pub const FORMAT: &str = game_lab::identity::BATCH_VERSION;

/// The keyword of a batch's identity line, Sénat's as every game's.
const KEYWORD: &str = game_lab::identity::BATCH_KEYWORD;

/// The format of an identity line: the one written now, or the older one
/// still read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// `# senat-batch v1`: no `game=`, `variant=` only for a variant.
    V1,
    /// `# senat-batch v2 game=senat variant=…`, the line of every game.
    #[default]
    V2,
}

impl Format {
    /// Its name after `# senat-batch`.
    pub fn name(self) -> &'static str {
        match self {
            Format::V1 => "v1",
            Format::V2 => "v2",
        }
    }
}

/// Why a policy's identity cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// A weights file cannot be read.
    Unreadable {
        /// The policy as named.
        policy: String,
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Unreadable { policy, path, message } => {
                write!(f, "policy `{policy}`: cannot read weights file {}: {message}", path.display())
            }
        }
    }
}

impl std::error::Error for WeightsError {}

/// Why a line is not a batch identity (the messages follow "bad batch identity: ").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IdentityError {
    /// It does not start with `# senat-batch`.
    NotIdentity,
    /// Another format version (`None`: none at all).
    Format(Option<String>),
    /// A token without `=`.
    NotKeyValue(String),
    /// A `%` not followed by two hex digits, in this value.
    BadEscape(String),
    /// A value whose unescaped bytes are not UTF-8.
    NotUtf8(String),
    /// A key that is missing.
    Missing(String),
    /// A value that should be a number.
    NotNumber {
        /// The key.
        key: String,
        /// Its value.
        value: String,
    },
    /// A shard value that is not `K/N`.
    Shard(String),
    /// A weights value that is neither `fnv1a64:<hex>` nor `-`.
    Weights {
        /// The key.
        key: String,
        /// Its value.
        value: String,
    },
    /// An opening that is not moves separated by single blanks.
    Opening,
    /// `games=0`.
    NoGames,
    /// `game=` that is not `senat` (another game's batch).
    Game(String),
    /// `variant=` that is not a Sénat variant.
    Variant {
        /// The value as written.
        value: String,
        /// Why it is refused.
        error: String,
    },
    /// Fields unknown, repeated, out of order, or a range that does not match.
    Fields,
    /// Not written as senat writes it (escapes, numbers).
    NotCanonical,
    /// The first line has no newline within 64 KiB.
    CutShort,
    /// The first line is not UTF-8.
    LineNotUtf8,
}

impl fmt::Display for IdentityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdentityError::NotIdentity => f.write_str("not a `# senat-batch` line"),
            IdentityError::Format(v) => {
                write!(
                    f,
                    "format {} is not v1 or {FORMAT}, the ones this senat reads",
                    v.as_deref().unwrap_or("(none)")
                )
            }
            IdentityError::NotKeyValue(t) => write!(f, "`{t}` is not key=value"),
            IdentityError::BadEscape(s) => write!(f, "bad escape in `{s}`"),
            IdentityError::NotUtf8(s) => write!(f, "`{s}` is not UTF-8 once unescaped"),
            IdentityError::Missing(key) => write!(f, "no {key}="),
            IdentityError::NotNumber { key, value } => write!(f, "{key}={value} is not a number"),
            IdentityError::Shard(text) => write!(f, "shard={text} is not K/N with 1 <= K <= N"),
            IdentityError::Weights { key, value } => write!(f, "{key}={value} is not fnv1a64:<hex> or -"),
            IdentityError::Opening => f.write_str("opening= must hold moves separated by single blanks"),
            IdentityError::NoGames => f.write_str("games=0"),
            IdentityError::Game(g) => write!(f, "game={g}: a batch of another game than senat"),
            IdentityError::Variant { value, error } => write!(f, "variant={value}: {error}"),
            IdentityError::Fields => {
                f.write_str("its fields are not those of a senat-batch identity (range must match games and shard)")
            }
            IdentityError::NotCanonical => f.write_str("it is not written as senat writes it (escapes, numbers)"),
            IdentityError::CutShort => f.write_str("its first line (the batch identity) is cut short or too long"),
            IdentityError::LineNotUtf8 => f.write_str("its first line is not UTF-8"),
        }
    }
}

impl std::error::Error for IdentityError {}

/// A policy as a batch records it: its name and the hash of its weights files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyId {
    /// The policy as named (`heuristic:file=w.txt`).
    pub name: String,
    /// FNV-1a of the weights files' bytes (each without its check line,
    /// [`crate::weights_file::without_check`]), if it reads any.
    pub weights: Option<u64>,
}

impl PolicyId {
    /// The identity of `spec`, reading its weights files (if any) to hash them.
    pub fn of(spec: &PolicySpec) -> Result<PolicyId, WeightsError> {
        let files = weight_files(spec);
        let shipped = shipped_weights(spec);
        if files.is_empty() && shipped.is_empty() {
            return Ok(PolicyId { name: spec.name.clone(), weights: None });
        }
        let mut h = crate::weights_file::Fnv::new();
        // Each file's bytes without its check line, which says nothing the
        // rest does not ([`crate::weights_file::Fnv::write_file`]): adding
        // one to a file keeps the batches that read it.
        for text in shipped {
            // The shipped network's text, as a file's bytes: a binary
            // shipping another network plays another batch.
            h.write_file(text.as_bytes());
        }
        for path in &files {
            let bytes = std::fs::read(path).map_err(|e| WeightsError::Unreadable {
                policy: spec.name.clone(),
                path: path.clone(),
                message: e.to_string(),
            })?;
            h.write_file(&bytes);
        }
        Ok(PolicyId { name: spec.name.clone(), weights: Some(h.0) })
    }

    fn weights_text(&self) -> String {
        game_lab::identity::hash_text(self.weights)
    }
}

/// The weights files a policy reads (`heuristic:...,file=PATH,...`), in
/// order (of both halves of a `DRAFT>PLAY` spec, the draft's first).
pub fn weight_files(spec: &PolicySpec) -> Vec<PathBuf> {
    if let Some(s) = &spec.split {
        let mut files = weight_files(&s.draft);
        files.extend(weight_files(&s.play));
        return files;
    }
    if !matches!(spec.kind, PolicyKind::Heuristic | PolicyKind::Learned | PolicyKind::Mcts | PolicyKind::AlphaBeta) {
        return Vec::new();
    }
    let params = spec.name.trim().split_once(':').map_or("", |(_, p)| p);
    params.split(',').filter_map(|item| item.trim().strip_prefix("file=")).map(PathBuf::from).collect()
}

/// The shipped weights a policy reads (`net=on`, `net=draft`, in either
/// half of a `DRAFT>PLAY` spec), as their files' texts, in order.
pub fn shipped_weights(spec: &PolicySpec) -> Vec<&'static str> {
    if let Some(s) = &spec.split {
        let mut texts = shipped_weights(&s.draft);
        texts.extend(shipped_weights(&s.play));
        return texts;
    }
    if !matches!(spec.kind, PolicyKind::Learned | PolicyKind::Mcts | PolicyKind::AlphaBeta) {
        return Vec::new();
    }
    let params = spec.name.trim().split_once(':').map_or("", |(_, p)| p);
    params
        .split(',')
        .filter_map(|item| match item.trim().replace(' ', "").as_str() {
            "net=on" => Some(crate::learned::SHIPPED_NET),
            "net=draft" => Some(crate::learned::SHIPPED_DRAFT),
            _ => None,
        })
        .collect()
}

/// The weights files of several policies, each once (the inputs that no
/// output may overwrite).
pub fn weight_inputs<'a>(specs: impl IntoIterator<Item = &'a PolicySpec>) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    for f in specs.into_iter().flat_map(weight_files) {
        if !files.contains(&f) {
            files.push(f);
        }
    }
    files
}

pub use game_lab::identity::{IdentityLine, LineError, escape, unescape};

impl From<LineError> for IdentityError {
    fn from(e: LineError) -> IdentityError {
        match e {
            LineError::NotIdentity => IdentityError::NotIdentity,
            LineError::NotKeyValue(t) => IdentityError::NotKeyValue(t),
            LineError::BadEscape(s) => IdentityError::BadEscape(s),
            LineError::NotUtf8(s) => IdentityError::NotUtf8(s),
        }
    }
}

/// What makes a batch: seed, size, the slice of it a file holds, and the players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The batch seed.
    pub seed: u64,
    /// Games in the whole batch.
    pub games: u64,
    /// The slice of the batch in this file.
    pub shard: Shard,
    /// Red, blue, red's draft, blue's draft.
    pub policies: [PolicyId; 4],
    /// The forced first moves of every game, in move text separated by
    /// single blanks (`None`: no forced moves).
    pub opening: Option<String>,
    /// Uniformly random plies at the start of every game (`--book-plies`;
    /// 0: none, and no `book_plies=` field, the line older versions wrote).
    pub book_plies: u32,
    /// The rules variant every game follows (`--variant`).
    pub variant: Variant,
    /// The format of the line (new batches: [`Format::V2`]; a resumed
    /// file keeps its own).
    pub format: Format,
}

const ROLES: [&str; 4] = ["red", "blue", "draft_red", "draft_blue"];

impl Identity {
    /// The key/value fields of the line, in order.
    pub fn fields(&self) -> Vec<(String, String)> {
        let r = self.shard.range(self.games);
        let mut f = Vec::new();
        if self.format == Format::V2 {
            f.push(("game".to_string(), "senat".to_string()));
            f.push(("variant".into(), if self.variant.is_rules() { "-".into() } else { self.variant.to_text() }));
        }
        f.extend([
            ("seed".to_string(), self.seed.to_string()),
            ("games".into(), self.games.to_string()),
            ("shard".into(), format!("{}/{}", self.shard.k, self.shard.n)),
            ("range".into(), format!("{}..{}", r.start, r.end)),
        ]);
        if self.format == Format::V1 && !self.variant.is_rules() {
            f.push(("variant".into(), self.variant.to_text()));
        }
        for (role, p) in ROLES.iter().zip(&self.policies) {
            f.push((role.to_string(), p.name.clone()));
            f.push((format!("{role}_weights"), p.weights_text()));
        }
        if let Some(o) = &self.opening {
            f.push(("opening".into(), o.clone()));
        }
        if self.book_plies > 0 {
            f.push(("book_plies".into(), self.book_plies.to_string()));
        }
        f
    }

    /// The identity line, with its newline.
    pub fn line(&self) -> String {
        IdentityLine::write(KEYWORD, self.format.name(), self.fields())
    }

    /// Reads an identity line (without or with its line ending).
    pub fn parse(line: &str) -> Result<Identity, IdentityError> {
        let line = line.trim_end_matches(['\n', '\r']);
        // The keyword and the version are judged before the fields.
        let mut head = line.split(' ');
        if head.next() != Some("#") || head.next() != Some(KEYWORD) {
            return Err(IdentityError::NotIdentity);
        }
        let format = match head.next() {
            Some("v1") => Format::V1,
            Some("v2") => Format::V2,
            v => return Err(IdentityError::Format(v.map(str::to_string))),
        };
        let values = IdentityLine::parse(line)?.fields;
        let get = |key: &str| -> Result<&str, IdentityError> {
            values
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
                .ok_or_else(|| IdentityError::Missing(key.into()))
        };
        let num = |key: &str| -> Result<u64, IdentityError> {
            let v = get(key)?;
            v.parse().map_err(|_| IdentityError::NotNumber { key: key.into(), value: v.into() })
        };
        let shard_text = get("shard")?;
        let shard = Shard::parse(shard_text).map_err(|_| IdentityError::Shard(shard_text.into()))?;
        if format == Format::V2 {
            match get("game")? {
                "senat" => {}
                g => return Err(IdentityError::Game(g.into())),
            }
        }
        let weights = |role: &str| -> Result<Option<u64>, IdentityError> {
            let key = format!("{role}_weights");
            match get(&key)? {
                "-" => Ok(None),
                v => v
                    .strip_prefix("fnv1a64:")
                    .and_then(|h| u64::from_str_radix(h, 16).ok())
                    .map(Some)
                    .ok_or_else(|| IdentityError::Weights { key: key.clone(), value: v.into() }),
            }
        };
        let policy = |role: &str| -> Result<PolicyId, IdentityError> {
            Ok(PolicyId { name: get(role)?.to_string(), weights: weights(role)? })
        };
        let id = Identity {
            seed: num("seed")?,
            games: num("games")?,
            shard,
            policies: [policy(ROLES[0])?, policy(ROLES[1])?, policy(ROLES[2])?, policy(ROLES[3])?],
            opening: get("opening").ok().map(str::to_string),
            book_plies: match get("book_plies") {
                Ok(v) => {
                    v.parse().map_err(|_| IdentityError::NotNumber { key: "book_plies".into(), value: v.into() })?
                }
                Err(_) => 0,
            },
            variant: match get("variant") {
                Ok("-") if format == Format::V2 => Variant::RULES,
                Ok(v) => {
                    Variant::parse(v).map_err(|e| IdentityError::Variant { value: v.into(), error: e.to_string() })?
                }
                Err(_) if format == Format::V1 => Variant::RULES,
                Err(e) => return Err(e),
            },
            format,
        };
        if id.opening.as_deref().is_some_and(|o| o.is_empty() || o.split(' ').any(str::is_empty)) {
            return Err(IdentityError::Opening);
        }
        if id.games == 0 {
            return Err(IdentityError::NoGames);
        }
        // Exactly the fields written, in order: nothing unknown, nothing repeated.
        let expect = id.fields();
        if values.len() != expect.len() || values.iter().zip(&expect).any(|((k, v), (ek, ev))| k != ek || v != ev) {
            return Err(IdentityError::Fields);
        }
        // Byte for byte as written (so that its length is known and shards compare as bytes).
        if id.line().trim_end_matches('\n') != line {
            return Err(IdentityError::NotCanonical);
        }
        Ok(id)
    }

    /// The first field in which `self` and `other` differ (`skip_shard`:
    /// ignoring shard and range), as (key, self's value, other's value).
    /// A batch without an opening differs from one with it in `opening`
    /// (its value then `-`).
    /// The line's format is not compared: a `v1` file and a `v2` file of
    /// the same batch are the same batch.
    pub fn difference(&self, other: &Identity, skip_shard: bool) -> Option<(String, String, String)> {
        let all = |id: &Identity| {
            let mut f = Identity { format: Format::V1, ..id.clone() }.fields();
            if id.variant.is_rules() {
                f.insert(4, ("variant".into(), "the rules".into()));
            }
            if id.opening.is_none() {
                f.insert(f.len() - (id.book_plies > 0) as usize, ("opening".into(), "-".into()));
            }
            if id.book_plies == 0 {
                f.push(("book_plies".into(), "0".into()));
            }
            f
        };
        all(self)
            .into_iter()
            .zip(all(other))
            .filter(|((k, _), _)| !(skip_shard && (k == "shard" || k == "range")))
            .find(|((_, a), (_, b))| a != b)
            .map(|((k, a), (_, b))| (k, a, b))
    }

    /// The summary key of the batch.
    pub fn key(&self) -> PairKey {
        PairKey {
            red: self.policies[0].name.clone(),
            blue: self.policies[1].name.clone(),
            draft_red: self.policies[2].name.clone(),
            draft_blue: self.policies[3].name.clone(),
        }
    }
}

/// Reads the identity line at the start of `r`, if there is one: `Ok(None)`
/// when the file does not start with `#` (left unread), an error when it
/// starts with `#` but is not an identity line. Reads at most 64 KiB.
pub fn read_identity<R: BufRead>(r: &mut R) -> io::Result<Option<Result<Identity, IdentityError>>> {
    if !r.fill_buf()?.starts_with(b"#") {
        return Ok(None);
    }
    let mut line = Vec::new();
    Read::take(&mut *r, 1 << 16).read_until(b'\n', &mut line)?;
    if !line.ends_with(b"\n") {
        return Ok(Some(Err(IdentityError::CutShort)));
    }
    Ok(Some(match std::str::from_utf8(&line) {
        Ok(s) => Identity::parse(s),
        Err(_) => Err(IdentityError::LineNotUtf8),
    }))
}

/// The message for a games or moves file without an identity line.
pub const NO_IDENTITY: &str = "no batch identity line: written by an older senat, or not a senat selfplay file; \
     play the batch again with this senat";

/// Dice that can leave showing white (all but dice 1 and 2).
fn white_capacity() -> u8 {
    Die::all().filter(|d| !d.whitened().is_empty()).count() as u8
}

/// Checks a games row against its batch: it is game `expected` of `id`
/// (index, seeds, policies), and its content is possible: the winner
/// agrees with the piles and the reason, each pile holds no more than it
/// can, the move counts match the move lists, and the final SPN parses,
/// validates and has the row's piles. Returns the summary record.
pub fn check_row(r: &csv::StringRecord, id: &Identity, expected: u64) -> Result<(PairKey, GameSummary), RowError> {
    let (i, seed, key, g) = parse_game_row(r)?;
    if g.swapped.is_some() != id.variant.swap {
        return Err(RowError::SwapColumn { swap: id.variant.swap });
    }
    let range = id.shard.range(id.games);
    if expected >= range.end {
        return Err(RowError::BeyondRange { game: i, range });
    }
    if i != expected {
        return Err(RowError::OutOfOrder { game: i, expected, range });
    }
    if seed != id.seed {
        return Err(RowError::Seed { seed, batch: id.seed });
    }
    let gs: u64 = r[2].parse().map_err(|_| RowError::NotNumber { column: GAMES_HEADER[2], text: r[2].into() })?;
    if gs != game_seed(seed, i) {
        return Err(RowError::GameSeed { got: gs, seed, game: i });
    }
    if key != id.key() {
        return Err(RowError::Policies { row: key.label(), batch: id.key().label() });
    }
    let pile = |c: usize, max: u8| -> Result<u8, RowError> {
        r[c].parse::<u8>().ok().filter(|&n| n <= max).ok_or_else(|| RowError::Pile {
            column: GAMES_HEADER[c],
            text: r[c].into(),
            max,
        })
    };
    let v = id.variant;
    let piles = Piles {
        red: pile(9, v.majority_of(Side::Red))?,
        blue: pile(10, v.majority_of(Side::Blue))?,
        white: pile(11, white_capacity())?,
    };
    let majority = v.majority_winner(piles);
    let expected_winner = if g.reason == EndReason::Majority {
        majority.ok_or(RowError::NoMajority).map(Some)?
    } else {
        if majority.is_some() {
            return Err(RowError::UnexpectedMajority(g.reason));
        }
        v.count_piles(piles)
    };
    if g.winner != expected_winner {
        return Err(RowError::WinnerMismatch {
            winner: g.winner,
            piles: [piles.red, piles.blue, piles.white],
            reason: g.reason,
        });
    }
    if let Some(opening) = &id.opening {
        let mut moves = r[14].split(' ').chain(r[15].split(' ')).filter(|m| !m.is_empty());
        if !opening.split(' ').all(|m| moves.next() == Some(m)) {
            return Err(RowError::Opening(opening.clone()));
        }
    }
    let words = |c: usize| if r[c].is_empty() { 0 } else { r[c].split(' ').count() as u64 };
    if words(15) != g.play_len as u64 {
        return Err(RowError::PlayCount { count: g.play_len, moves: words(15) });
    }
    if g.legal_sum < g.play_len as u64 {
        return Err(RowError::LegalSum { sum: g.legal_sum, count: g.play_len });
    }
    let spn = &r[16];
    let setup = parse_setup(spn).map_err(RowError::SpnParse)?;
    let p = setup.validate_in(id.variant).map_err(RowError::SpnPosition)?;
    if p.piles() != piles {
        let q = p.piles();
        return Err(RowError::SpnPiles { spn: [q.red, q.blue, q.white], row: [piles.red, piles.blue, piles.white] });
    }
    // The winner is a colour; its agent is the seat's ([`GameSummary::winning_seat`]).
    if let Some(row) = g.swapped
        && row != p.swapped()
    {
        return Err(RowError::SwappedMismatch { row });
    }
    Ok((key, g))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(name: &str) -> Identity {
        let p = |n: &str| PolicyId { name: n.into(), weights: None };
        Identity {
            seed: 7,
            games: 100,
            shard: Shard { k: 2, n: 3 },
            policies: [
                p(name),
                PolicyId { name: "heuristic:file=w.txt".into(), weights: Some(0xabc) },
                p("random"),
                p("x"),
            ],
            opening: None,
            book_plies: 0,
            variant: Variant::RULES,
            format: Format::V2,
        }
    }

    #[test]
    fn a_learned_weights_file_is_hashed_as_a_heuristic_one() {
        let dir = std::env::temp_dir().join(format!("senat-identity-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.txt");
        std::fs::write(&path, crate::learned::Learned::builtin().to_text("# weights")).unwrap();
        let spec = PolicySpec::parse(&format!("learned:file={}", path.display())).unwrap();
        assert_eq!(weight_files(&spec), vec![path.clone()]);
        let first = PolicyId::of(&spec).unwrap().weights;
        assert!(first.is_some());
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("# one more comment\n");
        std::fs::write(&path, text).unwrap();
        let second =
            PolicyId::of(&PolicySpec::parse(&format!("learned:file={}", path.display())).unwrap()).unwrap().weights;
        std::fs::remove_dir_all(&dir).ok();
        assert_ne!(first, second, "a changed file is another batch");
        assert_eq!(PolicyId::of(&PolicySpec::parse("learned").unwrap()).unwrap().weights, None);
    }

    /// `net=on` hashes the shipped network's text, in either half of a
    /// split spec; `net=off` reads nothing.
    #[test]
    fn the_shipped_network_is_hashed_as_a_file() {
        let id = |s: &str| PolicyId::of(&PolicySpec::parse(s).unwrap()).unwrap().weights;
        let on = id("mcts:rollout=eval,net=on");
        assert!(on.is_some());
        assert_eq!(id("learned:net=on"), on, "the same text");
        assert_eq!(id("random>ab:depth=1,net=on"), on);
        assert_eq!(id("mcts:rollout=eval,net=off"), None);
        assert_eq!(id("learned"), None);
        let draft = id("learned:net=draft");
        assert!(draft.is_some());
        assert_ne!(draft, on, "another text, another batch");
        assert_eq!(id("ab:depth=1,net=draft"), draft);
        // The hashes of the files before they had a check line: adding it
        // changed no batch (the identity leaves it out).
        assert!(crate::learned::SHIPPED_NET.contains("\ncheck=rows:"));
        assert_eq!(on, Some(0x9f7d_36a2_ecfc_f9cc));
        assert_eq!(draft, Some(0x47af_bda6_d236_8eb3));
    }

    #[test]
    fn the_line_reads_back() {
        for name in ["greedy", "heuristic:pile=1, exposed=2", "a%b\tc", "é=1"] {
            let a = id(name);
            let line = a.line();
            assert_eq!(line.lines().count(), 1, "{line}");
            assert_eq!(Identity::parse(&line), Ok(a), "{line}");
        }
        let line = id("greedy").line();
        assert!(line.starts_with(
            "# senat-batch v2 game=senat variant=- seed=7 games=100 shard=2/3 range=33..66 red=greedy red_weights=- "
        ));
        assert!(line.contains(" blue_weights=fnv1a64:0000000000000abc "), "{line}");
    }

    #[test]
    fn v1_lines_read_back_as_the_same_batch() {
        let v1 = "# senat-batch v1 seed=7 games=100 shard=2/3 range=33..66 red=greedy red_weights=- \
                  blue=heuristic:file=w.txt blue_weights=fnv1a64:0000000000000abc draft_red=random \
                  draft_red_weights=- draft_blue=x draft_blue_weights=-\n";
        let old = Identity::parse(v1).unwrap();
        assert_eq!(old.format, Format::V1);
        assert_eq!(old.line(), v1, "a v1 identity writes its own line back");
        assert_eq!(old.difference(&id("greedy"), false), None, "v1 and v2 of one batch are one batch");
        assert_eq!(Identity { format: Format::V2, ..old.clone() }, id("greedy"));
        // A variant: after range= in v1, after game= in v2.
        let variant = Variant::parse("closure=30").unwrap();
        let v1 = Identity { variant, format: Format::V1, ..id("greedy") }.line();
        let v2 = Identity { variant, ..id("greedy") }.line();
        assert!(v1.contains(" range=33..66 variant=closure=30 red="), "{v1}");
        assert!(v2.starts_with("# senat-batch v2 game=senat variant=closure=30 seed=7 "), "{v2}");
        assert_eq!(Identity::parse(&v1).unwrap().difference(&Identity::parse(&v2).unwrap(), false), None);
        // v2 requires game= and variant=; v1 has neither game= nor variant=-.
        for (bad, want) in [
            (v2.replace(" game=senat", ""), "no game="),
            (v2.replace("game=senat", "game=focus"), "game=focus: a batch of another game"),
            (v2.replace(" variant=closure=30", ""), "no variant="),
            (v1.replace(" v1 ", " v2 "), "no game="),
        ] {
            let err = Identity::parse(&bad).unwrap_err().to_string();
            assert!(err.contains(want), "{bad}: {err}");
        }
    }

    #[test]
    fn bad_lines_are_refused() {
        let line = id("greedy").line();
        for (bad, want) in [
            (line.replace(" v2 ", " v3 "), "format v3"),
            (line.replace(" range=33..66", " range=0..66"), "range must match"),
            (line.replace(" seed=7", ""), "no seed="),
            (line.replace(" games=100", " games=x"), "not a number"),
            (line.replace("\n", " extra=1\n"), "not those of a senat-batch identity"),
            (line.replace("shard=2/3", "shard=4/3"), "shard=4/3"),
            ("game,seed\n".to_string(), "not a `# senat-batch` line"),
            (line.replace("seed=7", "seed=07"), "not those of a senat-batch identity"),
            (id("a\u{7f}").line().replace("%7F", "%7f"), "not written as senat writes it"),
        ] {
            let err = Identity::parse(&bad).unwrap_err().to_string();
            assert!(err.contains(want), "{bad}: {err}");
        }
    }

    #[test]
    fn the_opening_is_a_last_optional_field() {
        let plain = id("greedy");
        let mut forced = id("greedy");
        forced.opening = Some("g3 3@S1=Tw".into());
        let line = forced.line();
        assert_eq!(line, plain.line().replace('\n', " opening=g3%203@S1=Tw\n"));
        assert_eq!(Identity::parse(&line), Ok(forced.clone()));
        assert_eq!(forced.difference(&plain, true), Some(("opening".into(), "g3 3@S1=Tw".into(), "-".into())));
        assert_eq!(plain.difference(&forced, false).map(|d| d.0), Some("opening".into()));
        for bad in [" opening=\n", " opening=g3%20%20g4\n"] {
            let err = Identity::parse(&plain.line().replace('\n', bad)).unwrap_err().to_string();
            assert!(err.contains("opening="), "{bad}: {err}");
        }
    }

    #[test]
    fn differences_name_the_field() {
        let (a, mut b) = (id("greedy"), id("greedy"));
        assert_eq!(a.difference(&b, false), None);
        b.shard = Shard { k: 1, n: 3 };
        assert_eq!(a.difference(&b, true), None);
        assert_eq!(a.difference(&b, false), Some(("shard".into(), "2/3".into(), "1/3".into())));
        b.policies[1].weights = Some(1);
        let (key, _, other) = a.difference(&b, true).unwrap();
        assert_eq!((key.as_str(), other.as_str()), ("blue_weights", "fnv1a64:0000000000000001"));
    }
}
