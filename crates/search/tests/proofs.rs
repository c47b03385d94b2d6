//! Proofs in the MCTS tree ([`Config::solver`]): every proof the tree
//! claims is one the exact solver confirms, proved wins are taken by the
//! shortest line, proved losses are avoided, draws and chance are proved
//! only when forced, teams prove together, proofs survive tree reuse, and
//! with proofs off a search is what it was before they existed.

use game_search::Game;
use game_search::mcts::{Config, Mcts, Parallel, Proof, Report, Selection, UniformRollout};
use game_search::solver::{Solvable, Solver, Verdict};

mod common;
use common::*;

impl Solvable for Ttt {}
impl Solvable for Nim {}
impl Solvable for Duel {}

fn config(playouts: u64, solver: bool) -> Config {
    Config { playouts, solver, ..Config::default() }
}

fn search<G: Game>(s: &G::State, playouts: u64, solver: bool, seed: u64) -> Report<G::Move>
where
    G::State: Send,
    G::Move: Send + Sync,
{
    Mcts::<G, _>::new(config(playouts, solver), UniformRollout::default()).search(s, seed)
}

/// Whether the exact solver's verdict `v` confirms `proof` (within the
/// same distance for a win or a loss: the solver finds the fastest, the
/// tree a line it met).
fn agrees(proof: Proof, v: Verdict) -> bool {
    match (proof, v) {
        (Proof::Win(n), Verdict::Win(d)) | (Proof::Loss(n), Verdict::Loss(d)) => d <= n,
        (Proof::Draw, Verdict::Draw(_)) => true,
        _ => false,
    }
}

/// Checks every proof of `r` (searched at `s`) against the exact solver
/// with `horizon` plies; returns how many it checked.
fn check_proofs<G: Solvable>(s: &G::State, r: &Report<G::Move>, horizon: u32) -> usize
where
    G::State: std::fmt::Debug,
{
    let mut solver = Solver::<G>::with_table_mb(1);
    let mut checked = 0;
    if let Some(p) = r.proof {
        let v = solver.solve(s, horizon).verdict;
        assert!(agrees(p, v), "root {s:?}: {p:?} against {v:?}");
        checked += 1;
    }
    for (&(m, _, _), &p) in r.moves.iter().zip(&r.proofs) {
        if let Some(p) = p {
            let v = solver.solve_move(s, m, horizon).verdict;
            assert!(agrees(p, v), "{s:?} {m:?}: {p:?} against {v:?}");
            checked += 1;
        }
    }
    checked
}

/// Three searches (tic-tac-toe, then again after its best move, then
/// 21-stone Nim) in one line each, as the pins below were written.
fn digest(parallel: Parallel, threads: usize, selection: Selection, solver: bool) -> Vec<String> {
    let c = Config { playouts: 3000, threads, parallel, selection, solver, ..Config::default() };
    let line = |tag: &str, r: &Report<u8>| {
        let v: Vec<(u8, u64, String)> = r.moves.iter().map(|x| (x.0, x.1, format!("{:.6}", x.2))).collect();
        format!("{tag} {threads} {parallel:?} best={:?} pv={:?} {:?}", r.best, r.pv, v)
    };
    let mut m = Mcts::<Ttt, _>::new(c, UniformRollout::default());
    let r = m.search(&START, 11);
    let mut out = vec![line("TTT", &r)];
    let best = r.best.expect("a move");
    m.advance(best);
    out.push(line("TTT2", &m.search(&Ttt::apply(&START, best), 12)));
    let mut m = Mcts::<Nim, _>::new(c, UniformRollout::default());
    out.push(line("NIM", &m.search(&heap(21, 2, false), 5)));
    out
}

