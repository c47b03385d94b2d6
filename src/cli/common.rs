//! What the commands share: the error and result types of the binary
//! ([`Failure`], [`Result`], [`input`]), positions on the command line
//! ([`PosArg`], [`parse_position`]) and on stdout ([`write_position`]), game
//! records and openings read from files ([`read_record`], [`play_record`],
//! [`read_opening`]), and policy flags ([`policy`]).
//!
//! This module never decides a command's output beyond one position or one
//! result line, and never exits: errors go up to `main` as [`Failure`]s.

use clap::Args;
use senat_lab::catalog::files;
pub(crate) use senat_lab::catalog::files::IndexedGame;
use senat_lab::games::GameKind;
use senat_lab::policy::PolicySpec;
use senat_lab::selfplay::output::{IfExists, Located, OutFile};
use senat_lab::{limits, render};
use senat_rules::notation::escape;
use senat_rules::record::parse_position_arg_in;
use senat_rules::variant::Variant;
use senat_rules::{GameRecord, Move, Position, Record, RecordError, sample};
use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// The help of a position argument.
pub(crate) const POS_HELP: &str = "The position: `start` (empty board, blue gives first), `sample` \
(the position after the draft of the sample game of the rules) or an SPN. An SPN contains \
spaces: pass it as one quoted argument or as several arguments, which are joined with \
single spaces. None given (and no --history): `start`";

/// The help of every command's `--quiet`: one meaning everywhere.
pub(crate) const QUIET_HELP: &str = "No progress bar and no report: stdout holds the command's result \
alone (selfplay, merge and annex: the line naming the files written; arena: its result tables, then the line naming the files written; \
replay: the result line)";

/// A position on the command line (possibly split over several arguments).
#[derive(Args, Debug)]
pub(crate) struct PosArg {
    #[arg(value_name = "POS", num_args = 1.., help = POS_HELP)]
    pos: Vec<String>,
}

// ---- errors -------------------------------------------------------------

/// Why a command failed.
pub(crate) enum Failure {
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

/// The result of a command step.
pub(crate) type Result<T, E = Failure> = std::result::Result<T, E>;

/// `v` if it is within 0 and 1, else an input error naming `flag`.
pub(crate) fn fraction(flag: &str, v: f64) -> Result<f64> {
    if (0.0..=1.0).contains(&v) { Ok(v) } else { input(format_args!("{flag} must be within 0 and 1, got {v}")) }
}

/// Fails with an input error (exit code 2) whose message is `msg`.
pub(crate) fn input<T>(msg: impl fmt::Display) -> Result<T> {
    Err(Failure::Input(msg.to_string()))
}

/// The one-line refusal of a record of any game played through the catalog
/// (`senat_lab::catalog::record`): the file and the line at fault, its
/// message clipped; the caller's own failure as it was.
pub(crate) fn record_failure<T>(name: &str, e: senat_lab::catalog::record::RecordError<Failure>) -> Result<T> {
    use senat_lab::catalog::record::RecordError as Refused;
    match e {
        Refused::Empty => input(format_args!("{name}: empty record")),
        Refused::At { line, error } => input(format_args!("{name}:{line}: {}", limits::clip(&error.to_string()))),
        Refused::Caller(e) => Err(e),
    }
}

// ---- bounded flags ------------------------------------------------------

// The value parsers of the bounded flags that every game's path of a
// command shares: clap reads the flag through [`limits`], so that no
// command, and no game, holds an unbounded value. `main` prints a refusal
// as the limit's one line.

/// `--tt-mb`: megabytes of a table, 0 to half the machine's memory
/// ([`limits::megabytes_text`]).
pub(crate) fn tt_mb_flag(text: &str) -> Result<usize, limits::LimitError> {
    limits::megabytes_text("--tt-mb", text, 0)
}

/// `--memory-mb`: megabytes of MCTS trees, 1 to half the machine's memory
/// ([`limits::megabytes_text`]).
pub(crate) fn memory_mb_flag(text: &str) -> Result<usize, limits::LimitError> {
    limits::megabytes_text("--memory-mb", text, 1)
}

/// `--c`: an MCTS exploration constant, 0 to [`limits::MAX_EXPLORATION`]
/// ([`limits::exploration_text`]).
pub(crate) fn exploration_flag(text: &str) -> Result<f64, limits::LimitError> {
    limits::exploration_text("--c", text)
}

/// `--prior`: an MCTS prior temperature, above 0 and at most
/// [`limits::MAX_TEMP`] ([`limits::prior_text`]).
pub(crate) fn prior_flag(text: &str) -> Result<f64, limits::LimitError> {
    limits::prior_text("--prior", text)
}

// ---- positions ----------------------------------------------------------

impl PosArg {
    /// The position's words. Clap does not require them, so that
    /// `--variant help` runs alone; every other use asks for them here.
    pub(crate) fn words(&self) -> Result<&[String]> {
        if self.pos.is_empty() {
            return input(
                "a position is required: <POS>..., `start` or a position text (`--variant help` needs none; see the command's --help)",
            );
        }
        Ok(&self.pos)
    }

