//! One-sided tests by betting (Waudby-Smith and Ramdas, "Estimating means
//! of bounded random variables by betting", J. R. Stat. Soc. B 86(1),
//! 2024, §4–5): the capital process of a bettor against the null "the mean
//! is at most m" (or "at least m") of observations in [0, 1],
//!
//! ```text
//! up:    Kₜ = Πᵢ≤ₜ (1 + λᵢ (Xᵢ − m)),   λᵢ ∈ [0, c/m]        (null: μ ≤ m)
//! down:  Kₜ = Πᵢ≤ₜ (1 − λᵢ (Xᵢ − m)),   λᵢ ∈ [0, c/(1 − m)]  (null: μ ≥ m)
//! ```
//!
//! is a non-negative supermartingale under its null for any predictable
//! bets, so by Ville's inequality P(∃t: Kₜ ≥ 1/a) ≤ a: the test rejects
//! (certifies μ > m, or μ < m) once the capital reaches 1/a, and may be
//! looked at after every observation. The bets are the paper's
//! approximate GRAPA (its §5.1, "aGRAPA"): λₜ = (μ̂ₜ₋₁ − m) / (σ̂²ₜ₋₁ +
//! (μ̂ₜ₋₁ − m)²) for `up` (its negative for `down`), clipped to the range
//! above with c = ½, from the predictable estimates of
//! [`super::cs::Sequence`]; this grows the capital near the best constant
//! bet's rate, so a mean at distance g from m is certified after about
//! 2σ² log(1/a) / g² observations.
//!
//! This module only computes.

use super::cs::MAX_BET;

/// A one-sided test of "μ ≤ m" (`up`: rejecting certifies μ > m) or of
/// "μ ≥ m" (down: rejecting certifies μ < m).
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeTest {
    m: f64,
    up: bool,
    log_capital: f64,
    log_threshold: f64,
    rejected: bool,
}

impl EdgeTest {
    /// A test at `m` in (0, 1) rejecting at capital 1/`a`.
    pub fn new(m: f64, up: bool, a: f64) -> EdgeTest {
        EdgeTest { m, up, log_capital: 0.0, log_threshold: (1.0 / a).ln(), rejected: false }
    }

    /// Whether the null was rejected (at some time: it stays rejected).
    pub fn rejected(&self) -> bool {
        self.rejected
    }

    /// The bet before an observation, from the predictable estimates μ̂ₜ₋₁
    /// and σ̂²ₜ₋₁.
    fn bet(&self, mean: f64, var: f64) -> f64 {
        let d = if self.up { mean - self.m } else { self.m - mean };
        let raw = d / (var + d * d);
        let cap = if self.up { MAX_BET / self.m } else { MAX_BET / (1.0 - self.m) };
        raw.clamp(0.0, cap)
    }

    /// Adds observation `x` in [0, 1] with the estimates before it.
    pub fn push(&mut self, x: f64, prior_mean: f64, prior_var: f64) {
        let lambda = self.bet(prior_mean, prior_var);
        let step = if self.up { lambda * (x - self.m) } else { -lambda * (x - self.m) };
        self.log_capital += step.ln_1p();
        if self.log_capital >= self.log_threshold {
            self.rejected = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::cs::Sequence;
    use testkit::SplitMix64;

    fn run(mu_win: f64, m: f64, up: bool, n: usize, seed: u64) -> bool {
        let mut rng = SplitMix64::new(seed);
        let mut s = Sequence::new(0.5).unwrap();
        let mut t = EdgeTest::new(m, up, 0.05);
        for _ in 0..n {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let x = if u < mu_win { 1.0 } else { 0.0 };
            t.push(x, s.prior_mean(), s.prior_var());
            s.push(x);
        }
        t.rejected()
    }

    #[test]
    fn certifies_a_clear_difference() {
        assert!(run(0.6, 0.5, true, 3000, 1));
        assert!(run(0.4, 0.5, false, 3000, 2));
    }

    /// Under the null (μ exactly m) the test rejects in at most about a of
    /// the runs (a = 0.05, 300 runs of 2 000 observations).
    #[test]
    fn keeps_its_level_under_the_null() {
        let mut rejected = 0;
        for seed in 0..300 {
            rejected += run(0.5, 0.5, seed % 2 == 0, 2000, seed) as u64;
        }
        assert!(crate::stats::wilson(rejected, 300).0 <= 0.05, "{rejected}");
    }
}
