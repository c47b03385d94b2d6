//! The position: two bitboards in one `u64` layout, the move sequence that
//! is its text, the legal moves and the end of the game.
//!
//! Layout (as the fastest public solvers lay it): column `c` holds bits
//! `c × (height + 1)` (its bottom cell) to `c × (height + 1) + height − 1`;
//! the bit above each column stays empty, so that shifts by 1, `height`,
//! `height + 1` and `height + 2` find vertical, diagonal, horizontal and
//! anti-diagonal neighbours without wrapping.
//!
//! What it must never do: I/O, search, or accept a move sequence that is
//! not a legal game (a full column, a column off the board, a move after a
//! four).

use crate::variant::Variant;
use std::fmt;
use std::str::FromStr;

/// The most cells of any board (8 × 7 or 7 × 8): the longest game.
pub const MAX_CELLS: usize = 56;

/// A move: the column a disc is dropped into, 0 for the leftmost. Its text
/// is the column's digit from 1 (`4` is the centre of the 7-wide board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The move into column `column` (0 for the leftmost), if some board has
    /// it (below [`crate::MAX_SIDE`]).
    pub fn new(column: u8) -> Option<Move> {
        (column < crate::MAX_SIDE).then_some(Move(column))
    }
    /// The column, 0 for the leftmost.
    pub const fn column(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

impl FromStr for Move {
    type Err = MoveError;
    /// One digit, `1` to `9`.
    fn from_str(s: &str) -> Result<Move, MoveError> {
        match s.as_bytes() {
            [d @ b'1'..=b'9'] => Ok(Move(d - b'1')),
            _ => Err(MoveError::Syntax(s.chars().take(32).collect())),
        }
    }
}

/// Why a move is not legal, or its text not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not one digit from 1 to 9 (the text, cut to 32 characters).
    Syntax(String),
    /// A column beyond the board's width.
    OffTheBoard {
        /// The move.
        column: Move,
        /// The board's width.
        width: u8,
    },
    /// The column holds `height` discs.
    Full(Move),
    /// The game is over (a four, or a full board): no move is legal.
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "`{s}` is not a move: a move is a column digit, 1 to 9"),
            MoveError::OffTheBoard { column, width } => {
                write!(f, "column {column} is off the board (it has {width} columns)")
            }
            MoveError::Full(m) => write!(f, "column {m} is full"),
            MoveError::GameOver => f.write_str("the game is over: no move is legal"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a text is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The empty text (the empty board is `start`).
    Empty,
    /// A byte that is not a column digit, at a byte offset.
    Character {
        /// The byte offset in the text.
        offset: usize,
        /// The character found.
        found: char,
    },
    /// More moves than the board has cells.
    TooLong {
        /// The board's cells.
        cells: usize,
    },
    /// The `index`-th move (from 1) is not legal where it is played.
    Illegal {
        /// The move's number, from 1 (also its byte offset + 1).
        index: usize,
        /// Why.
        error: MoveError,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Empty => f.write_str("an empty position: write `start` for the empty board"),
            PositionError::Character { offset, found } => write!(
                f,
                "byte {offset}: {found:?} is not a column digit (a position is `start` or the columns played, 1 to 9 from the left)"
            ),
            PositionError::TooLong { cells } => write!(f, "more moves than the board's {cells} cells"),
            PositionError::Illegal { index, error } => write!(f, "move {index}: {error}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `player` (0 moved first, 1 second) made four in a row.
    Win {
        /// The winner: 0 the first player, 1 the second.
        player: usize,
    },
    /// The board is full with no four.
    Draw,
}

impl Outcome {
    /// 1 for the winner and 0 for the loser, 0.5 each on a draw; unused
    /// entries 0 (the other rules crates' scores).
    pub fn scores(&self, players: usize) -> [f64; 4] {
        let mut s = [0.0; 4];
        for (p, x) in s.iter_mut().enumerate().take(players) {
            *x = match *self {
                Outcome::Win { player } => f64::from(u8::from(p == player)),
                Outcome::Draw => 0.5,
            };
        }
        s
    }
}

/// A Connect Four position: the board and the moves that made it.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    v: Variant,
    /// The discs of the player to move.
    current: u64,
    /// Every disc.
    mask: u64,
    /// Moves played.
    plies: u8,
    /// Whether the last move made four.
    won: bool,
    /// The columns played, in order (the text).
    seq: [u8; MAX_CELLS],
}

/// Two positions are equal when their variant and their move sequence are.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.v == other.v && self.moves_slice() == other.moves_slice()
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.v.hash(state);
        self.moves_slice().hash(state);
    }
}

