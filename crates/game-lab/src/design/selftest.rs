//! `senat design --selftest`: the decision code of [`super::decide`] run on
//! planted truths, to measure its family-wise error and the games it saves.
//!
//! Each instance is a synthetic family of variants whose game outcomes
//! (first player's score 1, ½ or 0) have known probabilities, draws
//! included: one variant's mean lies exactly on an edge of the band, one
//! within 0.005 of an edge, the others anywhere in [0.25, 0.75]. Games are
//! drawn with common random numbers, as the real command plays them: game
//! `j` of every variant of an instance reads the same uniform number `u`
//! (score 1 if `u < win`, ½ if `u < win + draw`, else 0). An instance errs
//! if any of its variants gets a wrong verdict ([`Zone::right_for`]: with a
//! tolerance Z, an `in` whose mean is outside [lo − Z, hi + Z] or an `out`
//! whose mean is inside [lo + Z, hi − Z]; with Z = 0, outside or inside
//! the band).
//!
//! Two uniform allocations are counted beside the adaptive one, both at
//! the same per-variant cap and the same tolerance:
//! - round-robin: the same confidence sequences and verdicts, but every
//!   variant plays every round until all are decided (no elimination): its
//!   verdicts are the adaptive ones exactly (an interval only narrows), so
//!   its error is the same, and its games are variants × the longest
//!   stopping time (capped);
//! - fixed-n Hoeffding: one non-sequential Hoeffding interval per variant at
//!   the same α, every variant given the same n games: the n that decides
//!   every variant it can within the cap, i.e. the largest, over the
//!   variants whose need is at most the cap, of the smallest n at which the
//!   half-width √(log(2/α)/(2n)) reaches the largest half-width that
//!   decides the variant's true mean ([`Zone::decisive_half_width`]: with
//!   Z = 0, its distance to the nearest edge; an oracle's n: it knows the truths, and a half-width
//!   equal to the distance decides only about half the time, both of which
//!   favour it).
//!
//! This module draws only from its own seeded generator; it plays no game
//! and writes no file.

use super::decide::{Band, BandError, Column, Design, DesignError, Plan, RoundObs, Verdict, Zone, run_rounds};
use crate::stats::wilson;
use game_search::rng::rng_from_seed;
use rand::RngExt;

/// What a self-test runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Planted instances.
    pub instances: u64,
    /// Family-wise error budget δ of every instance.
    pub delta: f64,
    /// Games per variant at most.
    pub cap: u64,
    /// Games per variant in a round.
    pub round: u64,
    /// The seed of the truths and the games.
    pub seed: u64,
    /// The tolerance Z of every verdict and every error (0: none).
    pub tolerance: f64,
}

/// The narrowest planted band's width: a tolerance may be at most half of it.
pub const NARROWEST_BAND: f64 = 0.04;

impl Config {
    /// Whether the tolerance makes a zone of every planted band (at most
    /// half the narrowest band's width, [`NARROWEST_BAND`]).
    pub fn check(&self) -> Result<(), BandError> {
        let half = NARROWEST_BAND / 2.0;
        Zone::new(Band { lo: 0.5 - half, hi: 0.5 + half }, self.tolerance)
            .map(|_| ())
            .map_err(|e| BandError(format!("the planted bands are {NARROWEST_BAND} wide at the narrowest: {e}")))
    }
}

impl Default for Config {
    fn default() -> Config {
        Config { instances: 200, delta: 0.05, cap: 20_000, round: 50, seed: 59, tolerance: 0.0 }
    }
}

/// One planted variant: outcome probabilities of the first player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Truth {
    /// P(first player wins).
    pub win: f64,
    /// P(draw).
    pub draw: f64,
}

impl Truth {
    /// The first player's mean score.
    pub fn mean(&self) -> f64 {
        self.win + self.draw / 2.0
    }

    /// The score of a game that read uniform number `u`.
    pub fn score(&self, u: f64) -> f64 {
        if u < self.win {
            1.0
        } else if u < self.win + self.draw {
            0.5
        } else {
            0.0
        }
    }
}

