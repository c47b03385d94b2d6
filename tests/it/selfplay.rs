//! Self-play: reproducibility across threads and shards, resume after an
//! interruption, refusal to overwrite, clear errors, and the policies'
//! legality (every recorded game replays through the checked `GameRecord::play`),
//! batches with a time per move (recorded in the policy names) and split
//! `DRAFT>PLAY` policies.

use senat_lab::policy::{GameRng, PlayMoves, Turn, below, nth_draft_move, nth_move, nth_play_move, rng_from_seed};
use senat_lab::selfplay::{Matchup, play_game, push_move_text};
use senat_lab::stats::wilson;
use senat_rules::{GameRecord, Move, Position};
use std::collections::BTreeSet;
use std::path::Path;

use crate::support::cli::{fails_in as fails, ok_in as ok};
use crate::support::files::{TempDir, rows, wait_for};
use crate::support::games::spec;

const BATCH: [&str; 8] = ["selfplay", "--games", "400", "--seed", "7", "--red", "greedy", "--quiet"];

#[test]
fn threads_do_not_change_a_byte() {
    let d = TempDir::new("threads");
    let one = [&BATCH[..], &["--threads", "1", "--out", "g1.csv", "--summary", "s1.csv", "--moves", "m1.csv"]].concat();
    let two = [&BATCH[..], &["--threads", "2", "--out", "g2.csv", "--summary", "s2.csv", "--moves", "m2.csv"]].concat();
    ok(&d.0, &one);
    ok(&d.0, &two);
    assert_eq!(d.read("g1.csv"), d.read("g2.csv"), "games files differ between 1 and 2 threads");
    assert_eq!(d.read("m1.csv"), d.read("m2.csv"), "moves files differ between 1 and 2 threads");
    assert_eq!(d.read("s1.csv"), d.read("s2.csv"), "summaries differ between 1 and 2 threads");
    let games = String::from_utf8(d.read("g1.csv")).expect("UTF-8");
    assert_eq!(games.lines().count(), 402);
    assert!(games.starts_with(
        "# senat-batch v2 game=senat variant=- seed=7 games=400 shard=1/1 range=0..400 red=greedy red_weights=- "
    ));
    assert!(games.lines().nth(1).unwrap().starts_with("game,seed,game_seed,red,blue,"));
    assert!(String::from_utf8(d.read("m1.csv")).unwrap().starts_with(games.lines().next().unwrap()));
}

#[test]
fn shards_merge_into_the_unsharded_run() {
    let d = TempDir::new("shards");
    ok(&d.0, &[&BATCH[..], &["--out", "all.csv", "--summary", "all-s.csv"]].concat());
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let out = format!("shard{k}.csv");
        ok(&d.0, &[&BATCH[..], &["--shard", &shard, "--out", &out, "--summary", ""]].concat());
    }
    // In any order on the command line.
    ok(
        &d.0,
        &[
            "merge",
            "--quiet",
            "--out",
            "merged.csv",
            "--summary",
            "merged-s.csv",
            "shard3.csv",
            "shard1.csv",
            "shard2.csv",
        ],
    );
    assert_eq!(d.read("all.csv"), d.read("merged.csv"));
    assert_eq!(d.read("all-s.csv"), d.read("merged-s.csv"));
    // The merge reports the batch's distinct games and draft openings, as
    // the unsharded run does.
    let whole = ok(
        &d.0,
        &["selfplay", "--games", "400", "--seed", "7", "--red", "greedy", "--out", "again.csv", "--summary", ""],
    );
    let merged = ok(&d.0, &["merge", "--out", "m2.csv", "--summary", "", "shard2.csv", "shard1.csv", "shard3.csv"]);
    for what in ["distinct games:", "distinct draft openings"] {
        let line = |out: &str| out.lines().find(|l| l.starts_with(what)).map(str::to_string);
        assert!(line(&whole).is_some(), "{whole}");
        assert_eq!(line(&merged), line(&whole), "{merged}");
    }
    // A missing shard is an error, naming the missing games.
    let err = fails(&d.0, &["merge", "--out", "bad.csv", "--summary", "", "shard1.csv", "shard3.csv"]);
    assert!(err.contains("missing"), "{err}");
}

