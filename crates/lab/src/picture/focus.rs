//! Focus boards (2 players, and 4 in two partnerships) as SVG: the 8×8
//! grid without its 12 corner squares (GAMES.md §1.2), each stack drawn as
//! bands from bottom to top with its top piece wider and ringed in gold,
//! file and rank names, a panel with each player's colour, reserve (a
//! token per piece and the count), pieces on the board, eliminated pieces
//! and controlled stacks, the side to move marked; a caption with the
//! ply or the result; the last move as an arrow (a step) or a ring (an
//! entry, a swap).
//!
//! Colours: White and Black for 2 players; red, blue, yellow and green
//! for players 0 to 3 of the 4-player game (the seed's four colours).
//!
//! [`svg`] is a pure function of its [`Frame`]; the root element carries
//! the position text (`data-position`), each stack is a `class="stack"`
//! group with `data-square`, `data-height` and `data-top`, each piece a
//! `class="piece"` element with `data-player` and `data-level` (0 is the
//! bottom).

use super::canvas::{self, ARROW, Anchor, INK, SOFT_INK};
use crate::games::LabGame;
use crate::games::focus::Focus;
use focus_rules::{Move, Outcome, Position, SQUARES, Square, is_playable, square_name};
use std::fmt::Write;

/// Width of every Focus picture, in pixels.
pub const WIDTH: u32 = 820;
/// Height of every Focus picture, in pixels.
pub const HEIGHT: u32 = 620;
/// Side of a square, in pixels.
pub const SQ: i32 = 60;
/// Left edge of file a.
const X0: i32 = 44;
/// Top edge of rank 8.
const Y0: i32 = 24;
/// Left edge of the players' panel.
const PANEL: i32 = 560;

/// Fill of the page.
pub const BACKGROUND: &str = "#ece3cf";
/// Fills of the playable squares (light, dark).
const SQUARE_FILLS: [&str; 2] = ["#e6d3a8", "#cdb07c"];
/// The gold ring of a stack's top piece.
pub const TOP_RING: &str = "#ffb300";

/// What a Focus picture shows: a position, the move just played, a note.
pub type Frame<'a> = canvas::Frame<'a, Position, Move>;

/// The fill of `player`'s pieces with `players` players.
pub const fn player_fill(players: usize, player: usize) -> &'static str {
    if players == 4 {
        match player {
            0 => "#d32f2f",
            1 => "#1e63c6",
            2 => "#f2c200",
            _ => "#2e9e44",
        }
    } else if player == 0 {
        "#f7f5ee"
    } else {
        "#2b2b2b"
    }
}

/// The name of `player`'s colour.
pub const fn colour_name(players: usize, player: usize) -> &'static str {
    if players == 4 {
        match player {
            0 => "red",
            1 => "blue",
            2 => "yellow",
            _ => "green",
        }
    } else if player == 0 {
        "white"
    } else {
        "black"
    }
}

/// The top-left corner of a square in the picture (any of the 64).
pub const fn square_origin(sq: Square) -> (i32, i32) {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    (X0 + f * SQ, Y0 + (7 - r) * SQ)
}

/// The centre of a square.
pub const fn square_centre(sq: Square) -> (i32, i32) {
    let (x, y) = square_origin(sq);
    (x + SQ / 2, y + SQ / 2)
}

/// The box (x, y, w, h) of the piece at `level` of a stack whose top is
/// at level `top`, on the square whose origin is (x, y).
pub const fn piece_box(x: i32, y: i32, level: usize, top: usize) -> (i32, i32, i32, i32) {
    let by = y + SQ - 14 - level as i32 * 10;
    if level == top { (x + 7, by, SQ - 14, 9) } else { (x + 11, by, SQ - 22, 9) }
}

/// The first caption line: who moves, or the result.
pub fn status_line(p: &Position) -> String {
    let seats = Focus::seats(p.players());
    match p.outcome() {
        Some(Outcome::Win { team }) => {
            let names: Vec<&str> = (0..p.players()).filter(|&q| p.team(q) == team).map(|q| seats[q]).collect();
            format!("{} {} after {} plies", names.join(" and "), if names.len() > 1 { "win" } else { "wins" }, p.ply())
        }
        Some(Outcome::Draw) => format!("draw after {} plies (the ply cap)", p.ply()),
        None => {
            let (seat, colour) = (seats[p.to_move()], colour_name(p.players(), p.to_move()));
            // Two players are named by their colour: say it once.
            let who = if seat == colour { seat.to_string() } else { format!("{seat} ({colour})") };
            format!("{who} to move · ply {}", p.ply())
        }
    }
}

