//! Game-tree search: a game trait the searches are generic over, a
//! fixed-depth alpha-beta with a transposition table, Monte Carlo tree
//! search (also over information sets), and two exact provers (alpha-beta
//! and df-pn).
//!
//! What lives here: [`Game`] (the interface a search needs: players and
//! their teams, side to move, moves, chance, copy-make, terminal results, a
//! hash), [`ImperfectInformation`] (determinization of hidden information),
//! [`Evaluator`], [`alphabeta`], [`mcts`], [`ismcts`], [`solver`] and
//! [`pns`].
//!
//! What this module must never do: know the rules itself (they come from
//! the game's implementation of [`Game`]), name a game, mutate a state in
//! place (states are copy-made), or mix heuristics into a proof ([`solver`]
//! verdicts rest on terminal results only).
//!
//! # Design: which games fit, and how
//!
//! Shaped after OpenSpiel's `State` (a current player that may be chance,
//! chance outcomes with probabilities, results per player, information
//! states per player) and the `Game`/`Evaluator` split of minimax-rs
//! (rules in one trait, a static score from the side to move in another),
//! kept to what the searches here use.
//!
//! - **Players and teams.** [`Game::players`] is 1 to [`MAX_PLAYERS`];
//!   results are a [`Scores`] vector, one entry per player.
//!   [`Game::team`] maps players onto teams (partners share a team, the
//!   default is one team per player), so a 4-player partnership game is a
//!   two-team game for every search.
//! - **Alpha-beta: the paranoid reduction.** With more than two teams,
//!   [`alphabeta`] searches for the team of the player to move at the root
//!   against the coalition of all the others (Sturtevant and Korf's
//!   paranoid algorithm): the root team maximizes, everyone else minimizes,
//!   so the search stays a two-sided negamax with one `i32` and keeps its
//!   pruning, table and iterative deepening. Max^n was left out: it prunes
//!   almost nothing (only shallow pruning, with bounded sums) and needs a
//!   vector per node in the table; paranoid play is the usual choice for
//!   fixed-depth search. With two teams the reduction is exact minimax. The
//!   negamax negates a child's value only when the side changes (a player
//!   may move twice in a row, as in Sénat's draft where the placer gives
//!   next, or pass to a partner).
//! - **Chance.** [`Game::is_chance`] marks a state where nature moves;
//!   [`Game::chance_outcomes`] lists its outcomes (as moves) with their
//!   probabilities. Alpha-beta computes expectimax there (the probability-
//!   weighted mean of the children, searched with a full window, rounded to
//!   an integer; no cutoff at chance nodes, no table entry for them), MCTS
//!   samples an outcome by its probability at each visit (chance nodes are
//!   tree nodes whose children are outcomes), the provers treat chance as an
//!   adversary that must be beaten whatever falls (a "forced" verdict holds
//!   for every outcome of positive probability), and the uniform rollout
//!   draws outcomes by their probabilities.
//! - **Hidden information.** [`ImperfectInformation::determinize`] draws a
//!   full state consistent with what one player knows;
//!   [`mcts::Mcts::search_determinized`] searches several such states
//!   (determinized MCTS, "perfect-information Monte Carlo") and sums their
//!   root statistics by move (PIMC); [`ismcts::Ismcts`] grows one tree
//!   over the observer's information sets instead (single-observer ISMCTS,
//!   Cowling, Powley and Whitehouse 2012): each playout draws a fresh
//!   determinization of the root, descends through nodes keyed by the moves
//!   as the observer sees them ([`ImperfectInformation::observed_move`]:
//!   another player's hidden draw is one key), chooses only among moves
//!   available in that determinization (UCB with availability counts) and
//!   backs up per-player rewards as MCTS does. Which to prefer: PIMC needs
//!   nothing from a game beyond the sampler and parallelizes like plain
//!   MCTS, but each of its worlds knows the hidden cards, so it values a
//!   line as if the observer could later play differently in each world
//!   (strategy fusion: a blind guess looks like a sure win) and never
//!   values finding things out. ISMCTS makes the observer's later choices
//!   one per information set, so guesses score what they are worth; it
//!   needs a sound `observed_move` and spends its playouts on one tree,
//!   one thread. Prefer ISMCTS when the observer's later moves depend on
//!   what they do not know yet (guessing, probing, holding back); PIMC
//!   remains a fair, cheap choice where the hidden part matters mainly
//!   through the opponents' replies.
//! - **MCTS with n players.** Each node holds the summed rewards of the
//!   player who made the move into it, read from the rollout's per-player
//!   [`Scores`]; selection at a node maximizes the mover's own mean, which
//!   is max^n-style and right for any number of players and for teams
//!   (partners get the same score).
//! - **Provers** ([`solver`], [`pns`]) need two teams (they answer "can
//!   this team force a win, a draw?"), see [`solver::check`]; the cheap
//!   filter [`solver::Solvable::may_reach`] is a question about results
//!   ("may the game be over after this move with this goal reached?"),
//!   nothing game-specific.
//!
//! Left out: simultaneous moves, max^n (in alpha-beta), a separate tree
//! per player in ISMCTS (multi-observer ISMCTS: opponents here choose in
//! the observer's tree, with statistics pooled over the worlds the
//! observer cannot tell apart, so their choices cannot follow their own
//! hidden cards), and any learning of evaluation functions.

