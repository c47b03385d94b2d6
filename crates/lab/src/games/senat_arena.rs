//! Sénat in the one arena ([`crate::arena::Arena`]): its [`Contest`]
//! plays a pair as two games from the same seed, each agent red once, with
//! a shared draft policy (both games then start from the same draft) or
//! each agent drafting with its own policy, after an optional shared random
//! opening ("book"). Its files keep Sénat's columns (the moves file is a
//! self-play games file that `senat view` reads). Under `swap=yes` the
//! agents are seated by the colour they draft with; a game's points go to
//! the agent through its seat (the winner is written as a colour, the
//! final SPN shows `swapped:`).
//!
//! What this module must never do: count, schedule or print (the arena
//! does), or know another game.

use crate::arena::{Arena, Contest, Counted, Seating, identity_head};
use crate::games::GameKind;
use crate::policy::PolicySpec;
use crate::selfplay::{
    Error, Matchup, PlayedGame, PolicyId, ThinkTime, game_seed, play_game_timed_from, random_opening, winner_name,
};
use senat_rules::{EndReason, Side, Variant};
use std::time::Duration;

/// Sénat's own settings of an arena: how the agents draft, the shared
/// opening, the rules.
#[derive(Clone, Debug)]
pub struct SenatContest {
    /// The draft policy of both sides in every game, or `None` for each
    /// agent to draft with its own policy.
    pub draft: Option<PolicySpec>,
    /// Plies of a shared random opening ("book") at the start of both games
    /// of every pair ([`random_opening`]); 0: none. With `draft: None`,
    /// agents that draw no randomness would otherwise play the same two
    /// games in every pair.
    pub book: u32,
    /// The rules variant of every game.
    pub variant: Variant,
}

/// Sénat's arena: the agents' play policies (their names are the specs as given).
pub type SenatArena = Arena<SenatContest>;

/// One finished game of Sénat's arena.
#[derive(Clone, Debug)]
pub struct ArenaGame {
    /// Index of the pairing in [`Arena::pairings`].
    pub pairing: usize,
    /// Pair index within the pairing.
    pub pair: u64,
    /// Whether the pairing's first agent drafted red (its seat; under
    /// `swap=yes` it plays blue after a swap).
    pub first_red: bool,
    /// Whether the players exchanged colours after the draft (`swap=yes`).
    pub swapped: bool,
    /// The game's seed (shared by the two games of a pair).
    pub game_seed: u64,
    /// The winning colour (its player's seat is the other after a swap).
    pub winner: Option<Side>,
    /// Why it ended.
    pub reason: EndReason,
    /// Play-phase half-moves.
    pub play_len: usize,
    /// The final position, as SPN.
    pub final_spn: String,
    /// The draft's moves, as a games file writes them.
    pub draft_moves: String,
    /// The play's moves, as a games file writes them.
    pub play_moves: String,
    /// Wall-clock time the first and the second agent spent choosing their
    /// moves in this game: in the play phase, and in the draft too when the
    /// agents draft with their own policies (`draft` `None`); a shared
    /// draft policy's time is nobody's.
    pub think: [Duration; 2],
}

impl ArenaGame {
    fn new(
        pairing: usize,
        pair: u64,
        first_red: bool,
        game_seed: u64,
        g: &PlayedGame,
        clock: &ThinkTime,
        own_draft: bool,
    ) -> ArenaGame {
        let side = |s: Side| {
            let i = s as usize;
            clock.play[i] + if own_draft { clock.draft[i] } else { Duration::ZERO }
        };
        let (first, second) = if first_red { (Side::Red, Side::Blue) } else { (Side::Blue, Side::Red) };
        ArenaGame {
            pairing,
            pair,
            first_red,
            swapped: g.game.position().swapped(),
            game_seed,
            winner: g.outcome.winner,
            reason: g.outcome.reason,
            play_len: g.game.moves().len() - g.draft_len,
            final_spn: g.game.position().to_spn(),
            draft_moves: crate::selfplay::codec::moves_text(&g.game.moves()[..g.draft_len]),
            play_moves: crate::selfplay::codec::moves_text(&g.game.moves()[g.draft_len..]),
            think: [side(first), side(second)],
        }
    }

