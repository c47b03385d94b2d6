//! Which file holds a game: the game and variant a batch file names in its
//! identity line, and a game taken out of a batch file of any game by its
//! index (`--index N`, [`indexed_game`]), for `view`, `replay`, `annotate`
//! and `metrics` (the table "Which file holds a game" of docs/formats.md).
//!
//! What this module must never do: play a move (the readers of records
//! play the moves it returns), or write a file.

use super::CatalogError;
use crate::games::GameKind;
use senat_rules::Variant;
use senat_rules::notation::escape;
use std::fmt::Display;
use std::path::Path;

/// A refusal with the message `m`, as the command line prints it.
fn input<T>(m: impl Display) -> Result<T, CatalogError> {
    Err(CatalogError::Refused(m.to_string()))
}

/// The rules variant of a Sénat games file, from its identity line: the
/// line's `variant=` (an invalid one is an error), or the rules when the
/// file has no complete identity line (files older than the line, or
/// hand-made ones whose leading `#` lines the readers skip as comments).
pub fn batch_variant(path: &Path) -> Result<Variant, CatalogError> {
    use crate::selfplay::identity::{IdentityError, read_identity};
    let shown = escape(&path.display().to_string());
    let file = std::fs::File::open(path).or_else(|e| input(format_args!("cannot read {shown}: {e}")))?;
    match read_identity(&mut std::io::BufReader::new(file)) {
        Ok(Some(Ok(id))) => Ok(id.variant),
        Ok(Some(Err(e @ IdentityError::Variant { .. }))) => input(format_args!("{shown}: line 1: {e}")),
        Ok(Some(Err(_)) | None) => arena_variant(path),
        Err(e) => input(format_args!("cannot read {shown}: {e}")),
    }
}

/// The variant of a Sénat arena file ([`crate::arena::arena_file`]),
/// the rules for a file that is no arena's; another game's arena file is
/// refused.
fn arena_variant(path: &Path) -> Result<Variant, CatalogError> {
    let shown = escape(&path.display().to_string());
    match crate::arena::arena_file(path) {
        None => Ok(Variant::RULES),
        Some((GameKind::Senat, text)) => {
            Variant::parse(&text).or_else(|e| input(format_args!("{shown}: line 1: variant: {e}")))
        }
        Some((g, _)) => input(format_args!("{shown} is a file of a {g} arena: pass --game {g}")),
    }
}

/// The game a file of `selfplay`, `merge` or `arena` names in its identity
/// line (every game's, both formats); `None` for a file without one (a
/// record, or a Sénat games file older than the line).
pub fn file_game(path: &Path) -> Option<GameKind> {
    crate::games::batch::batch_game(path).or_else(|| crate::arena::arena_file(path).map(|(g, _)| g))
}

/// [`file_game`], refused unless it is `want` (`--game`, if given).
pub fn checked_file_game(path: &Path, want: Option<GameKind>) -> Result<Option<GameKind>, CatalogError> {
    let found = file_game(path);
    match (found, want) {
        (Some(g), Some(w)) if g != w => input(format_args!(
            "{} is a file of a {g} batch, not of {w}: pass --game {g} or leave --game out (the file names its game)",
            path.display()
        )),
        _ => Ok(found),
    }
}

/// A game taken out of a batch file by its index (`--index N`): the game
/// and its variant as the file's identity line names them, and its moves
/// from the start. Read by [`indexed_game`]; `view`, `replay` and
/// `annotate` play it with the readers of records.
pub struct IndexedGame {
    /// The game (Sénat for a file without an identity line).
    pub kind: GameKind,
    /// Another game's variant text as the file gives it (empty for the
    /// default rules).
    pub variant: String,
    /// `FILE game N`.
    pub title: String,
    /// `N`, the row's `game` column (`None` where it is not a number).
    pub index: Option<u64>,
    /// Whether the file is an arena's (its `first` and `second` are the
    /// agents of seats 0 and 1: [`IndexedGame::agent_of`]).
    pub arena: bool,
    /// The players as the file names them: (role, agent).
    pub players: Vec<(String, String)>,
    /// The moves from the start, in the game's move text.
    pub moves: Vec<String>,
    /// Sénat: the rules variant, and the final SPN, winner and reason of
    /// the game's row where the file gives them.
    pub senat: Option<(Variant, Option<[String; 3]>)>,
}

