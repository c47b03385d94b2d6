//! The policy-spec language: how `--red`, `--blue`, `--draft-red`,
//! `--draft-blue` and the arena's agents name a policy (`random`, `greedy`,
//! `heuristic[:key=value,...]`, `heuristic:file=<path>`, `mcts[:...]`,
//! `ab[:...]`, and `DRAFT>PLAY`: one policy for the draft, another for the
//! play), parsed into a [`PolicySpec`] that builds fresh players.
//!
//! This is the only part of the policies that reads files (weights files,
//! through [`limits::read_text`]); it never decides a move ([`SplitPolicy`]
//! only hands each turn to the policy of its phase). Errors are
//! [`SpecError`]s whose text names the spec and lists what is accepted.

use super::basic::LearnedPolicy;
use super::{Agent, EngineParams, GameRng, GreedyPolicy, HeuristicPolicy, RandomPolicy, Senat, Turn};
use crate::eval::{WeightError, Weights};
use crate::games::senat::SenatRollout;
use crate::learned::{Learned, LearnedError, LearnedRef};
use crate::limits::{self, LimitError};
use crate::named;
use crate::spec::{Expected, Family, Kind, Param, ParamError, Reading};
use crate::temperature::{TempKeys, Vary};
use game_search::TableError;
use senat_rules::moves::Move;
use std::fmt;

/// The kind of a named policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyKind {
    /// [`RandomPolicy`].
    Random,
    /// [`GreedyPolicy`].
    Greedy,
    /// [`HeuristicPolicy`].
    Heuristic,
    /// [`super::MctsPolicy`].
    Mcts,
    /// [`super::AlphaBetaPolicy`].
    AlphaBeta,
    /// [`LearnedPolicy`].
    Learned,
    /// [`SplitPolicy`]: `DRAFT>PLAY`, one policy per phase ([`PolicySpec::split`]).
    Split,
}

/// A half of a `DRAFT>PLAY` spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// Before `>`: the draft policy.
    Draft,
    /// After `>`: the play policy.
    Play,
}

impl fmt::Display for Half {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Half::Draft => "draft policy (before `>`)",
            Half::Play => "play policy (after `>`)",
        })
    }
}

/// Sénat's policies as the lab's one spec grammar reads them
/// ([`crate::spec`]): their kinds with their keys and the named policies.
pub static POLICIES: Family = Family {
    noun: "policy",
    plural: "policies",
    kinds: &[
        Kind { name: "random", keys: &[] },
        Kind { name: "greedy", keys: &[] },
        Kind { name: "heuristic", keys: HEURISTIC_KEYS },
        Kind { name: "mcts", keys: MCTS_KEYS },
        Kind { name: "ab", keys: AB_KEYS },
        Kind { name: "learned", keys: LEARNED_KEYS },
    ],
    named: named::SENAT,
};

/// Why a policy spec was refused; the text names the spec as given.
#[derive(Clone, Debug, PartialEq)]
pub enum SpecError {
    /// Refused by the grammar every game shares, or one of its values
    /// refused ([`crate::spec`]).
    Grammar(crate::spec::SpecError),
    /// A weights file could not be read.
    WeightsFile {
        /// The whole spec.
        spec: String,
        /// Why.
        error: LimitError,
    },
    /// A line of a weights file was refused.
    WeightsLine {
        /// The whole spec.
        spec: String,
        /// The file as named in the spec.
        path: String,
        /// The 1-based line number.
        line: usize,
        /// Why.
        error: WeightError,
    },
    /// A learned weights file was refused (`learned:file=…`).
    LearnedFile {
        /// The whole spec.
        spec: String,
        /// The file as named in the spec.
        path: String,
        /// Why.
        error: LearnedError,
    },
    /// A weight given in the spec was refused.
    Weight {
        /// The whole spec.
        spec: String,
        /// Why.
        error: WeightError,
    },
    /// A half of `DRAFT>PLAY` is empty.
    SplitEmpty {
        /// The whole spec.
        spec: String,
        /// The empty half.
        half: Half,
    },
    /// More than one `>`.
    SplitMany(String),
    /// A half of `DRAFT>PLAY` was refused.
    SplitHalf {
        /// The whole spec.
        spec: String,
        /// Which half.
        half: Half,
        /// Why.
        error: Box<SpecError>,
    },
}

