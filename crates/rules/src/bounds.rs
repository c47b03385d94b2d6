//! Lower bounds on how soon a side can win (or hold a draw), from the piles
//! and the door: what an exact solver may use to cut a line that cannot
//! reach its goal within its horizon.
//!
//! Every bound here is a *sound* lower bound: it never exceeds the fewest
//! play half-moves, over every line of both sides, after which the game is
//! over with the goal reached. It must never be a guess, read a history, or
//! depend on anything but the position; it knows nothing of search.
//!
//! # Why the bound holds
//!
//! A game that is not over ends by majority (the side's pile reaches the
//! variant's majority) or by repetition, closure or block, where the bigger
//! pile wins. Block can come at any turn, so the pile count is all that
//! limits the second kind. For `side` (pile `x`, the other's `y`, both below
//! the majority `m`) to win it needs `max(0, y + 1 - x)` more dice in its
//! pile (fewer than the `m - x` of a majority, since `y < m`), and to hold a
//! draw `max(0, y - x)`. Piles never shrink. A die reaches a pile only by
//! going through the door, which happens only in a push: the target pushed
//! from row I to the door, or the die of a full row I dislodged by a target
//! pushed in from row M. Either way at most one die per half-move, and it is
//! a die of row I, not restricted, that goes to the pile of the colour it
//! shows as it was before the move (a push changes no face). So `k` dice
//! need at least `k` half-moves, one more when the side to move cannot send
//! a die showing `side`'s colour through the door right now (no such die
//! in row I that a square agent of the mover can push out or dislodge:
//! [`can_score_now`]), and one more again when the half-move after cannot
//! either ([`can_score_second`] says why one move changes little there).
//! A side that needs more dice than are left on the board cannot get them.

use crate::board::Bitboard;
use crate::dice::{Colour, Side, Symbol};
use crate::position::Position;

/// "Never": the goal cannot be reached at all.
pub const NEVER: u32 = u32::MAX;

/// The colour of a side's dice.
const fn colour(side: Side) -> Colour {
    match side {
        Side::Red => Colour::Red,
        Side::Blue => Colour::Blue,
    }
}

/// The dice `side` still needs in its pile for the game to be able to end
/// with it winning (`or_draw` false) or not losing (`or_draw` true) under
/// the pile count; 0 when the piles already allow it.
pub fn dice_short(p: &Position, side: Side, or_draw: bool) -> u32 {
    let piles = p.piles();
    let (x, y) = (piles.of(side) as u32, piles.of(side.other()) as u32);
    (y + u32::from(!or_draw)).saturating_sub(x)
}

/// Whether the side to move has a legal push now that sends a die showing
/// `side`'s colour through the door: a square agent of the mover's colour
/// next to such a die in row I (the push to the door), or, with row I full,
/// next to a die of row M (pushed into row I, dislodging such a die).
/// Agents, targets and dislodged dice must not be restricted.
pub fn can_score_now(p: &Position, side: Side) -> bool {
    if !p.is_play() {
        return false;
    }
    let free = !p.restricted();
    let ready = p.showing(colour(side)) & Bitboard::ROW_I & free;
    if ready.is_empty() {
        return false;
    }
    let agents = p.showing(colour(p.side_to_move())) & p.with_symbol(Symbol::Square) & free;
    // The cells next to an agent (neighbours never leave their row).
    let reach = agents.left() | agents.right();
    let touches = |targets: Bitboard| !(targets & reach).is_empty();
    if touches(ready) {
        return true;
    }
    let row_i_full = (p.occupied() & Bitboard::ROW_I) == Bitboard::ROW_I;
    row_i_full && touches(p.occupied() & Bitboard::ROW_M & free)
}

/// Whether the half-move after the next one may send a die showing
/// `side`'s colour through the door, whatever the next one is; `false`
/// only when it certainly cannot.
///
/// Every move that brings a die into row I, or changes what a die shows,
/// restricts it (the target of a flip, a quarter turn or a push, the die
/// dislodged by a permutation), and a restricted die can neither act nor
/// be pushed or dislodged on the half-move after. A plain move changes
/// neither row nor face, and the side to move plain-moves only dice of its
/// own colour. So the die that goes out on the second half-move shows
/// `side`'s colour in row I now, and the square agent that pushes it (or
/// that pushes a die of row M into a full row I) shows the colour of the
/// second mover now, on the same cell. Only `side`'s dice may move closer
/// to that agent first, when `side` moves next, and only to a free cell;
/// row I can gain at most one die before it.
pub fn can_score_second(p: &Position, side: Side) -> bool {
    if !p.is_play() {
        return false;
    }
    let row_i = Bitboard::ROW_I;
    let ready = p.showing(colour(side)) & row_i;
    if ready.is_empty() {
        return false;
    }
    let second = p.side_to_move().other();
    let agents = p.showing(colour(second)) & p.with_symbol(Symbol::Square);
    let reach = agents.left() | agents.right();
    let free_i = row_i & !p.occupied();
    let targets = if side == p.side_to_move() { ready | free_i } else { ready };
    if !(reach & row_i & targets).is_empty() {
        return true;
    }
    !(agents & Bitboard::ROW_M).is_empty() && free_i.len() <= 1
}

