//! Training the value network ([`crate::net::Net`]) from self-play, for
//! every game: the trainer ([`fit`]) and the samples ([`Samples`]) know no
//! game; Sénat's games are played here ([`generate`], [`train`]), every
//! other game's in [`crate::games::learn`]. Positions are sampled from games
//! of a generator agent, each labelled with
//! the game's result for the side to move and, where a labelling agent is
//! given, with that agent's value of the position (expert iteration: the
//! search's value is a less noisy target than one game's result), blended
//! by a weight. Whole games are held out for measuring, never single
//! positions of a game used for training.
//!
//! The network is trained on top of a learned evaluation (the start's
//! logistic weights are the network's linear part, trained with it), with
//! Adam on the cross-entropy of the blended target; its output layer
//! starts at zero, so training starts from exactly the start's evaluation.
//! Where the start has a network of its own (an earlier round's), training
//! continues from it instead ([`TrainConfig::start`]). The step size stays
//! at [`Fit::lr`] or falls along a half cosine to
//! [`Fit::lr_final`] by the last step ([`step_size`]).
//!
//! Everything is a pure function of the configuration (games from
//! [`game_seed`], first weights and batch order from the seed); games are
//! played in parallel with rayon and gathered in game order; training is
//! single-threaded. This module never reads or writes files.

use crate::learned::{self, Learned, ND, NP, sigmoid};
use crate::net::{self, MAX_HIDDEN, Net};
use crate::policy::{Agent, GameRng, PolicySpec, RandomPolicy, Turn, mix64, rng_from_seed};
use crate::selfplay::game_seed;
use rand::Rng;
use rayon::prelude::*;
use senat_rules::dice::Side;
use senat_rules::game::GameRecord;
use senat_rules::position::Position;
use std::sync::Arc;

/// What a training run does.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Games played for samples (training and held-out together).
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Plays both sides of every game, draft included.
    pub generator: PolicySpec,
    /// Agents that play one side of a game each in turn against the
    /// generator (game `i`: the generator is red when `i` is even, its
    /// opponent `opponents[(i / 2) % len]`); empty: the generator plays both.
    pub opponents: Vec<PolicySpec>,
    /// Labels each sampled position with its value for the mover
    /// ([`Agent::assess`]); `None`: the game's result alone.
    pub labeler: Option<PolicySpec>,
    /// Weight of the labeler's value in the target (the result has the rest).
    pub label_weight: f64,
    /// Probability that a play position is kept as a sample.
    pub sample: f64,
    /// Probability that a play move of the generator is replaced by a random one.
    pub explore: f64,
    /// Train the draft network ([`Learned::draft_net`]) on draft positions
    /// instead of the play network on play positions.
    pub draft: bool,
    /// Probability that a draft move of the generator is replaced by a random
    /// one (varied drafts for the draft network to learn from).
    pub explore_draft: f64,
    /// Fraction of the games held out.
    pub holdout: f64,
    /// How the network is trained (its `seed` is replaced by the run's).
    pub fit: Fit,
    /// The evaluation trained on top of (the other phase's weights and
    /// network are kept). With a network of the phase trained, training
    /// continues from it (`hidden` is then the network's); without, a new
    /// one starts with a zero output layer.
    pub start: Learned,
}

impl TrainConfig {
    /// The defaults with `generator` playing.
    pub fn new(generator: PolicySpec) -> TrainConfig {
        TrainConfig {
            games: 20_000,
            seed: 1,
            generator,
            opponents: Vec::new(),
            labeler: None,
            label_weight: 0.5,
            sample: 0.1,
            explore: 0.02,
            draft: false,
            explore_draft: 0.15,
            holdout: 0.1,
            fit: Fit {
                seed: 1,
                hidden: 32,
                epochs: 8,
                batch: 256,
                lr: 1e-3,
                lr_final: 1e-3,
                l2: 1e-6,
                linear_only: false,
            },
            start: Learned::builtin().clone(),
        }
    }
}

