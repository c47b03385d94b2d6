//! The one alpha-beta agent of the lab, in every game that the generic
//! alpha-beta ([`game_search::alphabeta`]) can search: iterative deepening
//! to a depth or a time per move, a move temperature over the first plies
//! (every root move scored one ply shallower, [`temperature::root_scores`]),
//! an optional root guard ([`crate::guarded`]), its line ([`Agent::explain`])
//! and its value on the lab's one scale ([`Agent::assess`]).
//!
//! A game gives what its seats see as a search state and a ply count
//! ([`crate::agent::Searched`]); an evaluator gives the logistic scale of its scores
//! ([`Scaled`]).
//!
//! What this module must never do: name a game, or draw randomness but
//! from the generator an agent is handed.

use crate::agent::{Agent, Searched, Seat, random_move};
use crate::guarded::RootGuard;
use crate::temperature::{self, Temperature};
use crate::winprob::WinChance;
use game_search::alphabeta::{Limits, Searcher, Table};
use game_search::rng::GameRng;
use game_search::solver::Solvable;
use game_search::{Evaluator, Game, TableError};

/// An evaluator whose scores the agent turns into win probabilities.
pub trait Scaled<G: Game>: Evaluator<G> + Clone + Send {
    /// Units of score per unit of log-odds in `s` ([`WinChance::from_score`]).
    fn scale(&self, s: &G::State) -> f64;
    /// The logistic scale of the root guard's deep look (the probability
    /// it is handed with the chosen move).
    fn guard_scale(&self) -> f64;
}

/// The one alpha-beta agent: see the module comment. Its transposition
/// table and guard live for one game ([`Agent::new_game`]).
pub struct AlphaBeta<G: Solvable, E> {
    searcher: Searcher<G, E>,
    eval: E,
    tt_mb: usize,
    limits: Limits,
    temp: Temperature,
    guard: RootGuard<G>,
    last: Option<String>,
    assessed: Option<(WinChance, Vec<G::Move>)>,
}

impl<G: Solvable, E: Scaled<G>> AlphaBeta<G, E> {
    /// An agent searching with `eval`, a table of `tt_mb` megabytes, to
    /// `limits`, with a move temperature and a root guard; or the
    /// [`TableError`] of the table's memory refused by the system.
    pub fn try_new(
        eval: E,
        tt_mb: usize,
        limits: Limits,
        temp: Temperature,
        guard: RootGuard<G>,
    ) -> Result<AlphaBeta<G, E>, TableError> {
        Ok(AlphaBeta {
            searcher: Searcher::try_new(eval.clone(), tt_mb)?,
            eval,
            tt_mb,
            limits,
            temp,
            guard,
            last: None,
            assessed: None,
        })
    }
}

