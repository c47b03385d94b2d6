//! Plots of the strategy annex ([`crate::annex::Annex`]), drawn with
//! plotters in SVG and PNG.
//!
//! Text needs a font: plotters draws it with `ab_glyph` from DejaVu Sans,
//! embedded in the binary from `assets/fonts/DejaVuSans.ttf` (Bitstream Vera
//! licence, `assets/fonts/DejaVuSans.LICENSE`), so no system font or
//! fontconfig is needed. Every file is written atomically: drawn into a
//! hidden temporary file in the output folder, then renamed.
//!
//! The plots (each as `NAME.svg` and `NAME.png`):
//! - `length`: play length histogram (share of games per bin of 10
//!   half-moves), one line per matchup, the rules' 60 marked;
//! - `results`: red, blue and draw shares per matchup, with Wilson 95% bars;
//! - `die_value`: per die, the placer's win rate with its interval, one bar
//!   per matchup;
//! - `opening_tree_K`: for matchup K (in summary order), the first give
//!   (bars) split by the first placement (row × colour for red, stacked);
//! - `branching`: mean legal moves by play half-move with p10 and p90, per
//!   moves file, over the half-moves that at least 1% of the games (and
//!   10 games) reach; only when moves files were read.
//!
//! And `senat design`'s picture ([`write_design_png`]): each variant's
//! estimate with its confidence-sequence interval against the shaded
//! target band, one panel per tier; and an arena ladder's rating list
//! ([`write_ladder_png`], `senat arena --ladder --plot`).

use crate::annex::{Annex, MatchupStats, Rel, hist_stats};
use crate::stats::{HIST_WIDTH, wilson};
use plotters::coord::Shift;
use plotters::prelude::*;
use senat_rules::board::Row;
use senat_rules::position::CLOSURE;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// DejaVu Sans, the font of every plot.
static FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// The font family name the plots use.
const FAMILY: &str = "sans-serif";

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The embedded font is a valid TrueType file; a failure would only
        // leave text undrawn, which the plot tests would catch.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, FONT);
    });
}

const W: u32 = 1000;
const H: u32 = 600;

/// A colour per series.
fn series_colour(i: usize) -> RGBColor {
    const C: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(214, 39, 40),
        RGBColor(44, 160, 44),
        RGBColor(255, 127, 14),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
    ];
    C[i % C.len()]
}

/// Red, blue and grey for the results.
const RED: RGBColor = RGBColor(200, 40, 40);
const BLUE: RGBColor = RGBColor(40, 80, 200);
const GREY: RGBColor = RGBColor(150, 150, 150);

/// Colours of the nine placement classes (row × own / opponent / white).
fn class_colour(c: usize) -> RGBColor {
    let base = [(46, 125, 50), (198, 40, 40), (160, 160, 160)][c % 3];
    let shade = [1.0, 0.75, 0.5][c / 3];
    let f = |x: u8| (x as f64 * shade + 255.0 * (1.0 - shade)) as u8;
    RGBColor(f(base.0), f(base.1), f(base.2))
}

/// Why a plot could not be drawn or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlotError {
    /// The drawing library refused (its message).
    Draw(String),
    /// A file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// The system's reason, as text.
        error: String,
    },
}

impl std::fmt::Display for PlotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlotError::Draw(msg) => f.write_str(msg),
            PlotError::Write { path, error } => write!(f, "cannot write {}: {error}", path.display()),
        }
    }
}

impl std::error::Error for PlotError {}

type DrawResult<T = ()> = Result<T, PlotError>;

fn e<E: std::fmt::Display>(x: E) -> PlotError {
    PlotError::Draw(x.to_string())
}

/// A failure to write `path`.
fn write_error(path: &Path, error: impl std::fmt::Display) -> PlotError {
    PlotError::Write { path: path.to_path_buf(), error: error.to_string() }
}

