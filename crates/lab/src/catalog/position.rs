//! [`Position`]: a position of any game of the catalog, behind one face
//! (texts, moves, result, perft) whatever its game, for the front ends that
//! hold positions of a game chosen at run time.
//!
//! What this module must never do: encode a rule or choose a move.

use super::CatalogError;
use crate::games::{DominoText, GameKind, LabGame, legal_moves, position_arg, result_line, winner};
use dominoes_rules::{Observation, State as DominoState};
use senat_rules::{GameRecord, Variant as SenatVariant};
use std::any::Any;
use std::fmt;

/// What every game's position offers the front ends, in texts.
pub(super) trait Face: fmt::Debug + Send + Sync {
    /// The position text (reads back the same position).
    fn text(&self) -> String;
    /// The variant options of its rules (empty: the rules as written).
    fn variant(&self) -> String;
    /// The board as `senat show --plain` draws it.
    fn board(&self) -> Result<String, CatalogError>;
    /// The legal moves in move text, sorted by byte order.
    fn legal_moves(&self) -> Vec<String>;
    /// At a chance node, each outcome with its probability.
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        Vec::new()
    }
    /// Whether chance moves next.
    fn is_chance(&self) -> bool {
        false
    }
    /// The position after `text`.
    fn after(&self, text: &str) -> Result<Box<dyn Face>, CatalogError>;
    /// Whether the game is over.
    fn is_over(&self) -> bool;
    /// The result in one line.
    fn result(&self) -> String;
    /// The winner's name, if the game is won.
    fn winner(&self) -> Option<String>;
    /// Who moves, if the game goes on.
    fn to_move(&self) -> Option<String>;
    /// Leaves `depth` plies below.
    fn perft(&self, depth: u32) -> Result<u64, CatalogError>;
    /// The observation of `seat` (hidden information only).
    fn observation(&self, _seat: Option<usize>) -> Result<Box<dyn Face>, CatalogError> {
        Err(CatalogError::Refused("a game of perfect information: its agents see the position itself".into()))
    }
    /// Whether [`Face::text`] carries the variant.
    fn text_has_variant(&self) -> bool {
        false
    }
    /// The same position, boxed.
    fn boxed(&self) -> Box<dyn Face>;
    /// For an agent of the game, which downcasts it.
    fn as_any(&self) -> &dyn Any;
}

/// A position of one game of the catalog: immutable, [`Position::play`]
/// returns the next one. Sénat's keeps its game's history (repetition).
#[derive(Debug)]
pub struct Position {
    game: GameKind,
    face: Box<dyn Face>,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position { game: self.game, face: self.face.boxed() }
    }
}

impl Position {
    /// The position `text` of `game` as `senat show --game GAME TEXT` reads
    /// it: `start` (or nothing) with `variant` (`--variant`), Sénat's
    /// `sample` or an SPN, the other games' position texts, a dominoes
    /// state or observation. A Focus position must have `game`'s players.
    pub fn read(game: GameKind, text: &str, variant: &str) -> Result<Position, CatalogError> {
        let text = if text.trim().is_empty() { "start" } else { text };
        let face: Box<dyn Face> = crate::on_game!(game, G => Box::new(Lab::<G>(lab_position::<G>(game, text, variant)?)),
        senat => {
            let v = SenatVariant::parse(variant).map_err(|e| CatalogError::Refused(format!("--variant: {e}")))?;
            let p = senat_rules::record::parse_position_arg_in(text, v)
                .map_err(|e| CatalogError::Refused(e.to_string()))?;
            Box::new(Senat(Box::new(GameRecord::new(p)), v))
        },
        dominoes => match crate::games::domino_position_arg(text, variant)? {
            DominoText::State(s) => Box::new(Domino(s)),
            DominoText::Observation(o) => Box::new(View(o)),
        });
        Ok(Position { game, face })
    }

    /// The game.
    pub fn game(&self) -> GameKind {
        self.game
    }

    /// The position text: the last line of `senat show` (reads back the
    /// same position; Sénat's SPN in its variant).
    pub fn text(&self) -> String {
        self.face.text()
    }

    /// The variant options of its rules, as `--variant` reads them.
    pub fn variant(&self) -> String {
        self.face.variant()
    }

    /// The board as `senat show --plain` draws it; dominoes has none.
    pub fn board(&self) -> Result<String, CatalogError> {
        self.face.board()
    }

    /// The legal moves in move text, sorted by byte order; none once the
    /// game is over; at a dominoes chance node the chance outcomes; for an
    /// observation, the observer's decisions.
    pub fn legal_moves(&self) -> Vec<String> {
        self.face.legal_moves()
    }

