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
//! The agents that need nothing but a game's decisions live here too:
//! the one random agent ([`Random`]) and the one greedy agent
//! ([`Greedy`], on a game's [`OnePly`] scores); alpha-beta and MCTS are in
//! [`crate::alphabeta`] and [`crate::mcts`], on what a game gives them to
//! search ([`Searched`]).
//!
//! What this module must never do: name a game, or draw randomness but
//! from the generator an agent is handed.

use game_search::rng::GameRng;

/// A game as its agents meet it: what an agent to move is shown and what
/// it answers.
pub trait Seat {
    /// What the agent to move sees (the state for perfect information,
    /// an observation for hidden information).
    type View<'a>;
    /// A decision of the game.
    type Move: Copy;
    /// How many decisions the player to move has in `view` (at least 1
    /// where an agent is asked), in the game's one order. A game that lists
    /// them leaves them in `buf`; one that counts them without listing
    /// (Sénat) leaves `buf` alone and answers [`Seat::decision`] from the view.
    fn decisions(view: &Self::View<'_>, buf: &mut Vec<Self::Move>) -> usize;
    /// Decision `k` of `view` (`k` below the count of [`Seat::decisions`],
    /// `buf` as that call left it): by default `buf[k]`.
    fn decision(_view: &Self::View<'_>, k: usize, buf: &[Self::Move]) -> Self::Move {
        buf[k]
    }
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
    fn decisions(s: &G::State, buf: &mut Vec<G::Move>) -> usize {
        G::moves(s, buf);
        buf.len()
    }
}

/// Uniform over the decisions of the player to move, in every game: draws
/// `k` below their number from the game's generator and plays decision
/// `k` ([`Seat::decisions`]). The one random agent of the lab.
pub struct Random<G: Seat> {
    buf: Vec<G::Move>,
    game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Seat> Default for Random<G> {
    fn default() -> Self {
        Random { buf: Vec::new(), game: std::marker::PhantomData }
    }
}

impl<G: Seat> std::fmt::Debug for Random<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Random")
    }
}

impl<G: Seat> Agent<G> for Random<G>
where
    G::Move: Send,
{
    fn choose(&mut self, view: &G::View<'_>, rng: &mut GameRng) -> G::Move {
        random_decision::<G>(view, &mut self.buf, rng)
    }
}

/// A decision of `view` drawn uniformly with one draw from `rng` (what
/// [`Random`] plays; `buf` is the game's listing space).
fn random_decision<G: Seat>(view: &G::View<'_>, buf: &mut Vec<G::Move>, rng: &mut GameRng) -> G::Move {
    let n = G::decisions(view, buf);
    assert!(n > 0, "an agent is asked only where its player has a decision");
    G::decision(view, game_search::rng::below(rng, n), buf)
}

/// A uniformly random legal move of search state `s` (one draw from
/// `rng`), `None` where there is none; `buf` is the listing space.
pub fn random_move<G: game_search::Game>(s: &G::State, rng: &mut GameRng, buf: &mut Vec<G::Move>) -> Option<G::Move> {
    G::moves(s, buf);
    (!buf.is_empty()).then(|| buf[game_search::rng::below(rng, buf.len())])
}

/// The best of `moves` by `score` (NaN counts as the worst), ties drawn
/// uniformly by reservoir sampling: one draw from `rng` per tie met, none
/// without a tie. `None` for no moves. What [`Greedy`] plays, and every
/// one-ply agent's choice.
pub fn best_by<M: Copy>(
    moves: impl IntoIterator<Item = M>,
    rng: &mut GameRng,
    mut score: impl FnMut(M) -> f64,
) -> Option<M> {
    let (mut best, mut ties, mut chosen) = (f64::NEG_INFINITY, 0usize, None);
    for m in moves {
        let s = score(m);
        let s = if s.is_nan() { f64::NEG_INFINITY } else { s };
        if s > best {
            (best, ties, chosen) = (s, 1, Some(m));
        } else if s == best {
            // Reservoir sampling among equal scores.
            ties += 1;
            if game_search::rng::below(rng, ties) == 0 {
                chosen = Some(m);
            }
        }
    }
    chosen
}

