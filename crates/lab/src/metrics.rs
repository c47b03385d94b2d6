//! Ludii's game metrics for a file of games: every game replayed from a
//! start position, a state evaluation read at each ply where a move was
//! made, and one table of metrics with 95% intervals. One module for every
//! game: Sénat's games files here ([`replay`]), the other games' moves files
//! in [`records`] (each game supplying its replay, legal-move counts,
//! evaluation and end reasons through [`records::Measured`], implemented in
//! its own module under [`crate::games`]).
//!
//! What it is for: to measure a rules variant, or a strength tier, with
//! the figures the Ludii general game system reports for its games
//! (Browne, Stephenson et al., `Evaluation/src/metrics` of Ludii), so that
//! our games can be set beside them. Each metric's doc comment says how
//! Ludii defines it and where ours differs; [`Metrics::rows`] carries the
//! same definitions as text, with each game's own words from its [`Profile`].
//!
//! Sides: a game has 2 to [`MAX_SIDES`] sides (teams, or players each for
//! himself); every side has a value in each evaluated position, as Ludii
//! asks every player's. With teams (4-player Focus) a side is a team and
//! its value the team's. The leaders of a position are the set of sides of
//! the highest value; LeadChange counts changes of that set, Drama measures
//! how far the eventual winner is below the highest value of any side, and
//! DecisivenessMoves compares the winner's value with the highest value any
//! other side ever had: with two sides these are exactly the two-player
//! definitions, with more they are Ludii's per-player ones.
//!
//! Sénat's state evaluation is [`Learned::value`] (P(win), a draw counting
//! half), where Ludii uses its alpha-beta heuristic squashed by `tanh` into
//! −1..1: on Ludii's scale our value is `2v − 1` (exactly `tanh(logit/2)`),
//! so only [`drama`] depends on the scale (Ludii's figure is twice ours);
//! lead changes and decisiveness compare values and do not. As in Ludii a
//! game's values are read in the positions where a move was made (the final
//! position is not read). Draft positions are excluded: the values are read
//! in the play positions only (Ludii likewise skips a game's initial
//! placement moves), so "per move" below means per play half-move. The
//! other games' evaluations are in their [`Profile`]s.
//!
//! Replay: [`replay`] plays a game row's draft and play moves from the start
//! position it is given (a rules variant's start, later) through the rules
//! crate, checking each move, and checks that the game ends as the row
//! says; a bad move or a wrong ending is a [`ReplayError`] naming the game
//! and the move. The end rules are the rules crate's ([`GameRecord::outcome`]):
//! no threshold is written here.
//!
//! Intervals: Wilson score intervals for shares; for means over games, the
//! normal interval `mean ± 1.96·sd/√n` (clamped to the metric's range);
//! for quantiles, the distribution-free interval between two order
//! statistics (ranks `nq ∓ 1.96·√(nq(1−q))`). Memory is flat: per file,
//! histograms of lengths and running moments, and one game's values.
//!
//! What this module must never do: read or write files or print (its
//! caller hands it the rows and writes the table), encode a rule of the game
//! (it asks the rules crates, through each game's adapter), or name the
//! command line.

pub mod records;

use crate::annex::{AnnexError, GameRow};
use crate::learned::Learned;
use crate::stats::{REASONS, Z95, wilson, wilson_share};
use senat_rules::dice::Side;
use senat_rules::game::{EndReason, GameRecord, Outcome};
use senat_rules::notation::MoveError;
use senat_rules::position::Position;
use std::fmt;

/// The most sides a game of the lab has (4-player dominoes).
pub const MAX_SIDES: usize = 4;

/// The evaluation of one position for every side: each side's P(win), a
/// draw counting half (Sénat: side 0 is blue, side 1 red).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Values {
    v: [f64; MAX_SIDES],
    sides: u8,
}

/// Who leads a position by its [`Values`]: the set of sides of the highest
/// value (Ludii's set of leaders), bit `i` for side `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaders(pub u8);

impl Values {
    /// The values of `v.len()` sides (2 to [`MAX_SIDES`]; extra ones are
    /// dropped, a missing second side is 0).
    pub fn new(v: &[f64]) -> Values {
        let sides = v.len().clamp(2, MAX_SIDES);
        let mut a = [0.0; MAX_SIDES];
        for (x, &y) in a.iter_mut().zip(v) {
            *x = y;
        }
        Values { v: a, sides: sides as u8 }
    }

    /// Sénat: both sides' values of `p` by `eval`, each asked separately
    /// (as Ludii asks every player's); side 0 is blue.
    pub fn of(eval: &Learned, p: &Position) -> Values {
        Values::new(&[eval.value(p, Side::Blue), eval.value(p, Side::Red)])
    }

    /// The number of sides.
    pub const fn sides(self) -> usize {
        self.sides as usize
    }

    /// The value of side `i`.
    pub fn side(self, i: usize) -> f64 {
        self.v[i]
    }

    /// The highest value of any side.
    pub fn best(self) -> f64 {
        self.v[..self.sides()].iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }

    /// The leaders.
    pub fn leaders(self) -> Leaders {
        let best = self.best();
        Leaders((0..self.sides()).filter(|&i| self.v[i] == best).fold(0, |m, i| m | 1 << i))
    }
}

/// Sénat's side index in [`Values`]: blue 0, red 1.
pub const fn senat_side(s: Side) -> usize {
    match s {
        Side::Blue => 0,
        Side::Red => 1,
    }
}

/// One game replayed: what the metrics need of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// The side that made the first evaluated move (the first mover, player
    /// 1 in Ludii's terms; Sénat: the first play move); with no such move,
    /// the side to move.
    pub first: usize,
    /// The sides of the game.
    pub sides: usize,
    /// The winning side (`None`: a draw).
    pub winner: Option<usize>,
    /// How the game ended: an index into the [`Profile`]'s reasons.
    pub reason: usize,
    /// The values of each evaluated position where a move was made, in
    /// order: one per counted ply (Sénat: per play half-move).
    pub values: Vec<Values>,
    /// Sum of the legal-move counts of those positions (Sénat: the row's `play_legal_sum`).
    pub legal_sum: u64,
    /// Whether the game is in the profile's spike (Sénat: a closure with no
    /// die through the door during the play).
    pub spike: bool,
}

impl Trace {
    /// An empty trace, to be filled by a replay.
    pub fn new() -> Trace {
        Trace { first: 0, sides: 2, winner: None, reason: 0, values: Vec::new(), legal_sum: 0, spike: false }
    }

    /// Counted plies (Sénat: play half-moves).
    pub fn play_len(&self) -> usize {
        self.values.len()
    }
}

impl Default for Trace {
    fn default() -> Trace {
        Trace::new()
    }
}

// ---- per-game metrics ---------------------------------------------------

/// LeadChange of one game: the number of plies whose leaders
/// ([`Values::leaders`]) differ from those of the ply before, divided by
/// the number of such pairs (plies − 1); `None` below two plies.
///
/// Ludii (`LeadChange`, "percentage number of times the expected winner
/// changes"): the same count, but its first ply always counts as a change
/// (the leaders before it are the empty set), divided by the number of
/// moves: Ludii's figure is `(ours·(n−1) + 1)/n`. Ours is 0 for a game
/// whose leader never changes and 1 for one whose leader changes every ply.
/// With more than two sides the leaders are a set: a change is any change
/// of the set (a tie joining or leaving counts).
pub fn lead_change(values: &[Values]) -> Option<f64> {
    if values.len() < 2 {
        return None;
    }
    let changes = values.windows(2).filter(|w| w[0].leaders() != w[1].leaders()).count();
    Some(changes as f64 / (values.len() - 1) as f64)
}

