//! `senat train-net` through the binary: a tiny run writes a weights file
//! with a network that `learned:file=` and `ab:file=` read (Focus's:
//! `mcts:file=` of that game only), refuses to overwrite it without
//! `--force`, and refuses bad flags in one line.

use crate::support::cli::{fails, ok};
use crate::support::files::TempDir;

#[test]
fn a_tiny_run_writes_weights_the_agents_read_and_keeps_them() {
    let dir = TempDir::new("train-net");
    let out = dir.0.join("net.txt");
    let out_text = out.display().to_string();
    let args = ["train-net", "--games", "200", "--epochs", "2", "--hidden", "4", "--seed", "3", "--out", &out_text];
    let printed = ok(&args);
    assert!(printed.contains("training samples"), "{printed}");
    assert_eq!(printed.lines().filter(|l| l.trim_start().starts_with(['0', '1', '2'])).count(), 3, "{printed}");
    let text = dir.text("net.txt");
    assert!(text.contains("net.hidden=4"), "{text}");
    assert!(text.contains("senat train-net --games 200 --seed 3"), "the header gives the command: {text}");
    let again = fails(&args);
    assert!(again.contains("--force"), "{again}");
    assert_eq!(dir.text("net.txt"), text, "the refused run left the file alone");
    for agent in [format!("learned:file={out_text}"), format!("ab:depth=1,file={out_text}")] {
        let played = ok(&["arena", "learned", &agent, "--games", "4", "--draft", "own", "--seed", "1"]);
        assert!(played.contains("played 4 games"), "{agent}: {played}");
    }
}

#[test]
fn a_round_continues_from_the_last_network_and_says_where_it_came_from() {
    let dir = TempDir::new("train-net-rounds");
    let (one, two) = (dir.0.join("one.txt").display().to_string(), dir.0.join("two.txt").display().to_string());
    ok(&["train-net", "--games", "100", "--epochs", "1", "--hidden", "4", "--seed", "3", "--out", &one]);
    let generator = format!("learned:file={one}");
    let args =
        ["train-net", "--games", "100", "--epochs", "2", "--seed", "4", "--generator", &generator, "--start", &one];
    let printed = ok(&[&args[..], &["--keep-net", "--lr-final", "0.0001", "--out", &two]].concat());
    assert!(printed.contains("weights written"), "{printed}");
    let text = dir.text("two.txt");
    assert!(text.contains("net.hidden=4"), "the start's network's size: {text}");
    assert!(text.contains("--lr-final 0.0001"), "{text}");
    assert!(text.contains(&format!("--start {one} --keep-net")), "{text}");
    assert!(text.contains("# --generator reads weights fnv1a64:"), "{text}");
    assert!(text.contains("# Start: Produced by: senat train-net --games 100 --seed 3"), "{text}");
    let e = fails(&[&args[..], &["--keep-net", "--hidden", "8", "--out", &two, "--force"]].concat());
    assert!(e.contains("--keep-net keeps the 4 hidden units"), "{e}");
    let e = fails(&["train-net", "--start", &one, "--out", &two, "--force", "--keep-net", "--games", "5"]);
    assert!(e.contains("--games must be within"), "{e}");
}

#[test]
fn bad_flags_are_refused_in_one_line() {
    let dir = TempDir::new("train-net-bad");
    let out = dir.0.join("net.txt").display().to_string();
    for (flag, value, said) in [
        ("--hidden", "0", "--hidden must be within 1"),
        ("--games", "5", "--games must be within 10"),
        ("--sample", "1.5", "--sample must be within 0 and 1"),
        ("--generator", "mcst", "mcst"),
        ("--lr-final", "2", "--lr-final must be within 0 and 1"),
        ("--l2", "2", "--l2 must be within 0 and 1"),
    ] {
        let e = fails(&["train-net", flag, value, "--out", &out]);
        assert!(e.contains(said), "{flag} {value}: {e}");
        assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    }
    assert!(!dir.exists("net.txt"));
}

