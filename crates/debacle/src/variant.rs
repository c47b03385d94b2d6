//! The options of the rules (`--variant key=value,...`): every decision of
//! GAMES.md §3 that the project may overrule becomes a field here.
//!
//! What it must never do: read the environment or any file, or change a
//! rule silently (an unknown key or a bad value is an error, never ignored).

use std::fmt;

/// Who adds points at the end of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Each player adds the values of the dice in his captured pile (GAMES.md's default).
    Both,
    /// Only the player who captured 5 dice scores (`debacle_only_round_winner_scores`);
    /// a round ended by a safeguard scores nothing.
    Winner,
}

/// Options of the rules (GAMES.md decisions become fields; `Default` = GAMES.md's default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Who scores at the end of a round (`scoring=both|winner`).
    pub scoring: Scoring,
    /// Points that end the match (`target=N`, default 30).
    pub target: u16,
    /// Consecutive turns without a capture that end a round (`quiet=N`, default 100).
    pub quiet: u16,
    /// Turns after which a round ends whatever happens (`turns=N`, default 1000).
    pub turns: u16,
    /// Rounds after which the match ends on the totals (`rounds=N`, default 30).
    pub rounds: u16,
    /// Whether a recovery also resets the no-capture counter (`recovery_resets=no|yes`, default no).
    pub recovery_resets: bool,
    /// Whether a roll into the enemy camp that ends the round still names its home square
    /// (`relocate_on_end=no|yes`, default no).
    pub relocate_on_end: bool,
    /// South's starting faces on a1..f1 (`faces=123456`); North gets the rotated copy (f6..a6).
    pub faces: [u8; 6],
}

impl Default for Variant {
    fn default() -> Variant {
        Variant {
            scoring: Scoring::Both,
            target: 30,
            quiet: 100,
            turns: 1000,
            rounds: 30,
            recovery_resets: false,
            relocate_on_end: false,
            faces: [1, 2, 3, 4, 5, 6],
        }
    }
}

/// Why a `--variant` text is not a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// An item without `=`.
    MissingEquals {
        /// The item as written.
        item: String,
    },
    /// A key this crate does not know.
    UnknownKey {
        /// The key as written.
        key: String,
    },
    /// A key given twice.
    Repeated {
        /// The key.
        key: String,
    },
    /// A value the key does not accept.
    BadValue {
        /// The key.
        key: String,
        /// The value as written.
        value: String,
        /// What the key accepts.
        expected: &'static str,
    },
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::MissingEquals { item } => write!(f, "variant item `{item}` has no `=` (expected key=value)"),
            VariantError::UnknownKey { key } => write!(
                f,
                "unknown variant key `{key}` (known: scoring, target, quiet, turns, rounds, recovery_resets, relocate_on_end, faces)"
            ),
            VariantError::Repeated { key } => write!(f, "variant key `{key}` given twice"),
            VariantError::BadValue { key, value, expected } => {
                write!(f, "variant key `{key}`: bad value `{value}`, expected {expected}")
            }
        }
    }
}

impl std::error::Error for VariantError {}

const COUNT: &str = "a whole number from 1 to 65535";

fn count(key: &str, value: &str) -> Result<u16, VariantError> {
    match value.parse::<u16>() {
        Ok(n) if n >= 1 && !value.starts_with('+') => Ok(n),
        _ => Err(VariantError::BadValue { key: key.into(), value: value.into(), expected: COUNT }),
    }
}

fn yes_no(key: &str, value: &str) -> Result<bool, VariantError> {
    match value {
        "yes" => Ok(true),
        "no" => Ok(false),
        _ => Err(VariantError::BadValue { key: key.into(), value: value.into(), expected: "yes or no" }),
    }
}

impl Variant {
    /// One line per key: `key=values  meaning (default …)` — shown by `--help`.
    pub const HELP: &'static str = "\
scoring=both|winner      who scores at a round's end: both players their captured dice, or only the one who captured 5 (a safeguard end then scores nothing) (default both)
target=N                 points that end the match (default 30)
quiet=N                  consecutive turns without a capture that end a round, scored as usual (default 100)
turns=N                  turns after which a round ends, scored as usual (default 1000)
rounds=N                 rounds after which the higher total wins, equal totals draw (default 30)
recovery_resets=no|yes   a recovery also resets the no-capture counter (default no: only captures do)
relocate_on_end=no|yes   a roll into the enemy camp that ends the round still names its home square (default no)
faces=DDDDDD             South's starting faces on a1..f1, each 1..6; North gets the rotated copy on f6..a6 (default 123456)";

    /// Parses `key=value,key=value` options (the `--variant` flag), e.g. "scoring=winner,target=50"; "" = default.
    pub fn parse(text: &str) -> Result<Variant, VariantError> {
        let mut v = Variant::default();
        let mut seen: Vec<&str> = Vec::new();
        for item in text.split(',').map(str::trim) {
            if item.is_empty() {
                continue;
            }
            let Some((key, value)) = item.split_once('=') else {
                return Err(VariantError::MissingEquals { item: item.into() });
            };
            let (key, value) = (key.trim(), value.trim());
            if seen.contains(&key) {
                return Err(VariantError::Repeated { key: key.into() });
            }
            match key {
                "scoring" => {
                    v.scoring = match value {
                        "both" => Scoring::Both,
                        "winner" => Scoring::Winner,
                        _ => {
                            return Err(VariantError::BadValue {
                                key: key.into(),
                                value: value.into(),
                                expected: "both or winner",
                            });
                        }
                    }
                }
                "target" => v.target = count(key, value)?,
                "quiet" => v.quiet = count(key, value)?,
                "turns" => v.turns = count(key, value)?,
                "rounds" => v.rounds = count(key, value)?,
                "recovery_resets" => v.recovery_resets = yes_no(key, value)?,
                "relocate_on_end" => v.relocate_on_end = yes_no(key, value)?,
                "faces" => {
                    let b = value.as_bytes();
                    if b.len() != 6 || b.iter().any(|c| !(b'1'..=b'6').contains(c)) {
                        return Err(VariantError::BadValue {
                            key: key.into(),
                            value: value.into(),
                            expected: "six digits 1..6 (South's faces on a1..f1)",
                        });
                    }
                    for (f, c) in v.faces.iter_mut().zip(b) {
                        *f = c - b'0';
                    }
                }
                _ => return Err(VariantError::UnknownKey { key: key.into() }),
            }
            seen.push(key);
        }
        Ok(v)
    }

    /// Writes the same form back (only non-default keys; "" when default); parse(to_text()) == self.
    pub fn to_text(&self) -> String {
        let d = Variant::default();
        let yn = |b: bool| if b { "yes" } else { "no" };
        let mut items: Vec<String> = Vec::new();
        if self.scoring != d.scoring {
            items.push("scoring=winner".into());
        }
        for (key, mine, def) in
            [("target", self.target, d.target), ("quiet", self.quiet, d.quiet), ("turns", self.turns, d.turns)]
                .into_iter()
                .chain([("rounds", self.rounds, d.rounds)])
        {
            if mine != def {
                items.push(format!("{key}={mine}"));
            }
        }
        if self.recovery_resets != d.recovery_resets {
            items.push(format!("recovery_resets={}", yn(self.recovery_resets)));
        }
        if self.relocate_on_end != d.relocate_on_end {
            items.push(format!("relocate_on_end={}", yn(self.relocate_on_end)));
        }
        if self.faces != d.faces {
            items.push(format!("faces={}", self.faces.iter().map(|f| char::from(b'0' + f)).collect::<String>()));
        }
        items.join(",")
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}
