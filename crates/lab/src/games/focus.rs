//! Focus as a [`LabGame`], for 2 players and for 4 in two partnerships
//! (`players=4`, the `focus4` game; the searches see two teams, so
//! alpha-beta is exact two-team minimax and MCTS backs up each player's
//! score). The evaluation counts controlled stacks, reserves and pieces.
//!
//! This module never changes the rules: moves, ends, texts and hashes come
//! from `focus-rules`.

use super::LabGame;
use super::learn::NetShape;
use focus_rules::{MAX_HEIGHT, Position, SQUARES, Variant};

/// Focus for the searches and the lab.
#[derive(Clone, Copy, Debug)]
pub struct Focus;

super::rules_game!(Focus, Position, focus_rules::Move);

/// Weights of the evaluation, in centi-units: a controlled stack, each
/// piece under its control, a reserve piece, a piece on the board.
const STACK: i32 = 100;
const HEIGHT: i32 = 10;
const RESERVE: i32 = 150;
const PIECE: i32 = 20;

/// The evaluation's four terms for `player`'s team against the others,
/// in centi-units, in [`Focus::NET_FEATURES`]'s order: controlled stacks,
/// pieces under control, reserve pieces, pieces on the board.
fn terms(s: &Position, player: usize) -> [i32; 4] {
    let me = s.team(player);
    let sign = |p: usize| if s.team(p) == me { 1 } else { -1 };
    // One pass over the board: controlled stacks and every piece.
    let [mut stacks, mut heights, mut reserves, mut pieces] = [0; 4];
    for &sq in SQUARES.iter() {
        let h = s.height(sq);
        if h == 0 {
            continue;
        }
        for level in 0..h {
            pieces += sign(s.piece(sq, level).expect("a level below the height")) * PIECE;
        }
        let c = sign(s.controller(sq).expect("a stack has a top"));
        stacks += c * STACK;
        heights += c * HEIGHT * h as i32;
    }
    for p in 0..s.players() {
        reserves += sign(p) * RESERVE * s.reserve(p) as i32;
    }
    [stacks, heights, reserves, pieces]
}

/// Reserve counts the network tells apart (more reads as the last).
const RESERVE_STEPS: usize = 16;
/// The network's board inputs: square × level from the top × player
/// relative to the side to move (0 the mover, 2 its partner with four).
const BOARD_INPUTS: usize = 64 * MAX_HEIGHT * 4;
super::lab_face!(Focus);

impl LabGame for Focus {
    fn seats(players: usize) -> &'static [&'static str] {
        if players == 4 { &["south", "west", "north", "east"] } else { &["white", "black"] }
    }
    super::rules_texts!(Position, Variant, focus_rules::perft);
    /// Fitted by `cargo run --profile ci --example eval_scale -- focus 2000 1`
    /// (and `focus4 2000 1`): 2,000 games of `ab:depth=1` against itself
    /// after 8 random plies; 85,574 positions gave 986.7 with two players
    /// (held-out log-loss 0.651, a coin's 0.693), 121,213 gave 969.0 with
    /// four (0.597). Seed 3 gave 960.7 and 936.2.
    fn eval_scale(s: &Position) -> f64 {
        if s.players() == 4 { 969.0 } else { 987.0 }
    }
    fn evaluate(s: &Position, player: usize) -> i32 {
        terms(s, player).iter().sum()
    }
    /// Every piece by its square, its level from the top of its stack and
    /// its player relative to the side to move, and each player's reserve
    /// (0 to 15, more read as 15) relative alike: 1,344 inputs.
    const NET: Option<NetShape> = Some(NetShape {
        game: "focus",
        inputs: BOARD_INPUTS + 4 * RESERVE_STEPS,
        max_active: SQUARES.len() * MAX_HEIGHT + 4,
    });
    const NET_FEATURES: &'static [&'static str] = &["stacks", "heights", "reserves", "pieces"];
    fn net_inputs(s: &Position, out: &mut Vec<u16>) {
        out.clear();
        let (me, n) = (s.to_move(), s.players());
        let rel = |p: usize| (p + n - me) % n;
        for &sq in SQUARES.iter() {
            let h = s.height(sq);
            for depth in 0..h {
                let p = s.piece(sq, h - 1 - depth).expect("a level below the height");
                out.push((((usize::from(sq) * MAX_HEIGHT + depth) * 4) + rel(p)) as u16);
            }
        }
        for p in 0..n {
            out.push((BOARD_INPUTS + rel(p) * RESERVE_STEPS + s.reserve(p).min(RESERVE_STEPS - 1)) as u16);
        }
    }
    fn net_features(s: &Position, out: &mut Vec<f32>) {
        let scale = Self::eval_scale(s);
        out.extend(terms(s, s.to_move()).map(|t| (f64::from(t) / scale) as f32));
    }
    fn capped(s: &Position) -> bool {
        s.capped()
    }
    fn table_legend() -> &'static str {
        "key: a square lists its stack bottom to top, as every Focus text does (`201'`: a piece of player 1
     on one of player 0 on one of player 2); the top piece, marked ' (bold in colour), controls the
     stack; `.` an empty square, blank a removed corner. Players: 0 white, 1 black; with 4: 0 south,
     1 west, 2 north, 3 east (teams 0+2, 1+3).
