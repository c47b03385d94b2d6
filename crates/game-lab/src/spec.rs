//! The one spec grammar of the lab: how a command names an agent of any
//! game (`--red`, `--first`, the arena's agents, `--agent`).
//!
//! A spec is `NAME` or `NAME:key=value,...`. `NAME` is a kind of its
//! [`Family`] (`mcts`, `ab`, …) or a named agent of the family's table
//! ([`crate::named`]: `top`, `strong`, `fast`), which is read as its
//! expansion. [`Family::read`] checks the syntax once for every game: the
//! name (the nearest one suggested), a named agent given parameters, an
//! empty list, an item that is not `key=value`, a key its kind does not
//! take (the nearest key suggested), a key given twice. The typed readers
//! of [`Param`] (whole numbers, numbers, choices) word every value error
//! the same way for every game ([`ParamError`]).
//!
//! The families are Sénat's policies (`senat_lab::policy::spec`, whose
//! `DRAFT>PLAY` splits a spec in two before this grammar reads each half),
//! the agents of every `senat_lab::games::LabGame` (`senat_lab::games::agent`)
//! and the dominoes agents (`senat_lab::games::dominoes`); each only gives its
//! accepted keys their meaning.
//!
//! What this module must never do: know a game, build an agent or read a
//! file.

use crate::limits::LimitError;
use crate::named::{self, Named};
use crate::suggest::{did_you_mean, duplicate_key};
use crate::temperature::TempError;
use std::fmt;

/// One kind of agent of a family: its name and the keys it takes (none:
/// it takes no parameters).
#[derive(Debug, PartialEq, Eq)]
pub struct Kind {
    /// The name (`mcts`).
    pub name: &'static str,
    /// The keys of `name:key=value,...`, in the order help lists them.
    pub keys: &'static [&'static str],
}

/// A family of agents (the agents of one game or of a group of games): the
/// words its messages use, its kinds and its named agents.
#[derive(Debug, PartialEq, Eq)]
pub struct Family {
    /// What one is called in messages (`policy`, `agent`).
    pub noun: &'static str,
    /// The plural (`policies`, `agents`).
    pub plural: &'static str,
    /// The kinds, in the order messages list them.
    pub kinds: &'static [Kind],
    /// The named agents, read as their expansions.
    pub named: &'static [Named],
}

/// A spec whose syntax [`Family::read`] accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading<'a> {
    /// A named agent: read its [`Named::spec`] instead.
    Named(&'static Named),
    /// A kind with its parameters.
    Kind(Written<'a>),
}

/// A kind and its parameters, each key one the kind takes, none twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written<'a> {
    /// The whole spec, trimmed.
    pub spec: &'a str,
    /// The kind named.
    pub kind: &'static Kind,
    /// The parameters in the order given.
    pub params: Vec<Param<'a>>,
}

/// One `key=value` of a spec, both trimmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param<'a> {
    /// The key (one of its kind's keys).
    pub key: &'a str,
    /// The value as given.
    pub value: &'a str,
}

impl Family {
    /// The names a spec may start with: the kinds, then the named agents.
    pub fn names(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.kinds.iter().map(|k| k.name).collect();
        v.extend(named::names(self.named));
        v
    }

