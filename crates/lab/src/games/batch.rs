//! Self-play batches of any [`BatchGame`] (every [`LabGame`], and
//! dominoes), with Sénat's conventions: one CSV row per game, a summary
//! with Wilson intervals, shards `K/N`, `--resume` and a merge that proves
//! its inputs are one complete batch.
//!
//! Every games and moves file starts with the batch's identity line
//! (`# senat-batch v2 game=… variant=… seed=… games=… shard=… range=… book=…
//! first=… second=…`, the line of every game; files written before it
//! start `# game-batch 1` with the same fields, and are still resumed under
//! their own line and merged); rows are numbered by game index, so a resumed run continues
//! exactly where the shorter of its files stops, and a merge refuses mixed,
//! missing, repeated or cut shards. Game `i` draws all its randomness from
//! [`game_seed`]`(seed, i)`, so a game is the same whatever the threads,
//! the shard or the resume; under `--rotate` (dominoes) its deal comes from
//! the seed of its deal's first game instead ([`GameSeeds`]), still a
//! function of the seed and the index.
//!
//! What this module must never do: know the rules of a game (it goes
//! through [`BatchGame`]), overwrite a file it was not allowed to, or write
//! an output anywhere but through [`OutFile`] (temporary file, then rename).

use super::agent::{AgentSpec, play};
use super::{GameKind, LabGame};
use crate::identity::{BATCH_KEYWORD, BATCH_VERSION, IdentityLine, LineError, hash_text};
use crate::selfplay::output::{OutFile, csv_record};
use crate::selfplay::{Error, Existing, Shard, game_seed, io_err};
use crate::stats::{LossTally, wilson};
use game_search::rng::rng_from_seed;
use std::fmt;
use std::io::{Read, Seek, SeekFrom};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// The keyword and version of the line written before every game shared
/// one (same fields).
const LEGACY: (&str, &str) = ("game-batch", "1");

/// Whether `line` is an identity line of this module's: `# senat-batch
/// v2` or the older `# game-batch 1`.
fn is_ours(line: &IdentityLine) -> bool {
    line.is(BATCH_KEYWORD, BATCH_VERSION) || line.is(LEGACY.0, LEGACY.1)
}

/// An agent as a batch's identity line names it: its text, and the hash
/// of the weights file it reads, so that a batch whose file changed is
/// another batch (`--resume` and `merge` then refuse to mix them).
pub trait BatchSpec: fmt::Display {
    /// The hash of the weights file the agent reads (`file=`,
    /// [`super::learn::GameWeights::hash`]), `None` where it reads none or
    /// its game does not record one.
    fn weights_hash(&self) -> Option<u64> {
        None
    }
}

impl BatchSpec for AgentSpec {
    fn weights_hash(&self) -> Option<u64> {
        self.weights().and_then(|w| w.hash)
    }
}

/// The arenas' field of their agents' weights hashes, in the order of
/// `agents=` and separated like it (` weights=fnv1a64:…;-`), or nothing
/// where no agent reads a weights file (so other arenas' lines are
/// unchanged).
pub fn arena_weights<S: BatchSpec>(agents: &[S]) -> String {
    let hashes: Vec<Option<u64>> = agents.iter().map(BatchSpec::weights_hash).collect();
    if hashes.iter().all(Option::is_none) {
        return String::new();
    }
    format!(" weights={}", hashes.into_iter().map(hash_text).collect::<Vec<_>>().join(";"))
}

/// The identity keys of the agents' weights hashes, after `second=`,
/// written only where an agent reads a weights file (`fnv1a64:<hex>`, or
/// `-` for the other agent), so that the lines of other batches are those
/// written before the keys existed.
const WEIGHTS_KEYS: [&str; 2] = ["first_weights", "second_weights"];

/// What the batch runner needs from a game: its start, one game played
/// into a row, and a check of a row's final text. Every [`LabGame`] is
/// one (agents by [`AgentSpec`]); dominoes is one in [`crate::games::dominoes`].
pub trait BatchGame {
    /// How the batch's agents are named.
    type Spec: BatchSpec + Clone + Send + Sync;
    /// What every game of the batch starts from (read once per batch).
    type Start: Copy + Send + Sync;
    /// The start of a batch of `variant` (the full variant text).
    fn batch_start(variant: &str) -> Result<Self::Start, String>;
    /// Names of the game's own columns of a games file, between `plies`
    /// and `final`.
    fn batch_columns() -> &'static [&'static str];
    /// The columns of a side file (several rows per game, each starting
    /// with the game index: dominoes' rounds), `None` where there is none.
    fn side_columns() -> Option<&'static [&'static str]> {
        None
    }
    /// The seat rotations of one deal under `--rotate` (dominoes: one per
    /// player), `None` for a game without a deal to rotate (every game but
    /// dominoes), which refuses `--rotate`.
    fn rotations(_start: &Self::Start) -> Option<u64> {
        None
    }
    /// Whether a batch between `agents` records value losses (an agent
    /// draws value-bounded choices, `vary=`): its games file then has the
    /// [`VARY_COLUMNS`] and [`GameRecord::vary_loss`] is given. None do by
    /// default.
    fn varies(_agents: &[Self::Spec; 2]) -> bool {
        false
    }
    /// A game of the batch with `seeds` between `agents` (team 0's, then
    /// team 1's), after `book` random plies; its moves and side rows only
    /// where asked.
    fn play_row(
        start: &Self::Start,
        agents: &[Self::Spec; 2],
        book: u32,
        seeds: GameSeeds,
        with_moves: bool,
        with_side: bool,
    ) -> GameRecord;
    /// Checks a row's final text against the batch's `variant` and the
    /// row's own columns (`extra`); returns the final position's winning
    /// team (`None`: a draw) and the plies a game ending there can have
    /// (one number where the position counts them), which the one row
    /// check (`check_row`) compares with the row's, and whether a
    /// safeguard stopped the game (the summary's `capped`).
    fn final_winner(text: &str, variant: &str, extra: &[&str]) -> Result<FinalRow, String>;
}

/// What a row's final position says of its game: the winning team
/// (`None`: a draw), the plies a game ending there can have, and whether
/// it ended at the ply cap ([`LabGame::capped`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalRow {
    /// The winning team, `None` for a draw.
    pub winner: Option<usize>,
    /// The plies a game ending there can have.
    pub plies: RangeInclusive<u32>,
    /// Whether the game ended at the ply cap.
    pub capped: bool,
}

/// Where a game of a batch draws its randomness from, all of it derived
/// from the batch seed and the game's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSeeds {
    /// The game's own seed, [`game_seed`]`(seed, index)` (the games file's
    /// `game_seed`): all the game's randomness, but for its deal under `--rotate`.
    pub game: u64,
    /// The seed of the game's deals (dominoes' hands and boneyard): its own
    /// seed, or under `--rotate` the own seed of its deal's rotation 0,
    /// `game_seed(seed, index − rotation)`.
    pub deal: u64,
    /// How far the deal's hands are rotated among the seats: `index mod
    /// rotations` under `--rotate`, otherwise 0.
    pub rotation: usize,
}

