//! The opening explorer: games aggregated by their first moves, lichess's
//! explorer for batches. Each game adds its first `depth` moves as a path
//! from the root of a tree; every node counts its games and the first
//! player's points (a win 1, a draw ½), in all and by pairing (the agents
//! as the batch file names them), so the page can filter by the agents.
//! A page ([`Explorer::page`]) and a CSV ([`Explorer::csv`]) show the
//! nodes with enough games ([`Explorer::threshold`]): at each prefix, every
//! next move with its games and the first player's score with its 95%
//! Wilson interval (draws counting half: conservative).
//!
//! Memory grows with the distinct prefixes, not with the games: the games
//! are streamed in ([`Explorer::add`]) and never kept.
//!
//! What this module must never do: name a game, play a move (the catalog
//! replays the games, [`crate::catalog::explore`]), read or write a file, or
//! put outside text into the page as markup (moves and names reach it as
//! JSON that the script shows with `textContent` only, as the viewer's).

use crate::stats::wilson_share;
use crate::viewer::{csp_hash, json_string};
use ahash::AHashMap;
use std::fmt::Write as _;

/// The tree of openings.
#[derive(Clone, Debug)]
pub struct Explorer {
    depth: usize,
    moves: Vec<String>,
    move_ids: AHashMap<String, u32>,
    nodes: Vec<Node>,
    children: AHashMap<(u32, u32), u32>,
    pairings: Vec<String>,
    pairing_ids: AHashMap<String, u32>,
    /// (node, pairing) → (games, half points), for every pairing but the
    /// first, whose counts are the node's less the others' (one pairing,
    /// the usual batch, then costs nothing).
    by_pairing: AHashMap<(u32, u32), (u64, u64)>,
}

/// One prefix: the move that led to it and its counts.
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    mv: u32,
    games: u64,
    /// The first player's points, in halves.
    halves: u64,
}

/// The number of `text` in `names` (added if new), found by `ids`.
fn intern(names: &mut Vec<String>, ids: &mut AHashMap<String, u32>, text: &str) -> u32 {
    if let Some(&id) = ids.get(text) {
        return id;
    }
    let id = names.len() as u32;
    names.push(text.to_string());
    ids.insert(text.to_string(), id);
    id
}

/// What the page says besides the tree.
#[derive(Clone, Debug, Default)]
pub struct PageMeta {
    /// The game (`senat`, `focus`…) and its variant, as the title shows it.
    pub title: String,
    /// The first player, whose score the page shows (`blue`, `white`).
    pub first: String,
    /// The files the games came from.
    pub files: Vec<String>,
    /// How the page was made (a command line).
    pub command: String,
}

/// The CSV columns of [`Explorer::csv`].
pub const CSV_HEADER: [&str; 9] =
    ["pairing", "ply", "prefix", "move", "games", "first_points", "first_score", "score_low", "score_high"];

impl Explorer {
    /// An empty tree keeping the first `depth` moves of each game.
    pub fn new(depth: usize) -> Explorer {
        Explorer {
            depth,
            moves: Vec::new(),
            move_ids: AHashMap::new(),
            nodes: vec![Node { parent: u32::MAX, mv: u32::MAX, games: 0, halves: 0 }],
            children: AHashMap::new(),
            pairings: Vec::new(),
            pairing_ids: AHashMap::new(),
            by_pairing: AHashMap::new(),
        }
    }

    /// The moves kept of each game.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Games added.
    pub fn games(&self) -> u64 {
        self.nodes[0].games
    }