/// Labelled positions of any game, stored flat.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Active inputs of every sample, one after another.
    pub idx: Vec<u16>,
    /// Where each sample's inputs end in `idx`.
    pub end: Vec<u32>,
    /// The hand-made features of every sample, seen from the mover,
    /// [`Samples::width`] of them per sample, one sample after another.
    pub dense: Vec<f32>,
    /// Hand-made features per sample.
    pub width: usize,
    /// The target for the mover (result blended with the labeler's value).
    pub target: Vec<f32>,
    /// The game's result for the mover: 1, ½, 0.
    pub result: Vec<f32>,
}

impl Samples {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// The active inputs of sample `k`.
    pub fn active(&self, k: usize) -> &[u16] {
        let start = if k == 0 { 0 } else { self.end[k - 1] as usize };
        &self.idx[start..self.end[k] as usize]
    }

    /// The hand-made features of sample `k`.
    pub fn features(&self, k: usize) -> &[f32] {
        &self.dense[k * self.width..(k + 1) * self.width]
    }

    /// Adds a sample: its active inputs, its hand-made features (all
    /// samples have as many), its target and the game's result, both for
    /// the side to move.
    pub fn push(&mut self, active: &[u16], features: &[f32], target: f32, result: f32) {
        if self.is_empty() {
            self.width = features.len();
        }
        debug_assert_eq!(features.len(), self.width, "every sample has as many features");
        self.idx.extend_from_slice(active);
        self.end.push(self.idx.len() as u32);
        self.dense.extend_from_slice(features);
        self.target.push(target);
        self.result.push(result);
    }

    fn push_senat(&mut self, p: &Position, target: f32, result: f32) {
        let mut v = Vec::with_capacity(net::MAX_ACTIVE);
        if p.is_play() {
            net::inputs(p, &mut v);
            let f = learned::play_features(p, p.side_to_move());
            self.push(&v, &f.map(|x| x as f32), target, result);
        } else {
            net::draft_inputs(p, &mut v);
            let f = learned::draft_features(p, p.side_to_move());
            self.push(&v, &f.map(|x| x as f32), target, result);
        }
    }

    /// Appends `o`'s samples (in their order).
    pub fn extend(&mut self, o: Samples) {
        if self.is_empty() {
            self.width = o.width;
        }
        let base = self.idx.len() as u32;
        self.idx.extend(o.idx);
        self.end.extend(o.end.into_iter().map(|e| e + base));
        self.dense.extend(o.dense);
        self.target.extend(o.target);
        self.result.extend(o.result);
    }
}

/// The samples of a run: training and held-out.
#[derive(Clone, Debug, Default)]
pub struct Data {
    /// Training samples.
    pub train: Samples,
    /// Held-out samples (whole games).
    pub held: Samples,
    /// Games played.
    pub games: u64,
}

