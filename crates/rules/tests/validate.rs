//! Position validation (`Setup::validate`) against reachability.
//!
//! 1. Each class of unreachable position of issue 8 (item 6), and the others
//!    of the same kind, is refused with its reason.
//! 2. Every position reached by random play, draft and play phase, passes.
//! 3. A checker written here from the rules text (RULES-NOTES.md,
//!    NOTATION.md), in plain code that shares nothing with `validate` but the
//!    data types, agrees with `validate` on mutations of reached positions
//!    (side flipped, clock changed, restricted set moved, piles changed, dice
//!    moved or taken off).

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use senat_rules::board::{CELLS, Cell};
use senat_rules::{GameRecord, Phase, Piles, Position, Setup};
use testkit::SplitMix64;

/// The generator of the random games: xoshiro256++ seeded with four
/// splitmix64 outputs, as `game_search::rng::rng_from_seed` seeds the lab's
/// (the rules crate does not depend on the search crate), so that a seed
/// draws the games it always drew.
type GameRng = Xoshiro256PlusPlus;

/// The generator of seed `seed`.
fn rng_from_seed(seed: u64) -> GameRng {
    let mut mix = SplitMix64::new(seed);
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_exact_mut(8) {
        chunk.copy_from_slice(&mix.next_u64().to_le_bytes());
    }
    GameRng::from_seed(bytes)
}