    /// The first agent's points in half-points: 2 win, 1 draw, 0 loss; the
    /// winning colour's player through the seats (under `swap=yes`, the
    /// other drafter after a swap).
    pub fn first_half_points(&self) -> u8 {
        let first = if self.first_red { Side::Red } else { Side::Blue };
        let seat = |w: Side| if self.swapped { w.other() } else { w };
        match self.winner.map(seat) {
            Some(w) if w == first => 2,
            Some(_) => 0,
            None => 1,
        }
    }
}

impl Counted for ArenaGame {
    fn first_half_points(&self) -> u8 {
        ArenaGame::first_half_points(self)
    }
    fn think(&self) -> [Duration; 2] {
        self.think
    }
}

/// Columns of Sénat's arena moves file (`senat arena --moves`): the columns
/// of a self-play games file that `senat view` reads, so that an arena game
/// is viewed as `senat view MOVES.csv --index N`.
pub const MOVES_HEADER: [&str; 10] =
    ["game", "pairing", "pair", "red", "blue", "winner", "reason", "draft_moves", "play_moves", "final_spn"];

/// Columns of Sénat's arena games file.
pub const GAMES_HEADER: [&str; 12] = [
    "pairing",
    "pair",
    "game_seed",
    "first",
    "second",
    "red",
    "blue",
    "winner",
    "reason",
    "play_half_moves",
    "first_points",
    "final_spn",
];

impl SenatContest {
    fn matchup(&self, arena: &SenatArena, red: usize, blue: usize) -> Matchup {
        let draft = |a: usize| self.draft.clone().unwrap_or_else(|| arena.agents[a].clone());
        Matchup {
            red: arena.agents[red].clone(),
            blue: arena.agents[blue].clone(),
            draft_red: draft(red),
            draft_blue: draft(blue),
        }
    }
}