#[test]
fn focus_trains_with_the_same_trainer_and_its_agents_read_the_file() {
    let dir = TempDir::new("train-net-focus");
    let out = dir.0.join("focus.txt").display().to_string();
    let args = [
        "train-net",
        "--game",
        "focus",
        "--variant",
        "cap=80",
        "--games",
        "40",
        "--sample",
        "0.2",
        "--epochs",
        "2",
        "--hidden",
        "4",
        "--label",
        "ab:depth=1",
        "--seed",
        "3",
        "--out",
        &out,
    ];
    let printed = ok(&args);
    assert!(printed.contains("training samples"), "{printed}");
    let text = dir.text("focus.txt");
    assert!(text.contains("\ngame=focus\n") && text.contains("net.hidden=4"), "{text}");
    assert!(text.contains("senat train-net --game focus --variant 'cap=80' --games 40 --seed 3"), "{text}");
    assert!(text.contains("linear.stacks="), "{text}");
    let agent = format!("mcts:playouts=20,prior=500,file={out}");
    let played = ok(&["arena", "--game", "focus", "--variant", "cap=80", &agent, "greedy", "--games", "2"]);
    assert!(played.contains("played 2 games"), "{played}");
    let e = fails(&["arena", "--game", "debacle", &agent, "greedy", "--games", "2"]);
    assert!(e.contains("--agent 1") && e.contains("the file is for game=focus, not debacle"), "{e}");
    let e = fails(&["arena", "--game", "focus", &format!("learned:file={out}"), "greedy", "--games", "2"]);
    assert!(e.contains("learned"), "{e}");
    let e = fails(&["train-net", "--variant", "closure=40", "--out", &dir.0.join("x.txt").display().to_string()]);
    assert!(e.contains("standard rules"), "{e}");
    let e = fails(&[
        "train-net",
        "--game",
        "focus",
        "--label",
        "greedy",
        "--out",
        &dir.0.join("x.txt").display().to_string(),
    ]);
    assert!(e.contains("gives no value"), "{e}");
    let e = fails(&[
        "train-net",
        "--game",
        "focus",
        "--start",
        &out,
        "--keep-net",
        "--hidden",
        "8",
        "--out",
        &dir.0.join("x.txt").display().to_string(),
    ]);
    assert!(e.contains("--keep-net keeps the 4 hidden units"), "{e}");
}

#[test]
fn tune_fits_the_terms_of_focus_and_alpha_beta_reads_them() {
    let dir = TempDir::new("tune-focus");
    let out = dir.0.join("tuned.txt").display().to_string();
    let printed =
        ok(&["tune", "--game", "focus", "--variant", "cap=80", "--games", "40", "--seed", "2", "--out", &out]);
    assert!(printed.contains("weights written"), "{printed}");
    let text = dir.text("tuned.txt");
    assert!(text.contains("senat tune --game focus --variant 'cap=80' --games 40 --seed 2"), "{text}");
    assert!(text.contains("with no network") && text.contains("net.hidden=1\n"), "{text}");
    assert!(!text.contains("net.w1."), "a zero network writes no input rows: {text}");
    let agent = format!("ab:depth=1,file={out}");
    let played = ok(&["arena", "--game", "focus", "--variant", "cap=80", &agent, "ab:depth=1", "--games", "2"]);
    assert!(played.contains("played 2 games"), "{played}");
    let e = fails(&["tune", "--game", "focus", "--rounds", "3", "--out", &dir.0.join("x.txt").display().to_string()]);
    assert!(e.contains("fits once"), "{e}");
    let e = fails(&["tune", "--variant", "closure=40", "--out", &dir.0.join("x.txt").display().to_string()]);
    assert!(e.contains("standard rules"), "{e}");
}

