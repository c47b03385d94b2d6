//! `play_unchecked` against an independent model of each transition, written from
//! GAMES.md §3.3: for every legal move along random games, the board,
//! piles, side to move and phase after the move are what the text says.

use debacle_rules::{Dir, Move, Phase, Position, Variant};
use testkit::SplitMix64;

const GAMES: usize = if testkit::UNOPTIMISED { 3 } else { 30 };

/// The model's view of a position: cells (owner, value) and piles.
type Board = [Option<(usize, u8)>; 36];

fn board(p: &Position) -> Board {
    std::array::from_fn(|sq| p.cell(sq as u8))
}

fn land(me: usize, sq: u8, dir: Dir) -> u8 {
    match dir {
        Dir::Forward if me == 0 => sq + 6,
        Dir::Forward => sq - 6,
        Dir::Left => sq - 1,
        Dir::Right => sq + 1,
    }
}

/// Checks the position after `m` from `p`, unless the round or match ended.
fn check(p: &Position, m: Move, q: &Position) {
    if q.round() != p.round() || q.outcome().is_some() {
        return;
    }
    let me = p.to_move();
    let mut b = board(p);
    let mut piles = [p.pile(0), p.pile(1)];
    let done = match p.phase() {
        Phase::Action { index, .. } => index + 1,
        Phase::Rebond { after, .. } => after,
        Phase::Recovery => 2,
    };
    let mut next = None;
    let mut regular_flip = None;
    match m {
        Move::Flip { square } => {
            let (o, v) = b[square as usize].unwrap();
            b[square as usize] = Some((o, 7 - v));
            if matches!(p.phase(), Phase::Action { index: 0, .. }) {
                regular_flip = Some(square);
            }
        }
        Move::Roll { from, dir, home } => {
            let (o, v) = b[from as usize].take().unwrap();
            let to = land(me, from, dir);
            let dest = home.unwrap_or(to);
            if let Some((_, t)) = b[to as usize].take() {
                piles[me][t as usize - 1] += 1;
                next = Some(Phase::Rebond { square: dest, after: done });
            }
            b[dest as usize] = Some((o, if v == 6 { 1 } else { v + 1 }));
        }
        Move::Recover { to } => {
            let v = (1..=6).find(|&v| piles[1 - me][v - 1] > 0).unwrap();
            piles[1 - me][v - 1] -= 1;
            b[to as usize] = Some((me, v as u8));
        }
        Move::Decline => {}
    }
    assert_eq!(board(q), b, "board after {m} in {p}");
    assert_eq!([q.pile(0), q.pile(1)], piles, "piles after {m} in {p}");
    let turn_over = if let Some(ph) = next {
        assert_eq!(q.phase(), ph, "rebond after {m} in {p}");
        false
    } else if matches!(m, Move::Recover { .. } | Move::Decline) {
        true
    } else if done == 1 {
        assert_eq!(q.phase(), Phase::Action { index: 1, flipped: regular_flip }, "after {m} in {p}");
        false
    } else {
        let values: Vec<u8> = b.iter().flatten().filter(|c| c.0 == me).map(|c| c.1).collect();
        let offered = piles[1 - me].iter().any(|&n| n > 0) && values.iter().all(|&v| v == values[0]);
        if offered {
            assert_eq!(q.phase(), Phase::Recovery, "recovery after {m} in {p}");
        }
        !offered
    };
    if turn_over {
        assert_eq!(q.to_move(), 1 - me, "turn passes after {m} in {p}");
        assert_eq!(q.phase(), Phase::Action { index: 0, flipped: None });
        assert_eq!(q.turns_in_round(), p.turns_in_round() + 1);
    } else {
        assert_eq!(q.to_move(), me);
    }
}

fn run(variant: &str, seed: u64) {
    let v = Variant::parse(variant).unwrap();
    let mut rng = SplitMix64::new(seed);
    let mut buf = Vec::new();
    for _ in 0..GAMES {
        let mut p = Position::start(v);
        loop {
            p.legal_moves(&mut buf);
            if buf.is_empty() {
                break;
            }
            for &m in &buf {
                let mut q = p;
                q.play_unchecked(m);
                check(&p, m, &q);
            }
            p.play_unchecked(buf[rng.below(buf.len())]);
        }
    }
}

#[test]
fn transitions_default() {
    run("", 21);
}

#[test]
fn transitions_winner_relocate() {
    run("scoring=winner,relocate_on_end=yes,faces=551234", 22);
}
