//! A second, plain model of the rules written from GAMES.md §4, for
//! differential tests: a grid of cells rebuilt from the move sequence, four
//! in a row found by walking the grid. It shares nothing with the bitboard
//! but the position's move list.
//!
//! What it must never do: be used for play (it is slow on purpose) or call
//! the bitboard's own legal moves or win test.

use crate::{Move, Outcome, Position};

/// The grid of `p`, `grid[column][row]` (row 0 at the bottom): 0 empty, 1
/// the first player's disc, 2 the second's; and whether the last move made
/// four (a move after a four makes the model panic: the bitboard never
/// plays one).
fn grid(p: &Position) -> (Vec<Vec<u8>>, bool) {
    let v = p.variant();
    let (w, h) = (usize::from(v.width), usize::from(v.height));
    let mut g = vec![vec![0u8; h]; w];
    let mut won = false;
    for (i, m) in p.moves().enumerate() {
        assert!(!won, "a move after a four");
        let c = usize::from(m.column());
        let r = g[c].iter().position(|&x| x == 0).expect("a full column was played");
        let who = if i % 2 == 0 { 1 } else { 2 };
        g[c][r] = who;
        won = (0..w).any(|c0| {
            (0..h).any(|r0| {
                [(1i32, 0i32), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
                    (0..4).all(|k| {
                        let (cc, rr) = (c0 as i32 + dc * k, r0 as i32 + dr * k);
                        cc >= 0
                            && rr >= 0
                            && (cc as usize) < w
                            && (rr as usize) < h
                            && g[cc as usize][rr as usize] == who
                    })
                })
            })
        });
    }
    (g, won)
}

/// The legal moves of `p`, left to right: every column with an empty top
/// cell, none after a four or on a full board.
pub fn legal_moves(p: &Position) -> Vec<Move> {
    let (g, won) = grid(p);
    if won {
        return Vec::new();
    }
    let h = usize::from(p.variant().height);
    (0..g.len()).filter(|&c| g[c][h - 1] == 0).map(|c| Move::new(c as u8).expect("a column")).collect()
}

/// The result of `p` by the grid: the last mover wins on a four, a full
/// board is a draw.
pub fn outcome(p: &Position) -> Option<Outcome> {
    let (g, won) = grid(p);
    if won {
        Some(Outcome::Win { player: (p.ply() as usize + 1) % 2 })
    } else if g.iter().all(|col| col.iter().all(|&x| x != 0)) {
        Some(Outcome::Draw)
    } else {
        None
    }
}

/// The disc on `(column, row)` by the grid: 0 or 1 for the player, `None`
/// for an empty cell.
pub fn disc(p: &Position, column: u8, row: u8) -> Option<usize> {
    match grid(p).0[usize::from(column)][usize::from(row)] {
        0 => None,
        x => Some(usize::from(x) - 1),
    }
}
