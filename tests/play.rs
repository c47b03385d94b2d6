//! `senat play`: sessions piped to stdin, as a person would type them
//! (legal moves, illegal ones, hint, undo, save, quit, end of input), and
//! the saved record replayed by `senat replay`.

use senat_rules::{GameRecord, Position, sample};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Output, Stdio};

mod support {
    pub mod cli;
    pub mod files;
}
use support::cli::bin;

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
    support::files::scratch("play", name)
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
    assert!(out.contains(&format!("{n} legal moves: ")), "{out}");
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

/// Reads the child's stdout up to the next prompt `red> `.
fn until_prompt(out: &mut impl Read, log: &mut String) -> String {
    let mut got = Vec::new();
    let mut byte = [0u8; 1];
    while !got.ends_with(b"red> ") {
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
        let Some(list) = listed.lines().find_map(|l| l.split(" legal moves: ").nth(1)) else {
            break; // the game is over
        };
        let m = list.split_whitespace().next().unwrap().to_string();
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
