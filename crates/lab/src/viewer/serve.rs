//! The page of `senat serve`, the local analysis board: its HTML, its one
//! script and its style sheet, served as three files by the binary (the
//! script and the style from the server's own origin, so that the
//! Content-Security-Policy allows `'self'` only and no inline script).
//!
//! The page is the static viewer's layout ([`super::style`]: the same ids,
//! the board beside the panel, nothing wider than a 400 px window) with
//! the engine behind it: the script asks the server, in JSON, for the
//! position at a ply of a line (its picture, text, legal moves), for an
//! analysis, for an agent's reply, for a game of a file of the served
//! folder. It holds the line (the game, variant, start and moves) and
//! sends it whole with every request: the server keeps no game.
//!
//! What this module must never do: name a game (every game's texts come
//! from the server), put a text from the server into the page as markup
//! (the board SVG made by [`crate::picture`] is the only markup the script
//! inserts; every other text goes in by `textContent`), or fetch from
//! another origin.

/// The path of the page's script.
pub const SCRIPT_PATH: &str = "/serve.js";
/// The path of the page's style sheet.
pub const STYLE_PATH: &str = "/serve.css";

/// The Content-Security-Policy of every response of the server: the page's
/// own script and style from its origin, requests to its origin, the
/// board pictures inline (SVG elements, no style attribute), nothing else.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The page: its controls, empty until the script fills them. `title` is
/// shown as the window's title (escaped).
pub fn page(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>{}</title>\n<link rel=\"stylesheet\" href=\"{STYLE_PATH}\">\n</head>\n<body>\n\
<header><h1 id=\"title\">senat serve</h1><div id=\"players\"></div></header>\n\
<div id=\"main\">\n\
<div id=\"board-wrap\"><div id=\"eval-vbar\" title=\"the engine's win probability for the side to move (the light part, from the bottom)\">\
<div id=\"eval-vfill\"></div></div><div id=\"board\"></div></div>\n\
<div id=\"panel\">\n\
<div id=\"error\" role=\"alert\"></div>\n\
<details id=\"open-box\" open><summary>open</summary>\n\
<div class=\"row\"><label>game <select id=\"game\"></select></label> \
<label>variant <input id=\"variant\" size=\"12\" placeholder=\"rules\"></label></div>\n\
<div class=\"row\"><label>position <input id=\"start\" size=\"24\" placeholder=\"start\"></label> \
<button type=\"button\" id=\"new\">new game</button></div>\n\
<div class=\"row\"><label>file <select id=\"file\"></select></label> \
<label>game no. <input id=\"index\" size=\"5\" inputmode=\"numeric\" placeholder=\"0\"></label> \
<button type=\"button\" id=\"open\">open</button></div>\n\
</details>\n\
<div id=\"controls\"><button type=\"button\" id=\"first\" title=\"first (Home)\">◀◀</button> \
<button type=\"button\" id=\"prev\" title=\"previous (←)\">◀</button> \
<button type=\"button\" id=\"next\" title=\"next (→)\">▶</button> \
<button type=\"button\" id=\"last\" title=\"last (End)\">▶▶</button> <span id=\"ply\"></span></div>\n\
<input type=\"range\" id=\"slider\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"ply\">\n\
<div id=\"status\"></div><div id=\"result\"></div>\n\
<div class=\"label\">legal moves (point at one to see it on the board, click to play; or click on the board: the piece, then where it goes; the engine's best is outlined after an analysis)</div>\n\
<div id=\"legal\"></div>\n\
<div class=\"row\"><input id=\"move-text\" size=\"14\" placeholder=\"a move\" aria-label=\"move\"> \
<button type=\"button\" id=\"play\">play</button> <button type=\"button\" id=\"back\">take back</button></div>\n\
<div id=\"analysis-box\">\n\
<div class=\"row\"><button type=\"button\" id=\"analyse\">analyse from here</button> \
<label>playouts <input id=\"playouts\" size=\"6\" inputmode=\"numeric\"></label></div>\n\
<div id=\"eval-text\"></div><div id=\"pv\"></div>\n\
<table id=\"candidates\"><thead><tr><th>move</th><th>visits</th><th>value</th></tr></thead><tbody></tbody></table>\n\
<div id=\"account\" class=\"label\"></div>\n\
</div>\n\
<div class=\"row\"><label>agent <input id=\"agent\" size=\"10\" value=\"strong\"></label> \
<button type=\"button\" id=\"reply\">engine move</button> \
<label><input type=\"checkbox\" id=\"auto\"> engine replies</label></div>\n\
<div id=\"spn-box\"><span class=\"label\">position</span> <code id=\"spn\"></code></div>\n\
<div class=\"row\"><button type=\"button\" id=\"download\">download record</button></div>\n\
<ol id=\"moves\"></ol>\n\
</div>\n</div>\n\
<noscript>This analysis board needs JavaScript.</noscript>\n\
<script src=\"{SCRIPT_PATH}\"></script>\n</body>\n</html>\n",
        crate::picture::escape(title)
    )
}

