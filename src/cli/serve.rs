//! `senat serve`: the local analysis board, one page for every game of the
//! catalog, over HTTP on the loopback interface.
//!
//! The HTTP server is `tiny_http`: synchronous, four small crates in all
//! (tiny_http, ascii, chunked_transfer, httpdate), no async runtime, which
//! fits a command-line tool that answers one person's browser and keeps
//! CI's build time (axum or hyper would bring tokio and some forty crates
//! for nothing this page needs). JSON is `serde_json`'s `Value` (already
//! in the lock file through criterion; no derive).
//!
//! The server keeps no game: every request carries the line (game,
//! variant, start, moves, the ply shown) and the server replays it through
//! the catalog ([`senat_lab::catalog::Position`]: the rules crates'
//! parsers read every position and move). Game behaviour comes only from
//! the catalog (positions, pictures, agents, the analysis agent's spec);
//! this module names no game. The page, its script and its style are
//! `senat_lab::viewer::serve`'s.
//!
//! What this module must never do: serve or read a path that the client
//! names (files are chosen by their index in the listing of the served
//! folder, made here: regular files only, no symbolic link, each
//! canonicalised under the folder), load an agent's file (`file=` is
//! refused), run more than `--max-analyses` searches at once (more get
//! 503), let a request's search exceed its cap (`--max-playouts` for an
//! analysis; an agent's playouts, depth, time and threads are checked
//! before it is built), panic on a request, or answer without its
//! Content-Security-Policy.

use crate::cli::common::{Failure, Result, input};
use clap::Args;
use senat_lab::catalog::{self, Agent, CatalogError, Position};
use senat_lab::games::GameKind;
use senat_lab::policy::rng_from_seed;
use senat_lab::viewer::serve as page;
use serde_json::{Value, json};
use std::fmt;
use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Arguments of `senat serve`.
#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    /// The folder whose batch files and records the page can open (by
    /// their index in its listing: files ending in .csv or .txt, three
    /// folders deep at most, no symbolic link, no hidden file).
    #[arg(long, value_name = "DIR", default_value = ".")]
    dir: PathBuf,
    /// The port to listen on; 0 picks a free one (the address is printed
    /// on the first line of stdout).
    #[arg(long, value_name = "N", default_value_t = 8760)]
    port: u16,
    /// The address to listen on. Anything but a loopback address (127.0.0.1,
    /// ::1) lets other machines use the engine: a warning says so.
    #[arg(long, value_name = "IP", default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The most playouts an analysis may ask for (larger requests are cut
    /// to it), and the most playouts or worlds of an agent asked to reply.
    #[arg(long, value_name = "N", default_value_t = 20_000,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_playouts: u64,
    /// The playouts of an analysis that asks for none (default: 1,000, or
    /// --max-playouts if less).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    playouts: Option<u64>,
    /// The most searches (analyses and agents' replies) run at once; a
    /// request beyond them is answered 503 at once.
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u64).range(1..=64))]
    max_analyses: u64,
}

/// The help after the options.
pub(crate) const SERVE_HELP: &str = "\
Examples:
  senat serve                          # http://127.0.0.1:8760/, the current folder's batch files
  senat serve --dir runs --port 0      # a free port: the first line of stdout names it
Open the address in a browser. The page opens a game of a batch file (its index, the `game` column)
or a record of the served folder, a position, or a new game of any game; steps through it; plays
moves (click a legal move or the board, or type one), takes back, asks an agent to reply (any spec or named
agent: `strong`, `top`, `mcts:playouts=500`); analyses the shown position (MCTS at the playouts
asked, at most --max-playouts: the candidate moves with their visits and values, the mover's win
probability with a 95 % interval, the principal line, the best move drawn on the board); and
downloads the line as a record (`senat replay` reads it).
Security: the loopback interface unless --bind; files only by index, inside --dir; every position
and move read by the rules' parsers; bounded searches, --max-analyses at once (503 beyond);
a Content-Security-Policy that allows the page's own script and style only. Stop it with Ctrl-C.
The API (JSON, POST with Content-Type application/json): docs/commands/serve.md.";

