//! Agents for any [`LabGame`]: greedy one-ply on the game's evaluation,
//! alpha-beta and MCTS from `game-search` (the uniformly random one is the
//! lab's one random agent, [`crate::agent::Random`]); their spec text
//! ([`AgentSpec`]) and one game played between them ([`play`]).
//!
//! What this module must never do: know which game it plays, or draw
//! randomness from anywhere but the generator a game is given.

use super::learn::{self, GameWeights};
use super::{LabEval, LabGame};
pub use crate::agent::Agent;
use crate::guarded::GuardSpec;
use crate::named;
use crate::spec::{Expected, Family, Kind, ParamError, Reading, SpecError};
use crate::temperature::{TempKeys, Temperature, Vary};
use game_search::alphabeta::Limits;
use game_search::mcts::{self, Mcts, Rollout};
use game_search::rng::GameRng;
use game_search::{MAX_PLAYERS, Scores, TableError, WIN};
use std::fmt;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

/// How an MCTS agent values a leaf.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LeafValue {
    /// Play uniformly random moves to the end (a game still running after
    /// `cap` plies scores the same for everyone).
    Random {
        /// Plies before a rollout gives up.
        cap: u32,
    },
    /// Play `cut` random plies, then read the evaluation through a logistic
    /// curve (`scale` centi-units per e-fold).
    Eval {
        /// Random plies before the evaluation.
        cut: u32,
        /// Centi-units of evaluation for one logit.
        scale: f64,
    },
    /// The learned evaluation of a weights file ([`crate::games::learn`])
    /// through a logistic (`rollout=eval,file=F,scale=S`): its log-odds in
    /// thousandths ([`super::LEARNED_SCALE`]) over `scale`, so the default
    /// scale, 1000, gives the file's own probability and a smaller one
    /// sharpens it.
    Learned {
        /// The weights.
        weights: &'static GameWeights,
        /// Thousandths of a logit per logit of the leaf's value.
        scale: f64,
    },
}

/// An agent, as its spec text names it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AgentSpec {
    /// Uniformly random legal moves.
    Random,
    /// The move whose result evaluates best for the mover's team (ties at random).
    Greedy,
    /// Alpha-beta on the evaluation to `depth` plies (or for `movetime_ms`).
    AlphaBeta {
        /// Plies.
        depth: u32,
        /// Milliseconds per move (then `depth` is a cap).
        movetime_ms: Option<u64>,
        /// Transposition table megabytes.
        tt_mb: usize,
        /// The root guard ([`crate::guarded`]); `guard=D,guard_nodes=N,guard_deep=N`.
        guard: GuardSpec,
        /// Move temperature over the first plies of the game or round
        /// ([`LabGame::plies_into_round`]; softmax of the root moves'
        /// scores, in centi-units; [`Temperature::OFF`]: none).
        temp: Temperature,
        /// The evaluation: the hand-made one, or a weights file's (`file=F`).
        eval: LabEval,
    },
    /// Monte Carlo tree search.
    Mcts {
        /// Playouts per move.
        playouts: u64,
        /// Exploration constant of UCT.
        c: f64,
        /// How leaves are valued.
        leaf: LeafValue,
        /// Milliseconds per move (then `playouts` is a cap).
        movetime_ms: Option<u64>,
        /// Proofs in the tree ([`mcts::Config::solver`]); `solve=on|off`.
        solve: bool,
        /// `prior=T`: AlphaZero's selection ([`mcts::Selection::Puct`]) with
        /// priors from the leaf's evaluation of each child (a softmax of
        /// temperature `T`, in thousandths of a logit for `file=`, in
        /// centi-units of the evaluation otherwise); `None`: UCT.
        prior: Option<f64>,
        /// The root guard ([`crate::guarded`]); `guard=D,guard_nodes=N,guard_deep=N`.
        guard: GuardSpec,
        /// Move temperature over the first plies of the game or round
        /// ([`LabGame::plies_into_round`]; ∝ visits^(1/T);
        /// [`Temperature::OFF`]: none).
        temp: Temperature,
        /// The value-bounded choice over the first plies (`vary=ε`, its
        /// plies `temp_plies=`, of the game or round like a temperature's;
        /// [`Vary::OFF`]: none), instead of a temperature.
        vary: Vary,
        /// Threads and memory of the search (`threads=`, `parallel=`, `mb=`).
        share: Sharing,
    },
}

pub use crate::mcts::Sharing;

/// The trees' memory cap of an MCTS agent without `mb=`: the search's
/// default ([`mcts::Config`]'s, 256 MB).
pub const DEFAULT_MCTS_MB: usize = 256;

/// The threads and memory of an MCTS agent without `threads=`,
/// `parallel=` or `mb=` (its canonical text shows none of them).
pub const DEFAULT_SHARING: Sharing = Sharing::new(DEFAULT_MCTS_MB);

/// MCTS defaults: the exploration constant, random plies before the
/// evaluation, and the evaluation's logistic scale. Chosen in short arena
/// runs on Focus (docs/commands/other-games.md: c=0.4 and scale=100 beat c=1 and
/// scale=300 against alpha-beta at depth 2; cut=0 beat cut=4).
pub const DEFAULT_C: f64 = 0.4;
/// See [`DEFAULT_C`].
pub const DEFAULT_CUT: u32 = 0;
/// See [`DEFAULT_C`].
pub const DEFAULT_SCALE: f64 = 100.0;

