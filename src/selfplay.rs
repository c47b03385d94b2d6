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
//! This module drives policies and the rules; it never decides a move
//! itself, never draws randomness outside a game's own generator, and never
//! overwrites an existing file unless asked to (`force` or `resume`).

use crate::board::Cell;
use crate::dice::Side;
use crate::game::{EndReason, Game, Outcome};
use crate::moves::{Dest, Move, MoveKind};
use crate::policy::{GameRng, Policy, PolicySpec, Turn, mix64, rng_from_seed};
use crate::position::{CLOSURE, Position};
use crate::stats::{GameSummary, PairKey, SUMMARY_HEADER, Summary, Tally};
use rayon::prelude::*;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::sync_channel;
use std::time::Instant;

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

/// Plays one complete game from the start of the draft with generator `rng`.
fn play_with(players: &mut Players, rng: &mut GameRng, keep_legal: bool) -> PlayedGame {
    for p in players.draft.iter_mut().chain(players.play.iter_mut()) {
        p.new_game();
    }
    let mut game = Game::new(Position::start());
    let mut draft_len = 0;
    let mut legal = Vec::new();
    let mut legal_sum = 0u64;
    let outcome = loop {
        // The end checks of `Game::outcome`, in the rules' order (majority,
        // repetition, closure, block), sharing one move count with the policy.
        let p = game.position();
        if let Some(side) = p.majority() {
            break Outcome { winner: Some(side), reason: EndReason::Majority };
        }
        let play = p.is_play();
        if play {
            if game.occurrences() >= 3 {
                break Outcome::by_piles(p.piles(), EndReason::Repetition);
            }
            if p.clock() >= CLOSURE {
                break Outcome::by_piles(p.piles(), EndReason::Closure);
            }
        }
        let turn = Turn::new(&game);
        let n = turn.legal;
        if n == 0 {
            break Outcome::by_piles(p.piles(), EndReason::Block);
        }
        if play {
            legal_sum += n as u64;
        }
        if keep_legal {
            legal.push(n as u16);
        }
        let side = p.side_to_move() as usize;
        let m = if play {
            players.play[side].choose(&turn, rng)
        } else {
            draft_len += 1;
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
    play_with(&mut players, &mut rng, true)
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

/// Why a batch failed: one line for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

fn io_err(what: &str, path: &Path, e: impl std::fmt::Display) -> Error {
    Error(format!("cannot {what} {}: {e}", path.display()))
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
        let g = play_with(&mut players, &mut rng, with_moves);
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
        .map_err(|e| Error(format!("cannot start {threads} threads: {e}")))
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
                    failed = Some(Error(format!("cannot format rows: {e}")));
                    break;
                }
            }
            next = end;
        }
        drop(tx);
        let written = writer.join().unwrap_or_else(|_| Err(Error("the writer thread panicked".into())));
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

/// Checks that `path` starts with `header`.
fn check_header<R: Read>(rdr: &mut csv::Reader<R>, path: &Path, header: &[&str]) -> Result<(), Error> {
    let h = rdr.headers().map_err(|e| io_err("read", path, e))?;
    if h.iter().ne(header.iter().copied()) {
        return Err(Error(format!(
            "{} is not a senat selfplay file: its header is not `{}`",
            path.display(),
            header.join(",")
        )));
    }
    Ok(())
}

/// Resumes the games file: drops a cut-off last row, checks the rows, and
/// returns the summary of the rows so far and the next game index.
fn resume_games(b: &Batch, path: &Path, f: &mut File, start: u64) -> Result<(Summary, u64), Error> {
    let len = truncate_to_last_line(f).map_err(|e| io_err("repair", path, e))?;
    let mut summary = Summary::default();
    if len == 0 {
        f.write_all(&header_bytes(&GAMES_HEADER)).map_err(|e| io_err("write", path, e))?;
        return Ok((summary, start));
    }
    let reader = File::open(path).map_err(|e| io_err("read", path, e))?;
    let mut rdr = csv::Reader::from_reader(io::BufReader::with_capacity(1 << 20, reader));
    check_header(&mut rdr, path, &GAMES_HEADER)?;
    let key = b.matchup.key();
    let mut next = start;
    let mut rec = csv::StringRecord::new();
    while rdr.read_record(&mut rec).map_err(|e| io_err("read", path, e))? {
        let line = rec.position().map_or(0, |p| p.line());
        let bad = |msg: String| Error(format!("cannot resume {}: line {line}: {msg}", path.display()));
        let (i, seed, k, g) = parse_game_row(&rec).map_err(bad)?;
        if i != next {
            return Err(bad(format!("game {i} where game {next} was expected (shard {}/{})", b.shard.k, b.shard.n)));
        }
        if seed != b.seed {
            return Err(bad(format!("the file was made with --seed {seed}, not {}", b.seed)));
        }
        if k != key {
            return Err(bad(format!("the file was made by {}, not {}", k.label(), key.label())));
        }
        summary.add(&k, &g);
        next += 1;
    }
    Ok((summary, next))
}

/// Resumes the moves file: drops rows of games at or after `next`.
fn resume_moves(path: &Path, f: &mut File, next: u64, start: u64) -> Result<(), Error> {
    let len = truncate_to_last_line(f).map_err(|e| io_err("repair", path, e))?;
    if len == 0 {
        if next > start {
            return Err(Error(format!("cannot resume {}: it is empty but the games file is not", path.display())));
        }
        f.write_all(&header_bytes(&MOVES_HEADER)).map_err(|e| io_err("write", path, e))?;
        return Ok(());
    }
    let reader = File::open(path).map_err(|e| io_err("read", path, e))?;
    let mut rdr = csv::Reader::from_reader(io::BufReader::with_capacity(1 << 20, reader));
    check_header(&mut rdr, path, &MOVES_HEADER)?;
    let mut rec = csv::ByteRecord::new();
    let mut cut = None;
    let mut last = None;
    while rdr.read_byte_record(&mut rec).map_err(|e| io_err("read", path, e))? {
        let g: u64 = std::str::from_utf8(&rec[0])
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| Error(format!("cannot resume {}: a row without a game index", path.display())))?;
        if g >= next {
            cut = rec.position().map(|p| p.byte());
            break;
        }
        last = Some(g);
    }
    if next > start && last != Some(next - 1) && cut.is_none() {
        return Err(Error(format!(
            "cannot resume {}: it stops before game {} of the games file",
            path.display(),
            next - 1
        )));
    }
    if let Some(cut) = cut {
        f.set_len(cut).map_err(|e| io_err("repair", path, e))?;
    }
    f.seek(SeekFrom::End(0)).map_err(|e| io_err("repair", path, e))?;
    Ok(())
}

