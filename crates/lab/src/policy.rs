//! Policies: who picks the move. One trait, [`Policy`], serves both phases
//! (a draft policy gives and places, a play policy moves); the self-play
//! runner asks the policy of the side to move for each move, and the search
//! engines of later work plug in behind the same trait.
//!
//! A policy reads the game and draws randomness only from the generator it
//! is handed, so a game is a pure function of its seed. A policy must never
//! change the game, keep state between games that changes its choices, or
//! return a move that is not legal in the current position.
//!
//! Policies are named on the command line by a [`PolicySpec`]:
//! `random`, `greedy`, `heuristic`, `heuristic:pile=10,own_i=2` (weights as
//! flags) or `heuristic:file=weights.txt` (weights from a file, one
//! `key=value` a line, `#` comments).

use senat_rules::board::{Bitboard, Row};
use senat_rules::dice::{Colour, Side, Symbol};
use senat_rules::game::Game;
use crate::limits;
use senat_rules::moves::{Move, MoveKind};
pub use senat_rules::pick::{PlayMoves, nth_draft_move, nth_in_set, nth_move, nth_play_move};
use senat_rules::position::{Phase, Position};
pub use game_search::rng::{GameRng, below, mix64, rng_from_seed};
use game_search::alphabeta::{Limits, Searcher};
use game_search::mcts::{self, Mcts};
use crate::adapter::{Senat, SenatEval, SenatRollout, SenatState};
use rand::Rng;
use std::fmt;

/// A uniformly random legal move, or `None` if there is none.
#[inline]
pub fn random_move(p: &Position, rng: &mut GameRng) -> Option<Move> {
    let n = p.count_moves();
    if n == 0 {
        return None;
    }
    nth_move(p, below(rng, n))
}

/// What a policy is asked to move in: the game (position and history) and
/// the legal moves of its position, already counted.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// The game so far; its position is not over.
    pub game: &'a Game,
    /// `game.position().count_moves()`, at least 1.
    pub legal: usize,
    /// The counted moves of a play position (`None` in the draft).
    pub play: Option<PlayMoves<'a>>,
}

impl<'a> Turn<'a> {
    /// A turn in `game`'s current position (counts its moves).
    pub fn new(game: &'a Game) -> Turn<'a> {
        let p = game.position();
        if p.is_play() {
            let play = PlayMoves::new(p);
            Turn { game, legal: play.len(), play: Some(play) }
        } else {
            Turn { game, legal: p.count_moves(), play: None }
        }
    }

    /// The current position.
    #[inline]
    pub fn position(&self) -> &'a Position {
        self.game.position()
    }
}

/// Picks a move: the trait behind every player of both phases.
pub trait Policy: Send {
    /// A legal move in the turn's position. All randomness comes from `rng`.
    fn choose(&mut self, turn: &Turn, rng: &mut GameRng) -> Move;
    /// Forgets everything kept from earlier games (search trees, tables), so
    /// that a game's moves depend on its seed alone; called before each game.
    fn new_game(&mut self) {}
}

/// Uniform over the legal moves, in both phases.
#[derive(Clone, Debug, Default)]
pub struct RandomPolicy;

impl Policy for RandomPolicy {
    fn choose(&mut self, turn: &Turn, rng: &mut GameRng) -> Move {
        let k = below(rng, turn.legal);
        let m = match &turn.play {
            Some(play) => play.nth(k),
            None => nth_draft_move(turn.position(), k),
        };
        m.expect("a game that is not over has a legal move")
    }
}

/// Picks uniformly among the best-scoring moves; ties share equally. A NaN
/// score counts as −∞ (the worst), and a move scoring −∞ still ties with the
/// starting −∞, so no score, however computed, can leave the choice empty.
fn best_by(p: &Position, rng: &mut GameRng, mut score: impl FnMut(Move) -> f64) -> Move {
    let key = |s: f64| if s.is_nan() { f64::NEG_INFINITY } else { s };
    let mut best = f64::NEG_INFINITY;
    let mut ties = 0usize;
    let mut chosen = None;
    for &m in p.legal_moves().iter() {
        let s = key(score(m));
        if s > best {
            best = s;
            ties = 1;
            chosen = Some(m);
        } else if s == best {
            // Reservoir sampling among equal scores.
            ties += 1;
            if below(rng, ties) == 0 {
                chosen = Some(m);
            }
        }
    }
    chosen.expect("a game that is not over has a legal move")
}

