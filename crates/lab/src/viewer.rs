//! The game viewer: one self-contained HTML page that steps through a game
//! of any of the lab's games.
//!
//! The page is game-neutral: [`page`] takes, for every ply, a [`Ply`] (the
//! board SVG, the position text, the move label, a section heading, two
//! caption lines) made by a per-game producer — [`senat`] for Sénat,
//! [`lab`] for every game with a [`crate::picture::Drawn`] picture (Focus
//! with 2 and 4 players, Débâcle), [`dominoes`] for one seat's view of a
//! dominoes match — with the game's notes ([`Meta`]). It holds them as
//! JSON inside a `<script type="application/json">` element, and one inline
//! script shows them: buttons, arrow keys, a slider, a clickable move
//! list, the position text with a copy button, and the result at the last
//! ply. `#ply=N` in the URL opens ply N and follows the shown ply. The
//! layout is a wrapping flex box: nothing is wider than the window, from
//! 400 px up ([`style`]); a game's key to its symbols ([`Shape::legend`])
//! sits under the board.
//!
//! An annotated record (`senat annotate`'s comments, read by
//! [`evaluation`]) adds a vertical bar beside the board, a graph of the
//! game with a dot of the mark's colour on every marked move, the marks
//! after the moves in the list, each side's accuracy (mean loss of win
//! probability per move, lichess's, [`Evaluation::accuracy`]) and a button
//! that turns the bar and the graph to the other side's point of view.
//!
//! What this module must never do: fetch anything, run anything taken
//! from a record, or put outside text into the page as markup.
//!
//! The board pictures are stored once per distinct piece: each SVG is cut
//! before every `<`, the distinct pieces are listed once (`parts`) and each
//! ply's board is a list of indices into them (a run `a, a+1, …, b` written
//! `a, -b`), which the script joins back into the very same SVG text. A
//! board changes little from one ply to the next, so a long game's page
//! stays small (a 1,000-ply Focus game: well under 2 MB).
//!
//! Safe by construction: every text taken from the game (names, notes,
//! moves) reaches the page either HTML-escaped or as JSON whose `<`, `>`,
//! `&`, U+2028 and U+2029 are `\u` escapes (so `</script>` in a note cannot
//! close the data element), and the script puts it in the page with
//! `textContent` only. The board SVG, made by [`crate::picture`], is the
//! only markup the script inserts. A Content-Security-Policy allows no
//! network at all and only the page's own script and style, by their
//! SHA-256 hashes.

pub mod dominoes;
pub mod lab;
pub mod senat;
pub mod serve;

pub use senat::{Step, html, move_label, steps};

use crate::picture::escape;
use crate::winprob::Mark;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fmt::Write;

/// What the page shows besides the plies: all of it may come from outside.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    /// A title (the record's file name, or `games.csv game 12`).
    pub title: String,
    /// The players, if known: each seat's name and its player (an agent
    /// name), shown as `red: heuristic · blue: random`.
    pub players: Vec<(String, String)>,
    /// Notes of the whole game (a record's comments before its first move).
    pub notes: Vec<String>,
    /// Notes by ply: `ply_notes[i]` is shown with ply `i` (after move `i`).
    pub ply_notes: Vec<Vec<String>>,
    /// The result line shown at the last ply.
    pub result: String,
    /// An engine's opinion at every ply (from `senat annotate`'s comments,
    /// [`evaluation`]): shown as a bar and a graph of the game.
    pub evaluation: Option<Evaluation>,
}

/// One side's win probability at every ply of a game, by an engine, with
/// the marks and the losses of the moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// The side (its seat names: `white`, `south and north`).
    pub side: String,
    /// The other side, whose probability is the complement (`black`).
    pub other: String,
    /// `values[i]`: after `i` moves (`None` where no comment says).
    pub values: Vec<Option<f64>>,
    /// `moves[j]` (from 1): move `j`'s mark and loss, where its comment says.
    pub moves: Vec<Option<Judged>>,
}

/// What an annotation says of one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    /// Whether [`Evaluation::side`] made it (otherwise the other side).
    pub by_side: bool,
    /// The mover's loss: its win probability before the move (the best
    /// move's) less after it, never below 0 (lichess's loss per move).
    pub loss: f64,
    /// The annotation's mark, if any.
    pub mark: Option<Mark>,
}

/// One side's account of a game: its annotated moves, their mean loss
/// (lichess's "average loss" per move) and its marks by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Accuracy {
    /// Annotated moves of the side.
    pub moves: usize,
    /// Their mean loss of win probability (0 when no move).
    pub mean_loss: f64,
    /// Moves marked `?!`, `?`, `??`.
    pub marks: [usize; 3],
}

