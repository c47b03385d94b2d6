//! The solver's game-specific cuts, checked against what they replace:
//! Sénat's lower bound on the plies to a result
//! (`senat_rules::bounds::min_plies_to_result`, `Solvable::min_plies`)
//! never exceeds the true fewest plies (one-ply consistency on thousands of
//! positions of random play, exhaustive search to 3 plies on some), the
//! provers (alpha-beta and df-pn) answer the same with and without it on
//! thousands of positions,
//! a table shared by states of one position with different repetition
//! histories gives each its own verdict (the graph-history interaction),
//! and Sénat without repetition (`Solvable::relaxed`) answers each question
//! only the way that carries over, which changes no verdict.

use crate::support::games::{random_states, shuffling_states};
use game_search::Game as _;
use game_search::pns::Pns;
use game_search::solver::{Goal, Keeps, Solvable, Solver, Verdict};
use senat_lab::games::senat::{Senat, SenatState, player};
use senat_rules::bounds::{NEVER, min_plies_to_result};
use senat_rules::{Position, Side, Variant};

/// The four questions a bound answers: (side, or_draw).
const QUESTIONS: [(Side, bool); 4] = [(Side::Red, false), (Side::Red, true), (Side::Blue, false), (Side::Blue, true)];

/// Whether a game over with `winner` answers the question (`side`, `or_draw`).
fn reached(winner: Option<Side>, side: Side, or_draw: bool) -> bool {
    if or_draw { winner != Some(side.other()) } else { winner == Some(side) }
}

/// The bound of `s` for one question.
fn bound(s: &SenatState, side: Side, or_draw: bool) -> u32 {
    min_plies_to_result(s.position(), side, or_draw, s.recurrences())
}

/// One-ply consistency, which gives admissibility by induction on the true
/// distance: at a position where play goes on, the bound is at most one
/// more than the smallest over the moves of (0 for a move that ends the
/// game with the question answered, never for one that ends it otherwise,
/// the child's bound for the others); and the solver's `min_plies` is it.
#[test]
fn the_bound_is_consistent_on_random_positions() {
    // Random play, play that seeks repetitions and the clock, small
    // positions near closure: every end has its cases.
    let mut states = random_states(40, 150, 11);
    states.extend(shuffling_states(120, 150, 13));
    states.extend(small_walks());
    assert!(states.len() >= 6000, "{}", states.len());
    let (mut repeats, mut late) = (0, 0);
    let mut moves = Vec::new();
    let (mut positive, mut tight) = (0, 0);
    for s in &states {
        Senat::moves(s, &mut moves);
        for (side, or_draw) in QUESTIONS {
            let b = bound(s, side, or_draw);
            let goal = if or_draw { Goal::AtLeastDraw } else { Goal::Win };
            assert_eq!(Senat::min_plies(s, player(side), goal), b);
            let best = moves
                .iter()
                .map(|&m| {
                    let c = s.play(m);
                    match c.outcome() {
                        Some(o) if reached(o.winner, side, or_draw) => {
                            // The solver asks the bound before the end.
                            assert_eq!(bound(&c, side, or_draw), 0, "{} then {m}", s.position().to_spn());
                            0
                        }
                        Some(_) => NEVER,
                        None => bound(&c, side, or_draw),
                    }
                })
                .min()
                .unwrap_or(NEVER);
            let next = best.saturating_add(1);
            assert!(b <= next, "{} {side} or_draw {or_draw}: bound {b}, after one ply {best}", s.position().to_spn());
            positive += (b > 0 && b != NEVER) as usize;
            tight += (b == next && b > 1) as usize;
        }
        repeats += usize::from(s.recurrences().same > 1 || s.recurrences().other > 1);
        late += usize::from(s.position().clock() + 4 >= s.position().closure());
    }
    assert!(repeats >= 200 && late >= 100, "{repeats} states with a repeat, {late} near closure");
    // The bound says something, and is sometimes exact.
    assert!(positive >= 3000 && tight >= 100, "{positive} positive, {tight} tight");
}

/// The fewest plies after which the game is over with each question of
/// [`QUESTIONS`] answered, over every line (`None`: not within `depth`).
fn shortest(s: &SenatState, depth: u32) -> [Option<u32>; 4] {
    if let Some(o) = s.outcome() {
        return QUESTIONS.map(|(side, d)| reached(o.winner, side, d).then_some(0));
    }
    let mut best = [None; 4];
    if depth == 0 {
        return best;
    }
    let mut moves = Vec::new();
    Senat::moves(s, &mut moves);
    for m in moves {
        let below = shortest(&s.play(m), depth - 1);
        for (b, x) in best.iter_mut().zip(below) {
            if let Some(x) = x {
                *b = Some(b.map_or(x + 1, |b: u32| b.min(x + 1)));
            }
        }
    }
    best
}

