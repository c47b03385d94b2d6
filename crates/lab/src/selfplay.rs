//! Self-play at scale: complete games (draft and play) between chosen
//! policies, run in parallel and streamed to CSV files in game order.
//!
//! Reproducibility: game `i` of a batch with seed `s` draws all its
//! randomness from one xoshiro256++ generator seeded with
//! [`game_seed`]`(s, i)`, so a game is the same whatever the number of
//! threads, the chunking, or the shard that plays it, and output files are
//! byte-identical for any `--threads`. Memory stays flat: games are played
//! in windows of chunks, and each window is written (moves file first, then
//! games file, each with one `write_all` of whole rows) before the next but
//! one is started.
//!
//! Every games and moves file starts with the batch's identity line
//! ([`identity`]), so that [`merge`] proves its inputs are exactly one
//! complete batch and a resumed [`run`] that it continues the same batch.
//! Outputs are written through [`output::OutFile`]: checked distinct,
//! locked, created before the first game as `PATH.partial` and renamed into
//! place at the end.
//!
//! This module drives policies and the rules; it never decides a move
//! itself, never draws randomness outside a game's own generator, and never
//! overwrites an existing file unless asked to (`force` or `resume`).

use senat_rules::board::Cell;
use senat_rules::dice::Side;
use senat_rules::game::{EndReason, Game, Outcome};
use senat_rules::moves::{Dest, Move, MoveKind};
use crate::policy::{GameRng, Policy, PolicySpec, Turn, mix64, rng_from_seed};
use senat_rules::position::Position;
use crate::stats::{GameSummary, PairKey, SUMMARY_HEADER, Summary, Tally};
use rayon::prelude::*;
use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::sync_channel;
use std::time::Instant;

pub mod identity;
pub mod output;

pub use identity::{Identity, PolicyId};
use output::{IfExists, Located, OutFile};

/// The seed of game `index` in a batch with seed `seed`:
/// `mix64(seed ^ mix64(index + 0x9E3779B97F4A7C15))`, where `mix64` is the
/// splitmix64 finalizer. Distinct indices give distinct seeds (both mixes are
/// bijections). The game's generator is [`rng_from_seed`] of it.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix64(seed ^ mix64(index.wrapping_add(0x9E37_79B9_7F4A_7C15)))
}

/// Red's and blue's policies for both phases.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    /// Red's play policy.
    pub red: PolicySpec,
    /// Blue's play policy.
    pub blue: PolicySpec,
    /// Red's draft policy.
    pub draft_red: PolicySpec,
    /// Blue's draft policy.
    pub draft_blue: PolicySpec,
}

impl Matchup {
    /// The names, as the summary groups them.
    pub fn key(&self) -> PairKey {
        PairKey {
            red: self.red.name.clone(),
            blue: self.blue.name.clone(),
            draft_red: self.draft_red.name.clone(),
            draft_blue: self.draft_blue.name.clone(),
        }
    }
}

/// Fresh policies for one worker.
struct Players {
    draft: [Box<dyn Policy>; 2],
    play: [Box<dyn Policy>; 2],
}

impl Players {
    fn new(m: &Matchup) -> Players {
        Players { draft: [m.draft_red.build(), m.draft_blue.build()], play: [m.red.build(), m.blue.build()] }
    }
}

/// A finished game with what the output files need.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game, with its moves.
    pub game: Game,
    /// How it ended.
    pub outcome: Outcome,
    /// Number of draft moves (the first moves of the record).
    pub draft_len: usize,
    /// Legal moves in the position before each move (same length as the record).
    pub legal: Vec<u16>,
    /// Sum of the legal-move counts of the play positions.
    pub legal_sum: u64,
}

impl PlayedGame {
    /// The summary record of the game.
    pub fn summary(&self) -> GameSummary {
        GameSummary {
            winner: self.outcome.winner,
            reason: self.outcome.reason,
            play_len: (self.game.moves().len() - self.draft_len) as u32,
            legal_sum: self.legal_sum,
        }
    }
}

/// Plays one complete game from the start of the draft with generator `rng`;
/// its first moves are `opening` (legal: checked by [`check_opening`]),
/// played without asking the policies (nor drawing from `rng`).
fn play_with(players: &mut Players, opening: &[Move], rng: &mut GameRng, keep_legal: bool) -> PlayedGame {
    for p in players.draft.iter_mut().chain(players.play.iter_mut()) {
        p.new_game();
    }
    let mut game = Game::new(Position::start());
    let mut draft_len = 0;
    let mut legal = Vec::new();
    let mut legal_sum = 0u64;
    let outcome = loop {
        // The end rules of `Game::outcome` (`Outcome::decide`), sharing one
        // move count with the policy.
        let p = game.position();
        let mut counted = None;
        let end = Outcome::decide(p, game.occurrences(), || {
            let turn = Turn::new(&game);
            let blocked = turn.legal == 0;
            counted = Some(turn);
            blocked
        });
        if let Some(o) = end {
            break o;
        }
        let turn = counted.unwrap_or_else(|| Turn::new(&game));
        let play = p.is_play();
        let n = turn.legal;
        if play {
            legal_sum += n as u64;
        }
        if keep_legal {
            legal.push(n as u16);
        }
        let side = p.side_to_move() as usize;
        let forced = opening.get(game.moves().len()).copied();
        if !play {
            draft_len += 1;
        }
        let m = if let Some(m) = forced {
            m
        } else if play {
            players.play[side].choose(&turn, rng)
        } else {
            players.draft[side].choose(&turn, rng)
        };
        game.play_unchecked(m);
    };
    debug_assert_eq!(game.outcome(), Some(outcome));
    PlayedGame { game, outcome, draft_len, legal, legal_sum }
}

