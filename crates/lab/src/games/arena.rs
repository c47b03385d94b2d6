//! Every [`LabGame`] in the one arena ([`crate::arena::Arena`]): its
//! [`Contest`], [`LabContest`]. Agents meet in colour-swapped pairs of
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
use crate::arena::{Contest, Counted, PairingResult, Seating};
use crate::rating::Wdl;
use crate::selfplay::{Error, game_seed};
use game_search::rng::rng_from_seed;
use std::marker::PhantomData;
use std::time::Duration;

/// A game of the lab's own settings in an arena: the variant, the shared
/// book, whether the moves are kept.
#[derive(Debug)]
pub struct LabContest<G: LabGame> {
    /// The game.
    pub kind: GameKind,
    /// The full variant text.
    pub variant: String,
    /// Random plies shared by both games of a pair (0: none).
    pub book: u32,
    /// Keep every game's moves (the book's, then the game's) in
    /// [`ArenaGame::moves`], for a moves file.
    pub moves: bool,
    start: G::State,
    game: PhantomData<fn() -> G>,
}

impl<G: LabGame> Clone for LabContest<G> {
    fn clone(&self) -> Self {
        LabContest { variant: self.variant.clone(), ..*self }
    }
}

impl<G: LabGame> LabContest<G> {
    /// The settings of game `kind` (which must be `G`'s) under the variant
    /// `variant` (the full text; its start's own text is kept).
    pub fn new(kind: GameKind, variant: &str, book: u32, moves: bool) -> Result<Self, super::TextError> {
        let start = G::start(variant)?;
        Ok(LabContest { kind, variant: G::variant_text(&start), book, moves, start, game: PhantomData })
    }
}

/// An arena of a lab game.
pub type Arena<G> = crate::arena::Arena<LabContest<G>>;

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
    /// [`LabContest::moves`]).
    pub moves: Vec<String>,
}

/// What a lab game's arena adds up over a pairing beside the common count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabFacts {
    /// Games in which the first team won, drew, lost.
    pub first: Wdl,
    /// Total plies.
    pub plies: u64,
    /// Decisions of A and B.
    pub decisions: [u64; 2],
}

impl LabFacts {
    /// Mean milliseconds per decision of A and B, given their thinking time.
    pub fn ms_per_move(&self, think: [Duration; 2]) -> [f64; 2] {
        [0, 1].map(|i| think[i].as_secs_f64() * 1e3 / self.decisions[i].max(1) as f64)
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

/// Columns of the arena's moves file (every game but Sénat's).
pub const MOVES_COLUMNS: [&str; 6] = ["game", "pairing", "pair", "first", "second", "moves"];

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

/// The moves-file row ([`MOVES_COLUMNS`]) of a game at `index` between the
/// agents named `first` and `second` (first and second seat), its moves
/// joined by spaces: every game's but Sénat's.
pub fn moves_columns(index: u64, s: Seating, first: String, second: String, moves: &[String]) -> Vec<String> {
    vec![index.to_string(), s.pairing.to_string(), s.pair.to_string(), first, second, moves.join(" ")]
}

impl<G: LabGame> Contest for LabContest<G> {
    type Error = crate::selfplay::Error;
    type Agent = AgentSpec;
    type Game = ArenaGame;
    type Facts = LabFacts;
    const MOVES_HEADER: &'static [&'static str] = &MOVES_COLUMNS;
    const SUMMARY_EXTRA: &'static [&'static str] = &SUMMARY_EXTRA;

