//! Connect Four as a [`LabGame`] (`--game connect4`): the rules crate's
//! position as a [`game_search::Game`], with the game's own move order
//! (threats first, then centre columns) and the solver's shortcuts, on the
//! bitboards: a four found without building the child, a win at once, the
//! moves that do not lose at once, a bound on the plies to a four, and a
//! win asked only on the winner's own plies; the evaluation counts the
//! lines of four each side can still fill.
//!
//! The position text is the rules crate's (`start`, or the columns played:
//! `4453`) on the default 7 × 6 board; on another board the variant comes
//! first, one space before it (`width=5,height=4 4453`), so that a text
//! read back is the same position, as Focus's texts carry their variant.
//!
//! This module never changes the rules: moves, ends, texts and keys come
//! from `connect4-rules`.

use super::learn::NetShape;
use super::{LabGame, TextError};
use connect4_rules::{MAX_SIDE, Move, Outcome, Position, Variant};
use game_search::Scores;
use game_search::solver::{Goal, Solvable};

/// Connect Four for the searches.
#[derive(Clone, Copy, Debug)]
pub struct Connect4;

super::rules_game!(Connect4, Position, Move; {
    /// The threats first, then the centre: the empty cells that would make
    /// four for the mover once `m` is played (open three-in-a-rows, as the
    /// fast solvers order their moves), ties broken centre first (on 7
    /// columns 4, then 3 and 5, then 2 and 6, …).
    fn priority(s: &Position, m: Move) -> i32 {
        let b = Board::of(s);
        let (current, mask) = s.bitboards();
        let cell = b.drop_cell(mask, m);
        let threats = b.empty(mask | cell) & b.fours_with(current | cell);
        let w = i32::from(b.width);
        16 * threats.count_ones() as i32 - (2 * i32::from(m.column()) + 1 - w).abs()
    }
});

/// The board's geometry for bitboard reasoning, in the rules crate's layout
/// ([`Position::bitboards`]): column `c` holds bits `c × (height + 1)` up,
/// with an empty bit above each column.
#[derive(Clone, Copy, Debug)]
struct Board {
    width: u8,
    /// Bits per column (height + 1).
    h1: u32,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every cell of the board.
    cells: u64,
}

impl Board {
    fn new(v: Variant) -> Board {
        let h1 = u32::from(v.height) + 1;
        let bottom = (0..u32::from(v.width)).fold(0u64, |b, c| b | 1 << (c * h1));
        Board { width: v.width, h1, bottom, cells: bottom * ((1 << v.height) - 1) }
    }

    /// The geometry of `s`'s board (the default board's without work).
    #[inline]
    fn of(s: &Position) -> Board {
        const DEFAULT: Board = Board { width: 7, h1: 7, bottom: 0x0408_1020_4081, cells: 0xfdfb_f7ef_dfbf };
        let v = s.variant();
        if v == Variant::default() { DEFAULT } else { Board::new(v) }
    }

    /// The empty cells.
    #[inline]
    fn empty(&self, mask: u64) -> u64 {
        self.cells & !mask
    }

    /// The cells a disc can be dropped into (the lowest empty cell of each
    /// column that is not full).
    #[inline]
    fn playable(&self, mask: u64) -> u64 {
        (mask + self.bottom) & self.cells
    }

    /// The cell `m` drops its disc into (legal `m`).
    #[inline]
    fn drop_cell(&self, mask: u64, m: Move) -> u64 {
        self.playable(mask) & self.column(m)
    }

    /// The cells of `m`'s column.
    #[inline]
    fn column(&self, m: Move) -> u64 {
        ((1u64 << (self.h1 - 1)) - 1) << (u32::from(m.column()) * self.h1)
    }

