//! Nothing lost, nothing mixed, nothing wrong (issue 8): `merge` proves its
//! inputs are exactly one complete batch, `--resume` proves it continues the
//! same batch, impossible rows are refused with file:line, two roles never
//! name one file, two runs never write one file, outputs are checked before
//! the first game, and a failed or killed merge leaves the old file or none.

use crate::support::cli::{fails_in as fails, ok_in as ok};
use crate::support::files::{TempDir, wait_for};

/// `selfplay` of the 100-game batch with seed 7, no summary, then `extra`.
fn selfplay<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    [&["selfplay", "--games", "100", "--seed", "7", "--quiet", "--summary", ""][..], extra].concat()
}

/// Shards 1..=4 of the 100-game batch with seed 7 as `s1.csv`..`s4.csv`, and the unsharded run as `all.csv`.
fn shards(d: &TempDir) {
    ok(&d.0, &selfplay(&["--out", "all.csv"]));
    for k in 1..=4 {
        let (shard, out) = (format!("{k}/4"), format!("s{k}.csv"));
        ok(&d.0, &selfplay(&["--shard", &shard, "--out", &out]));
    }
}

fn merge(d: &TempDir, inputs: &[&str]) -> String {
    fails(&d.0, &[&["merge", "--out", "m.csv", "--summary", "ms.csv"], inputs].concat())
}

/// A shard whose identity claims almost 2^64 shards (found by the
/// focus_merge fuzz target: merge listed every missing shard, past 16 GB)
/// is refused at once, the first missing shards named and the rest
/// counted, in every game; and the other games' identities, like Sénat's,
/// refuse a range that is not their shard's games (the fuzz input's
/// `range=0..3` with it).
#[test]
fn a_batch_of_countless_shards_is_refused_at_once() {
    let d = TempDir::new("countless");
    let shard = "shard=1/18446744073209551616";
    for game in ["senat", "focus", "debacle", "dominoes"] {
        let out = format!("{game}.csv");
        ok(
            &d.0,
            &["selfplay", "--game", game, "--games", "3", "--seed", "1", "--quiet", "--summary", "", "--out", &out],
        );
        let text = d.text(&out).replacen("shard=1/1", shard, 1);
        assert!(text.contains(shard) && text.contains("range=0..3"), "{text}");
        d.write(&out, &text);
        let err = fails(&d.0, &["merge", "--out", "m.csv", "--summary", "", &out]);
        assert!(err.contains("range"), "{game}: {err}");
        // Shard 1 of that many holds none of the 3 games.
        d.write(&out, text.replacen("range=0..3", "range=0..0", 1));
        let started = std::time::Instant::now();
        let err = fails(&d.0, &["merge", "--out", "m.csv", "--summary", "", &out]);
        assert!(started.elapsed().as_secs() < 20, "{game}: refused at once");
        assert!(err.contains("missing shard 2 of 18446744073209551616"), "{game}: {err}");
        assert!(err.contains("shard 11 of 18446744073209551616") && !err.contains("shard 12 of"), "{game}: {err}");
        assert!(err.contains("and 18446744073209551605 more"), "{game}: {err}");
    }
}

