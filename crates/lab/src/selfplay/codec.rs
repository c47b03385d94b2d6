//! The CSV codec of the games and moves files: their columns, the rows
//! written for a played game, and a games row read back.
//!
//! Rows are written byte for byte as the `csv` crate writes them (comma
//! separated, `\n` ended, a field quoted only when it holds a comma, a
//! quote, `\r` or `\n`, its quotes doubled), but straight into one byte
//! buffer: numbers by a small integer writer, move text by the rules
//! crate's [`Move::write_text`], the batch's constant fields (policy names,
//! seed) formatted once per writer. This module never defines a move's
//! text itself, and never touches a file.

use super::{Matchup, PlayedGame, game_seed};
use crate::stats::{GameSummary, PairKey};
use senat_rules::dice::Side;
use senat_rules::game::EndReason;
use senat_rules::moves::Move;
use senat_rules::notation::{ParseError, PositionError};
use std::fmt;

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

/// The column after [`GAMES_HEADER`] in a batch of a variant with the
/// decision after the draft (`swap=yes`): 1 if the players exchanged
/// colours, else 0. The winner stays a colour (the final SPN says
/// `swapped:`); every other batch has no such column.
pub const SWAP_COLUMN: &str = "swapped";

/// Columns added last (after `swapped` under `swap=yes`) where a policy of
/// the batch draws value-bounded choices (`vary=`,
/// [`super::Matchup::varies`]): each side's value loss of its drawn moves
/// summed over the game, in score units (a win 1, a draw 0.5) with six
/// decimals. Other batches' files have no such columns, byte for byte as
/// before.
pub const VARY_COLUMNS: [&str; 2] = ["red_vary_loss", "blue_vary_loss"];

/// The columns of the games file of a batch of variant `v`:
/// [`GAMES_HEADER`], then [`SWAP_COLUMN`] under `swap=yes`, then
/// [`VARY_COLUMNS`] where `varies`.
pub fn games_header(v: senat_rules::Variant, varies: bool) -> Vec<&'static str> {
    let mut h = GAMES_HEADER.to_vec();
    if v.swap {
        h.push(SWAP_COLUMN);
    }
    if varies {
        h.extend(VARY_COLUMNS);
    }
    h
}

/// Columns of the per-move file.
pub const MOVES_HEADER: [&str; 6] = ["game", "ply", "phase", "side", "move", "legal_moves"];

/// Appends the move text of `m` (the same text as its `Display`): the rules
/// crate's [`Move::write_text`], kept under this name for callers.
#[inline]
pub fn push_move_text(buf: &mut Vec<u8>, m: Move) {
    m.write_text(buf);
}

/// `red`, `blue` or `draw`, as in CSV files.
pub fn winner_name(w: Option<Side>) -> &'static str {
    match w {
        Some(Side::Red) => "red",
        Some(Side::Blue) => "blue",
        None => "draw",
    }
}

/// Appends the decimal digits of `n`.
#[inline]
pub(super) fn push_u64(buf: &mut Vec<u8>, mut n: u64) {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";
    let mut tmp = [0u8; 20];
    let mut i = tmp.len();
    while n >= 100 {
        let d = (n % 100) as usize * 2;
        n /= 100;
        i -= 2;
        tmp[i..i + 2].copy_from_slice(&PAIRS[d..d + 2]);
    }
    if n >= 10 {
        let d = n as usize * 2;
        i -= 2;
        tmp[i..i + 2].copy_from_slice(&PAIRS[d..d + 2]);
    } else {
        i -= 1;
        tmp[i] = b'0' + n as u8;
    }
    buf.extend_from_slice(&tmp[i..]);
}

/// Appends one field as the `csv` crate writes it by default: quoted (its
/// quotes doubled) when it holds a comma, a quote, `\r` or `\n`.
pub(super) fn push_field(buf: &mut Vec<u8>, field: &[u8]) {
    if field.iter().any(|&b| matches!(b, b',' | b'"' | b'\r' | b'\n')) {
        buf.push(b'"');
        for &b in field {
            if b == b'"' {
                buf.push(b'"');
            }
            buf.push(b);
        }
        buf.push(b'"');
    } else {
        buf.extend_from_slice(field);
    }
}

/// Appends a whole record (fields joined by commas, then `\n`), as the
/// `csv` crate writes it.
pub(super) fn push_record<T: AsRef<[u8]>>(buf: &mut Vec<u8>, fields: impl IntoIterator<Item = T>) {
    for (i, f) in fields.into_iter().enumerate() {
        if i > 0 {
            buf.push(b',');
        }
        push_field(buf, f.as_ref());
    }
    buf.push(b'\n');
}

