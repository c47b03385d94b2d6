//! The commands to see games of every game: `render` (a board picture, SVG or PNG),
//! `view` (a game viewer page) and the pictures of `replay --svg`
//! (`play`, a game in the terminal, is in `cli::play`).
//!
//! Pictures and pages are drawn by `senat_lab::picture` and `senat_lab::viewer`;
//! records are read and checked by `cli::common` (`read_record`, `play_record`, over the rules' `Record`).
//! This module only ties them to files.

use crate::cli::annotate::{AnnotateArgs, annotate};
use crate::cli::common::{
    IndexedGame, IndexedRecord, RecordText, Result, checked_file_game, indexed_game, input, parse_position,
    play_record, read_record, record_failure, refuse_existing, result_line, write_atomic,
};
use crate::cli::game::{self, DominoPos, GameArg, on_game};
use clap::Args;
use senat_lab::games::GameKind;
use senat_lab::picture::{self, Drawn, Frame};
use senat_lab::viewer::dominoes::Sight;
use senat_lab::viewer::{self, Meta, Step};
use senat_rules::{GameRecord, Record, Variant};
use std::io::Write;
use std::path::{Path, PathBuf};

// ---- arguments ------------------------------------------------------------

/// Arguments of `senat render`.
#[derive(Args, Debug)]
pub(crate) struct RenderArgs {
    /// A position or a game record file: one argument that names an
    /// existing file is read as a record. Sénat: `start`, `sample` or an
    /// SPN, possibly over several arguments; the other games: `start` or
    /// the game's position text (dominoes: a state or an observation).
    #[arg(value_name = "POS|RECORD", required = true, num_args = 1..)]
    pub(crate) what: Vec<String>,
    /// With a record: the ply to draw, 0 for its start (default: its last).
    #[arg(long, value_name = "N")]
    pub(crate) ply: Option<usize>,
    /// The picture to write: a name ending in `.svg` or `.png`.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Overwrite an existing picture.
    #[arg(long)]
    force: bool,
    /// Do not draw the arrows of the last move (with a record; dominoes:
    /// the ring around the last tile played).
    #[arg(long)]
    pub(crate) no_arrows: bool,
    /// With --game dominoes: the player whose view is drawn (default: the
    /// player to move); the other hands and the boneyard are face down.
    #[arg(long, visible_alias = "observer", value_name = "N", conflicts_with = "reveal")]
    pub(crate) seat: Option<usize>,
    /// With --game dominoes: draw every hand and the boneyard face up
    /// (needs a full state, not an observation).
    #[arg(long)]
    pub(crate) reveal: bool,
    #[command(flatten)]
    pub(crate) game: GameArg,
}

/// Arguments of `senat view`.
#[derive(Args, Debug)]
pub(crate) struct ViewArgs {
    /// A game record, or with --index a batch file of any game: a games or
    /// moves file of `senat selfplay` or an arena's moves file (which file
    /// holds a game: docs/formats.md, "Which file holds a game").
    file: PathBuf,
    /// The game of a batch file to show: its row's index (the `game`
    /// column). The game and its variant are the file's (its identity line).
    #[arg(long, value_name = "N")]
    index: Option<u64>,
    /// The game of a record: senat (the default), focus, focus4, debacle,
    /// connect4 or dominoes; with --index the file names it (a --game given must be
    /// the file's). A number here is read as `--index N`, the old spelling.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// With --game dominoes: the player whose view the page shows at every
    /// ply (default: player 0); the other hands, the boneyard and the tiles
    /// dealt to or drawn by the others are nowhere in the page.
    #[arg(long, visible_alias = "observer", value_name = "N", conflicts_with = "reveal")]
    seat: Option<usize>,
    /// With --game dominoes: show every hand and the boneyard face up.
    #[arg(long)]
    reveal: bool,
    /// The page to write (one self-contained HTML file).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Overwrite an existing page.
    #[arg(long)]
    force: bool,
    /// Annotate the game first with this agent, as `senat annotate --agent
    /// SPEC` does (a spec or a named agent that searches: `mcts:…`,
    /// `ab:…`, `top`, `strong`), and show it with the engine's opinion:
    /// `annotate` then `view` in one step, no record file left behind.
    #[arg(long, value_name = "SPEC")]
    annotate: Option<String>,
    /// With --annotate: the seed of the agent's random choices (MCTS playouts).
    #[arg(long, value_name = "N", default_value_t = 1, requires = "annotate")]
    seed: u64,
    /// The title and players shown instead of the record's (set by --annotate
    /// for the record it wrote: the original game's).
    #[arg(skip)]
    shown_as: Option<(String, Vec<(String, String)>)>,
}

