//! `senat metrics` on a tiny batch made by `senat selfplay`: the table's
//! outcome metrics agree with the games file's own columns, the CSV is
//! refused without --force, a tampered move is one error line naming the
//! game and the move, and the help names every metric.

use crate::support::cli::{fails_in, ok, ok_in};
use crate::support::files::TempDir;

/// One row of the metrics CSV.
struct Row {
    file: String,
    metric: String,
    value: Option<f64>,
    interval: Option<(f64, f64)>,
    games: u64,
    definition: String,
}

/// The metrics CSV, its header checked and every row's definition present.
fn read_metrics(path: &std::path::Path) -> Vec<Row> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, ["file", "metric", "value", "low", "high", "games", "definition"]);
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            let f = |i: usize| (!rec[i].is_empty()).then(|| rec[i].parse::<f64>().unwrap());
            assert!(!rec[6].is_empty(), "{} has a definition", &rec[1]);
            Row {
                file: rec[0].to_string(),
                metric: rec[1].to_string(),
                value: f(2),
                interval: f(3).zip(f(4)),
                games: rec[5].parse().unwrap(),
                definition: rec[6].to_string(),
            }
        })
        .collect()
}

#[test]
fn metrics_of_a_selfplay_batch() {
    let d = TempDir::new("metrics-batch");
    let args = ["selfplay", "--games", "6", "--red", "learned", "--blue", "learned", "--out", "g.csv"];
    ok_in(&d.0, &[&args[..], &["--seed", "1", "--summary", "", "--quiet"]].concat());
    ok_in(&d.0, &["selfplay", "--games", "4", "--out", "r.csv", "--seed", "2", "--summary", "", "--quiet"]);

    // The games file's own winners and reasons.
    let mut rdr = csv::ReaderBuilder::new().comment(Some(b'#')).from_path(d.0.join("g.csv")).unwrap();
    let (mut blue, mut draws, mut majority, mut n) = (0.0, 0.0, 0, 0);
    for rec in rdr.records() {
        let rec = rec.unwrap();
        n += 1;
        match &rec[7] {
            "blue" => blue += 1.0,
            "draw" => draws += 1.0,
            _ => {}
        }
        majority += u64::from(&rec[8] == "majority");
    }
    assert_eq!(n, 6);

    let printed = ok_in(&d.0, &["metrics", "g.csv", "r.csv", "--out", "m.csv"]);
    assert!(printed.contains("g.csv: 6 games (learned vs learned)"), "{printed}");
    assert!(printed.contains("r.csv: 4 games"), "{printed}");
    let rows = read_metrics(&d.0.join("m.csv"));
    let get = |file: &str, metric: &str| {
        let r = rows.iter().find(|r| r.file == file && r.metric == metric).unwrap_or_else(|| panic!("{file} {metric}"));
        (r.value, r.interval, r.games)
    };
    // Both files have the same rows, in the same order.
    let names = |file: &str| rows.iter().filter(|r| r.file == file).map(|r| r.metric.clone()).collect::<Vec<_>>();
    assert_eq!(names("g.csv"), names("r.csv"));
    assert!(names("g.csv").len() >= 20);

    let (adv, ci, games) = get("g.csv", "AdvantageP1");
    assert_eq!(games, 6);
    assert!((adv.unwrap() - (blue + draws / 2.0) / 6.0).abs() < 1e-6, "{adv:?}");
    let (lo, hi) = ci.unwrap();
    assert!(lo <= adv.unwrap() && adv.unwrap() <= hi && hi - lo > 0.1, "{ci:?}");
    let (share, _, _) = get("g.csv", "Share.majority");
    assert!((share.unwrap() - majority as f64 / 6.0).abs() < 1e-6);
    let (draw, _, _) = get("g.csv", "Drawishness");
    let (completion, _, _) = get("g.csv", "Completion");
    assert!((draw.unwrap() - draws / 6.0).abs() < 1e-6);
    assert!((draw.unwrap() + completion.unwrap() - 1.0).abs() < 1e-6);
    let shares: f64 = ["majority", "repetition", "closure", "block"]
        .iter()
        .map(|r| get("g.csv", &format!("Share.{r}")).0.unwrap())
        .sum();
    assert!((shares - 1.0).abs() < 1e-6);
    for metric in ["LeadChange", "Drama", "DecisivenessMoves"] {
        let (v, _, _) = get("g.csv", metric);
        if let Some(v) = v {
            assert!((0.0..=1.0).contains(&v), "{metric} {v}");
        }
    }
    let (bf, _, _) = get("g.csv", "BranchingFactor");
    assert!(bf.unwrap() > 1.0);

    // The CSV is not overwritten without --force; with it, it is, identically.
    let before = d.read("m.csv");
    let e = fails_in(&d.0, &["metrics", "g.csv", "--out", "m.csv"]);
    assert!(e.contains("already exists"), "{e}");
    ok_in(&d.0, &["metrics", "g.csv", "r.csv", "--out", "m.csv", "--force"]);
    assert_eq!(d.read("m.csv"), before, "the same files give the same bytes");
}