impl IndexedGame {
    /// The agent that played for team `team` as the file names it (team 0
    /// is `red`'s in Sénat and `first`'s in the other games); empty when
    /// the file does not say.
    pub fn agent_of(&self, team: usize) -> &str {
        self.players.get(team).map_or("", |(_, agent)| agent.as_str())
    }
}

/// Where the moves of game `n` are in a file, by its header.
#[derive(Clone, Copy, PartialEq)]
enum Layout {
    /// Sénat's games file (and an arena's moves file): one row a game, its
    /// draft and play moves, its final SPN, winner and reason.
    SenatRow,
    /// Sénat's moves file: one row a move.
    SenatPlies,
    /// The moves file of another game's batch: `game,moves`.
    Moves,
    /// The moves file of another game's arena: its agents in the row.
    ArenaMoves,
}

/// Where to find the game a file does not hold: the other games' games
/// files and every arena's games file hold no moves.
fn holds_no_moves(shown: &str, kind: GameKind, arena: bool, n: &str) -> CatalogError {
    let table = "docs/formats.md, `Which file holds a game`";
    CatalogError::Refused(if arena {
        format!(
            "{shown} is an arena's games file, whose rows hold no moves: pass the arena's moves file (written by \
             `senat arena --game {kind} ... --moves FILE`) with --index {n} (see {table})"
        )
    } else {
        format!(
            "{shown} holds no {kind} game's moves (a games file of another game than Sénat holds none): pass the \
             batch's moves file (written by `senat selfplay --game {kind} ... --moves FILE` beside it, with the same \
             identity line) with --index {n} (see {table})"
        )
    })
}

/// Game `n` of a batch file of any game: a games or moves file of
/// `selfplay` or `merge`, or an arena's moves file. The game comes from
/// the file's identity line ([`file_game`]), the kind of file from its
/// header; `want` (`--game`, if given) must be the file's game. A file
/// whose rows hold no moves is refused with the file to pass instead (the
/// table in docs/formats.md). The rows are read by their `game` column;
/// Sénat's games are checked against their row by the caller, through
/// [`IndexedGame::senat`] (its variant, and its final SPN, winner and reason).
pub fn indexed_game(path: &Path, n: u64, want: Option<GameKind>) -> Result<IndexedGame, CatalogError> {
    let mut found = None;
    let seen = read_games(path, want, Some(n), &n.to_string(), &mut |game| {
        found = Some(game);
        Ok(false)
    })?;
    match found {
        Some(game) => Ok(game),
        None => input(format_args!("{}: no game {n} among its {seen} rows (see its `game` column)", path.display())),
    }
}

/// Every game of a batch file that [`indexed_game`] reads, in the order
/// of the file's rows (a moves file of Sénat's: by game number), at most
/// `limit` of them: one pass over the file. A file without a game is
/// refused.
pub fn batch_games(path: &Path, want: Option<GameKind>, limit: Option<u64>) -> Result<Vec<IndexedGame>, CatalogError> {
    let mut games = Vec::new();
    let limit = limit.unwrap_or(u64::MAX);
    each_batch_game(path, want, &mut |game| {
        if games.len() as u64 >= limit {
            return Ok(false);
        }
        games.push(game);
        Ok(true)
    })?;
    if games.is_empty() {
        return input(format_args!("{}: no game in the file", path.display()));
    }
    Ok(games)
}

/// Streams every game of a batch file (as [`batch_games`] lists them) to
/// `each`, which returns `false` to stop; the rows read. Only a Sénat
/// moves file (one row a ply) is held whole, to gather its games.
pub fn each_batch_game(
    path: &Path,
    want: Option<GameKind>,
    each: &mut dyn FnMut(IndexedGame) -> Result<bool, CatalogError>,
) -> Result<u64, CatalogError> {
    read_games(path, want, None, "N", each)
}

