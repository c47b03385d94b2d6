//! Self-play matches for fitting dominoes' learned leaf and network: the
//! leaf's round-points table ([`fit`]) and the network's labelled
//! decisions ([`samples`]), from matches of one agent spec in every seat.
//!
//! What this module must never do: draw randomness from anywhere but the
//! seeded generators of a match's index, or write a file.

use super::dominoes::{DominoSpec, Dominoes, play_match};
use super::dominoes_leaf::{LeafError, LearnedLeaf, RoundPoints, WinTable};
use super::dominoes_net::{applies, inputs, terms};
use crate::agent::Agent;
use crate::net_train::{Data, Samples, gather, labelled, unit};
use crate::policy::{GameRng, mix64, rng_from_seed};
use crate::selfplay::game_seed;
use dominoes_rules::{Outcome, State, Variant};
use rayon::prelude::*;

/// What [`fit`] plays: self-play matches of one agent in every seat.
#[derive(Clone, Debug)]
pub struct LeafFit {
    /// The agent in every seat.
    pub generator: DominoSpec,
    /// The rules (2 players for the table to use it).
    pub variant: Variant,
    /// Matches played.
    pub matches: u64,
    /// Match `i` deals from `game_seed(seed, i)`, its agents draw from
    /// `game_seed(game_seed(seed, i), 2)` (as the arena's matches).
    pub seed: u64,
    /// Every `holdout`-th match (index `i % holdout == holdout - 1`) is held
    /// out of the counts to measure the model; 0: none.
    pub holdout: u64,
}

/// A fit's result: the counts of the training matches, and the held-out
/// measures.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// The round points of the training matches.
    pub points: RoundPoints,
    /// Training and held-out matches.
    pub matches: (u64, u64),
    /// Matches won by seat 0 and drawn, all matches together.
    pub seat0_wins: u64,
    /// Drawn matches, all together.
    pub draws: u64,
    /// Held-out log-loss of the first seat's match result at every round
    /// boundary before the end (learned, `exp(score / 25)`), and the
    /// number of boundaries; a drawn match counts half. `None` where
    /// nothing was held out or the model does not apply to the variant.
    pub held_out: Option<(f64, f64, u64)>,
}

/// One played match, as the fit reads it.
struct Played {
    rounds: Vec<Option<u32>>,
    /// Scores after each round but the last.
    boundaries: Vec<[u32; 4]>,
    /// The first seat's result: 1, 0.5 or 0.
    seat0: f64,
}

/// Plays `cfg.matches` self-play matches on `threads` threads (the result
/// does not depend on them) and counts their rounds' points.
pub fn fit(cfg: &LeafFit, threads: usize) -> Result<FitReport, LeafError> {
    if cfg.matches == 0 {
        return Err(LeafError::Fit("no matches to play".into()));
    }
    if cfg.holdout == 1 {
        return Err(LeafError::Fit("a holdout of 1 holds out every match".into()));
    }
    let pool = crate::selfplay::pool(threads).map_err(|e| LeafError::Fit(e.to_string()))?;
    let players = usize::from(cfg.variant.players);
    let play = |i: u64| -> Played {
        let deal = game_seed(cfg.seed, i);
        let mut agents: Vec<Box<dyn Agent<Dominoes>>> = (0..players).map(|_| cfg.generator.build()).collect();
        let m = play_match(cfg.variant, &mut agents, deal, &mut rng_from_seed(game_seed(deal, 2)));
        let rounds: Vec<Option<u32>> = m.rounds.iter().map(|r| r.winner.map(|_| r.points)).collect();
        let mut boundaries = Vec::new();
        let mut sc = [0u32; 4];
        for r in &m.rounds[..m.rounds.len().saturating_sub(1)] {
            if let Some(w) = r.winner {
                sc[usize::from(w)] += r.points;
            }
            boundaries.push(sc);
        }
        let seat0 = match m.end.outcome() {
            Some(Outcome::Win { player }) => f64::from(u8::from(player == 0)),
            _ => 0.5,
        };
        Played { rounds, boundaries, seat0 }
    };
    let played: Vec<Played> = pool.install(|| (0..cfg.matches).into_par_iter().map(play).collect());
    let held = |i: u64| cfg.holdout > 1 && i % cfg.holdout == cfg.holdout - 1;
    let mut points = RoundPoints::empty(cfg.variant);
    let (mut train, mut test) = (0, 0);
    for (i, p) in played.iter().enumerate() {
        if held(i as u64) {
            test += 1;
            continue;
        }
        train += 1;
        p.rounds.iter().for_each(|&r| points.add(r));
    }
    if points.scored() == 0 {
        return Err(LeafError::Fit("no training round gave points".into()));
    }
    let seat0_wins = played.iter().filter(|p| p.seat0 == 1.0).count() as u64;
    let draws = played.iter().filter(|p| p.seat0 == 0.5).count() as u64;
    let table = (players == 2).then(|| WinTable::new(&points, cfg.variant.target)).flatten();
    let held_out = table.filter(|_| test > 0).map(|table| {
        let (mut learned, mut exp25, mut n) = (0.0, 0.0, 0u64);
        let loss = |q: f64, y: f64| {
            let q = q.clamp(1e-9, 1.0 - 1e-9);
            -(y * q.ln() + (1.0 - y) * (1.0 - q).ln())
        };
        for (i, p) in played.iter().enumerate() {
            if !held(i as u64) {
                continue;
            }
            for sc in &p.boundaries {
                learned += loss(table.chance(sc[0], sc[1]), p.seat0);
                let e = 1.0 / (1.0 + ((f64::from(sc[1]) - f64::from(sc[0])) / 25.0).exp());
                exp25 += loss(e, p.seat0);
                n += 1;
            }
        }
        (learned / n.max(1) as f64, exp25 / n.max(1) as f64, n)
    });
    Ok(FitReport { points, matches: (train, test), seat0_wins, draws, held_out })
}