/// A planted instance: a band and its variants.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// The target band of the first player's score.
    pub band: Band,
    /// The variants' truths.
    pub truths: Vec<Truth>,
}

/// A truth of mean `m` with a draw rate near `d` (cut to what `m` allows).
fn truth(m: f64, d: f64) -> Truth {
    let d = d.min(2.0 * m).min(2.0 * (1.0 - m));
    Truth { win: m - d / 2.0, draw: d }
}

/// Instance `i` of seed `seed`: 6 to 12 variants, a band of width 0.04,
/// 0.06 or 0.10 around 0.47 to 0.53, one variant on an edge, one within
/// 0.005 of an edge, the rest uniform in [0.25, 0.75]; draw rates up to 0.3.
pub fn instance(seed: u64, i: u64) -> Instance {
    let mut rng = rng_from_seed(crate::runner::game_seed(seed, i));
    let k = 6 + rng.random_range(0..7usize);
    let width = [0.04, 0.06, 0.10][rng.random_range(0..3usize)];
    let centre = 0.47 + 0.06 * rng.random::<f64>();
    let band = Band { lo: centre - width / 2.0, hi: centre + width / 2.0 };
    let mut truths = Vec::with_capacity(k);
    for j in 0..k {
        let d = 0.3 * rng.random::<f64>();
        let edge = if rng.random::<bool>() { band.lo } else { band.hi };
        let m = match j {
            0 => edge,
            1 => edge + 0.005 * (2.0 * rng.random::<f64>() - 1.0),
            _ => 0.25 + 0.5 * rng.random::<f64>(),
        };
        truths.push(truth(m, d));
    }
    Instance { band, truths }
}

/// What one instance gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Whether some variant got a wrong verdict.
    pub erred: bool,
    /// Games the adaptive allocation played.
    pub adaptive: u64,
    /// Games of round-robin to every variant until all decided (capped).
    pub round_robin: u64,
    /// Games of the fixed-n Hoeffding allocation.
    pub fixed: u64,
    /// Variants decided.
    pub decided: usize,
    /// Variants.
    pub variants: usize,
}

/// Runs instance `inst` with `cfg` through the one decision loop (an
/// error when δ or the tolerance make no design of its band).
pub fn run_instance(inst: &Instance, cfg: &Config, index: u64) -> Result<Outcome, DesignError> {
    let k = inst.truths.len();
    let column = Column { bands: vec![inst.band], cost: 1 };
    let mut d = Design::with_tolerance(k, vec![column], cfg.delta, cfg.tolerance)?;
    let zone = *d.cell(0, 0, 0).zone();
    let plan = Plan { round: cfg.round, budget: u64::MAX, per_pair: cfg.cap };
    let mut rng = rng_from_seed(crate::runner::game_seed(cfg.seed ^ 0x5E1F_7E57, index));
    // The stopping time of each variant (games when decided; cap if never).
    let mut stopped = vec![None; k];
    let (_, games) = run_rounds::<()>(&mut d, &plan, |_, pairs| {
        // One uniform number per game of the round, shared by every variant.
        let us: Vec<f64> = (0..cfg.round).map(|_| rng.random::<f64>()).collect();
        Ok(pairs
            .iter()
            .map(|&(v, _)| us.iter().map(|&u| vec![inst.truths[v].score(u)]).collect())
            .collect::<RoundObs>())
    })
    .expect("planted games never fail");
    let mut erred = false;
    let mut decided = 0;
    for (v, t) in inst.truths.iter().enumerate() {
        let verdict = d.cell(v, 0, 0).verdict();
        erred |= !zone.right_for(verdict, t.mean());
        if verdict != Verdict::Undecided {
            decided += 1;
            stopped[v] = Some(games[v]);
        }
    }
    let longest = if decided == k { stopped.iter().flatten().copied().max().unwrap_or(0) } else { cfg.cap };
    let round_robin = k as u64 * longest;
    let alpha = d.alpha();
    let need = |gap: f64| ((2.0 / alpha).ln() / (2.0 * gap * gap)).ceil() as u64;
    let hardest = inst
        .truths
        .iter()
        .map(|t| zone.decisive_half_width(t.mean()))
        .filter(|&g| g > 1e-12)
        .map(need)
        .filter(|&n| n <= cfg.cap)
        .max()
        .unwrap_or(0);
    let fixed = k as u64 * hardest;
    Ok(Outcome { erred, adaptive: games.iter().sum(), round_robin, fixed, decided, variants: k })
}

