//! The strategy annex: what a games file says about the draft and the
//! openings, aggregated in one streaming pass.
//!
//! [`Annex`] reads games files as written by `senat selfplay` and `senat
//! merge` (leading `#` comment lines are skipped) one row at a time into a
//! reused record, and per-move files (`--moves`) for the legal-move counts.
//! Memory is flat: it depends on the number of matchups and on the number of
//! distinct opening lines and first moves, never on the number of games.
//! Every table is keyed by matchup (the four policy columns `red`, `blue`,
//! `draft_red`, `draft_blue` lead every row), so files of several strengths
//! can be read together.
//!
//! [`Annex::tables`] returns the tables as rows of text; writing them is
//! the caller's business (the `draft-stats` command writes them atomically).
//! Rates come with Wilson 95% intervals ([`crate::stats::wilson`]) and the
//! counts they are made of.
//!
//! Who is who in the draft: placement k = 1..23 is made by red when k is odd
//! and by blue when k is even; the other side gave the die just before
//! (blue gives first). The colour of a placed die is the colour its top face
//! shows on that die (white if whitened), counted from the placer's side:
//! `own`, `opponent` or `white`.
//!
//! The first push of the play phase always happens on a full board: before
//! it no die can leave the board or change rows (flips and quarter turns do
//! not move dice, and a move within a row needs a free cell). So a first
//! push from row M into row I always goes into a full row I, and the die it
//! dislodges falls through the door: the rules' "conveyor belt" (tapis
//! roulant). The first push is classified by where its target goes and, for
//! the pushes that score, by the colour of the die that goes through the
//! door, from the pusher's side.

use crate::selfplay::{GAMES_HEADER, MOVES_HEADER, games_header, parse_game_row};
use crate::stats::{GameSummary, PairKey, REASONS, Summary, wilson};
use ahash::AHashMap;
use senat_rules::board::{CELLS, Row};
use senat_rules::dice::{Colour, DICE, Die, Face, Side};
use senat_rules::moves::{Dest, MoveKind};
use senat_rules::notation::parse_move_text;
use std::fmt;
use std::io::Read;

/// How many children of each node of the opening tree are shown; the others
/// are grouped in one `(other)` row.
pub const TREE_TOP: usize = 6;

/// How many first play moves are shown; the others are grouped.
pub const FIRST_MOVES_TOP: usize = 20;

/// A malformed input: the file, the line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnexError {
    /// The file, as given.
    pub file: String,
    /// The line (1-based; 0 when unknown).
    pub line: u64,
    /// What is wrong.
    pub msg: String,
}

impl fmt::Display for AnnexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.msg)
    }
}

impl std::error::Error for AnnexError {}

/// Wins, losses and draws of red and blue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games.
    pub games: u64,
    /// Red wins.
    pub red: u64,
    /// Blue wins.
    pub blue: u64,
    /// Draws.
    pub draws: u64,
}

impl Wdl {
    /// Adds one game won by `w` (`None`: a draw).
    pub fn add(&mut self, w: Option<Side>) {
        self.games += 1;
        match w {
            Some(Side::Red) => self.red += 1,
            Some(Side::Blue) => self.blue += 1,
            None => self.draws += 1,
        }
    }

    /// Adds another count.
    pub fn merge(&mut self, o: &Wdl) {
        self.games += o.games;
        self.red += o.red;
        self.blue += o.blue;
        self.draws += o.draws;
    }
}

/// Results counted from one side's point of view (the placer of a die, the
/// giver, the pusher), whichever colour that side had in each game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Games.
    pub games: u64,
    /// Games that side won.
    pub wins: u64,
    /// Games that side lost.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
}

impl Score {
    /// Adds one game where `side` is the side of interest.
    pub fn add(&mut self, side: Side, w: Option<Side>) {
        self.games += 1;
        match w {
            Some(s) if s == side => self.wins += 1,
            Some(_) => self.losses += 1,
            None => self.draws += 1,
        }
    }
}

/// The colour of a placed or ejected die from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    /// The side's own colour.
    Own = 0,
    /// The other side's colour.
    Opponent = 1,
    /// White (nobody's).
    White = 2,
}

impl Rel {
    /// All three, in index order.
    pub const ALL: [Rel; 3] = [Rel::Own, Rel::Opponent, Rel::White];

    /// `colour` seen by `side`.
    pub fn of(colour: Colour, side: Side) -> Rel {
        match colour.side() {
            Some(s) if s == side => Rel::Own,
            Some(_) => Rel::Opponent,
            None => Rel::White,
        }
    }

    /// `own`, `opponent` or `white`, as in the tables.
    pub const fn name(self) -> &'static str {
        match self {
            Rel::Own => "own",
            Rel::Opponent => "opponent",
            Rel::White => "white",
        }
    }
}

/// The classes of the first push of the play phase (see the module comment).
pub const PUSH_KINDS: [&str; 10] = [
    "conveyor_own",
    "conveyor_opponent",
    "conveyor_white",
    "door_own",
    "door_opponent",
    "door_white",
    "s_to_m",
    "m_to_s",
    "i_to_m",
    "no_push",
];

/// Index of `no_push` in [`PUSH_KINDS`].
const NO_PUSH: usize = 9;

/// A placement class: row (0..3) × colour from the placer's side (0..3).
fn place_class(row: Row, rel: Rel) -> usize {
    row as usize * 3 + rel as usize
}

fn place_class_name(c: usize) -> String {
    format!("{}:{}", Row::ALL[c / 3].letter(), Rel::ALL[c % 3].name())
}

