//! The decisions of `senat design`: one anytime-valid confidence sequence
//! ([`Sequence`]) per variant × tier × target, each cell declared `in`
//! when its interval lies wholly inside the target's band, `out` when
//! wholly outside, `undecided` while neither; rounds of games go only to
//! the variant × tier pairs that still have an undecided cell.
//!
//! The error budget δ is split by a union bound: every cell runs at
//! α = δ / cells, half of it for its confidence sequence and half for the
//! one-sided tests by betting at the band's edges ([`Cell`]); a verdict is
//! wrong only if the sequence missed the truth (an `in` interval lies
//! inside the closed band, an `out` interval strictly outside it) or a test
//! rejected a true null, which happen with probability at most α per cell. The verdicts therefore hold
//! together with probability ≥ 1 − δ whenever the loop stops, whatever
//! the rounds, the budget or the common random numbers between variants
//! (each cell's own observations are still independent draws of its game).
//!
//! This module names no game and plays nothing: [`run_rounds`] asks a
//! caller's function for each round's observations. It writes no file.

use super::betting::EdgeTest;
use super::cs::{CsError, Sequence};
use std::fmt;

/// A closed interval of means, `lo..hi`, within [0, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// Lower edge.
    pub lo: f64,
    /// Upper edge.
    pub hi: f64,
}

/// Why a band's text is not a band.
#[derive(Clone, Debug, PartialEq)]
pub struct BandError(pub String);

impl fmt::Display for BandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BandError {}

impl Band {
    /// A band from its edges: both finite, 0 ≤ lo ≤ hi ≤ 1.
    pub fn new(lo: f64, hi: f64) -> Result<Band, BandError> {
        if !(lo.is_finite() && hi.is_finite() && 0.0 <= lo && lo <= hi && hi <= 1.0) {
            return Err(BandError(format!("a band needs 0 <= LO <= HI <= 1, got {lo}..{hi}")));
        }
        Ok(Band { lo, hi })
    }

    /// Reads `LO..HI` (e.g. `0.48..0.52`).
    pub fn parse(text: &str) -> Result<Band, BandError> {
        let Some((a, b)) = text.split_once("..") else {
            return Err(BandError(format!("`{text}`: expected LO..HI, e.g. 0.48..0.52")));
        };
        let num = |s: &str| {
            s.trim().parse::<f64>().map_err(|_| BandError(format!("`{text}`: `{s}` is not a number (expected LO..HI)")))
        };
        Band::new(num(a)?, num(b)?)
    }

    /// `lo..hi` as written in the outputs.
    pub fn text(&self) -> String {
        format!("{}..{}", self.lo, self.hi)
    }
}

/// A cell's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The interval lies inside the band.
    In,
    /// The interval lies outside the band.
    Out,
    /// Neither yet.
    Undecided,
}

impl Verdict {
    /// `in`, `out` or `undecided`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::In => "in",
            Verdict::Out => "out",
            Verdict::Undecided => "undecided",
        }
    }

    /// The verdict of interval `lo..hi` against `band`.
    pub fn of(lo: f64, hi: f64, band: Band) -> Verdict {
        if lo >= band.lo && hi <= band.hi {
            Verdict::In
        } else if hi < band.lo || lo > band.hi {
            Verdict::Out
        } else {
            Verdict::Undecided
        }
    }

    /// Whether the verdict is right for a true mean `truth` (undecided is
    /// never wrong).
    pub fn right_for(self, truth: f64, band: Band) -> bool {
        let inside = band.lo <= truth && truth <= band.hi;
        match self {
            Verdict::In => inside,
            Verdict::Out => !inside,
            Verdict::Undecided => true,
        }
    }
}

/// One variant × tier × target at per-cell error α: half of α for its
/// confidence sequence (PrPl-EB, [`Sequence`]), half for the one-sided
/// tests by betting at the band's edges ([`EdgeTest`], each rejecting at
/// capital 4/α: at most two of the four nulls are true for any mean, so a
/// wrong verdict from the tests has probability ≤ α/2).
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    band: Band,
    cs: Sequence,
    /// Tests of μ ≤ lo, μ ≥ lo, μ ≤ hi, μ ≥ hi (`None` at an edge 0 or 1).
    tests: [Option<EdgeTest>; 4],
    verdict: Verdict,
}

impl Cell {
    /// A cell with nothing observed.
    pub fn new(band: Band, alpha: f64) -> Result<Cell, CsError> {
        let cs = Sequence::new(alpha / 2.0)?;
        let a = alpha / 4.0;
        let at = |m: f64, up: bool| (m > 0.0 && m < 1.0).then(|| EdgeTest::new(m, up, a));
        let tests = [at(band.lo, true), at(band.lo, false), at(band.hi, true), at(band.hi, false)];
        Ok(Cell { band, cs, tests, verdict: Verdict::Undecided })
    }

