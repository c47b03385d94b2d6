//! `senat train-net`: trains the small value network on self-play
//! (`senat_lab::net_train` for Sénat, `senat_lab::games::learn` for the
//! other games with network inputs) and writes the weights file
//! atomically; prints each epoch's held-out losses.

use crate::cli::common::{Result, fraction, input, policy, refuse_existing, write_atomic};
use crate::cli::game::{self, GameArg, on_game};
use clap::Args;
use senat_lab::games::GameKind;
use senat_lab::games::LabGame;
use senat_lab::games::learn::{self, GameWeights};
use senat_lab::games::train::{self, LearnConfig};
use senat_lab::learned::Learned;
use senat_lab::limits;
use senat_lab::net_train::{self, EpochReport, Fit, FitStart, TrainConfig};
use senat_lab::selfplay::identity::PolicyId;
use senat_lab::weights_file::fnv1a64;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `senat train-net`.
#[derive(Args, Debug)]
pub(crate) struct TrainNetArgs {
    /// Games played for samples (a tenth held out, whole games, for measuring).
    #[arg(long, default_value_t = 20_000)]
    games: u64,
    /// The run's seed (every game's seed, the first weights and the batch order derive from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The agent that plays both sides of every game, draft included (any policy spec; for
    /// --game focus an agent of that game; default: learned for Sénat, ab:depth=1 otherwise).
    #[arg(long, value_name = "SPEC")]
    generator: Option<String>,
    /// An agent that plays one side against --generator, each game in turn (repeat the flag for a
    /// pool: game i's opponent is the (i/2 mod n)-th, the generator red in even games); without
    /// it the generator plays both sides. Sénat only.
    #[arg(long = "opponent", value_name = "SPEC")]
    opponents: Vec<String>,
    /// An agent (a search) whose value of each sampled position for the side to move is
    /// blended into the target (expert iteration); without it the target is the game's result.
    #[arg(long, value_name = "SPEC")]
    label: Option<String>,
    /// Weight of --label's value in the target (the game's result has the rest).
    #[arg(long, default_value_t = 0.5)]
    label_weight: f64,
    /// Probability that a play position (with --draft: a draft position) is kept as a sample.
    #[arg(long, default_value_t = 0.1)]
    sample: f64,
    /// Probability that a generator's play move is replaced by a random one [default: 0.02]
    /// (not for dominoes, whose games vary by their deals). Débâcle's shipped network took 0.25:
    /// trained at 0.02 it lost inside searches, which reach positions its games never showed.
    #[arg(long)]
    explore: Option<f64>,
    /// Train Sénat's draft network (added to the draft positions' logit) on draft positions,
    /// instead of the play network on play positions; --start's play weights and network are kept.
    #[arg(long)]
    draft: bool,
    /// With --draft: probability that a generator's draft move is replaced by a random one.
    #[arg(long, default_value_t = 0.15, requires = "draft")]
    explore_draft: f64,
    /// Fraction of the games held out.
    #[arg(long, default_value_t = 0.1)]
    holdout: f64,
    /// Hidden units (1 to 256; with --keep-net the start's network's, 32 otherwise).
    #[arg(long)]
    hidden: Option<usize>,
    /// Passes over the training samples (the epoch with the best held-out loss is kept).
    #[arg(long, default_value_t = 8)]
    epochs: u32,
    /// Adam's step size (at the first step).
    #[arg(long, default_value_t = 1e-3)]
    lr: f32,
    /// The step size at the last step, reached along a half cosine (default: --lr, a constant step).
    #[arg(long, value_name = "LR")]
    lr_final: Option<f32>,
    /// L2 penalty on the network's input weights.
    #[arg(long, default_value_t = 1e-6)]
    l2: f32,
    /// A learned weights file to train on top of (its draft weights are kept; a network in it is
    /// replaced unless --keep-net); default: the shipped weights (for another game: its
    /// evaluation's terms, each weighed 1, that is the evaluation itself).
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    /// Continue training --start's network (an earlier round's; with --draft, its draft network)
    /// instead of a new one.
    #[arg(long, requires = "start")]
    keep_net: bool,
    /// Where to write the weights (`learned:file=<path>` reads them).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Overwrite an existing weights file.
    #[arg(long)]
    force: bool,
    /// The game: senat, focus and focus4 (whose weights files serve both), debacle, connect4, or dominoes
    /// (2 players: the network leaf of pimc and ismcts, `leaf=net` or `file=F`; --games counts
    /// matches, each sampled decision labelled with the learned leaf's match chance at its
    /// round's end); --variant sets the training games' rules.
    #[command(flatten)]
    pub(crate) game: GameArg,
}

