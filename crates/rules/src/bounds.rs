//! Lower bounds on how soon a side can win (or hold a draw), from the piles
//! and the door: what an exact solver may use to cut a line that cannot
//! reach its goal within its horizon.
//!
//! Every bound here is a *sound* lower bound: it never exceeds the fewest
//! play half-moves, over every line of both sides, after which the game is
//! over with the goal reached. It must never be a guess, read a history
//! (the repetition counts are given, [`Recurrences`]), or depend on
//! anything but the position and those counts; it knows nothing of search.
//!
//! # Why the bound holds
//!
//! A game that is not over ends by majority (the side's pile reaches the
//! variant's majority) or by repetition, closure or block, where the bigger
//! pile wins. The second kind cannot come before [`min_plies_to_end`]
//! (each of the three has its own bound, and its proof beside it), nor
//! before the piles allow the result. For `side` (pile `x`, the other's
//! `y`, both below their majorities) to win that way it needs
//! `max(0, y + 1 - x)` more dice in its pile, and `max(0, y - x)` to hold a
//! draw (under `ties=second` the second mover needs `max(0, y - x)` to win
//! and the first mover `max(0, y + 1 - x)` even to hold a draw); by majority
//! it needs `m - x`, `m` its own majority (`second_majority` for the second
//! mover).
//! Piles never shrink. A die reaches a pile only by
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
use crate::variant::Ties;

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
/// the pile count; 0 when the piles already allow it. Under `ties=second`
/// equal piles are the second mover's win and the first mover's loss.
pub fn dice_short(p: &Position, side: Side, or_draw: bool) -> u32 {
    let piles = p.piles();
    let (x, y) = (piles.of(side) as u32, piles.of(side.other()) as u32);
    let ahead = match p.ties() {
        Ties::Draw => u32::from(!or_draw),
        Ties::Second => u32::from(p.variant().count_margin(side)),
    };
    (y + ahead).saturating_sub(x)
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
    if u32::from(p.piles().of(me)) + 1 < u32::from(p.majority_of(me)) {
        return false;
    }
    let free = !p.restricted();
    let mine = p.showing(colour(me)) & free;
    let agents = mine & p.with_symbol(Symbol::Square);
    !(mine & Bitboard::ROW_I & (agents.left() | agents.right())).is_empty()
}

/// The plies needed to add `short` dice to `side`'s pile, and those needed
/// to add `total` dice (both counts at once): at most one die a half-move,
/// the first two as [`can_score_now`] and [`can_score_second`] allow;
/// [`NEVER`] when more dice are needed than the board holds.
fn plies_for_dice(p: &Position, side: Side, short: u32, total: u32) -> (u32, u32) {
    if short == 0 && total == 0 {
        return (0, 0);
    }
    let dice = p.dice_count();
    let first = u32::from(can_score_now(p, side));
    let both = first + u32::from(can_score_second(p, side));
    let plies = |k: u32| {
        if k == 0 {
            0
        } else if k > dice {
            NEVER
        } else if k <= first {
            1
        } else if k <= both {
            2
        } else {
            k + 2 - both
        }
    };
    (plies(short), plies(total))
}

/// How often the positions of the repetition window have occurred, by
/// their side to move: all that [`min_plies_to_repetition`] needs. The
/// window is the caller's (a game record or a search state keeps it); this
/// module reads no history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Recurrences {
    /// The most occurrences of one position with the current side to move
    /// (the current position included, so at least 1 in play).
    pub same: u8,
    /// The most occurrences of one position with the other side to move
    /// (0 when the window has none).
    pub other: u8,
}

impl Recurrences {
    /// The counts of a window that holds only the current position (the
    /// first position of play, or the one after a die went through the door).
    pub const FRESH: Recurrences = Recurrences { same: 1, other: 0 };