/// Everything counted for one matchup.
#[derive(Clone, Debug)]
pub struct MatchupStats {
    /// The four policy names.
    pub key: PairKey,
    /// Per die (index = number − 1), row (0 = all, 1..=3 = S, M, I) and
    /// colour (0 = all, 1..=3 = own, opponent, white): from the placer's side.
    pub dice: Vec<[[Score; 4]; 4]>,
    /// Per die and placement number (index = k − 1): from the giver's side.
    pub give_order: Vec<[Score; DICE]>,
    /// Per first give (index = die − 1).
    pub first_give: [Wdl; DICE],
    /// Per first placement class (row × colour for red, the placer).
    pub first_place: [Wdl; 9],
    /// Opening lines of the first two gives and placements, packed (see `tree_key`).
    pub tree: AHashMap<u32, Wdl>,
    /// First play moves (blue's), by move text.
    pub first_move: AHashMap<Box<str>, Wdl>,
    /// First push of the play phase, by class of [`PUSH_KINDS`], from the pusher's side.
    pub first_push: [Score; PUSH_KINDS.len()],
    /// Sum of the play plies (1-based) of the first pushes, for their mean.
    pub first_push_ply_sum: u64,
    /// Per end reason (in [`REASONS`] order).
    pub reasons: [Wdl; 4],
}

impl MatchupStats {
    fn new(key: PairKey) -> MatchupStats {
        MatchupStats {
            key,
            dice: vec![[[Score::default(); 4]; 4]; DICE],
            give_order: vec![[Score::default(); DICE]; DICE],
            first_give: [Wdl::default(); DICE],
            first_place: [Wdl::default(); 9],
            tree: AHashMap::new(),
            first_move: AHashMap::new(),
            first_push: [Score::default(); PUSH_KINDS.len()],
            first_push_ply_sum: 0,
            reasons: [Wdl::default(); 4],
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.reasons.iter().map(|w| w.games).sum()
    }
}

/// Packs an opening line: give 1, placement 1, give 2, placement 2 (5, 4,
/// 5, 4 bits; 0 = not in the line, so a prefix is its own key).
fn tree_key(parts: &[u32]) -> u32 {
    let shifts = [0, 5, 9, 14];
    parts.iter().zip(shifts).fold(0, |k, (&p, s)| k | p << s)
}

fn tree_parts(key: u32) -> [u32; 4] {
    [key & 31, key >> 5 & 15, key >> 9 & 31, key >> 14 & 15]
}

fn tree_depth(key: u32) -> usize {
    tree_parts(key).iter().take_while(|&&p| p != 0).count()
}

fn tree_line(key: u32) -> String {
    let p = tree_parts(key);
    let mut s = Vec::new();
    for (i, &x) in p.iter().enumerate() {
        if x == 0 {
            break;
        }
        s.push(if i % 2 == 0 { format!("g{x}") } else { place_class_name(x as usize - 1) });
    }
    s.join(" ")
}

/// Legal-move counts from one per-move file.
#[derive(Clone, Debug, Default)]
pub struct LegalStats {
    /// The file, as given.
    pub name: String,
    /// Per phase (0 = draft, 1 = play): positions per legal-move count.
    pub by_phase: [Vec<u64>; 2],
    /// Per ply (index = ply − 1): phase (0 draft, 1 play) and positions per legal-move count.
    pub by_ply: Vec<(u8, Vec<u64>)>,
}

fn bump(h: &mut Vec<u64>, i: usize) {
    if h.len() <= i {
        h.resize(i + 1, 0);
    }
    h[i] += 1;
}

/// Mean, min, p10, median, p90 and max of a histogram (nearest rank).
pub fn hist_stats(h: &[u64]) -> (u64, f64, [usize; 5]) {
    let n: u64 = h.iter().sum();
    if n == 0 {
        return (0, 0.0, [0; 5]);
    }
    let mean = h.iter().enumerate().map(|(i, &c)| i as f64 * c as f64).sum::<f64>() / n as f64;
    let q = |q: f64| {
        let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (i, &c) in h.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return i;
            }
        }
        h.len() - 1
    };
    (n, mean, [q(0.0), q(0.1), q(0.5), q(0.9), q(1.0)])
}

/// One output table: a file name and its rows (the header first).
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// File name, e.g. `die.csv`.
    pub name: &'static str,
    /// Column names.
    pub header: Vec<&'static str>,
    /// Rows, as text.
    pub rows: Vec<Vec<String>>,
}

/// The aggregation of all the files read so far.
#[derive(Clone, Debug, Default)]
pub struct Annex {
    /// One entry per matchup, in order of first appearance.
    pub matchups: Vec<MatchupStats>,
    /// The usual summary (win shares, lengths, end reasons) per matchup.
    pub summary: Summary,
    /// One entry per moves file read.
    pub legal: Vec<LegalStats>,
}

/// Index of the `draft_moves` column of [`GAMES_HEADER`].
const DRAFT_MOVES: usize = 14;
/// Index of the `play_moves` column of [`GAMES_HEADER`].
const PLAY_MOVES: usize = 15;

/// Index of the `final_spn` column of [`GAMES_HEADER`].
const FINAL_SPN: usize = 16;

/// What is wrong with a row's result, given its final position `spn` in
/// variant `v`, or `None`: the winner must be the final position's for the
/// row's reason (a majority wins by its pile; every other end is decided
/// by the piles under the variant, [`Outcome::counted`]). A final position
/// that does not parse is not judged (hand-made files leave it out; the
/// tables do not read it).
///
/// [`Outcome::counted`]: senat_rules::game::Outcome::counted
pub fn result_problem(spn: &str, g: &GameSummary, v: senat_rules::Variant) -> Option<String> {
    let p = senat_rules::Position::from_spn_in(spn, v).ok()?;
    let winner = match g.reason {
        senat_rules::game::EndReason::Majority => p.majority(),
        reason => senat_rules::game::Outcome::counted(&p, reason).winner,
    };
    let name = |w: Option<Side>| crate::selfplay::winner_name(w);
    (winner != g.winner).then(|| {
        format!(
            "winner `{}` with reason `{}` is not the final position's (final_spn gives `{}`)",
            name(g.winner),
            g.reason.name(),
            name(winner)
        )
    })
}

