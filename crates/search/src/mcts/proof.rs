//! Proofs in the tree of [`super::Parallel::Root`] searches: MCTS-Solver
//! (Winands, Björnsson and Saito 2008) with score bounds (Cazenave and
//! Saffidine 2010), and distances to the end.
//!
//! Every node carries a pessimistic and an optimistic bound on its
//! game-theoretic value, two `i16`s in one fixed frame: the team of player
//! 0 (the "first team") maximizes, the other team minimizes. A value is a
//! win, a draw or a loss for the first team, with a distance: a win `d`
//! plies from the node is `WIN - d`, a loss `-(WIN - d)`, a draw 0 (draws
//! carry no distance). Bounds are relative to their node, so a subtree
//! keeps them when it becomes the root ([`super::Mcts::advance`]); one ply
//! up, a bound moves one step towards 0 ([`up`]). A node is proved when
//! both bounds have the same sign: a win (the distance of the pessimistic
//! bound is guaranteed), a draw, or a loss (the distance of the optimistic
//! bound is what the winner guarantees).
//!
//! How bounds move: a terminal state has both bounds equal to its result
//! ([`terminal`]); an unexpanded node knows nothing ([`UNKNOWN`]); an
//! expanded decision node takes the max (first team to move) or the min
//! (the other team) of its children's bounds, each bound separately; a
//! chance node takes the min of the pessimistic and the max of the
//! optimistic bounds (a verdict there holds whatever falls, like the
//! provers of [`crate::solver`]). The team to move is read from the
//! children's player, so a player who moves twice in a row (or passes to
//! a partner) is handled without assuming alternation.
//!
//! This module must never prove anything from a rollout, a prior or any
//! other heuristic value: bounds come from terminal results only.

/// The value of a win at distance 0 (an `i16`, with room for distances).
pub(super) const WIN: i16 = 30_000;

/// The bounds of a node nothing is known about.
pub(super) const UNKNOWN: (i16, i16) = (-WIN, WIN);

/// A bound seen one ply earlier: a win or a loss one ply farther away
/// (monotone, so bounds stay bounds; distances past [`WIN`] fade to a draw
/// value, which only weakens the bound).
#[inline]
pub(super) fn up(v: i16) -> i16 {
    v - v.signum()
}

/// Whether the bounds `(lo, hi)` decide the outcome.
#[inline]
pub(super) fn proved(lo: i16, hi: i16) -> bool {
    lo.signum() == hi.signum()
}

/// The same bounds in the other team's frame.
#[inline]
pub(super) fn flip((lo, hi): (i16, i16)) -> (i16, i16) {
    (-hi, -lo)
}

/// The value of a finished game for the first team, from how it ranks the
/// first team ([`crate::standing`] of player 0).
pub(super) fn terminal(standing: std::cmp::Ordering) -> i16 {
    match standing {
        std::cmp::Ordering::Greater => WIN,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Less => -WIN,
    }
}

/// A proved outcome, from the view of one player's team (the side to move
/// at the root for [`super::Report::proof`]; for
/// [`super::Report::proofs`], the side to move at the root if it plays
/// that move, the move counting as a ply). Distances are guarantees in
/// plies, like the verdicts of [`crate::solver::Verdict`], but found by
/// sampling: the exact solver's distance is never larger (it finds the
/// fastest forced win; the tree proves the ones it has met).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Proof {
    /// The team forces a win within this many plies.
    Win(u32),
    /// The other team forces a win within this many plies.
    Loss(u32),
    /// Both teams force at least a draw: a draw with best play.
    Draw,
}

impl Proof {
    /// The proof of bounds `(lo, hi)` given in the team's own frame, if
    /// they decide the outcome.
    pub(super) fn from_bounds((lo, hi): (i16, i16)) -> Option<Proof> {
        if !proved(lo, hi) {
            return None;
        }
        Some(match lo.signum() {
            1 => Proof::Win((WIN - lo) as u32),
            -1 => Proof::Loss((WIN + hi) as u32),
            _ => Proof::Draw,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_ply_up_moves_a_bound_towards_a_draw() {
        assert_eq!(up(WIN), WIN - 1);
        assert_eq!(up(-WIN), -WIN + 1);
        assert_eq!(up(0), 0);
        assert_eq!(up(1), 0);
        assert_eq!(up(-1), 0);
    }

    #[test]
    fn bounds_of_one_sign_are_a_proof() {
        assert_eq!(Proof::from_bounds((WIN - 3, WIN - 1)), Some(Proof::Win(3)));
        assert_eq!(Proof::from_bounds((-WIN + 1, -WIN + 5)), Some(Proof::Loss(5)));
        assert_eq!(Proof::from_bounds((0, 0)), Some(Proof::Draw));
        assert_eq!(Proof::from_bounds((0, WIN)), None);
        assert_eq!(Proof::from_bounds(UNKNOWN), None);
        assert_eq!(flip((WIN - 3, WIN - 1)), (-WIN + 1, -WIN + 3));
        assert_eq!(Proof::from_bounds(flip((WIN - 3, WIN - 1))), Some(Proof::Loss(3)));
    }
}
