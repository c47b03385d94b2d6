//! The network leaf of the dominoes searches (`leaf=net`): the chance that
//! the player to move wins the match, read from the whole state of a
//! two-player round (both hands, the boneyard, the open ends, the scores)
//! by the small network of [`crate::net`] on top of three terms: the
//! learned leaf's chance at the current scores ([`super::dominoes_leaf`]),
//! the difference of the hands' pips and of their sizes.
//!
//! Training ([`super::dominoes_train::samples`], then the one trainer [`crate::net_train::fit`]):
//! self-play matches of one agent; every sampled decision of a round is
//! labelled with the mover's chance of winning the match at that round's
//! end (the learned leaf's table at the new scores, or the match's result
//! when the round ends it). That label is the random rollout's own leaf
//! value, taken after the agents' play instead of random play, so the
//! network replaces the rollout with what the rollout estimates.
//!
//! The searches call it on determinized states (PIMC's worlds, ISMCTS's
//! world of each playout), which are full states: it sees the world's
//! hidden tiles as the random rollout it replaces does. It applies to two
//! players with the rules and hand of the shipped round points
//! ([`super::dominoes_leaf::RoundPoints::fits`]); elsewhere the searches
//! keep the random rollout.
//!
//! What this module must never do: encode a rule (states and their
//! moves come from the rules crate), or read a file (the weights come
//! parsed).

use super::dominoes_leaf::LearnedLeaf;
use super::learn::{GameWeights, NetShape, WeightsError};
use crate::learned::sigmoid;
use dominoes_rules::{State, TileSet, Variant};
use std::sync::OnceLock;

/// Inputs: the mover's hand, the other hand, the boneyard (28 tiles
/// each), an open end showing each number, both ends showing it (7
/// each), no tile played yet, then the points each side still needs, in
/// tenths of the target (10 buckets each).
pub const SHAPE: NetShape = NetShape { game: "dominoes", inputs: INPUTS, max_active: 33 };

/// The terms of the linear part, each for the player to move: `match`, the
/// log-odds of the learned leaf's chance at the current scores; `pips`,
/// the other hand's pips less the mover's, in tens; `tiles`, the other
/// hand's tiles less the mover's.
pub const TERMS: &[&str] = &["match", "pips", "tiles"];

const MINE: u16 = 0;
const THEIRS: u16 = 28;
const YARD: u16 = 56;
const END: u16 = 84;
const BOTH: u16 = 91;
const EMPTY: u16 = 98;
const MY_NEED: u16 = 99;
const THEIR_NEED: u16 = 109;
const INPUTS: usize = 119;

/// The shipped network (`crates/lab/data/net-dominoes.txt`; its header
/// says how it was trained).
pub const SHIPPED_NET: &str = include_str!("../../data/net-dominoes.txt");

/// The shipped network, parsed once.
pub fn shipped() -> &'static GameWeights {
    static NET: OnceLock<GameWeights> = OnceLock::new();
    NET.get_or_init(|| parse(SHIPPED_NET).expect("the shipped dominoes network parses (a unit test reads it)"))
}

/// Reads a dominoes weights file (`game=dominoes`, `linear.<term>=` for
/// each of [`TERMS`], the `net.` lines).
pub fn parse(text: &str) -> Result<GameWeights, WeightsError> {
    GameWeights::parse_shape(text, SHAPE, TERMS)
}

/// Whether the network applies to the rules `v`: two players, the rules
/// and hand of the shipped round points, and a target the `match` term's
/// table solves (at most [`super::dominoes_leaf::MAX_TARGET`]).
pub fn applies(v: Variant) -> bool {
    v.players == 2
        && super::dominoes_leaf::RoundPoints::shipped().fits(v)
        && (1..=super::dominoes_leaf::MAX_TARGET).contains(&v.target)
}

fn set_inputs(set: TileSet, base: u16, out: &mut Vec<u16>) {
    out.extend(set.iter().map(|t| base + u16::from(t.index())));
}

fn need_bucket(score: u32, target: u32) -> u16 {
    let need = target.saturating_sub(score.min(target.saturating_sub(1)));
    ((u64::from(need.saturating_sub(1)) * 10 / u64::from(target.max(1))).min(9)) as u16
}

/// The active inputs of the two-player decision state `s`, seen from its
/// player to move (each input once).
pub fn inputs(s: &State, out: &mut Vec<u16>) {
    out.clear();
    let me = s.to_move();
    let them = 1 - me;
    set_inputs(s.hand(me), MINE, out);
    set_inputs(s.hand(them), THEIRS, out);
    set_inputs(s.boneyard(), YARD, out);
    match s.ends() {
        None => out.push(EMPTY),
        Some((a, b)) => {
            out.push(END + u16::from(a));
            if a == b {
                out.push(BOTH + u16::from(a));
            } else {
                out.push(END + u16::from(b));
            }
        }
    }
    let (sc, target) = (s.scores(), s.variant().target);
    out.push(MY_NEED + need_bucket(sc[me], target));
    out.push(THEIR_NEED + need_bucket(sc[them], target));
}

/// The linear part's terms ([`TERMS`]) of the two-player decision state
/// `s` for its player to move; `None` where the learned leaf's table does
/// not apply.
pub fn terms(s: &State, table: &mut LearnedLeaf) -> Option<[f32; 3]> {
    let me = s.to_move();
    let them = 1 - me;
    let p = table.chances(s)?[me].clamp(1e-4, 1.0 - 1e-4);
    let (mine, theirs) = (s.hand(me), s.hand(them));
    Some([
        (p / (1.0 - p)).ln() as f32,
        (f64::from(theirs.pips()) - f64::from(mine.pips())) as f32 / 10.0,
        theirs.len() as f32 - mine.len() as f32,
    ])
}

