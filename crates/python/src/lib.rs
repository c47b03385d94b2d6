//! The `senat` Python package: every game of the lab (Sénat, Focus with 2
//! or 4 players, Débâcle, block dominoes, Connect Four) from Python, on
//! the same engines as the `senat` command line.
//!
//! What lives here: `Position` (a position read from the texts the
//! command line reads and prints, its legal moves, moves played, the
//! result, perft, `solve` and `analyze` through the catalog's functions),
//! `Agent` and `bestmove` (agents named by the lab's one spec grammar),
//! `selfplay` and `arena` (the lab's batch runner and arena, writing the
//! same files as the command line), `VecEnv` (N games stepped at once),
//! `read_games` and `read_identity` (a batch file read back), and the
//! exception `Error`, which carries the lab's one-line messages.
//!
//! What this module must never do: encode a rule, choose a move or write a
//! file itself. It converts Python values to the lab's and back and calls
//! the lab (or, for dominoes texts, the rules crate, as the command line
//! does); a game's verb the lab does not offer raises `Error` with the
//! reason. No input from Python may make it panic.
#![deny(missing_docs)]

use dominoes_rules::Variant as DominoVariant;
use game_search::rng::{GameRng, rng_from_seed};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use senat_lab::catalog;
use senat_lab::games::dominoes::{DominoSpec, Dominoes};
use senat_lab::games::{GameKind, LabGame};
use senat_lab::policy::PolicySpec;
use senat_lab::selfplay::{Existing, Shard};
use senat_rules::Variant as SenatVariant;
use std::fmt::Display;
use std::path::PathBuf;
use std::sync::Mutex;

mod vec_env;

pyo3::create_exception!(
    senat,
    Error,
    pyo3::exceptions::PyValueError,
    "A refusal of the lab: a bad game name, variant, position, move or agent spec, a verb a game does not \
     offer, or a batch that cannot run. Its message is the lab's one line, as `senat` prints it after \
     `senat: error: `."
);

/// The refusal `msg` as a Python [`Error`]; a lab message that names the
/// command line's `--variant` names the Python argument `variant`
/// instead, and one that sends to `--help` sends to the agents' page.
fn err(msg: impl Display) -> PyErr {
    let msg = msg.to_string().replace("see --help", "see docs/agents.md");
    match msg.strip_prefix("--variant:") {
        Some(rest) => Error::new_err(format!("variant:{rest}")),
        None => Error::new_err(msg),
    }
}

/// `r` with its error as a Python [`Error`].
fn lab<T, E: Display>(r: Result<T, E>) -> PyResult<T> {
    r.map_err(err)
}

/// The whole number `value` of the Python argument `name` as a `T`
/// (`u64`, `u32`, `usize`): a negative or too large one raises
/// `senat.Error` (a `ValueError`) naming the argument, instead of the bare
/// `OverflowError` an unsigned parameter would raise.
fn whole<T: TryFrom<i128>>(name: &str, value: i128) -> PyResult<T> {
    if value < 0 {
        return Err(err(format_args!("{name}={value}: expected a whole number ≥ 0")));
    }
    T::try_from(value).map_err(|_| err(format_args!("{name}={value}: too large")))
}

/// [`whole`] of an optional argument.
fn whole_opt<T: TryFrom<i128>>(name: &str, value: Option<i128>) -> PyResult<Option<T>> {
    value.map(|v| whole(name, v)).transpose()
}

/// The game named `game` (`senat`, `focus`, `focus4`, `debacle`, `dominoes`, `connect4`).
fn kind(game: &str) -> PyResult<GameKind> {
    lab(GameKind::parse(game))
}

/// Sénat's variant of `text` (the command line's `--variant`).
fn senat_variant(text: &str) -> PyResult<SenatVariant> {
    let v = SenatVariant::parse(text).map_err(|e| err(format_args!("variant: {e}")))?;
    senat_lab::games::senat::unswapped(
        v,
        "the Python package's environments and wrappers (OpenSpiel, PettingZoo) are not checked for seats yet",
    )
    .map_err(|e| err(format_args!("variant: {e}")))
}

/// Dominoes' variant of `text` (players in it: `players=3`).
fn domino_variant(text: &str) -> PyResult<DominoVariant> {
    DominoVariant::parse(text).map_err(|e| err(format_args!("variant `{text}`: {e}")))
}

/// What `pickle` stores of a position: the game, the start text, the
/// variant and the moves since (see `Position.__reduce__`).
type Replay = (String, String, String, Vec<String>);

/// A position of one of the lab's games, immutable: `play` returns a
/// new one.
///
/// `Position(game, text="start", variant="")` reads `text` as the command
/// line reads a position (`senat show --game GAME TEXT`): `start` (with
/// `variant`, the command line's `--variant`), for Sénat also `sample` or
/// an SPN, for the other games their position text, for dominoes a full
/// state or an observation text. `str(p)` (and `p.text`) is the text
/// `senat show` prints on its last line, which reads back the same
/// position (a Sénat SPN in the variant it was read in).
#[pyclass(frozen, module = "senat")]
#[derive(Clone, Debug)]
struct Position(catalog::Position);

#[pymethods]
impl Position {
    /// Reads a position: `text` as `senat show --game GAME` reads it
    /// (`start`, with `variant` as `--variant`; Sénat also `sample` or an
    /// SPN; dominoes a full state or an observation). Raises `senat.Error`
    /// with the command line's message when it cannot be read.
    #[new]
    #[pyo3(signature = (game, text = "start", variant = ""))]
    fn new(game: &str, text: &str, variant: &str) -> PyResult<Position> {
        lab(catalog::Position::read(kind(game)?, text, variant)).map(Position)
    }