/// Plays game `index` of the batch with seed `seed` (the same game whatever
/// runs it).
pub fn play_game(m: &Matchup, seed: u64, index: u64) -> PlayedGame {
    let mut players = Players::new(m);
    let mut rng = rng_from_seed(game_seed(seed, index));
    play_with(&mut players, &[], &mut rng, true)
}

/// Checks that `moves` can be played from the start, in order, before the
/// game ends; `Err((i, message))` names the first that cannot (index in
/// `moves`). A batch's opening passes this check before any game.
pub fn check_opening(moves: &[Move]) -> Result<(), (usize, String)> {
    let mut game = Game::new(Position::start());
    for (i, &m) in moves.iter().enumerate() {
        if let Some(o) = game.outcome() {
            return Err((i, format!("the game is already over ({o})")));
        }
        game.play(m).map_err(|e| (i, format!("illegal here: {e}")))?;
    }
    Ok(())
}

/// The opening in move text, moves separated by single blanks (as in the
/// games file's move columns and the identity line); `None` when empty.
pub fn opening_text(moves: &[Move]) -> Option<String> {
    let mut buf = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        if i > 0 {
            buf.push(b' ');
        }
        push_move_text(&mut buf, m);
    }
    (!moves.is_empty()).then(|| String::from_utf8(buf).expect("move text is ASCII"))
}

// ---- CSV rows ------------------------------------------------------------

/// Columns of the games file.
pub const GAMES_HEADER: [&str; 17] = [
    "game",
    "seed",
    "game_seed",
    "red",
    "blue",
    "draft_red",
    "draft_blue",
    "winner",
    "reason",
    "red_pile",
    "blue_pile",
    "white_pile",
    "play_half_moves",
    "play_legal_sum",
    "draft_moves",
    "play_moves",
    "final_spn",
];

/// Columns of the per-move file.
pub const MOVES_HEADER: [&str; 6] = ["game", "ply", "phase", "side", "move", "legal_moves"];

fn push_num(buf: &mut Vec<u8>, n: u8) {
    if n >= 10 {
        buf.push(b'0' + n / 10);
    }
    buf.push(b'0' + n % 10);
}

fn push_cell(buf: &mut Vec<u8>, c: Cell) {
    buf.push(c.row().letter() as u8);
    push_num(buf, c.number());
}

/// Appends the move text of `m` (the same text as its `Display`), without
/// going through the formatting machinery.
pub fn push_move_text(buf: &mut Vec<u8>, m: Move) {
    match m.kind() {
        MoveKind::Give(d) => {
            buf.push(b'g');
            push_num(buf, d.number());
        }
        MoveKind::Place(d, c, f) => {
            push_num(buf, d.number());
            buf.push(b'@');
            push_cell(buf, c);
            buf.push(b'=');
            buf.extend_from_slice(f.code().as_bytes());
        }
        MoveKind::Shift { from, to } => {
            push_cell(buf, from);
            buf.push(b'-');
            push_cell(buf, to);
        }
        MoveKind::Flip { agent, target } => {
            push_cell(buf, agent);
            buf.push(b'>');
            push_cell(buf, target);
        }
        MoveKind::Push { agent, target, to } => {
            push_cell(buf, agent);
            buf.push(b'>');
            push_cell(buf, target);
            buf.push(b':');
            match to {
                Dest::Cell(c) => push_cell(buf, c),
                Dest::Door => buf.push(b'D'),
            }
        }
        MoveKind::Turn { agent, target, face } => {
            push_cell(buf, agent);
            buf.push(b'>');
            push_cell(buf, target);
            buf.push(b'=');
            buf.extend_from_slice(face.code().as_bytes());
        }
    }
}

/// `red`, `blue` or `draw`, as in CSV files.
pub fn winner_name(w: Option<Side>) -> &'static str {
    match w {
        Some(Side::Red) => "red",
        Some(Side::Blue) => "blue",
        None => "draw",
    }
}

/// Reusable buffers for writing rows.
struct RowWriter {
    games: csv::Writer<Vec<u8>>,
    moves: Option<csv::Writer<Vec<u8>>>,
    rec: csv::ByteRecord,
    field: Vec<u8>,
}

fn csv_writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new())
}

impl RowWriter {
    fn new(with_moves: bool) -> RowWriter {
        RowWriter {
            games: csv_writer(),
            moves: with_moves.then(csv_writer),
            rec: csv::ByteRecord::new(),
            field: Vec::new(),
        }
    }

    fn num(&mut self, n: impl itoa_like::Num) {
        self.field.clear();
        n.push(&mut self.field);
        self.rec.push_field(&self.field);
    }

