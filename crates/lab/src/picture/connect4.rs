//! Connect Four boards as SVG: the blue frame with a round hole per cell,
//! the first player's discs red and the second's yellow, the column
//! digits under the board (a move's text), the last disc dropped ringed in
//! green, and a four in a row, once made, crossed by a line; a caption
//! with the side to move or the result, the ply and the board's size.
//!
//! Only ASCII and the embedded font's few symbols are written (`7x6`, not
//! a multiplication sign).
//!
//! [`svg`] is a pure function of its [`Frame`]; the root element carries
//! the position text (`data-position`), each disc is a `class="disc"`
//! circle with `data-column`, `data-row` (0 the bottom) and `data-owner`
//! (0 first, 1 second), the last one dropped also `data-last="true"`.

use super::canvas::{self, ARROW, Anchor, INK, SOFT_INK};
use crate::games::LabGame;
use crate::games::connect4::Connect4;
use connect4_rules::{Move, Outcome, Position};
use std::fmt::Write;

/// Width of every Connect Four picture, in pixels.
pub const WIDTH: u32 = 720;
/// Height of every Connect Four picture, in pixels.
pub const HEIGHT: u32 = 650;
/// The largest side of a cell, in pixels (smaller on wide or tall boards).
const MAX_CELL: i32 = 80;
/// The room the grid may take.
const ROOM: (i32, i32) = (660, 480);
const Y0: i32 = 30;

/// Fill of the page.
pub const BACKGROUND: &str = "#eef1f6";
/// Fill of the frame.
const FRAME: &str = "#1f4fa8";
/// The discs, the first player's first.
pub const DISC_FILLS: [&str; 2] = ["#d32f2f", "#fbc02d"];
/// The sides' names, the first player first.
pub const SIDES: [&str; 2] = ["first (red)", "second (yellow)"];

/// What a Connect Four picture shows: a position, the move just played, a
/// note.
pub type Frame<'a> = canvas::Frame<'a, Position, Move>;

/// The cell's side and the grid's top-left corner for the board of `p`.
fn geometry(p: &Position) -> (i32, i32, i32) {
    let v = p.variant();
    let (w, h) = (i32::from(v.width), i32::from(v.height));
    let cell = MAX_CELL.min(ROOM.0 / w).min(ROOM.1 / h);
    let x0 = (WIDTH as i32 - cell * w) / 2;
    (cell, x0, Y0)
}

/// The centre of the cell (column, row), row 0 the bottom.
fn centre(p: &Position, column: u8, row: u8) -> (i32, i32) {
    let (cell, x0, y0) = geometry(p);
    let h = i32::from(p.variant().height);
    (x0 + i32::from(column) * cell + cell / 2, y0 + (h - 1 - i32::from(row)) * cell + cell / 2)
}

/// The side to move, or the result.
pub fn status_line(p: &Position) -> String {
    match p.outcome() {
        None => format!("{} to move", SIDES[p.to_move()]),
        Some(Outcome::Win { player }) => format!("{} wins: four in a row", SIDES[player]),
        Some(Outcome::Draw) => "a draw: the board is full with no four".to_string(),
    }
}

/// The ply and the board's size.
pub fn detail_line(p: &Position) -> String {
    let v = p.variant();
    format!("ply {} · {}x{} board · {} discs left to drop", p.ply(), v.width, v.height, v.cells() - p.ply() as usize)
}

/// The cells of a four in a row of the player who made one, if any:
/// the first found, from its lowest-left end.
fn four(p: &Position) -> Option<[(u8, u8); 4]> {
    let Some(Outcome::Win { player }) = p.outcome() else { return None };
    let v = p.variant();
    let (w, h) = (i32::from(v.width), i32::from(v.height));
    for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for c in 0..w {
            for r in 0..h {
                let cells = [0, 1, 2, 3].map(|k| (c + k * dc, r + k * dr));
                let inside = cells.iter().all(|&(x, y)| (0..w).contains(&x) && (0..h).contains(&y));
                if inside && cells.iter().all(|&(x, y)| p.disc(x as u8, y as u8) == Some(player)) {
                    return Some(cells.map(|(x, y)| (x as u8, y as u8)));
                }
            }
        }
    }
    None
}

