//! Rules details on built positions: endings (2 players, teams, the cap, `fix=draw`), overflow
//! (own, partner's, enemy pieces), the forced pass, the opening swaps, scores; every random game
//! ends within the cap.

mod common;

use common::{random_step, variants};
use focus_rules::{Move, Outcome, Position, Variant};
use testkit::SplitMix64;

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(p: &mut Position, m: &str) {
    let m = p.parse_move(m).unwrap_or_else(|e| panic!("{m} in {p}: {e}"));
    p.play_unchecked(m);
}

const EMPTY_2P: &str =
    ".,.,.,./.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,.,.,./.,.,.,.,.,./.,.,.,.";

/// The board text with `cells` (square name, stack) filled in.
fn board(cells: &[(&str, &str)]) -> String {
    let mut ranks: Vec<Vec<String>> = EMPTY_2P.split('/').map(|r| r.split(',').map(String::from).collect()).collect();
    for (sq, stack) in cells {
        let (f, r) = (sq.as_bytes()[0] - b'a', sq.as_bytes()[1] - b'1');
        let first = match r {
            0 | 7 => 2,
            1 | 6 => 1,
            _ => 0,
        };
        ranks[7 - r as usize][(f - first) as usize] = stack.to_string();
    }
    ranks.iter().map(|r| r.join(",")).collect::<Vec<_>>().join("/")
}

#[test]
fn start_texts() {
    let p = Position::start(Variant::default());
    assert_eq!(
        p.to_string(),
        "focus - .,.,.,./0,0,1,1,0,0/.,1,1,0,0,1,1,./.,0,0,1,1,0,0,./.,1,1,0,0,1,1,./.,0,0,1,1,0,0,./1,1,0,0,1,1/.,.,.,. \
         res=0/0 turn=0 ply=0"
    );
    let p4 = Position::start(Variant::parse("players=4").unwrap());
    assert_eq!(
        p4.to_string(),
        "focus players=4 1,1,3,2/2,2,2,3,2,3/1,1,1,1,3,2,3,2/2,2,2,2,3,2,3,2/0,1,0,1,0,0,0,0/0,1,0,1,3,3,3,3/1,0,1,0,0,0/\
         0,1,3,3 res=0/0/0/0 turn=0 ply=0"
    );
    for q in 0..4 {
        assert_eq!(p4.on_board(q), 13);
    }
    let s = Position::start(Variant::parse("fix=swap").unwrap());
    assert!(s.to_string().ends_with(" swaps=0"));
    assert!(!p.board_text(false).is_empty() && p4.board_text(true).contains("\x1b["));
}

#[test]
fn two_player_block_wins() {
    // (a5's stack of player 0 keeps the 5 pieces an overflow leaves on the board.)
    let mut p = pos(&format!("focus - {} res=0/0 turn=0 ply=34", board(&[("d5", "0"), ("d4", "1"), ("a5", "1110")])));
    assert_eq!(p.outcome(), None);
    play(&mut p, "d5-d4");
    assert_eq!(p.outcome(), Some(Outcome::Win { team: 0 }));
    assert_eq!(p.count_moves(), 0);
    let mut v = vec![Move::Pass];
    p.legal_moves(&mut v);
    assert!(v.is_empty());
    assert_eq!(p.outcome().unwrap().scores(2), [1.0, 0.0, 0.0, 0.0]);
    // With a reserve piece, the player is not blocked.
    let mut p = pos(&format!("focus - {} res=0/1 turn=0 ply=34", board(&[("d5", "0"), ("d4", "1"), ("a5", "1110")])));
    play(&mut p, "d5-d4");
    assert_eq!(p.outcome(), None);
    assert_eq!(p.count_moves(), 52);
}

