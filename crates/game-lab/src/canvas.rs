//! What every game's picture shares: the SVG document's opening tag and
//! background, escaped text and one-line notes, pips and small markers,
//! and the one PNG path ([`png`], resvg with the embedded font).
//!
//! Every helper writes into a `String` and escapes what it is given as
//! text, so a game module only decides where things go. Nothing here knows
//! a game.

use std::fmt::{self, Write};

/// The font that [`png`] draws text with (DejaVu Sans Bold, subset to
/// ASCII and a few symbols; licence in `assets/DejaVuSans-LICENSE.txt`).
pub const FONT: &[u8] = include_bytes!("../assets/DejaVuSans-Bold-subset.ttf");

/// Colour of ordinary text.
pub const INK: &str = "#222";
/// Colour of secondary text.
pub const SOFT_INK: &str = "#333";
/// Colour of last-move arrows and rings.
pub const ARROW: &str = "#2e7d32";

/// What a picture shows: a position, optionally the move that led to it
/// (of the game's own form `L`) and a note (one line of caption). Each
/// game names it with its types (`picture::Frame`, `focus::Frame`, …).
#[derive(Debug)]
pub struct Frame<'a, P, L> {
    /// The position drawn.
    pub position: &'a P,
    /// The move just played.
    pub last: Option<L>,
    /// An extra caption line; escaped, so it may come from anywhere.
    pub note: Option<&'a str>,
}

impl<P, L: Clone> Clone for Frame<'_, P, L> {
    fn clone(&self) -> Self {
        Frame { position: self.position, last: self.last.clone(), note: self.note }
    }
}

impl<P, L: Copy> Copy for Frame<'_, P, L> {}

impl<'a, P, L> Frame<'a, P, L> {
    /// A frame of `position` alone.
    pub fn new(position: &'a P) -> Self {
        Frame { position, last: None, note: None }
    }
}

/// A rectangle of a picture, in its pixels: where a player would click to
/// name one part of a move (a die, a square, a column, the door).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
}

impl Region {
    /// The rectangle with its top-left corner at (x, y).
    pub const fn new(x: i32, y: i32, w: i32, h: i32) -> Region {
        Region { x, y, w, h }
    }

    /// Whether the point (px, py) lies inside (edges included).
    pub const fn contains(self, px: i32, py: i32) -> bool {
        px >= self.x && px <= self.x + self.w && py >= self.y && py <= self.y + self.h
    }

    /// Its centre.
    pub const fn centre(self) -> (i32, i32) {
        (self.x + self.w / 2, self.y + self.h / 2)
    }
}

/// The caption under a board: a first line, a second in softer ink 20
/// pixels below, and the note (cut to `note_max` characters) 20 below that.
pub fn caption(s: &mut String, x: i32, y: i32, first: &str, second: &str, note: Option<&str>, note_max: usize) {
    text(s, "caption", x, y, 15, INK, Anchor::Start, first);
    text(s, "caption", x, y + 20, 12, SOFT_INK, Anchor::Start, second);
    if let Some(note) = note {
        text(s, "note", x, y + 40, 12, SOFT_INK, Anchor::Start, &one_line(note, note_max));
    }
}

/// Why a picture could not be made.
#[derive(Debug)]
pub enum PictureError {
    /// The SVG could not be parsed (only for SVG not made by this crate).
    Svg(String),
    /// The pixmap could not be allocated or encoded.
    Raster(String),
}

impl fmt::Display for PictureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PictureError::Svg(e) => write!(f, "cannot read the SVG: {e}"),
            PictureError::Raster(e) => write!(f, "cannot rasterize the picture: {e}"),
        }
    }
}

impl std::error::Error for PictureError {}

/// Escapes text for XML and HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => s.push('\u{fffd}'),
            c => s.push(c),
        }
    }
    s
}