    fn write(&mut self, m: &Matchup, seed: u64, index: u64, g: &PlayedGame) -> io::Result<()> {
        let moves = g.game.moves();
        let piles = g.game.position().piles();
        self.rec.clear();
        self.num(index);
        self.num(seed);
        self.num(game_seed(seed, index));
        for p in [&m.red, &m.blue, &m.draft_red, &m.draft_blue] {
            self.rec.push_field(p.name.as_bytes());
        }
        self.rec.push_field(winner_name(g.outcome.winner).as_bytes());
        self.rec.push_field(g.outcome.reason.name().as_bytes());
        self.num(piles.red as u64);
        self.num(piles.blue as u64);
        self.num(piles.white as u64);
        self.num((moves.len() - g.draft_len) as u64);
        self.num(g.legal_sum);
        for part in [&moves[..g.draft_len], &moves[g.draft_len..]] {
            self.field.clear();
            for (i, &mv) in part.iter().enumerate() {
                if i > 0 {
                    self.field.push(b' ');
                }
                push_move_text(&mut self.field, mv);
            }
            self.rec.push_field(&self.field);
        }
        self.rec.push_field(g.game.position().to_spn().as_bytes());
        self.games.write_byte_record(&self.rec)?;
        if let Some(w) = self.moves.as_mut() {
            let mut p = *g.game.start();
            let mut text = Vec::with_capacity(16);
            let mut num = Vec::with_capacity(8);
            for (ply, &mv) in moves.iter().enumerate() {
                let mut rec = csv::ByteRecord::new();
                num.clear();
                index.push(&mut num);
                rec.push_field(&num);
                num.clear();
                (ply as u64 + 1).push(&mut num);
                rec.push_field(&num);
                rec.push_field(if ply < g.draft_len { b"draft" } else { b"play" });
                rec.push_field(winner_name(Some(p.side_to_move())).as_bytes());
                text.clear();
                push_move_text(&mut text, mv);
                rec.push_field(&text);
                num.clear();
                (g.legal[ply] as u64).push(&mut num);
                rec.push_field(&num);
                w.write_byte_record(&rec)?;
                p.play_unchecked(mv);
            }
        }
        Ok(())
    }
}

/// Integer formatting into a byte buffer, without the `fmt` machinery.
mod itoa_like {
    /// An unsigned integer that can append its decimal digits.
    pub trait Num {
        fn push(self, buf: &mut Vec<u8>);
    }
    impl Num for u64 {
        fn push(self, buf: &mut Vec<u8>) {
            let mut tmp = [0u8; 20];
            let mut i = tmp.len();
            let mut n = self;
            loop {
                i -= 1;
                tmp[i] = b'0' + (n % 10) as u8;
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            buf.extend_from_slice(&tmp[i..]);
        }
    }
}
use itoa_like::Num as _;

// ---- batches -------------------------------------------------------------

/// Which games of a batch to play: the `k`-th (1-based) of `n` disjoint,
/// contiguous slices of the game indices `0..games`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based shard number.
    pub k: u64,
    /// Number of shards.
    pub n: u64,
}

impl Shard {
    /// The whole batch.
    pub const ALL: Shard = Shard { k: 1, n: 1 };

    /// Parses `K/N` with 1 ≤ K ≤ N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard `{text}`: expected K/N with 1 <= K <= N (e.g. 3/8)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if n == 0 || k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// The game indices of this shard in a batch of `games`.
    pub fn range(self, games: u64) -> std::ops::Range<u64> {
        let at = |i: u64| (games as u128 * i as u128 / self.n as u128) as u64;
        at(self.k - 1)..at(self.k)
    }
}

/// A batch: which games to play, between whom.
#[derive(Clone, Debug)]
pub struct Batch {
    /// The batch seed.
    pub seed: u64,
    /// Games in the whole batch (all shards).
    pub games: u64,
    /// The slice of it to play here.
    pub shard: Shard,
    /// The players.
    pub matchup: Matchup,
    /// Forced first moves of every game (empty: none), legal from the start
    /// ([`check_opening`]; [`run`] refuses an opening that fails it).
    pub opening: Vec<Move>,
}

/// What to do with output files that already exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Refuse to touch them.
    Refuse,
    /// Overwrite them.
    Overwrite,
    /// Continue the games file where it stops.
    Resume,
}

/// Where a batch writes.
#[derive(Clone, Debug)]
pub struct Outputs {
    /// One row per game.
    pub games: PathBuf,
    /// One row per move, if wanted.
    pub moves: Option<PathBuf>,
    /// The summary CSV, if wanted.
    pub summary: Option<PathBuf>,
    /// What to do with existing files.
    pub existing: Existing,
}

/// What a finished batch reports.
#[derive(Clone, Debug)]
pub struct Report {
    /// All games of the output file (resumed ones included).
    pub summary: Summary,
    /// Games played by this run.
    pub played: u64,
    /// Games found already in the file (`--resume`).
    pub resumed: u64,
    /// Seconds spent playing and writing.
    pub seconds: f64,
}

