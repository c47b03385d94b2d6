//! A second, plain move generator written from GAMES.md §3's text, sharing
//! no code with the fast one: it lists every move the notation can name and
//! keeps those the rules allow, reading the position only through its
//! public accessors.
//!
//! What it must never do: call the fast generator (`for_each_move`,
//! `legal_moves`, `is_legal`) or its helpers, or be used for speed.

use crate::{Dir, Move, Phase, Position};

fn rank(sq: u8) -> i32 {
    (sq / 6) as i32
}

fn file(sq: u8) -> i32 {
    (sq % 6) as i32
}

/// Where a die of `player` on `sq` lands rolling `dir`, written in (file, rank).
fn land(player: usize, sq: u8, dir: Dir) -> Option<u8> {
    let (mut f, mut r) = (file(sq), rank(sq));
    match dir {
        Dir::Forward => r += if player == 0 { 1 } else { -1 },
        Dir::Left => f -= 1,
        Dir::Right => f += 1,
    }
    if (0..6).contains(&f) && (0..6).contains(&r) { Some((r * 6 + f) as u8) } else { None }
}

fn home_row(player: usize) -> i32 {
    if player == 0 { 0 } else { 5 }
}

/// Whether the plain rules allow `m` in `p`.
fn allowed(p: &Position, m: Move) -> bool {
    if p.outcome().is_some() {
        return false;
    }
    let me = p.to_move();
    let phase = p.phase();
    match m {
        Move::Decline => phase == Phase::Recovery,
        Move::Recover { to } => phase == Phase::Recovery && rank(to) == home_row(me) && p.cell(to).is_none(),
        Move::Flip { square } | Move::Roll { from: square, .. } => {
            // Whose turn and which die.
            match p.cell(square) {
                Some((owner, _)) if owner == me => {}
                _ => return false,
            }
            match phase {
                Phase::Recovery => return false,
                Phase::Rebond { square: s, .. } if s != square => return false,
                _ => {}
            }
            match m {
                Move::Flip { .. } => {
                    // The two regular actions may not both flip the same die.
                    !matches!(phase, Phase::Action { index: 1, flipped: Some(s) } if s == square)
                }
                Move::Roll { dir, home, .. } => {
                    let Some(to) = land(me, square, dir) else { return false };
                    let v = p.cell(square).map(|c| c.1).unwrap_or(0);
                    let mut takes = false;
                    if let Some((owner, t)) = p.cell(to) {
                        if owner == me {
                            return false;
                        }
                        let can = v > t || (v == 1 && t != 1);
                        if !can {
                            return false;
                        }
                        takes = true;
                    }
                    let reaches_enemy_camp = rank(to) == home_row(1 - me);
                    if !reaches_enemy_camp {
                        return home.is_none();
                    }
                    let ends_round = takes && p.held(me) + 1 == 5;
                    if ends_round && !p.variant().relocate_on_end {
                        return home.is_none();
                    }
                    match home {
                        None => false,
                        Some(h) => rank(h) == home_row(me) && (p.cell(h).is_none() || h == square),
                    }
                }
                _ => unreachable!(),
            }
        }
    }
}

/// Every legal move of `p`, in no particular order, from the plain rules.
pub fn legal_moves(p: &crate::Position) -> Vec<crate::Move> {
    let mut all = vec![Move::Decline];
    for sq in 0..36u8 {
        all.push(Move::Flip { square: sq });
        all.push(Move::Recover { to: sq });
        for dir in [Dir::Forward, Dir::Left, Dir::Right] {
            all.push(Move::Roll { from: sq, dir, home: None });
            for h in 0..36u8 {
                all.push(Move::Roll { from: sq, dir, home: Some(h) });
            }
        }
    }
    all.into_iter().filter(|&m| allowed(p, m)).collect()
}