/// The help of an agent spec (see [`crate::temperature`] for `temp` and `temp_plies`).
pub const AGENT_HELP: &str = "random | greedy | ab[:depth=2,movetime=MS,tt=16,file=F,guard=0,guard_nodes=50000,guard_deep=8000000,guard_before=D,temp=T,temp_plies=K] | \
mcts[:playouts=1000,c=0.4,prior=T,rollout=eval|random,cut=0,scale=100,file=F,cap=1000,movetime=MS,threads=1,parallel=root|tree,mb=256,solve=on|off,guard=0,guard_nodes=50000,guard_deep=8000000,guard_before=D,temp=T,temp_plies=K,vary=E] \
(ab's file=F: the search's evaluation is weights file F's learned one, in thousandths of a logit; \
solve: proved wins, losses and draws in the tree; guard=D: a forced win within D plies played at once, a chosen move proved lost \
within D plies replaced by the next not proved lost, proofs capped at guard_nodes nodes, a deeper look (guard_deep) where the search's value is at least 0.9, guard_before=D the horizon of the quick look for a win before the search (default: the guard's; 0: none); rollout=eval: `cut` random plies, then the evaluation through a logistic of `scale` centi-units, or with file=F \
the learned evaluation of weights file F (`senat train-net --game G` writes one; Focus and Débâcle) through a logistic of `scale` \
thousandths of a logit (default 1000: the file's own probability; smaller sharpens it); \
prior=T: AlphaZero's selection (PUCT) with priors a softmax of temperature T over the leaf evaluation of each child \
(thousandths of a logit with file=, the evaluation's centi-units otherwise; without prior: UCT); \
rollout=random: to the end of the game, a draw after `cap` plies; \
threads=N: threads per search (1: batches already play games in parallel), parallel=root (a tree per thread) or tree (one shared tree), \
mb: the trees' memory cap in megabytes; \
temp: the first K plies of the game (of each round in Débâcle, counted in regular actions) drawn ∝ visits^(1/T) (mcts) or from a softmax of the scores / T \
in centi-units (ab); temp alone: K=16, temp_plies alone: T=1; temp=0: off; \
vary=E (mcts, instead of a temperature): over the first temp_plies plies (16 by default; of each round in Débâcle) a move drawn \
among the root moves whose mean value is within E of the most visited move's (score units: a win 1, a draw 0.5; moves with at \
least a tenth of its visits), uniformly, or with temp=T ∝ visits^(1/T) among them, so that no move worse than E by the agent's own values is played; each team's summed value loss \
is written to the games file and the summary; vary=0: off)";

/// The agents of every [`LabGame`] as the lab's one spec grammar reads
/// them ([`crate::spec`]): their kinds with their keys and the named agents.
pub static AGENTS: Family = Family {
    noun: "agent",
    plural: "agents",
    kinds: &[
        Kind { name: "random", keys: &[] },
        Kind { name: "greedy", keys: &[] },
        Kind { name: "ab", keys: AB_KEYS },
        Kind { name: "mcts", keys: MCTS_KEYS },
    ],
    named: named::GAMES,
};

/// Why an agent spec cannot be read (the grammar's refusal, or a value's).
pub type AgentError = SpecError;

/// The names of the agents (the kinds, then the named ones), for messages.
pub fn agent_names() -> Vec<&'static str> {
    AGENTS.names()
}

/// The keys of `ab:…` (for suggestions; keep in step with [`AgentSpec::parse`]).
pub const AB_KEYS: &[&str] =
    &["depth", "movetime", "tt", "file", "guard", "guard_nodes", "guard_deep", "guard_before", "temp", "temp_plies"];
/// The keys of `mcts:…` (for suggestions; keep in step with [`AgentSpec::parse`]).
pub const MCTS_KEYS: &[&str] = &[
    "playouts",
    "c",
    "rollout",
    "cut",
    "scale",
    "file",
    "cap",
    "movetime",
    "solve",
    "prior",
    "guard",
    "guard_nodes",
    "guard_deep",
    "guard_before",
    "temp",
    "temp_plies",
    "vary",
    "threads",
    "parallel",
    "mb",
];

