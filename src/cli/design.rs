//! `senat design`: which rules variants make a game fair at a level of
//! play, certified with a family-wise error δ (the method and the outputs
//! are `senat_lab::design`'s; docs/commands/design.md explains them). This module
//! reads the arguments, checks every variant text with its game's own
//! reader, builds one game function per variant × tier (the only place
//! that picks a game, through the catalog's [`on_game!`]: Sénat's
//! self-play game or a lab game's batch row), runs
//! the rounds on threads with the round log for `--resume`, and writes
//! `DIR/design.csv` (atomically), `DIR/design.png` and the printed table.
//! `--selftest` runs the same decision code on planted truths.

use crate::cli::common::{Failure, Result, input, policy, progress_bar, threads_or_all, write_atomic};
use crate::cli::game::{self, on_game};
use clap::Args;
use rayon::prelude::*;
use senat_lab::design::decide::{Band, Design, Plan, RoundObs, Verdict, run_rounds};
use senat_lab::design::play::{GameOutcome, lab_game, senat_game};
use senat_lab::design::report::{self, LogRow, RoundLog};
use senat_lab::design::{selftest, space};
use senat_lab::games::{GameKind, LabGame};
use senat_lab::selfplay::Matchup;
use senat_rules::Variant as SenatVariant;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `senat design`.
#[derive(Args, Debug)]
pub(crate) struct DesignArgs {
    /// Run the self-test instead: the decision code on planted truths; prints the observed family-wise error with
    /// its Wilson 95% interval and the games saved against uniform allocations (last line).
    #[arg(long)]
    selftest: bool,
    /// --selftest: planted instances (each a family of 6 to 12 variants).
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    instances: u64,
    /// --selftest: games per planted variant at most.
    #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(100..=10_000_000))]
    cap: u64,
    /// The game: senat, focus, focus4, debacle, connect4 or dominoes (its first player: seat 0, against every
    /// other seat).
    #[arg(long, value_name = "GAME", default_value = "senat")]
    game: String,
    /// The variant space: `key=v1|v2|...` or `key=lo..hi:step` items joined by commas, expanded to their cross
    /// product (e.g. `closure=40..60:10,first_mover=red|blue`); each is checked by the game's --variant reader.
    /// Empty: the default rules only.
    #[arg(long, value_name = "SPACE", default_value = "")]
    space: String,
    /// The agent tiers, by commas (the agent specs of selfplay's --red/--first: `learned`, `fast`, `mcts:playouts=200`;
    /// a spec's own `key=value` parameters after a comma stay with it). Both sides play the tier.
    #[arg(long, value_name = "A,B", default_value = "")]
    tiers: String,
    /// The band of the first player's mean score (win 1, draw ½; Sénat: the side that moves first in play), e.g.
    /// 0.45..0.55.
    #[arg(long, value_name = "LO..HI")]
    first: Option<String>,
    /// A second target: the draw rate at most X.
    #[arg(long, value_name = "X")]
    draws_max: Option<f64>,
    /// A target on the game's length: the mean plies (decisions; Sénat: half-moves, draft included) in LO..HI.
    /// Needs --plies-bound.
    #[arg(long, value_name = "LO..HI", requires = "plies_bound")]
    plies: Option<String>,
    /// --plies: an upper bound on every game's plies, fixed before the run (the confidence sequences need bounded
    /// observations: each game counts as plies / BOUND). A longer game stops the run with an error: start a new
    /// design with a larger bound.
    #[arg(long, value_name = "BOUND", value_parser = clap::value_parser!(u32).range(1..))]
    plies_bound: Option<u32>,
    /// The family-wise error over all variants, tiers and targets (split by a union bound).
    #[arg(long, value_name = "DELTA", default_value_t = 0.05)]
    delta: f64,
    /// Games in all at most (no round starts once they are played; a --resume may raise it).
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    budget_games: u64,
    /// Core-hours at most (wall-clock time × --threads) spent playing by this run: no round starts once they
    /// are spent (rounds read back by --resume cost nothing; a --resume gets the budget again).
    #[arg(long, value_name = "H")]
    budget_hours: Option<f64>,
    /// Games per variant × tier in a round (the same game seeds for every variant: common random numbers).
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    round: u64,
    /// The seed of every game (game i of every variant and tier draws game seed (SEED, i)).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// The output folder: design.csv, design.png and rounds.csv (the round log).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Continue the design whose round log is DIR/rounds.csv (after an interruption, or with a larger budget).
    #[arg(long)]
    resume: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// No progress on stderr (a bar over the game budget with its ETA on a terminal, a line per round otherwise).
    #[arg(long)]
    quiet: bool,
}

/// One game of a variant × tier: the game index to its outcome.
type GameFn = Box<dyn Fn(u64) -> GameOutcome + Send + Sync>;

