//! The interval arithmetic every game's summaries share: Wilson intervals
//! of shares, the one outcome table of a self-play report, and value losses
//! as exact millionths (so that sums do not depend on the order games are
//! added in).
//!
//! This module only computes: it never plays, reads or writes files, and
//! never names a game.

use std::fmt::Write as _;

/// A value loss in score units (a win 1, a draw ½) as the whole millionths
/// the games file writes and the summary sums (exact, so that a summary
/// does not depend on the order games are added in); negative or NaN: 0.
pub fn loss_micros(loss: f64) -> u64 {
    if loss > 0.0 { (loss * 1e6).round() as u64 } else { 0 }
}

/// `micros` millionths as a decimal with six places (`0.012500`), as the
/// games file writes a value loss.
pub fn micros_text(micros: u64) -> String {
    format!("{}.{:06}", micros / 1_000_000, micros % 1_000_000)
}

/// Reads [`micros_text`] back (a whole number, or up to six decimal places); `None` otherwise.
pub fn parse_micros(text: &str) -> Option<u64> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || (!frac.is_empty() && !digits(frac)) || frac.len() > 6 {
        return None;
    }
    let scale = 10u64.pow(6 - frac.len() as u32);
    let f: u64 = if frac.is_empty() { 0 } else { frac.parse().ok()? };
    whole.parse::<u64>().ok()?.checked_mul(1_000_000)?.checked_add(f * scale)
}

/// The value losses of value-bounded draws (`vary=`) over a batch's
/// games, in millionths ([`loss_micros`]): per side (the two sides of a
/// game, in the order the games file writes them) and both sides summed,
/// with their sums of squares for an interval. Sums of whole numbers, so
/// a batch's tally is the same however its games are split and merged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LossTally {
    /// Games with a value loss recorded.
    pub games: u64,
    /// Their summed losses: the first side, the second, both together.
    pub sum: [u64; 3],
    /// The sums of their squares (per game), in the order of `sum`.
    pub sq_sum: [u128; 3],
}

impl LossTally {
    /// Adds one game's losses, its two sides' in millionths.
    pub fn add(&mut self, [a, b]: [u64; 2]) {
        self.games += 1;
        for (k, x) in [a, b, a + b].into_iter().enumerate() {
            self.sum[k] += x;
            self.sq_sum[k] += x as u128 * x as u128;
        }
    }

    /// Adds another tally's games.
    pub fn merge(&mut self, o: &LossTally) {
        self.games += o.games;
        for k in 0..3 {
            self.sum[k] += o.sum[k];
            self.sq_sum[k] += o.sq_sum[k];
        }
    }

    /// The mean loss per game of side `k` (0 the first, 1 the second, 2
    /// both summed) in score units, with its 95% interval (normal: mean ±
    /// 1.96 sd/√n, its low end at least 0); `None` without games recorded.
    pub fn mean(&self, k: usize) -> Option<(f64, (f64, f64))> {
        if self.games == 0 {
            return None;
        }
        let n = self.games as f64;
        let mean = self.sum[k] as f64 / n;
        let var = if self.games < 2 { 0.0 } else { ((self.sq_sum[k] as f64 - n * mean * mean) / (n - 1.0)).max(0.0) };
        let half = Z95 * (var / n).sqrt();
        Some((mean / 1e6, ((mean - half).max(0.0) / 1e6, (mean + half) / 1e6)))
    }

    /// The report's line (`  vary loss  red 0.0051 [0.0049, 0.0052], …
    /// per game …`) with the sides named `sides` (the first, the second,
    /// both); `None` without games recorded.
    pub fn line(&self, sides: [&str; 3]) -> Option<String> {
        let parts: Vec<String> = (0..3)
            .filter_map(|k| self.mean(k).map(|(m, (lo, hi))| format!("{} {m:.4} [{lo:.4}, {hi:.4}]", sides[k])))
            .collect();
        (!parts.is_empty()).then(|| format!("  vary loss  {} per game (score units, 95% interval)", parts.join(", ")))
    }
}

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval at 95% (z = 1.959964) for `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    wilson_share(k as f64 / n as f64, n)
}

/// Wilson score interval at 95% for a share `p` (0..=1) observed over `n`
/// trials: [`wilson`] with `p = k / n`. A mean score with draws counting
/// half may be given too: its variance is at most that of a 0/1 share of
/// the same mean, so the interval is then conservative.
pub fn wilson_share(p: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = Z95;
    let n = n as f64;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The one outcome table of every game's self-play report: `title: N
/// games`, then a line per outcome (`  red wins  7  35.00%  95% CI [18.12,
/// 56.71]`, Wilson intervals), in columns that line up with the report's
/// further `  key        value` lines.
pub fn outcome_table(title: &str, games: u64, outcomes: &[(&str, u64)]) -> String {
    let pct = |c: u64| if games == 0 { 0.0 } else { 100.0 * c as f64 / games as f64 };
    let mut s = format!("{title}: {games} games\n");
    for &(label, c) in outcomes {
        let (l, h) = wilson(c, games);
        let _ = writeln!(s, "  {label:<11}{c:>10}  {:6.2}%  95% CI [{:5.2}, {:5.2}]", pct(c), 100.0 * l, 100.0 * h);
    }
    s
}
