//! A game in progress: position, incremental hash, move record and the
//! history that repetition needs ([`History`]); the four end conditions
//! ([`Outcome::decide`]).
//!
//! This is the only place that knows about repetition and the order of the
//! end rules; `Position` itself has no memory. Callers elsewhere (self-play,
//! search states) keep a [`History`] and ask [`Outcome`]; they must never
//! write an end rule of their own.

use crate::bounds::Recurrences;
use crate::dice::Side;
use crate::movegen::Illegal;
use crate::moves::Move;
use crate::position::{Piles, Position};
use crate::variant::MAX_CLOSURE;
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A pile reached the majority (5 in the rules).
    Majority,
    /// The same position came up a third time (in the rules).
    Repetition,
    /// 60 half-moves without a die through the door (in the rules).
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
    /// The outcome when piles are counted in the rules: the bigger pile
    /// wins, equal piles draw. A variant may give ties to the second mover:
    /// [`Outcome::counted`].
    pub fn by_piles(piles: Piles, reason: EndReason) -> Outcome {
        Outcome { winner: piles.leader(), reason }
    }

    /// The outcome when the piles of `p` are counted under its variant
    /// ([`Variant::count_piles`](crate::Variant::count_piles)): the bigger
    /// pile wins; equal piles draw, or win for the second mover (`ties=second`).
    #[inline]
    pub fn counted(p: &Position, reason: EndReason) -> Outcome {
        Outcome { winner: p.variant().count_piles(p.piles()), reason }
    }

    /// The end rules, the only place they are written, checked in the
    /// rules' order: majority, repetition (the position has occurred
    /// `occurrences` times, 1 the first time), closure, block. `blocked`
    /// says whether the side to move has no legal move; it is asked last,
    /// in play only, so that a caller that needs the move count anyway can
    /// count once. `None` if play goes on.
    #[inline]
    pub fn decide(p: &Position, occurrences: usize, blocked: impl FnOnce() -> bool) -> Option<Outcome> {
        if let Some(side) = p.majority() {
            return Some(Outcome { winner: Some(side), reason: EndReason::Majority });
        }
        if !p.is_play() {
            return None;
        }
        if occurrences >= p.repetition() as usize {
            return Some(Outcome::counted(p, EndReason::Repetition));
        }
        if p.clock() >= p.closure() {
            return Some(Outcome::counted(p, EndReason::Closure));
        }
        blocked().then(|| Outcome::counted(p, EndReason::Block))
    }

    /// The outcome of the position `p` reached with `history` (its own hash
    /// last, as [`History::record`] leaves it), or `None` if play goes on.
    pub fn of(p: &Position, history: &History) -> Option<Outcome> {
        Outcome::decide(p, history.occurrences(), || !p.has_moves())
    }

    /// The outcome of `p` when it has occurred `occurrences` times: [`Outcome::decide`]
    /// with the move generator deciding block.
    pub fn of_occurrences(p: &Position, occurrences: usize) -> Option<Outcome> {
        Outcome::decide(p, occurrences, || !p.has_moves())
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

/// Room for a history: at most one position per clock value 0..=closure,
/// for the largest closure a variant may set.
pub const HISTORY: usize = MAX_CLOSURE as usize + 1;

/// What repetition needs: the hashes of the play positions since the last
/// die went through the door (no earlier position can come back once a die
/// has left the board), the current one last. Fixed size, so that search
/// states holding one stay `Copy`. The single repetition history, kept by
/// [`GameRecord`] and by search states alike. Only the first `len` hashes
/// count: equality and `Debug` look at those alone, and
/// [`History::copy_kept`] copies those alone (what lies beyond is stale).
#[derive(Clone, Copy)]
pub struct History {
    len: u8,
    hashes: [u64; HISTORY],
}

impl PartialEq for History {
    fn eq(&self, other: &History) -> bool {
        self.hashes() == other.hashes()
    }
}

impl Eq for History {}

impl fmt::Debug for History {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("History").field("hashes", &self.hashes()).finish()
    }
}

impl History {
    /// The history of a game starting from `start`, whose hash is `hash`:
    /// `start` alone if it is a play position, empty in the draft.
    pub fn new(start: &Position, hash: u64) -> History {
        let mut h = History { len: 0, hashes: [0; HISTORY] };
        h.record(start, hash);
        h
    }

