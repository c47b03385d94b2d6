//! Hand-made rule tests (GAMES.md §2), differential tests against the
//! reference generator, hash and text properties, and every error variant.

mod common;
use common::*;
use dominoes_rules::{
    End, Move, MoveError, Observation, ObservationError, Outcome, RoundEndKind, State, StateError, Tile, Variant,
    VariantError, perft, reference,
};

#[test]
fn tiles_and_order() {
    assert_eq!(Tile::new(4, 6).unwrap().to_string(), "6-4");
    assert_eq!("4-6".parse::<Tile>().unwrap(), Tile::new(6, 4).unwrap());
    assert_eq!(Tile::new(6, 6).unwrap().index(), 27);
    assert_eq!(Tile::new(0, 0).unwrap().index(), 0);
    let order = "6-6 5-5 4-4 3-3 2-2 1-1 0-0 6-5 6-4 6-3 5-4 6-2 5-3 6-1 5-2 4-3 6-0 5-1 4-2 5-0 4-1 3-2 4-0 3-1 3-0 2-1 2-0 1-0";
    let ts = tiles(order);
    assert_eq!(ts.len(), 28);
    for w in ts.windows(2) {
        assert!(w[0].opening_rank() > w[1].opening_rank(), "{} before {}", w[0], w[1]);
    }
}

#[test]
fn opener_highest_double() {
    let v = variant("");
    let s = deal(v, &["6-5 4-4 3-1 2-0 1-0 5-0 6-0", "5-5 6-4 2-2 3-2 4-1 3-0 6-1"]);
    assert!(!s.is_chance());
    assert_eq!(s.to_move(), 1);
    let mut l = Vec::new();
    s.legal_moves(&mut l);
    assert_eq!(l, vec![Move::Play { tile: "5-5".parse().unwrap(), end: End::Left }]);
    assert_eq!(reference::legal_moves(&s), l);
}

#[test]
fn opener_without_double_uses_weight_then_higher_end() {
    // 6-3 (9) against 5-4 (9): the higher end, 6, wins.
    let v = variant("");
    let s = deal(v, &["5-4 3-2 4-1 2-1 1-0 2-0 3-0", "6-3 4-2 5-1 6-0 3-1 5-0 4-0"]);
    assert_eq!(s.to_move(), 1);
    let mut l = Vec::new();
    s.legal_moves(&mut l);
    assert_eq!(l, vec![Move::Play { tile: "6-3".parse().unwrap(), end: End::Left }]);
    // 6-5 beats both.
    let s = deal(v, &["5-4 3-2 4-1 2-1 1-0 2-0 6-5", "6-3 4-2 5-1 6-0 3-1 5-0 4-0"]);
    assert_eq!(s.to_move(), 0);
}

