//! The engines on small games of their own: tic-tac-toe and Nim (two
//! players: alpha-beta, plain minimax, the solver, df-pn and MCTS agree),
//! Nim for three players and for two partnerships of two (the paranoid
//! reduction against a brute force written here), a dice duel (expectimax
//! against exact enumeration) and a one-card game with a hidden card
//! (determinized MCTS picks the obvious move). The shared tree of
//! [`Parallel::Tree`] against the same toys: same best moves as root
//! mode, determinism with one thread, the exact budget and no lost visits
//! with two, the memory cap, tree reuse, and priors from the rollout. An
//! ignored test measures playouts/s of both modes. The toys shared with
//! other test binaries are in `common/mod.rs`.

use game_search::alphabeta::{Limits, Searcher, minimax};
use game_search::mcts::{Config, Mcts, Parallel, Rollout, Selection, UniformRollout, shared_node_bytes};
use game_search::pns::Pns;
use game_search::rng::GameRng;
use game_search::solver::{Solvable, Solver, Unsupported, Verdict, check};
use game_search::{Evaluator, Game, Scores, WIN, WIN_BOUND};

mod common;
use common::*;

/// No opinion: every leaf scores 0.
struct Zero;

impl<G: Game> Evaluator<G> for Zero {
    fn eval(&self, _s: &G::State) -> i32 {
        0
    }
}

impl Solvable for Ttt {}

/// The verdict that a minimax score of a fully searched tree gives.
fn verdict_sign(v: Verdict) -> i32 {
    match v {
        Verdict::Win(_) => 1,
        Verdict::Loss(_) => -1,
        Verdict::Draw(_) => 0,
        Verdict::Unknown => panic!("a full-depth verdict is known"),
    }
}

#[test]
fn tictactoe_every_strategy_agrees_with_minimax() {
    let mut searcher = Searcher::<Ttt, Zero>::new(Zero, 1);
    let mut solver = Solver::<Ttt>::with_table_mb(1);
    let mut pns = Pns::<Ttt>::with_table_mb(1);
    for plies in [0, 3, 5] {
        let mut seen = std::collections::HashSet::new();
        for s in positions::<Ttt>(&START, plies).into_iter().filter(|s| seen.insert(Ttt::hash(s))) {
            let exact = minimax::<Ttt, _>(&s, &Zero, 9, 0);
            let report = searcher.search(&s, Limits::depth(9));
            assert_eq!(report.score, exact, "{s:?}");
            let sign = exact.signum();
            assert_eq!(verdict_sign(solver.solve(&s, 9).verdict), sign, "solver {s:?}");
            assert_eq!(verdict_sign(pns.solve(&s, 9).verdict), sign, "df-pn {s:?}");
            if let Some(m) = report.best {
                let after = minimax::<Ttt, _>(&Ttt::apply(&s, m), &Zero, 8, 1);
                assert_eq!(-after, exact, "best move {m} of {s:?}");
            }
        }
    }
    // The start is a draw.
    assert_eq!(minimax::<Ttt, _>(&START, &Zero, 9, 0), 0);
}

#[test]
fn tictactoe_mcts_takes_the_win_and_blocks() {
    // X (player 0) to move wins at 2; O threatens 6 too.
    let s = Board { cells: [1, 1, 0, 2, 0, 0, 0, 2, 2], to_move: 0 };
    let mut mcts = Mcts::<Ttt, _>::new(Config { playouts: 2000, ..Config::default() }, UniformRollout::default());
    assert_eq!(mcts.search(&s, 7).best, Some(2));
    // O to move must block at 2.
    let s = Board { cells: [1, 1, 0, 0, 2, 0, 0, 0, 0], to_move: 1 };
    let mut mcts = Mcts::<Ttt, _>::new(Config { playouts: 4000, ..Config::default() }, UniformRollout::default());
    assert_eq!(mcts.search(&s, 7).best, Some(2));
}

impl Solvable for Nim {}

