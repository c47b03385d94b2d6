//! Validation of position texts against the independent checker of `tests/support`: (a) every
//! position reached by random play from the start of several variants round trips through its
//! text and is accepted by both; (b) mutations of those texts (a counter, a score, the round, the
//! side, the starter, the phase, the result, a pile, a cell, several at once) are accepted or
//! refused, and the crate's verdict is the checker's.

mod common;
mod support;

use debacle_rules::{Position, Variant, square_name};
use proptest::prelude::*;
use testkit::SplitMix64 as Rng;

const VARIANTS: [&str; 7] = [
    "",
    "quiet=8,turns=30,rounds=2",
    "faces=662211,target=12",
    "quiet=3,rounds=1",
    "scoring=winner,quiet=6,rounds=3,recovery_resets=yes",
    "turns=5,rounds=3",
    "scoring=winner,relocate_on_end=yes,target=10",
];

/// Cell tokens a mutated square may get.
const CELLS: [&str; 13] = [".", "S1", "S2", "S3", "S4", "S5", "S6", "N1", "N2", "N3", "N4", "N5", "N6"];

fn with_field(text: &str, i: usize, new: &str) -> String {
    let mut f: Vec<&str> = text.split(' ').collect();
    f[i] = new;
    f.join(" ")
}

/// The board field as 36 tokens, a1 = 0.
fn cells(board: &str) -> Vec<String> {
    let mut out = vec![String::new(); 36];
    for (i, rank) in board.split('/').enumerate() {
        let b = rank.as_bytes();
        let (mut j, mut file) = (0, 0);
        while j < b.len() {
            let n = if b[j] == b'.' { 1 } else { 2 };
            out[(5 - i) * 6 + file] = rank[j..j + n].to_string();
            j += n;
            file += 1;
        }
    }
    out
}

fn board_text(cells: &[String]) -> String {
    (0..6).rev().map(|r| cells[r * 6..r * 6 + 6].concat()).collect::<Vec<_>>().join("/")
}

fn pile_text(values: &[u8]) -> String {
    let mut v = values.to_vec();
    v.sort();
    if v.is_empty() { "-".into() } else { v.iter().map(|d| char::from(b'0' + d)).collect() }
}

