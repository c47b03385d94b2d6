//! Property tests along random games: the incremental hash equals the
//! recomputed one; position text and move text round trip exactly.

use debacle_rules::{Position, Variant, parse_move_text};
use proptest::prelude::*;
use testkit::SplitMix64;

const VARIANTS: [&str; 4] =
    ["", "scoring=winner,relocate_on_end=yes", "faces=662211,target=12", "quiet=8,turns=30,rounds=2"];

fn cases() -> u32 {
    if testkit::UNOPTIMISED { 12 } else { 64 }
}

fn plies() -> usize {
    if testkit::UNOPTIMISED { 1500 } else { 6000 }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn hash_and_texts_along_random_games(seed in any::<u64>(), which in 0usize..4) {
        let v = Variant::parse(VARIANTS[which]).unwrap();
        let mut p = Position::start(v);
        let mut rng = SplitMix64::new(seed);
        let mut buf = Vec::new();
        for _ in 0..plies() {
            prop_assert_eq!(p.hash(), p.hash_from_scratch());
            let text = p.to_string();
            let back: Position = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert_eq!(back, p);
            prop_assert_eq!(back.to_string(), text);
            p.legal_moves(&mut buf);
            for &m in &buf {
                let t = m.to_string();
                prop_assert_eq!(p.parse_move(&t), Ok(m));
                prop_assert_eq!(parse_move_text(&t), Ok(m));
                prop_assert_eq!(p.parse_move(&t.to_lowercase()), Ok(m));
            }
            if buf.is_empty() {
                prop_assert!(p.outcome().is_some());
                break;
            }
            prop_assert!(p.outcome().is_none());
            p.play_unchecked(buf[rng.below(buf.len())]);
        }
    }
}
