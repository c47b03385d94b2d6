//! Débâcle boards as SVG: the 6×6 board (files a–f, ranks 1–6 seen from
//! South, GAMES.md §3.3) with the two camps (South's home row, rank 1, and
//! North's, rank 6) tinted in their side's colour; every die with its
//! value as the pips of a die face, in its owner's colour; the die of a
//! pending rebond ringed in amber and the die the first action flipped
//! (which may not flip again) ringed in dashes; a panel with the match
//! score and its target, the round, its starter and counters, the side to
//! move and where it is in its turn, and each captured pile die by die
//! with its value; the last move as an arrow (a roll, on to the home
//! square when it reached the enemy camp) or a ring (a flip, a recovery).
//!
//! Only ASCII and the embedded font's few symbols are written, so the
//! game is named `Debacle` in the picture.
//!
//! [`svg`] is a pure function of its [`Frame`]; the root element carries
//! the position text (`data-position`), each die on the board is a
//! `class="die"` group with `data-square`, `data-owner` (0 South, 1 North)
//! and `data-value`, each captured die a `class="held"` group with
//! `data-holder` and `data-value`.

use super::canvas::{self, ARROW, Anchor, INK, SOFT_INK};
use debacle_rules::{Dir, Move, Phase, Position, Square, square_name};
use std::fmt::Write;

/// Width of every Débâcle picture, in pixels.
pub const WIDTH: u32 = 840;
/// Height of every Débâcle picture, in pixels.
pub const HEIGHT: u32 = 560;
/// Side of a square, in pixels.
pub const SQ: i32 = 70;
/// Side of a die on the board.
pub const DIE: i32 = 52;
const X0: i32 = 44;
const Y0: i32 = 30;
const PANEL: i32 = 510;

/// Fill of the page.
pub const BACKGROUND: &str = "#ece3cf";
/// The sides' names, South (player 0) first.
pub const SIDES: [&str; 2] = ["South", "North"];
/// The dice bodies, South's first.
pub const DIE_FILLS: [&str; 2] = ["#c62828", "#1e5aa8"];
/// The camps' tints, South's first.
const CAMP_FILLS: [&str; 2] = ["#f3c9c3", "#c9d8f0"];
/// The ring of a pending rebond.
const REBOND: &str = "#ff8f00";

/// What a Débâcle picture shows: a position, the move just played with
/// its mover (0 South, 1 North, whose forward it follows), a note.
pub type Frame<'a> = canvas::Frame<'a, Position, (Move, usize)>;

/// The top-left corner of a square in the picture.
pub const fn square_origin(sq: Square) -> (i32, i32) {
    let (f, r) = ((sq % 6) as i32, (sq / 6) as i32);
    (X0 + f * SQ, Y0 + (5 - r) * SQ)
}

/// The centre of a square.
pub const fn square_centre(sq: Square) -> (i32, i32) {
    let (x, y) = square_origin(sq);
    (x + SQ / 2, y + SQ / 2)
}

/// Where a roll of `mover`'s die from `from` in `dir` arrives, as the
/// move text reads it (`f` towards the enemy camp, `l` towards file a,
/// `r` towards file f); `None` off the board.
pub const fn roll_target(from: Square, dir: Dir, mover: usize) -> Option<Square> {
    let (f, r) = ((from % 6) as i32, (from / 6) as i32);
    let (f, r) = match dir {
        Dir::Forward => (f, if mover == 0 { r + 1 } else { r - 1 }),
        Dir::Left => (f - 1, r),
        Dir::Right => (f + 1, r),
    };
    if f < 0 || f > 5 || r < 0 || r > 5 { None } else { Some((r * 6 + f) as Square) }
}

/// The side to move and where it is in its turn, or the result.
pub fn status_line(p: &Position) -> String {
    if let Some(o) = p.outcome() {
        let [south, north] = p.scores();
        return format!("{o} · final score South {south}, North {north} · {} plies", p.ply());
    }
    let side = SIDES[p.to_move()];
    match p.phase() {
        Phase::Action { index, flipped: None } => format!("{side} to move: action {} of 2", index + 1),
        Phase::Action { index, flipped: Some(sq) } => {
            format!("{side} to move: action {} of 2 (the die on {} may not flip again)", index + 1, square_name(sq))
        }
        Phase::Rebond { square, .. } => format!("{side} to move: rebond of the die on {}", square_name(square)),
        Phase::Recovery => format!("{side} to move: recover the lowest die held, or decline"),
    }
}