#[test]
fn draw_until_playable_then_play_the_drawn_tile() {
    let v = variant("");
    let mut s = deal(v, &["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "0-0 1-1 2-2 3-3 1-0 2-0 2-1"]);
    play(&mut s, "6-6L");
    assert_eq!(s.to_move(), 1);
    assert!(s.is_chance(), "player 1 holds no 6: he must draw");
    let mut c = Vec::new();
    s.chance_outcomes(&mut c);
    assert_eq!(c.len(), 14);
    assert!((c.iter().map(|x| x.1).sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(s.parse_move("pass").is_err());
    play(&mut s, "+4-4 +5-5 +5-3");
    assert!(s.is_chance());
    play(&mut s, "+6-5".replace("6-5", "3-0").as_str());
    assert!(s.is_chance(), "3-0 does not fit 6");
    let e = s.parse_move("+6-5").unwrap_err();
    assert_eq!(e.to_string(), "move `+6-5` is not legal here");
    // Every 6 is in player 0's hand: draw on. Empty the boneyard.
    for t in ["5-4", "5-2", "5-1", "5-0", "4-3", "4-2", "4-1", "4-0", "3-2", "3-1"] {
        play(&mut s, &format!("+{t}"));
    }
    assert!(s.boneyard().is_empty());
    let mut l = Vec::new();
    s.legal_moves(&mut l);
    assert_eq!(l, vec![Move::Pass], "pass only with an empty boneyard and no play");
    play(&mut s, "pass");
    assert_eq!(s.to_move(), 0);
    let ev: Vec<_> = s.history().collect();
    assert_eq!(ev[1].drawn, 14);
    assert_eq!(ev[1].play, None);
}

#[test]
fn drawn_playable_tile_is_the_only_move() {
    let v = variant("");
    let mut s = deal(v, &["6-6 6-5 6-4 6-3 6-2 6-1 5-5", "0-0 1-1 2-2 3-3 1-0 2-0 2-1"]);
    play(&mut s, "6-6L +4-4 +6-0");
    assert!(!s.is_chance());
    let mut l = Vec::new();
    s.legal_moves(&mut l);
    assert_eq!(l, vec![Move::Play { tile: "6-0".parse().unwrap(), end: End::Left }]);
    play(&mut s, "6-0L");
    assert_eq!(s.ends(), Some((0, 6)));
    let e: Vec<_> = s.history().collect();
    assert_eq!((e[1].player, e[1].drawn), (1, 2));
}

#[test]
fn tile_fitting_both_ends_gives_two_moves() {
    let v = variant("hand=3");
    let mut s = deal(v, &["6-6 6-5 0-0", "6-4 5-4 1-0"]);
    play(&mut s, "6-6L 6-4L");
    assert_eq!(s.ends(), Some((4, 6)));
    let mut l = Vec::new();
    s.legal_moves(&mut l);
    assert_eq!(l, vec![Move::Play { tile: "6-5".parse().unwrap(), end: End::Right }]);
    play(&mut s, "6-5R");
    assert_eq!(s.ends(), Some((4, 5)));
    s.legal_moves(&mut l);
    assert_eq!(l.len(), 2, "5-4 fits both ends");
    play(&mut s, "5-4R");
    assert_eq!(s.ends(), Some((4, 4)));
    // Both ends show 4: one move per tile (none here: player 0 holds 0-0 and draws).
    assert!(s.is_chance());
    play(&mut s, "+4-2");
    s.legal_moves(&mut l);
    assert_eq!(l, vec![Move::Play { tile: "4-2".parse().unwrap(), end: End::Left }]);
}

#[test]
fn domino_scores_opponents_pips() {
    let v = variant("players=3,hand=2");
    let mut s = deal(v, &["6-6 6-1", "6-5 5-0", "5-5 3-0"]);
    assert_eq!(s.to_move(), 0);
    play(&mut s, "6-6L 6-5L 5-5L 6-1R");
    let r = s.last_round().unwrap();
    assert_eq!(r.kind, RoundEndKind::Domino { player: 0 });
    assert_eq!((r.winner, r.points), (Some(0), 5 + 3));
    assert_eq!(r.pips[..3], [0, 5, 3]);
    assert_eq!(s.scores()[..3], [8, 0, 0]);
    assert!(s.round_over() && s.is_chance() && s.outcome().is_none());
    // The next round: deals again, opened by the highest double.
    let mut c = Vec::new();
    s.chance_outcomes(&mut c);
    assert_eq!(c.len(), 28);
    s.play_unchecked(Move::Deal { tile: "0-0".parse().unwrap(), to: 0 });
    assert!(!s.round_over());
    assert_eq!(s.chain().len(), 0);
    assert_eq!(s.scores()[0], 8);
}

/// Block rounds found by random play, their record checked against GAMES.md §2.6 computed here.
#[test]
fn block_scoring_with_both_tie_breaks() {
    let mut rng = XorShift64::new(77);
    let mut seen = [0usize; 3];
    for text in ["", "players=3", "players=4", "rules=openspiel"] {
        let v = variant(text);
        for _ in 0..40_000 {
            let mut s = State::start(v);
            let before;
            loop {
                let t = s;
                step(&mut s, &mut rng);
                if s.round_over() {
                    before = t;
                    break;
                }
            }
            let r = s.last_round().unwrap();
            if r.kind != RoundEndKind::Block {
                continue;
            }
            let _ = before;
            let n = s.players();
            assert!(s.boneyard().is_empty() || v.openspiel);
            let pips: Vec<u32> = (0..n).map(|p| s.hand(p).pips()).collect();
            let cnt: Vec<usize> = (0..n).map(|p| s.hand(p).len()).collect();
            let min = *pips.iter().min().unwrap();
            let low: Vec<usize> = (0..n).filter(|&p| pips[p] == min).collect();
            let total: u32 = pips.iter().sum();
            if low.len() == 1 {
                seen[0] += 1;
                let w = low[0];
                assert_eq!(r.winner, Some(w as u8));
                let want = if v.openspiel { total - pips[w] } else { total - 2 * pips[w] };
                assert_eq!(r.points, want);
            } else if v.openspiel {
                assert_eq!((r.winner, r.points), (None, 0));
            } else {
                let few = low.iter().map(|&p| cnt[p]).min().unwrap();
                let fewest: Vec<usize> = low.iter().copied().filter(|&p| cnt[p] == few).collect();
                if fewest.len() == 1 {
                    seen[1] += 1;
                    assert_eq!(r.winner, Some(fewest[0] as u8));
                    assert_eq!(r.points, total - 2 * min);
                } else {
                    seen[2] += 1;
                    assert_eq!((r.winner, r.points), (None, 0));
                }
            }
        }
    }
    assert!(seen.iter().all(|&x| x > 0), "each block case met: {seen:?}");
}

#[test]
fn match_ends_at_target_or_round_limit() {
    let mut rng = XorShift64::new(5);
    for text in ["", "players=3", "players=4", "target=30", "rounds=3"] {
        let v = variant(text);
        for _ in 0..200 {
            let mut s = State::start(v);
            let mut prev_rounds = 0;
            while step(&mut s, &mut rng) {
                if s.rounds_played() != prev_rounds {
                    prev_rounds = s.rounds_played();
                    if s.outcome().is_none() {
                        assert!(s.scores().iter().all(|&x| x < v.target));
                    }
                }
            }
            let o = s.outcome().unwrap();
            match o {
                Outcome::Win { player } => {
                    assert!(s.scores()[player] >= v.target);
                    assert_eq!(s.scores().iter().filter(|&&x| x >= v.target).count(), 1);
                }
                Outcome::Draw => assert_eq!(s.rounds_played(), v.rounds),
            }
            assert!(s.rounds_played() <= v.rounds);
            let sc = o.scores(s.players());
            assert!((sc.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn openspiel_differences() {
    let v = variant("rules=openspiel");
    let s = deal(v, &["0-0 1-0 2-0 3-0 4-0 5-0 6-0", "6-6 5-5 4-4 3-3 2-2 1-1 6-5"]);
    assert_eq!(s.to_move(), 0, "player 0 opens");
    let mut l = Vec::new();
    s.legal_moves(&mut l);
    assert_eq!(l.len(), 7, "with any tile");
    assert_eq!(s.boneyard().len(), 14);
    let mut s2 = s;
    play(&mut s2, "6-0L");
    // Ends 6|0: player 1 plays 6-6 or 6-5.
    play(&mut s2, "6-6L");
    // Player 0 holds only 0s: 0-0 fits the right end.
    play(&mut s2, "0-0R");
    assert!(!s2.is_chance(), "never a draw");
    // A skipped player: find one by random play.
    let mut rng = XorShift64::new(9);
    let mut skipped = 0;
    for _ in 0..2000 {
        let mut s = State::start(v);
        while step(&mut s, &mut rng) {
            assert!(!s.is_chance() || s.dealing() || s.chain().is_empty());
        }
        let h: Vec<_> = s.history().collect();
        for w in h.windows(2) {
            if w[0].play.is_none() {
                skipped += 1;
                assert!(w[1].play.is_some(), "after a skip the other plays");
            }
        }
        assert_eq!(s.rounds_played(), 1, "a single hand");
        let r = s.openspiel_returns();
        assert_eq!(r[0] + r[1], 0.0, "zero-sum");
    }
    assert!(skipped > 0);
}

#[test]
fn going_out_for_zero_points() {
    // Player 0 goes out while player 1 holds only 0-0: the others' hands are
    // worth 0 points.
    let hands = ["6-6 6-0", "6-5 0-0"];
    // OpenSpiel compares pips at every ending: 0 against 0 is a tie
    // (`python_block_dominoes` returns [0, 0]), so the hand is a draw.
    let mut s = deal(variant("rules=openspiel,hand=2"), &hands);
    play(&mut s, "6-6L 6-5L 6-0R");
    let r = s.last_round().unwrap();
    assert_eq!(r.kind, RoundEndKind::Domino { player: 0 });
    assert_eq!((r.winner, r.points, &r.pips[..2]), (None, 0, &[0, 0][..]));
    assert_eq!(s.outcome(), Some(Outcome::Draw));
    assert_eq!(s.openspiel_returns()[..2], [0.0, 0.0]);
    assert_eq!(s.to_string().parse::<State>().unwrap(), s, "the tied record reads back");
    check_state(&s);
    // Playboard: going out always wins the round, here for 0 points, and the
    // match goes on.
    let mut s = deal(variant("hand=2"), &hands);
    play(&mut s, "6-6L 6-5L 6-0R");
    let r = s.last_round().unwrap();
    assert_eq!((r.kind, r.winner, r.points), (RoundEndKind::Domino { player: 0 }, Some(0), 0));
    assert_eq!(s.scores()[..2], [0, 0]);
    assert!(s.round_over() && s.outcome().is_none());
    assert_eq!(s.to_string().parse::<State>().unwrap(), s);
    // Under OpenSpiel a player who goes out against any pips wins them.
    let mut s = deal(variant("rules=openspiel,hand=2"), &["6-6 6-0", "6-5 1-0"]);
    play(&mut s, "6-6L 6-5L 6-0R");
    assert_eq!((s.last_round().unwrap().winner, s.last_round().unwrap().points), (Some(0), 1));
    assert_eq!(s.outcome(), Some(Outcome::Win { player: 0 }));
    assert_eq!(s.openspiel_returns()[..2], [1.0, -1.0]);
}

#[test]
fn differential_against_reference() {
    let mut rng = XorShift64::new(1234);
    for text in VARIANTS {
        let v = variant(text);
        let mut positions = 0;
        let mut l = Vec::new();
        while positions < 10_000 {
            let mut s = State::start(v);
            loop {
                if !s.is_chance() && s.outcome().is_none() {
                    s.legal_moves(&mut l);
                    assert_eq!(reference::legal_moves(&s), l, "{s}");
                    positions += 1;
                }
                if s.is_chance() {
                    assert!(reference::legal_moves(&s).is_empty(), "{s}");
                }
                if !step(&mut s, &mut rng) || s.round_over() {
                    break;
                }
            }
        }
    }
}

#[test]
fn perft_small() {
    // After a complete 2-player deal: the forced opening, then the replies.
    let s = deal(variant(""), &["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "0-0 1-1 2-2 3-3 1-0 2-0 2-1"]);
    assert_eq!(perft(&s, 1), 1);
    assert_eq!(perft(&s, 2), 14, "player 1 draws from 14 tiles");
    let s = State::start(variant("hand=1"));
    assert_eq!(perft(&s, 1), 28);
    assert_eq!(perft(&s, 2), 28 * 27);
}

#[test]
fn hash_and_texts_on_random_states() {
    let mut rng = XorShift64::new(42);
    for text in VARIANTS {
        let v = variant(text);
        for _ in 0..300 {
            let mut s = State::start(v);
            while step(&mut s, &mut rng) {
                check_state(&s);
            }
            check_state(&s);
        }
    }
}

fn check_state(s: &State) {
    assert_eq!(s.hash(), s.recompute_hash());
    let t = s.to_string();
    let back: State = t.parse().unwrap_or_else(|e| panic!("{e}: {t}"));
    assert_eq!(&back, s, "{t}");
    assert_eq!(back.hash(), s.hash());
    for p in 0..s.players() {
        let o = s.observation(p);
        let ot = o.to_string();
        let ob: Observation = ot.parse().unwrap_or_else(|e| panic!("{e}: {ot}"));
        assert_eq!(ob, o, "{ot}");
        assert_eq!(ob.to_string(), ot);
    }
    let mut moves: Vec<Move> = Vec::new();
    if s.is_chance() {
        let mut c = Vec::new();
        s.chance_outcomes(&mut c);
        moves.extend(c.iter().map(|x| x.0));
    } else {
        s.legal_moves(&mut moves);
    }
    for m in moves {
        assert_eq!(s.parse_move(&m.to_string()), Ok(m));
    }
}

#[test]
fn variant_texts_and_errors() {
    let v = variant("players=3,target=50,rounds=10");
    assert_eq!(v.hand, 5);
    assert_eq!(Variant::parse(&v.to_text()), Ok(v));
    assert_eq!(Variant::default().to_text(), "");
    let cases = [
        ("players", "variant item `players` has no `=` (expected key=value)"),
        ("colour=red", "unknown variant key `colour` (known: players, hand, target, rounds, rules)"),
        ("target=5,target=6", "variant key `target` given twice"),
        ("players=5", "variant key `players`: bad value `5`, expected 2, 3 or 4"),
        ("hand=0", "variant key `hand`: bad value `0`, expected a whole number from 1 to 14"),
        ("rules=cuban", "variant key `rules`: bad value `cuban`, expected playboard or openspiel"),
        ("players=3,hand=10", "variant: players*hand is more than the 28 tiles"),
        ("players=3,rules=openspiel", "variant: rules=openspiel is a 2-player game"),
    ];
    for (t, msg) in cases {
        let e = Variant::parse(t).unwrap_err();
        assert_eq!(e.to_string(), msg);
    }
    assert!(matches!(Variant::parse("a"), Err(VariantError::MissingEquals { .. })));
}

#[test]
fn move_errors() {
    let s = deal(variant(""), &["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "0-0 1-1 2-2 3-3 1-0 2-0 2-1"]);
    let e = s.parse_move("6-6X").unwrap_err();
    assert!(matches!(e, MoveError::Syntax { .. }));
    assert_eq!(e.to_string(), "`6-6X` is not a move (expected 6-4L, 6-4R, pass, +6-4 for a draw, 6-4>1 for a deal)");
    assert_eq!(s.parse_move("6-5L").unwrap_err().to_string(), "move `6-5L` is not legal here");
    assert_eq!(s.parse_move("6-6L"), Ok(Move::Play { tile: "6-6".parse().unwrap(), end: End::Left }));
    assert!("7-1".parse::<Tile>().is_err());
    assert!("+6-6".parse::<Move>().is_ok());
    assert!("6-6>4".parse::<Move>().is_err());
}

#[test]
fn state_errors() {
    let s = deal(variant(""), &["6-6 6-5 6-4 6-3 6-2 6-1 5-5", "0-0 1-1 2-2 3-3 1-0 2-0 2-1"]);
    let mut s1 = s;
    play(&mut s1, "6-6L +4-4 +6-0 6-0L");
    let good = s1.to_string();
    let f: Vec<&str> = good.split(' ').collect();
    let with = |i: usize, x: &str| {
        let mut g = f.clone();
        g[i] = x;
        g.join(" ")
    };
    let err = |t: &str| t.parse::<State>().err().unwrap_or_else(|| panic!("accepted: {t}"));
    let cases: Vec<(String, &str)> = vec![
        ("play 0".into(), "2 fields, expected 10"),
        (with(0, "players=9"), "variant key `players`: bad value `9`, expected 2, 3 or 4"),
        (
            with(0, "target=100"),
            "field `variant`: cannot read `target=100`, expected the canonical variant text (non-default keys in HELP order), or -",
        ),
        (with(1, "draw"), "field `phase`: cannot read `draw`, expected deal, play, roundover or matchover"),
        (with(2, "2"), "field `to_move`: cannot read `2`, expected a player number"),
        (
            with(3, "x"),
            "field `drawn`: cannot read `x`, expected tiles drawn this turn, 0 to 28, with ! when the drawer stopped (observations)",
        ),
        (with(3, "29"), "field `drawn`: cannot read `29`, expected tiles drawn this turn, 0 to 28"),
        (with(4, "1"), "field `scores`: cannot read `1`, expected one score per player, separated by commas"),
        (with(4, "0,999999999"), "field `scores`: cannot read `0,999999999`, expected scores up to 100000000"),
        (with(5, "-1"), "field `rounds`: cannot read `-1`, expected the number of rounds played"),
        (with(6, "-"), "field `hands`: cannot read `-`, expected one hand per player, separated by /"),
        (
            with(6, "x/-"),
            "field `hands`: cannot read `x`, expected tiles like 1-0.6-4 in increasing order, or - for none",
        ),
        (with(6, "?99/?4"), "field `hands`: cannot read `?99`, expected ?N with N a count of tiles, 0 to 28"),
        (
            with(8, "0:6-6X"),
            "field `history`: cannot read `0:6-6X`, expected events like 0:6-6L, 1+2:5-4R, 0+3:pass, separated by commas, or -",
        ),
        (with(8, "0:6-6L,0:6-5L"), "history event 1: not the next player's turn"),
        (with(8, "0:6-6R"), "history event 0: the first tile goes Left"),
        (with(8, "0:6-6L,1:6-0R"), "history event 1: the tile does not fit that end"),
        (with(8, "1+3:6-6L"), "history event 0: the opener does not draw"),
        (with(8, "0:pass"), "history event 0: the round opens with a play"),
        (with(8, "0:6-6L,1:pass"), "history event 1: a pass with tiles left in the boneyard"),
        (with(8, "0:6-6L,1+15:6-0L"), "history event 1: more tiles drawn than the boneyard held"),
        (
            with(9, "x"),
            "field `last`: cannot read `x`, expected - or KIND/wW/POINTS/PIPS/TILES like d0/w0/23/0.23/0.4 or b/w-/0/7.7/2.2",
        ),
        (with(9, "d0/w0/0/0.0/0.0"), "inconsistent: a last-round record exactly when a round was played"),
        (with(1, "deal"), "inconsistent: nothing is played or drawn during the deal (to_move 0)"),
        (with(4, "5,0"), "inconsistent: scores without a round played"),
    ];
    for (t, msg) in &cases {
        assert_eq!(err(t).to_string(), *msg, "{t}");
    }
    assert!(matches!(err(&with(0, "players=9")), StateError::Variant(_)));
    assert!(matches!(err("x"), StateError::FieldCount { .. }));
    assert!(matches!(err(&with(8, "0:pass")), StateError::History { .. }));
    // Inconsistent: the hands do not add up.
    let hands_swapped = with(6, &f[6].replacen("6-1.", "", 1));
    assert!(matches!(err(&hands_swapped), StateError::Inconsistent { .. }), "{}", err(&hands_swapped));
    let o = s1.observation(0).to_string();
    assert_eq!(
        err(&o[3..]).to_string(),
        "inconsistent: a state shows every hand and the boneyard (?N is for observations)"
    );
    // Observation errors.
    let oe = |t: &str| t.parse::<Observation>().unwrap_err();
    assert!(matches!(oe("o7 x"), ObservationError::Observer { .. }));
    assert_eq!(oe("o7 x").to_string(), "field `observer`: cannot read `o7`, expected o0..o3, a player of the variant");
    assert!(matches!(oe(&format!("o0 {good}")), ObservationError::State(_)));
    assert_eq!(
        oe(&format!("o0 {good}")).to_string(),
        "inconsistent: the observer's hand is shown, the others' are ?N (all shown once the round is over)"
    );
    let o1 = s1.observation(1).to_string();
    assert_eq!(
        oe(&o1.replacen("o1", "o0", 1)).to_string(),
        "inconsistent: the observer's hand is shown, the others' are ?N (all shown once the round is over)"
    );
}

/// The checked `play` plays a decision or a chance outcome as `play_unchecked` does, and refuses
/// one that is not legal here with `check`'s [`MoveError::Illegal`], the state unchanged.
#[test]
fn play_checks_what_play_unchecked_trusts() {
    let mut rng = XorShift64::new(31);
    let (mut chance, mut moves) = (Vec::new(), Vec::new());
    for t in VARIANTS {
        let mut s = State::start(variant(t));
        for _ in 0..400 {
            s.chance_outcomes(&mut chance);
            s.legal_moves(&mut moves);
            let mut all: Vec<Move> = chance.iter().map(|&(m, _)| m).collect();
            all.extend(&moves);
            let illegal = [Move::Pass, Move::Draw { tile: "6-6".parse().unwrap() }];
            for bad in illegal.into_iter().filter(|m| !all.contains(m)) {
                let before = s;
                assert!(!s.is_legal(bad));
                assert_eq!(s.check(bad), Err(MoveError::Illegal { text: bad.to_string() }));
                assert_eq!(s.play(bad), s.check(bad));
                assert_eq!(s, before);
            }
            if all.is_empty() {
                break;
            }
            let m = all[rng.below(all.len())];
            let mut q = s;
            q.play_unchecked(m);
            assert!(s.is_legal(m));
            assert_eq!(s.play(m), Ok(()));
            assert_eq!(s, q);
        }
    }
}

/// Scores that no match gives (issue 56): a match over at 100,100, one
/// round's points short of the scores, a second score after one round.
#[test]
fn impossible_scores_after_rounds() {
    let mut rng = XorShift64::new(7);
    let over = random_state(variant(""), &mut rng, 1_000_000);
    assert!(over.outcome().is_some(), "{over}");
    let text = over.to_string();
    let with = |t: &str, x: &str| {
        let mut g: Vec<&str> = t.split(' ').collect();
        g[4] = x;
        g.join(" ")
    };
    let err = |t: &str| t.parse::<State>().err().unwrap_or_else(|| panic!("accepted: {t}")).to_string();
    assert_eq!(err(&with(&text, "100,100")), "inconsistent: the match was over before the last round");
    // After one round: the winner holds the round's points, the others nothing.
    let mut s = State::start(variant(""));
    while s.rounds_played() == 0 {
        assert!(step(&mut s, &mut rng));
    }
    let w = usize::from(s.last_round().unwrap().winner.expect("a winner"));
    let mut sc = s.scores();
    sc[1 - w] += 3;
    let bumped = with(&s.to_string(), &format!("{},{}", sc[0], sc[1]));
    assert_eq!(err(&bumped), "inconsistent: after one round the scores are that round's points alone");
    sc = s.scores();
    sc[w] -= 1;
    let short = with(&s.to_string(), &format!("{},{}", sc[0], sc[1]));
    assert_eq!(err(&short), "inconsistent: the scores are below the last round's points");
}
