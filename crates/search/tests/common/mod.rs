//! Toy games shared by the test binaries: tic-tac-toe, Nim (for 2, 3 or
//! 4 players, with partnerships), a dice duel (chance) and a one-card game
//! with a hidden card.
//! Each test binary uses part of them.
#![allow(dead_code)]

use game_search::rng::{GameRng, below};
use game_search::{Game, ImperfectInformation, MAX_PLAYERS, Scores};

/// The scores of a game won by `players` (1 each), lost by the others (0).
pub fn win_for(players: &[usize]) -> Scores {
    let mut r = [0.0; MAX_PLAYERS];
    for &p in players {
        r[p] = 1.0;
    }
    r
}

/// Every position `plies` moves from `root` (with repeats).
pub fn positions<G: Game>(root: &G::State, plies: u32) -> Vec<G::State> {
    let mut level = vec![root.clone()];
    let mut moves = Vec::new();
    for _ in 0..plies {
        let mut next = Vec::new();
        for s in &level {
            G::moves(s, &mut moves);
            next.extend(moves.iter().map(|&m| G::apply(s, m)));
        }
        level = next;
    }
    level
}

// ---- tic-tac-toe ----------------------------------------------------------

pub struct Ttt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub cells: [u8; 9],
    pub to_move: u8,
}

pub const START: Board = Board { cells: [0; 9], to_move: 0 };

pub const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

impl Game for Ttt {
    type State = Board;
    type Move = u8;

    fn players(_: &Board) -> usize {
        2
    }
    fn to_move(s: &Board) -> usize {
        s.to_move as usize
    }
    fn moves(s: &Board, out: &mut Vec<u8>) {
        out.clear();
        if Ttt::result(s).is_none() {
            out.extend((0..9).filter(|&i| s.cells[i as usize] == 0));
        }
    }
    fn apply(s: &Board, m: u8) -> Board {
        let mut b = *s;
        b.cells[m as usize] = s.to_move + 1;
        b.to_move ^= 1;
        b
    }
    fn result(s: &Board) -> Option<Scores> {
        for l in LINES {
            let c = s.cells[l[0]];
            if c != 0 && c == s.cells[l[1]] && c == s.cells[l[2]] {
                return Some(win_for(&[c as usize - 1]));
            }
        }
        s.cells.iter().all(|&c| c != 0).then_some([0.5, 0.5, 0.0, 0.0])
    }
    fn hash(s: &Board) -> u64 {
        s.cells.iter().fold(s.to_move as u64, |h, &c| h * 3 + c as u64)
    }
}

// ---- Nim: 2 players, 3 players, 2 partnerships of 2 -----------------------

/// One heap; a move takes 1 to 3; who takes the last wins (their team).
pub struct Nim;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heap {
    pub heap: u8,
    pub to_move: u8,
    pub players: u8,
    /// Players `p` and `p + 2` are partners.
    pub partners: bool,
    pub last: u8,
}

pub fn heap(n: u8, players: u8, partners: bool) -> Heap {
    Heap { heap: n, to_move: 0, players, partners, last: 0 }
}

impl Game for Nim {
    type State = Heap;
    type Move = u8;

    fn players(s: &Heap) -> usize {
        s.players as usize
    }
    fn to_move(s: &Heap) -> usize {
        s.to_move as usize
    }
    fn moves(s: &Heap, out: &mut Vec<u8>) {
        out.clear();
        out.extend(1..=s.heap.min(3));
    }
    fn apply(s: &Heap, m: u8) -> Heap {
        Heap { heap: s.heap - m, to_move: (s.to_move + 1) % s.players, last: s.to_move, ..*s }
    }
    fn result(s: &Heap) -> Option<Scores> {
        if s.heap > 0 {
            return None;
        }
        let last = s.last as usize;
        Some(if s.partners { win_for(&[last % 2, last % 2 + 2]) } else { win_for(&[last]) })
    }
    fn hash(s: &Heap) -> u64 {
        (s.heap as u64) << 8 | (s.to_move as u64) << 4 | (s.players as u64) << 1 | s.partners as u64
    }
    fn team(s: &Heap, p: usize) -> usize {
        if s.partners { p % 2 } else { p }
    }
}