    /// Prefixes held (the root included).
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Adds a game: its moves (only the first [`Explorer::depth`] are
    /// kept), its pairing's name, and the first player's points in halves
    /// (0 a loss, 1 a draw, 2 a win; more is read as 2).
    pub fn add<S: AsRef<str>>(&mut self, moves: &[S], pairing: &str, halves: u8) {
        let halves = u64::from(halves.min(2));
        let p = intern(&mut self.pairings, &mut self.pairing_ids, pairing);
        let mut node = 0u32;
        self.count(node, p, halves);
        for m in moves.iter().take(self.depth) {
            let mv = intern(&mut self.moves, &mut self.move_ids, m.as_ref());
            node = match self.children.get(&(node, mv)) {
                Some(&c) => c,
                None => {
                    let c = self.nodes.len() as u32;
                    self.nodes.push(Node { parent: node, mv, games: 0, halves: 0 });
                    self.children.insert((node, mv), c);
                    c
                }
            };
            self.count(node, p, halves);
        }
    }

    fn count(&mut self, node: u32, pairing: u32, halves: u64) {
        let n = &mut self.nodes[node as usize];
        n.games += 1;
        n.halves += halves;
        if pairing > 0 {
            let e = self.by_pairing.entry((node, pairing)).or_default();
            e.0 += 1;
            e.1 += halves;
        }
    }

    /// The games and half points of `pairing` at node `i` (`None`: none).
    fn of_pairing(&self, i: usize, pairing: usize) -> Option<(u64, u64)> {
        let (g, h) = if pairing == 0 {
            let n = self.nodes[i];
            (1..self.pairings.len()).fold((n.games, n.halves), |(g, h), p| {
                let (pg, ph) = self.by_pairing.get(&(i as u32, p as u32)).copied().unwrap_or_default();
                (g - pg, h - ph)
            })
        } else {
            self.by_pairing.get(&(i as u32, pairing as u32)).copied().unwrap_or_default()
        };
        (g > 0).then_some((g, h))
    }

    /// The smallest game count a shown node needs: `min_games` if given,
    /// else the smallest that keeps at most `max_nodes` prefixes (a child
    /// never has more games than its parent, so the nodes kept always
    /// reach the root).
    pub fn threshold(&self, min_games: Option<u64>, max_nodes: usize) -> u64 {
        if let Some(m) = min_games {
            return m.max(1);
        }
        let mut counts: Vec<u64> = self.nodes.iter().map(|n| n.games).collect();
        if counts.len() <= max_nodes {
            return 1;
        }
        counts.sort_unstable_by(|a, b| b.cmp(a));
        // Every node with more games than the first one left out.
        counts[max_nodes.max(1)] + 1
    }

    /// The nodes shown at `threshold`, in the order of the tree (parents
    /// first), as indices.
    fn kept(&self, threshold: u64) -> Vec<usize> {
        (0..self.nodes.len()).filter(|&i| i == 0 || self.nodes[i].games >= threshold).collect()
    }

    /// The moves from the root to node `i`.
    fn path(&self, mut i: usize) -> Vec<&str> {
        let mut path = Vec::new();
        while i != 0 {
            let n = self.nodes[i];
            path.push(self.moves[n.mv as usize].as_str());
            i = n.parent as usize;
        }
        path.reverse();
        path
    }

    /// The tree as CSV ([`CSV_HEADER`]): every node shown at `threshold`
    /// but the root, first over all games (`pairing` `all`), then by
    /// pairing where there are several; the prefix its earlier moves
    /// between spaces.
    pub fn csv(&self, threshold: u64, notes: &[String]) -> Vec<u8> {
        let mut out = Vec::new();
        for n in notes {
            out.extend_from_slice(format!("# {n}\n").as_bytes());
        }
        let mut w = csv::Writer::from_writer(out);
        let f = |x: f64| format!("{x:.6}");
        let write = |w: &mut csv::Writer<Vec<u8>>, pairing: &str, i: usize, games: u64, halves: u64| {
            let path = self.path(i);
            let (last, prefix) = path.split_last().expect("not the root");
            let p = halves as f64 / 2.0 / games as f64;
            let (lo, hi) = wilson_share(p, games);
            w.write_record([
                pairing.to_string(),
                path.len().to_string(),
                prefix.join(" "),
                last.to_string(),
                games.to_string(),
                format!("{}", halves as f64 / 2.0),
                f(p),
                f(lo),
                f(hi),
            ])
            .expect("a CSV row to memory");
        };
        w.write_record(CSV_HEADER).expect("a CSV row to memory");
        let kept = self.kept(threshold);
        for &i in kept.iter().skip(1) {
            write(&mut w, "all", i, self.nodes[i].games, self.nodes[i].halves);
        }
        if self.pairings.len() > 1 {
            for (p, name) in self.pairings.iter().enumerate() {
                for &i in kept.iter().skip(1) {
                    if let Some((g, h)) = self.of_pairing(i, p) {
                        write(&mut w, name, i, g, h);
                    }
                }
            }
        }
        w.into_inner().expect("a CSV to memory")
    }

    /// The page: the nodes shown at `threshold` as JSON in a data element,
    /// the script that walks them, no network, the script and the style
    /// allowed by their hashes only.
    pub fn page(&self, meta: &PageMeta, threshold: u64) -> String {
        let kept = self.kept(threshold);
        let mut index = vec![u32::MAX; self.nodes.len()];
        for (k, &i) in kept.iter().enumerate() {
            index[i] = k as u32;
        }
        // The moves that kept nodes use, renumbered.
        let mut move_index: AHashMap<u32, usize> = AHashMap::new();
        let mut moves: Vec<&str> = Vec::new();
        let mut data = String::from("{\"title\":");
        json_string(&mut data, &meta.title);
        data.push_str(",\"first\":");
        json_string(&mut data, &meta.first);
        data.push_str(",\"command\":");
        json_string(&mut data, &meta.command);
        let _ = write!(data, ",\"depth\":{},\"threshold\":{threshold},\"files\":[", self.depth);
        for (k, f) in meta.files.iter().enumerate() {
            if k > 0 {
                data.push(',');
            }
            json_string(&mut data, f);
        }
        data.push_str("],\"pairings\":[");
        for (k, p) in self.pairings.iter().enumerate() {
            if k > 0 {
                data.push(',');
            }
            json_string(&mut data, p);
        }
        // Each node: parent, move, games, halves, then (pairing, games,
        // halves) for each pairing that played it.
        let mut nodes = String::from("[");
        let several = self.pairings.len() > 1;
        for (k, &i) in kept.iter().enumerate() {
            let n = self.nodes[i];
            let (parent, mv) = if i == 0 {
                (-1i64, -1i64)
            } else {
                let next = moves.len();
                let m = *move_index.entry(n.mv).or_insert_with(|| {
                    moves.push(&self.moves[n.mv as usize]);
                    next
                });
                (i64::from(index[n.parent as usize]), m as i64)
            };
            if k > 0 {
                nodes.push(',');
            }
            let _ = write!(nodes, "[{parent},{mv},{},{}", n.games, n.halves);
            if several {
                for p in 0..self.pairings.len() {
                    if let Some((g, h)) = self.of_pairing(i, p) {
                        let _ = write!(nodes, ",{p},{g},{h}");
                    }
                }
            }
            nodes.push(']');
        }
        nodes.push(']');
        data.push_str("],\"moves\":[");
        for (k, m) in moves.iter().enumerate() {
            if k > 0 {
                data.push(',');
            }
            json_string(&mut data, m);
        }
        data.push_str("],\"nodes\":");
        data.push_str(&nodes);
        data.push('}');
        let csp = format!(
            "default-src 'none'; script-src {}; style-src {}; img-src 'none'; base-uri 'none'; form-action 'none'",
            csp_hash(EXPLORER_SCRIPT),
            csp_hash(EXPLORER_STYLE)
        );
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>senat explorer</title>\n<style>{EXPLORER_STYLE}</style>\n</head>\n<body>\n\
<header><h1 id=\"title\"></h1><div id=\"about\" class=\"label\"></div></header>\n\
<div id=\"filter-row\"><label for=\"filter\">agents</label> <select id=\"filter\"></select></div>\n\
<nav id=\"path\" aria-label=\"moves so far\"></nav>\n\
<div id=\"here\"></div>\n\
<table id=\"next\"><thead><tr><th>move</th><th>games</th><th>share</th><th id=\"score-head\">score</th></tr></thead>\
<tbody></tbody></table>\n\
<div id=\"note\" class=\"label\"></div>\n\
<script type=\"application/json\" id=\"data\">{data}</script>\n\
<script>{EXPLORER_SCRIPT}</script>\n</body>\n</html>\n"
        )
    }
}

