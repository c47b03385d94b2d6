//! The opening explorer over batch files of any game: each game of each
//! file ([`super::files::each_batch_game`]) replayed from its start by the
//! catalog's [`Position`] (so every move is checked and the result is the
//! rules', whatever the file says), and its first decisions (chance moves,
//! dominoes' deals and draws, left out), its pairing and
//! the first player's points added to an [`Explorer`]. Games are streamed
//! in chunks replayed on the current rayon pool; none is kept.
//!
//! What this module must never do: print or write a file (the binary
//! writes the page and the CSV).

use super::files::{IndexedGame, each_batch_game};
use super::{CatalogError, Mover, Position};
use crate::explorer::Explorer;
use crate::games::GameKind;
use rayon::prelude::*;
use std::path::PathBuf;

/// Games replayed at once.
const CHUNK: usize = 4096;

/// What [`explore`] read.
#[derive(Debug)]
pub struct Explored {
    /// The game of the files.
    pub kind: GameKind,
    /// Its variant, as the files name it (empty: the default rules).
    pub variant: String,
    /// The player who moves first from the start, whose points the tree
    /// counts (`blue` in Sénat, `white` in Focus, `player 0` in dominoes).
    pub first: String,
    /// The tree.
    pub explorer: Explorer,
    /// Games that ended unfinished (at a ply cap or a round limit),
    /// counted as draws.
    pub unfinished: u64,
}

/// A refusal.
fn refused<T>(m: impl std::fmt::Display) -> Result<T, CatalogError> {
    Err(CatalogError::Refused(m.to_string()))
}

/// One game replayed: its decisions (its moves but chance's), pairing, the first player's points in
/// halves, whether it ended unfinished, and the first player's name.
type Replayed = (Vec<String>, String, u8, bool, String);

/// The variant text of a game of a batch file, as [`Position::read`] takes it.
fn variant_of(b: &IndexedGame) -> String {
    match &b.senat {
        Some((v, _)) => v.to_text(),
        None => b.variant.clone(),
    }
}

/// Game `b` replayed from its start.
fn replay(b: IndexedGame) -> Result<Replayed, CatalogError> {
    let mut p = Position::read(b.kind, "start", &variant_of(&b))?;
    let first_seat = match p.mover() {
        Mover::Player(i) => i,
        Mover::Chance | Mover::Over => 0,
    };
    let first = p.to_move().filter(|m| m != "chance").unwrap_or_else(|| format!("player {first_seat}"));
    // The decisions only: a dominoes deal or draw is nobody's opening.
    let mut decisions = Vec::with_capacity(b.moves.len());
    for (k, m) in b.moves.iter().enumerate() {
        if !p.is_chance() {
            decisions.push(m.clone());
        }
        p = match p.play(m) {
            Ok(next) => next,
            Err(e) => return refused(format_args!("{} ply {}: {e}", b.title, k + 1)),
        };
    }
    let r = p.returns();
    let over = p.is_over();
    let halves = if !over || r.iter().all(|&x| x == 0.0) {
        1
    } else if r.get(first_seat).is_some_and(|&x| x > 0.0) {
        2
    } else {
        0
    };
    let pairing = b.players.iter().map(|(role, agent)| format!("{role}: {agent}")).collect::<Vec<_>>().join(" · ");
    Ok((decisions, pairing, halves, !over, first))
}

/// The explorer of the games of `paths` (every file of one game and one
/// variant: `want`, `--game`, must be theirs if given), keeping the first
/// `depth` moves of each game; `progress` is told the games done.
pub fn explore(
    paths: &[PathBuf],
    want: Option<GameKind>,
    depth: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Explored, CatalogError> {
    let mut explorer = Explorer::new(depth);
    let mut found: Option<(GameKind, String, String)> = None;
    let mut unfinished = 0u64;
    for path in paths {
        let mut chunk: Vec<IndexedGame> = Vec::with_capacity(CHUNK);
        let mut flush = |chunk: &mut Vec<IndexedGame>, found: &mut Option<(GameKind, String, String)>| {
            let games: Vec<Result<Replayed, CatalogError>> =
                std::mem::take(chunk).into_par_iter().map(replay).collect();
            for g in games {
                let (moves, pairing, halves, cut, first) = g?;
                let Some((_, _, f)) = found.as_mut() else {
                    unreachable!("the game is found before a game is replayed")
                };
                if f.is_empty() {
                    *f = first;
                } else if *f != first {
                    return refused(format_args!(
                        "{}: its games start with {first} to move, the others' with {f}",
                        path.display()
                    ));
                }
                explorer.add(&moves, &pairing, halves);
                unfinished += u64::from(cut);
            }
            progress(explorer.games());
            Ok(())
        };
        let mut kind_checked = false;
        each_batch_game(path, want, &mut |b| {
            if !kind_checked {
                let variant = variant_of(&b);
                match &found {
                    Some((k, v, _)) if (*k, v.as_str()) != (b.kind, variant.as_str()) => {
                        return refused(format_args!(
                            "{} is a batch of {} ({}), {} of {k} ({}): explore one game and variant at a time",
                            path.display(),
                            b.kind,
                            if variant.is_empty() { "default rules" } else { &variant },
                            paths[0].display(),
                            if v.is_empty() { "default rules" } else { v },
                        ));
                    }
                    Some(_) => {}
                    None => found = Some((b.kind, variant, String::new())),
                }
                kind_checked = true;
            }
            chunk.push(b);
            if chunk.len() >= CHUNK {
                flush(&mut chunk, &mut found)?;
            }
            Ok(true)
        })?;
        flush(&mut chunk, &mut found)?;
    }
    let Some((kind, variant, first)) = found else {
        return refused("no game in the files");
    };
    Ok(Explored { kind, variant, first, explorer, unfinished })
}
