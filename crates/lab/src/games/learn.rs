//! Learned evaluations for every [`LabGame`] that has network inputs
//! ([`LabGame::NET`]; Focus and Débâcle): the game's hand-made evaluation terms
//! ([`LabGame::net_features`]) weighted by a linear part, plus the small
//! network of [`crate::net`] on the game's inputs ([`LabGame::net_inputs`]),
//! read as the log-odds that the side to move's team wins. The linear part
//! starts at 1 for every term, and every term is the evaluation's
//! own in log-odds units (its centi-units over [`LabGame::eval_scale`]),
//! so an untrained file is exactly today's evaluation through its fitted
//! logistic.
//!
//! Here: the weights and their file form ([`GameWeights`]) and the weights
//! files that agent specs name (`mcts:…,file=F`, [`load`]); the samples of
//! self-play games for the one trainer are [`super::train`]'s.
//!
//! What this module must never do: know which game it plays (each game's
//! inputs and terms live in its own module), or draw randomness from
//! anywhere but the seeded generators of a game's index.

use super::LabGame;
use crate::learned::sigmoid;
use crate::net::{Net, NetError};
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// What a game's network sees: the name its weights files give, its
/// number of inputs, and the most that are on in one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetShape {
    /// The game as weights files name it (`game=` line).
    pub game: &'static str,
    /// Inputs of the network.
    pub inputs: usize,
    /// A bound on the inputs on in one position (a new network's first
    /// weights are drawn within ±1/√(max_active / 1.5)).
    pub max_active: usize,
}

#[cfg(test)]
impl NetShape {
    /// Checks a listing of the inputs on (`active`, of the state `what`):
    /// at most `max_active`, each below `inputs`, none twice.
    pub(crate) fn assert_listing(&self, active: &[u16], what: &dyn fmt::Debug) {
        assert!(active.len() <= self.max_active && active.iter().all(|&i| usize::from(i) < self.inputs), "{what:?}");
        let mut sorted = active.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), active.len(), "{what:?}");
    }
}

/// A game's learned evaluation: the linear part over the game's terms and
/// the network.
#[derive(Clone, Debug, PartialEq)]
pub struct GameWeights {
    /// The game ([`NetShape::game`]).
    pub game: String,
    /// One weight per term of [`LabGame::NET_FEATURES`].
    pub linear: Vec<f32>,
    /// The network.
    pub net: Net,
    /// The file as an agent spec named it (`file=`), empty for weights made in memory.
    pub path: String,
    /// The file's hash as a batch's identity records it (FNV-1a of its
    /// length and bytes without the check line, as Sénat's `*_weights=`
    /// fields, [`crate::weights_file::without_check`]); `None` for weights
    /// made in memory.
    pub hash: Option<u64>,
}

