//! Block dominoes tables as SVG, seen by one player unless revealed: the
//! chain in the order it lies, left end first, wrapped into rows (every
//! tile along the line, doubles drawn across it, GAMES.md §2.4) with its
//! two open ends named; the boneyard's count (its tiles face down); each
//! player's hand (the observer's face up, the others face down with their
//! count) with the scores and the player to move marked; a caption with
//! the round, the turn or the round's end, and who sees what.
//!
//! Hidden information is kept by types: a picture is drawn from a
//! [`View`], either an [`Observation`] (what one player knows: the other
//! hands and the boneyard are counts there, so they cannot be drawn) or,
//! only when the caller asks to reveal it, a full [`State`]. The chain is
//! rebuilt from the public history alone.
//!
//! [`svg`] is a pure function of its [`Frame`]. The root element carries
//! the observation text (`data-observation`, hidden hands as `?N`) or, when
//! revealed, the state text (`data-state`). A tile drawn face up is a
//! `class="tile"` group with `data-tile` (`6-4`) and `data-place`
//! (`chain`, `hand0`…`hand3`, `boneyard`); a tile face down is a
//! `class="tile-back"` group with only `data-place`: its value is nowhere
//! in the picture.

use super::canvas::{self, Anchor, INK, Region};
use dominoes_rules::{End, Event, Move, Observation, Outcome, RoundEndKind, State, Tile, TileSet};
use std::collections::VecDeque;
use std::fmt::Write;

/// Width of every dominoes picture, in pixels.
pub const WIDTH: u32 = 960;
/// The short side of a tile (a half is a square of this side).
pub const HALF: i32 = 26;
/// Left edge of the chain and of the labels.
const X0: i32 = 20;
/// Top of the chain's first row.
const CHAIN_TOP: i32 = 58;
/// Height of a chain row (a double's length and a gap).
const CHAIN_ROW: i32 = 62;
/// Rows the chain may take (28 tiles fit in two; three leave room).
const CHAIN_ROWS: i32 = 3;
/// Left edge of the tiles of a hand or of the boneyard.
const TILES_X: i32 = 236;
/// Height of a hand's row.
const HAND_ROW: i32 = 72;

/// Fill of the page.
pub const BACKGROUND: &str = "#2f6b4f";
/// Fill of a tile's face.
pub const FACE: &str = "#fbf8ef";
/// Fill of a tile's back.
pub const BACK: &str = "#7a2e2e";
/// Text on the table.
const TABLE_INK: &str = "#f4f1e6";
/// The mark of the player to move.
const TURN: &str = "#ffca28";

/// Whose eyes a picture has: one player's observation, or the full state
/// (`--reveal`: every hand and the boneyard face up).
#[derive(Clone, Copy, Debug)]
pub enum View<'a> {
    /// What one player knows; the other hands and the boneyard face down.
    Observer(&'a Observation),
    /// Everything, hidden tiles included.
    Revealed(&'a State),
}

/// What a picture shows: a view, whether to ring the last tile played, and
/// a note (one line of caption).
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    /// The table as seen.
    pub view: View<'a>,
    /// Ring the tile of the round's last play.
    pub mark_last: bool,
    /// An extra caption line; escaped, so it may come from anywhere.
    pub note: Option<&'a str>,
}

impl<'a> Frame<'a> {
    /// A frame of `view` alone.
    pub fn new(view: View<'a>) -> Frame<'a> {
        Frame { view, mark_last: false, note: None }
    }
}

/// One tile of the chain as it lies: the number on its left and on its
/// right, who played it and when (0 for the round's first play).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// The tile.
    pub tile: Tile,
    /// The number on its left half (towards the chain's left end).
    pub left: u8,
    /// The number on its right half.
    pub right: u8,
    /// Its player.
    pub player: u8,
    /// Its rank among the round's plays.
    pub order: usize,
}

