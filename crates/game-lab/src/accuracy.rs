//! How well the players of many annotated games played: for every seat ×
//! agent of a batch (and each agent over its seats, each seat over its
//! agents, everyone), the moves judged, their mean loss of win probability
//! (lichess's "average loss" per move, [`crate::winprob::judge`]), the
//! moves marked `?!`, `?` and `??`, and blunders per 100 moves, both rates
//! with a 95% interval. `senat annotate FILE --all` fills it.
//!
//! The intervals treat games as independent clusters of moves: the rate is
//! the ratio `Σ loss / Σ moves` over games and its standard error the
//! ratio estimator's (cluster-robust, `n/(n−1)` corrected), so moves of one
//! game, which share a position and an opponent, are not counted as
//! independent. Student's 95% interval with one degree of freedom less
//! than the games (few games, few clusters), clamped to the rate's range; none
//! under two games; for a rate of 0 (no blunder at all), the rule of
//! three's upper bound.
//!
//! What this module must never do: search, play, or read or write a file
//! (the binary annotates the games and writes the table atomically).

use crate::stats::Z95;
use crate::winprob::Mark;
use std::collections::BTreeMap;

/// One judged move of a game: who made it and what it lost.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgedMove {
    /// The mover's seat (`red`, `white`, `player 2`).
    pub seat: String,
    /// The agent that played the seat (as the batch file names it).
    pub agent: String,
    /// The loss of win probability, at least 0.
    pub loss: f64,
    /// Its mark, if any.
    pub mark: Option<Mark>,
}

/// The label of a row's seat or agent taken over all of them.
pub const ALL: &str = "all";

/// One game's sums in one row: moves, loss, blunders.
#[derive(Clone, Copy, Debug, Default)]
struct GameSums {
    moves: f64,
    loss: f64,
    blunders: f64,
}

/// A row being filled: its games' sums and its marks.
#[derive(Clone, Debug, Default)]
struct Cell {
    games: Vec<GameSums>,
    marks: [u64; 3],
}

/// The rows of [`AccuracyTally`]'s table, in their printed order: every
/// seat × agent, then each agent over its seats, each seat over its
/// agents, and everyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Group {
    SeatAgent,
    Agent,
    Seat,
    Everyone,
}

/// The tally of many games' judged moves ([`AccuracyTally::add_game`]).
#[derive(Clone, Debug, Default)]
pub struct AccuracyTally {
    cells: BTreeMap<(Group, String, String), Cell>,
    games: u64,
}

/// One row of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct AccuracyRow {
    /// The seat, or [`ALL`].
    pub seat: String,
    /// The agent, or [`ALL`].
    pub agent: String,
    /// Games with at least one judged move of the row.
    pub games: u64,
    /// Moves judged.
    pub moves: u64,
    /// Their mean loss of win probability.
    pub mean_loss: f64,
    /// Its 95% interval (`None` under two games).
    pub loss_interval: Option<(f64, f64)>,
    /// Moves marked `?!`, `?`, `??`.
    pub marks: [u64; 3],
    /// Blunders (`??`) per 100 moves.
    pub blunders_per_100: f64,
    /// Its 95% interval (`None` under two games).
    pub blunder_interval: Option<(f64, f64)>,
}

/// The CSV columns of [`AccuracyTally::csv`].
pub const CSV_HEADER: [&str; 13] = [
    "seat",
    "agent",
    "games",
    "moves",
    "mean_loss",
    "loss_low",
    "loss_high",
    "inaccuracies",
    "mistakes",
    "blunders",
    "blunders_per_100",
    "blunders_low",
    "blunders_high",
];

