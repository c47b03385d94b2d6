//! Faults a tester found in the binary, each pinned by a test: outputs that
//! are special files are written through by every command, every game's
//! errors are one escaped line, playout counts are bounded, the SPRT and
//! ladder lines say what the numbers say, dominoes lists its variant keys
//! and keeps an interrupted run's files, and the help names only specs that
//! parse.

use crate::support::cli::{fails, fails_in, ok, ok_in};
use crate::support::files::TempDir;
use senat_lab::arena::ladder_of;
use senat_lab::policy::PolicySpec;
use senat_lab::rating::Estimate;

const RECORD: &str = "crates/rules/data/sample-game.txt";

// ---- 1. special files ---------------------------------------------------------

#[cfg(unix)]
fn is_char_device(path: &str) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

/// `view`, `tune` and `render` write through `/dev/null` (with or without
/// `--force`) as selfplay does, instead of replacing it by a regular file.
#[cfg(unix)]
#[test]
fn dev_null_stays_a_device_for_every_writer() {
    assert!(is_char_device("/dev/null"), "/dev/null must be a character device before the test");
    let runs: [&[&str]; 4] = [
        &["view", RECORD, "--out", "/dev/null", "--force"],
        &["view", RECORD, "--out", "/dev/null"],
        &["tune", "--games", "10", "--rounds", "1", "--out", "/dev/null", "--force"],
        &["tune", "--games", "10", "--rounds", "1", "--out", "/dev/null"],
    ];
    for args in runs {
        ok(args);
        assert!(is_char_device("/dev/null"), "senat {args:?} replaced /dev/null");
    }
    // A picture's name must end in .svg or .png: render to /dev/null through a link.
    let d = TempDir::new("faults-null-link");
    let link = d.0.join("null.svg");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let link = link.to_str().unwrap();
    for args in [&["render", "sample", "--out", link, "--force"][..], &["render", "sample", "--out", link]] {
        ok(args);
        assert!(is_char_device("/dev/null"), "senat {args:?} replaced /dev/null");
        assert!(std::fs::symlink_metadata(link).unwrap().file_type().is_symlink(), "senat {args:?} replaced the link");
    }
    assert_eq!(d.names(), ["null.svg"], "no temporary file is left");
}

/// A FIFO given as `--out` gets the bytes and stays a FIFO.
#[cfg(target_os = "linux")]
#[test]
fn a_fifo_output_is_written_through() {
    use std::os::unix::fs::FileTypeExt;
    let d = TempDir::new("faults-fifo");
    let fifo = d.0.join("pipe.svg");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo failed");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).expect("the FIFO is read"))
    };
    ok(&["render", "sample", "--out", fifo.to_str().unwrap(), "--force"]);
    let bytes = reader.join().expect("the reader ends");
    assert!(String::from_utf8_lossy(&bytes).contains("<svg"), "the picture went through the FIFO");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO was replaced");
    assert!(!d.0.join("pipe.svg.partial").exists());
}

/// Regular files still go through a temporary file and are refused without --force.
#[test]
fn regular_outputs_are_still_refused_without_force() {
    let d = TempDir::new("faults-regular");
    ok_in(&d.0, &["render", "sample", "--out", "b.svg"]);
    let e = fails_in(&d.0, &["render", "sample", "--out", "b.svg"]);
    assert!(e.contains("b.svg already exists; pass --force to overwrite it"), "{e}");
    ok_in(&d.0, &["render", "sample", "--out", "b.svg", "--force"]);
    assert_eq!(d.names(), ["b.svg"], "no temporary file is left");
}

// ---- 2. one escaped error line for every game ------------------------------------

#[test]
fn every_game_escapes_its_errors_into_one_line() {
    // Débâcle echoes the variant field of a 12-field position, dominoes the
    // phase field of a 10-field state; the others the text.
    let positions = [
        ("focus", "bad\u{1b}[31mpos\nx"),
        ("focus4", "bad\u{1b}[31mpos\nx"),
        ("debacle", "a b c d e f g h i j k x\u{1b}y\u{7}"),
        ("dominoes", "players=3 bad\u{1b}[31mpos\nx 0 0 0,0,0 0 - - - -"),
    ];
    for (game, text) in positions {
        let variant = ["moves", "--game", game, "--variant", "target=3\n0", "start"];
        let e = fails(&variant);
        assert!(e.contains("3\\n0"), "{game}: {e}");
        let position = ["moves", "--game", game, text];
        let e = fails(&position);
        assert!(!e.contains('\u{1b}') && e.contains("\\u{1b}"), "{game}: {e}");
    }
    // Sénat's were escaped already, and stay so (escaping twice changes nothing).
    let e = fails(&["moves", "bad\npos"]);
    assert!(e.contains("bad\\npos") && !e.contains("\\\\n"), "{e}");
}

