//! Do the dominoes agents see hidden tiles? For each agent, in self-play,
//! how often its decision agrees with MCTS on the true state (a peek) and
//! with the same MCTS on a state drawn from the agent's own observation
//! (`senat_lab::games::dominoes::peek_check`). An agent that reads only its
//! observation agrees with both about as often; one that peeked would
//! agree with the true peek more often. Wilson 95% intervals.
//! Run: `cargo bench --bench dominoes_peek` (`-- --quick`: fewer matches).

use dominoes_rules::Variant;
use senat_lab::games::dominoes::{DominoSpec, peek_check};
use senat_lab::stats::wilson;

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let matches = if quick { 2 } else { 20 };
    let peek = 1000;
    println!("peek check: {matches} matches of 2 players per agent, peeking MCTS {peek} playouts, seed 2026");
    println!("{:<34} {:>9} {:>26} {:>26}", "agent", "choices", "agrees with true peek", "agrees with sampled peek");
    for spec in ["random", "greedy", "pimc:playouts=300,worlds=10", "ismcts:playouts=300"] {
        let a = DominoSpec::parse(spec).expect("agent spec");
        let c = peek_check(Variant::default(), a, matches, peek, 2026);
        let pct = |k: u64| {
            let (lo, hi) = wilson(k, c.decisions);
            format!("{:.1}% [{:.1}, {:.1}]", 100.0 * k as f64 / c.decisions.max(1) as f64, 100.0 * lo, 100.0 * hi)
        };
        println!("{spec:<34} {:>9} {:>26} {:>26}", c.decisions, pct(c.agree_true), pct(c.agree_sampled));
    }
}
