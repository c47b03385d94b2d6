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
use super::{
    Agent, AlphaBetaPolicy, EngineParams, GameRng, GreedyPolicy, HeuristicPolicy, MctsPolicy, RandomPolicy, Senat, Turn,
};
use crate::adapter::SenatRollout;
use crate::eval::{WeightError, Weights};
use crate::learned::{Learned, LearnedError};
use crate::limits::{self, LimitError};
use crate::named::{self, Named};
use crate::suggest::{did_you_mean, duplicate_key};
use crate::temperature::{TempError, TempKeys};
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
    /// [`MctsPolicy`].
    Mcts,
    /// [`AlphaBetaPolicy`].
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

/// Why one `key=value` of an engine spec (`mcts:…`, `ab:…`) was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamError {
    /// The item has no `=`.
    NotKeyValue(String),
    /// The value is not a number at least `min`.
    NotNumber {
        /// The parameter.
        key: String,
        /// The value as given.
        value: String,
        /// The smallest value accepted, as written in the message.
        min: String,
    },
    /// The value is not a finite number.
    NotFinite {
        /// The parameter.
        key: String,
        /// The value as given.
        value: String,
    },
    /// The value is not a boolean.
    NotBool {
        /// The parameter.
        key: String,
        /// The value as given.
        value: String,
    },
    /// The value names no rollout.
    NotRollout {
        /// The parameter.
        key: String,
        /// The value as given.
        value: String,
    },
    /// The value names no parallel mode.
    NotParallel {
        /// The parameter.
        key: String,
        /// The value as given.
        value: String,
    },
    /// The value names no evaluation (`hand`, `learned`).
    NotEval {
        /// The parameter.
        key: String,
        /// The value as given.
        value: String,
    },
    /// The value is neither `on` nor `off`.
    NotOnOff {
        /// The parameter.
        key: String,
        /// The value as given.
        value: String,
    },
    /// The value is out of the accepted range.
    Limit(LimitError),
    /// A move temperature key (`temp=`, `temp_plies=`) was refused.
    Temp(TempError),
    /// No parameter of this engine has this name.
    Unknown(String),
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::NotKeyValue(item) => write!(f, "`{item}`: expected key=value"),
            ParamError::NotNumber { key, value, min } => write!(f, "`{key}={value}`: expected a number ≥ {min}"),
            ParamError::NotFinite { key, value } => write!(f, "`{key}={value}`: expected a finite number"),
            ParamError::NotBool { key, value } => write!(f, "`{key}={value}`: expected true or false"),
            ParamError::NotRollout { key, value } => write!(f, "`{key}={value}`: expected random, greedy or eval"),
            ParamError::NotParallel { key, value } => write!(f, "`{key}={value}`: expected root or tree"),
            ParamError::NotOnOff { key, value } => write!(f, "`{key}={value}`: expected on or off"),
            ParamError::NotEval { key, value } => write!(f, "`{key}={value}`: expected hand or learned"),
            ParamError::Limit(e) => e.fmt(f),
            ParamError::Temp(e) => e.fmt(f),
            ParamError::Unknown(key) => write!(f, "unknown parameter `{key}`"),
        }
    }
}

impl std::error::Error for ParamError {}

impl From<LimitError> for ParamError {
    fn from(e: LimitError) -> ParamError {
        ParamError::Limit(e)
    }
}