    /// At a dominoes chance node, each outcome with its probability, in the
    /// rules' order; empty elsewhere.
    pub fn chance_outcomes(&self) -> Vec<(String, f64)> {
        self.face.chance_outcomes()
    }

    /// Whether chance moves next (a dominoes deal or draw).
    pub fn is_chance(&self) -> bool {
        self.face.is_chance()
    }

    /// The position after the move `text` (a chance outcome too); refused
    /// for an unreadable or illegal move and for an observation.
    pub fn play(&self, text: &str) -> Result<Position, CatalogError> {
        Ok(Position { game: self.game, face: self.face.after(text)? })
    }

    /// Whether the game (a dominoes match) is over.
    pub fn is_over(&self) -> bool {
        self.face.is_over()
    }

    /// The result in one line, as `senat replay` ends.
    pub fn result(&self) -> String {
        self.face.result()
    }

    /// The winner of a finished game (Sénat's side, the seats of the
    /// winning team, dominoes' `player N`); `None` while it goes on, for a
    /// draw and for an observation.
    pub fn winner(&self) -> Option<String> {
        self.face.winner()
    }

    /// Who is to move (`chance` at a deal or draw); `None` once over.
    pub fn to_move(&self) -> Option<String> {
        self.face.to_move()
    }

    /// Leaves of the move tree `depth` plies below (bulk counting at the
    /// last ply; dominoes counts chance outcomes and needs a full state).
    pub fn perft(&self, depth: u32) -> Result<u64, CatalogError> {
        self.face.perft(depth)
    }

    /// Dominoes: the observation of `seat` (default the player to move).
    pub fn observation(&self, seat: Option<usize>) -> Result<Position, CatalogError> {
        let face = self.face.observation(seat).map_err(|e| match e {
            CatalogError::Refused(m) if m.starts_with("a game of perfect") => {
                CatalogError::Refused(format!("{} is {m}", self.game))
            }
            e => e,
        })?;
        Ok(Position { game: self.game, face })
    }

    /// Whether the position is shown by its own text alone (the lab games:
    /// their position text carries the variant).
    pub fn text_has_variant(&self) -> bool {
        self.face.text_has_variant()
    }

    /// The game's state, for an agent of the game.
    pub(super) fn face(&self) -> &dyn Face {
        self.face.as_ref()
    }
}

/// A lab game's position checked to be of `k` (Focus's player count).
fn lab_position<G: LabGame>(k: GameKind, text: &str, variant: &str) -> Result<G::State, CatalogError> {
    let s = position_arg::<G>(text, &k.variant(variant))?;
    let players = G::players(&s);
    if (k == GameKind::Focus4) != (players == 4) && k != GameKind::Debacle {
        return Err(CatalogError::Refused(format!("the position has {players} players, which is not --game {k}")));
    }
    Ok(s)
}

/// The sorted texts of `moves`.
fn texts<M: ToString>(moves: impl IntoIterator<Item = M>) -> Vec<String> {
    let mut t: Vec<String> = moves.into_iter().map(|m| m.to_string()).collect();
    t.sort();
    t
}

/// A position of a lab game.
pub(super) struct Lab<G: LabGame>(pub(super) G::State);

impl<G: LabGame> fmt::Debug for Lab<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&G::position_text(&self.0))
    }
}