/// One ply of lookahead: scores a die of its own colour when it can, never
/// pushes a die of the opponent's colour through the door when another move
/// exists, otherwise random. In the draft it plays at random.
#[derive(Clone, Debug, Default)]
pub struct GreedyPolicy;

impl Policy for GreedyPolicy {
    fn choose(&mut self, turn: &Turn, rng: &mut GameRng) -> Move {
        let p = turn.position();
        if !p.is_play() {
            return RandomPolicy.choose(turn, rng);
        }
        best_by(p, rng, |m| {
            let (mine, theirs) = p.pile_gain(m);
            let (mine, theirs) = (mine as f64, theirs as f64);
            // Scoring first (more is better), then anything that gives nothing away.
            if mine > 0.0 {
                1.0 + mine
            } else if theirs > 0.0 {
                -theirs
            } else {
                0.0
            }
        })
    }
}

/// The weights of [`HeuristicPolicy`]'s evaluation; names as on the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Own pile minus the opponent's pile.
    pub pile: f64,
    /// Reaching the majority (a won game); minus for the opponent's.
    pub win: f64,
    /// Dice showing own colour in row I (next to the door).
    pub own_i: f64,
    /// Dice showing the opponent's colour in row I.
    pub opp_i: f64,
    /// Own squares in rows M and I with a neighbour to push.
    pub square: f64,
    /// Own dice next to an enemy triangle (which can flip them).
    pub exposed: f64,
    /// Row I is full (pushes into it eject a die).
    pub full_i: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights { pile: 10.0, win: 1000.0, own_i: 1.0, opp_i: -1.0, square: 0.5, exposed: -0.5, full_i: 0.0 }
    }
}