/// `senat design`.
pub(crate) fn cmd_design(a: DesignArgs, out: &mut impl Write) -> Result<()> {
    if !(a.delta > 0.0 && a.delta < 1.0) {
        return input(format_args!("--delta {}: the error budget must lie strictly between 0 and 1", a.delta));
    }
    if a.selftest {
        return run_selftest(&a, out);
    }
    let kind = GameKind::parse(&a.game).or_else(|e| input(format_args!("--game: {e}")))?;
    let Some(first) = &a.first else { return input("--first LO..HI is required (or --selftest)") };
    let first = Band::parse(first).or_else(|e| input(format_args!("--first: {e}")))?;
    let mut bands = vec![first];
    let mut targets = vec![format!("first:{}", first.text())];
    if let Some(x) = a.draws_max {
        let b = Band::new(0.0, x).or_else(|e| input(format_args!("--draws-max: {e}")))?;
        bands.push(b);
        targets.push(format!("draws:{}", b.text()));
    }
    // The length target counts each game as plies / bound, a mean in [0, 1].
    let plies = match (&a.plies, a.plies_bound) {
        (Some(text), Some(bound)) => {
            let (lo, hi) = text
                .split_once("..")
                .and_then(|(l, h)| Some((l.trim().parse::<f64>().ok()?, h.trim().parse::<f64>().ok()?)))
                .ok_or(())
                .or_else(|_| input(format_args!("--plies `{text}`: expected LO..HI, e.g. 40..80")))?;
            let b = f64::from(bound);
            let band = Band::new(lo / b, hi / b)
                .or_else(|_| input(format_args!("--plies {text}: expected 0 <= LO <= HI <= --plies-bound {bound}")))?;
            bands.push(band);
            targets.push(format!("plies:{lo}..{hi}"));
            Some(bound)
        }
        _ => None,
    };
    if let Some(h) = a.budget_hours.filter(|h| !(h.is_finite() && *h > 0.0)) {
        return input(format_args!("--budget-hours {h}: give a positive number of core-hours"));
    }
    let Some(dir) = a.out.clone() else { return input("--out DIR is required") };
    let variants = space::expand(&a.space).or_else(|e| input(format_args!("--space: {e}")))?;
    let tiers = space::tiers(&a.tiers);
    if tiers.is_empty() {
        return input("--tiers: give at least one agent (e.g. --tiers learned,fast)");
    }
    let threads = threads_or_all(a.threads)?;
    let games = game_functions(kind, &variants, &tiers, a.seed)?;
    std::fs::create_dir_all(&dir).or_else(|e| input(format_args!("--out {}: {e}", dir.display())))?;
    let identity = format!(
        "game={kind} space={} tiers={} first={} draws_max={} delta={} seed={} round={}",
        a.space.replace(' ', ""),
        tiers.join(";"),
        first.text(),
        a.draws_max.map_or("-".to_string(), |x| x.to_string()),
        a.delta,
        a.seed,
        a.round
    ) + &plies
        .map_or(String::new(), |b| format!(" plies={}/{b}", a.plies.as_deref().unwrap_or("").trim()));
    let mut log = RoundLog::open(&dir.join("rounds.csv"), &identity, a.resume).or_else(input)?;
    let mut d = Design::new(variants.len(), tiers.len(), bands.clone(), a.delta).or_else(input)?;
    let plan = Plan { round: a.round, budget: a.budget_games, per_pair: u64::MAX };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().or_else(input)?;
    let started = std::time::Instant::now();
    // On a terminal, a bar over the game budget (its ETA is the time to
    // spend the whole budget: a run that decides every cell stops sooner).
    let bar = progress_bar(a.budget_games, a.quiet);
    let mut spent = 0u64;
    let nt = tiers.len();
    // `Err(None)`: the core-hour budget is spent (the run stops as on its game budget).
    let played = run_rounds(&mut d, &plan, |r, pairs| -> std::result::Result<RoundObs, Option<Failure>> {
        let span = r * a.round..(r + 1) * a.round;
        let rows: Vec<LogRow> = match log.logged(r) {
            Some(rows) => rows.to_vec(),
            None => {
                let core_hours = started.elapsed().as_secs_f64() * threads as f64 / 3600.0;
                if a.budget_hours.is_some_and(|h| core_hours >= h) {
                    return Err(None);
                }
                let jobs: Vec<(usize, u64)> =
                    pairs.iter().enumerate().flat_map(|(p, _)| span.clone().map(move |g| (p, g))).collect();
                let done: Vec<LogRow> = pool.install(|| {
                    jobs.par_iter()
                        .map(|&(p, g)| {
                            let (v, t) = pairs[p];
                            LogRow { variant: v, tier: t, game: g, outcome: games[v * nt + t](g) }
                        })
                        .collect()
                });
                log.append(r, &done).or_else(input).map_err(Some)?;
                done
            }
        };
        let mut obs: RoundObs = vec![Vec::new(); pairs.len()];
        for row in &rows {
            let Some(p) = pairs.iter().position(|&x| x == (row.variant, row.tier)) else {
                return Err(Some(fail(format_args!(
                    "{}: round {r} holds games of a variant the design no longer plays; the log is not this design's",
                    dir.join("rounds.csv").display()
                ))));
            };
            let o = row.outcome;
            let mut x = vec![o.score];
            if a.draws_max.is_some() {
                x.push(if o.draw { 1.0 } else { 0.0 });
            }
            if let Some(bound) = plies {
                if o.plies > bound {
                    return Err(Some(fail(format_args!(
                        "game {} of variant `{}` under {} lasted {} plies, more than --plies-bound {bound}: the \
                         length target's observations must stay within their bound; start a new design (another \
                         --out) with a larger --plies-bound",
                        row.game, variants[row.variant], tiers[row.tier], o.plies
                    ))));
                }
                x.push(f64::from(o.plies) / f64::from(bound));
            }
            obs[p].push(x);
        }
        if obs.iter().any(|o| o.len() as u64 != a.round) {
            return Err(Some(fail(format_args!("{}: round {r} is incomplete", dir.join("rounds.csv").display()))));
        }
        spent += rows.len() as u64;
        bar.set_position(spent.min(a.budget_games));
        if !a.quiet {
            let line = format!(
                "round {r}: {} variant x tier open, {spent} games, {:.0} s",
                pairs.len(),
                started.elapsed().as_secs_f64()
            );
            if bar.is_hidden() { eprintln!("{line}") } else { bar.println(line) }
        }
        Ok(obs)
    });
    let stop = match played {
        Ok((stop, _)) => stop.text(),
        Err(None) => "the core-hour budget is spent",
        Err(Some(e)) => return Err(e),
    };
    bar.finish_and_clear();
    let mut rows = report::rows(&d, &variants, &tiers, &targets);
    // The length target back in plies.
    if let Some(bound) = plies {
        for r in rows.iter_mut().filter(|r| r.target.starts_with("plies:")) {
            let b = f64::from(bound);
            (r.estimate, r.lo, r.hi) = (r.estimate * b, r.lo * b, r.hi * b);
        }
    }
    write_atomic(&dir.join("design.csv"), &report::csv(&rows), true)?;
    let panels: Vec<(String, Vec<senat_lab::plot::DesignPoint>)> = tiers
        .iter()
        .map(|t| {
            let pts = rows
                .iter()
                .filter(|r| &r.tier == t && r.target == targets[0])
                .map(|r| (r.variant.clone(), r.estimate, r.lo, r.hi, r.verdict.name()))
                .collect();
            (t.clone(), pts)
        })
        .collect();
    let title = format!("senat design --game {kind}: δ = {} family-wise, {} variants", a.delta, variants.len());
    senat_lab::plot::write_design_png(&dir.join("design.png"), &title, (first.lo, first.hi), &panels)
        .or_else(|e| input(format_args!("design.png: {e}")))?;
    writeln!(out, "# {}", reproduce())?;
    writeln!(
        out,
        "# first player: {}; score 1 win, 1/2 draw, 0 loss; each cell at alpha = {:.2e} = delta / {} cells: \
         a PrPl-EB confidence sequence and one-sided tests by betting at the band's edges (Waudby-Smith & Ramdas \
         2024; docs/commands/design.md)",
        senat_lab::catalog::first_player(kind),
        d.alpha(),
        variants.len() * tiers.len() * bands.len()
    )?;
    writeln!(
        out,
        "# stopped: {}; {} games played in all; verdicts hold together with probability >= {}",
        stop,
        total_games(&rows, bands.len()),
        1.0 - a.delta
    )?;
    write!(out, "{}", report::table(&rows))?;
    for t in &tiers {
        let fair: Vec<&str> = variants
            .iter()
            .enumerate()
            .filter(|(v, _)| {
                (0..bands.len())
                    .all(|k| d.cell(*v, tiers.iter().position(|x| x == t).unwrap_or(0), k).verdict() == Verdict::In)
            })
            .map(|(_, s)| if s.is_empty() { "rules" } else { s.as_str() })
            .collect();
        writeln!(
            out,
            "certified fair under {t}: {}",
            if fair.is_empty() { "none".to_string() } else { fair.join("; ") }
        )?;
    }
    Ok(())
}

