//! The one arena of every game: matches between named agents in the
//! conventions of chess testing tools. Every pairing plays game pairs from
//! the same seeds: in pair `k` each agent takes the first seat once and the
//! second once, with the generator of game seed `(seed, k)` (what a seat,
//! a shared opening or a duplicate deal is, the game says: [`Contest`]).
//! Results are counted for the first agent of the pairing: W/D/L,
//! pentanomial pair counts, and the estimates of [`crate::rating`]; an
//! optional SPRT stops a two-agent match early.
//!
//! Pairs are played in parallel windows but counted in pair order, and an
//! SPRT stops at the first pair (in that order) at which it decides, so the
//! results never depend on the number of threads (agents that search for a
//! time per move excepted: their moves depend on the machine's speed).
//!
//! Each agent's thinking time is measured too (wall clock, summed per game:
//! [`Counted::think`], [`PairingResult::mean_think_ms`]), so that strength
//! can be compared at equal time; it is a measurement beside the results,
//! not one of them, and depends on the machine and its load.
//!
//! This module holds the loop, the count, the table and the files; it
//! never knows the rules or the engines and never names a game (each
//! game's [`Contest`], in the games' lab, plays its pairs; the identity
//! lines that name the game are the games' lab's too).

use crate::output::{self, OutFile};
use crate::rating::{Estimate, Pentanomial, Sprt, SprtResult, Wdl};
use crate::runner::RunError;
use std::time::Duration;

/// Who meets whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every agent against every later one.
    RoundRobin,
    /// The first agent against each of the others.
    Gauntlet,
    /// Each agent against the next one in the list (a strength ladder:
    /// weakest first).
    Ladder,
}

impl Schedule {
    /// The schedule of the command line's flags: `--gauntlet`, `--ladder`,
    /// else a round robin.
    pub fn from_flags(gauntlet: bool, ladder: bool) -> Schedule {
        if gauntlet {
            Schedule::Gauntlet
        } else if ladder {
            Schedule::Ladder
        } else {
            Schedule::RoundRobin
        }
    }

    /// Its name in files and in Python: `round-robin`, `gauntlet`, `ladder`.
    pub fn name(self) -> &'static str {
        match self {
            Schedule::RoundRobin => "round-robin",
            Schedule::Gauntlet => "gauntlet",
            Schedule::Ladder => "ladder",
        }
    }

    /// The schedule of its [`Schedule::name`].
    pub fn parse(text: &str) -> Option<Schedule> {
        [Schedule::RoundRobin, Schedule::Gauntlet, Schedule::Ladder].into_iter().find(|s| s.name() == text)
    }

    /// The pairings of `n` agents, as (A, B) indices.
    pub fn pairings(self, n: usize) -> Vec<(usize, usize)> {
        match self {
            Schedule::RoundRobin => (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect(),
            Schedule::Gauntlet => (1..n).map(|b| (0, b)).collect(),
            Schedule::Ladder => (1..n).map(|b| (b - 1, b)).collect(),
        }
    }
}

/// Where a game sits in its arena: its pairing, its pair, and whether the
/// pairing's first agent (A) held the first seat (Sénat: red; the other
/// games: the first team; dominoes: the even seats), as in the pair's
/// first game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seating {
    /// Index of the pairing in [`Arena::pairings`].
    pub pairing: usize,
    /// Pair index within the pairing.
    pub pair: u64,
    /// Whether agent A held the first seat.
    pub a_first: bool,
}

