//! Focus, 4-player Focus, Débâcle and Connect Four through the command line (`--game`):
//! perft at the start, moves, show, replay of a self-played game, batches
//! with shards, merge and resume, the arena ladder, analyze and solve; and
//! through the library: two-team alpha-beta in 4-player Focus is exact
//! minimax, and MCTS backs up per-player scores so that a team finds a win.
//! Connect Four's solver verdicts through `senat solve` are pinned on
//! positions whose values are known by hand.

use game_search::Game;
use game_search::alphabeta::{Limits, Searcher, minimax};
use game_search::rng::rng_from_seed;
use senat_lab::games::agent::{AgentSpec, play};
use senat_lab::games::debacle::Debacle;
use senat_lab::games::focus::Focus;
use senat_lab::games::{LabEval, LabGame, legal_moves};

use crate::support::cli::{expect_error, fails, ok, ok_in, senat, senat_in};
use crate::support::files::TempDir;

#[test]
fn perft_at_the_start_matches_games_md() {
    for (game, depth, count) in [
        ("focus", 1, "68"),
        ("focus4", 1, "44"),
        ("debacle", 1, "12"),
        ("debacle", 2, "158"),
        ("focus", 2, "4460"),
        ("connect4", 1, "7"),
        ("connect4", 6, "117649"),
        ("connect4", 8, "5673234"),
    ] {
        let d = depth.to_string();
        let out = ok(&["perft", "--game", game, "start", "--depth", &d]);
        assert_eq!(out.trim(), count, "{game} depth {depth}");
    }
    // Variants reach the rules: the opening swap offers 18 × 18 first decisions.
    assert_eq!(ok(&["perft", "--game", "focus", "--variant", "fix=swap", "start", "-d", "1"]).trim(), "324");
    let divide = ok(&["perft", "--game", "debacle", "start", "-d", "2", "--divide"]);
    let lines: Vec<&str> = divide.lines().collect();
    assert_eq!(lines.len(), 13, "12 first actions and the total: {divide}");
    assert_eq!(lines[12], "158");
}

#[test]
fn moves_show_and_errors() {
    let moves = ok(&["moves", "--game", "debacle", "start"]);
    assert_eq!(moves.lines().count(), 12);
    let mut sorted: Vec<&str> = moves.lines().collect();
    sorted.sort();
    assert_eq!(sorted, moves.lines().collect::<Vec<_>>(), "sorted by text");
    let shown = ok(&["show", "--game", "focus4", "start", "--plain"]);
    let text = shown.lines().last().unwrap();
    // The position text on the last line reads back to the same position.
    let again = ok(&["show", "--game", "focus4", "--plain", text]);
    assert_eq!(again, shown);
    assert_eq!(ok(&["moves", "--game", "focus4", text]).lines().count(), 44);
    // A focus4 position is not a focus (2-player) one.
    let e = expect_error(&senat(&["moves", "--game", "focus", text]), &["moves"]);
    assert!(e.contains("4 players, which is not --game focus"), "{e}");
    let e = expect_error(&senat(&["moves", "--game", "chess", "start"]), &["moves"]);
    assert!(e.contains("unknown game `chess`"), "{e}");
    let e = expect_error(&senat(&["moves", "--game", "focus", "--variant", "fix=maybe", "start"]), &["moves"]);
    assert!(e.contains("variant `fix=maybe`"), "{e}");
    // Sénat's variants have their own keys: another game's key is refused.
    let e = expect_error(&senat(&["moves", "--variant", "fix=swap", "start"]), &["moves"]);
    assert!(e.contains("unknown variant key `fix`"), "{e}");
    let help = ok(&["moves", "--game", "debacle", "--variant", "help", "start"]);
    assert!(help.contains("scoring="), "{help}");
    let e = expect_error(&senat(&["selfplay", "--game", "focus", "--red", "greedy", "--games", "2"]), &["selfplay"]);
    assert!(e.contains("is for Sénat"), "{e}");
    let e = expect_error(&senat(&["selfplay", "--first", "greedy", "--games", "2"]), &["selfplay"]);
    assert!(e.contains("--rounds are for --game focus"), "{e}");
    let e = expect_error(&senat(&["arena", "--game", "debacle", "random", "heuristic"]), &["arena"]);
    assert!(e.contains("unknown agent `heuristic`"), "{e}");
}

