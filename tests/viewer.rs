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

mod support {
    pub mod cli;
    pub mod files;
    pub mod games;
}
use support::cli::ok as senat;
use support::games::sample_game;

fn dir(name: &str) -> PathBuf {
    support::files::scratch("viewer", name)
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
    for ply in [0, 10, last] {
        let dom = dom(browser, profile, page, ply);
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
