//! `senat bestmove` through the binary: a legal move for every game (as
//! `senat moves` lists them), the same move for the same seed, the history
//! of a Sénat game applied, the named agents and the refusals in one line.

use crate::support::cli::{expect_error, ok, senat, stderr};
use crate::support::files::TempDir;

/// An observation of player 1 with four legal decisions (3-1R, 3-2R, 4-0L, 4-3R).
const OBS: &str = "o1 - play 1 0 0,0 0 ?6/3-1.3-2.4-0.4-1.4-2.4-3 ?14 1:3-3L,0:3-0L -";

/// The final position of tests/fixtures/repetition-game.txt, its third occurrence.
const REPEATED: &str =
    "23Tb,12Sb,.,14Cb,21Cr,.,18Cb,16Sr,20Sb,.,6Tr/7Cb,.,2Cb,8Cb,3Tr,10Tb,1Sb/.,13Sr,.,.,. b - 3-1-4 42";

/// `senat bestmove` with `args`: the last line of stdout, and stderr.
fn bestmove(args: &[&str]) -> (String, String) {
    let mut all = vec!["bestmove"];
    all.extend_from_slice(args);
    let o = senat(&all);
    assert!(o.status.success(), "senat {all:?}: {}", stderr(&o));
    let out = String::from_utf8(o.stdout.clone()).unwrap();
    (out.lines().last().expect("a move").to_string(), stderr(&o))
}

/// The legal moves of `pos` in `game` (`senat moves`).
fn legal(game: &str, pos: &str) -> Vec<String> {
    ok(&["moves", "--game", game, "--", pos]).lines().map(|l| l.to_string()).collect()
}

#[test]
fn every_game_gets_a_legal_move_deterministic_for_a_seed() {
    let cases: [(&str, &str, &[&str]); 5] = [
        ("senat", "sample", &["fast", "strong", "ab:depth=2", "heuristic>mcts:playouts=50"]),
        ("focus", "start", &["fast", "top", "mcts:playouts=100"]),
        ("focus4", "start", &["fast", "mcts:playouts=100"]),
        ("debacle", "start", &["fast", "top", "mcts:playouts=100"]),
        ("dominoes", OBS, &["fast", "strong", "pimc:playouts=100,worlds=5"]),
    ];
    for (game, pos, agents) in cases {
        let moves = legal(game, pos);
        for agent in agents {
            let args = ["--game", game, "--agent", agent, "--seed", "5", "--", pos];
            let (m, err) = bestmove(&args);
            assert!(moves.contains(&m), "{game} {agent}: {m} not in {moves:?}");
            assert!(err.starts_with("agent "), "{game} {agent}: {err}");
            assert_eq!(bestmove(&args).0, m, "{game} {agent}: the same seed, the same move");
        }
    }
}

#[test]
fn searches_explain_themselves_on_stderr() {
    let (m, err) = bestmove(&["--agent", "mcts:playouts=200,rollout=eval", "sample"]);
    assert!(err.contains("mcts: value ") && err.contains(" of 200 playouts, pv "), "{err}");
    assert!(err.contains(&format!("pv {m}")), "the line starts with the move: {err}");
    let (_, err) = bestmove(&["--game", "focus", "--agent", "ab:depth=3"]);
    assert!(err.starts_with("agent ab:depth=3,tt=16; ab: score ") && err.contains("depth 3"), "{err}");
    let (_, err) = bestmove(&["--game", "dominoes", "--agent", "ismcts:playouts=100", OBS]);
    assert!(err.contains("visits ") && err.contains("of 100 playouts"), "{err}");
    // The dominoes root guard says what it did: here, early in the round, nothing.
    let (_, err) = bestmove(&["--game", "dominoes", "--agent", "ismcts:playouts=100,guard=on", OBS]);
    assert!(err.starts_with("agent ismcts:playouts=100,c=0.7,guard=on,guard_nodes=2000; mcts: "), "{err}");
    assert!(err.contains("; guard: nothing proved, the search's move stands (0 nodes)"), "{err}");
}

