//! `senat draft-stats`: the annex tables on a hand-made games file whose
//! counts are known, internal consistency on a real self-play batch, the
//! plots (SVG parsed), and the errors (malformed rows, overwriting).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::support::cli::{ok, senat};

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    crate::support::files::scratch("draft-stats", name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A CSV table as a header and rows of fields.
struct Csv {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Csv {
    fn read(path: &Path) -> Csv {
        let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let header = r.headers().unwrap().iter().map(String::from).collect();
        let rows = r.records().map(|x| x.unwrap().iter().map(String::from).collect()).collect();
        Csv { header, rows }
    }

    fn col(&self, name: &str) -> usize {
        self.header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"))
    }

    /// Rows whose columns `keys` equal `values`.
    fn select(&self, keys: &[(&str, &str)]) -> Vec<&Vec<String>> {
        let idx: Vec<(usize, &str)> = keys.iter().map(|&(k, v)| (self.col(k), v)).collect();
        self.rows.iter().filter(|r| idx.iter().all(|&(i, v)| r[i] == v)).collect()
    }

    /// The one row matching `keys`, column `col`, as a number.
    fn get(&self, keys: &[(&str, &str)], col: &str) -> u64 {
        let rows = self.select(keys);
        assert_eq!(rows.len(), 1, "{keys:?}: {} rows", rows.len());
        rows[0][self.col(col)].parse().unwrap()
    }

    /// Sum of column `col` over the rows matching `keys`.
    fn sum(&self, keys: &[(&str, &str)], col: &str) -> u64 {
        let c = self.col(col);
        self.select(keys).iter().map(|r| r[c].parse::<u64>().unwrap()).sum()
    }
}

/// The draft `g1 1@S1=Tr g2 2@S2=Tr … g23 23@I23=Tr`: die k on cell k with
/// its red triangle on top (white on dice 3 to 13, red on the others).
fn draft_in_order() -> Vec<String> {
    let mut v = Vec::new();
    for k in 1..=23u8 {
        v.push(format!("g{k}"));
        v.push(format!("{k}@{}=Tr", cell(k)));
    }
    v
}

fn cell(n: u8) -> String {
    let row = if n <= 11 {
        'S'
    } else if n <= 18 {
        'M'
    } else {
        'I'
    };
    format!("{row}{n}")
}

/// As [`draft_in_order`] but the first three dice given are 3, 1, 2 (die 3
/// on S1 by red, die 1 on S2 by blue, die 2 on S3 by red).
fn draft_three_first() -> Vec<String> {
    let mut v = draft_in_order();
    v[0] = "g3".into();
    v[1] = "3@S1=Tr".into();
    v[2] = "g1".into();
    v[3] = "1@S2=Tr".into();
    v[4] = "g2".into();
    v[5] = "2@S3=Tr".into();
    v
}

fn row(game: u32, winner: &str, reason: &str, len: u32, draft: &[String], play: &str) -> String {
    format!(
        "{game},7,{game},random,random,random,random,{winner},{reason},0,0,0,{len},0,{},{play},\"-\"\n",
        draft.join(" ")
    )
}

const HEADER: &str = "game,seed,game_seed,red,blue,draft_red,draft_blue,winner,reason,red_pile,blue_pile,\
white_pile,play_half_moves,play_legal_sum,draft_moves,play_moves,final_spn\n";

/// Three games whose counts are worked out by hand:
/// 1. draft in order, red wins by majority; blue's first move pushes M12
///    into the full row I at I19 (die 19, red: the opponent's colour);
/// 2. draft in order, blue wins by closure; blue flips I20 (die 20 Tr → Tb,
///    white on die 20), red flips I22, blue pushes I20 through the door
///    (white; the agents' symbols are not checked: draft-stats counts, it
///    does not referee);
/// 3. die 3 given first, a draw by repetition, no play move.
fn hand_made(dir: &Path) -> PathBuf {
    let d1 = draft_in_order();
    let d2 = draft_three_first();
    let mut text = String::from("# senat-batch v1 seed=7 games=3 shard=1/1 range=0..3 red=random blue=random\n");
    text.push_str(HEADER);
    text.push_str(&row(0, "red", "majority", 2, &d1, "M13>M12:I19 M16-M17"));
    text.push_str(&row(1, "blue", "closure", 3, &d1, "I19>I20 I21>I22 I21>I20:D"));
    text.push_str(&row(2, "draw", "repetition", 0, &d2, ""));
    let path = dir.join("hand.csv");
    std::fs::write(&path, text).unwrap();
    path
}

const M: [(&str, &str); 4] = [("red", "random"), ("blue", "random"), ("draft_red", "random"), ("draft_blue", "random")];

fn with<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v = M.to_vec();
    v.extend_from_slice(extra);
    v
}

#[test]
fn hand_made_games_give_the_known_counts() {
    let dir = scratch("hand");
    let games = hand_made(&dir);
    let out = dir.join("out");
    let text = ok(&["draft-stats", s(&games), "--out-dir", s(&out)]);
    assert!(text.contains("random vs random: 3 games"), "{text}");

    let end = Csv::read(&out.join("end.csv"));
    assert_eq!(end.get(&with(&[("reason", "majority")]), "red_wins"), 1);
    assert_eq!(end.get(&with(&[("reason", "closure")]), "blue_wins"), 1);
    assert_eq!(end.get(&with(&[("reason", "repetition")]), "draws"), 1);
    assert_eq!(end.get(&with(&[("reason", "block")]), "games"), 0);

    let give = Csv::read(&out.join("first_give.csv"));
    assert_eq!(give.rows.len(), 2, "only g1 and g3 were given first");
    assert_eq!(give.get(&with(&[("give", "g1")]), "games"), 2);
    assert_eq!(give.get(&with(&[("give", "g1")]), "red_wins"), 1);
    assert_eq!(give.get(&with(&[("give", "g1")]), "blue_wins"), 1);
    assert_eq!(give.get(&with(&[("give", "g3")]), "draws"), 1);

    let place = Csv::read(&out.join("first_placement.csv"));
    assert_eq!(place.get(&with(&[("row", "S"), ("colour", "own")]), "games"), 2);
    assert_eq!(place.get(&with(&[("row", "S"), ("colour", "white")]), "games"), 1);
    assert_eq!(place.sum(&M, "games"), 3);

    // Die 3: white in all three games, on S3 (placement 3) twice and on S1
    // (placement 1) once, always placed by red and given by blue.
    let die = Csv::read(&out.join("die.csv"));
    let d3 =
        |row: &str, colour: &str, col: &str| die.get(&with(&[("die", "3"), ("row", row), ("colour", colour)]), col);
    assert_eq!(d3("all", "all", "games"), 3);
    assert_eq!(d3("S", "white", "games"), 3);
    assert_eq!(d3("S", "own", "games"), 0);
    assert_eq!(d3("all", "all", "placer_wins"), 1);
    assert_eq!(d3("all", "all", "giver_wins"), 1);
    assert_eq!(d3("all", "all", "draws"), 1);
    // Die 1: red's own colour on S1 (games 1, 2), blue's opponent colour on S2 (game 3).
    let d1 = |colour: &str, col: &str| die.get(&with(&[("die", "1"), ("row", "S"), ("colour", colour)]), col);
    assert_eq!(d1("own", "games"), 2);
    assert_eq!(d1("opponent", "games"), 1);
    assert_eq!(d1("own", "placer_wins"), 1);
    // Die 20 (red triangle not whitened) on I20 by blue: the opponent's colour.
    assert_eq!(die.get(&with(&[("die", "20"), ("row", "I"), ("colour", "opponent")]), "games"), 3);

    let order = Csv::read(&out.join("give_order.csv"));
    assert_eq!(order.get(&with(&[("die", "3"), ("placement", "3")]), "games"), 2);
    assert_eq!(order.get(&with(&[("die", "3"), ("placement", "3")]), "giver_wins"), 1);
    assert_eq!(order.get(&with(&[("die", "3"), ("placement", "1")]), "games"), 1);
    assert_eq!(order.get(&with(&[("die", "3"), ("placement", "1")]), "draws"), 1);
    assert_eq!(order.select(&with(&[("die", "3"), ("placement", "1")]))[0][order.col("giver")], "blue");

    let tree = Csv::read(&out.join("opening_tree.csv"));
    assert_eq!(tree.get(&with(&[("line", "g1 S:own")]), "games"), 2);
    assert_eq!(tree.get(&with(&[("line", "g1 S:own g2 S:opponent")]), "games"), 2);
    assert_eq!(tree.get(&with(&[("line", "g3 S:white g1 S:opponent")]), "games"), 1);
    assert_eq!(tree.get(&with(&[("line", "g3 S:white g1 S:opponent")]), "draws"), 1);

    let first = Csv::read(&out.join("first_move.csv"));
    assert_eq!(first.get(&with(&[("move", "M13>M12:I19")]), "red_wins"), 1);
    assert_eq!(first.get(&with(&[("move", "I19>I20")]), "blue_wins"), 1);
    assert_eq!(first.rows.len(), 2);

    let push = Csv::read(&out.join("first_push.csv"));
    assert_eq!(push.get(&with(&[("kind", "conveyor_opponent")]), "games"), 1);
    assert_eq!(push.get(&with(&[("kind", "conveyor_opponent")]), "pusher_losses"), 1);
    assert_eq!(push.get(&with(&[("kind", "door_white")]), "games"), 1);
    assert_eq!(push.get(&with(&[("kind", "door_white")]), "pusher_wins"), 1);
    assert_eq!(push.get(&with(&[("kind", "no_push")]), "games"), 1);
    assert_eq!(push.sum(&M, "games"), 3);

    let length = Csv::read(&out.join("length.csv"));
    assert_eq!(length.get(&with(&[("play_half_moves", "2")]), "games"), 1);
    assert_eq!(length.get(&with(&[("play_half_moves", "3")]), "games"), 1);
    assert_eq!(length.get(&with(&[("play_half_moves", "0")]), "games"), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_rows_and_existing_outputs_are_refused() {
    let dir = scratch("errors");
    let games = hand_made(&dir);
    let out = dir.join("out");
    ok(&["draft-stats", s(&games), "--out-dir", s(&out), "--quiet"]);
    // A second run stops before reading anything, unless --force.
    let o = senat(&["draft-stats", s(&games), "--out-dir", s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("senat: error: ") && err.contains("summary.csv already exists"), "{err}");
    // Quiet: the result alone, the one line naming what was written.
    let quiet = ok(&["draft-stats", s(&games), "--out-dir", s(&out), "--force", "--quiet"]);
    assert_eq!(quiet.lines().count(), 1, "{quiet}");
    assert!(quiet.starts_with("read 3 games from 1 file(s) in ") && quiet.contains("; wrote 10 tables to "), "{quiet}");

    // Line 5 (after the comment, the header and two good rows) places a
    // die that was not given.
    let text = std::fs::read_to_string(&games).unwrap();
    let bad = text.replacen("g2 2@S2=Tr", "g2 5@S2=Tr", 1);
    let lines: Vec<&str> = text.lines().collect();
    let bad_lines: Vec<&str> = bad.lines().collect();
    let mixed = [lines[0], lines[1], lines[2], lines[3], bad_lines[2]].join("\n");
    let bad_path = dir.join("bad.csv");
    std::fs::write(&bad_path, mixed + "\n").unwrap();
    let o = senat(&["draft-stats", s(&bad_path), "--out-dir", s(&dir.join("out2"))]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("bad.csv:5: draft_moves: move 4 `5@S2=Tr` places another die"), "{err}");

    // A winner that is not red, blue or draw.
    let bad_path = dir.join("winner.csv");
    std::fs::write(&bad_path, text.replacen(",red,majority,", ",green,majority,", 1)).unwrap();
    let o = senat(&["draft-stats", s(&bad_path), "--out-dir", s(&dir.join("out3"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("winner.csv:3: winner `green`"));

    // An arena games file has no moves.
    let arena = dir.join("arena.csv");
    std::fs::write(
        &arena,
        "pairing,pair,game_seed,first,second,red,blue,winner,reason,play_half_moves,first_points,final_spn\n",
    )
    .unwrap();
    let o = senat(&["draft-stats", s(&arena), "--out-dir", s(&dir.join("out4"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("arena games file"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The rows of `t` for one value of `key`, summed over column `col`, per value.
fn sums_by(t: &Csv, key: &str, col: &str, filter: &[(&str, &str)]) -> HashMap<String, u64> {
    let (k, c) = (t.col(key), t.col(col));
    let mut m = HashMap::new();
    for r in t.select(filter) {
        *m.entry(r[k].clone()).or_insert(0) += r[c].parse::<u64>().unwrap();
    }
    m
}

#[test]
fn a_selfplay_batch_is_counted_consistently_and_plotted() {
    let dir = scratch("batch");
    let games = dir.join("games.csv");
    let moves = dir.join("moves.csv");
    ok(&[
        "selfplay",
        "--games",
        "200",
        "--seed",
        "11",
        "--out",
        s(&games),
        "--moves",
        s(&moves),
        "--summary",
        "",
        "--quiet",
        "--threads",
        "1",
    ]);
    let out = dir.join("out");
    let plots = dir.join("plots");
    let text = ok(&["draft-stats", s(&games), "--moves", s(&moves), "--out-dir", s(&out), "--plot", s(&plots)]);
    assert!(text.contains("read 200 games from 1 file(s)"), "{text}");
    let n = 200;

    let die = Csv::read(&out.join("die.csv"));
    for d in 1..=23 {
        let d = d.to_string();
        assert_eq!(die.get(&with(&[("die", &d), ("row", "all"), ("colour", "all")]), "games"), n);
        let by_row = sums_by(&die, "row", "games", &with(&[("die", &d), ("colour", "all")]));
        assert_eq!(by_row["S"] + by_row["M"] + by_row["I"], n, "die {d} by row");
        let by_colour = sums_by(&die, "colour", "games", &with(&[("die", &d), ("row", "all")]));
        assert_eq!(by_colour["own"] + by_colour["opponent"] + by_colour["white"], n, "die {d} by colour");
        for r in die.select(&with(&[("die", &d)])) {
            let g: u64 = r[die.col("games")].parse().unwrap();
            let parts: u64 =
                ["placer_wins", "giver_wins", "draws"].iter().map(|c| r[die.col(c)].parse::<u64>().unwrap()).sum();
            assert_eq!(g, parts);
        }
    }
    // Die 3 is all white, wherever it is placed.
    assert_eq!(die.get(&with(&[("die", "3"), ("row", "all"), ("colour", "white")]), "games"), n);

    let order = Csv::read(&out.join("give_order.csv"));
    for d in 1..=23 {
        assert_eq!(order.sum(&with(&[("die", &d.to_string())]), "games"), n, "die {d} over placements");
    }
    for k in 1..=23 {
        assert_eq!(order.sum(&with(&[("placement", &k.to_string())]), "games"), n, "placement {k} over dice");
    }
    for name in ["first_give.csv", "first_placement.csv", "first_push.csv", "end.csv", "length.csv"] {
        assert_eq!(Csv::read(&out.join(name)).sum(&M, "games"), n, "{name}");
    }
    let first_give = Csv::read(&out.join("first_give.csv"));
    assert!(first_give.rows.len() <= 22);
    let tree = Csv::read(&out.join("opening_tree.csv"));
    assert_eq!(tree.sum(&with(&[("depth", "1")]), "games"), n);
    // The children of the shown first gives (at most TREE_TOP, the others
    // grouped) add up to them.
    let shown: u64 = tree.sum(&with(&[("depth", "1")]), "games") - tree.sum(&with(&[("line", "(other)")]), "games");
    assert!(shown < n, "more first gives than shown");
    assert_eq!(tree.sum(&with(&[("depth", "2")]), "games"), shown);
    let first = Csv::read(&out.join("first_move.csv"));
    assert_eq!(first.sum(&M, "games"), n, "every random game has a play move");
    assert!(first.rows.len() <= 21);

    // Legal moves: 46 draft positions per game; the play positions are the play half-moves.
    let phase = Csv::read(&out.join("legal_phase.csv"));
    assert_eq!(phase.sum(&[("phase", "draft")], "positions"), 46 * n);
    let length = Csv::read(&out.join("length.csv"));
    let (lc, gc) = (length.col("play_half_moves"), length.col("games"));
    let play: u64 = length.rows.iter().map(|r| r[lc].parse::<u64>().unwrap() * r[gc].parse::<u64>().unwrap()).sum();
    assert_eq!(phase.sum(&[("phase", "play")], "positions"), play);
    let ply = Csv::read(&out.join("legal_ply.csv"));
    assert_eq!(ply.get(&[("ply", "1")], "positions"), n);
    assert_eq!(ply.get(&[("ply", "1")], "median"), 22, "22 first gives");

    // Plots: every file exists and is not empty; the SVGs parse, with their
    // axis labels and one bar per die (plus the legend's swatch).
    for name in ["length", "results", "die_value", "opening_tree_1", "branching"] {
        for ext in ["svg", "png"] {
            let p = plots.join(format!("{name}.{ext}"));
            let len = std::fs::metadata(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())).len();
            assert!(len > 1000, "{} is {len} bytes", p.display());
        }
    }
    let png = std::fs::read(plots.join("length.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let svg = |name: &str| std::fs::read_to_string(plots.join(format!("{name}.svg"))).unwrap();
    let texts = |doc: &roxmltree::Document| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text().map(|t| t.trim().to_string()))
            .collect()
    };
    let die_svg = svg("die_value");
    let doc = roxmltree::Document::parse(&die_svg).unwrap();
    let t = texts(&doc);
    assert!(t.iter().any(|x| x == "die"), "{t:?}");
    assert!(t.iter().any(|x| x == "placer's win rate"), "{t:?}");
    assert!(t.iter().any(|x| x == "random vs random"), "{t:?}");
    let bars = doc.descendants().filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("#1F77B4")).count();
    assert_eq!(bars, 23 + 1);
    let length_svg = svg("length");
    let doc = roxmltree::Document::parse(&length_svg).unwrap();
    let t = texts(&doc);
    assert!(t.iter().any(|x| x == "play half-moves"), "{t:?}");
    assert!(t.iter().any(|x| x.starts_with("60: the rules")), "{t:?}");
    let results_svg = svg("results");
    let doc = roxmltree::Document::parse(&results_svg).unwrap();
    // One matchup: a red, a blue and a draw bar, each with its legend swatch.
    for fill in ["#C82828", "#2850C8", "#969696"] {
        let count = doc.descendants().filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some(fill)).count();
        assert_eq!(count, 2, "{fill}");
    }
    let tree_svg = svg("opening_tree_1");
    let doc = roxmltree::Document::parse(&tree_svg).unwrap();
    let t = texts(&doc);
    let gives = t.iter().filter(|x| x.starts_with('g') && x[1..].parse::<u8>().is_ok()).count();
    assert_eq!(gives, first_give.rows.len(), "one bar label per first give");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn files_of_two_matchups_give_two_blocks_and_two_series() {
    let dir = scratch("two");
    let random = dir.join("random.csv");
    let greedy = dir.join("greedy.csv");
    let play = |out: &Path, red: &str| {
        ok(&["selfplay", "--games", "60", "--red", red, "--out", s(out), "--summary", "", "--quiet", "--threads", "1"])
    };
    play(&random, "random");
    play(&greedy, "greedy");
    let out = dir.join("out");
    let plots = dir.join("plots");
    let text = ok(&["draft-stats", s(&random), s(&greedy), "--out-dir", s(&out), "--plot", s(&plots)]);
    assert!(text.contains("greedy vs random: 60 games"), "{text}");
    assert!(text.contains("random vs random: 60 games"), "{text}");
    assert!(text.contains("no branching plot"), "{text}");
    assert!(!plots.join("branching.svg").exists());
    let end = Csv::read(&out.join("end.csv"));
    assert_eq!(end.sum(&[("red", "greedy")], "games"), 60);
    assert_eq!(end.sum(&[("red", "random")], "games"), 60);
    // One bar per die and matchup, one line per matchup, one opening tree each.
    let die_svg = std::fs::read_to_string(plots.join("die_value.svg")).unwrap();
    let doc = roxmltree::Document::parse(&die_svg).unwrap();
    for fill in ["#1F77B4", "#D62728"] {
        let bars = doc.descendants().filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some(fill)).count();
        assert_eq!(bars, 23 + 1, "{fill}");
    }
    let length_svg = std::fs::read_to_string(plots.join("length.svg")).unwrap();
    let doc = roxmltree::Document::parse(&length_svg).unwrap();
    let legend: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(|t| t.trim().to_string()))
        .filter(|t| t.contains(" vs "))
        .collect();
    assert_eq!(legend.len(), 2, "{legend:?}");
    assert!(plots.join("opening_tree_2.png").exists() && !plots.join("opening_tree_3.png").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
