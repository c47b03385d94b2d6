//! `senat play`: a game against an engine in the terminal (the draft
//! included). The engines are the policies of `senat_lab::policy`; the
//! board is `cli::common::write_position`'s.

use crate::cli::common::{Failure, Result, input, parse_position, policy, result_line, sorted_moves, write_position};
use crate::cli::view::write_atomic;
use clap::Args;
use senat_lab::policy::{Agent, Senat, Turn, mix64, rng_from_seed};
use senat_lab::viewer;
use senat_rules::{GameRecord, MoveError, Position, Side, Variant};
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

/// Arguments of `senat play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// The engine you play against: any policy, e.g. `random`, `greedy`,
    /// `heuristic`, `mcts:playouts=200`, `ab:depth=2`.
    #[arg(long, value_name = "AGENT", default_value = "heuristic")]
    engine: String,
    /// Your side: `blue` (gives first in the draft, moves first in play) or `red`.
    #[arg(long = "as", id = "as", value_name = "blue|red", default_value = "blue", value_parser = parse_side)]
    side: Side,
    /// The start position: `start` (the draft included), `sample` or an SPN.
    #[arg(long, value_name = "POS", default_value = "start")]
    from: String,
    /// Seed of the engine's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Never colour with terminal escapes: write the colour as a letter.
    #[arg(long)]
    plain: bool,
    /// The game (`--game`): Sénat only so far.
    #[command(flatten)]
    pub(crate) senat_only: crate::cli::common::SenatOnly,
}

fn parse_side(text: &str) -> std::result::Result<Side, String> {
    match text {
        "blue" | "b" => Ok(Side::Blue),
        "red" | "r" => Ok(Side::Red),
        _ => Err(format!("`{text}` is not a side: expected blue or red")),
    }
}

// ---- play -----------------------------------------------------------------

const PLAY_HELP: &str = "\
commands:
  <move>      play a move in move text (g3, 17@M13=Sb, M16-M17, I21>I20, M13>M14:I19, I19>I20=Sb)
  moves       list your legal moves
  hint        the engine's suggestion for you
  undo        take back your last move and the engine's reply
  board       show the board again
  save FILE   write the game as a record (`senat replay FILE`); `save! FILE` overwrites
  quit        end the session (also end of input)
  help        this list";

/// The session of `senat play`.
struct Session {
    game: GameRecord,
    human: Side,
    engine_name: String,
    engine: Box<dyn Agent<Senat>>,
    hinter: Box<dyn Agent<Senat>>,
    rng: senat_lab::policy::GameRng,
    hint_rng: senat_lab::policy::GameRng,
    ansi: bool,
    seed: u64,
    told_result: bool,
}

impl Session {
    fn show(&self, out: &mut impl Write) -> Result<()> {
        write_position(out, self.game.position(), self.ansi)
    }

    /// Back to the last position where the human was to move (before their
    /// last move), replaying the moves before it.
    fn undo(&mut self) -> Option<usize> {
        let steps = viewer::steps(&self.game);
        let ply = (0..self.game.moves().len()).rev().find(|&i| steps[i].position.side_to_move() == self.human)?;
        let mut g = GameRecord::new(*self.game.start());
        for &m in &self.game.moves()[..ply] {
            g.play_unchecked(m);
        }
        self.game = g;
        self.engine.new_game();
        self.told_result = false;
        Some(ply)
    }

    fn record(&self) -> String {
        let start = self.game.start();
        let mut s = format!(
            "# senat play: you ({}) against {} ({}), seed {}\n# {}\n",
            self.human,
            self.engine_name,
            self.human.other(),
            self.seed,
            result_line(&self.game)
        );
        s.push_str(&if *start == Position::start() { "start".to_string() } else { start.to_spn() });
        s.push('\n');
        for m in self.game.moves() {
            s.push_str(&m.to_string());
            s.push('\n');
        }
        s
    }
}

