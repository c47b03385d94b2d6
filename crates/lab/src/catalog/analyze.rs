//! `analyze` of the perfect-information games of the catalog, as one
//! library function ([`analyze`]) that the binary and the Python package
//! call and only print: alpha-beta on the game's hand evaluation (Sénat's
//! with its repetition history), or MCTS whose leaves take that
//! evaluation's win probability, each with its report in move texts and
//! its opinion as a win chance.
//!
//! Sénat's MCTS analysis (its rollouts, priors and networks) stays the
//! binary's own path; dominoes has hidden information and is refused.
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
        /// Search threads sharing the table (Lazy SMP; 1: one thread).
        threads: std::num::NonZeroUsize,
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
    senat => senat_analyze(p, engine, time, multipv),
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
        Engine::AlphaBeta { depth, tt_mb, threads } => {
            let limits = ab_limits(depth, tt_mb, threads, time)?;
            let mut searcher: Searcher<G, LabEval> = Searcher::try_new(LabEval::HAND, tt_mb).map_err(refused)?;
            searcher.set_threads(threads);
            let r = searcher.search(s, limits);
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

/// Alpha-beta's search limits, its table's MiB and threads checked first:
/// the depth (default 4 without a time limit, else 64) and the time.
fn ab_limits(
    depth: Option<u32>,
    tt_mb: usize,
    threads: std::num::NonZeroUsize,
    time: Option<Duration>,
) -> Result<Limits, CatalogError> {
    crate::limits::megabytes("--tt-mb", tt_mb, 0).map_err(refused)?;
    crate::limits::threads("--threads", threads.get()).map_err(refused)?;
    let depth =
        crate::limits::depth("--depth", depth.unwrap_or(if time.is_some() { 64 } else { 4 }), 1).map_err(refused)?;
    Ok(Limits { depth, nodes: None, time })
}

/// Sénat's alpha-beta analysis: its hand evaluation, the game's repetition
/// history, its win chance through [`HAND_SCALE`].
fn senat_analyze(
    p: &Position,
    engine: &Engine,
    time: Option<Duration>,
    multipv: Option<usize>,
) -> Result<Analysis, CatalogError> {
    use crate::games::senat::{Senat, SenatEval, SenatState};
    use crate::winprob::HAND_SCALE;
    let game = p.senat_game().ok_or_else(|| refused("not a position of this game"))?;
    let Engine::AlphaBeta { depth, tt_mb, threads } = *engine else {
        return Err(refused(
            "Sénat's MCTS analysis is the senat command's own (`senat analyze --engine mcts`: its rollouts, priors \
             and networks); alpha-beta (\"ab\") is here",
        ));
    };
    if game.outcome().is_some() {
        return Ok(Analysis::Over(crate::play::senat::result_line(game)));
    }
    let limits = ab_limits(depth, tt_mb, threads, time)?;
    let mut searcher = Searcher::<Senat, SenatEval>::try_new(SenatEval::default(), tt_mb).map_err(refused)?;
    searcher.set_threads(threads);
    let root = SenatState::from_game(game);
    let r = searcher.search(&root, limits);
    let texts = |pv: &[senat_rules::Move]| pv.iter().map(|m| m.to_string()).collect::<Vec<String>>();
    let lines = match multipv {
        Some(k) => searcher
            .multipv(&root, &r, k)
            .iter()
            .map(|(m, score, pv)| (m.to_string(), *score, WinChance::from_score(*score, HAND_SCALE), texts(pv)))
            .collect(),
        None => Vec::new(),
    };
    let win = WinChance::from_score(r.score, HAND_SCALE);
    let seat = game.position().side_to_move().to_string();
    Ok(Analysis::AlphaBeta { report: r.map(|m| m.to_string()), seat, scale: HAND_SCALE, win, lines })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::testing::{connect4, position};
    use crate::games::GameKind;
    use std::num::NonZeroUsize;

    const ONE: NonZeroUsize = NonZeroUsize::MIN;

    #[test]
    fn alpha_beta_and_mcts_answer_in_move_texts() {
        let p = connect4("4453");
        let legal = p.legal_moves();
        let ab = Engine::AlphaBeta { depth: Some(3), tt_mb: 16, threads: ONE };
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
    fn senat_alpha_beta_is_the_searchers_own() {
        use crate::games::senat::{Senat, SenatEval, SenatState};
        let text = "13Tb,21Sb,12Sb,8Sr,3Sr,9Sr,17Cb,15Tb,1Tb,2Tb,19Tb/18Sb,23Sb,11Cb,10Sr,.,6Cr,14Tr/20Cb,22Sr,16Sb,4Cr,7Cr r I20 1-0-0 1";
        let p = position(GameKind::Senat, text);
        let ab = Engine::AlphaBeta { depth: Some(4), tt_mb: 16, threads: ONE };
        let Analysis::AlphaBeta { report, seat, scale, lines, .. } = analyze(&p, &ab, None, Some(2)).unwrap() else {
            panic!("an alpha-beta analysis");
        };
        let mut direct = Searcher::<Senat, SenatEval>::try_new(SenatEval::default(), 16).unwrap();
        let root = SenatState::from_game(p.senat_game().unwrap());
        let r = direct.search(&root, Limits { depth: 4, nodes: None, time: None });
        assert_eq!((report.best, report.score, report.nodes), (r.best.map(|m| m.to_string()), r.score, r.nodes));
        assert_eq!((seat.as_str(), scale, lines.len()), ("red", crate::winprob::HAND_SCALE, 2));
        assert!(p.legal_moves().contains(&lines[0].0), "{lines:?}");
        // Sénat's MCTS analysis is the command's own.
        let mcts = Engine::Mcts { playouts: Some(10), c: 1.0, memory_mb: 8, solve: false, seed: 1 };
        let e = analyze(&p, &mcts, None, None).unwrap_err().to_string();
        assert!(e.contains("senat analyze --engine mcts"), "{e}");
    }

    #[test]
    fn an_ended_game_and_a_hidden_one_are_not_searched() {
        let ab = |depth| Engine::AlphaBeta { depth, tt_mb: 16, threads: ONE };
        let over = analyze(&connect4("1122334"), &ab(None), None, None).unwrap();
        assert!(matches!(&over, Analysis::Over(r) if r.contains("wins")), "{over:?}");
        assert!(analyze(&position(GameKind::Dominoes, "start"), &ab(Some(1)), None, None).is_err());
        let e =
            analyze(&connect4("4453"), &Engine::AlphaBeta { depth: Some(1), tt_mb: 16, threads: ONE }, None, Some(0))
                .unwrap_err();
        assert!(e.to_string().contains("1 to 256"), "{e}");
    }
}