/// The paranoid value for the team of `root`, by brute force: +1 if it
/// takes the last, -1 otherwise; it maximizes, everyone else minimizes.
fn paranoid(s: &Heap, root: usize) -> i32 {
    let team = |p: usize| Nim::team(s, p);
    if let Some(r) = Nim::result(s) {
        return if r[root] == 1.0 || (0..s.players as usize).any(|p| team(p) == team(root) && r[p] == 1.0) {
            1
        } else {
            -1
        };
    }
    let values = (1..=s.heap.min(3)).map(|m| paranoid(&Nim::apply(s, m), root));
    if team(s.to_move as usize) == team(root) { values.max().unwrap() } else { values.min().unwrap() }
}

#[test]
fn nim_two_players_all_engines_agree() {
    let mut searcher = Searcher::<Nim, Zero>::new(Zero, 1);
    let mut mcts = Mcts::<Nim, _>::new(Config { playouts: 3000, ..Config::default() }, UniformRollout::default());
    for n in 1..=12 {
        let s = heap(n, 2, false);
        let wins = n % 4 != 0;
        let exact = minimax::<Nim, _>(&s, &Zero, 13, 0);
        assert_eq!(exact > 0, wins, "minimax {n}");
        assert_eq!(searcher.search(&s, Limits::depth(13)).score, exact, "alpha-beta {n}");
        let sol = Solver::<Nim>::with_table_mb(1).solve(&s, 13);
        assert_eq!(
            sol.verdict,
            if wins { Verdict::Win((WIN - exact) as u32) } else { Verdict::Loss((WIN + exact) as u32) }
        );
        assert_eq!(verdict_sign(Pns::<Nim>::with_table_mb(1).solve(&s, 13).verdict), if wins { 1 } else { -1 });
        if wins && n <= 9 {
            mcts.clear();
            assert_eq!(mcts.search(&s, n as u64).best, Some(n % 4), "mcts {n}");
        }
    }
}

#[test]
fn nim_partnerships_are_two_player_nim() {
    let mut searcher = Searcher::<Nim, Zero>::new(Zero, 1);
    for n in 1..=10 {
        let two = heap(n, 2, false);
        let four = heap(n, 4, true);
        assert_eq!(check::<Nim>(&four), Ok(()));
        assert_eq!(searcher.search(&four, Limits::depth(12)).score, minimax::<Nim, _>(&two, &Zero, 12, 0), "{n}");
        assert_eq!(
            Solver::<Nim>::with_table_mb(1).solve(&four, 12).verdict,
            Solver::<Nim>::with_table_mb(1).solve(&two, 12).verdict
        );
    }
}

#[test]
fn nim_three_players_paranoid_matches_brute_force() {
    let mut searcher = Searcher::<Nim, Zero>::new(Zero, 1);
    for n in 1..=10 {
        for first in 0..3 {
            let s = Heap { to_move: first, ..heap(n, 3, false) };
            let brute = paranoid(&s, first as usize);
            let report = searcher.search(&s, Limits::depth(12));
            assert!(report.score.abs() > WIN_BOUND, "{n}: forced either way");
            assert_eq!(report.score.signum(), brute, "alpha-beta {n} {first}");
            assert_eq!(minimax::<Nim, _>(&s, &Zero, 12, 0), report.score, "minimax {n} {first}");
            if brute > 0 {
                let best = report.best.expect("a move");
                assert_eq!(paranoid(&Nim::apply(&s, best), first as usize), 1, "winning move {n}");
            }
        }
    }
    // By hand: with 1 to 3 left the player to move takes all; with 4, the
    // two others take the rest whatever the first does.
    assert!(minimax::<Nim, _>(&heap(3, 3, false), &Zero, 4, 0) > 0);
    assert!(minimax::<Nim, _>(&heap(4, 3, false), &Zero, 4, 0) < 0);
    assert_eq!(check::<Nim>(&heap(5, 3, false)), Err(Unsupported::Teams(3)));
    assert_eq!(Solver::<Nim>::new().solve(&heap(3, 3, false), 4).verdict, Verdict::Unknown);
}

#[test]
fn nim_three_players_mcts_takes_the_last() {
    let mut mcts = Mcts::<Nim, _>::new(Config { playouts: 1000, ..Config::default() }, UniformRollout::default());
    for n in 1..=3 {
        let s = Heap { to_move: 1, ..heap(n, 3, false) };
        let report = mcts.search(&s, 3);
        assert_eq!(report.best, Some(n), "{n}");
        assert!(report.value() > 0.9);
    }
}

// ---- the solver's threads (lazy SMP) --------------------------------------

