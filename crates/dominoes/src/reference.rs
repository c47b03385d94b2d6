//! A second, plain legal-move generator written from the rules text
//! (GAMES.md §2.2, §2.3), for differential tests: no bit tricks, no
//! shared helper with the fast generator beyond the state's accessors.
//!
//! What it must never do: be used for play (it is slow on purpose) or
//! call `State::legal_moves`.

use crate::{End, Move, State, Tile};

/// The legal decisions of `s`, in the fast generator's order (left-end
/// plays by tile number, then right-end plays, or a lone pass); empty at
/// chance nodes and when the round or match is over.
pub fn legal_moves(s: &State) -> Vec<Move> {
    let mut out = Vec::new();
    if s.round_over() || s.dealing() {
        return out;
    }
    let v = s.variant();
    let hand: Vec<Tile> = s.hand(s.to_move()).iter().collect();
    let Some((l, r)) = s.ends() else {
        if v.openspiel {
            // OpenSpiel: player 0 opens with any tile.
            for &t in &hand {
                out.push(Move::Play { tile: t, end: End::Left });
            }
        } else {
            // The highest double dealt, else the heaviest tile, ties by the higher end.
            let mut dealt: Vec<Tile> = Vec::new();
            for p in 0..s.players() {
                dealt.extend(s.hand(p).iter());
            }
            let key = |t: &Tile| {
                let (h, lo) = t.ends();
                (h == lo, h + lo, h)
            };
            let best = dealt.iter().copied().max_by_key(key).expect("a dealt tile");
            if hand.contains(&best) {
                out.push(Move::Play { tile: best, end: End::Left });
            }
        }
        return out;
    };
    let mut left = Vec::new();
    let mut right = Vec::new();
    for &t in &hand {
        let (a, b) = t.ends();
        if a == l || b == l {
            left.push(Move::Play { tile: t, end: End::Left });
        }
        if l != r && (a == r || b == r) {
            right.push(Move::Play { tile: t, end: End::Right });
        }
    }
    if left.is_empty() && right.is_empty() {
        // Draw while the boneyard has tiles (a chance node), else pass.
        if !v.openspiel && !s.boneyard().is_empty() {
            return out;
        }
        out.push(Move::Pass);
        return out;
    }
    out.extend(left);
    out.extend(right);
    out
}
