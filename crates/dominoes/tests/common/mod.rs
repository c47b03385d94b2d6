#![allow(dead_code)]
//! Helpers shared by the tests: random play (with `testkit`'s generator), set-up deals.

use dominoes_rules::{Move, State, Tile, TileSet, Variant};
pub use testkit::XorShift64;

pub fn variant(t: &str) -> Variant {
    Variant::parse(t).expect("variant")
}

pub const VARIANTS: [&str; 4] = ["", "players=3", "players=4", "rules=openspiel"];

/// One random move (chance or decision); false when the match is over.
pub fn step(s: &mut State, rng: &mut XorShift64) -> bool {
    if s.outcome().is_some() {
        return false;
    }
    if s.is_chance() {
        let mut c = Vec::new();
        s.chance_outcomes(&mut c);
        let m = c[rng.below(c.len())].0;
        s.play_unchecked(m);
    } else {
        let mut l = Vec::new();
        s.legal_moves(&mut l);
        let m = l[rng.below(l.len())];
        s.play_unchecked(m);
    }
    true
}

/// A random reachable state: from the start, up to `plies` random moves.
pub fn random_state(v: Variant, rng: &mut XorShift64, plies: usize) -> State {
    let mut s = State::start(v);
    for _ in 0..plies {
        if !step(&mut s, rng) {
            break;
        }
    }
    s
}

pub fn tiles(text: &str) -> Vec<Tile> {
    text.split_whitespace().map(|t| t.parse().expect("tile")).collect()
}

pub fn set(text: &str) -> TileSet {
    tiles(text).into_iter().collect()
}

/// Deals the given hands (one text per player) in the deal order.
pub fn deal(v: Variant, hands: &[&str]) -> State {
    let mut s = State::start(v);
    for (p, h) in hands.iter().enumerate() {
        for t in tiles(h) {
            s.play_unchecked(Move::Deal { tile: t, to: p as u8 });
        }
    }
    s
}

pub fn mv(s: &State, text: &str) -> Move {
    s.parse_move(text).unwrap_or_else(|e| panic!("{e} in {s}"))
}

pub fn play(s: &mut State, moves: &str) {
    for m in moves.split_whitespace() {
        let x = mv(s, m);
        s.play_unchecked(x);
    }
}
