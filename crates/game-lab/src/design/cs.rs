//! Anytime-valid confidence sequences for the mean of observations in
//! [0, 1]: the predictable-mixture empirical-Bernstein confidence sequence
//! (PrPl-EB) of Waudby-Smith and Ramdas, "Estimating means of bounded
//! random variables by betting", J. R. Stat. Soc. B 86(1), 2024
//! (arXiv:2010.09686), Theorem 2 with the plug-in bets of its eq. (13).
//!
//! For observations X₁, X₂, … in [0, 1] with a common conditional mean μ
//! and a predictable sequence of bets λᵢ ∈ [0, 1),
//!
//! ```text
//! Cₜ = ( Σᵢ λᵢXᵢ / Σᵢ λᵢ )  ±  ( log(2/α) + Σᵢ vᵢ ψ_E(λᵢ) ) / Σᵢ λᵢ        (sums over i ≤ t)
//! vᵢ = 4 (Xᵢ − μ̂ᵢ₋₁)²,   ψ_E(λ) = (−log(1 − λ) − λ) / 4,
//! μ̂ₜ = (½ + Σᵢ≤ₜ Xᵢ) / (t + 1),   σ̂²ₜ = (¼ + Σᵢ≤ₜ (Xᵢ − μ̂ᵢ)²) / (t + 1),
//! λₜ = min( √(2 log(2/α) / (σ̂²ₜ₋₁ · t · log(1 + t))), c ),  c = ½,
//! ```
//!
//! satisfies P(∃t: μ ∉ Cₜ) ≤ α, so the running intersection ∩ₛ≤ₜ Cₛ (what
//! [`Sequence::interval`] returns) is also a (1 − α) confidence sequence,
//! valid at any stopping time: the decision code may look after every game
//! and stop whenever it likes. The bets only have to be predictable (a
//! function of X₁ … Xₜ₋₁) for the guarantee; the plug-in choice above makes
//! the width adapt to the variance.
//!
//! This module only computes: it never draws a sample, plays a game or
//! writes a file.

/// The largest bet (the paper's c; ½ is one of its two recommended values).
pub const MAX_BET: f64 = 0.5;

/// ψ_E(λ) = (−log(1 − λ) − λ) / 4, for λ in [0, 1).
pub fn psi_e(lambda: f64) -> f64 {
    (-(-lambda).ln_1p() - lambda) / 4.0
}

/// A running (1 − α) confidence sequence for the mean of observations in
/// [0, 1] (PrPl-EB, see the module), intersected over time.
#[derive(Clone, Debug, PartialEq)]
pub struct Sequence {
    /// log(2/α).
    log_term: f64,
    /// Observations so far (t).
    n: u64,
    /// Σ Xᵢ.
    sum: f64,
    /// Σ (Xᵢ − μ̂ᵢ)², for σ̂².
    sq: f64,
    /// Σ λᵢ.
    sum_lambda: f64,
    /// Σ λᵢXᵢ.
    sum_lambda_x: f64,
    /// Σ vᵢ ψ_E(λᵢ).
    sum_penalty: f64,
    /// The running intersection's bounds.
    lo: f64,
    hi: f64,
}

/// Why a confidence sequence cannot be made.
#[derive(Clone, Debug, PartialEq)]
pub enum CsError {
    /// α outside (0, 1).
    Alpha(f64),
}

impl std::fmt::Display for CsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CsError::Alpha(a) => write!(f, "the error level α must lie strictly between 0 and 1, got {a}"),
        }
    }
}

impl std::error::Error for CsError {}