#[test]
fn named_agents_expand_as_documented() {
    for (game, pos, name, expansion) in [
        ("senat", "sample", "fast", "learned:net=draft,temp=0.05"),
        ("senat", "sample", "strong", "mcts:playouts=1000,rollout=eval,prior=1000,net=on,temp=0.5"),
        (
            "senat",
            "sample",
            "sharp",
            "mcts:playouts=10000,rollout=eval,prior=1000,net=on,guard=7,guard_nodes=500000,temp=0.5",
        ),
        ("focus", "start", "top", "ab:depth=3,tt=16,guard=7,temp=50"),
        ("debacle", "start", "fast", "greedy"),
        ("dominoes", OBS, "strong", "ismcts:playouts=300,c=0.7,guard=on,guard_nodes=2000,leaf=net"),
        ("dominoes", OBS, "top", "ismcts:playouts=1000,c=0.7,guard=on,guard_nodes=2000"),
    ] {
        let (_, err) = bestmove(&["--game", game, "--agent", name, "--", pos]);
        assert!(err.starts_with(&format!("agent {expansion}")), "{game} {name}: {err}");
    }
    // Output files record the expansion.
    let dir = TempDir::new("bestmove-named");
    let g = dir.0.join("g.csv");
    let g = g.to_str().unwrap();
    ok(&["selfplay", "--games", "2", "--red", "fast", "--blue", "random", "--out", g, "--summary", "", "--quiet"]);
    let text = dir.text("g.csv");
    assert!(text.lines().next().unwrap().contains(" red=learned:net=draft,temp=0.05 "), "{text}");
    let help = ok(&["bestmove", "--help"]);
    assert!(
        help.contains("top    = mcts:playouts=10000,rollout=eval,prior=1000,net=on,guard=7,guard_before=0,temp=0.5"),
        "{help}"
    );
    assert!(help.contains("top    = ab:depth=3") && help.contains("top    = ismcts:playouts=1000,guard=on"), "{help}");
}

#[test]
fn history_is_applied() {
    let rec = "tests/fixtures/repetition-game.txt";
    // Without its history the position is playable; with it, a third occurrence ends the game.
    let (m, _) = bestmove(&["--agent", "greedy", REPEATED]);
    assert!(legal("senat", REPEATED).contains(&m), "{m}");
    let e = expect_error(&senat(&["bestmove", "--agent", "greedy", "--history", rec]), &[]);
    assert!(e.contains("the game is over (red wins by repetition)"), "{e}");
    // Two plies earlier the game runs on, from the record's final position.
    let dir = TempDir::new("bestmove-history");
    let body = std::fs::read_to_string(rec).unwrap();
    let lines: Vec<&str> = body.lines().collect();
    dir.write("h.txt", lines[..lines.len() - 2].join("\n"));
    let h = dir.0.join("h.txt");
    let h = h.to_str().unwrap();
    let (m, _) = bestmove(&["--agent", "ab:depth=2", "--history", h]);
    dir.write("h2.txt", format!("{}\n{m}\n", lines[..lines.len() - 2].join("\n")));
    let h2 = dir.0.join("h2.txt");
    ok(&["replay", "--quiet", h2.to_str().unwrap()]);
    let e = expect_error(&senat(&["bestmove", "--agent", "greedy", "--history", h, "sample"]), &[]);
    assert!(e.contains("is not the final position of --history"), "{e}");
    // No position and no history: the start, as in every other game.
    assert_eq!(bestmove(&["--agent", "ab:depth=2"]).0, bestmove(&["--agent", "ab:depth=2", "start"]).0);
}

#[test]
fn refusals_are_one_line() {
    for (args, want) in [
        (vec!["bestmove", "--agent", "mcst", "start"], "unknown policy `mcst`; did you mean `mcts`?"),
        (vec!["bestmove", "--agent", "mcts:playuts=10", "start"], "did you mean `playouts`?"),
        (vec!["bestmove", "--agent", "mcts:playouts=1,playouts=2", "start"], "`playouts` is given twice"),
        (vec!["bestmove", "--agent", "top:playouts=5", "start"], "`top` is a named policy"),
        (vec!["bestmove", "--game", "focus", "--agent", "gredy"], "unknown agent `gredy`; did you mean `greedy`?"),
        (vec!["bestmove", "--game", "debacle", "--agent", "ab:dpth=2"], "did you mean `depth`?"),
        (vec!["bestmove", "--game", "dominoes", "--agent", "ismcst", OBS], "did you mean `ismcts`?"),
        (vec!["bestmove", "--game", "dominoes", "--agent", "pimc:c=1,c=1", OBS], "`c` is given twice"),
        (vec!["bestmove", "--game", "dominoes", "--agent", "ismcts:guard=7", OBS], "`guard=7`: expected on or off"),
        (vec!["bestmove", "--game", "dominoes", "--agent", "greedy", "start"], "chance is to move"),
        (vec!["bestmove", "--agent", "greedy", "nonsense"], "SPN"),
        (vec!["bestmove", "--game", "focus", "--agent", "greedy", "--history", "x.txt"], "--history is for Sénat"),
        (vec!["selfplay", "--red", "stong", "--games", "1"], "did you mean `strong`?"),
        (vec!["arena", "--game", "focus", "top", "fats"], "did you mean `fast`?"),
    ] {
        let e = expect_error(&senat(&args), &args);
        assert!(e.contains(want), "{args:?}: {e}");
    }
}
