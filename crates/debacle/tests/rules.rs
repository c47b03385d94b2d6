//! Rule points of GAMES.md §3.3 on hand-made positions: captures, rebonds,
//! relocation, the double-flip rule, recovery, round end, scoring, match end
//! and safeguards.

use debacle_rules::{Move, MoveError, Outcome, Phase, Position, Variant};
use testkit::SplitMix64;

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(p: &mut Position, moves: &[&str]) {
    for m in moves {
        let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{m} in {p}: {e}"));
        p.play_unchecked(mv);
        assert_eq!(p.hash(), p.hash_from_scratch());
    }
}

fn texts(p: &Position) -> Vec<String> {
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    v.iter().map(|m| m.to_string()).collect()
}

const CAPTURE: &str = "N6N5N4N3.N1/....../..N2.../..S3.../....../S1S2.S4S5S6 s 1 -/- 0-0 r1 s t4 q4 p8 - -";

#[test]
fn capture_gives_a_rebond_of_the_capturing_die() {
    let mut p = pos(CAPTURE);
    play(&mut p, &["Rc3f"]);
    assert_eq!(p.cell(3 * 6 + 2), Some((0, 4)), "the roller shows v+1 on c4");
    assert_eq!(p.pile(0), [0, 1, 0, 0, 0, 0], "the captured 2 keeps its value");
    assert_eq!(p.phase(), Phase::Rebond { square: 20, after: 1 });
    assert_eq!(texts(&p), ["Fc4", "Rc4f", "Rc4l", "Rc4r"]);
    assert!(p.captured_this_turn());
    // Rebond flip, then a regular flip of the same die: allowed (rebonds do not count).
    play(&mut p, &["Fc4"]);
    assert_eq!(p.phase(), Phase::Action { index: 1, flipped: None });
    assert!(p.parse_move("Fc4").is_ok());
    play(&mut p, &["Fc4"]);
    assert_eq!(p.to_move(), 1);
    assert_eq!(p.quiet_turns(), 0);
    assert_eq!(p.turns_in_round(), 5);
}

#[test]
fn capture_condition() {
    // S1 against N1: no; S1 against N6: yes; S3 against N3: no; S4 against N3: yes.
    let p = pos("N6N5N4N3../....../..N1N6../..S1S1../....../S2..S4S5S6 s 1 -/- 0-0 r1 s t4 q4 p8 - -");
    let t = texts(&p);
    assert!(!t.contains(&"Rc3f".to_string()));
    assert!(t.contains(&"Rd3f".to_string()));
    let p = pos("N6N5N4.N2N1/....../...N3../...S3../....../S1S2S4.S5S6 s 1 -/- 0-0 r1 s t4 q4 p8 - -");
    assert!(!texts(&p).contains(&"Rd3f".to_string()));
    let p = pos("N6N5N4.N2N1/....../...N3../...S4../....../S1S2S3.S5S6 s 1 -/- 0-0 r1 s t4 q4 p8 - -");
    assert!(texts(&p).contains(&"Rd3f".to_string()));
}

#[test]
fn reaching_the_enemy_camp_relocates_home_in_the_same_action() {
    let mut p = pos("N6N5.N3N2N1/..S3.../....../....../..N4.../S1S2.S4S5S6 s 1 -/- 0-0 r1 s t4 q4 p8 - -");
    let t = texts(&p);
    assert!(t.contains(&"Rc5f@c1".to_string()));
    assert!(!t.contains(&"Rc5f".to_string()));
    assert_eq!(
        p.parse_move("Rc5f").unwrap_err().to_string(),
        "illegal move Rc5f: c6 is on the enemy home row: name an empty home square, @a1"
    );
    play(&mut p, &["Rc5f@c1"]);
    assert_eq!(p.cell(2), Some((0, 4)));
    assert_eq!(p.cell(32), None);
    assert_eq!(p.phase(), Phase::Action { index: 1, flipped: None });
}

#[test]
fn double_flip_of_the_same_die_is_illegal() {
    let mut p = Position::start(Variant::default());
    play(&mut p, &["Fa1"]);
    assert_eq!(p.phase(), Phase::Action { index: 1, flipped: Some(0) });
    assert_eq!(
        p.parse_move("Fa1").unwrap_err().to_string(),
        "illegal move Fa1: the two regular actions may not flip the same die"
    );
    assert_eq!(p.count_moves(), 11);
    play(&mut p, &["Fb1"]);
    assert_eq!(p.to_move(), 1);
}

