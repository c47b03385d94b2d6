//! The constraint search that found the die numbers of the sample game.
//!
//! The rules print the sample game's boards as symbols and colours only.
//! This search assigns the 23 dice to the 23 cells of the printed start so
//! that each die can show its printed look, replays the 27 moves with the
//! engine (every move must be legal, every printed board reached) and keeps
//! the assignments where blue has 81 legal moves, 6 of them scoring.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use senat_rules::sample::{self, LOOKS_AFTER_6, LOOKS_AFTER_13, LOOKS_FINAL, LOOKS_START};
use senat_rules::{Colour, Die, Face, GameRecord, Piles, Position, Setup, Side, Symbol};

/// (symbol, colour) per cell of a printed board.
fn parse_looks(s: &str) -> Vec<Option<(Symbol, Colour)>> {
    s.split(['/', ','])
        .map(|t| {
            let mut ch = t.chars();
            let sym = match ch.next()? {
                'T' => Symbol::Triangle,
                'S' => Symbol::Square,
                'C' => Symbol::Circle,
                _ => return None,
            };
            let col = match ch.next()? {
                'r' => Colour::Red,
                'b' => Colour::Blue,
                _ => Colour::White,
            };
            Some((sym, col))
        })
        .collect()
}

fn moves() -> Vec<&'static str> {
    sample::record_lines().skip(1).collect()
}

/// Replays the game from `start`; returns whether every move is legal and every printed board is reached.
fn replays(start: Position) -> bool {
    let mut game = GameRecord::new(start);
    for (i, text) in moves().into_iter().enumerate() {
        let Ok(m) = game.position().parse_move(text) else { return false };
        if game.play(m).is_err() {
            return false;
        }
        let want = match i + 1 {
            6 => LOOKS_AFTER_6,
            13 => LOOKS_AFTER_13,
            27 => LOOKS_FINAL,
            _ => continue,
        };
        if sample::looks(game.position()) != want {
            return false;
        }
    }
    let p = game.position();
    p.piles().red == 4 && p.piles().blue == 5 && game.outcome().is_some_and(|o| o.winner == Some(Side::Blue))
}

/// Blue's legal moves at the start, and how many put a blue die in the blue pile.
fn counts(start: &Position) -> (usize, usize) {
    let moves = start.legal_moves();
    let scoring = moves
        .iter()
        .filter(|&&m| {
            let mut c = *start;
            c.play_unchecked(m);
            c.piles().blue > start.piles().blue
        })
        .count();
    (moves.len(), scoring)
}

/// One random assignment of dice to the printed start: cells with the
/// fewest candidate dice first, random choice among candidates, bounded
/// backtracking (gives up after `budget` steps).
fn random_assignment(rng: &mut Xoshiro256PlusPlus) -> Option<Position> {
    let looks = parse_looks(LOOKS_START);
    let cands: Vec<Vec<(Die, Face)>> = looks
        .iter()
        .map(|l| {
            let (sym, col) = l.expect("start board is full");
            Die::all().filter_map(|d| d.face_showing(sym, col).map(|f| (d, f))).collect()
        })
        .collect();
    let mut order: Vec<usize> = (0..23).collect();
    // Random tie-break, then most constrained first.
    for i in (1..23).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    order.sort_by_key(|&c| cands[c].len());
    struct Search<'a> {
        order: &'a [usize],
        cands: &'a [Vec<(Die, Face)>],
        cells: [Option<(Die, Face)>; 23],
        budget: u32,
    }
    fn go(s: &mut Search, k: usize, used: u32, rng: &mut Xoshiro256PlusPlus) -> bool {
        if k == s.order.len() {
            return true;
        }
        if s.budget == 0 {
            return false;
        }
        s.budget -= 1;
        let c = s.order[k];
        let mut options: Vec<(Die, Face)> =
            s.cands[c].iter().copied().filter(|(d, _)| used >> d.number() & 1 == 0).collect();
        while !options.is_empty() {
            let (d, f) = options.swap_remove(rng.random_range(0..options.len()));
            s.cells[c] = Some((d, f));
            if go(s, k + 1, used | 1 << d.number(), rng) {
                return true;
            }
        }
        s.cells[c] = None;
        false
    }
    let mut s = Search { order: &order, cands: &cands, cells: [None; 23], budget: 10_000 };
    if !go(&mut s, 0, 0, rng) {
        return None;
    }
    let setup = Setup {
        cells: s.cells,
        phase: senat_rules::Phase::Play,
        side: Side::Blue,
        restricted: vec![],
        piles: Piles::default(),
        clock: 0,
        swapped: false,
    };
    setup.validate().ok()
}

/// The search itself: 300 random assignments, each replayed through the 27
/// moves. Slow and randomized, so not in the default run (the pinned result
/// is checked by the next test): `cargo test --release -p senat-rules --test sample_search -- --ignored`.
#[test]
#[ignore = "the 300-assignment search is slow; run with --ignored (the pinned result is always checked)"]
fn search_finds_assignments_with_81_moves_and_6_scoring() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    let (mut replaying, mut found, mut histogram) = (0, None, std::collections::BTreeMap::new());
    for _ in 0..300 {
        let Some(p) = random_assignment(&mut rng) else { continue };
        if !replays(p) {
            continue;
        }
        replaying += 1;
        let (n, s) = counts(&p);
        *histogram.entry((n, s)).or_insert(0) += 1;
        if n == 81 && s == 6 && found.is_none() {
            found = Some(p);
        }
    }
    eprintln!("assignments that replay: {replaying}; (moves, scoring) counts: {histogram:?}");
    let p = found.expect("an assignment with 81 moves, 6 scoring");
    eprintln!("first with 81/6: {}", p.to_spn());
}

#[test]
fn pinned_start_replays_with_81_and_6() {
    let p: Position = sample::START.parse().expect("pinned SPN");
    assert_eq!(sample::looks(&p), LOOKS_START);
    assert!(replays(p));
    assert_eq!(counts(&p), (81, 6));
}
