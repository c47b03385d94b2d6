//! `analyze` of the perfect-information games of the catalog but Sénat, as
//! one library function ([`analyze`]) that the binary and the Python
//! package call and only print: alpha-beta on the game's hand evaluation,
//! or MCTS whose leaves take that evaluation's win probability, each with
//! its report in move texts and its opinion as a win chance.
//!
//! Sénat's `analyze` (its history, threads, learned evaluations and priors)
//! stays the binary's own path; dominoes has hidden information and is
//! refused.
//!
//! What this module must never do: print, read or write a file, or parse
//! arguments.

use std::time::Duration;

use game_search::alphabeta::{self, Limits, Searcher};
use game_search::mcts::{self, Mcts};

use super::{CatalogError, Position};
use crate::games::agent::{DEFAULT_CUT, DEFAULT_SCALE, LabRollout, LeafValue};
use crate::games::{LabEval, LabGame, result_line};
use crate::winprob::WinChance;

/// The search an analysis runs, with its own limits.
#[derive(Debug, Clone, PartialEq)]
pub enum Engine {
    /// Iterative-deepening alpha-beta on the game's hand evaluation.
    AlphaBeta {
        /// The deepest iteration (default: 4 without a time limit, else 64).
        depth: Option<u32>,
        /// The transposition table's size in MiB.
        tt_mb: usize,
    },
    /// MCTS (UCT) whose leaves take the evaluation's win probability.
    Mcts {
        /// Playouts (default: 10,000 without a time limit, else the most).
        playouts: Option<u64>,
        /// The exploration constant.
        c: f64,
        /// The tree's memory bound in MiB.
        memory_mb: usize,
        /// Proved wins, losses and draws in the tree (MCTS-Solver).
        solve: bool,
        /// The search's seed.
        seed: u64,
    },
}

/// What an analysis found.
#[derive(Debug, Clone)]
pub enum Analysis {
    /// The game is over: its result line, nothing searched.
    Over(String),
    /// Alpha-beta's report in move texts.
    AlphaBeta {
        /// The search: iterations, best move, score, line, nodes.
        report: alphabeta::Report<String>,
        /// The seat to move.
        seat: String,
        /// The evaluation's logistic scale (score units per logit).
        scale: f64,
        /// The best move's score as a win chance for the side to move.
        win: WinChance,
        /// The `multipv` best moves: move, score, win chance, line.
        lines: Vec<(String, i32, WinChance, Vec<String>)>,
    },
    /// MCTS's report in move texts.
    Mcts {
        /// The search: root moves' visits and values, best move, line.
        report: mcts::Report<String>,
        /// The seat to move.
        seat: String,
        /// The mean result as a win chance for the side to move.
        win: WinChance,
        /// The `multipv` most visited moves: move, win chance, visits, line.
        lines: Vec<(String, WinChance, u64, Vec<String>)>,
    },
}

/// Analyzes `p` with `engine`, stopped after `time` if given; `multipv`:
/// that many best moves (1 to 256) with their own lines.
pub fn analyze(
    p: &Position,
    engine: &Engine,
    time: Option<Duration>,
    multipv: Option<usize>,
) -> Result<Analysis, CatalogError> {
    let multipv = checked_multipv(multipv)?;
    crate::on_game!(p.game(), G => lab_analyze::<G>(p, engine, time, multipv),
    senat => Err(CatalogError::Refused("Sénat's analyze is the senat command's own (its history, threads and evaluations)".into())),
    dominoes => Err(CatalogError::Refused(
        "analyze is not available for --game dominoes (hidden information): use its agents in selfplay or arena".into(),
    )))
}

/// `multipv` checked: 1 to 256 moves (every game's analysis, Sénat's
/// included, refuses the rest with this message).
pub fn checked_multipv(multipv: Option<usize>) -> Result<Option<usize>, CatalogError> {
    match multipv {
        Some(k) if !(1..=256).contains(&k) => Err(refused(format!("--multipv {k}: expected 1 to 256 moves"))),
        k => Ok(k),
    }
}

fn refused(e: impl ToString) -> CatalogError {
    CatalogError::Refused(e.to_string())
}