/// What a game brings to the one arena ([`Arena`]): its agents, how it
/// plays a pair of games, what it adds up beside the common count, and the
/// rows of its files. The implementor holds the game's own settings (its
/// variant, a shared draft, a book, duplicate deals); the arena holds what
/// every game shares (agents, pairs, seed, schedule, SPRT).
pub trait Contest: Sized + Sync {
    /// The game's error: the arena's own failures ([`RunError`]) convert into it.
    type Error: From<RunError> + std::error::Error + Send + 'static;
    /// An agent, as the arena's command line names it.
    type Agent: Sync;
    /// One finished game, as the arena keeps it.
    type Game: Counted + Send;
    /// What the game adds up over a pairing's counted games beside
    /// [`Count`] (e.g. the first team's score, rounds, seat wins).
    type Facts: Default + Clone + std::fmt::Debug + PartialEq + Send;
    /// The columns of its moves file (the rows `senat view` reads).
    const MOVES_HEADER: &'static [&'static str];
    /// Its summary's columns after [`SUMMARY_HEADER`].
    const SUMMARY_EXTRA: &'static [&'static str];

    /// The columns of its games file.
    fn games_header() -> Vec<&'static str>;
    /// The agent's name in the files and the table.
    fn agent_name(agent: &Self::Agent) -> String;
    /// Refuses what this game's arena cannot play, after what no arena can
    /// ([`check_arena`]).
    fn check(&self, _arena: &Arena<Self>) -> Result<(), Self::Error> {
        Ok(())
    }
    /// Plays pair `pair` of pairing `pairing`, agents `a` and `b`: A takes
    /// the first seat in the first game, B in the second.
    fn play_pair(&self, arena: &Arena<Self>, pairing: usize, a: usize, b: usize, pair: u64) -> [Self::Game; 2];
    /// Where game `g` sits.
    fn seating(g: &Self::Game) -> Seating;
    /// Adds a counted game to its pairing's facts.
    fn add(facts: &mut Self::Facts, g: &Self::Game);
    /// The identity line of its games and moves files, with its newline.
    fn identity(arena: &Arena<Self>) -> Result<String, Self::Error>;
    /// The files it reads (weights), kept distinct from its outputs.
    fn inputs(_arena: &Arena<Self>) -> Vec<std::path::PathBuf> {
        Vec::new()
    }
    /// The moves-file row of game `g` ([`Contest::MOVES_HEADER`]).
    fn moves_row(arena: &Arena<Self>, g: &Self::Game) -> Vec<String>;
    /// The games-file row of game `g` ([`Contest::games_header`]).
    fn games_row(arena: &Arena<Self>, g: &Self::Game) -> Vec<String>;
    /// The cells of [`Contest::SUMMARY_EXTRA`] for pairing result `r`.
    fn summary_extra(arena: &Arena<Self>, r: &PairingResult<Self>) -> Vec<String>;
    /// The table's lines under pairing `r` ([`TableRow::notes`]).
    fn notes(arena: &Arena<Self>, r: &PairingResult<Self>) -> Vec<String>;
}

/// An arena of one game: the agents, the schedule, the seeds, an optional
/// SPRT, and the game's own settings ([`Contest`]).
#[derive(Clone, Debug)]
pub struct Arena<C: Contest> {
    /// The game and its own settings.
    pub game: C,
    /// The agents.
    pub agents: Vec<C::Agent>,
    /// Game pairs per pairing (at most: an SPRT may stop earlier).
    pub pairs: u64,
    /// Seed of the games: pair `k` uses game seed `(seed, k)` in every pairing.
    pub seed: u64,
    /// Round robin, gauntlet or ladder.
    pub schedule: Schedule,
    /// Stop a two-agent match when this test decides.
    pub sprt: Option<Sprt>,
}

/// The tally of one pairing, from its first agent's side.
pub struct PairingResult<C: Contest> {
    /// First agent (index into [`Arena::agents`]).
    pub first: usize,
    /// Second agent.
    pub second: usize,
    /// What every arena counts: the first agent's games and pairs, the
    /// SPRT's final ratio and decision if one ran, and the agents' thinking
    /// time summed over the counted games (wall clock, so unlike the rest
    /// it differs from run to run).
    pub count: Count,
    /// What the game adds up over the counted games.
    pub facts: C::Facts,
}

impl<C: Contest> Clone for PairingResult<C> {
    fn clone(&self) -> Self {
        PairingResult { first: self.first, second: self.second, count: self.count, facts: self.facts.clone() }
    }
}

impl<C: Contest> std::fmt::Debug for PairingResult<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PairingResult")
            .field("first", &self.first)
            .field("second", &self.second)
            .field("count", &self.count)
            .field("facts", &self.facts)
            .finish()
    }
}

impl<C: Contest> PartialEq for PairingResult<C> {
    fn eq(&self, o: &Self) -> bool {
        (self.first, self.second, self.count) == (o.first, o.second, o.count) && self.facts == o.facts
    }
}

impl<C: Contest> PairingResult<C> {
    /// Elo and friends of the first agent against the second.
    pub fn estimate(&self) -> Estimate {
        Estimate::of(&self.count.penta)
    }

    /// Mean thinking time per game of the first and the second agent, in
    /// milliseconds (0 before any game).
    pub fn mean_think_ms(&self) -> [f64; 2] {
        self.count.tally().think_ms
    }
}

