//! Board pictures (`senat render`, `senat_lab::picture`): the SVG is parsed and
//! every die's number, symbol and colour is checked against the position;
//! PNG size and pixel colours; the same input gives the same bytes.

use resvg::tiny_skia::Pixmap;
use senat_lab::picture::{self, Frame};
use senat_lab::policy::{PolicySpec, Turn, rng_from_seed};
use senat_rules::{Cell, Colour, GameRecord, Position, Symbol, sample};
use std::path::PathBuf;

use crate::support::cli::{ok, senat};
use crate::support::games::sample_game;

/// The palette the pictures promise (docs/commands/pictures.md): shown colour to fill.
fn expected_fill(c: Colour) -> &'static str {
    match c {
        Colour::Red => "#d32f2f",
        Colour::Blue => "#1e63c6",
        Colour::White => "#ffffff",
    }
}

fn expected_rgb(c: Colour) -> [u8; 3] {
    match c {
        Colour::Red => [0xd3, 0x2f, 0x2f],
        Colour::Blue => [0x1e, 0x63, 0xc6],
        Colour::White => [0xff, 0xff, 0xff],
    }
}

/// The SVG element that draws each symbol.
fn expected_tag(s: Symbol) -> &'static str {
    match s {
        Symbol::Triangle => "polygon",
        Symbol::Square => "rect",
        Symbol::Circle => "circle",
    }
}

/// A fresh folder for one test's files.
fn dir(name: &str) -> PathBuf {
    crate::support::files::scratch("render", name)
}

/// Positions of a whole heuristic-vs-random game from the start (the
/// draft, restricted dice, piles), and of the sample game.
fn positions() -> Vec<(Position, Option<senat_rules::Move>)> {
    let mut v = Vec::new();
    let mut g = GameRecord::new(Position::start());
    let mut players = [PolicySpec::parse("heuristic").unwrap().build(), PolicySpec::parse("random").unwrap().build()];
    let mut rng = rng_from_seed(7);
    v.push((*g.position(), None));
    while g.outcome().is_none() && g.moves().len() < 300 {
        let side = g.position().side_to_move() as usize;
        let m = players[side].choose(&Turn::new(&g), &mut rng);
        g.play(m).unwrap();
        v.push((*g.position(), Some(m)));
    }
    let s = sample_game();
    let mut p = *s.start();
    v.push((p, None));
    for &m in s.moves() {
        p.play_unchecked(m);
        v.push((p, Some(m)));
    }
    v
}

/// Checks one SVG against its position: every die, the empty cells, the piles, the caption.
fn check_svg(svg: &str, p: &Position) {
    let doc = roxmltree::Document::parse(svg).expect("the picture is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("data-spn"), Some(p.to_spn().as_str()));
    let dice: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some("die")).collect();
    assert_eq!(dice.len() as u32, p.dice_count(), "one die group per die on the board");
    for c in Cell::all() {
        let here: Vec<_> = dice.iter().filter(|n| n.attribute("data-cell") == Some(&c.to_string())).collect();
        let Some((d, f)) = p.piece_at(c) else {
            assert!(here.is_empty(), "{c} is empty but a die is drawn there");
            continue;
        };
        assert_eq!(here.len(), 1, "{c}: one die");
        let g = here[0];
        let number = g
            .descendants()
            .find(|n| n.attribute("class") == Some("die-number"))
            .and_then(|n| n.text())
            .expect("a die number");
        assert_eq!(number, d.number().to_string(), "{c}: die number");
        let symbol: Vec<_> = g.descendants().filter(|n| n.attribute("class") == Some("symbol")).collect();
        assert_eq!(symbol.len(), 1, "{c}: one symbol");
        assert_eq!(symbol[0].tag_name().name(), expected_tag(f.symbol()), "{c}: symbol of {f}");
        let colour = d.colour(f);
        assert_eq!(symbol[0].attribute("fill"), Some(expected_fill(colour)), "{c}: colour of {d} showing {f}");
        let restricted = g.descendants().any(|n| n.attribute("class") == Some("restricted"));
        assert_eq!(restricted, p.restricted().contains(c), "{c}: restriction mark");
    }
    let piles = p.piles();
    for (class, n) in [("pile-red", piles.red), ("pile-blue", piles.blue), ("pile-white", piles.white)] {
        let g = doc.descendants().find(|n| n.attribute("class") == Some(class)).expect("a pile");
        let count = g.descendants().find(|n| n.attribute("class") == Some("pile-count")).and_then(|n| n.text());
        assert_eq!(count, Some(n.to_string().as_str()), "{class}");
    }
    let caption: Vec<&str> =
        doc.descendants().filter(|n| n.attribute("class") == Some("caption")).filter_map(|n| n.text()).collect();
    assert_eq!(caption.len(), 2);
    // A game over (majority, closure or block: what the position alone shows) says who won instead.
    if let Some(o) = senat_rules::Outcome::of_occurrences(p, 1) {
        assert_eq!(caption[0], o.to_string(), "caption {caption:?} of a finished game");
        assert!(!caption[0].contains(" to move"), "{caption:?}");
        return;
    }
    let side = p.side_to_move().to_string();
    assert!(caption[0].contains(&side), "caption {caption:?} names the side to move");
    if p.is_play() {
        assert!(caption[0].contains(&format!("clock {}", p.clock())), "caption {caption:?}");
    } else {
        // The draft shows the reserve, die by die.
        let reserve: Vec<&str> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("reserve-die"))
            .filter_map(|n| n.attribute("data-die"))
            .collect();
        let expected: Vec<String> = p.reserve().iter().map(|d| d.to_string()).collect();
        assert_eq!(reserve, expected);
    }
}