#[test]
fn files_with_a_v1_identity_resume_and_merge() {
    // Files written before the v2 identity line (`# senat-batch v1 seed=…`,
    // no `game=`/`variant=`): a resume continues them under their own line,
    // and a merge of v1 and v2 shards of one batch writes the v2 file.
    let d = TempDir::new("v1-identity");
    let to_v1 = |text: String| {
        let v1 = text.replacen("# senat-batch v2 game=senat variant=- ", "# senat-batch v1 ", 1);
        assert_ne!(v1, text, "the file did not start with a v2 line for the rules: {text}");
        v1
    };
    ok(&d.0, &[&BATCH[..], &["--out", "all.csv", "--summary", ""]].concat());
    let old = to_v1(d.text("all.csv"));
    d.write("old.csv", &old[..old.len() / 2]);
    ok(&d.0, &[&BATCH[..], &["--out", "old.csv", "--summary", "", "--resume"]].concat());
    assert_eq!(d.text("old.csv"), old, "a v1 file resumed under its own line, rows unchanged");
    ok(&d.0, &[&BATCH[..], &["--shard", "1/2", "--out", "s1.csv", "--summary", ""]].concat());
    ok(&d.0, &[&BATCH[..], &["--shard", "2/2", "--out", "s2.csv", "--summary", ""]].concat());
    d.write("s1.csv", to_v1(d.text("s1.csv")));
    ok(&d.0, &["merge", "--quiet", "s1.csv", "s2.csv", "--out", "m.csv", "--summary", ""]);
    assert_eq!(d.text("m.csv"), d.text("all.csv"), "v1 and v2 shards merge into the v2 file");
}

/// Under swap=yes (random drafts red and decides, so it swaps about half
/// the time): the games rows end with a `swapped` column, the summary counts
/// wins by agent and the swaps; a cut file resumes and two shards merge
/// into the whole batch, byte for byte; a row whose `swapped` contradicts
/// its final position is refused.
#[test]
fn swap_batches_resume_and_merge() {
    let d = TempDir::new("swap");
    let batch =
        ["selfplay", "--variant", "swap=yes", "--games", "60", "--seed", "4", "--red", "random", "--blue", "learned"];
    let run = |more: &[&str]| ok(&d.0, &[&batch[..], &["--quiet"], more].concat());
    run(&["--out", "all.csv", "--summary", "all-s.csv"]);
    let games = d.text("all.csv");
    assert!(games.lines().nth(1).unwrap().ends_with(",final_spn,swapped"), "{games}");
    let swapped = games.lines().skip(2).filter(|l| l.ends_with(",1")).count();
    assert!(swapped > 10 && swapped < 50 && games.lines().skip(2).all(|l| l.ends_with(",0") || l.ends_with(",1")));
    let summary = d.text("all-s.csv");
    assert!(summary.contains(&format!("random,learned,random,learned,swaps,{swapped},,")), "{summary}");
    assert!(summary.contains(",red_agent_share,") && summary.contains(",swap_share,"), "{summary}");
    d.write("cut.csv", &games[..games.len() / 2]);
    run(&["--out", "cut.csv", "--summary", "cut-s.csv", "--resume"]);
    assert_eq!(d.text("cut.csv"), games, "resumed");
    assert_eq!(d.text("cut-s.csv"), summary);
    run(&["--shard", "1/2", "--out", "s1.csv", "--summary", ""]);
    run(&["--shard", "2/2", "--out", "s2.csv", "--summary", ""]);
    ok(&d.0, &["merge", "--quiet", "s2.csv", "s1.csv", "--out", "m.csv", "--summary", "m-s.csv"]);
    assert_eq!(d.text("m.csv"), games, "merged");
    assert_eq!(d.text("m-s.csv"), summary);
    let row = d.text("s1.csv").lines().nth(2).unwrap().to_string();
    let flipped = format!("{}{}", &row[..row.len() - 1], if row.ends_with('1') { '0' } else { '1' });
    d.write("s1.csv", d.text("s1.csv").replacen(&row, &flipped, 1));
    let err = fails(&d.0, &["merge", "s1.csv", "s2.csv", "--out", "bad.csv", "--summary", ""]);
    assert!(err.contains("final_spn"), "{err}");
}

