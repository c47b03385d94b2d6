//! Move temperature: seeded variety over the first plies of a game, for
//! agents that would otherwise play one game over and over (MCTS with
//! `rollout=eval`, alpha-beta, one-ply agents without ties).
//!
//! An agent with `temp=T,temp_plies=K` plays its usual move from ply `K`
//! of the game on (plies of the whole game, both sides, Sénat's draft
//! included), or of each round in a game of rounds that start again from
//! the same setup (Débâcle, `senat_lab::games::LabGame::plies_into_round`,
//! counted in the round's regular actions, two per turn; dominoes, in the
//! round's turns, `senat_lab::games::dominoes`); before it, it draws its move
//! from the game's generator:
//!
//! - MCTS: with probability ∝ visits^(1/T) of the root moves (AlphaZero's
//!   temperature; T = 1: in proportion to the visits; T → 0: the most
//!   visited), [`Temperature::sample_visits`];
//! - alpha-beta and one-ply agents: a softmax of the root moves' scores,
//!   ∝ exp((score − best) / T), T in the units of the scores
//!   ([`Temperature::sample_scores`]); alpha-beta scores each root move by
//!   a search one ply shallower from the position after it
//!   ([`root_scores`]).
//!
//! `temp=0` (or `temp_plies=0`) is no temperature: the agent is the one
//! without the keys, draw for draw. Given alone, `temp=T` covers the first
//! [`DEFAULT_TEMP_PLIES`] plies and `temp_plies=K` has temperature
//! [`DEFAULT_TEMP`]. Bounds are [`limits::temp`] and [`limits::plies`].

use crate::limits::{self, LimitError};
use game_search::alphabeta::{Limits, Searcher};
use game_search::rng::GameRng;
use game_search::{Evaluator, Game, score_for};
use rand::Rng;
use std::fmt;
use std::time::Duration;

/// The plies a temperature covers when only `temp=` is given: the first
/// 16 plies, a third of Sénat's 46-ply draft. Measured (docs/commands/selfplay.md,
/// Sénat's `selfplay`): 100 distinct games in 100 for MCTS on the evaluation, at
/// −35 ± 43 Elo against the same agent without a temperature.
pub const DEFAULT_TEMP_PLIES: u32 = 16;

/// The temperature when only `temp_plies=` is given.
pub const DEFAULT_TEMP: f64 = 1.0;

/// A move temperature over the first plies of a game; [`Temperature::OFF`]
/// (the default) is none.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Temperature {
    /// The temperature, above 0 unless off.
    pub temp: f64,
    /// The plies of the game it covers (moves made before it, both sides;
    /// of the round in Débâcle).
    pub plies: u32,
}

/// Why a temperature key was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum TempError {
    /// The value is not a number.
    NotNumber {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
    },
    /// The value is out of bounds.
    Limit(LimitError),
}

impl fmt::Display for TempError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TempError::NotNumber { key, value } => {
                let what = match key.as_str() {
                    "temp" => "a number from 0",
                    "vary" => "a value margin in 0..=1",
                    _ => "a whole number of plies from 0",
                };
                write!(f, "`{key}={value}`: expected {what}")
            }
            TempError::Limit(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TempError {}

/// The keys of one spec that vary its first plies, as read so far
/// (`temp=`, `temp_plies=`, and MCTS's `vary=`); [`TempKeys::resolve`]
/// and [`TempKeys::variety`] apply the defaults. A spec's grammar decides
/// which of them its kind takes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TempKeys {
    /// `temp=`, if given.
    pub temp: Option<f64>,
    /// `temp_plies=`, if given.
    pub plies: Option<u32>,
    /// `vary=`, if given ([`Vary::margin`]).
    pub vary: Option<f64>,
}