    /// The position the words name, in variant `v` ([`parse_position`]).
    pub(crate) fn resolve(&self, v: Variant) -> Result<Position> {
        parse_position(&self.words()?.join(" "), v)
    }
}

/// Reads a position in variant `v`: the words `start` or `sample`, or an SPN.
pub(crate) fn parse_position(text: &str, v: Variant) -> Result<Position> {
    parse_position_arg_in(text, v).or_else(input)
}

/// The position after the draft of the sample game of the rules.
pub(crate) fn sample_start() -> Result<Position> {
    Ok(sample::start())
}

/// Writes the board of `p` (terminal colours if `ansi`; the result
/// instead of the side to move once the game is over, `outcome`), then
/// its SPN.
pub(crate) fn write_position(
    out: &mut impl Write,
    p: &Position,
    outcome: Option<senat_rules::Outcome>,
    ansi: bool,
) -> Result<()> {
    out.write_all(render::board(p, outcome, ansi).as_bytes())?;
    writeln!(out, "{}", p.to_spn())?;
    Ok(())
}

/// The legal moves in move text, sorted by byte order.
pub(crate) fn sorted_moves(p: &Position) -> Vec<String> {
    let mut moves: Vec<String> = p.legal_moves().iter().map(Move::to_string).collect();
    moves.sort_unstable();
    moves
}

// ---- records ------------------------------------------------------------

/// A record error as one line: the file name, the line, what is wrong.
fn located(name: &str, e: &RecordError) -> Failure {
    match e.line() {
        Some(line) => Failure::Input(format!("{name}:{line}: {e}")),
        None => Failure::Input(format!("{name}: {e}")),
    }
}

/// Reads an opening file (moves from the start of the draft, one per line,
/// `#` comments) and checks each move in turn, naming its line on error.
pub(crate) fn read_opening(file: &Path, v: Variant) -> Result<Vec<Move>> {
    let name = escape(&file.display().to_string());
    let text = limits::read_text(file).map_err(|e| Failure::Input(escape(&e.to_string())))?;
    opening_moves(&name, &text, v)
}

/// The moves of an opening text (see [`read_opening`]); `name` is used in messages.
pub(crate) fn opening_moves(name: &str, text: &str, v: Variant) -> Result<Vec<Move>> {
    let game = play_record(name, &Record::opening_in(text, v), |_, _, _| Ok(()))?;
    Ok(game.moves().to_vec())
}

/// Reads a game record; `name` is used in error messages.
pub(crate) fn parse_record(name: &str, text: &str, v: Variant) -> Result<Record> {
    Record::parse_in(text, v).map_err(|e| located(name, &e))
}

/// Reads and parses a game record file in variant `v`; the name is for messages.
pub(crate) fn read_record(file: &Path, v: Variant) -> Result<(String, Record)> {
    let name = escape(&file.display().to_string());
    let text = limits::read_text(file).map_err(|e| Failure::Input(escape(&e.to_string())))?;
    let record = parse_record(&name, &text, v)?;
    Ok((name, record))
}

/// Why a replay stopped: the record, or the caller's `each`.
enum Stop {
    Record(RecordError),
    Each(Failure),
}

impl From<RecordError> for Stop {
    fn from(e: RecordError) -> Stop {
        Stop::Record(e)
    }
}

/// Plays a record's moves from its start, checking each ([`Record::play_each`]),
/// and returns the game; `each(ply, move, game)` is called after every move
/// (ply from 0). Fails at the first unparsable or illegal move, naming its line.
pub(crate) fn play_record(
    name: &str,
    record: &Record,
    mut each: impl FnMut(usize, Move, &GameRecord) -> Result<()>,
) -> Result<GameRecord> {
    record.play_each(|ply, m, game| each(ply, m, game).map_err(Stop::Each)).map_err(|e| match e {
        Stop::Record(e) => located(name, &e),
        Stop::Each(f) => f,
    })
}

/// The result of a game, with the piles: `blue wins by majority (red 4, blue 5, white 0)`.
pub(crate) fn result_line(game: &GameRecord) -> String {
    senat_lab::play::senat::result_line(game)
}

// ---- policies -----------------------------------------------------------

/// The policy of flag `--flag`, or an input error naming the flag.
pub(crate) fn policy(flag: &str, text: &str) -> Result<PolicySpec> {
    PolicySpec::parse(text).or_else(|e| input(format_args!("--{flag}: {e}")))
}

/// The help of `--time-per-move` (selfplay, arena).
pub(crate) const TIME_PER_MOVE_HELP: &str = "Milliseconds per move for every agent that searches \
(mcts, ab, and such a half of DRAFT>PLAY): it searches until its time is up, a playouts= or depth= \
of its spec being then a cap (alpha-beta deepens iteratively, at most 64 plies unless depth= is \
given, and plays the best move of its last completed iteration). Policies that do not search \
(random, greedy, heuristic) ignore it, and a movetime= in a spec wins over it. The policy names \
written to the files show the time (`mcts` becomes `mcts:movetime=250`), so batches of \
different times are never mixed. Timed games depend on the machine's speed and load, not on \
the seed alone. 1 to 600000 (10 minutes)";

/// `--time-per-move`, checked (1 ms to 10 minutes).
pub(crate) fn time_per_move(ms: Option<u64>) -> Result<Option<u64>> {
    ms.map(|ms| limits::movetime_ms("--time-per-move", ms)).transpose().or_else(input)
}

/// `spec` with the run's time per move, if any ([`PolicySpec::with_movetime`]).
pub(crate) fn timed(spec: PolicySpec, ms: Option<u64>) -> PolicySpec {
    match ms {
        Some(ms) => spec.with_movetime(ms),
        None => spec,
    }
}

/// `--game` of a command that only Sénat has so far: `senat` (the default)
/// is accepted, every other game is refused in one line that says why.
#[derive(clap::Args, Debug, Default)]
pub(crate) struct SenatOnly {
    /// The game: only `senat` (the default) for this command so far.
    #[arg(long = "game", value_name = "GAME")]
    pub(crate) game: Option<String>,
}

impl SenatOnly {
    /// Accepts Sénat; for another game, says that `command` `why`.
    pub(crate) fn check(&self, command: &str, why: &str) -> Result<()> {
        let Some(g) = self.game.as_deref() else { return Ok(()) };
        match senat_lab::games::GameKind::parse(g).or_else(|e| input(format_args!("--game: {e}")))? {
            senat_lab::games::GameKind::Senat => Ok(()),
            other => input(format_args!("`senat {command}` {why}; --game {other} is not available here")),
        }
    }
}

/// Writes `bytes` to `path` as every `--out` of the binary is written
/// ([`OutFile`]): a regular file atomically (its `.partial` file, then a
/// rename), a special file (`/dev/null`, a FIFO) in place; an existing
/// regular file is refused unless `force`.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<()> {
    let if_exists = if force { IfExists::Overwrite } else { IfExists::Refuse { resumable: false } };
    let mut file = OutFile::create(path, if_exists).or_else(input)?;
    file.write_all(bytes).or_else(input)?;
    file.commit().or_else(input)
}

