//! The game viewer: one self-contained HTML page that steps through a game.
//!
//! The page holds, for every ply, the board picture of [`crate::picture`]
//! and the position's SPN and caption, as JSON inside a
//! `<script type="application/json">` element, and one inline script that
//! shows them: buttons, arrow keys, a slider, a clickable move list, the
//! SPN with a copy button, and the result at the last ply. `#ply=N` in the
//! URL opens ply N and follows the shown ply.
//!
//! Safe by construction: every text taken from the game (names, notes,
//! moves) reaches the page either HTML-escaped or as JSON whose `<`, `>`,
//! `&`, U+2028 and U+2029 are `\u` escapes (so `</script>` in a note cannot
//! close the data element), and the script puts it in the page with
//! `textContent` only. The board SVG, made here, is the only markup the
//! script inserts. A Content-Security-Policy allows no network at all and
//! only the page's own script and style, by their SHA-256 hashes.

use crate::picture::{self, Frame, escape};
use senat_rules::game::GameRecord;
use senat_rules::moves::Move;
use senat_rules::position::Position;
use sha2::{Digest, Sha256};
use std::fmt::Write;

/// What the page shows besides the moves: all of it may come from outside.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    /// A title (the record's file name, or `games.csv game 12`).
    pub title: String,
    /// Red's player, if known (an agent name).
    pub red: Option<String>,
    /// Blue's player, if known.
    pub blue: Option<String>,
    /// Notes of the whole game (a record's comments before its first move).
    pub notes: Vec<String>,
    /// Notes by ply: `ply_notes[i]` is shown with ply `i` (after move `i`).
    pub ply_notes: Vec<Vec<String>>,
    /// The result line shown at the last ply.
    pub result: String,
}

/// One shown ply: the position after `ply` moves.
#[derive(Clone, Debug)]
pub struct Step {
    /// The position.
    pub position: Position,
    /// The move that led to it (none at ply 0).
    pub last: Option<Move>,
}

/// The positions of a game, ply 0 (its start) to its last.
pub fn steps(game: &GameRecord) -> Vec<Step> {
    let mut p = *game.start();
    let mut v = vec![Step { position: p, last: None }];
    for &m in game.moves() {
        p.play_unchecked(m);
        v.push(Step { position: p, last: Some(m) });
    }
    v
}

/// A move's label in the move list: `12. blue M13>M14:I19`.
pub fn move_label(ply: usize, mover: senat_rules::dice::Side, m: Move) -> String {
    format!("{ply}. {mover} {m}")
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
/// into the page as markup, except the board SVG made by `picture`.
pub const SCRIPT: &str = r#"
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('game-data').textContent);
  var steps = data.steps, last = steps.length - 1, cur = -1, items = [];
  function $(id) { return document.getElementById(id); }
  function text(id, t) { $(id).textContent = t; }
  function fill(list, lines) {
    while (list.firstChild) { list.removeChild(list.firstChild); }
    lines.forEach(function (t) { var li = document.createElement('li'); li.textContent = t; list.appendChild(li); });
  }
  text('title', data.title);
  text('players', data.players);
  fill($('game-notes'), data.notes);
  var list = $('moves');
  steps.forEach(function (s, i) {
    if (s.section) { var h = document.createElement('li'); h.className = 'section'; h.textContent = s.section; list.appendChild(h); }
    var li = document.createElement('li');
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = i === 0 ? 'start' : s.label;
    b.addEventListener('click', function () { show(i); });
    li.appendChild(b);
    list.appendChild(li);
    items.push(b);
  });
  var slider = $('slider');
  slider.max = String(last);
  function show(i) {
    i = Math.max(0, Math.min(last, i | 0));
    if (i === cur) { return; }
    if (cur >= 0) { items[cur].classList.remove('current'); }
    cur = i;
    var s = steps[i];
    $('board').innerHTML = s.svg;
    text('spn', s.spn);
    text('ply', 'ply ' + i + ' / ' + last);
    text('move', i === 0 ? 'start' : s.label);
    text('status', s.status);
    text('detail', s.detail);
    fill($('ply-notes'), s.notes);
    text('result', i === last ? data.result : '');
    slider.value = String(i);
    items[i].classList.add('current');
    if (items[i].scrollIntoView) { items[i].scrollIntoView({ block: 'nearest' }); }
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
  document.body.setAttribute('data-ready', 'yes');
})();
"#;