#[test]
fn with_proofs_off_a_search_is_what_it_was_before_them() {
    // Printed by the same searches at the commit before proofs existed.
    let pinned = [
        "TTT 1 Root best=Some(4) pv=[4, 2, 1, 7, 8, 5] [(0, 289, \"0.650519\"), (1, 52, \"0.423077\"), (2, 327, \"0.660550\"), (3, 200, \"0.615000\"), (4, 1331, \"0.742675\"), (5, 175, \"0.602857\"), (6, 316, \"0.656646\"), (7, 96, \"0.526042\"), (8, 214, \"0.621495\")]",
        "TTT2 1 Root best=Some(2) pv=[2, 5, 3, 0, 8, 7, 1, 6] [(0, 741, \"0.255735\"), (1, 293, \"0.192833\"), (2, 884, \"0.264706\"), (3, 311, \"0.199357\"), (5, 412, \"0.219660\"), (6, 749, \"0.256342\"), (7, 282, \"0.189716\"), (8, 658, \"0.249240\")]",
        "NIM 1 Root best=Some(2) pv=[2, 3, 1, 2, 1, 1, 1, 2, 1, 3, 2] [(1, 814, \"0.490172\"), (2, 1389, \"0.515479\"), (3, 797, \"0.489335\")]",
        "TTT 2 Root best=Some(4) pv=[4, 8, 6, 2, 5, 3, 1, 7, 0] [(0, 89, \"0.606742\"), (1, 97, \"0.618557\"), (2, 225, \"0.691111\"), (3, 95, \"0.615789\"), (4, 2107, \"0.758662\"), (5, 52, \"0.519231\"), (6, 89, \"0.617978\"), (7, 73, \"0.575342\"), (8, 173, \"0.684971\")]",
        "TTT2 2 Root best=Some(0) pv=[0] [(0, 2203, \"0.329324\"), (1, 137, \"0.164234\"), (2, 290, \"0.220690\"), (3, 247, \"0.216599\"), (5, 194, \"0.193299\"), (6, 1395, \"0.304659\"), (7, 226, \"0.210177\"), (8, 413, \"0.232446\")]",
        "NIM 2 Root best=Some(1) pv=[1, 1, 1, 3, 3, 1, 1, 2, 2, 3, 1] [(1, 1493, \"0.501005\"), (2, 872, \"0.481651\"), (3, 635, \"0.466142\")]",
        "TTT 1 Tree best=Some(4) pv=[4, 2, 1, 7, 8, 5] [(0, 289, \"0.650519\"), (1, 52, \"0.423077\"), (2, 327, \"0.660550\"), (3, 200, \"0.615000\"), (4, 1331, \"0.742675\"), (5, 175, \"0.602857\"), (6, 316, \"0.656646\"), (7, 96, \"0.526042\"), (8, 214, \"0.621495\")]",
        "TTT2 1 Tree best=Some(2) pv=[2, 5, 3, 0, 8, 7, 1, 6] [(0, 741, \"0.255735\"), (1, 293, \"0.192833\"), (2, 884, \"0.264706\"), (3, 311, \"0.199357\"), (5, 412, \"0.219660\"), (6, 749, \"0.256342\"), (7, 282, \"0.189716\"), (8, 658, \"0.249240\")]",
        "NIM 1 Tree best=Some(2) pv=[2, 3, 1, 2, 1, 1, 1, 2, 1, 3, 2] [(1, 814, \"0.490172\"), (2, 1389, \"0.515479\"), (3, 797, \"0.489335\")]",
    ];
    let runs = [
        (Parallel::Root, 1, Selection::Uct { c: 1.0 }),
        (Parallel::Root, 2, Selection::Puct { c: 1.5, temp: 1.0 }),
        (Parallel::Tree, 1, Selection::Uct { c: 1.0 }),
    ];
    let got: Vec<String> = runs.iter().flat_map(|&(p, t, s)| digest(p, t, s, false)).collect();
    assert_eq!(got, pinned);
    // The shared tree proves nothing: the same with proofs asked for.
    assert_eq!(digest(Parallel::Tree, 1, Selection::Uct { c: 1.0 }, true), pinned[6..]);
}

