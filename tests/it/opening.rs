//! `selfplay --opening FILE` and `--force-first-give gN`: the forced moves
//! start every game, an illegal one is refused naming its file line, the
//! opening is part of the batch identity (merge and resume refuse mixing),
//! and without an opening nothing changes.

use crate::support::cli::{fails_in as fails, ok_in as ok};
use crate::support::files::TempDir;

const BATCH: [&str; 8] = ["selfplay", "--games", "60", "--seed", "7", "--red", "greedy", "--quiet"];

fn run(d: &TempDir, extra: &[&str]) {
    ok(&d.0, &[&BATCH[..], extra].concat());
}

/// The data rows of a games file (after the identity line and the header).
fn data(text: &str) -> Vec<Vec<String>> {
    let mut r = csv::ReaderBuilder::new().comment(Some(b'#')).from_reader(text.as_bytes());
    r.records().map(|x| x.expect("row").iter().map(str::to_string).collect()).collect()
}

#[test]
fn forced_moves_start_every_game_and_name_the_batch() {
    let d = TempDir::new("opening-forced");
    d.write("open.txt", "# a forced start\ng17\n\n17@I19=Cb   # red's placement\ng3\n");
    run(&d, &["--opening", "open.txt", "--out", "o.csv", "--summary", "", "--moves", "om.csv"]);
    run(&d, &["--out", "plain.csv", "--summary", ""]);
    let (o, plain) = (d.text("o.csv"), d.text("plain.csv"));
    let first = o.lines().next().unwrap();
    assert!(first.ends_with(" draft_blue_weights=- opening=g17%2017@I19=Cb%20g3"), "{first}");
    assert!(!plain.lines().next().unwrap().contains("opening"), "{plain}");
    assert!(d.text("om.csv").starts_with(first), "the moves file has the same identity");
    let (rows, plain_rows) = (data(&o), data(&plain));
    assert_eq!(rows.len(), 60);
    for (r, p) in rows.iter().zip(&plain_rows) {
        assert!(r[14].starts_with("g17 17@I19=Cb g3 "), "{}", r[14]);
        assert_eq!(r[2], p[2], "same game seeds as the batch without an opening");
    }
    assert!(plain_rows.iter().any(|p| !p[14].starts_with("g17 17@I19=Cb g3 ")), "the opening changed something");
}

#[test]
fn an_empty_opening_and_the_shorthand_change_nothing_else() {
    let d = TempDir::new("opening-same");
    d.write("empty.txt", "# nothing forced\n\n");
    d.write("g3.txt", "g3\n");
    run(&d, &["--out", "plain.csv", "--summary", "plain-s.csv"]);
    run(&d, &["--opening", "empty.txt", "--out", "empty.csv", "--summary", "empty-s.csv"]);
    assert_eq!(d.read("plain.csv"), d.read("empty.csv"));
    assert_eq!(d.read("plain-s.csv"), d.read("empty-s.csv"));
    run(&d, &["--opening", "g3.txt", "--out", "file.csv", "--summary", ""]);
    run(&d, &["--force-first-give", "g3", "--out", "flag.csv", "--summary", ""]);
    assert_eq!(d.read("file.csv"), d.read("flag.csv"));
    assert!(data(&d.text("flag.csv")).iter().all(|r| r[14].starts_with("g3 ")));
}

#[test]
fn an_illegal_opening_names_its_line() {
    let d = TempDir::new("opening-bad");
    d.write("bad.txt", "g17\n# comment\n17@I19=Cb\ng17\n");
    let err = fails(&d.0, &[&BATCH[..], &["--opening", "bad.txt", "--out", "g.csv"]].concat());
    assert!(err.starts_with("senat: error: bad.txt:4: move `g17`"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!d.exists("g.csv"), "nothing written");
    let err = fails(&d.0, &[&BATCH[..], &["--force-first-give", "g24", "--out", "g.csv"]].concat());
    assert!(err.contains("--force-first-give:1: move `g24`"), "{err}");
    let err = fails(&d.0, &[&BATCH[..], &["--opening", "missing.txt", "--out", "g.csv"]].concat());
    assert!(err.contains("missing.txt"), "{err}");
}

#[test]
fn merge_and_resume_refuse_mixing_openings() {
    let d = TempDir::new("opening-mix");
    run(&d, &["--force-first-give", "g3", "--shard", "1/2", "--out", "s1.csv", "--summary", ""]);
    run(&d, &["--shard", "2/2", "--out", "s2.csv", "--summary", ""]);
    let err = fails(&d.0, &["merge", "--quiet", "--out", "m.csv", "--summary", "", "s1.csv", "s2.csv"]);
    assert!(err.contains("opening"), "{err}");
    run(&d, &["--force-first-give", "g4", "--shard", "2/2", "--out", "s2b.csv", "--summary", ""]);
    let err = fails(&d.0, &["merge", "--quiet", "--out", "m.csv", "--summary", "", "s1.csv", "s2b.csv"]);
    assert!(err.contains("opening"), "{err}");
    let err = fails(&d.0, &[&BATCH[..], &["--shard", "1/2", "--out", "s1.csv", "--summary", "", "--resume"]].concat());
    assert!(err.contains("opening"), "{err}");
    run(&d, &["--force-first-give", "g3", "--shard", "2/2", "--out", "s2c.csv", "--summary", ""]);
    ok(&d.0, &["merge", "--quiet", "--out", "m.csv", "--summary", "", "s1.csv", "s2c.csv"]);
    assert!(d.text("m.csv").lines().next().unwrap().ends_with(" opening=g3"));
}