/// Mutations of a position text.
fn mutations(p: &Position, rng: &mut Rng) -> Vec<String> {
    let text = p.to_string();
    let f: Vec<String> = text.split(' ').map(String::from).collect();
    let mut out = Vec::new();
    let flip = |t: &str| if t == "s" { "n" } else { "s" };
    out.push(with_field(&text, 1, flip(&f[1])));
    out.push(with_field(&text, 6, flip(&f[6])));
    // Phases, on a random square and on a square of a die of the side to move.
    let own: Vec<u8> = (0..36).filter(|&s| p.cell(s).is_some_and(|(o, _)| o == p.to_move())).collect();
    let sq = square_name(rng.below(36) as u8);
    let mine = square_name(own[rng.below(own.len())]);
    for ph in ["1".to_string(), "2".into(), "rec".into(), format!("2-{mine}"), format!("r1{mine}"), format!("r2{sq}")] {
        if ph != f[2] {
            out.push(with_field(&text, 2, &ph));
        }
    }
    // Piles: one value more or one fewer.
    let piles: Vec<Vec<u8>> = (0..2)
        .map(|h| (1..=6u8).flat_map(|v| std::iter::repeat_n(v, p.pile(h)[v as usize - 1] as usize)).collect())
        .collect();
    for h in 0..2 {
        let mut more = piles.clone();
        more[h].push(1 + rng.below(6) as u8);
        out.push(with_field(&text, 3, &format!("{}/{}", pile_text(&more[0]), pile_text(&more[1]))));
        if !piles[h].is_empty() {
            let mut fewer = piles.clone();
            let k = rng.below(fewer[h].len());
            fewer[h].remove(k);
            out.push(with_field(&text, 3, &format!("{}/{}", pile_text(&fewer[0]), pile_text(&fewer[1]))));
        }
    }
    // Scores.
    let [a, b] = p.scores().map(i64::from);
    for (x, y) in
        [(a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1), (a + 5, b), (a, b + 30), (b, a), (0, 0), (a + 3, b + 3)]
    {
        if x >= 0 && y >= 0 {
            out.push(with_field(&text, 4, &format!("{x}-{y}")));
        }
    }
    // Round, turns, quiet, ply.
    let (round, turns, quiet, ply) =
        (p.round() as i64, p.turns_in_round() as i64, p.quiet_turns() as i64, p.ply() as i64);
    let plus = if p.captured_this_turn() { "+" } else { "" };
    for n in [round + 1, round - 1] {
        out.push(with_field(&text, 5, &format!("r{n}")));
    }
    for n in [turns + 1, turns - 1, turns + 2, turns - 2, quiet] {
        if n >= 0 {
            out.push(with_field(&text, 7, &format!("t{n}")));
        }
    }
    for n in [quiet + 1, quiet - 1, turns] {
        if n >= 0 {
            out.push(with_field(&text, 8, &format!("q{n}{plus}")));
        }
    }
    out.push(with_field(&text, 8, &format!("q{quiet}{}", if plus.is_empty() { "+" } else { "" })));
    // A turn more, with the side to move passed on (and quiet counted on, or reset).
    let next = with_field(&with_field(&text, 7, &format!("t{}", turns + 1)), 1, flip(&f[1]));
    out.push(with_field(&next, 8, &format!("q{}", quiet + 1)));
    out.push(with_field(&next, 8, "q0"));
    for n in [ply + 1, ply - 1, ply - 2, ply / 2, 0, ply + 5, ply + 100] {
        if n >= 0 {
            out.push(with_field(&text, 9, &format!("p{n}")));
        }
    }
    // Results.
    for res in ["-", "s", "n", "="] {
        if res != f[10] {
            out.push(with_field(&text, 10, res));
        }
    }
    // Cells: a random token; a die moved to another square; a die captured (off the board, into
    // the opponent's pile).
    let board = cells(&f[0]);
    for _ in 0..4 {
        let mut c = board.clone();
        c[rng.below(36)] = CELLS[rng.below(CELLS.len())].to_string();
        out.push(with_field(&text, 0, &board_text(&c)));
    }
    let dice: Vec<usize> = (0..36).filter(|&s| board[s] != ".").collect();
    let empty: Vec<usize> = (0..36).filter(|&s| board[s] == ".").collect();
    for _ in 0..2 {
        let mut c = board.clone();
        let (from, to) = (dice[rng.below(dice.len())], empty[rng.below(empty.len())]);
        c.swap(from, to);
        out.push(with_field(&text, 0, &board_text(&c)));
    }
    for _ in 0..2 {
        let mut c = board.clone();
        let d = dice[rng.below(dice.len())];
        let (owner, value) = (usize::from(board[d].starts_with('N')), board[d].as_bytes()[1] - b'0');
        c[d] = ".".into();
        let mut pl = piles.clone();
        pl[1 - owner].push(value);
        let captured = with_field(&text, 0, &board_text(&c));
        out.push(with_field(&captured, 3, &format!("{}/{}", pile_text(&pl[0]), pile_text(&pl[1]))));
    }
    out
}

/// Checks (a) along a random match from the start of `v` (at most `max_plies` plies), and (b)
/// at every `every`-th ply; returns (mutations accepted, mutations refused).
fn check_match(v: Variant, seed: u64, every: usize, max_plies: usize) -> Result<(usize, usize), TestCaseError> {
    let mut rng = Rng::new(seed);
    let mut p = Position::start(v);
    let mut buf = Vec::new();
    let (mut accepted, mut refused) = (0, 0);
    for i in 0..max_plies {
        let text = p.to_string();
        let back: Position = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(back, p);
        prop_assert_eq!(back.to_string(), text.clone());
        prop_assert_eq!(support::verdict(&text), Ok(()), "the checker refuses a reached position {}", text);
        p.legal_moves(&mut buf);
        if i % every == 0 || buf.is_empty() || rng.below(every) == 0 {
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
        if buf.is_empty() {
            break;
        }
        p.play_unchecked(buf[rng.below(buf.len())]);
    }
    Ok((accepted, refused))
}

fn max_plies() -> usize {
    if testkit::UNOPTIMISED { 2500 } else { 8000 }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if testkit::UNOPTIMISED { 12 } else { 64 }))]

    #[test]
    fn reached_positions_and_their_mutations(seed in any::<u64>(), which in 0..VARIANTS.len()) {
        let v = Variant::parse(VARIANTS[which]).unwrap();
        check_match(v, seed, 29, max_plies())?;
    }
}

/// Fixed seeds, every variant: both verdicts occur among the mutations, so (b) compares
/// something on each side.
#[test]
fn mutations_reach_both_verdicts() {
    let (mut accepted, mut refused) = (0, 0);
    for (i, t) in VARIANTS.iter().enumerate() {
        let (a, r) = check_match(Variant::parse(t).unwrap(), 2000 + i as u64, 41, max_plies()).unwrap();
        accepted += a;
        refused += r;
    }
    eprintln!("accepted {accepted}, refused {refused}");
    assert!(accepted > 300 && refused > 1000, "accepted {accepted}, refused {refused}");
}