"
    }
    fn move_forms() -> &'static str {
        "d4-d6 (the top k pieces of d4 move k squares), +e5 (a reserve piece onto e5), pass"
    }
    fn extra_columns() -> &'static [&'static str] {
        &["reserves", "eliminated"]
    }
    fn extra(s: &Position) -> Vec<String> {
        let per = |f: &dyn Fn(usize) -> usize| (0..s.players()).map(|p| f(p).to_string()).collect::<Vec<_>>().join("/");
        vec![per(&|p| s.reserve(p)), per(&|p| s.eliminated(p))]
    }
}

/// Focus measured by `senat metrics` ([`crate::metrics::records`]): two
/// sides (the players, or with 4 players the teams {0,2} and {1,3}), the
/// values of the alpha-beta agents' evaluation through the fitted logistic
/// ([`crate::metrics::records::lab_values`]), and two end reasons:
/// `no-move` (a side cannot move: the rules' only decision) and `cap` (the
/// ply cap: Ludii's timeout).
impl crate::metrics::records::Measured for Focus {
    type State = Position;
    type Move = focus_rules::Move;

    fn measured_start(variant: &str) -> Result<Position, String> {
        Focus::start(variant).map_err(|e| e.to_string())
    }
    fn profile(start: &Position) -> crate::metrics::Profile {
        use crate::metrics::{GameWords, Profile, Reason};
        let four = start.players() == 4;
        let v = start.variant();
        let cap_end = if v.fix == focus_rules::Fix::Draw {
            "a win for player 0 (fix=draw); a side left without a move at exactly that ply is a no-move end"
        } else {
            "a draw"
        };
        let reasons = vec![
            Reason {
                name: "no-move",
                timeout: false,
                share: "share of games won by leaving the other side without a move (Focus's one rule end)".into(),
            },
            Reason {
                name: "cap",
                timeout: true,
                share: format!(
                    "share of games stopped by the ply cap ({} plies, every decision counted): {cap_end}. \
                     Ludii's timeout",
                    v.cap
                ),
            },
        ];
        let words = GameWords {
            first: if four { "south, player 0, for team 0 = south and north".into() } else { "white, player 0".into() },
            unit: "plies",
            plies: "every decision, the random opening plies of --book-plies, swaps and passes included: the \
                    games file's `plies`"
                .into(),
            eval: format!(
                "each side's win probability by the alpha-beta agents' evaluation (controlled stacks, pieces \
                 under control, reserves and pieces, the side's team against the other) through the fixed \
                 logistic 1/(1+e^(-score/{})), the scale fitted to self-play results (`cargo run --profile ci \
                 --example eval_scale -- {} 2000 1`)",
                Focus::eval_scale(start),
                if four { "focus4" } else { "focus" }
            ),
            branching: "legal moves at each ply, a lone pass counting 1".into(),
        };
        Profile::other(2, reasons, &words)
    }
    fn decider(s: &Position) -> Option<usize> {
        Some(s.team(s.to_move()))
    }
    fn read_move(s: &Position, text: &str) -> Result<focus_rules::Move, String> {
        s.parse_move(text).map_err(|e| e.to_string())
    }
    fn play(s: &mut Position, m: focus_rules::Move) {
        s.play_unchecked(m);
    }
    fn legal_count(s: &Position) -> usize {
        super::legal_moves::<Focus>(s).len()
    }
    fn values(s: &Position) -> crate::metrics::Values {
        crate::metrics::records::lab_values::<Focus>(s)
    }
    fn end(s: &Position) -> Option<(Option<usize>, usize)> {
        let winner = match s.outcome()? {
            focus_rules::Outcome::Draw => None,
            focus_rules::Outcome::Win { team } => Some(team),
        };
        // With fix=draw the cap is player 0's win: the rules say which end it was.
        Some((winner, usize::from(s.capped())))
    }
}

