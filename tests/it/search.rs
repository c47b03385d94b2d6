//! Search tests: forced wins found by alpha-beta and the solver, the solver
//! against a plain exhaustive minimax, alpha-beta against plain minimax,
//! repetition in the search state, and the sample game's move 13; the
//! history heuristic and lazy SMP (threads) against the same references.

use game_search::alphabeta::{Limits, Searcher, minimax};
use game_search::solver::{Solver, Verdict};
use game_search::{Game as _, WIN, terminal_score};
use senat_lab::games::senat::{Senat, SenatEval, SenatState};
use senat_rules::{GameRecord, Move, sample};
use std::num::NonZeroUsize;

use crate::support::cli::senat;
use crate::support::games::state;

fn mv(s: &SenatState, text: &str) -> Move {
    s.position().parse_move(text).unwrap()
}

/// Blue pushes its blue square I23 through the door: its fifth die.
const WIN_IN_1: &str = ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb b - 4-4-13 0";
/// Blue's I20 (blue) is restricted; blue waits one move, red can do nothing
/// in row I, then blue's square I19 pushes I20 through the door.
/// (Clock 1: at clock 0 a restricted die is the target of an ejection,
/// which leaves row I full; the old fixture had clock 0, unreachable.)
const WIN_IN_3: &str = "4Tb,.,.,.,.,.,.,.,.,.,23Tr/.,.,.,.,.,.,./5Sb,1Cb,.,.,. b I20 3-4-12 1";

#[test]
fn solver_finds_win_in_1_and_3() {
    // Win in 3 has several lines (the push, or a flip that leaves red blocked).
    for (spn, plies, last) in [(WIN_IN_1, 1, Some("I22>I23:D")), (WIN_IN_3, 3, None)] {
        let s = state(spn);
        let sol = Solver::<Senat>::new().solve(&s, 5);
        assert_eq!(sol.verdict, Verdict::Win(plies), "{spn}");
        assert_eq!(sol.pv.len(), plies as usize, "{spn}");
        let end = sol.pv.iter().fold(s, |s, &m| s.play(m));
        if let Some(last) = last {
            assert_eq!(sol.pv.last().unwrap().to_string(), last);
        }
        assert_eq!(end.outcome().unwrap().winner, Some(senat_rules::Side::Blue));
    }
}

#[test]
fn alphabeta_finds_win_in_1_and_3() {
    for (spn, plies, first) in [(WIN_IN_1, 1, Some("I22>I23:D")), (WIN_IN_3, 3, None)] {
        let s = state(spn);
        for tt_mb in [0, 1] {
            let r = Searcher::<Senat, SenatEval>::new(SenatEval::default(), tt_mb).search(&s, Limits::depth(5));
            assert_eq!(r.score, WIN - plies, "{spn}");
            if let Some(first) = first {
                assert_eq!(r.best.unwrap().to_string(), first);
            }
            let end = r.pv.iter().fold(s, |s, &m| s.play(m));
            assert_eq!(end.outcome().unwrap().winner, Some(senat_rules::Side::Blue), "{spn} pv {:?}", r.pv);
        }
    }
}

/// Lower and upper bounds of the exact value (+1 win, 0 draw, -1 loss for
/// the side to move) from a full-width minimax to `depth` plies, where a
/// line that has not ended is anything from -1 to +1.
fn bounds(s: &SenatState, depth: u32) -> (i32, i32) {
    if let Some(r) = Senat::result(s) {
        let v = terminal_score::<Senat>(s, &r, 0).signum();
        return (v, v);
    }
    if depth == 0 {
        return (-1, 1);
    }
    let mut moves = Vec::new();
    Senat::moves(s, &mut moves);
    let (mut lo, mut hi) = (-1, -1);
    for m in moves {
        let (l, h) = bounds(&s.play(m), depth - 1);
        lo = lo.max(-h);
        hi = hi.max(-l);
    }
    (lo, hi)
}

/// Tiny endgames: the two positions above, and a few random lines from them.
/// Up to `plies` random legal moves from `t` (a small LCG on `seed`).
fn random_walk(mut t: SenatState, plies: usize, seed: &mut u64) -> SenatState {
    for _ in 0..plies {
        let mut moves = Vec::new();
        Senat::moves(&t, &mut moves);
        if moves.is_empty() {
            break;
        }
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        t = t.play(moves[(*seed >> 33) as usize % moves.len()]);
    }
    t
}