impl<G, E> Agent<G> for AlphaBeta<G, E>
where
    G: Searched + Seat<Move = <G as Game>::Move>,
    <G as Game>::State: Sync,
    <G as Game>::Move: Send,
    E: Scaled<G> + Sync,
{
    fn choose(&mut self, view: &<G as Seat>::View<'_>, rng: &mut GameRng) -> <G as Game>::Move {
        let s = G::search_state(view);
        self.assessed = None;
        let guarded = self.guard.on() && G::guarded(view);
        if guarded && let Some(win) = self.guard.before(&s) {
            self.last = self.guard.explain(G::line_text);
            // A forced win within the guard's depth (its plies are not kept).
            self.assessed = Some((WinChance::estimate(1.0), vec![win]));
            return win;
        }
        let (chosen, value) = if self.temp.applies(G::temperature_ply(view))
            && let scored = temperature::root_scores(&mut self.searcher, &s, self.limits.depth, self.limits.time)
            && let Some(i) = self.temp.sample_scores(&scored.iter().map(|m| m.1).collect::<Vec<f64>>(), rng)
        {
            self.last = None;
            (scored[i].0, 0.5)
        } else {
            let r = self.searcher.search(&s, self.limits);
            self.last = Some(crate::thinking::alphabeta_line(&r, G::line_text));
            self.assessed = Some((WinChance::from_score(r.score, self.eval.scale(&s)), r.pv.clone()));
            // No iteration finished (a time per move too short): a
            // uniformly random legal move.
            let m = r
                .best
                .or_else(|| random_move::<G>(&s, rng, &mut Vec::new()))
                .expect("a state to move in has a legal move");
            (m, 1.0 / (1.0 + (-(r.score as f64) / self.eval.guard_scale()).exp()))
        };
        if !guarded {
            return chosen;
        }
        // The guard's ranking after the chosen move: the other moves in the game's order.
        let mut moves = Vec::new();
        G::moves(&s, &mut moves);
        let others: Vec<(<G as Game>::Move, u64, f64)> = moves.into_iter().map(|m| (m, 0, 0.0)).collect();
        let played = self.guard.after(&s, chosen, &others, value);
        if let Some(note) = self.guard.explain(G::line_text) {
            let line = self.last.get_or_insert_with(String::new);
            if !line.is_empty() {
                line.push_str("; ");
            }
            line.push_str(&note);
        }
        played
    }

    fn new_game(&mut self) {
        // The old table goes before the new one is made: one table's memory
        // at a time, as the first one took (a process memory limit allowed it).
        self.searcher.table = Table::new(0);
        self.searcher = Searcher::new(self.eval.clone(), self.tt_mb);
        self.guard.reset();
        self.last = None;
        self.assessed = None;
    }

    fn explain(&self) -> Option<String> {
        self.last.clone()
    }

    fn assess(&self) -> Option<(WinChance, Vec<<G as Game>::Move>)> {
        self.assessed.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::PerfectInformation;
    use game_search::rng::rng_from_seed;

    crate::testgames::one_heap_nim!(Nim);
    impl PerfectInformation for Nim {}
    impl Searched for Nim {
        fn search_state(s: &(u8, usize)) -> (u8, usize) {
            *s
        }
        /// The stones taken so far, out of 20.
        fn temperature_ply(s: &(u8, usize)) -> usize {
            usize::from(20 - s.0)
        }
        fn line_text(m: u8) -> String {
            format!("take{m}")
        }
    }

    /// Every state scores 0: only the search's results decide.
    #[derive(Clone, Copy)]
    struct Flat;
    impl Evaluator<Nim> for Flat {
        fn eval(&self, _: &(u8, usize)) -> i32 {
            0
        }
    }
    impl Scaled<Nim> for Flat {
        fn scale(&self, _: &(u8, usize)) -> f64 {
            100.0
        }
        fn guard_scale(&self) -> f64 {
            100.0
        }
    }

    fn agent(depth: u32, temp: Temperature) -> AlphaBeta<Nim, Flat> {
        AlphaBeta::try_new(Flat, 1, Limits::depth(depth), temp, RootGuard::new(0, 0, 0)).expect("a small table")
    }

    /// The agent plays the winning move where there is one, says so in its
    /// line and its value, and forgets both with a new game.
    #[test]
    fn the_winning_move_its_line_and_its_value() {
        let mut a = agent(8, Temperature::OFF);
        let mut rng = rng_from_seed(1);
        for heap in [2u8, 4, 5, 7, 8] {
            let m = a.choose(&(heap, 0), &mut rng);
            assert_eq!((heap - m) % 3, 0, "heap {heap}: took {m}");
            let (chance, line) = a.assess().expect("a searched choice has a value");
            assert!(chance.p() > 0.99, "heap {heap}: {}", chance.p());
            assert_eq!(line[0], m);
            let text = a.explain().expect("a line");
            assert!(text.contains("win") && text.contains(&format!("take{m}")), "{text}");
        }
        // A lost heap: a legal move, valued as a loss.
        let m = a.choose(&(6, 1), &mut rng);
        assert!(m == 1 || m == 2);
        assert!(a.assess().expect("a value").0.p() < 0.01);
        a.new_game();
        assert!(a.explain().is_none() && a.assess().is_none(), "a new game forgets the last choice");
    }

    /// Within the temperature's plies the move is drawn from the game's
    /// generator (both moves met from a won heap at a high temperature,
    /// with no line, as the same seed gives the same draw); past them the
    /// search's move.
    #[test]
    fn a_temperature_draws_within_its_plies_only() {
        let mut seen = [0u32; 3];
        for seed in 0..200 {
            let mut a = agent(6, Temperature::new(1e9, 16));
            let (mut r1, mut r2) = (rng_from_seed(seed), rng_from_seed(seed));
            // 15 stones taken: within the temperature's 16 plies.
            let m = a.choose(&(5, 0), &mut r1);
            assert!(a.explain().is_none(), "a drawn move has no line");
            assert_eq!(agent(6, Temperature::new(1e9, 16)).choose(&(5, 0), &mut r2), m, "same seed, same draw");
            seen[usize::from(m)] += 1;
            // 16 stones taken: past them.
            assert_eq!(a.choose(&(4, 0), &mut r1), 1, "past its plies the search decides");
        }
        assert!(seen[1] > 50 && seen[2] > 50, "both moves drawn: {seen:?}");
    }
}
