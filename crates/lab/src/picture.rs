//! Board pictures: a position drawn as SVG (and PNG through resvg), as the
//! rules' figure describes the board.
//!
//! Three centred rows S1–S11, M12–M18, I19–I23; the door under the bottom
//! row, the red pile on its left, the blue pile on its right and the small
//! white discard under it; each die with its top face's symbol (▲ ■ ●) in
//! the colour it shows and its number in a corner; restricted dice ringed
//! in dashed amber; the side to move, clock and piles in a caption. During
//! the draft the reserve and the die waiting to be placed are drawn under
//! the caption. An optional last move is drawn as green arrows.
//!
//! The other games have their own modules, drawn the same way: [`focus`]
//! (2 and 4 players), [`debacle`], [`connect4`] and [`dominoes`] (one observer's view
//! unless revealed); what the pictures share (the document, text, pips,
//! arrows, the PNG path) is in [`canvas`].
//!
//! [`svg`] is a pure function of its [`Frame`]: the same frame gives the
//! same bytes. Every text that may come from outside (the caption note) is
//! escaped with [`escape`]; the rest is written by this module. [`png`]
//! rasterizes such an SVG with the font embedded in the crate (a subset of
//! DejaVu Sans Bold), never with system fonts, so it is deterministic too.

use senat_rules::board::{Cell, Row};
use senat_rules::dice::{Colour, Symbol};
use senat_rules::game::Outcome;
use senat_rules::moves::{Dest, Move, MoveKind};
use senat_rules::position::{Phase, Position};
use std::fmt::Write;

pub use game_lab::canvas;
pub mod connect4;
pub mod debacle;
pub mod dominoes;
pub mod focus;

pub use canvas::{ARROW, FONT, PictureError, Region, escape, png};

/// A game of the lab whose positions have a picture (Focus, Débâcle): what
/// `render` and the viewer ([`crate::viewer::lab`]) need of it, the same
/// way for every such game.
pub trait Drawn: crate::games::LabGame {
    /// The size (width, height) of the pictures of `s`'s game, in pixels.
    fn picture_size(s: &Self::State) -> (u32, u32);
    /// The picture of `s`, with the move that led to it from the state
    /// before it (drawn as an arrow or a ring) and a caption note.
    fn picture(s: &Self::State, last: Option<(Self::Move, &Self::State)>, note: Option<&str>) -> String;
    /// The first caption line: who moves, or the result.
    fn status_line(s: &Self::State) -> String;
    /// The second caption line: reserves, scores, the match.
    fn detail_line(s: &Self::State) -> String;
    /// A heading for the moves made in `s` (`round 2`), where the game has
    /// such parts.
    fn section(_s: &Self::State) -> Option<String> {
        None
    }
    /// Where a player clicks, in order, to name the legal move `m` of `s`
    /// on its picture (the analysis board's clicks): the piece, then where
    /// it goes. Empty where the board cannot show it (a pass); several
    /// moves may share their regions (the page then offers those left).
    fn regions(_s: &Self::State, _m: Self::Move) -> Vec<Region> {
        Vec::new()
    }
}

/// Width of every picture, in pixels.
pub const WIDTH: u32 = 716;
/// Height of every picture, in pixels.
pub const HEIGHT: u32 = 500;
/// Side of a cell (and of a die), in pixels.
pub const CELL: i32 = 56;
/// Distance between the left edges of two neighbouring cells.
const PITCH: i32 = 62;
/// Left edge of S1.
const X0: i32 = 20;
/// Top edges of rows S, M, I.
const ROW_TOP: [i32; 3] = [36, 118, 200];

/// Fill of a die body.
pub const DIE_BODY: &str = "#f4ecd9";
/// Fill of the page behind the board.
pub const BACKGROUND: &str = "#e9dcc0";
/// Fill of an empty cell.
pub const EMPTY_CELL: &str = "#b08a5c";
/// Colour of restriction rings.
pub const RESTRICTED: &str = "#ff8f00";

/// What a Sénat picture shows: a position, the move just played (drawn
/// as arrows, or a ring for a placement) and a note (one line of caption,
/// e.g. `ply 12: M13>M14:I19`).
pub type Frame<'a> = canvas::Frame<'a, Position, Move>;

/// The fill colour of a shown colour, as `#rrggbb`.
pub const fn colour_hex(c: Colour) -> &'static str {
    match c {
        Colour::Red => "#d32f2f",
        Colour::Blue => "#1e63c6",
        Colour::White => "#ffffff",
    }
}