/// The style sheet: the static viewer's ([`super::style`], for a board of
/// `width` pixels) and the server page's own controls.
pub fn style(width: u32, height: u32) -> String {
    let mut s = super::style(width, height);
    s.push_str(
        r#"
#board svg { aspect-ratio: auto; }
#eval-vfill { transition: height 0.2s; }
#error { color: #b71c1c; font-weight: bold; overflow-wrap: anywhere; }
#error:empty { display: none; }
.row { margin: 4px 0; display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }
.row input, .row select { max-width: 100%; min-width: 0; }
details summary { cursor: pointer; color: #555; }
#legal { display: flex; flex-wrap: wrap; gap: 3px; max-height: 140px; overflow-y: auto; margin: 4px 0; }
#legal button { font-size: 12px; padding: 1px 5px; }
#legal button.best { outline: 3px solid #2e7d32; font-weight: bold; }
#legal.picking button:not(.candidate) { display: none; }
#board svg { cursor: pointer; }
#analysis-box { border-top: 1px solid #ccc; margin-top: 6px; padding-top: 4px; }
#eval-text { font-weight: bold; }
#pv { font-size: 12px; overflow-wrap: anywhere; }
#candidates { font-size: 12px; border-collapse: collapse; margin: 4px 0; }
#candidates td, #candidates th { padding: 1px 8px 1px 0; text-align: left; }
#candidates:not(.filled) { display: none; }
#status { font-weight: bold; }
"#,
    );
    s
}

/// The page's only script: it holds the line and asks the server.
pub const SCRIPT: &str = r#"
(function () {
  'use strict';
  function $(id) { return document.getElementById(id); }
  function text(id, t) { $(id).textContent = t; }
  var line = { game: 'senat', variant: '', start: 'start', moves: [] };
  var at = 0, shown = null, info = null, busy = 0, loads = 0, analyses = 0, board = '', hover = 0;
  var picked = [], picks = [];
  function mark() {
    var b = document.body;
    b.setAttribute('data-loads', String(loads));
    b.setAttribute('data-analyses', String(analyses));
    b.setAttribute('data-busy', String(busy));
    b.setAttribute('data-picked', String(picked.length));
    b.setAttribute('data-candidates', String(picks.length));
    b.setAttribute('data-scroll-width', String(document.documentElement.scrollWidth));
  }
  function fail(e) { text('error', String(e && e.message ? e.message : e)); busy = Math.max(0, busy - 1); mark(); }
  function api(path, body) {
    busy++; mark();
    return fetch(path, {
      method: body ? 'POST' : 'GET',
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined
    }).then(function (r) {
      return r.json().then(function (j) {
        busy--; mark();
        if (!r.ok) { throw new Error(j.error ? j.error.message + ' (' + j.error.status + ')' : 'HTTP ' + r.status); }
        return j;
      });
    });
  }
  function request(extra) {
    var o = { game: line.game, variant: line.variant, start: line.start, moves: line.moves, at: at };
    for (var k in extra) { o[k] = extra[k]; }
    return o;
  }
  function clear(el) { while (el.firstChild) { el.removeChild(el.firstChild); } }
  function clearAnalysis() {
    text('eval-text', ''); text('pv', ''); text('account', '');
    clear($('candidates').tBodies[0]); $('candidates').classList.remove('filled');
    $('eval-vfill').style.height = '50%';
  }
  function saveHash() {
    var h = '#game=' + encodeURIComponent(line.game) + '&variant=' + encodeURIComponent(line.variant) +
      '&start=' + encodeURIComponent(line.start) + '&moves=' + encodeURIComponent(line.moves.join('\n')) + '&ply=' + at;
    if (location.hash !== h) { try { history.replaceState(null, '', h); } catch (e) { } }
  }
  function render(s) {
    shown = s;
    line.moves = s.moves;
    at = s.at;
    text('error', '');
    board = s.svg;
    unpick();
    showBoard(board);
    text('spn', s.position);
    text('ply', 'ply ' + at + ' / ' + s.moves.length);
    text('status', s.status);
    text('result', s.over ? s.result : '');
    text('title', s.title || ('senat serve: ' + s.game));
    var slider = $('slider');
    slider.max = String(s.moves.length); slider.value = String(at);
    var legal = $('legal'); clear(legal);
    s.legal.forEach(function (m) {
      var b = document.createElement('button');
      b.type = 'button'; b.textContent = m; b.setAttribute('data-move', m);
      b.addEventListener('click', function () { play(m); });
      b.addEventListener('mouseenter', function () { preview(m); });
      b.addEventListener('focus', function () { preview(m); });
      b.addEventListener('mouseleave', unpreview);
      b.addEventListener('blur', unpreview);
      legal.appendChild(b);
    });
    var list = $('moves'); clear(list);
    s.labels.forEach(function (label, i) {
      var li = document.createElement('li');
      var b = document.createElement('button');
      b.type = 'button'; b.textContent = label;
      if (i + 1 === at) { b.className = 'current'; }
      b.addEventListener('click', function () { go(i + 1); });
      li.appendChild(b); list.appendChild(li);
    });
    clearAnalysis();
    saveHash();
    loads++; mark();
  }
  // A legal move under the pointer (or focused): the board shows it played,
  // with its arrow or ring, until the pointer leaves.
  function preview(m) {
    var mine = ++hover;
    api('/api/state', request({ moves: line.moves.slice(0, at).concat([m]), at: at + 1 })).then(function (p) {
      if (mine === hover) { showBoard(p.svg, true); document.body.setAttribute('data-preview', m); }
    }, function () { });
  }
  function unpreview() {
    hover++;
    showBoard(board);
    document.body.removeAttribute('data-preview');
  }
  function load() { return api('/api/state', request({})).then(render); }
  // Clicks on the board. Each legal move names the regions of the picture
  // a player clicks, in order (the piece, then where it goes). A click
  // keeps the moves whose next region holds it: one left is played; where
  // several are left, their next regions are outlined and the legal moves
  // shrink to them (a face, a quarter turn: the board cannot tell).
  var SVG_NS = 'http://www.w3.org/2000/svg';
  function showBoard(svg, preview) {
    $('board').innerHTML = svg;
    if (!preview) { outline(); }
  }
  function inside(r, p) { return p.x >= r[0] && p.x <= r[0] + r[2] && p.y >= r[1] && p.y <= r[1] + r[3]; }
  function matching(points) {
    var out = [];
    shown.legal.forEach(function (m, i) {
      var rs = shown.regions[i] || [];
      if (rs.length < points.length) { return; }
      for (var k = 0; k < points.length; k++) { if (!inside(rs[k], points[k])) { return; } }
      out.push(i);
    });
    return out;
  }
  function box(svg, r, colour, dash) {
    var e = document.createElementNS(SVG_NS, 'rect');
    [['x', r[0] - 3], ['y', r[1] - 3], ['width', r[2] + 6], ['height', r[3] + 6], ['rx', 6], ['fill', 'none'],
     ['stroke', colour], ['stroke-width', 4], ['pointer-events', 'none'], ['class', 'pick']].forEach(function (a) {
      e.setAttribute(a[0], String(a[1]));
    });
    if (dash) { e.setAttribute('stroke-dasharray', '6 4'); }
    svg.appendChild(e);
  }
  function outline() {
    var svg = $('board').querySelector('svg');
    if (!svg || !shown || !picked.length) { return; }
    var first = shown.regions[picks[0]], seen = {};
    for (var k = 0; k < picked.length; k++) { box(svg, first[k], '#1565c0', false); }
    picks.forEach(function (i) {
      var r = shown.regions[i][picked.length];
      if (!r || seen[r.join()]) { return; }
      seen[r.join()] = true; box(svg, r, '#2e7d32', true);
    });
  }
  function unpick() {
    picked = []; picks = [];
    $('legal').classList.remove('picking');
  }
  function pick(points, found) {
    picked = points; picks = found;
    var set = {}; found.forEach(function (i) { set[shown.legal[i]] = true; });
    $('legal').classList.toggle('picking', points.length > 0);
    Array.prototype.forEach.call($('legal').children, function (b) {
      b.classList.toggle('candidate', !!set[b.getAttribute('data-move')]);
    });
    showBoard(board);
    mark();
  }
  $('board').addEventListener('click', function (e) {
    var svg = $('board').querySelector('svg');
    if (!shown || shown.over || !shown.regions || !svg || !svg.getScreenCTM()) { return; }
    // The board shows an analysis's best move played: a click brings back
    // the position itself, where the next clicks pick.
    if (board !== shown.svg) { board = shown.svg; pick([], []); return; }
    var pt = svg.createSVGPoint(); pt.x = e.clientX; pt.y = e.clientY;
    var p = pt.matrixTransform(svg.getScreenCTM().inverse());
    var points = picked.concat([p]), found = matching(points);
    if (!found.length && picked.length) { points = [p]; found = matching(points); }
    if (!found.length) { pick([], []); return; }
    if (found.length === 1) { var m = shown.legal[found[0]]; pick([], []); play(m); return; }
    pick(points, found);
  });
  function go(i) {
    if (!shown) { return; }
    at = Math.max(0, Math.min(shown.moves.length, i | 0));
    load().catch(fail);
  }
  function play(m) {
    line.moves = line.moves.slice(0, at).concat([m]);
    at = at + 1;
    load().then(function () {
      if ($('auto').checked && !shown.over) { return reply(); }
    }).catch(fail);
  }
  function reply() {
    return api('/api/reply', request({ agent: $('agent').value, seed: line.moves.length + 1 })).then(function (r) {
      line.moves = line.moves.slice(0, at).concat([r.move]);
      at = at + 1;
      return load();
    });
  }
  function analyse() {
    var n = parseInt($('playouts').value, 10);
    return api('/api/analyse', request({ playouts: isNaN(n) ? null : n })).then(function (a) {
      if (a.at !== at || !shown) { return; }
      board = a.svg;
      unpick();
      showBoard(board);
      var w = a.win === null ? 'no probability from this agent' :
        (shown.to_move || 'the mover') + ' wins ' + a.win.toFixed(3) +
        (a.lo === null ? '' : ' (95 % ' + a.lo.toFixed(3) + '–' + a.hi.toFixed(3) + ')') +
        (a.proof ? ', ' + a.proof : '');
      text('eval-text', 'best ' + a.best + ': ' + w);
      $('eval-vfill').style.height = (a.win === null ? 50 : 100 * a.win) + '%';
      text('pv', 'line: ' + a.line.join(' '));
      text('account', a.agent + (a.account ? ' · ' + a.account : '') + ' · ' + a.ms + ' ms');
      var body = $('candidates').tBodies[0]; clear(body);
      a.candidates.forEach(function (c) {
        var tr = document.createElement('tr');
        [c.move, String(c.visits), c.value.toFixed(3)].forEach(function (t) {
          var td = document.createElement('td'); td.textContent = t; tr.appendChild(td);
        });
        body.appendChild(tr);
      });
      if (a.candidates.length) { $('candidates').classList.add('filled'); }
      Array.prototype.forEach.call($('legal').children, function (b) {
        b.classList.toggle('best', b.getAttribute('data-move') === a.best);
      });
      analyses++; mark();
    });
  }
  function fromHash() {
    var h = location.hash.replace(/^#/, ''), found = false;
    h.split('&').forEach(function (kv) {
      var i = kv.indexOf('='); if (i < 0) { return; }
      var k = kv.slice(0, i), v = decodeURIComponent(kv.slice(i + 1));
      if (k === 'game') { line.game = v; found = true; }
      else if (k === 'variant') { line.variant = v; }
      else if (k === 'start') { line.start = v || 'start'; }
      else if (k === 'moves') { line.moves = v ? v.split('\n') : []; }
      else if (k === 'ply') { at = parseInt(v, 10) || 0; }
    });
    if (found) { at = Math.min(at, line.moves.length); }
    return found;
  }
  $('first').addEventListener('click', function () { go(0); });
  $('prev').addEventListener('click', function () { go(at - 1); });
  $('next').addEventListener('click', function () { go(at + 1); });
  $('last').addEventListener('click', function () { go(shown ? shown.moves.length : 0); });
  $('slider').addEventListener('change', function () { go(parseInt($('slider').value, 10)); });
  $('play').addEventListener('click', function () { var m = $('move-text').value.trim(); if (m) { play(m); } });
  $('back').addEventListener('click', function () {
    if (!line.moves.length) { return; }
    line.moves = line.moves.slice(0, line.moves.length - 1);
    at = Math.min(at, line.moves.length);
    load().catch(fail);
  });
  $('analyse').addEventListener('click', function () { analyse().catch(fail); });
  $('reply').addEventListener('click', function () { reply().catch(fail); });
  $('new').addEventListener('click', function () {
    line = { game: $('game').value, variant: $('variant').value.trim(), start: $('start').value.trim() || 'start', moves: [] };
    at = 0; load().catch(fail);
  });
  $('open').addEventListener('click', function () {
    var f = $('file').value;
    if (f === '') { fail('no file to open in the served folder'); return; }
    var n = parseInt($('index').value, 10);
    api('/api/open', { file: parseInt(f, 10), index: isNaN(n) ? null : n, game: $('game').value }).then(function (g) {
      line = { game: g.game, variant: g.variant, start: g.start, moves: g.moves };
      at = 0; $('game').value = g.game;
      return load().then(function () { text('title', g.title); text('players', g.players); });
    }).catch(fail);
  });
  $('download').addEventListener('click', function () {
    if (!shown) { return; }
    var a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([shown.record], { type: 'text/plain' }));
    a.download = shown.game + '-record.txt';
    document.body.appendChild(a); a.click(); document.body.removeChild(a);
  });
  document.addEventListener('keydown', function (e) {
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT')) { return; }
    if (e.key === 'Escape' && picked.length) { pick([], []); return; }
    var k = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: shown ? shown.moves.length : 0 }[e.key];
    if (k !== undefined) { e.preventDefault(); go(k); }
  });
  window.addEventListener('resize', mark);
  api('/api/catalog').then(function (c) {
    info = c;
    c.games.forEach(function (g) {
      var o = document.createElement('option'); o.value = g; o.textContent = g; $('game').appendChild(o);
    });
    var none = document.createElement('option'); none.value = ''; none.textContent = c.files.length ? '(choose)' : '(none)';
    $('file').appendChild(none);
    c.files.forEach(function (f) {
      var o = document.createElement('option'); o.value = String(f.i);
      o.textContent = f.name + (f.game ? ' (' + f.game + ' batch)' : ''); $('file').appendChild(o);
    });
    $('playouts').value = String(c.default_playouts);
    $('playouts').title = 'at most ' + c.max_playouts;
    var fromLink = fromHash();
    $('game').value = line.game;
    return load().catch(function (e) {
      // A link whose line does not play: its game's start instead, the reason shown.
      if (!fromLink) { throw e; }
      line = { game: line.game, variant: '', start: 'start', moves: [] }; at = 0;
      return load().then(function () { fail(e); });
    });
  }).catch(fail);
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_has_no_inline_script_and_escapes_its_title() {
        let p = page("</title><script>alert(1)</script>");
        assert_eq!(p.matches("<script").count(), 1, "{p}");
        assert!(p.contains(&format!("<script src=\"{SCRIPT_PATH}\"></script>")));
        assert!(p.contains("&lt;/title&gt;"));
        assert!(!p.contains(" style=") && !p.contains("onclick"), "no inline style or handler: {p}");
        assert!(!SCRIPT.contains("eval(") && !SCRIPT.contains("new Function"));
        assert!(CSP.contains("script-src 'self'") && !CSP.contains("unsafe"));
    }
}