/// The ratio `Σy / Σm` over clusters `(m, y)` and its normal 95% interval
/// by the ratio estimator's standard error, clamped to `range` (`None`
/// under two clusters or without weight). With `Σy = 0` the standard error
/// is 0 and says nothing: the interval is then the rule of three's, `[0,
/// 3·range.1/Σm]` (each of `Σm` values in `range` taken as independent: a
/// mean `μ` leaves them all 0 with probability at most `e^(−μΣm/range.1)`).
fn ratio(clusters: &[(f64, f64)], range: (f64, f64)) -> (f64, Option<(f64, f64)>) {
    let (m, y) = clusters.iter().fold((0.0, 0.0), |(m, y), c| (m + c.0, y + c.1));
    if m <= 0.0 {
        return (0.0, None);
    }
    if y == 0.0 {
        return (0.0, Some((0.0, (3.0 * range.1 / m).min(range.1))));
    }
    let r = y / m;
    let n = clusters.len() as f64;
    if clusters.len() < 2 {
        return (r, None);
    }
    let m_bar = m / n;
    let ss: f64 = clusters.iter().map(|&(mi, yi)| (yi - r * mi).powi(2)).sum();
    let se = (ss / (n * (n - 1.0))).sqrt() / m_bar;
    let t = t975(clusters.len() - 1);
    (r, Some(((r - t * se).max(range.0), (r + t * se).min(range.1))))
}

/// Student's t quantile 0.975 with `df` degrees of freedom (`df` ≥ 1): a
/// table to 30, then the Cornish–Fisher expansion around [`Z95`] (within
/// 1e-4 there).
fn t975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    if df <= TABLE.len() {
        return TABLE[df.max(1) - 1];
    }
    let (z, d) = (Z95, df as f64);
    z + (z.powi(3) + z) / (4.0 * d) + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * d * d)
}

impl AccuracyTally {
    /// An empty tally.
    pub fn new() -> AccuracyTally {
        AccuracyTally::default()
    }

    /// Adds one game's judged moves (a game without any still counts in
    /// [`AccuracyTally::games`]).
    pub fn add_game(&mut self, moves: &[JudgedMove]) {
        self.games += 1;
        let mut sums: BTreeMap<(Group, String, String), (GameSums, [u64; 3])> = BTreeMap::new();
        for m in moves {
            let keys = [
                (Group::SeatAgent, m.seat.clone(), m.agent.clone()),
                (Group::Agent, ALL.to_string(), m.agent.clone()),
                (Group::Seat, m.seat.clone(), ALL.to_string()),
                (Group::Everyone, ALL.to_string(), ALL.to_string()),
            ];
            for key in keys {
                let (s, marks) = sums.entry(key).or_default();
                s.moves += 1.0;
                s.loss += m.loss;
                if let Some(k) = m.mark {
                    marks[k as usize] += 1;
                    if k == Mark::Blunder {
                        s.blunders += 1.0;
                    }
                }
            }
        }
        for (key, (s, marks)) in sums {
            let cell = self.cells.entry(key).or_default();
            cell.games.push(s);
            for (total, k) in cell.marks.iter_mut().zip(marks) {
                *total += k;
            }
        }
    }

    /// Games added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The rows: every seat × agent, then each agent over its seats, each
    /// seat over its agents, everyone. The over-all rows of a batch with
    /// one agent or one seat repeat the seat × agent rows and are left out.
    pub fn rows(&self) -> Vec<AccuracyRow> {
        let count = |g: Group| self.cells.keys().filter(|k| k.0 == g).count();
        let (pairs, agents, seats) = (count(Group::SeatAgent), count(Group::Agent), count(Group::Seat));
        self.cells
            .iter()
            .filter(|((g, ..), _)| match g {
                Group::SeatAgent => true,
                Group::Agent => agents < pairs,
                Group::Seat => seats < pairs,
                Group::Everyone => agents > 1 && seats > 1,
            })
            .map(|((_, seat, agent), cell)| {
                let loss: Vec<(f64, f64)> = cell.games.iter().map(|s| (s.moves, s.loss)).collect();
                let blunders: Vec<(f64, f64)> = cell.games.iter().map(|s| (s.moves, 100.0 * s.blunders)).collect();
                let (mean_loss, loss_interval) = ratio(&loss, (0.0, 1.0));
                let (blunders_per_100, blunder_interval) = ratio(&blunders, (0.0, 100.0));
                AccuracyRow {
                    seat: seat.clone(),
                    agent: agent.clone(),
                    games: cell.games.len() as u64,
                    moves: cell.games.iter().map(|s| s.moves as u64).sum(),
                    mean_loss,
                    loss_interval,
                    marks: cell.marks,
                    blunders_per_100,
                    blunder_interval,
                }
            })
            .collect()
    }

