//! A toy [`LabGame`] for the generic lab's unit tests: Nim with one pile
//! (take 1 to 3, who takes the last wins), 2 players or 4 in two
//! partnerships. Texts: `nim:P:PILE:TURN:PLY`, moves `t1`..`t3`.

use super::{LabGame, TextError};
use game_search::{Game, MAX_PLAYERS, Scores};

/// The toy game.
pub(crate) struct Nim;

/// Its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NimState {
    players: u8,
    pile: u8,
    turn: u8,
    ply: u32,
}

impl Nim {
    pub(crate) fn start_with(players: u8, pile: u8) -> NimState {
        NimState { players, pile, turn: 0, ply: 0 }
    }
}

impl Game for Nim {
    type State = NimState;
    type Move = u8;
    fn players(s: &NimState) -> usize {
        s.players as usize
    }
    fn to_move(s: &NimState) -> usize {
        s.turn as usize
    }
    fn team(_s: &NimState, p: usize) -> usize {
        p % 2
    }
    fn moves(s: &NimState, out: &mut Vec<u8>) {
        out.clear();
        out.extend((1..=3).filter(|&k| k <= s.pile));
    }
    fn apply(s: &NimState, m: u8) -> NimState {
        NimState { pile: s.pile - m, turn: (s.turn + 1) % s.players, ply: s.ply + 1, ..*s }
    }
    fn result(s: &NimState) -> Option<Scores> {
        (s.pile == 0).then(|| {
            // The previous player took the last: their team wins.
            let winner = (s.turn + s.players - 1) % s.players % 2;
            let mut r = [0.0; MAX_PLAYERS];
            for (p, v) in r.iter_mut().enumerate().take(s.players as usize) {
                *v = f64::from(u8::from(p % 2 == winner as usize));
            }
            r
        })
    }
    fn hash(s: &NimState) -> u64 {
        u64::from(s.pile) << 8 | u64::from(s.turn)
    }
}

impl game_search::solver::Solvable for Nim {}

crate::games::lab_face!(Nim);

impl LabGame for Nim {
    fn seats(players: usize) -> &'static [&'static str] {
        &["a", "b", "c", "d"][..players]
    }
    fn start(variant: &str) -> Result<NimState, TextError> {
        match variant {
            "" => Ok(Nim::start_with(2, 10)),
            "players=4" => Ok(Nim::start_with(4, 10)),
            v => Err(TextError::Variant { text: v.into(), message: "unknown".into() }),
        }
    }
    fn variant_text(s: &NimState) -> String {
        if s.players == 4 { "players=4".into() } else { String::new() }
    }
    fn variant_help() -> &'static str {
        "players=2|4"
    }
    fn parse_position(text: &str) -> Result<NimState, TextError> {
        let bad = || TextError::Position { message: format!("`{text}` is not nim:P:PILE:TURN:PLY") };
        let f: Vec<&str> = text.split(':').collect();
        if f.len() != 5 || f[0] != "nim" {
            return Err(bad());
        }
        let n = |i: usize| f[i].parse::<u32>().map_err(|_| bad());
        let (players, pile, turn, ply) = (n(1)?, n(2)?, n(3)?, n(4)?);
        if !(players == 2 || players == 4) || turn >= players || pile > 200 {
            return Err(bad());
        }
        Ok(NimState { players: players as u8, pile: pile as u8, turn: turn as u8, ply })
    }
    fn position_text(s: &NimState) -> String {
        format!("nim:{}:{}:{}:{}", s.players, s.pile, s.turn, s.ply)
    }
    fn parse_move(s: &NimState, text: &str) -> Result<u8, TextError> {
        let m = text.strip_prefix('t').and_then(|k| k.parse::<u8>().ok());
        match m {
            Some(k) if (1..=3).contains(&k) && k <= s.pile => Ok(k),
            _ => Err(TextError::Move { text: text.into(), message: "not a legal take".into() }),
        }
    }
    fn move_text(m: u8) -> String {
        format!("t{m}")
    }
    fn board(s: &NimState, _colour: bool) -> String {
        format!("pile {}\n", s.pile)
    }
    fn perft(s: &NimState, depth: u32) -> u64 {
        if depth == 0 || s.pile == 0 {
            return u64::from(depth == 0);
        }
        (1..=3.min(s.pile)).map(|k| Nim::perft(&Nim::apply(s, k), depth - 1)).sum()
    }
    fn ply(s: &NimState) -> u32 {
        s.ply
    }
    /// Not fitted: the toy's evaluation is exact (±100), so 100 makes a
    /// won position 0.73 and a lost one 0.27.
    fn eval_scale(_: &NimState) -> f64 {
        100.0
    }
    fn evaluate(s: &NimState, player: usize) -> i32 {
        // The mover wins unless the pile is a multiple of 4.
        let mover_wins = !s.pile.is_multiple_of(4);
        let mine = s.turn as usize % 2 == player % 2;
        if mover_wins == mine { 100 } else { -100 }
    }
    fn extra_columns() -> &'static [&'static str] {
        &["pile"]
    }
    fn extra(s: &NimState) -> Vec<String> {
        vec![s.pile.to_string()]
    }
}
