//! `senat design`: the self-test at a small size keeps its error promise
//! and prints the error and the savings last; a small Focus design writes
//! its CSV, picture and round log, is the same table after `--resume`,
//! and refuses variants its game's reader refuses, a missing band and an
//! existing log without `--resume`.

mod support {
    pub mod cli;
    pub mod files;
}
use support::cli::{fails, ok};

fn fails_v(args: &[String]) -> String {
    fails(&args.iter().map(String::as_str).collect::<Vec<_>>())
}
use support::files::TempDir;

#[test]
fn the_selftest_keeps_its_promise() {
    let out = ok(&["design", "--selftest", "--instances", "30", "--cap", "2000", "--threads", "2"]);
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("selftest: family-wise error 0/30"), "{out}");
    assert!(last.contains("fewer games than round-robin"), "{out}");
}

#[test]
fn a_focus_design_writes_and_resumes() {
    let dir = TempDir::new("design");
    let d = dir.0.join("d");
    let d = d.to_str().unwrap();
    let args = [
        "design",
        "--game",
        "focus",
        "--space",
        "fix=none|draw",
        "--tiers",
        "random",
        "--first",
        "0.45..0.55",
        "--draws-max",
        "0.99",
        "--budget-games",
        "200",
        "--round",
        "10",
        "--threads",
        "2",
        "--out",
        d,
    ];
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
    assert!(fails_v(&with(&["--space", "fix=none"])).contains("--first"));
    assert!(fails_v(&with(&["--space", "fix=none", "--first", "0.6..0.4"])).contains("--first"));
    assert!(fails_v(&with(&["--space", "fix=none|", "--first", "0.4..0.6"])).contains("--space"));
    assert!(fails_v(&with(&["--space", "fix=none", "--first", "0.4..0.6", "--delta", "0"])).contains("--delta"));
    assert!(fails_v(&with(&["--space", "fix=none", "--first", "0.4..0.6", "--resume"])).contains("nothing to resume"));
    assert!(
        fails(&["design", "--space", "closure=99", "--tiers", "learned", "--first", "0.4..0.6", "--out", d])
            .contains("closure")
    );
}