    /// The table as CSV ([`CSV_HEADER`]), after the `#` lines of `notes`
    /// (what was annotated, by whom).
    pub fn csv(&self, notes: &[String]) -> Vec<u8> {
        let mut out = Vec::new();
        for n in notes {
            out.extend_from_slice(format!("# {n}\n").as_bytes());
        }
        let f = |x: f64| format!("{x:.6}");
        let bound = |i: Option<(f64, f64)>, hi: bool| i.map_or(String::new(), |(l, h)| f(if hi { h } else { l }));
        let mut w = csv::Writer::from_writer(out);
        let mut rows = vec![CSV_HEADER.map(str::to_string).to_vec()];
        for r in self.rows() {
            rows.push(vec![
                r.seat.clone(),
                r.agent.clone(),
                r.games.to_string(),
                r.moves.to_string(),
                f(r.mean_loss),
                bound(r.loss_interval, false),
                bound(r.loss_interval, true),
                r.marks[0].to_string(),
                r.marks[1].to_string(),
                r.marks[2].to_string(),
                f(r.blunders_per_100),
                bound(r.blunder_interval, false),
                bound(r.blunder_interval, true),
            ]);
        }
        for row in rows {
            w.write_record(&row).expect("a CSV row to memory");
        }
        w.into_inner().expect("a CSV to memory")
    }

