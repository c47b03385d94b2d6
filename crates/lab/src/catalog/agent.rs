//! [`Agent`]: an agent of any game of the catalog, built from its spec and
//! choosing moves in a [`Position`] of its game, for the front ends that
//! pick the game at run time.
//!
//! What this module must never do: encode a rule or a search; it builds the
//! game's own agent and hands it the game's own view.

use super::position::{Domino, Face, Lab, Senat as SenatFace, View};
use super::{CatalogError, Position, lab_agent};
use crate::agent::Agent as GameAgent;
use crate::games::dominoes::{DominoSpec, Dominoes};
use crate::games::{GameKind, LabGame, legal_moves, result_line};
use crate::policy::{PolicySpec, Senat, Turn};
use crate::winprob::WinChance;
use game_search::rng::GameRng;

/// What every game's agent offers the front ends.
trait Chooser: Send {
    /// The agent's move in `face`, or why it has none.
    fn choose(&mut self, face: &dyn Face, rng: &mut GameRng) -> Result<String, CatalogError>;
    /// Forgets earlier games.
    fn new_game(&mut self);
    /// What the last choice's search said: its value and line
    /// ([`GameAgent::assess`]), its root moves ([`GameAgent::candidates`])
    /// and its one-line account, the moves in move text.
    fn report(&self) -> Searched;
}

/// A search's account in move texts (see [`Chooser::report`]).
type Searched = (Option<(WinChance, Vec<String>)>, Vec<(String, u64, f64)>, Option<String>);

/// The account of any game's agent, its moves turned to text by `text`.
fn searched<S: crate::agent::Seat>(a: &dyn GameAgent<S>, text: impl Fn(S::Move) -> String) -> Searched {
    let assessed = a.assess().map(|(w, line)| (w, line.into_iter().map(&text).collect()));
    let candidates = a.candidates().into_iter().map(|(m, n, v)| (text(m), n, v)).collect();
    (assessed, candidates, a.explain())
}

/// One root move of an analysis: its text, the search's visits and mean
/// result for the mover (0 and `None` for an agent that gives none).
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move, in move text.
    pub text: String,
    /// The search's visits of it.
    pub visits: u64,
    /// Its mean result for the player to move, in `[0, 1]`.
    pub value: f64,
}

/// An agent's opinion of a position ([`Agent::analyse`]): its best move,
/// the win probability of the player to move with a 95 % interval where
/// the search gives one, its principal line, its candidate moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The move the agent chose.
    pub best: String,
    /// The mover's win probability (a draw counting half), where the agent
    /// gives one ([`WinChance`]'s proof included).
    pub win: Option<WinChance>,
    /// A 95 % interval of [`Analysis::win`]: a proof's point, or Wilson's
    /// interval of the root's mean result over its playouts (results taken
    /// as Bernoulli draws: an approximation where draws or leaf
    /// evaluations give fractions); `None` for a search without playouts
    /// (alpha-beta's score).
    pub interval: Option<(f64, f64)>,
    /// The line the agent expects, its best move first.
    pub line: Vec<String>,
    /// The root moves the search visited, by visits, most first (MCTS
    /// agents only).
    pub candidates: Vec<Candidate>,
    /// The search's one-line account (`mcts: value …`, `ab: score …, depth 3`).
    pub account: Option<String>,
}

/// An agent of one game, as its spec names it (the command line's grammar
/// and named agents), ready for a new game.
pub struct Agent {
    game: GameKind,
    /// The spec's canonical text (a named agent expanded).
    name: String,
    inner: Box<dyn Chooser>,
}

impl std::fmt::Debug for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Agent({})", self.game)
    }
}

impl Agent {
    /// The agent `spec` of `game`; refused as the command line refuses it.
    pub fn new(game: GameKind, spec: &str) -> Result<Agent, CatalogError> {
        let bad = |e: &dyn std::fmt::Display| CatalogError::Agent(e.to_string());
        let (name, inner): (String, Box<dyn Chooser>) = crate::on_game!(game, G => {
            let a = lab_agent::<G>(spec)?;
            (a.to_string(), Box::new(LabChooser::<G>(a.try_build::<G>().map_err(|e| bad(&e))?)))
        },
        senat => {
            let p = PolicySpec::parse(spec).map_err(|e| bad(&e))?;
            (p.name.clone(), Box::new(SenatChooser(p.try_build().map_err(|e| bad(&e))?)))
        },
        dominoes => {
            let d = DominoSpec::parse(spec).map_err(|e| bad(&e))?;
            (d.to_string(), Box::new(DominoChooser(d.build())))
        });
        let mut a = Agent { game, name, inner };
        a.new_game();
        Ok(a)
    }

    /// The game it plays.
    pub fn game(&self) -> GameKind {
        self.game
    }

    /// The agent's spec as output files write it (canonical; a named agent
    /// expanded).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The last choice's account in one line (a search's value, depth or
    /// visits, principal line), `None` where the agent gives none.
    pub fn explain(&self) -> Option<String> {
        self.inner.report().2
    }

    /// The agent's move in `position`, in move text, or why it has none:
    /// the game is over, chance is to move, the observer has no decision,
    /// or the position is of another game. Its randomness is `rng`'s.
    pub fn choose(&mut self, position: &Position, rng: &mut GameRng) -> Result<String, CatalogError> {
        if position.game() != self.game {
            return Err(CatalogError::Refused(format!(
                "this agent plays {}, and the position is of {}",
                self.game,
                position.game()
            )));
        }
        self.inner.choose(position.face(), rng)
    }

