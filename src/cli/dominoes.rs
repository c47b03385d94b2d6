//! `--game dominoes`: block dominoes on `moves`, `perft`, `show`, `replay`,
//! and `arena` (duplicate deals); its self-play batches run through the
//! lab's one batch runner (`crate::cli::games::selfplay`). Positions are
//! `start`, a full-state text or an observation text (NOTATION: `crates/dominoes/NOTATION.md`).
//!
//! This module parses and prints; the rules come from `dominoes-rules`,
//! the agents and the match loop from the lab, and files are written
//! through the lab's atomic outputs.

use crate::cli::batch::{ArenaArgs, ArenaOutputs, arena_report, progress_bar, sprt_arg, threads_or_all};
use crate::cli::bestmove::BestmoveArgs;
use crate::cli::common::{Result, input};
use crate::cli::games::GameArg;
use crate::cli::rules::ReplayArgs;
use crate::cli::search::SolveArgs;
use dominoes_rules::{Observation, State, Variant};
use game_search::rng::rng_from_seed;
use senat_lab::arena::Schedule;
use senat_lab::dominoes::{DOMINO_SUMMARY_EXTRA, DominoArena, DominoSpec};
use senat_lab::dominoes_proof::{self, ProofLimits};
use std::io::Write;
use std::time::Instant;

/// The variant of `--variant` and `--players`.
pub(crate) fn variant(g: &GameArg) -> Result<Variant> {
    let text = match g.players {
        Some(p) if g.variant.trim().is_empty() => format!("players={p}"),
        Some(p) => format!("players={p},{}", g.variant),
        None => g.variant.clone(),
    };
    Variant::parse(&text).or_else(|e| input(format_args!("variant `{text}`: {e}")))
}

/// `--variant help`: prints the variant's keys, as for the other games, and
/// says whether it did (the command then stops).
pub(crate) fn variant_help(g: &GameArg, out: &mut impl Write) -> Result<bool> {
    if g.variant.trim() == "help" {
        writeln!(out, "variant options of {} (--variant key=value,...):\n{}", g.game, Variant::HELP)?;
        return Ok(true);
    }
    Ok(false)
}

/// A position argument: `start`, a state text, or an observation text.
enum Pos {
    State(State),
    Observation(Observation),
}

fn position(words: &[String], g: &GameArg) -> Result<Pos> {
    let t = words.join(" ");
    match t.trim() {
        "" | "start" => Ok(Pos::State(State::start(variant(g)?))),
        t => match t.parse::<State>() {
            Ok(s) => Ok(Pos::State(s)),
            Err(se) => match t.parse::<Observation>() {
                Ok(o) => Ok(Pos::Observation(o)),
                Err(oe) => input(format_args!("neither a state ({se}) nor an observation ({oe})")),
            },
        },
    }
}

/// `senat moves --game dominoes`: decisions sorted by text; at a chance
/// node the outcomes with their probabilities.
pub(crate) fn moves(words: &[String], g: &GameArg, out: &mut impl Write) -> Result<()> {
    if variant_help(g, out)? {
        return Ok(());
    }
    let mut v = Vec::new();
    match position(words, g)? {
        Pos::State(s) if s.is_chance() => {
            let mut outcomes = Vec::new();
            s.chance_outcomes(&mut outcomes);
            for (m, p) in outcomes {
                writeln!(out, "{m} {p:.6}")?;
            }
            return Ok(());
        }
        Pos::State(s) => s.legal_moves(&mut v),
        Pos::Observation(o) => o.legal_moves(&mut v),
    }
    let mut t: Vec<String> = v.iter().map(ToString::to_string).collect();
    t.sort();
    for m in t {
        writeln!(out, "{m}")?;
    }
    Ok(())
}

/// `senat bestmove --game dominoes`: the agent's decision from an
/// observation (a full state: its player to move's observation).
pub(crate) fn bestmove(a: &BestmoveArgs, out: &mut impl Write) -> Result<()> {
    if variant_help(&a.game, out)? {
        return Ok(());
    }
    let spec = DominoSpec::parse(&a.agent).or_else(|e| input(format_args!("--agent: {e}")))?;
    let obs = match position(&a.pos, &a.game)? {
        Pos::Observation(o) => o,
        Pos::State(s) if s.outcome().is_some() => {
            return input(format_args!("the match is over ({})", s.outcome().expect("over")));
        }
        Pos::State(s) if s.is_chance() => {
            return input("chance is to move (a deal or a draw), not a player: give a position where a player decides");
        }
        Pos::State(s) => s.observation(s.to_move()),
    };
    if obs.match_over() {
        return input("the match is over");
    }
    if !obs.is_my_decision() {
        return input(format_args!(
            "the observer, player {}, has no decision here (player {} to move, or a draw or deal pending)",
            obs.observer(),
            obs.to_move()
        ));
    }
    let mut player = spec.build();
    let m = player.choose(&obs, &mut rng_from_seed(a.seed));
    crate::cli::bestmove::report(player.explain(), &spec.to_string());
    writeln!(out, "{m}")?;
    Ok(())
}

