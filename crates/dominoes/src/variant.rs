//! The options of the rules (`--variant key=value,...`): the player count,
//! the hand size, the match length, and OpenSpiel's rules for comparison.
//!
//! What it must never do: read the environment or any file, or change a
//! rule silently (an unknown key or a bad value is an error, never ignored).

use std::fmt;

/// Options of the rules; `Default` is GAMES.md §2 with 2 players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Players, 2..=4 (`players=2|3|4`; `rules=openspiel` needs 2).
    pub players: u8,
    /// Tiles dealt to each player (`hand=N`; default 7 with 2 players, 5 with 3 or 4).
    pub hand: u8,
    /// Points that end the match (`target=N`, default 100).
    pub target: u32,
    /// Rounds after which the match is a draw (`rounds=N`, default 200).
    pub rounds: u32,
    /// OpenSpiel's `python_block_dominoes` (`rules=openspiel`): no boneyard
    /// play (the undealt tiles are never drawn), player 0 opens with any
    /// tile, a blocked player is skipped, every ending (going out
    /// included) goes to the lighter hand for the opponent's total, equal
    /// pips being a tie, and the game is a single hand.
    pub openspiel: bool,
}

impl Default for Variant {
    fn default() -> Variant {
        Variant { players: 2, hand: 7, target: 100, rounds: 200, openspiel: false }
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
    /// Keys that are each fine but do not go together.
    Conflict {
        /// Why.
        reason: &'static str,
    },
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::MissingEquals { item } => write!(f, "variant item `{item}` has no `=` (expected key=value)"),
            VariantError::UnknownKey { key } => {
                write!(f, "unknown variant key `{key}` (known: players, hand, target, rounds, rules)")
            }
            VariantError::Repeated { key } => write!(f, "variant key `{key}` given twice"),
            VariantError::BadValue { key, value, expected } => {
                write!(f, "variant key `{key}`: bad value `{value}`, expected {expected}")
            }
            VariantError::Conflict { reason } => write!(f, "variant: {reason}"),
        }
    }
}

impl std::error::Error for VariantError {}

fn number(key: &str, value: &str, max: u32, expected: &'static str) -> Result<u32, VariantError> {
    match value.parse::<u32>() {
        Ok(n) if n >= 1 && n <= max && !value.starts_with('+') => Ok(n),
        _ => Err(VariantError::BadValue { key: key.into(), value: value.into(), expected }),
    }
}

impl Variant {
    /// One line per key: `key=values  meaning (default …)`, shown by `--help`.
    pub const HELP: &'static str = "\
players=2|3|4            players, each for himself (default 2)
hand=N                   tiles dealt to each player, players*N at most 28 (default 7 with 2 players, 5 with 3 or 4)
target=N                 points that end the match (default 100)
rounds=N                 rounds after which the match is a draw (default 200)
rules=playboard|openspiel  Playboard (GAMES.md §2) or OpenSpiel's python_block_dominoes: 2 players, no drawing, player 0 opens with any tile, blocked players skipped, one hand (default playboard)";

    /// The default hand size for `players`.
    pub const fn default_hand(players: u8) -> u8 {
        if players == 2 { 7 } else { 5 }
    }

    /// Parses `key=value,key=value` options, e.g. "players=3,target=50"; "" = default.
    pub fn parse(text: &str) -> Result<Variant, VariantError> {
        let mut v = Variant::default();
        let mut hand = None;
        let mut seen: Vec<&str> = Vec::new();
        for item in text.split(',').map(str::trim) {
            if item.is_empty() {
                continue;
            }
            let Some((key, value)) = item.split_once('=') else {
                return Err(VariantError::MissingEquals { item: item.into() });
            };
            let (key, value) = (key.trim(), value.trim());
            if !["players", "hand", "target", "rounds", "rules"].contains(&key) {
                return Err(VariantError::UnknownKey { key: key.into() });
            }
            if seen.contains(&key) {
                return Err(VariantError::Repeated { key: key.into() });
            }
            seen.push(key);
            match key {
                "players" => {
                    v.players = match value {
                        "2" => 2,
                        "3" => 3,
                        "4" => 4,
                        _ => {
                            return Err(VariantError::BadValue {
                                key: key.into(),
                                value: value.into(),
                                expected: "2, 3 or 4",
                            });
                        }
                    }
                }
                "hand" => hand = Some(number(key, value, 14, "a whole number from 1 to 14")? as u8),
                "target" => v.target = number(key, value, 1_000_000, "a whole number from 1 to 1000000")?,
                "rounds" => v.rounds = number(key, value, 1_000_000, "a whole number from 1 to 1000000")?,
                _ => {
                    v.openspiel = match value {
                        "playboard" => false,
                        "openspiel" => true,
                        _ => {
                            return Err(VariantError::BadValue {
                                key: key.into(),
                                value: value.into(),
                                expected: "playboard or openspiel",
                            });
                        }
                    }
                }
            }
        }
        v.hand = hand.unwrap_or(Variant::default_hand(v.players));
        if u32::from(v.hand) * u32::from(v.players) > 28 {
            return Err(VariantError::Conflict { reason: "players*hand is more than the 28 tiles" });
        }
        if v.openspiel && v.players != 2 {
            return Err(VariantError::Conflict { reason: "rules=openspiel is a 2-player game" });
        }
        Ok(v)
    }

    /// The canonical text: the non-default keys in the order of `HELP`; "" for the default.
    pub fn to_text(&self) -> String {
        let mut items = Vec::new();
        if self.players != 2 {
            items.push(format!("players={}", self.players));
        }
        if self.hand != Variant::default_hand(self.players) {
            items.push(format!("hand={}", self.hand));
        }
        if self.target != 100 {
            items.push(format!("target={}", self.target));
        }
        if self.rounds != 200 {
            items.push(format!("rounds={}", self.rounds));
        }
        if self.openspiel {
            items.push("rules=openspiel".into());
        }
        items.join(",")
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}
