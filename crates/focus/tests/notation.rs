//! Texts: every error variant from a real bad input, with its message; round trips of variants,
//! positions and moves along random games (proptest); hash kept incrementally equals the hash
//! recomputed.

mod common;

use common::variants;
use focus_rules::{MoveError, Position, PositionError, Variant, VariantError};
use proptest::prelude::*;
use testkit::SplitMix64;

fn verr(text: &str) -> VariantError {
    Variant::parse(text).expect_err(text)
}

#[test]
fn variant_texts() {
    assert_eq!(Variant::parse("").unwrap(), Variant::default());
    for t in ["players=4", "fix=swap", "cap=500,fix=swap", "players=4,cap=10,order=ccw", "fix=draw"] {
        let v = Variant::parse(t).unwrap();
        assert_eq!(Variant::parse(&v.to_text()).unwrap(), v);
    }
    assert_eq!(Variant::parse("cap=500,fix=swap").unwrap().to_text(), "fix=swap,cap=500");
    assert_eq!(Variant::parse("players=4").unwrap().cap, 2000);
    assert_eq!(Variant::parse("players=4,cap=1000").unwrap().to_text(), "players=4,cap=1000");
    assert_eq!(Variant::parse("fix=none,order=cw").unwrap().to_text(), "");
    assert!(Variant::HELP.lines().count() == 4);

    let cases: Vec<(VariantError, &str)> = vec![
        (verr("players"), "variant part `players` is not key=value"),
        (verr("size=8"), "unknown variant key `size` (keys: players, fix, cap, order)"),
        (verr("cap=5,cap=6"), "variant key `cap` given twice"),
        (verr("players=3"), "variant key `players` has value `3`, expected 2 or 4"),
        (verr("cap=0"), "variant key `cap` has value `0`, expected a whole number from 1 to 1000000000"),
        (verr("fix=maybe"), "variant key `fix` has value `maybe`, expected none, draw or swap"),
        (verr("order=up"), "variant key `order` has value `up`, expected cw or ccw"),
        (verr("players=4,fix=swap"), "fix=swap needs players=2 (4 players allow only fix=none)"),
        (verr("order=ccw"), "order=ccw needs players=4"),
    ];
    for (e, msg) in cases {
        assert_eq!(e.to_string(), msg);
    }
    assert!(matches!(verr("players"), VariantError::Syntax(_)));
    assert!(matches!(verr("x=1"), VariantError::UnknownKey(_)));
    assert!(matches!(verr("fix=draw,fix=draw"), VariantError::Duplicate(_)));
    assert!(matches!(verr("fix=draw,players=4"), VariantError::FixNeedsTwoPlayers(_)));
    assert!(matches!(verr("order=ccw"), VariantError::OrderNeedsFourPlayers));
}

#[test]
fn move_errors() {
    let start = Position::start(Variant::default());
    let swap = Position::start(Variant::parse("fix=swap").unwrap());
    let mut after_swap = swap;
    after_swap.play_unchecked(swap.parse_move("swap:b7,d7").unwrap());
    let won: Position =
        "focus - .,.,.,./.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,11110,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./\
                         .,.,.,.,.,./.,.,.,. res=0/0 turn=1 ply=35"
            .parse()
            .unwrap();
    assert!(won.outcome().is_some());
    let blocked: Position =
        "focus players=4 .,.,.,./.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,00000,.,.,.,./3,.,.,.,.,.,.,./.,.,.,.,.,.,.,./\
                             .,.,.,.,.,./.,.,.,. res=0/0/0/0 turn=2 ply=50"
            .parse()
            .unwrap();
    let cases: Vec<(&Position, &str, MoveError, &str)> = vec![
        (&start, "", MoveError::Empty, "empty move text"),
        (
            &start,
            "d2d3",
            MoveError::Syntax("d2d3".into()),
            "move `d2d3` is not of the forms d4-d6, +e5, pass, swap:b7,d7",
        ),
        (&start, "+i9", MoveError::BadSquare("i9".into()), "`i9` is not a square name (a1..h8)"),
        (&start, "+a1", MoveError::RemovedSquare("a1".into()), "square a1 is a removed corner square"),
        (&won, "pass", MoveError::GameOver, "the game is over"),
        (&swap, "d2-d3", MoveError::SwapFirst, "the opening swaps come first: play swap:<own>,<other>"),
        (&start, "swap:b7,d7", MoveError::NoSwapNow, "no swap now: the swap phase is over or not in this variant"),
        (
            &start,
            "d2-e3",
            MoveError::NotStraight { from: "d2".into(), to: "e3".into() },
            "d2-e3 is not a straight orthogonal step",
        ),
        (&start, "c2-c1", MoveError::NotYourStack { square: "c2".into() }, "the mover does not control a stack on c2"),
        (
            &start,
            "d2-d4",
            MoveError::TooFar { square: "d2".into(), height: 1, distance: 2 },
            "the stack on d2 is 1 high and cannot go 2 squares",
        ),
        (&start, "+d4", MoveError::NoReserve, "the mover has no reserve piece to enter"),
        (&start, "pass", MoveError::PassNotAllowed, "pass is only for a blocked player in the 4-player game"),
        (&blocked, "+d4", MoveError::MustPass, "the mover is blocked and must pass"),
        (
            &swap,
            "swap:d7,b7",
            MoveError::SwapNotOwn { square: "d7".into() },
            "swap: d7 does not hold a piece of the mover",
        ),
        (
            &swap,
            "swap:b7,c7",
            MoveError::SwapNotOther { square: "c7".into() },
            "swap: c7 does not hold a piece of the opponent",
        ),
        (&after_swap, "swap:b7,d7", MoveError::SwapSymmetric, "swap: this exchange leaves the board symmetric"),
    ];
    for (p, text, err, msg) in cases {
        let e = p.parse_move(text).expect_err(text);
        assert_eq!(e, err, "{text}");
        assert_eq!(e.to_string(), msg, "{text}");
    }
    assert_eq!(blocked.parse_move("pass").unwrap().to_string(), "pass");
}

