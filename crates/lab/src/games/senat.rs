//! Sénat as a [`Game`]: a state that carries the position, its Zobrist hash
//! and the repetition [`History`], so that repetition is decided exactly; and the
//! search's weighting of the shared evaluation, [`SenatEval`] (defined with
//! the features in [`crate::eval`]).
//!
//! This module never changes the rules: moves, hashing and end conditions
//! come from [`Position`] and [`Outcome`]; it only adds the history that
//! `Position` lacks, the way [`senat_rules::GameRecord`] keeps it.

use game_search::mcts::Rollout;
use game_search::rng::{GameRng, below};
use game_search::solver::{Goal, Keeps, Relaxation, Solvable};
use game_search::{Evaluator, Game, MAX_PLAYERS, Scores};
use senat_rules::bounds::{self, Recurrences};
use senat_rules::dice::Side;
use senat_rules::game::{History, Outcome};
use senat_rules::movegen::{PlayMoves, nth_draft_move};
use senat_rules::moves::{Move, MoveKind};
use senat_rules::position::Position;

use crate::eval::Features;
pub use crate::eval::SenatEval;
use crate::learned::{Learned, LearnedRef};

/// A Sénat state for search: the position, its hash, and its repetition
/// [`History`] (the play positions since the last die went through the
/// door), the one [`senat_rules::GameRecord`] keeps.
#[derive(Clone, Copy, Debug)]
pub struct SenatState {
    pos: Position,
    hash: u64,
    /// Order-independent sum of `mix(h)` over the history.
    wsum: u64,
    /// `history.occurrences()`, counted once per move.
    occurrences: u8,
    /// `history.recurrences()`, kept move by move ([`Recurrences::after`]).
    rec: Recurrences,
    history: History,
    /// A state of the game without repetition ([`SenatState::without_repetition`]).
    relaxed: bool,
}