/// Drama of one game won by side `winner`: per ply, how far the winner's
/// value falls below the highest value of any side (0 when the winner
/// leads); returns the mean and the maximum over the plies, `None` without
/// plies.
///
/// Ludii (`Drama`, "difference between the winning player's state
/// evaluation and the maximum state evaluation of any player"; its
/// `Average` and `Max` variants): the same, on its −1..1 scale, where the
/// figures are twice ours. Ludii also counts draws, both players being
/// "winners" (a draw then measures how far from even the positions were);
/// ours takes decided games only.
pub fn drama(values: &[Values], winner: usize) -> Option<(f64, f64)> {
    if values.is_empty() {
        return None;
    }
    let gaps = values.iter().map(|v| v.best() - v.side(winner));
    let (sum, max) = gaps.fold((0.0, 0.0_f64), |(s, m), g| (s + g, m.max(g)));
    Some((sum / values.len() as f64, max))
}

/// DecisivenessMoves of one game won by side `winner`: the threshold is the
/// highest value any other side ever had; the result is the share of the
/// plies (from the first, over all the plies) before the winner's value
/// first exceeds it, 1 if it never does. `None` without plies.
///
/// Ludii (`DecisivenessMoves` with `DecisivenessThreshold`): the same
/// threshold (the maximum evaluation of any non-winning player) and the
/// same first ply, but its division is between integers (Java `int / int`),
/// so Ludii's figure per game is 0 unless the threshold is never passed
/// (then 1); ours is the fraction Ludii describes. Ludii counts draws (with
/// no non-winner the threshold is −1, passed at once: 0); ours takes
/// decided games only.
pub fn decisiveness_moves(values: &[Values], winner: usize) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let others = |v: Values| (0..v.sides()).filter(move |&i| i != winner).map(move |i| v.side(i));
    let threshold = values.iter().flat_map(|&v| others(v)).fold(f64::NEG_INFINITY, f64::max);
    let first = values.iter().position(|v| v.side(winner) > threshold).unwrap_or(values.len());
    Some(first as f64 / values.len() as f64)
}

// ---- replay ---------------------------------------------------------------

/// What is wrong with one move of a game row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveProblem {
    /// Not move text, or not a legal move in its position (the rules' reason).
    Move(MoveError),
    /// Another game's move that is unreadable or illegal in its position
    /// (its rules' message).
    Rules(String),
    /// The game was already over.
    AfterEnd(Outcome),
    /// Another game's move after its end (the final position's result).
    Over(String),
    /// A move of the `draft_moves` column in a play position.
    DraftInPlay,
    /// A move of the `play_moves` column while the draft is not over.
    PlayInDraft,
}

impl fmt::Display for MoveProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveProblem::Move(e) => write!(f, "{e}"),
            MoveProblem::Rules(e) => f.write_str(e),
            MoveProblem::AfterEnd(o) => write!(f, "the game is already over ({o})"),
            MoveProblem::Over(o) => write!(f, "the game is already over ({o})"),
            MoveProblem::DraftInPlay => f.write_str("a draft move, but the draft is over"),
            MoveProblem::PlayInDraft => f.write_str("a play move, but the draft is not over"),
        }
    }
}

/// Why a game row does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayProblem {
    /// One move is wrong.
    Move {
        /// The column: `draft_moves` or `play_moves`.
        column: &'static str,
        /// The move's 1-based number in its column.
        number: usize,
        /// The move as written.
        token: String,
        /// What is wrong.
        problem: MoveProblem,
    },
    /// Every move was played and the game is not over.
    NotOver,
    /// The game ends otherwise than the row says.
    Outcome {
        /// The row's winner and reason.
        recorded: Outcome,
        /// The replay's.
        replayed: Outcome,
    },
    /// The row's `play_half_moves` is not the number of play moves.
    PlayCount {
        /// The row's count.
        recorded: u32,
        /// The moves played.
        replayed: usize,
    },
}

/// A game row that does not replay: its line, its game index and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The row's line in its file.
    pub line: u64,
    /// The row's game index.
    pub game: u64,
    /// What is wrong.
    pub problem: ReplayProblem,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}: ", self.game)?;
        match &self.problem {
            ReplayProblem::Move { column, number, token, problem } => {
                write!(f, "{column}: move {number} `{token}`: {problem}")
            }
            ReplayProblem::NotOver => f.write_str("the game is not over after its last move"),
            ReplayProblem::Outcome { recorded, replayed } => {
                write!(f, "the row says {recorded}, the replay ends in {replayed}")
            }
            ReplayProblem::PlayCount { recorded, replayed } => {
                write!(f, "play_half_moves {recorded} but {replayed} play moves")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// Replays `row` from `start` into `trace` (its buffers reused): every
/// move checked by the rules, the values of each play position read by
/// `eval` before its move, the ending compared with the row's.
pub fn replay(start: &Position, eval: &Learned, row: &GameRow, trace: &mut Trace) -> Result<(), ReplayError> {
    let fail = |problem: ReplayProblem| ReplayError { line: row.line, game: row.game, problem };
    let mut game = GameRecord::new(*start);
    trace.values.clear();
    let mut scored = false;
    let mut first = None;
    for (column, text) in [("draft_moves", &row.draft_moves), ("play_moves", &row.play_moves)] {
        let play = column == "play_moves";
        for (i, token) in text.split(' ').filter(|t| !t.is_empty()).enumerate() {
            let bad = |problem: MoveProblem| {
                fail(ReplayProblem::Move { column, number: i + 1, token: token.to_string(), problem })
            };
            if let Some(o) = game.outcome() {
                return Err(bad(MoveProblem::AfterEnd(o)));
            }
            let p = *game.position();
            match (play, p.is_play()) {
                (false, true) => return Err(bad(MoveProblem::DraftInPlay)),
                (true, false) => return Err(bad(MoveProblem::PlayInDraft)),
                _ => {}
            }
            let m = p.parse_move(token).map_err(|e| bad(MoveProblem::Move(e)))?;
            if play {
                first.get_or_insert(p.side_to_move());
                trace.values.push(Values::of(eval, &p));
            }
            game.play_unchecked(m);
            if play && game.position().clock() == 0 {
                scored = true;
            }
        }
    }
    let replayed = game.outcome().ok_or_else(|| fail(ReplayProblem::NotOver))?;
    let recorded = Outcome { winner: row.summary.winner, reason: row.summary.reason };
    if replayed != recorded {
        return Err(fail(ReplayProblem::Outcome { recorded, replayed }));
    }
    if row.summary.play_len as usize != trace.values.len() {
        return Err(fail(ReplayProblem::PlayCount { recorded: row.summary.play_len, replayed: trace.values.len() }));
    }
    trace.first = senat_side(first.unwrap_or(game.position().side_to_move()));
    trace.sides = 2;
    trace.winner = replayed.winner.map(senat_side);
    trace.reason = REASONS.iter().position(|&r| r == replayed.reason).expect("a known reason");
    trace.spike = replayed.reason == EndReason::Closure && !scored;
    trace.legal_sum = row.summary.legal_sum;
    Ok(())
}

// ---- aggregation ------------------------------------------------------------

/// Running mean and variance of a per-game quantity (Welford).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    /// Games counted.
    pub n: u64,
    mean: f64,
    m2: f64,
}

impl Moments {
    /// Adds one game's value.
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// The mean (`None` without games).
    pub fn mean(&self) -> Option<f64> {
        (self.n > 0).then_some(self.mean)
    }

    /// The sample standard deviation (`None` below two games).
    pub fn sd(&self) -> Option<f64> {
        (self.n > 1).then(|| (self.m2 / (self.n - 1) as f64).max(0.0).sqrt())
    }

    /// The normal 95% interval of the mean, clamped to `range` (`None`
    /// below two games).
    pub fn interval(&self, range: (f64, f64)) -> Option<(f64, f64)> {
        let half = Z95 * self.sd()? / (self.n as f64).sqrt();
        Some(((self.mean - half).max(range.0), (self.mean + half).min(range.1)))
    }
}

/// The value of rank `r` (1-based) of a histogram (index = value).
fn at_rank(h: &[u64], r: u64) -> usize {
    let mut seen = 0;
    for (v, &c) in h.iter().enumerate() {
        seen += c;
        if seen >= r {
            return v;
        }
    }
    h.len().saturating_sub(1)
}

/// The `q`-quantile of a histogram (nearest rank, as [`crate::stats::Tally::quantile`])
/// and its distribution-free 95% interval: the order statistics of ranks
/// `⌊nq − z√(nq(1−q))⌋` and `⌈nq + z√(nq(1−q))⌉`, clamped to 1..=n.
/// `None` for an empty histogram.
pub fn quantile(h: &[u64], q: f64) -> Option<(usize, (usize, usize))> {
    let n: u64 = h.iter().sum();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let rank = |x: f64| (x as u64).clamp(1, n);
    let half = Z95 * (nf * q * (1.0 - q)).sqrt();
    let value = at_rank(h, rank((q * nf).ceil()));
    Some((value, (at_rank(h, rank((nf * q - half).floor())), at_rank(h, rank((nf * q + half).ceil())))))
}

fn bump(h: &mut Vec<u64>, i: usize) {
    if h.len() <= i {
        h.resize(i + 1, 0);
    }
    h[i] += 1;
}

/// One end reason of a game, as its metrics table names it.
#[derive(Clone, Debug, PartialEq)]
pub struct Reason {
    /// Its name (`Share.<name>`, `Duration.<name>`).
    pub name: &'static str,
    /// Whether it is a limit that stops the game before the rules decide it
    /// (a ply or round cap): Ludii's timeout, counted out of Completion and
    /// Drawishness as Ludii does.
    pub timeout: bool,
    /// The definition of its `Share.<name>` row.
    pub share: String,
}

/// The words a game gives its metrics table (each a `definition` column):
/// what differs between games; the shared parts are written by [`Metrics::rows`].
#[derive(Clone, Debug, PartialEq)]
pub struct Texts {
    /// AdvantageP1.
    pub advantage: String,
    /// Balance.
    pub balance: String,
    /// Completion.
    pub completion: String,
    /// Drawishness.
    pub drawishness: String,
    /// Duration (the mean).
    pub duration: String,
    /// DecisivenessMoves.
    pub decisiveness: String,
    /// LeadChange.
    pub lead_change: String,
    /// Drama.
    pub drama: String,
    /// Drama.max.
    pub drama_max: String,
    /// BranchingFactor.
    pub branching: String,
}

/// What the metrics of one game need beyond its traces: its sides, its end
/// reasons in table order, the unit of its lengths and its definitions.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// Sides (teams, or players each for himself): 2 to [`MAX_SIDES`].
    pub sides: usize,
    /// The end reasons; a [`Trace::reason`] indexes them.
    pub reasons: Vec<Reason>,
    /// What a length counts, in the definitions (`play half-moves`, `plies`).
    pub unit: &'static str,
    /// Whether the table has Sénat's ClosureSpike row ([`Trace::spike`]).
    pub spike: bool,
    /// The definitions.
    pub texts: Texts,
    /// The state evaluation in words, as the definitions give it (empty
    /// where they do not name it: Sénat's, whose evaluation `senat metrics
    /// --help` names).
    pub values: String,
}

