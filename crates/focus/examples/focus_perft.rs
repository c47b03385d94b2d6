//! Perft of focus-rules from the start of a variant: prints depth, leaves and time for depths 1..=N.
//!
//! Usage: `cargo run --release -p focus-rules --example focus_perft -- [depth] [variant]` (default 4, "").

use focus_rules::{Position, Variant, perft};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).map(|s| s.parse().expect("depth: a number")).unwrap_or(4);
    let variant = Variant::parse(args.get(2).map(String::as_str).unwrap_or("")).expect("variant");
    let p = Position::start(variant);
    for d in 1..=depth {
        let t = Instant::now();
        let n = perft(&p, d);
        println!("variant `{}` perft {d} = {n} ({:.2} s)", variant.to_text(), t.elapsed().as_secs_f64());
    }
}