impl<C: Contest> Arena<C> {
    /// The pairings as (first, second) agent indices, in play order.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        self.schedule.pairings(self.agents.len())
    }

    /// Checks what the constructor cannot: at least two agents, one pairing
    /// for an SPRT, at least one pair ([`check_arena`]), then the game's
    /// own conditions ([`Contest::check`]).
    pub fn check(&self) -> Result<(), C::Error> {
        check_arena(self.agents.len(), self.pairs, self.pairings().len(), self.sprt.is_some())?;
        self.game.check(self)
    }

    /// The (first, second) agents of game `g`'s pairing.
    pub fn pairing_of(&self, g: &C::Game) -> (usize, usize) {
        self.schedule.pairings(self.agents.len())[C::seating(g).pairing]
    }

    /// The agents in the first and the second seat of game `g`.
    pub fn seated(&self, g: &C::Game) -> (usize, usize) {
        let (a, b) = self.pairing_of(g);
        if C::seating(g).a_first { (a, b) } else { (b, a) }
    }

    /// Agent `i`'s name.
    pub fn name(&self, i: usize) -> String {
        C::agent_name(&self.agents[i])
    }

    /// Every agent's name, in order.
    pub fn names(&self) -> Vec<String> {
        self.agents.iter().map(C::agent_name).collect()
    }

    /// The index of game `g` in the arena's files: twice `pairing × pairs +
    /// pair`, plus 1 for the pair's game where the pairing's second agent
    /// holds the first seat.
    pub fn game_index(&self, g: &C::Game) -> u64 {
        let s = C::seating(g);
        2 * (s.pairing as u64 * self.pairs + s.pair) + u64::from(!s.a_first)
    }

    /// Plays every pairing on `threads` threads, whole pairs in parallel
    /// ([`play_pairs`]); `on_game` hears every counted game in (pairing,
    /// pair, seat) order, and `progress` the number of games played so far.
    pub fn run(
        &self,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
        mut on_game: impl FnMut(&C::Game) -> Result<(), C::Error>,
    ) -> Result<Vec<PairingResult<C>>, C::Error> {
        self.check()?;
        let pool = crate::runner::pool(threads)?;
        let done = std::sync::atomic::AtomicU64::new(0);
        let mut results = Vec::new();
        for (pi, (a, b)) in self.pairings().into_iter().enumerate() {
            let mut facts = C::Facts::default();
            let play = |k: u64| {
                let pair = self.game.play_pair(self, pi, a, b, k);
                progress(done.fetch_add(2, std::sync::atomic::Ordering::Relaxed) + 2);
                pair
            };
            let count = play_pairs::<_, C::Error>(&pool, self.pairs, self.sprt.as_ref(), play, |pair| {
                for g in &pair {
                    on_game(g)?;
                    C::add(&mut facts, g);
                }
                Ok(())
            })?;
            results.push(PairingResult { first: a, second: b, count, facts });
        }
        Ok(results)
    }

    /// The identity line of its games and moves files ([`Contest::identity`]).
    pub fn identity(&self) -> Result<String, C::Error> {
        C::identity(self)
    }

    /// The moves-file row of game `g`.
    pub fn moves_row(&self, g: &C::Game) -> Vec<String> {
        C::moves_row(self, g)
    }

    /// The games-file row of game `g`.
    pub fn games_row(&self, g: &C::Game) -> Vec<String> {
        C::games_row(self, g)
    }

    /// The summary's header: [`SUMMARY_HEADER`], then the game's columns.
    pub fn summary_header(&self) -> Vec<&'static str> {
        summary_header(C::SUMMARY_EXTRA)
    }

    /// The summary row of pairing result `r` ([`Arena::summary_header`]).
    pub fn summary_row(&self, r: &PairingResult<C>) -> Vec<String> {
        let mut row = summary_cells(&self.name(r.first), &self.name(r.second), &r.count.tally());
        row.extend(C::summary_extra(self, r));
        row
    }

    /// Its row of the arena's table ([`table_text`]), with the game's notes.
    pub fn table_row(&self, r: &PairingResult<C>) -> TableRow {
        TableRow { first: r.first, second: r.second, tally: r.count.tally(), notes: C::notes(self, r) }
    }

    /// The arena's table ([`table_text`]) of `results`.
    pub fn table(&self, results: &[PairingResult<C>]) -> String {
        let rows: Vec<TableRow> = results.iter().map(|r| self.table_row(r)).collect();
        table_text(&self.names(), &rows, self.schedule, self.sprt.as_ref())
    }

    /// Plays the arena into its files ([`ArenaFiles`]: the moves and games
    /// files, either absent) and `summary`, committed together at the end;
    /// the results and the paths written (games file, moves file).
    #[allow(clippy::type_complexity)]
    pub fn run_to_files(
        &self,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
        moves: Option<OutFile>,
        games: Option<OutFile>,
        mut summary: Option<OutFile>,
    ) -> Result<(Vec<PairingResult<C>>, (Option<std::path::PathBuf>, Option<std::path::PathBuf>)), C::Error> {
        self.check()?;
        let identity = self.identity()?;
        let games_header = C::games_header();
        let mut files = ArenaFiles::start(
            &identity,
            moves.map(|f| (f, C::MOVES_HEADER)),
            games.map(|f| (f, games_header.as_slice())),
        )?;
        let results = self.run(threads, progress, |g| Ok(files.game(|| self.moves_row(g), || self.games_row(g))?))?;
        if let Some(f) = summary.as_mut() {
            let rows: Vec<Vec<String>> = results.iter().map(|r| self.summary_row(r)).collect();
            write_summary(f, C::SUMMARY_EXTRA, &rows)?;
        }
        let written = files.commit(summary)?;
        Ok((results, written))
    }
}

