//! `senat annotate`: a game record with one agent's opinion of every ply
//! as `#` comments (still a record `senat replay` reads): the win
//! probability of the side to move on the lab's one scale
//! (`senat_lab::winprob`), the agent's best move and line, and a mark
//! where the move played lost at least an inaccuracy's worth. Sénat only
//! so far. This module prints; the agents and the scale come from the lab.

use crate::cli::common::{Result, input, play_record, policy, read_record};
use crate::cli::games::GameArg;
use crate::cli::view::{refuse_existing, write_atomic};
use clap::Args;
use senat_lab::policy::{Turn, rng_from_seed};
use senat_lab::winprob::{BLUNDER, INACCURACY, MISTAKE, Mark, Proved, WinChance};
use senat_rules::{GameRecord, Move};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `senat annotate`.
#[derive(Args, Debug)]
pub(crate) struct AnnotateArgs {
    /// The game record (as `senat replay` reads it).
    #[arg(value_name = "RECORD")]
    pub(crate) record: PathBuf,
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

/// The help's account of the marks.
pub(crate) const MARKS_HELP: &str = "Each move line gets one comment: the ply, the side to move, \
its win probability by the agent (a draw counting half; `win in N` where the agent proved it), the \
agent's best move and line, and the win probability left after the move played (the agent's \
value of the next position, seen by the mover). A move other than the agent's best whose drop \
from the first to the second is at least 0.05 is marked `?!` inaccuracy, 0.10 `?` mistake, \
0.20 `??` blunder.";

/// `senat annotate`.
pub(crate) fn annotate(a: AnnotateArgs, out: &mut impl Write) -> Result<()> {
    if a.game.other()? {
        return input(format_args!(
            "`senat annotate` annotates Sénat records only so far; --game {} is not available here",
            a.game.game
        ));
    }
    let Some(v) = a.game.senat_variant(out)? else { return Ok(()) };
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
    let (name, record) = read_record(&a.record, v)?;
    let game = play_record(&name, &record, |_, _, _| Ok(()))?;
    let mut player = spec.without_temperature().build();
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
    let text = annotated(&game, &opinions, &spec.name);
    match &a.out {
        Some(path) => {
            write_atomic(path, text.as_bytes(), a.force)?;
            writeln!(out, "wrote {} ({} plies)", path.display(), game.moves().len())?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(())
}

/// The annotated record: a header, the start, one commented move a line,
/// the result.
fn annotated(game: &GameRecord, opinions: &[(WinChance, Vec<Move>)], agent: &str) -> String {
    let line = |pv: &[Move]| pv.iter().map(Move::to_string).collect::<Vec<_>>().join(" ");
    let mut s = format!(
        "# senat annotate --agent {agent} (move temperature off)\n\
         # win: the agent's probability that the side to move wins, a draw counting half\n\
         # marks (drop from the best move's win to the move played's): ?! >= {INACCURACY}, ? >= {MISTAKE}, ?? >= {BLUNDER}\n{}\n",
        game.start().to_spn()
    );
    let mut replay = GameRecord::new(*game.start());
    for (i, &m) in game.moves().iter().enumerate() {
        let me = replay.position().side_to_move();
        replay.play_unchecked(m);
        let (before, pv) = &opinions[i];
        let next = opinions[i + 1].0;
        let after = if replay.position().side_to_move() == me { next } else { next.other() };
        let best = pv.first().copied();
        let mark = if best == Some(m) { None } else { Mark::of_drop(before.p() - after.p()) };
        let best_text = best.map_or("-".to_string(), |b| b.to_string());
        let mut c = format!(
            "{m}  # ply {}, {me}: win {before}, best {best_text}, line {}; after {m}: {after}",
            i + 1,
            line(pv)
        );
        if let Some(k) = mark {
            c.push_str(&format!(" {} {k} (-{:.3})", k.symbol(), before.p() - after.p()));
        }
        s.push_str(&c);
        s.push('\n');
    }
    let last = &opinions[game.moves().len()];
    match game.outcome() {
        Some(o) => s.push_str(&format!("# end: {o}\n")),
        None => s.push_str(&format!(
            "# end: not over, {} to move: win {}, best line {}\n",
            game.position().side_to_move(),
            last.0,
            line(&last.1)
        )),
    }
    s
}