/// The most bytes of a request body.
const MAX_BODY: u64 = 1 << 20;
/// The most moves of a line.
const MAX_MOVES: usize = 5_000;
/// The most bytes of a text field (a position, a variant, an agent spec).
const MAX_TEXT: usize = 4_096;
/// The most files listed.
const MAX_FILES: usize = 1_000;
/// The deepest folder listed below the served one.
const MAX_DEPTH: usize = 3;
/// The candidates shown of an analysis.
const MAX_CANDIDATES: usize = 12;
/// Threads answering requests (a search holds one).
const THREADS: usize = 8;

/// Why a request was refused: its status and message, the one JSON error
/// shape `{"error": {"status": N, "kind": K, "message": M}}`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum ServeError {
    /// 400: a field, position, move or agent that does not read.
    BadRequest(String),
    /// 403: a path outside the page's, or a foreign Host.
    Forbidden(String),
    /// 404: no such page or file.
    NotFound(String),
    /// 405: a path known, another method.
    Method(&'static str),
    /// 413: a body over [`MAX_BODY`].
    TooLarge,
    /// 415: a POST that is not JSON.
    NotJson,
    /// 503: every search slot taken.
    Busy(u64),
}

impl ServeError {
    fn status(&self) -> u16 {
        match self {
            ServeError::BadRequest(_) => 400,
            ServeError::Forbidden(_) => 403,
            ServeError::NotFound(_) => 404,
            ServeError::Method(_) => 405,
            ServeError::TooLarge => 413,
            ServeError::NotJson => 415,
            ServeError::Busy(_) => 503,
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            ServeError::BadRequest(_) => "bad_request",
            ServeError::Forbidden(_) => "forbidden",
            ServeError::NotFound(_) => "not_found",
            ServeError::Method(_) => "method_not_allowed",
            ServeError::TooLarge => "too_large",
            ServeError::NotJson => "not_json",
            ServeError::Busy(_) => "busy",
        }
    }

    fn body(&self) -> Vec<u8> {
        let e = json!({ "error": { "status": self.status(), "kind": self.kind(), "message": self.to_string() } });
        e.to_string().into_bytes()
    }
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::BadRequest(m) | ServeError::Forbidden(m) | ServeError::NotFound(m) => f.write_str(m),
            ServeError::Method(allowed) => write!(f, "this path takes {allowed} only"),
            ServeError::TooLarge => write!(f, "the request body is over {MAX_BODY} bytes"),
            ServeError::NotJson => f.write_str("a POST body must be JSON (Content-Type: application/json)"),
            ServeError::Busy(n) => {
                write!(f, "the server runs {n} searches already (--max-analyses): try again when one ends")
            }
        }
    }
}

impl From<CatalogError> for ServeError {
    fn from(e: CatalogError) -> ServeError {
        ServeError::BadRequest(e.to_string())
    }
}

type Answer = std::result::Result<(&'static str, Vec<u8>), ServeError>;

/// The search slots: at most `max` held at once.
struct Slots {
    held: AtomicUsize,
    max: u64,
}

/// A held slot, given back when dropped.
struct Slot<'a>(&'a AtomicUsize);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Slots {
    fn take(&self) -> std::result::Result<Slot<'_>, ServeError> {
        let before = self.held.fetch_add(1, Ordering::SeqCst);
        let slot = Slot(&self.held);
        if before as u64 >= self.max {
            return Err(ServeError::Busy(self.max));
        }
        Ok(slot)
    }
}

/// What every request handler sees.
struct Served {
    root: PathBuf,
    loopback: bool,
    max_playouts: u64,
    playouts: u64,
    slots: Slots,
}

/// A file of the served folder, as listed.
struct Listed {
    /// Its path below the folder, as shown.
    name: String,
    /// Its canonical path (under the folder).
    path: PathBuf,
    /// The game its identity line names (a batch file), if any.
    game: Option<GameKind>,
}