/// Chains ladder results (each `results[i]` is agent `i` against `i + 1`).
pub fn ladder_ratings<C: Contest>(results: &[PairingResult<C>]) -> Vec<LadderRating> {
    ladder_of(&results.iter().map(PairingResult::estimate).collect::<Vec<_>>())
}

/// One game as every arena counts it, whatever the game: the points of
/// the pairing's first agent and each agent's thinking time.
pub trait Counted {
    /// The pairing's first agent's points in half-points: 2 win, 1 draw, 0 loss.
    fn first_half_points(&self) -> u8;
    /// Wall-clock thinking time of the pairing's first and second agent.
    fn think(&self) -> [Duration; 2];
}

/// What every arena counts of one pairing: its counted pairs' results,
/// the SPRT's state and the agents' thinking time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Count {
    /// The first agent's wins, draws and losses.
    pub wdl: Wdl,
    /// Pairs by the first agent's points.
    pub penta: Pentanomial,
    /// The SPRT's log-likelihood ratio and decision after the last counted
    /// pair; `None` where no SPRT runs.
    pub sprt: Option<(f64, Option<SprtResult>)>,
    /// Thinking time of the first and the second agent over the counted games.
    pub think: [Duration; 2],
}

impl Count {
    /// The numbers of its summary row ([`summary_cells`]).
    pub fn tally(&self) -> Tally {
        Tally { sprt: self.sprt, ..Tally::with_think(self.wdl, self.penta, self.think) }
    }
}

/// Refuses what no arena can play: fewer than two agents, no pair, or an
/// SPRT over more than one pairing. `pairings` is the schedule's count.
pub fn check_arena(agents: usize, pairs: u64, pairings: usize, sprt: bool) -> Result<(), RunError> {
    if agents < 2 {
        return Err(RunError::Invalid("an arena needs at least two agents".into()));
    }
    if pairs == 0 {
        return Err(RunError::Invalid("at least one game pair is needed (--games 2 or more)".into()));
    }
    if sprt && pairings != 1 {
        return Err(RunError::Invalid(format!(
            "--sprt tests one match: give exactly two agents (or a gauntlet of two), not {pairings} pairings"
        )));
    }
    Ok(())
}

/// Plays pairs `0..pairs` of one pairing and counts them: the one loop of
/// every game's arena. `play(k)` plays pair `k` (its two games, the
/// pairing's first agent taking the first seat in the first one);
/// whole pairs are played in parallel on `pool`, a window of
/// `4 × threads` (at least 8) pairs at a time, and counted in pair order,
/// so that the result never depends on the number of threads. `on_pair`
/// hears every counted pair, in order. With `sprt`, the count stops at the
/// first pair at which the test decides: the rest of its window is played
/// but neither counted nor heard.
pub fn play_pairs<T: Counted + Send, E>(
    pool: &rayon::ThreadPool,
    pairs: u64,
    sprt: Option<&Sprt>,
    play: impl Fn(u64) -> [T; 2] + Sync,
    mut on_pair: impl FnMut([T; 2]) -> Result<(), E>,
) -> Result<Count, E> {
    use rayon::prelude::*;
    let window = (pool.current_num_threads() as u64 * 4).max(8);
    let mut count = Count { sprt: sprt.map(|_| (0.0, None)), ..Count::default() };
    let mut next = 0;
    while next < pairs {
        let end = pairs.min(next + window);
        let played: Vec<[T; 2]> = pool.install(|| (next..end).into_par_iter().map(&play).collect());
        for pair in played {
            let (p1, p2) = (pair[0].first_half_points(), pair[1].first_half_points());
            count.wdl.add(p1);
            count.wdl.add(p2);
            count.penta.add(p1 + p2);
            for g in &pair {
                let t = g.think();
                count.think[0] += t[0];
                count.think[1] += t[1];
            }
            on_pair(pair)?;
            if let Some(t) = sprt {
                let decision = t.decide(&count.penta);
                count.sprt = Some((t.llr(&count.penta), decision));
                if decision.is_some() {
                    return Ok(count);
                }
            }
        }
        next = end;
    }
    Ok(count)
}

/// One pairing as the arena's table prints it: the agents' indices, the
/// numbers every game counts, and the game's own facts (each a line under
/// the pairing's, e.g. `first team score 0.520, mean plies 41.3`).
#[derive(Clone, Debug)]
pub struct TableRow {
    /// The first agent's index.
    pub first: usize,
    /// The second agent's index.
    pub second: usize,
    /// What was counted.
    pub tally: Tally,
    /// The game's own lines about the pairing.
    pub notes: Vec<String>,
}

