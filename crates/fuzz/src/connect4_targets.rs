//! Fuzz targets for the texts of connect4-rules (variants and positions),
//! and the lab's position text of `--game connect4` (the variant, one
//! space, the moves, off 7 × 6).
//!
//! What a target must never do: accept a failure of the code under test
//! silently, or touch any file.

use crate::engine::{Rng, Target};
use connect4_rules::{Outcome, Position, Variant, reference};

/// The Connect Four targets.
pub const TARGETS: &[Target] = &[
    Target {
        name: "connect4_position",
        about: "Connect Four `VARIANT;POSITION` text: accepted variants and positions round trip, moves agree with the grid model",
        run: connect4_position,
        dict: DICT,
        generate: gen_position,
        max_len: 120,
    },
    Target {
        name: "connect4_lab_text",
        about: "`--game connect4` position text ([VARIANT ]MOVES): accepted texts are written back byte for byte",
        run: connect4_lab_text,
        dict: DICT,
        generate: gen_lab_text,
        max_len: 120,
    },
];

fn connect4_lab_text(data: &[u8]) {
    use senat_lab::games::{LabGame, connect4::Connect4};
    let text = String::from_utf8_lossy(data);
    let p = match Connect4::parse_position(&text) {
        Ok(p) => p,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    assert_eq!(Connect4::position_text(&p), text, "an accepted lab text is written back the same");
    let (vt, moves) = text.split_once(' ').unwrap_or(("", text.as_ref()));
    assert_eq!(Connect4::variant_text(&p), vt);
    assert_eq!(Position::parse(moves, p.variant()).as_ref(), Ok(&p), "the rules read the same moves");
}

fn gen_lab_text(rng: &mut Rng) -> Vec<u8> {
    let text = String::from_utf8(gen_position(rng)).expect("ASCII");
    let (vt, moves) = text.split_once(';').expect("a `;`");
    if vt.is_empty() { moves.as_bytes().to_vec() } else { format!("{vt} {moves}").into_bytes() }
}

const DICT: &[&str] = &[
    "start",
    ";",
    "width=",
    "height=",
    ",",
    "4",
    "7",
    "9",
    "6",
    "1",
    "0",
    "10",
    "4453",
    "1212121",
    "444444",
    "18446744073709551616",
];

fn connect4_position(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (vt, pt) = text.split_once(';').unwrap_or(("", text.as_ref()));
    let v = match Variant::parse(vt) {
        Ok(v) => v,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    assert_eq!(Variant::parse(&v.to_string()), Ok(v), "variant round trip of {vt:?}");
    let p = match Position::parse(pt, v) {
        Ok(p) => p,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let out = p.to_string();
    assert_eq!(out, pt, "an accepted position is written back the same");
    assert_eq!(p.outcome(), reference::outcome(&p), "outcome of {pt} ({v})");
    let mut list = Vec::new();
    p.legal_moves(&mut list);
    assert_eq!(list, reference::legal_moves(&p), "moves of {pt} ({v})");
    for &m in &list {
        let mut q = p;
        q.play_unchecked(m);
        assert_eq!(p.wins_with(m), matches!(q.outcome(), Some(Outcome::Win { .. })));
        assert_eq!(Position::parse(&q.to_string(), v).as_ref(), Ok(&q));
    }
}

fn gen_position(rng: &mut Rng) -> Vec<u8> {
    let sizes = ["", "width=4,height=4", "width=9", "height=8", "width=8,height=7"];
    let vt = *rng.pick(&sizes);
    let v = Variant::parse(vt).expect("a known variant");
    let mut p = Position::start(v);
    let plies = rng.below(v.cells() + 1);
    while (p.ply() as usize) < plies && !p.is_over() {
        let n = p.count_moves();
        p.play_unchecked(p.nth_move(rng.below(n)).expect("a move"));
    }
    format!("{vt};{p}").into_bytes()
}
