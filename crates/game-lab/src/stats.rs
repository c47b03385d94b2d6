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