#[test]
fn merge_proves_a_complete_single_batch() {
    let d = TempDir::new("complete");
    shards(&d);
    ok(&d.0, &["merge", "--quiet", "--out", "m.csv", "--summary", "", "s4.csv", "s2.csv", "s1.csv", "s3.csv"]);
    assert_eq!(d.read("m.csv"), d.read("all.csv"), "merged shards differ from the unsharded run");
    std::fs::remove_file(d.0.join("m.csv")).unwrap();

    let err = merge(&d, &["s2.csv", "s3.csv", "s4.csv"]);
    assert!(err.contains("missing shard 1 of 4 (games 0..25)"), "{err}");
    let err = merge(&d, &["s1.csv", "s2.csv", "s3.csv"]);
    assert!(err.contains("missing shard 4 of 4 (games 75..100)"), "{err}");
    // A shard of another batch: other policies, another seed, another size.
    ok(&d.0, &selfplay(&["--shard", "2/4", "--red", "greedy", "--out", "g2.csv"]));
    let err = merge(&d, &["s1.csv", "g2.csv", "s3.csv", "s4.csv"]);
    assert!(err.contains("not shards of one batch") && err.contains("red=greedy"), "{err}");
    ok(
        &d.0,
        &["selfplay", "--games", "100", "--seed", "8", "--quiet", "--summary", "", "--shard", "4/4", "--out", "e4.csv"],
    );
    let err = merge(&d, &["s1.csv", "s2.csv", "s3.csv", "e4.csv"]);
    assert!(err.contains("seed=7") && err.contains("seed=8"), "{err}");
    ok(
        &d.0,
        &["selfplay", "--games", "100", "--seed", "7", "--quiet", "--summary", "", "--shard", "4/5", "--out", "f4.csv"],
    );
    let err = merge(&d, &["s1.csv", "s2.csv", "s3.csv", "f4.csv"]);
    assert!(err.contains("not shards of one batch"), "{err}");
    // A duplicate shard: refused before anything is written, the old output kept.
    std::fs::copy(d.0.join("s2.csv"), d.0.join("s2-copy.csv")).unwrap();
    d.write("m.csv", "old\n");
    let err = fails(
        &d.0,
        &[
            "merge",
            "--force",
            "--out",
            "m.csv",
            "--summary",
            "ms.csv",
            "s1.csv",
            "s2.csv",
            "s2-copy.csv",
            "s3.csv",
            "s4.csv",
        ],
    );
    assert!(err.contains("shard 2/4 is given twice"), "{err}");
    assert_eq!(d.read("m.csv"), b"old\n");
    assert!(!d.exists("ms.csv") && !d.exists("m.csv.partial") && !d.exists("ms.csv.partial"), "{:?}", d.names());
    // The same file twice.
    let err = merge(&d, &["s1.csv", "s2.csv", "./s2.csv", "s3.csv", "s4.csv"]);
    assert!(err.contains("name the same file"), "{err}");
}

#[test]
fn merge_refuses_incomplete_shards_and_old_files() {
    let d = TempDir::new("incomplete");
    shards(&d);
    let s3 = d.text("s3.csv");
    // A shard cut after a complete row: it holds fewer games than its range.
    let cut: String = s3.lines().take(10).map(|l| format!("{l}\n")).collect();
    d.write("s3.csv", &cut);
    let err = merge(&d, &["s1.csv", "s2.csv", "s3.csv", "s4.csv"]);
    assert!(err.contains("s3.csv (shard 3/4) stops after 8 of its 25 games 50..75"), "{err}");
    // A file without an identity line (an older senat).
    d.write("s3.csv", s3.split_once('\n').unwrap().1);
    let err = merge(&d, &["s1.csv", "s2.csv", "s3.csv", "s4.csv"]);
    assert!(err.contains("s3.csv: no batch identity line: written by an older senat"), "{err}");
    assert!(!d.exists("m.csv") && !d.exists("ms.csv"));
}

/// Replaces field `col` of line `line` (1-based, the identity line is 1) of `text`.
fn edit(text: &str, line: usize, col: usize, value: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(lines[line - 1].as_bytes());
    let mut rec: Vec<String> = r.records().next().unwrap().unwrap().iter().map(String::from).collect();
    rec[col] = value.to_string();
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    w.write_record(&rec).unwrap();
    lines[line - 1] = String::from_utf8(w.into_inner().unwrap()).unwrap().trim_end().to_string();
    lines.iter().map(|l| format!("{l}\n")).collect()
}

