//! Fitting the learned evaluation ([`Learned`]) to self-play outcomes:
//! Texel-style tuning by logistic regression.
//!
//! One round ([`round`]) plays games with a generator (the heuristic policy
//! first, then the `learned` policy with the weights of the round before),
//! samples positions from them, labels each with the game's result for red
//! (1, ½, 0), fits one weight vector per phase by Newton's method on the
//! log-loss with a small L2 penalty, and measures the fit on held-out games
//! (whole games are held out, never single positions of a game used for
//! training). The play fit is compared with the hand-written evaluations
//! (the heuristic policy's [`Weights`] and alpha-beta's [`SenatEval`]),
//! each given its best single scale on the training set, so the comparison
//! is of shapes, not of units.
//!
//! Everything is a pure function of the configuration (seeds per game from
//! [`game_seed`]); games are played in parallel with rayon and gathered in
//! game order. This module never reads or writes files.

use crate::eval::{Features, SenatEval, Weights};
use crate::learned::{self, Learned, ND, NP, sigmoid};
use crate::policy::basic::LearnedPolicy;
use crate::policy::{Agent, GameRng, HeuristicPolicy, RandomPolicy, Senat, Turn, mix64, rng_from_seed};
use crate::selfplay::game_seed;
use rand::Rng;
use rayon::prelude::*;
use senat_rules::dice::Side;
use senat_rules::game::{GameRecord, Outcome};
use senat_rules::position::Position;

/// What a tuning run does.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneConfig {
    /// Games per round (training and held-out together).
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Rounds: the first generates with `heuristic`, each later one with the
    /// `learned` policy of the round before.
    pub rounds: u32,
    /// Probability that a position of a game is kept as a sample.
    pub sample: f64,
    /// Probability that a play move of the generator is replaced by a random
    /// one (diversity of positions).
    pub explore: f64,
    /// The same for draft moves (diversity of drafts: the draft weights are
    /// fitted on what varied drafts lead to under the generator's play).
    pub explore_draft: f64,
    /// Fraction of each round's games held out for measuring the fit.
    pub holdout: f64,
    /// L2 penalty on the weights (per sample).
    pub l2: f64,
    /// Weights the rounds start from instead of `heuristic`: the first round
    /// plays `learned` with them. Weights with a network keep their play
    /// weights and network (trained together), and only the draft weights
    /// are fitted.
    pub start: Option<Learned>,
}

impl Default for TuneConfig {
    fn default() -> TuneConfig {
        TuneConfig {
            games: 20_000,
            seed: 1,
            rounds: 3,
            sample: 0.25,
            explore: 0.02,
            explore_draft: 0.15,
            holdout: 0.2,
            l2: 1e-4,
            start: None,
        }
    }
}

/// Labelled samples of one phase: feature rows and red's result.
#[derive(Clone, Debug, Default)]
pub struct Samples<const N: usize> {
    /// Features seen from red.
    pub x: Vec<[f64; N]>,
    /// Red's result: 1 won, ½ drawn, 0 lost.
    pub y: Vec<f64>,
}

impl<const N: usize> Samples<N> {
    fn push(&mut self, x: [f64; N], y: f64) {
        self.x.push(x);
        self.y.push(y);
    }

    fn extend(&mut self, o: Samples<N>) {
        self.x.extend(o.x);
        self.y.extend(o.y);
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.y.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }
}

/// The samples of a set of games: both phases, plus the hand-written
/// evaluations of the play samples (seen from red) for comparison.
#[derive(Clone, Debug, Default)]
pub struct Data {
    /// Play positions.
    pub play: Samples<NP>,
    /// Draft positions.
    pub draft: Samples<ND>,
    /// Per play sample: the heuristic policy's evaluation and alpha-beta's, from red.
    pub hand: Vec<[f64; 2]>,
    /// Games played.
    pub games: u64,
}

impl Data {
    fn extend(&mut self, o: Data) {
        self.play.extend(o.play);
        self.draft.extend(o.draft);
        self.hand.extend(o.hand);
        self.games += o.games;
    }
}

/// Who generates the games of a round.
#[derive(Clone, Debug)]
pub enum Generator {
    /// The heuristic policy, both phases.
    Heuristic,
    /// The `learned` policy with these weights, both phases.
    Learned(Box<Learned>),
}