impl Weights {
    /// The accepted weight names.
    pub const NAMES: [&'static str; 7] = ["pile", "win", "own_i", "opp_i", "square", "exposed", "full_i"];

    fn slot(&mut self, key: &str) -> Option<&mut f64> {
        Some(match key {
            "pile" => &mut self.pile,
            "win" => &mut self.win,
            "own_i" => &mut self.own_i,
            "opp_i" => &mut self.opp_i,
            "square" => &mut self.square,
            "exposed" => &mut self.exposed,
            "full_i" => &mut self.full_i,
            _ => return None,
        })
    }

    /// Sets one weight from `key=value` text.
    pub fn set(&mut self, item: &str) -> Result<(), String> {
        let accepted = || format!("accepted: {}=<number>, or file=<path>", Weights::NAMES.join("=<number>, "));
        let Some((key, value)) = item.split_once('=') else {
            return Err(format!("`{item}` is not key=value ({})", accepted()));
        };
        let (key, value) = (key.trim(), value.trim());
        let v: f64 = match value.parse() {
            Ok(v) if f64::is_finite(v) => v,
            _ => return Err(format!("weight `{key}`: `{value}` is not a finite number")),
        };
        match self.slot(key) {
            Some(slot) => {
                *slot = crate::limits::weight(key, v)?;
                Ok(())
            }
            None => Err(format!("unknown weight `{key}` ({})", accepted())),
        }
    }

    /// Evaluates `p` for `me` (the side that just moved).
    pub fn evaluate(&self, p: &Position, me: Side) -> f64 {
        let (mine, theirs) = match me {
            Side::Red => (Colour::Red, Colour::Blue),
            Side::Blue => (Colour::Blue, Colour::Red),
        };
        let piles = p.piles();
        let mut s = self.pile * (piles.of(me) as f64 - piles.of(me.other()) as f64);
        match p.majority() {
            Some(w) if w == me => s += self.win,
            Some(_) => s -= self.win,
            None => {}
        }
        let own = p.showing(mine);
        let opp = p.showing(theirs);
        let occ = p.occupied();
        let row_i = Bitboard::ROW_I;
        s += self.own_i * (own & row_i).len() as f64;
        s += self.opp_i * (opp & row_i).len() as f64;
        let squares = own & p.with_symbol(Symbol::Square) & (Bitboard::ROW_M | row_i);
        let near_target = occ.right() | occ.left();
        s += self.square * (squares & near_target).len() as f64;
        let enemy_tri = opp & p.with_symbol(Symbol::Triangle);
        s += self.exposed * (own & (enemy_tri.right() | enemy_tri.left())).len() as f64;
        if (occ & row_i) == row_i {
            s += self.full_i;
        }
        s
    }
}

/// Play: the move whose resulting position the weighted evaluation likes
/// best (ties at random). Draft: gives die 3 when it can (all white, worth
/// nothing to the receiver), otherwise a random die; places dice showing its
/// own colour low (row I, then M), squares of its colour in M, and the
/// opponent's colours high.
#[derive(Clone, Debug, Default)]
pub struct HeuristicPolicy {
    /// The evaluation's weights.
    pub weights: Weights,
}

impl Policy for HeuristicPolicy {
    fn choose(&mut self, turn: &Turn, rng: &mut GameRng) -> Move {
        let p = turn.position();
        let me = p.side_to_move();
        match p.phase() {
            Phase::Give => {
                let three = senat_rules::dice::Die::new(3).expect("die 3");
                if p.reserve().contains(three) { Move::give(three) } else { RandomPolicy.choose(turn, rng) }
            }
            Phase::Place(_) => best_by(p, rng, |m| match m.kind() {
                MoveKind::Place(die, cell, face) => {
                    let colour = die.colour(face);
                    let row = cell.row();
                    if colour.side() == Some(me) {
                        let low = match row {
                            Row::I => 3.0,
                            Row::M => 2.0,
                            Row::S => 0.0,
                        };
                        let square = if face.symbol() == Symbol::Square && row == Row::M { 1.5 } else { 0.0 };
                        low + square
                    } else if colour == Colour::White {
                        0.5
                    } else {
                        // The opponent's colour: as far from the door as possible.
                        if row == Row::S { 1.0 } else { -1.0 }
                    }
                }
                _ => 0.0,
            }),
            Phase::Play => best_by(p, rng, |m| {
                let mut q = *p;
                q.play_unchecked(m);
                self.weights.evaluate(&q, me)
            }),
        }
    }
}

/// Monte Carlo tree search with random or greedy rollouts ([`game_search::mcts`]),
/// in both phases. The tree of one move is kept for the next one (the
/// subtree under the moves played since), and dropped between games; every
/// search is seeded from the game's generator.
pub struct MctsPolicy {
    mcts: Mcts<Senat, SenatRollout>,
    reuse: bool,
    /// The game's moves when the trees were last advanced.
    seen: Vec<Move>,
}

impl MctsPolicy {
    /// A player with these parameters.
    pub fn new(e: EngineParams) -> MctsPolicy {
        let config = mcts::Config {
            playouts: e.playouts,
            time: None,
            selection: mcts::Selection::Uct { c: e.c },
            memory: crate::limits::mb_to_bytes(e.memory_mb).unwrap_or(usize::MAX),
            threads: e.threads,
        };
        MctsPolicy { mcts: Mcts::new(config, e.rollout), reuse: e.reuse, seen: Vec::new() }
    }
}

impl Policy for MctsPolicy {
    fn choose(&mut self, turn: &Turn, rng: &mut GameRng) -> Move {
        let moves = turn.game.moves();
        if self.reuse && moves.len() >= self.seen.len() && moves[..self.seen.len()] == self.seen[..] {
            for &m in &moves[self.seen.len()..] {
                self.mcts.advance(m);
            }
        } else {
            self.mcts.clear();
        }
        let state = SenatState::from_game(turn.game);
        let report = self.mcts.search(&state, rng.next_u64());
        let best = report.best.expect("a position with moves has a best move");
        self.seen.clear();
        if self.reuse {
            self.seen.extend_from_slice(moves);
            self.seen.push(best);
            self.mcts.advance(best);
        }
        best
    }