    /// The empty cells that complete a four with three of `own`'s discs
    /// (`own` a player's discs on a board that obeys gravity; other cells
    /// may come out too, callers keep the empty ones): each cell with three
    /// discs of `own` in line beside it, in each direction and each of the
    /// four places of the cell in the four. Vertically only the three below
    /// count: an empty cell has no disc above it. The empty bit above each
    /// column keeps lines from wrapping.
    #[inline]
    fn fours_with(&self, own: u64) -> u64 {
        let mut r = (own << 1) & (own << 2) & (own << 3);
        for s in [self.h1, self.h1 - 1, self.h1 + 1] {
            let (left, right) = ((own << s) & (own << (2 * s)), (own >> s) & (own >> (2 * s)));
            r |= left & ((own << (3 * s)) | (own >> s));
            r |= right & ((own >> (3 * s)) | (own << s));
        }
        r & self.cells
    }

    /// The fewest discs `own` must add to make four, where `blocked` (the
    /// rival's discs) may not be in the four: 0 if it holds one, 5 if no
    /// four is left open. Each line of four cells free of `blocked` counts
    /// `own`'s discs in it.
    fn discs_short(&self, own: u64, blocked: u64) -> u32 {
        let free = self.cells & !blocked;
        let mut best = 5;
        for s in [1, self.h1, self.h1 - 1, self.h1 + 1] {
            // Lines of four, by their first cell: all four cells free.
            let open = free & (free >> s) & (free >> (2 * s)) & (free >> (3 * s));
            if open == 0 {
                continue;
            }
            let (a, b, c, d) = (own & open, (own >> s) & open, (own >> (2 * s)) & open, (own >> (3 * s)) & open);
            let one = a | b | c | d;
            let two = (a & b) | (c & d) | ((a | b) & (c | d));
            let three = (a & b & (c | d)) | (c & d & (a | b));
            let four = a & b & c & d;
            let short = if four != 0 {
                0
            } else if three != 0 {
                1
            } else if two != 0 {
                2
            } else if one != 0 {
                3
            } else {
                4
            };
            best = best.min(short);
        }
        best
    }

    /// A lower bound on the plies after which `own` can have made four
    /// (the mover's discs are `own` if `to_move`), `u32::MAX` if never:
    /// its own moves come on odd plies from now if it is to move, even
    /// plies otherwise, and each adds one disc. With one disc short, the
    /// finishing cell must be playable by then: now for the mover (ply 1),
    /// or after one rival disc (ply 2), which can only fill the cell below.
    fn plies_to_four(&self, own: u64, mask: u64, to_move: bool) -> u32 {
        let threats = self.fours_with(own) & self.empty(mask);
        let playable = self.playable(mask);
        let first = u32::from(!to_move) + 1;
        if threats != 0 {
            let soon = if to_move { playable } else { playable | (playable << 1) };
            return if threats & soon != 0 { first } else { first + 2 };
        }
        match self.discs_short(own, mask & !own) {
            0 => 0,
            5 => u32::MAX,
            // Two or more short (one short is a threat cell, above):
            // that many own moves.
            k => first + 2 * (k - 1),
        }
    }
}

impl Solvable for Connect4 {
    /// The threats order moves better than the moves that refuted a
    /// sibling: with killers first, 6.5 times the nodes on 30 positions
    /// of 14-17 discs.
    const KILLERS: bool = false;

    /// At least a draw is asked only where the board is to be filled
    /// (`same_question`): a win's node seldom finds a fact for it.
    const OTHER_GOAL: bool = false;

    /// Two or three plies from the horizon a node's subtree (a few
    /// bitboard tests a move) costs less than a look-up in a large table:
    /// 7% less CPU time on 100 positions of 14-17 discs, 9% more nodes.
    const TABLE_DEPTH: u32 = 4;

    fn result_after(s: &Position, m: Move) -> Option<Scores> {
        let players = s.players();
        if s.wins_with(m) {
            Some(Outcome::Win { player: s.to_move() }.scores(players))
        } else if s.ply() as usize + 1 == s.variant().cells() {
            Some(Outcome::Draw.scores(players))
        } else {
            None
        }
    }

