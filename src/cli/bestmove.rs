//! `senat bestmove`: one agent's move in one position, for scripts. The
//! move is the last line of stdout, alone; the agent's account of its
//! search (value, visits or depth, principal line) goes to stderr. Every
//! game is handled here: Sénat's policies, the lab games' agents and the
//! dominoes agents (from the seat's observation only).
//!
//! This module parses and prints; the agents come from the lab.

use crate::cli::common::{Result, input, parse_position, play_record, policy, read_record};
use crate::cli::game::GameArg;
use clap::Args;
use senat_lab::catalog;
use senat_lab::policy::{Turn, rng_from_seed};
use senat_rules::GameRecord;
use senat_rules::notation::escape;
use std::io::Write;
use std::path::PathBuf;

/// The seed of `--seed` when it is not given.
pub(crate) const DEFAULT_SEED: u64 = 1;

/// Arguments of `senat bestmove`.
#[derive(Args, Debug)]
pub(crate) struct BestmoveArgs {
    #[command(flatten)]
    pub(crate) game: GameArg,
    /// The agent, as selfplay and arena name it (a named agent, `top`,
    /// `strong` or `fast`, or a spec: see below).
    #[arg(long, value_name = "SPEC")]
    pub(crate) agent: String,
    /// Sénat: a game record (as `senat replay` reads it: the start, then
    /// one move per line) whose final position is the one to move in, with
    /// its repetition history. A POSITION given too must be that position.
    #[arg(long, value_name = "FILE")]
    pub(crate) history: Option<PathBuf>,
    /// The seed of the agent's random choices: the same seed, the same move
    /// (unless the agent searches for a time, movetime=).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub(crate) seed: u64,
    /// The position: for Sénat `start`, `sample` or an SPN; for Focus and
    /// Débâcle `start` or a position text (`start` when none is given); for
    /// dominoes an observation text of the player to decide, or a full
    /// state (then the observation of its player to move).
    #[arg(value_name = "POSITION", num_args = 0..)]
    pub(crate) pos: Vec<String>,
}

/// `senat bestmove`.
pub(crate) fn bestmove(a: BestmoveArgs, out: &mut impl Write) -> Result<()> {
    if a.game.other()? {
        return lab_bestmove(&a, out);
    }
    let Some(v) = a.game.senat_variant(out)? else { return Ok(()) };
    let spec = policy("agent", &a.agent)?;
    let game = match &a.history {
        Some(file) => {
            let (name, record) = read_record(file, v)?;
            let game = play_record(&name, &record, |_, _, _| Ok(()))?;
            if !a.pos.is_empty() {
                let given = parse_position(&a.pos.join(" "), v)?;
                if given != *game.position() {
                    return input(format_args!(
                        "the position is not the final position of --history {name} ({})",
                        game.position().to_spn()
                    ));
                }
            }
            game
        }
        None if a.pos.is_empty() => GameRecord::new(parse_position("start", v)?),
        None => GameRecord::new(parse_position(&a.pos.join(" "), v)?),
    };
    if let Some(o) = game.outcome() {
        return input(format_args!("the game is over ({o})"));
    }
    let turn = Turn::new(&game);
    if turn.legal == 0 {
        return input(format_args!("no legal move in {}", escape(&game.position().to_spn())));
    }
    let mut player = spec.try_build().or_else(input)?;
    player.new_game();
    let m = player.choose(&turn, &mut rng_from_seed(a.seed));
    report(player.explain(), &spec.name);
    writeln!(out, "{m}")?;
    Ok(())
}

/// The agent's account on stderr: `agent SPEC` then its line, if any.
pub(crate) fn report(explain: Option<String>, name: &str) {
    match explain {
        Some(line) => eprintln!("agent {}; {line}", escape(name)),
        None => eprintln!("agent {}", escape(name)),
    }
}

/// `senat bestmove --game G` for every game but Sénat: the catalog's
/// position and agent, as Python's (a dominoes state is played by the
/// observation of its player to move).
pub(crate) fn lab_bestmove(a: &BestmoveArgs, out: &mut impl Write) -> Result<()> {
    if a.history.is_some() {
        return input(format_args!(
            "--history is for Sénat; --game {} takes the position text (repetition does not matter there)",
            a.game.game
        ));
    }
    if a.game.variant_help(out)? {
        return Ok(());
    }
    let mut agent = catalog::Agent::new(a.game.game, &a.agent).or_else(|e| input(format_args!("--agent: {e}")))?;
    let p = a.game.catalog_position(&a.pos)?;
    let m = agent.choose(&p, &mut rng_from_seed(a.seed)).or_else(input)?;
    report(agent.explain(), agent.name());
    writeln!(out, "{m}")?;
    Ok(())
}