/// The games of a batch file, to `each` (which returns `false` to stop):
/// game `only` if given, else every game; the number of rows read.
/// `shown_n` is the index as the refusals name it (`--index N`).
fn read_games(
    path: &Path,
    want: Option<GameKind>,
    only: Option<u64>,
    shown_n: &str,
    each: &mut dyn FnMut(IndexedGame) -> Result<bool, CatalogError>,
) -> Result<u64, CatalogError> {
    use crate::games::batch::identity_of;
    let shown = path.display().to_string();
    let found = checked_file_game(path, want)?;
    match (found, want) {
        (None, Some(w)) if w != GameKind::Senat => {
            return input(format_args!(
                "--index {shown_n}: {shown} is not a batch file (a moves file of `senat selfplay --game {w} --moves`)"
            ));
        }
        _ => {}
    }
    let kind = found.or(want).unwrap_or(GameKind::Senat);
    let arena = crate::arena::arena_file(path);
    let mut rdr = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .flexible(true)
        .from_path(path)
        .or_else(|e| input(format_args!("cannot read {shown}: {e}")))?;
    let headers = rdr.headers().or_else(|e| input(format_args!("cannot read {shown}: {e}")))?.clone();
    let head: Vec<&str> = headers.iter().collect();
    let col = |name: &str| headers.iter().position(|h| h == name);
    const SENAT_ROW: [&str; 8] = ["game", "red", "blue", "winner", "reason", "draft_moves", "play_moves", "final_spn"];
    let layout = match kind {
        GameKind::Senat if SENAT_ROW.iter().all(|c| col(c).is_some()) => Layout::SenatRow,
        GameKind::Senat if head == crate::selfplay::MOVES_HEADER => Layout::SenatPlies,
        GameKind::Senat if arena.is_some() => return Err(holds_no_moves(&shown, kind, true, shown_n)),
        GameKind::Senat => {
            let missing = SENAT_ROW.iter().find(|c| col(c).is_none()).expect("a column is missing");
            return input(format_args!(
                "{shown} is not a games file of senat selfplay: it has no `{missing}` column (Sénat's games are in \
                 its games and moves files and an arena's moves file)"
            ));
        }
        _ if arena.is_none() && head == ["game", "moves"] => Layout::Moves,
        _ if arena.is_some() && head == crate::games::arena::MOVES_COLUMNS => Layout::ArenaMoves,
        _ => return Err(holds_no_moves(&shown, kind, arena.is_some(), shown_n)),
    };
    // The file's variant and, for a batch, its agents.
    let (variant, agents) = match (&arena, kind) {
        (_, GameKind::Senat) => (String::new(), None),
        (Some((_, variant)), _) => (variant.clone(), None),
        (None, _) => {
            let fields = identity_of(path).or_else(input)?;
            let field = |k: &str| fields.iter().find(|(key, _)| key == k).map_or("", |(_, v)| v.as_str()).to_string();
            let variant = if field("variant") == "-" { String::new() } else { field("variant") };
            (variant, Some([field("first"), field("second")]))
        }
    };
    let senat_variant = if kind == GameKind::Senat { Some(batch_variant(path)?) } else { None };
    let game_c = col("game").expect("every layout has a game column");
    let new_game = |n: &str| IndexedGame {
        kind,
        variant: variant.clone(),
        title: format!("{shown} game {n}"),
        index: n.parse().ok(),
        arena: arena.is_some(),
        players: Vec::new(),
        moves: Vec::new(),
        senat: None,
    };
    let only_text = only.map(|n| n.to_string());
    let mut seen = 0u64;
    // Sénat's moves file: each game's plies, by game, then by ply.
    let mut plies: std::collections::BTreeMap<u64, Vec<(u64, String)>> = std::collections::BTreeMap::new();
    for (i, row) in rdr.records().enumerate() {
        let row = row.or_else(|e| input(format_args!("{shown}: row {}: {e}", i + 2)))?;
        seen += 1;
        let n_text = row.get(game_c).unwrap_or("");
        if only_text.as_deref().is_some_and(|n| n != n_text) {
            continue;
        }
        let field = |name: &str| col(name).and_then(|c| row.get(c)).unwrap_or("").to_string();
        let words = |text: &str| text.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        if layout == Layout::SenatPlies {
            let n = n_text.parse::<u64>().or_else(|e| input(format_args!("{shown}: row {}: game: {e}", i + 2)))?;
            let ply =
                field("ply").parse::<u64>().or_else(|e| input(format_args!("{shown}: row {}: ply: {e}", i + 2)))?;
            plies.entry(n).or_default().push((ply, field("move")));
            continue;
        }
        let mut game = new_game(n_text);
        match layout {
            Layout::SenatPlies => unreachable!("read above"),
            Layout::SenatRow => {
                game.players = vec![("red".into(), field("red")), ("blue".into(), field("blue"))];
                game.moves = words(&field("draft_moves"));
                game.moves.extend(words(&field("play_moves")));
                let variant = senat_variant.expect("a Sénat file");
                game.senat = Some((variant, Some([field("final_spn"), field("winner"), field("reason")])));
            }
            Layout::Moves | Layout::ArenaMoves => {
                let [first, second] =
                    agents.clone().unwrap_or_else(|| [3, 4].map(|c| row.get(c).unwrap_or("").to_string()));
                game.players = vec![("first".into(), first), ("second".into(), second)];
                let moves_c = if layout == Layout::Moves { 1 } else { 5 };
                game.moves = words(row.get(moves_c).unwrap_or(""));
            }
        }
        if !each(game)? || only.is_some() {
            return Ok(seen);
        }
    }
    if layout == Layout::SenatPlies && !plies.is_empty() {
        use crate::selfplay::identity::read_identity;
        let file = std::fs::File::open(path).or_else(|e| input(format_args!("cannot read {shown}: {e}")))?;
        let players = match read_identity(&mut std::io::BufReader::new(file)) {
            Ok(Some(Ok(id))) => {
                vec![("red".into(), id.policies[0].name.clone()), ("blue".into(), id.policies[1].name.clone())]
            }
            _ => Vec::new(),
        };
        for (n, mut moves) in plies {
            moves.sort_by_key(|(ply, _)| *ply);
            let mut game = new_game(&n.to_string());
            game.moves = moves.into_iter().map(|(_, m)| m).collect();
            game.players = players.clone();
            game.senat = Some((senat_variant.expect("a Sénat file"), None));
            if !each(game)? {
                break;
            }
        }
    }
    Ok(seen)
}