/// The input failure of message `m` (as [`input`] gives it).
fn fail(m: impl std::fmt::Display) -> Failure {
    Failure::Input(m.to_string())
}

/// Games played in all, from the rows (each pair's count once).
fn total_games(rows: &[report::Row], targets: usize) -> u64 {
    rows.iter().step_by(targets.max(1)).map(|r| r.games).sum()
}

/// The command line that reproduces this table (`--resume` dropped).
fn reproduce() -> String {
    let mut parts = vec!["senat".to_string()];
    parts.extend(std::env::args().skip(1).filter(|x| x != "--resume").map(|x| crate::cli::common::shell_word(&x)));
    parts.join(" ")
}

/// One game function per variant × tier (variant-major), every variant
/// text checked by the game's reader and every tier by its spec reader.
fn game_functions(kind: GameKind, variants: &[String], tiers: &[String], seed: u64) -> Result<Vec<GameFn>> {
    let mut fns: Vec<GameFn> = Vec::new();
    on_game!(kind, G => {
        let mut specs = Vec::new();
        for t in tiers {
            let s = game::agent(t, "--tiers")?;
            game::fitting::<G>(&s, "--tiers")?;
            specs.push(s);
        }
        for text in variants {
            if let Some((item, own)) = kind.contradiction(text) {
                return input(format_args!("--space: variant `{text}`: `{item}`: --game {kind} always has {own}"));
            }
            let start = G::start(&kind.variant(text))
                .or_else(|e| input(format_args!("--space: variant `{text}`: {e}")))?;
            for s in &specs {
                let s = *s;
                fns.push(Box::new(move |i| lab_game::<G>(&start, &s, seed, i)));
            }
        }
    }, senat => {
        let mut specs = Vec::new();
        for t in tiers {
            specs.push(policy("tiers", t)?);
        }
        for text in variants {
            let v = SenatVariant::parse(text)
                .map_err(|e| e.to_string())
                .and_then(|v| senat_lab::games::senat::playable(v).map_err(|e| e.to_string()))
                .or_else(|e| input(format_args!("--space: variant `{text}`: {e}")))?;
            for s in &specs {
                let m = Matchup { red: s.clone(), blue: s.clone(), draft_red: s.clone(), draft_blue: s.clone() };
                fns.push(Box::new(move |i| senat_game(&m, v, seed, i)));
            }
        }
    }, dominoes => {
        use senat_lab::games::batch::BatchGame;
        use senat_lab::games::dominoes::Dominoes;
        let mut specs = Vec::new();
        for t in tiers {
            specs.push(game::domino_spec(t, "--tiers")?);
        }
        for text in variants {
            let start = Dominoes::batch_start(text).or_else(|e| input(format_args!("--space: {e}")))?;
            for s in &specs {
                let s = *s;
                fns.push(Box::new(move |i| lab_game::<Dominoes>(&start, &s, seed, i)));
            }
        }
    });
    Ok(fns)
}