/// Draws a frame as an SVG document (UTF-8, no XML declaration).
pub fn svg(frame: &Frame) -> String {
    let p = frame.position;
    let n = p.players();
    let mut s = String::with_capacity(24 * 1024);
    let class = if n == 4 { "focus4-board" } else { "focus-board" };
    canvas::open(&mut s, WIDTH, HEIGHT, class, &[("position", &p.to_string())]);
    canvas::arrowhead(&mut s, ARROW);
    canvas::background(&mut s, WIDTH, HEIGHT, BACKGROUND);
    board(&mut s);
    for &sq in SQUARES.iter() {
        stack(&mut s, p, sq);
    }
    if let Some(m) = frame.last {
        last_move(&mut s, m);
    }
    panel(&mut s, p);
    caption(&mut s, p, frame.note);
    canvas::close(&mut s);
    s
}

fn board(s: &mut String) {
    // The plank under the 52 squares.
    let _ = write!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"8\" fill=\"#8a6a42\"/>",
        X0 - 6,
        Y0 - 6,
        8 * SQ + 12,
        8 * SQ + 12
    );
    for sq in 0..64u8 {
        let (x, y) = square_origin(sq);
        if !is_playable(sq) {
            // A removed corner: the page shows through.
            let _ = write!(
                s,
                "<rect class=\"removed\" x=\"{x}\" y=\"{y}\" width=\"{SQ}\" height=\"{SQ}\" fill=\"{BACKGROUND}\"/>"
            );
            continue;
        }
        let fill = SQUARE_FILLS[usize::from((sq % 8 + sq / 8) % 2 == 0)];
        let _ = write!(
            s,
            "<rect class=\"square\" data-square=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" \
stroke=\"#6b4f2f\" stroke-width=\"1\"/>",
            square_name(sq),
            x + 1,
            y + 1,
            SQ - 2,
            SQ - 2
        );
    }
    for f in 0..8 {
        let name = ((b'a' + f as u8) as char).to_string();
        canvas::text(s, "", X0 + f * SQ + SQ / 2, Y0 + 8 * SQ + 22, 13, SOFT_INK, Anchor::Middle, &name);
    }
    for r in 0..8 {
        let name = (r + 1).to_string();
        canvas::text(s, "", X0 - 18, Y0 + (7 - r) * SQ + SQ / 2 + 5, 13, SOFT_INK, Anchor::Middle, &name);
    }
}

fn stack(s: &mut String, p: &Position, sq: Square) {
    let h = p.height(sq);
    if h == 0 {
        return;
    }
    let n = p.players();
    let (x, y) = square_origin(sq);
    let pieces: String = (0..h).filter_map(|l| p.piece(sq, l)).map(|q| char::from(b'0' + q as u8)).collect();
    let top = p.controller(sq).unwrap_or(0);
    let _ = write!(
        s,
        "<g class=\"stack\" data-square=\"{}\" data-height=\"{h}\" data-pieces=\"{pieces}\" data-top=\"{top}\">",
        square_name(sq)
    );
    for level in 0..h {
        let Some(owner) = p.piece(sq, level) else { continue };
        let (bx, by, bw, bh) = piece_box(x, y, level, h - 1);
        let is_top = level + 1 == h;
        let (class, stroke, width) = if is_top { ("piece top", TOP_RING, 2.5) } else { ("piece", "#111", 1.2) };
        let _ = write!(
            s,
            "<rect class=\"{class}\" data-player=\"{owner}\" data-level=\"{level}\" x=\"{bx}\" y=\"{by}\" width=\"{bw}\" \
height=\"{bh}\" rx=\"4\" fill=\"{}\" stroke=\"{stroke}\" stroke-width=\"{width}\"/>",
            player_fill(n, owner)
        );
    }
    s.push_str("</g>");
}