impl Generator {
    /// The policy's name as the command line spells it.
    pub fn name(&self) -> &'static str {
        match self {
            Generator::Heuristic => "heuristic",
            Generator::Learned(_) => "learned",
        }
    }

    fn build(&self) -> Box<dyn Agent<Senat>> {
        match self {
            Generator::Heuristic => Box::new(HeuristicPolicy::default()),
            Generator::Learned(w) => {
                Box::new(LearnedPolicy { eval: (**w).clone(), temp: crate::temperature::Temperature::OFF })
            }
        }
    }
}

/// Plays game `index` of a round seeded `seed` and samples its positions.
fn one_game(generator: &Generator, cfg: &TuneConfig, seed: u64, index: u64) -> Data {
    let mut rng: GameRng = rng_from_seed(game_seed(seed, index));
    let mut pick: GameRng = rng_from_seed(mix64(game_seed(seed, index) ^ 0x5a3f_15e5));
    let mut player = generator.build();
    let hand_w = Weights::default();
    let hand_ab = SenatEval::default();
    let mut game = GameRecord::new(Position::start());
    let mut play: Vec<[f64; NP]> = Vec::new();
    let mut draft: Vec<[f64; ND]> = Vec::new();
    let mut hand = Vec::new();
    let outcome = loop {
        if let Some(o) = game.outcome() {
            break o;
        }
        let p = *game.position();
        if unit(&mut pick) < cfg.sample {
            if p.is_play() {
                play.push(learned::play_features(&p, Side::Red));
                let ab = f64::from(hand_ab.evaluate(&p));
                let ab = if p.side_to_move() == Side::Red { ab } else { -ab };
                hand.push([hand_w.score(&Features::of(&p, Side::Red)), ab]);
            } else {
                draft.push(learned::draft_features(&p, Side::Red));
            }
        }
        let turn = Turn::new(&game);
        let explore = if p.is_play() { cfg.explore } else { cfg.explore_draft };
        let m = if unit(&mut rng) < explore {
            RandomPolicy::default().choose(&turn, &mut rng)
        } else {
            player.choose(&turn, &mut rng)
        };
        game.play_unchecked(m);
    };
    let y = red_result(&outcome);
    let mut d = Data { games: 1, hand, ..Data::default() };
    for x in play {
        d.play.push(x, y);
    }
    for x in draft {
        d.draft.push(x, y);
    }
    d
}

/// Red's result: 1, ½ or 0.
fn red_result(o: &Outcome) -> f64 {
    match o.winner {
        Some(Side::Red) => 1.0,
        Some(Side::Blue) => 0.0,
        None => 0.5,
    }
}

/// A uniform number in [0, 1).
fn unit(rng: &mut GameRng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Plays games `range` of a round seeded `seed` in parallel and gathers
/// their samples in game order.
pub fn generate(generator: &Generator, cfg: &TuneConfig, seed: u64, range: std::ops::Range<u64>) -> Data {
    let chunks: Vec<Data> = range
        .collect::<Vec<u64>>()
        .par_chunks(256)
        .map(|idx| {
            let mut d = Data::default();
            for &i in idx {
                d.extend(one_game(generator, cfg, seed, i));
            }
            d
        })
        .collect();
    let mut all = Data::default();
    for d in chunks {
        all.extend(d);
    }
    all
}

/// Mean log-loss and accuracy of predictions `p` against results `y`.
/// Accuracy counts decisive results only (a drawn game has no right side).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Mean cross-entropy, in nats.
    pub log_loss: f64,
    /// Share of decisive samples whose predicted winner (p > ½) won.
    pub accuracy: f64,
    /// Samples measured.
    pub n: usize,
}

/// Scores probabilities against results.
pub fn measure(p: impl Iterator<Item = f64>, y: &[f64]) -> Fit {
    let (mut loss, mut right, mut decisive, mut n) = (0.0, 0usize, 0usize, 0usize);
    for (p, &y) in p.zip(y) {
        let p = p.clamp(1e-12, 1.0 - 1e-12);
        loss -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        if y != 0.5 {
            decisive += 1;
            if (p > 0.5) == (y > 0.5) {
                right += 1;
            }
        }
        n += 1;
    }
    Fit { log_loss: loss / n.max(1) as f64, accuracy: right as f64 / decisive.max(1) as f64, n }
}

