//! The catalog: the one place that maps a [`GameKind`] onto its game. Every
//! front end (the `senat` binary, the Python package) asks it for a game's
//! position ([`Position`]), agent ([`Agent`]), variant keys
//! ([`variant_help`]) or adapter ([`on_game!`](crate::on_game)), and
//! never matches on the game itself.
//!
//! A game added to [`GameKind`] is added here: the compiler then lists
//! every arm that lacks it, in this module only.
//!
//! What this module must never do: encode a rule (the rules crates do),
//! print, parse command-line arguments, or read or write a file.

mod agent;
pub mod analyze;
pub mod arena;
pub mod explore;
pub mod files;
mod position;
pub mod record;
pub mod solve;
pub mod vec_env;

pub use agent::{Agent, Analysis, Candidate};
pub use position::{Mover, Position};
pub use vec_env::VecEnv;

use crate::games::agent::AgentSpec;
use crate::games::{GameKind, LabGame, TextError};
use std::fmt;
use std::path::Path;

/// Runs `$body` with the type `$G` bound to the lab adapter
/// ([`LabGame`](crate::games::LabGame)) of `$kind`: Focus (2 or 4
/// players), Débâcle, Connect Four. Sénat and dominoes have their own
/// pipelines: the first form evaluates `$senat` or `$dominoes` for them,
/// the second, for callers that sent those games elsewhere first, panics.
#[macro_export]
macro_rules! on_game {
    ($kind:expr, $G:ident => $body:expr, senat => $senat:expr, dominoes => $dominoes:expr $(,)?) => {
        match $kind {
            $crate::games::GameKind::Focus | $crate::games::GameKind::Focus4 => {
                type $G = $crate::games::focus::Focus;
                $body
            }
            $crate::games::GameKind::Debacle => {
                type $G = $crate::games::debacle::Debacle;
                $body
            }
            $crate::games::GameKind::Connect4 => {
                type $G = $crate::games::connect4::Connect4;
                $body
            }
            $crate::games::GameKind::Senat => $senat,
            $crate::games::GameKind::Dominoes => $dominoes,
        }
    };
    ($kind:expr, $G:ident => $body:expr) => {
        $crate::on_game!($kind, $G => $body,
            senat => unreachable!("Sénat has its own pipeline"),
            dominoes => unreachable!("dominoes has its own pipeline"))
    };
}

/// Why the catalog refused: the lower layer's message, kept whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogError {
    /// A game name, variant, position or move text that does not read.
    Text(TextError),
    /// An agent spec that does not read or does not fit the game.
    Agent(String),
    /// A verb this position cannot do (the game is over, an observation
    /// played on, dominoes drawn as a board...), with the reason.
    Refused(String),
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CatalogError::Text(e) => e.fmt(f),
            CatalogError::Agent(m) | CatalogError::Refused(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CatalogError {}

impl From<TextError> for CatalogError {
    fn from(e: TextError) -> CatalogError {
        CatalogError::Text(e)
    }
}

/// The variant options of `game`, one per line, as `--variant help`
/// prints them.
pub fn variant_help(game: GameKind) -> &'static str {
    on_game!(game, G => G::variant_help(),
        senat => senat_rules::Variant::HELP,
        dominoes => dominoes_rules::Variant::HELP)
}

/// An agent spec of a lab game (`random`, `ab:depth=3`, `top`...), refused
/// where it names a weights file of another game ([`AgentSpec::fits`]).
pub fn lab_agent<G: LabGame>(text: &str) -> Result<AgentSpec, CatalogError> {
    let a = AgentSpec::parse(text).map_err(|e| CatalogError::Agent(e.to_string()))?;
    a.fits::<G>().map_err(|e| CatalogError::Agent(format!("agent `{a}`: {e}")))?;
    Ok(a)
}

/// [`lab_agent`] of the lab game `game`; Sénat's and dominoes' specs have
/// their own grammars and are refused here.
pub fn agent_spec(game: GameKind, text: &str) -> Result<AgentSpec, CatalogError> {
    let own = |g: &str| CatalogError::Agent(format!("{g}'s agents have their own spec grammar"));
    on_game!(game, G => lab_agent::<G>(text), senat => Err(own("Sénat")), dominoes => Err(own("dominoes")))
}

