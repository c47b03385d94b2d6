//! Sénat at the terminal: the [`Table`] of [`Senat`] (the draft included)
//! and its board for people: each die's number before its symbol and
//! colour letter, a line that says which faces of the dice shown white are
//! whitened (and, in the draft, of the die to place), the reserve while
//! dice are given, the piles, the side to move and the SPN.
//!
//! This module never changes the rules: moves, legality, ends and texts
//! come from `senat-rules`.

use super::{Next, Table, wrap};
use crate::games::senat::side;
use crate::policy::{Agent, PolicySpec, Senat, Turn};
use senat_rules::{Colour, Die, GameRecord, Move, MoveError, Outcome, Phase, Position, Row};
use std::fmt::Write;

/// The result line of a game, over or not: the outcome with the piles, or
/// how far it went and who is to move.
pub fn result_line(game: &GameRecord) -> String {
    let p = game.position();
    let piles = p.piles();
    let piles = format!("red {}, blue {}, white {}", piles.red, piles.blue, piles.white);
    match game.outcome() {
        Some(o) => format!("{o} ({piles})"),
        None => format!("game not over after {} moves ({piles}), {} to move", game.moves().len(), p.side_to_move()),
    }
}

/// A die's whitened faces in words: `whitens Tr Sr Sb`, `whitens every
/// face`, `whitens no face`.
pub fn whitened_text(d: Die) -> String {
    let w = d.whitened();
    match w.len() {
        0 => "whitens no face".to_string(),
        6 => "whitens every face".to_string(),
        _ => format!("whitens {}", w.iter().map(|f| f.code()).collect::<Vec<_>>().join(" ")),
    }
}

/// Cell width of the board: a die number (2), symbol, colour letter,
/// restricted mark and a space.
const CELL: usize = 6;

/// The board for a person: the three rows with each cell's name above
/// its die (`17▲r*`: die 17 showing a red triangle on a restricted cell;
/// with `ansi` the symbol is coloured too), then the dice shown white and
/// why, the draft's reserve or die to place, the piles, the side to move
/// (or, once the game is over, its `outcome`) and the SPN.
pub fn board(p: &Position, outcome: Option<Outcome>, ansi: bool) -> String {
    let mut s = String::new();
    for row in Row::ALL {
        let indent = match row {
            Row::S => 0,
            Row::M => 4 * CELL,
            Row::I => 6 * CELL,
        };
        let (mut names, mut dice) = (" ".repeat(indent), " ".repeat(indent));
        for c in row.cells() {
            write!(names, "{:<CELL$}", format!("  {c}")).expect("a String takes writes");
            let Some((d, f)) = p.piece_at(c) else {
                dice.push_str(&format!("{:<CELL$}", "  ·"));
                continue;
            };
            let (letter, code) = match d.colour(f) {
                Colour::Red => ('r', "\x1b[1;31m"),
                Colour::Blue => ('b', "\x1b[1;34m"),
                Colour::White => ('w', "\x1b[1;37m"),
            };
            let glyph = f.symbol().glyph();
            let mark = if p.restricted().contains(c) { '*' } else { ' ' };
            if ansi {
                write!(dice, "{:>2}{code}{glyph}{letter}\x1b[0m{mark} ", d.number())
            } else {
                write!(dice, "{:>2}{glyph}{letter}{mark} ", d.number())
            }
            .expect("a String takes writes");
        }
        writeln!(s, "{}", names.trim_end()).expect("a String takes writes");
        writeln!(s, "{}", dice.trim_end()).expect("a String takes writes");
    }
    let white: Vec<String> = p
        .dice_on_board()
        .iter()
        .filter(|&d| {
            Row::ALL
                .iter()
                .flat_map(|r| r.cells())
                .any(|c| p.piece_at(c).is_some_and(|(x, f)| x == d && d.colour(f) == Colour::White))
        })
        .map(|d| format!("die {} {}", d.number(), whitened_text(d)))
        .collect();
    if !white.is_empty() {
        s.push_str(&wrap(&format!("shown white: {}", white.join("; ")), 80, "  "));
    }
    let side = p.side_to_move();
    let piles = p.piles();
    let piles = format!("piles: red {}, blue {}, white {}", piles.red, piles.blue, piles.white);
    match (outcome, p.phase()) {
        (Some(o), _) => writeln!(s, "{piles}\n{o}").expect("a String takes writes"),
        (None, Phase::Give) => {
            // Each die with the faces it whitens (what the one given will show white).
            let reserve: Vec<String> = p
                .reserve()
                .iter()
                .map(|d| {
                    let w = d.whitened();
                    let faces = match w.len() {
                        0 => "-".to_string(),
                        6 => "all".to_string(),
                        _ => w.iter().map(|f| f.code()).collect(),
                    };
                    format!("{}:{faces}", d.number())
                })
                .collect();
            s.push_str(&wrap(&format!("reserve (die:whitened faces): {}", reserve.join(" ")), 80, "  "));
            writeln!(s, "{piles}\ndraft: {side} gives a die").expect("a String takes writes");
        }
        (None, Phase::Place(d)) => {
            writeln!(s, "{piles}\ndraft: {side} places die {} (die {} {})", d.number(), d.number(), whitened_text(d))
                .expect("a String takes writes")
        }
        (None, Phase::Decide) => writeln!(s, "{piles}\nafter the draft: {side} keeps its colour or swaps (keep, swap)")
            .expect("a String takes writes"),
        (None, Phase::Play) => {
            let restricted = if p.restricted().is_empty() { "" } else { ", * = restricted" };
            writeln!(s, "{piles}\n{side} to move, clock {}{restricted}", p.clock()).expect("a String takes writes")
        }
    }
    writeln!(s, "{}", p.to_spn()).expect("a String takes writes");
    s
}

