//! The rules variants, checked against a reading of the rules written here
//! independently of the engine's: random games under every key, each
//! position's turn, end and text checked against what the variant says.

use senat_rules::game::{EndReason, GameRecord, Outcome};
use senat_rules::{Phase, Position, Side, Ties, Variant};
use testkit::XorShift64;

fn variants() -> Vec<Variant> {
    [
        "",
        "first_giver=red",
        "first_mover=red",
        "first_giver=red,first_mover=red",
        "closure=1",
        "closure=20",
        "closure=63",
        "majority=1",
        "majority=3",
        "majority=7",
        "repetition=2",
        "repetition=7",
        "first_giver=red,closure=40,majority=4,repetition=2",
        "ties=second",
        "ties=second,closure=20",
        "first_mover=red,ties=second,closure=20",
        "second_majority=3",
        "second_majority=7",
        "first_mover=red,second_majority=2",
        "majority=3,second_majority=6,ties=second",
        "swap=yes",
        "first_giver=red,first_mover=red,ties=second,swap=yes",
    ]
    .iter()
    .map(|t| Variant::parse(t).unwrap())
    .collect()
}

/// The side that does not make the first play move, as the variant's text says.
fn second_mover(v: &Variant) -> Side {
    if v.first_mover == Side::Blue { Side::Red } else { Side::Blue }
}

/// The pile that wins `side` the game at once: `majority`, but
/// `second_majority` (when given) for the side that moves second.
fn needs(v: &Variant, side: Side) -> u8 {
    match v.second_majority {
        Some(n) if side == second_mover(v) => n,
        _ => v.majority,
    }
}

/// The end of a position as the variant's text says it: majority (each
/// side's own), then repetition, closure and block; piles decide all but
/// the first, equal piles a draw or, under `ties=second`, the second mover's.
fn expected_end(v: &Variant, p: &Position, occurrences: usize) -> Option<Outcome> {
    let piles = p.piles();
    if piles.red >= needs(v, Side::Red) {
        return Some(Outcome { winner: Some(Side::Red), reason: EndReason::Majority });
    }
    if piles.blue >= needs(v, Side::Blue) {
        return Some(Outcome { winner: Some(Side::Blue), reason: EndReason::Majority });
    }
    if !p.is_play() {
        return None;
    }
    let reason = if occurrences >= v.repetition as usize {
        EndReason::Repetition
    } else if p.clock() >= v.closure {
        EndReason::Closure
    } else if p.legal_moves().is_empty() {
        EndReason::Block
    } else {
        return None;
    };
    let winner = if piles.red > piles.blue {
        Some(Side::Red)
    } else if piles.blue > piles.red {
        Some(Side::Blue)
    } else if v.ties == Ties::Second {
        Some(second_mover(v))
    } else {
        None
    };
    Some(Outcome { winner, reason })
}

