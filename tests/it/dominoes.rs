//! Block dominoes through the command line (`--game dominoes`): chance
//! outcomes at the start, perft, show, self-play with match and round rows
//! (their openers), rotated deals, the duplicate-deal arena, and the refusals.

use crate::support::cli::{expect_error, fails_in, ok, ok_in, senat, senat_in};
use crate::support::files::TempDir;

#[test]
fn start_is_the_deal() {
    let moves = ok(&["moves", "--game", "dominoes", "start"]);
    assert_eq!(moves.lines().count(), 28, "28 tiles can be dealt first: {moves}");
    assert!(moves.lines().all(|l| l.ends_with(" 0.035714")), "each with probability 1/28: {moves}");
    assert_eq!(ok(&["perft", "--game", "dominoes", "start", "--depth", "1"]).trim(), "28");
    assert_eq!(ok(&["perft", "--game", "dominoes", "--players", "4", "start", "--depth", "2"]).trim(), "756");
    // --divide (the catalog's perft, as every game but Sénat's): one line
    // per chance outcome of the deal, which sum to the total.
    let divide = ok(&["perft", "--game", "dominoes", "start", "--depth", "3", "--divide"]);
    let (lines, total) = divide.trim().rsplit_once('\n').unwrap();
    let sum: u64 = lines.lines().map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap()).sum();
    assert_eq!((lines.lines().count(), sum.to_string()), (28, total.to_string()), "{divide}");
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
    // The one batch format of every game: seat 0 is `first`, the others `second`.
    assert!(m.starts_with("# senat-batch v2 game=dominoes variant=players=3 seed=1 games=6"), "{m}");
    let rows = rows(&m);
    assert_eq!(
        rows[0],
        ["game", "game_seed", "first", "second", "winner", "plies", "winner_seat", "rounds", "scores", "final"]
    );
    let rounds: u64 = rows[1..].iter().map(|r| r[7].parse::<u64>().unwrap()).sum();
    for r in &rows[1..] {
        let team = if r[6] == "0" { "first" } else { "second" };
        assert_eq!(r[4], team, "winner and winner_seat agree: {r:?}");
    }
    let r = dir.text("r.csv");
    assert_eq!(r.lines().skip(2).count() as u64, rounds, "one round row per round");
    assert_eq!(r.lines().nth(1), Some("game,round,end,winner,points,pips,tiles,decisions,opener"));
    let s = dir.text("s.csv");
    assert_eq!(s.lines().count(), 2, "a header and one row: {s}");
    // Same seed, same bytes; an existing output is kept without --force.
    let e = expect_error(&crate::support::cli::senat_in(&dir.0, &args), &["selfplay"]);
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