/// The network's chance that the player to move wins the match from the
/// two-player decision state `s`; `None` where it does not apply (not two
/// players, other rules, a chance state, an ended round). `active`: a
/// buffer.
pub fn mover_chance(w: &GameWeights, table: &mut LearnedLeaf, s: &State, active: &mut Vec<u16>) -> Option<f64> {
    if s.is_chance() || s.outcome().is_some() || !applies(s.variant()) {
        return None;
    }
    let t = terms(s, table)?;
    inputs(s, active);
    let lin: f32 = w.linear.iter().zip(&t).map(|(a, b)| a * b).sum();
    Some(sigmoid(f64::from(lin + w.net.infer(active))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::Net;
    use crate::policy::{GameRng, rng_from_seed};
    use dominoes_rules::Move;
    use game_search::rng::below;

    /// Random two-player states of random matches, decisions only.
    fn decisions(n: usize, seed: u64) -> Vec<State> {
        let mut rng: GameRng = rng_from_seed(seed);
        let (mut s, mut buf, mut out) = (State::start(Variant::default()), Vec::<Move>::new(), Vec::new());
        let mut chance = Vec::new();
        while out.len() < n {
            if s.outcome().is_some() {
                s = State::start(Variant::default());
            }
            if s.is_chance() {
                s.chance_outcomes(&mut chance);
                s.play_unchecked(chance[below(&mut rng, chance.len())].0);
            } else {
                out.push(s);
                s.legal_moves(&mut buf);
                s.play_unchecked(buf[below(&mut rng, buf.len())]);
            }
        }
        out
    }

    #[test]
    fn the_inputs_are_distinct_in_range_and_say_every_tile_not_played() {
        let mut active = Vec::new();
        let mut most = 0;
        for s in decisions(3000, 5) {
            inputs(&s, &mut active);
            most = most.max(active.len());
            SHAPE.assert_listing(&active, &s);
            let tiles = active.iter().filter(|&&i| i < END).count();
            assert_eq!(tiles, 28 - s.chain().len(), "{s:?}");
            let me = s.to_move();
            assert_eq!(active.iter().filter(|&&i| i < THEIRS).count(), s.hand(me).len());
            assert_eq!(active.iter().filter(|&&i| (MY_NEED..THEIR_NEED).contains(&i)).count(), 1);
            assert_eq!(active.iter().filter(|&&i| i >= THEIR_NEED).count(), 1);
        }
        assert!(most >= 20, "{most}");
    }

    #[test]
    fn need_buckets_cover_the_target() {
        assert_eq!(need_bucket(0, 100), 9);
        assert_eq!(need_bucket(99, 100), 0);
        assert_eq!(need_bucket(150, 100), 0);
        assert_eq!(need_bucket(50, 100), 4);
        assert_eq!(need_bucket(0, 1), 0);
        assert_eq!(need_bucket(0, 0), 0);
    }

    /// An untrained file (the `match` term weighted 1, the rest 0, a zero
    /// network) is the learned leaf's chance at the current scores, for
    /// the player to move, and the chances of the two seats agree.
    #[test]
    fn the_untrained_network_is_the_learned_leaf_at_the_scores() {
        let zero = GameWeights {
            game: SHAPE.game.into(),
            linear: vec![1.0, 0.0, 0.0],
            net: Net::zeros(SHAPE.inputs, 4),
            path: String::new(),
            hash: None,
        };
        let (mut table, mut active) = (LearnedLeaf::default(), Vec::new());
        for s in decisions(500, 6) {
            let v = mover_chance(&zero, &mut table, &s, &mut active).unwrap();
            let want = table.chances(&s).unwrap()[s.to_move()];
            assert!((v - want.clamp(1e-4, 1.0 - 1e-4)).abs() < 1e-6, "{v} {want}");
        }
        assert!(mover_chance(&zero, &mut table, &State::start(Variant::default()), &mut active).is_none());
        let four = Variant { players: 4, hand: 5, ..Variant::default() };
        assert!(!applies(four));
        // A target the table does not solve: the network does not apply (the searches keep the rollout).
        let far = Variant { target: super::super::dominoes_leaf::MAX_TARGET + 1, ..Variant::default() };
        assert!(!applies(far) && applies(Variant { target: 1000, ..Variant::default() }));
    }

    /// The compiled-in network (`leaf=net`) and the 64-unit file beside it
    /// (`file=crates/lab/data/net-dominoes-64.txt`) parse, round-trip, and
    /// value decision states in [0, 1] with a spread.
    #[test]
    fn the_shipped_networks_parse_and_say_something() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/net-dominoes-64.txt")).unwrap();
        let wide = parse(&text).unwrap();
        assert_eq!(wide.net.hidden, 64);
        for t in [&text[..], SHIPPED_NET] {
            assert!(crate::weights_file::entries(t).unwrap().checked, "the shipped files have their check line");
        }
        for w in [shipped(), &wide] {
            assert_eq!(w.net.inputs, SHAPE.inputs);
            let (mut table, mut active) = (LearnedLeaf::default(), Vec::new());
            let values: Vec<f64> =
                decisions(200, 7).iter().map(|s| mover_chance(w, &mut table, s, &mut active).unwrap()).collect();
            assert!(values.iter().all(|v| (0.0..=1.0).contains(v)));
            let spread = values.iter().copied().fold(0.0f64, f64::max) - values.iter().copied().fold(1.0f64, f64::min);
            assert!(spread > 0.2, "the network's values move with the state: spread {spread}");
            assert_eq!(parse(&w.to_text_terms(TERMS, "")).unwrap(), *w);
        }
    }
}