    /// The start of `game` with the variant options `variant` (the command
    /// line's `--variant`; dominoes' players too: `players=3`).
    #[staticmethod]
    #[pyo3(signature = (game, variant = ""))]
    fn start(game: &str, variant: &str) -> PyResult<Position> {
        Position::new(game, "start", variant)
    }

    /// The game's name (`senat`, `focus`, `focus4`, `debacle`, `dominoes`, `connect4`).
    #[getter]
    fn game(&self) -> &'static str {
        self.0.game().name()
    }

    /// The position text: the last line of `senat show` (a Sénat SPN, the
    /// other games' position text, a dominoes state or observation text).
    #[getter]
    fn text(&self) -> String {
        self.0.text()
    }

    /// The variant options of the position's rules, as `variant=` reads
    /// them (empty: the rules as written).
    #[getter]
    fn variant(&self) -> String {
        self.0.variant()
    }

    /// The board as `senat show --plain` draws it (without the text line);
    /// dominoes has no board drawing in the lab and raises `senat.Error`.
    #[getter]
    fn board(&self) -> PyResult<String> {
        lab(self.0.board())
    }

    /// The board picture as SVG text, as `senat render` draws it (a
    /// dominoes state with every hand face up, an observation as its
    /// observer sees it).
    fn picture(&self) -> PyResult<String> {
        lab(self.0.picture(None, None))
    }

    /// The board picture as pixels: a NumPy array of shape (height, width,
    /// 3), `uint8` red, green, blue (PettingZoo's `render_mode="rgb_array"`).
    fn picture_rgb<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
        use numpy::PyArrayMethods;
        let (w, h, px) = lab(self.0.picture_rgb())?;
        numpy::PyArray1::from_vec(py, px).reshape([h as usize, w as usize, 3])
    }

    /// The legal moves in move text, sorted by byte order (`senat moves`).
    /// A Sénat game that is over (by repetition too) has none. At a
    /// dominoes chance node (a deal or a draw) they are the chance
    /// outcomes (see `chance_outcomes` for their probabilities); for an
    /// observation, the observer's decisions.
    fn legal_moves(&self) -> Vec<String> {
        self.0.legal_moves()
    }

    /// Dominoes at a chance node: each outcome (a dealt or drawn tile) in
    /// move text with its probability, in the rules' order (`senat moves
    /// --game dominoes` prints them so); empty at a decision and for every
    /// other game.
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        self.0.chance_outcomes()
    }

    /// Whether the next move is chance's (a dominoes deal or draw).
    #[getter]
    fn is_chance(&self) -> bool {
        self.0.is_chance()
    }

    /// The position after `move` (a move text, as `legal_moves` writes
    /// them; for dominoes a chance outcome too), a new `Position`; this
    /// one is unchanged. Raises `senat.Error` for an unreadable or illegal
    /// move, a move once the game is over, or an observation.
    #[pyo3(signature = (r#move))]
    fn play(&self, r#move: &str) -> PyResult<Position> {
        lab(self.0.play(r#move)).map(Position)
    }

    /// Whether the game (the match, for dominoes) is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// The result in one line, as `senat replay` ends: who won and why, or
    /// a draw, or that the game goes on and who is to move.
    #[getter]
    fn result(&self) -> String {
        self.0.result()
    }

    /// The winner of a finished game: Sénat's side (`red`, `blue`), the
    /// seats of the winning team (`white`, `south and north`), dominoes'
    /// `player N`; `None` while the game goes on, for a draw, and for an
    /// observation.
    #[getter]
    fn winner(&self) -> Option<String> {
        self.0.winner()
    }

    /// Who is to move: Sénat's side, the other games' seat name, dominoes'
    /// `player N` (`chance` at a deal or draw); `None` once the game is over.
    #[getter]
    fn to_move(&self) -> Option<String> {
        self.0.to_move()
    }

    /// Dominoes: the observation of `seat` (a player number; default the
    /// player to move), as its agents see it, a new `Position`. Raises
    /// `senat.Error` for the other games (perfect information: an agent
    /// sees the position) and for an observation.
    #[pyo3(signature = (seat = None))]
    fn observation(&self, seat: Option<i128>) -> PyResult<Position> {
        lab(self.0.observation(whole_opt("seat", seat)?)).map(Position)
    }

    /// Dominoes: a full state drawn uniformly among those player `seat`
    /// cannot tell from this one (the hidden hands and boneyard dealt anew,
    /// consistently with all `seat` has seen), from a full state or from
    /// `seat`'s observation, its randomness from `seed`; a new `Position`
    /// (what OpenSpiel's `resample_from_infostate` gives). Raises
    /// `senat.Error` for the games of perfect information.
    #[pyo3(signature = (seat, seed = 1))]
    fn resample(&self, seat: i128, seed: i128) -> PyResult<Position> {
        let mut rng = rng_from_seed(whole("seed", seed)?);
        let mut next = || rand::Rng::next_u64(&mut rng);
        lab(self.0.resample(whole("seat", seat)?, &mut next)).map(Position)
    }

    /// Leaves of the move tree `depth` plies below (`senat perft --depth`,
    /// bulk counting at the last ply as the command line does; 0 counts the
    /// position itself); dominoes counts chance outcomes too and needs a
    /// full state. The count runs without the interpreter's lock.
    fn perft(&self, py: Python<'_>, depth: i128) -> PyResult<u64> {
        let depth = lab(senat_lab::limits::depth("depth", whole("depth", depth)?, 0))?;
        lab(py.detach(|| self.0.perft(depth)))
    }

    /// The move of the agent `spec` here, as `senat bestmove --agent SPEC
    /// --seed SEED` chooses it (a Sénat position played through the package
    /// keeps its repetition history, as `--history` does).
    #[pyo3(signature = (spec, seed = 1))]
    fn bestmove(&self, py: Python<'_>, spec: &str, seed: i128) -> PyResult<String> {
        let seed: u64 = whole("seed", seed)?;
        let mut agent = lab(catalog::Agent::new(self.0.game(), spec))?;
        let mut rng = rng_from_seed(seed);
        lab(py.detach(|| agent.choose(&self.0, &mut rng)))
    }

    /// The exact verdict here, as `senat solve --game GAME` finds it (the
    /// catalog's one solve): for every game but Sénat and dominoes the
    /// exact solver to `max_depth` plies (by default the game's own bound,
    /// where its rules have one), on `threads` threads with a table of
    /// `tt_mb` MiB, stopped after `time` seconds if given; for dominoes the
    /// proof over the information set of the player to decide (a horizon
    /// is needed). Returns a dict: `depth`, and `verdict` (`win`, `loss`,
    /// `draw` or `unknown`, for the side to move), `plies`, `text` (the
    /// command's words), `line`, `nodes`, `seconds`, `timed_out`; with
    /// `each_move`, `moves` instead: one such dict per legal move, with its
    /// `move`. Dominoes: `observation`, `states`, `text` (or `moves` with
    /// `move` and `text`), `seconds`. Sénat's solve is the command's own
    /// and is refused here. Runs without the interpreter's lock.
    #[pyo3(signature = (max_depth = None, time = None, each_move = false, threads = 1, tt_mb = 256))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        max_depth: Option<i128>,
        time: Option<f64>,
        each_move: bool,
        threads: i128,
        tt_mb: i128,
    ) -> PyResult<Bound<'py, PyDict>> {
        use catalog::solve::{Answer, Proved, Request, solve, verdict_text};
        let max_depth = whole_opt::<u32>("max_depth", max_depth)?;
        let threads = lab(senat_lab::limits::threads("threads", whole("threads", threads)?))?;
        let threads = std::num::NonZeroUsize::new(threads).ok_or_else(|| err("threads=0: give at least 1 thread"))?;
        let tt_mb = whole::<usize>("tt_mb", tt_mb)?;
        let time = time.map(|t| senat_lab::limits::seconds("time", t)).transpose().map_err(err)?;
        let answer = lab(py.detach(|| {
            let request = Request { max_depth, tt_mb, threads, time, each_move, ..Request::default() };
            solve(&self.0, request)
        }))?;
        let d = PyDict::new(py);
        let proved = |d: &Bound<'py, PyDict>, p: &Proved, depth: u32| -> PyResult<()> {
            use game_search::solver::Verdict;
            let (verdict, plies) = match p.verdict {
                Verdict::Win(n) => ("win", Some(n)),
                Verdict::Loss(n) => ("loss", Some(n)),
                Verdict::Draw(n) => ("draw", Some(n)),
                Verdict::Unknown => ("unknown", None),
            };
            d.set_item("verdict", verdict)?;
            d.set_item("plies", plies)?;
            d.set_item("text", verdict_text(p.verdict, depth))?;
            d.set_item("line", p.line.clone())?;
            d.set_item("nodes", p.nodes)?;
            d.set_item("seconds", p.elapsed.as_secs_f64())?;
            d.set_item("timed_out", p.timed_out)
        };
        match answer {
            Answer::Exact { depth, root, moves, .. } => {
                d.set_item("depth", depth)?;
                if let Some(root) = root {
                    proved(&d, &root, depth)?;
                } else {
                    let mut each = Vec::new();
                    for (m, p) in &moves {
                        let e = PyDict::new(py);
                        e.set_item("move", m)?;
                        proved(&e, p, depth)?;
                        each.push(e);
                    }
                    d.set_item("moves", each)?;
                }
            }
            Answer::Observation { observation, root, states, moves, elapsed } => {
                d.set_item("observation", observation)?;
                d.set_item("states", states)?;
                d.set_item("seconds", elapsed.as_secs_f64())?;
                match root {
                    Some(root) => d.set_item("text", root)?,
                    None => {
                        let mut each = Vec::new();
                        for (m, v) in moves {
                            let e = PyDict::new(py);
                            e.set_item("move", m)?;
                            e.set_item("text", v)?;
                            each.push(e);
                        }
                        d.set_item("moves", each)?;
                    }
                }
            }
        }
        Ok(d)
    }

    /// The engine's analysis here, as `senat analyze --game GAME` prints it
    /// (the catalog's one analysis; Sénat's alpha-beta only, its MCTS
    /// analysis being the command's own; not dominoes): `engine="ab"`, alpha-beta on the
    /// game's evaluation to `depth` (default 4, or 64 with a `time`), with
    /// a table of `tt_mb` MiB; `engine="mcts"`, `playouts` (default 10,000)
    /// with exploration `c`, a tree of at most `memory_mb` MiB, proofs in
    /// the tree with `solve`, drawn from `seed`. `multipv`: that many best
    /// moves with their lines. Returns a dict: `best`, `line`, `win` (the
    /// chance that the side to move wins, a draw counting half), `seat`,
    /// `lines` (dicts of `move`, `win`, `line`, and `score` or `visits`);
    /// alpha-beta adds `score`, `depth`, `nodes`; MCTS `playouts`,
    /// `value` and `moves` (each root move's `move`, `visits`, `value`);
    /// once the game is over, only `result`. Runs without the
    /// interpreter's lock.
    #[pyo3(signature = (engine = "ab", *, depth = None, playouts = None, time = None, multipv = None, seed = 1, tt_mb = 64, c = 1.0, memory_mb = 512, solve = true))]
    #[allow(clippy::too_many_arguments)] // the keywords of `senat analyze`
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        engine: &str,
        depth: Option<i128>,
        playouts: Option<i128>,
        time: Option<f64>,
        multipv: Option<i128>,
        seed: i128,
        tt_mb: i128,
        c: f64,
        memory_mb: i128,
        solve: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        use catalog::analyze::{Analysis, Engine, analyze};
        let engine = match engine {
            "ab" => Engine::AlphaBeta {
                depth: whole_opt("depth", depth)?,
                tt_mb: whole("tt_mb", tt_mb)?,
                threads: std::num::NonZeroUsize::MIN,
            },
            "mcts" => Engine::Mcts {
                playouts: whole_opt("playouts", playouts)?,
                c,
                memory_mb: whole("memory_mb", memory_mb)?,
                solve,
                seed: whole("seed", seed)?,
            },
            e => return Err(err(format!("engine={e:?}: the engines are \"ab\" and \"mcts\""))),
        };
        let multipv = whole_opt::<usize>("multipv", multipv)?;
        let time = time.map(|t| senat_lab::limits::seconds("time", t)).transpose().map_err(err)?;
        let analysis = lab(py.detach(|| analyze(&self.0, &engine, time, multipv)))?;
        let d = PyDict::new(py);
        match analysis {
            Analysis::Over(result) => d.set_item("result", result)?,
            Analysis::AlphaBeta { report, seat, win, lines, .. } => {
                d.set_item("best", report.best.clone())?;
                d.set_item("line", report.pv.clone())?;
                d.set_item("score", report.score)?;
                d.set_item("depth", report.depth)?;
                d.set_item("nodes", report.nodes)?;
                d.set_item("win", win.p())?;
                d.set_item("seat", seat)?;
                let each = lines.iter().map(|(m, score, win, pv)| (m.as_str(), win.p(), pv.as_slice(), *score));
                d.set_item("lines", line_dicts(py, "score", each)?)?;
            }
            Analysis::Mcts { report, seat, win, lines } => {
                d.set_item("best", report.best.clone())?;
                d.set_item("line", report.pv.clone())?;
                d.set_item("value", report.value())?;
                d.set_item("playouts", report.playouts)?;
                d.set_item("win", win.p())?;
                d.set_item("seat", seat)?;
                let mut moves = Vec::new();
                for (m, visits, value) in &report.moves {
                    let e = PyDict::new(py);
                    e.set_item("move", m)?;
                    e.set_item("visits", visits)?;
                    e.set_item("value", value)?;
                    moves.push(e);
                }
                d.set_item("moves", moves)?;
                let each = lines.iter().map(|(m, win, visits, pv)| (m.as_str(), win.p(), pv.as_slice(), *visits));
                d.set_item("lines", line_dicts(py, "visits", each)?)?;
            }
        }
        Ok(d)
    }

    /// The sizes of the integer encoding of the position's variant, the same
    /// for every position of a game started with it: a dict with `players`,
    /// `actions` (every decision id is below it), `chance_outcomes` (every
    /// chance outcome id is below it; 0 without chance), `max_plies` (the
    /// most plies, chance included, a game can last from its start, by the
    /// rules' caps) and `tensor_shape` (a list; `tensor()` has its product
    /// of values).
    fn encoding<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let e = self.0.encoding();
        let d = PyDict::new(py);
        d.set_item("players", e.players)?;
        d.set_item("actions", e.actions)?;
        d.set_item("chance_outcomes", e.chance_outcomes)?;
        d.set_item("max_plies", e.max_plies)?;
        d.set_item("tensor_shape", e.tensor_shape)?;
        Ok(d)
    }

    /// Who moves next as a number, as OpenSpiel numbers players: the
    /// player (Sénat's red 0 and blue 1; the other games' seats in
    /// `to_move`'s order, dominoes' `player N` N), -1 for chance (a
    /// dominoes deal or draw), -4 once the game is over.
    #[getter]
    fn current_player(&self) -> i64 {
        match self.0.mover() {
            catalog::Mover::Player(p) => p as i64,
            catalog::Mover::Chance => -1,
            catalog::Mover::Over => -4,
        }
    }

    /// The integer ids of the legal moves, ascending (at a chance node, of
    /// its outcomes): each id names one move the same way in every position
    /// of the variant (`action_text` gives its move text).
    fn legal_actions(&self) -> Vec<usize> {
        self.0.legal_actions()
    }

    /// At a chance node, each outcome's id with its probability, ascending;
    /// empty elsewhere.
    fn chance_actions(&self) -> Vec<(usize, f64)> {
        self.0.chance_actions()
    }

    /// The move text of the legal move (or chance outcome) of id `action`.
    /// Raises `senat.Error` for an id that is not legal here.
    fn action_text(&self, action: i128) -> PyResult<String> {
        lab(self.0.action_text(whole("action", action)?))
    }

    /// The position after the legal move (or chance outcome) of id
    /// `action`, a new `Position` (as `play` with its text). Raises
    /// `senat.Error` for an id that is not legal here.
    fn play_action(&self, action: i128) -> PyResult<Position> {
        lab(self.0.play_action(whole("action", action)?)).map(Position)
    }

    /// Each player's return, zero-sum: +1 for a winner (each partner of a
    /// winning team), -1 for a loser of a two-sided game (the others share
    /// -1: dominoes' three or four players get -1/2 or -1/3), 0 for a draw
    /// and while the game goes on.
    fn returns(&self) -> Vec<f64> {
        self.0.returns()
    }

    /// The position as `seat` sees it, a flat list of `encoding()
    /// ['tensor_shape']`'s product of floats: the whole position for the
    /// games of perfect information (the same for every seat), the seat's
    /// observation for dominoes. Raises `senat.Error` for a seat out of
    /// range (and, for a dominoes observation, another seat than its
    /// observer's).
    fn tensor(&self, seat: i128) -> PyResult<Vec<f32>> {
        lab(self.0.tensor(whole("seat", seat)?))
    }

    /// `tensor(seat)` as little-endian `float32` bytes, for
    /// `numpy.frombuffer(b, dtype="<f4")` without a list in between.
    fn tensor_bytes<'py>(&self, py: Python<'py>, seat: i128) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
        let t = lab(self.0.tensor(whole("seat", seat)?))?;
        let bytes: Vec<u8> = t.iter().flat_map(|x| x.to_le_bytes()).collect();
        Ok(pyo3::types::PyBytes::new(py, &bytes))
    }

    /// The same position (positions are immutable; a Sénat game keeps its
    /// history).
    fn clone(&self) -> Position {
        Clone::clone(self)
    }

    /// `copy.copy`: the same position.
    fn __copy__(&self) -> Position {
        Clone::clone(self)
    }

    /// `copy.deepcopy`: the same position (nothing in it is shared).
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Position {
        Clone::clone(self)
    }

    /// The position of `game` read from `text` with `variant`, then
    /// `moves` played (what `pickle` calls back: see `__reduce__`).
    #[staticmethod]
    fn _restore(game: &str, text: &str, variant: &str, moves: Vec<String>) -> PyResult<Position> {
        let mut p = lab(catalog::Position::read(kind(game)?, text, variant))?;
        for m in &moves {
            p = lab(p.play(m))?;
        }
        Ok(Position(p))
    }

    /// `pickle`: the game, the start text, the variant and the moves since
    /// (a Sénat game keeps its repetition history; every other position is
    /// its text).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Replay)> {
        let restore = py.get_type::<Position>().getattr("_restore")?;
        let (text, moves) = self.0.record();
        Ok((restore, (self.game().to_string(), text, self.variant(), moves)))
    }

    /// The position text.
    fn __str__(&self) -> String {
        self.text()
    }

    /// `senat.Position('GAME', 'TEXT')`.
    fn __repr__(&self) -> String {
        let v = self.variant();
        let v = if v.is_empty() || self.0.text_has_variant() { String::new() } else { format!(", variant={v:?}") };
        format!("senat.Position({:?}, {:?}{v})", self.game(), self.text())
    }

    /// Equal: the same game and the same position text (a Sénat game's
    /// history is not compared).
    fn __eq__(&self, other: &Position) -> bool {
        self.0.game() == other.0.game() && self.variant() == other.variant() && self.text() == other.text()
    }

    /// The hash of the game and the position text.
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.game().hash(&mut h);
        self.text().hash(&mut h);
        h.finish()
    }
}