impl Profile {
    /// Sénat's: two sides (blue 0, red 1), the four end reasons of
    /// [`REASONS`] (none a timeout), lengths in play half-moves, the
    /// closure spike, the learned evaluation.
    pub fn senat() -> Profile {
        Profile {
            sides: 2,
            reasons: REASONS
                .iter()
                .map(|r| Reason {
                    name: r.name(),
                    timeout: false,
                    share: format!("share of games ended by {r} (Ludii has no counterpart; its Timeouts is 0 here)"),
                })
                .collect(),
            unit: "play half-moves",
            spike: true,
            values: String::new(),
            texts: Texts {
                advantage: "the first mover's score (wins + draws/2) / games; the first mover is the side that makes \
                            the first play move (blue in Sénat; the draft's first giver is also blue). Ludii: player \
                            1's share, draws and ranks as partial wins. Interval: Wilson on the score"
                    .into(),
                balance: BALANCE_TWO.into(),
                completion: "share of games with a winner. Ludii: games with a winner (no draw, no timeout at its \
                             move limit). In Sénat repetition, closure and block end the game by a rule and the \
                             piles decide (a draw if equal): none is a cap, so there are no timeouts and Completion \
                             = 1 - Drawishness"
                    .into(),
                drawishness: "share of draws (equal piles when repetition, closure or block ends the game). Ludii: \
                              draws not ended by its turn or move limit (none here)"
                    .into(),
                duration: "mean play half-moves per game (the draft's fixed 46 moves left out). Ludii: DurationMoves, \
                           all moves of a game (here it would be ours + 46). Interval: normal over games"
                    .into(),
                decisiveness: "decided games: the share of the play before the winner's value first exceeds the \
                               highest value the loser ever had (1 if never), averaged. Ludii: the same threshold \
                               and first move, but its int division makes each game 0 or 1, and draws count (as \
                               0). Interval: normal over games"
                    .into(),
                lead_change: "games of 2 or more play plies: the share of consecutive plies whose leader by the \
                              evaluation (the side of higher value, or both if equal) differs, averaged. Ludii: \
                              changes per move with the first move always a change, (ours*(n-1)+1)/n per game. \
                              Interval: normal over games"
                    .into(),
                drama: "decided games: per play ply, the leader's value minus the eventual winner's (0 when the \
                        winner leads), averaged over the plies, then over games. Ludii: Drama Average on its -1..1 \
                        scale (twice ours), draws included with both players as winners. Interval: normal over games"
                    .into(),
                drama_max: "decided games: the largest per-ply fall of the winner below the leader in a game, \
                            averaged over games. Ludii: Drama Maximum (twice ours). Interval: normal over games"
                    .into(),
                branching: "games with play moves: legal moves per play position where a move was made \
                            (play_legal_sum / play_half_moves), averaged over games. Ludii: Branching Factor \
                            Average, the same over all its moves (ours leaves out the draft); selfplay's summary \
                            pools the plies instead. Interval: normal over games"
                    .into(),
            },
        }
    }
}

/// The words of a game other than Sénat, for [`Profile::other`].
#[derive(Clone, Debug)]
pub struct GameWords {
    /// Who the first mover is (`white, player 0`).
    pub first: String,
    /// What a length counts (`plies`).
    pub unit: &'static str,
    /// What the counted plies are, for Duration.
    pub plies: String,
    /// The state evaluation, for the evaluated metrics.
    pub eval: String,
    /// What is counted in BranchingFactor.
    pub branching: String,
}

impl Profile {
    /// Values the positions by `words` (another evaluation than the
    /// game's own, `senat metrics --weights`): the evaluated metrics'
    /// definitions that named the evaluation name `words` instead; the
    /// others (all of Sénat's) end with `Values: {words}`.
    pub fn value_by(&mut self, words: &str) {
        let t = &mut self.texts;
        for text in [&mut t.decisiveness, &mut t.lead_change, &mut t.drama, &mut t.drama_max] {
            if !self.values.is_empty() && text.contains(&self.values) {
                *text = text.replace(&self.values, words);
            } else {
                text.push_str(&format!(". Values: {words}"));
            }
        }
        self.values = words.to_string();
    }