impl TempKeys {
    /// Reads `key=value` if `key` is `temp`, `temp_plies` or `vary`:
    /// `Ok(true)` when taken, `Ok(false)` when the key is another one.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, TempError> {
        let bad = || TempError::NotNumber { key: key.to_string(), value: value.to_string() };
        match key {
            "temp" => {
                let t: f64 = value.parse().map_err(|_| bad())?;
                self.temp = Some(limits::temp(key, t).map_err(TempError::Limit)?);
            }
            "temp_plies" => {
                let n: u64 = value.parse().map_err(|_| bad())?;
                self.plies = Some(limits::plies(key, n).map_err(TempError::Limit)?);
            }
            "vary" => {
                let e: f64 = value.parse().map_err(|_| bad())?;
                self.vary = Some(limits::margin(key, e).map_err(TempError::Limit)?);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The temperature or the value-bounded choice these keys give (at
    /// most one is on): with `vary=ε`, `temp=` and `temp_plies=` are its
    /// own: a [`Vary`] over `temp_plies=` plies ([`DEFAULT_TEMP_PLIES`] by
    /// default), its draw within ε uniform, or ∝ visits^(1/T) with
    /// `temp=T`, and no temperature (`vary=0`: neither); without `vary=`,
    /// [`TempKeys::resolve`].
    pub fn variety(&self) -> (Temperature, Vary) {
        match self.vary {
            Some(margin) => {
                let vary = Vary::new(margin, self.plies.unwrap_or(DEFAULT_TEMP_PLIES));
                (Temperature::OFF, vary.with_temp(self.temp.unwrap_or(0.0)))
            }
            None => (self.resolve(), Vary::OFF),
        }
    }

    /// The temperature these keys give (defaults for the one not given).
    pub fn resolve(&self) -> Temperature {
        match (self.temp, self.plies) {
            (None, None) => Temperature::OFF,
            (t, k) => Temperature::new(t.unwrap_or(DEFAULT_TEMP), k.unwrap_or(DEFAULT_TEMP_PLIES)),
        }
    }
}

impl Temperature {
    /// No temperature.
    pub const OFF: Temperature = Temperature { temp: 0.0, plies: 0 };

    /// `temp` over the first `plies` plies; [`Temperature::OFF`] when either is 0.
    pub fn new(temp: f64, plies: u32) -> Temperature {
        if temp > 0.0 && plies > 0 { Temperature { temp, plies } } else { Temperature::OFF }
    }

    /// Whether this is no temperature.
    pub fn is_off(&self) -> bool {
        *self == Temperature::OFF
    }

    /// Whether a move at `ply` (moves made so far in the game, or in the
    /// round: `senat_lab::games::LabGame::plies_into_round`) is drawn.
    pub fn applies(&self, ply: usize) -> bool {
        !self.is_off() && ply < self.plies as usize
    }

    /// An index drawn with probability ∝ `visits[i]`^(1/T) (unvisited moves
    /// never); `None` when nothing was visited. One draw from `rng`.
    pub fn sample_visits(&self, visits: &[u64], rng: &mut GameRng) -> Option<usize> {
        let top = *visits.iter().max()?;
        if top == 0 {
            return None;
        }
        let w: Vec<f64> = visits
            .iter()
            .map(|&v| if v == 0 { 0.0 } else { ((v as f64 / top as f64).ln() / self.temp).exp() })
            .collect();
        pick(&w, rng)
    }

    /// An index drawn with probability ∝ exp((`scores[i]` − best) / T) (a
    /// NaN score never); `None` when there is no finite score. One draw
    /// from `rng`.
    pub fn sample_scores(&self, scores: &[f64], rng: &mut GameRng) -> Option<usize> {
        let top = scores.iter().copied().filter(|s| s.is_finite()).fold(f64::NEG_INFINITY, f64::max);
        if !top.is_finite() {
            return None;
        }
        let w: Vec<f64> =
            scores.iter().map(|&s| if s.is_finite() { ((s - top) / self.temp).exp() } else { 0.0 }).collect();
        pick(&w, rng)
    }
}

impl fmt::Display for Temperature {
    /// `temp=T,temp_plies=K`, or nothing when off.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_off() { Ok(()) } else { write!(f, "temp={},temp_plies={}", self.temp, self.plies) }
    }
}

/// The visits a root move needs, as a share of the most visited move's,
/// for its mean value to count in a value-bounded choice ([`Vary`]): a
/// tenth. A move searched less than that has too noisy a mean (its
/// standard error is about 0.5/√visits: ±0.05 at 100 visits) to be called
/// within ε of the best; it is never drawn.
pub const VARY_MIN_VISIT_SHARE: f64 = 0.1;

/// A value-bounded choice over the first plies of a game (`vary=ε`,
/// `temp_plies=K` in an MCTS spec): at each of the first `plies` plies the
/// agent draws its move uniformly among the root moves whose mean value
/// (the search's mean result for the mover, a win 1, a draw ½, a loss 0)
/// is within `margin` of its usual move's (the most visited), counting
/// only moves with at least [`VARY_MIN_VISIT_SHARE`] of that move's
/// visits; the usual move is always among them. With a temperature
/// (`vary=ε,temp=T`) the draw among them is ∝ visits^(1/T), as a
/// temperature draws among all root moves, instead of uniform. Unlike a
/// temperature alone, no move worse than the margin by the agent's own
/// values is ever played. [`Vary::OFF`] (the default) is none: the agent
/// is the one without the key, draw for draw.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Vary {
    /// ε, in score units (0 to 1; 0 is off).
    pub margin: f64,
    /// The plies of the game it covers (moves made before it, both sides).
    pub plies: u32,
    /// The temperature of the draw among the moves within ε (∝
    /// visits^(1/T)); 0: uniform.
    pub temp: f64,
}

/// A value-bounded choice: the index played and its value loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VaryPick {
    /// The root move drawn (an index of the search's root moves).
    pub index: usize,
    /// Its value loss: the usual move's mean value minus its own, at
    /// least 0 (a drawn move whose mean is above the usual move's lost
    /// nothing by the agent's values), in score units.
    pub loss: f64,
    /// How many root moves qualified (1: the usual move alone, no draw made).
    pub choices: usize,
}

