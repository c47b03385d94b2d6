//! The options of the rules (GAMES.md §1.5, §1.6, §1.8 decisions as fields)
//! and their `key=value,…` text (the `--variant` flag).
//!
//! What it must never do: hold game state, do I/O, or accept a combination
//! the rules do not define (it returns a [`VariantError`] instead).

use std::fmt;

/// Sackson's symmetry fix (GAMES.md §1.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fix {
    /// No fix, as the seed (default).
    None,
    /// Remedy 1: reaching the ply cap is a win for team 0 (the first player) instead of a draw.
    Draw,
    /// Remedy 2: two opening swap decisions (P0, then P1, filtered) before move 1.
    Swap,
}

/// Turn order of the 4-player game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// 0 → 1 → 2 → 3 (S → W → N → E, clockwise; default).
    Cw,
    /// 0 → 3 → 2 → 1 (the other reading of which seat moves second).
    Ccw,
}

/// Options of the rules (GAMES.md decisions become fields; Default = GAMES.md's default).
///
/// A value built by hand must satisfy [`Variant::check`]; [`Variant::parse`] only makes valid ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// 2 or 4 (4 = two partnerships {0, 2} and {1, 3}).
    pub players: usize,
    /// The symmetry fix (2 players only; 4 players need [`Fix::None`]).
    pub fix: Fix,
    /// The ply cap: the game is a draw (or a team-0 win with [`Fix::Draw`]) once this many plies
    /// (every decision, swaps and passes included) were played with no result. At least 1.
    pub cap: u32,
    /// Turn order (4 players; 2 players need [`Order::Cw`]).
    pub order: Order,
}

impl Default for Variant {
    fn default() -> Variant {
        Variant { players: 2, fix: Fix::None, cap: Variant::default_cap(2), order: Order::Cw }
    }
}

/// Largest accepted ply cap.
pub const MAX_CAP: u32 = 1_000_000_000;

/// Why a variant text (or a hand-built [`Variant`]) is not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// A part has no `=`.
    Syntax(String),
    /// A key that is not `players`, `fix`, `cap` or `order`.
    UnknownKey(String),
    /// A key given twice.
    Duplicate(String),
    /// A value the key does not take.
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What the key takes.
        expected: &'static str,
    },
    /// `fix=draw` or `fix=swap` with 4 players.
    FixNeedsTwoPlayers(Fix),
    /// `order=ccw` with 2 players.
    OrderNeedsFourPlayers,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::Syntax(p) => write!(f, "variant part `{p}` is not key=value"),
            VariantError::UnknownKey(k) => write!(f, "unknown variant key `{k}` (keys: players, fix, cap, order)"),
            VariantError::Duplicate(k) => write!(f, "variant key `{k}` given twice"),
            VariantError::BadValue { key, value, expected } => {
                write!(f, "variant key `{key}` has value `{value}`, expected {expected}")
            }
            VariantError::FixNeedsTwoPlayers(fix) => {
                write!(f, "fix={} needs players=2 (4 players allow only fix=none)", fix_name(*fix))
            }
            VariantError::OrderNeedsFourPlayers => write!(f, "order=ccw needs players=4"),
        }
    }
}

impl std::error::Error for VariantError {}

fn fix_name(f: Fix) -> &'static str {
    match f {
        Fix::None => "none",
        Fix::Draw => "draw",
        Fix::Swap => "swap",
    }
}

impl Variant {
    /// One line per key: `key=values  meaning (default …)` — shown by `--help`.
    pub const HELP: &'static str = "\
players=2|4      2 players, or the 4-player partnership game (teams {0,2} and {1,3}) (default 2)
fix=none|draw|swap  Sackson's symmetry fix: none; draw = the ply cap is a win for player 0; swap = P0 then P1 exchange one own and one enemy piece before move 1, P1's may not restore symmetry (2 players only; default none)
cap=N            ply cap (every decision counts, swaps and passes included): a draw when reached with no result (default 1000 for 2 players, 2000 for 4)
order=cw|ccw     4-player turn order: cw = 0,1,2,3; ccw = 0,3,2,1 (default cw)";

