//! Every game of the lab, each game's adapter in its own module: Sénat
//! ([`senat`]), Focus (2 players, and 4 in two partnerships: [`focus`]),
//! Débâcle ([`debacle`]), Connect Four ([`connect4`]) and block dominoes ([`dominoes`], with the proof
//! of a round, [`dominoes_proof`], and its agents' root guard,
//! [`dominoes_guard`]), all played by the same generic searches. The
//! self-play samples that train a game's learned evaluation are
//! [`train`]'s (every [`LabGame`]) and [`dominoes_train`]'s, above the
//! agents they play with.
//! Adding a game means a rules crate and one module here.
//!
//! What else lives here: [`LabGame`] (what the lab needs from a game of
//! perfect information beyond the search's [`Game`]: its texts, its board,
//! its perft and an evaluation; Focus, Débâcle and Connect Four implement it, Sénat and
//! dominoes the traits of each pipeline directly: [`crate::agent::Seat`],
//! [`crate::play::Table`], [`batch::BatchGame`] or Sénat's own formats),
//! [`GameKind`] (the `--game` names), the agents of every [`LabGame`]
//! ([`agent`]: random, greedy, alpha-beta, MCTS), self-play batches with
//! shards, resume and merge ([`batch`]) and the colour-swapped arena
//! ([`arena`]).
//!
//! What this module must never do: encode a rule (moves, ends and texts come
//! from the rules crates), or, outside a game's own module, ask which game
//! it plays: the generic code is generic over [`LabGame`] or
//! [`batch::BatchGame`], and only [`GameKind`] names games.

pub mod agent;
pub mod arena;
pub mod batch;
pub mod connect4;
pub mod debacle;
pub mod dominoes;
pub mod dominoes_arena;
pub mod dominoes_guard;
pub mod dominoes_leaf;
pub mod dominoes_net;
pub mod dominoes_proof;
pub mod dominoes_train;
pub mod encode;
pub mod focus;
pub mod learn;
pub mod senat;
pub mod senat_arena;
pub mod train;

use game_search::{Game, Scores, WIN};
use std::fmt;

/// Which game a command plays (`--game`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Sénat, the default.
    #[default]
    Senat,
    /// Focus with 2 players.
    Focus,
    /// Focus with 4 players in two partnerships.
    Focus4,
    /// Débâcle (a match to 30).
    Debacle,
    /// Block dominoes (hidden hands, a boneyard, a match to 100): not a
    /// [`LabGame`]; the lab plays it in [`crate::games::dominoes`].
    Dominoes,
    /// Connect Four (7 × 6 by default, `width` and `height` 4 to 9).
    Connect4,
}

impl GameKind {
    /// Every game, in `--help` order.
    pub const ALL: [GameKind; 6] =
        [GameKind::Senat, GameKind::Focus, GameKind::Focus4, GameKind::Debacle, GameKind::Dominoes, GameKind::Connect4];

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Senat => "senat",
            GameKind::Focus => "focus",
            GameKind::Focus4 => "focus4",
            GameKind::Debacle => "debacle",
            GameKind::Dominoes => "dominoes",
            GameKind::Connect4 => "connect4",
        }
    }

    /// Reads a `--game` name.
    pub fn parse(text: &str) -> Result<GameKind, TextError> {
        GameKind::ALL.into_iter().find(|g| g.name() == text).ok_or_else(|| TextError::Game(text.to_string()))
    }

    /// The variant options this game always has (the 4-player Focus is
    /// Focus with `players=4`), joined before the user's `--variant`.
    pub fn base_variant(self) -> &'static str {
        match self {
            GameKind::Focus4 => "players=4",
            GameKind::Senat | GameKind::Focus | GameKind::Debacle | GameKind::Dominoes | GameKind::Connect4 => "",
        }
    }

    /// The full variant text: the game's own options, then the user's.
    /// A user's option that repeats one of the game's own with its value
    /// (`players=4` with `focus4`) is dropped, so that it is neither
    /// refused as given twice nor quoted back in a text never typed.
    pub fn variant(self, user: &str) -> String {
        let base = self.base_variant();
        let user = if user.trim().is_empty() || base.is_empty() {
            user.trim().to_string()
        } else {
            let own = |item: &str| base.split(',').any(|b| b == item.trim());
            let kept: Vec<&str> = user.split(',').filter(|item| !own(item)).collect();
            kept.join(",").trim().to_string()
        };
        match (base, user.as_str()) {
            (b, "") => b.to_string(),
            ("", u) => u.to_string(),
            (b, u) => format!("{b},{u}"),
        }
    }
}