/// A record file read and played: its name, text, record and game.
struct Played {
    name: String,
    text: String,
    record: Record,
    game: GameRecord,
}

fn play_file(file: &Path) -> Result<Played> {
    let (name, record) = read_record(file, Variant::RULES)?;
    let text = std::fs::read_to_string(file).or_else(|e| input(format_args!("cannot read {name}: {e}")))?;
    let game = play_record(&name, &record, |_, _, _| Ok(()))?;
    Ok(Played { name, text, record, game })
}

/// The note under a picture of ply `i` (none at ply 0).
fn ply_note(steps: &[Step], i: usize) -> Option<String> {
    let m = steps[i].last?;
    Some(format!("ply {}", viewer::move_label(i, steps[i - 1].position.side_to_move(), m)))
}

// ---- render ---------------------------------------------------------------

pub(crate) fn cmd_render(a: RenderArgs, out: &mut impl Write) -> Result<()> {
    let ext = a.out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let png = match ext.as_deref() {
        Some("svg") => false,
        Some("png") => true,
        _ => {
            return input(format_args!("--out {}: the picture's name must end in .svg or .png", a.out.display()));
        }
    };
    let other = a.game.other()?;
    if a.game.game != GameKind::Dominoes && (a.seat.is_some() || a.reveal) {
        return input(format_args!(
            "--seat and --reveal are for --game dominoes (--game {} hides nothing)",
            a.game.game
        ));
    }
    refuse_existing(&a.out, a.force)?;
    let record_file = (a.what.len() == 1 && Path::new(&a.what[0]).is_file()).then(|| PathBuf::from(&a.what[0]));
    if record_file.is_none()
        && let Some(n) = a.ply
    {
        return input(format_args!("--ply {n} needs a game record file; `{}` is not a file", a.what.join(" ")));
    }
    let svg = if other {
        match other_svg(&a, record_file.as_deref(), out)? {
            Some(svg) => svg,
            None => return Ok(()),
        }
    } else {
        let Some(variant) = a.game.senat_variant(out)? else { return Ok(()) };
        match record_file {
            Some(file) => {
                let played = play_file(&file)?;
                let steps = viewer::steps(&played.game);
                let i = pick_ply(a.ply, steps.len() - 1, &played.name)?;
                let note = ply_note(&steps, i);
                let last_move = if a.no_arrows { None } else { steps[i].last };
                let frame = Frame { position: &steps[i].position, last: last_move, note: note.as_deref() };
                picture::svg_of_game(&frame, steps[i].outcome)
            }
            None => {
                let p = parse_position(&a.what.join(" "), variant)?;
                picture::svg(&Frame::new(&p))
            }
        }
    };
    let bytes = if png { picture::png(&svg).or_else(input)? } else { svg.into_bytes() };
    write_atomic(&a.out, &bytes, a.force)?;
    writeln!(out, "wrote {} ({} bytes)", a.out.display(), bytes.len())?;
    Ok(())
}

/// The ply `--ply` asks for (default: the last), checked against a record
/// whose plies are 0 to `last`.
pub(crate) fn pick_ply(ply: Option<usize>, last: usize, name: &str) -> Result<usize> {
    let i = ply.unwrap_or(last);
    if i > last {
        return input(format_args!("--ply {i}: {name} has plies 0 to {last}"));
    }
    Ok(i)
}