pub mod alphabeta;
pub mod guard;
pub mod ismcts;
pub mod mcts;
pub mod pns;
pub mod rng;
pub mod shape;
pub mod solver;
mod tt;

pub use tt::TableError;

use std::cmp::Ordering;
use std::fmt::Debug;

/// The most players a [`Game`] may have.
pub const MAX_PLAYERS: usize = 4;

/// Per-player results of a finished game (larger is better for that
/// player; e.g. 1 for a win, 0 for a loss, 0.5 for a draw with two
/// players); players beyond [`Game::players`] are 0.
pub type Scores = [f64; MAX_PLAYERS];

/// A game the searches can play: every method is a pure function of the state.
pub trait Game {
    /// Everything the rules need to go on from here, history included
    /// (the value of a state must not depend on anything outside it).
    type State: Clone;
    /// A move, or an outcome of a chance node; small and `Copy`.
    type Move: Copy + Eq + Debug;

    /// Number of players, 1 to [`MAX_PLAYERS`].
    fn players(s: &Self::State) -> usize;
    /// The player to move, `0..players`; still one of them once the game is
    /// over (any: the searches read it there); meaningless at a chance node.
    fn to_move(s: &Self::State) -> usize;
    /// Clears `out` and fills it with the legal moves (empty if the game is
    /// over, and at a chance node: its outcomes come from
    /// [`Game::chance_outcomes`]).
    fn moves(s: &Self::State, out: &mut Vec<Self::Move>);
    /// The state after a legal move or a chance outcome (copy-make).
    fn apply(s: &Self::State, m: Self::Move) -> Self::State;
    /// Makes `out` (any state of the game) the state after a legal move or
    /// a chance outcome: exactly `*out = Self::apply(s, m)`, for searches
    /// that keep a state per ply (a game with a large state can copy less
    /// than all of it). The default is that assignment.
    #[inline]
    fn apply_into(s: &Self::State, m: Self::Move, out: &mut Self::State) {
        *out = Self::apply(s, m);
    }
    /// The results if the game is over here, else `None`.
    fn result(s: &Self::State) -> Option<Scores>;
    /// [`Game::result`], except that a game over for want of a legal move
    /// (a block) may answer `None`: for searches that generate the moves
    /// anyway, which ask [`Game::result`] only where the list is empty, so
    /// that the moves are not generated twice. `Some(r)` only where
    /// [`Game::result`] is `Some(r)`; `None` only where it is `None` or
    /// [`Game::moves`] is empty. The default is [`Game::result`].
    fn result_unless_blocked(s: &Self::State) -> Option<Scores> {
        Self::result(s)
    }
    /// A hash of everything that decides the game's value from here on
    /// (the key of transposition tables).
    fn hash(s: &Self::State) -> u64;
    /// A move-ordering hint for searches that have no evaluation (larger is
    /// tried first, e.g. moves that score); it never changes a result.
    fn priority(_s: &Self::State, _m: Self::Move) -> i32 {
        0
    }