/// The fill colour of a shown colour, as RGB bytes (for pixel checks).
pub const fn colour_rgb(c: Colour) -> [u8; 3] {
    match c {
        Colour::Red => [0xd3, 0x2f, 0x2f],
        Colour::Blue => [0x1e, 0x63, 0xc6],
        Colour::White => [0xff, 0xff, 0xff],
    }
}

/// The name of a symbol, as in the SVG's `data-symbol` attributes.
pub const fn symbol_name(s: Symbol) -> &'static str {
    match s {
        Symbol::Triangle => "triangle",
        Symbol::Square => "square",
        Symbol::Circle => "circle",
    }
}

/// The name of a colour, as in the SVG's `data-colour` attributes.
pub const fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::Red => "red",
        Colour::Blue => "blue",
        Colour::White => "white",
    }
}

/// The top-left corner of a cell in the picture, in pixels.
pub const fn cell_origin(c: Cell) -> (i32, i32) {
    let (row, first, len) = match c.row() {
        Row::S => (0, 1, 11),
        Row::M => (1, 12, 7),
        Row::I => (2, 19, 5),
    };
    let left = X0 + (11 - len) * PITCH / 2;
    (left + (c.number() as i32 - first) * PITCH, ROW_TOP[row])
}

/// The centre of a die's symbol in the picture, in pixels.
pub const fn symbol_centre(c: Cell) -> (i32, i32) {
    let (x, y) = cell_origin(c);
    (x + CELL / 2, y + CELL / 2 + 4)
}

/// Where the door is drawn: its centre.
pub const DOOR_CENTRE: (i32, i32) = (WIDTH as i32 / 2, 308);
/// The centre of the red pile box.
pub const RED_PILE_CENTRE: (i32, i32) = (WIDTH as i32 / 2 - 170, 308);
/// The centre of the blue pile box.
pub const BLUE_PILE_CENTRE: (i32, i32) = (WIDTH as i32 / 2 + 170, 308);

/// Draws a frame as an SVG document (UTF-8, no XML declaration). The
/// caption gives the result where the position alone shows the game over
/// (majority, closure, block: [`Outcome::of_occurrences`] with the
/// position seen once); a game's last position ended by repetition needs
/// its history: [`svg_of_game`].
pub fn svg(frame: &Frame) -> String {
    svg_of_game(frame, Outcome::of_occurrences(frame.position, 1))
}

/// Draws a frame of a game whose outcome at that position is `outcome`
/// (`None` while play goes on): the caption says who won instead of who
/// moves.
pub fn svg_of_game(frame: &Frame, outcome: Option<Outcome>) -> String {
    let p = frame.position;
    let mut s = String::with_capacity(16 * 1024);
    let (w, h) = (WIDTH, HEIGHT);
    canvas::open(&mut s, w, h, "senat-board", &[("spn", &p.to_spn())]);
    canvas::arrowhead(&mut s, ARROW);
    canvas::background(&mut s, w, h, BACKGROUND);
    // The three rows, each on its own plank so that the gap between rows shows.
    for row in Row::ALL {
        let first = row.cells().next().expect("every row has cells");
        let len = row.cells().count() as i32;
        let (x, y) = cell_origin(first);
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\" fill=\"#d9bf8f\" stroke=\"#6b4f2f\" stroke-width=\"2\"/>",
            x - 5,
            y - 5,
            len * PITCH + 4,
            CELL + 10
        );
    }
    for c in Cell::all() {
        let (x, y) = cell_origin(c);
        let _ = write!(
            s,
            "<rect class=\"cell\" data-cell=\"{c}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" rx=\"4\" fill=\"{EMPTY_CELL}\"/>\
<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#6b4f2f\" text-anchor=\"middle\">{c}</text>",
            x + CELL / 2,
            y + CELL + 14
        );
    }
    for c in Cell::all() {
        if let Some((d, f)) = p.piece_at(c) {
            die(&mut s, c, d.number(), f.code(), f.symbol(), d.colour(f), p.restricted().contains(c));
        }
    }
    door_and_piles(&mut s, p);
    if let Some(m) = frame.last {
        last_move(&mut s, m);
    }
    caption(&mut s, p, outcome, frame.note);
    if !p.is_play() {
        draft(&mut s, p);
    }
    s.push_str("</svg>");
    s
}

