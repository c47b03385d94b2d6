//! The search engines as policies: MCTS ([`MctsPolicy`]) and alpha-beta
//! ([`AlphaBetaPolicy`]), both playing Sénat through [`crate::games::senat`],
//! with their parameters ([`EngineParams`]). They keep search state within
//! one game only, and draw randomness only from the game's generator (MCTS
//! seeds each search from it).
//!
//! Each searches a fixed amount per move (playouts, depth), or, with a time
//! per move ([`EngineParams::movetime_ms`]), until that time is up: the
//! moves then depend on the machine's speed, not on the seed alone.

use super::Turn;
use crate::games::senat::{LeafEval, Senat, SenatEval, SenatRollout, SenatState};
use crate::guarded::GuardSpec;
use crate::learned::LearnedRef;
use crate::mcts::Sharing;
use crate::temperature::{Temperature, Vary};
use crate::winprob::{HAND_SCALE, LEARNED_SCALE};
use game_search::TableError;
use game_search::alphabeta::Limits;
use game_search::mcts::{self, Mcts};
use senat_rules::moves::Move;
use std::time::Duration;

/// MCTS playouts per move with a time per move and no given playout count:
/// "unlimited", in practice (2³⁰, more than 10 minutes, the longest time per
/// move, allow at 1.7 million playouts a second; and far from the 2³² that
/// a node's 32-bit visit count holds).
pub const UNLIMITED_PLAYOUTS: u64 = 1 << 30;

/// MCTS playouts per move when neither playouts nor a time per move are given.
pub const DEFAULT_PLAYOUTS: u64 = 1000;

/// Alpha-beta depth when neither depth nor a time per move are given.
pub const DEFAULT_DEPTH: u32 = 3;

/// Alpha-beta's deepest iteration with a time per move and no given depth.
pub const MOVETIME_DEPTH: u32 = 64;

/// Monte Carlo tree search with random or greedy rollouts ([`game_search::mcts`]),
/// in both phases. The tree of one move is kept for the next one (the
/// subtree under the moves played since), and dropped between games; every
/// search is seeded from the game's generator.
pub type MctsPolicy = crate::mcts::MonteCarlo<Senat, SenatRollout>;

/// Sénat's MCTS agent of `e`'s parameters ([`MctsPolicy`], the lab's one
/// MCTS agent).
pub fn mcts_policy(e: EngineParams) -> MctsPolicy {
    let config = mcts::Config {
        playouts: e.playout_cap(),
        time: e.movetime(),
        selection: match e.prior {
            Some(temp) => mcts::Selection::Puct { c: e.c, temp },
            None => mcts::Selection::Uct { c: e.c },
        },
        memory: e.share.memory(),
        threads: e.share.threads,
        parallel: e.share.parallel(),
        solver: e.solve,
    };
    MctsPolicy::new(Mcts::new(config, e.rollout()), e.reuse, e.temp, e.vary, e.guard.build())
}

/// Alpha-beta with [`SenatEval`] or the learned evaluation ([`LeafEval`],
/// `eval=hand|learned`; [`game_search::alphabeta`]), in both
/// phases: to a fixed depth, or with a time per move by iterative deepening
/// until the time is up (the best move of the last completed iteration;
/// depth [`MOVETIME_DEPTH`] at most unless a depth is given). Its
/// transposition table lives for one game. It draws no randomness (ties go
/// to the first move in search order) but where no iteration finishes
/// within a time per move (a random legal move) and with a move temperature
/// ([`EngineParams::temp`]): within its plies every root move is scored by
/// a search one ply shallower ([`crate::temperature::root_scores`]) and the move
/// drawn from a softmax of the scores (in [`SenatEval`] units).
pub type AlphaBetaPolicy = crate::alphabeta::AlphaBeta<Senat, LeafEval>;

/// Sénat's alpha-beta agent of `e`'s parameters ([`AlphaBetaPolicy`], the
/// lab's one alpha-beta agent), or the [`TableError`] of the memory of its
/// table refused by the system.
pub fn alphabeta_policy(e: EngineParams) -> Result<AlphaBetaPolicy, TableError> {
    let limits = Limits { depth: e.depth_cap(), nodes: None, time: e.movetime() };
    AlphaBetaPolicy::try_new(e.leaf_eval(), e.tt_mb, limits, e.temp, e.guard.build())
}

/// What Sénat's alpha-beta and MCTS search: the position with its history
/// ([`SenatState::from_game`]), its plies counted as [`Turn::ply`] does;
/// its root guard looks in the play phase only (no game ends in the draft).
impl crate::agent::Searched for Senat {
    fn guarded(turn: &Turn) -> bool {
        turn.position().is_play()
    }
    /// The game's moves, draft included: MCTS keeps its tree between moves.
    fn played<'v>(turn: &'v Turn) -> Option<&'v [Move]> {
        Some(turn.game.moves())
    }
    fn search_state(turn: &Turn) -> SenatState {
        SenatState::from_game(turn.game)
    }
    fn temperature_ply(turn: &Turn) -> usize {
        turn.ply()
    }
    fn line_text(m: Move) -> String {
        m.to_string()
    }
}