impl GameWeights {
    /// Log-odds that the side to move's team wins the non-terminal state `s`.
    pub fn mover_logit<G: LabGame>(&self, s: &G::State) -> f64 {
        thread_local! {
            static BUF: std::cell::RefCell<(Vec<u16>, Vec<f32>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
        }
        BUF.with(|b| {
            let (active, dense) = &mut *b.borrow_mut();
            G::net_inputs(s, active);
            dense.clear();
            G::net_features(s, dense);
            let lin: f32 = self.linear.iter().zip(dense.iter()).map(|(a, b)| a * b).sum();
            f64::from(lin + self.net.infer(active))
        })
    }

    /// Log-odds that `player`'s team wins the non-terminal state `s`.
    pub fn logit_for<G: LabGame>(&self, s: &G::State, player: usize) -> f64 {
        let z = self.mover_logit::<G>(s);
        if G::team(s, player) == G::team(s, G::to_move(s)) { z } else { -z }
    }

    /// Every player's probability that their team wins the non-terminal
    /// state `s` (one evaluation), the log-odds read through a logistic of
    /// `scale` thousandths ([`super::LEARNED_SCALE`]: the file's own
    /// probability; smaller sharpens it).
    pub fn values<G: LabGame>(&self, s: &G::State, scale: f64) -> game_search::Scores {
        let z = self.mover_logit::<G>(s);
        // The default scale reads the logit as it is (no rounding on the way).
        let z = if scale == super::LEARNED_SCALE { z } else { z * super::LEARNED_SCALE / scale };
        let mover = sigmoid(z);
        let team = G::team(s, G::to_move(s));
        let mut r = [0.0; game_search::MAX_PLAYERS];
        for (p, v) in r.iter_mut().enumerate().take(G::players(s)) {
            *v = if G::team(s, p) == team { mover } else { 1.0 - mover };
        }
        r
    }

    /// Reads a weights file of game `G`: `game=`, one `linear.<term>=` line
    /// per term of [`LabGame::NET_FEATURES`], then the `net.` lines
    /// ([`Net::read_line`]); `#` comments; the lines read and checked by
    /// [`crate::weights_file::entries`] (a check line, no key twice; a file
    /// without a check line must give every row of its network).
    pub fn parse<G: LabGame>(text: &str) -> Result<GameWeights, WeightsError> {
        let Some(shape) = G::NET else { return Err(WeightsError::NoNetwork) };
        GameWeights::parse_shape(text, shape, G::NET_FEATURES)
    }

    /// Reads a weights file of the network `shape` whose linear part
    /// weighs `terms` ([`GameWeights::parse`] for a game that is not a
    /// [`LabGame`]: dominoes).
    pub fn parse_shape(text: &str, shape: NetShape, terms: &[&str]) -> Result<GameWeights, WeightsError> {
        let file = crate::weights_file::entries(text).map_err(WeightsError::from)?;
        let mut linear = vec![None::<f32>; terms.len()];
        let (mut game, mut net) = (None::<String>, None::<Net>);
        for e in &file.entries {
            let at = |why: String| WeightsError::Line { line: e.line, why };
            let (key, value) = (e.key, e.value);
            if let Some(k) = key.strip_prefix("net.") {
                Net::read_line(&mut net, shape.inputs, k, value).map_err(|e: NetError| at(e.to_string()))?;
            } else if key == "game" {
                if value != shape.game {
                    return Err(WeightsError::Game { file: value.to_string(), wanted: shape.game });
                }
                game = Some(value.to_string());
            } else if let Some(term) = key.strip_prefix("linear.") {
                let i = terms.iter().position(|&t| t == term).ok_or_else(|| {
                    at(format!("unknown term `{}` (accepted: {})", crate::limits::clip(term), terms.join(", ")))
                })?;
                linear[i] = Some(crate::weights_file::number::<f32>(value).map_err(at)?);
            } else {
                return Err(at(format!(
                    "unknown key `{}` (accepted: game, linear.<term>, net.<weight>)",
                    crate::limits::clip(key)
                )));
            }
        }
        file.verdict()?;
        if let Some(e) = net.as_ref().and_then(|_| file.missing_net("net", shape.inputs)) {
            return Err(e.into());
        }
        let mut missing: Vec<String> =
            terms.iter().zip(&linear).filter(|(_, v)| v.is_none()).map(|(t, _)| format!("linear.{t}")).collect();
        if game.is_none() {
            missing.insert(0, "game".into());
        }
        if net.is_none() {
            missing.push("net.hidden".into());
        }
        if !missing.is_empty() {
            return Err(WeightsError::Missing(missing));
        }
        Ok(GameWeights {
            game: shape.game.to_string(),
            linear: linear.into_iter().map(|v| v.expect("checked above")).collect(),
            net: net.expect("checked above"),
            path: String::new(),
            hash: None,
        })
    }

    /// The weights as a file body ([`GameWeights::parse`] reads it back
    /// exactly), after `header` as `#` lines, with its check line
    /// ([`crate::weights_file::seal`]).
    pub fn to_text<G: LabGame>(&self, header: &str) -> String {
        self.to_text_terms(G::NET_FEATURES, header)
    }

    /// [`GameWeights::to_text`] with the linear part's `terms` named
    /// ([`GameWeights::parse_shape`] reads it back).
    pub fn to_text_terms(&self, terms: &[&str], header: &str) -> String {
        let mut s: String = header.lines().map(|l| format!("# {l}\n")).collect();
        s.push_str(&format!("game={}\n", self.game));
        for (t, v) in terms.iter().zip(&self.linear) {
            s.push_str(&format!("linear.{t}={v:?}\n"));
        }
        s.push_str(&self.net.to_text());
        crate::weights_file::seal(&s)
    }
}

/// Why a game's weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// The game has no network inputs.
    NoNetwork,
    /// A line is wrong.
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// The file is another game's.
    Game {
        /// The game the file names.
        file: String,
        /// The game it is used for.
        wanted: &'static str,
    },
    /// Lines that must be there are not.
    Missing(Vec<String>),
    /// The file could not be read.
    Read(String),
    /// The `game=` line names a game without a learned evaluation.
    UnknownGame(String),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::NoNetwork => f.write_str("this game has no learned evaluation yet (Focus and Débâcle have)"),
            WeightsError::Line { line, why } => write!(f, "line {line}: {why}"),
            WeightsError::Game { file, wanted } => write!(f, "the file is for game={file}, not {wanted}"),
            WeightsError::Missing(keys) => write!(f, "missing {}", keys.join(", ")),
            WeightsError::Read(e) => f.write_str(e),
            WeightsError::UnknownGame(g) => {
                write!(
                    f,
                    "game={g}: no game with a learned evaluation has this name (focus, debacle and dominoes have)"
                )
            }
        }
    }
}

