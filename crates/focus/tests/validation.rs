//! Validation of position texts against the independent checker of `tests/support`: (a) every
//! position reached by random play from the start of several variants round trips through its
//! text and is accepted by both; (b) mutations of those texts (the ply, the side to move, a
//! reserve, the swap phase, a square, several at once, the start board, a nearly empty board) are
//! accepted or refused, and the crate's
//! verdict is the checker's.

mod common;
mod support;

use focus_rules::{Position, Variant};
use proptest::prelude::*;
use testkit::SplitMix64 as Rng;

const VARIANTS: [&str; 7] =
    ["", "players=4", "players=4,order=ccw", "fix=swap", "fix=draw,cap=300", "cap=120", "players=4,order=ccw,cap=500"];

/// Stacks a mutated square may get: empty, 1 to 6 pieces (6 is refused), a player the 2-player
/// game has not (2, 3) and one no variant has (4).
const STACKS: [&str; 14] = [".", "0", "1", "2", "3", "01", "10", "23", "0110", "01010", "32101", "010101", "4", "13"];

/// The text with field `i` replaced.
fn with_field(text: &str, i: usize, new: &str) -> String {
    let mut f: Vec<&str> = text.split(' ').collect();
    f[i] = new;
    f.join(" ")
}

/// Mutations of a position text: counters, the side to move, reserves, the swap phase, squares.
fn mutations(p: &Position, rng: &mut Rng) -> Vec<String> {
    let text = p.to_string();
    let (players, cap, ply) = (p.players(), p.variant().cap, p.ply());
    let mut out = Vec::new();
    let plies: Vec<i64> = vec![
        ply as i64 + 1,
        ply as i64 - 1,
        ply as i64 + 2,
        ply as i64 - 2,
        ply as i64 + players as i64,
        ply as i64 - players as i64,
        ply as i64 / 2,
        0,
        cap as i64,
        cap as i64 + 1,
    ];
    for n in plies.into_iter().filter(|&n| n >= 0) {
        out.push(with_field(&text, 5, &format!("ply={n}")));
    }
    for t in 0..=players {
        if t != p.to_move() {
            out.push(with_field(&text, 4, &format!("turn={t}")));
        }
    }
    // The ply and the side to move together, one step on (the side rotates in either order).
    for t in 0..players {
        let moved = with_field(&text, 5, &format!("ply={}", ply + 1));
        out.push(with_field(&moved, 4, &format!("turn={t}")));
    }
    let res: Vec<usize> = (0..players).map(|q| p.reserve(q)).collect();
    for q in 0..players {
        for n in [res[q] + 1, res[q].saturating_sub(1), focus_rules::total_pieces(players)] {
            let mut r = res.clone();
            r[q] = n;
            let r: Vec<String> = r.iter().map(|n| n.to_string()).collect();
            out.push(with_field(&text, 3, &format!("res={}", r.join("/"))));
        }
    }
    if text.contains(" swaps=") {
        for s in 0..=3 {
            out.push(with_field(&text, 6, &format!("swaps={s}")));
        }
    }
    let board = text.split(' ').nth(2).expect("a board field").to_string();
    let cell_mutation = |rng: &mut Rng, board: &str| -> String {
        let mut ranks: Vec<Vec<String>> = board.split('/').map(|r| r.split(',').map(String::from).collect()).collect();
        let r = rng.below(8);
        let f = rng.below(ranks[r].len());
        ranks[r][f] = STACKS[rng.below(STACKS.len())].to_string();
        ranks.iter().map(|r| r.join(",")).collect::<Vec<_>>().join("/")
    };
    for _ in 0..6 {
        out.push(with_field(&text, 2, &cell_mutation(rng, &board)));
    }
    // Every stack topped by some players emptied, their reserves kept or emptied: a player or a
    // team that cannot play (by the mover's side of the rule, or by the other's).
    let groups: Vec<Vec<usize>> = if players == 2 {
        vec![vec![0], vec![1]]
    } else {
        // One player, a team, or one player and the other team (a pass after the game's end).
        vec![
            vec![0],
            vec![1],
            vec![2],
            vec![3],
            vec![0, 2],
            vec![1, 3],
            vec![0, 1, 3],
            vec![1, 0, 2],
            vec![2, 1, 3],
            vec![3, 0, 2],
        ]
    };
    for g in &groups {
        let ranks: Vec<String> = board
            .split('/')
            .map(|r| {
                let cells: Vec<&str> = r
                    .split(',')
                    .map(|c| {
                        let top = c.bytes().last().filter(u8::is_ascii_digit).map(|b| (b - b'0') as usize);
                        if top.is_some_and(|t| g.contains(&t)) { "." } else { c }
                    })
                    .collect();
                cells.join(",")
            })
            .collect();
        let cleared = with_field(&text, 2, &ranks.join("/"));
        out.push(cleared.clone());
        let r: Vec<String> = (0..players).map(|q| if g.contains(&q) { 0 } else { res[q] }.to_string()).collect();
        out.push(with_field(&cleared, 3, &format!("res={}", r.join("/"))));
    }
    // The start board at this ply (with both swaps at ply 2: a symmetric board, refused).
    let start = Position::start(p.variant()).to_string();
    out.push(with_field(&text, 2, start.split(' ').nth(2).expect("a board field")));
    // One to five pieces left on the board, the others gone (too few unless 5 at least).
    for keep in [1, 4, 5] {
        let mut left = keep;
        let ranks: Vec<String> = board
            .split('/')
            .map(|r| {
                let cells: Vec<String> = r
                    .split(',')
                    .map(|c| match c.len().min(left) {
                        _ if c == "." => ".".to_string(),
                        0 => ".".to_string(),
                        n => {
                            left -= n;
                            c[..n].to_string()
                        }
                    })
                    .collect();
                cells.join(",")
            })
            .collect();
        out.push(with_field(&text, 2, &ranks.join("/")));
    }
    // Two squares exchanged: the pieces add up as before, the squares changed grow by two.
    for _ in 0..3 {
        let mut cells: Vec<Vec<String>> = board.split('/').map(|r| r.split(',').map(String::from).collect()).collect();
        let (r1, r2) = (rng.below(8), rng.below(8));
        let (f1, f2) = (rng.below(cells[r1].len()), rng.below(cells[r2].len()));
        if (r1, f1) == (r2, f2) {
            continue;
        }
        let a = std::mem::take(&mut cells[r1][f1]);
        let b = std::mem::replace(&mut cells[r2][f2], a);
        cells[r1][f1] = b;
        let b = cells.iter().map(|r| r.join(",")).collect::<Vec<_>>().join("/");
        out.push(with_field(&text, 2, &b));
    }
    // Two squares at once, with the ply moved on by the players' count (the side unchanged).
    for _ in 0..3 {
        let once = cell_mutation(rng, &board);
        let b = cell_mutation(rng, &once);
        out.push(with_field(&with_field(&text, 2, &b), 5, &format!("ply={}", ply + players as u32)));
    }
    out
}