impl GameSeeds {
    /// The seeds of game `index` of a batch with seed `seed`; `rotations`:
    /// the rotations of one deal under `--rotate` (game `index` is then
    /// rotation `index mod rotations` of deal `index div rotations`), `None`
    /// without.
    pub fn of(seed: u64, index: u64, rotations: Option<u64>) -> GameSeeds {
        let game = game_seed(seed, index);
        match rotations {
            Some(n) if n > 1 => {
                let k = index % n;
                GameSeeds { game, deal: game_seed(seed, index - k), rotation: k as usize }
            }
            _ => GameSeeds { game, deal: game, rotation: 0 },
        }
    }
}

/// One game as [`BatchGame::play_row`] returns it.
#[derive(Clone, Debug, Default)]
pub struct GameRecord {
    /// The winning team (`None`: a draw).
    pub winner: Option<usize>,
    /// Decisions played.
    pub plies: u32,
    /// Whether the game ended at the ply cap ([`LabGame::capped`]).
    pub capped: bool,
    /// The values of [`BatchGame::batch_columns`].
    pub extra: Vec<String>,
    /// The final position's text.
    pub final_text: String,
    /// The moves' texts (empty unless asked).
    pub moves: Vec<String>,
    /// The side rows, each without the game index (empty unless asked).
    pub side: Vec<Vec<String>>,
    /// Each team's summed value loss of its value-bounded draws, in
    /// millionths ([`crate::stats::loss_micros`]), team 0's first; `None`
    /// where the batch records none ([`BatchGame::varies`]).
    pub vary_loss: Option<[u64; 2]>,
}

/// A lab game whose batches are the lab's as they are (agents by
/// [`AgentSpec`], rows from its texts and [`LabGame::extra`] columns): one
/// line, `impl LabBatch for MyGame {}`, which `lab_face!`
/// writes. A lab game that wants other rows implements [`BatchGame`] instead.
pub trait LabBatch: LabGame {}

impl<G: LabBatch> BatchGame for G {
    type Spec = AgentSpec;
    type Start = G::State;

    fn batch_start(variant: &str) -> Result<G::State, String> {
        G::start(variant).map_err(|e| e.to_string())
    }
    fn batch_columns() -> &'static [&'static str] {
        G::extra_columns()
    }
    fn varies(agents: &[AgentSpec; 2]) -> bool {
        agents.iter().any(AgentSpec::varies)
    }
    fn play_row(
        start: &G::State,
        agents: &[AgentSpec; 2],
        book: u32,
        seeds: GameSeeds,
        with_moves: bool,
        _with_side: bool,
    ) -> GameRecord {
        let mut rng = rng_from_seed(seeds.game);
        let mut built = [agents[0].build::<G>(), agents[1].build::<G>()];
        let (from, book) = opening::<G>(*start, book, &mut rng);
        let mut p = play::<G>(from, &mut built, &mut rng, with_moves);
        let plies = p.plies + book.len() as u32;
        let mut all = book;
        all.append(&mut p.moves);
        GameRecord {
            winner: p.winner,
            plies,
            capped: G::capped(&p.end),
            extra: G::extra(&p.end),
            final_text: G::position_text(&p.end),
            moves: if with_moves { all.iter().map(|&m| G::move_text(m)).collect() } else { Vec::new() },
            side: Vec::new(),
            vary_loss: Self::varies(agents).then(|| p.vary_loss.map(crate::stats::loss_micros)),
        }
    }
    fn final_winner(text: &str, variant: &str, extra: &[&str]) -> Result<FinalRow, String> {
        let end = G::parse_position(text).map_err(|e| format!("final position: {e}"))?;
        if G::variant_text(&end) != variant {
            return Err(format!(
                "the final position's variant `{}` is not the batch's `{variant}`",
                G::variant_text(&end)
            ));
        }
        let Some(r) = G::result(&end) else { return Err("the final position is not over".into()) };
        if G::extra(&end).iter().zip(extra).any(|(a, b)| a != b) {
            return Err(format!("the columns {} do not match the final position", G::extra_columns().join(", ")));
        }
        Ok(FinalRow {
            winner: super::winner::<G>(&end, &r),
            plies: G::ply(&end)..=G::ply(&end),
            capped: G::capped(&end),
        })
    }
}

/// A batch: which game, which games, between whom.
#[derive(Clone, Debug)]
pub struct Batch<S = AgentSpec> {
    /// The game.
    pub game: GameKind,
    /// The full variant text (the game's own options and the user's).
    pub variant: String,
    /// The batch seed.
    pub seed: u64,
    /// Games in the whole batch.
    pub games: u64,
    /// The slice played here.
    pub shard: Shard,
    /// Uniformly random plies at the start of every game (0: none), drawn
    /// from the game's own generator: varied games for agents that draw no
    /// randomness (alpha-beta, MCTS with `cut=0`), which would otherwise
    /// play one game over and over.
    pub book: u32,
    /// The agents of team 0 (the first player's) and team 1.
    pub agents: [S; 2],
    /// Each deal played once per seat rotation (`--rotate`, dominoes only:
    /// [`BatchGame::rotations`] games in a row, [`GameSeeds::of`]); written
    /// in the identity line as `rotate=true`, absent without.
    pub rotate: bool,
}

/// Where a batch writes.
#[derive(Clone, Debug)]
pub struct Outputs {
    /// One row per game.
    pub games: PathBuf,
    /// One row per game with its moves, if wanted.
    pub moves: Option<PathBuf>,
    /// The game's side file ([`BatchGame::side_columns`]), if wanted.
    pub side: Option<PathBuf>,
    /// The summary CSV, if wanted.
    pub summary: Option<PathBuf>,
    /// What to do with existing files.
    pub existing: Existing,
}

/// Win, draw and length counts of a set of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Games won by team 0 (the first player's).
    pub first: u64,
    /// Games won by team 1.
    pub second: u64,
    /// Draws.
    pub draws: u64,
    /// Sum of the plies.
    pub plies: u64,
    /// Games ended at the ply cap ([`LabGame::capped`]), not by a rule.
    pub capped: u64,
    /// The longest game.
    pub max_plies: u32,
    /// The value losses of the games that record them ([`VARY_COLUMNS`]):
    /// the first team's, the second's, both.
    pub loss: LossTally,
}

impl Tally {
    /// Counts one game, with its teams' value losses where recorded.
    pub fn add(&mut self, winner: Option<usize>, plies: u32, capped: bool, loss: Option<[u64; 2]>) {
        self.games += 1;
        if let Some(l) = loss {
            self.loss.add(l);
        }
        self.capped += u64::from(capped);
        match winner {
            Some(0) => self.first += 1,
            Some(_) => self.second += 1,
            None => self.draws += 1,
        }
        self.plies += u64::from(plies);
        self.max_plies = self.max_plies.max(plies);
    }

    /// Adds the counts of `other`.
    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.first += other.first;
        self.second += other.second;
        self.draws += other.draws;
        self.capped += other.capped;
        self.plies += other.plies;
        self.max_plies = self.max_plies.max(other.max_plies);
        self.loss.merge(&other.loss);
    }

    /// The first team's mean points (a draw is half).
    pub fn first_score(&self) -> f64 {
        (self.first as f64 + self.draws as f64 / 2.0) / self.games.max(1) as f64
    }
}

