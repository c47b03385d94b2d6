//! Solver tests: the verdicts of the cheap entries of
//! `tests/fixtures/solver-positions.txt`, the same with a tiny table, the
//! per-move verdicts (`Solver::solve_moves`) against `Solver::solve`, the
//! same with two threads (`Solver::set_threads`) as with one, the
//! sample game's move 13, the time limit, and the Sénat shortcuts the solver
//! relies on (`outcome_after`, `may_reach`) against their definitions.
//! The df-pn prover (`Pns`) against the alpha-beta solver: on the fixture
//! list, on random positions (differential), its time limit, and
//! `senat solve --engine pns`; `senat solve --store` (the proof store);
//! `senat solve --shape` (the tree's shape).
//! The game bounds are checked in `tests/it/solver_bounds.rs`.

use crate::support::games::random_states;
use crate::support::solver_positions::{entries, sample_after};
use game_search::Game as _;
use game_search::pns::Pns;
use game_search::solver::{Goal, Solvable, Solver, Verdict};
use senat_lab::games::senat::{Senat, SenatState};
use senat_rules::Side;
use std::time::Duration;

/// The winner at the end of `pv` played from `s`, if the game is over there.
fn winner_after(s: &SenatState, pv: &[senat_rules::Move]) -> Option<Option<Side>> {
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
                Verdict::Draw(n) => {
                    // The line (the side to move holding at least a draw)
                    // ends the game within n plies, and that side does not
                    // lose it.
                    assert!(!sol.pv.is_empty() || n == 0, "{}: a draw in {n} without a line", e.name);
                    assert!(sol.pv.len() <= n as usize, "{}: pv {:?} longer than {n}", e.name, sol.pv);
                    let end = winner_after(&e.state, &sol.pv);
                    assert!(
                        matches!(end, Some(w) if w != Some(me.other())),
                        "{}: pv {:?} ends {end:?}",
                        e.name,
                        sol.pv
                    );
                }
                Verdict::Unknown => assert!(sol.pv.is_empty(), "{}: unknown with a pv {:?}", e.name, sol.pv),
            }
        }
    }
}