impl Vary {
    /// No value-bounded choice.
    pub const OFF: Vary = Vary { margin: 0.0, plies: 0, temp: 0.0 };

    /// `margin` over the first `plies` plies, a uniform draw; [`Vary::OFF`]
    /// when either is 0.
    pub fn new(margin: f64, plies: u32) -> Vary {
        if margin > 0.0 && plies > 0 { Vary { margin, plies, temp: 0.0 } } else { Vary::OFF }
    }

    /// The same bound with the draw among the moves within it ∝
    /// visits^(1/`temp`) (0: uniform); off stays off.
    pub fn with_temp(self, temp: f64) -> Vary {
        if self.is_off() { self } else { Vary { temp: temp.max(0.0), ..self } }
    }

    /// Whether this is none.
    pub fn is_off(&self) -> bool {
        *self == Vary::OFF
    }

    /// Whether a move at `ply` (moves made so far in the game) is drawn.
    pub fn applies(&self, ply: usize) -> bool {
        !self.is_off() && ply < self.plies as usize
    }

    /// Draws among root moves `moves` (move, visits, mean value for the
    /// mover in `[0, 1]`), whose usual move is `moves[best]`: among those
    /// within [`Vary::margin`] of it with enough visits
    /// ([`VARY_MIN_VISIT_SHARE`]), uniformly or ∝ visits^(1/T) with a
    /// [`Vary::temp`]. With the usual move alone qualifying, it is
    /// returned and nothing is drawn from `rng`; otherwise one draw.
    /// `None` when `best` is not an index of `moves`.
    pub fn pick<M>(&self, moves: &[(M, u64, f64)], best: usize, rng: &mut GameRng) -> Option<VaryPick> {
        let &(_, best_visits, best_value) = moves.get(best)?;
        let floor = (best_visits as f64 * VARY_MIN_VISIT_SHARE).max(1.0);
        let within: Vec<usize> = (0..moves.len())
            .filter(|&i| {
                i == best
                    || (moves[i].1 as f64 >= floor && moves[i].2.is_finite() && moves[i].2 >= best_value - self.margin)
            })
            .collect();
        let index = if within.len() == 1 {
            best
        } else if self.temp > 0.0 {
            let visits: Vec<u64> = within.iter().map(|&i| moves[i].1).collect();
            let t = Temperature { temp: self.temp, plies: self.plies };
            t.sample_visits(&visits, rng).map_or(best, |k| within[k])
        } else {
            within[game_search::rng::below(rng, within.len())]
        };
        Some(VaryPick { index, loss: (best_value - moves[index].2).max(0.0), choices: within.len() })
    }
}

impl fmt::Display for Vary {
    /// `vary=ε,temp_plies=K` (`vary=ε,temp=T,temp_plies=K` with a
    /// temperature), or nothing when off.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.is_off(), self.temp > 0.0) {
            (true, _) => Ok(()),
            (false, false) => write!(f, "vary={},temp_plies={}", self.margin, self.plies),
            (false, true) => write!(f, "vary={},temp={},temp_plies={}", self.margin, self.temp, self.plies),
        }
    }
}

