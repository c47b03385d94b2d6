//! Every error variant comes from a real bad input, with its message checked.

use debacle_rules::{MoveError, Position, PositionError, Variant, VariantError};

const START: &str = "N6N5N4N3N2N1/....../....../....../....../S1S2S3S4S5S6 s 1 -/- 0-0 r1 s t0 q0 p0 - -";

/// A bad input, a check of the error variant, and the message.
type Case<E> = (&'static str, fn(&E) -> bool, &'static str);

fn pos_err(text: &str) -> PositionError {
    text.parse::<Position>().expect_err(text)
}

#[test]
fn start_text() {
    let p = Position::start(Variant::default());
    assert_eq!(p.to_string(), START);
    assert_eq!(START.parse::<Position>().unwrap(), p);
}

#[test]
fn variant_errors() {
    let cases: [Case<VariantError>; 5] = [
        (
            "cap",
            |e| matches!(e, VariantError::MissingEquals { .. }),
            "variant item `cap` has no `=` (expected key=value)",
        ),
        (
            "cap=500",
            |e| matches!(e, VariantError::UnknownKey { .. }),
            "unknown variant key `cap` (known: scoring, target, quiet, turns, rounds, recovery_resets, relocate_on_end, faces)",
        ),
        ("target=3,target=4", |e| matches!(e, VariantError::Repeated { .. }), "variant key `target` given twice"),
        (
            "target=0",
            |e| matches!(e, VariantError::BadValue { .. }),
            "variant key `target`: bad value `0`, expected a whole number from 1 to 65535",
        ),
        (
            "faces=123457",
            |e| matches!(e, VariantError::BadValue { .. }),
            "variant key `faces`: bad value `123457`, expected six digits 1..6 (South's faces on a1..f1)",
        ),
    ];
    for (text, is, msg) in cases {
        let e = Variant::parse(text).unwrap_err();
        assert!(is(&e), "{text}: {e:?}");
        assert_eq!(e.to_string(), msg);
    }
    let v = Variant::parse("scoring=winner, relocate_on_end=yes,faces=654321").unwrap();
    assert_eq!(v.to_text(), "scoring=winner,relocate_on_end=yes,faces=654321");
    assert_eq!(Variant::parse(&v.to_text()).unwrap(), v);
    assert_eq!(Variant::parse("").unwrap().to_text(), "");
}

#[test]
fn move_errors() {
    let p = Position::start(Variant::default());
    let cases: [Case<MoveError>; 6] = [
        ("  ", |e| matches!(e, MoveError::Empty), "empty move text (expected Fa1, Rb1f, Re5f@b1, RECc1 or decline)"),
        (
            "Xa1",
            |e| matches!(e, MoveError::UnknownAction { .. }),
            "`xa1`: unknown action (expected Fa1, Rb1f, Re5f@b1, RECc1 or decline)",
        ),
        ("Fg1", |e| matches!(e, MoveError::BadSquare { .. }), "`g1`: expected a square a1..f6"),
        (
            "Ra1b",
            |e| matches!(e, MoveError::BadDirection { .. }),
            "`b`: expected a roll direction f (forward), l (towards file a) or r (towards file f)",
        ),
        ("Fa1x", |e| matches!(e, MoveError::Trailing { .. }), "`x`: unexpected text after the move"),
        ("Ra1l", |e| matches!(e, MoveError::Illegal { .. }), "illegal move Ra1l: the roll would leave the board"),
    ];
    for (text, is, msg) in cases {
        let e = p.parse_move(text).unwrap_err();
        assert!(is(&e), "{text}: {e:?}");
        assert_eq!(e.to_string(), msg);
    }
    let illegal = |p: &Position, t: &str| p.parse_move(t).unwrap_err().to_string();
    assert_eq!(illegal(&p, "Rb1l"), "illegal move Rb1l: a1 holds your own die");
    assert_eq!(illegal(&p, "Fa6"), "illegal move Fa6: no die of yours on a6");
    assert_eq!(illegal(&p, "decline"), "illegal move decline: no recovery decision is due now");
    assert_eq!(illegal(&p, "Ra1f@b1"), "illegal move Ra1f@b1: only a roll onto the enemy home row names a home square");
    let q: Position =
        "N6N5N4.N2N1/....../...N3../...S3../....../S1S2S4.S5S6 s 1 -/- 0-0 r1 s t4 q4 p8 - -".parse().unwrap();
    assert_eq!(
        illegal(&q, "Rd3f"),
        "illegal move Rd3f: a 3 cannot capture a 3 (needs a higher value, or a 1 against 2..6)"
    );
    assert_eq!(
        p.parse_move(" r a1 F "),
        Ok(debacle_rules::Move::Roll { from: 0, dir: debacle_rules::Dir::Forward, home: None })
    );
}

