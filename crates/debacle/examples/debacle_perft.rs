//! Prints perft 1..N at the start of the named variants, with the time of each.
//! `cargo run --release -p debacle-rules --example debacle_perft -- 4 "" "scoring=winner,relocate_on_end=yes"`

use debacle_rules::{Position, Variant, perft};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(4);
    let mut variants: Vec<String> = args.collect();
    if variants.is_empty() {
        variants = vec![String::new(), "scoring=winner,relocate_on_end=yes".into()];
    }
    for v in variants {
        let p = Position::start(Variant::parse(&v).expect("a variant"));
        for d in 1..=depth {
            let t = Instant::now();
            let n = perft(&p, d);
            println!("variant `{v}` perft({d}) = {n}  ({:.3} s)", t.elapsed().as_secs_f64());
        }
    }
}
