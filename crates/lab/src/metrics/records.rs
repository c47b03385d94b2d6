//! The other games' records for [`super`]: the moves file of a
//! `senat selfplay --game G --moves M.csv` batch (Focus, 4-player Focus,
//! Débâcle, dominoes), each game replayed from the start of the batch's
//! variant through its rules, and measured through [`Measured`], which each
//! game implements in its own module of [`crate::games`].
//!
//! Why the moves file: a games file of these games holds each game's
//! result and final position but not its moves, and the evaluated metrics
//! need every position. The moves file starts with the same identity line
//! (game, variant, seed, agents) and holds `game,moves` rows, one per game,
//! its moves (for dominoes the deals and draws too) separated by spaces. The
//! result of each game is the rules' own at the end of its replay.
//!
//! What this module must never do: know a game's rules (it goes through
//! [`Measured`]), read a file (its caller hands it a reader), or print.

use super::{MAX_SIDES, MetricsError, MoveProblem, Profile, ReplayError, ReplayProblem, Trace, Values};
use crate::games::GameKind;
use crate::games::batch::parse_identity;
use std::io::{BufRead, BufReader, Read};

/// What the metrics need of a game whose moves file they read: (a) its
/// replay (start, move reading, playing), (b) the legal-move count of each
/// position (BranchingFactor), (c) a state evaluation as a win probability
/// for each side, (d) its end reasons, in its [`Profile`].
pub trait Measured {
    /// A position.
    type State: Clone;
    /// A move (a decision, or a chance outcome where the game has chance).
    type Move: Copy;
    /// The start of a batch of `variant` (the full variant text of the
    /// identity line, `""` for the default).
    fn measured_start(variant: &str) -> Result<Self::State, String>;
    /// The sides, end reasons and definitions of the game started by `start`.
    fn profile(start: &Self::State) -> Profile;
    /// The side (team, or player each for himself) that decides at `s`;
    /// `None` at a chance node (dominoes' deals and draws), which is neither
    /// evaluated nor counted.
    fn decider(s: &Self::State) -> Option<usize>;
    /// Reads a move that is legal at `s` (a decision or a chance outcome),
    /// or says why not in the rules' words.
    fn read_move(s: &Self::State, text: &str) -> Result<Self::Move, String>;
    /// Plays a move read by [`Measured::read_move`].
    fn play(s: &mut Self::State, m: Self::Move);
    /// The number of legal decisions at a decision position.
    fn legal_count(s: &Self::State) -> usize;
    /// Every side's win probability at a decision position (a draw
    /// counting as the game's scores count it).
    fn values(s: &Self::State) -> Values;
    /// At the end of the game: the winning side (`None`: a draw) and the
    /// index of the end reason in the [`Profile`]; `None` while it goes on.
    fn end(s: &Self::State) -> Option<(Option<usize>, usize)>;
}

/// The identity line of a moves file, as it matters here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The game.
    pub game: GameKind,
    /// The full variant text (`""` for the default).
    pub variant: String,
    /// The matchup: `first vs second` (team 0's agent, team 1's).
    pub label: String,
}

/// One row of a moves file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovesRow {
    /// The row's line in the file (1-based).
    pub line: u64,
    /// The game index (column `game`).
    pub game: u64,
    /// The moves, separated by spaces.
    pub moves: String,
}

/// A moves file opened: its identity, then its rows one at a time.
pub struct MovesFile<R> {
    /// The identity line's game, variant and matchup.
    pub identity: Identity,
    rdr: csv::Reader<BufReader<R>>,
    rec: csv::StringRecord,
}

/// The error of the file as a whole (line 0) or of one line.
fn at(line: u64, message: impl Into<String>) -> MetricsError {
    MetricsError::Records { line, message: message.into() }
}