/// Lazy SMP: with two threads (a small table and a large one) the `ci`
/// entries get the verdicts and horizons of one thread, won and lost lines
/// of the verdict's length that end in that result, and `solve_moves` the
/// per-move verdicts of one thread.
#[test]
fn fixture_verdicts_with_two_threads() {
    let two = std::num::NonZeroUsize::new(2).unwrap();
    let all = entries().unwrap();
    for e in all.iter().filter(|e| e.ci) {
        let one = Solver::<Senat>::with_table_mb(16).solve(&e.state, e.max_depth);
        assert_eq!(one.verdict, e.expected, "{}", e.name);
        for mb in [1, 16] {
            let mut solver = Solver::<Senat>::with_table_mb(mb);
            solver.set_threads(two);
            let sol = solver.solve(&e.state, e.max_depth);
            assert_eq!((sol.verdict, sol.depth), (one.verdict, one.depth), "{} (two threads, {mb} MB)", e.name);
            if let Verdict::Win(n) | Verdict::Loss(n) = sol.verdict {
                let me = e.state.position().side_to_move();
                let w = if matches!(sol.verdict, Verdict::Win(_)) { me } else { me.other() };
                assert_eq!(sol.pv.len(), n as usize, "{}: pv {:?}", e.name, sol.pv);
                assert_eq!(winner_after(&e.state, &sol.pv), Some(Some(w)), "{}: pv {:?}", e.name, sol.pv);
            }
        }
    }
    let e = all.iter().find(|e| e.name == "win-in-3").unwrap();
    let mut solver = Solver::<Senat>::new();
    solver.set_threads(two);
    let verdicts = |v: Vec<(senat_rules::Move, game_search::solver::Solution<senat_rules::Move>)>| {
        v.into_iter().map(|(m, s)| (m, s.verdict)).collect::<Vec<_>>()
    };
    let many = verdicts(solver.solve_moves(&e.state, e.max_depth));
    assert_eq!(many, verdicts(Solver::<Senat>::new().solve_moves(&e.state, e.max_depth)));
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

#[test]
fn shortcuts_agree_with_definitions() {
    let mut moves = Vec::new();
    let (mut ends, mut at_once) = (0, 0);
    for s in random_states(24, 120, 7) {
        Senat::moves(&s, &mut moves);
        // A win at once is a move that wins now.
        if s.outcome().is_none() && Senat::wins_at_once(&s) {
            at_once += 1;
            let me = Some(s.position().side_to_move());
            assert!(
                moves.iter().any(|&m| s.outcome_after(m).is_some_and(|o| o.winner == me)),
                "{}",
                s.position().to_spn()
            );
        }
        for &m in &moves {
            let after = s.play(m);
            assert_eq!(s.outcome_after(m), after.outcome(), "{} {m}", s.position().to_spn());
            assert_eq!(Senat::result_after(&s, m), Senat::result(&after));
            let Some(o) = after.outcome() else { continue };
            ends += 1;
            for side in [Side::Red, Side::Blue] {
                let p = senat_lab::games::senat::player(side);
                if o.winner == Some(side) {
                    assert!(Senat::may_reach(&s, m, p, Goal::Win), "{} {m}", s.position().to_spn());
                }
                if o.winner != Some(side.other()) {
                    assert!(Senat::may_reach(&s, m, p, Goal::AtLeastDraw), "{} {m}", s.position().to_spn());
                }
            }
        }
    }
    assert!(ends > 0 && at_once > 0, "{ends} ends, {at_once} wins at once");
}

/// Whether `pns` (df-pn at horizon `d`) says what `ab` (the alpha-beta
/// solver at horizon `d`) says: the same kind of verdict, and for a win,
/// loss or draw a bound no shorter than the solver's shortest and within `d`.
fn agrees(ab: Verdict, pns: Verdict, d: u32) -> bool {
    match (ab, pns) {
        (Verdict::Win(a), Verdict::Win(p))
        | (Verdict::Loss(a), Verdict::Loss(p))
        | (Verdict::Draw(a), Verdict::Draw(p)) => a <= p && p <= d,
        (Verdict::Unknown, Verdict::Unknown) => true,
        _ => false,
    }
}

/// Deepening df-pn gives exactly the fixture's verdicts (the shortest win).
#[test]
fn pns_deepening_gives_the_fixture_verdicts() {
    for e in entries().unwrap().iter().filter(|e| e.ci) {
        let mut pns = Pns::<Senat>::with_table_mb(16);
        pns.deepen = true;
        let sol = pns.solve(&e.state, e.max_depth);
        assert_eq!(sol.verdict, e.expected, "{}", e.name);
        assert!(!sol.timed_out && sol.nodes > 0, "{}", e.name);
        if let Verdict::Win(n) | Verdict::Loss(n) = sol.verdict {
            assert_eq!((sol.depth, sol.pv.len()), (n, n as usize), "{}: {:?}", e.name, sol.pv);
        } else {
            assert_eq!(sol.depth, e.max_depth, "{}", e.name);
        }
    }
}

/// Df-pn at the horizon directly, on the fixtures up to horizon 7 (the one
/// at horizon 9, sample-22, takes about 15 s that way: measured in
/// results/annex/sample-claims.md).
#[test]
fn pns_agrees_on_the_fixtures() {
    for e in entries().unwrap().iter().filter(|e| e.ci && e.max_depth <= 7) {
        let mut pns = Pns::<Senat>::with_table_mb(16);
        let sol = pns.solve(&e.state, e.max_depth);
        assert!(agrees(e.expected, sol.verdict, e.max_depth), "{}: {:?} vs {:?}", e.name, sol.verdict, e.expected);
        assert!(!sol.timed_out && sol.depth == e.max_depth && sol.nodes > 0, "{}", e.name);
        if let Verdict::Win(n) | Verdict::Loss(n) = e.expected {
            // The line of the proof ends in the winner's win, within the bound.
            let me = e.state.position().side_to_move();
            let w = if matches!(e.expected, Verdict::Win(_)) { me } else { me.other() };
            assert_eq!(winner_after(&e.state, &sol.pv), Some(Some(w)), "{}: {:?}", e.name, sol.pv);
            let (Verdict::Win(p) | Verdict::Loss(p)) = sol.verdict else { panic!("{}: {:?}", e.name, sol.verdict) };
            assert!(sol.pv.len() <= p as usize, "{}", e.name);
            // One ply short of the shortest win, neither finds it.
            let short = Pns::<Senat>::with_table_mb(16).solve(&e.state, n - 1).verdict;
            assert_eq!(short, Solver::<Senat>::new().solve(&e.state, n - 1).verdict, "{}", e.name);
            assert!(!matches!(short, Verdict::Win(_) | Verdict::Loss(_)), "{}: {short:?}", e.name);
        }
    }
}

/// Differential: on positions of random play and small horizons, df-pn and
/// alpha-beta answer every question alike (one table each across all).
#[test]
fn pns_agrees_with_alpha_beta_on_random_positions() {
    let mut ab = Solver::<Senat>::with_table_mb(16);
    let mut pns = Pns::<Senat>::with_table_mb(16);
    let mut deep = Pns::<Senat>::with_table_mb(16);
    deep.deepen = true;
    let (mut decided, mut checked) = (0, 0);
    for (i, s) in random_states(12, 120, 7).iter().enumerate().filter(|(i, _)| i % 9 == 0) {
        for d in 1..=3 {
            let a = ab.solve(s, d).verdict;
            let p = pns.solve(s, d).verdict;
            assert!(agrees(a, p, d), "state {i} ({}) horizon {d}: ab {a:?} pns {p:?}", s.position().to_spn());
            assert_eq!(deep.solve(s, d).verdict, a, "state {i} ({}) horizon {d}", s.position().to_spn());
            checked += 1;
            decided += (a != Verdict::Unknown) as usize;
        }
    }
    assert!(checked >= 60 && decided >= 5, "{checked} checked, {decided} decided");
}

#[test]
fn pns_time_limit_stops_the_search() {
    let s = sample_after(17).unwrap();
    let mut pns = Pns::<Senat>::with_table_mb(16);
    pns.time_limit = Some(Duration::from_millis(20));
    let sol = pns.solve(&s, 40);
    assert!(sol.timed_out && sol.nodes > 0);
    assert_eq!((sol.verdict, sol.depth), (Verdict::Unknown, 0));
    assert!(sol.elapsed < Duration::from_secs(5));
    // Nothing half-done was stored as a fact: the same prover still agrees.
    pns.time_limit = None;
    let again = pns.solve(&sample_after(15).unwrap(), 7);
    assert!(agrees(Verdict::Win(5), again.verdict, 7), "{:?}", again.verdict);
}

#[test]
fn pns_each_move_flips_the_verdict() {
    let e = entries().unwrap().into_iter().find(|e| e.name == "win-in-3").unwrap();
    let mut moves = Vec::new();
    Senat::moves(&e.state, &mut moves);
    let mut pns = Pns::<Senat>::with_table_mb(16);
    let mut wins = 0;
    for &m in &moves {
        let one = pns.solve_move(&e.state, m, e.max_depth);
        let child = pns.solve(&e.state.play(m), e.max_depth - 1);
        assert_eq!(one.verdict, child.verdict.before_move(), "{m}");
        assert_eq!(one.pv.first(), Some(&m));
        wins += matches!(one.verdict, Verdict::Win(_)) as usize;
    }
    assert!(wins >= 1);
}

#[test]
fn solve_cli_engine_pns() {
    let run = crate::support::cli::senat;
    let spn = ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb b - 4-4-13 0";
    let out = run(&["solve", spn, "--max-depth", "3", "--engine", "pns"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("verdict blue (to move) wins within 1 plies\npv I22>I23:D\ndepth 3  nodes "), "{text}");
    let bad = run(&["solve", spn, "--max-depth", "3", "--engine", "mcts"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8(bad.stderr).unwrap();
    assert_eq!(err, "senat: error: --engine mcts: expected `ab`, `pns` or `pns-id`\n");
    // --prove: one question only (every engine), so blue's win is found and red's is not.
    for engine in ["pns-id", "pns", "ab"] {
        let blue = run(&["solve", spn, "--max-depth", "3", "--engine", engine, "--prove", "blue"]);
        let text = String::from_utf8(blue.stdout).unwrap();
        assert!(text.starts_with("verdict blue (to move) wins within 1 plies\npv I22>I23:D\n"), "{engine}: {text}");
        let red = run(&["solve", spn, "--max-depth", "3", "--engine", engine, "--prove", "red"]);
        let text = String::from_utf8(red.stdout).unwrap();
        assert!(text.starts_with("verdict unknown within 3 plies\n"), "{engine}: {text}");
    }
    for (args, msg) in [
        (
            ["--store", "never-written.txt", "--prove", "red"],
            "--store keeps whole verdicts: it does not take --prove, which asks one question",
        ),
        (["--engine", "pns", "--prove", "green"], "--prove green: expected `red` or `blue`"),
    ] {
        let out = run(&[&["solve", spn, "--max-depth", "3"][..], &args[..]].concat());
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(String::from_utf8(out.stderr).unwrap(), format!("senat: error: {msg}\n"));
    }
}

/// `solve --threads`: the verdict and line of one thread on a win in 1
/// (and on another game), the thread count on the nodes line; 0 threads
/// and threads for df-pn or dominoes are refused with one line.
#[test]
fn solve_cli_threads() {
    use crate::support::cli::{fails, ok};
    let spn = "4Tb,.,.,.,.,.,.,.,.,.,23Tr/.,.,.,.,.,.,./5Sb,1Cb,.,.,. b I20 3-4-12 1";
    let one = ok(&["solve", spn, "--max-depth", "5"]);
    let two = ok(&["solve", spn, "--max-depth", "5", "--threads", "2"]);
    assert!(two.starts_with("verdict blue (to move) wins within 3 plies\npv "), "{two}");
    assert_eq!(one.lines().next(), two.lines().next());
    assert!(two.lines().nth(2).is_some_and(|l| l.starts_with("depth 3  nodes ") && l.contains("  threads 2")), "{two}");
    assert!(!one.contains("threads"), "{one}");
    let each = ok(&["solve", spn, "--max-depth", "5", "--threads", "2", "--each-move"]);
    let verdicts = |t: &str| t.lines().map(|l| l.split("  nodes").next().unwrap_or("").to_string()).collect::<Vec<_>>();
    assert_eq!(verdicts(&each), verdicts(&ok(&["solve", spn, "--max-depth", "5", "--each-move"])));
    let other = ok(&["solve", "--game", "debacle", "--max-depth", "2", "--threads", "2"]);
    assert!(other.contains("unknown within 2 plies"), "{other}");
    assert!(fails(&["solve", spn, "--max-depth", "5", "--threads", "0"]).contains("--threads 0"));
    assert_eq!(
        fails(&["solve", spn, "--max-depth", "5", "--threads", "2", "--engine", "pns"]).trim_end(),
        "senat: error: --threads is for --engine ab (df-pn runs on one thread)"
    );
    assert!(fails(&["solve", "--game", "dominoes", "--max-depth", "2", "--threads", "2"]).contains("--threads"));
}

/// `solve --progress`: one stderr line per question the main thread
/// answered, horizons in order, the last one the win found; the verdict on
/// stdout is that of a run without it; df-pn refuses the flag.
#[test]
fn solve_cli_progress() {
    use crate::support::cli::{expect_ok, fails, ok, senat, stderr};
    let spn = "4Tb,.,.,.,.,.,.,.,.,.,23Tr/.,.,.,.,.,.,./5Sb,1Cb,.,.,. b I20 3-4-12 1";
    let args = ["solve", spn, "--max-depth", "5", "--progress"];
    let run = senat(&args);
    let out = expect_ok(&run, &args);
    let first = |t: &str| t.lines().next().unwrap_or("").to_string();
    assert_eq!(first(&out), first(&ok(&["solve", spn, "--max-depth", "5"])));
    let err = stderr(&run);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines.len() >= 3 && lines.iter().all(|l| l.starts_with("horizon ") && l.contains("  nodes ")), "{err}");
    let horizons: Vec<u32> =
        lines.iter().map(|l| l["horizon".len()..].split_whitespace().next().unwrap().parse().unwrap()).collect();
    assert!(horizons.windows(2).all(|w| w[0] <= w[1]) && horizons[0] == 1, "{err}");
    assert!(lines.last().unwrap().starts_with("horizon   3  blue forces a win: yes  nodes "), "{err}");
    assert!(lines[..lines.len() - 1].iter().all(|l| l.contains(": no  ")), "{err}");
    assert!(fails(&["solve", spn, "--max-depth", "5", "--engine", "pns", "--progress"]).contains("--progress"));
}

/// `solve --store`: the second run answers from the file (no nodes), the
/// per-move run reuses and adds facts, and a store of another variant or a
/// file that is not a store is refused with one line.
#[test]
fn solve_cli_store() {
    use crate::support::cli::{TempRecord, fails, ok};
    let store = TempRecord::new("proof-store", "");
    let spn = "4Tb,.,.,.,.,.,.,.,.,.,23Tr/.,.,.,.,.,.,./5Sb,1Cb,.,.,. b I20 3-4-12 1";
    let args = ["solve", spn, "--max-depth", "5", "--store", store.path()];
    let first = ok(&args);
    assert!(first.starts_with("verdict blue (to move) wins within 3 plies\n"), "{first}");
    assert!(first.ends_with(&format!("store {}: 1 facts\n", store.path())), "{first}");
    let again = ok(&args);
    let (v1, v2) = (first.lines().take(2).collect::<Vec<_>>(), again.lines().take(2).collect::<Vec<_>>());
    assert_eq!(v1, v2);
    assert!(again.lines().nth(2).unwrap().ends_with("nodes 0  time 0.000s  nodes/s 0  (from the store)"), "{again}");
    assert_eq!(again.lines().count(), 3, "nothing new to write: {again}");
    let each = ok(&["solve", spn, "--max-depth", "5", "--each-move", "--store", store.path()]);
    let text = std::fs::read_to_string(&store.0).unwrap();
    assert!(text.starts_with("# senat proof store, format 1, variant rules\n"), "{text}");
    let facts = text.lines().count() - 1;
    assert!(facts > 1, "{text}");
    let each_again = ok(&["solve", spn, "--max-depth", "5", "--each-move", "--store", store.path()]);
    assert!(
        each_again.lines().filter(|l| l.starts_with("move ")).all(|l| l.contains("(from the store)")),
        "{each_again}"
    );
    let strip = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with("move "))
            .map(|l| l.split("  nodes").next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&each), strip(&each_again));
    let other = fails(&["solve", spn, "--max-depth", "5", "--store", store.path(), "--variant", "closure=40"]);
    assert_eq!(
        other,
        format!(
            "senat: error: --store {}: a proof store of variant rules, this run is variant closure=40\n",
            store.path()
        )
    );
    // A store that cannot be written fails before the search (no verdict
    // printed), in one line.
    let o = crate::support::cli::senat(&["solve", spn, "--max-depth", "5", "--store", "/nonexistent-dir/store.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty(), "a verdict before the refusal: {}", String::from_utf8_lossy(&o.stdout));
    assert_eq!(String::from_utf8_lossy(&o.stderr).lines().count(), 1);
    let junk = TempRecord::new("not-a-store", "hello\n");
    let bad = fails(&["solve", spn, "--max-depth", "5", "--store", junk.path()]);
    assert_eq!(
        bad,
        format!("senat: error: --store {}: not a proof store of format 1 (first line `hello`)\n", junk.path())
    );
}

/// `solve --shape`: the tree's lines after the verdict, the root's level
/// first (at the sample start blue's win question tries all 81 legal moves
/// there, the count the rules' notes give), then the total; refused where
/// there is no one tree to count.
#[test]
fn solve_cli_shape() {
    use crate::support::cli::{fails, ok};
    let text = ok(&["solve", "sample", "--max-depth", "4", "--shape"]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0] == "verdict unknown within 4 plies" && lines[2].starts_with("depth 4  nodes "), "{text}");
    assert!(lines[3].starts_with("shape  (nodes searched move by move"), "{text}");
    assert!(lines[4].starts_with("shape  left   4  OR-all 1 (81.00)  "), "{text}");
    assert!(lines[5].starts_with("shape  left   3  ") && lines[6].starts_with("shape  left   2  "), "{text}");
    assert!(lines[7].starts_with("shape  total     OR-all ") && lines.len() == 8, "{text}");
    // Without --shape, no such line.
    assert!(!ok(&["solve", "sample", "--max-depth", "4"]).contains("shape"));
    let msg = "senat: error: --shape counts the tree of one search: --engine ab on one thread, without --each-move or --store\n";
    for args in [&["--threads", "2"][..], &["--engine", "pns"], &["--each-move"], &["--store", "never-written.txt"]] {
        assert_eq!(fails(&[&["solve", "sample", "--max-depth", "2", "--shape"][..], args].concat()), msg, "{args:?}");
    }
    let other = ok(&["solve", "--game", "focus", "start", "--max-depth", "2", "--shape"]);
    assert!(other.contains("\nshape  left   2  OR-all 1 ("), "{other}");
}
