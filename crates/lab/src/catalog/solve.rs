//! `solve` of every game of the catalog but Sénat, as one library function
//! ([`solve`]) that the binary and the Python package call and only print:
//! the perfect-information games go to game-search's exact solver, to a
//! horizon (by default the game's own bound on its length, where its rules
//! have one, so that every verdict is exact); dominoes to the proof over
//! the information set of the player to decide (one strategy for every
//! consistent deal, every draw and every play of the others).
//!
//! Sénat's `solve` (its history, its proof-number engine, `--prove`, the
//! proof store) stays the binary's own path.
//!
//! What this module must never do: print, read or write a file, or parse
//! arguments.

use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use game_search::shape::Shape;
use game_search::solver::{Progress, Solution, Solver, Verdict};

use super::position::{Domino, View};
use super::{CatalogError, Position};
use crate::games::dominoes_proof::{self, ProofLimits};
use crate::games::{LabGame, legal_moves};

/// Told each move's verdict as it is solved (its text, its verdict).
pub type OnMove<'a> = dyn FnMut(&str, &Proved) + 'a;

/// What a solve is asked: its horizon, memory, threads and limits, and
/// whom to tell as it goes.
pub struct Request<'a> {
    /// The horizon in plies; `None`: the game's own bound where its rules
    /// have one (refused where they have none).
    pub max_depth: Option<u32>,
    /// The transposition table's size in MiB (the exact solver).
    pub tt_mb: usize,
    /// Search threads (the exact solver).
    pub threads: NonZeroUsize,
    /// A time limit (the exact solver): past it the verdict is unknown.
    pub time: Option<Duration>,
    /// Bounds from the rules' best and worst ends (the exact solver).
    pub bounds: bool,
    /// Relaxations of positions the solver can answer cheaper (the exact solver).
    pub relax: bool,
    /// Count the shape of the searched tree (one search, one thread).
    pub shape: bool,
    /// A verdict per legal move instead of the position's.
    pub each_move: bool,
    /// Called after each question the exact solver answers.
    pub progress: Option<Progress>,
    /// With `each_move`, called with each move's verdict as soon as it is
    /// solved (a long solve shows its moves as it goes); the answer lists
    /// them all again.
    pub on_move: Option<&'a mut OnMove<'a>>,
}

impl Default for Request<'_> {
    /// The binary's defaults: the game's own horizon, 256 MiB, one thread,
    /// no time limit, bounds and relaxations on, no shape, the position's
    /// verdict, no progress.
    fn default() -> Self {
        Request {
            max_depth: None,
            tt_mb: 256,
            threads: NonZeroUsize::MIN,
            time: None,
            bounds: true,
            relax: true,
            shape: false,
            each_move: false,
            progress: None,
            on_move: None,
        }
    }
}

/// One verdict of the exact solver, with its line and cost.
#[derive(Debug, Clone)]
pub struct Proved {
    /// Win, loss or draw for the side to move at the position solved, within
    /// a number of plies, or unknown.
    pub verdict: Verdict,
    /// The proof's principal line, as move texts.
    pub line: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Whether the time limit stopped it.
    pub timed_out: bool,
}

/// What [`solve`] found.
#[derive(Debug, Clone)]
pub enum Answer {
    /// The exact solver's answer (every game but dominoes).
    Exact {
        /// The horizon searched, in plies.
        depth: u32,
        /// The position's verdict (absent with `each_move`).
        root: Option<Proved>,
        /// Each legal move's verdict for the side to move at the position
        /// (with `each_move`; the move is a ply of the horizon).
        moves: Vec<(String, Proved)>,
        /// The searched tree's shape, where it was asked.
        shape: Option<Shape>,
    },
    /// Dominoes: sure wins of the round from the observation of the player
    /// to decide.
    Observation {
        /// The observation searched, as text.
        observation: String,
        /// The position's verdict (absent with `each_move`), as text.
        root: Option<String>,
        /// How many states agree with the observation, as text ("N
        /// consistent states", or "over N placements" past the limit).
        states: String,
        /// Each legal move's verdict, as texts (with `each_move`).
        moves: Vec<(String, String)>,
        /// Wall-clock time.
        elapsed: Duration,
    },
}

