//! Summaries of self-play batches: win shares with Wilson intervals, game
//! lengths (mean, quantiles, histogram), end reasons, branching factor.
//!
//! A [`Summary`] is built one game at a time from [`GameSummary`] records
//! (from a running batch or read back from a games file) and merged across
//! workers or shards; the result never depends on the order of merging.
//! This module only counts: it never plays, reads or writes files.

use senat_rules::dice::Side;
use senat_rules::game::EndReason;
use std::collections::BTreeMap;
use std::fmt::Write as _;

pub use game_lab::stats::{
    LossTally, Z95, loss_micros, micros_text, outcome_table, parse_micros, wilson, wilson_share,
};

/// The four policy names of a matchup: red's and blue's play and draft policies.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PairKey {
    /// Red's play policy.
    pub red: String,
    /// Blue's play policy.
    pub blue: String,
    /// Red's draft policy.
    pub draft_red: String,
    /// Blue's draft policy.
    pub draft_blue: String,
}

impl PairKey {
    /// `red vs blue`, with the draft policies when they differ from the play ones.
    pub fn label(&self) -> String {
        let side = |play: &str, draft: &str| {
            if play == draft { play.to_string() } else { format!("{play} (draft {draft})") }
        };
        format!("{} vs {}", side(&self.red, &self.draft_red), side(&self.blue, &self.draft_blue))
    }
}

/// What the summary needs of one finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: EndReason,
    /// Play half-moves (the draft not counted).
    pub play_len: u32,
    /// Sum over the play positions where a move was made of their number of legal moves.
    pub legal_sum: u64,
    /// Whether the players swapped colours after the draft, in a variant
    /// with the decision (`swap=yes`); `None` in the others.
    pub swapped: Option<bool>,
    /// Each side's summed value loss of its value-bounded draws (`vary=`),
    /// in millionths of score units ([`loss_micros`]), red first; `None`
    /// where no policy of the batch draws them (nothing recorded).
    pub vary_loss: Option<[u64; 2]>,
}

impl GameSummary {
    /// The seat (the drafting colour: the `red=` agent's is red) that won,
    /// `None` for a draw: the winning colour's, or the other after a swap.
    pub fn winning_seat(&self) -> Option<Side> {
        self.winner.map(|w| if self.swapped == Some(true) { w.other() } else { w })
    }
}

/// End reasons in a fixed order, for counting.
pub const REASONS: [EndReason; 4] = [EndReason::Majority, EndReason::Repetition, EndReason::Closure, EndReason::Block];

/// Counts for one matchup.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Red wins.
    pub red: u64,
    /// Blue wins.
    pub blue: u64,
    /// Draws.
    pub draws: u64,
    /// Games per end reason, in [`REASONS`] order.
    pub reasons: [u64; 4],
    /// Games per exact play length (index = play half-moves).
    pub lengths: Vec<u64>,
    /// Sum of play lengths.
    pub len_sum: u64,
    /// Sum of squared play lengths.
    pub len_sq_sum: u128,
    /// Sum of legal-move counts over play positions where a move was made.
    pub legal_sum: u64,
    /// Games with the decision after the draft (`swap=yes`); 0 in the
    /// other variants, whose summaries have no rows by seat.
    pub decided: u64,
    /// Of them, those where the decider swapped.
    pub swapped: u64,
    /// Of them, the wins of the red drafter's agents (`red=`), whatever
    /// colour they played.
    pub red_seat: u64,
    /// Of them, the wins of the blue drafter's agents (`blue=`).
    pub blue_seat: u64,
    /// The value losses of the games that record them
    /// ([`GameSummary::vary_loss`]): red, blue, both sides.
    pub loss: LossTally,
}

impl Tally {
    /// Adds one game.
    pub fn add(&mut self, g: &GameSummary) {
        self.games += 1;
        match g.winner {
            Some(Side::Red) => self.red += 1,
            Some(Side::Blue) => self.blue += 1,
            None => self.draws += 1,
        }
        let r = REASONS.iter().position(|&r| r == g.reason).expect("a known reason");
        self.reasons[r] += 1;
        let len = g.play_len as usize;
        if self.lengths.len() <= len {
            self.lengths.resize(len + 1, 0);
        }
        self.lengths[len] += 1;
        self.len_sum += g.play_len as u64;
        self.len_sq_sum += (g.play_len as u128) * (g.play_len as u128);
        self.legal_sum += g.legal_sum;
        if let Some(swapped) = g.swapped {
            self.decided += 1;
            self.swapped += u64::from(swapped);
            match g.winning_seat() {
                Some(Side::Red) => self.red_seat += 1,
                Some(Side::Blue) => self.blue_seat += 1,
                None => {}
            }
        }
        if let Some(loss) = g.vary_loss {
            self.loss.add(loss);
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, o: &Tally) {
        self.games += o.games;
        self.red += o.red;
        self.blue += o.blue;
        self.draws += o.draws;
        for (a, b) in self.reasons.iter_mut().zip(o.reasons) {
            *a += b;
        }
        if self.lengths.len() < o.lengths.len() {
            self.lengths.resize(o.lengths.len(), 0);
        }
        for (a, b) in self.lengths.iter_mut().zip(&o.lengths) {
            *a += b;
        }
        self.len_sum += o.len_sum;
        self.len_sq_sum += o.len_sq_sum;
        self.legal_sum += o.legal_sum;
        self.decided += o.decided;
        self.swapped += o.swapped;
        self.red_seat += o.red_seat;
        self.blue_seat += o.blue_seat;
        self.loss.merge(&o.loss);
    }

    /// Mean play length.
    pub fn mean_length(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.len_sum as f64 / self.games as f64 }
    }