/// The chain from left to right, rebuilt from a round's public history:
/// the first tile lies with its higher end on the left, a tile played on
/// the left end is put with its matching half against it, and so on the
/// right.
pub fn chain(history: impl Iterator<Item = Event>) -> Vec<Link> {
    let mut links: VecDeque<Link> = VecDeque::new();
    for (order, (tile, end, player)) in history.filter_map(|e| e.play.map(|(t, end)| (t, end, e.player))).enumerate() {
        let (hi, lo) = tile.ends();
        let other = |n: u8| if hi == n { lo } else { hi };
        let link = |left, right| Link { tile, left, right, player, order };
        match (links.front().map(|l| l.left), links.back().map(|l| l.right), end) {
            (None, _, _) | (_, None, _) => links.push_back(link(hi, lo)),
            (Some(left), _, End::Left) => links.push_front(link(other(left), left)),
            (_, Some(right), End::Right) => links.push_back(link(right, other(right))),
        }
    }
    links.into()
}

/// A hand or the boneyard as drawn: its tiles face up, or a count face down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    Up(TileSet),
    Down(usize),
}

impl Seen {
    fn len(self) -> usize {
        match self {
            Seen::Up(t) => t.len(),
            Seen::Down(n) => n,
        }
    }
}

/// What the picture needs of a table, taken from a view (never more than
/// the view holds).
struct Table {
    players: usize,
    observer: Option<usize>,
    hands: [Seen; 4],
    boneyard: Seen,
    links: Vec<Link>,
    ends: Option<(u8, u8)>,
    to_move: usize,
    drawn: usize,
    scores: [u32; 4],
    rounds: u32,
    target: u32,
    hand: usize,
    openspiel: bool,
    round_over: bool,
    outcome: Option<Outcome>,
    last_round: Option<dominoes_rules::RoundEnd>,
    data: (&'static str, String),
}

impl Table {
    fn of(view: View) -> Table {
        match view {
            View::Observer(o) => {
                let n = o.players();
                let mut hands = [Seen::Down(0); 4];
                for (p, h) in hands.iter_mut().enumerate().take(n) {
                    *h = o.known_hand(p).map_or(Seen::Down(o.hand_size(p)), Seen::Up);
                }
                let v = o.variant();
                Table {
                    players: n,
                    observer: Some(o.observer()),
                    hands,
                    boneyard: Seen::Down(o.boneyard_size()),
                    links: chain(o.history()),
                    ends: o.ends(),
                    to_move: o.to_move(),
                    drawn: o.drawn_this_turn(),
                    scores: o.scores(),
                    rounds: o.rounds_played(),
                    target: v.target,
                    hand: usize::from(v.hand),
                    openspiel: v.openspiel,
                    round_over: o.round_over(),
                    outcome: o.outcome(),
                    last_round: o.last_round(),
                    data: ("observation", o.to_string()),
                }
            }
            View::Revealed(s) => {
                let n = s.players();
                let mut hands = [Seen::Down(0); 4];
                for (p, h) in hands.iter_mut().enumerate().take(n) {
                    *h = Seen::Up(s.hand(p));
                }
                let v = s.variant();
                Table {
                    players: n,
                    observer: None,
                    hands,
                    boneyard: Seen::Up(s.boneyard()),
                    links: chain(s.history()),
                    ends: s.ends(),
                    to_move: s.to_move(),
                    drawn: s.drawn_this_turn(),
                    scores: s.scores(),
                    rounds: s.rounds_played(),
                    target: v.target,
                    hand: usize::from(v.hand),
                    openspiel: v.openspiel,
                    round_over: s.round_over(),
                    outcome: s.outcome(),
                    last_round: s.last_round(),
                    data: ("state", s.to_string()),
                }
            }
        }
    }

    fn dealt(&self) -> usize {
        self.hands.iter().take(self.players).map(|h| h.len()).sum::<usize>() + self.links.len()
    }