/// Why a batch, a merge or an arena failed: one line for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Reading, creating or writing a file failed.
    Io {
        /// What was being done: `read`, `create`, `write`…
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// An output exists and may not be replaced.
    Exists {
        /// The file.
        path: PathBuf,
        /// Whether `--resume` could continue it.
        resumable: bool,
    },
    /// An interrupted run left the temporary file of an output.
    PartialExists {
        /// The output.
        path: PathBuf,
        /// Its temporary file.
        partial: PathBuf,
    },
    /// Another run is writing the output.
    Locked {
        /// The output.
        path: PathBuf,
        /// The file whose lock is held.
        lock: PathBuf,
    },
    /// Two roles name the same file.
    Alias {
        /// The first role and its path (`--out a.csv`).
        first: String,
        /// The second one.
        second: String,
    },
    /// A file's batch identity is missing or is not the expected one.
    Identity {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The files do not make one complete batch.
    Incomplete(String),
    /// A row that cannot be (or is not where it should be).
    BadRow {
        /// The file.
        path: PathBuf,
        /// 1-based line number in the file.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// A bad argument or setting.
    Invalid(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Io { what, path, message } => write!(f, "cannot {what} {}: {message}", path.display()),
            Error::Exists { path, resumable: true } => {
                write!(f, "{} already exists; pass --force to overwrite it or --resume to continue it", path.display())
            }
            Error::Exists { path, resumable: false } => {
                write!(f, "{} already exists; pass --force to overwrite it", path.display())
            }
            Error::PartialExists { path, partial } => write!(
                f,
                "{} is left by an interrupted run writing {}; pass --resume to continue it or --force to start over",
                partial.display(),
                path.display()
            ),
            Error::Locked { path, lock } => write!(
                f,
                "{} is being written by another running senat ({} is locked); wait for it or stop it",
                path.display(),
                lock.display()
            ),
            Error::Alias { first, second } => {
                write!(f, "{first} and {second} name the same file; give each role its own file")
            }
            Error::Identity { path, message } => write!(f, "{}: {message}", path.display()),
            Error::Incomplete(msg) | Error::Invalid(msg) => f.write_str(msg),
            Error::BadRow { path, line, message } => write!(f, "{}:{line}: {message}", path.display()),
        }
    }
}

impl std::error::Error for Error {}

fn io_err(what: &'static str, path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Io { what, path: path.to_path_buf(), message: e.to_string() }
}

/// Games per chunk (the unit of parallel work) for a run of `games` on `threads`.
fn chunk_size(games: u64, threads: usize) -> u64 {
    (games / (threads as u64 * 8)).clamp(16, 256)
}

/// The results of one chunk.
struct ChunkOut {
    games: Vec<u8>,
    moves: Vec<u8>,
    tally: Tally,
}

fn run_chunk(b: &Batch, range: std::ops::Range<u64>, emit: bool, with_moves: bool) -> io::Result<ChunkOut> {
    let mut players = Players::new(&b.matchup);
    let mut rows = emit.then(|| RowWriter::new(with_moves));
    let mut tally = Tally::default();
    for i in range {
        let mut rng = rng_from_seed(game_seed(b.seed, i));
        let g = play_with(&mut players, &b.opening, &mut rng, with_moves);
        tally.add(&g.summary());
        if let Some(w) = rows.as_mut() {
            w.write(&b.matchup, b.seed, i, &g)?;
        }
    }
    let (games, moves) = match rows {
        Some(w) => (
            w.games.into_inner().map_err(|e| e.into_error())?,
            w.moves.map(|m| m.into_inner().map_err(|e| e.into_error())).transpose()?.unwrap_or_default(),
        ),
        None => (Vec::new(), Vec::new()),
    };
    Ok(ChunkOut { games, moves, tally })
}

pub(crate) fn pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Invalid(format!("cannot start {threads} threads: {e}")))
}

/// Plays games `range` of batch `b` on `threads` threads, windows of chunks
/// at a time, handing each finished window (in game order) to `sink` on
/// another thread while the next window is played.
fn drive(
    b: &Batch,
    range: std::ops::Range<u64>,
    threads: usize,
    emit: bool,
    with_moves: bool,
    mut sink: impl FnMut(Vec<ChunkOut>) -> Result<(), Error> + Send,
) -> Result<(), Error> {
    let pool = pool(threads)?;
    let chunk = chunk_size(range.end - range.start, threads);
    let window = chunk * threads as u64 * 16;
    let (tx, rx) = sync_channel::<Vec<ChunkOut>>(1);
    std::thread::scope(|s| {
        let writer = s.spawn(move || -> Result<(), Error> {
            for w in rx {
                sink(w)?;
            }
            Ok(())
        });
        let mut next = range.start;
        let mut failed = None;
        while next < range.end {
            let end = range.end.min(next + window);
            let chunks: Vec<std::ops::Range<u64>> =
                (next..end).step_by(chunk as usize).map(|a| a..(a + chunk).min(end)).collect();
            let out: io::Result<Vec<ChunkOut>> =
                pool.install(|| chunks.into_par_iter().map(|r| run_chunk(b, r, emit, with_moves)).collect());
            match out {
                Ok(out) => {
                    if tx.send(out).is_err() {
                        break; // The writer stopped with an error, reported below.
                    }
                }
                Err(e) => {
                    failed = Some(Error::Invalid(format!("cannot format rows: {e}")));
                    break;
                }
            }
            next = end;
        }
        drop(tx);
        let written = writer.join().unwrap_or_else(|_| Err(Error::Invalid("the writer thread panicked".into())));
        written?;
        failed.map_or(Ok(()), Err)
    })
}

/// Plays a batch without writing anything: the summary and the seconds taken.
pub fn simulate(b: &Batch, threads: usize) -> Result<(Summary, f64), Error> {
    let key = b.matchup.key();
    let mut summary = Summary::default();
    let started = Instant::now();
    drive(b, b.shard.range(b.games), threads, false, false, |w| {
        for c in w {
            summary.merge_tally(&key, &c.tally);
        }
        Ok(())
    })?;
    Ok((summary, started.elapsed().as_secs_f64()))
}

fn header_bytes(h: &[&str]) -> Vec<u8> {
    let mut w = csv_writer();
    w.write_record(h).expect("writing to memory");
    w.into_inner().expect("writing to memory")
}

