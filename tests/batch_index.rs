//! `FILE --index N` for every game: `view`, `replay` and `annotate` take
//! game N out of a batch file (a games or moves file of `selfplay`), the
//! game and its variant read from the file's identity line, no `--game`
//! needed. A game taken out of a file is the game of the record holding
//! the same moves: `replay` and `annotate` print what they print for that
//! record. A file that holds no moves (the other games' games files) is
//! refused with the file to pass; a `--game` that is not the file's is
//! refused. Tiny batches of random agents, so that the file runs in
//! seconds.

use std::path::{Path, PathBuf};

mod support {
    pub mod cli;
    pub mod files;
}
use support::cli::{fails, ok};

/// A batch of two games of `game` with its games and moves files: (games, moves).
fn batch(d: &Path, game: &str, extra: &[&str]) -> (PathBuf, PathBuf) {
    let (out, moves) = (d.join(format!("{game}.csv")), d.join(format!("{game}-moves.csv")));
    let mut args = vec!["selfplay", "--game", game, "--games", "2", "--seed", "3", "--threads", "1"];
    args.extend(["--out", out.to_str().unwrap(), "--moves", moves.to_str().unwrap(), "--summary", "", "--quiet"]);
    args.extend(extra);
    ok(&args);
    (out, moves)
}

/// The moves of game `n` of a file: the `moves` column, or Sénat's
/// `draft_moves` and `play_moves`.
fn moves_of(file: &Path, n: u64) -> Vec<String> {
    let mut rdr = csv::ReaderBuilder::new().comment(Some(b'#')).from_path(file).unwrap();
    let head = rdr.headers().unwrap().clone();
    let cols: Vec<usize> =
        ["moves", "draft_moves", "play_moves"].iter().filter_map(|c| head.iter().position(|h| h == *c)).collect();
    let row = rdr.records().map(Result::unwrap).find(|r| r[0] == *n.to_string()).expect("the game's row");
    cols.iter().flat_map(|&c| row[c].split_whitespace().map(str::to_string).collect::<Vec<_>>()).collect()
}

/// The record of those moves (`start`, then one move a line).
fn record(d: &Path, name: &str, moves: &[String]) -> PathBuf {
    let path = d.join(name);
    std::fs::write(&path, format!("start\n{}\n", moves.join("\n"))).unwrap();
    path
}

/// The agent that annotates `game` (a cheap search).
fn agent(game: &str) -> &'static str {
    if game == "dominoes" { "ismcts:playouts=8" } else { "ab:depth=1" }
}

#[test]
fn every_games_batch_files_give_their_games_by_index() {
    let d = support::files::scratch("batch-index", "every-game");
    let variant: &[(&str, &[&str])] = &[
        ("senat", &[]),
        ("focus", &[]),
        ("focus4", &[]),
        ("debacle", &[]),
        ("dominoes", &["--variant", "rules=openspiel"]),
    ];
    for &(game, extra) in variant {
        let (games, moves) = batch(&d, game, extra);
        let (g, m) = (games.to_str().unwrap(), moves.to_str().unwrap());
        // The moves of game 1 as a record of that game.
        let played = moves_of(if game == "senat" { &games } else { &moves }, 1);
        let rec = record(&d, &format!("{game}-1.txt"), &played);
        let r = rec.to_str().unwrap();
        let with_game = |args: &[&str]| {
            let mut v = args.to_vec();
            v.extend(["--game", game]);
            v.extend(extra);
            ok(&v)
        };
        let replayed = with_game(&["replay", r]);
        let annotated = with_game(&["annotate", r, "--agent", agent(game)]);
        let page = d.join(format!("{game}.html"));
        let p = page.to_str().unwrap();
        // Sénat's games and moves files both hold its games; the other
        // games' moves file does, their games file names the moves file.
        let holding: Vec<&str> = if game == "senat" { vec![g, m] } else { vec![m] };
        for file in holding {
            let plies = played.len();
            let wrote = ok(&["view", file, "--index", "1", "--out", p, "--force"]);
            assert!(wrote.contains(&format!("({plies} plies,")), "{game} {file}: {wrote}");
            assert_eq!(ok(&["replay", file, "--index", "1"]), replayed, "{game} {file}: replay");
            let quiet = ok(&["replay", file, "--index", "1", "--quiet"]);
            assert_eq!(quiet.lines().count(), 1, "{game} {file}: the result line alone: {quiet}");
            assert_eq!(ok(&["annotate", file, "--index", "1", "--agent", agent(game)]), annotated, "{game} {file}");
            // The file's own game given is accepted.
            ok(&["view", file, "--index", "1", "--game", game, "--out", p, "--force"]);
        }
        if game != "senat" {
            for args in [
                vec!["view", g, "--index", "1", "--out", p, "--force"],
                vec!["replay", g, "--index", "1"],
                vec!["annotate", g, "--index", "1", "--agent", agent(game)],
            ] {
                let e = fails(&args);
                assert!(e.contains("--moves FILE") && e.contains("--index 1"), "{game}: {args:?}: {e}");
                assert!(e.contains("Which file holds a game"), "{game}: the table named: {e}");
            }
        }
    }
}

#[test]
fn a_game_that_is_not_the_files_is_refused() {
    let d = support::files::scratch("batch-index", "wrong-game");
    let (_, moves) = batch(&d, "focus", &[]);
    let m = moves.to_str().unwrap();
    let page = d.join("page.html");
    let p = page.to_str().unwrap();
    for args in [
        vec!["view", m, "--index", "0", "--game", "debacle", "--out", p],
        vec!["replay", m, "--index", "0", "--game", "debacle"],
        vec!["annotate", m, "--index", "0", "--game", "debacle", "--agent", "ab:depth=1"],
        vec!["replay", m, "--index", "0", "--game", "senat"],
    ] {
        let e = fails(&args);
        assert!(e.contains("is a file of a focus batch, not of") && e.contains("pass --game focus"), "{args:?}: {e}");
        assert_eq!(e.lines().count(), 1, "one line: {e}");
    }
    let e = fails(&["replay", m, "--index", "0", "--variant", "players=4"]);
    assert!(e.contains("--variant and --players are the file's with --index"), "{e}");
    let e = fails(&["replay", m, "--index", "5"]);
    assert!(e.contains("no game 5 among its 2 rows"), "{e}");
    let e = fails(&["replay", m, "--index", "0", "--svg", d.join("svg").to_str().unwrap()]);
    assert!(e.contains("--svg is for Sénat records only"), "{e}");
}