/// The header row of a file with columns `h`.
pub(super) fn header_bytes(h: &[&str]) -> Vec<u8> {
    let mut buf = Vec::new();
    push_record(&mut buf, h);
    buf
}

/// Moves written in move text, separated by single blanks.
#[inline]
/// The move texts of `moves`, separated by spaces (the `draft_moves` and
/// `play_moves` cells of a games file).
pub fn moves_text(moves: &[Move]) -> String {
    let mut buf = Vec::new();
    push_moves(&mut buf, moves);
    String::from_utf8(buf).expect("move texts are ASCII")
}

fn push_moves(buf: &mut Vec<u8>, moves: &[Move]) {
    if let Some((first, rest)) = moves.split_first() {
        first.write_text(buf);
        for m in rest {
            buf.push(b' ');
            m.write_text(buf);
        }
    }
}

/// Builds the rows of the games file (and of the moves file, if wanted)
/// of one batch into byte buffers, reused from game to game.
pub(super) struct RowWriter {
    /// The rows of the games file so far.
    pub(super) games: Vec<u8>,
    /// The rows of the moves file so far, if one is written.
    pub(super) moves: Option<Vec<u8>>,
    /// `,seed,` as written after the game index.
    seed_field: Vec<u8>,
    /// `,red,blue,draft_red,draft_blue,` (names quoted as needed).
    names: Vec<u8>,
    seed: u64,
    /// Scratch space for the final SPN.
    spn: Vec<u8>,
    /// Each game's key for the distinct-games count ([`crate::variety::row_key`]
    /// of its draft and play moves fields, [`GAMES_VARIETY_COLUMNS`]).
    pub(super) keys: Vec<u128>,
    /// Each game's draft-opening key ([`crate::variety::opening_prefix`]).
    pub(super) openings: Vec<u128>,
    /// Whether the rows have [`VARY_COLUMNS`].
    varies: bool,
}

/// The columns of a games row that name its game for the distinct-games
/// count: the draft and the play moves.
pub const GAMES_VARIETY_COLUMNS: [usize; 2] = [14, 15];

impl RowWriter {
    /// A writer for the rows of batch `seed` between `m`'s policies.
    pub(super) fn new(m: &Matchup, seed: u64, with_moves: bool) -> RowWriter {
        let mut seed_field = vec![b','];
        push_u64(&mut seed_field, seed);
        seed_field.push(b',');
        let mut names = Vec::new();
        for p in [&m.red, &m.blue, &m.draft_red, &m.draft_blue] {
            names.push(b',');
            push_field(&mut names, p.name.as_bytes());
        }
        names.push(b',');
        RowWriter {
            games: Vec::new(),
            moves: with_moves.then(Vec::new),
            seed_field,
            names,
            seed,
            spn: Vec::new(),
            keys: Vec::new(),
            openings: Vec::new(),
            varies: m.varies(),
        }
    }

    /// Appends the rows of game `index`.
    pub(super) fn write(&mut self, index: u64, g: &PlayedGame) {
        let moves = g.game.moves();
        let position = g.game.position();
        let piles = position.piles();
        let buf = &mut self.games;
        push_u64(buf, index);
        buf.extend_from_slice(&self.seed_field);
        push_u64(buf, game_seed(self.seed, index));
        buf.extend_from_slice(&self.names);
        buf.extend_from_slice(winner_name(g.outcome.winner).as_bytes());
        buf.push(b',');
        buf.extend_from_slice(g.outcome.reason.name().as_bytes());
        for n in
            [piles.red as u64, piles.blue as u64, piles.white as u64, (moves.len() - g.draft_len) as u64, g.legal_sum]
        {
            buf.push(b',');
            push_u64(buf, n);
        }
        buf.push(b',');
        let draft_at = buf.len();
        push_moves(buf, &moves[..g.draft_len]);
        let draft_end = buf.len();
        buf.push(b',');
        push_moves(buf, &moves[g.draft_len..]);
        let play_end = buf.len();
        self.keys.push(crate::variety::row_key(
            [&buf[draft_at..draft_end], &buf[draft_end + 1..play_end]].into_iter(),
            None,
        ));
        self.openings.push(crate::variety::row_key(
            std::iter::once(crate::variety::opening_prefix(&buf[draft_at..draft_end])),
            None,
        ));
        buf.push(b',');
        self.spn.clear();
        position.write_spn(&mut self.spn);
        push_field(buf, &self.spn);
        if position.variant().swap {
            buf.extend_from_slice(if position.swapped() { b",1" } else { b",0" });
        }
        if self.varies {
            for x in g.vary_loss.unwrap_or_default() {
                buf.push(b',');
                buf.extend_from_slice(crate::stats::micros_text(x).as_bytes());
            }
        }
        buf.push(b'\n');
        if let Some(buf) = self.moves.as_mut() {
            let mut p = *g.game.start();
            let mut game = Vec::with_capacity(24);
            push_u64(&mut game, index);
            game.push(b',');
            for (ply, &mv) in moves.iter().enumerate() {
                buf.extend_from_slice(&game);
                push_u64(buf, ply as u64 + 1);
                buf.extend_from_slice(if ply < g.draft_len { b",draft," } else { b",play," });
                buf.extend_from_slice(winner_name(Some(p.side_to_move())).as_bytes());
                buf.push(b',');
                mv.write_text(buf);
                buf.push(b',');
                push_u64(buf, g.legal[ply] as u64);
                buf.push(b'\n');
                p.play_unchecked(mv);
            }
        }
    }