/// An Elo difference as the tables print it: signed, one decimal, `±inf`.
pub fn elo_text(x: f64) -> String {
    if x.is_infinite() { if x > 0.0 { "+inf".into() } else { "-inf".into() } } else { format!("{x:+.1}") }
}

/// The one printer of every game's arena: a line per pairing (W-D-L,
/// pentanomial, score, Elo with its 95% interval, nElo, LOS), its interval,
/// think time and the game's notes, the SPRT's line where one ran, then the
/// ladder's ratings (for a ladder) or the maximum-likelihood rating table
/// (for a round robin of three or more).
pub fn table_text(names: &[String], rows: &[TableRow], schedule: Schedule, sprt: Option<&Sprt>) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let width = names.iter().map(|s| s.len()).max().unwrap_or(0).max(6);
    let _ = writeln!(
        out,
        "{:<width$}  {:<width$}  {:>6}  {:>15}  {:>24}  {:>7}  {:>16}  {:>6}  {:>5}",
        "first", "second", "games", "W-D-L", "pentanomial 0-½-1-1½-2", "score", "Elo ±95%", "nElo", "LOS"
    );
    let blank = "";
    for r in rows {
        let t = &r.tally;
        let e = Estimate::of(&t.penta);
        let c = t.penta.counts;
        let half = (e.elo_hi - e.elo_lo) / 2.0;
        let elo = if half.is_finite() { format!("{} ±{half:.1}", elo_text(e.elo)) } else { elo_text(e.elo) };
        let _ = writeln!(
            out,
            "{:<width$}  {:<width$}  {:>6}  {:>15}  {:>24}  {:>6.1}%  {:>16}  {:>6.1}  {:>4.1}%",
            names[r.first],
            names[r.second],
            t.wdl.games(),
            format!("{}-{}-{}", t.wdl.wins, t.wdl.draws, t.wdl.losses),
            format!("{}-{}-{}-{}-{}", c[0], c[1], c[2], c[3], c[4]),
            100.0 * e.score,
            elo,
            e.nelo,
            100.0 * e.los
        );
        let _ = writeln!(
            out,
            "{blank:<width$}  {blank:<width$}  Elo interval [{}, {}], nElo ±{:.1}, draw ratio {:.1}%",
            elo_text(e.elo_lo),
            elo_text(e.elo_hi),
            e.nelo_err,
            100.0 * t.wdl.draw_ratio()
        );
        let [t1, t2] = t.think_ms;
        let _ = writeln!(
            out,
            "{blank:<width$}  {blank:<width$}  think time per game: {t1:.1} ms (first), {t2:.1} ms (second)"
        );
        for note in &r.notes {
            let _ = writeln!(out, "{blank:<width$}  {blank:<width$}  {note}");
        }
        if let (Some((llr, d)), Some(s)) = (t.sprt, sprt) {
            let (lo, hi) = s.bounds();
            // Where the ratio stands against the bounds, then what was decided.
            let stands = if llr >= hi {
                format!("≥ {hi:.3}")
            } else if llr <= lo {
                format!("≤ {lo:.3}")
            } else {
                format!("in ({lo:.3}, {hi:.3})")
            };
            let _ = writeln!(
                out,
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.3} {stands}: {}",
                s.elo0,
                s.elo1,
                s.alpha,
                s.beta,
                d.map_or("no decision (games exhausted)".to_string(), |d| d.to_string())
            );
        }
    }
    if schedule == Schedule::Ladder {
        let _ = writeln!(out, "ladder (first agent = 0; a step is strict when its match's 95% interval excludes 0)");
        let steps: Vec<Estimate> = rows.iter().map(|r| Estimate::of(&r.tally.penta)).collect();
        for (i, l) in ladder_of(&steps).iter().enumerate() {
            let step = if i == 0 {
                ""
            } else if l.step_above_zero {
                "  strict step up"
            } else if l.step_below_zero {
                "  strict step down"
            } else {
                "  step not significant"
            };
            if l.elo.is_finite() {
                let _ = writeln!(out, "{:<width$}  {:>8} ±{:<6.1}{step}", names[i], elo_text(l.elo), l.err);
            } else {
                // A sweep below: the rating is unbounded; its floor is not.
                let floor = format!("≥ {}", elo_text(l.floor));
                let _ = writeln!(out, "{:<width$}  {floor:>8}        {step}", names[i]);
            }
        }
    }
    if schedule == Schedule::RoundRobin && names.len() >= 3 {
        let pairings: Vec<_> = rows.iter().map(|r| (r.first, r.second, r.tally.penta)).collect();
        let fit = crate::rating::fit_ratings(names.len(), &pairings);
        out.push_str(&crate::rating::rating_table_text(names, &fit));
    }
    out
}