/// A self-played game's moves, replayed, end in the position the games file records.
#[test]
fn replay_of_a_selfplay_game_ends_where_the_batch_says() {
    let dir = TempDir::new("other-games-replay");
    for game in ["focus", "focus4", "debacle", "connect4"] {
        let (g, m) = (format!("{game}.csv"), format!("{game}-moves.csv"));
        ok_in(
            &dir.0,
            &[
                "selfplay",
                "--game",
                game,
                "--games",
                "3",
                "--first",
                "greedy",
                "--second",
                "random",
                "--out",
                &g,
                "--moves",
                &m,
                "--summary",
                "",
                "--quiet",
            ],
        );
        let games = dir.text(&g);
        let moves = dir.text(&m);
        let mut rows = csv::ReaderBuilder::new().comment(Some(b'#')).from_reader(games.as_bytes());
        let headers = rows.headers().unwrap().clone();
        let last = headers.len() - 1;
        assert_eq!(&headers[last], "final");
        let row = rows.records().next().unwrap().unwrap();
        let mut mrows = csv::ReaderBuilder::new().comment(Some(b'#')).from_reader(moves.as_bytes());
        let mrow = mrows.records().next().unwrap().unwrap();
        assert_eq!(&mrow[0], "0");
        let mut record = String::from("start\n");
        let plies = mrow[1].split(' ').count();
        assert_eq!(plies.to_string(), row[5].to_string(), "{game}: plies");
        // Moves may contain blanks? No: they are joined by single blanks, so each is one token.
        for m in mrow[1].split(' ') {
            record.push_str(m);
            record.push('\n');
        }
        dir.write("game.txt", &record);
        let out = ok_in(&dir.0, &["replay", "--game", game, "game.txt", "--plain"]);
        let lines: Vec<&str> = out.lines().collect();
        let result = lines[lines.len() - 1];
        let final_text = lines[lines.len() - 3];
        assert_eq!(final_text, &row[last], "{game}: final position");
        assert!(result.contains("wins after") || result.contains("draw after"), "{game}: {result}");
        // An illegal move names its line.
        dir.write("bad.txt", "start\nnonsense\n");
        let e = expect_error(&senat_in(&dir.0, &["replay", "--game", game, "bad.txt"]), &["replay"]);
        assert!(e.contains("bad.txt:2: move `nonsense`"), "{e}");
    }
}

