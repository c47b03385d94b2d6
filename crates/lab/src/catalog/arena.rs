//! `senat arena` and `senat.arena()` as one library function: an
//! [`ArenaPlan`] (the texts the user gave) read into the one arena of its
//! game ([`crate::arena::Arena`] over the game's [`Contest`]), which is
//! handed to the caller's [`WithArena`] to play and print. The binary and
//! Python call this and only parse arguments and show results.
//!
//! What this module must never do: print, write a file, or play.

use super::CatalogError;
use crate::arena::{Arena, Contest, Schedule};
use crate::games::GameKind;
use crate::games::arena::{DEFAULT_BOOK, LabContest};
use crate::games::dominoes::DominoSpec;
use crate::games::dominoes_arena::DominoContest;
use crate::games::senat_arena::SenatContest;
use crate::policy::PolicySpec;
use crate::rating::Sprt;

/// An arena as the user asked for it, every text still unread.
pub struct ArenaPlan<'a> {
    /// The game.
    pub game: GameKind,
    /// The user's variant text (dominoes: with `players=` joined in), as
    /// [`super::Position::read`] reads it.
    pub variant: &'a str,
    /// The agents' specs (at least two).
    pub agents: &'a [String],
    /// Games per pairing: an even number ≥ 2.
    pub games: u64,
    /// Seed: pair `k` of every pairing uses game seed `(seed, k)`.
    pub seed: u64,
    /// Who meets whom.
    pub schedule: Schedule,
    /// Stop a two-agent match when this test decides (its text,
    /// [`Sprt::parse`]).
    pub sprt: Option<&'a str>,
    /// Shared random plies at the start of each pair (default 0 for Sénat,
    /// [`DEFAULT_BOOK`] for the lab games; refused for dominoes).
    pub book: Option<u32>,
    /// Sénat's draft policy of both sides, or `own`; `random` (the
    /// default) for every other game, which has no draft.
    pub draft: &'a str,
    /// Milliseconds per move for every searching agent.
    pub time_per_move: Option<u64>,
    /// Dominoes: both matches of a pair share their deals.
    pub duplicate: bool,
    /// Keep every game's moves for a moves file.
    pub moves: bool,
    /// How a message names option `what` (`draft`, `no-duplicate`,
    /// `book-plies`, `time-per-move`) or agent `agent N`: `--draft`, `--agent 1` on the command line.
    pub label: &'a dyn Fn(&str) -> String,
}

/// What the caller is told beside the arena: a line to print before the
/// table, what a game is called (`games`, `matches`), the end of the
/// "played" line, and the `--game` of a `senat view` hint (`None`: Sénat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct About {
    /// The line before the table (`# focus arena: …`).
    pub banner: Option<String>,
    /// `games` or `matches`.
    pub unit: &'static str,
    /// The end of the "played N games in S s on T threads" line.
    pub tail: String,
    /// The game of the `senat view --game G` hint (`None` for Sénat).
    pub view_game: Option<String>,
}

/// What the caller does with the arena of whichever game.
pub trait WithArena {
    /// What it returns.
    type Output;
    /// Plays (or inspects) `arena`.
    fn with<C: Contest + 'static>(self, arena: Arena<C>, about: About) -> Self::Output;
}

fn refused(m: impl Into<String>) -> CatalogError {
    CatalogError::Refused(m.into())
}