/// Fits logistic weights by Newton's method with an L2 penalty `l2`
/// (mean loss + l2/2·|w|²). Returns zeros for an empty set.
#[allow(clippy::needless_range_loop)] // Symmetric-matrix index arithmetic.
pub fn fit<const N: usize>(s: &Samples<N>, l2: f64) -> [f64; N] {
    let mut w = [0.0; N];
    if s.is_empty() {
        return w;
    }
    let n = s.len() as f64;
    for _ in 0..50 {
        let mut grad = [0.0; N];
        let mut hess = vec![[0.0; N]; N];
        for (x, &y) in s.x.iter().zip(&s.y) {
            let p = sigmoid(learned::dot(&w, x));
            let (g, h) = (p - y, p * (1.0 - p));
            for i in 0..N {
                grad[i] += g * x[i];
                for j in 0..=i {
                    hess[i][j] += h * x[i] * x[j];
                }
            }
        }
        for i in 0..N {
            grad[i] = grad[i] / n + l2 * w[i];
            for j in 0..=i {
                hess[i][j] /= n;
                hess[j][i] = hess[i][j];
            }
            hess[i][i] += l2.max(1e-9);
        }
        let step = solve(hess, grad);
        let mut size = 0.0f64;
        for i in 0..N {
            w[i] -= step[i];
            size = size.max(step[i].abs());
        }
        if size < 1e-10 {
            break;
        }
    }
    w
}

