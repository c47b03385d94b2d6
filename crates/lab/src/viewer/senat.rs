//! Sénat's plies for the viewer page: each position of a game with its SPN,
//! its board picture, the draft and play headings and the caption lines of
//! [`crate::picture`].

use super::{Meta, Ply, Sections, Shape, page};
use crate::picture::{self, Frame};
use senat_rules::dice::Side;
use senat_rules::game::{GameRecord, Outcome};
use senat_rules::moves::Move;
use senat_rules::position::Position;

/// One shown ply: the position after `ply` moves.
#[derive(Clone, Debug)]
pub struct Step {
    /// The position.
    pub position: Position,
    /// The move that led to it (none at ply 0).
    pub last: Option<Move>,
    /// The game's outcome at this position (its history counted, so a
    /// repetition too); `None` while play goes on.
    pub outcome: Option<Outcome>,
}

/// The positions of a game, ply 0 (its start) to its last, each with its
/// outcome (a record holds no move after the end, so only the last may
/// have one; the start's is decided on the start alone).
pub fn steps(game: &GameRecord) -> Vec<Step> {
    let mut p = *game.start();
    let mut v = vec![Step { position: p, last: None, outcome: None }];
    for &m in game.moves() {
        p.play_unchecked(m);
        v.push(Step { position: p, last: Some(m), outcome: None });
    }
    let last = v.len() - 1;
    v[last].outcome = game.outcome();
    v
}

/// A move's label in the move list: `12. blue M13>M14:I19`.
pub fn move_label(ply: usize, mover: Side, m: Move) -> String {
    format!("{ply}. {mover} {m}")
}

/// The page's shape for Sénat: its board picture, and the position text
/// named SPN.
pub const SHAPE: Shape = Shape { width: picture::WIDTH, height: picture::HEIGHT, position_name: "SPN", legend: LEGEND };

/// The key to Sénat's board pictures, shown under the board.
pub const LEGEND: &str = "Key: each die shows its top face: ▲ triangle, ■ square, ● circle (SPN's T, S, C), in the colour \
that face shows: red, blue, or white where the die whitens it (SPN's r and b give the printed colour). The small \
number is the die's. A ring of amber dashes: a restricted die. Green arrows: the last move. Dice leave through \
the door under I23, into the pile of the colour they show (white: the discard).";

/// The plies of a game: the board with the last move's arrows and its label
/// as the note, a `draft` or `play` heading where the phase changes.
pub fn plies(game: &GameRecord) -> Vec<Ply> {
    let steps = steps(game);
    let mut sections = Sections::default();
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let p = &s.position;
            let before = i.checked_sub(1).map(|k| &steps[k].position);
            let label = match (s.last, before) {
                (Some(m), Some(b)) => move_label(i, b.side_to_move(), m),
                _ => String::new(),
            };
            let note = (i > 0).then_some(label.as_str());
            let section = before.and_then(|b| sections.next(if b.is_play() { "play" } else { "draft" }.to_string()));
            Ply {
                svg: picture::svg_of_game(&Frame { position: p, last: s.last, note }, s.outcome),
                position: p.to_spn(),
                section,
                status: picture::status_line(p, s.outcome),
                detail: picture::detail_line(p),
                label,
            }
        })
        .collect()
}

/// Builds the page of a Sénat game (finished or not).
pub fn html(game: &GameRecord, meta: &Meta) -> String {
    page(meta, SHAPE, plies(game))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::viewer::{SCRIPT, csp_hash, json_string};
    use senat_rules::sample;

    fn sample_game() -> GameRecord {
        let mut g = GameRecord::new(sample::START.parse().unwrap());
        for line in sample::record_lines().skip(1) {
            let m = g.position().parse_move(line).unwrap();
            g.play(m).unwrap();
        }
        g
    }

    #[test]
    fn hostile_meta_stays_data() {
        let g = sample_game();
        let evil = "</script><script>document.title='pwned'</script>\"'javascript:alert(1)</svg>";
        let meta = Meta {
            title: evil.into(),
            players: vec![("red".into(), evil.into()), ("blue".into(), evil.into())],
            notes: vec![evil.into()],
            ply_notes: vec![vec![evil.into()]; 3],
            result: evil.into(),
            evaluation: None,
        };
        let page = html(&g, &meta);
        // Exactly the page's own two script elements, and its one closing tag each.
        assert_eq!(page.matches("<script").count(), 2, "{page}");
        assert_eq!(page.matches("</script>").count(), 2);
        assert!(!page.contains("<script>document.title"));
        assert!(page.contains("senat viewer: &lt;/script&gt;"));
        assert!(page.contains("<span class=\"label\">SPN</span>"));
    }

    #[test]
    fn a_finished_game_says_who_won_not_who_moves() {
        let g = sample_game();
        let plies = plies(&g);
        let (end, before) = (&plies[plies.len() - 1], &plies[plies.len() - 2]);
        assert_eq!(end.status, "blue wins by majority");
        assert!(end.svg.contains(">blue wins by majority</text>") && !end.svg.contains(" to move"), "{}", end.svg);
        assert!(before.status.contains(" to move"), "{}", before.status);
        // The picture of the last position alone says so too (majority needs no history).
        let last = steps(&g).pop().unwrap();
        assert!(picture::svg(&Frame::new(&last.position)).contains(">blue wins by majority</text>"));
    }

    #[test]
    fn every_ply_is_in_the_page() {
        let g = sample_game();
        let page = html(&g, &Meta::default());
        let plies = plies(&g);
        assert_eq!(plies.len(), g.moves().len() + 1);
        for (s, p) in steps(&g).iter().zip(&plies) {
            let mut spn = String::new();
            json_string(&mut spn, &s.position.to_spn());
            assert!(page.contains(&format!("{{\"spn\":{spn}")), "{spn}");
            assert!(p.svg.contains(&format!("data-spn=\"{}\"", s.position.to_spn())));
        }
        assert_eq!(plies[0].label, "");
        assert!(plies[1].label.starts_with("1. "), "{}", plies[1].label);
        assert!(page.contains(&csp_hash(SCRIPT)));
    }
}