/// A symbol's shape centred at (cx, cy), filled with `fill`.
fn shape(s: &mut String, symbol: Symbol, cx: i32, cy: i32, fill: &str, extra: &str) {
    let stroke = "stroke=\"#222\" stroke-width=\"2\" stroke-linejoin=\"round\"";
    let _ = match symbol {
        Symbol::Triangle => write!(
            s,
            "<polygon {extra}points=\"{},{} {},{} {},{}\" fill=\"{fill}\" {stroke}/>",
            cx,
            cy - 16,
            cx + 17,
            cy + 13,
            cx - 17,
            cy + 13
        ),
        Symbol::Square => write!(
            s,
            "<rect {extra}x=\"{}\" y=\"{}\" width=\"28\" height=\"28\" fill=\"{fill}\" {stroke}/>",
            cx - 14,
            cy - 14
        ),
        Symbol::Circle => write!(s, "<circle {extra}cx=\"{cx}\" cy=\"{cy}\" r=\"15\" fill=\"{fill}\" {stroke}/>"),
    };
}

fn die(s: &mut String, c: Cell, number: u8, code: &str, symbol: Symbol, colour: Colour, restricted: bool) {
    let (x, y) = cell_origin(c);
    let (cx, cy) = symbol_centre(c);
    let _ = write!(
        s,
        "<g class=\"die\" data-cell=\"{c}\" data-die=\"{number}\" data-face=\"{code}\" data-symbol=\"{}\" \
data-colour=\"{}\" data-restricted=\"{restricted}\">\
<rect class=\"die-body\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" rx=\"8\" fill=\"{DIE_BODY}\" stroke=\"#3b2a1a\" stroke-width=\"2\"/>",
        symbol_name(symbol),
        colour_name(colour)
    );
    shape(s, symbol, cx, cy, colour_hex(colour), "class=\"symbol\" ");
    let _ = write!(
        s,
        "<text class=\"die-number\" x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#333\">{number}</text>",
        x + 5,
        y + 13
    );
    if restricted {
        let _ = write!(
            s,
            "<rect class=\"restricted\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"10\" fill=\"none\" \
stroke=\"{RESTRICTED}\" stroke-width=\"4\" stroke-dasharray=\"7 4\"/>",
            x - 3,
            y - 3,
            CELL + 6,
            CELL + 6
        );
    }
    s.push_str("</g>");
}

fn door_and_piles(s: &mut String, p: &Position) {
    let piles = p.piles();
    let (dx, dy) = DOOR_CENTRE;
    // The door: an arch opening under the bottom row.
    let _ = write!(
        s,
        "<path class=\"door\" d=\"M{} {} L{} {} A40 26 0 0 1 {} {} L{} {} Z\" fill=\"#3b2a1a\"/>\
<text x=\"{dx}\" y=\"{}\" font-size=\"13\" fill=\"#f4ecd9\" text-anchor=\"middle\">door</text>",
        dx - 40,
        dy + 22,
        dx - 40,
        dy - 4,
        dx + 40,
        dy - 4,
        dx + 40,
        dy + 22,
        dy + 14
    );
    for (class, label, count, (cx, cy), colour) in [
        ("pile-red", "red pile", piles.red, RED_PILE_CENTRE, Colour::Red),
        ("pile-blue", "blue pile", piles.blue, BLUE_PILE_CENTRE, Colour::Blue),
    ] {
        pile(s, class, label, count, cx, cy, 180, colour);
    }
    pile(s, "pile-white", "white discard", piles.white, dx, dy + 50, 130, Colour::White);
}

#[allow(clippy::too_many_arguments)]
fn pile(s: &mut String, class: &str, label: &str, count: u8, cx: i32, cy: i32, width: i32, colour: Colour) {
    let (x, y) = (cx - width / 2, cy - 24);
    let _ = write!(
        s,
        "<g class=\"{class}\" data-count=\"{count}\"><rect x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"48\" rx=\"6\" \
fill=\"#f7f0e1\" stroke=\"{}\" stroke-width=\"3\"/>\
<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#333\">{label}</text>\
<text class=\"pile-count\" x=\"{}\" y=\"{}\" font-size=\"22\" fill=\"#222\" text-anchor=\"end\">{count}</text>",
        if colour == Colour::White { "#888" } else { colour_hex(colour) },
        x + 8,
        y + 17,
        x + width - 8,
        y + 40
    );
    // One small token per die in the pile (at most 23).
    for i in 0..i32::from(count.min(23)) {
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"9\" height=\"9\" fill=\"{}\" stroke=\"#222\" stroke-width=\"1\"/>",
            x + 8 + (i % 10) * 12,
            y + 24 + (i / 10) * 11 - if count > 10 { 2 } else { 0 },
            colour_hex(colour)
        );
    }
    s.push_str("</g>");
}

