//! A second, deliberately naive rules engine, and the engine checked against it.
//!
//! `reference_moves` and `reference_play` are written straight from the rules
//! (`senat-rules.fr.txt`, `RULES-NOTES.md`, `NOTATION.md`) with plain loops
//! over cells: their own whitening table, colours, canonical faces, rows and
//! neighbours, nothing precomputed by the engine. Random games from
//! `Position::start()` supply positions of both phases; on each, the engine's
//! `legal_moves()` / `count_moves()` must agree with the reference, and the
//! position reached by each move must agree with the reference successor.
//! Property tests then cover hashing, SPN, `check`, the equivalences of
//! RULES-NOTES point 3 and repetition in `GameRecord`.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use senat_rules::{Cell, Colour, Dest, Die, EndReason, Face, GameRecord, Move, MoveKind, Phase, Position, Setup, Side};
use std::collections::{BTreeMap, BTreeSet, HashMap};

// ---------------------------------------------------------------------------
// Reference dice (NOTATION.md), by die number and face index.
// ---------------------------------------------------------------------------

/// Whitened faces of die `n`: none for 1 and 2, all for 3, and for 4..=23 the
/// 3-subsets of {0..5} in lexicographic order.
fn ref_whitened(n: u8) -> [bool; 6] {
    match n {
        1 | 2 => [false; 6],
        3 => [true; 6],
        _ => {
            let mut k = 4;
            for a in 0..6 {
                for b in a + 1..6 {
                    for c in b + 1..6 {
                        if k == n {
                            let mut w = [false; 6];
                            w[a] = true;
                            w[b] = true;
                            w[c] = true;
                            return w;
                        }
                        k += 1;
                    }
                }
            }
            panic!("no die {n}")
        }
    }
}

/// Colour die `n` shows with face `f` on top: white if whitened, else printed (0..3 red).
fn ref_colour(n: u8, f: usize) -> Colour {
    if ref_whitened(n)[f] {
        Colour::White
    } else if f < 3 {
        Colour::Red
    } else {
        Colour::Blue
    }
}

/// Canonical face: when both faces of the axis are whitened, the red-printed one.
fn ref_canonical(n: u8, f: usize) -> usize {
    let w = ref_whitened(n);
    if w[f] && w[(f + 3) % 6] { f % 3 } else { f }
}

fn side_colour(s: Side) -> Colour {
    match s {
        Side::Red => Colour::Red,
        Side::Blue => Colour::Blue,
    }
}

fn other(s: Side) -> Side {
    match s {
        Side::Red => Side::Blue,
        Side::Blue => Side::Red,
    }
}

// ---------------------------------------------------------------------------
// Reference board: cells by number 1..=23, stored at number - 1.
// ---------------------------------------------------------------------------

/// Row of the cell stored at `i`: 0 = S (1..=11), 1 = M (12..=18), 2 = I (19..=23).
fn ref_row(i: usize) -> usize {
    let number = i + 1;
    if number <= 11 {
        0
    } else if number <= 18 {
        1
    } else {
        2
    }
}

/// Cells whose numbers follow each other in the same row.
fn ref_neighbours(i: usize) -> Vec<usize> {
    let mut v = Vec::new();
    if i > 0 && ref_row(i - 1) == ref_row(i) {
        v.push(i - 1);
    }
    if i + 1 < 23 && ref_row(i + 1) == ref_row(i) {
        v.push(i + 1);
    }
    v
}

fn row_cells(r: usize) -> Vec<usize> {
    (0..23).filter(|&i| ref_row(i) == r).collect()
}

fn cell(i: usize) -> Cell {
    Cell::all().find(|c| c.number() as usize == i + 1).expect("cell number")
}

fn die(n: u8) -> Die {
    Die::new(n).expect("die number")
}

fn face(f: usize) -> Face {
    Face::ALL[f]
}

/// Everything the rules say a position is, in plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RefState {
    /// (die number, face index) on the cell numbered i + 1.
    cells: [Option<(u8, usize)>; 23],
    phase: Phase,
    side: Side,
    /// Restricted cells, increasing.
    restricted: Vec<usize>,
    /// Red, blue, white.
    piles: [u8; 3],
    clock: u8,
}

impl RefState {
    fn read(p: &Position) -> RefState {
        let mut cells = [None; 23];
        for c in Cell::all() {
            let i = c.number() as usize - 1;
            cells[i] = p.piece_at(c).map(|(d, f)| (d.number(), f.index() as usize));
        }
        let restricted = Cell::all().filter(|&c| p.restricted().contains(c)).map(|c| c.number() as usize - 1).collect();
        let piles = p.piles();
        RefState {
            cells,
            phase: p.phase(),
            side: p.side_to_move(),
            restricted,
            piles: [piles.red, piles.blue, piles.white],
            clock: p.clock(),
        }
    }

    fn on_board(&self, n: u8) -> bool {
        self.cells.iter().flatten().any(|&(d, _)| d == n)
    }

