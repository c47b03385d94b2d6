//! Sénat's scales on the lab's one scale of opinions ([`WinChance`]): the
//! logistic scales of its hand evaluation ([`HAND_SCALE`]) and of its
//! learned evaluation ([`LEARNED_SCALE`]). The scale itself, its proofs and
//! its marks are the generic lab's (`game_lab::winprob`), re-exported here
//! under their old paths.
//!
//! This module never searches and never names a rule; it only holds constants.

pub use game_lab::winprob::*;

/// [`crate::eval::SenatEval`] units (thousandths of a pile) per unit of
/// log-odds: a score of `HAND_SCALE` is a win probability of
/// `1 / (1 + e^−1)` ≈ 0.73 for the side to move.
///
/// Fitted, not chosen: `senat tune --games 20000 --rounds 3 --seed 1`
/// (the command that made the shipped learned weights; rerun by
/// `experiments/winprob-scale.sh`) fits, besides the learned model, the
/// best single logistic scale of alpha-beta's static evaluation against
/// the games' results (log-loss, one parameter, no intercept, a draw
/// counting half) on the play positions of its self-play games (48,000
/// training games of the heuristic and learned policies, 753,587 sampled
/// play positions, round 3) and prints it as `alpha-beta scale`. That
/// scale, 1507 (rounds 1 and 2 gave 1044 and 1563: the scale depends on
/// who plays the games), is this constant.
pub const HAND_SCALE: f64 = 1507.0;

/// The learned evaluation's search scores are its log-odds ×1000
/// ([`crate::games::senat::LeafEval::Learned`]), so its scale is 1000 by
/// construction: the model itself was fitted to game results
/// ([`crate::tune`]).
pub const LEARNED_SCALE: f64 = 1000.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_learned_scale_gives_back_the_models_probability() {
        let w = crate::learned::Learned::builtin();
        let p: senat_rules::Position = senat_rules::sample::START.parse().unwrap();
        let me = p.side_to_move();
        let score = (1000.0 * w.logit(&p, me)).round() as i32;
        assert!((WinChance::from_score(score, LEARNED_SCALE).p() - w.value(&p, me)).abs() < 1e-3);
    }
}
