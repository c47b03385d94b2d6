//! One scale for every engine's opinion of a position: the probability
//! that the side to move wins, a draw counting half ([`WinChance`]), so
//! that `analyze` and `annotate` speak the same language whatever searched.
//!
//! - **Alpha-beta and static evaluations**: a score `s` (the engine's own
//!   units) maps to `1 / (1 + e^(−s / scale))`, [`WinChance::from_score`],
//!   the one logistic mapping of the lab; each game's evaluation brings its
//!   own scale, fitted to self-play outcomes (Sénat's are `senat-lab`'s
//!   `winprob::HAND_SCALE` and `winprob::LEARNED_SCALE`, the other games'
//!   their `eval_scale`).
//! - **MCTS**: the mean result of the playouts through a move, a win
//!   counting 1, a draw ½ and a loss 0, is
//!   already on this scale ([`WinChance::from_mean`]): it is the expected
//!   score, which is the win probability when draws count half.
//! - **Proved results** (alpha-beta scores beyond [`WIN_BOUND`], MCTS
//!   proofs, finished games): 1 for a forced win, 0 for a forced loss, ½ for
//!   a proved draw, with the plies to the end when the search knows them
//!   ([`Proved`]).
//!
//! The scale is symmetric: the other side's chance is `1 − p`
//! ([`WinChance::other`]), as a negated score gives.
//!
//! This module never searches and never names a rule; it only converts.

use game_search::mcts::Proof;
use game_search::{WIN, WIN_BOUND};
use std::fmt;

/// A result a search proved, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proved {
    /// The side to move forces a win within this many plies (0: the game is
    /// over and won).
    Win(u32),
    /// The other side forces a win within this many plies (0: over and lost).
    Loss(u32),
    /// Both sides force at least a draw.
    Draw,
}

impl Proved {
    /// The same result seen by the other side.
    pub fn other(self) -> Proved {
        match self {
            Proved::Win(n) => Proved::Loss(n),
            Proved::Loss(n) => Proved::Win(n),
            Proved::Draw => Proved::Draw,
        }
    }

    /// Its win probability: 1, 0 or ½.
    pub fn p(self) -> f64 {
        match self {
            Proved::Win(_) => 1.0,
            Proved::Loss(_) => 0.0,
            Proved::Draw => 0.5,
        }
    }
}

impl fmt::Display for Proved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Proved::Win(0) => f.write_str("won"),
            Proved::Loss(0) => f.write_str("lost"),
            Proved::Win(n) => write!(f, "win in {n}"),
            Proved::Loss(n) => write!(f, "loss in {n}"),
            Proved::Draw => f.write_str("proved draw"),
        }
    }
}

/// The probability that the side to move wins (a draw counting half), in
/// 0..=1, and the proof behind it if there is one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinChance {
    p: f64,
    proved: Option<Proved>,
}

impl WinChance {
    /// An even position: ½, nothing proved.
    pub const EVEN: WinChance = WinChance { p: 0.5, proved: None };

    /// A search score in the engine's units mapped through the logistic of
    /// `scale` units per unit of log-odds; scores beyond [`WIN_BOUND`]
    /// (forced results, `WIN − plies`) map to a proved win or loss.
    pub fn from_score(score: i32, scale: f64) -> WinChance {
        if score > WIN_BOUND {
            return WinChance::proved(Proved::Win((WIN - score) as u32));
        }
        if score < -WIN_BOUND {
            return WinChance::proved(Proved::Loss((WIN + score) as u32));
        }
        WinChance { p: 1.0 / (1.0 + (-f64::from(score) / scale).exp()), proved: None }
    }

    /// An MCTS mean result (1 win, ½ draw, 0 loss) for the side to move,
    /// and the search's proof if it has one (which wins over the mean).
    pub fn from_mean(mean: f64, proof: Option<Proof>) -> WinChance {
        match proof {
            Some(Proof::Win(n)) => WinChance::proved(Proved::Win(n)),
            Some(Proof::Loss(n)) => WinChance::proved(Proved::Loss(n)),
            Some(Proof::Draw) => WinChance::proved(Proved::Draw),
            None => WinChance::estimate(mean),
        }
    }

    /// A probability estimated some other way (clamped to 0..=1; NaN is ½).
    pub fn estimate(p: f64) -> WinChance {
        WinChance { p: if p.is_nan() { 0.5 } else { p.clamp(0.0, 1.0) }, proved: None }
    }

    /// A proved result.
    pub fn proved(r: Proved) -> WinChance {
        WinChance { p: r.p(), proved: Some(r) }
    }

    /// The probability, 0..=1.
    pub fn p(&self) -> f64 {
        self.p
    }

    /// The proof, if any.
    pub fn proof(&self) -> Option<Proved> {
        self.proved
    }

    /// The same chance seen by the other side: `1 − p`, the proof turned.
    pub fn other(&self) -> WinChance {
        WinChance { p: 1.0 - self.p, proved: self.proved.map(Proved::other) }
    }
}

