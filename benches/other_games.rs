//! Random-play speed of Focus (2 and 4 players) and Débâcle, one thread:
//!
//! * **rules**: uniformly random plies straight on the rules crate (a move
//!   drawn from the legal list, played in place), a new game when one ends;
//!   the figure is plies (moves) per second, the target for Focus being
//!   1,000,000 per core;
//! * **games**: complete random games through the lab (`games::agent::play`
//!   with two random agents, as `senat selfplay --game … --threads 1`
//!   plays them, nothing written): games per second and plies per game,
//!   with the game's ply cap (Focus's default caps, 1,000 plies for 2
//!   players and 2,000 for 4, end most random games: see GAMES.md §1.5).
//!
//! Each measure runs `OTHER_GAMES_RUNS` times (default 5, `-- --quick`: 2)
//! and prints min / median / max. Run: `cargo bench --bench other_games`.

use std::time::Instant;

use game_search::rng::rng_from_seed;
use senat_lab::games::LabGame;
use senat_lab::games::agent::{AgentSpec, play};
use senat_lab::games::debacle::Debacle;
use senat_lab::games::focus::Focus;
use testkit::SplitMix64;

fn summary(rates: &mut [f64]) -> String {
    rates.sort_by(f64::total_cmp);
    format!("min {:.0}  median {:.0}  max {:.0}", rates[0], rates[rates.len() / 2], rates[rates.len() - 1])
}

/// Plies per second of random play on the rules, `plies` per run.
fn rules_rate<S: Copy>(start: S, plies: u64, over: impl Fn(&S) -> bool, mut step: impl FnMut(&mut S, u64)) -> f64 {
    let mut s = start;
    // The rules-level playouts' random numbers.
    let mut rng = SplitMix64::new(1);
    let t = Instant::now();
    for _ in 0..plies {
        if over(&s) {
            s = start;
        }
        step(&mut s, rng.next_u64());
    }
    plies as f64 / t.elapsed().as_secs_f64()
}

/// Complete random games through the lab: (games per second, plies per game, games at the cap).
fn games_rate<G: LabGame>(variant: &str, games: u64) -> (f64, f64, u64) {
    let start = G::start(variant).expect("variant");
    let (mut plies, mut drawn) = (0u64, 0u64);
    let t = Instant::now();
    for g in 0..games {
        let mut agents = [AgentSpec::Random.build::<G>(), AgentSpec::Random.build::<G>()];
        let p = play::<G>(start, &mut agents, &mut rng_from_seed(g), false);
        plies += u64::from(p.plies);
        drawn += u64::from(p.winner.is_none());
    }
    (games as f64 / t.elapsed().as_secs_f64(), plies as f64 / games as f64, drawn)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let runs: usize =
        std::env::var("OTHER_GAMES_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(if quick { 2 } else { 5 });
    let plies = if quick { 300_000 } else { 2_000_000 };
    println!("random play, one thread, {runs} runs each");
    for (name, variant) in [("focus", ""), ("focus4", "players=4")] {
        let start = focus_rules::Position::start(focus_rules::Variant::parse(variant).expect("variant"));
        let mut rates: Vec<f64> = (0..runs)
            .map(|_| {
                rules_rate(
                    start,
                    plies,
                    |s| s.outcome().is_some(),
                    |s, r| {
                        let n = s.count_moves();
                        let m = s.nth_move((r % n as u64) as usize);
                        s.play_unchecked(m);
                    },
                )
            })
            .collect();
        println!("{name:<8} rules: plies/s {}", summary(&mut rates));
    }
    {
        let start = debacle_rules::Position::start(debacle_rules::Variant::default());
        let mut buf = Vec::new();
        let mut rates: Vec<f64> = (0..runs)
            .map(|_| {
                rules_rate(
                    start,
                    plies,
                    |s| s.outcome().is_some(),
                    |s, r| {
                        s.legal_moves(&mut buf);
                        let m = buf[(r % buf.len() as u64) as usize];
                        s.play_unchecked(m);
                    },
                )
            })
            .collect();
        println!("{:<8} rules: plies/s {}", "debacle", summary(&mut rates));
    }
    let games = if quick { 50 } else { 400 };
    for (name, variant) in [("focus", ""), ("focus4", "players=4"), ("debacle", "")] {
        let mut rates = Vec::new();
        let mut last = (0.0, 0);
        for _ in 0..runs {
            let (r, p, d) = if name == "debacle" {
                games_rate::<Debacle>(variant, games)
            } else {
                games_rate::<Focus>(variant, games)
            };
            rates.push(r);
            last = (p, d);
        }
        println!(
            "{name:<8} games: {games} complete random games per run, games/s {}; {:.1} plies per game, {} of {games} drawn (Focus: at the ply cap)",
            summary(&mut rates),
            last.0,
            last.1
        );
    }
}