/// Refuses an existing `path` unless `force`, before any work, as
/// [`write_atomic`] will at the end: a special file is written through and
/// needs no `--force`.
pub(crate) fn refuse_existing(path: &Path, force: bool) -> Result<()> {
    let special = Located::new(path).is_ok_and(|l| l.is_special());
    if !force && !special && path.exists() {
        return input(format_args!("{} already exists; pass --force to overwrite it", path.display()));
    }
    Ok(())
}

pub(crate) fn threads_or_all(threads: Option<usize>) -> Result<usize> {
    match threads {
        Some(0) => input("--threads 0: give at least 1 thread (or leave it out for all cores)"),
        Some(t) => senat_lab::limits::threads("--threads", t).or_else(input),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

pub(crate) fn summary_path(text: &str) -> Option<PathBuf> {
    (!text.is_empty()).then(|| PathBuf::from(text))
}

/// The last line of a batch command: every file it wrote, by role
/// (`wrote games g.csv, moves m.csv, summary summary.csv`).
pub(crate) fn written(files: &[(&str, Option<&PathBuf>)]) -> String {
    let named: Vec<String> = files
        .iter()
        .filter_map(|(role, p)| {
            p.map(|p| format!("{role} {}", senat_rules::notation::escape(&p.display().to_string())))
        })
        .collect();
    format!("wrote {}", named.join(", "))
}

/// A progress bar on stderr, hidden when stderr is not a terminal or when quiet.
pub(crate) fn progress_bar(total: u64, quiet: bool) -> indicatif::ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:40} {human_pos}/{human_len} games  {rate} games/s  ETA {eta}  ({elapsed})",
    )
    .map(|s| {
        s.with_key("rate", |state: &indicatif::ProgressState, w: &mut dyn fmt::Write| {
            let _ = write!(w, "{:.0}", state.per_sec());
        })
    });
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar
}