#[test]
fn random_games_follow_each_variant() {
    let mut rng = XorShift64::new(0x05EE_D0F5_E4A7);
    let mut ends = std::collections::HashMap::new();
    let (mut ties_won, mut second_majorities) = (std::collections::HashMap::new(), std::collections::HashMap::new());
    let mut decisions = [0; 2];
    for v in variants() {
        for _ in 0..40 {
            let mut game = GameRecord::new(Position::start_of(v));
            assert_eq!(game.position().side_to_move(), v.first_giver, "{v}");
            let mut placed = 0u32;
            // Under swap=yes: whether the players swapped, once decided.
            let mut decided: Option<bool> = None;
            loop {
                let p = *game.position();
                assert_eq!(p.variant(), v, "the variant is kept by every move");
                assert_eq!(game.hash(), p.hash(), "{v}: the incremental hash, {}", p.to_spn());
                // The text is read back, in the variant, as the same position.
                assert_eq!(Position::from_spn_in(&p.to_spn(), v).as_ref(), Ok(&p), "{v}: {}", p.to_spn());
                match p.phase() {
                    Phase::Give => assert_eq!(p.side_to_move(), v.giver(placed + 1), "{v}: give {}", placed + 1),
                    Phase::Place(_) => assert_eq!(p.side_to_move(), v.placer(placed + 1), "{v}: place {}", placed + 1),
                    Phase::Decide => {
                        // Right after the 23rd placement, the side that would move second decides.
                        assert!(v.swap && placed == 23 && decided.is_none(), "{v}: {}", p.to_spn());
                        assert_eq!(p.side_to_move(), second_mover(&v), "{v}: who decides");
                        let texts: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
                        assert_eq!(texts, ["keep", "swap"], "{v}");
                        assert!(p.to_spn().contains(&format!(" decide:{} ", second_mover(&v).letter())));
                        assert!(!p.swapped() && game.outcome().is_none());
                    }
                    Phase::Play => {
                        // Play follows the decision exactly where the variant has one.
                        assert_eq!(decided.is_some(), v.swap, "{v}: {}", p.to_spn());
                        let swapped = decided == Some(true);
                        assert_eq!(p.swapped(), swapped, "{v}");
                        assert_eq!(p.seat_of(Side::Red), if swapped { Side::Blue } else { Side::Red });
                        assert_eq!(p.to_spn().contains(" swapped:"), swapped, "{v}: {}", p.to_spn());
                        if placed == 23 && p.clock() == 0 && p.piles().total() == 0 {
                            assert_eq!(p.side_to_move(), v.first_mover, "{v}: the first play move");
                        }
                        assert!(p.clock() <= v.closure, "{v}");
                        assert!(p.piles().red <= needs(&v, Side::Red), "{v}");
                        assert!(p.piles().blue <= needs(&v, Side::Blue), "{v}");
                    }
                }
                let end = game.outcome();
                assert_eq!(end, expected_end(&v, &p, game.occurrences()), "{v}: {}", p.to_spn());
                if let Some(o) = end {
                    *ends.entry((v.to_text(), o.reason)).or_insert(0) += 1;
                    let piles = p.piles();
                    if o.reason != EndReason::Majority && piles.red == piles.blue && o.winner.is_some() {
                        *ties_won.entry(v.to_text()).or_insert(0) += 1;
                    }
                    if o.reason == EndReason::Majority && o.winner == Some(second_mover(&v)) {
                        *second_majorities.entry((v.to_text(), piles.of(second_mover(&v)))).or_insert(0) += 1;
                    }
                    break;
                }
                let moves = p.legal_moves();
                let m = moves[rng.below(moves.len())];
                if matches!(p.phase(), Phase::Place(_)) {
                    placed += 1;
                }
                if m.is_decision() {
                    decided = Some(m.to_string() == "swap");
                    decisions[usize::from(decided == Some(true))] += 1;
                }
                game.play(m).unwrap();
            }
        }
    }
    // Both decisions were played.
    assert!(decisions[0] > 0 && decisions[1] > 0, "keeps and swaps: {decisions:?}");
    // Each threshold was reached, so the test checked the rule it changes.
    for (text, reason) in [
        ("closure=1", EndReason::Closure),
        ("closure=20", EndReason::Closure),
        ("majority=1", EndReason::Majority),
        ("majority=3", EndReason::Majority),
        ("repetition=2", EndReason::Repetition),
    ] {
        assert!(
            ends.get(&(text.to_string(), reason)).copied().unwrap_or(0) > 0,
            "{text} never ended by {reason}: {ends:?}"
        );
    }
    // Equal piles were won, and second movers won at their own majority.
    for text in ["closure=20,ties=second", "first_mover=red,closure=20,ties=second"] {
        assert!(ties_won.get(text).copied().unwrap_or(0) > 0, "{text} never won a tie: {ties_won:?}");
    }
    for (text, pile) in [("second_majority=3", 3), ("first_mover=red,second_majority=2", 2)] {
        assert!(
            second_majorities.get(&(text.to_string(), pile)).copied().unwrap_or(0) > 0,
            "{text}: the second mover never won with {pile}: {second_majorities:?}"
        );
    }
}

#[test]
fn the_rules_variant_is_the_rules() {
    assert_eq!(Position::start_of(Variant::RULES), Position::start());
    assert_eq!(Position::start().variant(), Variant::RULES);
    let sample = senat_rules::sample::start();
    assert_eq!(sample.variant(), Variant::RULES);
    assert_eq!(Position::from_spn_in(senat_rules::sample::START, Variant::RULES), Ok(sample));
    // The variant is not part of the hash: the hash is the position's on the board.
    let v = Variant::parse("closure=40,majority=4,repetition=2").unwrap();
    let q = Position::from_spn_in(senat_rules::sample::START, v).unwrap();
    assert_eq!(q.hash(), sample.hash());
    assert_eq!(q.to_spn(), sample.to_spn());
    assert_eq!(q.variant(), v);
}