fn tiny_positions() -> Vec<SenatState> {
    let mut out = Vec::new();
    let mut seed = 0x1234_5678_9abc_def0u64;
    for spn in [WIN_IN_1, WIN_IN_3, ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./4Sb,23Sr,.,.,1Sb r - 4-4-12 0"] {
        let s = state(spn);
        out.push(s);
        for _ in 0..4 {
            out.push(random_walk(s, 3, &mut seed));
        }
    }
    out
}

#[test]
fn solver_agrees_with_exhaustive_minimax() {
    let n = 4;
    for s in tiny_positions() {
        let sol = Solver::<Senat>::new().solve(&s, n);
        let (lo, hi) = bounds(&s, n);
        let spn = s.position().to_spn();
        match sol.verdict {
            Verdict::Win(d) => {
                assert_eq!(bounds(&s, d).0, 1, "{spn}");
                assert!(d == 0 || bounds(&s, d - 1).0 < 1, "{spn}: not the fastest win");
            }
            Verdict::Loss(d) => {
                assert_eq!(bounds(&s, d).1, -1, "{spn}");
                assert!(d == 0 || bounds(&s, d - 1).1 > -1, "{spn}: not the fastest loss");
            }
            Verdict::Draw(d) => assert_eq!(bounds(&s, d), (0, 0), "{spn}"),
            Verdict::Unknown => assert!(lo < hi, "{spn}: minimax knows {lo}"),
        }
        if lo == hi {
            assert_ne!(sol.verdict, Verdict::Unknown, "{spn}");
        }
    }
}

/// Positions of random play from the sample game's start.
fn random_positions(count: usize) -> Vec<SenatState> {
    let mut seed = 42u64;
    let start = state(sample::START);
    (0..count).map(|i| random_walk(start, 3 + 5 * i, &mut seed)).collect()
}

#[test]
fn alphabeta_agrees_with_minimax() {
    let eval = SenatEval::default();
    for (i, s) in random_positions(6).into_iter().enumerate() {
        let depth = if i < 2 { 3 } else { 2 };
        let reference = minimax::<Senat, _>(&s, &eval, depth, 0);
        for tt_mb in [0, 4] {
            let r = Searcher::<Senat, SenatEval>::new(eval, tt_mb).search(&s, Limits::depth(depth));
            assert_eq!(r.score, reference, "{} depth {depth} tt {tt_mb}", s.position().to_spn());
        }
    }
}

/// Alpha-beta's two-ply value worked out by hand from the root side's point
/// of view: in the draft the placer gives next, so a side may move twice in a
/// row, and a child's value is negated only where the side changes.
fn two_plies_by_hand(s: &SenatState, eval: &SenatEval) -> i32 {
    use game_search::Evaluator as _;
    let root = s.position().side_to_move();
    let view = |t: &SenatState| {
        let v = eval.eval(t);
        if t.position().side_to_move() == root { v } else { -v }
    };
    let moves = |t: &SenatState| {
        let mut out = Vec::new();
        Senat::moves(t, &mut out);
        out
    };
    moves(s)
        .into_iter()
        .map(|m1| {
            let s1 = Senat::apply(s, m1);
            let values = moves(&s1).into_iter().map(|m2| view(&Senat::apply(&s1, m2)));
            if s1.position().side_to_move() == root { values.max().unwrap() } else { values.min().unwrap() }
        })
        .max()
        .unwrap()
}

#[test]
fn alphabeta_scores_the_draft_where_a_side_moves_twice() {
    let eval = SenatEval::default();
    let mut seed = 7u64;
    let start = SenatState::new(senat_rules::Position::start());
    for plies in [0, 1, 2, 3, 6, 11] {
        let s = random_walk(start, plies, &mut seed);
        assert!(!s.position().is_play(), "still in the draft after {plies} plies");
        let by_hand = two_plies_by_hand(&s, &eval);
        assert_eq!(minimax::<Senat, _>(&s, &eval, 2, 0), by_hand, "minimax after {plies} draft plies");
        let r = Searcher::<Senat, SenatEval>::new(eval, 4).search(&s, Limits::depth(2));
        assert_eq!(r.score, by_hand, "alpha-beta after {plies} draft plies: {}", s.position().to_spn());
    }
}

/// Whether `line` is a sequence of legal moves from `s` (it may end the game).
fn is_legal_line(s: &SenatState, line: &[Move]) -> bool {
    let mut t = *s;
    for &m in line {
        let mut moves = Vec::new();
        Senat::moves(&t, &mut moves);
        if !moves.contains(&m) {
            return false;
        }
        t = t.play(m);
    }
    true
}