/// Checks (a) along a random game from the start of `v`, and (b) at every `every`-th ply;
/// returns (mutations accepted, mutations refused).
fn check_game(v: Variant, seed: u64, every: usize) -> Result<(usize, usize), TestCaseError> {
    let mut rng = Rng::new(seed);
    let mut p = Position::start(v);
    let (mut accepted, mut refused) = (0, 0);
    for i in 0.. {
        let text = p.to_string();
        let back: Position = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(back, p);
        prop_assert_eq!(back.to_string(), text.clone());
        prop_assert_eq!(support::verdict(&text), Ok(()), "the checker refuses a reached position {}", text);
        if i < 4 || i % every == 0 || p.outcome().is_some() {
            for m in mutations(&p, &mut rng) {
                let ours = m.parse::<Position>();
                let theirs = support::verdict(&m);
                prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{}: crate {:?}, checker {:?}", m, ours.err(), theirs);
                if let Ok(q) = ours {
                    prop_assert_eq!(q.to_string(), m);
                    accepted += 1;
                } else {
                    refused += 1;
                }
            }
        }
        let n = p.count_moves();
        if n == 0 {
            break;
        }
        p.play_unchecked(p.nth_move(rng.below(n)));
    }
    Ok((accepted, refused))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if testkit::UNOPTIMISED { 10 } else { 48 }))]

    #[test]
    fn reached_positions_and_their_mutations(seed in any::<u64>(), which in 0..VARIANTS.len()) {
        let v = Variant::parse(VARIANTS[which]).unwrap();
        check_game(v, seed, 37)?;
    }
}

/// Fixed seeds, every variant: both verdicts occur among the mutations, so (b) compares
/// something on each side.
#[test]
fn mutations_reach_both_verdicts() {
    let (mut accepted, mut refused) = (0, 0);
    for (i, t) in VARIANTS.iter().enumerate() {
        let (a, r) = check_game(Variant::parse(t).unwrap(), 1000 + i as u64, 53).unwrap();
        accepted += a;
        refused += r;
    }
    eprintln!("accepted {accepted}, refused {refused}");
    assert!(accepted > 100 && refused > 1000, "accepted {accepted}, refused {refused}");
}
