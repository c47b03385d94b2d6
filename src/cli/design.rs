//! `senat design`: which rules variants make a game fair at a level of
//! play, certified with a family-wise error δ (the method and the outputs
//! are `senat_lab::design`'s; docs/commands/design.md explains them). This module
//! reads the arguments, checks every variant text with its game's own
//! reader, builds one game function per variant × tier (the only place
//! that picks a game, through the catalog's [`on_game!`]: Sénat's
//! self-play game or a lab game's batch row), runs
//! the rounds on threads with the round log for `--resume`, and writes
//! `DIR/design.csv` (atomically), `DIR/design.png` and the printed table.
//! A round may instead be played in shards (`--shard K/N`, each writing
//! `DIR/round-R/shard-K.csv` atomically and nothing else) and folded
//! into the round log by `--fold` (or `--resume`), which decides, writes
//! and prints as an unsharded run would; scripts/slurm-design.sh drives
//! that as Slurm job arrays. `--selftest` runs the same decision code on
//! planted truths. `--tolerance Z` is checked here against every band it
//! applies to (and refused with `--plies`); the rule itself is
//! `senat_lab::design::decide::Zone`'s.

use crate::cli::common::{Failure, Result, input, policy, progress_bar, threads_or_all, write_atomic};
use crate::cli::game::{self, on_game};
use clap::Args;
use rayon::prelude::*;
use senat_lab::arena::Schedule;
use senat_lab::catalog::arena::{ArenaPlan, arena};
use senat_lab::design::decide::{Band, Column, Design, Plan, RoundObs, Verdict, Zone, elo_score, run_rounds};
use senat_lab::design::play::{EloPairs, GameOutcome, lab_game, senat_game};
use senat_lab::design::report::{self, LogRow, RoundLog};
use senat_lab::design::shard::{self, Pending};
use senat_lab::design::space::EloGap;
use senat_lab::design::{selftest, space};
use senat_lab::games::{GameKind, LabGame};
use senat_lab::selfplay::{Matchup, Shard};
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
    /// 0.45..0.55. A design needs --first, --seat-first or both.
    #[arg(long, value_name = "LO..HI")]
    first: Option<String>,
    /// Sénat: a target on a seat rather than a colour: the band of the mean score of the player who gives the
    /// first die of the draft (the first giver's seat, `first_giver`), whichever colour it plays after the
    /// decision of `swap=yes` (with the pie rule, --first's colour is the decider's choice; this is the
    /// drafters' balance). Without swap=yes it is the first giver's colour's score. E.g. 0.45..0.55. It may be
    /// the only score target (no --first).
    #[arg(long, value_name = "LO..HI")]
    seat_first: Option<String>,
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
    /// An Elo-gap target GAP = A>B:N, per variant (repeatable): agent A beats agent B by at least N Elo, from colour-swapped
    /// pairs of A against B played as `senat arena` plays them; in when A's mean score is certainly at least
    /// 1/(1+10^(-N/400)), out when certainly below. The gap is after the last `:` (e.g. `fast>random:100`,
    /// `mcts:playouts=400>mcts:playouts=50:200`).
    #[arg(long = "elo-gap", value_name = "GAP")]
    elo_gap: Vec<String>,
    /// The family-wise error over all variants, tiers and targets (split by a union bound).
    #[arg(long, value_name = "DELTA", default_value_t = 0.05)]
    delta: f64,
    /// An indifference zone of half-width Z: a cell is in once its interval lies inside its band widened by Z at
    /// each edge (an edge at 0 or 1 stays), out once it lies wholly outside the band narrowed by Z. With
    /// probability >= 1 - delta every in has its mean in [LO-Z, HI+Z] and every out has it outside [LO+Z, HI-Z];
    /// a mean within Z of an edge may be called either way, and a cell whose interval is narrower than 2Z is
    /// always decided. 0: the exact bands, as without the flag. It applies to --first, --seat-first, --draws-max
    /// and --elo-gap (on A's mean score, not in Elo); refused with --plies (a band in plies, not a score); at
    /// most half a band's width (its width for a band from 0 or to 1). With --selftest: the same rule, and errors counted by the same definition.
    #[arg(long, value_name = "Z", default_value_t = 0.0, allow_negative_numbers = true)]
    tolerance: f64,
    /// Games in all at most (no round starts once they are played; a --resume may raise it).
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    budget_games: u64,
    /// Core-hours at most (wall-clock time × --threads) spent playing by this run: no round starts once they
    /// are spent (rounds read back by --resume cost nothing; a --resume gets the budget again).
    #[arg(long, value_name = "H")]
    budget_hours: Option<f64>,
    /// Games per variant × tier in a round, and colour-swapped pairs per variant × Elo gap (the same game seeds
    /// for every variant: common random numbers).
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    round: u64,
    /// The seed of every game (game i of every variant and tier draws game seed (SEED, i)).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// The output folder: design.csv, design.png and rounds.csv (the round log).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Continue the design whose round log is DIR/rounds.csv (after an interruption, or with a larger budget);
    /// a round played in shards (--shard) is folded in first.
    #[arg(long)]
    resume: bool,
    /// Play only shard K of N of the design's next round (its games split in N contiguous slices; the same
    /// games as an unsharded run) into DIR/round-R/shard-K.csv, atomically, and nothing else; DIR/rounds.csv
    /// is only read. A shard already played is not played again. Then --fold. scripts/slurm-design.sh runs
    /// the shards as a Slurm job array.
    #[arg(long, value_name = "K/N", conflicts_with_all = ["resume", "fold", "selftest"])]
    shard: Option<String>,
    /// Fold the next round's shard files (all N of DIR/round-R/shard-K.csv, else an error naming the missing
    /// ones) into DIR/rounds.csv (as an unsharded run logs the round, byte for byte), decide, write
    /// design.csv and design.png and print the table; plays no game. Its `# stopped:` line says `round R is
    /// to be played` while the design needs another round.
    #[arg(long, conflicts_with_all = ["resume", "selftest"])]
    fold: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// No progress on stderr (a bar over the game budget with its ETA on a terminal, a line per round otherwise).
    #[arg(long)]
    quiet: bool,
}