    fn new_game(&mut self) {
        self.mcts.clear();
        self.seen.clear();
    }
}

/// Fixed-depth alpha-beta with [`SenatEval`] ([`game_search::alphabeta`]),
/// in both phases; its transposition table lives for one game. It draws no
/// randomness: ties go to the first move in search order.
pub struct AlphaBetaPolicy {
    params: EngineParams,
    searcher: Searcher<Senat, SenatEval>,
}

impl AlphaBetaPolicy {
    /// A player with these parameters.
    pub fn new(e: EngineParams) -> AlphaBetaPolicy {
        AlphaBetaPolicy { params: e, searcher: Searcher::new(SenatEval::default(), e.tt_mb) }
    }
}

impl Policy for AlphaBetaPolicy {
    fn choose(&mut self, turn: &Turn, _rng: &mut GameRng) -> Move {
        let state = SenatState::from_game(turn.game);
        let report = self.searcher.search(&state, Limits::depth(self.params.depth));
        report.best.expect("a position with moves has a best move")
    }

    fn new_game(&mut self) {
        self.searcher = Searcher::new(SenatEval::default(), self.params.tt_mb);
    }
}

/// The kind of a named policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyKind {
    /// [`RandomPolicy`].
    Random,
    /// [`GreedyPolicy`].
    Greedy,
    /// [`HeuristicPolicy`].
    Heuristic,
    /// [`MctsPolicy`].
    Mcts,
    /// [`AlphaBetaPolicy`].
    AlphaBeta,
}

/// Parameters of the search policies (`mcts:…`, `ab:…`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineParams {
    /// MCTS: playouts per move.
    pub playouts: u64,
    /// MCTS: UCT exploration constant.
    pub c: f64,
    /// MCTS: memory cap of the trees, in megabytes.
    pub memory_mb: usize,
    /// MCTS: threads per search (1 in batches, which are parallel already).
    pub threads: usize,
    /// MCTS: keep the subtree of the move played between searches.
    pub reuse: bool,
    /// MCTS: the rollout policy.
    pub rollout: SenatRollout,
    /// Alpha-beta: depth in plies.
    pub depth: u32,
    /// Alpha-beta: transposition table in megabytes.
    pub tt_mb: usize,
}

impl Default for EngineParams {
    fn default() -> EngineParams {
        EngineParams {
            playouts: 1000,
            c: 1.0,
            memory_mb: 64,
            threads: 1,
            reuse: true,
            rollout: SenatRollout::Random,
            depth: 3,
            tt_mb: 4,
        }
    }
}

impl EngineParams {
    /// Sets one `key=value` of an engine spec (`kind` says which keys apply).
    fn set(&mut self, kind: PolicyKind, item: &str) -> Result<(), String> {
        let (key, value) = item.split_once('=').ok_or_else(|| format!("`{item}`: expected key=value"))?;
        let (key, value) = (key.trim(), value.trim());
        fn num<T>(key: &str, value: &str, lo: T) -> Result<T, String>
        where
            T: std::str::FromStr + PartialOrd + fmt::Display,
        {
            match value.parse::<T>() {
                Ok(v) if v >= lo => Ok(v),
                _ => Err(format!("`{key}={value}`: expected a number ≥ {lo}")),
            }
        }
        match (kind, key) {
            (PolicyKind::Mcts, "playouts") => self.playouts = num(key, value, 1)?,
            (PolicyKind::Mcts, "c") => {
                self.c = num(key, value, 0.0)?;
                if !self.c.is_finite() {
                    return Err(format!("`{key}={value}`: expected a finite number"));
                }
            }
            (PolicyKind::Mcts, "mb") => self.memory_mb = limits::megabytes(key, num(key, value, 1)?, 1)?,
            (PolicyKind::Mcts, "threads") => self.threads = limits::threads(key, num(key, value, 1)?)?,
            (PolicyKind::Mcts, "reuse") => {
                self.reuse = match value {
                    "1" | "true" | "yes" => true,
                    "0" | "false" | "no" => false,
                    _ => return Err(format!("`{key}={value}`: expected true or false")),
                }
            }
            (PolicyKind::Mcts, "rollout") => {
                self.rollout = match value {
                    "random" => SenatRollout::Random,
                    "greedy" => SenatRollout::Greedy,
                    _ => return Err(format!("`{key}={value}`: expected random or greedy")),
                }
            }
            (PolicyKind::AlphaBeta, "depth") => self.depth = limits::depth(key, num(key, value, 1)?, 1)?,
            (PolicyKind::AlphaBeta, "tt") => self.tt_mb = limits::megabytes(key, num(key, value, 0)?, 0)?,
            _ => return Err(format!("unknown parameter `{key}`")),
        }
        Ok(())
    }
}

