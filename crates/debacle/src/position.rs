//! The state of a Débâcle match and its transitions: the fast move
//! generator, `play` (checked) and `play_unchecked`, the round and match ends
//! and the safeguards.
//!
//! Squares are numbers 0..36, `rank * 6 + file`, a1 = 0, f1 = 5, a6 = 30,
//! f6 = 35. South is player 0 (home row rank 1), North player 1 (rank 6).
//!
//! What it must never do: I/O, search, or randomness (a random setup comes
//! in through `Variant::faces`, chosen by the caller); or decide an end
//! anywhere else than `end_round` (read by `outcome()`).

use crate::Outcome;
use crate::notation::MoveError;
use crate::variant::{Scoring, Variant};
use crate::zobrist::{PIECE, PILE, mix};

/// A square index, `rank * 6 + file` (a1 = 0, b1 = 1, …, f6 = 35).
pub type Square = u8;

/// The direction of a roll. Left and right are absolute, as the board is
/// drawn from South's side: `Left` goes towards file a, `Right` towards file f,
/// for both players. `Forward` is towards the opponent's home row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// One rank towards the opponent's home row (up for South, down for North).
    Forward,
    /// One file towards file a (absolute).
    Left,
    /// One file towards file f (absolute).
    Right,
}

impl Dir {
    /// The three directions in generation order.
    pub const ALL: [Dir; 3] = [Dir::Forward, Dir::Left, Dir::Right];
}

/// One decision (ply). A player's turn is several of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The die on `square` shows 7 − v.
    Flip {
        /// Where the die stands.
        square: Square,
    },
    /// The die on `from` rolls one square in `dir` and shows v + 1 (6 → 1),
    /// capturing an enemy die there; on the enemy home row it goes at once to
    /// `home`, an empty square of its own home row.
    Roll {
        /// Where the die stands.
        from: Square,
        /// Where it rolls.
        dir: Dir,
        /// The own home square it is moved to after reaching the enemy home row
        /// (`None` otherwise, and when that roll's capture ends the round under
        /// `relocate_on_end=no`).
        home: Option<Square>,
    },
    /// End of turn: the lowest die the opponent holds comes back on `to`, an
    /// empty square of the mover's home row.
    Recover {
        /// The home square.
        to: Square,
    },
    /// End of turn: the recovery is offered and not taken.
    Decline,
}

/// Where the side to move is within his turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// A regular action: `index` 0 (first) or 1 (second). `flipped` is the square
    /// of the die the first action flipped (which the second may not flip); only with index 1.
    Action {
        /// 0 or 1.
        index: u8,
        /// The die flipped by the first regular action, if it was a flip.
        flipped: Option<Square>,
    },
    /// The compulsory rebond of the die on `square`, which just captured;
    /// `after` regular actions (1 or 2) are done.
    Rebond {
        /// The capturing die.
        square: Square,
        /// Regular actions already played this turn (1 or 2).
        after: u8,
    },
    /// End of turn: recover (`Move::Recover`) or not (`Move::Decline`).
    Recovery,
}

/// A position of a match: board, piles, turn phase, scores and counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Cell codes: 0 empty, 1 + 6·owner + (value − 1).
    pub(crate) board: [u8; 36],
    /// `piles[holder][v - 1]`: how many enemy dice of value v `holder` has captured.
    pub(crate) piles: [[u8; 6]; 2],
    /// Match scores.
    pub(crate) scores: [u32; 2],
    /// Zobrist hash, kept by `play`.
    pub(crate) hash: u64,
    /// Plies played since the start of the match.
    pub(crate) ply: u32,
    /// Round number, from 1.
    pub(crate) round: u16,
    /// Turns completed in this round.
    pub(crate) turn: u16,
    /// Consecutive completed turns of this round without a capture.
    pub(crate) quiet: u16,
    /// The turn phase.
    pub(crate) phase: Phase,
    /// Side to move.
    pub(crate) to_move: u8,
    /// Who started this round.
    pub(crate) starter: u8,
    /// This turn captured (or recovered, under `recovery_resets=yes`).
    pub(crate) captured: bool,
    /// The result, once the match is over.
    pub(crate) result: Option<Outcome>,
    /// The rules.
    pub(crate) variant: Variant,
}

