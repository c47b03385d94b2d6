//! Which game a command is about: `--game`, `--variant` and `--players`
//! ([`GameArg`]), and the positions, records and agent specs of every game
//! but Sénat as the command modules read them (Sénat's are in
//! [`crate::cli::common`]). The catalog's [`on_game!`] (in the lab) is
//! the one place that maps a `--game` name onto a lab adapter.
//!
//! This module parses only: it runs no command, prints nothing but a
//! variant's help, writes no file, and imports no command module.

use crate::cli::common::{Failure, IndexedGame, RecordText, Result, input, record_failure};
use clap::Args;
use dominoes_rules::{Observation, State, Variant as DominoVariant};
use senat_lab::games::agent::AgentSpec;
use senat_lab::games::dominoes::DominoSpec;
use senat_lab::games::{GameKind, LabGame, TextError, position_arg};
use senat_rules::Variant as SenatVariant;
use std::io::Write;
use std::path::Path;

/// Which game, and its variant options.
#[derive(Args, Debug, Clone)]
pub(crate) struct GameArg {
    /// The game: senat (the default), focus (2 players), focus4 (4 players in
    /// two partnerships), debacle (a match to 30), dominoes (block
    /// dominoes, a match to 100; its positions start with `-`: put `--`
    /// before them) or connect4 (Connect Four, 7 columns by 6 rows unless
    /// --variant width=W,height=H).
    #[arg(long, value_name = "GAME", default_value = "senat", value_parser = parse_game)]
    pub(crate) game: GameKind,
    /// The game's rules variant, `key=value,...`; `help` lists the keys of
    /// the game (Sénat: first_giver, first_mover, closure, majority,
    /// repetition, ties, second_majority, swap), and docs/games/GAME.md describes
    /// each game's variants.
    #[arg(long, value_name = "OPTIONS", default_value = "", value_parser = parse_variant)]
    pub(crate) variant: String,
    /// With --game dominoes: 2, 3 or 4 players (the variant's `players=`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=4))]
    pub(crate) players: Option<u8>,
}

pub(crate) fn parse_game(text: &str) -> std::result::Result<GameKind, String> {
    GameKind::parse(text).map_err(|e| e.to_string())
}

/// `--variant`'s text, read here for every game before its own reader:
/// `help`, nothing, or `key=value` items between commas, none of them
/// empty (`,`, `a=1,,b=2` and a trailing comma are refused for every game,
/// as Focus's reader always refused them).
fn parse_variant(text: &str) -> std::result::Result<String, String> {
    if !text.trim().is_empty() && text.split(',').any(|item| item.trim().is_empty()) {
        return Err("an empty item between commas (expected key=value,key=value)".to_string());
    }
    Ok(text.to_string())
}

impl GameArg {
    /// Whether the command goes to this module (a game other than Sénat).
    pub(crate) fn other(&self) -> Result<bool> {
        if self.players.is_some() && self.game != GameKind::Dominoes {
            return input("--players is for --game dominoes (focus4 is Focus with 4 players)");
        }
        if let Some((item, own)) = self.game.contradiction(&self.variant) {
            return input(format_args!(
                "--variant {}: --game {} always has {own} (another --game plays another setting)",
                senat_rules::notation::escape(&item),
                self.game
            ));
        }
        Ok(self.game != GameKind::Senat)
    }

    /// Sénat's variant (`--variant first_giver=red,...`) for the commands
    /// that play or search with agents (every variant: their players are
    /// seats), or `None` when `--variant help` asked for the keys, which
    /// are then printed.
    pub(crate) fn senat_variant(&self, out: &mut impl Write) -> Result<Option<SenatVariant>> {
        self.senat_rules_variant(out)
    }

    /// [`GameArg::senat_variant`] for a command that still credits colours
    /// where `swap=yes` needs seats: that variant is refused, saying `why`
    /// ([`senat_lab::games::senat::unswapped`]).
    pub(crate) fn senat_variant_unswapped(
        &self,
        out: &mut impl Write,
        why: &'static str,
    ) -> Result<Option<SenatVariant>> {
        match self.senat_rules_variant(out)? {
            Some(v) => {
                senat_lab::games::senat::unswapped(v, why).map(Some).or_else(|e| input(format_args!("--variant: {e}")))
            }
            None => Ok(None),
        }
    }

    /// Sénat's variant for the commands of the rules alone (`moves`,
    /// `perft`, `show`, `replay`): every variant of the rules, `swap=yes` included.
    pub(crate) fn senat_rules_variant(&self, out: &mut impl Write) -> Result<Option<SenatVariant>> {
        if self.variant_help(out)? {
            return Ok(None);
        }
        SenatVariant::parse(&self.variant).map(Some).or_else(|e| input(format_args!("--variant: {e}")))
    }