/// Opens an output file for a fresh run, refusing to overwrite unless allowed.
fn create(path: &Path, overwrite: bool) -> Result<File, Error> {
    let mut o = OpenOptions::new();
    o.write(true);
    if overwrite {
        o.create(true).truncate(true);
    } else {
        o.create_new(true);
    }
    o.open(path).map_err(|e| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            Error(format!("{} already exists; pass --force to overwrite it or --resume to continue it", path.display()))
        } else {
            io_err("create", path, e)
        }
    })
}

/// Checks before any work that no output would be overwritten by mistake.
fn check_outputs(o: &Outputs) -> Result<(), Error> {
    let mut paths: Vec<&Path> = vec![&o.games];
    paths.extend(o.moves.as_deref());
    paths.extend(o.summary.as_deref());
    for (i, a) in paths.iter().enumerate() {
        if paths[..i].contains(a) {
            return Err(Error(format!("{} is named as two outputs", a.display())));
        }
    }
    if o.existing == Existing::Refuse {
        for p in paths {
            if p.exists() {
                return Err(Error(format!(
                    "{} already exists; pass --force to overwrite it or --resume to continue it",
                    p.display()
                )));
            }
        }
    }
    Ok(())
}

/// Flushes a regular file to disk (a full disk can show up only here);
/// devices and pipes (`/dev/null`) are left alone.
fn sync(f: &File, path: &Path) -> Result<(), Error> {
    if f.metadata().is_ok_and(|m| m.is_file()) {
        f.sync_data().map_err(|e| io_err("write", path, e))?;
    }
    Ok(())
}

/// Writes the summary CSV.
pub fn write_summary(path: &Path, s: &Summary, overwrite: bool) -> Result<(), Error> {
    let f = create(path, overwrite)?;
    let mut w = csv::Writer::from_writer(io::BufWriter::new(f));
    let res = (|| -> Result<(), csv::Error> {
        w.write_record(SUMMARY_HEADER)?;
        for row in s.rows() {
            w.write_record(&row)?;
        }
        w.flush()?;
        Ok(())
    })();
    res.map_err(|e| io_err("write", path, e))
}