impl Sequence {
    /// An empty sequence at level `alpha` (its interval is [0, 1]).
    pub fn new(alpha: f64) -> Result<Sequence, CsError> {
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(CsError::Alpha(alpha));
        }
        Ok(Sequence {
            log_term: (2.0 / alpha).ln(),
            n: 0,
            sum: 0.0,
            sq: 0.0,
            sum_lambda: 0.0,
            sum_lambda_x: 0.0,
            sum_penalty: 0.0,
            lo: 0.0,
            hi: 1.0,
        })
    }

    /// Observations so far.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// The plain sample mean (0.5 before any observation).
    pub fn mean(&self) -> f64 {
        if self.n == 0 { 0.5 } else { self.sum / self.n as f64 }
    }

    /// The running intersection of the intervals so far, within [0, 1].
    pub fn interval(&self) -> (f64, f64) {
        (self.lo, self.hi)
    }

    /// μ̂ₜ₋₁ = (½ + Σ Xᵢ)/t for the next observation (t = count + 1): the
    /// predictable mean estimate the bets use.
    pub fn prior_mean(&self) -> f64 {
        (0.5 + self.sum) / (self.n + 1) as f64
    }

    /// σ̂²ₜ₋₁ = (¼ + Σ (Xᵢ − μ̂ᵢ)²)/t for the next observation: the
    /// predictable variance estimate the bets use.
    pub fn prior_var(&self) -> f64 {
        (0.25 + self.sq) / (self.n + 1) as f64
    }

    /// The bet for the next observation, λₜ (t = count + 1).
    fn next_bet(&self) -> f64 {
        let t = (self.n + 1) as f64;
        (2.0 * self.log_term / (self.prior_var() * t * (1.0 + t).ln())).sqrt().min(MAX_BET)
    }

    /// Adds observation `x` (clamped into [0, 1]; a NaN counts as 0.5) and
    /// narrows the interval.
    pub fn push(&mut self, x: f64) {
        let x = if x.is_nan() { 0.5 } else { x.clamp(0.0, 1.0) };
        let lambda = self.next_bet();
        let prev_mean = self.prior_mean();
        let v = 4.0 * (x - prev_mean) * (x - prev_mean);
        self.n += 1;
        self.sum += x;
        let mean_now = (0.5 + self.sum) / (self.n + 1) as f64; // μ̂ₜ
        self.sq += (x - mean_now) * (x - mean_now);
        self.sum_lambda += lambda;
        self.sum_lambda_x += lambda * x;
        self.sum_penalty += v * psi_e(lambda);
        let centre = self.sum_lambda_x / self.sum_lambda;
        let half = (self.log_term + self.sum_penalty) / self.sum_lambda;
        self.lo = self.lo.max(centre - half);
        self.hi = self.hi.min(centre + half);
        if self.lo > self.hi {
            // The intervals of two times disagree (an event of probability
            // at most α): keep the latest interval's centre as a point.
            let c = centre.clamp(0.0, 1.0);
            self.lo = c;
            self.hi = c;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use testkit::SplitMix64;

    fn draw(rng: &mut SplitMix64, win: f64, draw: f64) -> f64 {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        if u < win {
            1.0
        } else if u < win + draw {
            0.5
        } else {
            0.0
        }
    }

    #[test]
    fn refuses_a_bad_alpha() {
        assert!(Sequence::new(0.0).is_err());
        assert!(Sequence::new(1.0).is_err());
        assert!(Sequence::new(f64::NAN).is_err());
        assert_eq!(Sequence::new(0.05).unwrap().interval(), (0.0, 1.0));
    }

    #[test]
    fn psi_is_the_papers() {
        assert_eq!(psi_e(0.0), 0.0);
        let l: f64 = 0.5;
        assert!((psi_e(l) - ((-(1.0 - l).ln()) - l) / 4.0).abs() < 1e-15);
    }

    #[test]
    fn narrows_around_the_mean() {
        let mut rng = SplitMix64::new(7);
        let mut s = Sequence::new(0.05).unwrap();
        for _ in 0..20_000 {
            s.push(draw(&mut rng, 0.4, 0.2));
        }
        let (lo, hi) = s.interval();
        assert!(lo < 0.5 && 0.5 < hi, "{lo} {hi}");
        assert!(hi - lo < 0.05, "{lo} {hi}");
    }

    /// The coverage the theorem promises, measured: at α = 0.1, over 300
    /// sequences of 2 000 observations, the truth leaves the running
    /// interval in at most α of them (plus a Wilson margin).
    #[test]
    fn covers_the_truth_at_all_times() {
        let mut rng = SplitMix64::new(59);
        let (runs, mut missed) = (300u64, 0u64);
        for r in 0..runs {
            let (w, d) = [(0.5, 0.0), (0.3, 0.4), (0.05, 0.1), (0.48, 0.04)][r as usize % 4];
            let mu = w + d / 2.0;
            let mut s = Sequence::new(0.1).unwrap();
            let mut out = false;
            for _ in 0..2_000 {
                s.push(draw(&mut rng, w, d));
                let (lo, hi) = s.interval();
                out |= mu < lo || mu > hi;
            }
            missed += out as u64;
        }
        let (lo, _) = crate::stats::wilson(missed, runs);
        assert!(lo <= 0.1, "missed {missed} of {runs}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Whatever the data: the interval stays in [0, 1], only shrinks,
        /// and holds the truth of a constant stream.
        #[test]
        fn nested_and_bounded(xs in proptest::collection::vec(0.0f64..=1.0, 1..300), alpha in 0.001f64..0.5) {
            let mut s = Sequence::new(alpha).unwrap();
            let mut prev = s.interval();
            for &x in &xs {
                s.push(x);
                let (lo, hi) = s.interval();
                prop_assert!(0.0 <= lo && lo <= hi && hi <= 1.0);
                prop_assert!(lo >= prev.0 && hi <= prev.1);
                prev = (lo, hi);
            }
            let c = xs[0];
            let mut k = Sequence::new(alpha).unwrap();
            for _ in 0..xs.len() {
                k.push(c);
            }
            let (lo, hi) = k.interval();
            prop_assert!(lo <= c + 1e-12 && c <= hi + 1e-12, "{} not in [{}, {}]", c, lo, hi);
        }
    }
}