impl GameKind {
    /// The user's option that contradicts one of the game's own (`players=2`
    /// with `focus4`), with the game's option it contradicts, if any: the
    /// command refuses it in the user's words instead of letting the rules
    /// refuse the joined text.
    pub fn contradiction(self, user: &str) -> Option<(String, &'static str)> {
        let key = |item: &str| item.split('=').next().unwrap_or("").trim().to_string();
        let base = self.base_variant();
        base.split(',').filter(|b| !b.is_empty()).find_map(|b| {
            user.split(',').map(str::trim).find(|u| key(u) == key(b) && *u != b).map(|u| (u.to_string(), b))
        })
    }
}

#[cfg(test)]
mod variant_tests {
    use super::GameKind;

    #[test]
    fn the_games_own_options_are_not_repeated() {
        assert_eq!(GameKind::Focus4.variant("players=4"), "players=4");
        assert_eq!(GameKind::Focus4.variant(" players=4 , cap=40"), "players=4,cap=40");
        assert_eq!(GameKind::Focus4.variant(""), "players=4");
        assert_eq!(GameKind::Focus4.variant("players=2"), "players=4,players=2", "a conflict is refused before");
        assert_eq!(GameKind::Focus4.contradiction("cap=40, players=2"), Some(("players=2".into(), "players=4")));
        assert_eq!(GameKind::Focus4.contradiction("players=4,cap=40"), None);
        assert_eq!(GameKind::Focus.contradiction("players=4"), None);
        assert_eq!(GameKind::Focus.variant(" cap=40 "), "cap=40");
        assert_eq!(GameKind::Debacle.variant(""), "");
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a text of a game (its name, a variant, a position, a move) could not
/// be read: one line naming the text and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextError {
    /// An unknown `--game`.
    Game(String),
    /// A variant the rules refuse.
    Variant {
        /// The variant text.
        text: String,
        /// The rules' message.
        message: String,
    },
    /// A position the rules refuse.
    Position {
        /// The rules' message.
        message: String,
    },
    /// A move that is unreadable or illegal here.
    Move {
        /// The move text.
        text: String,
        /// The rules' message.
        message: String,
    },
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::Game(g) => {
                let names: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
                let hint = crate::suggest::did_you_mean(g, &names);
                write!(f, "unknown game `{g}`{hint} (accepted: {})", names.join(", "))
            }
            TextError::Variant { text, message } => write!(f, "variant `{text}`: {message}"),
            TextError::Position { message } => write!(f, "bad position: {message}"),
            TextError::Move { text, message } => write!(f, "move `{text}`: {message}"),
        }
    }
}

impl std::error::Error for TextError {}