// ---- 3. playout counts ----------------------------------------------------------------

#[test]
fn playout_counts_are_bounded() {
    let huge = "18446744073709551615";
    let e = fails(&["analyze", "--engine", "mcts", "--playouts", huge, "sample"]);
    assert!(e.contains(&format!("--playouts {huge}: expected a playout count from 1 to 1073741824")), "{e}");
    let e = fails(&["analyze", "--engine", "mcts", "--playouts", "0", "sample"]);
    assert!(e.contains("--playouts 0: expected a playout count"), "{e}");
    let e = fails(&["analyze", "--game", "focus", "--engine", "mcts", "--playouts", huge, "start"]);
    assert!(e.contains(&format!("--playouts {huge}")), "{e}");
    let spec = format!("mcts:playouts={huge}");
    let e = fails(&["bestmove", "--agent", &spec, "sample"]);
    assert!(e.contains(&format!("`playouts={huge}`: expected a playout count")), "{e}");
    let e = fails(&["bench-mcts", "--playouts", huge]);
    assert!(e.contains(&format!("--playouts {huge}")), "{e}");
}

// ---- 4. the SPRT line ------------------------------------------------------------------

/// The LLR, the relation printed and the decision of an arena's SPRT line.
fn sprt_line(args: &[&str]) -> (f64, String, String) {
    let out = ok(args);
    let line = out.lines().find(|l| l.starts_with("SPRT")).unwrap_or_else(|| panic!("no SPRT line: {out}"));
    let rest = line.split_once(": LLR ").unwrap_or_else(|| panic!("{line}")).1;
    let (llr, rest) = rest.split_once(' ').unwrap();
    let (relation, decision) = rest.rsplit_once(": ").unwrap();
    (llr.parse().unwrap(), relation.to_string(), decision.to_string())
}

#[test]
fn the_sprt_line_puts_the_ratio_where_it_is() {
    let sprt = "elo0=0,elo1=50,alpha=0.05,beta=0.05";
    let base = ["--seed", "1", "--concurrency", "1", "--quiet", "--sprt", sprt];
    let run = |a: &str, b: &str, games: &str| {
        let mut args = vec!["arena", a, b, "--games", games];
        args.extend_from_slice(&base);
        sprt_line(&args)
    };
    let (llr, relation, decision) = run("heuristic", "random", "400");
    assert_eq!((relation.as_str(), decision.as_str()), ("≥ 2.944", "H1 accepted"), "LLR {llr}");
    assert!(llr >= 2.944);
    let (llr, relation, decision) = run("random", "heuristic", "400");
    assert_eq!((relation.as_str(), decision.as_str()), ("≤ -2.944", "H0 accepted"), "LLR {llr}");
    assert!(llr <= -2.944);
    let (llr, relation, decision) = run("random", "heuristic", "2");
    assert_eq!(relation, "in (-2.944, 2.944)", "LLR {llr}");
    assert!(decision.starts_with("no decision"), "{decision}");
}

// ---- 5. ladder significance ---------------------------------------------------------

fn estimate(elo: f64, lo: f64, hi: f64) -> Estimate {
    Estimate { score: 0.5, elo, elo_lo: lo, elo_hi: hi, nelo: 0.0, nelo_err: 0.0, los: 0.5 }
}

