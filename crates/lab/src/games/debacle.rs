//! Débâcle as a [`LabGame`]: the match (first to 30) is the game, every
//! decision (a regular action, a rebond, a recovery choice) one ply; the
//! evaluation counts points.
//!
//! This module never changes the rules: moves, ends, texts and hashes come
//! from `debacle-rules`.

use super::LabGame;
use super::learn::NetShape;
use debacle_rules::{Phase, Position, Variant};

/// Débâcle for the searches and the lab.
#[derive(Clone, Copy, Debug)]
pub struct Debacle;

super::rules_game!(Debacle, Position, debacle_rules::Move);

/// Points of the evaluation: one match point, one point of a held die's
/// value (what it scores at the round's end), and one die held (a step
/// towards the 5 that end the round).
const POINT: i32 = 100;
const HELD: i32 = 150;

/// The evaluation's three terms for `player`'s team against the other, in
/// centi-units, in [`Debacle::NET_FEATURES`]'s order: match points, the
/// values of the held dice, the dice held.
fn terms(s: &Position, player: usize) -> [i32; 3] {
    let me = s.team(player);
    let side = |h: usize| {
        let value: i32 = s.pile(h).iter().enumerate().map(|(v, &n)| (v as i32 + 1) * i32::from(n)).sum();
        [POINT * s.scores()[h] as i32, POINT * value, HELD * s.held(h) as i32]
    };
    let (a, b) = (side(me), side(1 - me));
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// The network's board inputs: square (ranks counted from the mover's home
/// row) × the die's owner (0 the mover) × its value.
const BOARD_INPUTS: usize = 36 * 2 * 6;
/// Captured dice of one value a holder's input tells apart (more read as the last).
const PILE_STEPS: usize = 5;
/// Pile inputs: holder (0 the mover) × value × count.
const PILE_INPUTS: usize = BOARD_INPUTS;
/// The turn's phase: first action, second action, rebond, recovery.
const PHASE_INPUTS: usize = PILE_INPUTS + 2 * 6 * PILE_STEPS;
/// Match scores a side's input tells apart (more read as the last).
const SCORE_STEPS: usize = 32;
/// Score inputs: side (0 the mover) × score.
const SCORE_INPUTS: usize = PHASE_INPUTS + 4;
super::lab_face!(Debacle);

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
        terms(s, player).iter().sum()
    }
    /// Every die by its square (ranks from the mover's home row), owner and
    /// value; each holder's captured dice by value and count; the turn's
    /// phase; each side's match score: 560 inputs.
    const NET: Option<NetShape> =
        Some(NetShape { game: "debacle", inputs: SCORE_INPUTS + 2 * SCORE_STEPS, max_active: 36 + 12 + 1 + 2 });
    const NET_FEATURES: &'static [&'static str] = &["scores", "piles", "held"];
    fn net_inputs(s: &Position, out: &mut Vec<u16>) {
        out.clear();
        let me = s.to_move();
        for sq in 0..36u8 {
            if let Some((owner, value)) = s.cell(sq) {
                let (rank, file) = (usize::from(sq / 6), usize::from(sq % 6));
                let rank = if me == 0 { rank } else { 5 - rank };
                let rel = usize::from(owner != me);
                out.push((((rank * 6 + file) * 2 + rel) * 6 + usize::from(value) - 1) as u16);
            }
        }
        for (rel, holder) in [me, 1 - me].into_iter().enumerate() {
            for (v, &n) in s.pile(holder).iter().enumerate() {
                if n > 0 {
                    out.push((PILE_INPUTS + (rel * 6 + v) * PILE_STEPS + usize::from(n).min(PILE_STEPS - 1)) as u16);
                }
            }
        }
        let phase = match s.phase() {
            Phase::Action { index, .. } => usize::from(index.min(1)),
            Phase::Rebond { .. } => 2,
            Phase::Recovery => 3,
        };
        out.push((PHASE_INPUTS + phase) as u16);
        for (rel, side) in [me, 1 - me].into_iter().enumerate() {
            let score = (s.scores()[side] as usize).min(SCORE_STEPS - 1);
            out.push((SCORE_INPUTS + rel * SCORE_STEPS + score) as u16);
        }
    }
    fn net_features(s: &Position, out: &mut Vec<f32>) {
        let scale = Self::eval_scale(s);
        out.extend(terms(s, s.to_move()).map(|t| (f64::from(t) / scale) as f32));
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

/// The action ids of Débâcle: a flip on each square (36), then a roll
/// from × direction (forward, left, right) × where it ends (no home
/// square, or the home square of file a to f: 7), 756, then a recovery on
/// the home square of file a to f (6) and the declined recovery (1): 799
/// in all. The tensor: 36 planes of 6 × 6, the first 12 a die of each
/// owner × value, then the captured piles (holder × value, filled with the
/// count over 6), the match scores over the target (2), the phase (first
/// action, second action, rebond, recovery: 4), the die flipped by the
/// first action and the rebonding die (2 squares), and the side to move (2).
impl super::encode::Encoded for Debacle {
    fn encoding(s: &Position) -> super::encode::Encoding {
        let v = s.variant();
        super::encode::Encoding {
            players: 2,
            actions: 36 + 36 * 3 * 7 + 6 + 1,
            chance_outcomes: 0,
            // A turn: two regular actions, a rebond after each of at most
            // five captures (the fifth ends the round), a recovery decision.
            max_plies: u64::from(v.rounds) * u64::from(v.turns) * 8,
            tensor_shape: vec![TENSOR_PLANES, 6, 6],
        }
    }
    fn action_id(_s: &Position, m: debacle_rules::Move) -> usize {
        use debacle_rules::{Dir, Move};
        match m {
            Move::Flip { square } => usize::from(square),
            Move::Roll { from, dir, home } => {
                let d = match dir {
                    Dir::Forward => 0,
                    Dir::Left => 1,
                    Dir::Right => 2,
                };
                36 + (usize::from(from) * 3 + d) * 7 + home.map_or(0, |h| 1 + usize::from(h % 6))
            }
            Move::Recover { to } => 36 + 36 * 3 * 7 + usize::from(to % 6),
            Move::Decline => 36 + 36 * 3 * 7 + 6,
        }
    }
    fn tensor(s: &Position, _player: usize, out: &mut [f32]) {
        out[..TENSOR_PLANES * 36].fill(0.0);
        let mut plane = |k: usize, value: f32| out[k * 36..][..36].fill(value);
        for h in 0..2 {
            for (v, &n) in s.pile(h).iter().enumerate() {
                plane(12 + h * 6 + v, f32::from(n) / 6.0);
            }
            plane(24 + h, s.scores()[h] as f32 / f32::from(s.variant().target));
        }
        let over = s.outcome().is_some();
        if !over {
            let k = match s.phase() {
                Phase::Action { index: 0, .. } => 26,
                Phase::Action { .. } => 27,
                Phase::Rebond { .. } => 28,
                Phase::Recovery => 29,
            };
            plane(k, 1.0);
            plane(32 + s.to_move(), 1.0);
        }
        for sq in 0..36u8 {
            if let Some((owner, value)) = s.cell(sq) {
                out[(owner * 6 + usize::from(value) - 1) * 36 + usize::from(sq)] = 1.0;
            }
        }
        if !over {
            match s.phase() {
                Phase::Action { flipped: Some(sq), .. } => out[30 * 36 + usize::from(sq)] = 1.0,
                Phase::Rebond { square, .. } => out[31 * 36 + usize::from(square)] = 1.0,
                _ => {}
            }
        }
    }
}

/// The planes of Débâcle's tensor.
const TENSOR_PLANES: usize = 34;

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