#[test]
fn validation_reads_the_variant() {
    let sample = senat_rules::sample::START;
    // Blue to move at clock 0 before any move: wrong if red moves first.
    let red_first = Variant::parse("first_mover=red").unwrap();
    let e = Position::from_spn_in(sample, red_first).unwrap_err().to_string();
    assert!(e.contains("red moves at even clocks and blue at odd ones"), "{e}");
    let as_red = sample.replace(" b - ", " r - ");
    assert!(Position::from_spn_in(&as_red, red_first).is_ok());
    assert!(as_red.parse::<Position>().is_err(), "red to move first is not the rules");
    // A clock over the closure.
    let after6 =
        "3Tr,8Sb,10Tb,13Sr,18Tr,9Tb,6Cr,12Sb,5Cr,15Tr,16Sb/.,4Sb,.,.,1Sr,.,20Cb/17Cb,2Sr,21Tr,23Cr,7Cr b I20 2-2-0 1";
    assert!(after6.parse::<Position>().is_ok());
    let short = Variant::parse("closure=1").unwrap();
    assert!(Position::from_spn_in(after6, short).is_ok(), "clock 1 is the closure: the game is over, not invalid");
    // Piles of 2 and 2: over a majority of 1 and both at a majority of 2.
    for m in [1, 2] {
        let v = Variant { majority: m, ..Variant::RULES };
        let e = Position::from_spn_in(after6, v).unwrap_err().to_string();
        assert!(e.contains(&format!("more than {m} dice, or both hold {m}")), "{e}");
    }
    // The second mover's majority: red (second) at 2 dice has won, so clock 1 is impossible.
    let v = Variant::parse("second_majority=2").unwrap();
    let e = Position::from_spn_in(after6, v).unwrap_err().to_string();
    assert!(e.contains("a pile of 2 ends the game"), "{e}");
    let v = Variant::parse("majority=2,second_majority=3").unwrap();
    let e = Position::from_spn_in(after6, v).unwrap_err().to_string();
    assert!(e.contains("a pile of 2 ends the game"), "blue (first) at 2: {e}");
    assert!(Position::from_spn_in(after6, Variant::parse("majority=3,second_majority=4").unwrap()).is_ok());
    // The decision after the draft: only under swap=yes, by the second mover, on the full board.
    let swap = Variant::parse("swap=yes").unwrap();
    let decide = sample.replace(" b - ", " decide:r - ");
    let p = Position::from_spn_in(&decide, swap).unwrap();
    assert_eq!((p.phase(), p.side_to_move(), p.to_spn()), (Phase::Decide, Side::Red, decide.clone()));
    assert!(p.parse_move("keep").is_ok() && p.parse_move("swap").is_ok());
    let e = p.parse_move("g3").unwrap_err().to_string();
    assert!(e.contains("keep or swap"), "{e}");
    let e = senat_rules::sample::start().parse_move("swap").unwrap_err().to_string();
    assert!(e.contains("decision after the draft"), "{e}");
    let e = Position::from_spn_in(&decide, Variant::RULES).unwrap_err().to_string();
    assert!(e.contains("swap=yes"), "{e}");
    let e = Position::from_spn_in(&sample.replace(" b - ", " decide:b - "), swap).unwrap_err().to_string();
    assert!(e.contains("decides after the draft: red"), "{e}");
    let e = Position::from_spn_in(&after6.replace(" b I20 ", " decide:r - "), swap).unwrap_err().to_string();
    assert!(e.contains("right after the draft"), "{e}");
    // A swapped game: the board of the rules, the players' colours exchanged.
    let swapped = sample.replace(" b - ", " swapped:b - ");
    let p = Position::from_spn_in(&swapped, swap).unwrap();
    assert!(p.swapped() && p.seat_of(Side::Blue) == Side::Red && p.to_spn() == swapped);
    assert_ne!(
        p.hash(),
        Position::from_spn_in(sample, swap).unwrap().hash(),
        "a swap changes who plays: another state"
    );
    assert!(Position::from_spn_in(&swapped, Variant::RULES).is_err());
    // The draft's turns follow the first giver.
    let start = senat_rules::notation::START_SPN;
    let red_gives = Variant::parse("first_giver=red").unwrap();
    assert!(Position::from_spn_in(start, red_gives).is_err());
    assert_eq!(Position::from_spn_in(&start.replace("give:b", "give:r"), red_gives), Ok(Position::start_of(red_gives)));
}