#[test]
fn a_ladder_step_is_significant_when_its_interval_excludes_zero() {
    // Agent 0 against 1 at +373 [+207.7, +539.9]: 1 is significantly weaker.
    // Agent 1 against 2 at -373 [-539.9, -207.7]: 2 is significantly stronger.
    // Agent 2 against 3 at +10 [-40, +60]: not significant.
    let l = ladder_of(&[estimate(373.8, 207.7, 539.9), estimate(-373.8, -539.9, -207.7), estimate(10.0, -40.0, 60.0)]);
    assert!(!l[1].step_above_zero && l[1].step_below_zero);
    assert!(l[2].step_above_zero && !l[2].step_below_zero);
    assert!(!l[3].step_above_zero && !l[3].step_below_zero);
    // The binary's labels agree.
    let out = ok(&["arena", "heuristic", "random", "--ladder", "--games", "40", "--seed", "1", "--quiet"]);
    let row = out.lines().find(|l| l.starts_with("random ")).unwrap_or_else(|| panic!("{out}"));
    assert!(row.ends_with("strict step down"), "{out}");
    let out = ok(&["arena", "random", "heuristic", "--ladder", "--games", "40", "--seed", "1", "--quiet"]);
    let row = out.lines().find(|l| l.starts_with("heuristic ")).unwrap_or_else(|| panic!("{out}"));
    assert!(row.ends_with("strict step up"), "{out}");
}

// ---- 6. dominoes' variant keys ------------------------------------------------------

#[test]
fn dominoes_lists_its_variant_options() {
    for args in [
        &["moves", "--game", "dominoes", "--variant", "help", "start"][..],
        &["show", "--game", "dominoes", "--variant", "help", "start"][..],
        &["selfplay", "--game", "dominoes", "--variant", "help"][..],
    ] {
        let out = ok(args);
        assert!(out.starts_with("variant options of dominoes (--variant key=value,...):"), "{args:?}: {out}");
        for key in ["players=2|3|4", "hand=N", "target=N", "rounds=N", "rules=playboard|openspiel"] {
            assert!(out.contains(key), "{args:?}: {out}");
        }
    }
    // As Focus does.
    assert!(ok(&["moves", "--game", "focus", "--variant", "help", "start"]).contains("players=2|4"));
}

/// `--variant players=4` is accepted with focus4 (what it always has) and
/// `players=2` refused in the words typed, in every command.
#[test]
fn focus4_takes_its_own_option_and_refuses_a_contradiction_as_typed() {
    assert_eq!(
        ok(&["moves", "--game", "focus4", "--variant", "players=4", "start"]),
        ok(&["moves", "--game", "focus4", "start"])
    );
    for cmd in [
        &["moves", "--game", "focus4", "--variant", "players=2", "start"][..],
        &["selfplay", "--game", "focus4", "--variant", "cap=50,players=2", "--games", "2", "--out", "x.csv"][..],
    ] {
        let e = fails(cmd);
        assert!(
            e.contains("--variant players=2: --game focus4 always has players=4") && !e.contains("players=4,"),
            "{cmd:?}: {e}"
        );
    }
}

/// `--variant help` needs no position and no `--depth`, in every game and
/// every command that takes a position; without help both are still
/// required, in one line.
#[test]
fn variant_help_needs_no_position() {
    for game in ["senat", "focus", "focus4", "debacle", "dominoes"] {
        for cmd in ["moves", "show", "perft"] {
            let out = ok(&[cmd, "--game", game, "--variant", "help"]);
            assert!(out.starts_with("variant options of "), "{cmd} --game {game}: {out}");
        }
        let err = fails(&["moves", "--game", game]);
        assert!(err.contains("a position is required"), "moves --game {game}: {err}");
        let err = fails(&["perft", "--game", game, "start"]);
        assert!(err.contains("--depth <N> is required") && err.contains("--help"), "perft --game {game}: {err}");
    }
}

// ---- 7. help texts name specs that parse -------------------------------------------

#[test]
fn help_names_only_specs_that_parse() {
    let help = ok(&["tune", "--help"]);
    let quoted: Vec<&str> = help
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|q| ["mcts", "ab", "learned"].iter().any(|n| q.starts_with(n)))
        .collect();
    assert!(quoted.contains(&"mcts:rollout=eval"), "{help}");
    for q in quoted {
        let spec = q.split_once(":file=").map_or(q.to_string(), |(a, _)| a.to_string());
        PolicySpec::parse(&spec).unwrap_or_else(|e| panic!("tune --help names `{q}`, which does not parse: {e}"));
    }
    for flag in ["-h", "--help"] {
        let help = ok(&["selfplay", flag]);
        let policies = help.split("Policies: ").nth(1).unwrap_or_else(|| panic!("no Policies footer: {help}"));
        for key in senat_lab::policy::spec::MCTS_KEYS {
            assert!(policies.contains(&format!("{key}=")), "selfplay {flag}: mcts key {key} missing: {policies}");
        }
        for word in ["learned[:", "rollout=random|greedy|eval", "prior=", "parallel=root|tree", "eval=hand|learned"] {
            assert!(policies.contains(word), "selfplay {flag}: {word} missing: {policies}");
        }
    }
}