    /// Dice neither on the board nor waiting to be placed (draft only).
    fn reserve(&self) -> Vec<u8> {
        if self.phase == Phase::Play {
            return Vec::new();
        }
        (1..=23)
            .filter(|&n| !self.on_board(n))
            .filter(|&n| !matches!(self.phase, Phase::Place(d) if d.number() == n))
            .collect()
    }

    fn finished(&self) -> bool {
        self.piles[0] >= 5 || self.piles[1] >= 5 || self.clock >= 60
    }

    fn restricted(&self, i: usize) -> bool {
        self.restricted.contains(&i)
    }

    /// Occupied and not restricted: may be a target or be dislodged.
    fn available(&self, i: usize) -> bool {
        self.cells[i].is_some() && !self.restricted(i)
    }
}

/// The legal moves, from the rules, with plain loops.
fn reference_moves(p: &Position) -> Vec<Move> {
    ref_moves(&RefState::read(p))
}

fn ref_moves(s: &RefState) -> Vec<Move> {
    let mut out = Vec::new();
    if s.finished() {
        return out;
    }
    match s.phase {
        // The rules have no decision after the draft (a variant's: tests/variants.rs).
        Phase::Decide => {}
        Phase::Give => {
            let reserve = s.reserve();
            for &n in &reserve {
                // Dice 1 and 2 are identical: one give move for the pair.
                if n == 2 && reserve.contains(&1) {
                    continue;
                }
                out.push(Move::give(die(n)));
            }
        }
        Phase::Place(d) => {
            let n = d.number();
            let faces: BTreeSet<usize> = (0..6).map(|f| ref_canonical(n, f)).collect();
            for i in 0..23 {
                if s.cells[i].is_none() {
                    for &f in &faces {
                        out.push(Move::place(d, cell(i), face(f)));
                    }
                }
            }
        }
        Phase::Play => {
            let own = side_colour(s.side);
            for a in 0..23 {
                let Some((ad, af)) = s.cells[a] else { continue };
                if s.restricted(a) || ref_colour(ad, af) != own {
                    continue;
                }
                // Shift: any free cell of its own row.
                for to in row_cells(ref_row(a)) {
                    if s.cells[to].is_none() {
                        out.push(Move::shift(cell(a), cell(to)));
                    }
                }
                // Actions on an unrestricted neighbour; the agent's symbol decides.
                for t in ref_neighbours(a) {
                    if !s.available(t) {
                        continue;
                    }
                    let (td, tf) = s.cells[t].expect("available");
                    match af % 3 {
                        0 => {
                            // Triangle: flip, legal iff the shown colour changes.
                            if ref_colour(td, tf) != ref_colour(td, (tf + 3) % 6) {
                                out.push(Move::flip(cell(a), cell(t)));
                            }
                        }
                        2 => {
                            // Circle: lateral faces showing the same colour.
                            let now = ref_colour(td, tf);
                            let faces: BTreeSet<usize> = (0..6)
                                .filter(|&l| l % 3 != tf % 3 && ref_colour(td, l) == now)
                                .map(|l| ref_canonical(td, l))
                                .collect();
                            for f in faces {
                                out.push(Move::turn(cell(a), cell(t), face(f)));
                            }
                        }
                        _ => {
                            // Square: S -> M; M -> S or I; I -> M or the door.
                            let rows: &[usize] = match ref_row(t) {
                                0 => &[1],
                                1 => &[0, 2],
                                _ => &[1],
                            };
                            for &r in rows {
                                let cells = row_cells(r);
                                let free: Vec<usize> =
                                    cells.iter().copied().filter(|&c| s.cells[c].is_none()).collect();
                                if !free.is_empty() {
                                    for c in free {
                                        out.push(Move::push(cell(a), cell(t), Dest::Cell(cell(c))));
                                    }
                                } else {
                                    for c in cells {
                                        if s.available(c) {
                                            out.push(Move::push(cell(a), cell(t), Dest::Cell(cell(c))));
                                        }
                                    }
                                }
                            }
                            if ref_row(t) == 2 {
                                out.push(Move::push(cell(a), cell(t), Dest::Door));
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

fn pile_index(c: Colour) -> usize {
    match c {
        Colour::Red => 0,
        Colour::Blue => 1,
        Colour::White => 2,
    }
}

/// The state after a legal move `m`, from the rules.
fn reference_play(s: &RefState, m: Move) -> RefState {
    let mut n = s.clone();
    let idx = |c: Cell| c.number() as usize - 1;
    match m.kind() {
        MoveKind::Give(d) => {
            n.phase = Phase::Place(d);
            n.side = other(s.side);
            return n;
        }
        MoveKind::Place(d, c, f) => {
            n.cells[idx(c)] = Some((d.number(), f.index() as usize));
            let placed = n.cells.iter().flatten().count();
            if placed == 23 {
                n.phase = Phase::Play;
                n.side = Side::Blue;
            } else {
                // Placement k: red places the odd ones, so blue gives them.
                let k = placed + 1;
                n.phase = Phase::Give;
                n.side = if k % 2 == 1 { Side::Blue } else { Side::Red };
            }
            return n;
        }
        _ => {}
    }
    let mut door = false;
    match m.kind() {
        MoveKind::Shift { from, to } => {
            n.cells[idx(to)] = n.cells[idx(from)].take();
            n.restricted = vec![];
        }
        MoveKind::Flip { target, .. } => {
            let t = idx(target);
            let (d, f) = n.cells[t].expect("target");
            n.cells[t] = Some((d, ref_canonical(d, (f + 3) % 6)));
            n.restricted = vec![t];
        }
        MoveKind::Turn { target, face, .. } => {
            let t = idx(target);
            let (d, _) = n.cells[t].expect("target");
            n.cells[t] = Some((d, face.index() as usize));
            n.restricted = vec![t];
        }
        MoveKind::Push { target, to, .. } => {
            let t = idx(target);
            let (d, f) = n.cells[t].take().expect("target");
            match to {
                Dest::Door => {
                    n.piles[pile_index(ref_colour(d, f))] += 1;
                    door = true;
                    n.restricted = vec![];
                }
                Dest::Cell(c) => {
                    let c = idx(c);
                    match n.cells[c].take() {
                        None => n.restricted = vec![c],
                        Some((xd, xf)) if ref_row(c) == 2 => {
                            // Ejection: the dislodged die falls through the door.
                            n.piles[pile_index(ref_colour(xd, xf))] += 1;
                            door = true;
                            n.restricted = vec![c];
                        }
                        Some(x) => {
                            // Permutation: the dislodged die takes the target's cell.
                            n.cells[t] = Some(x);
                            n.restricted = vec![c.min(t), c.max(t)];
                        }
                    }
                    n.cells[c] = Some((d, f));
                }
            }
        }
        MoveKind::Give(_) | MoveKind::Place(..) | MoveKind::Keep | MoveKind::Swap => unreachable!(),
    }
    n.clock = if door { 0 } else { s.clock + 1 };
    n.side = other(s.side);
    n
}

// ---------------------------------------------------------------------------
// Random games.
// ---------------------------------------------------------------------------

/// Most plies of one random game (46 of them are the draft).
const MAX_PLIES: usize = 250;

/// A random game from the start: the positions (first = start, last = where
/// it stopped) and the moves between them. Stops when `GameRecord::outcome()` says
/// the game is over (the final position is kept) or after `MAX_PLIES`.
fn random_game(seed: u64) -> (Vec<Position>, Vec<Move>) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = GameRecord::new(Position::start());
    let mut positions = vec![*game.position()];
    let mut moves = Vec::new();
    while moves.len() < MAX_PLIES && game.outcome().is_none() {
        let legal = game.position().legal_moves();
        assert!(!legal.is_empty(), "no outcome but no move: {}", game.position().to_spn());
        let m = legal[rng.random_range(0..legal.len())];
        game.play_unchecked(m);
        positions.push(*game.position());
        moves.push(m);
    }
    (positions, moves)
}

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort();
    v
}

fn show(moves: &[Move]) -> String {
    moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

/// Engine and reference agree on the moves of `p`; returns the moves.
fn assert_moves_agree(p: &Position) -> Vec<Move> {
    let engine = sorted(p.legal_moves().to_vec());
    let reference = sorted(reference_moves(p));
    if engine != reference {
        let missing: Vec<Move> = reference.iter().filter(|m| !engine.contains(m)).copied().collect();
        let extra: Vec<Move> = engine.iter().filter(|m| !reference.contains(m)).copied().collect();
        panic!(
            "move lists differ in {}\n  missing from engine: {}\n  extra in engine: {}",
            p.to_spn(),
            show(&missing),
            show(&extra)
        );
    }
    let mut dedup = engine.clone();
    dedup.dedup();
    assert_eq!(dedup.len(), engine.len(), "duplicate moves in {}", p.to_spn());
    assert_eq!(p.count_moves(), reference.len(), "count_moves in {}", p.to_spn());
    assert_eq!(p.has_moves(), !reference.is_empty(), "has_moves in {}", p.to_spn());
    engine
}

/// The engine's child after `m` is the reference successor.
fn assert_play_agrees(p: &Position, m: Move) {
    let mut child = *p;
    child.play_unchecked(m);
    let want = reference_play(&RefState::read(p), m);
    let got = RefState::read(&child);
    assert_eq!(got, want, "after {m} in {}", p.to_spn());
}

// ---------------------------------------------------------------------------
// Sanity of the reference's own tables against the engine's primitives.
// ---------------------------------------------------------------------------

#[test]
fn reference_tables_match_engine_primitives() {
    for d in Die::all() {
        let n = d.number();
        let w = ref_whitened(n);
        for f in Face::ALL {
            let i = f.index() as usize;
            assert_eq!(d.whitened().contains(f), w[i], "die {n} face {f}");
            assert_eq!(d.colour(f), ref_colour(n, i), "die {n} face {f}");
            assert_eq!(d.canonical(f).index() as usize, ref_canonical(n, i), "die {n} face {f}");
            assert_eq!(f.opposite().index() as usize, (i + 3) % 6);
        }
    }
    // Twelve of dice 4..=23 have a white axis (NOTATION.md).
    let white_axis = (4..=23).filter(|&n| (0..3).any(|s| ref_whitened(n)[s] && ref_whitened(n)[s + 3])).count();
    assert_eq!(white_axis, 12);
    for c in Cell::all() {
        let i = c.number() as usize - 1;
        assert_eq!(c.row() as usize, ref_row(i), "{c}");
        let mine: BTreeSet<usize> = ref_neighbours(i).into_iter().collect();
        let engine: BTreeSet<usize> = c.neighbours().map(|n| n.number() as usize - 1).collect();
        assert_eq!(mine, engine, "neighbours of {c}");
    }
    assert_eq!(row_cells(0).len(), 11);
    assert_eq!(row_cells(1).len(), 7);
    assert_eq!(row_cells(2).len(), 5);
}

#[test]
fn reference_knows_the_start() {
    let p = Position::start();
    let moves = sorted(reference_moves(&p));
    // g1 (standing for the pair 1/2) and g3..g23.
    assert_eq!(moves.len(), 22);
    assert!(moves.contains(&Move::give(die(1))));
    assert!(!moves.contains(&Move::give(die(2))));
    assert_eq!(sorted(p.legal_moves().to_vec()), moves);
}

// ---------------------------------------------------------------------------
// The differential test.
// ---------------------------------------------------------------------------

const DRAFT_POSITIONS: usize = 5_000;
const PLAY_POSITIONS: usize = 20_000;
/// Every position: the played move's successor is checked against the
/// reference; every `ALL_SUCCESSORS_EVERY`-th position: every move's.
const ALL_SUCCESSORS_EVERY: usize = 8;

#[test]
fn legal_moves_match_the_reference() {
    let (mut draft, mut play, mut finished, mut blocked, mut successors) = (0, 0, 0, 0, 0);
    let mut seed = 0x5e4a7_u64;
    let mut games = 0;
    let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
    while draft < DRAFT_POSITIONS || play < PLAY_POSITIONS {
        let (positions, moves) = random_game(seed);
        seed += 1;
        games += 1;
        for (k, p) in positions.iter().enumerate() {
            let s = RefState::read(p);
            let engine = assert_moves_agree(p);
            match p.phase() {
                Phase::Play => {
                    play += 1;
                    if s.finished() {
                        finished += 1;
                    } else if engine.is_empty() {
                        blocked += 1;
                    }
                }
                _ => {
                    draft += 1;
                    let reserve: Vec<u8> = p.reserve().iter().map(|d| d.number()).collect();
                    assert_eq!(reserve, s.reserve(), "reserve in {}", p.to_spn());
                }
            }
            for &m in &engine {
                *kinds.entry(move_class(&s, m)).or_default() += 1;
            }
            if s.restricted.len() == 2 {
                *kinds.entry("two restricted dice").or_default() += 1;
            }
            if let Some(&m) = moves.get(k) {
                assert_play_agrees(p, m);
                successors += 1;
            }
            if k % ALL_SUCCESSORS_EVERY == 0 {
                for &m in &engine {
                    assert_play_agrees(p, m);
                    successors += 1;
                }
            }
        }
    }
    eprintln!(
        "compared {draft} draft and {play} play positions ({finished} finished, {blocked} blocked) \
         from {games} random games; {successors} successors checked"
    );
    eprintln!("legal moves seen, by kind: {kinds:?}");
    assert!(draft >= DRAFT_POSITIONS && play >= PLAY_POSITIONS);
    // Every rule of the move generator was exercised.
    for kind in [
        "give",
        "give g2",
        "place",
        "place on a white axis",
        "shift",
        "flip coloured",
        "flip white",
        "turn",
        "turn white",
        "push to a free cell",
        "push through the door",
        "ejection",
        "permutation into S",
        "permutation into M",
        "two restricted dice",
    ] {
        assert!(kinds.get(kind).is_some_and(|&n| n > 0), "no {kind} among {kinds:?}");
    }
}

/// What kind of legal move `m` is in `s`, for coverage.
fn move_class(s: &RefState, m: Move) -> &'static str {
    let idx = |c: Cell| c.number() as usize - 1;
    match m.kind() {
        MoveKind::Keep | MoveKind::Swap => "decide",
        MoveKind::Give(d) if d.number() == 2 => "give g2",
        MoveKind::Give(_) => "give",
        MoveKind::Place(d, ..) => {
            let w = ref_whitened(d.number());
            if (0..3).any(|a| w[a] && w[a + 3]) { "place on a white axis" } else { "place" }
        }
        MoveKind::Shift { .. } => "shift",
        MoveKind::Flip { target, .. } => {
            let (d, f) = s.cells[idx(target)].expect("target");
            if ref_colour(d, f) == Colour::White { "flip white" } else { "flip coloured" }
        }
        MoveKind::Turn { target, .. } => {
            let (d, f) = s.cells[idx(target)].expect("target");
            if ref_colour(d, f) == Colour::White { "turn white" } else { "turn" }
        }
        MoveKind::Push { to: Dest::Door, .. } => "push through the door",
        MoveKind::Push { to: Dest::Cell(c), .. } => match (s.cells[idx(c)].is_some(), ref_row(idx(c))) {
            (false, _) => "push to a free cell",
            (true, 0) => "permutation into S",
            (true, 1) => "permutation into M",
            (true, _) => "ejection",
        },
    }
}

// ---------------------------------------------------------------------------
// Property tests.
// ---------------------------------------------------------------------------

/// A random, syntactically valid move, biased towards plausible ones.
fn random_move(rng: &mut Xoshiro256PlusPlus, p: &Position) -> Move {
    let occupied: Vec<usize> = (0..23).filter(|&i| p.piece_at(cell(i)).is_some()).collect();
    let any_cell = |rng: &mut Xoshiro256PlusPlus| rng.random_range(0..23usize);
    let agent = |rng: &mut Xoshiro256PlusPlus| {
        if !occupied.is_empty() && rng.random_bool(0.7) {
            occupied[rng.random_range(0..occupied.len())]
        } else {
            rng.random_range(0..23usize)
        }
    };
    // Next to the agent by index, which may cross a row boundary.
    let near = |rng: &mut Xoshiro256PlusPlus, a: usize| {
        if rng.random_bool(0.7) {
            if rng.random_bool(0.5) { a.saturating_sub(1) } else { (a + 1).min(22) }
        } else {
            rng.random_range(0..23usize)
        }
    };
    let rand_face = |rng: &mut Xoshiro256PlusPlus| face(rng.random_range(0..6usize));
    let rand_die = |rng: &mut Xoshiro256PlusPlus| die(rng.random_range(1..=23u8));
    match rng.random_range(0..6) {
        0 => Move::give(rand_die(rng)),
        1 => {
            let d = match p.phase() {
                Phase::Place(d) if rng.random_bool(0.7) => d,
                _ => rand_die(rng),
            };
            Move::place(d, cell(any_cell(rng)), rand_face(rng))
        }
        2 => {
            let a = agent(rng);
            let to = if rng.random_bool(0.7) {
                let row = row_cells(ref_row(a));
                row[rng.random_range(0..row.len())]
            } else {
                any_cell(rng)
            };
            Move::shift(cell(a), cell(to))
        }
        3 => {
            let a = agent(rng);
            Move::flip(cell(a), cell(near(rng, a)))
        }
        4 => {
            let a = agent(rng);
            let t = near(rng, a);
            let to = if rng.random_bool(0.2) { Dest::Door } else { Dest::Cell(cell(any_cell(rng))) };
            Move::push(cell(a), cell(t), to)
        }
        _ => {
            let a = agent(rng);
            Move::turn(cell(a), cell(near(rng, a)), rand_face(rng))
        }
    }
}

/// Renames die 1 to die 2 and back.
fn swap12(d: Die) -> Die {
    match d.number() {
        1 => die(2),
        2 => die(1),
        _ => d,
    }
}

/// A move of `p` renamed for the position with dice 1 and 2 swapped, `q`:
/// the give move of the pair stays `g1` while both are in the reserve.
fn swap12_move(q: &Position, m: Move) -> Move {
    match m.kind() {
        MoveKind::Give(d) if d.number() <= 2 && q.reserve().contains(die(1)) => Move::give(die(1)),
        MoveKind::Give(d) => Move::give(swap12(d)),
        MoveKind::Place(d, c, f) => Move::place(swap12(d), c, f),
        _ => m,
    }
}

/// The repetition key of RULES-NOTES point 8, read from SPN: board with top
/// faces, turn, restricted set (and piles, constant between doors); not the clock.
fn repetition_key(p: &Position) -> String {
    let spn = p.to_spn();
    let fields: Vec<&str> = spn.split(' ').collect();
    fields[..4].join(" ")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// `play_hashed` keeps the hash equal to `hash()` from scratch, for the
    /// played move and for every other legal move, through to the game's end.
    #[test]
    fn incremental_hash_matches_full_hash(seed in any::<u64>()) {
        let (positions, moves) = random_game(seed);
        let mut p = Position::start();
        let mut h = p.hash();
        for (k, &m) in moves.iter().enumerate() {
            let q = positions[k];
            for &other in q.legal_moves().iter() {
                let (mut c, mut hc) = (q, q.hash());
                c.play_hashed(other, &mut hc);
                prop_assert_eq!(hc, c.hash(), "after {} in {}", other, q.to_spn());
            }
            p.play_hashed(m, &mut h);
            prop_assert_eq!(h, p.hash(), "after {} in {}", m, positions[k].to_spn());
            prop_assert_eq!(p, positions[k + 1]);
        }
    }

    /// SPN written by the engine reads back as the same position (`==`, hash)
    /// and is written again identically.
    #[test]
    fn spn_round_trip(seed in any::<u64>()) {
        let (positions, _) = random_game(seed);
        for p in positions {
            let spn = p.to_spn();
            let back = spn.parse::<Position>();
            prop_assert_eq!(&back, &Ok(p), "{}", spn);
            prop_assert_eq!(back.map(|b| (b.to_spn(), b.hash())), Ok((spn.clone(), p.hash())));
        }
    }

    /// Every legal move leads to a position that passes every check of `Setup::validate`.
    #[test]
    fn legal_moves_lead_to_valid_positions(seed in any::<u64>()) {
        let (positions, _) = random_game(seed);
        for p in positions.iter().skip((seed % 6) as usize).step_by(6) {
            for &m in p.legal_moves().iter() {
                let mut c = *p;
                c.play_unchecked(m);
                let spn = c.to_spn();
                let parsed = spn.parse::<Position>();
                prop_assert!(parsed.is_ok(), "{} in {} gives {}: {:?}", m, p.to_spn(), spn, parsed);
                let valid = Setup::from_position(&c).validate();
                prop_assert!(valid.is_ok(), "{} in {} gives {}: {:?}", m, p.to_spn(), spn, valid);
                prop_assert_eq!(valid.unwrap().hash(), c.hash());
            }
        }
    }

    /// `check` accepts every legal move, and a random move exactly when it is legal.
    #[test]
    fn check_agrees_with_legal_moves(seed in any::<u64>()) {
        let (positions, _) = random_game(seed);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0xc0ffee);
        let (mut accepted, mut rejected) = (0, 0);
        for p in &positions {
            let legal = p.legal_moves();
            for &m in legal.iter() {
                prop_assert_eq!(p.check(m), Ok(()), "{} in {}", m, p.to_spn());
            }
            for _ in 0..12 {
                let m = random_move(&mut rng, p);
                let ok = p.check(m).is_ok();
                prop_assert_eq!(ok, legal.contains(&m), "check({}) = {:?} in {}", m, p.check(m), p.to_spn());
                if ok { accepted += 1 } else { rejected += 1 }
            }
        }
        // Random moves are biased enough that both answers come up in every game.
        prop_assert!(accepted > 0 && rejected > 0, "{} accepted, {} rejected", accepted, rejected);
    }

    /// Swapping the identical dice 1 and 2 changes neither the hash nor the moves
    /// (up to the renaming); a non-canonical top face on a white axis reads as the canonical one.
    #[test]
    fn equivalent_positions_are_one(seed in any::<u64>()) {
        let (positions, _) = random_game(seed);
        let mut swapped_boards = 0;
        for p in &positions {
            let setup = Setup::from_position(p);
            let mut s = setup.clone();
            for x in s.cells.iter_mut().flatten() {
                x.0 = swap12(x.0);
            }
            if let Phase::Place(d) = s.phase {
                s.phase = Phase::Place(swap12(d));
            }
            let q = s.validate();
            prop_assert!(q.is_ok(), "swap 1/2 of {}: {:?}", p.to_spn(), q);
            let q = q.unwrap();
            // `p` rebuilt through the same `Setup` path, so `==` compares like with like.
            let p0 = setup.validate();
            prop_assert!(p0.is_ok(), "{}: {:?}", p.to_spn(), p0);
            let p0 = p0.unwrap();
            prop_assert_eq!(p0.hash(), p.hash());
            let pair_placed = setup.cells.iter().flatten().any(|(d, _)| d.number() <= 2)
                || matches!(setup.phase, Phase::Place(d) if d.number() <= 2);
            if pair_placed {
                // The die numbers differ (a different `Position`) but the hash does not.
                prop_assert_ne!(q, p0);
                swapped_boards += 1;
            } else {
                prop_assert_eq!(q, p0);
            }
            prop_assert_eq!(q.hash(), p.hash(), "{} vs {}", p.to_spn(), q.to_spn());
            let mine = sorted(p.legal_moves().iter().map(|&m| swap12_move(&q, m)).collect());
            prop_assert_eq!(sorted(q.legal_moves().to_vec()), mine, "{} vs {}", p.to_spn(), q.to_spn());
            prop_assert_eq!(q.count_moves(), p.count_moves());

            // White axes: the red-printed face and its whitened opposite are one face.
            for (i, x) in setup.cells.iter().enumerate() {
                let Some((d, f)) = *x else { continue };
                if !(d.whitened().contains(f) && d.whitened().contains(f.opposite())) {
                    continue;
                }
                let mut t = setup.clone();
                t.cells[i] = Some((d, f.opposite()));
                let r = t.validate();
                prop_assert!(r.is_ok());
                let r = r.unwrap();
                prop_assert_eq!(r, p0);
                prop_assert_eq!(r.hash(), p.hash());
                prop_assert_eq!(r.to_spn(), p.to_spn());
                prop_assert_eq!(RefState::read(&r), RefState::read(p));
            }
        }
        // Dice 1 and 2 are both placed in every game, so the swap did something.
        prop_assert!(swapped_boards > 0);
    }
}

#[test]
fn die_three_triangles_are_one_face() {
    // In play: die 3 put on its cell as Tb is the position with Tr.
    let (positions, _) = random_game(7);
    let (p, i) = positions
        .iter()
        .filter(|p| p.is_play())
        .find_map(|p| {
            let i = (0..23).find(|&i| p.piece_at(cell(i)).is_some_and(|(d, _)| d.number() == 3))?;
            Some((*p, i))
        })
        .expect("die 3 on the board in play");
    let setup = Setup::from_position(&p);
    let with = |f: usize| {
        let mut s = setup.clone();
        s.cells[i] = Some((die(3), face(f)));
        s.validate().expect("valid")
    };
    // All three axes of die 3 are white: each pair of opposite faces is one face.
    for axis in 0..3 {
        let (red, blue) = (with(axis), with(axis + 3));
        assert_eq!(red, blue);
        assert_eq!(red.hash(), blue.hash());
        assert_eq!(blue.piece_at(cell(i)), Some((die(3), face(axis))));
    }
    let shown = p.piece_at(cell(i)).expect("die 3").1.index() as usize;
    assert!(shown < 3, "die 3 is stored canonical");
    assert_eq!(with(shown + 3).hash(), p.hash());
    let (tr, tb) = (with(0), with(3));
    assert_eq!(tb.piece_at(cell(i)), Some((die(3), face(0))));
    assert!(tb.to_spn().contains("3Tr") && !tb.to_spn().contains("3Tb"));
    // The text form with Tb reads as the canonical position too.
    let text = tr.to_spn().replace("3Tr", "3Tb");
    assert_eq!(text.parse::<Position>(), Ok(tr));

    // In the draft: placing die 3 as Tb is the same move as Tr, written Tr.
    let mut g = Position::start();
    g.play(Move::give(die(3))).expect("g3 at the start");
    assert!(g.check(Move::place(die(3), cell(0), face(0))).is_ok());
    assert!(g.check(Move::place(die(3), cell(0), face(3))).is_err());
    assert_eq!(g.count_moves(), 23 * 3);
    assert_eq!(g.parse_move("3@S1=Tb"), Ok(Move::place(die(3), cell(0), face(0))));
}

// ---------------------------------------------------------------------------
// Repetition.
// ---------------------------------------------------------------------------

/// A play position where the side to move can shift a die a -> b, the other
/// side can then shift c -> d, and both can shift back; `None` if there is none.
fn shuttle(p: &Position) -> Option<[Move; 4]> {
    let s = RefState::read(p);
    if s.phase != Phase::Play || s.finished() || s.clock > 40 {
        return None;
    }
    let shifts = |s: &RefState| -> Vec<(usize, usize)> {
        ref_moves(s)
            .into_iter()
            .filter_map(|m| match m.kind() {
                MoveKind::Shift { from, to } => Some((from.number() as usize - 1, to.number() as usize - 1)),
                _ => None,
            })
            .collect()
    };
    for (a, b) in shifts(&s) {
        let s1 = reference_play(&s, Move::shift(cell(a), cell(b)));
        for (c, d) in shifts(&s1) {
            if d == a {
                continue;
            }
            return Some([
                Move::shift(cell(a), cell(b)),
                Move::shift(cell(c), cell(d)),
                Move::shift(cell(b), cell(a)),
                Move::shift(cell(d), cell(c)),
            ]);
        }
    }
    None
}

#[test]
fn shuttling_ends_by_repetition_on_the_third_occurrence() {
    let mut scenarios = 0;
    let mut seed = 1000;
    while scenarios < 12 {
        assert!(seed < 1400, "too few shuttle positions found ({scenarios})");
        let (positions, moves) = random_game(seed);
        seed += 1;
        // The position after the draft (46 plies) is the first occurrence of itself.
        let mut g = GameRecord::new(Position::start());
        for &m in moves.iter().take(46) {
            assert_eq!(g.occurrences(), 1);
            g.play(m).expect("legal draft move");
        }
        assert!(g.position().is_play());
        assert_eq!(g.occurrences(), 1);
        assert!(g.outcome().is_none());
        let Some((p, cycle)) = positions.iter().find_map(|p| shuttle(p).map(|c| (*p, c))) else {
            continue;
        };
        scenarios += 1;

        let mut game = GameRecord::new(p);
        assert_eq!(game.occurrences(), 1);
        assert!(game.outcome().is_none(), "{}", p.to_spn());
        let mut seen: HashMap<String, usize> = HashMap::new();
        *seen.entry(repetition_key(&p)).or_default() += 1;
        let mut ended = false;
        for ply in 0..12 {
            let m = cycle[ply % 4];
            game.play(m).unwrap_or_else(|e| panic!("{m} at ply {ply} from {}: {e}", p.to_spn()));
            let count = {
                let c = seen.entry(repetition_key(game.position())).or_default();
                *c += 1;
                *c
            };
            assert_eq!(game.occurrences(), count, "ply {ply} from {} ({})", p.to_spn(), show(&cycle));
            let outcome = game.outcome();
            if count >= 3 {
                let o = outcome.expect("third occurrence ends the game");
                assert_eq!(o.reason, EndReason::Repetition);
                let piles = game.position().piles();
                let winner = match piles.red.cmp(&piles.blue) {
                    std::cmp::Ordering::Greater => Some(Side::Red),
                    std::cmp::Ordering::Less => Some(Side::Blue),
                    std::cmp::Ordering::Equal => None,
                };
                assert_eq!(o.winner, winner);
                // A finished game refuses the next move, though the position has it.
                let next = cycle[(ply + 1) % 4];
                assert!(game.position().check(next).is_ok());
                assert!(game.play(next).is_err());
                // The third occurrence comes at ply 8 (back to the start, if the start
                // had no restricted die) or 9 (the first shift's position).
                let start_counts = p.restricted().is_empty();
                assert_eq!(ply, if start_counts { 7 } else { 8 }, "from {}", p.to_spn());
                ended = true;
                break;
            }
            assert!(outcome.is_none(), "ply {ply} from {}: {outcome:?}", p.to_spn());
        }
        assert!(ended, "no repetition from {} with {}", p.to_spn(), show(&cycle));
    }
}

/// Regression: blue's first move pushes M14 into the full row S at S7 (a
/// permutation). The engine once stored the restricted cells as (S7, M14)
/// and the parser as (M14, S7), so `==` told equal positions apart.
#[test]
fn permutation_restricted_order_regression() {
    let p: Position = "1Tr,18Tb,10Tr,14Sb,6Sr,9Cb,3Tr,13Cb,7Tb,23Cb,11Sb/4Cr,8Sb,16Tr,17Cb,20Cr,22Tb,21Sr/5Sr,19Tb,2Sb,12Cr,15Cb b - 0-0-0 0"
        .parse()
        .expect("valid SPN");
    let m = p.parse_move("M13>M14:S7").expect("legal");
    let mut c = p;
    c.play_unchecked(m);
    let spn = c.to_spn();
    assert_eq!(
        spn,
        "1Tr,18Tb,10Tr,14Sb,6Sr,9Cb,16Tr,13Cb,7Tb,23Cb,11Sb/4Cr,8Sb,3Tr,17Cb,20Cr,22Tb,21Sr/5Sr,19Tb,2Sb,12Cr,15Cb r M14,S7 0-0-0 1"
    );
    assert_eq!(spn.parse::<Position>(), Ok(c));
    assert_eq!(Setup::from_position(&c).validate(), Ok(c));
}

// ---------------------------------------------------------------------------
// End of the game, from the rules (RULES-NOTES point 8).
// ---------------------------------------------------------------------------

/// The repetition key with the identical dice 1 and 2 written alike.
fn identity_key(p: &Position) -> String {
    let key = repetition_key(p);
    let (board, rest) = key.split_once(' ').expect("fields");
    let board: Vec<String> = board
        .split('/')
        .map(|row| {
            row.split(',')
                .map(|t| if t.starts_with('2') && t.len() == 3 { format!("1{}", &t[1..]) } else { t.to_string() })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    format!("{} {rest}", board.join("/"))
}

/// The end of the game the rules give for `p`, whose play history (oldest
/// first, `p` last) is `keys`: majority, repetition, closure, block, in order.
fn reference_outcome(p: &Position, keys: &[String]) -> Option<(Option<Side>, EndReason)> {
    let s = RefState::read(p);
    if s.piles[0] >= 5 {
        return Some((Some(Side::Red), EndReason::Majority));
    }
    if s.piles[1] >= 5 {
        return Some((Some(Side::Blue), EndReason::Majority));
    }
    if s.phase != Phase::Play {
        return None;
    }
    let by_piles = match s.piles[0].cmp(&s.piles[1]) {
        std::cmp::Ordering::Greater => Some(Side::Red),
        std::cmp::Ordering::Less => Some(Side::Blue),
        std::cmp::Ordering::Equal => None,
    };
    let last = keys.last().expect("p is in its history");
    if keys.iter().filter(|&k| k == last).count() >= 3 {
        return Some((by_piles, EndReason::Repetition));
    }
    if s.clock >= 60 {
        return Some((by_piles, EndReason::Closure));
    }
    if ref_moves(&s).is_empty() {
        return Some((by_piles, EndReason::Block));
    }
    None
}

#[test]
fn game_outcome_follows_the_rules() {
    let mut reasons: HashMap<&'static str, usize> = HashMap::new();
    for seed in 0..60u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x0e7d);
        let mut game = GameRecord::new(Position::start());
        let mut keys: Vec<String> = Vec::new();
        loop {
            let p = *game.position();
            if p.is_play() {
                keys.push(identity_key(&p));
            }
            let want = reference_outcome(&p, &keys);
            let got = game.outcome().map(|o| (o.winner, o.reason));
            assert_eq!(got, want, "seed {seed}, ply {}: {}", game.moves().len(), p.to_spn());
            if p.is_play() {
                assert_eq!(
                    game.occurrences(),
                    keys.iter().filter(|&k| k == keys.last().unwrap()).count(),
                    "{}",
                    p.to_spn()
                );
            }
            if let Some((_, reason)) = want {
                *reasons.entry(reason.name()).or_default() += 1;
                break;
            }
            if game.moves().len() >= 400 {
                *reasons.entry("unfinished").or_default() += 1;
                break;
            }
            let legal = p.legal_moves();
            let m = legal[rng.random_range(0..legal.len())];
            game.play(m).expect("legal move");
        }
    }
    eprintln!("ends of 60 random games: {reasons:?}");
    assert_eq!(reasons.values().sum::<usize>(), 60);
}