/// Whether the side to move wins at once: its pile is one die short of the
/// majority (or less), and a square agent of its colour stands next to a
/// die of row I that shows its colour, neither restricted, so that pushing
/// that die through the door gives it the majority. `true` only where such
/// a move certainly exists; `false` also where unsure (a push from row M
/// into a full row I is not looked at). Asked of a game that is not over.
pub fn wins_at_once(p: &Position) -> bool {
    if !p.is_play() {
        return false;
    }
    let me = p.side_to_move();
    if u32::from(p.piles().of(me)) + 1 < u32::from(p.majority_at()) {
        return false;
    }
    let free = !p.restricted();
    let mine = p.showing(colour(me)) & free;
    let agents = mine & p.with_symbol(Symbol::Square);
    !(mine & Bitboard::ROW_I & (agents.left() | agents.right())).is_empty()
}

/// A lower bound on the play half-moves after which the game can be over
/// with `side` winning (`or_draw` false) or not losing (`or_draw` true),
/// over every line of both sides; [`NEVER`] when no line gets there; 0 in
/// the draft (no bound). Where the game is over with that result it is 0
/// (the side leads, or holds the majority), so callers may ask it before
/// they check the end. See the module documentation for the proof.
pub fn min_plies_to_result(p: &Position, side: Side, or_draw: bool) -> u32 {
    if !p.is_play() {
        return 0;
    }
    let short = dice_short(p, side, or_draw);
    if short == 0 {
        return 0;
    }
    if short > p.dice_count() {
        return NEVER;
    }
    // At most one die a half-move; the first two as [`can_score_now`] and
    // [`can_score_second`] allow.
    let first = u32::from(can_score_now(p, side));
    let both = first + u32::from(can_score_second(p, side));
    if short <= first {
        1
    } else if short <= both {
        2
    } else {
        short + 2 - both
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(spn: &str) -> Position {
        spn.parse().unwrap()
    }

    #[test]
    fn a_die_to_push_out_now() {
        // Blue's square I22 is next to its die I23: one half-move to the fifth die.
        let p = pos(".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb b - 4-4-13 0");
        assert!(can_score_now(&p, Side::Blue));
        assert_eq!(min_plies_to_result(&p, Side::Blue, false), 1);
        // Red has no die showing red: neither of the next two half-moves gives it one.
        assert!(!can_score_now(&p, Side::Red) && !can_score_second(&p, Side::Red));
        assert_eq!(min_plies_to_result(&p, Side::Red, false), 3);
        // Level piles: a draw needs no die.
        assert_eq!(min_plies_to_result(&p, Side::Red, true), 0);
    }

    #[test]
    fn a_win_at_once() {
        // Blue (4 dice, majority 5) pushes I23 through the door with its square I22.
        let blue = pos(".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb b - 4-4-13 0");
        assert!(wins_at_once(&blue));
        // No square next to it, or one die further from the majority, or red to move: no.
        assert!(!wins_at_once(&pos(".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Cb,5Cb b - 4-4-13 0")));
        assert!(!wins_at_once(&pos(".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb b - 4-3-14 0")));
        assert!(!wins_at_once(&pos(".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb r - 4-4-13 0")));
    }

    #[test]
    fn more_dice_than_the_board_holds() {
        let p = pos(".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb r - 1-4-16 0");
        assert_eq!(dice_short(&p, Side::Red, false), 4);
        assert_eq!(min_plies_to_result(&p, Side::Red, false), NEVER);
        assert_eq!(min_plies_to_result(&p, Side::Blue, false), 0);
    }

    #[test]
    fn the_draft_has_no_bound() {
        assert_eq!(min_plies_to_result(&Position::start(), Side::Red, false), 0);
    }
}