/// What the board's marks mean.
const LEGEND: &str = "\
key: `17▲r` is die 17 showing a triangle (▲ triangle, ■ square, ● circle) in red (r red, b blue,
     w white: that face is whitened on that die; `shown white` says which faces each die whitens);
     * a restricted cell; · an empty cell. Dice leave through the door after I23.
";

impl Table for Senat {
    type State = GameRecord;
    type Spec = PolicySpec;

    fn spec(text: &str) -> Result<PolicySpec, String> {
        PolicySpec::parse(text).map_err(|e| e.to_string())
    }
    fn build(spec: &PolicySpec) -> Result<Box<dyn Agent<Senat>>, game_search::TableError> {
        spec.try_build()
    }
    fn next(s: &GameRecord) -> Next {
        match s.outcome() {
            Some(_) => Next::Over,
            None => Next::Decide(crate::games::senat::player(s.position().side_to_move())),
        }
    }
    fn view(s: &GameRecord, _seat: usize) -> Turn<'_> {
        Turn::new(s)
    }
    fn seats(_s: &GameRecord) -> usize {
        2
    }
    fn seat_name(_s: &GameRecord, seat: usize) -> String {
        side(seat).to_string()
    }
    fn legal(s: &GameRecord) -> Vec<Move> {
        s.position().legal_moves().iter().copied().collect()
    }
    fn parse(s: &GameRecord, text: &str) -> Result<Move, String> {
        let m = s.position().parse_move(text).map_err(|e| e.to_string())?;
        s.clone().play(m).map_err(|e| MoveError::Illegal(e).to_string())?;
        Ok(m)
    }
    fn text(m: Move) -> String {
        m.to_string()
    }
    fn apply(s: &GameRecord, m: Move) -> GameRecord {
        let mut g = s.clone();
        g.play_unchecked(m);
        g
    }
    fn board(s: &GameRecord, _viewer: usize, colour: bool) -> String {
        board(s.position(), s.outcome(), colour)
    }
    fn legend() -> &'static str {
        LEGEND
    }
    fn move_forms() -> &'static str {
        "g3 (give), 17@M13=Sb (place), M16-M17, I21>I20, M13>M14:I19, I19>I20=Sb"
    }
    fn result(s: &GameRecord) -> String {
        result_line(s)
    }
    fn record(start: &GameRecord, moves: &[Move]) -> String {
        let p = start.position();
        let mut s = if *p == Position::start() { "start".to_string() } else { p.to_spn() };
        s.push('\n');
        for m in moves {
            writeln!(s, "{m}").expect("a String takes writes");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_numbers_every_die_and_says_why_white() {
        let p: Position = senat_rules::sample::START.parse().unwrap();
        let b = board(&p, None, false);
        for d in p.dice_on_board().iter() {
            let n = format!("{:>2}", d.number());
            assert!(b.lines().any(|l| l.contains(&n)), "die {} on the board:\n{b}", d.number());
        }
        assert!(!b.contains('\x1b'), "plain: no escapes\n{b}");
        assert!(board(&p, None, true).contains("\x1b[1;3"), "colour: escapes");
        // Every die shown white is explained, and only those.
        let shown_white: usize = ["▲w", "■w", "●w"].iter().map(|g| b.matches(g).count()).sum();
        let explained =
            b.split_once("shown white: ").map_or(0, |(_, w)| w.split("piles:").next().unwrap().matches("die ").count());
        assert_eq!(shown_white, explained, "{b}");
        assert!(b.trim_end().ends_with(senat_rules::sample::START), "{b}");
        // Every line but the SPN (the exchange text) fits 80 columns.
        let lines: Vec<&str> = b.lines().collect();
        assert!(lines[..lines.len() - 1].iter().all(|l| l.chars().count() <= 80), "{b}");
    }

    #[test]
    fn a_finished_game_says_who_won_not_who_moves() {
        let mut g = GameRecord::new(senat_rules::sample::START.parse().unwrap());
        for line in senat_rules::sample::record_lines().skip(1) {
            let m = g.position().parse_move(line).unwrap();
            g.play(m).unwrap();
        }
        let b = <Senat as Table>::board(&g, 0, false);
        assert!(b.contains("\nblue wins by majority\n") && !b.contains(" to move"), "{b}");
    }

    #[test]
    fn long_lines_wrap_at_spaces() {
        let text = "shown white: die 3 whitens every face; die 7 whitens Tr Sr Cb; die 8 whitens Tr Cr Tb";
        let w = wrap(text, 30, "  ");
        assert!(w.lines().all(|l| l.chars().count() <= 30), "{w}");
        assert_eq!(w.lines().count(), 4, "{w}");
        assert!(w.lines().skip(1).all(|l| l.starts_with("  ") && !l.starts_with("   ")), "{w}");
        assert_eq!(w.split_whitespace().collect::<Vec<_>>().join(" "), text);
        assert_eq!(wrap("short", 80, "  "), "short\n");
    }

    #[test]
    fn whitened_faces_in_words() {
        assert_eq!(whitened_text(Die::new(1).unwrap()), "whitens no face");
        assert_eq!(whitened_text(Die::new(3).unwrap()), "whitens every face");
        assert_eq!(whitened_text(Die::new(4).unwrap()), "whitens Tr Sr Cr");
    }

    #[test]
    fn the_draft_board_shows_the_reserve_and_the_die_to_place() {
        let b = board(&Position::start(), None, false);
        assert!(b.contains("reserve (die:whitened faces): 1:- 2:- 3:all 4:TrSrCr 5:TrSrTb"), "{b}");
        assert!(b.contains(" 23:TbSbCb\n"), "{b}");
        let mut g = GameRecord::new(Position::start());
        g.play(Position::start().parse_move("g17").unwrap()).unwrap();
        let b = board(g.position(), None, false);
        assert!(b.contains("places die 17 (die 17 whitens "), "{b}");
    }
}