impl From<crate::spec::SpecError> for SpecError {
    fn from(e: crate::spec::SpecError) -> SpecError {
        SpecError::Grammar(e)
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Grammar(e) => e.fmt(f),
            SpecError::WeightsFile { spec, error } => write!(f, "policy `{spec}`: weights file: {error}"),
            SpecError::WeightsLine { spec, path, line, error } => write!(f, "policy `{spec}`: {path}:{line}: {error}"),
            SpecError::Weight { spec, error } => write!(f, "policy `{spec}`: {error}"),
            SpecError::LearnedFile { spec, path, error } => write!(f, "policy `{spec}`: {path}: {error}"),
            SpecError::SplitEmpty { spec, half } => write!(
                f,
                "policy `{spec}`: the {half} is empty; expected DRAFT>PLAY, two policies (e.g. heuristic>mcts:playouts=1000)"
            ),
            SpecError::SplitMany(spec) => write!(
                f,
                "policy `{spec}`: more than one `>`; expected DRAFT>PLAY, two policies (e.g. heuristic>mcts:playouts=1000)"
            ),
            SpecError::SplitHalf { spec, half, error } => write!(f, "policy `{spec}`: the {half}: {error}"),
        }
    }
}

impl std::error::Error for SpecError {}

/// The names of the policies (the kinds, then the named ones), for messages.
pub fn policy_names() -> Vec<&'static str> {
    POLICIES.names()
}

/// The keys of `mcts:…` (the grammar refuses any other; `EngineParams::set` reads them).
pub const MCTS_KEYS: &[&str] = &[
    "playouts",
    "c",
    "rollout",
    "prior",
    "parallel",
    "mb",
    "threads",
    "reuse",
    "movetime",
    "solve",
    "guard",
    "guard_nodes",
    "guard_deep",
    "guard_before",
    "temp",
    "temp_plies",
    "vary",
    "file",
    "net",
];
/// The keys of `ab:…` (the grammar refuses any other; `EngineParams::set` reads them).
pub const AB_KEYS: &[&str] = &[
    "depth",
    "tt",
    "eval",
    "movetime",
    "guard",
    "guard_nodes",
    "guard_deep",
    "guard_before",
    "temp",
    "temp_plies",
    "file",
    "net",
];
/// The keys of `heuristic:…`: the weights ([`Weights::NAMES`]) and a weights file.
pub const HEURISTIC_KEYS: &[&str] = &["pile", "win", "own_i", "opp_i", "square", "exposed", "full_i", "file"];
/// Refusal of a spec giving its weights twice.
const NET_AND_FILE: &str = "net=on|draft and file= both give the weights: keep one";

/// The keys of `learned:…`: a weights file or the shipped network, and the move temperature.
pub const LEARNED_KEYS: &[&str] = &["file", "net", "temp", "temp_plies"];

impl EngineParams {
    /// Sets one parameter of an engine spec (`kind` says which keys apply;
    /// the grammar has already refused keys the kind does not take).
    fn set(&mut self, kind: PolicyKind, p: Param<'_>) -> Result<(), ParamError> {
        let key = p.key;
        match (kind, key) {
            (PolicyKind::Mcts, "playouts") => self.playouts = Some(limits::playouts(key, p.whole(0)?)?),
            (PolicyKind::Mcts | PolicyKind::AlphaBeta, "movetime") => {
                self.movetime_ms =
                    Some(limits::movetime_ms(key, p.whole(0).map_err(|_| p.not(Expected::AtLeast("1".into())))?)?)
            }
            (PolicyKind::Mcts, "c") => self.c = limits::exploration_text(key, p.value)?,
            (PolicyKind::Mcts, "threads" | "parallel" | "mb") => {
                self.share.set(&p)?;
            }
            (PolicyKind::Mcts, "reuse") => {
                self.reuse =
                    p.choice(&[(&["1", "true", "yes"], true), (&["0", "false", "no"], false)], "true or false")?
            }
            (PolicyKind::Mcts, "rollout") => {
                self.rollout =
                    SenatRollout::from_name(p.value).ok_or_else(|| p.not(Expected::Words("random, greedy or eval")))?
            }
            (PolicyKind::Mcts, "prior") => self.prior = Some(limits::prior_text(key, p.value)?),
            (PolicyKind::Mcts, "solve") => self.solve = p.choice(&[(&["on"], true), (&["off"], false)], "on or off")?,
            (PolicyKind::Mcts | PolicyKind::AlphaBeta, "guard" | "guard_nodes" | "guard_deep" | "guard_before") => {
                p.whole(if matches!(key, "guard" | "guard_before") { 0 } else { 1 })?;
                self.guard.set(key, p.value)?;
            }
            (PolicyKind::AlphaBeta, "depth") => {
                let d = u32::try_from(p.whole(1)?).unwrap_or(u32::MAX);
                self.depth = Some(limits::depth(key, d, 1)?)
            }
            (PolicyKind::AlphaBeta, "tt") => self.tt_mb = limits::megabytes(key, whole_usize(p, 0)?, 0)?,
            (PolicyKind::AlphaBeta, "eval") => {
                self.learned_eval = p.choice(&[(&["learned"], true), (&["hand"], false)], "hand or learned")?
            }
            // A key the grammar let through for this kind but no arm reads:
            // said as such rather than ignored.
            _ => return Err(ParamError::Conflict("a parameter this policy does not read")),
        }
        Ok(())
    }
}

