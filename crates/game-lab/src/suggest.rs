//! Help for mistyped spec text: the edit distance between two names
//! ([`distance`]), the nearest accepted name ([`nearest`], [`did_you_mean`])
//! and the first key given twice in a parameter list ([`duplicate_key`]).
//! The one spec grammar (`senat-lab`'s `spec`) and the variant parsers use these.

/// The Damerau–Levenshtein distance (optimal string alignment) between `a`
/// and `b`, counted in characters: insertions, deletions, substitutions and
/// swaps of two neighbours each cost 1.
pub fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // rows[i][j]: the distance between a[..i] and b[..j].
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1).min(rows[i][j - 1] + 1).min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

/// The name of `names` nearest to `word`, if it is near enough to be a
/// typo: at most 2 edits, and fewer edits than `word` has characters (so
/// that `x` suggests nothing). Ties go to the first name listed.
pub fn nearest<'a>(word: &str, names: &[&'a str]) -> Option<&'a str> {
    let limit = 2.min(word.chars().count().saturating_sub(1));
    names.iter().map(|&n| (distance(word, n), n)).filter(|&(d, _)| d <= limit).min_by_key(|&(d, _)| d).map(|(_, n)| n)
}

/// `"; did you mean `NAME`?"` for the [`nearest`] name, or `""` if none is near.
pub fn did_you_mean(word: &str, names: &[&str]) -> String {
    nearest(word, names).map_or(String::new(), |n| format!("; did you mean `{n}`?"))
}

/// The first key (the text before `=`, trimmed) that appears twice among
/// `items` (`key=value` texts), or `None`.
pub fn duplicate_key<'a>(items: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut seen: Vec<&str> = Vec::new();
    for item in items {
        let key = item.split_once('=').map_or(item, |(k, _)| k).trim();
        if seen.contains(&key) {
            return Some(key);
        }
        seen.push(key);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("", ""), 0);
        assert_eq!(distance("mcts", "mcts"), 0);
        assert_eq!(distance("mcst", "mcts"), 1, "a swap of neighbours is one edit");
        assert_eq!(distance("playuts", "playouts"), 1);
        assert_eq!(distance("ab", ""), 2);
        assert_eq!(distance("greedy", "gredy"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("é", "e"), 1, "characters, not bytes");
        assert_eq!(distance("abc", "ca"), 3, "optimal string alignment: no edit of a swapped pair");
    }

    #[test]
    fn nearest_names() {
        let names = ["random", "greedy", "mcts", "ab", "top", "strong"];
        assert_eq!(nearest("mcst", &names), Some("mcts"));
        assert_eq!(nearest("radnom", &names), Some("random"));
        assert_eq!(nearest("tpo", &names), Some("top"));
        assert_eq!(nearest("x", &names), None, "one letter is no typo of anything");
        assert_eq!(nearest("heuristic", &names), None);
        assert_eq!(did_you_mean("stong", &names), "; did you mean `strong`?");
        assert_eq!(did_you_mean("zzzzzz", &names), "");
    }

    #[test]
    fn duplicates() {
        assert_eq!(duplicate_key(["playouts=1", "c=2", " playouts = 2"]), Some("playouts"));
        assert_eq!(duplicate_key(["playouts=1", "c=2"]), None);
        assert_eq!(duplicate_key(["file=a", "pile=1", "file=b"]), Some("file"));
    }
}
