//! Match statistics in the conventions of chess testing tools (cutechess-cli,
//! fastchess, fishtest): win/draw/loss counts, pentanomial counts of game
//! pairs, Elo with a 95% interval, normalized Elo, likelihood of
//! superiority, and the sequential probability ratio test.
//!
//! Games are played in colour-swapped pairs from the same seed, so the two
//! games of a pair are not independent; the pentanomial model treats the
//! pair as the unit (its score 0, ½, 1, 1½ or 2) and its variance is what
//! the intervals and the SPRT use.
//!
//! This module is arithmetic only: it never plays a game or reads a file.

use std::fmt;

/// The two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Games won, drawn and lost by the first player of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

impl Wdl {
    /// Adds one game with score 1, ½ or 0 (as 2, 1, 0 half-points).
    pub fn add(&mut self, half_points: u8) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Draws over games (0 with no game).
    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games().max(1) as f64
    }
}

/// Counts of game pairs by the first player's points in the pair:
/// `counts[k]` pairs scored `k / 2` points (0, ½, 1, 1½, 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs per score, from 0 to 2 points by halves.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds a pair in which the first player scored `half_points / 2` points (0..=4).
    pub fn add(&mut self, half_points: u8) {
        self.counts[half_points.min(4) as usize] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean score per game, in [0, 1] (½ with no pair).
    pub fn mean(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        self.counts.iter().enumerate().map(|(k, &c)| c as f64 * k as f64 / 4.0).sum::<f64>() / n as f64
    }

    /// Variance of one pair's mean score (the pair's points / 2).
    pub fn variance(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.0;
        }
        let mu = self.mean();
        self.counts.iter().enumerate().map(|(k, &c)| c as f64 * (k as f64 / 4.0 - mu).powi(2)).sum::<f64>() / n as f64
    }

    /// Standard error of [`Pentanomial::mean`].
    pub fn std_error(&self) -> f64 {
        (self.variance() / self.pairs().max(1) as f64).sqrt()
    }
}

/// The Elo difference that gives an expected score `s` (±∞ at 1 and 0).
pub fn elo_of_score(s: f64) -> f64 {
    if s >= 1.0 {
        f64::INFINITY
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// The complementary error function (Numerical Recipes' `erfcc`, relative
/// error below 1.2·10⁻⁷ everywhere).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// Elo, normalized Elo and likelihood of superiority of a match, from its
/// pentanomial counts (the fastchess formulas).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Mean score per game of the first player.
    pub score: f64,
    /// Elo difference (first minus second).
    pub elo: f64,
    /// 95% interval of the Elo difference.
    pub elo_lo: f64,
    /// Upper end of the 95% interval.
    pub elo_hi: f64,
    /// Normalized Elo: `(score − ½) / √(2·var_pair) · 800 / ln 10`.
    pub nelo: f64,
    /// Half-width of its 95% interval.
    pub nelo_err: f64,
    /// Likelihood of superiority: `Φ((score − ½) / standard error)`.
    pub los: f64,
}

impl Estimate {
    /// The estimate of a match (all ±∞ or NaN-free: degenerate matches give
    /// infinite Elo and a LOS of 0, ½ or 1).
    pub fn of(p: &Pentanomial) -> Estimate {
        let mu = p.mean();
        let se = p.std_error();
        let (mut lo, mut hi) = ((mu - Z95 * se).clamp(0.0, 1.0), (mu + Z95 * se).clamp(0.0, 1.0));
        // A sweep (every pair won, or every pair lost) has no spread to
        // measure: its bound is Wilson's for n pairs all alike, n / (n + z²).
        let n = p.pairs() as f64;
        if se == 0.0 && n > 0.0 && (mu == 1.0 || mu == 0.0) {
            let wilson = n / (n + Z95 * Z95);
            if mu == 1.0 {
                lo = wilson;
            } else {
                hi = 1.0 - wilson;
            }
        }
        let sd_pair = p.variance().sqrt();
        let k = 800.0 / std::f64::consts::LN_10 / std::f64::consts::SQRT_2;
        let (nelo, nelo_err) = if sd_pair > 0.0 {
            ((mu - 0.5) / sd_pair * k, Z95 * k / (p.pairs() as f64).sqrt())
        } else if mu > 0.5 {
            // Every pair scored alike: a sweep is infinitely many deviations away.
            (f64::INFINITY, f64::INFINITY)
        } else if mu < 0.5 {
            (f64::NEG_INFINITY, f64::INFINITY)
        } else {
            (0.0, f64::INFINITY)
        };
        let los = if se > 0.0 {
            normal_cdf((mu - 0.5) / se)
        } else if mu > 0.5 {
            1.0
        } else if mu < 0.5 {
            0.0
        } else {
            0.5
        };
        Estimate {
            score: mu,
            elo: elo_of_score(mu),
            elo_lo: elo_of_score(lo),
            elo_hi: elo_of_score(hi),
            nelo,
            nelo_err,
            los,
        }
    }
}

/// What an SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtResult {
    /// The log-likelihood ratio rose above its upper bound: accept `elo1`.
    H1,
    /// It fell below its lower bound: accept `elo0`.
    H0,
}