    fn certified(&self, i: usize) -> bool {
        self.tests[i].as_ref().is_some_and(EdgeTest::rejected)
    }

    /// Adds observation `x` in [0, 1].
    pub fn push(&mut self, x: f64) {
        let x = if x.is_nan() { 0.5 } else { x.clamp(0.0, 1.0) };
        let (m, v) = (self.cs.prior_mean(), self.cs.prior_var());
        for t in self.tests.iter_mut().flatten() {
            t.push(x, m, v);
        }
        self.cs.push(x);
        if self.verdict == Verdict::Undecided {
            let (lo, hi) = self.interval();
            let above_lo = self.band.lo <= 0.0 || self.certified(0);
            let below_hi = self.band.hi >= 1.0 || self.certified(3);
            self.verdict = if self.certified(1) || self.certified(2) {
                Verdict::Out
            } else if above_lo && below_hi {
                Verdict::In
            } else {
                Verdict::of(lo, hi, self.band)
            };
        }
    }

    /// The interval shown: the confidence sequence's, narrowed by what the
    /// edge tests certified (both hold together with probability ≥ 1 − α).
    pub fn interval(&self) -> (f64, f64) {
        let (mut lo, mut hi) = self.cs.interval();
        let b = self.band;
        if self.certified(0) {
            lo = lo.max(b.lo);
        }
        if self.certified(2) {
            lo = lo.max(b.hi);
        }
        if self.certified(3) {
            hi = hi.min(b.hi);
        }
        if self.certified(1) {
            hi = hi.min(b.lo);
        }
        if lo > hi {
            let c = (lo + hi) / 2.0;
            return (c, c);
        }
        (lo, hi)
    }

    /// Observations so far.
    pub fn count(&self) -> u64 {
        self.cs.count()
    }

    /// The sample mean.
    pub fn mean(&self) -> f64 {
        self.cs.mean()
    }

    /// The verdict (fixed once decided).
    pub fn verdict(&self) -> Verdict {
        self.verdict
    }
}

/// Every cell of a design: `variants × tiers × targets`, each target a band.
#[derive(Clone, Debug, PartialEq)]
pub struct Design {
    variants: usize,
    tiers: usize,
    bands: Vec<Band>,
    alpha: f64,
    cells: Vec<Cell>,
}

impl Design {
    /// A design with nothing observed; the family-wise error `delta` is
    /// split evenly over the cells (α = δ / cells).
    pub fn new(variants: usize, tiers: usize, bands: Vec<Band>, delta: f64) -> Result<Design, CsError> {
        if !(delta > 0.0 && delta < 1.0) {
            return Err(CsError::Alpha(delta));
        }
        let n = (variants * tiers * bands.len()).max(1);
        let alpha = delta / n as f64;
        let mut cells = Vec::with_capacity(n);
        for _ in 0..variants * tiers {
            for &b in &bands {
                cells.push(Cell::new(b, alpha)?);
            }
        }
        Ok(Design { variants, tiers, bands, alpha, cells })
    }

    /// Each cell's α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The targets' bands.
    pub fn bands(&self) -> &[Band] {
        &self.bands
    }

    fn index(&self, v: usize, t: usize, k: usize) -> usize {
        (v * self.tiers + t) * self.bands.len() + k
    }

    /// The cell of variant `v`, tier `t`, target `k`.
    pub fn cell(&self, v: usize, t: usize, k: usize) -> &Cell {
        &self.cells[self.index(v, t, k)]
    }

    /// Whether variant `v` under tier `t` still has an undecided cell.
    pub fn open(&self, v: usize, t: usize) -> bool {
        (0..self.bands.len()).any(|k| self.cell(v, t, k).verdict() == Verdict::Undecided)
    }

    /// The variant × tier pairs with an undecided cell, in order.
    pub fn open_pairs(&self) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for a in 0..self.variants {
            for t in 0..self.tiers {
                if self.open(a, t) {
                    v.push((a, t));
                }
            }
        }
        v
    }

    /// Adds one game of variant `v` under tier `t`: `obs[k]` is target
    /// `k`'s observation, in [0, 1]. Every cell of the pair hears it
    /// (a decided cell keeps its verdict: its interval only narrows).
    pub fn record(&mut self, v: usize, t: usize, obs: &[f64]) {
        for (k, &x) in obs.iter().enumerate().take(self.bands.len()) {
            let i = self.index(v, t, k);
            self.cells[i].push(x);
        }
    }
}

/// When [`run_rounds`] stops playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Games per variant × tier pair in a round.
    pub round: u64,
    /// Games in all (every pair's): no round starts once this many are
    /// played (the last round may pass it by less than one round).
    pub budget: u64,
    /// Games per variant × tier pair at most (a pair that reaches it gets
    /// no more, decided or not).
    pub per_pair: u64,
}