/// An agent of one game, named by a spec as on the command line (`random`,
/// `greedy`, `mcts:playouts=500`, a named agent `top`, `strong`, `fast`;
/// Sénat's `DRAFT>PLAY` too). It keeps its random generator (seeded by
/// `seed`) and what it learnt between moves until `new_game()`.
#[pyclass(frozen, module = "senat")]
struct Agent {
    kind: GameKind,
    spec: String,
    inner: Mutex<(catalog::Agent, GameRng)>,
}

#[pymethods]
impl Agent {
    /// The agent `spec` of `game`, its randomness from `seed`. Raises
    /// `senat.Error` with the lab's message for a spec it refuses.
    #[new]
    #[pyo3(signature = (game, spec, seed = 1))]
    fn new(game: &str, spec: &str, seed: i128) -> PyResult<Agent> {
        let seed: u64 = whole("seed", seed)?;
        let k = kind(game)?;
        let built = lab(catalog::Agent::new(k, spec))?;
        Ok(Agent { kind: k, spec: spec.trim().to_string(), inner: Mutex::new((built, rng_from_seed(seed))) })
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.kind.name()
    }

    /// The spec as given.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    /// The agent's move in `position` (a `Position` of its game), in move
    /// text; raises `senat.Error` when there is none to choose (the game is
    /// over, chance is to move, another game's position). Runs without the
    /// interpreter's lock.
    fn choose(&self, py: Python<'_>, position: &Position) -> PyResult<String> {
        py.detach(|| {
            let mut guard = self.inner.lock().map_err(|_| "the agent failed in an earlier call".to_string())?;
            let (built, rng) = &mut *guard;
            built.choose(&position.0, rng).map_err(|e| e.to_string())
        })
        .map_err(err)
    }