impl<G: LabGame + 'static> Face for Lab<G>
where
    G::State: Send + Sync,
{
    fn text(&self) -> String {
        G::position_text(&self.0)
    }
    fn variant(&self) -> String {
        G::variant_text(&self.0)
    }
    fn board(&self) -> Result<String, CatalogError> {
        Ok(G::board(&self.0, false))
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut v: Vec<String> = legal_moves::<G>(&self.0).into_iter().map(G::move_text).collect();
        v.sort();
        v
    }
    fn after(&self, text: &str) -> Result<Box<dyn Face>, CatalogError> {
        let m = G::parse_move(&self.0, text)?;
        Ok(Box::new(Lab::<G>(G::apply(&self.0, m))))
    }
    fn is_over(&self) -> bool {
        G::result(&self.0).is_some()
    }
    fn result(&self) -> String {
        result_line::<G>(&self.0)
    }
    fn winner(&self) -> Option<String> {
        let s = &self.0;
        let team = winner::<G>(s, &G::result(s)?)?;
        let seats = G::seats(G::players(s));
        let names: Vec<&str> = (0..G::players(s)).filter(|&p| G::team(s, p) == team).map(|p| seats[p]).collect();
        Some(names.join(" and "))
    }
    fn to_move(&self) -> Option<String> {
        let s = &self.0;
        if G::result(s).is_some() {
            return None;
        }
        Some(G::seats(G::players(s))[G::to_move(s)].to_string())
    }
    fn perft(&self, depth: u32) -> Result<u64, CatalogError> {
        Ok(G::perft(&self.0, depth))
    }
    fn text_has_variant(&self) -> bool {
        true
    }
    fn boxed(&self) -> Box<dyn Face> {
        Box::new(Lab::<G>(self.0))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A Sénat game from the position read, with its repetition history.
#[derive(Debug, Clone)]
pub(super) struct Senat(pub(super) Box<GameRecord>, SenatVariant);

impl Face for Senat {
    fn text(&self) -> String {
        self.0.position().to_spn()
    }
    fn variant(&self) -> String {
        self.1.to_text()
    }
    fn board(&self) -> Result<String, CatalogError> {
        Ok(crate::render::board(self.0.position(), self.0.outcome(), false))
    }
    fn legal_moves(&self) -> Vec<String> {
        if self.0.outcome().is_some() {
            return Vec::new();
        }
        texts(self.0.position().legal_moves().iter())
    }
    fn after(&self, text: &str) -> Result<Box<dyn Face>, CatalogError> {
        let refuse = |e: &dyn fmt::Display| CatalogError::Refused(format!("move `{text}`: {e}"));
        let m = self.0.position().parse_move(text).map_err(|e| refuse(&e))?;
        let mut next = self.0.clone();
        next.play(m).map_err(|e| refuse(&e))?;
        Ok(Box::new(Senat(next, self.1)))
    }
    fn is_over(&self) -> bool {
        self.0.outcome().is_some()
    }
    fn result(&self) -> String {
        crate::play::senat::result_line(&self.0)
    }
    fn winner(&self) -> Option<String> {
        self.0.outcome().and_then(|o| o.winner).map(|s| s.to_string())
    }
    fn to_move(&self) -> Option<String> {
        if self.0.outcome().is_some() {
            return None;
        }
        Some(self.0.position().side_to_move().to_string())
    }
    fn perft(&self, depth: u32) -> Result<u64, CatalogError> {
        Ok(senat_rules::perft::perft(self.0.position(), depth))
    }
    fn boxed(&self) -> Box<dyn Face> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A dominoes match state, every hand known.
#[derive(Debug, Clone, Copy)]
pub(super) struct Domino(pub(super) DominoState);

/// No board drawing for dominoes.
fn no_board() -> Result<String, CatalogError> {
    Err(CatalogError::Refused("dominoes has no board drawing: read its text, or `senat show --game dominoes`".into()))
}

impl Face for Domino {
    fn text(&self) -> String {
        self.0.to_string()
    }
    fn variant(&self) -> String {
        self.0.variant().to_text()
    }
    fn board(&self) -> Result<String, CatalogError> {
        no_board()
    }
    fn legal_moves(&self) -> Vec<String> {
        if self.0.is_chance() {
            return self.chance_outcomes().into_iter().map(|(m, _)| m).collect();
        }
        let mut v = Vec::new();
        self.0.legal_moves(&mut v);
        texts(v)
    }
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        let mut out = Vec::new();
        self.0.chance_outcomes(&mut out);
        out.into_iter().map(|(m, p)| (m.to_string(), p)).collect()
    }
    fn is_chance(&self) -> bool {
        self.0.is_chance()
    }
    fn after(&self, text: &str) -> Result<Box<dyn Face>, CatalogError> {
        let mut next = self.0;
        let m = next.parse_move(text).map_err(|e| CatalogError::Refused(e.to_string()))?;
        next.play(m).map_err(|e| CatalogError::Refused(e.to_string()))?;
        Ok(Box::new(Domino(next)))
    }
    fn is_over(&self) -> bool {
        self.0.outcome().is_some()
    }
    fn result(&self) -> String {
        crate::play::dominoes::result_line(&self.0)
    }
    fn winner(&self) -> Option<String> {
        match self.0.outcome() {
            Some(dominoes_rules::Outcome::Win { player }) => Some(format!("player {player}")),
            _ => None,
        }
    }
    fn to_move(&self) -> Option<String> {
        if self.0.outcome().is_some() {
            None
        } else if self.0.is_chance() {
            Some("chance".into())
        } else {
            Some(format!("player {}", self.0.to_move()))
        }
    }
    fn perft(&self, depth: u32) -> Result<u64, CatalogError> {
        Ok(dominoes_rules::perft(&self.0, depth))
    }
    fn observation(&self, seat: Option<usize>) -> Result<Box<dyn Face>, CatalogError> {
        let p = seat.unwrap_or_else(|| self.0.to_move());
        if p >= self.0.players() {
            return Err(CatalogError::Refused(format!(
                "seat {p}: this match has players 0 to {}",
                self.0.players() - 1
            )));
        }
        Ok(Box::new(View(self.0.observation(p))))
    }
    fn boxed(&self) -> Box<dyn Face> {
        Box::new(*self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A dominoes match as one player sees it.
#[derive(Debug, Clone, Copy)]
pub(super) struct View(pub(super) Observation);

impl Face for View {
    fn text(&self) -> String {
        self.0.to_string()
    }
    fn variant(&self) -> String {
        self.0.variant().to_text()
    }
    fn board(&self) -> Result<String, CatalogError> {
        no_board()
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut v = Vec::new();
        self.0.legal_moves(&mut v);
        texts(v)
    }
    fn after(&self, _text: &str) -> Result<Box<dyn Face>, CatalogError> {
        Err(CatalogError::Refused(
            "an observation cannot be played on (the other hands are hidden): \
             play on the full state and take its observation"
                .into(),
        ))
    }
    fn is_over(&self) -> bool {
        self.0.match_over()
    }
    fn result(&self) -> String {
        if self.0.match_over() { "the match is over".into() } else { "the match goes on".into() }
    }
    fn winner(&self) -> Option<String> {
        None
    }
    fn to_move(&self) -> Option<String> {
        if self.0.match_over() { None } else { Some(format!("player {}", self.0.to_move())) }
    }
    fn perft(&self, _depth: u32) -> Result<u64, CatalogError> {
        Err(CatalogError::Refused("perft needs a full state, not an observation".into()))
    }
    fn observation(&self, _seat: Option<usize>) -> Result<Box<dyn Face>, CatalogError> {
        Err(CatalogError::Refused("this is already an observation".into()))
    }
    fn boxed(&self) -> Box<dyn Face> {
        Box::new(*self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Agent;
    use game_search::rng::rng_from_seed;

    /// Every game of the catalog, through the one face: a random game from
    /// the start, every position's text reading back as itself, perft(1)
    /// counting its moves, and an agent's move legal in it.
    #[test]
    fn every_game_reads_plays_and_writes_back_through_the_catalog() {
        for game in GameKind::ALL {
            let mut p = Position::read(game, "start", "").unwrap();
            let mut agent = Agent::new(game, "random").unwrap();
            let mut rng = rng_from_seed(7);
            for ply in 0..400 {
                let back = Position::read(game, &p.text(), &p.variant()).unwrap();
                assert_eq!(back.text(), p.text(), "{game} ply {ply}");
                if p.is_over() {
                    assert!(p.legal_moves().is_empty() || p.is_chance(), "{game}: {}", p.result());
                    break;
                }
                let moves = p.legal_moves();
                assert!(!moves.is_empty(), "{game} ply {ply}: {}", p.text());
                assert_eq!(p.perft(1).unwrap(), moves.len() as u64, "{game} ply {ply}: {}", p.text());
                let m = if p.is_chance() {
                    moves[ply % moves.len()].clone()
                } else {
                    let m = agent.choose(&p, &mut rng).unwrap();
                    assert!(moves.contains(&m), "{game}: {m} not in {moves:?}");
                    m
                };
                p = p.play(&m).unwrap();
            }
            assert!(p.play("no such move").is_err(), "{game}");
        }
    }

    #[test]
    fn an_agent_refuses_another_games_position_and_a_finished_game() {
        let mut a = Agent::new(GameKind::Focus, "random").unwrap();
        let c4 = Position::read(GameKind::Connect4, "start", "").unwrap();
        let e = a.choose(&c4, &mut rng_from_seed(1)).unwrap_err().to_string();
        assert_eq!(e, "this agent plays focus, and the position is of connect4");
        let won = Position::read(GameKind::Connect4, "4455667", "").unwrap();
        assert!(won.is_over() && won.legal_moves().is_empty());
        let mut c = Agent::new(GameKind::Connect4, "random").unwrap();
        assert!(c.choose(&won, &mut rng_from_seed(1)).unwrap_err().to_string().starts_with("the game is over"));
        assert!(Agent::new(GameKind::Connect4, "no-such-agent").is_err());
    }
}
