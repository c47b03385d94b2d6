//! Fits the logistic scale that turns a game's static evaluation into a
//! win probability ([`senat_lab::winprob`]), for Focus, Focus for four and
//! Débâcle: the scale behind `LabGame::eval_scale`.
//!
//! ```text
//! cargo run --release -p senat-lab --example eval_scale -- GAME [GAMES] [SEED] [AGENT] [BOOK]
//! ```
//!
//! GAME is `focus`, `focus4`, `debacle` or `connect4`; GAMES (default 400) games of
//! AGENT (default `ab:depth=1`) against itself, each after BOOK (default 8)
//! uniformly random plies so that a deterministic agent plays varied games,
//! with generators seeded from (SEED, game index) as self-play seeds them. Every position where a
//! player is to move is a sample: its evaluation for the mover (the units
//! alpha-beta searches in, clamped as the search clamps it) and the mover's
//! team's result (1 win, ½ draw, 0 loss). Prints the best single scale
//! (evaluation units per unit of log-odds; one parameter, no intercept,
//! log-loss) fitted on the even games and its log-loss on the odd ones,
//! beside the log-loss of MCTS's default leaf scale and of a coin.
use game_search::Evaluator;
use game_search::rng::{GameRng, rng_from_seed};
use senat_lab::agent::random_move;
use senat_lab::games::agent::{AgentSpec, play};
use senat_lab::games::connect4::Connect4;
use senat_lab::games::debacle::Debacle;
use senat_lab::games::focus::Focus;
use senat_lab::games::{LabEval, LabGame};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let game = arg(0, "");
    let games: u64 = arg(1, "400").parse().expect("GAMES is a number");
    let seed: u64 = arg(2, "1").parse().expect("SEED is a number");
    let agent = AgentSpec::parse(&arg(3, "ab:depth=1")).unwrap_or_else(|e| panic!("AGENT: {e}"));
    let book: u32 = arg(4, "8").parse().expect("BOOK is a number");
    match game.as_str() {
        "focus" => run::<Focus>("", games, seed, agent, book),
        "focus4" => run::<Focus>("players=4", games, seed, agent, book),
        "debacle" => run::<Debacle>("", games, seed, agent, book),
        "connect4" => run::<Connect4>("", games, seed, agent, book),
        _ => {
            eprintln!("usage: eval_scale focus|focus4|debacle|connect4 [GAMES] [SEED] [AGENT] [BOOK]");
            std::process::exit(2);
        }
    }
}

/// (evaluation for the mover, the mover's team's result) of every position of one game.
fn samples<G: LabGame>(start: G::State, agent: AgentSpec, book: u32, rng: &mut GameRng) -> Vec<(f64, f64)> {
    let mut s = start;
    let mut buf = Vec::new();
    for _ in 0..book {
        if G::result(&s).is_some() {
            break;
        }
        let m = random_move::<G>(&s, rng, &mut buf).expect("a running game has a move");
        s = G::apply(&s, m);
    }
    let mut agents = [agent.build::<G>(), agent.build::<G>()];
    let played = play::<G>(s, &mut agents, rng, true);
    let mut out = Vec::new();
    for m in played.moves {
        let team = G::team(&s, G::to_move(&s));
        let y = match played.winner {
            None => 0.5,
            Some(w) if w == team => 1.0,
            Some(_) => 0.0,
        };
        out.push((f64::from(<LabEval as Evaluator<G>>::eval(&LabEval::HAND, &s)), y));
        s = G::apply(&s, m);
    }
    out
}

fn log_loss(scale: f64, data: &[(f64, f64)]) -> f64 {
    let eps = 1e-12;
    let sum: f64 = data
        .iter()
        .map(|&(x, y)| {
            let p = (1.0 / (1.0 + (-x / scale).exp())).clamp(eps, 1.0 - eps);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    sum / data.len().max(1) as f64
}

fn run<G: LabGame>(variant: &str, games: u64, seed: u64, agent: AgentSpec, book: u32) {
    let start = G::start(variant).expect("the variant is valid");
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for g in 0..games {
        let mut rng = rng_from_seed(senat_lab::selfplay::game_seed(seed, g));
        let s = samples::<G>(start, agent, book, &mut rng);
        if g % 2 == 0 { train.extend(s) } else { test.extend(s) }
    }
    let (x, y): (Vec<f64>, Vec<f64>) = train.iter().copied().unzip();
    let a = senat_lab::tune::fit_scale(&x, &y);
    let scale = 1.0 / a;
    println!(
        "{} variant={} agent={agent} book={book} games={games} seed={seed}: {} training positions, {} held out",
        std::any::type_name::<G>().rsplit("::").next().unwrap_or("?"),
        if variant.is_empty() { "-" } else { variant },
        train.len(),
        test.len()
    );
    println!("fitted scale {scale:.1} evaluation units per unit of log-odds");
    println!(
        "held-out log-loss: fitted {:.4}, MCTS leaf default ({}) {:.4}, coin {:.4}",
        log_loss(scale, &test),
        senat_lab::games::agent::DEFAULT_SCALE,
        log_loss(senat_lab::games::agent::DEFAULT_SCALE, &test),
        std::f64::consts::LN_2
    );
}