/// One row of a games file as [`GameRows`] hands it over (owned).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The row's line in the file (1-based).
    pub line: u64,
    /// The game's index (column `game`).
    pub game: u64,
    /// The four policies of the row.
    pub key: PairKey,
    /// Winner, end reason, play length and legal-move sum, as recorded.
    pub summary: GameSummary,
    /// Column `draft_moves`: move text separated by spaces.
    pub draft_moves: String,
    /// Column `play_moves`: move text separated by spaces.
    pub play_moves: String,
}

/// The game rows of a games file written by `senat selfplay` or `senat
/// merge`, streamed one at a time: leading `#` lines are skipped, the header
/// is checked by [`GameRows::new`], each row by [`parse_game_row`]. The
/// single reader of games files with moves: [`Annex::read_games`] borrows
/// each row ([`GameRows::next_parsed`], no allocation per row), other
/// readers iterate over owned [`GameRow`]s.
pub struct GameRows<R> {
    name: String,
    rdr: csv::Reader<R>,
    rec: csv::StringRecord,
}

impl<R: Read> GameRows<R> {
    /// Opens the rows of `reader`, checking the header; `name` is used in
    /// error messages.
    pub fn new(name: &str, reader: R) -> Result<GameRows<R>, AnnexError> {
        let err = |line: u64, msg: String| AnnexError { file: name.to_string(), line, msg };
        let mut rdr = csv::ReaderBuilder::new().comment(Some(b'#')).flexible(true).from_reader(reader);
        let head = rdr.headers().map_err(|e| err(e.position().map_or(1, |p| p.line()), e.to_string()))?.clone();
        // With or without the value-loss columns of a batch with `vary=`.
        let rules = senat_rules::Variant::default();
        if [false, true].iter().all(|&v| head.iter().ne(games_header(rules, v).iter().copied())) {
            let what = if head.iter().any(|h| h == "pairing") {
                "an arena games file has no draft or play moves; draft-stats and metrics read selfplay or merge \
                 games files"
                    .to_string()
            } else if head.iter().any(|h| h == crate::selfplay::codec::SWAP_COLUMN) {
                "a batch of swap=yes (its rows have a `swapped` column): draft-stats and metrics count by colour, \
                 and the decision after the draft may change the player of a colour (not supported)"
                    .to_string()
            } else {
                format!("not a senat games file: its header is not `{}`", GAMES_HEADER.join(","))
            };
            return Err(err(head.position().map_or(1, |p| p.line()), what));
        }
        Ok(GameRows { name: name.to_string(), rdr, rec: csv::StringRecord::new() })
    }

    /// An error at `line` of this file.
    pub fn error(&self, line: u64, msg: impl fmt::Display) -> AnnexError {
        AnnexError { file: self.name.clone(), line, msg: msg.to_string() }
    }

    /// Reads the next row: its line, game index, matchup and summary; the
    /// row itself stays in [`GameRows::record`] until the next call. `None`
    /// at the end of the file.
    pub fn next_parsed(&mut self) -> Option<Result<(u64, u64, PairKey, GameSummary), AnnexError>> {
        match self.rdr.read_record(&mut self.rec) {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => return Some(Err(self.error(e.position().map_or(0, |p| p.line()), e))),
        }
        let line = self.rec.position().map_or(0, |p| p.line());
        Some(parse_game_row(&self.rec).map(|(game, _, key, g)| (line, game, key, g)).map_err(|m| self.error(line, m)))
    }

    /// The row last read by [`GameRows::next_parsed`].
    pub fn record(&self) -> &csv::StringRecord {
        &self.rec
    }
}

impl<R: Read> Iterator for GameRows<R> {
    type Item = Result<GameRow, AnnexError>;

    fn next(&mut self) -> Option<Self::Item> {
        let parsed = self.next_parsed()?;
        Some(parsed.map(|(line, game, key, summary)| GameRow {
            line,
            game,
            key,
            summary,
            draft_moves: self.rec[DRAFT_MOVES].to_string(),
            play_moves: self.rec[PLAY_MOVES].to_string(),
        }))
    }
}

/// The board during the draft and up to the first push: die and top face per cell.
type Board = [Option<(Die, Face)>; CELLS];

fn f6(x: f64) -> String {
    format!("{x:.6}")
}

/// `count, rate, lo, hi` of `k` in `n`.
fn rate_cols(k: u64, n: u64) -> [String; 4] {
    let (lo, hi) = wilson(k, n);
    let r = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    [k.to_string(), f6(r), f6(lo), f6(hi)]
}

const WDL_COLS: [&str; 13] = [
    "games",
    "red_wins",
    "red_rate",
    "red_lo",
    "red_hi",
    "blue_wins",
    "blue_rate",
    "blue_lo",
    "blue_hi",
    "draws",
    "draw_rate",
    "draw_lo",
    "draw_hi",
];

fn wdl_cols(w: &Wdl) -> Vec<String> {
    let mut v = vec![w.games.to_string()];
    for k in [w.red, w.blue, w.draws] {
        v.extend(rate_cols(k, w.games));
    }
    v
}

fn score_cols(s: &Score) -> Vec<String> {
    let mut v = vec![s.games.to_string()];
    for k in [s.wins, s.losses, s.draws] {
        v.extend(rate_cols(k, s.games));
    }
    v
}

fn key_cols(k: &PairKey) -> Vec<String> {
    vec![k.red.clone(), k.blue.clone(), k.draft_red.clone(), k.draft_blue.clone()]
}

const KEY_COLS: [&str; 4] = ["red", "blue", "draft_red", "draft_blue"];

