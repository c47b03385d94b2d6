//! Proofs in block dominoes from one player's observation: whether a
//! player can force the win of the current round whatever is hidden.
//!
//! # What is proved
//!
//! Player `p` has a **sure win** of the round from his observation when
//! there is a strategy that chooses his moves from what he observes only
//! and makes him the round's winner (GAMES.md §2.5: he goes out, or wins
//! the block) against **every** state consistent with the observation
//! (the exact enumeration of `Sampler::consistent_states`), **every**
//! order of the remaining draws and **every** play of the other players
//! (who may as well see everything). It is an AND-OR search over his
//! information sets: at his decisions one move must work for the whole
//! set of states he cannot tell apart; at everybody else's decisions and
//! at chance, every successor of every state must, the successors grouped
//! by what he observes after them. A state's value to `p` ends with the
//! round (the match is not searched).
//!
//! A move of `p` is **proved lost** when, in every state consistent with
//! the observation after it, some other player has a sure win of the
//! round from his own observation of that state (so no play of `p`, seeing
//! or not, avoids the loss against that player's strategy).
//!
//! Strategy fusion (a determinized search's error of choosing per world)
//! cannot make a proof unsound here: the strategy found is one per
//! information set. The cost is that some forced wins are not found
//! within the limits ([`ProofLimits`]), and a move that is not proved lost
//! may still be lost.
//!
//! What this module must never do: read a hidden tile other than through
//! the states of the enumeration (every proof ranges over all of them).

use ahash::AHashMap;
use dominoes_rules::{Move, Observation, Sampler, State};
use std::fmt;

/// The bounds of one proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofLimits {
    /// The most plies (decisions and chance moves) searched ahead.
    pub depth: u32,
    /// The most placements an observation may have before the enumeration
    /// is refused (`Sampler::placements`, before the full check).
    pub max_states: u128,
    /// The most search nodes (states visited) per verdict.
    pub max_nodes: u64,
}

impl Default for ProofLimits {
    /// 40 plies (more than any round's rest), 2,000 placements, 2 million nodes.
    fn default() -> ProofLimits {
        ProofLimits { depth: 40, max_states: 2_000, max_nodes: 2_000_000 }
    }
}

/// The verdict on a position or a move, for the player deciding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A sure win of the round within `plies` plies (the fewest such).
    Win {
        /// The horizon of the shortest proof.
        plies: u32,
    },
    /// Proved lost: some other player has a sure win within `plies` plies
    /// (the most over the consistent states; the first ply is the move's).
    Loss {
        /// The horizon of the longest of the proofs.
        plies: u32,
    },
    /// Neither proved.
    Unknown(Unproved),
}

/// Why a verdict is [`Verdict::Unknown`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unproved {
    /// No sure win and no proved loss within the limits.
    Horizon,
    /// An observation has more placements than [`ProofLimits::max_states`].
    TooManyStates(u128),
    /// The node budget ran out.
    Nodes,
}

impl fmt::Display for Verdict {
    /// The wording of the other games' solver: `win for the side to move
    /// within N plies`, `loss for the side to move within N plies`, or
    /// `unknown: why`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Win { plies } => write!(f, "win for the side to move within {plies} plies (the round)"),
            Verdict::Loss { plies } => write!(f, "loss for the side to move within {plies} plies (the round)"),
            Verdict::Unknown(Unproved::Horizon) => f.write_str("unknown: no sure win and no proved loss"),
            Verdict::Unknown(Unproved::TooManyStates(n)) => {
                write!(f, "unknown: {n} placements of the hidden tiles, over the limit")
            }
            Verdict::Unknown(Unproved::Nodes) => f.write_str("unknown: node budget spent"),
        }
    }
}

/// Why an observation cannot be searched at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofError {
    /// The observer has no decision (another player, a deal or a draw is to move, or the round is over).
    NoDecision,
    /// No state is consistent with the observation (it cannot come from a game).
    Inconsistent,
}

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofError::NoDecision => f.write_str("the observer has no decision here"),
            ProofError::Inconsistent => f.write_str("no state is consistent with this observation"),
        }
    }
}