#[test]
fn merge_refuses_impossible_rows_with_file_and_line() {
    let d = TempDir::new("rows");
    shards(&d);
    let s2 = d.text("s2.csv");
    let row: Vec<String> = {
        let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(s2.lines().nth(4).unwrap().as_bytes());
        r.records().next().unwrap().unwrap().iter().map(String::from).collect()
    };
    let other_winner = if row[7] == "red" { "blue" } else { "red" };
    // The same position with one die moved from the white pile to the board
    // count changed: a valid-looking SPN whose piles disagree with the row.
    let bad_spn: String = row[16]
        .split(' ')
        .map(|f| {
            let p: Vec<&str> = f.split('-').collect();
            if p.len() == 3 && p.iter().all(|x| x.parse::<u8>().is_ok()) {
                format!("{}-{}-{}", p[1], p[0], p[2])
            } else {
                f.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    let (reason, reason_err) =
        if row[8] == "majority" { ("closure", "but a pile holds 5") } else { ("majority", "reason majority") };
    for (col, value, want) in [
        (7, other_winner, "does not match the piles"),
        (9, "9", "red_pile `9` is not a pile size 0..5"),
        (11, "22", "white_pile `22` is not a pile size 0..21"),
        (16, "not an spn", "final_spn does not parse"),
        (16, bad_spn.as_str(), "final_spn"),
        (8, reason, reason_err),
        (1, "8", "seed 8 is not the batch seed 7"),
        (3, "greedy", "policies"),
        (0, "30", "game 30 where game 27 was expected"),
    ] {
        if col == 16 && value == bad_spn && row[9] == row[10] {
            continue; // Equal piles: swapping them changes nothing.
        }
        d.write("s2.csv", edit(&s2, 5, col, value));
        let err = merge(&d, &["s1.csv", "s2.csv", "s3.csv", "s4.csv"]);
        assert!(err.contains("s2.csv:5: ") && err.contains(want), "column {col} = {value}: {err}");
        assert!(!d.exists("m.csv") && !d.exists("m.csv.partial"), "a failed merge left {:?}", d.names());
    }
}

#[test]
fn resume_proves_it_continues_the_same_batch() {
    let d = TempDir::new("resume");
    ok(&d.0, &selfplay(&["--out", "g.csv", "--moves", "m.csv"]));
    let (games, moves) = (d.read("g.csv"), d.read("m.csv"));
    // Another --games: refused, nothing touched (was: "played 18446744073709551566 games").
    let err = fails(&d.0, &["selfplay", "--games", "50", "--seed", "7", "--summary", "", "--out", "g.csv", "--resume"]);
    assert!(err.contains("games=100") && err.contains("games=50") && err.contains("another batch"), "{err}");
    assert_eq!(d.read("g.csv"), games);
    // The moves file carries the identity too.
    assert!(moves.starts_with(&games[..games.iter().position(|&b| b == b'\n').unwrap()]));
    // --resume with a new --out never rewrites another run's moves file.
    let err = fails(&d.0, &selfplay(&["--out", "new.csv", "--moves", "m.csv", "--resume"]));
    assert!(err.contains("m.csv") && err.contains("belongs to another run"), "{err}");
    assert_eq!(d.read("m.csv"), moves);
    assert!(!d.exists("new.csv") && !d.exists("new.csv.partial"), "{:?}", d.names());
    // A moves file of another batch next to this batch's games file.
    ok(
        &d.0,
        &[
            "selfplay",
            "--games",
            "100",
            "--seed",
            "9",
            "--quiet",
            "--summary",
            "",
            "--out",
            "o.csv",
            "--moves",
            "om.csv",
        ],
    );
    d.write("g.csv", &games[..games.len() / 2]);
    let err = fails(&d.0, &selfplay(&["--out", "g.csv", "--moves", "om.csv", "--resume"]));
    assert!(err.contains("om.csv") && err.contains("seed=9"), "{err}");
    // The right moves file: the run completes both files exactly.
    ok(&d.0, &selfplay(&["--out", "g.csv", "--moves", "m.csv", "--resume"]));
    assert_eq!(d.read("g.csv"), games);
    assert_eq!(d.read("m.csv"), moves);
    // A file of an older senat (no identity line) is not continued.
    d.write("old.csv", games.split(|&b| b == b'\n').skip(1).collect::<Vec<_>>().join(&b'\n'));
    let err = fails(&d.0, &selfplay(&["--out", "old.csv", "--resume"]));
    assert!(err.contains("no batch identity line"), "{err}");
}

#[test]
fn resume_refuses_changed_weights() {
    let d = TempDir::new("weights");
    d.write("w.txt", "pile=12\n");
    let args =
        ["selfplay", "--games", "60", "--red", "heuristic:file=w.txt", "--summary", "", "--out", "h.csv", "--quiet"];
    ok(&d.0, &args);
    let games = d.text("h.csv");
    assert!(games.lines().next().unwrap().contains("red_weights=fnv1a64:"), "{games}");
    d.write("h.csv", &games[..games.len() / 2]);
    d.write("w.txt", "pile=13\n");
    let err = fails(&d.0, &[&args[..], &["--resume"]].concat());
    assert!(err.contains("red_weights=fnv1a64:") && err.contains("another batch"), "{err}");
    // The weights file is an input: it cannot be an output.
    let err = fails(
        &d.0,
        &["selfplay", "--games", "6", "--red", "heuristic:file=w.txt", "--summary", "", "--out", "w.txt", "--force"],
    );
    assert!(err.contains("name the same file"), "{err}");
    assert_eq!(d.read("w.txt"), b"pile=13\n");
}

#[test]
fn two_roles_never_name_one_file() {
    let d = TempDir::new("alias");
    shards(&d);
    let s1 = d.read("s1.csv");
    for args in [
        vec!["merge", "--force", "--out", "./s1.csv", "--summary", "", "s1.csv", "s2.csv", "s3.csv", "s4.csv"],
        vec!["merge", "--force", "--out", "m.csv", "--summary", "s1.csv", "s1.csv", "s2.csv", "s3.csv", "s4.csv"],
        vec!["selfplay", "--games", "10", "--force", "--out", "a.csv", "--moves", "./a.csv", "--summary", ""],
        vec!["selfplay", "--games", "10", "--force", "--out", "a.csv", "--summary", "a.csv"],
        vec!["arena", "random", "greedy", "--games", "2", "--force", "--out", "a.csv", "--summary", "./a.csv"],
    ] {
        let err = fails(&d.0, &args);
        assert!(err.contains("name the same file"), "{args:?}: {err}");
    }
    // A symbolic link and a hard link to an input.
    std::os::unix::fs::symlink("s1.csv", d.0.join("link.csv")).unwrap();
    std::fs::hard_link(d.0.join("s1.csv"), d.0.join("hard.csv")).unwrap();
    for out in ["link.csv", "hard.csv"] {
        let err =
            fails(&d.0, &["merge", "--force", "--out", out, "--summary", "", "s1.csv", "s2.csv", "s3.csv", "s4.csv"]);
        assert!(err.contains("name the same file"), "{out}: {err}");
    }
    assert_eq!(d.read("s1.csv"), s1, "an input was touched");
    assert!(!d.exists("a.csv") && !d.exists("m.csv"));
    // Writing through a symbolic link replaces the file it points to, not the link.
    std::os::unix::fs::symlink("target.csv", d.0.join("out-link.csv")).unwrap();
    d.write("target.csv", "old\n");
    ok(
        &d.0,
        &[
            "merge",
            "--quiet",
            "--force",
            "--out",
            "out-link.csv",
            "--summary",
            "",
            "s1.csv",
            "s2.csv",
            "s3.csv",
            "s4.csv",
        ],
    );
    assert_eq!(d.read("target.csv"), d.read("all.csv"));
    assert!(std::fs::symlink_metadata(d.0.join("out-link.csv")).unwrap().file_type().is_symlink());
}

#[test]
fn a_second_run_on_the_same_output_is_refused() {
    let d = TempDir::new("lock");
    let mut first = crate::support::cli::bin()
        .current_dir(&d.0)
        .args(["selfplay", "--games", "100000000", "--threads", "1", "--quiet", "--summary", "", "--out", "g.csv"])
        .spawn()
        .expect("the senat binary runs");
    // Its identity line is written once it holds the lock.
    let size = || std::fs::metadata(d.0.join("g.csv.partial")).map_or(0, |m| m.len());
    wait_for("the first run's temporary file", || size() > 0);
    let second = crate::support::cli::senat_in(
        &d.0,
        &["selfplay", "--games", "10", "--force", "--summary", "", "--out", "g.csv"],
    );
    let resumed = crate::support::cli::senat_in(
        &d.0,
        &["selfplay", "--games", "100000000", "--resume", "--summary", "", "--out", "g.csv"],
    );
    // Without --force: the .partial is the first run's, not a leftover.
    let unforced =
        crate::support::cli::senat_in(&d.0, &["selfplay", "--games", "10", "--summary", "", "--out", "g.csv"]);
    first.kill().expect("kill");
    first.wait().expect("wait");
    for o in [second, resumed, unforced] {
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("being written by another running senat") && err.contains("g.csv"), "{err}");
    }
    assert!(!d.exists("g.csv"));
    // Once the first run is gone, the lock is free.
    ok(&d.0, &["selfplay", "--games", "10", "--force", "--quiet", "--summary", "", "--out", "g.csv"]);
}

#[test]
fn outputs_are_checked_before_the_first_game() {
    let d = TempDir::new("before");
    let start = std::time::Instant::now();
    // 100 million games would take minutes: the error must come first.
    d.write("afile", "");
    for summary in ["no/such/dir/s.csv", "afile/s.csv"] {
        let err = fails(&d.0, &["selfplay", "--games", "100000000", "--out", "g.csv", "--summary", summary]);
        assert!(err.contains(&format!("cannot create {summary}")), "{err}");
        assert_eq!(d.names(), ["afile"]);
    }
    let err = fails(&d.0, &["arena", "random", "greedy", "--games", "20000000", "--summary", "no/dir/s.csv"]);
    assert!(err.contains("cannot create no/dir/s.csv"), "{err}");
    assert!(start.elapsed().as_secs() < 20, "the errors came only after playing");
    // A full disk for the arena summary: exit 2, one line naming the file.
    let err = fails(&d.0, &["arena", "random", "greedy", "--games", "2", "--summary", "/dev/full"]);
    assert!(err.contains("cannot write /dev/full") && err.contains("No space left"), "{err}");
    // A leftover temporary file of a killed run is not overwritten without --force or --resume.
    d.write("k.csv.partial", "leftover\n");
    let err = fails(&d.0, &["selfplay", "--games", "10", "--summary", "", "--out", "k.csv"]);
    assert!(err.contains("k.csv.partial") && err.contains("--resume"), "{err}");
    assert_eq!(d.read("k.csv.partial"), b"leftover\n");
}

/// kill -9 in the middle of a merge leaves the old output (or none): the
/// rows go to `OUT.partial`, renamed only when all is checked.
#[test]
fn a_killed_merge_leaves_the_old_file_or_none() {
    let d = TempDir::new("killmerge");
    let base = ["selfplay", "--games", "20000", "--seed", "3", "--quiet", "--summary", ""];
    ok(&d.0, &[&base[..], &["--shard", "1/2", "--out", "a.csv"]].concat());
    ok(&d.0, &[&base[..], &["--shard", "2/2", "--out", "b.csv"]].concat());
    let size = |name: &str| std::fs::metadata(d.0.join(name)).map_or(0, |m| m.len());
    for old in [Some(&b"old\n"[..]), None] {
        if let Some(old) = old {
            d.write("m.csv", old);
        }
        std::fs::remove_file(d.0.join("m.csv.partial")).ok();
        let mut child = crate::support::cli::bin()
            .current_dir(&d.0)
            .args(["merge", "--force", "--quiet", "--out", "m.csv", "--summary", "ms.csv", "a.csv", "b.csv"])
            .spawn()
            .expect("the senat binary runs");
        wait_for("merged rows", || size("m.csv.partial") > 0);
        child.kill().expect("kill");
        child.wait().expect("wait");
        assert!(size("m.csv.partial") < size("a.csv") + size("b.csv"), "the merge had finished");
        match old {
            Some(old) => assert_eq!(d.read("m.csv"), old, "a killed merge changed the old file"),
            None => assert!(!d.exists("m.csv"), "a killed merge left a file under the final name"),
        }
        assert!(!d.exists("ms.csv"));
        std::fs::remove_file(d.0.join("m.csv")).ok();
    }
    // The leftover temporary file does not stop the next merge.
    ok(&d.0, &["merge", "--quiet", "--out", "m.csv", "--summary", "ms.csv", "a.csv", "b.csv"]);
    assert!(!d.exists("m.csv.partial"));
}

/// Every output of one command is committed together, after all were
/// written (issue 56): a summary that cannot be written (`/dev/full`)
/// fails `selfplay`, `merge` and `arena` of every game with the old games
/// and moves files in place.
#[test]
fn a_failed_output_leaves_every_old_output_in_every_game() {
    let d = TempDir::new("commitall");
    for game in ["senat", "focus", "focus4", "debacle", "dominoes"] {
        let play = |extra: &[&str]| {
            let base = ["selfplay", "--game", game, "--games", "4", "--seed", "3", "--quiet", "--summary", ""];
            ok(&d.0, &[&base[..], extra].concat());
        };
        play(&["--shard", "1/2", "--out", "s1.csv", "--force"]);
        play(&["--shard", "2/2", "--out", "s2.csv", "--force"]);
        let old = || {
            d.write("g.csv", "old games\n");
            d.write("m.csv", "old moves\n");
        };
        let kept = |what: &str| {
            assert_eq!(d.text("g.csv"), "old games\n", "{game} {what}: the games file was replaced");
            assert_eq!(d.text("m.csv"), "old moves\n", "{game} {what}: the moves file was replaced");
        };
        old();
        let full = ["--summary", "/dev/full", "--force", "--quiet"];
        let base = ["selfplay", "--game", game, "--games", "4", "--out", "g.csv", "--moves", "m.csv"];
        let err = fails(&d.0, &[&base[..], &full[..]].concat());
        assert!(err.contains("cannot write /dev/full"), "{game}: {err}");
        kept("selfplay");
        let err = fails(
            &d.0,
            &["merge", "--game", game, "--out", "g.csv", "s1.csv", "s2.csv", "--summary", "/dev/full", "--force"],
        );
        assert!(err.contains("cannot write /dev/full"), "{game}: {err}");
        kept("merge");
        let arena = ["arena", "--game", game, "random", "greedy", "--games", "2", "--out", "g.csv", "--moves", "m.csv"];
        let err = fails(&d.0, &[&arena[..], &full[..]].concat());
        assert!(err.contains("cannot write /dev/full"), "{game}: {err}");
        kept("arena");
    }
}

/// `convert` checks a batch file as `merge` and `--resume` read it (issue
/// 56, item 6), for every game: a games file cut mid-row, one missing its
/// header and one with an impossible row are refused, nothing written; the
/// whole games, moves and summary files convert.
#[test]
fn convert_refuses_cut_headerless_and_impossible_files_of_every_game() {
    let d = TempDir::new("convert-checks");
    for game in ["senat", "focus", "focus4", "debacle", "dominoes"] {
        let (g, mv, sum) = (format!("{game}.csv"), format!("{game}-mv.csv"), format!("{game}-sum.csv"));
        let args = ["selfplay", "--game", game, "--games", "5", "--seed", "3", "--quiet"];
        ok(&d.0, &[&args[..], &["--out", &g, "--moves", &mv, "--summary", &sum]].concat());
        for (input, out) in [(&g, "a.parquet"), (&mv, "b.parquet"), (&sum, "c.parquet")] {
            ok(&d.0, &["convert", input, "--out", out, "--force", "--quiet"]);
        }
        let text = d.text(&g);
        let lines: Vec<&str> = text.lines().collect();
        // A row whose first game index is changed: not game 0 of the batch.
        let impossible = format!("{}\n{}\n9{}\n", lines[0], lines[1], lines[2..].join("\n"));
        let headerless = format!("{}\n{}\n", lines[0], lines[2..].join("\n"));
        for (what, body, want) in [
            ("cut", text[..text.len() - 15].to_string(), "ends with an incomplete row"),
            ("headerless", headerless, "header"),
            ("impossible", impossible, ":3: "),
        ] {
            let name = format!("{game}-{what}.csv");
            d.write(&name, &body);
            let e = fails(&d.0, &["convert", &name, "--out", "x.parquet", "--quiet"]);
            let want = if game != "senat" && want == ":3: " { "line 3" } else { want };
            assert!(e.contains(&name) && e.contains(want), "{game} {what}: {e}");
            assert!(!d.exists("x.parquet"), "{game} {what}: nothing written");
        }
    }
}
