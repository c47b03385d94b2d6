//! Terminal play: one person against engines, in any game of the lab.
//!
//! What lives here: [`Table`] (what the play loop needs from a game: whose
//! decision it is, what one seat may see, its moves and texts, its board
//! for a person), the one loop over it ([`Session::run`]: the engines'
//! plies told as move lines, the board once per decision of the person,
//! the commands `moves`, `hint`, `undo`, `board`, `legend`, `save`,
//! `help`, `quit`), and the listing of moves in columns ([`columns`]).
//! The games' tables: [`senat`] (Sénat, the draft included),
//! [`lab_games`] (every [`crate::games::LabGame`]: Focus, Focus with 4,
//! Débâcle) and [`dominoes`] (hidden hands: a seat is shown its
//! observation, never the other hands or the boneyard).
//!
//! What this module must never do: encode a rule (moves, ends and texts
//! come from the rules crates through the tables), ask which game it
//! plays, or show a seat what its game hides from it.

pub mod dominoes;
pub mod lab_games;
pub mod senat;

use crate::agent::{Agent, Seat};
use crate::selfplay::output::{IfExists, OutFile};
use game_search::TableError;
use game_search::rng::{GameRng, rng_from_seed};
use senat_rules::notation::escape;
use std::fmt;
use std::io::{BufRead, Write};
use std::path::Path;

/// Who acts next in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The decision of this seat.
    Decide(usize),
    /// Chance (a deal, a draw).
    Chance,
    /// The game is over.
    Over,
}

/// A game a person can play at the terminal against its agents.
pub trait Table: Seat + Sized + 'static {
    /// A state of the game, with all its history the rules need.
    type State: Clone;
    /// An agent spec of the game, as `selfplay --game` reads it.
    type Spec;
    /// Whether the game hides something from a seat (hands, a boneyard):
    /// then `undo` is not offered (it would draw again) and a record is
    /// saved only once the game is over.
    const HIDDEN: bool = false;

    /// Reads an agent spec.
    fn spec(text: &str) -> Result<Self::Spec, String>;
    /// A fresh agent of `spec`, or the [`TableError`] of the memory of its
    /// table refused by the system.
    fn build(spec: &Self::Spec) -> Result<Box<dyn Agent<Self>>, TableError>;
    /// Who acts in `s`.
    fn next(s: &Self::State) -> Next;
    /// What the agent of `seat` (to decide) is shown.
    fn view(s: &Self::State, seat: usize) -> Self::View<'_>;
    /// The number of seats.
    fn seats(s: &Self::State) -> usize;
    /// The name of `seat` (the first word is what `--as` accepts).
    fn seat_name(s: &Self::State, seat: usize) -> String;
    /// The legal decisions of the seat to decide, as that seat sees them.
    fn legal(s: &Self::State) -> Vec<Self::Move>;
    /// A move text typed by the seat to decide, read and checked legal
    /// (the message: one line, without the text).
    fn parse(s: &Self::State, text: &str) -> Result<Self::Move, String>;
    /// A move's text.
    fn text(m: Self::Move) -> String;
    /// The state after a legal move or chance outcome.
    fn apply(s: &Self::State, m: Self::Move) -> Self::State;
    /// A chance outcome of a chance state, drawn from `rng` (`None`: the
    /// game has no chance).
    fn chance(_s: &Self::State, _rng: &mut GameRng) -> Option<Self::Move> {
        None
    }
    /// What `viewer` is told of `m`, played in `s` by its mover (a verb
    /// phrase: `plays d4-d6`, `passes`, `draws a tile`); `None`: nothing
    /// (a deal).
    fn tell(s: &Self::State, m: Self::Move, viewer: usize) -> Option<String> {
        let _ = viewer;
        match (Self::next(s), Self::text(m)) {
            (Next::Chance, _) => None,
            (_, t) if t == "pass" => Some("passes".to_string()),
            (_, t) => Some(format!("plays {t}")),
        }
    }
    /// The seat a chance outcome of `s` concerns (the drawer of a draw),
    /// `None` for none (a deal).
    fn chance_seat(_s: &Self::State) -> Option<usize> {
        None
    }
    /// A line of news between `before` and `after` (a round's end), for everyone.
    fn news(_before: &Self::State, _after: &Self::State) -> Option<String> {
        None
    }
    /// The board as `viewer` may see it (terminal colours if `colour`),
    /// ending with a newline.
    fn board(s: &Self::State, viewer: usize, colour: bool) -> String;
    /// What the board's marks mean, ending with a newline.
    fn legend() -> &'static str;
    /// The forms of a move, for `help`.
    fn move_forms() -> &'static str;
    /// The result line of a state (over or not).
    fn result(s: &Self::State) -> String;
    /// The body of a record of the game from `start` through `moves`, as
    /// `senat replay` reads it (the start, then one move per line).
    fn record(start: &Self::State, moves: &[Self::Move]) -> String;
}

