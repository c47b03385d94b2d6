//! `senat annotate` and `analyze --multipv` through the binary: the
//! annotated record replays, has one comment per ply and marks the sample
//! game's known blunders; `--multipv 3` lists three distinct legal moves
//! sorted by win probability; bad input is one line, exit 2.

use crate::support::cli::{TempRecord, fails, fails_in, ok, ok_in};
use crate::support::files::TempDir;

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
    // Move 16 (I23-I21) misses red's forced win in 5 (tests/it/search.rs);
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
        (vec!["annotate", SAMPLE, "--agent", "top", "--game", "focus"], "expected `focus`"),
        (vec!["annotate", SAMPLE, "--agent", "top", "--game", "dominoes"], "bad position: 5 fields, expected 10"),
        (vec!["annotate", SAMPLE, "--agent", "greedy", "--game", "debacle"], "gives no evaluation"),
    ] {
        let e = fails(&args);
        assert!(e.contains(want), "{args:?}: {e}");
    }
}

/// A Focus position where white (to move) wins at once with c5-c4 (the
/// `solve` example of docs/commands/other-games.md).
const FOCUS_WIN_IN_1: &str = "focus - .,.,.,./0,0,.,.,.,0/.,10,.,0,.,.,.,11010/.,.,0,.,11010,.,0,./.,.,1101,.,.,.,110,./.,.,.,.,.,.,0,./110,.,.,.,1010,./.,10,.,. res=0/0 turn=0 ply=36";

#[test]
fn focus_annotations_see_a_missed_win_and_a_played_one() {
    let missed = TempRecord::new("annotate-focus-missed", &format!("{FOCUS_WIN_IN_1}\nb2-b3\n"));
    let out = ok(&["annotate", "--game", "focus", missed.path(), "--agent", "ab:depth=2"]);
    let line = out.lines().find(|l| l.starts_with("b2-b3 ")).expect("the move line");
    assert!(line.contains("white: win 1.000 (win in 1), best c5-c4"), "{line}");
    assert!(line.contains(" ?? blunder") || line.contains(" ? mistake"), "{line}");
    for agent in ["ab:depth=2", "mcts:playouts=200"] {
        let won = TempRecord::new("annotate-focus-won", &format!("{FOCUS_WIN_IN_1}\nc5-c4\n"));
        let out = ok(&["annotate", "--game", "focus", won.path(), "--agent", agent]);
        let line = out.lines().find(|l| l.starts_with("c5-c4 ")).expect("the move line");
        assert!(line.contains("best c5-c4,") && line.ends_with("after c5-c4: 1.000 (won)"), "{agent}: {line}");
        assert!(out.ends_with("# end: white wins after 37 plies\n"), "{agent}: {out}");
    }
}

/// The record (start, then one move a line) of game 0 of a one-game batch.
fn batch_record(dir: &TempDir, game: &str, plies: usize) -> String {
    ok_in(
        &dir.0,
        &["selfplay", "--game", game, "--games", "1", "--seed", "4", "--first", "greedy", "--second", "greedy"]
            .iter()
            .chain(&["--out", "g.csv", "--moves", "m.csv", "--summary", "", "--quiet", "--force"])
            .copied()
            .collect::<Vec<_>>(),
    );
    let row = dir.text("m.csv").lines().nth(2).expect("a moves row").to_string();
    let moves: Vec<&str> = row.split_once(',').unwrap().1.split(' ').take(plies).collect();
    format!("start\n{}\n", moves.join("\n"))
}

