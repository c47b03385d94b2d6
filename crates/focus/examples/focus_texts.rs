//! Prints a position text (the start of a variant, or a position text given whole), its legal move
//! texts and its text board (for corpus seeds and docs).
//!
//! Usage: `cargo run -p focus-rules --example focus_texts -- [variant | "focus …"]`.

use focus_rules::{Position, Variant};

fn main() {
    let text = std::env::args().nth(1).unwrap_or_default();
    let p = if text.starts_with("focus ") {
        text.parse::<Position>().unwrap_or_else(|e| panic!("{e}"))
    } else {
        Position::start(Variant::parse(&text).expect("variant"))
    };
    println!("{p}");
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    println!("{}", moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" "));
    print!("{}", p.board_text(false));
}