impl AgentSpec {
    /// Reads `random`, `greedy`, `ab[:k=v,...]` or `mcts[:k=v,...]`, or a
    /// named agent of [`named::GAMES`] (`top`, `strong`, `fast`) as its expansion.
    pub fn parse(text: &str) -> Result<AgentSpec, AgentError> {
        let w = match AGENTS.read(text)? {
            Reading::Named(named) => return AgentSpec::parse(named.spec),
            Reading::Kind(w) => w,
        };
        let refuse = |error: ParamError| AGENTS.refuse(w.spec, error);
        let mut a = match w.kind.name {
            "random" => AgentSpec::Random,
            "greedy" => AgentSpec::Greedy,
            "ab" => AgentSpec::AlphaBeta {
                depth: 2,
                movetime_ms: None,
                tt_mb: 16,
                guard: GuardSpec::OFF,
                temp: Temperature::OFF,
                eval: LabEval::HAND,
            },
            _ => AgentSpec::Mcts {
                playouts: 1000,
                c: DEFAULT_C,
                leaf: LeafValue::Eval { cut: DEFAULT_CUT, scale: DEFAULT_SCALE },
                movetime_ms: None,
                solve: mcts::Config::default().solver,
                prior: None,
                guard: GuardSpec::OFF,
                temp: Temperature::OFF,
                vary: Vary::OFF,
                share: DEFAULT_SHARING,
            },
        };
        let (mut rollout, mut cut, mut scale, mut cap) = (None::<bool>, None, None, None);
        let mut file = None::<&'static GameWeights>;
        let mut temp = TempKeys::default();
        for p in &w.params {
            if temp.set(p.key, p.value).map_err(|e| refuse(e.into()))? {
                continue;
            }
            let k = p.key;
            // Depths, memory, times and playouts: the bounds of every command (limits.rs).
            let mut read = |a: &mut AgentSpec| -> Result<(), ParamError> {
                match (a, k) {
                    (AgentSpec::AlphaBeta { depth, .. }, "depth") => {
                        let d = u32::try_from(p.whole(1)?).unwrap_or(u32::MAX);
                        *depth = crate::limits::depth(k, d, 1)?
                    }
                    (AgentSpec::AlphaBeta { tt_mb, .. }, "tt") => {
                        let mb = usize::try_from(p.whole(1)?).unwrap_or(usize::MAX);
                        *tt_mb = crate::limits::megabytes(k, mb, 1)?
                    }
                    (AgentSpec::AlphaBeta { movetime_ms, .. } | AgentSpec::Mcts { movetime_ms, .. }, "movetime") => {
                        *movetime_ms = Some(crate::limits::movetime_ms(
                            k,
                            p.whole(0).map_err(|_| p.not(Expected::AtLeast("1".into())))?,
                        )?)
                    }
                    (AgentSpec::Mcts { playouts, .. }, "playouts") => {
                        *playouts = crate::limits::playouts(k, p.whole(0)?)?
                    }
                    (AgentSpec::Mcts { c, .. }, "c") => *c = crate::limits::exploration_text(k, p.value)?,
                    (AgentSpec::Mcts { prior, .. }, "prior") => *prior = Some(crate::limits::prior_text(k, p.value)?),
                    (AgentSpec::Mcts { .. }, "rollout") => {
                        rollout = Some(p.choice(&[(&["eval"], true), (&["random"], false)], "eval or random")?)
                    }
                    (
                        AgentSpec::AlphaBeta { guard, .. } | AgentSpec::Mcts { guard, .. },
                        "guard" | "guard_nodes" | "guard_deep" | "guard_before",
                    ) => {
                        p.whole(if matches!(k, "guard" | "guard_before") { 0 } else { 1 })?;
                        guard.set(k, p.value)?;
                    }
                    (AgentSpec::Mcts { share, .. }, "threads" | "parallel" | "mb") => {
                        share.set(p)?;
                    }
                    (AgentSpec::Mcts { solve, .. }, "solve") => {
                        *solve = p.choice(&[(&["on"], true), (&["off"], false)], "on or off")?
                    }
                    (AgentSpec::Mcts { .. }, "cut") => cut = Some(p.whole_in(0, 10_000)? as u32),
                    (AgentSpec::Mcts { .. }, "cap") => cap = Some(p.whole_in(1, 1_000_000)? as u32),
                    (AgentSpec::Mcts { .. }, "scale") => scale = Some(p.number_in(1.0, 1e6)?),
                    (AgentSpec::Mcts { .. }, "file") => file = Some(weights_file(p.value)?),
                    (AgentSpec::AlphaBeta { eval, .. }, "file") => {
                        *eval = LabEval { weights: Some(weights_file(p.value)?) }
                    }
                    // A key the grammar let through for this kind but no arm
                    // reads: said as such rather than ignored.
                    _ => return Err(ParamError::Conflict("a parameter this agent does not read")),
                }
                Ok(())
            };
            read(&mut a).map_err(refuse)?;
        }
        match &mut a {
            AgentSpec::AlphaBeta { temp: t, .. } => *t = temp.resolve(),
            // `vary=` takes the temperature's plies (`temp_plies=`) and replaces its draws.
            AgentSpec::Mcts { temp: t, vary, .. } => (*t, *vary) = temp.variety(),
            AgentSpec::Random | AgentSpec::Greedy => {}
        }
        if let AgentSpec::Mcts { leaf, .. } = &mut a {
            let random = rollout == Some(false);
            if random && (cut.is_some() || scale.is_some()) {
                return Err(refuse(ParamError::Conflict(
                    "`cut` and `scale` value leaves by the evaluation: not with rollout=random",
                )));
            }
            if !random && cap.is_some() {
                return Err(refuse(ParamError::Conflict("`cap` bounds random rollouts: it needs rollout=random")));
            }
            if file.is_some() && (random || cut.is_some()) {
                return Err(refuse(ParamError::Conflict(
                    "file= values leaves by its learned evaluation at once: not with rollout=random or cut",
                )));
            }
            *leaf = if random {
                LeafValue::Random { cap: cap.unwrap_or(1000) }
            } else if let Some(weights) = file {
                LeafValue::Learned { weights, scale: scale.unwrap_or(super::LEARNED_SCALE) }
            } else {
                LeafValue::Eval { cut: cut.unwrap_or(DEFAULT_CUT), scale: scale.unwrap_or(DEFAULT_SCALE) }
            };
        }
        Ok(a)
    }

