//! Sénat as a [`Game`]: a state that carries the position, its Zobrist hash
//! and the repetition window, so that repetition is decided exactly; and the
//! static evaluation of [`SenatEval`].
//!
//! This module never changes the rules: moves, hashing and end conditions
//! come from [`Position`] and [`Outcome`]; it only adds the history that
//! `Position` lacks, the way [`senat_rules::Game`] keeps it.

use game_search::mcts::Rollout;
use game_search::solver::{Goal, Solvable};
use game_search::{Evaluator, Game, MAX_PLAYERS, Scores};
use senat_rules::board::Bitboard;
use senat_rules::dice::{Colour, Side, Symbol};
use senat_rules::game::Outcome;
use senat_rules::moves::{Move, MoveKind};
use senat_rules::pick::{PlayMoves, nth_draft_move};
use senat_rules::position::{CLOSURE, Position};
use game_search::rng::{GameRng, below};

/// Room for the window: at most one position per clock value 0..=60.
const WINDOW: usize = CLOSURE as usize + 4;

/// A Sénat state for search: the position, its hash, and the hashes of the
/// play positions since the last die went through the door (the current
/// one last), exactly as [`senat_rules::Game`] keeps them; no earlier position can
/// come back once a die has left the board.
#[derive(Clone, Copy, Debug)]
pub struct SenatState {
    pos: Position,
    hash: u64,
    /// Order-independent sum of `mix(h)` over the window.
    wsum: u64,
    len: u8,
    window: [u64; WINDOW],
}

