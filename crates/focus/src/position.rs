//! The state of a game of Focus and its fast rules: start positions, the move
//! generator (list, count, n-th move, legality), `play` (checked) and
//! `play_unchecked` with the incremental Zobrist hash, and the one end check
//! (`outcome`).
//!
//! What it must never do: do I/O, search, or draw randomness (a caller picks
//! moves, e.g. through `nth_move` with its own random numbers); decide the
//! end of the game anywhere but `status_now`.

use crate::board::{
    self, DEST, MAX_HEIGHT, NONE, REACH, SQUARES, Square, Z_RESERVE, Z_SWAPS, Z_TURN, colours, height, make, top,
};
use crate::notation::MoveError;
use crate::variant::{Fix, Order, Variant};

/// A decision of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Take the top k pieces of the stack on `from` (controlled by the mover) and move them
    /// exactly k squares orthogonally to `to`; k is the distance. Text: `d4-d6`.
    Step {
        /// Square of the stack.
        from: Square,
        /// Destination (k squares away in a straight line).
        to: Square,
    },
    /// Enter one piece of the mover's reserve on `to` (empty or not). Text: `+e5`.
    Enter {
        /// Destination.
        to: Square,
    },
    /// The forced pass of a blocked player in the 4-player game. Text: `pass`.
    Pass,
    /// Opening swap (`fix=swap`): exchange the mover's piece on `own` with the opponent's piece
    /// on `other`. Text: `swap:b7,d7`.
    Swap {
        /// A square holding one of the mover's pieces.
        own: Square,
        /// A square holding one of the opponent's pieces.
        other: Square,
    },
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A team won (2 players: team = player; 4 players: team 0 = {0, 2}, team 1 = {1, 3}).
    Win {
        /// The winning team.
        team: usize,
    },
    /// The ply cap was reached with no result (and no `fix=draw`).
    Draw,
}

impl Outcome {
    /// 1 for each winning-team player, 0 for losers, 0.5 for all on a draw; unused entries 0.
    pub fn scores(&self, players: usize) -> [f64; 4] {
        let mut s = [0.0; 4];
        for (p, v) in s.iter_mut().enumerate().take(players) {
            *v = match self {
                Outcome::Draw => 0.5,
                Outcome::Win { team } => {
                    if p % 2 == *team % 2 && (players == 4 || p == *team) {
                        1.0
                    } else {
                        0.0
                    }
                }
            };
        }
        s
    }
}

const ONGOING: u8 = 0;
const DRAW: u8 = 3;

/// A position: board, reserves, side to move, ply, swap phase, variant, and the hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [u16; 64],
    pub(crate) reserve: [u8; 4],
    /// Stacks controlled per player (kept by `play`).
    pub(crate) ctrl: [u8; 4],
    pub(crate) to_move: u8,
    /// Swap decisions played (0, 1 or 2); always 2 unless `fix=swap`.
    pub(crate) swaps: u8,
    /// 0 ongoing, 1 + team won, 3 draw (a function of the rest, set by `status_now`).
    pub(crate) status: u8,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    pub(crate) variant: Variant,
}

const START_4P: [&str; 8] =
    ["##1132##", "#222323#", "11113232", "22223232", "01010000", "01013333", "#101000#", "##0133##"];

impl Position {
    /// The start position of variant `v` (panics if `v.check()` fails).
    pub fn start(v: Variant) -> Position {
        v.check().expect("invalid variant");
        let mut board = [0u16; 64];
        if v.players == 2 {
            for r in 1..=6usize {
                for f in 1..=6usize {
                    let mut c = if (f - 1) / 2 == 1 { 1 } else { 0 };
                    if r % 2 == 1 {
                        c ^= 1;
                    }
                    board[r * 8 + f] = make(1, c);
                }
            }
        } else {
            for (i, row) in START_4P.iter().enumerate() {
                let r = 7 - i;
                for (f, ch) in row.bytes().enumerate() {
                    if ch != b'#' {
                        board[r * 8 + f] = make(1, (ch - b'0') as u16);
                    }
                }
            }
        }
        let swaps = if v.fix == Fix::Swap { 0 } else { 2 };
        Position::assemble(v, board, [0; 4], 0, 0, swaps)
    }

