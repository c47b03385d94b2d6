//! The learned leaf of the dominoes searches (`leaf=learned`): each
//! player's chance of winning the match from the match scores at a round's
//! end, as the exact solution of the match seen as a chain of independent
//! rounds whose points follow a distribution fitted on the tool's own
//! self-play.
//!
//! Why this model: at a round boundary everything an observer knows that
//! bears on the rest of the match is the scores, the target and the player
//! count (the next deal is fresh, its opener the holder of the best tile,
//! so every player is alike). If the players are equally strong, each
//! round is won by each with the same chance and its points follow one
//! distribution `D`; the chance of winning the match then follows from `D`
//! by a small dynamic programme over the points each player still needs.
//! Only `D` is learned (a histogram of round points, counts stored as
//! they were counted), so the model is symmetric between the players, its
//! chances sum to 1, and it is monotone in the scores by construction; it
//! knows how close the target is, which `exp(score / 25)`
//! ([`super::dominoes::score_chances`]) ignores. A regression on features
//! of the scores would have to learn all three properties, and the target's
//! role, from far fewer matches.
//!
//! What the model leaves out: the round limit (a draw after 200 rounds by
//! default, which no self-play match comes near), any difference in
//! strength between the players, and play that depends on the scores. It
//! is solved for two players only (the table grows as the target to the
//! power of the players); [`LearnedLeaf::chances`] says `None` for other
//! player counts, for a hand size or rules other than the fitted ones and
//! for targets above [`MAX_TARGET`], and the searches then use
//! `exp(score / 25)`.
//!
//! What this module must never do: encode a rule (rounds are played by the
//! rules crate and read from its records).

use dominoes_rules::{State, Variant};
use game_search::Scores;
use std::fmt;
use std::sync::OnceLock;

/// The shipped round-points distribution (`crates/lab/data/dominoes-leaf.txt`;
/// its header says how it was fitted).
pub const SHIPPED_LEAF: &str = include_str!("../../data/dominoes-leaf.txt");

/// The largest target the learned leaf solves (its table has `target²` entries).
pub const MAX_TARGET: u32 = 1000;

/// Why a leaf file cannot be read, or a fit cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeafError {
    /// A line of the file is not `key=value` or `# comment`.
    Line {
        /// The line's number, from 1.
        line: usize,
        /// The line as written.
        text: String,
    },
    /// A key the file format does not have, or given twice.
    Key {
        /// The line's number, from 1.
        line: usize,
        /// The key.
        key: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A value that is not what its key takes.
    Value {
        /// The line's number, from 1.
        line: usize,
        /// The key.
        key: String,
        /// The value as written.
        value: String,
    },
    /// The file lacks a key, or its counts do not add up.
    Incomplete(String),
    /// A fit that cannot run (its parameters).
    Fit(String),
}

impl fmt::Display for LeafError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeafError::Line { line, text } => write!(f, "leaf file line {line}: `{text}` is not key=value"),
            LeafError::Key { line, key, why } => write!(f, "leaf file line {line}: key `{key}` {why}"),
            LeafError::Value { line, key, value } => {
                write!(f, "leaf file line {line}: `{key}={value}` is not a count (a whole number)")
            }
            LeafError::Incomplete(why) => write!(f, "leaf file: {why}"),
            LeafError::Fit(why) => write!(f, "leaf fit: {why}"),
        }
    }
}

impl std::error::Error for LeafError {}

/// The fitted distribution of a round's outcome: how many rounds ended
/// with nobody scoring and how many gave their winner each number of
/// points, for one player count, hand size and rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundPoints {
    /// Players of the variant it was counted on.
    pub players: u8,
    /// Tiles dealt to each player.
    pub hand: u8,
    /// Whether the rules were OpenSpiel's.
    pub openspiel: bool,
    /// Rounds that changed no score (a tied block, or a win worth 0 points).
    pub none: u64,
    /// `counts[x]`: rounds whose winner scored `x` points (`counts[0]` is 0).
    pub counts: Vec<u64>,
}

impl RoundPoints {
    /// Nothing counted yet, for `v`'s player count, hand and rules.
    pub fn empty(v: Variant) -> RoundPoints {
        RoundPoints { players: v.players, hand: v.hand, openspiel: v.openspiel, none: 0, counts: vec![0] }
    }