#[test]
fn a_tampered_move_is_one_error_line_naming_game_and_move() {
    let d = TempDir::new("metrics-tampered");
    ok_in(&d.0, &["selfplay", "--games", "3", "--out", "g.csv", "--seed", "5", "--summary", "", "--quiet"]);
    let text = d.text("g.csv");
    // Game 1's second play move replaced by its first: red cannot make blue's move.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let i = lines.iter().position(|l| l.starts_with("1,")).expect("game 1's row");
    let row = lines[i].clone();
    let mut fields: Vec<&str> = row.split(',').collect();
    let play: Vec<&str> = fields[15].split(' ').collect();
    let mut tampered = play.clone();
    tampered[1] = play[0];
    let joined = tampered.join(" ");
    fields[15] = &joined;
    lines[i] = fields.join(",");
    d.write("bad.csv", lines.join("\n") + "\n");
    let e = fails_in(&d.0, &["metrics", "bad.csv"]);
    let want = format!("bad.csv:{}: game 1: play_moves: move 2 `{}`: illegal move", i + 1, play[0]);
    assert!(e.contains(&want), "{e} (wanted {want})");
    // Not a games file at all.
    d.write("x.csv", "a,b\n1,2\n");
    let e = fails_in(&d.0, &["metrics", "x.csv"]);
    assert!(e.contains("not a senat games file"), "{e}");
}

#[test]
fn the_help_names_every_metric() {
    let help = ok(&["metrics", "--help"]);
    for m in [
        "AdvantageP1",
        "Balance",
        "Completion",
        "Drawishness",
        "Share.<reason>",
        "ClosureSpike",
        "Duration",
        "DecisivenessMoves",
        "LeadChange",
        "Drama",
        "BranchingFactor",
    ] {
        assert!(help.contains(m), "{m} missing from the help");
    }
}

/// The mean of column `col` (by name) of a games file of `selfplay --game`.
fn column_mean(path: &std::path::Path, col: &str) -> f64 {
    let mut rdr = csv::ReaderBuilder::new().comment(Some(b'#')).from_path(path).unwrap();
    let i = rdr.headers().unwrap().iter().position(|h| h == col).unwrap();
    let v: Vec<f64> = rdr.records().map(|r| r.unwrap()[i].parse().unwrap()).collect();
    v.iter().sum::<f64>() / v.len() as f64
}

