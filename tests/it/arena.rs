//! The arena: pairs share their seed, results never depend on concurrency,
//! the SPRT stops where it decides, engines play legal games, each agent's
//! thinking time is measured and reported, `--time-per-move` reaches the
//! searching agents, the CLI reports bad input in one line, and every
//! game's arena writes one summary schema (Sénat's columns first, one value
//! per cell).

use senat_lab::arena::{Count, SUMMARY_HEADER, Schedule, ladder_ratings};
use senat_lab::games::senat_arena::{ArenaGame, SenatArena as Arena, SenatContest};
use senat_lab::rating::{Sprt, SprtResult};
use senat_lab::selfplay::{Matchup, play_game};
use std::time::Duration;

use crate::support::cli::{fails, fails_in, ok, ok_in, senat};
use crate::support::files::TempDir;
use crate::support::games::spec;

fn arena(agents: &[&str], pairs: u64, schedule: Schedule, sprt: Option<Sprt>) -> Arena {
    Arena {
        game: SenatContest { draft: Some(spec("random")), book: 0, variant: senat_rules::Variant::RULES },
        agents: agents.iter().map(|a| spec(a)).collect(),
        pairs,
        seed: 11,
        schedule,
        sprt,
    }
}

type PairingResult = senat_lab::arena::PairingResult<SenatContest>;

/// The results without the thinking times (wall clock, never the same twice).
fn untimed(results: &[PairingResult]) -> Vec<PairingResult> {
    results
        .iter()
        .map(|r| PairingResult { count: Count { think: [Duration::ZERO; 2], ..r.count }, ..r.clone() })
        .collect()
}

fn run(a: &Arena, concurrency: usize) -> (Vec<PairingResult>, Vec<ArenaGame>) {
    let mut games = Vec::new();
    let r = a
        .run(concurrency, &|_| {}, |g| {
            games.push(g.clone());
            Ok(())
        })
        .unwrap();
    (r, games)
}

#[test]
fn concurrency_never_changes_the_results() {
    let a = arena(&["random", "greedy", "heuristic"], 30, Schedule::RoundRobin, None);
    let (r1, g1) = run(&a, 1);
    let (r3, g3) = run(&a, 3);
    assert_eq!(untimed(&r1), untimed(&r3));
    let key = |g: &ArenaGame| (g.pairing, g.pair, g.first_red, g.winner, g.play_len, g.final_spn.clone());
    assert_eq!(g1.iter().map(key).collect::<Vec<_>>(), g3.iter().map(key).collect::<Vec<_>>());
    assert_eq!(r1.len(), 3);
    for r in &r1 {
        assert_eq!(r.count.wdl.games(), 60);
        assert_eq!(r.count.penta.pairs(), 30);
        // W/D/L and the pentanomial count the same points.
        let pts = 2 * r.count.wdl.wins + r.count.wdl.draws;
        let penta: u64 = r.count.penta.counts.iter().enumerate().map(|(k, &c)| k as u64 * c).sum();
        assert_eq!(pts, penta);
    }
}

#[test]
fn engines_too_give_the_same_results_whatever_the_concurrency() {
    // Engines keep trees and tables within a game; none of it may leak across games or workers.
    let mut a = arena(&["mcts:playouts=30,rollout=greedy", "ab:depth=1"], 4, Schedule::RoundRobin, None);
    a.game.draft = None;
    let (r1, g1) = run(&a, 1);
    let (r2, g2) = run(&a, 2);
    assert_eq!(untimed(&r1), untimed(&r2));
    let key = |g: &ArenaGame| (g.winner, g.play_len, g.final_spn.clone());
    assert_eq!(g1.iter().map(key).collect::<Vec<_>>(), g2.iter().map(key).collect::<Vec<_>>());
}