/// Checks the batch file `path` of any game (by its identity line) as
/// `merge` and `--resume` read one ([`crate::selfplay::merge::check_file`]):
/// a games file's header and every row, the header of a moves or side
/// file, and no last row cut short. A file with no identity line (a
/// summary) is left to the caller.
pub fn check_batch_file(path: &Path) -> Result<(), crate::selfplay::Error> {
    let Some(game) = crate::games::batch::batch_game(path) else { return Ok(()) };
    on_game!(game, G => crate::games::batch::check_file::<G>(path),
        senat => {
            let moves = crate::selfplay::MOVES_HEADER.join(",") + "\n";
            crate::selfplay::merge::check_file::<crate::selfplay::persist::SenatFormat>(path, &[moves])
        },
        dominoes => crate::games::batch::check_file::<crate::games::dominoes::Dominoes>(path))
}

/// Merges the games files of the shards of one batch of any game but
/// Sénat (its game read from the first input's identity line; Sénat's
/// shards are merged by its own format, [`crate::selfplay::merge()`]) into
/// `out`, and the summary of all games into `summary`
/// ([`crate::games::batch::merge`]). Returns the batch's name (game and
/// agents), its tally and its distinct games.
pub fn merge_batch(
    inputs: &[std::path::PathBuf],
    out: &Path,
    summary: Option<&Path>,
    overwrite: bool,
) -> Result<(String, crate::games::batch::Tally, crate::variety::Variety), crate::selfplay::Error> {
    use crate::games::batch::{game_of, merge};
    let Some(first) = inputs.first() else {
        return Err(crate::selfplay::Error::Identity { path: out.to_path_buf(), message: "no input to merge".into() });
    };
    on_game!(game_of(first)?, G => merge::<G>(inputs, out, summary, overwrite),
        senat => Err(crate::selfplay::Error::Identity {
            path: first.clone(),
            message: "a Sénat batch: its shards are merged by Sénat's own format".into(),
        }),
        dominoes => merge::<crate::games::dominoes::Dominoes>(inputs, out, summary, overwrite))
}

/// The agent spec of an analysis board's search of `game` at `playouts`
/// playouts per position: MCTS with its defaults (Sénat's and the lab
/// games' `mcts:playouts=N`, dominoes' ISMCTS over the mover's
/// observation), whose root moves give candidates with visits and whose
/// playouts give the win probability's interval.
pub fn analysis_spec(game: GameKind, playouts: u64) -> String {
    match game {
        GameKind::Dominoes => format!("ismcts:playouts={playouts}"),
        GameKind::Senat | GameKind::Focus | GameKind::Focus4 | GameKind::Debacle | GameKind::Connect4 => {
            format!("mcts:playouts={playouts}")
        }
    }
}

/// The arena's draft text under which each agent of `game` plays its own
/// opening: Sénat's `own` (each side drafts with its own policy); every
/// other game has no draft and takes the arena's default.
pub fn own_openings(game: GameKind) -> &'static str {
    match game {
        GameKind::Senat => "own",
        GameKind::Focus | GameKind::Focus4 | GameKind::Debacle | GameKind::Connect4 | GameKind::Dominoes => "random",
    }
}

/// Whether `senat design --seat-first` can target `game`'s first giver's
/// seat apart from its first player: Sénat's, whose draft's first giver
/// need not move first in play and, under `swap=yes`, need not keep its
/// colour; in every other game the first player is already a seat.
pub fn has_first_giver_seat(game: GameKind) -> bool {
    match game {
        GameKind::Senat => true,
        GameKind::Focus | GameKind::Focus4 | GameKind::Debacle | GameKind::Connect4 | GameKind::Dominoes => false,
    }
}