/// A whole number at least `min`, as a `usize` (saturating: the limits refuse it then).
fn whole_usize(p: Param<'_>, min: u64) -> Result<usize, ParamError> {
    Ok(usize::try_from(p.whole(min)?).unwrap_or(usize::MAX))
}

/// A policy as named on the command line: kind, parameters and its name.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicySpec {
    /// Which policy.
    pub kind: PolicyKind,
    /// Heuristic weights (ignored by the others).
    pub weights: Weights,
    /// Search parameters (used by `mcts` and `ab` only; `learned` reads its
    /// move temperature, [`EngineParams::temp`], from here too).
    pub engine: EngineParams,
    /// Learned weights from a file (`learned:file=…`); `None`: the shipped ones.
    pub learned: Option<Learned>,
    /// The name as given (`heuristic:pile=5`), written to output files;
    /// with a time per move added by [`PolicySpec::with_movetime`], the
    /// name shows it (`mcts:movetime=250`).
    pub name: String,
    /// The two halves of a `DRAFT>PLAY` spec (kind [`PolicyKind::Split`]),
    /// `None` for the others.
    pub split: Option<Box<SplitSpec>>,
}

/// The halves of a `DRAFT>PLAY` spec.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitSpec {
    /// The policy asked in the draft (gives and placements).
    pub draft: PolicySpec,
    /// The policy asked in the play phase.
    pub play: PolicySpec,
}

/// What `--red`, `--blue`, `--draft-red`, `--draft-blue` accept.
pub const POLICY_HELP: &str = "random | greedy | heuristic[:key=value,...] | heuristic:file=<path> \
(weights: pile, win, own_i, opp_i, square, exposed, full_i) | \
mcts[:playouts=1000,c=1.0,rollout=random|greedy|eval,prior=<temp>,parallel=root|tree,mb=64,threads=1,reuse=true,movetime=MS,solve=on|off,guard=0,guard_nodes=50000,guard_deep=8000000,guard_before=D,temp=T,temp_plies=K,vary=E,file=<path>,net=off] \
| ab[:depth=3,tt=4,eval=hand|learned,movetime=MS,guard=0,guard_nodes=50000,guard_deep=8000000,guard_before=D,temp=T,temp_plies=K,file=<path>,net=off] | learned[:file=<path>,net=off,temp=T,temp_plies=K] (movetime: milliseconds per move, searching until the time is up; \
file: learned weights, a network included, for mcts's rollout=eval and ab's eval=learned; \
net=on: the shipped learned weights with their value network (crates/lab/data/net-senat.txt) instead of a file; \
net=draft: those and a draft network (crates/lab/data/net-senat-draft.txt), which the draft's choices weigh too; \
playouts or depth are then caps only if given; solve: proved wins, losses and draws in the tree; \
guard=D: in the play phase, a forced win within D plies is played at once and a chosen move proved lost within D plies \
is replaced by the next not proved lost, each proof capped at guard_nodes nodes, with a deeper look for a win \
(guard_deep nodes) where the search's value for the mover is at least 0.9; guard_before=D: the horizon of the quick look for a win \
before the search (default: the guard's; 0: none, the deep look alone then looks for wins within the guard's horizon); \
temp: a move temperature over the first plies of the game, draft included: \
mcts draws ∝ visits^(1/T), ab and learned from a softmax of their scores / T \
(ab: evaluation units; learned: log-odds); temp alone: K=16, temp_plies alone: T=1; temp=0: off; \
vary=E (mcts, instead of a temperature): over the first temp_plies plies (16 by default) a move drawn among the root moves \
whose mean value is within E of the most visited move's (score units: a win 1, a draw 0.5; moves with at least a tenth of \
its visits), uniformly, or with temp=T ∝ visits^(1/T) among them, so that no move worse than E by the agent's own values is played; each draw's value loss is written to the games file; vary=0: off) | DRAFT>PLAY (two of these: the first drafts, \
the second plays, e.g. heuristic>mcts:playouts=1000)";

