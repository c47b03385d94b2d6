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
use game_search::rng::GameRng;

/// What every game's agent offers the front ends.
trait Chooser: Send {
    /// The agent's move in `face`, or why it has none.
    fn choose(&mut self, face: &dyn Face, rng: &mut GameRng) -> Result<String, CatalogError>;
    /// Forgets earlier games.
    fn new_game(&mut self);
}

/// An agent of one game, as its spec names it (the command line's grammar
/// and named agents), ready for a new game.
pub struct Agent {
    game: GameKind,
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
        let inner: Box<dyn Chooser> = crate::on_game!(game, G => Box::new(LabChooser::<G>(lab_agent::<G>(spec)?.build::<G>())),
            senat => Box::new(SenatChooser(PolicySpec::parse(spec).map_err(|e| bad(&e))?.build())),
            dominoes => Box::new(DominoChooser(DominoSpec::parse(spec).map_err(|e| bad(&e))?.build())));
        let mut a = Agent { game, inner };
        a.new_game();
        Ok(a)
    }

    /// The game it plays.
    pub fn game(&self) -> GameKind {
        self.game
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
}