/// Truncates `f` after its last newline (dropping a row cut short by an
/// interruption); returns the new length.
fn truncate_to_last_line(f: &mut File) -> io::Result<u64> {
    let len = f.seek(SeekFrom::End(0))?;
    let mut end = len;
    let mut buf = vec![0u8; 1 << 16];
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        let n = (end - start) as usize;
        f.seek(SeekFrom::Start(start))?;
        f.read_exact(&mut buf[..n])?;
        if let Some(i) = buf[..n].iter().rposition(|&c| c == b'\n') {
            let keep = start + i as u64 + 1;
            f.set_len(keep)?;
            f.seek(SeekFrom::End(0))?;
            return Ok(keep);
        }
        end = start;
    }
    f.set_len(0)?;
    f.seek(SeekFrom::Start(0))?;
    Ok(0)
}

/// Reads one games-file row back: game index, batch seed, matchup key and summary.
pub fn parse_game_row(r: &csv::StringRecord) -> Result<(u64, u64, PairKey, GameSummary), String> {
    if r.len() != GAMES_HEADER.len() {
        return Err(format!("{} fields instead of {}", r.len(), GAMES_HEADER.len()));
    }
    let num = |i: usize| r[i].parse::<u64>().map_err(|_| format!("{} `{}` is not a number", GAMES_HEADER[i], &r[i]));
    let winner = match &r[7] {
        "red" => Some(Side::Red),
        "blue" => Some(Side::Blue),
        "draw" => None,
        w => return Err(format!("winner `{w}` is not red, blue or draw")),
    };
    let reason = match &r[8] {
        "majority" => EndReason::Majority,
        "repetition" => EndReason::Repetition,
        "closure" => EndReason::Closure,
        "block" => EndReason::Block,
        w => return Err(format!("reason `{w}` is not majority, repetition, closure or block")),
    };
    let key = PairKey { red: r[3].into(), blue: r[4].into(), draft_red: r[5].into(), draft_blue: r[6].into() };
    let g = GameSummary { winner, reason, play_len: num(12)? as u32, legal_sum: num(13)? };
    Ok((num(0)?, num(1)?, key, g))
}

/// Checks that the CSV header of `path` is `header`.
fn check_header<R: Read>(rdr: &mut csv::Reader<R>, path: &Path, header: &[&str]) -> Result<(), Error> {
    let h = rdr.headers().map_err(|e| io_err("read", path, e))?;
    if h.iter().ne(header.iter().copied()) {
        return Err(Error::Identity {
            path: path.to_path_buf(),
            message: format!("not a senat selfplay file: its header is not `{}`", header.join(",")),
        });
    }
    Ok(())
}

/// A games or moves file opened for reading: its identity and a CSV reader
/// positioned at the header.
struct Reading {
    id: Identity,
    rdr: csv::Reader<io::BufReader<File>>,
}

/// Opens `path` and reads its identity line; `Ok(None)` for an empty file.
fn open_reading(path: &Path) -> Result<Option<Reading>, Error> {
    let f = File::open(path).map_err(|e| io_err("read", path, e))?;
    let mut r = io::BufReader::with_capacity(1 << 20, f);
    if r.fill_buf().map_err(|e| io_err("read", path, e))?.is_empty() {
        return Ok(None);
    }
    let id = match identity::read_identity(&mut r).map_err(|e| io_err("read", path, e))? {
        None => return Err(Error::Identity { path: path.into(), message: identity::NO_IDENTITY.into() }),
        Some(Err(e)) => return Err(Error::Identity { path: path.into(), message: format!("bad batch identity: {e}") }),
        Some(Ok(id)) => id,
    };
    Ok(Some(Reading { id, rdr: csv::Reader::from_reader(r) }))
}

/// The line of the current record in the file (the identity line comes first).
fn file_line(rec_line: Option<&csv::Position>) -> u64 {
    rec_line.map_or(0, |p| p.line() + 1)
}

fn mismatch(path: &Path, what: &str, d: (String, String, String)) -> Error {
    let (key, file, run) = d;
    Error::Identity {
        path: path.to_path_buf(),
        message: format!(
            "{what}: the file has {key}={file}, this run {key}={run} (a resumed run repeats the batch's arguments)"
        ),
    }
}

/// Resumes the games file: checks its identity, drops a cut-off last row,
/// checks the rows, and returns the summary of the rows so far and the
/// next game index.
fn resume_games(id: &Identity, out: &mut OutFile) -> Result<(Summary, u64), Error> {
    let path = out.path().to_path_buf();
    let actual = out.writing().to_path_buf();
    let start = id.shard.range(id.games).start;
    // Empty, or an identity line cut short: the run died before its first row.
    let existing = if holds_prefix_of(&actual, &id.line())? { None } else { open_reading(&actual)? };
    if let Some(r) = &existing
        && let Some(d) = r.id.difference(id, false)
    {
        return Err(mismatch(&path, "cannot resume: it holds another batch", d));
    }
    let len = truncate_to_last_line(out.file()).map_err(|e| io_err("repair", &path, e))?;
    let mut summary = Summary::default();
    let mut next = start;
    let id_len = id.line().len() as u64;
    if existing.is_none() {
        out.file().set_len(0).map_err(|e| io_err("repair", &path, e))?;
        out.file().seek(SeekFrom::Start(0)).map_err(|e| io_err("repair", &path, e))?;
        out.write_all(id.line().as_bytes())?;
        out.write_all(&header_bytes(&GAMES_HEADER))?;
        return Ok((summary, next));
    }
    if len == id_len {
        out.write_all(&header_bytes(&GAMES_HEADER))?;
        return Ok((summary, next));
    }
    let Some(mut r) = open_reading(&actual)? else { return Err(changed(&path)) };
    check_header(&mut r.rdr, &path, &GAMES_HEADER)?;
    let mut rec = csv::StringRecord::new();
    while r.rdr.read_record(&mut rec).map_err(|e| io_err("read", &path, e))? {
        let line = file_line(rec.position());
        let (k, g) = identity::check_row(&rec, id, next).map_err(|message| Error::BadRow {
            path: path.clone(),
            line,
            message: format!("cannot resume: {message}"),
        })?;
        summary.add(&k, &g);
        next += 1;
    }
    Ok((summary, next))
}