fn arrow(s: &mut String, from: (i32, i32), to: (i32, i32), same_row: bool) {
    let (ax, ay) = from;
    let (bx, by) = to;
    if same_row {
        // An arc over the row, from the top of one die to the top of the other.
        let (ay, by) = (ay - 24, by - 24);
        let mx = (ax + bx) / 2;
        let lift = 18 + (bx - ax).abs() / 12;
        let _ = write!(
            s,
            "<path class=\"arrow\" d=\"M{ax} {ay} Q{mx} {} {bx} {by}\" fill=\"none\" stroke=\"{ARROW}\" stroke-width=\"4\" \
stroke-linecap=\"round\" marker-end=\"url(#arrowhead)\"/>",
            ay - lift
        );
    } else {
        canvas::arrow(s, from, to);
    }
}

fn last_move(s: &mut String, m: Move) {
    let centre = |c: Cell| {
        let (x, y) = cell_origin(c);
        (x + CELL / 2, y + CELL / 2)
    };
    match m.kind() {
        MoveKind::Give(_) | MoveKind::Keep | MoveKind::Swap => {}
        MoveKind::Place(_, c, _) => {
            let (x, y) = cell_origin(c);
            let _ = write!(
                s,
                "<rect class=\"placed\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"10\" fill=\"none\" stroke=\"{ARROW}\" stroke-width=\"4\"/>",
                x - 4,
                y - 4,
                CELL + 8,
                CELL + 8
            );
        }
        MoveKind::Shift { from, to } => arrow(s, centre(from), centre(to), true),
        MoveKind::Flip { agent, target } | MoveKind::Turn { agent, target, .. } => {
            arrow(s, centre(agent), centre(target), true)
        }
        MoveKind::Push { agent, target, to } => {
            arrow(s, centre(agent), centre(target), true);
            let end = match to {
                Dest::Cell(c) => centre(c),
                Dest::Door => (DOOR_CENTRE.0, DOOR_CENTRE.1 - 2),
            };
            arrow(s, centre(target), end, false);
        }
    }
}

/// The first caption line: who does what (`blue to move · clock 3`,
/// `draft: red places die 17`), or, once the game is over (`outcome`), its
/// result (`blue wins by majority`).
pub fn status_line(p: &Position, outcome: Option<Outcome>) -> String {
    if let Some(o) = outcome {
        return o.to_string();
    }
    let side = p.side_to_move();
    match p.phase() {
        Phase::Give => format!("draft: {side} gives a die"),
        Phase::Place(d) => format!("draft: {side} places die {d}"),
        Phase::Play => format!("{side} to move · clock {}", p.clock()),
        Phase::Decide => format!("after the draft: {side} keeps or swaps colours"),
    }
}

/// The second caption line: piles and restricted cells.
pub fn detail_line(p: &Position) -> String {
    let piles = p.piles();
    let restricted: Vec<String> = p.restricted().map(|c| c.to_string()).collect();
    format!(
        "piles: red {} · blue {} · white {} · restricted: {}",
        piles.red,
        piles.blue,
        piles.white,
        if restricted.is_empty() { "none".to_string() } else { restricted.join(", ") }
    )
}

fn caption(s: &mut String, p: &Position, outcome: Option<Outcome>, note: Option<&str>) {
    let (first, second) = (status_line(p, outcome), detail_line(p));
    let _ = write!(
        s,
        "<text class=\"caption\" x=\"{X0}\" y=\"402\" font-size=\"15\" fill=\"#222\">{}</text>\
<text class=\"caption\" x=\"{X0}\" y=\"422\" font-size=\"12\" fill=\"#333\">{}</text>",
        escape(&first),
        escape(&second)
    );
    if let Some(note) = note {
        // One line: cut long notes so that they stay inside the picture.
        let line = canvas::one_line(note, 90);
        let _ = write!(
            s,
            "<text class=\"note\" x=\"{X0}\" y=\"442\" font-size=\"12\" fill=\"#333\">{}</text>",
            escape(&line)
        );
    }
}