/// The page's only style sheet. The board is at a fixed place (16 px from
/// the left, 64 px from the top, at its natural size), so that a test can
/// find the pixels of a die in a screenshot.
pub const STYLE: &str = r#"
body { margin: 0; font-family: "DejaVu Sans", Verdana, sans-serif; background: #f7f3ea; color: #222; }
header { position: absolute; left: 16px; top: 8px; right: 16px; height: 52px; overflow: hidden; }
h1 { font-size: 18px; margin: 4px 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#players { font-size: 13px; color: #555; }
#board { position: absolute; left: 16px; top: 64px; width: 716px; height: 500px; }
#board svg { display: block; }
#panel { position: absolute; left: 748px; top: 64px; width: 420px; }
#controls button { font-size: 16px; min-width: 44px; }
#slider { width: 100%; margin: 8px 0; }
#spn-box { font-size: 12px; background: #fff; border: 1px solid #ccc; padding: 4px 6px; margin: 6px 0; word-break: break-all; }
#spn { user-select: all; }
#moves { list-style: none; padding: 0; margin: 6px 0; max-height: 300px; overflow-y: auto; border: 1px solid #ccc; background: #fff; display: grid; grid-template-columns: 1fr 1fr; align-content: start; }
#moves li.section { font-weight: bold; padding: 2px 6px; grid-column: 1 / -1; background: #eee; }
#moves button { border: none; background: none; font: inherit; font-size: 12px; padding: 1px 6px; cursor: pointer; text-align: left; width: 100%; }
#moves button.current { background: #ffd54f; font-weight: bold; }
#result { font-weight: bold; font-size: 16px; color: #2e7d32; margin: 6px 0; }
#notes-box { position: absolute; left: 16px; top: 576px; width: 1152px; font-size: 13px; }
#notes-box ul { margin: 2px 0; padding-left: 20px; white-space: pre-wrap; }
.label { color: #666; font-size: 12px; }
"#;

/// Builds the page of a finished (or unfinished) game.
pub fn html(game: &GameRecord, meta: &Meta) -> String {
    let steps = steps(game);
    let mut data = String::with_capacity(steps.len() * 12 * 1024);
    data.push_str("{\"title\":");
    json_string(&mut data, &meta.title);
    let players = match (&meta.red, &meta.blue) {
        (None, None) => String::new(),
        (r, b) => format!("red: {} · blue: {}", r.as_deref().unwrap_or("?"), b.as_deref().unwrap_or("?")),
    };
    data.push_str(",\"players\":");
    json_string(&mut data, &players);
    data.push_str(",\"notes\":");
    json_list(&mut data, &meta.notes);
    data.push_str(",\"result\":");
    json_string(&mut data, &meta.result);
    data.push_str(",\"steps\":[");
    let mut previous_phase_play = None;
    for (i, s) in steps.iter().enumerate() {
        if i > 0 {
            data.push(',');
        }
        let p = &s.position;
        let label = match s.last {
            Some(m) => {
                let mover = steps[i - 1].position.side_to_move();
                move_label(i, mover, m)
            }
            None => String::new(),
        };
        let note = (i > 0).then(|| label.clone());
        let svg = picture::svg(&Frame { position: p, last: s.last, note: note.as_deref() });
        data.push_str("{\"spn\":");
        json_string(&mut data, &p.to_spn());
        data.push_str(",\"label\":");
        json_string(&mut data, &label);
        // A heading before the first move of each phase.
        if i > 0 {
            let play = steps[i - 1].position.is_play();
            if previous_phase_play != Some(play) {
                data.push_str(",\"section\":");
                json_string(&mut data, if play { "play" } else { "draft" });
            }
            previous_phase_play = Some(play);
        }
        data.push_str(",\"status\":");
        json_string(&mut data, &picture::status_line(p));
        data.push_str(",\"detail\":");
        json_string(&mut data, &picture::detail_line(p));
        data.push_str(",\"notes\":");
        json_list(&mut data, meta.ply_notes.get(i).map_or(&[][..], |v| &v[..]));
        data.push_str(",\"svg\":");
        json_string(&mut data, &svg);
        data.push('}');
    }
    data.push_str("]}");

    let csp = format!(
        "default-src 'none'; script-src {}; style-src {}; img-src data:; base-uri 'none'; form-action 'none'",
        csp_hash(SCRIPT),
        csp_hash(STYLE)
    );
    let mut s = String::with_capacity(data.len() + 8 * 1024);
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n\
<meta name=\"viewport\" content=\"width=device-width\">\n\
<title>senat viewer: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
<header><h1 id=\"title\"></h1><div id=\"players\"></div></header>\n\
<div id=\"board\"></div>\n\
<div id=\"panel\">\n\
<div id=\"controls\"><button type=\"button\" id=\"first\" title=\"first (Home)\">◀◀</button> \
<button type=\"button\" id=\"prev\" title=\"previous (←)\">◀</button> \
<button type=\"button\" id=\"next\" title=\"next (→)\">▶</button> \
<button type=\"button\" id=\"last\" title=\"last (End)\">▶▶</button> <span id=\"ply\"></span></div>\n\
<input type=\"range\" id=\"slider\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"ply\">\n\
<div><span class=\"label\">move</span> <span id=\"move\"></span></div>\n\
<div id=\"status\"></div><div id=\"detail\" class=\"label\"></div>\n\
<div id=\"result\"></div>\n\
<div id=\"spn-box\"><span class=\"label\">SPN</span> <code id=\"spn\"></code> \
<button type=\"button\" id=\"copy\">copy</button> <span id=\"copied\" class=\"label\"></span></div>\n\
<ol id=\"moves\"></ol>\n</div>\n\
<div id=\"notes-box\"><div class=\"label\">notes of this ply</div><ul id=\"ply-notes\"></ul>\
<div class=\"label\">notes of the game</div><ul id=\"game-notes\"></ul></div>\n\
<noscript>This viewer needs JavaScript; the positions are in the data below.</noscript>\n\
<script type=\"application/json\" id=\"game-data\">{data}</script>\n\
<script>{SCRIPT}</script>\n</body>\n</html>\n",
        escape(&meta.title)
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use senat_rules::sample;

    fn sample_game() -> GameRecord {
        let mut g = GameRecord::new(sample::START.parse().unwrap());
        for line in sample::record_lines().skip(1) {
            let m = g.position().parse_move(line).unwrap();
            g.play(m).unwrap();
        }
        g
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

    #[test]
    fn hostile_meta_stays_data() {
        let g = sample_game();
        let evil = "</script><script>document.title='pwned'</script>\"'javascript:alert(1)</svg>";
        let meta = Meta {
            title: evil.into(),
            red: Some(evil.into()),
            blue: Some(evil.into()),
            notes: vec![evil.into()],
            ply_notes: vec![vec![evil.into()]; 3],
            result: evil.into(),
        };
        let page = html(&g, &meta);
        // Exactly the page's own two script elements, and its one closing tag each.
        assert_eq!(page.matches("<script").count(), 2, "{page}");
        assert_eq!(page.matches("</script>").count(), 2);
        assert!(!page.contains("<script>document.title"));
        assert!(page.contains("senat viewer: &lt;/script&gt;"));
        // One board picture per ply, each with its own closing tag.
        assert_eq!(page.matches("\\u003c/svg\\u003e").count(), g.moves().len() + 1 + 8);
    }

    #[test]
    fn every_ply_is_in_the_page() {
        let g = sample_game();
        let page = html(&g, &Meta::default());
        for s in steps(&g) {
            let mut spn = String::new();
            json_string(&mut spn, &s.position.to_spn());
            assert!(page.contains(&format!("{{\"spn\":{spn}")), "{spn}");
        }
        assert!(page.contains(&csp_hash(SCRIPT)));
    }
}