    /// `--variant help` of any game: its keys printed ([`senat_lab::catalog::variant_help`]), `true`.
    pub(crate) fn variant_help(&self, out: &mut impl Write) -> Result<bool> {
        if self.variant.trim() != "help" {
            return Ok(false);
        }
        let keys = senat_lab::catalog::variant_help(self.game);
        writeln!(out, "variant options of {} (--variant key=value,...):\n{keys}", self.game)?;
        Ok(true)
    }

    /// The game `--game` names if it is on the command line (the commands
    /// that read a batch file with `--index` take the file's game
    /// otherwise; clap's default, Sénat, is not a choice of the user's).
    pub(crate) fn given(&self) -> Option<GameKind> {
        let mut args = std::env::args_os().skip(2);
        args.any(|a| a == "--game" || a.to_string_lossy().starts_with("--game=")).then_some(self.game)
    }

    /// The game and variant of a game of a batch file as `--game` and
    /// `--variant` would name them, for the readers of the other games; a
    /// `--variant` or `--players` given beside `--index` is refused (the
    /// file's variant is the game's).
    pub(crate) fn of_batch(batch: &IndexedGame, given: &GameArg) -> Result<GameArg> {
        if !given.variant.trim().is_empty() || given.players.is_some() {
            return input(format_args!(
                "--variant and --players are the file's with --index: {} names its game's ({})",
                batch.title,
                if batch.variant.is_empty() { "the default rules" } else { &batch.variant }
            ));
        }
        Ok(GameArg { game: batch.kind, variant: batch.variant.clone(), players: None })
    }

    /// The variant text the catalog reads ([`senat_lab::catalog::Position::read`]):
    /// the user's `--variant`, with dominoes' `--players` joined in.
    pub(crate) fn catalog_variant(&self) -> String {
        if self.game == GameKind::Dominoes { domino_variant_text(self) } else { self.variant.clone() }
    }

    /// The catalog's position of this game that `words` name (`start`
    /// when there are none), in [`GameArg::catalog_variant`]; refused as
    /// bad input.
    pub(crate) fn catalog_position(&self, words: &[String]) -> Result<senat_lab::catalog::Position> {
        senat_lab::catalog::Position::read(self.game, &words.join(" "), &self.catalog_variant()).or_else(input)
    }

    /// The full variant text (the game's own options, then the user's).
    pub(crate) fn full(&self) -> String {
        self.game.variant(&self.variant)
    }
}

/// The catalog's dispatch onto a lab game's adapter ([`senat_lab::on_game!`]).
pub(crate) use senat_lab::on_game;

pub(crate) fn text<T>(r: std::result::Result<T, TextError>) -> Result<T> {
    r.or_else(input)
}

/// The position named on the command line (`start` when none is given).
pub(crate) fn position<G: LabGame>(words: &[String], g: &GameArg) -> Result<G::State> {
    let t = words.join(" ");
    let t = if t.trim().is_empty() { "start".to_string() } else { t };
    let s = text(position_arg::<G>(&t, &g.full()))?;
    same_game::<G>(&s, g)?;
    Ok(s)
}

/// focus4 and focus are one adapter: a position must be the named game's.
pub(crate) fn same_game<G: LabGame>(s: &G::State, g: &GameArg) -> Result<()> {
    let players = G::players(s);
    if (g.game == GameKind::Focus4) != (players == 4) && g.game != GameKind::Debacle {
        return input(format_args!("the position has {players} players, which is not --game {}", g.game));
    }
    Ok(())
}

/// A record of a game read and played: its name (for messages), every
/// position from its start (`states[i]` after `i` moves) and its moves.
pub(crate) struct Played<G: LabGame> {
    pub(crate) name: String,
    pub(crate) states: Vec<G::State>,
    pub(crate) moves: Vec<G::Move>,
}

/// Reads a record as `replay --game` does (`start` or a position text on
/// its first line, then one move per line, `#` comments) and plays it,
/// stopping at the first bad line with its number.
pub(crate) fn lab_play_record<G: LabGame + 'static>(file: &Path, g: &GameArg) -> Result<Played<G>> {
    lab_play_text::<G>(&RecordText::read(file)?, g)
}

/// [`lab_play_record`] of a record's lines (a file's, or a game of a batch
/// file), read by the catalog's one record reader
/// (`senat_lab::catalog::record::play`: the start checked against
/// `--game`, each move played, a refusal naming the file and the line and
/// quoting at most [`senat_lab::limits::QUOTE_BYTES`] of what it read), its
/// positions as the game's own states.
pub(crate) fn lab_play_text<G: LabGame + 'static>(record: &RecordText, g: &GameArg) -> Result<Played<G>> {
    let (states, moves) = typed_record(
        record,
        g.game,
        &g.catalog_variant(),
        senat_lab::catalog::Position::lab_state::<G>,
        G::parse_move,
    )?;
    Ok(Played { name: record.name.clone(), states, moves })
}