    /// Forgets everything kept from earlier moves (search trees, tables).
    fn new_game(&self) -> PyResult<()> {
        let mut guard = self.inner.lock().map_err(|_| err("the agent failed in an earlier call"))?;
        guard.0.new_game();
        Ok(())
    }

    /// `senat.Agent('GAME', 'SPEC')`.
    fn __repr__(&self) -> String {
        format!("senat.Agent({:?}, {:?})", self.kind.name(), self.spec)
    }
}

/// The move that agent `spec` chooses in `position` (a position text of
/// `game`, read as `Position(game, position, variant)` reads it, or a
/// `Position`), as `senat bestmove --game GAME --agent SPEC --seed SEED`
/// prints it.
#[pyfunction]
#[pyo3(signature = (game, position, spec, seed = 1, variant = ""))]
fn bestmove(
    py: Python<'_>,
    game: &str,
    position: &Bound<'_, PyAny>,
    spec: &str,
    seed: i128,
    variant: &str,
) -> PyResult<String> {
    let k = kind(game)?;
    let pos = match position.cast::<Position>() {
        Ok(p) => {
            let p = p.get().clone();
            if p.0.game() != k {
                return Err(err(format_args!("the position is of {}, not {k}", p.0.game())));
            }
            p
        }
        Err(_) => Position(lab(catalog::Position::read(k, &position.extract::<String>()?, variant))?),
    };
    pos.bestmove(py, spec, seed)
}

