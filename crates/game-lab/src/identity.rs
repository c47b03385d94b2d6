//! The identity line that starts every batch and arena file of every
//! game: `# KEYWORD VERSION key=value key=value …` (`# senat-batch v2
//! game=focus variant=- seed=1 …`, `# senat-arena v2 …`), one blank
//! between words, each value percent-escaped ([`escape`]) so that it holds
//! no blank. This module reads and writes the line's words and fields
//! ([`IdentityLine`]); which keyword, version and fields a file must have
//! is its format's to check (Sénat's batches, the other games', the
//! arena's), over what this module read.
//!
//! What this module must never do: name a game, open a file, or accept a
//! line it could not write back.

use std::fmt;

/// The keyword of every batch file's identity line, whatever its game
/// (`# senat-batch v2 game=… …`).
pub const BATCH_KEYWORD: &str = "senat-batch";

/// The version of the batch line written today.
pub const BATCH_VERSION: &str = "v2";

/// A weights hash as identity lines write it (`red_weights=`,
/// `first_weights=`, an arena's `weights=`): `fnv1a64:<16 hex digits>`, or
/// `-` for an agent that reads no weights file.
pub fn hash_text(hash: Option<u64>) -> String {
    hash.map_or("-".to_string(), |h| format!("fnv1a64:{h:016x}"))
}

/// Why a line is not an identity line's words and fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// It does not start with `# ` and a keyword.
    NotIdentity,
    /// A field without `=`.
    NotKeyValue(String),
    /// A `%` not followed by two hex digits, in this value.
    BadEscape(String),
    /// A value whose unescaped bytes are not UTF-8.
    NotUtf8(String),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NotIdentity => f.write_str("not an identity line (`# KEYWORD VERSION key=value …`)"),
            LineError::NotKeyValue(t) => write!(f, "`{t}` is not key=value"),
            LineError::BadEscape(s) => write!(f, "bad escape in `{s}`"),
            LineError::NotUtf8(s) => write!(f, "`{s}` is not UTF-8 once unescaped"),
        }
    }
}

impl std::error::Error for LineError {}

/// Percent-encodes `%`, blanks and control characters (each byte of
/// their UTF-8 as `%XX`), so that a value is one word of the line.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '%' || c.is_whitespace() || c.is_control() {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Reads back a value written by [`escape`] (any `%XX` is decoded).
pub fn unescape(s: &str) -> Result<String, LineError> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok());
            out.push(hex.ok_or_else(|| LineError::BadEscape(s.into()))?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| LineError::NotUtf8(s.into()))
}

/// An identity line's words: its keyword, its version (`None`: the line
/// stops after the keyword) and its fields in order, values unescaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdentityLine {
    /// The format's keyword (`senat-batch`, `senat-arena`, `game-batch`).
    pub keyword: String,
    /// The format's version (`v2`; `1` in the older `game-batch` lines).
    pub version: Option<String>,
    /// The `key=value` fields, in order, their values unescaped.
    pub fields: Vec<(String, String)>,
}

impl IdentityLine {
    /// Reads `line` (with or without its line ending): `#`, the keyword,
    /// the version, then `key=value` words, each separated by one blank
    /// (two blanks make an empty word, refused as not `key=value`).
    pub fn parse(line: &str) -> Result<IdentityLine, LineError> {
        let line = line.trim_end_matches(['\n', '\r']);
        let mut words = line.split(' ');
        let (Some("#"), Some(keyword)) = (words.next(), words.next()) else { return Err(LineError::NotIdentity) };
        if keyword.is_empty() {
            return Err(LineError::NotIdentity);
        }
        let version = words.next().map(str::to_string);
        let mut fields = Vec::new();
        for w in words {
            let (k, v) = w.split_once('=').ok_or_else(|| LineError::NotKeyValue(w.into()))?;
            fields.push((k.to_string(), unescape(v)?));
        }
        Ok(IdentityLine { keyword: keyword.to_string(), version, fields })
    }

    /// Whether the line is `# KEYWORD VERSION …`.
    pub fn is(&self, keyword: &str, version: &str) -> bool {
        self.keyword == keyword && self.version.as_deref() == Some(version)
    }

    /// The value of field `key` (its first), if there is one.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The line of `keyword`, `version` and `fields` (values escaped),
    /// with its newline: what [`IdentityLine::parse`] reads back.
    pub fn write<K: AsRef<str>, V: AsRef<str>>(
        keyword: &str,
        version: &str,
        fields: impl IntoIterator<Item = (K, V)>,
    ) -> String {
        let mut s = format!("# {keyword} {version}");
        for (k, v) in fields {
            s.push(' ');
            s.push_str(k.as_ref());
            s.push('=');
            s.push_str(&escape(v.as_ref()));
        }
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_written_and_read_back() {
        let fields = [("game", "focus"), ("variant", "-"), ("first", "mcts:c=1 50%\t\u{1}é")];
        let line = IdentityLine::write("senat-batch", "v2", fields);
        assert_eq!(line, "# senat-batch v2 game=focus variant=- first=mcts:c=1%2050%25%09%01é\n");
        let back = IdentityLine::parse(&line).unwrap();
        assert!(back.is("senat-batch", "v2") && !back.is("senat-batch", "v1"));
        let want: Vec<(String, String)> = fields.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        assert_eq!(back.fields, want);
        assert_eq!(back.get("variant"), Some("-"));
        assert_eq!(back.get("seed"), None);
        assert_eq!(IdentityLine::parse("# game-batch 1\r\n").unwrap().fields, []);
        assert_eq!(IdentityLine::parse("# senat-batch").unwrap().version, None);
    }

    #[test]
    fn malformed_lines_are_refused_with_their_word() {
        for (line, e) in [
            ("game,moves", LineError::NotIdentity),
            ("#senat-batch v2", LineError::NotIdentity),
            ("#  v2", LineError::NotIdentity),
            ("# senat-batch v2 seed=1  games=2", LineError::NotKeyValue(String::new())),
            ("# senat-batch v2 seed", LineError::NotKeyValue("seed".into())),
            ("# senat-batch v2 first=a%2", LineError::BadEscape("a%2".into())),
            ("# senat-batch v2 first=%FF", LineError::NotUtf8("%FF".into())),
        ] {
            assert_eq!(IdentityLine::parse(line), Err(e), "{line}");
        }
        assert_eq!(unescape("a%zz"), Err(LineError::BadEscape("a%zz".into())));
    }
}
