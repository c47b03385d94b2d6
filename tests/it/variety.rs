//! Varied batches: a move temperature (`temp=`, `temp_plies=`) changes
//! games across seeds but not for one seed, and is nothing at `temp=0`;
//! Sénat's `--book-plies` is recorded in the batch identity and merge
//! refuses to mix book sizes; a batch of one game repeated is warned about.

use game_search::Game as _;
use game_search::rng::rng_from_seed;
use senat_lab::games::agent::AgentSpec;
use senat_lab::games::debacle::Debacle;
use senat_lab::games::{GameKind, LabGame};
use senat_lab::selfplay::{Matchup, play_game};
use std::collections::{BTreeMap, BTreeSet};

use crate::support::cli::{fails_in as fails, senat_in, stderr, stdout};
use crate::support::files::TempDir;
use crate::support::games::spec;

fn both(p: &str) -> Matchup {
    Matchup { red: spec(p), blue: spec(p), draft_red: spec(p), draft_blue: spec(p) }
}

/// The move text of games `0..n` of seed `seed`.
fn games(p: &str, seed: u64, n: u64) -> Vec<String> {
    let m = both(p);
    (0..n).map(|i| format!("{:?}", play_game(&m, seed, i).game.moves())).collect()
}

#[test]
fn temperature_varies_games_but_a_seed_fixes_them() {
    // Without a temperature, MCTS on the evaluation plays one game.
    let plain = games("mcts:playouts=8,rollout=eval", 3, 3);
    assert_eq!(plain.iter().collect::<BTreeSet<_>>().len(), 1, "deterministic without temp");
    let hot = games("mcts:playouts=8,rollout=eval,temp=1,temp_plies=10", 3, 3);
    assert_eq!(hot.iter().collect::<BTreeSet<_>>().len(), 3, "temp=1 varies the games");
    assert_eq!(hot, games("mcts:playouts=8,rollout=eval,temp=1,temp_plies=10", 3, 3), "same seed, same games");
    // temp=0 and temp_plies=0 are no temperature, draw for draw.
    assert_eq!(plain, games("mcts:playouts=8,rollout=eval,temp=0", 3, 3));
    assert_eq!(plain, games("mcts:playouts=8,rollout=eval,temp=1,temp_plies=0", 3, 3));
    let learned = games("learned", 4, 3);
    assert_eq!(learned, games("learned:temp=0", 4, 3));
    let hot = games("learned:temp=0.5", 4, 3);
    assert_ne!(hot, learned);
    assert_eq!(hot.iter().collect::<BTreeSet<_>>().len(), 3);
    let ab = games("ab:depth=1,temp=50,temp_plies=6", 5, 3);
    assert_eq!(ab.iter().collect::<BTreeSet<_>>().len(), 3, "ab with temp varies");
    assert_eq!(games("ab:depth=1", 5, 2), games("ab:depth=1,temp=0", 5, 2));
}

#[test]
fn temperature_keys_are_checked() {
    for (p, want) in [
        ("mcts:temp=-1", "`temp=-1`: expected a temperature in 0..="),
        ("ab:temp_plies=99999", "`temp_plies=99999`: expected plies in 0..=10000"),
        ("learned:temp=warm", "`temp=warm`: expected a number from 0"),
    ] {
        let e = senat_lab::policy::PolicySpec::parse(p).unwrap_err().to_string();
        assert!(e.contains(want), "{p}: {e}");
    }
    let e = senat_lab::games::agent::AgentSpec::parse("mcts:temp=x").unwrap_err().to_string();
    assert!(e.contains("`temp=x`: expected a number from 0"), "{e}");
    let a = senat_lab::games::agent::AgentSpec::parse("mcts:playouts=5,temp=0.5").unwrap();
    assert_eq!(a.to_string(), "mcts:playouts=5,c=0.4,rollout=eval,cut=0,scale=100,temp=0.5,temp_plies=16");
    assert_eq!(senat_lab::games::agent::AgentSpec::parse(&a.to_string()), Ok(a));
}

const AB: [&str; 6] = ["--red", "ab:depth=1", "--blue", "ab:depth=1", "--seed", "9"];