#[test]
fn annotated_records_of_every_perfect_information_game_replay_and_agree_across_teams() {
    for (game, agent) in [("focus", "ab:depth=2"), ("focus4", "ab:depth=1"), ("debacle", "mcts:playouts=100")] {
        let dir = TempDir::new(&format!("annotate-{game}"));
        dir.write("r.txt", batch_record(&dir, game, 30));
        ok_in(&dir.0, &["annotate", "--game", game, "r.txt", "--agent", agent, "--out", "a.txt"]);
        let text = dir.text("a.txt");
        // A record still: it replays, to the same position as the record.
        let end = |f: &str| ok_in(&dir.0, &["replay", "--game", game, f]).lines().last().unwrap_or("").to_string();
        assert_eq!(end("a.txt"), end("r.txt"), "{game}");
        let moves: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).skip(1).collect();
        assert_eq!(moves.len(), 30, "{game}: {text}");
        // The value after a move is the next mover's before, from the
        // mover's side: equal for a partner or oneself, 1 − it for the other team.
        let team = |l: &str| {
            let seat = l.split(", ").nth(1).unwrap().split(':').next().unwrap().to_string();
            match game {
                "focus4" => ["south", "north"].contains(&seat.as_str()),
                _ => seat == "white" || seat == "south",
            }
        };
        for w in moves.windows(2) {
            let after: f64 = w[0].rsplit(": ").next().unwrap().split_whitespace().next().unwrap().parse().unwrap();
            let next = win_of(&w[1].replace(',', " "));
            let want = if team(w[0]) == team(w[1]) { next } else { 1.0 - next };
            assert!((after - want).abs() < 0.0015, "{game}: {} then {}", w[0], w[1]);
        }
    }
}

#[test]
fn analyze_of_the_other_games_speaks_the_same_scale() {
    let legal: Vec<String> = ok(&["moves", "--game", "focus", FOCUS_WIN_IN_1]).lines().map(str::to_string).collect();
    for engine in [&["--depth", "2"][..], &["--engine", "mcts", "--playouts", "500"]] {
        let mut args = vec!["analyze", "--game", "focus", FOCUS_WIN_IN_1, "--multipv", "3"];
        args.extend_from_slice(engine);
        let out = ok(&args);
        assert!(out.contains("\nwin 1.000 (win in 1) (white to move; "), "{engine:?}: {out}");
        let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("multipv ")).collect();
        assert_eq!(lines.len(), 3, "{out}");
        let moves: Vec<&str> = lines.iter().map(|l| l.split_whitespace().nth(3).unwrap()).collect();
        assert!(moves.iter().all(|m| legal.iter().any(|l| l == m)), "{moves:?}");
        assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2], "{moves:?}");
        assert_eq!(moves[0], "c5-c4", "{out}");
    }
    let e = fails(&["analyze", "--game", "debacle", "start", "--depth", "2", "--multipv", "0"]);
    assert!(e.contains("--multipv 0"), "{e}");
}

#[test]
fn dominoes_annotations_judge_each_decision_from_the_movers_observation() {
    let dir = TempDir::new("annotate-dominoes");
    dir.write("r.txt", batch_record(&dir, "dominoes", 40));
    ok_in(&dir.0, &["annotate", "--game", "dominoes", "r.txt", "--agent", "ismcts:playouts=100", "--out", "a.txt"]);
    let text = dir.text("a.txt");
    let end = |f: &str| ok_in(&dir.0, &["replay", "--game", "dominoes", f, "--quiet"]);
    assert_eq!(end("a.txt"), end("r.txt"), "the annotated record replays to the same place");
    let moves: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).skip(1).collect();
    assert_eq!(moves.len(), 40, "{text}");
    // The deal is chance; the decisions are judged, the move played by its own mean.
    assert!(moves[..14].iter().all(|l| l.ends_with(": chance (a deal or a draw)")), "{text}");
    let decisions: Vec<&&str> = moves.iter().filter(|l| l.contains(": win ")).collect();
    assert!(decisions.len() >= 10, "{text}");
    for l in decisions {
        assert!(l.contains(", player 0: win ") || l.contains(", player 1: win "), "{l}");
        let (played, rest) = l.split_once(' ').unwrap();
        if rest.contains(&format!("best {played},")) {
            assert!(!rest.contains('?'), "the agent's own move is not marked: {l}");
        }
    }
    let e = fails(&["annotate", "--game", "dominoes", SAMPLE, "--agent", "greedy"]);
    assert!(e.contains("gives no evaluation"), "{e}");
}

/// The marks of an annotated record by seat: (seat, [?!, ?, ??]).
fn marks_by_seat(text: &str) -> std::collections::BTreeMap<String, [u64; 3]> {
    let mut by = std::collections::BTreeMap::new();
    for line in text.lines().filter(|l| l.contains("  # ply ")) {
        let Some(seat) = line.split(", ").nth(1).and_then(|s| s.split(':').next()) else { continue };
        let counts: &mut [u64; 3] = by.entry(seat.to_string()).or_default();
        for (k, word) in [" inaccuracy (-", " mistake (-", " blunder (-"].iter().enumerate() {
            counts[k] += u64::from(line.contains(word));
        }
    }
    by
}