    /// Over after `m` only if `m` makes four or fills the board.
    fn may_reach(s: &Position, m: Move, _player: usize, _goal: Goal) -> bool {
        s.ply() as usize + 1 == s.variant().cells() || s.wins_with(m)
    }

    /// A win: `Board::plies_to_four`. At least a draw: that, or the
    /// board full (a draw comes no sooner).
    fn min_plies(s: &Position, player: usize, goal: Goal) -> u32 {
        match s.outcome() {
            Some(Outcome::Win { player: w }) => return if w == player { 0 } else { u32::MAX },
            Some(Outcome::Draw) => return if goal == Goal::AtLeastDraw { 0 } else { u32::MAX },
            None => {}
        }
        let b = Board::of(s);
        let (current, mask) = s.bitboards();
        let to_move = player == s.to_move();
        let own = if to_move { current } else { current ^ mask };
        let win = b.plies_to_four(own, mask, to_move);
        match goal {
            Goal::Win => win,
            Goal::AtLeastDraw => win.min(left(s)),
        }
    }

    fn wins_at_once(s: &Position) -> bool {
        let b = Board::of(s);
        let (current, mask) = s.bitboards();
        b.fours_with(current) & b.playable(mask) != 0
    }

    /// The moves that do not lose at once (as the fast solvers prune): if
    /// the rival has a four to make on a playable cell, only the move onto
    /// that cell (none if there are two: the rival makes the other); never
    /// a move onto the cell below one of the rival's finishing cells. Each
    /// move left out lets the rival make four on the next ply, and the
    /// game goes on after it (the rival's cell is still empty); where the
    /// mover wins at once, every move is tried (the solver answers that
    /// before it asks).
    fn moves_to_try(s: &Position, moves: &[Move]) -> u64 {
        let b = Board::of(s);
        let (current, mask) = s.bitboards();
        let playable = b.playable(mask);
        let rival = b.fours_with(current ^ mask) & b.empty(mask);
        let forced = playable & rival;
        let ok = (match forced.count_ones() {
            0 => playable,
            1 => forced,
            _ => 0,
        }) & !(rival >> 1);
        if ok != playable && b.fours_with(current) & playable != 0 {
            return u64::MAX;
        }
        moves.iter().enumerate().fold(0, |keep, (i, &m)| keep | u64::from(ok & b.column(m) != 0) << i)
    }

    /// Only the player's own moves make its four (on every other ply from
    /// now), and the game is over when the board is full: a win within
    /// `depth` plies is a win within the last of the player's plies up to
    /// `depth` and the plies left; at least a draw short of the full board
    /// is a win.
    fn same_question(s: &Position, player: usize, goal: Goal, depth: u32) -> (Goal, u32) {
        let left = left(s);
        // The player's plies are the odd ones if it is to move.
        let own_ply = |d: u32| if d % 2 == u32::from(player == s.to_move()) { d } else { d.saturating_sub(1) };
        match goal {
            Goal::AtLeastDraw if depth >= left => (Goal::AtLeastDraw, left),
            _ => (Goal::Win, own_ply(depth.min(left))),
        }
    }
}

/// The plies left before the board is full.
fn left(s: &Position) -> u32 {
    (s.variant().cells() as u32).saturating_sub(s.ply())
}

/// Weights of the evaluation, in centi-units: a line of four (a window
/// of four cells in a row, column or diagonal) that holds one, two or
/// three discs of a side and none of the other's.
const LINE: [i32; 3] = [4, 20, 90];