#[test]
fn shards_merge_resume_and_refuse_mixed_batches() {
    let dir = TempDir::new("other-games-batch");
    let base = ["selfplay", "--game", "debacle", "--games", "12", "--first", "greedy", "--second", "random", "--quiet"];
    fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        base.iter().chain(extra).copied().collect()
    }
    ok_in(&dir.0, &with(&base, &["--out", "all.csv", "--summary", "all-s.csv"]));
    ok_in(&dir.0, &with(&base, &["--shard", "2/2", "--out", "b.csv", "--summary", ""]));
    ok_in(&dir.0, &with(&base, &["--shard", "1/2", "--out", "a.csv", "--summary", ""]));
    ok_in(&dir.0, &["merge", "b.csv", "a.csv", "--out", "m.csv", "--summary", "m-s.csv"]);
    assert_eq!(dir.read("m.csv"), dir.read("all.csv"));
    assert_eq!(dir.read("m-s.csv"), dir.read("all-s.csv"));
    ok_in(&dir.0, &["merge", "--game", "debacle", "a.csv", "b.csv", "--out", "m5.csv", "--summary", "", "--quiet"]);
    assert_eq!(dir.read("m5.csv"), dir.read("all.csv"));
    let e =
        expect_error(&senat_in(&dir.0, &["merge", "--game", "focus", "a.csv", "b.csv", "--out", "m6.csv"]), &["merge"]);
    assert!(e.contains("holds debacle games, not --game focus"), "{e}");
    let e = expect_error(&senat_in(&dir.0, &["merge", "a.csv", "--out", "m2.csv"]), &["merge"]);
    assert!(e.contains("missing shard 2 of 2"), "{e}");
    // A shard of another seed is another batch.
    ok_in(&dir.0, &with(&base, &["--shard", "2/2", "--seed", "9", "--out", "c.csv", "--summary", ""]));
    let e = expect_error(&senat_in(&dir.0, &["merge", "a.csv", "c.csv", "--out", "m3.csv"]), &["merge"]);
    assert!(e.contains("not shards of one batch") && e.contains("seed=9 in the second"), "{e}");
    // Cut the file inside a row: --resume finishes the same bytes; without it the file is kept.
    let all = dir.read("all.csv");
    dir.write("cut.csv", &all[..all.len() - 40]);
    let e = expect_error(&senat_in(&dir.0, &with(&base, &["--out", "cut.csv", "--summary", ""])), &["selfplay"]);
    assert!(e.contains("--resume"), "{e}");
    ok_in(&dir.0, &with(&base, &["--out", "cut.csv", "--summary", "", "--resume"]));
    assert_eq!(dir.read("cut.csv"), all);
    // Resuming with other agents is refused, naming the field.
    let mut other = with(&base, &["--out", "cut.csv", "--summary", "", "--resume"]);
    other[6] = "random";
    let e = expect_error(&senat_in(&dir.0, &other), &["selfplay"]);
    assert!(e.contains("first=random, this run has first=greedy") || e.contains("first=greedy"), "{e}");
}

/// A game stopped by the ply cap is counted apart in the summary's
/// `capped` column and on the terminal, in a batch and in its merge (its
/// rows' final positions say so); a game won by a rule is not.
#[test]
fn the_ply_cap_is_an_end_of_its_own_in_the_summary() {
    let dir = TempDir::new("other-games-capped");
    let base = ["selfplay", "--game", "focus", "--games", "4", "--variant", "cap=20"];
    let out = ok_in(&dir.0, &[&base[..], &["--out", "all.csv", "--summary", "all-s.csv"]].concat());
    assert!(out.contains("capped     4 of 4 games ended at the ply cap"), "{out}");
    let summary = String::from_utf8(dir.read("all-s.csv")).unwrap();
    let (head, row) = summary.split_once('\n').unwrap();
    assert!(head.ends_with(",mean_plies,capped"), "{head}");
    assert!(row.trim_end().ends_with(",20.0,4"), "every game stopped at ply 20: {row}");
    ok_in(&dir.0, &[&base[..], &["--shard", "1/2", "--out", "a.csv", "--summary", "", "--quiet"]].concat());
    ok_in(&dir.0, &[&base[..], &["--shard", "2/2", "--out", "b.csv", "--summary", "", "--quiet"]].concat());
    ok_in(&dir.0, &["merge", "a.csv", "b.csv", "--out", "m.csv", "--summary", "m-s.csv", "--quiet"]);
    assert_eq!(dir.read("m-s.csv"), summary.as_bytes(), "the merge counts the capped games from the rows");
    // Greedy against random ends by the rules (a side without a move) well before the cap.
    let won = ["selfplay", "--game", "focus", "--games", "2", "--first", "greedy", "--out", "w.csv"];
    let out = ok_in(&dir.0, &[&won[..], &["--summary", "w-s.csv"]].concat());
    assert!(!out.contains("capped"), "{out}");
    let won = String::from_utf8(dir.read("w-s.csv")).unwrap();
    assert!(won.trim_end().ends_with(",0"), "{won}");
}