/// The picture of another game than Sénat: its position or a ply of its
/// record (`None` when `--variant help` printed the keys instead).
/// Dominoes draws one seat's view or the revealed state; every other game
/// is the catalog's picture (`senat_lab::catalog::Position::picture`).
fn other_svg(a: &RenderArgs, record: Option<&Path>, out: &mut impl Write) -> Result<Option<String>> {
    if a.game.game == GameKind::Dominoes {
        return domino_render_svg(a, record, out);
    }
    if a.game.variant_help(out)? {
        return Ok(None);
    }
    let Some(file) = record else {
        return Ok(Some(a.game.catalog_position(&a.what)?.picture(None, None).or_else(input)?));
    };
    let record = RecordText::read(file)?;
    let mut plies = Vec::new();
    let played = senat_lab::catalog::record::play(a.game.game, &a.game.catalog_variant(), record.lines(), |m, p| {
        plies.push((m.map(str::to_string), p.clone()));
        Ok(())
    });
    played.or_else(|e| record_failure(&record.name, e))?;
    let i = pick_ply(a.ply, plies.len() - 1, &record.name)?;
    let (Some(m), p) = &plies[i] else { return Ok(Some(plies[0].1.picture(None, None).or_else(input)?)) };
    let note = format!("ply {i}: {m}");
    let last = (!a.no_arrows).then(|| (&plies[i - 1].1, m.as_str()));
    Ok(Some(p.picture(last, Some(&note)).or_else(input)?))
}

// ---- replay --svg -----------------------------------------------------------

/// Writes one SVG picture per ply of a record into `dir` (`ply-000.svg`, …).
pub(crate) fn replay_pictures(game: &GameRecord, dir: &Path, force: bool, out: &mut impl Write) -> Result<()> {
    let steps = viewer::steps(game);
    let width = (steps.len() - 1).to_string().len().max(3);
    let name = |i: usize| dir.join(format!("ply-{i:0width$}.svg"));
    if !force && let Some(p) = (0..steps.len()).map(name).find(|p| p.exists()) {
        return input(format_args!("{} already exists; pass --force to overwrite it", p.display()));
    }
    std::fs::create_dir_all(dir).or_else(|e| input(format_args!("cannot create {}: {e}", dir.display())))?;
    for (i, s) in steps.iter().enumerate() {
        let note = ply_note(&steps, i);
        let frame = Frame { position: &s.position, last: s.last, note: note.as_deref() };
        let svg = picture::svg_of_game(&frame, s.outcome);
        write_atomic(&name(i), svg.as_bytes(), true)?;
    }
    writeln!(out, "wrote {} pictures to {}", steps.len(), dir.display())?;
    Ok(())
}

// ---- view -----------------------------------------------------------------

/// A record's comments: those on or before its start line are notes of
/// the game; a comment on a move's line, or on comment lines just before
/// it, goes with the ply of that move; comments after the last move go
/// with the last ply. `move_lines[k]` is the line number (from 1) of the
/// record's move `k`.
fn record_notes(text: &str, move_lines: &[usize]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut game_notes = Vec::new();
    let mut plies = vec![Vec::new(); move_lines.len() + 1];
    let mut seen_start = false;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let (body, comment) = line.split_once('#').unwrap_or((line, ""));
        let comment = comment.trim();
        let start_line = !seen_start && !body.trim().is_empty();
        if comment.is_empty() {
            seen_start |= start_line;
            continue;
        }
        if !seen_start {
            seen_start = start_line;
            game_notes.push(comment.to_string());
            continue;
        }
        // The first move whose line is at or after this one.
        match move_lines.iter().position(|&l| l >= n) {
            Some(k) => plies[k + 1].push(comment.to_string()),
            None => plies[move_lines.len()].push(comment.to_string()),
        }
    }
    (game_notes, plies)
}

/// The notes of a record of another game than Sénat (`start` or a
/// position on its first line, then one move per line).
fn other_record_notes(file: &Path) -> Result<(Vec<String>, Vec<Vec<String>>)> {
    let text = senat_lab::limits::read_text(file).or_else(|e| input(format_args!("{e}")))?;
    let lines: Vec<usize> = senat_lab::limits::record_lines(&text).skip(1).map(|(n, _)| n).collect();
    Ok(record_notes(&text, &lines))
}

/// The game of `view` and the row index: `--index N`, or the old `--game
/// N` (a number); `--game` otherwise names the game (Sénat by default).
fn view_game(a: &ViewArgs) -> Result<(Option<GameKind>, Option<u64>)> {
    let Some(g) = a.game.as_deref() else { return Ok((None, a.index)) };
    if !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit()) {
        if a.index.is_some() {
            return input("--game N is the old spelling of --index N: give one of them");
        }
        let n = g.parse::<u64>().or_else(|e| input(format_args!("--game {g}: {e}")))?;
        eprintln!("note: `--game {n}` is read as `--index {n}` (--game now names the game)");
        return Ok((None, Some(n)));
    }
    let kind = GameKind::parse(g).or_else(|e| input(format_args!("--game: {e}")))?;
    Ok((Some(kind), a.index))
}