    /// Builds a position from its parts, computing the derived fields (controls, hash, status).
    pub(crate) fn assemble(
        v: Variant,
        board: [u16; 64],
        reserve: [u8; 4],
        to_move: u8,
        ply: u32,
        swaps: u8,
    ) -> Position {
        let mut p =
            Position { board, reserve, ctrl: [0; 4], to_move, swaps, status: ONGOING, ply, hash: 0, variant: v };
        for &sq in SQUARES.iter() {
            let s = board[sq as usize];
            if s != 0 {
                p.ctrl[top(s)] += 1;
            }
        }
        p.hash = p.hash_from_scratch();
        p.status = p.status_now();
        p
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// 2 or 4.
    pub fn players(&self) -> usize {
        self.variant.players
    }

    /// The player to move, 0..players (still a player when the game is over).
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// The team of `player`: 2 players: the player; 4 players: player % 2.
    pub fn team(&self, player: usize) -> usize {
        if self.variant.players == 4 { player % 2 } else { player }
    }

    /// Decisions (moves, swaps, passes) played since the start.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Swap decisions played so far (0, 1, 2); 2 in variants without `fix=swap`.
    pub fn swaps_played(&self) -> usize {
        self.swaps as usize
    }

    /// Height of the stack on `sq` (0 when empty or not playable).
    pub fn height(&self, sq: Square) -> usize {
        if sq < 64 { height(self.board[sq as usize]) } else { 0 }
    }

    /// Owner of the piece at `level` (0 = bottom) of the stack on `sq`, if there is one.
    pub fn piece(&self, sq: Square, level: usize) -> Option<usize> {
        (level < self.height(sq)).then(|| board::piece(self.board[sq as usize], level))
    }

    /// The controller (top piece's owner) of the stack on `sq`, if any.
    pub fn controller(&self, sq: Square) -> Option<usize> {
        let h = self.height(sq);
        (h > 0).then(|| board::piece(self.board[sq as usize], h - 1))
    }

    /// Reserve pieces of `player`.
    pub fn reserve(&self, player: usize) -> usize {
        self.reserve[player] as usize
    }

    /// Pieces of `player` on the board.
    pub fn on_board(&self, player: usize) -> usize {
        let mut n = 0;
        for &sq in SQUARES.iter() {
            let s = self.board[sq as usize];
            for l in 0..height(s) {
                n += (board::piece(s, l) == player) as usize;
            }
        }
        n
    }

    /// Pieces of `player` eliminated so far (start total − board − reserve).
    pub fn eliminated(&self, player: usize) -> usize {
        total_pieces(self.variant.players) - self.on_board(player) - self.reserve(player)
    }

    /// Whether `player` has a move of his own (controls a stack or holds a reserve piece).
    #[inline(always)]
    pub fn can_play(&self, player: usize) -> bool {
        self.ctrl[player] > 0 || self.reserve[player] > 0
    }

    /// The team that has lost by the rules here: the blocked player (2p)
    /// or the blocked team (4p); `None` if nobody is blocked.
    fn blocked_team(&self) -> Option<usize> {
        if self.variant.players == 2 {
            let p = self.to_move as usize;
            return (!self.can_play(p)).then_some(p);
        }
        (0..2).find(|&team| !self.can_play(team) && !self.can_play(team + 2))
    }

    /// The one end check, from the state: blocked player (2p) or blocked team (4p), then the cap.
    pub(crate) fn status_now(&self) -> u8 {
        if let Some(team) = self.blocked_team() {
            return 1 + (1 - team) as u8;
        }
        if self.ply >= self.variant.cap {
            return if self.variant.fix == Fix::Draw { 1 } else { DRAW };
        }
        ONGOING
    }

    /// Whether the game is over because it reached the ply cap (a
    /// safeguard: a draw, or team 0's win under `fix=draw`), not because a
    /// player or team was blocked.
    pub fn capped(&self) -> bool {
        self.status != ONGOING && self.blocked_team().is_none()
    }

    /// The result, or `None` while the game goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.status {
            ONGOING => None,
            DRAW => Some(Outcome::Draw),
            s => Some(Outcome::Win { team: (s - 1) as usize }),
        }
    }

    /// The Zobrist hash, kept incrementally by `play`. It covers the stacks (square, level,
    /// colour), the reserves, the side to move and the swap phase; not the ply nor the variant.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash recomputed from the state; always equal to [`Position::hash`].
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = Z_TURN[0][self.to_move as usize] ^ Z_SWAPS[0][self.swaps as usize];
        for &sq in SQUARES.iter() {
            h ^= board::stack_hash(sq as usize, self.board[sq as usize]);
        }
        for p in 0..self.variant.players {
            h ^= Z_RESERVE[p][self.reserve[p] as usize];
        }
        h
    }

    pub(crate) fn next_player(&self) -> u8 {
        let n = self.variant.players as u8;
        if n == 4 && self.variant.order == Order::Ccw { (self.to_move + 3) % 4 } else { (self.to_move + 1) % n }
    }

    // ---- the generator

    /// Swap candidates of the phase, filtered (P1's may not leave a symmetric board), in order.
    fn swap_moves(&self, out: &mut Vec<Move>) {
        let me = self.to_move as usize;
        for &a in SQUARES.iter() {
            let sa = self.board[a as usize];
            if sa == 0 || top(sa) != me {
                continue;
            }
            for &b in SQUARES.iter() {
                let sb = self.board[b as usize];
                if sb == 0 || top(sb) != 1 - me {
                    continue;
                }
                if self.swaps == 1 {
                    let mut bd = self.board;
                    bd.swap(a as usize, b as usize);
                    if symmetric(&bd) {
                        continue;
                    }
                }
                out.push(Move::Swap { own: a, other: b });
            }
        }
    }

    /// All legal moves, in a fixed order: swaps (own square, then other square, by index) in the
    /// swap phase; otherwise steps (by square index, directions N E S W, distance 1..h) then entries
    /// (by square index); or the single `pass` of a blocked 4-player player. Clears `out`; empty iff
    /// the game is over.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.status != ONGOING {
            return;
        }
        if self.swaps < 2 {
            self.swap_moves(out);
            return;
        }
        let me = self.to_move as usize;
        if !self.can_play(me) {
            out.push(Move::Pass);
            return;
        }
        if self.ctrl[me] > 0 {
            for &sq in SQUARES.iter() {
                let s = self.board[sq as usize];
                if s == 0 || top(s) != me {
                    continue;
                }
                let h = height(s);
                for dir in DEST[sq as usize].iter() {
                    for &to in dir.iter().take(h) {
                        if to != NONE {
                            out.push(Move::Step { from: sq, to });
                        }
                    }
                }
            }
        }
        if self.reserve[me] > 0 {
            out.extend(SQUARES.iter().map(|&to| Move::Enter { to }));
        }
    }

    /// The number of legal moves (a view of the same generator).
    pub fn count_moves(&self) -> usize {
        if self.status != ONGOING {
            return 0;
        }
        if self.swaps < 2 {
            let mut v = Vec::new();
            self.swap_moves(&mut v);
            return v.len();
        }
        let me = self.to_move as usize;
        if !self.can_play(me) {
            return 1;
        }
        let mut n = 0;
        if self.ctrl[me] > 0 {
            for &sq in SQUARES.iter() {
                let s = self.board[sq as usize];
                if s != 0 && top(s) == me {
                    n += REACH[sq as usize][height(s)] as usize;
                }
            }
        }
        if self.reserve[me] > 0 {
            n += SQUARES.len();
        }
        n
    }

    /// The `k`-th legal move (0-based, `k < count_moves()`), in `legal_moves` order, without
    /// building the list. Panics when `k` is out of range.
    pub fn nth_move(&self, k: usize) -> Move {
        assert!(self.status == ONGOING, "nth_move: the game is over");
        if self.swaps < 2 {
            let mut v = Vec::new();
            self.swap_moves(&mut v);
            return v[k];
        }
        let me = self.to_move as usize;
        if !self.can_play(me) {
            assert!(k == 0, "nth_move: out of range");
            return Move::Pass;
        }
        let mut k = k;
        if self.ctrl[me] > 0 {
            for &sq in SQUARES.iter() {
                let s = self.board[sq as usize];
                if s == 0 || top(s) != me {
                    continue;
                }
                let h = height(s);
                let r = REACH[sq as usize][h] as usize;
                if k >= r {
                    k -= r;
                    continue;
                }
                for dir in DEST[sq as usize].iter() {
                    for &to in dir.iter().take(h) {
                        if to != NONE {
                            if k == 0 {
                                return Move::Step { from: sq, to };
                            }
                            k -= 1;
                        }
                    }
                }
            }
        }
        assert!(self.reserve[me] > 0 && k < SQUARES.len(), "nth_move: out of range");
        Move::Enter { to: SQUARES[k] }
    }

    /// Whether `m` is legal here (a view of the same generator's rules).
    pub fn is_legal(&self, m: Move) -> bool {
        if self.status != ONGOING {
            return false;
        }
        let me = self.to_move as usize;
        if self.swaps < 2 {
            return match m {
                Move::Swap { own, other } => {
                    if !board::is_playable(own) || !board::is_playable(other) {
                        return false;
                    }
                    let (sa, sb) = (self.board[own as usize], self.board[other as usize]);
                    if sa == 0 || sb == 0 || top(sa) != me || top(sb) != 1 - me {
                        return false;
                    }
                    if self.swaps == 1 {
                        let mut bd = self.board;
                        bd.swap(own as usize, other as usize);
                        return !symmetric(&bd);
                    }
                    true
                }
                _ => false,
            };
        }
        let blocked = !self.can_play(me);
        match m {
            Move::Pass => blocked,
            Move::Swap { .. } => false,
            Move::Enter { to } => board::is_playable(to) && self.reserve[me] > 0,
            Move::Step { from, to } => {
                if !board::is_playable(from) || !board::is_playable(to) {
                    return false;
                }
                let s = self.board[from as usize];
                if s == 0 || top(s) != me {
                    return false;
                }
                DEST[from as usize].iter().any(|d| d.iter().take(height(s)).any(|&t| t == to))
            }
        }
    }

    /// Plays `m` if it is legal ([`Position::check`]); otherwise leaves the position as it was and
    /// says why.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// The fast path of [`Position::play`]: plays `m`, which must be legal here (from
    /// `legal_moves`, `nth_move`, or checked), updating the hash, the controls and the status. An
    /// illegal move fails a `debug_assert!` in debug builds and leaves an inconsistent position
    /// otherwise.
    pub fn play_unchecked(&mut self, m: Move) {
        debug_assert!(self.is_legal(m), "illegal move {m} in {self}");
        let me = self.to_move as usize;
        match m {
            Move::Pass => {}
            Move::Swap { own, other } => {
                let (a, b) = (own as usize, other as usize);
                let (sa, sb) = (self.board[a], self.board[b]);
                self.hash ^= board::stack_hash(a, sa) ^ board::stack_hash(b, sb);
                self.hash ^= board::stack_hash(a, sb) ^ board::stack_hash(b, sa);
                self.board[a] = sb;
                self.board[b] = sa;
                // The two tops change owners crosswise: controls are unchanged.
                self.hash ^= Z_SWAPS[0][self.swaps as usize] ^ Z_SWAPS[0][self.swaps as usize + 1];
                self.swaps += 1;
            }
            Move::Enter { to } => {
                let r = self.reserve[me] as usize;
                self.hash ^= Z_RESERVE[me][r] ^ Z_RESERVE[me][r - 1];
                self.reserve[me] -= 1;
                self.land(to as usize, 1, me as u16);
            }
            Move::Step { from, to } => {
                let (f, t) = (from as usize, to as usize);
                let k = {
                    let d = f.abs_diff(t);
                    if d >= 8 { d / 8 } else { d }
                };
                let s = self.board[f];
                let h = height(s);
                let c = colours(s);
                let rest_h = h - k;
                let rest = make(rest_h, c & ((1u16 << (2 * rest_h)) - 1));
                let moving = c >> (2 * rest_h);
                self.ctrl[me] -= 1;
                if rest != 0 {
                    self.ctrl[top(rest)] += 1;
                }
                self.hash ^= board::stack_hash(f, s) ^ board::stack_hash(f, rest);
                self.board[f] = rest;
                self.land(t, k, moving);
            }
        }
        let next = self.next_player();
        self.hash ^= Z_TURN[0][me] ^ Z_TURN[0][next as usize];
        self.to_move = next;
        self.ply += 1;
        self.status = self.status_now();
        debug_assert_eq!(self.hash, self.hash_from_scratch());
        debug_assert_eq!(self.ctrl, Position::assemble(self.variant, self.board, self.reserve, 0, 0, 2).ctrl);
    }

    /// Puts `k` pieces (colour bits `moving`, bottom first) on square `t`, with the overflow rule.
    #[inline(always)]
    fn land(&mut self, t: usize, k: usize, moving: u16) {
        let me = self.to_move as usize;
        let d = self.board[t];
        let dh = height(d);
        if d != 0 {
            self.ctrl[top(d)] -= 1;
        }
        // Up to 10 pieces before the overflow: 20 colour bits, so u32.
        let mut c = colours(d) as u32 | ((moving as u32) << (2 * dh));
        let mut total = dh + k;
        if total > MAX_HEIGHT {
            let r = total - MAX_HEIGHT;
            for l in 0..r {
                let owner = ((c >> (2 * l)) & 3) as usize;
                let gets = if owner == me {
                    Some(me)
                } else if self.variant.players == 4 && owner == (me + 2) % 4 {
                    Some(owner)
                } else {
                    None
                };
                if let Some(p) = gets {
                    let n = self.reserve[p] as usize;
                    self.hash ^= Z_RESERVE[p][n] ^ Z_RESERVE[p][n + 1];
                    self.reserve[p] += 1;
                }
            }
            c >>= 2 * r;
            total = MAX_HEIGHT;
        }
        let new = make(total, c as u16);
        self.ctrl[me] += 1;
        self.hash ^= board::stack_hash(t, d) ^ board::stack_hash(t, new);
        self.board[t] = new;
    }
}

/// Pieces per player at the start: 18 (2 players) or 13 (4 players).
pub const fn total_pieces(players: usize) -> usize {
    if players == 4 { 13 } else { 18 }
}

/// Whether a 2-player board is unchanged by the 180° rotation with colours swapped, or by the
/// reflection in the horizontal mid-line with colours swapped (GAMES.md §1.8).
pub(crate) fn symmetric(bd: &[u16; 64]) -> bool {
    let swapped = |s: u16| -> u16 {
        let h = height(s);
        if h == 0 { 0 } else { s ^ ((0x155u16 & ((1 << (2 * h)) - 1)) << 3) }
    };
    let rot = SQUARES.iter().all(|&sq| bd[63 - sq as usize] == swapped(bd[sq as usize]));
    let mid = SQUARES.iter().all(|&sq| bd[(sq ^ 0b111000) as usize] == swapped(bd[sq as usize]));
    rot || mid
}