    /// The counts after a move to a position that has now occurred
    /// `occurrences` times (in the window that move leaves), `clock` being
    /// the new position's: the sides swap, and the new position joins those
    /// with the side to move; a die through the door (`clock == 0`) starts
    /// a fresh window. Never below the true counts, so the bound stays
    /// sound even where a window dropped its oldest position.
    #[inline]
    pub const fn after(self, occurrences: u8, clock: u8) -> Recurrences {
        if clock == 0 {
            return Recurrences::FRESH;
        }
        let same = if occurrences > self.other { occurrences } else { self.other };
        Recurrences { same, other: self.same }
    }
}

/// A lower bound on the play half-moves before the game can end by
/// repetition (the variant's `repetition` occurrences of one position).
///
/// A position includes the side to move, which changes at every
/// half-move, so a position with the current side to move can occur again
/// only after an even number of half-moves (2 at least), one with the other
/// side to move only after an odd number, and two occurrences of one
/// position are at least 2 half-moves apart. A position seen `c` times
/// needs `r - c` more occurrences: the first after 2 half-moves (same side)
/// or 1 (other side), each next one 2 later; a position not in the window
/// needs more than one seen there. 0 when the current position has
/// occurred `r` times.
pub fn min_plies_to_repetition(p: &Position, rec: Recurrences) -> u32 {
    let r = u32::from(p.repetition());
    let (same, other) = (u32::from(rec.same), u32::from(rec.other));
    if same >= r {
        return 0;
    }
    let same_side = 2 * (r - same);
    let other_side = 2 * (r - other.min(r - 1)) - 1;
    same_side.min(other_side)
}

/// A lower bound on the play half-moves before the game can end by
/// closure: the clock grows by one a half-move at most (a die through the
/// door sets it back to 0).
pub fn min_plies_to_closure(p: &Position) -> u32 {
    u32::from(p.closure()).saturating_sub(u32::from(p.clock()))
}

/// The half-moves that `side` keeps a plain move for, at least: with
/// `k(row) = min(free cells of the row, dice of the row showing side's
/// colour)`, the larger of `k(S) + k(I)` and `k(M)` (`unrestricted`: only
/// dice free to move now count, and the largest `k` is enough to say
/// whether it is 0). See [`min_plies_to_block`].
fn plain_reserve(p: &Position, side: Side, unrestricted: bool) -> u32 {
    let mut dice = p.showing(colour(side));
    if unrestricted {
        dice &= !p.restricted();
    }
    let free = !p.occupied();
    let k = |row: Bitboard| (free & row).len().min((dice & row).len());
    let (s, m, i) = (k(Bitboard::ROW_S), k(Bitboard::ROW_M), k(Bitboard::ROW_I));
    (s + i).max(m)
}

/// A lower bound on the play half-moves before the game can end by block
/// (the side to move has no legal move).
///
/// A side has a plain move wherever a row has a free cell and a die of that
/// row showing its colour, not restricted. For each row take the `n` dice
/// that show `side`'s colour now (restricted or not), its `f` free cells
/// and `k = min(f, n)`. Say a half-move *touches* a row when it fills one
/// of its free cells (a push into it: a permutation or an ejection leaves
/// the count of the row's dice as it was) or takes one of those `n` dice
/// away from it (a flip changes its colour; a push, a permutation or an
/// ejection moves it to another row; the last half-move may also restrict
/// it in place, a quarter turn). A half-move does one of these at most per
/// row, so a row still has a free cell and one of those dice free to move
/// until it has been touched `k` times. A flip, a quarter turn or a push
/// through the door touches one row; a push, a permutation or an ejection
/// touches the two rows it moves dice between, and those are always M and
/// S or M and I (no move goes from S to I). So every half-move touches at
/// most one of S and I, and at most M besides: `side` cannot be blocked
/// at a turn of its own before half-move `max(k(S) + k(I), k(M))`, and
/// now (`t = 0`) only if no row has a free cell and an unrestricted die
/// of its colour. Agent moves, which also prevent a block, are left out:
/// the bound is lower, and still sound.
pub fn min_plies_to_block(p: &Position) -> u32 {
    if !p.is_play() {
        return 0;
    }
    let me = p.side_to_move();
    if plain_reserve(p, me, true) == 0 {
        return 0;
    }
    // The side to move plays at even half-moves, the other side at odd ones.
    let mine = plain_reserve(p, me, false).max(2);
    let theirs = plain_reserve(p, me.other(), false).max(1);
    (mine + (mine & 1)).min(theirs | 1)
}

