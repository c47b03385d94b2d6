//! The static evaluation of Sénat positions: one feature set, computed once
//! ([`Features::of`]), and two weightings of it as data:
//!
//! - [`Weights`] (f64), the heuristic policy's, settable by the user
//!   (`heuristic:pile=12,...`, `heuristic:file=...`), scoring a position for
//!   the side that just moved ([`Weights::score`]);
//! - [`SenatEval`] (integers, thousandths of a pile), the alpha-beta
//!   search's, scoring a position for the side to move ([`SenatEval::score`]).
//!
//! Each weighting keeps its own arithmetic (order of operations, scale), so
//! that a change here never changes a game: the outputs of `selfplay` with
//! `heuristic` and of `ab` searches are pinned byte for byte.
//!
//! This module only reads positions: it never plays a move, never draws
//! randomness, and never encodes a rule (it asks [`Position`]).

use crate::limits::{self, LimitError};
use senat_rules::board::Bitboard;
use senat_rules::dice::{Colour, Side};
use senat_rules::position::{Layers, Position};
use std::fmt;

/// The features of one side's colour on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideFeatures {
    /// Dice in row I (next to the door) showing the colour: one push from the pile.
    pub in_row_i: u32,
    /// Dice showing the colour with the square up in rows M or I beside
    /// another die (an agent that can push).
    pub squares: u32,
    /// Dice showing the colour beside a triangle showing the other side's
    /// colour (which can flip them).
    pub exposed: u32,
}

impl SideFeatures {
    /// The features of `colour` against `other` on the board `l`.
    #[inline]
    fn of(l: &Layers, colour: Colour, other: Colour) -> SideFeatures {
        let own = l.showing(colour);
        let occ = l.occupied;
        let row_i = Bitboard::ROW_I;
        let squares = own & l.square & (Bitboard::ROW_M | row_i);
        let enemy_tri = l.showing(other) & l.triangle;
        SideFeatures {
            in_row_i: (own & row_i).len(),
            squares: (squares & (occ.right() | occ.left())).len(),
            exposed: (own & (enemy_tri.right() | enemy_tri.left())).len(),
        }
    }
}

/// Everything the evaluations read of a position, from the point of view of
/// one side (`me`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// The side the features are seen from.
    pub me: Side,
    /// Own pile minus the opponent's pile.
    pub pile_diff: i32,
    /// The side holding the majority (a won game), if any.
    pub majority: Option<Side>,
    /// Row I is full (a push into it ejects a die).
    pub row_i_full: bool,
    /// The features of `me`'s colour.
    pub mine: SideFeatures,
    /// The features of the opponent's colour.
    pub theirs: SideFeatures,
}

impl Features {
    /// The features of `p` seen from `me`.
    #[inline]
    pub fn of(p: &Position, me: Side) -> Features {
        Features::of_layers(p, &p.layers(), me)
    }

    /// The features of `p` seen from `me`, its board already read into `l`
    /// (`p.layers()`).
    #[inline]
    pub fn of_layers(p: &Position, l: &Layers, me: Side) -> Features {
        let (mine, theirs) = match me {
            Side::Red => (Colour::Red, Colour::Blue),
            Side::Blue => (Colour::Blue, Colour::Red),
        };
        let piles = p.piles();
        let row_i = Bitboard::ROW_I;
        Features {
            me,
            pile_diff: piles.of(me) as i32 - piles.of(me.other()) as i32,
            majority: p.majority(),
            row_i_full: (l.occupied & row_i) == row_i,
            mine: SideFeatures::of(l, mine, theirs),
            theirs: SideFeatures::of(l, theirs, mine),
        }
    }
}

/// The weights of the heuristic policy's evaluation (f64); names as on the
/// command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Own pile minus the opponent's pile.
    pub pile: f64,
    /// Reaching the majority (a won game); minus for the opponent's.
    pub win: f64,
    /// Dice showing own colour in row I (next to the door).
    pub own_i: f64,
    /// Dice showing the opponent's colour in row I.
    pub opp_i: f64,
    /// Own squares in rows M and I with a neighbour to push.
    pub square: f64,
    /// Own dice next to an enemy triangle (which can flip them).
    pub exposed: f64,
    /// Row I is full (pushes into it eject a die).
    pub full_i: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights { pile: 10.0, win: 1000.0, own_i: 1.0, opp_i: -1.0, square: 0.5, exposed: -0.5, full_i: 0.0 }
    }
}

/// Why a `key=value` weight was refused ([`Weights::set`]).
#[derive(Clone, Debug, PartialEq)]
pub enum WeightError {
    /// The item has no `=`.
    NotKeyValue(String),
    /// The value is not a finite number.
    NotNumber {
        /// The weight's name.
        key: String,
        /// The value as given.
        value: String,
    },
    /// The value is out of the accepted range ([`limits::weight`]).
    Range(LimitError),
    /// No weight has this name.
    Unknown(String),
}