impl fmt::Display for SprtResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtResult::H1 => "H1 accepted",
            SprtResult::H0 => "H0 accepted",
        })
    }
}

/// The Elo scale of an SPRT's hypotheses, as fishtest's `elo_model`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo: the hypotheses fix the expected score (`LLR_logistic`).
    Logistic,
    /// Normalized Elo: the hypotheses fix the t-value of the pair scores,
    /// `(mean − ½) / σ_pair`, as `nElo · √2 · ln 10 / 800` (`LLR_normalized`).
    Normalized,
}

/// A sequential probability ratio test of `elo0` against `elo1` with error
/// rates `alpha` and `beta`, on pentanomial counts: the generalized SPRT of
/// fishtest (`LLR_logistic` or `LLR_normalized` of its `LLRcalc`).
///
/// The log-likelihood ratio is that of the two maximum-likelihood
/// pentanomial distributions satisfying H0 and H1 (expected score of
/// `elo0` and `elo1`, or t-value of `elo0` and `elo1` normalized Elo) given
/// the observed pair frequencies; before the frequencies are used, every
/// empty class gets a count of 10⁻³ (fishtest's regularization), so the
/// first pairs, all alike, give a ratio near zero instead of resting on a
/// degenerate variance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// The scale of `elo0` and `elo1`.
    pub model: EloModel,
}

/// The largest |elo0|, |elo1| an SPRT accepts (logistic: an expected score
/// of 0.997; normalized: a t-value per pair of 4.1).
pub const SPRT_MAX_ELO: f64 = 1000.0;

/// The count given to an empty pentanomial class (fishtest's regularization).
const REGULARIZATION: f64 = 1e-3;

/// Normalized Elo per unit of t-value per game (`800 / ln 10`).
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The scores of a pair (0, ¼, ½, ¾, 1), the support of the pentanomial.
fn pair_score(i: usize) -> f64 {
    i as f64 / 4.0
}

/// Mean and variance of a distribution on the pair scores.
fn moments(q: &[f64; 5]) -> (f64, f64) {
    let mu: f64 = (0..5).map(|i| q[i] * pair_score(i)).sum();
    (mu, (0..5).map(|i| q[i] * (pair_score(i) - mu).powi(2)).sum())
}

/// The maximum-likelihood distribution `p_i / (1 + x·d_i)` given the
/// observed frequencies `p` (all positive, summing to 1) under the
/// constraint `Σ q_i·d_i = 0`, where `x` solves the secular equation
/// `Σ p_i·d_i / (1 + x·d_i) = 0` of Van den Bergh's note on the multinomial
/// MLE. The left side decreases in `x` on the interval where every
/// denominator is positive, so a safeguarded Newton iteration inside that
/// bracket finds the root. `None` if the `d_i` do not take both signs (no
/// distribution satisfies the constraint).
fn secular_mle(p: &[f64; 5], d: &[f64; 5]) -> Option<[f64; 5]> {
    let (lo_d, hi_d) = d.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
    if !(lo_d < 0.0 && hi_d > 0.0) {
        return None;
    }
    let f = |x: f64| d.iter().zip(p).map(|(di, pi)| pi * di / (1.0 + x * di)).sum::<f64>();
    let df = |x: f64| -d.iter().zip(p).map(|(di, pi)| pi * di * di / (1.0 + x * di).powi(2)).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / hi_d, -1.0 / lo_d);
    let mut x = 0.0;
    for _ in 0..200 {
        let fx = f(x);
        if fx == 0.0 {
            break;
        }
        if fx > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let newton = x - fx / df(x);
        let next = if newton > lo && newton < hi { newton } else { lo + (hi - lo) / 2.0 };
        if (next - x).abs() <= 1e-15 * (1.0 + x.abs()) {
            x = next;
            break;
        }
        x = next;
    }
    Some(std::array::from_fn(|i| p[i] / (1.0 + x * d[i])))
}

/// The maximum-likelihood distribution with expected score `s` (in (0, 1)).
fn mle_with_mean(p: &[f64; 5], s: f64) -> [f64; 5] {
    let d = std::array::from_fn(|i| pair_score(i) - s);
    secular_mle(p, &d).unwrap_or(*p)
}

/// The maximum-likelihood distribution with t-value `(mean − ½) / σ = t`:
/// fishtest's fixed point (`MLE_t_value`), each step an MLE with the
/// constraint linearized at the previous distribution, from the uniform one.
fn mle_with_t(p: &[f64; 5], t: f64) -> [f64; 5] {
    let mut q = [0.2; 5];
    for _ in 0..100 {
        let (mu, var) = moments(&q);
        let sigma = var.sqrt();
        let d = std::array::from_fn(|i| {
            let a = pair_score(i);
            a - 0.5 - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0
        });
        let Some(next) = secular_mle(p, &d) else { break };
        let change = (0..5).map(|i| (next[i] - q[i]).abs()).fold(0.0, f64::max);
        q = next;
        if change < 1e-12 {
            break;
        }
    }
    q
}