/// `n` threads.
fn threads(n: usize) -> std::num::NonZeroUsize {
    std::num::NonZeroUsize::new(n).expect("n ≥ 1")
}

/// Solves each of `states` at each of `depths` with one solver per thread
/// count in `counts` (each kept across the states, so that its table holds
/// the facts of the states before), [`Solver::solve`] and
/// [`Solver::forced_win`] for both seats: the verdicts and horizons must be
/// those of one thread, and a won or lost verdict's line as long as its
/// distance. Returns how many verdicts were known.
fn same_verdicts_with_threads<G: Solvable>(states: &[G::State], depths: &[u32], counts: &[usize], mb: usize) -> usize
where
    G::State: Sync + std::fmt::Debug,
{
    let mut one = Solver::<G>::with_table_mb(mb);
    let mut many: Vec<Solver<G>> = counts
        .iter()
        .map(|&n| {
            let mut s = Solver::<G>::with_table_mb(mb);
            s.set_threads(threads(n));
            assert_eq!(s.threads(), n);
            s
        })
        .collect();
    let mut known = 0;
    for s in states {
        for &d in depths {
            let want = one.solve(s, d);
            known += (want.verdict != Verdict::Unknown) as usize;
            let wins: Vec<_> = (0..2).map(|p| one.forced_win(s, p, d)).collect();
            for (solver, &n) in many.iter_mut().zip(counts) {
                let got = solver.solve(s, d);
                assert_eq!((got.verdict, got.depth), (want.verdict, want.depth), "{n} threads, {s:?} horizon {d}");
                if let Verdict::Win(k) | Verdict::Loss(k) = got.verdict {
                    assert_eq!(got.pv.len(), k as usize, "{n} threads, {s:?}: line {:?}", got.pv);
                }
                for (p, w) in wins.iter().enumerate() {
                    let got = solver.forced_win(s, p, d);
                    assert_eq!((got.verdict, got.depth), (w.verdict, w.depth), "{n} threads, forced_win {p}, {s:?}");
                }
            }
        }
    }
    known
}

#[test]
fn solver_threads_give_the_verdicts_of_one() {
    // Tic-tac-toe: every other position up to 3 plies at two horizons, a
    // tiny table shared by all (replacement and the facts of other roots);
    // three threads on the first plies. (Each search starts its threads:
    // up to a millisecond on a busy machine, more than a toy's search.)
    let mut seen = std::collections::HashSet::new();
    let ttt: Vec<Board> = (0..=3)
        .flat_map(|plies| positions::<Ttt>(&START, plies))
        .filter(|s| Ttt::result(s).is_none() && seen.insert(Ttt::hash(s)))
        .step_by(2)
        .collect();
    assert!(same_verdicts_with_threads::<Ttt>(&ttt, &[5, 9], &[2], 1) > ttt.len() / 2);
    assert!(same_verdicts_with_threads::<Ttt>(&ttt[..10], &[9], &[3], 1) > 0);
    // Nim for two, and for two partnerships of two.
    let nim: Vec<Heap> = (1..=14).flat_map(|n| [heap(n, 2, false), heap(n, 4, true)]).collect();
    assert!(same_verdicts_with_threads::<Nim>(&nim, &[5, 15], &[2], 1) > 0);
    // Chance: nothing forced but against a 1.
    let duel: Vec<DuelState> =
        (0..=6).map(|t| DuelState { totals: [t, 0], to_move: (t > 0) as u8, throwing: false }).collect();
    assert!(same_verdicts_with_threads::<Duel>(&duel, &[4], &[2], 1) > 0);
}

#[test]
fn solver_threads_stop_at_the_node_cap() {
    let mut s = Solver::<Ttt>::with_table_mb(1);
    s.set_threads(threads(2));
    s.node_cap = Some(200);
    let sol = s.solve(&START, 9);
    // The empty board is a draw within 9 plies, far more than 200 nodes away.
    assert!(sol.timed_out, "{sol:?}");
    assert_eq!(sol.verdict, Verdict::Unknown);
    assert!(sol.depth < 9);
    // Without the cap, the same solver (and its table) finds the draw.
    s.node_cap = None;
    let sol = s.solve(&START, 9);
    assert_eq!(sol.verdict, Verdict::Draw(9));
    assert!(!sol.timed_out);
}