    /// The kind called `name`.
    pub fn kind(&self, name: &str) -> Option<&'static Kind> {
        self.kinds.iter().find(|k| k.name == name)
    }

    /// Reads the syntax of `text`: a named agent, or a kind with
    /// parameters that it takes, none twice.
    pub fn read<'a>(&'static self, text: &'a str) -> Result<Reading<'a>, SpecError> {
        let spec = text.trim();
        let (name, params) = match spec.split_once(':') {
            Some((n, p)) => (n.trim(), Some(p)),
            None => (spec, None),
        };
        let fail = |fault: Fault| Err(SpecError { family: self, spec: spec.to_string(), fault });
        if let Some(n) = named::lookup(self.named, name) {
            if params.is_some() {
                return fail(Fault::NamedParams(n));
            }
            return Ok(Reading::Named(n));
        }
        let Some(kind) = self.kind(name) else { return fail(Fault::UnknownName(name.to_string())) };
        let Some(params) = params else { return Ok(Reading::Kind(Written { spec, kind, params: Vec::new() })) };
        if kind.keys.is_empty() {
            return fail(Fault::NoParams(kind));
        }
        if params.trim().is_empty() {
            return fail(Fault::EmptyParams(kind));
        }
        if let Some(key) = duplicate_key(params.split(',')) {
            return fail(Fault::DuplicateKey(key.to_string()));
        }
        let mut read = Vec::new();
        for item in params.split(',') {
            let Some((key, value)) = item.split_once('=') else {
                return fail(Fault::NotKeyValue { kind, item: item.trim().to_string() });
            };
            let (key, value) = (key.trim(), value.trim());
            if !kind.keys.contains(&key) {
                return fail(Fault::UnknownKey { kind, key: key.to_string() });
            }
            read.push(Param { key, value });
        }
        Ok(Reading::Kind(Written { spec, kind, params: read }))
    }

    /// `error` as a refusal of `spec`, in this family's words.
    pub fn refuse(&'static self, spec: &str, error: ParamError) -> SpecError {
        SpecError { family: self, spec: spec.to_string(), fault: Fault::Param(error) }
    }
}

impl<'a> Param<'a> {
    /// A whole number at least `min`.
    pub fn whole(&self, min: u64) -> Result<u64, ParamError> {
        match self.value.parse::<u64>() {
            Ok(v) if v >= min => Ok(v),
            _ => Err(self.not(Expected::AtLeast(min.to_string()))),
        }
    }

    /// A whole number from `lo` to `hi`.
    pub fn whole_in(&self, lo: u64, hi: u64) -> Result<u64, ParamError> {
        match self.value.parse::<u64>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(self.not(Expected::WholeIn(lo, hi))),
        }
    }

    /// A finite number at least `min`.
    pub fn number(&self, min: f64) -> Result<f64, ParamError> {
        match self.value.parse::<f64>() {
            Ok(v) if !v.is_finite() => Err(self.not(Expected::Finite)),
            Ok(v) if v >= min => Ok(v),
            _ => Err(self.not(Expected::AtLeast(min.to_string()))),
        }
    }

    /// A finite number from `lo` to `hi`.
    pub fn number_in(&self, lo: f64, hi: f64) -> Result<f64, ParamError> {
        match self.value.parse::<f64>() {
            Ok(v) if v.is_finite() && (lo..=hi).contains(&v) => Ok(v),
            _ => Err(self.not(Expected::NumberIn(lo, hi))),
        }
    }

    /// The value of the first of `options` whose words include the value;
    /// `expected` says in words what is accepted (`on or off`).
    pub fn choice<T: Copy>(&self, options: &[(&[&str], T)], expected: &'static str) -> Result<T, ParamError> {
        options
            .iter()
            .find(|(words, _)| words.contains(&self.value))
            .map(|&(_, v)| v)
            .ok_or_else(|| self.not(Expected::Words(expected)))
    }

    /// This parameter's value refused: it is not what `expected` says.
    pub fn not(&self, expected: Expected) -> ParamError {
        ParamError::Value { key: self.key.to_string(), value: self.value.to_string(), expected }
    }
}

/// What a value should have been.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// A number at least this (as written).
    AtLeast(String),
    /// A whole number in this range.
    WholeIn(u64, u64),
    /// A finite number in this range.
    NumberIn(f64, f64),
    /// A finite number.
    Finite,
    /// One of the words said (`on or off`), or what the text says.
    Words(&'static str),
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::AtLeast(min) => write!(f, "a number ≥ {min}"),
            Expected::WholeIn(lo, hi) => write!(f, "a whole number from {lo} to {hi}"),
            Expected::NumberIn(lo, hi) => write!(f, "a number from {lo} to {hi}"),
            Expected::Finite => f.write_str("a finite number"),
            Expected::Words(w) => f.write_str(w),
        }
    }
}