#[test]
fn a_whole_batch_annotated_counts_each_games_marks_by_seat_and_agent() {
    let dir = TempDir::new("annotate-all");
    let batch = |game: &str, first: &str, second: &str, games: &str| {
        let (a, b) = if game == "senat" { ("--red", "--blue") } else { ("--first", "--second") };
        ok_in(
            &dir.0,
            &["selfplay", "--game", game, "--games", games, "--seed", "7", a, first, b, second, "--quiet"]
                .iter()
                .chain(&["--out", &format!("{game}.csv"), "--moves", &format!("{game}-m.csv"), "--summary", ""])
                .copied()
                .collect::<Vec<_>>(),
        );
    };
    batch("senat", "random", "heuristic", "5");
    batch("focus", "random", "greedy", "4");
    for (file, agent, seats) in
        [("senat.csv", "ab:depth=2", ["blue", "red"]), ("focus-m.csv", "mcts:playouts=200", ["black", "white"])]
    {
        let out =
            ok_in(&dir.0, &["annotate", file, "--all", "--agent", agent, "--summary", "acc.csv", "--threads", "2"]);
        assert!(out.contains("games of"), "{out}");
        // The marks of every game, annotated one at a time with its seed.
        let games = if file == "senat.csv" { 5 } else { 4 };
        let mut want: std::collections::BTreeMap<String, [u64; 3]> = Default::default();
        for n in 0..games {
            let seed = senat_lab::selfplay::game_seed(1, n).to_string();
            let one = ok_in(&dir.0, &["annotate", file, "--index", &n.to_string(), "--agent", agent, "--seed", &seed]);
            for (seat, c) in marks_by_seat(&one) {
                let w = want.entry(seat).or_default();
                for k in 0..3 {
                    w[k] += c[k];
                }
            }
        }
        let csv = dir.text("acc.csv");
        assert!(csv.starts_with(&format!("# senat annotate {file} --all --agent")), "{csv}");
        let rows: Vec<Vec<&str>> =
            csv.lines().filter(|l| !l.starts_with('#')).skip(1).map(|l| l.split(',').collect()).collect();
        for seat in seats {
            let row = rows.iter().find(|r| r[0] == seat).unwrap_or_else(|| panic!("{file}: no {seat} row: {csv}"));
            assert_eq!(row[2], games.to_string(), "{file} {seat}: every game has its moves");
            let got: [u64; 3] = [7, 8, 9].map(|c| row[c].parse().unwrap());
            assert_eq!(got, want.get(seat).copied().unwrap_or_default(), "{file} {seat}: {csv}");
            let (mean, lo, hi): (f64, f64, f64) =
                (row[4].parse().unwrap(), row[5].parse().unwrap(), row[6].parse().unwrap());
            assert!(lo <= mean && mean <= hi && (0.0..=1.0).contains(&mean), "{row:?}");
        }
        // The summary is not overwritten without --force.
        let refused = fails_in(&dir.0, &["annotate", file, "--all", "--agent", agent, "--summary", "acc.csv"]);
        assert!(refused.contains("already exists"), "{refused}");
        std::fs::remove_file(dir.0.join("acc.csv")).unwrap();
    }
    // --limit takes the first games; --all is a batch file's, not a record's.
    let out =
        ok_in(&dir.0, &["annotate", "senat.csv", "--all", "--limit", "2", "--agent", "ab:depth=1", "--threads", "1"]);
    assert!(out.contains(": 2 games of senat"), "{out}");
    for (args, says) in [
        (&["annotate", "senat.csv", "--all", "--index", "1", "--agent", "ab:depth=1"][..], "cannot be used with"),
        (&["annotate", "senat.csv", "--limit", "1", "--agent", "ab:depth=1"], "--all"),
        (&["annotate", "senat.csv", "--all", "--agent", "random"], "gives no evaluation"),
    ] {
        let e = fails_in(&dir.0, args);
        assert!(e.contains(says), "{args:?}: {e}");
    }
}
