//! Integration tests of the `senat` binary: each runs the built program
//! with `std::process::Command` and checks its stdout, stderr and exit code.

use senat_rules::notation::START_SPN;
use senat_rules::{GameRecord, Position};

use crate::support::cli::{TempRecord, fails, ok, senat, stderr, stdout};

/// A whole game from the start, always playing the first legal move, and its outcome.
fn first_move_game() -> (Vec<String>, String) {
    let mut game = GameRecord::new(Position::start());
    let mut moves = Vec::new();
    while game.outcome().is_none() {
        assert!(moves.len() < 10_000, "the first-move game does not end");
        let m = game.position().legal_moves()[0];
        game.play(m).expect("a generated move is legal");
        moves.push(m.to_string());
    }
    (moves, game.outcome().unwrap().to_string())
}

// ---- moves --------------------------------------------------------------

#[test]
fn moves_start_lists_the_22_gives_sorted() {
    let out = ok(&["moves", "start"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 22, "{out}");
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    assert_eq!(lines, sorted, "sorted by byte order");
    let mut expected: Vec<String> = std::iter::once(1).chain(3..=23).map(|d| format!("g{d}")).collect();
    expected.sort_unstable();
    assert_eq!(lines, expected);
}

#[test]
fn moves_accepts_spn_as_one_or_several_arguments() {
    let whole = ok(&["moves", START_SPN]);
    let words: Vec<&str> = std::iter::once("moves").chain(START_SPN.split(' ')).collect();
    assert_eq!(ok(&words), whole);
    assert_eq!(ok(&["moves", "start"]), whole);
}

#[test]
fn moves_after_a_give_are_placements() {
    let spn = ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. place:r:17 - 0-0-0 0";
    let out = ok(&["moves", spn]);
    assert!(out.lines().count() > 0);
    assert!(out.lines().all(|l| l.starts_with("17@")), "{out}");
}

// ---- perft --------------------------------------------------------------

#[test]
fn perft_last_line_is_the_library_count() {
    let out = ok(&["perft", "start", "--depth", "2"]);
    let last = out.lines().last().expect("some output");
    let n: u64 = last.parse().expect("the last line is a number alone");
    assert_eq!(n, senat_rules::perft::perft(&Position::start(), 2));
}

#[test]
fn perft_divide_lines_sum_to_the_total() {
    let out = ok(&["perft", "start", "--depth", "2", "--divide"]);
    let lines: Vec<&str> = out.lines().collect();
    let (total, per_move) = lines.split_last().expect("some output");
    let total: u64 = total.parse().expect("the last line is a number alone");
    assert_eq!(per_move.len(), 22);
    let sum: u64 = per_move
        .iter()
        .map(|l| {
            let (m, n) = l.split_once(' ').expect("`<move> <count>`");
            assert!(m.starts_with('g'), "{l}");
            n.parse::<u64>().expect("a count")
        })
        .sum();
    assert_eq!(sum, total);
    assert_eq!(total, senat_rules::perft::perft(&Position::start(), 2));
}

#[test]
fn perft_full_agrees_with_bulk() {
    let bulk = ok(&["perft", "start", "--depth", "3"]);
    let full = ok(&["perft", "start", "--depth", "3", "--full"]);
    assert_eq!(bulk, full);
    let full_divide = ok(&["perft", "start", "--depth", "3", "--full", "--divide"]);
    assert_eq!(full_divide, ok(&["perft", "start", "--depth", "3", "--divide"]));
}

#[test]
fn perft_depth_zero_is_one() {
    assert_eq!(ok(&["perft", "start", "--depth", "0"]).trim(), "1");
}

#[test]
fn perft_reports_speed_on_stderr() {
    let o = senat(&["perft", "start", "--depth", "1"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "22\n");
    // `perft depth 1 (bulk): 22 nodes in 0.000 s, 2.05 Mnodes/s`
    let err = stderr(&o);
    let rest = err.strip_prefix("perft depth 1 (bulk): 22 nodes in ").unwrap_or_else(|| panic!("{err:?}"));
    let (secs, speed) = rest.split_once(" s, ").unwrap_or_else(|| panic!("{err:?}"));
    assert!(secs.parse::<f64>().is_ok_and(|s| s >= 0.0), "{err:?}");
    let speed = speed.strip_suffix(" Mnodes/s\n").unwrap_or_else(|| panic!("{err:?}"));
    assert!(speed.parse::<f64>().is_ok_and(|v| v >= 0.0) || speed == "inf", "{err:?}");
    assert_eq!(err.lines().count(), 1, "{err:?}");
}

// ---- show ---------------------------------------------------------------

#[test]
fn show_prints_board_then_spn() {
    let out = ok(&["show", "start", "--plain"]);
    assert!(!out.contains('\x1b'), "no escapes with --plain");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 9, "{out}");
    // Three rows of empty cells, each above its cell names.
    assert_eq!(lines[0].split_whitespace().collect::<Vec<_>>(), ["·"; 11], "{out}");
    assert_eq!(lines[1], "S1  S2  S3  S4  S5  S6  S7  S8  S9  S10 S11", "{out}");
    assert_eq!(lines[2].split_whitespace().count(), 7, "{out}");
    assert_eq!(lines[3].trim(), "M12 M13 M14 M15 M16 M17 M18", "{out}");
    assert_eq!(lines[4].split_whitespace().count(), 5, "{out}");
    assert_eq!(lines[5].trim(), "I19 I20 I21 I22 I23", "{out}");
    assert_eq!(lines[6], "door ▼   red pile 0   blue pile 0   white discard 0", "{out}");
    assert_eq!(lines[7], "draft: blue gives a die", "{out}");
    assert_eq!(lines[8], START_SPN);
    // The sample position: a die with its symbol and shown colour on every cell.
    let out = ok(&["show", "sample", "--plain"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["▲w", "■b", "▲b", "■r", "▲r", "▲b", "●r", "■b", "●r", "▲r", "■b"]
    );
    assert_eq!(lines[7], "blue to move, clock 0", "{out}");
    assert_eq!(lines[8], senat_rules::sample::START);
}

#[test]
fn show_bad_spn_names_the_token() {
    let bad = START_SPN.replacen(".", "17Xx", 1);
    let err = fails(&["show", &bad]);
    assert!(err.contains("`Xx`"), "{err}");
    let err = fails(&["show", &START_SPN.replace("give:b", "q")]);
    assert!(err.contains("`q`"), "{err}");
    let err = fails(&["show", "nowhere"]);
    assert!(err.contains("`nowhere`"), "{err}");
}

// ---- usage --------------------------------------------------------------

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    assert_eq!(senat(&[]).status.code(), Some(2));
    assert_eq!(senat(&["perft", "start"]).status.code(), Some(2), "--depth is required");
    assert_eq!(senat(&["moves"]).status.code(), Some(2), "a position is required");
    assert_eq!(senat(&["frobnicate"]).status.code(), Some(2));
    let help = ok(&["--help"]);
    for command in ["moves", "perft", "show", "replay"] {
        assert!(help.contains(command), "{help}");
    }
    assert!(ok(&["replay", "--help"]).contains("#"));
}

// ---- replay -------------------------------------------------------------

#[test]
fn replay_of_the_sample_game_says_blue_wins() {
    let out = ok(&["replay", "crates/rules/data/sample-game.txt", "--quiet"]);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert_eq!(out, "blue wins by majority (red 4, blue 5, white 0)\n");
    let out = ok(&["replay", "crates/rules/data/sample-game.txt", "--plain"]);
    assert_eq!(out.lines().last(), Some("blue wins by majority (red 4, blue 5, white 0)"), "{out}");
    // The start, then each move numbered with the position after it, in SPN
    // as the last line of each block: the record's moves, replayed.
    let blocks: Vec<&str> = out.split("\n\n").collect();
    let record: Vec<&str> = senat_rules::sample::record_lines().collect();
    assert_eq!(blocks.len(), record.len() + 1, "start, 27 moves, the result");
    assert!(blocks[0].starts_with("start\n") && blocks[0].ends_with(record[0]), "{}", blocks[0]);
    let mut game = GameRecord::new(record[0].parse().unwrap());
    for (i, (block, text)) in blocks[1..].iter().zip(&record[1..]).enumerate() {
        let m = game.position().parse_move(text).unwrap();
        game.play(m).unwrap();
        assert!(block.starts_with(&format!("{}. {m}\n", i + 1)), "{block}");
        assert_eq!(block.lines().last(), Some(game.position().to_spn().as_str()), "{block}");
    }
}

#[test]
fn replay_plays_a_whole_game_to_its_outcome() {
    let (moves, outcome) = first_move_game();
    let record = format!("# first legal move every time\nstart\n{}\n", moves.join("\n"));
    let file = TempRecord::new("whole", &record);
    let out = ok(&["replay", file.path(), "--quiet"]);
    assert!(out.starts_with(&format!("{outcome} (red ")), "{out} vs {outcome}");
    let out = ok(&["replay", file.path(), "--plain"]);
    assert!(out.lines().last().unwrap().starts_with(&outcome));
}

#[test]
fn replay_refuses_a_move_after_the_end() {
    let (moves, outcome) = first_move_game();
    let record = format!("start\n{}\ng1\n", moves.join("\n"));
    let file = TempRecord::new("after-end", &record);
    let err = fails(&["replay", file.path(), "--quiet"]);
    let line = moves.len() + 2;
    assert!(err.contains(&format!(":{line}: move `g1`")), "{err}");
    assert!(err.contains(&outcome), "{err}");
}

#[test]
fn replay_of_an_unfinished_game_says_so() {
    let file = TempRecord::new("unfinished", "start  # the empty board\n\ng1 # blue gives die 1\n1@S1=Tr\n");
    let out = ok(&["replay", file.path(), "--quiet"]);
    assert_eq!(out, "game not over after 2 moves (red 0, blue 0, white 0), red to move\n");
}

#[test]
fn replay_names_the_line_of_an_illegal_move() {
    let file = TempRecord::new("illegal", "# a draft\nstart\ng1\n\n1@S1=Tr\ng3\ng3 # must place die 3 now\n");
    let o = senat(&["replay", file.path()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.starts_with("senat: error: "), "{err}");
    assert!(err.contains(":7: move `g3`: illegal move"), "{err}");
    assert!(stdout(&o).contains("3. g3"), "the positions before the bad move are printed");
}

#[test]
fn replay_names_the_line_of_an_unparsable_move() {
    let file = TempRecord::new("unparsable", "start\ng1\nfoo\n");
    let err = fails(&["replay", file.path(), "-q"]);
    assert!(err.contains(":3: move `foo`: bad move text"), "{err}");
}

#[test]
fn replay_reports_a_bad_start_position() {
    let file = TempRecord::new("bad-start", "# header\n.,.,. b - 0-0-0 0\ng1\n");
    let err = fails(&["replay", file.path()]);
    assert!(err.contains(":2: start position: bad SPN"), "{err}");
    let err = fails(&["replay", "/nonexistent/senat/record.txt"]);
    assert!(err.contains("cannot read"), "{err}");
    let file = TempRecord::new("empty", "# only comments\n\n");
    assert!(fails(&["replay", file.path()]).contains("no start position"));
}

// ---- the binary's own layout -------------------------------------------

/// The `crate::cli::NAME` modules each command module of `src/cli` names.
fn cli_imports() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut graph = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("src/cli is readable") {
        let path = entry.expect("a directory entry").path();
        let Some(name) = path.file_stem().and_then(|s| s.to_str()).map(str::to_string) else { continue };
        if path.extension().is_none_or(|e| e != "rs") || name == "mod" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a module is readable");
        let mut deps = std::collections::BTreeSet::new();
        for (i, _) in text.match_indices("crate::cli::") {
            let rest = &text[i + "crate::cli::".len()..];
            let dep: String = rest.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
            if !dep.is_empty() && dep != name {
                deps.insert(dep);
            }
        }
        graph.insert(name, deps);
    }
    graph
}

#[test]
fn the_command_modules_form_no_circle_and_the_shared_ones_import_no_command() {
    let graph = cli_imports();
    for m in ["common", "game", "rules", "batch", "arena", "search", "view", "bestmove"] {
        assert!(graph.contains_key(m), "src/cli/{m}.rs is missing: {graph:?}");
    }
    for gone in ["games", "dominoes"] {
        assert!(
            !graph.contains_key(gone),
            "src/cli/{gone}.rs is back: every game's handler lives in its command's module"
        );
    }
    assert!(graph["common"].is_empty(), "cli::common imports {:?}", graph["common"]);
    assert_eq!(graph["game"].iter().collect::<Vec<_>>(), ["common"], "cli::game imports only cli::common");
    // Depth-first search for a circle.
    fn visit<'a>(
        m: &'a str,
        graph: &'a std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut std::collections::BTreeSet<&'a str>,
    ) {
        if done.contains(m) {
            return;
        }
        assert!(!path.contains(&m), "a circle of command modules: {} -> {m}", path.join(" -> "));
        path.push(m);
        for d in graph.get(m).into_iter().flatten() {
            visit(d, graph, path, done);
        }
        path.pop();
        done.insert(m);
    }
    let mut done = std::collections::BTreeSet::new();
    for m in graph.keys() {
        visit(m, &graph, &mut Vec::new(), &mut done);
    }
}