impl fmt::Display for WeightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let accepted = || format!("accepted: {}=<number>, or file=<path>", Weights::NAMES.join("=<number>, "));
        match self {
            WeightError::NotKeyValue(item) => write!(f, "`{item}` is not key=value ({})", accepted()),
            WeightError::NotNumber { key, value } => write!(f, "weight `{key}`: `{value}` is not a finite number"),
            WeightError::Range(e) => e.fmt(f),
            WeightError::Unknown(key) => write!(f, "unknown weight `{key}` ({})", accepted()),
        }
    }
}

impl std::error::Error for WeightError {}

impl Weights {
    /// The accepted weight names.
    pub const NAMES: [&'static str; 7] = ["pile", "win", "own_i", "opp_i", "square", "exposed", "full_i"];

    fn slot(&mut self, key: &str) -> Option<&mut f64> {
        Some(match key {
            "pile" => &mut self.pile,
            "win" => &mut self.win,
            "own_i" => &mut self.own_i,
            "opp_i" => &mut self.opp_i,
            "square" => &mut self.square,
            "exposed" => &mut self.exposed,
            "full_i" => &mut self.full_i,
            _ => return None,
        })
    }

    /// Sets one weight from `key=value` text.
    pub fn set(&mut self, item: &str) -> Result<(), WeightError> {
        let Some((key, value)) = item.split_once('=') else {
            return Err(WeightError::NotKeyValue(item.to_string()));
        };
        let (key, value) = (key.trim(), value.trim());
        let v: f64 = match value.parse() {
            Ok(v) if f64::is_finite(v) => v,
            _ => return Err(WeightError::NotNumber { key: key.to_string(), value: value.to_string() }),
        };
        match self.slot(key) {
            Some(slot) => {
                *slot = limits::weight(key, v).map_err(WeightError::Range)?;
                Ok(())
            }
            None => Err(WeightError::Unknown(key.to_string())),
        }
    }

    /// The weighted sum of `f` (seen from the side that just moved).
    #[inline]
    pub fn score(&self, f: &Features) -> f64 {
        let mut s = self.pile * f.pile_diff as f64;
        match f.majority {
            Some(w) if w == f.me => s += self.win,
            Some(_) => s -= self.win,
            None => {}
        }
        s += self.own_i * f.mine.in_row_i as f64;
        s += self.opp_i * f.theirs.in_row_i as f64;
        s += self.square * f.mine.squares as f64;
        s += self.exposed * f.mine.exposed as f64;
        if f.row_i_full {
            s += self.full_i;
        }
        s
    }

    /// Evaluates `p` for `me` (the side that just moved).
    pub fn evaluate(&self, p: &Position, me: Side) -> f64 {
        self.score(&Features::of(p, me))
    }
}

/// The static evaluation of the alpha-beta search, from the side to move, in
/// thousandths of a pile. Terms (own minus the opponent's):
///
/// - `pile` per die of difference between the piles: dominates everything;
/// - `row_i` per die in row I showing one's colour (one push from the pile);
/// - `full_i` more per such die when row I is full (a push into row I then
///   ejects a die of the pusher's choice);
/// - `square` per die showing one's colour with the square up in rows M or
///   I beside another die (an agent that can push);
/// - `exposed` (negative) per die showing one's colour beside a triangle
///   showing the opponent's (it can be flipped to the other colour);
/// - `tempo` for having the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SenatEval {
    /// Per die of pile difference.
    pub pile: i32,
    /// Per own-colour die in row I.
    pub row_i: i32,
    /// Per own-colour die in row I when row I is full, added to `row_i`.
    pub full_i: i32,
    /// Per own-colour square in rows M or I beside another die.
    pub square: i32,
    /// Per own-colour die beside an opponent triangle (negative).
    pub exposed: i32,
    /// For the side to move.
    pub tempo: i32,
}

impl Default for SenatEval {
    fn default() -> SenatEval {
        SenatEval { pile: 1000, row_i: 60, full_i: 60, square: 20, exposed: -15, tempo: 10 }
    }
}

impl SenatEval {
    #[inline]
    fn side_terms(&self, s: &SideFeatures, full: bool) -> i32 {
        let mut t = s.in_row_i as i32 * (self.row_i + if full { self.full_i } else { 0 });
        t += self.square * s.squares as i32;
        t += self.exposed * s.exposed as i32;
        t
    }

    /// The weighted sum of `f` (seen from the side to move).
    #[inline]
    pub fn score(&self, f: &Features) -> i32 {
        self.pile * f.pile_diff + self.side_terms(&f.mine, f.row_i_full) - self.side_terms(&f.theirs, f.row_i_full)
            + self.tempo
    }

    /// Evaluates `p` for the side to move.
    pub fn evaluate(&self, p: &Position) -> i32 {
        self.score(&Features::of(p, p.side_to_move()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use senat_rules::sample;

    #[test]
    fn both_sides_see_the_same_board() {
        let p: Position = sample::START.parse().unwrap();
        let (r, b) = (Features::of(&p, Side::Red), Features::of(&p, Side::Blue));
        assert_eq!((r.mine, r.theirs), (b.theirs, b.mine));
        assert_eq!(r.pile_diff, -b.pile_diff);
        assert_eq!(r.row_i_full, b.row_i_full);
    }
}
