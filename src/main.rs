//! `senat`: the command-line front end of the Sénat engine.
//!
//! Every command reads positions and moves in the project's notation (SPN
//! and move text, see `NOTATION.md`) and writes the same notation back, so
//! that its output can be pasted into another command or another tool.
//!
//! Errors are one line on stderr, prefixed `senat: error: `, with exit
//! code 2 for usage and input errors; a closed stdout (`| head`) ends the
//! program quietly.

use clap::{Args, Parser, Subcommand};
use senat::perft::{divide, perft, perft_full};
use senat::{Game, Move, MoveError, Position, render, sample};
use std::fmt;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

// ---- command line -------------------------------------------------------

const POS_HELP: &str = "The position: `start` (empty board, blue gives first), `sample` \
(the position after the draft of the sample game of the rules) or an SPN. An SPN contains \
spaces: pass it as one quoted argument or as several arguments, which are joined with \
single spaces";

const EXAMPLES: &str = "\
Examples:
  senat moves start
  senat perft sample --depth 3 --divide
  senat show '.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 0'
  senat replay tests/fixtures/sample-game.txt --quiet

Positions are written in SPN and moves in move text, as in the project's NOTATION.md.";

/// Reference engine and research tool for the dice game Sénat.
#[derive(Parser, Debug)]
#[command(name = "senat", version, about, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the legal moves of a position, one per line, in move text, sorted
    /// by byte order of the text.
    #[command(after_help = "\
Examples:
  senat moves start          # the 22 give moves of the draft (g1, g3..g23)
  senat moves sample         # blue's first play moves in the sample game
  senat moves .,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,. give:b - 0-0-0 0")]
    Moves(PosArg),

    /// Count the leaf nodes of the move tree to a given depth (perft).
    ///
    /// The last line of stdout is the count alone; time and speed go to
    /// stderr. A position where the game is over by majority, closure or
    /// block has no children; repetition is ignored (perft has no history).
    #[command(after_help = "\
Examples:
  senat perft start --depth 3
  senat perft sample --depth 2 --divide     # one `<move> <count>` line per move, then the total
  senat perft sample --depth 3 --full       # play every leaf instead of counting the last ply")]
    Perft {
        #[command(flatten)]
        pos: PosArg,
        /// Number of half-moves (plies) to look ahead; 0 counts the position itself.
        #[arg(short, long, value_name = "N")]
        depth: u32,
        /// Before the total, print each legal move with the leaf count below it.
        #[arg(long)]
        divide: bool,
        /// Play every move including the leaves (copy-make), instead of counting
        /// the moves of the last ply without playing them (bulk counting).
        #[arg(long)]
        full: bool,
    },

    /// Draw the board of a position with ▲■● symbols, then print its SPN.
    #[command(after_help = "\
Examples:
  senat show sample
  senat show sample --plain   # colours as letters r, b, w after each symbol
Colours use terminal escapes when stdout is a terminal (unless NO_COLOR is set).")]
    Show {
        #[command(flatten)]
        pos: PosArg,
        /// Never colour with terminal escapes: write the colour as a letter.
        #[arg(long)]
        plain: bool,
    },

    /// Play a game record, checking every move, and print the result.
    ///
    /// A record is a text file: the first line is the start position (an SPN,
    /// `start`, or `sample` for the sample game's start), then one
    /// move per line. `#` starts a comment, also at the end of a line; blank
    /// lines are ignored. The command fails (exit 2) at the first unparsable
    /// or illegal move, naming its line.
    #[command(after_help = "\
Examples:
  senat replay tests/fixtures/sample-game.txt          # every position, then the result
  senat replay tests/fixtures/sample-game.txt --quiet  # the result only")]
    Replay {
        /// The game record to play.
        file: PathBuf,
        /// Print only the result, not the position after each move.
        #[arg(short, long)]
        quiet: bool,
        /// Never colour with terminal escapes: write the colour as a letter.
        #[arg(long)]
        plain: bool,
    },
}

/// A position on the command line (possibly split over several arguments).
#[derive(Args, Debug)]
struct PosArg {
    #[arg(value_name = "POS", required = true, num_args = 1.., help = POS_HELP)]
    pos: Vec<String>,
}

// ---- errors -------------------------------------------------------------

/// Why a command failed.
enum Failure {
    /// Bad input: a position, a move, a record (exit code 2).
    Input(String),
    /// Writing the output failed (exit code 1, or quiet success on a closed pipe).
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

type Result<T, E = Failure> = std::result::Result<T, E>;

fn input<T>(msg: impl fmt::Display) -> Result<T> {
    Err(Failure::Input(msg.to_string()))
}

// ---- main ---------------------------------------------------------------

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with code 0, usage errors to stderr with code 2.
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    let stdout = io::stdout();
    let colour = stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut out = BufWriter::new(stdout.lock());
    let result = run(cli.command, &mut out, colour).and_then(|()| Ok(out.flush()?));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(failure) => {
            // Show what was printed before the failure (a replay up to the bad move) first.
            let _ = out.flush();
            let (msg, code) = match failure {
                Failure::Input(msg) => (msg, 2),
                Failure::Io(e) => (format!("cannot write the output: {e}"), 1),
            };
            eprintln!("senat: error: {msg}");
            ExitCode::from(code)
        }
    }
}

fn run(command: Command, out: &mut impl Write, colour: bool) -> Result<()> {
    match command {
        Command::Moves(pos) => cmd_moves(&pos.resolve()?, out),
        Command::Perft { pos, depth, divide, full } => cmd_perft(&pos.resolve()?, depth, divide, full, out),
        Command::Show { pos, plain } => {
            let p = pos.resolve()?;
            write_position(out, &p, colour && !plain)
        }
        Command::Replay { file, quiet, plain } => cmd_replay(&file, quiet, colour && !plain, out),
    }
}