/// `senat serve`.
pub(crate) fn cmd_serve(a: ServeArgs, out: &mut impl Write) -> Result<()> {
    let root = a.dir.canonicalize().or_else(|e| input(format_args!("--dir {}: {e}", a.dir.display())))?;
    if !root.is_dir() {
        return input(format_args!("--dir {}: not a folder", a.dir.display()));
    }
    let playouts = a.playouts.unwrap_or(a.max_playouts.min(1_000));
    if playouts > a.max_playouts {
        return input(format_args!("--playouts {playouts} is over --max-playouts {}", a.max_playouts));
    }
    let loopback = a.bind.is_loopback();
    if !loopback {
        eprintln!(
            "warning: --bind {}: not a loopback address: any machine that reaches it can read the listed files' \
             games and run searches",
            a.bind
        );
    }
    let server = tiny_http::Server::http(SocketAddr::new(a.bind, a.port))
        .map_err(|e| Failure::Input(format!("cannot listen on {}:{}: {e}", a.bind, a.port)))?;
    let addr = server.server_addr().to_ip().map_or_else(|| "?".to_string(), |s| s.to_string());
    writeln!(out, "senat serve: http://{addr}/ (folder {}; Ctrl-C stops)", root.display())?;
    out.flush()?;
    let served = Arc::new(Served {
        root,
        loopback,
        max_playouts: a.max_playouts,
        playouts,
        slots: Slots { held: AtomicUsize::new(0), max: a.max_analyses },
    });
    let server = Arc::new(server);
    let workers: Vec<_> = (0..THREADS)
        .map(|_| {
            let (server, served) = (Arc::clone(&server), Arc::clone(&served));
            std::thread::spawn(move || {
                for rq in server.incoming_requests() {
                    respond(&served, rq);
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}

/// Answers one request, an error as the one JSON shape; every response
/// with the security headers.
fn respond(s: &Served, mut rq: tiny_http::Request) {
    let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| route(s, &mut rq))).unwrap_or_else(|_| {
        Err(ServeError::BadRequest("the request could not be answered (an internal error)".into()))
    });
    let (status, ctype, body, busy) = match answer {
        Ok((ctype, body)) => (200, ctype, body, false),
        Err(e) => (e.status(), "application/json; charset=utf-8", e.body(), matches!(e, ServeError::Busy(_))),
    };
    let mut r = tiny_http::Response::from_data(body).with_status_code(status);
    let headers: [(&str, &str); 7] = [
        ("Content-Type", ctype),
        ("Content-Security-Policy", page::CSP),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ];
    for (k, v) in headers {
        if let Ok(h) = tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            r.add_header(h);
        }
    }
    if busy && let Ok(h) = tiny_http::Header::from_bytes(&b"Retry-After"[..], &b"1"[..]) {
        r.add_header(h);
    }
    let _ = rq.respond(r);
}

/// The handler of a request's path.
fn route(s: &Served, rq: &mut tiny_http::Request) -> Answer {
    use tiny_http::Method::{Get, Post};
    let url = rq.url().to_string();
    if url.len() > 2048 {
        return Err(ServeError::BadRequest("the address is over 2048 bytes".into()));
    }
    let path = url.split(['?', '#']).next().unwrap_or("");
    let lower = path.to_ascii_lowercase();
    if path.contains("..")
        || lower.contains("%2e")
        || lower.contains("%2f")
        || lower.contains("%5c")
        || path.contains('\\')
    {
        return Err(ServeError::Forbidden(format!("no path outside the page's: {}", escape_text(path))));
    }
    if s.loopback && !host_is_local(rq) {
        return Err(ServeError::Forbidden(
            "the Host header names another machine (the server answers 127.0.0.1, localhost and [::1] only)".into(),
        ));
    }
    let method = rq.method().clone();
    match (path, &method) {
        ("/" | "/index.html", Get) => Ok(("text/html; charset=utf-8", page::page("senat serve").into_bytes())),
        (page::SCRIPT_PATH, Get) => Ok(("text/javascript; charset=utf-8", page::SCRIPT.as_bytes().to_vec())),
        (page::STYLE_PATH, Get) => Ok(("text/css; charset=utf-8", page::style(716, 500).into_bytes())),
        ("/api/catalog", Get) => Ok(json_answer(&catalog_json(s))),
        ("/api/state", Post) => state(&body(rq)?).map(|v| json_answer(&v)),
        ("/api/analyse", Post) => analyse(s, &body(rq)?).map(|v| json_answer(&v)),
        ("/api/reply", Post) => reply(s, &body(rq)?).map(|v| json_answer(&v)),
        ("/api/open", Post) => open(s, &body(rq)?).map(|v| json_answer(&v)),
        ("/" | "/index.html" | page::SCRIPT_PATH | page::STYLE_PATH | "/api/catalog", _) => {
            Err(ServeError::Method("GET"))
        }
        ("/api/state" | "/api/analyse" | "/api/reply" | "/api/open", _) => Err(ServeError::Method("POST")),
        _ => Err(ServeError::NotFound(format!("no page {}", escape_text(path)))),
    }
}

/// A text of the request shown in a message: at most 200 characters, its
/// control characters dropped (the page shows messages as text).
fn escape_text(t: &str) -> String {
    t.chars().filter(|c| !c.is_control()).take(200).collect()
}

/// Whether the Host header (if any) names this machine (against DNS
/// rebinding: a page of another site that resolves its name to 127.0.0.1).
fn host_is_local(rq: &tiny_http::Request) -> bool {
    let Some(h) = rq.headers().iter().find(|h| h.field.equiv("Host")) else { return true };
    let host = h.value.as_str();
    let name = if host.starts_with('[') {
        host.split(']').next().map(|n| format!("{n}]")).unwrap_or_default()
    } else {
        host.split(':').next().unwrap_or("").to_string()
    };
    matches!(name.to_ascii_lowercase().as_str(), "127.0.0.1" | "localhost" | "[::1]")
}

fn json_answer(v: &Value) -> (&'static str, Vec<u8>) {
    ("application/json; charset=utf-8", v.to_string().into_bytes())
}

/// The JSON body of a POST: at most [`MAX_BODY`] bytes, declared JSON.
fn body(rq: &mut tiny_http::Request) -> std::result::Result<Value, ServeError> {
    let json = rq.headers().iter().any(|h| {
        h.field.equiv("Content-Type") && h.value.as_str().trim().to_ascii_lowercase().starts_with("application/json")
    });
    if !json {
        return Err(ServeError::NotJson);
    }
    let mut bytes = Vec::new();
    rq.as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ServeError::BadRequest(format!("cannot read the body: {e}")))?;
    if bytes.len() as u64 > MAX_BODY {
        return Err(ServeError::TooLarge);
    }
    serde_json::from_slice(&bytes).map_err(|e| ServeError::BadRequest(format!("the body is not JSON: {e}")))
}

/// A text field of `v`: `None` when absent or null; refused when not a
/// string or over [`MAX_TEXT`] bytes.
fn text_field<'a>(v: &'a Value, key: &str) -> std::result::Result<Option<&'a str>, ServeError> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(t)) if t.len() <= MAX_TEXT => Ok(Some(t)),
        Some(Value::String(_)) => Err(ServeError::BadRequest(format!("`{key}` is over {MAX_TEXT} bytes"))),
        Some(_) => Err(ServeError::BadRequest(format!("`{key}` must be a string"))),
    }
}