impl<R: Read> MovesFile<R> {
    /// Reads the identity line and the header. A games file of these games
    /// is refused, saying that its moves are in the batch's moves file.
    pub fn new(reader: R) -> Result<MovesFile<R>, MetricsError> {
        let mut r = BufReader::new(reader);
        let mut first = Vec::new();
        r.by_ref().take(1 << 16).read_until(b'\n', &mut first).map_err(|e| at(1, e.to_string()))?;
        let line = std::str::from_utf8(&first).map_err(|_| at(1, "the identity line is not UTF-8"))?;
        let not_batch = || {
            at(
                1,
                "not a moves file of `senat selfplay --game G --moves M.csv`: its first line is not a \
                 `# senat-batch v2` identity",
            )
        };
        if !line.ends_with('\n') {
            return Err(not_batch());
        }
        let fields = parse_identity(line).map_err(|_| not_batch())?;
        let get = |k: &str| fields.iter().find(|(key, _)| key == k).map_or("", |(_, v)| v.as_str());
        let game = GameKind::parse(get("game")).map_err(|e| at(1, e.to_string()))?;
        let variant = match get("variant") {
            "-" => String::new(),
            v => v.to_string(),
        };
        let identity = Identity { game, variant, label: format!("{} vs {}", get("first"), get("second")) };
        let mut rdr = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(r);
        let mut rec = csv::StringRecord::new();
        let has = rdr.read_record(&mut rec).map_err(|e| at(2, e.to_string()))?;
        let head: Vec<&str> = if has { rec.iter().collect() } else { Vec::new() };
        if head != ["game", "moves"] {
            let games_file = head.len() > 2 && head[0] == "game" && (head[1] == "game_seed" || head[1] == "seed");
            return Err(if games_file {
                at(
                    0,
                    format!(
                        "this is the games file of a `selfplay --game {game}` batch, which holds no moves; the \
                         metrics replay the moves: give the batch's moves file (written by `selfplay --game \
                         {game} ... --moves M.csv`)"
                    ),
                )
            } else {
                at(2, format!("not a moves file: its header is `{}`, not `game,moves`", head.join(",")))
            });
        }
        Ok(MovesFile { identity, rdr, rec })
    }

    /// The next row, `None` at the end of the file.
    pub fn next_row(&mut self) -> Option<Result<MovesRow, MetricsError>> {
        let rec = &mut self.rec;
        match self.rdr.read_record(rec) {
            Err(e) => Some(Err(at(e.position().map_or(0, |p| p.line() + 1), e.to_string()))),
            Ok(false) => None,
            Ok(true) => {
                // Line numbers of the csv reader start after the identity line.
                let line = rec.position().map_or(0, |p| p.line() + 1);
                if rec.len() != 2 {
                    return Some(Err(at(line, format!("{} fields, expected 2 (game,moves)", rec.len()))));
                }
                let Ok(game) = rec[0].parse::<u64>() else {
                    return Some(Err(at(line, format!("bad game index `{}`", &rec[0]))));
                };
                Some(Ok(MovesRow { line, game, moves: rec[1].to_string() }))
            }
        }
    }
}

/// A state evaluation other than the game's own ([`Measured::values`]):
/// each side's win probability at a decision position, and its words for
/// the definitions ([`super::Profile::value_by`]).
pub struct Valuation<'a, S> {
    /// Every side's win probability at a decision position.
    pub of: Box<dyn Fn(&S) -> Values + 'a>,
    /// What it is, in words.
    pub words: String,
}

/// Replays `row` from `start` into `trace` (its buffers reused): every
/// move checked by the rules, the values (by `by`, else the game's own)
/// and the legal-move count of each decision position read before its
/// move, the game's end its rules'.
pub fn replay_moves<G: Measured>(
    start: &G::State,
    row: &MovesRow,
    trace: &mut Trace,
    by: Option<&Valuation<'_, G::State>>,
) -> Result<(), ReplayError> {
    let values = |s: &G::State| by.map_or_else(|| G::values(s), |v| (v.of)(s));
    let fail = |problem: ReplayProblem| ReplayError { line: row.line, game: row.game, problem };
    let mut s = start.clone();
    trace.values.clear();
    trace.legal_sum = 0;
    trace.spike = false;
    let mut first = None;
    for (i, token) in row.moves.split(' ').filter(|t| !t.is_empty()).enumerate() {
        let bad = |problem: MoveProblem| {
            fail(ReplayProblem::Move { column: "moves", number: i + 1, token: token.to_string(), problem })
        };
        if let Some(end) = G::end(&s) {
            return Err(bad(MoveProblem::Over(end_text::<G>(start, end))));
        }
        let m = G::read_move(&s, token).map_err(|e| bad(MoveProblem::Rules(e)))?;
        if let Some(side) = G::decider(&s) {
            first.get_or_insert(side);
            trace.values.push(values(&s));
            trace.legal_sum += G::legal_count(&s) as u64;
        }
        G::play(&mut s, m);
    }
    let (winner, reason) = G::end(&s).ok_or_else(|| fail(ReplayProblem::NotOver))?;
    trace.first = first.or_else(|| G::decider(&s)).unwrap_or(0);
    trace.winner = winner;
    trace.reason = reason;
    // The number of sides, from the game's own evaluation (defined at the end).
    trace.sides = G::values(&s).sides().min(MAX_SIDES);
    Ok(())
}