    /// Whether the agent draws no randomness, in effect: alpha-beta, and
    /// MCTS valuing leaves by the evaluation with no random plies, both
    /// without a move temperature. Such agents play one game from one start.
    pub fn deterministic(&self) -> bool {
        match self {
            AgentSpec::AlphaBeta { temp, .. } => temp.is_off(),
            AgentSpec::Mcts { temp, vary, leaf, .. } => {
                temp.is_off()
                    && vary.is_off()
                    && matches!(leaf, LeafValue::Eval { cut: 0, .. } | LeafValue::Learned { .. })
            }
            AgentSpec::Random | AgentSpec::Greedy => false,
        }
    }

    /// The agent given `movetime=ms` (`--time-per-move`): alpha-beta and
    /// MCTS without a `movetime=` of their own search for `ms` per move,
    /// their depth or playouts then a cap; the others are returned as they
    /// are. The name shows the time (`mcts:movetime=250`), as Sénat's
    /// policies' names do. `ms` is checked by [`crate::limits::movetime_ms`] first.
    pub fn with_movetime(mut self, ms: u64) -> AgentSpec {
        if let AgentSpec::AlphaBeta { movetime_ms: m @ None, .. } | AgentSpec::Mcts { movetime_ms: m @ None, .. } =
            &mut self
        {
            *m = Some(ms);
        }
        self
    }

    /// Whether the agent searches, so gives a value and a line
    /// ([`Agent::assess`]): alpha-beta and MCTS.
    pub fn searches(&self) -> bool {
        matches!(self, AgentSpec::AlphaBeta { .. } | AgentSpec::Mcts { .. })
    }

    /// The same agent without a move temperature or a value-bounded
    /// choice: every choice its best.
    pub fn without_temperature(&self) -> AgentSpec {
        let mut a = *self;
        match &mut a {
            AgentSpec::AlphaBeta { temp, .. } => *temp = Temperature::OFF,
            AgentSpec::Mcts { temp, vary, .. } => (*temp, *vary) = (Temperature::OFF, Vary::OFF),
            AgentSpec::Random | AgentSpec::Greedy => {}
        }
        a
    }

    /// Whether the agent draws value-bounded choices (`vary=`), whose
    /// value loss a batch records.
    pub fn varies(&self) -> bool {
        matches!(self, AgentSpec::Mcts { vary, .. } if !vary.is_off())
    }

