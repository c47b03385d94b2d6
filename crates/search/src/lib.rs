//! Game-tree search: a game trait the searches are generic over, a
//! fixed-depth alpha-beta with a transposition table, Monte Carlo tree
//! search, and two exact provers (alpha-beta and df-pn).
//!
//! What lives here: [`Game`] (the minimal interface a search needs: players,
//! side to move, moves, copy-make, terminal results, a hash), the Sénat
//! implementation ([`senat`]), [`alphabeta`], [`mcts`], [`solver`] and [`pns`].
//!
//! What this module must never do: know the rules itself (they come from
//! the game's implementation of [`Game`]), mutate a state in place (states
//! are copy-made), or mix heuristics into a proof ([`solver`] verdicts rest
//! on terminal results only).
//!
//! The trait is built so that games of 2 to 4 players fit ([`Scores`] holds
//! one result per player) and so that games with hidden information can
//! later be searched by determinization: a sampler turns an information set
//! into a `State` of this trait, which is then searched as a perfect-
//! information game.

pub mod alphabeta;
pub mod mcts;
pub mod pns;
pub mod rng;
pub mod solver;

use std::fmt::Debug;

/// The most players a [`Game`] may have.
pub const MAX_PLAYERS: usize = 4;

/// Per-player results of a finished game: 1 for a win, 0 for a loss, 0.5
/// for a draw (two players); players beyond [`Game::players`] are 0.
pub type Scores = [f64; MAX_PLAYERS];

/// A game the searches can play: every method is a pure function of the state.
pub trait Game {
    /// Everything the rules need to go on from here, history included
    /// (the value of a state must not depend on anything outside it).
    type State: Clone;
    /// A move; small and `Copy`.
    type Move: Copy + Eq + Debug;

    /// Number of players, 2 to [`MAX_PLAYERS`].
    fn players(s: &Self::State) -> usize;
    /// The player to move, `0..players`.
    fn to_move(s: &Self::State) -> usize;
    /// Clears `out` and fills it with the legal moves (empty if the game is over).
    fn moves(s: &Self::State, out: &mut Vec<Self::Move>);
    /// The state after a legal move (copy-make).
    fn apply(s: &Self::State, m: Self::Move) -> Self::State;
    /// The results if the game is over here, else `None`.
    fn result(s: &Self::State) -> Option<Scores>;
    /// A hash of everything that decides the game's value from here on
    /// (the key of transposition tables).
    fn hash(s: &Self::State) -> u64;
    /// A move-ordering hint for searches that have no evaluation (larger is
    /// tried first, e.g. moves that score); it never changes a result.
    fn priority(_s: &Self::State, _m: Self::Move) -> i32 {
        0
    }

    /// The size of the move-index space of [`Game::move_index`]: every index
    /// is below it. 0 (the default): moves have no index.
    const MOVE_INDEX_SPACE: usize = 0;

    /// A small index of a move, below [`Game::MOVE_INDEX_SPACE`], for tables
    /// kept per move (the history heuristic of [`alphabeta`]); moves that
    /// look alike to a player should share it, and distinct moves may. Only
    /// ever a hint for move ordering: it never changes a result. The
    /// default, `None`, gives the game no such tables.
    fn move_index(_m: Self::Move) -> Option<usize> {
        None
    }
}

/// A static evaluation for fixed-depth searches, in centi-units from the
/// point of view of the player to move; it is never consulted by the solver.
pub trait Evaluator<G: Game> {
    /// The score of a non-terminal state for the player to move, well inside
    /// `±`[`WIN`]` / 2`.
    fn eval(&self, s: &G::State) -> i32;
    /// A move-ordering hint: larger is tried first (e.g. moves that score).
    fn order(&self, _s: &G::State, _m: G::Move) -> i32 {
        0
    }
}

/// The score of a win at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 1_000_000;

/// Scores above this (in absolute value) are forced results.
pub const WIN_BOUND: i32 = WIN - 10_000;

/// The negamax score of a terminal state for the player to move, `ply` plies
/// from the root: `WIN - ply` won, `-(WIN - ply)` lost, 0 drawn. With more
/// than two players a result above every other player's counts as a win.
pub fn terminal_score<G: Game>(s: &G::State, r: &Scores, ply: u32) -> i32 {
    let me = G::to_move(s);
    let n = G::players(s);
    let best_other = (0..n).filter(|&p| p != me).map(|p| r[p]).fold(f64::MIN, f64::max);
    let w = WIN - ply as i32;
    if r[me] > best_other {
        w
    } else if r[me] < best_other {
        -w
    } else {
        0
    }
}
