//! The proof store of `senat solve --store FILE`: what the exact solver
//! proved about Sénat states, kept in a text file so that a claim once
//! settled replays without a search, and `solve --each-move` reuses each
//! move's fact.
//!
//! A fact is what [`Solver::solve`](game_search::solver::Solver::solve)
//! answered for a state, completed horizons only: a win, loss or draw
//! within `n` plies (the smallest horizon showing it, so the same answer at
//! every horizon from `n` on and "unknown" below it), or "unknown within
//! `h` plies" (the answer at every horizon up to `h`). Facts are keyed by
//! the solver's own key of the state ([`SenatState::key`]: the position, its
//! clock and its repetition history) and carry the position's SPN, which
//! must match too. The file names its format and the variant whose rules
//! the facts hold under; a store of another format or variant is refused.
//!
//! What this module must never do: store a fact from an unfinished horizon,
//! answer for a state it has no fact of, or read or write files itself (the
//! binary reads the text and writes it atomically).
//!
//! The text: a header line `# senat proof store, format 1, variant V`
//! (`V`: `rules` or the variant's `key=value` text), then one fact a line,
//! tab-separated: the key in hex, the fact (`win:N`, `loss:N`, `draw:N`,
//! `unknown:H`), the SPN, and the line (moves separated by spaces, `-`: none).

use crate::games::senat::SenatState;
use game_search::solver::{Solution, Verdict};
use senat_rules::{Move, Position, Variant};
use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

/// The format this module reads and writes.
pub const FORMAT: u32 = 1;

/// Why a text is not a proof store this run can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The first line is not a proof store header (or of another format).
    Header {
        /// The first line as found.
        found: String,
    },
    /// The store holds facts of another variant.
    Variant {
        /// The store's variant, as its header writes it.
        found: String,
        /// This run's variant, written the same way.
        expected: String,
    },
    /// A fact line that does not read.
    Line {
        /// Its line number (1 = the header).
        line: usize,
        /// What is wrong.
        why: String,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Header { found } => {
                write!(f, "not a proof store of format {FORMAT} (first line `{found}`)")
            }
            StoreError::Variant { found, expected } => {
                write!(f, "a proof store of variant {found}, this run is variant {expected}")
            }
            StoreError::Line { line, why } => write!(f, "line {line}: {why}"),
        }
    }
}

impl std::error::Error for StoreError {}

/// One proved fact.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Fact {
    spn: String,
    /// A decided verdict, or `Unknown`.
    verdict: Verdict,
    /// For `Unknown`: the horizon completed.
    horizon: u32,
    pv: Vec<Move>,
}

/// The facts of one variant, by state key.
#[derive(Clone, Debug)]
pub struct ProofStore {
    variant: Variant,
    facts: BTreeMap<u64, Fact>,
    changed: bool,
}

/// How a header writes a variant.
fn variant_name(v: Variant) -> String {
    if v.is_rules() { "rules".to_string() } else { v.to_text() }
}

impl ProofStore {
    /// An empty store for `variant`.
    pub fn new(variant: Variant) -> ProofStore {
        ProofStore { variant, facts: BTreeMap::new(), changed: false }
    }

