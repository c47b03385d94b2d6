//! The root guard of the dominoes agents (`guard=on,guard_nodes=N` in a
//! `pimc` or `ismcts` spec): the proofs of [`super::dominoes_proof`] (sure
//! wins of the round from the observer's observation) asked before and
//! after the search, as the other games' guard ([`crate::guarded`]) asks
//! the exact solver's.
//!
//! Before the search: the moves that proofs within the node cap show to
//! be sure wins of the round. Where exactly one is proved, it is played at
//! once, without a search. Where several are, the search runs and its
//! choice is played if it is one of them, else the best-ranked of them:
//! the proofs know who wins the round, not how many points, which the
//! search weighs (where a win is proved, the search's own choice is most
//! often a sure win too, not always the same one). After the search, where no win was proved: if the search's choice is proved lost
//! (in every consistent state after it, some other player has a sure win
//! from his own observation), the moves of the search's ranking are
//! checked in turn and the first not proved lost is played instead
//! ([`game_search::guard::check_ranking`], the other games' policy); each
//! replacement gets [`crate::guarded::RESCUE_FACTOR`] times the cap. If
//! every move is proved lost, the search's choice stands: a lost round
//! still counts its points, which the search weighs and the proofs do not.
//!
//! Every attempt is capped in nodes (states searched and enumerated), never
//! in time, so a guarded agent stays a function of its observation and its
//! seed; the guard draws nothing from the agent's generator.
//!
//! What this module must never do: change a move without a proof, or read
//! anything but the observation.

use super::dominoes_proof::{self, ProofLimits};
use crate::guarded::RESCUE_FACTOR;
use crate::spec::{Param, ParamError};
use dominoes_rules::{Move, Observation};
use game_search::guard::{GuardNote, check_ranking};
use std::fmt;

/// The default node cap of one proof attempt (`guard_nodes=`).
pub const DEFAULT_GUARD_NODES: u64 = 2_000;

/// The most placements of the unseen tiles for which the guard tries a
/// proof at all (a position with more is left to the search at once):
/// [`ProofLimits::max_states`].
pub const GUARD_PLACEMENTS: u128 = 300;

/// The guard keys of a `pimc` or `ismcts` spec.
pub const GUARD_KEYS: &[&str] = &["guard", "guard_nodes"];

/// The guard of a dominoes agent, as its spec gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DominoGuardSpec {
    /// Whether the guard looks at all (`guard=on|off`).
    pub on: bool,
    /// The node cap of one proof attempt (`guard_nodes=`).
    pub nodes: u64,
}

impl DominoGuardSpec {
    /// No guard.
    pub const OFF: DominoGuardSpec = DominoGuardSpec { on: false, nodes: DEFAULT_GUARD_NODES };

    /// A guard for one agent.
    pub fn build(&self) -> DominoGuard {
        DominoGuard { spec: *self, note: None, wins: Vec::new(), nodes: 0 }
    }

    fn limits(&self, nodes: u64) -> ProofLimits {
        ProofLimits { max_states: GUARD_PLACEMENTS, max_nodes: nodes, ..ProofLimits::default() }
    }
}

/// The guard keys of one spec as read so far (`guard=`, `guard_nodes=`);
/// [`GuardKeys::resolve`] applies the defaults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GuardKeys {
    /// `guard=on|off`, if given.
    pub on: Option<bool>,
    /// `guard_nodes=`, if given.
    pub nodes: Option<u64>,
}

