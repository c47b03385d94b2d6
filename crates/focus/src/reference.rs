//! A second, plain move generator written from GAMES.md's text (§1.2–§1.8),
//! sharing no code with the fast one: its own board geometry (the list of
//! removed corners), its own stacks as vectors, its own end check, its own
//! symmetry test. It reads the position only through its public accessors.
//! It also has a plain `play` and `outcome` on vectors. Used by the differential tests; slow on
//! purpose.
//!
//! What it must never do: call the fast generator, `outcome`, `is_legal`, or
//! the crate's tables; do I/O or draw randomness.

use crate::{Fix, Move, Position};

const REMOVED: [&str; 12] = ["a1", "b1", "a2", "g1", "h1", "h2", "a7", "a8", "b8", "h7", "g8", "h8"];

fn name(file: i32, rank: i32) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

fn on_board(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank) && !REMOVED.contains(&name(file, rank).as_str())
}

fn stack(p: &Position, file: i32, rank: i32) -> Vec<usize> {
    let sq = (rank * 8 + file) as u8;
    (0..p.height(sq)).map(|l| p.piece(sq, l).expect("level below height")).collect()
}

fn controls_any(p: &Position, player: usize) -> bool {
    for rank in 0..8 {
        for file in 0..8 {
            if on_board(file, rank) && stack(p, file, rank).last() == Some(&player) {
                return true;
            }
        }
    }
    false
}

fn has_a_move(p: &Position, player: usize) -> bool {
    controls_any(p, player) || p.reserve(player) > 0
}

fn over(p: &Position) -> bool {
    if p.players() == 2 {
        if !has_a_move(p, p.to_move()) {
            return true;
        }
    } else if (!has_a_move(p, 0) && !has_a_move(p, 2)) || (!has_a_move(p, 1) && !has_a_move(p, 3)) {
        return true;
    }
    p.ply() >= p.variant().cap
}

/// The board after exchanging the stacks of two squares, as a map from (file, rank) to stack.
fn symmetric_after_swap(p: &Position, a: (i32, i32), b: (i32, i32)) -> bool {
    let look = |f: i32, r: i32| -> Vec<usize> {
        let (f, r) = if (f, r) == a {
            b
        } else if (f, r) == b {
            a
        } else {
            (f, r)
        };
        stack(p, f, r)
    };
    let swapped = |s: Vec<usize>| -> Vec<usize> { s.into_iter().map(|c| 1 - c).collect() };
    let mut rotation = true;
    let mut reflection = true;
    for rank in 0..8 {
        for file in 0..8 {
            if !on_board(file, rank) {
                continue;
            }
            let mine = swapped(look(file, rank));
            if look(7 - file, 7 - rank) != mine {
                rotation = false;
            }
            if look(file, 7 - rank) != mine {
                reflection = false;
            }
        }
    }
    rotation || reflection
}

/// All legal moves of `p` (any order), from the rules text alone.
pub fn legal_moves(p: &Position) -> Vec<crate::Move> {
    let mut out = Vec::new();
    if over(p) {
        return out;
    }
    let me = p.to_move();
    let sq = |f: i32, r: i32| (r * 8 + f) as u8;
    if p.variant().fix == Fix::Swap && p.swaps_played() < 2 {
        let first_swap = p.swaps_played() == 0;
        for r1 in 0..8 {
            for f1 in 0..8 {
                if !on_board(f1, r1) || stack(p, f1, r1).last() != Some(&me) {
                    continue;
                }
                for r2 in 0..8 {
                    for f2 in 0..8 {
                        if !on_board(f2, r2) || stack(p, f2, r2).last() != Some(&(1 - me)) {
                            continue;
                        }
                        if !first_swap && symmetric_after_swap(p, (f1, r1), (f2, r2)) {
                            continue;
                        }
                        out.push(Move::Swap { own: sq(f1, r1), other: sq(f2, r2) });
                    }
                }
            }
        }
        return out;
    }
    if !has_a_move(p, me) {
        out.push(Move::Pass);
        return out;
    }
    for rank in 0..8 {
        for file in 0..8 {
            if !on_board(file, rank) {
                continue;
            }
            let s = stack(p, file, rank);
            if s.last() != Some(&me) {
                continue;
            }
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                for k in 1..=s.len() as i32 {
                    let (tf, tr) = (file + df * k, rank + dr * k);
                    if on_board(tf, tr) {
                        out.push(Move::Step { from: sq(file, rank), to: sq(tf, tr) });
                    }
                }
            }
        }
    }
    if p.reserve(me) > 0 {
        for rank in 0..8 {
            for file in 0..8 {
                if on_board(file, rank) {
                    out.push(Move::Enter { to: sq(file, rank) });
                }
            }
        }
    }
    out
}