fn last_move(s: &mut String, m: Move) {
    let ring = |s: &mut String, sq: Square| {
        let (x, y) = square_origin(sq);
        canvas::ring(s, "last", x + 2, y + 2, SQ - 4, SQ - 4);
    };
    match m {
        Move::Step { from, to } => {
            let (a, b) = (square_centre(from), square_centre(to));
            // Stop short of the centre so that the head stays on the destination square.
            let (dx, dy) = ((b.0 - a.0).signum() * 12, (b.1 - a.1).signum() * 12);
            canvas::arrow(s, a, (b.0 - dx, b.1 - dy));
        }
        Move::Enter { to } => ring(s, to),
        Move::Swap { own, other } => {
            ring(s, own);
            ring(s, other);
        }
        Move::Pass => {}
    }
}

fn panel(s: &mut String, p: &Position) {
    let n = p.players();
    let seats = Focus::seats(n);
    let pitch = if n == 4 { 118 } else { 150 };
    canvas::text(s, "", PANEL, Y0 + 14, 15, INK, Anchor::Start, if n == 4 { "Focus, 4 players" } else { "Focus" });
    #[allow(clippy::needless_range_loop)] // q is the player, used far beyond indexing seats
    for q in 0..n {
        let top = Y0 + 30 + q as i32 * pitch;
        let to_move = p.outcome().is_none() && q == p.to_move();
        let _ = write!(
            s,
            "<g class=\"player\" data-player=\"{q}\" data-reserve=\"{}\" data-to-move=\"{to_move}\">\
<rect x=\"{PANEL}\" y=\"{top}\" width=\"240\" height=\"{}\" rx=\"8\" fill=\"#f7f0e1\" stroke=\"{}\" stroke-width=\"{}\"/>",
            p.reserve(q),
            pitch - 12,
            if to_move { TOP_RING } else { "#b7a27a" },
            if to_move { 4 } else { 1 }
        );
        if to_move {
            canvas::turn_mark(s, PANEL - 4, top + 22, TOP_RING);
        }
        let _ = write!(
            s,
            "<circle cx=\"{}\" cy=\"{}\" r=\"10\" fill=\"{}\" stroke=\"#111\" stroke-width=\"1.5\"/>",
            PANEL + 20,
            top + 21,
            player_fill(n, q)
        );
        let name = if n == 4 {
            format!("{} ({}), team {}", seats[q], colour_name(n, q), p.team(q))
        } else {
            seats[q].to_string()
        };
        canvas::text(s, "player-name", PANEL + 38, top + 26, 14, INK, Anchor::Start, &name);
        let stacks = SQUARES.iter().filter(|&&sq| p.controller(sq) == Some(q)).count();
        let detail = format!("stacks {stacks} · on board {} · out {}", p.on_board(q), p.eliminated(q));
        canvas::text(s, "", PANEL + 10, top + 48, 11, SOFT_INK, Anchor::Start, &detail);
        let reserve = format!("reserve {}", p.reserve(q));
        canvas::text(s, "reserve-count", PANEL + 10, top + 70, 13, INK, Anchor::Start, &reserve);
        // One token per reserve piece (at most 18), in rows of 9.
        for i in 0..p.reserve(q).min(18) as i32 {
            let _ = write!(
                s,
                "<rect class=\"reserve-piece\" x=\"{}\" y=\"{}\" width=\"12\" height=\"8\" rx=\"3\" fill=\"{}\" stroke=\"#111\" \
stroke-width=\"1\"/>",
                PANEL + 96 + (i % 9) * 15,
                top + 61 + (i / 9) * 11,
                player_fill(n, q)
            );
        }
        s.push_str("</g>");
    }
}

fn caption(s: &mut String, p: &Position, note: Option<&str>) {
    let y = Y0 + 8 * SQ + 52;
    let v = p.variant().to_text();
    let second = if v.is_empty() {
        "stacks bottom to top; the top piece is ringed in gold".to_string()
    } else {
        format!("variant {v} · stacks bottom to top; the top piece is ringed in gold")
    };
    canvas::caption(s, X0 - 24, y, &status_line(p), &second, note, 110);
}

