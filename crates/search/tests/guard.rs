//! The root guard: forced wins taken before the search, proved losses
//! refused after it, the search's choice kept without a proof.

mod common;

use common::{Board, Nim, START, Ttt, heap};
use game_search::guard::{Guard, GuardConfig, GuardNote};
use game_search::solver::Solvable;

impl Solvable for Ttt {}
impl Solvable for Nim {}

fn guard<G: Solvable>(depth: u32) -> Guard<G> {
    Guard::new(GuardConfig { depth, before: depth, time: None, ..GuardConfig::default() })
}

#[test]
fn the_look_before_the_search_keeps_to_its_own_horizon() {
    // The 3-ply win of six stones: no look before the search (0) or one of
    // 2 plies misses it, the search decides; `win_within` (the deep look)
    // still sees it within the guard's horizon.
    for before in [0, 2] {
        let mut g = Guard::<Nim>::new(GuardConfig { depth: 3, before, time: None, ..GuardConfig::default() });
        let (m, note) = g.choose(&heap(6, 2, false), || vec![1, 2, 3]);
        assert_eq!((m, note), (Some(1), GuardNote::Nothing), "before {before}");
        assert_eq!(g.win_within(&heap(6, 2, false), 10_000), Some((2, 3)), "before {before}");
    }
    let mut g = Guard::<Nim>::new(GuardConfig { depth: 3, before: 0, time: None, ..GuardConfig::default() });
    let before = g.nodes;
    assert_eq!(g.before(&heap(6, 2, false)), None);
    assert_eq!(g.nodes, before, "no look, no node");
}

#[test]
fn a_forced_win_within_the_horizon_is_played_before_any_search() {
    // Six stones: taking two leaves four, a win within three plies whatever
    // the opponent takes; one and three lose or are slower.
    let mut g = guard::<Nim>(3);
    let (m, note) = g.choose(&heap(6, 2, false), || panic!("no search when a win is proved"));
    assert_eq!(m, Some(2));
    assert_eq!(note, GuardNote::Win(2, 3));
    assert!(g.nodes > 0);
    // Beyond the horizon the win is not seen and the search decides.
    let mut g = guard::<Nim>(2);
    let (m, note) = g.choose(&heap(6, 2, false), || vec![1, 2, 3]);
    assert_eq!((m, note), (Some(1), GuardNote::Nothing));
}

#[test]
fn a_move_proved_lost_is_replaced_by_the_next_that_is_not() {
    // X on a1 and a2, O on the centre, O to move: only the third cell of
    // the top row stops X's line.
    let mut cells = [0u8; 9];
    cells[0] = 1;
    cells[1] = 1;
    cells[4] = 2;
    let s = Board { cells, to_move: 1 };
    let mut g = guard::<Ttt>(4);
    let (m, note) = g.choose(&s, || vec![8, 5, 2, 3]);
    assert_eq!(m, Some(2));
    assert_eq!(note, GuardNote::Saved { refused: 8, plies: 2, played: 2 });
    // With one check only, the guard gives up and the search's choice stands.
    let mut g = Guard::<Ttt>::new(GuardConfig { depth: 4, time: None, checks: 1, ..GuardConfig::default() });
    assert_eq!(g.choose(&s, || vec![8, 5, 2, 3]).0, Some(8));
}

#[test]
fn without_a_proof_the_search_decides() {
    let mut g = guard::<Ttt>(3);
    let (m, note) = g.choose(&START, || vec![4, 0, 8]);
    assert_eq!((m, note), (Some(4), GuardNote::Nothing));
}

#[test]
fn a_lost_position_keeps_the_search_choice_and_says_so() {
    // Four stones for the side to move: every move loses within two plies
    // (taking 1 leaves 3, which the rival takes at once, and so on); all
    // are equally long, so the search's first stays.
    let mut g = guard::<Nim>(5);
    let (m, note) = g.choose(&heap(4, 2, false), || vec![3, 1, 2]);
    assert_eq!((m, note), (Some(3), GuardNote::Lost { played: 3, plies: 2 }));
    // Eight stones: every move loses within four plies (the rival leaves
    // four, then takes what is left), none sooner.
    let mut g = guard::<Nim>(9);
    let (m, note) = g.choose(&heap(8, 2, false), || vec![3, 2, 1]);
    assert_eq!(m, Some(3));
    assert!(matches!(note, GuardNote::Lost { plies: 4, .. }), "{note:?}");
}

#[test]
fn the_node_cap_stops_a_proof_and_is_reproducible() {
    // The win in three from six stones needs more than a handful of nodes:
    // capped below that, the guard proves nothing, the same way every time.
    let capped = GuardConfig { depth: 3, nodes: 3, time: None, ..GuardConfig::default() };
    for _ in 0..3 {
        let mut g = Guard::<Nim>::new(capped);
        assert_eq!(g.choose(&heap(6, 2, false), || vec![1, 2, 3]), (Some(1), GuardNote::Nothing));
        // One attempt before the search, at most `checks` (3) after it, each
        // stopped at its first node past the cap.
        assert!(g.nodes <= 4 * (3 + 1), "the cap holds: {} nodes", g.nodes);
    }
    let mut g = Guard::<Nim>::new(GuardConfig { nodes: 10_000, ..capped });
    assert_eq!(g.choose(&heap(6, 2, false), || vec![1, 2, 3]).1, GuardNote::Win(2, 3));
}
