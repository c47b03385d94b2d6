//! The arena for any [`LabGame`]: agents meet in colour-swapped pairs of
//! games (each takes the first team once, from the same opening and the
//! same seed), scored by pairs (pentanomial) into Elo with a 95% interval,
//! in a round robin, a gauntlet or a ladder.
//!
//! With four players in two partnerships an agent plays both seats of its
//! team, and the swap exchanges the teams.
//!
//! What this module must never do: know the rules of a game, or read a
//! clock to decide a result (times are reported, never used).

use super::agent::{AgentSpec, play};
use super::{GameKind, LabGame};
use crate::arena::{Count, Counted, Schedule};
use crate::rating::{Estimate, Sprt, Wdl};
use crate::selfplay::{Error, game_seed};
use game_search::rng::rng_from_seed;
use std::time::Duration;

/// An arena of one game.
#[derive(Clone, Debug)]
pub struct Arena {
    /// The game.
    pub game: GameKind,
    /// The full variant text.
    pub variant: String,
    /// The agents.
    pub agents: Vec<AgentSpec>,
    /// Pairs of games per pairing.
    pub pairs: u64,
    /// Seed: pair `k` of every pairing uses game seed `(seed, k)`.
    pub seed: u64,
    /// Who meets whom.
    pub schedule: Schedule,
    /// Random plies shared by both games of a pair (0: none).
    pub book: u32,
    /// Stop a two-agent match when this test decides.
    pub sprt: Option<Sprt>,
    /// Keep every game's moves (the book's, then the game's) in
    /// [`ArenaGame::moves`], for a moves file.
    pub moves: bool,
}

/// One game of the arena.
#[derive(Clone, Debug)]
pub struct ArenaGame {
    /// Index of the pairing.
    pub pairing: usize,
    /// Pair index.
    pub pair: u64,
    /// Whether agent A had the first team (the pair's first game).
    pub a_first: bool,
    /// Its seed.
    pub seed: u64,
    /// Winning team (`None`: a draw).
    pub winner: Option<usize>,
    /// Plies.
    pub plies: u32,
    /// A's points ×2 (2 win, 1 draw, 0 loss).
    pub a_half_points: u8,
    /// The game's extra columns.
    pub extra: Vec<String>,
    /// Thinking time of A and B.
    pub think: [Duration; 2],
    /// Decisions of A and B.
    pub decisions: [u32; 2],
    /// The moves' texts from the start, the book's included (empty unless
    /// [`Arena::moves`]).
    pub moves: Vec<String>,
}

/// The result of one pairing.
#[derive(Clone, Debug, Default)]
pub struct PairingResult {
    /// Agent A's index.
    pub a: usize,
    /// Agent B's index.
    pub b: usize,
    /// What every arena counts: A's wins, draws and losses, its points
    /// per pair, the SPRT, the agents' thinking time.
    pub count: Count,
    /// Games in which the first team won, drew, lost.
    pub first: Wdl,
    /// Total plies.
    pub plies: u64,
    /// Decisions of A and B.
    pub decisions: [u64; 2],
}

impl PairingResult {
    /// A's Elo against B with its 95% interval.
    pub fn estimate(&self) -> Estimate {
        Estimate::of(&self.count.penta)
    }
    /// Mean milliseconds per decision of A and B.
    pub fn ms_per_move(&self) -> [f64; 2] {
        [0, 1].map(|i| self.count.think[i].as_secs_f64() * 1e3 / self.decisions[i].max(1) as f64)
    }

    /// Its row of the arena's table ([`crate::arena::table_text`]), with a
    /// note of the first team's score, the mean plies and each agent's
    /// milliseconds per decision.
    pub fn table_row(&self) -> crate::arena::TableRow {
        let games = self.count.wdl.games().max(1) as f64;
        let [ms_a, ms_b] = self.ms_per_move();
        crate::arena::TableRow {
            first: self.a,
            second: self.b,
            tally: self.count.tally(),
            notes: vec![format!(
                "first team score {:.3}, mean plies {:.1}, ms per move {ms_a:.2} (first), {ms_b:.2} (second)",
                (self.first.wins as f64 + self.first.draws as f64 / 2.0) / games,
                self.plies as f64 / games,
            )],
        }
    }
}