impl GuardKeys {
    /// Reads one parameter if its key is `guard` or `guard_nodes`
    /// (`Ok(false)`: another key); bounds from [`crate::limits`].
    pub fn set(&mut self, p: &Param) -> Result<bool, ParamError> {
        match p.key {
            "guard" => self.on = Some(p.choice(&[(&["on"], true), (&["off"], false)], "on or off")?),
            "guard_nodes" => self.nodes = Some(crate::limits::nodes(p.key, p.whole(1)?)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The guard these keys give: `guard_nodes` alone turns it on,
    /// `guard=off` turns it off whatever else is given.
    pub fn resolve(&self) -> DominoGuardSpec {
        match self.on.unwrap_or(self.nodes.is_some()) {
            true => DominoGuardSpec { on: true, nodes: self.nodes.unwrap_or(DEFAULT_GUARD_NODES) },
            false => DominoGuardSpec::OFF,
        }
    }
}

impl Default for DominoGuardSpec {
    fn default() -> DominoGuardSpec {
        DominoGuardSpec::OFF
    }
}

impl fmt::Display for DominoGuardSpec {
    /// `,guard=on,guard_nodes=N` (both keys, after a comma), or nothing
    /// for no guard.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.on { write!(f, ",guard=on,guard_nodes={}", self.nodes) } else { Ok(()) }
    }
}

/// What the guard did at one decision.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Did {
    /// One move proved a sure win of the round, played without a search.
    OnlyWin {
        /// The move.
        played: Move,
        /// The plies of its proof.
        plies: u32,
    },
    /// Several moves proved sure wins: the search's choice if one of them,
    /// else the best-ranked of them.
    Win {
        /// The move played.
        played: Move,
        /// The plies of its proof.
        plies: u32,
        /// How many moves were proved sure wins.
        proved: usize,
        /// The search's choice, where it was not one of them.
        replaced: Option<Move>,
    },
    /// The search's choice was proved lost; the next not proved lost replaces it.
    Saved {
        /// The search's choice.
        refused: Move,
        /// The plies of its loss.
        plies: u32,
        /// The move played.
        played: Move,
    },
    /// Every move is proved lost; the search's choice stands.
    AllLost(Move),
    /// Nothing proved: the search's choice stands.
    Nothing,
}

/// The guard of one agent: asked before and after each search.
#[derive(Clone, Debug)]
pub struct DominoGuard {
    spec: DominoGuardSpec,
    /// What the guard did at the last decision, and the nodes it spent there.
    note: Option<(Did, u64)>,
    /// The sure wins proved before the search of this decision.
    wins: Vec<(Move, u32)>,
    /// Nodes spent since it was built.
    nodes: u64,
}

impl DominoGuard {
    /// Whether it looks at all.
    pub fn on(&self) -> bool {
        self.spec.on
    }

    /// Nodes spent since it was built.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Before the search: the sure wins of the round for the observer of
    /// `obs` that proofs within the cap find. Where exactly one move is
    /// proved, it is returned, to be played without a search. Where
    /// several are, the search chooses among them ([`DominoGuard::after`]):
    /// the proofs know the round's winner, not its points, which the
    /// search weighs.
    pub fn before(&mut self, obs: &Observation) -> Option<Move> {
        self.note = None;
        self.wins.clear();
        if !self.spec.on {
            return None;
        }
        let a = dominoes_proof::winning_moves(obs, &self.spec.limits(self.spec.nodes));
        self.nodes += a.nodes;
        self.wins = a.proved;
        match *self.wins.as_slice() {
            [(played, plies)] => {
                self.note = Some((Did::OnlyWin { played, plies }, a.nodes));
                Some(played)
            }
            _ => {
                self.note = Some((Did::Nothing, a.nodes));
                None
            }
        }
    }