#[test]
fn a_proved_win_is_taken_by_the_shortest_line() {
    // O (to move) wins at once on 6 (the diagonal 2-4-6); 5 also wins, later.
    let s = Board { cells: [1, 1, 2, 0, 2, 0, 0, 1, 0], to_move: 1 };
    let mut off_took_the_long_way = false;
    for seed in 0..8 {
        let on = search::<Ttt>(&s, 300, true, seed);
        assert_eq!(on.best, Some(6), "seed {seed}");
        assert_eq!(on.proof, Some(Proof::Win(1)));
        let i = on.moves.iter().position(|m| m.0 == 6).expect("a root move");
        assert_eq!(on.proofs[i], Some(Proof::Win(1)));
        check_proofs::<Ttt>(&s, &on, 9);
        off_took_the_long_way |= search::<Ttt>(&s, 300, false, seed).best != Some(6);
    }
    assert!(off_took_the_long_way, "the position shows nothing if plain UCT always wins at once");
    // O wins in 5 plies only by 2; without proofs 300 playouts choose a draw.
    let s = Board { cells: [0, 0, 0, 1, 0, 0, 0, 1, 2], to_move: 1 };
    assert_eq!(Solver::<Ttt>::with_table_mb(1).solve(&s, 9).verdict, Verdict::Win(5));
    let on = search::<Ttt>(&s, 3000, true, 1);
    assert_eq!(on.best, Some(2));
    assert_eq!(on.proof, Some(Proof::Win(5)));
    assert!(on.playouts < 3000, "the search stops once the root is proved: {}", on.playouts);
    check_proofs::<Ttt>(&s, &on, 9);
}

#[test]
fn the_only_saving_move_is_found_and_a_lost_position_resists_longest() {
    // Only 2 avoids a forced loss; without proofs 200 playouts may choose 4.
    let s = Board { cells: [0, 1, 0, 0, 0, 0, 1, 0, 2], to_move: 1 };
    let saving: Vec<u8> = Solver::<Ttt>::with_table_mb(1)
        .solve_moves(&s, 9)
        .into_iter()
        .filter(|x| !matches!(x.1.verdict, Verdict::Loss(_)))
        .map(|x| x.0)
        .collect();
    assert_eq!(saving, [2]);
    let mut off_lost = false;
    for seed in 0..12 {
        let on = search::<Ttt>(&s, 200, true, seed);
        assert_eq!(on.best, Some(2), "seed {seed}");
        check_proofs::<Ttt>(&s, &on, 9);
        off_lost |= search::<Ttt>(&s, 200, false, seed).best != Some(2);
    }
    assert!(off_lost, "the position shows nothing if plain UCT always finds the move");
    // Every move loses; 0 holds out four plies, 4 two.
    let s = Board { cells: [0, 1, 1, 1, 0, 2, 0, 0, 2], to_move: 1 };
    let on = search::<Ttt>(&s, 2000, true, 3);
    assert_eq!(on.proof, Some(Proof::Loss(4)));
    assert_eq!(on.best, Some(0));
    check_proofs::<Ttt>(&s, &on, 9);
}

#[test]
fn draws_are_proved_with_score_bounds() {
    let draws: Vec<Board> = positions::<Ttt>(&START, 5)
        .into_iter()
        .step_by(97)
        .filter(|s| matches!(Solver::<Ttt>::with_table_mb(1).solve(s, 9).verdict, Verdict::Draw(_)))
        .collect();
    assert!(draws.len() > 5);
    for (i, s) in draws.iter().enumerate() {
        let r = search::<Ttt>(s, 4000, true, i as u64);
        assert_eq!(r.proof, Some(Proof::Draw), "{s:?}");
        assert!(!matches!(r.proofs[r.moves.iter().position(|m| Some(m.0) == r.best).unwrap()], Some(Proof::Loss(_))));
        check_proofs::<Ttt>(s, &r, 9);
    }
}