/// The cell code of a die.
pub(crate) const fn code(owner: u8, value: u8) -> u8 {
    1 + 6 * owner + (value - 1)
}

/// Owner of a non-empty cell code.
pub(crate) const fn owner_of(c: u8) -> u8 {
    (c - 1) / 6
}

/// Value of a non-empty cell code.
pub(crate) const fn value_of(c: u8) -> u8 {
    (c - 1) % 6 + 1
}

/// The home rank (0 or 5) of a player.
pub(crate) const fn home_rank(player: u8) -> u8 {
    if player == 0 { 0 } else { 5 }
}

/// The square a roll reaches, if on the board.
pub(crate) const fn step(sq: Square, dir: Dir, player: u8) -> Option<Square> {
    let (r, f) = (sq / 6, sq % 6);
    match dir {
        Dir::Forward => {
            if player == 0 {
                if r == 5 { None } else { Some(sq + 6) }
            } else if r == 0 {
                None
            } else {
                Some(sq - 6)
            }
        }
        Dir::Left => {
            if f == 0 {
                None
            } else {
                Some(sq - 1)
            }
        }
        Dir::Right => {
            if f == 5 {
                None
            } else {
                Some(sq + 1)
            }
        }
    }
}

impl Position {
    /// The start of a match under `v`: round 1, South to move.
    pub fn start(v: Variant) -> Position {
        let mut p = Position {
            board: [0; 36],
            piles: [[0; 6]; 2],
            scores: [0; 2],
            hash: 0,
            ply: 0,
            round: 1,
            turn: 0,
            quiet: 0,
            phase: Phase::Action { index: 0, flipped: None },
            to_move: 0,
            starter: 0,
            captured: false,
            result: None,
            variant: v,
        };
        p.set_up_board();
        p.hash = p.hash_from_scratch();
        p
    }

    /// Puts the starting dice on an empty board (hash kept).
    fn set_up_board(&mut self) {
        let faces = self.variant.faces;
        for (i, &f) in faces.iter().enumerate() {
            self.put(i as u8, code(0, f));
            self.put(35 - i as u8, code(1, f));
        }
    }

    /// The rules.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Always 2.
    pub fn players(&self) -> usize {
        2
    }

    /// The player who makes the next decision (0 South, 1 North); still a player when over.
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// A player's team: the player himself.
    pub fn team(&self, player: usize) -> usize {
        player
    }

    /// Decisions (moves) played since the start of the match.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The die on `sq` as (owner, value), or `None` when empty.
    pub fn cell(&self, sq: Square) -> Option<(usize, u8)> {
        let c = self.board[sq as usize];
        (c != 0).then(|| (owner_of(c) as usize, value_of(c)))
    }

    /// The enemy dice `holder` has captured this round, `[count of 1s, …, count of 6s]`.
    pub fn pile(&self, holder: usize) -> [u8; 6] {
        self.piles[holder]
    }

    /// How many enemy dice `holder` holds.
    pub fn held(&self, holder: usize) -> usize {
        self.piles[holder].iter().map(|&n| n as usize).sum()
    }

    /// The match scores, South's first.
    pub fn scores(&self) -> [u32; 2] {
        self.scores
    }

    /// The round number, from 1.
    pub fn round(&self) -> u16 {
        self.round
    }

    /// The player who started this round.
    pub fn starter(&self) -> usize {
        self.starter as usize
    }

    /// Turns completed in this round (the 1,000-turn safeguard counts these).
    pub fn turns_in_round(&self) -> u16 {
        self.turn
    }