/// Whether `b` holds four in a row, with columns of `h1` bits (height + 1).
#[inline]
fn four(b: u64, h1: u32) -> bool {
    // Vertical (1), horizontal (h1), the two diagonals (h1 - 1, h1 + 1).
    for s in [1, h1, h1 - 1, h1 + 1] {
        let m = b & (b >> s);
        if m & (m >> (2 * s)) != 0 {
            return true;
        }
    }
    false
}

impl Position {
    /// The empty board of `v` (which must pass [`Variant::check`]).
    pub fn start(v: Variant) -> Position {
        debug_assert!(v.check().is_ok());
        Position { v, current: 0, mask: 0, plies: 0, won: false, seq: [0; MAX_CELLS] }
    }

    /// Reads a position of `v`: `start`, or the columns played (`4453`).
    pub fn parse(text: &str, v: Variant) -> Result<Position, PositionError> {
        let mut p = Position::start(v);
        if text == "start" {
            return Ok(p);
        }
        if text.is_empty() {
            return Err(PositionError::Empty);
        }
        for (offset, found) in text.char_indices() {
            if !('1'..='9').contains(&found) {
                return Err(PositionError::Character { offset, found });
            }
        }
        if text.len() > v.cells() {
            return Err(PositionError::TooLong { cells: v.cells() });
        }
        for (i, b) in text.bytes().enumerate() {
            p.play(Move(b - b'1')).map_err(|error| PositionError::Illegal { index: i + 1, error })?;
        }
        Ok(p)
    }

    /// The board's size.
    pub fn variant(&self) -> Variant {
        self.v
    }

    /// Moves played so far.
    pub fn ply(&self) -> u32 {
        u32::from(self.plies)
    }

    /// Players: always 2.
    pub fn players(&self) -> usize {
        2
    }

    /// The team of `player`: each player is a team of his own.
    pub fn team(&self, player: usize) -> usize {
        player
    }

    /// The player to move: 0 (first) or 1 (second). Once the game is over,
    /// the player who would move next.
    pub fn to_move(&self) -> usize {
        usize::from(self.plies & 1)
    }