    /// The profile of a game other than Sénat: `sides` sides, these end
    /// reasons, the definitions written from `w`.
    pub fn other(sides: usize, reasons: Vec<Reason>, w: &GameWords) -> Profile {
        let timeouts: Vec<&str> = reasons.iter().filter(|r| r.timeout).map(|r| r.name).collect();
        let draw = if sides == 2 { "draws/2".to_string() } else { format!("draws/{sides}") };
        let (unit, eval) = (w.unit, &w.eval);
        let many = if sides > 2 {
            format!(
                " With {sides} sides the leaders are the set of sides of the highest value (Ludii's per-player \
                 values), and a change is any change of that set"
            )
        } else {
            String::new()
        };
        Profile {
            sides,
            unit,
            spike: false,
            values: eval.clone(),
            texts: Texts {
                advantage: format!(
                    "the first mover's score (wins + {draw}) / games; the first mover is the side that makes the \
                     first decision of the game ({}). Ludii: player 1's share, draws and ranks as partial wins. \
                     Interval: Wilson on the score",
                    w.first
                ),
                balance: if sides == 2 {
                    BALANCE_TWO.to_string()
                } else {
                    format!(
                        "1 - the largest difference between the win shares of two of the {sides} places in turn \
                         order counted from the first mover (draws, shared equally, cancel). Ludii: 1 - the \
                         largest difference between two players' win rates. Interval: normal, of the difference \
                         of the two multinomial shares found furthest apart (the choice of the pair is not \
                         allowed for)"
                    )
                },
                completion: if timeouts.is_empty() {
                    "share of games with a winner. Ludii: games with a winner (no draw, no timeout at its move \
                     limit). Every end of this game is a rule, none a cap: Completion = 1 - Drawishness"
                        .to_string()
                } else {
                    format!(
                        "share of games with a winner that no timeout ({}) ended. Ludii: games with a winner, \
                         no draw and no timeout at its move limit",
                        timeouts.join(", ")
                    )
                },
                drawishness: if timeouts.is_empty() {
                    "share of draws. Ludii: draws not ended by its turn or move limit (none here)".to_string()
                } else {
                    format!(
                        "share of draws that no timeout ({}) ended. Ludii: draws not ended by its turn or move \
                         limit",
                        timeouts.join(", ")
                    )
                },
                duration: format!(
                    "mean {unit} per game ({}). Ludii: DurationMoves. Interval: normal over games",
                    w.plies
                ),
                decisiveness: format!(
                    "decided games: the share of the {unit} before the winner's value first exceeds the highest \
                     value any other side ever had (1 if never), averaged. Ludii: the same threshold and first \
                     move, but its int division makes each game 0 or 1, and draws count (as 0). Values: {eval}. \
                     Interval: normal over games"
                ),
                lead_change: format!(
                    "games of 2 or more evaluated {unit}: the share of consecutive ones whose leaders by the \
                     evaluation (the sides of the highest value) differ, averaged.{many} Ludii: changes per move \
                     with the first move always a change, (ours*(n-1)+1)/n per game. Values: {eval}. Interval: \
                     normal over games"
                ),
                drama: format!(
                    "decided games: per evaluated position, the highest value of any side minus the eventual \
                     winner's (0 when the winner leads), averaged over the positions, then over games. Ludii: \
                     Drama Average on its -1..1 scale (twice ours), draws included with every player as a \
                     winner. Values: {eval}. Interval: normal over games"
                ),
                drama_max: "decided games: the largest per-position fall of the winner below the leader in a game, \
                            averaged over games. Ludii: Drama Maximum (twice ours). Interval: normal over games"
                    .to_string(),
                branching: format!(
                    "games with {unit}: legal moves per position where a decision was made ({}), averaged over \
                     games. Ludii: Branching Factor Average. Interval: normal over games",
                    w.branching
                ),
            },
            reasons,
        }
    }
}

/// Balance's definition with two sides.
const BALANCE_TWO: &str = "1 - |first mover's score - second mover's score| (draws half each, so 1 - |wins1 - wins2| \
                           / games). Ludii: 1 - the largest difference between two players' win rates, draws as \
                           partial wins (its code adds them to an int array, which drops them: the same figure for \
                           two players). Interval: the image of AdvantageP1's";

/// The metrics of one file of games, built one [`Trace`] at a time.
#[derive(Clone, Debug, PartialEq)]
pub struct Metrics {
    /// The game's sides, end reasons and words.
    pub profile: Profile,
    /// Games counted.
    pub games: u64,
    /// Games won by the first mover.
    pub first_wins: u64,
    /// Games won by another side.
    pub second_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Games won by the side `k` places after the first mover in turn order
    /// (sides are numbered in turn order), `k = 0` the first mover.
    pub place_wins: [u64; MAX_SIDES],
    /// Games per end reason, in the profile's order.
    pub reasons: Vec<u64>,
    /// Games per length (index = counted plies): all games, then per end
    /// reason in the profile's order.
    pub lengths: Vec<Vec<u64>>,
    /// Lengths' moments, in the same order.
    pub length_moments: Vec<Moments>,
    /// Games ended by a timeout reason with a winner (a cap the variant scores).
    pub timeout_wins: u64,
    /// Games ended by a timeout reason in a draw.
    pub timeout_draws: u64,
    /// Games in the profile's spike (Sénat: ended by closure with no die
    /// through the door in the whole play).
    pub spike: u64,
    /// The shortest and longest length of the spike's games.
    pub spike_lengths: Option<(usize, usize)>,
    /// Per game: [`lead_change`].
    pub lead_change: Moments,
    /// Per decided game: the mean of [`drama`].
    pub drama: Moments,
    /// Per decided game: the maximum of [`drama`].
    pub drama_max: Moments,
    /// Per decided game: [`decisiveness_moves`].
    pub decisiveness: Moments,
    /// Per game with counted plies: legal moves per evaluated position.
    pub branching: Moments,
    /// The matchups met (their labels), in order of first appearance.
    pub keys: Vec<String>,
}

/// One row of the metrics table.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricRow {
    /// The metric's name (Ludii's, with a `.variant` where ours splits it).
    pub name: String,
    /// Its value (`None` without games to measure).
    pub value: Option<f64>,
    /// Its 95% interval (`None` where it cannot be had).
    pub interval: Option<(f64, f64)>,
    /// The games it is measured on.
    pub games: u64,
    /// What it is: our definition, and Ludii's where it differs.
    pub definition: String,
}