impl PolicySpec {
    /// Parses `random`, `greedy`, `heuristic`, `heuristic:k=v,...`,
    /// `heuristic:file=path`, `mcts[:k=v,...]`, `ab[:k=v,...]` and
    /// `DRAFT>PLAY` (two of the others).
    ///
    /// A named policy ([`named::SENAT`]: `top`, `strong`, `fast`) is read
    /// as its expansion, which becomes the spec's name.
    pub fn parse(text: &str) -> Result<PolicySpec, SpecError> {
        let text = text.trim();
        if text.contains('>') {
            return PolicySpec::parse_split(text);
        }
        let w = match POLICIES.read(text)? {
            Reading::Named(named) => return PolicySpec::parse(named.spec),
            Reading::Kind(w) => w,
        };
        let kind = match w.kind.name {
            "random" => PolicyKind::Random,
            "greedy" => PolicyKind::Greedy,
            "heuristic" => PolicyKind::Heuristic,
            "mcts" => PolicyKind::Mcts,
            "ab" => PolicyKind::AlphaBeta,
            _ => PolicyKind::Learned,
        };
        let spec = || text.to_string();
        let refuse = |error: ParamError| SpecError::Grammar(POLICIES.refuse(text, error));
        let mut weights = Weights::default();
        let mut engine = EngineParams::default();
        let mut learned = None;
        let (mut engine_file, mut said_hand) = (false, false);
        let (mut said_file, mut said_net) = (false, false);
        let mut temp = TempKeys::default();
        for p in w.params {
            if kind != PolicyKind::Heuristic && temp.set(p.key, p.value).map_err(|e| refuse(e.into()))? {
                continue;
            }
            said_file |= p.key == "file";
            if said_file && said_net {
                return Err(refuse(ParamError::Conflict(NET_AND_FILE)));
            }
            match (kind, p.key) {
                // The shipped weights with their value network, where `file=`
                // would name a file.
                (PolicyKind::Learned | PolicyKind::Mcts | PolicyKind::AlphaBeta, "net") => {
                    let shipped = p
                        .choice(
                            &[
                                (&["on"], Some(LearnedRef::shipped_net())),
                                (&["draft"], Some(LearnedRef::shipped_draft())),
                                (&["off"], None),
                            ],
                            "on, draft or off",
                        )
                        .map_err(refuse)?;
                    said_net = shipped.is_some();
                    if said_net && said_file {
                        return Err(refuse(ParamError::Conflict(NET_AND_FILE)));
                    }
                    if let Some(w) = shipped {
                        match kind {
                            PolicyKind::Learned => learned = Some(w.get().clone()),
                            _ => {
                                engine.learned = w;
                                engine_file = true;
                            }
                        }
                    }
                }
                // `file` is the only other key of `learned`; in `mcts` and
                // `ab` it names the weights of the learned evaluation.
                (PolicyKind::Learned, _) | (PolicyKind::Mcts | PolicyKind::AlphaBeta, "file") => {
                    let body = limits::read_text(std::path::Path::new(p.value))
                        .map_err(|error| SpecError::WeightsFile { spec: spec(), error })?;
                    let w = Learned::parse(&body).map_err(|error| SpecError::LearnedFile {
                        spec: spec(),
                        path: p.value.to_string(),
                        error,
                    })?;
                    match kind {
                        PolicyKind::Learned => learned = Some(w),
                        _ => {
                            engine.learned = LearnedRef::intern(w);
                            engine_file = true;
                        }
                    }
                }
                (PolicyKind::Heuristic, "file") => {
                    let body = limits::read_text(std::path::Path::new(p.value))
                        .map_err(|error| SpecError::WeightsFile { spec: spec(), error })?;
                    for (n, line) in body.lines().enumerate() {
                        let line = line.split('#').next().unwrap_or("").trim();
                        if !line.is_empty() {
                            weights.set(line).map_err(|error| SpecError::WeightsLine {
                                spec: spec(),
                                path: p.value.to_string(),
                                line: n + 1,
                                error,
                            })?;
                        }
                    }
                }
                (PolicyKind::Heuristic, _) => weights
                    .set(&format!("{}={}", p.key, p.value))
                    .map_err(|error| SpecError::Weight { spec: spec(), error })?,
                _ => {
                    said_hand |= kind == PolicyKind::AlphaBeta && p.key == "eval" && p.value == "hand";
                    engine.set(kind, p).map_err(refuse)?
                }
            }
        }
        // `vary=` takes the temperature's plies (`temp_plies=`) and replaces its draws.
        (engine.temp, engine.vary) = temp.variety();
        // In `ab`, weights mean the learned evaluation.
        engine.learned_eval |= engine_file && kind == PolicyKind::AlphaBeta && !said_hand;
        if engine_file && kind == PolicyKind::Mcts && !matches!(engine.rollout, SenatRollout::Eval(_)) {
            return Err(refuse(ParamError::Conflict(
                "file= and net=on need rollout=eval (the learned evaluation they weigh)",
            )));
        }
        if engine_file && kind == PolicyKind::AlphaBeta && !engine.learned_eval {
            return Err(refuse(ParamError::Conflict(
                "file= and net=on need eval=learned (the learned evaluation they weigh)",
            )));
        }
        Ok(PolicySpec { kind, weights, engine, learned, name: text.to_string(), split: None })
    }

