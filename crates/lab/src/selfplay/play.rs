//! The game loop: one complete game (draft and play) between the policies
//! of a matchup, from the game's own generator. The policies asked are
//! the seat's ([`Position::seat_of`] of the side to move): under `swap=yes`
//! the red drafter's agents play blue after a swap; the draft agents also
//! make the decision (`keep` or `swap`).
//!
//! It asks the policies for moves and the rules for the end; it never
//! decides a move itself, never writes anything, and never draws
//! randomness outside the game's generator.

use super::{Matchup, game_seed};
use crate::policy::{Agent, GameRng, Senat, Turn, rng_from_seed};
use crate::stats::GameSummary;
use senat_rules::game::{GameRecord, Outcome};
use senat_rules::movegen::Illegal;
use senat_rules::moves::Move;
use senat_rules::position::Position;
use senat_rules::variant::Variant;
use std::time::{Duration, Instant};

/// Fresh policies for one worker.
pub(super) struct Players {
    draft: [Box<dyn Agent<Senat>>; 2],
    play: [Box<dyn Agent<Senat>>; 2],
    /// Whether the games' value losses are summed ([`Matchup::varies`]).
    varies: bool,
}

impl Players {
    pub(super) fn new(m: &Matchup) -> Players {
        Players {
            draft: [m.draft_red.build(), m.draft_blue.build()],
            play: [m.red.build(), m.blue.build()],
            varies: m.varies(),
        }
    }
}

/// A finished game with what the output files need.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game, with its moves.
    pub game: GameRecord,
    /// How it ended.
    pub outcome: Outcome,
    /// Number of draft moves (the first moves of the record).
    pub draft_len: usize,
    /// Legal moves in the position before each move (same length as the record).
    pub legal: Vec<u16>,
    /// Sum of the legal-move counts of the play positions.
    pub legal_sum: u64,
    /// Where a policy draws value-bounded choices ([`Matchup::varies`]):
    /// each side's summed value loss of its drawn moves
    /// ([`Agent::sampled_loss`]), in millionths of score units (red 0, blue 1).
    pub vary_loss: Option<[u64; 2]>,
}

impl PlayedGame {
    /// The summary record of the game.
    pub fn summary(&self) -> GameSummary {
        let end = self.game.position();
        GameSummary {
            swapped: end.variant().swap.then(|| end.swapped()),
            winner: self.outcome.winner,
            reason: self.outcome.reason,
            play_len: (self.game.moves().len() - self.draft_len) as u32,
            legal_sum: self.legal_sum,
            vary_loss: self.vary_loss,
        }
    }
}

/// Wall-clock time the policies of each side spent choosing the moves of
/// one game ([`play_game_timed`]), by phase; indexed by seat (the red
/// drafter 0, the blue one 1: the side, but under `swap=yes` after a swap).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThinkTime {
    /// In the draft (gives and placements), forced opening moves excluded.
    pub draft: [Duration; 2],
    /// In the play phase.
    pub play: [Duration; 2],
}

/// Plays one complete game from `start` (the start of a variant's draft) with generator `rng`;
/// its first moves are `opening` (legal: checked by [`check_opening`]),
/// played without asking the policies (nor drawing from `rng`); then, up to
/// ply `book` of the game, uniformly random moves drawn from `rng` (the
/// book), then the policies' moves.
pub(super) fn play_with(
    players: &mut Players,
    start: Position,
    opening: &[Move],
    book: u32,
    rng: &mut GameRng,
    keep_legal: bool,
) -> PlayedGame {
    play_timed(players, start, opening, book, rng, keep_legal, None)
}

/// [`play_with`], adding the time of each policy call to `clock` if given.
fn play_timed(
    players: &mut Players,
    start: Position,
    opening: &[Move],
    book: u32,
    rng: &mut GameRng,
    keep_legal: bool,
    mut clock: Option<&mut ThinkTime>,
) -> PlayedGame {
    for p in players.draft.iter_mut().chain(players.play.iter_mut()) {
        p.new_game();
    }
    let mut game = GameRecord::new(start);
    let mut draft_len = 0;
    let mut legal = Vec::new();
    let mut legal_sum = 0u64;
    let mut loss = [0.0f64; 2];
    let outcome = loop {
        // The end rules of `GameRecord::outcome` (`Outcome::decide`), sharing one
        // move count with the policy.
        let p = game.position();
        let mut counted = None;
        let end = Outcome::decide(p, game.occurrences(), || {
            let turn = Turn::new(&game);
            let blocked = turn.legal == 0;
            counted = Some(turn);
            blocked
        });
        if let Some(o) = end {
            break o;
        }
        let turn = counted.unwrap_or_else(|| Turn::new(&game));
        let play = p.is_play();
        let n = turn.legal;
        if play {
            legal_sum += n as u64;
        }
        if keep_legal {
            legal.push(n as u16);
        }
        let side = p.seat_of(p.side_to_move()) as usize;
        let forced = opening.get(game.moves().len()).copied();
        if !play {
            draft_len += 1;
        }
        let m = if let Some(m) = forced {
            m
        } else if game.moves().len() < book as usize {
            crate::policy::random_move(p, rng).expect("a game not over has a move")
        } else {
            let started = clock.is_some().then(Instant::now);
            let agent = if play { &mut players.play[side] } else { &mut players.draft[side] };
            let m = agent.choose(&turn, rng);
            if players.varies {
                loss[side] += agent.sampled_loss().unwrap_or(0.0);
            }
            if let (Some(c), Some(t)) = (clock.as_deref_mut(), started) {
                let spent = if play { &mut c.play[side] } else { &mut c.draft[side] };
                *spent += t.elapsed();
            }
            m
        };
        game.play_unchecked(m);
    };
    debug_assert_eq!(game.outcome(), Some(outcome));
    let vary_loss = players.varies.then(|| loss.map(crate::stats::loss_micros));
    PlayedGame { game, outcome, draft_len, legal, legal_sum, vary_loss }
}