#[test]
fn metrics_of_focus_and_dominoes_moves_files() {
    let d = TempDir::new("metrics-games");
    for (game, extra) in
        [("focus", &["--book-plies", "4"][..]), ("dominoes", &[][..]), ("dominoes", &["--variant", "players=4"])]
    {
        let stem = format!("{game}{}", extra.len());
        let args =
            ["selfplay", "--game", game, "--first", "greedy", "--second", "random", "--games", "8", "--seed", "3"];
        let out = [format!("{stem}.csv"), format!("{stem}-moves.csv")];
        let files = ["--out", &out[0], "--moves", &out[1], "--summary", "", "--threads", "1", "--quiet"];
        ok_in(&d.0, &[&args[..], extra, &files].concat());
    }
    let printed =
        ok_in(&d.0, &["metrics", "focus2-moves.csv", "dominoes0-moves.csv", "dominoes2-moves.csv", "--out", "m.csv"]);
    assert!(printed.contains("focus2-moves.csv: 8 focus games (greedy vs random)"), "{printed}");
    let rows = read_metrics(&d.0.join("m.csv"));
    let get = |file: &str, metric: &str| {
        rows.iter().find(|r| r.file == file && r.metric == metric).unwrap_or_else(|| panic!("{file} {metric}"))
    };
    for (file, games) in [("focus2", "focus2.csv"), ("dominoes0", "dominoes0.csv"), ("dominoes2", "dominoes2.csv")] {
        let file = format!("{file}-moves.csv");
        // Duration is the games file's own `plies`, replayed.
        let dur = get(&file, "Duration");
        assert!((dur.value.unwrap() - column_mean(&d.0.join(games), "plies")).abs() < 1e-9, "{file}");
        assert_eq!(dur.games, 8);
        for metric in
            ["AdvantageP1", "Balance", "Completion", "LeadChange", "Drama", "DecisivenessMoves", "BranchingFactor"]
        {
            let r = get(&file, metric);
            let v = r.value.unwrap_or_else(|| panic!("{file} {metric}"));
            let (lo, hi) = r.interval.unwrap_or_else(|| panic!("{file} {metric} has an interval"));
            assert!(lo <= v && v <= hi, "{file} {metric} {v} [{lo}, {hi}]");
        }
        assert!(get(&file, "BranchingFactor").value.unwrap() >= 1.0);
    }
    // Focus: white wins, black wins and draws match the games file's winners.
    let winners = |path: &str| {
        let mut rdr = csv::ReaderBuilder::new().comment(Some(b'#')).from_path(d.0.join(path)).unwrap();
        rdr.records().map(|r| r.unwrap()[4].to_string()).collect::<Vec<_>>()
    };
    let w = winners("focus2.csv");
    let first =
        w.iter().filter(|x| *x == "first").count() as f64 + w.iter().filter(|x| *x == "draw").count() as f64 / 2.0;
    assert!((get("focus2-moves.csv", "AdvantageP1").value.unwrap() - first / 8.0).abs() < 1e-9);
    assert!(get("focus2-moves.csv", "Share.cap").definition.contains("timeout"));
    assert!(get("dominoes2-moves.csv", "Balance").definition.contains("4 places"));

    // A games file is refused, pointing to the moves file; so is a file of another game than --game.
    let e = fails_in(&d.0, &["metrics", "focus2.csv"]);
    assert!(e.contains("holds no moves") && e.contains("--moves M.csv"), "{e}");
    let e = fails_in(&d.0, &["metrics", "--game", "debacle", "focus2-moves.csv"]);
    assert!(e.contains("a file of focus, not of --game debacle"), "{e}");
    // A tampered move: one line naming the file, line, game and move.
    let text = d.text("focus2-moves.csv");
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let (idx, moves) = lines[3].split_once(',').unwrap();
    let mut m: Vec<&str> = moves.split(' ').collect();
    m[5] = "a1-h8";
    lines[3] = format!("{idx},{}", m.join(" "));
    d.write("bad.csv", lines.join("\n") + "\n");
    let e = fails_in(&d.0, &["metrics", "bad.csv"]);
    assert!(e.contains("bad.csv:4: game 1: moves: move 6 `a1-h8`"), "{e}");
    assert_eq!(e.trim().lines().count(), 1, "{e}");
}