/// `senat solve --game dominoes`: sure wins of the round from the
/// observation of the player to decide (`senat_lab::dominoes_proof`: one
/// strategy for every consistent state, every draw and every play of the
/// others): the observation searched, then the position's verdict or,
/// with `--each-move`, one verdict per legal move.
pub(crate) fn solve(a: &SolveArgs, out: &mut impl Write) -> Result<()> {
    if a.history.is_some() || a.engine != "ab" || a.prove.is_some() || a.time.is_some() {
        return input(
            "--history, --engine, --prove and --time are not for --game dominoes (its limits are plies, placements and nodes)",
        );
    }
    let depth = senat_lab::limits::depth("--max-depth", a.max_depth, 1).or_else(input)?;
    let obs = match position(&a.pos, &a.game)? {
        Pos::Observation(o) => o,
        Pos::State(s) if s.is_chance() || s.round_over() => {
            return input("a deal, a draw or the end of a round is next: give a position where a player decides");
        }
        Pos::State(s) => s.observation(s.to_move()),
    };
    let limits = ProofLimits { depth, ..ProofLimits::default() };
    let started = Instant::now();
    let states = dominoes_proof::consistent_count(&obs, limits.max_states);
    let states = states.map_or(format!("over {} placements", limits.max_states), |n| format!("{n} consistent states"));
    let (root, each) = dominoes_proof::verdicts(&obs, &limits).or_else(|e| input(e.to_string()))?;
    writeln!(out, "observation {obs}")?;
    if a.each_move {
        for (m, v) in each {
            writeln!(out, "move {m} verdict {v}")?;
        }
    } else {
        writeln!(out, "{root}; {states}; {:.2} s", started.elapsed().as_secs_f64())?;
    }
    Ok(())
}

/// `senat perft --game dominoes`: decisions and chance outcomes alike.
pub(crate) fn perft(words: &[String], g: &GameArg, depth: u32, out: &mut impl Write) -> Result<()> {
    if variant_help(g, out)? {
        return Ok(());
    }
    let Pos::State(s) = position(words, g)? else { return input("perft needs a full state, not an observation") };
    let t = Instant::now();
    let n = dominoes_rules::perft(&s, depth);
    writeln!(out, "{n}")?;
    out.flush()?;
    eprintln!("perft depth {depth}: {n} nodes in {:.3} s", t.elapsed().as_secs_f64());
    Ok(())
}

fn hand_text(set: dominoes_rules::TileSet) -> String {
    let v: Vec<String> = set.iter().map(|t| t.to_string()).collect();
    if v.is_empty() { "-".into() } else { v.join(" ") }
}

/// `senat show --game dominoes`: the hands (or what the observer knows),
/// the open ends, the boneyard, the scores; then the text.
pub(crate) fn show(words: &[String], g: &GameArg, out: &mut impl Write) -> Result<()> {
    if variant_help(g, out)? {
        return Ok(());
    }
    match position(words, g)? {
        Pos::State(s) => {
            for p in 0..s.players() {
                writeln!(out, "player {p}: {:<40} score {}", hand_text(s.hand(p)), s.scores()[p])?;
            }
            let ends = s.ends().map_or("empty chain".to_string(), |(l, r)| format!("open ends {l} and {r}"));
            writeln!(out, "{ends}; boneyard {}; {} rounds played", hand_text(s.boneyard()), s.rounds_played())?;
            match s.outcome() {
                Some(o) => writeln!(out, "{o}")?,
                None if s.is_chance() => writeln!(out, "chance to move (a deal or a draw)")?,
                None => writeln!(out, "player {} to move", s.to_move())?,
            }
            writeln!(out, "{s}")?;
        }
        Pos::Observation(o) => {
            writeln!(out, "observer {}: {}", o.observer(), hand_text(o.hand()))?;
            for p in (0..o.players()).filter(|&p| p != o.observer()) {
                writeln!(out, "player {p}: {} tiles, score {}", o.hand_size(p), o.scores()[p])?;
            }
            let ends = o.ends().map_or("empty chain".to_string(), |(l, r)| format!("open ends {l} and {r}"));
            writeln!(out, "{ends}; boneyard {} tiles; unseen {}", o.boneyard_size(), hand_text(o.unseen()))?;
            writeln!(out, "{o}")?;
        }
    }
    Ok(())
}