/// A uniform number in [0, 1).
pub(crate) fn unit(rng: &mut GameRng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Plays game `index` and samples its play positions, or its draft
/// positions for the draft network (with their labels where `labeler` is
/// given).
fn one_game(cfg: &TrainConfig, index: u64) -> Samples {
    let seed = game_seed(cfg.seed, index);
    let mut rng: GameRng = rng_from_seed(seed);
    let mut pick: GameRng = rng_from_seed(mix64(seed ^ 0x6e65_745f_7472));
    let mut label_rng: GameRng = rng_from_seed(mix64(seed ^ 0x6c61_6265_6c73));
    let mut player = cfg.generator.build();
    let mut labeler = cfg.labeler.as_ref().map(|s| s.build());
    player.new_game();
    // The generator's opponent in this game, and the side it plays.
    let mut opponent = (!cfg.opponents.is_empty()).then(|| {
        let mut o = cfg.opponents[(index / 2) as usize % cfg.opponents.len()].build();
        o.new_game();
        (o, if index.is_multiple_of(2) { Side::Blue } else { Side::Red })
    });
    let mut game = GameRecord::new(Position::start());
    let mut kept: Vec<(Position, Option<f64>)> = Vec::new();
    let outcome = loop {
        if let Some(o) = game.outcome() {
            break o;
        }
        let p = *game.position();
        let turn = Turn::new(&game);
        if p.is_play() != cfg.draft && unit(&mut pick) < cfg.sample {
            let value = labeler.as_mut().and_then(|l| {
                l.new_game();
                l.choose(&turn, &mut label_rng);
                l.assess().map(|(w, _)| w.p())
            });
            kept.push((p, value));
        }
        // Draft moves are explored for the draft network only (and draw
        // from `rng` only then, so the play network's games stay as they were).
        let explore = if p.is_play() { Some(cfg.explore) } else { cfg.draft.then_some(cfg.explore_draft) };
        let m = if explore.is_some_and(|e| unit(&mut rng) < e) {
            RandomPolicy::default().choose(&turn, &mut rng)
        } else {
            match opponent.as_mut() {
                Some((o, side)) if p.side_to_move() == *side => o.choose(&turn, &mut rng),
                _ => player.choose(&turn, &mut rng),
            }
        };
        game.play_unchecked(m);
    };
    let mut s = Samples::default();
    for (p, value) in kept {
        let (target, result) = labelled(outcome.winner.map(|w| w == p.side_to_move()), value, cfg.label_weight);
        s.push_senat(&p, target, result);
    }
    s
}

/// A sample's target and the game's result for its side to move (`won`:
/// whether that side won, `None` a draw; the result is 1, ½ or 0), the
/// target being the result blended with the labeller's `value` by
/// `label_weight` where there is one: every game's labels.
pub fn labelled(won: Option<bool>, value: Option<f64>, label_weight: f64) -> (f32, f32) {
    let result = match won {
        Some(true) => 1.0,
        Some(false) => 0.0,
        None => 0.5,
    };
    let target = match value {
        Some(v) => label_weight * v + (1.0 - label_weight) * result,
        None => result,
    };
    (target as f32, result as f32)
}

/// Whether game `index` of the run of `seed` is held out (a fraction `holdout` of them).
fn held_out(seed: u64, holdout: f64, index: u64) -> bool {
    let mut r: GameRng = rng_from_seed(mix64(game_seed(seed, index) ^ 0x686f_6c64));
    unit(&mut r) < holdout
}

/// Plays games `0..games` of the run of `seed` in parallel (`one` plays
/// and samples one game) and gathers their samples in game order, a
/// fraction `holdout` of whole games held out: any game's.
pub fn gather(games: u64, seed: u64, holdout: f64, one: impl Fn(u64) -> Samples + Sync) -> Data {
    let idx: Vec<u64> = (0..games).collect();
    let chunks: Vec<(Samples, Samples)> = idx
        .par_chunks(16)
        .map(|ids| {
            let (mut t, mut h) = (Samples::default(), Samples::default());
            for &i in ids {
                let s = one(i);
                if held_out(seed, holdout, i) { h.extend(s) } else { t.extend(s) }
            }
            (t, h)
        })
        .collect();
    let mut d = Data { games, ..Data::default() };
    for (t, h) in chunks {
        d.train.extend(t);
        d.held.extend(h);
    }
    d
}

/// Plays Sénat's run's games in parallel and gathers their samples in game order.
pub fn generate(cfg: &TrainConfig) -> Data {
    gather(cfg.games, cfg.seed, cfg.holdout, |i| one_game(cfg, i))
}

/// The model being trained: the linear part and the network.
#[derive(Clone, Debug)]
struct Model {
    v: Vec<f32>,
    net: Net,
}

impl Model {
    fn logit(&self, s: &Samples, k: usize) -> f32 {
        let lin: f32 = self.v.iter().zip(s.features(k)).map(|(a, b)| a * b).sum();
        lin + self.net.output(s.active(k))
    }
}

/// Mean cross-entropy of `logits` against `y` (soft targets), in nats.
pub fn log_loss(logits: impl Iterator<Item = f64>, y: &[f32]) -> f64 {
    let mut loss = 0.0;
    let mut n = 0usize;
    for (z, &y) in logits.zip(y) {
        let p = sigmoid(z).clamp(1e-12, 1.0 - 1e-12);
        let y = f64::from(y);
        loss -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        n += 1;
    }
    loss / n.max(1) as f64
}

/// The held-out measures after an epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// 1-based epoch (0: before training).
    pub epoch: u32,
    /// Training loss on the targets over the epoch (before training: of the start).
    pub train_loss: f64,
    /// Held-out loss on the games' results.
    pub held_result: f64,
    /// Held-out loss on the targets.
    pub held_target: f64,
}