    /// The learned weights file the agent reads (`file=`), if any.
    pub fn weights(&self) -> Option<&'static GameWeights> {
        match *self {
            AgentSpec::Mcts { leaf: LeafValue::Learned { weights, .. }, .. } => Some(weights),
            AgentSpec::AlphaBeta { eval, .. } => eval.weights,
            _ => None,
        }
    }

    /// Whether the agent can play game `G`: a weights file it names
    /// (`file=`) must be `G`'s.
    pub fn fits<G: LabGame>(&self) -> Result<(), learn::WeightsError> {
        let Some(w) = self.weights() else { return Ok(()) };
        match G::NET {
            Some(shape) if shape.game == w.game && shape.inputs == w.net.inputs => Ok(()),
            Some(shape) => Err(learn::WeightsError::Game { file: w.game.clone(), wanted: shape.game }),
            None => Err(learn::WeightsError::NoNetwork),
        }
    }

    /// A fresh agent for game `G`; a weights file it names must be `G`'s
    /// ([`AgentSpec::fits`], which the commands check first: a programming
    /// error otherwise). Panics where the system refuses the memory of its
    /// table; [`AgentSpec::try_build`] says so instead.
    pub fn build<G: LabGame>(&self) -> Box<dyn Agent<G>> {
        self.try_build::<G>().unwrap_or_else(|e| panic!("agent `{self}`: {e}"))
    }

    /// A fresh agent for game `G`, as [`AgentSpec::build`] makes it, or the
    /// [`TableError`] of the memory of its table refused by the system.
    pub fn try_build<G: LabGame>(&self) -> Result<Box<dyn Agent<G>>, TableError> {
        if let Err(e) = self.fits::<G>() {
            panic!("agent `{self}` built for a game it does not fit: {e}");
        }
        Ok(match *self {
            AgentSpec::Random => Box::new(crate::agent::Random::<G>::default()),
            AgentSpec::Greedy => Box::new(crate::agent::Greedy::<G>::default()),
            AgentSpec::AlphaBeta { depth, movetime_ms, tt_mb, guard, temp, eval } => {
                let limits = Limits { depth, nodes: None, time: movetime_ms.map(Duration::from_millis) };
                Box::new(crate::alphabeta::AlphaBeta::<G, LabEval>::try_new(eval, tt_mb, limits, temp, guard.build())?)
            }
            AgentSpec::Mcts { playouts, c, leaf, movetime_ms, solve, prior, guard, temp, vary, share } => {
                let config = mcts::Config {
                    playouts,
                    time: movetime_ms.map(Duration::from_millis),
                    threads: share.threads,
                    parallel: share.parallel(),
                    memory: share.memory(),
                    selection: match prior {
                        Some(temp) => mcts::Selection::Puct { c, temp },
                        None => mcts::Selection::Uct { c },
                    },
                    solver: solve,
                };
                let mcts = Mcts::new(config, LabRollout::new(leaf).with_priors(prior.is_some()));
                Box::new(crate::mcts::MonteCarlo::<G, LabRollout<G>>::new(mcts, false, temp, vary, guard.build()))
            }
        })
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical spec text (every parameter given), read back by [`AgentSpec::parse`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Greedy => f.write_str("greedy"),
            AgentSpec::AlphaBeta { depth, movetime_ms, tt_mb, guard, temp, eval } => {
                write!(f, "ab:depth={depth},tt={tt_mb}")?;
                eval.weights.map_or(Ok(()), |w| write!(f, ",file={}", w.path))?;
                movetime_ms.map_or(Ok(()), |ms| write!(f, ",movetime={ms}"))?;
                write!(f, "{guard}")?;
                if !temp.is_off() { write!(f, ",{temp}") } else { Ok(()) }
            }
            AgentSpec::Mcts { playouts, c, leaf, movetime_ms, solve, prior, guard, temp, vary, share } => {
                write!(f, "mcts:playouts={playouts},c={c}")?;
                prior.map_or(Ok(()), |t| write!(f, ",prior={t}"))?;
                match leaf {
                    LeafValue::Random { cap } => write!(f, ",rollout=random,cap={cap}")?,
                    LeafValue::Eval { cut, scale } => write!(f, ",rollout=eval,cut={cut},scale={scale}")?,
                    LeafValue::Learned { weights, scale } => {
                        write!(f, ",rollout=eval,file={}", weights.path)?;
                        // The default is left out: the file's own probability.
                        if *scale != super::LEARNED_SCALE {
                            write!(f, ",scale={scale}")?;
                        }
                    }
                }
                movetime_ms.map_or(Ok(()), |ms| write!(f, ",movetime={ms}"))?;
                f.write_str(&share.text_beside(DEFAULT_SHARING))?;
                write!(f, "{guard}")?;
                if !temp.is_off() {
                    write!(f, ",{temp}")?;
                }
                if !vary.is_off() {
                    write!(f, ",{vary}")?;
                }
                // The default (on) is left out, so that names written before the key existed still read the same.
                if *solve { Ok(()) } else { f.write_str(",solve=off") }
            }
        }
    }
}

/// The learned weights file `path` ([`learn::load`]), as a spec's value.
pub(crate) fn weights_file(path: &str) -> Result<&'static GameWeights, ParamError> {
    learn::load(path).map_err(|e| ParamError::File { path: path.to_string(), message: e.to_string() })
}

/// A lab game's one-ply score of `m` in `s` for the player to move: the
/// state after it, a result as ±WIN (0 for a draw), otherwise the
/// evaluation ([`crate::agent::OnePly::greedy_score`] of every lab game,
/// for the one greedy agent).
pub fn greedy_score<G: LabGame>(s: &G::State, m: G::Move) -> f64 {
    let after = G::apply(s, m);
    let me = G::to_move(s);
    f64::from(match G::result(&after) {
        Some(r) => game_search::score_for::<G>(&after, &r, me, 0),
        None => G::evaluate(&after, me),
    })
}

/// The leaf values of [`AgentSpec::Mcts`]: random plies, then the result
/// or the evaluation.
pub struct LabRollout<G: LabGame> {
    leaf: LeafValue,
    /// Children ranked by the leaf's evaluation ([`Rollout::priority`]).
    priors: bool,
    buf: Vec<G::Move>,
    _game: PhantomData<G>,
}

impl<G: LabGame> Clone for LabRollout<G> {
    fn clone(&self) -> Self {
        LabRollout::new(self.leaf).with_priors(self.priors)
    }
}

impl<G: LabGame> LabRollout<G> {
    /// A rollout valuing leaves by `leaf`.
    pub fn new(leaf: LeafValue) -> LabRollout<G> {
        LabRollout { leaf, priors: false, buf: Vec::new(), _game: PhantomData }
    }

    /// The same, ranking children by the leaf's evaluation of the state
    /// each move makes, for the mover (`priors`), or by the game's own
    /// [`game_search::Game::priority`].
    pub fn with_priors(mut self, priors: bool) -> LabRollout<G> {
        self.priors = priors;
        self
    }
}