fn lab_analyze<G: LabGame + 'static>(
    p: &Position,
    engine: &Engine,
    time: Option<Duration>,
    multipv: Option<usize>,
) -> Result<Analysis, CatalogError> {
    let s = p.lab_state::<G>().ok_or_else(|| refused("not a position of this game"))?;
    if G::result(s).is_some() {
        return Ok(Analysis::Over(result_line::<G>(s)));
    }
    let seat = G::seats(G::players(s))[G::to_move(s)].to_string();
    let texts = |pv: &[G::Move]| pv.iter().map(|&m| G::move_text(m)).collect::<Vec<String>>();
    match *engine {
        Engine::AlphaBeta { depth, tt_mb } => {
            crate::limits::megabytes("--tt-mb", tt_mb, 0).map_err(refused)?;
            let depth = crate::limits::depth("--depth", depth.unwrap_or(if time.is_some() { 64 } else { 4 }), 1)
                .map_err(refused)?;
            let mut searcher: Searcher<G, LabEval> = Searcher::try_new(LabEval::HAND, tt_mb).map_err(refused)?;
            let r = searcher.search(s, Limits { depth, nodes: None, time });
            let scale = G::eval_scale(s);
            let lines = match multipv {
                Some(k) => searcher
                    .multipv(s, &r, k)
                    .iter()
                    .map(|(m, score, pv)| (G::move_text(*m), *score, WinChance::from_score(*score, scale), texts(pv)))
                    .collect(),
                None => Vec::new(),
            };
            let win = WinChance::from_score(r.score, scale);
            Ok(Analysis::AlphaBeta { report: r.map(G::move_text), seat, scale, win, lines })
        }
        Engine::Mcts { playouts, c, memory_mb, solve, seed } => {
            crate::limits::exploration("--c", c).map_err(refused)?;
            crate::limits::megabytes("--memory-mb", memory_mb, 1).map_err(refused)?;
            let config = mcts::Config {
                playouts: match playouts {
                    Some(n) => crate::limits::playouts("--playouts", n).map_err(refused)?,
                    None if time.is_some() => crate::limits::MAX_PLAYOUTS,
                    None => 10_000,
                },
                time,
                selection: mcts::Selection::Uct { c },
                memory: crate::limits::mb_to_bytes(memory_mb).unwrap_or(usize::MAX),
                solver: solve,
                ..mcts::Config::default()
            };
            let leaf = LeafValue::Eval { cut: DEFAULT_CUT, scale: DEFAULT_SCALE };
            let mut m: Mcts<G, LabRollout<G>> = Mcts::new(config, LabRollout::new(leaf));
            let r = m.search(s, seed);
            let win = WinChance::from_mean(r.value(), r.proof);
            let mut lines = Vec::new();
            if let Some(k) = multipv {
                let mut by_visits: Vec<usize> = (0..r.moves.len()).collect();
                by_visits.sort_by(|&x, &y| r.moves[y].1.cmp(&r.moves[x].1).then(r.moves[y].2.total_cmp(&r.moves[x].2)));
                for &j in by_visits.iter().take(k) {
                    let (mv, visits, mean) = r.moves[j];
                    let chance = WinChance::from_mean(mean, r.proofs.get(j).copied().flatten());
                    let pv = if Some(mv) == r.best { texts(&r.pv) } else { vec![G::move_text(mv)] };
                    lines.push((G::move_text(mv), chance, visits, pv));
                }
            }
            Ok(Analysis::Mcts { report: r.map(G::move_text), seat, win, lines })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::testing::{connect4, position};
    use crate::games::GameKind;

    #[test]
    fn alpha_beta_and_mcts_answer_in_move_texts() {
        let p = connect4("4453");
        let legal = p.legal_moves();
        let ab = Engine::AlphaBeta { depth: Some(3), tt_mb: 16 };
        let Analysis::AlphaBeta { report, seat, lines, .. } = analyze(&p, &ab, None, Some(3)).unwrap() else {
            panic!("an alpha-beta analysis");
        };
        assert!(legal.contains(report.best.as_ref().unwrap()), "{report:?}");
        assert_eq!((report.depth, report.iterations.len(), seat.as_str()), (3, 3, "first"));
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| legal.contains(&l.0) && l.3.first() == Some(&l.0)), "{lines:?}");
        let mcts = Engine::Mcts { playouts: Some(300), c: 1.0, memory_mb: 64, solve: true, seed: 1 };
        let Analysis::Mcts { report, lines, .. } = analyze(&p, &mcts, None, Some(2)).unwrap() else {
            panic!("an MCTS analysis");
        };
        assert_eq!(report.playouts, 300);
        assert_eq!(report.moves.iter().map(|m| m.1).sum::<u64>(), 300);
        assert_eq!(lines.len(), 2);
        assert!(lines[0].2 >= lines[1].2, "most visited first: {lines:?}");
    }

    #[test]
    fn an_ended_game_a_hidden_one_and_senat_are_not_searched() {
        let over = analyze(&connect4("1122334"), &Engine::AlphaBeta { depth: None, tt_mb: 16 }, None, None).unwrap();
        assert!(matches!(&over, Analysis::Over(r) if r.contains("wins")), "{over:?}");
        for game in [GameKind::Dominoes, GameKind::Senat] {
            let p = position(game, "start");
            assert!(analyze(&p, &Engine::AlphaBeta { depth: Some(1), tt_mb: 16 }, None, None).is_err());
        }
        let e =
            analyze(&connect4("4453"), &Engine::AlphaBeta { depth: Some(1), tt_mb: 16 }, None, Some(0)).unwrap_err();
        assert!(e.to_string().contains("1 to 256"), "{e}");
    }
}