#[test]
fn a_weights_file_values_the_positions_and_only_the_evaluated_metrics_change() {
    let d = TempDir::new("metrics-weights");
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/lab/data");
    let focus_net = data.join("net-focus.txt");
    let (focus_net, senat_net) = (focus_net.to_str().unwrap(), data.join("net-senat.txt"));
    let args = ["selfplay", "--game", "focus", "--first", "greedy", "--second", "random", "--games", "8"];
    let files = ["--seed", "3", "--book-plies", "4", "--out", "f.csv", "--moves", "fm.csv", "--summary", ""];
    ok_in(&d.0, &[&args[..], &files, &["--threads", "1", "--quiet"]].concat());
    ok_in(&d.0, &["metrics", "fm.csv", "--out", "own.csv"]);
    ok_in(&d.0, &["metrics", "fm.csv", "--weights", focus_net, "--out", "net.csv"]);
    let (own, net) = (read_metrics(&d.0.join("own.csv")), read_metrics(&d.0.join("net.csv")));
    assert_eq!(own.len(), net.len());
    let evaluated = ["DecisivenessMoves", "LeadChange", "Drama", "Drama.max"];
    let mut moved = 0;
    for (a, b) in own.iter().zip(&net) {
        assert_eq!(a.metric, b.metric);
        if evaluated.contains(&a.metric.as_str()) {
            // The definition names the file and its hash instead of the game's own evaluation.
            assert!(b.definition.contains(focus_net) && b.definition.contains("fnv1a64:"), "{}", b.definition);
            assert!(!a.definition.contains("fnv1a64:"), "{}", a.definition);
            moved += usize::from(a.value != b.value);
        } else {
            // Outcomes, lengths and branching do not depend on the evaluation.
            assert_eq!((a.value, a.interval, a.games, &a.definition), (b.value, b.interval, b.games, &b.definition));
        }
    }
    assert!(moved > 0, "the network values the positions otherwise than the evaluation");

    // Sénat: the shipped logistic model given as a file is the default, to the bit; the network moves the values.
    let sp = ["selfplay", "--games", "6", "--red", "learned", "--blue", "learned", "--out", "g.csv"];
    ok_in(&d.0, &[&sp[..], &["--summary", "", "--quiet"]].concat());
    let logistic = data.join("learned-weights.txt");
    ok_in(&d.0, &["metrics", "g.csv", "--out", "s-own.csv"]);
    ok_in(&d.0, &["metrics", "g.csv", "--weights", logistic.to_str().unwrap(), "--out", "s-file.csv"]);
    ok_in(&d.0, &["metrics", "g.csv", "--weights", senat_net.to_str().unwrap(), "--out", "s-net.csv"]);
    let (own, file, net) = (
        read_metrics(&d.0.join("s-own.csv")),
        read_metrics(&d.0.join("s-file.csv")),
        read_metrics(&d.0.join("s-net.csv")),
    );
    let value = |rows: &[Row], m: &str| rows.iter().find(|r| r.metric == m).map(|r| (r.value, r.interval)).unwrap();
    let words = format!("Values: the learned evaluation of {} (fnv1a64:", senat_net.display());
    for m in evaluated {
        assert_eq!(value(&own, m), value(&file, m), "{m}: the shipped logistic model read from its file");
        let r = net.iter().find(|r| r.metric == m).unwrap();
        assert!(r.definition.contains(&words), "{}", r.definition);
    }
    assert_ne!(value(&own, "Drama"), value(&net, "Drama"), "the value network moves Drama");

    // Refusals, one line each: a file of another game, a Sénat file for another game, dominoes.
    let e = fails_in(&d.0, &["metrics", "g.csv", "--weights", focus_net]);
    assert!(e.contains("a weights file of focus; a Sénat games file takes a learned weights file"), "{e}");
    let e = fails_in(&d.0, &["metrics", "fm.csv", "--weights", senat_net.to_str().unwrap()]);
    assert!(e.contains("no `game=` line"), "{e}");
    let files = ["--out", "c.csv", "--moves", "cm.csv", "--summary", "", "--quiet"];
    ok_in(&d.0, &[&["selfplay", "--game", "connect4", "--games", "2"][..], &files].concat());
    let e = fails_in(&d.0, &["metrics", "cm.csv", "--weights", focus_net]);
    assert!(e.contains("a weights file of focus, not of connect4"), "{e}");
    let files = ["--out", "d.csv", "--moves", "dm.csv", "--summary", "", "--quiet"];
    ok_in(&d.0, &[&["selfplay", "--game", "dominoes", "--games", "2"][..], &files].concat());
    let e = fails_in(&d.0, &["metrics", "dm.csv", "--weights", focus_net]);
    assert!(e.contains("dominoes' metrics value a position by the match scores"), "{e}");
    assert_eq!(e.trim().lines().count(), 1, "{e}");
}