/// `--draft` trains Sénat's draft network on top of a play network and
/// keeps that network; `learned:file=` reads both; `tune --start` refits the
/// draft weights of a file with a network and refuses one with a draft
/// network; the other games have no draft.
#[test]
fn a_draft_network_trains_on_top_of_a_play_network_and_tune_starts_from_a_file() {
    let dir = TempDir::new("train-net-draft");
    let path = |n: &str| dir.0.join(n).display().to_string();
    let (play, tuned, draft) = (path("play.txt"), path("tuned.txt"), path("draft.txt"));
    ok(&["train-net", "--games", "100", "--epochs", "1", "--hidden", "8", "--seed", "3", "--out", &play]);
    let printed = ok(&["tune", "--start", &play, "--rounds", "1", "--games", "200", "--seed", "2", "--out", &tuned]);
    assert!(printed.contains("weights written"), "{printed}");
    let (play_text, tuned_text) = (dir.text("play.txt"), dir.text("tuned.txt"));
    let lines = |t: &str, p: &str| t.lines().filter(|l| l.starts_with(p)).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(lines(&tuned_text, "play."), lines(&play_text, "play."), "play weights kept");
    assert_eq!(lines(&tuned_text, "net."), lines(&play_text, "net."), "the network kept");
    assert_ne!(lines(&tuned_text, "draft."), lines(&play_text, "draft."), "draft weights refitted");
    assert!(tuned_text.contains(&format!("--start {play} --out {tuned}")), "{tuned_text}");
    assert!(tuned_text.contains("# Start: Produced by: senat train-net --games 100 --seed 3"), "{tuned_text}");
    let generator = format!("learned:file={tuned}");
    let args = ["train-net", "--draft", "--games", "100", "--sample", "0.5", "--epochs", "2", "--hidden", "8"];
    let printed = ok(&[&args[..], &["--generator", &generator, "--start", &tuned, "--out", &draft]].concat());
    assert!(printed.contains("weights written"), "{printed}");
    let text = dir.text("draft.txt");
    assert!(text.contains("draft_net.hidden=8"), "{text}");
    assert!(text.contains("--draft --explore-draft 0.15"), "the header gives the command: {text}");
    assert_eq!(lines(&text, "net."), lines(&play_text, "net."), "the play network kept");
    assert_eq!(lines(&text, "play."), lines(&play_text, "play."), "play weights kept");
    let agent = format!("learned:file={draft}");
    let played = ok(&["arena", "learned", &agent, "--games", "4", "--draft", "own", "--seed", "1"]);
    assert!(played.contains("played 4 games"), "{played}");
    // An opponent plays one side of each game: another run, another file, and the header says so.
    let pool = path("pool.txt");
    ok(&[&args[..], &["--generator", &generator, "--start", &tuned, "--opponent", "heuristic", "--out", &pool]]
        .concat());
    let pool_text = dir.text("pool.txt");
    assert!(pool_text.contains(" --opponent 'heuristic' "), "{pool_text}");
    assert_ne!(lines(&pool_text, "draft_net.w1"), lines(&text, "draft_net.w1"), "other games, other weights");
    let e = fails(&["train-net", "--game", "focus", "--opponent", "greedy", "--games", "10", "--out", &path("v.txt")]);
    assert!(e.contains("--opponent: --game focus"), "{e}");
    let e = fails(&["tune", "--start", &draft, "--games", "100", "--out", &path("x.txt")]);
    assert!(e.contains("draft network") && e.contains("train-net --draft"), "{e}");
    let e = fails(&["train-net", "--draft", "--game", "focus", "--games", "10", "--out", &path("y.txt")]);
    assert!(e.contains("--draft: --game focus has no draft"), "{e}");
    let e = fails(&["train-net", "--explore-draft", "0.2", "--games", "10", "--out", &path("z.txt")]);
    assert!(e.contains("--draft"), "{e}");
    let e = fails(&["tune", "--game", "focus", "--start", &draft, "--games", "100", "--out", &path("w.txt")]);
    assert!(e.contains("--start: --game focus"), "{e}");
}

/// `train-net --game dominoes` writes a network leaf that `file=` of the
/// searches reads; what dominoes does not take is refused in one line.
#[test]
fn dominoes_trains_a_network_leaf_that_the_searches_read() {
    let dir = TempDir::new("train-net-dominoes");
    let out = dir.0.join("dom.txt").display().to_string();
    let args = [
        "train-net",
        "--game",
        "dominoes",
        "--games",
        "12",
        "--generator",
        "greedy",
        "--sample",
        "0.5",
        "--hidden",
        "4",
        "--epochs",
        "2",
        "--holdout",
        "0.25",
        "--seed",
        "3",
        "--out",
        &out,
    ];
    let printed = ok(&args);
    assert!(printed.contains("training samples") && printed.contains("weights written"), "{printed}");
    let text = dir.text("dom.txt");
    assert!(text.contains("\ngame=dominoes\n") && text.contains("net.hidden=4"), "{text}");
    assert!(
        text.contains("linear.match=") && text.contains("linear.pips=") && text.contains("linear.tiles="),
        "{text}"
    );
    assert!(
        text.contains("senat train-net --game dominoes --games 12 --seed 3 --generator 'greedy' --sample 0.5"),
        "{text}"
    );
    let agent = format!("pimc:playouts=20,worlds=2,file={out}");
    let played = ok(&["arena", "--game", "dominoes", "--players", "2", &agent, "greedy", "--games", "2"]);
    assert!(played.contains("played 2 matches"), "{played}");
    let e = fails(&["arena", "--game", "focus", &format!("mcts:playouts=20,file={out}"), "greedy", "--games", "2"]);
    assert!(e.contains("the file is for game=dominoes, not focus"), "{e}");
    for (flag, value) in [("--explore", "0.1"), ("--label", "greedy"), ("--opponent", "greedy")] {
        let e = fails(&[
            "train-net",
            "--game",
            "dominoes",
            flag,
            value,
            "--out",
            &dir.0.join("x.txt").display().to_string(),
        ]);
        assert!(e.contains(flag) && e.contains("dominoes"), "{e}");
    }
    let e = fails(&[
        "train-net",
        "--game",
        "dominoes",
        "--players",
        "4",
        "--out",
        &dir.0.join("x.txt").display().to_string(),
    ]);
    assert!(e.contains("2 players"), "{e}");
    let x = dir.0.join("x.txt").display().to_string();
    let e = fails(&["train-net", "--game", "dominoes", "--variant", "target=2000", "--games", "12", "--out", &x]);
    assert!(e.contains("target") && !e.contains("panicked"), "{e}");
    let e = fails(&["train-net", "--game", "dominoes", "--games", "12", "--out", &out]);
    assert!(e.contains("already exists"), "{e}");
}