fn header(parts: &[&[&'static str]]) -> Vec<&'static str> {
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

impl Annex {
    /// An empty aggregation.
    pub fn new() -> Annex {
        Annex::default()
    }

    /// Games counted in all matchups.
    pub fn games(&self) -> u64 {
        self.matchups.iter().map(MatchupStats::games).sum()
    }

    fn matchup_index(&mut self, key: &PairKey) -> usize {
        if let Some(i) = self.matchups.iter().position(|m| &m.key == key) {
            return i;
        }
        self.matchups.push(MatchupStats::new(key.clone()));
        self.matchups.len() - 1
    }

    /// Reads a games file (selfplay or merge format) from `reader`; `name`
    /// is used in error messages. Returns the number of games read.
    pub fn read_games<R: Read>(&mut self, name: &str, reader: R) -> Result<u64, AnnexError> {
        self.read_games_in(name, reader, senat_rules::Variant::RULES)
    }

    /// [`Annex::read_games`] of a batch of variant `v`: each row's winner
    /// and reason must be those of its final position ([`result_problem`]).
    pub fn read_games_in<R: Read>(
        &mut self,
        name: &str,
        reader: R,
        v: senat_rules::Variant,
    ) -> Result<u64, AnnexError> {
        let mut rows = GameRows::new(name, reader)?;
        let mut board: Board = [None; CELLS];
        let mut n = 0;
        let mut cur: Option<(PairKey, usize)> = None;
        while let Some(row) = rows.next_parsed() {
            let (line, _, key, g) = row?;
            let idx = match &cur {
                Some((k, i)) if *k == key => *i,
                _ => {
                    let i = self.matchup_index(&key);
                    cur = Some((key.clone(), i));
                    i
                }
            };
            if let Some(problem) = result_problem(&rows.record()[FINAL_SPN], &g, v) {
                return Err(rows.error(line, problem));
            }
            self.summary.add(&key, &g);
            let m = &mut self.matchups[idx];
            let rec = rows.record();
            add_game(m, &g, &rec[DRAFT_MOVES], &rec[PLAY_MOVES], &mut board).map_err(|e| rows.error(line, e))?;
            n += 1;
        }
        Ok(n)
    }

    /// Reads a per-move file (`senat selfplay --moves`) for the legal-move tables.
    pub fn read_moves<R: Read>(&mut self, name: &str, reader: R) -> Result<u64, AnnexError> {
        let err = |line: u64, msg: String| AnnexError { file: name.to_string(), line, msg };
        let mut rdr = csv::ReaderBuilder::new().comment(Some(b'#')).flexible(true).from_reader(reader);
        let head = rdr.byte_headers().map_err(|e| err(1, e.to_string()))?.clone();
        if head.iter().ne(MOVES_HEADER.iter().map(|h| h.as_bytes())) {
            return Err(err(
                head.position().map_or(1, |p| p.line()),
                format!("not a senat moves file: its header is not `{}`", MOVES_HEADER.join(",")),
            ));
        }
        let mut st = LegalStats { name: name.to_string(), ..LegalStats::default() };
        let mut rec = csv::ByteRecord::new();
        let mut n = 0;
        loop {
            match rdr.read_byte_record(&mut rec) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => return Err(err(e.position().map_or(0, |p| p.line()), e.to_string())),
            }
            let line = rec.position().map_or(0, |p| p.line());
            if rec.len() != MOVES_HEADER.len() {
                return Err(err(line, format!("{} fields instead of {}", rec.len(), MOVES_HEADER.len())));
            }
            let num = |i: usize| {
                std::str::from_utf8(&rec[i]).ok().and_then(|s| s.parse::<usize>().ok()).ok_or_else(|| {
                    err(line, format!("{} `{}` is not a number", MOVES_HEADER[i], String::from_utf8_lossy(&rec[i])))
                })
            };
            let ply = num(1)?;
            let legal = num(5)?;
            let phase = match &rec[2] {
                b"draft" => 0u8,
                b"play" => 1,
                p => {
                    return Err(err(line, format!("phase `{}` is not draft or play", String::from_utf8_lossy(p))));
                }
            };
            if ply == 0 || legal > 10_000 {
                return Err(err(line, format!("ply {ply} / legal_moves {legal}: out of range (ply ≥ 1)")));
            }
            bump(&mut st.by_phase[phase as usize], legal);
            if st.by_ply.len() < ply {
                st.by_ply.resize(ply, (phase, Vec::new()));
            }
            st.by_ply[ply - 1].0 = phase;
            bump(&mut st.by_ply[ply - 1].1, legal);
            n += 1;
        }
        self.legal.push(st);
        Ok(n)
    }

    /// All tables (the legal-move tables only when a moves file was read).
    pub fn tables(&self) -> Vec<Table> {
        let mut t = vec![
            self.summary_table(),
            self.length_table(),
            self.end_table(),
            self.die_table(),
            self.give_order_table(),
            self.first_give_table(),
            self.first_placement_table(),
            self.opening_tree_table(),
            self.first_move_table(),
            self.first_push_table(),
        ];
        if !self.legal.is_empty() {
            t.push(self.legal_phase_table());
            t.push(self.legal_ply_table());
        }
        t
    }

    /// Names of the tables [`Annex::tables`] writes, with or without moves files.
    pub fn table_names(with_moves: bool) -> Vec<&'static str> {
        let mut v = vec![
            "summary.csv",
            "length.csv",
            "end.csv",
            "die.csv",
            "give_order.csv",
            "first_give.csv",
            "first_placement.csv",
            "opening_tree.csv",
            "first_move.csv",
            "first_push.csv",
        ];
        if with_moves {
            v.extend(["legal_phase.csv", "legal_ply.csv"]);
        }
        v
    }

    fn summary_table(&self) -> Table {
        let header = crate::stats::SUMMARY_HEADER.to_vec();
        let rows = self.summary.rows().into_iter().map(|r| r.to_vec()).collect();
        Table { name: "summary.csv", header, rows }
    }

    fn length_table(&self) -> Table {
        let mut rows = Vec::new();
        for (k, t) in &self.summary.groups {
            let mut cum = 0;
            for (len, &c) in t.lengths.iter().enumerate() {
                if c == 0 {
                    continue;
                }
                cum += c;
                let mut r = key_cols(k);
                r.extend([
                    len.to_string(),
                    c.to_string(),
                    f6(c as f64 / t.games as f64),
                    f6(cum as f64 / t.games as f64),
                ]);
                rows.push(r);
            }
        }
        Table {
            name: "length.csv",
            header: header(&[&KEY_COLS, &["play_half_moves", "games", "share", "cumulative_share"]]),
            rows,
        }
    }

    fn sorted(&self) -> Vec<&MatchupStats> {
        let mut v: Vec<&MatchupStats> = self.matchups.iter().collect();
        v.sort_by(|a, b| a.key.cmp(&b.key));
        v
    }

    fn end_table(&self) -> Table {
        let mut rows = Vec::new();
        for m in self.sorted() {
            let n = m.games();
            for (r, w) in REASONS.iter().zip(&m.reasons) {
                let mut row = key_cols(&m.key);
                row.push(r.name().to_string());
                row.extend(rate_cols(w.games, n)[1..].iter().cloned());
                row.extend(wdl_cols(w));
                rows.push(row);
            }
        }
        Table {
            name: "end.csv",
            header: header(&[&KEY_COLS, &["reason", "share", "share_lo", "share_hi"], &WDL_COLS]),
            rows,
        }
    }

    fn die_table(&self) -> Table {
        let mut rows = Vec::new();
        let rows_names = ["all", "S", "M", "I"];
        let col_names = ["all", "own", "opponent", "white"];
        for m in self.sorted() {
            for (d, per) in m.dice.iter().enumerate() {
                for (ri, per_row) in per.iter().enumerate() {
                    for (ci, s) in per_row.iter().enumerate() {
                        let mut row = key_cols(&m.key);
                        row.extend([(d + 1).to_string(), rows_names[ri].to_string(), col_names[ci].to_string()]);
                        row.extend(score_cols(s));
                        rows.push(row);
                    }
                }
            }
        }
        Table { name: "die.csv", header: header(&[&KEY_COLS, &["die", "row", "colour"], &SCORE_PLACER]), rows }
    }

    fn give_order_table(&self) -> Table {
        let mut rows = Vec::new();
        for m in self.sorted() {
            let n = m.games();
            for (d, per) in m.give_order.iter().enumerate() {
                for (k, s) in per.iter().enumerate() {
                    let mut row = key_cols(&m.key);
                    let giver = if k % 2 == 0 { "blue" } else { "red" };
                    row.extend([(d + 1).to_string(), (k + 1).to_string(), giver.to_string()]);
                    row.extend(rate_cols(s.games, n)[1..].iter().cloned());
                    row.extend(score_cols(s));
                    rows.push(row);
                }
            }
        }
        Table {
            name: "give_order.csv",
            header: header(&[&KEY_COLS, &["die", "placement", "giver", "share", "share_lo", "share_hi"], &SCORE_GIVER]),
            rows,
        }
    }

    fn first_give_table(&self) -> Table {
        let mut rows = Vec::new();
        for m in self.sorted() {
            let n = m.games();
            for (d, w) in m.first_give.iter().enumerate() {
                if w.games == 0 {
                    continue;
                }
                let mut row = key_cols(&m.key);
                row.push(format!("g{}", d + 1));
                row.extend(rate_cols(w.games, n)[1..].iter().cloned());
                row.extend(wdl_cols(w));
                rows.push(row);
            }
        }
        Table {
            name: "first_give.csv",
            header: header(&[&KEY_COLS, &["give", "share", "share_lo", "share_hi"], &WDL_COLS]),
            rows,
        }
    }

    fn first_placement_table(&self) -> Table {
        let mut rows = Vec::new();
        for m in self.sorted() {
            let n = m.games();
            for (c, w) in m.first_place.iter().enumerate() {
                let mut row = key_cols(&m.key);
                row.extend([Row::ALL[c / 3].letter().to_string(), Rel::ALL[c % 3].name().to_string()]);
                row.extend(rate_cols(w.games, n)[1..].iter().cloned());
                row.extend(wdl_cols(w));
                rows.push(row);
            }
        }
        Table {
            name: "first_placement.csv",
            header: header(&[&KEY_COLS, &["row", "colour", "share", "share_lo", "share_hi"], &WDL_COLS]),
            rows,
        }
    }

    /// The opening tree of one matchup: rows of (depth, line, count, share of
    /// the parent, results), depth first, the most frequent children first,
    /// at most [`TREE_TOP`] children per node plus one `(other)` row.
    pub fn tree_rows(m: &MatchupStats) -> Vec<(usize, String, u64, Wdl)> {
        // Children of each node, by parent key.
        let mut children: AHashMap<u32, Vec<(u32, Wdl)>> = AHashMap::new();
        for (&k, w) in &m.tree {
            let d = tree_depth(k);
            let parent = tree_key(&tree_parts(k)[..d - 1]);
            children.entry(parent).or_default().push((k, *w));
        }
        for v in children.values_mut() {
            v.sort_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.cmp(&b.0)));
        }
        let mut out = Vec::new();
        fn walk(
            key: u32,
            parent_games: u64,
            children: &AHashMap<u32, Vec<(u32, Wdl)>>,
            out: &mut Vec<(usize, String, u64, Wdl)>,
        ) {
            let Some(kids) = children.get(&key) else { return };
            let mut other = Wdl::default();
            for (i, (k, w)) in kids.iter().enumerate() {
                if i < TREE_TOP {
                    out.push((tree_depth(*k), tree_line(*k), parent_games, *w));
                    walk(*k, w.games, children, out);
                } else {
                    other.merge(w);
                }
            }
            if other.games > 0 {
                let depth = tree_depth(kids[0].0);
                let prefix = tree_line(key);
                let line = if prefix.is_empty() { "(other)".to_string() } else { format!("{prefix} (other)") };
                out.push((depth, line, parent_games, other));
            }
        }
        walk(0, m.games(), &children, &mut out);
        out
    }

    fn opening_tree_table(&self) -> Table {
        let mut rows = Vec::new();
        for m in self.sorted() {
            for (depth, line, parent, w) in Annex::tree_rows(m) {
                let mut row = key_cols(&m.key);
                row.extend([depth.to_string(), line]);
                row.extend(rate_cols(w.games, parent)[1..].iter().cloned());
                row.extend(wdl_cols(&w));
                rows.push(row);
            }
        }
        Table {
            name: "opening_tree.csv",
            header: header(&[&KEY_COLS, &["depth", "line", "share_of_parent", "share_lo", "share_hi"], &WDL_COLS]),
            rows,
        }
    }

    fn first_move_table(&self) -> Table {
        let mut rows = Vec::new();
        for m in self.sorted() {
            let n = m.games();
            let mut v: Vec<(&str, &Wdl)> = m.first_move.iter().map(|(k, w)| (&**k, w)).collect();
            v.sort_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.cmp(b.0)));
            let mut other = Wdl::default();
            let mut push = |rank: String, mv: &str, w: &Wdl| {
                let mut row = key_cols(&m.key);
                row.extend([rank, mv.to_string()]);
                row.extend(rate_cols(w.games, n)[1..].iter().cloned());
                row.extend(wdl_cols(w));
                rows.push(row);
            };
            for (i, (mv, w)) in v.iter().enumerate() {
                if i < FIRST_MOVES_TOP {
                    push((i + 1).to_string(), mv, w);
                } else {
                    other.merge(w);
                }
            }
            if other.games > 0 {
                push(String::new(), "(other)", &other);
            }
        }
        Table {
            name: "first_move.csv",
            header: header(&[&KEY_COLS, &["rank", "move", "share", "share_lo", "share_hi"], &WDL_COLS]),
            rows,
        }
    }

    fn first_push_table(&self) -> Table {
        let mut rows = Vec::new();
        for m in self.sorted() {
            let n = m.games();
            let pushes = n - m.first_push[NO_PUSH].games;
            let mean_ply = if pushes == 0 { 0.0 } else { m.first_push_ply_sum as f64 / pushes as f64 };
            for (kind, s) in PUSH_KINDS.iter().zip(&m.first_push) {
                let mut row = key_cols(&m.key);
                row.push(kind.to_string());
                row.extend(rate_cols(s.games, n)[1..].iter().cloned());
                row.push(format!("{mean_ply:.4}"));
                row.extend(score_cols(s));
                rows.push(row);
            }
        }
        Table {
            name: "first_push.csv",
            header: header(&[
                &KEY_COLS,
                &["kind", "share", "share_lo", "share_hi", "mean_first_push_ply"],
                &SCORE_PUSHER,
            ]),
            rows,
        }
    }

    fn legal_phase_table(&self) -> Table {
        let mut rows = Vec::new();
        for st in &self.legal {
            for (p, h) in st.by_phase.iter().enumerate() {
                let n: u64 = h.iter().sum();
                for (legal, &c) in h.iter().enumerate() {
                    if c > 0 {
                        rows.push(vec![
                            st.name.clone(),
                            ["draft", "play"][p].to_string(),
                            legal.to_string(),
                            c.to_string(),
                            f6(c as f64 / n as f64),
                        ]);
                    }
                }
            }
        }
        Table {
            name: "legal_phase.csv",
            header: vec!["moves_file", "phase", "legal_moves", "positions", "share"],
            rows,
        }
    }

    fn legal_ply_table(&self) -> Table {
        let mut rows = Vec::new();
        for st in &self.legal {
            for (i, (phase, h)) in st.by_ply.iter().enumerate() {
                let (n, mean, q) = hist_stats(h);
                if n == 0 {
                    continue;
                }
                let mut row = vec![
                    st.name.clone(),
                    (i + 1).to_string(),
                    ["draft", "play"][*phase as usize].to_string(),
                    n.to_string(),
                    format!("{mean:.4}"),
                ];
                row.extend(q.iter().map(usize::to_string));
                rows.push(row);
            }
        }
        Table {
            name: "legal_ply.csv",
            header: vec!["moves_file", "ply", "phase", "positions", "mean", "min", "p10", "median", "p90", "max"],
            rows,
        }
    }

    /// A short human summary: per matchup the results, the length, die 3,
    /// the best and worst dice to place and the first push.
    pub fn summary_text(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let pct = |k: u64, n: u64| {
            let (lo, hi) = wilson(k, n);
            let p = if n == 0 { 0.0 } else { 100.0 * k as f64 / n as f64 };
            format!("{p:.1}% [{:.1}, {:.1}]", 100.0 * lo, 100.0 * hi)
        };
        for m in self.sorted() {
            let n = m.games();
            let Some(t) = self.summary.groups.get(&m.key) else { continue };
            let _ = writeln!(s, "{}: {n} games", m.key.label());
            let _ = writeln!(
                s,
                "  red {}, blue {}, draws {}; play length mean {:.1}, median {}",
                pct(t.red, n),
                pct(t.blue, n),
                pct(t.draws, n),
                t.mean_length(),
                t.quantile(0.5)
            );
            let d3 = &m.dice[2][0][0];
            let _ =
                writeln!(s, "  die 3 (all white): its giver wins {} ({} games)", pct(d3.losses, d3.games), d3.games);
            let mut by: Vec<(usize, f64)> = m
                .dice
                .iter()
                .enumerate()
                .map(|(d, x)| {
                    (d + 1, if x[0][0].games == 0 { 0.0 } else { x[0][0].wins as f64 / x[0][0].games as f64 })
                })
                .collect();
            by.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            if let (Some(best), Some(worst)) = (by.first(), by.last()) {
                let _ = writeln!(
                    s,
                    "  placer's win rate by die: best die {} ({:.1}%), worst die {} ({:.1}%)",
                    best.0,
                    100.0 * best.1,
                    worst.0,
                    100.0 * worst.1
                );
            }
            let conveyor: u64 = m.first_push[..3].iter().map(|x| x.games).sum();
            let _ = writeln!(s, "  first push into the full row I (conveyor belt): {}", pct(conveyor, n));
        }
        for st in &self.legal {
            let (_, dm, _) = hist_stats(&st.by_phase[0]);
            let (_, pm, pq) = hist_stats(&st.by_phase[1]);
            let _ = writeln!(
                s,
                "{}: legal moves per position: draft mean {dm:.1}; play mean {pm:.1}, median {}, p10 {}, p90 {}",
                st.name, pq[2], pq[1], pq[3]
            );
        }
        s
    }
}

