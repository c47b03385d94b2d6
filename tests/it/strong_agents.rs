//! The strong agents of the research: the learned evaluation's weights load
//! and change play, the learned policy and MCTS on the learned evaluation
//! (`rollout=eval`, `prior=…`) play legal moves in every draft state, and
//! the shared-tree MCTS is a function of its seed with one thread.

use crate::support::games::spec;
use senat_lab::games::senat::{Senat, SenatRollout, SenatState};
use senat_lab::learned::Learned;
use senat_lab::policy::{Turn, rng_from_seed};
use senat_lab::selfplay::{Matchup, play_game};
use senat_rules::{GameRecord, Position};

/// The moves of one self-play game of `policy` against itself (both phases).
fn game_moves(policy: &str, seed: u64) -> Vec<senat_rules::moves::Move> {
    let s = spec(policy);
    let m = Matchup { red: s.clone(), blue: s.clone(), draft_red: s.clone(), draft_blue: s };
    play_game(&m, seed, 0).game.moves().to_vec()
}

#[test]
fn the_shipped_weights_load_and_change_play() {
    let w = Learned::builtin();
    assert_ne!(w, &Learned::ZERO);
    // All-zero weights tie every move: the policy then plays at random, and
    // its games differ from the fitted weights' games from the same seeds.
    let dir = std::env::temp_dir().join(format!("senat-learned-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let zero = dir.join("zero.txt");
    std::fs::write(&zero, Learned::ZERO.to_text("all zero")).unwrap();
    let fitted = dir.join("fitted.txt");
    std::fs::write(&fitted, w.to_text("the shipped weights, written back")).unwrap();
    let mut differ = 0;
    for seed in 0..4 {
        let shipped = game_moves("learned", seed);
        assert_eq!(shipped, game_moves(&format!("learned:file={}", fitted.display()), seed), "seed {seed}");
        if shipped != game_moves(&format!("learned:file={}", zero.display()), seed) {
            differ += 1;
        }
    }
    assert_eq!(differ, 4, "zero weights must play other games than the fitted ones");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_learned_weights_file_with_a_mistake_is_refused_with_its_line() {
    let dir = std::env::temp_dir().join(format!("senat-learned-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    let text = Learned::builtin().to_text("").replace("play.pile=", "play.pile=x");
    std::fs::write(&bad, text).unwrap();
    let e = senat_lab::policy::PolicySpec::parse(&format!("learned:file={}", bad.display())).unwrap_err();
    // Line 2: senat writes a check line first (the edited row is named all the same).
    assert!(e.to_string().contains("line 2: `x"), "{e}");
    assert!(senat_lab::policy::PolicySpec::parse("learned:pile=1").is_err());
    std::fs::remove_dir_all(&dir).ok();
}

/// Walks `plies` random draft moves from the start with generator `seed`,
/// asking `policy` for a move at each state and checking it is legal there.
fn draft_moves_are_legal(policy: &str, seed: u64) {
    let s = spec(policy);
    let mut player = s.build();
    let mut rng = rng_from_seed(seed);
    let mut walk = rng_from_seed(seed ^ 0xfeed);
    let mut game = GameRecord::new(Position::start());
    let mut states = 0;
    while !game.position().is_play() {
        player.new_game();
        let m = player.choose(&Turn::new(&game), &mut rng);
        let p = game.position();
        assert!(p.is_legal(m), "{policy}: {m:?} is illegal in {}", p.to_spn());
        states += 1;
        let next = senat_lab::policy::random_move(p, &mut walk).expect("the draft always has a move");
        game.play(next).unwrap();
    }
    assert_eq!(states, 46, "every give and every placement was asked");
}

#[test]
fn searched_drafting_returns_legal_moves_in_every_draft_state() {
    for seed in 0..3 {
        draft_moves_are_legal("mcts:playouts=48,rollout=eval,prior=1000", seed);
        draft_moves_are_legal("mcts:playouts=48,rollout=eval,prior=1000,parallel=tree,threads=2", seed);
        draft_moves_are_legal("learned", seed);
    }
}

#[test]
fn shared_tree_mcts_with_one_thread_is_a_function_of_its_seed() {
    use game_search::mcts::{Config, Mcts, Parallel, Selection};
    let root = SenatState::new(senat_rules::sample::START.parse().unwrap());
    let config = Config {
        playouts: 400,
        time: None,
        selection: Selection::Puct { c: 1.0, temp: 1000.0 },
        memory: 64 << 20,
        threads: 1,
        parallel: Parallel::Tree,
        solver: false,
    };
    let run = |seed| {
        let mut m: Mcts<Senat, SenatRollout> = Mcts::new(config, SenatRollout::GreedyRollout);
        let r = m.search(&root, seed);
        (r.best, r.moves.iter().map(|&(mv, n, q)| (mv, n, q.to_bits())).collect::<Vec<_>>())
    };
    let a = run(7);
    assert_eq!(a, run(7));
    assert_ne!(a.1, run(8).1, "another seed, other playouts");
    // And through the policy spec, the same move twice from the same generator.
    let s = spec("mcts:playouts=300,rollout=eval,prior=1000,parallel=tree,threads=1");
    let g = GameRecord::new(senat_rules::sample::START.parse().unwrap());
    let pick = |seed| s.build().choose(&Turn::new(&g), &mut rng_from_seed(seed));
    assert_eq!(pick(3), pick(3));
}