/// The match line: scores, target, round and counters.
pub fn match_line(p: &Position) -> String {
    let [south, north] = p.scores();
    format!("score South {south} · North {north} · match to {}", p.variant().target)
}

/// Draws a frame as an SVG document (UTF-8, no XML declaration).
pub fn svg(frame: &Frame) -> String {
    let p = frame.position;
    let mut s = String::with_capacity(24 * 1024);
    canvas::open(&mut s, WIDTH, HEIGHT, "debacle-board", &[("position", &p.to_string())]);
    canvas::arrowhead(&mut s, ARROW);
    canvas::background(&mut s, WIDTH, HEIGHT, BACKGROUND);
    board(&mut s);
    let (rebond, flipped) = match p.phase() {
        Phase::Rebond { square, .. } => (Some(square), None),
        Phase::Action { flipped, .. } => (None, flipped),
        Phase::Recovery => (None, None),
    };
    for sq in 0..36u8 {
        if let Some((owner, value)) = p.cell(sq) {
            let (x, y) = square_origin(sq);
            let off = (SQ - DIE) / 2;
            let _ = write!(
                s,
                "<g class=\"die\" data-square=\"{}\" data-owner=\"{owner}\" data-value=\"{value}\">",
                square_name(sq)
            );
            die(&mut s, x + off, y + off, DIE, owner, value);
            // A ring just outside the die: `class`, then its stroke attributes.
            let ring = |s: &mut String, class: &str, stroke: &str| {
                let _ = write!(
                    s,
                    "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"10\" fill=\"none\" {stroke}/>",
                    x + off - 4,
                    y + off - 4,
                    DIE + 8,
                    DIE + 8
                );
            };
            if rebond == Some(sq) {
                ring(&mut s, "rebond", &format!("stroke=\"{REBOND}\" stroke-width=\"4\""));
            }
            if flipped == Some(sq) {
                ring(&mut s, "flipped", "stroke=\"#555\" stroke-width=\"3\" stroke-dasharray=\"6 4\"");
            }
            s.push_str("</g>");
        }
    }
    if let Some((m, mover)) = frame.last {
        last_move(&mut s, m, mover);
    }
    panel(&mut s, p);
    caption(&mut s, p, frame.note);
    canvas::close(&mut s);
    s
}

/// A die of `owner` showing `value`, its top-left corner at (x, y).
fn die(s: &mut String, x: i32, y: i32, side: i32, owner: usize, value: u8) {
    let _ = write!(
        s,
        "<rect class=\"die-body\" x=\"{x}\" y=\"{y}\" width=\"{side}\" height=\"{side}\" rx=\"{}\" fill=\"{}\" \
stroke=\"#111\" stroke-width=\"2\"/>",
        side / 6,
        DIE_FILLS[owner & 1]
    );
    let r = side as f32 / 11.0;
    canvas::pips(s, value, x + side / 2, y + side / 2, side, r, "#ffffff");
}

fn board(s: &mut String) {
    let _ = write!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"8\" fill=\"#6b4f2f\"/>",
        X0 - 6,
        Y0 - 6,
        6 * SQ + 12,
        6 * SQ + 12
    );
    for sq in 0..36u8 {
        let (x, y) = square_origin(sq);
        let rank = sq / 6;
        let fill = match rank {
            0 => CAMP_FILLS[0],
            5 => CAMP_FILLS[1],
            _ if (sq % 6 + rank) % 2 == 0 => "#cdb07c",
            _ => "#e6d3a8",
        };
        let class = match rank {
            0 => "square camp-south",
            5 => "square camp-north",
            _ => "square",
        };
        let _ = write!(
            s,
            "<rect class=\"{class}\" data-square=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"/>",
            square_name(sq),
            x + 1,
            y + 1,
            SQ - 2,
            SQ - 2
        );
    }
    for f in 0..6 {
        let name = ((b'a' + f as u8) as char).to_string();
        canvas::text(s, "", X0 + f * SQ + SQ / 2, Y0 + 6 * SQ + 22, 13, SOFT_INK, Anchor::Middle, &name);
    }
    for r in 0..6 {
        canvas::text(
            s,
            "",
            X0 - 20,
            Y0 + (5 - r) * SQ + SQ / 2 + 5,
            13,
            SOFT_INK,
            Anchor::Middle,
            &(r + 1).to_string(),
        );
    }
    // The camps' names, beside their rows.
    let right = X0 + 6 * SQ + 10;
    canvas::text(s, "camp", right, Y0 + SQ / 2 - 2, 11, DIE_FILLS[1], Anchor::Start, "North");
    canvas::text(s, "camp", right, Y0 + SQ / 2 + 12, 11, DIE_FILLS[1], Anchor::Start, "camp");
    canvas::text(s, "camp", right, Y0 + 5 * SQ + SQ / 2 - 2, 11, DIE_FILLS[0], Anchor::Start, "South");
    canvas::text(s, "camp", right, Y0 + 5 * SQ + SQ / 2 + 12, 11, DIE_FILLS[0], Anchor::Start, "camp");
}