impl TrainNetArgs {
    /// `--explore`, or its default.
    fn explore(&self) -> f64 {
        self.explore.unwrap_or(0.02)
    }
}

/// Runs `senat train-net`.
pub(crate) fn cmd_train_net(a: TrainNetArgs, out: &mut impl Write) -> Result<()> {
    let other = a.game.other()?;
    if !other && !a.game.variant.trim().is_empty() {
        return input("--variant: Sénat's networks are trained on the standard rules");
    }
    if a.games < 10 || a.games > 100_000_000 {
        return input(format_args!("--games must be within 10 and 100000000, got {}", a.games));
    }
    if let Some(h) = a.hidden.filter(|&h| h == 0 || h > senat_lab::net::MAX_HIDDEN) {
        return input(format_args!("--hidden must be within 1 and {}, got {h}", senat_lab::net::MAX_HIDDEN));
    }
    if a.epochs == 0 || a.epochs > 1000 {
        return input(format_args!("--epochs must be within 1 and 1000, got {}", a.epochs));
    }
    let lr_final = a.lr_final.unwrap_or(a.lr);
    if !(a.lr > 0.0 && a.lr <= 1.0) {
        return input(format_args!("--lr must be above 0 and at most 1, got {}", a.lr));
    }
    if !(0.0..=1.0).contains(&lr_final) {
        return input(format_args!("--lr-final must be within 0 and 1, got {lr_final}"));
    }
    if !(0.0..=1.0).contains(&a.l2) {
        return input(format_args!("--l2 must be within 0 and 1, got {}", a.l2));
    }
    if a.game.game == GameKind::Dominoes {
        return train_dominoes(&a, out);
    }
    if other {
        return on_game!(a.game.game, G => train_lab::<G>(&a, false, out));
    }
    let mut cfg = TrainConfig::new(policy("generator", a.generator.as_deref().unwrap_or("learned"))?);
    cfg.labeler = a.label.as_deref().map(|s| policy("label", s)).transpose()?;
    cfg.opponents = a.opponents.iter().map(|s| policy("opponent", s)).collect::<Result<_>>()?;
    cfg.label_weight = fraction("--label-weight", a.label_weight)?;
    cfg.sample = fraction("--sample", a.sample)?;
    cfg.explore = fraction("--explore", a.explore())?;
    cfg.draft = a.draft;
    cfg.explore_draft = fraction("--explore-draft", a.explore_draft)?;
    cfg.holdout = fraction("--holdout", a.holdout)?;
    cfg.games = a.games;
    cfg.seed = a.seed;
    cfg.fit.hidden = a.hidden.unwrap_or(32);
    cfg.fit.epochs = a.epochs;
    cfg.fit.lr = a.lr;
    cfg.fit.lr_final = lr_final;
    cfg.fit.l2 = a.l2;
    // Where the run's weights come from: the files' hashes (as senat arena's
    // identity line gives them) and the start file's own making.
    let mut origin = String::new();
    let named = [("generator", Some(&cfg.generator)), ("label", cfg.labeler.as_ref())];
    for (what, spec) in named.into_iter().chain(cfg.opponents.iter().map(|o| ("opponent", Some(o)))) {
        if let Some(h) = spec
            .map(PolicyId::of)
            .transpose()
            .or_else(|e| input(format_args!("--{what}: {e}")))?
            .and_then(|p| p.weights)
        {
            origin.push_str(&format!("--{what} reads weights fnv1a64:{h:016x}\n"));
        }
    }
    if let Some(path) = &a.start {
        let body = limits::read_text(path).or_else(|e| input(format_args!("--start {}: {e}", path.display())))?;
        let mut w = Learned::parse(&body).or_else(|e| input(format_args!("--start {}: {e}", path.display())))?;
        // The network of the phase trained: kept with --keep-net, replaced otherwise.
        let trained = if a.draft { &mut w.draft_net } else { &mut w.net };
        if !a.keep_net {
            *trained = None;
        }
        match (&*trained, a.hidden) {
            (None, _) if a.keep_net => {
                return input(format_args!("--keep-net: {} has no network to keep", path.display()));
            }
            (Some(n), Some(h)) if n.hidden != h => {
                return input(format_args!(
                    "--hidden {h}: --keep-net keeps the {} hidden units of {}",
                    n.hidden,
                    path.display()
                ));
            }
            (Some(n), _) => cfg.fit.hidden = n.hidden,
            _ => {}
        }
        cfg.start = w;
        origin.push_str(&start_origin(path, &body));
    }
    refuse_existing(&a.out, a.force)?;
    let start = Instant::now();
    let data = played(out, cfg.games, || net_train::generate(&cfg))?;
    let mut lines = Vec::new();
    let (weights, reports) = epochs(out, &mut lines, |each| net_train::train(&cfg, &data, each))?;
    let best = reports.iter().min_by(|x, y| x.held_target.total_cmp(&y.held_target));
    let command = format!(
        "senat train-net --games {} --seed {} --generator '{}'{}{} --label-weight {} --sample {} --explore {}{} \
         --holdout {} --hidden {} --epochs {} --lr {} --lr-final {} --l2 {}{}{} --out {}",
        a.games,
        a.seed,
        cfg.generator.name,
        cfg.opponents.iter().map(|o| format!(" --opponent '{}'", o.name)).collect::<String>(),
        cfg.labeler.as_ref().map(|l| format!(" --label '{}'", l.name)).unwrap_or_default(),
        a.label_weight,
        a.sample,
        a.explore(),
        if a.draft { format!(" --draft --explore-draft {}", a.explore_draft) } else { String::new() },
        a.holdout,
        cfg.fit.hidden,
        a.epochs,
        a.lr,
        lr_final,
        a.l2,
        a.start.as_ref().map(|p| format!(" --start {}", p.display())).unwrap_or_default(),
        if a.keep_net { " --keep-net" } else { "" },
        a.out.display()
    );
    let hidden = cfg.fit.hidden;
    let what = if a.draft {
        format!(
            "the start's play weights and network, the logistic draft weights (trained with the draft network),\n\
             and a draft network of {hidden} hidden units whose output is added to the draft logit."
        )
    } else {
        format!(
            "the logistic play weights (trained with the network),\n\
             the start's draft weights, and a network of {hidden} hidden units whose output is added to the play logit."
        )
    };
    let header = format!(
        "Sénat learned evaluation with a value network: {}\n\
         Produced by: {command}\n\
         (version {}; {} training and {} held-out positions from {} games; {:.1} s)\n\
         {origin}Per epoch: train loss (targets), held-out loss on results and on targets:\n{}\
         Kept: epoch {}",
        what,
        env!("CARGO_PKG_VERSION"),
        data.train.len(),
        data.held.len(),
        cfg.games,
        start.elapsed().as_secs_f64(),
        lines.concat(),
        best.map_or(0, |b| b.epoch)
    );
    write_atomic(&a.out, weights.to_text(&header).as_bytes(), a.force)?;
    writeln!(out, "weights written to {} in {:.1} s", a.out.display(), start.elapsed().as_secs_f64())?;
    Ok(())
}