/// Why an SPRT spec was refused ([`Sprt::parse`]).
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// An item without `=`.
    NotKeyValue(String),
    /// `model=` names no model.
    Model {
        /// The item as given.
        item: String,
        /// The model named.
        model: String,
    },
    /// A value that is not a number.
    NotNumber {
        /// The item as given.
        item: String,
        /// The value.
        value: String,
    },
    /// A value that is not finite (the item as given).
    NotFinite(String),
    /// No parameter has this name.
    Unknown(String),
    /// Alpha or beta outside (0, 0.5).
    Errors {
        /// The alpha given.
        alpha: f64,
        /// The beta given.
        beta: f64,
    },
    /// An Elo beyond ±[`SPRT_MAX_ELO`].
    EloRange {
        /// The elo0 given.
        elo0: f64,
        /// The elo1 given.
        elo1: f64,
    },
    /// elo1 not above elo0.
    EloOrder {
        /// The elo0 given.
        elo0: f64,
        /// The elo1 given.
        elo1: f64,
    },
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::NotKeyValue(item) => write!(f, "`{item}`: expected key=value"),
            SprtError::Model { item, model } => write!(f, "`{item}`: model `{model}` (accepted: logistic, normalized)"),
            SprtError::NotNumber { item, value } => write!(f, "`{item}`: `{value}` is not a number"),
            SprtError::NotFinite(item) => write!(f, "`{item}`: expected a finite number"),
            SprtError::Unknown(key) => {
                write!(f, "unknown SPRT parameter `{key}` (accepted: elo0, elo1, alpha, beta, model)")
            }
            SprtError::Errors { alpha, beta } => {
                write!(f, "alpha and beta must lie in (0, 0.5) (got {alpha} and {beta})")
            }
            SprtError::EloRange { elo0, elo1 } => {
                write!(f, "elo0 and elo1 must lie in [-{SPRT_MAX_ELO}, {SPRT_MAX_ELO}] (got {elo0} and {elo1})")
            }
            SprtError::EloOrder { elo0, elo1 } => write!(f, "elo1 must be above elo0 (got {elo1} and {elo0})"),
        }
    }
}

impl std::error::Error for SprtError {}

