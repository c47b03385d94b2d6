//! The sample game of the rules: its printed boards and its record.
//!
//! The rules print boards as symbols and shown colours only; `START` gives
//! the die numbers found by the constraint search of `tests/sample_search.rs`.

/// A board as the rules print it: each cell's symbol (T, S, C) and shown
/// colour (r, b, w), or `.`; rows separated by `/`.
pub type Looks = &'static str;

/// The board after the draft.
pub const LOOKS_START: Looks = "Tw,Sb,Tb,Sr,Tr,Tb,Cr,Sb,Cr,Tr,Sb/Cr,Sb,Cb,Cr,Sr,Tr,Cb/Cb,Cb,Tr,Cr,Tb";
/// The board after move 6.
pub const LOOKS_AFTER_6: Looks = "Tw,Sb,Tb,Sr,Tr,Tb,Cr,Sb,Cr,Tr,Sb/.,Sb,.,.,Sr,.,Cb/Cb,Sr,Tr,Cr,Cr";
/// The board after move 13.
pub const LOOKS_AFTER_13: Looks = "Tw,Sb,.,Sr,.,Tb,Cr,Sb,Cr,Tr,Sb/.,Sb,.,.,Sr,.,Cb/.,Sb,Tb,Cr,Tr";
/// The final board, after move 27.
pub const LOOKS_FINAL: Looks = "Tw,Sr,.,Sr,.,Tb,Cr,Sb,Cr,.,Sb/.,Sb,Cr,.,Sr,.,Tr/.,.,Tr,.,Sb";

/// The game record: the start SPN, then one move per line (comments with `#`).
pub const RECORD: &str = include_str!("../data/sample-game.txt");

/// The lines of [`RECORD`] that are not blank or comments: the start SPN first, then the moves.
pub fn record_lines() -> impl Iterator<Item = &'static str> {
    RECORD.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty())
}

/// The position after the draft, with die numbers that replay the game.
pub const START: &str = "3Tr,8Sb,10Tb,13Sr,18Tr,9Tb,6Cr,12Sb,5Cr,15Tr,16Sb/7Cr,4Sb,17Cb,23Cr,1Sr,22Tr,20Cb/14Cb,2Cb,21Tr,11Cr,19Tb b - 0-0-0 0";

use crate::board::Cell;

use crate::dice::{Colour, Symbol};
use crate::position::Position;

/// The looks of a position's board, in the form of [`LOOKS_START`].
pub fn looks(p: &Position) -> String {
    let mut s = String::new();
    for c in Cell::all() {
        if c.index() > 0 {
            s.push(if c.index() == 11 || c.index() == 18 { '/' } else { ',' });
        }
        match p.piece_at(c) {
            None => s.push('.'),
            Some((d, f)) => {
                s.push(match f.symbol() {
                    Symbol::Triangle => 'T',
                    Symbol::Square => 'S',
                    Symbol::Circle => 'C',
                });
                s.push(match d.colour(f) {
                    Colour::Red => 'r',
                    Colour::Blue => 'b',
                    Colour::White => 'w',
                });
            }
        }
    }
    s
}

/// The position after the draft of the sample game ([`START`]).
pub fn start() -> Position {
    START.parse().expect("the sample position parses (checked by the tests)")
}

#[cfg(test)]
mod tests {
    #[test]
    fn record_starts_from_start() {
        assert_eq!(super::record_lines().next(), Some(super::START));
        assert_eq!(super::record_lines().count(), 28);
    }
}
