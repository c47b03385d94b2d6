//! Issue 56, item 1 and the number parts of item 8: every bounded option of
//! `analyze`, `solve` and `bestmove` (flags and agent spec keys), for every
//! game, driven through the extremes (0, -1, 2^64 - 1, 2^64, NaN, inf,
//! 1e309). Each is refused with one `senat: error:` line naming the option,
//! exit 2 (never a panic, 101, or an abort, 134), except 0 where the option
//! takes it. The bounds are `senat_lab::limits`'s, the same for every game;
//! a table the system refuses is one error line too; `--variant ,` is
//! refused by every game.

use crate::support::cli::{expect_error, fails, senat, stderr, stdout};
use std::process::{Command, Output};

/// The extremes every bounded option is driven through.
const EXTREMES: [&str; 7] = ["0", "-1", "18446744073709551615", "18446744073709551616", "NaN", "inf", "1e309"];

/// The games, with a position each command accepts (dominoes: a state
/// where chance is to move, which only the option's refusal precedes).
/// Every registered game: one added to the catalog is bounded here too.
const GAMES: [&str; senat_lab::games::GameKind::ALL.len()] = {
    let mut names = [""; senat_lab::games::GameKind::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = senat_lab::games::GameKind::ALL[i].name();
        i += 1;
    }
    names
};

/// One case: the arguments, the option's name as its refusal says it
/// (`--tt-mb`, `` `tt=``), and whether the value is one the option takes
/// (0 for most, 2^64 - 1 for seeds, -1 for weights), which then need only
/// end well or in one error line.
struct Case {
    args: Vec<String>,
    names: String,
    takes: bool,
}

/// Whether `option` takes the extreme `v`.
fn takes(option: &str, v: &str) -> bool {
    let seed = option == "--seed";
    let weight = ["pile", "win", "own_i", "opp_i", "square", "exposed", "full_i"].contains(&option);
    v == "0" || (seed && v == "18446744073709551615") || (weight && v == "-1")
}

/// `senat <command> --game G <base flags but the one tried> --flag=V -- start`
/// for every extreme; `names`: what the refusal must contain.
fn flag_cases(game: &str, command: &str, base: &[(&str, &str)], flag: &str, names: &str, out: &mut Vec<Case>) {
    for v in EXTREMES {
        let mut args = vec![command.to_string(), "--game".into(), game.into()];
        for (f, value) in base.iter().filter(|(f, _)| *f != flag) {
            args.extend([f.to_string(), value.to_string()]);
        }
        args.extend([format!("{flag}={v}"), "--".into(), "start".into()]);
        out.push(Case { args, names: names.to_string(), takes: takes(flag, v) });
    }
}

/// `senat bestmove --game G --agent KIND:BASE,KEY=V -- start` for every
/// extreme (BASE left out where it gives KEY itself).
fn key_cases(game: &str, kind: &str, base: &str, key: &str, out: &mut Vec<Case>) {
    let base = if base.starts_with(&format!("{key}=")) { "" } else { base };
    for v in EXTREMES {
        let sep = if base.is_empty() { "" } else { "," };
        let spec = format!("{kind}:{base}{sep}{key}={v}");
        let args = ["bestmove", "--game", game, "--agent", &spec, "--", "start"].map(String::from).to_vec();
        out.push(Case { args, names: format!("{key}="), takes: takes(key, v) });
    }
}

/// Every case of every game.
fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for game in GAMES {
        // Dominoes has no `analyze`: any one-line refusal will do there.
        let named =
            |flag: &'static str| if game == "dominoes" && !flag.ends_with("-mb") && flag != "--c" { "" } else { flag };
        let ab = [("--depth", "1")];
        for flag in ["--tt-mb", "--depth", "--time", "--multipv", "--seed"] {
            flag_cases(game, "analyze", &ab, flag, named(flag), &mut out);
        }
        let mcts = [("--engine", "mcts"), ("--playouts", "10")];
        for flag in ["--c", "--memory-mb", "--playouts", "--threads"] {
            flag_cases(game, "analyze", &mcts, flag, named(flag), &mut out);
        }
        for flag in ["--tt-mb", "--max-depth", "--time", "--threads"] {
            flag_cases(game, "solve", &[("--max-depth", "1")], flag, flag, &mut out);
        }
        flag_cases(game, "bestmove", &[("--agent", "random")], "--seed", "--seed", &mut out);
    }
    let temp = ["temp", "temp_plies"];
    let guard = ["guard", "guard_nodes", "guard_deep", "guard_before"];
    for key in ["depth", "tt", "movetime"].iter().chain(&temp) {
        key_cases("senat", "ab", "depth=1", key, &mut out);
    }
    for key in ["playouts", "c", "prior", "mb", "threads", "movetime"].iter().chain(&temp).chain(&guard) {
        key_cases("senat", "mcts", "playouts=10", key, &mut out);
    }
    for key in ["pile", "win", "own_i", "opp_i", "square", "exposed", "full_i"] {
        key_cases("senat", "heuristic", "", key, &mut out);
    }
    for game in ["focus", "focus4", "debacle", "connect4"] {
        for key in ["depth", "tt", "movetime"].iter().chain(&temp).chain(&guard) {
            key_cases(game, "ab", "depth=1", key, &mut out);
        }
        for key in ["playouts", "c", "prior", "cut", "scale", "movetime"].iter().chain(&temp).chain(&guard) {
            key_cases(game, "mcts", "playouts=10", key, &mut out);
        }
        key_cases(game, "mcts", "playouts=10,rollout=random", "cap", &mut out);
    }
    for key in ["playouts", "worlds", "c"].iter().chain(&temp).chain(&guard[..2]) {
        key_cases("dominoes", "pimc", "playouts=10", key, &mut out);
    }
    for key in ["playouts", "c"].iter().chain(&temp).chain(&guard[..2]) {
        key_cases("dominoes", "ismcts", "playouts=10", key, &mut out);
    }
    out
}