#[test]
fn chance_is_proved_only_when_every_outcome_agrees() {
    // Against a 1, the sure 3 wins; the die might draw (a 1): not forced.
    let one = DuelState { totals: [1, 0], to_move: 1, throwing: false };
    let r = search::<Duel>(&one, 500, true, 2);
    assert_eq!(r.best, Some(SAFE));
    assert_eq!(r.proof, Some(Proof::Win(1)));
    let proof_of = |r: &Report<u8>, m| r.proofs[r.moves.iter().position(|x| x.0 == m).unwrap()];
    assert_eq!(proof_of(&r, SAFE), Some(Proof::Win(1)));
    assert_eq!(proof_of(&r, WILD), None);
    // Against a 6 the sure 3 loses, the die draws on a 6: the die is played, nothing is proved at the root.
    let six = DuelState { totals: [6, 0], to_move: 1, throwing: false };
    let r = search::<Duel>(&six, 500, true, 2);
    assert_eq!(proof_of(&r, SAFE), Some(Proof::Loss(1)));
    assert_eq!(proof_of(&r, WILD), None);
    assert_eq!((r.best, r.proof, r.playouts), (Some(WILD), None, 500));
    // The start: the solver forces nothing and neither does the tree.
    let root = DuelState { totals: [0, 0], to_move: 0, throwing: false };
    let r = search::<Duel>(&root, 3000, true, 4);
    assert_eq!(r.proof, None);
    check_proofs::<Duel>(&root, &r, 6);
}

#[test]
fn partners_prove_together_and_three_teams_prove_nothing() {
    // Four players in two partnerships: the heap of 9 is won by taking 1.
    let s = heap(9, 4, true);
    let r = search::<Nim>(&s, 3000, true, 6);
    assert_eq!(r.best, Some(1));
    assert!(matches!(r.proof, Some(Proof::Win(_))), "{:?}", r.proof);
    assert!(check_proofs::<Nim>(&s, &r, 12) > 0);
    // Three players are three teams: proofs are off and the search is unchanged.
    let s = heap(10, 3, false);
    let (on, off) = (search::<Nim>(&s, 2000, true, 7), search::<Nim>(&s, 2000, false, 7));
    assert_eq!((on.best, &on.moves, &on.pv), (off.best, &off.moves, &off.pv));
    assert!(on.proof.is_none() && on.proofs.iter().all(Option::is_none));
}

#[test]
fn proofs_survive_tree_reuse() {
    let s = Board { cells: [0, 0, 0, 1, 0, 0, 0, 1, 2], to_move: 1 };
    let mut m = Mcts::<Ttt, _>::new(config(3000, true), UniformRollout::default());
    let r = m.search(&s, 1);
    let (Some(best), Some(Proof::Win(n))) = (r.best, r.proof) else { panic!("{:?}", r.proof) };
    m.advance(best);
    let next = Ttt::apply(&s, best);
    // The new root is proved already: no playout is needed to say so.
    let r2 = m.search(&next, 2);
    assert_eq!(r2.playouts, 0);
    let Some(Proof::Loss(k)) = r2.proof else { panic!("{:?}", r2.proof) };
    assert!(k < n, "{k} {n}");
    check_proofs::<Ttt>(&next, &r2, 9);
    // Each reply keeps its proof one level down.
    for &(reply, _, _) in &r2.moves {
        let mut again = Mcts::<Ttt, _>::new(config(3000, true), UniformRollout::default());
        again.search(&next, 3);
        again.advance(reply);
        let after = Ttt::apply(&next, reply);
        let r3 = again.search(&after, 4);
        check_proofs::<Ttt>(&after, &r3, 9);
    }
}

