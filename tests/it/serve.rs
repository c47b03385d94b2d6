//! `senat serve`, the local analysis board: the server started on a free
//! port (`--port 0`, its address on stdout's first line) and asked over
//! HTTP (a plain client over a TCP stream): the page with its
//! Content-Security-Policy, a line's position and legal moves, a move
//! played, an analysis with candidates and its interval, an agent's reply,
//! a batch game opened by index, and the refusals (a path outside the
//! page's, a file index outside the listing, a bad position, an agent over
//! the caps, a foreign Host, a body that is not JSON, a search beyond
//! `--max-analyses`).
//!
//! Then the page in a real headless browser (Debian's `chromium`, driven
//! over the DevTools protocol through `--remote-debugging-pipe`: no driver
//! to install), for every game at 400 and 1,280 px wide: it loads a line,
//! steps back and forth, analyses (the candidates and the best move's
//! picture come back), plays a legal move by clicking it, and nothing is
//! wider than the window. `SENAT_BLESS_SHOTS=1` writes the screenshots to
//! results/serve/. Without a browser the browser test fails unless
//! `SENAT_SKIP_BROWSER=1` (as tests/it/viewer.rs).

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::cli::{bin, ok as senat};

/// A running `senat serve`, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(dir: &Path, extra: &[&str]) -> Server {
        let mut child = bin()
            .args(["serve", "--port", "0", "--dir", dir.to_str().unwrap()])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("senat serve starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).expect("a first line");
        let addr = first
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        Server { child, addr }
    }

    /// One request: (status, headers in lower case, body).
    fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, String, String) {
        let mut s = TcpStream::connect(&self.addr).expect("the server accepts");
        let mut rq = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
        if !headers.iter().any(|(k, _)| *k == "Host") {
            rq.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for (k, v) in headers {
            rq.push_str(&format!("{k}: {v}\r\n"));
        }
        rq.push_str("\r\n");
        rq.push_str(body);
        s.write_all(rq.as_bytes()).unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap();
        let text = String::from_utf8(out).expect("UTF-8 answer");
        let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
        let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).expect("a status");
        (status, head.to_ascii_lowercase(), body.to_string())
    }

    fn get(&self, path: &str) -> (u16, String, String) {
        self.request("GET", path, &[], "")
    }

    /// A JSON POST: (status, the JSON answer).
    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, _, text) = self.request("POST", path, &[("Content-Type", "application/json")], &body.to_string());
        (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text}")))
    }

    /// A POST that must succeed.
    fn ok(&self, path: &str, body: &Value) -> Value {
        let (status, v) = self.post(path, body);
        assert_eq!(status, 200, "{path} {body}: {v}");
        v
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The message of an error answer, checked to have the one error shape.
fn error(status: u16, v: &Value, want: u16) -> String {
    assert_eq!(status, want, "{v}");
    assert_eq!(v["error"]["status"], json!(want), "{v}");
    assert!(v["error"]["kind"].is_string(), "{v}");
    v["error"]["message"].as_str().expect("a message").to_string()
}

#[test]
fn the_page_the_api_and_its_refusals() {
    let dir = crate::support::files::scratch("serve", "api");
    let moves = dir.join("c4-moves.csv");
    senat(&[
        "selfplay",
        "--game",
        "connect4",
        "--games",
        "2",
        "--out",
        dir.join("c4.csv").to_str().unwrap(),
        "--moves",
        moves.to_str().unwrap(),
        "--summary",
        "",
        "--quiet",
    ]);
    std::fs::write(dir.join("c4-record.txt"), "# a record\nstart\n4\n3 # a reply\n").unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/rules/data/sample-game.txt"),
        dir.join("sample.txt"),
    )
    .unwrap();
    std::os::unix::fs::symlink("/etc/hostname", dir.join("outside.txt")).unwrap();
    let s = Server::start(&dir, &["--max-playouts", "300"]);

    // The page, its script and style, each with the policy.
    let (status, head, page) = s.get("/");
    assert_eq!(status, 200);
    assert!(head.contains("content-security-policy: default-src 'none'; script-src 'self'"), "{head}");
    assert!(head.contains("x-content-type-options: nosniff") && head.contains("text/html"), "{head}");
    assert!(page.contains("<script src=\"/serve.js\"></script>") && !page.contains("<script>"));
    let (status, head, script) = s.get("/serve.js");
    assert!(status == 200 && head.contains("text/javascript") && script.contains("/api/analyse"), "{head}");
    assert_eq!(s.get("/serve.css").0, 200);

    // The catalog: every game, the folder's files (the batch names its game).
    let (_, _, cat) = s.get("/api/catalog");
    let cat: Value = serde_json::from_str(&cat).unwrap();
    assert_eq!(cat["games"].as_array().unwrap().len(), 6, "{cat}");
    let files = cat["files"].as_array().unwrap();
    let i = files.iter().position(|f| f["name"] == "c4-moves.csv").expect("the moves file listed");
    assert_eq!(files[i]["game"], "connect4");
    assert_eq!(cat["max_playouts"], 300);
    let names: Vec<&str> = files.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert!(!names.contains(&"outside.txt"), "a symbolic link is not listed: {names:?}");
    let index_of = |name: &str| names.iter().position(|n| *n == name).unwrap();

    // A line: its position, legal moves, labels; a move played on it.
    let st = s.ok("/api/state", &json!({ "game": "connect4", "moves": ["4"] }));
    assert_eq!(st["legal"].as_array().unwrap().len(), 7, "{st}");
    assert_eq!(st["labels"], json!(["1. first 4"]));
    assert!(st["svg"].as_str().unwrap().starts_with("<svg"));
    let st = s.ok("/api/state", &json!({ "game": "connect4", "moves": ["4", "3"] }));
    assert_eq!((st["position"].as_str(), st["at"].as_u64()), (Some("43"), Some(2)));
    assert!(st["record"].as_str().unwrap().ends_with("start\n4\n3\n"), "{st}");
    let back = s.ok("/api/state", &json!({ "game": "connect4", "moves": ["4", "3"], "at": 1 }));
    assert_eq!(back["position"], "4");

    // An analysis: candidates with visits, the best among them and legal,
    // the win probability inside its interval; the budget cut to the cap.
    let a = s.ok("/api/analyse", &json!({ "game": "senat", "playouts": 1_000_000_000u64 }));
    assert_eq!(a["playouts"], 300, "cut to --max-playouts");
    let cands = a["candidates"].as_array().unwrap();
    assert!(!cands.is_empty() && cands.iter().map(|c| c["visits"].as_u64().unwrap()).sum::<u64>() > 0, "{a}");
    assert_eq!(cands[0]["move"], a["best"], "the most visited first: {a}");
    let (lo, w, hi) = (a["lo"].as_f64().unwrap(), a["win"].as_f64().unwrap(), a["hi"].as_f64().unwrap());
    assert!(lo <= w && w <= hi && hi - lo < 0.5, "{lo} {w} {hi}");
    assert!(a["svg"].as_str().unwrap().contains("best: "), "the best move drawn");
    let start = s.ok("/api/state", &json!({ "game": "senat" }));
    assert!(start["legal"].as_array().unwrap().contains(&a["best"]));

    // An agent's reply, and chance's at a dominoes deal.
    let r = s.ok("/api/reply", &json!({ "game": "connect4", "moves": ["4"], "agent": "random", "seed": 3 }));
    assert!(st["legal"].as_array().unwrap().contains(&r["move"]), "{r}");
    let d = s.ok("/api/reply", &json!({ "game": "dominoes", "agent": "random" }));
    assert_eq!(d["agent"], "chance", "{d}");

    // A batch game opened by its file's index, replayed as a line.
    let g = s.ok("/api/open", &json!({ "file": i, "index": 1 }));
    assert_eq!(g["game"], "connect4");
    let n = g["moves"].as_array().unwrap().len();
    assert!(n >= 7, "{g}");
    let st = s.ok("/api/state", &json!({ "game": "connect4", "moves": g["moves"], "at": 0 }));
    assert_eq!(st["labels"].as_array().unwrap().len(), n);

    // Records: another game's (its game chosen), Sénat's (by the rules' reader).
    let r = s.ok("/api/open", &json!({ "file": index_of("c4-record.txt"), "game": "connect4" }));
    assert_eq!((r["start"].as_str(), r["moves"].clone()), (Some("start"), json!(["4", "3"])));
    let r = s.ok("/api/open", &json!({ "file": index_of("sample.txt"), "game": "senat" }));
    assert!(r["moves"].as_array().unwrap().len() > 10, "{r}");
    s.ok("/api/state", &json!({ "game": "senat", "start": r["start"], "moves": r["moves"] }));
    let (status, v) = s.post("/api/open", &json!({ "file": index_of("sample.txt"), "game": "connect4" }));
    error(status, &v, 400);

    // Refusals, each in the one error shape.
    for path in ["/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/api/..%2fc4.csv"] {
        let (status, _, body) = s.get(path);
        assert!(status == 403 || status == 404, "{path}: {status}");
        error(status, &serde_json::from_str(&body).unwrap(), status);
    }
    let (status, v) = s.post("/api/open", &json!({ "file": 99 }));
    assert!(error(status, &v, 404).contains("no file 99"));
    let (status, v) = s.post("/api/open", &json!({ "file": "../../etc/passwd" }));
    error(status, &v, 400);
    let (status, v) = s.post("/api/state", &json!({ "game": "senat", "start": "no such position" }));
    assert!(error(status, &v, 400).starts_with("position `no such position`"), "{v}");
    let (status, v) = s.post("/api/state", &json!({ "game": "connect4", "moves": ["4", "x"] }));
    assert!(error(status, &v, 400).starts_with("move 2 `x`"), "{v}");
    let (status, v) = s.post("/api/reply", &json!({ "game": "connect4", "agent": "mcts:playouts=5000" }));
    assert!(error(status, &v, 400).contains("cap"), "{v}");
    let (status, v) = s.post("/api/reply", &json!({ "game": "senat", "agent": "learned:file=../x.txt" }));
    assert!(error(status, &v, 400).contains("no file"), "{v}");
    let (status, v) = s.post("/api/state", &json!({ "game": "chess" }));
    error(status, &v, 400);
    let (status, _, body) = s.request("POST", "/api/state", &[("Content-Type", "text/plain")], "{}");
    error(status, &serde_json::from_str(&body).unwrap(), 415);
    let (status, _, body) = s.request("GET", "/", &[("Host", "evil.example:80")], "");
    error(status, &serde_json::from_str(&body).unwrap(), 403);
    let (status, _, _) = s.request("POST", "/api/state", &[("Content-Type", "application/json")], "{not json");
    assert_eq!(status, 400);
    let (status, _, body) = s.get("/api/state");
    error(status, &serde_json::from_str(&body).unwrap(), 405);
}

