//! `senat tune`: fits the learned evaluation to self-play outcomes
//! (`senat_lab::tune`) and writes the weights file atomically; prints each
//! round's held-out measures next to the hand-written evaluations'.

use crate::cli::common::{Result, fraction, input, refuse_existing, write_atomic};
use clap::Args;
use senat_lab::learned::Learned;
use senat_lab::limits;
use senat_lab::tune::{self, RoundReport, TuneConfig};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `senat tune`.
#[derive(Args, Debug)]
pub(crate) struct TuneArgs {
    /// Games per round (a fifth of them held out for measuring).
    #[arg(long, default_value_t = 20_000)]
    games: u64,
    /// Rounds: the first plays `heuristic`, each later one `learned` with the weights of the round
    /// before (Sénat; default 3). Another game fits once, on `ab:depth=1` self-play.
    #[arg(long)]
    rounds: Option<u32>,
    /// The run's seed (every game's seed derives from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Probability that a position is kept as a sample.
    #[arg(long, default_value_t = 0.25)]
    sample: f64,
    /// Probability that a generator's play move is replaced by a random one.
    #[arg(long, default_value_t = 0.02)]
    explore: f64,
    /// Probability that a generator's draft move is replaced by a random one.
    #[arg(long, default_value_t = 0.15)]
    explore_draft: f64,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 1e-4)]
    l2: f64,
    /// Start from these weights instead of `heuristic`: the first round plays `learned:file=FILE`.
    /// Weights with a network (`net.` lines) keep their play weights and network, and only their
    /// draft weights are fitted (to drafts played out by the network). Sénat only.
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    /// Where to write the weights (`learned:file=<path>` reads them).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Overwrite an existing weights file.
    #[arg(long)]
    force: bool,
    /// The game: senat, focus, focus4, debacle or connect4 (the weights of the evaluation's terms, read by
    /// `ab:file=` and `mcts:file=`); --variant sets the games' rules.
    #[command(flatten)]
    pub(crate) game: crate::cli::game::GameArg,
}

/// Runs `senat tune`.
pub(crate) fn cmd_tune(a: TuneArgs, out: &mut impl Write) -> Result<()> {
    let other = a.game.other()?;
    if a.game.game == senat_lab::games::GameKind::Dominoes {
        return input(
            "`senat tune` fits the evaluations of Sénat, Focus and Débâcle; --game dominoes is not available here \
             (its leaf is fitted by `senat fit-leaf`)",
        );
    }
    if a.games < 10 || a.games > 100_000_000 {
        return input(format_args!("--games must be within 10 and 100000000, got {}", a.games));
    }
    if other {
        if a.start.is_some() {
            return input(format_args!("--start: --game {} fits from nothing (Sénat only)", a.game.game));
        }
        if a.rounds.is_some_and(|r| r != 1) {
            return input(format_args!("--rounds: --game {} fits once (give 1 or leave it out)", a.game.game));
        }
        let (sample, explore) = (fraction("--sample", a.sample)?, fraction("--explore", a.explore)?);
        let fit = crate::cli::train_net::LinearFit {
            game: &a.game,
            games: a.games,
            seed: a.seed,
            sample,
            explore,
            out: &a.out,
            force: a.force,
        };
        return crate::cli::train_net::tune_lab(&fit, out);
    }
    if !a.game.variant.trim().is_empty() {
        return input("--variant: Sénat's evaluation is tuned on the standard rules");
    }
    let rounds = a.rounds.unwrap_or(3);
    if rounds == 0 || rounds > 100 {
        return input(format_args!("--rounds must be within 1 and 100, got {rounds}"));
    }
    if !(0.0..=1.0).contains(&a.l2) {
        return input(format_args!("--l2 must be within 0 and 1, got {}", a.l2));
    }
    let mut origin = String::new();
    let start_w = match &a.start {
        Some(p) => {
            let body = limits::read_text(p).or_else(|e| input(format_args!("--start {}: {e}", p.display())))?;
            let w = Learned::parse(&body).or_else(|e| input(format_args!("--start {}: {e}", p.display())))?;
            if w.draft_net.is_some() {
                return input(format_args!(
                    "--start {}: its draft weights come with a draft network (retrain both with `senat train-net --draft`)",
                    p.display()
                ));
            }
            origin = crate::cli::train_net::start_origin(p, &body);
            Some(w)
        }
        None => None,
    };
    let cfg = TuneConfig {
        start: start_w,
        games: a.games,
        seed: a.seed,
        rounds,
        sample: fraction("--sample", a.sample)?,
        explore: fraction("--explore", a.explore)?,
        explore_draft: fraction("--explore-draft", a.explore_draft)?,
        l2: a.l2,
        ..TuneConfig::default()
    };
    refuse_existing(&a.out, a.force)?;
    let start = Instant::now();
    writeln!(out, "round generator  games(train+held)  samples play/draft   held-out log-loss (accuracy on decisive)")?;
    let mut lines = Vec::new();
    let mut err = None;
    let reports = tune::run(&cfg, |r| {
        let l = round_lines(r);
        if let Err(e) = out.write_all(l.as_bytes()).and_then(|_| out.flush()) {
            err.get_or_insert(e);
        }
        lines.push(l);
    });
    if let Some(e) = err {
        return Err(e.into());
    }
    let last = reports.last().expect("at least one round");
    let command = format!(
        "senat tune --games {} --rounds {} --seed {} --sample {} --explore {} --explore-draft {} --l2 {}{} --out {}",
        a.games,
        rounds,
        a.seed,
        a.sample,
        a.explore,
        a.explore_draft,
        a.l2,
        a.start.as_ref().map(|p| format!(" --start {}", p.display())).unwrap_or_default(),
        a.out.display()
    );
    let header = format!(
        "Sénat learned evaluation: logistic regression weights (log-odds of winning; a draw counts half).\n\
         Produced by: {command}\n\
         (version {}; {:.1} s)\n\
         {origin}Held-out measures of each round (log-loss, accuracy on decisive games):\n{}",
        env!("CARGO_PKG_VERSION"),
        start.elapsed().as_secs_f64(),
        lines.concat().trim_end()
    );
    write_atomic(&a.out, last.weights.to_text(&header).as_bytes(), a.force)?;
    writeln!(out, "weights written to {} in {:.1} s", a.out.display(), start.elapsed().as_secs_f64())?;
    Ok(())
}

/// A round's lines of the report.
fn round_lines(r: &RoundReport) -> String {
    let f = |x: &tune::Fit| format!("{:.4} ({:.1}%)", x.log_loss, 100.0 * x.accuracy);
    format!(
        "{:>5} {:<10} {:>8}+{:<8}   {:>7}/{:<8}\n      play:  learned {}  heuristic {}  alpha-beta {}  (n={})\n      alpha-beta scale {:.0} (evaluation units per unit of log-odds)\n      draft: learned {}  constant {}  (n={})\n",
        r.round,
        r.generator,
        r.games.0,
        r.games.1,
        r.samples[0].0,
        r.samples[1].0,
        f(&r.play),
        f(&r.heuristic),
        f(&r.alphabeta),
        r.play.n,
        r.alphabeta_scale,
        f(&r.draft),
        f(&r.draft_constant),
        r.draft.n,
    )
}
