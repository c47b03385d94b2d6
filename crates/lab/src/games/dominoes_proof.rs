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

use dominoes_rules::{Move, Observation, Sampler, State};
use std::collections::{HashMap, HashSet};
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
    nodes: u64,
    max_nodes: u64,
    /// Results by the sorted Zobrist hashes of a set (a
    /// transposition table: a collision of 64-bit keys is the one way it
    /// can err).
    memo: HashMap<Vec<u64>, Option<u32>>,
    buf: Vec<Move>,
}

struct OutOfNodes;

impl Search {
    fn new(player: usize, rounds: u32, max_nodes: u64) -> Search {
        Search { player, rounds, nodes: 0, max_nodes, memo: HashMap::new(), buf: Vec::new() }
    }

    /// The fewest plies within which `self.player` forces the round's win
    /// from the set `set` (states he cannot tell apart), `None` when he
    /// cannot force it at all. The rest of a round is finite (every ply
    /// plays a tile, draws one, or passes, and passes end it when they
    /// block), so this is exact: the minimum over his moves, the maximum
    /// over every other ply's successors, grouped by what he observes.
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
        let mut key: Vec<u64> = set.iter().map(State::hash).collect();
        key.sort_unstable();
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
        let mut groups: Vec<(Observation, Vec<State>, HashSet<[u32; 5]>)> = Vec::new();
        let mut outcomes = Vec::new();
        for s in set {
            let moves: Vec<Move> = if s.is_chance() {
                s.chance_outcomes(&mut outcomes);
                outcomes.iter().map(|&(m, _)| m).collect()
            } else {
                s.legal_moves(&mut self.buf);
                self.buf.clone()
            };
            for m in moves {
                let t = after(s, m);
                let o = t.observation(self.player);
                // Two states reach one successor when they differ only in
                // which of two tiles is still in the boneyard: kept once.
                match groups.iter_mut().find(|(g, _, _)| *g == o) {
                    Some((_, v, seen)) => {
                        if seen.insert(hidden_key(&t)) {
                            v.push(t)
                        }
                    }
                    None => groups.push((o, vec![t], HashSet::from([hidden_key(&t)]))),
                }
            }
        }
        groups.into_iter().map(|(_, v, _)| v).collect()
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

/// The fewest plies within which `player`, who cannot tell apart the states
/// of `set` (one of his information sets), forces the win of the round
/// that follows `rounds` finished rounds; `None` beyond `limits.depth`.
fn sure_win(
    set: &[State],
    player: usize,
    rounds: u32,
    limits: &ProofLimits,
    nodes: &mut u64,
) -> Result<Option<u32>, Unproved> {
    let mut search = Search::new(player, rounds, limits.max_nodes.saturating_sub(*nodes));
    let r = search.value(set);
    *nodes += search.nodes;
    match r {
        Err(OutOfNodes) => Err(Unproved::Nodes),
        Ok(d) => Ok(d.filter(|&d| d <= limits.depth)),
    }
}

/// The verdict on `m` for the observer of `obs` (who must be deciding):
/// a sure win with `m` first, else a proved loss, else unknown.
pub fn move_verdict(obs: &Observation, m: Move, limits: &ProofLimits) -> Result<Verdict, ProofError> {
    let set = decision_states(obs, limits)?;
    let set = match set {
        Ok(v) => v,
        Err(why) => return Ok(Verdict::Unknown(why)),
    };
    let mut nodes = 0u64;
    let p = obs.observer();
    let next: Vec<State> = set.iter().map(|s| after(s, m)).collect();
    let inner = ProofLimits { depth: limits.depth.saturating_sub(1), ..*limits };
    let rounds = set[0].rounds_played();
    match sure_win(&next, p, rounds, &inner, &mut nodes) {
        Err(why) => return Ok(Verdict::Unknown(why)),
        Ok(Some(d)) => return Ok(Verdict::Win { plies: d + 1 }),
        Ok(None) => {}
    }
    // A proved loss: in every state after m, another player forces his win
    // from his own observation.
    let mut longest = 0;
    for t in &next {
        if t.rounds_played() > rounds {
            // m ended the round without the observer winning it.
            if t.last_round().and_then(|r| r.winner).map(usize::from).is_some_and(|w| w != p) {
                longest = longest.max(1);
                continue;
            }
            return Ok(Verdict::Unknown(Unproved::Horizon));
        }
        let mut best: Option<u32> = None;
        for q in (0..t.players()).filter(|&q| q != p) {
            let theirs = match states_of(&t.observation(q), limits) {
                Ok(v) => v,
                Err(why) => return Ok(Verdict::Unknown(why)),
            };
            match sure_win(&theirs, q, rounds, &inner, &mut nodes) {
                Err(why) => return Ok(Verdict::Unknown(why)),
                Ok(Some(d)) => {
                    best = Some(best.map_or(d, |b: u32| b.min(d)));
                }
                Ok(None) => {}
            }
        }
        match best {
            Some(d) => longest = longest.max(d + 1),
            None => return Ok(Verdict::Unknown(Unproved::Horizon)),
        }
    }
    Ok(Verdict::Loss { plies: longest })
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