/// The plot names that [`write_plots`] writes for `annex`, without extension.
pub fn plot_names(annex: &Annex) -> Vec<String> {
    let mut v = vec!["length".to_string(), "results".to_string(), "die_value".to_string()];
    v.extend((1..=annex.matchups.len()).map(|k| format!("opening_tree_{k}")));
    if !annex.legal.is_empty() {
        v.push("branching".to_string());
    }
    v
}

/// The matchups in summary order (by policy names).
fn sorted(annex: &Annex) -> Vec<&MatchupStats> {
    let mut v: Vec<&MatchupStats> = annex.matchups.iter().collect();
    v.sort_by(|a, b| a.key.cmp(&b.key));
    v
}

/// Writes every plot of [`plot_names`] as SVG and PNG into `dir`
/// (which must exist); returns the files written.
pub fn write_plots(annex: &Annex, dir: &Path) -> DrawResult<Vec<PathBuf>> {
    register_font();
    let mut written = Vec::new();
    let ms = sorted(annex);
    for name in plot_names(annex) {
        let svg = dir.join(format!("{name}.svg"));
        let png = dir.join(format!("{name}.png"));
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, (W, H)).into_drawing_area();
            draw_named(&name, annex, &ms, &root)?;
            root.present().map_err(e)?;
        }
        let tmp_svg = dir.join(format!(".{name}.tmp.svg"));
        std::fs::write(&tmp_svg, text.as_bytes()).map_err(|x| write_error(&tmp_svg, x))?;
        rename(&tmp_svg, &svg)?;
        let tmp_png = dir.join(format!(".{name}.tmp.png"));
        {
            let root = BitMapBackend::new(&tmp_png, (W, H)).into_drawing_area();
            draw_named(&name, annex, &ms, &root)?;
            root.present().map_err(|x| write_error(&tmp_png, x))?;
        }
        rename(&tmp_png, &png)?;
        written.push(svg);
        written.push(png);
    }
    Ok(written)
}