/// Reads one typed line into `line` (its bytes read: 0 at the end of the
/// input), at most [`crate::limits::MAX_LINE_BYTES`] and UTF-8; otherwise
/// [`PlayError::Read`], saying where without repeating the line.
fn read_command(input: &mut dyn BufRead, line: &mut String) -> Result<usize, PlayError> {
    use std::io::Read;
    const MAX: usize = crate::limits::MAX_LINE_BYTES;
    line.clear();
    let mut bytes = Vec::new();
    let n = input.take(MAX as u64 + 1).read_until(b'\n', &mut bytes).map_err(|e| PlayError::Read(e.to_string()))?;
    if bytes.len() > MAX && !bytes.ends_with(b"\n") {
        return Err(PlayError::Read(format!("a line longer than the {MAX} bytes accepted")));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        PlayError::Read(format!("not UTF-8 text (invalid byte at offset {} of the line)", e.utf8_error().valid_up_to()))
    })?;
    line.push_str(&text);
    Ok(n)
}

/// Why a session stopped before its end.
#[derive(Debug)]
pub enum PlayError {
    /// Writing the output failed.
    Io(std::io::Error),
    /// The input cannot be read, or a line of it is not a command: not
    /// UTF-8, or longer than [`crate::limits::MAX_LINE_BYTES`] (the message
    /// does not repeat it).
    Read(String),
    /// An engine chose a move the rules refuse.
    Engine {
        /// The engine's spec text.
        engine: String,
        /// The move.
        text: String,
        /// The rules' message.
        message: String,
    },
    /// A chance state of a game that has no chance outcome.
    NoChance,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Io(e) => write!(f, "terminal: {e}"),
            PlayError::Read(why) => write!(f, "cannot read the input: {why}"),
            PlayError::Engine { engine, text, message } => {
                write!(f, "the engine {engine} chose an illegal move {text}: {message}")
            }
            PlayError::NoChance => f.write_str("a chance state in a game without chance"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<std::io::Error> for PlayError {
    fn from(e: std::io::Error) -> PlayError {
        PlayError::Io(e)
    }
}

/// Why a session cannot start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// `--engine` is not an agent of the game.
    Engine(String),
    /// `--as` names no seat of the game.
    Seat {
        /// The text given.
        text: String,
        /// The seats, as accepted.
        seats: String,
    },
    /// The start is over: there is nothing to play.
    Over(String),
    /// The engine's table: memory the system refused.
    Table(TableError),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Engine(e) => write!(f, "--engine: {e}"),
            SetupError::Seat { text, seats } => write!(f, "--as {}: not a seat of this game ({seats})", escape(text)),
            SetupError::Over(r) => write!(f, "--from: the game is already over ({r})"),
            SetupError::Table(e) => write!(f, "--engine: {e}"),
        }
    }
}

impl std::error::Error for SetupError {}

/// The seat `text` names in `s`: a seat's name (its first word, or its
/// first letter when no two seats share it) or its number.
pub fn seat_of<T: Table>(s: &T::State, text: &str) -> Result<usize, SetupError> {
    let n = T::seats(s);
    let t = text.trim().to_ascii_lowercase();
    let names: Vec<String> = (0..n).map(|p| T::seat_name(s, p)).collect();
    let word = |p: usize| names[p].split_whitespace().next().unwrap_or("").to_ascii_lowercase();
    let found = (0..n).find(|&p| names[p].to_ascii_lowercase() == t || word(p) == t).or_else(|| {
        let by_number = t.parse::<usize>().ok().filter(|&p| p < n);
        let initials: Vec<usize> = (0..n).filter(|&p| t.len() == 1 && word(p).starts_with(&t)).collect();
        by_number.or((initials.len() == 1).then(|| initials[0]))
    });
    found.ok_or_else(|| SetupError::Seat {
        text: text.to_string(),
        seats: format!("{}, or 0 to {}", names.join(", "), n - 1),
    })
}