/// Exhaustive search: the bound never exceeds the fewest plies to the
/// result where one exists within 2 plies (3 on some positions).
#[test]
fn the_bound_never_exceeds_the_brute_force_distance() {
    let states = random_states(80, 150, 23);
    // Late positions (the piles near the end) make short results likely;
    // small positions near closure, and repeated ones, reach the other ends.
    let mut late: Vec<&SenatState> = states.iter().filter(|s| s.position().piles().total() >= 7).take(150).collect();
    assert!(late.len() >= 150, "{}", late.len());
    let walks = small_walks();
    late.extend(walks.iter().step_by(3));
    let shuffled = shuffling_states(6, 150, 29);
    let repeated = shuffled.iter().filter(|s| s.recurrences().same > 1 || s.recurrences().other > 1);
    late.extend(repeated.step_by(5).take(40));
    let mut found = 0;
    for (i, s) in late.iter().enumerate() {
        let depth = if i % 30 == 0 || s.position().dice_count() <= 4 { 3 } else { 2 };
        for ((side, or_draw), d) in QUESTIONS.into_iter().zip(shortest(s, depth)) {
            let b = bound(s, side, or_draw);
            if let Some(d) = d {
                assert!(b <= d, "{} {side} or_draw {or_draw}: bound {b} > shortest {d}", s.position().to_spn());
                found += (d > 0) as usize;
            }
        }
    }
    assert!(found >= 30, "{found} short results");
}

/// The solver with and without the bound, at horizons 1 to 3, on thousands
/// of positions of random play: the same verdicts and depths, and the
/// bound saves nodes.
#[test]
fn the_bound_changes_no_verdict() {
    let mut states = random_states(30, 150, 5);
    states.extend(shuffling_states(10, 150, 17));
    let mut with = Solver::<Senat>::with_table_mb(16);
    let mut without = Solver::<Senat>::with_table_mb(16);
    without.bounds = false;
    let (mut checked, mut decided, mut n_with, mut n_without) = (0, 0, 0u64, 0u64);
    for (i, s) in states.iter().enumerate().filter(|(i, _)| i % 2 == 0) {
        for d in 1..=3 {
            let a = with.solve(s, d);
            let b = without.solve(s, d);
            assert_eq!(a.verdict, b.verdict, "state {i} ({}) horizon {d}", s.position().to_spn());
            assert_eq!(a.depth, b.depth, "state {i} horizon {d}");
            checked += 1;
            decided += (a.verdict != Verdict::Unknown) as usize;
            n_with += a.nodes;
            n_without += b.nodes;
        }
    }
    assert!(checked >= 3000 && decided >= 100, "{checked} checked, {decided} decided");
    assert!(n_with < n_without, "nodes with the bound {n_with}, without {n_without}");
}

/// The same for deepening df-pn (`Pns::bounds`), on fewer positions.
#[test]
fn the_bound_changes_no_pns_verdict() {
    let states = random_states(12, 150, 9);
    let mut with = Pns::<Senat>::with_table_mb(16);
    let mut without = Pns::<Senat>::with_table_mb(16);
    with.deepen = true;
    without.deepen = true;
    without.bounds = false;
    let (mut checked, mut decided) = (0, 0);
    for (i, s) in states.iter().enumerate().filter(|(i, _)| i % 3 == 0) {
        for d in 1..=3 {
            let (a, b) = (with.solve(s, d).verdict, without.solve(s, d).verdict);
            assert_eq!(a, b, "state {i} ({}) horizon {d}", s.position().to_spn());
            checked += 1;
            decided += (a != Verdict::Unknown) as usize;
        }
    }
    assert!(checked >= 500 && decided >= 20, "{checked} checked, {decided} decided");
}

/// Deeper: the sample game's fixtures at their horizons, with and without
/// the bound, give the same verdict and line length.
#[test]
fn the_bound_changes_no_verdict_in_the_sample_game() {
    for (after, depth, expected) in [(15, 7, Verdict::Win(5)), (17, 7, Verdict::Unknown), (24, 5, Verdict::Win(3))] {
        let s = crate::support::solver_positions::sample_after(after).unwrap();
        let a = Solver::<Senat>::new().solve(&s, depth);
        let mut plain = Solver::<Senat>::new();
        plain.bounds = false;
        let b = plain.solve(&s, depth);
        assert_eq!((a.verdict, b.verdict), (expected, expected), "after {after}");
        assert_eq!(a.pv.len(), b.pv.len(), "after {after}");
        assert!(a.nodes <= b.nodes, "after {after}: {} with, {} without", a.nodes, b.nodes);
    }
}