    /// Standard deviation of the play length.
    pub fn sd_length(&self) -> f64 {
        if self.games < 2 {
            return 0.0;
        }
        let n = self.games as f64;
        let mean = self.mean_length();
        ((self.len_sq_sum as f64 - n * mean * mean) / (n - 1.0)).max(0.0).sqrt()
    }

    /// The `q`-quantile of the play length (nearest rank: the smallest length
    /// with at least ⌈q·n⌉ games at or below it).
    pub fn quantile(&self, q: f64) -> u32 {
        if self.games == 0 {
            return 0;
        }
        let rank = ((q * self.games as f64).ceil() as u64).clamp(1, self.games);
        let mut seen = 0;
        for (len, &n) in self.lengths.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return len as u32;
            }
        }
        (self.lengths.len() - 1) as u32
    }

    /// Mean number of legal moves per play position where a move was made.
    pub fn branching(&self) -> f64 {
        if self.len_sum == 0 { 0.0 } else { self.legal_sum as f64 / self.len_sum as f64 }
    }

    /// Histogram of play lengths in bins of `width`: (bin start, games).
    pub fn histogram(&self, width: usize) -> Vec<(usize, u64)> {
        let mut bins: Vec<(usize, u64)> = Vec::new();
        for (len, &n) in self.lengths.iter().enumerate() {
            let start = len / width * width;
            match bins.last_mut() {
                Some((s, c)) if *s == start => *c += n,
                _ => bins.push((start, n)),
            }
        }
        // Drop empty leading bins only; keep gaps so the shape reads true.
        while bins.first().is_some_and(|&(_, n)| n == 0) {
            bins.remove(0);
        }
        while bins.last().is_some_and(|&(_, n)| n == 0) {
            bins.pop();
        }
        bins
    }
}

/// The sides of [`Tally::loss`], as the summary names them.
pub const LOSS_SIDES: [&str; 3] = ["red", "blue", "game"];

/// Width of the length histogram's bins, in play half-moves.
pub const HIST_WIDTH: usize = 10;

/// Tallies per matchup.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// One tally per matchup, in key order.
    pub groups: BTreeMap<PairKey, Tally>,
}

/// The header of the summary CSV.
pub const SUMMARY_HEADER: [&str; 8] =
    ["red", "blue", "draft_red", "draft_blue", "metric", "value", "ci95_low", "ci95_high"];

impl Summary {
    /// Adds one game of matchup `key`.
    pub fn add(&mut self, key: &PairKey, g: &GameSummary) {
        if let Some(t) = self.groups.get_mut(key) {
            t.add(g);
        } else {
            let mut t = Tally::default();
            t.add(g);
            self.groups.insert(key.clone(), t);
        }
    }

    /// Adds a tally of matchup `key`.
    pub fn merge_tally(&mut self, key: &PairKey, t: &Tally) {
        self.groups.entry(key.clone()).or_default().merge(t);
    }

    /// Games in all groups.
    pub fn games(&self) -> u64 {
        self.groups.values().map(|t| t.games).sum()
    }