pub(crate) fn cmd_view(a: ViewArgs, out: &mut impl Write) -> Result<()> {
    refuse_existing(&a.out, a.force)?;
    if let Some(agent) = &a.annotate {
        return view_annotated(&a, agent, out);
    }
    let (want, index) = view_game(&a)?;
    // A game of a batch file: the file names the game (`--game` must agree).
    let batch = index.map(|n| indexed_game(&a.file, n, want)).transpose()?;
    let kind = batch.as_ref().map_or(want.unwrap_or(GameKind::Senat), |b| b.kind);
    if kind != GameKind::Dominoes && (a.seat.is_some() || a.reveal) {
        return input(format_args!("--seat and --reveal are for --game dominoes (--game {kind} hides nothing)"));
    }
    // Sénat's arena files are refused by Sénat's page (which asks for an
    // index); every other batch file here.
    if batch.is_none() && checked_file_game(&a.file, want)?.is_some_and(|g| g != GameKind::Senat || !a.file_is_arena())
    {
        return input(format_args!("{} is a batch file: pass --index N to choose a game", a.file.display()));
    }
    let (page, plies) = match kind {
        GameKind::Senat => senat_page(&a, batch.as_ref())?,
        GameKind::Dominoes => dominoes_page(&a, batch.as_ref())?,
        _ => on_game!(kind, G => drawn_page::<G>(&a, kind, batch.as_ref())?),
    };
    write_atomic(&a.out, page.as_bytes(), a.force)?;
    writeln!(out, "wrote {} ({plies} plies, {} bytes)", a.out.display(), page.len())?;
    Ok(())
}

impl ViewArgs {
    fn file_is_arena(&self) -> bool {
        senat_lab::arena::arena_file(&self.file).is_some()
    }

    /// The title and players of the page: the record's (`meta`'s), or
    /// those of the game `--annotate` annotated.
    fn shown(&self, meta: &mut Meta) {
        if let Some((title, players)) = &self.shown_as {
            meta.title.clone_from(title);
            meta.players.clone_from(players);
        }
    }
}

/// A file removed when dropped (the record `view --annotate` writes and reads).
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// `view --annotate SPEC`: the game (a record, or game N of a batch file)
/// annotated by `senat annotate`'s own code into a record beside the page,
/// that record shown as `view` shows any annotated record (under the
/// original game's title and players), the record then removed.
fn view_annotated(a: &ViewArgs, agent: &str, out: &mut impl Write) -> Result<()> {
    let (want, index) = view_game(a)?;
    let batch = index.map(|n| indexed_game(&a.file, n, want)).transpose()?;
    let kind = batch.as_ref().map_or(want.unwrap_or(GameKind::Senat), |b| b.kind);
    let (title, players) = match &batch {
        Some(b) => (b.title.clone(), b.players.clone()),
        None => (
            a.file.file_name().map_or_else(|| a.file.display().to_string(), |n| n.to_string_lossy().into()),
            Vec::new(),
        ),
    };
    let mut name = a.out.file_name().unwrap_or_default().to_os_string();
    name.push(".annotating.txt");
    let scratch = Scratch(a.out.with_file_name(name));
    let args = AnnotateArgs {
        record: a.file.clone(),
        index,
        agent: agent.to_string(),
        game: GameArg { game: kind, variant: String::new(), players: None },
        seed: a.seed,
        out: Some(scratch.0.clone()),
        force: true,
        batch: Default::default(),
    };
    annotate(args, &mut std::io::sink())?;
    let shown = ViewArgs {
        file: scratch.0.clone(),
        index: None,
        game: Some(kind.to_string()),
        seat: a.seat,
        reveal: a.reveal,
        out: a.out.clone(),
        force: a.force,
        annotate: None,
        seed: a.seed,
        shown_as: Some((format!("{title}, annotated by {agent}"), players)),
    };
    cmd_view(shown, out)
}