impl Evaluation {
    /// The accuracy of [`Evaluation::side`] (`true`) or of the other side.
    pub fn accuracy(&self, side: bool) -> Accuracy {
        let mine: Vec<&Judged> = self.moves.iter().flatten().filter(|j| j.by_side == side).collect();
        let mut a = Accuracy { moves: mine.len(), ..Accuracy::default() };
        a.mean_loss = mine.iter().map(|j| j.loss).sum::<f64>() / mine.len().max(1) as f64;
        for j in &mine {
            if let Some(m) = j.mark {
                a.marks[m as usize] += 1;
            }
        }
        a
    }
}

/// The first probability after `key` in `text` (`0.734` of `win 0.734 (win in 3), …`).
fn probability_after(text: &str, key: &str) -> Option<f64> {
    let at = text.find(key)? + key.len();
    let token = text[at..].split([' ', ',', ';']).next()?;
    token.parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p))
}

/// Reads the comments that `senat annotate` writes on every move line
/// (`ply J, MOVER: win P, best …, line …; after MOVE: Q [MARK …]`, kept by
/// the record reader in `ply_notes[J]`) as `side`'s win probability at
/// every ply: ply 0 from the first move's `win P`, ply `J` from move `J`'s
/// `after … Q`, each turned to `side` unless `side_moved(J)` (whether move
/// `J` was made by `side`'s team); and each move's loss `P − Q` (at least
/// 0) and mark. `other` names the other side. `None` when no comment has
/// the form.
pub fn evaluation(
    ply_notes: &[Vec<String>],
    side: &str,
    other: &str,
    side_moved: impl Fn(usize) -> bool,
) -> Option<Evaluation> {
    let note = |j: usize| {
        let head = format!("ply {j}, ");
        ply_notes.get(j)?.iter().find(|n| n.starts_with(&head) && n.contains(": win ") && n.contains("; after "))
    };
    let turn = |p: f64, j: usize| if side_moved(j) { p } else { 1.0 - p };
    let len = ply_notes.len().max(1);
    let mut values = vec![None; len];
    let mut moves = vec![None; len];
    values[0] = note(1).and_then(|n| probability_after(n, ": win ")).map(|p| turn(p, 1));
    for j in 1..len {
        let Some(n) = note(j) else { continue };
        let Some(cut) = n.rfind("; after ") else { continue };
        let after = &n[cut + 8..];
        let Some(q) = probability_after(after, ": ") else { continue };
        values[j] = Some(turn(q, j));
        let Some(p) = probability_after(n, ": win ") else { continue };
        let rest = after[after.find(": ").map_or(0, |i| i + 2)..].split_whitespace().nth(1);
        moves[j] =
            Some(Judged { by_side: side_moved(j), loss: (p - q).max(0.0), mark: rest.and_then(Mark::from_symbol) });
    }
    values.iter().any(Option::is_some).then(|| Evaluation {
        side: side.to_string(),
        other: other.to_string(),
        values,
        moves,
    })
}

/// The colour of a mark's dot and label (lichess's: blue, orange, red).
const MARK_COLOURS: [&str; 3] = ["#2b8cc4", "#e69f00", "#db3031"];

/// The graph of an evaluation (an SVG made here, no outside text): the
/// side's probability against the ply, ½ dashed, a dot of the mark's
/// colour on every marked move, a marker the script moves. The line and
/// dots are in one group the script mirrors for the other side's view.
fn evaluation_graph(e: &Evaluation) -> String {
    let (w, h) = (400.0, 80.0);
    let values = &e.values;
    let last = values.len().saturating_sub(1).max(1) as f64;
    let at = |i: usize, p: f64| (i as f64 / last * w, (1.0 - p) * h);
    let mut runs: Vec<Vec<String>> = vec![Vec::new()];
    for (i, v) in values.iter().enumerate() {
        match v {
            Some(p) => {
                let (x, y) = at(i, *p);
                runs.last_mut().expect("a run").push(format!("{x:.1},{y:.1}"))
            }
            None => runs.push(Vec::new()),
        }
    }
    let mut s = format!(
        "<svg id=\"eval-graph\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\
<rect width=\"{w}\" height=\"{h}\" fill=\"#fff\" stroke=\"#999\"/>\
<line x1=\"0\" y1=\"{}\" x2=\"{w}\" y2=\"{}\" stroke=\"#bbb\" stroke-dasharray=\"4 3\"/><g id=\"eval-lines\">",
        h / 2.0,
        h / 2.0
    );
    for run in runs.iter().filter(|r| !r.is_empty()) {
        let _ =
            write!(s, "<polyline fill=\"none\" stroke=\"#1565c0\" stroke-width=\"1.5\" points=\"{}\"/>", run.join(" "));
    }
    for (j, m) in e.moves.iter().enumerate() {
        let (Some(Judged { mark: Some(mark), .. }), Some(p)) = (m, values.get(j).copied().flatten()) else { continue };
        let (x, y) = at(j, p);
        let _ = write!(
            s,
            "<circle class=\"mark\" data-ply=\"{j}\" data-mark=\"{}\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3.5\" fill=\"{}\" stroke=\"#fff\"/>",
            escape(mark.symbol()),
            MARK_COLOURS[*mark as usize]
        );
    }
    let _ = write!(
        s,
        "</g><line id=\"eval-marker\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"{h}\" stroke=\"#e65100\" stroke-width=\"2\"/></svg>"
    );
    s
}

