//! `senat annotate`: a game record with one agent's opinion of every ply
//! as `#` comments (still a record `senat replay` reads): the win
//! probability of the side to move on the lab's one scale
//! (`senat_lab::winprob`), the agent's best move and line, and a mark
//! where the move played lost at least an inaccuracy's worth. Sénat, Focus
//! (2 and 4 players), Débâcle and dominoes; a record file or, with
//! `--index`, a game of a batch file. This module prints; the
//! agents and the scale come from the lab.

use crate::cli::common::{
    IndexedRecord, RecordText, Result, indexed_game, input, play_record, policy, progress_bar, read_record,
    refuse_existing, shell_word, threads_or_all, write_atomic,
};
use crate::cli::game::{self, GameArg, on_game};
use clap::Args;
use rayon::prelude::*;
use senat_lab::accuracy::{AccuracyTally, JudgedMove};
use senat_lab::catalog::files::{self, IndexedGame};
use senat_lab::games::agent::AgentSpec;
use senat_lab::games::dominoes::DominoSpec;
use senat_lab::games::{GameKind, LabGame};
use senat_lab::policy::{PolicySpec, Turn, rng_from_seed};
use senat_lab::selfplay::game_seed;
use senat_lab::winprob::{BLUNDER, INACCURACY, MISTAKE, Mark, Proved, WinChance, judge};
use senat_rules::{GameRecord, Move, Variant as SenatVariant};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `senat annotate`.
#[derive(Args, Debug)]
pub(crate) struct AnnotateArgs {
    /// The game record (as `senat replay` reads it), or with --index or
    /// --all a batch file: a games or moves file of `senat selfplay` (any
    /// game) or an arena's moves file.
    #[arg(value_name = "RECORD")]
    pub(crate) record: PathBuf,
    /// Annotate game N of a batch file (its `game` column); the game and
    /// the variant are the file's (its identity line). Which file holds the
    /// games of each game: docs/formats.md, "Which file holds a game".
    #[arg(long, value_name = "N", conflicts_with = "all")]
    pub(crate) index: Option<u64>,
    /// The agent whose opinion is written (a spec or a named agent that
    /// searches: `mcts:…`, `ab:…`, `top`, `sharp`, `strong`); its move
    /// temperature is turned off, so every best move is its best.
    #[arg(long, value_name = "SPEC")]
    pub(crate) agent: String,
    #[command(flatten)]
    pub(crate) game: GameArg,
    /// The seed of the agent's random choices (MCTS playouts); with --all,
    /// game N's agent is seeded by the batch rule from (this seed, N).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Write the annotated record here (atomically) instead of stdout.
    #[arg(long, value_name = "FILE", conflicts_with = "all")]
    pub(crate) out: Option<PathBuf>,
    /// Overwrite an existing --out or --summary file.
    #[arg(long)]
    pub(crate) force: bool,
    #[command(flatten)]
    pub(crate) batch: AllArgs,
}

/// `senat annotate FILE --all`: every game of a batch file.
#[derive(Args, Debug, Default)]
pub(crate) struct AllArgs {
    /// Annotate every game of the batch file RECORD, several at once, and
    /// print the accuracy of every seat and agent: moves judged, mean loss
    /// of win probability per move and blunders per 100 moves (each with a
    /// 95% interval, games as clusters), moves marked ?!, ?, ??; then the
    /// games with the most blunders, each with the command that shows it.
    #[arg(long)]
    pub(crate) all: bool,
    /// With --all: the first N games of the file only.
    #[arg(long, value_name = "N", requires = "all")]
    pub(crate) limit: Option<u64>,
    /// With --all: also write the table as CSV here (atomically), after `#`
    /// lines saying what was annotated.
    #[arg(long, value_name = "FILE", requires = "all")]
    pub(crate) summary: Option<PathBuf>,
    /// With --all: games annotated at once (default: every core).
    #[arg(long, value_name = "N", requires = "all")]
    pub(crate) threads: Option<usize>,
}

