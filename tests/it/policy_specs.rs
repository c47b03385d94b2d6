//! Policy specs: `movetime=` for the searching policies (bounds, errors, what
//! it does to playouts and depth, and that the engines keep to it),
//! `--time-per-move` as `PolicySpec::with_movetime` (names that show the
//! time and read back), and the `DRAFT>PLAY` split (errors that name the
//! faulty half, a wrapper that hands each phase to its policy).

use senat_lab::policy::engine::{DEFAULT_DEPTH, DEFAULT_PLAYOUTS, MOVETIME_DEPTH, UNLIMITED_PLAYOUTS};
use senat_lab::policy::{
    Agent, GameRng, PolicyKind, PolicySpec, RandomPolicy, Senat, SpecError, SplitPolicy, Turn, rng_from_seed,
};
use senat_lab::selfplay::identity::weight_files;
use senat_lab::selfplay::{Matchup, play_game};
use senat_rules::{GameRecord, Move, Position, sample};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::support::files::TempDir;
use crate::support::games::spec;

fn error(text: &str) -> String {
    match PolicySpec::parse(text) {
        Ok(s) => panic!("`{text}` was accepted: {s:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn movetime_is_a_parameter_of_the_searching_policies() {
    let m = spec("mcts:movetime=250");
    assert_eq!(m.engine.movetime_ms, Some(250));
    assert_eq!(m.engine.movetime(), Some(Duration::from_millis(250)));
    assert_eq!(m.engine.playout_cap(), UNLIMITED_PLAYOUTS, "no playouts given: the time alone stops it");
    assert_eq!(spec("mcts:playouts=50,movetime=250").engine.playout_cap(), 50, "given playouts are a cap");
    assert_eq!(spec("mcts").engine.playout_cap(), DEFAULT_PLAYOUTS);
    assert_eq!(spec("mcts").engine.movetime(), None);
    let a = spec("ab:movetime=10");
    assert_eq!((a.engine.movetime_ms, a.engine.depth_cap()), (Some(10), MOVETIME_DEPTH));
    assert_eq!(spec("ab:depth=5,movetime=10").engine.depth_cap(), 5, "a given depth is a cap");
    assert_eq!(spec("ab").engine.depth_cap(), DEFAULT_DEPTH);
    assert_eq!(spec("ab:movetime=600000").engine.movetime_ms, Some(600_000));
    assert_eq!(spec("ab:movetime=1").engine.movetime_ms, Some(1));
}

#[test]
fn movetime_out_of_bounds_or_misplaced_is_refused() {
    for (text, want) in [
        ("mcts:movetime=0", "`movetime=0`: expected milliseconds per move in 1..=600000 (10 minutes)"),
        ("ab:movetime=600001", "`movetime=600001`: expected milliseconds per move in 1..=600000"),
        ("ab:movetime=x", "`movetime=x`: expected a number ≥ 1"),
        ("mcts:movetime=-5", "`movetime=-5`: expected a number ≥ 1"),
        ("mcts:movetime=2.5", "`movetime=2.5`: expected a number ≥ 1"),
        ("mcts:movetime=", "`movetime=`: expected a number ≥ 1"),
        ("ab:movetime=99999999999999999999999", "expected a number ≥ 1"),
        ("random:movetime=5", "policy `random` takes no parameters"),
        ("heuristic:movetime=5", "unknown parameter `movetime` (keys of `heuristic`: pile,"),
    ] {
        let e = error(text);
        assert!(e.contains(want), "{text}: {e}");
        assert!(e.contains(text), "the message names the spec: {e}");
    }
}

#[test]
fn split_specs_parse_and_errors_name_the_faulty_half() {
    let s = spec("heuristic>mcts:playouts=1000");
    assert_eq!(s.kind, PolicyKind::Split);
    assert_eq!(s.name, "heuristic>mcts:playouts=1000");
    let halves = s.split.as_ref().expect("a split has halves");
    assert_eq!(halves.draft, spec("heuristic"));
    assert_eq!(halves.play, spec("mcts:playouts=1000"));
    assert_eq!(spec(" random > greedy ").split.unwrap().play, spec("greedy"), "blanks around `>` are trimmed");
    for (text, want) in [
        (">", "the draft policy (before `>`) is empty"),
        ("a>", "the play policy (after `>`) is empty"),
        ("random>", "the play policy (after `>`) is empty"),
        (">heuristic", "the draft policy (before `>`) is empty"),
        ("random> ", "the play policy (after `>`) is empty"),
        ("a>b>c", "more than one `>`"),
        ("random>greedy>heuristic", "more than one `>`"),
        ("foo>random", "the draft policy (before `>`): unknown policy `foo`"),
        ("random>foo", "the play policy (after `>`): unknown policy `foo`"),
        ("random>mcts:playouts=0", "the play policy (after `>`): policy `mcts:playouts=0`: `playouts=0`"),
        ("ab:movetime=0>random", "the draft policy (before `>`): policy `ab:movetime=0`"),
    ] {
        let e = error(text);
        assert!(e.starts_with(&format!("policy `{}`: ", text.trim())), "{text}: {e}");
        assert!(e.contains(want), "{text}: {e}");
    }
    assert!(matches!(PolicySpec::parse("a>b>c"), Err(SpecError::SplitMany(_))));
}

#[test]
fn time_per_move_shows_in_the_name_and_reads_back() {
    for (text, ms, want) in [
        ("mcts", 250, "mcts:movetime=250"),
        ("ab:depth=9", 5, "ab:depth=9,movetime=5"),
        ("ab:movetime=3", 5, "ab:movetime=3"),
        ("mcts:playouts=10,movetime=7", 5, "mcts:playouts=10,movetime=7"),
        ("random", 5, "random"),
        ("greedy", 5, "greedy"),
        ("heuristic:pile=12", 5, "heuristic:pile=12"),
        ("heuristic>mcts", 5, "heuristic>mcts:movetime=5"),
        ("ab:depth=2>mcts:playouts=9", 5, "ab:depth=2,movetime=5>mcts:playouts=9,movetime=5"),
        ("random > greedy", 5, "random > greedy"),
    ] {
        let timed = spec(text).with_movetime(ms);
        assert_eq!(timed.name, want, "{text}");
        assert_eq!(spec(&timed.name), timed, "{want} reads back as the same policy");
    }
    assert!(spec("mcts").searches() && spec("ab").searches() && spec("random>ab").searches());
    assert!(!spec("random").searches() && !spec("heuristic>greedy").searches());
    // An explicit movetime wins over the run's.
    assert_eq!(spec("mcts:movetime=3").with_movetime(9).engine.movetime_ms, Some(3));
}

#[test]
fn alpha_beta_and_mcts_search_for_their_time() {
    // The sample game after its draft: the play's first position.
    let game = GameRecord::new(sample::start());
    let mut rng = rng_from_seed(5);
    let turn = Turn::new(&game);
    let legal = game.position().legal_moves();
    for text in ["ab:movetime=40", "mcts:movetime=40"] {
        let mut p = spec(text).build();
        let t = Instant::now();
        let m = p.choose(&turn, &mut rng);
        let spent = t.elapsed();
        assert!(legal.contains(&m), "{text}: {m} is legal");
        // The search runs until the time is up (it checks every few nodes or
        // playouts), and stops soon after; the upper bound leaves room for a
        // loaded machine.
        assert!(spent >= Duration::from_millis(40), "{text}: stopped after {spent:?}");
        assert!(spent < Duration::from_secs(5), "{text}: still searching after {spent:?}");
    }
    // Given playouts or depth are caps: a small one ends the search long before the time.
    for text in ["mcts:playouts=20,movetime=60000", "ab:depth=1,movetime=60000"] {
        let t = Instant::now();
        let m = spec(text).build().choose(&turn, &mut rng);
        assert!(legal.contains(&m));
        assert!(t.elapsed() < Duration::from_secs(20), "{text}: the cap stops it ({:?})", t.elapsed());
    }
}

/// Counts the turns and new games it hears, then moves at random.
struct Probe {
    turns: Arc<AtomicUsize>,
    games: Arc<AtomicUsize>,
}

impl Agent<Senat> for Probe {
    fn choose(&mut self, turn: &Turn, rng: &mut GameRng) -> Move {
        self.turns.fetch_add(1, Ordering::Relaxed);
        RandomPolicy::default().choose(turn, rng)
    }
    fn new_game(&mut self) {
        self.games.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn the_split_policy_hands_each_phase_to_its_policy() {
    let counters = || (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (draft_turns, draft_games) = counters();
    let (play_turns, play_games) = counters();
    let mut split = SplitPolicy {
        draft: Box::new(Probe { turns: draft_turns.clone(), games: draft_games.clone() }),
        play: Box::new(Probe { turns: play_turns.clone(), games: play_games.clone() }),
        last_play: false,
    };
    split.new_game();
    assert_eq!((draft_games.load(Ordering::Relaxed), play_games.load(Ordering::Relaxed)), (1, 1));
    // One policy plays both sides of a whole game.
    let mut game = GameRecord::new(Position::start());
    let mut rng = rng_from_seed(9);
    let (mut draft, mut play) = (0, 0);
    while game.outcome().is_none() {
        if game.position().is_play() {
            play += 1;
        } else {
            draft += 1;
        }
        let m = split.choose(&Turn::new(&game), &mut rng);
        game.play(m).expect("a legal move");
    }
    assert_eq!(draft, 46);
    assert_eq!((draft_turns.load(Ordering::Relaxed), play_turns.load(Ordering::Relaxed)), (draft, play));
}

#[test]
fn random_then_heuristic_drafts_at_random_and_plays_as_the_heuristic() {
    let split = spec("random>heuristic");
    let m = |red: &str, draft_red: &str| Matchup {
        red: spec(red),
        blue: spec("heuristic"),
        draft_red: spec(draft_red),
        draft_blue: spec("heuristic"),
    };
    // As selfplay builds it: the same spec for red's draft and play.
    let by_split = Matchup { red: split.clone(), draft_red: split.clone(), ..m("heuristic", "heuristic") };
    let by_hand = m("heuristic", "random");
    let plain = m("heuristic", "heuristic");
    let mut drafts_differ = 0;
    for index in 0..6 {
        let (s, h, p) = (play_game(&by_split, 2, index), play_game(&by_hand, 2, index), play_game(&plain, 2, index));
        // The wrapper only delegates: move for move the game of random drafting, heuristic playing.
        assert_eq!(s.game.moves(), h.game.moves(), "game {index}");
        // Against the plain heuristic, red's draft placements differ.
        if s.game.moves()[..s.draft_len] != p.game.moves()[..p.draft_len] {
            drafts_differ += 1;
        }
    }
    assert!(drafts_differ >= 5, "only {drafts_differ} of 6 drafts differ from the heuristic's");
}

#[test]
fn split_specs_carry_the_weights_files_of_their_halves() {
    let d = TempDir::new("split-weights");
    d.write("a.txt", "pile=3\n");
    d.write("b.txt", "win=7\n");
    let (a, b) = (d.0.join("a.txt"), d.0.join("b.txt"));
    let s = spec(&format!("heuristic:file={}>heuristic:pile=2,file={}", a.display(), b.display()));
    assert_eq!(s.split.as_ref().unwrap().draft.weights, spec(&format!("heuristic:file={}", a.display())).weights);
    assert_eq!(weight_files(&s), [a, b]);
    assert!(weight_files(&spec("random>mcts")).is_empty());
}
