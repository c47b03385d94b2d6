//! `senat play`: sessions piped to stdin, as a person would type them
//! (legal moves, illegal ones, hint, undo, save, quit, end of input), and
//! the saved record replayed by `senat replay`; every game played to its
//! end against an engine, bad input in each, and a dominoes session that
//! never prints a tile its player may not see.

use senat_rules::{GameRecord, Position, sample};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Output, Stdio};

use crate::support::cli::bin;

/// Runs `senat play args` with `script` on stdin.
fn play(args: &[&str], script: &str) -> Output {
    let mut child = bin()
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("senat play starts");
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn dir(name: &str) -> PathBuf {
    crate::support::files::scratch("play", name)
}

/// The moves of a record file, replayed with `senat replay` (which must accept it).
fn replayed(path: &PathBuf) -> (String, Vec<String>) {
    let o = bin().args(["replay", "--quiet", path.to_str().unwrap()]).output().unwrap();
    assert!(o.status.success(), "senat replay {}: {}", path.display(), String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<String> =
        text.lines().map(|l| l.split('#').next().unwrap().trim().to_string()).filter(|l| !l.is_empty()).collect();
    (String::from_utf8(o.stdout).unwrap(), lines)
}

#[test]
fn scripted_session_from_the_sample() {
    let d = dir("sample");
    let saved = d.join("game.txt");
    let saved_s = saved.to_str().unwrap();
    let script = format!(
        "help\nmoves\nS1-S2\nbogus\nhint\nM13>M14:I19\nundo\nM13>M14:I19\nsave {saved_s}\nsave {saved_s}\nquit\nM16-M17\n"
    );
    let o = play(&["--engine", "greedy", "--from", "sample", "--plain", "--seed", "3"], &script);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success(), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    let start: Position = sample::START.parse().unwrap();
    // `moves` lists the legal moves of the position.
    let n = start.legal_moves().len();
    assert!(out.contains(&format!("{n} legal moves:\n")), "{out}");
    // In columns that fit 80 characters, every move once.
    let listed = listed_moves(&out);
    assert_eq!(listed.len(), n, "{out}");
    let list_lines =
        out.split(&format!("{n} legal moves:\n")).nth(1).unwrap().lines().take_while(|l| l.starts_with("  "));
    assert!(list_lines.clone().count() > 1 && list_lines.clone().all(|l| l.chars().count() <= 80), "{out}");
    // Illegal and unreadable input: the reason, and a new prompt.
    assert!(out.contains("`S1-S2`: illegal move: the die on S1 shows White"), "{out}");
    assert!(out.contains("`bogus`: bad move text"), "{out}");
    // The hint is a legal move.
    let hint = out.lines().find_map(|l| l.split("hint (greedy): ").nth(1)).expect("a hint");
    assert!(start.parse_move(hint.trim()).is_ok(), "hint {hint}");
    // Undo goes back to the start (the sample), shown again.
    let after_undo = &out[out.find("undone: back to ply 0").expect("undone")..];
    assert!(after_undo.contains(sample::START), "{after_undo}");
    assert!(out.contains("saved 2 moves to"), "{out}");
    assert!(out.contains("not saved: ") && out.contains("use `save!`"), "a second save refuses to overwrite: {out}");
    assert!(out.trim_end().ends_with("bye"), "quit ends the session, later input is not read: {out}");
    // The record: the sample's start, our move and the engine's reply.
    let (result, lines) = replayed(&saved);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0].parse::<Position>().unwrap(), start);
    assert_eq!(lines[1], "M13>M14:I19");
    let reply = out.lines().rev().find_map(|l| l.split("red (greedy) plays ").nth(1)).expect("engine reply");
    assert_eq!(lines[2], reply.trim());
    assert!(result.contains("game not over after 2 moves"), "{result}");
}

/// The moves of the first `N legal moves:` (or `1 legal move:`) listing of `out`, in order.
fn listed_moves(out: &str) -> Vec<String> {
    let mut lines = out.lines().skip_while(|l| !l.ends_with(" legal moves:") && !l.ends_with(" legal move:"));
    assert!(lines.next().is_some(), "a listing: {out}");
    lines.take_while(|l| l.starts_with("  ")).flat_map(|l| l.split_whitespace()).map(String::from).collect()
}

/// Reads the child's stdout up to the next prompt `red> `.
fn until_prompt(out: &mut impl Read, log: &mut String) -> String {
    until(out, log, "red> ")
}

/// Reads the child's stdout up to the next `prompt`.
fn until(out: &mut impl Read, log: &mut String, prompt: &str) -> String {
    let mut got = Vec::new();
    let mut byte = [0u8; 1];
    while !got.ends_with(prompt.as_bytes()) {
        if out.read(&mut byte).unwrap() == 0 {
            panic!("senat play ended early: {log}{}", String::from_utf8_lossy(&got));
        }
        got.push(byte[0]);
    }
    let s = String::from_utf8(got).unwrap();
    log.push_str(&s);
    s
}