/// A game's one-ply preference, for the one greedy agent ([`Greedy`]):
/// a score per decision of the player to move. Its methods ask the game
/// to be a [`Seat`] without making `Seat` a supertrait, so a game whose
/// `Seat` comes from [`PerfectInformation`] names its `Move` once.
pub trait OnePly {
    /// Whether the game prefers anything in `view`; where it does not
    /// (Sénat's draft), [`Greedy`] plays as [`Random`] does, with the same
    /// one draw.
    fn prefers(_view: &<Self as Seat>::View<'_>) -> bool
    where
        Self: Seat,
    {
        true
    }
    /// Every decision of `view`, in the order [`Greedy`] scans them, into
    /// `buf`: by default the listed decisions, or the counted ones taken
    /// one by one ([`Seat::decision`]); a counting game may list them at
    /// once.
    fn list(view: &<Self as Seat>::View<'_>, buf: &mut Vec<<Self as Seat>::Move>)
    where
        Self: Seat,
    {
        buf.clear();
        let n = Self::decisions(view, buf);
        if buf.len() != n {
            let counted: Vec<<Self as Seat>::Move> = (0..n).map(|k| Self::decision(view, k, buf)).collect();
            *buf = counted;
        }
    }
    /// The score of decision `m` for the player to move in `view`, higher
    /// better; NaN counts as the worst.
    fn greedy_score(view: &<Self as Seat>::View<'_>, m: <Self as Seat>::Move) -> f64
    where
        Self: Seat;
}

/// The best-scoring decision by the game's [`OnePly`] scores, ties drawn
/// uniformly (reservoir sampling: one draw per tie met, none without a
/// tie), in every game: the one greedy agent of the lab. Where the game
/// prefers nothing it plays as [`Random`].
pub struct Greedy<G: Seat> {
    buf: Vec<G::Move>,
}

impl<G: Seat> Default for Greedy<G> {
    fn default() -> Self {
        Greedy { buf: Vec::new() }
    }
}

impl<G: Seat> std::fmt::Debug for Greedy<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Greedy")
    }
}

impl<G: Seat + OnePly> Agent<G> for Greedy<G>
where
    G::Move: Send,
{
    fn choose(&mut self, view: &G::View<'_>, rng: &mut GameRng) -> G::Move {
        if !G::prefers(view) {
            return random_decision::<G>(view, &mut self.buf, rng);
        }
        G::list(view, &mut self.buf);
        best_by(self.buf.iter().copied(), rng, |m| G::greedy_score(view, m))
            .expect("an agent is asked only where its player has a decision")
    }
}

/// A game the one alpha-beta and MCTS agents play: what a seat's view is
/// to the search, and how far into the game (or its round) a view is. Its
/// methods ask the game to be a [`Seat`] without making `Seat` a
/// supertrait (as [`OnePly`]).
pub trait Searched: game_search::solver::Solvable {
    /// The search state of what the seat to move sees.
    fn search_state(view: &<Self as Seat>::View<'_>) -> Self::State
    where
        Self: Seat;
    /// The plies played so far, as a move temperature counts them.
    fn temperature_ply(view: &<Self as Seat>::View<'_>) -> usize
    where
        Self: Seat;
    /// A move's text, for the agent's line.
    fn line_text(m: Self::Move) -> String;
    /// The moves played so far in the game of `view`, first to last, where
    /// the view shows them: the MCTS agent then keeps its tree from one
    /// move to the next (`reuse`, [`crate::mcts::MonteCarlo`]). By default
    /// `None`: a new tree every move.
    fn played<'v>(_view: &'v <Self as Seat>::View<'_>) -> Option<&'v [<Self as game_search::Game>::Move]>
    where
        Self: Seat,
    {
        None
    }
    /// Whether the root guard (where the agent has one) looks in `view`:
    /// by default everywhere; Sénat's only in its play phase.
    fn guarded(_view: &<Self as Seat>::View<'_>) -> bool
    where
        Self: Seat,
    {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_search::rng::{below, rng_from_seed};

    /// A game whose view is the number of decisions, listed as `10 + k`.
    struct Listed;
    impl Seat for Listed {
        type View<'a> = usize;
        type Move = usize;
        fn decisions(n: &usize, buf: &mut Vec<usize>) -> usize {
            buf.clear();
            buf.extend((0..*n).map(|k| 10 + k));
            buf.len()
        }
    }

    /// The same decisions, counted and never listed (as Sénat's are).
    struct Counted;
    impl Seat for Counted {
        type View<'a> = usize;
        type Move = usize;
        fn decisions(n: &usize, _: &mut Vec<usize>) -> usize {
            *n
        }
        fn decision(_: &usize, k: usize, buf: &[usize]) -> usize {
            assert!(buf.is_empty(), "a counting game lists nothing");
            10 + k
        }
    }

    /// The test games' one-ply scores, by the number of decisions `n`:
    /// 5, decision 12 alone best; 6, decisions 11 and 14 tie; 4, every
    /// score NaN (all worst, all tied); 7, no preference.
    fn score(n: usize, m: usize) -> f64 {
        match n {
            4 => f64::NAN,
            6 => f64::from(u8::from(m == 11 || m == 14)),
            _ => -(m as f64 - 12.0).abs(),
        }
    }
    impl OnePly for Listed {
        fn prefers(n: &usize) -> bool {
            *n != 7
        }
        fn greedy_score(n: &usize, m: usize) -> f64 {
            score(*n, m)
        }
    }
    impl OnePly for Counted {
        fn prefers(n: &usize) -> bool {
            *n != 7
        }
        fn greedy_score(n: &usize, m: usize) -> f64 {
            score(*n, m)
        }
    }

    /// The one greedy agent plays the best decision without a draw, draws
    /// uniformly among tied best ones (NaN the worst), plays as the random
    /// agent where the game prefers nothing, and chooses the same in a
    /// listing game and a counting one.
    #[test]
    fn greedy_plays_the_best_draws_among_ties_and_is_random_without_preference() {
        use rand::Rng;
        let (mut listed, mut counted) = (Greedy::<Listed>::default(), Greedy::<Counted>::default());
        let (mut a, mut b, untouched) = (rng_from_seed(3), rng_from_seed(3), rng_from_seed(3));
        for _ in 0..50 {
            assert_eq!((listed.choose(&5, &mut a), counted.choose(&5, &mut b)), (12, 12));
        }
        assert_eq!(a.clone().next_u64(), untouched.clone().next_u64(), "a unique best draws nothing");
        let (mut ties, mut all) = ([0u32; 2], [0u32; 4]);
        for _ in 0..400 {
            let (x, y) = (listed.choose(&6, &mut a), counted.choose(&6, &mut b));
            assert_eq!(x, y, "a listing and a counting game choose alike");
            assert!(x == 11 || x == 14, "only a best decision: {x}");
            ties[usize::from(x == 14)] += 1;
            let z = listed.choose(&4, &mut a);
            assert_eq!(z, counted.choose(&4, &mut b));
            all[z - 10] += 1;
        }
        assert!(ties.iter().all(|&t| (150..=250).contains(&t)), "two tied moves near even: {ties:?}");
        assert!(all.iter().all(|&t| (60..=140).contains(&t)), "NaN scores all tie: {all:?}");
        let (mut r, mut want) = (rng_from_seed(9), rng_from_seed(9));
        let mut random = Random::<Listed>::default();
        for _ in 0..100 {
            assert_eq!(
                listed.choose(&7, &mut r),
                random.choose(&7, &mut want),
                "no preference: the random agent's move"
            );
        }
    }

    /// The one random agent plays decision `below(n)` of the game's order,
    /// drawing once from the game's generator, whether the game lists its
    /// decisions or counts them.
    #[test]
    fn random_plays_the_drawn_decision_of_listed_and_counted_games() {
        let (mut listed, mut counted) = (Random::<Listed>::default(), Random::<Counted>::default());
        let (mut a, mut b, mut want) = (rng_from_seed(7), rng_from_seed(7), rng_from_seed(7));
        let mut seen = [false; 5];
        for _ in 0..200 {
            let expected = 10 + below(&mut want, 5);
            let (x, y) = (listed.choose(&5, &mut a), counted.choose(&5, &mut b));
            assert_eq!((x, y), (expected, expected));
            seen[x - 10] = true;
        }
        assert!(seen.iter().all(|&s| s), "every decision is drawn: {seen:?}");
        assert_eq!(listed.choose(&1, &mut a), 10, "a single decision is played");
    }
}