/// The end of a game in words: `side 1 won by no-move`, `a draw by cap`.
fn end_text<G: Measured>(start: &G::State, (winner, reason): (Option<usize>, usize)) -> String {
    let p = G::profile(start);
    let why = p.reasons.get(reason).map_or("?", |r| r.name);
    match winner {
        Some(w) => format!("side {w} won by {why}"),
        None => format!("a draw by {why}"),
    }
}

/// The metrics of the games of a moves file of game `G`, each replayed
/// from the start of the file's variant and valued by `by` (else by the
/// game's own evaluation); stops at the first row that does not read or
/// replay, or at a row of another game index than the next.
pub fn metrics_of_moves<G: Measured, R: Read>(
    file: &mut MovesFile<R>,
    by: Option<&Valuation<'_, G::State>>,
) -> Result<super::Metrics, MetricsError> {
    let start = G::measured_start(&file.identity.variant).map_err(|e| at(1, e))?;
    let mut profile = G::profile(&start);
    if let Some(v) = by {
        profile.value_by(&v.words);
    }
    let mut m = super::Metrics::new(profile);
    let mut trace = Trace::new();
    let label = file.identity.label.clone();
    let mut expected: Option<u64> = None;
    while let Some(row) = file.next_row() {
        let row = row?;
        if let Some(e) = expected
            && row.game != e
        {
            return Err(at(row.line, format!("expected game {e}, found game {} (rows out of order)", row.game)));
        }
        expected = Some(row.game + 1);
        replay_moves::<G>(&start, &row, &mut trace, by).map_err(MetricsError::Replay)?;
        m.add(&label, &trace);
    }
    if m.games == 0 {
        return Err(at(0, "no games: the moves file has no rows"));
    }
    Ok(m)
}

/// Each team's win probability at `s` by a [`crate::games::LabGame`]'s
/// own evaluation (the alpha-beta agents'), through the fixed logistic of
/// its fitted scale ([`crate::games::LabGame::eval_scale`],
/// [`crate::winprob::WinChance::from_score`]): `1 / (1 + e^(−score/scale))`
/// for the team of a player, side `t` being team `t`.
pub fn lab_values<G: crate::games::LabGame>(s: &G::State) -> Values {
    // The formula of `WinChance::from_score` for a static score (never a proved one).
    team_values::<G>(s, |p| 1.0 / (1.0 + (-f64::from(G::evaluate(s, p)) / G::eval_scale(s)).exp()))
}

/// Each team's value at `s`: `value(p)` of its first player `p`, side `t`
/// being team `t` (at least two sides, at most [`MAX_SIDES`]).
fn team_values<G: crate::games::LabGame>(s: &G::State, value: impl Fn(usize) -> f64) -> Values {
    let players = G::players(s);
    let mut v = [0.5; MAX_SIDES];
    let teams = (0..players).map(|p| G::team(s, p)).max().map_or(1, |t| t + 1).clamp(2, MAX_SIDES);
    for (t, x) in v.iter_mut().enumerate().take(teams) {
        if let Some(p) = (0..players).find(|&p| G::team(s, p) == t) {
            *x = value(p);
        }
    }
    Values::new(&v[..teams])
}

/// Each team's win probability at the non-terminal state `s` by the
/// learned evaluation `w` of [`crate::games::LabGame`] `G` (its linear part
/// and network, [`crate::games::learn::GameWeights::values`] at the file's
/// own scale), side `t` being team `t`.
pub fn learned_values<G: crate::games::LabGame>(w: &crate::games::learn::GameWeights, s: &G::State) -> Values {
    let each = w.values::<G>(s, crate::games::LEARNED_SCALE);
    team_values::<G>(s, |p| each[p])
}

#[cfg(test)]
mod tests {
    use super::super::{GameWords, MetricRow, Metrics, Profile, Reason};
    use super::*;

    /// A toy race for the tests: the side to move adds 1, 2 or 3 (`+N`) to
    /// its score; a score of 3 wins (reason 0), 4 plies without a winner
    /// draw (reason 1, a timeout). Side 0's value is `0.5 + (s0 − s1)/8`:
    /// exact in binary, so the expected metrics are exact.
    struct Race;

    #[derive(Clone, Copy)]
    struct RaceState {
        ply: u8,
        score: [i32; 2],
    }

