//! Game values for integration tests: a search state from SPN, the sample
//! game replayed from its record, a policy from its spec
//! (`mod support { pub mod games; }`).

#![allow(dead_code)]

use senat_lab::games::senat::SenatState;
use senat_lab::policy::PolicySpec;
use senat_rules::{GameRecord, Position, sample};

/// The search state of an SPN (panics naming the SPN if it is refused).
pub fn state(spn: &str) -> SenatState {
    SenatState::new(spn.parse::<Position>().unwrap_or_else(|e| panic!("{spn}: {e}")))
}

/// The sample game of the rules, replayed from its record with the checked
/// `GameRecord::play`.
pub fn sample_game() -> GameRecord {
    let mut g = GameRecord::new(sample::START.parse().expect("the sample start is valid SPN"));
    for line in sample::record_lines().skip(1) {
        let m = g.position().parse_move(line).unwrap_or_else(|e| panic!("sample move {line}: {e}"));
        g.play(m).unwrap_or_else(|e| panic!("sample move {line}: {e}"));
    }
    g
}

/// A policy from its spec (panics naming the spec if it is refused).
pub fn spec(s: &str) -> PolicySpec {
    PolicySpec::parse(s).unwrap_or_else(|e| panic!("policy {s}: {e}"))
}