    /// Forgets everything kept from earlier moves (search trees, tables).
    pub fn new_game(&mut self) {
        self.inner.new_game();
    }

    /// The agent's opinion of `position` (a fresh search: earlier moves
    /// forgotten): its choice, with the value, line and root moves its
    /// search gives. A dominoes agent searches the mover's observation, and
    /// its win probability is its root's mean result (the visits' weighted
    /// mean of its root moves'). Refused as [`Agent::choose`] refuses.
    pub fn analyse(&mut self, position: &Position, rng: &mut GameRng) -> Result<Analysis, CatalogError> {
        self.new_game();
        let best = self.choose(position, rng)?;
        let (assessed, root, account) = self.inner.report();
        let mut candidates: Vec<Candidate> = root
            .into_iter()
            .filter(|r| r.1 > 0)
            .map(|(text, visits, value)| Candidate { text, visits, value })
            .collect();
        candidates.sort_by(|a, b| b.visits.cmp(&a.visits).then_with(|| b.value.total_cmp(&a.value)));
        let playouts: u64 = candidates.iter().map(|c| c.visits).sum();
        let (win, line) = match assessed {
            Some((w, line)) => (Some(w), line),
            None if playouts > 0 => {
                let mean = candidates.iter().map(|c| c.value * c.visits as f64).sum::<f64>() / playouts as f64;
                (Some(WinChance::estimate(mean)), vec![best.clone()])
            }
            None => (None, vec![best.clone()]),
        };
        let interval = win.and_then(|w| match w.proof() {
            Some(_) => Some((w.p(), w.p())),
            None if playouts > 0 => Some(crate::stats::wilson_share(w.p(), playouts)),
            None => None,
        });
        Ok(Analysis { best, win, interval, line, candidates, account })
    }
}

/// A position of another game than the agent's (never reached through
/// [`Agent::choose`], which compares the games first).
fn other_game() -> CatalogError {
    CatalogError::Refused("the agent is not of this position's game".into())
}

/// A lab game's agent.
struct LabChooser<G: LabGame>(Box<dyn GameAgent<G>>);

impl<G: LabGame + 'static> Chooser for LabChooser<G>
where
    G::State: Send + Sync,
{
    fn choose(&mut self, face: &dyn Face, rng: &mut GameRng) -> Result<String, CatalogError> {
        let s = &face.as_any().downcast_ref::<Lab<G>>().ok_or_else(other_game)?.0;
        if G::result(s).is_some() {
            return Err(CatalogError::Refused(format!("the game is over ({})", result_line::<G>(s))));
        }
        if legal_moves::<G>(s).is_empty() {
            return Err(CatalogError::Refused("no legal move in this position".into()));
        }
        Ok(G::move_text(self.0.choose(s, rng)))
    }
    fn new_game(&mut self) {
        self.0.new_game();
    }
    fn report(&self) -> Searched {
        searched::<G>(self.0.as_ref(), G::move_text)
    }
}

/// A Sénat policy (it sees a [`Turn`]: the position and its history).
struct SenatChooser(Box<dyn GameAgent<Senat>>);

impl Chooser for SenatChooser {
    fn choose(&mut self, face: &dyn Face, rng: &mut GameRng) -> Result<String, CatalogError> {
        let g = &face.as_any().downcast_ref::<SenatFace>().ok_or_else(other_game)?.0;
        if let Some(o) = g.outcome() {
            return Err(CatalogError::Refused(format!("the game is over ({o})")));
        }
        let turn = Turn::new(g);
        if turn.legal == 0 {
            return Err(CatalogError::Refused(format!("no legal move in {}", g.position().to_spn())));
        }
        Ok(self.0.choose(&turn, rng).to_string())
    }
    fn new_game(&mut self) {
        self.0.new_game();
    }
    fn report(&self) -> Searched {
        searched(self.0.as_ref(), |m| m.to_string())
    }
}

/// A dominoes agent (it sees an observation).
struct DominoChooser(Box<dyn GameAgent<Dominoes>>);

impl Chooser for DominoChooser {
    fn choose(&mut self, face: &dyn Face, rng: &mut GameRng) -> Result<String, CatalogError> {
        let refuse = |m: String| Err(CatalogError::Refused(m));
        if let Some(Domino(s)) = face.as_any().downcast_ref::<Domino>() {
            if let Some(o) = s.outcome() {
                return refuse(format!("the match is over ({o})"));
            }
            if s.is_chance() {
                return refuse(
                    "chance is to move (a deal or a draw), not a player: give a position where a player decides".into(),
                );
            }
            return Ok(self.0.choose(&s.observation(s.to_move()), rng).to_string());
        }
        let View(o) = face.as_any().downcast_ref::<View>().ok_or_else(other_game)?;
        if o.match_over() {
            return refuse("the match is over".into());
        }
        if !o.is_my_decision() {
            return refuse(format!(
                "the observer, player {}, has no decision here (player {} to move, or a draw or deal pending)",
                o.observer(),
                o.to_move()
            ));
        }
        Ok(self.0.choose(o, rng).to_string())
    }
    fn new_game(&mut self) {
        self.0.new_game();
    }
    fn report(&self) -> Searched {
        searched(self.0.as_ref(), |m| m.to_string())
    }
}