/// The header lines that say which `--start` file a run read (its hash, as
/// `senat arena`'s identity line gives it) and how that file was made (its
/// own `Produced by` and `Start` lines), so a chain of runs can be replayed.
pub(crate) fn start_origin(path: &Path, body: &str) -> String {
    let mut origin = format!("--start {} is fnv1a64:{:016x}", path.display(), fnv1a64(body.as_bytes()));
    let made: Vec<&str> = body
        .lines()
        .filter_map(|l| l.strip_prefix("# "))
        .filter(|l| l.starts_with("Produced by:") || l.starts_with("Start: "))
        .collect();
    if made.is_empty() {
        origin.push_str(" (it gives no Produced by line)\n");
    } else {
        origin.push_str(", made as follows:\n");
        for l in made {
            origin.push_str(&format!("Start: {l}\n"));
        }
    }
    origin
}

/// Plays a run's `games` (`generate`), says how many samples they gave
/// and in how long, and refuses a run with no samples to train or measure on.
fn played(out: &mut impl Write, games: u64, generate: impl FnOnce() -> net_train::Data) -> Result<net_train::Data> {
    let clock = Instant::now();
    let data = generate();
    writeln!(
        out,
        "played {games} games in {:.1} s: {} training samples, {} held out",
        clock.elapsed().as_secs_f64(),
        data.train.len(),
        data.held.len()
    )?;
    if data.train.is_empty() || data.held.is_empty() {
        return input("too few samples to train and measure: raise --games or --sample");
    }
    Ok(data)
}