#[test]
fn searches_beyond_the_limit_are_refused_at_once() {
    let dir = crate::support::files::scratch("serve", "busy");
    let s = Server::start(&dir, &["--max-analyses", "1", "--max-playouts", "100000"]);
    let slow = json!({ "game": "senat", "playouts": 10_000 });
    std::thread::scope(|scope| {
        let first = scope.spawn(|| s.post("/api/analyse", &slow));
        std::thread::sleep(Duration::from_millis(100));
        let t = Instant::now();
        let (status, v) = s.post("/api/analyse", &json!({ "game": "senat", "playouts": 10 }));
        assert!(error(status, &v, 503).contains("--max-analyses"), "{v}");
        let (status, v) = s.post("/api/reply", &json!({ "game": "senat", "agent": "mcts:playouts=10" }));
        error(status, &v, 503);
        assert!(t.elapsed() < Duration::from_millis(500), "refused at once");
        // A page and a position are no search: still answered.
        assert_eq!(s.post("/api/state", &json!({ "game": "senat" })).0, 200);
        assert_eq!(first.join().unwrap().0, 200);
    });
    assert_eq!(s.post("/api/analyse", &json!({ "game": "senat", "playouts": 10 })).0, 200, "the slot given back");
}

// ---- the page in a browser ----------------------------------------------------