/// A lower bound on the play half-moves before the game can end other than
/// by majority: by repetition, closure or block, whichever may come first.
pub fn min_plies_to_end(p: &Position, rec: Recurrences) -> u32 {
    if !p.is_play() {
        return 0;
    }
    min_plies_to_block(p).min(min_plies_to_quiet_end(p, rec))
}

/// The smaller of the repetition and closure bounds: the cheap part of
/// [`min_plies_to_end`], which needs no count of the rows.
fn min_plies_to_quiet_end(p: &Position, rec: Recurrences) -> u32 {
    min_plies_to_closure(p).min(min_plies_to_repetition(p, rec))
}

/// A lower bound on the play half-moves after which the game can be over
/// with `side` winning (`or_draw` false) or not losing (`or_draw` true),
/// over every line of both sides; [`NEVER`] when no line gets there; 0 in
/// the draft (no bound). `rec` describes the repetition window
/// ([`Recurrences`]). Where the game is over with that result it is 0 (the
/// side holds the majority, or the game ended another way with the piles
/// giving the result), so callers may ask it before they check the end.
///
/// The game ends with that result either by `side`'s majority, or by
/// another end ([`min_plies_to_end`]) at a time when the piles give the
/// result ([`dice_short`]): the bound is the smaller of the two ways, the
/// second being the later of its two conditions. See the module
/// documentation for the proof of the dice counts.
pub fn min_plies_to_result(p: &Position, side: Side, or_draw: bool, rec: Recurrences) -> u32 {
    if !p.is_play() {
        return 0;
    }
    // The two counts are independent: with a second mover's majority
    // below the first's, the majority may need fewer dice than the lead.
    let short = dice_short(p, side, or_draw);
    let majority = u32::from(p.majority_of(side)).saturating_sub(u32::from(p.piles().of(side)));
    let (by_count, by_majority) = plies_for_dice(p, side, short, majority);
    // The later of the pile count and the end, the cheap ends first: when
    // the count comes no sooner than repetition or closure, block (which
    // counts the rows) cannot change the maximum.
    let quiet = min_plies_to_quiet_end(p, rec);
    if by_count >= by_majority || by_count >= quiet {
        return by_majority.min(by_count);
    }
    by_majority.min(by_count.max(min_plies_to_block(p).min(quiet)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(spn: &str) -> Position {
        spn.parse().unwrap()
    }

    #[test]
    fn ties_and_second_majorities_move_the_goal() {
        let after6 = "3Tr,8Sb,10Tb,13Sr,18Tr,9Tb,6Cr,12Sb,5Cr,15Tr,16Sb/.,4Sb,.,.,1Sr,.,20Cb/17Cb,2Sr,21Tr,23Cr,7Cr b I20 2-2-0 1";
        let at = |text: &str| Position::from_spn_in(after6, crate::Variant::parse(text).unwrap()).unwrap();
        let short = |p: &Position, side, or_draw| dice_short(p, side, or_draw);
        let rules = at("");
        assert_eq!((short(&rules, Side::Red, false), short(&rules, Side::Red, true)), (1, 0));
        // Red moves second: equal piles are its win and blue's loss.
        let ties = at("ties=second");
        assert_eq!((short(&ties, Side::Red, false), short(&ties, Side::Red, true)), (0, 0));
        assert_eq!((short(&ties, Side::Blue, false), short(&ties, Side::Blue, true)), (1, 1));
        // Red's majority of 3 is one die away, blue's 5 three.
        let p = at("second_majority=3");
        let fresh = Recurrences::FRESH;
        assert!(min_plies_to_result(&p, Side::Red, false, fresh) >= 1);
        assert!(
            min_plies_to_result(&p, Side::Red, false, fresh) <= min_plies_to_result(&rules, Side::Red, false, fresh)
        );
    }

    #[test]
    fn a_die_to_push_out_now() {
        // Blue's square I22 is next to its die I23: one half-move to the fifth die.
        let p = pos(".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb b - 4-4-13 0");
        assert!(can_score_now(&p, Side::Blue));
        assert_eq!(min_plies_to_result(&p, Side::Blue, false, Recurrences::FRESH), 1);
        // Red has no die showing red: neither of the next two half-moves gives it one.
        assert!(!can_score_now(&p, Side::Red) && !can_score_second(&p, Side::Red));
        assert_eq!(min_plies_to_result(&p, Side::Red, false, Recurrences::FRESH), 3);
        // Level piles: a draw needs no die, but another end than majority:
        // red, which has no die showing red, is blocked at its turn.
        assert_eq!(min_plies_to_result(&p, Side::Red, true, Recurrences::FRESH), 1);
        assert_eq!(min_plies_to_block(&p), 1);
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
        assert_eq!(min_plies_to_result(&p, Side::Red, false, Recurrences::FRESH), NEVER);
        assert_eq!(min_plies_to_result(&p, Side::Blue, false, Recurrences::FRESH), 0);
    }

    #[test]
    fn repetition_needs_its_occurrences_two_half_moves_apart() {
        let p = Position::start();
        assert_eq!(p.repetition(), 3);
        let at = |same, other| min_plies_to_repetition(&p, Recurrences { same, other });
        // A fresh window: the current position again after 2 and 4 half-moves.
        assert_eq!(at(1, 0), 4);
        // A position of the other side's, seen once: after 1 and 3 half-moves.
        assert_eq!(at(1, 1), 3);
        assert_eq!(at(2, 1), 2);
        assert_eq!(at(1, 2), 1);
        assert_eq!(at(3, 1), 0);
        // The counts swap sides at each move; a door starts afresh.
        let r = Recurrences { same: 2, other: 1 };
        assert_eq!(r.after(2, 5), Recurrences { same: 2, other: 2 });
        assert_eq!(r.after(1, 5), Recurrences { same: 1, other: 2 });
        assert_eq!(r.after(1, 0), Recurrences::FRESH);
    }

    #[test]
    fn closure_comes_when_the_clock_does() {
        let p = pos(".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb b - 4-4-13 57");
        assert_eq!(min_plies_to_closure(&p), 3);
    }

    #[test]
    fn block_needs_the_rows_filled_or_emptied() {
        // Red (to move) has 2 dice in row S (9 free cells) and one in row I
        // (4 free cells): k(S) + k(I) = 3; blue, with none, is blocked at
        // its first turn.
        let p = pos("1Sr,2Tr,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./23Cr,.,.,.,. r - 4-4-12 0");
        assert_eq!(min_plies_to_block(&p), 1);
        // One blue die in row M (6 free cells): a red flip could take it.
        let p = pos("1Sr,2Tr,.,.,.,.,.,.,.,.,./5Cb,.,.,.,.,.,./23Cr,.,.,.,. r - 4-4-11 0");
        assert_eq!(min_plies_to_block(&p), 1);
        // Two: blue's turns from half-move 3, red's from 4.
        let p = pos("1Sr,2Tr,.,.,.,.,.,.,.,.,./5Cb,6Cb,.,.,.,.,./23Cr,.,.,.,. r - 4-4-10 0");
        assert_eq!(min_plies_to_block(&p), 3);
        // Three dice each in row S (5 free cells): the same.
        let p = pos("1Sr,15Tr,18Tr,8Sb,12Sb,16Sb,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. r - 4-4-9 0");
        assert_eq!(min_plies_to_block(&p), 3);
        // Red's only die is restricted: red may be blocked now.
        let p = pos("1Sr,.,.,.,.,.,.,.,.,.,./5Cb,.,.,.,.,.,./.,.,.,.,. r S1 4-4-13 1");
        assert_eq!(min_plies_to_block(&p), 0);
    }

    #[test]
    fn the_draft_has_no_bound() {
        assert_eq!(min_plies_to_result(&Position::start(), Side::Red, false, Recurrences::FRESH), 0);
    }
}