/// Runs `train` with a callback that prints every epoch's line and keeps
/// it in `lines` (for the file's header); the first write error is returned.
fn epochs<T>(
    out: &mut impl Write,
    lines: &mut Vec<String>,
    train: impl FnOnce(&mut dyn FnMut(&EpochReport)) -> (T, Vec<EpochReport>),
) -> Result<(T, Vec<EpochReport>)> {
    writeln!(out, "epoch  train loss (targets)  held-out loss: results  targets")?;
    let mut err = None;
    let r = train(&mut |r: &EpochReport| {
        let l = format!("{:>5}  {:>20.5}  {:>22.5}  {:>7.5}\n", r.epoch, r.train_loss, r.held_result, r.held_target);
        if let Err(e) = out.write_all(l.as_bytes()).and_then(|_| out.flush()) {
            err.get_or_insert(e);
        }
        lines.push(l);
    });
    match err {
        Some(e) => Err(e.into()),
        None => Ok(r),
    }
}

/// `senat train-net --game G` for a lab game with network inputs: games of
/// `--generator` (an agent of `G`) from the variant's start, the same
/// trainer as Sénat's on the game's inputs and evaluation terms.
fn train_lab<G: LabGame>(a: &TrainNetArgs, linear_only: bool, out: &mut impl Write) -> Result<()> {
    let lr_final = a.lr_final.unwrap_or(a.lr);
    let Some(shape) = G::NET else {
        return input(format_args!(
            "--game {}: no network inputs for this game yet (focus, debacle and connect4 have)",
            a.game.game
        ));
    };
    if a.game.variant_help(out)? {
        return Ok(());
    }
    if a.draft {
        return input(format_args!("--draft: --game {} has no draft (Sénat's draft network only)", a.game.game));
    }
    if !a.opponents.is_empty() {
        return input(format_args!("--opponent: --game {} trains on self-play (Sénat only)", a.game.game));
    }
    let start_state = game::text(G::start(&a.game.full()))?;
    let generator = game::agent(a.generator.as_deref().unwrap_or("ab:depth=1"), "--generator")?;
    game::fitting::<G>(&generator, "--generator")?;
    let labeler = a.label.as_deref().map(|t| game::agent(t, "--label")).transpose()?;
    if let Some(l) = &labeler {
        game::fitting::<G>(l, "--label")?;
        if !l.searches() {
            return input(format_args!("--label {l}: gives no value to label with (use ab:… or mcts:…)"));
        }
    }
    let cfg = LearnConfig {
        games: a.games,
        seed: a.seed,
        generator,
        labeler,
        label_weight: fraction("--label-weight", a.label_weight)?,
        sample: fraction("--sample", a.sample)?,
        explore: fraction("--explore", a.explore())?,
        holdout: fraction("--holdout", a.holdout)?,
    };
    let (from, mut origin) = start_weights(a, GameWeights::parse::<G>)?;
    let (start, hidden) = fit_start(a, from.as_ref(), vec![1.0; G::NET_FEATURES.len()], shape);
    // Every weights file the agents read, by its hash, as Sénat's runs say them.
    for w in [Some(&cfg.generator), cfg.labeler.as_ref()].into_iter().flatten().filter_map(|spec| spec.weights()) {
        let body =
            limits::read_text(std::path::Path::new(&w.path)).or_else(|e| input(format_args!("{}: {e}", w.path)))?;
        origin.push_str(&format!("{} is fnv1a64:{:016x}\n", w.path, fnv1a64(body.as_bytes())));
    }
    refuse_existing(&a.out, a.force)?;
    let clock = Instant::now();
    let data = played(out, cfg.games, || train::generate::<G>(&cfg, &start_state))?;
    // The linear part alone has a handful of weights: smaller steps over more batches.
    let batch = if linear_only { 32 } else { 256 };
    let fit = Fit { seed: a.seed, hidden, epochs: a.epochs, batch, lr: a.lr, lr_final, l2: a.l2, linear_only };
    let mut lines = Vec::new();
    let (linear, net, best) = fitted(out, &mut lines, &fit, &start, &data)?;
    let variant = variant_flag(a);
    let command = if linear_only {
        format!(
            "senat tune --game {}{variant} --games {} --seed {} --sample {} --explore {} --out {}",
            a.game.game,
            a.games,
            a.seed,
            a.sample,
            a.explore(),
            a.out.display()
        )
    } else {
        format!(
            "senat train-net --game {}{} --games {} --seed {} --generator '{}'{} --label-weight {} --sample {} --explore {} \
         --holdout {}{}",
            a.game.game,
            variant,
            a.games,
            a.seed,
            cfg.generator,
            cfg.labeler.as_ref().map(|l| format!(" --label '{l}'")).unwrap_or_default(),
            a.label_weight,
            a.sample,
            a.explore(),
            a.holdout,
            fit_flags(a, hidden, lr_final)
        )
    };
    let what = if linear_only {
        "with no network (its output is zero)".to_string()
    } else {
        format!("plus a network\nof {hidden} hidden units")
    };
    let made = Made {
        what: format!(
            "{} learned evaluation: the evaluation's terms ({}) weighed by the linear part, {what};\n\
             their sum is the log-odds that the side to move's team wins.",
            a.game.game,
            G::NET_FEATURES.join(", ")
        ),
        command,
        rules: match G::variant_text(&start_state) {
            v if v.is_empty() => "the standard rules".to_string(),
            v => format!("variant `{v}`"),
        },
        data: format!(
            "{} training and {} held-out positions from {} games",
            data.train.len(),
            data.held.len(),
            cfg.games
        ),
        origin,
        lines,
        best,
    };
    let weights = GameWeights { game: shape.game.to_string(), linear, net, path: String::new(), hash: None };
    made.write(a, out, clock, &weights, G::NET_FEATURES)
}

