//! The board's size (GAMES.md §4: `width` and `height`) and its
//! `key=value,…` text (the `--variant` flag).
//!
//! What it must never do: hold game state, do I/O, or accept a size that one
//! 64-bit board cannot hold (it returns a [`VariantError`] instead).

use std::fmt;

/// The smallest width or height.
pub const MIN_SIDE: u8 = 4;
/// The largest width or height.
pub const MAX_SIDE: u8 = 9;

/// The board's size. A value built by hand must satisfy [`Variant::check`];
/// [`Variant::parse`] only makes valid ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Columns, [`MIN_SIDE`] to [`MAX_SIDE`] (`width=N`, default 7).
    pub width: u8,
    /// Rows, [`MIN_SIDE`] to [`MAX_SIDE`] (`height=N`, default 6).
    pub height: u8,
}

impl Default for Variant {
    fn default() -> Variant {
        Variant { width: 7, height: 6 }
    }
}

/// Why a variant text (or a hand-built [`Variant`]) is not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// A part that is not `key=value` (an empty part included).
    Syntax(String),
    /// A key that is not `width` or `height`.
    UnknownKey(String),
    /// A key given twice.
    Duplicate(String),
    /// A value that is not a whole number from [`MIN_SIDE`] to [`MAX_SIDE`].
    BadValue {
        /// The key.
        key: &'static str,
        /// The value given.
        value: String,
    },
    /// `(height + 1) × width` is above 64: one 64-bit board cannot hold it.
    TooLarge {
        /// The width.
        width: u8,
        /// The height.
        height: u8,
    },
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::Syntax(p) => write!(f, "variant part `{p}` is not key=value"),
            VariantError::UnknownKey(k) => write!(f, "unknown variant key `{k}` (keys: width, height)"),
            VariantError::Duplicate(k) => write!(f, "variant key `{k}` given twice"),
            VariantError::BadValue { key, value } => {
                write!(
                    f,
                    "variant key `{key}` has value `{value}`, expected a whole number from {MIN_SIDE} to {MAX_SIDE}"
                )
            }
            VariantError::TooLarge { width, height } => write!(
                f,
                "width={width},height={height} is too large: (height + 1) × width must be at most 64, it is {}",
                (u32::from(*height) + 1) * u32::from(*width)
            ),
        }
    }
}

impl std::error::Error for VariantError {}

impl Variant {
    /// One line per key: `key=values  meaning (default …)` — shown by `--help`.
    pub const HELP: &'static str = "\
width=4..9   columns (default 7)
height=4..9  rows (default 6); (height + 1) × width must be at most 64";

    /// Whether the fields form a size the rules define.
    pub fn check(&self) -> Result<(), VariantError> {
        for (key, x) in [("width", self.width), ("height", self.height)] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&x) {
                return Err(VariantError::BadValue { key, value: x.to_string() });
            }
        }
        if (u32::from(self.height) + 1) * u32::from(self.width) > 64 {
            return Err(VariantError::TooLarge { width: self.width, height: self.height });
        }
        Ok(())
    }

    /// Reads `key=value,…` (the empty text is the default board). Every part
    /// must be `width=N` or `height=N`, each key at most once.
    pub fn parse(text: &str) -> Result<Variant, VariantError> {
        let mut v = Variant::default();
        if text.is_empty() {
            return Ok(v);
        }
        let mut seen = [false; 2];
        for part in text.split(',') {
            let (key, value) = part.split_once('=').ok_or_else(|| VariantError::Syntax(part.into()))?;
            let (slot, key, field) = match key {
                "width" => (0, "width", &mut v.width),
                "height" => (1, "height", &mut v.height),
                _ => return Err(VariantError::UnknownKey(key.into())),
            };
            if std::mem::replace(&mut seen[slot], true) {
                return Err(VariantError::Duplicate(key.into()));
            }
            let bad = || VariantError::BadValue { key, value: value.into() };
            // Digits only: no sign, no blank, no leading `+`.
            if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) || value.len() > 2 {
                return Err(bad());
            }
            *field = value.parse().map_err(|_| bad())?;
        }
        v.check()?;
        Ok(v)
    }

    /// The number of cells, `width × height`.
    pub const fn cells(&self) -> usize {
        self.width as usize * self.height as usize
    }
}

impl Variant {
    /// Writes the same form back: the keys that differ from the default,
    /// `width` first (`""` for 7 × 6); `parse(to_text()) == self`.
    pub fn to_text(&self) -> String {
        self.to_string()
    }
}

/// [`Variant::to_text`].
impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = Variant::default();
        let mut parts = Vec::new();
        if self.width != d.width {
            parts.push(format!("width={}", self.width));
        }
        if self.height != d.height {
            parts.push(format!("height={}", self.height));
        }
        f.write_str(&parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_read_back_and_bad_ones_are_refused() {
        for w in MIN_SIDE..=MAX_SIDE {
            for h in MIN_SIDE..=MAX_SIDE {
                let v = Variant { width: w, height: h };
                let fits = (u32::from(h) + 1) * u32::from(w) <= 64;
                assert_eq!(v.check().is_ok(), fits, "{w}x{h}");
                if fits {
                    assert_eq!(Variant::parse(&v.to_string()), Ok(v));
                    assert_eq!(Variant::parse(&format!("height={h},width={w}")), Ok(v));
                }
            }
        }
        assert_eq!(Variant::default().to_string(), "");
        assert_eq!(Variant::parse("width=9,height=6").unwrap().cells(), 54);
        for (text, want) in [
            (",", VariantError::Syntax(String::new())),
            ("width", VariantError::Syntax("width".into())),
            ("depth=3", VariantError::UnknownKey("depth".into())),
            ("width=5,width=5", VariantError::Duplicate("width".into())),
            ("width=3", VariantError::BadValue { key: "width", value: "3".into() }),
            ("height=10", VariantError::BadValue { key: "height", value: "10".into() }),
            ("height=+6", VariantError::BadValue { key: "height", value: "+6".into() }),
            ("height= 6", VariantError::BadValue { key: "height", value: " 6".into() }),
            (
                "width=18446744073709551616",
                VariantError::BadValue { key: "width", value: "18446744073709551616".into() },
            ),
            ("width=9,height=9", VariantError::TooLarge { width: 9, height: 9 }),
        ] {
            assert_eq!(Variant::parse(text), Err(want), "{text}");
        }
        assert!(VariantError::TooLarge { width: 9, height: 9 }.to_string().contains("it is 90"));
    }
}
