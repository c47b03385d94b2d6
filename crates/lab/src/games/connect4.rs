//! Connect Four as a [`LabGame`] (`--game connect4`): the rules crate's
//! position as a [`game_search::Game`], with the game's own move order
//! (centre columns first) and the solver's shortcuts (a four found
//! without building the child, a win at once found without the move
//! list); the evaluation counts the lines of four each side can still
//! fill.
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
    /// Centre columns first: on 7 columns 4, then 3 and 5, then 2 and 6, …
    fn priority(s: &Position, m: Move) -> i32 {
        let w = i32::from(s.variant().width);
        -(2 * i32::from(m.column()) + 1 - w).abs()
    }
});

impl Solvable for Connect4 {
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

    fn wins_at_once(s: &Position) -> bool {
        let mut moves = Vec::with_capacity(9);
        s.legal_moves(&mut moves);
        moves.into_iter().any(|m| s.wins_with(m))
    }
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
    fn the_solver_agrees_with_plain_minimax_on_7x6_endgames() {
        // Random 7 × 6 positions of 20 to 36 discs where the side to move
        // has no win at once (those are answered before any search), each
        // solved exactly, distance included.
        let mut rng = testkit::XorShift64::new(57);
        let mut memo = HashMap::new();
        let mut solver = Solver::<Connect4>::with_table_mb(64);
        let (mut checked, mut kinds) = (0, [0usize; 3]);
        let want = if testkit::UNOPTIMISED { 100 } else { 2000 };
        while checked < want {
            // Few of the slow ones (plain minimax takes up to a second
            // from 20 discs): one in 400 at 20-22 discs, the rest 28-36.
            let stones = if checked % 400 == 0 { 20 + rng.below(3) } else { 28 + rng.below(9) } as u32;
            let Some(p) = random_open_position(stones, |n| rng.below(n)) else { continue };
            let want = brute(&p, &mut memo);
            let got = solver.solve(&p, 42);
            assert_eq!(scored(&p, got.verdict), want, "{p}: {:?}", got.verdict);
            kinds[usize::from(want > 0) + usize::from(want >= 0)] += 1;
            checked += 1;
        }
        assert!(kinds.iter().all(|&k| k > 0), "losses, draws and wins all met: {kinds:?}");
    }
}
