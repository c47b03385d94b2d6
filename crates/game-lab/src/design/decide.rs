//! The decisions of `senat design`: one anytime-valid confidence sequence
//! ([`Sequence`]) per variant × tier × target, each cell declared `in`
//! when its interval lies wholly inside the target's band, `out` when
//! wholly outside, `undecided` while neither; rounds of games go only to
//! the variant × tier pairs that still have an undecided cell.
//!
//! With a tolerance Z > 0 (an indifference zone, [`Zone`]) a cell is `in`
//! once its interval lies inside the band widened by Z at each edge, `out`
//! once it lies wholly outside the band narrowed by Z; Z = 0 is the rule
//! above exactly.
//!
//! The error budget δ is split by a union bound: every cell runs at
//! α = δ / cells, half of it for its confidence sequence and half for the
//! one-sided tests by betting at the zone's edges ([`Cell`]); a verdict is
//! wrong only if the sequence missed the truth (an `in` interval lies
//! inside the closed widened band, an `out` interval strictly outside the
//! narrowed one) or a test rejected a true null, which happen with
//! probability at most α per cell. The verdicts therefore hold
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

/// The mean score of a side that leads its opponent by `elo` Elo points
/// under the logistic model of Elo ratings: 1 / (1 + 10^(−elo/400))
/// (0 Elo: ½; 100 Elo: 0.640; −100: 0.360).
pub fn elo_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A band with an indifference zone of half-width `z` ≥ 0 at each edge
/// strictly inside (0, 1): the `outer` band (the edges moved out by z,
/// within [0, 1]) decides `in`, the `inner` band (moved in by z) decides
/// `out`. An edge at 0 or 1 does not move (no mean lies beyond it).
///
/// ```text
///        a−z   a   a+z             b−z   b   b+z
///   out ──┤    ├────┼── in or out ──┼────┤    ├── out
///         └── in: interval within [a−z, b+z] ──┘
///   out: interval wholly below a+z or wholly above b−z
/// ```
///
/// With z = 0 both are the band and the verdicts are [`Verdict::of`]'s.
/// On the event where the interval holds the mean, an `in` has its mean in
/// [a−z, b+z] and an `out` has it outside [a+z, b−z]; a mean within z of
/// an edge may be called either way; and an interval narrower than 2z is
/// always decided (if it is not within the outer band it passes one of
/// its edges, so it lies wholly beyond the inner band's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Zone {
    /// The target's band.
    pub band: Band,
    /// The tolerance z.
    pub z: f64,
    /// The band widened by z: an interval inside it is `in`.
    pub outer: Band,
    /// The band narrowed by z: an interval wholly outside it is `out`.
    pub inner: Band,
}

impl Zone {
    /// The band with no tolerance: today's verdicts exactly.
    pub fn exact(band: Band) -> Zone {
        Zone { band, z: 0.0, outer: band, inner: band }
    }

    /// The band with tolerance `z`: finite, ≥ 0, and at most half the
    /// band's width where both its edges lie inside (0, 1) (else the
    /// narrowed band would be empty and every variant `out` before a game).
    pub fn new(band: Band, z: f64) -> Result<Zone, BandError> {
        if !(z.is_finite() && z >= 0.0) {
            return Err(BandError(format!("a tolerance must be a number >= 0, got {z}")));
        }
        if z == 0.0 {
            return Ok(Zone::exact(band));
        }
        let outer = Band { lo: (band.lo - z).max(0.0), hi: (band.hi + z).min(1.0) };
        let mut inner = Band {
            lo: if band.lo > 0.0 { band.lo + z } else { band.lo },
            hi: if band.hi < 1.0 { band.hi - z } else { band.hi },
        };
        if inner.lo > inner.hi {
            // Half the width exactly, up to rounding: the narrowed band is its centre.
            if inner.lo - inner.hi > 1e-9 {
                return Err(BandError(format!(
                    "tolerance {z} is wider than the band {} allows: the band narrowed by it would be empty, and \
                     every variant out before its first game (give a tolerance of at most {}, {}, or a wider band)",
                    band.text(),
                    round9(if band.lo > 0.0 && band.hi < 1.0 { (band.hi - band.lo) / 2.0 } else { band.hi - band.lo }),
                    if band.lo > 0.0 && band.hi < 1.0 {
                        "half its width"
                    } else {
                        "its width (its other edge, at 0 or 1, does not move)"
                    }
                )));
            }
            let c = (inner.lo + inner.hi) / 2.0;
            inner = Band { lo: c, hi: c };
        }
        Ok(Zone { band, z, outer, inner })
    }