/// The identity fields of a batch file of any game (a games or moves file
/// of `selfplay` or `merge`), its first line's `key=value` fields with
/// their values unescaped; refused when the first line is not a batch
/// identity.
pub fn identity_fields(path: &Path) -> Result<Vec<(String, String)>, CatalogError> {
    let refused = |e: &dyn Display| CatalogError::Refused(e.to_string());
    if crate::games::batch::batch_game(path) != Some(GameKind::Senat) {
        return crate::games::batch::identity_of(path).map_err(|e| refused(&e));
    }
    use std::io::{BufRead, Read};
    let shown = path.display();
    let file = std::fs::File::open(path).map_err(|e| refused(&format_args!("cannot read {shown}: {e}")))?;
    let mut line = String::new();
    std::io::BufReader::new(file)
        .take(1 << 16)
        .read_line(&mut line)
        .map_err(|e| refused(&format_args!("cannot read {shown}: {e}")))?;
    let id = crate::selfplay::Identity::parse(line.trim_end_matches(['\n', '\r']))
        .map_err(|e| refused(&format_args!("{shown}: line 1: {e}")))?;
    Ok(id.fields())
}

/// A record's start and moves as texts, for `game` (the record names no
/// game): Sénat's read by the rules' record reader ([`senat_rules::Record`],
/// the rules as written; its start as an SPN), every other game's as
/// `senat replay --game` reads it (its first line the start, then one move
/// a line; `#` comments and blank lines skipped). The moves are not played
/// here: [`super::Position`] plays them. `name` names the record in messages.
pub fn record_moves(game: GameKind, name: &str, text: &str) -> Result<(String, Vec<String>), CatalogError> {
    if game == GameKind::Senat {
        let r = senat_rules::Record::parse_in(text, Variant::RULES).or_else(|e| input(format_args!("{name}: {e}")))?;
        return Ok((r.start.to_spn(), r.moves.into_iter().map(|(_, m)| m).collect()));
    }
    let mut lines = crate::limits::record_lines(text);
    let start = lines.next().map_or_else(|| "start".to_string(), |(_, l)| l.to_string());
    Ok((start, lines.map(|(_, l)| l.to_string()).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_of_every_game_give_their_start_and_moves() {
        let (start, moves) = record_moves(GameKind::Connect4, "r", "# c\nstart\n4\n\n3 # reply\n").unwrap();
        assert_eq!((start.as_str(), moves), ("start", vec!["4".to_string(), "3".to_string()]));
        let (start, moves) = record_moves(GameKind::Senat, "r", "start\ng1\n").unwrap();
        assert_eq!(moves, ["g1"]);
        assert!(start.starts_with(".,.,"), "{start}");
        let e = record_moves(GameKind::Senat, "r.txt", "no such position\n").unwrap_err().to_string();
        assert!(e.starts_with("r.txt: "), "{e}");
    }
}