    /// Records the position `p` (hash `hash`) just reached by a move: nothing
    /// in the draft; a die through the door (clock 0) starts a new history.
    /// Returns the hash dropped to make room, if the history was full (which
    /// a legal game never reaches: closure comes first).
    #[inline]
    pub fn record(&mut self, p: &Position, hash: u64) -> Option<u64> {
        if !p.is_play() {
            return None;
        }
        if p.clock() == 0 {
            self.len = 0;
        }
        let mut dropped = None;
        if self.len as usize == HISTORY {
            dropped = Some(self.hashes[0]);
            self.hashes.copy_within(1.., 0);
            self.len -= 1;
        }
        self.hashes[self.len as usize] = hash;
        self.len += 1;
        dropped
    }

    /// Makes this history equal to `other`, copying only the hashes it
    /// keeps (a history of a few hashes costs a few words, not the whole array).
    #[inline]
    pub fn copy_kept(&mut self, other: &History) {
        let n = other.len as usize;
        self.len = other.len;
        self.hashes[..n].copy_from_slice(&other.hashes[..n]);
    }

    /// The hashes kept, oldest first.
    #[inline]
    pub fn hashes(&self) -> &[u64] {
        &self.hashes[..self.len as usize]
    }

    /// How many times the current (last recorded) position has occurred, 1
    /// the first time; 1 in the draft, where nothing is recorded.
    #[inline]
    pub fn occurrences(&self) -> usize {
        match self.hashes().last() {
            Some(&h) => self.hashes().iter().filter(|&&x| x == h).count(),
            None => 1,
        }
    }

    /// The repetition counts of the window by side to move
    /// ([`Recurrences`]): the positions an even number of records before the
    /// last have its side to move (each play move changes it), the others
    /// the other side. Counted afresh (quadratic in the window, at most
    /// [`HISTORY`] hashes); search states keep them with
    /// [`Recurrences::after`] instead.
    pub fn recurrences(&self) -> Recurrences {
        let hashes = self.hashes();
        let mut rec = Recurrences { same: 0, other: 0 };
        for (j, &h) in hashes.iter().rev().enumerate() {
            let count = hashes.iter().filter(|&&x| x == h).count() as u8;
            let class = if j % 2 == 0 { &mut rec.same } else { &mut rec.other };
            *class = (*class).max(count);
        }
        rec
    }

    /// How many times `p` (hash `hash`) will have occurred once recorded:
    /// exactly what `record` then `occurrences` give, without a copy.
    #[inline]
    pub fn occurrences_after(&self, p: &Position, hash: u64) -> usize {
        if !p.is_play() || p.clock() == 0 {
            return 1;
        }
        // `record` drops the oldest hash when the history is full.
        let from = (self.len as usize == HISTORY) as usize;
        1 + self.hashes[from..self.len as usize].iter().filter(|&&h| h == hash).count()
    }
}

/// A game record: the start, the moves played, the current position and its
/// [`History`]. (Not `game_search::Game`, the trait the searches are generic
/// over; this is the rules' own record of one game.)
#[derive(Clone, Debug)]
pub struct GameRecord {
    start: Position,
    position: Position,
    hash: u64,
    moves: Vec<Move>,
    history: History,
}