/// Whether `path` holds no more than a beginning of `line` (empty, or an
/// identity line cut short by a kill).
fn holds_prefix_of(path: &Path, line: &str) -> Result<bool, Error> {
    let len = std::fs::metadata(path).map_err(|e| io_err("read", path, e))?.len();
    if len >= line.len() as u64 {
        return Ok(false);
    }
    let bytes = std::fs::read(path).map_err(|e| io_err("read", path, e))?;
    Ok(line.as_bytes().starts_with(&bytes))
}

fn changed(path: &Path) -> Error {
    io_err("read", path, "the file changed while it was read")
}

/// Resumes the moves file: checks its identity and drops rows of games at
/// or after `next`.
fn resume_moves(id: &Identity, out: &mut OutFile, next: u64, start: u64) -> Result<(), Error> {
    let path = out.path().to_path_buf();
    let actual = out.writing().to_path_buf();
    let existing = if holds_prefix_of(&actual, &id.line())? { None } else { open_reading(&actual)? };
    if let Some(r) = &existing
        && let Some(d) = r.id.difference(id, false)
    {
        return Err(mismatch(&path, "cannot resume: it is the moves file of another batch", d));
    }
    let len = truncate_to_last_line(out.file()).map_err(|e| io_err("repair", &path, e))?;
    let id_len = id.line().len() as u64;
    if existing.is_none() || len <= id_len {
        if next > start {
            return Err(Error::Incomplete(format!(
                "cannot resume {}: it has no rows but the games file has",
                path.display()
            )));
        }
        out.file().set_len(0).map_err(|e| io_err("repair", &path, e))?;
        out.file().seek(SeekFrom::Start(0)).map_err(|e| io_err("repair", &path, e))?;
        out.write_all(id.line().as_bytes())?;
        out.write_all(&header_bytes(&MOVES_HEADER))?;
        return Ok(());
    }
    let Some(mut r) = open_reading(&actual)? else { return Err(changed(&path)) };
    check_header(&mut r.rdr, &path, &MOVES_HEADER)?;
    let mut rec = csv::ByteRecord::new();
    let mut cut = None;
    let mut last = None;
    while r.rdr.read_byte_record(&mut rec).map_err(|e| io_err("read", &path, e))? {
        let g: u64 = std::str::from_utf8(&rec[0]).ok().and_then(|s| s.parse().ok()).ok_or_else(|| Error::BadRow {
            path: path.clone(),
            line: file_line(rec.position()),
            message: "a row without a game index".into(),
        })?;
        if g >= next {
            cut = rec.position().map(|p| p.byte() + id_len);
            break;
        }
        last = Some(g);
    }
    if next > start && last != Some(next - 1) && cut.is_none() {
        return Err(Error::Incomplete(format!(
            "cannot resume {}: it stops before game {} of the games file",
            path.display(),
            next - 1
        )));
    }
    if let Some(cut) = cut {
        out.file().set_len(cut).map_err(|e| io_err("repair", &path, e))?;
    }
    out.file().seek(SeekFrom::End(0)).map_err(|e| io_err("repair", &path, e))?;
    Ok(())
}

/// Which file a resumed output continues: the output itself if it exists,
/// else its `.partial` file if an interrupted run left one, else none.
fn resumable(path: &Path) -> Result<Option<PathBuf>, Error> {
    let loc = Located::new(path)?;
    if loc.is_file() {
        return Ok(Some(path.to_path_buf()));
    }
    if loc.meta.is_none() {
        let partial = output::partial_path(path);
        if partial.is_file() {
            return Ok(Some(partial));
        }
    }
    Ok(None)
}

/// Writes the summary CSV to an output (then commits it).
pub fn write_summary(mut out: OutFile, s: &Summary) -> Result<(), Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in std::iter::once(SUMMARY_HEADER.map(String::from)).chain(s.rows()) {
        w.write_record(&row).map_err(|e| io_err("write", out.path(), e))?;
    }
    let bytes = w.into_inner().map_err(|e| io_err("write", out.path(), e.error()))?;
    out.write_all(&bytes)?;
    out.commit()
}

/// The identity of batch `b` (reading and hashing its weights files).
pub fn identity_of(b: &Batch) -> Result<Identity, Error> {
    let m = &b.matchup;
    let id = |s: &PolicySpec| PolicyId::of(s).map_err(Error::Invalid);
    Ok(Identity {
        seed: b.seed,
        games: b.games,
        shard: b.shard,
        policies: [id(&m.red)?, id(&m.blue)?, id(&m.draft_red)?, id(&m.draft_blue)?],
        opening: opening_text(&b.opening),
    })
}