/// A game the lab can run: the search's [`Game`] (copy-made `Copy` states)
/// plus its texts, its board, perft and a static evaluation.
///
/// Its agents see its state: a lab game is of perfect information
/// ([`PerfectInformation`](crate::agent::PerfectInformation), which makes
/// it a [`Seat`](crate::agent::Seat) whose view is the state).
pub trait LabGame:
    Game<State: Copy + Send + Sync + fmt::Debug, Move: Send + Sync>
    + crate::agent::PerfectInformation
    + crate::agent::OnePly
    + crate::agent::Searched
    + game_search::solver::Solvable
    + Send
    + Sync
    + 'static
{
    /// The seat names, player 0 first, for a state with `players` players.
    fn seats(players: usize) -> &'static [&'static str];
    /// The start of a game with these variant options (`key=value,...`).
    fn start(variant: &str) -> Result<Self::State, TextError>;
    /// The variant options of a state, as [`LabGame::start`] reads them.
    fn variant_text(s: &Self::State) -> String;
    /// The variant keys, one per line, for `--help` and errors.
    fn variant_help() -> &'static str;
    /// Reads a position text.
    fn parse_position(text: &str) -> Result<Self::State, TextError>;
    /// Writes the position text (read back exactly by [`LabGame::parse_position`]).
    fn position_text(s: &Self::State) -> String;
    /// Reads a move legal in `s`.
    fn parse_move(s: &Self::State, text: &str) -> Result<Self::Move, TextError>;
    /// Writes a move's text.
    fn move_text(m: Self::Move) -> String;
    /// The text board (terminal colours if `colour`), with its last newline.
    fn board(s: &Self::State, colour: bool) -> String;
    /// Leaves of the move tree `depth` plies below `s`.
    fn perft(s: &Self::State, depth: u32) -> u64;
    /// Decisions played since the start.
    fn ply(s: &Self::State) -> u32;
    /// Decisions played in the current round, for a game of several rounds
    /// that start again from the same setup: what a move temperature
    /// (`temp_plies`, [`crate::temperature`]) counts, so that every round,
    /// not only the first, opens with drawn moves. By default the game has
    /// one round, [`LabGame::ply`]. Débâcle counts the round's regular
    /// actions (its position does not record the ply at which the round began).
    fn plies_into_round(s: &Self::State) -> u32 {
        Self::ply(s)
    }
    /// The most plies the game can still last from `s`, where the rules
    /// bound it (Connect Four: the empty cells): `solve`'s horizon when
    /// none is given, so that its verdict is exact. `None` (the default):
    /// no bound, and `solve` needs `--max-depth`.
    fn plies_left(_s: &Self::State) -> Option<u32> {
        None
    }
    /// The static evaluation of a non-terminal state for `player`'s team
    /// against the others, in centi-units, well inside `±WIN / 2`.
    fn evaluate(s: &Self::State, player: usize) -> i32;
    /// [`LabGame::evaluate`] units per unit of log-odds: the logistic scale
    /// that turns an alpha-beta score in `s`'s game into the win
    /// probability of the side to move ([`crate::winprob::WinChance`]),
    /// fitted to self-play results by the lab's example `eval_scale`
    /// (each game gives its command and figures).
    fn eval_scale(s: &Self::State) -> f64;
    /// What the game's value network sees ([`learn`]); `None`: it has none yet.
    const NET: Option<learn::NetShape> = None;
    /// The names of the evaluation's terms that the learned evaluation
    /// weighs ([`LabGame::net_features`]); none for a game without [`LabGame::NET`].
    const NET_FEATURES: &'static [&'static str] = &[];
    /// The network inputs that are on in the non-terminal state `s`, seen
    /// from the side to move, each below [`learn::NetShape::inputs`].
    fn net_inputs(_s: &Self::State, out: &mut Vec<u16>) {
        out.clear();
    }
    /// Appends the evaluation's terms for the side to move's team, in
    /// log-odds units, one per [`LabGame::NET_FEATURES`]: their sum is
    /// [`LabGame::evaluate`] over [`LabGame::eval_scale`] (none by default).
    fn net_features(_s: &Self::State, _out: &mut Vec<f32>) {}
    /// The board for a person playing at the terminal ([`crate::play`]),
    /// with its last newline; by default [`LabGame::board`].
    fn table_board(s: &Self::State, colour: bool) -> String {
        Self::board(s, colour)
    }
    /// What the marks of [`LabGame::table_board`] mean, with its last newline.
    fn table_legend() -> &'static str {
        ""
    }
    /// The forms of a move text, for a person's `help`.
    fn move_forms() -> &'static str {
        "the game's move text"
    }
    /// Whether a finished game ended at the variant's ply cap (a safeguard
    /// against endless games, not an end of the rules): batch summaries
    /// count these apart. By default never (no cap).
    fn capped(_s: &Self::State) -> bool {
        false
    }
    /// Names of the extra per-game columns of a batch (e.g. rounds played).
    fn extra_columns() -> &'static [&'static str] {
        &[]
    }
    /// The values of [`LabGame::extra_columns`] for a finished game.
    fn extra(_s: &Self::State) -> Vec<String> {
        Vec::new()
    }
}