/// Why a policy spec was refused; the text names the spec as given.
#[derive(Clone, Debug, PartialEq)]
pub enum SpecError {
    /// No policy has this name.
    UnknownPolicy(String),
    /// A named policy (`top`, …) was given parameters.
    NamedParams {
        /// The whole spec.
        spec: String,
        /// The named policy.
        named: &'static Named,
    },
    /// An engine spec names a key that its engine does not have.
    UnknownKey {
        /// The whole spec.
        spec: String,
        /// The key as given.
        key: String,
        /// The engine's keys.
        keys: &'static [&'static str],
    },
    /// A key given twice in a spec's parameters.
    DuplicateKey {
        /// The whole spec.
        spec: String,
        /// The key.
        key: String,
    },
    /// `name:` with nothing after the colon (the whole spec).
    EmptyParams(String),
    /// A policy without parameters was given some.
    NoParams {
        /// The policy's name.
        name: String,
        /// The whole spec.
        spec: String,
    },
    /// An engine parameter was refused.
    Engine {
        /// The whole spec.
        spec: String,
        /// Why.
        error: ParamError,
    },
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

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::UnknownPolicy(name) => {
                let names = policy_names();
                let hint = did_you_mean(name, &names);
                write!(f, "unknown policy `{name}`{hint} (policies: {}; see --help)", names.join(", "))
            }
            SpecError::NamedParams { spec, named } => write!(
                f,
                "policy `{spec}`: `{}` is a named policy and takes no parameters; it stands for `{}`: write that with yours",
                named.name, named.spec
            ),
            SpecError::UnknownKey { spec, key, keys } => {
                let hint = did_you_mean(key, keys);
                write!(f, "policy `{spec}`: unknown parameter `{key}`{hint} (keys: {}; see --help)", keys.join(", "))
            }
            SpecError::DuplicateKey { spec, key } => write!(f, "policy `{spec}`: `{key}` is given twice"),
            SpecError::EmptyParams(spec) => {
                write!(f, "policy `{spec}`: empty parameter list; accepted: {POLICY_HELP}")
            }
            SpecError::NoParams { name, spec } => {
                write!(f, "policy `{name}` takes no parameters (`{spec}`); accepted: {POLICY_HELP}")
            }
            SpecError::Engine { spec, error } => write!(f, "policy `{spec}`: {error}; accepted: {POLICY_HELP}"),
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
    let mut v = vec!["random", "greedy", "heuristic", "mcts", "ab", "learned"];
    v.extend(named::names(named::SENAT));
    v
}

/// The keys of `mcts:…` (for suggestions; keep in step with [`EngineParams::set`]).
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
    "temp",
    "temp_plies",
];
/// The keys of `ab:…` (for suggestions; keep in step with [`EngineParams::set`]).
pub const AB_KEYS: &[&str] = &["depth", "tt", "eval", "movetime", "temp", "temp_plies"];

