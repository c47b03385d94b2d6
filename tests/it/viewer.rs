//! The game viewer in a real headless browser (Debian's `chromium`): the
//! page made by `senat view` is opened at `#ply=0`, `#ply=10` and its last
//! ply, and the SPN it shows must be senat's own position after that ply;
//! a screenshot must show each die's colour where the die is; a hostile
//! record must run none of its text.
//!
//! The browser is `chromium` on the PATH (or `$SENAT_CHROMIUM`). Without
//! one the tests fail, unless `SENAT_SKIP_BROWSER=1` is set: `.ci/run` sets
//! it, with a loud SKIPPED line, only when chromium cannot be installed.

use resvg::tiny_skia::Pixmap;
use senat_lab::picture;
use senat_rules::{Cell, GameRecord, Position};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use testkit::has_domino as has_tile;

use crate::support::cli::ok as senat;
use crate::support::games::sample_game;

fn dir(name: &str) -> PathBuf {
    crate::support::files::scratch("viewer", name)
}

/// The browser, or `None` when the tests are told to skip it.
fn browser() -> Option<String> {
    let name = std::env::var("SENAT_CHROMIUM").unwrap_or_else(|_| "chromium".to_string());
    let found = Command::new(&name).arg("--version").output().is_ok_and(|o| o.status.success());
    if found {
        return Some(name);
    }
    if std::env::var("SENAT_SKIP_BROWSER").is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED: no browser `{name}` (SENAT_SKIP_BROWSER=1): the viewer was not tested in a browser");
        return None;
    }
    panic!("no browser `{name}`: install Debian's chromium (apt-get install chromium) or set SENAT_SKIP_BROWSER=1");
}

/// Common flags: headless, no sandbox (root in CI), a fixed window and
/// scale, and virtual time so that the page's script has run before the
/// DOM or the screenshot is taken.
fn chromium(browser: &str, profile: &Path, extra: &[&str], url: &str) -> Vec<u8> {
    let started = Instant::now();
    let o = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--window-size=1200,900",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("the browser runs");
    assert!(o.status.success(), "{browser} failed: {}", String::from_utf8_lossy(&o.stderr));
    eprintln!("{browser} {extra:?} {url}: {:.2} s", started.elapsed().as_secs_f64());
    o.stdout
}

fn url(page: &Path, ply: usize) -> String {
    format!("file://{}#ply={ply}", page.canonicalize().unwrap().display())
}

/// The DOM of the page at a ply, after its script ran.
fn dom(browser: &str, profile: &Path, page: &Path, ply: usize) -> String {
    let out = chromium(browser, profile, &["--dump-dom"], &url(page, ply));
    let dom = String::from_utf8(out).expect("UTF-8 DOM");
    assert!(dom.contains("data-ready=\"yes\""), "the page's script ran to its end: {dom}");
    dom
}

/// Text as the DOM serializer writes it, unescaped.
/// The page's DOM at each of `plies`, from one browser launch: a host page
/// holds the page once per ply in iframes (`#ply=N`) and copies each one's
/// DOM into a `<pre>` of its own, read back here.
fn doms(browser: &str, profile: &Path, page: &Path, plies: &[usize]) -> Vec<String> {
    let src = page.canonicalize().unwrap();
    let frames: String = plies
        .iter()
        .enumerate()
        .map(|(i, p)| {
            format!(
                "<iframe id=\"f{i}\" src=\"file://{}#ply={p}\" width=\"1200\" height=\"900\"></iframe>\n",
                src.display()
            )
        })
        .collect();
    let host = format!(
        r#"<!DOCTYPE html><html><body>{frames}<script>
window.addEventListener('load', function () {{
  document.querySelectorAll('iframe').forEach(function (f, i) {{
    var pre = document.createElement('pre');
    pre.id = 'dom' + i;
    pre.textContent = f.contentDocument ? f.contentDocument.documentElement.outerHTML : 'unreadable';
    document.body.appendChild(pre);
  }});
}});
</script></body></html>"#
    );
    let host_path = page.with_extension(format!("plies-{}.html", plies.len()));
    std::fs::write(&host_path, host).unwrap();
    let url = format!("file://{}", host_path.canonicalize().unwrap().display());
    let out = chromium(browser, profile, &["--allow-file-access-from-files", "--dump-dom"], &url);
    let all = String::from_utf8(out).expect("UTF-8 DOM");
    (0..plies.len())
        .map(|i| {
            let open = format!("<pre id=\"dom{i}\">");
            let start = all.find(&open).unwrap_or_else(|| panic!("frame {i} copied: {all}")) + open.len();
            let end = start + all[start..].find("</pre>").expect("its end");
            let dom = unescape(&all[start..end]);
            assert!(dom.contains("data-ready=\"yes\""), "the page's script ran to its end at ply {}: {dom}", plies[i]);
            dom
        })
        .collect()
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// The text of the element with this id (no nested elements), unescaped.
fn text_of(dom: &str, tag: &str, id: &str) -> String {
    let open = format!("<{tag} id=\"{id}\"");
    let at = dom.find(&open).unwrap_or_else(|| panic!("no #{id} in the DOM"));
    let rest = &dom[at..];
    let start = rest.find('>').unwrap() + 1;
    let end = rest.find(&format!("</{tag}>")).unwrap();
    unescape(&rest[start..end])
}

/// Positions after each ply of a game.
fn positions(start: Position, moves: &[senat_rules::Move]) -> Vec<Position> {
    let mut p = start;
    let mut v = vec![p];
    for &m in moves {
        p.play_unchecked(m);
        v.push(p);
    }
    v
}

/// Opens the page at `#ply=0`, `#ply=10` and the last ply and checks the
/// SPN, the ply counter and the highlighted move against senat's positions.
fn check_plies(browser: &str, profile: &Path, page: &Path, all: &[Position], moves: &[senat_rules::Move]) {
    let last = all.len() - 1;
    let plies = [0, 10, last];
    for (ply, dom) in plies.into_iter().zip(doms(browser, profile, page, &plies)) {
        assert_eq!(text_of(&dom, "code", "spn"), all[ply].to_spn(), "SPN at ply {ply}");
        assert_eq!(text_of(&dom, "span", "ply"), format!("ply {ply} / {last}"));
        let current = dom.matches("class=\"current\"").count();
        assert_eq!(current, 1, "one highlighted move at ply {ply}");
        if ply > 0 {
            let label = text_of(&dom, "span", "move");
            assert!(label.ends_with(&moves[ply - 1].to_string()), "move {label} at ply {ply}");
        }
        // The board SVG of that ply is in the page.
        assert!(dom.contains(&format!("data-spn=\"{}\"", all[ply].to_spn())), "board at ply {ply}");
        let result = text_of(&dom, "div", "result");
        assert_eq!(result.is_empty(), ply != last, "result only at the end: {result:?}");
    }
}

#[test]
fn sample_game_plies_and_screenshot() {
    let Some(browser) = browser() else { return };
    let started = Instant::now();
    let d = dir("sample");
    let page = d.join("sample.html");
    senat(&["view", "crates/rules/data/sample-game.txt", "--out", page.to_str().unwrap()]);
    let g = sample_game();
    let all = positions(*g.start(), g.moves());
    check_plies(&browser, &d.join("profile"), &page, &all, g.moves());
    let dom = dom(&browser, &d.join("profile"), &page, all.len() - 1);
    assert_eq!(text_of(&dom, "div", "result"), "blue wins by majority (red 4, blue 5, white 0)");

    // A screenshot at ply 10: the board sits 16 px from the left and 64 px
    // from the top at its natural size, so each die's symbol is at a known pixel.
    let shot = d.join("ply10.png");
    chromium(&browser, &d.join("profile"), &[&format!("--screenshot={}", shot.display())], &url(&page, 10));
    let pix = Pixmap::decode_png(&std::fs::read(&shot).unwrap()).expect("a PNG screenshot");
    assert_eq!((pix.width(), pix.height()), (1200, 900));
    let p = all[10];
    let touched: Vec<Cell> = {
        // Cells under the last move's arrows are not checked.
        use senat_rules::{Dest, MoveKind};
        match g.moves()[9].kind() {
            MoveKind::Push { agent, target, to } => {
                let mut v = vec![agent, target];
                if let Dest::Cell(c) = to {
                    v.push(c);
                }
                v
            }
            MoveKind::Flip { agent, target } | MoveKind::Turn { agent, target, .. } => vec![agent, target],
            MoveKind::Shift { from, to } => vec![from, to],
            _ => vec![],
        }
    };
    let mut checked = 0;
    for c in Cell::all() {
        let Some((die, f)) = p.piece_at(c) else { continue };
        if touched.contains(&c) {
            continue;
        }
        let (x, y) = picture::symbol_centre(c);
        let px = pix.pixel((16 + x) as u32, (64 + y) as u32).unwrap();
        let got = [px.red(), px.green(), px.blue()];
        let want = picture::colour_rgb(die.colour(f));
        let close = got.iter().zip(want).all(|(&a, b)| a.abs_diff(b) <= 6);
        assert!(close, "{c}: die {die} shows {f}: screenshot pixel {got:?}, expected {want:?}");
        checked += 1;
    }
    assert!(checked >= 15, "{checked} dice checked");
    // The highlighted move in the list is yellow somewhere right of the board.
    let yellow = (748..1168)
        .flat_map(|x| (64..600).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            let px = pix.pixel(x, y).unwrap();
            (px.red(), px.green(), px.blue()) == (0xff, 0xd5, 0x4f)
        })
        .count();
    assert!(yellow > 100, "the current move is highlighted ({yellow} yellow pixels)");
    eprintln!("browser test of the sample game: {:.1} s", started.elapsed().as_secs_f64());
}