impl Arena {
    /// The pairings, as (A, B) agent indices.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        self.schedule.pairings(self.agents.len())
    }

    /// The identity line of the arena's games file (with its newline).
    pub fn identity(&self) -> String {
        use crate::selfplay::identity::escape;
        let agents: Vec<String> = self.agents.iter().map(|a| escape(&a.to_string())).collect();
        format!(
            "{} seed={} pairs={} book={} agents={}\n",
            crate::arena::identity_head(self.game, &self.variant),
            self.seed,
            self.pairs,
            self.book,
            agents.join(";")
        )
    }

    /// Plays every pairing on `threads` threads, whole pairs in parallel
    /// ([`crate::arena::play_pairs`]); `on_game` hears every counted game,
    /// in order.
    pub fn run<G: LabGame>(
        &self,
        threads: usize,
        on_game: &mut dyn FnMut(&ArenaGame) -> Result<(), Error>,
    ) -> Result<Vec<PairingResult>, Error> {
        let pairings = self.pairings();
        crate::arena::check_arena(self.agents.len(), self.pairs, pairings.len(), self.sprt.is_some())?;
        let start = G::start(&self.variant).map_err(|e| Error::Invalid(e.to_string()))?;
        let pool = crate::selfplay::pool(threads)?;
        let mut results = Vec::new();
        for (pi, (a, b)) in pairings.into_iter().enumerate() {
            let mut r = PairingResult { a, b, ..PairingResult::default() };
            let count = crate::arena::play_pairs(
                &pool,
                self.pairs,
                self.sprt.as_ref(),
                |pair| self.play_pair::<G>(start, pi, a, b, pair),
                |pair| {
                    for g in &pair {
                        on_game(g)?;
                        r.first.add(match g.winner {
                            Some(0) => 2,
                            Some(_) => 0,
                            None => 1,
                        });
                        r.plies += u64::from(g.plies);
                        for i in 0..2 {
                            r.decisions[i] += u64::from(g.decisions[i]);
                        }
                    }
                    Ok(())
                },
            )?;
            results.push(PairingResult { count, ..r });
        }
        Ok(results)
    }

    fn play_pair<G: LabGame>(&self, start: G::State, pairing: usize, a: usize, b: usize, pair: u64) -> [ArenaGame; 2] {
        let seed = game_seed(self.seed, pair);
        // The book: random plies from the pair's own generator, shared by both games.
        let mut book_rng = rng_from_seed(game_seed(seed, u64::MAX));
        let (s, book) = super::batch::opening::<G>(start, self.book, &mut book_rng);
        [true, false].map(|a_first| {
            let (x, y) = if a_first { (a, b) } else { (b, a) };
            let mut agents = [self.agents[x].build::<G>(), self.agents[y].build::<G>()];
            let p = play::<G>(s, &mut agents, &mut rng_from_seed(seed), self.moves);
            let a_team = if a_first { 0 } else { 1 };
            let a_half_points = match p.winner {
                None => 1,
                Some(t) if t == a_team => 2,
                Some(_) => 0,
            };
            let (think, decisions) = if a_first {
                (p.think, p.decisions)
            } else {
                ([p.think[1], p.think[0]], [p.decisions[1], p.decisions[0]])
            };
            ArenaGame {
                pairing,
                pair,
                a_first,
                seed,
                winner: p.winner,
                plies: p.plies + (G::ply(&s) - G::ply(&start)),
                a_half_points,
                extra: G::extra(&p.end),
                think,
                decisions,
                moves: if self.moves {
                    book.iter().chain(&p.moves).map(|&m| G::move_text(m)).collect()
                } else {
                    Vec::new()
                },
            }
        })
    }
}

impl Counted for ArenaGame {
    fn first_half_points(&self) -> u8 {
        self.a_half_points
    }
    fn think(&self) -> [Duration; 2] {
        self.think
    }
}

/// Columns of the arena's games file, before the game's own.
pub const GAMES_COLUMNS: [&str; 8] = ["pairing", "pair", "game_seed", "first", "second", "winner", "plies", "a_points"];

/// The CSV fields of a game (the fields of [`GAMES_COLUMNS`], then the extra ones).
pub fn game_row(arena: &Arena, pairings: &[(usize, usize)], g: &ArenaGame) -> Vec<String> {
    let (a, b) = pairings[g.pairing];
    let (first, second) = if g.a_first { (a, b) } else { (b, a) };
    let mut row = vec![
        g.pairing.to_string(),
        g.pair.to_string(),
        g.seed.to_string(),
        arena.agents[first].to_string(),
        arena.agents[second].to_string(),
        match g.winner {
            Some(0) => "first".into(),
            Some(_) => "second".into(),
            None => "draw".into(),
        },
        g.plies.to_string(),
        format!("{}", f64::from(g.a_half_points) / 2.0),
    ];
    row.extend(g.extra.iter().cloned());
    row
}