/// What went wrong with one case, if anything: every run ends with exit 0
/// or one error line and exit 2; every extreme the option does not take
/// is refused, naming the option.
fn fault(case: &Case, o: &Output) -> Option<String> {
    let (code, err) = (o.status.code(), stderr(o));
    let shown = || format!("senat {:?}: exit {code:?}, stderr {err:?}", case.args);
    let refused = code == Some(2);
    if !(code == Some(0) || refused) {
        return Some(shown());
    }
    if refused && (!err.starts_with("senat: error: ") || err.lines().count() != 1) {
        return Some(shown());
    }
    let refused_naming = refused && err.contains(&case.names);
    if !(case.takes || refused_naming) {
        return Some(format!("{} (expected a refusal naming {})", shown(), case.names));
    }
    None
}

#[test]
fn every_bounded_option_of_every_game_refuses_the_extremes_in_one_line() {
    let cases = cases();
    let started = std::time::Instant::now();
    // A few processes at a time: most of a case is the process's start.
    let faults: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|w| {
                let cases = &cases;
                scope.spawn(move || {
                    let mut found = Vec::new();
                    for case in cases.iter().skip(w).step_by(4) {
                        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
                        found.extend(fault(case, &senat(&args)));
                    }
                    found
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a worker")).collect()
    });
    assert!(faults.is_empty(), "{} of {} cases:\n{}", faults.len(), cases.len(), faults.join("\n"));
    eprintln!("{} cases in {:.1} s", cases.len(), started.elapsed().as_secs_f64());
}

#[test]
fn the_exploration_constant_has_one_bound_for_every_game() {
    // Sénat's `mcts:c=` took 2^64 where Focus's stopped at 100.
    for (game, kind) in
        [("senat", "mcts"), ("focus", "mcts"), ("debacle", "mcts"), ("connect4", "mcts"), ("dominoes", "ismcts")]
    {
        for c in ["18446744073709551616", "100.5"] {
            let spec = format!("{kind}:playouts=10,c={c}");
            let e = fails(&["bestmove", "--game", game, "--agent", &spec, "--", "start"]);
            assert!(e.contains(&format!("`c={c}`: expected an exploration constant from 0 to 100")), "{game}: {e}");
        }
        let e = fails(&["analyze", "--game", game, "--engine", "mcts", "--c", "100.5", "--", "start"]);
        assert!(e.contains("--c 100.5: expected an exploration constant from 0 to 100"), "{game}: {e}");
    }
    // Within the bound: unchanged.
    let out = stdout(&senat(&["bestmove", "--agent", "mcts:playouts=10,c=100", "sample"]));
    assert_eq!(out.lines().count(), 1, "{out}");
}

#[test]
fn an_empty_variant_item_is_refused_by_every_game() {
    for game in GAMES {
        for variant in [",", " , ", "a=1,,b=2"] {
            let e = fails(&["moves", "--game", game, "--variant", variant, "--", "start"]);
            assert!(e.contains("an empty item between commas"), "{game} {variant:?}: {e}");
        }
        // No variant at all is still the rules.
        assert_eq!(senat(&["moves", "--game", game, "--variant", "", "--", "start"]).status.code(), Some(0), "{game}");
    }
}

/// Runs `senat args` with the virtual memory of the process capped at
/// `kib` KiB (`ulimit -v`, as Slurm caps a job's memory).
fn senat_capped(kib: u64, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_senat"))
        .args(args)
        .output()
        .expect("sh runs")
}

#[test]
fn a_table_the_system_refuses_is_one_error_line() {
    // A table within the bounds but above the process's memory limit: 2 GiB
    // (or the cap, if the machine's is smaller) under a 1 GiB limit.
    let (cap, _) = senat_lab::limits::memory_cap_mb();
    let mb = cap.min(2048);
    if mb <= 1100 {
        eprintln!("skipped: the machine's memory cap ({cap} MB) is no larger than the process limit");
        return;
    }
    let mb = mb.to_string();
    let ab = format!("ab:depth=1,tt={mb}");
    for game in ["senat", "focus", "focus4", "debacle", "connect4"] {
        for args in [
            vec!["bestmove", "--game", game, "--agent", &ab, "--", "start"],
            vec!["analyze", "--game", game, "--depth", "1", "--tt-mb", &mb, "--", "start"],
            vec!["solve", "--game", game, "--max-depth", "1", "--tt-mb", &mb, "--", "start"],
        ] {
            let e = expect_error(&senat_capped(1 << 20, &args), &args);
            assert!(e.contains("cannot allocate a table of 2048 MiB"), "{args:?}: {e}");
        }
    }
}

#[test]
fn fields_are_separated_by_one_space_in_every_game() {
    // Sénat and Débâcle took any Unicode blank (and runs of them) between
    // fields where Focus and dominoes took one space only.
    for game in GAMES {
        // Connect Four's texts have one field but off 7 x 6 (the variant, then the moves).
        let variant = if game == "connect4" { "width=5,height=4" } else { "" };
        let shown = stdout(&senat(&["show", "--game", game, "--variant", variant, "--", "start"]));
        let text = shown.lines().last().expect("the position's text").to_string();
        assert_eq!(senat(&["show", "--game", game, "--", &text]).status.code(), Some(0), "{game}: {text}");
        for blank in ["\u{a0}", "\u{2003}", "\t", "  "] {
            let bad = text.replacen(' ', blank, 1);
            fails(&["show", "--game", game, "--", &bad]);
        }
    }
}