/// Reads a learned weights file of the game its `game=` line names
/// ([`learn::NetShape::game`]).
pub fn parse_weights(text: &str) -> Result<learn::GameWeights, learn::WeightsError> {
    use learn::{GameWeights, WeightsError};
    let game = learn::game_line(text).ok_or_else(|| WeightsError::Missing(vec!["game".into()]))?;
    let named = |shape: Option<learn::NetShape>| shape.is_some_and(|n| n.game == game);
    if named(<focus::Focus as LabGame>::NET) {
        GameWeights::parse::<focus::Focus>(text)
    } else if named(<debacle::Debacle as LabGame>::NET) {
        GameWeights::parse::<debacle::Debacle>(text)
    } else if named(<connect4::Connect4 as LabGame>::NET) {
        GameWeights::parse::<connect4::Connect4>(text)
    } else if named(Some(dominoes_net::SHAPE)) {
        dominoes_net::parse(text)
    } else {
        Err(WeightsError::UnknownGame(game.to_string()))
    }
}

/// The position a word names: `start` (with `variant`) or a position text.
pub fn position_arg<G: LabGame>(text: &str, variant: &str) -> Result<G::State, TextError> {
    match text.trim() {
        "start" => G::start(variant),
        t => {
            if !variant.trim().is_empty() {
                let s = G::parse_position(t)?;
                let theirs = G::variant_text(&s);
                let wanted = G::variant_text(&G::start(variant)?);
                if theirs != wanted {
                    return Err(variant_mismatch(variant, &theirs));
                }
                return Ok(s);
            }
            G::parse_position(t)
        }
    }
}

/// The refusal of a `--variant` (or `--players`) that is not the variant a
/// position text carries.
fn variant_mismatch(variant: &str, theirs: &str) -> TextError {
    let theirs = if theirs.is_empty() { "-" } else { theirs };
    TextError::Variant {
        text: variant.to_string(),
        message: format!(
            "the position's own variant is `{theirs}` (a position text carries its variant; \
             drop --variant or give `start`)"
        ),
    }
}

/// A dominoes position as a word gives it: a whole state, or one seat's
/// observation (`oP …`, the others' hands hidden).
#[derive(Clone, Debug)]
pub enum DominoText {
    /// A state (every hand shown).
    State(dominoes_rules::State),
    /// A seat's observation.
    Observation(dominoes_rules::Observation),
}

/// The dominoes position a word names, as [`position_arg`] reads the other
/// games': `start` (of `variant`), a state text, or an observation text
/// (its first field `oP`); a text that is not one is refused with the error
/// of the form it has. A non-empty `variant` (`--variant`, `--players`)
/// must be the position's own.
pub fn domino_position_arg(text: &str, variant: &str) -> Result<DominoText, TextError> {
    use dominoes_rules::{Observation, State, Variant};
    let wanted = Variant::parse(variant)
        .map_err(|e| TextError::Variant { text: variant.to_string(), message: e.to_string() })?;
    let t = text.trim();
    if t == "start" {
        return Ok(DominoText::State(State::start(wanted)));
    }
    let bad = |e: &dyn fmt::Display| TextError::Position { message: e.to_string() };
    let (read, theirs) = if t.starts_with('o') {
        let o = t.parse::<Observation>().map_err(|e| bad(&format_args!("observation: {e}")))?;
        (DominoText::Observation(o), o.variant())
    } else {
        let s = t.parse::<State>().map_err(|e| bad(&e))?;
        (DominoText::State(s), s.variant())
    };
    if !variant.trim().is_empty() && theirs != wanted {
        return Err(variant_mismatch(variant, &theirs.to_text()));
    }
    Ok(read)
}

/// The result line of a state, over or not: who won (a team's seats) or
/// a draw, after how many plies; or how far it went and who is to move.
pub fn result_line<G: LabGame>(s: &G::State) -> String {
    let seats = G::seats(G::players(s));
    match G::result(s) {
        None => format!("game not over after {} plies; {} to move", G::ply(s), seats[G::to_move(s)]),
        Some(r) => match winner::<G>(s, &r) {
            None => format!("draw after {} plies", G::ply(s)),
            Some(t) => {
                let names: Vec<&str> = (0..G::players(s)).filter(|&p| G::team(s, p) == t).map(|p| seats[p]).collect();
                format!("{} wins after {} plies", names.join(" and "), G::ply(s))
            }
        },
    }
}