/// The evaluation's three terms for `player` against the other, in
/// centi-units, in [`Connect4::NET_FEATURES`]'s order: the open lines
/// with one, two and three of the side's discs, the other's subtracted.
fn terms(s: &Position, player: usize) -> [i32; 3] {
    let v = s.variant();
    let (w, h) = (v.width as i32, v.height as i32);
    let mut t = [0; 3];
    for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for c in 0..w {
            for r in 0..h {
                let (ec, er) = (c + 3 * dc, r + 3 * dr);
                if ec >= w || er < 0 || er >= h {
                    continue;
                }
                let mut n = [0usize; 2];
                for k in 0..4 {
                    if let Some(p) = s.disc((c + k * dc) as u8, (r + k * dr) as u8) {
                        n[p] += 1;
                    }
                }
                let (mine, theirs) = (n[player], n[1 - player]);
                if theirs == 0 && (1..4).contains(&mine) {
                    t[mine - 1] += LINE[mine - 1];
                } else if mine == 0 && (1..4).contains(&theirs) {
                    t[theirs - 1] -= LINE[theirs - 1];
                }
            }
        }
    }
    t
}

/// The network's inputs: cell (column × [`MAX_SIDE`] + row, on every
/// board) × the disc's owner (0 the side to move).
const CELLS: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// A position text of the lab: the rules crate's text, after the variant
/// and one space on a board other than 7 × 6.
fn text_of(s: &Position) -> String {
    match s.variant().to_text() {
        v if v.is_empty() => s.to_string(),
        v => format!("{v} {s}"),
    }
}

/// Reads [`text_of`]'s form; a variant written out that is the default or
/// not in its canonical form (`width=7`, `height=4,width=5`) is refused,
/// so that an accepted text is written back byte for byte.
fn read_text(text: &str) -> Result<Position, TextError> {
    let bad = |message: String| TextError::Position { message };
    let (variant, moves) = match text.split_once(' ') {
        None => (Variant::default(), text),
        Some((vt, moves)) => {
            let v = Variant::parse(vt).map_err(|e| bad(format!("variant `{vt}`: {e}")))?;
            if vt.is_empty() || v.to_text() != vt {
                let canonical =
                    if v.to_text().is_empty() { "nothing before the moves".into() } else { format!("`{v}`") };
                return Err(bad(format!("variant `{vt}` is not written in its canonical form ({canonical})")));
            }
            (v, moves)
        }
    };
    Position::parse(moves, variant).map_err(|e| bad(e.to_string()))
}

super::lab_face!(Connect4);

impl LabGame for Connect4 {
    fn plies_left(s: &Position) -> Option<u32> {
        Some((s.variant().cells() as u32).saturating_sub(s.ply()))
    }