impl Sprt {
    /// Parses `elo0=0,elo1=10,alpha=0.05,beta=0.05,model=logistic` (every key
    /// optional, in any order; the defaults are those values; `model` is
    /// `logistic` or `normalized`). Elos must lie in ±[`SPRT_MAX_ELO`] with
    /// `elo0 < elo1`; alpha and beta in (0, ½).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let mut t = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, model: EloModel::Logistic };
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (k, v) = item.split_once('=').ok_or_else(|| SprtError::NotKeyValue(item.to_string()))?;
            if k.trim() == "model" {
                t.model = match v.trim() {
                    "logistic" => EloModel::Logistic,
                    "normalized" => EloModel::Normalized,
                    other => return Err(SprtError::Model { item: item.to_string(), model: other.to_string() }),
                };
                continue;
            }
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| SprtError::NotNumber { item: item.to_string(), value: v.trim().to_string() })?;
            if !v.is_finite() {
                return Err(SprtError::NotFinite(item.to_string()));
            }
            match k.trim() {
                "elo0" => t.elo0 = v,
                "elo1" => t.elo1 = v,
                "alpha" => t.alpha = v,
                "beta" => t.beta = v,
                other => return Err(SprtError::Unknown(other.to_string())),
            }
        }
        if !(t.alpha > 0.0 && t.alpha < 0.5 && t.beta > 0.0 && t.beta < 0.5) {
            return Err(SprtError::Errors { alpha: t.alpha, beta: t.beta });
        }
        if t.elo0.abs() > SPRT_MAX_ELO || t.elo1.abs() > SPRT_MAX_ELO {
            return Err(SprtError::EloRange { elo0: t.elo0, elo1: t.elo1 });
        }
        if t.elo1 <= t.elo0 {
            return Err(SprtError::EloOrder { elo0: t.elo0, elo1: t.elo1 });
        }
        Ok(t)
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The t-value per pair of a normalized Elo.
    fn t_of_nelo(nelo: f64) -> f64 {
        nelo / NELO_PER_T * std::f64::consts::SQRT_2
    }

    /// The generalized log-likelihood ratio of the counts (0 with no pair):
    /// `N · Σ p̂_i · ln(p1_i / p0_i)`, where `p̂` are the regularized pair
    /// frequencies, `N` their regularized total and `p0`, `p1` the
    /// maximum-likelihood distributions under H0 and H1.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        let counts: [f64; 5] = p.counts.map(|c| if c == 0 { REGULARIZATION } else { c as f64 });
        let n: f64 = counts.iter().sum();
        let freq = counts.map(|c| c / n);
        let (p0, p1) = match self.model {
            EloModel::Logistic => {
                (mle_with_mean(&freq, score_of_elo(self.elo0)), mle_with_mean(&freq, score_of_elo(self.elo1)))
            }
            EloModel::Normalized => {
                (mle_with_t(&freq, Sprt::t_of_nelo(self.elo0)), mle_with_t(&freq, Sprt::t_of_nelo(self.elo1)))
            }
        };
        n * (0..5).map(|i| freq[i] * (p1[i].ln() - p0[i].ln())).sum::<f64>()
    }

    /// The decision the counts allow, if any.
    pub fn decide(&self, p: &Pentanomial) -> Option<SprtResult> {
        let (lo, hi) = self.bounds();
        let llr = self.llr(p);
        if llr >= hi {
            Some(SprtResult::H1)
        } else if llr <= lo {
            Some(SprtResult::H0)
        } else {
            None
        }
    }

    /// The expected number of pairs before a decision when the true Elo (in
    /// the test's model) is `elo` and the pair scores have variance `var`
    /// (Wald's approximation with the Brownian drift of fishtest's
    /// `LLR_drift_variance_alt2`, overshoot neglected): the expected final
    /// ratio over the drift per pair. In units where one pair's statistic
    /// has variance 1 (score / σ, or the t-value), H0 and H1 sit at `x0`,
    /// `x1` and the truth at `x`: the drift is `(x − (x0 + x1)/2)·(x1 − x0)`
    /// and the variance `(x1 − x0)²`. At the midpoint (no drift) it is
    /// `−lo·hi / σ²`.
    pub fn expected_pairs(&self, elo: f64, var: f64) -> f64 {
        let (x0, x1, x) = match self.model {
            EloModel::Logistic => {
                let sd = var.sqrt();
                (score_of_elo(self.elo0) / sd, score_of_elo(self.elo1) / sd, score_of_elo(elo) / sd)
            }
            EloModel::Normalized => (Sprt::t_of_nelo(self.elo0), Sprt::t_of_nelo(self.elo1), Sprt::t_of_nelo(elo)),
        };
        let drift = (x - (x0 + x1) / 2.0) * (x1 - x0);
        let sigma2 = (x1 - x0).powi(2);
        let (lo, hi) = self.bounds();
        if drift.abs() < 1e-9 * sigma2 {
            return -lo * hi / sigma2;
        }
        // Probability of ending at the upper bound for a Brownian motion with
        // drift `drift` and variance `sigma2` per pair between bounds lo, hi.
        let k = -2.0 * drift / sigma2;
        let p_hi = (1.0 - (k * lo).exp()) / ((k * hi).exp() - (k * lo).exp());
        (p_hi * hi + (1.0 - p_hi) * lo) / drift
    }
}

/// One agent's row of a round robin's rating table ([`fit_ratings`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo relative to the first agent (0 for it).
    pub elo: f64,
    /// Half-width of the 95% interval of [`Rating::elo`].
    pub err: f64,
    /// Games played.
    pub games: u64,
    /// Points scored per game, in [0, 1].
    pub score: f64,
}

/// Why a round robin has no rating table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FitError {
    /// The games do not link every agent to the first one.
    Disconnected,
    /// An agent or a group of agents won, or lost, every game against the
    /// rest: the likelihood has no finite maximum.
    Unbounded,
}

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FitError::Disconnected => "no rating table: the pairings do not link every agent to the first",
            FitError::Unbounded => {
                "no rating table: an agent (or a group) won or lost every game against the others, so the \
                 maximum-likelihood ratings are not finite; see the pairings above"
            }
        })
    }
}

impl std::error::Error for FitError {}