/// The box of the `i`-th die of the draft's reserve.
const fn reserve_die(i: usize) -> Region {
    Region::new(X0 + 58 + i as i32 * 27, 460, 23, 23)
}

/// Where a player clicks to name the legal move `m` of `p`, in order
/// ([`Drawn::regions`]): a reserve die to give; the cell to place on (the
/// face is chosen apart); the agent, the target and a push's destination
/// (a cell or the door); a shift's die and its new cell.
pub fn regions(p: &Position, m: Move) -> Vec<Region> {
    let cell = |c: Cell| {
        let (x, y) = cell_origin(c);
        Region::new(x, y, CELL, CELL)
    };
    match m.kind() {
        MoveKind::Give(d) => p.reserve().iter().position(|r| r == d).map(reserve_die).into_iter().collect(),
        MoveKind::Place(_, c, _) => vec![cell(c)],
        MoveKind::Shift { from, to } => vec![cell(from), cell(to)],
        MoveKind::Flip { agent, target } | MoveKind::Turn { agent, target, .. } => vec![cell(agent), cell(target)],
        MoveKind::Push { agent, target, to } => {
            let end = match to {
                Dest::Cell(c) => cell(c),
                Dest::Door => Region::new(DOOR_CENTRE.0 - 40, DOOR_CENTRE.1 - 30, 80, 52),
            };
            vec![cell(agent), cell(target), end]
        }
        // The decision after the draft (`swap=yes`): nothing on the board to click.
        MoveKind::Keep | MoveKind::Swap => Vec::new(),
    }
}

fn draft(s: &mut String, p: &Position) {
    let y = 460;
    let _ = write!(s, "<text x=\"{X0}\" y=\"{}\" font-size=\"11\" fill=\"#333\">reserve</text>", y + 15);
    for (i, d) in p.reserve().iter().enumerate() {
        let Region { x, .. } = reserve_die(i);
        let _ = write!(
            s,
            "<g class=\"reserve-die\" data-die=\"{d}\"><rect x=\"{x}\" y=\"{y}\" width=\"23\" height=\"23\" rx=\"4\" fill=\"{DIE_BODY}\" \
stroke=\"#3b2a1a\" stroke-width=\"1.5\"/><text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#333\" text-anchor=\"middle\">{d}</text></g>",
            x + 12,
            y + 15
        );
    }
    if let Phase::Place(d) = p.phase() {
        let x = WIDTH as i32 - 130;
        let _ = write!(
            s,
            "<g class=\"given-die\" data-die=\"{d}\"><text x=\"{x}\" y=\"{}\" font-size=\"11\" fill=\"#333\">to place</text>\
<rect x=\"{}\" y=\"{}\" width=\"34\" height=\"34\" rx=\"6\" fill=\"{DIE_BODY}\" stroke=\"{ARROW}\" stroke-width=\"3\"/>\
<text x=\"{}\" y=\"{}\" font-size=\"14\" fill=\"#222\" text-anchor=\"middle\">{d}</text></g>",
            y - 14,
            x + 60,
            y - 40,
            x + 77,
            y - 18
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use senat_rules::sample;

    #[test]
    fn cells_do_not_overlap_and_rows_are_centred() {
        let mut seen: Vec<(i32, i32)> = Vec::new();
        for c in Cell::all() {
            let (x, y) = cell_origin(c);
            assert!(x >= 0 && x + CELL <= WIDTH as i32, "{c} at {x}");
            for &(ox, oy) in &seen {
                assert!((x - ox).abs() >= CELL || (y - oy) != 0, "{c} overlaps");
            }
            seen.push((x, y));
        }
        // Row centres coincide.
        let mid = |a: u8, b: u8| {
            let (l, _) = cell_origin(Cell::from_number(a).unwrap());
            let (r, _) = cell_origin(Cell::from_number(b).unwrap());
            l + r
        };
        assert_eq!(mid(1, 11), mid(12, 18));
        assert_eq!(mid(12, 18), mid(19, 23));
    }

    #[test]
    fn hostile_note_is_text() {
        let p: Position = sample::START.parse().unwrap();
        let s = svg(&Frame { position: &p, last: None, note: Some("</svg><script>alert(1)</script>") });
        assert!(!s.contains("<script"));
        assert_eq!(s.matches("</svg>").count(), 1);
        assert!(s.contains("&lt;/svg&gt;&lt;script&gt;"));
    }
}