/// What a finished batch reports.
#[derive(Clone, Debug)]
pub struct Report {
    /// All games of the output (resumed ones included).
    pub tally: Tally,
    /// Games played by this run.
    pub played: u64,
    /// Games found already in the file.
    pub resumed: u64,
    /// Seconds spent playing and writing.
    pub seconds: f64,
}

/// The columns of a games file, before the game's own.
/// `game_seed` is the game's own seed ([`game_seed`] of the batch seed and
/// the index), as in Sénat's games files; files written before it was named
/// so call it `seed` ([`LEGACY_GAMES_COLUMNS`]) and are still resumed and
/// merged.
pub const GAMES_COLUMNS: [&str; 6] = ["game", "game_seed", "first", "second", "winner", "plies"];

/// The first columns of games files written before `game_seed` had its name.
pub const LEGACY_GAMES_COLUMNS: [&str; 6] = ["game", "seed", "first", "second", "winner", "plies"];

/// The columns of a batch that records value losses ([`BatchGame::varies`]),
/// after the game's own and before `final`: each team's summed value loss
/// of its value-bounded draws (`vary=`), in score units with six decimals.
pub const VARY_COLUMNS: [&str; 2] = ["first_vary_loss", "second_vary_loss"];

/// The columns a summary adds after [`SUMMARY_HEADER`] for a batch that
/// records value losses: each team's mean loss per game and both teams'
/// together, each with its 95% interval (normal: mean ± 1.96 sd/√n).
pub const VARY_SUMMARY_COLUMNS: [&str; 9] = [
    "vary_loss_first_mean",
    "vary_loss_first_lo",
    "vary_loss_first_hi",
    "vary_loss_second_mean",
    "vary_loss_second_lo",
    "vary_loss_second_hi",
    "vary_loss_game_mean",
    "vary_loss_game_lo",
    "vary_loss_game_hi",
];

/// The teams of [`Tally::loss`] as the report names them.
pub const LOSS_TEAMS: [&str; 3] = ["first", "second", "game"];

/// The columns of a summary; `capped` counts the games ended at the ply
/// cap ([`LabGame::capped`]), which are draws of the safeguard, not of the
/// rules.
pub const SUMMARY_HEADER: [&str; 18] = [
    "game",
    "variant",
    "first",
    "second",
    "games",
    "first_wins",
    "second_wins",
    "draws",
    "first_win_rate",
    "first_win_lo",
    "first_win_hi",
    "second_win_lo",
    "second_win_hi",
    "draw_lo",
    "draw_hi",
    "first_score",
    "mean_plies",
    "capped",
];

impl<S: BatchSpec> Batch<S> {
    /// The identity line (with its newline); `rotate=true` at its end under
    /// `--rotate` only, so that the lines of unrotated batches are those
    /// written before the option existed.
    pub fn identity(&self) -> String {
        let r = self.shard.range(self.games);
        let mut fields = vec![
            ("game", self.game.to_string()),
            ("variant", if self.variant.is_empty() { "-".to_string() } else { self.variant.clone() }),
            ("seed", self.seed.to_string()),
            ("games", self.games.to_string()),
            ("shard", format!("{}/{}", self.shard.k, self.shard.n)),
            ("range", format!("{}..{}", r.start, r.end)),
            ("book", self.book.to_string()),
            ("first", self.agents[0].to_string()),
            ("second", self.agents[1].to_string()),
        ];
        let hashes = self.agents.each_ref().map(|a| a.weights_hash());
        if hashes.iter().any(Option::is_some) {
            fields.extend(WEIGHTS_KEYS.into_iter().zip(hashes.map(hash_text)));
        }
        if self.rotate {
            fields.push(("rotate", "true".to_string()));
        }
        write_line(fields)
    }
}

/// The identity line of this module's format with these fields.
fn write_line<K: AsRef<str>, V: AsRef<str>>(fields: impl IntoIterator<Item = (K, V)>) -> String {
    IdentityLine::write(BATCH_KEYWORD, BATCH_VERSION, fields)
}

/// The keys of an identity line, in order (then [`WEIGHTS_KEYS`] where an
/// agent reads a weights file, then `rotate` only under `--rotate`).
const IDENTITY_KEYS: [&str; 9] = ["game", "variant", "seed", "games", "shard", "range", "book", "first", "second"];

/// The first field in which two identity lines differ, as (key, first's
/// value, second's value); a field only one of them has (`rotate`) counts
/// as `false` in the other. `skip`: keys not compared (a shard's own).
fn first_difference(a: &[(String, String)], b: &[(String, String)], skip: &[&str]) -> Option<(String, String, String)> {
    let value = |f: &[(String, String)], k: &str| {
        f.iter().find(|(key, _)| key == k).map_or_else(|| "false".to_string(), |(_, v)| v.clone())
    };
    let mut keys: Vec<&str> = a.iter().map(|(k, _)| k.as_str()).collect();
    keys.extend(b.iter().map(|(k, _)| k.as_str()).filter(|k| !a.iter().any(|(x, _)| x == k)));
    keys.into_iter()
        .filter(|k| !skip.contains(k))
        .map(|k| (k.to_string(), value(a, k), value(b, k)))
        .find(|(_, x, y)| x != y)
}

/// The fields of an identity line, checked to be one this module writes.
pub fn parse_identity(line: &str) -> Result<Vec<(String, String)>, String> {
    let not_ours = "not a `# senat-batch v2` identity line";
    let words = IdentityLine::parse(line).map_err(|e| match e {
        LineError::NotIdentity => not_ours.to_string(),
        e => e.to_string(),
    })?;
    if !is_ours(&words) {
        return Err(not_ours.into());
    }
    let fields = words.fields;
    let keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
    let unexpected = || format!("unexpected fields {keys:?}");
    if keys.len() < IDENTITY_KEYS.len() || keys[..IDENTITY_KEYS.len()] != IDENTITY_KEYS {
        return Err(unexpected());
    }
    // Then the weights hashes where an agent reads a file, then `rotate`.
    let mut at = IDENTITY_KEYS.len();
    if keys[at..].starts_with(&WEIGHTS_KEYS) {
        for (k, v) in &fields[at..at + 2] {
            let hex = v.strip_prefix("fnv1a64:").filter(|h| h.len() == 16 && u64::from_str_radix(h, 16).is_ok());
            if v != "-" && hex.is_none() {
                return Err(format!("{k}=`{v}` (written as fnv1a64:<16 hex digits> or -)"));
            }
        }
        at += 2;
    }
    match &fields[at..] {
        [] => {}
        [(k, v)] if k == "rotate" => {
            if v != "true" {
                return Err(format!("rotate=`{v}` (written only as rotate=true)"));
            }
        }
        _ => return Err(unexpected()),
    }
    Ok(fields)
}

/// The files of a batch: their rows and how a resume reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileKind {
    /// One row per game, checked against the rules.
    Games,
    /// One row per game: its moves.
    Moves,
    /// Rows of the game's side file: any number per game, in game order.
    Side,
}

/// The header line of a games file with these own columns (`legacy`: the
/// header of files written before `game_seed` had its name; `varies`: with
/// the [`VARY_COLUMNS`]).
fn games_header(extra: &[&str], legacy: bool, varies: bool) -> String {
    let mut cols: Vec<&str> = if legacy { LEGACY_GAMES_COLUMNS.to_vec() } else { GAMES_COLUMNS.to_vec() };
    cols.extend_from_slice(extra);
    if varies {
        cols.extend_from_slice(&VARY_COLUMNS);
    }
    cols.push("final");
    cols.join(",") + "\n"
}

