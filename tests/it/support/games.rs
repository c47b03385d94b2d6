//! Game values for integration tests: a search state from SPN, the sample
//! game replayed from its record, a policy from its spec
//! (`mod support { pub mod games; }`).

#![allow(dead_code)]

use game_search::Game as _;
use senat_lab::games::senat::{Senat, SenatState};
use senat_lab::policy::PolicySpec;
use senat_rules::{GameRecord, Move, Position, sample};

/// The search state of an SPN (panics naming the SPN if it is refused).
pub fn state(spn: &str) -> SenatState {
    SenatState::new(spn.parse::<Position>().unwrap_or_else(|e| panic!("{spn}: {e}")))
}

/// The sample game of the rules, replayed from its record with the checked
/// `GameRecord::play`.
pub fn sample_game() -> GameRecord {
    let mut g = GameRecord::new(sample::START.parse().expect("the sample start is valid SPN"));
    for line in sample::record_lines().skip(1) {
        let m = g.position().parse_move(line).unwrap_or_else(|e| panic!("sample move {line}: {e}"));
        g.play(m).unwrap_or_else(|e| panic!("sample move {line}: {e}"));
    }
    g
}

/// A policy from its spec (panics naming the spec if it is refused).
pub fn spec(s: &str) -> PolicySpec {
    PolicySpec::parse(s).unwrap_or_else(|e| panic!("policy {s}: {e}"))
}

/// States of seeded play from the sample game's start: `games` games of
/// at most `plies` half-moves, every state where play goes on; `pick`
/// chooses a move from the state, its legal moves and a 64-bit draw (a
/// linear congruential generator from `seed`: the same states on every run).
fn seeded_walks(
    games: usize,
    plies: usize,
    seed: u64,
    mut pick: impl FnMut(&SenatState, &mut Vec<Move>, u64) -> Move,
) -> Vec<SenatState> {
    let mut seed = seed;
    let mut out = Vec::new();
    let start = SenatState::new(sample::START.parse().unwrap());
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut s = start;
        for _ in 0..plies {
            Senat::moves(&s, &mut moves);
            if moves.is_empty() {
                break;
            }
            out.push(s);
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            s = s.play(pick(&s, &mut moves, seed));
        }
    }
    out
}

/// States of seeded random play from the sample game's start: `games`
/// games of at most `plies` half-moves, every state where play goes on
/// (the same states on every run).
pub fn random_states(games: usize, plies: usize, seed: u64) -> Vec<SenatState> {
    seeded_walks(games, plies, seed, |_, moves, r| moves[(r >> 33) as usize % moves.len()])
}

/// States of seeded play that seeks repetitions and the clock: like
/// [`random_states`], but seven moves in eight are one of the first two
/// legal moves (so that positions come back), and no move sends a die
/// through the door where another can (so the clock runs toward closure).
pub fn shuffling_states(games: usize, plies: usize, seed: u64) -> Vec<SenatState> {
    seeded_walks(games, plies, seed, |s, moves, r| {
        let quiet: Vec<Move> = moves.iter().copied().filter(|&m| s.play(m).position().clock() > 0).collect();
        let pool = if quiet.is_empty() { &moves[..] } else { &quiet[..] };
        let few = if r >> 61 != 0 { pool.len().min(2) } else { pool.len() };
        pool[(r >> 33) as usize % few]
    })
}
