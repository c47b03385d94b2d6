//! The fixed positions of `tests/fixtures/solver-positions.txt`, shared by
//! `tests/it/solver.rs` (the entries marked `ci`) and `benches/solve.rs` (all).
//!
//! A line: `name  max-depth  expected  ci|bench  position`, where `expected`
//! is `win:N`, `loss:N`, `draw:N` or `unknown`, and `position` is either
//! `sample N` (the sample game after its move N, with its repetition
//! history) or `spn <SPN>` (a position with no history). This file only
//! reads the list; it never solves anything.

#![allow(dead_code)]

use game_search::solver::Verdict;
use senat_lab::games::senat::SenatState;
use senat_rules::{GameRecord, Position, sample};

/// The list, compiled in.
pub const LIST: &str = include_str!("../../fixtures/solver-positions.txt");

/// One entry of the list.
pub struct Entry {
    /// Its name.
    pub name: String,
    /// The horizon to solve with.
    pub max_depth: u32,
    /// The verdict `Solver::solve` must give.
    pub expected: Verdict,
    /// Cheap enough for the tests (well under a second in release).
    pub ci: bool,
    /// The state to solve.
    pub state: SenatState,
}

/// The sample game after its move `n` (0: the start), with its history.
pub fn sample_after(n: usize) -> Result<SenatState, String> {
    let mut lines = sample::record_lines();
    let start: Position = lines.next().ok_or("empty record")?.parse().map_err(|e| format!("start: {e}"))?;
    let mut g = GameRecord::new(start);
    for (i, text) in lines.take(n).enumerate() {
        let m = g.position().parse_move(text).map_err(|e| format!("move {}: {e}", i + 1))?;
        g.play(m).map_err(|e| format!("move {}: {e:?}", i + 1))?;
    }
    if g.moves().len() != n {
        return Err(format!("the sample game has fewer than {n} moves"));
    }
    Ok(SenatState::from_game(&g))
}

fn verdict(text: &str) -> Result<Verdict, String> {
    if text == "unknown" {
        return Ok(Verdict::Unknown);
    }
    let (kind, n) = text.split_once(':').ok_or_else(|| format!("`{text}`: expected win:N, loss:N, draw:N, unknown"))?;
    let n: u32 = n.parse().map_err(|e| format!("`{text}`: {e}"))?;
    match kind {
        "win" => Ok(Verdict::Win(n)),
        "loss" => Ok(Verdict::Loss(n)),
        "draw" => Ok(Verdict::Draw(n)),
        _ => Err(format!("`{text}`: expected win:N, loss:N, draw:N, unknown")),
    }
}

fn entry(line: &str) -> Result<Entry, String> {
    let mut words = line.split_whitespace();
    let mut next = |what: &str| words.next().ok_or_else(|| format!("missing {what}"));
    let name = next("name")?.to_string();
    let max_depth = next("max-depth")?.parse().map_err(|e| format!("max-depth: {e}"))?;
    let expected = verdict(next("expected")?)?;
    let ci = match next("ci|bench")? {
        "ci" => true,
        "bench" => false,
        w => return Err(format!("`{w}`: expected ci or bench")),
    };
    let kind = next("position kind")?;
    let rest: Vec<&str> = words.collect();
    let state = match kind {
        "sample" => sample_after(rest.join(" ").parse().map_err(|e| format!("sample move number: {e}"))?)?,
        "spn" => SenatState::new(rest.join(" ").parse::<Position>().map_err(|e| format!("spn: {e}"))?),
        k => return Err(format!("`{k}`: expected sample or spn")),
    };
    Ok(Entry { name, max_depth, expected, ci, state })
}

/// All entries, or the first bad line.
pub fn entries() -> Result<Vec<Entry>, String> {
    LIST.lines()
        .enumerate()
        .map(|(i, l)| (i, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
        .map(|(i, l)| entry(l).map_err(|e| format!("solver-positions.txt:{}: {e}", i + 1)))
        .collect()
}
