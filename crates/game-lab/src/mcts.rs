//! The one MCTS agent of the lab, in every game that the generic MCTS
//! ([`game_search::mcts`]) can search: a search seeded from the game's
//! generator, its tree kept from one move to the next where the game
//! shows its moves so far (`reuse`), a move temperature or a value-bounded
//! choice (`vary=`) over the first plies, an optional root guard
//! ([`crate::guarded`]), its line, value and root candidates.
//!
//! A game gives what its seats see as a search state, a ply count and,
//! for `reuse`, the moves played ([`Searched`]); the caller builds the
//! search ([`Mcts`]: playouts, selection, threads, rollout).
//!
//! What this module must never do: name a game, or draw randomness but
//! from the generator an agent is handed.

use crate::agent::{Agent, Searched, Seat, random_move};
use crate::guarded::RootGuard;
use crate::temperature::{Temperature, Vary};
use crate::winprob::WinChance;
use game_search::Game;
use game_search::mcts::{Mcts, Rollout};
use game_search::rng::GameRng;
use game_search::solver::Solvable;
use rand::Rng;

/// How an MCTS search uses threads and memory, the spec keys of every
/// game's MCTS agent: `threads=N` (threads per search; batches already
/// play games in parallel), `parallel=root|tree` (one tree per thread, or
/// one shared tree: [`game_search::mcts::Parallel`]) and `mb=M` (the
/// trees' memory cap, in megabytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sharing {
    /// Threads per search.
    pub threads: usize,
    /// One shared tree (`parallel=tree`) instead of one per thread.
    pub tree: bool,
    /// The trees' memory cap, in megabytes.
    pub memory_mb: usize,
}

impl Sharing {
    /// One thread, a tree per thread, `memory_mb` megabytes: a family's
    /// default (Sénat's 64, the other games' 256).
    pub const fn new(memory_mb: usize) -> Sharing {
        Sharing { threads: 1, tree: false, memory_mb }
    }