/// Held-out losses of `m`.
fn held_losses(m: &Model, held: &Samples) -> (f64, f64) {
    let z: Vec<f64> = (0..held.len()).map(|k| f64::from(m.logit(held, k))).collect();
    (log_loss(z.iter().copied(), &held.result), log_loss(z.iter().copied(), &held.target))
}

/// Adam's moments for one parameter vector.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n] }
    }

    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32, t: i32) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        for i in 0..w.len() {
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g[i] * g[i];
            w[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + eps);
        }
    }
}

/// The step size at step `t` of `steps` (0-based): `lr` at the first,
/// falling along a half cosine to `lr_final` at the last.
pub fn step_size(lr: f32, lr_final: f32, t: usize, steps: usize) -> f32 {
    if steps <= 1 {
        return lr;
    }
    let x = t.min(steps - 1) as f64 / (steps - 1) as f64;
    let c = 0.5 * (1.0 + (std::f64::consts::PI * x).cos());
    (f64::from(lr_final) + (f64::from(lr) - f64::from(lr_final)) * c) as f32
}

/// How [`fit`] trains, whatever the game.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// The run's seed (first weights and batch order).
    pub seed: u64,
    /// Hidden units of a new network.
    pub hidden: usize,
    /// Passes over the training samples.
    pub epochs: u32,
    /// Samples per step.
    pub batch: usize,
    /// Adam's step size (at the first step).
    pub lr: f32,
    /// The step size at the last step, reached along a half cosine
    /// ([`step_size`]); equal to `lr`: a constant step.
    pub lr_final: f32,
    /// L2 penalty on the network's input weights.
    pub l2: f32,
    /// Fit the linear part alone (`senat tune --game G`): the network stays
    /// as it starts, a new one with a zero output (so none at all).
    pub linear_only: bool,
}

/// What [`fit`] starts from: the linear part's weights (one per hand-made
/// feature), and a network to continue, or a new one's size.
#[derive(Clone, Debug)]
pub struct FitStart<'a> {
    /// The linear part's weights.
    pub linear: Vec<f32>,
    /// A network to continue training; `None`: a new one.
    pub net: Option<&'a Net>,
    /// The game's inputs (a new network's rows).
    pub inputs: usize,
    /// The most inputs on in one position (sets a new network's first weights' spread).
    pub max_active: usize,
}

