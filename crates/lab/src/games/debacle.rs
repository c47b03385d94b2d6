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