/// `--start`'s weights, read by `parse`, with `--hidden` checked against
/// them under `--keep-net`, and the header line that names the file by
/// its hash; `None` and no line without `--start`.
fn start_weights(
    a: &TrainNetArgs,
    parse: impl Fn(&str) -> std::result::Result<GameWeights, learn::WeightsError>,
) -> Result<(Option<GameWeights>, String)> {
    let Some(path) = &a.start else { return Ok((None, String::new())) };
    let body = limits::read_text(path).or_else(|e| input(format_args!("--start {}: {e}", path.display())))?;
    let w = parse(&body).or_else(|e| input(format_args!("--start {}: {e}", path.display())))?;
    if let Some(h) = a.hidden.filter(|&h| a.keep_net && h != w.net.hidden) {
        return input(format_args!(
            "--hidden {h}: --keep-net keeps the {} hidden units of {}",
            w.net.hidden,
            path.display()
        ));
    }
    let line = format!("--start {} is fnv1a64:{:016x}\n", path.display(), fnv1a64(body.as_bytes()));
    Ok((Some(w), line))
}

/// Trains with the one trainer ([`net_train::fit`]), printing each epoch
/// (kept in `lines` for the file's header); the linear part, the network
/// and the kept epoch.
fn fitted(
    out: &mut impl Write,
    lines: &mut Vec<String>,
    fit: &Fit,
    start: &FitStart<'_>,
    data: &net_train::Data,
) -> Result<(Vec<f32>, senat_lab::net::Net, u32)> {
    let ((linear, net), reports) = epochs(out, lines, |each| {
        let (linear, net, reports) = net_train::fit(fit, start, data, each);
        ((linear, net), reports)
    })?;
    let best = reports.iter().min_by(|x, y| x.held_target.total_cmp(&y.held_target)).map_or(0, |b| b.epoch);
    Ok((linear, net, best))
}