/// The game named by the identity line of a games file (to choose the
/// adapter that checks its rows).
pub fn game_of(path: &Path) -> Result<GameKind, Error> {
    let fields = identity_of(path)?;
    GameKind::parse(&fields[0].1).map_err(|e| Error::Identity { path: path.to_path_buf(), message: e.to_string() })
}

/// The fields of the identity line of a batch file (games or moves), in
/// their order: `game`, `variant` (`-` for none), `seed`, `games`,
/// `shard`, `range`, `book`, `first`, `second` (the agents of team 0 and
/// team 1), then `rotate` (`true`) for a batch of rotated deals only,
/// their values unescaped.
pub fn identity_of(path: &Path) -> Result<Vec<(String, String)>, Error> {
    use std::io::BufRead;
    let f = std::fs::File::open(path).map_err(|e| io_err("read", path, e))?;
    let mut line = Vec::new();
    std::io::BufReader::new(f).take(1 << 16).read_until(b'\n', &mut line).map_err(|e| io_err("read", path, e))?;
    let ident = |message: String| Error::Identity { path: path.to_path_buf(), message };
    let line = std::str::from_utf8(&line).map_err(|_| ident("the identity line is not UTF-8".into()))?;
    let line = line.trim_end_matches(['\n', '\r']);
    parse_identity(&format!("{line}\n")).map_err(|e| ident(format!("bad batch identity: {e}")))
}

/// The game of a batch file (games or moves, of any game: Sénat's `v1`
/// and `v2` lines too) by its identity line; `None` when its first line is
/// not a batch identity.
pub fn batch_game(path: &Path) -> Option<GameKind> {
    use std::io::BufRead;
    let f = std::fs::File::open(path).ok()?;
    let mut line = Vec::new();
    std::io::BufReader::new(f).take(1 << 16).read_until(b'\n', &mut line).ok()?;
    let line = std::str::from_utf8(&line).ok()?;
    let words = IdentityLine::parse(line).ok()?;
    if words.is(BATCH_KEYWORD, "v1") {
        return Some(GameKind::Senat);
    }
    match words.fields.first() {
        Some((k, game)) if k == "game" && is_ours(&words) => GameKind::parse(game).ok(),
        _ => None,
    }
}

/// Checks a games row against the batch (`ctx`: its identity fields) and
/// the rules: the index, the game's seed, the agents, and a final position
/// of the batch's variant that is over, with the row's winner, plies and
/// extra columns ([`BatchGame::final_winner`]), and the value losses of
/// a batch that records them. `varies`: whether the row has the
/// [`VARY_COLUMNS`] (`None`: either, by its length, as a merge reads rows
/// under the header of its first file).
fn check_row<G: BatchGame>(
    rec: &csv::StringRecord,
    ctx: &[(String, String)],
    expected: u64,
    varies: Option<bool>,
) -> Result<CheckedRow, String> {
    let get = |k: &str| ctx.iter().find(|(key, _)| key == k).map_or("", |(_, v)| v.as_str());
    let extra = G::batch_columns();
    let bare = GAMES_COLUMNS.len() + extra.len() + 1;
    let varies = varies.unwrap_or(rec.len() == bare + VARY_COLUMNS.len());
    let want = bare + if varies { VARY_COLUMNS.len() } else { 0 };
    if rec.len() != want {
        return Err(format!("{} fields, expected {want}", rec.len()));
    }
    if rec[0] != *expected.to_string() {
        return Err(format!("expected game {expected}, found `{}`", &rec[0]));
    }
    let seed = game_seed(get("seed").parse().map_err(|_| "bad batch seed")?, expected);
    if rec[1] != *seed.to_string() {
        return Err(format!("seed `{}` is not game {expected}'s seed of this batch, {seed}", &rec[1]));
    }
    if rec[2] != *get("first") || rec[3] != *get("second") {
        return Err(format!("agents `{}` and `{}` are not the batch's", &rec[2], &rec[3]));
    }
    let winner = match &rec[4] {
        "first" => Some(0),
        "second" => Some(1),
        "draw" => None,
        w => return Err(format!("bad winner `{w}` (first, second or draw)")),
    };
    let plies: u32 = rec[5].parse().map_err(|_| format!("bad plies `{}`", &rec[5]))?;
    let variant = match get("variant") {
        "-" => "",
        v => v,
    };
    let own: Vec<&str> = rec.iter().skip(GAMES_COLUMNS.len()).take(extra.len()).collect();
    let at = GAMES_COLUMNS.len() + extra.len();
    let loss = |k: usize| {
        crate::stats::parse_micros(&rec[at + k])
            .ok_or_else(|| format!("{} `{}` is not a value loss (a number from 0)", VARY_COLUMNS[k], &rec[at + k]))
    };
    let loss = if varies { Some([loss(0)?, loss(1)?]) } else { None };
    let FinalRow { winner: end_winner, plies: end_plies, capped } = G::final_winner(&rec[want - 1], variant, &own)?;
    if !end_plies.contains(&plies) {
        let (lo, hi) = (end_plies.start(), end_plies.end());
        return Err(if lo == hi {
            format!("plies {plies}, but the final position is at ply {lo}")
        } else {
            format!("plies {plies}, but a game ending at the final position has {lo} to {hi}")
        });
    }
    if end_winner != winner {
        return Err(format!("winner `{}` is not the final position's", &rec[4]));
    }
    Ok(CheckedRow { winner, plies, capped, loss })
}

/// What a checked games row adds to a [`Tally`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CheckedRow {
    /// The winning team (`None`: a draw).
    winner: Option<usize>,
    /// The row's plies.
    plies: u32,
    /// Whether the game ended at the ply cap.
    capped: bool,
    /// The teams' value losses in millionths, where the row has them.
    loss: Option<[u64; 2]>,
}

impl CheckedRow {
    /// Counts the row in `t`.
    fn tally(&self, t: &mut Tally) {
        t.add(self.winner, self.plies, self.capped, self.loss);
    }
}

/// The rows of an existing file of this batch, as checked for a resume.
struct Scanned {
    /// Byte offset of the end of each complete row, in order.
    ends: Vec<u64>,
    /// What each row adds to the tally (games files only).
    games: Vec<CheckedRow>,
    /// The game index of each row (side files only).
    index: Vec<u64>,
}

