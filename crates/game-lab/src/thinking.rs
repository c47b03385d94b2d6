//! One-line accounts of a search's last choice, for `senat bestmove`'s
//! stderr: [`mcts_line`] (value and visits of the best move, the principal
//! line) and [`alphabeta_line`] (score, depth, the principal line). The
//! agents' `explain` methods return them; nothing here searches.

use game_search::{WIN, WIN_BOUND, alphabeta, mcts};

/// `mcts: value 0.612 (mean result for the mover), visits 812 of 1000 playouts, pv a b c`.
pub fn mcts_line<M: Copy + PartialEq>(r: &mcts::Report<M>, text: impl Fn(M) -> String) -> String {
    let visits = r.best.and_then(|b| r.moves.iter().find(|m| m.0 == b)).map_or(0, |m| m.1);
    format!(
        "mcts: value {:.3} (mean result for the mover), visits {visits} of {} playouts, pv {}",
        r.value(),
        r.playouts,
        line(&r.pv, text)
    )
}

/// `ab: score 123, depth 3, nodes 4567, pv a b c` (`win in N` / `loss in N`
/// plies for a forced result within the horizon).
pub fn alphabeta_line<M: Copy>(r: &alphabeta::Report<M>, text: impl Fn(M) -> String) -> String {
    let score = if r.score.abs() > WIN_BOUND {
        format!("{} in {}", if r.score > 0 { "win" } else { "loss" }, WIN - r.score.abs())
    } else {
        r.score.to_string()
    };
    format!("ab: score {score}, depth {}, nodes {}, pv {}", r.depth, r.nodes, line(&r.pv, text))
}

fn line<M: Copy>(pv: &[M], text: impl Fn(M) -> String) -> String {
    if pv.is_empty() { "-".to_string() } else { pv.iter().map(|&m| text(m)).collect::<Vec<_>>().join(" ") }
}