/// A record played by the catalog's one record reader
/// (`senat_lab::catalog::record::play`), as the game's own states and
/// moves: `state` is a position's typed state, `parse` reads a move's
/// canonical text on the state before it.
fn typed_record<S: Copy, M, E: std::fmt::Display>(
    record: &RecordText,
    game: GameKind,
    variant: &str,
    state: impl Fn(&senat_lab::catalog::Position) -> Option<&S>,
    parse: impl Fn(&S, &str) -> std::result::Result<M, E>,
) -> Result<(Vec<S>, Vec<M>)> {
    let (mut states, mut moves): (Vec<S>, Vec<M>) = (Vec::new(), Vec::new());
    let played = senat_lab::catalog::record::play(game, variant, record.lines(), |m, p| {
        let not_ours = || Failure::Input(format!("{}: not a record of --game {game}", record.name));
        let s = *state(p).ok_or_else(not_ours)?;
        if let (Some(m), Some(before)) = (m, states.last()) {
            moves.push(parse(before, m).map_err(|e| Failure::Input(e.to_string()))?);
        }
        states.push(s);
        Ok(())
    });
    played.or_else(|e| record_failure(&record.name, e))?;
    Ok((states, moves))
}

/// An agent spec of the lab's games, its error naming `flag`.
pub(crate) fn agent(text: &str, flag: &str) -> Result<AgentSpec> {
    AgentSpec::parse(text).or_else(|e| input(format_args!("{flag}: {e}")))
}

/// Refuses an agent that cannot play `G` (a weights file of another game,
/// [`AgentSpec::fits`]), naming `flag`.
pub(crate) fn fitting<G: LabGame>(spec: &AgentSpec, flag: &str) -> Result<()> {
    spec.fits::<G>().or_else(|e| input(format_args!("{flag}: agent `{spec}`: {e}")))
}

/// [`agent`], given `movetime=ms` by `--time-per-move` where it searches
/// and names no time of its own ([`AgentSpec::with_movetime`]).
pub(crate) fn timed_agent(text: &str, flag: &str, ms: Option<u64>) -> Result<AgentSpec> {
    let a = agent(text, flag)?;
    Ok(ms.map_or(a, |ms| a.with_movetime(ms)))
}

/// Why dominoes refuses `--time-per-move`.
pub(crate) const DOMINO_NO_TIME: &str = "--time-per-move is not for --game dominoes: its agents (pimc, ismcts) \
search a number of playouts, not a time";

/// The variant of `--variant` and `--players`.
pub(crate) fn domino_variant(g: &GameArg) -> Result<DominoVariant> {
    let text = domino_variant_text(g);
    DominoVariant::parse(&text).or_else(|e| input(format_args!("variant `{text}`: {e}")))
}

/// `--players` and `--variant` as one variant text ("" when neither is given).
fn domino_variant_text(g: &GameArg) -> String {
    match g.players {
        Some(p) if g.variant.trim().is_empty() => format!("players={p}"),
        Some(p) => format!("players={p},{}", g.variant),
        None => g.variant.clone(),
    }
}

/// A position argument: `start`, a state text, or an observation text.
pub(crate) enum DominoPos {
    State(State),
    Observation(Observation),
}

pub(crate) fn domino_position(words: &[String], g: &GameArg) -> Result<DominoPos> {
    let t = words.join(" ");
    let t = if t.trim().is_empty() { "start" } else { &t };
    match text(senat_lab::games::domino_position_arg(t, &domino_variant_text(g)))? {
        senat_lab::games::DominoText::State(s) => Ok(DominoPos::State(s)),
        senat_lab::games::DominoText::Observation(o) => Ok(DominoPos::Observation(o)),
    }
}

/// A record read and played (`start` or a state text, then one move per
/// line): its name, every state from its start and its moves.
pub(crate) fn domino_record_states(
    file: &std::path::Path,
    g: &GameArg,
) -> Result<(String, Vec<State>, Vec<dominoes_rules::Move>)> {
    domino_text_states(&RecordText::read(file)?, g)
}

/// [`domino_record_states`] of a record's lines (a file's, or a match of a
/// batch file, `--index`), read by the catalog's one record reader
/// (`senat_lab::catalog::record::play`).
pub(crate) fn domino_text_states(
    record: &RecordText,
    g: &GameArg,
) -> Result<(String, Vec<State>, Vec<dominoes_rules::Move>)> {
    let parse = |s: &State, m: &str| s.parse_move(m);
    let variant = domino_variant_text(g);
    let state = senat_lab::catalog::Position::domino_state;
    let (states, moves) = typed_record(record, g.game, &variant, state, parse)?;
    Ok((record.name.clone(), states, moves))
}

pub(crate) fn domino_spec(text: &str, flag: &str) -> Result<DominoSpec> {
    DominoSpec::parse(text).or_else(|e| input(format_args!("{flag}: {e}")))
}