#[test]
fn a_repeated_batch_is_warned_about_and_a_book_varies_it() {
    let d = TempDir::new("variety-warn");
    let args = [&["selfplay", "--games", "6", "--quiet", "--summary", "", "--out", "g.csv"][..], &AB[..]].concat();
    let o = senat_in(&d.0, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("senat: warning: all 6 games are one game repeated: the agents are deterministic"), "{err}");
    assert!(err.contains("temp=") && err.contains("--book-plies"), "{err}");
    // With a book: varied, no warning, the count in the printed summary.
    let args =
        [&["selfplay", "--games", "6", "--summary", "", "--out", "b.csv", "--book-plies", "4"][..], &AB[..]].concat();
    let o = senat_in(&d.0, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    assert!(stdout(&o).contains("distinct games: 6 of 6 (100.0%)"), "{}", stdout(&o));
    let text = String::from_utf8(d.read("b.csv")).unwrap();
    assert!(text.lines().next().unwrap().ends_with(" book_plies=4"), "{text}");
    let plain = String::from_utf8(d.read("g.csv")).unwrap();
    assert!(!plain.lines().next().unwrap().contains("book_plies"), "no field without a book");
    // The other games: the same warning.
    let o = senat_in(
        &d.0,
        &["selfplay", "--game", "focus", "--games", "4", "--quiet", "--summary", "", "--out", "f.csv"]
            .iter()
            .chain(&["--first", "ab:depth=1", "--second", "ab:depth=1"])
            .copied()
            .collect::<Vec<_>>(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: all 4 games are one game repeated"), "{}", stderr(&o));
}

#[test]
fn merge_and_resume_refuse_mixed_book_plies() {
    let d = TempDir::new("variety-merge");
    let base = [&["selfplay", "--games", "4", "--quiet", "--summary", ""][..], &AB[..]].concat();
    let one = [&base[..], &["--shard", "1/2", "--out", "s1.csv", "--book-plies", "3"]].concat();
    let two = [&base[..], &["--shard", "2/2", "--out", "s2.csv"]].concat();
    for a in [&one, &two] {
        assert!(senat_in(&d.0, a).status.success());
    }
    let e = fails(&d.0, &["merge", "--quiet", "--out", "m.csv", "--summary", "", "s1.csv", "s2.csv"]);
    assert!(e.contains("book_plies"), "{e}");
    let again = [&base[..], &["--shard", "1/2", "--out", "s1.csv", "--resume"]].concat();
    let e = fails(&d.0, &again);
    assert!(e.contains("book_plies=3") && e.contains("book_plies=0"), "{e}");
}

/// Débâcle's later rounds start from the same setup, so two games of a
/// deterministic agent (alpha-beta at depth 3; before, with the opening
/// guard too, at 30 times the cost) that differ only in their first plies can end with the same
/// plies and final position: with a moves file the distinct games are
/// counted by their moves (9 of 9 here), where the games file alone sees 8
/// (games 0 and 1 of this seed coincide there).
#[test]
fn distinct_games_are_counted_by_moves_where_there_are_moves() {
    let d = TempDir::new("variety-moves");
    let ab = "ab:depth=3";
    let args = ["selfplay", "--game", "debacle", "--games", "9", "--seed", "7", "--first", ab, "--second", ab];
    let o = senat_in(
        &d.0,
        &[&args[..], &["--book-plies", "4", "--out", "g.csv", "--moves", "m.csv", "--summary", ""]].concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("distinct games: 9 of 9 (100.0%)"), "{}", stdout(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    // The games file alone cannot tell two of them apart.
    let text = d.text("g.csv");
    let keys: BTreeSet<(String, String)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("game,"))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[f.len() - 5].to_string(), f[f.len() - 1].to_string())
        })
        .collect();
    assert_eq!(keys.len(), 8, "{text}");
}

/// Round 2 of Débâcle matches between one tempered alpha-beta, `games`
/// matches of seeds `0..games`, each played to its `k`-th decision of
/// round 2: the scores at round 2's start and round 2's first `k` moves,
/// for every match that reached it.
fn debacle_round_two(agent: &str, games: u64, k: usize) -> Vec<([u32; 2], Vec<String>)> {
    let spec = AgentSpec::parse(agent).unwrap();
    let mut out = Vec::new();
    for g in 0..games {
        let mut agents = [spec.build::<Debacle>(), spec.build::<Debacle>()];
        let mut rng = rng_from_seed(g);
        let mut s = Debacle::start("").unwrap();
        let mut opening = Vec::new();
        while Debacle::result(&s).is_none() && opening.len() < k {
            let m = agents[s.to_move()].choose(&s, &mut rng);
            let before = s.round();
            s = Debacle::apply(&s, m);
            if before == 2 {
                opening.push(Debacle::move_text(m));
            } else if s.round() == 2 {
                out.push((s.scores(), Vec::new()));
            }
        }
        if let Some(last) = out.last_mut().filter(|_| !opening.is_empty()) {
            last.1 = opening;
        }
    }
    out
}

/// Débâcle's rounds all start from the same setup, so a temperature over
/// the first plies of the match alone made round 2 a function of the
/// scores it starts with: two matches that reached it with the same
/// scores played it alike (and then the same rest). The temperature
/// counts each round's actions ([`LabGame::plies_into_round`]): matches
/// that reach round 2 with the same scores open it differently.
#[test]
fn debacle_temperature_varies_every_round() {
    // One drawn action per round: 40 matches reach round 2 with 8 scores.
    let rounds = debacle_round_two("ab:depth=1,temp=50,temp_plies=1", 40, 6);
    assert_eq!(rounds.len(), 40);
    let mut by_scores: BTreeMap<[u32; 2], Vec<&Vec<String>>> = BTreeMap::new();
    for (scores, opening) in &rounds {
        assert_eq!(opening.len(), 6, "{scores:?}");
        by_scores.entry(*scores).or_default().push(opening);
    }
    let shared: Vec<_> = by_scores.iter().filter(|(_, v)| v.len() > 1).collect();
    assert!(shared.len() >= 5, "matches reaching round 2 with the same scores: {by_scores:?}");
    for (scores, openings) in shared {
        let distinct: BTreeSet<_> = openings.iter().collect();
        assert!(
            distinct.len() > 1,
            "{} matches reach round 2 at {scores:?}, all opening it {:?}",
            openings.len(),
            openings[0]
        );
    }
    let distinct: BTreeSet<_> = rounds.iter().map(|r| &r.1).collect();
    assert!(distinct.len() > by_scores.len(), "{} round-2 openings for {} scores", distinct.len(), by_scores.len());
}

/// `vary=ε` (issue 58 item 4): its games file has each side's value loss
/// (two columns only it writes), read back into the same summary by a run
/// cut and resumed and by the merge of its shards; `vary=0` is the agent
/// without the key, game for game, with no loss columns; and the report
/// counts the distinct draft openings.
#[test]
fn vary_loss_columns_round_trip_through_resume_and_merge() {
    let d = TempDir::new("variety-vary");
    let agent = |extra: &str| format!("mcts:playouts=20,rollout=eval{extra}");
    let run = |spec: &str, extra: &[&str]| {
        let base = ["selfplay", "--games", "6", "--seed", "4", "--threads", "1", "--red", spec, "--blue", spec];
        let o = senat_in(&d.0, &[&base[..], extra].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let out = run(&agent(",vary=0.05,temp_plies=8"), &["--out", "all.csv", "--summary", "all-sum.csv"]);
    assert!(out.contains("vary loss  red "), "{out}");
    assert!(out.contains("distinct draft openings (first 4 draft moves): "), "{out}");
    let all = d.text("all.csv");
    let header = all.lines().nth(1).unwrap();
    assert!(header.ends_with(",final_spn,red_vary_loss,blue_vary_loss"), "{header}");
    let summary = d.text("all-sum.csv");
    for side in ["red", "blue", "game"] {
        assert!(summary.contains(&format!(",vary_loss_{side}_mean,")), "{summary}");
    }
    // Every side's loss is at most ε per drawn move: 4 draws each within 8 plies.
    for row in all.lines().skip(2) {
        let f: Vec<&str> = row.rsplitn(3, ',').collect();
        for x in &f[..2] {
            let loss: f64 = x.parse().unwrap();
            assert!((0.0..=4.0 * 0.05 + 1e-9).contains(&loss), "{row}");
        }
    }
    // Cut after three rows and resumed: the same file and summary.
    let cut: String = all.lines().take(5).map(|l| format!("{l}\n")).collect();
    d.write("cut.csv", cut);
    run(&agent(",vary=0.05,temp_plies=8"), &["--out", "cut.csv", "--summary", "cut-sum.csv", "--resume", "--quiet"]);
    assert_eq!(d.text("cut.csv"), all);
    assert_eq!(d.text("cut-sum.csv"), summary);
    // Shards merged: the same summary.
    for k in [1, 2] {
        let (name, shard) = (format!("s{k}.csv"), format!("{k}/2"));
        run(&agent(",vary=0.05,temp_plies=8"), &["--shard", &shard, "--out", &name, "--summary", "", "--quiet"]);
    }
    let o = senat_in(&d.0, &["merge", "s2.csv", "s1.csv", "--out", "m.csv", "--summary", "m-sum.csv", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(d.text("m-sum.csv"), summary);
    assert_eq!(d.text("m.csv"), all);
    // vary=0: today's agent, game for game, and no loss columns.
    run(&agent(""), &["--out", "plain.csv", "--summary", "", "--quiet"]);
    run(&agent(",vary=0"), &["--out", "zero.csv", "--summary", "", "--quiet"]);
    let body = |t: String| t.lines().skip(1).map(|l| l.replace(",vary=0", "")).collect::<Vec<_>>();
    assert_eq!(body(d.text("zero.csv")), body(d.text("plain.csv")));
    assert!(d.text("plain.csv").lines().nth(1).unwrap().ends_with(",final_spn"));
}

/// `vary=ε` in the other games' MCTS, every registered game whose agents
/// take it (the catalog's spec reader decides, so a game added later is
/// tested here by being registered): each team's value loss is written in
/// two columns before `final` (only by such a batch), the report and the
/// summary give their means, a run cut and resumed and the merge of its
/// shards read them back into the same files, and `vary=0` is the agent
/// without the key, byte for byte.
#[test]
fn other_games_vary_loss_columns_round_trip() {
    let spec = |extra: &str| format!("mcts:playouts=24{extra}");
    let varied = spec(",vary=0.05,temp_plies=8");
    let kinds: Vec<GameKind> =
        GameKind::ALL.into_iter().filter(|&k| senat_lab::catalog::agent_spec(k, &varied).is_ok()).collect();
    assert!(kinds.len() >= 4, "the lab games take vary=: {kinds:?}");
    let mut drew = false;
    for kind in kinds {
        let game = kind.name();
        let d = TempDir::new(&format!("variety-vary-{game}"));
        let run = |agent: &str, extra: &[&str]| {
            let base = ["selfplay", "--game", game, "--games", "4", "--seed", "7", "--threads", "1"];
            let o = senat_in(&d.0, &[&base[..], &["--first", agent, "--second", agent], extra].concat());
            assert!(o.status.success(), "{game}: {}", stderr(&o));
            stdout(&o)
        };
        let out = run(&varied, &["--out", "all.csv", "--summary", "all-sum.csv"]);
        assert!(out.contains("  vary loss  first "), "{game}: {out}");
        let all = d.text("all.csv");
        let header: Vec<&str> = all.lines().nth(1).unwrap().split(',').collect();
        let at = header.len() - 3;
        assert_eq!(header[at..], ["first_vary_loss", "second_vary_loss", "final"], "{game}");
        let plies = header.iter().position(|&h| h == "plies").unwrap();
        let body: String = all.lines().skip(2).map(|l| format!("{l}\n")).collect();
        let mut rows = csv::ReaderBuilder::new().has_headers(false).from_reader(body.as_bytes());
        for row in rows.records() {
            let row = row.unwrap();
            assert_eq!(row.len(), header.len(), "{game}: {row:?}");
            let (a, b): (f64, f64) = (row[at].parse().unwrap(), row[at + 1].parse().unwrap());
            // Each drawn move loses at most ε, and a game draws at most one a ply.
            let most = 0.05 * row[plies].parse::<f64>().unwrap() + 1e-9;
            assert!(a >= 0.0 && b >= 0.0 && a + b <= most, "{game}: {row:?}");
            drew |= a + b > 0.0;
        }
        let summary = d.text("all-sum.csv");
        for team in ["first", "second", "game"] {
            assert!(summary.lines().next().unwrap().contains(&format!(",vary_loss_{team}_mean,")), "{summary}");
        }
        // Cut after one row and resumed: the same file and summary.
        let cut: String = all.lines().take(3).map(|l| format!("{l}\n")).collect();
        d.write("cut.csv", cut);
        run(&varied, &["--out", "cut.csv", "--summary", "cut-sum.csv", "--resume", "--quiet"]);
        assert_eq!(d.text("cut.csv"), all, "{game}");
        assert_eq!(d.text("cut-sum.csv"), summary, "{game}");
        for k in [1, 2] {
            run(&varied, &["--shard", &format!("{k}/2"), "--out", &format!("s{k}.csv"), "--summary", "", "--quiet"]);
        }
        let o = senat_in(&d.0, &["merge", "s2.csv", "s1.csv", "--out", "m.csv", "--summary", "m-sum.csv", "--quiet"]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        assert_eq!(d.text("m.csv"), all, "{game}");
        assert_eq!(d.text("m-sum.csv"), summary, "{game}");
        // vary=0 is no key: the same files as the plain agent's, no loss columns.
        run(&spec(""), &["--out", "plain.csv", "--summary", "plain-sum.csv", "--quiet"]);
        run(&spec(",vary=0"), &["--out", "zero.csv", "--summary", "zero-sum.csv", "--quiet"]);
        assert_eq!(d.text("zero.csv"), d.text("plain.csv"), "{game}");
        assert_eq!(d.text("zero-sum.csv"), d.text("plain-sum.csv"), "{game}");
        assert!(!d.text("plain.csv").contains("vary_loss") && !d.text("plain-sum.csv").contains("vary_loss"));
    }
    // Some draw gave up value somewhere (Connect Four's and Focus's do at this
    // budget), so the columns are not zeros by construction. Débâcle's four
    // games record none: they differ from the plain agent's from the first
    // move, so its draws were among moves whose mean was at least the usual one's.
    assert!(drew, "no game of any kind recorded a value loss");
}

/// A batch of `swap=yes` whose agents have `vary=` writes both optional
/// columns, `swapped` first, then the losses (20 fields), and reads them
/// back: resumed and merged, the same file and summary.
#[test]
fn swap_and_vary_columns_together_round_trip() {
    let d = TempDir::new("variety-swap-vary");
    let spec = "mcts:playouts=20,rollout=eval,vary=0.05,temp_plies=8";
    let run = |extra: &[&str]| {
        let base = ["selfplay", "--games", "4", "--seed", "5", "--threads", "1", "--variant", "swap=yes"];
        let o = senat_in(&d.0, &[&base[..], &["--red", spec, "--blue", spec], extra].concat());
        assert!(o.status.success(), "{}", stderr(&o));
    };
    run(&["--out", "all.csv", "--summary", "all-sum.csv", "--quiet"]);
    let all = d.text("all.csv");
    let header = all.lines().nth(1).unwrap();
    assert!(header.ends_with(",final_spn,swapped,red_vary_loss,blue_vary_loss"), "{header}");
    for row in all.lines().skip(2) {
        let f: Vec<&str> = row.rsplitn(4, ',').collect();
        assert!(f[2] == "0" || f[2] == "1", "{row}");
    }
    let cut: String = all.lines().take(4).map(|l| format!("{l}\n")).collect();
    d.write("cut.csv", cut);
    run(&["--out", "cut.csv", "--summary", "cut-sum.csv", "--resume", "--quiet"]);
    assert_eq!(d.text("cut.csv"), all);
    assert_eq!(d.text("cut-sum.csv"), d.text("all-sum.csv"));
    for k in [1, 2] {
        run(&["--shard", &format!("{k}/2"), "--out", &format!("s{k}.csv"), "--summary", "", "--quiet"]);
    }
    let o = senat_in(&d.0, &["merge", "s1.csv", "s2.csv", "--out", "m.csv", "--summary", "m-sum.csv", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(d.text("m.csv"), all);
    assert_eq!(d.text("m-sum.csv"), d.text("all-sum.csv"));
}