/// Who `senat design` calls the first player of `game`: Sénat's side that
/// moves first in play (`first_mover`, not the draft's first giver), every
/// other game's first to move.
pub fn first_player(game: GameKind) -> &'static str {
    match game {
        GameKind::Senat => "the side that moves first in play (first_mover)",
        GameKind::Focus | GameKind::Focus4 | GameKind::Debacle | GameKind::Connect4 => "the first to move",
        GameKind::Dominoes => "seat 0, against every other seat (a round's opener holds its opening tile)",
    }
}

/// The metrics of a moves file of every game but Sénat (whose metrics come
/// from its games file), each game replayed by its own rules; the file's
/// identity line names the game. Its positions are valued by the game's
/// own evaluation, or with `weights` by the learned evaluation of that
/// weights file (`senat train-net --game G`, as `mcts:file=` reads it; not
/// dominoes, valued by the match scores that every seat sees).
pub fn moves_file_metrics<R: std::io::Read>(
    file: &mut crate::metrics::records::MovesFile<R>,
    weights: Option<&str>,
) -> Result<crate::metrics::Metrics, crate::metrics::MetricsError> {
    use crate::metrics::records::metrics_of_moves;
    on_game!(file.identity.game, G => match weights {
        None => metrics_of_moves::<G, R>(file, None),
        Some(path) => learned_metrics::<G, R>(file, path),
    },
    senat => Err(crate::metrics::MetricsError::Records {
        line: 0,
        message: "a Sénat batch file: `senat metrics` reads Sénat's games file".into(),
    }),
    dominoes => match weights {
        None => metrics_of_moves::<crate::games::dominoes::Dominoes, R>(file, None),
        Some(path) => Err(crate::metrics::MetricsError::Weights {
            path: path.into(),
            why: "dominoes' metrics value a position by the match scores, which every seat sees; a network \
                  would need one seat's view of the hands (--weights serves Sénat, focus, focus4, debacle \
                  and connect4)"
                .into(),
        }),
    })
}

/// [`moves_file_metrics`] of game `G` valued by the learned evaluation of
/// the weights file `path` (its game checked against `G`'s network).
fn learned_metrics<G, R>(
    file: &mut crate::metrics::records::MovesFile<R>,
    path: &str,
) -> Result<crate::metrics::Metrics, crate::metrics::MetricsError>
where
    G: LabGame + crate::metrics::records::Measured<State = <G as game_search::Game>::State>,
    R: std::io::Read,
{
    use crate::metrics::records::{Valuation, learned_values, metrics_of_moves};
    let refuse = |why: String| crate::metrics::MetricsError::Weights { path: path.into(), why };
    let w = crate::games::learn::load(path).map_err(|e| match e {
        crate::games::learn::WeightsError::Missing(keys) if keys.iter().any(|k| k == "game") => refuse(
            "no `game=` line: not a file of `senat train-net --game G` (a Sénat learned weights file serves Sénat's \
             games files)"
                .into(),
        ),
        e => refuse(e.to_string()),
    })?;
    let want = G::NET.map(|n| n.game);
    if want != Some(w.game.as_str()) {
        return Err(refuse(format!(
            "a weights file of {}, not of {} (this moves file's game)",
            w.game, file.identity.game
        )));
    }
    let by = Valuation {
        of: Box::new(|s: &<G as game_search::Game>::State| learned_values::<G>(w, s)),
        words: format!(
            "each side's win probability by the learned evaluation of {path} ({}; its linear part over the \
             evaluation's terms plus its network, the log-odds that the side to move's team wins, as \
             `mcts:file=` reads them)",
            game_lab::identity::hash_text(w.hash)
        ),
    };
    metrics_of_moves::<G, R>(file, Some(&by))
}

/// Positions for the catalog's unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::{GameKind, Position};

    /// The position `text` of `game` in its default variant.
    pub(crate) fn position(game: GameKind, text: &str) -> Position {
        Position::read(game, text, "").unwrap_or_else(|e| panic!("{game} {text}: {e}"))
    }

    /// A Connect Four position (its moves as column digits, or `start`).
    pub(crate) fn connect4(text: &str) -> Position {
        position(GameKind::Connect4, text)
    }
}