/// Maximum-likelihood Elo ratings of `n` agents from the pentanomial
/// counts of their pairings (`(a, b, counts)`, the counts from `a`'s
/// side), anchored at agent 0 = 0.
///
/// The model is Bradley–Terry on the Elo scale: `a` scores `1 / (1 +
/// 10^((r_b − r_a) / 400))` per game in expectation, a draw counting half
/// a point (the quasi-likelihood of each game's points). The maximum is
/// found by Newton's method. The 95% intervals come from the sandwich
/// (robust) covariance `H⁻¹ V H⁻¹`: `H` is the Fisher information of the
/// model, `V` the observed variance of each pairing's points counted by
/// pairs, so that colour-swapped pairs (whose two games are not
/// independent) and draws are accounted for as they happened.
pub fn fit_ratings(n: usize, pairings: &[(usize, usize, Pentanomial)]) -> Result<Vec<Rating>, FitError> {
    let k = n.saturating_sub(1);
    // Points per game, games and pair-score variance, per pairing.
    let stats: Vec<(usize, usize, f64, f64, f64)> = pairings
        .iter()
        .filter(|(_, _, p)| p.pairs() > 0)
        .map(|&(a, b, p)| {
            let games = 2.0 * p.pairs() as f64;
            // Points of a pair (0..2) vary as 4 × the pair's mean score.
            (a, b, p.mean() * games, games, 4.0 * p.variance() * p.pairs() as f64)
        })
        .collect();
    // Connected to agent 0 through played pairings?
    let mut linked = vec![false; n];
    if n > 0 {
        linked[0] = true;
        for _ in 0..n {
            for &(a, b, ..) in &stats {
                if linked[a] || linked[b] {
                    linked[a] = true;
                    linked[b] = true;
                }
            }
        }
    }
    if linked.iter().any(|l| !l) {
        return Err(FitError::Disconnected);
    }
    let scale = std::f64::consts::LN_10 / 400.0;
    let mut theta = vec![0.0f64; n];
    let mut converged = false;
    for _ in 0..200 {
        let (g, h) = gradient_and_information(n, &stats, &theta);
        let Some(step) = solve(&h, &g, k) else { return Err(FitError::Unbounded) };
        let biggest = step.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        // Damped: at most 1 (about 174 Elo) per coordinate per step.
        let damp = if biggest > 1.0 { 1.0 / biggest } else { 1.0 };
        for (t, d) in theta[1..].iter_mut().zip(&step) {
            *t += damp * d;
        }
        if theta.iter().any(|t| t.abs() * 400.0 / std::f64::consts::LN_10 > 4000.0) {
            return Err(FitError::Unbounded);
        }
        if biggest < 1e-10 {
            converged = true;
            break;
        }
    }
    if !converged {
        return Err(FitError::Unbounded);
    }
    let (_, h) = gradient_and_information(n, &stats, &theta);
    // V: each pairing's points vary by its observed variance, along e_a − e_b.
    let mut v = vec![vec![0.0; k]; k];
    for &(a, b, _, _, var) in &stats {
        for (i, si) in [(a, 1.0), (b, -1.0)] {
            for (j, sj) in [(a, 1.0), (b, -1.0)] {
                if i > 0 && j > 0 {
                    v[i - 1][j - 1] += si * sj * var;
                }
            }
        }
    }
    let hinv = invert(&h, k).ok_or(FitError::Unbounded)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let var = if i == 0 {
            0.0
        } else {
            let r = &hinv[i - 1];
            (0..k).map(|a| (0..k).map(|b| r[a] * v[a][b] * r[b]).sum::<f64>()).sum::<f64>()
        };
        let (mut points, mut games) = (0.0, 0.0);
        for &(a, b, s, g, _) in &stats {
            if a == i {
                points += s;
                games += g;
            } else if b == i {
                points += g - s;
                games += g;
            }
        }
        out.push(Rating {
            elo: theta[i] / scale,
            err: Z95 * var.max(0.0).sqrt() / scale,
            games: games as u64,
            score: if games > 0.0 { points / games } else { 0.5 },
        });
    }
    Ok(out)
}

/// The gradient of the log-likelihood in `θ_1..θ_{n-1}` and the Fisher
/// information (minus the Hessian) on those coordinates.
fn gradient_and_information(
    n: usize,
    stats: &[(usize, usize, f64, f64, f64)],
    theta: &[f64],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let k = n - 1;
    let (mut g, mut h) = (vec![0.0; k], vec![vec![0.0; k]; k]);
    for &(a, b, s, games, _) in stats {
        let p = 1.0 / (1.0 + (theta[b] - theta[a]).exp());
        let resid = s - games * p;
        let w = games * p * (1.0 - p);
        if a > 0 {
            g[a - 1] += resid;
            h[a - 1][a - 1] += w;
        }
        if b > 0 {
            g[b - 1] -= resid;
            h[b - 1][b - 1] += w;
        }
        if a > 0 && b > 0 {
            h[a - 1][b - 1] -= w;
            h[b - 1][a - 1] -= w;
        }
    }
    (g, h)
}

/// `x` with `h x = g` (Gaussian elimination with partial pivoting), `None`
/// if `h` is singular.
fn solve(h: &[Vec<f64>], g: &[f64], k: usize) -> Option<Vec<f64>> {
    let mut m: Vec<Vec<f64>> = h.iter().zip(g).map(|(r, &x)| r.iter().copied().chain([x]).collect()).collect();
    for c in 0..k {
        let p = (c..k).max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))?;
        if m[p][c].abs() < 1e-12 {
            return None;
        }
        m.swap(c, p);
        let pivot = m[c].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != c {
                let f = row[c] / pivot[c];
                for (x, y) in row.iter_mut().zip(&pivot).skip(c) {
                    *x -= f * y;
                }
            }
        }
    }
    Some((0..k).map(|r| m[r][k] / m[r][r]).collect())
}

