//! Variant spaces: `key=v1|v2|…` or `key=lo..hi:step` items joined by
//! commas, expanded to the cross product of `--variant` texts
//! (`key=value,key=value`, keys in the order written, the last key
//! varying fastest). The texts are checked by the game's own variant
//! reader by the caller; this module only expands.
//!
//! It never reads a game's rules and never writes anything.

use std::fmt;

/// The most variants a space may expand to.
pub const MAX_VARIANTS: usize = 4096;

/// Why a space's text is not a space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpaceError(pub String);

impl fmt::Display for SpaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpaceError {}

/// The values of one `lo..hi:step` item (integers).
fn range(key: &str, text: &str) -> Result<Vec<String>, SpaceError> {
    let bad = || SpaceError(format!("`{key}={text}`: expected lo..hi:step with whole numbers, e.g. closure=20..60:10"));
    let (span, step) = text.split_once(':').ok_or_else(bad)?;
    let (lo, hi) = span.split_once("..").ok_or_else(bad)?;
    let lo: i64 = lo.trim().parse().map_err(|_| bad())?;
    let hi: i64 = hi.trim().parse().map_err(|_| bad())?;
    let step: i64 = step.trim().parse().map_err(|_| bad())?;
    if step <= 0 || hi < lo {
        return Err(SpaceError(format!("`{key}={text}`: needs lo <= hi and a step of at least 1")));
    }
    if (hi - lo) / step >= MAX_VARIANTS as i64 {
        return Err(SpaceError(format!("`{key}={text}`: more than {MAX_VARIANTS} values")));
    }
    Ok((0..).map(|i| lo + i * step).take_while(|&v| v <= hi).map(|v| v.to_string()).collect())
}

/// Expands `text` into its variant texts (at least one; an empty space is
/// the game's default rules, the text `""`).
pub fn expand(text: &str) -> Result<Vec<String>, SpaceError> {
    if text.trim().is_empty() {
        return Ok(vec![String::new()]);
    }
    let mut axes: Vec<(String, Vec<String>)> = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        let Some((key, values)) = item.split_once('=') else {
            return Err(SpaceError(format!("`{item}`: expected key=v1|v2 or key=lo..hi:step")));
        };
        let key = key.trim();
        if key.is_empty() {
            return Err(SpaceError(format!("`{item}`: the key is empty")));
        }
        if axes.iter().any(|(k, _)| k == key) {
            return Err(SpaceError(format!("the key `{key}` is given twice")));
        }
        let vals = if values.contains("..") {
            range(key, values)?
        } else {
            let v: Vec<String> = values.split('|').map(|v| v.trim().to_string()).collect();
            if v.iter().any(String::is_empty) {
                return Err(SpaceError(format!("`{item}`: an empty value")));
            }
            v
        };
        axes.push((key.to_string(), vals));
    }
    let total = axes.iter().try_fold(1usize, |n, (_, v)| n.checked_mul(v.len()).filter(|&n| n <= MAX_VARIANTS));
    if total.is_none() {
        return Err(SpaceError(format!("the space has more than {MAX_VARIANTS} variants")));
    }
    let mut out = vec![String::new()];
    for (key, vals) in &axes {
        let mut next = Vec::with_capacity(out.len() * vals.len());
        for prefix in &out {
            for v in vals {
                let sep = if prefix.is_empty() { "" } else { "," };
                next.push(format!("{prefix}{sep}{key}={v}"));
            }
        }
        out = next;
    }
    Ok(out)
}

/// An Elo-gap target: "agent `a` beats agent `b` by at least `elo` Elo
/// points", per variant, from colour-swapped pairs of `a` against `b`
/// (`a`'s mean score over the pairs against [`super::decide::elo_score`]).
#[derive(Clone, Debug, PartialEq)]
pub struct EloGap {
    /// The stronger agent's spec.
    pub a: String,
    /// The weaker agent's spec.
    pub b: String,
    /// The least gap, in Elo points.
    pub elo: f64,
}

impl EloGap {
    /// Reads `A>B:N` (e.g. `fast>random:100`, `mcts:playouts=400>mcts:playouts=50:200`: the
    /// gap is after the last `:`, the agents either side of the first `>`).
    pub fn parse(text: &str) -> Result<EloGap, SpaceError> {
        let bad = |why: &str| SpaceError(format!("`{text}`: {why} (expected A>B:N, e.g. fast>random:100)"));
        let (pair, n) = text.rsplit_once(':').ok_or_else(|| bad("no `:N`"))?;
        let (a, b) = pair.split_once('>').ok_or_else(|| bad("no `>` between the two agents"))?;
        let (a, b) = (a.trim(), b.trim());
        if a.is_empty() || b.is_empty() {
            return Err(bad("an agent is empty"));
        }
        let elo: f64 = n.trim().parse().map_err(|_| bad(&format!("`{n}` is not a number of Elo points")))?;
        if !(elo.is_finite() && elo.abs() <= 4000.0) {
            return Err(bad("the gap must be a finite number of Elo points, within ±4000"));
        }
        Ok(EloGap { a: a.to_string(), b: b.to_string(), elo })
    }

    /// Its column's name in the outputs: `A>B`.
    pub fn name(&self) -> String {
        format!("{}>{}", self.a, self.b)
    }

    /// Its target's name in the outputs: `elo(A>B)>=N`.
    pub fn target(&self) -> String {
        format!("elo({})>={}", self.name(), self.elo)
    }

    /// The band of `a`'s mean score: from the score of an `elo` lead to 1.
    pub fn band(&self) -> super::decide::Band {
        super::decide::Band { lo: super::decide::elo_score(self.elo), hi: 1.0 }
    }
}

/// Splits `--tiers`' text at the commas that start a new agent (a piece
/// with `=` but no `:`, such as `c=1.4` in `mcts:playouts=100,c=1.4`, is a
/// parameter of the agent before it).
pub fn tiers(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match out.last_mut() {
            Some(last) if piece.contains('=') && !piece.contains(':') && last.contains(':') => {
                last.push(',');
                last.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_the_cross_product() {
        let v = expand("closure=20..40:10,first_mover=red|blue").unwrap();
        assert_eq!(v.len(), 6);
        assert_eq!(v[0], "closure=20,first_mover=red");
        assert_eq!(v[5], "closure=40,first_mover=blue");
        assert_eq!(expand("").unwrap(), vec![String::new()]);
    }

    #[test]
    fn refuses_bad_spaces() {
        for bad in ["closure", "=1", "a=1|", "a=1..5", "a=5..1:1", "a=1..5:0", "a=1,a=2", "a=x..3:1", "a=0..100000:1"] {
            assert!(expand(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn elo_gaps_read() {
        let g = EloGap::parse("mcts:playouts=400>mcts:playouts=50:200").unwrap();
        assert_eq!((g.a.as_str(), g.b.as_str(), g.elo), ("mcts:playouts=400", "mcts:playouts=50", 200.0));
        assert_eq!(g.target(), "elo(mcts:playouts=400>mcts:playouts=50)>=200");
        assert!((g.band().lo - 0.759_746).abs() < 1e-6 && g.band().hi == 1.0);
        for bad in ["fast>random", "fast:100", ">random:100", "fast>:100", "fast>random:x", "fast>random:1e9"] {
            assert!(EloGap::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn tiers_keep_their_parameters() {
        assert_eq!(tiers("learned,mcts:playouts=100,c=1.4,fast"), vec!["learned", "mcts:playouts=100,c=1.4", "fast"]);
    }
}