#[test]
fn the_draft_against_an_engine_then_save_and_replay() {
    let d = dir("draft");
    let saved = d.join("draft.txt");
    let mut child = bin()
        .args(["play", "--engine", "random", "--as", "red", "--plain", "--seed", "5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("senat play starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut log = String::new();
    let first = until_prompt(&mut stdout, &mut log);
    // Blue (the engine) gives first: red is asked to place.
    assert!(first.contains("blue (random) plays g"), "{first}");
    assert!(first.contains("draft: red places die"), "{first}");
    let mut ours = Vec::new();
    // Play the first legal move listed, 30 times: the whole draft (23
    // placements and 22 gifts, about half of them ours) and into play.
    for _ in 0..30 {
        writeln!(stdin, "moves").unwrap();
        let listed = until_prompt(&mut stdout, &mut log);
        if listed.contains("no moves: the game is over") {
            break;
        }
        let m = listed_moves(&listed)[0].clone();
        writeln!(stdin, "{m}").unwrap();
        let after = until_prompt(&mut stdout, &mut log);
        assert!(!after.contains('`'), "{m} was refused: {after}");
        ours.push(m);
    }
    assert!(ours.iter().any(|m| m.contains('@')) && ours.iter().any(|m| m.starts_with('g')), "{ours:?}");
    writeln!(stdin, "save {}", saved.display()).unwrap();
    let said = until_prompt(&mut stdout, &mut log);
    assert!(said.contains("saved "), "{said}");
    drop(stdin); // end of input ends the session
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(rest.contains("end of input: bye"), "{rest}");
    // The record replays, starts from `start`, and holds our moves in order.
    let (_, lines) = replayed(&saved);
    assert_eq!(lines[0], "start");
    let mut g = GameRecord::new(Position::start());
    let mut mine = Vec::new();
    for text in &lines[1..] {
        let m = g.position().parse_move(text).unwrap();
        if g.position().side_to_move() == senat_rules::Side::Red {
            mine.push(text.clone());
        }
        g.play(m).unwrap();
    }
    assert_eq!(mine, ours);
    assert!(g.moves().len() >= 45, "the draft is in the record: {} moves", g.moves().len());
}

#[test]
fn bad_engine_and_position_are_refused() {
    let o = play(&["--engine", "nobody"], "");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.starts_with("senat: error: --engine: unknown policy `nobody`"), "{err}");
    let o = play(&["--from", "nowhere"], "");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("--from: `nowhere` is not a position"), "{err}");
}

/// A session of `senat play` driven line by line: what it printed up to
/// each prompt.
struct Driver {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::process::ChildStdout,
    prompt: String,
    log: String,
}