    /// The default ply cap for `players`: 1000 for 2, 2000 for 4.
    pub const fn default_cap(players: usize) -> u32 {
        if players == 4 { 2000 } else { 1000 }
    }

    /// The default variant for 4 players.
    pub fn four_players() -> Variant {
        Variant { players: 4, cap: Variant::default_cap(4), ..Variant::default() }
    }

    /// Whether the fields form a variant the rules define.
    pub fn check(&self) -> Result<(), VariantError> {
        if self.players != 2 && self.players != 4 {
            return Err(VariantError::BadValue {
                key: "players".into(),
                value: self.players.to_string(),
                expected: "2 or 4",
            });
        }
        if self.cap == 0 || self.cap > MAX_CAP {
            return Err(VariantError::BadValue {
                key: "cap".into(),
                value: self.cap.to_string(),
                expected: "a whole number from 1 to 1000000000",
            });
        }
        if self.players == 4 && self.fix != Fix::None {
            return Err(VariantError::FixNeedsTwoPlayers(self.fix));
        }
        if self.players == 2 && self.order != Order::Cw {
            return Err(VariantError::OrderNeedsFourPlayers);
        }
        Ok(())
    }

    /// Parses `key=value,key=value` options (the `--variant` flag), e.g. "cap=500,fix=swap"; "" = default.
    pub fn parse(text: &str) -> Result<Variant, VariantError> {
        let text = text.trim();
        let (mut players, mut fix, mut cap, mut order) = (None, None, None, None);
        if !text.is_empty() {
            for part in text.split(',') {
                let Some((key, value)) = part.split_once('=') else {
                    return Err(VariantError::Syntax(part.to_string()));
                };
                let bad = |expected| VariantError::BadValue { key: key.into(), value: value.into(), expected };
                let dup = || VariantError::Duplicate(key.to_string());
                match key {
                    "players" => {
                        let v = match value {
                            "2" => 2,
                            "4" => 4,
                            _ => return Err(bad("2 or 4")),
                        };
                        if players.replace(v).is_some() {
                            return Err(dup());
                        }
                    }
                    "fix" => {
                        let v = match value {
                            "none" => Fix::None,
                            "draw" => Fix::Draw,
                            "swap" => Fix::Swap,
                            _ => return Err(bad("none, draw or swap")),
                        };
                        if fix.replace(v).is_some() {
                            return Err(dup());
                        }
                    }
                    "cap" => {
                        let expected = "a whole number from 1 to 1000000000";
                        let digits = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
                        if !digits || value.starts_with('0') || value.len() > 10 {
                            return Err(bad(expected));
                        }
                        let v: u64 = value.parse().map_err(|_| bad(expected))?;
                        if v == 0 || v > MAX_CAP as u64 {
                            return Err(bad(expected));
                        }
                        if cap.replace(v as u32).is_some() {
                            return Err(dup());
                        }
                    }
                    "order" => {
                        let v = match value {
                            "cw" => Order::Cw,
                            "ccw" => Order::Ccw,
                            _ => return Err(bad("cw or ccw")),
                        };
                        if order.replace(v).is_some() {
                            return Err(dup());
                        }
                    }
                    _ => return Err(VariantError::UnknownKey(key.to_string())),
                }
            }
        }
        let players = players.unwrap_or(2);
        let v = Variant {
            players,
            fix: fix.unwrap_or(Fix::None),
            cap: cap.unwrap_or(Variant::default_cap(players)),
            order: order.unwrap_or(Order::Cw),
        };
        v.check()?;
        Ok(v)
    }

    /// Writes the same form back (only non-default keys, in the order players, fix, cap, order;
    /// "" when default); `parse(to_text()) == self`.
    pub fn to_text(&self) -> String {
        let mut parts = Vec::new();
        if self.players != 2 {
            parts.push(format!("players={}", self.players));
        }
        if self.fix != Fix::None {
            parts.push(format!("fix={}", fix_name(self.fix)));
        }
        if self.cap != Variant::default_cap(self.players) {
            parts.push(format!("cap={}", self.cap));
        }
        if self.order == Order::Ccw {
            parts.push("order=ccw".to_string());
        }
        parts.join(",")
    }
}
