//! The plies of a dominoes match for the viewer page, seen by one seat
//! (its `Observation` at every ply: the other hands and the boneyard are
//! counts, and a tile dealt to or drawn by another player is `?` in the
//! move list) unless revealed. Every chance move is a ply too, so the deal,
//! the draws and the passes are all replayed. Nothing hidden from the seat
//! is given to the page builder, so nothing hidden can be in the page.

use super::{Ply, Sections, Shape};
use crate::picture::dominoes::{self as picture, Frame, View};
use dominoes_rules::{Move, State};

/// Whose eyes the page has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    /// One player's: his observation at every ply.
    Seat(usize),
    /// Everyone's: every hand and the boneyard (`--reveal`).
    Revealed,
}

impl Sight {
    fn seat(self) -> Option<usize> {
        match self {
            Sight::Seat(s) => Some(s),
            Sight::Revealed => None,
        }
    }
}

/// The page's shape for a match of `players` players: the table's picture,
/// and the position text named `observation` (or `state` when revealed).
pub fn shape(players: usize, sight: Sight) -> Shape {
    let position_name = if sight == Sight::Revealed { "state" } else { "observation" };
    Shape { width: picture::WIDTH, height: picture::height(players), position_name, legend: "" }
}

/// The plies of a match: `states[i]` is the state after `i` moves and
/// `moves[i]` the move from `states[i]` to `states[i + 1]`; the text of
/// each ply is the seat's observation text (`senat show --game dominoes`
/// reads it), or the state text when revealed. A `round N` heading opens
/// each round's moves.
pub fn plies(states: &[State], moves: &[Move], sight: Sight) -> Vec<Ply> {
    let mut sections = Sections::default();
    super::with_last(states, moves)
        .map(|(i, s, last)| {
            let label = last.map_or_else(String::new, |(m, b)| picture::move_label(i, b, m, sight.seat()));
            let section = last.and_then(|(_, b)| sections.next(format!("round {}", b.rounds_played() + 1)));
            let mark_last = matches!(last, Some((Move::Play { .. }, _)));
            let note = (i > 0).then_some(label.as_str());
            let seen;
            let (v, position) = match sight {
                Sight::Seat(seat) => {
                    seen = s.observation(seat);
                    (View::Observer(&seen), seen.to_string())
                }
                Sight::Revealed => (View::Revealed(s), s.to_string()),
            };
            let svg = picture::svg(&Frame { view: v, mark_last, note });
            Ply { svg, position, label, section, status: picture::view_status(v), detail: picture::view_sight(v) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use dominoes_rules::{Observation, Variant};

    /// A match played for `n` moves (chance and decisions alike) by always
    /// taking the `k`-th outcome or move for a varying `k`.
    fn played(n: usize) -> (Vec<State>, Vec<Move>) {
        let mut states = vec![State::start(Variant::default())];
        let (mut moves, mut v, mut c) = (Vec::new(), Vec::new(), Vec::new());
        for k in 0..n {
            let mut s = states[states.len() - 1];
            if s.outcome().is_some() {
                break;
            }
            let m = if s.is_chance() {
                s.chance_outcomes(&mut c);
                c[(k * 7) % c.len()].0
            } else {
                s.legal_moves(&mut v);
                v[k % v.len()]
            };
            s.play_unchecked(m);
            moves.push(m);
            states.push(s);
        }
        (states, moves)
    }

    fn has_tile(text: &str, t: dominoes_rules::Tile) -> bool {
        let (a, b) = t.ends();
        testkit::has_domino(text, a, b)
    }

    #[test]
    fn a_seat_sees_nothing_hidden_and_every_chance_move_is_a_ply() {
        // Mid-round: the deal (14 plies) and some plays and draws.
        let (states, moves) = played(24);
        let last = &states[states.len() - 1];
        assert!(!last.round_over() && last.rounds_played() == 0, "still in the first round: {last}");
        for seat in 0..2 {
            let plies = plies(&states, &moves, Sight::Seat(seat));
            assert_eq!(plies.len(), moves.len() + 1, "one ply per move, chance moves included");
            for (p, s) in plies.iter().zip(&states) {
                assert_eq!(p.position, s.observation(seat).to_string());
                assert_eq!(p.position.parse::<Observation>().unwrap(), s.observation(seat));
            }
            let all: String =
                plies.iter().map(|p| format!("{}{}{}{}{}", p.svg, p.position, p.label, p.status, p.detail)).collect();
            let hidden = last.hand(1 - seat).union(last.boneyard());
            assert!(!hidden.is_empty());
            for t in hidden.iter() {
                assert!(!has_tile(&all, t), "seat {seat}: hidden tile {t} is in the plies");
            }
            for t in last.hand(seat).iter() {
                assert!(has_tile(&all, t), "seat {seat}: own tile {t} is shown");
            }
            assert!(plies[1].label.starts_with("1. deal "), "{}", plies[1].label);
            assert_eq!(plies[1].section.as_deref(), Some("round 1"));
            let deals_hidden = plies.iter().filter(|p| p.label.contains("deal ?>")).count();
            assert_eq!(deals_hidden, 7, "the other hand's 7 tiles are dealt unseen");
        }
        let revealed = plies(&states, &moves, Sight::Revealed);
        for t in last.boneyard().iter() {
            assert!(revealed.iter().any(|p| has_tile(&p.position, t)), "revealed: {t} shown");
        }
        assert_eq!(shape(2, Sight::Revealed).position_name, "state");
    }

    #[test]
    fn draws_and_passes_are_labelled() {
        let (states, moves) = played(400);
        let plies = plies(&states, &moves, Sight::Seat(0));
        for (i, m) in moves.iter().enumerate() {
            let label = &plies[i + 1].label;
            let mover = states[i].to_move();
            match m {
                Move::Draw { .. } if mover == 0 => assert_eq!(*label, format!("{}. player 0 draws {m}", i + 1)),
                Move::Draw { .. } => assert_eq!(*label, format!("{}. player {mover} draws +?", i + 1)),
                Move::Pass => assert_eq!(*label, format!("{}. player {mover} pass", i + 1)),
                Move::Play { .. } => assert_eq!(*label, format!("{}. player {mover} {m}", i + 1)),
                Move::Deal { to: 0, .. } => assert_eq!(*label, format!("{}. deal {m}", i + 1)),
                Move::Deal { to, .. } => assert_eq!(*label, format!("{}. deal ?>{to}", i + 1)),
            }
        }
        assert!(moves.iter().any(|m| matches!(m, Move::Draw { .. })), "the match has draws");
    }
}