/// A whole-number field of `v`: `None` when absent or null.
fn number_field(v: &Value, key: &str) -> std::result::Result<Option<u64>, ServeError> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(n) => {
            n.as_u64().map(Some).ok_or_else(|| ServeError::BadRequest(format!("`{key}` must be a whole number from 0")))
        }
    }
}

/// A line of play as a request gives it: its game, variant, start, moves
/// and the ply shown.
#[derive(Debug)]
struct Line {
    game: GameKind,
    variant: String,
    start: String,
    moves: Vec<String>,
    at: usize,
}

/// Reads the line of a request.
fn line(v: &Value) -> std::result::Result<Line, ServeError> {
    let game = text_field(v, "game")?.ok_or_else(|| ServeError::BadRequest("`game` is missing".into()))?;
    let game = GameKind::parse(game).map_err(|e| ServeError::BadRequest(format!("game: {e}")))?;
    let variant = text_field(v, "variant")?.unwrap_or("").trim().to_string();
    let start = text_field(v, "start")?.unwrap_or("start").trim().to_string();
    let moves = match v.get("moves") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) if a.len() <= MAX_MOVES => a
            .iter()
            .enumerate()
            .map(|(i, m)| match m.as_str() {
                Some(t) if t.len() <= 256 => Ok(t.trim().to_string()),
                _ => Err(ServeError::BadRequest(format!("move {}: must be a string of at most 256 bytes", i + 1))),
            })
            .collect::<std::result::Result<_, _>>()?,
        Some(Value::Array(_)) => return Err(ServeError::BadRequest(format!("a line has at most {MAX_MOVES} moves"))),
        Some(_) => return Err(ServeError::BadRequest("`moves` must be a list of move texts".into())),
    };
    let at = number_field(v, "at")?.map_or(moves.len() as u64, |n| n);
    if at > moves.len() as u64 {
        return Err(ServeError::BadRequest(format!("`at` {at}: the line has plies 0 to {}", moves.len())));
    }
    Ok(Line { game, variant, start, moves, at: at as usize })
}