/// One game (or pair) of a round: its variant, its column and its index.
type Job = (usize, usize, u64);

/// One observation of a variant × column: the game (or pair) index to its outcome.
type GameFn = Box<dyn Fn(u64) -> GameOutcome + Sync>;

/// `senat design`.
pub(crate) fn cmd_design(a: DesignArgs, out: &mut impl Write) -> Result<()> {
    if !(a.delta > 0.0 && a.delta < 1.0) {
        return input(format_args!("--delta {}: the error budget must lie strictly between 0 and 1", a.delta));
    }
    if a.selftest {
        return run_selftest(&a, out);
    }
    let kind = GameKind::parse(&a.game).or_else(|e| input(format_args!("--game: {e}")))?;
    if a.first.is_none() && a.seat_first.is_none() {
        return input(
            "a design needs a score target: --first LO..HI (the first player's score), --seat-first LO..HI \
             (Sénat: the first giver's seat's score) or both (or --selftest)",
        );
    }
    let z = a.tolerance;
    if !(z.is_finite() && z >= 0.0) {
        return input(format_args!("--tolerance {z}: give a number >= 0 (0: the exact bands)"));
    }
    if z > 0.0 && a.plies.is_some() {
        return input(format_args!(
            "--tolerance {z} is on a score or a rate in [0, 1]; --plies's band is in plies, where it means \
             nothing: run the length target in a design without --tolerance"
        ));
    }
    // Each band with the tolerance, checked where the flag is named.
    let zone = |flag: &str, b: Band| -> Result<Band> {
        Zone::new(b, z).map(|_| b).or_else(|e| input(format_args!("{flag} --tolerance {z}: {e}")))
    };
    let first = match &a.first {
        Some(text) => Some(zone("--first", Band::parse(text).or_else(|e| input(format_args!("--first: {e}")))?)?),
        None => None,
    };
    let mut bands = Vec::new();
    let mut targets = Vec::new();
    if let Some(first) = first {
        bands.push(first);
        targets.push(format!("first:{}", first.text()));
    }
    if let Some(x) = a.draws_max {
        let b = zone("--draws-max", Band::new(0.0, x).or_else(|e| input(format_args!("--draws-max: {e}")))?)?;
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
    // The first giver's seat (Sénat): last, so that the other targets keep their places.
    let seat = match &a.seat_first {
        Some(_) if !senat_lab::catalog::has_first_giver_seat(kind) => {
            return input(format_args!(
                "--seat-first is Sénat's (the seat of the first giver of its draft); --first of --game {kind} is \
                 already a seat's ({})",
                senat_lab::catalog::first_player(kind)
            ));
        }
        Some(text) => {
            let b = zone("--seat-first", Band::parse(text).or_else(|e| input(format_args!("--seat-first: {e}")))?)?;
            bands.push(b);
            targets.push(format!("first_giver_seat:{}", b.text()));
            Some(b)
        }
        None => None,
    };
    if let Some(h) = a.budget_hours.filter(|h| !(h.is_finite() && *h > 0.0)) {
        return input(format_args!("--budget-hours {h}: give a positive number of core-hours"));
    }
    let mode = match &a.shard {
        Some(t) => Mode::Shard(Shard::parse(t).or_else(input)?),
        None if a.fold => Mode::Fold,
        None => Mode::Local,
    };
    if a.budget_hours.is_some() && mode != Mode::Local {
        return input(
            "--budget-hours counts the playing time of one process; a design played in shards (--shard, --fold) \
             has --budget-games only (scripts/slurm-design.sh takes a time limit of its own)",
        );
    }
    let gaps: Vec<EloGap> = a
        .elo_gap
        .iter()
        .map(|t| EloGap::parse(t))
        .collect::<std::result::Result<_, _>>()
        .or_else(|e| input(format_args!("--elo-gap {e}")))?;
    for g in &gaps {
        zone(&format!("--elo-gap {}:{}", g.name(), g.elo), g.band())?;
    }
    let Some(dir) = a.out.clone() else { return input("--out DIR is required") };
    let variants = space::expand(&a.space).or_else(|e| input(format_args!("--space: {e}")))?;
    let tiers = space::tiers(&a.tiers);
    if tiers.is_empty() {
        return input("--tiers: give at least one agent (e.g. --tiers learned,fast)");
    }
    let threads = threads_or_all(a.threads)?;
    let games = game_functions(kind, &variants, &tiers, &gaps, a.seed, seat.is_some())?;
    std::fs::create_dir_all(&dir).or_else(|e| input(format_args!("--out {}: {e}", dir.display())))?;
    let identity = format!(
        "game={kind} space={} tiers={} first={} draws_max={} delta={} seed={} round={}",
        a.space.replace(' ', ""),
        tiers.join(";"),
        first.map_or("-".to_string(), |b| b.text()),
        a.draws_max.map_or("-".to_string(), |x| x.to_string()),
        a.delta,
        a.seed,
        a.round
    ) + &plies
        .map_or(String::new(), |b| format!(" plies={}/{b}", a.plies.as_deref().unwrap_or("").trim()))
        + &if gaps.is_empty() {
            String::new()
        } else {
            let g: Vec<String> = gaps.iter().map(|g| format!("{}:{}", g.name(), g.elo).replace(' ', "")).collect();
            format!(" elo={}", g.join(";"))
        }
        + &seat.map_or(String::new(), |b| format!(" seat_first={}", b.text()))
        + &if z > 0.0 { format!(" tolerance={z}") } else { String::new() };
    let log_path = dir.join("rounds.csv");
    let mut log = match mode {
        Mode::Local => RoundLog::open(&log_path, &identity, a.resume, seat.is_some()),
        Mode::Fold => RoundLog::open(&log_path, &identity, log_path.exists(), seat.is_some()),
        Mode::Shard(_) => RoundLog::read(&log_path, &identity),
    }
    .or_else(input)?;
    let mut columns: Vec<Column> = vec![Column { bands: bands.clone(), cost: 1 }; tiers.len()];
    columns.extend(gaps.iter().map(|g| Column { bands: vec![g.band()], cost: 2 }));
    let ncols = columns.len();
    let mut d = Design::with_tolerance(variants.len(), columns, a.delta, z).or_else(input)?;
    let plan = Plan { round: a.round, budget: a.budget_games, per_pair: u64::MAX };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().or_else(input)?;
    let started = std::time::Instant::now();
    // On a terminal, a bar over the game budget (its ETA is the time to
    // spend the whole budget: a run that decides every cell stops sooner).
    let bar = progress_bar(a.budget_games, a.quiet || matches!(mode, Mode::Shard(_)));
    let mut spent = 0u64;
    let play = |jobs: &[Job]| -> Vec<LogRow> {
        pool.install(|| {
            jobs.par_iter()
                .map(|&(v, t, g)| LogRow { variant: v, tier: t, game: g, outcome: games[v * ncols + t](g) })
                .collect()
        })
    };
    let played = run_rounds(&mut d, &plan, |r, pairs| -> std::result::Result<RoundObs, Halt> {
        let span = r * a.round..(r + 1) * a.round;
        // The round's games, in the one order every run plays and logs them.
        let expected: Vec<Job> =
            shard::round_jobs(pairs.len(), span).into_iter().map(|(p, g)| (pairs[p].0, pairs[p].1, g)).collect();
        let rows: Vec<LogRow> = match (log.logged(r), mode) {
            (Some(rows), Mode::Shard(_)) => rows.to_vec(),
            (Some(rows), _) => {
                // Shards of a round folded before a kill removed their folder.
                remove_round(&dir, r)?;
                rows.to_vec()
            }
            (None, Mode::Shard(s)) => {
                return Err(Halt::Shard(play_shard(&dir, &identity, r, s, &expected, &play, seat.is_some())?));
            }
            (None, _) => match shard::pending(&dir, &identity, r, &expected).or_else(input).map_err(Halt::Fail)? {
                Pending::Complete(rows) => {
                    log.append(r, &rows).or_else(input).map_err(Halt::Fail)?;
                    remove_round(&dir, r)?;
                    rows
                }
                Pending::Partial { n, missing } => {
                    let names: Vec<String> = missing.iter().map(|k| format!("{k}/{n}")).collect();
                    return Err(Halt::Fail(fail(format_args!(
                        "round {r} is played in {n} shards but shards {} are missing in {}: play them with \
                         --shard K/{n} (then --fold), or remove that folder to play the round here",
                        names.join(", "),
                        shard::round_dir(&dir, r).display()
                    ))));
                }
                Pending::Nothing if mode == Mode::Fold => return Err(Halt::Next { round: r, open: pairs.len() }),
                Pending::Nothing => {
                    let core_hours = started.elapsed().as_secs_f64() * threads as f64 / 3600.0;
                    if a.budget_hours.is_some_and(|h| core_hours >= h) {
                        return Err(Halt::Hours);
                    }
                    let done = play(&expected);
                    log.append(r, &done).or_else(input).map_err(Halt::Fail)?;
                    done
                }
            },
        };
        let mut obs: RoundObs = vec![Vec::new(); pairs.len()];
        for row in &rows {
            let Some(p) = pairs.iter().position(|&x| x == (row.variant, row.tier)) else {
                return Err(Halt::Fail(fail(format_args!(
                    "{}: round {r} holds games of a variant the design no longer plays; the log is not this design's",
                    log_path.display()
                ))));
            };
            let o = row.outcome;
            if row.tier >= tiers.len() {
                obs[p].push(vec![o.score]); // an Elo gap's pair
                continue;
            }
            let mut x = Vec::with_capacity(bands.len());
            if first.is_some() {
                x.push(o.score);
            }
            if a.draws_max.is_some() {
                x.push(if o.draw { 1.0 } else { 0.0 });
            }
            if let Some(bound) = plies {
                if o.plies > bound {
                    return Err(Halt::Fail(fail(format_args!(
                        "game {} of variant `{}` under {} lasted {} plies, more than --plies-bound {bound}: the \
                         length target's observations must stay within their bound; start a new design (another \
                         --out) with a larger --plies-bound",
                        row.game, variants[row.variant], tiers[row.tier], o.plies
                    ))));
                }
                x.push(f64::from(o.plies) / f64::from(bound));
            }
            if seat.is_some() {
                let Some(s) = o.seat else {
                    return Err(Halt::Fail(fail(format_args!(
                        "{}: round {r} logs game {} of variant `{}` under {} without its seat's score",
                        log_path.display(),
                        row.game,
                        variants[row.variant],
                        tiers[row.tier]
                    ))));
                };
                x.push(s);
            }
            obs[p].push(x);
        }
        if obs.iter().any(|o| o.len() as u64 != a.round) {
            return Err(Halt::Fail(fail(format_args!("{}: round {r} is incomplete", log_path.display()))));
        }
        spent += rows.iter().map(|x| if x.tier >= tiers.len() { 2 } else { 1 }).sum::<u64>();
        bar.set_position(spent.min(a.budget_games));
        if !a.quiet && !matches!(mode, Mode::Shard(_)) {
            let line = format!(
                "round {r}: {} variant x column open, {spent} games, {:.0} s",
                pairs.len(),
                started.elapsed().as_secs_f64()
            );
            if bar.is_hidden() { eprintln!("{line}") } else { bar.println(line) }
        }
        Ok(obs)
    });
    bar.finish_and_clear();
    let stop = match (played, mode) {
        (Err(Halt::Shard(line)), _) => {
            writeln!(out, "{line}")?;
            return Ok(());
        }
        (Ok((stop, _)), Mode::Shard(s)) => {
            writeln!(out, "shard {}/{}: nothing to play ({})", s.k, s.n, stop.text())?;
            return Ok(());
        }
        (Ok((stop, _)), _) => stop.text().to_string(),
        (Err(Halt::Hours), _) => "the core-hour budget is spent".to_string(),
        (Err(Halt::Next { round, open }), _) => format!(
            "round {round} is to be played ({open} variant x column open): play its shards with --shard K/N, \
             then --fold"
        ),
        (Err(Halt::Fail(e)), _) => return Err(e),
    };
    let mut cols: Vec<(String, Vec<String>)> = tiers.iter().map(|t| (t.clone(), targets.clone())).collect();
    cols.extend(gaps.iter().map(|g| (g.name(), vec![g.target()])));
    let mut rows = report::rows(&d, &variants, &cols);
    // The length target back in plies.
    if let Some(bound) = plies {
        for r in rows.iter_mut().filter(|r| r.target.starts_with("plies:")) {
            let b = f64::from(bound);
            (r.estimate, r.lo, r.hi) = (r.estimate * b, r.lo * b, r.hi * b);
        }
    }
    write_atomic(&dir.join("design.csv"), &report::csv(&rows, z), true)?;
    // A panel per tier (its first-player target) and per Elo gap (its own band).
    let widened = |b: Band| -> Option<(f64, f64)> {
        Zone::new(b, z).ok().filter(|_| z > 0.0).map(|zone| (zone.outer.lo, zone.outer.hi))
    };
    let points = |tier: &str, target: &str| -> Vec<senat_lab::plot::DesignPoint> {
        rows.iter()
            .filter(|r| r.tier == tier && r.target == target)
            .map(|r| (r.variant.clone(), r.estimate, r.lo, r.hi, r.verdict.name()))
            .collect()
    };
    let mut panels: Vec<senat_lab::plot::DesignPanel> = match first {
        Some(first) => tiers
            .iter()
            .map(|t| senat_lab::plot::DesignPanel {
                caption: format!("tier {t}"),
                band: (first.lo, first.hi),
                widened: widened(first),
                axis: "first player's score (anytime-valid interval)".into(),
                points: points(t, &targets[0]),
            })
            .collect(),
        None => Vec::new(),
    };
    if let Some(b) = seat {
        let target = targets.last().expect("the seat's target is the last");
        panels.extend(tiers.iter().map(|t| senat_lab::plot::DesignPanel {
            caption: format!("tier {t}: first giver's seat"),
            band: (b.lo, b.hi),
            widened: widened(b),
            axis: "first giver's seat's score (anytime-valid interval)".into(),
            points: points(t, target),
        }));
    }
    panels.extend(gaps.iter().map(|g| senat_lab::plot::DesignPanel {
        caption: g.target(),
        band: (g.band().lo, g.band().hi),
        widened: widened(g.band()),
        axis: format!("{}'s score over pairs (anytime-valid interval)", g.a),
        points: points(&g.name(), &g.target()),
    }));
    let title = format!("senat design --game {kind}: δ = {} family-wise, {} variants", a.delta, variants.len())
        + &if z > 0.0 { format!(", tolerance {z}") } else { String::new() };
    senat_lab::plot::write_design_png(&dir.join("design.png"), &title, &panels)
        .or_else(|e| input(format_args!("design.png: {e}")))?;
    writeln!(out, "# {}", reproduce())?;
    // The first player is named where --first is a target.
    let first_player =
        first.map_or(String::new(), |_| format!("first player: {}; ", senat_lab::catalog::first_player(kind)));
    writeln!(
        out,
        "# {first_player}score 1 win, 1/2 draw, 0 loss; each cell at alpha = {:.2e} = delta / {} cells: \
         a PrPl-EB confidence sequence and one-sided tests by betting at the band's edges (Waudby-Smith & Ramdas \
         2024; docs/commands/design.md)",
        d.alpha(),
        d.cells()
    )?;
    if z > 0.0 {
        writeln!(
            out,
            "# tolerance {z}: a cell is in once its interval lies inside its band widened by {z} at each edge \
             (an edge at 0 or 1 stays), out once it lies wholly outside the band narrowed by {z}: every in has \
             its mean in [LO-{z}, HI+{z}], every out has it outside [LO+{z}, HI-{z}]; a mean within {z} of an \
             edge may be called either way"
        )?;
    }
    if seat.is_some() {
        writeln!(
            out,
            "# first_giver_seat: the player who gives the first die of the draft (first_giver), whichever colour \
             it plays after the decision of swap=yes; score 1 win, 1/2 draw, 0 loss"
        )?;
    }
    for g in &gaps {
        writeln!(
            out,
            "# {}: {}'s mean score over colour-swapped pairs against {} (as senat arena plays them), at least \
             1/(1+10^(-{}/400)) = {:.4}; its games are twice its pairs",
            g.target(),
            g.a,
            g.b,
            g.elo,
            elo_score(g.elo)
        )?;
    }
    writeln!(
        out,
        "# stopped: {}; {} games played in all; verdicts hold together with probability >= {}{}",
        stop,
        total_games(&rows),
        1.0 - a.delta,
        if z > 0.0 { format!(" (up to the tolerance {z})") } else { String::new() }
    )?;
    write!(out, "{}", report::table(&rows))?;
    let name = |s: &String| if s.is_empty() { "rules".to_string() } else { s.clone() };
    let list = |v: Vec<String>| if v.is_empty() { "none".to_string() } else { v.join("; ") };
    for (t, tier) in tiers.iter().enumerate() {
        let fair: Vec<String> = (0..variants.len())
            .filter(|&v| (0..bands.len()).all(|k| d.cell(v, t, k).verdict() == Verdict::In))
            .map(|v| name(&variants[v]))
            .collect();
        writeln!(out, "certified fair under {tier}: {}", list(fair))?;
        if seat.is_some() {
            // Each target alone: with the pie rule the first mover's colour is the decider's choice.
            for (k, target) in targets.iter().enumerate() {
                let inside: Vec<String> = (0..variants.len())
                    .filter(|&v| d.cell(v, t, k).verdict() == Verdict::In)
                    .map(|v| name(&variants[v]))
                    .collect();
                writeln!(out, "  {target} in under {tier}: {}", list(inside))?;
            }
        }
    }
    for (e, g) in gaps.iter().enumerate() {
        let with = |want: Verdict| -> Vec<String> {
            (0..variants.len())
                .filter(|&v| d.cell(v, tiers.len() + e, 0).verdict() == want)
                .map(|v| name(&variants[v]))
                .collect()
        };
        writeln!(
            out,
            "certified {}: {}; certified below: {}",
            g.target(),
            list(with(Verdict::In)),
            list(with(Verdict::Out))
        )?;
    }
    Ok(())
}

/// How a design's run plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Every round here, on threads.
    Local,
    /// One shard of the next round (`--shard K/N`).
    Shard(Shard),
    /// The next round's shards folded in, nothing played (`--fold`).
    Fold,
}