impl std::error::Error for ProofError {}

/// The states consistent with `obs`, or why not enumerated.
fn states_of(obs: &Observation, limits: &ProofLimits) -> Result<Vec<State>, Unproved> {
    let sampler = std::panic::catch_unwind(|| Sampler::new(obs)).map_err(|_| Unproved::TooManyStates(0))?;
    sampler.consistent_states(limits.max_states).map_err(Unproved::TooManyStates)
}

/// The number of states consistent with `obs` when at most
/// `max_placements` placements pass the per-tile tests; `None` otherwise.
pub fn consistent_count(obs: &Observation, max_placements: u128) -> Option<usize> {
    let limits = ProofLimits { max_states: max_placements, ..ProofLimits::default() };
    states_of(obs, &limits).ok().map(|v| v.len())
}

struct Search {
    player: usize,
    rounds: u32,
    /// Whether the fewest plies are wanted (every move of the player
    /// searched) or any sure win will do (the first found ends the look:
    /// its plies are then an upper bound of the fewest).
    shortest: bool,
    nodes: u64,
    max_nodes: u64,
    /// Results by the sorted Zobrist hashes of a set folded into 128 bits
    /// ([`set_key`]; a transposition table: a collision of 64-bit state
    /// keys or of 128-bit set keys is the one way it can err).
    memo: AHashMap<u128, Option<u32>>,
    buf: Vec<Move>,
    keys: Vec<u64>,
}

struct OutOfNodes;

/// The key of a set of states: their Zobrist hashes, sorted, folded into
/// two 64-bit sums of different mixes.
fn set_key(set: &[State], keys: &mut Vec<u64>) -> u128 {
    keys.clear();
    keys.extend(set.iter().map(State::hash));
    keys.sort_unstable();
    let (mut a, mut b) = (0x9e37_79b9_7f4a_7c15u64, keys.len() as u64);
    for &k in keys.iter() {
        a = (a ^ k).wrapping_mul(0xbf58_476d_1ce4_e5b9).rotate_left(29);
        b = (b.rotate_left(17) ^ k).wrapping_mul(0x94d0_49bb_1331_11eb);
    }
    (u128::from(a) << 64) | u128::from(b ^ (b >> 31))
}