/// `senat replay --game dominoes`: a record is `start` or a state text,
/// then one move per line (decisions and chance outcomes: `6-4L`, `pass`,
/// `+6-4` a draw, `6-4>1` a deal).
pub(crate) fn replay(a: &ReplayArgs, out: &mut impl Write) -> Result<()> {
    let name = a.file.display().to_string();
    let body = senat_lab::limits::read_text(&a.file).or_else(|e| input(format_args!("{name}: {e}")))?;
    let mut lines = senat_lab::limits::record_lines(&body);
    let Some((n0, first)) = lines.next() else { return input(format_args!("{name}: empty record")) };
    let mut s = match position(&[first.to_string()], &a.game) {
        Ok(Pos::State(s)) => s,
        Ok(Pos::Observation(_)) => return input(format_args!("{name}:{n0}: a record starts from a full state")),
        Err(_) => return input(format_args!("{name}:{n0}: `{first}` is not `start` nor a state")),
    };
    for (n, l) in lines {
        let m = s.parse_move(l).or_else(|e| input(format_args!("{name}:{n}: {e}")))?;
        s.play_unchecked(m);
        if !a.quiet {
            writeln!(out, "{m}\t{s}")?;
        }
    }
    writeln!(out, "{}", senat_lab::play::dominoes::result_line(&s))?;
    Ok(())
}

/// The result of a match as `replay` and the viewer write it.
pub(crate) fn result_line(s: &State) -> String {
    match s.outcome() {
        Some(o) => format!("{o} after {} rounds, scores {:?}", s.rounds_played(), &s.scores()[..s.players()]),
        None => format!("match not over after {} rounds", s.rounds_played()),
    }
}

/// `senat render --game dominoes`: the picture of a state, an observation
/// or a ply of a record (`replay`'s format), seen by `--seat` (default: the
/// player to move) unless `--reveal`; `None` when `--variant help` printed
/// the keys instead.
pub(crate) fn render_svg(
    a: &crate::cli::view::RenderArgs,
    record: Option<&std::path::Path>,
    out: &mut impl Write,
) -> Result<Option<String>> {
    use senat_lab::picture::dominoes::{Frame, View};
    if variant_help(&a.game, out)? {
        return Ok(None);
    }
    // The move that led to the drawn ply, with the state before it.
    let (pos, last) = match record {
        None => (position(&a.what, &a.game)?, None),
        Some(file) => {
            let (name, states, moves) = record_states(file, &a.game)?;
            let i = crate::cli::view::pick_ply(a.ply, moves.len(), &name)?;
            (Pos::State(states[i]), i.checked_sub(1).map(|k| (i, states[k], moves[k])))
        }
    };
    let mark_last = !a.no_arrows && last.is_some();
    // The note names the move as the seat sees it: a tile dealt to or drawn
    // by another player is not in the picture of one player's view.
    let note_for = |seat: Option<usize>| {
        last.map(|(i, before, m)| format!("ply {i}: {}", senat_lab::picture::dominoes::seen_move(&before, m, seat)))
    };
    let observation = match pos {
        Pos::Observation(o) => {
            if a.reveal {
                return input("--reveal needs a full state: an observation holds no hidden tile");
            }
            if let Some(seat) = a.seat.filter(|&s| s != o.observer()) {
                return input(format_args!(
                    "--seat {seat}: this is player {}'s observation; only a full state can be seen by another seat",
                    o.observer()
                ));
            }
            o
        }
        Pos::State(s) if a.reveal => {
            let note = note_for(None);
            let frame = Frame { view: View::Revealed(&s), mark_last, note: note.as_deref() };
            return Ok(Some(senat_lab::picture::dominoes::svg(&frame)));
        }
        Pos::State(s) => {
            let seat = a.seat.unwrap_or_else(|| s.to_move());
            if seat >= s.players() {
                return input(format_args!("--seat {seat}: the match has players 0 to {}", s.players() - 1));
            }
            s.observation(seat)
        }
    };
    let note = note_for(Some(observation.observer()));
    let frame = Frame { view: View::Observer(&observation), mark_last, note: note.as_deref() };
    Ok(Some(senat_lab::picture::dominoes::svg(&frame)))
}