/// Columns of the arena's moves file.
pub const MOVES_COLUMNS: [&str; 6] = ["game", "pairing", "pair", "first", "second", "moves"];

/// The index of game `g` in the arena's moves file: twice `pairing ×
/// pairs + pair`, plus 1 for the pair's game where agent B has the first
/// team (as in Sénat's arena).
pub fn game_index(arena: &Arena, g: &ArenaGame) -> u64 {
    2 * (g.pairing as u64 * arena.pairs + g.pair) + u64::from(!g.a_first)
}

/// The CSV fields of a game's row of the moves file ([`MOVES_COLUMNS`]).
pub fn moves_row(arena: &Arena, pairings: &[(usize, usize)], g: &ArenaGame) -> Vec<String> {
    let (a, b) = pairings[g.pairing];
    let (first, second) = if g.a_first { (a, b) } else { (b, a) };
    vec![
        game_index(arena, g).to_string(),
        g.pairing.to_string(),
        g.pair.to_string(),
        arena.agents[first].to_string(),
        arena.agents[second].to_string(),
        g.moves.join(" "),
    ]
}

/// Random plies shared by both games of a pair when no book length is
/// given (`--book-plies`, `senat.arena(book_plies=)`): without them agents
/// that draw no randomness would play the same two games in every pair.
pub const DEFAULT_BOOK: u32 = 4;

/// The columns of this arena's summary after the common ones of every
/// arena ([`crate::arena::SUMMARY_HEADER`]), one value per cell: the first
/// team's score over the pairing's games (whoever held it), the mean plies
/// per game, each agent's mean milliseconds per decision (wall clock), and
/// the game and its variant text.
pub const SUMMARY_EXTRA: [&str; 6] =
    ["first_team_score", "mean_plies", "first_ms_per_move", "second_ms_per_move", "game", "variant"];

/// The summary row of a pairing: [`crate::arena::summary_cells`], then the
/// cells of [`SUMMARY_EXTRA`].
pub fn summary_row(arena: &Arena, r: &PairingResult) -> Vec<String> {
    let games = r.count.wdl.games().max(1) as f64;
    let ms = r.ms_per_move();
    let mut row =
        crate::arena::summary_cells(&arena.agents[r.a].to_string(), &arena.agents[r.b].to_string(), &r.count.tally());
    row.extend([
        format!("{:.4}", (r.first.wins as f64 + r.first.draws as f64 / 2.0) / games),
        format!("{:.1}", r.plies as f64 / games),
        format!("{:.3}", ms[0]),
        format!("{:.3}", ms[1]),
        arena.game.to_string(),
        arena.variant.clone(),
    ]);
    row
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::toy::Nim;

    #[test]
    fn a_perfect_player_beats_random_in_every_pair() {
        let arena = Arena {
            game: GameKind::Focus,
            variant: String::new(),
            agents: vec![AgentSpec::Random, AgentSpec::parse("ab:depth=8").unwrap()],
            pairs: 20,
            seed: 3,
            schedule: Schedule::Ladder,
            book: 1,
            sprt: None,
            moves: true,
        };
        let mut n = 0;
        let mut indexes = Vec::new();
        let pairings = arena.pairings();
        let r = arena
            .run::<Nim>(2, &mut |g| {
                n += 1;
                assert_eq!(g.moves.len(), g.plies as usize, "every ply's move is kept, the book's too");
                let row = moves_row(&arena, &pairings, g);
                assert_eq!(row[5].split(' ').count(), g.moves.len());
                indexes.push(game_index(&arena, g));
                Ok(())
            })
            .unwrap();
        assert_eq!(n, 40);
        indexes.sort_unstable();
        assert_eq!(indexes, (0..40).collect::<Vec<u64>>(), "one moves row per game");
        let e = r[0].estimate();
        // From Nim 10 after one book ply the mover may be lost; but the
        // perfect player wins every position random play hands over, so B
        // scores far above half.
        assert!(e.score < 0.3, "{:?} {:?}", r[0].count.penta, e);
        // 4 players: teams swap, the totals add up.
        let r4 = Arena { variant: "players=4".into(), ..arena }.run::<Nim>(1, &mut |_| Ok(())).unwrap();
        assert_eq!(r4[0].count.wdl.games(), 40);
    }
}