    fn dealing(&self) -> bool {
        !self.round_over && self.links.is_empty() && self.dealt() < self.players * self.hand
    }
}

/// The picture's height for `players` players.
pub const fn height(players: usize) -> u32 {
    (CHAIN_TOP + CHAIN_ROWS * CHAIN_ROW + 20 + HAND_ROW * (players as i32 + 1) + 70) as u32
}

fn status_line(t: &Table) -> String {
    let scores: Vec<String> = t.scores.iter().take(t.players).map(u32::to_string).collect();
    let scores = scores.join(", ");
    if let Some(o) = t.outcome {
        return match o {
            Outcome::Win { player } => format!("match over: player {player} wins · scores {scores}"),
            Outcome::Draw if t.openspiel => format!("match over: a draw, the hand tied on pips · scores {scores}"),
            Outcome::Draw => format!("match over: a draw after {} rounds · scores {scores}", t.rounds),
        };
    }
    if t.round_over {
        let end = match t.last_round {
            Some(r) => {
                let how = match r.kind {
                    RoundEndKind::Domino { player } => format!("player {player} went out"),
                    RoundEndKind::Block => "blocked".to_string(),
                };
                match r.winner {
                    Some(w) => format!("{how}, player {w} scores {}", r.points),
                    None => format!("{how}, nobody scores"),
                }
            }
            None => "round over".to_string(),
        };
        return format!("round {} over: {end} · scores {scores} · the next deal is next", t.rounds);
    }
    if t.dealing() {
        return format!("round {}: dealing, {} of {} tiles dealt", t.rounds + 1, t.dealt(), t.players * t.hand);
    }
    let drawn = match t.drawn {
        0 => String::new(),
        k => format!(" (drew {})", tiles(k)),
    };
    let opening = if t.links.is_empty() { ", to open the round" } else { "" };
    format!("round {}: player {} to play{opening}{drawn}", t.rounds + 1, t.to_move)
}

fn sight_line(t: &Table) -> String {
    let sight = match t.observer {
        Some(o) if t.round_over => format!("seen by player {o}: the round is over, every hand is shown"),
        Some(o) => format!("seen by player {o}: the other hands and the boneyard face down"),
        None => "revealed: every hand and the boneyard face up".to_string(),
    };
    if t.openspiel {
        return format!("{sight} · one hand (rules=openspiel)");
    }
    format!("{sight} · match to {}", t.target)
}

/// The caption's first line of a view: the round and who is to play, or
/// how the round or the match ended.
pub fn view_status(view: View) -> String {
    status_line(&Table::of(view))
}

/// The caption's line of who sees what in a view, and the match's target.
pub fn view_sight(view: View) -> String {
    sight_line(&Table::of(view))
}

/// What `seat` sees of move `m` played in `before` (`None`: everything):
/// the move's text (`6-4L`, `pass`, `+6-4` a draw, `6-4>1` a deal), except
/// that a tile dealt to or drawn by another player is `?` (`?>1`, `+?`).
pub fn seen_move(before: &State, m: Move, seat: Option<usize>) -> String {
    let hidden = |to: usize| seat.is_some_and(|s| s != to);
    match m {
        Move::Deal { to, .. } if hidden(usize::from(to)) => format!("?>{to}"),
        Move::Draw { .. } if hidden(before.to_move()) => "+?".to_string(),
        m => m.to_string(),
    }
}

/// A move's label in a viewer's move list, as `seat` sees it
/// ([`seen_move`]): `3. deal ?>1`, `20. player 0 draws +6-4`,
/// `21. player 1 6-4L`.
pub fn move_label(ply: usize, before: &State, m: Move, seat: Option<usize>) -> String {
    let seen = seen_move(before, m, seat);
    match m {
        Move::Deal { .. } => format!("{ply}. deal {seen}"),
        Move::Draw { .. } => format!("{ply}. player {} draws {seen}", before.to_move()),
        Move::Play { .. } | Move::Pass => format!("{ply}. player {} {seen}", before.to_move()),
    }
}

/// `1 tile`, `0 tiles`, `7 tiles`.
fn tiles(n: usize) -> String {
    if n == 1 { "1 tile".to_string() } else { format!("{n} tiles") }
}

/// Draws a frame as an SVG document (UTF-8, no XML declaration).
pub fn svg(frame: &Frame) -> String {
    let t = Table::of(frame.view);
    let h = height(t.players);
    let mut s = String::with_capacity(24 * 1024);
    canvas::open(&mut s, WIDTH, h, "dominoes-table", &[(t.data.0, &t.data.1)]);
    canvas::background(&mut s, WIDTH, h, BACKGROUND);
    canvas::text(&mut s, "caption", X0, 30, 16, TABLE_INK, Anchor::Start, &status_line(&t));
    chain_rows(&mut s, &t, frame.mark_last);
    let mut y = CHAIN_TOP + CHAIN_ROWS * CHAIN_ROW + 20;
    let label = if t.openspiel { "out of play" } else { "boneyard" };
    row(&mut s, y, label, t.boneyard, "boneyard", &tiles(t.boneyard.len()), false);
    for p in 0..t.players {
        y += HAND_ROW;
        let to_move = !t.round_over && t.outcome.is_none() && !t.dealing() && p == t.to_move;
        let who = if t.observer == Some(p) { format!("player {p} (observer)") } else { format!("player {p}") };
        let detail = format!("{} · score {}", tiles(t.hands[p].len()), t.scores[p]);
        row(&mut s, y, &who, t.hands[p], &format!("hand{p}"), &detail, to_move);
    }
    let y = y + HAND_ROW + 18;
    canvas::text(&mut s, "caption", X0, y, 12, TABLE_INK, Anchor::Start, &sight_line(&t));
    if let Some(note) = frame.note {
        canvas::text(&mut s, "note", X0, y + 20, 12, TABLE_INK, Anchor::Start, &canvas::one_line(note, 130));
    }
    canvas::close(&mut s);
    s
}

/// The width a link takes along the chain (a double lies across).
const fn link_width(l: &Link) -> i32 {
    if l.left == l.right { HALF } else { 2 * HALF }
}

fn chain_rows(s: &mut String, t: &Table, mark_last: bool) {
    let right_edge = WIDTH as i32 - X0;
    let _ = write!(
        s,
        "<rect class=\"chain-area\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"10\" fill=\"#285d44\"/>",
        X0 - 8,
        CHAIN_TOP - 8,
        right_edge - X0 + 16,
        CHAIN_ROWS * CHAIN_ROW + 6
    );
    let Some((left, right)) = t.ends else {
        canvas::text(s, "", X0 + 10, CHAIN_TOP + CHAIN_ROW, 14, TABLE_INK, Anchor::Start, "the chain is empty");
        return;
    };
    let last = t.links.iter().map(|l| l.order).max();
    canvas::text(s, "end", X0, CHAIN_TOP + 30, 12, TABLE_INK, Anchor::Start, &format!("left end {left}"));
    let (mut x, mut r) = (X0 + 90, 0);
    for (l, (b, row)) in t.links.iter().zip(link_boxes(&t.links)) {
        if row != r {
            // The chain goes on at the start of the next row.
            canvas::text(s, "", x + 2, CHAIN_TOP + r * CHAIN_ROW + 30, 14, TABLE_INK, Anchor::Start, "→");
            r = row;
            canvas::text(s, "", X0, CHAIN_TOP + r * CHAIN_ROW + 30, 14, TABLE_INK, Anchor::Start, "→");
        }
        let extra = format!(" data-player=\"{}\" data-order=\"{}\"", l.player, l.order);
        face(s, b.x, b.y, b.w, b.h, (l.left, l.right), l.tile, "chain", &extra);
        if mark_last && Some(l.order) == last {
            canvas::ring(s, "last", b.x - 4, b.y - 4, b.w + 8, b.h + 8);
        }
        x = b.x + b.w + 4;
    }
    let end_y = CHAIN_TOP + r * CHAIN_ROW + 30;
    canvas::text(s, "end", x + 6, end_y, 12, TABLE_INK, Anchor::Start, &format!("right end {right}"));
}

/// Where each link of the chain lies (its box and its row): left to right
/// from the first row, going on at the start of the next row when a row
/// is full (the last row takes the rest).
fn link_boxes(links: &[Link]) -> Vec<(Region, i32)> {
    let right_edge = WIDTH as i32 - X0;
    let (mut x, mut r) = (X0 + 90, 0);
    let mut out = Vec::with_capacity(links.len());
    for l in links {
        let w = link_width(l);
        if x + w > right_edge - 8 && r + 1 < CHAIN_ROWS {
            r += 1;
            x = X0 + 20;
        }
        let mid = CHAIN_TOP + r * CHAIN_ROW + HALF;
        let (y, h) = if l.left == l.right { (mid - HALF, 2 * HALF) } else { (mid - HALF / 2, HALF) };
        out.push((Region::new(x, y, w, h), r));
        x += w + 4;
    }
    out
}

/// The top edge of player `p`'s hand row.
const fn hand_top(p: usize) -> i32 {
    CHAIN_TOP + CHAIN_ROWS * CHAIN_ROW + 20 + (p as i32 + 1) * HAND_ROW
}

/// The box of the `i`-th of `n` tiles of a row whose top is at `y`:
/// upright, side by side, narrower when a long row (a boneyard being
/// dealt) would not fit.
const fn row_tile(y: i32, i: usize, n: usize) -> Region {
    let n = n as i32;
    let room = WIDTH as i32 - X0 - TILES_X;
    let pitch = if n * (HALF + 4) <= room { HALF + 4 } else { room / if n > 1 { n } else { 1 } };
    let (w, h) = if pitch >= HALF + 4 { (HALF, 2 * HALF) } else { (pitch - 3, 2 * (pitch - 3)) };
    Region::new(TILES_X + i as i32 * pitch, y + (HAND_ROW - 8 - h) / 2, w, h)
}

/// Where a player clicks to name the decision `m` of `s` on its picture
/// with every hand face up: the tile in the mover's hand, then the link
/// at the end it goes against (nothing more for the round's first play);
/// nothing for a pass or a chance outcome.
pub fn regions(s: &State, m: Move) -> Vec<Region> {
    let Move::Play { tile, end } = m else { return Vec::new() };
    let p = s.to_move();
    let hand = s.hand(p);
    let Some(i) = hand.iter().position(|t| t == tile) else { return Vec::new() };
    let mut out = vec![row_tile(hand_top(p), i, hand.len())];
    let links = chain(s.history());
    let boxes = link_boxes(&links);
    let at = match end {
        End::Left => boxes.first(),
        End::Right => boxes.last(),
    };
    out.extend(at.map(|&(b, _)| b));
    out
}

/// A tile face up: `ends.0` on its left (or top) half, `ends.1` on the other.
#[allow(clippy::too_many_arguments)]
fn face(s: &mut String, x: i32, y: i32, w: i32, h: i32, ends: (u8, u8), tile: Tile, place: &str, extra: &str) {
    let _ = write!(
        s,
        "<g class=\"tile\" data-tile=\"{tile}\" data-place=\"{place}\"{extra}><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" \
height=\"{h}\" rx=\"4\" fill=\"{FACE}\" stroke=\"#111\" stroke-width=\"1.5\"/>"
    );
    let side = w.min(h);
    let r = side as f32 / 11.0;
    if w >= h {
        let _ = write!(
            s,
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#555\" stroke-width=\"1.2\"/>",
            x + w / 2,
            y + 3,
            y + h - 3
        );
        canvas::pips(s, ends.0, x + w / 4, y + h / 2, side, r, INK);
        canvas::pips(s, ends.1, x + 3 * w / 4, y + h / 2, side, r, INK);
    } else {
        let _ = write!(
            s,
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#555\" stroke-width=\"1.2\"/>",
            x + 3,
            y + h / 2,
            x + w - 3
        );
        canvas::pips(s, ends.0, x + w / 2, y + h / 4, side, r, INK);
        canvas::pips(s, ends.1, x + w / 2, y + 3 * h / 4, side, r, INK);
    }
    s.push_str("</g>");
}

/// A tile face down: nothing of its value is written.
fn back(s: &mut String, x: i32, y: i32, w: i32, h: i32, place: &str) {
    let _ = write!(
        s,
        "<g class=\"tile-back\" data-place=\"{place}\"><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"4\" \
fill=\"{BACK}\" stroke=\"#111\" stroke-width=\"1.5\"/><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"2\" \
fill=\"none\" stroke=\"#c9a0a0\" stroke-width=\"1\"/></g>",
        x + 3,
        y + 3,
        w - 6,
        h - 6
    );
}

/// A labelled row of tiles (a hand, the boneyard), its top at `y`.
fn row(s: &mut String, y: i32, label: &str, seen: Seen, place: &str, detail: &str, to_move: bool) {
    let _ = write!(
        s,
        "<g class=\"row\" data-place=\"{place}\" data-count=\"{}\" data-face=\"{}\" data-to-move=\"{to_move}\">\
<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"8\" fill=\"#285d44\" stroke=\"{}\" stroke-width=\"{}\"/>",
        seen.len(),
        if matches!(seen, Seen::Up(_)) { "up" } else { "down" },
        X0 - 8,
        y,
        WIDTH as i32 - 2 * X0 + 16,
        HAND_ROW - 8,
        if to_move { TURN } else { "#1d4834" },
        if to_move { 4 } else { 1 }
    );
    if to_move {
        canvas::turn_mark(s, X0 + 6, y + 22, TURN);
    }
    let lx = X0 + if to_move { 14 } else { 0 };
    canvas::text(s, "row-name", lx, y + 26, 14, TABLE_INK, Anchor::Start, label);
    canvas::text(s, "row-detail", X0, y + 46, 12, TABLE_INK, Anchor::Start, detail);
    let n = seen.len();
    match seen {
        Seen::Up(tiles) => {
            for (i, tile) in tiles.iter().enumerate() {
                let b = row_tile(y, i, n);
                face(s, b.x, b.y, b.w, b.h, tile.ends(), tile, place, "");
            }
        }
        Seen::Down(k) => {
            for i in 0..k {
                let b = row_tile(y, i, n);
                back(s, b.x, b.y, b.w, b.h, place);
            }
        }
    }
    s.push_str("</g>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use dominoes_rules::Variant;

    /// A 2-player match dealt and played for `plies` decisions by always
    /// choosing the first outcome or move (deterministic).
    fn played(variant: &str, plies: usize) -> State {
        let mut s = State::start(Variant::parse(variant).unwrap());
        let (mut v, mut c) = (Vec::new(), Vec::new());
        let mut decisions = 0;
        let mut k = 7u64;
        while decisions < plies && s.outcome().is_none() {
            if s.is_chance() {
                s.chance_outcomes(&mut c);
                k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let (m, _) = c[(k >> 33) as usize % c.len()];
                s.play_unchecked(m);
            } else {
                s.legal_moves(&mut v);
                s.play_unchecked(v[decisions % v.len()]);
                decisions += 1;
            }
        }
        s
    }

    fn attribute_values<'a>(svg: &'a str, attr: &str) -> Vec<&'a str> {
        let key = format!("{attr}=\"");
        svg.match_indices(&key).map(|(i, _)| &svg[i + key.len()..]).map(|r| &r[..r.find('"').unwrap()]).collect()
    }