/// Reads `plan` into its game's arena and hands it to `w`; refuses, in
/// the order the command line always did, what does not read.
pub fn arena<W: WithArena>(plan: &ArenaPlan, w: W) -> Result<W::Output, CatalogError> {
    let l = plan.label;
    let pairs = |unit: &str| {
        if plan.games == 0 || plan.games % 2 == 1 {
            return Err(refused(format!(
                "{} {}: give an even number ≥ 2 ({unit} are played in pairs)",
                l("games"),
                plan.games
            )));
        }
        Ok(plan.games / 2)
    };
    let agent = |i: usize| l(&format!("agent {}", i + 1));
    let schedule = plan.schedule;
    let seed = plan.seed;
    let sprt = || plan.sprt.map(|t| Sprt::parse(t).map_err(|e| refused(format!("{} {t}: {e}", l("sprt"))))).transpose();
    let movetime = || {
        plan.time_per_move
            .map(|ms| crate::limits::movetime_ms(&l("time-per-move"), ms))
            .transpose()
            .map_err(|e| refused(e.to_string()))
    };
    match plan.game {
        GameKind::Senat => {
            if !plan.duplicate {
                return Err(refused(format!("{} is for --game dominoes", l("no-duplicate"))));
            }
            let variant =
                senat_rules::Variant::parse(plan.variant).map_err(|e| refused(format!("{}: {e}", l("variant"))))?;
            let pairs = pairs("games")?;
            let ms = movetime()?;
            let policy = |label: String, t: &str| {
                let p = PolicySpec::parse(t).map_err(|e| refused(format!("{label}: {e}")))?;
                Ok::<_, CatalogError>(ms.map_or(p.clone(), |ms| p.with_movetime(ms)))
            };
            let agents =
                plan.agents.iter().enumerate().map(|(i, t)| policy(agent(i), t)).collect::<Result<Vec<_>, _>>()?;
            let draft = if plan.draft == "own" { None } else { Some(policy(l("draft"), plan.draft)?) };
            let sprt = sprt()?;
            let book = plan.book.unwrap_or(0);
            let timing = ms.map_or(String::new(), |ms| format!("; {ms} ms per move for searching agents"));
            let about = About {
                banner: None,
                unit: "games",
                tail: format!(" (draft: {}{timing})", plan.draft),
                view_game: None,
            };
            let game = SenatContest { draft, book, variant };
            Ok(w.with(Arena { game, agents, pairs, seed, schedule, sprt }, about))
        }
        game => {
            if plan.draft != "random" {
                return Err(refused(format!(
                    "{} is for Sénat (its placement phase); --game {game} has no draft",
                    l("draft")
                )));
            }
            if game == GameKind::Dominoes {
                return domino_arena(plan, w, pairs("matches"), sprt);
            }
            if !plan.duplicate {
                return Err(refused(format!("{} is for --game dominoes", l("no-duplicate"))));
            }
            let pairs = pairs("games")?;
            let ms = movetime()?;
            let agents = plan
                .agents
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let a =
                        crate::games::agent::AgentSpec::parse(t).map_err(|e| refused(format!("{}: {e}", agent(i))))?;
                    Ok(ms.map_or(a, |ms| a.with_movetime(ms)))
                })
                .collect::<Result<Vec<_>, CatalogError>>()?;
            let sprt = sprt()?;
            crate::on_game!(game, G => {
                for (i, spec) in agents.iter().enumerate() {
                    spec.fits::<G>().map_err(|e| refused(format!("{}: agent `{spec}`: {e}", agent(i))))?;
                }
                let book = plan.book.unwrap_or(DEFAULT_BOOK);
                let contest = LabContest::<G>::new(game, &game.variant(plan.variant), book, plan.moves)?;
                let banner = format!("# {game} arena: {pairs} pairs per pairing, book {book} plies, seed {seed}");
                let about =
                    About { banner: Some(banner), unit: "games", tail: String::new(), view_game: Some(game.to_string()) };
                Ok(w.with(Arena { game: contest, agents, pairs, seed, schedule, sprt }, about))
            })
        }
    }
}