/// Draws a frame as an SVG document (UTF-8, no XML declaration).
pub fn svg(frame: &Frame) -> String {
    let p = frame.position;
    let v = p.variant();
    let (cell, x0, y0) = geometry(p);
    let (w, h) = (i32::from(v.width), i32::from(v.height));
    let mut s = String::with_capacity(16 * 1024);
    canvas::open(&mut s, WIDTH, HEIGHT, "connect4-board", &[("position", &Connect4::position_text(p))]);
    canvas::background(&mut s, WIDTH, HEIGHT, BACKGROUND);
    let _ = write!(
        s,
        "<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"14\" fill=\"{FRAME}\"/>",
        x0 - 10,
        y0 - 10,
        w * cell + 20,
        h * cell + 20
    );
    let radius = cell * 2 / 5;
    let last = frame.last.map(|m| (m.column(), p.column_height(m.column()).saturating_sub(1)));
    for c in 0..v.width {
        for r in 0..v.height {
            let (cx, cy) = centre(p, c, r);
            match p.disc(c, r) {
                None => {
                    let _ = write!(
                        s,
                        "<circle class=\"hole\" cx=\"{cx}\" cy=\"{cy}\" r=\"{radius}\" fill=\"{BACKGROUND}\" \
stroke=\"#163a7d\" stroke-width=\"2\"/>"
                    );
                }
                Some(owner) => {
                    let is_last = last == Some((c, r));
                    let _ = write!(
                        s,
                        "<circle class=\"disc\" data-column=\"{}\" data-row=\"{r}\" data-owner=\"{owner}\"{} cx=\"{cx}\" \
cy=\"{cy}\" r=\"{radius}\" fill=\"{}\" stroke=\"#5a3b00\" stroke-width=\"2\"/>",
                        c + 1,
                        if is_last { " data-last=\"true\"" } else { "" },
                        DISC_FILLS[owner & 1]
                    );
                    // An inner rim, as on the real discs.
                    let _ = write!(
                        s,
                        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"none\" stroke=\"#00000033\" stroke-width=\"2\"/>",
                        radius * 7 / 10
                    );
                    if is_last {
                        let _ = write!(
                            s,
                            "<circle class=\"last\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"none\" stroke=\"{ARROW}\" \
stroke-width=\"5\"/>",
                            radius + 3
                        );
                    }
                }
            }
        }
    }
    if let Some(cells) = four(p) {
        let (a, b) = (centre(p, cells[0].0, cells[0].1), centre(p, cells[3].0, cells[3].1));
        let _ = write!(
            s,
            "<path class=\"four\" d=\"M{} {} L{} {}\" stroke=\"{INK}\" stroke-width=\"8\" stroke-linecap=\"round\" \
opacity=\"0.75\"/>",
            a.0, a.1, b.0, b.1
        );
    }
    for c in 0..v.width {
        let (cx, _) = centre(p, c, 0);
        canvas::text(&mut s, "column", cx, y0 + h * cell + 32, 16, SOFT_INK, Anchor::Middle, &(c + 1).to_string());
    }
    if p.outcome().is_none() {
        // The side to move's colour, as a disc beside the caption.
        let _ = write!(
            s,
            "<circle class=\"to-move\" cx=\"{}\" cy=\"{}\" r=\"9\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"1\"/>",
            x0 - 4,
            y0 + h * cell + 66,
            DISC_FILLS[p.to_move()]
        );
    }
    canvas::caption(&mut s, x0 + 14, y0 + h * cell + 71, &status_line(p), &detail_line(p), frame.note, 80);
    canvas::close(&mut s);
    s
}

impl super::Drawn for Connect4 {
    fn picture_size(_s: &Position) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }
    fn picture(s: &Position, last: Option<(Move, &Position)>, note: Option<&str>) -> String {
        svg(&Frame { position: s, last: last.map(|(m, _)| m), note })
    }
    fn status_line(s: &Position) -> String {
        status_line(s)
    }
    fn detail_line(s: &Position) -> String {
        detail_line(s)
    }
    /// The move's column, from the top of the grid to its digit under it.
    fn regions(s: &Position, m: Move) -> Vec<super::Region> {
        let (cell, x0, y0) = geometry(s);
        let h = i32::from(s.variant().height);
        vec![super::Region::new(x0 + i32::from(m.column()) * cell, y0, cell, h * cell + 30)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect4_rules::Variant;

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    #[test]
    fn discs_holes_the_last_disc_and_the_four() {
        let p: Position = "4453".parse().unwrap();
        let svg = svg(&Frame { position: &p, last: Some(p.parse_move("3").unwrap()), note: Some("a <note>") });
        assert_eq!((count(&svg, "class=\"disc\""), count(&svg, "class=\"hole\"")), (4, 38));
        assert_eq!(count(&svg, "data-owner=\"0\""), 2);
        assert!(svg.contains("data-column=\"3\" data-row=\"0\" data-owner=\"1\" data-last=\"true\""), "{svg}");
        assert!(svg.contains("data-position=\"4453\"") && svg.contains("a &lt;note&gt;"));
        assert_eq!(count(&svg, "class=\"four\""), 0);
        let won: Position = "1122334".parse().unwrap();
        assert_eq!(four(&won), Some([(0, 0), (1, 0), (2, 0), (3, 0)]));
        assert!(super::svg(&Frame::new(&won)).contains("class=\"four\""));
        assert!(status_line(&won).starts_with("first (red) wins"));
        let small = Position::start(Variant::parse("width=9,height=4").unwrap());
        let big = super::svg(&Frame::new(&small));
        assert!(big.contains("data-position=\"width=9,height=4 start\"") && count(&big, "class=\"hole\"") == 36);
        assert!(crate::picture::png(&big).is_ok());
    }
}