/// `0.734`, or `1.000 (win in 3)` with a proof.
impl fmt::Display for WinChance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.3}", self.p)?;
        if let Some(r) = self.proved {
            write!(f, " ({r})")?;
        }
        Ok(())
    }
}

/// How much a move lost, by the drop in the mover's win probability from
/// the best move's to the move played's (the thresholds of analysis boards).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// A drop of at least [`INACCURACY`].
    Inaccuracy,
    /// At least [`MISTAKE`].
    Mistake,
    /// At least [`BLUNDER`].
    Blunder,
}

/// The smallest drop marked an inaccuracy (`?!`).
pub const INACCURACY: f64 = 0.05;
/// The smallest drop marked a mistake (`?`).
pub const MISTAKE: f64 = 0.10;
/// The smallest drop marked a blunder (`??`).
pub const BLUNDER: f64 = 0.20;

impl Mark {
    /// The mark of a drop in win probability, if it reaches [`INACCURACY`].
    pub fn of_drop(drop: f64) -> Option<Mark> {
        // A drop printed as 0.200 is a blunder: 1.0 − 0.8 is 0.19999… in
        // binary, so the thresholds get a hair of slack.
        let drop = drop + 1e-9;
        if drop >= BLUNDER {
            Some(Mark::Blunder)
        } else if drop >= MISTAKE {
            Some(Mark::Mistake)
        } else if drop >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The mark written as `symbol` (`?!`, `?`, `??`), if it is one.
    pub fn from_symbol(symbol: &str) -> Option<Mark> {
        [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder].into_iter().find(|m| m.symbol() == symbol)
    }

    /// `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// What a move lost: the mover's win probability before it (the best
/// move's) less after the move played, at least 0 (lichess's loss per
/// move), and its mark by that drop unless the move played is the best.
pub fn judge(before: f64, after: f64, played_best: bool) -> (f64, Option<Mark>) {
    let drop = before - after;
    (drop.max(0.0), if played_best { None } else { Mark::of_drop(drop) })
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scale of a static evaluation's units (Sénat's hand evaluation's).
    const HAND_SCALE: f64 = 1507.0;

    #[test]
    fn the_logistic_is_monotone_and_symmetric() {
        let mut last = -1.0;
        for s in (-20_000..=20_000).step_by(250) {
            let w = WinChance::from_score(s, HAND_SCALE);
            assert!(w.p() > last, "{s}: {} after {last}", w.p());
            last = w.p();
            let back = WinChance::from_score(-s, HAND_SCALE);
            assert!((w.p() + back.p() - 1.0).abs() < 1e-12, "{s}");
            assert_eq!(w.other().p(), 1.0 - w.p());
            assert_eq!(w.proof(), None);
        }
        assert_eq!(WinChance::from_score(0, HAND_SCALE).p(), 0.5);
        let one = WinChance::from_score(HAND_SCALE.round() as i32, HAND_SCALE).p();
        assert!((one - 0.731).abs() < 1e-3, "{one}");
    }

    #[test]
    fn forced_results_are_certain_and_keep_their_plies() {
        let w = WinChance::from_score(WIN - 3, HAND_SCALE);
        assert_eq!((w.p(), w.proof()), (1.0, Some(Proved::Win(3))));
        assert_eq!(w.to_string(), "1.000 (win in 3)");
        let l = WinChance::from_score(-(WIN - 4), HAND_SCALE);
        assert_eq!((l.p(), l.proof()), (0.0, Some(Proved::Loss(4))));
        assert_eq!(l.other(), WinChance::from_score(WIN - 4, HAND_SCALE));
        // The biggest heuristic score is not a proof.
        assert!(WinChance::from_score(WIN_BOUND, HAND_SCALE).proof().is_none());
        assert!(WinChance::from_score(WIN_BOUND, HAND_SCALE).p() < 1.0 + 1e-12);
        assert_eq!(WinChance::from_mean(0.3, Some(Proof::Win(5))).p(), 1.0);
        assert_eq!(WinChance::from_mean(0.9, Some(Proof::Loss(2))).proof(), Some(Proved::Loss(2)));
        assert_eq!(WinChance::from_mean(0.9, Some(Proof::Draw)).p(), 0.5);
        assert_eq!(WinChance::from_mean(0.734, None).to_string(), "0.734");
        assert_eq!(WinChance::estimate(f64::NAN).p(), 0.5);
        assert_eq!(WinChance::estimate(1.5).p(), 1.0);
    }

    #[test]
    fn marks_follow_the_thresholds() {
        assert_eq!(Mark::of_drop(0.049), None);
        assert_eq!(Mark::of_drop(-0.5), None);
        assert_eq!(Mark::of_drop(0.05), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of_drop(0.10), Some(Mark::Mistake));
        assert_eq!(Mark::of_drop(0.199), Some(Mark::Mistake));
        assert_eq!(Mark::of_drop(0.2), Some(Mark::Blunder));
        assert_eq!(Mark::of_drop(1.0).map(Mark::symbol), Some("??"));
        for m in [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder] {
            assert_eq!(Mark::from_symbol(m.symbol()), Some(m));
        }
        assert_eq!(Mark::from_symbol("!"), None);
    }
}