#[test]
fn arena_selfplay_and_bestmove_long_help_list_every_games_agents() {
    for cmd in ["arena", "selfplay", "bestmove"] {
        let help = ok(&[cmd, "--help"]);
        for family in [
            "Sénat policies: random | greedy",
            "Focus and Débâcle agents: random | greedy",
            "Dominoes agents: random | greedy | pimc",
        ] {
            assert!(help.contains(family), "`senat {cmd} --help` lacks `{family}`:\n{help}");
        }
        for name in ["top", "strong", "fast", "Dominoes (--game dominoes):"] {
            assert!(help.contains(name), "`senat {cmd} --help` lacks `{name}`");
        }
        assert!(!help.contains("--concurrency (unless"), "`senat {cmd} --help` still names --concurrency as the flag");
    }
}

/// A finished game's board says who won, not who moves: the last board of
/// `replay`, and `show` of a position whose end needs no history.
#[test]
fn a_finished_board_says_who_won() {
    let out = ok(&["replay", "crates/rules/data/sample-game.txt"]);
    let last = &out[out.rfind("\n27. ").expect("the last move")..];
    assert!(last.contains("\nblue wins by majority\n") && !last.contains(" to move"), "{last}");
    let end = "3Tr,8Sr,.,13Sr,.,9Tb,6Cr,12Sb,5Cr,.,16Sb/.,4Sb,23Cr,.,1Sr,.,15Tr/.,.,18Tr,.,2Sb r - 4-5-0 0";
    let shown = ok(&["show", end, "--plain"]);
    assert!(shown.contains("\nblue wins by majority\n") && !shown.contains(" to move"), "{shown}");
    assert!(ok(&["show", "sample", "--plain"]).contains("\nblue to move, clock 0\n"));
}
