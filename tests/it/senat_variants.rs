//! Sénat's rules variants from the command line: `--variant` on the rules
//! commands, the batch identity that records it, a merge or a resume that
//! refuses to mix variants, and the errors of a bad variant.

use crate::support::cli::{expect_error, fails_in, ok, ok_in, senat};
use crate::support::files::TempDir;

#[test]
fn variant_help_and_errors() {
    let help = ok(&["moves", "--variant", "help", "start"]);
    for key in
        ["first_giver=", "first_mover=", "closure=", "majority=", "repetition=", "ties=", "second_majority=", "swap="]
    {
        assert!(help.contains(key), "{help}");
    }
    for (v, want) in [
        ("closure=0", "closure`: bad value `0`, expected a whole number from 1 to 63"),
        ("majority=9", "from 1 to 7"),
        ("repetition=1", "from 2 to 7"),
        ("first_giver=green", "blue or red"),
        ("closure=40,closure=41", "given twice"),
        ("scoring=winner", "unknown variant key `scoring`"),
        ("ties=red", "draw or second"),
        ("second_majority=8", "from 1 to 7"),
        ("swap=maybe", "no or yes"),
    ] {
        let e = expect_error(&senat(&["moves", "--variant", v, "start"]), &["moves"]);
        assert!(e.contains(want), "{v}: {e}");
    }
}

#[test]
fn positions_are_read_in_the_variant() {
    // Red gives first: the start is red's give, and the rules' start is refused.
    let start = ok(&["show", "--plain", "--variant", "first_giver=red", "start"]);
    assert!(start.trim_end().ends_with("give:r - 0-0-0 0"), "{start}");
    let rules_start = ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 0";
    let e = expect_error(&senat(&["moves", "--variant", "first_giver=red", rules_start]), &["moves"]);
    assert!(e.contains("the side to move must be red"), "{e}");
    // The end rules read the variant: with closure=1 the position at clock 1 is over.
    let after6 =
        "3Tr,8Sb,10Tb,13Sr,18Tr,9Tb,6Cr,12Sb,5Cr,15Tr,16Sb/.,4Sb,.,.,1Sr,.,20Cb/17Cb,2Sr,21Tr,23Cr,7Cr b I20 2-2-0 1";
    assert_eq!(ok(&["moves", after6]).lines().count(), 32);
    assert_eq!(ok(&["moves", "--variant", "closure=1", after6]).lines().count(), 0);
    assert_eq!(ok(&["perft", "--variant", "majority=3", after6, "--depth", "3"]).trim(), "30084");
}

