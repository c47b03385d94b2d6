//! [`Position`]: a position of any game of the catalog, behind one face
//! (texts, moves, result, perft) whatever its game, for the front ends that
//! hold positions of a game chosen at run time.
//!
//! What this module must never do: encode a rule or choose a move.

use super::CatalogError;
use crate::games::dominoes::encode as domino_encode;
use crate::games::encode::{Encoded, Encoding, returns};
use crate::games::senat::encode as senat_encode;
use crate::games::{DominoText, GameKind, LabGame, legal_moves, position_arg, result_line, winner};
use crate::picture::Region;
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
    /// What `senat show --game G` prints for a game other than Sénat: the
    /// board (in terminal colours where `colour`), or what a seat knows,
    /// then the position text on its own last line.
    fn show(&self, _colour: bool) -> String {
        format!("{}{}\n", self.board().unwrap_or_default(), self.text())
    }
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
    /// The position after `text`, and the move's text in its canonical
    /// form (as the game writes it).
    fn after_named(&self, text: &str) -> Result<(Box<dyn Face>, String), CatalogError>;
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
    /// A full state drawn uniformly among those `seat` cannot tell from
    /// this one (hidden information only).
    fn resample(&self, _seat: usize, _next_u64: &mut dyn FnMut() -> u64) -> Result<Box<dyn Face>, CatalogError> {
        Err(CatalogError::Refused("a game of perfect information: nothing is hidden to resample".into()))
    }
    /// Whether [`Face::text`] carries the variant.
    fn text_has_variant(&self) -> bool {
        false
    }
    /// Whether this is what one seat sees, not a position to play on.
    fn is_observation(&self) -> bool {
        false
    }
    /// A text that reads back as the game's start here and the moves
    /// played since, for a position whose text alone loses something (a
    /// Sénat game's repetition history); by default the text and no moves.
    fn record(&self) -> (String, Vec<String>) {
        (self.text(), Vec::new())
    }
    /// The sizes of the variant's integer actions and tensor.
    fn encoding(&self) -> Encoding;
    /// Who moves next, as a number.
    fn mover(&self) -> Mover;
    /// The ids of the legal moves (at a chance node, of the outcomes),
    /// ascending.
    fn legal_actions(&self) -> Vec<usize>;
    /// At a chance node, each outcome's id with its probability, ascending.
    fn chance_actions(&self) -> Vec<(usize, f64)> {
        Vec::new()
    }
    /// The legal move (or chance outcome) of id `id`, in move text.
    fn action_text(&self, id: usize) -> Result<String, CatalogError>;
    /// The position after the legal move (or chance outcome) of id `id`.
    fn play_action(&self, id: usize) -> Result<Box<dyn Face>, CatalogError>;
    /// Each player's return: zero-sum, +1 a win, 0 until the game is over.
    fn returns(&self) -> Vec<f64>;
    /// The tensor as `seat` sees the position.
    fn tensor(&self, seat: usize) -> Result<Vec<f32>, CatalogError>;
    /// The board picture (an SVG document of [`crate::picture`]) with the
    /// move `mv` drawn on it (an arrow or a ring) where given: `mv` is
    /// legal in `from` (this position itself for a move proposed here,
    /// the position before for the move that led here); `note` is a
    /// caption line. Dominoes is drawn with every hand face up.
    fn picture(&self, mv: Option<(&dyn Face, &str)>, note: Option<&str>) -> Result<String, CatalogError>;
    /// Where a player clicks on [`Face::picture`], in order, to name the
    /// legal move `mv` (empty where the picture cannot show it).
    fn regions(&self, _mv: &str) -> Result<Vec<Region>, CatalogError> {
        Ok(Vec::new())
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

    /// What `senat show --game G` prints for a game other than Sénat: the
    /// board (in terminal colours where `colour`), or for dominoes the
    /// hands or what the observer knows, then the position text on its own
    /// last line (Sénat's: its board and SPN).
    pub fn show(&self, colour: bool) -> String {
        self.face.show(colour)
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

    /// The board picture (an SVG document of [`crate::picture`], the
    /// viewer's): with `last`, the move that led here from the position
    /// given, drawn as an arrow or a ring; `note` is an extra caption line
    /// (escaped). Dominoes is drawn with every hand face up (an
    /// observation as its observer sees it).
    pub fn picture(&self, last: Option<(&Position, &str)>, note: Option<&str>) -> Result<String, CatalogError> {
        if let Some((from, _)) = last
            && from.game != self.game
        {
            return Err(other_game());
        }
        self.face.picture(last.map(|(p, m)| (p.face.as_ref(), m)), note)
    }

    /// The board picture ([`Position::picture`], no move marked) as pixels:
    /// `(width, height, pixels)`, three bytes (red, green, blue) a pixel,
    /// row by row ([`crate::picture::canvas::rgb`]).
    pub fn picture_rgb(&self) -> Result<(u32, u32, Vec<u8>), CatalogError> {
        let svg = self.picture(None, None)?;
        crate::picture::canvas::rgb(&svg).map_err(|e| CatalogError::Refused(e.to_string()))
    }

    /// The board picture of the move `mv`, legal here (an analysis's best
    /// move): the position after it, with the move drawn as the last one
    /// (an arrow, a ring), so that every game shows where it goes.
    pub fn picture_of_move(&self, mv: &str, note: Option<&str>) -> Result<String, CatalogError> {
        self.play(mv)?.picture(Some((self, mv)), note)
    }

    /// Where a player clicks on [`Position::picture`], in order, to name
    /// the legal move `mv` (the analysis board's clicks): the piece, then
    /// where it goes; empty where the picture cannot show the move (a
    /// pass, a chance outcome). Moves may share their regions (Sénat's
    /// faces, a quarter turn's): the page offers those left.
    pub fn regions(&self, mv: &str) -> Result<Vec<Region>, CatalogError> {
        self.face.regions(mv)
    }

    /// Whether chance moves next (a dominoes deal or draw).
    pub fn is_chance(&self) -> bool {
        self.face.is_chance()
    }

    /// The position after the move `text` (a chance outcome too); refused
    /// for an unreadable or illegal move and for an observation.
    pub fn play(&self, text: &str) -> Result<Position, CatalogError> {
        Ok(self.play_named(text)?.0)
    }

    /// The state of a lab game's position, for a caller that holds the
    /// game's type (`None` for a position of another game).
    pub fn lab_state<G: LabGame + 'static>(&self) -> Option<&G::State> {
        self.face.as_any().downcast_ref::<Lab<G>>().map(|l| &l.0)
    }

    /// The Sénat game `game` (played under `variant`) as a position: its
    /// last position, with its repetition history.
    pub fn of_senat_game(game: GameRecord, variant: SenatVariant) -> Position {
        Position { game: GameKind::Senat, face: Box::new(Senat(Box::new(game), variant)) }
    }

    /// The game of a Sénat position, with its repetition history (`None`
    /// for the other games).
    pub fn senat_game(&self) -> Option<&senat_rules::GameRecord> {
        self.face.as_any().downcast_ref::<Senat>().map(|s| &*s.0)
    }

    /// The full state of a dominoes position (`None` for an observation and
    /// for the other games).
    pub fn domino_state(&self) -> Option<&DominoState> {
        self.face.as_any().downcast_ref::<Domino>().map(|d| &d.0)
    }

    /// [`Position::play`], with the move's text in its canonical form (as
    /// the game writes it, whatever spelling `text` used).
    pub fn play_named(&self, text: &str) -> Result<(Position, String), CatalogError> {
        let (face, canonical) = self.face.after_named(text)?;
        Ok((Position { game: self.game, face }, canonical))
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

    /// Dominoes: a full state drawn uniformly among those `seat` cannot
    /// tell from this one (the other hands and the boneyard dealt anew,
    /// consistently with everything `seat` has seen: the determinization
    /// of the lab's information-set searches); from a full state or from
    /// `seat`'s own observation, with `next_u64` the randomness.
    pub fn resample(&self, seat: usize, next_u64: &mut dyn FnMut() -> u64) -> Result<Position, CatalogError> {
        let face = self.face.resample(seat, next_u64).map_err(|e| match e {
            CatalogError::Refused(m) if m.starts_with("a game of perfect") => {
                CatalogError::Refused(format!("{} is {m}", self.game))
            }
            e => e,
        })?;
        Ok(Position { game: self.game, face })
    }

    /// Whether this is a dominoes observation (what one seat sees), which
    /// cannot be played on, rather than a position.
    pub fn is_observation(&self) -> bool {
        self.face.is_observation()
    }

    /// Whether the position is shown by its own text alone (the lab games:
    /// their position text carries the variant).
    pub fn text_has_variant(&self) -> bool {
        self.face.text_has_variant()
    }

    /// The position as a start text and the moves played from it
    /// ([`Position::read`] then [`Position::play`] each gives the same
    /// position, a Sénat game's repetition history included): the text
    /// and no moves for every game but Sénat.
    pub fn record(&self) -> (String, Vec<String>) {
        self.face.record()
    }

    /// The sizes of the variant's integer actions and tensor
    /// ([`crate::games::encode`]): the same for every position of a game
    /// started with the same variant.
    pub fn encoding(&self) -> Encoding {
        self.face.encoding()
    }

    /// Who moves next: a player's number (Sénat's red 0, blue 1; the other
    /// games' seats in order), chance, or nobody once the game is over.
    pub fn mover(&self) -> Mover {
        self.face.mover()
    }

    /// The integer ids of the legal moves, ascending (at a chance node, of
    /// its outcomes); each names one move the same way in every position of
    /// the variant, below [`Encoding::actions`] (chance outcomes below
    /// [`Encoding::chance_outcomes`]).
    pub fn legal_actions(&self) -> Vec<usize> {
        self.face.legal_actions()
    }

    /// At a chance node, each outcome's id with its probability, ascending;
    /// empty elsewhere.
    pub fn chance_actions(&self) -> Vec<(usize, f64)> {
        self.face.chance_actions()
    }

    /// The move text of the legal move (or chance outcome) `id`; refused
    /// for an id that is not legal here.
    pub fn action_text(&self, id: usize) -> Result<String, CatalogError> {
        self.face.action_text(id)
    }

    /// The position after the legal move (or chance outcome) `id`; refused
    /// for an id that is not legal here and for an observation.
    pub fn play_action(&self, id: usize) -> Result<Position, CatalogError> {
        Ok(Position { game: self.game, face: self.face.play_action(id)? })
    }

    /// Each player's return, zero-sum ([`crate::games::encode::zero_sum`]):
    /// +1 for a winner, 0 for a draw and until the game is over.
    pub fn returns(&self) -> Vec<f64> {
        self.face.returns()
    }

    /// The position as `seat` sees it, as a flat tensor of
    /// [`Encoding::tensor_shape`]: the whole position for the games of
    /// perfect information (the same for every seat), the seat's
    /// observation for dominoes (an observation only for its observer).
    pub fn tensor(&self, seat: usize) -> Result<Vec<f32>, CatalogError> {
        let n = self.encoding().players;
        if seat >= n {
            return Err(CatalogError::Refused(format!("seat {seat}: this game has players 0 to {}", n - 1)));
        }
        self.face.tensor(seat)
    }

    /// The game's state, for an agent of the game.
    pub(super) fn face(&self) -> &dyn Face {
        self.face.as_ref()
    }
}

/// Who moves next ([`Position::mover`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// The player of this number.
    Player(usize),
    /// Chance (a dominoes deal or draw).
    Chance,
    /// Nobody: the game is over.
    Over,
}