const SCORE_PLACER: [&str; 13] = [
    "games",
    "placer_wins",
    "placer_rate",
    "placer_lo",
    "placer_hi",
    "giver_wins",
    "giver_rate",
    "giver_lo",
    "giver_hi",
    "draws",
    "draw_rate",
    "draw_lo",
    "draw_hi",
];

const SCORE_GIVER: [&str; 13] = [
    "games",
    "giver_wins",
    "giver_rate",
    "giver_lo",
    "giver_hi",
    "placer_wins",
    "placer_rate",
    "placer_lo",
    "placer_hi",
    "draws",
    "draw_rate",
    "draw_lo",
    "draw_hi",
];

const SCORE_PUSHER: [&str; 13] = [
    "games",
    "pusher_wins",
    "pusher_rate",
    "pusher_lo",
    "pusher_hi",
    "pusher_losses",
    "loss_rate",
    "loss_lo",
    "loss_hi",
    "draws",
    "draw_rate",
    "draw_lo",
    "draw_hi",
];

/// What is wrong with one move of a games file's move columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveProblem {
    /// A draft give that is no give.
    NotGive,
    /// A draft placement that is no placement.
    NotPlacement,
    /// A placement on a cell already taken.
    Taken(senat_rules::board::Cell),
    /// A move that names an empty cell.
    Empty(senat_rules::board::Cell),
    /// Move text that does not parse (the notation's message).
    Unparsable(String),
    /// A move within a row before any push (impossible on a full board).
    BeforePush,
}

