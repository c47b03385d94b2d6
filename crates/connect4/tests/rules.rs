//! Perft pinned (GAMES.md §4's figures), and the bitboard against the plain
//! grid model ([`connect4_rules::reference`]) on random games of every board
//! size.

use connect4_rules::{Outcome, Position, Variant, perft, reference};
use testkit::{UNOPTIMISED, XorShift64};

#[test]
fn perft_of_the_start_is_pinned() {
    let start = Position::start(Variant::default());
    let want = [1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234, 39394572];
    let deepest = if UNOPTIMISED { 7 } else { 9 };
    for (depth, &n) in want.iter().enumerate().take(deepest + 1) {
        assert_eq!(perft(&start, depth as u32), n, "perft {depth}");
    }
}

#[test]
fn a_won_position_has_no_moves() {
    let p: Position = "1212121".parse().unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Win { player: 0 }));
    for depth in 1..4 {
        assert_eq!(perft(&p, depth), 0);
    }
}

/// Every board size one `u64` holds.
fn variants() -> Vec<Variant> {
    let mut out = Vec::new();
    for width in 4..=9 {
        for height in 4..=9 {
            let v = Variant { width, height };
            if v.check().is_ok() {
                out.push(v);
            }
        }
    }
    out
}

#[test]
fn the_bitboard_agrees_with_the_grid_on_random_games() {
    let mut rng = XorShift64::new(4);
    let (mut wins, mut draws) = ([0usize; 2], 0usize);
    let games = if UNOPTIMISED { 20 } else { 300 };
    let mut moves = Vec::new();
    for v in variants() {
        for _ in 0..games {
            let mut p = Position::start(v);
            loop {
                p.legal_moves(&mut moves);
                assert_eq!(moves, reference::legal_moves(&p), "{v} {p}");
                assert_eq!(p.count_moves(), moves.len());
                assert_eq!(p.outcome(), reference::outcome(&p), "{v} {p}");
                assert_eq!(Position::parse(&p.to_string(), v).as_ref(), Ok(&p));
                let c = rng.below(usize::from(v.width)) as u8;
                let r = rng.below(usize::from(v.height)) as u8;
                assert_eq!(p.disc(c, r), reference::disc(&p, c, r), "{v} {p} ({c}, {r})");
                if moves.is_empty() {
                    break;
                }
                for (i, &m) in moves.iter().enumerate() {
                    assert_eq!(p.nth_move(i), Some(m));
                    let mut q = p;
                    q.play_unchecked(m);
                    assert_eq!(p.wins_with(m), matches!(q.outcome(), Some(Outcome::Win { .. })), "{v} {p} {m}");
                }
                let m = moves[rng.below(moves.len())];
                p.play(m).unwrap();
            }
            match p.outcome().expect("over") {
                Outcome::Win { player } => wins[player] += 1,
                Outcome::Draw => draws += 1,
            }
            let mut q = p;
            assert!(q.play(connect4_rules::Move::new(0).unwrap()).is_err(), "no move after the end");
            assert_eq!(q, p, "a refused move changes nothing");
        }
    }
    assert!(wins[0] > 0 && wins[1] > 0 && draws > 0, "every ending met: {wins:?} {draws}");
}

#[test]
fn keys_tell_boards_apart_and_ignore_move_order() {
    // Every position of the first 6 plies: equal keys exactly when the discs
    // are equal (the same board reached in another order).
    let mut seen: std::collections::HashMap<u64, Vec<Option<usize>>> = std::collections::HashMap::new();
    let mut stack = vec![Position::start(Variant::default())];
    let mut moves = Vec::new();
    while let Some(p) = stack.pop() {
        let cells: Vec<Option<usize>> =
            (0..7).flat_map(|c| (0..6).map(move |r| (c, r))).map(|(c, r)| p.disc(c, r)).collect();
        let prev = seen.entry(p.key()).or_insert_with(|| cells.clone());
        assert_eq!(*prev, cells, "two boards share key {:#x}: {p}", p.key());
        if p.ply() < 6 {
            p.legal_moves(&mut moves);
            for &m in &moves {
                let mut q = p;
                q.play_unchecked(m);
                stack.push(q);
            }
        }
    }
    assert!(seen.len() > 1000 && seen.len() < 1 + 7 + 49 + 343 + 2401 + 16807 + 117649);
}