    /// The rows written: games, then moves (empty when not wanted), the
    /// games' keys and their draft-opening keys.
    pub(super) fn into_rows(self) -> (Vec<u8>, Vec<u8>, Vec<u128>, Vec<u128>) {
        (self.games, self.moves.unwrap_or_default(), self.keys, self.openings)
    }
}

/// Why a games row cannot be read back, or cannot be the row it should be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowError {
    /// Not as many fields as columns.
    FieldCount {
        /// Fields in the row.
        got: usize,
    },
    /// A number column that does not hold a number.
    NotNumber {
        /// The column's name.
        column: &'static str,
        /// Its text.
        text: String,
    },
    /// A winner that is not `red`, `blue` or `draw`.
    Winner(String),
    /// A `swapped` that is not 0 or 1.
    Swapped(String),
    /// A row with or without the `swapped` column where its batch's
    /// variant has the other ([`games_header`]).
    SwapColumn {
        /// Whether the batch's variant has the decision (`swap=yes`).
        swap: bool,
    },
    /// A `swapped` that is not what the final position says.
    SwappedMismatch {
        /// The row's.
        row: bool,
    },
    /// A reason that is not one of the four end reasons.
    Reason(String),
    /// A moves-file row whose first field is not a game index.
    NoGameIndex,
    /// A game after the file's range.
    BeyondRange {
        /// The row's game.
        game: u64,
        /// The file's range.
        range: std::ops::Range<u64>,
    },
    /// A game out of order.
    OutOfOrder {
        /// The row's game.
        game: u64,
        /// The game expected there.
        expected: u64,
        /// The file's range.
        range: std::ops::Range<u64>,
    },
    /// Another batch seed than the file's.
    Seed {
        /// The row's seed.
        seed: u64,
        /// The batch's.
        batch: u64,
    },
    /// A game seed that is not the game's.
    GameSeed {
        /// The row's game seed.
        got: u64,
        /// The batch seed.
        seed: u64,
        /// The game.
        game: u64,
    },
    /// Other policies than the batch's.
    Policies {
        /// The row's, as labelled in summaries (`PairKey::label`).
        row: String,
        /// The batch's.
        batch: String,
    },
    /// A pile column that is not a possible pile size.
    Pile {
        /// The column's name.
        column: &'static str,
        /// Its text.
        text: String,
        /// The largest possible size.
        max: u8,
    },
    /// Reason majority but no pile of 5.
    NoMajority,
    /// A pile of 5 but another reason.
    UnexpectedMajority(EndReason),
    /// A winner that the piles and reason contradict.
    WinnerMismatch {
        /// The row's winner.
        winner: Option<Side>,
        /// Red, blue and white piles.
        piles: [u8; 3],
        /// The row's reason.
        reason: EndReason,
    },
    /// Moves that do not start with the batch's opening.
    Opening(String),
    /// A play move count that is not the number of play moves.
    PlayCount {
        /// `play_half_moves`.
        count: u32,
        /// Play moves in the list.
        moves: u64,
    },
    /// A legal-move sum below the number of play moves.
    LegalSum {
        /// `play_legal_sum`.
        sum: u64,
        /// `play_half_moves`.
        count: u32,
    },
    /// A final SPN that does not parse.
    SpnParse(ParseError),
    /// A final SPN that is not a position.
    SpnPosition(PositionError),
    /// A final position whose piles are not the row's.
    SpnPiles {
        /// The position's piles.
        spn: [u8; 3],
        /// The row's.
        row: [u8; 3],
    },
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let piles = |p: &[u8; 3]| format!("{}-{}-{}", p[0], p[1], p[2]);
        match self {
            RowError::FieldCount { got } => write!(
                f,
                "{got} fields instead of {} ({} with `swapped` under swap=yes; {} more with the value-loss columns of vary=)",
                GAMES_HEADER.len(),
                GAMES_HEADER.len() + 1,
                VARY_COLUMNS.len()
            ),
            RowError::Swapped(s) => write!(f, "swapped `{s}` is not 0 or 1"),
            RowError::SwapColumn { swap: true } => {
                f.write_str("no swapped column, but the batch's variant has swap=yes (18 columns)")
            }
            RowError::SwapColumn { swap: false } => {
                f.write_str("a swapped column, but the batch's variant has no swap (17 columns)")
            }
            RowError::SwappedMismatch { row } => write!(
                f,
                "swapped {} but the final_spn {} a swap",
                u8::from(*row),
                if *row { "shows no" } else { "shows" }
            ),
            RowError::NotNumber { column, text } => write!(f, "{column} `{text}` is not a number"),
            RowError::Winner(w) => write!(f, "winner `{w}` is not red, blue or draw"),
            RowError::Reason(w) => write!(f, "reason `{w}` is not majority, repetition, closure or block"),
            RowError::NoGameIndex => f.write_str("a row without a game index"),
            RowError::BeyondRange { game, range } => {
                write!(f, "game {game} is beyond the file's range {}..{}", range.start, range.end)
            }
            RowError::OutOfOrder { game, expected, range } => write!(
                f,
                "game {game} where game {expected} was expected (games go {}..{} in order)",
                range.start, range.end
            ),
            RowError::Seed { seed, batch } => write!(f, "seed {seed} is not the batch seed {batch}"),
            RowError::GameSeed { got, seed, game } => {
                write!(f, "game_seed {got} is not game_seed({seed}, {game}) = {}", game_seed(*seed, *game))
            }
            RowError::Policies { row, batch } => write!(f, "the row's policies {row} are not the batch's {batch}"),
            RowError::Pile { column, text, max } => write!(f, "{column} `{text}` is not a pile size 0..{max}"),
            RowError::NoMajority => f.write_str("reason majority but no pile holds 5 dice"),
            RowError::UnexpectedMajority(r) => {
                write!(f, "reason {} but a pile holds 5 dice (the game ended by majority)", r.name())
            }
            RowError::WinnerMismatch { winner, piles: p, reason } => write!(
                f,
                "winner {} does not match the piles {} and reason {}",
                winner_name(*winner),
                piles(p),
                reason.name()
            ),
            RowError::Opening(o) => write!(f, "its moves do not start with the batch's opening `{o}`"),
            RowError::PlayCount { count, moves } => write!(f, "play_half_moves {count} but {moves} play moves"),
            RowError::LegalSum { sum, count } => write!(f, "play_legal_sum {sum} is below play_half_moves {count}"),
            RowError::SpnParse(e) => write!(f, "final_spn does not parse: {e}"),
            RowError::SpnPosition(e) => write!(f, "final_spn is not a position: {e}"),
            RowError::SpnPiles { spn, row } => write!(f, "final_spn has piles {}, the row {}", piles(spn), piles(row)),
        }
    }
}