/// Whether `player` forces the game over with `goal` within `depth` plies,
/// by plain search: no table, no bound, no shortcut.
fn plain_forces(s: &SenatState, player: usize, goal: Goal, depth: u32) -> bool {
    if let Some(o) = s.outcome() {
        let side = if player == 0 { Side::Red } else { Side::Blue };
        return reached(o.winner, side, goal == Goal::AtLeastDraw);
    }
    if depth == 0 {
        return false;
    }
    let mine = Senat::to_move(s) == player;
    let mut moves = Vec::new();
    Senat::moves(s, &mut moves);
    let mut it = moves.iter().map(|&m| plain_forces(&s.play(m), player, goal, depth - 1));
    if mine { it.any(|v| v) } else { it.all(|v| v) }
}

/// [`Solver::solve`]'s verdict at horizon `max` (at most 4, where a draw
/// is looked for at every horizon) by plain search.
fn plain_verdict(s: &SenatState, max: u32) -> Verdict {
    let me = Senat::to_move(s);
    let other = 1 - me;
    if s.outcome().is_some() {
        return Verdict::Unknown;
    }
    for d in 1..=max {
        if plain_forces(s, me, Goal::Win, d) {
            return Verdict::Win(d);
        }
        if plain_forces(s, other, Goal::Win, d) {
            return Verdict::Loss(d);
        }
        if plain_forces(s, other, Goal::AtLeastDraw, d) && plain_forces(s, me, Goal::AtLeastDraw, d) {
            return Verdict::Draw(d);
        }
    }
    Verdict::Unknown
}

/// States of seeded random walks from small positions (few dice, the clock
/// near closure), which come back to the same positions with other
/// repetition counts and clocks.
fn small_walks() -> Vec<SenatState> {
    let starts = [
        ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./4Tb,.,3Tr,.,23Tr b - 4-3-13 48",
        ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./4Tb,.,3Tr,.,23Tr r - 4-4-12 50",
        ".,.,.,.,4Tb,.,.,.,.,23Tr,./.,.,.,.,.,.,./.,.,.,.,. b - 4-3-14 52",
        ".,.,.,.,.,.,.,.,.,.,./.,.,4Tb,.,23Sr,.,./.,.,.,.,. b - 3-3-15 50",
    ];
    walks_from(&starts, 6, 14, 3)
}

/// The states of `games` seeded walks of at most `steps` half-moves from
/// each of `starts`, each move one of the first three (so that positions
/// come back), until the game is over.
fn walks_from(starts: &[&str], games: usize, steps: usize, seed: u64) -> Vec<SenatState> {
    let starts: Vec<Position> = starts.iter().map(|spn| spn.parse().unwrap_or_else(|e| panic!("{spn}: {e}"))).collect();
    walks_of(&starts, games, steps, seed)
}

/// [`walks_from`] from positions.
fn walks_of(starts: &[Position], games: usize, steps: usize, mut seed: u64) -> Vec<SenatState> {
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for &start in starts {
        for _ in 0..games {
            let mut s = SenatState::new(start);
            for _ in 0..steps {
                if s.outcome().is_some() {
                    break;
                }
                out.push(s);
                Senat::moves(&s, &mut moves);
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                s = s.play(moves[(seed >> 33) as usize % moves.len().min(3)]);
            }
        }
    }
    out
}

/// The graph-history interaction: states of one position reached with
/// other repetition counts or clocks may have other values. The solver,
/// with one table for all of them (in both orders), must give every state
/// the verdict of a plain search without a table; the test checks that
/// such states exist, so that a table keyed by the position alone fails it.
#[test]
fn one_table_for_states_with_different_histories() {
    let states = small_walks();
    let depth = 4;
    let plain: Vec<Verdict> = states.iter().map(|s| plain_verdict(s, depth)).collect();
    let sensitive = (0..states.len())
        .flat_map(|i| (0..i).map(move |j| (i, j)))
        .filter(|&(i, j)| states[i].position_hash() == states[j].position_hash() && plain[i] != plain[j])
        .count();
    let decided = plain.iter().filter(|v| !matches!(v, Verdict::Unknown | Verdict::Win(1) | Verdict::Loss(1))).count();
    assert!(sensitive >= 5 && decided >= 20, "{sensitive} pairs, {decided} decided: {plain:?}");
    for reversed in [false, true] {
        let mut shared = Solver::<Senat>::with_table_mb(1);
        let mut order: Vec<usize> = (0..states.len()).collect();
        if reversed {
            order.reverse();
        }
        for i in order {
            let v = shared.solve(&states[i], depth).verdict;
            assert_eq!(v, plain[i], "state {i} ({}), reversed {reversed}", states[i].position().to_spn());
        }
    }
}