    /// The team of `player`: partners share one, rivals never do. The
    /// default gives every player a team of their own (the team is the
    /// player's index). Teams are numbered below [`MAX_PLAYERS`].
    fn team(_s: &Self::State, player: usize) -> usize {
        player
    }

    /// Whether nature moves at `s` (a die is thrown, a tile is drawn). The
    /// default: never.
    fn is_chance(_s: &Self::State) -> bool {
        false
    }

    /// Clears `out` and, at a chance node, fills it with the outcomes and
    /// their probabilities (positive, summing to 1); outcomes are applied
    /// with [`Game::apply`]. The default leaves it empty.
    fn chance_outcomes(_s: &Self::State, out: &mut Vec<(Self::Move, f64)>) {
        out.clear();
    }

    /// The size of the move-index space of [`Game::move_index`]: every index
    /// is below it. 0 (the default): moves have no index.
    const MOVE_INDEX_SPACE: usize = 0;

    /// A small index of a move, below [`Game::MOVE_INDEX_SPACE`], for tables
    /// kept per move (the history heuristic of [`alphabeta`]); moves that
    /// look alike to a player should share it, and distinct moves may. Only
    /// ever a hint for move ordering: it never changes a result. The
    /// default, `None`, gives the game no such tables.
    fn move_index(_m: Self::Move) -> Option<usize> {
        None
    }
}

/// A game with hidden information: each player sees only part of a state
/// (the others' hands, a draw pile). Searches then work on determinizations:
/// full states drawn among those the player cannot tell apart.
pub trait ImperfectInformation: Game {
    /// A state that `observer` cannot tell from `s` (same history of what
    /// they saw, same own hidden part), drawn with `rng` with the
    /// probabilities the game's chance gives it (or uniformly); the hidden
    /// parts `observer` does not know are resampled, nothing else changes.
    fn determinize(s: &Self::State, observer: usize, rng: &mut rng::GameRng) -> Self::State;

    /// The key under which `observer` sees move (or chance outcome) `m`
    /// made at `s`: the representative of the moves of `s` that `observer`
    /// cannot tell apart once one of them is made. [`ismcts`] keys its tree
    /// by these, so that one node stands for one information set of
    /// `observer`. The default, `m` itself, says that every move and every
    /// chance outcome is seen by all: right when the hidden part is only
    /// dealt before the root (hands dealt face down); a game with hidden
    /// draws or face-down plays must override it, or the tree would split
    /// on what `observer` cannot see and their later choices would follow
    /// it (strategy fusion again).
    ///
    /// The contract:
    /// - **Classes.** Two moves of `s` share a key exactly when `observer`
    ///   cannot tell them apart: another player's hidden draw maps every
    ///   outcome to one "a tile was drawn" key; a public move, a move of
    ///   `observer` and an outcome `observer` sees (their own draw, a die)
    ///   map to themselves. Keys of different classes differ. A key need
    ///   not be a legal move (a game may reserve a value for "hidden draw"),
    ///   but the moves of `observer` must be their own keys, since a search
    ///   reports its root moves by key.
    /// - **Consistency.** The key depends only on what `observer` knows at
    ///   `s`: at every state `observer` cannot tell from `s` where `m` is
    ///   legal, `m` gets the same key (the same hidden draw is "a tile was
    ///   drawn" in every determinization).
    /// - **Completeness.** Everything `observer` learns reaches them
    ///   through keys: two histories from the same state with the same
    ///   sequence of keys leave `observer` unable to tell the results apart.
    ///   A game that reveals hidden information (a card turned face up)
    ///   does it with a move or chance outcome whose key carries it (a
    ///   chance node with one outcome will do).
    /// - **Public structure.** States `observer` cannot tell apart agree on
    ///   [`Game::is_chance`] and [`Game::to_move`].
    ///
    /// Only chance outcomes should share keys. If moves of a decision
    /// share one (another player's face-down discard), [`ismcts`] chooses
    /// among the keys and plays one of the key's moves uniformly at random
    /// (the "partially observable moves" reading of the mover's choice).
    fn observed_move(_s: &Self::State, m: Self::Move, _observer: usize) -> Self::Move {
        m
    }
}