// ---- chance: a dice duel (the game is in common) -------------------------

impl Solvable for Duel {}

/// Player 0's expected result (+1 win, -1 loss) with both sides playing
/// best, and their best choice, by enumerating the die.
fn duel_exact() -> (f64, u8) {
    let faces = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0];
    // -1, 0 or 1 (`f64::signum` gives 1 for 0).
    let sign = |x: f64| {
        if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            0.0
        }
    };
    // Player 1's best expected result against a total `a` (as +1/-1 for player 1).
    let reply = |a: f64| {
        let safe = sign(3.0 - a);
        let wild = faces.iter().map(|&b| sign(b - a)).sum::<f64>() / 6.0;
        safe.max(wild)
    };
    let safe = -reply(3.0);
    let wild = -faces.iter().map(|&a| reply(a)).sum::<f64>() / 6.0;
    if safe > wild { (safe, SAFE) } else { (wild, WILD) }
}

#[test]
fn duel_expectimax_matches_enumeration() {
    let root = DuelState { totals: [0, 0], to_move: 0, throwing: false };
    let (value, choice) = duel_exact();
    // By hand: a sure 3 loses 1/6 on average (the reply throws), the die 1/9.
    assert!((value + 1.0 / 9.0).abs() < 1e-12);
    assert_eq!(choice, WILD);
    let scale = |v: i32| v as f64 / WIN as f64;
    let mut searcher = Searcher::<Duel, Zero>::new(Zero, 1);
    let report = searcher.search(&root, Limits::depth(4));
    assert_eq!(report.best, Some(choice));
    assert!((scale(report.score) - value).abs() < 1e-4, "{} against {value}", scale(report.score));
    assert_eq!(minimax::<Duel, _>(&root, &Zero, 4, 0), report.score);
    // Chance is an adversary to the provers: nobody forces anything here.
    assert_eq!(Solver::<Duel>::new().solve(&root, 6).verdict, Verdict::Unknown);
    // After a sure 3, player 1 wins with a 4 or more whatever: not forced either.
    let after = Duel::apply(&root, SAFE);
    assert_eq!(Solver::<Duel>::new().solve(&after, 4).verdict, Verdict::Unknown);
    // Against a 6 player 1 draws only if the die falls on 6: nothing forced.
    let six = DuelState { totals: [6, 0], to_move: 1, throwing: false };
    assert_eq!(Solver::<Duel>::new().solve(&six, 4).verdict, Verdict::Unknown);
    // Against a 1 the sure 3 wins: forced in one ply.
    let one = DuelState { totals: [1, 0], to_move: 1, throwing: false };
    assert_eq!(Solver::<Duel>::new().solve(&one, 4).verdict, Verdict::Win(1));
    assert_eq!(Pns::<Duel>::default().solve(&one, 4).verdict, Verdict::Win(1));
}

#[test]
fn duel_mcts_samples_chance() {
    let root = DuelState { totals: [0, 0], to_move: 0, throwing: false };
    let mut mcts = Mcts::<Duel, _>::new(Config { playouts: 600, ..Config::default() }, UniformRollout::default());
    let report = mcts.search(&root, 5);
    assert_eq!(report.moves.iter().map(|m| m.1).sum::<u64>(), 600);
    // Player 1 after a 1 or 2 takes the sure 3.
    for a in [1, 2] {
        let s = DuelState { totals: [a, 0], to_move: 1, throwing: false };
        mcts.clear();
        assert_eq!(mcts.search(&s, 9).best, Some(SAFE), "{a}");
    }
}

#[test]
fn highcard_determinized_mcts_calls_high_and_folds_low() {
    let mut mcts = Mcts::<HighCard, _>::new(Config { playouts: 400, ..Config::default() }, UniformRollout::default());
    // The true hidden card is the middle one: a cheat would fold with 1 and call with 3 too,
    // but the search sees only sampled worlds.
    let high = Hands { cards: [3, 2], done: 0 };
    let report = mcts.search_determinized(&high, 0, 8, 1);
    assert_eq!(report.best, Some(CALL));
    assert_eq!(report.playouts, 400);
    let low = Hands { cards: [1, 2], done: 0 };
    assert_eq!(mcts.search_determinized(&low, 0, 8, 2).best, Some(FOLD));
}