/// Trains the linear part and the network on `data` (any game's) and
/// returns them with the report of each epoch; `each` is called after
/// every epoch. The epoch with the lowest held-out loss on the targets is
/// kept, epoch 0 (the start) included.
pub fn fit(
    f: &Fit,
    start: &FitStart<'_>,
    data: &Data,
    mut each: impl FnMut(&EpochReport),
) -> (Vec<f32>, Net, Vec<EpochReport>) {
    let mut rng: GameRng = rng_from_seed(mix64(f.seed ^ 0x0074_7261_696e));
    let net = match start.net {
        Some(n) => Net::clone(n),
        None => {
            let mut net = Net::zeros(start.inputs, f.hidden.clamp(1, MAX_HIDDEN));
            if !f.linear_only {
                let a = 1.0 / (start.max_active as f32 / 1.5).sqrt();
                for w in net.w1.iter_mut() {
                    *w = (unit(&mut rng) as f32 * 2.0 - 1.0) * a;
                }
                net.b1.iter_mut().for_each(|b| *b = 0.5);
            }
            net
        }
    };
    let (h, inputs, np) = (net.hidden, net.inputs, start.linear.len());
    let mut m = Model { v: start.linear.clone(), net };
    let train = &data.train;
    let mut reports = Vec::new();
    let (hr, ht) = held_losses(&m, &data.held);
    let start_train = log_loss((0..train.len()).map(|k| f64::from(m.logit(train, k))), &train.target);
    let r0 = EpochReport { epoch: 0, train_loss: start_train, held_result: hr, held_target: ht };
    each(&r0);
    reports.push(r0);
    let (mut av, mut aw1, mut ab1, mut aw2, mut ab2) =
        (Adam::new(np), Adam::new(inputs * h), Adam::new(h), Adam::new(h), Adam::new(1));
    let (mut gv, mut gw1, mut gb1, mut gw2) =
        (vec![0.0f32; np], vec![0.0f32; inputs * h], vec![0.0f32; h], vec![0.0f32; h]);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let batch = f.batch.max(1);
    let steps = f.epochs as usize * train.len().div_ceil(batch);
    let mut t = 0i32;
    let mut acc = vec![0.0f32; h];
    let mut best = (ht, m.clone());
    for epoch in 1..=f.epochs {
        for i in (1..order.len()).rev() {
            let j = crate::policy::below(&mut rng, i + 1);
            order.swap(i, j);
        }
        let mut loss = 0.0f64;
        for chunk in order.chunks(batch) {
            gv.iter_mut().for_each(|x| *x = 0.0);
            gw1.iter_mut().for_each(|x| *x = 0.0);
            gb1.iter_mut().for_each(|x| *x = 0.0);
            gw2.iter_mut().for_each(|x| *x = 0.0);
            let mut gb2 = 0.0f32;
            let scale = 1.0 / chunk.len() as f32;
            for &k in chunk {
                let active = train.active(k);
                let dense = train.features(k);
                m.net.accumulate(active, &mut acc);
                let mut z: f32 = m.v.iter().zip(dense).map(|(a, b)| a * b).sum::<f32>() + m.net.b2;
                for (a, w) in acc.iter().zip(&m.net.w2) {
                    z += a.clamp(0.0, 1.0) * w;
                }
                let y = train.target[k];
                let p = 1.0 / (1.0 + (-z).exp());
                loss -= f64::from(y) * f64::from(p.max(1e-7)).ln()
                    + f64::from(1.0 - y) * f64::from((1.0 - p).max(1e-7)).ln();
                let dz = (p - y) * scale;
                for (g, x) in gv.iter_mut().zip(dense) {
                    *g += dz * x;
                }
                gb2 += dz;
                for j in 0..h {
                    let a = acc[j];
                    gw2[j] += dz * a.clamp(0.0, 1.0);
                    if a > 0.0 && a < 1.0 {
                        let d = dz * m.net.w2[j];
                        gb1[j] += d;
                        for &i in active {
                            gw1[usize::from(i) * h + j] += d;
                        }
                    }
                }
            }
            if f.l2 > 0.0 {
                for (g, w) in gw1.iter_mut().zip(&m.net.w1) {
                    *g += f.l2 * w;
                }
            }
            let lr = step_size(f.lr, f.lr_final, t as usize, steps);
            t += 1;
            av.step(&mut m.v, &gv, lr, t);
            if f.linear_only {
                continue;
            }
            aw1.step(&mut m.net.w1, &gw1, lr, t);
            ab1.step(&mut m.net.b1, &gb1, lr, t);
            aw2.step(&mut m.net.w2, &gw2, lr, t);
            let mut b2 = [m.net.b2];
            ab2.step(&mut b2, &[gb2], lr, t);
            m.net.b2 = b2[0];
        }
        let (hr, ht) = held_losses(&m, &data.held);
        let r = EpochReport { epoch, train_loss: loss / train.len().max(1) as f64, held_result: hr, held_target: ht };
        each(&r);
        reports.push(r);
        if ht < best.0 {
            best = (ht, m.clone());
        }
    }
    let m = if data.held.is_empty() { m } else { best.1 };
    (m.v, m.net, reports)
}