    /// Counts one round: `points` to a winner, or none (`None` or 0 points).
    pub fn add(&mut self, points: Option<u32>) {
        match points {
            Some(x) if x > 0 => {
                let x = x as usize;
                if self.counts.len() <= x {
                    self.counts.resize(x + 1, 0);
                }
                self.counts[x] += 1;
            }
            _ => self.none += 1,
        }
    }

    /// Rounds counted, those with no score included.
    pub fn rounds(&self) -> u64 {
        self.none + self.scored()
    }

    /// Rounds that gave their winner points.
    pub fn scored(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Whether it was counted on `v`'s player count, hand and rules.
    pub fn fits(&self, v: Variant) -> bool {
        self.players == v.players && self.hand == v.hand && self.openspiel == v.openspiel
    }

    /// The shipped distribution ([`SHIPPED_LEAF`]).
    pub fn shipped() -> &'static RoundPoints {
        static P: OnceLock<RoundPoints> = OnceLock::new();
        P.get_or_init(|| RoundPoints::parse(SHIPPED_LEAF).expect("the shipped leaf file parses (tested)"))
    }

    /// Reads the text [`RoundPoints::to_text`] writes: `#` comment lines,
    /// then `players=`, `hand=`, `rules=playboard|openspiel`, `rounds=`,
    /// `none=` and one `points.X=count` per number of points counted.
    pub fn parse(text: &str) -> Result<RoundPoints, LeafError> {
        let mut seen: Vec<String> = Vec::new();
        let (mut players, mut hand, mut rules, mut rounds, mut none) = (None, None, None, None, None);
        let mut counts = vec![0u64];
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let t = raw.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let Some((key, value)) = t.split_once('=') else {
                return Err(LeafError::Line { line, text: t.to_string() });
            };
            let (key, value) = (key.trim(), value.trim());
            if seen.iter().any(|k| k == key) {
                return Err(LeafError::Key { line, key: key.into(), why: "is given twice" });
            }
            seen.push(key.to_string());
            let count = || -> Result<u64, LeafError> {
                match value.parse::<u64>() {
                    Ok(n) if !value.starts_with('+') => Ok(n),
                    _ => Err(LeafError::Value { line, key: key.into(), value: value.into() }),
                }
            };
            match key {
                "players" => players = Some(count()?),
                "hand" => hand = Some(count()?),
                "rules" => {
                    rules = Some(match value {
                        "playboard" => false,
                        "openspiel" => true,
                        _ => return Err(LeafError::Key { line, key: key.into(), why: "takes playboard or openspiel" }),
                    })
                }
                "rounds" => rounds = Some(count()?),
                "none" => none = Some(count()?),
                _ => {
                    let x = key.strip_prefix("points.").and_then(|x| x.parse::<usize>().ok());
                    match x {
                        Some(x) if (1..=10_000).contains(&x) => {
                            if counts.len() <= x {
                                counts.resize(x + 1, 0);
                            }
                            counts[x] = count()?;
                        }
                        _ => {
                            return Err(LeafError::Key {
                                line,
                                key: key.into(),
                                why: "is unknown (known: players, hand, rules, rounds, none, points.X with X from 1 to 10000)",
                            });
                        }
                    }
                }
            }
        }
        let need = |v: Option<u64>, k: &str| v.ok_or_else(|| LeafError::Incomplete(format!("no `{k}=` line")));
        let players = need(players, "players")?;
        let hand = need(hand, "hand")?;
        if !(2..=4).contains(&players) || !(1..=14).contains(&hand) {
            return Err(LeafError::Incomplete(format!("players={players}, hand={hand}: not a dominoes variant")));
        }
        let p = RoundPoints {
            players: players as u8,
            hand: hand as u8,
            openspiel: rules.ok_or_else(|| LeafError::Incomplete("no `rules=` line".into()))?,
            none: need(none, "none")?,
            counts,
        };
        let rounds = need(rounds, "rounds")?;
        if p.rounds() != rounds {
            return Err(LeafError::Incomplete(format!(
                "rounds={rounds} but none and the points counts add up to {}",
                p.rounds()
            )));
        }
        if p.scored() == 0 {
            return Err(LeafError::Incomplete("no round with points".into()));
        }
        Ok(p)
    }

    /// The file text: `header` as `#` lines, then the counts.
    pub fn to_text(&self, header: &str) -> String {
        let mut s: String = header.lines().map(|l| format!("# {l}\n")).collect();
        let rules = if self.openspiel { "openspiel" } else { "playboard" };
        s += &format!(
            "players={}\nhand={}\nrules={rules}\nrounds={}\nnone={}\n",
            self.players,
            self.hand,
            self.rounds(),
            self.none
        );
        for (x, &c) in self.counts.iter().enumerate().skip(1).filter(|(_, c)| **c > 0) {
            s += &format!("points.{x}={c}\n");
        }
        s
    }

    /// The mean points of a round that gave points.
    pub fn mean_points(&self) -> f64 {
        let sum: f64 = self.counts.iter().enumerate().map(|(x, &c)| x as f64 * c as f64).sum();
        sum / self.scored().max(1) as f64
    }
}