impl fmt::Display for MoveProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveProblem::NotGive => f.write_str("expected a give (g<die>)"),
            MoveProblem::NotPlacement => f.write_str("expected a placement <die>@<cell>=<face>"),
            MoveProblem::Taken(c) => write!(f, "cell {c} is already taken"),
            MoveProblem::Empty(c) => write!(f, "cell {c} is empty"),
            MoveProblem::Unparsable(e) => f.write_str(e),
            MoveProblem::BeforePush => f.write_str("a move within a row before any push (the board is full)"),
        }
    }
}

/// Why the move columns of a game row (`draft_moves`, `play_moves`) were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovesError {
    /// One move is wrong.
    Move {
        /// The column: `draft_moves` or `play_moves`.
        column: &'static str,
        /// The move's 1-based number in its column.
        number: usize,
        /// The move as written.
        token: String,
        /// What is wrong.
        problem: MoveProblem,
    },
    /// A placement of another die than the one given.
    OtherDie {
        /// The placement's 1-based number.
        number: usize,
        /// The placement as written.
        placed: String,
        /// The give as written.
        given: String,
    },
    /// More than 46 draft moves (the first one too many).
    TooManyDraftMoves(String),
}

impl fmt::Display for MovesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MovesError::Move { column, number, token, problem } => {
                write!(f, "{column}: move {number} `{token}`: {problem}")
            }
            MovesError::OtherDie { number, placed, given } => {
                write!(f, "draft_moves: move {number} `{placed}` places another die than the one given (`{given}`)")
            }
            MovesError::TooManyDraftMoves(t) => {
                write!(f, "draft_moves: more than 46 moves (`{t}` after the last placement)")
            }
        }
    }
}

