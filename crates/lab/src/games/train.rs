//! Self-play samples for training a lab game's learned evaluation
//! ([`super::learn::GameWeights`]): games played by an agent spec, their
//! positions sampled, labelled by the result and optionally a labeller's
//! value ([`generate`]), for the one trainer ([`crate::net_train::fit`]).
//!
//! What this module must never do: know which game it plays, or draw
//! randomness from anywhere but the seeded generators of a game's index.

use super::LabGame;
use super::agent::AgentSpec;
use crate::agent::random_move;
use crate::net_train::{Samples, unit};
use crate::policy::{GameRng, mix64, rng_from_seed};
use crate::selfplay::game_seed;

/// What a game's training run plays and keeps (the trainer's own settings
/// are [`crate::net_train::Fit`]).
#[derive(Clone, Debug)]
pub struct LearnConfig {
    /// Games played for samples (training and held-out together).
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Plays every seat.
    pub generator: AgentSpec,
    /// Labels each sampled position with its value for the mover
    /// ([`crate::agent::Agent::assess`]); `None`: the game's result alone.
    pub labeler: Option<AgentSpec>,
    /// Weight of the labeler's value in the target (the result has the rest).
    pub label_weight: f64,
    /// Probability that a position is kept as a sample.
    pub sample: f64,
    /// Probability that a generator's move is replaced by a random one.
    pub explore: f64,
    /// Fraction of the games held out.
    pub holdout: f64,
}

/// Plays game `index` of `cfg` and samples its positions.
fn one_game<G: LabGame>(cfg: &LearnConfig, start: &G::State, index: u64) -> Samples {
    let seed = game_seed(cfg.seed, index);
    let mut rng: GameRng = rng_from_seed(seed);
    let mut pick: GameRng = rng_from_seed(mix64(seed ^ 0x6e65_745f_7472));
    let mut label_rng: GameRng = rng_from_seed(mix64(seed ^ 0x6c61_6265_6c73));
    let mut player = cfg.generator.build::<G>();
    let mut labeler = cfg.labeler.as_ref().map(|s| s.build::<G>());
    player.new_game();
    let mut s = *start;
    let mut buf = Vec::new();
    let mut kept: Vec<(G::State, Option<f64>)> = Vec::new();
    let result = loop {
        if let Some(r) = G::result(&s) {
            break r;
        }
        if unit(&mut pick) < cfg.sample {
            let value = labeler.as_mut().and_then(|l| {
                l.new_game();
                l.choose(&s, &mut label_rng);
                l.assess().map(|(w, _)| w.p())
            });
            kept.push((s, value));
        }
        let m = if unit(&mut rng) < cfg.explore {
            random_move::<G>(&s, &mut rng, &mut buf).expect("a running game has a legal move")
        } else {
            player.choose(&s, &mut rng)
        };
        s = G::apply(&s, m);
    };
    let winner = super::winner::<G>(&s, &result);
    let mut out = Samples::default();
    let (mut active, mut dense) = (Vec::new(), Vec::new());
    for (p, value) in kept {
        let won = winner.map(|t| t == G::team(&p, G::to_move(&p)));
        let (target, result) = crate::net_train::labelled(won, value, cfg.label_weight);
        G::net_inputs(&p, &mut active);
        dense.clear();
        G::net_features(&p, &mut dense);
        out.push(&active, &dense, target, result);
    }
    out
}

/// Plays the run's games in parallel from `start` and gathers their
/// samples in game order, whole games held out.
pub fn generate<G: LabGame>(cfg: &LearnConfig, start: &G::State) -> crate::net_train::Data {
    crate::net_train::gather(cfg.games, cfg.seed, cfg.holdout, |i| one_game::<G>(cfg, start, i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::focus::Focus;
    use crate::net_train::{Fit, FitStart, fit};

    fn small() -> LearnConfig {
        LearnConfig {
            games: 24,
            seed: 3,
            generator: AgentSpec::parse("greedy").unwrap(),
            labeler: None,
            label_weight: 0.5,
            sample: 0.05,
            explore: 0.05,
            holdout: 0.25,
        }
    }

    #[test]
    fn generation_is_a_function_of_the_seed_and_holds_out_whole_games() {
        let start = Focus::start("cap=200").unwrap();
        let c = small();
        let (a, b) = (generate::<Focus>(&c, &start), generate::<Focus>(&c, &start));
        assert_eq!(a.train.idx, b.train.idx);
        assert_eq!(a.held.target, b.held.target);
        assert!(!a.train.is_empty() && !a.held.is_empty());
        assert_eq!(a.train.width, Focus::NET_FEATURES.len());
        assert!(a.train.target.iter().zip(&a.train.result).all(|(t, r)| t == r), "no labeler: results");
        let shape = Focus::NET.unwrap();
        assert!(a.train.idx.iter().all(|&i| usize::from(i) < shape.inputs));
        let mut c2 = c.clone();
        c2.seed = 4;
        assert_ne!(generate::<Focus>(&c2, &start).train.idx, a.train.idx);
    }

    #[test]
    fn a_labeler_blends_its_value_into_the_target() {
        let start = Focus::start("cap=120").unwrap();
        let mut c = small();
        c.games = 4;
        c.sample = 0.2;
        c.labeler = Some(AgentSpec::parse("ab:depth=1").unwrap());
        c.label_weight = 1.0;
        let d = generate::<Focus>(&c, &start);
        let all = d.train.target.iter().chain(&d.held.target);
        let results = d.train.result.iter().chain(&d.held.result);
        assert!(all.zip(results).filter(|(t, r)| t != r).count() > 0);
    }

    /// Training lowers the training loss on Focus samples and keeps the
    /// best held-out epoch.
    #[test]
    fn the_trainer_learns_focus_samples() {
        let start = Focus::start("cap=200").unwrap();
        let mut c = small();
        c.games = 40;
        c.sample = 0.1;
        let d = generate::<Focus>(&c, &start);
        let shape = Focus::NET.unwrap();
        let f = Fit { seed: 1, hidden: 8, epochs: 4, batch: 32, lr: 3e-3, lr_final: 3e-3, l2: 0.0, linear_only: false };
        let from = FitStart {
            linear: vec![1.0; Focus::NET_FEATURES.len()],
            net: None,
            inputs: shape.inputs,
            max_active: shape.max_active,
        };
        let (_, net, reports) = fit(&f, &from, &d, |_| {});
        assert_eq!(net.inputs, shape.inputs);
        assert!(reports[4].train_loss < reports[0].train_loss, "{reports:?}");
        let best = reports.iter().map(|r| r.held_target).fold(f64::INFINITY, f64::min);
        assert!(best <= reports[0].held_target);
        // The linear part alone: the network's output stays zero, the terms' weights move.
        let lin = Fit { linear_only: true, lr: 3e-2, lr_final: 3e-2, ..f };
        let (linear, net, reports) = fit(&lin, &from, &d, |_| {});
        assert!(net.w2.iter().chain(&net.w1).chain(&net.b1).all(|&w| w == 0.0) && net.b2 == 0.0);
        assert!(linear.iter().any(|&w| (w - 1.0).abs() > 1e-3), "{linear:?}");
        assert!(reports[4].train_loss < reports[0].train_loss, "{reports:?}");
    }
}