/// An index drawn with probability ∝ `w[i]` (non-negative, at least one
/// positive), from one 53-bit uniform draw.
fn pick(w: &[f64], rng: &mut GameRng) -> Option<usize> {
    let total: f64 = w.iter().sum();
    if !(total > 0.0 && total.is_finite()) {
        return None;
    }
    let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) * total;
    let mut acc = 0.0;
    let mut last = None;
    for (i, &x) in w.iter().enumerate() {
        if x > 0.0 {
            acc += x;
            last = Some(i);
            if u < acc {
                return Some(i);
            }
        }
    }
    last
}

/// Every root move of `root` with its score for the side to move: a
/// finished game's result (± [`game_search::WIN`], 0 for a draw), otherwise
/// the negated alpha-beta score of the position after it, searched to
/// `depth − 1` plies (at least 1) with `searcher`; with a time per move,
/// each move gets an equal share of it (at least a millisecond). In the
/// moves' generation order.
pub fn root_scores<G: Game, E: Evaluator<G> + Sync>(
    searcher: &mut Searcher<G, E>,
    root: &G::State,
    depth: u32,
    time: Option<Duration>,
) -> Vec<(G::Move, f64)>
where
    G::State: Sync,
{
    let me = G::to_move(root);
    let team = G::team(root, me);
    let mut moves = Vec::new();
    G::moves(root, &mut moves);
    let share = time.map(|t| (t / moves.len().max(1) as u32).max(Duration::from_millis(1)));
    let limits = Limits { depth: depth.saturating_sub(1).max(1), nodes: None, time: share };
    moves
        .into_iter()
        .map(|m| {
            let child = G::apply(root, m);
            let score = match G::result(&child) {
                Some(r) => score_for::<G>(&child, &r, me, 1),
                None => {
                    let s = searcher.search(&child, limits).score;
                    if G::team(&child, G::to_move(&child)) == team { s } else { -s }
                }
            };
            (m, score as f64)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_search::rng::rng_from_seed;

    #[test]
    fn keys_resolve_with_defaults_and_refuse_bad_values() {
        let mut k = TempKeys::default();
        assert_eq!(k.resolve(), Temperature::OFF);
        assert_eq!(k.set("playouts", "5"), Ok(false));
        assert_eq!(k.set("temp", "0.5"), Ok(true));
        assert_eq!(k.resolve(), Temperature { temp: 0.5, plies: DEFAULT_TEMP_PLIES });
        let mut k = TempKeys::default();
        k.set("temp_plies", "8").unwrap();
        assert_eq!(k.resolve(), Temperature { temp: DEFAULT_TEMP, plies: 8 });
        k.set("temp", "0").unwrap();
        assert!(k.resolve().is_off(), "temp=0 is off");
        let e = TempKeys::default().set("temp", "hot").unwrap_err().to_string();
        assert_eq!(e, "`temp=hot`: expected a number from 0");
        let e = TempKeys::default().set("temp_plies", "-1").unwrap_err().to_string();
        assert!(e.contains("`temp_plies=-1`"), "{e}");
        assert!(TempKeys::default().set("temp", "inf").is_err());
        assert!(TempKeys::default().set("temp_plies", "10001").is_err());
    }

    #[test]
    fn applies_to_the_first_plies_only() {
        let t = Temperature::new(1.0, 3);
        assert!(t.applies(0) && t.applies(2) && !t.applies(3));
        assert!(!Temperature::OFF.applies(0));
        assert_eq!(t.to_string(), "temp=1,temp_plies=3");
        assert_eq!(Temperature::OFF.to_string(), "");
    }

    #[test]
    fn visits_are_drawn_in_proportion_and_never_unvisited() {
        let t = Temperature::new(1.0, 1);
        let mut rng = rng_from_seed(5);
        let mut counts = [0u32; 3];
        for _ in 0..10_000 {
            counts[t.sample_visits(&[300, 0, 100], &mut rng).unwrap()] += 1;
        }
        assert_eq!(counts[1], 0);
        // 3:1 expected; 7,500 ± about 4 standard deviations (43 each).
        assert!((7_300..7_700).contains(&counts[0]), "{counts:?}");
        assert_eq!(t.sample_visits(&[0, 0], &mut rng), None);
        // A cold temperature is nearly the most visited.
        let cold = Temperature::new(0.01, 1);
        assert!((0..100).all(|_| cold.sample_visits(&[300, 200, 1], &mut rng) == Some(0)));
    }

    #[test]
    fn scores_are_a_softmax() {
        let t = Temperature::new(1.0, 1);
        let mut rng = rng_from_seed(6);
        let mut counts = [0u32; 3];
        for _ in 0..10_000 {
            counts[t.sample_scores(&[0.0, (2.0f64).ln(), f64::NAN], &mut rng).unwrap()] += 1;
        }
        assert_eq!(counts[2], 0);
        assert!((6_400..6_950).contains(&counts[1]), "2:1 expected: {counts:?}");
        assert_eq!(t.sample_scores(&[f64::NAN], &mut rng), None);
    }

    #[test]
    fn draws_depend_on_the_generator_only() {
        let t = Temperature::new(1.0, 1);
        let run = |seed| {
            let mut rng = rng_from_seed(seed);
            (0..50).map(|_| t.sample_visits(&[5, 5, 5, 5], &mut rng).unwrap()).collect::<Vec<_>>()
        };
        assert_eq!(run(1), run(1));
        assert_ne!(run(1), run(2));
    }

    #[test]
    fn vary_draws_only_within_the_margin_and_zero_is_the_usual_move() {
        // (move, visits, mean value): move 0 is the usual one (most visited).
        let moves = [(0u8, 500, 0.60), (1, 200, 0.59), (2, 100, 0.50), (3, 20, 0.61), (4, 150, 0.585)];
        let v = Vary::new(0.02, 4);
        let mut rng = rng_from_seed(9);
        let mut seen = [0u32; 5];
        for _ in 0..3_000 {
            let p = v.pick(&moves, 0, &mut rng).unwrap();
            assert_eq!(p.choices, 3);
            assert!((p.loss - (0.60 - moves[p.index].2).max(0.0)).abs() < 1e-12);
            assert!(p.loss <= 0.02 + 1e-12);
            seen[p.index] += 1;
        }
        // Move 2 is 0.10 below; move 3 is above but has too few visits (20 < 50).
        assert_eq!((seen[2], seen[3]), (0, 0), "{seen:?}");
        assert!(seen[0] > 900 && seen[1] > 900 && seen[4] > 900, "uniform among three: {seen:?}");
        // ε = 0 (and OFF): the usual move, and no draw from the generator.
        let mut a = rng_from_seed(3);
        let b = rng_from_seed(3);
        let p = Vary { margin: 0.0, plies: 4, temp: 0.0 }.pick(&moves, 0, &mut a).unwrap();
        assert_eq!((p.index, p.loss, p.choices), (0, 0.0, 1));
        assert_eq!(a, b, "nothing drawn");
        assert!(Vary::new(0.0, 4).is_off() && Vary::new(0.1, 0).is_off());
        assert!(v.applies(3) && !v.applies(4) && !Vary::OFF.applies(0));
        assert_eq!(v.to_string(), "vary=0.02,temp_plies=4");
        assert_eq!(v.pick(&moves, 9, &mut rng), None);
    }

    /// `vary=ε,temp=T`: the same band, the draw within it ∝ visits^(1/T)
    /// (T = 0.5: ∝ visits²), so the usual move is drawn most; the loss is
    /// still that of the move drawn, never beyond ε.
    #[test]
    fn vary_with_a_temperature_draws_within_the_band_by_visits() {
        let moves = [(0u8, 500, 0.60), (1, 200, 0.59), (2, 100, 0.50), (3, 20, 0.61), (4, 150, 0.585)];
        let v = Vary::new(0.02, 4).with_temp(0.5);
        assert_eq!(v.to_string(), "vary=0.02,temp=0.5,temp_plies=4");
        assert_eq!(Vary::OFF.with_temp(0.5), Vary::OFF);
        let mut rng = rng_from_seed(11);
        let mut seen = [0u32; 5];
        let n = 20_000;
        for _ in 0..n {
            let p = v.pick(&moves, 0, &mut rng).unwrap();
            assert!(p.loss <= 0.02 + 1e-12 && p.choices == 3);
            seen[p.index] += 1;
        }
        assert_eq!((seen[2], seen[3]), (0, 0), "{seen:?}");
        // ∝ 500², 200², 150²: 0.800, 0.128 and 0.072 of the draws.
        let total = 500.0f64.powi(2) + 200.0f64.powi(2) + 150.0f64.powi(2);
        for (i, visits) in [(0, 500.0), (1, 200.0), (4, 150.0)] {
            let want = visits * visits / total;
            let got = f64::from(seen[i]) / f64::from(n);
            // Four standard errors of a share of 20,000 draws.
            let tol = 4.0 * (want * (1.0 - want) / f64::from(n)).sqrt();
            assert!((got - want).abs() < tol, "move {i}: {got} against {want}: {seen:?}");
        }
    }
}
