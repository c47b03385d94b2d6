//! The one batch runner of every game: a batch's outputs resolved, checked
//! distinct, opened fresh or resumed, its games played in parallel windows
//! ([`drive`]) and written in game order, companions (moves, side rows)
//! before the games file, then committed and summarised.
//!
//! What a batch's files hold — the identity line, the headers, the rows of
//! a chunk of games, how an existing file is read back to continue it, the
//! summary — is its [`RunFormat`]'s: Sénat's ([`super::persist`]) and the
//! lab games' ([`crate::games::batch`]). This module never plays a game
//! itself and never knows a game's rows; it never overwrites a file unless
//! asked to (`--force` or `--resume`), and writes only through [`OutFile`].

use super::output::{self, IfExists, Located, OutFile};
use super::schedule::drive;
use super::{Error, Existing};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What the one runner needs from a batch format. The outputs are numbered:
/// 0 is the games file, then the companions in [`Plan::companions`]' order.
pub trait RunFormat: Sync {
    /// What the summary is built from (all games of the output).
    type Sum: Send;
    /// What one chunk of games adds to it.
    type Part: Send;
    /// The first bytes of a fresh output `k`: the identity line and the header.
    fn fresh(&self, k: usize) -> Vec<u8>;
    /// Continues the existing games file and the companions that exist
    /// (`None`: missing; the runner creates it fresh, or refuses when the
    /// games file holds games): checks their identities and rows, cuts
    /// what follows the last game complete in all of them, and returns the
    /// summary of the games kept and the next game index.
    fn resume(&self, games: &mut OutFile, companions: &mut [Option<OutFile>]) -> Result<(Self::Sum, u64), Error>;
    /// The summary of no games.
    fn empty(&self) -> Self::Sum;
    /// Plays the games `range`: each output's rows (games first) and their part of the summary.
    fn play(&self, range: Range<u64>) -> (Vec<Vec<u8>>, Self::Part);
    /// Adds a chunk's part to the summary.
    fn add(&self, sum: &mut Self::Sum, part: &Self::Part);
    /// Writes the summary file (the runner commits it with the others).
    fn write_summary(&self, out: &mut OutFile, sum: &Self::Sum) -> Result<(), Error>;
}

/// Where a batch writes and what it may do with what is there.
pub struct Plan<'a> {
    /// Games in the whole batch.
    pub games: u64,
    /// The game indices this run holds (its shard's).
    pub range: Range<u64>,
    /// The games file.
    pub out: &'a Path,
    /// The files written beside it, each with its name in messages (`moves`).
    pub companions: Vec<(&'static str, &'a Path)>,
    /// The summary file, if wanted.
    pub summary: Option<&'a Path>,
    /// Every output with its flag, for the distinctness check.
    pub flags: Vec<(&'static str, &'a Path)>,
    /// The files the batch reads (weights), which no output may be.
    pub inputs: Vec<(&'static str, &'a Path)>,
    /// What to do with existing files.
    pub existing: Existing,
}

/// What a run did.
pub struct Ran<S> {
    /// The summary of every game of the output (resumed ones included).
    pub sum: S,
    /// Games played by this run.
    pub played: u64,
    /// Games found already in the file.
    pub resumed: u64,
    /// Seconds spent playing and writing.
    pub seconds: f64,
}

