//! Pinned perft numbers (tests/perft.txt, the rules and their variants),
//! bulk counting against playing every leaf, and pinned Zobrist hashes.

use senat_rules::perft::{divide, perft, perft_full};
use senat_rules::{Position, Variant};

fn suite() -> Vec<(String, Position, Vec<u64>)> {
    include_str!("perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(';').map(str::trim).collect();
            assert!(f.len() == 3 || f.len() == 4, "{l}");
            let v = Variant::parse(f.get(3).copied().unwrap_or("")).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
            let p = Position::from_spn_in(f[1], v).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
            assert_eq!(p.variant(), v, "{}", f[0]);
            (f[0].to_string(), p, f[2].split_whitespace().map(|n| n.parse().unwrap()).collect())
        })
        .collect()
}

#[test]
fn perft_numbers_are_pinned() {
    for (name, p, counts) in suite() {
        for (i, &want) in counts.iter().enumerate() {
            assert_eq!(perft(&p, i as u32 + 1), want, "{name} depth {}", i + 1);
        }
    }
}

#[test]
fn bulk_counting_equals_playing_every_leaf() {
    for (name, p, counts) in suite() {
        for depth in 1..=counts.len().min(3) as u32 {
            assert_eq!(perft_full(&p, depth), counts[depth as usize - 1], "{name} depth {depth}");
        }
    }
}

#[test]
fn divide_adds_up() {
    for (name, p, counts) in suite() {
        let d = divide(&p, 2);
        assert_eq!(d.len() as u64, counts[0], "{name}");
        assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), counts[1], "{name}");
    }
}

#[test]
fn zobrist_hashes_are_pinned() {
    // A change here means the hash keys changed: stored hashes (opening
    // books, tables, repetition records) would no longer match.
    assert_eq!(Position::start().hash(), PINNED_START);
    assert_eq!(senat_rules::sample::START.parse::<Position>().unwrap().hash(), PINNED_SAMPLE);
}

const PINNED_START: u64 = 4927805175906671634;
const PINNED_SAMPLE: u64 = 15711787509120321828;