#[test]
fn a_selfplay_game_with_its_draft() {
    let Some(browser) = browser() else { return };
    let d = dir("csv");
    let games = d.join("games.csv");
    senat(&[
        "selfplay",
        "--games",
        "2",
        "--red",
        "heuristic",
        "--blue",
        "random",
        "--out",
        games.to_str().unwrap(),
        "--summary",
        "",
        "--quiet",
    ]);
    let page = d.join("game1.html");
    senat(&["view", games.to_str().unwrap(), "--index", "1", "--out", page.to_str().unwrap()]);
    // senat's own replay of the row's moves.
    let mut rdr = csv::ReaderBuilder::new().comment(Some(b'#')).from_path(&games).unwrap();
    let row = rdr.records().map(Result::unwrap).find(|r| &r[0] == "1").expect("game 1");
    let mut g = GameRecord::new(Position::start());
    for text in row[14].split_whitespace().chain(row[15].split_whitespace()) {
        let m = g.position().parse_move(text).unwrap();
        g.play(m).unwrap();
    }
    let all = positions(Position::start(), g.moves());
    assert!(!all[10].is_play(), "ply 10 is in the draft");
    check_plies(&browser, &d.join("profile"), &page, &all, g.moves());
    let dom = dom(&browser, &d.join("profile"), &page, 10);
    assert!(text_of(&dom, "div", "players").contains("red: heuristic · blue: random"));
    assert!(text_of(&dom, "div", "status").starts_with("draft: "));
}