#[test]
fn every_proof_the_tree_claims_the_exact_solver_confirms() {
    let mut checked = 0;
    let mut rng = game_search::rng::rng_from_seed(99);
    for plies in 0..7 {
        let all = positions::<Ttt>(&START, plies);
        for k in 0..6 {
            let s = all[game_search::rng::below(&mut rng, all.len())];
            for (playouts, threads) in [(100, 1), (700, 2), (3000, 1)] {
                let c = Config { playouts, threads, ..config(0, true) };
                let r = Mcts::<Ttt, _>::new(c, UniformRollout::default()).search(&s, (plies * 10 + k) as u64);
                checked += check_proofs::<Ttt>(&s, &r, 9);
            }
        }
    }
    for n in 1..=14 {
        for (players, partners) in [(2, false), (4, true)] {
            let s = heap(n, players, partners);
            for playouts in [50, 400, 3000] {
                checked += check_proofs::<Nim>(&s, &search::<Nim>(&s, playouts, true, n as u64), 16);
            }
        }
    }
    for a in 0..=6 {
        for (to_move, throwing) in [(0, false), (0, true), (1, false), (1, true)] {
            let s = DuelState { totals: [a, 0], to_move, throwing };
            if (a == 0) != (to_move == 0) || Duel::result(&s).is_some() {
                continue;
            }
            checked += check_proofs::<Duel>(&s, &search::<Duel>(&s, 800, true, a as u64), 6);
        }
    }
    assert!(checked > 200, "{checked} proofs checked");
}

/// The tree's shape ([`Solver::count_shape`]) counts the search without
/// changing it: the same verdict and nodes with it and without; the root of
/// a refuted question is one OR node that tried every move; every level's
/// nodes are children of the level above (or a root of a horizon); and no
/// more nodes are counted than were visited.
#[test]
fn the_tree_shape_counts_the_search_it_watches() {
    let root = START;
    let mut moves = Vec::new();
    Ttt::moves(&root, &mut moves);
    let me = Ttt::to_move(&root);
    let plain = Solver::<Ttt>::with_table_mb(1).forced_win(&root, me, 9);
    let mut counted = Solver::<Ttt>::with_table_mb(1);
    counted.count_shape(true);
    let sol = counted.forced_win(&root, me, 9);
    // Tic-tac-toe is a draw: the side to move forces no win.
    assert_eq!((sol.verdict, plain.verdict), (Verdict::Unknown, Verdict::Unknown));
    assert_eq!((sol.nodes, sol.depth), (plain.nodes, plain.depth));
    let shape = counted.shape().expect("counted").clone();
    let levels: Vec<(u32, _)> = shape.levels().map(|(d, l)| (d, *l)).collect();
    let (top, root_level) = levels[0];
    assert_eq!(top, 9);
    assert_eq!((root_level.or_exhausted.nodes, root_level.or_exhausted.moves), (1, moves.len() as u64));
    assert_eq!(root_level.or_cut.nodes + root_level.and_cut.nodes + root_level.and_exhausted.nodes, 0);
    let nodes = game_search::shape::Level::nodes;
    let moves_tried =
        |l: &game_search::shape::Level| l.or_cut.moves + l.or_exhausted.moves + l.and_cut.moves + l.and_exhausted.moves;
    for w in levels.windows(2) {
        let ((upper, u), (lower, l)) = (w[0], w[1]);
        if lower + 1 == upper {
            // The roots of the horizon `lower` (one question each) besides the children.
            assert!(nodes(&l) <= moves_tried(&u) + 1, "left {lower}: {l:?} under {u:?}");
        }
    }
    let total = shape.total();
    assert!(nodes(&total) > 100 && nodes(&total) <= sol.nodes, "{total:?} of {} nodes", sol.nodes);
    // In a refuted question's tree the refutations are found: some AND node
    // is cut, and where the other side has a refutation first in line, by its first move.
    assert!(total.and_cut.nodes > 0 && total.and_cut.at_first > 0 && total.and_cut.at_first <= total.and_cut.nodes);
    // A new search starts a new count: with the table kept it expands fewer nodes.
    let again = counted.forced_win(&root, me, 9);
    assert_eq!(again.verdict, Verdict::Unknown);
    let recount = nodes(&counted.shape().expect("counted").total());
    assert!(recount < nodes(&total), "{recount} after {}", nodes(&total));
    // Off: nothing counted.
    assert!(Solver::<Ttt>::with_table_mb(1).shape().is_none());
}