    /// The table as the terminal shows it.
    pub fn table(&self) -> String {
        let interval = |i: Option<(f64, f64)>, digits: usize| {
            i.map_or("-".to_string(), |(l, h)| format!("[{l:.digits$}, {h:.digits$}]"))
        };
        let mut s = format!(
            "  {:<10} {:<24} {:>6} {:>7}  {:>9} {:<16} {:>5} {:>5} {:>5}  {:>9} {}\n",
            "seat", "agent", "games", "moves", "mean loss", "95% interval", "?!", "?", "??", "??/100", "95% interval"
        );
        for r in self.rows() {
            s.push_str(&format!(
                "  {:<10} {:<24} {:>6} {:>7}  {:>9.4} {:<16} {:>5} {:>5} {:>5}  {:>9.2} {}\n",
                r.seat,
                r.agent,
                r.games,
                r.moves,
                r.mean_loss,
                interval(r.loss_interval, 4),
                r.marks[0],
                r.marks[1],
                r.marks[2],
                r.blunders_per_100,
                interval(r.blunder_interval, 2)
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(seat: &str, agent: &str, loss: f64, mark: Option<Mark>) -> JudgedMove {
        JudgedMove { seat: seat.into(), agent: agent.into(), loss, mark }
    }

    #[test]
    fn one_game_has_no_interval_and_its_sums_are_the_rows() {
        let mut t = AccuracyTally::new();
        t.add_game(&[
            mv("red", "a", 0.0, None),
            mv("blue", "b", 0.3, Some(Mark::Blunder)),
            mv("red", "a", 0.1, Some(Mark::Mistake)),
            mv("blue", "b", 0.0, None),
        ]);
        let rows = t.rows();
        // Two seat × agent rows, and everyone (one agent a seat: the
        // per-agent and per-seat rows would repeat them).
        assert_eq!(rows.len(), 3, "{rows:?}");
        let blue = &rows.iter().find(|r| r.seat == "blue").unwrap();
        assert_eq!((blue.games, blue.moves, blue.marks), (1, 2, [0, 0, 1]));
        assert!((blue.mean_loss - 0.15).abs() < 1e-12);
        assert!((blue.blunders_per_100 - 50.0).abs() < 1e-12);
        assert_eq!(blue.loss_interval, None);
        let all = rows.last().unwrap();
        assert_eq!((all.seat.as_str(), all.agent.as_str(), all.moves), (ALL, ALL, 4));
        assert!((all.mean_loss - 0.1).abs() < 1e-12);
    }

    #[test]
    fn the_interval_is_the_ratio_estimators_and_weights_moves_not_games() {
        // Game 1: 1 move losing 0.4; game 2: 3 moves losing 0 each. The
        // rate is 0.4 / 4 = 0.1 (a mean of games' means would say 0.2).
        let mut t = AccuracyTally::new();
        t.add_game(&[mv("x", "a", 0.4, Some(Mark::Blunder))]);
        t.add_game(&[mv("x", "a", 0.0, None), mv("x", "a", 0.0, None), mv("x", "a", 0.0, None)]);
        let r = &t.rows()[0];
        assert!((r.mean_loss - 0.1).abs() < 1e-12);
        // Residuals y − r·m: 0.4 − 0.1 = 0.3, 0 − 0.3 = −0.3; ss = 0.18;
        // se = sqrt(0.18 / 2) / 2 = 0.15.
        assert_eq!(r.loss_interval, Some((0.0, 1.0)), "t(1) = 12.706: clamped to the range");
        let (_, i) = ratio(&[(1.0, 0.4), (3.0, 0.0)], (-10.0, 10.0));
        let (lo, hi) = i.unwrap();
        assert!((hi - (0.1 + 12.706 * 0.15)).abs() < 1e-12 && (lo - (0.1 - 12.706 * 0.15)).abs() < 1e-12, "{i:?}");
        assert!((r.blunders_per_100 - 25.0).abs() < 1e-12);
    }

    #[test]
    fn t975_meets_its_table_and_tends_to_the_normal() {
        assert_eq!(t975(1), 12.706);
        assert_eq!(t975(30), 2.042);
        assert!((t975(31) - 2.0395).abs() < 2e-4, "{}", t975(31));
        assert!((t975(120) - 1.9799).abs() < 1e-4, "{}", t975(120));
        assert!((t975(1_000_000) - Z95).abs() < 1e-5);
    }

    #[test]
    fn no_event_gives_the_rule_of_three_not_an_empty_interval() {
        let mut t = AccuracyTally::new();
        for _ in 0..3 {
            t.add_game(&[mv("x", "a", 0.01, None), mv("x", "a", 0.0, None)]);
        }
        let r = &t.rows()[0];
        assert_eq!(r.blunders_per_100, 0.0);
        assert_eq!(r.blunder_interval, Some((0.0, 300.0 / 6.0)));
        assert!((r.mean_loss - 0.005).abs() < 1e-12);
    }

    #[test]
    fn agents_over_seats_and_seats_over_agents_when_they_differ() {
        let mut t = AccuracyTally::new();
        t.add_game(&[mv("red", "a", 0.1, None), mv("blue", "b", 0.2, None)]);
        t.add_game(&[mv("red", "b", 0.0, None), mv("blue", "a", 0.0, None)]);
        let keys: Vec<(String, String)> = t.rows().into_iter().map(|r| (r.seat, r.agent)).collect();
        let k = |s: &str, a: &str| (s.to_string(), a.to_string());
        assert_eq!(
            keys,
            vec![
                k("blue", "a"),
                k("blue", "b"),
                k("red", "a"),
                k("red", "b"),
                k(ALL, "a"),
                k(ALL, "b"),
                k("blue", ALL),
                k("red", ALL),
                k(ALL, ALL)
            ]
        );
        let csv = String::from_utf8(t.csv(&["annotated x".into()])).unwrap();
        assert!(csv.starts_with("# annotated x\nseat,agent,games,moves,mean_loss,"), "{csv}");
        assert_eq!(csv.lines().count(), 2 + 9);
        assert!(t.table().contains("mean loss"));
    }
}