/// An analysis's best moves as dicts: each one's `move`, `win`, `line`,
/// and its own measure under `key` (alpha-beta's `score`, MCTS's `visits`).
fn line_dicts<'py, 'a, V: IntoPyObject<'py>>(
    py: Python<'py>,
    key: &str,
    lines: impl Iterator<Item = (&'a str, f64, &'a [String], V)>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    lines
        .map(|(m, win, pv, v)| {
            let e = PyDict::new(py);
            e.set_item("move", m)?;
            e.set_item("win", win)?;
            e.set_item("line", pv.to_vec())?;
            e.set_item(key, v)?;
            Ok(e)
        })
        .collect()
}

/// The threads of a batch: all cores when `None`, as the command line.
fn threads(t: Option<i128>) -> PyResult<usize> {
    match whole_opt::<usize>("threads", t)? {
        Some(0) => Err(err("threads=0: give at least 1 thread (or leave it out, None, for all cores)")),
        Some(t) => lab(senat_lab::limits::threads("threads", t)),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Runs a batch (`work`) on its own thread without the GIL while this
/// thread looks at Python's signals every 50 ms: on Ctrl-C (or any
/// signal handler's exception) every batch of the process is told to stop
/// ([`senat_lab::selfplay::schedule::STOP`]: the game in progress
/// finishes, nothing more is written, the files stay `.partial` for a
/// resume) and the exception is raised once the batch has stopped.
fn interruptible<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    use senat_lab::selfplay::schedule::STOP;
    use std::sync::atomic::Ordering;
    STOP.store(false, Ordering::Relaxed);
    std::thread::scope(|s| {
        let h = s.spawn(work);
        let mut raised = None;
        while !h.is_finished() {
            py.detach(|| std::thread::sleep(std::time::Duration::from_millis(50)));
            if raised.is_none()
                && let Err(e) = py.check_signals()
            {
                STOP.store(true, Ordering::Relaxed);
                raised = Some(e);
            }
        }
        let out = h.join().map_err(|_| err("the batch's thread panicked"))?;
        match raised {
            Some(e) => Err(e),
            None => Ok(out),
        }
    })
}

/// Plays a self-play batch with the lab's batch runner, as `senat
/// selfplay --game GAME` does, writing the same files (games file `out`,
/// and `moves`, `summary`, dominoes' `rounds` where given, dominoes'
/// deals rotated among the seats with `rotate`, as `--rotate`; the command
/// line's default summary file is not written unless asked). Sénat's sides
/// are `red` and `blue` (their draft policies `draft_red`, `draft_blue`,
/// by default their play policies); the other games' are `first` and
/// `second`. Existing files are refused unless `force` (overwrite) or
/// `resume` (continue). Returns a dict: `game`, `games_file`,
/// `moves_file`, `summary_file`, `rounds_file` (paths or `None`),
/// `played`, `resumed`, `seconds`, `identity_line` (the files' first
/// line) and `identity` (its fields, a dict of strings). The batch runs
/// without the interpreter's lock, and Ctrl-C stops it within a game: the
/// files stay `PATH.partial`, whole rows only, and `resume=True` continues
/// them.
#[pyfunction]
#[pyo3(signature = (
    game, out, games = 100, *, seed = 1, variant = "", first = None, second = None, red = None, blue = None,
    draft_red = None, draft_blue = None, book_plies = 0, threads = None, moves = None, summary = None,
    rounds = None, rotate = false, shard = None, force = false, resume = false
))]
#[allow(clippy::too_many_arguments)]
fn selfplay<'py>(
    py: Python<'py>,
    game: &str,
    out: PathBuf,
    games: i128,
    seed: i128,
    variant: &str,
    first: Option<String>,
    second: Option<String>,
    red: Option<String>,
    blue: Option<String>,
    draft_red: Option<String>,
    draft_blue: Option<String>,
    book_plies: i128,
    threads: Option<i128>,
    moves: Option<PathBuf>,
    summary: Option<PathBuf>,
    rounds: Option<PathBuf>,
    rotate: bool,
    shard: Option<String>,
    force: bool,
    resume: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let (games, seed): (u64, u64) = (whole("games", games)?, whole("seed", seed)?);
    let book_plies: u32 = whole("book_plies", book_plies)?;
    let k = kind(game)?;
    if force && resume {
        return Err(err("force and resume do not go together"));
    }
    if games == 0 {
        return Err(err("games=0: a batch needs at least 1 game"));
    }
    let existing = if resume {
        Existing::Resume
    } else if force {
        Existing::Overwrite
    } else {
        Existing::Refuse
    };
    let shard = match &shard {
        Some(s) => lab(Shard::parse(s))?,
        None => Shard::ALL,
    };
    let threads = self::threads(threads)?;
    let d = PyDict::new(py);
    let (played, resumed, seconds, line, fields) = if k == GameKind::Senat {
        if first.is_some() || second.is_some() || rounds.is_some() || rotate {
            return Err(err(
                "first/second/rounds/rotate are for focus, focus4, debacle or dominoes (rotate: dominoes only); \
                 Sénat's sides are red and blue",
            ));
        }
        use senat_lab::selfplay::{Batch, Matchup, Outputs, identity_of, run};
        let variant = senat_variant(variant)?;
        let book_plies = lab(senat_lab::limits::plies("book_plies", u64::from(book_plies)))?;
        let policy = |flag: &str, text: &str| PolicySpec::parse(text).map_err(|e| err(format_args!("{flag}: {e}")));
        let (r, b) = (red.as_deref().unwrap_or("random"), blue.as_deref().unwrap_or("random"));
        let matchup = Matchup {
            red: policy("red", r)?,
            blue: policy("blue", b)?,
            draft_red: policy("draft_red", draft_red.as_deref().unwrap_or(r))?,
            draft_blue: policy("draft_blue", draft_blue.as_deref().unwrap_or(b))?,
        };
        let batch = Batch { seed, games, shard, matchup, opening: Vec::new(), book_plies, variant };
        let outputs = Outputs { games: out.clone(), moves: moves.clone(), summary: summary.clone(), existing };
        let id = lab(identity_of(&batch))?;
        let report = interruptible(py, || run(&batch, &outputs, threads, &|_| {}))?.map_err(err)?;
        (report.played, report.resumed, report.seconds, id.line(), id.fields())
    } else {
        if red.is_some() || blue.is_some() || draft_red.is_some() || draft_blue.is_some() {
            return Err(err(format_args!("red/blue/draft_red/draft_blue are for Sénat; {k} takes first and second")));
        }
        use senat_lab::games::batch::{Batch, Outputs, identity_of, run};
        let outputs = Outputs {
            games: out.clone(),
            moves: moves.clone(),
            side: rounds.clone(),
            summary: summary.clone(),
            existing,
        };
        let (f, s) = (first.as_deref().unwrap_or("random"), second.as_deref().unwrap_or("random"));
        let report = if k == GameKind::Dominoes {
            if book_plies != 0 {
                return Err(err("book_plies is not for dominoes (every deal is already random)"));
            }
            let variant = domino_variant(variant)?.to_text();
            let spec = |flag: &str, t: &str| DominoSpec::parse(t).map_err(|e| err(format_args!("{flag}: {e}")));
            let b = Batch {
                game: k,
                variant,
                seed,
                games,
                shard,
                book: 0,
                agents: [spec("first", f)?, spec("second", s)?],
                rotate,
            };
            interruptible(py, || run::<Dominoes>(&b, &outputs, threads, &|_| {}))?
        } else {
            if rounds.is_some() {
                return Err(err("rounds is for dominoes"));
            }
            if rotate {
                return Err(err("rotate is for dominoes (it rotates the deal's hands among the seats)"));
            }
            let full = k.variant(variant);
            senat_lab::on_game!(k, G => {
                let spec =
                    |flag: &str, t: &str| catalog::lab_agent::<G>(t).map_err(|e| err(format_args!("{flag}: {e}")));
                let agents = [spec("first", f)?, spec("second", s)?];
                let variant = G::variant_text(&lab(G::start(&full))?);
                let b = Batch { game: k, variant, seed, games, shard, book: book_plies, agents, rotate: false };
                interruptible(py, || run::<G>(&b, &outputs, threads, &|_| {}))?
            })
        }
        .map_err(err)?;
        let fields = lab(identity_of(&out))?;
        let line = first_line(&out)?;
        (report.played, report.resumed, report.seconds, line, fields)
    };
    let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
    d.set_item("game", k.name())?;
    d.set_item("games_file", out.display().to_string())?;
    d.set_item("moves_file", path(&moves))?;
    d.set_item("summary_file", path(&summary))?;
    d.set_item("rounds_file", path(&rounds))?;
    d.set_item("played", played)?;
    d.set_item("resumed", resumed)?;
    d.set_item("seconds", seconds)?;
    d.set_item("identity_line", line.trim_end())?;
    let id = PyDict::new(py);
    for (key, value) in fields {
        id.set_item(key, value)?;
    }
    d.set_item("identity", id)?;
    Ok(d)
}