/// The page of a Sénat record or games file row, and its plies.
fn senat_page(a: &ViewArgs, batch: Option<&IndexedGame>) -> Result<(String, usize)> {
    let (game, meta) = match batch {
        Some(b) => {
            let game = b.senat_game()?;
            let meta = Meta {
                title: b.title.clone(),
                players: b.players.clone(),
                notes: Vec::new(),
                ply_notes: Vec::new(),
                result: result_line(&game),
                evaluation: None,
            };
            (game, meta)
        }
        None => {
            if a.file.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv")) {
                return input(format_args!(
                    "{} looks like a games file: pass --index N to choose a game (or rename a record)",
                    a.file.display()
                ));
            }
            let played = play_file(&a.file)?;
            let lines: Vec<usize> = played.record.moves.iter().map(|&(l, _)| l).collect();
            let (notes, ply_notes) = record_notes(&played.text, &lines);
            let evaluation = senat_evaluation(&played.game, &ply_notes);
            let mut meta = Meta {
                title: played.name.clone(),
                players: Vec::new(),
                notes,
                ply_notes,
                result: result_line(&played.game),
                evaluation,
            };
            a.shown(&mut meta);
            (played.game, meta)
        }
    };
    Ok((viewer::html(&game, &meta), game.moves().len()))
}

/// Blue's win probability at every ply of an annotated Sénat record
/// (`senat annotate`'s comments), `None` for a record without them.
fn senat_evaluation(game: &GameRecord, ply_notes: &[Vec<String>]) -> Option<viewer::Evaluation> {
    let steps = viewer::steps(game);
    viewer::evaluation(ply_notes, "blue", "red", |j| {
        steps.get(j - 1).is_some_and(|s| s.position.side_to_move() == senat_rules::Side::Blue)
    })
}

/// Team 0's win probability at every ply of an annotated record of a lab
/// game, `None` for a record without `senat annotate`'s comments.
fn lab_evaluation<G: senat_lab::games::LabGame>(
    states: &[G::State],
    ply_notes: &[Vec<String>],
) -> Option<viewer::Evaluation> {
    let s0 = &states[0];
    let seats = G::seats(G::players(s0));
    let team = |t: usize| -> String {
        let names: Vec<&str> = (0..G::players(s0)).filter(|&p| G::team(s0, p) == t).map(|p| seats[p]).collect();
        names.join(" and ")
    };
    viewer::evaluation(ply_notes, &team(0), &team(1), |j| {
        states.get(j - 1).is_some_and(|s| G::team(s, G::to_move(s)) == 0)
    })
}

/// The page of a [`Drawn`] game (Focus, Débâcle): a record, or a row of a
/// moves file; and its plies.
fn drawn_page<G: Drawn>(a: &ViewArgs, kind: GameKind, batch: Option<&IndexedGame>) -> Result<(String, usize)> {
    let g = game::GameArg { game: kind, variant: String::new(), players: None };
    let (meta, states, moves) = match batch {
        None => {
            let played = game::lab_play_record::<G>(&a.file, &g)?;
            let (notes, ply_notes) = other_record_notes(&a.file)?;
            let result = senat_lab::games::result_line::<G>(&played.states[played.states.len() - 1]);
            let evaluation = lab_evaluation::<G>(&played.states, &ply_notes);
            let mut meta = Meta { title: played.name, players: Vec::new(), notes, ply_notes, result, evaluation };
            a.shown(&mut meta);
            (meta, played.states, played.moves)
        }
        Some(b) => {
            let played = game::lab_play_text::<G>(&b.record(), &GameArg::of_batch(b, &g)?)?;
            let result = senat_lab::games::result_line::<G>(&played.states[played.states.len() - 1]);
            (
                Meta {
                    title: b.title.clone(),
                    players: b.players.clone(),
                    notes: Vec::new(),
                    ply_notes: Vec::new(),
                    result,
                    evaluation: None,
                },
                played.states,
                played.moves,
            )
        }
    };
    let page = viewer::page(&meta, viewer::lab::shape::<G>(&states[0]), viewer::lab::plies::<G>(&states, &moves));
    Ok((page, moves.len()))
}