/// Reads a games (or moves) file of batch `id_line` to continue it: the
/// identity and header must be these, every complete row must be the next
/// game of the range; a last row cut short (no newline) is dropped.
fn scan<G: BatchGame>(
    path: &Path,
    file: &mut std::fs::File,
    id_line: &str,
    head: &str,
    start: u64,
    kind: FileKind,
    varies: bool,
) -> Result<Scanned, Error> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).map_err(|e| io_err("read", path, e))?;
    file.read_to_string(&mut text).map_err(|e| io_err("read", path, e))?;
    let identity_error = |message: String| Error::Identity { path: path.to_path_buf(), message };
    let Some(first_end) = text.find('\n') else {
        return Err(identity_error("cannot resume: the file has no complete identity line".into()));
    };
    let line = &text[..=first_end];
    // A file of the older format goes on under its own line.
    let legacy =
        IdentityLine::parse(id_line).map(|l| IdentityLine::write(LEGACY.0, LEGACY.1, l.fields)).unwrap_or_default();
    if line != id_line && line != legacy {
        return Err(identity_error(match parse_identity(line) {
            Err(e) => format!("cannot resume: bad batch identity: {e}"),
            Ok(theirs) => {
                let ours = parse_identity(id_line).unwrap_or_default();
                match first_difference(&theirs, &ours, &[]) {
                    Some((k, a, b)) => {
                        format!("cannot resume: it belongs to another batch ({k}={a}, this run has {k}={b})")
                    }
                    None => "cannot resume: it belongs to another batch".into(),
                }
            }
        }));
    }
    let mut pos = first_end + 1;
    if !text[pos..].starts_with(head) {
        return Err(identity_error(header_mismatch(&text[pos..], head)));
    }
    pos += head.len();
    let mut out = Scanned { ends: Vec::new(), games: Vec::new(), index: Vec::new() };
    let mut line_no = 2u64;
    while let Some(len) = text[pos..].find('\n') {
        line_no += 1;
        let row = &text[pos..pos + len];
        let expected = start + out.ends.len() as u64;
        let bad = |message: String| Error::Identity {
            path: path.to_path_buf(),
            message: format!("line {line_no}: cannot resume: {message}"),
        };
        let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(row.as_bytes());
        let rec = r.records().next().and_then(Result::ok).ok_or_else(|| bad("not a CSV row".into()))?;
        if kind == FileKind::Side {
            let last = out.index.last().copied().unwrap_or(start);
            match rec.get(0).and_then(|t| t.parse::<u64>().ok()) {
                Some(g) if g >= last => out.index.push(g),
                _ => {
                    return Err(bad(format!(
                        "expected a row of game {last} or later, found `{}`",
                        rec.get(0).unwrap_or("")
                    )));
                }
            }
        } else if rec.get(0) != Some(expected.to_string().as_str()) {
            return Err(bad(format!("expected game {expected}, found `{}`", rec.get(0).unwrap_or(""))));
        }
        if kind == FileKind::Games {
            let ctx = parse_identity(id_line).map_err(|e| bad(e.to_string()))?;
            out.games.push(check_row::<G>(&rec, &ctx, expected, Some(varies)).map_err(bad)?);
        }
        pos += len + 1;
        out.ends.push(pos as u64);
    }
    // The end of the header, for a file with no complete row.
    out.ends.insert(0, (first_end + 1 + head.len()) as u64);
    Ok(out)
}

/// Why a file to resume, `rest` after its identity line, does not go on
/// with header `head`: its header names the columns it lacks (a rounds
/// file written before `opener` existed: `lacks the column `opener``).
fn header_mismatch(rest: &str, head: &str) -> String {
    let theirs: Vec<&str> = rest.split('\n').next().unwrap_or("").trim_end_matches('\r').split(',').collect();
    let missing: Vec<&str> = head.trim_end().split(',').filter(|c| !theirs.contains(c)).collect();
    let mut m = format!("cannot resume: the header is not `{}`", head.trim_end());
    if !missing.is_empty() && rest.contains('\n') {
        let s = if missing.len() == 1 { "" } else { "s" };
        m.push_str(&format!(
            " (the file lacks the column{s} `{}`: written by an older senat; play the batch again into new files)",
            missing.join("`, `")
        ));
    }
    m
}

/// Whether the second line of `file` is `legacy` (the old games header).
fn legacy_header(file: &mut std::fs::File, legacy: &str) -> Result<bool, Error> {
    let mut text = Vec::new();
    let io = |e: std::io::Error| Error::Invalid(format!("cannot read the file to resume: {e}"));
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    std::io::Read::by_ref(file).take(64 << 10).read_to_end(&mut text).map_err(io)?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    let second = text.split(|&b| b == b'\n').nth(1).unwrap_or(&[]);
    Ok(second.len() + 1 == legacy.len() && legacy.as_bytes().starts_with(second))
}

/// A lab game's batch files as the one runner ([`crate::selfplay::runner`])
/// writes them: the `# senat-batch v2` line, the games header of
/// [`GAMES_COLUMNS`] and the game's own columns, the moves and side files
/// wanted, rows played by [`BatchGame::play_row`], resumed by [`scan`],
/// summarised into a [`Tally`].
struct LabRun<'a, G: BatchGame> {
    batch: &'a Batch<G::Spec>,
    start: G::Start,
    id_line: String,
    names: [String; 2],
    /// The companions in order: their kind and header.
    companions: Vec<(FileKind, String)>,
    /// Whether the games file has the [`VARY_COLUMNS`] ([`BatchGame::varies`]).
    varies: bool,
}