/// A uniform index below `n` by multiply-shift (`game_search::rng::below`).
fn below(rng: &mut GameRng, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

// ---- 1. each class refused with its reason --------------------------------

/// A reachable start of play (the sample game's first position).
const START: &str = senat_rules::sample::START;

fn refused(spn: &str, why: &str) {
    match spn.parse::<Position>() {
        Ok(_) => panic!("{spn}: accepted, expected a refusal about {why:?}"),
        Err(e) => assert!(e.to_string().contains(why), "{spn}: {e} (expected {why:?})"),
    }
}

fn accepted(spn: &str) {
    if let Err(e) = spn.parse::<Position>() {
        panic!("{spn}: {e}");
    }
}

/// The sample start with its turn, restricted set, piles and clock replaced.
fn start_with(tail: &str) -> String {
    let board = START.split(' ').next().unwrap();
    format!("{board} {tail}")
}

#[test]
fn side_to_move_must_match_the_clock_while_the_piles_are_empty() {
    accepted(&start_with("b - 0-0-0 0"));
    accepted(&start_with("r - 0-0-0 7"));
    refused(&start_with("r - 0-0-0 0"), "red to move at clock 0 with empty piles");
    refused(&start_with("r - 0-0-0 12"), "blue moves at even clocks");
    refused(&start_with("b - 0-0-0 13"), "blue to move at clock 13");
}

#[test]
fn no_restricted_die_before_any_move() {
    refused(&start_with("b S1 0-0-0 0"), "no move has been played yet");
    refused(&start_with("b M12,S1 0-0-0 0"), "no move has been played yet");
    accepted(&start_with("r S1 0-0-0 1"));
}

#[test]
fn two_restricted_dice_come_from_a_permutation() {
    // Rows S and M, M and I: only after a permutation into a full row.
    accepted(&start_with("r S1,M12 0-0-0 1"));
    accepted(&start_with("r I19,M12 0-0-0 1"));
    refused(&start_with("r S1,S2 0-0-0 1"), "only a permutation restricts two");
    refused(&start_with("r M12,M13 0-0-0 1"), "only a permutation restricts two");
    refused(&start_with("r I19,I20 0-0-0 1"), "only a permutation restricts two");
    refused(&start_with("r S1,I19 0-0-0 1"), "only a permutation restricts two");
    // M not full, S full: S+M is possible (a push from M into S), M+I is not.
    let m_gap =
        "3Tr,8Sb,10Tb,13Sr,18Tr,9Tb,6Cr,12Sb,5Cr,15Tr,16Sb/7Cr,4Sb,17Cb,23Cr,1Sr,22Tr,./14Cb,2Cb,21Tr,11Cr,19Tb";
    accepted(&format!("{m_gap} r S1,M12 1-0-0 3"));
    refused(&format!("{m_gap} r I19,M12 1-0-0 3"), "row M is not full");
    // Neither S nor M full.
    let gaps = ".,8Sb,10Tb,13Sr,18Tr,9Tb,6Cr,12Sb,5Cr,15Tr,16Sb/7Cr,4Sb,17Cb,23Cr,1Sr,22Tr,./14Cb,2Cb,21Tr,11Cr,19Tb";
    refused(&format!("{gaps} r S2,M12 1-0-1 3"), "neither row S nor row M is full");
    // A permutation makes the clock tick.
    refused(&format!("{m_gap} r S1,M12 1-0-0 0"), "permutation makes the clock tick");
}

#[test]
fn clock_zero_after_the_door() {
    // Row I full: an ejection restricts its target in row I.
    let i_full =
        "3Tr,8Sb,10Tb,13Sr,18Tr,9Tb,6Cr,12Sb,5Cr,15Tr,16Sb/7Cr,4Sb,17Cb,23Cr,1Sr,22Tr,./14Cb,2Cb,21Tr,11Cr,19Tb";
    accepted(&format!("{i_full} r I20 0-1-0 0"));
    refused(&format!("{i_full} r M12 0-1-0 0"), "only an ejection restricts");
    refused(&format!("{i_full} r - 0-1-0 0"), "row I is full");
    // Row I not full: a door push restricts nothing.
    let i_gap =
        "3Tr,8Sb,10Tb,13Sr,18Tr,9Tb,6Cr,12Sb,5Cr,15Tr,16Sb/7Cr,4Sb,17Cb,23Cr,1Sr,22Tr,20Cb/14Cb,2Cb,21Tr,11Cr,.";
    accepted(&format!("{i_gap} r - 0-0-1 0"));
    refused(&format!("{i_gap} r I20 0-0-1 0"), "which leaves row I full");
}

#[test]
fn a_pile_of_five_ends_the_game_at_clock_zero() {
    let board = "3Tr,8Sb,10Tb,13Sr,18Tr,9Tb,6Cr,.,.,.,./7Cr,4Sb,.,.,.,.,./14Cb,2Cb,21Tr,11Cr,.";
    // Off the board: 1 5 12 15 16 17 19 20 22 23 (10 dice).
    accepted(&format!("{board} r - 5-3-2 0"));
    refused(&format!("{board} r - 5-3-2 4"), "a pile of 5 ends the game");
    refused(&format!("{board} b - 3-5-2 1"), "at clock 0, not 1");
}

#[test]
fn every_die_in_a_pile_of_a_colour_it_can_show() {
    // Off the board: die 2 only (it never shows white).
    let two_off =
        "3Tr,8Sb,10Tb,13Sr,18Tr,9Tb,6Cr,12Sb,5Cr,15Tr,16Sb/7Cr,4Sb,17Cb,23Cr,1Sr,22Tr,20Cb/14Cb,.,21Tr,11Cr,19Tb";
    accepted(&format!("{two_off} r - 1-0-0 3"));
    accepted(&format!("{two_off} r - 0-1-0 3"));
    refused(&format!("{two_off} r - 0-0-1 3"), "cannot make piles 0-0-1");
    // Off the board: die 23 only (never blue), die 3 only (always white), die 4 only (never red).
    let off = |die: &str| START.split(' ').next().unwrap().replacen(die, ".", 1);
    refused(&format!("{} r - 0-1-0 3", off("23Cr")), "die 23 never blue");
    accepted(&format!("{} r - 1-0-0 3", off("23Cr")));
    refused(&format!("{} r - 1-0-0 3", off("3Tr")), "cannot make piles 1-0-0");
    accepted(&format!("{} r - 0-0-1 3", off("3Tr")));
    refused(&format!("{} r - 1-0-0 3", off("4Sb")), "cannot make piles 1-0-0");
    accepted(&format!("{} r - 0-1-0 3", off("4Sb")));
}

// ---- 2 and 3. random play and the independent checker ----------------------

/// The faces (indices 0..6) whitened on die `n`, from NOTATION.md: none on
/// dice 1 and 2, all on die 3, the 3-subsets of {0..5} in lexicographic
/// order on dice 4 to 23.
fn whitened_faces(n: u8) -> Vec<u8> {
    match n {
        1 | 2 => vec![],
        3 => (0..6).collect(),
        _ => {
            let mut subsets = Vec::new();
            for a in 0..6 {
                for b in a + 1..6 {
                    for c in b + 1..6 {
                        subsets.push(vec![a, b, c]);
                    }
                }
            }
            subsets[n as usize - 4].clone()
        }
    }
}

/// Which piles (red, blue, white) die `n` can end up in: the colours it can
/// show (a face printed red or blue that is not whitened, or a whitened one).
fn pile_colours(n: u8) -> [bool; 3] {
    let w = whitened_faces(n);
    [(0..3).any(|f| !w.contains(&f)), (3..6).any(|f| !w.contains(&f)), !w.is_empty()]
}

/// Whether the dice `off` can be put in piles of exactly these sizes, each
/// in a colour it can show: every die that cannot show all three colours is
/// tried in each of its colours, and the rest fill what is left.
fn piles_possible(off: &[u8], sizes: [u8; 3]) -> bool {
    let (fixed, free): (Vec<u8>, Vec<u8>) = off.iter().partition(|&&n| pile_colours(n) != [true; 3]);
    fn go(fixed: &[u8], left: [i32; 3], free: usize) -> bool {
        match fixed.split_first() {
            None => left.iter().all(|&l| l >= 0) && left.iter().sum::<i32>() == free as i32,
            Some((&n, rest)) => (0..3).any(|c| {
                let mut l = left;
                l[c] -= 1;
                pile_colours(n)[c] && go(rest, l, free)
            }),
        }
    }
    go(&fixed, sizes.map(i32::from), free.len())
}

/// The row of cell index `i`: 0 (S, 11 cells), 1 (M, 7) or 2 (I, 5).
fn row(i: usize) -> usize {
    match i {
        0..=10 => 0,
        11..=17 => 1,
        _ => 2,
    }
}

/// Whether the setup can occur in a game, decided from the rules text alone.
fn rules_allow(s: &Setup) -> bool {
    let numbers: Vec<u8> = s.cells.iter().flatten().map(|(d, _)| d.number()).collect();
    let mut sorted = numbers.clone();
    sorted.sort();
    sorted.dedup();
    if sorted.len() != numbers.len() {
        return false; // a die on two cells
    }
    let r: Vec<usize> = s.restricted.iter().map(|c| c.index()).collect();
    if r.len() > 2 || (r.len() == 2 && r[0] == r[1]) || r.iter().any(|&i| s.cells[i].is_none()) {
        return false;
    }
    if s.clock > 60 {
        return false;
    }
    let placed = numbers.len();
    let in_row = |k: usize| (0..CELLS).filter(|&i| row(i) == k && s.cells[i].is_some()).count();
    let row_full = |k: usize| in_row(k) == [11, 7, 5][k];
    let p = s.piles;
    if s.swapped {
        return false; // the decision after the draft is a variant's (swap=yes)
    }
    match s.phase {
        Phase::Decide => false,
        Phase::Give | Phase::Place(_) => {
            if let Phase::Place(d) = s.phase
                && numbers.contains(&d.number())
            {
                return false;
            }
            // Placement k = placed + 1: red places when k is odd, blue gives then.
            let k = placed + 1;
            let giver_is_blue = k % 2 == 1;
            let mover_is_blue = if s.phase == Phase::Give { giver_is_blue } else { !giver_is_blue };
            placed < 23
                && r.is_empty()
                && p == Piles::default()
                && s.clock == 0
                && mover_is_blue == (s.side == senat_rules::Side::Blue)
        }
        Phase::Play => {
            let total = (p.red + p.blue + p.white) as usize;
            if placed + total != 23 || p.red > 5 || p.blue > 5 || (p.red == 5 && p.blue == 5) {
                return false;
            }
            if (p.red == 5 || p.blue == 5) && s.clock != 0 {
                return false; // majority is reached by a die through the door
            }
            let off: Vec<u8> = (1..=23).filter(|n| !numbers.contains(n)).collect();
            if !piles_possible(&off, [p.red, p.blue, p.white]) {
                return false;
            }
            if total == 0 {
                // Every play half-move since blue's first is on the clock.
                if s.clock.is_multiple_of(2) != (s.side == senat_rules::Side::Blue) {
                    return false;
                }
                if s.clock == 0 && !r.is_empty() {
                    return false;
                }
            }
            match r.len() {
                // Clock 0 after a die left: a push through the door from row I.
                0 => !(s.clock == 0 && total > 0 && row_full(2)),
                // Clock 0: an ejection; the pusher's target replaced the ejected die in row I.
                1 => s.clock != 0 || (row(r[0]) == 2 && row_full(2)),
                _ => {
                    let rows = [row(r[0]), row(r[1])];
                    let other = if rows[0] == 1 { rows[1] } else { rows[0] };
                    rows.contains(&1) && other != 1 && s.clock > 0 && (row_full(1) || (other == 0 && row_full(0)))
                }
            }
        }
    }
}

/// A random mutation of a setup that keeps it well formed.
fn mutate(s: &Setup, rng: &mut GameRng) -> Setup {
    let mut m = s.clone();
    let occupied: Vec<usize> = (0..CELLS).filter(|&i| s.cells[i].is_some()).collect();
    let empty: Vec<usize> = (0..CELLS).filter(|&i| s.cells[i].is_none()).collect();
    let cell = |i: usize| Cell::from_index(i as u8).unwrap();
    let pick = |rng: &mut GameRng, v: &[usize]| v[below(rng, v.len())];
    match below(rng, 9) {
        0 => m.side = m.side.other(),
        1 => m.clock = below(rng, 61) as u8,
        2 => m.clock = (m.clock as i32 + [-1, 1][below(rng, 2)]).clamp(0, 60) as u8,
        3 => m.restricted.clear(),
        4 if !occupied.is_empty() => m.restricted = vec![cell(pick(rng, &occupied))],
        5 if occupied.len() >= 2 => {
            let a = pick(rng, &occupied);
            let b = pick(rng, &occupied);
            m.restricted = if a == b { vec![cell(a)] } else { vec![cell(a), cell(b)] };
        }
        6 => {
            // One die moves from one pile to another, or a pile changes size.
            let mut sizes = [m.piles.red, m.piles.blue, m.piles.white];
            let (from, to) = (below(rng, 3), below(rng, 3));
            if below(rng, 2) == 0 && sizes[from] > 0 {
                sizes[from] -= 1;
                sizes[to] += 1;
            } else {
                sizes[to] = below(rng, 7) as u8;
            }
            m.piles = Piles { red: sizes[0], blue: sizes[1], white: sizes[2] };
        }
        7 if !occupied.is_empty() && !empty.is_empty() => {
            let (a, b) = (pick(rng, &occupied), pick(rng, &empty));
            m.cells.swap(a, b);
            m.restricted.retain(|c| c.index() != a);
        }
        8 if !occupied.is_empty() && m.phase == Phase::Play => {
            // A die taken off the board into a random pile.
            let a = pick(rng, &occupied);
            m.cells[a] = None;
            m.restricted.retain(|c| c.index() != a);
            match below(rng, 3) {
                0 => m.piles.red += 1,
                1 => m.piles.blue += 1,
                _ => m.piles.white += 1,
            }
        }
        _ => m.clock = m.clock.saturating_sub(1),
    }
    m
}

/// What one random game showed: positions checked, mutations accepted and
/// refused, and the shapes of reached positions seen.
#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    mutants_ok: usize,
    mutants_refused: usize,
    pair_restricted: usize,
    ejections: usize,
    door_pushes: usize,
    majorities: usize,
}