    /// Reads `p` if its key is `threads`, `parallel` or `mb` (checked by
    /// the bounds every command shares, [`crate::limits`]): `Ok(true)`
    /// when taken, `Ok(false)` for another key.
    pub fn set(&mut self, p: &crate::spec::Param<'_>) -> Result<bool, crate::spec::ParamError> {
        let whole = |min| p.whole(min).map(|n| usize::try_from(n).unwrap_or(usize::MAX));
        match p.key {
            "threads" => self.threads = crate::limits::threads(p.key, whole(1)?)?,
            "parallel" => self.tree = p.choice(&[(&["tree"], true), (&["root"], false)], "root or tree")?,
            "mb" => self.memory_mb = crate::limits::megabytes(p.key, whole(1)?, 1)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The search's way of sharing the threads.
    pub fn parallel(&self) -> game_search::mcts::Parallel {
        if self.tree { game_search::mcts::Parallel::Tree } else { game_search::mcts::Parallel::Root }
    }

    /// The trees' memory cap in bytes (the largest there is when the
    /// megabytes overflow it).
    pub fn memory(&self) -> usize {
        crate::limits::mb_to_bytes(self.memory_mb).unwrap_or(usize::MAX)
    }

    /// `,threads=N,parallel=tree,mb=M` for a spec's canonical text, each
    /// only where it differs from `default`.
    pub fn text_beside(&self, default: Sharing) -> String {
        let mut s = String::new();
        if self.threads != default.threads {
            s.push_str(&format!(",threads={}", self.threads));
        }
        if self.tree != default.tree {
            s.push_str(if self.tree { ",parallel=tree" } else { ",parallel=root" });
        }
        if self.memory_mb != default.memory_mb {
            s.push_str(&format!(",mb={}", self.memory_mb));
        }
        s
    }
}

/// The one MCTS agent: see the module comment. Its tree and guard live
/// for one game ([`Agent::new_game`]).
pub struct MonteCarlo<G: Solvable, R> {
    mcts: Mcts<G, R>,
    reuse: bool,
    temp: Temperature,
    vary: Vary,
    /// [`Agent::sampled_loss`] of the last choice.
    loss: Option<f64>,
    /// The game's moves when the tree was last advanced.
    seen: Vec<G::Move>,
    last: Option<String>,
    guard: RootGuard<G>,
    assessed: Option<(WinChance, Vec<G::Move>)>,
    /// [`Agent::candidates`] of the last search.
    root: Vec<(G::Move, u64, f64)>,
}

impl<G, R> MonteCarlo<G, R>
where
    G: Solvable,
    G::State: Send,
    G::Move: Send + Sync,
    R: Rollout<G>,
{
    /// An agent searching with `mcts`, keeping its tree between moves
    /// where `reuse` (and the game shows its moves), with a move
    /// temperature, a value-bounded choice (`vary`, used where the
    /// temperature does not apply) and a root guard.
    pub fn new(mcts: Mcts<G, R>, reuse: bool, temp: Temperature, vary: Vary, guard: RootGuard<G>) -> MonteCarlo<G, R> {
        MonteCarlo {
            mcts,
            reuse,
            temp,
            vary,
            loss: None,
            seen: Vec::new(),
            last: None,
            guard,
            assessed: None,
            root: Vec::new(),
        }
    }

    /// Remembers the game's moves up to and with `played`, and moves the
    /// tree under it, where the tree is kept.
    fn keep(&mut self, moves: Option<&[G::Move]>, played: G::Move) {
        self.seen.clear();
        if self.reuse
            && let Some(moves) = moves
        {
            self.seen.extend_from_slice(moves);
            self.seen.push(played);
            self.mcts.advance(played);
        }
    }
}

impl<G, R> Agent<G> for MonteCarlo<G, R>
where
    G: Searched + Seat<Move = <G as Game>::Move>,
    <G as Game>::State: Send,
    <G as Game>::Move: Send + Sync + PartialEq,
    R: Rollout<G>,
{
    fn choose(&mut self, view: &<G as Seat>::View<'_>, rng: &mut GameRng) -> <G as Game>::Move {
        let moves = G::played(view);
        match moves {
            Some(moves)
                if self.reuse && moves.len() >= self.seen.len() && moves[..self.seen.len()] == self.seen[..] =>
            {
                for &m in &moves[self.seen.len()..] {
                    self.mcts.advance(m);
                }
            }
            _ => self.mcts.clear(),
        }
        let state = G::search_state(view);
        let ply = G::temperature_ply(view);
        let guarded = self.guard.on() && G::guarded(view);
        self.assessed = None;
        self.loss = None;
        self.root.clear();
        if guarded && let Some(win) = self.guard.before(&state) {
            self.last = self.guard.explain(G::line_text);
            // A forced win within the guard's depth (its plies are not kept).
            self.assessed = Some((WinChance::estimate(1.0), vec![win]));
            self.keep(moves, win);
            return win;
        }
        let report = self.mcts.search(&state, rng.next_u64());
        self.last = Some(crate::thinking::mcts_line(&report, G::line_text));
        self.assessed = Some((WinChance::from_mean(report.value(), report.proof), report.pv.clone()));
        self.root.clone_from(&report.moves);
        // Only a time per move that ran out before the first playout of a
        // fresh tree leaves no best move: then a uniformly random one.
        let best = report
            .best
            .or_else(|| random_move::<G>(&state, rng, &mut Vec::new()))
            .expect("a state to move in has a legal move");
        // Within the temperature's plies: a move drawn ∝ visits^(1/T)
        // (after the search's seed, so that no draw moves without it).
        // A proved root keeps the proof's move: temperature only varies unproved choices.
        let best = if report.proof.is_none() && self.temp.applies(ply) {
            let visits: Vec<u64> = report.moves.iter().map(|m| m.1).collect();
            self.temp.sample_visits(&visits, rng).map_or(best, |i| report.moves[i].0)
        } else if report.proof.is_none() && self.vary.applies(ply) {
            // Within vary's plies: a move drawn among those within ε of the
            // usual one by the search's own mean values (after the search's seed).
            match report.moves.iter().position(|m| m.0 == best).and_then(|b| self.vary.pick(&report.moves, b, rng)) {
                Some(p) => {
                    self.loss = Some(p.loss);
                    report.moves[p.index].0
                }
                None => best,
            }
        } else {
            best
        };
        let drawn = best;
        let best = if guarded { self.guard.after(&state, best, &report.moves, report.value()) } else { best };
        if best != drawn && self.loss.is_some() {
            // The guard replaced the drawn move (its proof decides): nothing given up by the draw.
            self.loss = Some(0.0);
        }
        if let (Some(line), Some(note)) = (self.last.as_mut(), self.guard.explain(G::line_text)) {
            line.push_str("; ");
            line.push_str(&note);
        }
        self.keep(moves, best);
        best
    }

    fn new_game(&mut self) {
        self.mcts.clear();
        self.seen.clear();
        self.guard.reset();
    }

    fn explain(&self) -> Option<String> {
        self.last.clone()
    }

    fn assess(&self) -> Option<(WinChance, Vec<<G as Game>::Move>)> {
        self.assessed.clone()
    }

    fn candidates(&self) -> Vec<(<G as Game>::Move, u64, f64)> {
        self.root.clone()
    }

    fn sampled_loss(&self) -> Option<f64> {
        self.loss
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_search::mcts::{Config, UniformRollout};
    use game_search::rng::rng_from_seed;

    crate::testgames::one_heap_nim!(Nim);
    impl Seat for Nim {
        type View<'a> = ((u8, usize), &'a [u8]);
        type Move = u8;
        fn decisions(v: &((u8, usize), &[u8]), buf: &mut Vec<u8>) -> usize {
            Nim::moves(&v.0, buf);
            buf.len()
        }
    }
    impl Searched for Nim {
        fn search_state(v: &((u8, usize), &[u8])) -> (u8, usize) {
            v.0
        }
        fn temperature_ply(v: &((u8, usize), &[u8])) -> usize {
            v.1.len()
        }
        fn played<'v>(v: &'v ((u8, usize), &[u8])) -> Option<&'v [u8]> {
            Some(v.1)
        }
        fn line_text(m: u8) -> String {
            format!("take{m}")
        }
    }