impl<G: BatchGame> crate::selfplay::runner::RunFormat for LabRun<'_, G> {
    type Error = Error;
    type Sum = Tally;
    type Part = Tally;

    fn fresh(&self, k: usize) -> Vec<u8> {
        let head = if k == 0 {
            games_header(G::batch_columns(), false, self.varies)
        } else {
            self.companions[k - 1].1.clone()
        };
        (self.id_line.clone() + &head).into_bytes()
    }
    fn resume(&self, games: &mut OutFile, companions: &mut [Option<OutFile>]) -> Result<(Tally, u64), Error> {
        let range = self.batch.shard.range(self.batch.games);
        let path = games.writing().to_path_buf();
        // A file written before `game_seed` had its name goes on with its own header.
        let legacy = games_header(G::batch_columns(), true, self.varies);
        let games_head = if legacy_header(games.file(), &legacy)? {
            legacy
        } else {
            games_header(G::batch_columns(), false, self.varies)
        };
        let g = scan::<G>(&path, games.file(), &self.id_line, &games_head, range.start, FileKind::Games, self.varies)?;
        let mut keep = g.games.len();
        let mut scans = Vec::new();
        for (c, (kind, head)) in companions.iter_mut().zip(&self.companions) {
            let Some(f) = c else {
                scans.push(None);
                continue;
            };
            let wpath = f.writing().to_path_buf();
            let m = scan::<G>(&wpath, f.file(), &self.id_line, head, range.start, *kind, self.varies)?;
            keep = match kind {
                FileKind::Moves | FileKind::Games => keep.min(m.ends.len() - 1),
                // A game's side rows are complete once a later game's row
                // follows them; the last game seen may be cut short.
                FileKind::Side => match m.index.last() {
                    Some(&last) if last >= range.start + keep as u64 => keep,
                    Some(&last) => keep.min((last - range.start) as usize),
                    None => 0,
                },
            };
            scans.push(Some(m));
        }
        let cut = |f: &mut OutFile, at: u64| -> Result<(), Error> {
            let p = f.writing().to_path_buf();
            f.file().set_len(at).map_err(|e| io_err("repair", &p, e))?;
            f.file().seek(SeekFrom::End(0)).map_err(|e| io_err("repair", &p, e))?;
            Ok(())
        };
        cut(games, g.ends[keep])?;
        for ((c, (kind, _)), m) in companions.iter_mut().zip(&self.companions).zip(&scans) {
            let (Some(f), Some(m)) = (c, m) else { continue };
            let at = match kind {
                // Side rows are written before their games' rows: the rows
                // of the games kept are all there; later ones are cut.
                FileKind::Side => m.ends[m.index.iter().take_while(|&&g| g < range.start + keep as u64).count()],
                _ => m.ends[keep],
            };
            cut(f, at)?;
        }
        let mut tally = Tally::default();
        for row in &g.games[..keep] {
            row.tally(&mut tally);
        }
        Ok((tally, range.start + keep as u64))
    }
    fn empty(&self) -> Tally {
        Tally::default()
    }
    fn play(&self, range: std::ops::Range<u64>) -> (Vec<Vec<u8>>, Tally) {
        let b = self.batch;
        let rotations = if b.rotate { G::rotations(&self.start) } else { None };
        let with_moves = self.companions.iter().any(|(k, _)| *k == FileKind::Moves);
        let with_side = self.companions.iter().any(|(k, _)| *k == FileKind::Side);
        let mut rows = vec![Vec::new(); 1 + self.companions.len()];
        let mut tally = Tally::default();
        for g in range {
            if crate::selfplay::schedule::stop_requested() {
                break; // The runner writes nothing more.
            }
            let seeds = GameSeeds::of(b.seed, g, rotations);
            let seed = seeds.game;
            let p = G::play_row(&self.start, &b.agents, b.book, seeds, with_moves, with_side);
            let winner = match p.winner {
                Some(0) => "first",
                Some(_) => "second",
                None => "draw",
            };
            let mut rec = vec![g.to_string(), seed.to_string(), self.names[0].clone(), self.names[1].clone()];
            rec.push(winner.to_string());
            rec.push(p.plies.to_string());
            rec.extend(p.extra);
            if self.varies {
                rec.extend(p.vary_loss.unwrap_or_default().map(crate::stats::micros_text));
            }
            rec.push(p.final_text);
            rows[0].extend(csv_record(&rec));
            for (k, (kind, _)) in self.companions.iter().enumerate() {
                match kind {
                    FileKind::Moves => rows[k + 1].extend(csv_record(&[g.to_string(), p.moves.join(" ")])),
                    FileKind::Side => {
                        for r in &p.side {
                            let mut r = r.clone();
                            r.insert(0, g.to_string());
                            rows[k + 1].extend(csv_record(&r));
                        }
                    }
                    FileKind::Games => {}
                }
            }
            tally.add(p.winner, p.plies, p.capped, p.vary_loss);
        }
        (rows, tally)
    }
    fn add(&self, sum: &mut Tally, part: &Tally) {
        sum.merge(part);
    }
    fn write_summary(&self, out: &mut OutFile, sum: &Tally) -> Result<(), Error> {
        write_summary(out, self.batch.game, &self.batch.variant, &self.names, sum)
    }
}