/// Trains Sénat's play network, or its draft network with `cfg.draft`, on
/// `data` ([`fit`] from `cfg.start`) and returns the evaluation (the
/// start's other phase, the trained linear part and network) with the
/// report of each epoch.
pub fn train(cfg: &TrainConfig, data: &Data, each: impl FnMut(&EpochReport)) -> (Learned, Vec<EpochReport>) {
    let f = Fit { seed: cfg.seed, ..cfg.fit };
    let start = if cfg.draft {
        FitStart {
            linear: cfg.start.draft.map(|x| x as f32).to_vec(),
            net: cfg.start.draft_net.as_deref(),
            inputs: net::DRAFT_INPUTS,
            max_active: net::DRAFT_MAX_ACTIVE,
        }
    } else {
        FitStart {
            linear: cfg.start.play.map(|x| x as f32).to_vec(),
            net: cfg.start.net.as_deref(),
            inputs: net::INPUTS,
            max_active: net::MAX_ACTIVE,
        }
    };
    let (v, net, reports) = fit(&f, &start, data, each);
    let out = if cfg.draft {
        let draft: [f32; ND] = v.try_into().expect("the linear part keeps its ND weights");
        Learned { draft: draft.map(f64::from), draft_net: Some(Arc::new(net)), ..cfg.start.clone() }
    } else {
        let play: [f32; NP] = v.try_into().expect("the linear part keeps its NP weights");
        Learned { play: play.map(f64::from), net: Some(Arc::new(net)), ..cfg.start.clone() }
    };
    (out, reports)
}

/// The start evaluation's held-out loss on results, for the side that moves
/// (the network's own first report gives the same with its start): its
/// play weights on play samples, its draft weights on draft samples.
pub fn start_loss(start: &Learned, held: &Samples) -> f64 {
    const _: () = assert!(NP != ND, "the phases' samples are told apart by their width");
    let w: &[f64] = if held.width == ND { &start.draft } else { &start.play };
    let z = (0..held.len()).map(|k| w.iter().zip(held.features(k)).map(|(a, b)| a * f64::from(*b)).sum::<f64>());
    log_loss(z, &held.result)
}