#[test]
fn every_die_is_drawn_as_it_shows() {
    let all = positions();
    assert!(all.iter().any(|(p, _)| !p.restricted().is_empty()), "some position has restricted dice");
    assert!(all.iter().any(|(p, _)| !p.is_play()), "some position is in the draft");
    assert!(
        all.iter()
            .any(|(p, _)| p.piece_at(Cell::from_number(1).unwrap()).is_some_and(|(d, f)| d.colour(f) == Colour::White)),
        "a white die is drawn"
    );
    for (p, last) in &all {
        let svg = picture::svg(&Frame { position: p, last: *last, note: Some("<note> & \"x\"") });
        check_svg(&svg, p);
    }
}

#[test]
fn the_cli_draws_a_record_ply_and_a_position() {
    let d = dir("cli");
    let out = d.join("p5.svg");
    ok(&["render", "crates/rules/data/sample-game.txt", "--ply", "5", "--out", out.to_str().unwrap()]);
    let svg = std::fs::read_to_string(&out).unwrap();
    let g = sample_game();
    let mut p = *g.start();
    for &m in &g.moves()[..5] {
        p.play_unchecked(m);
    }
    check_svg(&svg, &p);
    assert!(svg.contains("class=\"arrow\""), "the last move is drawn");
    // An SPN over several arguments.
    let spn: Vec<&str> = sample::START.split(' ').collect();
    let out2 = d.join("start.svg");
    let mut args = vec!["render"];
    args.extend(&spn);
    args.extend(["--out", out2.to_str().unwrap()]);
    ok(&args);
    check_svg(&std::fs::read_to_string(&out2).unwrap(), &sample::START.parse().unwrap());
}

#[test]
fn png_has_the_size_and_colours_of_the_position() {
    let d = dir("png");
    let out = d.join("sample.png");
    ok(&["render", "sample", "--out", out.to_str().unwrap()]);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let pix = Pixmap::decode_png(&bytes).expect("a PNG");
    assert_eq!((pix.width(), pix.height()), (716, 500));
    let p: Position = sample::START.parse().unwrap();
    let at = |x: i32, y: i32| {
        let c = pix.pixel(x as u32, y as u32).expect("inside the picture");
        [c.red(), c.green(), c.blue()]
    };
    for c in Cell::all() {
        let (d, f) = p.piece_at(c).expect("the sample's board is full");
        let (x, y) = picture::symbol_centre(c);
        assert_eq!(at(x, y), expected_rgb(d.colour(f)), "{c}: die {d} shows {f}");
        // The die body around the symbol, in a corner away from the number.
        let (ox, oy) = picture::cell_origin(c);
        assert_eq!(at(ox + 50, oy + 50), [0xf4, 0xec, 0xd9], "{c}: die body");
    }
    // Background in the top-left corner.
    assert_eq!(at(2, 2), [0xe9, 0xdc, 0xc0]);
    // The caption's text is drawn (dark pixels where it is), with the embedded font.
    let dark = (20..300).filter(|&x| at(x, 397)[0] < 0x60).count();
    assert!(dark > 10, "caption text drawn: {dark} dark pixels");
}

