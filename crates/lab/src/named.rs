//! Named agents: `top`, `strong` and `fast` (and Sénat's `sharp`), one table per game family
//! ([`SENAT`] for Sénat's policies, [`GAMES`] for Focus, 4-player Focus and
//! Débâcle, [`DOMINOES`] for block dominoes). Each spec parser looks a name
//! up here first and then reads its expansion as if it had been written;
//! the name recorded in output files is the expansion, so that a file says
//! what played even after an expansion changes.
//!
//! Each expansion is one constant below: change it there, and the tables,
//! the parsers, every `--help` and the tests follow. docs/agents.md
//! says why each was chosen.

pub use game_lab::named::{Named, help, lookup, names};

/// Sénat's `top`: MCTS on the learned evaluation with the shipped value
/// network at the leaves (`net=on`, docs/results/net.md), proofs in the
/// tree, the root guard (forced wins within 7 plies played, proved losses
/// refused; no quick look before the search, `guard_before=0`) and a move
/// temperature of 0.5 over the first 16 plies (varied drafts). At equal
/// think time it beat the top MCTS without them (docs/results/tactics.md).
pub const SENAT_TOP: &str = "mcts:playouts=10000,rollout=eval,prior=1000,net=on,guard=7,guard_before=0,temp=0.5";
/// Sénat's `sharp`: `top` with proofs of up to 500,000 nodes and the
/// guard's quick look before every search, for analysing positions: a few
/// more short wins found, more time per move.
pub const SENAT_SHARP: &str = "mcts:playouts=10000,rollout=eval,prior=1000,net=on,guard=7,guard_nodes=500000,temp=0.5";
/// Sénat's `strong`: MCTS with the value network and a tenth of `top`'s
/// playouts, no guard.
pub const SENAT_STRONG: &str = "mcts:playouts=1000,rollout=eval,prior=1000,net=on,temp=0.5";
/// Sénat's `fast`: one ply on the learned evaluation with the shipped value
/// network and draft network (`net=draft`, docs/results/net.md), and a move
/// temperature of 0.05 over the first 16 plies: without it, two `fast`
/// agents repeat a handful of games.
pub const SENAT_FAST: &str = "learned:net=draft,temp=0.05";

/// Focus and Débâcle's `top`: alpha-beta at depth 3 (first in all three
/// ladders of docs/results/other-games.md) with the root guard and a move
/// temperature of 50 centi-units over the first 16 plies.
pub const GAMES_TOP: &str = "ab:depth=3,guard=7,temp=50";
/// Focus and Débâcle's `strong`: MCTS (second in the 4-player Focus and
/// Débâcle ladders, third in Focus) with the root guard and temperature 1.
pub const GAMES_STRONG: &str = "mcts:playouts=1000,guard=7,temp=1";
/// Focus and Débâcle's `fast`: one ply on the evaluation.
pub const GAMES_FAST: &str = "greedy";

/// Dominoes' `top`: ISMCTS with its default playouts and the root guard
/// (sure wins of the round played, proved losses refused; 2,000 nodes per
/// proof): all 78 positions of the tactical suite against 72 unguarded, in
/// about the same think time per game (docs/results/tactics.md). The
/// network leaf did not separate from the random rollout here (+11.8 ±
/// 13.3 Elo, results/dominoes/net/named.txt), so `top` keeps the rollout.
pub const DOMINOES_TOP: &str = "ismcts:playouts=1000,guard=on,guard_nodes=2000";
/// Dominoes' `strong`: ISMCTS at 300 playouts with the network leaf
/// (`leaf=net`, where it applies: 2 players) and the root guard as
/// [`DOMINOES_TOP`]: +28.9 ± 14.4 Elo over the same agent on random
/// rollouts (results/dominoes/net/named.txt). It keeps the rollouts'
/// constant (c = 0.7), at which 3 and 4 players play as before.
pub const DOMINOES_STRONG: &str = "ismcts:playouts=300,leaf=net,guard=on,guard_nodes=2000";
/// Dominoes' `fast`: the heaviest playable tile.
pub const DOMINOES_FAST: &str = "greedy";

/// Sénat's named policies.
pub const SENAT: &[Named] = &[
    Named {
        name: "top",
        spec: SENAT_TOP,
        about: "the strongest: MCTS on the learned evaluation and value network, proofs in the tree, the root guard, varied drafts",
    },
    Named {
        name: "sharp",
        spec: SENAT_SHARP,
        about: "top with deeper proofs, for analysis: a few more short wins found, more time per move (docs/results/tactics.md)",
    },
    Named {
        name: "strong",
        spec: SENAT_STRONG,
        about: "MCTS with the value network and a tenth of top's playouts, no guard",
    },
    Named {
        name: "fast",
        spec: SENAT_FAST,
        about: "one ply on the learned evaluation with the value and draft networks, varied drafts, for big batches",
    },
];

/// The named agents of Focus, 4-player Focus and Débâcle.
pub const GAMES: &[Named] = &[
    Named {
        name: "top",
        spec: GAMES_TOP,
        about: "the strongest: alpha-beta (first in every ladder) with the root guard",
    },
    Named { name: "strong", spec: GAMES_STRONG, about: "MCTS with the root guard, below ab:depth=3 in every ladder" },
    Named { name: "fast", spec: GAMES_FAST, about: "one ply on the evaluation" },
];

/// The named agents of block dominoes.
pub const DOMINOES: &[Named] = &[
    Named { name: "top", spec: DOMINOES_TOP, about: "ISMCTS with the default playouts and the root guard" },
    Named {
        name: "strong",
        spec: DOMINOES_STRONG,
        about: "ISMCTS at 300 playouts (not below PIMC) with the network leaf (2 players) and the root guard",
    },
    Named { name: "fast", spec: DOMINOES_FAST, about: "the heaviest playable tile" },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_the_three_names_once() {
        for (table, names_of) in [
            (SENAT, &["top", "sharp", "strong", "fast"][..]),
            (GAMES, &["top", "strong", "fast"][..]),
            (DOMINOES, &["top", "strong", "fast"][..]),
        ] {
            assert_eq!(names(table), names_of);
            assert_eq!(lookup(table, "top").map(|n| n.spec), Some(table[0].spec));
            assert_eq!(lookup(table, "best"), None);
            let h = help(table);
            assert_eq!(h.lines().count(), names_of.len(), "{h}");
            assert!(h.contains(&format!("top    = {}", table[0].spec)), "{h}");
        }
        // `sharp` is `top` with deeper proofs and the quick look, nothing else.
        assert_eq!(SENAT_SHARP.replace(",guard_nodes=500000", ",guard_before=0"), SENAT_TOP);
    }
}