impl<G: LabGame> Rollout<G> for LabRollout<G> {
    /// With priors: the mover's value of the state after `m` (a result
    /// ±[`WIN`]), in thousandths of a logit for a weights file, in the
    /// evaluation's centi-units otherwise.
    fn priority(&mut self, s: &G::State, m: G::Move) -> i32 {
        if !self.priors {
            return G::priority(s, m);
        }
        let me = G::to_move(s);
        let t = G::apply(s, m);
        if let Some(r) = G::result(&t) {
            return game_search::score_for::<G>(&t, &r, me, 0).clamp(-WIN, WIN);
        }
        match self.leaf {
            LeafValue::Learned { weights: w, .. } => {
                (w.logit_for::<G>(&t, me) * super::LEARNED_SCALE).clamp(-f64::from(WIN / 2), f64::from(WIN / 2)) as i32
            }
            _ => G::evaluate(&t, me).clamp(-WIN / 2, WIN / 2),
        }
    }

    fn rollout(&mut self, s: &G::State, rng: &mut GameRng) -> Scores {
        let (plies, scale) = match self.leaf {
            LeafValue::Random { cap } => (cap, None),
            LeafValue::Eval { cut, scale } => (cut, Some(scale)),
            LeafValue::Learned { weights, scale } => {
                return G::result(s).unwrap_or_else(|| weights.values::<G>(s, scale));
            }
        };
        let mut s = *s;
        for _ in 0..plies {
            if let Some(r) = G::result(&s) {
                return r;
            }
            let m = crate::agent::random_move::<G>(&s, rng, &mut self.buf).expect("a running game has a legal move");
            s = G::apply(&s, m);
        }
        if let Some(r) = G::result(&s) {
            return r;
        }
        let players = G::players(&s);
        let mut r = [0.0; MAX_PLAYERS];
        match scale {
            Some(scale) => {
                for (p, v) in r.iter_mut().enumerate().take(players) {
                    let e = G::evaluate(&s, p).clamp(-WIN / 4, WIN / 4) as f64;
                    *v = 1.0 / (1.0 + (-e / scale).exp());
                }
            }
            None => r[..players].fill(0.5),
        }
        r
    }
}

/// One game played to its end.
#[derive(Clone, Debug)]
pub struct Played<G: LabGame> {
    /// The final state.
    pub end: G::State,
    /// The moves, if recorded.
    pub moves: Vec<G::Move>,
    /// The results per player.
    pub scores: Scores,
    /// The winning team (`None`: a draw).
    pub winner: Option<usize>,
    /// Decisions played.
    pub plies: u32,
    /// Thinking time per team.
    pub think: [Duration; 2],
    /// Decisions per team.
    pub decisions: [u32; 2],
    /// Each team's summed value loss of its value-bounded draws
    /// ([`Agent::sampled_loss`], `vary=`), in score units; 0 for a team
    /// that drew none.
    pub vary_loss: [f64; 2],
}