/// The text of an exact verdict searched to `depth` plies, as `senat solve`
/// prints it: "win for the side to move within 7 plies", "draw within 42
/// plies", "unknown within 9 plies".
pub fn verdict_text(v: Verdict, depth: u32) -> String {
    match v {
        Verdict::Win(n) => format!("win for the side to move within {n} plies"),
        Verdict::Loss(n) => format!("loss for the side to move within {n} plies"),
        Verdict::Draw(n) => format!("draw within {n} plies"),
        Verdict::Unknown => format!("unknown within {depth} plies"),
    }
}

/// The horizon that makes every verdict at `p` exact: the plies its
/// game's rules leave at most (at least 1), where they bound the game's
/// length; `None` where they do not (dominoes, Focus, Débâcle) and for
/// Sénat.
pub fn own_horizon(p: &Position) -> Option<u32> {
    crate::on_game!(p.game(), G => {
        G::plies_left(p.lab_state::<G>()?).map(|n| n.max(1))
    }, senat => None, dominoes => None)
}

/// Solves `p`: the exact solver for every game but Sénat and dominoes, the
/// observation proof for dominoes. Sénat is refused (its `solve` is the
/// binary's own path).
pub fn solve(p: &Position, r: Request<'_>) -> Result<Answer, CatalogError> {
    crate::on_game!(p.game(), G => lab_solve::<G>(p, r),
        senat => Err(CatalogError::Refused("Sénat's solve is the senat command's own (its history, engines and proof store)".into())),
        dominoes => domino_solve(p, r))
}

fn refused<T>(m: impl Into<String>) -> Result<T, CatalogError> {
    Err(CatalogError::Refused(m.into()))
}

/// `depth` checked against the bounds of every depth.
fn horizon(depth: u32) -> Result<u32, CatalogError> {
    crate::limits::depth("--max-depth", depth, 1).map_err(|e| CatalogError::Refused(e.to_string()))
}

fn proved<G: LabGame>(s: Solution<G::Move>) -> Proved {
    Proved {
        verdict: s.verdict,
        line: s.pv.iter().map(|&m| G::move_text(m)).collect(),
        nodes: s.nodes,
        elapsed: s.elapsed,
        timed_out: s.timed_out,
    }
}

fn lab_solve<G: LabGame + 'static>(p: &Position, mut r: Request<'_>) -> Result<Answer, CatalogError> {
    if r.shape && (r.threads.get() != 1 || r.each_move) {
        return refused("the shape counts the tree of one search: one thread, not each move");
    }
    let s = p.lab_state::<G>().ok_or_else(|| CatalogError::Refused("not a position of this game".into()))?;
    let Some(depth) = r.max_depth.or(G::plies_left(s).map(|n| n.max(1))) else {
        return refused("this game's rules bound no game's length: give a horizon (--max-depth)");
    };
    let depth = horizon(depth)?;
    game_search::solver::check::<G>(s).map_err(|e| CatalogError::Refused(e.to_string()))?;
    let mut solver: Solver<G> = Solver::try_with_table_mb(r.tt_mb).map_err(|e| CatalogError::Refused(e.to_string()))?;
    solver.bounds = r.bounds;
    solver.relax = r.relax;
    solver.set_threads(r.threads);
    solver.count_shape(r.shape);
    solver.progress = r.progress;
    solver.time_limit = r.time;
    if r.each_move {
        let moves = legal_moves::<G>(s);
        if moves.is_empty() {
            return refused("the game is over here: no move to solve");
        }
        let mut solved = Vec::with_capacity(moves.len());
        for m in moves {
            let (text, sol) = (G::move_text(m), proved::<G>(solver.solve_move(s, m, depth)));
            if let Some(tell) = r.on_move.as_mut() {
                tell(&text, &sol);
            }
            solved.push((text, sol));
        }
        return Ok(Answer::Exact { depth, root: None, moves: solved, shape: None });
    }
    let root = proved::<G>(solver.solve(s, depth));
    Ok(Answer::Exact { depth, root: Some(root), moves: Vec::new(), shape: solver.shape().cloned() })
}

