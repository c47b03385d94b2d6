//! `senat design`'s decisions, whatever the game: [`cs`] holds the
//! anytime-valid confidence sequences, [`betting`] the one-sided tests by
//! betting, [`decide`] the verdicts and the round loop, [`selftest`] the
//! planted truths that check the guarantee, [`space`] the variant spaces,
//! [`report`] the outputs (table, CSV, the round log) and [`shard`] a round
//! played in shards and folded back. The games behind one function, and the
//! picture, are the games' lab's (`senat_lab::design::play`).
//!
//! What this module must never do: know a game or its rules, decide with
//! an interval that is not anytime-valid, or write a file but atomically.

pub mod betting;
pub mod cs;
pub mod decide;
pub mod report;
pub mod selftest;
pub mod shard;
pub mod space;

/// One game as the design reads it (its scores are the first player's and,
/// for Sénat, the first giver's seat's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameOutcome {
    /// The first player's score: 1 a win, ½ a draw, 0 a loss.
    pub score: f64,
    /// Whether it was a draw.
    pub draw: bool,
    /// Plies (decisions) played.
    pub plies: u32,
    /// A seat's score where the game has a seat target (Sénat's first
    /// giver's seat: the player who gives the first die of the draft,
    /// whichever colour it plays after the decision of `swap=yes`); `None`
    /// for the other games, an Elo gap's pair, and a design without that
    /// target (its round log keeps 7 columns).
    pub seat: Option<f64>,
}

impl GameOutcome {
    /// From the winning team (`None`: a draw), the first player's team
    /// being `first`.
    pub fn of(winner: Option<usize>, first: usize, plies: u32) -> GameOutcome {
        let score = match winner {
            None => 0.5,
            Some(w) if w == first => 1.0,
            Some(_) => 0.0,
        };
        GameOutcome { score, draw: winner.is_none(), plies, seat: None }
    }
}