// ---- chance: a dice duel ----------------------------------------------------

/// Player 0 scores a sure 3 or throws a die; then player 1, who has seen
/// it, does the same; the higher total wins, equal totals draw.
pub struct Duel;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelState {
    /// The totals, 0 while not played.
    pub totals: [u8; 2],
    pub to_move: u8,
    /// A die is to be thrown for `to_move`.
    pub throwing: bool,
}

pub const SAFE: u8 = 10;
pub const WILD: u8 = 11;

impl Game for Duel {
    type State = DuelState;
    type Move = u8;

    fn players(_: &DuelState) -> usize {
        2
    }
    fn to_move(s: &DuelState) -> usize {
        s.to_move as usize
    }
    fn moves(s: &DuelState, out: &mut Vec<u8>) {
        out.clear();
        if !s.throwing && s.totals[1] == 0 {
            out.extend([SAFE, WILD]);
        }
    }
    fn apply(s: &DuelState, m: u8) -> DuelState {
        let mut t = *s;
        match m {
            WILD => t.throwing = true,
            _ => {
                t.totals[s.to_move as usize] = if m == SAFE { 3 } else { m };
                t.throwing = false;
                // Still a player once the game is over (the trait asks it).
                t.to_move = 1;
            }
        }
        t
    }
    fn result(s: &DuelState) -> Option<Scores> {
        (s.totals[1] != 0).then(|| {
            let [a, b] = s.totals;
            if a == b { [0.5, 0.5, 0.0, 0.0] } else { win_for(&[if a > b { 0 } else { 1 }]) }
        })
    }
    fn hash(s: &DuelState) -> u64 {
        (s.totals[0] as u64) << 16 | (s.totals[1] as u64) << 8 | (s.to_move as u64) << 1 | s.throwing as u64
    }
    fn is_chance(s: &DuelState) -> bool {
        s.throwing
    }
    fn chance_outcomes(s: &DuelState, out: &mut Vec<(u8, f64)>) {
        out.clear();
        if s.throwing {
            out.extend((1..=6).map(|d| (d, 1.0 / 6.0)));
        }
    }
}

// ---- hidden information: one card each ------------------------------------

/// Cards 1 to 3, one each, hidden from the other player; player 0 folds
/// (a small loss) or calls (the higher card wins).
pub struct HighCard;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hands {
    pub cards: [u8; 2],
    /// 0: to act, 1: folded, 2: called.
    pub done: u8,
}

pub const FOLD: u8 = 1;
pub const CALL: u8 = 2;

impl Game for HighCard {
    type State = Hands;
    type Move = u8;

    fn players(_: &Hands) -> usize {
        2
    }
    fn to_move(_: &Hands) -> usize {
        0
    }
    fn moves(s: &Hands, out: &mut Vec<u8>) {
        out.clear();
        if s.done == 0 {
            out.extend([FOLD, CALL]);
        }
    }
    fn apply(s: &Hands, m: u8) -> Hands {
        Hands { done: m, ..*s }
    }
    fn result(s: &Hands) -> Option<Scores> {
        match s.done {
            FOLD => Some([0.25, 0.75, 0.0, 0.0]),
            CALL => Some(win_for(&[if s.cards[0] > s.cards[1] { 0 } else { 1 }])),
            _ => None,
        }
    }
    fn hash(s: &Hands) -> u64 {
        (s.cards[0] as u64) << 8 | (s.cards[1] as u64) << 4 | s.done as u64
    }
}

impl ImperfectInformation for HighCard {
    fn determinize(s: &Hands, observer: usize, rng: &mut GameRng) -> Hands {
        let mine = s.cards[observer];
        let others: Vec<u8> = (1..=3).filter(|&c| c != mine).collect();
        let mut cards = s.cards;
        cards[1 - observer] = others[below(rng, others.len())];
        Hands { cards, ..*s }
    }
}