    impl Measured for Race {
        type State = RaceState;
        type Move = i32;
        fn measured_start(variant: &str) -> Result<RaceState, String> {
            if variant.is_empty() { Ok(RaceState { ply: 0, score: [0, 0] }) } else { Err("no variants".into()) }
        }
        fn profile(_: &RaceState) -> Profile {
            let r = |name, timeout| Reason { name, timeout, share: format!("ended by {name}") };
            let w = GameWords {
                first: "side 0".into(),
                unit: "plies",
                plies: "all".into(),
                eval: "the score difference".into(),
                branching: "3".into(),
            };
            Profile::other(2, vec![r("three", false), r("cap", true)], &w)
        }
        fn decider(s: &RaceState) -> Option<usize> {
            Some(usize::from(s.ply % 2))
        }
        fn read_move(_: &RaceState, text: &str) -> Result<i32, String> {
            match text.strip_prefix('+').and_then(|n| n.parse().ok()) {
                Some(n @ 1..=3) => Ok(n),
                _ => Err(format!("illegal move `{text}`")),
            }
        }
        fn play(s: &mut RaceState, m: i32) {
            s.score[usize::from(s.ply % 2)] += m;
            s.ply += 1;
        }
        fn legal_count(_: &RaceState) -> usize {
            3
        }
        fn values(s: &RaceState) -> Values {
            let v = 0.5 + f64::from(s.score[0] - s.score[1]) / 8.0;
            Values::new(&[v, 1.0 - v])
        }
        fn end(s: &RaceState) -> Option<(Option<usize>, usize)> {
            match s.score.iter().position(|&x| x >= 3) {
                Some(w) => Some((Some(w), 0)),
                None => (s.ply >= 4).then_some((None, 1)),
            }
        }
    }

    const ID: &str =
        "# senat-batch v2 game=focus variant=- seed=1 games=3 shard=1/1 range=0..3 book=0 first=a second=b\n";

    fn measure(text: &str) -> Result<Metrics, MetricsError> {
        let mut f = MovesFile::new(text.as_bytes())?;
        metrics_of_moves::<Race, _>(&mut f, None)
    }

