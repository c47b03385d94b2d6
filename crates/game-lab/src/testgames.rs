//! Games for the unit tests of the generic lab (compiled in tests only).

/// Implements the search's `Game` and the solver's `Solvable` for a
/// marker type as Nim with one heap: states `(stones, player to move)`,
/// moves take 1 or 2 stones, who takes the last stone wins (the player to
/// move loses exactly on a multiple of 3). A macro, so that each test
/// module gives its own marker the seats it needs.
macro_rules! one_heap_nim {
    ($game:ident) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        struct $game;
        impl game_search::Game for $game {
            type State = (u8, usize);
            type Move = u8;
            fn players(_: &(u8, usize)) -> usize {
                2
            }
            fn to_move(s: &(u8, usize)) -> usize {
                s.1
            }
            fn moves(s: &(u8, usize), out: &mut Vec<u8>) {
                out.clear();
                out.extend((1..=2).filter(|&k| k <= s.0));
            }
            fn apply(s: &(u8, usize), m: u8) -> (u8, usize) {
                (s.0 - m, 1 - s.1)
            }
            fn result(s: &(u8, usize)) -> Option<game_search::Scores> {
                (s.0 == 0).then(|| {
                    let mut r = [0.0; game_search::MAX_PLAYERS];
                    r[1 - s.1] = 1.0;
                    r
                })
            }
            fn hash(s: &(u8, usize)) -> u64 {
                u64::from(s.0) << 1 | s.1 as u64
            }
        }
        impl game_search::solver::Solvable for $game {}
    };
}
pub(crate) use one_heap_nim;