#[test]
fn a_batch_records_its_variant_and_keeps_it_apart() {
    let d = TempDir::new("senat-variants");
    let batch = |v: &str, out: &str, shard: &str| {
        let mut args = vec!["selfplay", "--games", "60", "--seed", "4", "--red", "greedy", "--quiet"];
        args.extend(["--out", out, "--summary", "", "--shard", shard]);
        if !v.is_empty() {
            args.extend(["--variant", v]);
        }
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let run = |args: &[String]| ok_in(&d.0, &args.iter().map(String::as_str).collect::<Vec<_>>());
    let v = "first_giver=red,closure=30";
    run(&batch(v, "v1.csv", "1/2"));
    run(&batch(v, "v2.csv", "2/2"));
    run(&batch("", "r2.csv", "2/2"));
    let text = d.text("v1.csv");
    let id = text.lines().next().unwrap();
    assert!(
        id.starts_with(
            "# senat-batch v2 game=senat variant=first_giver=red,closure=30 seed=4 games=60 shard=1/2 range=0..30 red="
        ),
        "{id}"
    );
    // The rules' batch says so: variant=-.
    assert!(d.text("r2.csv").lines().next().unwrap().contains(" variant=- "), "{}", d.text("r2.csv"));
    // Every game of the variant: red gives first, and no play phase runs past clock 30.
    for row in text.lines().skip(2) {
        let f: Vec<&str> = row.split(',').collect();
        assert!(f[14].starts_with('g'), "{row}");
        let clock: u32 = f.last().unwrap().trim_end_matches('"').rsplit(' ').next().unwrap().parse().unwrap();
        assert!(clock <= 30, "{row}");
    }
    // Shards of one variant merge; a shard of the rules does not join them.
    ok_in(&d.0, &["merge", "--quiet", "--out", "m.csv", "--summary", "", "v1.csv", "v2.csv"]);
    assert!(d.text("m.csv").lines().next().unwrap().contains("variant="), "{}", d.text("m.csv"));
    let e = fails_in(&d.0, &["merge", "--out", "bad.csv", "--summary", "", "v1.csv", "r2.csv"]);
    assert!(e.contains("variant"), "{e}");
    // metrics replays the games from the variant's start (red gives first).
    let table = ok_in(&d.0, &["metrics", "m.csv"]);
    assert!(table.contains("m.csv: 60 games"), "{table}");
    // An identity line whose variant is not one is an error, not the rules.
    d.write("bad.csv", d.text("m.csv").replacen("variant=first_giver=red,closure=30", "variant=closure=99", 1));
    let e = fails_in(&d.0, &["metrics", "bad.csv"]);
    assert!(e.contains("variant=closure=99") && e.contains("1 to 63"), "{e}");
    // The viewer replays a game from the variant's start.
    let viewed = ok_in(&d.0, &["view", "m.csv", "--index", "3", "--out", "v.html"]);
    assert!(viewed.contains("wrote v.html"), "{viewed}");
    // draft-stats names placers by the rules' roles: a batch that swaps them is refused.
    let e = fails_in(&d.0, &["draft-stats", "m.csv", "--out-dir", "annex"]);
    assert!(e.contains("swaps who gives or moves first"), "{e}");
    // A resume under another variant is refused.
    let mut other = batch("first_giver=red", "v1.csv", "1/2");
    other.push("--resume".into());
    let e = fails_in(&d.0, &other.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(e.contains("variant"), "{e}");
}

#[test]
fn arena_games_follow_the_variant() {
    let d = TempDir::new("senat-variant-arena");
    ok_in(
        &d.0,
        &[
            "arena",
            "greedy",
            "random",
            "--games",
            "10",
            "--seed",
            "3",
            "--variant",
            "majority=2",
            "--out",
            "a.csv",
            "--quiet",
        ],
    );
    let text = d.text("a.csv");
    assert!(text.lines().next().unwrap().contains(" variant=majority=2 "), "{text}");
    // A majority of 2 ends a game as soon as a side's pile holds 2.
    let majority_wins = text.lines().filter(|l| l.contains(",majority,")).count();
    assert!(majority_wins > 0, "{text}");
    for l in text.lines().filter(|l| l.contains(",majority,")) {
        let spn = l.rsplit(',').next().unwrap();
        let piles = spn.split(' ').nth(3).unwrap_or("");
        assert!(piles.split('-').take(2).any(|n| n == "2"), "{l}");
    }
}

#[test]
fn the_second_mover_compensations_and_the_swap_on_the_command_line() {
    let after6 =
        "3Tr,8Sb,10Tb,13Sr,18Tr,9Tb,6Cr,12Sb,5Cr,15Tr,16Sb/.,4Sb,.,.,1Sr,.,20Cb/17Cb,2Sr,21Tr,23Cr,7Cr b I20 2-2-0 1";
    // Piles 2-2 at the closure: a draw in the rules, red's (the second mover's) under ties=second.
    assert!(ok(&["show", "--plain", "--variant", "closure=1", after6]).contains("draw by closure"));
    assert!(ok(&["show", "--plain", "--variant", "closure=1,ties=second", after6]).contains("red wins by closure"));
    // The decision after the draft: the rules' commands and the agents take swap=yes; the commands that
    // still credit colours (annotate, play, draft-stats) refuse it with the reason.
    let decide = "3Tr,8Sb,10Tb,13Sr,18Tr,9Tb,6Cr,12Sb,5Cr,15Tr,16Sb/7Cr,4Sb,17Cb,23Cr,1Sr,22Tr,20Cb/14Cb,2Cb,21Tr,11Cr,19Tb decide:r - 0-0-0 0";
    assert_eq!(
        ok(&["moves", "--variant", "swap=yes", decide]).split_whitespace().collect::<Vec<_>>(),
        ["keep", "swap"]
    );
    for agent in ["learned", "ab:depth=2"] {
        let m = ok(&["bestmove", "--agent", agent, "--variant", "swap=yes", decide]);
        assert!(matches!(m.lines().next(), Some("keep" | "swap")), "{agent}: {m}");
    }
    let e = expect_error(&senat(&["play", "--variant", "swap=yes"]), &["play"]);
    assert!(e.contains("swap=yes is not taken here: play seats you by colour"), "{e}");
}