impl super::Drawn for Focus {
    fn picture_size(_s: &Position) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }
    fn picture(s: &Position, last: Option<(Move, &Position)>, note: Option<&str>) -> String {
        svg(&Frame { position: s, last: last.map(|(m, _)| m), note })
    }
    fn status_line(s: &Position) -> String {
        status_line(s)
    }
    /// Each player's reserve and eliminated pieces, with the colours.
    fn detail_line(p: &Position) -> String {
        let (n, seats) = (p.players(), Focus::seats(p.players()));
        let each: Vec<String> = (0..n)
            .map(|q| {
                let who = if n == 4 { format!("{} ({})", seats[q], colour_name(n, q)) } else { seats[q].to_string() };
                format!("{who}: reserve {}, out {}", p.reserve(q), p.eliminated(q))
            })
            .collect();
        each.join(" · ")
    }
    /// A step's two squares, an entry's square, a swap's own piece then
    /// the other; nothing for a pass.
    fn regions(_s: &Position, m: Move) -> Vec<super::Region> {
        let square = |sq: Square| {
            let (x, y) = square_origin(sq);
            super::Region::new(x, y, SQ, SQ)
        };
        match m {
            Move::Step { from, to } => vec![square(from), square(to)],
            Move::Enter { to } => vec![square(to)],
            Move::Swap { own, other } => vec![square(own), square(other)],
            Move::Pass => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use focus_rules::Variant;

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    #[test]
    fn the_start_has_one_stack_per_piece() {
        let p = Position::start(Variant::default());
        let svg = svg(&Frame::new(&p));
        assert_eq!(count(&svg, "class=\"stack\""), 36);
        assert_eq!(count(&svg, "class=\"piece top\""), 36);
        assert_eq!(count(&svg, "class=\"square\""), 52, "the 52 playable squares");
        assert_eq!(count(&svg, "class=\"removed\""), 12, "the 12 corners");
        assert_eq!(count(&svg, "data-to-move=\"true\""), 1);
        assert!(svg.contains("data-player=\"0\" data-reserve=\"0\" data-to-move=\"true\""));
        let p4 = Position::start(Variant::four_players());
        let svg4 = super::svg(&Frame::new(&p4));
        assert_eq!(count(&svg4, "class=\"stack\""), 52);
        assert_eq!(count(&svg4, "class=\"player\""), 4);
        for q in 0..4 {
            let fill = format!("fill=\"{}\"", player_fill(4, q));
            assert!(count(&svg4, &fill) >= 13, "player {q}'s 13 pieces in their colour");
        }
    }

    #[test]
    fn tall_stacks_show_every_piece_bottom_to_top() {
        // e5 and h6 hold 11010 (top: player 0), c4 holds 1101 (top: player 1).
        let text = "focus - .,.,.,./0,0,.,.,.,0/.,10,.,0,.,.,.,11010/.,.,0,.,11010,.,0,./.,.,1101,.,.,.,110,./\
.,.,.,.,.,.,0,./110,.,.,.,1010,./.,10,.,. res=0/0 turn=0 ply=36";
        let p: Position = text.parse().expect("a position");
        let svg = svg(&Frame { position: &p, last: Some(Move::Enter { to: 28 }), note: Some("<b>") });
        let stacks = SQUARES.iter().filter(|&&sq| p.height(sq) > 0).count();
        let pieces: usize = SQUARES.iter().map(|&sq| p.height(sq)).sum();
        assert_eq!(count(&svg, "class=\"stack\""), stacks);
        assert_eq!(count(&svg, "class=\"piece"), pieces);
        assert_eq!(count(&svg, "class=\"piece top\""), stacks);
        assert!(svg.contains("data-square=\"e5\" data-height=\"5\" data-pieces=\"11010\" data-top=\"0\""), "{svg}");
        assert!(svg.contains("class=\"last\""));
        assert!(svg.contains("&lt;b&gt;") && !svg.contains("<b>"));
    }

    #[test]
    fn pieces_stay_inside_their_square() {
        for level in 0..5 {
            for top in level..5 {
                let (bx, by, bw, bh) = piece_box(0, 0, level, top);
                assert!(bx >= 0 && by >= 0 && bx + bw <= SQ && by + bh <= SQ, "level {level} of {top}");
            }
        }
        let (_, y) = square_origin(0);
        assert!(y + SQ + 60 < HEIGHT as i32);
    }
}