/// One variant's point of the design picture: its label, estimate,
/// interval and verdict name (`in`, `out`, `undecided`).
pub type DesignPoint = (String, f64, f64, f64, &'static str);

/// One panel of the design picture: its caption, its band `lo..hi`, what
/// its axis measures and each variant's point.
#[derive(Clone, Debug)]
pub struct DesignPanel {
    /// The caption (`tier fast`, an Elo gap's name).
    pub caption: String,
    /// The target band, shaded.
    pub band: (f64, f64),
    /// With a tolerance, the band widened by it (where an `in` interval
    /// may reach), shaded lighter; `None` without one.
    pub widened: Option<(f64, f64)>,
    /// The axis's description.
    pub axis: String,
    /// Each variant's point, in the design's order.
    pub points: Vec<DesignPoint>,
}

/// Draws `senat design`'s picture into `path` (PNG, atomically): one panel
/// per tier's first target and per Elo gap (`panels`), its band shaded
/// (and the band widened by a tolerance, lighter), each variant's estimate
/// with its interval, coloured by verdict (green in, red out, grey
/// undecided).
pub fn write_design_png(path: &Path, title: &str, panels: &[DesignPanel]) -> DrawResult {
    register_font();
    let n = panels.iter().map(|p| p.points.len()).max().unwrap_or(1).max(1);
    let longest = panels.iter().flat_map(|p| p.points.iter().map(|q| q.0.chars().count())).max().unwrap_or(8) as u32;
    let label_area = 20 + 7 * longest.min(80);
    let k = panels.len().max(1) as u32;
    let w = (k * (label_area + 420)).clamp(600, 6000);
    // Empty rows below the last variant, where the legend goes: it never
    // covers an interval (a row more for the widened band's entry).
    let pad = 4usize + panels.iter().any(|p| p.widened.is_some()) as usize;
    let h = (130 + 22 * (n + pad) as u32).clamp(300, 6000);
    let tmp = temp_beside(path);
    {
        let root = BitMapBackend::new(&tmp, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        let root = root.titled(title, (FAMILY, 18)).map_err(e)?;
        let areas = root.split_evenly((1, panels.len().max(1)));
        for (panel, area) in panels.iter().zip(&areas) {
            let (pts, band) = (&panel.points, panel.band);
            let outer = panel.widened.unwrap_or(band);
            let xmin = pts.iter().map(|p| p.2).fold(outer.0, f64::min).max(0.0) - 0.02;
            let xmax = pts.iter().map(|p| p.3).fold(outer.1, f64::max).min(1.0) + 0.02;
            // The first variant at the top: row i is drawn at y = n − 1 − i.
            let labels: Vec<String> = pts.iter().map(|p| p.0.clone()).collect();
            let y = |i: usize| (n - 1 - i) as f64;
            let mut chart = ChartBuilder::on(area)
                .caption(&panel.caption, (FAMILY, 16))
                .margin(10)
                .x_label_area_size(40)
                .y_label_area_size(label_area)
                .build_cartesian_2d(xmin.max(-0.02)..xmax.min(1.02), -(pad as f64) - 0.5..n as f64 - 0.5)
                .map_err(e)?;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(n + pad)
                .y_label_formatter(&|v| row_label(&labels, n, *v))
                .x_desc(&panel.axis)
                .label_style((FAMILY, 12))
                .draw()
                .map_err(e)?;
            if let Some(w) = panel.widened {
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(w.0, -0.5), (w.1, n as f64 - 0.5)],
                        RGBColor(46, 125, 50).mix(0.07).filled(),
                    )))
                    .map_err(e)?
                    .label(format!("widened by the tolerance {}..{}", short(w.0), short(w.1)))
                    .legend(|(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 15, y + 5)], RGBColor(46, 125, 50).mix(0.12).filled())
                    });
            }
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(band.0, -0.5), (band.1, n as f64 - 0.5)],
                    RGBColor(46, 125, 50).mix(0.18).filled(),
                )))
                .map_err(e)?
                .label(format!("target band {}..{}", short(band.0), short(band.1)))
                .legend(|(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 15, y + 5)], RGBColor(46, 125, 50).mix(0.3).filled())
                });
            for (verdict, colour) in [("in", RGBColor(46, 125, 50)), ("out", RED), ("undecided", GREY)] {
                let sel: Vec<(usize, &DesignPoint)> = pts.iter().enumerate().filter(|(_, p)| p.4 == verdict).collect();
                if sel.is_empty() {
                    continue;
                }
                chart
                    .draw_series(
                        sel.iter()
                            .map(|&(i, p)| ErrorBar::new_horizontal(y(i), p.2, p.1, p.3, colour.stroke_width(2), 6)),
                    )
                    .map_err(e)?
                    .label(verdict)
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 15, y)], colour.stroke_width(3)));
                chart.draw_series(sel.iter().map(|&(i, p)| Circle::new((p.1, y(i)), 4, colour.filled()))).map_err(e)?;
            }
            chart
                .configure_series_labels()
                .label_font((FAMILY, 12))
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .position(SeriesLabelPosition::LowerRight)
                .draw()
                .map_err(e)?;
        }
        root.present().map_err(|x| write_error(&tmp, x))?;
    }
    rename(&tmp, path)
}

/// One agent of a ladder's picture: its name, its chained Elo (the first
/// agent 0) and the half-width of its 95% interval; a rating that is not
/// finite (a sweep below it) is left out of the bars.
pub type LadderPoint = (String, f64, f64);