/// The index of a playable square among the 52 ([`SQUARES`]).
fn square_index(sq: focus_rules::Square) -> usize {
    SQUARES.iter().position(|&x| x == sq).unwrap_or(0)
}

/// The action ids of Focus: a step `from` (52) × direction (north, east,
/// south, west) × distance (1 to 5) first (1040), then an entry on each
/// square (52), the pass (1), and the opening swaps own × other square
/// (52 × 52), 3797 in all. The tensor: for each player, one plane per
/// stack level (bottom first) of the 8 × 8 board marking that player's
/// pieces, then a plane per player filled with its reserve over its start
/// total, then a plane per player filled with 1 for the player to move.
impl super::encode::Encoded for Focus {
    fn encoding(s: &Position) -> super::encode::Encoding {
        let n = s.players();
        super::encode::Encoding {
            players: n,
            actions: STEP_IDS + 52 + 1 + 52 * 52,
            chance_outcomes: 0,
            max_plies: u64::from(s.variant().cap),
            tensor_shape: vec![n * MAX_HEIGHT + 2 * n, 8, 8],
        }
    }
    fn action_id(_s: &Position, m: focus_rules::Move) -> usize {
        use focus_rules::Move;
        match m {
            Move::Step { from, to } => {
                let (df, dr) = (i32::from(to % 8) - i32::from(from % 8), i32::from(to / 8) - i32::from(from / 8));
                let (dir, dist) = match (df.signum(), dr.signum()) {
                    (0, 1) => (0, dr),
                    (1, 0) => (1, df),
                    (0, -1) => (2, -dr),
                    _ => (3, -df),
                };
                square_index(from) * 20 + dir * 5 + (dist.clamp(1, 5) as usize - 1)
            }
            Move::Enter { to } => STEP_IDS + square_index(to),
            Move::Pass => STEP_IDS + 52,
            Move::Swap { own, other } => STEP_IDS + 53 + square_index(own) * 52 + square_index(other),
        }
    }
    fn tensor(s: &Position, _player: usize, out: &mut [f32]) {
        let n = s.players();
        out[..(n * MAX_HEIGHT + 2 * n) * 64].fill(0.0);
        for &sq in SQUARES.iter() {
            for level in 0..s.height(sq) {
                if let Some(p) = s.piece(sq, level) {
                    out[(p * MAX_HEIGHT + level) * 64 + sq as usize] = 1.0;
                }
            }
        }
        let total = focus_rules::total_pieces(n) as f32 / n as f32;
        for p in 0..n {
            let reserve = s.reserve(p) as f32 / total;
            out[(n * MAX_HEIGHT + p) * 64..][..64].fill(reserve);
        }
        if s.outcome().is_none() {
            let p = s.to_move();
            out[(n * MAX_HEIGHT + n + p) * 64..][..64].fill(1.0);
        }
    }
}

/// Step ids: 52 squares × 4 directions × 5 distances.
const STEP_IDS: usize = 52 * 4 * 5;
