//! The one arena of every game is the generic lab's ([`game_lab::arena`],
//! re-exported here under its old path); this module adds what names the
//! game: the identity line that starts every arena file and its reading
//! back, so that `view`, `replay` and `annotate` find an arena file's game.
//!
//! It never plays a game and never counts one.

pub use game_lab::arena::*;

use crate::games::GameKind;

/// The start of every arena file's identity line, in every game:
/// `# senat-arena v2 game=… variant=…` (`variant=-` for the default
/// rules), the fields of the game's arena following.
pub fn identity_head(game: GameKind, variant: &str) -> String {
    let variant = if variant.is_empty() { "-".to_string() } else { crate::identity::escape(variant) };
    format!("# senat-arena v2 game={game} variant={variant}")
}

/// The game and variant text (empty for the default rules) of an arena's
/// games or moves file, from its identity line: `# senat-arena v2`
/// ([`identity_head`]), and the older lines `# senat-arena v1` (Sénat's,
/// `variant=` only for a variant) and `# game-arena 1` (the other games');
/// `None` when its first line is none of these or cannot be read.
pub fn arena_file(path: &std::path::Path) -> Option<(GameKind, String)> {
    use std::io::{BufRead, Read};
    let f = std::fs::File::open(path).ok()?;
    let mut line = Vec::new();
    std::io::BufReader::new(f).take(1 << 16).read_until(b'\n', &mut line).ok()?;
    let line = crate::identity::IdentityLine::parse(std::str::from_utf8(&line).ok()?).ok()?;
    let (game, variant) = if line.is("senat-arena", "v1") {
        (GameKind::Senat, line.get("variant").unwrap_or("-"))
    } else if line.is("senat-arena", "v2") || line.is("game-arena", "1") {
        (GameKind::parse(line.get("game")?).ok()?, line.get("variant")?)
    } else {
        return None;
    };
    Some((game, if variant == "-" { String::new() } else { variant.to_string() }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every arena's identity line is read back for its game and variant,
    /// and so are the older lines (Sénat's v1 with and without a variant,
    /// the other games' `# game-arena 1`); other files are no arena's.
    #[test]
    fn every_arena_identity_is_read_back() {
        let dir = std::env::temp_dir().join(format!("senat-arena-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let head = |g, v| format!("{} seed=1 pairs=2\n", identity_head(g, v));
        let cases: [(String, Option<(GameKind, &str)>); 8] = [
            (head(GameKind::Focus4, "players=4"), Some((GameKind::Focus4, "players=4"))),
            (head(GameKind::Senat, ""), Some((GameKind::Senat, ""))),
            (head(GameKind::Dominoes, "players=4,target=50"), Some((GameKind::Dominoes, "players=4,target=50"))),
            (
                "# senat-arena v1 seed=1 games=2 variant=closure=30 agents=2\n".into(),
                Some((GameKind::Senat, "closure=30")),
            ),
            ("# senat-arena v1 seed=1 games=2 agents=2\n".into(), Some((GameKind::Senat, ""))),
            ("# game-arena 1 game=debacle variant=- seed=1\n".into(), Some((GameKind::Debacle, ""))),
            ("# senat-batch v2 game=focus variant=- seed=1\n".into(), None),
            ("game,pairing,pair\n".into(), None),
        ];
        assert!(head(GameKind::Senat, "").starts_with("# senat-arena v2 game=senat variant=- seed=1"));
        for (i, (line, want)) in cases.iter().enumerate() {
            let path = dir.join(format!("{i}.csv"));
            std::fs::write(&path, line).unwrap();
            let got = arena_file(&path);
            assert_eq!(got.as_ref().map(|(g, v)| (*g, v.as_str())), *want, "{line}");
        }
        assert_eq!(arena_file(&dir.join("absent.csv")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
