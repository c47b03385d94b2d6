//! Fuzz targets for the texts of focus-rules (positions and moves).
//!
//! What a target must never do: accept a failure of the code under test
//! silently, or touch any file.

use crate::engine::{Rng, Target};
use focus_rules::{Move, Position, Variant, reference};
use std::collections::HashSet;
use std::sync::OnceLock;

/// The focus targets.
pub const TARGETS: &[Target] = &[
    Target {
        name: "focus_position",
        about: "Focus position text: parse, write, parse again; every legal move plays, hashes agree",
        run: focus_position,
        dict: POSITION_DICT,
        generate: gen_position,
        max_len: 400,
    },
    Target {
        name: "focus_move",
        about: "Focus move text against reachable positions: accepted moves are legal and round trip",
        run: focus_move,
        dict: MOVE_DICT,
        generate: gen_move,
        max_len: 40,
    },
    Target {
        name: "focus_record",
        about: "Focus records as replay, view and render read them: what plays writes back and plays again to the same end",
        run: crate::targets::lab_record::<senat_lab::games::focus::Focus>,
        dict: RECORD_DICT,
        generate: crate::targets::gen_lab_record::<senat_lab::games::focus::Focus>,
        max_len: 3000,
    },
    Target {
        name: "focus_merge",
        about: "Focus games files as merge, --resume and convert read them: rows checked by the one row check",
        run: focus_merge,
        dict: crate::targets::GAME_CSV_DICT,
        generate: gen_merge,
        max_len: 3000,
    },
];

const RECORD_DICT: &[&str] = &["start\n", "\n", "# c\n", "-", "+", "pass", "d4-d6", "players=4"];

fn gen_merge(_: &mut Rng) -> Vec<u8> {
    include_bytes!("../corpus/focus_merge/focus-3.csv").to_vec()
}

const POSITION_DICT: &[&str] = &[
    "focus ",
    "- ",
    "players=4 ",
    "fix=swap ",
    "fix=draw ",
    "cap=10 ",
    "order=ccw",
    ",",
    "/",
    ".",
    "0",
    "1",
    "2",
    "3",
    "01011",
    "010110",
    " res=",
    "0/0",
    "0/0/0/0",
    "18",
    " turn=",
    " ply=",
    "1000",
    " swaps=",
    "4294967296",
];

const MOVE_DICT: &[&str] =
    &["-", "+", "pass", "swap:", ",", "a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9", "b7", "d7", "d2"];

/// Reachable positions of every variant: starts, swap phases, games with reserves and passes.
fn positions() -> &'static [Position] {
    static P: OnceLock<Vec<Position>> = OnceLock::new();
    P.get_or_init(|| {
        let mut v = Vec::new();
        let mut rng = Rng::new(11);
        for text in ["", "players=4", "players=4,order=ccw", "fix=swap", "fix=draw", "cap=40"] {
            let variant = Variant::parse(text).expect("a known variant");
            let mut p = Position::start(variant);
            v.push(p);
            let mut n = 0;
            while p.outcome().is_none() && n < 1200 {
                let k = p.count_moves();
                p.play_unchecked(p.nth_move(rng.below(k)));
                n += 1;
                let interesting = n < 3 || n % 97 == 0 || p.outcome().is_some() || p.count_moves() == 1;
                if interesting {
                    v.push(p);
                }
            }
        }
        v
    })
}

fn check_moves(p: &Position) {
    let mut list = Vec::new();
    p.legal_moves(&mut list);
    assert_eq!(list.is_empty(), p.outcome().is_some(), "empty list iff over in {p}");
    assert_eq!(list.len(), p.count_moves(), "count_moves in {p}");
    let set: HashSet<Move> = list.iter().copied().collect();
    assert_eq!(set.len(), list.len(), "duplicate moves in {p}");
    let slow: HashSet<Move> = reference::legal_moves(p).into_iter().collect();
    assert_eq!(set, slow, "fast and reference generators disagree in {p}");
    for (i, &m) in list.iter().enumerate() {
        assert_eq!(p.nth_move(i), m, "nth_move {i} in {p}");
        assert_eq!(p.parse_move(&m.to_string()), Ok(m), "move text of {m} in {p}");
        let mut q = *p;
        q.play_unchecked(m);
        assert_eq!(q.hash(), q.hash_from_scratch(), "hash after {m} in {p}");
        let text = q.to_string();
        assert_eq!(text.parse::<Position>().as_ref(), Ok(&q), "text of {q} after {m}");
    }
}

fn focus_position(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let p: Position = match text.parse() {
        Ok(p) => p,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let out = p.to_string();
    assert_eq!(out.parse::<Position>().as_ref(), Ok(&p), "round trip of {text:?} through {out:?}");
    assert_eq!(out, text, "an accepted text is written back the same");
    assert_eq!(p.hash(), p.hash_from_scratch());
    let _ = p.board_text(true);
    let _ = p.board_text(false);
    check_moves(&p);
}

fn gen_position(rng: &mut Rng) -> Vec<u8> {
    let all = positions();
    all[rng.below(all.len())].to_string().into_bytes()
}

fn focus_move(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let t = text.as_ref();
    let mut list = Vec::new();
    for p in positions() {
        p.legal_moves(&mut list);
        match p.parse_move(t) {
            Ok(m) => {
                assert!(list.contains(&m), "parse_move accepts {t:?} as {m}, not in the move list of {p}");
                assert!(p.is_legal(m));
                assert_eq!(m.to_string(), t, "move text round trip");
            }
            Err(e) => {
                let _ = e.to_string();
                assert!(!list.iter().any(|m| m.to_string() == t), "parse_move refuses listed {t:?} in {p}: {e}");
            }
        }
    }
}

fn gen_move(rng: &mut Rng) -> Vec<u8> {
    let all = positions();
    let p = all[rng.below(all.len())];
    let n = p.count_moves();
    if n == 0 {
        return b"pass".to_vec();
    }
    p.nth_move(rng.below(n)).to_string().into_bytes()
}

/// [`crate::targets::lab_merge`] of this game's games files.
fn focus_merge(data: &[u8]) {
    use senat_lab::games::GameKind;
    crate::targets::lab_merge::<senat_lab::games::focus::Focus>(data, &[GameKind::Focus, GameKind::Focus4]);
}