    fn seats(_players: usize) -> &'static [&'static str] {
        &["first", "second"]
    }
    fn start(variant: &str) -> Result<Position, TextError> {
        let v =
            Variant::parse(variant).map_err(|e| TextError::Variant { text: variant.into(), message: e.to_string() })?;
        Ok(Position::start(v))
    }
    fn variant_text(s: &Position) -> String {
        s.variant().to_text()
    }
    fn variant_help() -> &'static str {
        Variant::HELP
    }
    fn parse_position(text: &str) -> Result<Position, TextError> {
        read_text(text)
    }
    fn position_text(s: &Position) -> String {
        text_of(s)
    }
    fn parse_move(s: &Position, text: &str) -> Result<Move, TextError> {
        s.parse_move(text).map_err(|e| TextError::Move { text: text.into(), message: e.to_string() })
    }
    fn move_text(m: Move) -> String {
        m.to_string()
    }
    fn board(s: &Position, colour: bool) -> String {
        s.board_text(colour)
    }
    fn perft(s: &Position, depth: u32) -> u64 {
        connect4_rules::perft(s, depth)
    }
    fn ply(s: &Position) -> u32 {
        s.ply()
    }
    fn evaluate(s: &Position, player: usize) -> i32 {
        terms(s, player).iter().sum()
    }
    /// Fitted by `cargo run --profile ci --example eval_scale -- connect4
    /// 2000 1`: 2,000 games of `ab:depth=1` against itself after 8 random
    /// plies; 16,565 positions gave 364.7 (held-out log-loss 0.675, a
    /// coin's 0.693). Seed 3 gave 516.8 (0.687): games of depth 1 are
    /// short and end in blunders; with `ab:depth=3` (seed 1) the fit is
    /// 175.2 (0.640), so the scale is known within a factor of two.
    fn eval_scale(_: &Position) -> f64 {
        EVAL_SCALE
    }
    /// Every disc by its cell and its owner relative to the side to move:
    /// 162 inputs on every board.
    const NET: Option<NetShape> =
        Some(NetShape { game: "connect4", inputs: 2 * CELLS, max_active: connect4_rules::MAX_CELLS });
    const NET_FEATURES: &'static [&'static str] = &["ones", "twos", "threes"];
    fn net_inputs(s: &Position, out: &mut Vec<u16>) {
        out.clear();
        let v = s.variant();
        let me = s.to_move();
        for c in 0..v.width {
            for r in 0..s.column_height(c) {
                if let Some(p) = s.disc(c, r) {
                    let cell = usize::from(c) * usize::from(MAX_SIDE) + usize::from(r);
                    out.push((cell * 2 + usize::from(p != me)) as u16);
                }
            }
        }
    }
    fn net_features(s: &Position, out: &mut Vec<f32>) {
        let scale = Self::eval_scale(s);
        out.extend(terms(s, s.to_move()).map(|t| (f64::from(t) / scale) as f32));
    }
    fn table_legend() -> &'static str {
        "key: `X` a disc of the first player, `O` one of the second, `.` an empty cell; a move is the
     column's digit under the board.
"
    }
    fn move_forms() -> &'static str {
        "4 (drop a disc into column 4, counted from 1 on the left)"
    }
}

/// Connect Four measured by `senat metrics` ([`crate::metrics::records`]):
/// two sides (first 0, second 1), the values of the alpha-beta agents'
/// evaluation through the fitted logistic
/// ([`crate::metrics::records::lab_values`]), and two end reasons, both
/// rules: `four` (a side made four in a row) and `full` (the board filled
/// with no four, a draw).
impl crate::metrics::records::Measured for Connect4 {
    type State = Position;
    type Move = Move;

    fn measured_start(variant: &str) -> Result<Position, String> {
        Connect4::start(variant).map_err(|e| e.to_string())
    }
    fn profile(start: &Position) -> crate::metrics::Profile {
        use crate::metrics::{GameWords, Profile, Reason};
        let v = start.variant();
        let reasons = vec![
            Reason { name: "four", timeout: false, share: "share of games won by four in a row".into() },
            Reason {
                name: "full",
                timeout: false,
                share: format!(
                    "share of games drawn by a full board ({} cells) with no four: a rule, not a timeout",
                    v.cells()
                ),
            },
        ];
        let words = GameWords {
            first: "first, player 0".into(),
            unit: "plies",
            plies: "every disc dropped, the random opening plies of --book-plies included: the games file's \
                    `plies`"
                .into(),
            eval: format!(
                "each side's win probability by the alpha-beta agents' evaluation (the lines of four a side can \
                 still fill, weighted by the discs already in them, the side against the other) through the \
                 fixed logistic 1/(1+e^(-score/{})), the scale fitted to self-play results (`cargo run --profile \
                 ci --example eval_scale -- connect4 2000 1`)",
                Connect4::eval_scale(start)
            ),
            branching: "legal moves (open columns) at each ply".into(),
        };
        Profile::other(2, reasons, &words)
    }
    fn decider(s: &Position) -> Option<usize> {
        Some(s.to_move())
    }
    fn read_move(s: &Position, text: &str) -> Result<Move, String> {
        s.parse_move(text).map_err(|e| e.to_string())
    }
    fn play(s: &mut Position, m: Move) {
        s.play_unchecked(m);
    }
    fn legal_count(s: &Position) -> usize {
        s.count_moves()
    }
    fn values(s: &Position) -> crate::metrics::Values {
        crate::metrics::records::lab_values::<Connect4>(s)
    }
    fn end(s: &Position) -> Option<(Option<usize>, usize)> {
        match s.outcome()? {
            Outcome::Win { player } => Some((Some(player), 0)),
            Outcome::Draw => Some((None, 1)),
        }
    }
}