/// One line per metric family, for help texts.
pub const HELP: &str = "\
AdvantageP1        the first mover's (blue's) score: wins plus half the draws, over all games (Ludii's, draws half)
Balance            1 - |first mover's score - second's|: 1 when both sides score alike (Ludii's, draws half)
Completion         share of games with a winner; every Sénat ending is a rule, none a move cap (Ludii: no draw, no timeout)
Drawishness        share of draws (Ludii: draws not by timeout; Sénat has no timeout)
Share.<reason>     share of games ended by majority, repetition, closure or block
ClosureSpike       share of games ended by closure with no die through the door: all at exactly the closure bound
Duration           play half-moves per game: mean, p10, median, p90 (Ludii's DurationMoves counts the draft too)
Duration.<reason>  play half-moves of the games ended by that reason: mean and median
DecisivenessMoves  decided games: share of the play before the winner's value first exceeds the loser's best value
LeadChange         share of consecutive play plies whose leader by the evaluation differs (Ludii counts the first ply too)
Drama              decided games: mean per ply of how far the winner's value is below the leader's (Ludii's x 1/2)
Drama.max          decided games: the largest such fall in a game (Ludii's Drama Maximum x 1/2)
BranchingFactor    mean over games of the legal moves per play position (Ludii's average; ours leaves out the draft)
Values are the learned evaluation's P(win) in each play position where a move was made (draft excluded);
with --weights FILE, that file's learned evaluation's (Sénat, focus, focus4, debacle, connect4; not dominoes).
Other games (focus, focus4, debacle, connect4, dominoes) are read from their moves files (`selfplay --game G --moves M.csv`;
their games files hold no moves). Their lengths are plies (dominoes: plays and passes; deals and draws left out),
their first mover the side that decides first, their sides the teams (4-player Focus: {0,2} and {1,3}; dominoes:
each player); each value is read at every decision, before it:
  focus, focus4, debacle, connect4
                          the alpha-beta agents' evaluation through the fitted logistic 1/(1+e^(-score/scale)),
                          scale 987 (focus), 969 (focus4), 2746 (debacle), 365 (connect4): `eval_scale` of each game
  dominoes                each player's share of exp(score/25), from the match scores alone (what anyone sees)
Ends: focus no-move, cap (the ply cap); debacle target, rounds; connect4 four, full (a draw); dominoes target, hand (rules=openspiel), rounds.
Timeouts           share of games stopped by a cap (Focus's ply cap, dominoes' round limit): Ludii's timeouts,
                   counted neither in Completion nor in Drawishness
With more than two sides (3 or 4 dominoes players) the leaders are the set of sides of the highest value (Ludii's
per-player values): LeadChange counts changes of that set, Drama the winner's fall below the highest value of any
side, DecisivenessMoves compares the winner with the best value of any other side; Balance is 1 - the widest gap
between the win shares of two places in turn order from the first mover.
Intervals (95%): Wilson for shares, normal over games for means, order statistics for quantiles.";

impl Metrics {
    /// No games yet, of the game `profile` describes.
    pub fn new(profile: Profile) -> Metrics {
        let k = profile.reasons.len() + 1;
        Metrics {
            profile,
            games: 0,
            first_wins: 0,
            second_wins: 0,
            draws: 0,
            place_wins: [0; MAX_SIDES],
            reasons: vec![0; k - 1],
            lengths: vec![Vec::new(); k],
            length_moments: vec![Moments::default(); k],
            timeout_wins: 0,
            timeout_draws: 0,
            spike: 0,
            spike_lengths: None,
            lead_change: Moments::default(),
            drama: Moments::default(),
            drama_max: Moments::default(),
            decisiveness: Moments::default(),
            branching: Moments::default(),
            keys: Vec::new(),
        }
    }

    /// Adds one replayed game of the matchup labelled `key`.
    pub fn add(&mut self, key: &str, t: &Trace) {
        if !self.keys.iter().any(|k| k == key) {
            self.keys.push(key.to_string());
        }
        self.games += 1;
        let sides = self.profile.sides.max(1);
        match t.winner {
            Some(w) => {
                if w == t.first {
                    self.first_wins += 1
                } else {
                    self.second_wins += 1
                }
                self.place_wins[(w + sides - t.first % sides) % sides % MAX_SIDES] += 1;
            }
            None => self.draws += 1,
        }
        let r = t.reason.min(self.reasons.len() - 1);
        self.reasons[r] += 1;
        if self.profile.reasons[r].timeout {
            match t.winner {
                Some(_) => self.timeout_wins += 1,
                None => self.timeout_draws += 1,
            }
        }
        let len = t.play_len();
        for i in [0, r + 1] {
            bump(&mut self.lengths[i], len);
            self.length_moments[i].add(len as f64);
        }
        if t.spike {
            self.spike += 1;
            self.spike_lengths = Some(match self.spike_lengths {
                Some((lo, hi)) => (lo.min(len), hi.max(len)),
                None => (len, len),
            });
        }
        if let Some(x) = lead_change(&t.values) {
            self.lead_change.add(x);
        }
        if let Some(w) = t.winner {
            if let Some((mean, max)) = drama(&t.values, w) {
                self.drama.add(mean);
                self.drama_max.add(max);
            }
            if let Some(x) = decisiveness_moves(&t.values, w) {
                self.decisiveness.add(x);
            }
        }
        if len > 0 {
            self.branching.add(t.legal_sum as f64 / len as f64);
        }
    }

    /// The first mover's score: wins plus a share of the draws (1/sides
    /// each: a half with two sides), over the games.
    pub fn advantage_p1(&self) -> Option<f64> {
        let share = if self.profile.sides == 2 { 0.5 } else { 1.0 / self.profile.sides as f64 };
        (self.games > 0).then(|| (self.first_wins as f64 + share * self.draws as f64) / self.games as f64)
    }

    /// Balance with more than two sides: 1 − the largest difference between
    /// two turn places' win shares (draws shared equally cancel), its
    /// interval the normal one of that difference of multinomial shares
    /// `(p_i + p_j − (p_i − p_j)²)/n`, for the pair found largest.
    fn balance_many(&self) -> Option<(f64, Option<(f64, f64)>)> {
        let n = self.games;
        if n == 0 {
            return None;
        }
        let k = self.profile.sides.min(MAX_SIDES);
        let p: Vec<f64> = self.place_wins[..k].iter().map(|&w| w as f64 / n as f64).collect();
        let hi = (0..k).max_by(|&a, &b| p[a].total_cmp(&p[b]))?;
        let lo = (0..k).min_by(|&a, &b| p[a].total_cmp(&p[b]))?;
        let d = p[hi] - p[lo];
        let var = (p[hi] + p[lo] - d * d).max(0.0) / n as f64;
        let half = Z95 * var.sqrt();
        let ci = (n > 1).then(|| ((1.0 - d - half).max(0.0), (1.0 - d + half).min(1.0)));
        Some((1.0 - d, ci))
    }

    /// The table, one row per metric, in a fixed order (see [`HELP`]).
    pub fn rows(&self) -> Vec<MetricRow> {
        let n = self.games;
        let prof = &self.profile;
        let unit = prof.unit;
        let mut rows = Vec::new();
        let mut push = |name: &str, value: Option<f64>, interval: Option<(f64, f64)>, games: u64, def: String| {
            rows.push(MetricRow { name: name.to_string(), value, interval, games, definition: def })
        };
        let share = |k: u64, n: u64| (n > 0).then(|| k as f64 / n as f64);
        let wil = |k: u64, n: u64| (n > 0).then(|| wilson(k, n));

        // AdvantageP1, with Wilson on the score (conservative with draws).
        let adv = self.advantage_p1();
        let adv_ci = adv.map(|a| wilson_share(a, n));
        push("AdvantageP1", adv, adv_ci, n, prof.texts.advantage.clone());
        if prof.sides == 2 {
            // Balance = 1 - |2a - 1|, its interval the image of AdvantageP1's.
            let bal = |a: f64| 1.0 - (2.0 * a - 1.0).abs();
            let bal_ci = adv_ci.map(|(lo, hi)| {
                let (a, b) = (bal(lo), bal(hi));
                if lo <= 0.5 && 0.5 <= hi { (a.min(b), 1.0) } else { (a.min(b), a.max(b)) }
            });
            push("Balance", adv.map(bal), bal_ci, n, prof.texts.balance.clone());
        } else {
            let b = self.balance_many();
            push("Balance", b.map(|b| b.0), b.and_then(|b| b.1), n, prof.texts.balance.clone());
        }
        // Ludii's Completion and Drawishness leave out the timeouts; a
        // timeout's winner (a cap that the variant scores) is no completion.
        let timeouts = self.timeout_wins + self.timeout_draws;
        let decided = self.first_wins + self.second_wins - self.timeout_wins;
        push("Completion", share(decided, n), wil(decided, n), n, prof.texts.completion.clone());
        let draws = self.draws - self.timeout_draws;
        push("Drawishness", share(draws, n), wil(draws, n), n, prof.texts.drawishness.clone());
        if prof.reasons.iter().any(|r| r.timeout) {
            let names: Vec<&str> = prof.reasons.iter().filter(|r| r.timeout).map(|r| r.name).collect();
            push(
                "Timeouts",
                share(timeouts, n),
                wil(timeouts, n),
                n,
                format!(
                    "share of games stopped by a limit before the rules decided them ({}). Ludii: Timeouts, games \
                     that reach its move limit; they count neither as completed nor as drawish",
                    names.join(", ")
                ),
            );
        }
        for (r, &k) in prof.reasons.iter().zip(&self.reasons) {
            push(&format!("Share.{}", r.name), share(k, n), wil(k, n), n, r.share.clone());
        }
        if prof.spike {
            let spike_def = match self.spike_lengths {
                Some((lo, hi)) if lo == hi => format!("all {lo} play half-moves, the closure bound"),
                Some((lo, hi)) => format!("{lo} to {hi} play half-moves (the start's clock differs between games)"),
                None => "none in this file".to_string(),
            };
            push(
                "ClosureSpike",
                share(self.spike, n),
                wil(self.spike, n),
                n,
                format!(
                    "share of games ended by closure with no die through the door in the whole play, so at \
                     exactly the closure bound's clock: the spike of the length distribution ({spike_def}; {} \
                     games)",
                    self.spike
                ),
            );
        }
        let len_range = (0.0, f64::INFINITY);
        let all = &self.length_moments[0];
        push("Duration", all.mean(), all.interval(len_range), all.n, prof.texts.duration.clone());
        for (suffix, q) in [("p10", 0.1), ("median", 0.5), ("p90", 0.9)] {
            let qv = quantile(&self.lengths[0], q);
            push(
                &format!("Duration.{suffix}"),
                qv.map(|(v, _)| v as f64),
                qv.map(|(_, (lo, hi))| (lo as f64, hi as f64)),
                all.n,
                format!("the {q} quantile of {unit} (nearest rank); interval: order statistics"),
            );
        }
        for (i, r) in prof.reasons.iter().enumerate() {
            let r = r.name;
            let m = &self.length_moments[i + 1];
            push(
                &format!("Duration.{r}"),
                m.mean(),
                m.interval(len_range),
                m.n,
                format!("mean {unit} of the games ended by {r}; interval: normal over those games"),
            );
            let qv = quantile(&self.lengths[i + 1], 0.5);
            push(
                &format!("Duration.{r}.median"),
                qv.map(|(v, _)| v as f64),
                qv.map(|(_, (lo, hi))| (lo as f64, hi as f64)),
                m.n,
                format!("the median {unit} of the games ended by {r}; interval: order statistics"),
            );
        }
        let unit_range = (0.0, 1.0);
        let d = &self.decisiveness;
        push("DecisivenessMoves", d.mean(), d.interval(unit_range), d.n, prof.texts.decisiveness.clone());
        let l = &self.lead_change;
        push("LeadChange", l.mean(), l.interval(unit_range), l.n, prof.texts.lead_change.clone());
        let d = &self.drama;
        push("Drama", d.mean(), d.interval(unit_range), d.n, prof.texts.drama.clone());
        let d = &self.drama_max;
        push("Drama.max", d.mean(), d.interval(unit_range), d.n, prof.texts.drama_max.clone());
        let b = &self.branching;
        push("BranchingFactor", b.mean(), b.interval(len_range), b.n, prof.texts.branching.clone());
        rows
    }
}

/// Why [`metrics`] stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MetricsError {
    /// The games file could not be read (already located: file and line).
    Read(AnnexError),
    /// A game did not replay.
    Replay(ReplayError),
    /// A moves file ([`records`]) could not be read: its line (0: the file
    /// as a whole) and what is wrong.
    Records {
        /// The line.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// The weights file that was to value the positions (`--weights`) does
    /// not serve: unreadable, of another game, or the game takes none.
    Weights {
        /// The file as given.
        path: String,
        /// Why.
        why: String,
    },
}

impl fmt::Display for MetricsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MetricsError::Read(e) => write!(f, "{e}"),
            MetricsError::Replay(e) => write!(f, "line {}: {e}", e.line),
            MetricsError::Records { line: 0, message } => f.write_str(message),
            MetricsError::Records { line, message } => write!(f, "line {line}: {message}"),
            MetricsError::Weights { path, why } => write!(f, "--weights {path}: {why}"),
        }
    }
}

impl std::error::Error for MetricsError {}

/// The metrics of the games `rows` (one file's), each replayed from
/// `start` and evaluated by `eval`; stops at the first row that does not
/// read or replay.
pub fn metrics(
    start: &Position,
    eval: &Learned,
    rows: impl IntoIterator<Item = Result<GameRow, AnnexError>>,
) -> Result<Metrics, MetricsError> {
    let mut m = Metrics::new(Profile::senat());
    let mut trace = Trace::new();
    for row in rows {
        let row = row.map_err(MetricsError::Read)?;
        replay(start, eval, &row, &mut trace).map_err(MetricsError::Replay)?;
        m.add(&row.key.label(), &trace);
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{GameSummary, PairKey};

    fn v(blue: f64) -> Values {
        Values::new(&[blue, 1.0 - blue])
    }

    fn vals(blue: &[f64]) -> Vec<Values> {
        blue.iter().map(|&b| v(b)).collect()
    }

    fn key() -> PairKey {
        PairKey { red: "a".into(), blue: "b".into(), draft_red: "a".into(), draft_blue: "b".into() }
    }

    const BLUE: usize = 0;
    const RED: usize = 1;

    fn reason(r: EndReason) -> usize {
        REASONS.iter().position(|&x| x == r).unwrap()
    }

    fn trace(winner: Option<usize>, r: EndReason, blue: &[f64]) -> Trace {
        Trace {
            first: BLUE,
            sides: 2,
            winner,
            reason: reason(r),
            values: vals(blue),
            legal_sum: 10 * blue.len() as u64,
            spike: false,
        }
    }

    fn row<'a>(rows: &'a [MetricRow], name: &str) -> &'a MetricRow {
        rows.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no row {name}"))
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn lead_change_counts_changes_between_plies() {
        // Blue leads throughout: no change.
        assert_eq!(lead_change(&vals(&[0.6, 0.7, 0.55, 0.9])), Some(0.0));
        // Red leads throughout, too.
        assert_eq!(lead_change(&vals(&[0.4, 0.1, 0.3])), Some(0.0));
        // Every ply changes: 1.
        assert_eq!(lead_change(&vals(&[0.6, 0.4, 0.6, 0.4])), Some(1.0));
        // Blue, tie, red: two changes over two pairs (a tie is its own leader set).
        assert_eq!(lead_change(&vals(&[0.6, 0.5, 0.4])), Some(1.0));
        // One change in four pairs.
        assert_eq!(lead_change(&vals(&[0.6, 0.6, 0.4, 0.4, 0.4])), Some(0.25));
        assert_eq!(lead_change(&vals(&[0.6])), None);
        assert_eq!(lead_change(&[]), None);
    }

    #[test]
    fn drama_is_the_winners_fall_below_the_leader() {
        // The winner led throughout: no drama.
        assert_eq!(drama(&vals(&[0.6, 0.8]), BLUE), Some((0.0, 0.0)));
        // Blue wins from behind: 0.4 then 0.45 against red's 0.6 and 0.55, then leads.
        let (mean, max) = drama(&vals(&[0.4, 0.45, 0.7]), BLUE).unwrap();
        assert!(close(mean, (0.2 + 0.1 + 0.0) / 3.0), "{mean}");
        assert!(close(max, 0.2), "{max}");
        // Seen from red, the same values are red's lead then its fall.
        let (mean, max) = drama(&vals(&[0.4, 0.45, 0.7]), RED).unwrap();
        assert!(close(mean, 0.4 / 3.0), "{mean}");
        assert!(close(max, 0.4), "{max}");
        assert_eq!(drama(&[], RED), None);
    }

    #[test]
    fn decisiveness_is_the_share_before_the_winner_passes_the_losers_best() {
        // Red's best is 0.6 (at ply 0); blue's value first exceeds it at ply 2 of 4.
        assert_eq!(decisiveness_moves(&vals(&[0.4, 0.55, 0.65, 0.9]), BLUE), Some(0.5));
        // Blue above red's best from the first ply: 0.
        assert_eq!(decisiveness_moves(&vals(&[0.7, 0.8]), BLUE), Some(0.0));
        // The winner never passes the loser's best (red won from 0.5 at best): 1.
        assert_eq!(decisiveness_moves(&vals(&[0.5, 0.5]), RED), Some(1.0));
        assert_eq!(decisiveness_moves(&[], RED), None);
    }

    #[test]
    fn blue_always_winning_gives_advantage_one_and_balance_zero() {
        let mut m = Metrics::new(Profile::senat());
        for _ in 0..20 {
            m.add(&key().label(), &trace(Some(BLUE), EndReason::Majority, &[0.6, 0.7]));
        }
        let rows = m.rows();
        let adv = row(&rows, "AdvantageP1");
        assert_eq!(adv.value, Some(1.0));
        assert_eq!(adv.interval, Some(wilson(20, 20)));
        let (lo, hi) = adv.interval.unwrap();
        assert!(lo > 0.8 && lo < 0.9 && hi == 1.0, "{lo} {hi}");
        let bal = row(&rows, "Balance");
        assert_eq!(bal.value, Some(0.0));
        let (blo, bhi) = bal.interval.unwrap();
        assert!(close(blo, 0.0) && close(bhi, 1.0 - (2.0 * lo - 1.0)), "{blo} {bhi}");
        assert_eq!(row(&rows, "Completion").value, Some(1.0));
        assert_eq!(row(&rows, "Drawishness").value, Some(0.0));
        assert_eq!(row(&rows, "Share.majority").value, Some(1.0));
        assert_eq!(row(&rows, "LeadChange").value, Some(0.0));
        assert_eq!(row(&rows, "Drama").value, Some(0.0));
        assert_eq!(row(&rows, "DecisivenessMoves").value, Some(0.0));
        assert_eq!(row(&rows, "BranchingFactor").value, Some(10.0));
        assert_eq!(row(&rows, "Duration").value, Some(2.0));
    }

    #[test]
    fn the_first_mover_is_whoever_moved_first() {
        // Red moves first in these games (a variant) and wins all: AdvantageP1 is 1.
        let mut m = Metrics::new(Profile::senat());
        let mut t = trace(Some(RED), EndReason::Majority, &[0.3]);
        t.first = RED;
        m.add(&key().label(), &t);
        assert_eq!(m.advantage_p1(), Some(1.0));
    }

    #[test]
    fn draws_count_half_and_balance_is_one_for_equal_wins() {
        let mut m = Metrics::new(Profile::senat());
        m.add(&key().label(), &trace(Some(BLUE), EndReason::Majority, &[0.6, 0.6]));
        m.add(&key().label(), &trace(Some(RED), EndReason::Majority, &[0.6, 0.4]));
        m.add(&key().label(), &trace(None, EndReason::Repetition, &[0.5, 0.5]));
        m.add(&key().label(), &trace(None, EndReason::Closure, &[0.5, 0.5]));
        let rows = m.rows();
        assert_eq!(row(&rows, "AdvantageP1").value, Some(0.5));
        assert_eq!(row(&rows, "Balance").value, Some(1.0));
        assert_eq!(row(&rows, "Balance").interval.unwrap().1, 1.0);
        assert_eq!(row(&rows, "Drawishness").value, Some(0.5));
        assert_eq!(row(&rows, "Drawishness").interval, Some(wilson(2, 4)));
        assert_eq!(row(&rows, "Completion").value, Some(0.5));
        assert_eq!(row(&rows, "Share.repetition").value, Some(0.25));
        // Drama and decisiveness take the decided games only.
        assert_eq!(row(&rows, "Drama").games, 2);
        // Red's win: red behind by 0.2 at ply 0, leading at ply 1 (values 0.4, 0.6 for red).
        assert!(close(row(&rows, "Drama").value.unwrap(), (0.0 + 0.1) / 2.0));
        // LeadChange: 0, 1, 0, 0.
        assert!(close(row(&rows, "LeadChange").value.unwrap(), 0.25));
        assert_eq!(row(&rows, "LeadChange").games, 4);
    }

    #[test]
    fn the_closure_spike_counts_closures_without_a_die_through_the_door() {
        let mut m = Metrics::new(Profile::senat());
        let flat = vec![0.5; 60];
        let mut spike = trace(None, EndReason::Closure, &flat);
        spike.spike = true;
        m.add(&key().label(), &spike);
        m.add(&key().label(), &spike);
        // A closure after a die went through the door is no spike.
        m.add(&key().label(), &trace(Some(BLUE), EndReason::Closure, &[0.6; 70]));
        m.add(&key().label(), &trace(Some(BLUE), EndReason::Majority, &[0.6; 30]));
        let rows = m.rows();
        let s = row(&rows, "ClosureSpike");
        assert_eq!(s.value, Some(0.5));
        assert_eq!(s.interval, Some(wilson(2, 4)));
        assert!(s.definition.contains("all 60 play half-moves"), "{}", s.definition);
        assert_eq!(row(&rows, "Duration.closure.median").value, Some(60.0));
        assert!(close(row(&rows, "Duration.closure").value.unwrap(), 190.0 / 3.0));
        assert_eq!(row(&rows, "Duration.majority").games, 1);
        assert_eq!(row(&rows, "Duration.block").value, None);
        assert_eq!(row(&rows, "Duration.block").games, 0);
    }

    #[test]
    fn more_than_two_sides_use_the_sets_of_leaders_and_every_other_sides_best() {
        let v3 = |a: f64, b: f64, c: f64| Values::new(&[a, b, c]);
        // Leaders {0}, {0, 1}, {1}, {1}: two changes in three pairs.
        let vs = [v3(0.5, 0.25, 0.25), v3(0.375, 0.375, 0.25), v3(0.25, 0.5, 0.25), v3(0.25, 0.625, 0.125)];
        assert!(close(lead_change(&vs).unwrap(), 2.0 / 3.0));
        // Side 2 wins: the threshold is the best of sides 0 and 1 (.625), never passed.
        assert_eq!(decisiveness_moves(&vs, 2), Some(1.0));
        // Side 1 wins: the others' best is .5 (side 0, ply 0); side 1 first passes it at ply 3.
        assert_eq!(decisiveness_moves(&vs, 1), Some(0.75));
        let (mean, max) = drama(&vs, 2).unwrap();
        assert!(close(mean, (0.25 + 0.125 + 0.25 + 0.5) / 4.0) && close(max, 0.5));
    }

    #[test]
    fn balance_with_four_sides_is_one_minus_the_widest_gap_between_places() {
        let words = GameWords {
            first: "p0".into(),
            unit: "plies",
            plies: "all".into(),
            eval: "e".into(),
            branching: "b".into(),
        };
        let reasons = vec![Reason { name: "end", timeout: false, share: "s".into() }];
        let mut m = Metrics::new(Profile::other(4, reasons, &words));
        let mut t = Trace::new();
        t.values = vec![Values::new(&[0.25; 4])];
        // 100 games: places 0..3 (from the first mover, side 1) win 40, 30, 20, 10.
        for (place, wins) in [(0, 40), (1, 30), (2, 20), (3, 10)] {
            t.first = 1;
            t.winner = Some((1 + place) % 4);
            for _ in 0..wins {
                m.add("k", &t);
            }
        }
        let rows = m.rows();
        let bal = row(&rows, "Balance");
        assert!(close(bal.value.unwrap(), 0.7), "{bal:?}");
        let half = Z95 * ((0.4 + 0.1 - 0.09) / 100.0_f64).sqrt();
        let (lo, hi) = bal.interval.unwrap();
        assert!(close(lo, 0.7 - half) && close(hi, 0.7 + half), "{lo} {hi}");
        assert!(close(row(&rows, "AdvantageP1").value.unwrap(), 0.4));
        assert!(bal.definition.contains("4 places"), "{}", bal.definition);
    }

    #[test]
    fn moments_and_quantiles() {
        let mut m = Moments::default();
        for x in [1.0, 2.0, 3.0, 4.0] {
            m.add(x);
        }
        assert_eq!(m.mean(), Some(2.5));
        assert!(close(m.sd().unwrap(), (5.0_f64 / 3.0).sqrt()));
        let (lo, hi) = m.interval((0.0, f64::INFINITY)).unwrap();
        assert!(close(hi - 2.5, Z95 * (5.0_f64 / 3.0).sqrt() / 2.0) && close(2.5 - lo, hi - 2.5));
        // Clamped to the range.
        assert_eq!(m.interval((2.0, 3.0)), Some((2.0, 3.0)));
        let mut one = Moments::default();
        one.add(1.0);
        assert_eq!(one.interval((0.0, 1.0)), None);
        // 100 values 0..=99: the median is 49 (rank 50), its interval ranks 40 and 60.
        let h = vec![1; 100];
        assert_eq!(quantile(&h, 0.5), Some((49, (39, 59))));
        assert_eq!(quantile(&[], 0.5), None);
        // All at one value: the interval is that value.
        let mut spike = vec![0; 61];
        spike[60] = 9;
        assert_eq!(quantile(&spike, 0.1), Some((60, (60, 60))));
    }

    /// A real game from the start: random legal moves (a fixed xorshift) to the end.
    fn a_game() -> (GameRow, GameRecord) {
        let mut game = GameRecord::new(Position::start());
        let mut draft = Vec::new();
        let mut play = Vec::new();
        let mut rng = testkit::XorShift64::new(0x9e37_79b9_7f4a_7c15);
        while game.outcome().is_none() {
            let moves = game.position().legal_moves();
            let m = moves[rng.below(moves.len())];
            if game.position().is_play() {
                play.push(m.to_string())
            } else {
                draft.push(m.to_string())
            }
            game.play(m).unwrap();
        }
        let o = game.outcome().unwrap();
        let row = GameRow {
            line: 3,
            game: 7,
            key: key(),
            summary: GameSummary {
                winner: o.winner,
                reason: o.reason,
                play_len: play.len() as u32,
                legal_sum: 0,
                swapped: None,
                vary_loss: None,
            },
            draft_moves: draft.join(" "),
            play_moves: play.join(" "),
        };
        (row, game)
    }

    #[test]
    fn replay_reads_one_value_per_play_move() {
        let (row, game) = a_game();
        let mut t = Trace::new();
        replay(&Position::start(), Learned::builtin(), &row, &mut t).unwrap();
        assert_eq!(t.play_len(), row.summary.play_len as usize);
        let o = game.outcome().unwrap();
        assert_eq!((t.winner, t.reason), (o.winner.map(senat_side), reason(o.reason)));
        assert_eq!(t.first, BLUE);
        for v in &t.values {
            assert!(close(v.side(BLUE) + v.side(RED), 1.0), "{v:?}");
        }
        // The values are the evaluation's in the play positions before each move.
        let mut g = GameRecord::new(Position::start());
        let mut k = 0;
        for &m in game.moves() {
            if g.position().is_play() {
                assert_eq!(t.values[k].side(BLUE), Learned::builtin().value(g.position(), Side::Blue));
                k += 1;
            }
            g.play(m).unwrap();
        }
        // The trace buffer is reused: a second replay gives the same trace.
        let before = t.clone();
        replay(&Position::start(), Learned::builtin(), &row, &mut t).unwrap();
        assert_eq!(t, before);
    }

    #[test]
    fn replay_rejects_an_illegal_move_naming_game_and_move() {
        let (mut row, _) = a_game();
        let mut play: Vec<&str> = row.play_moves.split(' ').collect();
        // The first play move repeated as the second is not red's to make.
        let first = play[0].to_string();
        play[1] = &first;
        row.play_moves = play.join(" ");
        let e = replay(&Position::start(), Learned::builtin(), &row, &mut Trace::new()).unwrap_err();
        assert_eq!((e.line, e.game), (3, 7));
        match &e.problem {
            ReplayProblem::Move { column, number, token, problem: MoveProblem::Move(MoveError::Illegal(_)) } => {
                assert_eq!((*column, *number, token.as_str()), ("play_moves", 2, first.as_str()));
            }
            p => panic!("{p:?}"),
        }
        assert!(e.to_string().starts_with("game 7: play_moves: move 2 `"), "{e}");
    }

    #[test]
    fn replay_rejects_bad_text_a_wrong_ending_and_a_short_game() {
        let start = Position::start();
        let eval = Learned::builtin();
        let (row, _) = a_game();
        let problem = |r: &GameRow| replay(&start, eval, r, &mut Trace::new()).unwrap_err().problem;

        let mut bad = row.clone();
        bad.draft_moves = bad.draft_moves.replacen('g', "q", 1);
        assert!(matches!(
            problem(&bad),
            ReplayProblem::Move {
                column: "draft_moves",
                number: 1,
                problem: MoveProblem::Move(MoveError::Parse(_)),
                ..
            }
        ));

        let mut short = row.clone();
        let n = short.play_moves.rfind(' ').unwrap();
        short.play_moves.truncate(n);
        assert_eq!(problem(&short), ReplayProblem::NotOver);

        let mut wrong = row.clone();
        wrong.summary.reason =
            if row.summary.reason == EndReason::Block { EndReason::Closure } else { EndReason::Block };
        assert!(matches!(problem(&wrong), ReplayProblem::Outcome { .. }));

        let mut count = row.clone();
        count.summary.play_len += 1;
        assert!(matches!(problem(&count), ReplayProblem::PlayCount { .. }));

        // Play moves in the draft: the draft column emptied.
        let mut nodraft = row.clone();
        nodraft.draft_moves.clear();
        assert!(matches!(
            problem(&nodraft),
            ReplayProblem::Move { column: "play_moves", number: 1, problem: MoveProblem::PlayInDraft, .. }
        ));

        // A move after the end.
        let mut after = row.clone();
        after.play_moves.push_str(" g1");
        assert!(matches!(
            problem(&after),
            ReplayProblem::Move { column: "play_moves", problem: MoveProblem::AfterEnd(_), .. }
        ));
    }

    #[test]
    fn metrics_stops_at_the_first_bad_row() {
        let (row, _) = a_game();
        let mut bad = row.clone();
        bad.line = 9;
        bad.play_moves.clear();
        let e = metrics(&Position::start(), Learned::builtin(), [Ok(row.clone()), Ok(bad)]).unwrap_err();
        assert!(matches!(&e, MetricsError::Replay(r) if r.line == 9), "{e:?}");
        let m = metrics(&Position::start(), Learned::builtin(), [Ok(row.clone()), Ok(row)]).unwrap();
        assert_eq!(m.games, 2);
        assert_eq!(m.keys, vec![key().label()]);
    }
}
