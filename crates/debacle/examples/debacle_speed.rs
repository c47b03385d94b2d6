//! Random full matches from the start with a fixed seed: games/s, moves
//! (plies applied)/s, mean plies and rounds per match, how often a safeguard
//! ended a round, and the match wins of each side.
//! `cargo run --release -p debacle-rules --example debacle_speed -- [games] [variant]`

use debacle_rules::{Dir, Move, Outcome, Position, Variant};
use std::time::Instant;
use testkit::SplitMix64;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let v = Variant::parse(&args.next().unwrap_or_default()).expect("a variant");
    let mut rng = SplitMix64::new(0x5eed);
    let mut buf: Vec<Move> = Vec::new();
    let (mut plies, mut rounds, mut safeguard_rounds, mut turn_caps, mut round_caps) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut wins = [0u64; 3];
    let t = Instant::now();
    for _ in 0..games {
        let mut p = Position::start(v);
        loop {
            p.legal_moves(&mut buf);
            if buf.is_empty() {
                break;
            }
            let m = buf[rng.below(buf.len())];
            let (round, mover, turn) = (p.round(), p.to_move(), p.turns_in_round());
            // The fifth capture: a roll onto an enemy die while holding 4.
            let captures = match m {
                Move::Roll { from, dir, .. } => {
                    let to = match dir {
                        Dir::Forward if mover == 0 => from + 6,
                        Dir::Forward => from - 6,
                        Dir::Left => from - 1,
                        Dir::Right => from + 1,
                    };
                    p.cell(to).is_some()
                }
                _ => false,
            };
            let five = captures && p.held(mover) == 4;
            p.play_unchecked(m);
            plies += 1;
            if p.round() != round || p.outcome().is_some() {
                rounds += 1;
                if !five {
                    safeguard_rounds += 1;
                    if turn + 1 >= v.turns {
                        turn_caps += 1;
                    }
                }
            }
        }
        if p.round() >= v.rounds && p.scores()[0] < v.target as u32 && p.scores()[1] < v.target as u32 {
            round_caps += 1;
        }
        match p.outcome() {
            Some(Outcome::Win { team }) => wins[team] += 1,
            _ => wins[2] += 1,
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!("variant `{}`: {games} matches in {s:.2} s (one thread)", v.to_text());
    println!("{:.1} matches/s, {:.0} plies/s", games as f64 / s, plies as f64 / s);
    println!(
        "mean {:.0} plies and {:.2} rounds per match; {safeguard_rounds} of {rounds} rounds ended by a safeguard ({turn_caps} by the turn cap); {round_caps} matches hit the round cap",
        plies as f64 / games as f64,
        rounds as f64 / games as f64
    );
    println!("South won {}, North won {}, draws {}", wins[0], wins[1], wins[2]);
}