// ---- 8. dominoes keeps an interrupted run's files ----------------------------------

#[test]
fn dominoes_selfplay_refuses_an_interrupted_runs_files() {
    let d = TempDir::new("faults-dominoes-partial");
    let base = ["selfplay", "--game", "dominoes", "--games", "2", "--summary", "", "--quiet"];
    for (flag, name) in [("--out", "g.csv"), ("--rounds", "r.csv")] {
        let partial = format!("{name}.partial");
        d.write(&partial, "half a run\n");
        let mut args = base.to_vec();
        args.extend_from_slice(&["--out", "g.csv"]);
        if flag == "--rounds" {
            args.extend_from_slice(&["--rounds", "r.csv"]);
        }
        let e = fails_in(&d.0, &args);
        assert!(
            e.contains(&format!("{partial} is left by an interrupted run writing {name}; pass --resume to continue it or --force to start over")),
            "{e}"
        );
        assert_eq!(d.text(&partial), "half a run\n", "the partial file is kept");
        args.push("--force");
        ok_in(&d.0, &args);
        assert!(!d.exists(&partial) && d.exists(name));
        for f in d.names() {
            std::fs::remove_file(d.0.join(f)).unwrap();
        }
    }
}

// ---- 9. view: --index is the row, --game the game ---------------------------------

#[test]
fn view_takes_the_row_as_index_and_the_game_by_name() {
    let d = TempDir::new("faults-view-index");
    let base = ["selfplay", "--games", "3", "--red", "random", "--blue", "random", "--summary", "", "--quiet"];
    let mut args = base.to_vec();
    args.extend_from_slice(&["--out", "g.csv"]);
    ok_in(&d.0, &args);
    ok_in(&d.0, &["view", "g.csv", "--index", "2", "--out", "a.html"]);
    ok_in(&d.0, &["view", "g.csv", "--index", "2", "--game", "senat", "--out", "b.html"]);
    // The old spelling still works, and says what it read.
    ok_in(&d.0, &["view", "g.csv", "--game", "2", "--out", "c.html"]);
    assert_eq!(d.text("a.html"), d.text("b.html"));
    assert_eq!(d.text("a.html"), d.text("c.html"));
    let e = fails_in(&d.0, &["view", "g.csv", "--game", "focus", "--out", "x.html"]);
    assert!(e.contains("g.csv is a file of a senat batch, not of focus: pass --game senat"), "{e}");
    let e = fails_in(&d.0, &["view", "g.csv", "--game", "fokus", "--out", "x.html"]);
    assert!(e.contains("unknown game `fokus`"), "{e}");
    let e = fails_in(&d.0, &["view", "g.csv", "--game", "1", "--index", "2", "--out", "x.html"]);
    assert!(e.contains("give one of them"), "{e}");
    let e = fails_in(&d.0, &["view", "g.csv", "--out", "x.html"]);
    assert!(e.contains("pass --index N to choose a game"), "{e}");
    assert!(!d.exists("x.html"));
}

// ---- 10. one set of bounds for every game's agents -------------------------------

/// Depths, times and playouts of every game's agent specs are bounded by
/// limits.rs alone: the same values pass and fail, with the same words.
#[test]
fn every_games_agents_share_the_bounds() {
    use senat_lab::games::agent::AgentSpec;
    use senat_lab::games::dominoes::DominoSpec;
    for ok in ["ab:depth=120", "ab:movetime=600000", "mcts:playouts=1073741824", "mcts:movetime=1"] {
        PolicySpec::parse(ok).unwrap_or_else(|e| panic!("Sénat {ok}: {e}"));
        AgentSpec::parse(ok).unwrap_or_else(|e| panic!("focus {ok}: {e}"));
    }
    for (bad, words) in [
        ("ab:depth=121", "expected a depth in 1..=120 plies"),
        ("ab:movetime=600001", "expected milliseconds per move in 1..=600000"),
        ("mcts:movetime=0", "expected milliseconds per move in 1..=600000"),
        ("mcts:playouts=1073741825", "expected a playout count from 1 to 1073741824"),
    ] {
        let s = PolicySpec::parse(bad).unwrap_err().to_string();
        let g = AgentSpec::parse(bad).unwrap_err().to_string();
        assert!(s.contains(words) && g.contains(words), "{bad}: Sénat `{s}`, other games `{g}`");
    }
    DominoSpec::parse("ismcts:playouts=1073741824").unwrap();
    let d = DominoSpec::parse("pimc:playouts=1073741825").unwrap_err().to_string();
    assert!(d.contains("expected a playout count from 1 to 1073741824"), "{d}");
}

