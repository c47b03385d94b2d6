//! The search engines as policies: MCTS ([`MctsPolicy`]) and fixed-depth
//! alpha-beta ([`AlphaBetaPolicy`]), both playing Sénat through
//! [`crate::adapter`], with their parameters ([`EngineParams`]). They keep
//! search state within one game only, and draw randomness only from the
//! game's generator (MCTS seeds each search from it).

use super::{GameRng, Policy, Turn};
use crate::adapter::{Senat, SenatEval, SenatRollout, SenatState};
use game_search::alphabeta::{Limits, Searcher};
use game_search::mcts::{self, Mcts};
use rand::Rng;
use senat_rules::moves::Move;

/// Monte Carlo tree search with random or greedy rollouts ([`game_search::mcts`]),
/// in both phases. The tree of one move is kept for the next one (the
/// subtree under the moves played since), and dropped between games; every
/// search is seeded from the game's generator.
pub struct MctsPolicy {
    mcts: Mcts<Senat, SenatRollout>,
    reuse: bool,
    /// The game's moves when the trees were last advanced.
    seen: Vec<Move>,
}

impl MctsPolicy {
    /// A player with these parameters.
    pub fn new(e: EngineParams) -> MctsPolicy {
        let config = mcts::Config {
            playouts: e.playouts,
            time: None,
            selection: match e.prior {
                Some(temp) => mcts::Selection::Puct { c: e.c, temp },
                None => mcts::Selection::Uct { c: e.c },
            },
            memory: crate::limits::mb_to_bytes(e.memory_mb).unwrap_or(usize::MAX),
            threads: e.threads,
            parallel: if e.tree { mcts::Parallel::Tree } else { mcts::Parallel::Root },
        };
        MctsPolicy { mcts: Mcts::new(config, e.rollout), reuse: e.reuse, seen: Vec::new() }
    }
}

impl Policy for MctsPolicy {
    fn choose(&mut self, turn: &Turn, rng: &mut GameRng) -> Move {
        let moves = turn.game.moves();
        if self.reuse && moves.len() >= self.seen.len() && moves[..self.seen.len()] == self.seen[..] {
            for &m in &moves[self.seen.len()..] {
                self.mcts.advance(m);
            }
        } else {
            self.mcts.clear();
        }
        let state = SenatState::from_game(turn.game);
        let report = self.mcts.search(&state, rng.next_u64());
        let best = report.best.expect("a position with moves has a best move");
        self.seen.clear();
        if self.reuse {
            self.seen.extend_from_slice(moves);
            self.seen.push(best);
            self.mcts.advance(best);
        }
        best
    }

    fn new_game(&mut self) {
        self.mcts.clear();
        self.seen.clear();
    }
}

/// Fixed-depth alpha-beta with [`SenatEval`] ([`game_search::alphabeta`]),
/// in both phases; its transposition table lives for one game. It draws no
/// randomness: ties go to the first move in search order.
pub struct AlphaBetaPolicy {
    params: EngineParams,
    searcher: Searcher<Senat, SenatEval>,
}

impl AlphaBetaPolicy {
    /// A player with these parameters.
    pub fn new(e: EngineParams) -> AlphaBetaPolicy {
        AlphaBetaPolicy { params: e, searcher: Searcher::new(SenatEval::default(), e.tt_mb) }
    }
}

impl Policy for AlphaBetaPolicy {
    fn choose(&mut self, turn: &Turn, _rng: &mut GameRng) -> Move {
        let state = SenatState::from_game(turn.game);
        let report = self.searcher.search(&state, Limits::depth(self.params.depth));
        report.best.expect("a position with moves has a best move")
    }

    fn new_game(&mut self) {
        self.searcher = Searcher::new(SenatEval::default(), self.params.tt_mb);
    }
}

/// Parameters of the search policies (`mcts:…`, `ab:…`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineParams {
    /// MCTS: playouts per move.
    pub playouts: u64,
    /// MCTS: UCT exploration constant.
    pub c: f64,
    /// MCTS: memory cap of the trees, in megabytes.
    pub memory_mb: usize,
    /// MCTS: threads per search (1 in batches, which are parallel already).
    pub threads: usize,
    /// MCTS: keep the subtree of the move played between searches.
    pub reuse: bool,
    /// MCTS: the rollout policy (`eval`: the learned evaluation's value, no rollout).
    pub rollout: SenatRollout,
    /// MCTS: PUCT with priors from the rollout's priorities through a softmax
    /// of this temperature (`prior=<temp>`); `None`: UCT.
    pub prior: Option<f64>,
    /// MCTS: all threads grow one shared tree with virtual loss
    /// (`parallel=tree`) instead of one tree each (`parallel=root`).
    pub tree: bool,
    /// Alpha-beta: depth in plies.
    pub depth: u32,
    /// Alpha-beta: transposition table in megabytes.
    pub tt_mb: usize,
}

impl Default for EngineParams {
    fn default() -> EngineParams {
        EngineParams {
            playouts: 1000,
            c: 1.0,
            memory_mb: 64,
            threads: 1,
            reuse: true,
            rollout: SenatRollout::Random,
            prior: None,
            tree: false,
            depth: 3,
            tt_mb: 4,
        }
    }
}
