//! Property tests (proptest): the incremental hash equals the recomputed
//! one; the state, observation and move texts round trip, on states
//! reached by random play from proptest-chosen seeds and lengths.

mod common;
use common::*;
use dominoes_rules::{Move, Observation, State};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn hash_matches_recompute(seed in 1u64.., plies in 0usize..400, vi in 0usize..4) {
        let s = random_state(variant(VARIANTS[vi]), &mut XorShift64::new(seed), plies);
        prop_assert_eq!(s.hash(), s.recompute_hash());
    }

    #[test]
    fn state_text_round_trip(seed in 1u64.., plies in 0usize..400, vi in 0usize..4) {
        let s = random_state(variant(VARIANTS[vi]), &mut XorShift64::new(seed), plies);
        let t = s.to_string();
        prop_assert_eq!(t.parse::<State>(), Ok(s));
    }

    #[test]
    fn observation_text_round_trip(seed in 1u64.., plies in 0usize..400, vi in 0usize..4, who in 0usize..4) {
        let s = random_state(variant(VARIANTS[vi]), &mut XorShift64::new(seed), plies);
        let o = s.observation(who % s.players());
        let t = o.to_string();
        prop_assert_eq!(t.parse::<Observation>(), Ok(o));
        prop_assert!(o.is_consistent(&s));
    }

    #[test]
    fn move_text_round_trip(seed in 1u64.., plies in 0usize..400, vi in 0usize..4) {
        let s = random_state(variant(VARIANTS[vi]), &mut XorShift64::new(seed), plies);
        let mut moves: Vec<Move> = Vec::new();
        if s.is_chance() {
            let mut c = Vec::new();
            s.chance_outcomes(&mut c);
            moves.extend(c.iter().map(|x| x.0));
        } else {
            s.legal_moves(&mut moves);
        }
        for m in moves {
            prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
            prop_assert_eq!(s.parse_move(&m.to_string()), Ok(m));
        }
    }
}