/// The inverse of `h` (`k × k`), `None` if singular.
fn invert(h: &[Vec<f64>], k: usize) -> Option<Vec<Vec<f64>>> {
    let mut cols = Vec::with_capacity(k);
    for j in 0..k {
        let e: Vec<f64> = (0..k).map(|i| if i == j { 1.0 } else { 0.0 }).collect();
        cols.push(solve(h, &e, k)?);
    }
    // h is symmetric, so its inverse is too: columns are rows.
    Some(cols)
}

/// The rating table of a round robin, one line per agent, best first:
/// the one printer of every game's arena.
pub fn rating_table_text(names: &[String], fit: &Result<Vec<Rating>, FitError>) -> String {
    let ratings = match fit {
        Ok(r) => r,
        Err(e) => return format!("{e}\n"),
    };
    let w = names.iter().map(|n| n.chars().count()).max().unwrap_or(1).max(5);
    let mut order: Vec<usize> = (0..ratings.len()).collect();
    order.sort_by(|&a, &b| ratings[b].elo.total_cmp(&ratings[a].elo));
    let mut s = String::from(
        "ratings (maximum likelihood, Bradley–Terry on the Elo scale, first agent = 0; \
         95% sandwich intervals from the pairs' observed variance):\n",
    );
    s.push_str(&format!("{:<w$}  {:>8}  {:>7}  {:>7}  {:>6}\n", "agent", "Elo", "±95%", "games", "score"));
    for i in order {
        let r = ratings[i];
        let err = if i == 0 { "anchor".to_string() } else { format!("{:.1}", r.err) };
        s.push_str(&format!(
            "{:<w$}  {:>+8.1}  {:>7}  {:>7}  {:>5.1}%\n",
            names[i],
            r.elo,
            err,
            r.games,
            100.0 * r.score
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-600.0, -100.0, 0.0, 35.5, 400.0] {
            assert!(close(elo_of_score(score_of_elo(elo)), elo, 1e-9));
        }
        assert!(close(score_of_elo(400.0), 10.0 / 11.0, 1e-12));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(elo_of_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn normal_cdf_matches_known_values() {
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert!(close(normal_cdf(1.959_963_984_540_054), 0.975, 1e-6));
        assert!(close(normal_cdf(-1.0), 0.158_655_253_931_457, 1e-6));
        assert!(close(normal_cdf(3.0), 0.998_650_101_968_37, 1e-6));
    }

    #[test]
    fn pentanomial_moments_by_hand() {
        // 10 pairs: 1×0, 2×½, 4×1, 2×1½, 1×2 points: symmetric around 1 point.
        let p = Pentanomial { counts: [1, 2, 4, 2, 1] };
        assert_eq!(p.pairs(), 10);
        assert!(close(p.mean(), 0.5, 1e-12));
        // Pair means 0, .25, .5, .75, 1: variance (2·.0625 + 2·2·.015625·... ) by hand.
        let var = (0.25 + 2.0 * 0.0625 + 0.0 + 2.0 * 0.0625 + 0.25) / 10.0;
        assert!(close(p.variance(), var, 1e-12));
        let e = Estimate::of(&p);
        assert!(close(e.elo, 0.0, 1e-9) && close(e.los, 0.5, 1e-7) && close(e.nelo, 0.0, 1e-9));
        assert!(e.elo_lo < 0.0 && e.elo_hi > 0.0 && close(e.elo_lo, -e.elo_hi, 1e-9));
    }

    #[test]
    fn a_sweep_has_a_finite_bound() {
        // 50 pairs all won: Elo +inf, but at least the Elo of 50/(50+z²).
        let won = Estimate::of(&Pentanomial { counts: [0, 0, 0, 0, 50] });
        assert_eq!(won.elo, f64::INFINITY);
        let bound = elo_of_score(50.0 / (50.0 + Z95 * Z95));
        assert!(close(won.elo_lo, bound, 1e-9) && won.elo_lo > 440.0 && won.elo_lo < 450.0, "{}", won.elo_lo);
        let lost = Estimate::of(&Pentanomial { counts: [50, 0, 0, 0, 0] });
        assert!(close(lost.elo_hi, -bound, 1e-9) && lost.elo_lo == f64::NEG_INFINITY);
    }

    #[test]
    fn estimate_of_a_winning_match() {
        // 100 pairs, mostly 1½: score 0.6625.
        let p = Pentanomial { counts: [0, 5, 30, 50, 15] };
        let e = Estimate::of(&p);
        assert!(close(e.score, (5.0 * 0.25 + 30.0 * 0.5 + 50.0 * 0.75 + 15.0) / 100.0, 1e-12));
        assert!(close(e.elo, elo_of_score(e.score), 1e-12));
        let se = (p.variance() / 100.0).sqrt();
        assert!(close(e.elo_lo, elo_of_score(e.score - Z95 * se), 1e-9));
        assert!(close(e.elo_hi, elo_of_score(e.score + Z95 * se), 1e-9));
        assert!(e.elo_lo > 0.0 && e.los > 0.999);
        let nelo = (e.score - 0.5) / (2.0 * p.variance()).sqrt() * 800.0 / std::f64::consts::LN_10;
        assert!(close(e.nelo, nelo, 1e-9));
    }

    #[test]
    fn degenerate_matches_do_not_panic() {
        let e = Estimate::of(&Pentanomial { counts: [0, 0, 0, 0, 7] });
        assert_eq!((e.elo, e.los), (f64::INFINITY, 1.0));
        // A sweep has no spread: its normalized Elo is as infinite as its Elo.
        assert_eq!((e.nelo, e.nelo_err), (f64::INFINITY, f64::INFINITY));
        let e = Estimate::of(&Pentanomial { counts: [7, 0, 0, 0, 0] });
        assert_eq!((e.elo, e.nelo, e.los), (f64::NEG_INFINITY, f64::NEG_INFINITY, 0.0));
        let e = Estimate::of(&Pentanomial { counts: [0, 0, 7, 0, 0] });
        assert_eq!((e.nelo, e.los), (0.0, 0.5));
        let e = Estimate::of(&Pentanomial::default());
        assert_eq!((e.score, e.los), (0.5, 0.5));
    }

    #[test]
    fn sprt_bounds_llr_and_decisions() {
        let t = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        let (lo, hi) = t.bounds();
        assert!(close(lo, -2.944_438_979, 1e-6) && close(hi, 2.944_438_979, 1e-6));
        // At the midpoint score the ratio is zero.
        let mid = (score_of_elo(0.0) + score_of_elo(10.0)) / 2.0;
        let p = Pentanomial { counts: [10, 20, 40, 20, 10] };
        assert!(t.llr(&p) < 0.0 && p.mean() < mid);
        // A clearly stronger first player is accepted, a clearly weaker one rejected.
        assert_eq!(t.decide(&Pentanomial { counts: [0, 10, 100, 300, 90] }), Some(SprtResult::H1));
        assert_eq!(t.decide(&Pentanomial { counts: [90, 300, 100, 10, 0] }), Some(SprtResult::H0));
        assert_eq!(t.decide(&Pentanomial { counts: [1, 2, 4, 2, 1] }), None);
        // For many pairs the exact ratio is close to its Brownian approximation
        // N·(s1 − s0)·(2·mean − s0 − s1) / (2·var) (fishtest's LLR_alt2).
        let q = Pentanomial { counts: [50, 200, 400, 200, 60] };
        let (s0, s1) = (0.5, score_of_elo(10.0));
        let approx = 910.0 * (s1 - s0) * (2.0 * q.mean() - s0 - s1) / (2.0 * q.variance());
        assert!(close(t.llr(&q), approx, 0.02 * approx.abs()), "{} vs {approx}", t.llr(&q));
    }

    #[test]
    fn first_pairs_are_regularized() {
        // One or a few equal pairs decide nothing (the old variance floor gave −25).
        let t = Sprt::parse("elo0=0,elo1=50").unwrap();
        for k in 0..5 {
            for n in 1..=3 {
                let mut p = Pentanomial::default();
                p.counts[k] = n;
                assert_eq!(t.decide(&p), None, "{p:?}: LLR {}", t.llr(&p));
                assert!(t.llr(&p).is_finite());
            }
        }
        // A run of wins ends in H1, a run of losses in H0, and not after one pair.
        let wins = |n| Pentanomial { counts: [0, 0, 0, 0, n] };
        let losses = |n| Pentanomial { counts: [n, 0, 0, 0, 0] };
        assert_eq!(t.decide(&wins(40)), Some(SprtResult::H1));
        assert_eq!(t.decide(&losses(40)), Some(SprtResult::H0));
        assert!(t.llr(&wins(2)) > 0.0 && t.llr(&losses(2)) < 0.0);
        assert_eq!(Sprt::parse("").unwrap().llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn mle_has_the_requested_mean() {
        let freq = [0.1, 0.2, 0.4, 0.2, 0.1];
        for s in [0.01, 0.3, 0.5, 0.57, 0.99] {
            let q = mle_with_mean(&freq, s);
            let total: f64 = q.iter().sum();
            let mean: f64 = q.iter().enumerate().map(|(i, x)| x * i as f64 / 4.0).sum();
            assert!(close(total, 1.0, 1e-9) && close(mean, s, 1e-9), "{s}: {q:?}");
        }
    }

    #[test]
    fn mle_has_the_requested_t_value() {
        let freq = [0.05, 0.2, 0.45, 0.22, 0.08];
        for t in [-0.5, -0.05, 0.0, 0.1, 0.4] {
            let q = mle_with_t(&freq, t);
            let (mu, var) = moments(&q);
            assert!(close(q.iter().sum(), 1.0, 1e-9), "{t}: {q:?}");
            assert!(close((mu - 0.5) / var.sqrt(), t, 1e-6), "{t}: {q:?}");
        }
    }

    #[test]
    fn normalized_model() {
        let t = Sprt::parse("elo0=0,elo1=5,model=normalized").unwrap();
        assert_eq!(t.model, EloModel::Normalized);
        assert!(Sprt::parse("model=bayesian").is_err());
        // The first pair decides nothing; a long run of wins or losses does.
        for k in 0..5 {
            let mut p = Pentanomial::default();
            p.counts[k] = 1;
            assert_eq!(t.decide(&p), None, "{p:?}");
        }
        let t = Sprt::parse("elo0=0,elo1=50,model=normalized").unwrap();
        assert_eq!(t.decide(&Pentanomial { counts: [0, 10, 100, 300, 90] }), Some(SprtResult::H1));
        assert_eq!(t.decide(&Pentanomial { counts: [90, 300, 100, 10, 0] }), Some(SprtResult::H0));
        // Near the hypotheses the ratio matches its Brownian approximation
        // N·(t1 − t0)·(t̂ − (t0 + t1)/2) with t̂ the observed t-value per pair.
        let q = Pentanomial { counts: [50, 200, 400, 200, 60] };
        let that = (q.mean() - 0.5) / q.variance().sqrt();
        let (t0, t1) = (0.0, Sprt::t_of_nelo(50.0));
        let approx = 910.0 * (t1 - t0) * (that - (t0 + t1) / 2.0);
        assert!(close(t.llr(&q), approx, 0.05 * approx.abs()), "{} vs {approx}", t.llr(&q));
    }

    #[test]
    fn expected_pairs_is_symmetric_and_finite() {
        let t = Sprt::parse("elo0=0,elo1=50").unwrap();
        let (n0, n1) = (t.expected_pairs(0.0, 0.05), t.expected_pairs(50.0, 0.05));
        assert!(n0 > 0.0 && close(n0, n1, 1e-6 * n0), "{n0} {n1}");
        // The midpoint takes longest, and its limit is continuous.
        let mid = elo_of_score((score_of_elo(0.0) + score_of_elo(50.0)) / 2.0);
        let nm = t.expected_pairs(mid, 0.05);
        assert!(nm > n0 && close(nm, t.expected_pairs(mid + 1e-3, 0.05), 1e-3 * nm), "{nm}");
    }

    #[test]
    fn sprt_parse_errors() {
        assert!(Sprt::parse("").is_ok());
        for bad in [
            "elo0=5,elo1=5",
            "elo0=6,elo1=5",
            "alpha=0",
            "alpha=1",
            "alpha=-0.1",
            "beta=0.7",
            "beta=NaN",
            "elo1=nan",
            "elo1=inf",
            "elo1=5000",
            "gamma=1",
            "elo1=x",
            "elo1",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
    }

    fn penta(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    #[test]
    fn two_agents_fit_the_match_elo_and_three_recover_a_ladder() {
        // Two agents: the fit is the match's own Elo.
        let p = penta([10, 20, 40, 20, 30]);
        let r = fit_ratings(2, &[(0, 1, p)]).unwrap();
        assert!((r[1].elo + elo_of_score(p.mean())).abs() < 1e-6, "{r:?}");
        assert_eq!(r[0].elo, 0.0);
        // The interval is the pentanomial's (delta method) to first order.
        let e = Estimate::of(&p);
        let half = (e.elo_hi - e.elo_lo) / 2.0;
        assert!((r[1].err - half).abs() / half < 0.1, "{} vs {half}", r[1].err);
        // Three agents with consistent pairwise scores: the ratings chain.
        let s = |elo: f64| {
            // 1000 pairs without draws whose mean score is that of `elo`.
            let m = score_of_elo(elo);
            let n = 1000.0;
            penta([
                ((1.0 - m) * (1.0 - m) * n).round() as u64,
                0,
                (2.0 * m * (1.0 - m) * n).round() as u64,
                0,
                (m * m * n).round() as u64,
            ])
        };
        let r = fit_ratings(3, &[(0, 1, s(-100.0)), (1, 2, s(-100.0)), (0, 2, s(-200.0))]).unwrap();
        assert!((r[1].elo - 100.0).abs() < 3.0 && (r[2].elo - 200.0).abs() < 3.0, "{r:?}");
        assert!(r[2].err > 0.0 && r[2].err < 40.0, "{r:?}");
    }

    #[test]
    fn sweeps_and_gaps_give_no_table() {
        let sweep = penta([0, 0, 0, 0, 50]);
        let even = penta([5, 10, 20, 10, 5]);
        assert_eq!(fit_ratings(3, &[(0, 1, sweep), (0, 2, sweep), (1, 2, even)]), Err(FitError::Unbounded));
        assert_eq!(fit_ratings(3, &[(0, 1, even)]), Err(FitError::Disconnected));
        let t = rating_table_text(&["a".into(), "b".into(), "c".into()], &Err(FitError::Unbounded));
        assert!(t.starts_with("no rating table: an agent"), "{t}");
    }
}