/// Spreads a hash so that sums of several of them collide rarely.
#[inline]
fn mix(h: u64) -> u64 {
    let h = (h ^ (h >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (h >> 32)
}

impl SenatState {
    /// A state with no history before `pos` (its history is `pos` alone).
    pub fn new(pos: Position) -> SenatState {
        let hash = pos.hash();
        let history = History::new(&pos, hash);
        let wsum = history.hashes().iter().fold(0u64, |w, &h| w.wrapping_add(mix(h)));
        SenatState {
            pos,
            hash,
            wsum,
            occurrences: history.occurrences() as u8,
            rec: history.recurrences(),
            history,
            relaxed: false,
        }
    }

    /// The same position in Sénat without repetition: no position ever ends
    /// the game by occurring again (majority, closure and block are as
    /// before), so no history is kept and the key is the position and the
    /// clock alone, apart from every key of the game itself. The solver's
    /// relaxation ([`Solvable::relaxed`]); never a state of a real game.
    pub fn without_repetition(&self) -> SenatState {
        let history = History::new(&self.pos, self.hash);
        SenatState { wsum: 0, occurrences: 1, rec: Recurrences::FRESH, history, relaxed: true, ..*self }
    }

    /// Whether this is a state of Sénat without repetition.
    pub fn is_relaxed(&self) -> bool {
        self.relaxed
    }

    /// The state of a game in progress, with its whole repetition history.
    pub fn from_game(game: &senat_rules::GameRecord) -> SenatState {
        game.moves().iter().fold(SenatState::new(*game.start()), |s, &m| s.play(m))
    }

    /// The state after a legal move.
    #[inline]
    pub fn play(&self, m: Move) -> SenatState {
        let mut s = *self;
        s.play_in_place(m);
        s
    }

    /// Makes `out` the state after a legal move `m`: exactly
    /// `*out = self.play(m)`, but only the history's kept hashes are copied.
    #[inline]
    pub fn play_into(&self, m: Move, out: &mut SenatState) {
        out.pos = self.pos;
        out.hash = self.hash;
        out.wsum = self.wsum;
        out.rec = self.rec;
        out.relaxed = self.relaxed;
        if self.relaxed {
            // No history to copy; `play_in_place` keeps this count.
            out.occurrences = 1;
        } else {
            out.history.copy_kept(&self.history);
        }
        out.play_in_place(m);
    }

    /// Plays a legal move on this state.
    #[inline]
    fn play_in_place(&mut self, m: Move) {
        self.pos.play_hashed(m, &mut self.hash);
        if self.relaxed {
            // No repetition: nothing to count (occurrences stay 1).
            return;
        }
        if self.pos.is_play() {
            if self.pos.clock() == 0 {
                self.wsum = 0;
            }
            if let Some(old) = self.history.record(&self.pos, self.hash) {
                // Cannot happen in a legal game (closure comes first).
                self.wsum = self.wsum.wrapping_sub(mix(old));
            }
            self.wsum = self.wsum.wrapping_add(mix(self.hash));
        }
        self.occurrences = self.history.occurrences() as u8;
        if self.pos.is_play() {
            self.rec = self.rec.after(self.occurrences, self.pos.clock());
        }
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
    #[inline]
    pub fn occurrences(&self) -> usize {
        self.occurrences as usize
    }

    /// The repetition counts of the history by side to move (what
    /// [`bounds::min_plies_to_repetition`] needs).
    #[inline]
    pub fn recurrences(&self) -> Recurrences {
        self.rec
    }

    /// The outcome if the game is over, in the rules' order (majority,
    /// repetition, closure, block), as [`senat_rules::GameRecord::outcome`].
    pub fn outcome(&self) -> Option<Outcome> {
        Outcome::of_occurrences(&self.pos, self.occurrences())
    }

    /// The outcome after a legal move `m`, without building the state:
    /// exactly `self.play(m).outcome()`.
    pub fn outcome_after(&self, m: Move) -> Option<Outcome> {
        let mut pos = self.pos;
        let mut hash = self.hash;
        pos.play_hashed(m, &mut hash);
        let occurrences = if self.relaxed { 1 } else { self.history.occurrences_after(&pos, hash) };
        Outcome::of_occurrences(&pos, occurrences)
    }

    /// The transposition key: the position, the clock and the history as a
    /// multiset. Two states with equal keys have the same future (same
    /// closure distance, same repetitions to come), so their values agree.
    /// Without repetition ([`SenatState::without_repetition`]): the
    /// position and the clock, under another salt.
    pub fn key(&self) -> u64 {
        if self.relaxed {
            return self.hash ^ mix((self.pos.clock() as u64) << 56 ^ 0x2545_f491_4f6c_dd1d);
        }
        self.hash ^ mix(self.wsum ^ (self.pos.clock() as u64) << 56 ^ 0x5851_f42d_4c95_7f2d)
    }
}

/// The player index of a side: red 0, blue 1. A player of the searches
/// is a **seat** (the colour a player drafted with): under `swap=yes` the
/// colour it plays after the decision is [`colour_of`], the player of a
/// colour [`seat_player`]; in every other variant the two are the same.
pub const fn player(side: Side) -> usize {
    side as usize
}

/// The side of a player index: red 0, blue 1 (the inverse of [`player`]).
pub const fn side(player: usize) -> Side {
    if player == 0 { Side::Red } else { Side::Blue }
}

/// The player (a seat: [`player`] of its draft colour) who plays `side` in `p`.
#[inline]
pub const fn seat_player(p: &Position, side: Side) -> usize {
    player(p.seat_of(side))
}

/// The colour that player `player` (a seat) plays in `p`: the seat's own
/// colour, or the other after a swap ([`Position::seat_of`] is its own
/// inverse).
#[inline]
pub const fn colour_of(p: &Position, player: usize) -> Side {
    p.seat_of(side(player))
}

/// The colour that the player who moves in `before` plays in `after`, the
/// position after its move: its colour in `before`, but the other after a
/// `swap`. What a one-ply policy values `after` for.
#[inline]
pub const fn mover_colour_after(before: &Position, after: &Position) -> Side {
    after.seat_of(before.seat_of(before.side_to_move()))
}

/// Why a command of the lab does not play a Sénat variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unplayable {
    /// `swap=yes` in a command that still gives moves or scores to
    /// colours, not to the players (seats) who may have swapped them: why.
    Swap(&'static str),
}

impl std::fmt::Display for Unplayable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unplayable::Swap(why) => write!(
                f,
                "swap=yes is not taken here: {why} (the agents, selfplay, merge, arena, design, bestmove, analyze, \
                 solve and the rules' commands take it; docs/games/senat.md, \"Swap after the draft: design\")"
            ),
        }
    }
}

impl std::error::Error for Unplayable {}