/// The legal moves of `s`, as a vector.
pub fn legal_moves<G: LabGame>(s: &G::State) -> Vec<G::Move> {
    let mut v = Vec::new();
    G::moves(s, &mut v);
    v
}

/// Which team won a finished game with results `r` (`None`: a draw); the
/// winning team is the one of the best-scoring player.
pub fn winner<G: LabGame>(s: &G::State, r: &Scores) -> Option<usize> {
    let players = G::players(s);
    let best = (0..players).max_by(|&a, &b| r[a].total_cmp(&r[b]))?;
    let team = G::team(s, best);
    let tops = (0..players).filter(|&p| r[p] == r[best]).all(|p| G::team(s, p) == team);
    tops.then_some(team)
}

/// The evaluation as the searches read it ([`game_search::Evaluator`]):
/// [`LabGame::evaluate`], or a learned evaluation's log-odds in
/// thousandths ([`LEARNED_SCALE`]), clamped inside `±WIN / 4`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LabEval {
    /// The learned evaluation (`ab:file=F`); `None`: the hand-made one.
    pub weights: Option<&'static learn::GameWeights>,
}

/// Units of a learned evaluation per unit of log-odds in the searches.
pub const LEARNED_SCALE: f64 = 1000.0;

impl LabEval {
    /// The hand-made evaluation, [`LabGame::evaluate`].
    pub const HAND: LabEval = LabEval { weights: None };

    /// Units of this evaluation per unit of log-odds in `s` (the logistic
    /// that turns a search's score into a win probability).
    pub fn scale<G: LabGame>(&self, s: &G::State) -> f64 {
        if self.weights.is_some() { LEARNED_SCALE } else { G::eval_scale(s) }
    }
}

impl<G: LabGame> game_search::Evaluator<G> for LabEval {
    fn eval(&self, s: &G::State) -> i32 {
        match self.weights {
            None => G::evaluate(s, G::to_move(s)).clamp(-WIN / 4, WIN / 4),
            Some(w) => (w.mover_logit::<G>(s) * LEARNED_SCALE).clamp(f64::from(-WIN / 4), f64::from(WIN / 4)) as i32,
        }
    }
    fn eval_for(&self, s: &G::State, player: usize) -> i32 {
        match self.weights {
            None => G::evaluate(s, player).clamp(-WIN / 4, WIN / 4),
            Some(w) => {
                (w.logit_for::<G>(s, player) * LEARNED_SCALE).clamp(f64::from(-WIN / 4), f64::from(WIN / 4)) as i32
            }
        }
    }
}

/// A lab game's face as the lab gives it, in one line per game: its seats
/// and the lab's generic agents see its state
/// ([`crate::agent::PerfectInformation`]); the one greedy agent scores a
/// move by the state after it ([`agent::greedy_score`]); the one
/// alpha-beta and MCTS agents search that state, its plies counted into
/// the round ([`LabGame::plies_into_round`]), their lines in move text;
/// the terminal table ([`crate::play::lab_games::LabTable`]) and the
/// batches ([`batch::LabBatch`]) are the lab's. A game that wants other
/// answers writes those impls itself instead of this line.
macro_rules! lab_face {
    ($game:ty) => {
        impl $crate::agent::PerfectInformation for $game {}
        impl $crate::play::lab_games::LabTable for $game {}
        impl $crate::games::batch::LabBatch for $game {}

        impl $crate::agent::OnePly for $game {
            fn greedy_score(s: &<$game as game_search::Game>::State, m: <$game as game_search::Game>::Move) -> f64 {
                $crate::games::agent::greedy_score::<$game>(s, m)
            }
        }

        impl $crate::agent::Searched for $game {
            fn search_state(s: &<$game as game_search::Game>::State) -> <$game as game_search::Game>::State {
                *s
            }
            fn temperature_ply(s: &<$game as game_search::Game>::State) -> usize {
                <$game as $crate::games::LabGame>::plies_into_round(s) as usize
            }
            fn line_text(m: <$game as game_search::Game>::Move) -> String {
                <$game as $crate::games::LabGame>::move_text(m)
            }
        }
    };
}
pub(crate) use lab_face;