/// Two players' chances of winning a match to `target` from every pair of
/// points still needed, for one round-points distribution.
#[derive(Clone, Debug)]
pub struct WinTable {
    target: u32,
    /// `w[(a - 1) * target + (b - 1)]`: the chance that the player who
    /// needs `a` points wins against one who needs `b`.
    w: Vec<f64>,
}

impl WinTable {
    /// Solves the match for two players from `points`: a round that gives
    /// points is won by either player with chance 1/2 and is worth `x` with
    /// the fitted frequency of `x`; rounds without points change nothing
    /// and drop out. `None` for a target of 0 or above [`MAX_TARGET`].
    pub fn new(points: &RoundPoints, target: u32) -> Option<WinTable> {
        if target == 0 || target > MAX_TARGET {
            return None;
        }
        let total = points.scored() as f64;
        let d: Vec<f64> = points.counts.iter().map(|&c| c as f64 / total).collect();
        let t = target as usize;
        // tail[a]: the chance that a scoring round is worth a or more.
        let mut tail = vec![0.0; t + 1];
        tail[t] = d.iter().skip(t).sum();
        for a in (1..t).rev() {
            tail[a] = tail[a + 1] + d.get(a).copied().unwrap_or(0.0);
        }
        let mut w = vec![0.0; t * t];
        for a in 1..=t {
            for b in 1..=t {
                let mut mine = tail[a];
                for x in 1..a.min(d.len()) {
                    mine += d[x] * w[(a - x - 1) * t + (b - 1)];
                }
                let mut theirs = 0.0;
                for x in 1..b.min(d.len()) {
                    theirs += d[x] * w[(a - 1) * t + (b - x - 1)];
                }
                w[(a - 1) * t + (b - 1)] = 0.5 * (mine + theirs);
            }
        }
        Some(WinTable { target, w })
    }

    /// The target it was solved for.
    pub fn target(&self) -> u32 {
        self.target
    }

    /// The chance that the player with `mine` points beats the one with
    /// `theirs`, both below the target (scores at or above it count as
    /// the target less one point).
    pub fn chance(&self, mine: u32, theirs: u32) -> f64 {
        let t = self.target as usize;
        let need = |s: u32| t - (s as usize).min(t - 1);
        self.w[(need(mine) - 1) * t + (need(theirs) - 1)]
    }
}

/// The learned leaf of one search: the shipped distribution's table for
/// the target of the states it is asked about, solved on first use.
#[derive(Clone, Debug, Default)]
pub struct LearnedLeaf {
    table: Option<WinTable>,
}