/// `v` unless it has the decision after the draft (`swap=yes`), for a
/// command that credits colours rather than seats; `why` says what it
/// credits. The searches, agents, batches, arena and design take every
/// variant (their players are seats).
pub fn unswapped(v: senat_rules::Variant, why: &'static str) -> Result<senat_rules::Variant, Unplayable> {
    if v.swap { Err(Unplayable::Swap(why)) } else { Ok(v) }
}

/// The per-player (per-seat) results of a game won by the colour `winner`
/// (`None`: a draw) in its final position `p`: the winner's seat through
/// [`Position::seat_of`].
#[inline]
pub fn seat_scores(p: &Position, winner: Option<Side>) -> Scores {
    scores(winner.map(|w| p.seat_of(w)))
}

/// The per-player results of a game won by player (seat) `winner` (`None`:
/// a draw); [`seat_scores`] from a winning colour.
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
/// `Random` is uniform over the legal moves. `GreedyRollout` (spelled
/// `greedy` in specs and flags: `rollout=greedy`, `--rollout greedy`) is a
/// cheap playout policy of its own, not self-play's `greedy` player
/// ([`crate::policy::GreedyPolicy`]): a push that adds most to its own pile
/// if one scores, otherwise a random move, drawn again (up to 4 times) while
/// it feeds the opponent's pile; the draft stays uniform.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SenatRollout {
    /// Uniform random moves.
    #[default]
    Random,
    /// Scoring pushes first, few gifts to the opponent (`greedy` in specs).
    GreedyRollout,
    /// No rollout: the learned evaluation's probability of the leaf (these
    /// weights: [`LearnedRef::builtin`] unless a spec gives `file=`), the
    /// game's result where it is over (`eval` in specs).
    Eval(LearnedRef),
}