/// Runs a batch of format `f` into `plan`'s files on `threads` threads;
/// `progress` hears the number of games done (resumed ones included) after
/// each window.
///
/// Before the first game every output is resolved, checked to be distinct
/// from the others and from the inputs, locked and created (as
/// `PATH.partial`); at the end each is renamed into place, companions
/// first, so that a games file in place always has its companions in place.
/// `--resume` continues `PATH` (or the `PATH.partial` left by a killed run)
/// only if the format finds it to be the batch's.
pub fn run<F: RunFormat>(
    f: &F,
    plan: &Plan,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Ran<F::Sum>, Error> {
    if plan.games == 0 {
        return Err(Error::Invalid("--games 0: the batch must have at least 1 game".into()));
    }
    output::check_distinct(&plan.inputs, &plan.flags)?;
    let range = plan.range.clone();
    let resume = plan.existing == Existing::Resume;
    let fresh = |path: &Path| {
        OutFile::create(
            path,
            if plan.existing == Existing::Overwrite {
                IfExists::Overwrite
            } else {
                IfExists::Refuse { resumable: true }
            },
        )
    };
    let games_old = if resume { resumable(plan.out)? } else { None };
    let mut olds = Vec::new();
    for &(flag, path) in &plan.companions {
        let old = if resume { resumable(path)? } else { None };
        if let (None, Some(old)) = (&games_old, &old)
            && old.as_path() == path
        {
            return Err(Error::Identity {
                path: path.to_path_buf(),
                message: format!(
                    "cannot resume: the {flag} file exists but the games file {} does not, so it belongs to another \
                     run; remove it, or run without --resume and with --force to replace both",
                    plan.out.display()
                ),
            });
        }
        olds.push(old);
    }
    let mut games_file = match &games_old {
        Some(actual) => OutFile::resume(plan.out, actual)?,
        None => fresh(plan.out)?,
    };
    let mut companions: Vec<Option<OutFile>> = Vec::new();
    let (mut sum, next) = if games_old.is_some() {
        for ((_, path), old) in plan.companions.iter().zip(&olds) {
            companions.push(match old {
                Some(actual) => Some(OutFile::resume(path, actual)?),
                None => None,
            });
        }
        f.resume(&mut games_file, &mut companions)?
    } else {
        games_file.write_all(&f.fresh(0))?;
        companions.resize_with(plan.companions.len(), || None);
        (f.empty(), range.start)
    };
    if next > range.end {
        return Err(Error::Incomplete(format!(
            "cannot resume {}: it holds games up to {}, beyond its range {}..{}",
            plan.out.display(),
            next - 1,
            range.start,
            range.end
        )));
    }
    for (k, (c, &(_, path))) in companions.iter_mut().zip(&plan.companions).enumerate() {
        if c.is_some() {
            continue;
        }
        if next > range.start {
            return Err(Error::Incomplete(format!(
                "cannot resume: {} is missing but {} has games",
                path.display(),
                plan.out.display()
            )));
        }
        let mut file = if resume { OutFile::create(path, IfExists::Overwrite)? } else { fresh(path)? };
        file.write_all(&f.fresh(k + 1))?;
        *c = Some(file);
    }
    let mut companions: Vec<OutFile> = companions.into_iter().map(|c| c.expect("every companion is open")).collect();
    // The summary is rewritten from all rows, so a resumed run replaces it.
    let summary_file = match plan.summary {
        Some(p) => Some(OutFile::create(
            p,
            if plan.existing == Existing::Refuse { IfExists::Refuse { resumable: true } } else { IfExists::Overwrite },
        )?),
        None => None,
    };
    games_file.keep_on_failure();
    for c in companions.iter_mut() {
        c.keep_on_failure();
    }
    let resumed = next - range.start;
    let started = Instant::now();
    let mut done = resumed;
    progress(done);
    {
        let (sum, games_file, companions) = (&mut sum, &mut games_file, &mut companions);
        drive(
            next..range.end,
            threads,
            |r| {
                let n = r.end - r.start;
                (f.play(r), n)
            },
            move |window| {
                // Stopped ([`STOP`](crate::selfplay::schedule::STOP)):
                // this window may hold cut chunks; nothing more is written.
                if crate::selfplay::schedule::stop_requested() {
                    return Err(Error::Interrupted);
                }
                // Companions first, then games: a resumed games file never runs ahead of them.
                for (k, c) in companions.iter_mut().enumerate() {
                    c.write_all(&concat(window.iter().map(|((rows, _), _)| &rows[k + 1][..])))?;
                }
                games_file.write_all(&concat(window.iter().map(|((rows, _), _)| &rows[0][..])))?;
                for ((_, part), n) in &window {
                    f.add(sum, part);
                    done += n;
                }
                progress(done);
                Ok(())
            },
        )?;
    }
    let seconds = started.elapsed().as_secs_f64();
    let mut files = companions;
    files.push(games_file);
    if let Some(mut out) = summary_file {
        f.write_summary(&mut out, &sum)?;
        files.push(out);
    }
    output::commit_all(files)?;
    Ok(Ran { sum, played: range.end - next, resumed, seconds })
}

/// The parts joined into one buffer (written with one `write_all`, so that
/// an interruption cuts at most the last row).
fn concat<'a>(parts: impl Iterator<Item = &'a [u8]> + Clone) -> Vec<u8> {
    let mut all = Vec::with_capacity(parts.clone().map(<[u8]>::len).sum());
    for p in parts {
        all.extend_from_slice(p);
    }
    all
}
/// Which file a resumed output continues: the output itself if it exists,
/// else its `.partial` file if an interrupted run left one, else none.
pub(crate) fn resumable(path: &Path) -> Result<Option<PathBuf>, Error> {
    let loc = Located::new(path)?;
    if loc.is_file() {
        return Ok(Some(path.to_path_buf()));
    }
    if loc.meta.is_none() {
        let partial = output::partial_path(path);
        if partial.is_file() {
            return Ok(Some(partial));
        }
    }
    Ok(None)
}