#[test]
fn alphabeta_with_two_threads_finds_win_in_1_and_3() {
    // Helpers leave deeper entries in the shared table, so the line may be cut
    // short by a table hit: the first move is checked with the solver instead.
    for round in 0..5 {
        for (spn, plies, first) in [(WIN_IN_1, 1, Some("I22>I23:D")), (WIN_IN_3, 3, None)] {
            let s = state(spn);
            for tt_mb in [1, 4] {
                let mut searcher = Searcher::<Senat, SenatEval>::new(SenatEval::default(), tt_mb);
                searcher.set_threads(NonZeroUsize::new(2).unwrap());
                let r = searcher.search(&s, Limits::depth(5));
                let what = format!("{spn} round {round} tt {tt_mb} pv {:?}", r.pv);
                assert_eq!(r.threads, 2, "{what}");
                assert_eq!(r.score, WIN - plies, "{what}");
                let best = r.best.expect("a move");
                assert!(is_legal_line(&s, &r.pv) && r.pv.first() == Some(&best), "{what}");
                if let Some(first) = first {
                    assert_eq!(best.to_string(), first, "{what}");
                }
                let after = Solver::<Senat>::new().solve(&s.play(best), 4);
                assert_eq!(after.verdict, Verdict::Loss(plies as u32 - 1), "{what}");
            }
        }
    }
}

#[test]
fn alphabeta_with_two_threads_returns_a_legal_move_on_the_sample() {
    let s = state(sample::START);
    let mut searcher = Searcher::<Senat, SenatEval>::new(SenatEval::default(), 4);
    searcher.set_threads(NonZeroUsize::new(2).unwrap());
    let r = searcher.search(&s, Limits::depth(4));
    assert_eq!(r.depth, 4);
    assert!(is_legal_line(&s, &r.pv), "{:?}", r.pv);
    let mut moves = Vec::new();
    Senat::moves(&s, &mut moves);
    assert!(moves.contains(&r.best.expect("a move")));
    assert!(r.main_nodes > 0 && r.nodes >= r.main_nodes);
}

#[test]
fn one_thread_is_deterministic() {
    let s = random_positions(4).pop().unwrap();
    let run = |threads: Option<usize>| {
        let mut searcher = Searcher::<Senat, SenatEval>::new(SenatEval::default(), 4);
        if let Some(t) = threads {
            searcher.set_threads(NonZeroUsize::new(t).unwrap());
        }
        let r = searcher.search(&s, Limits::depth(5));
        (r.best, r.score, r.pv, r.nodes, r.iterations.iter().map(|it| it.nodes).collect::<Vec<_>>())
    };
    let plain = run(None);
    assert_eq!(run(Some(1)), plain);
    assert_eq!(run(None), plain);
}

#[test]
fn history_does_not_change_fixed_depth_results() {
    let eval = SenatEval::default();
    let mut positions = random_positions(6);
    positions.extend(tiny_positions());
    for (i, s) in positions.into_iter().enumerate() {
        let depth = if i < 2 { 3 } else { 2 };
        let reference = minimax::<Senat, _>(&s, &eval, depth, 0);
        for tt_mb in [0, 4] {
            for history in [true, false] {
                let mut searcher = Searcher::<Senat, SenatEval>::new(eval, tt_mb);
                searcher.set_history(history);
                let r = searcher.search(&s, Limits::depth(depth));
                let spn = s.position().to_spn();
                assert_eq!(r.score, reference, "{spn} depth {depth} tt {tt_mb} history {history}");
                assert!(is_legal_line(&s, &r.pv), "{spn}");
            }
        }
    }
}

#[test]
fn move_indices_fit_and_differ_within_a_position() {
    let mut seed = 7u64;
    let start = state(sample::START);
    for plies in [0, 5, 10, 20] {
        let s = random_walk(start, plies, &mut seed);
        let mut moves = Vec::new();
        Senat::moves(&s, &mut moves);
        let mut seen = std::collections::HashSet::new();
        for m in moves {
            let i = Senat::move_index(m).expect("an index");
            assert!(i < Senat::MOVE_INDEX_SPACE && seen.insert(i), "{m} {i}");
        }
    }
}