// ---- positions ----------------------------------------------------------

impl PosArg {
    fn resolve(&self) -> Result<Position> {
        parse_position(&self.pos.join(" "))
    }
}

/// Reads a position: the words `start` or `sample`, or an SPN.
fn parse_position(text: &str) -> Result<Position> {
    match text.trim() {
        "start" => Ok(Position::start()),
        "sample" => sample_start(),
        word if !word.contains(char::is_whitespace) && !word.contains('/') => {
            input(format_args!("`{word}` is not a position: expected `start`, `sample` or an SPN"))
        }
        spn => spn.parse().or_else(|e| input(format_args!("{e} in `{spn}`"))),
    }
}

/// The position after the draft of the sample game of the rules.
fn sample_start() -> Result<Position> {
    sample::START.parse().or_else(|e| input(format_args!("senat::sample::START: {e}")))
}

fn write_position(out: &mut impl Write, p: &Position, ansi: bool) -> Result<()> {
    out.write_all(render::board(p, ansi).as_bytes())?;
    writeln!(out, "{}", p.to_spn())?;
    Ok(())
}

// ---- moves --------------------------------------------------------------

/// The legal moves in move text, sorted by byte order.
fn sorted_moves(p: &Position) -> Vec<String> {
    let mut moves: Vec<String> = p.legal_moves().iter().map(Move::to_string).collect();
    moves.sort_unstable();
    moves
}

fn cmd_moves(p: &Position, out: &mut impl Write) -> Result<()> {
    for m in sorted_moves(p) {
        writeln!(out, "{m}")?;
    }
    Ok(())
}

// ---- perft --------------------------------------------------------------

fn cmd_perft(p: &Position, depth: u32, by_move: bool, full: bool, out: &mut impl Write) -> Result<()> {
    if by_move && depth == 0 {
        return input("--divide needs --depth 1 or more");
    }
    let count = |p: &Position, d: u32| if full { perft_full(p, d) } else { perft(p, d) };
    let started = Instant::now();
    let total = if by_move {
        let lines: Vec<(Move, u64)> = if full {
            let mut v: Vec<(Move, u64)> = p
                .legal_moves()
                .iter()
                .map(|&m| {
                    let mut c = *p;
                    c.play_unchecked(m);
                    (m, count(&c, depth - 1))
                })
                .collect();
            v.sort_by_cached_key(|(m, _)| m.to_string());
            v
        } else {
            divide(p, depth)
        };
        for (m, n) in &lines {
            writeln!(out, "{m} {n}")?;
        }
        lines.iter().map(|(_, n)| n).sum()
    } else {
        count(p, depth)
    };
    let elapsed = started.elapsed().as_secs_f64();
    writeln!(out, "{total}")?;
    out.flush()?;
    let rate = if elapsed > 0.0 { total as f64 / elapsed } else { f64::INFINITY };
    let how = if full { "full" } else { "bulk" };
    eprintln!("perft depth {depth} ({how}): {total} nodes in {elapsed:.3} s, {:.2} Mnodes/s", rate / 1e6);
    Ok(())
}

// ---- replay -------------------------------------------------------------

/// A game record: its start position and its moves, each with its 1-based line number.
struct Record {
    start: Position,
    moves: Vec<(usize, String)>,
}

/// Reads a game record; `name` is used in error messages.
fn parse_record(name: &str, text: &str) -> Result<Record> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("").trim()))
        .filter(|(_, line)| !line.is_empty());
    let Some((n, first)) = lines.next() else {
        return input(format_args!("{name}: no start position (the record is empty)"));
    };
    let start = match parse_position(first) {
        Ok(p) => p,
        Err(Failure::Input(e)) => return input(format_args!("{name}:{n}: start position: {e}")),
        Err(e) => return Err(e),
    };
    let moves = lines.map(|(n, m)| (n, m.to_string())).collect();
    Ok(Record { start, moves })
}

fn cmd_replay(file: &Path, quiet: bool, ansi: bool, out: &mut impl Write) -> Result<()> {
    let name = file.display().to_string();
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => return input(format_args!("cannot read {name}: {e}")),
    };
    let record = parse_record(&name, &text)?;
    let mut game = Game::new(record.start);
    if !quiet {
        writeln!(out, "start")?;
        write_position(out, game.position(), ansi)?;
    }
    for (ply, (line, text)) in record.moves.iter().enumerate() {
        let at = format!("{name}:{line}: move `{text}`");
        // Checked first so that the message says the game is over rather than
        // why the move would be illegal in the final position.
        if let Some(o) = game.outcome() {
            return input(format_args!("{at}: the game is already over ({o})"));
        }
        let m = match game.position().parse_move(text) {
            Ok(m) => m,
            Err(e) => return input(format_args!("{at}: {e}")),
        };
        if let Err(e) = game.play(m) {
            return input(format_args!("{at}: {}", MoveError::Illegal(e)));
        }
        if !quiet {
            writeln!(out, "\n{}. {m}", ply + 1)?;
            write_position(out, game.position(), ansi)?;
        }
    }
    if !quiet {
        writeln!(out)?;
    }
    writeln!(out, "{}", result_line(&game))?;
    Ok(())
}

/// The result of a game, with the piles: `blue wins by majority (red 4, blue 5, white 0)`.
fn result_line(game: &Game) -> String {
    let p = game.position();
    let piles = p.piles();
    let piles = format!("red {}, blue {}, white {}", piles.red, piles.blue, piles.white);
    match game.outcome() {
        Some(o) => format!("{o} ({piles})"),
        None => format!("game not over after {} moves ({piles}), {} to move", game.moves().len(), p.side_to_move()),
    }
}