    fn row<'a>(rows: &'a [MetricRow], name: &str) -> &'a MetricRow {
        rows.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no row {name}"))
    }

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-12)
    }

    #[test]
    fn a_hand_made_file_gives_the_metrics_worked_out_by_hand() {
        // Game 0: values (side 0) .5, .625, .375; side 0 wins on its second move.
        // Game 1: one ply at .5; side 0 wins at once.
        // Game 2: .5, .625, .5, .625, then the cap: a draw, a timeout.
        let text = format!("{ID}game,moves\n0,+1 +2 +2\n1,+3\n2,+1 +1 +1 +1\n");
        let m = measure(&text).unwrap();
        assert_eq!((m.games, m.first_wins, m.second_wins, m.draws), (3, 2, 0, 1));
        assert_eq!(m.keys, ["a vs b"]);
        let rows = m.rows();
        assert!(close(row(&rows, "AdvantageP1").value, 2.5 / 3.0));
        // The timeout's draw counts neither as a completion nor as drawish (Ludii's rule).
        assert!(close(row(&rows, "Completion").value, 2.0 / 3.0));
        assert!(close(row(&rows, "Drawishness").value, 0.0));
        assert!(close(row(&rows, "Timeouts").value, 1.0 / 3.0));
        assert!(close(row(&rows, "Share.cap").value, 1.0 / 3.0));
        assert!(close(row(&rows, "Duration").value, 8.0 / 3.0));
        assert!(close(row(&rows, "Duration.cap").value, 4.0));
        // Leaders: game 0 both, 0, 1 (2 changes in 2); game 2 both, 0, both, 0 (3 in 3); game 1 too short.
        let lc = row(&rows, "LeadChange");
        assert!(close(lc.value, 1.0) && lc.games == 2, "{lc:?}");
        // Drama: game 0 falls .25 below the leader at its third ply ((0 + 0 + .25)/3), game 1 none.
        let d = row(&rows, "Drama");
        assert!(close(d.value, (0.25 / 3.0) / 2.0) && d.games == 2, "{d:?}");
        assert!(close(row(&rows, "Drama.max").value, 0.125));
        // Decisiveness: in neither won game does side 0 pass side 1's best (.625, .5): 1 each.
        assert!(close(row(&rows, "DecisivenessMoves").value, 1.0));
        assert!(close(row(&rows, "BranchingFactor").value, 3.0));
        // Every row has its definition, and each mean and share its interval.
        for r in &rows {
            assert!(!r.definition.is_empty(), "{}", r.name);
        }
        assert!(row(&rows, "AdvantageP1").interval.is_some());
        assert!(row(&rows, "LeadChange").interval.is_some());
    }

    #[test]
    fn another_valuation_moves_only_the_evaluated_metrics_and_names_itself() {
        // Side 1 always leads by a fixed margin: no lead changes, and in game 0
        // (side 0 wins) the winner is .25 below the leader at every ply.
        let text = format!("{ID}game,moves\n0,+1 +2 +2\n1,+3\n2,+1 +1 +1 +1\n");
        let by = Valuation::<RaceState> { of: Box::new(|_| Values::new(&[0.375, 0.625])), words: "a constant".into() };
        let own = measure(&text).unwrap().rows();
        let mut f = MovesFile::new(text.as_bytes()).unwrap();
        let rows = metrics_of_moves::<Race, _>(&mut f, Some(&by)).unwrap().rows();
        assert!(close(row(&rows, "LeadChange").value, 0.0));
        assert!(close(row(&rows, "Drama").value, 0.25) && close(row(&rows, "Drama.max").value, 0.25));
        for (a, b) in own.iter().zip(&rows) {
            if ["DecisivenessMoves", "LeadChange", "Drama", "Drama.max"].contains(&a.name.as_str()) {
                assert!(!a.definition.contains("a constant"), "{}", a.definition);
                assert!(b.definition.contains("Values: a constant") && !b.definition.contains("score difference"));
            } else {
                assert_eq!(a, b, "{}", a.name);
            }
        }
    }

    #[test]
    fn replay_reads_the_deciders_values_and_legal_counts() {
        let start = Race::measured_start("").unwrap();
        let mut t = Trace::new();
        replay_moves::<Race>(&start, &MovesRow { line: 3, game: 0, moves: "+1 +2 +2".into() }, &mut t, None).unwrap();
        let side0: Vec<f64> = t.values.iter().map(|v| v.side(0)).collect();
        assert_eq!(side0, [0.5, 0.625, 0.375]);
        assert_eq!((t.first, t.winner, t.reason, t.legal_sum), (0, Some(0), 0, 9));
    }

    #[test]
    fn bad_files_are_one_located_error() {
        let err = |text: String| measure(&text).unwrap_err().to_string();
        // An illegal move, named with its number.
        let e = err(format!("{ID}game,moves\n0,+1 +2 +2\n1,+1 +9\n"));
        assert_eq!(e, "line 4: game 1: moves: move 2 `+9`: illegal move `+9`");
        // A game cut short (a truncated file).
        let e = err(format!("{ID}game,moves\n0,+1 +2 +2\n1,+1 +"));
        assert!(e.starts_with("line 4: game 1: moves: move 2 `+`"), "{e}");
        let e = err(format!("{ID}game,moves\n0,+1 +2\n"));
        assert_eq!(e, "line 3: game 0: the game is not over after its last move");
        // A move after the end.
        let e = err(format!("{ID}game,moves\n0,+3 +1\n"));
        assert_eq!(e, "line 3: game 0: moves: move 2 `+1`: the game is already over (side 0 won by three)");
        // Rows out of order, a bad index, a wrong field count.
        let e = err(format!("{ID}game,moves\n0,+3\n2,+3\n"));
        assert!(e.contains("line 4: expected game 1, found game 2"), "{e}");
        let e = err(format!("{ID}game,moves\nx,+3\n"));
        assert!(e.contains("line 3: bad game index `x`"), "{e}");
        let e = err(format!("{ID}game,moves\n0,+3,9\n"));
        assert!(e.contains("line 3: 3 fields"), "{e}");
        // A games file, a Sénat file, a file without rows, a variant the game refuses.
        let e = err(format!("{ID}game,game_seed,first,second,winner,plies,final\n0,1,a,b,first,3,x\n"));
        assert!(e.contains("holds no moves") && e.contains("--moves M.csv"), "{e}");
        let e = err("game,red\n1,2\n".into());
        assert!(e.contains("not a moves file"), "{e}");
        let e = err(format!("{ID}game,moves\n"));
        assert!(e.contains("no games"), "{e}");
        let e = err(ID.replace("variant=-", "variant=x=1") + "game,moves\n0,+3\n");
        assert!(e.contains("no variants"), "{e}");
    }
}