/// The line played: the position at its ply `at`, the one before it, and
/// every move's label (`12. blue M13>M14:I19`); each position and move
/// read by the catalog (the rules' parsers).
#[derive(Debug)]
struct Played {
    start: Position,
    shown: Position,
    before: Option<Position>,
    labels: Vec<String>,
}

fn replay(l: &Line) -> std::result::Result<Played, ServeError> {
    let start = Position::read(l.game, &l.start, &l.variant)
        .map_err(|e| ServeError::BadRequest(format!("position `{}`: {e}", escape_text(&l.start))))?;
    let mut p = start.clone();
    let (mut shown, mut before) = (start.clone(), None);
    let mut labels = Vec::with_capacity(l.moves.len());
    for (i, m) in l.moves.iter().enumerate() {
        let mover = p.to_move().unwrap_or_else(|| "nobody".into());
        let next = p.play(m).map_err(|e| {
            let e = e.to_string();
            let e = e.strip_prefix(&format!("move `{m}`: ")).unwrap_or(&e);
            ServeError::BadRequest(format!("move {} `{}`: {e}", i + 1, escape_text(m)))
        })?;
        labels.push(format!("{}. {mover} {m}", i + 1));
        if i + 1 == l.at {
            before = Some(p);
            shown = next.clone();
        }
        p = next;
    }
    Ok(Played { start, shown, before, labels })
}

/// The line as a record file: a comment naming the game and variant, the
/// start (the position's text where the variant is in it), one move a line.
fn record(l: &Line, start: &Position) -> String {
    let mut s = format!("# senat serve: --game {}", l.game);
    if !l.variant.is_empty() {
        s.push_str(&format!(" --variant {}", l.variant));
    }
    s.push('\n');
    let first = if start.text_has_variant() && !l.variant.is_empty() { start.text() } else { l.start.clone() };
    s.push_str(&first);
    s.push('\n');
    for m in &l.moves {
        s.push_str(m);
        s.push('\n');
    }
    s
}