#[test]
fn same_input_same_bytes() {
    let d = dir("same");
    for ext in ["svg", "png"] {
        let a = d.join(format!("a.{ext}"));
        let b = d.join(format!("b.{ext}"));
        for f in [&a, &b] {
            ok(&["render", "crates/rules/data/sample-game.txt", "--ply", "9", "--out", f.to_str().unwrap()]);
        }
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap(), "{ext}");
    }
}

#[test]
fn existing_pictures_are_kept_and_bad_names_refused() {
    let d = dir("refuse");
    let out = d.join("x.svg");
    std::fs::write(&out, "keep me").unwrap();
    let o = senat(&["render", "sample", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("already exists; pass --force"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    ok(&["render", "sample", "--out", out.to_str().unwrap(), "--force"]);
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("<svg"));
    let o = senat(&["render", "sample", "--out", d.join("x.jpg").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("must end in .svg or .png"));
    let o = senat(&[
        "render",
        "crates/rules/data/sample-game.txt",
        "--ply",
        "99",
        "--out",
        d.join("y.svg").to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("has plies 0 to 27"), "{o:?}");
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

#[test]
fn replay_draws_every_ply() {
    let d = dir("replay");
    let pics = d.join("plies");
    ok(&["replay", "crates/rules/data/sample-game.txt", "--quiet", "--svg", pics.to_str().unwrap()]);
    let g = sample_game();
    let mut p = *g.start();
    for i in 0..=g.moves().len() {
        if i > 0 {
            p.play_unchecked(g.moves()[i - 1]);
        }
        let svg = std::fs::read_to_string(pics.join(format!("ply-{i:03}.svg"))).unwrap();
        check_svg(&svg, &p);
    }
    // A second run refuses to overwrite them.
    let o = senat(&["replay", "crates/rules/data/sample-game.txt", "--quiet", "--svg", pics.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
}

/// The note under a dominoes picture names the last move as the seat sees
/// it: a tile dealt to the other player is `?` there, and nowhere in the
/// picture; revealed, the note names it.
#[test]
fn a_dominoes_note_hides_a_tile_dealt_to_another_seat() {
    let d = crate::support::files::scratch("render", "dominoes-note");
    // Deterministic deal: the first tiles of `moves` at each chance node.
    let mut s = dominoes_rules::State::start(dominoes_rules::Variant::default());
    let mut c = Vec::new();
    let mut body = String::from("start\n");
    let mut last = None;
    for _ in 0..8 {
        s.chance_outcomes(&mut c);
        let m = c[c.len() / 2].0;
        body.push_str(&format!("{m}\n"));
        s.play_unchecked(m);
        last = Some(m);
    }
    let Some(dominoes_rules::Move::Deal { tile, to: 1 }) = last else {
        panic!("the 8th tile goes to player 1: {last:?}")
    };
    let record = d.join("deal.txt");
    std::fs::write(&record, body).unwrap();
    let svg = |extra: &[&str], name: &str| {
        let out = d.join(name);
        let mut args = vec!["render", "--game", "dominoes", record.to_str().unwrap(), "--out", out.to_str().unwrap()];
        args.extend(extra);
        ok(&args);
        std::fs::read_to_string(out).unwrap()
    };
    let seen = svg(&["--seat", "0"], "seat0.svg");
    assert!(seen.contains("ply 8: ?&gt;1"), "the note: {seen}");
    assert!(!seen.contains(&tile.to_string()), "the tile dealt to player 1 is not in player 0's picture");
    let revealed = svg(&["--reveal"], "all.svg");
    assert!(revealed.contains(&format!("ply 8: {tile}&gt;1")), "{revealed}");
}