    fn games_header() -> Vec<&'static str> {
        GAMES_COLUMNS.iter().chain(G::extra_columns()).copied().collect()
    }

    fn agent_name(agent: &AgentSpec) -> String {
        agent.to_string()
    }

    fn play_pair(&self, arena: &Arena<G>, pairing: usize, a: usize, b: usize, pair: u64) -> [ArenaGame; 2] {
        let seed = game_seed(arena.seed, pair);
        // The book: random plies from the pair's own generator, shared by both games.
        let mut book_rng = rng_from_seed(game_seed(seed, u64::MAX));
        let (s, book) = super::batch::opening::<G>(self.start, self.book, &mut book_rng);
        [true, false].map(|a_first| {
            let (x, y) = if a_first { (a, b) } else { (b, a) };
            let mut agents = [arena.agents[x].build::<G>(), arena.agents[y].build::<G>()];
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
                plies: p.plies + (G::ply(&s) - G::ply(&self.start)),
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

    fn seating(g: &ArenaGame) -> Seating {
        Seating { pairing: g.pairing, pair: g.pair, a_first: g.a_first }
    }

    fn add(f: &mut LabFacts, g: &ArenaGame) {
        f.first.add(match g.winner {
            Some(0) => 2,
            Some(_) => 0,
            None => 1,
        });
        f.plies += u64::from(g.plies);
        for i in 0..2 {
            f.decisions[i] += u64::from(g.decisions[i]);
        }
    }

    fn identity(arena: &Arena<G>) -> Result<String, Error> {
        use crate::identity::escape;
        let agents: Vec<String> = arena.agents.iter().map(|a| escape(&a.to_string())).collect();
        Ok(format!(
            "{} seed={} pairs={} book={} agents={}{}\n",
            crate::arena::identity_head(arena.game.kind, &arena.game.variant),
            arena.seed,
            arena.pairs,
            arena.game.book,
            agents.join(";"),
            super::batch::arena_weights(&arena.agents)
        ))
    }

    fn moves_row(arena: &Arena<G>, g: &ArenaGame) -> Vec<String> {
        let (first, second) = arena.seated(g);
        moves_columns(arena.game_index(g), Self::seating(g), arena.name(first), arena.name(second), &g.moves)
    }

    fn games_row(arena: &Arena<G>, g: &ArenaGame) -> Vec<String> {
        let (first, second) = arena.seated(g);
        let mut row = vec![
            g.pairing.to_string(),
            g.pair.to_string(),
            g.seed.to_string(),
            arena.name(first),
            arena.name(second),
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

    fn summary_extra(arena: &Arena<G>, r: &PairingResult<Self>) -> Vec<String> {
        let games = r.count.wdl.games().max(1) as f64;
        let ms = r.facts.ms_per_move(r.count.think);
        vec![
            format!("{:.4}", (r.facts.first.wins as f64 + r.facts.first.draws as f64 / 2.0) / games),
            format!("{:.1}", r.facts.plies as f64 / games),
            format!("{:.3}", ms[0]),
            format!("{:.3}", ms[1]),
            arena.game.kind.to_string(),
            arena.game.variant.clone(),
        ]
    }

    /// The first team's score, the mean plies and each agent's
    /// milliseconds per decision.
    fn notes(_: &Arena<G>, r: &PairingResult<Self>) -> Vec<String> {
        let games = r.count.wdl.games().max(1) as f64;
        let [ms_a, ms_b] = r.facts.ms_per_move(r.count.think);
        vec![format!(
            "first team score {:.3}, mean plies {:.1}, ms per move {ms_a:.2} (first), {ms_b:.2} (second)",
            (r.facts.first.wins as f64 + r.facts.first.draws as f64 / 2.0) / games,
            r.facts.plies as f64 / games,
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::toy::Nim;

    #[test]
    fn a_perfect_player_beats_random_in_every_pair() {
        use crate::arena::Schedule;
        let arena = Arena::<Nim> {
            game: LabContest::new(GameKind::Focus, "", 1, true).unwrap(),
            agents: vec![AgentSpec::Random, AgentSpec::parse("ab:depth=8").unwrap()],
            pairs: 20,
            seed: 3,
            schedule: Schedule::Ladder,
            sprt: None,
        };
        let mut n = 0;
        let mut indexes = Vec::new();
        let r = arena
            .run(2, &|_| {}, |g| {
                n += 1;
                assert_eq!(g.moves.len(), g.plies as usize, "every ply's move is kept, the book's too");
                let row = arena.moves_row(g);
                assert_eq!(row[5].split(' ').count(), g.moves.len());
                indexes.push(arena.game_index(g));
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
        let game = LabContest::new(GameKind::Focus, "players=4", 1, false).unwrap();
        let r4 = Arena { game, ..arena }.run(1, &|_| {}, |_| Ok(())).unwrap();
        assert_eq!(r4[0].count.wdl.games(), 40);
    }
}