/// `POST /api/state`: the position at ply `at` of the line.
fn state(v: &Value) -> std::result::Result<Value, ServeError> {
    let l = line(v)?;
    let p = replay(&l)?;
    let last = match (&p.before, l.at) {
        (Some(b), at) if at > 0 => Some((b, l.moves[at - 1].as_str())),
        _ => None,
    };
    let note = last.map(|_| format!("ply {}", p.labels[l.at - 1]));
    let svg = p.shown.picture(last, note.as_deref())?;
    let status = match p.shown.to_move() {
        Some(who) if !p.shown.is_over() => format!("{who} to move"),
        _ => p.shown.result(),
    };
    let legal = p.shown.legal_moves();
    // Where each legal move is clicked on the picture: [[x, y, w, h], …] in order.
    let regions = legal
        .iter()
        .map(|m| Ok(p.shown.regions(m)?.iter().map(|r| [r.x, r.y, r.w, r.h]).collect::<Vec<_>>()))
        .collect::<std::result::Result<Vec<_>, ServeError>>()?;
    Ok(json!({
        "game": l.game.to_string(),
        "variant": p.start.variant(),
        "start": l.start,
        "moves": l.moves,
        "labels": p.labels,
        "at": l.at,
        "position": p.shown.text(),
        "status": status,
        "to_move": p.shown.to_move(),
        "over": p.shown.is_over(),
        "chance": p.shown.is_chance(),
        "result": p.shown.result(),
        "legal": legal,
        "regions": regions,
        "svg": svg,
        "record": record(&l, &p.start),
    }))
}

/// `POST /api/analyse`: the analysis agent's opinion of the shown position
/// at the playouts asked (cut to `--max-playouts`).
fn analyse(s: &Served, v: &Value) -> std::result::Result<Value, ServeError> {
    let l = line(v)?;
    let playouts = number_field(v, "playouts")?.unwrap_or(s.playouts).clamp(1, s.max_playouts);
    let seed = number_field(v, "seed")?.unwrap_or(1);
    let p = replay(&l)?;
    let pos = &p.shown;
    if pos.is_over() {
        return Err(ServeError::BadRequest(format!("the game is over ({}): nothing to analyse", pos.result())));
    }
    if pos.is_chance() {
        return Err(ServeError::BadRequest("chance is to move (a deal or a draw): play its outcome first".into()));
    }
    let spec = catalog::analysis_spec(l.game, playouts);
    let _slot = s.slots.take()?;
    let started = Instant::now();
    let mut agent = Agent::new(l.game, &spec)?;
    let a = agent.analyse(pos, &mut rng_from_seed(seed))?;
    let ms = started.elapsed().as_millis() as u64;
    let svg = pos.picture_of_move(&a.best, Some(&format!("best: {} (shown played)", a.best)))?;
    let candidates: Vec<Value> = a
        .candidates
        .iter()
        .take(MAX_CANDIDATES)
        .map(|c| json!({ "move": c.text, "visits": c.visits, "value": c.value }))
        .collect();
    Ok(json!({
        "at": l.at,
        "agent": spec,
        "playouts": playouts,
        "best": a.best,
        "win": a.win.map(|w| w.p()),
        "proof": a.win.and_then(|w| w.proof()).map(|r| r.to_string()),
        "lo": a.interval.map(|i| i.0),
        "hi": a.interval.map(|i| i.1),
        "line": a.line,
        "candidates": candidates,
        "account": a.account,
        "svg": svg,
        "ms": ms,
    }))
}