/// Runs a batch into files; `progress` is told the number of games done
/// (resumed ones included) after each window.
///
/// Before the first game every output is resolved, checked to be distinct
/// from the others and from the weights files, locked and created (as
/// `PATH.partial`); at the end each is renamed into place. `--resume`
/// continues `PATH` (or the `PATH.partial` left by a killed run) only if
/// its identity is the batch's.
pub fn run(b: &Batch, out: &Outputs, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> Result<Report, Error> {
    if b.games == 0 {
        return Err(Error::Invalid("--games 0: the batch must have at least 1 game".into()));
    }
    check_opening(&b.opening).map_err(|(i, e)| Error::Invalid(format!("opening move {}: {e}", i + 1)))?;
    let id = identity_of(b)?;
    let m = &b.matchup;
    let weights = identity::weight_inputs([&m.red, &m.blue, &m.draft_red, &m.draft_blue]);
    let inputs: Vec<(&str, &Path)> = weights.iter().map(|w| ("the weights file", w.as_path())).collect();
    let mut outputs: Vec<(&str, &Path)> = vec![("--out", &out.games)];
    outputs.extend(out.moves.as_deref().map(|p| ("--moves", p)));
    outputs.extend(out.summary.as_deref().map(|p| ("--summary", p)));
    output::check_distinct(&inputs, &outputs)?;

    let range = b.shard.range(b.games);
    let resume = out.existing == Existing::Resume;
    let fresh = |path: &Path| {
        OutFile::create(
            path,
            if out.existing == Existing::Overwrite {
                IfExists::Overwrite
            } else {
                IfExists::Refuse { resumable: true }
            },
        )
    };
    let games_old = if resume { resumable(&out.games)? } else { None };
    let moves_old = match (&out.moves, resume) {
        (Some(m), true) => resumable(m)?,
        _ => None,
    };
    if let (Some(m), None, Some(old)) = (&out.moves, &games_old, &moves_old)
        && old.as_path() == m.as_path()
    {
        return Err(Error::Identity {
            path: m.clone(),
            message: format!(
                "cannot resume: the moves file exists but the games file {} does not, so it belongs to another run; \
                 remove it, or run without --resume and with --force to replace both",
                out.games.display()
            ),
        });
    }
    let mut games_file = match &games_old {
        Some(actual) => OutFile::resume(&out.games, actual)?,
        None => fresh(&out.games)?,
    };
    let (mut summary, next) = if games_old.is_some() {
        resume_games(&id, &mut games_file)?
    } else {
        games_file.write_all(id.line().as_bytes())?;
        games_file.write_all(&header_bytes(&GAMES_HEADER))?;
        (Summary::default(), range.start)
    };
    if next > range.end {
        return Err(Error::Incomplete(format!(
            "cannot resume {}: it holds games up to {}, beyond its range {}..{}",
            out.games.display(),
            next - 1,
            range.start,
            range.end
        )));
    }
    let mut moves_file = match &out.moves {
        Some(path) => match (&moves_old, games_old.is_some()) {
            (Some(actual), true) => {
                let mut f = OutFile::resume(path, actual)?;
                resume_moves(&id, &mut f, next, range.start)?;
                Some(f)
            }
            _ if next > range.start => {
                return Err(Error::Incomplete(format!(
                    "cannot resume: {} is missing but {} has games",
                    path.display(),
                    out.games.display()
                )));
            }
            _ => {
                let mut f = if resume { OutFile::create(path, IfExists::Overwrite)? } else { fresh(path)? };
                f.write_all(id.line().as_bytes())?;
                f.write_all(&header_bytes(&MOVES_HEADER))?;
                Some(f)
            }
        },
        None => None,
    };
    // The summary is rewritten from all rows, so a resumed run replaces it.
    let summary_file = match &out.summary {
        Some(p) => Some(OutFile::create(
            p,
            if out.existing == Existing::Refuse { IfExists::Refuse { resumable: true } } else { IfExists::Overwrite },
        )?),
        None => None,
    };
    games_file.keep_on_failure();
    if let Some(f) = moves_file.as_mut() {
        f.keep_on_failure();
    }
    let resumed = next - range.start;
    let key = b.matchup.key();
    let started = Instant::now();
    let mut done = resumed;
    progress(done);
    let with_moves = moves_file.is_some();
    {
        let summary = &mut summary;
        let games_file = &mut games_file;
        let moves_file = &mut moves_file;
        drive(b, next..range.end, threads, true, with_moves, move |w| {
            // Moves first, then games: a resumed games file never runs ahead of its moves file.
            if let Some(f) = moves_file.as_mut() {
                f.write_all(&concat(w.iter().map(|c| &c.moves[..])))?;
            }
            games_file.write_all(&concat(w.iter().map(|c| &c.games[..])))?;
            for c in &w {
                summary.merge_tally(&key, &c.tally);
                done += c.tally.games;
            }
            progress(done);
            Ok(())
        })?;
    }
    // Moves first: a games file in place always has its moves file in place.
    if let Some(f) = moves_file {
        f.commit()?;
    }
    games_file.commit()?;
    let seconds = started.elapsed().as_secs_f64();
    if let Some(f) = summary_file {
        write_summary(f, &summary)?;
    }
    Ok(Report { summary, played: range.end - next, resumed, seconds })
}

/// The parts joined into one buffer (written with one `write_all`, so that
/// an interruption cuts at most the last row).
fn concat<'a>(parts: impl Iterator<Item = &'a [u8]> + Clone) -> Vec<u8> {
    let mut all = Vec::with_capacity(parts.clone().map(<[u8]>::len).sum());
    for p in parts {
        all.extend_from_slice(p);
    }
    all
}