/// Why the value of one accepted key was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamError {
    /// The value is not what the key takes.
    Value {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What it should be.
        expected: Expected,
    },
    /// The value is outside the bounds every command shares ([`crate::limits`]).
    Limit(LimitError),
    /// A move temperature key (`temp=`, `temp_plies=`) was refused.
    Temp(TempError),
    /// Keys that do not go together (the whole reason, in words).
    Conflict(&'static str),
    /// A file the value names was refused.
    File {
        /// The file as given.
        path: String,
        /// Why.
        message: String,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Value { key, value, expected } => write!(f, "`{key}={value}`: expected {expected}"),
            ParamError::Limit(e) => e.fmt(f),
            ParamError::Temp(e) => e.fmt(f),
            ParamError::Conflict(why) => f.write_str(why),
            ParamError::File { path, message } => write!(f, "weights file {path}: {message}"),
        }
    }
}

impl std::error::Error for ParamError {}

impl From<LimitError> for ParamError {
    fn from(e: LimitError) -> ParamError {
        ParamError::Limit(e)
    }
}

impl From<TempError> for ParamError {
    fn from(e: TempError) -> ParamError {
        ParamError::Temp(e)
    }
}

/// A spec refused by its family's grammar, or one of its values refused.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecError {
    /// Whose spec (for the words of the message).
    pub family: &'static Family,
    /// The whole spec, trimmed.
    pub spec: String,
    /// What is wrong with it.
    pub fault: Fault,
}