    /// The rows of the summary CSV (without the header): deterministic, so
    /// that equal batches give byte-identical files.
    pub fn rows(&self) -> Vec<[String; 8]> {
        let mut rows = Vec::new();
        for (k, t) in &self.groups {
            let mut row = |metric: &str, value: String, ci: Option<(f64, f64)>| {
                let (lo, hi) =
                    ci.map_or((String::new(), String::new()), |(l, h)| (format!("{l:.6}"), format!("{h:.6}")));
                rows.push([
                    k.red.clone(),
                    k.blue.clone(),
                    k.draft_red.clone(),
                    k.draft_blue.clone(),
                    metric.to_string(),
                    value,
                    lo,
                    hi,
                ]);
            };
            let n = t.games;
            let share = |c: u64| if n == 0 { 0.0 } else { c as f64 / n as f64 };
            row("games", n.to_string(), None);
            row("red_wins", t.red.to_string(), None);
            row("blue_wins", t.blue.to_string(), None);
            row("draws", t.draws.to_string(), None);
            row("red_share", format!("{:.6}", share(t.red)), Some(wilson(t.red, n)));
            row("blue_share", format!("{:.6}", share(t.blue)), Some(wilson(t.blue, n)));
            row("draw_share", format!("{:.6}", share(t.draws)), Some(wilson(t.draws, n)));
            if t.decided > 0 {
                // `swap=yes`: the agents' wins (by seat) and the decisions.
                let d = t.decided;
                let of = |c: u64| c as f64 / d as f64;
                row("red_agent_wins", t.red_seat.to_string(), None);
                row("blue_agent_wins", t.blue_seat.to_string(), None);
                row("red_agent_share", format!("{:.6}", of(t.red_seat)), Some(wilson(t.red_seat, d)));
                row("blue_agent_share", format!("{:.6}", of(t.blue_seat)), Some(wilson(t.blue_seat, d)));
                row("swaps", t.swapped.to_string(), None);
                row("swap_share", format!("{:.6}", of(t.swapped)), Some(wilson(t.swapped, d)));
            }
            for (r, c) in REASONS.iter().zip(t.reasons) {
                row(&format!("reason_{r}"), c.to_string(), None);
            }
            row("length_mean", format!("{:.4}", t.mean_length()), None);
            row("length_sd", format!("{:.4}", t.sd_length()), None);
            row("length_min", t.quantile(0.0).to_string(), None);
            row("length_p10", t.quantile(0.1).to_string(), None);
            row("length_median", t.quantile(0.5).to_string(), None);
            row("length_p90", t.quantile(0.9).to_string(), None);
            row("length_max", t.lengths.len().saturating_sub(1).to_string(), None);
            row("branching_mean", format!("{:.4}", t.branching()), None);
            // Only where recorded (`vary=`): other batches' summaries are as before.
            for (k, side) in LOSS_SIDES.iter().enumerate() {
                if let Some((mean, ci)) = t.loss.mean(k) {
                    row(&format!("vary_loss_{side}_mean"), format!("{mean:.6}"), Some(ci));
                }
            }
            for (start, c) in t.histogram(HIST_WIDTH) {
                row(&format!("length_hist_{start:03}_{:03}", start + HIST_WIDTH - 1), c.to_string(), None);
            }
        }
        rows
    }

    /// The report of `senat selfplay`/`merge` for Sénat: each pair's
    /// [`outcome_table`], then its ends, lengths, branching and (with
    /// `histogram`) the histogram of play lengths.
    pub fn table(&self, histogram: bool) -> String {
        let mut s = String::new();
        for (k, t) in &self.groups {
            let outcomes = [("red wins", t.red), ("blue wins", t.blue), ("draws", t.draws)];
            s.push_str(&outcome_table(&k.label(), t.games, &outcomes));
            if t.decided > 0 {
                // `swap=yes`: the wins by agent (the `red=` agent drafted red) and the decisions.
                let by_agent = [
                    (format!("{} (red drafter) wins", k.red), t.red_seat),
                    (format!("{} (blue drafter) wins", k.blue), t.blue_seat),
                ];
                for (label, c) in by_agent.iter().map(|(l, c)| (l.as_str(), *c)).chain([("swaps", t.swapped)]) {
                    let (l, h) = wilson(c, t.decided);
                    let pct = 100.0 * c as f64 / t.decided as f64;
                    let _ = writeln!(s, "  {label}: {c}  {pct:6.2}%  95% CI [{:5.2}, {:5.2}]", 100.0 * l, 100.0 * h);
                }
            }
            let reasons: Vec<String> = REASONS.iter().zip(t.reasons).map(|(r, c)| format!("{r} {c}")).collect();
            let _ = writeln!(s, "  end        {}", reasons.join(", "));
            let _ = writeln!(
                s,
                "  play length mean {:.2} (sd {:.2}), median {}, p10 {}, p90 {}, min {}, max {} half-moves",
                t.mean_length(),
                t.sd_length(),
                t.quantile(0.5),
                t.quantile(0.1),
                t.quantile(0.9),
                t.quantile(0.0),
                t.lengths.len().saturating_sub(1)
            );
            let _ = writeln!(s, "  branching  {:.2} legal moves per play position", t.branching());
            if let Some(line) = t.loss.line(LOSS_SIDES) {
                let _ = writeln!(s, "{line}");
            }
            if !histogram {
                continue;
            }
            let hist = t.histogram(HIST_WIDTH);
            let max = hist.iter().map(|&(_, c)| c).max().unwrap_or(0).max(1);
            for (start, c) in hist {
                let bar = "#".repeat(((c as f64 / max as f64) * 40.0).round() as usize);
                let _ = writeln!(s, "  {:>4}-{:<4} {:>10} {}", start, start + HIST_WIDTH - 1, c, bar);
            }
        }
        s
    }
}