#[test]
fn recovery_when_all_dice_show_one_value() {
    // South has 5 dice, all 3 after flipping a1 (4 -> 3); North holds one South die (a 5).
    let mut p = pos("N6N5N4N3N2N1/....../....../....../....../S4S3S3S3S3. s 2 -/5 0-0 r1 s t4 q2 p16 - -");
    play(&mut p, &["Fa1"]);
    assert_eq!(p.phase(), Phase::Recovery);
    assert_eq!(texts(&p), ["RECf1", "decline"]);
    let mut q = p;
    play(&mut q, &["RECf1"]);
    assert_eq!(q.cell(5), Some((0, 5)));
    assert_eq!(q.pile(1), [0; 6]);
    assert_eq!(q.to_move(), 1);
    assert_eq!(q.quiet_turns(), 3, "a recovery does not reset the counter by default");
    play(&mut p, &["decline"]);
    assert_eq!(p.to_move(), 1);
    let mut r =
        pos("N6N5N4N3N2N1/....../....../....../....../S4S3S3S3S3. s 2 -/5 0-0 r1 s t4 q2 p16 - recovery_resets=yes");
    play(&mut r, &["Fa1", "RECf1"]);
    assert_eq!(r.quiet_turns(), 0);
}

#[test]
fn fifth_capture_ends_the_round_at_once_and_both_score() {
    let text = "N6...../....../...N2../...S3../....../S1S2S3.S5. s 1 2345/1 0-0 r1 s t40 q3 p200 - -";
    let mut p = pos(text);
    play(&mut p, &["Rd3f"]);
    assert_eq!(p.scores(), [2 + 3 + 4 + 5 + 2, 1]);
    assert_eq!(p.round(), 2);
    assert_eq!(p.to_move(), 1, "North starts round 2");
    assert_eq!(p.starter(), 1);
    assert_eq!(p.phase(), Phase::Action { index: 0, flipped: None });
    assert_eq!(p.pile(0), [0; 6]);
    assert_eq!(p.turns_in_round(), 0);
    assert_eq!(p.to_string(), "N6N5N4N3N2N1/....../....../....../....../S1S2S3S4S5S6 n 1 -/- 16-1 r2 n t0 q0 p201 - -");
    // Under scoring=winner only South scores.
    let mut w =
        pos("N6...../....../...N2../...S3../....../S1S2S3.S5. s 1 2345/1 0-0 r1 s t40 q3 p200 - scoring=winner");
    play(&mut w, &["Rd3f"]);
    assert_eq!(w.scores(), [16, 0]);
}

#[test]
fn match_ends_at_target_with_tie_breaks() {
    // South reaches 30 and more than North: South wins; the board stays as it ended.
    let mut p = pos("N6...../....../...N2../...S3../....../S1S2S3.S5. s 1 2345/1 20-10 r5 s t40 q3 p999 - -");
    play(&mut p, &["Rd3f"]);
    assert_eq!(p.outcome(), Some(Outcome::Win { team: 0 }));
    assert_eq!(p.count_moves(), 0);
    // Both at 30: equal totals, South captured 5 in that round: South wins.
    let mut p = pos("N6...../....../...N2../...S3../....../S1S2S3.S5. s 1 2345/1 14-29 r5 s t40 q3 p999 - -");
    play(&mut p, &["Rd3f"]);
    assert_eq!(p.scores(), [30, 30]);
    assert_eq!(p.outcome(), Some(Outcome::Win { team: 0 }));
    // A roll into the enemy camp that ends the round names no home square (default).
    let p = pos("..N2..N1/..S3.../....../....../....../S1S2.S4S5. s 1 1234/2 0-0 r1 s t40 q3 p999 - -");
    assert!(texts(&p).contains(&"Rc5f".to_string()));
    assert!(!texts(&p).iter().any(|m| m.starts_with("Rc5f@")));
    let p =
        pos("..N2..N1/..S3.../....../....../....../S1S2.S4S5. s 1 1234/2 0-0 r1 s t40 q3 p999 - relocate_on_end=yes");
    assert_eq!(texts(&p).iter().filter(|m| m.starts_with("Rc5f@")).count(), 2);
}