impl std::error::Error for WeightsError {}

impl From<crate::weights_file::FileError> for WeightsError {
    fn from(e: crate::weights_file::FileError) -> WeightsError {
        WeightsError::Line { line: e.line, why: e.why }
    }
}

/// The value of a weights file's `game=` line, if it has one.
pub fn game_line(text: &str) -> Option<&str> {
    text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).find_map(|l| {
        let (k, v) = l.split_once('=')?;
        (k.trim() == "game").then(|| v.trim())
    })
}

/// The weights file `path` (of the game its `game=` line names), read once
/// per program and kept for its life: an agent spec is a `Copy` value that
/// names them.
pub fn load(path: &str) -> Result<&'static GameWeights, WeightsError> {
    static FILES: OnceLock<Mutex<Vec<&'static GameWeights>>> = OnceLock::new();
    let files = FILES.get_or_init(|| Mutex::new(Vec::new()));
    let mut files = files.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(w) = files.iter().find(|w| w.path == path) {
        return Ok(w);
    }
    let text = crate::limits::read_text(std::path::Path::new(path)).map_err(|e| WeightsError::Read(e.to_string()))?;
    let mut w = super::parse_weights(&text)?;
    w.path = path.to_string();
    w.hash = Some(crate::weights_file::file_hash(text.as_bytes()));
    let w: &'static GameWeights = Box::leak(Box::new(w));
    files.push(w);
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::random_move;
    use crate::games::focus::Focus;
    use crate::policy::rng_from_seed;
    use game_search::Game;

    /// A network with weights that are not zero, for Focus.
    fn some_weights(hidden: usize) -> GameWeights {
        let shape = <Focus as LabGame>::NET.unwrap();
        let mut net = Net::zeros(shape.inputs, hidden);
        for (k, w) in net.w1.iter_mut().enumerate() {
            *w = ((k * 7919) % 13) as f32 / 26.0 - 0.2;
        }
        net.b1.iter_mut().for_each(|b| *b = 0.25);
        net.w2.iter_mut().enumerate().for_each(|(j, w)| *w = 0.3 - 0.1 * j as f32);
        net.b2 = 0.05;
        GameWeights {
            game: shape.game.into(),
            linear: vec![1.0; Focus::NET_FEATURES.len()],
            net,
            path: String::new(),
            hash: None,
        }
    }

    /// Along random games of `G` from `variant`: the untrained linear part
    /// (every weight 1) is the evaluation through its fitted logistic, for
    /// the side to move, and the inputs are distinct, in range and no more
    /// than the shape says.
    fn untrained_is_the_evaluation<G: LabGame>(variant: &str) {
        let shape = G::NET.unwrap();
        let start = G::start(variant).unwrap();
        let zero = GameWeights {
            game: shape.game.into(),
            linear: vec![1.0; G::NET_FEATURES.len()],
            net: Net::zeros(shape.inputs, 2),
            path: String::new(),
            hash: None,
        };
        let mut rng = rng_from_seed(9);
        let (mut s, mut active, mut most) = (start, Vec::new(), 0);
        for _ in 0..3000 {
            if G::result(&s).is_some() {
                s = start;
            }
            let want = f64::from(G::evaluate(&s, G::to_move(&s))) / G::eval_scale(&s);
            assert!((zero.mover_logit::<G>(&s) - want).abs() < 1e-4, "{s:?}");
            G::net_inputs(&s, &mut active);
            most = most.max(active.len());
            shape.assert_listing(&active, &s);
            s = G::apply(&s, random_move::<G>(&s, &mut rng, &mut Vec::new()).unwrap());
        }
        assert!(most > 10, "{most} inputs at most");
    }

    #[test]
    fn the_untrained_linear_part_is_the_evaluation() {
        untrained_is_the_evaluation::<Focus>("");
        untrained_is_the_evaluation::<Focus>("players=4");
        untrained_is_the_evaluation::<crate::games::debacle::Debacle>("");
    }

    #[test]
    fn the_value_is_the_movers_team_and_the_file_round_trips() {
        let w = some_weights(4);
        for variant in ["", "players=4"] {
            let s = Focus::start(variant).unwrap();
            let me = Focus::to_move(&s);
            let them = (0..Focus::players(&s)).find(|&p| Focus::team(&s, p) != Focus::team(&s, me)).unwrap();
            let v = w.values::<Focus>(&s, crate::games::LEARNED_SCALE);
            assert!((v[me] + v[them] - 1.0).abs() < 1e-12);
            assert!((v[me] - 0.5).abs() > 1e-3, "the weights say something");
        }
        let back = GameWeights::parse::<Focus>(&w.to_text::<Focus>("made in a test\nsecond line")).unwrap();
        assert_eq!(back, w);
    }

    /// The shipped Focus and Débâcle networks read as their own game's
    /// only, round-trip, and their networks move the evaluation (so the
    /// files are trained networks, not the untrained linear part).
    #[test]
    fn the_shipped_lab_networks_read_as_their_games() {
        use crate::games::debacle::Debacle;
        fn check<G: LabGame>(name: &str) -> GameWeights {
            let text = std::fs::read_to_string(format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
            let w = GameWeights::parse::<G>(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(crate::weights_file::entries(&text).unwrap().checked, "{name} has its check line");
            assert_eq!(GameWeights::parse::<G>(&w.to_text::<G>("")).unwrap(), w, "{name}");
            let linear_only = GameWeights { net: Net::zeros(w.net.inputs, 1), ..w.clone() };
            let (mut s, mut rng, mut moved) = (G::start("").unwrap(), rng_from_seed(5), 0.0f64);
            for _ in 0..400 {
                if G::result(&s).is_some() {
                    s = G::start("").unwrap();
                }
                let gap = w.mover_logit::<G>(&s) - linear_only.mover_logit::<G>(&s);
                assert!(gap.is_finite() && gap.abs() < 20.0, "{name}: {gap}");
                moved = moved.max(gap.abs());
                s = G::apply(&s, random_move::<G>(&s, &mut rng, &mut Vec::new()).unwrap());
            }
            assert!(moved > 0.1, "{name}: the network changes no value by more than {moved}");
            w
        }
        for name in ["net-focus.txt", "net-focus-r1.txt"] {
            check::<Focus>(name);
        }
        let d = check::<Debacle>("net-debacle.txt");
        let e = GameWeights::parse::<Focus>(&d.to_text::<Debacle>("")).unwrap_err();
        assert_eq!(e, WeightsError::Game { file: "debacle".into(), wanted: "focus" });
    }

    #[test]
    fn bad_files_are_refused_with_their_line() {
        let good = crate::weights_file::unsealed(&some_weights(2).to_text::<Focus>(""));
        let e = GameWeights::parse::<Focus>(&good.replace("game=focus", "game=debacle")).unwrap_err();
        assert!(e.to_string().contains("game=debacle, not focus"), "{e}");
        let e = GameWeights::parse::<Focus>(&good.replace("linear.stacks=", "linear.stack=")).unwrap_err();
        assert!(e.to_string().contains("unknown term `stack`"), "{e}");
        let e = GameWeights::parse::<Focus>(&good.replace("net.hidden=2", "net.hidden=0")).unwrap_err();
        assert!(e.to_string().starts_with("line "), "{e}");
        let no_linear: String =
            good.lines().filter(|l| !l.starts_with("linear.pieces")).map(|l| format!("{l}\n")).collect();
        let e = GameWeights::parse::<Focus>(&no_linear).unwrap_err();
        assert_eq!(e, WeightsError::Missing(vec!["linear.pieces".into()]));
        let e = GameWeights::parse::<Focus>(&good.replace("net.inputs=", "net.inputs=1")).unwrap_err();
        assert!(e.to_string().contains("net.inputs"), "{e}");
        let e = GameWeights::parse::<crate::games::debacle::Debacle>(&good).unwrap_err();
        assert_eq!(e, WeightsError::Game { file: "focus".into(), wanted: "debacle" });
        assert_eq!(GameWeights::parse::<crate::games::toy::Nim>(&good), Err(WeightsError::NoNetwork));
    }
}