/// A position where repetition alone saves red: blue (4 dice, as red)
/// flips red's circle of I20 to blue next to its square, and pushes it out
/// at its next turn, unless red's reply repeats a position for the third
/// time (a draw): blue forces a win within 3 plies without repetition,
/// not with it (it does within 5, another way).
fn saved_by_repetition() -> SenatState {
    let start = ".,.,.,.,.,.,.,.,.,.,14Tr/.,.,.,.,.,.,./4Sb,5Cr,6Tb,3Tr,23Tb b - 4-4-9 5";
    let moves = ["I21>I20", "S11-S10", "I21>I20", "S10-S11", "I21>I20", "S11-S10", "I21>I20", "S10-S9"];
    moves.iter().fold(crate::support::games::state(start), |s, text| {
        let m = s.position().parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        s.play(m)
    })
}

/// Small positions near closure where one side holds 4 dice, walked so
/// that positions come back: [`small_walks`], whose piles are 4-3, 4-4
/// and 3-3, three more starts with more dice, and [`saved_by_repetition`].
fn relaxation_states() -> Vec<SenatState> {
    let mut states = small_walks();
    states.push(saved_by_repetition());
    let starts = [
        ".,.,.,.,.,.,.,.,.,.,./.,.,.,9Sb,.,.,./4Tb,.,3Tr,.,23Tr r - 3-4-12 44",
        ".,.,.,7Cr,.,.,.,.,.,.,./.,.,.,.,.,.,./4Tb,.,3Sr,.,23Tr b - 4-3-12 46",
        ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,9Sr,.,./4Tb,.,3Sb,.,23Tr r - 4-4-11 48",
    ];
    states.extend(walks_from(&starts, 12, 30, 7));
    states
}

/// The relaxation against plain search: wherever Sénat offers one, the
/// relaxed game's answer is the game's whenever it is the kind kept ("no"
/// for a win when the rival holds 4, "yes" for a draw when the player
/// does), at horizons 1 to 4; and the other kind differs somewhere, so
/// that keeping the wrong kind fails this test.
#[test]
fn the_relaxation_keeps_only_answers_that_carry_over() {
    let states = relaxation_states();
    let (mut asked, mut differ) = (0, [0, 0]);
    for s in &states {
        for player in 0..2 {
            for goal in [Goal::Win, Goal::AtLeastDraw] {
                let Some(r) = Senat::relaxed(s, player, goal) else { continue };
                assert!(r.state.is_relaxed() && Senat::relaxed(&r.state, player, goal).is_none());
                assert_eq!(r.state.position(), s.position());
                for d in 1..=4 {
                    let exact = plain_forces(s, player, goal, d);
                    let relaxed = plain_forces(&r.state, player, goal, d);
                    let spn = s.position().to_spn();
                    match r.keeps {
                        Keeps::Noes => assert!(relaxed || !exact, "{spn} player {player} {goal:?} at {d}"),
                        Keeps::Yeses => assert!(!relaxed || exact, "{spn} player {player} {goal:?} at {d}"),
                    }
                    asked += 1;
                    differ[(r.keeps == Keeps::Yeses) as usize] += (exact != relaxed) as usize;
                }
            }
        }
    }
    assert!(asked >= 1000, "{asked} questions");
    assert!(differ[0] >= 1 && differ[1] >= 3, "relaxed answers that differ, noes / yeses kept: {differ:?}");
    let s = saved_by_repetition();
    let blue = player(Side::Blue);
    let relaxed = Senat::relaxed(&s, blue, Goal::Win).expect("red holds 4 dice");
    assert_eq!(relaxed.keeps, Keeps::Noes);
    assert!(plain_forces(&relaxed.state, blue, Goal::Win, 3) && !plain_forces(&s, blue, Goal::Win, 3));
    assert_eq!(Solver::<Senat>::new().solve(&s, 3).verdict, Verdict::Unknown);
    assert_eq!(Solver::<Senat>::new().solve(&s, 5).verdict, Verdict::Win(5));
}

