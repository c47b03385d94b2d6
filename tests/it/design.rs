//! `senat design`: the self-test at a small size keeps its error promise
//! and prints the error and the savings last, with a tolerance too; a
//! small Focus design writes its CSV, picture and round log, is the same
//! table after `--resume`, and refuses variants its game's reader refuses,
//! a missing band and an existing log without `--resume`; a design with a
//! tolerance says so in its header, CSV and log; a Sénat design may have
//! the seat target alone; a design played in shards and folded is the
//! unsharded one, byte for byte.

use crate::support::cli::{fails, ok};
use crate::support::files::TempDir;

fn fails_v(args: &[String]) -> String {
    fails(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// A small Sénat design under `learned` (`SPACE` and these targets,
/// `games` games in rounds of 20, 2 threads, seed 59) into `out`.
fn senat_design(out: &str, space: &str, targets: &[&str], games: &str) -> Vec<String> {
    let head = ["design", "--space", space, "--tiers", "learned"];
    let tail = ["--budget-games", games, "--round", "20", "--threads", "2", "--seed", "59", "--out", out];
    head.iter().chain(targets).chain(&tail).map(|s| s.to_string()).collect()
}

/// A small Focus design (`fix=none|draw` under `random`, 200 games in
/// rounds of 10, 2 threads) with these targets and flags, into `out`.
fn focus_design(out: &str, targets: &[&str]) -> Vec<String> {
    let head = ["design", "--game", "focus", "--space", "fix=none|draw", "--tiers", "random"];
    let tail = ["--budget-games", "200", "--round", "10", "--threads", "2", "--out", out];
    head.iter().chain(targets).chain(&tail).map(|s| s.to_string()).collect()
}

#[test]
fn the_selftest_keeps_its_promise() {
    let out = ok(&["design", "--selftest", "--instances", "30", "--cap", "2000", "--threads", "2"]);
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("selftest: family-wise error 0/30"), "{out}");
    assert!(last.contains("fewer games than round-robin"), "{out}");
    let zoned =
        ok(&["design", "--selftest", "--instances", "30", "--cap", "2000", "--tolerance", "0.02", "--threads", "2"]);
    let last = zoned.lines().last().unwrap();
    assert!(last.starts_with("selftest (tolerance 0.02): family-wise error 0/30"), "{zoned}");
    assert!(zoned.contains("an out whose true mean is inside [LO+0.02, HI-0.02]"), "{zoned}");
    assert!(fails(&["design", "--selftest", "--tolerance", "0.03"]).contains("0.04 wide at the narrowest"));
}

/// A tolerance: the header says the rule, the CSV gains a last column
/// `tolerance`, the log's identity names it, and `--resume` gives the
/// same table.
#[test]
fn a_design_with_a_tolerance_says_so() {
    let dir = TempDir::new("design-tolerance");
    let d = dir.0.join("d");
    let d = d.to_str().unwrap();
    let args = focus_design(d, &["--first", "0.3..0.7", "--draws-max", "0.5", "--tolerance", "0.05", "--quiet"]);
    let args = strs(&args);
    let table = ok(&args);
    assert!(
        table.contains("\n# tolerance 0.05: a cell is in once its interval lies inside its band widened"),
        "{table}"
    );
    assert!(table.contains("with probability >= 0.95 (up to the tolerance 0.05)"), "{table}");
    let csv = dir.text("d/design.csv");
    assert!(csv.starts_with("variant,tier,target,estimate,lo,hi,verdict,games,tolerance\n"), "{csv}");
    assert_eq!(csv.lines().skip(1).filter(|l| l.ends_with(",0.05")).count(), 4, "{csv}");
    assert!(dir.text("d/rounds.csv").lines().next().unwrap().ends_with(" tolerance=0.05"));
    let mut again = args.to_vec();
    again.push("--resume");
    assert_eq!(ok(&again), table);
}

#[test]
fn a_focus_design_writes_and_resumes() {
    let dir = TempDir::new("design");
    let d = dir.0.join("d");
    let d = d.to_str().unwrap();
    let args = focus_design(d, &["--first", "0.45..0.55", "--draws-max", "0.99"]);
    let args = strs(&args);
    let table = ok(&args);
    assert!(table.starts_with("# senat design --game focus"), "{table}");
    assert!(table.contains("fix=draw  random  first:0.45..0.55"), "{table}");
    let csv = dir.text("d/design.csv");
    assert!(csv.starts_with("variant,tier,target,estimate,lo,hi,verdict,games\n"), "{csv}");
    assert_eq!(csv.lines().count(), 1 + 2 * 2, "{csv}");
    assert!(dir.exists("d/design.png") && dir.exists("d/rounds.csv"));
    assert!(fails(&args).contains("add --resume"));
    let mut again = args.to_vec();
    again.push("--resume");
    assert_eq!(ok(&again), table);
    assert_eq!(dir.text("d/design.csv"), csv);
}

#[test]
fn refusals() {
    let dir = TempDir::new("design-refusals");
    let d = dir.0.join("d");
    let d = d.to_str().unwrap();
    let base = ["design", "--game", "focus", "--tiers", "random", "--out", d];
    let with = |extra: &[&'static str]| -> Vec<String> { base.iter().chain(extra).map(|s| s.to_string()).collect() };
    assert!(fails_v(&with(&["--space", "fix=bogus", "--first", "0.4..0.6"])).contains("variant `fix=bogus`"));
    assert!(fails_v(&with(&["--space", "fix=none"])).contains("a design needs a score target: --first LO..HI"));
    let tol = |z: &'static str, more: &[&'static str]| {
        let mut v = vec!["--space", "fix=none", "--first", "0.4..0.6", "--tolerance", z];
        v.extend(more);
        fails_v(&with(&v))
    };
    assert!(tol("0.2", &[]).contains("--first --tolerance 0.2: tolerance 0.2 is wider than the band 0.4..0.6 allows"));
    assert!(tol("-0.1", &[]).contains("--tolerance -0.1: give a number >= 0"));
    assert!(tol("0.01", &["--plies", "1..9", "--plies-bound", "9"]).contains("--plies's band is in plies"));
    assert!(fails_v(&with(&["--space", "fix=none", "--first", "0.6..0.4"])).contains("--first"));
    assert!(fails_v(&with(&["--space", "fix=none|", "--first", "0.4..0.6"])).contains("--space"));
    assert!(fails_v(&with(&["--space", "fix=none", "--first", "0.4..0.6", "--delta", "0"])).contains("--delta"));
    assert!(fails_v(&with(&["--space", "fix=none", "--first", "0.4..0.6", "--resume"])).contains("nothing to resume"));
    assert!(
        fails(&["design", "--space", "closure=99", "--tiers", "learned", "--first", "0.4..0.6", "--out", d])
            .contains("closure")
    );
    let seat = with(&["--space", "fix=none", "--first", "0.4..0.6", "--seat-first", "0.4..0.6"]);
    assert!(fails_v(&seat).contains("--seat-first is Sénat's"));
}

/// Sénat under swap=no|yes with the first giver's seat as a second target:
/// its rows are named `first_giver_seat:LO..HI`, the round log keeps the
/// seat's score in a column of its own, the output says which seat it is,
/// and `--resume` gives the same table.
#[test]
fn a_senat_design_with_the_seat_target() {
    let dir = TempDir::new("design-seat");
    let d = dir.0.join("d");
    let d = d.to_str().unwrap();
    let args = senat_design(d, "swap=no|yes", &["--first", "0.3..0.7", "--seat-first", "0.3..0.7"], "80");
    let args = strs(&args);
    let table = ok(&args);
    assert!(table.contains("# first_giver_seat: the player who gives the first die of the draft"), "{table}");
    assert!(table.contains("first_giver_seat:0.3..0.7 in under learned:"), "{table}");
    let csv = dir.text("d/design.csv");
    assert_eq!(csv.lines().filter(|l| l.contains(",learned,first_giver_seat:0.3..0.7,")).count(), 2, "{csv}");
    let log = dir.text("d/rounds.csv");
    assert_eq!(log.lines().nth(1), Some("round,variant,tier,game,score,draw,plies,seat"), "{log}");
    assert!(log.lines().next().unwrap().ends_with(" seat_first=0.3..0.7"), "{log}");
    let mut again = args.to_vec();
    again.push("--resume");
    assert_eq!(ok(&again), table);
}

/// Sénat with the seat target alone (no --first): its only rows are the
/// seat's, and the header names no first player.
#[test]
fn a_senat_design_with_the_seat_target_alone() {
    let dir = TempDir::new("design-seat-only");
    let d = dir.0.join("d");
    let d = d.to_str().unwrap();
    let args = senat_design(d, "swap=yes", &["--seat-first", "0.3..0.7", "--quiet"], "20");
    let args = strs(&args);
    let table = ok(&args);
    assert!(!table.contains("# first player:") && table.contains("\n# score 1 win, 1/2 draw, 0 loss;"), "{table}");
    assert!(table.contains("first_giver_seat:0.3..0.7 in under learned:"), "{table}");
    let csv = dir.text("d/design.csv");
    assert_eq!(csv.lines().count(), 2, "{csv}");
    assert!(csv.lines().nth(1).unwrap().starts_with("swap=yes,learned,first_giver_seat:0.3..0.7,"), "{csv}");
    assert!(dir.text("d/rounds.csv").lines().next().unwrap().contains(" first=- "));
}

/// Dominoes (seat 0 against the others) with a length target: the plies
/// are shown in plies, the identity names the target and its bound, a game
/// longer than the bound stops the run with a message, and a spent
/// core-hour budget stops it before its first round.
#[test]
fn a_dominoes_design_with_a_length_target_and_the_budgets() {
    let dir = TempDir::new("design-dominoes");
    let out = |name: &str| dir.0.join(name).to_str().unwrap().to_string();
    let base = |name: &str, bound: &str, band: &str| -> Vec<String> {
        [
            "design",
            "--game",
            "dominoes",
            "--space",
            "target=20|50",
            "--tiers",
            "greedy",
            "--first",
            "0.3..0.7",
            "--plies",
            band,
            "--plies-bound",
            bound,
            "--budget-games",
            "400",
            "--threads",
            "2",
            "--out",
            &out(name),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let args = base("a", "2000", "10..300");
    let table = ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(table.contains("# first player: seat 0, against every other seat"), "{table}");
    let csv = dir.text("a/design.csv");
    let plies: Vec<f64> = csv
        .lines()
        .filter(|l| l.contains(",plies:10..300,"))
        .map(|l| l.split(',').nth(4).unwrap().parse().unwrap())
        .collect();
    assert_eq!(plies.len(), 2, "{csv}");
    assert!(plies.iter().all(|&m| m > 1.0), "means in plies, not fractions: {csv}");
    assert!(dir.text("a/rounds.csv").lines().next().unwrap().ends_with(" plies=10..300/2000"));
    let e = fails_v(&base("b", "5", "1..5"));
    assert!(e.contains("more than --plies-bound 5"), "{e}");
    let mut hours = base("c", "2000", "10..300");
    hours.extend(["--budget-hours".to_string(), "1e-12".to_string()]);
    let t = ok(&hours.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(t.contains("# stopped: the core-hour budget is spent; 0 games"), "{t}");
    assert!(fails_v(&base("d", "0", "0..0")).contains("--plies-bound"));
    assert!(fails_v(&base("e", "100", "10..300")).contains("HI <= --plies-bound 100"));
}

/// A design with an Elo-gap target played in shards (three per round, in
/// any order) and folded round by round is the unsharded design byte for
/// byte: its round log, its CSV and its table (but for the command line),
/// and so is one whose last shards a local `--resume` folds;
/// a fold with a shard missing names it; a shard of a finished design
/// plays nothing; a shard with `--budget-hours` or a bad gap is refused.
#[test]
fn a_sharded_design_with_an_elo_gap_is_the_unsharded_one() {
    let dir = TempDir::new("design-shards");
    let out = |name: &str| dir.0.join(name).to_str().unwrap().to_string();
    let args = |name: &str, extra: &[&str]| -> Vec<String> {
        let base = [
            "design",
            "--game",
            "connect4",
            "--space",
            "width=5|7",
            "--tiers",
            "random",
            "--first",
            "0.3..0.7",
            "--elo-gap",
            "greedy>random:100",
            "--budget-games",
            "200",
            "--round",
            "10",
            "--threads",
            "1",
            "--quiet",
            "--out",
        ];
        base.iter().map(|s| s.to_string()).chain([out(name)]).chain(extra.iter().map(|s| s.to_string())).collect()
    };
    let run = |a: Vec<String>| ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let table = run(args("u", &[]));
    assert!(table.contains("width=5  greedy>random  elo(greedy>random)>=100"), "{table}");
    assert!(table.contains("at least 1/(1+10^(-100/400)) = 0.6401"), "{table}");
    assert!(table.contains("certified elo(greedy>random)>=100: width=5; width=7"), "{table}");
    let mut folded = String::new();
    for round in 0..20 {
        for k in ["3/3", "2/3"] {
            run(args("s", &["--shard", k]));
        }
        if round == 0 {
            let e = fails_v(&args("s", &["--fold"]));
            assert!(e.contains("round 0 is played in 3 shards but shards 1/3 are missing"), "{e}");
        }
        assert!(run(args("s", &["--shard", "1/3"])).contains(&format!("round {round} shard 1/3: ")));
        assert!(run(args("s", &["--shard", "1/3"])).contains("already played"));
        folded = run(args("s", &["--fold"]));
        if !folded.contains("is to be played") {
            break;
        }
    }
    assert_eq!(dir.text("s/rounds.csv"), dir.text("u/rounds.csv"));
    assert_eq!(dir.text("s/design.csv"), dir.text("u/design.csv"));
    let tail = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(tail(&folded), tail(&table));
    assert!(run(args("s", &["--shard", "2/3"])).contains("nothing to play"));
    // Two shards a round, then a local --resume folds the second round and plays on: the same design.
    for round in 0..2 {
        run(args("r", &["--shard", "2/2"]));
        run(args("r", &["--shard", "1/2"]));
        if round == 0 {
            assert!(run(args("r", &["--fold"])).contains("# stopped: round 1 is to be played"));
        }
    }
    let resumed = run(args("r", &["--resume"]));
    assert!(!dir.exists("r/round-1"));
    assert_eq!(dir.text("r/rounds.csv"), dir.text("u/rounds.csv"));
    assert_eq!(tail(&resumed), tail(&table));
    assert!(fails_v(&args("h", &["--shard", "1/2", "--budget-hours", "1"])).contains("--budget-hours"));
    assert!(fails_v(&args("h", &["--shard", "3/2"])).contains("--shard"));
    assert!(fails_v(&args("h", &["--elo-gap", "greedy:100"])).contains("--elo-gap"));
}
