//! Solver tests: the verdicts of the cheap entries of
//! `tests/fixtures/solver-positions.txt`, the same with a tiny table, the
//! per-move verdicts (`Solver::solve_moves`) against `Solver::solve`, the
//! sample game's move 13, the time limit, and the Sénat shortcuts the solver
//! relies on (`outcome_after`, `may_end_for`) against their definitions.

mod support {
    pub mod solver_positions;
}

use senat::search::Game as _;
use senat::search::senat::{Senat, SenatState};
use senat::search::solver::{Solvable, Solver, Verdict};
use senat::{Side, sample};
use std::time::Duration;
use support::solver_positions::{entries, sample_after};

/// The winner at the end of `pv` played from `s`, if the game is over there.
fn winner_after(s: &SenatState, pv: &[senat::Move]) -> Option<Option<Side>> {
    let end = pv.iter().fold(*s, |t, &m| t.play(m));
    end.outcome().map(|o| o.winner)
}

#[test]
fn fixture_verdicts() {
    for e in entries().unwrap().iter().filter(|e| e.ci) {
        for mb in [1, 16] {
            let sol = Solver::<Senat>::with_table_mb(mb).solve(&e.state, e.max_depth);
            assert_eq!(sol.verdict, e.expected, "{} (table {mb} MB)", e.name);
            let me = e.state.position().side_to_move();
            match sol.verdict {
                Verdict::Win(n) | Verdict::Loss(n) => {
                    assert_eq!(sol.pv.len(), n as usize, "{}: pv {:?}", e.name, sol.pv);
                    let w = if matches!(sol.verdict, Verdict::Win(_)) { me } else { me.other() };
                    assert_eq!(winner_after(&e.state, &sol.pv), Some(Some(w)), "{}", e.name);
                }
                _ => assert!(sol.pv.is_empty() || sol.verdict != Verdict::Unknown),
            }
        }
    }
}

#[test]
fn fixture_list_parses() {
    let all = entries().unwrap();
    assert!(all.iter().any(|e| e.ci) && all.iter().any(|e| !e.ci));
    assert!(sample_after(99).is_err());
}

#[test]
fn each_move_agrees_with_solve() {
    let all = entries().unwrap();
    for name in ["win-in-3", "sample-15"] {
        let e = all.iter().find(|e| e.name == name).unwrap();
        let mut solver = Solver::<Senat>::new();
        let whole = solver.solve(&e.state, e.max_depth).verdict;
        let per_move = solver.solve_moves(&e.state, e.max_depth);
        let mut moves = Vec::new();
        Senat::moves(&e.state, &mut moves);
        assert_eq!(per_move.len(), moves.len());
        let fastest = per_move.iter().filter_map(|(_, s)| if let Verdict::Win(n) = s.verdict { Some(n) } else { None });
        assert_eq!(fastest.min().map(Verdict::Win), Some(whole), "{name}");
        for (m, s) in &per_move {
            assert_eq!(s.pv.first(), Some(m));
            if let Verdict::Win(n) = s.verdict {
                assert_eq!(s.pv.len(), n as usize, "{name} {m}");
                assert_eq!(winner_after(&e.state, &s.pv), Some(Some(e.state.position().side_to_move())));
            }
        }
    }
}

#[test]
fn verdict_before_move() {
    assert_eq!(Verdict::Win(3).before_move(), Verdict::Loss(4));
    assert_eq!(Verdict::Loss(0).before_move(), Verdict::Win(1));
    assert_eq!(Verdict::Draw(2).before_move(), Verdict::Draw(3));
    assert_eq!(Verdict::Unknown.before_move(), Verdict::Unknown);
}

/// Blue's move 13 (I20>I19:D): 17 of its 46 alternatives let red force its
/// fifth die within 5 plies after the move; the game's move does not.
#[test]
fn sample_move_13_each_move() {
    let s = sample_after(12).unwrap();
    let per_move = Solver::<Senat>::new().solve_moves(&s, 6);
    assert_eq!(per_move.len(), 47);
    let mut losing: Vec<(String, u32)> = per_move
        .iter()
        .filter_map(|(m, sol)| match sol.verdict {
            Verdict::Loss(n) => Some((m.to_string(), n)),
            Verdict::Win(_) | Verdict::Draw(_) => panic!("{m}: {:?}", sol.verdict),
            Verdict::Unknown => None,
        })
        .collect();
    losing.sort();
    assert_eq!(losing.len(), 17, "{losing:?}");
    let in_2 = ["M13-M15", "M13-M17", "M18-M15", "M18-M17"];
    for (m, n) in &losing {
        assert_eq!(*n, if in_2.contains(&m.as_str()) { 2 } else { 6 }, "{m}");
    }
    assert!(!losing.iter().any(|(m, _)| m == "I20>I19:D"));
}

#[test]
fn time_limit_stops_the_search() {
    let s = sample_after(17).unwrap();
    let mut solver = Solver::<Senat>::new();
    solver.time_limit = Some(Duration::from_millis(20));
    let sol = solver.solve(&s, 40);
    assert!(sol.timed_out);
    assert_eq!(sol.verdict, Verdict::Unknown);
    assert!(sol.depth < 40 && sol.elapsed < Duration::from_secs(5));
    // The table kept only completed facts: the same solver still agrees.
    solver.time_limit = None;
    assert_eq!(solver.solve(&sample_after(15).unwrap(), 7).verdict, Verdict::Win(5));
}

/// States of seeded random play from the sample game's start.
fn random_states(games: usize, plies: usize) -> Vec<SenatState> {
    let mut seed = 7u64;
    let mut out = Vec::new();
    let start = SenatState::new(sample::START.parse().unwrap());
    for _ in 0..games {
        let mut s = start;
        for _ in 0..plies {
            let mut moves = Vec::new();
            Senat::moves(&s, &mut moves);
            if moves.is_empty() {
                break;
            }
            out.push(s);
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            s = s.play(moves[(seed >> 33) as usize % moves.len()]);
        }
    }
    out
}

#[test]
fn shortcuts_agree_with_definitions() {
    let mut moves = Vec::new();
    let mut ends = 0;
    for s in random_states(24, 120) {
        Senat::moves(&s, &mut moves);
        for &m in &moves {
            let after = s.play(m);
            assert_eq!(s.outcome_after(m), after.outcome(), "{} {m}", s.position().to_spn());
            assert_eq!(Senat::result_after(&s, m), Senat::result(&after));
            let Some(o) = after.outcome() else { continue };
            ends += 1;
            for side in [Side::Red, Side::Blue] {
                let p = senat::search::senat::player(side);
                if o.winner == Some(side) {
                    assert!(Senat::may_end_for(&s, m, p, true), "{} {m}", s.position().to_spn());
                }
                if o.winner != Some(side.other()) {
                    assert!(Senat::may_end_for(&s, m, p, false), "{} {m}", s.position().to_spn());
                }
            }
        }
    }
    assert!(ends > 0);
}
