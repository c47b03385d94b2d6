//! The options of Sénat's rules (`--variant key=value,...`): who gives first
//! in the draft (hence who places last), who makes the first play move, the
//! three thresholds of the end rules (closure, majority, repetition), and two
//! compensations for the side that moves second in play (`ties`,
//! `second_majority`), and a swap of colours after the draft (`swap`, the pie
//! rule). `Variant::default()` is the game of the rules, bit for bit.
//!
//! A position carries its variant (see [`crate::Position::start_of`]), so
//! every rule that reads a threshold reads it from the position, and the
//! default game's positions, hashes, texts and perft are those of the rules.
//! The SPN does not write the variant: a text is read in a variant the caller
//! names ([`crate::Position::from_spn_in`]).
//!
//! What it must never do: read the environment or any file, or change a rule
//! silently (an unknown key or a bad value is an error, never ignored).

use crate::dice::Side;
use crate::position::Piles;
use std::fmt;

/// The largest closure a position can count to (its clock has 6 bits).
pub const MAX_CLOSURE: u8 = 63;
/// The largest majority a pile can hold (a pile has 3 bits).
pub const MAX_MAJORITY: u8 = 7;
/// The largest repetition count a variant may ask for.
pub const MAX_REPETITION: u8 = 7;

/// Options of the rules; `Default` is the game of the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Who gives the first die of the draft (`first_giver=blue|red`, default blue).
    /// The first giver also gives the 23rd, so the other side places first and last,
    /// 12 dice against 11.
    pub first_giver: Side,
    /// Who makes the first play move after the draft (`first_mover=blue|red`, default blue).
    pub first_mover: Side,
    /// Play half-moves without a die through the door that close the game
    /// (`closure=N`, 1..=63, default 60).
    pub closure: u8,
    /// Dice in one side's pile that win at once (`majority=N`, 1..=7, default 5).
    pub majority: u8,
    /// Occurrences of one position that end the game (`repetition=N`, 2..=7, default 3).
    pub repetition: u8,
    /// Who wins equal piles when piles are counted (repetition, closure,
    /// block): nobody (`ties=draw`, the rules) or the side that moves second
    /// in play (`ties=second`).
    pub ties: Ties,
    /// Dice in the pile of the side that moves second in play that win at
    /// once (`second_majority=N`, 1..=7); `None`, the default, is `majority`
    /// (so `Variant { majority: 4, ..Variant::RULES }` is majority 4 for
    /// both sides). The first mover's pile wins at `majority`. [`Variant::parse`]
    /// and [`crate::Position::variant`] write a value equal to `majority` as `None`.
    pub second_majority: Option<u8>,
    /// Whether the player who would move second in play may exchange
    /// colours with the other once the draft is over (`swap=yes`, the pie
    /// rule; default `no`): a decision ply, `keep` or `swap`, between the
    /// 23rd placement and the first play move.
    pub swap: bool,
}

/// Who wins when piles are counted and they are equal (`ties=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ties {
    /// Equal piles draw (the rules).
    Draw,
    /// Equal piles win for the side that moves second in play.
    Second,
}

impl Ties {
    /// The value as written after `ties=`.
    pub const fn name(self) -> &'static str {
        match self {
            Ties::Draw => "draw",
            Ties::Second => "second",
        }
    }
}

impl Default for Variant {
    fn default() -> Variant {
        Variant::RULES
    }
}

/// Why a `--variant` text is not a Sénat variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// An item without `=`.
    MissingEquals {
        /// The item as written.
        item: String,
    },
    /// A key Sénat does not know.
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
                "unknown variant key `{key}` (known: first_giver, first_mover, closure, majority, repetition, ties, \
                 second_majority, swap)"
            ),
            VariantError::Repeated { key } => write!(f, "variant key `{key}` given twice"),
            VariantError::BadValue { key, value, expected } => {
                write!(f, "variant key `{key}`: bad value `{value}`, expected {expected}")
            }
        }
    }
}

impl std::error::Error for VariantError {}

/// A whole number in `lo..=hi`, written without sign or leading zero.
fn number(key: &str, value: &str, lo: u8, hi: u8, expected: &'static str) -> Result<u8, VariantError> {
    let plain =
        !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) && !(value.len() > 1 && value.starts_with('0'));
    match value.parse::<u8>() {
        Ok(n) if plain && (lo..=hi).contains(&n) => Ok(n),
        _ => Err(VariantError::BadValue { key: key.into(), value: value.into(), expected }),
    }
}