/// Plays game `index` of the batch with seed `seed` (the same game whatever
/// runs it).
pub fn play_game(m: &Matchup, seed: u64, index: u64) -> PlayedGame {
    let mut players = Players::new(m);
    let mut rng = rng_from_seed(game_seed(seed, index));
    play_with(&mut players, Position::start(), &[], 0, &mut rng, true)
}

/// [`play_game`], also measuring the wall-clock time each side's policies
/// spend choosing moves. The game is the one [`play_game`] plays, unless a
/// policy searches for a time per move (then no two runs need agree).
pub fn play_game_timed(m: &Matchup, seed: u64, index: u64) -> (PlayedGame, ThinkTime) {
    play_game_timed_from(m, Variant::RULES, seed, index, &[])
}

/// [`play_game_timed`] in variant `v`, whose first moves are `opening` (legal
/// from the variant's start, as [`random_opening`] makes them); the policies
/// play the rest.
pub fn play_game_timed_from(
    m: &Matchup,
    v: Variant,
    seed: u64,
    index: u64,
    opening: &[Move],
) -> (PlayedGame, ThinkTime) {
    let mut players = Players::new(m);
    let mut rng = rng_from_seed(game_seed(seed, index));
    let mut clock = ThinkTime::default();
    let g = play_timed(&mut players, Position::start_of(v), opening, 0, &mut rng, true, Some(&mut clock));
    (g, clock)
}

/// `plies` uniformly random moves from the start of variant `v`, drawn from
/// a generator of its own seeded from game seed `(seed, index)`: the shared
/// "book" of both games of an arena pair, so that agents that never draw
/// randomness still meet in varied games. Stops early if the game ends.
pub fn random_opening(v: Variant, seed: u64, index: u64, plies: u32) -> Vec<Move> {
    let mut rng = rng_from_seed(crate::policy::mix64(game_seed(seed, index) ^ 0xb00c_0b00_c0b0_0c0b));
    let mut game = GameRecord::new(Position::start_of(v));
    let mut out = Vec::new();
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let m = crate::policy::random_move(game.position(), &mut rng).expect("a game not over has a move");
        game.play_unchecked(m);
        out.push(m);
    }
    out
}

/// Why a batch's opening cannot be played: its move `index` (0-based) comes
/// after the end of the game or is illegal there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// The game is over before the move.
    Over {
        /// The move's index in the opening.
        index: usize,
        /// How the game ended.
        outcome: Outcome,
    },
    /// The move is illegal in its position.
    Illegal {
        /// The move's index in the opening.
        index: usize,
        /// Why.
        why: Illegal,
    },
}

impl std::fmt::Display for OpeningError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpeningError::Over { index, outcome } => {
                write!(f, "opening move {}: the game is already over ({outcome})", index + 1)
            }
            OpeningError::Illegal { index, why } => write!(f, "opening move {}: illegal here: {why}", index + 1),
        }
    }
}

impl std::error::Error for OpeningError {}

/// Checks that `moves` can be played from the start of variant `v`, in
/// order, before the game ends; the error names the first that cannot. A
/// batch's opening passes this check before any game.
pub fn check_opening(v: Variant, moves: &[Move]) -> Result<(), OpeningError> {
    let mut game = GameRecord::new(Position::start_of(v));
    for (index, &m) in moves.iter().enumerate() {
        if let Some(outcome) = game.outcome() {
            return Err(OpeningError::Over { index, outcome });
        }
        game.play(m).map_err(|why| OpeningError::Illegal { index, why })?;
    }
    Ok(())
}

/// The opening in move text, moves separated by single blanks (as in the
/// games file's move columns and the identity line); `None` when empty.
pub fn opening_text(moves: &[Move]) -> Option<String> {
    let mut buf = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        if i > 0 {
            buf.push(b' ');
        }
        m.write_text(&mut buf);
    }
    (!moves.is_empty()).then(|| String::from_utf8(buf).expect("move text is ASCII"))
}