/// Draws an arena ladder's rating list into `path` (PNG, atomically): one
/// row per agent in the ladder's order, the first at the top, its chained
/// Elo with its 95% interval as a horizontal bar, and 0 marked (a skill
/// trace when the agents are one family at growing budgets).
pub fn write_ladder_png(path: &Path, title: &str, points: &[LadderPoint]) -> DrawResult {
    register_font();
    let n = points.len().max(1);
    let longest = points.iter().map(|p| p.0.chars().count()).max().unwrap_or(8) as u32;
    let label_area = 20 + 7 * longest.min(90);
    let w = (label_area + 560).clamp(700, 4000);
    let h = (150 + 34 * n as u32).clamp(300, 4000);
    let finite: Vec<(usize, &LadderPoint)> =
        points.iter().enumerate().filter(|(_, p)| p.1.is_finite() && p.2.is_finite()).collect();
    let lo = finite.iter().map(|(_, p)| p.1 - p.2).fold(0.0, f64::min);
    let hi = finite.iter().map(|(_, p)| p.1 + p.2).fold(0.0, f64::max);
    let margin = ((hi - lo) * 0.06).max(10.0);
    let labels: Vec<String> = points.iter().map(|p| p.0.clone()).collect();
    let y = |i: usize| (n - 1 - i) as f64;
    let tmp = temp_beside(path);
    {
        let root = BitMapBackend::new(&tmp, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        let root = root.titled(title, (FAMILY, 16)).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(14)
            .x_label_area_size(45)
            .y_label_area_size(label_area)
            .build_cartesian_2d(lo - margin..hi + margin, -0.6..n as f64 - 0.4)
            .map_err(e)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n)
            .y_label_formatter(&|v| row_label(&labels, n, *v))
            .x_desc("Elo against the first agent (chained steps, 95% intervals)")
            .label_style((FAMILY, 12))
            .draw()
            .map_err(e)?;
        chart
            .draw_series(std::iter::once(PathElement::new(vec![(0.0, -0.6), (0.0, n as f64 - 0.4)], BLACK.mix(0.4))))
            .map_err(e)?;
        let colour = RGBColor(21, 101, 192);
        chart
            .draw_series(
                finite.iter().map(|&(i, p)| {
                    ErrorBar::new_horizontal(y(i), p.1 - p.2, p.1, p.1 + p.2, colour.stroke_width(2), 8)
                }),
            )
            .map_err(e)?;
        chart.draw_series(finite.iter().map(|&(i, p)| Circle::new((p.1, y(i)), 4, colour.filled()))).map_err(e)?;
        chart
            .draw_series(finite.iter().map(|&(i, p)| {
                Text::new(format!("{:+.0} ± {:.0}", p.1, p.2), (p.1, y(i) + 0.32), (FAMILY, 12).into_font())
            }))
            .map_err(e)?;
        root.present().map_err(|x| write_error(&tmp, x))?;
    }
    rename(&tmp, path)
}

