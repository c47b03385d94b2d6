//! Focus as a [`LabGame`], for 2 players and for 4 in two partnerships
//! (`players=4`, the `focus4` game; the searches see two teams, so
//! alpha-beta is exact two-team minimax and MCTS backs up each player's
//! score). The evaluation counts controlled stacks, reserves and pieces.
//!
//! This module never changes the rules: moves, ends, texts and hashes come
//! from `focus-rules`.

use super::{LabGame, TextError};
use focus_rules::{Position, SQUARES, Variant};

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

impl LabGame for Focus {
    fn seats(players: usize) -> &'static [&'static str] {
        if players == 4 { &["south", "west", "north", "east"] } else { &["white", "black"] }
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
        text.parse::<Position>().map_err(|e| TextError::Position { message: e.to_string() })
    }
    fn position_text(s: &Position) -> String {
        s.to_string()
    }
    fn parse_move(s: &Position, text: &str) -> Result<Self::Move, TextError> {
        s.parse_move(text).map_err(|e| TextError::Move { text: text.into(), message: e.to_string() })
    }
    fn move_text(m: Self::Move) -> String {
        m.to_string()
    }
    fn board(s: &Position, colour: bool) -> String {
        let mut b = s.board_text(colour);
        if !b.ends_with('\n') {
            b.push('\n');
        }
        b
    }
    fn perft(s: &Position, depth: u32) -> u64 {
        focus_rules::perft(s, depth)
    }
    fn ply(s: &Position) -> u32 {
        s.ply()
    }
    fn evaluate(s: &Position, player: usize) -> i32 {
        let me = s.team(player);
        let sign = |p: usize| if s.team(p) == me { 1 } else { -1 };
        let mut v = 0;
        for &sq in SQUARES.iter() {
            if let Some(c) = s.controller(sq) {
                v += sign(c) * (STACK + HEIGHT * s.height(sq) as i32);
            }
        }
        for p in 0..s.players() {
            v += sign(p) * (RESERVE * s.reserve(p) as i32 + PIECE * s.on_board(p) as i32);
        }
        v
    }
    fn extra_columns() -> &'static [&'static str] {
        &["reserves", "eliminated"]
    }
    fn extra(s: &Position) -> Vec<String> {
        let per = |f: &dyn Fn(usize) -> usize| (0..s.players()).map(|p| f(p).to_string()).collect::<Vec<_>>().join("/");
        vec![per(&|p| s.reserve(p)), per(&|p| s.eliminated(p))]
    }
}