/// Spreads a hash so that sums of several of them collide rarely.
#[inline]
fn mix(h: u64) -> u64 {
    let h = (h ^ (h >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (h >> 32)
}

impl SenatState {
    /// A state with no history before `pos` (its window is `pos` alone).
    pub fn new(pos: Position) -> SenatState {
        let hash = pos.hash();
        let mut s = SenatState { pos, hash, wsum: 0, len: 0, window: [0; WINDOW] };
        if pos.is_play() {
            s.push(hash);
        }
        s
    }

    /// The state of a game in progress, with its whole repetition history.
    pub fn from_game(game: &senat_rules::Game) -> SenatState {
        game.moves().iter().fold(SenatState::new(*game.start()), |s, &m| s.play(m))
    }

    fn push(&mut self, h: u64) {
        if self.len as usize == WINDOW {
            // Cannot happen in a legal game (closure comes first); keep the newest.
            self.window.copy_within(1.., 0);
            self.wsum = self.wsum.wrapping_sub(mix(self.window[WINDOW - 1]));
            self.len -= 1;
        }
        self.window[self.len as usize] = h;
        self.len += 1;
        self.wsum = self.wsum.wrapping_add(mix(h));
    }

    /// The state after a legal move.
    #[inline]
    pub fn play(&self, m: Move) -> SenatState {
        let mut s = *self;
        s.pos.play_hashed(m, &mut s.hash);
        if s.pos.is_play() {
            if s.pos.clock() == 0 {
                s.len = 0;
                s.wsum = 0;
            }
            s.push(s.hash);
        }
        s
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position's Zobrist hash (without history or clock).
    pub fn position_hash(&self) -> u64 {
        self.hash
    }

    /// How many times the current position has occurred (1 the first time).
    pub fn occurrences(&self) -> usize {
        if !self.pos.is_play() {
            return 1;
        }
        self.window[..self.len as usize].iter().filter(|&&h| h == self.hash).count()
    }

    /// The outcome if the game is over, in the rules' order (majority,
    /// repetition, closure, block), as [`senat_rules::Game::outcome`].
    pub fn outcome(&self) -> Option<Outcome> {
        Outcome::with_history(&self.pos, self.occurrences())
    }

    /// The outcome after a legal move `m`, without building the state:
    /// exactly `self.play(m).outcome()`.
    pub fn outcome_after(&self, m: Move) -> Option<Outcome> {
        let mut pos = self.pos;
        let mut hash = self.hash;
        pos.play_hashed(m, &mut hash);
        let occurrences = if !pos.is_play() || pos.clock() == 0 {
            1
        } else {
            // `push` drops the oldest hash when the window is full.
            let from = (self.len as usize == WINDOW) as usize;
            1 + self.window[from..self.len as usize].iter().filter(|&&h| h == hash).count()
        };
        Outcome::with_history(&pos, occurrences)
    }

    /// The transposition key: the position, the clock and the window as a
    /// multiset. Two states with equal keys have the same future (same
    /// closure distance, same repetitions to come), so their values agree.
    pub fn key(&self) -> u64 {
        self.hash ^ mix(self.wsum ^ (self.pos.clock() as u64) << 56 ^ 0x5851_f42d_4c95_7f2d)
    }
}

/// The player index of a side: red 0, blue 1.
pub const fn player(side: Side) -> usize {
    side as usize
}

/// The per-player results of a game won by `winner` (`None`: a draw).
pub fn scores(winner: Option<Side>) -> Scores {
    let mut r = [0.0; MAX_PLAYERS];
    match winner {
        Some(w) => r[player(w)] = 1.0,
        None => {
            r[0] = 0.5;
            r[1] = 0.5;
        }
    }
    r
}

/// Rollouts to the end of the game. Each move is picked by index below the
/// move count without building a move list (the way self-play's random
/// player picks), with the end checks of [`SenatState::outcome`].
///
/// `Random` is uniform over the legal moves. `Greedy` plays like
/// self-play's greedy player: a push that adds most to its own pile if one
/// scores, otherwise a random move, drawn again (up to 4 times) while it
/// feeds the opponent's pile; the draft stays uniform.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SenatRollout {
    /// Uniform random moves.
    #[default]
    Random,
    /// Scoring pushes first, no gifts to the opponent.
    Greedy,
}

impl SenatRollout {
    /// The greedy choice among `moves` (a play position's).
    fn greedy(p: &Position, moves: &PlayMoves, rng: &mut GameRng) -> Option<Move> {
        let (mut best, mut best_gain, mut ties) = (None, 0u8, 0usize);
        moves.for_each_push(|m| {
            let (mine, _) = p.pile_gain(m);
            if mine > best_gain {
                (best, best_gain, ties) = (Some(m), mine, 1);
            } else if mine == best_gain && mine > 0 {
                ties += 1;
                if below(rng, ties) == 0 {
                    best = Some(m);
                }
            }
        });
        if best.is_some() {
            return best;
        }
        let mut m = moves.nth(below(rng, moves.len()));
        for _ in 0..4 {
            match m {
                Some(x) if matches!(x.kind(), MoveKind::Push { .. }) && p.pile_gain(x).1 > 0 => {
                    m = moves.nth(below(rng, moves.len()));
                }
                _ => break,
            }
        }
        m
    }
}

impl Rollout<Senat> for SenatRollout {
    fn rollout(&mut self, s: &SenatState, rng: &mut GameRng) -> Scores {
        let mut s = *s;
        loop {
            let p = &s.pos;
            if let Some(w) = p.majority() {
                return scores(Some(w));
            }
            let m = if p.is_play() {
                if s.occurrences() >= 3 || p.clock() >= CLOSURE {
                    break;
                }
                let moves = PlayMoves::new(p);
                if moves.is_empty() {
                    break;
                }
                match self {
                    SenatRollout::Random => moves.nth(below(rng, moves.len())),
                    SenatRollout::Greedy => SenatRollout::greedy(p, &moves, rng),
                }
            } else {
                let n = p.count_moves();
                if n == 0 {
                    break;
                }
                nth_draft_move(p, below(rng, n))
            };
            s = s.play(m.expect("an index below the move count"));
        }
        // Repetition, closure or block: the piles decide.
        scores(s.pos.piles().leader())
    }
}

/// Sénat, draft and play, for the searches of this module.
#[derive(Clone, Copy, Debug, Default)]
pub struct Senat;

impl Game for Senat {
    type State = SenatState;
    type Move = Move;

    fn players(_: &SenatState) -> usize {
        2
    }

    fn to_move(s: &SenatState) -> usize {
        player(s.pos.side_to_move())
    }

    fn moves(s: &SenatState, out: &mut Vec<Move>) {
        out.clear();
        if s.pos.majority().is_some() || (s.pos.is_play() && (s.pos.clock() >= CLOSURE || s.occurrences() >= 3)) {
            return;
        }
        s.pos.generate(|set| {
            set.for_each(|m| out.push(m));
            false
        });
    }

    fn apply(s: &SenatState, m: Move) -> SenatState {
        s.play(m)
    }

    fn result(s: &SenatState) -> Option<Scores> {
        Some(scores(s.outcome()?.winner))
    }

    fn hash(s: &SenatState) -> u64 {
        s.key()
    }

    /// Kept from the searcher before teams: alpha-beta negates at every
    /// ply. Not exact in the draft, where a placer may give next (the same
    /// side moves twice); kept so that outputs stay as recorded. `false`
    /// would score those plies right and change alpha-beta's draft play.
    const NEGATE_EVERY_PLY: bool = true;

    const MOVE_INDEX_SPACE: usize = Move::INDEX_SPACE;

    /// [`Move::index`].
    fn move_index(m: Move) -> Option<usize> {
        m.index()
    }

    /// Moves that put a die in the mover's pile first (by how many), then
    /// other door pushes, then the rest; moves that feed the opponent's pile last.
    fn priority(s: &SenatState, m: Move) -> i32 {
        let (gain, loss) = s.pos.pile_gain(m);
        1000 * (gain as i32 - loss as i32) + if m.is_door_push() { 10 } else { 0 }
    }
}

impl Solvable for Senat {
    /// [`SenatState::outcome_after`]: the position and its hash only, not the window.
    fn result_after(s: &SenatState, m: Move) -> Option<Scores> {
        s.outcome_after(m).map(|o| scores(o.winner))
    }

    /// Only a push sends a die through the door: after any other move the
    /// piles are the same, and a game that ends (by repetition, closure or
    /// block) goes to the bigger pile.
    fn may_reach(s: &SenatState, m: Move, player: usize, goal: Goal) -> bool {
        if !s.pos.is_play() || matches!(m.kind(), MoveKind::Push { .. }) {
            return true;
        }
        let piles = s.pos.piles();
        let side = if player == 0 { Side::Red } else { Side::Blue };
        let (mine, theirs) = (piles.of(side), piles.of(side.other()));
        match goal {
            Goal::Win => mine > theirs,
            Goal::AtLeastDraw => mine >= theirs,
        }
    }
}

/// The static evaluation of Sénat positions, from the side to move, in
/// thousandths of a pile. Terms (own minus the opponent's):
///
/// - `pile` per die of difference between the piles: dominates everything;
/// - `row_i` per die in row I showing one's colour (one push from the pile);
/// - `full_i` more per such die when row I is full (a push into row I then
///   ejects a die of the pusher's choice);
/// - `square` per die showing one's colour with the square up in rows M or
///   I beside another die (an agent that can push);
/// - `exposed` (negative) per die showing one's colour beside a triangle
///   showing the opponent's (it can be flipped to the other colour);
/// - `tempo` for having the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SenatEval {
    /// Per die of pile difference.
    pub pile: i32,
    /// Per own-colour die in row I.
    pub row_i: i32,
    /// Per own-colour die in row I when row I is full, added to `row_i`.
    pub full_i: i32,
    /// Per own-colour square in rows M or I beside another die.
    pub square: i32,
    /// Per own-colour die beside an opponent triangle (negative).
    pub exposed: i32,
    /// For the side to move.
    pub tempo: i32,
}

impl Default for SenatEval {
    fn default() -> SenatEval {
        SenatEval { pile: 1000, row_i: 60, full_i: 60, square: 20, exposed: -15, tempo: 10 }
    }
}

impl SenatEval {
    fn side_terms(&self, p: &Position, me: Colour, them: Colour) -> i32 {
        let own = p.showing(me);
        let occ = p.occupied();
        let row_i = Bitboard::ROW_I;
        let full = (occ & row_i) == row_i;
        let in_i = (own & row_i).len() as i32;
        let mut s = in_i * (self.row_i + if full { self.full_i } else { 0 });
        let squares = own & p.with_symbol(Symbol::Square) & (Bitboard::ROW_M | row_i);
        s += self.square * (squares & (occ.right() | occ.left())).len() as i32;
        let enemy_tri = p.showing(them) & p.with_symbol(Symbol::Triangle);
        s += self.exposed * (own & (enemy_tri.right() | enemy_tri.left())).len() as i32;
        s
    }
}

impl Evaluator<Senat> for SenatEval {
    fn eval(&self, s: &SenatState) -> i32 {
        let p = &s.pos;
        let me = p.side_to_move();
        let (mine, theirs) = match me {
            Side::Red => (Colour::Red, Colour::Blue),
            Side::Blue => (Colour::Blue, Colour::Red),
        };
        let piles = p.piles();
        self.pile * (piles.of(me) as i32 - piles.of(me.other()) as i32) + self.side_terms(p, mine, theirs)
            - self.side_terms(p, theirs, mine)
            + self.tempo
    }

    /// [`Senat::priority`]: scoring moves first.
    fn order(&self, s: &SenatState, m: Move) -> i32 {
        Senat::priority(s, m)
    }
}