    fn agent(playouts: u64, reuse: bool, temp: Temperature) -> MonteCarlo<Nim, UniformRollout<Nim>> {
        let config = Config { playouts, solver: false, ..Config::default() };
        MonteCarlo::new(Mcts::new(config, UniformRollout::default()), reuse, temp, Vary::OFF, RootGuard::new(0, 0, 0))
    }

    /// The root's playouts of the last search.
    fn visits(a: &MonteCarlo<Nim, UniformRollout<Nim>>) -> u64 {
        a.candidates().iter().map(|c| c.1).sum()
    }

    /// The agent finds the winning move, keeps its tree from one move to
    /// the next where asked (the second search starts from the first's
    /// playouts under the moves played since), starts afresh otherwise and
    /// after a new game.
    #[test]
    fn the_winning_move_and_the_tree_kept_between_moves() {
        let mut rng = rng_from_seed(5);
        for reuse in [false, true] {
            let mut a = agent(400, reuse, Temperature::OFF);
            let m = a.choose(&((8, 0), &[]), &mut rng);
            assert_eq!(m, 2, "8 - 2 = 6, a lost heap for the opponent");
            assert!(a.explain().is_some_and(|l| l.contains("take2")));
            let first = visits(&a);
            // The opponent takes 1: heap 5, where taking 2 wins.
            let played = [m, 1];
            assert_eq!(a.choose(&((5, 0), &played), &mut rng), 2);
            let second = visits(&a);
            if reuse {
                assert!(second > first, "the kept subtree adds its playouts: {first} then {second}");
            } else {
                assert_eq!(second, first, "a fresh tree each move");
            }
            a.new_game();
            a.choose(&((5, 0), &[]), &mut rng);
            assert_eq!(visits(&a), first, "a new game starts a fresh tree");
        }
    }

    /// Within the temperature's plies a move is drawn ∝ visits^(1/T) after
    /// the search (both moves met at a high temperature), the same for the
    /// same seed.
    #[test]
    fn a_temperature_draws_after_the_search() {
        let mut seen = [0u32; 3];
        for seed in 0..100 {
            let (mut r1, mut r2) = (rng_from_seed(seed), rng_from_seed(seed));
            let m = agent(50, false, Temperature::new(1e6, 4)).choose(&((8, 0), &[]), &mut r1);
            assert_eq!(agent(50, false, Temperature::new(1e6, 4)).choose(&((8, 0), &[]), &mut r2), m);
            seen[usize::from(m)] += 1;
        }
        assert!(seen[1] > 20 && seen[2] > 20, "both moves drawn: {seen:?}");
    }
}