/// What [`samples`] plays: self-play matches of one agent in both seats.
#[derive(Clone, Debug)]
pub struct NetFit {
    /// The agent in both seats.
    pub generator: DominoSpec,
    /// The rules ([`applies`] must hold).
    pub variant: Variant,
    /// Matches played.
    pub matches: u64,
    /// Match `i` deals from `game_seed(seed, i)`, its agents draw from
    /// `game_seed(game_seed(seed, i), 2)` (as `fit-leaf`'s matches).
    pub seed: u64,
    /// Probability that a decision is kept as a sample.
    pub sample: f64,
    /// Fraction of the matches held out (whole matches).
    pub holdout: f64,
}

/// Plays match `index` of `cfg` and labels its sampled decisions.
fn one_match(cfg: &NetFit, index: u64) -> Samples {
    let deal = game_seed(cfg.seed, index);
    let mut agents: Vec<Box<dyn Agent<Dominoes>>> = (0..2).map(|_| cfg.generator.build()).collect();
    let m = play_match(cfg.variant, &mut agents, deal, &mut rng_from_seed(game_seed(deal, 2)));
    let winner = match m.end.outcome() {
        Some(Outcome::Win { player }) => Some(player),
        _ => None,
    };
    let mut pick: GameRng = rng_from_seed(mix64(deal ^ 0x646f_6d5f_6e65));
    let mut table = LearnedLeaf::default();
    let (mut out, mut active) = (Samples::default(), Vec::new());
    // The round's kept decisions (state, mover), labelled at its end.
    let mut round: Vec<(State, usize)> = Vec::new();
    let mut s = State::start(cfg.variant);
    let mut played = 0;
    for &mv in &m.moves {
        if !s.is_chance() && s.outcome().is_none() && unit(&mut pick) < cfg.sample {
            round.push((s, s.to_move()));
        }
        s.play_unchecked(mv);
        if s.rounds_played() > played || s.outcome().is_some() {
            played = s.rounds_played();
            let end = if s.outcome().is_some() { None } else { table.chances(&s) };
            for (p, me) in round.drain(..) {
                let value = end.map(|c| c[me]);
                let (target, result) = labelled(winner.map(|w| w == me), value, 1.0);
                let t = terms(&p, &mut table).expect("the rules apply (checked by the caller)");
                inputs(&p, &mut active);
                out.push(&active, &t, target, result);
            }
        }
    }
    out
}

/// Plays `cfg.matches` self-play matches in parallel (on the current rayon
/// pool) and gathers their labelled decisions in match order, whole
/// matches held out; `None` where the network does not apply to the rules.
pub fn samples(cfg: &NetFit) -> Option<Data> {
    applies(cfg.variant).then(|| gather(cfg.matches, cfg.seed, cfg.holdout, |i| one_match(cfg, i)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dominoes_net::TERMS;

    #[test]
    fn a_fit_is_reproducible_and_counts_every_round() {
        let cfg = LeafFit {
            generator: DominoSpec::parse("greedy").unwrap(),
            variant: Variant::default(),
            matches: 40,
            seed: 5,
            holdout: 4,
        };
        let a = fit(&cfg, 1).unwrap();
        let b = fit(&cfg, 3).unwrap();
        assert_eq!(a.points, b.points);
        assert_eq!(a.matches, (30, 10));
        assert_eq!(a.held_out, b.held_out);
        let (learned, exp25, n) = a.held_out.unwrap();
        assert!(n > 0 && learned.is_finite() && exp25.is_finite());
        // About ten rounds a match.
        assert!((150..=600).contains(&a.points.rounds()), "{}", a.points.rounds());
        let c = fit(&LeafFit { seed: 6, ..cfg.clone() }, 2).unwrap();
        assert_ne!(a.points, c.points);
        assert!(fit(&LeafFit { matches: 0, ..cfg.clone() }, 1).is_err());
        assert!(fit(&LeafFit { holdout: 1, ..cfg }, 1).is_err());
    }

    #[test]
    fn samples_are_a_function_of_the_seed_and_labelled_at_the_round_end() {
        let cfg = NetFit {
            generator: DominoSpec::parse("greedy").unwrap(),
            variant: Variant::default(),
            matches: 12,
            seed: 4,
            sample: 0.5,
            holdout: 0.25,
        };
        let (a, b) = (samples(&cfg).unwrap(), samples(&cfg).unwrap());
        assert_eq!(a.train.idx, b.train.idx);
        assert_eq!(a.train.target, b.train.target);
        assert!(!a.train.is_empty() && !a.held.is_empty());
        assert_eq!(a.train.width, TERMS.len());
        // Targets are chances in [0, 1]; results 0 or 1 (no draws in 12 matches of greedy).
        assert!(a.train.target.iter().all(|t| (0.0..=1.0).contains(t)));
        assert!(a.train.result.iter().all(|&r| r == 0.0 || r == 1.0));
        // Decisions of one round share their label for one mover: far fewer labels than samples.
        let mut labels: Vec<u32> = a.train.target.iter().map(|t| t.to_bits()).collect();
        labels.sort_unstable();
        labels.dedup();
        assert!(labels.len() * 3 < a.train.len(), "{} labels, {} samples", labels.len(), a.train.len());
        let four = NetFit { variant: Variant { players: 4, hand: 5, ..Variant::default() }, ..cfg };
        assert!(samples(&four).is_none());
    }
}
