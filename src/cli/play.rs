//! `senat play`: a game against an engine in the terminal, in every game
//! (Sénat with its draft, Focus, Focus with 4, Débâcle, dominoes).
//!
//! This module reads the arguments and picks the game; the session (the
//! loop, the boards, what each seat may see) is `senat_lab::play`'s, the
//! engines are each game's agents (the specs of `selfplay --game`).

use crate::cli::common::{Failure, Result, input, parse_position};
use crate::cli::game::on_game;
use crate::cli::game::{self, GameArg};
use clap::Args;
use senat_lab::games::GameKind;
use senat_lab::games::dominoes::Dominoes;
use senat_lab::play::{PlayError, Session, Setup, Table, seat_of};
use senat_lab::policy::Senat;
use senat_rules::GameRecord;
use std::io::{BufRead, IsTerminal, Write};

/// Arguments of `senat play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// The engine you play against, an agent of the game (the specs of
    /// `senat selfplay --game G`). Sénat: any policy, e.g. `random`,
    /// `greedy`, `heuristic` (the default), `mcts:playouts=200`,
    /// `ab:depth=2`; focus, focus4, debacle, connect4: `random`, `greedy`, `ab` (the
    /// default), `mcts`, …; dominoes: `random`, `greedy`, `pimc`, `ismcts`
    /// (the default), …. In a game of more than two it plays every other seat.
    #[arg(long, value_name = "AGENT")]
    engine: Option<String>,
    /// Your seat, by name or number. Sénat: `blue` (the default; gives
    /// first in the draft, moves first in play) or `red`; focus: `white`
    /// (0, the default) or `black`; focus4: `south` (0), `west`, `north`,
    /// `east`; debacle: `south` (0) or `north`; connect4: `first` (0, red)
    /// or `second`; dominoes: a player number (0 by default).
    #[arg(long = "as", visible_alias = "seat", value_name = "SEAT")]
    side: Option<String>,
    /// The start position: `start` (Sénat: the draft included), or the
    /// game's position text (Sénat: also `sample`; dominoes: `start` only,
    /// a full state would show every hand).
    #[arg(long, value_name = "POS", default_value = "start")]
    from: String,
    /// Seed of the engines' random choices (and of the deals and draws of dominoes).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Never colour with terminal escapes (Sénat writes the colour as a letter in any case).
    #[arg(long)]
    plain: bool,
    #[command(flatten)]
    pub(crate) game: GameArg,
}

/// What every game's session takes from the command line.
struct Terminal<'a, R: BufRead, W: Write> {
    args: &'a PlayArgs,
    colour: bool,
    stdin: &'a mut R,
    out: &'a mut W,
}

impl<R: BufRead, W: Write> Terminal<'_, R, W> {
    /// Plays game `T` from `start`: the engine `--engine` (or
    /// `default_engine`) at every seat but `--as` (or `default_seat`).
    fn run<T: Table>(self, start: T::State, default_engine: &str, default_seat: &str) -> Result<()> {
        let a = self.args;
        let engine = a.engine.as_deref().unwrap_or(default_engine).trim().to_string();
        let spec = T::spec(&engine).or_else(|e| input(format_args!("--engine: {e}")))?;
        let human = seat_of::<T>(&start, a.side.as_deref().unwrap_or(default_seat)).or_else(input)?;
        let variant =
            if a.game.variant.trim().is_empty() { String::new() } else { format!(" --variant {}", a.game.variant) };
        let setup = Setup {
            start,
            human,
            engine,
            spec,
            seed: a.seed,
            colour: self.colour,
            // A transcript of a piped session shows what was typed.
            echo: !std::io::stdin().is_terminal(),
            title: format!("senat play --game {}{variant} --seed {}", a.game.game, a.seed),
        };
        let mut session = Session::<T>::new(setup).or_else(input)?;
        writeln!(self.out, "senat play ({})", a.game.game)?;
        session.run(self.stdin, self.out).map_err(|e| match e {
            PlayError::Io(e) => Failure::from(e),
            // A line not read (not UTF-8, too long) is bad input, not a failed output.
            e => Failure::Input(e.to_string()),
        })
    }

    /// A game of the lab's generic adapters from `--from`.
    fn lab<G: senat_lab::play::lab_games::LabTable>(self) -> Result<()> {
        if self.args.game.variant_help(self.out)? {
            return Ok(());
        }
        let start =
            game::position::<G>(std::slice::from_ref(&self.args.from), &self.args.game).or_else(|e| match e {
                Failure::Input(m) => input(format_args!("--from: {m}")),
                e => Err(e),
            })?;
        let seat = G::seats(G::players(&start))[0];
        self.run::<G>(start, "ab", seat)
    }
}

pub(crate) fn cmd_play(a: PlayArgs, out: &mut impl Write, ansi: bool, stdin: &mut impl BufRead) -> Result<()> {
    a.game.other()?;
    let colour = ansi && !a.plain;
    let t = Terminal { args: &a, colour, stdin, out };
    match a.game.game {
        GameKind::Senat => {
            let Some(variant) = a.game.senat_variant_unswapped(
                t.out,
                "play seats you by colour (--colour), and the decision keep/swap would change which colour you play",
            )?
            else {
                return Ok(());
            };
            let start = match parse_position(&a.from, variant) {
                Ok(p) => p,
                Err(Failure::Input(e)) => return input(format_args!("--from: {e}")),
                Err(e) => return Err(e),
            };
            t.run::<Senat>(GameRecord::new(start), "heuristic", "blue")
        }
        GameKind::Focus | GameKind::Focus4 | GameKind::Debacle | GameKind::Connect4 => {
            on_game!(a.game.game, G => t.lab::<G>())
        }
        GameKind::Dominoes => {
            if a.game.variant_help(t.out)? {
                return Ok(());
            }
            if a.from.trim() != "start" {
                return input("--from: dominoes starts from `start` (a full state would show every hand)");
            }
            let start = dominoes_rules::State::start(game::domino_variant(&a.game)?);
            t.run::<Dominoes>(start, "ismcts", "0")
        }
    }
}