impl std::error::Error for RowError {}

/// Reads one games-file row back: game index, batch seed, matchup key and
/// summary. A row with [`SWAP_COLUMN`] has its `swapped`, and a row
/// with [`VARY_COLUMNS`] (last) its value losses: 17, 18, 19 or 20 fields.
pub fn parse_game_row(r: &csv::StringRecord) -> Result<(u64, u64, PairKey, GameSummary), RowError> {
    let n = r.len();
    if !(GAMES_HEADER.len()..=GAMES_HEADER.len() + 1 + VARY_COLUMNS.len()).contains(&n) {
        return Err(RowError::FieldCount { got: n });
    }
    // 18 or 20 fields: `swapped` follows the final SPN; 19 or 20: the losses end the row.
    let has_swap = (n - GAMES_HEADER.len()) % 2 == 1;
    let swapped = match has_swap.then(|| &r[GAMES_HEADER.len()]) {
        None => None,
        Some("0") => Some(false),
        Some("1") => Some(true),
        Some(s) => return Err(RowError::Swapped(s.into())),
    };
    let base = GAMES_HEADER.len() + usize::from(has_swap);
    let loss = |k: usize| {
        crate::stats::parse_micros(&r[base + k])
            .ok_or_else(|| RowError::NotNumber { column: VARY_COLUMNS[k], text: r[base + k].into() })
    };
    let vary_loss = if n >= GAMES_HEADER.len() + VARY_COLUMNS.len() { Some([loss(0)?, loss(1)?]) } else { None };
    let num =
        |i: usize| r[i].parse::<u64>().map_err(|_| RowError::NotNumber { column: GAMES_HEADER[i], text: r[i].into() });
    let winner = match &r[7] {
        "red" => Some(Side::Red),
        "blue" => Some(Side::Blue),
        "draw" => None,
        w => return Err(RowError::Winner(w.into())),
    };
    let reason = match &r[8] {
        "majority" => EndReason::Majority,
        "repetition" => EndReason::Repetition,
        "closure" => EndReason::Closure,
        "block" => EndReason::Block,
        w => return Err(RowError::Reason(w.into())),
    };
    let key = PairKey { red: r[3].into(), blue: r[4].into(), draft_red: r[5].into(), draft_blue: r[6].into() };
    let g = GameSummary { winner, reason, play_len: num(12)? as u32, legal_sum: num(13)?, swapped, vary_loss };
    Ok((num(0)?, num(1)?, key, g))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows the `csv` crate writes for the same fields.
    fn by_csv(fields: &[&[u8]]) -> Vec<u8> {
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        w.write_record(fields).unwrap();
        w.into_inner().unwrap()
    }

    #[test]
    fn fields_are_quoted_as_the_csv_crate_quotes_them() {
        let fields: [&[u8]; 9] = [
            b"plain",
            b"",
            b"a,b",
            b"say \"hi\"",
            b"line\nbreak",
            b"cr\r",
            b"heuristic:pile=12,exposed=-1",
            b"#x",
            b"'",
        ];
        let mut buf = Vec::new();
        push_record(&mut buf, fields);
        assert_eq!(buf, by_csv(&fields));
        assert_eq!(header_bytes(&GAMES_HEADER), by_csv(&GAMES_HEADER.map(str::as_bytes)));
    }

    #[test]
    fn rows_are_those_the_csv_crate_writes() {
        use crate::policy::PolicySpec;
        let spec = |s: &str| PolicySpec::parse(s).unwrap();
        let m = Matchup {
            red: spec("heuristic:pile=12,exposed=-1"),
            blue: spec("random"),
            draft_red: spec("greedy"),
            draft_blue: spec("random"),
        };
        let seed = 99;
        let mut w = RowWriter::new(&m, seed, true);
        let (mut games, mut moves) = (csv_rows(), csv_rows());
        for index in 0..20 {
            let g = super::super::play_game(&m, seed, index);
            w.write(index, &g);
            let all = g.game.moves();
            let text = |ms: &[Move]| ms.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ");
            let piles = g.game.position().piles();
            let row: Vec<String> = vec![
                index.to_string(),
                seed.to_string(),
                game_seed(seed, index).to_string(),
                m.red.name.clone(),
                m.blue.name.clone(),
                m.draft_red.name.clone(),
                m.draft_blue.name.clone(),
                winner_name(g.outcome.winner).into(),
                g.outcome.reason.name().into(),
                piles.red.to_string(),
                piles.blue.to_string(),
                piles.white.to_string(),
                (all.len() - g.draft_len).to_string(),
                g.legal_sum.to_string(),
                text(&all[..g.draft_len]),
                text(&all[g.draft_len..]),
                g.game.position().to_spn(),
            ];
            games.write_record(&row).unwrap();
            let mut p = *g.game.start();
            for (ply, &mv) in all.iter().enumerate() {
                let phase = if ply < g.draft_len { "draft" } else { "play" };
                let side = winner_name(Some(p.side_to_move()));
                let row = [index.to_string(), (ply + 1).to_string(), phase.into(), side.into(), mv.to_string()];
                moves.write_record(row.iter().chain([&g.legal[ply].to_string()])).unwrap();
                p.play_unchecked(mv);
            }
        }
        let (g, mv, _, _) = w.into_rows();
        assert_eq!(String::from_utf8(g).unwrap(), String::from_utf8(games.into_inner().unwrap()).unwrap());
        assert_eq!(mv, moves.into_inner().unwrap());
    }

    fn csv_rows() -> csv::Writer<Vec<u8>> {
        csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new())
    }

    #[test]
    fn numbers_are_written_in_decimal() {
        for n in [0, 1, 9, 10, 99, 100, 101, 999, 1000, 12345, 1 << 32, u64::MAX - 1, u64::MAX] {
            let mut buf = b"x".to_vec();
            push_u64(&mut buf, n);
            assert_eq!(buf, format!("x{n}").into_bytes());
        }
    }
}