/// Solves `a·x = b` by Gaussian elimination with partial pivoting (a
/// singular direction gets 0).
#[allow(clippy::needless_range_loop)] // Row-reduction index arithmetic.
fn solve<const N: usize>(mut a: Vec<[f64; N]>, mut b: [f64; N]) -> [f64; N] {
    for c in 0..N {
        let piv = (c..N).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs())).unwrap_or(c);
        a.swap(c, piv);
        b.swap(c, piv);
        if a[c][c].abs() < 1e-15 {
            continue;
        }
        for r in c + 1..N {
            let f = a[r][c] / a[c][c];
            for k in c..N {
                a[r][k] -= f * a[c][k];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = [0.0; N];
    for c in (0..N).rev() {
        if a[c][c].abs() < 1e-15 {
            continue;
        }
        let s: f64 = (c + 1..N).map(|k| a[c][k] * x[k]).sum();
        x[c] = (b[c] - s) / a[c][c];
    }
    x
}

/// The best single scale of one score (log-odds = scale · score): the
/// log-loss fit of a logistic with one parameter and no intercept, a
/// result `y` being 1 (win), ½ (draw) or 0 (loss) for the side scored.
/// Its inverse is a [`crate::winprob`] scale.
pub fn fit_scale(score: &[f64], y: &[f64]) -> f64 {
    let s = Samples::<1> { x: score.iter().map(|&v| [v]).collect(), y: y.to_vec() };
    fit(&s, 0.0)[0]
}

/// What one round measured.
#[derive(Clone, Debug)]
pub struct RoundReport {
    /// The round (1-based).
    pub round: u32,
    /// Who played its games.
    pub generator: &'static str,
    /// Training games (all rounds so far) and this round's held-out games.
    pub games: (u64, u64),
    /// Samples (training pool, held-out) of play and of draft positions.
    pub samples: [(usize, usize); 2],
    /// The fitted weights.
    pub weights: Learned,
    /// Held-out fit of the learned play evaluation.
    pub play: Fit,
    /// Held-out fit of the heuristic policy's evaluation (best scale).
    pub heuristic: Fit,
    /// Held-out fit of alpha-beta's evaluation (best scale).
    pub alphabeta: Fit,
    /// That best scale: alpha-beta's evaluation units ([`SenatEval`],
    /// thousandths of a pile) per unit of log-odds, fitted on the training
    /// pool (what [`crate::winprob::HAND_SCALE`] was measured with).
    pub alphabeta_scale: f64,
    /// Held-out fit of the learned draft evaluation.
    pub draft: Fit,
    /// Held-out fit of the best constant (red's training score) on draft positions.
    pub draft_constant: Fit,
}

/// One round: games from `generator`, added to the training `pool` of the
/// rounds before (so a round never forgets what earlier generators showed),
/// a fit on the pool, and its measures on this round's held-out games.
pub fn round(cfg: &TuneConfig, r: u32, generator: &Generator, pool: &mut Data) -> RoundReport {
    let seed = mix64(cfg.seed ^ mix64(u64::from(r) + 0x7e11));
    let held = ((cfg.games as f64 * cfg.holdout).round() as u64).min(cfg.games);
    let train_n = cfg.games - held;
    pool.extend(generate(generator, cfg, seed, 0..train_n));
    let train = &*pool;
    let test = generate(generator, cfg, seed, train_n..cfg.games);
    let draft_w = fit(&train.draft, cfg.l2);
    let weights = match cfg.start.as_ref().filter(|s| s.net.is_some()) {
        Some(s) => Learned { draft: draft_w, ..s.clone() },
        None => Learned { play: fit(&train.play, cfg.l2), draft: draft_w, ..Learned::ZERO },
    };
    // With a network kept, the play measure is of its logistic part alone.
    let play = measure(test.play.x.iter().map(|x| sigmoid(learned::dot(&weights.play, x))), &test.play.y);
    let draft = measure(test.draft.x.iter().map(|x| sigmoid(learned::dot(&weights.draft, x))), &test.draft.y);
    let hand = |k: usize| {
        let train_s: Vec<f64> = train.hand.iter().map(|h| h[k]).collect();
        let a = fit_scale(&train_s, &train.play.y);
        (measure(test.hand.iter().map(|h| sigmoid(a * h[k])), &test.play.y), 1.0 / a)
    };
    let (alphabeta, alphabeta_scale) = hand(1);
    let mean = train.draft.y.iter().sum::<f64>() / train.draft.len().max(1) as f64;
    let draft_constant = measure(std::iter::repeat(mean), &test.draft.y);
    RoundReport {
        round: r,
        generator: generator.name(),
        games: (train.games, test.games),
        samples: [(train.play.len(), test.play.len()), (train.draft.len(), test.draft.len())],
        weights,
        play,
        heuristic: hand(0).0,
        alphabeta,
        alphabeta_scale,
        draft,
        draft_constant,
    }
}

/// The whole run: `cfg.rounds` rounds, each generated by the weights of the
/// one before; `each` sees every round's report as it completes.
pub fn run(cfg: &TuneConfig, mut each: impl FnMut(&RoundReport)) -> Vec<RoundReport> {
    let mut generator = match &cfg.start {
        Some(w) => Generator::Learned(Box::new(w.clone())),
        None => Generator::Heuristic,
    };
    let mut out = Vec::new();
    let mut pool = Data::default();
    for r in 1..=cfg.rounds.max(1) {
        let rep = round(cfg, r, &generator, &mut pool);
        each(&rep);
        generator = Generator::Learned(Box::new(rep.weights.clone()));
        out.push(rep);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newton_recovers_a_known_model() {
        // y drawn from σ(2·x0 − x1) on a grid: the fit comes back close.
        let mut s = Samples::<2>::default();
        let mut rng = rng_from_seed(7);
        for _ in 0..20_000 {
            let x = [unit(&mut rng) * 4.0 - 2.0, unit(&mut rng) * 4.0 - 2.0];
            let p = sigmoid(2.0 * x[0] - x[1]);
            s.push(x, if unit(&mut rng) < p { 1.0 } else { 0.0 });
        }
        let w = fit(&s, 0.0);
        assert!((w[0] - 2.0).abs() < 0.15 && (w[1] + 1.0).abs() < 0.15, "{w:?}");
    }

    #[test]
    fn a_small_round_beats_the_constant_and_is_reproducible() {
        let cfg = TuneConfig { games: 300, rounds: 1, ..TuneConfig::default() };
        let a = round(&cfg, 1, &Generator::Heuristic, &mut Data::default());
        let b = round(&cfg, 1, &Generator::Heuristic, &mut Data::default());
        assert_eq!(a.weights, b.weights);
        assert!(a.samples[0].0 > 100 && a.samples[1].0 > 100, "{:?}", a.samples);
        assert!(a.play.log_loss < std::f64::consts::LN_2, "{:?}", a.play);
    }
}