impl Driver {
    fn start(args: &[&str], prompt: &str) -> (Driver, String) {
        let mut child = bin()
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("senat play starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut log = String::new();
        let first = until(&mut stdout, &mut log, prompt);
        (Driver { child, stdin, stdout, prompt: prompt.to_string(), log }, first)
    }

    /// Types `line`; what came back up to the next prompt, the echo of the line removed.
    fn send(&mut self, line: &str) -> String {
        writeln!(self.stdin, "{line}").unwrap();
        let got = until(&mut self.stdout, &mut self.log, &self.prompt);
        got.split_once('\n').map_or(got.clone(), |(_, rest)| rest.to_string())
    }

    /// Plays the first legal move listed until the game ends (at most
    /// `turns` of ours); the `game over:` line's result.
    fn play_out(&mut self, turns: usize) -> String {
        for _ in 0..turns {
            let listed = self.send("moves");
            if let Some(r) = listed.lines().find_map(|l| l.strip_prefix("no moves: the game is over (")) {
                return r.trim_end_matches(')').to_string();
            }
            let m = listed_moves(&listed)[0].clone();
            let after = self.send(&m);
            assert!(!after.contains('`'), "{m} was refused: {after}");
            if let Some(r) = after.lines().find_map(|l| l.strip_prefix("game over: ")) {
                return r.to_string();
            }
        }
        panic!("not over after {turns} turns: {}", self.log);
    }

    /// Types `quit`: the session says bye and ends; the whole transcript.
    fn quit(mut self) -> String {
        writeln!(self.stdin, "quit").unwrap();
        let mut rest = String::new();
        self.stdout.read_to_string(&mut rest).unwrap();
        assert!(self.child.wait().unwrap().success());
        assert!(rest.ends_with("quit\nbye\n"), "{rest}");
        self.log + &rest
    }
}

/// Every game played to its end, our moves the first listed: the result
/// line is the one `senat replay` finds in the saved record.
#[test]
fn every_game_ends_with_the_result_of_its_record() {
    let d = dir("every");
    let cases: [(&str, &[&str], &str); 5] = [
        ("senat", &["--engine", "random", "--plain", "--seed", "2"], "blue> "),
        ("focus", &["--game", "focus", "--variant", "cap=30", "--engine", "greedy", "--as", "black"], "black> "),
        ("focus4", &["--game", "focus4", "--variant", "cap=24", "--engine", "random", "--as", "north"], "north> "),
        ("debacle", &["--game", "debacle", "--variant", "turns=6,rounds=1", "--engine", "greedy"], "south> "),
        (
            "dominoes",
            &["--game", "dominoes", "--variant", "target=1", "--engine", "greedy", "--seed", "4"],
            "player 0> ",
        ),
    ];
    for (name, args, prompt) in cases {
        let (mut s, first) = Driver::start(args, prompt);
        assert!(first.contains("key: "), "{name}: a legend at the start: {first}");
        let result = s.play_out(400);
        let saved = d.join(format!("{name}.txt"));
        let said = s.send(&format!("save {}", saved.display()));
        assert!(said.starts_with("saved "), "{name}: {said}");
        s.quit();
        let game = args.iter().position(|&a| a == "--game").map_or("senat", |i| args[i + 1]);
        let mut replay = vec!["replay", "--quiet", "--game", game, saved.to_str().unwrap()];
        if let Some(i) = args.iter().position(|&a| a == "--variant") {
            replay.extend(["--variant", args[i + 1]]);
        }
        let o = bin().args(&replay).output().unwrap();
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(o.status.success(), "{name}: {text}{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(text.trim_end().lines().last(), Some(result.as_str()), "{name}");
        let expected = match name {
            "focus" => "draw after 30 plies",
            "focus4" => "draw after 24 plies",
            "debacle" => " after ",
            "dominoes" => " rounds, scores [",
            _ => " (red ",
        };
        assert!(result.contains(expected), "{name}: {result}");
    }
}

/// Bad input in every game: one line that says why, then the prompt
/// again; the session goes on.
#[test]
fn bad_input_gets_one_line_and_the_prompt_again() {
    let cases: [(&[&str], &str, &str); 5] = [
        (&["--plain"], "blue> ", "S1-S2"),
        (&["--game", "focus", "--engine", "random"], "white> ", "a1-a2"),
        (&["--game", "focus4", "--engine", "random", "--as", "3"], "east> ", "c3-c4"),
        (&["--game", "debacle", "--engine", "random"], "south> ", "Fa6"),
        (&["--game", "dominoes", "--engine", "random", "--players", "3", "--as", "1"], "player 1> ", "0-0L"),
    ];
    for (args, prompt, illegal) in cases {
        let (mut s, _) = Driver::start(args, prompt);
        for bad in ["bogus", illegal, "\u{7}ding", "save", "undo", "hint"] {
            let reply = s.send(bad);
            let lines: Vec<&str> = reply.lines().collect();
            assert_eq!(lines.len(), 2, "{args:?} `{bad}`: one line, then the prompt: {reply}");
            assert_eq!(lines[1], prompt, "{args:?}");
            assert!(!reply.contains('\u{7}'), "control characters are escaped: {reply}");
            if bad == "bogus" || bad == illegal {
                assert!(lines[0].starts_with(&format!("`{bad}`: ")), "{args:?}: {reply}");
                assert!(!lines[0].contains(&format!("`{bad}`: `{bad}`")), "said once: {reply}");
            }
        }
        let log = s.quit();
        assert!(!log.contains("panicked"), "{log}");
    }
}

/// In dominoes nothing printed names a tile its player may not see: every
/// tile outside our dealt hand first appears as played by someone or
/// drawn by us.
#[test]
fn dominoes_never_prints_another_seats_tiles() {
    use senat_lab::play::{Next, Table, chance_seed};
    for (players, seat, seed) in [("2", "0", 6u64), ("2", "1", 7), ("4", "2", 8)] {
        let prompt = format!("player {seat}> ");
        let args = ["--game", "dominoes", "--players", players, "--as", seat, "--engine", "greedy", "--seed"];
        let seed_text = seed.to_string();
        let mut all: Vec<&str> = args.to_vec();
        all.push(&seed_text);
        let (mut s, _) = Driver::start(&all, &prompt);
        // Our moves until the first round ends.
        for _ in 0..60 {
            if s.log.contains("round 1 over") {
                break;
            }
            let listed = s.send("moves");
            let m = listed_moves(&listed)[0].clone();
            s.send(&m);
        }
        let log = s.quit();
        let round = &log[..log.find("round 1 over").expect("the first round ends")];
        // The deal, as the session made it.
        let v = dominoes_rules::Variant::parse(&format!("players={players}")).unwrap();
        let mut st = dominoes_rules::State::start(v);
        let mut rng = game_search::rng::rng_from_seed(chance_seed(seed));
        while <senat_lab::games::dominoes::Dominoes as Table>::next(&st) == Next::Chance {
            let m = <senat_lab::games::dominoes::Dominoes as Table>::chance(&st, &mut rng).unwrap();
            st.play_unchecked(m);
        }
        let me: usize = seat.parse().unwrap();
        let mine = st.hand(me);
        assert!(mine.iter().all(|t| round.contains(&t.to_string())), "our hand is shown: {round}");
        for t in dominoes_rules::TileSet::ALL.iter().filter(|&t| !mine.contains(t)) {
            let text = t.to_string();
            if let Some(i) = round.find(&text) {
                let before = &round[..i];
                assert!(
                    before.ends_with(" plays ") || before.ends_with("(you) draws "),
                    "{text} is printed before it is played, or drawn by us (seat {seat}): {round}"
                );
            }
        }
    }
}