/// The number of distinct teams among the players of `s`.
pub fn teams<G: Game>(s: &G::State) -> usize {
    let mut seen = [false; MAX_PLAYERS];
    for p in 0..G::players(s).min(MAX_PLAYERS) {
        seen[G::team(s, p).min(MAX_PLAYERS - 1)] = true;
    }
    seen.iter().filter(|&&t| t).count()
}

/// How the results `r` rank `player`'s team: the best score of the team
/// against the best score of everyone else (`Greater`: the team won,
/// `Equal`: a draw, `Less`: it lost).
pub fn standing<G: Game>(s: &G::State, r: &Scores, player: usize) -> Ordering {
    let team = G::team(s, player);
    let (mut mine, mut others) = (f64::MIN, f64::MIN);
    for (p, &v) in r.iter().enumerate().take(G::players(s).min(MAX_PLAYERS)) {
        if G::team(s, p) == team {
            mine = mine.max(v);
        } else {
            others = others.max(v);
        }
    }
    if mine > others {
        Ordering::Greater
    } else if mine < others {
        Ordering::Less
    } else {
        Ordering::Equal
    }
}

/// A static evaluation for fixed-depth searches, in centi-units; it is
/// never consulted by the solver.
pub trait Evaluator<G: Game> {
    /// The score of a non-terminal, non-chance state for the team of the
    /// player to move against all the others, well inside
    /// `±`[`WIN`]` / 2`.
    fn eval(&self, s: &G::State) -> i32;
    /// The score of a non-terminal state for `player`'s team against all
    /// the others (what the paranoid search of [`alphabeta`] asks with
    /// more than two teams). The default is [`Evaluator::eval`], negated
    /// when `player` is not a partner of the player to move: exact with two
    /// teams; games with more should give their own.
    fn eval_for(&self, s: &G::State, player: usize) -> i32 {
        let v = self.eval(s);
        if G::team(s, G::to_move(s)) == G::team(s, player) { v } else { -v }
    }
    /// A move-ordering hint: larger is tried first (e.g. moves that score).
    fn order(&self, _s: &G::State, _m: G::Move) -> i32 {
        0
    }
}

/// The score of a win at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 1_000_000;

/// Scores above this (in absolute value) are forced results.
pub const WIN_BOUND: i32 = WIN - 10_000;

/// The negamax score of a terminal state for the team of the player to
/// move, `ply` plies from the root: `WIN - ply` won, `-(WIN - ply)` lost,
/// 0 drawn (see [`standing`]).
pub fn terminal_score<G: Game>(s: &G::State, r: &Scores, ply: u32) -> i32 {
    score_for::<G>(s, r, G::to_move(s), ply)
}

/// The negamax score of a terminal state for `player`'s team, `ply` plies
/// from the root.
pub fn score_for<G: Game>(s: &G::State, r: &Scores, player: usize, ply: u32) -> i32 {
    let w = WIN - ply as i32;
    match standing::<G>(s, r, player) {
        Ordering::Greater => w,
        Ordering::Less => -w,
        Ordering::Equal => 0,
    }
}

/// A table-key salt for a team (0 for none): keys of searches made for
/// different teams must not meet.
pub(crate) fn mix_salt(team: usize) -> u64 {
    rng::mix64(0x6a09_e667_f3bc_c909 ^ (team as u64 + 1))
}