/// A rating list from a ladder: the first agent at 0, each next one rated
/// by the Elo of its match against the previous one, with a 95% interval
/// from the summed variances of the matches in between (independent games;
/// by the delta method on each match's score).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LadderRating {
    /// Rating relative to the first agent.
    pub elo: f64,
    /// Half-width of its 95% interval.
    pub err: f64,
    /// Whether the step from the previous agent is significant: its own
    /// 95% interval lies above 0.
    pub step_above_zero: bool,
    /// Whether the step is significant the other way: its 95% interval
    /// lies below 0 (this agent is weaker than the previous one).
    pub step_below_zero: bool,
    /// A lower bound of the rating: the sum of the steps' lower 95% ends
    /// (what to show where a step was a sweep and the rating is infinite).
    pub floor: f64,
}

/// Chains ladder steps: `steps[i]` is the estimate of agent `i` against
/// agent `i + 1` (from agent `i`'s side), in any game.
pub fn ladder_of(steps: &[Estimate]) -> Vec<LadderRating> {
    let mut out = vec![LadderRating { elo: 0.0, err: 0.0, step_above_zero: true, step_below_zero: false, floor: 0.0 }];
    let (mut elo, mut var, mut floor) = (0.0, 0.0, 0.0);
    for &e in steps {
        // The second agent's gain over the first is minus the first's Elo.
        elo -= e.elo;
        floor -= e.elo_hi;
        let half = (e.elo_hi - e.elo_lo) / 2.0;
        var += (half / crate::rating::Z95).powi(2);
        out.push(LadderRating {
            elo,
            err: crate::rating::Z95 * var.sqrt(),
            step_above_zero: e.elo_hi < 0.0,
            step_below_zero: e.elo_lo > 0.0,
            floor,
        });
    }
    out
}

/// Columns of every arena's summary file, whatever the game: the results
/// of the pairing's first agent, then the mean thinking time per game of
/// the first and the second agent in milliseconds
/// ([`PairingResult::mean_think_ms`]; wall clock, so these two differ from
/// run to run). A game may append columns of its own after these
/// ([`summary_header`]), each one value per cell.
pub const SUMMARY_HEADER: [&str; 23] = [
    "first",
    "second",
    "games",
    "wins",
    "draws",
    "losses",
    "penta_0",
    "penta_1",
    "penta_2",
    "penta_3",
    "penta_4",
    "score",
    "elo",
    "elo_lo95",
    "elo_hi95",
    "nelo",
    "nelo_err95",
    "los",
    "draw_ratio",
    "sprt_llr",
    "sprt_result",
    "first_think_ms",
    "second_think_ms",
];

/// The numbers of one pairing that every game's arena summarises, from
/// its first agent's side: what a row of [`SUMMARY_HEADER`] is made of
/// ([`summary_cells`]), whichever game was played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tally {
    /// The first agent's wins, draws and losses.
    pub wdl: Wdl,
    /// Pairs by the first agent's points.
    pub penta: Pentanomial,
    /// The SPRT's final log-likelihood ratio and decision; `None` where no
    /// SPRT ran (its two cells are then empty).
    pub sprt: Option<(f64, Option<SprtResult>)>,
    /// Mean thinking time per game of the first and the second agent, in
    /// milliseconds (wall clock).
    pub think_ms: [f64; 2],
}

impl Tally {
    /// The tally of `games` games in which the agents thought `think` in
    /// all: the mean time per game (0 before any game).
    pub fn with_think(wdl: Wdl, penta: Pentanomial, think: [Duration; 2]) -> Tally {
        let games = wdl.games().max(1) as f64;
        Tally { wdl, penta, sprt: None, think_ms: think.map(|t| t.as_secs_f64() * 1e3 / games) }
    }
}

/// The cells of [`SUMMARY_HEADER`] for a pairing of the agents named
/// `first` and `second`: the common start of every arena's summary row.
pub fn summary_cells(first: &str, second: &str, t: &Tally) -> Vec<String> {
    let e = Estimate::of(&t.penta);
    let mut row = vec![
        first.to_string(),
        second.to_string(),
        t.wdl.games().to_string(),
        t.wdl.wins.to_string(),
        t.wdl.draws.to_string(),
        t.wdl.losses.to_string(),
    ];
    row.extend(t.penta.counts.iter().map(u64::to_string));
    row.extend(
        [e.score, e.elo, e.elo_lo, e.elo_hi, e.nelo, e.nelo_err, e.los, t.wdl.draw_ratio()].map(|x| format!("{x:.4}")),
    );
    match t.sprt {
        Some((llr, d)) => {
            row.push(format!("{llr:.4}"));
            row.push(d.map_or("undecided".to_string(), |d| d.to_string()));
        }
        None => row.extend([String::new(), String::new()]),
    }
    row.extend(t.think_ms.map(|ms| format!("{ms:.3}")));
    row
}