/// A record read and played (`start` or a state text, then one move per
/// line): its name, every state from its start and its moves.
pub(crate) fn record_states(
    file: &std::path::Path,
    g: &GameArg,
) -> Result<(String, Vec<State>, Vec<dominoes_rules::Move>)> {
    let name = senat_rules::notation::escape(&file.display().to_string());
    let body = senat_lab::limits::read_text(file).or_else(|e| input(format_args!("{e}")))?;
    let mut lines = senat_lab::limits::record_lines(&body);
    let Some((n0, first)) = lines.next() else { return input(format_args!("{name}: empty record")) };
    let start = match position(&[first.to_string()], g) {
        Ok(Pos::State(s)) => s,
        Ok(Pos::Observation(_)) => return input(format_args!("{name}:{n0}: a record starts from a full state")),
        Err(_) => return input(format_args!("{name}:{n0}: `{first}` is not `start` nor a state")),
    };
    let (mut states, mut moves) = (vec![start], Vec::new());
    for (n, l) in lines {
        let mut s = states[states.len() - 1];
        let m = s.parse_move(l).or_else(|e| input(format_args!("{name}:{n}: {e}")))?;
        s.play_unchecked(m);
        states.push(s);
        moves.push(m);
    }
    Ok((name, states, moves))
}

pub(crate) fn spec(text: &str, flag: &str) -> Result<DominoSpec> {
    DominoSpec::parse(text).or_else(|e| input(format_args!("{flag}: {e}")))
}

/// `senat arena --game dominoes`: duplicate deals (`--no-duplicate` to
/// measure the luck they remove).
pub(crate) fn arena(a: &ArenaArgs, out: &mut impl Write) -> Result<()> {
    if variant_help(&a.game, out)? {
        return Ok(());
    }
    if a.games == 0 || a.games % 2 == 1 {
        return input(format_args!("--games {}: give an even number ≥ 2 (matches are played in pairs)", a.games));
    }
    let variant = variant(&a.game)?;
    let agents =
        a.agents.iter().enumerate().map(|(i, t)| spec(t, &format!("--agent {}", i + 1))).collect::<Result<Vec<_>>>()?;
    let arena = DominoArena {
        variant,
        agents,
        pairs: a.games / 2,
        seed: a.seed,
        schedule: Schedule::from_flags(a.gauntlet, a.ladder),
        duplicate: !a.no_duplicate,
        sprt: sprt_arg(a)?,
        moves: a.moves.is_some(),
    };
    let pairings = arena.pairings();
    senat_lab::arena::check_arena(arena.agents.len(), arena.pairs, pairings.len(), arena.sprt.is_some())
        .or_else(input)?;
    let threads = threads_or_all(a.concurrency)?;
    let mut outs = ArenaOutputs::create(a, &[])?;
    let mut files =
        outs.files(&arena.identity(), &senat_lab::games::arena::MOVES_COLUMNS, &DominoArena::games_header())?;
    let bar = progress_bar(arena.pairs * 2 * pairings.len() as u64, a.quiet);
    let started = Instant::now();
    let results = arena
        .run(threads, &mut |m| {
            bar.inc(1);
            files.game(|| arena.moves_row(&pairings, m), || arena.games_row(&pairings, m))
        })
        .or_else(input)?;
    bar.finish_and_clear();
    let written = files.commit().or_else(input)?;
    if let Some(f) = outs.summary {
        let rows: Vec<Vec<String>> = results.iter().map(|r| arena.summary_row(r)).collect();
        senat_lab::arena::write_summary(f, &DOMINO_SUMMARY_EXTRA, &rows).or_else(input)?;
    }
    writeln!(
        out,
        "# dominoes arena, {} players, {} pairs per pairing, {} deals, seed {}",
        variant.players,
        arena.pairs,
        if arena.duplicate { "duplicate" } else { "independent" },
        arena.seed
    )?;
    let names: Vec<String> = arena.agents.iter().map(ToString::to_string).collect();
    let rows: Vec<senat_lab::arena::TableRow> = results.iter().map(|r| r.table_row(variant.players)).collect();
    out.write_all(senat_lab::arena::table_text(&names, &rows, arena.schedule, arena.sprt.as_ref()).as_bytes())?;
    let played: u64 = results.iter().map(|r| r.count.wdl.games()).sum();
    let report = format!("played {played} matches in {:.1} s on {threads} threads", started.elapsed().as_secs_f64());
    arena_report(out, &report, written, a, Some("dominoes"))
}