/// A self-test's totals.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The configuration run.
    pub config: Config,
    /// Instances that erred.
    pub errors: u64,
    /// Games of the adaptive allocation, all instances.
    pub adaptive: u64,
    /// Games of round-robin, all instances.
    pub round_robin: u64,
    /// Games of fixed-n Hoeffding, all instances.
    pub fixed: u64,
    /// Variants decided, all instances.
    pub decided: u64,
    /// Variants, all instances.
    pub variants: u64,
}

impl Report {
    /// The observed family-wise error and its Wilson 95% interval.
    pub fn error(&self) -> (f64, f64, f64) {
        let (lo, hi) = wilson(self.errors, self.config.instances);
        (self.errors as f64 / self.config.instances.max(1) as f64, lo, hi)
    }

    /// Round-robin's games over the adaptive ones.
    pub fn savings(&self) -> f64 {
        self.round_robin as f64 / self.adaptive.max(1) as f64
    }

    /// Fixed-n Hoeffding's games over the adaptive ones.
    pub fn savings_fixed(&self) -> f64 {
        self.fixed as f64 / self.adaptive.max(1) as f64
    }
}

/// Runs the self-test (an error when δ or the tolerance are refused:
/// [`Config::check`]).
pub fn run(cfg: &Config) -> Result<Report, DesignError> {
    use rayon::prelude::*;
    cfg.check().map_err(DesignError::Zone)?;
    let outs: Vec<Outcome> = (0..cfg.instances)
        .into_par_iter()
        .map(|i| run_instance(&instance(cfg.seed, i), cfg, i))
        .collect::<Result<_, _>>()?;
    let mut r = Report { config: *cfg, errors: 0, adaptive: 0, round_robin: 0, fixed: 0, decided: 0, variants: 0 };
    for o in outs {
        r.errors += o.erred as u64;
        r.adaptive += o.adaptive;
        r.round_robin += o.round_robin;
        r.fixed += o.fixed;
        r.decided += o.decided as u64;
        r.variants += o.variants as u64;
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_are_what_they_say() {
        for i in 0..50 {
            let inst = instance(1, i);
            assert!((6..=12).contains(&inst.truths.len()));
            let m0 = inst.truths[0].mean();
            assert!((m0 - inst.band.lo).abs() < 1e-12 || (m0 - inst.band.hi).abs() < 1e-12);
            for t in &inst.truths {
                assert!(t.win >= -1e-12 && t.draw >= 0.0 && t.win + t.draw <= 1.0 + 1e-12, "{t:?}");
            }
        }
        assert_eq!(instance(3, 4), instance(3, 4));
    }

    #[test]
    fn a_small_selftest_keeps_its_promise() {
        let cfg = Config { instances: 20, cap: 4_000, ..Config::default() };
        let r = run(&cfg).unwrap();
        assert_eq!(r, run(&cfg).unwrap(), "the same seed gives the same report");
        assert!(r.error().1 <= cfg.delta, "{r:?}");
        assert!(r.adaptive < r.round_robin, "{r:?}");
    }

    /// With a tolerance the edge variants are decided too (no error under
    /// the tolerant definition), for fewer games; a tolerance wider than
    /// half the narrowest planted band is refused.
    #[test]
    fn a_tolerance_decides_more_for_fewer_games() {
        let exact = Config { instances: 10, cap: 4_000, ..Config::default() };
        let zoned = Config { tolerance: 0.02, ..exact };
        let (e, z) = (run(&exact).unwrap(), run(&zoned).unwrap());
        assert_eq!(z.errors, 0, "{z:?}");
        assert!(z.decided > e.decided && z.adaptive < e.adaptive, "{e:?} {z:?}");
        let wide = Config { tolerance: 0.03, ..exact };
        assert!(run(&wide).unwrap_err().to_string().contains("0.04 wide at the narrowest"));
    }
}