    /// After the search, whose move is `chosen` and whose ranking is
    /// `chosen`, then the other moves of `moves` by visits, then any legal
    /// move the search did not visit. Where [`DominoGuard::before`] proved
    /// sure wins: `chosen` if it is one, else the best-ranked of them.
    /// Otherwise `chosen`, or where it is proved lost the first move of the
    /// ranking not proved lost.
    pub fn after(&mut self, obs: &Observation, chosen: Move, moves: &[(Move, u64, f64)]) -> Move {
        if !self.spec.on {
            return chosen;
        }
        let mut others: Vec<(Move, u64)> = moves.iter().filter(|m| m.0 != chosen).map(|m| (m.0, m.1)).collect();
        others.sort_by_key(|m| std::cmp::Reverse(m.1));
        let mut ranking: Vec<Move> = std::iter::once(chosen).chain(others.into_iter().map(|m| m.0)).collect();
        let mut legal = Vec::new();
        obs.legal_moves(&mut legal);
        for m in legal {
            if !ranking.contains(&m) {
                ranking.push(m);
            }
        }
        let before = self.note.map_or(0, |n| n.1);
        let proved = self.wins.len();
        if let Some((played, plies)) = ranking.iter().find_map(|&m| self.wins.iter().find(|w| w.0 == m)).copied() {
            let replaced = (played != chosen).then_some(chosen);
            self.note = Some((Did::Win { played, plies, proved, replaced }, before));
            return played;
        }
        let (quick, rescue) = (self.spec.nodes, self.spec.nodes.saturating_mul(RESCUE_FACTOR));
        let mut spent = 0;
        let what = check_ranking(&ranking, usize::MAX, |m, replacement| {
            let a = dominoes_proof::proved_loss(obs, m, &self.spec.limits(if replacement { rescue } else { quick }));
            spent += a.nodes;
            a.proved
        });
        self.nodes += spent;
        let (played, did) = match what {
            GuardNote::Saved { refused, plies, played } => (played, Did::Saved { refused, plies, played }),
            GuardNote::Lost { .. } => (chosen, Did::AllLost(chosen)),
            _ => (chosen, Did::Nothing),
        };
        self.note = Some((did, before + spent));
        played
    }