/// The side to move's logit of `p` by `e` (for checks).
pub fn mover_logit(e: &Learned, p: &Position) -> f64 {
    let me: Side = p.side_to_move();
    e.logit(p, me)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(generator: &str) -> TrainConfig {
        let mut c = TrainConfig::new(PolicySpec::parse(generator).unwrap());
        c.games = 60;
        c.sample = 0.3;
        c.holdout = 0.25;
        c.fit.hidden = 8;
        c.fit.epochs = 3;
        c
    }

    #[test]
    fn generation_is_a_function_of_the_seed_and_holds_out_whole_games() {
        let c = small("learned");
        let (a, b) = (generate(&c), generate(&c));
        assert_eq!(a.train.idx, b.train.idx);
        assert_eq!(a.held.target, b.held.target);
        assert!(!a.train.is_empty() && !a.held.is_empty());
        assert_eq!(a.train.end.len(), a.train.len());
        // Results only: every target is a result.
        assert!(a.train.target.iter().zip(&a.train.result).all(|(t, r)| t == r));
        let mut c2 = c.clone();
        c2.seed = 2;
        assert_ne!(generate(&c2).train.idx, a.train.idx);
    }

    #[test]
    fn training_lowers_the_training_loss_and_the_file_round_trips() {
        let c = small("learned");
        let d = generate(&c);
        let (e, reports) = train(&c, &d, |_| {});
        assert_eq!(reports.len(), 4);
        // Before training the model is exactly the start.
        assert!((reports[0].held_result - start_loss(&c.start, &d.held)).abs() < 1e-4);
        assert!(reports[3].train_loss < reports[0].train_loss, "{reports:?}");
        let back = Learned::parse(&e.to_text("test")).unwrap();
        assert_eq!(back, e);
        let q: Position = senat_rules::sample::START.parse().unwrap();
        assert!((mover_logit(&back, &q) - mover_logit(&e, &q)).abs() < 1e-12);
        assert!((e.value(&q, Side::Red) + e.value(&q, Side::Blue) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_labeler_blends_its_value_into_the_target() {
        let mut c = small("learned");
        c.games = 8;
        c.labeler = Some(PolicySpec::parse("mcts:playouts=50,rollout=eval").unwrap());
        c.label_weight = 1.0;
        let d = generate(&c);
        let all = d.train.target.iter().chain(&d.held.target);
        let results = d.train.result.iter().chain(&d.held.result);
        // With weight 1 the target is the search's value, seldom exactly a result.
        let differ = all.zip(results).filter(|(t, r)| t != r).count();
        assert!(differ > 0);
    }

    #[test]
    fn the_step_size_falls_along_a_half_cosine_or_stays() {
        assert_eq!(step_size(1e-3, 1e-3, 5, 10), 1e-3);
        assert_eq!(step_size(1e-3, 1e-5, 0, 100), 1e-3);
        assert!((step_size(1e-3, 1e-5, 99, 100) - 1e-5).abs() < 1e-9);
        assert!((step_size(1e-3, 0.0, 50, 101) - 5e-4).abs() < 1e-7, "halfway is the mean");
        let s: Vec<f32> = (0..100).map(|t| step_size(1e-3, 1e-5, t, 100)).collect();
        assert!(s.windows(2).all(|w| w[1] <= w[0]));
        assert_eq!(step_size(1e-3, 1e-5, 500, 100), step_size(1e-3, 1e-5, 99, 100), "past the end: the last");
        assert_eq!(step_size(1e-3, 1e-5, 0, 1), 1e-3);
    }

    #[test]
    fn training_continues_from_the_start_network() {
        let mut c = small("learned");
        c.fit.lr_final = 1e-5;
        let d = generate(&c);
        let (mut first, _) = train(&c, &d, |_| {});
        // A network whose output is surely not zero (the kept epoch may be the start's).
        let mut n = Net::clone(first.net.as_ref().unwrap());
        n.w2.iter_mut().enumerate().for_each(|(j, w)| *w += 0.05 * j as f32 - 0.2);
        first.net = Some(Arc::new(n));
        let mut c2 = c.clone();
        c2.start = first.clone();
        c2.fit.hidden = 3; // ignored: the start's network has 8
        c2.seed = 5;
        let (second, reports) = train(&c2, &d, |_| {});
        assert_eq!(second.net.as_ref().unwrap().hidden, 8);
        // Epoch 0 is the start with its network, not the logistic model alone.
        let held: Vec<f64> = (0..d.held.len()).map(|k| f64::from(first_logit(&first, &d.held, k))).collect();
        assert!((reports[0].held_target - log_loss(held.into_iter(), &d.held.target)).abs() < 1e-6);
        assert!((reports[0].held_result - start_loss(&c.start, &d.held)).abs() > 1e-4);
        // The kept epoch is never worse than the start on held-out targets.
        let best = reports.iter().map(|r| r.held_target).fold(f64::INFINITY, f64::min);
        let kept: Vec<f64> = (0..d.held.len()).map(|k| f64::from(first_logit(&second, &d.held, k))).collect();
        assert!((log_loss(kept.into_iter(), &d.held.target) - best).abs() < 1e-6);
        assert!(best <= reports[0].held_target);
    }

    /// The mover's logit of sample `k` by `e` (its linear part and network).
    fn first_logit(e: &Learned, s: &Samples, k: usize) -> f32 {
        let m = Model { v: e.play.map(|x| x as f32).to_vec(), net: Net::clone(e.net.as_ref().unwrap()) };
        m.logit(s, k)
    }
}