impl GameRecord {
    /// A game starting from `start` (the start of a draft, or any position).
    pub fn new(start: Position) -> GameRecord {
        let hash = start.hash();
        GameRecord { start, position: start, hash, moves: Vec::new(), history: History::new(&start, hash) }
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

    /// The repetition history.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// How many times the current position has occurred (1 the first time).
    pub fn occurrences(&self) -> usize {
        self.history.occurrences()
    }

    /// The outcome if the game is over, checked in the rules' order:
    /// majority, repetition, closure, block ([`Outcome::of`]).
    pub fn outcome(&self) -> Option<Outcome> {
        Outcome::of(&self.position, &self.history)
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
        self.history.record(&self.position, self.hash);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::CLOSURE;
    use testkit::XorShift64;

    /// Random games from the start, each position with its game so far.
    fn games(seeds: u64) -> impl Iterator<Item = GameRecord> {
        (0..seeds).flat_map(|seed| {
            let mut rng = XorShift64::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            let mut game = GameRecord::new(Position::start());
            let mut all = vec![game.clone()];
            while game.outcome().is_none() {
                let legal = game.position().legal_moves();
                game.play(legal[rng.below(legal.len())]).expect("legal");
                all.push(game.clone());
            }
            all
        })
    }

    #[test]
    fn history_counts_the_positions_since_the_door() {
        for game in games(30) {
            // Brute force: replay, counting the current hash among the play
            // positions since the last clock reset.
            let mut p = *game.start();
            let mut hash = p.hash();
            let mut since: Vec<u64> = if p.is_play() { vec![hash] } else { vec![] };
            for &m in game.moves() {
                p.play_hashed(m, &mut hash);
                if p.is_play() {
                    if p.clock() == 0 {
                        since.clear();
                    }
                    since.push(hash);
                }
            }
            assert_eq!(game.history().hashes(), &since[..]);
            let want = if p.is_play() { since.iter().filter(|&&h| h == hash).count() } else { 1 };
            assert_eq!(game.occurrences(), want);
            // occurrences_after is record-then-occurrences, without the copy.
            for &m in game.position().legal_moves().iter().take(8) {
                let (mut q, mut h) = (*game.position(), game.hash());
                q.play_hashed(m, &mut h);
                let mut after = *game.history();
                after.record(&q, h);
                assert_eq!(game.history().occurrences_after(&q, h), after.occurrences());
            }
        }
    }

    #[test]
    fn outcome_follows_the_rules_order() {
        for game in games(30) {
            let p = game.position();
            let o = game.outcome();
            let want = if let Some(side) = p.majority() {
                Some(Outcome { winner: Some(side), reason: EndReason::Majority })
            } else if !p.is_play() {
                None
            } else if game.occurrences() >= 3 {
                Some(Outcome::by_piles(p.piles(), EndReason::Repetition))
            } else if p.clock() >= CLOSURE {
                Some(Outcome::by_piles(p.piles(), EndReason::Closure))
            } else if p.legal_moves().is_empty() {
                Some(Outcome::by_piles(p.piles(), EndReason::Block))
            } else {
                None
            };
            assert_eq!(o, want);
            assert_eq!(Outcome::of_occurrences(p, game.occurrences()), want);
        }
    }

    #[test]
    fn counted_ends_follow_the_tie_rule() {
        // Piles 2-2 at clock 1: over by closure under closure=1.
        let after6 = "3Tr,8Sb,10Tb,13Sr,18Tr,9Tb,6Cr,12Sb,5Cr,15Tr,16Sb/.,4Sb,.,.,1Sr,.,20Cb/17Cb,2Sr,21Tr,23Cr,7Cr b I20 2-2-0 1";
        for (text, winner) in [
            ("closure=1", None),
            ("closure=1,ties=second", Some(Side::Red)),
            ("closure=1,ties=second,first_mover=red", Some(Side::Blue)),
            ("closure=2,ties=second", None),
        ] {
            let v = crate::Variant::parse(text).unwrap();
            let p = Position::from_spn_in(after6, v).unwrap();
            let want = (text != "closure=2,ties=second").then_some(Outcome { winner, reason: EndReason::Closure });
            assert_eq!(Outcome::of_occurrences(&p, 1), want, "{text}");
        }
        // Repetition counts the piles the same way.
        let v = crate::Variant::parse("ties=second").unwrap();
        let p = Position::from_spn_in(after6, v).unwrap();
        let o = Outcome::of_occurrences(&p, 3);
        assert_eq!(o, Some(Outcome { winner: Some(Side::Red), reason: EndReason::Repetition }));
    }

    #[test]
    fn a_full_history_drops_its_oldest() {
        let p = Position::start();
        let mut game = GameRecord::new(p);
        while !game.position().is_play() {
            let m = game.position().legal_moves()[0];
            game.play(m).expect("legal");
        }
        let q = *game.position();
        // Clock 0 starts anew; force growth with a nonzero clock position.
        let mut h = History::new(&q, 1);
        let mut moved = q;
        if let Some(&m) = q.legal_moves().iter().find(|m| !m.is_door_push()) {
            moved.play_unchecked(m);
        }
        if moved.clock() > 0 {
            for i in 2..=(HISTORY as u64 + 1) {
                let dropped = h.record(&moved, i);
                assert_eq!(dropped, (i == HISTORY as u64 + 1).then_some(1));
            }
            assert_eq!(h.hashes().len(), HISTORY);
            assert_eq!(h.hashes()[0], 2);
        }
    }
}