    /// The store written in `text`, which must be of [`FORMAT`] and of
    /// `variant` (an empty text is an empty store).
    pub fn parse(text: &str, variant: Variant) -> Result<ProofStore, StoreError> {
        if text.is_empty() {
            return Ok(ProofStore::new(variant));
        }
        let mut lines = text.lines();
        let head = lines.next().unwrap_or("");
        let prefix = format!("# senat proof store, format {FORMAT}, variant ");
        let Some(found) = head.strip_prefix(&prefix) else {
            return Err(StoreError::Header { found: head.chars().take(80).collect() });
        };
        let expected = variant_name(variant);
        if found != expected {
            return Err(StoreError::Variant { found: found.to_string(), expected });
        }
        let mut store = ProofStore::new(variant);
        for (i, line) in lines.enumerate() {
            if line.is_empty() {
                continue;
            }
            let bad = |why: String| StoreError::Line { line: i + 2, why };
            let fields: Vec<&str> = line.split('\t').collect();
            let [key, fact, spn, pv] = fields[..] else {
                return Err(bad(format!("expected 4 tab-separated fields, found {}", fields.len())));
            };
            let key = u64::from_str_radix(key, 16).map_err(|e| bad(format!("key `{key}`: {e}")))?;
            let (verdict, horizon) = parse_fact(fact).ok_or_else(|| bad(format!("fact `{fact}`")))?;
            let mut pos = Position::from_spn_in(spn, variant).map_err(|e| bad(format!("position: {e}")))?;
            let mut moves = Vec::new();
            for m in pv.split(' ').filter(|m| *m != "-" && !m.is_empty()) {
                let mv = pos.parse_move(m).map_err(|e| bad(format!("move {m}: {e}")))?;
                pos.play(mv).map_err(|e| bad(format!("move {m}: {e:?}")))?;
                moves.push(mv);
            }
            store.facts.insert(key, Fact { spn: spn.to_string(), verdict, horizon, pv: moves });
        }
        Ok(store)
    }

    /// The store as text (the header, then the facts by key).
    pub fn to_text(&self) -> String {
        let mut out = format!("# senat proof store, format {FORMAT}, variant {}\n", variant_name(self.variant));
        for (key, f) in &self.facts {
            let fact = match f.verdict {
                Verdict::Win(n) => format!("win:{n}"),
                Verdict::Loss(n) => format!("loss:{n}"),
                Verdict::Draw(n) => format!("draw:{n}"),
                Verdict::Unknown => format!("unknown:{}", f.horizon),
            };
            let pv = if f.pv.is_empty() {
                "-".to_string()
            } else {
                f.pv.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
            };
            out.push_str(&format!("{key:016x}\t{fact}\t{}\t{pv}\n", f.spn));
        }
        out
    }

    /// Facts held.
    pub fn len(&self) -> usize {
        self.facts.len()
    }

    /// Whether the store holds no fact.
    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }

    /// Whether [`ProofStore::record`] added or improved a fact since the store was read.
    pub fn changed(&self) -> bool {
        self.changed
    }

    /// What `Solver::solve(s, max_depth)` answers, if a fact settles it:
    /// the verdict and its line, no nodes, no time, depth as the solver's.
    pub fn answer(&self, s: &SenatState, max_depth: u32) -> Option<Solution<Move>> {
        let f = self.facts.get(&s.key()).filter(|f| f.spn == s.position().to_spn())?;
        let found =
            |verdict, pv, depth| Solution { verdict, pv, depth, nodes: 0, elapsed: Duration::ZERO, timed_out: false };
        match f.verdict {
            Verdict::Win(n) | Verdict::Loss(n) | Verdict::Draw(n) if n <= max_depth => {
                Some(found(f.verdict, f.pv.clone(), n))
            }
            // Decided later than the horizon asked: nothing shows within it.
            Verdict::Win(_) | Verdict::Loss(_) | Verdict::Draw(_) => {
                Some(found(Verdict::Unknown, Vec::new(), max_depth))
            }
            Verdict::Unknown if f.horizon >= max_depth => Some(found(Verdict::Unknown, Vec::new(), max_depth)),
            Verdict::Unknown => None,
        }
    }

    /// Keeps what `sol` (the solver's answer for `s`) proved: a decided
    /// verdict, or "unknown" up to the horizon it completed (at most 4 when
    /// a limit stopped it); a fact already held is replaced only by a
    /// stronger one.
    pub fn record(&mut self, s: &SenatState, sol: &Solution<Move>) {
        // A search stopped by its limits looked for a draw at horizons up
        // to 4 only, not at the last it completed.
        let horizon = if sol.timed_out { sol.depth.min(4) } else { sol.depth };
        let verdict = sol.verdict;
        if verdict == Verdict::Unknown && horizon == 0 {
            return;
        }
        let key = s.key();
        let fact = Fact { spn: s.position().to_spn(), verdict, horizon, pv: sol.pv.clone() };
        let stronger = match self.facts.get(&key) {
            None => true,
            Some(old) => old.verdict == Verdict::Unknown && (verdict != Verdict::Unknown || horizon > old.horizon),
        };
        if stronger {
            self.facts.insert(key, fact);
            self.changed = true;
        }
    }
}