/// An arena, as `senat arena` plays it: every pairing's games in
/// colour-swapped pairs (duplicate deals for dominoes), from the same
/// seeds, returned as one dict per pairing with the columns of `senat
/// arena --summary` (a number as an `int` or a `float`, an empty cell as
/// `None`, any other cell as its text). `schedule`:
/// `round-robin`, `gauntlet` or `ladder`; `book_plies`: shared random plies
/// at the start of each pair (default 0 for Sénat, 4 for Focus and
/// Débâcle, as the command line); `draft` (Sénat): both sides' draft
/// policy, or `own`.
#[pyfunction]
#[pyo3(signature = (
    game, agents, games = 100, *, seed = 1, variant = "", schedule = "round-robin", book_plies = None,
    draft = "random", threads = None
))]
#[allow(clippy::too_many_arguments)]
fn arena<'py>(
    py: Python<'py>,
    game: &str,
    agents: Vec<String>,
    games: i128,
    seed: i128,
    variant: &str,
    schedule: &str,
    book_plies: Option<i128>,
    draft: &str,
    threads: Option<i128>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    use senat_lab::arena::{Arena, Contest, Schedule};
    use senat_lab::catalog::arena::{About, ArenaPlan, WithArena};
    let (games, seed): (u64, u64) = (whole("games", games)?, whole("seed", seed)?);
    let book_plies: Option<u32> = whole_opt("book_plies", book_plies)?;
    let k = kind(game)?;
    let schedule = Schedule::parse(schedule)
        .ok_or_else(|| err(format_args!("schedule `{schedule}`: expected round-robin, gauntlet or ladder")))?;
    let threads = self::threads(threads)?;
    /// The summary's header and rows of an arena played to the end.
    struct Summary<'py> {
        py: Python<'py>,
        threads: usize,
    }
    impl WithArena for Summary<'_> {
        type Output = PyResult<(Vec<&'static str>, Vec<Vec<String>>)>;
        fn with<C: Contest>(self, a: Arena<C>, _: About) -> Self::Output {
            let results = self.py.detach(|| a.run(self.threads, &|_| {}, |_| Ok(()))).map_err(err)?;
            Ok((a.summary_header(), results.iter().map(|r| a.summary_row(r)).collect()))
        }
    }
    let label = |what: &str| what.replace('-', "_");
    let plan = ArenaPlan {
        game: k,
        variant,
        agents: &agents,
        games,
        seed,
        schedule,
        sprt: None,
        book: book_plies,
        draft,
        time_per_move: None,
        duplicate: true,
        moves: false,
        label: &label,
    };
    let (header, rows) = catalog::arena::arena(&plan, Summary { py, threads }).map_err(err)??;
    rows.into_iter()
        .map(|row| {
            let d = PyDict::new(py);
            for (key, value) in header.iter().zip(row) {
                match cell_number(&value) {
                    Some(Number::Int(i)) => d.set_item(key, i)?,
                    Some(Number::Float(x)) => d.set_item(key, x)?,
                    None if value.is_empty() => d.set_item(key, py.None())?,
                    None => d.set_item(key, value)?,
                }
            }
            Ok(d)
        })
        .collect()
}