/// `arena --moves` keeps every match (chance included) in the arena's
/// moves-file form: one row per match, games 0..N, each viewed by `view`
/// with all its plies; an existing file is kept without --force.
#[test]
fn an_arena_keeps_its_matches_for_the_viewer() {
    let dir = TempDir::new("dominoes-arena-moves");
    let args =
        ["arena", "--game", "dominoes", "random", "greedy", "--games", "4", "--players", "4", "--moves", "m.csv"];
    ok_in(&dir.0, &[&args[..], &["--quiet"]].concat());
    let text = std::fs::read_to_string(dir.0.join("m.csv")).unwrap();
    let mut lines = text.lines();
    let id = lines.next().unwrap();
    assert!(id.starts_with("# senat-arena v2 game=dominoes variant=players=4 "), "{id}");
    assert_eq!(lines.next(), Some("game,pairing,pair,first,second,moves"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.iter().map(|r| r[0]).collect::<Vec<_>>(), ["0", "1", "2", "3"], "{text}");
    // The pair's two matches swap the seats.
    assert_eq!((rows[0][3], rows[0][4], rows[1][3], rows[1][4]), ("random", "greedy", "greedy", "random"));
    for r in &rows {
        let plies = r[5].split(' ').count();
        let out = ok_in(
            &dir.0,
            &["view", "--game", "dominoes", "m.csv", "--index", r[0], "--reveal", "--out", "v.html", "--force"],
        );
        assert!(out.contains(&format!("({plies} plies, ")), "{out}");
    }
    let e = expect_error(&senat_in(&dir.0, &args), &["arena"]);
    assert!(e.contains("already exists"), "{e}");
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
    assert!(m.contains("first=ismcts:playouts=20,c=0.7,temp=1,temp_plies=16 second=greedy"), "{m}");
    let games = rows(&m);
    let mv = dir.text("mv.csv");
    assert!(mv.lines().nth(1) == Some("game,moves"), "{mv}");
    for (row, game) in mv.lines().skip(2).zip(&games[1..]) {
        let (g, moves) = row.split_once(',').unwrap();
        assert_eq!(game[0], g);
        dir.write("rec.txt", format!("start\n{}\n", moves.replace(' ', "\n")));
        let replayed = ok_in(&dir.0, &["replay", "--game", "dominoes", "--quiet", "rec.txt"]);
        let winner = &game[6];
        assert!(replayed.starts_with(&format!("player {winner} wins")), "{replayed} vs {game:?}");
    }
}

/// The CSV rows of a batch file's text after its identity line (the header first).
fn rows(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .comment(Some(b'#'))
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

/// Dominoes batches run through the one batch runner: shards merge into
/// the unsharded file byte for byte, and a run cut anywhere (its games,
/// moves and rounds files cut at different places) resumes to the same bytes.
#[test]
fn shards_merge_and_a_cut_run_resumes() {
    let dir = TempDir::new("dominoes-resume");
    let base = ["selfplay", "--game", "dominoes", "--games", "9", "--first", "greedy", "--summary", "", "--quiet"];
    let with = |extra: &[&str]| -> Vec<String> { base.iter().chain(extra).map(|s| s.to_string()).collect() };
    let run = |args: Vec<String>| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        ok_in(&dir.0, &a)
    };
    run(with(&["--out", "all.csv", "--moves", "mv.csv", "--rounds", "r.csv"]));
    let mut shards = Vec::new();
    for k in [3, 1, 2] {
        let name = format!("s{k}.csv");
        run(with(&["--shard", &format!("{k}/3"), "--out", &name]));
        shards.push(name);
    }
    let mut merge = vec!["merge".to_string()];
    merge.extend(shards.iter().cloned());
    merge.extend(["--out", "merged.csv", "--summary", ""].map(String::from));
    run(merge);
    assert_eq!(dir.read("merged.csv"), dir.read("all.csv"));
    let (games, moves, rounds) = (dir.read("all.csv"), dir.read("mv.csv"), dir.read("r.csv"));
    for (g, m, r) in [(2, 3, 1), (3, 2, 3), (3, 3, 2)] {
        std::fs::write(dir.0.join("cut.csv"), &games[..games.len() * g / 4]).unwrap();
        std::fs::write(dir.0.join("cut-mv.csv"), &moves[..moves.len() * m / 4]).unwrap();
        std::fs::write(dir.0.join("cut-r.csv"), &rounds[..rounds.len() * r / 4]).unwrap();
        run(with(&["--out", "cut.csv", "--moves", "cut-mv.csv", "--rounds", "cut-r.csv", "--resume"]));
        assert_eq!(dir.read("cut.csv"), games, "cut at {g}/{m}/{r} quarters");
        assert_eq!(dir.read("cut-mv.csv"), moves);
        assert_eq!(dir.read("cut-r.csv"), rounds);
    }
    // A winner changed by hand is refused by the merge.
    let text = dir.text("s1.csv");
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut fields: Vec<String> = lines[2].splitn(6, ',').map(String::from).collect();
    fields[4] = if fields[4] == "first" { "second".into() } else { "first".into() };
    lines[2] = fields.join(",");
    let forged = lines.join("\n") + "\n";
    assert_ne!(forged, text);
    dir.write("s1.csv", forged);
    let merge = ["merge", "s1.csv", "s2.csv", "s3.csv", "--out", "m2.csv", "--summary", ""];
    let e = expect_error(&crate::support::cli::senat_in(&dir.0, &merge), &["merge"]);
    assert!(e.contains("is not the final position's"), "{e}");
}

/// A dominoes row's `plies` goes through the batch-row check of every game
/// (issue 56, item 4): a value no match of the row's rounds can have is
/// refused by `merge` and by `--resume`, with the file and the line.
#[test]
fn a_corrupted_plies_value_is_refused_by_merge_and_resume() {
    let dir = TempDir::new("dominoes-plies");
    let base = ["selfplay", "--game", "dominoes", "--games", "4", "--first", "greedy", "--summary", "", "--quiet"];
    let mut args = base.to_vec();
    args.extend(["--out", "g.csv"]);
    ok_in(&dir.0, &args);
    let text = dir.text("g.csv");
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut fields: Vec<String> = lines[3].splitn(7, ',').map(String::from).collect();
    fields[5] = format!("{}0", fields[5]);
    lines[3] = fields.join(",");
    dir.write("g.csv", lines.join("\n") + "\n");
    let merge = ["merge", "g.csv", "--out", "m.csv", "--summary", ""];
    let e = fails_in(&dir.0, &merge);
    assert!(e.contains("g.csv") && e.contains("line 4") && e.contains("plies"), "{e}");
    args.push("--resume");
    let e = fails_in(&dir.0, &args);
    assert!(e.contains("line 4") && e.contains("plies"), "{e}");
}

/// Each seat's tiles of the first deal of a match, from its moves (the
/// deals `6-4>1` come first).
fn first_deal(moves: &str, players: usize) -> Vec<Vec<String>> {
    let mut hands = vec![Vec::new(); players];
    for m in moves.split(' ').take_while(|m| m.contains('>')) {
        let (tile, seat) = m.split_once('>').unwrap();
        hands[seat.parse::<usize>().unwrap()].push(tile.to_string());
    }
    hands.iter_mut().for_each(|h| h.sort());
    hands
}

/// The seat holding the opening tile of a deal (GAMES.md §2.2: the
/// highest double, else the heaviest tile, ties by the higher end).
fn opening_seat(hands: &[Vec<String>]) -> usize {
    let rank = |t: &str| {
        let (a, b) = t.split_once('-').unwrap();
        let (a, b): (u32, u32) = (a.parse().unwrap(), b.parse().unwrap());
        if a == b { (1, a, 0) } else { (0, a + b, a.max(b)) }
    };
    (0..hands.len()).max_by_key(|&p| hands[p].iter().map(|t| rank(t)).max()).unwrap()
}

/// The rounds file's `opener` is, in every match's first round, the seat
/// dealt the opening tile (read from the moves file's deals).
#[test]
fn the_rounds_opener_holds_the_opening_tile() {
    let dir = TempDir::new("dominoes-opener");
    let args = ["selfplay", "--game", "dominoes", "--games", "6", "--first", "greedy", "--second", "random"];
    let files = ["--out", "g.csv", "--moves", "mv.csv", "--rounds", "r.csv", "--summary", "", "--quiet"];
    ok_in(&dir.0, &[&args[..], &files[..]].concat());
    let moves = rows(&dir.text("mv.csv"));
    let rounds = rows(&dir.text("r.csv"));
    let opener = rounds[0].iter().position(|c| c == "opener").unwrap();
    let mut seats = Vec::new();
    for m in &moves[1..] {
        let first = rounds.iter().find(|r| r[0] == m[0] && r[1] == "1").expect("the match's round 1");
        assert_eq!(first[opener], opening_seat(&first_deal(&m[1], 2)).to_string(), "match {}", m[0]);
        seats.push(first[opener].clone());
    }
    assert!(seats.contains(&"0".to_string()) && seats.contains(&"1".to_string()), "both seats open: {seats:?}");
}

/// `--rotate`: the P games of a deal in a row, rotation k giving seat s the
/// first deal's hand of seat (s + k) mod P in rotation 0 (every round's,
/// tested in the lab), the opener moving with it; shards merge into the
/// whole file and a cut run resumes to the same bytes; rotated and
/// unrotated files are not mixed; --games must be a multiple of P; an old
/// rounds file (no `opener`) is not resumed.
#[test]
fn rotated_deals_rotate_the_hands_and_resume_and_merge() {
    let dir = TempDir::new("dominoes-rotate");
    let base = [
        "selfplay",
        "--game",
        "dominoes",
        "--players",
        "4",
        "--games",
        "8",
        "--first",
        "greedy",
        "--second",
        "random",
        "--summary",
        "",
        "--quiet",
    ];
    let with = |extra: &[&str]| -> Vec<String> { base.iter().chain(extra).map(|s| s.to_string()).collect() };
    let run = |args: Vec<String>| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        ok_in(&dir.0, &a)
    };
    let fail = |args: Vec<String>, cmd: &str| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        expect_error(&senat_in(&dir.0, &a), &[cmd])
    };
    run(with(&["--rotate", "--out", "all.csv", "--moves", "mv.csv", "--rounds", "r.csv"]));
    let games = dir.text("all.csv");
    assert!(games.lines().next().unwrap().ends_with(" first=greedy second=random rotate=true"), "{games}");
    let moves = rows(&dir.text("mv.csv"));
    let rounds = rows(&dir.text("r.csv"));
    let opener_of = |g: usize| {
        let r = rounds.iter().find(|r| r[0] == g.to_string() && r[1] == "1").unwrap();
        r[8].parse::<usize>().unwrap()
    };
    for deal in 0..2 {
        let zero = first_deal(&moves[1 + 4 * deal][1], 4);
        assert_eq!(opener_of(4 * deal), opening_seat(&zero));
        for k in 1..4 {
            let g = 4 * deal + k;
            let hands = first_deal(&moves[1 + g][1], 4);
            for s in 0..4 {
                assert_eq!(hands[s], zero[(s + k) % 4], "deal {deal} rotation {k} seat {s}");
            }
            assert_eq!(opener_of(g), (opener_of(4 * deal) + 4 - k) % 4, "game {g}");
        }
    }
    assert_ne!(first_deal(&moves[1][1], 4), first_deal(&moves[5][1], 4), "two deals");
    // Rotation 0 of a deal is the unrotated batch's game of that index.
    run(with(&["--out", "plain.csv", "--moves", "plain-mv.csv"]));
    let plain = rows(&dir.text("plain-mv.csv"));
    assert_eq!((&plain[1], &plain[5]), (&moves[1], &moves[5]));
    assert_ne!(plain[2], moves[2]);
    // Shards (cutting deals apart) merge to the whole file; a cut run resumes.
    let mut shards = Vec::new();
    for k in [2, 3, 1] {
        let name = format!("s{k}.csv");
        run(with(&["--rotate", "--shard", &format!("{k}/3"), "--out", &name]));
        shards.push(name);
    }
    let mut merge: Vec<String> = ["merge", "--out", "merged.csv", "--summary", ""].map(String::from).to_vec();
    merge.extend(shards.iter().cloned());
    run(merge);
    assert_eq!(dir.text("merged.csv"), games);
    let (g, m, r) = (dir.read("all.csv"), dir.read("mv.csv"), dir.read("r.csv"));
    std::fs::write(dir.0.join("cut.csv"), &g[..g.len() / 2]).unwrap();
    std::fs::write(dir.0.join("cut-mv.csv"), &m[..m.len() * 3 / 4]).unwrap();
    std::fs::write(dir.0.join("cut-r.csv"), &r[..r.len() / 3]).unwrap();
    run(with(&["--rotate", "--out", "cut.csv", "--moves", "cut-mv.csv", "--rounds", "cut-r.csv", "--resume"]));
    assert_eq!((dir.read("cut.csv"), dir.read("cut-mv.csv"), dir.read("cut-r.csv")), (g, m, r.clone()));
    // Rotated and unrotated files are not mixed.
    run(with(&["--shard", "1/3", "--out", "u1.csv"]));
    let mixed = ["merge", "u1.csv", "s2.csv", "s3.csv", "--out", "mixed.csv", "--summary", ""].map(String::from);
    let e = fail(mixed.to_vec(), "merge");
    assert!(e.contains("rotate"), "{e}");
    let e = fail(with(&["--rotate", "--out", "plain.csv", "--resume"]), "selfplay");
    assert!(e.contains("another batch (rotate=false, this run has rotate=true)"), "{e}");
    let e = fail(with(&["--out", "all.csv", "--resume"]), "selfplay");
    assert!(e.contains("another batch (rotate=true, this run has rotate=false)"), "{e}");
    // Refusals: a batch of incomplete deals, another game.
    let six = ["selfplay", "--game", "dominoes", "--players", "4", "--games", "6", "--rotate", "--out", "x.csv"];
    let e = expect_error(&senat_in(&dir.0, &six), &["selfplay"]);
    assert!(e.contains("--games must be a multiple of 4, got 6"), "{e}");
    assert!(!dir.exists("x.csv"), "nothing written");
    let e = expect_error(&senat_in(&dir.0, &["selfplay", "--game", "focus", "--rotate"]), &["selfplay"]);
    assert!(e.contains("--rotate is for --game dominoes"), "{e}");
    // A rounds file written before `opener` is not resumed, and says why.
    let old: String = String::from_utf8(r)
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, l)| if i == 0 { format!("{l}\n") } else { format!("{}\n", l.rsplit_once(',').unwrap().0) })
        .collect();
    dir.write("old-r.csv", &old[..old.len() / 2]);
    std::fs::copy(dir.0.join("all.csv"), dir.0.join("old.csv")).unwrap();
    let e = fail(with(&["--rotate", "--out", "old.csv", "--rounds", "old-r.csv", "--resume"]), "selfplay");
    assert!(e.contains("lacks the column `opener`"), "{e}");
}