/// The label of row `v` of a chart of `n` rows whose `labels` are drawn
/// from the top (label 0 on row n − 1); empty between rows and below.
fn row_label(labels: &[String], n: usize, v: f64) -> String {
    let r = v.round();
    if (v - r).abs() < 1e-6 && r >= 0.0 && (r as usize) < n {
        labels.get(n - 1 - r as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

/// The hidden file beside `path` that a picture is drawn into before it
/// is renamed to `path`.
fn temp_beside(path: &Path) -> PathBuf {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    dir.join(format!(".{name}.tmp.png"))
}

/// `x` with at most 3 decimals, trailing zeros dropped (0.45, 0.64, 1).
fn short(x: f64) -> String {
    let t = format!("{x:.3}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    if t.is_empty() || t == "-" { "0".into() } else { t.to_string() }
}

fn rename(from: &Path, to: &Path) -> DrawResult {
    std::fs::rename(from, to).map_err(|x| write_error(to, x))
}

fn draw_named<DB: DrawingBackend>(
    name: &str,
    annex: &Annex,
    ms: &[&MatchupStats],
    root: &DrawingArea<DB, Shift>,
) -> DrawResult {
    root.fill(&WHITE).map_err(e)?;
    match name {
        "length" => length(annex, ms, root),
        "results" => results(annex, ms, root),
        "die_value" => die_value(ms, root),
        "branching" => branching(annex, root),
        _ => {
            let k: usize = name.trim_start_matches("opening_tree_").parse().map_err(e)?;
            opening_tree(ms[k - 1], root)
        }
    }
}

fn length<DB: DrawingBackend>(annex: &Annex, ms: &[&MatchupStats], root: &DrawingArea<DB, Shift>) -> DrawResult {
    let mut series = Vec::new();
    let (mut xmax, mut ymax) = (CLOSURE as f64 + 10.0, 0.01f64);
    for m in ms {
        let Some(t) = annex.summary.groups.get(&m.key) else { continue };
        let pts: Vec<(f64, f64)> = t
            .histogram(HIST_WIDTH)
            .into_iter()
            .map(|(s, c)| (s as f64 + HIST_WIDTH as f64 / 2.0, c as f64 / t.games.max(1) as f64))
            .collect();
        for &(x, y) in &pts {
            xmax = xmax.max(x + HIST_WIDTH as f64);
            ymax = ymax.max(y);
        }
        series.push((m.key.label(), t.mean_length(), pts));
    }
    let mut chart = ChartBuilder::on(root)
        .caption("Play length (half-moves, draft excluded)", (FAMILY, 22))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d(0f64..xmax, 0f64..ymax * 1.1)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("play half-moves")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc(format!("share of games per bin of {HIST_WIDTH}"))
        .label_style((FAMILY, 14))
        .draw()
        .map_err(e)?;
    for (i, (label, mean, pts)) in series.into_iter().enumerate() {
        let c = series_colour(i);
        chart
            .draw_series(LineSeries::new(pts, c.stroke_width(2)))
            .map_err(e)?
            .label(format!("{label} (mean {mean:.1})"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
    }
    let sixty = CLOSURE as f64;
    chart
        .draw_series(std::iter::once(PathElement::new(vec![(sixty, 0.0), (sixty, ymax * 1.1)], BLACK.stroke_width(1))))
        .map_err(e)?;
    chart
        .draw_series(std::iter::once(Text::new(
            "60: the rules' average",
            (sixty + 2.0, ymax * 1.05),
            (FAMILY, 14).into_font(),
        )))
        .map_err(e)?;
    legend(&mut chart, 14)
}

/// A chart on plain numeric axes.
type Chart<'a, DB> =
    ChartContext<'a, DB, Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>>;

/// One series of bars `(left x, value, interval low, interval high)` of the
/// given width and colour, with their 95% intervals as whiskers and a legend entry.
fn interval_bars<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    bars: &[(f64, f64, f64, f64)],
    width: f64,
    colour: RGBColor,
    label: impl Into<String>,
    whisker: u32,
) -> DrawResult {
    chart
        .draw_series(bars.iter().map(|&(x0, p, _, _)| Rectangle::new([(x0, 0.0), (x0 + width, p)], colour.filled())))
        .map_err(e)?
        .label(label)
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 15, y + 5)], colour.filled()));
    chart
        .draw_series(bars.iter().map(|&(x0, p, lo, hi)| {
            ErrorBar::new_vertical(x0 + width / 2.0, lo, p, hi, BLACK.stroke_width(1), whisker)
        }))
        .map_err(e)?;
    Ok(())
}

/// The series legend in the upper right corner, in `size`-point text.
fn legend<'a, DB: DrawingBackend + 'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    size: u32,
) -> DrawResult {
    chart
        .configure_series_labels()
        .label_font((FAMILY, size))
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(e)?;
    Ok(())
}

fn segment_label(labels: &[String], v: &SegmentValue<usize>) -> String {
    match v {
        SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
        _ => String::new(),
    }
}