#[test]
fn highcard_determinized_search_on_the_shared_tree() {
    let config = Config { playouts: 400, threads: 2, parallel: Parallel::Tree, ..Config::default() };
    let mut mcts = Mcts::<HighCard, _>::new(config, UniformRollout::default());
    let report = mcts.search_determinized(&Hands { cards: [3, 2], done: 0 }, 0, 8, 1);
    assert_eq!(report.best, Some(CALL));
    assert_eq!(report.playouts, 400);
    assert_eq!(mcts.search_determinized(&Hands { cards: [1, 2], done: 0 }, 0, 8, 2).best, Some(FOLD));
    assert_eq!(mcts.nodes(), 0, "determinized trees are not kept");
}

// ---- the shared tree (Parallel::Tree) -------------------------------------

fn shared(playouts: u64, threads: usize) -> Config {
    Config { playouts, threads, parallel: Parallel::Tree, ..Config::default() }
}

#[test]
fn shared_tree_takes_the_win_and_blocks() {
    for threads in [1, 2] {
        let s = Board { cells: [1, 1, 0, 2, 0, 0, 0, 2, 2], to_move: 0 };
        let mut mcts = Mcts::<Ttt, _>::new(shared(2000, threads), UniformRollout::default());
        assert_eq!(mcts.search(&s, 7).best, Some(2), "win, {threads} threads");
        let s = Board { cells: [1, 1, 0, 0, 2, 0, 0, 0, 0], to_move: 1 };
        let mut mcts = Mcts::<Ttt, _>::new(shared(4000, threads), UniformRollout::default());
        assert_eq!(mcts.search(&s, 7).best, Some(2), "block, {threads} threads");
    }
}

#[test]
fn shared_tree_nim_takes_the_winning_heap() {
    for threads in [1, 2] {
        let mut mcts = Mcts::<Nim, _>::new(shared(3000, threads), UniformRollout::default());
        for n in (1..=9).filter(|n| n % 4 != 0) {
            mcts.clear();
            assert_eq!(mcts.search(&heap(n, 2, false), n as u64).best, Some(n % 4), "{n}, {threads} threads");
        }
        let mut mcts = Mcts::<Nim, _>::new(shared(1000, threads), UniformRollout::default());
        for n in 1..=3 {
            let report = mcts.search(&Heap { to_move: 1, ..heap(n, 3, false) }, 3);
            assert_eq!(report.best, Some(n), "3 players, {n}");
            assert!(report.value() > 0.9);
        }
    }
}

#[test]
fn shared_tree_samples_chance() {
    let root = DuelState { totals: [0, 0], to_move: 0, throwing: false };
    for threads in [1, 2] {
        let mut mcts = Mcts::<Duel, _>::new(shared(600, threads), UniformRollout::default());
        let report = mcts.search(&root, 5);
        assert_eq!(report.playouts, 600);
        assert_eq!(report.moves.iter().map(|m| m.1).sum::<u64>(), 600);
        for a in [1, 2] {
            let s = DuelState { totals: [a, 0], to_move: 1, throwing: false };
            mcts.clear();
            assert_eq!(mcts.search(&s, 9).best, Some(SAFE), "{a}, {threads} threads");
        }
    }
    // Enough playouts to see that the die beats the sure 3 (by 1/9 against 1/6 lost).
    let mut mcts = Mcts::<Duel, _>::new(shared(20_000, 2), UniformRollout::default());
    assert_eq!(mcts.search(&root, 3).best, Some(WILD));
}