// ---- 11. a round robin prints a rating table, in every game ------------------------

#[test]
fn a_round_robin_prints_one_rating_table_in_every_game() {
    for args in [
        &["arena", "random", "greedy", "heuristic", "--games", "100", "--quiet"][..],
        &["arena", "--game", "debacle", "random", "greedy", "ab:depth=1", "--games", "20", "--quiet"],
        &["arena", "--game", "dominoes", "random", "greedy", "pimc:playouts=20,worlds=2", "--games", "20", "--quiet"],
    ] {
        let out = ok(args);
        let table = out.split("ratings (maximum likelihood").nth(1);
        let no_table = out.contains("no rating table: ");
        assert!(table.is_some() || no_table, "senat {args:?}: {out}");
        if let Some(t) = table {
            // One row per agent, the first agent as the anchor.
            let rows: Vec<&str> = t.lines().skip(2).take(3).collect();
            assert_eq!(rows.iter().filter(|r| r.contains("anchor")).count(), 1, "{t}");
            assert!(rows.iter().any(|r| r.starts_with("random ")) && rows.iter().all(|r| r.contains('%')), "{t}");
        }
    }
    // A ladder or a gauntlet prints none.
    let out = ok(&["arena", "random", "greedy", "heuristic", "--games", "20", "--ladder", "--quiet"]);
    assert!(!out.contains("ratings (maximum likelihood") && !out.contains("no rating table"), "{out}");
}

// ---- 12. draft-stats counts no game twice and mixes no batches ----------------------

#[test]
fn draft_stats_refuses_repeated_files_and_foreign_moves() {
    let d = TempDir::new("faults-draft-stats");
    for (seed, g, m) in [("1", "a.csv", "am.csv"), ("2", "b.csv", "bm.csv")] {
        let args = ["selfplay", "--games", "20", "--seed", seed, "--out", g, "--moves", m, "--summary", "", "--quiet"];
        ok_in(&d.0, &args);
    }
    std::fs::copy(d.0.join("a.csv"), d.0.join("a-copy.csv")).unwrap();
    for (args, want) in [
        (&["draft-stats", "a.csv", "a.csv", "--out-dir", "t"][..], "a.csv is given twice"),
        (&["draft-stats", "a.csv", "./a.csv", "--out-dir", "t"], "is given twice"),
        (&["draft-stats", "a.csv", "a-copy.csv", "--out-dir", "t"], "hold the same batch and shard"),
        (&["draft-stats", "a.csv", "--moves", "bm.csv", "--out-dir", "t"], "bm.csv: a moves file of another batch"),
    ] {
        let e = fails_in(&d.0, args);
        assert!(e.contains(want), "{args:?}: {e}");
    }
    // A winner flipped by hand contradicts the final position.
    let text = d.text("a.csv");
    let flipped = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i != 2 {
                return l.to_string();
            }
            let mut f: Vec<String> = l.split(',').map(String::from).collect();
            f[7] = if f[7] == "red" { "blue".into() } else { "red".into() };
            f.join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    d.write("flipped.csv", &flipped);
    let e = fails_in(&d.0, &["draft-stats", "flipped.csv", "--out-dir", "t"]);
    assert!(e.contains("flipped.csv:3: winner") && e.contains("is not the final position's"), "{e}");
    assert!(!d.exists("t"), "nothing is written when refused");
    ok_in(&d.0, &["draft-stats", "a.csv", "b.csv", "--moves", "am.csv", "--moves", "bm.csv", "--out-dir", "t"]);
    // The shards of one batch are one batch: its moves file reads with the shards' games.
    for k in ["1", "2"] {
        let (g, m) = (format!("s{k}.csv"), format!("s{k}m.csv"));
        let shard = format!("{k}/2");
        let args =
            ["selfplay", "--games", "20", "--shard", &shard, "--out", &g, "--moves", &m, "--summary", "", "--quiet"];
        ok_in(&d.0, &args);
    }
    ok_in(&d.0, &["draft-stats", "s1.csv", "s2.csv", "--moves", "am.csv", "--out-dir", "t2"]);
}