/// Joins the games files of the shards of one batch (in any order) into
/// `out`, and writes the summary of all games to `summary`.
///
/// It proves the inputs are exactly one complete batch, or refuses with the
/// reason: every file has a batch identity, all identities agree except the
/// shard, shards `1..N` are each given exactly once, each file holds
/// exactly its shard's games in order, and every row is possible
/// ([`identity::check_row`]). The outputs are written to temporary files
/// and renamed into place only when everything passed, so a failed or
/// killed merge leaves the old files (or none).
pub fn merge(inputs: &[PathBuf], out: &Path, summary: Option<&Path>, overwrite: bool) -> Result<Summary, Error> {
    if inputs.is_empty() {
        return Err(Error::Invalid("merge: no input files".into()));
    }
    let ins: Vec<(&str, &Path)> = inputs.iter().map(|p| ("input", p.as_path())).collect();
    let mut outs = vec![("--out", out)];
    outs.extend(summary.map(|p| ("--summary", p)));
    output::check_distinct(&ins, &outs)?;
    let if_exists = if overwrite { IfExists::Overwrite } else { IfExists::Refuse { resumable: false } };
    // Identities first: a set of shards that is not one batch fails before anything is written.
    let mut shards: Vec<(Identity, &Path)> = Vec::new();
    for path in inputs {
        let r = open_reading(path)?.ok_or_else(|| Error::Identity {
            path: path.clone(),
            message: "empty file (a shard that never started?)".into(),
        })?;
        shards.push((r.id, path));
    }
    let (first, first_path) = shards[0].clone();
    for (id, path) in &shards[1..] {
        if let Some((key, a, b)) = first.difference(id, true) {
            return Err(Error::Incomplete(format!(
                "{} and {} are not shards of one batch: {key}={a} in the first, {key}={b} in the second",
                first_path.display(),
                path.display()
            )));
        }
        if id.shard.n != first.shard.n {
            return Err(Error::Incomplete(format!(
                "{} and {} are not shards of one batch: shard {}/{} and shard {}/{}",
                first_path.display(),
                path.display(),
                first.shard.k,
                first.shard.n,
                id.shard.k,
                id.shard.n
            )));
        }
    }
    shards.sort_by_key(|(id, _)| id.shard.k);
    for w in shards.windows(2) {
        if w[0].0.shard.k == w[1].0.shard.k {
            return Err(Error::Incomplete(format!(
                "shard {}/{} is given twice: {} and {}",
                w[0].0.shard.k,
                first.shard.n,
                w[0].1.display(),
                w[1].1.display()
            )));
        }
    }
    let n = first.shard.n;
    let missing: Vec<String> = (1..=n)
        .filter(|k| !shards.iter().any(|(id, _)| id.shard.k == *k))
        .map(|k| {
            let r = Shard { k, n }.range(first.games);
            format!("shard {k} of {n} (games {}..{})", r.start, r.end)
        })
        .collect();
    if !missing.is_empty() {
        return Err(Error::Incomplete(format!(
            "the files are not a complete batch: missing {} (seed {}, {} games)",
            missing.join(", "),
            first.seed,
            first.games
        )));
    }
    let merged = Identity { shard: Shard::ALL, ..first.clone() };
    let mut games_out = OutFile::create(out, if_exists)?;
    let summary_out = summary.map(|p| OutFile::create(p, if_exists)).transpose()?;
    let mut buf =
        io::BufWriter::with_capacity(1 << 20, games_out.file().try_clone().map_err(|e| io_err("write", out, e))?);
    buf.write_all(merged.line().as_bytes()).map_err(|e| io_err("write", out, e))?;
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(buf);
    let werr = |e: csv::Error| io_err("write", out, e);
    w.write_record(GAMES_HEADER).map_err(werr)?;
    let mut all = Summary::default();
    for (id, path) in &shards {
        // Every row must end with a newline: a cut-off last row is an interrupted shard.
        let mut tail = Vec::new();
        let mut f = File::open(path).map_err(|e| io_err("read", path, e))?;
        if f.seek(SeekFrom::End(-1)).is_ok() {
            f.read_to_end(&mut tail).map_err(|e| io_err("read", path, e))?;
        }
        if tail != b"\n" {
            return Err(Error::Incomplete(format!(
                "{} ends with an incomplete row (an interrupted run? continue it with --resume)",
                path.display()
            )));
        }
        let mut r = open_reading(path)?.ok_or_else(|| changed(path))?;
        check_header(&mut r.rdr, path, &GAMES_HEADER)?;
        let range = id.shard.range(id.games);
        let mut next = range.start;
        let mut rec = csv::StringRecord::new();
        while r.rdr.read_record(&mut rec).map_err(|e| io_err("read", path, e))? {
            let line = file_line(rec.position());
            let (key, g) = identity::check_row(&rec, id, next).map_err(|message| Error::BadRow {
                path: path.to_path_buf(),
                line,
                message,
            })?;
            all.add(&key, &g);
            w.write_record(&rec).map_err(werr)?;
            next += 1;
        }
        if next != range.end {
            return Err(Error::Incomplete(format!(
                "{} (shard {}/{}) stops after {} of its {} games {}..{}: an interrupted run? continue it with --resume",
                path.display(),
                id.shard.k,
                id.shard.n,
                next - range.start,
                range.end - range.start,
                range.start,
                range.end
            )));
        }
    }
    w.flush().map_err(|e| io_err("write", out, e))?;
    drop(w);
    games_out.commit()?;
    if let Some(s) = summary_out {
        write_summary(s, &all)?;
    }
    Ok(all)
}
