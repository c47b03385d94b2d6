//! The board for people: Unicode symbols (▲■●) in red, blue or white.
//!
//! Only presentation; SPN (`notation`) is the exchange format.

use senat_rules::board::Row;
use senat_rules::dice::Colour;
use senat_rules::game::Outcome;
use senat_rules::position::{Phase, Position};
use std::fmt::Write;

/// Renders the board, piles, restricted cells and side to move, or once
/// the game is over (`outcome`) its result instead of the side to move.
/// With `ansi`, symbols are coloured with terminal escapes; without, the
/// colour is a letter after the symbol (r, b, w).
pub fn board(p: &Position, outcome: Option<Outcome>, ansi: bool) -> String {
    let mut s = String::new();
    for row in Row::ALL {
        let indent = match row {
            Row::S => 0,
            Row::M => 16,
            Row::I => 24,
        };
        let mut names = format!("{:indent$}", "");
        let mut dice = format!("{:indent$}", "");
        for c in row.cells() {
            write!(names, "{:<4}", c.to_string()).unwrap();
            let cell = match p.piece_at(c) {
                None => "·   ".to_string(),
                Some((d, f)) => {
                    let glyph = f.symbol().glyph();
                    let col = d.colour(f);
                    let mark = if p.restricted().contains(c) { "*" } else { " " };
                    if ansi {
                        let code = match col {
                            Colour::Red => "\x1b[1;31m",
                            Colour::Blue => "\x1b[1;34m",
                            Colour::White => "\x1b[1;37m",
                        };
                        format!("{code}{glyph}\x1b[0m{mark}  ")
                    } else {
                        let l = match col {
                            Colour::Red => 'r',
                            Colour::Blue => 'b',
                            Colour::White => 'w',
                        };
                        format!("{glyph}{l}{mark} ")
                    }
                }
            };
            dice.push_str(&cell);
        }
        writeln!(s, "{}", dice.trim_end()).unwrap();
        writeln!(s, "{}", names.trim_end()).unwrap();
    }
    let piles = p.piles();
    writeln!(s, "door ▼   red pile {}   blue pile {}   white discard {}", piles.red, piles.blue, piles.white).unwrap();
    let side = p.side_to_move();
    match (outcome, p.phase()) {
        (Some(o), _) => writeln!(s, "{o}").unwrap(),
        (None, Phase::Give) => writeln!(s, "draft: {side} gives a die").unwrap(),
        (None, Phase::Place(d)) => writeln!(s, "draft: {side} places die {d}").unwrap(),
        (None, Phase::Decide) => writeln!(s, "after the draft: {side} keeps or swaps colours").unwrap(),
        (None, Phase::Play) => writeln!(
            s,
            "{side} to move, clock {}{}",
            p.clock(),
            if p.restricted().is_empty() { "" } else { ", * = restricted" }
        )
        .unwrap(),
    }
    s
}