/// The page of a dominoes match (a record, or a row of a moves file) seen
/// by `--seat` (player 0 by default) unless `--reveal`; and its plies.
fn dominoes_page(a: &ViewArgs, batch: Option<&IndexedGame>) -> Result<(String, usize)> {
    let g = game::GameArg { game: GameKind::Dominoes, variant: String::new(), players: None };
    let (mut meta, states, moves) = match batch {
        None => {
            let (name, states, moves) = game::domino_record_states(&a.file, &g)?;
            let (notes, ply_notes) = other_record_notes(&a.file)?;
            // Two players: player 0's chance is the other's complement
            // (`senat annotate --game dominoes` comments each decision).
            let evaluation = (states[0].players() == 2)
                .then(|| {
                    viewer::evaluation(&ply_notes, "player 0", "player 1", |j| {
                        states.get(j - 1).is_some_and(|s| !s.is_chance() && s.to_move() == 0)
                    })
                })
                .flatten();
            let mut meta =
                Meta { title: name, players: Vec::new(), notes, ply_notes, result: String::new(), evaluation };
            a.shown(&mut meta);
            (meta, states, moves)
        }
        Some(b) => {
            let (_, states, moves) = game::domino_text_states(&b.record(), &GameArg::of_batch(b, &g)?)?;
            let meta = Meta {
                title: b.title.clone(),
                players: b.players.clone(),
                notes: Vec::new(),
                ply_notes: Vec::new(),
                result: String::new(),
                evaluation: None,
            };
            (meta, states, moves)
        }
    };
    let players = states[0].players();
    let sight = match a.seat {
        _ if a.reveal => Sight::Revealed,
        Some(seat) if seat >= players => {
            return input(format_args!("--seat {seat}: the match has players 0 to {}", players - 1));
        }
        seat => Sight::Seat(seat.unwrap_or(0)),
    };
    meta.result = senat_lab::play::dominoes::result_line(&states[states.len() - 1]);
    meta.title = match sight {
        Sight::Seat(seat) => format!("{}, seen by player {seat}", meta.title),
        Sight::Revealed => format!("{}, every hand shown", meta.title),
    };
    let plies = viewer::dominoes::plies(&states, &moves, sight);
    Ok((viewer::page(&meta, viewer::dominoes::shape(players, sight), plies), moves.len()))
}

/// `senat render --game dominoes`: the picture of a state, an observation
/// or a ply of a record (`replay`'s format), seen by `--seat` (default: the
/// player to move) unless `--reveal`; `None` when `--variant help` printed
/// the keys instead.
pub(crate) fn domino_render_svg(
    a: &crate::cli::view::RenderArgs,
    record: Option<&std::path::Path>,
    out: &mut impl Write,
) -> Result<Option<String>> {
    use senat_lab::picture::dominoes::{Frame, View};
    if a.game.variant_help(out)? {
        return Ok(None);
    }
    // The move that led to the drawn ply, with the state before it.
    let (pos, last) = match record {
        None => (game::domino_position(&a.what, &a.game)?, None),
        Some(file) => {
            let (name, states, moves) = game::domino_record_states(file, &a.game)?;
            let i = crate::cli::view::pick_ply(a.ply, moves.len(), &name)?;
            (DominoPos::State(states[i]), i.checked_sub(1).map(|k| (i, states[k], moves[k])))
        }
    };
    let mark_last = !a.no_arrows && last.is_some();
    // The note names the move as the seat sees it: a tile dealt to or drawn
    // by another player is not in the picture of one player's view.
    let note_for = |seat: Option<usize>| {
        last.map(|(i, before, m)| format!("ply {i}: {}", senat_lab::picture::dominoes::seen_move(&before, m, seat)))
    };
    let observation = match pos {
        DominoPos::Observation(o) => {
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
        DominoPos::State(s) if a.reveal => {
            let note = note_for(None);
            let frame = Frame { view: View::Revealed(&s), mark_last, note: note.as_deref() };
            return Ok(Some(senat_lab::picture::dominoes::svg(&frame)));
        }
        DominoPos::State(s) => {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_go_with_the_plies_they_precede() {
        let text = "# a game\nsample # the start\n# first\nM13>M14:I19 # push\nM16>M17:I22\n# at the end\n";
        let record = crate::cli::common::parse_record("t", text, Variant::RULES).ok().unwrap();
        let lines: Vec<usize> = record.moves.iter().map(|&(l, _)| l).collect();
        let (game, plies) = record_notes(text, &lines);
        assert_eq!(game, ["a game", "the start"]);
        assert_eq!(plies, [vec![], vec!["first".to_string(), "push".to_string()], vec!["at the end".to_string()]]);
    }
}