#[test]
fn search_state_counts_repetitions_like_game() {
    // Shuttle two dice back and forth: the position after the first move
    // comes a third time after the ninth.
    let s0 = state(WIN_IN_3);
    let mut g = GameRecord::new(*s0.position());
    let mut s = s0;
    let shuttle = ["S1-S2", "S11-S10", "S2-S1", "S10-S11"];
    for (i, text) in shuttle.iter().cycle().take(9).enumerate() {
        assert!(s.outcome().is_none(), "over before move {}", i + 1);
        let m = mv(&s, text);
        s = s.play(m);
        g.play(m).unwrap();
        assert_eq!(s.occurrences(), g.occurrences(), "{text}");
        assert_eq!(s.outcome(), g.outcome(), "{text}");
        assert_eq!(SenatState::from_game(&g).key(), s.key());
    }
    assert_eq!(s.outcome().map(|o| o.reason), Some(senat_rules::EndReason::Repetition));
    // Same position, different windows: different keys.
    let s1 = s0.play(mv(&s0, "S1-S2"));
    assert_eq!(s.position_hash(), s1.position_hash());
    assert_ne!(s.key(), s1.key());
}

/// The position of the sample game before move 13 (blue to move, red pile 4).
fn before_move_13() -> SenatState {
    let mut lines = sample::record_lines();
    let mut g = GameRecord::new(lines.next().unwrap().parse().unwrap());
    for text in lines.take(12) {
        let m = g.position().parse_move(text).unwrap();
        g.play(m).unwrap();
    }
    SenatState::from_game(&g)
}

#[test]
fn sample_move_13_stops_red() {
    let s = before_move_13();
    assert_eq!(s.position().piles().red, 4);
    let played = mv(&s, "I20>I19:D");
    // After the game's move, red cannot force its fifth die within 4 plies.
    let sol = Solver::<Senat>::new().solve(&s.play(played), 4);
    assert!(!matches!(sol.verdict, Verdict::Win(_)), "{:?}", sol.verdict);
}

#[test]
fn sample_move_13_alternatives_that_lose() {
    // Two of blue's other moves lose at once or within 5 plies (red's fifth die).
    let s = before_move_13();
    for (text, plies) in [("M13-M15", 1), ("I20>I21:D", 5)] {
        let sol = Solver::<Senat>::new().solve(&s.play(mv(&s, text)), 5);
        assert_eq!(sol.verdict, Verdict::Win(plies), "{text}");
        let end = sol.pv.iter().fold(s.play(mv(&s, text)), |t, &m| t.play(m));
        assert_eq!(end.outcome().unwrap().winner, Some(senat_rules::Side::Red), "{text}");
    }
}

#[test]
fn cli_solve_and_analyze() {
    let out = senat(&["solve", WIN_IN_1, "--max-depth", "3"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("verdict blue (to move) wins within 1 plies\npv I22>I23:D\n"), "{text}");

    let out = senat(&["analyze", WIN_IN_3, "--depth", "4", "--tt-mb", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\nscore win in 3 (blue to move)\n"), "{text}");

    let out = senat(&["analyze", WIN_IN_3, "--depth", "4", "--tt-mb", "1", "--threads", "2"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\nscore win in 3 (blue to move)\n") && text.contains("threads 2"), "{text}");

    for cmd in [&["analyze", "sample", "--depth", "2", "--threads", "0"][..], &["bench-search", "--threads", "0"]] {
        let out = senat(cmd);
        assert_eq!(out.status.code(), Some(2), "{cmd:?}");
        assert!(String::from_utf8(out.stderr).unwrap().starts_with("senat: error: --threads 0"), "{cmd:?}");
    }

    let out = senat(&["analyze", "sample"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().starts_with("senat: error: give --depth N, --time S or both"));

    let out = senat(&["solve", "--history", "no/such/file", "--max-depth", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().starts_with("senat: error: cannot read no/such/file"));
}

#[test]
fn sample_after_move_15_red_had_a_forced_win() {
    // After blue's move 15 (I20>I21:D) red can force its fifth die in 5
    // plies; the game's move 16 (I23-I21) misses it, and blue wins at move 27.
    let mut lines = sample::record_lines();
    let mut g = GameRecord::new(lines.next().unwrap().parse().unwrap());
    for text in lines.take(15) {
        let m = g.position().parse_move(text).unwrap();
        g.play(m).unwrap();
    }
    let s = SenatState::from_game(&g);
    let sol = Solver::<Senat>::new().solve(&s, 5);
    assert_eq!(sol.verdict, Verdict::Win(5));
    let end = sol.pv.iter().fold(s, |t, &m| t.play(m));
    assert_eq!(end.outcome().unwrap().winner, Some(senat_rules::Side::Red));
}