/// Agents that draw no randomness replay one game; `--book-plies` varies
/// the games from their own seeds, and the moves file holds the book.
#[test]
fn book_plies_vary_deterministic_self_play() {
    let dir = TempDir::new("other-games-book");
    let distinct = |book: &str| {
        let args = ["selfplay", "--game", "focus", "--games", "6", "--first", "ab:depth=1", "--second", "ab:depth=1"];
        let name = format!("b{book}.csv");
        let moves = format!("m{book}.csv");
        let rest = ["--book-plies", book, "--out", &name, "--moves", &moves, "--summary", "", "--quiet"];
        ok_in(&dir.0, &args.iter().chain(&rest).copied().collect::<Vec<_>>());
        let text = dir.text(&name);
        assert!(text.lines().next().unwrap().contains(&format!(" book={book} ")), "{text}");
        let mut rows: Vec<String> =
            text.lines().skip(2).map(|l| l.splitn(3, ',').nth(2).unwrap().to_string()).collect();
        rows.sort();
        rows.dedup();
        rows.len()
    };
    assert_eq!(distinct("0"), 1, "alpha-beta from the start plays one game");
    assert!(distinct("4") >= 4, "four random plies vary the games");
    // Game 0's moves start with its book; replayed, they end where the games file says.
    let m = dir.text("m4.csv");
    let moves = m.lines().nth(2).unwrap().split_once(',').unwrap().1.to_string();
    dir.write("g.txt", format!("start\n{}\n", moves.replace(' ', "\n")));
    let out = ok_in(&dir.0, &["replay", "--game", "focus", "g.txt", "--quiet"]);
    assert!(out.contains("wins after") || out.contains("draw after"), "{out}");
}

#[test]
fn arena_ladder_and_analysis_commands() {
    let dir = TempDir::new("other-games-arena");
    let out = ok_in(
        &dir.0,
        &[
            "arena",
            "--game",
            "debacle",
            "random",
            "greedy",
            "--ladder",
            "--games",
            "8",
            "--out",
            "g.csv",
            "--summary",
            "s.csv",
            "--quiet",
        ],
    );
    assert!(out.contains("greedy") && out.contains("strict"), "{out}");
    let s = dir.text("s.csv");
    assert!(s.lines().next().unwrap().starts_with("first,second,games,wins,draws,losses,penta_0"), "{s}");
    assert_eq!(s.lines().count(), 2);
    let g = dir.text("g.csv");
    assert!(g.starts_with("# senat-arena v2 game=debacle"), "{g}");
    assert_eq!(g.lines().count(), 2 + 8);
    let a = ok(&["analyze", "--game", "focus", "--engine", "ab", "--depth", "2"]);
    assert!(a.contains("bestmove "), "{a}");
    // Alpha-beta's helper threads share the table: a depth-d result, every game.
    let a = ok(&["analyze", "--game", "connect4", "--depth", "6", "--threads", "2", "--", "4453"]);
    let best = a.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap_or_else(|| panic!("{a}"));
    assert!(best.ends_with("depth 6 ") || best.contains(" depth 6 "), "{a}");
    let e = fails(&["analyze", "--game", "connect4", "--engine", "mcts", "--threads", "2", "--", "4453"]);
    assert!(e.contains("only --engine ab searches with threads"), "{e}");
    let a = ok(&["analyze", "--game", "focus4", "--engine", "mcts", "--playouts", "200"]);
    assert!(a.contains("bestmove "), "{a}");
    let s = ok(&["solve", "--game", "debacle", "--max-depth", "2"]);
    assert!(s.contains("unknown within 2 plies"), "{s}");
    // One ply before white blocks black (the last position of a greedy win).
    let pos = "focus - .,.,.,./0,0,.,.,.,0/.,10,.,0,.,.,.,11010/.,.,0,.,11010,.,0,./.,.,1101,.,.,.,110,./\
               .,.,.,.,.,.,0,./110,.,.,.,1010,./.,10,.,. res=0/0 turn=0 ply=36";
    let s = ok(&["solve", "--game", "focus", "--max-depth", "3", pos]);
    assert!(s.starts_with("win for the side to move within 1 plies; line c5-c4"), "{s}");
}