/// Why the rounds stopped before the decision loop's own reasons.
enum Halt {
    /// The core-hour budget is spent.
    Hours,
    /// `--fold`: round `round` is not played yet (`open` pairs open).
    Next { round: u64, open: usize },
    /// `--shard`: the shard is written (or was), with the line to print.
    Shard(String),
    /// An error.
    Fail(Failure),
}

/// Plays shard `s` of round `r` (its slice of `expected`) into
/// `DIR/round-R/shard-K.csv`, atomically, unless that file already holds
/// it; the line to print.
fn play_shard(
    dir: &std::path::Path,
    identity: &str,
    r: u64,
    s: Shard,
    expected: &[Job],
    play: &dyn Fn(&[Job]) -> Vec<LogRow>,
    seat: bool,
) -> std::result::Result<String, Halt> {
    let path = shard::shard_path(dir, r, s.k);
    let span = s.range(expected.len() as u64);
    if path.exists() {
        let (had, _) = shard::read_shard(&path, identity, r, expected).or_else(input).map_err(Halt::Fail)?;
        if had != s {
            return Err(Halt::Fail(fail(format_args!(
                "{} holds shard {}/{} of round {r}, not {}/{}: the round's shards must share their count",
                path.display(),
                had.k,
                had.n,
                s.k,
                s.n
            ))));
        }
        return Ok(format!("round {r} shard {}/{}: already played ({})", s.k, s.n, path.display()));
    }
    let rows = play(&expected[span.start as usize..span.end as usize]);
    std::fs::create_dir_all(shard::round_dir(dir, r))
        .or_else(|e| input(format_args!("{}: {e}", shard::round_dir(dir, r).display())))
        .map_err(Halt::Fail)?;
    write_atomic(&path, &shard::shard_text(identity, r, s, &rows, seat), false).map_err(Halt::Fail)?;
    Ok(format!(
        "round {r} shard {}/{}: {} of the round's {} games (its slice {}..{}) written to {}",
        s.k,
        s.n,
        span.end - span.start,
        expected.len(),
        span.start,
        span.end,
        path.display()
    ))
}