fn results<DB: DrawingBackend>(annex: &Annex, ms: &[&MatchupStats], root: &DrawingArea<DB, Shift>) -> DrawResult {
    let labels: Vec<String> = ms.iter().map(|m| m.key.label()).collect();
    let n = ms.len().max(1);
    let mut chart = ChartBuilder::on(root)
        .caption("Results per matchup (95% Wilson intervals)", (FAMILY, 22))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, 0f64..1f64)
        .map_err(e)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_desc("matchup (red vs blue)")
        .y_desc("share of games")
        .label_style((FAMILY, 13))
        .draw()
        .map_err(e)?;
    let parts: [(&str, RGBColor); 3] = [("red wins", RED), ("blue wins", BLUE), ("draws", GREY)];
    let width = 0.8 / 3.0;
    for (j, &(label, colour)) in parts.iter().enumerate() {
        let mut bars = Vec::new();
        for (i, m) in ms.iter().enumerate() {
            let Some(t) = annex.summary.groups.get(&m.key) else { continue };
            let k = [t.red, t.blue, t.draws][j];
            let p = k as f64 / t.games.max(1) as f64;
            let (lo, hi) = wilson(k, t.games);
            bars.push((i as f64 - 0.4 + j as f64 * width, p, lo, hi));
        }
        interval_bars(&mut chart, &bars, width, colour, label, 8)?;
    }
    legend(&mut chart, 14)
}

fn die_value<DB: DrawingBackend>(ms: &[&MatchupStats], root: &DrawingArea<DB, Shift>) -> DrawResult {
    let nm = ms.len().max(1) as f64;
    let mut chart = ChartBuilder::on(root)
        .caption("Draft value per die: win rate of the side that placed it (95% intervals)", (FAMILY, 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d(0.5f64..23.5f64, 0f64..1f64)
        .map_err(e)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(23)
        .x_label_formatter(&|x| format!("{}", x.round() as i64))
        .x_desc("die")
        .y_desc("placer's win rate")
        .label_style((FAMILY, 13))
        .draw()
        .map_err(e)?;
    chart.draw_series(std::iter::once(PathElement::new(vec![(0.5, 0.5), (23.5, 0.5)], BLACK.mix(0.5)))).map_err(e)?;
    let width = 0.8 / nm;
    for (j, m) in ms.iter().enumerate() {
        let c = series_colour(j);
        let bars: Vec<(f64, f64, f64, f64)> = m
            .dice
            .iter()
            .enumerate()
            .map(|(d, s)| {
                let s = s[0][0];
                let p = s.wins as f64 / s.games.max(1) as f64;
                let (lo, hi) = wilson(s.wins, s.games);
                let x0 = d as f64 + 1.0 - 0.4 + j as f64 * width;
                (x0, p, lo, hi)
            })
            .collect();
        interval_bars(&mut chart, &bars, width, c, m.key.label(), 6)?;
    }
    legend(&mut chart, 14)
}

fn opening_tree<DB: DrawingBackend>(m: &MatchupStats, root: &DrawingArea<DB, Shift>) -> DrawResult {
    let n = m.games().max(1) as f64;
    // First gives that occurred, in die order, with their placement classes.
    let mut gives: Vec<(usize, [u64; 9])> = Vec::new();
    for (d, w) in m.first_give.iter().enumerate() {
        if w.games == 0 {
            continue;
        }
        let mut per = [0u64; 9];
        for (k, x) in &m.tree {
            let (g, p, rest) = (k & 31, (k >> 5) & 15, k >> 9);
            if g as usize == d + 1 && p != 0 && rest == 0 {
                per[p as usize - 1] += x.games;
            }
        }
        gives.push((d + 1, per));
    }
    let ymax = gives.iter().map(|(_, p)| p.iter().sum::<u64>() as f64 / n).fold(0.01, f64::max);
    let labels: Vec<String> = gives.iter().map(|(d, _)| format!("g{d}")).collect();
    let ng = gives.len().max(1);
    let mut chart = ChartBuilder::on(root)
        .caption(format!("Draft openings: first give → first placement ({})", m.key.label()), (FAMILY, 18))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d((0..ng - 1).into_segmented(), 0f64..ymax * 1.25)
        .map_err(e)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(ng)
        .x_label_formatter(&|v| segment_label(&labels, v))
        .x_desc("first give (blue gives, red places)")
        .y_desc("share of games")
        .label_style((FAMILY, 12))
        .draw()
        .map_err(e)?;
    for c in 0..9 {
        let colour = class_colour(c);
        let rects: Vec<Rectangle<(SegmentValue<usize>, f64)>> = gives
            .iter()
            .enumerate()
            .filter(|(_, (_, per))| per[c] > 0)
            .map(|(i, (_, per))| {
                let below: u64 = per[..c].iter().sum();
                let y0 = below as f64 / n;
                let y1 = (below + per[c]) as f64 / n;
                let mut r =
                    Rectangle::new([(SegmentValue::Exact(i), y0), (SegmentValue::Exact(i + 1), y1)], colour.filled());
                r.set_margin(0, 0, 3, 3);
                r
            })
            .collect();
        let label = format!("{}:{}", Row::ALL[c / 3].letter(), Rel::ALL[c % 3].name());
        chart
            .draw_series(rects)
            .map_err(e)?
            .label(label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 15, y + 5)], colour.filled()));
    }
    legend(&mut chart, 12)
}