pub(crate) fn cmd_play(a: PlayArgs, out: &mut impl Write, ansi: bool, stdin: &mut impl BufRead) -> Result<()> {
    a.senat_only.check("play", "plays Sénat only so far (a terminal board of the other games is not built yet)")?;
    let spec = policy("engine", &a.engine)?;
    let start = match parse_position(&a.from, Variant::RULES) {
        Ok(p) => p,
        Err(Failure::Input(e)) => return input(format_args!("--from: {e}")),
        Err(e) => return Err(e),
    };
    let mut s = Session {
        game: GameRecord::new(start),
        human: a.side,
        engine_name: spec.name.clone(),
        engine: spec.build(),
        hinter: spec.build(),
        rng: rng_from_seed(a.seed),
        hint_rng: rng_from_seed(mix64(a.seed ^ 0x6869_6e74)),
        ansi: ansi && !a.plain,
        seed: a.seed,
        told_result: false,
    };
    s.engine.new_game();
    s.hinter.new_game();
    writeln!(
        out,
        "senat play: you are {}, the engine ({}) is {}. Type a move, or `help`.",
        s.human,
        s.engine_name,
        s.human.other()
    )?;
    s.show(out)?;
    let echo = !std::io::stdin().is_terminal();
    let mut line = String::new();
    loop {
        if s.game.outcome().is_some() {
            if !s.told_result {
                writeln!(out, "game over: {}", result_line(&s.game))?;
                s.told_result = true;
            }
        } else if s.game.position().side_to_move() != s.human {
            let m = s.engine.choose(&Turn::new(&s.game), &mut s.rng);
            if let Err(e) = s.game.play(m) {
                return input(format_args!("the engine {} chose an illegal move {m}: {e}", s.engine_name));
            }
            writeln!(out, "{} ({}) plays {m}", s.human.other(), s.engine_name)?;
            s.show(out)?;
            continue;
        }
        write!(out, "{}> ", s.human)?;
        out.flush()?;
        line.clear();
        if stdin.read_line(&mut line).or_else(|e| input(format_args!("cannot read stdin: {e}")))? == 0 {
            writeln!(out, "\nend of input: bye")?;
            return Ok(());
        }
        let text = line.trim();
        if echo {
            // A transcript of a piped session shows what was typed.
            writeln!(out, "{text}")?;
        }
        let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let rest = rest.trim();
        let over = s.game.outcome();
        match word {
            "" => {}
            "help" | "?" => writeln!(out, "{PLAY_HELP}")?,
            "quit" | "exit" => {
                writeln!(out, "bye")?;
                return Ok(());
            }
            "board" | "show" => s.show(out)?,
            "moves" => match over {
                Some(o) => writeln!(out, "no moves: the game is over ({o})")?,
                None => {
                    let moves = sorted_moves(s.game.position());
                    writeln!(out, "{} legal moves: {}", moves.len(), moves.join(" "))?;
                }
            },
            "hint" => match over {
                Some(o) => writeln!(out, "no hint: the game is over ({o})")?,
                None => {
                    let m = s.hinter.choose(&Turn::new(&s.game), &mut s.hint_rng);
                    writeln!(out, "hint ({}): {m}", s.engine_name)?;
                }
            },
            "undo" => match s.undo() {
                Some(ply) => {
                    writeln!(out, "undone: back to ply {ply}")?;
                    s.show(out)?;
                }
                None => writeln!(out, "nothing to undo: you have not moved yet")?,
            },
            "save" | "save!" => {
                if rest.is_empty() {
                    writeln!(out, "save what? `save FILE`")?;
                } else {
                    match write_atomic(Path::new(rest), s.record().as_bytes(), word == "save!") {
                        Ok(()) => writeln!(out, "saved {} moves to {rest}", s.game.moves().len())?,
                        Err(Failure::Input(e)) => {
                            writeln!(out, "not saved: {}", e.replace("pass --force", "use `save!`"))?
                        }
                        Err(e) => return Err(e),
                    }
                }
            }
            _ => {
                if let Some(o) = over {
                    writeln!(out, "the game is over ({o}); `undo`, `save FILE` or `quit`")?;
                    continue;
                }
                match s.game.position().parse_move(text) {
                    Err(e) => writeln!(out, "`{text}`: {e} (`help` lists the commands)")?,
                    Ok(m) => match s.game.play(m) {
                        Err(e) => writeln!(out, "`{text}`: {}", MoveError::Illegal(e))?,
                        Ok(()) => s.show(out)?,
                    },
                }
            }
        }
    }
}