/// The dominoes arena of `plan`: duplicate deals unless asked otherwise.
fn domino_arena<W: WithArena>(
    plan: &ArenaPlan,
    w: W,
    pairs: Result<u64, CatalogError>,
    sprt: impl Fn() -> Result<Option<Sprt>, CatalogError>,
) -> Result<W::Output, CatalogError> {
    let l = plan.label;
    if plan.time_per_move.is_some() {
        return Err(refused(format!(
            "{} is not for --game dominoes: its agents (pimc, ismcts) search a number of playouts, not a time",
            l("time-per-move")
        )));
    }
    if plan.book.is_some() {
        return Err(refused(format!("{} is not for dominoes (every deal is already random)", l("book-plies"))));
    }
    let pairs = pairs?;
    let variant = dominoes_rules::Variant::parse(plan.variant)
        .map_err(|e| refused(format!("variant `{}`: {e}", plan.variant)))?;
    let agents = plan
        .agents
        .iter()
        .enumerate()
        .map(|(i, t)| DominoSpec::parse(t).map_err(|e| refused(format!("{}: {e}", l(&format!("agent {}", i + 1))))))
        .collect::<Result<Vec<_>, _>>()?;
    let sprt = sprt()?;
    let deals = if plan.duplicate { "duplicate" } else { "independent" };
    let banner = format!(
        "# dominoes arena, {} players, {pairs} pairs per pairing, {deals} deals, seed {}",
        variant.players, plan.seed
    );
    let about =
        About { banner: Some(banner), unit: "matches", tail: String::new(), view_game: Some("dominoes".into()) };
    let game = DominoContest { variant, duplicate: plan.duplicate, moves: plan.moves };
    Ok(w.with(Arena { game, agents, pairs, seed: plan.seed, schedule: plan.schedule, sprt }, about))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays the arena and returns its games, the first pairing's score
    /// and the summary's width against its header's.
    struct Play;

    impl WithArena for Play {
        type Output = (u64, usize, usize);
        fn with<C: Contest>(self, a: Arena<C>, about: About) -> Self::Output {
            assert!(about.unit == "games" || about.unit == "matches");
            let r = a.run(1, &|_| {}, |_| Ok(())).unwrap();
            (r[0].count.wdl.games(), a.summary_row(&r[0]).len(), a.summary_header().len())
        }
    }

    fn plan<'a>(game: GameKind, agents: &'a [String], label: &'a dyn Fn(&str) -> String) -> ArenaPlan<'a> {
        ArenaPlan {
            game,
            variant: "",
            agents,
            games: 2,
            seed: 1,
            schedule: Schedule::RoundRobin,
            sprt: None,
            book: None,
            draft: "random",
            time_per_move: None,
            duplicate: true,
            moves: false,
            label,
        }
    }

    #[test]
    fn every_game_has_an_arena_from_the_same_plan() {
        let agents = ["random".to_string(), "random".to_string()];
        let label = |w: &str| format!("--{w}");
        for game in GameKind::ALL {
            let (games, row, header) = arena(&plan(game, &agents, &label), Play).unwrap();
            assert_eq!((games, row), (2, header), "{game}");
        }
    }

    #[test]
    fn refusals_name_the_callers_option() {
        let agents = ["random".to_string(), "nobody".to_string()];
        let label = |w: &str| w.replace('-', "_");
        let e = |p: &ArenaPlan| arena(p, Play).map(|_| ()).unwrap_err().to_string();
        assert!(e(&plan(GameKind::Focus, &agents, &label)).starts_with("agent 2: "));
        let ok = ["random".to_string(), "random".to_string()];
        let odd = ArenaPlan { games: 3, ..plan(GameKind::Senat, &ok, &label) };
        assert!(e(&odd).starts_with("games 3: give an even number"), "{}", e(&odd));
        let book = ArenaPlan { book: Some(2), ..plan(GameKind::Dominoes, &ok, &label) };
        assert!(e(&book).starts_with("book_plies is not for dominoes"));
        let draft = ArenaPlan { draft: "own", ..plan(GameKind::Debacle, &ok, &label) };
        assert!(e(&draft).starts_with("draft is for Sénat"));
        let sprt = ArenaPlan { sprt: Some("x"), ..plan(GameKind::Connect4, &ok, &label) };
        assert!(e(&sprt).starts_with("sprt x: "), "{}", e(&sprt));
    }
}
