//! The playthrough suite: every registered game ([`GameKind::ALL`]) through
//! every pipeline of the command line, with the same commands and the same
//! checks, so that a game added to the catalog is tested here by being
//! registered (in the spirit of OpenSpiel's playthrough and random
//! simulation tests). Per game, in one folder:
//!
//! - `selfplay` with a games, a moves and a summary file, whose identity
//!   line names the game;
//! - `--resume` after a cut inside a row finishes the same bytes;
//! - two shards merged are the whole batch (games and summary);
//! - `arena` with an SPRT, its file naming the game;
//! - `view`, `replay` and `annotate` of game N of the batch files
//!   (`FILE --index N`, the game read from the file): the games file where
//!   it holds the moves, else the moves file, and the arena's file;
//! - `annotate --all` and `explore` of the batch (and the arena's games);
//! - `metrics` of the batch; `play` at the terminal (start, help, quit);
//!   `render` of the start; `analyze` where the game has perfect
//!   information (and a one-line refusal where it has not).
//!
//! The agents are `random` and `greedy`, the batches a few games, so that a
//! game costs seconds. A second test refuses what `--index` must refuse
//! (another game's `--game`, a `--variant`, a missing row) and replays a
//! batch of a variant by its identity line. Python's side of the suite is the `GAMES` list of
//! `crates/python/tests`, which is every game's name from the module.

use senat_lab::games::GameKind;
use std::path::Path;

use crate::support::cli::{bin, expect_error, senat_in, stderr, stdout};
use crate::support::files::TempDir;

/// Runs `senat args` in `dir` and expects success, naming the game on failure.
fn run(game: &str, dir: &Path, args: &[&str]) -> String {
    let o = senat_in(dir, args);
    assert!(o.status.success(), "{game}: senat {args:?} failed: {}", stderr(&o));
    stdout(&o)
}

/// The identity line of a batch or arena file.
fn identity(dir: &TempDir, name: &str) -> String {
    dir.text(name).lines().next().unwrap_or_default().to_string()
}

/// The flags of the two sides of a batch: Sénat's are its colours (its
/// first giver and first mover are a variant's choice), every other
/// game's `--first` and `--second`.
fn sides(kind: GameKind) -> [&'static str; 2] {
    if kind == GameKind::Senat { ["--red", "--blue"] } else { ["--first", "--second"] }
}

/// The moves of game `n` of a batch or arena file: its `moves` column,
/// Sénat's `draft_moves` and `play_moves`, or the `move` of each of its
/// rows in a file of one row a ply (Sénat's moves file).
fn moves_of(file: &Path, n: u64) -> Vec<String> {
    let mut rdr = csv::ReaderBuilder::new().comment(Some(b'#')).flexible(true).from_path(file).unwrap();
    let head = rdr.headers().unwrap().clone();
    if let Some(c) = head.iter().position(|h| h == "move") {
        let rows = rdr.records().map(Result::unwrap).filter(|r| r[0] == *n.to_string());
        return rows.map(|r| r[c].to_string()).collect();
    }
    let cols: Vec<usize> =
        ["moves", "draft_moves", "play_moves"].iter().filter_map(|c| head.iter().position(|h| h == *c)).collect();
    let row = rdr.records().map(Result::unwrap).find(|r| r[0] == *n.to_string()).expect("the game's row");
    cols.iter().flat_map(|&c| row[c].split_whitespace().map(str::to_string).collect::<Vec<_>>()).collect()
}