/// ` --variant '…'` as the run's command line gives it, or nothing.
fn variant_flag(a: &TrainNetArgs) -> String {
    if a.game.variant.trim().is_empty() { String::new() } else { format!(" --variant '{}'", a.game.variant) }
}

/// The trainer's start: `--start`'s linear part (`fresh` without one) and,
/// under `--keep-net`, its network, on the inputs of `shape`; and the
/// hidden size (the kept network's, else `--hidden`, 32 by default).
fn fit_start<'w>(
    a: &TrainNetArgs,
    from: Option<&'w GameWeights>,
    fresh: Vec<f32>,
    shape: learn::NetShape,
) -> (FitStart<'w>, usize) {
    let kept = from.filter(|_| a.keep_net).map(|w| &w.net);
    let hidden = kept.map_or(a.hidden.unwrap_or(32), |n| n.hidden);
    let linear = from.map_or(fresh, |w| w.linear.clone());
    (FitStart { linear, net: kept, inputs: shape.inputs, max_active: shape.max_active }, hidden)
}

/// The fit's own flags as the run's command line gives them, from
/// ` --hidden` to ` --out F`.
fn fit_flags(a: &TrainNetArgs, hidden: usize, lr_final: f32) -> String {
    format!(
        " --hidden {hidden} --epochs {} --lr {} --lr-final {lr_final} --l2 {}{}{} --out {}",
        a.epochs,
        a.lr,
        a.l2,
        a.start.as_ref().map(|p| format!(" --start {}", p.display())).unwrap_or_default(),
        if a.keep_net { " --keep-net" } else { "" },
        a.out.display()
    )
}

/// How a network run made its weights, as the file's header says it.
struct Made {
    /// The first lines: what the file is.
    what: String,
    /// The command that reproduces the run.
    command: String,
    /// The rules the games were played under.
    rules: String,
    /// The samples and the games they came from.
    data: String,
    /// The `--start` and agent files, by their hashes ([`start_origin`]).
    origin: String,
    /// Every epoch's line ([`epochs`]).
    lines: Vec<String>,
    /// The epoch kept.
    best: u32,
}

impl Made {
    /// Writes `weights` (linear part over `terms`) to `--out` under this
    /// header, atomically, and says so.
    fn write(
        &self,
        a: &TrainNetArgs,
        out: &mut impl Write,
        clock: Instant,
        weights: &GameWeights,
        terms: &[&str],
    ) -> Result<()> {
        let header = format!(
            "{}\nProduced by: {}\n(version {}; {}; {}; {:.1} s)\n{}\
             Per epoch: train loss (targets), held-out loss on results and on targets:\n{}Kept: epoch {}",
            self.what,
            self.command,
            env!("CARGO_PKG_VERSION"),
            self.rules,
            self.data,
            clock.elapsed().as_secs_f64(),
            self.origin,
            self.lines.concat(),
            self.best
        );
        write_atomic(&a.out, weights.to_text_terms(terms, &header).as_bytes(), a.force)?;
        writeln!(out, "weights written to {} in {:.1} s", a.out.display(), clock.elapsed().as_secs_f64())?;
        Ok(())
    }
}