impl LearnedLeaf {
    /// Each player's chance of winning the match from `s`'s scores (unused
    /// entries 0), or `None` where the model does not apply: a player count
    /// other than 2, a hand or rules other than the fitted ones, a target
    /// above [`MAX_TARGET`].
    pub fn chances(&mut self, s: &State) -> Option<Scores> {
        let v = s.variant();
        if v.players != 2 || !RoundPoints::shipped().fits(v) {
            return None;
        }
        if self.table.as_ref().is_none_or(|t| t.target() != v.target) {
            self.table = Some(WinTable::new(RoundPoints::shipped(), v.target)?);
        }
        let table = self.table.as_ref()?;
        let sc = s.scores();
        let mut r = [0.0; game_search::MAX_PLAYERS];
        r[0] = table.chance(sc[0], sc[1]);
        r[1] = 1.0 - r[0];
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_player(target: u32) -> Variant {
        Variant { target, ..Variant::default() }
    }

    #[test]
    fn the_shipped_file_parses_and_round_trips() {
        let p = RoundPoints::shipped();
        assert!(p.fits(Variant::default()), "{p:?}");
        assert!(p.scored() > 1000, "{}", p.scored());
        assert_eq!(RoundPoints::parse(&p.to_text("a header\nof two lines")).unwrap(), *p);
    }

    #[test]
    fn the_table_is_symmetric_monotone_and_knows_the_target() {
        let t = WinTable::new(RoundPoints::shipped(), 100).unwrap();
        for a in (0..100).step_by(7) {
            for b in (0..100).step_by(9) {
                let (p, q) = (t.chance(a, b), t.chance(b, a));
                assert!((p + q - 1.0).abs() < 1e-9, "{a}-{b}: {p} + {q}");
                if a + 1 < 100 {
                    assert!(t.chance(a + 1, b) >= p - 1e-12, "{a}-{b}");
                }
            }
        }
        assert!((t.chance(0, 0) - 0.5).abs() < 1e-9);
        // exp(score / 25) values a 25-point lead at e / (1 + e) = 0.731
        // wherever it is; the model values it by the target's distance:
        // less at the start (with the shipped counts 0.63 at 25-0), more
        // near the end (0.72 at 90-65: a round is worth 18 points on average).
        let (late, early) = (t.chance(90, 65), t.chance(25, 0));
        assert!(late > early + 0.05 && early < 0.7, "late {late}, early {early}");
        assert!(t.chance(99, 0) > 0.9 && t.chance(99, 0) < 1.0, "{}", t.chance(99, 0));
    }

    #[test]
    fn a_one_point_game_is_solved_exactly() {
        // Every scoring round is worth 1: needing a against b is the chance
        // that a fair coin shows a heads before b tails.
        let mut p = RoundPoints::empty(two_player(3));
        p.add(Some(1));
        p.add(None);
        let t = WinTable::new(&p, 3).unwrap();
        assert!((t.chance(2, 2) - 0.5).abs() < 1e-12);
        assert!((t.chance(2, 1) - 0.75).abs() < 1e-12, "{}", t.chance(2, 1));
        assert!((t.chance(2, 0) - 0.875).abs() < 1e-12);
        assert!((t.chance(1, 0) - 0.6875).abs() < 1e-12);
        assert!(WinTable::new(&p, 0).is_none() && WinTable::new(&p, MAX_TARGET + 1).is_none());
    }

    #[test]
    fn the_leaf_applies_to_the_fitted_variant_only() {
        let mut leaf = LearnedLeaf::default();
        let s = State::start(Variant::default());
        let r = leaf.chances(&s).unwrap();
        assert!((r[0] - 0.5).abs() < 1e-9 && (r[0] + r[1] - 1.0).abs() < 1e-12 && r[2] == 0.0);
        for v in ["players=3", "hand=6", "target=2000"] {
            let v = Variant::parse(v).unwrap();
            assert!(leaf.chances(&State::start(v)).is_none(), "{v:?}");
        }
        assert!(leaf.chances(&State::start(Variant::parse("target=50").unwrap())).is_some());
    }

    #[test]
    fn bad_files_are_refused_with_their_line() {
        let good = RoundPoints::shipped().to_text("h");
        let e = RoundPoints::parse(&good.replace("none=", "none=x")).unwrap_err().to_string();
        assert!(e.contains("`none=x") && e.contains("is not a count"), "{e}");
        let e = RoundPoints::parse(&format!("{good}points.0=3\n")).unwrap_err().to_string();
        assert!(e.contains("key `points.0` is unknown"), "{e}");
        let e = RoundPoints::parse(&format!("{good}players=2\n")).unwrap_err().to_string();
        assert!(e.contains("`players` is given twice"), "{e}");
        let e = RoundPoints::parse(&good.replace("rounds=", "rounds=1")).unwrap_err().to_string();
        assert!(e.contains("add up to"), "{e}");
        let e = RoundPoints::parse("players=2\nhand=7\nrules=playboard\nnone=0\n").unwrap_err().to_string();
        assert_eq!(e, "leaf file: no `rounds=` line");
        let e = RoundPoints::parse("oops\n").unwrap_err().to_string();
        assert_eq!(e, "leaf file line 1: `oops` is not key=value");
    }
}
