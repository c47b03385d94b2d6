//! Every named agent replays its games bit for bit: a few seeded games per
//! agent of every game family (crates/lab/src/named.rs), played by the
//! binary, against the files committed under tests/fixtures/named-agents/
//! (the identity line, which names the expansion and the weights' hashes,
//! and every move).
//!
//! Cheap agents play whole games; the expensive ones one short game (a
//! ply cap, a small majority or target, Sénat's draft forced from
//! tests/fixtures/named-agents/senat-draft.txt), so that the whole file
//! runs in a few seconds of the ci profile.
//!
//! The fixtures change only on purpose (a new network, a changed
//! expansion, a search change meant to play otherwise):
//! `SENAT_BLESS_AGENTS=1 cargo test --profile ci --test it named_agents::`
//! writes them again, and the commit that does so says why the games
//! changed.

use crate::support::cli::ok;
use crate::support::files::TempDir;
use std::path::PathBuf;

/// tests/fixtures/named-agents/`name`.
fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/named-agents").join(name)
}

/// Runs `senat selfplay` with `args` (the players and the game) and `games`
/// games of seed 1, and compares the file it writes, the games file or
/// (`moves`) the moves file, with the fixture `case`.csv; writes the
/// fixture instead under `SENAT_BLESS_AGENTS`.
fn replay(case: &str, games: u32, moves: bool, args: &[&str]) {
    let dir = TempDir::new(&format!("named-{case}"));
    let (out, mv) = (dir.0.join("games.csv"), dir.0.join("moves.csv"));
    let games = games.to_string();
    let mut all = vec!["selfplay", "--games", &games, "--seed", "1", "--threads", "1", "--quiet", "--summary", ""];
    let (out_s, mv_s) = (out.to_str().expect("UTF-8 path"), mv.to_str().expect("UTF-8 path"));
    all.extend(["--out", out_s, "--moves", mv_s]);
    all.extend(args);
    ok(&all);
    let got = std::fs::read_to_string(if moves { &mv } else { &out }).expect("the output file");
    let path = fixture(&format!("{case}.csv"));
    if std::env::var_os("SENAT_BLESS_AGENTS").is_some() {
        std::fs::write(&path, &got).expect("the fixture is written");
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if got != want {
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "{case}: the named agent no longer replays {} (first difference at line {}):\n  now:     {}\n  fixture: {}\n\
             if the change is meant, bless it with SENAT_BLESS_AGENTS=1 cargo test --profile ci --test it named_agents:: and give the reason in the commit",
            path.display(),
            line + 1,
            got.lines().nth(line).unwrap_or("(end of file)"),
            want.lines().nth(line).unwrap_or("(end of file)")
        );
    }
}

/// The forced draft of the short Sénat games, as a path argument.
fn senat_draft() -> String {
    fixture("senat-draft.txt").to_str().expect("UTF-8 path").to_string()
}

#[test]
fn senat_fast() {
    replay("senat-fast", 4, false, &["--red", "fast", "--blue", "fast"]);
}

#[test]
fn senat_strong() {
    replay("senat-strong", 1, false, &["--red", "strong", "--blue", "strong"]);
}

/// `top` plays from a forced draft to a majority of 2: its search and
/// value network in play.
#[test]
fn senat_top() {
    let d = senat_draft();
    replay("senat-top", 1, false, &["--red", "top", "--blue", "top", "--opening", &d, "--variant", "majority=2"]);
}

#[test]
fn senat_sharp() {
    let d = senat_draft();
    replay("senat-sharp", 1, false, &["--red", "sharp", "--blue", "sharp", "--opening", &d, "--variant", "majority=2"]);
}

/// The agents of Focus, 4-player Focus, Débâcle, Connect Four and block
/// dominoes: `top` and `strong` one game each (a ply cap, one short round),
/// `fast` a few whole games.
macro_rules! other_games {
    ($($test:ident: $case:literal, $game:literal, $agent:literal, $games:literal, $variant:literal;)*) => {$(
        #[test]
        fn $test() {
            replay($case, $games, true, &["--game", $game, "--variant", $variant, "--first", $agent, "--second", $agent]);
        }
    )*};
}

other_games! {
    focus_top: "focus-top", "focus", "top", 1, "cap=12";
    focus_strong: "focus-strong", "focus", "strong", 1, "cap=12";
    focus_fast: "focus-fast", "focus", "fast", 3, "";
    focus4_top: "focus4-top", "focus4", "top", 1, "cap=16";
    focus4_strong: "focus4-strong", "focus4", "strong", 1, "cap=16";
    focus4_fast: "focus4-fast", "focus4", "fast", 3, "";
    debacle_top: "debacle-top", "debacle", "top", 1, "rounds=1,turns=10";
    debacle_strong: "debacle-strong", "debacle", "strong", 1, "rounds=1,turns=10";
    debacle_fast: "debacle-fast", "debacle", "fast", 3, "";
    connect4_top: "connect4-top", "connect4", "top", 2, "";
    connect4_strong: "connect4-strong", "connect4", "strong", 1, "";
    connect4_fast: "connect4-fast", "connect4", "fast", 3, "";
    dominoes_top: "dominoes-top", "dominoes", "top", 1, "";
    dominoes_strong: "dominoes-strong", "dominoes", "strong", 1, "";
    dominoes_fast: "dominoes-fast", "dominoes", "fast", 3, "";
}