    /// `DRAFT>PLAY` (`text` trimmed, holding at least one `>`).
    fn parse_split(text: &str) -> Result<PolicySpec, SpecError> {
        let spec = || text.to_string();
        let mut parts = text.split('>');
        let (draft, play) = match (parts.next(), parts.next(), parts.next()) {
            (Some(d), Some(p), None) => (d.trim(), p.trim()),
            _ => return Err(SpecError::SplitMany(spec())),
        };
        for (part, half) in [(draft, Half::Draft), (play, Half::Play)] {
            if part.is_empty() {
                return Err(SpecError::SplitEmpty { spec: spec(), half });
            }
        }
        let half = |part: &str, half: Half| {
            PolicySpec::parse(part).map_err(|e| SpecError::SplitHalf { spec: spec(), half, error: Box::new(e) })
        };
        let (draft, play) = (half(draft, Half::Draft)?, half(play, Half::Play)?);
        Ok(PolicySpec {
            kind: PolicyKind::Split,
            weights: Weights::default(),
            engine: EngineParams::default(),
            learned: None,
            name: text.to_string(),
            split: Some(Box::new(SplitSpec { draft, play })),
        })
    }

    /// Whether the policy chooses its moves without drawing randomness, in
    /// effect: alpha-beta and MCTS with `rollout=eval` without a move
    /// temperature (MCTS's seed then breaks no tie that matters), in both
    /// halves of a split. Such policies play one game from one start.
    pub fn deterministic(&self) -> bool {
        match (&self.split, self.kind) {
            (Some(s), _) => s.draft.deterministic() && s.play.deterministic(),
            (None, PolicyKind::AlphaBeta) => self.engine.temp.is_off(),
            (None, PolicyKind::Mcts) => {
                self.engine.temp.is_off()
                    && self.engine.vary.is_off()
                    && matches!(self.engine.rollout, SenatRollout::Eval(_))
            }
            _ => false,
        }
    }

    /// Whether the policy draws value-bounded choices (`vary=`, in either
    /// half of a split) and so reports each choice's value loss
    /// ([`Agent::sampled_loss`]): a batch with such a policy writes the
    /// loss columns of its games file.
    pub fn varies(&self) -> bool {
        match &self.split {
            Some(s) => s.draft.varies() || s.play.varies(),
            None => !self.engine.vary.is_off(),
        }
    }

    /// Whether the policy searches (MCTS or alpha-beta, in either half of
    /// a split): the policies a time per move applies to.
    pub fn searches(&self) -> bool {
        match (&self.split, self.kind) {
            (Some(s), _) => s.draft.searches() || s.play.searches(),
            (None, kind) => matches!(kind, PolicyKind::Mcts | PolicyKind::AlphaBeta),
        }
    }

    /// This policy with `ms` milliseconds per move where it searches and no
    /// `movetime=` is given (`--time-per-move`); others are returned as
    /// they are. The name shows the time added (`mcts` becomes
    /// `mcts:movetime=250`, `ab:depth=9` becomes `ab:depth=9,movetime=250`,
    /// `heuristic>mcts` becomes `heuristic>mcts:movetime=250`), so that it
    /// reads back as the same policy and batches of different times never
    /// share a name. `ms` is checked by [`limits::movetime_ms`] first.
    pub fn with_movetime(&self, ms: u64) -> PolicySpec {
        if let Some(s) = &self.split {
            let (draft, play) = (s.draft.with_movetime(ms), s.play.with_movetime(ms));
            if draft == s.draft && play == s.play {
                return self.clone();
            }
            return PolicySpec {
                name: format!("{}>{}", draft.name, play.name),
                split: Some(Box::new(SplitSpec { draft, play })),
                ..self.clone()
            };
        }
        if !matches!(self.kind, PolicyKind::Mcts | PolicyKind::AlphaBeta) || self.engine.movetime_ms.is_some() {
            return self.clone();
        }
        let mut out = self.clone();
        out.engine.movetime_ms = Some(ms);
        let sep = if self.name.contains(':') { ',' } else { ':' };
        out.name = format!("{}{sep}movetime={ms}", self.name);
        out
    }

