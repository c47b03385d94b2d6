//! Dominoes in the one arena ([`crate::arena::Arena`]): duplicate deals.
//! Agents meet in pairs of matches that share their deals and draws (the
//! same hands to the same seats), each agent taking the other's seats in
//! the second match (duplicate bridge's idea: the luck of the deal cancels
//! within a pair). With 2 players A sits in seat 0 then 1; with 4, A holds
//! seats 0 and 2, then 1 and 3 (each for himself: A scores a match when
//! either of its seats wins it).
//!
//! What this module must never do: count, schedule or print (the arena
//! does).

use super::dominoes::{DominoSpec, Dominoes, play_match};
use crate::agent::Agent;
use crate::arena::{Arena, Contest, Counted, PairingResult, Seating};
use crate::selfplay::{Error, game_seed};
use dominoes_rules::{Move, Observation, Variant};
use game_search::rng::{GameRng, rng_from_seed};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Dominoes' own settings of an arena.
#[derive(Clone, Debug)]
pub struct DominoContest {
    /// The rules (2 or 4 players).
    pub variant: Variant,
    /// Whether both matches of a pair share their deals (`false`: the
    /// second match deals from another seed, to measure the luck).
    pub duplicate: bool,
    /// Keep every match's moves ([`ArenaMatch::moves`]), chance included,
    /// for a moves file that `senat view` reads.
    pub moves: bool,
}

/// The dominoes arena.
pub type DominoArena = Arena<DominoContest>;

/// One match of a pairing: what its rows of the arena's games and moves
/// files hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArenaMatch {
    /// The pairing's index ([`Arena::pairings`]).
    pub pairing: usize,
    /// The pair (0-based, within the pairing).
    pub pair: u64,
    /// Whether agent A held the even seats (0, 2): the pair's first match.
    pub a_even: bool,
    /// The seed its deals and draws come from ([`play_match`]'s `deal_seed`).
    pub deal_seed: u64,
    /// The winning seat (`None`: a draw).
    pub winner_seat: Option<usize>,
    /// A's points ×2 (2 win, 1 draw, 0 loss).
    pub a_half_points: u8,
    /// Rounds played.
    pub rounds: u32,
    /// Decisions taken (chance excluded).
    pub decisions: u32,
    /// Every seat's final score, seat 0 first.
    pub scores: Vec<u32>,
    /// Thinking time of A and B (over all their seats).
    pub think: [Duration; 2],
    /// Decisions of A and B.
    pub agent_decisions: [u32; 2],
    /// Every move of the match from the start, deals and draws included
    /// (empty unless [`DominoContest::moves`]).
    pub moves: Vec<String>,
}

impl Counted for ArenaMatch {
    fn first_half_points(&self) -> u8 {
        self.a_half_points
    }
    fn think(&self) -> [Duration; 2] {
        self.think
    }
}

/// What a dominoes arena adds up over a pairing beside the common count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DominoFacts {
    /// Matches won from each seat.
    pub seat_wins: [u64; 4],
    /// Rounds played.
    pub rounds: u64,
    /// Decisions of A and B summed over the matches.
    pub decisions: [u64; 2],
}

impl DominoFacts {
    /// Mean milliseconds per decision of A and B, given their thinking time.
    pub fn ms_per_move(&self, think: [Duration; 2]) -> [f64; 2] {
        [0, 1].map(|i| think[i].as_secs_f64() * 1e3 / self.decisions[i].max(1) as f64)
    }
}

/// The columns of the dominoes arena's summary after the common ones of
/// every arena ([`crate::arena::SUMMARY_HEADER`]), one value per cell: the
/// mean rounds per match, the matches won from each seat (empty for seats
/// the variant does not have), each agent's mean milliseconds per decision,
/// the game and the variant text.
pub const DOMINO_SUMMARY_EXTRA: [&str; 10] = [
    "mean_rounds",
    "seat0_wins",
    "seat1_wins",
    "seat2_wins",
    "seat3_wins",
    "first_ms_per_move",
    "second_ms_per_move",
    "duplicate",
    "game",
    "variant",
];