/// What is wrong with a spec.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// No kind or named agent has this name.
    UnknownName(String),
    /// A named agent was given parameters.
    NamedParams(&'static Named),
    /// A kind that takes no parameters was given some.
    NoParams(&'static Kind),
    /// `name:` with nothing after the colon.
    EmptyParams(&'static Kind),
    /// An item without `=`.
    NotKeyValue {
        /// The kind.
        kind: &'static Kind,
        /// The item as given.
        item: String,
    },
    /// A key the kind does not take.
    UnknownKey {
        /// The kind.
        kind: &'static Kind,
        /// The key as given.
        key: String,
    },
    /// A key given twice.
    DuplicateKey(String),
    /// A value refused.
    Param(ParamError),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Family { noun, plural, .. } = self.family;
        let spec = &self.spec;
        let keys = |k: &Kind| k.keys.join(", ");
        match &self.fault {
            Fault::UnknownName(name) => {
                let names = self.family.names();
                let hint = did_you_mean(name, &names);
                write!(f, "unknown {noun} `{name}`{hint} ({plural}: {}; see --help)", names.join(", "))
            }
            Fault::NamedParams(n) => write!(
                f,
                "{noun} `{spec}`: `{}` is a named {noun} and takes no parameters; it stands for `{}`: write that with yours",
                n.name, n.spec
            ),
            Fault::NoParams(k) => write!(f, "{noun} `{}` takes no parameters (`{spec}`)", k.name),
            Fault::EmptyParams(k) => {
                write!(f, "{noun} `{spec}`: empty parameter list (keys of `{}`: {}; see --help)", k.name, keys(k))
            }
            Fault::NotKeyValue { kind, item } => write!(
                f,
                "{noun} `{spec}`: `{item}`: expected key=value (keys of `{}`: {}; see --help)",
                kind.name,
                keys(kind)
            ),
            Fault::UnknownKey { kind, key } => write!(
                f,
                "{noun} `{spec}`: unknown parameter `{key}`{} (keys of `{}`: {}; see --help)",
                did_you_mean(key, kind.keys),
                kind.name,
                keys(kind)
            ),
            Fault::DuplicateKey(key) => write!(f, "{noun} `{spec}`: `{key}` is given twice"),
            Fault::Param(e) => write!(f, "{noun} `{spec}`: {e}"),
        }
    }
}

impl std::error::Error for SpecError {}

#[cfg(test)]
mod tests {
    use super::*;

    static TOY: Family = Family {
        noun: "agent",
        plural: "agents",
        kinds: &[Kind { name: "random", keys: &[] }, Kind { name: "mcts", keys: &["playouts", "c", "solve"] }],
        named: &[Named { name: "top", spec: "mcts:playouts=9", about: "the best" }],
    };

    fn fault(text: &str) -> Fault {
        TOY.read(text).unwrap_err().fault
    }

    #[test]
    fn kinds_named_agents_and_parameters_are_read() {
        assert_eq!(
            TOY.read(" random ").unwrap(),
            Reading::Kind(Written { spec: "random", kind: &TOY.kinds[0], params: vec![] })
        );
        assert_eq!(TOY.read("top").unwrap(), Reading::Named(&TOY.named[0]));
        let Reading::Kind(w) = TOY.read("mcts: playouts = 5 ,c=0.5").unwrap() else { panic!("a kind") };
        assert_eq!(w.kind.name, "mcts");
        assert_eq!(w.params, vec![Param { key: "playouts", value: "5" }, Param { key: "c", value: "0.5" }]);
    }

    #[test]
    fn every_fault_of_the_syntax_is_refused_with_its_reason() {
        assert_eq!(fault("mcst"), Fault::UnknownName("mcst".into()));
        assert!(TOY.read("mcst").unwrap_err().to_string().contains("did you mean `mcts`?"));
        assert_eq!(fault("top:c=1"), Fault::NamedParams(&TOY.named[0]));
        assert_eq!(fault("random:c=1"), Fault::NoParams(&TOY.kinds[0]));
        assert_eq!(fault("mcts:"), Fault::EmptyParams(&TOY.kinds[1]));
        assert_eq!(fault("mcts:playouts=1,"), Fault::NotKeyValue { kind: &TOY.kinds[1], item: String::new() });
        assert_eq!(fault("mcts:c"), Fault::NotKeyValue { kind: &TOY.kinds[1], item: "c".into() });
        assert_eq!(fault("mcts:playuts=3"), Fault::UnknownKey { kind: &TOY.kinds[1], key: "playuts".into() });
        let e = TOY.read("mcts:playuts=3").unwrap_err().to_string();
        assert!(e.contains("did you mean `playouts`?") && e.contains("keys of `mcts`: playouts, c, solve"), "{e}");
        assert_eq!(fault("mcts:playouts=1,playouts=2"), Fault::DuplicateKey("playouts".into()));
        assert_eq!(
            TOY.read("mcts:playouts=1, playouts =2").unwrap_err().to_string(),
            "agent `mcts:playouts=1, playouts =2`: `playouts` is given twice"
        );
    }

    #[test]
    fn values_are_read_in_one_wording() {
        let p = |value| Param { key: "k", value };
        assert_eq!(p("5").whole(1), Ok(5));
        assert_eq!(p("0").whole(1).unwrap_err().to_string(), "`k=0`: expected a number ≥ 1");
        assert_eq!(p("-1").whole(0).unwrap_err().to_string(), "`k=-1`: expected a number ≥ 0");
        assert_eq!(p("7").whole_in(1, 6).unwrap_err().to_string(), "`k=7`: expected a whole number from 1 to 6");
        assert_eq!(p("2.5").number(0.0), Ok(2.5));
        assert_eq!(p("inf").number(0.0).unwrap_err().to_string(), "`k=inf`: expected a finite number");
        assert_eq!(p("NaN").number_in(0.0, 1.0).unwrap_err().to_string(), "`k=NaN`: expected a number from 0 to 1");
        let on = [(&["on"][..], true), (&["off"][..], false)];
        assert_eq!(p("off").choice(&on, "on or off"), Ok(false));
        assert_eq!(p("yes").choice(&on, "on or off").unwrap_err().to_string(), "`k=yes`: expected on or off");
        let e = TOY.refuse("mcts:c=x", p("x").not(Expected::Finite));
        assert_eq!(e.to_string(), "agent `mcts:c=x`: `k=x`: expected a finite number");
    }
}
