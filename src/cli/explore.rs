//! `senat explore`: the opening explorer of batch files of any game, a
//! page (and a CSV) of every prefix of the first moves with its games and
//! the first player's score. The files are read, replayed and aggregated
//! by the lab (`senat_lab::catalog::explore`, `senat_lab::explorer`); this
//! module reads the arguments, shows progress and writes the outputs
//! atomically.

use crate::cli::common::{Result, input, progress_bar, refuse_existing, shell_word, threads_or_all, write_atomic};
use crate::cli::game::parse_game;
use clap::Args;
use senat_lab::catalog::explore::explore;
use senat_lab::explorer::PageMeta;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `senat explore`.
#[derive(Args, Debug)]
pub(crate) struct ExploreArgs {
    /// Batch files of one game and variant (their identity lines say
    /// which): Sénat's games or moves files, the other games' moves files
    /// (their games files hold no moves), arenas' moves files. Their games
    /// are pooled.
    #[arg(value_name = "FILES", required = true)]
    files: Vec<PathBuf>,
    /// The game the files must be of (senat, focus, focus4, debacle,
    /// connect4, dominoes); without it, the first file's.
    #[arg(long = "game", value_name = "GAME", value_parser = parse_game)]
    game: Option<senat_lab::games::GameKind>,
    /// The moves kept of each game: the tree's depth (Sénat's draft is
    /// its first 46 moves).
    #[arg(long, value_name = "PLIES", default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..=200))]
    depth: u64,
    /// Show only the moves played in at least M games; by default the
    /// smallest M that keeps at most --max-nodes prefixes.
    #[arg(long, value_name = "M")]
    min_games: Option<u64>,
    /// Without --min-games: the most prefixes the page and the CSV show.
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    max_nodes: u64,
    /// The page (one HTML file, no network).
    #[arg(long, value_name = "FILE", default_value = "explorer.html")]
    out: PathBuf,
    /// Also write every shown prefix as CSV: pairing,ply,prefix,move,games,first_points,first_score,score_low,score_high
    /// (over all games, then by pairing).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Overwrite an existing --out or --csv file.
    #[arg(long)]
    force: bool,
    /// Threads replaying the games (default: every core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

/// `senat explore`.
pub(crate) fn explore_cmd(a: ExploreArgs, out: &mut impl Write) -> Result<()> {
    let threads = threads_or_all(a.threads)?;
    refuse_existing(&a.out, a.force)?;
    if let Some(csv) = &a.csv {
        refuse_existing(csv, a.force)?;
        if *csv == a.out {
            return input("--csv and --out name the same file");
        }
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().or_else(input)?;
    let bar = progress_bar(0, a.quiet);
    bar.set_length(u64::MAX);
    let started = Instant::now();
    let depth = usize::try_from(a.depth).unwrap_or(usize::MAX);
    let done = pool.install(|| explore(&a.files, a.game, depth, &|n| bar.set_position(n))).or_else(input)?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let e = &done.explorer;
    let max_nodes = usize::try_from(a.max_nodes).unwrap_or(usize::MAX);
    let threshold = e.threshold(a.min_games, max_nodes);
    let files: Vec<String> = a.files.iter().map(|f| f.display().to_string()).collect();
    let command = std::iter::once("senat".to_string())
        .chain(std::env::args().skip(1).map(|x| shell_word(&x)))
        .collect::<Vec<_>>()
        .join(" ");
    let variant = if done.variant.is_empty() { String::new() } else { format!(" ({})", done.variant) };
    let meta = PageMeta {
        title: format!("{}{variant}: openings of {} games", done.kind, e.games()),
        first: done.first.clone(),
        files: files.clone(),
        command: command.clone(),
    };
    write_atomic(&a.out, e.page(&meta, threshold).as_bytes(), a.force)?;
    writeln!(
        out,
        "{} games of {}{variant} read and replayed in {seconds:.1} s on {threads} thread{}: {} prefixes of up to {} moves; \
         shown: those of at least {threshold} game{}; score: {}'s",
        e.games(),
        done.kind,
        if threads == 1 { "" } else { "s" },
        e.nodes(),
        e.depth(),
        if threshold == 1 { "" } else { "s" },
        done.first
    )?;
    if done.unfinished > 0 {
        writeln!(out, "{} games ended unfinished (a ply cap or a round limit): counted as draws", done.unfinished)?;
    }
    let mut wrote = vec![a.out.display().to_string()];
    if let Some(csv) = &a.csv {
        let notes = [
            command,
            format!(
                "game={}{variant} games={} depth={} min_games={threshold} score: {}'s points, a draw half; intervals: Wilson 95%",
                done.kind,
                e.games(),
                e.depth(),
                done.first
            ),
        ];
        write_atomic(csv, &e.csv(threshold, &notes), a.force)?;
        wrote.push(csv.display().to_string());
    }
    writeln!(out, "wrote {}", wrote.join(", "))?;
    Ok(())
}
