//! Block dominoes through the command line (`--game dominoes`): chance
//! outcomes at the start, perft, show, self-play with match and round rows,
//! the duplicate-deal arena, and the refusals.

mod support {
    pub mod cli;
    pub mod files;
}
use support::cli::{expect_error, ok, ok_in, senat};
use support::files::TempDir;

#[test]
fn start_is_the_deal() {
    let moves = ok(&["moves", "--game", "dominoes", "start"]);
    assert_eq!(moves.lines().count(), 28, "28 tiles can be dealt first: {moves}");
    assert!(moves.lines().all(|l| l.ends_with(" 0.035714")), "each with probability 1/28: {moves}");
    assert_eq!(ok(&["perft", "--game", "dominoes", "start", "--depth", "1"]).trim(), "28");
    assert_eq!(ok(&["perft", "--game", "dominoes", "--players", "4", "start", "--depth", "2"]).trim(), "756");
    let shown = ok(&["show", "--game", "dominoes", "--players", "3", "start"]);
    assert!(shown.contains("player 2:") && !shown.contains("player 3:"), "{shown}");
    // The last line is the state text, read back by show.
    let text = shown.lines().last().unwrap().to_string();
    assert_eq!(ok(&["show", "--game", "dominoes", &text]), shown);
}

#[test]
fn selfplay_writes_matches_and_rounds() {
    let dir = TempDir::new("dominoes-selfplay");
    let args = [
        "selfplay",
        "--game",
        "dominoes",
        "--players",
        "3",
        "--games",
        "6",
        "--first",
        "greedy",
        "--second",
        "random",
        "--out",
        "m.csv",
        "--rounds",
        "r.csv",
        "--summary",
        "s.csv",
        "--quiet",
    ];
    ok_in(&dir.0, &args);
    let m = dir.text("m.csv");
    assert!(m.starts_with("# dominoes-batch 1 variant=players=3 seed=1 games=6"), "{m}");
    let rounds: u64 = m.lines().skip(2).map(|l| l.split(',').nth(3).unwrap().parse::<u64>().unwrap()).sum();
    let r = dir.text("r.csv");
    assert_eq!(r.lines().skip(2).count() as u64, rounds, "one round row per round");
    let s = dir.text("s.csv");
    assert_eq!(s.lines().count(), 4, "a header and one row per seat: {s}");
    // Same seed, same bytes; an existing output is kept without --force.
    let e = expect_error(&support::cli::senat_in(&dir.0, &args), &["selfplay"]);
    assert!(e.contains("already exists"), "{e}");
    let again: Vec<&str> = args.iter().map(|a| if *a == "m.csv" { "m2.csv" } else { a }).collect();
    let again: Vec<&str> = again.iter().map(|a| if *a == "r.csv" { "r2.csv" } else { a }).collect();
    let again: Vec<&str> = again.iter().map(|a| if *a == "s.csv" { "s2.csv" } else { a }).collect();
    ok_in(&dir.0, &again);
    assert_eq!(dir.read("m2.csv"), dir.read("m.csv"));
    assert_eq!(dir.read("r2.csv"), dir.read("r.csv"));
}

#[test]
fn duplicate_arena_and_refusals() {
    let out = ok(&["arena", "--game", "dominoes", "random", "greedy", "--ladder", "--games", "20", "--quiet"]);
    assert!(out.contains("duplicate deals") && out.contains("wins by seat"), "{out}");
    let out = ok(&["arena", "--game", "dominoes", "random", "greedy", "--games", "8", "--no-duplicate", "--quiet"]);
    assert!(out.contains("independent deals"), "{out}");
    let e = expect_error(&senat(&["arena", "--game", "dominoes", "--players", "3", "random", "greedy"]), &["arena"]);
    assert!(e.contains("2 or 4 players"), "{e}");
    let e = expect_error(&senat(&["moves", "--game", "focus", "--players", "4", "start"]), &["moves"]);
    assert!(e.contains("--players is for --game dominoes"), "{e}");
    let e = expect_error(&senat(&["analyze", "--game", "dominoes"]), &["analyze"]);
    assert!(e.contains("hidden information"), "{e}");
    let e = expect_error(&senat(&["selfplay", "--game", "dominoes", "--first", "mcts"]), &["selfplay"]);
    assert!(e.contains("unknown agent `mcts`"), "{e}");
}

/// `--moves` writes every move of each match (deals and draws included):
/// replayed from `start` each ends as its games row says; the summary
/// prints the distinct games; a temperature is in the batch identity.
#[test]
fn selfplay_moves_replay_and_distinct_games() {
    let dir = TempDir::new("dominoes-moves");
    let args = [
        "selfplay",
        "--game",
        "dominoes",
        "--games",
        "3",
        "--first",
        "ismcts:playouts=20,temp=1",
        "--second",
        "greedy",
        "--out",
        "m.csv",
        "--moves",
        "mv.csv",
        "--summary",
        "",
    ];
    let out = ok_in(&dir.0, &args);
    assert!(out.contains("distinct games: 3 of 3 (100.0%)"), "{out}");
    let m = dir.text("m.csv");
    assert!(m.contains("seats=ismcts:playouts=20,c=0.7,temp=1,temp_plies=16;greedy"), "{m}");
    let mv = dir.text("mv.csv");
    assert!(mv.lines().nth(1) == Some("game,moves"), "{mv}");
    for (row, game) in mv.lines().skip(2).zip(m.lines().skip(2)) {
        let (g, moves) = row.split_once(',').unwrap();
        assert_eq!(game.split(',').next(), Some(g));
        dir.write("rec.txt", format!("start\n{}\n", moves.replace(' ', "\n")));
        let replayed = ok_in(&dir.0, &["replay", "--game", "dominoes", "--quiet", "rec.txt"]);
        let winner = game.split(',').nth(2).unwrap();
        assert!(replayed.starts_with(&format!("player {winner} wins")), "{replayed} vs {game}");
    }
}
