//! Integer actions and tensors: what the frameworks researchers already use
//! (OpenSpiel, PettingZoo) need from a game beyond its texts. [`Encoded`]
//! is the one contract; each game's adapter implements it (Focus, Débâcle
//! and Connect Four in their modules, Sénat and dominoes as free functions
//! beside their own pipelines, [`super::senat::encode`] and
//! [`super::dominoes::encode`]), and the catalog's `Position` is the one
//! face that front ends call ([`crate::catalog::Position::legal_actions`]).
//!
//! An action id is a number below the game's action count that names one
//! move the same way in every position of a variant (a bijection between
//! the ids of a position's legal moves and those moves); chance outcomes
//! (dominoes' dealt and drawn tiles) have ids of their own, below the
//! chance count. A tensor is a flat list of `f32` with a fixed shape per
//! variant, filled from one player's point of view.
//!
//! What this module must never do: encode a rule, choose a move, or ask
//! which game it serves (the encodings live in each game's module).

use game_search::{Game, Scores};

/// The fixed sizes of a variant's encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// Players (seats), 2 to 4.
    pub players: usize,
    /// Distinct decision ids: every id is below it.
    pub actions: usize,
    /// Distinct chance outcome ids (0 for a game without chance).
    pub chance_outcomes: usize,
    /// The most plies (decisions and chance outcomes) a game of the variant
    /// can last from its start, by the rules' caps.
    pub max_plies: u64,
    /// The tensor's shape (its length is the product).
    pub tensor_shape: Vec<usize>,
}

impl Encoding {
    /// The tensor's length: the product of its shape.
    pub fn tensor_len(&self) -> usize {
        self.tensor_shape.iter().product()
    }
}

/// Integer actions and a tensor for a game of perfect information played
/// by the lab's generic code ([`super::LabGame`]).
pub trait Encoded: Game {
    /// The sizes of the encoding of `s`'s variant.
    fn encoding(s: &Self::State) -> Encoding;
    /// The id of the legal move `m` of `s`, below [`Encoding::actions`].
    fn action_id(s: &Self::State, m: Self::Move) -> usize;
    /// Fills `out`, [`Encoding::tensor_len`] long (every entry written:
    /// zeroed first), with `s` as `player` sees it; a slice, so that a
    /// batch writes each game's row of its array in place.
    fn tensor(s: &Self::State, player: usize, out: &mut [f32]);
}

/// The players' returns of a finished game as zero-sum values from its
/// scores (1 a win, 0.5 a draw, shared by partners): each player's score
/// minus the mean, scaled so that a winner gets exactly +1 (a loser of a
/// two-player game -1, a draw 0 for everybody).
pub fn zero_sum(scores: &Scores, players: usize) -> Vec<f64> {
    // (x - mean) / (max - mean), times `players` above and below: exact
    // for the scores the rules give (halves and thirds).
    let s = &scores[..players];
    let (n, total) = (players as f64, s.iter().sum::<f64>());
    let top = n * s.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b)) - total;
    if top <= 1e-12 {
        return vec![0.0; players];
    }
    s.iter().map(|&x| (n * x - total) / top).collect()
}

/// The players' returns of a position: [`zero_sum`] of its scores once
/// the game is over (`Some`), 0 for every player before.
pub fn returns(scores: Option<&Scores>, players: usize) -> Vec<f64> {
    scores.map_or_else(|| vec![0.0; players], |s| zero_sum(s, players))
}

/// Sets `out[i]` to 1 (a one-hot cell), ignoring an `i` past the end.
pub fn one_hot(out: &mut [f32], i: usize) {
    if let Some(x) = out.get_mut(i) {
        *x = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_search::MAX_PLAYERS;

    fn scores(v: &[f64]) -> Scores {
        let mut s = [0.0; MAX_PLAYERS];
        s[..v.len()].copy_from_slice(v);
        s
    }

    #[test]
    fn returns_are_zero_sum_with_a_winner_at_one() {
        assert_eq!(zero_sum(&scores(&[1.0, 0.0]), 2), vec![1.0, -1.0]);
        assert_eq!(zero_sum(&scores(&[0.5, 0.5]), 2), vec![0.0, 0.0]);
        assert_eq!(zero_sum(&scores(&[0.0, 1.0, 0.0, 1.0]), 4), vec![-1.0, 1.0, -1.0, 1.0]);
        assert_eq!(zero_sum(&scores(&[1.0, 0.0, 0.0]), 3), vec![1.0, -0.5, -0.5]);
        let r = zero_sum(&scores(&[1.0 / 3.0; 3]), 3);
        assert!(r.iter().all(|&x| x == 0.0));
    }
}