#[test]
fn overflow_two_players() {
    // d4 holds 5 (bottom 0 1 0 1 1); player 1 moves a 2-stack from d6 onto it: the two bottom
    // pieces go, 0 eliminated and 1 to player 1's reserve.
    let mut p = pos(&format!("focus - {} res=0/0 turn=1 ply=33", board(&[("d4", "01011"), ("d6", "01"), ("b3", "0")])));
    play(&mut p, "d6-d4");
    assert_eq!(p.height(3 * 8 + 3), 5);
    assert_eq!(p.reserve(1), 1);
    assert_eq!(p.eliminated(0), 18 - 2 - 1);
    assert_eq!(p.to_string(), format!("focus - {} res=0/1 turn=0 ply=34", board(&[("d4", "01101"), ("b3", "0")])));
    // A 1-piece split of a 2-stack moves 1 square and uncovers the bottom piece.
    let mut p = pos(&format!("focus - {} res=0/0 turn=0 ply=34", board(&[("c3", "10"), ("f6", "1"), ("a5", "0000")])));
    play(&mut p, "c3-c4");
    assert_eq!(p.controller(2 * 8 + 2), Some(1));
    assert_eq!(p.controller(3 * 8 + 2), Some(0));
    assert!(p.parse_move("c4-c6").is_err());
}

fn four(cells: &[(&str, &str)], res: &str, turn: usize, ply: u32) -> Position {
    pos(&format!("focus players=4 {} res={res} turn={turn} ply={ply}", board(cells)))
}

#[test]
fn four_players_partner_overflow_pass_and_team_end() {
    // P0 lands on a 5-stack whose bottom is P2's: that piece goes to P2's reserve.
    let mut p = four(&[("d5", "0"), ("d4", "21311"), ("h6", "3"), ("a3", "1")], "0/0/0/0", 0, 48);
    assert_eq!(p.to_move(), 0);
    // P2 controls nothing and has no reserve, but P0 plays: the game goes on.
    assert_eq!(p.outcome(), None);
    play(&mut p, "d5-d4");
    assert_eq!(p.reserve(2), 1);
    assert_eq!(p.to_move(), 1);
    play(&mut p, "a3-a4");
    assert_eq!(p.to_move(), 2);
    assert_eq!(p.count_moves(), 52);
    play(&mut p, "+h6");
    // P3 has nothing left; P1 still has a4: P3 must pass.
    assert_eq!(p.to_move(), 3);
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    assert_eq!(v, vec![Move::Pass]);
    assert!(p.parse_move("+d4").is_err());
    play(&mut p, "pass");
    assert_eq!(p.to_move(), 0);
    // P0 covers P1's last stack: team 1 has no move at all and loses.
    let mut p = four(&[("a5", "0"), ("a4", "1"), ("h6", "22222")], "0/0/0/0", 0, 52);
    play(&mut p, "a5-a4");
    assert_eq!(p.outcome(), Some(Outcome::Win { team: 0 }));
    assert_eq!(p.outcome().unwrap().scores(4), [1.0, 0.0, 1.0, 0.0]);
    // Counter-clockwise order.
    let p = pos(&format!(
        "focus players=4,order=ccw {} res=0/0/0/0 turn=0 ply=52",
        board(&[("a5", "0"), ("a4", "1"), ("h6", "33333")])
    ));
    let mut q = p;
    play(&mut q, "a5-a6");
    assert_eq!(q.to_move(), 3);
}

#[test]
fn the_cap_and_fix_draw() {
    let cells = [("d5", "0"), ("d4", "1"), ("a4", "0"), ("h4", "1"), ("b6", "0")];
    let mut p = pos(&format!("focus - {} res=0/0 turn=1 ply=999", board(&cells)));
    play(&mut p, "h4-h5");
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert_eq!(p.outcome().unwrap().scores(2), [0.5, 0.5, 0.0, 0.0]);
    let mut p = pos(&format!("focus fix=draw {} res=0/0 turn=1 ply=999", board(&cells)));
    play(&mut p, "h4-h5");
    assert_eq!(p.outcome(), Some(Outcome::Win { team: 0 }));
    assert!(p.capped(), "the cap's win under fix=draw is the cap's");
    let mut p = pos(&format!("focus cap=40 {} res=0/0 turn=1 ply=39", board(&cells)));
    assert!(!p.capped(), "not over");
    play(&mut p, "h4-h5");
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert!(p.capped());
    // A block on the cap's ply is the rules' end, not the cap's.
    let blocked = board(&[("d5", "0"), ("d4", "1"), ("a5", "1110")]);
    let mut p = pos(&format!("focus fix=draw,cap=35 {blocked} res=0/0 turn=0 ply=34"));
    play(&mut p, "d5-d4");
    assert_eq!((p.outcome(), p.capped()), (Some(Outcome::Win { team: 0 }), false));
}