impl SenatRollout {
    /// The rollouts as named in specs and flags: `random`, `greedy`.
    pub const NAMES: [&'static str; 3] = ["random", "greedy", "eval"];

    /// The rollout named `name` in specs and flags (`random`, `greedy`).
    pub fn from_name(name: &str) -> Option<SenatRollout> {
        match name {
            "random" => Some(SenatRollout::Random),
            "greedy" => Some(SenatRollout::GreedyRollout),
            "eval" => Some(SenatRollout::Eval(LearnedRef::builtin())),
            _ => None,
        }
    }

    /// The greedy-rollout choice among `moves` (a play position's).
    fn greedy_rollout(p: &Position, moves: &PlayMoves, rng: &mut GameRng) -> Option<Move> {
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
    /// `eval`: the learned log-odds (×1000) of the move's result for the
    /// side that makes it, so PUCT priors follow the evaluation; the others:
    /// [`Game::priority`]. Priors come from the logistic model alone
    /// ([`Learned::logistic_logit`]), the network, if any, valuing leaves
    /// only: an expansion asks a prior of every child, a playout one leaf
    /// value, and with the network's priors the same agent was no stronger
    /// at equal playouts (+158.7 ±34.7 Elo over the logistic agent with them,
    /// +160.9 ±38.5 without; docs/results/net.md) at three times the cost.
    fn priority(&mut self, s: &SenatState, m: Move) -> i32 {
        let SenatRollout::Eval(w) = *self else {
            return Senat::priority(s, m);
        };
        let mut q = s.pos;
        q.play_unchecked(m);
        (1000.0 * w.get().logistic_logit(&q, mover_colour_after(&s.pos, &q))).round() as i32
    }

    fn rollout(&mut self, s: &SenatState, rng: &mut GameRng) -> Scores {
        if let SenatRollout::Eval(w) = *self {
            return leaf_value(s, w.get());
        }
        let mut s = *s;
        loop {
            let p = &s.pos;
            // The end rules, sharing the move count with the pick.
            let mut counted = None;
            let end = Outcome::decide(p, s.occurrences(), || {
                let moves = PlayMoves::new(p);
                let n = moves.len();
                counted = Some((moves, n));
                n == 0
            });
            if let Some(o) = end {
                return seat_scores(p, o.winner);
            }
            let m = if let Some((moves, n)) = counted {
                match self {
                    SenatRollout::Random | SenatRollout::Eval(_) => moves.nth(below(rng, n)),
                    SenatRollout::GreedyRollout => SenatRollout::greedy_rollout(p, &moves, rng),
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
        // A draft with no move (never in a legal game): the piles decide.
        seat_scores(&s.pos, s.pos.variant().count_piles(s.pos.piles()))
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

    /// The seat of the side to move ([`seat_player`]): under `swap=yes` the
    /// decider and the players after a swap are seats, not colours.
    fn to_move(s: &SenatState) -> usize {
        seat_player(&s.pos, s.pos.side_to_move())
    }

    fn moves(s: &SenatState, out: &mut Vec<Move>) {
        out.clear();
        // Over by a rule other than block (a blocked position has no moves anyway).
        if Outcome::decide(&s.pos, s.occurrences(), || false).is_some() {
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

    /// [`SenatState::play_into`]: the history's kept hashes only.
    #[inline]
    fn apply_into(s: &SenatState, m: Move, out: &mut SenatState) {
        s.play_into(m, out);
    }

    fn result(s: &SenatState) -> Option<Scores> {
        Some(seat_scores(&s.pos, s.outcome()?.winner))
    }

    /// The end rules but block ([`Outcome::decide`] with no block): the
    /// search learns of a block from the empty move list.
    #[inline]
    fn result_unless_blocked(s: &SenatState) -> Option<Scores> {
        Some(seat_scores(&s.pos, Outcome::decide(&s.pos, s.occurrences(), || false)?.winner))
    }

    fn hash(s: &SenatState) -> u64 {
        s.key()
    }

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
    /// [`SenatState::outcome_after`]: the position and its hash only, not the history.
    /// The winner's seat is the position's, or, after the decision of
    /// `swap=yes`, the next position's.
    fn result_after(s: &SenatState, m: Move) -> Option<Scores> {
        let o = s.outcome_after(m)?;
        if s.pos.is_play() {
            return Some(seat_scores(&s.pos, o.winner));
        }
        let mut q = s.pos;
        q.play_unchecked(m);
        Some(seat_scores(&q, o.winner))
    }

    /// Only a push sends a die through the door: after any other move the
    /// piles are the same, and a game that ends (by repetition, closure or
    /// block) goes to the bigger pile.
    fn may_reach(s: &SenatState, m: Move, player: usize, goal: Goal) -> bool {
        if !s.pos.is_play() || m.is_push() {
            return true;
        }
        let piles = s.pos.piles();
        let side = colour_of(&s.pos, player);
        let (mine, theirs) = (piles.of(side), piles.of(side.other()));
        match goal {
            Goal::Win => mine > theirs,
            Goal::AtLeastDraw => mine >= theirs,
        }
    }

    /// [`bounds::min_plies_to_result`]: the dice the side is short of in its
    /// pile (for the majority, or for the piles to give the result when the
    /// game ends by repetition, closure or block, which have bounds of their
    /// own), one per half-move at most.
    /// The player's colour is its seat's ([`colour_of`]).
    fn min_plies(s: &SenatState, player: usize, goal: Goal) -> u32 {
        let side = colour_of(&s.pos, player);
        bounds::min_plies_to_result(&s.pos, side, goal == Goal::AtLeastDraw, s.rec)
    }

    /// [`bounds::wins_at_once`]: a push through the door that gives the
    /// side to move the majority (majority is the first end check, so the
    /// history does not matter).
    fn wins_at_once(s: &SenatState) -> bool {
        bounds::wins_at_once(&s.pos)
    }

    /// Sénat without repetition ([`SenatState::without_repetition`]) where
    /// every end by repetition is on one side of the question.
    ///
    /// Repetition, like closure and block, ends the game with the piles
    /// counted; piles never shrink, and majority is checked first. So when
    /// the player's rival holds one die less than the player's majority, the
    /// player can never have the bigger pile at such an end (it would have
    /// the majority first): every repetition fails its win, removing them can
    /// only help it, and a win not forced without repetition is not forced
    /// with it ([`Keeps::Noes`]). When the player itself holds one less than
    /// the rival's majority the rival can never have the bigger pile there:
    /// every repetition gives the player at least a draw, removing them can
    /// only hinder it, and a draw forced without repetition is forced with it
    /// ([`Keeps::Yeses`]). (By induction on the horizon: the two games have
    /// the same moves and ends, but for the repetitions.) Under `ties=second`
    /// the second mover wins equal piles, so "one die less" becomes "as many"
    /// for a count it wins ([`Variant::count_margin`]).
    ///
    /// [`Variant::count_margin`]: senat_rules::Variant::count_margin
    fn relaxed(s: &SenatState, player: usize, goal: Goal) -> Option<Relaxation<SenatState>> {
        if s.relaxed || !s.pos.is_play() {
            return None;
        }
        let side = colour_of(&s.pos, player);
        let (piles, v) = (s.pos.piles(), s.pos.variant());
        // `who` cannot win a count against a pile of `against` without its majority first.
        let shut = |who: Side, against: u8| against + v.count_margin(who) >= v.majority_of(who);
        let keeps = match goal {
            Goal::Win if shut(side, piles.of(side.other())) => Keeps::Noes,
            Goal::AtLeastDraw if shut(side.other(), piles.of(side)) => Keeps::Yeses,
            _ => return None,
        };
        Some(Relaxation { state: s.without_repetition(), keeps })
    }
}

impl Evaluator<Senat> for SenatEval {
    /// [`SenatEval::score`] of the position's [`Features`], for the side to move.
    fn eval(&self, s: &SenatState) -> i32 {
        self.score(&Features::of(&s.pos, s.pos.side_to_move()))
    }

    /// [`Senat::priority`]: scoring moves first.
    fn order(&self, s: &SenatState, m: Move) -> i32 {
        Senat::priority(s, m)
    }
}

/// The leaf evaluation of Sénat's alpha-beta policy (`ab:eval=hand|learned`):
/// the hand-made [`SenatEval`], or the learned model's log-odds for the
/// side to move in thousandths (the shipped weights or a file's; a decided majority
/// is ±30,000, well inside the search's forced-result scores).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafEval {
    /// [`SenatEval`] with these weights.
    Hand(SenatEval),
    /// The learned evaluation with these weights.
    Learned(LearnedRef),
}

impl Default for LeafEval {
    fn default() -> LeafEval {
        LeafEval::Hand(SenatEval::default())
    }
}

impl Evaluator<Senat> for LeafEval {
    fn eval(&self, s: &SenatState) -> i32 {
        match self {
            LeafEval::Hand(e) => e.eval(s),
            LeafEval::Learned(w) => (1000.0 * w.get().logit(&s.pos, s.pos.side_to_move())).round() as i32,
        }
    }

    /// [`Senat::priority`]: scoring moves first.
    fn order(&self, s: &SenatState, m: Move) -> i32 {
        Senat::priority(s, m)
    }
}

/// The scores of a leaf by the learned evaluation: the result where the
/// game is over, otherwise each seat's probability of winning (that of the
/// colour it plays).
pub fn leaf_value(s: &SenatState, w: &Learned) -> Scores {
    if let Some(o) = s.outcome() {
        return seat_scores(&s.pos, o.winner);
    }
    let red = w.value(&s.pos, Side::Red);
    let mut r = [0.0; MAX_PLAYERS];
    r[seat_player(&s.pos, Side::Red)] = red;
    r[seat_player(&s.pos, Side::Blue)] = 1.0 - red;
    r
}

/// Sénat's integer actions and tensor ([`encode`]) for the generic code
/// that holds a [`SenatState`] (the catalog's array batch).
impl super::encode::Encoded for Senat {
    fn encoding(s: &SenatState) -> super::encode::Encoding {
        encode::encoding(&s.pos)
    }
    fn action_id(_s: &SenatState, m: Move) -> usize {
        encode::action_id(m)
    }
    fn tensor(s: &SenatState, _player: usize, out: &mut [f32]) {
        encode::tensor(&s.pos, s.outcome().is_some(), out);
    }
}

/// Sénat's integer actions and tensor ([`crate::games::encode`]), on the
/// rules crate's position: the face of the catalog keeps a
/// [`senat_rules::GameRecord`], not a [`SenatState`].
pub mod encode {
    use crate::games::encode::{Encoding, one_hot};
    use senat_rules::board::{CELLS, Cell};
    use senat_rules::dice::{DICE, Side};
    use senat_rules::moves::{Dest, Move, MoveKind};
    use senat_rules::position::{Phase, Position};

    /// Faces of a die.
    const FACES: usize = 6;
    /// First id of each kind: give (a die), place (die × cell × face),
    /// shift (from × to), flip (agent × target), push (agent × target ×
    /// destination cell or the door), turn (agent × target × face).
    const PLACE: usize = DICE;
    const SHIFT: usize = PLACE + DICE * CELLS * FACES;
    const FLIP: usize = SHIFT + CELLS * CELLS;
    const PUSH: usize = FLIP + CELLS * CELLS;
    const TURN: usize = PUSH + CELLS * CELLS * (CELLS + 1);
    /// Every id is below it (20125).
    pub const ACTIONS: usize = TURN + CELLS * CELLS * FACES;
    /// Per cell: empty, symbol (3), colour shown (red, blue, white), the
    /// die's number (23), the face on top (6).
    const PER_CELL: usize = 1 + 3 + 3 + DICE + FACES;
    /// After the cells: the phase (give, place, play), the die to place
    /// (23), the reserve (23), the piles red, blue, white over the
    /// majority, the clock over the closure, the side to move (red, blue).
    pub const TENSOR: usize = CELLS * PER_CELL + 3 + DICE + DICE + 3 + 1 + 2;

    /// The sizes of the encoding under `p`'s variant.
    pub fn encoding(p: &Position) -> Encoding {
        let closure = u64::from(p.closure());
        Encoding {
            players: 2,
            actions: ACTIONS + if p.variant().swap { 2 } else { 0 },
            chance_outcomes: 0,
            // The draft gives and places every die; in play the clock
            // closes the game `closure` half-moves after the last die went
            // through the door, and at most every die goes through it.
            max_plies: 2 * DICE as u64 + u64::from(p.variant().swap) + (DICE as u64 + 1) * closure,
            tensor_shape: vec![TENSOR],
        }
    }

    /// The id of the move `m` (below [`ACTIONS`]; the decision after the
    /// draft of `swap=yes`, `keep` and `swap`, is `ACTIONS` and `ACTIONS + 1`,
    /// so that the space of the other variants is unchanged).
    pub fn action_id(m: Move) -> usize {
        let die = |d: senat_rules::dice::Die| usize::from(d.number()) - 1;
        let pair = |a: Cell, b: Cell| a.index() * CELLS + b.index();
        match m.kind() {
            MoveKind::Give(d) => die(d),
            MoveKind::Place(d, c, f) => PLACE + (die(d) * CELLS + c.index()) * FACES + usize::from(f.index()),
            MoveKind::Shift { from, to } => SHIFT + pair(from, to),
            MoveKind::Flip { agent, target } => FLIP + pair(agent, target),
            MoveKind::Push { agent, target, to } => {
                let d = match to {
                    Dest::Cell(c) => c.index(),
                    Dest::Door => CELLS,
                };
                PUSH + pair(agent, target) * (CELLS + 1) + d
            }
            MoveKind::Turn { agent, target, face } => TURN + pair(agent, target) * FACES + usize::from(face.index()),
            MoveKind::Keep => ACTIONS,
            MoveKind::Swap => ACTIONS + 1,
        }
    }

    /// Fills `out` with `p` (the same for both players: perfect
    /// information); `over`: the game has ended (no side to move).
    pub fn tensor(p: &Position, over: bool, out: &mut [f32]) {
        out[..TENSOR].fill(0.0);
        for c in Cell::all() {
            let cell = &mut out[c.index() * PER_CELL..][..PER_CELL];
            match p.piece_at(c) {
                None => cell[0] = 1.0,
                Some((d, f)) => {
                    one_hot(cell, 1 + f.symbol() as usize);
                    if let Some(colour) = p.colour_at(c) {
                        one_hot(cell, 4 + colour as usize);
                    }
                    one_hot(cell, 7 + usize::from(d.number()) - 1);
                    one_hot(cell, 7 + DICE + usize::from(f.index()));
                }
            }
        }
        let g = &mut out[CELLS * PER_CELL..];
        match p.phase() {
            Phase::Give => g[0] = 1.0,
            Phase::Place(d) => {
                g[1] = 1.0;
                one_hot(g, 3 + usize::from(d.number()) - 1);
            }
            Phase::Play => g[2] = 1.0,
            // The decision after the draft (`swap=yes`) has no input of its
            // own: the network sees the full board with no phase set.
            Phase::Decide => {}
        }
        for d in p.reserve().iter() {
            one_hot(g, 3 + DICE + usize::from(d.number()) - 1);
        }
        let piles = p.piles();
        let majority = f32::from(p.majority_at().max(1));
        let of = |s: Side| f32::from(p.majority_of(s).max(1));
        let at = 3 + 2 * DICE;
        g[at] = f32::from(piles.red) / of(Side::Red);
        g[at + 1] = f32::from(piles.blue) / of(Side::Blue);
        g[at + 2] = f32::from(piles.white) / majority;
        g[at + 3] = f32::from(p.clock()) / f32::from(p.closure().max(1));
        if !over {
            g[at + 4 + usize::from(p.side_to_move() == Side::Blue)] = 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The repetition counts kept move by move are those of the history,
    /// counted afresh, along games that seek repetitions (seven moves in
    /// eight are one of the first two legal moves), and some of those games
    /// end by repetition.
    #[test]
    fn recurrences_follow_the_history() {
        let mut rng = testkit::XorShift64::new(5);
        let (mut repeated, mut ended) = (0, 0);
        for _ in 0..40 {
            let mut s = SenatState::new(senat_rules::sample::start());
            let mut moves = Vec::new();
            for _ in 0..200 {
                assert_eq!(s.rec, s.history.recurrences());
                if s.outcome().is_some() {
                    ended += usize::from(s.occurrences() >= 3);
                    break;
                }
                Senat::moves(&s, &mut moves);
                let few = if rng.below(8) != 0 { moves.len().min(2) } else { moves.len() };
                s = s.play(moves[rng.below(few)]);
                repeated += usize::from(s.rec.same > 1 || s.rec.other > 1);
            }
        }
        assert!(repeated >= 100 && ended >= 5, "{repeated} states with a repeat, {ended} repetitions");
    }

    /// Without repetition: moves, hashes and the other ends as in the
    /// game, `play_into` is `play`, a position that comes back neither
    /// counts nor ends the game, and the key is the position and the clock
    /// alone, apart from the game's keys.
    #[test]
    fn without_repetition_nothing_repeats() {
        let mut rng = testkit::XorShift64::new(17);
        let (mut back, mut ended) = (0, 0);
        for _ in 0..30 {
            let mut s = SenatState::new(senat_rules::sample::start());
            let mut r = s.without_repetition();
            let mut out = r;
            let (mut moves, mut relaxed_moves) = (Vec::new(), Vec::new());
            for _ in 0..200 {
                assert!(r.is_relaxed() && !s.is_relaxed());
                assert_eq!((r.pos, r.hash, r.occurrences(), r.rec), (s.pos, s.hash, 1, Recurrences::FRESH));
                assert_ne!(r.key(), s.key());
                assert_eq!(r.key(), s.without_repetition().key());
                match s.outcome() {
                    Some(o) if s.occurrences() >= usize::from(s.pos.repetition()) => {
                        // Over by repetition in the game only.
                        ended += 1;
                        assert!(r.outcome().is_none_or(|q| q.reason != o.reason), "{o}");
                        break;
                    }
                    o => assert_eq!(r.outcome(), o),
                }
                Senat::moves(&s, &mut moves);
                Senat::moves(&r, &mut relaxed_moves);
                assert_eq!(moves, relaxed_moves);
                if moves.is_empty() {
                    break;
                }
                let few = if rng.below(8) != 0 { moves.len().min(2) } else { moves.len() };
                let m = moves[rng.below(few)];
                assert_eq!(r.outcome_after(m), r.play(m).outcome());
                r.play_into(m, &mut out);
                let played = r.play(m);
                assert_eq!(
                    (out.pos, out.hash, out.key(), out.occurrences()),
                    (played.pos, played.hash, played.key(), 1)
                );
                (s, r) = (s.play(m), played);
                back += usize::from(s.occurrences() > 1);
            }
        }
        assert!(back >= 100 && ended >= 3, "{back} positions back, {ended} ends by repetition");
    }

    /// A state of `swap=yes` at the decision after the draft, the draft
    /// played at random from generator `seed`.
    pub(crate) fn at_the_decision(seed: u64) -> SenatState {
        let v = senat_rules::Variant::parse("swap=yes").unwrap();
        let mut rng = testkit::XorShift64::new(seed + 1);
        let mut s = SenatState::new(Position::start_of(v));
        let mut moves = Vec::new();
        while s.pos.phase() != senat_rules::position::Phase::Decide {
            Senat::moves(&s, &mut moves);
            s = s.play(moves[rng.below(moves.len())]);
        }
        s
    }

    /// Under `swap=yes` the searches' players are seats, followed here
    /// independently of `seat_of` (a seat is its draft colour until `swap`,
    /// the other colour after it): the player to move, the result, a leaf's
    /// values and the provers' bounds, along random games that keep or swap.
    #[test]
    fn players_are_seats_under_swap() {
        let mut rng = testkit::XorShift64::new(59);
        let (mut swapped, mut ended) = (0, 0);
        let w = Learned::builtin();
        for g in 0..24 {
            let mut s = at_the_decision(g);
            let mut moves = Vec::new();
            Senat::moves(&s, &mut moves);
            assert_eq!(moves.len(), 2);
            let decider = s.pos.side_to_move();
            assert_eq!(Senat::to_move(&s), player(decider));
            let swap = g % 2 == 1;
            s = s.play(moves[usize::from(swap)]);
            assert_eq!(s.pos.swapped(), swap);
            swapped += usize::from(swap);
            let seat = |c: Side| if swap { c.other() } else { c };
            for _ in 0..300 {
                let me = s.pos.side_to_move();
                assert_eq!(Senat::to_move(&s), player(seat(me)));
                for p in 0..2 {
                    let colour = seat(side(p));
                    assert_eq!(colour_of(&s.pos, p), colour);
                    assert_eq!(
                        Senat::min_plies(&s, p, Goal::Win),
                        bounds::min_plies_to_result(&s.pos, colour, false, s.rec)
                    );
                }
                if s.outcome().is_none() {
                    let leaf = leaf_value(&s, w);
                    assert!((leaf[player(seat(Side::Red))] - w.value(&s.pos, Side::Red)).abs() < 1e-12);
                }
                if let Some(o) = s.outcome() {
                    let r = Senat::result(&s).unwrap();
                    match o.winner {
                        Some(c) => assert_eq!(r[player(seat(c))], 1.0),
                        None => assert_eq!(r[0], 0.5),
                    }
                    ended += 1;
                    break;
                }
                Senat::moves(&s, &mut moves);
                if moves.is_empty() {
                    break;
                }
                s = s.play(moves[rng.below(moves.len())]);
            }
        }
        assert!(swapped == 12 && ended >= 10, "{swapped} swapped, {ended} ended");
    }

    /// Every family of Sénat's agents, and the named ones, decides after
    /// the draft of `swap=yes`: its move is `keep` or `swap`, and the game
    /// goes on (the same agent then makes a legal play move).
    #[test]
    fn every_agent_decides() {
        let specs = [
            "random",
            "greedy",
            "heuristic",
            "learned",
            "mcts:playouts=200",
            "mcts:playouts=200,rollout=eval",
            "ab:depth=2",
            "ab:depth=2,eval=learned",
            "random>learned",
            "fast",
            "strong",
            "top",
        ];
        for (i, text) in specs.iter().enumerate() {
            let spec = crate::policy::PolicySpec::parse(text).unwrap();
            let mut agent = spec.build();
            let s = at_the_decision(i as u64);
            let mut game = senat_rules::GameRecord::new(*s.position());
            let mut rng = crate::policy::rng_from_seed(i as u64);
            let m = agent.choose(&crate::policy::Turn::new(&game), &mut rng);
            assert!(matches!(m.kind(), MoveKind::Keep | MoveKind::Swap), "{text}: {m}");
            game.play(m).unwrap();
            assert!(game.position().is_play(), "{text}");
            assert_eq!(game.outcome(), None, "{text}: {}", game.position().to_spn());
            let next = agent.choose(&crate::policy::Turn::new(&game), &mut rng);
            game.play(next).unwrap_or_else(|e| panic!("{text}: {next}: {e}"));
        }
    }

    /// `play_into` a stale state (another line's, with a longer history)
    /// is `play`: same position, hash, history, repetition count and key,
    /// along random games from the sample start.
    #[test]
    fn play_into_a_stale_state_is_play() {
        let mut rng = testkit::XorShift64::new(11);
        let mut out = SenatState::new(senat_rules::sample::start());
        for _ in 0..50 {
            let mut s = SenatState::new(senat_rules::sample::start());
            let mut moves = Vec::new();
            for _ in 0..200 {
                Senat::moves(&s, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                let played = s.play(m);
                s.play_into(m, &mut out);
                assert_eq!(
                    (out.pos, out.hash, out.wsum, out.occurrences, out.rec),
                    (played.pos, played.hash, played.wsum, played.occurrences, played.rec)
                );
                assert_eq!(out.history, played.history);
                assert_eq!(out.key(), played.key());
                assert_eq!(out.occurrences(), played.history.occurrences());
                s = played;
            }
        }
    }
}