#[test]
fn a_hostile_record_runs_nothing() {
    let Some(browser) = browser() else { return };
    let d = dir("hostile");
    let record = d.join("evil.txt");
    std::fs::write(
        &record,
        "# <script>document.title='pwned'</script>\n\
# </svg></script><img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">\n\
# \"double\" 'single' javascript:document.body.setAttribute('data-pwned','2') <a href=\"javascript:alert(1)\">x</a>\n\
sample\n\
# </script><script>document.body.setAttribute('data-pwned','3')</script>\n\
M13>M14:I19 # <svg onload=\"document.body.setAttribute('data-pwned','4')\"></svg>\n",
    )
    .unwrap();
    let page = d.join("evil.html");
    senat(&["view", record.to_str().unwrap(), "--out", page.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<script").count(), 2, "only the page's own script elements");
    assert!(html.contains("Content-Security-Policy"));
    let dom = dom(&browser, &d.join("profile"), &page, 1);
    let title = unescape(&dom[dom.find("<title>").unwrap() + 7..dom.find("</title>").unwrap()]);
    assert!(title.starts_with("senat viewer: ") && !title.contains("pwned"), "title {title:?}");
    let body = &dom[dom.find("<body").unwrap()..];
    let body_tag = &body[..body.find('>').unwrap()];
    assert!(!body_tag.contains("pwned"), "no script of the record ran: {body_tag}");
    assert!(body_tag.contains("data-ready=\"yes\""), "the page's own script ran");
    // The comments are shown, as text.
    assert!(dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"), "game note shown as text");
    assert!(dom.contains("&lt;/script&gt;&lt;script&gt;document.body.setAttribute('data-pwned','3')"));
    assert!(dom.contains("&lt;svg onload=\"document.body.setAttribute('data-pwned','4')\"&gt;"));
    assert!(!dom.contains("<img"), "no element made from the record");
    assert!(!dom.contains("<a "), "no link made from the record");
    assert!(dom.contains("&lt;a href=\"javascript:alert(1)\"&gt;"), "the link is text");
}

// ---- the other games ------------------------------------------------------

/// A self-play batch of `game` with its moves file: (games, moves).
fn batch(d: &Path, game: &str, games: &str, extra: &[&str]) -> (PathBuf, PathBuf) {
    let (out, moves) = (d.join(format!("{game}.csv")), d.join(format!("{game}-moves.csv")));
    let mut args = vec!["selfplay", "--game", game, "--games", games, "--out", out.to_str().unwrap()];
    args.extend(["--moves", moves.to_str().unwrap(), "--summary", "", "--quiet"]);
    args.extend(extra);
    senat(&args);
    (out, moves)
}

/// The move texts of game `n` of a moves file (its `moves` column).
fn moves_of(moves: &Path, n: usize) -> Vec<String> {
    let mut rdr = csv::ReaderBuilder::new().comment(Some(b'#')).from_path(moves).unwrap();
    let col = rdr.headers().unwrap().iter().position(|h| h == "moves").expect("a moves column");
    let row = rdr.records().map(Result::unwrap).find(|r| r[0] == *n.to_string()).expect("the game's row");
    row[col].split_whitespace().map(str::to_string).collect()
}

/// Every state of a game of `G` from the start of `variant`, replayed by
/// the lab's adapter.
fn lab_states<G: senat_lab::games::LabGame>(variant: &str, moves: &[String]) -> Vec<G::State> {
    let mut v = vec![G::start(variant).unwrap()];
    for m in moves {
        let s = v[v.len() - 1];
        let m = G::parse_move(&s, m).unwrap();
        v.push(G::apply(&s, m));
    }
    v
}

/// Opens `page` at several plies and checks the position text, the ply
/// counter, the move label and the board against `texts` (the engine's
/// position text after each ply) and `moves`.
fn check_texts(browser: &str, profile: &Path, page: &Path, texts: &[String], labels: &[String], plies: &[usize]) {
    let last = texts.len() - 1;
    for (&ply, dom) in plies.iter().zip(doms(browser, profile, page, plies)) {
        assert_eq!(text_of(&dom, "code", "spn"), texts[ply], "position text at ply {ply}");
        assert_eq!(text_of(&dom, "span", "ply"), format!("ply {ply} / {last}"));
        assert_eq!(dom.matches("class=\"current\"").count(), 1, "one highlighted move at ply {ply}");
        if ply > 0 {
            let label = text_of(&dom, "span", "move");
            assert!(label.ends_with(&labels[ply - 1]), "move {label:?} at ply {ply}, expected …{}", labels[ply - 1]);
        }
        let result = text_of(&dom, "div", "result");
        assert_eq!(result.is_empty(), ply != last, "result only at the end: {result:?}");
    }
}

#[test]
fn focus_focus4_and_debacle_games_show_the_engines_positions() {
    use senat_lab::games::{LabGame, debacle::Debacle, focus::Focus};
    let Some(browser) = browser() else { return };
    let d = dir("lab-games");
    for (game, variant) in [("focus", ""), ("focus4", "players=4"), ("debacle", "")] {
        let (_, moves) = batch(&d, game, "2", &["--first", "greedy"]);
        let page = d.join(format!("{game}.html"));
        senat(&["view", "--game", game, moves.to_str().unwrap(), "--index", "1", "--out", page.to_str().unwrap()]);
        let texts: Vec<String> = moves_of(&moves, 1);
        let positions: Vec<String> = if game == "debacle" {
            lab_states::<Debacle>(variant, &texts).iter().map(Debacle::position_text).collect()
        } else {
            lab_states::<Focus>(variant, &texts).iter().map(Focus::position_text).collect()
        };
        let last = positions.len() - 1;
        // The start, the middle and the end (each a browser launch); ply
        // 10 below, with its board.
        check_texts(&browser, &d.join("profile"), &page, &positions, &texts, &[0, last / 2, last]);
        let dom = dom(&browser, &d.join("profile"), &page, 10);
        assert_eq!(text_of(&dom, "code", "spn"), positions[10], "{game}: the position text of ply 10");
        assert!(text_of(&dom, "span", "move").ends_with(&texts[9]), "{game}: the move of ply 10");
        assert!(dom.contains(&format!("data-position=\"{}\"", positions[10])), "{game}: the board of ply 10");
        assert_eq!(text_of(&dom, "div", "players"), "first: greedy · second: random");
        assert!(dom.contains("<span class=\"label\">position</span>"));
        if game == "focus4" {
            // The four players' colours on the board and in the panel.
            for fill in ["#d32f2f", "#1e63c6", "#f2c200", "#2e9e44"] {
                assert!(dom.contains(&format!("fill=\"{fill}\"")), "focus4 colour {fill}");
            }
            assert!(text_of(&dom, "div", "detail").contains("west (blue)"));
        }
        if game == "debacle" {
            assert!(dom.contains("<li class=\"section\">round 1</li>"), "rounds are headings");
        }
    }
}

#[test]
fn an_arena_game_of_focus4_is_viewed_from_its_moves_file() {
    use senat_lab::games::{LabGame, focus::Focus};
    let Some(browser) = browser() else { return };
    let d = dir("arena");
    let moves = d.join("arena-moves.csv");
    let m = moves.to_str().unwrap();
    senat(&["arena", "--game", "focus4", "random", "greedy", "--games", "2", "--moves", m, "--quiet"]);
    let text = std::fs::read_to_string(&moves).unwrap();
    assert!(
        text.starts_with("# senat-arena v2 game=focus4 ") && text.contains("\ngame,pairing,pair,first,second,moves\n")
    );
    // Game 1 is the pair's second game: greedy has the first team.
    let page = d.join("arena1.html");
    senat(&["view", "--game", "focus4", m, "--index", "1", "--out", page.to_str().unwrap()]);
    let texts = moves_of(&moves, 1);
    let positions: Vec<String> = lab_states::<Focus>("players=4", &texts).iter().map(Focus::position_text).collect();
    let last = positions.len() - 1;
    check_texts(&browser, &d.join("profile"), &page, &positions, &texts, &[0, 5, last]);
    let dom = dom(&browser, &d.join("profile"), &page, last);
    assert_eq!(text_of(&dom, "div", "players"), "first: greedy · second: random");
    let other = d.join("other.html");
    let e =
        crate::support::cli::fails(&["view", "--game", "focus", m, "--index", "0", "--out", other.to_str().unwrap()]);
    assert!(e.contains("focus4 batch, not of focus"), "{e}");
}

#[test]
fn a_dominoes_page_shows_one_seat_and_hides_the_rest() {
    use dominoes_rules::{State, Variant};
    let Some(browser) = browser() else { return };
    let d = dir("dominoes");
    let (_, moves_file) = batch(&d, "dominoes", "1", &["--first", "greedy"]);
    let texts = moves_of(&moves_file, 0);
    let states = |n: usize| {
        let mut v = vec![State::start(Variant::default())];
        for t in &texts[..n] {
            let mut s = v[v.len() - 1];
            let m = s.parse_move(t).unwrap();
            s.play_unchecked(m);
            v.push(s);
        }
        v
    };
    // A record cut in the first round, after the deal and some plays and
    // draws: what is hidden from a seat at its end was never shown to it.
    let cut = texts.iter().position(|t| t.starts_with('+')).expect("a draw in the first round") + 3;
    let all = states(cut);
    assert!(!all[cut].round_over() && all[cut].rounds_played() == 0, "the cut is in the first round");
    let record = d.join("round.txt");
    let mut body = String::from(
        "# a round cut short </script><script>document.body.setAttribute('data-pwned','1')</script>\nstart\n",
    );
    for t in &texts[..cut] {
        body.push_str(t);
        body.push('\n');
    }
    std::fs::write(&record, body).unwrap();
    for seat in 0..2usize {
        let page = d.join(format!("seat{seat}.html"));
        let s = seat.to_string();
        senat(&["view", "--game", "dominoes", record.to_str().unwrap(), "--seat", &s, "--out", page.to_str().unwrap()]);
        let html = std::fs::read_to_string(&page).unwrap();
        let end = &all[cut];
        let hidden = end.hand(1 - seat).union(end.boneyard());
        assert!(hidden.len() >= 7);
        for t in hidden.iter() {
            let (a, b) = t.ends();
            assert!(!has_tile(&html, a, b), "seat {seat}: the hidden tile {t} is in the page");
        }
        for t in end.hand(seat).iter() {
            let (a, b) = t.ends();
            assert!(has_tile(&html, a, b), "seat {seat}: its own tile {t} is in the page");
        }
        let observed: Vec<String> = all.iter().map(|s| s.observation(seat).to_string()).collect();
        let labels: Vec<String> = texts[..cut]
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let mover = all[k].to_move();
                match t.chars().next() {
                    Some('+') if mover != seat => "+?".to_string(),
                    _ if t.contains('>') && !t.ends_with(&format!(">{seat}")) => format!("?>{}", &t[t.len() - 1..]),
                    _ => t.clone(),
                }
            })
            .collect();
        let draw = (0..cut).find(|&k| texts[k].starts_with('+')).unwrap() + 1;
        check_texts(&browser, &d.join("profile"), &page, &observed, &labels, &[0, 10, draw, cut]);
        let dom = dom(&browser, &d.join("profile"), &page, draw);
        assert!(text_of(&dom, "span", "move").contains(" draws "), "a draw is a ply of its own");
        assert!(dom.contains("<span class=\"label\">observation</span>"));
        let body_tag = &dom[dom.find("<body").unwrap()..];
        assert!(!body_tag[..body_tag.find('>').unwrap()].contains("pwned"), "the record's note ran nothing");
        assert!(dom.contains("&lt;/script&gt;&lt;script&gt;document.body"), "the note is shown as text");
    }
    // The whole match from the moves file, seen by player 1: every round's
    // deal, draws and passes are plies; the positions are player 1's.
    let page = d.join("match.html");
    senat(&[
        "view",
        "--game",
        "dominoes",
        moves_file.to_str().unwrap(),
        "--index",
        "0",
        "--observer",
        "1",
        "--out",
        page.to_str().unwrap(),
    ]);
    let all = states(texts.len());
    let observed: Vec<String> = all.iter().map(|s| s.observation(1).to_string()).collect();
    let last = texts.len();
    let dom = dom(&browser, &d.join("profile"), &page, last);
    assert_eq!(text_of(&dom, "code", "spn"), observed[last]);
    assert!(text_of(&dom, "div", "result").contains("after"), "the match's result");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("draws +?") || !texts.iter().any(|t| t.starts_with('+')));
    // --reveal shows the boneyard.
    let page = d.join("revealed.html");
    senat(&["view", "--game", "dominoes", record.to_str().unwrap(), "--reveal", "--out", page.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    for t in states(cut)[cut].boneyard().iter() {
        let (a, b) = t.ends();
        assert!(has_tile(&html, a, b), "revealed: the boneyard's {t}");
    }
}

#[test]
fn a_hostile_record_of_another_game_runs_nothing() {
    let Some(browser) = browser() else { return };
    let d = dir("hostile-focus");
    let record = d.join("<script>document.title='pwned'<!--.txt");
    std::fs::write(
        &record,
        "# </script><script>document.body.setAttribute('data-pwned','1')</script>\u{1}\u{7}\n\
start\n\
# <img src=x onerror=\"document.body.setAttribute('data-pwned','2')\">\n\
c3-c2 # </svg><svg onload=\"document.body.setAttribute('data-pwned','3')\">\u{2028}end\n",
    )
    .unwrap();
    let page = d.join("evil.html");
    senat(&["view", "--game", "focus", record.to_str().unwrap(), "--out", page.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<script").count(), 2, "only the page's own script elements");
    assert!(!html.contains('\u{1}') && !html.contains('\u{2028}'), "control characters are escapes");
    let dom = dom(&browser, &d.join("profile"), &page, 1);
    let title = unescape(&dom[dom.find("<title>").unwrap() + 7..dom.find("</title>").unwrap()]);
    assert!(title.starts_with("senat viewer: ") && title.contains("<script>"), "title {title:?}");
    let body = &dom[dom.find("<body").unwrap()..];
    let body_tag = &body[..body.find('>').unwrap()];
    assert!(!body_tag.contains("pwned"), "no script of the record ran: {body_tag}");
    assert!(body_tag.contains("data-ready=\"yes\""), "the page's own script ran");
    assert!(dom.contains("&lt;/script&gt;&lt;script&gt;document.body.setAttribute('data-pwned','1')"));
    assert!(dom.contains("&lt;img src=x onerror="), "the ply's note is text");
    assert!(!dom.contains("<img") && !dom.contains("<svg onload"), "no element made from the record");
}

#[test]
fn view_refuses_what_it_cannot_show_in_one_line() {
    use crate::support::cli::fails;
    let d = dir("refusals");
    let (games, moves) = batch(&d, "focus", "2", &[]);
    let (g, m) = (games.to_str().unwrap(), moves.to_str().unwrap());
    let out = d.join("page.html");
    let o = out.to_str().unwrap();
    let e = fails(&["view", "--game", "focus", m, "--index", "7", "--out", o]);
    assert!(e.contains("no game 7 among its 2 rows"), "{e}");
    let e = fails(&["view", "--game", "debacle", m, "--index", "0", "--out", o]);
    assert!(e.contains("focus batch, not of debacle: pass --game focus"), "{e}");
    let e = fails(&["view", "--game", "focus4", m, "--index", "0", "--out", o]);
    assert!(e.contains("pass --game focus"), "{e}");
    // The file names its game: no --game needed.
    senat(&["view", m, "--index", "0", "--out", o]);
    std::fs::remove_file(&out).unwrap();
    let e = fails(&["view", "--game", "focus", g, "--index", "0", "--out", o]);
    assert!(e.contains("pass the batch's moves file"), "{e}");
    let e = fails(&["view", "--game", "focus", m, "--out", o]);
    assert!(e.contains("pass --index N"), "{e}");
    let e = fails(&["view", "--game", "focus", m, "--index", "0", "--seat", "1", "--out", o]);
    assert!(e.contains("--seat and --reveal are for --game dominoes"), "{e}");
    let record = d.join("focus.txt");
    std::fs::write(&record, "start\nc3-c2\nz9-z8\n").unwrap();
    let r = record.to_str().unwrap();
    let e = fails(&["view", "--game", "focus", r, "--index", "0", "--out", o]);
    assert!(e.contains("is not a batch file"), "{e}");
    let e = fails(&["view", "--game", "focus", r, "--out", o]);
    assert!(e.contains(":3:"), "the bad move's line: {e}");
    let e = fails(&["view", "--game", "dominoes", r, "--out", o]);
    assert!(e.contains(":2:"), "a Focus record is not a dominoes record: {e}");
    std::fs::write(&record, "start\nc3-c2\n").unwrap();
    senat(&["view", "--game", "focus", r, "--out", o]);
    let e = fails(&["view", "--game", "focus", r, "--out", o]);
    assert!(e.contains("already exists; pass --force"), "{e}");
    senat(&["view", "--game", "focus", r, "--out", o, "--force"]);
    let (_, dm) = batch(&d, "dominoes", "1", &[]);
    let o = d.join("match.html");
    let o = o.to_str().unwrap();
    let e = fails(&["view", "--game", "dominoes", dm.to_str().unwrap(), "--index", "0", "--seat", "2", "--out", o]);
    assert!(e.contains("--seat 2: the match has players 0 to 1"), "{e}");
}

/// The target of a long game: the page of a 1,000-ply Focus game (random
/// self-play games of Focus reach the 1,000-ply cap) is at most 2 MB and
/// shows its last ply in the browser.
#[test]
fn a_thousand_ply_focus_page_is_small_and_loads() {
    let Some(browser) = browser() else { return };
    let d = dir("long-focus");
    let (_, moves) = batch(&d, "focus", "1", &[]);
    let texts = moves_of(&moves, 0);
    assert!(texts.len() >= 1000, "a random Focus game of {} plies", texts.len());
    let page = d.join("long.html");
    senat(&["view", "--game", "focus", moves.to_str().unwrap(), "--index", "0", "--out", page.to_str().unwrap()]);
    let bytes = std::fs::metadata(&page).unwrap().len();
    eprintln!("the page of a {}-ply Focus game: {bytes} bytes", texts.len());
    assert!(bytes <= 2_000_000, "{bytes} bytes");
    let started = Instant::now();
    let dom = dom(&browser, &d.join("profile"), &page, texts.len());
    eprintln!("shown at its last ply in {:.2} s (the browser's start included)", started.elapsed().as_secs_f64());
    use senat_lab::games::{LabGame, focus::Focus};
    let last = lab_states::<Focus>("", &texts);
    assert_eq!(text_of(&dom, "code", "spn"), Focus::position_text(&last[texts.len()]));
}

/// Blue's win probability at ply `j` by an annotated record's own words:
/// the first move's `win P` at ply 0, move `j`'s `after …: Q` at ply `j`,
/// each seen from the mover (blue's, or turned for red).
fn blue_by_annotation(annotated: &str, j: usize) -> f64 {
    let moves: Vec<&str> = annotated.lines().filter(|l| l.contains("  # ply ")).collect();
    let line = moves[j.max(1) - 1];
    let mover_blue = line.contains(", blue: win ");
    let p: f64 = if j == 0 {
        line.split(": win ").nth(1).unwrap().split([' ', ',']).next().unwrap().parse().unwrap()
    } else {
        let after = line.rsplit("; after ").next().unwrap();
        after.split(": ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap()
    };
    if mover_blue { p } else { 1.0 - p }
}

#[test]
fn an_annotated_record_shows_the_engines_opinion_as_a_bar_and_a_graph() {
    let Some(browser) = browser() else { return };
    let d = dir("annotated");
    let (rec, page) = (d.join("a.txt"), d.join("a.html"));
    let sample = "crates/rules/data/sample-game.txt";
    senat(&["annotate", sample, "--agent", "ab:depth=5", "--out", rec.to_str().unwrap()]);
    let annotated = std::fs::read_to_string(&rec).unwrap();
    senat(&["view", rec.to_str().unwrap(), "--out", page.to_str().unwrap()]);
    let plies = [0, 1, 15, 16, 27];
    for (j, at) in plies.into_iter().zip(doms(&browser, &d.join("profile"), &page, &plies)) {
        let want = format!("blue {:.3}", blue_by_annotation(&annotated, j));
        assert_eq!(text_of(&at, "span", "eval-text"), want, "ply {j}");
        assert!(at.contains("<svg id=\"eval-graph\""), "the graph of the game");
    }
    // Move 16 throws red's forced win away: blue goes from 0 to about ½.
    assert_eq!(blue_by_annotation(&annotated, 15), 0.0);
    assert!(blue_by_annotation(&annotated, 16) > 0.3);
    // A record without annotations has no evaluation box.
    let plain = d.join("plain.html");
    senat(&["view", sample, "--out", plain.to_str().unwrap()]);
    let plain_dom = dom(&browser, &d.join("profile"), &plain, 3);
    assert!(
        !plain_dom.contains("id=\"eval-box\"") && !plain_dom.contains("<svg id=\"eval-graph\""),
        "no box without annotations"
    );
    // Focus: team 0 (white), from the lab's agents.
    let (frec, fpage) = (d.join("f.txt"), d.join("f.html"));
    std::fs::write(&frec, "start\nc5-c4\nb4-c4\nc3-c4\nf4-e4\n").unwrap();
    let fann = d.join("fa.txt");
    senat(&[
        "annotate",
        "--game",
        "focus",
        frec.to_str().unwrap(),
        "--agent",
        "ab:depth=2",
        "--out",
        fann.to_str().unwrap(),
    ]);
    senat(&["view", "--game", "focus", fann.to_str().unwrap(), "--out", fpage.to_str().unwrap()]);
    let text = std::fs::read_to_string(&fann).unwrap();
    let line2 = text.lines().find(|l| l.starts_with("b4-c4 ")).unwrap();
    assert!(line2.contains(", black: win "), "{line2}");
    let q: f64 = line2
        .rsplit("; after ")
        .next()
        .unwrap()
        .split(": ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let focus_dom = dom(&browser, &d.join("profile"), &fpage, 2);
    assert_eq!(text_of(&focus_dom, "span", "eval-text"), format!("white {:.3}", 1.0 - q));
    assert!(!focus_dom.contains("id=\"ply-notes-label\" hidden"), "a ply with notes has its heading");
    // Without notes, no heading over nothing.
    let bare = d.join("bare.html");
    senat(&["view", "--game", "focus", frec.to_str().unwrap(), "--out", bare.to_str().unwrap()]);
    let bare_dom = dom(&browser, &d.join("profile"), &bare, 2);
    assert!(bare_dom.contains("id=\"ply-notes-label\" hidden"), "no heading without notes: {bare_dom}");
    assert!(bare_dom.contains("id=\"game-notes-label\" hidden"), "no heading without notes");
    // Dominoes, two players: player 0's chance, from the mover's own search.
    let (drec, dann, dpage) = (d.join("d.txt"), d.join("da.txt"), d.join("d.html"));
    let (_, moves) = batch(&d, "dominoes", "1", &[]);
    std::fs::write(&drec, format!("start\n{}\n", moves_of(&moves, 0)[..40].join("\n"))).unwrap();
    senat(&[
        "annotate",
        "--game",
        "dominoes",
        drec.to_str().unwrap(),
        "--agent",
        "ismcts:playouts=100",
        "--out",
        dann.to_str().unwrap(),
    ]);
    senat(&["view", "--game", "dominoes", dann.to_str().unwrap(), "--out", dpage.to_str().unwrap()]);
    let text = std::fs::read_to_string(&dann).unwrap();
    let (j, line) =
        text.lines().filter(|l| l.contains("  # ply ")).enumerate().find(|(_, l)| l.contains(", player ")).unwrap();
    let q: f64 =
        line.rsplit("; after ").next().unwrap().split(": ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    let want = if line.contains(", player 0: ") { q } else { 1.0 - q };
    let ddom = dom(&browser, &d.join("profile"), &dpage, j + 1);
    assert_eq!(text_of(&ddom, "span", "eval-text"), format!("player 0 {want:.3}"), "{line}");
}

// ---- every game's page in a narrow and a wide window ---------------------

/// The host page of [`every_page_fits_400_and_1280_px_with_its_evaluation`]:
/// each page in an iframe of each width (an iframe's width is its page's
/// window; headless chromium's own window is at least 500 px wide), and a
/// script that, once all have loaded, writes what they show into its own
/// The host pages' script line that writes each frame's width and whether
/// its script ran into `data-widths` (`id=WIDTH:yes …`).
const WIDTHS: &str = "  var out = [];
  document.querySelectorAll('iframe').forEach(function (f) {
    var d = f.contentDocument;
    out.push(f.id + '=' + (d ? d.documentElement.scrollWidth + ':' + d.body.getAttribute('data-ready') : 'unreadable'));
  });
  document.body.setAttribute('data-widths', out.join(' '));
";

/// body's attributes: each page's laid-out width and readiness, and from
/// the annotated page its evaluation before and after the switch of point
/// of view, its marks in the move list and on the graph, its bar's height,
/// its accuracy lines and its legend. One browser launch for all.
fn host_page(pages: &[(&str, &Path, usize)], widths: &[u32]) -> String {
    let mut frames = String::new();
    for (name, page, ply) in pages {
        for w in widths {
            let src = format!("{}#ply={ply}", page.canonicalize().unwrap().display());
            frames.push_str(&format!(
                "<iframe id=\"{name}-{w}\" src=\"file://{src}\" width=\"{w}\" height=\"800\"></iframe>\n"
            ));
        }
    }
    format!(
        r#"<!DOCTYPE html><html><body>{frames}<script>
window.addEventListener('load', function () {{
{WIDTHS}  var d = document.getElementById('annotated-400').contentDocument;
  function t(id) {{ return d.getElementById(id).textContent; }}
  var before = t('eval-text'), bar = d.getElementById('eval-vfill').style.height;
  d.getElementById('flip').click();
  var after = t('eval-text') + '|' + d.getElementById('eval-vfill').style.height + '|' + t('flip');
  var lines = d.getElementById('eval-lines').getAttribute('transform');
  var marks = [].map.call(d.querySelectorAll('#moves .mark'), function (m) {{ return m.textContent.trim(); }});
  var dots = [].map.call(d.querySelectorAll('#eval-graph circle.mark'), function (c) {{ return c.getAttribute('data-ply') + c.getAttribute('data-mark'); }});
  var board = d.getElementById('board').getBoundingClientRect(), vbar = d.getElementById('eval-vbar').getBoundingClientRect();
  var beside = vbar.right <= board.left && Math.abs(vbar.height - board.height) < 2;
  document.body.setAttribute('data-eval', [before, bar, after, lines, beside].join(' / '));
  document.body.setAttribute('data-marks', marks.join(' '));
  document.body.setAttribute('data-dots', dots.join(' '));
  document.body.setAttribute('data-accuracy', t('accuracy'));
  document.body.setAttribute('data-legend', t('legend'));
  document.body.setAttribute('data-end', document.getElementById('ended-400').contentDocument.getElementById('status').textContent);
}});
</script></body></html>"#
    )
}

/// The value of attribute `name` of the DOM's body.
fn body_attribute(dom: &str, name: &str) -> String {
    let at = dom.find(&format!(" {name}=\"")).unwrap_or_else(|| panic!("no {name} in the host page: {dom}"));
    let rest = &dom[at + name.len() + 3..];
    unescape(&rest[..rest.find('"').unwrap()])
}

/// Every game's page (Sénat annotated and not, Focus, Focus with 4
/// players, Débâcle, dominoes, Connect Four) is no wider than a window of
/// 400 px and of 1,280 px; the annotated page has its evaluation bar
/// beside the board, switches its point of view, shows annotate's marks in
/// the move list and as dots on the graph, each side's accuracy and
/// Sénat's legend; a finished game says who won.
#[test]
fn every_page_fits_400_and_1280_px_with_its_evaluation() {
    let Some(browser) = browser() else { return };
    let d = dir("widths");
    let sample = "crates/rules/data/sample-game.txt";
    let rec = d.join("annotated.txt");
    senat(&["annotate", sample, "--agent", "ab:depth=3", "--out", rec.to_str().unwrap()]);
    let annotated = std::fs::read_to_string(&rec).unwrap();
    let (ann, ended) = (d.join("annotated.html"), d.join("ended.html"));
    senat(&["view", rec.to_str().unwrap(), "--out", ann.to_str().unwrap()]);
    senat(&["view", sample, "--out", ended.to_str().unwrap()]);
    let mut pages = vec![("annotated", ann.clone(), 16), ("ended", ended.clone(), 27)];
    let games = ["focus", "focus4", "debacle", "dominoes", "connect4"];
    for game in games {
        let (_, moves) = batch(&d, game, "1", &["--first", "greedy"]);
        let page = d.join(format!("{game}.html"));
        senat(&["view", moves.to_str().unwrap(), "--index", "0", "--out", page.to_str().unwrap()]);
        pages.push((game, page, 5));
    }
    let listed: Vec<(&str, &Path, usize)> = pages.iter().map(|(n, p, k)| (*n, p.as_path(), *k)).collect();
    let host = d.join("host.html");
    std::fs::write(&host, host_page(&listed, &[400, 1280])).unwrap();
    let url = format!("file://{}", host.canonicalize().unwrap().display());
    let out = chromium(&browser, &d.join("profile"), &["--allow-file-access-from-files", "--dump-dom"], &url);
    let dom = String::from_utf8(out).unwrap();
    let widths = body_attribute(&dom, "data-widths");
    for (name, _, _) in &pages {
        for w in [400, 1280] {
            assert!(widths.contains(&format!("{name}-{w}={w}:yes")), "{name} at {w} px: {widths}");
        }
    }
    // The annotated page: blue's chance at ply 16, then red's after the switch.
    let blue = blue_by_annotation(&annotated, 16);
    let eval = body_attribute(&dom, "data-eval");
    let want = format!(
        "blue {blue:.3} / {}% / red {:.3}|{}%|view from blue / matrix(1 0 0 -1 0 80) / true",
        100.0 * blue,
        1.0 - blue,
        100.0 * (1.0 - blue)
    );
    // The heights are CSS numbers: compare the texts and the heights to 0.01 %.
    let (got, exp): (Vec<&str>, Vec<&str>) = (eval.split(" / ").collect(), want.split(" / ").collect());
    assert_eq!((got[0], got[3], got[4]), (exp[0], exp[3], exp[4]), "{eval}");
    let pct = |t: &str| t.trim_end_matches('%').parse::<f64>().unwrap();
    assert!((pct(got[1]) - 100.0 * blue).abs() < 0.01, "{eval}");
    let flipped: Vec<&str> = got[2].split('|').collect();
    assert_eq!((flipped[0], flipped[2]), (format!("red {:.3}", 1.0 - blue).as_str(), "view from blue"), "{eval}");
    assert!((pct(flipped[1]) - 100.0 * (1.0 - blue)).abs() < 0.01, "{eval}");
    // Every mark annotate wrote, in the move list and on the graph, in order.
    let written: Vec<(usize, &str)> = annotated
        .lines()
        .filter(|l| l.contains("  # ply "))
        .enumerate()
        .filter_map(|(k, l)| {
            let after = l.rsplit("; after ").next()?;
            let mark = after.split_whitespace().nth(2)?;
            ["?!", "?", "??"].contains(&mark).then_some((k + 1, mark))
        })
        .collect();
    assert!(!written.is_empty(), "the sample game has marked moves at depth 3");
    let marks: Vec<&str> = written.iter().map(|(_, m)| *m).collect();
    assert_eq!(body_attribute(&dom, "data-marks"), marks.join(" "));
    let dots: Vec<String> = written.iter().map(|(j, m)| format!("{j}{m}")).collect();
    assert_eq!(body_attribute(&dom, "data-dots"), dots.join(" "));
    let accuracy = body_attribute(&dom, "data-accuracy");
    assert!(
        accuracy.starts_with("blue: 0.") && accuracy.contains(" moves · ?! ") && accuracy.contains("red: 0."),
        "{accuracy}"
    );
    let legend = body_attribute(&dom, "data-legend");
    assert!(["▲ triangle", "■ square", "● circle"].iter().all(|s| legend.contains(s)), "{legend}");
    assert_eq!(body_attribute(&dom, "data-end"), "blue wins by majority");
}

/// The engine's opinion held by a page (its data's `eval` object).
fn eval_data(page: &Path) -> String {
    let html = std::fs::read_to_string(page).unwrap();
    let at = html.find("\"eval\":{").expect("an evaluation in the page");
    html[at..at + html[at..].find("]}").unwrap()].to_string()
}

/// `view --annotate` is `annotate` then `view`: the same opinion of every
/// ply, under the original game's title (and a batch game's players), and
/// no record left behind; an agent that does not search is refused.
#[test]
fn view_annotate_is_annotate_then_view() {
    let d = dir("view-annotate");
    let sample = "crates/rules/data/sample-game.txt";
    let (rec, two, one) = (d.join("a.txt"), d.join("two.html"), d.join("one.html"));
    senat(&["annotate", sample, "--agent", "ab:depth=3", "--out", rec.to_str().unwrap()]);
    senat(&["view", rec.to_str().unwrap(), "--out", two.to_str().unwrap()]);
    senat(&["view", sample, "--annotate", "ab:depth=3", "--out", one.to_str().unwrap()]);
    assert_eq!(eval_data(&one), eval_data(&two));
    assert!(std::fs::read_to_string(&one).unwrap().contains("senat viewer: sample-game.txt, annotated by ab:depth=3"));
    // Game 0 of a Focus batch, by its index.
    let (_, moves) = batch(&d, "focus", "1", &["--first", "greedy", "--variant", "cap=40"]);
    let m = moves.to_str().unwrap();
    let (frec, ftwo, fone) = (d.join("f.txt"), d.join("ftwo.html"), d.join("fone.html"));
    senat(&["annotate", m, "--index", "0", "--agent", "ab:depth=2", "--out", frec.to_str().unwrap()]);
    senat(&["view", "--game", "focus", frec.to_str().unwrap(), "--out", ftwo.to_str().unwrap()]);
    senat(&["view", m, "--index", "0", "--annotate", "ab:depth=2", "--out", fone.to_str().unwrap()]);
    assert_eq!(eval_data(&fone), eval_data(&ftwo));
    let page = std::fs::read_to_string(&fone).unwrap();
    assert!(page.contains("game 0, annotated by ab:depth=2") && page.contains("first: greedy · second: random"));
    let left: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("annotating"))
        .collect();
    assert!(left.is_empty(), "no record left behind: {left:?}");
    let e = crate::support::cli::fails(&[
        "view",
        sample,
        "--annotate",
        "random",
        "--out",
        d.join("r.html").to_str().unwrap(),
    ]);
    assert!(e.contains("gives no evaluation to annotate with"), "{e}");
}

/// The opening explorer's page (`senat explore`) of a Sénat batch and of a
/// Focus arena (two pairings) fits 400 and 1,280 px; a click on its most
/// played first move walks down the tree (the path grows, the games there
/// are the move's), and the agents' filter keeps one pairing's games.
#[test]
fn the_explorer_walks_its_tree_and_filters_by_agents() {
    let Some(browser) = browser() else { return };
    let d = dir("explorer");
    let bin = env!("CARGO_BIN_EXE_senat");
    let run = |args: &[&str]| {
        let o = Command::new(bin).current_dir(&d).args(args).output().unwrap();
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    run(&[
        "selfplay",
        "--games",
        "40",
        "--seed",
        "3",
        "--red",
        "random",
        "--blue",
        "greedy",
        "--out",
        "g.csv",
        "--summary",
        "",
        "--quiet",
        "--force",
    ]);
    run(&[
        "arena",
        "--game",
        "focus",
        "random",
        "greedy",
        "--games",
        "20",
        "--moves",
        "am.csv",
        "--out",
        "at.csv",
        "--summary",
        "as.csv",
        "-q",
        "--force",
    ]);
    let said =
        run(&["explore", "g.csv", "--out", "senat.html", "--csv", "senat.csv", "--depth", "6", "--force", "--quiet"]);
    assert!(said.starts_with("40 games of senat read and replayed"), "{said}");
    run(&["explore", "am.csv", "--out", "focus.html", "--depth", "4", "--force", "--quiet"]);
    // The CSV's first moves over all games.
    let csv = std::fs::read_to_string(d.join("senat.csv")).unwrap();
    let firsts: Vec<Vec<&str>> =
        csv.lines().filter(|l| l.starts_with("all,1,,")).map(|l| l.split(',').collect()).collect();
    let most: u64 = firsts.iter().map(|r| r[4].parse::<u64>().unwrap()).max().unwrap();
    let mut frames = String::new();
    for page in ["senat", "focus"] {
        for w in [400, 1280] {
            let src = d.join(format!("{page}.html")).canonicalize().unwrap();
            frames.push_str(&format!(
                "<iframe id=\"{page}-{w}\" src=\"file://{}\" width=\"{w}\" height=\"800\"></iframe>\n",
                src.display()
            ));
        }
    }
    let host = format!(
        r#"<!DOCTYPE html><html><body>{frames}<script>
window.addEventListener('load', function () {{
{WIDTHS}  var s = document.getElementById('senat-400').contentDocument;
  var before = s.getElementById('here').textContent;
  var top = s.querySelector('#next tbody tr');
  var cells = [].map.call(top.querySelectorAll('td'), function (c) {{ return c.textContent; }});
  top.querySelector('button').click();
  var path = s.querySelectorAll('#path button').length;
  document.body.setAttribute('data-walk', [before, cells.join('|'), path, s.getElementById('here').textContent].join(' / '));
  var f = document.getElementById('focus-1280').contentDocument;
  var all = f.getElementById('here').textContent;
  var sel = f.getElementById('filter');
  sel.value = '0';
  sel.dispatchEvent(new Event('change'));
  document.body.setAttribute('data-filter', [sel.options.length, all, f.getElementById('here').textContent].join(' / '));
}});
</script></body></html>"#
    );
    let host_path = d.join("host.html");
    std::fs::write(&host_path, host).unwrap();
    let url = format!("file://{}", host_path.canonicalize().unwrap().display());
    let out = chromium(&browser, &d.join("profile"), &["--allow-file-access-from-files", "--dump-dom"], &url);
    let dom = String::from_utf8(out).unwrap();
    for entry in body_attribute(&dom, "data-widths").split(' ') {
        let (id, rest) = entry.split_once('=').unwrap();
        let (width, ready) = rest.split_once(':').unwrap_or_else(|| panic!("{entry}"));
        let max: u32 = id.rsplit('-').next().unwrap().parse().unwrap();
        assert_eq!(ready, "yes", "{id}: the script ran");
        assert!(width.parse::<u32>().unwrap() <= max, "{id}: {width} px wide");
    }
    let walk = body_attribute(&dom, "data-walk");
    let parts: Vec<&str> = walk.split(" / ").collect();
    assert!(parts[0].starts_with("40 games here; blue scores "), "{walk}");
    // The page's first row is a most played first move, with the CSV's games.
    let cells: Vec<&str> = parts[1].split('|').collect();
    let row = firsts.iter().find(|r| r[3] == cells[0]).unwrap_or_else(|| panic!("{walk} / {csv}"));
    assert_eq!((row[4], cells[1].parse::<u64>().unwrap()), (cells[1], most), "{walk} / {csv}");
    assert_eq!(parts[2], "2", "start and the move: {walk}");
    assert!(parts[3].starts_with(&format!("{most} games here")), "{walk}");
    let filter = body_attribute(&dom, "data-filter");
    let parts: Vec<&str> = filter.split(" / ").collect();
    assert_eq!(parts[0], "3", "all agents and the two pairings: {filter}");
    assert!(parts[1].starts_with("20 games here") && parts[2].starts_with("10 games here"), "{filter}");
}
