//! Random-playout speed of focus-rules: plays N uniformly random games from the start of a
//! variant with a fixed seed and prints games/s, moves/s (plies applied), the mean plies per game
//! and how many games hit the ply cap.
//!
//! Usage: `cargo run --release -p focus-rules --example focus_speed -- [games] [variant]`
//! (default 200 games, variant "" = 2 players).

use focus_rules::{Outcome, Position, Variant};
use std::time::Instant;
use testkit::XorShift64;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).map(|s| s.parse().expect("games: a number")).unwrap_or(200);
    let variant = Variant::parse(args.get(2).map(String::as_str).unwrap_or("")).expect("variant");
    let mut rng = XorShift64::new(0x1234_5678_9abc_def1);
    let (mut plies, mut capped, mut wins) = (0u64, 0u64, [0u64; 2]);
    let t = Instant::now();
    for _ in 0..games {
        let mut p = Position::start(variant);
        loop {
            let n = p.count_moves();
            if n == 0 {
                break;
            }
            let m = p.nth_move((((rng.next_u64() >> 32) * n as u64) >> 32) as usize);
            p.play_unchecked(m);
            plies += 1;
        }
        if let Some(Outcome::Win { team }) = p.outcome() {
            wins[team] += 1;
        }
        if p.ply() >= variant.cap {
            capped += 1;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "variant `{}` (cap {}): {games} games in {s:.2} s: {:.1} games/s, {:.0} moves/s, mean {:.1} plies/game, \
         {capped} hit the cap ({:.1}%), wins team0 {} team1 {}",
        variant.to_text(),
        variant.cap,
        games as f64 / s,
        plies as f64 / s,
        plies as f64 / games as f64,
        100.0 * capped as f64 / games as f64,
        wins[0],
        wins[1]
    );
}