/// The page's style.
const EXPLORER_STYLE: &str = "
body { font-family: system-ui, sans-serif; margin: 12px; color: #222; max-width: 900px; }
h1 { font-size: 18px; margin: 0 0 4px 0; overflow-wrap: anywhere; }
.label { color: #666; font-size: 12px; overflow-wrap: anywhere; }
#filter-row { margin: 8px 0; }
#filter { max-width: 100%; }
#path { margin: 8px 0; line-height: 2; overflow-wrap: anywhere; }
#path button, #next button { font: inherit; border: 1px solid #bbb; background: #f6f6f6; border-radius: 3px; padding: 1px 6px; cursor: pointer; }
#here { margin: 6px 0; font-size: 14px; }
#next { border-collapse: collapse; width: 100%; font-size: 14px; }
#next th, #next td { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eee; }
#next td.n { text-align: right; white-space: nowrap; }
.bar { display: inline-block; height: 8px; background: #2b8cc4; vertical-align: middle; margin-right: 4px; }
.ci { color: #666; font-size: 12px; white-space: nowrap; }
";

/// The page's only script: it reads the data element and shows it with
/// `textContent` only.
const EXPLORER_SCRIPT: &str = r#"
(function () {
  'use strict';
  var d = JSON.parse(document.getElementById('data').textContent);
  var kids = d.nodes.map(function () { return []; });
  d.nodes.forEach(function (n, i) { if (n[0] >= 0) kids[n[0]].push(i); });
  var at = 0, filter = -1;
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function counts(i) {
    var n = d.nodes[i];
    if (filter < 0) return [n[2], n[3]];
    for (var k = 4; k + 2 < n.length; k += 3) if (n[k] === filter) return [n[k + 1], n[k + 2]];
    return [0, 0];
  }
  function wilson(p, n) {
    if (n === 0) return [0, 1];
    var z = 1.959963984540054, den = 1 + z * z / n;
    var c = (p + z * z / (2 * n)) / den;
    var h = z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den;
    return [Math.max(0, c - h), Math.min(1, c + h)];
  }
  function pct(x) { return (100 * x).toFixed(1); }
  function score(c) {
    if (c[0] === 0) return '-';
    return pct(c[1] / 2 / c[0]) + '%';
  }
  function interval(c) {
    if (c[0] === 0) return '';
    var w = wilson(c[1] / 2 / c[0], c[0]);
    return ' [' + pct(w[0]) + ', ' + pct(w[1]) + ']';
  }
  function line(i) {
    var p = [];
    while (i > 0) { p.push(i); i = d.nodes[i][0]; }
    return p.reverse();
  }
  function show() {
    var path = document.getElementById('path');
    path.textContent = '';
    var root = el('button', 'start');
    root.type = 'button';
    root.onclick = function () { at = 0; show(); };
    path.appendChild(root);
    line(at).forEach(function (i, k) {
      path.appendChild(document.createTextNode(' ' + (k + 1) + '. '));
      var b = el('button', d.moves[d.nodes[i][1]]);
      b.type = 'button';
      b.onclick = function () { at = i; show(); };
      path.appendChild(b);
    });
    var c = counts(at);
    document.getElementById('here').textContent = c[0] + ' games here; ' + d.first + ' scores ' + score(c) + interval(c);
    var body = document.querySelector('#next tbody');
    body.textContent = '';
    var rows = kids[at].map(function (i) { return [i, counts(i)]; }).filter(function (r) { return r[1][0] > 0; });
    rows.sort(function (a, b) { return b[1][0] - a[1][0]; });
    rows.forEach(function (r) {
      var tr = el('tr');
      var td = el('td');
      var b = el('button', d.moves[d.nodes[r[0]][1]]);
      b.type = 'button';
      b.onclick = function () { at = r[0]; show(); };
      td.appendChild(b);
      tr.appendChild(td);
      tr.appendChild(el('td', String(r[1][0]), 'n'));
      tr.appendChild(el('td', pct(r[1][0] / Math.max(1, c[0])) + '%', 'n'));
      var s = el('td');
      var bar = el('span', '', 'bar');
      bar.style.width = Math.round(60 * r[1][1] / 2 / r[1][0]) + 'px';
      s.appendChild(bar);
      s.appendChild(document.createTextNode(score(r[1])));
      s.appendChild(el('span', interval(r[1]), 'ci'));
      tr.appendChild(s);
      body.appendChild(tr);
    });
    var note = document.getElementById('note');
    if (rows.length === 0) {
      note.textContent = line(at).length >= d.depth ? 'the explorer keeps the first ' + d.depth + ' moves of each game'
        : 'no next move with at least ' + d.threshold + (d.threshold === 1 ? ' game' : ' games');
    } else {
      note.textContent = 'moves with at least ' + d.threshold + (d.threshold === 1 ? ' game' : ' games') + '; score: ' + d.first +
        "'s points (a draw counts half) with a 95% Wilson interval";
    }
  }
  document.getElementById('title').textContent = d.title;
  document.getElementById('about').textContent = d.nodes[0][2] + ' games from ' + d.files.join(', ') +
    '; the first ' + d.depth + ' moves of each; made by: ' + d.command;
  document.getElementById('score-head').textContent = d.first + "'s score";
  var sel = document.getElementById('filter');
  var all = el('option', 'all agents');
  all.value = '-1';
  sel.appendChild(all);
  d.pairings.forEach(function (p, k) { var o = el('option', p); o.value = String(k); sel.appendChild(o); });
  if (d.pairings.length < 2) sel.disabled = true;
  sel.onchange = function () { filter = Number(sel.value); show(); };
  show();
  document.body.setAttribute('data-ready', 'yes');
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Explorer {
        let mut e = Explorer::new(2);
        e.add(&["a", "b", "c"], "x vs y", 2);
        e.add(&["a", "b"], "x vs y", 0);
        e.add(&["a", "c"], "y vs x", 1);
        e.add(&["d"], "y vs x", 2);
        e
    }

    #[test]
    fn prefixes_count_their_games_and_points_up_to_the_depth() {
        let e = tree();
        assert_eq!((e.games(), e.nodes()), (4, 5), "root, a, a b, a c, d");
        let a = e.children[&(0, e.move_ids["a"])] as usize;
        assert_eq!((e.nodes[a].games, e.nodes[a].halves), (3, 3));
        let ab = e.children[&(a as u32, e.move_ids["b"])] as usize;
        assert_eq!((e.nodes[ab].games, e.nodes[ab].halves), (2, 2));
        assert!(!e.move_ids.contains_key("c") || !e.children.contains_key(&(ab as u32, e.move_ids["c"])), "depth 2");
        assert_eq!(e.of_pairing(a, e.pairing_ids["y vs x"] as usize), Some((1, 1)));
        assert_eq!(
            e.of_pairing(a, e.pairing_ids["x vs y"] as usize),
            Some((2, 2)),
            "the first: the node less the others"
        );
        assert_eq!(e.of_pairing(ab, e.pairing_ids["y vs x"] as usize), None);
        assert_eq!(e.path(ab), vec!["a", "b"]);
    }

    #[test]
    fn the_threshold_keeps_at_most_the_nodes_asked_and_reaches_the_root() {
        let e = tree();
        assert_eq!(e.threshold(None, 100), 1);
        // Counts: root 4, a 3, a b 2, a c 1, d 1: at most 3 nodes keeps those with 2 games or more.
        assert_eq!(e.threshold(None, 3), 2);
        assert_eq!(e.kept(2).len(), 3);
        assert_eq!(e.threshold(Some(0), 3), 1);
        let csv = String::from_utf8(e.csv(2, &["made by a test".into()])).unwrap();
        let rows: Vec<&str> = csv.lines().collect();
        assert_eq!(rows[0], "# made by a test");
        assert_eq!(rows[1], CSV_HEADER.join(","));
        assert_eq!(rows[2], "all,1,,a,3,1.5,0.500000,0.125334,0.874666", "{csv}");
        assert_eq!(rows[3], "all,2,a,b,2,1,0.500000,0.094531,0.905469", "{csv}");
        // By pairing: x vs y played a and a b, y vs x a only (a c is below the threshold).
        assert_eq!(rows.len(), 4 + 3, "{csv}");
    }

    #[test]
    fn the_page_holds_outside_text_as_json_only() {
        let mut e = Explorer::new(3);
        e.add(&["</script><b>", "m"], "<i>agent</i>", 2);
        let meta = PageMeta {
            title: "t</script>".into(),
            first: "blue".into(),
            files: vec!["f&.csv".into()],
            command: "senat explore".into(),
        };
        let page = e.page(&meta, 1);
        assert!(!page.contains("</script><b>") && !page.contains("<i>agent") && !page.contains("t</script>"));
        assert!(page.contains("\\u003c/script\\u003e\\u003cb\\u003e"), "{page}");
        assert!(page.contains("Content-Security-Policy") && page.contains("default-src 'none'"));
        assert_eq!(page.matches("<script").count(), 2, "the data and the script");
    }
}