/// The help after the options: examples, and the account of the marks.
pub(crate) const MARKS_HELP: &str = "Examples:
  senat annotate game.txt --agent top                          # a Sénat record
  senat annotate --game focus focus.txt --agent 'ab:depth=3'   # a record of another game
  senat annotate focus-moves.csv --index 3 --agent top         # game 3 of a batch file: it names its game
  senat annotate games.csv --all --agent strong --summary acc.csv  # every game: blunders counted per seat and agent
Which file of a batch holds a game, for every game: docs/formats.md, \"Which file holds a game\".

Each move line gets one comment: the ply, the side to move, \
its win probability by the agent (a draw counting half; `win in N` where the agent proved it), the \
agent's best move and line, and the win probability left after the move played (the agent's \
value of the next position, seen by the mover). A move other than the agent's best whose drop \
from the first to the second is at least 0.05 is marked `?!` inaccuracy, 0.10 `?` mistake, \
0.20 `??` blunder. A move's loss is that drop, at least 0 (lichess's); with --all the mean loss \
per move of a seat or agent is its accuracy (lower is better). Chance moves (dominoes' deals and \
draws) and dominoes moves the agent's search never tried are not judged.";

/// `senat annotate`.
pub(crate) fn annotate(a: AnnotateArgs, out: &mut impl Write) -> Result<()> {
    if a.batch.all {
        return annotate_all(&a, out);
    }
    // A game of a batch file (`--index`): the file's game and variant.
    let batch = a.index.map(|n| indexed_game(&a.record, n, a.game.given())).transpose()?;
    let g = match &batch {
        Some(b) => GameArg::of_batch(b, &a.game)?,
        None => a.game.clone(),
    };
    let Some(judge) = Annotator::new(&a.agent, &g, out)? else { return Ok(()) };
    if let Some(path) = &a.out {
        refuse_existing(path, a.force)?;
    }
    let source = match &batch {
        Some(b) => Source::Batch(b),
        None => Source::File(&a.record),
    };
    let annotated = judge.annotate(&source, a.seed)?;
    let (text, plies) = (annotated.text(), annotated.plies.len());
    match &a.out {
        Some(path) => {
            write_atomic(path, text.as_bytes(), a.force)?;
            writeln!(out, "wrote {} ({plies} plies)", path.display())?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(())
}

/// `senat annotate FILE --all`: every game of the batch file annotated on
/// `--threads` threads (game N's agent seeded by [`game_seed`] of the seed
/// and N), the accuracy table ([`AccuracyTally`]) printed and written.
fn annotate_all(a: &AnnotateArgs, out: &mut impl Write) -> Result<()> {
    let threads = threads_or_all(a.batch.threads)?;
    let games = files::batch_games(&a.record, a.game.given(), a.batch.limit).or_else(input)?;
    let g = GameArg::of_batch(&games[0], &a.game)?;
    let Some(judge) = Annotator::new(&a.agent, &g, out)? else { return Ok(()) };
    if let Some(path) = &a.batch.summary {
        refuse_existing(path, a.force)?;
    }
    let seed_of = |b: &IndexedGame| game_seed(a.seed, b.index.unwrap_or(0));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().or_else(input)?;
    let bar = progress_bar(games.len() as u64, false);
    let started = Instant::now();
    let annotated: Vec<Result<Annotated>> = pool.install(|| {
        games
            .par_iter()
            .map(|b| {
                let r = judge.annotate(&Source::Batch(b), seed_of(b));
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut tally = AccuracyTally::new();
    // (blunders, mistakes, game) of every game, for the worst ones.
    let mut worst: Vec<(u64, u64, &IndexedGame)> = Vec::new();
    for (b, r) in games.iter().zip(annotated) {
        let moves: Vec<JudgedMove> = r?
            .plies
            .iter()
            .filter_map(|p| {
                let (loss, mark) = p.judged()?;
                Some(JudgedMove { seat: p.mover.clone(), agent: b.agent_of(p.team).to_string(), loss, mark })
            })
            .collect();
        let count = |k: Mark| moves.iter().filter(|m| m.mark == Some(k)).count() as u64;
        worst.push((count(Mark::Blunder), count(Mark::Mistake), b));
        tally.add_game(&moves);
    }
    let file = shell_word(&a.record.display().to_string());
    let agent = shell_word(&a.agent);
    let limit = a.batch.limit.map_or(String::new(), |n| format!(" --limit {n}"));
    let command = format!("senat annotate {file} --all{limit} --agent {agent} --seed {}", a.seed);
    writeln!(
        out,
        "{command}: {} games of {} in {:.1} s on {threads} thread{}; loss: the drop of the mover's win \
         probability from the best move's to the move played's (lower is better)",
        tally.games(),
        g.game,
        started.elapsed().as_secs_f64(),
        if threads == 1 { "" } else { "s" }
    )?;
    write!(out, "{}", tally.table())?;
    worst.sort_by_key(|w| std::cmp::Reverse((w.0, w.1)));
    let shown: Vec<_> = worst.iter().filter(|w| w.0 + w.1 > 0).take(5).collect();
    if !shown.is_empty() {
        writeln!(out, "most blunders (??), then mistakes (?):")?;
        for (blunders, mistakes, b) in shown {
            let n = b.index.unwrap_or(0);
            writeln!(
                out,
                "  game {n}: {blunders} ??, {mistakes} ?  senat view {file} --index {n} --annotate {agent} --seed {}",
                seed_of(b)
            )?;
        }
    }
    if let Some(path) = &a.batch.summary {
        let notes = [
            command.clone(),
            format!(
                "game={} games={} seeds: game N's agent from game_seed(seed, N); rows: seat x agent, then agent over seats, seat over agents, everyone; intervals 95%, games as clusters",
                g.game,
                tally.games()
            ),
        ];
        write_atomic(path, &tally.csv(&notes), a.force)?;
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(())
}

/// Where the game to annotate is: a record file or a game of a batch file.
enum Source<'a> {
    /// A record file (as `senat replay` reads it).
    File(&'a Path),
    /// A game of a batch file ([`indexed_game`]).
    Batch(&'a IndexedGame),
}

impl Source<'_> {
    /// The record's lines, as the other games' readers take them.
    fn record(&self) -> Result<RecordText> {
        match self {
            Source::File(path) => RecordText::read(path),
            Source::Batch(b) => Ok(b.record()),
        }
    }
}

/// The agent of `annotate`, read and checked once for its game.
enum Annotator {
    /// Sénat's agents.
    Senat(Box<PolicySpec>, SenatVariant),
    /// The lab games' agents (Focus, Débâcle, Connect Four).
    Lab(AgentSpec, GameArg),
    /// Dominoes' agents, which search a seat's observation.
    Dominoes(DominoSpec, GameArg),
}

impl Annotator {
    /// The agent `text` for the game `g`, refused unless it searches;
    /// `None` when `--variant help` asked for the keys (printed).
    fn new(text: &str, g: &GameArg, out: &mut impl Write) -> Result<Option<Annotator>> {
        let none = |name: &dyn std::fmt::Display, which: &str| {
            input(format_args!(
                "--agent {name}: gives no evaluation to annotate with (use an agent that searches: {which})"
            ))
        };
        if g.other()? {
            if g.variant_help(out)? {
                return Ok(None);
            }
            if g.game == GameKind::Dominoes {
                let spec = game::domino_spec(text, "--agent")?;
                if matches!(spec, DominoSpec::Random | DominoSpec::Greedy) {
                    return none(&spec, "ismcts:…, pimc:…, top");
                }
                return Ok(Some(Annotator::Dominoes(spec, g.clone())));
            }
            let spec = game::agent(text, "--agent")?;
            on_game!(g.game, G => game::fitting::<G>(&spec, "--agent"))?;
            if !spec.searches() {
                return none(&spec, "mcts:…, ab:…, top, strong");
            }
            return Ok(Some(Annotator::Lab(spec, g.clone())));
        }
        let Some(v) = g.senat_variant_unswapped(
            out,
            "annotate gives each ply's win chance to the colour to move, and the decision keep/swap changes the \
             player of a colour",
        )?
        else {
            return Ok(None);
        };
        let spec = policy("agent", text)?;
        if !spec.searches() {
            return none(&spec.name, "mcts:…, ab:…, top, strong");
        }
        Ok(Some(Annotator::Senat(Box::new(spec), v)))
    }

    /// The game of `source` annotated, the agent's random choices seeded
    /// by `seed`.
    fn annotate(&self, source: &Source, seed: u64) -> Result<Annotated> {
        match self {
            Annotator::Senat(spec, v) => annotate_senat(spec, *v, source, seed),
            Annotator::Lab(spec, g) => on_game!(g.game, G => annotate_game::<G>(spec, g, source, seed)),
            Annotator::Dominoes(spec, g) => annotate_dominoes(spec, g, source, seed),
        }
    }
}

/// What `annotate` says of one game: the record with its comments.
struct Annotated {
    /// The agent, as the header names it.
    agent: String,
    /// The start position's text.
    start: String,
    /// Every ply.
    plies: Vec<Ply>,
    /// The end line.
    end: String,
}

impl Annotated {
    /// The annotated record.
    fn text(&self) -> String {
        annotated(&self.agent, &self.start, &self.plies, &self.end)
    }
}

/// Sénat's game annotated by its agent.
fn annotate_senat(spec: &PolicySpec, v: SenatVariant, source: &Source, seed: u64) -> Result<Annotated> {
    let game = match source {
        Source::Batch(b) => b.senat_game()?,
        Source::File(path) => {
            let (name, record) = read_record(path, v)?;
            play_record(&name, &record, |_, _, _| Ok(()))?
        }
    };
    let name = match source {
        Source::Batch(b) => b.title.clone(),
        Source::File(path) => path.display().to_string(),
    };
    let mut player = spec.without_temperature().try_build().or_else(input)?;
    player.new_game();
    let mut rng = rng_from_seed(seed);
    // The agent's opinion of every position of the game, the final one included.
    let mut so_far = GameRecord::new(*game.start());
    let mut opinions: Vec<(WinChance, Vec<Move>)> = Vec::new();
    for i in 0..=game.moves().len() {
        if let Some(o) = so_far.outcome() {
            let me = so_far.position().side_to_move();
            let r = match o.winner {
                Some(w) if w == me => Proved::Win(0),
                Some(_) => Proved::Loss(0),
                None => Proved::Draw,
            };
            opinions.push((WinChance::proved(r), Vec::new()));
        } else {
            let turn = Turn::new(&so_far);
            if turn.legal == 0 {
                return input(format_args!("{name}: no legal move after ply {i}"));
            }
            let m = player.choose(&turn, &mut rng);
            opinions.push(player.assess().unwrap_or((WinChance::EVEN, vec![m])));
        }
        if let Some(&m) = game.moves().get(i) {
            so_far.play_unchecked(m);
        }
    }
    // Each ply in words.
    let mut plies = Vec::new();
    let mut replay = GameRecord::new(*game.start());
    for (i, &m) in game.moves().iter().enumerate() {
        let me = replay.position().side_to_move();
        replay.play_unchecked(m);
        let (before, pv) = &opinions[i];
        let next = opinions[i + 1].0;
        let after = if replay.position().side_to_move() == me { next } else { next.other() };
        // Team 0 is red, as a batch file lists its players.
        plies.push(Ply::new(m, me.to_string(), me as usize, *before, pv, after));
    }
    let last = &opinions[game.moves().len()];
    let end = match game.outcome() {
        Some(o) => format!("{o}"),
        None => format!(
            "not over, {} to move: win {}, best line {}",
            game.position().side_to_move(),
            last.0,
            words(&last.1)
        ),
    };
    Ok(Annotated { agent: spec.name.clone(), start: game.start().to_spn(), plies, end })
}

/// `senat annotate --game focus|focus4|debacle|connect4`: the same comments from
/// the lab's agents of that game (alpha-beta's score through the game's
/// fitted [`LabGame::eval_scale`], MCTS's mean result); the win
/// probability is the mover's team's.
fn annotate_game<G: LabGame>(spec: &AgentSpec, g: &GameArg, source: &Source, seed: u64) -> Result<Annotated> {
    let played = game::lab_play_text::<G>(&source.record()?, g)?;
    let mut agent = spec.without_temperature().try_build::<G>().or_else(input)?;
    agent.new_game();
    let mut rng = rng_from_seed(seed);
    let team = |s: &G::State| G::team(s, G::to_move(s));
    // The agent's opinion of every state, the final one included, for its mover's team.
    let opinions: Vec<(WinChance, Vec<G::Move>)> = played
        .states
        .iter()
        .map(|s| match G::result(s) {
            Some(r) => {
                let proved = match senat_lab::games::winner::<G>(s, &r) {
                    Some(w) if w == team(s) => Proved::Win(0),
                    Some(_) => Proved::Loss(0),
                    None => Proved::Draw,
                };
                (WinChance::proved(proved), Vec::new())
            }
            None => {
                let m = agent.choose(s, &mut rng);
                agent.assess().unwrap_or((WinChance::EVEN, vec![m]))
            }
        })
        .collect();
    let seat = |s: &G::State| G::seats(G::players(s))[G::to_move(s)].to_string();
    let plies: Vec<Ply> = played
        .moves
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            let (s, next) = (&played.states[i], &played.states[i + 1]);
            let after = if team(next) == team(s) { opinions[i + 1].0 } else { opinions[i + 1].0.other() };
            let line: Vec<String> = opinions[i].1.iter().map(|&m| G::move_text(m)).collect();
            Ply {
                text: G::move_text(m),
                mover: seat(s),
                team: team(s),
                before: opinions[i].0,
                best: line.first().cloned(),
                played_best: opinions[i].1.first() == Some(&m),
                line,
                after: Some(after),
                chance: false,
            }
        })
        .collect();
    let last = played.states.last().expect("a record has its start");
    let end = match G::result(last) {
        Some(_) => senat_lab::games::result_line::<G>(last),
        None => {
            let line: Vec<String> = opinions[opinions.len() - 1].1.iter().map(|&m| G::move_text(m)).collect();
            format!(
                "not over, {} to move: win {}, best line {}",
                seat(last),
                opinions[opinions.len() - 1].0,
                line.join(" ")
            )
        }
    };
    Ok(Annotated { agent: spec.to_string(), start: G::position_text(&played.states[0]), plies, end })
}

/// `senat annotate --game dominoes`: at every decision the mover's agent
/// searches the mover's observation only (never the other hands of the
/// record); its win probability is the search's mean leaf value for the
/// mover (the heuristic chance of winning the match of
/// [`senat_lab::games::dominoes::RoundRollout`]); the move played is judged by
/// its own mean in that search; the line is the best move alone (the
/// search's later moves are guesses of hidden tiles). Deals and draws are
/// marked as chance. A seat's team is its batch's (seat 0 plays `first`,
/// the others `second`) or, in an arena's file, seat 0 and 2 `first`.
fn annotate_dominoes(spec: &DominoSpec, g: &GameArg, source: &Source, seed: u64) -> Result<Annotated> {
    let (_, states, moves) = game::domino_text_states(&source.record()?, g)?;
    let arena = matches!(source, Source::Batch(b) if b.arena);
    let mut rng = rng_from_seed(seed);
    let mut plies = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let s = &states[i];
        if s.is_chance() {
            plies.push(Ply {
                text: m.to_string(),
                mover: String::new(),
                team: 0,
                before: WinChance::EVEN,
                best: None,
                played_best: false,
                line: Vec::new(),
                after: None,
                chance: true,
            });
            continue;
        }
        let p = s.to_move();
        let r = spec.judge(&s.observation(p), &mut rng).expect("a searching agent");
        let after = r.moves.iter().find(|x| x.0 == m).map(|x| WinChance::estimate(x.2));
        plies.push(Ply {
            text: m.to_string(),
            mover: format!("player {p}"),
            team: if arena { p % 2 } else { usize::from(p != 0) },
            before: WinChance::estimate(r.value()),
            best: r.best.map(|b| b.to_string()),
            played_best: r.best == Some(m),
            // The best move alone: past it, the search's line plays the
            // other hands and the boneyard as guessed, not as dealt.
            line: r.best.iter().map(ToString::to_string).collect(),
            after,
            chance: false,
        });
    }
    let last = &states[states.len() - 1];
    let end = if last.outcome().is_some() {
        senat_lab::play::dominoes::result_line(last)
    } else {
        format!("not over; {}", senat_lab::play::dominoes::result_line(last))
    };
    Ok(Annotated { agent: spec.to_string(), start: states[0].to_string(), plies, end })
}

/// One ply of any game, in words: what the annotated record says of it.
struct Ply {
    /// The move played.
    text: String,
    /// Who played it.
    mover: String,
    /// The mover's team as a batch file lists its players (Sénat: red 0,
    /// blue 1; the other games: `first` 0, `second` 1).
    team: usize,
    /// The mover's win probability before it.
    before: WinChance,
    /// The agent's best move.
    best: Option<String>,
    /// Whether the move played is the agent's best.
    played_best: bool,
    /// The agent's line, best move first.
    line: Vec<String>,
    /// The mover's win probability after the move played (`None`: the
    /// agent's search never tried it).
    after: Option<WinChance>,
    /// A chance move (a dominoes deal or draw): no one chose it.
    chance: bool,
}

impl Ply {
    /// A Sénat ply.
    fn new(m: Move, mover: String, team: usize, before: WinChance, pv: &[Move], after: WinChance) -> Ply {
        Ply {
            text: m.to_string(),
            mover,
            team,
            before,
            best: pv.first().map(Move::to_string),
            played_best: pv.first() == Some(&m),
            line: pv.iter().map(Move::to_string).collect(),
            after: Some(after),
            chance: false,
        }
    }
}

impl Ply {
    /// The move's loss and mark ([`judge`]); `None` for a chance move or
    /// one the agent's search never tried.
    fn judged(&self) -> Option<(f64, Option<Mark>)> {
        let after = self.after.filter(|_| !self.chance)?;
        Some(judge(self.before.p(), after.p(), self.played_best))
    }
}

fn words(pv: &[Move]) -> String {
    pv.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
}

/// The annotated record: a header, the start, one commented move a line,
/// the end.
fn annotated(agent: &str, start: &str, plies: &[Ply], end: &str) -> String {
    let mut s = format!(
        "# senat annotate --agent {agent} (move temperature off)\n\
         # win: the agent's probability that the side to move wins, a draw counting half\n\
         # marks (drop from the best move's win to the move played's): ?! >= {INACCURACY}, ? >= {MISTAKE}, ?? >= {BLUNDER}\n{start}\n"
    );
    for (i, p) in plies.iter().enumerate() {
        let (m, before) = (&p.text, p.before);
        if p.chance {
            s.push_str(&format!("{m}  # ply {}: chance (a deal or a draw)\n", i + 1));
            continue;
        }
        let (drop, mark) = p.judged().map_or((None, None), |(loss, mark)| (Some(loss), mark));
        let best_text = p.best.clone().unwrap_or_else(|| "-".to_string());
        let after = p.after.map_or("- (not searched)".to_string(), |a| a.to_string());
        let mut c = format!(
            "{m}  # ply {}, {}: win {before}, best {best_text}, line {}; after {m}: {after}",
            i + 1,
            p.mover,
            p.line.join(" ")
        );
        if let (Some(k), Some(d)) = (mark, drop) {
            c.push_str(&format!(" {} {k} (-{d:.3})", k.symbol()));
        }
        s.push_str(&c);
        s.push('\n');
    }
    s.push_str(&format!("# end: {end}\n"));
    s
}