impl Search {
    fn new(player: usize, rounds: u32, shortest: bool) -> Search {
        Search {
            player,
            rounds,
            shortest,
            nodes: 0,
            max_nodes: 0,
            memo: AHashMap::new(),
            buf: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// The fewest plies within which `self.player` forces the round's win
    /// from the set `set` (states he cannot tell apart), `None` when he
    /// cannot force it at all. The rest of a round is finite (every ply
    /// plays a tile, draws one, or passes, and passes end it when they
    /// block), so this is exact: the minimum over his moves, the maximum
    /// over every other ply's successors, grouped by what he observes.
    /// (Without [`Search::shortest`], the first of his moves that wins
    /// gives the value: a sure win all the same, within those plies.)
    fn value(&mut self, set: &[State]) -> Result<Option<u32>, OutOfNodes> {
        self.nodes += set.len() as u64;
        if self.nodes > self.max_nodes {
            return Err(OutOfNodes);
        }
        let s0 = &set[0];
        if s0.rounds_played() > self.rounds || s0.outcome().is_some() {
            let all = set.iter().all(|s| {
                s.rounds_played() > self.rounds
                    && s.last_round().and_then(|r| r.winner).map(usize::from) == Some(self.player)
            });
            return Ok(all.then_some(0));
        }
        let key = set_key(set, &mut self.keys);
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        let v = if !s0.is_chance() && s0.to_move() == self.player {
            s0.legal_moves(&mut self.buf);
            let moves = self.buf.clone();
            let mut best: Option<u32> = None;
            for m in moves {
                let next: Vec<State> = set.iter().map(|s| after(s, m)).collect();
                if let Some(d) = self.value(&next)? {
                    best = Some(best.map_or(d + 1, |b| b.min(d + 1)));
                    if !self.shortest {
                        break;
                    }
                }
            }
            best
        } else {
            let mut worst = Some(0);
            for g in self.successors(set) {
                match self.value(&g)? {
                    Some(d) => worst = worst.map(|w: u32| w.max(d + 1)),
                    None => {
                        worst = None;
                        break;
                    }
                }
            }
            worst
        };
        self.memo.insert(key, v);
        Ok(v)
    }

    /// Every successor of every state of `set` (chance outcomes or the
    /// mover's decisions), grouped by `self.player`'s observation.
    fn successors(&mut self, set: &[State]) -> Vec<Vec<State>> {
        let mut groups: Vec<(Observation, Vec<State>)> = Vec::new();
        let (mut outcomes, mut moves) = (Vec::new(), Vec::new());
        for s in set {
            if s.is_chance() {
                s.chance_outcomes(&mut outcomes);
                moves.clear();
                moves.extend(outcomes.iter().map(|&(m, _)| m));
            } else {
                s.legal_moves(&mut moves);
            }
            for &m in &moves {
                let t = after(s, m);
                let o = t.observation(self.player);
                match groups.iter_mut().find(|(g, _)| *g == o) {
                    Some((_, v)) => v.push(t),
                    None => groups.push((o, vec![t])),
                }
            }
        }
        // Two states reach one successor when they differ only in which of
        // two tiles is still in the boneyard: kept once.
        groups
            .into_iter()
            .map(|(_, mut v)| {
                if v.len() > 1 {
                    v.sort_unstable_by_key(hidden_key);
                    v.dedup_by_key(|t| hidden_key(t));
                }
                v
            })
            .collect()
    }
}

/// The hands and the boneyard: what tells apart two states with one public part.
fn hidden_key(s: &State) -> [u32; 5] {
    [s.hand(0).0, s.hand(1).0, s.hand(2).0, s.hand(3).0, s.boneyard().0]
}

fn after(s: &State, m: Move) -> State {
    let mut t = *s;
    t.play_unchecked(m);
    t
}

/// The searches of one proof: one per player whose sure wins are asked,
/// each keeping its table between the questions (the information sets of
/// one player recur from one question to the next), all under one node
/// budget ([`ProofLimits::max_nodes`]).
struct Searches {
    searches: Vec<Search>,
    rounds: u32,
    /// [`Search::shortest`] of every search.
    shortest: bool,
    /// Nodes spent by this proof: searched states and enumerated ones.
    nodes: u64,
    max_nodes: u64,
}

impl Searches {
    fn new(rounds: u32, limits: &ProofLimits, shortest: bool) -> Searches {
        Searches { searches: Vec::new(), rounds, shortest, nodes: 0, max_nodes: limits.max_nodes }
    }

    /// Counts `n` nodes of work done outside a search (an enumeration).
    fn spend(&mut self, n: usize) -> Result<(), Unproved> {
        self.nodes = self.nodes.saturating_add(n as u64);
        if self.nodes > self.max_nodes { Err(Unproved::Nodes) } else { Ok(()) }
    }

    /// The fewest plies within which `player`, who cannot tell apart the
    /// states of `set` (one of his information sets), forces the win of
    /// the round that follows `self.rounds` finished rounds; `None` beyond
    /// `depth`.
    fn sure_win(&mut self, set: &[State], player: usize, depth: u32) -> Result<Option<u32>, Unproved> {
        let i = match self.searches.iter().position(|s| s.player == player) {
            Some(i) => i,
            None => {
                self.searches.push(Search::new(player, self.rounds, self.shortest));
                self.searches.len() - 1
            }
        };
        let search = &mut self.searches[i];
        let before = search.nodes;
        search.max_nodes = before.saturating_add(self.max_nodes.saturating_sub(self.nodes));
        let r = search.value(set);
        self.nodes = self.nodes.saturating_add(search.nodes - before);
        match r {
            Err(OutOfNodes) => Err(Unproved::Nodes),
            Ok(d) => Ok(d.filter(|&d| d <= depth)),
        }
    }

    /// The most plies within which, in every state of `next` (the states
    /// after the observer `p`'s move), some other player forces his win of
    /// the round from his own observation; `Ok(None)` when some state has
    /// no such player (proved or not: the move is not proved lost).
    fn loss(&mut self, next: &[State], p: usize, limits: &ProofLimits) -> Result<Option<u32>, Unproved> {
        let inner = limits.depth.saturating_sub(1);
        let mut longest = 0;
        for t in next {
            if t.rounds_played() > self.rounds {
                // The move ended the round without the observer winning it.
                if t.last_round().and_then(|r| r.winner).map(usize::from).is_some_and(|w| w != p) {
                    longest = longest.max(1);
                    continue;
                }
                return Ok(None);
            }
            let mut best: Option<u32> = None;
            for q in (0..t.players()).filter(|&q| q != p) {
                let theirs = states_of(&t.observation(q), limits)?;
                self.spend(theirs.len())?;
                if let Some(d) = self.sure_win(&theirs, q, inner)? {
                    best = Some(best.map_or(d, |b: u32| b.min(d)));
                }
            }
            match best {
                Some(d) => longest = longest.max(d + 1),
                None => return Ok(None),
            }
        }
        Ok(Some(longest))
    }
}

/// The verdict on `m` for the observer of `obs` (who must be deciding):
/// a sure win with `m` first, else a proved loss, else unknown.
pub fn move_verdict(obs: &Observation, m: Move, limits: &ProofLimits) -> Result<Verdict, ProofError> {
    let set = match decision_states(obs, limits)? {
        Ok(v) => v,
        Err(why) => return Ok(Verdict::Unknown(why)),
    };
    let p = obs.observer();
    let next: Vec<State> = set.iter().map(|s| after(s, m)).collect();
    let mut searches = Searches::new(set[0].rounds_played(), limits, true);
    match searches.sure_win(&next, p, limits.depth.saturating_sub(1)) {
        Err(why) => return Ok(Verdict::Unknown(why)),
        Ok(Some(d)) => return Ok(Verdict::Win { plies: d + 1 }),
        Ok(None) => {}
    }
    // A proved loss: in every state after m, another player forces his win
    // from his own observation.
    Ok(match searches.loss(&next, p, limits) {
        Ok(Some(plies)) => Verdict::Loss { plies },
        Ok(None) => Verdict::Unknown(Unproved::Horizon),
        Err(why) => Verdict::Unknown(why),
    })
}

/// A proof attempt of the root guard ([`crate::games::dominoes_guard`]):
/// what it proved and the nodes it spent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt<T> {
    /// What was proved (empty or `None`: nothing, whatever the reason).
    pub proved: T,
    /// Nodes spent: states searched and enumerated.
    pub nodes: u64,
}

/// The sure wins of the round for the deciding observer of `obs`: every
/// move proved to win within `limits.max_nodes`, with the plies of its
/// proof, in the generator's order (one table for all; the moves after
/// the budget ran out are not proved, the wins proved before stand). Each
/// proof stops at the first winning strategy it finds, so its plies are
/// those of a sure win, not always the fewest. Nothing when the observer
/// has no decision or the observation more placements than
/// `limits.max_states`.
pub fn winning_moves(obs: &Observation, limits: &ProofLimits) -> Attempt<Vec<(Move, u32)>> {
    let Ok(Ok(set)) = decision_states(obs, limits) else { return Attempt { proved: Vec::new(), nodes: 0 } };
    let mut moves = Vec::new();
    obs.legal_moves(&mut moves);
    let mut searches = Searches::new(set[0].rounds_played(), limits, false);
    let mut wins = Vec::new();
    for m in moves {
        let next: Vec<State> = set.iter().map(|s| after(s, m)).collect();
        match searches.sure_win(&next, obs.observer(), limits.depth.saturating_sub(1)) {
            Ok(Some(d)) => wins.push((m, d + 1)),
            Ok(None) => {}
            Err(_) => break,
        }
    }
    Attempt { proved: wins, nodes: searches.nodes }
}

/// Whether `m` is proved lost for the deciding observer of `obs` (as in
/// [`move_verdict`], without first asking whether it wins): the plies of
/// the longest of the other players' proofs (each the first sure win its
/// search finds), if `limits.max_nodes` suffice.
pub fn proved_loss(obs: &Observation, m: Move, limits: &ProofLimits) -> Attempt<Option<u32>> {
    let Ok(Ok(set)) = decision_states(obs, limits) else { return Attempt { proved: None, nodes: 0 } };
    let next: Vec<State> = set.iter().map(|s| after(s, m)).collect();
    let mut searches = Searches::new(set[0].rounds_played(), limits, false);
    let proved = searches.loss(&next, obs.observer(), limits).ok().flatten();
    Attempt { proved, nodes: searches.nodes }
}

/// The verdict on the position for the observer of `obs`: a sure win if
/// some move is one (the fewest plies), a proved loss if every move is
/// (the most plies), else unknown; and each legal move's verdict.
pub fn verdicts(obs: &Observation, limits: &ProofLimits) -> Result<(Verdict, Vec<(Move, Verdict)>), ProofError> {
    let mut moves = Vec::new();
    obs.legal_moves(&mut moves);
    if let Err(why) = decision_states(obs, limits)? {
        return Ok((Verdict::Unknown(why), moves.iter().map(|&m| (m, Verdict::Unknown(why))).collect()));
    }
    let each = moves.iter().map(|&m| move_verdict(obs, m, limits).map(|v| (m, v))).collect::<Result<Vec<_>, _>>()?;
    let win = each.iter().filter_map(|(_, v)| if let Verdict::Win { plies } = v { Some(*plies) } else { None }).min();
    let root = match win {
        Some(plies) => Verdict::Win { plies },
        None => {
            let losses: Vec<u32> = each
                .iter()
                .filter_map(|(_, v)| if let Verdict::Loss { plies } = v { Some(*plies) } else { None })
                .collect();
            if losses.len() == each.len() {
                Verdict::Loss { plies: losses.into_iter().max().unwrap_or(0) }
            } else {
                each.iter()
                    .find_map(|(_, v)| matches!(v, Verdict::Unknown(_)).then_some(*v))
                    .unwrap_or(Verdict::Unknown(Unproved::Horizon))
            }
        }
    };
    Ok((root, each))
}

/// The consistent states of a deciding observer's observation (the inner
/// `Err`: too many to enumerate).
fn decision_states(obs: &Observation, limits: &ProofLimits) -> Result<Result<Vec<State>, Unproved>, ProofError> {
    if !obs.is_my_decision() || obs.round_over() {
        return Err(ProofError::NoDecision);
    }
    match states_of(obs, limits) {
        Ok(v) if v.is_empty() => Err(ProofError::Inconsistent),
        Err(Unproved::TooManyStates(0)) => Err(ProofError::Inconsistent),
        r => Ok(r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dominoes_rules::Variant;
    use game_search::rng::{below, rng_from_seed};

    /// A random 2-player position late in a round (boneyard nearly empty).
    fn late(seed: u64) -> Option<State> {
        let mut rng = rng_from_seed(seed);
        let mut s = State::start(Variant::parse("").unwrap());
        let (mut buf, mut out) = (Vec::new(), Vec::new());
        loop {
            if s.round_over() {
                return None;
            }
            if s.is_chance() {
                s.chance_outcomes(&mut out);
                let m = out[below(&mut rng, out.len())].0;
                s.play_unchecked(m);
                continue;
            }
            if s.boneyard().len() <= 1 && s.hand(0).len() + s.hand(1).len() <= 7 && below(&mut rng, 2) == 0 {
                return Some(s);
            }
            s.legal_moves(&mut buf);
            let m = buf[below(&mut rng, buf.len())];
            s.play_unchecked(m);
        }
    }

    /// With 2 players and an empty boneyard the observation is the state
    /// (one consistent state): a sure win is a plain minimax win, checked
    /// against an independent minimax on the true state.
    #[test]
    fn sure_wins_agree_with_minimax_when_nothing_is_hidden() {
        fn minimax(s: &State, p: usize, rounds: u32) -> bool {
            if s.rounds_played() > rounds {
                return s.last_round().and_then(|r| r.winner).map(usize::from) == Some(p);
            }
            assert!(!s.is_chance() || s.boneyard().is_empty(), "no chance without a boneyard");
            let mut buf = Vec::new();
            s.legal_moves(&mut buf);
            let mut vals = buf.iter().map(|&m| minimax(&after(s, m), p, rounds));
            if s.to_move() == p { vals.any(|v| v) } else { vals.all(|v| v) }
        }
        let mut checked = 0;
        for seed in 0..400 {
            let Some(s) = late(seed) else { continue };
            if !s.boneyard().is_empty() {
                continue;
            }
            let obs = s.observation(s.to_move());
            let (root, each) = verdicts(&obs, &ProofLimits::default()).unwrap();
            let truth = minimax(&s, s.to_move(), s.rounds_played());
            assert_eq!(matches!(root, Verdict::Win { .. }), truth, "{s}");
            for (m, v) in each {
                let t = after(&s, m);
                let win = minimax(&t, s.to_move(), s.rounds_played());
                assert_eq!(matches!(v, Verdict::Win { .. }), win, "{m} in {s}");
            }
            checked += 1;
        }
        assert!(checked >= 20, "{checked} positions");
    }

    /// A sure win from an observation is a win in every consistent state
    /// (each searched with everything face up, the observer choosing per
    /// state: a weaker demand), and a proved loss is a loss in each.
    #[test]
    fn proofs_hold_in_every_consistent_state() {
        /// Whether p forces the round's win with every hand face up (he may choose per state).
        fn minimax(s: &State, p: usize, rounds: u32, buf: &mut Vec<(Move, f64)>) -> bool {
            if s.rounds_played() > rounds {
                return s.last_round().and_then(|r| r.winner).map(usize::from) == Some(p);
            }
            let moves: Vec<Move> = if s.is_chance() {
                s.chance_outcomes(buf);
                buf.iter().map(|&(m, _)| m).collect()
            } else {
                let mut v = Vec::new();
                s.legal_moves(&mut v);
                v
            };
            let mut vals = moves.iter().map(|&m| minimax(&after(s, m), p, rounds, buf));
            if !s.is_chance() && s.to_move() == p { vals.any(|v| v) } else { vals.all(|v| v) }
        }
        let (mut wins, mut losses) = (0, 0);
        for seed in 0..300 {
            let Some(s) = late(seed) else { continue };
            let obs = s.observation(s.to_move());
            let Ok((_, each)) = verdicts(&obs, &ProofLimits::default()) else { continue };
            let states = states_of(&obs, &ProofLimits::default()).unwrap();
            for (m, v) in each {
                for x in &states {
                    let val = minimax(&after(x, m), s.to_move(), s.rounds_played(), &mut Vec::new());
                    match v {
                        Verdict::Win { .. } => {
                            assert!(val, "{m} in {x}");
                            wins += 1;
                        }
                        Verdict::Loss { .. } => {
                            assert!(!val, "{m} in {x}");
                            losses += 1;
                        }
                        Verdict::Unknown(_) => {}
                    }
                }
            }
        }
        assert!(wins > 20 && losses > 20, "{wins} wins, {losses} losses checked");
    }
}