/// Removes round `r`'s shard folder, if any, once the round is in the log.
fn remove_round(dir: &std::path::Path, r: u64) -> std::result::Result<(), Halt> {
    let folder = shard::round_dir(dir, r);
    match std::fs::remove_dir_all(&folder) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Halt::Fail(fail(format_args!("{}: {e}", folder.display())))),
    }
}

/// The input failure of message `m` (as [`input`] gives it).
fn fail(m: impl std::fmt::Display) -> Failure {
    Failure::Input(m.to_string())
}

/// Games played in all, from the rows (each variant × column's count once).
fn total_games(rows: &[report::Row]) -> u64 {
    let mut seen = std::collections::HashSet::new();
    rows.iter().filter(|r| seen.insert((r.variant.as_str(), r.tier.as_str()))).map(|r| r.games).sum()
}

/// The command line that reproduces this table (`--resume` and `--fold`
/// dropped: the unsharded run of the same arguments gives the same table).
fn reproduce() -> String {
    let mut parts = vec!["senat".to_string()];
    parts.extend(
        std::env::args()
            .skip(1)
            .filter(|x| x != "--resume" && x != "--fold")
            .map(|x| crate::cli::common::shell_word(&x)),
    );
    parts.join(" ")
}

/// One game function per variant × column (variant-major: the tiers,
/// then the Elo gaps' pairs, played by the catalog's arena of the game),
/// every variant text checked by the game's reader and every tier by its
/// spec reader; `seat`: the tiers' games keep their seat's score
/// ([`GameOutcome::seat`], logged only then).
fn game_functions(
    kind: GameKind,
    variants: &[String],
    tiers: &[String],
    gaps: &[EloGap],
    seed: u64,
    seat: bool,
) -> Result<Vec<GameFn>> {
    let tier_fns = tier_functions(kind, variants, tiers, seed, seat)?;
    let mut tier_fns = tier_fns.into_iter();
    let mut fns: Vec<GameFn> = Vec::new();
    for text in variants {
        fns.extend(tier_fns.by_ref().take(tiers.len()));
        for g in gaps {
            let agents = [g.a.clone(), g.b.clone()];
            let label = |what: &str| format!("--elo-gap {}:{} ({what})", g.name(), g.elo);
            let plan = ArenaPlan {
                game: kind,
                variant: text,
                agents: &agents,
                games: 2,
                seed,
                schedule: Schedule::Gauntlet,
                sprt: None,
                book: None,
                draft: senat_lab::catalog::own_openings(kind),
                time_per_move: None,
                duplicate: true,
                moves: false,
                label: &label,
            };
            fns.push(arena(&plan, EloPairs).or_else(|e| input(format_args!("variant `{text}`: {e}")))?);
        }
    }
    Ok(fns)
}

