//! Policies: who picks Sénat's moves. One trait, [`Agent<Senat>`], serves both phases
//! (a draft policy gives and places, a play policy moves); the self-play
//! runner asks the policy of the side to move for each move, and the search
//! engines of later work plug in behind the same trait.
//!
//! A policy reads the game and draws randomness only from the generator it
//! is handed, so a game is a pure function of its seed. A policy must never
//! change the game, keep state between games that changes its choices, or
//! return a move that is not legal in the current position.
//!
//! Policies are named on the command line by a [`PolicySpec`]:
//! `random`, `greedy`, `heuristic`, `heuristic:pile=10,own_i=2` (weights as
//! flags) or `heuristic:file=weights.txt` (weights from a file, one
//! `key=value` a line, `#` comments), `mcts:…`, `ab:…`, or `DRAFT>PLAY`
//! (one policy per phase, [`SplitPolicy`]).
//!
//! The module is in three parts: the basic policies ([`basic`]: random,
//! greedy, heuristic), the search engines behind the trait ([`engine`]:
//! MCTS and alpha-beta) and the policy-spec language ([`spec`]), the only
//! part that reads files (weights files).

pub mod basic;
pub mod engine;
pub mod spec;

pub use crate::agent::{Agent, Seat};
pub use crate::eval::{WeightError, Weights};
pub use crate::games::senat::Senat;
pub use basic::{GreedyPolicy, HeuristicPolicy, LearnedPolicy, RandomPolicy};
pub use engine::{AlphaBetaPolicy, EngineParams, MctsPolicy};
pub use game_search::rng::{GameRng, below, mix64, rng_from_seed};
use senat_rules::game::GameRecord;
pub use senat_rules::movegen::{PlayMoves, nth_draft_move, nth_in_set, nth_move, nth_play_move};
use senat_rules::moves::Move;
use senat_rules::position::Position;
pub use spec::{Half, POLICIES, POLICY_HELP, PolicyKind, PolicySpec, SpecError, SplitPolicy, SplitSpec};

/// A uniformly random legal move, or `None` if there is none.
#[inline]
pub fn random_move(p: &Position, rng: &mut GameRng) -> Option<Move> {
    let n = p.count_moves();
    if n == 0 {
        return None;
    }
    nth_move(p, below(rng, n))
}

/// What a policy is asked to move in: the game (position and history) and
/// the legal moves of its position, already counted.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// The game so far; its position is not over.
    pub game: &'a GameRecord,
    /// `game.position().count_moves()`, at least 1.
    pub legal: usize,
    /// The counted moves of a play position (`None` in the draft).
    pub play: Option<PlayMoves<'a>>,
}

/// The draft's plies: 23 gives and 23 placements.
pub const DRAFT_PLIES: usize = 46;

impl<'a> Turn<'a> {
    /// Plies played in the game so far, for a move temperature: the
    /// history's length, but at least what the position shows (a game
    /// given as a bare position has no history: a play position is at
    /// least [`DRAFT_PLIES`] in, a draft position two plies per die placed).
    pub fn ply(&self) -> usize {
        let p = self.position();
        let shown = if p.is_play() { DRAFT_PLIES } else { 2 * p.dice_count() as usize };
        self.game.moves().len().max(shown)
    }

    /// A turn in `game`'s current position (counts its moves).
    pub fn new(game: &'a GameRecord) -> Turn<'a> {
        let p = game.position();
        if p.is_play() {
            let play = PlayMoves::new(p);
            Turn { game, legal: play.len(), play: Some(play) }
        } else {
            Turn { game, legal: p.count_moves(), play: None }
        }
    }

    /// The current position.
    #[inline]
    pub fn position(&self) -> &'a Position {
        self.game.position()
    }
}

/// Sénat's agents are shown a [`Turn`]: the game so far and its counted
/// moves. A Sénat agent (a policy) is an [`Agent<Senat>`], one trait for
/// both phases (a draft policy gives and places, a play policy moves).
impl Seat for Senat {
    type View<'a> = Turn<'a>;
    type Move = Move;
    /// The counted moves ([`Turn::legal`]); nothing is listed.
    fn decisions(turn: &Turn, _: &mut Vec<Move>) -> usize {
        turn.legal
    }
    /// The `k`-th move of the one move generator, counted, not listed.
    fn decision(turn: &Turn, k: usize, _: &[Move]) -> Move {
        let m = match &turn.play {
            Some(play) => play.nth(k),
            None => senat_rules::movegen::nth_draft_move(turn.position(), k),
        };
        m.expect("a game that is not over has a legal move")
    }
}