    /// This policy without its move temperature (in both halves of a
    /// split): every choice is the agent's best, for analysis.
    pub fn without_temperature(&self) -> PolicySpec {
        let mut out = self.clone();
        out.engine.temp = crate::temperature::Temperature::OFF;
        out.engine.vary = Vary::OFF;
        if let Some(s) = &self.split {
            out.split =
                Some(Box::new(SplitSpec { draft: s.draft.without_temperature(), play: s.play.without_temperature() }));
        }
        out
    }

    /// A fresh player for one game (or one worker). Panics where the
    /// system refuses the memory of its table; [`PolicySpec::try_build`]
    /// says so instead.
    pub fn build(&self) -> Box<dyn Agent<Senat>> {
        self.try_build().unwrap_or_else(|e| panic!("policy `{}`: {e}", self.name))
    }

    /// A fresh player, as [`PolicySpec::build`] makes it, or the
    /// [`TableError`] of the memory of its table refused by the system.
    pub fn try_build(&self) -> Result<Box<dyn Agent<Senat>>, TableError> {
        if let Some(s) = &self.split {
            return Ok(Box::new(SplitPolicy {
                draft: s.draft.try_build()?,
                play: s.play.try_build()?,
                last_play: false,
            }));
        }
        Ok(match self.kind {
            PolicyKind::Random => Box::new(RandomPolicy::default()),
            PolicyKind::Greedy => Box::new(GreedyPolicy::default()),
            PolicyKind::Heuristic => Box::new(HeuristicPolicy { weights: self.weights.clone() }),
            PolicyKind::Mcts => Box::new(super::engine::mcts_policy(self.engine)),
            PolicyKind::AlphaBeta => Box::new(super::engine::alphabeta_policy(self.engine)?),
            PolicyKind::Learned => Box::new(LearnedPolicy {
                eval: self.learned.clone().unwrap_or_else(|| Learned::builtin().clone()),
                temp: self.engine.temp,
            }),
            // A split spec always has its halves (`parse_split` is the only
            // maker of this kind); without them, play at random rather than fail.
            PolicyKind::Split => Box::new(RandomPolicy::default()),
        })
    }
}

/// `DRAFT>PLAY`: one policy answers the draft's turns (gives and
/// placements), another the play's, by the phase of the position
/// ([`senat_rules::position::Position::is_play`]); a new game is announced
/// to both.
pub struct SplitPolicy {
    /// Asked in the draft.
    pub draft: Box<dyn Agent<Senat>>,
    /// Asked in the play phase.
    pub play: Box<dyn Agent<Senat>>,
    /// Whether the last turn was the play policy's.
    pub last_play: bool,
}

impl Agent<Senat> for SplitPolicy {
    fn choose(&mut self, turn: &Turn, rng: &mut GameRng) -> Move {
        self.last_play = turn.position().is_play();
        if self.last_play { self.play.choose(turn, rng) } else { self.draft.choose(turn, rng) }
    }

    fn new_game(&mut self) {
        self.draft.new_game();
        self.play.new_game();
    }

    /// The play policy's account if it has one, else the draft policy's.
    fn explain(&self) -> Option<String> {
        self.play.explain().or_else(|| self.draft.explain())
    }

    /// The assessment of the half that chose last.
    fn assess(&self) -> Option<(crate::winprob::WinChance, Vec<Move>)> {
        if self.last_play { self.play.assess() } else { self.draft.assess() }
    }

    /// The candidates of the half that chose last.
    fn sampled_loss(&self) -> Option<f64> {
        if self.last_play { self.play.sampled_loss() } else { self.draft.sampled_loss() }
    }

    fn candidates(&self) -> Vec<(Move, u64, f64)> {
        if self.last_play { self.play.candidates() } else { self.draft.candidates() }
    }
}

impl fmt::Display for PolicySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl std::str::FromStr for PolicySpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<PolicySpec, SpecError> {
        PolicySpec::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::temperature::DEFAULT_TEMP_PLIES;

    /// The keys in `name[:k=v,...]` of [`POLICY_HELP`].
    fn help_keys(name: &str) -> Vec<String> {
        let start = POLICY_HELP.find(&format!("{name}[:")).expect("the engine is in the help") + name.len() + 2;
        let body = &POLICY_HELP[start..start + POLICY_HELP[start..].find(']').expect("a closing bracket")];
        body.split(',').map(|kv| kv.split('=').next().unwrap_or("").to_string()).collect()
    }