/// One game function per variant × tier (variant-major).
fn tier_functions(kind: GameKind, variants: &[String], tiers: &[String], seed: u64, seat: bool) -> Result<Vec<GameFn>> {
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
            let v = SenatVariant::parse(text).or_else(|e| input(format_args!("--space: variant `{text}`: {e}")))?;
            for s in &specs {
                let m = Matchup { red: s.clone(), blue: s.clone(), draft_red: s.clone(), draft_blue: s.clone() };
                fns.push(Box::new(move |i| {
                    let o = senat_game(&m, v, seed, i);
                    GameOutcome { seat: o.seat.filter(|_| seat), ..o }
                }));
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
    let cfg = selftest::Config {
        instances: a.instances,
        delta: a.delta,
        cap: a.cap,
        round: 50,
        seed: a.seed,
        tolerance: a.tolerance,
    };
    cfg.check().or_else(|e| input(format_args!("--tolerance {}: {e}", a.tolerance)))?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads_or_all(a.threads)?).build().or_else(input)?;
    let r = pool.install(|| selftest::run(&cfg)).or_else(input)?;
    let (err, lo, hi) = r.error();
    // With a tolerance, what an error is and that every scheme decides by it (nothing added without one).
    let z = cfg.tolerance;
    let (zone, same, label) = if z > 0.0 {
        (
            format!(
                "; tolerance {z}: a variant is in once its interval lies inside [LO-{z}, HI+{z}], out once wholly \
                 outside [LO+{z}, HI-{z}], and an error is an in whose true mean is outside [LO-{z}, HI+{z}] or an \
                 out whose true mean is inside [LO+{z}, HI-{z}]"
            ),
            format!(", all three at tolerance {z}"),
            format!(" (tolerance {z})"),
        )
    } else {
        (String::new(), String::new(), String::new())
    };
    writeln!(out, "# {}", reproduce())?;
    writeln!(
        out,
        "planted instances: {} (6 to 12 variants each, {} in all, one mean on a band edge and one within 0.005 of \
         one per instance, draws up to 0.3); delta {} family-wise per instance; at most {} games per variant; \
         rounds of {} games with common random numbers{zone}",
        cfg.instances, r.variants, cfg.delta, cfg.cap, cfg.round
    )?;
    writeln!(out, "variants decided: {} of {}", r.decided, r.variants)?;
    writeln!(
        out,
        "games: adaptive {}; round-robin {} (the same confidence sequences, every variant played every round until \
         all are decided or capped: the same verdicts, so the same error); fixed-n Hoeffding {} (every variant \
         played n games, n the oracle size that decides every variant a fixed n can within the cap){same}",
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
        "selftest{label}: family-wise error {}/{} = {err:.4} (95% Wilson {lo:.4}..{hi:.4}, delta {}); {:.2}x fewer \
         games than round-robin, {fixed}",
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