/// Runs a batch into files; `progress` is told the number of games done
/// (resumed ones included) after each window.
pub fn run(b: &Batch, out: &Outputs, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> Result<Report, Error> {
    if b.games == 0 {
        return Err(Error("--games 0: the batch must have at least 1 game".into()));
    }
    check_outputs(out)?;
    let range = b.shard.range(b.games);
    let resume = out.existing == Existing::Resume;
    let open = |path: &Path| -> Result<(File, bool), Error> {
        if resume && path.exists() {
            let f = OpenOptions::new().read(true).write(true).open(path).map_err(|e| io_err("open", path, e))?;
            Ok((f, true))
        } else {
            Ok((create(path, out.existing == Existing::Overwrite)?, false))
        }
    };
    let (mut games_file, games_old) = open(&out.games)?;
    let (mut summary, next) = if games_old {
        resume_games(b, &out.games, &mut games_file, range.start)?
    } else {
        games_file.write_all(&header_bytes(&GAMES_HEADER)).map_err(|e| io_err("write", &out.games, e))?;
        (Summary::default(), range.start)
    };
    let mut moves_file = match &out.moves {
        Some(path) => {
            let (mut f, old) = open(path)?;
            if old {
                resume_moves(path, &mut f, next, range.start)?;
            } else if next > range.start {
                return Err(Error(format!(
                    "cannot resume: {} is missing but {} has games",
                    path.display(),
                    out.games.display()
                )));
            } else {
                f.write_all(&header_bytes(&MOVES_HEADER)).map_err(|e| io_err("write", path, e))?;
            }
            Some((path.clone(), f))
        }
        None => None,
    };
    let resumed = next - range.start;
    let key = b.matchup.key();
    let started = Instant::now();
    let mut done = resumed;
    progress(done);
    let with_moves = moves_file.is_some();
    {
        let summary = &mut summary;
        let games_path = out.games.clone();
        let games_file = &mut games_file;
        let moves_file = &mut moves_file;
        drive(b, next..range.end, threads, true, with_moves, move |w| {
            // Moves first, then games: a resumed games file never runs ahead of its moves file.
            if let Some((path, f)) = moves_file.as_mut() {
                f.write_all(&concat(w.iter().map(|c| &c.moves[..]))).map_err(|e| io_err("write", path, e))?;
            }
            let bytes = concat(w.iter().map(|c| &c.games[..]));
            games_file.write_all(&bytes).map_err(|e| io_err("write", &games_path, e))?;
            for c in &w {
                summary.merge_tally(&key, &c.tally);
                done += c.tally.games;
            }
            progress(done);
            Ok(())
        })?;
    }
    sync(&games_file, &out.games)?;
    if let Some((path, f)) = &moves_file {
        sync(f, path)?;
    }
    let seconds = started.elapsed().as_secs_f64();
    if let Some(path) = &out.summary {
        write_summary(path, &summary, out.existing != Existing::Refuse)?;
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

/// Concatenates games files (shards of one batch, in any order) into `out`,
/// checking that their game indices follow each other without gap or
/// overlap; returns the summary of all games.
pub fn merge(inputs: &[PathBuf], out: &Path, overwrite: bool) -> Result<Summary, Error> {
    if inputs.is_empty() {
        return Err(Error("merge: no input files".into()));
    }
    if inputs.iter().any(|p| p == out) {
        return Err(Error(format!("merge: {} is both an input and the output", out.display())));
    }
    // First game index of each file, to order them.
    let mut firsts = Vec::new();
    for path in inputs {
        let f = File::open(path).map_err(|e| io_err("read", path, e))?;
        let mut bytes = Vec::new();
        let len = f.metadata().map_err(|e| io_err("read", path, e))?.len();
        if len > 0 {
            let mut f2 = File::open(path).map_err(|e| io_err("read", path, e))?;
            f2.seek(SeekFrom::End(-1)).map_err(|e| io_err("read", path, e))?;
            f2.read_to_end(&mut bytes).map_err(|e| io_err("read", path, e))?;
        }
        if bytes != b"\n" {
            return Err(Error(format!(
                "{} ends with an incomplete row (an interrupted run? continue it with --resume)",
                path.display()
            )));
        }
        let mut rdr = csv::Reader::from_reader(io::BufReader::new(f));
        check_header(&mut rdr, path, &GAMES_HEADER)?;
        let mut rec = csv::StringRecord::new();
        let first = if rdr.read_record(&mut rec).map_err(|e| io_err("read", path, e))? {
            Some(parse_game_row(&rec).map_err(|e| Error(format!("{}: {e}", path.display())))?.0)
        } else {
            None
        };
        firsts.push((first, path.clone()));
    }
    firsts.sort();
    let f = create(out, overwrite)?;
    let mut w = csv::Writer::from_writer(io::BufWriter::with_capacity(1 << 20, f));
    w.write_record(GAMES_HEADER).map_err(|e| io_err("write", out, e))?;
    let mut summary = Summary::default();
    let mut expected: Option<u64> = None;
    let mut seed0: Option<u64> = None;
    for (_, path) in &firsts {
        let f = File::open(path).map_err(|e| io_err("read", path, e))?;
        let mut rdr = csv::Reader::from_reader(io::BufReader::with_capacity(1 << 20, f));
        check_header(&mut rdr, path, &GAMES_HEADER)?;
        let mut rec = csv::StringRecord::new();
        while rdr.read_record(&mut rec).map_err(|e| io_err("read", path, e))? {
            let line = rec.position().map_or(0, |p| p.line());
            let bad = |msg: String| Error(format!("{}:{line}: {msg}", path.display()));
            let (i, seed, key, g) = parse_game_row(&rec).map_err(bad)?;
            match expected {
                Some(e) if i < e => return Err(bad(format!("game {i} appears twice (shards overlap)"))),
                Some(e) if i > e => return Err(bad(format!("games {e}..{} are missing (a shard is missing)", i - 1))),
                _ => {}
            }
            if *seed0.get_or_insert(seed) != seed {
                return Err(bad(format!("seed {seed} differs from the other files' {}", seed0.unwrap_or(0))));
            }
            expected = Some(i + 1);
            summary.add(&key, &g);
            w.write_record(&rec).map_err(|e| io_err("write", out, e))?;
        }
    }
    w.flush().map_err(|e| io_err("write", out, e))?;
    Ok(summary)
}
