//! Perft from the start of every variant, pinned (depth 1 = GAMES.md §1.10).

use focus_rules::{Position, Variant, perft};

fn check(variant: &str, expected: &[u64]) {
    let p = Position::start(Variant::parse(variant).unwrap());
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), n, "variant `{variant}` depth {}", d + 1);
    }
}

#[test]
fn two_players() {
    check("", &[68, 4460, 299_912, 19_521_582]);
}

#[test]
fn four_players() {
    check("players=4", &[44, 1895, 80_983, 3_387_764]);
}

#[test]
fn four_players_ccw() {
    check("players=4,order=ccw", &[44, 1897, 81_162, 3_395_348]);
}

#[test]
fn fix_draw_is_the_plain_game_until_the_cap() {
    check("fix=draw", &[68, 4460, 299_912]);
}

#[test]
fn opening_swaps() {
    check("fix=swap", &[324, 102_240, 6_952_320]);
}

#[test]
fn opening_swaps_depth_4() {
    if testkit::UNOPTIMISED {
        eprintln!("skipped: depth 4 is slow without optimisation (the CI profile runs it)");
        return;
    }
    check("fix=swap", &[324, 102_240, 6_952_320, SWAP_4]);
}

const SWAP_4: u64 = 457_618_256;
