//! `senat annotate`: a game record with one agent's opinion of every ply
//! as `#` comments (still a record `senat replay` reads): the win
//! probability of the side to move on the lab's one scale
//! (`senat_lab::winprob`), the agent's best move and line, and a mark
//! where the move played lost at least an inaccuracy's worth. Sénat, Focus
//! (2 and 4 players), Débâcle and dominoes; a record file or, with
//! `--index`, a game of a batch file. This module prints; the
//! agents and the scale come from the lab.

use crate::cli::common::{
    IndexedRecord, RecordText, Result, indexed_game, input, play_record, policy, read_record, refuse_existing,
    write_atomic,
};
use crate::cli::game::{self, GameArg, on_game};
use clap::Args;
use senat_lab::games::dominoes::DominoSpec;
use senat_lab::games::{GameKind, LabGame};
use senat_lab::policy::{Turn, rng_from_seed};
use senat_lab::winprob::{BLUNDER, INACCURACY, MISTAKE, Mark, Proved, WinChance};
use senat_rules::{GameRecord, Move};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `senat annotate`.
#[derive(Args, Debug)]
pub(crate) struct AnnotateArgs {
    /// The game record (as `senat replay` reads it), or with --index a
    /// batch file: a games or moves file of `senat selfplay` (any game) or
    /// an arena's moves file.
    #[arg(value_name = "RECORD")]
    pub(crate) record: PathBuf,
    /// Annotate game N of a batch file (its `game` column); the game and
    /// the variant are the file's (its identity line). Which file holds the
    /// games of each game: docs/formats.md, "Which file holds a game".
    #[arg(long, value_name = "N")]
    pub(crate) index: Option<u64>,
    /// The agent whose opinion is written (a spec or a named agent that
    /// searches: `mcts:…`, `ab:…`, `top`, `sharp`, `strong`); its move
    /// temperature is turned off, so every best move is its best.
    #[arg(long, value_name = "SPEC")]
    pub(crate) agent: String,
    #[command(flatten)]
    pub(crate) game: GameArg,
    /// The seed of the agent's random choices (MCTS playouts).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Write the annotated record here (atomically) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
    /// Overwrite an existing --out file.
    #[arg(long)]
    pub(crate) force: bool,
}

/// The help after the options: examples, and the account of the marks.
pub(crate) const MARKS_HELP: &str = "Examples:
  senat annotate game.txt --agent top                          # a Sénat record
  senat annotate --game focus focus.txt --agent 'ab:depth=3'   # a record of another game
  senat annotate focus-moves.csv --index 3 --agent top         # game 3 of a batch file: it names its game
Which file of a batch holds a game, for every game: docs/formats.md, \"Which file holds a game\".

Each move line gets one comment: the ply, the side to move, \
its win probability by the agent (a draw counting half; `win in N` where the agent proved it), the \
agent's best move and line, and the win probability left after the move played (the agent's \
value of the next position, seen by the mover). A move other than the agent's best whose drop \
from the first to the second is at least 0.05 is marked `?!` inaccuracy, 0.10 `?` mistake, \
0.20 `??` blunder.";

/// `senat annotate`.
pub(crate) fn annotate(a: AnnotateArgs, out: &mut impl Write) -> Result<()> {
    // A game of a batch file (`--index`): the file's game and variant.
    let batch = a.index.map(|n| indexed_game(&a.record, n, a.game.given())).transpose()?;
    let g = match &batch {
        Some(b) => GameArg::of_batch(b, &a.game)?,
        None => a.game.clone(),
    };
    if g.other()? {
        let record = || match &batch {
            Some(b) => Ok(b.record()),
            None => RecordText::read(&a.record),
        };
        return match g.game {
            GameKind::Dominoes => annotate_dominoes(&a, &g, record, out),
            _ => on_game!(g.game, G => annotate_game::<G>(&a, &g, record, out)),
        };
    }
    let Some(v) = g.senat_variant(out)? else { return Ok(()) };
    let spec = policy("agent", &a.agent)?;
    if !spec.searches() {
        return input(format_args!(
            "--agent {}: gives no evaluation to annotate with (use an agent that searches: mcts:…, ab:…, top, strong)",
            spec.name
        ));
    }
    if let Some(path) = &a.out {
        refuse_existing(path, a.force)?;
    }
    let (name, game) = match &batch {
        Some(b) => (b.title.clone(), b.senat_game()?),
        None => {
            let (name, record) = read_record(&a.record, v)?;
            let game = play_record(&name, &record, |_, _, _| Ok(()))?;
            (name, game)
        }
    };
    let mut player = spec.without_temperature().try_build().or_else(input)?;
    player.new_game();
    let mut rng = rng_from_seed(a.seed);
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
        plies.push(Ply::new(m, me.to_string(), *before, pv, after));
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
    let text = annotated(&spec.name, &game.start().to_spn(), &plies, &end);
    write_annotated(&a, &text, game.moves().len(), out)
}