/// A learned evaluation's scores in [`LEARNED_SCALE`] units of log-odds,
/// the hand-made one's in the game's own ([`LabGame::eval_scale`]); the
/// root guard's deep look reads them through the MCTS leaves' logistic
/// ([`agent::DEFAULT_SCALE`]) or the learned one's.
impl<G: LabGame> crate::alphabeta::Scaled<G> for LabEval {
    fn scale(&self, s: &G::State) -> f64 {
        LabEval::scale::<G>(self, s)
    }
    fn guard_scale(&self) -> f64 {
        if self.weights.is_some() { LEARNED_SCALE } else { agent::DEFAULT_SCALE }
    }
}

/// Implements the search's [`Game`] (and the solver's `Solvable`) for a
/// marker type over a rules crate's `Position`, whose methods have the
/// same names in every rules crate (`players`, `to_move`, `team`,
/// `legal_moves`, `play_unchecked`, `outcome`, `hash`).
macro_rules! rules_game {
    ($game:ty, $pos:ty, $mv:ty) => {
        $crate::games::rules_game!($game, $pos, $mv; {});
        impl game_search::solver::Solvable for $game {}
    };
    // The same `Game`, with more of its items (a move priority), and no
    // `Solvable`: the game's module writes its own shortcuts.
    ($game:ty, $pos:ty, $mv:ty; { $($extra:item)* }) => {
        impl game_search::Game for $game {
            type State = $pos;
            type Move = $mv;

            fn players(s: &$pos) -> usize {
                s.players()
            }
            fn to_move(s: &$pos) -> usize {
                s.to_move()
            }
            fn team(s: &$pos, player: usize) -> usize {
                s.team(player)
            }
            fn moves(s: &$pos, out: &mut Vec<$mv>) {
                s.legal_moves(out);
            }
            fn apply(s: &$pos, m: $mv) -> $pos {
                let mut t = *s;
                t.play_unchecked(m);
                t
            }
            fn result(s: &$pos) -> Option<game_search::Scores> {
                s.outcome().map(|o| o.scores(s.players()))
            }
            fn hash(s: &$pos) -> u64 {
                s.hash()
            }
            $($extra)*
        }
    };
}
pub(crate) use rules_game;

/// The text, board, perft and ply methods of [`LabGame`] for a rules
/// crate's `Position` and `Variant`, whose methods have the same names in
/// every rules crate (`Variant::parse`, `to_text`, `HELP`; `Position`'s
/// `FromStr`, `Display`, `parse_move`, `board_text`, `ply`) and its `perft`.
macro_rules! rules_texts {
    ($pos:ty, $variant:ty, $perft:path) => {
        fn start(variant: &str) -> Result<$pos, $crate::games::TextError> {
            let v = <$variant>::parse(variant)
                .map_err(|e| $crate::games::TextError::Variant { text: variant.into(), message: e.to_string() })?;
            Ok(<$pos>::start(v))
        }
        fn variant_text(s: &$pos) -> String {
            s.variant().to_text()
        }
        fn variant_help() -> &'static str {
            <$variant>::HELP
        }
        fn parse_position(text: &str) -> Result<$pos, $crate::games::TextError> {
            text.parse::<$pos>().map_err(|e| $crate::games::TextError::Position { message: e.to_string() })
        }
        fn position_text(s: &$pos) -> String {
            s.to_string()
        }
        fn parse_move(s: &$pos, text: &str) -> Result<Self::Move, $crate::games::TextError> {
            s.parse_move(text).map_err(|e| $crate::games::TextError::Move { text: text.into(), message: e.to_string() })
        }
        fn move_text(m: Self::Move) -> String {
            m.to_string()
        }
        fn board(s: &$pos, colour: bool) -> String {
            let mut b = s.board_text(colour);
            if !b.ends_with('\n') {
                b.push('\n');
            }
            b
        }
        fn perft(s: &$pos, depth: u32) -> u64 {
            $perft(s, depth)
        }
        fn ply(s: &$pos) -> u32 {
            s.ply()
        }
    };
}
pub(crate) use rules_texts;

#[cfg(test)]
pub(crate) mod toy;