    #[test]
    fn mcts_and_ab_read_learned_weights_with_a_network_from_a_file() {
        use crate::games::senat::{SenatRollout, SenatState};
        use game_search::Evaluator;
        let dir = std::env::temp_dir().join(format!("senat-spec-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net.txt");
        let mut w = Learned::builtin().clone();
        let mut net = crate::net::Net::zeros(crate::net::INPUTS, 2);
        net.b2 = 0.5;
        w.net = Some(std::sync::Arc::new(net));
        std::fs::write(&path, w.to_text("# a network that adds 0.5 for the mover")).unwrap();
        let path_text = path.display().to_string();
        let ab = PolicySpec::parse(&format!("ab:depth=2,file={path_text}")).unwrap();
        let again = PolicySpec::parse(&format!("ab:file={path_text},eval=learned")).unwrap();
        let mcts = PolicySpec::parse(&format!("mcts:rollout=eval,file={path_text}")).unwrap();
        let no_eval = PolicySpec::parse(&format!("mcts:file={path_text}"));
        let hand = PolicySpec::parse(&format!("ab:eval=hand,file={path_text}"));
        let files = crate::selfplay::identity::weight_files(&ab);
        std::fs::remove_dir_all(&dir).ok();
        assert!(ab.engine.learned_eval, "weights mean the learned evaluation");
        assert!(!ab.engine.learned.is_builtin());
        assert_eq!(ab.engine.learned, again.engine.learned, "one file read twice is one set of weights");
        assert_eq!(mcts.engine.rollout(), SenatRollout::Eval(ab.engine.learned));
        let e = no_eval.unwrap_err().to_string();
        assert!(e.contains("rollout=eval"), "{e}");
        let e = hand.unwrap_err().to_string();
        assert!(e.contains("eval=learned"), "{e}");
        assert_eq!(files, vec![path]);
        let state = SenatState::new(senat_rules::sample::START.parse().unwrap());
        let builtin = PolicySpec::parse("ab:eval=learned").unwrap().engine.leaf_eval().eval(&state);
        assert_eq!(ab.engine.leaf_eval().eval(&state), builtin + 500, "the network's 0.5 log-odds, in thousandths");
    }

    /// `net=on` gives the shipped weights with their network to each
    /// learned-evaluation user; `net=off` is the shipped logistic model; with
    /// `file=`, or where no learned evaluation is used, it is refused.
    #[test]
    fn net_on_gives_the_shipped_network() {
        let shipped = LearnedRef::shipped_net();
        let mcts = PolicySpec::parse("mcts:rollout=eval,net=on").unwrap();
        assert_eq!(mcts.engine.rollout(), SenatRollout::Eval(shipped));
        let ab = PolicySpec::parse("ab:depth=2,net=on").unwrap();
        assert!(ab.engine.learned_eval && ab.engine.learned == shipped, "net=on means the learned evaluation");
        assert_eq!(PolicySpec::parse("learned:net=on").unwrap().learned.as_ref(), Some(shipped.get()));
        assert!(PolicySpec::parse("mcts:rollout=eval,net=off").unwrap().engine.learned.is_builtin());
        assert_eq!(PolicySpec::parse("learned:net=off").unwrap().learned, None);
        let draft = LearnedRef::shipped_draft();
        assert_eq!(PolicySpec::parse("learned:net=draft").unwrap().learned.as_ref(), Some(draft.get()));
        assert_eq!(PolicySpec::parse("ab:depth=2,net=draft").unwrap().engine.learned, draft);
        assert_ne!(draft, shipped);
        for (bad, said) in [
            ("mcts:net=on", "rollout=eval"),
            ("ab:eval=hand,net=on", "eval=learned"),
            ("learned:net=on,file=w.txt", "keep one"),
            ("learned:net=draft,file=w.txt", "keep one"),
            ("learned:net=yes", "on, draft or off"),
        ] {
            let e = PolicySpec::parse(bad).unwrap_err().to_string();
            assert!(e.contains(said), "{bad}: {e}");
        }
    }

    #[test]
    fn key_lists_match_the_help_and_the_parser() {
        assert_eq!(help_keys("mcts"), MCTS_KEYS);
        assert_eq!(help_keys("ab"), AB_KEYS);
        for (kind, keys) in [(PolicyKind::Mcts, MCTS_KEYS), (PolicyKind::AlphaBeta, AB_KEYS)] {
            for &key in keys {
                // The temperature's keys are read before the engine's (by `TempKeys`).
                // `file` and `net` are read by the spec's parser (they give weights).
                if TempKeys::default().set(key, "1") == Ok(true) || key == "file" || key == "net" {
                    continue;
                }
                let e = EngineParams::default().set(kind, Param { key, value: "?" });
                assert!(
                    matches!(e, Err(ParamError::Value { .. } | ParamError::Limit(_))),
                    "{key} is read by {kind:?}: {e:?}"
                );
            }
        }
        for (name, keys) in [("heuristic", HEURISTIC_KEYS), ("learned", LEARNED_KEYS)] {
            assert_eq!(POLICIES.kind(name).map(|k| k.keys), Some(keys));
        }
        assert_eq!(&HEURISTIC_KEYS[..7], Weights::NAMES, "every weight is a key of heuristic");
    }

    #[test]
    fn vary_takes_temp_plies_and_temp_and_refuses_other_kinds() {
        let p = PolicySpec::parse("mcts:playouts=5,vary=0.02,temp_plies=8").unwrap();
        assert_eq!(p.engine.vary, Vary::new(0.02, 8));
        assert!(p.engine.temp.is_off(), "temp_plies is vary's here, not a temperature");
        assert!(p.varies() && !p.deterministic());
        assert_eq!(PolicySpec::parse("mcts:vary=0.01").unwrap().engine.vary.plies, DEFAULT_TEMP_PLIES);
        let zero = PolicySpec::parse("mcts:playouts=5,rollout=eval,vary=0,temp_plies=8").unwrap();
        assert!(zero.engine.vary.is_off() && zero.engine.temp.is_off() && !zero.varies() && zero.deterministic());
        assert!(PolicySpec::parse("random>mcts:vary=0.1").unwrap().varies());
        assert!(!PolicySpec::parse("mcts:vary=0.1").unwrap().without_temperature().varies());
        // temp= with vary= is the draw within the band, ∝ visits^(1/T): no temperature of its own.
        let hot = PolicySpec::parse("mcts:playouts=5,vary=0.02,temp=0.5").unwrap();
        assert_eq!(hot.engine.vary, Vary::new(0.02, DEFAULT_TEMP_PLIES).with_temp(0.5));
        assert!(hot.engine.temp.is_off() && hot.varies());
        assert_eq!(PolicySpec::parse(&hot.to_string()).unwrap().engine.vary, hot.engine.vary);
        let off = PolicySpec::parse("mcts:playouts=5,rollout=eval,vary=0,temp=0.5").unwrap();
        assert!(off.engine.vary.is_off() && off.engine.temp.is_off(), "vary=0 takes its temp= with it");
        for (bad, said) in [
            ("mcts:vary=2", "expected a value margin in 0..=1"),
            ("mcts:vary=-0.1", "vary"),
            ("mcts:vary=x", "vary"),
            ("ab:vary=0.1", "vary"),
            ("learned:vary=0.1", "vary"),
        ] {
            let e = PolicySpec::parse(bad).unwrap_err().to_string();
            assert!(e.contains(said), "{bad}: {e}");
        }
    }

    #[test]
    fn named_policies_expand() {
        for n in named::SENAT {
            let p = PolicySpec::parse(n.name).unwrap();
            assert_eq!(p, PolicySpec::parse(n.spec).unwrap(), "{}", n.name);
            assert_eq!(p.name, n.spec, "the recorded name is the expansion");
        }
        let split = PolicySpec::parse("fast>top").unwrap();
        assert_eq!(split.split.unwrap().play.name, named::SENAT_TOP);
        let e = PolicySpec::parse("top:playouts=5").unwrap_err().to_string();
        assert!(e.contains("`top` is a named policy and takes no parameters"), "{e}");
    }

    #[test]
    fn typos_get_suggestions_and_duplicates_are_refused() {
        let e = PolicySpec::parse("mcst").unwrap_err().to_string();
        assert!(e.starts_with("unknown policy `mcst`; did you mean `mcts`? (policies: random, greedy,"), "{e}");
        assert!(e.ends_with("top, sharp, strong, fast; see --help)"), "{e}");
        let e = PolicySpec::parse("stong").unwrap_err().to_string();
        assert!(e.contains("did you mean `strong`?"), "{e}");
        let e = PolicySpec::parse("minimax").unwrap_err().to_string();
        assert!(!e.contains("did you mean"), "{e}");
        let e = PolicySpec::parse("mcts:playuts=10").unwrap_err().to_string();
        assert!(e.contains("unknown parameter `playuts`; did you mean `playouts`?"), "{e}");
        let e = PolicySpec::parse("ab:dpeth=2").unwrap_err().to_string();
        assert!(e.contains("did you mean `depth`?"), "{e}");
        for (spec, key) in [
            ("mcts:playouts=1,playouts=2", "playouts"),
            ("heuristic:pile=1,pile=2", "pile"),
            ("ab:tt=1,depth=2,tt=3", "tt"),
        ] {
            let e = PolicySpec::parse(spec).unwrap_err().to_string();
            assert_eq!(e, format!("policy `{spec}`: `{key}` is given twice"));
        }
    }
}