/// `win:N`, `loss:N`, `draw:N` or `unknown:H`: the verdict and (for unknown) the horizon.
fn parse_fact(text: &str) -> Option<(Verdict, u32)> {
    let (kind, n) = text.split_once(':')?;
    let n: u32 = n.parse().ok()?;
    match kind {
        "win" => Some((Verdict::Win(n), n)),
        "loss" => Some((Verdict::Loss(n), n)),
        "draw" => Some((Verdict::Draw(n), n)),
        "unknown" => Some((Verdict::Unknown, n)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::senat::Senat;
    use game_search::solver::Solver;

    fn state(spn: &str) -> SenatState {
        SenatState::new(spn.parse().unwrap())
    }

    #[test]
    fn a_fact_round_trips_and_answers_every_horizon() {
        let s = state("4Tb,.,.,.,.,.,.,.,.,.,23Tr/.,.,.,.,.,.,./5Sb,1Cb,.,.,. b I20 3-4-12 1");
        let sol = Solver::<Senat>::new().solve(&s, 5);
        assert_eq!(sol.verdict, Verdict::Win(3));
        let mut store = ProofStore::new(Variant::RULES);
        store.record(&s, &sol);
        assert!(store.changed());
        let again = ProofStore::parse(&store.to_text(), Variant::RULES).unwrap();
        assert_eq!(again.to_text(), store.to_text());
        for d in 1..=8 {
            let fresh = Solver::<Senat>::new().solve(&s, d);
            let kept = again.answer(&s, d).unwrap();
            assert_eq!(kept.verdict, fresh.verdict, "horizon {d}");
            assert_eq!(kept.pv.len(), fresh.pv.len(), "horizon {d}");
        }
        // Another state (the same position, another clock) has no fact.
        let other = state("4Tb,.,.,.,.,.,.,.,.,.,23Tr/.,.,.,.,.,.,./5Sb,1Cb,.,.,. b I20 3-4-12 2");
        assert!(again.answer(&other, 5).is_none());
    }

    #[test]
    fn unknown_answers_up_to_its_horizon_only() {
        let s = state("4Tb,.,.,.,.,.,.,.,.,.,23Tr/.,.,.,.,.,.,./.,.,.,.,. b - 4-4-13 0");
        let sol = Solver::<Senat>::new().solve(&s, 2);
        assert_eq!(sol.verdict, Verdict::Unknown);
        let mut store = ProofStore::new(Variant::RULES);
        store.record(&s, &sol);
        assert_eq!(store.answer(&s, 2).map(|a| a.verdict), Some(Verdict::Unknown));
        assert_eq!(store.answer(&s, 1).map(|a| a.verdict), Some(Verdict::Unknown));
        assert!(store.answer(&s, 3).is_none());
    }

    #[test]
    fn other_formats_and_variants_are_refused() {
        let v = Variant::parse("closure=40").unwrap();
        let text = ProofStore::new(v).to_text();
        let err = ProofStore::parse(&text, Variant::RULES).unwrap_err();
        assert_eq!(err.to_string(), "a proof store of variant closure=40, this run is variant rules");
        assert!(matches!(ProofStore::parse("key,fact\n", v), Err(StoreError::Header { .. })));
        assert!(matches!(
            ProofStore::parse("# senat proof store, format 2, variant rules\n", Variant::RULES),
            Err(StoreError::Header { .. })
        ));
        let bad = "# senat proof store, format 1, variant rules\n00ff\twin:x\tspn\t-\n";
        assert!(matches!(ProofStore::parse(bad, Variant::RULES), Err(StoreError::Line { line: 2, .. })));
    }
}