fn branching<DB: DrawingBackend>(annex: &Annex, root: &DrawingArea<DB, Shift>) -> DrawResult {
    let mut series = Vec::new();
    let (mut xmax, mut ymax) = (50f64, 1f64);
    for st in &annex.legal {
        // The play phase only: the draft alternates gives (few moves) and
        // placements (many), which the tables show ply by ply.
        let play: Vec<&Vec<u64>> = st.by_ply.iter().filter(|(p, _)| *p == 1).map(|(_, h)| h).collect();
        let first = play.first().map_or(0, |h| h.iter().sum::<u64>());
        let min_n = (first / 100).max(10);
        let mut pts = Vec::new();
        for (i, h) in play.iter().enumerate() {
            let (n, mean, q) = hist_stats(h);
            if n < min_n {
                continue;
            }
            pts.push(((i + 1) as f64, mean, q[1] as f64, q[3] as f64));
            xmax = xmax.max((i + 1) as f64);
            ymax = ymax.max(q[3] as f64);
        }
        series.push((st.name.clone(), pts));
    }
    let mut chart = ChartBuilder::on(root)
        .caption("Branching factor: legal moves by play half-move (mean, p10, p90)", (FAMILY, 22))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d(0f64..xmax + 1.0, 0f64..ymax * 1.1)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("play half-move")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc("legal moves")
        .label_style((FAMILY, 14))
        .draw()
        .map_err(e)?;
    for (i, (name, pts)) in series.into_iter().enumerate() {
        let c = series_colour(i);
        chart
            .draw_series(LineSeries::new(pts.iter().map(|p| (p.0, p.1)), c.stroke_width(2)))
            .map_err(e)?
            .label(format!("{name}: mean"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
        chart.draw_series(LineSeries::new(pts.iter().map(|p| (p.0, p.2)), c.mix(0.4))).map_err(e)?;
        chart.draw_series(LineSeries::new(pts.iter().map(|p| (p.0, p.3)), c.mix(0.4))).map_err(e)?;
    }
    legend(&mut chart, 14)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_are_labelled_short() {
        assert_eq!(short(0.45), "0.45");
        assert_eq!(short(0.6400649998028851), "0.64");
        assert_eq!(short(1.0), "1");
        assert_eq!(short(0.0), "0");
        assert_eq!(short(0.5556), "0.556");
    }

    #[test]
    fn rows_are_labelled_from_the_top_and_nothing_between() {
        let labels = vec!["a".to_string(), "b".to_string()];
        assert_eq!(row_label(&labels, 3, 2.0), "a");
        assert_eq!(row_label(&labels, 3, 1.0), "b");
        assert_eq!(row_label(&labels, 3, 0.0), "");
        assert_eq!(row_label(&labels, 3, 1.5), "");
        assert_eq!(row_label(&labels, 3, -1.0), "");
    }
}
