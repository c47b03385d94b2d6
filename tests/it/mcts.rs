//! MCTS: forced wins found, determinism for a seed (one thread and several),
//! tree reuse keeps the subtree, the memory cap holds, a generic rollout
//! works, and the rollouts end every game with a result.

use game_search::Game as _;
use game_search::mcts::{Config, Mcts, Selection, UniformRollout, bare_rollouts, node_bytes};
use senat_lab::games::senat::{Senat, SenatRollout, SenatState};
use senat_rules::{Position, sample};

use crate::support::games::state;

/// Blue pushes its blue square I23 through the door: its fifth die.
const WIN_IN_1: &str = ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb b - 4-4-13 0";

fn config(playouts: u64, threads: usize) -> Config {
    Config { playouts, threads, ..Config::default() }
}

#[test]
fn finds_the_win_in_one_with_either_rollout_and_rule() {
    let s = state(WIN_IN_1);
    for rollout in [SenatRollout::Random, SenatRollout::GreedyRollout] {
        for selection in [Selection::Uct { c: 1.0 }, Selection::Puct { c: 1.5, temp: 500.0 }] {
            let c = Config { selection, ..config(400, 1) };
            let r = Mcts::<Senat, _>::new(c, rollout).search(&s, 7);
            assert_eq!(r.best.unwrap().to_string(), "I22>I23:D", "{rollout:?} {selection:?}");
            assert!(r.value() > 0.99, "a sure win scores 1: {}", r.value());
            // The win proves the root: the search stops early (proofs are on by default).
            assert!(r.playouts >= 1 && r.playouts <= 400, "{} playouts", r.playouts);
        }
    }
}

#[test]
fn a_seed_fixes_the_search_for_each_thread_count() {
    let s = SenatState::new(sample::START.parse().unwrap());
    for threads in [1, 2, 3] {
        let a = Mcts::<Senat, _>::new(config(600, threads), SenatRollout::Random).search(&s, 42);
        let b = Mcts::<Senat, _>::new(config(600, threads), SenatRollout::Random).search(&s, 42);
        assert_eq!(a.moves, b.moves, "{threads} threads");
        assert_eq!(a.best, b.best);
        assert_eq!(a.playouts, 600);
        assert_eq!(a.moves.iter().map(|m| m.1).sum::<u64>(), 600, "root visits add up");
        let c = Mcts::<Senat, _>::new(config(600, threads), SenatRollout::Random).search(&s, 43);
        assert_ne!(a.moves, c.moves, "another seed, another search");
    }
}

#[test]
fn root_moves_are_the_legal_moves() {
    let s = SenatState::new(sample::START.parse().unwrap());
    let r = Mcts::<Senat, _>::new(config(200, 1), SenatRollout::Random).search(&s, 1);
    let mut got: Vec<String> = r.moves.iter().map(|m| m.0.to_string()).collect();
    let mut want: Vec<String> = s.position().legal_moves().iter().map(|m| m.to_string()).collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
    assert_eq!(got.len(), 81);
}

#[test]
fn tree_reuse_keeps_the_subtree_of_the_move_played() {
    let s = SenatState::new(sample::START.parse().unwrap());
    let mut m = Mcts::<Senat, _>::new(config(3000, 1), SenatRollout::Random);
    let r = m.search(&s, 5);
    let best = r.best.unwrap();
    let kept = r.moves.iter().find(|x| x.0 == best).unwrap().1;
    m.advance(best);
    let next = s.play(best);
    let nodes_before = m.nodes();
    assert!(nodes_before > 1, "the subtree survives");
    let r2 = m.search(&next, 6);
    // The new root starts with the visits it had as a child.
    assert_eq!(r2.moves.iter().map(|x| x.1).sum::<u64>(), kept - 1 + 3000);
    // Searching an unrelated state starts afresh.
    let r3 = m.search(&s, 7);
    assert_eq!(r3.moves.iter().map(|x| x.1).sum::<u64>(), 3000);
}

#[test]
fn the_memory_cap_bounds_the_tree() {
    let s = SenatState::new(sample::START.parse().unwrap());
    let cap_nodes = 500;
    let c = Config { memory: cap_nodes * node_bytes::<Senat>(), ..config(5000, 1) };
    let mut m = Mcts::<Senat, _>::new(c, SenatRollout::Random);
    let r = m.search(&s, 1);
    assert!(m.nodes() <= cap_nodes, "{} nodes", m.nodes());
    assert_eq!(r.playouts, 5000, "the search goes on at the cap");
    assert!(s.position().check(r.best.unwrap()).is_ok());
}

#[test]
fn a_generic_rollout_plays_sénat_too() {
    let s = state(WIN_IN_1);
    let r = Mcts::<Senat, _>::new(config(300, 2), UniformRollout::<Senat>::default()).search(&s, 3);
    assert_eq!(r.best.unwrap().to_string(), "I22>I23:D");
}

#[test]
fn rollouts_end_games_with_a_result() {
    // From the start of the draft, each rollout is a whole game; the mean is a probability.
    let s = SenatState::new(Position::start());
    for mut rollout in [SenatRollout::Random, SenatRollout::GreedyRollout] {
        let (mean, _) = bare_rollouts::<Senat, _>(&s, &mut rollout, 200, 9);
        assert!((0.0..=1.0).contains(&mean) && mean > 0.1 && mean < 0.9, "{rollout:?}: {mean}");
    }
    // A finished game is scored at once.
    let over = state(".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,4Sb b - 4-5-13 0");
    assert!(Senat::result(&over).is_some());
    let r = Mcts::<Senat, _>::new(config(10, 1), SenatRollout::Random).search(&over, 1);
    assert_eq!(r.best, None);
}
