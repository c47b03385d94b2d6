//! The plies of a game of any [`Drawn`] game (Focus with 2 or 4 players,
//! Débâcle) for the viewer page: each position with its notation text (the
//! text `senat show --game G` reads), its picture with the last move, the
//! mover's seat in the move label, and the game's headings (Débâcle's
//! rounds).

use super::{Ply, Sections, Shape};
use crate::games::LabGame;
use crate::picture::Drawn;

/// The page's shape for the game of `start`: its picture's size, and the
/// position text named `position`.
pub fn shape<G: Drawn>(start: &G::State) -> Shape {
    let (width, height) = G::picture_size(start);
    Shape { width, height, position_name: "position", legend: "" }
}

/// A move's label in the move list: `12. black c3-c5`.
pub fn move_label<G: LabGame>(ply: usize, before: &G::State, m: G::Move) -> String {
    let seat = G::seats(G::players(before))[G::to_move(before)];
    format!("{ply}. {seat} {}", G::move_text(m))
}

/// The plies of a game: `states[i]` is the position after `i` moves and
/// `moves[i]` the move from `states[i]` to `states[i + 1]` (so there is one
/// state more than moves).
pub fn plies<G: Drawn>(states: &[G::State], moves: &[G::Move]) -> Vec<Ply> {
    let mut sections = Sections::default();
    super::with_last(states, moves)
        .map(|(i, s, last)| {
            let label = last.map_or_else(String::new, |(m, before)| move_label::<G>(i, before, m));
            let section = last.and_then(|(_, before)| sections.next(G::section(before)?));
            Ply {
                svg: G::picture(s, last, (i > 0).then_some(label.as_str())),
                position: G::position_text(s),
                section,
                status: G::status_line(s),
                detail: G::detail_line(s),
                label,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::debacle::Debacle;
    use crate::games::focus::Focus;
    use crate::games::legal_moves;
    use game_search::Game;

    /// `n` plies of the first legal move, from the start of `variant`.
    fn first_moves<G: LabGame>(variant: &str, n: usize) -> (Vec<G::State>, Vec<G::Move>) {
        let mut states = vec![G::start(variant).unwrap()];
        let mut moves = Vec::new();
        for _ in 0..n {
            let s = states[states.len() - 1];
            let Some(&m) = legal_moves::<G>(&s).first() else { break };
            moves.push(m);
            states.push(G::apply(&s, m));
        }
        (states, moves)
    }

    #[test]
    fn focus_plies_carry_the_position_text_and_the_mover() {
        for variant in ["", "players=4"] {
            let (states, moves) = first_moves::<Focus>(variant, 6);
            let plies = plies::<Focus>(&states, &moves);
            assert_eq!(plies.len(), 7);
            for (i, (p, s)) in plies.iter().zip(&states).enumerate() {
                assert_eq!(p.position, Focus::position_text(s));
                assert_eq!(Focus::parse_position(&p.position).unwrap(), *s, "the text reads back");
                assert!(p.svg.contains(&format!("data-position=\"{}\"", p.position)), "ply {i}");
                assert_eq!(p.section, None);
            }
            let seats = Focus::seats(Focus::players(&states[0]));
            assert_eq!(plies[1].label, format!("1. {} {}", seats[0], Focus::move_text(moves[0])));
            assert_eq!(plies[2].label, format!("2. {} {}", seats[1], Focus::move_text(moves[1])));
            assert!(plies[1].svg.contains("class=\"arrow\"") || plies[1].svg.contains("class=\"last\""));
        }
        let (states, _) = first_moves::<Focus>("players=4", 0);
        assert!(shape::<Focus>(&states[0]).width >= 800);
        assert!(Focus::detail_line(&states[0]).contains("east (green)"), "4-player colours named");
    }

    #[test]
    fn debacle_rounds_are_headings() {
        let (states, moves) = first_moves::<Debacle>("", 400);
        let plies = plies::<Debacle>(&states, &moves);
        assert_eq!(plies[1].section.as_deref(), Some("round 1"));
        let headings: Vec<&str> = plies.iter().filter_map(|p| p.section.as_deref()).collect();
        let rounds = usize::from(states[states.len() - 2].round());
        assert_eq!(headings.len(), rounds, "{headings:?}");
        assert!(plies.iter().all(|p| !p.status.is_empty() && p.detail.contains("match to")));
    }
}