/// `senat annotate --game focus|focus4|debacle|connect4`: the same comments from
/// the lab's agents of that game (alpha-beta's score through the game's
/// fitted [`LabGame::eval_scale`], MCTS's mean result); the win
/// probability is the mover's team's.
fn annotate_game<G: LabGame>(
    a: &AnnotateArgs,
    g: &GameArg,
    record: impl FnOnce() -> Result<RecordText>,
    out: &mut impl Write,
) -> Result<()> {
    if g.variant_help(out)? {
        return Ok(());
    }
    let spec = game::agent(&a.agent, "--agent")?;
    game::fitting::<G>(&spec, "--agent")?;
    if !spec.searches() {
        return input(format_args!(
            "--agent {spec}: gives no evaluation to annotate with (use an agent that searches: mcts:…, ab:…, top, strong)"
        ));
    }
    if let Some(path) = &a.out {
        refuse_existing(path, a.force)?;
    }
    let played = game::lab_play_text::<G>(&record()?, g)?;
    let mut agent = spec.without_temperature().try_build::<G>().or_else(input)?;
    agent.new_game();
    let mut rng = rng_from_seed(a.seed);
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
    let text = annotated(&spec.to_string(), &G::position_text(&played.states[0]), &plies, &end);
    write_annotated(a, &text, played.moves.len(), out)
}

/// `senat annotate --game dominoes`: at every decision the mover's agent
/// searches the mover's observation only (never the other hands of the
/// record); its win probability is the search's mean leaf value for the
/// mover (the heuristic chance of winning the match of
/// [`senat_lab::games::dominoes::RoundRollout`]); the move played is judged by
/// its own mean in that search; the line is the best move alone (the
/// search's later moves are guesses of hidden tiles). Deals and draws are
/// marked as chance.
fn annotate_dominoes(
    a: &AnnotateArgs,
    g: &GameArg,
    record: impl FnOnce() -> Result<RecordText>,
    out: &mut impl Write,
) -> Result<()> {
    if g.variant_help(out)? {
        return Ok(());
    }
    let spec = game::domino_spec(&a.agent, "--agent")?;
    if matches!(spec, DominoSpec::Random | DominoSpec::Greedy) {
        return input(format_args!(
            "--agent {spec}: gives no evaluation to annotate with (use an agent that searches: ismcts:…, pimc:…, top)"
        ));
    }
    if let Some(path) = &a.out {
        refuse_existing(path, a.force)?;
    }
    let (_, states, moves) = game::domino_text_states(&record()?, g)?;
    let mut rng = rng_from_seed(a.seed);
    let mut plies = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let s = &states[i];
        if s.is_chance() {
            plies.push(Ply {
                text: m.to_string(),
                mover: String::new(),
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
    let text = annotated(&spec.to_string(), &states[0].to_string(), &plies, &end);
    write_annotated(a, &text, moves.len(), out)
}

/// The annotated record to `--out` (atomically) or stdout.
fn write_annotated(a: &AnnotateArgs, text: &str, plies: usize, out: &mut impl Write) -> Result<()> {
    match &a.out {
        Some(path) => {
            write_atomic(path, text.as_bytes(), a.force)?;
            writeln!(out, "wrote {} ({plies} plies)", path.display())?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(())
}

/// One ply of any game, in words: what the annotated record says of it.
struct Ply {
    /// The move played.
    text: String,
    /// Who played it.
    mover: String,
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
    fn new(m: Move, mover: String, before: WinChance, pv: &[Move], after: WinChance) -> Ply {
        Ply {
            text: m.to_string(),
            mover,
            before,
            best: pv.first().map(Move::to_string),
            played_best: pv.first() == Some(&m),
            line: pv.iter().map(Move::to_string).collect(),
            after: Some(after),
            chance: false,
        }
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
        let drop = p.after.map(|after| before.p() - after.p());
        let mark = if p.played_best { None } else { drop.and_then(Mark::of_drop) };
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