#[test]
fn shared_tree_with_one_thread_is_a_function_of_the_seed_and_matches_root_mode() {
    let ttt = Board { cells: [1, 0, 0, 0, 2, 0, 0, 0, 0], to_move: 0 };
    let duel = DuelState { totals: [0, 0], to_move: 0, throwing: false };
    for selection in [Selection::Uct { c: 1.0 }, Selection::Puct { c: 1.5, temp: 1.0 }] {
        let tree = Config { selection, ..shared(3000, 1) };
        // Root mode without proofs (the shared tree proves nothing).
        let root = Config { parallel: Parallel::Root, solver: false, ..tree };
        let a = Mcts::<Ttt, _>::new(tree, UniformRollout::default()).search(&ttt, 42);
        let b = Mcts::<Ttt, _>::new(tree, UniformRollout::default()).search(&ttt, 42);
        assert_eq!(a.moves, b.moves, "{selection:?}");
        assert_eq!((a.best, &a.pv, a.playouts, a.nodes), (b.best, &b.pv, b.playouts, b.nodes));
        let c = Mcts::<Ttt, _>::new(tree, UniformRollout::default()).search(&ttt, 43);
        assert_ne!(a.moves, c.moves, "another seed, another search");
        // Virtual loss counts only other threads: alone, the shared tree makes
        // the choices of root mode without proofs.
        let r = Mcts::<Ttt, _>::new(root, UniformRollout::default()).search(&ttt, 42);
        assert_eq!((a.moves, a.best, a.pv, a.nodes), (r.moves, r.best, r.pv, r.nodes), "{selection:?}");
        let a = Mcts::<Duel, _>::new(tree, UniformRollout::default()).search(&duel, 8);
        let r = Mcts::<Duel, _>::new(root, UniformRollout::default()).search(&duel, 8);
        assert_eq!((a.moves, a.nodes), (r.moves, r.nodes), "chance, {selection:?}");
    }
}

#[test]
fn shared_tree_with_two_threads_spends_the_budget_and_loses_no_visit() {
    let s = Board { cells: [1, 0, 0, 0, 2, 0, 0, 0, 0], to_move: 0 };
    for playouts in [1, 2, 3, 777, 5000] {
        let mut mcts = Mcts::<Ttt, _>::new(shared(playouts, 2), UniformRollout::default());
        let r = mcts.search(&s, playouts);
        assert_eq!(r.playouts, playouts);
        // Every playout passes through one root move (the root is expanded at once).
        assert_eq!(r.moves.iter().map(|m| m.1).sum::<u64>(), playouts);
        assert_eq!(r.nodes, mcts.nodes());
        // A second search on the same root adds its playouts to the same tree.
        let again = mcts.search(&s, playouts + 1);
        assert_eq!(again.playouts, playouts);
        assert_eq!(again.moves.iter().map(|m| m.1).sum::<u64>(), 2 * playouts);
    }
    // Without a playout budget the time limit stops the search.
    let limited = Config { playouts: u64::MAX, time: Some(std::time::Duration::from_millis(100)), ..shared(0, 2) };
    let mut mcts = Mcts::<Nim, _>::new(limited, UniformRollout::default());
    let r = mcts.search(&heap(40, 2, false), 1);
    assert!(r.elapsed < std::time::Duration::from_secs(5), "{:?}", r.elapsed);
    assert!(r.playouts > 0);
    assert_eq!(r.moves.iter().map(|m| m.1).sum::<u64>(), r.playouts);
}

#[test]
fn shared_tree_respects_the_memory_cap() {
    let s = heap(40, 2, false);
    for (cap, threads) in [(1, 1), (4, 2), (40, 2), (41, 2), (300, 2)] {
        let config = Config { memory: cap * shared_node_bytes::<Nim>(), ..shared(4000, threads) };
        let mut mcts = Mcts::<Nim, _>::new(config, UniformRollout::default());
        let r = mcts.search(&s, 5);
        // The root is expanded whatever the cap (its 3 moves); the tree grows no further than the cap.
        assert!(r.nodes <= cap.max(4), "{} nodes, cap {cap}", r.nodes);
        // Nim has at most 3 moves: a full tree is within one expansion of the cap.
        assert!(cap <= 4 || r.nodes + 3 > cap, "the tree fills up to the cap: {} of {cap}", r.nodes);
        assert_eq!(r.playouts, 4000, "the search goes on from the leaves");
        assert_eq!(r.moves.iter().map(|m| m.1).sum::<u64>(), 4000);
    }
}