// ---- 13. an arena game can be viewed -------------------------------------------------

#[test]
fn arena_games_are_viewed_from_its_moves_file() {
    let d = TempDir::new("faults-arena-moves");
    let args = [
        "arena",
        "random",
        "greedy",
        "--games",
        "4",
        "--book-plies",
        "3",
        "--variant",
        "closure=40",
        "--moves",
        "m.csv",
        "--out",
        "g.csv",
        "--quiet",
    ];
    let out = ok_in(&d.0, &args);
    assert_eq!(out.lines().last(), Some("wrote games g.csv, moves m.csv"), "{out}");
    let text = d.text("m.csv");
    assert!(
        text.starts_with("# senat-arena v2 game=senat variant=closure=40 seed=1 ")
            && text.lines().nth(1).unwrap().starts_with("game,pairing,pair,red,blue")
    );
    let mut indexes: Vec<&str> = text.lines().skip(2).map(|l| l.split(',').next().unwrap()).collect();
    indexes.sort_unstable();
    assert_eq!(indexes, ["0", "1", "2", "3"], "one row per game, indexed 2 × pair + seat");
    for i in indexes {
        // view replays the moves in the arena's variant and checks the final position and result.
        let page = format!("{i}.html");
        let o = ok_in(&d.0, &["view", "m.csv", "--index", i, "--out", &page]);
        assert!(o.starts_with(&format!("wrote {page} (")), "{o}");
    }
    // Dominoes too (tests/it/dominoes.rs checks its rows).
    ok_in(&d.0, &["arena", "--game", "dominoes", "random", "greedy", "--games", "2", "--moves", "x.csv"]);
    let out = ok_in(&d.0, &["view", "--game", "dominoes", "x.csv", "--index", "1", "--out", "x.html"]);
    assert!(out.starts_with("wrote x.html ("), "{out}");
}

// ---- 14. every command takes --game ------------------------------------------------

/// The commands only Sénat has so far take `--game`: `senat` runs as
/// without it, another game is refused in one line saying why, and a
/// mistyped name gets a suggestion.
#[test]
fn every_command_takes_game() {
    let d = TempDir::new("faults-every-game");
    for cmd in ["render", "play", "bench", "tune", "draft-stats", "metrics", "bench-mcts", "bench-search", "fit-leaf"] {
        let help = ok(&[cmd, "--help"]);
        assert!(help.contains("--game <GAME>"), "{cmd} --help: {help}");
    }
    ok_in(&d.0, &["render", "sample", "--game", "senat", "--out", "s.svg"]);
    // render draws every game's board.
    for g in ["focus", "focus4", "debacle", "dominoes"] {
        ok_in(&d.0, &["render", "start", "--game", g, "--out", &format!("{g}.svg")]);
        let svg = d.text(&format!("{g}.svg"));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{g}: {svg}");
    }
    for (args, why) in [
        (&["tune", "--game", "dominoes", "--out", "w.txt"][..], "fits the evaluations of Sénat, Focus and Débâcle"),
        (&["draft-stats", "--game", "debacle", "g.csv", "--out-dir", "t"], "which the other games do not have"),
        (&["bench", "--game", "focus4"], "measures Sénat's self-play only so far"),
        (&["bench-search", "--game", "focus", "--depth", "1"], "measures Sénat's alpha-beta only so far"),
    ] {
        let e = fails_in(&d.0, args);
        assert!(e.contains(why) && e.contains("is not available here"), "{args:?}: {e}");
    }
    let e = fails_in(&d.0, &["render", "sample", "--game", "fokus", "--out", "f.svg"]);
    assert!(e.contains("unknown game `fokus`; did you mean `focus`?"), "{e}");
    assert_eq!(
        d.names(),
        ["debacle.svg", "dominoes.svg", "focus.svg", "focus4.svg", "s.svg"],
        "a refused command writes nothing"
    );
}
