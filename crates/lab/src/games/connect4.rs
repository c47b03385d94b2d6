//! Connect Four for the generic searches (the exact solver first): the
//! rules crate's position as a [`game_search::Game`], with the game's own
//! move order (centre columns first) and the solver's shortcuts (a four
//! found without building the child, a win at once found without the
//! move list).
//!
//! Not yet a [`super::LabGame`] nor a `--game` (issue 57 adds it through
//! the one face). This module never changes the rules: moves, ends, texts
//! and keys come from `connect4-rules`.

use connect4_rules::{Move, Outcome, Position};
use game_search::Scores;
use game_search::solver::{Goal, Solvable};

/// Connect Four for the searches.
#[derive(Clone, Copy, Debug)]
pub struct Connect4;

super::rules_game!(Connect4, Position, Move; {
    /// Centre columns first: on 7 columns 4, then 3 and 5, then 2 and 6, …
    fn priority(s: &Position, m: Move) -> i32 {
        let w = i32::from(s.variant().width);
        -(2 * i32::from(m.column()) + 1 - w).abs()
    }
});

impl Solvable for Connect4 {
    fn result_after(s: &Position, m: Move) -> Option<Scores> {
        let players = s.players();
        if s.wins_with(m) {
            Some(Outcome::Win { player: s.to_move() }.scores(players))
        } else if s.ply() as usize + 1 == s.variant().cells() {
            Some(Outcome::Draw.scores(players))
        } else {
            None
        }
    }

    /// Over after `m` only if `m` makes four or fills the board.
    fn may_reach(s: &Position, m: Move, _player: usize, _goal: Goal) -> bool {
        s.ply() as usize + 1 == s.variant().cells() || s.wins_with(m)
    }

    fn wins_at_once(s: &Position) -> bool {
        let mut moves = Vec::with_capacity(9);
        s.legal_moves(&mut moves);
        moves.into_iter().any(|m| s.wins_with(m))
    }
}

/// A 7 × 6 position of `stones` discs played at random (`pick(n)` chooses
/// among `n` legal moves), if the game is not over and the side to move
/// has no win at once (the positions of the public solvers' test sets);
/// `None` otherwise.
pub fn random_open_position(stones: u32, mut pick: impl FnMut(usize) -> usize) -> Option<Position> {
    let mut p = Position::start(connect4_rules::Variant::default());
    while p.ply() < stones && !p.is_over() {
        let m = p.nth_move(pick(p.count_moves())).expect("a move");
        p.play_unchecked(m);
    }
    (!p.is_over() && p.ply() == stones && !Connect4::wins_at_once(&p)).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ahash::AHashMap as HashMap;
    use connect4_rules::Variant;
    use game_search::solver::{Solver, Verdict};

    /// Exact value by plain minimax over every line (memoised by board,
    /// no pruning, no move order), for the side to move: a win whose
    /// winning disc is dropped with `stones` discs already on the board
    /// scores `cells + 1 - stones` (a sooner win more, a later loss less
    /// badly), a loss the negative, a draw 0.
    fn brute(p: &Position, memo: &mut HashMap<u64, i32>) -> i32 {
        if let Some(&v) = memo.get(&p.key()) {
            return v;
        }
        let cells = p.variant().cells() as i32;
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let v = moves
            .iter()
            .map(|&m| {
                if p.wins_with(m) {
                    cells + 1 - p.ply() as i32
                } else {
                    let mut q = *p;
                    q.play_unchecked(m);
                    -brute(&q, memo)
                }
            })
            .max()
            .unwrap_or(0);
        memo.insert(p.key(), v);
        v
    }

    /// The solver's verdict on the same scale: a result `n` plies ahead has
    /// its last disc dropped with `ply + n - 1` discs on the board.
    fn scored(p: &Position, v: Verdict) -> i32 {
        let value = |n: u32| p.variant().cells() as i32 + 1 - (p.ply() as i32 + n as i32 - 1);
        match v {
            Verdict::Win(n) => value(n),
            Verdict::Loss(n) => -value(n),
            Verdict::Draw(_) => 0,
            Verdict::Unknown => panic!("undecided: {p}"),
        }
    }

    #[test]
    fn the_solver_agrees_with_plain_minimax() {
        // Every position of small boards' first plies, solved to the end.
        let mut seen = 0;
        for text in ["width=4,height=4", "width=5,height=4", "width=4,height=5"] {
            let v = Variant::parse(text).unwrap();
            let mut memo = HashMap::new();
            let mut solver = Solver::<Connect4>::with_table_mb(16);
            let mut stack = vec![Position::start(v)];
            let mut moves = Vec::new();
            while let Some(p) = stack.pop() {
                let want = brute(&p, &mut memo);
                let got = solver.solve(&p, v.cells() as u32);
                assert_eq!(scored(&p, got.verdict), want, "{text} {p}: {:?}", got.verdict);
                seen += 1;
                if p.ply() < 3 {
                    p.legal_moves(&mut moves);
                    for &m in &moves {
                        let mut q = p;
                        q.play_unchecked(m);
                        stack.push(q);
                    }
                }
            }
        }
        assert!(seen > 100, "{seen}");
    }

    #[test]
    fn the_solver_agrees_with_plain_minimax_on_7x6_endgames() {
        // Random 7 × 6 positions of 20 to 36 discs where the side to move
        // has no win at once (those are answered before any search), each
        // solved exactly, distance included.
        let mut rng = testkit::XorShift64::new(57);
        let mut memo = HashMap::new();
        let mut solver = Solver::<Connect4>::with_table_mb(64);
        let (mut checked, mut kinds) = (0, [0usize; 3]);
        let want = if testkit::UNOPTIMISED { 100 } else { 2000 };
        while checked < want {
            // Few of the slow ones (plain minimax takes up to a second
            // from 20 discs): one in 400 at 20-22 discs, the rest 28-36.
            let stones = if checked % 400 == 0 { 20 + rng.below(3) } else { 28 + rng.below(9) } as u32;
            let Some(p) = random_open_position(stones, |n| rng.below(n)) else { continue };
            let want = brute(&p, &mut memo);
            let got = solver.solve(&p, 42);
            assert_eq!(scored(&p, got.verdict), want, "{p}: {:?}", got.verdict);
            kinds[usize::from(want > 0) + usize::from(want >= 0)] += 1;
            checked += 1;
        }
        assert!(kinds.iter().all(|&k| k > 0), "losses, draws and wins all met: {kinds:?}");
    }
}