/// The browser, or `None` when told to skip it.
fn browser() -> Option<String> {
    let name = std::env::var("SENAT_CHROMIUM").unwrap_or_else(|_| "chromium".to_string());
    if Command::new(&name).arg("--version").output().is_ok_and(|o| o.status.success()) {
        return Some(name);
    }
    if std::env::var("SENAT_SKIP_BROWSER").is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED: no browser `{name}` (SENAT_SKIP_BROWSER=1): the server page was not tested in a browser");
        return None;
    }
    panic!("no browser `{name}`: install Debian's chromium or set SENAT_SKIP_BROWSER=1");
}

/// A headless chromium driven over the DevTools protocol on a pipe (its
/// fds 3 and 4 are our stdin and stdout pipes; messages end in NUL).
struct Devtools {
    child: Child,
    to: std::process::ChildStdin,
    from: BufReader<std::process::ChildStdout>,
    id: u64,
    session: String,
}

impl Devtools {
    fn launch(browser: &str, profile: &Path) -> Devtools {
        let script = "exec \"$0\" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
--force-device-scale-factor=1 --remote-debugging-pipe --user-data-dir=\"$1\" about:blank \
3<&0 4>&1 0</dev/null 1>/dev/null 2>/dev/null";
        let mut child = Command::new("sh")
            .args(["-c", script, browser, profile.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        let to = child.stdin.take().unwrap();
        let from = BufReader::new(child.stdout.take().unwrap());
        let mut d = Devtools { child, to, from, id: 0, session: String::new() };
        let target = d.call(false, "Target.createTarget", json!({ "url": "about:blank" }));
        let id = target["targetId"].clone();
        let attached = d.call(false, "Target.attachToTarget", json!({ "targetId": id, "flatten": true }));
        d.session = attached["sessionId"].as_str().unwrap().to_string();
        d
    }

    /// Sends a command (to the page's session if `page`) and waits for its result.
    fn call(&mut self, page: bool, method: &str, params: Value) -> Value {
        self.id += 1;
        let mut msg = json!({ "id": self.id, "method": method, "params": params });
        if page {
            msg["sessionId"] = json!(self.session);
        }
        let mut bytes = msg.to_string().into_bytes();
        bytes.push(0);
        self.to.write_all(&bytes).expect("write to chromium");
        self.to.flush().unwrap();
        loop {
            let mut buf = Vec::new();
            self.from.read_until(0, &mut buf).expect("read from chromium");
            assert!(!buf.is_empty(), "chromium closed its pipe");
            buf.pop();
            let v: Value = serde_json::from_slice(&buf).expect("a JSON message");
            if v["id"] == json!(self.id) {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    /// Evaluates `js` in the page and returns its value.
    fn eval(&mut self, js: &str) -> Value {
        let r = self.call(true, "Runtime.evaluate", json!({ "expression": js, "returnByValue": true }));
        assert!(r.get("exceptionDetails").is_none(), "{js}: {r}");
        r["result"]["value"].clone()
    }

    /// Waits until `js` is true (at most 20 s).
    fn wait(&mut self, js: &str, what: &str) {
        let t = Instant::now();
        while self.eval(js) != json!(true) {
            let error = self.eval("(document.getElementById('error')||{}).textContent||''");
            assert!(t.elapsed() < Duration::from_secs(20), "{what}: timed out (page error: {error})");
            std::thread::sleep(Duration::from_millis(15));
        }
    }

    /// A left click of the mouse at the point (x, y) of the board's
    /// picture, in its own pixels, wherever the page has scaled it.
    fn click_board(&mut self, (x, y): (i64, i64)) {
        let at = self.eval(&format!(
            "(function () {{ var s = document.querySelector('#board svg'); s.scrollIntoView({{ block: 'nearest' }}); \
             var m = s.getScreenCTM(); return [m.a * {x} + m.c * {y} + m.e, m.b * {x} + m.d * {y} + m.f]; }})()"
        ));
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                true,
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": at[0], "y": at[1], "button": "left", "clickCount": 1 }),
            );
        }
    }

    fn screenshot(&mut self) -> Vec<u8> {
        let r = self.call(true, "Page.captureScreenshot", json!({ "format": "png" }));
        base64_decode(r["data"].as_str().unwrap())
    }
}

impl Drop for Devtools {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = text.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(val(c)) << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// A line of `game` of at least 4 plies played by random agents (chance
/// drawn by the server), ending where a player decides and, if one comes
/// within 80 plies, where a move takes two clicks on the board (Sénat's
/// play after its 46-ply draft); else at the first decision after 4 plies.
fn a_line(s: &Server, game: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    let mut first = None;
    for seed in 1..=80u64 {
        let st = s.ok("/api/state", &json!({ "game": game, "moves": moves }));
        if st["over"].as_bool().unwrap() {
            break;
        }
        if moves.len() >= 4 && !st["chance"].as_bool().unwrap() {
            first.get_or_insert_with(|| moves.clone());
            if a_clickable_move(s, game, &moves).is_some_and(|(_, points)| points.len() >= 2) {
                return moves;
            }
        }
        let r = s.ok("/api/reply", &json!({ "game": game, "moves": moves, "agent": "random", "seed": seed }));
        moves.push(r["move"].as_str().unwrap().to_string());
    }
    first.expect("a decision after 4 plies")
}

/// A legal move of the position after `moves` that clicks on the board
/// name alone and after which a player decides, with the points clicked (its regions' centres, in the
/// picture's pixels): the page's rule, a click keeps the moves whose next
/// region holds it, and one left is played. The move with the most clicks
/// among them, so that a pick in two steps is tried where a game has one.
fn a_clickable_move(s: &Server, game: &str, moves: &[String]) -> Option<(String, Vec<(i64, i64)>)> {
    let st = s.ok("/api/state", &json!({ "game": game, "moves": moves }));
    let legal: Vec<&str> = st["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    let regions: Vec<Vec<[i64; 4]>> = st["regions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rs| rs.as_array().unwrap().iter().map(|r| serde_json::from_value(r.clone()).unwrap()).collect())
        .collect();
    assert_eq!(legal.len(), regions.len(), "{game}: a region list per legal move");
    let inside = |r: &[i64; 4], p: (i64, i64)| p.0 >= r[0] && p.0 <= r[0] + r[2] && p.1 >= r[1] && p.1 <= r[1] + r[3];
    let mut best: Option<(String, Vec<(i64, i64)>)> = None;
    for (i, rs) in regions.iter().enumerate() {
        let mut points = Vec::new();
        for r in rs {
            points.push((r[0] + r[2] / 2, r[1] + r[3] / 2));
            let found: Vec<usize> = (0..legal.len())
                .filter(|&j| {
                    regions[j].len() >= points.len() && points.iter().zip(&regions[j]).all(|(&p, r)| inside(r, p))
                })
                .collect();
            assert!(found.contains(&i), "{game}: {} is not under its own clicks", legal[i]);
            if found.len() == 1 {
                let line: Vec<&str> = moves.iter().map(String::as_str).chain([legal[i]]).collect();
                let after = s.ok("/api/state", &json!({ "game": game, "moves": line }));
                let decides = !after["over"].as_bool().unwrap() && !after["chance"].as_bool().unwrap();
                if decides && best.as_ref().is_none_or(|(_, b)| b.len() < points.len()) {
                    best = Some((legal[i].to_string(), points.clone()));
                }
                break;
            }
        }
    }
    best
}

fn url_encode(t: &str) -> String {
    t.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

#[test]
fn every_games_page_steps_analyses_and_plays_at_400_and_1280_px() {
    let Some(browser) = browser() else { return };
    let dir = crate::support::files::scratch("serve", "browser");
    let s = Server::start(&dir, &["--max-playouts", "2000"]);
    let mut d = Devtools::launch(&browser, &dir.join("profile"));
    let bless = std::env::var("SENAT_BLESS_SHOTS").is_ok_and(|v| v == "1");
    let shots = if bless { PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("results/serve") } else { dir.clone() };
    std::fs::create_dir_all(&shots).unwrap();
    for game in ["senat", "focus", "focus4", "debacle", "dominoes", "connect4"] {
        let moves = a_line(&s, game);
        let (clicked, points) = a_clickable_move(&s, game, &moves).expect("a move the board's clicks name");
        let n = moves.len() + 1;
        let hash = format!("#game={game}&moves={}&ply={n}", url_encode(&moves.join("\n")));
        for width in [400u32, 1280] {
            let what = format!("{game} at {width} px");
            d.call(
                true,
                "Emulation.setDeviceMetricsOverride",
                json!({ "width": width, "height": 800, "deviceScaleFactor": 1, "mobile": false }),
            );
            d.call(true, "Page.navigate", json!({ "url": format!("http://{}/?w={width}{hash}", s.addr) }));
            d.wait("document.body !== null && document.body.getAttribute('data-loads') === '1'", &what);
            assert_eq!(d.eval("document.getElementById('ply').textContent"), json!(format!("ply {0} / {0}", n - 1)));
            // A move played by clicking on the board: each click but the last
            // outlines where the piece may go and leaves those moves to choose.
            for (k, &p) in points.iter().enumerate() {
                d.click_board(p);
                if k + 1 < points.len() {
                    d.wait(&format!("document.body.getAttribute('data-picked') === '{}'", k + 1), &what);
                    let outlined = d.eval("document.querySelectorAll('#board svg rect.pick').length").as_u64().unwrap();
                    let left = d.eval("document.querySelectorAll('#legal.picking button.candidate').length");
                    assert!(outlined >= 2 && left.as_u64().unwrap() >= 2, "{what}: {outlined} outlined, {left} left");
                    if k == 0 && width == 1280 {
                        std::fs::write(shots.join(format!("{game}-pick.png")), d.screenshot()).unwrap();
                    }
                }
            }
            d.wait("document.body.getAttribute('data-loads') === '2'", &what);
            let last = d.eval("document.querySelector('#moves li:last-child button').textContent");
            assert!(
                last.as_str().unwrap().ends_with(&format!(" {clicked}")),
                "{what}: clicked {clicked}, played {last}"
            );
            assert_eq!(d.eval("document.getElementById('ply').textContent"), json!(format!("ply {n} / {n}")), "{what}");
            // Step back and forth.
            d.eval("document.getElementById('prev').click()");
            d.wait("document.body.getAttribute('data-loads') === '3'", &what);
            assert_eq!(d.eval("document.getElementById('ply').textContent"), json!(format!("ply {} / {n}", n - 1)));
            d.eval("document.getElementById('next').click()");
            d.wait("document.body.getAttribute('data-loads') === '4'", &what);
            // An analysis: candidates, the best move outlined among the legal moves.
            d.eval("document.getElementById('playouts').value = '200'; document.getElementById('analyse').click()");
            d.wait("document.body.getAttribute('data-analyses') === '1'", &what);
            let rows = d.eval("document.querySelectorAll('#candidates tbody tr').length").as_u64().unwrap();
            assert!(rows >= 1, "{what}: no candidates");
            assert_eq!(d.eval("document.querySelectorAll('#legal button.best').length"), json!(1), "{what}");
            assert!(d.eval("document.getElementById('eval-text').textContent").as_str().unwrap().starts_with("best "));
            assert!(d.eval("document.getElementById('board').innerHTML.indexOf('best: ') >= 0") == json!(true));
            let fits = "document.documentElement.scrollWidth <= window.innerWidth";
            assert_eq!(d.eval(fits), json!(true), "{what}: wider than the window");
            std::fs::write(shots.join(format!("{game}-{width}.png")), d.screenshot()).unwrap();
            // A legal move pointed at is shown played on the board, then the board comes back.
            d.eval("document.querySelector('#legal button').focus()");
            let first = d.eval("document.querySelector('#legal button').textContent");
            d.wait(&format!("document.body.getAttribute('data-preview') === {first}"), &what);
            assert!(
                d.eval(&format!("document.getElementById('board').innerHTML.indexOf('ply {}. ') >= 0", n + 1))
                    == json!(true)
            );
            d.eval("document.querySelector('#legal button').blur()");
            assert!(d.eval("document.getElementById('board').innerHTML.indexOf('best: ') >= 0") == json!(true));
            // Play a legal move by clicking it: the line grows by one.
            d.eval("document.querySelector('#legal button').click()");
            d.wait("document.body.getAttribute('data-loads') === '5'", &what);
            assert_eq!(d.eval("document.querySelectorAll('#moves li').length"), json!(n + 1), "{what}");
            assert_eq!(d.eval(fits), json!(true), "{what}: wider than the window after a move");
        }
    }
}