fn last_move(s: &mut String, m: Move, mover: usize) {
    let ring = |s: &mut String, sq: Square| {
        let (x, y) = square_origin(sq);
        canvas::ring(s, "last", x + 3, y + 3, SQ - 6, SQ - 6);
    };
    match m {
        Move::Flip { square } => ring(s, square),
        Move::Roll { from, dir, home } => {
            let Some(to) = roll_target(from, dir, mover) else { return };
            let (a, b) = (square_centre(from), square_centre(to));
            let short =
                |a: (i32, i32), b: (i32, i32)| (b.0 - (b.0 - a.0).signum() * 14, b.1 - (b.1 - a.1).signum() * 14);
            canvas::arrow(s, a, short(a, b));
            if let Some(h) = home {
                let c = square_centre(h);
                canvas::arrow(s, b, short(b, c));
                ring(s, h);
            }
        }
        Move::Recover { to } => ring(s, to),
        Move::Decline => {}
    }
}

fn panel(s: &mut String, p: &Position) {
    let x = PANEL;
    // Unaccented: the font embedded for PNGs (a subset) has no é or â.
    canvas::text(s, "", x, Y0 + 14, 18, INK, Anchor::Start, "Debacle");
    canvas::text(s, "score", x, Y0 + 44, 15, INK, Anchor::Start, &match_line(p));
    let starter = SIDES[p.starter()];
    let round = format!("round {} · {starter} started", p.round());
    canvas::text(s, "round", x, Y0 + 64, 12, SOFT_INK, Anchor::Start, &round);
    let clock = format!("{} turns · {} without a capture", p.turns_in_round(), p.quiet_turns());
    canvas::text(s, "clock", x, Y0 + 80, 12, SOFT_INK, Anchor::Start, &clock);
    for holder in 0..2usize {
        let top = Y0 + 96 + holder as i32 * 150;
        let to_move = p.outcome().is_none() && p.to_move() == holder;
        let pile = p.pile(holder);
        let held = p.held(holder);
        let worth: usize = pile.iter().enumerate().map(|(v, &n)| (v + 1) * usize::from(n)).sum();
        let _ = write!(
            s,
            "<g class=\"side\" data-side=\"{holder}\" data-held=\"{held}\" data-to-move=\"{to_move}\">\
<rect x=\"{x}\" y=\"{top}\" width=\"300\" height=\"136\" rx=\"8\" fill=\"#f7f0e1\" stroke=\"{}\" stroke-width=\"{}\"/>",
            if to_move { REBOND } else { "#b7a27a" },
            if to_move { 4 } else { 1 }
        );
        if to_move {
            canvas::turn_mark(s, x - 4, top + 22, REBOND);
        }
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"20\" height=\"20\" rx=\"4\" fill=\"{}\" stroke=\"#111\" stroke-width=\"1.5\"/>",
            x + 10,
            top + 11,
            DIE_FILLS[holder]
        );
        let name = format!("{} · score {}", SIDES[holder], p.scores()[holder]);
        canvas::text(s, "side-name", x + 38, top + 27, 15, INK, Anchor::Start, &name);
        let line = format!("holds {held} of 5 · worth {worth}");
        canvas::text(s, "pile-count", x + 10, top + 54, 12, SOFT_INK, Anchor::Start, &line);
        // The captured dice, the enemy's, lowest first.
        let mut i = 0;
        for (v, &n) in pile.iter().enumerate() {
            for _ in 0..n {
                let (dx, dy) = (x + 10 + i * 42, top + 66);
                let _ = write!(s, "<g class=\"held\" data-holder=\"{holder}\" data-value=\"{}\">", v + 1);
                die(s, dx, dy, 36, 1 - holder, v as u8 + 1);
                s.push_str("</g>");
                i += 1;
            }
        }
        if held == 0 {
            canvas::text(s, "", x + 10, top + 90, 12, SOFT_INK, Anchor::Start, "no die captured this round");
        }
        s.push_str("</g>");
    }
}