    /// What the guard did at the last decision, as one clause for
    /// `senat bestmove`'s stderr (`None`: no guard).
    pub fn explain(&self) -> Option<String> {
        let (did, nodes) = self.note?;
        Some(match did {
            Did::OnlyWin { played, plies } => {
                format!("guard: {played} is the one proved sure win of the round (within {plies} plies; {nodes} nodes)")
            }
            Did::Win { played, plies, proved, replaced: None } => format!(
                "guard: the search's {played} is a sure win of the round (within {plies} plies; one of {proved} proved; {nodes} nodes)"
            ),
            Did::Win { played, plies, proved, replaced: Some(m) } => format!(
                "guard: the search's {m} is not a proved sure win of the round, {played} is (within {plies} plies; one of {proved} proved; {nodes} nodes)"
            ),
            Did::Saved { refused, plies, played } => format!(
                "guard: {refused} is proved lost (the round, within {plies} plies), {played} instead ({nodes} nodes)"
            ),
            Did::AllLost(m) => {
                format!("guard: every move is proved lost (the round); the search's {m} stands ({nodes} nodes)")
            }
            Did::Nothing => format!("guard: nothing proved, the search's move stands ({nodes} nodes)"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dominoes::DominoSpec;
    use crate::games::dominoes_proof::{Verdict, move_verdict};
    use dominoes_rules::{State, Variant};
    use game_search::rng::{below, rng_from_seed};

    /// A `win` line of tests/fixtures/tactics-dominoes.txt: 0-0L is the one
    /// sure win of the round (within 3 plies) of 2 legal moves.
    const WIN: &str = "o0 - play 0 0 51,60 16 0-0.3-0/?5 ?1 0:6-6L,1:6-5L,0:6-1R,1:5-2L,0:2-1L,1:4-1L,0:1-0R,1:5-0R,\
0+1:4-3L,1:3-3L,0+1:5-3L,1+2:5-5L,0+3:5-4L,1+1:6-4L,0:6-0L,1+3:4-0L,0:4-4L,1:4-2L,0:2-0L,1+2:5-1R d0/w0/4/0.4/0.1";
    /// A `save` line of the suite: of 0-0L, 3-2R and 5-0L, only 5-0L is
    /// not proved lost.
    const SAVE: &str = "o0 - play 0 0 51,6 7 0-0.3-2.4-4.5-0.5-2.5-5/?1 ?2 1:6-6L,0:6-4L,1:5-4L,0:5-3L,1:6-2R,0:4-3L,\
1:4-1L,0:1-0L,1:2-2R,0:6-0L,1+2:2-1R,0+2:6-1L,1:1-1L,0+1:5-1L,1+2:6-5L,0+5:3-1R,1:6-3L,0:3-3L,1:3-0L d0/w0/15/0.15/0.3";

    fn obs(text: &str) -> Observation {
        text.parse().unwrap()
    }

    fn mv(o: &Observation, text: &str) -> Move {
        let mut legal = Vec::new();
        o.legal_moves(&mut legal);
        *legal.iter().find(|m| m.to_string() == text).unwrap_or_else(|| panic!("{text} in {legal:?}"))
    }

    #[test]
    fn the_guard_plays_a_proved_win_before_any_search() {
        let o = obs(WIN);
        for spec in ["ismcts:playouts=20,guard=on", "pimc:playouts=20,worlds=2,guard_nodes=500"] {
            let mut a = DominoSpec::parse(spec).unwrap().build();
            let m = a.choose(&o, &mut rng_from_seed(1));
            assert_eq!(m.to_string(), "0-0L", "{spec}");
            let line = a.explain().unwrap();
            assert!(line.starts_with("guard: 0-0L is the one proved sure win of the round (within 3 plies;"), "{line}");
            assert!(!line.contains("mcts"), "no search: {line}");
        }
    }

    #[test]
    fn a_chosen_move_proved_lost_is_replaced_by_the_next_not_proved_lost() {
        let o = obs(SAVE);
        let (lost, also_lost, good) = (mv(&o, "0-0L"), mv(&o, "3-2R"), mv(&o, "5-0L"));
        let mut g = DominoGuardSpec { on: true, nodes: 20_000 }.build();
        // The search's ranking: 0-0L, then 3-2R, then 5-0L.
        let played = g.after(&o, lost, &[(lost, 9, 0.0), (good, 1, 0.0), (also_lost, 5, 0.0)]);
        assert_eq!(played, good);
        let line = g.explain().unwrap();
        assert!(line.starts_with("guard: 0-0L is proved lost (the round, within "), "{line}");
        assert!(line.contains("), 5-0L instead ("), "{line}");
        // The good move itself is left alone; off, nothing is looked at.
        assert_eq!(g.after(&o, good, &[]), good);
        assert!(g.explain().unwrap().starts_with("guard: nothing proved"));
        let mut off = DominoGuardSpec::OFF.build();
        assert_eq!((off.before(&o), off.after(&o, lost, &[])), (None, lost));
        assert_eq!((off.explain(), off.nodes()), (None, 0));
    }

    /// Decisions with a choice from seeded random matches, late in their
    /// rounds (few placements of the unseen tiles), some with proofs.
    fn decisions(n: usize) -> Vec<Observation> {
        let mut out = Vec::new();
        let (mut moves, mut chance) = (Vec::new(), Vec::new());
        for seed in 0.. {
            let mut rng = rng_from_seed(seed);
            let mut s = State::start(Variant::default());
            while s.outcome().is_none() && s.rounds_played() == 0 {
                if s.is_chance() {
                    s.chance_outcomes(&mut chance);
                    s.play_unchecked(chance[below(&mut rng, chance.len())].0);
                    continue;
                }
                s.legal_moves(&mut moves);
                if moves.len() >= 2 && s.hand(0).len() + s.hand(1).len() <= 8 {
                    out.push(s.observation(s.to_move()));
                    if out.len() == n {
                        return out;
                    }
                }
                s.play_unchecked(moves[below(&mut rng, moves.len())]);
            }
        }
        unreachable!()
    }

    /// Every move the guard changes is backed by the full proof search;
    /// where it proves nothing (a cap of 1 node proves almost nothing), it
    /// plays what the same agent unguarded plays with the same seed.
    #[test]
    fn the_guard_never_changes_a_move_without_a_proof() {
        let full = ProofLimits { max_states: GUARD_PLACEMENTS, ..ProofLimits::default() };
        let (mut unchanged, mut proved) = (0, 0);
        for (i, o) in decisions(if testkit::UNOPTIMISED { 12 } else { 40 }).iter().enumerate() {
            for (plain, guarded) in [
                ("ismcts:playouts=30", "ismcts:playouts=30,guard_nodes=1"),
                ("pimc:playouts=30,worlds=3", "pimc:playouts=30,worlds=3,guard=on,guard_nodes=3000"),
            ] {
                let seed = i as u64;
                let expected = DominoSpec::parse(plain).unwrap().build().choose(o, &mut rng_from_seed(seed));
                let mut a = DominoSpec::parse(guarded).unwrap().build();
                let m = a.choose(o, &mut rng_from_seed(seed));
                let line = a.explain().unwrap();
                if line.contains("guard: nothing proved") || line.contains("guard: every move is proved lost") {
                    assert_eq!(m, expected, "{guarded} in {o}: {line}");
                    unchanged += 1;
                } else if line.contains("sure win of the round") {
                    assert!(matches!(move_verdict(o, m, &full), Ok(Verdict::Win { .. })), "{m} in {o}: {line}");
                    if line.contains(&format!("the search's {expected} is a sure win")) {
                        assert_eq!(m, expected, "{o}: {line}");
                    }
                    proved += 1;
                } else {
                    assert!(line.contains(&format!("guard: {expected} is proved lost")), "{o}: {line}");
                    assert!(matches!(move_verdict(o, expected, &full), Ok(Verdict::Loss { .. })), "{o}: {line}");
                    assert!(!matches!(move_verdict(o, m, &full), Ok(Verdict::Loss { .. })), "{m} in {o}: {line}");
                    proved += 1;
                }
            }
        }
        assert!(unchanged > 0 && proved > 0, "{unchanged} unchanged, {proved} proved");
    }

    #[test]
    fn guard_keys_read_and_refuse_in_one_line() {
        let a = DominoSpec::parse("ismcts:playouts=50,guard=on").unwrap();
        assert_eq!(a.to_string(), format!("ismcts:playouts=50,c=0.7,guard=on,guard_nodes={DEFAULT_GUARD_NODES}"));
        let b = DominoSpec::parse("pimc:guard_nodes=500,temp=1").unwrap();
        assert_eq!(b.to_string(), "pimc:playouts=1000,worlds=20,c=0.7,temp=1,temp_plies=16,guard=on,guard_nodes=500");
        for t in [a, b, DominoSpec::parse("ismcts:guard=off,guard_nodes=7").unwrap()] {
            assert_eq!(DominoSpec::parse(&t.to_string()).unwrap(), t, "{t}");
        }
        // `guard=off` with `guard_nodes`, in either order: off, and written without the keys.
        for t in ["ismcts:guard_nodes=7,guard=off", "ismcts:guard=off,guard_nodes=7"] {
            assert_eq!(DominoSpec::parse(t).unwrap(), DominoSpec::parse("ismcts").unwrap(), "{t}");
        }
        for (spec, want) in [
            ("ismcts:guard=7", "`guard=7`: expected on or off"),
            ("pimc:guard=yes", "`guard=yes`: expected on or off"),
            ("ismcts:guard_nodes=0", "`guard_nodes=0`: expected a number ≥ 1"),
            ("ismcts:guard_nodes=x", "`guard_nodes=x`: expected a number ≥ 1"),
            ("ismcts:guard_nodes=10000000001", "`guard_nodes=10000000001`: expected a node count from 1 to"),
            ("ismcts:guard=on,guard=off", "`guard` is given twice"),
            ("greedy:guard=on", "greedy"),
            ("ismcts:gaurd=on", "did you mean `guard`?"),
        ] {
            let e = DominoSpec::parse(spec).unwrap_err().to_string();
            assert!(e.contains(want), "{spec}: {e}");
            assert!(!e.contains('\n'), "{spec}: {e}");
        }
    }
}