/// The caps on an agent asked to reply: each key's largest value.
fn agent_caps(max_playouts: u64) -> [(&'static str, u64); 8] {
    [
        ("playouts", max_playouts),
        ("worlds", max_playouts),
        ("depth", 5),
        ("movetime", 5_000),
        ("threads", 1),
        ("guard_nodes", 1_000_000),
        ("tt", 256),
        ("mb", 512),
    ]
}

/// Refuses an agent spec whose search is not bounded by the server's caps
/// (`key=value` of the spec text; a named agent's expansion is fixed), or
/// that names a file.
fn screen_agent(spec: &str, max_playouts: u64) -> std::result::Result<(), ServeError> {
    let params = spec.split_once(':').map_or("", |(_, p)| p);
    for part in params.split(',') {
        let Some((k, v)) = part.split_once('=') else { continue };
        let (k, v) = (k.trim(), v.trim());
        if k == "file" {
            return Err(ServeError::BadRequest(format!(
                "agent `{}`: the server loads no file (file=); use a named agent or a spec without one",
                escape_text(spec)
            )));
        }
        if let Some(&(_, cap)) = agent_caps(max_playouts).iter().find(|(key, _)| *key == k)
            && v.parse::<u64>().is_ok_and(|n| n > cap)
        {
            return Err(ServeError::BadRequest(format!(
                "agent `{}`: {k}={v} is over the server's cap {k}={cap}",
                escape_text(spec)
            )));
        }
    }
    Ok(())
}

/// `POST /api/reply`: the move of `agent` (a spec or a named agent) in the
/// shown position; at a chance node, an outcome drawn by its probability.
fn reply(s: &Served, v: &Value) -> std::result::Result<Value, ServeError> {
    let l = line(v)?;
    let spec = text_field(v, "agent")?.unwrap_or("random").trim().to_string();
    if spec.len() > 200 {
        return Err(ServeError::BadRequest("`agent` is over 200 bytes".into()));
    }
    screen_agent(&spec, s.max_playouts)?;
    let seed = number_field(v, "seed")?.unwrap_or(1);
    let p = replay(&l)?;
    let pos = &p.shown;
    if pos.is_over() {
        return Err(ServeError::BadRequest(format!("the game is over ({})", pos.result())));
    }
    let mut rng = rng_from_seed(seed);
    if pos.is_chance() {
        let outcomes = pos.chance_outcomes();
        // A uniform draw in [0, 1), to 2^-30.
        let x = game_search::rng::below(&mut rng, 1 << 30) as f64 / (1u64 << 30) as f64;
        let mut acc = 0.0;
        let pick = outcomes
            .iter()
            .find(|(_, q)| {
                acc += q;
                x < acc
            })
            .or(outcomes.last())
            .map(|(m, _)| m.clone())
            .ok_or_else(|| ServeError::BadRequest("no chance outcome here".into()))?;
        return Ok(json!({ "move": pick, "agent": "chance" }));
    }
    let _slot = s.slots.take()?;
    let mut agent = Agent::new(l.game, &spec)?;
    let m = agent.choose(pos, &mut rng)?;
    Ok(json!({ "move": m, "agent": spec }))
}

/// The files of the served folder the page may open: regular files ending
/// in `.csv` or `.txt`, by name, at most [`MAX_DEPTH`] folders deep and
/// [`MAX_FILES`] in all; no symbolic link, no hidden name, each path
/// canonicalised and under the folder.
fn listing(root: &Path) -> Vec<Listed> {
    let mut out = Vec::new();
    let mut stack = vec![(root.to_path_buf(), 0usize)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().to_string_lossy().to_string();
            let Ok(meta) = e.path().symlink_metadata() else { continue };
            if name.starts_with('.') || meta.file_type().is_symlink() {
                continue;
            }
            let Ok(path) = e.path().canonicalize() else { continue };
            if !path.starts_with(root) {
                continue;
            }
            if meta.is_dir() {
                if depth < MAX_DEPTH {
                    stack.push((path, depth + 1));
                }
                continue;
            }
            let lower = name.to_ascii_lowercase();
            if !meta.is_file() || !(lower.ends_with(".csv") || lower.ends_with(".txt")) {
                continue;
            }
            let shown = path.strip_prefix(root).unwrap_or(&path).display().to_string();
            let game = catalog::files::file_game(&path);
            out.push(Listed { name: shown, path, game });
        }
        if out.len() >= MAX_FILES {
            out.truncate(MAX_FILES);
            break;
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// `GET /api/catalog`: the games, the files, the limits.
fn catalog_json(s: &Served) -> Value {
    let files: Vec<Value> = listing(&s.root)
        .iter()
        .enumerate()
        .map(|(i, f)| json!({ "i": i, "name": f.name, "game": f.game.map(|g| g.to_string()) }))
        .collect();
    json!({
        "games": GameKind::ALL.iter().map(|g| g.to_string()).collect::<Vec<_>>(),
        "files": files,
        "default_playouts": s.playouts,
        "max_playouts": s.max_playouts,
        "max_analyses": s.slots.max,
    })
}

/// `POST /api/open`: a game of a file of the listing, by the file's index:
/// game `index` of a batch file (the file names its game), or a record (of
/// `game`, Sénat by default), as a line.
fn open(s: &Served, v: &Value) -> std::result::Result<Value, ServeError> {
    let i = number_field(v, "file")?.ok_or_else(|| ServeError::BadRequest("`file` (an index) is missing".into()))?;
    let files = listing(&s.root);
    let f = files
        .get(i as usize)
        .ok_or_else(|| ServeError::NotFound(format!("no file {i}: the folder lists {}", files.len())))?;
    let index = number_field(v, "index")?;
    if f.game.is_some() || index.is_some() {
        let b = catalog::files::indexed_game(&f.path, index.unwrap_or(0), None)
            .map_err(|e| ServeError::BadRequest(e.to_string().replace(&f.path.display().to_string(), &f.name)))?;
        let variant = match &b.senat {
            Some((v, _)) => v.to_text(),
            None => b.variant.clone(),
        };
        let players: Vec<String> = b.players.iter().map(|(seat, who)| format!("{seat}: {who}")).collect();
        return Ok(json!({
            "game": b.kind.to_string(),
            "variant": variant,
            "start": "start",
            "moves": b.moves,
            "title": format!("{} game {}", f.name, index.unwrap_or(0)),
            "players": players.join(" · "),
        }));
    }
    let game = match text_field(v, "game")? {
        Some(g) => GameKind::parse(g).map_err(|e| ServeError::BadRequest(format!("game: {e}")))?,
        None => GameKind::ALL[0],
    };
    let text = senat_lab::limits::read_text(&f.path)
        .map_err(|e| ServeError::BadRequest(e.to_string().replace(&f.path.display().to_string(), &f.name)))?;
    let (start, moves) = catalog::files::record_moves(game, &f.name, &text)?;
    let l = Line { game, variant: String::new(), start, moves, at: 0 };
    replay(&l).map_err(|e| ServeError::BadRequest(format!("{}: {e}", f.name)))?;
    Ok(json!({
        "game": game.to_string(),
        "variant": "",
        "start": l.start,
        "moves": l.moves,
        "title": f.name,
        "players": "",
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_over_the_caps_and_files_are_refused() {
        assert!(screen_agent("strong", 100).is_ok());
        assert!(screen_agent("mcts:playouts=100", 100).is_ok());
        assert!(screen_agent("mcts:playouts=101", 100).is_err());
        assert!(screen_agent("ab:depth=6", 100).unwrap_err().to_string().contains("depth=6"));
        assert!(screen_agent("ab:depth=5", 100).is_ok());
        assert!(screen_agent("mcts:playouts=10,threads=4", 100).is_err());
        assert!(screen_agent("learned:file=/etc/passwd", 100).unwrap_err().to_string().contains("no file"));
    }

    #[test]
    fn lines_are_read_with_their_limits() {
        let ok = json!({ "game": "connect4", "moves": ["4", "4"], "at": 1 });
        let l = line(&ok).unwrap();
        assert_eq!((l.game, l.moves.len(), l.at), (GameKind::Connect4, 2, 1));
        let p = replay(&l).unwrap();
        assert_eq!(p.labels.len(), 2);
        assert!(line(&json!({ "game": "chess" })).unwrap_err().to_string().starts_with("game:"));
        assert!(line(&json!({ "game": "senat", "at": 1 })).is_err());
        assert!(line(&json!({ "game": "senat", "moves": [1] })).is_err());
        let bad = line(&json!({ "game": "connect4", "moves": ["9"] })).unwrap();
        assert!(replay(&bad).unwrap_err().to_string().starts_with("move 1 `9`"));
    }

    #[test]
    fn slots_are_bounded_and_given_back() {
        let slots = Slots { held: AtomicUsize::new(0), max: 2 };
        let a = slots.take().unwrap();
        let b = slots.take().unwrap();
        assert_eq!(slots.take().err(), Some(ServeError::Busy(2)));
        drop(a);
        let _c = slots.take().unwrap();
        drop(b);
        assert_eq!(slots.held.load(Ordering::SeqCst), 1);
    }
}