impl EngineParams {
    /// Sets one `key=value` of an engine spec (`kind` says which keys apply).
    fn set(&mut self, kind: PolicyKind, item: &str) -> Result<(), ParamError> {
        let (key, value) = item.split_once('=').ok_or_else(|| ParamError::NotKeyValue(item.to_string()))?;
        let (key, value) = (key.trim(), value.trim());
        fn num<T>(key: &str, value: &str, lo: T) -> Result<T, ParamError>
        where
            T: std::str::FromStr + PartialOrd + fmt::Display,
        {
            match value.parse::<T>() {
                Ok(v) if v >= lo => Ok(v),
                _ => Err(ParamError::NotNumber { key: key.to_string(), value: value.to_string(), min: lo.to_string() }),
            }
        }
        let owned = || (key.to_string(), value.to_string());
        match (kind, key) {
            (PolicyKind::Mcts, "playouts") => self.playouts = Some(limits::playouts(key, num(key, value, 1)?)?),
            (PolicyKind::Mcts | PolicyKind::AlphaBeta, "movetime") => {
                let ms = value.parse::<u64>().map_err(|_| {
                    let (key, value) = owned();
                    ParamError::NotNumber { key, value, min: "1".into() }
                })?;
                self.movetime_ms = Some(limits::movetime_ms(key, ms)?)
            }
            (PolicyKind::Mcts, "c") => {
                self.c = num(key, value, 0.0)?;
                if !self.c.is_finite() {
                    let (key, value) = owned();
                    return Err(ParamError::NotFinite { key, value });
                }
            }
            (PolicyKind::Mcts, "mb") => self.memory_mb = limits::megabytes(key, num(key, value, 1)?, 1)?,
            (PolicyKind::Mcts, "threads") => self.threads = limits::threads(key, num(key, value, 1)?)?,
            (PolicyKind::Mcts, "reuse") => {
                self.reuse = match value {
                    "1" | "true" | "yes" => true,
                    "0" | "false" | "no" => false,
                    _ => {
                        let (key, value) = owned();
                        return Err(ParamError::NotBool { key, value });
                    }
                }
            }
            (PolicyKind::Mcts, "rollout") => {
                self.rollout = match SenatRollout::from_name(value) {
                    Some(r) => r,
                    None => {
                        let (key, value) = owned();
                        return Err(ParamError::NotRollout { key, value });
                    }
                }
            }
            (PolicyKind::Mcts, "prior") => {
                let t: f64 = num(key, value, 0.0)?;
                if !t.is_finite() || t <= 0.0 {
                    let (key, value) = owned();
                    return Err(ParamError::NotFinite { key, value });
                }
                self.prior = Some(t);
            }
            (PolicyKind::Mcts, "parallel") => {
                self.tree = match value {
                    "tree" => true,
                    "root" => false,
                    _ => {
                        let (key, value) = owned();
                        return Err(ParamError::NotParallel { key, value });
                    }
                }
            }
            (PolicyKind::Mcts, "solve") => {
                self.solve = match value {
                    "on" => true,
                    "off" => false,
                    _ => {
                        let (key, value) = owned();
                        return Err(ParamError::NotOnOff { key, value });
                    }
                }
            }
            (PolicyKind::Mcts, "guard" | "guard_nodes" | "guard_deep") => {
                num::<u64>(key, value, if key == "guard" { 0 } else { 1 })?;
                self.guard.set(key, value)?;
            }
            (PolicyKind::AlphaBeta, "depth") => self.depth = Some(limits::depth(key, num(key, value, 1)?, 1)?),
            (PolicyKind::AlphaBeta, "tt") => self.tt_mb = limits::megabytes(key, num(key, value, 0)?, 0)?,
            (PolicyKind::AlphaBeta, "eval") => {
                self.learned_eval = match value {
                    "learned" => true,
                    "hand" => false,
                    _ => {
                        let (key, value) = owned();
                        return Err(ParamError::NotEval { key, value });
                    }
                }
            }
            _ => return Err(ParamError::Unknown(key.to_string())),
        }
        Ok(())
    }
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
mcts[:playouts=1000,c=1.0,rollout=random|greedy|eval,prior=<temp>,parallel=root|tree,mb=64,threads=1,reuse=true,movetime=MS,solve=on|off,guard=0,guard_nodes=50000,guard_deep=8000000,temp=T,temp_plies=K] \
| ab[:depth=3,tt=4,eval=hand|learned,movetime=MS,temp=T,temp_plies=K] | learned[:file=<path>,temp=T,temp_plies=K] (movetime: milliseconds per move, searching until the time is up; \
playouts or depth are then caps only if given; solve: proved wins, losses and draws in the tree; \
guard=D: in the play phase, a forced win within D plies is played at once and a chosen move proved lost within D plies \
is replaced by the next not proved lost, each proof capped at guard_nodes nodes, with a deeper look for a win \
(guard_deep nodes) where the search's value for the mover is at least 0.9; \
temp: a move temperature over the first plies of the game, draft included: \
mcts draws ∝ visits^(1/T), ab and learned from a softmax of their scores / T \
(ab: evaluation units; learned: log-odds); temp alone: K=16, temp_plies alone: T=1; temp=0: off) | DRAFT>PLAY (two of these: the first drafts, \
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
        let (name, params) = match text.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (text, None),
        };
        if let Some(named) = named::lookup(named::SENAT, name) {
            if params.is_some() {
                return Err(SpecError::NamedParams { spec: text.to_string(), named });
            }
            return PolicySpec::parse(named.spec);
        }
        let kind = match name {
            "random" => PolicyKind::Random,
            "greedy" => PolicyKind::Greedy,
            "heuristic" => PolicyKind::Heuristic,
            "mcts" => PolicyKind::Mcts,
            "ab" => PolicyKind::AlphaBeta,
            "learned" => PolicyKind::Learned,
            _ => return Err(SpecError::UnknownPolicy(name.to_string())),
        };
        let spec = || text.to_string();
        let mut weights = Weights::default();
        let mut engine = EngineParams::default();
        let mut learned = None;
        if let Some(key) = params.and_then(|p| duplicate_key(p.split(','))) {
            return Err(SpecError::DuplicateKey { spec: spec(), key: key.to_string() });
        }
        let mut temp = TempKeys::default();
        // A temperature key of `item`, if it is one (`Ok(true)`: taken).
        let mut temp_key = |item: &str| -> Result<bool, SpecError> {
            let Some((k, v)) = item.split_once('=') else { return Ok(false) };
            temp.set(k.trim(), v.trim()).map_err(|e| SpecError::Engine { spec: spec(), error: ParamError::Temp(e) })
        };
        if let (Some(params), PolicyKind::Learned) = (params, kind) {
            for item in params.split(',') {
                if temp_key(item)? {
                    continue;
                }
                let Some(path) = item.trim().strip_prefix("file=") else {
                    return Err(SpecError::NoParams { name: name.to_string(), spec: spec() });
                };
                let body = limits::read_text(std::path::Path::new(path))
                    .map_err(|error| SpecError::WeightsFile { spec: spec(), error })?;
                let w = Learned::parse(&body).map_err(|error| SpecError::LearnedFile {
                    spec: spec(),
                    path: path.to_string(),
                    error,
                })?;
                learned = Some(w);
            }
        } else if let Some(params) = params
            && matches!(kind, PolicyKind::Mcts | PolicyKind::AlphaBeta)
        {
            if params.trim().is_empty() {
                return Err(SpecError::EmptyParams(spec()));
            }
            for item in params.split(',') {
                if !temp_key(item)? {
                    engine.set(kind, item).map_err(|error| match error {
                        ParamError::Unknown(key) => SpecError::UnknownKey {
                            spec: spec(),
                            key,
                            keys: if kind == PolicyKind::Mcts { MCTS_KEYS } else { AB_KEYS },
                        },
                        error => SpecError::Engine { spec: spec(), error },
                    })?;
                }
            }
        } else if let Some(params) = params {
            if kind != PolicyKind::Heuristic {
                return Err(SpecError::NoParams { name: name.to_string(), spec: spec() });
            }
            if params.trim().is_empty() {
                return Err(SpecError::EmptyParams(spec()));
            }
            for item in params.split(',') {
                if let Some(path) = item.trim().strip_prefix("file=") {
                    let body = limits::read_text(std::path::Path::new(path))
                        .map_err(|error| SpecError::WeightsFile { spec: spec(), error })?;
                    for (n, line) in body.lines().enumerate() {
                        let line = line.split('#').next().unwrap_or("").trim();
                        if !line.is_empty() {
                            weights.set(line).map_err(|error| SpecError::WeightsLine {
                                spec: spec(),
                                path: path.to_string(),
                                line: n + 1,
                                error,
                            })?;
                        }
                    }
                } else {
                    weights.set(item).map_err(|error| SpecError::Weight { spec: spec(), error })?;
                }
            }
        }
        engine.temp = temp.resolve();
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
            (None, PolicyKind::Mcts) => self.engine.temp.is_off() && self.engine.rollout == SenatRollout::Eval,
            _ => false,
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
        if let Some(s) = &self.split {
            out.split =
                Some(Box::new(SplitSpec { draft: s.draft.without_temperature(), play: s.play.without_temperature() }));
        }
        out
    }

    /// A fresh player for one game (or one worker).
    pub fn build(&self) -> Box<dyn Agent<Senat>> {
        if let Some(s) = &self.split {
            return Box::new(SplitPolicy { draft: s.draft.build(), play: s.play.build(), last_play: false });
        }
        match self.kind {
            PolicyKind::Random => Box::new(RandomPolicy),
            PolicyKind::Greedy => Box::new(GreedyPolicy),
            PolicyKind::Heuristic => Box::new(HeuristicPolicy { weights: self.weights.clone() }),
            PolicyKind::Mcts => Box::new(MctsPolicy::new(self.engine)),
            PolicyKind::AlphaBeta => Box::new(AlphaBetaPolicy::new(self.engine)),
            PolicyKind::Learned => Box::new(LearnedPolicy {
                eval: self.learned.clone().unwrap_or_else(|| Learned::builtin().clone()),
                temp: self.engine.temp,
            }),
            // A split spec always has its halves (`parse_split` is the only
            // maker of this kind); without them, play at random rather than fail.
            PolicyKind::Split => Box::new(RandomPolicy),
        }
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

    /// The keys in `name[:k=v,...]` of [`POLICY_HELP`].
    fn help_keys(name: &str) -> Vec<String> {
        let start = POLICY_HELP.find(&format!("{name}[:")).expect("the engine is in the help") + name.len() + 2;
        let body = &POLICY_HELP[start..start + POLICY_HELP[start..].find(']').expect("a closing bracket")];
        body.split(',').map(|kv| kv.split('=').next().unwrap_or("").to_string()).collect()
    }

    #[test]
    fn key_lists_match_the_help_and_the_parser() {
        assert_eq!(help_keys("mcts"), MCTS_KEYS);
        assert_eq!(help_keys("ab"), AB_KEYS);
        for (kind, keys) in [(PolicyKind::Mcts, MCTS_KEYS), (PolicyKind::AlphaBeta, AB_KEYS)] {
            for key in keys {
                // The temperature's keys are read before the engine's (by `TempKeys`).
                if TempKeys::default().set(key, "1") == Ok(true) {
                    continue;
                }
                let e = EngineParams::default().set(kind, &format!("{key}=?"));
                assert!(!matches!(e, Err(ParamError::Unknown(_))), "{key} is a key of {kind:?}");
            }
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