#[test]
fn resume_continues_an_interrupted_run_exactly() {
    let d = TempDir::new("resume");
    let args = |out: &str, moves: &str| -> Vec<String> {
        [&BATCH[..], &["--out", out, "--moves", moves, "--summary", &format!("{out}.sum")]]
            .concat()
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    let full = args("full.csv", "full-m.csv");
    ok(&d.0, &full.iter().map(String::as_str).collect::<Vec<_>>());
    let games = d.read("full.csv");
    let moves = d.read("full-m.csv");
    // Interrupted in the middle of a row, with the moves file ahead (it is written first).
    for (g_cut, m_cut) in [(games.len() / 3 + 7, moves.len() / 2 + 3), (10, 5), (games.len(), moves.len())] {
        std::fs::write(d.0.join("cut.csv"), &games[..g_cut]).unwrap();
        std::fs::write(d.0.join("cut-m.csv"), &moves[..m_cut.max(g_cut.min(moves.len()))]).unwrap();
        // Without --resume or --force the files are left alone.
        let mut again = args("cut.csv", "cut-m.csv");
        let err = fails(&d.0, &again.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(err.contains("already exists") && err.contains("--resume"), "{err}");
        again.push("--resume".into());
        ok(&d.0, &again.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(d.read("cut.csv"), games, "resumed games file differs (cut at {g_cut})");
        assert_eq!(d.read("cut-m.csv"), moves, "resumed moves file differs (cut at {g_cut})");
        assert_eq!(d.read("cut.csv.sum"), d.read("full.csv.sum"));
    }
    // Resuming with another seed is refused.
    let mut other = args("cut.csv", "cut-m.csv");
    assert_eq!(other[3], "--seed");
    other[4] = "8".into();
    other.push("--resume".into());
    std::fs::write(d.0.join("cut.csv"), &games[..games.len() / 2]).unwrap();
    let err = fails(&d.0, &other.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(err.contains("seed"), "{err}");
}

#[test]
fn bad_arguments_get_one_clear_line() {
    let d = TempDir::new("errors");
    let err = fails(&d.0, &["selfplay", "--red", "minimax"]);
    assert!(err.contains("unknown policy `minimax`") && err.contains("(policies: random, greedy, heuristic"), "{err}");
    let err = fails(&d.0, &["selfplay", "--blue", "heuristic:pile=abc"]);
    assert!(err.contains("pile") && err.contains("not a finite number"), "{err}");
    let err = fails(&d.0, &["selfplay", "--blue", "heuristic:bogus=1"]);
    assert!(err.contains("unknown parameter `bogus`") && err.contains("keys of `heuristic`: pile,"), "{err}");
    let err = fails(&d.0, &["selfplay", "--red", "greedy:x=1"]);
    assert!(err.contains("takes no parameters"), "{err}");
    let err = fails(&d.0, &["selfplay", "--shard", "3/2"]);
    assert!(err.contains("1 <= K <= N"), "{err}");
    let err = fails(&d.0, &["selfplay", "--games", "0"]);
    assert!(err.contains("--games 0"), "{err}");
    let err = fails(&d.0, &["selfplay", "--games", "10", "--out", "no/such/dir/g.csv", "--summary", ""]);
    assert!(err.contains("cannot create no/such/dir/g.csv"), "{err}");
    // Nothing was created by the failed runs.
    assert_eq!(std::fs::read_dir(&d.0).unwrap().count(), 0);
    // An existing file is never overwritten without --force.
    std::fs::write(d.0.join("games.csv"), "precious\n").unwrap();
    let err = fails(&d.0, &["selfplay", "--games", "10"]);
    assert!(err.contains("games.csv already exists") && err.contains("--force"), "{err}");
    assert_eq!(d.read("games.csv"), b"precious\n");
    ok(&d.0, &["selfplay", "--games", "10", "--force", "--quiet"]);
    assert!(d.read("games.csv").starts_with(b"# senat-batch v2 "));
}

/// A full disk (`/dev/full`, which every Linux has) is reported naming the
/// file; special files are written directly.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_reported() {
    assert!(Path::new("/dev/full").exists(), "/dev/full is missing: this Linux cannot test a full disk");
    let d = TempDir::new("full");
    let err = fails(&d.0, &["selfplay", "--games", "50", "--out", "/dev/full", "--summary", ""]);
    assert!(err.contains("cannot write /dev/full") && err.contains("No space left"), "{err}");
    let err = fails(&d.0, &["selfplay", "--games", "50", "--out", "g.csv", "--summary", "/dev/full"]);
    assert!(err.contains("cannot write /dev/full") && err.contains("No space left"), "{err}");
    // A device that takes everything is fine, without --force.
    ok(&d.0, &["selfplay", "--games", "50", "--out", "/dev/null", "--summary", "", "--quiet"]);
}

/// Every game of every policy replays through the checked `GameRecord::play`, and
/// ends with the outcome `GameRecord` itself finds.
#[test]
fn policies_play_legal_games() {
    for (red, blue) in [("random", "greedy"), ("heuristic", "random"), ("greedy", "heuristic:pile=3,exposed=-2")] {
        let m = Matchup { red: spec(red), blue: spec(blue), draft_red: spec(red), draft_blue: spec(blue) };
        for i in 0..40 {
            let g = play_game(&m, 3, i);
            let mut replay = GameRecord::new(Position::start());
            for &mv in g.game.moves() {
                replay.play(mv).unwrap_or_else(|e| panic!("{red} vs {blue}, game {i}: {mv}: {e}"));
            }
            assert_eq!(replay.outcome(), Some(g.outcome), "{red} vs {blue}, game {i}");
            assert_eq!(g.draft_len, 46);
        }
    }
}

/// `nth_move` enumerates exactly the legal moves, and the fast move text is `Display`'s.
#[test]
fn nth_move_covers_the_legal_moves() {
    let mut rng: GameRng = rng_from_seed(11);
    for _ in 0..60 {
        let mut game = GameRecord::new(Position::start());
        while game.outcome().is_none() {
            let p = *game.position();
            let n = p.count_moves();
            let by_index: Vec<Move> = (0..n).map(|k| nth_move(&p, k).expect("k < count")).collect();
            let legal: BTreeSet<Move> = p.legal_moves().iter().copied().collect();
            assert_eq!(by_index.iter().copied().collect::<BTreeSet<_>>(), legal, "{}", p.to_spn());
            assert_eq!(by_index.len(), legal.len());
            if !p.is_play() {
                let fast: Vec<Move> = (0..n).map(|k| nth_draft_move(&p, k).expect("k < count")).collect();
                assert_eq!(fast, by_index, "{}", p.to_spn());
                assert_eq!(nth_draft_move(&p, n), None);
            }
            if p.is_play() {
                let fast: Vec<Move> = (0..n).map(|k| nth_play_move(&p, k).expect("k < count")).collect();
                assert_eq!(fast.iter().copied().collect::<BTreeSet<_>>(), legal, "{}", p.to_spn());
                assert_eq!(fast.len(), n);
                assert_eq!(nth_play_move(&p, n), None);
                assert_eq!(PlayMoves::new(&p).len(), n);
            }
            for &m in &by_index {
                let mut text = Vec::new();
                push_move_text(&mut text, m);
                assert_eq!(String::from_utf8(text).unwrap(), m.to_string());
            }
            let turn = Turn::new(&game);
            assert_eq!(turn.legal, n);
            let m = by_index[below(&mut rng, n)];
            game.play_unchecked(m);
        }
    }
}

#[test]
fn wilson_interval_matches_known_values() {
    // 50 of 100: [0.4038, 0.5962].
    let (lo, hi) = wilson(50, 100);
    assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4, "{lo} {hi}");
    let (lo, hi) = wilson(0, 10);
    assert_eq!(lo, 0.0);
    assert!((hi - 0.2775).abs() < 1e-4, "{hi}");
}

/// A run killed (SIGKILL) at several points, its resumed run killed too,
/// leaves no partial `--out` file, only `killed.csv.partial` with complete
/// rows (at worst a cut-off last row); `--resume` continues it to the file of
/// an uninterrupted run. Each kill is checked to have landed mid-run.
#[test]
fn a_killed_run_resumes_without_loss_or_duplicate() {
    let d = TempDir::new("kill");
    let base = ["selfplay", "--games", "30000", "--seed", "5", "--quiet", "--threads", "2", "--summary", ""];
    ok(&d.0, &[&base[..], &["--out", "full.csv"]].concat());
    let full = d.read("full.csv");
    let partial = d.0.join("killed.csv.partial");
    let spawn = |extra: &[&str]| {
        crate::support::cli::bin()
            .current_dir(&d.0)
            .args([&base[..], &["--out", "killed.csv"], extra].concat())
            .spawn()
            .expect("the senat binary runs")
    };
    let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
    // 1: as soon as the temporary file exists (before or around the first rows).
    let mut child = spawn(&[]);
    wait_for("the temporary file", || partial.exists());
    child.kill().expect("kill");
    child.wait().expect("wait");
    assert!(!d.exists("killed.csv"), "a killed run left a file under the final name");
    let first = rows(&std::fs::read(&partial).unwrap());
    assert!(first < 30000, "the run had finished when it was killed");
    // 2: resumed, then killed again once it has written more rows.
    let mut child = spawn(&["--resume"]);
    let before = size(&partial);
    wait_for("more rows", || size(&partial) > before.max(1000));
    child.kill().expect("kill");
    child.wait().expect("wait");
    let bytes = std::fs::read(&partial).unwrap();
    assert!(!d.exists("killed.csv"), "a killed run left a file under the final name");
    assert!(rows(&bytes) > 0 && rows(&bytes) < 30000, "killed mid-run: {} rows of 30000", rows(&bytes));
    // 3: resumed to the end: the file of the uninterrupted run.
    ok(&d.0, &[&base[..], &["--out", "killed.csv", "--resume"]].concat());
    assert!(!partial.exists());
    assert_eq!(d.read("killed.csv"), full, "killed twice and resumed");
}

#[test]
fn time_per_move_batches_record_the_time_and_are_never_mixed() {
    let d = TempDir::new("movetime");
    let base = ["selfplay", "--games", "2", "--red", "mcts", "--blue", "ab:depth=4", "--threads", "2", "--quiet"];
    let timed = [&base[..], &["--time-per-move", "5", "--out", "g.csv", "--summary", "s.csv"]].concat();
    ok(&d.0, &timed);
    let games = d.text("g.csv");
    let identity = games.lines().next().unwrap();
    for field in [
        " red=mcts:movetime=5 ",
        " blue=ab:depth=4,movetime=5 ",
        " draft_red=mcts:movetime=5 ",
        " draft_blue=ab:depth=4,movetime=5 ",
    ] {
        assert!(identity.contains(field), "{identity}");
    }
    assert_eq!(games.lines().count(), 4, "identity, header, 2 games");
    let row = games.lines().nth(2).unwrap();
    assert!(row.contains(r#",mcts:movetime=5,"ab:depth=4,movetime=5","#), "rows name the timed policies: {row}");
    assert!(d.text("s.csv").contains("mcts:movetime=5"));
    // Another time is another batch: resuming or merging with it is refused.
    let other = [&base[..], &["--time-per-move", "6", "--out", "g.csv", "--summary", "s.csv", "--resume"]].concat();
    let err = fails(&d.0, &other);
    assert!(
        err.contains("another batch") && err.contains("mcts:movetime=5") && err.contains("mcts:movetime=6"),
        "{err}"
    );
    // Non-searching policies ignore it; a movetime= in a spec wins.
    let plain = ["selfplay", "--games", "2", "--red", "random>ab:movetime=3", "--blue", "greedy", "--quiet"];
    ok(&d.0, &[&plain[..], &["--time-per-move", "7", "--out", "p.csv", "--summary", ""]].concat());
    let identity = d.text("p.csv").lines().next().unwrap().to_string();
    assert!(identity.contains(" red=random>ab:movetime=3 ") && identity.contains(" blue=greedy "), "{identity}");
    let err = fails(&d.0, &["selfplay", "--time-per-move", "0"]);
    assert!(err.contains("--time-per-move 0: expected milliseconds per move in 1..=600000"), "{err}");
    let err = fails(&d.0, &["selfplay", "--red", "heuristic>mcts:bogus=1"]);
    assert!(err.contains("--red: policy `heuristic>mcts:bogus=1`: the play policy (after `>`)"), "{err}");
}

#[test]
fn split_specs_play_batches_without_a_time() {
    // Without a time, a split batch is a function of its seed like any other.
    let d = TempDir::new("split");
    let args = ["selfplay", "--games", "20", "--red", "random>heuristic", "--blue", "heuristic", "--quiet"];
    ok(&d.0, &[&args[..], &["--threads", "1", "--out", "a.csv", "--summary", ""]].concat());
    ok(&d.0, &[&args[..], &["--threads", "2", "--out", "b.csv", "--summary", ""]].concat());
    assert_eq!(d.read("a.csv"), d.read("b.csv"));
    assert!(d.text("a.csv").starts_with(
        "# senat-batch v2 game=senat variant=- seed=1 games=20 shard=1/1 range=0..20 red=random>heuristic "
    ));
}

#[test]
fn the_summary_is_short_unless_asked_and_the_last_line_names_every_file() {
    let d = TempDir::new("short-summary");
    let base = ["selfplay", "--games", "50", "--seed", "3", "--out", "g.csv", "--force"];
    let is_bin = |l: &&str| l.split_whitespace().next().is_some_and(|w| w.contains('-') && w.ends_with('9'));
    let short = ok(&d.0, &[&base[..], &["--moves", "m.csv", "--summary", "s.csv"]].concat());
    assert_eq!(short.lines().filter(is_bin).count(), 0, "no histogram by default:\n{short}");
    assert_eq!(short.lines().last(), Some("wrote games g.csv, moves m.csv, summary s.csv"), "{short}");
    let long = ok(&d.0, &[&base[..], &["--summary", "", "--histogram"]].concat());
    assert!(long.lines().filter(is_bin).count() >= 5, "the histogram with --histogram:\n{long}");
    assert_eq!(long.lines().last(), Some("wrote games g.csv"), "{long}");
    // merge: the same table and last line; --histogram refused for another game.
    let merged = ok(&d.0, &["merge", "g.csv", "--out", "all.csv", "--summary", "", "--force"]);
    assert_eq!(merged.lines().filter(is_bin).count(), 0, "{merged}");
    assert_eq!(merged.lines().last(), Some("wrote games all.csv"), "{merged}");
    ok(&d.0, &["selfplay", "--game", "focus", "--games", "2", "--out", "f.csv", "--summary", ""]);
    let e = fails(&d.0, &["merge", "f.csv", "--out", "f2.csv", "--summary", "", "--histogram"]);
    assert!(e.contains("--histogram is for Sénat"), "{e}");
}

/// `scripts/slurm-selfplay.sh` passes each extra argument whole (issue 56):
/// a weights file in a folder with a blank, through a stand-in `sbatch`
/// that runs the shard and merge jobs at once.
#[test]
fn the_slurm_script_keeps_blanks_in_extra_arguments() {
    let d = TempDir::new("slurm-blanks");
    std::fs::create_dir_all(d.0.join("w dir")).unwrap();
    d.write("w dir/w.txt", "pile=12\n");
    d.write(
        "sbatch",
        "#!/usr/bin/env bash\n\
         # A stand-in: runs the array's tasks, or the merge, now; prints a job id.\n\
         script=${!#}; array=\"\"\n\
         for a in \"$@\"; do case $a in --array=*) array=${a#--array=1-} ;; esac; done\n\
         if [ -n \"$array\" ]; then\n\
         for k in $(seq 1 \"$array\"); do SENAT_MODE=shard SLURM_ARRAY_TASK_ID=$k bash \"$script\" >&2 || exit 1; done\n\
         echo 11\n\
         else SENAT_MODE=merge bash \"$script\" >&2 || exit 1; echo 12; fi\n",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(d.0.join("sbatch"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/slurm-selfplay.sh");
    let weights = format!("heuristic:file={}", d.0.join("w dir/w.txt").display());
    let path = format!("{}:{}", d.0.display(), std::env::var("PATH").unwrap_or_default());
    let o = std::process::Command::new("bash")
        .current_dir(&d.0)
        .env("PATH", path)
        .args([script, "-n", "2", "-g", "6", "-o", "out", "-b", env!("CARGO_BIN_EXE_senat"), "--", "--red", &weights])
        .output()
        .expect("bash runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "11 12");
    let games = d.text("out/games.csv");
    assert!(games.contains("w dir/w.txt"), "{}", games.lines().next().unwrap_or(""));
}