    #[test]
    fn one_tile_is_one_tile() {
        assert_eq!((tiles(0), tiles(1), tiles(7)), ("0 tiles".into(), "1 tile".into(), "7 tiles".into()));
        // A hand played down to one tile, in the picture.
        let s = (1..200)
            .map(|n| played("", n))
            .find(|s| !s.round_over() && (0..2).any(|p| s.hand(p).len() == 1))
            .expect("a hand of one tile");
        let svg = svg(&Frame { view: View::Revealed(&s), mark_last: false, note: None });
        assert!(svg.contains(">1 tile · score "), "{svg}");
        assert!(!svg.contains(" 1 tiles") && !svg.contains(">1 tiles"), "{svg}");
    }

    #[test]
    fn the_chain_is_rebuilt_from_the_history() {
        for plies in [1, 4, 9, 15] {
            let s = played("", plies);
            let links = chain(s.history());
            assert_eq!(links.len(), s.chain().len(), "{s}");
            if let (Some(first), Some(last)) = (links.first(), links.last()) {
                assert_eq!(Some((first.left, last.right)), s.ends(), "{s}");
            }
            for w in links.windows(2) {
                assert_eq!(w[0].right, w[1].left, "neighbours match: {s}");
            }
        }
    }

    #[test]
    fn an_observer_sees_his_hand_and_counts_of_the_rest() {
        let s = played("", 6);
        assert!(s.outcome().is_none() && !s.round_over(), "mid-round: {s}");
        for observer in 0..2 {
            let o = s.observation(observer);
            let svg = svg(&Frame { view: View::Observer(&o), mark_last: true, note: None });
            let shown: Vec<&str> = attribute_values(&svg, "data-tile");
            let mut expected: Vec<String> =
                s.hand(observer).iter().chain(s.chain().iter()).map(|t| t.to_string()).collect();
            let mut shown_sorted: Vec<String> = shown.iter().map(|t| t.to_string()).collect();
            expected.sort();
            shown_sorted.sort();
            assert_eq!(shown_sorted, expected, "exactly the observer's hand and the chain, face up");
            let hidden = s.hand(1 - observer).union(s.boneyard());
            for t in hidden.iter() {
                assert!(!svg.contains(&format!("\"{t}\"")), "hidden tile {t} is in the picture");
            }
            let backs = svg.matches("class=\"tile-back\"").count();
            assert_eq!(backs, s.hand(1 - observer).len() + s.boneyard().len());
            assert!(svg.contains(&format!("data-observation=\"o{observer} ")));
            assert!(!svg.contains("data-state="));
            assert_eq!(svg.matches("class=\"last\"").count(), 1);
        }
    }