/// A policy as named on the command line: kind, parameters and its name.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicySpec {
    /// Which policy.
    pub kind: PolicyKind,
    /// Heuristic weights (ignored by the others).
    pub weights: Weights,
    /// Search parameters (used by `mcts` and `ab` only).
    pub engine: EngineParams,
    /// The name as given (`heuristic:pile=5`), written to output files.
    pub name: String,
}

/// What `--red`, `--blue`, `--draft-red`, `--draft-blue` accept.
pub const POLICY_HELP: &str = "random | greedy | heuristic[:key=value,...] | heuristic:file=<path> \
(weights: pile, win, own_i, opp_i, square, exposed, full_i) | mcts[:playouts=1000,c=1.0,rollout=random|greedy,mb=64,threads=1,reuse=true] \
| ab[:depth=3,tt=4]";

impl PolicySpec {
    /// Parses `random`, `greedy`, `heuristic`, `heuristic:k=v,...`, `heuristic:file=path`.
    pub fn parse(text: &str) -> Result<PolicySpec, String> {
        let text = text.trim();
        let (name, params) = match text.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (text, None),
        };
        let kind = match name {
            "random" => PolicyKind::Random,
            "greedy" => PolicyKind::Greedy,
            "heuristic" => PolicyKind::Heuristic,
            "mcts" => PolicyKind::Mcts,
            "ab" => PolicyKind::AlphaBeta,
            _ => return Err(format!("unknown policy `{name}` (accepted: {POLICY_HELP})")),
        };
        let mut weights = Weights::default();
        let mut engine = EngineParams::default();
        if let Some(params) = params
            && matches!(kind, PolicyKind::Mcts | PolicyKind::AlphaBeta)
        {
            if params.trim().is_empty() {
                return Err(format!("policy `{text}`: empty parameter list; accepted: {POLICY_HELP}"));
            }
            for item in params.split(',') {
                engine.set(kind, item).map_err(|e| format!("policy `{text}`: {e}; accepted: {POLICY_HELP}"))?;
            }
        } else if let Some(params) = params {
            if kind != PolicyKind::Heuristic {
                return Err(format!("policy `{name}` takes no parameters (`{text}`); accepted: {POLICY_HELP}"));
            }
            if params.trim().is_empty() {
                return Err(format!("policy `{text}`: empty parameter list; accepted: {POLICY_HELP}"));
            }
            for item in params.split(',') {
                if let Some(path) = item.trim().strip_prefix("file=") {
                    let body = limits::read_text(std::path::Path::new(path))
                        .map_err(|e| format!("policy `{text}`: weights file: {e}"))?;
                    for (n, line) in body.lines().enumerate() {
                        let line = line.split('#').next().unwrap_or("").trim();
                        if !line.is_empty() {
                            weights.set(line).map_err(|e| format!("policy `{text}`: {path}:{}: {e}", n + 1))?;
                        }
                    }
                } else {
                    weights.set(item).map_err(|e| format!("policy `{text}`: {e}"))?;
                }
            }
        }
        Ok(PolicySpec { kind, weights, engine, name: text.to_string() })
    }

    /// A fresh player for one game (or one worker).
    pub fn build(&self) -> Box<dyn Policy> {
        match self.kind {
            PolicyKind::Random => Box::new(RandomPolicy),
            PolicyKind::Greedy => Box::new(GreedyPolicy),
            PolicyKind::Heuristic => Box::new(HeuristicPolicy { weights: self.weights.clone() }),
            PolicyKind::Mcts => Box::new(MctsPolicy::new(self.engine)),
            PolicyKind::AlphaBeta => Box::new(AlphaBetaPolicy::new(self.engine)),
        }
    }
}

impl fmt::Display for PolicySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl std::str::FromStr for PolicySpec {
    type Err = String;
    fn from_str(s: &str) -> Result<PolicySpec, String> {
        PolicySpec::parse(s)
    }
}