/// `fit-leaf` writes counts whose header gives the command that made them,
/// the same counts on any thread count, and refuses an existing file, a
/// bad generator and a holdout of every match; `leaf=learned` plays.
#[test]
fn fit_leaf_writes_reproducible_counts_and_the_learned_leaf_plays() {
    let dir = TempDir::new("dominoes-fit-leaf");
    let fit = |out: &str, threads: &str| {
        let args = ["fit-leaf", "--game", "dominoes", "--matches", "12", "--seed", "4", "--generator", "greedy"];
        let args = [&args[..], &["--threads", threads]].concat();
        ok_in(&dir.0, &[&args[..], &["--out", out]].concat())
    };
    let printed = fit("a.txt", "1");
    fit("b.txt", "3");
    let (a, b) = (dir.text("a.txt"), dir.text("b.txt"));
    assert!(
        a.contains("# Produced by: senat fit-leaf --matches 12 --seed 4 --generator 'greedy' --holdout 5 --out a.txt"),
        "{a}"
    );
    assert!(printed.contains("Held-out log-loss") && a.contains("\nplayers=2\nhand=7\nrules=playboard\n"), "{a}");
    let counts = |t: &str| t.lines().filter(|l| !l.starts_with('#')).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(counts(&a), counts(&b));
    let e = fails_in(&dir.0, &["fit-leaf", "--matches", "2", "--out", "a.txt"]);
    assert!(e.contains("already exists"), "{e}");
    let e = fails_in(&dir.0, &["fit-leaf", "--generator", "ismcts:leaf=x", "--out", "c.txt"]);
    assert!(e.contains("--generator") && e.contains("exp25, learned or net"), "{e}");
    let e = fails_in(&dir.0, &["fit-leaf", "--holdout", "1", "--out", "c.txt"]);
    assert!(e.contains("--holdout 1"), "{e}");
    let e = fails_in(&dir.0, &["fit-leaf", "--game", "focus", "--out", "c.txt"]);
    assert!(e.contains("dominoes searches' leaf only; --game focus is not available here"), "{e}");
    assert!(!dir.exists("c.txt"));
    let out = ok(&[
        "arena",
        "--game",
        "dominoes",
        "ismcts:playouts=20",
        "ismcts:playouts=20,leaf=learned",
        "--games",
        "2",
        "--quiet",
    ]);
    assert!(out.contains("ismcts:playouts=20,c=0.7,leaf=learned"), "{out}");
}