/// [`Connect4::eval_scale`]'s value (see there).
const EVAL_SCALE: f64 = 365.0;

/// A 7 × 6 position of `stones` discs played at random (`pick(n)` chooses
/// among `n` legal moves), if the game is not over and the side to move
/// has no win at once (the positions of the public solvers' test sets);
/// `None` otherwise.
pub fn random_open_position(stones: u32, mut pick: impl FnMut(usize) -> usize) -> Option<Position> {
    let mut p = Position::start(connect4_rules::Variant::default());
    while p.ply() < stones && !p.is_over() {
        let m = p.nth_move(pick(p.count_moves())).expect("a move");
        p.play_unchecked(m);
    }
    (!p.is_over() && p.ply() == stones && !Connect4::wins_at_once(&p)).then_some(p)
}

/// Connect Four's integer actions and tensor: the action is the column (0
/// the leftmost), the tensor three planes of `height × width` (the first
/// player's discs, the second's, the empty cells; row 0 the bottom).
impl super::encode::Encoded for Connect4 {
    fn encoding(s: &Position) -> super::encode::Encoding {
        let v = s.variant();
        super::encode::Encoding {
            players: 2,
            actions: usize::from(v.width),
            chance_outcomes: 0,
            max_plies: v.cells() as u64,
            tensor_shape: vec![3, usize::from(v.height), usize::from(v.width)],
        }
    }
    fn action_id(_s: &Position, m: Move) -> usize {
        usize::from(m.column())
    }
    fn tensor(s: &Position, _player: usize, out: &mut [f32]) {
        let v = s.variant();
        let (w, h) = (usize::from(v.width), usize::from(v.height));
        out[..3 * w * h].fill(0.0);
        for row in 0..h {
            for col in 0..w {
                let plane = s.disc(col as u8, row as u8).unwrap_or(2);
                out[(plane * h + row) * w + col] = 1.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ahash::AHashMap as HashMap;
    use connect4_rules::Variant;
    use game_search::solver::{Solver, Verdict};

    /// Exact value by plain minimax over every line (memoised by board,
    /// no pruning, no move order), for the side to move: a win whose
    /// winning disc is dropped with `stones` discs already on the board
    /// scores `cells + 1 - stones` (a sooner win more, a later loss less
    /// badly), a loss the negative, a draw 0.
    fn brute(p: &Position, memo: &mut HashMap<u64, i32>) -> i32 {
        if let Some(&v) = memo.get(&p.key()) {
            return v;
        }
        let cells = p.variant().cells() as i32;
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let v = moves
            .iter()
            .map(|&m| {
                if p.wins_with(m) {
                    cells + 1 - p.ply() as i32
                } else {
                    let mut q = *p;
                    q.play_unchecked(m);
                    -brute(&q, memo)
                }
            })
            .max()
            .unwrap_or(0);
        memo.insert(p.key(), v);
        v
    }

    /// The solver's verdict on the same scale: a result `n` plies ahead has
    /// its last disc dropped with `ply + n - 1` discs on the board.
    fn scored(p: &Position, v: Verdict) -> i32 {
        let value = |n: u32| p.variant().cells() as i32 + 1 - (p.ply() as i32 + n as i32 - 1);
        match v {
            Verdict::Win(n) => value(n),
            Verdict::Loss(n) => -value(n),
            Verdict::Draw(_) => 0,
            Verdict::Unknown => panic!("undecided: {p}"),
        }
    }

    #[test]
    fn texts_carry_a_board_other_than_7_by_6() {
        let p = Connect4::parse_position("4453").unwrap();
        assert_eq!(Connect4::position_text(&p), "4453");
        assert_eq!(Connect4::position_text(&Connect4::start("").unwrap()), "start");
        let s = Connect4::start("height=4,width=5").unwrap();
        assert_eq!(Connect4::position_text(&s), "width=5,height=4 start");
        let q = Connect4::parse_position("width=5,height=4 4453").unwrap();
        assert_eq!((Connect4::position_text(&q), q.variant().cells()), ("width=5,height=4 4453".into(), 20));
        for bad in ["width=7 4453", "height=4,width=5 44", "width=5,height=4 46", "width=3 11", "", " 4453", "4453 "] {
            assert!(Connect4::parse_position(bad).is_err(), "{bad}");
        }
        assert_eq!(Connect4::move_text(Connect4::parse_move(&p, "7").unwrap()), "7");
    }

    #[test]
    fn the_evaluation_is_antisymmetric_and_likes_the_centre() {
        let start = Connect4::start("").unwrap();
        assert_eq!(Connect4::evaluate(&start, 0), 0);
        let centre = Connect4::parse_position("4").unwrap();
        let edge = Connect4::parse_position("1").unwrap();
        assert!(Connect4::evaluate(&centre, 0) > Connect4::evaluate(&edge, 0));
        let mut rng = testkit::XorShift64::new(5);
        for _ in 0..200 {
            let Some(p) = random_open_position(rng.below(30) as u32, |n| rng.below(n)) else { continue };
            assert_eq!(Connect4::evaluate(&p, 0), -Connect4::evaluate(&p, 1), "{p}");
            let mut on = Vec::new();
            Connect4::net_inputs(&p, &mut on);
            <Connect4 as LabGame>::NET.unwrap().assert_listing(&on, &p);
            assert_eq!(on.len(), p.ply() as usize);
        }
    }

    #[test]
    fn the_solver_agrees_with_plain_minimax() {
        // Every position of small boards' first plies, solved to the end.
        let mut seen = 0;
        for text in ["width=4,height=4", "width=5,height=4", "width=4,height=5"] {
            let v = Variant::parse(text).unwrap();
            let mut memo = HashMap::new();
            let mut solver = Solver::<Connect4>::with_table_mb(16);
            let mut stack = vec![Position::start(v)];
            let mut moves = Vec::new();
            while let Some(p) = stack.pop() {
                let want = brute(&p, &mut memo);
                let got = solver.solve(&p, v.cells() as u32);
                assert_eq!(scored(&p, got.verdict), want, "{text} {p}: {:?}", got.verdict);
                seen += 1;
                if p.ply() < 3 {
                    p.legal_moves(&mut moves);
                    for &m in &moves {
                        let mut q = p;
                        q.play_unchecked(m);
                        stack.push(q);
                    }
                }
            }
        }
        assert!(seen > 100, "{seen}");
    }

    #[test]
    fn the_solver_agrees_with_plain_minimax_on_7x6_positions_of_20_to_30_discs() {
        // Random 7 × 6 positions of 20 to 30 discs where the side to move
        // has no win at once (those are answered before any search), each
        // solved exactly, distance included, and its line played out.
        // Plain minimax costs about 1.3 s a position at 20 discs, 40 ms at
        // 24 and 0.3 ms at 30 (ci profile), so the counts fall as the
        // board empties: 2,070 positions, about 5 s in all.
        let per_count: [(u32, usize); 11] = [
            (20, 1),
            (21, 1),
            (22, 2),
            (23, 4),
            (24, 8),
            (25, 16),
            (26, 24),
            (27, 48),
            (28, 120),
            (29, 450),
            (30, 1396),
        ];
        let mut rng = testkit::XorShift64::new(57);
        let mut solver = Solver::<Connect4>::with_table_mb(64);
        let (mut checked, mut kinds) = (0, [0usize; 3]);
        for (stones, want) in per_count {
            let want = if testkit::UNOPTIMISED { want.div_ceil(20).min(4) } else { want };
            // One memo per disc count: positions of one count share little.
            let mut memo = HashMap::new();
            let mut n = 0;
            while n < want {
                let Some(p) = random_open_position(stones, |n| rng.below(n)) else { continue };
                let value = brute(&p, &mut memo);
                let got = solver.solve(&p, 42);
                assert_eq!(scored(&p, got.verdict), value, "{p}: {:?}", got.verdict);
                // A draw comes only with the board full.
                if let Verdict::Draw(d) = got.verdict {
                    assert_eq!(d, 42 - p.ply(), "{p}");
                }
                // The line ends the game as the verdict says, when it says
                // (a draw's line is the side to move's: at least a draw,
                // where the rival resists longest).
                let mut q = p;
                for &m in &got.pv {
                    assert!(q.is_legal(m), "{p}: line {:?}", got.pv);
                    q.play_unchecked(m);
                }
                let (me, rival) = (Outcome::Win { player: p.to_move() }, Outcome::Win { player: 1 - p.to_move() });
                let (plies, ends) = match got.verdict {
                    Verdict::Win(d) => (d, q.outcome() == Some(me)),
                    Verdict::Loss(d) => (d, q.outcome() == Some(rival)),
                    Verdict::Draw(d) => (d, q.outcome().is_some_and(|o| o != rival)),
                    Verdict::Unknown => unreachable!(),
                };
                assert!(ends && got.pv.len() as u32 == plies, "{p}: {:?}, line {:?}", got.verdict, got.pv);
                kinds[usize::from(value > 0) + usize::from(value >= 0)] += 1;
                n += 1;
                checked += 1;
            }
        }
        assert!(kinds.iter().all(|&k| k > 0), "losses, draws and wins all met: {kinds:?}");
        assert!(checked >= if testkit::UNOPTIMISED { 11 } else { 2000 }, "{checked}");
    }

    #[test]
    fn the_bitboard_hooks_agree_with_the_rules() {
        // Random positions of every length: the win at once, the moves
        // worth trying and the bound on a four against the rules' own
        // answers, one ply ahead.
        let mut rng = testkit::XorShift64::new(4);
        let mut moves = Vec::new();
        for _ in 0..if testkit::UNOPTIMISED { 200 } else { 5000 } {
            let stones = rng.below(42) as u32;
            let mut p = Position::start(Variant::default());
            while p.ply() < stones && !p.is_over() {
                p.play_unchecked(p.nth_move(rng.below(p.count_moves())).expect("a move"));
            }
            if p.is_over() {
                continue;
            }
            p.legal_moves(&mut moves);
            let wins = moves.iter().any(|&m| p.wins_with(m));
            assert_eq!(Connect4::wins_at_once(&p), wins, "{p}");
            let keep = Connect4::moves_to_try(&p, &moves);
            for (i, &m) in moves.iter().enumerate() {
                let mut q = p;
                q.play_unchecked(m);
                // A move left out: the game goes on and the rival wins at once.
                if keep >> i & 1 == 0 {
                    assert!(!q.is_over() && Connect4::wins_at_once(&q), "{p} {m}");
                }
                // Bounds: a four made by this move is within one ply.
                let me = p.to_move();
                assert!(Connect4::min_plies(&p, me, Goal::Win) <= 1 || !p.wins_with(m), "{p} {m}");
                // The bound never grows by more than the ply played.
                for player in 0..2 {
                    for goal in [Goal::Win, Goal::AtLeastDraw] {
                        let (before, after) =
                            (Connect4::min_plies(&p, player, goal), Connect4::min_plies(&q, player, goal));
                        assert!(before <= after.saturating_add(1), "{p} {m}: {player} {goal:?} {before} then {after}");
                    }
                }
            }
        }
    }
}
