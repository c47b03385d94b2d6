//! The one agent trait of the lab: whatever picks a move, in any game.
//!
//! A game says what its agents are shown and what they answer ([`Seat`]):
//! a game of perfect information shows its state, a game of hidden
//! information what one player knows (an observation), and a game may
//! show more than the state where its agents need it (Sénat shows its
//! position with its history and counted moves). An agent of that game
//! implements [`Agent`]; it cannot see more than its view, so hidden
//! information stays hidden by types.
//!
//! What this module must never do: name a game or hold an agent. The
//! agents live beside their games, in the games' lab (`senat-lab`).

use game_search::rng::GameRng;

/// A game as its agents meet it: what an agent to move is shown and what
/// it answers.
pub trait Seat {
    /// What the agent to move sees (the state for perfect information,
    /// an observation for hidden information).
    type View<'a>;
    /// A decision of the game.
    type Move: Copy;
}

/// Picks a move of game `G` from what its player is shown: the trait
/// behind every player of every game.
///
/// An agent draws randomness only from the generator it is handed, so a
/// game is a pure function of its seed; it must never return a move that
/// is not legal in its view.
pub trait Agent<G: Seat>: Send {
    /// A legal move of `view`, whose player is to move. All randomness
    /// comes from `rng`.
    fn choose(&mut self, view: &G::View<'_>, rng: &mut GameRng) -> G::Move;
    /// Forgets everything kept from earlier games (search trees, tables),
    /// so that a game's moves depend on its seed alone; called before each
    /// game by runners that reuse an agent.
    fn new_game(&mut self) {}
    /// One line on the last choice (a search's value, depth, principal
    /// line; [`crate::thinking`]), `None` where the agent gives none.
    fn explain(&self) -> Option<String> {
        None
    }
    /// The last choice's value on the lab's one scale (the probability
    /// that the player who chose wins, [`crate::winprob`]) and the line the
    /// agent expects, its best move first; `None` where the agent gives
    /// none (random, greedy, heuristic play, a choice drawn by a move
    /// temperature).
    fn assess(&self) -> Option<(crate::winprob::WinChance, Vec<G::Move>)> {
        None
    }
    /// The value the last choice gave up by a value-bounded draw
    /// ((a `vary=` spec key)): the usual move's mean value minus
    /// the drawn move's, in score units (a win 1, a draw ½), 0 where the
    /// usual move was played within the draw's plies; `None` where the
    /// choice drew nothing (outside those plies, or an agent without
    /// `vary=`). Self-play sums it per game and side.
    fn sampled_loss(&self) -> Option<f64> {
        None
    }
    /// The last search's root moves, each with its visits and its mean
    /// result for the player who chose (in `[0, 1]`), in the search's
    /// order; empty where the agent does not search a tree (random,
    /// greedy, alpha-beta: its best move and line are in
    /// [`Agent::assess`]). For an analysis board's candidate moves.
    fn candidates(&self) -> Vec<(G::Move, u64, f64)> {
        Vec::new()
    }
}

/// A game of perfect information: its agents are shown its state and
/// answer its moves. A game opts in with one line
/// (`impl PerfectInformation for MyGame {}`) and is then a [`Seat`]; a game
/// that shows its agents something else implements [`Seat`] itself.
pub trait PerfectInformation: game_search::Game {}

impl<G: PerfectInformation> Seat for G {
    type View<'a> = G::State;
    type Move = G::Move;
}