/// The solver with and without the relaxation, at horizons 1 to 4: the
/// same verdicts and depths, on the relaxation's positions and on
/// positions of play that seeks repetitions; and it saves nodes.
#[test]
fn the_relaxation_changes_no_verdict() {
    let mut states = relaxation_states();
    states.extend(shuffling_states(10, 150, 31).into_iter().step_by(3));
    let mut with = Solver::<Senat>::with_table_mb(16);
    let mut without = Solver::<Senat>::with_table_mb(16);
    without.relax = false;
    let (mut checked, mut decided, mut relaxed) = (0, 0, 0);
    for (i, s) in states.iter().enumerate() {
        relaxed += (0..2).any(|p| Senat::relaxed(s, p, Goal::Win).is_some()) as usize;
        for d in 1..=4 {
            let (a, b) = (with.solve(s, d), without.solve(s, d));
            assert_eq!((a.verdict, a.depth), (b.verdict, b.depth), "state {i} ({}) horizon {d}", s.position().to_spn());
            checked += 1;
            decided += (a.verdict != Verdict::Unknown) as usize;
        }
    }
    assert!(
        checked >= 1500 && decided >= 100 && relaxed >= 200,
        "{checked} checked, {decided} decided, {relaxed} relaxed"
    );
    // After the sample game's move 13 (red 4, blue 3), blue's win is asked
    // without repetition: no forced win within 9 plies, for fewer nodes.
    let s = crate::support::solver_positions::sample_after(13).unwrap();
    let blue = player(Side::Blue);
    assert!(Senat::relaxed(&s, blue, Goal::Win).is_some_and(|r| r.keeps == Keeps::Noes));
    let a = Solver::<Senat>::new().forced_win(&s, blue, 9);
    let mut plain = Solver::<Senat>::new();
    plain.relax = false;
    let b = plain.forced_win(&s, blue, 9);
    assert_eq!((a.verdict, a.depth, b.verdict, b.depth), (Verdict::Unknown, 9, Verdict::Unknown, 9));
    assert!(a.nodes < b.nodes, "{} nodes with the relaxation, {} without", a.nodes, b.nodes);
}

/// The bound and the relaxation under the variants that move the goal
/// (`ties=second`, `second_majority`): one-ply consistency of the bound,
/// and the relaxation's kept answers against plain search to 3 plies, on
/// walks from the small positions read in each variant.
#[test]
fn the_bound_and_the_relaxation_hold_in_the_variants() {
    let starts = [
        ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./4Tb,.,3Tr,.,23Tr b - 4-3-13 48",
        ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./4Tb,.,3Tr,.,23Tr r - 4-4-12 50",
        ".,.,.,.,.,.,.,.,.,.,./.,.,4Tb,.,23Sr,.,./.,.,.,.,. b - 3-3-15 50",
        ".,.,.,.,.,.,.,.,.,.,./.,.,.,9Sb,.,.,./4Tb,.,3Tr,.,23Tr r - 3-4-12 44",
        ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,9Sr,.,./4Tb,.,3Sb,.,23Tr r - 4-4-11 48",
    ];
    let mut moves = Vec::new();
    for text in
        ["ties=second", "first_mover=red,ties=second", "second_majority=6,ties=second", "majority=6,second_majority=5"]
    {
        let v = Variant::parse(text).unwrap();
        let positions: Vec<Position> = starts.iter().filter_map(|spn| Position::from_spn_in(spn, v).ok()).collect();
        let states = walks_of(&positions, 4, 12, 5);
        assert!(states.len() >= 60, "{text}: {} states", states.len());
        let mut relaxed = 0;
        for s in &states {
            Senat::moves(s, &mut moves);
            for (side, or_draw) in QUESTIONS {
                let b = bound(s, side, or_draw);
                let best = moves
                    .iter()
                    .map(|&m| match s.play(m).outcome() {
                        Some(o) if reached(o.winner, side, or_draw) => 0,
                        Some(_) => NEVER,
                        None => bound(&s.play(m), side, or_draw),
                    })
                    .min()
                    .unwrap_or(NEVER);
                assert!(b <= best.saturating_add(1), "{text}: {} {side} or_draw {or_draw}", s.position().to_spn());
            }
            for player in 0..2 {
                for goal in [Goal::Win, Goal::AtLeastDraw] {
                    let Some(r) = Senat::relaxed(s, player, goal) else { continue };
                    relaxed += 1;
                    for d in 1..=3 {
                        let (exact, loose) =
                            (plain_forces(s, player, goal, d), plain_forces(&r.state, player, goal, d));
                        let spn = s.position().to_spn();
                        match r.keeps {
                            Keeps::Noes => assert!(loose || !exact, "{text}: {spn} player {player} {goal:?} at {d}"),
                            Keeps::Yeses => assert!(!loose || exact, "{text}: {spn} player {player} {goal:?} at {d}"),
                        }
                    }
                }
            }
        }
        assert!(relaxed >= 20, "{text}: {relaxed} relaxations asked");
    }
}
