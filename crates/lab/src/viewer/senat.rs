//! Sénat's plies for the viewer page: each position of a game with its SPN,
//! its board picture, the draft and play headings and the caption lines of
//! [`crate::picture`].

use super::{Meta, Ply, Sections, Shape, page};
use crate::picture::{self, Frame};
use senat_rules::dice::Side;
use senat_rules::game::GameRecord;
use senat_rules::moves::Move;
use senat_rules::position::Position;

/// One shown ply: the position after `ply` moves.
#[derive(Clone, Debug)]
pub struct Step {
    /// The position.
    pub position: Position,
    /// The move that led to it (none at ply 0).
    pub last: Option<Move>,
}

/// The positions of a game, ply 0 (its start) to its last.
pub fn steps(game: &GameRecord) -> Vec<Step> {
    let mut p = *game.start();
    let mut v = vec![Step { position: p, last: None }];
    for &m in game.moves() {
        p.play_unchecked(m);
        v.push(Step { position: p, last: Some(m) });
    }
    v
}

/// A move's label in the move list: `12. blue M13>M14:I19`.
pub fn move_label(ply: usize, mover: Side, m: Move) -> String {
    format!("{ply}. {mover} {m}")
}

/// The page's shape for Sénat: its board picture, and the position text
/// named SPN.
pub const SHAPE: Shape = Shape { width: picture::WIDTH, height: picture::HEIGHT, position_name: "SPN" };

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
                svg: picture::svg(&Frame { position: p, last: s.last, note }),
                position: p.to_spn(),
                section,
                status: picture::status_line(p),
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