// ---- a game of a batch file (`--index N`) ---------------------------------

/// The lines of a game record as every game's record reader takes them: a
/// record file's ([`limits::record_lines`]), or those of a game taken out
/// of a batch file ([`IndexedGame::record`]: `start`, then one move a
/// line, numbered as plies).
pub(crate) struct RecordText {
    /// The name in messages: the file's, or `FILE game N ply` (then a
    /// line's number is its ply).
    pub(crate) name: String,
    body: String,
    plies: bool,
}

impl RecordText {
    /// A record file, read within the record limits ([`limits::read_text`]).
    pub(crate) fn read(file: &Path) -> Result<RecordText> {
        let name = escape(&file.display().to_string());
        let body = limits::read_text(file).or_else(|e| input(format_args!("{e}")))?;
        Ok(RecordText { name, body, plies: false })
    }

    /// The start line, then the move lines, each with its number.
    pub(crate) fn lines(&self) -> Box<dyn Iterator<Item = (usize, &str)> + '_> {
        if self.plies { Box::new(self.body.lines().enumerate()) } else { Box::new(limits::record_lines(&self.body)) }
    }
}

/// [`indexed_game`], refused as the command line refuses.
pub(crate) fn indexed_game(path: &Path, n: u64, want: Option<GameKind>) -> Result<IndexedGame> {
    files::indexed_game(path, n, want).or_else(input)
}

/// [`files::batch_variant`], refused as the command line refuses.
pub(crate) fn batch_variant(path: &Path) -> Result<Variant> {
    files::batch_variant(path).or_else(input)
}

/// [`files::checked_file_game`], refused as the command line refuses.
pub(crate) fn checked_file_game(path: &Path, want: Option<GameKind>) -> Result<Option<GameKind>> {
    files::checked_file_game(path, want).or_else(input)
}

/// A game of a batch file as the record readers take it.
pub(crate) trait IndexedRecord {
    /// The game's lines for the record readers: `start`, then its moves.
    fn record(&self) -> RecordText;
    /// Sénat: the game as a record (its moves from the start of the file's
    /// variant, named `FILE game N ply` in messages).
    fn senat_record(&self) -> Result<(String, Record)>;
    /// Sénat: the game played, its moves checked, and its end checked
    /// against its row's final SPN, winner and reason (where the file
    /// gives them).
    fn senat_game(&self) -> Result<GameRecord>;
}

impl IndexedRecord for IndexedGame {
    fn record(&self) -> RecordText {
        let mut body = String::from("start\n");
        for m in &self.moves {
            body.push_str(m);
            body.push('\n');
        }
        RecordText { name: format!("{} ply", self.title), body, plies: true }
    }

    fn senat_record(&self) -> Result<(String, Record)> {
        let Some((variant, _)) = self.senat else {
            return input(format_args!("{} is a game of {}, not of Sénat", self.title, self.kind));
        };
        let moves = self.moves.iter().enumerate().map(|(k, m)| (k + 1, m.clone())).collect();
        Ok((format!("{} ply", self.title), Record { start: Position::start_of(variant), moves }))
    }

    fn senat_game(&self) -> Result<GameRecord> {
        let (name, record) = self.senat_record()?;
        let game = play_record(&name, &record, |_, _, _| Ok(()))?;
        let Some((_, Some([final_spn, winner, reason]))) = &self.senat else { return Ok(game) };
        let spn = game.position().to_spn();
        if spn != *final_spn {
            return input(format_args!("{}: the moves end in `{spn}`, not in its final_spn `{final_spn}`", self.title));
        }
        if let Some(o) = game.outcome()
            && (senat_lab::selfplay::winner_name(o.winner) != winner || o.reason.name() != reason)
        {
            return input(format_args!(
                "{}: the moves end in `{o}`, not in its winner `{winner}` and reason `{reason}`",
                self.title
            ));
        }
        Ok(game)
    }
}

/// `text` as one word of a shell command: itself, or single-quoted where
/// a character would mean something to the shell.
pub(crate) fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_.,=:/@+".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}