/// Plays one random game from the start with `seed`, checking every
/// position and `mutations` mutants of each against the rules checker.
fn random_game(seed: u64, mutations: usize, t: &mut Tally) {
    let mut rng = rng_from_seed(seed);
    let mut game = GameRecord::new(Position::start());
    loop {
        let p = *game.position();
        let s = Setup::from_position(&p);
        assert!(rules_allow(&s), "the rules checker refuses a reached position {}", p.to_spn());
        assert_eq!(s.validate(), Ok(p), "validate refuses a reached position {}", p.to_spn());
        t.positions += 1;
        if p.is_play() {
            let r = p.restricted().count();
            t.pair_restricted += (r == 2) as usize;
            t.ejections += (r == 1 && p.clock() == 0) as usize;
            t.door_pushes += (r == 0 && p.clock() == 0 && p.piles().total() > 0) as usize;
            t.majorities += p.majority().is_some() as usize;
        }
        for _ in 0..mutations {
            let m = mutate(&s, &mut rng);
            let (ours, theirs) = (rules_allow(&m), m.validate());
            assert_eq!(
                ours,
                theirs.is_ok(),
                "mutant of {}: rules say {ours}, validate says {theirs:?}\n{m:?}",
                p.to_spn()
            );
            if ours {
                t.mutants_ok += 1;
            } else {
                t.mutants_refused += 1;
            }
        }
        if game.outcome().is_some() {
            break;
        }
        let moves = p.legal_moves();
        game.play(moves[below(&mut rng, moves.len())]).unwrap();
    }
}

#[test]
fn random_games_cover_every_shape_and_agree_with_the_rules() {
    let mut t = Tally::default();
    for seed in 0..150 {
        random_game(seed, 4, &mut t);
    }
    println!("{t:?}");
    // The checks above ran on every shape of position, and on both verdicts.
    assert!(t.positions > 10_000, "{t:?}");
    assert!(t.mutants_ok > 1000 && t.mutants_refused > 1000, "{t:?}");
    assert!(t.pair_restricted > 0 && t.ejections > 0 && t.door_pushes > 0 && t.majorities > 0, "{t:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn reached_positions_pass_and_mutants_agree(seed in any::<u64>()) {
        random_game(seed, 8, &mut Tally::default());
    }
}