#[test]
fn opening_swaps() {
    let mut p = Position::start(Variant::parse("fix=swap").unwrap());
    assert_eq!(p.count_moves(), 324);
    play(&mut p, "swap:b7,d7");
    assert_eq!(p.ply(), 1);
    assert_eq!(p.to_move(), 1);
    // Undoing P0's swap restores the symmetry: refused.
    assert!(p.parse_move("swap:b7,d7").is_err());
    let n = p.count_moves();
    assert!(n < 324 && n > 300, "{n}");
    play(&mut p, "swap:e7,c7");
    assert_eq!(p.swaps_played(), 2);
    assert_eq!(p.to_move(), 0);
    // P0 gave b7 (2 neighbours) and c7 (4) for d7 (4) and e7 (4).
    assert_eq!(p.count_moves(), 70);
    let back: Position = p.to_string().parse().unwrap();
    assert_eq!(back, p);
}

#[test]
fn every_random_game_ends_within_the_cap() {
    let games = if testkit::UNOPTIMISED { 2 } else { 20 };
    for v in variants() {
        let mut rng = SplitMix64::new(99);
        for _ in 0..games {
            let mut p = Position::start(v);
            while random_step(&mut p, &mut rng) {}
            let o = p.outcome().expect("over");
            assert!(p.ply() <= v.cap);
            let s = o.scores(v.players);
            assert_eq!(s.iter().sum::<f64>(), if v.players == 4 { 2.0 } else { 1.0 });
            assert!(s[v.players..].iter().all(|&x| x == 0.0));
        }
    }
    // Short caps end soon, with every kind of result possible.
    let v = Variant::parse("cap=30").unwrap();
    let mut rng = SplitMix64::new(5);
    let mut p = Position::start(v);
    while random_step(&mut p, &mut rng) {}
    assert_eq!((p.ply(), p.outcome()), (30, Some(Outcome::Draw)));
}

/// The Zobrist keys are fixed constants: start hashes are pinned (a change breaks stored hashes).
#[test]
fn pinned_start_hashes() {
    let got: Vec<String> = variants().iter().map(|&v| format!("{:016x}", Position::start(v).hash())).collect();
    assert_eq!(got, PINNED);
}

const PINNED: [&str; 5] = [
    "75ba5755a93e463a", // 2 players
    "da9f9f17a08ea2a6", // 4 players
    "da9f9f17a08ea2a6", // 4 players, ccw (same state)
    "c074effe6f9e00b8", // fix=swap (swap phase 0)
    "75ba5755a93e463a", // fix=draw (same state as 2 players)
];

/// The checked `play` plays a legal move as `play_unchecked` does, and refuses an illegal one
/// with `check`'s reason, the position unchanged; in random games of every variant.
#[test]
fn play_checks_what_play_unchecked_trusts() {
    let mut rng = SplitMix64::new(11);
    let mut moves = Vec::new();
    for v in variants() {
        let mut p = Position::start(v);
        for _ in 0..300 {
            p.legal_moves(&mut moves);
            let illegal = [Move::Pass, Move::Enter { to: 0 }, Move::Step { from: 27, to: 27 }];
            for bad in illegal.into_iter().filter(|m| !moves.contains(m)) {
                let before = p;
                let why = p.check(bad).expect_err("an illegal move");
                assert_eq!(p.play(bad), Err(why));
                assert_eq!(p, before);
            }
            if moves.is_empty() {
                assert_eq!(p.play(Move::Pass), Err(focus_rules::MoveError::GameOver));
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