/// The box of an evaluation under the controls: the side's probability
/// (`eval-text`), the switch of point of view, the graph, each side's
/// accuracy and the marks' key. Every outside text is escaped.
fn evaluation_box(e: &Evaluation) -> String {
    let account = |name: &str, a: Accuracy| {
        format!(
            "<li><b>{}</b>: {:.3} over {} move{} · <span class=\"m0\">?! {}</span> <span class=\"m1\">? {}</span> <span class=\"m2\">?? {}</span></li>",
            escape(name),
            a.mean_loss,
            a.moves,
            if a.moves == 1 { "" } else { "s" },
            a.marks[0],
            a.marks[1],
            a.marks[2]
        )
    };
    format!(
        "<div id=\"eval-box\"><div class=\"label\">the engine's win probability (the bar beside the board: the light part; \
the graph: the whole game, click to go there)</div>\
<div><span id=\"eval-text\"></span> <button type=\"button\" id=\"flip\">view from {}</button></div>{}\
<div class=\"label\">accuracy: the mean loss of win probability per move (lichess's), and the marks</div>\
<ul id=\"accuracy\">{}{}</ul></div>",
        escape(&e.other),
        evaluation_graph(e),
        account(&e.side, e.accuracy(true)),
        account(&e.other, e.accuracy(false)),
    )
}

/// One shown ply, as a game's producer makes it: the position after `ply`
/// moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ply {
    /// The board picture (an SVG document of [`crate::picture`]).
    pub svg: String,
    /// The position's text in the game's notation (what `senat show` reads).
    pub position: String,
    /// The move that led here in the move list (`12. blue M13>M14:I19`);
    /// empty at ply 0.
    pub label: String,
    /// A heading put in the move list before this ply's move (a new phase
    /// or round), if any.
    pub section: Option<String>,
    /// The first caption line (who moves, or the result).
    pub status: String,
    /// The second caption line (scores, piles, …).
    pub detail: String,
}

/// What differs between the games' pages besides their plies: the board
/// picture's size (the page lays itself out around it) and the name of
/// the position text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Width of the board pictures, in pixels.
    pub width: u32,
    /// Height of the board pictures, in pixels.
    pub height: u32,
    /// The label of the position text (`SPN`, `position`, `observation`).
    pub position_name: &'static str,
    /// The key to the board's symbols, shown under it (empty: none).
    pub legend: &'static str,
}

/// Each state of a game with the move that led to it and the state before
/// (none at ply 0): `states[i]` is the state after `i` moves and
/// `moves[i]` the move from `states[i]` to `states[i + 1]`. The walk every
/// producer's plies take.
pub fn with_last<'a, S, M: Copy>(
    states: &'a [S],
    moves: &'a [M],
) -> impl Iterator<Item = (usize, &'a S, Option<(M, &'a S)>)> + 'a {
    debug_assert_eq!(states.len(), moves.len() + 1);
    states
        .iter()
        .enumerate()
        .map(move |(i, s)| (i, s, i.checked_sub(1).and_then(|k| Some((*moves.get(k)?, &states[k])))))
}

/// The headings of a move list: the key of the position before each move
/// (its phase, its round), and a heading wherever the key changes.
#[derive(Clone, Debug, Default)]
pub struct Sections {
    last: Option<String>,
}

impl Sections {
    /// The heading before a move made in a position of `key`: `key` itself
    /// when it differs from the previous move's (or for the first move).
    pub fn next(&mut self, key: String) -> Option<String> {
        if self.last.as_deref() == Some(key.as_str()) {
            return None;
        }
        self.last = Some(key.clone());
        Some(key)
    }
}
/// Writes `text` as a JSON string that is also safe inside an HTML
/// `<script>` element: `<`, `>`, `&`, U+2028, U+2029 and all control
/// characters are `\u` escapes.
pub fn json_string(out: &mut String, text: &str) {
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", ch as u32);
            }
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn json_list(out: &mut String, items: &[String]) {
    out.push('[');
    for (i, t) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json_string(out, t);
    }
    out.push(']');
}