    /// The verdict of interval `lo..hi`: `in` inside the outer band, else
    /// `out` wholly outside the inner band, else undecided.
    pub fn verdict(&self, lo: f64, hi: f64) -> Verdict {
        if lo >= self.outer.lo && hi <= self.outer.hi {
            Verdict::In
        } else if hi < self.inner.lo || lo > self.inner.hi {
            Verdict::Out
        } else {
            Verdict::Undecided
        }
    }

    /// Whether `verdict` is right for a true mean `truth`: an `in` is
    /// wrong only outside the outer band, an `out` only inside the inner
    /// band (undecided is never wrong).
    pub fn right_for(&self, verdict: Verdict, truth: f64) -> bool {
        match verdict {
            Verdict::In => self.outer.lo <= truth && truth <= self.outer.hi,
            Verdict::Out => !(self.inner.lo <= truth && truth <= self.inner.hi),
            Verdict::Undecided => true,
        }
    }

    /// The half-width a fixed interval centred on the true mean `truth`
    /// may have and still decide it under this zone (0 for a mean no
    /// interval decides: on an edge with z = 0).
    pub fn decisive_half_width(&self, truth: f64) -> f64 {
        let inside = (truth - self.outer.lo).min(self.outer.hi - truth);
        let below = self.inner.lo - truth;
        let above = truth - self.inner.hi;
        inside.max(below).max(above).max(0.0)
    }
}

/// `x` rounded to 9 decimals, for messages (0.1, not 0.09999999999999998).
fn round9(x: f64) -> f64 {
    (x * 1e9).round() / 1e9
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

    /// The verdict of interval `lo..hi` against `band` (no tolerance).
    pub fn of(lo: f64, hi: f64, band: Band) -> Verdict {
        Zone::exact(band).verdict(lo, hi)
    }

    /// Whether the verdict is right for a true mean `truth` (undecided is
    /// never wrong; no tolerance).
    pub fn right_for(self, truth: f64, band: Band) -> bool {
        Zone::exact(band).right_for(self, truth)
    }
}

/// One variant × tier × target at per-cell error α: half of α for its
/// confidence sequence (PrPl-EB, [`Sequence`]), half for the one-sided
/// tests by betting at its zone's edges ([`EdgeTest`], each rejecting at
/// capital 4/α: at most two of the four nulls are true with the mean
/// strictly on their side for any mean, so a wrong verdict from the tests
/// has probability ≤ α/2).
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    zone: Zone,
    cs: Sequence,
    /// Tests of μ ≤ outer.lo, μ ≥ inner.lo, μ ≤ inner.hi, μ ≥ outer.hi
    /// (`None` at an edge 0 or 1); with no tolerance, of μ ≤ lo, μ ≥ lo,
    /// μ ≤ hi, μ ≥ hi.
    tests: [Option<EdgeTest>; 4],
    verdict: Verdict,
}

impl Cell {
    /// A cell with nothing observed and no tolerance.
    pub fn new(band: Band, alpha: f64) -> Result<Cell, CsError> {
        Cell::in_zone(Zone::exact(band), alpha)
    }