/// A number read from a summary cell.
#[derive(Debug, PartialEq)]
enum Number {
    /// Digits only, with an optional sign.
    Int(i64),
    /// A decimal point or an exponent.
    Float(f64),
}

/// The number a summary cell writes (`12`, `-294.6100`, `1e-5`, an
/// infinite Elo `-inf`), if it is one; any other text (an agent's name) is
/// not.
fn cell_number(text: &str) -> Option<Number> {
    let t = text.strip_prefix(['-', '+']).unwrap_or(text);
    if t == "inf" || t == "nan" {
        return text.parse::<f64>().ok().map(Number::Float);
    }
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(t[i + 1..].strip_prefix(['-', '+']).unwrap_or(&t[i + 1..]))),
        None => (t, None),
    };
    let (int, frac) = mantissa.split_once('.').map_or((mantissa, None), |(a, b)| (a, Some(b)));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let ok = (digits(int) || frac.is_some_and(digits))
        && (int.is_empty() || digits(int))
        && frac.is_none_or(|f| f.is_empty() || digits(f))
        && exponent.is_none_or(digits);
    if !ok {
        return None;
    }
    if frac.is_none()
        && exponent.is_none()
        && let Ok(i) = text.parse::<i64>()
    {
        return Some(Number::Int(i));
    }
    text.parse::<f64>().ok().map(Number::Float)
}