/// Opens an SVG document of `w`×`h` pixels with the pictures' font, its
/// root `class` and `data-*` attributes (`("spn", text)` is written
/// `data-spn="text"`, escaped).
pub fn open(s: &mut String, w: u32, h: u32, class: &str, data: &[(&str, &str)]) {
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
font-family=\"DejaVu Sans, sans-serif\" font-weight=\"bold\" class=\"{class}\""
    );
    for (k, v) in data {
        let _ = write!(s, " data-{k}=\"{}\"", escape(v));
    }
    s.push('>');
}

/// The arrowhead marker of last-move arrows (`url(#arrowhead)`), in `fill`.
pub fn arrowhead(s: &mut String, fill: &str) {
    let _ = write!(
        s,
        "<defs><marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"7\" refY=\"5\" markerWidth=\"4\" \
markerHeight=\"4\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{fill}\"/></marker></defs>"
    );
}

/// A rectangle filling the whole picture.
pub fn background(s: &mut String, w: u32, h: u32, fill: &str) {
    let _ = write!(s, "<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"{fill}\"/>");
}

/// Closes the document.
pub fn close(s: &mut String) {
    s.push_str("</svg>");
}

/// How a text is anchored at its `x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `x` is the left end.
    Start,
    /// `x` is the middle.
    Middle,
    /// `x` is the right end.
    End,
}

/// One line of text at (x, y) (y is the baseline), `size` pixels, escaped.
/// `class` is written when not empty.
#[allow(clippy::too_many_arguments)]
pub fn text(s: &mut String, class: &str, x: i32, y: i32, size: u32, fill: &str, anchor: Anchor, content: &str) {
    s.push_str("<text ");
    if !class.is_empty() {
        let _ = write!(s, "class=\"{class}\" ");
    }
    let _ = write!(s, "x=\"{x}\" y=\"{y}\" font-size=\"{size}\" fill=\"{fill}\"");
    match anchor {
        Anchor::Start => {}
        Anchor::Middle => s.push_str(" text-anchor=\"middle\""),
        Anchor::End => s.push_str(" text-anchor=\"end\""),
    }
    let _ = write!(s, ">{}</text>", escape(content));
}

/// A note cut to one line of at most `max` characters (control characters
/// dropped, `…` after a cut), not yet escaped.
pub fn one_line(note: &str, max: usize) -> String {
    let mut line: String = note.chars().filter(|c| !c.is_control()).take(max).collect();
    if note.chars().filter(|c| !c.is_control()).count() > max {
        line.push('…');
    }
    line
}

