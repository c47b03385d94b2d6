//! `senat fit-leaf`: counts the round points of dominoes self-play
//! (`senat_lab::games::dominoes_leaf`), the data of the learned leaf
//! (`leaf=learned` of `pimc` and `ismcts`), and writes them atomically with
//! a header saying how they were made; prints the held-out measures.

use crate::cli::common::{Result, input, refuse_existing, threads_or_all, write_atomic};
use clap::Args;
use senat_lab::games::GameKind;
use senat_lab::games::dominoes::DominoSpec;
use senat_lab::games::dominoes_train::{self, LeafFit};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `senat fit-leaf`.
#[derive(Args, Debug)]
pub(crate) struct FitLeafArgs {
    /// Self-play matches played.
    #[arg(long, default_value_t = 2_000)]
    matches: u64,
    /// The run's seed: match i deals from game seed (seed, i), as the arena's pair i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The dominoes agent in every seat.
    #[arg(long, default_value = "ismcts:playouts=300", value_name = "SPEC")]
    generator: String,
    /// The rules variant, `key=value,...` (`senat rules --game dominoes --variant help` lists the keys).
    #[arg(long, default_value = "", value_name = "OPTIONS")]
    variant: String,
    /// Every N-th match is held out of the counts to measure the model (0: none).
    #[arg(long, default_value_t = 5, value_name = "N")]
    holdout: u64,
    /// Matches played at once (default: all cores); the counts do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Where to write the counts (the shipped file is crates/lab/data/dominoes-leaf.txt,
    /// compiled in: rebuild after writing it).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Overwrite an existing file.
    #[arg(long)]
    force: bool,
    /// The game: only `dominoes` (the default) for this command.
    #[arg(long = "game", value_name = "GAME")]
    game: Option<String>,
}

/// Runs `senat fit-leaf`.
pub(crate) fn cmd_fit_leaf(a: FitLeafArgs, out: &mut impl Write) -> Result<()> {
    if let Some(g) = a.game.as_deref() {
        match GameKind::parse(g).or_else(|e| input(format_args!("--game: {e}")))? {
            GameKind::Dominoes => {}
            other => {
                return input(format_args!(
                    "`senat fit-leaf` fits the dominoes searches' leaf only; --game {other} is not available here"
                ));
            }
        }
    }
    if a.matches == 0 || a.matches > 10_000_000 {
        return input(format_args!("--matches must be within 1 and 10000000, got {}", a.matches));
    }
    if a.holdout == 1 {
        return input("--holdout 1 would hold out every match: give 0 (none) or 2 or more");
    }
    let generator = DominoSpec::parse(&a.generator).or_else(|e| input(format_args!("--generator: {e}")))?;
    let variant = dominoes_rules::Variant::parse(&a.variant).or_else(|e| input(format_args!("--variant: {e}")))?;
    let threads = threads_or_all(a.threads)?;
    refuse_existing(&a.out, a.force)?;
    let start = Instant::now();
    let cfg = LeafFit { generator, variant, matches: a.matches, seed: a.seed, holdout: a.holdout };
    let r = dominoes_train::fit(&cfg, threads).or_else(input)?;
    let secs = start.elapsed().as_secs_f64();
    let variant_flag = if a.variant.is_empty() { String::new() } else { format!(" --variant '{}'", a.variant) };
    let command = format!(
        "senat fit-leaf --matches {} --seed {} --generator '{generator}'{variant_flag} --holdout {} --out {}",
        a.matches,
        a.seed,
        a.holdout,
        a.out.display()
    );
    let measured = match r.held_out {
        Some((learned, exp25, n)) => format!(
            "Held-out log-loss of seat 0's match result at the {n} round ends before a match's end: \
             learned {learned:.4}, exp(score/25) {exp25:.4}"
        ),
        None => "Held-out log-loss: none (nothing held out, or not 2 players)".to_string(),
    };
    let header = format!(
        "Dominoes learned leaf: the round points of self-play, from which leaf=learned (pimc, ismcts) solves\n\
         each player's chance of winning the match (crates/lab/src/games/dominoes_leaf.rs).\n\
         Produced by: {command}\n\
         (version {}; {} rounds, {} of them without points, from {} training matches, {} held out; \
         mean points of a scoring round {:.2}; of all {} matches seat 0 won {}, {} drawn; {secs:.1} s on {threads} threads)\n\
         {measured}",
        env!("CARGO_PKG_VERSION"),
        r.points.rounds(),
        r.points.none,
        r.matches.0,
        r.matches.1,
        r.points.mean_points(),
        r.matches.0 + r.matches.1,
        r.seat0_wins,
        r.draws,
    );
    write_atomic(&a.out, r.points.to_text(&header).as_bytes(), a.force)?;
    writeln!(out, "{header}")?;
    writeln!(out, "counts written to {} in {secs:.1} s", a.out.display())?;
    Ok(())
}