/// The first line of the file at `path`, without its line ending.
fn first_line(path: &std::path::Path) -> PyResult<String> {
    use std::io::BufRead;
    let shown = path.display();
    let file = std::fs::File::open(path).map_err(|e| err(format_args!("cannot read {shown}: {e}")))?;
    let mut line = String::new();
    std::io::BufReader::new(file).read_line(&mut line).map_err(|e| err(format_args!("cannot read {shown}: {e}")))?;
    Ok(line.trim_end_matches(['\n', '\r']).to_string())
}

/// The identity fields of a batch file (games or moves file of any game,
/// as `senat selfplay` and `senat.selfplay` write them): a dict of its
/// first line's `key=value` fields, values unescaped. Raises `senat.Error`
/// when the first line is not a batch identity.
#[pyfunction]
fn read_identity<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let fields = lab(catalog::files::identity_fields(&path))?;
    let d = PyDict::new(py);
    for (k, v) in fields {
        d.set_item(k, v)?;
    }
    Ok(d)
}

/// The rows of a batch file (a games, moves or rounds file): a list of
/// dicts from column name to the text of the cell, in file order; `#`
/// lines (the identity line) are skipped. Numbers stay text, as in the
/// file (pandas' `read_csv(path, skiprows=1)` reads the same rows with
/// types).
#[pyfunction]
fn read_games<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let shown = path.display().to_string();
    let mut r = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_path(&path)
        .map_err(|e| err(format_args!("cannot read {shown}: {e}")))?;
    let header = r.headers().map_err(|e| err(format_args!("{shown}: {e}")))?.clone();
    let mut rows = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| err(format_args!("{shown}: {e}")))?;
        let d = PyDict::new(py);
        for (k, v) in header.iter().zip(rec.iter()) {
            d.set_item(k, v)?;
        }
        rows.push(d);
    }
    Ok(rows)
}

/// The variant options of `game`, one per line, as `--variant help` prints them.
#[pyfunction]
fn variant_help(game: &str) -> PyResult<&'static str> {
    Ok(catalog::variant_help(kind(game)?))
}

/// Sénat and the other games of the seeds (Focus, Débâcle, block dominoes)
/// on the engines of the `senat` command line: positions from their texts,
/// legal moves, perft, agents by spec, and self-play batches written by the
/// lab's batch runner. Refusals raise `senat.Error` (a `ValueError`).
/// This is the native module `senat._senat`; the package `senat`
/// (`python/senat/__init__.py`) re-exports it beside its Python modules
/// `senat.openspiel` and `senat.pettingzoo`.
#[pymodule]
#[pyo3(name = "_senat")]
fn senat_py(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add("GAMES", GameKind::ALL.iter().map(|g| g.name()).collect::<Vec<_>>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Position>()?;
    m.add_class::<Agent>()?;
    m.add_class::<vec_env::VecEnv>()?;
    m.add_function(wrap_pyfunction!(bestmove, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(arena, m)?)?;
    m.add_function(wrap_pyfunction!(read_identity, m)?)?;
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add_function(wrap_pyfunction!(variant_help, m)?)?;
    Ok(())
}