    /// A cell with nothing observed, deciding by `zone`.
    pub fn in_zone(zone: Zone, alpha: f64) -> Result<Cell, CsError> {
        let cs = Sequence::new(alpha / 2.0)?;
        let a = alpha / 4.0;
        let at = |m: f64, up: bool| (m > 0.0 && m < 1.0).then(|| EdgeTest::new(m, up, a));
        let (o, i) = (zone.outer, zone.inner);
        let tests = [at(o.lo, true), at(i.lo, false), at(i.hi, true), at(o.hi, false)];
        Ok(Cell { zone, cs, tests, verdict: Verdict::Undecided })
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
            let above_lo = self.zone.outer.lo <= 0.0 || self.certified(0);
            let below_hi = self.zone.outer.hi >= 1.0 || self.certified(3);
            self.verdict = if self.certified(1) || self.certified(2) {
                Verdict::Out
            } else if above_lo && below_hi {
                Verdict::In
            } else {
                self.zone.verdict(lo, hi)
            };
        }
    }

    /// The interval shown: the confidence sequence's, narrowed by what the
    /// edge tests certified (both hold together with probability ≥ 1 − α).
    pub fn interval(&self) -> (f64, f64) {
        let (mut lo, mut hi) = self.cs.interval();
        let (o, i) = (self.zone.outer, self.zone.inner);
        if self.certified(0) {
            lo = lo.max(o.lo);
        }
        if self.certified(2) {
            lo = lo.max(i.hi);
        }
        if self.certified(3) {
            hi = hi.min(o.hi);
        }
        if self.certified(1) {
            hi = hi.min(i.lo);
        }
        if lo > hi {
            let c = (lo + hi) / 2.0;
            return (c, c);
        }
        (lo, hi)
    }

    /// The cell's zone (its band and tolerance).
    pub fn zone(&self) -> &Zone {
        &self.zone
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

/// Every cell of a design: `variants × columns × targets`. A column is a
/// tier (its targets: the first player's score, the draws, the length) or
/// an Elo gap between two tiers (its one target: the stronger tier's
/// score); each has its own bands and its own cost in games per
/// observation (1 for a game, 2 for a colour-swapped pair).
#[derive(Clone, Debug, PartialEq)]
pub struct Design {
    variants: usize,
    columns: Vec<Column>,
    /// Where each column's first cell sits within a variant's cells.
    offsets: Vec<usize>,
    /// Cells per variant.
    stride: usize,
    alpha: f64,
    /// The tolerance of every cell's zone.
    tolerance: f64,
    cells: Vec<Cell>,
}

/// One column of a design: its targets' bands and what one observation costs.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// The targets' bands, in order.
    pub bands: Vec<Band>,
    /// Games per observation (at least 1).
    pub cost: u64,
}

/// Why a design cannot be made.
#[derive(Clone, Debug, PartialEq)]
pub enum DesignError {
    /// δ (or the α it gives each cell) outside (0, 1).
    Alpha(CsError),
    /// A band and the tolerance make no zone.
    Zone(BandError),
}

impl fmt::Display for DesignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DesignError::Alpha(e) => e.fmt(f),
            DesignError::Zone(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for DesignError {}

impl From<CsError> for DesignError {
    fn from(e: CsError) -> DesignError {
        DesignError::Alpha(e)
    }
}

impl Design {
    /// A design with nothing observed: `tiers` columns with the same
    /// `bands`, one game per observation; the family-wise error `delta` is
    /// split evenly over the cells (α = δ / cells).
    pub fn new(variants: usize, tiers: usize, bands: Vec<Band>, delta: f64) -> Result<Design, DesignError> {
        Design::with_columns(variants, vec![Column { bands, cost: 1 }; tiers], delta)
    }

    /// A design of `variants` × `columns`, each column with its own
    /// bands; α = δ / cells, every cell of every column alike.
    pub fn with_columns(variants: usize, columns: Vec<Column>, delta: f64) -> Result<Design, DesignError> {
        Design::with_tolerance(variants, columns, delta, 0.0)
    }

    /// [`Design::with_columns`] with every cell deciding by its band's
    /// [`Zone`] of tolerance `z` (0: the exact bands).
    pub fn with_tolerance(variants: usize, columns: Vec<Column>, delta: f64, z: f64) -> Result<Design, DesignError> {
        if !(delta > 0.0 && delta < 1.0) {
            return Err(CsError::Alpha(delta).into());
        }
        let mut offsets = Vec::with_capacity(columns.len());
        let mut stride = 0;
        for c in &columns {
            offsets.push(stride);
            stride += c.bands.len();
        }
        let n = (variants * stride).max(1);
        let alpha = delta / n as f64;
        let zones: Vec<Vec<Zone>> = columns
            .iter()
            .map(|c| c.bands.iter().map(|&b| Zone::new(b, z)).collect::<Result<_, _>>())
            .collect::<Result<_, _>>()
            .map_err(DesignError::Zone)?;
        let mut cells = Vec::with_capacity(n);
        for _ in 0..variants {
            for col in &zones {
                for &zone in col {
                    cells.push(Cell::in_zone(zone, alpha)?);
                }
            }
        }
        Ok(Design { variants, columns, offsets, stride, alpha, tolerance: z, cells })
    }

    /// The tolerance every cell decides with (0: none).
    pub fn tolerance(&self) -> f64 {
        self.tolerance
    }

    /// Each cell's α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The cells in all (variants × every column's targets): α = δ / this.
    pub fn cells(&self) -> usize {
        self.cells.len()
    }

    /// The columns (tiers first, then any Elo gaps, as the caller built them).
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// Games per observation of column `t`.
    pub fn cost(&self, t: usize) -> u64 {
        self.columns[t].cost.max(1)
    }

    fn index(&self, v: usize, t: usize, k: usize) -> usize {
        v * self.stride + self.offsets[t] + k
    }

    /// The cell of variant `v`, column `t`, target `k`.
    pub fn cell(&self, v: usize, t: usize, k: usize) -> &Cell {
        &self.cells[self.index(v, t, k)]
    }

    /// Whether variant `v` under column `t` still has an undecided cell.
    pub fn open(&self, v: usize, t: usize) -> bool {
        (0..self.columns[t].bands.len()).any(|k| self.cell(v, t, k).verdict() == Verdict::Undecided)
    }

    /// The variant × column pairs with an undecided cell, in order
    /// (variant-major).
    pub fn open_pairs(&self) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for a in 0..self.variants {
            for t in 0..self.columns.len() {
                if self.open(a, t) {
                    v.push((a, t));
                }
            }
        }
        v
    }

    /// Adds one observation of variant `v` under column `t`: `obs[k]` is
    /// target `k`'s, in [0, 1]. Every cell of the pair hears it (a decided
    /// cell keeps its verdict: its interval only narrows).
    pub fn record(&mut self, v: usize, t: usize, obs: &[f64]) {
        for (k, &x) in obs.iter().enumerate().take(self.columns[t].bands.len()) {
            let i = self.index(v, t, k);
            self.cells[i].push(x);
        }
    }
}