impl Contest for SenatContest {
    type Error = crate::selfplay::Error;
    type Agent = PolicySpec;
    type Game = ArenaGame;
    type Facts = ();
    const MOVES_HEADER: &'static [&'static str] = &MOVES_HEADER;
    const SUMMARY_EXTRA: &'static [&'static str] = &[];

    fn games_header() -> Vec<&'static str> {
        GAMES_HEADER.to_vec()
    }

    fn agent_name(agent: &PolicySpec) -> String {
        agent.name.clone()
    }

    fn play_pair(&self, arena: &SenatArena, pairing: usize, a: usize, b: usize, pair: u64) -> [ArenaGame; 2] {
        let book = random_opening(self.variant, arena.seed, pair, self.book);
        [(true, self.matchup(arena, a, b)), (false, self.matchup(arena, b, a))].map(|(first_red, m)| {
            let (g, clock) = play_game_timed_from(&m, self.variant, arena.seed, pair, &book);
            let seed = game_seed(arena.seed, pair);
            ArenaGame::new(pairing, pair, first_red, seed, &g, &clock, self.draft.is_none())
        })
    }

    fn seating(g: &ArenaGame) -> Seating {
        Seating { pairing: g.pairing, pair: g.pair, a_first: g.first_red }
    }

    fn add(_: &mut (), _: &ArenaGame) {}

    /// The agents and the draft policy with the FNV-1a hash of any weights
    /// file, after [`identity_head`]:
    /// `# senat-arena v2 game=senat variant=- seed=1 games=100 schedule=round-robin sprt=- draft=random draft_weights=- agents=2 agent1=random agent1_weights=- ...`.
    fn identity(arena: &SenatArena) -> Result<String, Error> {
        use crate::identity::escape;
        let c = &arena.game;
        let id = |s: &PolicySpec| -> Result<String, Error> {
            let p = PolicyId::of(s)?;
            Ok(crate::identity::hash_text(p.weights))
        };
        let schedule = arena.schedule.name();
        let sprt = arena
            .sprt
            .map_or("-".into(), |t| format!("elo0={},elo1={},alpha={},beta={}", t.elo0, t.elo1, t.alpha, t.beta));
        let variant = if c.variant.is_rules() { String::new() } else { c.variant.to_text() };
        let mut line = format!(
            "{} seed={} games={} schedule={schedule} sprt={}",
            identity_head(GameKind::Senat, &variant),
            arena.seed,
            arena.pairs * 2,
            escape(&sprt)
        );
        match &c.draft {
            Some(d) => line.push_str(&format!(" draft={} draft_weights={}", escape(&d.name), id(d)?)),
            None => line.push_str(" draft=own draft_weights=-"),
        }
        if c.book > 0 {
            line.push_str(&format!(" book={}", c.book));
        }
        line.push_str(&format!(" agents={}", arena.agents.len()));
        for (i, a) in arena.agents.iter().enumerate() {
            line.push_str(&format!(" agent{}={} agent{}_weights={}", i + 1, escape(&a.name), i + 1, id(a)?));
        }
        line.push('\n');
        Ok(line)
    }

    fn inputs(arena: &SenatArena) -> Vec<std::path::PathBuf> {
        crate::selfplay::identity::weight_inputs(arena.agents.iter().chain(arena.game.draft.as_ref()))
    }

    fn moves_row(arena: &SenatArena, g: &ArenaGame) -> Vec<String> {
        let (red, blue) = arena.seated(g);
        vec![
            arena.game_index(g).to_string(),
            g.pairing.to_string(),
            g.pair.to_string(),
            arena.agents[red].name.clone(),
            arena.agents[blue].name.clone(),
            winner_name(g.winner).to_string(),
            g.reason.name().to_string(),
            g.draft_moves.clone(),
            g.play_moves.clone(),
            g.final_spn.clone(),
        ]
    }

    fn games_row(arena: &SenatArena, g: &ArenaGame) -> Vec<String> {
        let (a, b) = arena.pairing_of(g);
        let (red, blue) = arena.seated(g);
        let pts = match g.first_half_points() {
            2 => "1",
            1 => "0.5",
            _ => "0",
        };
        vec![
            g.pairing.to_string(),
            g.pair.to_string(),
            g.game_seed.to_string(),
            arena.agents[a].name.clone(),
            arena.agents[b].name.clone(),
            arena.agents[red].name.clone(),
            arena.agents[blue].name.clone(),
            winner_name(g.winner).to_string(),
            g.reason.name().to_string(),
            g.play_len.to_string(),
            pts.to_string(),
            g.final_spn.clone(),
        ]
    }

    fn summary_extra(_: &SenatArena, _: &crate::arena::PairingResult<Self>) -> Vec<String> {
        Vec::new()
    }

    fn notes(_: &SenatArena, _: &crate::arena::PairingResult<Self>) -> Vec<String> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's points go to the agent through its seat: after a swap the
    /// first agent (seated red, the red drafter) plays blue, so a blue win
    /// is its own.
    #[test]
    fn points_follow_the_seat() {
        let game = |first_red: bool, swapped: bool, winner: Option<Side>| ArenaGame {
            pairing: 0,
            pair: 0,
            first_red,
            swapped,
            game_seed: 0,
            winner,
            reason: EndReason::Majority,
            play_len: 0,
            final_spn: String::new(),
            draft_moves: String::new(),
            play_moves: String::new(),
            think: [Duration::ZERO; 2],
        };
        assert_eq!(game(true, false, Some(Side::Red)).first_half_points(), 2);
        assert_eq!(game(true, true, Some(Side::Red)).first_half_points(), 0);
        assert_eq!(game(true, true, Some(Side::Blue)).first_half_points(), 2);
        assert_eq!(game(false, true, Some(Side::Red)).first_half_points(), 2);
        assert_eq!(game(false, true, None).first_half_points(), 1);
    }
}