#[test]
fn shared_tree_advance_keeps_the_subtree() {
    let s = heap(21, 2, false);
    let mut mcts = Mcts::<Nim, _>::new(shared(4000, 2), UniformRollout::default());
    let r = mcts.search(&s, 1);
    let best = r.best.expect("a move");
    let kept = r.moves.iter().find(|m| m.0 == best).expect("the best move is a root move").1;
    let before = mcts.nodes();
    mcts.advance(best);
    let after = mcts.nodes();
    assert!(after > 1 && after < before, "{before} then {after} nodes");
    // The child's first visit ended at it (a leaf then); every later one went on below it.
    let next = Nim::apply(&s, best);
    let r = mcts.search(&next, 2);
    assert_eq!(r.playouts, 4000);
    assert_eq!(r.moves.iter().map(|m| m.1).sum::<u64>(), kept - 1 + 4000);
    // A move the tree never expanded starts afresh; so does a search from another root.
    let mut mcts = Mcts::<Nim, _>::new(shared(1, 1), UniformRollout::default());
    mcts.search(&s, 1);
    mcts.advance(3);
    mcts.advance(3);
    assert_eq!(mcts.nodes(), 1);
    let r = mcts.search(&heap(9, 2, false), 1);
    assert_eq!(r.moves.iter().map(|m| m.1).sum::<u64>(), 1);
}

/// Uniform rollouts whose priorities prefer one tic-tac-toe cell.
#[derive(Clone, Default)]
struct Prefer {
    cell: u8,
    inner: UniformRollout<Ttt>,
}

impl Rollout<Ttt> for Prefer {
    fn rollout(&mut self, s: &Board, rng: &mut GameRng) -> Scores {
        self.inner.rollout(s, rng)
    }
    fn priority(&mut self, _s: &Board, m: u8) -> i32 {
        if m == self.cell { 100 } else { 0 }
    }
}

#[test]
fn rollout_priorities_set_the_order_and_the_priors() {
    let puct = Selection::Puct { c: 1.5, temp: 10.0 };
    for parallel in [Parallel::Root, Parallel::Tree] {
        let config = |playouts| Config { playouts, selection: puct, parallel, ..Config::default() };
        // The game's priorities are all 0: the game's order, uniform priors, the first cell first.
        let plain = Mcts::<Ttt, _>::new(config(1), UniformRollout::default()).search(&START, 1);
        assert_eq!(plain.moves[0].0, 0);
        assert_eq!(plain.moves.iter().find(|m| m.1 > 0).map(|m| m.0), Some(0), "{parallel:?}");
        // The rollout's priorities: cell 7 first, and its prior draws the first visit.
        let prefer = Prefer { cell: 7, ..Prefer::default() };
        let r = Mcts::<Ttt, _>::new(config(1), prefer.clone()).search(&START, 1);
        assert_eq!(r.moves[0].0, 7, "{parallel:?}");
        assert_eq!(r.moves.iter().find(|m| m.1 > 0).map(|m| m.0), Some(7), "{parallel:?}");
        // With e^10 against 1 as prior, the preferred cell takes most of a small search.
        let r = Mcts::<Ttt, _>::new(config(200), prefer).search(&START, 1);
        assert_eq!(r.best, Some(7), "{parallel:?}");
        assert!(r.moves[0].1 > 100, "{:?}", r.moves);
    }
}

/// Min and median of three rates.
fn min_median(mut v: [f64; 3]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[0], v[1])
}

/// Not a test: playouts/s of root and tree mode with 1 and 2 threads on
/// tic-tac-toe (rollouts of a few plies) and 60-stone Nim (a few dozen).
/// `cargo test -p game-search --release --test toys -- --ignored --nocapture playout_rate`
#[test]
#[ignore]
fn playout_rate_root_against_tree() {
    fn rate<G: Game>(root: &G::State, parallel: Parallel, threads: usize) -> (f64, f64)
    where
        G::State: Send,
        G::Move: Send + Sync,
    {
        let config = Config { playouts: 200_000, threads, parallel, ..Config::default() };
        let runs = [1, 2, 3].map(|seed| Mcts::<G, _>::new(config, UniformRollout::default()).search(root, seed));
        min_median(runs.map(|r| r.playouts_per_s()))
    }
    for threads in [1, 2] {
        for parallel in [Parallel::Root, Parallel::Tree] {
            let (min, med) = rate::<Ttt>(&START, parallel, threads);
            println!("tic-tac-toe {parallel:?} {threads} thread(s): min {min:.0} median {med:.0} playouts/s");
            let (min, med) = rate::<Nim>(&heap(60, 2, false), parallel, threads);
            println!("nim 60      {parallel:?} {threads} thread(s): min {min:.0} median {med:.0} playouts/s");
        }
    }
}