fn side(key: &str, value: &str) -> Result<Side, VariantError> {
    match value {
        "blue" => Ok(Side::Blue),
        "red" => Ok(Side::Red),
        _ => Err(VariantError::BadValue { key: key.into(), value: value.into(), expected: "blue or red" }),
    }
}

impl Variant {
    /// The game of the rules: blue gives first and moves first, closure at
    /// 60, majority 5, third occurrence.
    pub const RULES: Variant = Variant {
        first_giver: Side::Blue,
        first_mover: Side::Blue,
        closure: 60,
        majority: 5,
        repetition: 3,
        ties: Ties::Draw,
        second_majority: None,
        swap: false,
    };

    /// One line per key: `key=values  meaning (default …)`, shown by `--help`
    /// and `--variant help`.
    pub const HELP: &'static str = "\
first_giver=blue|red   who gives the first die of the draft; the other side places first and last, 12 dice to 11 (default blue)
first_mover=blue|red   who makes the first play move after the draft (default blue)
closure=N              play half-moves without a die through the door that close the game, 1 to 63 (default 60)
majority=N             dice in one side's pile that win at once, 1 to 7 (default 5)
repetition=N           occurrences of one position that end the game, 2 to 7 (default 3)
ties=draw|second       equal piles when piles are counted (repetition, closure, block): a draw, or a win for the side that moves second in play (default draw)
second_majority=N      dice in the pile of the side that moves second in play that win at once, 1 to 7 (default: majority)
swap=no|yes            after the draft, the player who would move second in play may take the other colour: move `keep` or `swap` (default no; agents, batches and scores follow the players, by seat)";