#[test]
fn the_two_games_of_a_pair_share_seed_and_draft() {
    let a = arena(&["greedy", "heuristic"], 6, Schedule::RoundRobin, None);
    let (_, games) = run(&a, 2);
    for pair in games.chunks(2) {
        assert_eq!(pair[0].game_seed, pair[1].game_seed);
        assert_eq!(pair[0].pair, pair[1].pair);
        assert!(pair[0].first_red && !pair[1].first_red);
    }
    // Replaying pair 0 by hand: both drafts are the same random draft.
    let m1 =
        Matchup { red: spec("greedy"), blue: spec("heuristic"), draft_red: spec("random"), draft_blue: spec("random") };
    let m2 = Matchup { red: spec("heuristic"), blue: spec("greedy"), ..m1.clone() };
    let (g1, g2) = (play_game(&m1, 11, 0), play_game(&m2, 11, 0));
    assert_eq!(g1.draft_len, g2.draft_len);
    assert_eq!(g1.game.moves()[..g1.draft_len], g2.game.moves()[..g2.draft_len]);
}

#[test]
fn the_sprt_stops_at_the_same_pair_whatever_the_concurrency() {
    let t = Sprt::parse("elo0=0,elo1=100,alpha=0.05,beta=0.05").unwrap();
    let a = arena(&["heuristic", "random"], 500, Schedule::RoundRobin, Some(t));
    let (r1, g1) = run(&a, 1);
    let (r2, g2) = run(&a, 2);
    assert_eq!(untimed(&r1), untimed(&r2));
    assert_eq!(g1.len(), g2.len());
    let (llr, decision) = r1[0].count.sprt.unwrap();
    assert_eq!(decision, Some(SprtResult::H1), "heuristic crushes random");
    assert!(llr >= t.bounds().1);
    assert!(r1[0].count.penta.pairs() < 500, "stopped early after {} pairs", r1[0].count.penta.pairs());
    assert_eq!(g1.len() as u64, 2 * r1[0].count.penta.pairs());
    // One pair fewer would not have decided.
    let mut fewer = r1[0].count.penta;
    let last = g1[g1.len() - 2].first_half_points() + g1[g1.len() - 1].first_half_points();
    fewer.counts[last as usize] -= 1;
    assert_eq!(t.decide(&fewer), None);
}

#[test]
fn schedules_and_the_ladder() {
    let agents = ["random", "greedy", "heuristic"];
    assert_eq!(arena(&agents, 1, Schedule::RoundRobin, None).pairings(), vec![(0, 1), (0, 2), (1, 2)]);
    assert_eq!(arena(&agents, 1, Schedule::Gauntlet, None).pairings(), vec![(0, 1), (0, 2)]);
    assert_eq!(arena(&agents, 1, Schedule::Ladder, None).pairings(), vec![(0, 1), (1, 2)]);
    let (r, _) = run(&arena(&agents, 60, Schedule::Ladder, None), 2);
    let l = ladder_ratings(&r);
    assert_eq!(l.len(), 3);
    assert!(l[1].elo > 100.0 && l[2].elo > l[1].elo, "{l:?}");
    assert!(l[1].step_above_zero && l[2].step_above_zero);
    assert!(l[2].err > l[1].err, "errors accumulate along the ladder");
    let sprt = Sprt::parse("").ok();
    assert!(arena(&agents, 1, Schedule::RoundRobin, sprt).check().is_err(), "an SPRT needs one pairing");
    assert!(arena(&agents[..1], 1, Schedule::RoundRobin, None).check().is_err());
}

#[test]
fn engines_play_legal_games_in_both_phases() {
    // MCTS and alpha-beta draft as well as play; every game replays through the checked play.
    let m = Matchup {
        red: spec("mcts:playouts=40,rollout=greedy"),
        blue: spec("ab:depth=1"),
        draft_red: spec("mcts:playouts=20"),
        draft_blue: spec("ab:depth=1"),
    };
    for index in 0..2 {
        let g = play_game(&m, 3, index);
        let mut replay = senat_rules::GameRecord::new(senat_rules::Position::start());
        for &mv in g.game.moves() {
            replay.play(mv).expect("a legal move");
        }
        assert_eq!(replay.outcome(), Some(g.outcome));
        // A game is a function of its seed: tree reuse and tables do not leak between games.
        assert_eq!(play_game(&m, 3, index).game.moves(), g.game.moves());
    }
}