    #[test]
    fn revealed_shows_every_tile() {
        let s = played("players=3", 5);
        let svg = svg(&Frame::new(View::Revealed(&s)));
        assert_eq!(svg.matches("class=\"tile\"").count(), 28, "every tile face up: {s}");
        assert_eq!(svg.matches("class=\"tile-back\"").count(), 0);
        assert_eq!(svg.matches("class=\"row\"").count(), 4, "the boneyard and 3 hands");
        assert!(svg.contains("revealed: every hand"));
    }

    #[test]
    fn an_openspiel_hand_ends_as_its_outcome_says() {
        // The hand is the game: its scorer wins below any target, and a tie
        // on pips (here going out against a lone 0-0) is a draw.
        let won: State = "rules=openspiel matchover 0 0 8,0 1 -/0-0.6-2 \
            1-0.2-0.2-2.3-0.3-2.3-3.4-0.4-1.5-0.5-1.5-2.6-0.6-1.6-5 0:3-1L,1:1-1R,0:6-3L,1:6-6L,0:2-1R,1:6-4L,\
            0:4-3L,1:4-2R,0:5-3L,1:4-4R,0:5-5L,1:pass,0:5-4L d0/w0/8/0.8/0.2"
            .parse()
            .unwrap();
        let tied: State = "rules=openspiel matchover 0 0 0,0 1 -/0-0 \
            1-0.1-1.2-0.2-1.3-2.3-3.4-0.4-3.5-3.6-0.6-2.6-3.6-4.6-5 0:5-2L,1:5-5L,0:2-2R,1:5-4L,0:4-1L,1:4-2R,\
            0:3-1L,1:3-0L,0:5-0L,1:5-1L,0:6-1L,1:4-4R,0:6-6L d0/w-/0/0.0/0.1"
            .parse()
            .unwrap();
        for (s, want) in [(won, "match over: player 0 wins · scores 8, 0"), (tied, "a draw, the hand tied on pips")] {
            for view in [View::Revealed(&s), View::Observer(&s.observation(1))] {
                assert!(view_status(view).contains(want), "{}", view_status(view));
                assert!(view_sight(view).ends_with("one hand (rules=openspiel)"), "{}", view_sight(view));
            }
        }
    }

    #[test]
    fn the_start_and_a_finished_round_draw() {
        let s = State::start(Variant::default());
        let svg = svg(&Frame::new(View::Observer(&s.observation(0))));
        assert!(svg.contains("the chain is empty") && svg.contains("dealing, 0 of 14"), "{svg}");
        assert_eq!(svg.matches("class=\"tile-back\"").count(), 28, "the undealt tiles");
        // Play on until a round ends: every hand is public then.
        let mut s = played("", 0);
        let (mut v, mut c) = (Vec::new(), Vec::new());
        while !s.round_over() {
            if s.is_chance() {
                s.chance_outcomes(&mut c);
                s.play_unchecked(c[0].0);
            } else {
                s.legal_moves(&mut v);
                s.play_unchecked(v[0]);
            }
        }
        let o = s.observation(0);
        let svg = super::svg(&Frame::new(View::Observer(&o)));
        let in_hands: usize = (0..2).map(|p| s.hand(p).len()).sum();
        assert_eq!(svg.matches("data-place=\"hand").count() - 2, in_hands, "every hand face up (minus the 2 rows)");
        assert!(svg.contains("over:"), "{svg}");
    }
}
