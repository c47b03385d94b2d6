//! The games behind a design: one game of a variant under a tier, as the
//! design needs it (the first player's score and the game's length), for
//! Sénat through its self-play game loop and for every other game through
//! its [`BatchGame`] row. Game `index` of seed `seed` is the same game
//! whatever the variant's rounds, threads or resume, and the same index
//! draws the same seed for every variant and tier (common random numbers).
//! An Elo gap's observation is a colour-swapped pair of its two agents,
//! played by the arena of the game ([`elo_pair`]).
//!
//! This module never picks a game by name (the binary's catalog does),
//! never decides a move and never writes a file.

use crate::arena::{Arena, Contest, Counted};
use crate::catalog::arena::{About, WithArena};
use crate::games::batch::{BatchGame, GameSeeds};
use crate::selfplay::Matchup;
use crate::selfplay::play::play_game_timed_from;
use senat_rules::variant::Variant;

pub use game_lab::design::GameOutcome;

/// Game `index` of seed `seed` of a game other than Sénat: team 0 (the
/// first player's) and team 1 both played by `agent`, from `start`.
pub fn lab_game<G: BatchGame>(start: &G::Start, agent: &G::Spec, seed: u64, index: u64) -> GameOutcome {
    let agents = [agent.clone(), agent.clone()];
    let r = G::play_row(start, &agents, 0, GameSeeds::of(seed, index, None), false, false);
    GameOutcome::of(r.winner, 0, r.plies)
}

/// Game `index` of seed `seed` of Sénat variant `v`, both sides and both
/// phases played by `m`'s policies; the first player is the side that
/// moves first in play (the colour `first_mover`, whoever plays it after
/// the decision of `swap=yes`), and the length counts every half-move,
/// draft included. Its [`GameOutcome::seat`] is the score of the first
/// giver's seat (the player who gave the first die: the winning colour's
/// seat through the final position's [`senat_rules::Position::seat_of`]).
pub fn senat_game(m: &Matchup, v: Variant, seed: u64, index: u64) -> GameOutcome {
    let (g, _) = play_game_timed_from(m, v, seed, index, &[]);
    let winner = g.outcome.winner.map(|s| s as usize);
    let end = g.game.position();
    let seat = g.outcome.winner.map(|w| end.seat_of(w) as usize);
    let seat = GameOutcome::of(seat, v.first_giver as usize, 0).score;
    GameOutcome { seat: Some(seat), ..GameOutcome::of(winner, v.first_mover as usize, g.game.moves().len() as u32) }
}

/// Pair `pair` of a two-agent arena (its agents A and B, as the catalog
/// reads `senat arena`'s): A takes the first seat in one game and B in the
/// other, from game seed (arena seed, `pair`), as `senat arena` plays
/// them. The outcome's score is A's mean score over the two games (0, ¼,
/// ½, ¾ or 1); `draw` and `plies` are not kept (false, 0).
pub fn elo_pair<C: Contest>(arena: &Arena<C>, pair: u64) -> GameOutcome {
    let games = arena.game.play_pair(arena, 0, 0, 1, pair);
    let half_points: u32 = games.iter().map(|g| u32::from(g.first_half_points())).sum();
    GameOutcome { score: f64::from(half_points) / 4.0, draw: false, plies: 0, seat: None }
}

/// The pairs of the arena that [`crate::catalog::arena::arena`] reads:
/// the pair index to [`elo_pair`]'s outcome.
pub struct EloPairs;

impl WithArena for EloPairs {
    type Output = Box<dyn Fn(u64) -> GameOutcome + Sync>;

    fn with<C: Contest + 'static>(self, arena: Arena<C>, _: About) -> Self::Output {
        Box::new(move |pair| elo_pair(&arena, pair))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores() {
        assert_eq!(GameOutcome::of(None, 0, 3).score, 0.5);
        assert_eq!(GameOutcome::of(Some(1), 1, 3).score, 1.0);
        assert_eq!(GameOutcome::of(Some(0), 1, 3).score, 0.0);
    }

    /// Under `swap=yes` the first giver's seat scores through the seats:
    /// after a swap it is the other colour's score, without one the first
    /// giver's colour's; without the decision it is the first giver's colour's.
    #[test]
    fn the_seat_scores_through_the_swap() {
        let spec = crate::policy::PolicySpec::parse("learned").unwrap();
        let m = Matchup { red: spec.clone(), blue: spec.clone(), draft_red: spec.clone(), draft_blue: spec };
        let mut swaps = [0; 2];
        for (text, n) in [("swap=yes", 30), ("first_giver=red", 6)] {
            let v = Variant::parse(text).unwrap();
            for i in 0..n {
                let o = senat_game(&m, v, 59, i);
                let (g, _) = play_game_timed_from(&m, v, 59, i, &[]);
                let swapped = g.game.position().swapped();
                swaps[usize::from(swapped)] += 1;
                let giver_colour = if swapped { v.first_giver.other() } else { v.first_giver };
                let want = match g.outcome.winner {
                    None => 0.5,
                    Some(w) => f64::from(u8::from(w == giver_colour)),
                };
                assert_eq!(o.seat, Some(want), "{text} game {i}");
                let mover = match g.outcome.winner {
                    None => 0.5,
                    Some(w) => f64::from(u8::from(w == v.first_mover)),
                };
                assert_eq!(o.score, mover);
            }
        }
        assert!(swaps[0] > 0 && swaps[1] > 0, "{swaps:?}");
    }
}