/// `senat design --selftest`.
fn run_selftest(a: &DesignArgs, out: &mut impl Write) -> Result<()> {
    let cfg = selftest::Config { instances: a.instances, delta: a.delta, cap: a.cap, round: 50, seed: a.seed };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads_or_all(a.threads)?).build().or_else(input)?;
    let r = pool.install(|| selftest::run(&cfg));
    let (err, lo, hi) = r.error();
    writeln!(out, "# {}", reproduce())?;
    writeln!(
        out,
        "planted instances: {} (6 to 12 variants each, {} in all, one mean on a band edge and one within 0.005 of \
         one per instance, draws up to 0.3); delta {} family-wise per instance; at most {} games per variant; \
         rounds of {} games with common random numbers",
        cfg.instances, r.variants, cfg.delta, cfg.cap, cfg.round
    )?;
    writeln!(out, "variants decided: {} of {}", r.decided, r.variants)?;
    writeln!(
        out,
        "games: adaptive {}; round-robin {} (the same confidence sequences, every variant played every round until \
         all are decided or capped: the same verdicts, so the same error); fixed-n Hoeffding {} (every variant \
         played n games, n the oracle size that decides every variant a fixed n can within the cap)",
        r.adaptive, r.round_robin, r.fixed
    )?;
    let fixed = r.savings_fixed();
    let fixed = if fixed >= 1.0 {
        format!("{fixed:.2}x fewer than fixed-n Hoeffding")
    } else {
        format!("{:.2}x more than fixed-n Hoeffding", 1.0 / fixed)
    };
    writeln!(
        out,
        "selftest: family-wise error {}/{} = {err:.4} (95% Wilson {lo:.4}..{hi:.4}, delta {}); {:.2}x fewer games \
         than round-robin, {fixed}",
        r.errors,
        cfg.instances,
        cfg.delta,
        r.savings(),
    )?;
    if hi > cfg.delta && err > cfg.delta {
        return input(format_args!("the observed error {err:.4} exceeds delta {}", cfg.delta));
    }
    Ok(())
}