/// Why the rounds stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every cell is decided.
    AllDecided,
    /// The game budget is spent.
    Budget,
    /// Every pair still open reached its cap.
    PairCap,
}

impl Stop {
    /// In words.
    pub fn text(self) -> &'static str {
        match self {
            Stop::AllDecided => "every cell decided",
            Stop::Budget => "the game budget is spent",
            Stop::PairCap => "every open variant reached its per-variant cap",
        }
    }
}

/// One round's observations: for each pair asked, in order, one entry per
/// game, each with one observation per target.
pub type RoundObs = Vec<Vec<Vec<f64>>>;

/// The decision loop: round `r` = 0, 1, … asks `play(r, pairs)` for
/// `plan.round` games of every open pair (games `r·round .. (r+1)·round`
/// of each: the same game seeds for every pair, common random numbers),
/// records them, and stops when every cell is decided or a limit is
/// reached. Returns why it stopped and the games played per pair
/// (variant-major, `variants × tiers`).
pub fn run_rounds<E>(
    d: &mut Design,
    plan: &Plan,
    mut play: impl FnMut(u64, &[(usize, usize)]) -> Result<RoundObs, E>,
) -> Result<(Stop, Vec<u64>), E> {
    let mut games = vec![0u64; d.variants * d.tiers];
    let mut spent = 0u64;
    let round = plan.round.max(1);
    for r in 0.. {
        let open = d.open_pairs();
        if open.is_empty() {
            return Ok((Stop::AllDecided, games));
        }
        if spent >= plan.budget {
            return Ok((Stop::Budget, games));
        }
        let open: Vec<(usize, usize)> =
            open.into_iter().filter(|&(v, t)| games[v * d.tiers + t] + round <= plan.per_pair).collect();
        if open.is_empty() {
            return Ok((Stop::PairCap, games));
        }
        let obs = play(r, &open)?;
        for (&(v, t), list) in open.iter().zip(&obs) {
            for o in list {
                d.record(v, t, o);
                games[v * d.tiers + t] += 1;
                spent += 1;
            }
        }
    }
    unreachable!("the loop returns")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_parse_and_refuse() {
        assert_eq!(Band::parse("0.48..0.52").unwrap(), Band { lo: 0.48, hi: 0.52 });
        assert!(Band::parse("0.5").is_err());
        assert!(Band::parse("0.6..0.4").is_err());
        assert!(Band::parse("x..1").is_err());
        assert!(Band::parse("0..1.5").is_err());
    }

    #[test]
    fn verdicts() {
        let b = Band { lo: 0.4, hi: 0.6 };
        assert_eq!(Verdict::of(0.45, 0.55, b), Verdict::In);
        assert_eq!(Verdict::of(0.4, 0.6, b), Verdict::In);
        assert_eq!(Verdict::of(0.61, 0.7, b), Verdict::Out);
        assert_eq!(Verdict::of(0.6, 0.7, b), Verdict::Undecided);
        assert_eq!(Verdict::of(0.3, 0.45, b), Verdict::Undecided);
        assert!(Verdict::In.right_for(0.4, b) && !Verdict::Out.right_for(0.4, b));
    }

    #[test]
    fn rounds_stop_when_decided() {
        let mut d = Design::new(2, 1, vec![Band { lo: 0.4, hi: 0.6 }], 0.05).unwrap();
        // Variant 0 always scores 1 (out), variant 1 alternates 0 and 1 (in, slowly).
        let plan = Plan { round: 10, budget: 1_000_000, per_pair: 1_000_000 };
        let (stop, games) = run_rounds::<()>(&mut d, &plan, |r, pairs| {
            Ok(pairs
                .iter()
                .map(|&(v, _)| (0..10).map(|j| vec![if v == 0 { 1.0 } else { ((r * 10 + j) % 2) as f64 }]).collect())
                .collect())
        })
        .unwrap();
        assert_eq!(stop, Stop::AllDecided);
        assert_eq!(d.cell(0, 0, 0).verdict(), Verdict::Out);
        assert_eq!(d.cell(1, 0, 0).verdict(), Verdict::In);
        assert!(games[0] < games[1], "{games:?}");
    }

    #[test]
    fn rounds_stop_at_the_budget() {
        let mut d = Design::new(1, 1, vec![Band { lo: 0.5, hi: 0.5 }], 0.05).unwrap();
        let plan = Plan { round: 7, budget: 50, per_pair: 1000 };
        let (stop, games) = run_rounds::<()>(&mut d, &plan, |_, p| Ok(vec![vec![vec![0.5]; 7]; p.len()])).unwrap();
        assert_eq!(stop, Stop::Budget);
        assert_eq!(games, vec![56]);
    }
}