/// The header of a summary with a game's `extra` columns: [`SUMMARY_HEADER`], then them.
pub fn summary_header(extra: &[&'static str]) -> Vec<&'static str> {
    SUMMARY_HEADER.iter().chain(extra).copied().collect()
}

/// Writes every arena's summary file (committed with the games and moves
/// files by [`ArenaFiles::commit`]): the header of
/// [`summary_header`]`(extra)`, then one row per pairing (each
/// [`summary_cells`] followed by its `extra` cells). A row of another
/// length than the header is refused before anything is written.
pub fn write_summary(f: &mut OutFile, extra: &[&'static str], rows: &[Vec<String>]) -> Result<(), RunError> {
    let header = summary_header(extra);
    let err = |message: String| RunError::Invalid(format!("summary: {message}"));
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&header).map_err(|e| err(e.to_string()))?;
    for r in rows {
        w.write_record(r).map_err(|e| err(e.to_string()))?;
    }
    let bytes = w.into_inner().map_err(|e| err(e.error().to_string()))?;
    Ok(f.write_all(&bytes)?)
}

/// The games and moves files of an arena run, in any game: each starts
/// with the arena's identity line and its header, then gets one row per
/// game as the games are counted, the moves file first so that the games
/// file never runs ahead of it; [`ArenaFiles::commit`] renames both into
/// place.
#[derive(Debug)]
pub struct ArenaFiles {
    moves: Option<OutFile>,
    games: Option<OutFile>,
}

impl ArenaFiles {
    /// Starts the files given (either may be absent): the identity line
    /// (with its newline), then each file's header.
    pub fn start(
        identity: &str,
        moves: Option<(OutFile, &[&str])>,
        games: Option<(OutFile, &[&str])>,
    ) -> Result<ArenaFiles, RunError> {
        let open = |f: Option<(OutFile, &[&str])>| {
            f.map(|(mut f, header)| {
                f.write_all(identity.as_bytes())?;
                f.write_record(header)?;
                Ok::<_, RunError>(f)
            })
            .transpose()
        };
        Ok(ArenaFiles { moves: open(moves)?, games: open(games)? })
    }

    /// Appends one game's rows; each is made only where its file is written.
    pub fn game<M: AsRef<[String]>, G: AsRef<[String]>>(
        &mut self,
        moves_row: impl FnOnce() -> M,
        games_row: impl FnOnce() -> G,
    ) -> Result<(), RunError> {
        if let Some(f) = self.moves.as_mut() {
            f.write_record(moves_row().as_ref())?;
        }
        if let Some(f) = self.games.as_mut() {
            f.write_record(games_row().as_ref())?;
        }
        Ok(())
    }

    /// Commits both files and the `summary` written by [`write_summary`]
    /// together ([`commit_all`](output::commit_all): the
    /// moves file, the games file, the summary); the paths written, the
    /// games file's then the moves file's.
    pub fn commit(
        self,
        summary: Option<OutFile>,
    ) -> Result<(Option<std::path::PathBuf>, Option<std::path::PathBuf>), RunError> {
        let path = |f: &Option<OutFile>| f.as_ref().map(|f| f.path().to_path_buf());
        let written = (path(&self.games), path(&self.moves));
        output::commit_all(self.moves.into_iter().chain(self.games).chain(summary).collect())?;
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_cells_fill_the_header_one_value_each() {
        let mut penta = Pentanomial::default();
        let mut wdl = Wdl::default();
        for (a, b) in [(2, 1), (0, 1), (2, 2)] {
            wdl.add(a);
            wdl.add(b);
            penta.add(a + b);
        }
        let t = Tally::with_think(wdl, penta, [Duration::from_millis(12), Duration::from_millis(3)]);
        let row = summary_cells("x", "y", &t);
        assert_eq!(row.len(), SUMMARY_HEADER.len());
        assert_eq!(row[..6], ["x", "y", "6", "3", "2", "1"]);
        assert_eq!(row[6..11], ["0", "1", "0", "1", "1"]);
        assert_eq!(row[19..21], ["", ""], "no SPRT: empty cells");
        assert_eq!(row[21..], ["2.000", "0.500"], "mean ms per game");
        let sprt = Tally { sprt: Some((1.5, None)), ..t };
        assert_eq!(summary_cells("x", "y", &sprt)[19..21], ["1.5000", "undecided"]);
        assert_eq!(summary_header(&["plies"]).len(), SUMMARY_HEADER.len() + 1);
    }

    /// A game whose result is a function of its pair: the first agent wins
    /// both games of pairs `k % 3 != 0`, and splits the others.
    struct Fake(u64, bool);

    impl Counted for Fake {
        fn first_half_points(&self) -> u8 {
            if !self.0.is_multiple_of(3) || self.1 { 2 } else { 0 }
        }
        fn think(&self) -> [Duration; 2] {
            [Duration::from_millis(self.0), Duration::from_millis(1)]
        }
    }

    fn fake_pairs(threads: usize, pairs: u64, sprt: Option<&Sprt>) -> (Count, Vec<u64>) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let mut heard = Vec::new();
        let c = play_pairs(
            &pool,
            pairs,
            sprt,
            |k| [Fake(k, true), Fake(k, false)],
            |p: [Fake; 2]| {
                assert!(p[0].1 && !p[1].1, "the pair's first game first");
                heard.push(p[0].0);
                Ok::<(), RunError>(())
            },
        )
        .unwrap();
        (c, heard)
    }

    #[test]
    fn every_arena_counts_its_pairs_in_order_whatever_the_threads() {
        let (c1, h1) = fake_pairs(1, 50, None);
        let (c3, h3) = fake_pairs(3, 50, None);
        assert_eq!((c1, &h1), (c3, &h3));
        assert_eq!(h1, (0..50).collect::<Vec<u64>>(), "every pair heard once, in order");
        // 17 split pairs (k = 0, 3, …, 48), 33 swept ones.
        assert_eq!(c1.penta.counts, [0, 0, 17, 0, 33]);
        assert_eq!((c1.wdl.wins, c1.wdl.draws, c1.wdl.losses), (83, 0, 17));
        let ms: u64 = (0..50).map(|k| 2 * k).sum();
        assert_eq!(c1.think, [Duration::from_millis(ms), Duration::from_millis(100)]);
        assert_eq!(c1.sprt, None);
        // An SPRT stops at the first deciding pair, heard last, whatever the threads.
        let t = Sprt::parse("elo0=0,elo1=50").unwrap();
        let (s1, g1) = fake_pairs(1, 10_000, Some(&t));
        let (s2, g2) = fake_pairs(2, 10_000, Some(&t));
        assert_eq!((s1, &g1), (s2, &g2));
        let (llr, decision) = s1.sprt.unwrap();
        assert_eq!(decision, Some(SprtResult::H1));
        assert_eq!(s1.penta.pairs(), g1.len() as u64);
        assert!(g1.len() < 10_000 && llr >= t.bounds().1);
        let mut fewer = s1.penta;
        fewer.counts[if (g1.len() as u64 - 1).is_multiple_of(3) { 2 } else { 4 }] -= 1;
        assert_eq!(t.decide(&fewer), None, "one pair fewer had not decided");
    }

    #[test]
    fn every_arena_refuses_the_same_impossible_matches() {
        assert!(check_arena(2, 1, 1, true).is_ok());
        for (agents, pairs, pairings, sprt, want) in [
            (1, 1, 0, false, "at least two agents"),
            (2, 0, 1, false, "at least one game pair"),
            (3, 1, 3, true, "not 3 pairings"),
        ] {
            let e = check_arena(agents, pairs, pairings, sprt).unwrap_err().to_string();
            assert!(e.contains(want), "{e}");
        }
    }

    #[test]
    fn the_one_table_prints_notes_the_sprt_and_the_ladder() {
        let names = ["a".to_string(), "b".to_string(), "c".to_string()];
        let mut penta = Pentanomial::default();
        let mut wdl = Wdl::default();
        for _ in 0..10 {
            wdl.add(2);
            wdl.add(1);
            penta.add(3);
        }
        let t = Sprt::parse("").unwrap();
        let tally = Tally {
            sprt: Some((t.bounds().1 + 0.5, Some(SprtResult::H1))),
            ..Tally::with_think(wdl, penta, [Duration::ZERO; 2])
        };
        let row = |first, second| TableRow { first, second, tally, notes: vec!["game fact 1".into()] };
        let text = table_text(&names, &[row(0, 1), row(1, 2)], Schedule::Ladder, Some(&t));
        assert!(text.starts_with("first   second   games"), "{text}");
        assert_eq!(text.matches("game fact 1").count(), 2, "{text}");
        assert_eq!(text.matches(": H1 accepted").count(), 2, "{text}");
        assert!(text.contains("10-10-0") && text.contains("0-0-0-10-0"), "{text}");
        let ladder: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("ladder")).collect();
        assert_eq!(ladder.len(), 4, "{text}");
        // b lost to a and c to b (from the first agent's side, a beat b): steps down.
        assert!(ladder[2].starts_with("b ") && ladder[2].ends_with("strict step down"), "{text}");
        assert!(!table_text(&names, &[row(0, 1)], Schedule::Gauntlet, None).contains("SPRT"));
        assert!(
            table_text(&names, &[row(0, 1), row(0, 2), row(1, 2)], Schedule::RoundRobin, None).contains("ratings (")
        );
    }
}
