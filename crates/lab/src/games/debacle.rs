//! Débâcle as a [`LabGame`]: the match (first to 30) is the game, every
//! decision (a regular action, a rebond, a recovery choice) one ply; the
//! evaluation counts points.
//!
//! This module never changes the rules: moves, ends, texts and hashes come
//! from `debacle-rules`.

use super::LabGame;
use debacle_rules::{Position, Variant};

/// Débâcle for the searches and the lab.
#[derive(Clone, Copy, Debug)]
pub struct Debacle;

super::rules_game!(Debacle, Position, debacle_rules::Move);

/// Points of the evaluation: one match point, one point of a held die's
/// value (what it scores at the round's end), and one die held (a step
/// towards the 5 that end the round).
const POINT: i32 = 100;
const HELD: i32 = 150;

impl LabGame for Debacle {
    fn seats(_players: usize) -> &'static [&'static str] {
        &["south", "north"]
    }
    super::rules_texts!(Position, Variant, debacle_rules::perft);
    /// The round's regular actions, two per turn (rebonds and recovery
    /// decisions not counted), from 0 at each round's start: a match's
    /// rounds all start from the same setup, and a temperature over the
    /// match's first plies alone made two matches that reach a round with
    /// the same scores play the same rest.
    fn plies_into_round(s: &Position) -> u32 {
        s.actions_in_round()
    }
    /// Fitted by `cargo run --profile ci --example eval_scale -- debacle 2000 1`:
    /// 2,000 games of `ab:depth=1` against itself after 8 random plies;
    /// 187,565 positions gave 2746.2 (held-out log-loss 0.666, a coin's
    /// 0.693).
    fn eval_scale(_: &Position) -> f64 {
        2746.0
    }
    fn evaluate(s: &Position, player: usize) -> i32 {
        let me = s.team(player);
        let side = |h: usize| {
            let pile = s.pile(h);
            let value: i32 = pile.iter().enumerate().map(|(v, &n)| (v as i32 + 1) * i32::from(n)).sum();
            POINT * s.scores()[h] as i32 + POINT * value + HELD * s.held(h) as i32
        };
        side(me) - side(1 - me)
    }
    fn table_legend() -> &'static str {
        "key: `S4` is a die of South showing 4, `N2` one of North showing 2; South's camp is rank 1,
     North's rank 6; `holds` lists the enemy dice a side captured (their values score at the end).
"
    }
    fn move_forms() -> &'static str {
        "Fa1 (flip), Rb1f Rb1l Rb1r (roll forward, towards file a, towards file f), Re5f@b1 (roll into
              the enemy camp, back home on b1), RECc1 (recover a die onto c1), decline"
    }
    fn extra_columns() -> &'static [&'static str] {
        &["rounds", "south_points", "north_points"]
    }
    fn extra(s: &Position) -> Vec<String> {
        let sc = s.scores();
        vec![s.round().to_string(), sc[0].to_string(), sc[1].to_string()]
    }
}

/// Débâcle measured by `senat metrics` ([`crate::metrics::records`]): two
/// sides (South 0, North 1), the values of the alpha-beta agents'
/// evaluation through the fitted logistic
/// ([`crate::metrics::records::lab_values`]), and two end reasons, both
/// rules: `target` (a side reached the match target) and `rounds` (the
/// round limit, where the higher total wins and equal totals draw).
impl crate::metrics::records::Measured for Debacle {
    type State = Position;
    type Move = debacle_rules::Move;

    fn measured_start(variant: &str) -> Result<Position, String> {
        Debacle::start(variant).map_err(|e| e.to_string())
    }
    fn profile(start: &Position) -> crate::metrics::Profile {
        use crate::metrics::{GameWords, Profile, Reason};
        let v = start.variant();
        let reasons = vec![
            Reason {
                name: "target",
                timeout: false,
                share: format!("share of matches ended by a side reaching the target, {} points", v.target),
            },
            Reason {
                name: "rounds",
                timeout: false,
                share: format!(
                    "share of matches ended by the round limit ({} rounds): the higher total wins, equal totals \
                     draw. A rule of the match, not a timeout (Ludii's Timeouts is 0 here)",
                    v.rounds
                ),
            },
        ];
        let words = GameWords {
            first: "South, player 0".into(),
            unit: "plies",
            plies: "every decision of the match, rebonds, recovery choices and the random opening plies of \
                    --book-plies included: the games file's `plies`"
                .into(),
            eval: format!(
                "each side's win probability by the alpha-beta agents' evaluation (match points, the values of \
                 the captured dice held, dice held, the side against the other) through the fixed logistic \
                 1/(1+e^(-score/{})), the scale fitted to self-play results (`cargo run --profile ci --example \
                 eval_scale -- debacle 2000 1`)",
                Debacle::eval_scale(start)
            ),
            branching: "legal moves at each ply".into(),
        };
        Profile::other(2, reasons, &words)
    }
    fn decider(s: &Position) -> Option<usize> {
        Some(s.team(s.to_move()))
    }
    fn read_move(s: &Position, text: &str) -> Result<debacle_rules::Move, String> {
        s.parse_move(text).map_err(|e| e.to_string())
    }
    fn play(s: &mut Position, m: debacle_rules::Move) {
        s.play_unchecked(m);
    }
    fn legal_count(s: &Position) -> usize {
        super::legal_moves::<Debacle>(s).len()
    }
    fn values(s: &Position) -> crate::metrics::Values {
        crate::metrics::records::lab_values::<Debacle>(s)
    }
    fn end(s: &Position) -> Option<(Option<usize>, usize)> {
        let winner = match s.outcome()? {
            debacle_rules::Outcome::Win { team } => Some(team),
            debacle_rules::Outcome::Draw => None,
        };
        let target = u32::from(s.variant().target);
        let reached = s.scores().iter().any(|&x| x >= target);
        Some((winner, usize::from(!reached)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_search::Game;

    #[test]
    fn plies_into_round_restart_with_each_round() {
        // The fifth capture of round 1 at ply 201: round 2 starts from 0.
        let mut s: Position =
            "N6...../....../...N2../...S3../....../S1S2S3.S5. s 1 2345/1 0-0 r1 s t40 q3 p200 - -".parse().unwrap();
        assert_eq!((Debacle::ply(&s), Debacle::plies_into_round(&s)), (200, 80));
        s = Debacle::apply(&s, s.parse_move("Rd3f").unwrap());
        assert_eq!((s.round(), Debacle::ply(&s), Debacle::plies_into_round(&s)), (2, 201, 0));
        let start = Debacle::start("").unwrap();
        assert_eq!(Debacle::plies_into_round(&start), 0);
        let next = Debacle::apply(&start, start.parse_move("Fa1").unwrap());
        assert_eq!(Debacle::plies_into_round(&next), 1);
    }
}