/// The seed of a session's chance (deals and draws), from its `--seed`:
/// what a test replays to know the deal.
pub fn chance_seed(seed: u64) -> u64 {
    crate::selfplay::game_seed(seed, 3)
}

/// The key that sorts move texts as people read them: numbers by value
/// (`g2` before `g10`, `S9` before `S10`), the rest by character.
pub fn natural_key(text: &str) -> String {
    let mut key = String::new();
    let mut digits = String::new();
    for c in text.chars().chain(std::iter::once('\0')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            key.push_str(&format!("{digits:0>6}"));
            digits.clear();
        }
        if c != '\0' {
            key.push(c);
        }
    }
    key
}

/// `text` broken at spaces into lines of at most `width` characters, the
/// lines after the first indented by `indent`, each ending with `\n`.
pub fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let fresh = line.trim().is_empty();
        if !fresh && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line = indent.to_string();
        } else if !fresh {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// `texts` in columns that fit `width` characters, a two-space margin
/// before each line, filled down the columns (each line ends with `\n`).
pub fn columns(texts: &[String], width: usize) -> String {
    if texts.is_empty() {
        return String::new();
    }
    let cell = texts.iter().map(|t| t.chars().count()).max().unwrap_or(1) + 2;
    let cols = ((width.saturating_sub(2)) / cell).clamp(1, texts.len());
    let rows = texts.len().div_ceil(cols);
    let mut out = String::new();
    for r in 0..rows {
        let mut line = String::from("  ");
        for c in 0..cols {
            if let Some(t) = texts.get(c * rows + r) {
                line.push_str(&format!("{t:<cell$}"));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The settings of a session.
pub struct Setup<T: Table> {
    /// The start.
    pub start: T::State,
    /// The person's seat.
    pub human: usize,
    /// The engines' spec text (as typed).
    pub engine: String,
    /// The engines' spec.
    pub spec: T::Spec,
    /// The seed of the engines' choices and of chance.
    pub seed: u64,
    /// Terminal colours.
    pub colour: bool,
    /// Whether typed lines are written back (input that is not a terminal).
    pub echo: bool,
    /// The command line that started the session, for a saved record's header.
    pub title: String,
}

/// One session of terminal play: the person at one seat, an engine of one
/// spec at every other seat.
pub struct Session<T: Table> {
    states: Vec<T::State>,
    moves: Vec<T::Move>,
    human: usize,
    engine_name: String,
    engines: Vec<Option<Box<dyn Agent<T>>>>,
    hinter: Box<dyn Agent<T>>,
    rng: GameRng,
    hint_rng: GameRng,
    chance_rng: GameRng,
    colour: bool,
    echo: bool,
    title: String,
    seed: u64,
    /// The board was shown for the current state.
    shown: bool,
    told_result: bool,
}

/// The commands, after the game's move forms.
const COMMANDS: &str = "\
  moves       list your legal moves
  hint        the engine's suggestion for you
  undo        take back your last move and the engines' replies
  board       show the board again
  legend      what the board's marks mean
  save FILE   write the game as a record (`senat replay`); `save! FILE` overwrites
  quit        end the session (also end of input)
  help        this list";

impl<T: Table> Session<T> {
    /// A session from `setup`, or why it cannot start.
    pub fn new(setup: Setup<T>) -> Result<Session<T>, SetupError> {
        let seats = T::seats(&setup.start);
        if setup.human >= seats {
            let names: Vec<String> = (0..seats).map(|p| T::seat_name(&setup.start, p)).collect();
            return Err(SetupError::Seat { text: setup.human.to_string(), seats: names.join(", ") });
        }
        if T::next(&setup.start) == Next::Over {
            return Err(SetupError::Over(T::result(&setup.start)));
        }
        let build = || -> Result<Box<dyn Agent<T>>, SetupError> {
            let mut a = T::build(&setup.spec).map_err(SetupError::Table)?;
            a.new_game();
            Ok(a)
        };
        let engines = (0..seats).map(|p| (p != setup.human).then(build).transpose()).collect::<Result<_, _>>()?;
        let hinter = build()?;
        Ok(Session {
            states: vec![setup.start],
            moves: Vec::new(),
            human: setup.human,
            engine_name: setup.engine,
            engines,
            hinter,
            rng: rng_from_seed(setup.seed),
            hint_rng: rng_from_seed(crate::policy::mix64(setup.seed ^ 0x6869_6e74)),
            chance_rng: rng_from_seed(chance_seed(setup.seed)),
            colour: setup.colour,
            echo: setup.echo,
            title: setup.title,
            seed: setup.seed,
            shown: false,
            told_result: false,
        })
    }

    fn now(&self) -> &T::State {
        self.states.last().expect("a session has its start")
    }

    fn name(&self, seat: usize) -> String {
        T::seat_name(self.now(), seat)
    }

    fn push(&mut self, m: T::Move) {
        let after = T::apply(self.now(), m);
        self.states.push(after);
        self.moves.push(m);
        self.shown = false;
    }

    fn show(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        out.write_all(T::board(self.now(), self.human, self.colour).as_bytes())?;
        self.shown = true;
        Ok(())
    }

    /// Plays chance and the engines until the person decides or the game
    /// ends, telling each ply in one line.
    fn advance(&mut self, out: &mut dyn Write) -> Result<(), PlayError> {
        loop {
            let s = self.now().clone();
            let m = match T::next(&s) {
                Next::Over => return Ok(()),
                Next::Decide(p) if p == self.human => return Ok(()),
                Next::Chance => T::chance(&s, &mut self.chance_rng).ok_or(PlayError::NoChance)?,
                Next::Decide(p) => {
                    let engine = self.engines[p].as_mut().expect("an engine at every other seat");
                    let m = engine.choose(&T::view(&s, p), &mut self.rng);
                    if let Err(message) = T::parse(&s, &T::text(m)) {
                        return Err(PlayError::Engine { engine: self.engine_name.clone(), text: T::text(m), message });
                    }
                    m
                }
            };
            self.tell(&s, m, out)?;
        }
    }

    /// Plays `m` in `s` (the current state) and tells the person: the
    /// others' decisions and chance outcomes in one line each (the
    /// person's own decisions were typed).
    fn tell(&mut self, s: &T::State, m: T::Move, out: &mut dyn Write) -> std::io::Result<()> {
        let chance = T::next(s) == Next::Chance;
        let mover = match T::next(s) {
            Next::Decide(p) => Some(p),
            Next::Chance => T::chance_seat(s),
            Next::Over => None,
        };
        if let (Some(p), Some(what)) = (mover, T::tell(s, m, self.human))
            && (chance || p != self.human)
        {
            let who = if p == self.human {
                format!("{} (you)", self.name(p))
            } else if chance {
                self.name(p)
            } else {
                format!("{} ({})", self.name(p), self.engine_name)
            };
            writeln!(out, "{who} {what}")?;
        }
        self.push(m);
        if let Some(news) = T::news(s, self.now()) {
            writeln!(out, "{news}")?;
        }
        Ok(())
    }

    /// Back to the last state where the person decided, before that decision.
    fn undo(&mut self) -> Option<usize> {
        let ply = (0..self.moves.len()).rev().find(|&i| T::next(&self.states[i]) == Next::Decide(self.human))?;
        self.states.truncate(ply + 1);
        self.moves.truncate(ply);
        for e in self.engines.iter_mut().flatten() {
            e.new_game();
        }
        self.shown = false;
        self.told_result = false;
        Some(ply)
    }

    fn record_text(&self) -> String {
        let start = &self.states[0];
        let mut s = format!(
            "# {}\n# you: {}; the others: {}; seed {}\n# {}\n",
            self.title,
            self.name(self.human),
            self.engine_name,
            self.seed,
            T::result(self.now())
        );
        s.push_str(&T::record(start, &self.moves));
        s
    }

    fn save(&self, path: &str, force: bool) -> Result<(), String> {
        if T::HIDDEN && T::next(self.now()) != Next::Over {
            return Err("a record shows every hidden tile: it can be saved once the game is over".into());
        }
        let shown = escape(path);
        let if_exists = if force { IfExists::Overwrite } else { IfExists::Refuse { resumable: false } };
        let mut file = OutFile::create(Path::new(path), if_exists).map_err(|e| {
            let e = escape(&e.to_string());
            if e.contains("exists") { format!("{shown} already exists; use `save!` to overwrite it") } else { e }
        })?;
        file.write_all(self.record_text().as_bytes()).map_err(|e| escape(&format!("{shown}: {e}")))?;
        file.commit().map_err(|e| escape(&e.to_string()))
    }

    fn help(&self) -> String {
        let commands: String = COMMANDS
            .lines()
            .map(str::trim)
            .filter(|l| !(T::HIDDEN && l.starts_with("undo")))
            .map(|l| format!("  {l}\n"))
            .collect();
        format!("commands:\n  <move>      play a move:\n              {}\n{commands}", T::move_forms())
    }

    /// Runs the session to its end: `quit`, or the end of `input`.
    pub fn run(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), PlayError> {
        writeln!(
            out,
            "you are {}; the engine ({}) plays {}. Type a move, or `help`.",
            self.name(self.human),
            self.engine_name,
            self.others()
        )?;
        out.write_all(T::legend().as_bytes())?;
        let mut line = String::new();
        loop {
            self.advance(out)?;
            if T::next(self.now()) == Next::Over {
                if !self.told_result {
                    if !self.shown {
                        self.show(out)?;
                    }
                    writeln!(out, "game over: {}", T::result(self.now()))?;
                    self.told_result = true;
                }
            } else if !self.shown {
                self.show(out)?;
            }
            write!(out, "{}> ", self.name(self.human))?;
            out.flush()?;
            if read_command(input, &mut line)? == 0 {
                writeln!(out, "\nend of input: bye")?;
                return Ok(());
            }
            let text = line.trim();
            if self.echo {
                // A transcript of a piped session shows what was typed.
                writeln!(out, "{}", escape(text))?;
            }
            if !self.command(text, out)? {
                return Ok(());
            }
        }
    }

    fn others(&self) -> String {
        let n = T::seats(self.now());
        let v: Vec<String> = (0..n).filter(|&p| p != self.human).map(|p| self.name(p)).collect();
        v.join(", ")
    }

    /// Runs one typed line; `false` when the session ends.
    fn command(&mut self, text: &str, out: &mut dyn Write) -> Result<bool, PlayError> {
        let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let rest = rest.trim();
        let over = T::next(self.now()) == Next::Over;
        let result = || T::result(self.now());
        match word {
            "" => {}
            "help" | "?" => write!(out, "{}", self.help())?,
            "legend" => out.write_all(T::legend().as_bytes())?,
            "quit" | "exit" => {
                writeln!(out, "bye")?;
                return Ok(false);
            }
            "board" | "show" => self.show(out)?,
            "moves" if over => writeln!(out, "no moves: the game is over ({})", result())?,
            "moves" => {
                let mut v: Vec<String> = T::legal(self.now()).into_iter().map(T::text).collect();
                v.sort_by_cached_key(|t| natural_key(t));
                writeln!(out, "{} legal move{}:", v.len(), if v.len() == 1 { "" } else { "s" })?;
                out.write_all(columns(&v, 80).as_bytes())?;
            }
            "hint" if over => writeln!(out, "no hint: the game is over ({})", result())?,
            "hint" => {
                let s = self.now().clone();
                let m = self.hinter.choose(&T::view(&s, self.human), &mut self.hint_rng);
                writeln!(out, "hint ({}): {}", self.engine_name, T::text(m))?;
            }
            "undo" if T::HIDDEN => writeln!(out, "no undo in this game: it would draw hidden tiles again")?,
            "undo" => match self.undo() {
                Some(ply) => writeln!(out, "undone: back to ply {ply}")?,
                None => writeln!(out, "nothing to undo: you have not moved yet")?,
            },
            "save" | "save!" if rest.is_empty() => writeln!(out, "save what? `save FILE`")?,
            "save" | "save!" => match self.save(rest, word == "save!") {
                Ok(()) => writeln!(out, "saved {} moves to {}", self.moves.len(), escape(rest))?,
                Err(e) => writeln!(out, "not saved: {e}")?,
            },
            _ if over => {
                let undo = if T::HIDDEN { "" } else { "`undo`, " };
                writeln!(out, "the game is over ({}); {undo}`save FILE` or `quit`", result())?
            }
            _ => {
                let s = self.now().clone();
                match T::parse(&s, text) {
                    Err(e) => {
                        // A rules message that names the text already is not made to say it twice.
                        let e = e.strip_prefix(&format!("`{text}`: ")).unwrap_or(&e);
                        writeln!(out, "`{}`: {} (`help` lists the commands)", escape(text), escape(e))?
                    }
                    Ok(m) => self.tell(&s, m, out)?,
                }
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::LabGame;
    use crate::games::toy::Nim;

    fn run(start: &str, script: &str, human: usize) -> String {
        let start = <Nim as LabGame>::parse_position(start).unwrap();
        let spec = <Nim as Table>::spec("greedy").unwrap();
        let setup = Setup {
            start,
            human,
            engine: "greedy".into(),
            spec,
            seed: 1,
            colour: false,
            echo: true,
            title: "t".into(),
        };
        let mut s = Session::<Nim>::new(setup).unwrap();
        let mut out = Vec::new();
        s.run(&mut script.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_engine_is_told_and_the_board_shown_once_per_turn() {
        let out = run("nim:2:10:0:0", "t9\nt1\nundo\nt2\nquit\nt3\n", 0);
        assert!(out.contains("a> t9\n`t9`: not a legal take (`help` lists the commands)\na> "), "{out}");
        assert!(out.contains("b (greedy) plays t"), "{out}");
        let undone = &out[out.find("undone: back to ply 0\n").expect("undone")..];
        assert!(undone.starts_with("undone: back to ply 0\npile 10\na> "), "{out}");
        // Boards: the start, after the engine's reply, after undo, after the second reply.
        assert_eq!(out.matches("pile ").count(), 4, "{out}");
        assert!(out.ends_with("a> quit\nbye\n"), "quit ends the session, later lines are not read: {out}");
    }

    #[test]
    fn a_finished_game_says_its_result_once_and_refuses_moves() {
        // Pile 2, b to move (the engine): it takes both and wins.
        let out = run("nim:2:2:1:0", "t1\nmoves\nhint\nundo\n", 0);
        assert!(out.contains("b (greedy) plays t2\npile 0\ngame over: b wins after 1 plies\na> "), "{out}");
        assert!(out.contains("a> t1\nthe game is over (b wins after 1 plies); `undo`, `save FILE` or `quit`"), "{out}");
        assert!(out.contains("no moves: the game is over"), "{out}");
        assert!(out.contains("no hint: the game is over"), "{out}");
        assert!(out.contains("nothing to undo: you have not moved yet"), "{out}");
        assert_eq!(out.matches("game over: ").count(), 1, "{out}");
        assert!(out.ends_with("\nend of input: bye\n"), "{out}");
    }

    #[test]
    fn an_ended_start_is_refused() {
        let refusal = |position: &str, human: usize| {
            let setup = Setup {
                start: <Nim as LabGame>::parse_position(position).unwrap(),
                human,
                engine: "random".into(),
                spec: <Nim as Table>::spec("random").unwrap(),
                seed: 1,
                colour: false,
                echo: false,
                title: "t".into(),
            };
            Session::<Nim>::new(setup).err().expect("refused").to_string()
        };
        let e = refusal("nim:2:0:1:4", 0);
        assert!(e.starts_with("--from: the game is already over ("), "{e}");
        let e = refusal("nim:2:5:0:0", 2);
        assert_eq!(e, "--as 2: not a seat of this game (a, b)");
        assert!(<Nim as Table>::spec("nobody").is_err());
    }

    #[test]
    fn numbers_sort_by_value() {
        let mut v = vec!["g10", "g2", "S10>S9", "S9>S10", "17@M13=Sb", "3@S1=Tr", "pass"];
        v.sort_by_cached_key(|t| natural_key(t));
        assert_eq!(v, ["3@S1=Tr", "17@M13=Sb", "S9>S10", "S10>S9", "g2", "g10", "pass"]);
    }

    #[test]
    fn moves_fill_columns_down_within_the_width() {
        let v: Vec<String> = ["a1", "b22", "c3", "d4", "e5"].iter().map(|s| s.to_string()).collect();
        assert_eq!(columns(&v, 17), "  a1   c3   e5\n  b22  d4\n");
        assert_eq!(columns(&v, 3), "  a1\n  b22\n  c3\n  d4\n  e5\n", "one column at least");
        assert_eq!(columns(&[], 80), "");
        let many: Vec<String> = (0..132).map(|i| format!("{i}@M13=Sb")).collect();
        let text = columns(&many, 80);
        assert!(text.lines().all(|l| l.chars().count() <= 80) && text.lines().count() < 30, "{text}");
        assert_eq!(text.split_whitespace().count(), 132);
    }
}