/// Random positions of a game, `n` of them, reached by random play from `start`.
fn positions<G: LabGame>(start: G::State, n: usize, seed: u64) -> Vec<G::State> {
    let mut out = Vec::new();
    let mut rng = rng_from_seed(seed);
    let mut agents = [AgentSpec::Random.build::<G>(), AgentSpec::Random.build::<G>()];
    while out.len() < n {
        let p = play::<G>(start, &mut agents, &mut rng, true);
        let mut s = start;
        for (i, &m) in p.moves.iter().enumerate() {
            if i % 7 == 3 && G::result(&s).is_none() {
                out.push(s);
            }
            s = G::apply(&s, m);
        }
    }
    out.truncate(n);
    out
}

/// Four-player Focus alternates the teams, so the two-team alpha-beta is
/// exact minimax: its score equals plain minimax on the same evaluation.
#[test]
fn four_player_focus_alpha_beta_is_two_team_minimax() {
    let start = Focus::start("players=4").unwrap();
    let mut checked = 0;
    for s in positions::<Focus>(start, 12, 5) {
        for depth in 1..=2 {
            let mut ab: Searcher<Focus, LabEval> = Searcher::new(LabEval::HAND, 4);
            let r = ab.search(&s, Limits::depth(depth));
            assert_eq!(r.score, minimax::<Focus, LabEval>(&s, &LabEval::HAND, depth, 0), "depth {depth} at {s:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 24);
    // The teams do alternate: after any move of a running game, the other team is to move.
    for s in positions::<Focus>(start, 50, 6) {
        for m in legal_moves::<Focus>(&s) {
            let t = Focus::apply(&s, m);
            if Focus::result(&t).is_none() {
                assert_ne!(Focus::team(&t, Focus::to_move(&t)), Focus::team(&s, Focus::to_move(&s)));
            }
        }
    }
}

/// MCTS backs up each player's own score, so partners pull together: a
/// searching team beats a random team in 4-player Focus, whichever seats it holds.
#[test]
fn four_player_mcts_team_beats_random_team() {
    let start = Focus::start("players=4").unwrap();
    let mcts = AgentSpec::parse("mcts:playouts=200").unwrap();
    for team in 0..2 {
        let mut wins = 0;
        for g in 0..4 {
            let mut agents = if team == 0 {
                [mcts.build::<Focus>(), AgentSpec::Random.build::<Focus>()]
            } else {
                [AgentSpec::Random.build::<Focus>(), mcts.build::<Focus>()]
            };
            let p = play::<Focus>(start, &mut agents, &mut rng_from_seed(g), false);
            wins += (p.winner == Some(team)) as u32;
        }
        assert_eq!(wins, 4, "team {team}");
    }
    // And in Débâcle, whose turns span several plies of one player.
    let start = Debacle::start("").unwrap();
    let mut agents =
        [AgentSpec::parse("mcts:playouts=200").unwrap().build::<Debacle>(), AgentSpec::Random.build::<Debacle>()];
    let p = play::<Debacle>(start, &mut agents, &mut rng_from_seed(1), false);
    assert_eq!(p.winner, Some(0));
}

/// Games files written before `game_seed` had its name (`game,seed,…`)
/// still resume, going on with their own header, and merge with new
/// shards under the new header.
#[test]
fn files_with_the_old_identity_keyword_resume_and_merge() {
    // Files written before every game shared `# senat-batch v2` started
    // `# game-batch 1` with the same fields: they resume under their own
    // line, and merge with v2 shards of the same batch into the v2 file.
    let dir = TempDir::new("other-games-legacy-identity");
    let base = ["selfplay", "--game", "focus", "--games", "12", "--first", "greedy", "--summary", "", "--quiet"];
    let run = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        ok_in(&dir.0, &args)
    };
    let to_legacy = |text: String| {
        let old = text.replacen("# senat-batch v2 game=focus ", "# game-batch 1 game=focus ", 1);
        assert_ne!(old, text, "the file did not start with a v2 Focus line: {text}");
        old
    };
    run(&["--out", "all.csv"]);
    let old = to_legacy(dir.text("all.csv"));
    dir.write("old.csv", &old[..old.len() / 2]);
    run(&["--out", "old.csv", "--resume"]);
    assert_eq!(dir.text("old.csv"), old, "resumed under its own line, rows unchanged");
    run(&["--shard", "1/2", "--out", "s1.csv"]);
    run(&["--shard", "2/2", "--out", "s2.csv"]);
    dir.write("s2.csv", to_legacy(dir.text("s2.csv")));
    ok_in(&dir.0, &["merge", "s1.csv", "s2.csv", "--out", "m.csv", "--summary", ""]);
    assert_eq!(dir.text("m.csv"), dir.text("all.csv"));
}

#[test]
fn files_with_the_old_seed_header_resume_and_merge() {
    let dir = TempDir::new("other-games-legacy-header");
    let base = ["selfplay", "--game", "focus", "--games", "12", "--first", "greedy", "--summary", "", "--quiet"];
    let run = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        ok_in(&dir.0, &args)
    };
    run(&["--out", "all.csv"]);
    let all = dir.text("all.csv");
    assert_eq!(all.lines().nth(1).map(|l| l.starts_with("game,game_seed,first,second,")), Some(true), "{all}");
    // The same batch as an old binary wrote it: the old header, cut short.
    let old = all.replacen("\ngame,game_seed,", "\ngame,seed,", 1);
    dir.write("old.csv", &old[..old.len() * 2 / 3]);
    run(&["--out", "old.csv", "--resume"]);
    assert_eq!(dir.text("old.csv"), old, "resumed under its own header");
    // Old and new shards of one batch merge under the new header.
    run(&["--shard", "1/2", "--out", "s1.csv"]);
    run(&["--shard", "2/2", "--out", "s2.csv"]);
    let s1 = dir.text("s1.csv").replacen("\ngame,game_seed,", "\ngame,seed,", 1);
    dir.write("s1.csv", &s1);
    ok_in(&dir.0, &["merge", "s1.csv", "s2.csv", "--out", "m.csv", "--summary", ""]);
    assert_eq!(dir.text("m.csv"), all);
}

/// `senat solve --game connect4 POSITION` to the end of the game (its
/// default horizon): the verdict for the side to move and its distance,
/// on positions whose values are plain by hand.
#[test]
fn connect4_solve_gives_the_verdict_and_its_distance() {
    for (pos, want) in [
        // X holds 1, 2, 3 on the bottom row: a four at once in column 4.
        ("112233", "win for the side to move within 1 plies; line 4;"),
        // X holds 3, 4, 5 on the bottom row, 2 and 6 open: O blocks one, X plays the other.
        ("44335", "loss for the side to move within 2 plies;"),
        // The game is over: O, to move, has lost.
        ("1122334", "loss for the side to move within 0 plies;"),
    ] {
        let out = ok(&["solve", "--game", "connect4", pos]);
        assert!(out.starts_with(want), "{pos}: {out}");
    }
    // A small board solved from its start: a draw that fills it.
    let out = ok(&["solve", "--game", "connect4", "--variant", "width=4,height=4", "start"]);
    assert!(out.starts_with("draw within 16 plies"), "{out}");
    // A board other than 7 x 6 is written before the moves, and read back.
    let shown = ok(&["show", "--game", "connect4", "--plain", "width=5,height=4", "4453"]);
    assert_eq!(shown.lines().last(), Some("width=5,height=4 4453"), "{shown}");
    let start = ok(&["show", "--game", "connect4", "--variant", "height=4,width=5", "--plain", "start"]);
    assert_eq!(start.lines().last(), Some("width=5,height=4 start"), "{start}");
    assert_eq!(ok(&["moves", "--game", "connect4", "width=5,height=4 4453"]).lines().count(), 5);
    let e = expect_error(&senat(&["moves", "--game", "connect4", "width=7 4453"]), &["moves"]);
    assert!(e.contains("canonical form"), "{e}");
    // Every other game still requires --max-depth.
    let e = expect_error(&senat(&["solve", "--game", "debacle"]), &["solve"]);
    assert!(e.contains("--max-depth <N>"), "{e}");
    // The picture of a position: the discs and the text it was drawn from.
    let dir = TempDir::new("connect4-render");
    ok_in(&dir.0, &["render", "--game", "connect4", "4453", "--out", "p.svg"]);
    let svg = dir.text("p.svg");
    assert!(svg.contains("data-position=\"4453\"") && svg.matches("class=\"disc\"").count() == 4, "{svg}");
    let e = expect_error(&senat(&["solve", "--game", "connect4", "448"]), &["solve"]);
    assert!(e.contains("column 8 is off the board"), "{e}");
}

/// A batch whose agent reads a weights file (`file=`) records the file's
/// hash in its identity line (`first_weights=fnv1a64:…`, `second_weights=-`
/// for the other agent), as Sénat's batches do; a resume with the file
/// changed is refused as another batch, the merge of its shards is the
/// whole batch, and batches without a file write no such keys; an arena's
/// line gives the hashes in its agents' order (`weights=-;fnv1a64:…`).
#[test]
fn a_weights_file_is_recorded_by_its_hash_and_a_changed_one_is_another_batch() {
    let d = TempDir::new("other-games-weights-hash");
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/lab/data/net-focus.txt");
    d.write("w.txt", std::fs::read(&shipped).unwrap());
    let agent = "mcts:playouts=8,file=w.txt";
    let run = |extra: &[&str]| {
        let base = ["selfplay", "--game", "focus", "--games", "4", "--seed", "2", "--threads", "1"];
        senat_in(&d.0, &[&base[..], &["--first", agent, "--second", "greedy"], extra].concat())
    };
    let ok = |o: std::process::Output| assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    ok(run(&["--out", "all.csv", "--summary", "", "--quiet"]));
    let all = d.text("all.csv");
    let line = all.lines().next().unwrap();
    let hash = line.split(' ').find_map(|w| w.strip_prefix("first_weights=")).expect(line);
    assert!(hash.starts_with("fnv1a64:") && hash.len() == 8 + 16, "{line}");
    assert!(line.ends_with(" second_weights=-"), "{line}");
    // Shards merged: the whole batch.
    for k in [1, 2] {
        ok(run(&["--shard", &format!("{k}/2"), "--out", &format!("s{k}.csv"), "--summary", "", "--quiet"]));
    }
    ok(senat_in(&d.0, &["merge", "s1.csv", "s2.csv", "--out", "m.csv", "--summary", "", "--quiet"]));
    assert_eq!(d.text("m.csv"), all);
    // The same file resumes; a changed one is another batch.
    let cut: String = all.lines().take(3).map(|l| format!("{l}\n")).collect();
    d.write("cut.csv", &cut);
    ok(run(&["--out", "cut.csv", "--summary", "", "--resume", "--quiet"]));
    assert_eq!(d.text("cut.csv"), all);
    d.write("cut.csv", &cut);
    d.write("w.txt", format!("{}\n# changed\n", std::fs::read_to_string(&shipped).unwrap()));
    let o = run(&["--out", "cut.csv", "--summary", "", "--resume", "--quiet"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && e.contains("first_weights="), "{e}");
    // No weights file, no weights keys.
    ok(senat_in(
        &d.0,
        &["selfplay", "--game", "focus", "--games", "2", "--first", "greedy", "--out", "g.csv", "--quiet"],
    ));
    assert!(!d.text("g.csv").lines().next().unwrap().contains("_weights="));
    // An arena's line gives the hashes in the order of its agents (the file as it is now).
    ok(senat_in(&d.0, &["arena", "--game", "focus", "greedy", agent, "--games", "2", "--out", "a.csv", "--quiet"]));
    let line = d.text("a.csv").lines().next().unwrap().to_string();
    let weights = line.split(' ').find_map(|w| w.strip_prefix("weights=")).expect(&line);
    let (first, second) = weights.split_once(';').expect(&line);
    assert!(first == "-" && second.starts_with("fnv1a64:") && second != hash, "{line}");
    ok(senat_in(&d.0, &["arena", "--game", "focus", "greedy", "random", "--games", "2", "--out", "b.csv", "--quiet"]));
    assert!(!d.text("b.csv").lines().next().unwrap().contains("weights="));
}