/// The hand-made evaluation's scores in [`HAND_SCALE`] units of log-odds,
/// the learned one's in [`LEARNED_SCALE`].
impl crate::alphabeta::Scaled<Senat> for LeafEval {
    fn scale(&self, _: &SenatState) -> f64 {
        self.guard_scale()
    }
    fn guard_scale(&self) -> f64 {
        match self {
            LeafEval::Hand(_) => HAND_SCALE,
            LeafEval::Learned(_) => LEARNED_SCALE,
        }
    }
}

/// Parameters of the search policies (`mcts:…`, `ab:…`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineParams {
    /// MCTS: playouts per move, if given ([`EngineParams::playout_cap`]
    /// says how many are played).
    pub playouts: Option<u64>,
    /// MCTS: UCT exploration constant.
    pub c: f64,
    /// MCTS: threads per search (1 in batches, which are parallel
    /// already), one tree each or one shared, the trees' memory cap
    /// (`threads=`, `parallel=`, `mb=`; 64 MB by default).
    pub share: Sharing,
    /// MCTS: keep the subtree of the move played between searches.
    pub reuse: bool,
    /// MCTS: the rollout policy (`eval`: the learned evaluation's value, no rollout).
    pub rollout: SenatRollout,
    /// MCTS: PUCT with priors from the rollout's priorities through a softmax
    /// of this temperature (`prior=<temp>`); `None`: UCT.
    pub prior: Option<f64>,
    /// MCTS: proofs in the tree (`solve=on|off`, see [`mcts::Config::solver`]).
    pub solve: bool,
    /// Both: the root guard in the play phase (`guard=D,guard_nodes=N,
    /// guard_deep=N`, [`crate::guarded`]).
    pub guard: GuardSpec,
    /// Alpha-beta: depth in plies, if given ([`EngineParams::depth_cap`]
    /// says how deep it searches).
    pub depth: Option<u32>,
    /// Alpha-beta: transposition table in megabytes.
    pub tt_mb: usize,
    /// Alpha-beta: the learned evaluation at the leaves (`eval=learned`)
    /// instead of the hand-made [`SenatEval`] (`eval=hand`, the default).
    pub learned_eval: bool,
    /// Both: the learned weights of `eval=learned` (alpha-beta) and of
    /// `rollout=eval` and its priors (MCTS), `file=` in specs; the shipped
    /// ones by default.
    pub learned: LearnedRef,
    /// Both: the time per move in milliseconds, if any: the search goes on
    /// until it is up (or until a given playout count or depth is reached).
    pub movetime_ms: Option<u64>,
    /// Both: the move temperature over the first plies (`temp=`,
    /// `temp_plies=`; [`Temperature::OFF`]: none).
    pub temp: Temperature,
    /// MCTS: the value-bounded choice over the first plies (`vary=`,
    /// `temp_plies=`; [`Vary::OFF`]: none), instead of a temperature.
    pub vary: Vary,
}

impl EngineParams {
    /// MCTS playouts per move: as given; otherwise [`UNLIMITED_PLAYOUTS`]
    /// with a time per move, [`DEFAULT_PLAYOUTS`] without.
    pub fn playout_cap(&self) -> u64 {
        match (self.playouts, self.movetime_ms) {
            (Some(n), _) => n,
            (None, Some(_)) => UNLIMITED_PLAYOUTS,
            (None, None) => DEFAULT_PLAYOUTS,
        }
    }

    /// Alpha-beta's deepest iteration: as given; otherwise
    /// [`MOVETIME_DEPTH`] with a time per move, [`DEFAULT_DEPTH`] without.
    pub fn depth_cap(&self) -> u32 {
        match (self.depth, self.movetime_ms) {
            (Some(d), _) => d,
            (None, Some(_)) => MOVETIME_DEPTH,
            (None, None) => DEFAULT_DEPTH,
        }
    }

    /// MCTS's rollout, `eval` with [`EngineParams::learned`]'s weights.
    pub fn rollout(&self) -> SenatRollout {
        match self.rollout {
            SenatRollout::Eval(_) => SenatRollout::Eval(self.learned),
            r => r,
        }
    }

    /// Alpha-beta's leaf evaluation.
    pub fn leaf_eval(&self) -> LeafEval {
        if self.learned_eval { LeafEval::Learned(self.learned) } else { LeafEval::Hand(SenatEval::default()) }
    }

    /// The time per move, if any.
    pub fn movetime(&self) -> Option<Duration> {
        self.movetime_ms.map(Duration::from_millis)
    }
}

impl Default for EngineParams {
    fn default() -> EngineParams {
        EngineParams {
            playouts: None,
            c: 1.0,
            share: Sharing::new(64),
            reuse: true,
            rollout: SenatRollout::Random,
            prior: None,
            solve: mcts::Config::default().solver,
            guard: GuardSpec::OFF,
            depth: None,
            tt_mb: 4,
            learned_eval: false,
            learned: LearnedRef::builtin(),
            movetime_ms: None,
            temp: Temperature::OFF,
            vary: Vary::OFF,
        }
    }
}
