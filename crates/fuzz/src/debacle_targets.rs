//! Fuzz targets for the texts of debacle-rules (positions and moves).
//!
//! What a target must never do: accept a failure of the code under test
//! silently, or touch any file.

use crate::engine::{Rng, Target};
use debacle_rules::{Move, Position, Variant, parse_move_text, reference};
use std::collections::HashSet;

/// The debacle targets.
pub const TARGETS: &[Target] = &[
    Target {
        name: "debacle_position",
        about: "Débâcle position text: parse, write, parse; moves agree with the reference and all play",
        run: position,
        dict: POSITION_DICT,
        generate: gen_position,
        max_len: 300,
    },
    Target {
        name: "debacle_move",
        about: "Débâcle move text against reachable positions: accepted moves are legal and round trip",
        run: move_text,
        dict: MOVE_DICT,
        generate: gen_move,
        max_len: 40,
    },
    Target {
        name: "debacle_record",
        about: "Débâcle records as replay, view and render read them: what plays writes back and plays again to the same end",
        run: crate::targets::lab_record::<senat_lab::games::debacle::Debacle>,
        dict: &["start\n", "\n", "# c\n", "S1", "N6", "a1", "-", "pass", "take"],
        generate: crate::targets::gen_lab_record::<senat_lab::games::debacle::Debacle>,
        max_len: 3000,
    },
];

const POSITION_DICT: &[&str] = &[
    ".",
    "/",
    "S1",
    "S6",
    "N1",
    "N6",
    "S0",
    "N7",
    " s ",
    " n ",
    " 1 ",
    " 2 ",
    " 2-c3 ",
    " r1c4 ",
    " r2a1 ",
    " rec ",
    "-/-",
    "1234/5",
    "0-0",
    "29-29",
    "r1",
    "r30",
    "t0",
    "t999",
    "q0",
    "q99+",
    "p0",
    " - ",
    " s ",
    " = ",
    "scoring=winner",
    "relocate_on_end=yes",
    "faces=654321",
    "quiet=1",
    "turns=1",
    "rounds=1",
    "target=1",
];

const MOVE_DICT: &[&str] = &["F", "R", "REC", "decline", "a1", "f6", "c3", "f", "l", "r", "@", "@a1", "@f6", " "];

const VARIANTS: [&str; 3] = ["", "scoring=winner,relocate_on_end=yes", "faces=661122,recovery_resets=yes"];

/// A reachable position: random play from the start, `plies` plies, seeded.
fn reachable(seed: u64, plies: usize) -> Position {
    let mut rng = Rng::new(seed);
    let mut p = Position::start(Variant::parse(VARIANTS[seed as usize % VARIANTS.len()]).expect("a variant"));
    let mut buf = Vec::new();
    for _ in 0..plies {
        p.legal_moves(&mut buf);
        if buf.is_empty() {
            break;
        }
        p.play_unchecked(*rng.pick(&buf));
    }
    p
}

fn check_moves(p: &Position) {
    let mut buf = Vec::new();
    p.legal_moves(&mut buf);
    assert_eq!(buf.is_empty(), p.outcome().is_some(), "moves vs outcome in {p}");
    assert_eq!(p.count_moves(), buf.len());
    let fast: HashSet<Move> = buf.iter().copied().collect();
    assert_eq!(fast.len(), buf.len(), "duplicate moves in {p}");
    let slow: HashSet<Move> = reference::legal_moves(p).into_iter().collect();
    assert_eq!(fast, slow, "generators disagree in {p}");
    for &m in &buf {
        assert_eq!(p.parse_move(&m.to_string()), Ok(m));
        let mut q = *p;
        q.play_unchecked(m);
        assert_eq!(q.hash(), q.hash_from_scratch(), "hash after {m} in {p}");
        let back: Position = q.to_string().parse().unwrap_or_else(|e| panic!("{q} after {m} does not read: {e}"));
        assert_eq!(back, q);
    }
}

fn position(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let p = match text.parse::<Position>() {
        Ok(p) => p,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let out = p.to_string();
    assert_eq!(out.parse::<Position>().as_ref(), Ok(&p), "round trip of {text:?} through {out:?}");
    assert_eq!(p.hash(), p.hash_from_scratch());
    let _ = p.board_text(true);
    let _ = p.board_text(false);
    check_moves(&p);
}

fn gen_position(rng: &mut Rng) -> Vec<u8> {
    let p = reachable(rng.next_u64(), rng.below(1500));
    p.to_string().into_bytes()
}

fn move_text(data: &[u8]) {
    let Some((&b, rest)) = data.split_first() else { return };
    let p = reachable(b as u64, (b as usize * 37) % 700);
    let text = String::from_utf8_lossy(rest);
    match p.parse_move(&text) {
        Ok(m) => {
            assert!(p.is_legal(m), "{m} accepted but not legal in {p}");
            assert_eq!(p.parse_move(&m.to_string()), Ok(m));
            assert_eq!(parse_move_text(&m.to_string()), Ok(m));
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            if let Ok(m) = parse_move_text(&text) {
                assert!(!p.is_legal(m), "{m} is legal in {p} but was refused: {e}");
            }
        }
    }
}

fn gen_move(rng: &mut Rng) -> Vec<u8> {
    let b = rng.below(256) as u8;
    let p = reachable(b as u64, (b as usize * 37) % 700);
    let mut buf = Vec::new();
    p.legal_moves(&mut buf);
    let mut out = vec![b];
    if let Some(m) = buf.get(rng.below(buf.len().max(1))) {
        out.extend(m.to_string().bytes());
    } else {
        out.extend(b"decline");
    }
    out
}