/// The move among `moves` whose id is `id`, or why none is.
fn of_id<M: Copy>(
    moves: impl IntoIterator<Item = M>,
    id: usize,
    id_of: impl Fn(M) -> usize,
) -> Result<M, CatalogError> {
    moves
        .into_iter()
        .find(|&m| id_of(m) == id)
        .ok_or_else(|| CatalogError::Refused(format!("action {id} is not legal here")))
}

/// A position of another game than the face's (never reached through
/// [`Position::picture`], which compares the games first).
fn other_game() -> CatalogError {
    CatalogError::Refused("the move's position is of another game".into())
}

/// The ascending ids of `moves`.
fn ids<M>(moves: impl IntoIterator<Item = M>, id_of: impl Fn(M) -> usize) -> Vec<usize> {
    let mut v: Vec<usize> = moves.into_iter().map(id_of).collect();
    v.sort_unstable();
    v
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

impl<G: crate::picture::Drawn + Encoded + 'static> Face for Lab<G>
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
    fn show(&self, colour: bool) -> String {
        format!("{}{}\n", G::board(&self.0, colour), G::position_text(&self.0))
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut v: Vec<String> = legal_moves::<G>(&self.0).into_iter().map(G::move_text).collect();
        v.sort();
        v
    }
    fn after_named(&self, text: &str) -> Result<(Box<dyn Face>, String), CatalogError> {
        let m = G::parse_move(&self.0, text)?;
        Ok((Box::new(Lab::<G>(G::apply(&self.0, m))), G::move_text(m)))
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
    fn encoding(&self) -> Encoding {
        G::encoding(&self.0)
    }
    fn mover(&self) -> Mover {
        if G::result(&self.0).is_some() { Mover::Over } else { Mover::Player(G::to_move(&self.0)) }
    }
    fn legal_actions(&self) -> Vec<usize> {
        ids(legal_moves::<G>(&self.0), |m| G::action_id(&self.0, m))
    }
    fn action_text(&self, id: usize) -> Result<String, CatalogError> {
        of_id(legal_moves::<G>(&self.0), id, |m| G::action_id(&self.0, m)).map(G::move_text)
    }
    fn play_action(&self, id: usize) -> Result<Box<dyn Face>, CatalogError> {
        let m = of_id(legal_moves::<G>(&self.0), id, |m| G::action_id(&self.0, m))?;
        Ok(Box::new(Lab::<G>(G::apply(&self.0, m))))
    }
    fn returns(&self) -> Vec<f64> {
        returns(G::result(&self.0).as_ref(), G::players(&self.0))
    }
    fn tensor(&self, seat: usize) -> Result<Vec<f32>, CatalogError> {
        let mut out = vec![0.0; G::encoding(&self.0).tensor_len()];
        G::tensor(&self.0, seat, &mut out);
        Ok(out)
    }
    fn picture(&self, mv: Option<(&dyn Face, &str)>, note: Option<&str>) -> Result<String, CatalogError> {
        let last = match mv {
            Some((from, text)) => {
                let from = &from.as_any().downcast_ref::<Lab<G>>().ok_or_else(other_game)?.0;
                Some((G::parse_move(from, text)?, from))
            }
            None => None,
        };
        Ok(G::picture(&self.0, last, note))
    }
    fn regions(&self, mv: &str) -> Result<Vec<Region>, CatalogError> {
        Ok(G::regions(&self.0, G::parse_move(&self.0, mv)?))
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
    fn after_named(&self, text: &str) -> Result<(Box<dyn Face>, String), CatalogError> {
        let refuse = |e: &dyn fmt::Display| CatalogError::Refused(format!("move `{text}`: {e}"));
        let m = self.0.position().parse_move(text).map_err(|e| refuse(&e))?;
        let mut next = self.0.clone();
        next.play(m).map_err(|e| refuse(&e))?;
        Ok((Box::new(Senat(next, self.1)), m.to_string()))
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
    fn record(&self) -> (String, Vec<String>) {
        (self.0.start().to_spn(), self.0.moves().iter().map(|m| m.to_string()).collect())
    }
    fn encoding(&self) -> Encoding {
        senat_encode::encoding(self.0.position())
    }
    fn mover(&self) -> Mover {
        if self.0.outcome().is_some() {
            Mover::Over
        } else {
            // A player is a seat (under `swap=yes`, the colour it drafted with).
            let p = self.0.position();
            Mover::Player(crate::games::senat::seat_player(p, p.side_to_move()))
        }
    }
    fn legal_actions(&self) -> Vec<usize> {
        if self.0.outcome().is_some() {
            return Vec::new();
        }
        ids(self.0.position().legal_moves().iter().copied(), senat_encode::action_id)
    }
    fn action_text(&self, id: usize) -> Result<String, CatalogError> {
        self.senat_move(id).map(|m| m.to_string())
    }
    fn play_action(&self, id: usize) -> Result<Box<dyn Face>, CatalogError> {
        let m = self.senat_move(id)?;
        let mut next = self.0.clone();
        next.play(m).map_err(|e| CatalogError::Refused(format!("action {id}: {e}")))?;
        Ok(Box::new(Senat(next, self.1)))
    }
    fn returns(&self) -> Vec<f64> {
        let p = self.0.position();
        returns(self.0.outcome().map(|o| crate::games::senat::seat_scores(p, o.winner)).as_ref(), 2)
    }
    fn tensor(&self, _seat: usize) -> Result<Vec<f32>, CatalogError> {
        let mut out = vec![0.0; senat_encode::TENSOR];
        senat_encode::tensor(self.0.position(), self.0.outcome().is_some(), &mut out);
        Ok(out)
    }
    fn picture(&self, mv: Option<(&dyn Face, &str)>, note: Option<&str>) -> Result<String, CatalogError> {
        let last = match mv {
            Some((from, text)) => {
                let from = from.as_any().downcast_ref::<Senat>().ok_or_else(other_game)?;
                let m = from
                    .0
                    .position()
                    .parse_move(text)
                    .map_err(|e| CatalogError::Refused(format!("move `{text}`: {e}")))?;
                Some(m)
            }
            None => None,
        };
        let frame = crate::picture::Frame { position: self.0.position(), last, note };
        Ok(crate::picture::svg_of_game(&frame, self.0.outcome()))
    }
    fn regions(&self, mv: &str) -> Result<Vec<Region>, CatalogError> {
        let p = self.0.position();
        let m = p.parse_move(mv).map_err(|e| CatalogError::Refused(format!("move `{mv}`: {e}")))?;
        Ok(crate::picture::regions(p, m))
    }
    fn boxed(&self) -> Box<dyn Face> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Senat {
    /// The legal move of id `id`.
    fn senat_move(&self, id: usize) -> Result<senat_rules::moves::Move, CatalogError> {
        if self.0.outcome().is_some() {
            return Err(CatalogError::Refused(format!("action {id}: the game is over")));
        }
        of_id(self.0.position().legal_moves().iter().copied(), id, senat_encode::action_id)
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
    /// The hands, the open ends, the boneyard, the scores and who moves.
    fn show(&self, _colour: bool) -> String {
        use std::fmt::Write;
        let s = &self.0;
        let mut t = String::new();
        for p in 0..s.players() {
            let _ = writeln!(t, "player {p}: {:<40} score {}", hand_text(s.hand(p)), s.scores()[p]);
        }
        let ends = s.ends().map_or("empty chain".to_string(), |(l, r)| format!("open ends {l} and {r}"));
        let _ = writeln!(t, "{ends}; boneyard {}; {} rounds played", hand_text(s.boneyard()), s.rounds_played());
        let _ = match s.outcome() {
            Some(o) => writeln!(t, "{o}"),
            None if s.is_chance() => writeln!(t, "chance to move (a deal or a draw)"),
            None => writeln!(t, "player {} to move", s.to_move()),
        };
        let _ = writeln!(t, "{s}");
        t
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
    fn after_named(&self, text: &str) -> Result<(Box<dyn Face>, String), CatalogError> {
        let mut next = self.0;
        let m = next.parse_move(text).map_err(|e| CatalogError::Refused(e.to_string()))?;
        next.play(m).map_err(|e| CatalogError::Refused(e.to_string()))?;
        Ok((Box::new(Domino(next)), m.to_string()))
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
    fn encoding(&self) -> Encoding {
        domino_encode::encoding(&self.0.variant())
    }
    fn mover(&self) -> Mover {
        if self.0.outcome().is_some() {
            Mover::Over
        } else if self.0.is_chance() {
            Mover::Chance
        } else {
            Mover::Player(self.0.to_move())
        }
    }
    fn legal_actions(&self) -> Vec<usize> {
        ids(self.domino_moves(), domino_encode::action_id)
    }
    fn chance_actions(&self) -> Vec<(usize, f64)> {
        let mut out = Vec::new();
        self.0.chance_outcomes(&mut out);
        let mut v: Vec<(usize, f64)> = out.into_iter().map(|(m, p)| (domino_encode::action_id(m), p)).collect();
        v.sort_by_key(|&(id, _)| id);
        v
    }
    fn action_text(&self, id: usize) -> Result<String, CatalogError> {
        of_id(self.domino_moves(), id, domino_encode::action_id).map(|m| m.to_string())
    }
    fn play_action(&self, id: usize) -> Result<Box<dyn Face>, CatalogError> {
        let m = of_id(self.domino_moves(), id, domino_encode::action_id)?;
        let mut next = self.0;
        next.play(m).map_err(|e| CatalogError::Refused(format!("action {id}: {e}")))?;
        Ok(Box::new(Domino(next)))
    }
    fn returns(&self) -> Vec<f64> {
        let n = self.0.players();
        returns(self.0.outcome().map(|o| o.scores(n)).as_ref(), n)
    }
    fn tensor(&self, seat: usize) -> Result<Vec<f32>, CatalogError> {
        let mut out = vec![0.0; domino_encode::tensor_len(self.0.players())];
        domino_encode::tensor(&self.0.observation(seat), &mut out);
        Ok(out)
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
    fn picture(&self, mv: Option<(&dyn Face, &str)>, note: Option<&str>) -> Result<String, CatalogError> {
        use crate::picture::dominoes::{Frame, View as Seen, svg};
        Ok(svg(&Frame { view: Seen::Revealed(&self.0), mark_last: mv.is_some(), note }))
    }
    fn regions(&self, mv: &str) -> Result<Vec<Region>, CatalogError> {
        let m = self.0.parse_move(mv).map_err(|e| CatalogError::Refused(e.to_string()))?;
        Ok(crate::picture::dominoes::regions(&self.0, m))
    }
    fn resample(&self, seat: usize, next_u64: &mut dyn FnMut() -> u64) -> Result<Box<dyn Face>, CatalogError> {
        // The seat is checked by `observation`.
        self.observation(Some(seat))?;
        Ok(Box::new(Domino(dominoes_rules::sample(&self.0.observation(seat), next_u64))))
    }
    fn boxed(&self) -> Box<dyn Face> {
        Box::new(*self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A set of tiles as `senat show` lists them (`-` for none).
fn hand_text(set: dominoes_rules::TileSet) -> String {
    crate::play::dominoes::tiles(set, "-")
}

impl Domino {
    /// The legal decisions, or at a chance node the outcomes.
    fn domino_moves(&self) -> Vec<dominoes_rules::Move> {
        let mut v = Vec::new();
        if self.0.is_chance() {
            let mut out = Vec::new();
            self.0.chance_outcomes(&mut out);
            v.extend(out.into_iter().map(|(m, _)| m));
        } else {
            self.0.legal_moves(&mut v);
        }
        v
    }
}

/// A dominoes match as one player sees it.
#[derive(Debug, Clone, Copy)]
pub(super) struct View(pub(super) Observation);

impl Face for View {
    fn text(&self) -> String {
        self.0.to_string()
    }
    fn is_observation(&self) -> bool {
        true
    }
    fn variant(&self) -> String {
        self.0.variant().to_text()
    }
    fn board(&self) -> Result<String, CatalogError> {
        no_board()
    }
    /// The observer's hand, the others' counts and scores, the open ends,
    /// the boneyard's size and the tiles unseen.
    fn show(&self, _colour: bool) -> String {
        use std::fmt::Write;
        let o = &self.0;
        let mut t = String::new();
        let _ = writeln!(t, "observer {}: {}", o.observer(), hand_text(o.hand()));
        for p in (0..o.players()).filter(|&p| p != o.observer()) {
            let _ = writeln!(t, "player {p}: {} tiles, score {}", o.hand_size(p), o.scores()[p]);
        }
        let ends = o.ends().map_or("empty chain".to_string(), |(l, r)| format!("open ends {l} and {r}"));
        let _ = writeln!(t, "{ends}; boneyard {} tiles; unseen {}", o.boneyard_size(), hand_text(o.unseen()));
        let _ = writeln!(t, "{o}");
        t
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut v = Vec::new();
        self.0.legal_moves(&mut v);
        texts(v)
    }
    fn after_named(&self, _text: &str) -> Result<(Box<dyn Face>, String), CatalogError> {
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
    fn encoding(&self) -> Encoding {
        domino_encode::encoding(&self.0.variant())
    }
    fn mover(&self) -> Mover {
        if self.0.match_over() { Mover::Over } else { Mover::Player(self.0.to_move()) }
    }
    fn legal_actions(&self) -> Vec<usize> {
        let mut v = Vec::new();
        self.0.legal_moves(&mut v);
        ids(v, domino_encode::action_id)
    }
    fn action_text(&self, id: usize) -> Result<String, CatalogError> {
        let mut v = Vec::new();
        self.0.legal_moves(&mut v);
        of_id(v, id, domino_encode::action_id).map(|m| m.to_string())
    }
    fn play_action(&self, _id: usize) -> Result<Box<dyn Face>, CatalogError> {
        self.after_named("").map(|(f, _)| f)
    }
    fn returns(&self) -> Vec<f64> {
        let n = self.0.players();
        returns(self.0.outcome().map(|o| o.scores(n)).as_ref(), n)
    }
    fn tensor(&self, seat: usize) -> Result<Vec<f32>, CatalogError> {
        if seat != self.0.observer() {
            return Err(CatalogError::Refused(format!(
                "seat {seat}: this is player {}'s observation",
                self.0.observer()
            )));
        }
        let mut out = vec![0.0; domino_encode::tensor_len(self.0.players())];
        domino_encode::tensor(&self.0, &mut out);
        Ok(out)
    }
    fn observation(&self, _seat: Option<usize>) -> Result<Box<dyn Face>, CatalogError> {
        Err(CatalogError::Refused("this is already an observation".into()))
    }
    fn picture(&self, mv: Option<(&dyn Face, &str)>, note: Option<&str>) -> Result<String, CatalogError> {
        use crate::picture::dominoes::{Frame, View as Seen, svg};
        Ok(svg(&Frame { view: Seen::Observer(&self.0), mark_last: mv.is_some(), note }))
    }
    fn resample(&self, seat: usize, next_u64: &mut dyn FnMut() -> u64) -> Result<Box<dyn Face>, CatalogError> {
        if seat != self.0.observer() {
            return Err(CatalogError::Refused(format!(
                "seat {seat}: this is player {}'s observation",
                self.0.observer()
            )));
        }
        Ok(Box::new(Domino(dominoes_rules::sample(&self.0, next_u64))))
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

    /// `show` of every game (what `senat show --game G` prints) ends with
    /// the position's text on its own line, after the board or, for
    /// dominoes, the hands or what the observer knows.
    #[test]
    fn show_ends_with_the_text_in_every_game() {
        for game in GameKind::ALL {
            let p = Position::read(game, "start", "").unwrap();
            let shown = p.show(false);
            assert_eq!(shown.lines().last(), Some(p.text().as_str()), "{game}: {shown}");
            assert!(shown.lines().count() > 1, "{game}: something before the text: {shown}");
        }
        let d = Position::read(GameKind::Dominoes, "start", "").unwrap();
        let dealt = d.play(&d.legal_moves()[0]).unwrap();
        assert!(dealt.show(false).starts_with("player 0: "), "a state shows the hands");
    }

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

    /// Dominoes' resampling keeps what the seat sees and changes what it
    /// does not (over a few draws); the other games refuse it.
    #[test]
    fn resampling_keeps_the_seats_view() {
        let mut p = Position::read(GameKind::Dominoes, "start", "").unwrap();
        while p.is_chance() {
            p = p.play_action(p.chance_actions()[0].0).unwrap();
        }
        let seat = match p.mover() {
            Mover::Player(s) => s,
            m => panic!("{m:?}"),
        };
        let view = p.observation(Some(seat)).unwrap().text();
        let mut rng = rng_from_seed(3);
        let mut next = || rand::Rng::next_u64(&mut rng);
        let drawn: Vec<Position> = (0..5).map(|_| p.resample(seat, &mut next).unwrap()).collect();
        assert!(drawn.iter().all(|q| q.observation(Some(seat)).unwrap().text() == view));
        assert!(drawn.iter().any(|q| q.text() != p.text()));
        let from_view = p.observation(Some(seat)).unwrap().resample(seat, &mut next).unwrap();
        assert_eq!(from_view.observation(Some(seat)).unwrap().text(), view);
        assert!(p.resample(9, &mut next).is_err());
        let c4 = Position::read(GameKind::Connect4, "start", "").unwrap();
        assert!(c4.resample(0, &mut next).unwrap_err().to_string().contains("perfect information"));
    }

    /// Every game through the integer face: each legal move has one id
    /// below the count, its text is the move's, playing the id is playing
    /// the text, the tensor has its shape, and the returns are zero-sum.
    #[test]
    fn every_game_plays_by_integer_actions_through_the_catalog() {
        for (game, variant) in GameKind::ALL.into_iter().map(|g| (g, "")).chain([
            (GameKind::Dominoes, "players=3,target=20"),
            (GameKind::Focus, "fix=swap"),
            (GameKind::Connect4, "width=5,height=4"),
        ]) {
            let mut p = Position::read(game, "start", variant).unwrap();
            let e = p.encoding();
            let mut rng = rng_from_seed(11);
            let mut plies = 0u64;
            while !p.is_over() {
                let ids = p.legal_actions();
                let mut texts: Vec<String> = ids.iter().map(|&id| p.action_text(id).unwrap()).collect();
                assert!(ids.windows(2).all(|w| w[0] < w[1]), "{game}: {ids:?}");
                let limit = if p.is_chance() { e.chance_outcomes } else { e.actions };
                assert!(ids.iter().all(|&id| id < limit), "{game}: {ids:?} not below {limit}");
                texts.sort();
                assert_eq!(texts, p.legal_moves(), "{game} {}", p.text());
                for seat in 0..e.players {
                    assert_eq!(p.tensor(seat).unwrap().len(), e.tensor_len(), "{game}");
                }
                assert_eq!(p.mover() == Mover::Chance, p.is_chance());
                let id = ids[game_search::rng::below(&mut rng, ids.len())];
                let next = p.play_action(id).unwrap();
                assert_eq!(next.text(), p.play(&p.action_text(id).unwrap()).unwrap().text(), "{game}");
                p = next;
                plies += 1;
                assert!(plies <= e.max_plies, "{game}");
            }
            assert_eq!(p.mover(), Mover::Over);
            assert!(p.legal_actions().is_empty() && p.play_action(0).is_err());
            let r = p.returns();
            assert_eq!(r.len(), e.players);
            assert!(r.iter().sum::<f64>().abs() < 1e-9 && r.iter().all(|x| (-1.0..=1.0).contains(x)), "{game}: {r:?}");
            assert!(p.tensor(e.players).is_err());
        }
    }

    /// Every game's picture through the one face (with the move that led
    /// there, and an analysis's best move shown played), and an analysis
    /// at a small budget: its best move legal, candidates with visits, the
    /// win probability inside its interval.
    #[test]
    fn every_games_clicks_lie_on_its_picture_and_name_moves() {
        let size = |svg: &str| -> (i32, i32) {
            let num = |key: &str| {
                let at = svg.find(key).unwrap() + key.len();
                svg[at..].split('"').next().unwrap().parse::<i32>().unwrap()
            };
            (num(" width=\""), num(" height=\""))
        };
        for game in GameKind::ALL {
            let mut p = Position::read(game, "start", "").unwrap();
            let mut rng = rng_from_seed(11);
            let (mut decisions, mut named) = (0, 0);
            for _ in 0..120 {
                if p.is_over() {
                    break;
                }
                let moves = p.legal_moves();
                if !p.is_chance() {
                    let (w, h) = size(&p.picture(None, None).unwrap());
                    let regions: Vec<Vec<Region>> = moves.iter().map(|m| p.regions(m).unwrap()).collect();
                    for (m, rs) in moves.iter().zip(&regions) {
                        for r in rs {
                            assert!(
                                r.x >= 0 && r.y >= 0 && r.x + r.w <= w && r.y + r.h <= h,
                                "{game} {m}: {r:?} off {w}×{h}"
                            );
                            assert!(r.contains(r.centre().0, r.centre().1) && r.w > 0 && r.h > 0, "{game} {m}: {r:?}");
                        }
                    }
                    // The clicks on a move's regions leave the moves with the same regions: few
                    // (a face to show, a quarter turn's: at most 6), and one wherever they can.
                    let mut biggest = 0;
                    for rs in regions.iter().filter(|rs| !rs.is_empty()) {
                        biggest = biggest.max(regions.iter().filter(|other| other == &rs).count());
                    }
                    assert!(biggest <= 6, "{game}: {biggest} moves share their clicks in {}", p.text());
                    decisions += 1;
                    named += usize::from(
                        regions.iter().any(|rs| !rs.is_empty() && regions.iter().filter(|o| o == &rs).count() == 1),
                    );
                }
                p = p.play(&moves[game_search::rng::below(&mut rng, moves.len())]).unwrap();
            }
            // Sénat's 23 placements (a face to choose) are where no click names a move alone.
            assert!(decisions > 0 && named * 10 >= decisions * 7, "{game}: {named} of {decisions} positions");
            assert!(p.regions("no such move").is_err() || p.is_over(), "{game}");
        }
    }

    #[test]
    fn every_game_draws_and_is_analysed_through_the_catalog() {
        for game in GameKind::ALL {
            let mut p = Position::read(game, "start", "").unwrap();
            let mut before = None;
            let mut rng = rng_from_seed(5);
            for _ in 0..30 {
                if !p.is_chance() && before.is_some() {
                    break;
                }
                let moves = p.legal_moves();
                let m = moves[game_search::rng::below(&mut rng, moves.len())].clone();
                let next = p.play(&m).unwrap();
                before = Some((p, m));
                p = next;
            }
            let (b, m) = before.as_ref().unwrap();
            let svg = p.picture(Some((b, m)), Some("<note>")).unwrap();
            assert!(svg.starts_with("<svg") && svg.contains("&lt;note&gt;"), "{game}");
            assert!(p.picture(None, None).unwrap().starts_with("<svg"), "{game}");
            let c4 = Position::read(GameKind::Connect4, "start", "").unwrap();
            if game != GameKind::Connect4 {
                assert!(p.picture(Some((&c4, "4")), None).is_err(), "{game}: another game's move");
            }
            let spec = crate::catalog::analysis_spec(game, 60);
            let a = Agent::new(game, &spec).unwrap().analyse(&p, &mut rng_from_seed(1)).unwrap();
            assert!(p.legal_moves().contains(&a.best), "{game}: {a:?}");
            assert!(!a.candidates.is_empty() && a.candidates.iter().all(|c| c.visits > 0), "{game}: {a:?}");
            assert!(a.candidates.windows(2).all(|w| w[0].visits >= w[1].visits), "{game}: {a:?}");
            let w = a.win.unwrap().p();
            let (lo, hi) = a.interval.unwrap();
            assert!(lo <= w && w <= hi && (0.0..=1.0).contains(&lo) && hi <= 1.0, "{game}: {a:?}");
            assert_eq!(a.line.first(), Some(&a.best), "{game}: {a:?}");
            assert!(p.picture_of_move(&a.best, Some("best")).unwrap().starts_with("<svg"), "{game}");
            assert!(p.picture_of_move("no such move", None).is_err(), "{game}");
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