    /// The moves played, in order.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves_slice().iter().map(|&c| Move(c))
    }

    fn moves_slice(&self) -> &[u8] {
        &self.seq[..usize::from(self.plies)]
    }

    fn h1(&self) -> u32 {
        u32::from(self.v.height) + 1
    }

    /// The bit of column `c`'s bottom cell.
    fn bottom(&self, c: u8) -> u64 {
        1 << (u32::from(c) * self.h1())
    }

    /// The bit of column `c`'s top cell.
    fn top(&self, c: u8) -> u64 {
        1 << (u32::from(c) * self.h1() + u32::from(self.v.height) - 1)
    }

    /// The result, `None` while the game goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.won {
            Some(Outcome::Win { player: 1 - self.to_move() })
        } else if usize::from(self.plies) == self.v.cells() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The disc on `(column, row)` (0, 0 the bottom-left cell): `Some(0)`
    /// for the first player's, `Some(1)` for the second's, `None` if empty
    /// or off the board.
    pub fn disc(&self, column: u8, row: u8) -> Option<usize> {
        if column >= self.v.width || row >= self.v.height {
            return None;
        }
        let bit = self.bottom(column) << row;
        if self.mask & bit == 0 {
            return None;
        }
        let mover = self.current & bit != 0;
        Some(if mover { self.to_move() } else { 1 - self.to_move() })
    }

    /// Discs in column `column`.
    pub fn column_height(&self, column: u8) -> u8 {
        let bits = u32::from(self.v.height);
        let col = (self.mask >> (u32::from(column) * self.h1())) & ((1 << bits) - 1);
        col.count_ones() as u8
    }

    /// The legal moves, left to right (none once the game is over).
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.won {
            return;
        }
        out.extend((0..self.v.width).filter(|&c| self.mask & self.top(c) == 0).map(Move));
    }

    /// The number of legal moves.
    pub fn count_moves(&self) -> usize {
        if self.won {
            return 0;
        }
        (0..self.v.width).filter(|&c| self.mask & self.top(c) == 0).count()
    }

    /// The `n`-th legal move (from 0, left to right), if there are more
    /// than `n`.
    pub fn nth_move(&self, n: usize) -> Option<Move> {
        if self.won {
            return None;
        }
        (0..self.v.width).filter(|&c| self.mask & self.top(c) == 0).nth(n).map(Move)
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.check(m).is_ok()
    }

    /// `Ok(())` if `m` is legal, otherwise why not.
    pub fn check(&self, m: Move) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if m.0 >= self.v.width {
            return Err(MoveError::OffTheBoard { column: m, width: self.v.width });
        }
        if self.mask & self.top(m.0) != 0 {
            return Err(MoveError::Full(m));
        }
        Ok(())
    }

    /// Plays `m` if it is legal; otherwise returns why not and changes
    /// nothing.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays `m`, known to be legal (the position is inconsistent
    /// otherwise; checked only by a `debug_assert!`).
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        debug_assert!(self.is_legal(m), "illegal move {m} in {self}");
        let new = self.mask | (self.mask + self.bottom(m.0));
        let mine = self.current | (new & !self.mask);
        self.won = four(mine, self.h1());
        self.current = mine ^ new;
        self.mask = new;
        self.seq[usize::from(self.plies)] = m.0;
        self.plies += 1;
    }

    /// Whether playing `m` (legal) makes four for the player to move.
    pub fn wins_with(&self, m: Move) -> bool {
        let new = self.mask | (self.mask + self.bottom(m.0));
        four(self.current | (new & !self.mask), self.h1())
    }

    /// The two bitboards, in the layout of this module's documentation:
    /// the discs of the player to move, and every disc. For searches that
    /// reason on the board (threats, fours in reach); the rules never need
    /// them.
    pub fn bitboards(&self) -> (u64, u64) {
        (self.current, self.mask)
    }

    /// A key unique to the board (not the move order) for this variant:
    /// the mover's discs plus every disc, as the public solvers key their
    /// tables. Two positions with the same key have the same discs, so the
    /// same future.
    pub fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// A well-mixed 64-bit hash of the board and its size, for tables
    /// indexed by low bits: [`Position::key`] through a bijective mix, so
    /// two boards of one size never share it.
    pub fn hash(&self) -> u64 {
        let size = u64::from(self.v.width) << 4 | u64::from(self.v.height);
        let mut z = self.key() ^ size.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Reads a move's text (one column digit) and checks that it is legal
    /// here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m: Move = text.parse()?;
        self.check(m)?;
        Ok(m)
    }

    /// The board for a terminal: rows top first, `X` the first player's
    /// discs, `O` the second's, `.` empty, the column digits below; then
    /// the side to move or the result. With `colour`, discs in ANSI red and
    /// yellow.
    pub fn board_text(&self, colour: bool) -> String {
        let mut out = String::new();
        for row in (0..self.v.height).rev() {
            let cells: Vec<String> = (0..self.v.width)
                .map(|c| match (self.disc(c, row), colour) {
                    (None, _) => ".".to_string(),
                    (Some(0), false) => "X".to_string(),
                    (Some(_), false) => "O".to_string(),
                    (Some(0), true) => "\x1b[31mX\x1b[0m".to_string(),
                    (Some(_), true) => "\x1b[33mO\x1b[0m".to_string(),
                })
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        let digits: Vec<String> = (1..=self.v.width).map(|c| c.to_string()).collect();
        out.push_str(&digits.join(" "));
        out.push('\n');
        out.push_str(&match self.outcome() {
            None => format!("{} to move (ply {})", ["X (first)", "O (second)"][self.to_move()], self.ply()),
            Some(Outcome::Win { player }) => {
                format!("{} wins (ply {})", ["X (first)", "O (second)"][player], self.ply())
            }
            Some(Outcome::Draw) => format!("a draw: the board is full (ply {})", self.ply()),
        });
        out.push('\n');
        out
    }
}