/// When [`run_rounds`] stops playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Observations per variant × column pair in a round.
    pub round: u64,
    /// Games in all (every pair's): no round starts once this many are
    /// played (the last round may pass it by less than one round).
    pub budget: u64,
    /// Observations per variant × column pair at most (a pair that
    /// reaches it gets no more, decided or not).
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
/// `plan.round` observations of every open pair (games or pairs
/// `r·round .. (r+1)·round` of each: the same game seeds for every pair,
/// common random numbers), records them, and stops when every cell is
/// decided or a limit is reached. The budget counts games: an
/// observation of column `t` costs [`Design::cost`] of them. Returns why
/// it stopped and the observations per pair (variant-major,
/// `variants × columns`).
pub fn run_rounds<E>(
    d: &mut Design,
    plan: &Plan,
    mut play: impl FnMut(u64, &[(usize, usize)]) -> Result<RoundObs, E>,
) -> Result<(Stop, Vec<u64>), E> {
    let nc = d.columns.len();
    let mut games = vec![0u64; d.variants * nc];
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
            open.into_iter().filter(|&(v, t)| games[v * nc + t] + round <= plan.per_pair).collect();
        if open.is_empty() {
            return Ok((Stop::PairCap, games));
        }
        let obs = play(r, &open)?;
        for (&(v, t), list) in open.iter().zip(&obs) {
            for o in list {
                d.record(v, t, o);
                games[v * nc + t] += 1;
                spent += d.cost(t);
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
    fn zones_widen_and_narrow_the_inner_edges_only() {
        let b = Band { lo: 0.4, hi: 0.6 };
        assert_eq!(Zone::new(b, 0.0).unwrap(), Zone::exact(b));
        let z = Zone::new(b, 0.05).unwrap();
        assert!((z.outer.lo - 0.35).abs() < 1e-12 && (z.outer.hi - 0.65).abs() < 1e-12);
        assert!((z.inner.lo - 0.45).abs() < 1e-12 && (z.inner.hi - 0.55).abs() < 1e-12);
        // An edge at 0 or 1 stays: a draw rate of 0 is inside 0..X whatever z.
        let d = Zone::new(Band { lo: 0.0, hi: 0.2 }, 0.05).unwrap();
        assert_eq!((d.outer.lo, d.inner.lo), (0.0, 0.0));
        assert_eq!(d.verdict(0.0, 0.01), Verdict::In);
        let e = Zone::new(Band { lo: 0.64, hi: 1.0 }, 0.05).unwrap();
        assert_eq!((e.outer.hi, e.inner.hi), (1.0, 1.0));
        // Half the width exactly is a point; more is refused, and so is a bad z.
        let p = Zone::new(b, 0.1).unwrap();
        assert!((p.inner.lo - 0.5).abs() < 1e-12 && p.inner.lo == p.inner.hi);
        assert!(Zone::new(b, 0.11).unwrap_err().0.contains("at most 0.1"));
        assert!(Zone::new(b, -0.01).is_err() && Zone::new(b, f64::NAN).is_err());
        assert!(Zone::new(Band { lo: 0.5, hi: 0.5 }, 0.01).is_err());
        let d = Zone::new(Band { lo: 0.0, hi: 0.05 }, 0.06).unwrap_err().0;
        assert!(d.contains("at most 0.05, its width"), "{d}");
        assert!(Zone::new(Band { lo: 0.0, hi: 0.05 }, 0.05).is_ok());
    }

    #[test]
    fn zone_verdicts_and_errors() {
        let z = Zone::new(Band { lo: 0.4, hi: 0.6 }, 0.05).unwrap();
        assert_eq!(z.verdict(0.36, 0.64), Verdict::In);
        assert_eq!(z.verdict(0.34, 0.5), Verdict::Undecided);
        assert_eq!(z.verdict(0.3, 0.44), Verdict::Out);
        // Within z of an edge either verdict may come, and either is right.
        assert_eq!(z.verdict(0.38, 0.42), Verdict::In);
        assert!(z.right_for(Verdict::In, 0.36) && z.right_for(Verdict::Out, 0.44));
        assert!(!z.right_for(Verdict::In, 0.34) && !z.right_for(Verdict::Out, 0.46));
        assert!(z.right_for(Verdict::Undecided, 0.5));
        // Any interval narrower than 2z is decided, wherever it lies.
        for i in 0..=1000 {
            let lo = i as f64 / 1000.0 * 0.9;
            assert_ne!(z.verdict(lo, lo + 0.0999), Verdict::Undecided, "{lo}");
        }
        // The oracle's half-width: the distance to the nearest edge without z.
        let e = Zone::exact(Band { lo: 0.4, hi: 0.6 });
        assert!((e.decisive_half_width(0.45) - 0.05).abs() < 1e-12);
        assert!((e.decisive_half_width(0.3) - 0.1).abs() < 1e-12);
        assert_eq!(e.decisive_half_width(0.4), 0.0);
        assert!((z.decisive_half_width(0.4) - 0.05).abs() < 1e-12);
    }

    /// A mean on the band's edge is never decided without a tolerance, and
    /// is decided (either way is right) with one.
    #[test]
    fn a_tolerance_decides_a_mean_on_the_edge() {
        let b = Band { lo: 0.4, hi: 0.6 };
        let mut exact = Cell::new(b, 0.01).unwrap();
        let mut zoned = Cell::in_zone(Zone::new(b, 0.05).unwrap(), 0.01).unwrap();
        let mut rng = testkit::SplitMix64::new(5);
        for _ in 0..20_000 {
            let x = ((rng.next_u64() % 5) < 2) as u8 as f64; // mean 0.4
            exact.push(x);
            zoned.push(x);
        }
        assert_eq!(exact.verdict(), Verdict::Undecided);
        assert_ne!(zoned.verdict(), Verdict::Undecided);
        assert!(zoned.zone().right_for(zoned.verdict(), 0.4));
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
    fn elo_scores() {
        assert_eq!(elo_score(0.0), 0.5);
        assert!((elo_score(100.0) - 0.640_065).abs() < 1e-6);
        assert!((elo_score(-100.0) + elo_score(100.0) - 1.0).abs() < 1e-12);
    }

    /// Columns with their own bands and costs: a pair costs two games of
    /// the budget, and each column's cells hear only its observations.
    #[test]
    fn columns_have_their_own_bands_and_costs() {
        let first = Column { bands: vec![Band { lo: 0.4, hi: 0.6 }, Band { lo: 0.0, hi: 0.5 }], cost: 1 };
        let elo = Column { bands: vec![Band { lo: elo_score(100.0), hi: 1.0 }], cost: 2 };
        let mut d = Design::with_columns(2, vec![first, elo], 0.05).unwrap();
        assert_eq!(d.cells(), 6);
        assert!((d.alpha() - 0.05 / 6.0).abs() < 1e-15);
        let plan = Plan { round: 10, budget: 100, per_pair: 1000 };
        let (stop, games) = run_rounds::<()>(&mut d, &plan, |_, pairs| {
            Ok(pairs.iter().map(|&(_, t)| vec![if t == 0 { vec![1.0, 0.0] } else { vec![1.0] }; 10]).collect())
        })
        .unwrap();
        // Each round: 2 variants × (10 games + 10 pairs × 2) = 60 games.
        assert_eq!(stop, Stop::Budget);
        assert_eq!(games, vec![20, 20, 20, 20]);
        assert_eq!(d.cell(1, 1, 0).count(), 20);
        assert_eq!(d.cell(1, 0, 1).count(), 20);
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