/// Runs batch `b` of game `G` into `out` on `threads` threads (the one
/// runner, [`crate::selfplay::runner::run`], on the lab's format);
/// `progress` hears the number of games done (resumed ones included).
pub fn run<G: BatchGame>(
    b: &Batch<G::Spec>,
    out: &Outputs,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Report, Error> {
    if b.games == 0 {
        return Err(Error::Invalid("--games 0: the batch must have at least 1 game".into()));
    }
    let start = G::batch_start(&b.variant).map_err(Error::Invalid)?;
    if b.rotate {
        match G::rotations(&start) {
            None => return Err(Error::Invalid(format!("--rotate is for --game dominoes, not {}", b.game))),
            Some(n) if !b.games.is_multiple_of(n) => {
                return Err(Error::Invalid(format!(
                    "--rotate plays every deal once per seat rotation ({n} games in a row): --games must be a \
                     multiple of {n}, got {}",
                    b.games
                )));
            }
            Some(_) => {}
        }
    }
    let side_head = match (&out.side, G::side_columns()) {
        (None, _) => None,
        (Some(_), Some(cols)) => Some(cols.join(",") + "\n"),
        (Some(p), None) => {
            return Err(Error::Invalid(format!("{}: this game writes no side file", p.display())));
        }
    };
    let mut flags: Vec<(&str, &Path)> = vec![("--out", &out.games)];
    flags.extend(out.moves.as_deref().map(|p| ("--moves", p)));
    flags.extend(out.side.as_deref().map(|p| ("--rounds", p)));
    flags.extend(out.summary.as_deref().map(|p| ("--summary", p)));
    let mut companions: Vec<(&'static str, &Path)> = Vec::new();
    let mut kinds = Vec::new();
    if let Some(p) = &out.moves {
        companions.push(("moves", p));
        kinds.push((FileKind::Moves, "game,moves\n".to_string()));
    }
    if let (Some(p), Some(head)) = (&out.side, side_head) {
        companions.push(("rounds", p));
        kinds.push((FileKind::Side, head));
    }
    let plan = crate::selfplay::runner::Plan {
        games: b.games,
        range: b.shard.range(b.games),
        out: &out.games,
        companions,
        summary: out.summary.as_deref(),
        flags,
        inputs: Vec::new(),
        existing: out.existing,
    };
    let names = [b.agents[0].to_string(), b.agents[1].to_string()];
    let varies = G::varies(&b.agents);
    let format = LabRun::<G> { batch: b, start, id_line: b.identity(), names, companions: kinds, varies };
    let r = crate::selfplay::runner::run(&format, &plan, threads, progress)?;
    Ok(Report { tally: r.sum, played: r.played, resumed: r.resumed, seconds: r.seconds })
}

/// The state after `plies` uniformly random moves from `start` (fewer if
/// the game ends), with those moves.
pub fn opening<G: LabGame>(
    start: G::State,
    plies: u32,
    rng: &mut game_search::rng::GameRng,
) -> (G::State, Vec<G::Move>) {
    let (mut s, mut moves, mut buf) = (start, Vec::new(), Vec::new());
    for _ in 0..plies {
        match crate::agent::random_move::<G>(&s, rng, &mut buf) {
            Some(m) => {
                s = G::apply(&s, m);
                moves.push(m);
            }
            None => break,
        }
    }
    (s, moves)
}

/// The summary row of a batch (the fields of [`summary_header`]: those of
/// [`SUMMARY_HEADER`], then the value losses where recorded).
pub fn summary_row(game: GameKind, variant: &str, names: &[String; 2], t: &Tally) -> Vec<String> {
    let (fl, fh) = wilson(t.first, t.games);
    let (sl, sh) = wilson(t.second, t.games);
    let (dl, dh) = wilson(t.draws, t.games);
    let f4 = |x: f64| format!("{x:.4}");
    vec![
        game.to_string(),
        variant.to_string(),
        names[0].clone(),
        names[1].clone(),
        t.games.to_string(),
        t.first.to_string(),
        t.second.to_string(),
        t.draws.to_string(),
        f4(t.first as f64 / t.games.max(1) as f64),
        f4(fl),
        f4(fh),
        f4(sl),
        f4(sh),
        f4(dl),
        f4(dh),
        f4(t.first_score()),
        format!("{:.1}", t.plies as f64 / t.games.max(1) as f64),
        t.capped.to_string(),
    ]
    .into_iter()
    .chain((0..3).filter_map(|k| t.loss.mean(k)).flat_map(|(m, (lo, hi))| [m, lo, hi].map(|x| format!("{x:.6}"))))
    .collect()
}

/// The header of a batch's summary: [`SUMMARY_HEADER`], then the
/// [`VARY_SUMMARY_COLUMNS`] where its games record value losses.
pub fn summary_header(t: &Tally) -> Vec<&'static str> {
    let vary: &[&str] = if t.loss.games > 0 { &VARY_SUMMARY_COLUMNS } else { &[] };
    SUMMARY_HEADER.iter().chain(vary).copied().collect()
}

fn write_summary(f: &mut OutFile, game: GameKind, variant: &str, names: &[String; 2], t: &Tally) -> Result<(), Error> {
    let mut bytes = csv_record(&summary_header(t));
    bytes.extend(csv_record(&summary_row(game, variant, names, t)));
    Ok(f.write_all(&bytes)?)
}

/// A games file's identity as the merge reads it: its fields in order,
/// and the shard, games and seed they name.
#[derive(Clone, Debug)]
pub struct LabId {
    /// The fields of the identity line, in order, unescaped.
    pub fields: Vec<(String, String)>,
    /// The slice the file holds.
    pub shard: Shard,
    /// The games of the whole batch.
    pub games: u64,
    /// The batch seed.
    pub seed: u64,
}

impl LabId {
    /// The value of field `key` (empty where there is none).
    pub fn get(&self, key: &str) -> &str {
        self.fields.iter().find(|(k, _)| k == key).map_or("", |(_, v)| v.as_str())
    }
}

/// The games files of game `G` as the one merge ([`crate::selfplay::merge`](mod@crate::selfplay::merge))
/// reads them: the `# senat-batch v2` line (or `# game-batch 1`), the
/// header of [`GAMES_COLUMNS`] and the game's own columns, rows checked
/// against the rules into a [`Tally`].
pub struct LabFormat<G>(std::marker::PhantomData<G>);

impl<G: BatchGame> crate::selfplay::merge::ShardFormat for LabFormat<G> {
    type Error = Error;

    fn not_a_header(e: Error) -> Error {
        crate::selfplay::not_a_header(e)
    }

    type Id = LabId;
    type Sum = LabSum;

    fn identity(path: &Path, line: &str) -> Result<LabId, Error> {
        let ident = |message: String| Error::Identity { path: path.to_path_buf(), message };
        if !line.ends_with('\n') {
            return Err(ident("no identity line (is it a games file of `selfplay --game`?)".into()));
        }
        let fields = parse_identity(line).map_err(|e| ident(format!("bad batch identity: {e}")))?;
        let get = |k: &str| fields.iter().find(|(key, _)| key == k).map_or("", |(_, v)| v.as_str());
        let shard = Shard::parse(get("shard")).map_err(|e| ident(e.to_string()))?;
        let games = get("games").parse().map_err(|_| ident(format!("bad games count `{}`", get("games"))))?;
        let seed = get("seed").parse().map_err(|_| ident(format!("bad batch seed `{}`", get("seed"))))?;
        // The range is the shard's games, as Sénat's identity checks it.
        let r = shard.range(games);
        if get("range") != format!("{}..{}", r.start, r.end) {
            return Err(ident(format!(
                "bad batch identity: range=`{}` is not the games of shard {}/{} of {games}, {}..{}",
                get("range"),
                shard.k,
                shard.n,
                r.start,
                r.end
            )));
        }
        Ok(LabId { fields, shard, games, seed })
    }
    fn shard(id: &LabId) -> Shard {
        id.shard
    }
    fn games(id: &LabId) -> u64 {
        id.games
    }
    fn seed(id: &LabId) -> u64 {
        id.seed
    }
    fn difference(a: &LabId, b: &LabId) -> Option<(String, String, String)> {
        first_difference(&a.fields, &b.fields, &["shard", "range"])
    }
    fn header(path: &Path, _: &LabId, line: &str) -> Result<String, Error> {
        // Either header: with the value-loss columns (a batch with `vary=`)
        // or without; the merge requires every input to have the first's.
        // Files written before `game_seed` had its name merge under today's header.
        for varies in [false, true] {
            let want = games_header(G::batch_columns(), false, varies);
            if line == want || line == games_header(G::batch_columns(), true, varies) {
                return Ok(want);
            }
        }
        Err(Error::Identity {
            path: path.to_path_buf(),
            message: format!(
                "not a games file of this game: its header is not `{}` (with `{}` before `final` where an agent has vary=)",
                games_header(G::batch_columns(), false, false).trim_end(),
                VARY_COLUMNS.join(",")
            ),
        })
    }
    fn add_row(
        path: &Path,
        line: u64,
        row: &csv::StringRecord,
        id: &LabId,
        expected: u64,
        sum: &mut LabSum,
    ) -> Result<(), Error> {
        check_row::<G>(row, &id.fields, expected, None)
            .map_err(|m| Error::Identity { path: path.to_path_buf(), message: format!("line {line}: {m}") })?
            .tally(&mut sum.tally);
        // The game's key as selfplay counts a games file without its moves
        // (`variety::distinct_in_file(path, &[5], true)`): plies and final position.
        let last = row.iter().next_back().unwrap_or("").as_bytes();
        sum.keys.push(crate::variety::row_key(std::iter::once(row.get(5).unwrap_or("").as_bytes()), Some(last)));
        Ok(())
    }
    fn merged_line(id: &LabId) -> String {
        write_line(id.fields.iter().map(|(k, v)| {
            let v = match k.as_str() {
                "shard" => "1/1".to_string(),
                "range" => format!("0..{}", id.games),
                "variant" if v.is_empty() => "-".to_string(),
                _ => v.clone(),
            };
            (k, v)
        }))
    }
    fn write_summary(out: &mut OutFile, id: &LabId, sum: &LabSum) -> Result<(), Error> {
        let (game, variant, names) = merged_names(id)?;
        write_summary(out, game, &variant, &names, &sum.tally)
    }
}

/// What a merge of a game's shards sums: the tally, and every game's key
/// for the distinct-games count, taken as the merge checks the rows.
#[derive(Default)]
pub struct LabSum {
    tally: Tally,
    keys: Vec<u128>,
}

/// The game, variant and agents named by a merged file's identity.
fn merged_names(id: &LabId) -> Result<(GameKind, String, [String; 2]), Error> {
    let game = GameKind::parse(id.get("game")).map_err(|e| Error::Invalid(e.to_string()))?;
    let variant = match id.get("variant") {
        "-" => String::new(),
        v => v.to_string(),
    };
    Ok((game, variant, [id.get("first").to_string(), id.get("second").to_string()]))
}

/// Checks the batch file `path` of game `G` as `merge` and `--resume`
/// read one ([`crate::selfplay::merge::check_file`]): a games file's header
/// and every row (`check_row`), the header of a moves or side file, and
/// no last row cut short. [`crate::catalog::check_batch_file`] picks `G`
/// from the file's identity line.
pub fn check_file<G: BatchGame>(path: &Path) -> Result<(), Error> {
    let mut companions = vec!["game,moves\n".to_string()];
    companions.extend(G::side_columns().map(|c| c.join(",") + "\n"));
    crate::selfplay::merge::check_file::<LabFormat<G>>(path, &companions)
}

/// Joins the games files of the shards of one batch of `G` (in any order)
/// into `out` and writes the summary of all games to `summary`: the one
/// merge of every game ([`crate::selfplay::merge::merge`]) on this
/// module's format. It refuses, saying why, unless the inputs are exactly
/// one complete batch with every row possible. Returns the batch's name
/// (game and agents) and tally.
pub fn merge<G: BatchGame>(
    inputs: &[PathBuf],
    out: &Path,
    summary: Option<&Path>,
    overwrite: bool,
) -> Result<(String, Tally, crate::variety::Variety), Error> {
    let (id, sum) = crate::selfplay::merge::merge::<LabFormat<G>>(inputs, out, summary, overwrite)?;
    let (game, _, names) = merged_names(&id)?;
    Ok((format!("{} {} vs {}", game, names[0], names[1]), sum.tally, crate::variety::Variety::of(sum.keys)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::toy::Nim;

    fn batch(games: u64, shard: Shard) -> Batch {
        Batch {
            game: GameKind::Focus,
            variant: String::new(),
            seed: 7,
            games,
            shard,
            book: 0,
            agents: [AgentSpec::Random, AgentSpec::Greedy],
            rotate: false,
        }
    }

    fn outs(dir: &Path, name: &str, existing: Existing) -> Outputs {
        Outputs {
            games: dir.join(format!("{name}.csv")),
            moves: Some(dir.join(format!("{name}-moves.csv"))),
            side: None,
            summary: Some(dir.join(format!("{name}-summary.csv"))),
            existing,
        }
    }

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("lab-games-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// `rotate=true` is an optional last field: read back, compared as
    /// `false` where absent, refused in any other form; a game without
    /// deals refuses `--rotate`.
    #[test]
    fn the_rotate_field_is_optional_and_compared() {
        let plain = batch(4, Shard::ALL);
        let rotated = Batch { rotate: true, ..plain.clone() };
        assert!(!plain.identity().contains("rotate"));
        assert!(rotated.identity().ends_with(" second=greedy rotate=true\n"), "{}", rotated.identity());
        let (p, r) = (parse_identity(&plain.identity()).unwrap(), parse_identity(&rotated.identity()).unwrap());
        assert_eq!(r.last(), Some(&("rotate".to_string(), "true".to_string())));
        assert!(p.iter().all(|(k, _)| k != "rotate"));
        assert_eq!(first_difference(&p, &r, &[]), Some(("rotate".into(), "false".into(), "true".into())));
        assert_eq!(first_difference(&r, &r, &[]), None);
        for bad in [" rotate=false", " rotate=yes", " spin=true", " rotate=true rotate=true"] {
            let line = plain.identity().trim_end().to_string() + bad + "\n";
            assert!(parse_identity(&line).is_err(), "{line}");
        }
        let d = tmp("rotate");
        let e = run::<Nim>(&rotated, &outs(&d, "r", Existing::Refuse), 1, &|_| {}).unwrap_err().to_string();
        assert!(e.contains("--rotate is for --game dominoes"), "{e}");
        // Rotations take their deal from the deal's first game.
        let s = GameSeeds::of(7, 10, Some(4));
        assert_eq!((s.game, s.deal, s.rotation), (game_seed(7, 10), game_seed(7, 8), 2));
        assert_eq!(
            GameSeeds::of(7, 10, None),
            GameSeeds { game: game_seed(7, 10), deal: game_seed(7, 10), rotation: 0 }
        );
        // A file without a column of the header it must go on with says which.
        let m = header_mismatch("game,round,decisions\n0,1,5\n", "game,round,decisions,opener\n");
        assert!(m.contains("lacks the column `opener`"), "{m}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn shards_merge_to_the_whole_batch_and_resume_continues() {
        let d = tmp("batch");
        let whole =
            run::<Nim>(&batch(30, Shard { k: 1, n: 1 }), &outs(&d, "all", Existing::Refuse), 2, &|_| {}).unwrap();
        assert_eq!(whole.tally.games, 30);
        assert!(whole.tally.second > whole.tally.first, "greedy plays Nim perfectly: {:?}", whole.tally);
        let mut files = Vec::new();
        for k in [2, 1, 3] {
            let o = outs(&d, &format!("s{k}"), Existing::Refuse);
            run::<Nim>(&batch(30, Shard { k, n: 3 }), &o, 1, &|_| {}).unwrap();
            files.push(o.games);
        }
        let merged = d.join("merged.csv");
        let (_, t, _) = merge::<Nim>(&files, &merged, Some(&d.join("ms.csv")), false).unwrap();
        assert_eq!(t, whole.tally);
        assert_eq!(std::fs::read(&merged).unwrap(), std::fs::read(d.join("all.csv")).unwrap());
        // Missing or repeated shards are refused.
        let e = merge::<Nim>(&files[..2], &d.join("m2.csv"), None, false).unwrap_err().to_string();
        assert!(e.contains("missing shard 3 of 3 (games 20..30)"), "{e}");
        let e = merge::<Nim>(&[files[0].clone(), files[0].clone()], &d.join("m3.csv"), None, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("is given twice") || e.contains("same file"), "{e}");
        // A row that the rules contradict is refused: a winner changed by hand.
        let text = std::fs::read_to_string(&files[1]).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let mut fields: Vec<String> = lines[2].split(',').map(String::from).collect();
        fields[4] = if fields[4] == "first" { "second".into() } else { "first".into() };
        lines[2] = fields.join(",");
        let forged = lines.join("\n") + "\n";
        assert_ne!(forged, text);
        std::fs::write(d.join("forged.csv"), forged).unwrap();
        let e =
            merge::<Nim>(&[files[0].clone(), d.join("forged.csv"), files[2].clone()], &d.join("m4.csv"), None, false);
        let e = e.unwrap_err().to_string();
        assert!(e.contains("is not the final position's"), "{e}");
        // An existing output is refused without --force.
        let e = run::<Nim>(&batch(30, Shard { k: 1, n: 1 }), &outs(&d, "all", Existing::Refuse), 1, &|_| {});
        assert!(e.unwrap_err().to_string().contains("already exists"));
        // Cut the games file mid-row and the moves file further back: resume rebuilds the same bytes.
        let all = std::fs::read(d.join("all.csv")).unwrap();
        let moves = std::fs::read(d.join("all-moves.csv")).unwrap();
        std::fs::write(d.join("cut.csv"), &all[..all.len() * 2 / 3]).unwrap();
        std::fs::write(d.join("cut-moves.csv"), &moves[..moves.len() / 2]).unwrap();
        let r = run::<Nim>(&batch(30, Shard { k: 1, n: 1 }), &outs(&d, "cut", Existing::Resume), 2, &|_| {}).unwrap();
        assert!(r.resumed > 0 && r.resumed < 30, "{}", r.resumed);
        assert_eq!(std::fs::read(d.join("cut.csv")).unwrap(), all);
        assert_eq!(std::fs::read(d.join("cut-moves.csv")).unwrap(), moves);
        assert_eq!(r.tally, whole.tally);
        // Resuming another batch's file is refused, naming the field.
        let mut other = batch(30, Shard { k: 1, n: 1 });
        other.seed = 8;
        let e = run::<Nim>(&other, &outs(&d, "all", Existing::Resume), 1, &|_| {}).unwrap_err().to_string();
        assert!(e.contains("another batch (seed=7, this run has seed=8)"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