/// The pip centres of a die face or a domino half showing `n` (0..=6),
/// as offsets in units of a third of the face's half-side, from its centre.
pub const fn pip_offsets(n: u8) -> &'static [(i32, i32)] {
    match n {
        1 => &[(0, 0)],
        2 => &[(-1, -1), (1, 1)],
        3 => &[(-1, -1), (0, 0), (1, 1)],
        4 => &[(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5 => &[(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6 => &[(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
        _ => &[],
    }
}

/// The pips of `n` on a face of side `side` centred at (cx, cy), each a
/// `class="pip"` circle of radius `r` in `fill`.
pub fn pips(s: &mut String, n: u8, cx: i32, cy: i32, side: i32, r: f32, fill: &str) {
    let step = side * 3 / 10;
    for &(dx, dy) in pip_offsets(n) {
        let _ = write!(
            s,
            "<circle class=\"pip\" cx=\"{}\" cy=\"{}\" r=\"{r}\" fill=\"{fill}\"/>",
            cx + dx * step,
            cy + dy * step
        );
    }
}

/// A straight arrow from `from` to `to` with the arrowhead of [`arrowhead`].
pub fn arrow(s: &mut String, from: (i32, i32), to: (i32, i32)) {
    let ((ax, ay), (bx, by)) = (from, to);
    let _ = write!(
        s,
        "<path class=\"arrow\" d=\"M{ax} {ay} L{bx} {by}\" fill=\"none\" stroke=\"{ARROW}\" stroke-width=\"4\" \
stroke-linecap=\"round\" marker-end=\"url(#arrowhead)\" opacity=\"0.9\"/>"
    );
}

/// A green ring around the box (x, y, w, h): a square the last move touched.
pub fn ring(s: &mut String, class: &str, x: i32, y: i32, w: i32, h: i32) {
    let _ = write!(
        s,
        "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"8\" fill=\"none\" \
stroke=\"{ARROW}\" stroke-width=\"4\"/>"
    );
}

/// A small triangle pointing right with its tip at (x, y): the mark of
/// the side to move.
pub fn turn_mark(s: &mut String, x: i32, y: i32, fill: &str) {
    let _ = write!(
        s,
        "<polygon class=\"turn-mark\" points=\"{},{} {x},{y} {},{}\" fill=\"{fill}\" stroke=\"{INK}\" stroke-width=\"1\"/>",
        x - 12,
        y - 8,
        x - 12,
        y + 8
    );
}

/// Rasterizes an SVG (one made by this crate's pictures), with the
/// embedded font and never a system font, so that the same SVG always
/// gives the same pixels.
fn pixmap(svg: &str) -> Result<resvg::tiny_skia::Pixmap, PictureError> {
    use resvg::{tiny_skia, usvg};
    let mut opt = usvg::Options { font_family: "DejaVu Sans".to_string(), ..usvg::Options::default() };
    opt.fontdb_mut().load_font_data(FONT.to_vec());
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| PictureError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| PictureError::Raster(format!("empty picture {}x{}", size.width(), size.height())))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// Rasterizes an SVG (one made by this crate's pictures) to PNG bytes:
/// the same SVG always gives the same bytes (`pixmap`).
pub fn png(svg: &str) -> Result<Vec<u8>, PictureError> {
    pixmap(svg)?.encode_png().map_err(|e| PictureError::Raster(e.to_string()))
}

/// An SVG's pixels, row by row, three bytes (red, green, blue) each,
/// what is transparent shown on white: `(width, height, pixels)`.
pub fn rgb(svg: &str) -> Result<(u32, u32, Vec<u8>), PictureError> {
    let p = pixmap(svg)?;
    let mut out = Vec::with_capacity(p.data().len() / 4 * 3);
    // Premultiplied RGBA over white: c + (255 − a).
    for px in p.data().chunks_exact(4) {
        let under = 255 - px[3];
        out.extend(px[..3].iter().map(|&c| c.saturating_add(under)));
    }
    Ok((p.width(), p.height(), out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_leaves_no_markup() {
        let e = escape("<script>alert(\"x\")</script> & 'q'");
        assert_eq!(e, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;");
    }

    #[test]
    fn one_line_cuts_and_drops_controls() {
        assert_eq!(one_line("ab\ncd", 10), "abcd");
        assert_eq!(one_line("abcdef", 3), "abc…");
        assert_eq!(one_line("abc", 3), "abc");
    }

    #[test]
    fn rgb_is_the_png_over_white() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"3\" height=\"2\">\
                   <rect x=\"0\" y=\"0\" width=\"1\" height=\"2\" fill=\"#ff0000\"/></svg>";
        let (w, h, px) = rgb(svg).unwrap();
        assert_eq!((w, h, px.len()), (3, 2, 18));
        assert_eq!(&px[..3], &[255, 0, 0], "the red column");
        assert_eq!(&px[3..6], &[255, 255, 255], "transparent is white");
        assert!(png(svg).unwrap().starts_with(b"\x89PNG"));
    }

    #[test]
    fn every_face_has_its_number_of_pips() {
        for n in 0..=6u8 {
            assert_eq!(pip_offsets(n).len(), usize::from(n));
            let mut s = String::new();
            pips(&mut s, n, 50, 50, 30, 3.0, "#000");
            assert_eq!(s.matches("class=\"pip\"").count(), usize::from(n));
        }
    }

    #[test]
    fn data_attributes_are_escaped() {
        let mut s = String::new();
        open(&mut s, 10, 10, "x", &[("text", "a\"<b>")]);
        assert!(s.ends_with("class=\"x\" data-text=\"a&quot;&lt;b&gt;\">"), "{s}");
    }
}