    /// Regular actions played in this round: two per completed turn, and
    /// those of the turn in progress (its rebonds and recovery decision
    /// are not counted); 0 at a round's start. The position alone gives
    /// it (its text has no record of the ply at which the round began):
    /// the lab's move temperature counts each round's decisions by it.
    pub fn actions_in_round(&self) -> u32 {
        let in_turn = match self.phase {
            Phase::Action { index, .. } => index,
            Phase::Rebond { after, .. } => after,
            Phase::Recovery => 2,
        };
        2 * u32::from(self.turn) + u32::from(in_turn)
    }

    /// Consecutive completed turns without a capture (the 100-turn safeguard counts these).
    pub fn quiet_turns(&self) -> u16 {
        self.quiet
    }

    /// Whether the turn in progress has captured (it will reset the no-capture counter).
    pub fn captured_this_turn(&self) -> bool {
        self.captured
    }

    /// Where the side to move is within his turn.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The result of the match, once over. The one end check: the match is
    /// over exactly when this is `Some`, and then there are no legal moves.
    pub fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    /// The Zobrist hash, kept incrementally by `play`.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash recomputed from the state; always equal to `hash()`.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = self.meta_key();
        for (sq, &c) in self.board.iter().enumerate() {
            h ^= PIECE[sq][c as usize];
        }
        for (p, pile) in self.piles.iter().enumerate() {
            for (v, &n) in pile.iter().enumerate() {
                h ^= PILE[p][v][n as usize];
            }
        }
        h
    }

    /// The part of the hash that is not the board or the piles.
    fn meta_key(&self) -> u64 {
        let phase: u64 = match self.phase {
            Phase::Action { index, flipped } => index as u64 | (flipped.unwrap_or(36) as u64) << 2,
            Phase::Rebond { square, after } => 1 << 8 | after as u64 | (square as u64) << 2,
            Phase::Recovery => 2 << 8,
        };
        let result: u64 = match self.result {
            None => 0,
            Some(Outcome::Win { team }) => 1 + team as u64,
            Some(Outcome::Draw) => 3,
        };
        let a = self.to_move as u64 | (self.starter as u64) << 1 | result << 2 | phase << 4 | (self.round as u64) << 16;
        let b = self.scores[0] as u64 | (self.scores[1] as u64) << 32;
        mix(a) ^ mix(b ^ 0x5c0e_5c0e_5c0e_5c0e).rotate_left(17)
    }

    /// Sets a cell, keeping the hash.
    fn put(&mut self, sq: Square, c: u8) {
        let s = sq as usize;
        self.hash ^= PIECE[s][self.board[s] as usize] ^ PIECE[s][c as usize];
        self.board[s] = c;
    }

    /// Changes a pile count by one, keeping the hash.
    fn pile_change(&mut self, holder: u8, value: u8, add: bool) {
        let (h, v) = (holder as usize, value as usize - 1);
        let n = self.piles[h][v] as usize;
        let m = if add { n + 1 } else { n - 1 };
        self.hash ^= PILE[h][v][n] ^ PILE[h][v][m];
        self.piles[h][v] = m as u8;
    }

    /// Whether the end-of-turn recovery is offered to the side to move now.
    pub(crate) fn recovery_offered(&self) -> bool {
        let me = self.to_move;
        if self.held(1 - me as usize) == 0 {
            return false;
        }
        let mut seen = 0u8;
        for &c in &self.board {
            if c != 0 && owner_of(c) == me {
                let v = value_of(c);
                if seen == 0 {
                    seen = v;
                } else if seen != v {
                    return false;
                }
            }
        }
        true
    }

    /// Calls `emit` with every action of the die on `sq` (flip first if allowed, then rolls).
    fn die_moves(&self, sq: Square, allow_flip: bool, emit: &mut impl FnMut(Move)) {
        let me = self.to_move;
        let v = value_of(self.board[sq as usize]);
        if allow_flip {
            emit(Move::Flip { square: sq });
        }
        let enemy_home = home_rank(1 - me);
        let own_home = home_rank(me) * 6;
        for dir in Dir::ALL {
            let Some(t) = step(sq, dir, me) else { continue };
            let c = self.board[t as usize];
            let mut capture = false;
            if c != 0 {
                if owner_of(c) == me {
                    continue;
                }
                let tv = value_of(c);
                if !(v > tv || (v == 1 && tv != 1)) {
                    continue;
                }
                capture = true;
            }
            if t / 6 == enemy_home {
                if capture && self.held(me as usize) == 4 && !self.variant.relocate_on_end {
                    emit(Move::Roll { from: sq, dir, home: None });
                    continue;
                }
                for h in own_home..own_home + 6 {
                    if self.board[h as usize] == 0 || h == sq {
                        emit(Move::Roll { from: sq, dir, home: Some(h) });
                    }
                }
            } else {
                emit(Move::Roll { from: sq, dir, home: None });
            }
        }
    }

    /// Calls `emit` with every legal move, in the fixed order of `legal_moves`.
    pub fn for_each_move(&self, mut emit: impl FnMut(Move)) {
        if self.result.is_some() {
            return;
        }
        let me = self.to_move;
        match self.phase {
            Phase::Action { index, flipped } => {
                for sq in 0..36u8 {
                    let c = self.board[sq as usize];
                    if c != 0 && owner_of(c) == me {
                        let allow_flip = !(index == 1 && flipped == Some(sq));
                        self.die_moves(sq, allow_flip, &mut emit);
                    }
                }
            }
            Phase::Rebond { square, .. } => self.die_moves(square, true, &mut emit),
            Phase::Recovery => {
                let home = home_rank(me) * 6;
                for h in home..home + 6 {
                    if self.board[h as usize] == 0 {
                        emit(Move::Recover { to: h });
                    }
                }
                emit(Move::Decline);
            }
        }
    }

    /// The legal moves (clears `out`); empty iff `outcome()` is `Some`. Fixed order:
    /// by square a1..f6, a flip then rolls forward, left, right (home squares a..f);
    /// in the recovery phase the home squares a..f, then `Decline`.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        self.for_each_move(|m| out.push(m));
    }

    /// How many legal moves (a view of the same generator).
    pub fn count_moves(&self) -> usize {
        let mut n = 0;
        self.for_each_move(|_| n += 1);
        n
    }

    /// Whether `m` is legal here (a view of the same generator).
    pub fn is_legal(&self, m: Move) -> bool {
        let mut found = false;
        self.for_each_move(|x| found |= x == m);
        found
    }

    /// Plays `m` if it is legal ([`Position::check`]); otherwise leaves the position as it was and
    /// says why ([`MoveError::Illegal`]).
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// The fast path of [`Position::play`]: plays `m`, which must be legal here (from
    /// `legal_moves` or checked), keeping the hash incrementally. An illegal move fails a
    /// `debug_assert!` in debug builds and leaves an inconsistent position otherwise.
    pub fn play_unchecked(&mut self, m: Move) {
        debug_assert!(self.is_legal(m), "illegal move {m} in {self}");
        let old_meta = self.meta_key();
        self.ply += 1;
        let me = self.to_move;
        let (done, flip_then) = match self.phase {
            Phase::Action { index, .. } => (index + 1, index == 0),
            Phase::Rebond { after, .. } => (after, false),
            Phase::Recovery => (2, false),
        };
        match m {
            Move::Flip { square } => {
                let v = value_of(self.board[square as usize]);
                self.put(square, code(me, 7 - v));
                self.after_action(done, if flip_then { Some(square) } else { None });
            }
            Move::Roll { from, dir, home } => {
                let v = value_of(self.board[from as usize]);
                let t = step(from, dir, me).expect("a legal roll stays on the board");
                self.put(from, 0);
                let target = self.board[t as usize];
                let nv = if v == 6 { 1 } else { v + 1 };
                let dest = match home {
                    Some(h) => h,
                    None if t / 6 == home_rank(1 - me) => {
                        // The round ends at once (relocate_on_end=no): on a final board
                        // the die is shown on the first empty square of its home row.
                        let base = home_rank(me) * 6;
                        (base..base + 6).find(|&h| self.board[h as usize] == 0).expect("an empty home square")
                    }
                    None => t,
                };
                if target != 0 {
                    self.put(t, 0);
                    self.pile_change(me, value_of(target), true);
                    self.captured = true;
                }
                self.put(dest, code(me, nv));
                if target != 0 {
                    if self.held(me as usize) >= 5 {
                        self.end_round(Some(me));
                    } else {
                        self.phase = Phase::Rebond { square: dest, after: done };
                    }
                } else {
                    self.after_action(done, None);
                }
            }
            Move::Recover { to } => {
                let opp = 1 - me;
                let v = (1..=6u8).find(|&v| self.piles[opp as usize][v as usize - 1] > 0).expect("a held die");
                self.pile_change(opp, v, false);
                self.put(to, code(me, v));
                if self.variant.recovery_resets {
                    self.captured = true;
                }
                self.end_turn();
            }
            Move::Decline => self.end_turn(),
        }
        self.hash ^= old_meta ^ self.meta_key();
    }

    /// After a regular action or rebond that did not capture, with `done` regular actions played.
    fn after_action(&mut self, done: u8, flipped: Option<Square>) {
        if done < 2 {
            self.phase = Phase::Action { index: 1, flipped };
        } else if self.recovery_offered() {
            self.phase = Phase::Recovery;
        } else {
            self.end_turn();
        }
    }

    /// The turn is over: counters, safeguards, the other side.
    fn end_turn(&mut self) {
        self.turn = self.turn.saturating_add(1);
        self.quiet = if self.captured { 0 } else { self.quiet.saturating_add(1) };
        self.captured = false;
        if self.quiet >= self.variant.quiet || self.turn >= self.variant.turns {
            self.end_round(None);
            return;
        }
        self.to_move ^= 1;
        self.phase = Phase::Action { index: 0, flipped: None };
    }

    /// The round is over (`five`: who captured 5, `None` after a safeguard):
    /// scoring, then the match end or the next round.
    fn end_round(&mut self, five: Option<u8>) {
        let sums: [u32; 2] =
            std::array::from_fn(|p| self.piles[p].iter().enumerate().map(|(i, &n)| (i as u32 + 1) * n as u32).sum());
        match self.variant.scoring {
            Scoring::Both => {
                self.scores[0] += sums[0];
                self.scores[1] += sums[1];
            }
            Scoring::Winner => {
                if let Some(w) = five {
                    self.scores[w as usize] += sums[w as usize];
                }
            }
        }
        let [a, b] = self.scores;
        let t = self.variant.target as u32;
        let higher = |a: u32, b: u32| {
            if a > b {
                Some(Outcome::Win { team: 0 })
            } else if b > a {
                Some(Outcome::Win { team: 1 })
            } else {
                None
            }
        };
        let mut result = None;
        if a >= t || b >= t {
            result = higher(a, b).or(five.map(|w| Outcome::Win { team: w as usize }));
        }
        if result.is_none() && self.round >= self.variant.rounds {
            result = Some(higher(a, b).unwrap_or(Outcome::Draw));
        }
        self.phase = Phase::Action { index: 0, flipped: None };
        self.captured = false;
        if result.is_some() {
            self.result = result;
            return;
        }
        for sq in 0..36 {
            self.put(sq, 0);
        }
        for p in 0..2u8 {
            for v in 1..=6u8 {
                while self.piles[p as usize][v as usize - 1] > 0 {
                    self.pile_change(p, v, false);
                }
            }
        }
        self.set_up_board();
        self.round += 1;
        self.starter ^= 1;
        self.to_move = self.starter;
        self.turn = 0;
        self.quiet = 0;
    }
}

/// Counts the leaves `depth` plies ahead (bulk counting at the last ply).
pub fn perft(p: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => p.count_moves() as u64,
        _ => {
            let mut n = 0;
            p.for_each_move(|m| {
                let mut c = *p;
                c.play_unchecked(m);
                n += perft(&c, depth - 1);
            });
            n
        }
    }
}
