//! Fuzz targets for the catalog's verbs of every game: a record of any game
//! as `senat replay --game`, `view`, `render` and `annotate` read it (the
//! one record reader, `senat_lab::catalog::record::play`).
//!
//! What a target must never do: accept a failure of the code under test
//! silently, or touch any file.

use crate::engine::{Rng, Target};
use senat_lab::catalog::Position;
use senat_lab::catalog::record::play;
use senat_lab::games::GameKind;

/// The catalog's targets.
pub const TARGETS: &[Target] = &[Target {
    name: "catalog_record",
    about: "a record of any game (the first byte picks it) as `replay --game` reads it: refused or played; \
            written back with its moves' canonical texts, it replays to the same position",
    run: catalog_record,
    dict: DICT,
    generate: gen_record,
    max_len: 1500,
}];

const DICT: &[&str] = &[
    "start",
    "sample",
    "\n",
    " ",
    "-",
    "pass",
    "L",
    "R",
    ">0",
    ">1",
    "+",
    "6-6",
    "4",
    "a1-a2",
    "swap",
    "focus ",
    "width=5,height=4 ",
];

/// The game a first byte names.
fn game_of(byte: u8) -> GameKind {
    GameKind::ALL[byte as usize % GameKind::ALL.len()]
}

/// The record's lines, numbered from 1, blank lines left out.
fn numbered(text: &str) -> Vec<(usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty()).collect()
}

fn catalog_record(data: &[u8]) {
    let Some((&g, rest)) = data.split_first() else { return };
    let game = game_of(g);
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let lines = numbered(text);
    let mut moves = Vec::new();
    let end = play(game, "", lines.iter().copied(), |m, _| {
        moves.extend(m.map(str::to_string));
        Ok::<(), ()>(())
    });
    let Ok(end) = end else { return };
    // Written back: the start line, then each move as the game writes it.
    let again: Vec<(usize, &str)> =
        std::iter::once((1, lines[0].1)).chain(moves.iter().enumerate().map(|(i, m)| (i + 2, m.as_str()))).collect();
    let mut again_moves = Vec::new();
    let replayed = play(game, "", again, |m, _| {
        again_moves.extend(m.map(str::to_string));
        Ok::<(), ()>(())
    })
    .unwrap_or_else(|e| panic!("{game}: a record written back does not replay: {e:?}"));
    assert_eq!(again_moves, moves, "{game}: canonical texts are not canonical");
    assert_eq!(replayed.text(), end.text(), "{game}: the record written back ends elsewhere");
    assert_eq!(replayed.result(), end.result());
}

/// A game's start and a random walk of its legal moves (chance outcomes
/// too), at most 60 plies.
fn gen_record(rng: &mut Rng) -> Vec<u8> {
    let g = rng.below(256) as u8;
    let game = game_of(g);
    let Ok(mut p) = Position::read(game, "start", "") else { return vec![g] };
    let mut out = vec![g];
    out.extend_from_slice(b"start\n");
    for _ in 0..rng.below(60) {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = &moves[rng.below(moves.len())];
        match p.play(m) {
            Ok(next) => p = next,
            Err(_) => break,
        }
        out.extend_from_slice(m.as_bytes());
        out.push(b'\n');
    }
    out
}