#[test]
fn cli_arena_prints_the_table_and_refuses_bad_input() {
    let o = senat(&["arena", "random", "greedy", "--games", "20", "--quiet"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("random") && text.contains("Elo interval"), "{text}");
    assert!(!text.contains("played"), "--quiet leaves the result alone: {text}");
    let loud = senat(&["arena", "random", "greedy", "--games", "20"]);
    let loud = String::from_utf8_lossy(&loud.stdout);
    assert!(loud.lines().nth(1) == text.lines().nth(1) && loud.contains("played 20 games"), "{loud}");
    for (args, want) in [
        (vec!["arena", "random", "greedy", "--games", "3"], "even number"),
        (vec!["arena", "random", "greedy", "--games", "0"], "even number"),
        (vec!["arena", "random", "nope"], "unknown policy"),
        (vec!["arena", "random", "mcts:playouts=0"], "playouts"),
        (vec!["arena", "random", "ab:depth=2,bogus=1"], "unknown parameter"),
        (vec!["arena", "random", "greedy", "heuristic", "--sprt", "elo1=5"], "one match"),
        (vec!["arena", "random", "greedy", "--sprt", "elo0=5,elo1=1"], "elo1 must be above elo0"),
        (vec!["arena", "random", "greedy", "--concurrency", "0"], "--threads 0"),
        (vec!["arena", "random", "greedy", "--threads", "0"], "--threads 0"),
    ] {
        let o = senat(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want) && err.lines().count() == 1, "{args:?}: {err}");
    }
}

