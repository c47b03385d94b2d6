//! The binary under hostile input (issue 8, items 5 and 7): every bad number
//! is refused with one `senat: error:` line that names the flag and the
//! accepted range (exit 2), argument errors from clap are one line too, echoed
//! input is escaped, error columns count characters, and a lazy-SMP result is
//! labelled with the depth it was searched to.

use crate::support::cli::{TempRecord, fails, ok, senat, stderr, stdout};
use senat_lab::policy::{Agent, HeuristicPolicy, Turn, Weights, rng_from_seed};
use senat_rules::{GameRecord, Position};

const EMPTY_BOARD: &str = ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,.";

// ---- one error format ---------------------------------------------------------

#[test]
fn clap_errors_are_one_line_with_a_help_hint() {
    for (args, want) in [
        (&["analyze", "sample", "--depht", "3"][..], "see `senat analyze --help`"),
        (&["perft", "start"][..], "--depth <N>"),
        (&["bench", "--threads", "x"][..], "'x'"),
        (&["frobnicate"][..], "see `senat --help`"),
        (&[][..], "no command given"),
        (&["analyze", "sample", "--engine"][..], "see `senat analyze --help`"),
    ] {
        let e = fails(args);
        assert!(e.contains(want), "{args:?}: {e}");
        assert!(e.contains("--help"), "{args:?}: {e}");
    }
    // A value with a newline is escaped, not echoed raw.
    let e = fails(&["bench", "--threads", "1\n2"]);
    assert!(e.contains("1\\n2"), "{e}");
}

