//! Fuzz targets for the texts of dominoes-rules (states, observations and moves).
//!
//! What a target must never do: accept a failure of the code under test
//! silently, or touch any file.

use crate::engine::{Rng, Target};
use dominoes_rules::{Move, Observation, State, Variant, reference, sample};

/// The dominoes targets.
pub const TARGETS: &[Target] = &[
    Target {
        name: "dominoes_state",
        about: "dominoes state text: parse, write, parse; moves agree with the reference, all play, observations round trip",
        run: state,
        dict: STATE_DICT,
        generate: gen_state,
        max_len: 700,
    },
    Target {
        name: "dominoes_observation",
        about: "dominoes observation text: parse, write, parse; accessors and the observer's moves do not panic",
        run: observation,
        dict: STATE_DICT,
        generate: gen_observation,
        max_len: 700,
    },
    Target {
        name: "dominoes_move",
        about: "dominoes move text against reachable states: accepted moves are legal and round trip",
        run: move_text,
        dict: MOVE_DICT,
        generate: gen_move,
        max_len: 20,
    },
    Target {
        name: "dominoes_merge",
        about: "dominoes games files as merge, --resume and convert read them: plies, rounds and scores by the one row check",
        run: dominoes_merge,
        dict: crate::targets::GAME_CSV_DICT,
        generate: |_| include_bytes!("../corpus/dominoes_merge/dominoes-3.csv").to_vec(),
        max_len: 3000,
    },
];

const STATE_DICT: &[&str] = &[
    "o0 ",
    "o1 ",
    "o3 ",
    "-",
    "deal",
    "play",
    "roundover",
    "matchover",
    "players=3",
    "players=4",
    "rules=openspiel",
    "hand=1",
    "hand=14",
    "target=1",
    "rounds=1",
    "?0",
    "?7",
    "?14",
    "?28",
    "0:6-6L",
    "1+2:5-4R",
    "0+3:pass",
    "1:pass",
    "6-6",
    "0-0",
    "6-0",
    "1-0",
    ".",
    "/",
    ",",
    ":",
    "!",
    "d0/w0/23/0.23/0.4",
    "b/w-/0/7.7/2.2",
    "b/w1/3/5.2/1.1",
];

const MOVE_DICT: &[&str] = &["pass", "+", ">", "L", "R", "6-6", "0-0", "5-4", ">0", ">3", "-"];

const VARIANTS: [&str; 5] = ["", "players=3", "players=4", "rules=openspiel", "hand=3,target=20"];

/// A reachable state: random play from the start, up to `plies` moves, seeded.
fn reachable(seed: u64, plies: usize) -> State {
    let mut rng = Rng::new(seed);
    let v = Variant::parse(VARIANTS[seed as usize % VARIANTS.len()]).expect("a variant");
    let mut s = State::start(v);
    let mut c = Vec::new();
    let mut l = Vec::new();
    for _ in 0..plies {
        if s.outcome().is_some() {
            break;
        }
        if s.is_chance() {
            s.chance_outcomes(&mut c);
            s.play_unchecked(rng.pick(&c).0);
        } else {
            s.legal_moves(&mut l);
            s.play_unchecked(*rng.pick(&l));
        }
    }
    s
}

fn check_state(s: &State, deep: bool) {
    assert_eq!(s.hash(), s.recompute_hash(), "hash of {s}");
    let t = s.to_string();
    assert_eq!(t.parse::<State>().as_ref(), Ok(s), "round trip of {t}");
    let mut l = Vec::new();
    s.legal_moves(&mut l);
    assert_eq!(reference::legal_moves(s), l, "generators disagree in {s}");
    let mut c = Vec::new();
    s.chance_outcomes(&mut c);
    assert!(c.is_empty() || l.is_empty(), "chance and decision at once in {s}");
    assert_eq!(c.is_empty() && l.is_empty(), s.outcome().is_some(), "no move exactly when over: {s}");
    let total: f64 = c.iter().map(|x| x.1).sum();
    assert!(c.is_empty() || (total - 1.0).abs() < 1e-9);
    for p in 0..s.players() {
        let o = s.observation(p);
        let ot = o.to_string();
        assert_eq!(ot.parse::<Observation>().as_ref(), Ok(&o), "observation round trip of {ot}");
        if deep && o.is_consistent(s) {
            let mut rng = Rng::new(s.hash());
            let x = sample(&o, &mut || rng.next_u64());
            assert!(o.is_consistent(&x), "sample {x} of {ot}");
        }
    }
    if deep {
        let moves: Vec<Move> = if c.is_empty() { l } else { c.iter().map(|x| x.0).collect() };
        for m in moves {
            assert_eq!(s.parse_move(&m.to_string()), Ok(m));
            let mut q = *s;
            q.play_unchecked(m);
            check_state(&q, false);
        }
    }
}

fn state(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match text.parse::<State>() {
        Ok(s) => check_state(&s, true),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

fn gen_state(rng: &mut Rng) -> Vec<u8> {
    let s = reachable(rng.next_u64(), rng.below(120));
    s.to_string().into_bytes()
}

fn observation(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let o = match text.parse::<Observation>() {
        Ok(o) => o,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let out = o.to_string();
    assert_eq!(out.parse::<Observation>().as_ref(), Ok(&o), "round trip of {text:?} through {out:?}");
    let mut l = Vec::new();
    o.legal_moves(&mut l);
    assert_eq!(l.is_empty(), !o.is_my_decision());
    let _ = (o.unseen(), o.hand(), o.ends(), o.history().count(), o.last_round(), o.boneyard_size());
}

fn gen_observation(rng: &mut Rng) -> Vec<u8> {
    let s = reachable(rng.next_u64(), rng.below(120));
    s.observation(rng.below(s.players())).to_string().into_bytes()
}

fn move_text(data: &[u8]) {
    let Some((&b, rest)) = data.split_first() else { return };
    let s = reachable(u64::from(b), (b as usize * 37) % 90);
    let text = String::from_utf8_lossy(rest);
    match s.parse_move(&text) {
        Ok(m) => {
            let mut l = Vec::new();
            s.legal_moves(&mut l);
            let mut c = Vec::new();
            s.chance_outcomes(&mut c);
            assert!(l.contains(&m) || c.iter().any(|x| x.0 == m), "{m} accepted but not legal in {s}");
            assert_eq!(s.parse_move(&m.to_string()), Ok(m));
            assert_eq!(m.to_string().parse::<Move>(), Ok(m));
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

fn gen_move(rng: &mut Rng) -> Vec<u8> {
    let b = rng.below(256) as u8;
    let s = reachable(u64::from(b), (b as usize * 37) % 90);
    let mut l = Vec::new();
    s.legal_moves(&mut l);
    let mut c = Vec::new();
    s.chance_outcomes(&mut c);
    let mut out = vec![b];
    if let Some(m) = l.get(rng.below(l.len().max(1))) {
        out.extend(m.to_string().bytes());
    } else if let Some(m) = c.get(rng.below(c.len().max(1))) {
        out.extend(m.0.to_string().bytes());
    } else {
        out.extend(b"pass");
    }
    out
}

/// [`crate::targets::lab_merge`] of this game's games files.
fn dominoes_merge(data: &[u8]) {
    use senat_lab::games::GameKind;
    crate::targets::lab_merge::<senat_lab::games::dominoes::Dominoes>(data, &[GameKind::Dominoes]);
}