/// Plays `start` to its end, team `t`'s moves chosen by `agents[t]` (team 0
/// is the team of player 0), all randomness from `rng`.
pub fn play<G: LabGame>(
    start: G::State,
    agents: &mut [Box<dyn Agent<G>>; 2],
    rng: &mut GameRng,
    record: bool,
) -> Played<G> {
    let mut s = start;
    let mut moves = Vec::new();
    let (mut think, mut decisions, mut plies) = ([Duration::ZERO; 2], [0u32; 2], 0u32);
    let mut vary_loss = [0.0; 2];
    let scores = loop {
        if let Some(r) = G::result(&s) {
            break r;
        }
        let team = G::team(&s, G::to_move(&s)).min(1);
        let t0 = Instant::now();
        let m = agents[team].choose(&s, rng);
        think[team] += t0.elapsed();
        decisions[team] += 1;
        vary_loss[team] += agents[team].sampled_loss().unwrap_or(0.0);
        if record {
            moves.push(m);
        }
        s = G::apply(&s, m);
        plies += 1;
    };
    Played { end: s, moves, winner: super::winner::<G>(&s, &scores), scores, plies, think, decisions, vary_loss }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::toy::Nim;
    use game_search::rng::rng_from_seed;

    #[test]
    fn specs_round_trip_and_refuse() {
        for t in [
            "random",
            "greedy",
            "ab",
            "ab:depth=3",
            "mcts",
            "mcts:playouts=50,rollout=random,cap=40",
            "ab:movetime=5",
            "mcts:prior=300,c=2",
        ] {
            let a = AgentSpec::parse(t).unwrap();
            assert_eq!(AgentSpec::parse(&a.to_string()).unwrap(), a, "{t}");
        }
        let e = AgentSpec::parse("mcts:playouts=0").unwrap_err().to_string();
        assert!(e.contains("`playouts=0`: expected a playout count from 1 to 1073741824"), "{e}");
        let e = AgentSpec::parse("ab:playouts=5").unwrap_err().to_string();
        assert!(
            e.contains("unknown parameter `playouts` (keys of `ab`: depth, movetime, tt, file, guard, guard_nodes, guard_deep, guard_before, temp, temp_plies; see --help)"),
            "{e}"
        );
        let e = AgentSpec::parse("heuristic").unwrap_err().to_string();
        assert!(e.starts_with("unknown agent `heuristic` (agents: random, greedy, ab, mcts, top,"), "{e}");
        let e = AgentSpec::parse("greedy:depth=2").unwrap_err().to_string();
        assert_eq!(e, "agent `greedy` takes no parameters (`greedy:depth=2`)");
        let e = AgentSpec::parse("mcts:rollout=random,cut=3").unwrap_err().to_string();
        assert!(e.contains("`cut` and `scale` value leaves by the evaluation: not with rollout=random"), "{e}");
        let e = AgentSpec::parse("mcts:cap=3").unwrap_err().to_string();
        assert!(e.contains("`cap` bounds random rollouts: it needs rollout=random"), "{e}");
    }

    /// `vary=ε` takes `temp_plies=` as its plies (16 by default) and
    /// `temp=` as its draw's temperature, is written back in the canonical
    /// text, refuses other kinds, is off at 0 (the agent without the key),
    /// and makes the agent varied.
    #[test]
    fn vary_reads_like_senats_and_goes_with_no_temperature() {
        let a = AgentSpec::parse("mcts:playouts=20,vary=0.02,temp_plies=8").unwrap();
        let AgentSpec::Mcts { temp, vary, .. } = a else { panic!("{a:?}") };
        assert_eq!((temp, vary), (Temperature::OFF, Vary::new(0.02, 8)));
        assert!(a.to_string().ends_with(",vary=0.02,temp_plies=8"), "{a}");
        assert_eq!(AgentSpec::parse(&a.to_string()).unwrap(), a);
        assert!(a.varies() && !a.deterministic());
        assert!(!a.without_temperature().varies() && a.without_temperature().deterministic());
        let AgentSpec::Mcts { vary, .. } = AgentSpec::parse("mcts:vary=0.1").unwrap() else { unreachable!() };
        assert_eq!(vary.plies, crate::temperature::DEFAULT_TEMP_PLIES);
        let hot = AgentSpec::parse("mcts:vary=0.02,temp=0.5").unwrap();
        let AgentSpec::Mcts { temp, vary, .. } = hot else { unreachable!() };
        assert_eq!((temp, vary), (Temperature::OFF, Vary::new(0.02, 16).with_temp(0.5)));
        assert_eq!(AgentSpec::parse(&hot.to_string()).unwrap(), hot);
        let zero = AgentSpec::parse("mcts:vary=0,temp_plies=8").unwrap();
        assert_eq!(zero, AgentSpec::parse("mcts").unwrap());
        assert!(!zero.varies());
        for (bad, says) in [
            ("mcts:vary=2", "`vary=2`: expected a value margin in 0..=1"),
            ("mcts:vary=x", "`vary=x`: expected a value margin in 0..=1"),
            ("ab:vary=0.1", "unknown parameter `vary`"),
        ] {
            let e = AgentSpec::parse(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    /// `threads=`, `parallel=` and `mb=` (Sénat's MCTS keys) are read into
    /// the search's configuration, written back only where not the
    /// default (so the names of agents without them are as before), and
    /// checked against the bounds every command shares.
    #[test]
    fn threads_parallel_and_memory_keys_read_like_senats() {
        assert_eq!(DEFAULT_MCTS_MB << 20, mcts::Config::default().memory);
        let a = AgentSpec::parse("mcts:playouts=20,threads=2,parallel=tree,mb=64").unwrap();
        let AgentSpec::Mcts { share, .. } = a else { panic!("{a:?}") };
        assert_eq!(share, Sharing { threads: 2, tree: true, memory_mb: 64 });
        assert_eq!(a.to_string(), "mcts:playouts=20,c=0.4,rollout=eval,cut=0,scale=100,threads=2,parallel=tree,mb=64");
        assert_eq!(AgentSpec::parse(&a.to_string()).unwrap(), a);
        let plain = AgentSpec::parse("mcts:playouts=20").unwrap();
        assert_eq!(AgentSpec::parse("mcts:playouts=20,threads=1,parallel=root,mb=256").unwrap(), plain);
        assert_eq!(plain.to_string(), "mcts:playouts=20,c=0.4,rollout=eval,cut=0,scale=100");
        for (bad, says) in [
            ("mcts:threads=0", "`threads=0`"),
            ("mcts:parallel=both", "`parallel=both`: expected root or tree"),
            ("mcts:mb=0", "`mb=0`"),
            ("ab:threads=2", "unknown parameter `threads`"),
        ] {
            let e = AgentSpec::parse(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn named_agents_typos_and_duplicates() {
        for n in named::GAMES {
            assert_eq!(AgentSpec::parse(n.name).unwrap(), AgentSpec::parse(n.spec).unwrap(), "{}", n.name);
        }
        let e = AgentSpec::parse("top:depth=4").unwrap_err().to_string();
        let stands = format!("`top` is a named agent and takes no parameters; it stands for `{}`", named::GAMES_TOP);
        assert!(e.contains(&stands), "{e}");
        let e = AgentSpec::parse("mcst").unwrap_err().to_string();
        assert!(e.starts_with("unknown agent `mcst`; did you mean `mcts`?"), "{e}");
        let e = AgentSpec::parse("mcts:playuts=10").unwrap_err().to_string();
        assert!(e.contains("unknown parameter `playuts`; did you mean `playouts`?"), "{e}");
        let e = AgentSpec::parse("mcts:playouts=1,c=1,playouts=2").unwrap_err().to_string();
        assert_eq!(e, "agent `mcts:playouts=1,c=1,playouts=2`: `playouts` is given twice");
    }

    #[test]
    fn key_lists_are_the_parser_keys() {
        for (base, keys) in [("ab", AB_KEYS), ("mcts", MCTS_KEYS)] {
            for key in keys {
                // Every listed key is read: its value is judged, never the key.
                let e = AgentSpec::parse(&format!("{base}:{key}=?")).unwrap_err();
                assert!(
                    matches!(
                        e.fault,
                        crate::spec::Fault::Param(
                            ParamError::Value { .. }
                                | ParamError::Limit(_)
                                | ParamError::Temp(_)
                                | ParamError::File { .. }
                        )
                    ),
                    "{key} is a key of {base}: {e}"
                );
            }
        }
    }

    /// `file=` reads a game's learned weights once, names them in the
    /// spec's text, refuses another game and the keys of the plain
    /// evaluation; the agent plays with them, with and without priors.
    #[test]
    fn a_weights_file_values_the_leaves_of_its_game_only() {
        use crate::games::focus::Focus;
        use crate::games::learn::GameWeights;
        let shape = Focus::NET.unwrap();
        let mut net = crate::net::Net::zeros(shape.inputs, 4);
        net.w1.iter_mut().enumerate().for_each(|(k, w)| *w = ((k * 31) % 7) as f32 / 14.0 - 0.2);
        net.w2 = vec![0.5, -0.5, 0.25, 0.1];
        let w = GameWeights { game: "focus".into(), linear: vec![1.0; 4], net, path: String::new(), hash: None };
        let path = std::env::temp_dir().join(format!("senat-agent-test-{}.txt", std::process::id()));
        std::fs::write(&path, w.to_text::<Focus>("a test")).unwrap();
        let p = path.display().to_string();
        let a = AgentSpec::parse(&format!("mcts:playouts=60,prior=500,file={p}")).unwrap();
        assert_eq!(a.to_string(), format!("mcts:playouts=60,c=0.4,prior=500,rollout=eval,file={p}"));
        assert_eq!(AgentSpec::parse(&a.to_string()).unwrap(), a);
        assert!(a.deterministic());
        assert!(a.fits::<Focus>().is_ok());
        let e = a.fits::<crate::games::debacle::Debacle>().unwrap_err().to_string();
        assert_eq!(e, "the file is for game=focus, not debacle");
        let e = a.fits::<Nim>().unwrap_err().to_string();
        assert!(e.contains("no learned evaluation"), "{e}");
        assert!(AgentSpec::Random.fits::<Nim>().is_ok());
        let e = AgentSpec::parse(&format!("mcts:file={p},cut=2")).unwrap_err().to_string();
        assert!(e.contains("not with rollout=random or cut"), "{e}");
        let sharp = AgentSpec::parse(&format!("mcts:file={p},scale=100")).unwrap();
        assert_eq!(sharp.to_string(), format!("mcts:playouts=1000,c=0.4,rollout=eval,file={p},scale=100"));
        assert_eq!(AgentSpec::parse(&sharp.to_string()).unwrap(), sharp);
        let e = AgentSpec::parse("mcts:file=/no/such/weights").unwrap_err().to_string();
        assert!(e.contains("weights file /no/such/weights: "), "{e}");
        let start = Focus::start("cap=60").unwrap();
        for spec in [a.to_string(), format!("mcts:playouts=60,file={p}"), "mcts:playouts=60,prior=100".into()] {
            let b = AgentSpec::parse(&spec).unwrap();
            let mut agents = [b.build::<Focus>(), AgentSpec::Random.build::<Focus>()];
            let played = play::<Focus>(start, &mut agents, &mut rng_from_seed(1), true);
            assert!(played.plies > 0 && played.plies <= 60, "{spec}");
            let again = play::<Focus>(start, &mut agents, &mut rng_from_seed(1), true);
            assert_eq!(again.moves, played.moves, "{spec}: a function of the seed");
        }
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn searching_agents_win_nim_from_a_won_position() {
        // Nim (take 1..3, last take wins): 10 is a win for the mover (take 2).
        for spec in [
            "ab:depth=6",
            "mcts:playouts=2000,rollout=random",
            "mcts:playouts=2000,rollout=random,threads=2",
            "mcts:playouts=2000,rollout=random,threads=2,parallel=tree,mb=16",
            "greedy",
        ] {
            let a = AgentSpec::parse(spec).unwrap();
            let mut agents = [a.build::<Nim>(), AgentSpec::Random.build::<Nim>()];
            let mut wins = 0;
            for g in 0..20 {
                let p = play::<Nim>(Nim::start_with(2, 10), &mut agents, &mut rng_from_seed(g), true);
                assert_eq!(p.plies as usize, p.moves.len());
                wins += (p.winner == Some(0)) as u32;
            }
            assert!(wins >= if spec == "greedy" { 10 } else { 20 }, "{spec}: {wins}/20");
        }
    }
}
