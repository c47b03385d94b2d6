//! A game in progress: position, incremental hash, move record and the
//! history that repetition needs; the four end conditions.
//!
//! This is the only place that knows about repetition; `Position` itself
//! has no memory.

use crate::dice::Side;
use crate::movegen::Illegal;
use crate::moves::Move;
use crate::position::{CLOSURE, Piles, Position};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A pile reached 5.
    Majority,
    /// The same position came up a third time.
    Repetition,
    /// 60 half-moves without a die through the door.
    Closure,
    /// The side to move has no legal move.
    Block,
}

impl EndReason {
    /// Lower-case name, as in CSV files.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Majority => "majority",
            EndReason::Repetition => "repetition",
            EndReason::Closure => "closure",
            EndReason::Block => "block",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// The outcome when piles are counted: the bigger pile wins, equal piles draw.
    pub fn by_piles(piles: Piles, reason: EndReason) -> Outcome {
        Outcome { winner: piles.leader(), reason }
    }

    /// The outcome of a position that has occurred `occurrences` times (1 the
    /// first time), checked in the rules' order: majority, repetition,
    /// closure, block.
    pub fn with_history(p: &Position, occurrences: usize) -> Option<Outcome> {
        if let Some(side) = p.majority() {
            return Some(Outcome { winner: Some(side), reason: EndReason::Majority });
        }
        if p.is_play() && occurrences >= 3 {
            return Some(Outcome::by_piles(p.piles(), EndReason::Repetition));
        }
        Outcome::of_position(p)
    }

    /// The outcome of a position with no history (majority, closure, block),
    /// or `None` if play goes on. Repetition needs a [`Game`].
    pub fn of_position(p: &Position) -> Option<Outcome> {
        if let Some(side) = p.majority() {
            return Some(Outcome { winner: Some(side), reason: EndReason::Majority });
        }
        if !p.is_play() {
            return None;
        }
        if p.clock() >= CLOSURE {
            return Some(Outcome::by_piles(p.piles(), EndReason::Closure));
        }
        (!p.has_moves()).then(|| Outcome::by_piles(p.piles(), EndReason::Block))
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(s) => write!(f, "{s} wins by {}", self.reason),
            None => write!(f, "draw by {}", self.reason),
        }
    }
}

/// A game: the start, the moves played, the current position and the
/// hashes of the play positions since the last die went through the door
/// (no earlier position can come back once a die has left the board).
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    hash: u64,
    moves: Vec<Move>,
    since_door: Vec<u64>,
}

impl Game {
    /// A game starting from `start` (the start of a draft, or any position).
    pub fn new(start: Position) -> Game {
        let hash = start.hash();
        let since_door = if start.is_play() { vec![hash] } else { Vec::new() };
        Game { start, position: start, hash, moves: Vec::new(), since_door }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The current position's Zobrist hash.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How many times the current position has occurred (1 the first time).
    pub fn occurrences(&self) -> usize {
        if !self.position.is_play() {
            return 1;
        }
        self.since_door.iter().filter(|&&h| h == self.hash).count()
    }

    /// The outcome if the game is over, checked in the rules' order:
    /// majority, repetition, closure, block.
    pub fn outcome(&self) -> Option<Outcome> {
        Outcome::with_history(&self.position, self.occurrences())
    }

    /// Plays a legal move, refusing any move once the game is over.
    pub fn play(&mut self, m: Move) -> Result<(), Illegal> {
        if let Some(o) = self.outcome() {
            return Err(Illegal::GameOver(o.to_string()));
        }
        self.position.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move known to be legal.
    pub fn play_unchecked(&mut self, m: Move) {
        self.position.play_hashed(m, &mut self.hash);
        self.moves.push(m);
        if self.position.is_play() {
            if self.position.clock() == 0 {
                self.since_door.clear();
            }
            self.since_door.push(self.hash);
        }
    }
}