impl std::error::Error for MovesError {}

/// Counts one game into `m`: the draft (46 moves) and the play up to the first push.
fn add_game(
    m: &mut MatchupStats,
    g: &GameSummary,
    draft: &str,
    play: &str,
    board: &mut Board,
) -> Result<(), MovesError> {
    let w = g.winner;
    m.reasons[REASONS.iter().position(|&r| r == g.reason).unwrap_or(0)].add(w);
    *board = [None; CELLS];
    let mut tokens = draft.split(' ');
    let mut line = [0u32; 4];
    for k in 0..DICE {
        let placer = if k % 2 == 0 { Side::Red } else { Side::Blue };
        let giver = placer.other();
        let gt = tokens.next().unwrap_or("");
        let pt = tokens.next().unwrap_or("");
        let bad = |number: usize, token: &str, problem: MoveProblem| MovesError::Move {
            column: "draft_moves",
            number,
            token: token.to_string(),
            problem,
        };
        let gd = match parse_move_text(gt).map(|mv| mv.kind()) {
            Ok(MoveKind::Give(d)) => d,
            _ => return Err(bad(2 * k + 1, gt, MoveProblem::NotGive)),
        };
        let (d, cell, face) = match parse_move_text(pt).map(|mv| mv.kind()) {
            Ok(MoveKind::Place(d, c, f)) => (d, c, f),
            _ => return Err(bad(2 * k + 2, pt, MoveProblem::NotPlacement)),
        };
        if d.kind() != gd.kind() {
            return Err(MovesError::OtherDie { number: 2 * k + 2, placed: pt.to_string(), given: gt.to_string() });
        }
        if board[cell.index()].is_some() {
            return Err(bad(2 * k + 2, pt, MoveProblem::Taken(cell)));
        }
        board[cell.index()] = Some((d, face));
        let rel = Rel::of(d.colour(face), placer);
        let row = cell.row();
        let di = d.number() as usize - 1;
        let per = &mut m.dice[di];
        for ri in [0, row as usize + 1] {
            for ci in [0, rel as usize + 1] {
                per[ri][ci].add(placer, w);
            }
        }
        m.give_order[di][k].add(giver, w);
        if k < 2 {
            line[2 * k] = d.number() as u32;
            line[2 * k + 1] = place_class(row, rel) as u32 + 1;
        }
        if k == 0 {
            m.first_give[di].add(w);
            m.first_place[place_class(row, rel)].add(w);
        }
    }
    if let Some(t) = tokens.next() {
        return Err(MovesError::TooManyDraftMoves(t.to_string()));
    }
    for depth in 1..=4 {
        m.tree.entry(tree_key(&line[..depth])).or_default().add(w);
    }
    // The play, up to the first push.
    let mut kind = NO_PUSH;
    let mut pusher = Side::Blue;
    for (ply, t) in play.split(' ').filter(|t| !t.is_empty()).enumerate() {
        let side = if ply % 2 == 0 { Side::Blue } else { Side::Red };
        if ply == 0 {
            match m.first_move.get_mut(t) {
                Some(x) => x.add(w),
                None => {
                    let mut x = Wdl::default();
                    x.add(w);
                    m.first_move.insert(t.into(), x);
                }
            }
        }
        let bad = |problem: MoveProblem| MovesError::Move {
            column: "play_moves",
            number: ply + 1,
            token: t.to_string(),
            problem,
        };
        let mv = parse_move_text(t).map_err(|e| bad(MoveProblem::Unparsable(e.to_string())))?;
        let face_at = |c: senat_rules::board::Cell| board[c.index()].ok_or_else(|| bad(MoveProblem::Empty(c)));
        match mv.kind() {
            MoveKind::Flip { target, .. } => {
                let (d, f) = face_at(target)?;
                board[target.index()] = Some((d, f.opposite()));
            }
            MoveKind::Turn { target, face, .. } => {
                let (d, _) = face_at(target)?;
                board[target.index()] = Some((d, face));
            }
            MoveKind::Push { target, to, .. } => {
                pusher = side;
                m.first_push_ply_sum += ply as u64 + 1;
                kind = match (target.row(), to) {
                    (Row::I, Dest::Door) => {
                        let (d, f) = face_at(target)?;
                        3 + Rel::of(d.colour(f), side) as usize
                    }
                    (Row::M, Dest::Cell(c)) if c.row() == Row::I => {
                        let (d, f) = face_at(c)?;
                        Rel::of(d.colour(f), side) as usize
                    }
                    (Row::S, _) => 6,
                    (Row::M, _) => 7,
                    (Row::I, _) => 8,
                };
                break;
            }
            _ => return Err(bad(MoveProblem::BeforePush)),
        }
    }
    m.first_push[kind].add(pusher, w);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_keys_round_trip() {
        let k = tree_key(&[3, 7, 17, 9]);
        assert_eq!(tree_parts(k), [3, 7, 17, 9]);
        assert_eq!(tree_depth(k), 4);
        assert_eq!(tree_depth(tree_key(&[3, 7])), 2);
        assert_eq!(tree_line(tree_key(&[3, 4])), "g3 M:own");
        assert_eq!(tree_line(tree_key(&[3, 7])), "g3 I:own");
        assert_eq!(tree_line(tree_key(&[23, 9, 1, 1])), "g23 I:white g1 S:own");
    }

    #[test]
    fn hist_stats_nearest_rank() {
        // Values 1, 2, 2, 3, 10.
        let mut h = vec![0; 11];
        for v in [1, 2, 2, 3, 10] {
            h[v] += 1;
        }
        let (n, mean, q) = hist_stats(&h);
        assert_eq!(n, 5);
        assert!((mean - 3.6).abs() < 1e-9);
        assert_eq!(q, [1, 1, 2, 10, 10]);
    }

    #[test]
    fn game_rows_hand_over_each_row_with_its_moves() {
        assert_eq!(GAMES_HEADER[DRAFT_MOVES], "draft_moves");
        assert_eq!(GAMES_HEADER[PLAY_MOVES], "play_moves");
        let text = format!(
            "# senat-batch v1\n{}\n4,1,9,r,b,dr,db,blue,majority,0,5,0,2,30,g1 1@a1=t,a1>b1 b2-b3,spn\n\
             5,1,9,r,b,dr,db,draw,closure,2,2,0,60,90,g3,,spn\n",
            GAMES_HEADER.join(",")
        );
        let rows: Vec<GameRow> = GameRows::new("t.csv", text.as_bytes()).unwrap().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].line, rows[0].game), (3, 4));
        assert_eq!(rows[0].key.draft_blue, "db");
        assert_eq!(rows[0].summary.winner, Some(Side::Blue));
        assert_eq!(rows[0].summary.play_len, 2);
        assert_eq!(rows[0].draft_moves, "g1 1@a1=t");
        assert_eq!(rows[0].play_moves, "a1>b1 b2-b3");
        assert_eq!((rows[1].line, rows[1].summary.winner, rows[1].play_moves.as_str()), (4, None, ""));
        // A bad row is an error at its line; a bad header at the header's.
        let bad = format!("{}\n1,1,1,r,b,r,b,nobody,majority,0,5,0,2,30,,,spn\n", GAMES_HEADER.join(","));
        let e = GameRows::new("t.csv", bad.as_bytes()).unwrap().next().unwrap().unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("t.csv", 2));
        assert!(e.msg.contains("nobody"), "{e}");
        let e = GameRows::new("t.csv", "a,b\n".as_bytes()).err().unwrap();
        assert!(e.msg.starts_with("not a senat games file"), "{e}");
    }

    #[test]
    fn rel_from_side() {
        assert_eq!(Rel::of(Colour::Red, Side::Red), Rel::Own);
        assert_eq!(Rel::of(Colour::Red, Side::Blue), Rel::Opponent);
        assert_eq!(Rel::of(Colour::White, Side::Blue), Rel::White);
    }
}