/// Standard base64 (with padding), for the CSP hashes.
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                s.push(A[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// `'sha256-…'` of a script or style, as CSP wants it.
pub fn csp_hash(text: &str) -> String {
    format!("'sha256-{}'", base64(&Sha256::digest(text.as_bytes())))
}

/// The page's only script. It reads the data element and never puts data
/// into the page as markup, except the board SVG made by `picture` (joined
/// back from its pieces).
pub const SCRIPT: &str = r#"
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('game-data').textContent);
  var steps = data.steps, parts = data.parts, last = steps.length - 1, cur = -1, items = [];
  var ev = data.eval || null, pov = 0, markClass = { '?!': 'm0', '?': 'm1', '??': 'm2' };
  function $(id) { return document.getElementById(id); }
  function text(id, t) { $(id).textContent = t; }
  function board(ids) {
    var out = [], prev = 0;
    ids.forEach(function (k) {
      if (k < 0) { for (var j = prev + 1; j <= -k; j++) { out.push(parts[j]); } prev = -k; }
      else { out.push(parts[k]); prev = k; }
    });
    return out.join('');
  }
  function fill(list, lines) {
    while (list.firstChild) { list.removeChild(list.firstChild); }
    lines.forEach(function (t) { var li = document.createElement('li'); li.textContent = t; list.appendChild(li); });
  }
  text('title', data.title);
  text('players', data.players);
  fill($('game-notes'), data.notes);
  // A heading only over notes that are there.
  $('game-notes-label').hidden = data.notes.length === 0;
  var list = $('moves');
  steps.forEach(function (s, i) {
    if (s.section) { var h = document.createElement('li'); h.className = 'section'; h.textContent = s.section; list.appendChild(h); }
    var li = document.createElement('li');
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = i === 0 ? 'start' : s.label;
    var mark = ev && ev.marks[i];
    if (mark && markClass[mark]) {
      var m = document.createElement('span');
      m.className = 'mark ' + markClass[mark];
      m.textContent = ' ' + mark;
      b.appendChild(m);
    }
    b.addEventListener('click', function () { show(i); });
    li.appendChild(b);
    list.appendChild(li);
    items.push(b);
  });
  var slider = $('slider');
  slider.max = String(last);
  if (ev) {
    $('eval-graph').addEventListener('click', function (e) {
      var r = $('eval-graph').getBoundingClientRect();
      show(Math.round((e.clientX - r.left) / r.width * last));
    });
    $('flip').addEventListener('click', function () {
      pov = 1 - pov;
      text('flip', 'view from ' + (pov ? ev.side : ev.other));
      if (pov) { $('eval-lines').setAttribute('transform', 'matrix(1 0 0 -1 0 80)'); }
      else { $('eval-lines').removeAttribute('transform'); }
      showEval(cur);
    });
  }
  function showEval(i) {
    var p = ev.values[i];
    if (p !== null && pov) { p = 1 - p; }
    $('eval-vfill').style.height = (p === null ? 50 : 100 * p) + '%';
    text('eval-text', (pov ? ev.other : ev.side) + ' ' + (p === null ? '(no opinion)' : p.toFixed(3)));
    var x = String(last > 0 ? 400 * i / last : 0);
    $('eval-marker').setAttribute('x1', x);
    $('eval-marker').setAttribute('x2', x);
  }
  // The page's width as laid out, for tests of overflow (a number, never shown).
  function measure() { document.body.setAttribute('data-scroll-width', String(document.documentElement.scrollWidth)); }
  window.addEventListener('resize', measure);
  function show(i) {
    i = Math.max(0, Math.min(last, i | 0));
    if (i === cur) { return; }
    if (cur >= 0) { items[cur].classList.remove('current'); }
    cur = i;
    var s = steps[i];
    $('board').innerHTML = board(s.board);
    text('spn', s.spn);
    text('ply', 'ply ' + i + ' / ' + last);
    text('move', i === 0 ? 'start' : s.label);
    text('status', s.status);
    text('detail', s.detail);
    fill($('ply-notes'), s.notes);
    $('ply-notes-label').hidden = s.notes.length === 0;
    text('result', i === last ? data.result : '');
    if (ev) { showEval(i); }
    slider.value = String(i);
    items[i].classList.add('current');
    // Scroll the move list only (never the page, which may be wider than the window).
    var li = items[i].parentNode, y = li.offsetTop - list.offsetTop;
    if (y < list.scrollTop) { list.scrollTop = y; }
    else if (y + li.offsetHeight > list.scrollTop + list.clientHeight) { list.scrollTop = y + li.offsetHeight - list.clientHeight; }
    var h = '#ply=' + i;
    if (location.hash !== h) {
      try { history.replaceState(null, '', h); } catch (e) { location.replace(h); }
    }
  }
  function fromHash() {
    var m = /^#ply=(\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : 0;
  }
  $('first').addEventListener('click', function () { show(0); });
  $('prev').addEventListener('click', function () { show(cur - 1); });
  $('next').addEventListener('click', function () { show(cur + 1); });
  $('last').addEventListener('click', function () { show(last); });
  slider.addEventListener('input', function () { show(parseInt(slider.value, 10)); });
  document.addEventListener('keydown', function (e) {
    if (e.target === slider) { return; }
    var k = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: last }[e.key];
    if (k !== undefined) { e.preventDefault(); show(k); }
  });
  window.addEventListener('hashchange', function () { show(fromHash()); });
  $('copy').addEventListener('click', function () {
    var spn = $('spn').textContent;
    function fallback() {
      var r = document.createRange(); r.selectNodeContents($('spn'));
      var sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(r);
      try { document.execCommand('copy'); } catch (e) { }
      text('copied', 'selected');
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(spn).then(function () { text('copied', 'copied'); }, fallback);
    } else { fallback(); }
  });
  show(fromHash());
  measure();
  document.body.setAttribute('data-ready', 'yes');
})();
"#;