#[test]
fn help_and_version_still_print_normally() {
    for args in [&["--help"][..], &["analyze", "--help"][..], &["--version"][..], &["-V"][..]] {
        let o = senat(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(!stdout(&o).is_empty() && stderr(&o).is_empty(), "{args:?}");
    }
    assert!(stdout(&senat(&["analyze", "--help"])).lines().count() > 10);
}

#[test]
fn echoed_input_is_escaped() {
    let with = |c: &str| format!(".,.,.{c},.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 0");
    let e = fails(&["show", &with("\t")]);
    assert!(e.contains("\\t") && !e.contains('\t'), "{e}");
    let e = fails(&["show", &with("\u{7}")]);
    assert!(e.contains("\\u{7}"), "{e}");
    let e = fails(&["show", &with("\u{200b}")]);
    assert!(e.contains("\\u{200b}"), "{e}");
    // A byte-order mark in an SPN is named.
    let e = fails(&["show", &format!("\u{feff}{EMPTY_BOARD} give:b - 0-0-0 0")]);
    assert!(e.contains("\\u{feff}") && e.contains("byte-order mark") && !e.contains('\u{feff}'), "{e}");
    // A newline inside an SPN (the message stays one line).
    let e = fails(&["show", &with("\n")]);
    assert!(e.contains("\\n"), "{e}");
    // A move with a control character, in a record.
    let r = TempRecord::new("escape-move", "start\ng3\u{1b}[31m\n");
    let e = fails(&["replay", r.path()]);
    assert!(e.contains("g3\\u{1b}[31m") && !e.contains('\u{1b}'), "{e}");
}

#[test]
fn columns_count_characters_and_blanks_are_found_where_they_are() {
    // One space between fields, as every game reads them (issue 56): a
    // no-break space is refused where it stands.
    let e = fails(&["moves", &format!("{EMPTY_BOARD} \u{a0}give:x - 0-0-0 0")]);
    assert!(e.contains("column 47: `\u{a0}`: expected a single space between fields"), "{e}");
    let e = senat_rules::notation::parse_setup(&format!("{EMPTY_BOARD} give:\u{a0}x - 0-0-0 0")).unwrap_err();
    assert_eq!((e.token.as_str(), e.column), ("\u{a0}", 52));
    // A stray space inside the board: at column 42, not at the end.
    let e = fails(&["show", ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,. ,.,. give:b - 0-0-0 0"]);
    assert!(e.contains("column 42: ` `") && e.contains("no blank"), "{e}");
    let e = fails(&["show", ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,. . give:b - 0-0-0 0"]);
    assert!(e.contains("column 44"), "{e}");
    let e = fails(&["show", ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. b S1, M12 0-0-0 1"]);
    assert!(e.contains("column 52"), "{e}");
    // A real sixth field is still reported as such.
    let e = fails(&["show", &format!("{EMPTY_BOARD} give:b - 0-0-0 0 x")]);
    assert!(e.contains("column 64: `x`: expected the end of the SPN"), "{e}");
}

#[test]
fn a_byte_order_mark_at_the_start_of_a_record_is_skipped() {
    let r = TempRecord::new("bom", "\u{feff}start\ng3\n");
    let out = ok(&["replay", r.path(), "--quiet"]);
    assert!(out.contains("game not over after 1 moves"), "{out}");
}

// ---- bounds on every number -------------------------------------------------------

#[test]
fn time_limits_must_fit() {
    for t in ["1e20", "inf", "NaN", "0", "-1", "31536001"] {
        for args in [
            vec!["analyze".to_string(), "sample".into(), format!("--time={t}")],
            vec!["analyze".into(), "sample".into(), "--engine".into(), "mcts".into(), format!("--time={t}")],
            vec!["solve".into(), "sample".into(), "--max-depth".into(), "3".into(), format!("--time={t}")],
        ] {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let e = fails(&args);
            assert!(e.contains("--time") && e.contains("365 days"), "{args:?}: {e}");
        }
    }
}

#[test]
fn memory_sizes_are_bounded_by_the_machine() {
    let huge = "18446744073709551615";
    for args in [
        vec!["analyze", "sample", "--depth", "2", "--tt-mb", huge],
        vec!["analyze", "sample", "--depth", "2", "--tt-mb", "100000000"],
        vec!["solve", "sample", "--max-depth", "2", "--tt-mb", huge],
        vec!["bench-search", "--depth", "2", "--tt-mb", huge],
        vec!["analyze", "sample", "--engine", "mcts", "--memory-mb", "17592186044416"],
    ] {
        let e = fails(&args);
        assert!(e.contains("expected megabytes in") && e.contains("MemTotal"), "{args:?}: {e}");
    }
    for spec in ["ab:tt=18446744073709551615", "mcts:mb=17592186044416"] {
        let e = fails(&["arena", "random", spec, "--games", "2"]);
        assert!(e.contains("expected megabytes in"), "{spec}: {e}");
    }
}

#[test]
fn thread_counts_are_capped() {
    for n in ["10000", "17592186044416"] {
        for args in [
            // Before the fix the selfplay case failed fast on its output; the
            // others spawned the threads (10000: a minute; 2^44: an abort).
            vec!["selfplay", "--games", "2", "--threads", n, "--out", "/nonexistent/x.csv"],
            vec!["analyze", "sample", "--depth", "2", "--threads", n],
            vec!["analyze", "sample", "--engine", "mcts", "--playouts", "10", "--threads", n],
            vec!["bench-search", "--depth", "1", "--threads", n],
            vec!["bench-mcts", "--playouts", "10", "--threads", n],
            vec!["bench", "--games", "2", "--threads", n],
            vec!["arena", "random", "greedy", "--games", "2", "--concurrency", n],
        ] {
            let e = fails(&args);
            assert!(e.contains(&format!("{n}: expected 1..=")) && e.contains("threads"), "{args:?}: {e}");
        }
    }
    let e = fails(&["arena", "random", "mcts:threads=100000", "--games", "2"]);
    assert!(e.contains("`threads=100000`: expected 1..="), "{e}");
}

#[test]
fn depths_are_capped_and_solve_reports_the_horizon_completed() {
    for args in [
        vec!["analyze", "sample", "--depth", "1000", "--time", "2"],
        vec!["solve", "sample", "--max-depth", "4294967295", "--time", "1"],
        vec!["bench-search", "--depth", "1000"],
    ] {
        let e = fails(&args);
        assert!(e.contains("1..=120 plies"), "{args:?}: {e}");
    }
    let e = fails(&["arena", "random", "ab:depth=1000", "--games", "2"]);
    assert!(e.contains("`depth=1000`: expected a depth in 1..=120"), "{e}");
    let e = fails(&["perft", "start", "--depth", "4000000000"]);
    assert!(e.contains("0..=120 plies"), "{e}");
    // Stopped by the clock: the verdict names the horizon reached, not --max-depth.
    let out = ok(&["solve", "sample", "--max-depth", "120", "--time", "0.3"]);
    let verdict = out.lines().next().unwrap();
    assert!(verdict.contains("(stopped before --max-depth 120)") && !verdict.contains("within 120"), "{out}");
}

#[test]
fn weights_must_evaluate_to_finite_scores() {
    let e = fails(&["selfplay", "--games", "2", "--red", "heuristic:own_i=1e308,opp_i=-1e308", "--out", "/tmp/never"]);
    assert!(e.contains("`own_i=1e308`: out of range"), "{e}");
    // Weights set past the parser (overflowing to ±inf and NaN scores) still
    // give a legal move every turn: the choice never panics.
    let weights = Weights { own_i: 1e308, opp_i: -1e308, pile: f64::MAX, ..Weights::default() };
    let mut policy = HeuristicPolicy { weights };
    let mut rng = rng_from_seed(8);
    let mut game = GameRecord::new(Position::start());
    while game.outcome().is_none() {
        let m = policy.choose(&Turn::new(&game), &mut rng);
        game.play(m).expect("the policy's move is legal");
    }
}

#[test]
fn records_are_read_with_bounds() {
    // Cheap cases first: before the fix, /dev/zero was read without end.
    let long = TempRecord::new("long-line", &format!("start\n{}\n", "g".repeat(5000)));
    let e = fails(&["replay", long.path()]);
    assert!(e.contains(":2: line of 5000 bytes"), "{e}");
    let bad = TempRecord::bytes("not-utf8", b"start\n\xff\xfe\n");
    let e = fails(&["replay", bad.path()]);
    assert!(e.contains("not UTF-8"), "{e}");
    let e = fails(&["replay", "/dev/zero"]);
    assert!(e.contains("/dev/zero") && e.contains("16 MiB"), "{e}");
    let e = fails(&["analyze", "--history", "/dev/zero", "--depth", "1"]);
    assert!(e.contains("16 MiB"), "{e}");
    let e = fails(&["selfplay", "--games", "2", "--red", "heuristic:file=/dev/zero", "--out", "/tmp/never"]);
    assert!(e.contains("weights file") && e.contains("16 MiB"), "{e}");
}

// ---- lazy SMP labels --------------------------------------------------------------

#[test]
fn a_depth_4_result_with_threads_is_a_depth_4_result() {
    let score = |threads: &str| {
        let out = ok(&["analyze", "sample", "--depth", "4", "--threads", threads]);
        out.lines().find(|l| l.starts_with("score ")).unwrap().to_string()
    };
    let one = score("1");
    // Before the fix, helpers searching depth 5 and beyond filled the table,
    // and most runs printed the depth-5 score under the depth-4 label.
    for _ in 0..6 {
        assert_eq!(score("8"), one);
    }
}

// ---- the other games' readers (issue 56, item 8) ------------------------------------

/// `replay` of every game reads its record through the shared bounded
/// reader: bad UTF-8 is refused with its byte offset, the path named once.
#[test]
fn every_replay_names_the_bad_byte_once() {
    let bad = TempRecord::bytes("not-utf8-games", b"start\n\xff\xfe\n");
    for game in ["focus", "focus4", "debacle", "dominoes"] {
        let e = fails(&["replay", "--game", game, bad.path()]);
        assert!(e.contains("not UTF-8 text (invalid byte at offset 6)"), "{game}: {e}");
        assert_eq!(e.matches(bad.path()).count(), 1, "{game}: {e}");
    }
    let garbage = TempRecord::new("garbage-dominoes", "garbage line\n");
    let e = fails(&["replay", "--game", "dominoes", garbage.path()]);
    assert_eq!(e.matches(garbage.path()).count(), 1, "{e}");
    assert!(e.contains(":1: bad position: 2 fields, expected 10"), "{e}");
}

/// `play` reading binary standard input: one line, exit 2, the input not
/// repeated; a line beyond the record limit likewise.
#[test]
fn play_refuses_unreadable_input_in_one_line() {
    use std::io::Write;
    let mut noise: Vec<u8> = b"help\n".to_vec();
    noise.extend((0..3000u32).map(|i| (i * 7919 % 251) as u8 | 0x80));
    let long = format!("help\n{}\n", "a".repeat(10_000));
    for game in ["senat", "focus", "debacle", "dominoes"] {
        for input in [&noise[..], long.as_bytes()] {
            let mut child = crate::support::cli::bin()
                .args(["play", "--game", game])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("the senat binary runs");
            child.stdin.take().unwrap().write_all(input).unwrap();
            let o = child.wait_with_output().unwrap();
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{game}: {e}");
            assert_eq!(e.lines().count(), 1, "{game}: {e}");
            assert!(e.starts_with("senat: error: cannot read the input: "), "{game}: {e}");
            assert!(e.len() < 200, "{game}: {e}");
        }
    }
}

// ---- weights files (issue 56, item 2) -----------------------------------------

/// Every game's network file and Sénat's weights go through the one reader
/// (`senat_lab::weights_file`): a file cut short, a row repeated, a number
/// cut mid-way (with the check line or, for the cut, without it) and a value
/// beyond ±1e6 are each refused with one line naming the file and the line.
#[test]
fn cut_or_edited_weights_files_are_refused_with_the_file_and_line() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/lab/data/");
    // The game, its network file and the agent spec up to `file=`.
    let cases = [
        ("focus", "net-focus.txt", "ab:depth=1,"),
        ("focus4", "net-focus.txt", "ab:depth=1,"),
        ("debacle", "net-debacle.txt", "ab:depth=1,"),
        ("dominoes", "net-dominoes.txt", "pimc:playouts=20,leaf=net,"),
        ("senat", "net-senat-draft.txt", "learned:"),
    ];
    for (game, name, agent) in cases {
        let text = std::fs::read_to_string(format!("{data}{name}")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let check = lines.iter().position(|l| l.starts_with("check=")).expect("a check line");
        let row = lines.iter().position(|l| l.starts_with("net.w1.3=")).unwrap();
        let join = |v: &[&str]| v.join("\n") + "\n";
        let mut twice = lines.clone();
        twice.insert(row + 1, lines[row]);
        let cut_number = lines[row][..lines[row].len() - 4].to_string();
        let mut mid = lines.clone();
        mid[row] = &cut_number;
        let mut bare = lines.clone();
        bare.remove(check);
        let beyond = join(&bare).replacen("net.b2=", "net.b2=2e6 #", 1);
        let end = lines.len() - 30;
        for (what, body, line, want) in [
            ("cut", join(&lines[..end]), end, "cut short"),
            ("cut, no check line", join(&bare[..end - 1]), end - 1, "cut short"),
            ("twice", join(&twice), row + 2, "given twice"),
            ("number cut", join(&mid), 0, "line "),
            ("beyond", beyond, 0, "is beyond ±1e6"),
        ] {
            let f = TempRecord::new(&format!("weights-{game}-{}", what.replace([' ', ','], "-")), &body);
            let spec = format!("{agent}file={}", f.path());
            let args = ["bestmove", "--game", game, "--agent", &spec, "start"];
            let e = fails(&args);
            assert!(e.contains(f.path()) && e.contains(want), "{game} {what}: {e}");
            if line > 0 {
                assert!(e.contains(&format!("line {line}: ")), "{game} {what}: {e}");
            }
            if what == "number cut" {
                // The row itself where it no longer reads as numbers, else the check line's hash.
                let at_row = e.contains(&format!("line {}: ", row + 1));
                let at_check = e.contains(&format!("line {}: ", check + 1)) && e.contains("edited or damaged");
                assert!(at_row || at_check, "{game} {what}: {e}");
            }
        }
    }
}

/// Dominoes reads `--players` and `--variant` against a position text as
/// Focus and Débâcle do, and a state's error is the state's alone.
#[test]
fn dominoes_positions_are_read_as_the_other_games() {
    let shown = ok(&["show", "--game", "dominoes", "start"]);
    let start = shown.lines().last().unwrap().to_string();
    for flags in [&["--players", "3"][..], &["--variant", "target=50"][..]] {
        let e = fails(&[&["moves", "--game", "dominoes"][..], flags, &["--", &start]].concat());
        assert!(e.contains("the position's own variant is `-`"), "{flags:?}: {e}");
    }
    ok(&["moves", "--game", "dominoes", "--players", "2", "--", &start]);
    let e = fails(&["moves", "--game", "dominoes", "--", &start.replacen(" 0 ", " 7 ", 1)]);
    assert!(!e.contains("observation"), "{e}");
    let e = fails(&["moves", "--game", "dominoes", "--", &format!("o0 {}", "x y")]);
    assert!(e.contains("observation"), "{e}");
}

// ---- records of the other games (issue 56, item 3) ------------------------------

/// `replay --game focus|focus4|debacle` reads through the record reader of
/// `view` and `render` (16 MiB, lines of 4,096 bytes), and an error quotes
/// at most a short part of a long line.
#[test]
fn other_games_replays_are_read_with_the_record_limits() {
    let long_line = TempRecord::new("replay-long-line", &format!("start\n{}\n", "a".repeat(5000)));
    let long_move = TempRecord::new("replay-long-move", &format!("start\n{}\n", "a ".repeat(2000)));
    for game in ["focus", "focus4", "debacle"] {
        let started = std::time::Instant::now();
        let e = fails(&["replay", "--game", game, "/dev/zero"]);
        assert!(e.contains("/dev/zero") && e.contains("16 MiB"), "{game}: {e}");
        assert!(started.elapsed().as_secs() < 20, "{game}: /dev/zero refused quickly");
        let e = fails(&["replay", "--game", game, long_line.path()]);
        assert!(e.contains(":2: line of 5000 bytes"), "{game}: {e}");
        let e = fails(&["replay", "--game", game, "--quiet", long_move.path()]);
        assert!(e.contains(":2: ") && e.len() < 400, "{game}: {} bytes: {e}", e.len());
    }
}