/// An agent whose thinking time and decisions go to a clock shared with
/// the agent's other seats (the arena's time per agent).
struct Clocked {
    inner: Box<dyn Agent<Dominoes>>,
    clock: Arc<Mutex<(Duration, u32)>>,
}

impl Agent<Dominoes> for Clocked {
    fn choose(&mut self, view: &Observation, rng: &mut GameRng) -> Move {
        let t0 = Instant::now();
        let m = self.inner.choose(view, rng);
        let mut c = self.clock.lock().unwrap_or_else(PoisonError::into_inner);
        c.0 += t0.elapsed();
        c.1 += 1;
        m
    }
    fn new_game(&mut self) {
        self.inner.new_game();
    }
}

impl Contest for DominoContest {
    type Error = crate::selfplay::Error;
    type Agent = DominoSpec;
    type Game = ArenaMatch;
    type Facts = DominoFacts;
    const MOVES_HEADER: &'static [&'static str] = &super::arena::MOVES_COLUMNS;
    const SUMMARY_EXTRA: &'static [&'static str] = &DOMINO_SUMMARY_EXTRA;

    /// The generic arena's columns ([`super::arena::GAMES_COLUMNS`]:
    /// `first` the agent of seat 0, `second` of seat 1, `winner` the one
    /// whose seat won, `plies` the decisions, `a_points` agent A's points),
    /// then those of a dominoes batch (`winner_seat`, `rounds`, `scores`).
    fn games_header() -> Vec<&'static str> {
        use super::batch::BatchGame;
        super::arena::GAMES_COLUMNS.iter().chain(Dominoes::batch_columns()).copied().collect()
    }

    fn agent_name(agent: &DominoSpec) -> String {
        agent.to_string()
    }

    fn check(&self, _: &DominoArena) -> Result<(), Error> {
        let players = self.variant.players;
        if players != 2 && players != 4 {
            return Err(Error::Invalid(format!(
                "a dominoes arena seats two agents in turn: 2 or 4 players, not {players}"
            )));
        }
        Ok(())
    }

    fn play_pair(&self, arena: &DominoArena, pairing: usize, a: usize, b: usize, k: u64) -> [ArenaMatch; 2] {
        let players = usize::from(self.variant.players);
        let deal = game_seed(arena.seed, k);
        [true, false].map(|a_even| {
            let seats: Vec<usize> = (0..players).map(|p| if (p % 2 == 0) == a_even { a } else { b }).collect();
            // One clock per agent (A's, B's), shared by its seats.
            let clocks = [(); 2].map(|_| Arc::new(Mutex::new((Duration::ZERO, 0))));
            let mut agents: Vec<Box<dyn Agent<Dominoes>>> = seats
                .iter()
                .map(|&i| {
                    let clock = clocks[usize::from(i != a)].clone();
                    Box::new(Clocked { inner: arena.agents[i].build(), clock }) as Box<dyn Agent<Dominoes>>
                })
                .collect();
            let deal = if self.duplicate || a_even { deal } else { game_seed(deal, 1) };
            let m = play_match(self.variant, &mut agents, deal, &mut rng_from_seed(game_seed(deal, 2)));
            let (a_half_points, winner_seat) = match m.end.outcome() {
                Some(dominoes_rules::Outcome::Win { player }) => (if seats[player] == a { 2 } else { 0 }, Some(player)),
                _ => (1, None),
            };
            let clock = clocks.map(|c| *c.lock().unwrap_or_else(PoisonError::into_inner));
            ArenaMatch {
                pairing,
                pair: k,
                a_even,
                deal_seed: deal,
                winner_seat,
                a_half_points,
                rounds: m.rounds.len() as u32,
                decisions: m.decisions,
                scores: m.end.scores()[..players].to_vec(),
                think: clock.map(|c| c.0),
                agent_decisions: clock.map(|c| c.1),
                moves: if self.moves { m.moves.iter().map(Move::to_string).collect() } else { Vec::new() },
            }
        })
    }

    fn seating(m: &ArenaMatch) -> Seating {
        Seating { pairing: m.pairing, pair: m.pair, a_first: m.a_even }
    }

    fn add(f: &mut DominoFacts, m: &ArenaMatch) {
        if let Some(seat) = m.winner_seat {
            f.seat_wins[seat] += 1;
        }
        f.rounds += u64::from(m.rounds);
        for i in 0..2 {
            f.decisions[i] += u64::from(m.agent_decisions[i]);
        }
    }

    /// In the form of the other games' arenas ([`crate::arena::arena_file`]
    /// reads it back).
    fn identity(arena: &DominoArena) -> Result<String, Error> {
        use crate::identity::escape;
        let agents: Vec<String> = arena.agents.iter().map(|a| escape(&a.to_string())).collect();
        Ok(format!(
            "{} seed={} pairs={} duplicate={} agents={}{}\n",
            crate::arena::identity_head(crate::games::GameKind::Dominoes, &arena.game.variant.to_text()),
            arena.seed,
            arena.pairs,
            arena.game.duplicate,
            agents.join(";"),
            super::batch::arena_weights(&arena.agents)
        ))
    }

    /// `first` is the agent of seat 0, `second` of seat 1.
    fn moves_row(arena: &DominoArena, m: &ArenaMatch) -> Vec<String> {
        let (first, second) = arena.seated(m);
        super::arena::moves_columns(
            arena.game_index(m),
            Self::seating(m),
            arena.name(first),
            arena.name(second),
            &m.moves,
        )
    }

    fn games_row(arena: &DominoArena, m: &ArenaMatch) -> Vec<String> {
        let (first, second) = arena.seated(m);
        let winner = match m.winner_seat {
            Some(s) if s % 2 == 0 => "first",
            Some(_) => "second",
            None => "draw",
        };
        let scores: Vec<String> = m.scores.iter().map(ToString::to_string).collect();
        vec![
            m.pairing.to_string(),
            m.pair.to_string(),
            m.deal_seed.to_string(),
            arena.name(first),
            arena.name(second),
            winner.to_string(),
            m.decisions.to_string(),
            format!("{}", f64::from(m.a_half_points) / 2.0),
            m.winner_seat.map_or("draw".to_string(), |s| s.to_string()),
            m.rounds.to_string(),
            scores.join("/"),
        ]
    }

    fn summary_extra(arena: &DominoArena, r: &PairingResult<Self>) -> Vec<String> {
        let matches = r.count.wdl.games().max(1) as f64;
        let ms = r.facts.ms_per_move(r.count.think);
        let players = usize::from(arena.game.variant.players);
        let mut row = vec![format!("{:.2}", r.facts.rounds as f64 / matches)];
        row.extend((0..4).map(|s| if s < players { r.facts.seat_wins[s].to_string() } else { String::new() }));
        row.extend([
            format!("{:.3}", ms[0]),
            format!("{:.3}", ms[1]),
            arena.game.duplicate.to_string(),
            "dominoes".to_string(),
            arena.game.variant.to_text(),
        ]);
        row
    }

    /// The matches won from each seat, the standard deviation of A's pair
    /// scores, the mean rounds per match and each agent's milliseconds per
    /// decision.
    fn notes(arena: &DominoArena, r: &PairingResult<Self>) -> Vec<String> {
        let players = usize::from(arena.game.variant.players);
        let seats: Vec<String> = r.facts.seat_wins[..players].iter().map(ToString::to_string).collect();
        let [ms_a, ms_b] = r.facts.ms_per_move(r.count.think);
        vec![format!(
            "wins by seat {}, sd per pair {:.4}, mean rounds {:.2}, ms per move {ms_a:.2} (first), {ms_b:.2} (second)",
            seats.join(" "),
            r.count.penta.variance().sqrt(),
            r.facts.rounds as f64 / r.count.wdl.games().max(1) as f64,
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dominoes_rules::State;

    #[test]
    fn a_duplicate_arena_counts_every_match_and_its_rows_replay() {
        let v = Variant::default();
        let arena = DominoArena {
            game: DominoContest { variant: v, duplicate: true, moves: false },
            agents: vec![DominoSpec::Random, DominoSpec::Greedy],
            pairs: 20,
            seed: 1,
            schedule: crate::arena::Schedule::Ladder,
            sprt: None,
        };
        let run = |arena: &DominoArena| {
            let mut matches = Vec::new();
            let r = arena
                .run(2, &|_| {}, |m| {
                    matches.push(m.clone());
                    Ok(())
                })
                .unwrap();
            (r, matches)
        };
        let (r, matches) = run(&arena);
        assert_eq!(r[0].count.wdl.games(), 40);
        assert_eq!(r[0].facts.seat_wins.iter().sum::<u64>() + r[0].count.wdl.draws, 40);
        assert_eq!(matches.len(), 40, "every match is heard");
        assert!(matches.iter().all(|m| m.moves.is_empty()), "no moves kept unless asked");
        let order: Vec<u64> = matches.iter().map(|m| arena.game_index(m)).collect();
        assert_eq!(order, (0..40).collect::<Vec<u64>>(), "heard in match order");
        // The games file: one full row per match, adding up to the
        // pairing's results; the summary: the common cells, then dominoes' own.
        let header = DominoContest::games_header();
        let games: Vec<Vec<String>> = matches.iter().map(|m| arena.games_row(m)).collect();
        assert!(games.iter().all(|row| row.len() == header.len()), "{header:?}");
        let points: f64 = games.iter().map(|row| row[7].parse::<f64>().unwrap()).sum();
        assert_eq!(points, r[0].count.wdl.wins as f64 + r[0].count.wdl.draws as f64 / 2.0);
        assert!(games.iter().all(|row| (row[5] == "first") == (row[8] == "0")), "2 players: seat 0 is first");
        let summary = arena.summary_row(&r[0]);
        assert_eq!(summary.len(), crate::arena::SUMMARY_HEADER.len() + DOMINO_SUMMARY_EXTRA.len());
        assert_eq!(summary[..3], ["random", "greedy", "40"]);
        assert_eq!(
            summary[24..28],
            [r[0].facts.seat_wins[0].to_string(), r[0].facts.seat_wins[1].to_string(), String::new(), String::new()]
        );
        assert!(r[0].facts.decisions[0] > 0 && r[0].facts.decisions[1] > 0, "both agents decided");
        // With moves: one row per match, each replaying to its result; the
        // results are the same as without.
        let (kept, kept_matches) =
            run(&DominoArena { game: DominoContest { moves: true, ..arena.game.clone() }, ..arena.clone() });
        assert_eq!((kept[0].count.wdl, kept[0].facts.seat_wins), (r[0].count.wdl, r[0].facts.seat_wins));
        let rows: Vec<Vec<String>> = kept_matches.iter().map(|m| arena.moves_row(m)).collect();
        let games: Vec<u64> = rows.iter().map(|row| row[0].parse().unwrap()).collect();
        assert_eq!(games, (0..40).collect::<Vec<u64>>());
        let (mut wins_a, mut draws) = (0u64, 0u64);
        for (row, m) in rows.iter().zip(&kept_matches) {
            let mut s = State::start(v);
            for t in row[5].split(' ') {
                let mv = s.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
                s.play_unchecked(mv);
            }
            match s.outcome() {
                Some(dominoes_rules::Outcome::Win { player }) => wins_a += u64::from((player % 2 == 0) == m.a_even),
                _ => draws += 1,
            }
            assert_eq!(row[3], if m.a_even { "random" } else { "greedy" });
        }
        assert_eq!((wins_a, draws), (r[0].count.wdl.wins, r[0].count.wdl.draws), "the rows replay to the results");
    }
}