/// `senat train-net --game dominoes`: self-play matches of `--generator`
/// (a dominoes agent, 2 players), every sampled decision labelled with the
/// mover's match chance at its round's end
/// (`senat_lab::games::dominoes_net`), the one trainer on the network
/// leaf's inputs and terms.
fn train_dominoes(a: &TrainNetArgs, out: &mut impl Write) -> Result<()> {
    use senat_lab::games::dominoes::DominoSpec;
    use senat_lab::games::dominoes_net::{self, SHAPE, TERMS};
    use senat_lab::games::dominoes_train::{self, NetFit};
    for (given, flag) in [
        (a.label.is_some(), "--label"),
        (!a.opponents.is_empty(), "--opponent"),
        (a.draft, "--draft"),
        (a.explore.is_some(), "--explore"),
    ] {
        if given {
            return input(format_args!(
                "{flag}: --game dominoes labels each decision with its round's end and plays self-play \
                 (its matches vary by their deals)"
            ));
        }
    }
    if a.game.variant_help(out)? {
        return Ok(());
    }
    let variant = game::domino_variant(&a.game)?;
    if !dominoes_net::applies(variant) {
        return input(format_args!(
            "--variant {}: the dominoes network is for 2 players with the rules and hand of the shipped leaf \
             (crates/lab/data/dominoes-leaf.txt) and a target of at most 1000",
            variant.to_text()
        ));
    }
    let spec = a.generator.as_deref().unwrap_or("ismcts:playouts=300");
    let generator = DominoSpec::parse(spec).or_else(|e| input(format_args!("--generator: {e}")))?;
    let lr_final = a.lr_final.unwrap_or(a.lr);
    let cfg = NetFit {
        generator,
        variant,
        matches: a.games,
        seed: a.seed,
        sample: fraction("--sample", a.sample)?,
        holdout: fraction("--holdout", a.holdout)?,
    };
    let (from, origin) = start_weights(a, dominoes_net::parse)?;
    let (start, hidden) = fit_start(a, from.as_ref(), vec![1.0, 0.0, 0.0], SHAPE);
    refuse_existing(&a.out, a.force)?;
    let clock = Instant::now();
    let data = played(out, a.games, || dominoes_train::samples(&cfg).expect("the rules apply (checked above)"))?;
    let fit =
        Fit { seed: a.seed, hidden, epochs: a.epochs, batch: 256, lr: a.lr, lr_final, l2: a.l2, linear_only: false };
    let mut lines = Vec::new();
    let (linear, net, best) = fitted(out, &mut lines, &fit, &start, &data)?;
    let variant_flag = variant_flag(a);
    let command = format!(
        "senat train-net --game dominoes{variant_flag} --games {} --seed {} --generator '{}' --sample {} --holdout {}{}",
        a.games,
        a.seed,
        cfg.generator,
        a.sample,
        a.holdout,
        fit_flags(a, hidden, lr_final)
    );
    let made = Made {
        what: format!(
            "dominoes network leaf (leaf=net, file=F of pimc and ismcts): the terms ({}) weighed by the linear part,\n\
             plus a network of {hidden} hidden units on the round's state; their sum is the log-odds that the player\n\
             to move wins the match. Targets: the mover's match chance at the round's end (the learned leaf's table).",
            TERMS.join(", ")
        ),
        command,
        rules: format!("variant `{}`", variant.to_text()),
        data: format!(
            "{} training and {} held-out decisions from {} matches",
            data.train.len(),
            data.held.len(),
            a.games
        ),
        origin,
        lines,
        best,
    };
    let weights = GameWeights { game: SHAPE.game.to_string(), linear, net, path: String::new(), hash: None };
    made.write(a, out, clock, &weights, TERMS)
}

/// What `senat tune --game G` asks of [`tune_lab`].
pub(crate) struct LinearFit<'a> {
    /// The game and its variant.
    pub(crate) game: &'a GameArg,
    /// Games played.
    pub(crate) games: u64,
    /// The run's seed.
    pub(crate) seed: u64,
    /// Probability that a position is kept.
    pub(crate) sample: f64,
    /// Probability of a random move.
    pub(crate) explore: f64,
    /// The weights file.
    pub(crate) out: &'a std::path::Path,
    /// Overwrite it.
    pub(crate) force: bool,
}

/// `senat tune --game G`: the linear part alone (the weights of the
/// evaluation's terms), fitted by the same trainer to the results of
/// `ab:depth=1` self-play (a fifth of the games held out; 8 epochs of
/// batches of 32, the step falling from 0.01 to 0.0001); the file is read
/// by `ab:file=` and `mcts:file=`.
pub(crate) fn tune_lab(f: &LinearFit<'_>, out: &mut impl Write) -> Result<()> {
    let LinearFit { game, games, seed, sample, explore, out: out_file, force } = *f;
    let a = TrainNetArgs {
        games,
        seed,
        generator: None,
        label: None,
        label_weight: 0.0,
        sample,
        explore: Some(explore),
        opponents: Vec::new(),
        draft: false,
        explore_draft: 0.15,
        holdout: 0.2,
        hidden: Some(1),
        epochs: 8,
        lr: 0.01,
        lr_final: Some(0.0001),
        l2: 0.0,
        start: None,
        keep_net: false,
        out: out_file.to_path_buf(),
        force,
        game: game.clone(),
    };
    on_game!(game.game, G => train_lab::<G>(&a, true, out))
}