/// The page's only style sheet, laid out around a board of `width` ×
/// `height` pixels: the board at its natural size where the window has
/// room (16 px from the left, 64 px from the top when no evaluation bar
/// stands beside it, so that a test can find the pixels of a die in a
/// screenshot), the panel right of it or, in a narrow window, under it,
/// and the board shrunk to the window's width below that: nothing is
/// wider than the window, down to 400 px. From 1,000 px on, the board
/// leaves the panel 320 px beside it (shrinking a wide board a little
/// rather than putting the panel under it on a laptop's screen).
pub fn style(width: u32, height: u32) -> String {
    let notes_width = width + 436;
    format!(
        r#"
body {{ margin: 0; font-family: "DejaVu Sans", Verdana, sans-serif; background: #f7f3ea; color: #222; }}
header {{ height: 64px; box-sizing: border-box; padding: 8px 16px 0 16px; overflow: hidden; }}
h1 {{ font-size: 18px; margin: 4px 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }}
#players {{ font-size: 13px; color: #555; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }}
#main {{ display: flex; flex-wrap: wrap; align-items: flex-start; gap: 16px; padding: 0 16px 16px 16px; }}
#board-wrap {{ display: flex; gap: 6px; flex: 0 1 auto; max-width: 100%; min-width: 0; }}
#board {{ flex: 0 1 {width}px; width: {width}px; max-width: 100%; min-width: 0; }}
#board svg {{ display: block; width: 100%; height: auto; aspect-ratio: {width} / {height}; }}
#eval-vbar {{ flex: 0 0 14px; position: relative; background: #37474f; border: 1px solid #999; }}
#eval-vfill {{ position: absolute; left: 0; right: 0; bottom: 0; height: 50%; background: #fafafa; }}
#panel {{ flex: 1 1 320px; max-width: 420px; min-width: 0; }}
#controls button {{ font-size: 16px; min-width: 44px; }}
#slider {{ width: 100%; margin: 8px 0; box-sizing: border-box; }}
#spn-box {{ font-size: 12px; background: #fff; border: 1px solid #ccc; padding: 4px 6px; margin: 6px 0; word-break: break-all; }}
#spn {{ user-select: all; }}
#moves {{ list-style: none; padding: 0; margin: 6px 0; max-height: 300px; overflow-y: auto; border: 1px solid #ccc; background: #fff; display: grid; grid-template-columns: 1fr 1fr; align-content: start; }}
#moves li {{ min-width: 0; }}
#moves li.section {{ font-weight: bold; padding: 2px 6px; grid-column: 1 / -1; background: #eee; }}
#moves button {{ border: none; background: none; font: inherit; font-size: 12px; padding: 1px 6px; cursor: pointer; text-align: left; width: 100%; overflow-wrap: anywhere; }}
#moves button.current {{ background: #ffd54f; font-weight: bold; }}
.mark {{ font-weight: bold; }}
.m0 {{ color: #2b8cc4; }}
.m1 {{ color: #e69f00; }}
.m2 {{ color: #db3031; }}
#result {{ font-weight: bold; font-size: 16px; color: #2e7d32; margin: 6px 0; }}
#notes-box {{ flex: 1 1 100%; max-width: {notes_width}px; min-width: 0; font-size: 13px; }}
#notes-box ul {{ margin: 2px 0; padding-left: 20px; white-space: pre-wrap; overflow-wrap: anywhere; }}
#legend {{ margin: 0 0 6px 0; }}
.label {{ color: #666; font-size: 12px; }}
#eval-box {{ margin: 0 0 8px 0; }}
#eval-graph {{ display: block; margin-top: 4px; cursor: pointer; width: 100%; max-width: 400px; height: auto; }}
#accuracy {{ margin: 2px 0; padding-left: 18px; font-size: 12px; }}
@media (min-width: 1000px) {{ #board-wrap {{ max-width: calc(100% - 336px); }} }}
"#
    )
}

/// The distinct pieces of the boards of a page, each listed once.
#[derive(Debug, Default)]
struct Parts {
    index: HashMap<String, i64>,
    list: Vec<String>,
}

impl Parts {
    /// Cuts `svg` before every `<` and writes its pieces' indices to `out`
    /// as a JSON array, a run of consecutive indices `a, a+1, …, b` as
    /// `a,-b`.
    fn board(&mut self, svg: &str, out: &mut String) {
        let mut ids = Vec::new();
        let mut rest = svg;
        while !rest.is_empty() {
            let cut = rest[1..].find('<').map_or(rest.len(), |i| i + 1);
            let (piece, tail) = rest.split_at(cut);
            rest = tail;
            let next = self.list.len() as i64;
            let id = *self.index.entry(piece.to_string()).or_insert(next);
            if id == next {
                self.list.push(piece.to_string());
            }
            ids.push(id);
        }
        out.push('[');
        let mut i = 0;
        while i < ids.len() {
            let mut j = i;
            while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
                j += 1;
            }
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{}", ids[i]);
            if j > i {
                let _ = write!(out, ",-{}", ids[j]);
            }
            i = j + 1;
        }
        out.push(']');
    }
}

/// Builds the page of a game (finished or not) from its plies, ply 0 (its
/// start) first: the one page builder of every game.
pub fn page(meta: &Meta, shape: Shape, plies: impl IntoIterator<Item = Ply>) -> String {
    let mut data = String::with_capacity(1 << 20);
    data.push_str("{\"title\":");
    json_string(&mut data, &meta.title);
    let players: Vec<String> = meta.players.iter().map(|(seat, who)| format!("{seat}: {who}")).collect();
    data.push_str(",\"players\":");
    json_string(&mut data, &players.join(" · "));
    data.push_str(",\"notes\":");
    json_list(&mut data, &meta.notes);
    data.push_str(",\"result\":");
    json_string(&mut data, &meta.result);
    if let Some(e) = &meta.evaluation {
        data.push_str(",\"eval\":{\"side\":");
        json_string(&mut data, &e.side);
        data.push_str(",\"other\":");
        json_string(&mut data, &e.other);
        data.push_str(",\"marks\":[");
        for (i, j) in e.moves.iter().enumerate() {
            if i > 0 {
                data.push(',');
            }
            match j.and_then(|j| j.mark) {
                Some(m) => json_string(&mut data, m.symbol()),
                None => data.push_str("null"),
            }
        }
        data.push_str("],\"values\":[");
        for (i, v) in e.values.iter().enumerate() {
            if i > 0 {
                data.push(',');
            }
            match v {
                Some(p) => {
                    let _ = write!(data, "{p:.4}");
                }
                None => data.push_str("null"),
            }
        }
        data.push_str("]}");
    }
    data.push_str(",\"steps\":[");
    let mut parts = Parts::default();
    for (i, p) in plies.into_iter().enumerate() {
        if i > 0 {
            data.push(',');
        }
        data.push_str("{\"spn\":");
        json_string(&mut data, &p.position);
        data.push_str(",\"label\":");
        json_string(&mut data, &p.label);
        if let Some(section) = &p.section {
            data.push_str(",\"section\":");
            json_string(&mut data, section);
        }
        data.push_str(",\"status\":");
        json_string(&mut data, &p.status);
        data.push_str(",\"detail\":");
        json_string(&mut data, &p.detail);
        data.push_str(",\"notes\":");
        json_list(&mut data, meta.ply_notes.get(i).map_or(&[][..], |v| &v[..]));
        data.push_str(",\"board\":");
        parts.board(&p.svg, &mut data);
        data.push('}');
    }
    data.push_str("],\"parts\":");
    json_list(&mut data, &parts.list);
    data.push('}');

    let style = style(shape.width, shape.height);
    let csp = format!(
        "default-src 'none'; script-src {}; style-src {}; img-src data:; base-uri 'none'; form-action 'none'",
        csp_hash(SCRIPT),
        csp_hash(&style)
    );
    let mut s = String::with_capacity(data.len() + 8 * 1024);
    let (bar, eval_box) = match &meta.evaluation {
        Some(e) => (
            "<div id=\"eval-vbar\" title=\"the engine's win probability (the light part, from the bottom)\">\
<div id=\"eval-vfill\"></div></div>"
                .to_string(),
            evaluation_box(e),
        ),
        None => (String::new(), String::new()),
    };
    let legend = if shape.legend.is_empty() {
        String::new()
    } else {
        format!("<div id=\"legend\" class=\"label\">{}</div>", escape(shape.legend))
    };
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>senat viewer: {}</title>\n<style>{style}</style>\n</head>\n<body>\n\
<header><h1 id=\"title\"></h1><div id=\"players\"></div></header>\n\
<div id=\"main\">\n\
<div id=\"board-wrap\">{bar}<div id=\"board\"></div></div>\n\
<div id=\"panel\">\n\
<div id=\"controls\"><button type=\"button\" id=\"first\" title=\"first (Home)\">◀◀</button> \
<button type=\"button\" id=\"prev\" title=\"previous (←)\">◀</button> \
<button type=\"button\" id=\"next\" title=\"next (→)\">▶</button> \
<button type=\"button\" id=\"last\" title=\"last (End)\">▶▶</button> <span id=\"ply\"></span></div>\n\
<input type=\"range\" id=\"slider\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"ply\">\n\
<div><span class=\"label\">move</span> <span id=\"move\"></span></div>\n\
<div id=\"status\"></div><div id=\"detail\" class=\"label\"></div>\n\
<div id=\"result\"></div>\n\
{eval_box}\
<div id=\"spn-box\"><span class=\"label\">{}</span> <code id=\"spn\"></code> \
<button type=\"button\" id=\"copy\">copy</button> <span id=\"copied\" class=\"label\"></span></div>\n\
<ol id=\"moves\"></ol>\n</div>\n\
<div id=\"notes-box\">{legend}<div class=\"label\" id=\"ply-notes-label\">notes of this ply</div><ul id=\"ply-notes\"></ul>\
<div class=\"label\" id=\"game-notes-label\">notes of the game</div><ul id=\"game-notes\"></ul></div>\n\
</div>\n\
<noscript>This viewer needs JavaScript; the positions are in the data below.</noscript>\n\
<script type=\"application/json\" id=\"game-data\">{data}</script>\n\
<script>{SCRIPT}</script>\n</body>\n</html>\n",
        escape(&meta.title),
        escape(shape.position_name),
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_read_annotate_comments_and_turn_them_to_one_side() {
        let notes = vec![
            vec![],
            vec!["ply 1, white: win 0.600, best a, line a b; after a: 0.550".to_string()],
            vec!["ply 2, black: win 0.450, best b, line b; after c: 0.300 ?? blunder (-0.150)".to_string()],
            vec!["a note of a reader".to_string()],
            vec!["ply 4, black: win 1.000 (win in 1), best x, line x; after x: 1.000 (won)".to_string()],
        ];
        // White moves plies 1 and 3, black 2 and 4.
        let e = evaluation(&notes, "white", "black", |j| j % 2 == 1).expect("annotated");
        assert_eq!((e.side.as_str(), e.other.as_str()), ("white", "black"));
        let v: Vec<Option<f64>> = e.values.iter().map(|v| v.map(|p| (p * 1000.0).round() / 1000.0)).collect();
        assert_eq!(v, [Some(0.6), Some(0.55), Some(0.7), None, Some(0.0)]);
        // Each move's loss (before less after, for the mover) and mark.
        let round = |j: &Judged| ((j.loss * 1000.0).round() / 1000.0, j.by_side, j.mark);
        let judged: Vec<_> = e.moves.iter().map(|j| j.as_ref().map(round)).collect();
        assert_eq!(
            judged,
            [None, Some((0.05, true, None)), Some((0.15, false, Some(Mark::Blunder))), None, Some((0.0, false, None))]
        );
        let (w, b) = (e.accuracy(true), e.accuracy(false));
        assert_eq!((w.moves, b.moves, b.marks), (1, 2, [0, 0, 1]));
        assert!((w.mean_loss - 0.05).abs() < 1e-9 && (b.mean_loss - 0.075).abs() < 1e-9, "{w:?} {b:?}");
        assert_eq!(evaluation(&[vec![], vec!["just a comment".into()]], "white", "black", |_| true), None);
        // A probability outside 0..1 is no probability.
        let bad = [vec![], vec!["ply 1, white: win 7, best a; after a: 2".into()]];
        assert_eq!(evaluation(&bad, "w", "b", |_| true), None);
    }

    #[test]
    fn base64_matches_known_values() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        // sha256("") in base64, as browsers compute CSP hashes.
        assert_eq!(csp_hash(""), "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
    }

    #[test]
    fn json_strings_cannot_close_a_script() {
        let mut s = String::new();
        json_string(&mut s, "</script><!-- \"q\" \\ & \u{2028}\u{2029}\n\u{1}");
        assert_eq!(s, "\"\\u003c/script\\u003e\\u003c!-- \\\"q\\\" \\\\ \\u0026 \\u2028\\u2029\\n\\u0001\"");
    }

    /// The boards of a page as the script joins them back.
    fn joined(parts: &Parts, json: &str) -> String {
        let v: Vec<i64> = json.trim_matches(['[', ']']).split(',').map(|x| x.parse().unwrap()).collect();
        let (mut out, mut prev) = (String::new(), 0);
        for k in v {
            if k < 0 {
                for j in prev + 1..=-k {
                    out.push_str(&parts.list[j as usize]);
                }
                prev = -k;
            } else {
                out.push_str(&parts.list[k as usize]);
                prev = k;
            }
        }
        out
    }

    #[test]
    fn boards_are_cut_into_shared_pieces_and_joined_back() {
        let mut parts = Parts::default();
        let a = "<svg a><rect/><rect/>text<g>x</g></svg>";
        let b = "<svg b><rect/><rect/>text<g>y</g></svg>";
        let (mut ja, mut jb) = (String::new(), String::new());
        parts.board(a, &mut ja);
        parts.board(b, &mut jb);
        assert_eq!(ja, "[0,-5]", "one run of new pieces: {:?}", parts.list);
        assert_eq!(parts.list[2], "<rect/>text");
        assert_eq!(jb, "[6,1,-2,7,4,-5]", "{:?}", parts.list);
        assert_eq!(joined(&parts, &ja), a);
        assert_eq!(joined(&parts, &jb), b);
    }

    #[test]
    fn the_layout_follows_the_board() {
        let s = style(716, 500);
        assert!(s.contains("#board { flex: 0 1 716px; width: 716px; max-width: 100%;"), "{s}");
        assert!(s.contains("aspect-ratio: 716 / 500;") && s.contains("max-width: 1152px;"), "{s}");
        // Nothing of a fixed width wider than a narrow window: the panel and graph shrink.
        assert!(s.contains("#panel { flex: 1 1 320px; max-width: 420px; min-width: 0; }"), "{s}");
        for part in ["#board {", "#panel {", "#notes-box {", "header {"] {
            let rule = &s[s.find(part).unwrap()..];
            assert!(!rule[..rule.find('}').unwrap()].contains("absolute"), "no fixed place for {part} {s}");
        }
        assert!(s.contains("@media (min-width: 1000px) { #board-wrap { max-width: calc(100% - 336px); } }"), "{s}");
    }

    #[test]
    fn hostile_meta_and_plies_stay_data() {
        let evil = "</script><script>document.title='pwned'</script>\"'javascript:alert(1)</svg>\u{1}\u{2028}";
        let meta = Meta {
            title: evil.into(),
            players: vec![(evil.into(), evil.into())],
            notes: vec![evil.into()],
            ply_notes: vec![vec![evil.into()]; 3],
            result: evil.into(),
            evaluation: Some(Evaluation {
                side: evil.into(),
                other: evil.into(),
                values: vec![Some(0.5), Some(0.2)],
                moves: vec![None, Some(Judged { by_side: false, loss: 0.3, mark: Some(Mark::Blunder) })],
            }),
        };
        let ply = |svg: &str| Ply {
            svg: svg.into(),
            position: evil.into(),
            label: evil.into(),
            section: Some(evil.into()),
            status: evil.into(),
            detail: evil.into(),
        };
        let shape = Shape { width: 10, height: 10, position_name: "<b>", legend: "<i>▲</i>" };
        let page = page(&meta, shape, [ply("<svg><text>a</text></svg>"), ply("<svg><text>b</text></svg>")]);
        // Exactly the page's own two script elements, and its one closing tag each.
        assert_eq!(page.matches("<script").count(), 2, "{page}");
        assert_eq!(page.matches("</script>").count(), 2);
        assert!(!page.contains("<script>document.title"));
        let data = &page[page.find("id=\"game-data\"").unwrap()..page.rfind("<script>").unwrap()];
        assert!(!page.contains('\u{1}') && !data.contains('\u{2028}'), "raw control characters");
        assert!(page.contains("senat viewer: &lt;/script&gt;"));
        assert!(page.contains("<span class=\"label\">&lt;b&gt;</span>"));
        assert!(page.contains("<div id=\"legend\" class=\"label\">&lt;i&gt;▲&lt;/i&gt;</div>"));
        // The two boards share their pieces: `</svg>` is listed once.
        assert_eq!(page.matches("\"\\u003c/svg\\u003e\"").count(), 1);
        assert!(page.contains(&csp_hash(SCRIPT)) && page.contains(&csp_hash(&style(10, 10))));
    }
}