#[test]
fn position_errors() {
    let start = Position::start(Variant::default()).to_string();
    let swap = Position::start(Variant::parse("fix=swap").unwrap()).to_string();
    let sub = |from: &str, to: &str| start.replacen(from, to, 1);
    let sw = |from: &str, to: &str| swap.replacen(from, to, 1);
    let lone = "focus - .,.,.,./.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,11110,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./\
                .,.,.,.,.,./.,.,.,. res=0/0 turn=0 ply=36";
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "empty position text"),
        (sub("focus", "senat"), "position text starts with `senat`, expected `focus`"),
        (sub(" ply=0", ""), "position text has 5 fields, expected 6"),
        ("focus".to_string(), "position text has 1 fields, expected 6"),
        (
            sub("focus -", "focus size=2"),
            "position variant: unknown variant key `size` (keys: players, fix, cap, order)",
        ),
        (sub("focus -", "focus fix=none"), "position variant `fix=none` is written `-`"),
        (sub(".,.,.,./", ""), "board has 7 ranks, expected 8 separated by /"),
        (sub(".,.,.,./", ".,.,./"), "rank 8 has 3 squares, expected 4"),
        (sub(".,.,.,./", ".,x,.,./"), "square d8: `x` is not `.` or player digits bottom to top"),
        (sub(".,.,.,./", ".,,.,./"), "square d8: `` is not `.` or player digits bottom to top"),
        (sub(".,.,.,./", "010101,.,.,./"), "square c8: stack of 6 pieces, at most 5"),
        (sub(".,.,.,./", "2,.,.,./"), "square c8: player 2 does not exist in this variant"),
        (sub("res=0/0", "res=x/0"), "field `res=x/0`: expected res=<number>"),
        (sub("res=0/0", "reserve=0/0"), "field `reserve=0/0`: expected res=<number>"),
        (sub("res=0/0", "res=0/0/0"), "reserves: 3 entries, expected 2"),
        (sub("res=0/0", "res=1/0"), "player 0 has 19 pieces on board and in reserve, more than 18"),
        (sub(".,.,.,./", "0,.,.,./"), "player 0 has 19 pieces on board and in reserve, more than 18"),
        (sub("turn=0", "turn=2"), "side to move 2 is not a player"),
        (sub("turn=0", "turn=01"), "field `turn=01`: expected turn=<number>"),
        (sub("ply=0", "ply=1001"), "ply 1001 is over the cap 1000"),
        (sw("ply=0", "ply=3"), "swap phase: 0 swaps played needs ply=0 and turn=0"),
        (sw("swaps=0", "swaps=2"), "swap phase: both swaps played needs ply >= 2"),
        (sw("swaps=0", "swaps=3"), "field `swaps=3`: expected swaps=<number>"),
        (sw("/0,0,1,1,0,0/", "/00,.,1,1,0,0/"), "swap phase: the board must hold the start's 36 single pieces"),
        (sw("/0,0,1,1,0,0/", "/1,0,0,1,0,0/"), "swap phase: no swap played yet, the board must be the start"),
        (
            sw("/0,0,1,1,0,0/", "/1,0,0,1,0,0/").replace("turn=0 ply=0 swaps=0", "turn=1 ply=1 swaps=1").replacen(
                "/.,1,1,0,0,1,1,./",
                "/.,0,1,1,0,1,1,./",
                1,
            ),
            "swap phase: one swap played: exactly 2 squares differ from the start",
        ),
        (
            lone.to_string(),
            "turn: player 1 just moved yet controls no stack (a move leaves its mover on top of a stack)",
        ),
    ];
    for (text, msg) in cases {
        let e = text.parse::<Position>().expect_err(&text);
        assert_eq!(e.to_string(), msg, "{text}");
    }
    assert!(matches!("".parse::<Position>(), Err(PositionError::Empty)));
    assert!(lone.replace("turn=0 ply=36", "turn=1 ply=35").parse::<Position>().is_ok());
}

fn random_game_checks(v: Variant, seed: u64, plies: usize) {
    let mut rng = SplitMix64::new(seed);
    let mut p = Position::start(v);
    let mut moves = Vec::new();
    for i in 0..plies {
        assert_eq!(p.hash(), p.hash_from_scratch(), "{p}");
        let text = p.to_string();
        let back: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back, p);
        assert_eq!(back.to_string(), text);
        p.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        if i % 7 == 0 {
            for &m in &moves {
                assert_eq!(p.parse_move(&m.to_string()), Ok(m), "{m} in {p}");
            }
        }
        p.play_unchecked(moves[rng.below(moves.len())]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if testkit::UNOPTIMISED { 12 } else { 64 }))]

    #[test]
    fn hash_and_texts_along_random_games(seed in any::<u64>(), which in 0usize..5, plies in 0usize..1200) {
        let v = variants()[which];
        random_game_checks(v, seed, plies);
    }

    #[test]
    fn variant_round_trip(players in prop::sample::select(vec![2usize, 4]), fix in 0usize..3, cap in 1u32..5000, ccw in any::<bool>()) {
        let fix = [focus_rules::Fix::None, focus_rules::Fix::Draw, focus_rules::Fix::Swap][fix];
        let order = if ccw { focus_rules::Order::Ccw } else { focus_rules::Order::Cw };
        let v = Variant { players, fix, cap, order };
        if v.check().is_ok() {
            prop_assert_eq!(Variant::parse(&v.to_text()).unwrap(), v);
        }
    }
}