/// A position as plain data, for comparing the fast `play` with [`play`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plain {
    /// Stack of each square index 0..64, bottom first (empty for removed squares).
    pub stacks: Vec<Vec<usize>>,
    /// Reserve of each player.
    pub reserves: Vec<usize>,
    /// Player to move.
    pub to_move: usize,
    /// Decisions played.
    pub ply: u32,
    /// Opening swaps played (2 when the variant has none).
    pub swaps: usize,
}

/// The plain data of `p`.
pub fn snapshot(p: &Position) -> Plain {
    let stacks = (0..64).map(|i| if on_board(i % 8, i / 8) { stack(p, i % 8, i / 8) } else { Vec::new() }).collect();
    Plain {
        stacks,
        reserves: (0..p.players()).map(|q| p.reserve(q)).collect(),
        to_move: p.to_move(),
        ply: p.ply(),
        swaps: p.swaps_played(),
    }
}

/// The plain data after playing legal move `m` in `p`, from the rules text (GAMES.md §1.4, §1.7, §1.8).
pub fn play(p: &Position, m: Move) -> Plain {
    let mut s = snapshot(p);
    let me = s.to_move;
    let players = p.players();
    let land = |s: &mut Plain, to: usize, pieces: Vec<usize>| {
        s.stacks[to].extend(pieces);
        while s.stacks[to].len() > 5 {
            let bottom = s.stacks[to].remove(0);
            if bottom == me {
                s.reserves[me] += 1;
            } else if players == 4 && bottom == (me + 2) % 4 {
                s.reserves[bottom] += 1;
            }
        }
    };
    match m {
        Move::Pass => {}
        Move::Swap { own, other } => {
            s.stacks.swap(own as usize, other as usize);
            s.swaps += 1;
        }
        Move::Enter { to } => {
            s.reserves[me] -= 1;
            land(&mut s, to as usize, vec![me]);
        }
        Move::Step { from, to } => {
            let (f, t) = (from as usize, to as usize);
            let distance = (f % 8).abs_diff(t % 8) + (f / 8).abs_diff(t / 8);
            let keep = s.stacks[f].len() - distance;
            let moving = s.stacks[f].split_off(keep);
            land(&mut s, t, moving);
        }
    }
    s.to_move = match (players, p.variant().order) {
        (4, crate::Order::Ccw) => (me + 3) % 4,
        _ => (me + 1) % players,
    };
    s.ply += 1;
    s
}

/// The result of `p` from the rules text (GAMES.md §1.5, §1.7, the cap and `fix=draw`).
pub fn outcome(p: &Position) -> Option<crate::Outcome> {
    if p.players() == 2 {
        if !has_a_move(p, p.to_move()) {
            return Some(crate::Outcome::Win { team: 1 - p.to_move() });
        }
    } else {
        for team in 0..2 {
            if !has_a_move(p, team) && !has_a_move(p, team + 2) {
                return Some(crate::Outcome::Win { team: 1 - team });
            }
        }
    }
    if p.ply() >= p.variant().cap {
        return Some(if p.variant().fix == Fix::Draw { crate::Outcome::Win { team: 0 } } else { crate::Outcome::Draw });
    }
    None
}