#[test]
fn position_errors() {
    let cases: [(&str, &str); 18] = [
        (
            "N6N5N4N3N2N1/....../",
            "1 fields, expected 12: board side phase piles scores round starter turns quiet ply result variant",
        ),
        (&START.replacen("/......", "", 1), "board has 5 ranks, expected 6 separated by `/`"),
        (&START.replacen("/....../", "/...../", 1), "rank 5 `.....` does not hold 6 cells (`.`, S1..S6, N1..N6)"),
        (&START.replacen("N6N5", "X6N5", 1), "a6: `X6` is not a cell (expected `.`, S1..S6 or N1..N6)"),
        (&START.replacen("S1S2", "S0S2", 1), "a1: die value 0 is not 1..6"),
        (&START.replacen("S6 s", "S7 s", 1), "f1: die value 7 is not 1..6"),
        (&START.replacen(" s 1", " x 1", 1), "side `x`: expected s (South) or n (North)"),
        (&START.replacen(" s 1", " s 3", 1), "phase `3`: expected 1, 2, 2-<square>, r1<square>, r2<square> or rec"),
        (
            &START.replacen(" - -", " - cap=1", 1),
            "variant field: unknown variant key `cap` (known: scoring, target, quiet, turns, rounds, recovery_resets, relocate_on_end, faces)",
        ),
        (
            &START.replacen("/....../S1", "/..S3.../S1", 1),
            "South: 7 dice on the board and 0 held by the opponent, expected 6 in all",
        ),
        (
            "N6N5N4N3N2N1/....../....../....../....../S1S2S3S4S5. s 1 -/- 0-0 r1 s t0 q0 p0 - -",
            "South: 5 dice on the board and 0 held by the opponent, expected 6 in all",
        ),
        (
            "N6N5N4N3N2N1/....../....../....../....../S1S2S3S4S5. s 1 -/1 0-0 r1 s t2 q0 p4 - -",
            "the other check passes",
        ),
        (
            "N6N5N4N3N2S1/....../....../....../....../S1S2S3S4S5. s 1 N/- 0-0 r1 s t0 q0 p0 - -",
            "piles `N/-`: expected two piles of digits 1..6 (or -) separated by `/`, South's first",
        ),
        (&START.replacen(" 1 -/-", " r1c3 -/-", 1), "pending rebond on c3: no die of the side to move there"),
        (&START.replacen(" 1 -/-", " 2-a6 -/-", 1), "flipped die on a6: no die of the side to move there"),
        (
            &START.replacen(" 1 -/-", " rec -/-", 1),
            "recovery phase, but the recovery is not offered (the mover's dice differ or the opponent holds none)",
        ),
        (
            &START.replacen(" q0", " q100", 1),
            "quiet 100 is above 99, the most this position can show under its variant",
        ),
        (&START.replacen(" 0-0", " 31-2", 1), "scores 31-2 would have ended the match, but it is running"),
    ];
    for (text, msg) in cases {
        if msg == "the other check passes" {
            assert!(text.parse::<Position>().is_ok(), "{text}");
            continue;
        }
        assert_eq!(pos_err(text).to_string(), msg, "{text}");
    }
    assert!(matches!(pos_err(&START.replacen("S1S2", "S0S2", 1)), PositionError::BadValue { .. }));
    assert_eq!(
        pos_err("N6N5N4N3N2./....../....../....../..S6.../S1S2S3S4S5N1 s 1 -/- 0-0 r1 s t0 q0 p0 - -").to_string(),
        "f1: a die on its opponent's home row (it goes home at once)"
    );
    assert_eq!(
        pos_err("N6...../....../....../...S3../....../S1S2S3.S5. s 1 12345/1 0-0 r1 s t40 q3 p200 - -").to_string(),
        "South holds 5 or more dice in a running match (the round would have ended)"
    );
    assert_eq!(
        pos_err(&START.replacen(" 0-0", " 31-2", 1).replacen(" - -", " n -", 1)).to_string(),
        "the result contradicts the scores 31-2"
    );
    assert_eq!(pos_err(&START.replacen("r1", "r", 1)).to_string(), "round `r`: expected r<round number from 1>");
    assert_eq!(
        pos_err(&START.replacen("r1", "r31", 1)).to_string(),
        "round 31 is above 30, the most this position can show under its variant"
    );
    assert_eq!(
        pos_err(&START.replacen(" - -", " x -", 1)).to_string(),
        "result `x`: expected - (running), s or n (winner) or = (draw)"
    );
    assert!(matches!(pos_err(&START.replacen("r1", "r0", 1)), PositionError::BadField { field: "round", .. }));
}