fn caption(s: &mut String, p: &Position, note: Option<&str>) {
    let y = Y0 + 6 * SQ + 56;
    let v = p.variant().to_text();
    let second = format!("ply {}{}", p.ply(), if v.is_empty() { String::new() } else { format!(" · variant {v}") });
    canvas::caption(s, X0 - 24, y, &status_line(p), &second, note, 110);
}

impl super::Drawn for crate::games::debacle::Debacle {
    fn picture_size(_s: &Position) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }
    fn picture(s: &Position, last: Option<(Move, &Position)>, note: Option<&str>) -> String {
        svg(&Frame { position: s, last: last.map(|(m, before)| (m, before.to_move())), note })
    }
    fn status_line(s: &Position) -> String {
        status_line(s)
    }
    fn detail_line(s: &Position) -> String {
        match_line(s)
    }
    fn section(s: &Position) -> Option<String> {
        Some(format!("round {}", s.round()))
    }
    /// A flip's or a recovery's square; a roll's die, where it arrives and
    /// the home square it goes back to; nothing for a decline.
    fn regions(s: &Position, m: Move) -> Vec<super::Region> {
        let square = |sq: Square| {
            let (x, y) = square_origin(sq);
            super::Region::new(x, y, SQ, SQ)
        };
        match m {
            Move::Flip { square: sq } | Move::Recover { to: sq } => vec![square(sq)],
            Move::Roll { from, dir, home } => {
                let mut r = vec![square(from)];
                r.extend(roll_target(from, dir, s.to_move()).map(square));
                r.extend(home.map(square));
                r
            }
            Move::Decline => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use debacle_rules::Variant;

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    #[test]
    fn the_start_has_six_dice_a_side_with_their_pips() {
        let p = Position::start(Variant::default());
        let svg = svg(&Frame::new(&p));
        assert_eq!(count(&svg, "class=\"die\""), 12);
        assert_eq!(count(&svg, "data-owner=\"0\""), 6);
        assert_eq!(count(&svg, "class=\"pip\""), 2 * (1 + 2 + 3 + 4 + 5 + 6), "each die shows its value's pips");
        assert!(svg.contains("data-square=\"a1\" data-owner=\"0\" data-value=\"1\""));
        assert!(svg.contains("data-square=\"a6\" data-owner=\"1\" data-value=\"6\""));
        assert_eq!(count(&svg, "camp-south"), 6);
        assert_eq!(count(&svg, "camp-north"), 6);
        assert_eq!(count(&svg, "class=\"held\""), 0);
        assert!(svg.contains("South to move: action 1 of 2"));
    }

    #[test]
    fn a_rebond_and_the_piles_are_drawn() {
        let text =
            "N6N5N4N3.N1/....../....../..N3.../....../S1S2.S4S5S6 n r1c3 -/3 0-5 r2 n t4 q4+ p17 - scoring=winner";
        let p: Position = text.parse().expect("a position");
        let last = Move::Roll { from: 20, dir: Dir::Forward, home: None };
        let svg = svg(&Frame { position: &p, last: Some((last, 1)), note: None });
        assert_eq!(count(&svg, "class=\"die\""), 11, "6 North dice, 5 South");
        assert_eq!(count(&svg, "class=\"held\""), 1);
        assert!(svg.contains("class=\"held\" data-holder=\"1\" data-value=\"3\""));
        assert_eq!(count(&svg, "class=\"rebond\""), 1);
        assert!(svg.contains("rebond of the die on c3"));
        assert!(svg.contains("score South 0 · North 5"));
        assert!(svg.contains("class=\"arrow\""));
    }

    #[test]
    fn rolls_go_where_the_move_text_says() {
        assert_eq!(roll_target(0, Dir::Forward, 0), Some(6));
        assert_eq!(roll_target(30, Dir::Forward, 1), Some(24));
        assert_eq!(roll_target(0, Dir::Left, 0), None);
        assert_eq!(roll_target(5, Dir::Right, 1), None);
        assert_eq!(roll_target(35, Dir::Forward, 0), None);
    }
}
