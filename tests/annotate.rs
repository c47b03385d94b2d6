//! `senat annotate` and `analyze --multipv` through the binary: the
//! annotated record replays, has one comment per ply and marks the sample
//! game's known blunders; `--multipv 3` lists three distinct legal moves
//! sorted by win probability; bad input is one line, exit 2.

mod support {
    pub mod cli;
    pub mod files;
}
use support::cli::{TempRecord, fails, ok};
use support::files::TempDir;

const SAMPLE: &str = "crates/rules/data/sample-game.txt";

/// The win probability of a `… win 0.734 …` field.
fn win_of(line: &str) -> f64 {
    let at = line.find(" win ").expect("a win field") + 5;
    line[at..].split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn multipv_lists_distinct_legal_moves_best_first() {
    let legal: Vec<String> = ok(&["moves", "sample"]).lines().map(str::to_string).collect();
    for engine in [&["--depth", "4"][..], &["--engine", "mcts", "--playouts", "3000"]] {
        let mut args = vec!["analyze", "sample", "--multipv", "3"];
        args.extend_from_slice(engine);
        let out = ok(&args);
        let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("multipv ")).collect();
        assert_eq!(lines.len(), 3, "{out}");
        let moves: Vec<&str> = lines.iter().map(|l| l.split_whitespace().nth(3).unwrap()).collect();
        assert!(moves.iter().all(|m| legal.iter().any(|l| l == m)), "{moves:?}");
        assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2], "{moves:?}");
        let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap();
        assert_eq!(moves[0], best, "{out}");
        let wins: Vec<f64> = lines.iter().map(|l| win_of(l)).collect();
        if engine[0] == "--depth" {
            // Alpha-beta sorts by score: the probabilities never increase.
            assert!(wins[0] >= wins[1] && wins[1] >= wins[2], "{out}");
        }
        assert!(wins.iter().all(|w| (0.0..=1.0).contains(w)), "{out}");
        let win = out.lines().find(|l| l.starts_with("win ")).expect("a win line");
        assert_eq!(win_of(&format!(" {win}")), wins[0], "{out}");
    }
    // Without --multipv: no multipv lines, the old lines kept.
    let out = ok(&["analyze", "sample", "--depth", "2"]);
    assert!(!out.contains("multipv") && out.contains("\nscore ") && out.contains("\nwin "), "{out}");
    let e = fails(&["analyze", "sample", "--depth", "2", "--multipv", "0"]);
    assert!(e.contains("--multipv 0"), "{e}");
}

#[test]
fn a_proved_win_is_certain_in_analyze() {
    let win_in_1 = ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb b - 4-4-13 0";
    let out = ok(&["analyze", win_in_1, "--depth", "3"]);
    assert!(out.contains("\nwin 1.000 (win in 1)"), "{out}");
}

#[test]
fn annotated_sample_replays_and_marks_the_blunders() {
    let dir = TempDir::new("annotate");
    let file = dir.0.join("a.txt");
    let f = file.to_str().unwrap();
    ok(&["annotate", SAMPLE, "--agent", "ab:depth=5", "--out", f]);
    let text = dir.text("a.txt");
    // Still a record: it replays to the same end.
    let replay = ok(&["replay", f]);
    assert!(replay.trim_end().ends_with("blue wins by majority (red 4, blue 5, white 0)"), "{replay}");
    let moves: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).skip(1).collect();
    assert_eq!(moves.len(), 27, "{text}");
    for (i, l) in moves.iter().enumerate() {
        assert_eq!(l.matches('#').count(), 1, "{l}");
        assert!(l.contains(&format!("# ply {}, ", i + 1)), "{l}");
    }
    // Move 16 (I23-I21) misses red's forced win in 5 (tests/search.rs);
    // move 24 (S3>S2) walks into a loss in 3. Move 27 wins: no mark.
    assert!(moves[15].starts_with("I23-I21 ") && moves[15].contains("win 1.000 (win in 5)"), "{}", moves[15]);
    assert!(moves[15].contains("?? blunder"), "{}", moves[15]);
    assert!(moves[23].contains("(loss in 3) ?? blunder"), "{}", moves[23]);
    assert!(!moves[26].contains('?'), "{}", moves[26]);
    // Only moves other than the agent's best are marked.
    for l in &moves {
        let (played, rest) = l.split_once(' ').unwrap();
        if rest.contains(&format!("best {played},")) {
            assert!(!rest.contains(" blunder") && !rest.contains(" mistake"), "{l}");
        }
    }
    // The same on stdout; an existing --out is refused without --force.
    assert_eq!(ok(&["annotate", SAMPLE, "--agent", "ab:depth=5"]), text);
    let e = fails(&["annotate", SAMPLE, "--agent", "ab:depth=5", "--out", f]);
    assert!(e.contains("already exists"), "{e}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let bad = TempRecord::new("annotate-bad", "sample\nM13>M14:I19\nZ9-Z1\n");
    for (args, want) in [
        (vec!["annotate", bad.path(), "--agent", "ab:depth=2"], ":3:"),
        (vec!["annotate", SAMPLE, "--agent", "random"], "gives no evaluation"),
        (vec!["annotate", SAMPLE, "--agent", "mcts:nope=1"], "--agent"),
        (vec!["annotate", "no/such/file", "--agent", "top"], "cannot read"),
        (vec!["annotate", SAMPLE, "--agent", "top", "--game", "focus"], "Sénat records only"),
    ] {
        let e = fails(&args);
        assert!(e.contains(want), "{args:?}: {e}");
    }
}