fn domino_solve(p: &Position, r: Request<'_>) -> Result<Answer, CatalogError> {
    if r.time.is_some() || r.threads.get() != 1 || r.progress.is_some() || r.shape {
        return refused(
            "a time limit (--time), threads (--threads), progress (--progress) and the shape (--shape) are not for dominoes \
             (its limits are plies, placements and nodes)",
        );
    }
    let Some(depth) = r.max_depth else {
        return refused("dominoes needs a horizon (--max-depth): its rules bound no round's length in plies");
    };
    let depth = horizon(depth)?;
    let face = p.face().as_any();
    let obs = if let Some(Domino(s)) = face.downcast_ref::<Domino>() {
        if s.is_chance() || s.round_over() {
            return refused("a deal, a draw or the end of a round is next: give a position where a player decides");
        }
        s.observation(s.to_move())
    } else if let Some(View(o)) = face.downcast_ref::<View>() {
        *o
    } else {
        return refused("not a position of dominoes");
    };
    let limits = ProofLimits { depth, ..ProofLimits::default() };
    let started = Instant::now();
    let states = dominoes_proof::consistent_count(&obs, limits.max_states);
    let states = states.map_or(format!("over {} placements", limits.max_states), |n| format!("{n} consistent states"));
    let (root, each) = dominoes_proof::verdicts(&obs, &limits).map_err(|e| CatalogError::Refused(e.to_string()))?;
    let (root, moves) = if r.each_move {
        (None, each.into_iter().map(|(m, v)| (m.to_string(), v.to_string())).collect())
    } else {
        (Some(root.to_string()), Vec::new())
    };
    Ok(Answer::Observation { observation: obs.to_string(), root, states, moves, elapsed: started.elapsed() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::testing::{connect4, position};
    use crate::games::GameKind;

    #[test]
    fn a_loss_in_two_with_its_line_and_every_move_told_as_it_goes() {
        let Answer::Exact { depth, root: Some(root), .. } = solve(&connect4("44335"), Request::default()).unwrap()
        else {
            panic!("an exact answer of the position");
        };
        assert_eq!((root.verdict, root.line.len()), (Verdict::Loss(2), 2), "{root:?}");
        assert_eq!(verdict_text(root.verdict, depth), "loss for the side to move within 2 plies");
        let mut told = Vec::new();
        let mut tell = |m: &str, p: &Proved| told.push((m.to_string(), p.verdict));
        let request = Request { each_move: true, on_move: Some(&mut tell), ..Request::default() };
        let Answer::Exact { root: None, moves, .. } = solve(&connect4("44335"), request).unwrap() else {
            panic!("each move's answer");
        };
        let moves: Vec<(String, Verdict)> = moves.into_iter().map(|(m, p)| (m, p.verdict)).collect();
        assert_eq!(told, moves);
        assert_eq!(moves.len(), 7);
        // Whatever O plays, X wins on its next move but for the two blocks,
        // after which X wins anyway: every move loses.
        assert!(moves.iter().all(|(_, v)| matches!(v, Verdict::Loss(_))), "{moves:?}");
    }

    #[test]
    fn the_horizon_is_the_games_own_or_asked() {
        assert_eq!(own_horizon(&connect4("start")), Some(42));
        assert_eq!(own_horizon(&connect4("4453")), Some(38));
        let focus = position(GameKind::Focus, "start");
        assert_eq!(own_horizon(&focus), None);
        let e = solve(&focus, Request::default()).unwrap_err();
        assert!(e.to_string().contains("horizon"), "{e}");
        let senat = position(GameKind::Senat, "start");
        assert!(solve(&senat, Request { max_depth: Some(2), ..Request::default() }).is_err());
    }

    #[test]
    fn dominoes_refuses_what_its_proof_does_not_take() {
        let p = position(GameKind::Dominoes, "start");
        let threads = NonZeroUsize::new(2).unwrap();
        let e = solve(&p, Request { max_depth: Some(4), threads, ..Request::default() }).unwrap_err();
        assert!(e.to_string().contains("threads"), "{e}");
        let e = solve(&p, Request { max_depth: Some(4), ..Request::default() }).unwrap_err();
        assert!(e.to_string().contains("a deal"), "{e}");
    }
}