/// `start`, or the columns played (`4453`).
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.plies == 0 {
            return f.write_str("start");
        }
        for m in self.moves() {
            write!(f, "{m}")?;
        }
        Ok(())
    }
}

/// A position of the default 7 × 6 board ([`Position::parse`]).
impl FromStr for Position {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Position, PositionError> {
        Position::parse(s, Variant::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(t: &str) -> Position {
        t.parse().unwrap()
    }

    #[test]
    fn fours_in_every_direction_end_the_game() {
        let win0 = Some(Outcome::Win { player: 0 });
        // Vertical in column 1 for the first player.
        let p = pos("1212121");
        assert_eq!(p.outcome(), win0);
        assert_eq!((p.count_moves(), p.nth_move(0)), (0, None));
        // Horizontal on the bottom row, columns 1-4.
        assert_eq!(pos("1122334").outcome(), win0);
        // Rising diagonal a1 b2 c3 d4, and its mirror g1 f2 e3 d4.
        assert_eq!(pos("1223343454").outcome(), None);
        assert_eq!(pos("12233434544").outcome(), win0);
        assert_eq!(pos("76655454344").outcome(), win0);
        // The second player wins too.
        assert_eq!(pos("71212121").outcome(), Some(Outcome::Win { player: 1 }));
        // No wrap between a column's top and the next column's bottom:
        // the first player holds a4 a5 a6 and b1.
        let p = pos("21317117171");
        assert_eq!((p.outcome(), p.disc(0, 5), p.disc(1, 0)), (None, Some(0), Some(0)), "{p}");
        assert!(!p.wins_with(Move(1)) && !p.wins_with(Move(5)));
        assert!(pos("112233").wins_with(Move(3)));
        assert_eq!(pos("1122334").to_move(), 1);
    }

    #[test]
    fn texts_and_errors() {
        assert_eq!(pos("start").to_string(), "start");
        assert_eq!(pos("4453").to_string(), "4453");
        let p = pos("4453");
        assert_eq!((p.disc(3, 0), p.disc(3, 1), p.disc(4, 0), p.disc(2, 0)), (Some(0), Some(1), Some(0), Some(1)));
        assert_eq!((p.column_height(3), p.disc(3, 2), p.disc(7, 0)), (2, None, None));
        let err = |t: &str| t.parse::<Position>().unwrap_err();
        assert_eq!(err(""), PositionError::Empty);
        assert_eq!(err("44 5"), PositionError::Character { offset: 2, found: ' ' });
        assert_eq!(err("40"), PositionError::Character { offset: 1, found: '0' });
        assert_eq!(err("4é"), PositionError::Character { offset: 1, found: 'é' });
        assert_eq!(
            err("48"),
            PositionError::Illegal { index: 2, error: MoveError::OffTheBoard { column: Move(7), width: 7 } }
        );
        assert_eq!(err("4444444"), PositionError::Illegal { index: 7, error: MoveError::Full(Move(3)) });
        assert_eq!(err("12121212"), PositionError::Illegal { index: 8, error: MoveError::GameOver });
        assert_eq!(err(&"1".repeat(43)), PositionError::TooLong { cells: 42 });
        assert!(err("48").to_string().starts_with("move 2: column 8 is off the board"));
        assert_eq!("5".parse::<Move>(), Ok(Move(4)));
        assert!(matches!("0".parse::<Move>(), Err(MoveError::Syntax(_))));
        assert!(matches!("10".parse::<Move>(), Err(MoveError::Syntax(_))));
        let v = Variant::parse("width=9").unwrap();
        assert_eq!(Position::parse("99", v).unwrap().to_string(), "99");
        let p = pos("4453");
        assert_eq!(p.parse_move("4"), Ok(Move(3)));
        assert_eq!(pos("444444").parse_move("4"), Err(MoveError::Full(Move(3))));
        assert!(matches!(p.parse_move("x"), Err(MoveError::Syntax(_))));
        assert_eq!(
            p.board_text(false),
            ". . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . O . . .\n. . O X X . .\n1 2 3 4 5 6 7\nX (first) to move (ply 4)\n"
        );
    }
}