#[test]
fn a_ladders_picture_is_written_once_and_only_for_a_ladder() {
    let dir = crate::support::files::TempDir::new("arena-ladder-plot");
    let png = dir.0.join("ladder.png");
    let png = png.to_str().unwrap();
    let args = ["arena", "--ladder", "random", "greedy", "heuristic", "--games", "8", "--quiet", "--plot", png];
    let text = crate::support::cli::ok(&args);
    assert!(text.contains("ladder (first agent = 0"), "{text}");
    assert!(dir.read("ladder.png").starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    let err = crate::support::cli::fails(&args);
    assert!(err.contains("already exists") && err.contains("--force"), "{err}");
    crate::support::cli::ok(&[&args[..], &["--force"]].concat());
    let err = crate::support::cli::fails(&["arena", "random", "greedy", "--plot", png]);
    assert!(err.contains("--ladder"), "{err}");
}

#[test]
fn cli_analyze_with_mcts() {
    let o = senat(&["analyze", "sample", "--engine", "mcts", "--playouts", "300", "--seed", "4"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("bestmove ") && text.contains("playouts 300"), "{text}");
    let again = senat(&["analyze", "sample", "--engine", "mcts", "--playouts", "300", "--seed", "4"]);
    let strip = |s: &str| s.lines().filter(|l| !l.starts_with("playouts")).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(&text), strip(&String::from_utf8_lossy(&again.stdout)), "same seed, same output");
    let o = senat(&["analyze", "sample", "--engine", "mcts", "--depth", "3"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn each_agents_thinking_time_is_summed_per_game() {
    // Each agent's time goes to its own column: alpha-beta to depth 2 thinks
    // longer than random (a 4-20x ratio here, but only the order is
    // asserted: this is not a speed test, and a loaded machine skews ratios).
    for own_draft in [false, true] {
        let mut a = arena(&["ab:depth=2", "random"], 3, Schedule::RoundRobin, None);
        if own_draft {
            a.game.draft = None;
        }
        let (r, games) = run(&a, 2);
        let sum = |i: usize| games.iter().map(|g| g.think[i]).sum::<Duration>();
        assert_eq!(r[0].count.think, [sum(0), sum(1)], "the pairing sums its games");
        let [ab, random] = r[0].mean_think_ms();
        assert!(random > 0.0 && ab > random, "own draft {own_draft}: ab {ab} ms, random {random} ms");
        assert!((ab - sum(0).as_secs_f64() * 1e3 / 6.0).abs() < 1e-9, "a mean over the 6 games");
    }
}

#[test]
fn cli_time_per_move_reaches_searching_agents_and_the_summary_shows_think_times() {
    let d = TempDir::new("arena-movetime");
    let args = [
        "arena",
        "mcts",
        "ab:depth=3",
        "random",
        "ab:movetime=2",
        "--games",
        "2",
        "--time-per-move",
        "5",
        "--draft",
        "own",
        "--gauntlet",
        "--out",
        "g.csv",
        "--summary",
        "s.csv",
    ];
    let text = ok_in(&d.0, &args);
    // Searching agents get the run's time (shown in their names), the others
    // are as given, an explicit movetime= wins.
    let names = ["mcts:movetime=5", "ab:depth=3,movetime=5", "random", "ab:movetime=2"];
    let identity = d.text("g.csv").lines().next().unwrap().to_string();
    for (i, n) in names.iter().enumerate() {
        assert!(identity.contains(&format!(" agent{}={n} ", i + 1)), "{identity}");
    }
    assert!(text.contains("think time per game: ") && text.contains("5 ms per move for searching agents"), "{text}");
    let summary = d.text("s.csv");
    let mut reader = csv::Reader::from_reader(summary.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(header, SUMMARY_HEADER);
    assert_eq!(&header[header.len() - 2..], ["first_think_ms", "second_think_ms"]);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 3);
    for row in &rows {
        assert_eq!(&row[0], names[0]);
        let ms = |c: usize| row[c].parse::<f64>().unwrap_or_else(|_| panic!("{row:?}"));
        // mcts searches about 5 ms a move over dozens of moves a game.
        assert!(ms(header.len() - 2) >= 5.0 * 20.0, "{row:?}");
    }
    let second = |name: &str| rows.iter().find(|r| &r[1] == name).unwrap()[header.len() - 1].parse::<f64>().unwrap();
    assert!(second("random") < second("ab:depth=3,movetime=5"), "{summary}");
    for (args, want) in [
        (vec!["arena", "random", "greedy", "--time-per-move", "0"], "--time-per-move 0: expected milliseconds"),
        (vec!["arena", "random", "greedy", "--time-per-move", "600001"], "1..=600000"),
        (vec!["arena", "random>", "greedy"], "agent 1: policy `random>`: the play policy"),
    ] {
        let o = senat(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want) && err.lines().count() == 1, "{args:?}: {err}");
    }
}

/// A CSV file's records after its `#` identity line (if any), the header first.
fn records(text: &str) -> Vec<Vec<String>> {
    let body: String = text.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(body.as_bytes());
    reader.records().map(|r| r.unwrap().iter().map(str::to_string).collect()).collect()
}

/// The summary of every game's arena starts with Sénat's columns (the
/// header of the file `senat arena` writes, not only the constant), every
/// row has as many cells as its header and no cell joins two values; the
/// dominoes arena's games file has one full row per match whose points add
/// up to the summary's score, and its outputs are refused where the other
/// arenas' are (an existing file without `--force`, one path for two
/// outputs) and written through a special file.
#[test]
fn every_games_arena_writes_senats_summary_schema() {
    let d = TempDir::new("arena-one-schema");
    ok_in(&d.0, &["arena", "random", "greedy", "--games", "4", "--seed", "1", "--summary", "senat.csv", "--quiet"]);
    let senat_header = records(&d.text("senat.csv"))[0].clone();
    assert_eq!(senat_header, SUMMARY_HEADER);
    let dominoes = ["arena", "--game", "dominoes", "random", "greedy", "--games", "4", "--seed", "1"];
    ok_in(&d.0, &[&dominoes[..], &["--out", "g.csv", "--summary", "s.csv"]].concat());
    ok_in(&d.0, &["arena", "--game", "focus", "random", "greedy", "--games", "4", "--seed", "1", "--summary", "f.csv"]);
    for file in ["s.csv", "f.csv"] {
        let rows = records(&d.text(file));
        let header = &rows[0];
        assert_eq!(header[..senat_header.len()], senat_header[..], "{file}");
        assert_eq!(rows.len(), 2, "{file}: the header and one pairing");
        for row in &rows[1..] {
            assert_eq!(row.len(), header.len(), "{file}: {row:?}");
            assert!(row.iter().all(|c| !c.contains('/')), "{file}: one value per cell: {row:?}");
            assert_eq!((&row[0][..], &row[1][..], &row[2][..]), ("random", "greedy", "4"), "{file}");
            assert_eq!((&row[19][..], &row[20][..]), ("", ""), "{file}: no SPRT ran");
            for cell in &row[21..23] {
                assert!(cell.parse::<f64>().is_ok_and(|ms| ms >= 0.0), "{file}: think time {cell:?}");
            }
        }
    }
    let summary = &records(&d.text("s.csv"))[1];
    let games_text = d.text("g.csv");
    assert!(games_text.starts_with("# senat-arena v2 game=dominoes variant=- seed=1 pairs=2 "), "{games_text}");
    let games = records(&games_text);
    assert_eq!(games[0][..8], ["pairing", "pair", "game_seed", "first", "second", "winner", "plies", "a_points"]);
    assert_eq!(games.len(), 1 + 4, "one row per match");
    assert!(games.iter().all(|r| r.len() == games[0].len()), "{games_text}");
    let points: f64 = games[1..].iter().map(|r| r[7].parse::<f64>().unwrap()).sum();
    assert_eq!(points / 4.0, summary[11].parse::<f64>().unwrap(), "the games add up to the score");
    let e = fails_in(&d.0, &[&dominoes[..], &["--out", "g.csv"]].concat());
    assert!(e.contains("g.csv already exists; pass --force"), "{e}");
    let e = fails_in(&d.0, &[&dominoes[..], &["--out", "x.csv", "--summary", "x.csv"]].concat());
    assert!(e.contains("name the same file"), "{e}");
    assert!(!d.exists("x.csv"), "nothing written on a refusal");
    ok_in(&d.0, &[&dominoes[..], &["--out", "/dev/null", "--summary", "s.csv", "--force"]].concat());
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let null = std::fs::metadata("/dev/null").unwrap();
        assert!(null.file_type().is_char_device(), "/dev/null is written through, not replaced");
    }
}

/// Every game's arena is the one loop and the one table: Sénat's header
/// line, the interval and think-time lines, the game's own facts under
/// them, an SPRT that stops a match of any game where it decides, the same
/// refusals, and agent errors labelled by position.
#[test]
fn every_games_arena_plays_counts_and_prints_alike() {
    let header = ok(&["arena", "random", "greedy", "--games", "2", "--quiet"]).lines().next().unwrap().to_string();
    let header_of = |t: &str| t.split("first").nth(1).map(|rest| format!("first{}", rest.lines().next().unwrap()));
    for (game, strong, fact) in [
        ("focus", "ab:depth=2", "first team score"),
        ("debacle", "ab:depth=1", "first team score"),
        ("dominoes", "greedy", "wins by seat"),
    ] {
        let g = |args: &[&'static str]| -> Vec<&'static str> { [&["arena", "--game", game][..], args].concat() };
        let text = ok(&g(&["random", strong, "--games", "400", "--seed", "2", "--quiet"]));
        let (first, rest) = text.split_once('\n').unwrap();
        assert!(first.starts_with(&format!("# {game} arena")), "{text}");
        let names = header_of(rest).unwrap_or_else(|| panic!("{text}"));
        // The column titles are Sénat's (their padding follows the names).
        let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(words(&names), words(&header), "{game}");
        for line in ["Elo interval [", "think time per game: ", fact] {
            assert!(text.contains(line), "{game}: {text}");
        }
        assert!(!text.contains("played"), "{game}: quiet leaves the table alone: {text}");
        // The SPRT: a strong agent against random decides long before 400 pairs.
        let sprt = ok(&g(&[strong, "random", "--games", "800", "--seed", "2", "--sprt", "elo0=0,elo1=100"]));
        let line = sprt.lines().find(|l| l.starts_with("SPRT ")).unwrap_or_else(|| panic!("{sprt}"));
        assert!(line.ends_with(": H1 accepted"), "{game}: {sprt}");
        let games: u64 = sprt.lines().nth(2).unwrap().split_whitespace().nth(2).unwrap().parse().unwrap();
        assert!(games < 800 && games.is_multiple_of(2), "{game}: stopped after {games} games: {sprt}");
        assert!(sprt.contains(&format!("played {games} ")), "{game}: {sprt}");
        // The same refusals.
        let e = fails(&g(&["random", "greedy", strong, "--sprt", "elo0=0,elo1=5"]));
        assert!(e.contains("--sprt tests one match") && e.contains("not 3 pairings"), "{game}: {e}");
        let e = fails(&g(&["random", "bogus"]));
        assert!(e.starts_with("senat: error: --agent 2: unknown agent `bogus`"), "{game}: {e}");
    }
}

/// `--time-per-move` reaches the searching agents of Focus and Débâcle, in
/// the arena and in self-play, named with their time as Sénat's are (an
/// explicit `movetime=` wins); dominoes and `--draft` are refused in one
/// line that says why.
#[test]
fn every_games_time_per_move_reaches_its_searching_agents() {
    let d = TempDir::new("arena-movetime-games");
    for game in ["focus", "debacle"] {
        let games = format!("{game}.csv");
        ok_in(
            &d.0,
            &[
                "arena",
                "--game",
                game,
                "mcts",
                "ab:depth=2",
                "ab:movetime=3",
                "random",
                "--games",
                "2",
                "--gauntlet",
                "--time-per-move",
                "2",
                "--out",
                &games,
                "--quiet",
            ],
        );
        let identity = d.text(&games).lines().next().unwrap().to_string();
        assert!(identity.starts_with(&format!("# senat-arena v2 game={game} ")), "{identity}");
        assert!(identity.contains("mcts:") && identity.contains("movetime=2"), "{identity}");
        assert!(identity.contains("ab:depth=2,") && identity.contains("movetime=3"), "{identity}");
        let batch = format!("{game}-batch.csv");
        ok_in(
            &d.0,
            &[
                "selfplay",
                "--game",
                game,
                "--games",
                "2",
                "--first",
                "ab:depth=2",
                "--second",
                "random",
                "--time-per-move",
                "2",
                "--out",
                &batch,
                "--summary",
                "",
                "--quiet",
            ],
        );
        let line = d.text(&batch).lines().next().unwrap().to_string();
        assert!(line.contains("first=ab:depth=2,") && line.contains("movetime=2"), "{line}");
        assert!(line.contains(" second=random"), "{line}");
    }
    for (args, want) in [
        (vec!["arena", "--game", "dominoes", "random", "greedy", "--time-per-move", "5"], "not for --game dominoes"),
        (vec!["selfplay", "--game", "dominoes", "--time-per-move", "5", "--out", "x.csv"], "not for --game dominoes"),
        (vec!["arena", "--game", "focus", "random", "greedy", "--draft", "greedy"], "--draft is for Sénat"),
        (vec!["arena", "--game", "focus", "mcts", "greedy", "--time-per-move", "0"], "--time-per-move 0"),
    ] {
        let e = fails_in(&d.0, &args);
        assert!(e.contains(want), "{args:?}: {e}");
    }
}

/// An empty `--out`, `--summary` or `--moves` is no file, as selfplay's
/// `--summary ""`, in every game's arena (it was refused as a missing value).
#[test]
fn empty_output_paths_are_none() {
    let dir = TempDir::new("arena-empty-paths");
    for game in ["senat", "focus"] {
        let args = ["arena", "--game", game, "random", "greedy", "--games", "2", "--quiet"];
        let out = ok_in(&dir.0, &[&args[..], &["--out", "", "--summary", "", "--moves", "m.csv"]].concat());
        assert!(out.contains("wrote moves m.csv") && !out.contains("wrote games"), "{game}: {out}");
        assert_eq!(dir.names(), ["m.csv"], "{game}: only the moves file is written");
        std::fs::remove_file(dir.0.join("m.csv")).unwrap();
    }
}

#[test]
fn every_games_arena_prints_its_variant_keys_and_refuses_a_book_for_dominoes() {
    for game in ["senat", "focus", "focus4", "debacle", "connect4", "dominoes"] {
        let text = ok(&["arena", "random", "greedy", "--game", game, "--variant", "help"]);
        assert!(text.starts_with(&format!("variant options of {game} (--variant key=value,...):\n")), "{text}");
        assert!(text.lines().count() > 1, "{text}");
    }
    let e = fails(&["arena", "random", "greedy", "--game", "dominoes", "--book-plies", "2"]);
    assert!(e.contains("--book-plies is not for dominoes"), "{e}");
}