    /// Parses `key=value,key=value` (the `--variant` flag), e.g.
    /// "first_giver=red,closure=40"; "" is the game of the rules.
    pub fn parse(text: &str) -> Result<Variant, VariantError> {
        let mut v = Variant::RULES;
        let mut second_majority = None;
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
                "first_giver" => v.first_giver = side(key, value)?,
                "first_mover" => v.first_mover = side(key, value)?,
                "closure" => v.closure = number(key, value, 1, MAX_CLOSURE, "a whole number from 1 to 63")?,
                "majority" => v.majority = number(key, value, 1, MAX_MAJORITY, "a whole number from 1 to 7")?,
                "repetition" => v.repetition = number(key, value, 2, MAX_REPETITION, "a whole number from 2 to 7")?,
                "ties" => {
                    v.ties = match value {
                        "draw" => Ties::Draw,
                        "second" => Ties::Second,
                        _ => {
                            return Err(VariantError::BadValue {
                                key: key.into(),
                                value: value.into(),
                                expected: "draw or second",
                            });
                        }
                    }
                }
                "swap" => {
                    v.swap = match value {
                        "no" => false,
                        "yes" => true,
                        _ => {
                            return Err(VariantError::BadValue {
                                key: key.into(),
                                value: value.into(),
                                expected: "no or yes",
                            });
                        }
                    }
                }
                "second_majority" => {
                    second_majority = Some(number(key, value, 1, MAX_MAJORITY, "a whole number from 1 to 7")?)
                }
                _ => return Err(VariantError::UnknownKey { key: key.into() }),
            }
            seen.push(key);
        }
        // Named as the majority, it is the default.
        v.second_majority = second_majority.filter(|&n| n != v.majority);
        Ok(v)
    }

    /// The same form back, only the keys that differ from their defaults
    /// (`second_majority` from `majority`), in the order of
    /// [`Variant::HELP`]; "" for the rules. `parse(to_text()) == self`.
    pub fn to_text(&self) -> String {
        let d = Variant::RULES;
        let mut items: Vec<String> = Vec::new();
        if self.first_giver != d.first_giver {
            items.push(format!("first_giver={}", self.first_giver));
        }
        if self.first_mover != d.first_mover {
            items.push(format!("first_mover={}", self.first_mover));
        }
        for (key, mine, def) in [
            ("closure", self.closure, d.closure),
            ("majority", self.majority, d.majority),
            ("repetition", self.repetition, d.repetition),
        ] {
            if mine != def {
                items.push(format!("{key}={mine}"));
            }
        }
        if self.ties != d.ties {
            items.push(format!("ties={}", self.ties.name()));
        }
        if let Some(n) = self.second_majority.filter(|&n| n != self.majority) {
            items.push(format!("second_majority={n}"));
        }
        if self.swap {
            items.push("swap=yes".into());
        }
        items.join(",")
    }

    /// Whether this is the game of the rules.
    pub fn is_rules(&self) -> bool {
        self.normal() == Variant::RULES
    }

    /// The same variant with `second_majority` `None` where it equals the
    /// majority: the one form of each game, as [`Variant::parse`] gives it.
    pub const fn normal(mut self) -> Variant {
        if let Some(n) = self.second_majority
            && n == self.majority
        {
            self.second_majority = None;
        }
        self
    }

    /// The side that gives placement `k` (1..=23): the first giver when `k` is odd.
    pub const fn giver(&self, k: u32) -> Side {
        if k % 2 == 1 { self.first_giver } else { self.first_giver.other() }
    }

    /// The side that places placement `k` (1..=23).
    pub const fn placer(&self, k: u32) -> Side {
        self.giver(k).other()
    }

    /// The side that moves second in play: the one `ties` and
    /// `second_majority` favour.
    pub const fn second_mover(&self) -> Side {
        self.first_mover.other()
    }

    /// The dice in `side`'s pile that win at once: `majority` for the first
    /// mover, `second_majority` for the other side.
    pub const fn majority_of(&self, side: Side) -> u8 {
        match self.second_majority {
            Some(n) if side as u8 != self.first_mover as u8 => n,
            _ => self.majority,
        }
    }

    /// The side whose pile has reached its majority, if any (red checked
    /// first; a legal game never has both).
    pub const fn majority_winner(&self, piles: Piles) -> Option<Side> {
        if piles.red >= self.majority_of(Side::Red) {
            Some(Side::Red)
        } else if piles.blue >= self.majority_of(Side::Blue) {
            Some(Side::Blue)
        } else {
            None
        }
    }

    /// How many dice more than the other side's pile `side` needs to win
    /// when piles are counted: 1, or 0 for the second mover under `ties=second`.
    pub const fn count_margin(&self, side: Side) -> u8 {
        match self.ties {
            Ties::Second if side as u8 != self.first_mover as u8 => 0,
            _ => 1,
        }
    }

    /// The winner when piles are counted (repetition, closure, block): the
    /// bigger pile; equal piles draw, or win for the second mover under
    /// `ties=second`. The white discard counts for nobody.
    pub fn count_piles(&self, piles: Piles) -> Option<Side> {
        match (piles.leader(), self.ties) {
            (Some(side), _) => Some(side),
            (None, Ties::Draw) => None,
            (None, Ties::Second) => Some(self.second_mover()),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_empty_text_is_the_rules() {
        assert_eq!(Variant::parse("").unwrap(), Variant::RULES);
        assert_eq!(Variant::parse(" , ").unwrap(), Variant::RULES);
        assert_eq!(Variant::RULES.to_text(), "");
        assert!(Variant::default().is_rules());
    }

    #[test]
    fn every_key_round_trips() {
        for text in [
            "first_giver=red",
            "first_mover=red",
            "closure=1",
            "closure=63",
            "majority=1",
            "majority=7",
            "repetition=2",
            "repetition=7",
            "first_giver=red,first_mover=red,closure=40,majority=4,repetition=2",
            "ties=second",
            "second_majority=1",
            "second_majority=7",
            "majority=4,ties=second,second_majority=5",
            "first_giver=red,first_mover=red,closure=40,majority=4,repetition=2,ties=second,second_majority=3",
            "swap=yes",
            "first_mover=red,ties=second,swap=yes",
        ] {
            let v = Variant::parse(text).unwrap();
            assert!(!v.is_rules(), "{text}");
            assert_eq!(v.to_text(), text);
            assert_eq!(Variant::parse(&v.to_text()).unwrap(), v);
        }
        // Keys in any order, defaults named explicitly, are normalised.
        let v = Variant::parse("closure=60, majority=6 ,first_giver=blue").unwrap();
        assert_eq!(v.to_text(), "majority=6");
        // A second majority equal to the majority is the default, whatever the majority.
        for (text, want) in [
            ("second_majority=5,ties=draw", ""),
            ("second_majority=4,majority=4", "majority=4"),
            ("majority=4,second_majority=5", "majority=4,second_majority=5"),
        ] {
            let v = Variant::parse(text).unwrap();
            assert_eq!(v.to_text(), want, "{text}");
            assert_eq!(v, v.normal(), "{text}");
        }
        let literal = Variant { majority: 4, second_majority: Some(4), ..Variant::RULES };
        assert_eq!(literal.normal(), Variant { majority: 4, ..Variant::RULES });
        assert!(Variant { second_majority: Some(5), ..Variant::RULES }.is_rules());
    }

    #[test]
    fn bad_texts_are_refused_with_the_reason() {
        for (text, want) in [
            ("closure", "no `=`"),
            ("size=3", "unknown variant key `size`"),
            ("closure=40,closure=50", "given twice"),
            ("closure=0", "1 to 63"),
            ("closure=64", "1 to 63"),
            ("closure=+5", "1 to 63"),
            ("closure=05", "1 to 63"),
            ("closure=", "1 to 63"),
            ("majority=8", "1 to 7"),
            ("majority=0", "1 to 7"),
            ("repetition=1", "2 to 7"),
            ("repetition=8", "2 to 7"),
            ("first_giver=green", "blue or red"),
            ("first_mover=Blue", "blue or red"),
            ("ties=red", "draw or second"),
            ("ties=", "draw or second"),
            ("second_majority=0", "1 to 7"),
            ("second_majority=8", "1 to 7"),
            ("second_majority=4,second_majority=5", "given twice"),
            ("size=3", "second_majority, swap"),
            ("swap=maybe", "no or yes"),
            ("swap=true", "no or yes"),
        ] {
            let e = Variant::parse(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn each_side_wins_at_its_own_majority() {
        let piles = |red, blue| Piles { red, blue, white: 0 };
        let rules = Variant::RULES;
        assert_eq!((rules.majority_of(Side::Blue), rules.majority_of(Side::Red)), (5, 5));
        assert_eq!(rules.majority_winner(piles(4, 4)), None);
        assert_eq!(rules.majority_winner(piles(5, 4)), Some(Side::Red));
        // Blue moves first: red, second, wins at 3; blue still needs 5.
        let v = Variant::parse("second_majority=3").unwrap();
        assert_eq!((v.majority_of(Side::Blue), v.majority_of(Side::Red)), (5, 3));
        assert_eq!(v.majority_winner(piles(2, 4)), None);
        assert_eq!(v.majority_winner(piles(3, 4)), Some(Side::Red));
        assert_eq!(v.majority_winner(piles(2, 5)), Some(Side::Blue));
        // Red moves first: blue is the second mover.
        let v = Variant::parse("first_mover=red,second_majority=6").unwrap();
        assert_eq!((v.majority_of(Side::Red), v.majority_of(Side::Blue)), (5, 6));
        assert_eq!(v.majority_winner(piles(4, 5)), None);
        assert_eq!(v.majority_winner(piles(4, 6)), Some(Side::Blue));
        assert_eq!(v.majority_winner(piles(5, 4)), Some(Side::Red));
    }

    #[test]
    fn equal_piles_go_to_the_second_mover_under_ties_second() {
        let piles = |red, blue| Piles { red, blue, white: 3 };
        let rules = Variant::RULES;
        assert_eq!(rules.count_piles(piles(2, 2)), None);
        assert_eq!(rules.count_piles(piles(0, 1)), Some(Side::Blue));
        assert_eq!((rules.count_margin(Side::Red), rules.count_margin(Side::Blue)), (1, 1));
        let v = Variant::parse("ties=second").unwrap();
        assert_eq!(v.count_piles(piles(0, 0)), Some(Side::Red));
        assert_eq!(v.count_piles(piles(2, 2)), Some(Side::Red));
        assert_eq!(v.count_piles(piles(2, 3)), Some(Side::Blue), "a bigger pile still wins");
        assert_eq!((v.count_margin(Side::Red), v.count_margin(Side::Blue)), (0, 1));
        let v = Variant::parse("ties=second,first_mover=red").unwrap();
        assert_eq!(v.second_mover(), Side::Blue);
        assert_eq!(v.count_piles(piles(1, 1)), Some(Side::Blue));
        assert_eq!(v.count_piles(piles(2, 1)), Some(Side::Red));
    }

    #[test]
    fn givers_and_placers_alternate_from_the_first_giver() {
        let rules = Variant::RULES;
        assert_eq!(rules.giver(1), Side::Blue);
        assert_eq!(rules.placer(1), Side::Red);
        assert_eq!(rules.placer(23), Side::Red);
        assert_eq!((1..=23).filter(|&k| rules.placer(k) == Side::Red).count(), 12);
        let red = Variant { first_giver: Side::Red, ..rules };
        assert_eq!(red.placer(1), Side::Blue);
        assert_eq!(red.placer(23), Side::Blue);
        assert_eq!((1..=23).filter(|&k| red.placer(k) == Side::Blue).count(), 12);
    }
}