/// One game through every pipeline.
fn playthrough(kind: GameKind) {
    let game = kind.name();
    let dir = TempDir::new(&format!("playthrough-{game}"));
    let d = dir.0.as_path();
    let [a, b] = sides(kind);
    let base = ["selfplay", "--game", game, "--games", "6", a, "random", b, "greedy", "--quiet"];
    let with = |extra: &[&'static str]| base.iter().chain(extra).copied().collect::<Vec<_>>();

    // A batch, and its identity.
    run(game, d, &with(&["--out", "all.csv", "--moves", "all-m.csv", "--summary", "all-s.csv"]));
    let id = identity(&dir, "all.csv");
    assert!(id.contains(&format!(" game={game} ")), "{game}: {id}");
    assert!(identity(&dir, "all-m.csv").contains(&format!(" game={game} ")), "{game}: moves file");

    // Two shards merged are the whole.
    run(game, d, &with(&["--shard", "2/2", "--out", "b.csv", "--summary", ""]));
    run(game, d, &with(&["--shard", "1/2", "--out", "a.csv", "--summary", ""]));
    run(game, d, &["merge", "b.csv", "a.csv", "--out", "m.csv", "--summary", "m-s.csv", "--quiet"]);
    assert_eq!(dir.read("m.csv"), dir.read("all.csv"), "{game}: merged shards");
    assert_eq!(dir.read("m-s.csv"), dir.read("all-s.csv"), "{game}: merged summary");

    // A cut inside the last row: refused without --resume, finished with it.
    let all = dir.read("all.csv");
    dir.write("cut.csv", &all[..all.len() - 20]);
    let e = expect_error(&senat_in(d, &with(&["--out", "cut.csv", "--summary", ""])), &["selfplay", game]);
    assert!(e.contains("--resume"), "{game}: {e}");
    run(game, d, &with(&["--out", "cut.csv", "--summary", "", "--resume"]));
    assert_eq!(dir.read("cut.csv"), all, "{game}: resumed after a cut");

    // The arena with an SPRT.
    let sprt = "elo0=0,elo1=400,alpha=0.2,beta=0.2";
    let args = ["arena", "--game", game, "random", "greedy", "--games", "8", "--sprt", sprt, "--quiet"];
    let out = run(
        game,
        d,
        &[&args[..], &["--out", "arena.csv", "--moves", "arena-m.csv", "--summary", "arena-s.csv"]].concat(),
    );
    assert!(out.contains("SPRT elo0=0 elo1=400"), "{game}: {out}");
    assert!(identity(&dir, "arena.csv").contains(&format!(" game={game} ")), "{game}: arena file");

    // Game 1 of each file that holds it: view, replay and annotate with the
    // game read from the file print what they print for a record of the
    // same moves; a file that holds no moves names the file that does.
    let agent = if kind == GameKind::Dominoes { "ismcts:playouts=8" } else { "ab:depth=1" };
    let mut holding = 0;
    for file in ["all.csv", "all-m.csv", "arena-m.csv"] {
        let page = format!("{file}.html");
        let o = senat_in(d, &["view", file, "--index", "1", "--out", &page]);
        if !o.status.success() {
            let e = expect_error(&o, &["view", game, file]);
            assert!(e.contains("--moves FILE") && e.contains("Which file holds a game"), "{game} {file}: {e}");
            let e = expect_error(&senat_in(d, &["replay", file, "--index", "1"]), &["replay", game, file]);
            assert!(e.contains("--moves FILE"), "{game} {file}: {e}");
            continue;
        }
        holding += 1;
        let played = moves_of(&d.join(file), 1);
        let plies = format!("({} plies,", played.len());
        assert!(stdout(&o).contains(&plies), "{game} {file}: {}", stdout(&o));
        let html = dir.text(&page);
        assert!(html.starts_with("<!DOCTYPE html>"), "{game} {file}: page");
        dir.write("rec.txt", format!("start\n{}\n", played.join("\n")));
        let by_record = |args: &[&str]| run(game, d, &[args, &["rec.txt", "--game", game]].concat());
        let by_index = |args: &[&str]| run(game, d, &[args, &[file, "--index", "1"]].concat());
        assert_eq!(by_index(&["replay"]), by_record(&["replay"]), "{game} {file}: replay");
        let annotate = ["annotate", "--agent", agent];
        assert_eq!(by_index(&annotate), by_record(&annotate), "{game} {file}: annotate");
    }
    assert!(holding >= 2, "{game}: the batch's and the arena's moves are in no file");

    // The whole batch annotated, and explored: every game of the file that
    // holds them, each game's moves counted once.
    let held = if senat_in(d, &["view", "all.csv", "--index", "0", "--out", "v0.html"]).status.success() {
        "all.csv"
    } else {
        "all-m.csv"
    };
    let out = run(game, d, &["annotate", held, "--all", "--agent", agent, "--threads", "2", "--summary", "acc.csv"]);
    assert!(out.contains(&format!(": 6 games of {game} in ")), "{game}: annotate --all: {out}");
    assert!(dir.text("acc.csv").lines().any(|l| l.contains(",random,6,")), "{game}: {}", dir.text("acc.csv"));
    let out =
        run(game, d, &["explore", held, "arena-m.csv", "--out", "x.html", "--csv", "x.csv", "--depth", "3", "-q"]);
    let arena_games = dir.text("arena-m.csv").lines().filter(|l| !l.starts_with('#')).count() as u64 - 1;
    let games = 6 + arena_games;
    assert!(out.starts_with(&format!("{games} games of {game}")), "{game}: explore: {out}");
    let firsts: u64 = dir
        .text("x.csv")
        .lines()
        .filter(|l| l.starts_with("all,1,"))
        .map(|l| l.split(',').nth(4).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(firsts, games, "{game}: every game has one first decision: {}", dir.text("x.csv"));

    // Metrics of the batch (the file that holds its moves).
    let measured = ["all.csv", "all-m.csv"].into_iter().find_map(|f| {
        let o = senat_in(d, &["metrics", f]);
        o.status.success().then(|| stdout(&o))
    });
    let measured = measured.unwrap_or_else(|| panic!("{game}: metrics of neither batch file"));
    assert!(measured.contains(" games (random vs greedy)"), "{game}: {measured}");

    // Play at the terminal: the board, help, quit.
    let mut child = bin()
        .current_dir(d)
        .args(["play", "--game", game, "--engine", "random", "--plain"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("senat play starts");
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"help\nquit\n").unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{game}: play: {}", stderr(&o));
    assert!(stdout(&o).contains("bye"), "{game}: play: {}", stdout(&o));

    // A picture of the start.
    run(game, d, &["render", "--game", game, "start", "--out", "start.svg"]);
    assert!(dir.text("start.svg").starts_with("<svg"), "{game}: render");

    // Analysis, where the game shows the whole position.
    let o = senat_in(d, &["analyze", "--game", game, "--engine", "ab", "--depth", "1"]);
    if kind == GameKind::Dominoes {
        let e = expect_error(&o, &["analyze", game]);
        assert!(e.contains("hidden information"), "{game}: {e}");
    } else {
        assert!(o.status.success() && stdout(&o).contains("bestmove "), "{game}: analyze: {}", stderr(&o));
    }
}

#[test]
fn every_game_through_every_pipeline() {
    let failed: Vec<&str> = std::thread::scope(|s| {
        let runs: Vec<_> = GameKind::ALL.into_iter().map(|k| (k.name(), s.spawn(move || playthrough(k)))).collect();
        runs.into_iter().filter_map(|(name, h)| h.join().is_err().then_some(name)).collect()
    });
    assert!(failed.is_empty(), "the playthrough failed for {failed:?} (their panics are above)");
}

/// A `--game` that is not the file's, a `--variant` beside `--index`, a
/// missing game and Sénat-only flags are refused in one line; a batch's
/// variant comes from its identity line.
#[test]
fn index_refusals_and_the_files_variant() {
    let dir = TempDir::new("playthrough-refusals");
    let d = dir.0.as_path();
    let batch = |game: &str, variant: &str, name: &str| {
        let args = ["selfplay", "--game", game, "--variant", variant, "--games", "2", "--seed", "3", "--quiet"];
        run(game, d, &[&args[..], &["--out", "g.csv", "--moves", name, "--summary", "", "--force"]].concat());
    };
    batch("focus", "", "m.csv");
    for args in [
        vec!["view", "m.csv", "--index", "0", "--game", "debacle", "--out", "p.html"],
        vec!["replay", "m.csv", "--index", "0", "--game", "debacle"],
        vec!["annotate", "m.csv", "--index", "0", "--game", "debacle", "--agent", "ab:depth=1"],
        vec!["replay", "m.csv", "--index", "0", "--game", "senat"],
    ] {
        let e = expect_error(&senat_in(d, &args), &args);
        assert!(e.contains("is a file of a focus batch, not of") && e.contains("pass --game focus"), "{args:?}: {e}");
    }
    let args = ["replay", "m.csv", "--index", "0", "--variant", "players=4"];
    let e = expect_error(&senat_in(d, &args), &args);
    assert!(e.contains("--variant and --players are the file's with --index"), "{e}");
    let e = expect_error(&senat_in(d, &["replay", "m.csv", "--index", "5"]), &["replay"]);
    assert!(e.contains("no game 5 among its 2 rows"), "{e}");
    let e = expect_error(&senat_in(d, &["replay", "m.csv", "--index", "0", "--svg", "x.svg"]), &["replay"]);
    assert!(e.contains("--svg is for Sénat records only"), "{e}");
    // The variant of the batch, not the game's default, replays its games.
    batch("dominoes", "rules=openspiel", "dm.csv");
    let played = moves_of(&d.join("dm.csv"), 1);
    dir.write("rec.txt", format!("start\n{}\n", played.join("\n")));
    let by_record = run("dominoes", d, &["replay", "rec.txt", "--game", "dominoes", "--variant", "rules=openspiel"]);
    assert_eq!(run("dominoes", d, &["replay", "dm.csv", "--index", "1"]), by_record);
}