#[test]
fn safeguards_end_the_round_and_the_match() {
    // quiet=1: one turn without a capture ends the round; rounds=1: the match ends on the totals.
    let mut p = Position::start(Variant::parse("quiet=1,rounds=1").unwrap());
    play(&mut p, &["Fa1", "Fb1"]);
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert_eq!(Outcome::Draw.scores(2), [0.5, 0.5, 0.0, 0.0]);
    assert_eq!(Outcome::Win { team: 1 }.scores(2), [0.0, 1.0, 0.0, 0.0]);
    // A safeguard end with equal totals at the target: another round.
    let mut p = pos("N6N5N4N3N2N1/....../....../....../....../S1S2S3S4S5S6 s 2 -/- 30-30 r3 s t0 q0 p10 - quiet=1");
    play(&mut p, &["Fa1"]);
    assert_eq!(p.outcome(), None);
    assert_eq!(p.round(), 4);
    // The turn cap.
    let mut p = Position::start(Variant::parse("turns=2,rounds=1").unwrap());
    play(&mut p, &["Fa1", "Fb1", "Fa6", "Fb6"]);
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    let _ = Move::Decline;
}

#[test]
fn board_text_shows_everything() {
    let p = pos(CAPTURE);
    let plain = p.board_text(false);
    assert_eq!(plain.lines().count(), 12, "{plain}");
    assert!(plain.starts_with("    a  b  c  d  e  f\n6  N6 N5 N4 N3  . N1  6\n"), "{plain}");
    assert!(plain.contains("South: score 0, holds 0 []"));
    assert!(plain.contains("round 1 (started by South), 4 turns played, 4 without a capture"));
    assert!(plain.ends_with("South to move: first action\n"));
    let coloured = p.board_text(true);
    assert!(coloured.contains("\x1b[1;34mS3\x1b[0m") && coloured.contains("\x1b[1;31mN2\x1b[0m"));
    let mut q = p;
    play(&mut q, &["Rc3f"]);
    assert!(q.board_text(false).contains("South: score 0, holds 1 [2]"));
    assert!(q.board_text(false).ends_with("South to move: rebond of the die on c4\n"));
}

/// The checked `play` plays a legal move as `play_unchecked` does, and refuses an illegal one
/// with `check`'s reason ([`MoveError::Illegal`]), the position unchanged; in random matches.
#[test]
fn play_checks_what_play_unchecked_trusts() {
    let mut rng = SplitMix64::new(11);
    let mut moves = Vec::new();
    for v in ["", "scoring=winner"] {
        let mut p = Position::start(Variant::parse(v).unwrap());
        for _ in 0..400 {
            p.legal_moves(&mut moves);
            let illegal = [Move::Decline, Move::Flip { square: 0 }, Move::Recover { to: 40 }];
            for bad in illegal.into_iter().filter(|m| !moves.contains(m)) {
                let before = p;
                let why = p.check(bad).expect_err("an illegal move");
                assert!(matches!(why, MoveError::Illegal { .. }), "{why:?}");
                assert_eq!(p.play(bad), Err(why));
                assert_eq!(p, before);
            }
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            let mut q = p;
            q.play_unchecked(m);
            assert_eq!(p.check(m), Ok(()));
            assert_eq!(p.play(m), Ok(()));
            assert_eq!(p, q);
        }
    }
}

#[test]
fn actions_in_round_count_regular_actions_and_restart_with_each_round() {
    let mut p = pos(CAPTURE);
    assert_eq!(p.actions_in_round(), 8, "four completed turns");
    play(&mut p, &["Rc3f"]);
    assert_eq!(p.actions_in_round(), 9, "during the rebond: one regular action");
    play(&mut p, &["Fc4"]);
    assert_eq!(p.actions_in_round(), 9, "a rebond is not a regular action");
    play(&mut p, &["Fc4"]);
    assert_eq!(p.actions_in_round(), 10);
    assert_eq!(Position::start(Variant::default()).actions_in_round(), 0);
    // A recovery decision comes after both actions.
    let mut r = pos("N6N5N4N3N2N1/....../....../....../....../S4S3S3S3S3. s 2 -/5 0-0 r1 s t4 q2 p16 - -");
    play(&mut r, &["Fa1"]);
    assert_eq!(r.phase(), Phase::Recovery);
    assert_eq!(r.actions_in_round(), 10);
    // The fifth capture ends round 1 at ply 201: round 2 starts from 0.
    let mut e = pos("N6...../....../...N2../...S3../....../S1S2S3.S5. s 1 2345/1 0-0 r1 s t40 q3 p200 - -");
    assert_eq!(e.actions_in_round(), 80);
    play(&mut e, &["Rd3f"]);
    assert_eq!((e.round(), e.ply(), e.actions_in_round()), (2, 201, 0));
}
