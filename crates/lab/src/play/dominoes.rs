//! Block dominoes at the terminal: the [`Table`] of [`Dominoes`]. A seat
//! is shown its [`Observation`] and nothing else: the board is drawn from
//! the observation alone (the chain in order, its own hand, the others'
//! hand sizes, the boneyard's size, the scores), another seat's draw is
//! told as "draws a tile", a round's end by its points and pips (not the
//! hands). Deals and draws come from the session's chance generator
//! through [`chance_pick`], the match loop's own draw.
//!
//! This module never changes the rules: moves, legality, chance and
//! scores come from `dominoes-rules`.

use super::{Next, Table};
use crate::agent::Agent;
use crate::games::dominoes::{DominoSpec, Dominoes, chance_pick};
use dominoes_rules::{End, Move, Observation, RoundEndKind, State, Tile, TileSet};
use game_search::rng::GameRng;
use std::collections::VecDeque;

/// The chain of the round in `o`, left to right, each tile as the pair of
/// numbers it shows in that order (from the public history).
pub fn chain(o: &Observation) -> Vec<(u8, u8)> {
    let mut c: VecDeque<(u8, u8)> = VecDeque::new();
    for e in o.history() {
        let Some((tile, end)) = e.play else { continue };
        let (a, b) = tile.ends();
        let other = |n: u8| if a == n { b } else { a };
        match (c.front().copied(), c.back().copied(), end) {
            (None, _, _) | (_, None, _) => c.push_back((a, b)),
            (Some((l, _)), _, End::Left) => c.push_front((other(l), l)),
            (_, Some((_, r)), End::Right) => c.push_back((r, other(r))),
        }
    }
    c.into()
}

/// The tiles of `set` in text, separated by spaces; `none` for no tile
/// (the table says `none`, `senat show` `-`).
pub(crate) fn tiles(set: TileSet, none: &str) -> String {
    let v: Vec<String> = set.iter().map(|t: Tile| t.to_string()).collect();
    if v.is_empty() { none.into() } else { v.join(" ") }
}

/// `n` and `word`, in the plural unless `n` is 1.
fn count(n: usize, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}

/// The board `o`'s observer may see: scores, the chain, the open ends,
/// the other hands' sizes, the boneyard's size and the observer's hand.
pub fn board(o: &Observation) -> String {
    let me = o.observer();
    let players = o.players();
    let scores: Vec<String> =
        (0..players).map(|p| format!("player {p}{} {}", if p == me { " (you)" } else { "" }, o.scores()[p])).collect();
    let mut s = if o.match_over() {
        format!("the match is over after {} rounds\n", o.rounds_played())
    } else {
        format!("round {} of a match to {}\n", o.rounds_played() + 1, o.variant().target)
    };
    s.push_str(&format!("scores: {}\n", scores.join(", ")));
    let c = chain(o);
    if c.is_empty() {
        s.push_str("chain: empty\n");
    } else {
        // 14 tiles a line: 77 columns.
        for (i, part) in c.chunks(14).enumerate() {
            let links: String = part.iter().map(|(a, b)| format!("[{a}|{b}]")).collect();
            s.push_str(&format!("{}{links}\n", if i == 0 { "chain: " } else { "       " }));
        }
        let (l, r) = o.ends().unwrap_or((c[0].0, c[c.len() - 1].1));
        s.push_str(&format!("open ends: {l} (left) and {r} (right)\n"));
    }
    let others: Vec<String> =
        (0..players).filter(|&p| p != me).map(|p| format!("player {p}: {}", count(o.hand_size(p), "tile"))).collect();
    s.push_str(&format!("{}; boneyard {}\n", others.join(", "), o.boneyard_size()));
    let (n, pips) = (o.hand().len(), o.hand().pips() as usize);
    s.push_str(&format!("your hand ({}, {}): {}\n", count(n, "tile"), count(pips, "pip"), tiles(o.hand(), "none")));
    if !o.match_over() {
        let drawn = o.drawn_this_turn();
        let drawn = if drawn > 0 { format!(" (drew {drawn} this turn)") } else { String::new() };
        s.push_str(&format!("player {} to move{drawn}\n", o.to_move()));
    }
    s
}

/// The result line of a match, over or not (what `senat replay --game
/// dominoes` prints last): `player 0 wins after 3 rounds, scores [104, 37]`.
pub fn result_line(s: &State) -> String {
    let scores = &s.scores()[..s.players()];
    match s.outcome() {
        Some(o) => format!("{o} after {} rounds, scores {scores:?}", s.rounds_played()),
        None => format!("match not over after {} rounds", s.rounds_played()),
    }
}

/// What the board's marks mean.
const LEGEND: &str = "\
key: `[6|4]` is a tile of the chain showing 6 on its left and 4 on its right; a tile is played against
     the left end (L) or the right end (R); you see your own hand only, and the others' sizes.
";

impl Table for Dominoes {
    type State = State;
    type Spec = DominoSpec;
    const HIDDEN: bool = true;

    fn spec(text: &str) -> Result<DominoSpec, String> {
        DominoSpec::parse(text).map_err(|e| e.to_string())
    }
    fn build(spec: &DominoSpec) -> Result<Box<dyn Agent<Dominoes>>, game_search::TableError> {
        Ok(spec.build())
    }
    fn next(s: &State) -> Next {
        if s.outcome().is_some() {
            Next::Over
        } else if s.is_chance() {
            Next::Chance
        } else {
            Next::Decide(s.to_move())
        }
    }
    fn view(s: &State, seat: usize) -> Observation {
        s.observation(seat)
    }
    fn seats(s: &State) -> usize {
        s.players()
    }
    fn seat_name(_s: &State, seat: usize) -> String {
        format!("player {seat}")
    }
    fn legal(s: &State) -> Vec<Move> {
        let mut v = Vec::new();
        s.observation(s.to_move()).legal_moves(&mut v);
        v
    }
    fn parse(s: &State, text: &str) -> Result<Move, String> {
        let m: Move = text.parse().map_err(|e| match e {
            // The session names the text; say what a move looks like.
            dominoes_rules::MoveError::Syntax { .. } => {
                "not a move (expected a tile and an end, 6-4L or 6-4R, or pass)".to_string()
            }
            e => e.to_string(),
        })?;
        if Self::legal(s).contains(&m) {
            return Ok(m);
        }
        Err(match m {
            Move::Play { tile, .. } if !s.observation(s.to_move()).hand().contains(tile) => {
                format!("{tile} is not in your hand")
            }
            Move::Deal { .. } | Move::Draw { .. } => "deals and draws are not yours to choose".to_string(),
            _ => "not a legal move here (`moves` lists yours)".to_string(),
        })
    }
    fn text(m: Move) -> String {
        m.to_string()
    }
    fn apply(s: &State, m: Move) -> State {
        let mut t = *s;
        t.play_unchecked(m);
        t
    }
    fn chance(s: &State, rng: &mut GameRng) -> Option<Move> {
        Some(chance_pick(s, rng, &mut Vec::new()))
    }
    fn chance_seat(s: &State) -> Option<usize> {
        (s.is_chance() && !s.dealing() && !s.round_over()).then(|| s.to_move())
    }
    fn tell(s: &State, m: Move, viewer: usize) -> Option<String> {
        match m {
            Move::Deal { .. } => None,
            Move::Draw { tile } if s.to_move() == viewer => Some(format!("draws {tile}")),
            Move::Draw { .. } => Some("draws a tile".to_string()),
            Move::Pass => Some("passes".to_string()),
            Move::Play { .. } => Some(format!("plays {m}")),
        }
    }
    fn news(before: &State, after: &State) -> Option<String> {
        if after.rounds_played() == before.rounds_played() {
            return None;
        }
        let r = after.last_round()?;
        let players = after.players();
        let how = match r.kind {
            RoundEndKind::Domino { player } => format!("player {player} went out"),
            RoundEndKind::Block => "blocked".to_string(),
        };
        let scored = match r.winner {
            Some(w) => format!("player {w} scores {}", r.points),
            None => "a tie: nobody scores".to_string(),
        };
        let pips: Vec<String> = (0..players).map(|p| format!("player {p} {}", r.pips[p])).collect();
        let scores: Vec<String> = (0..players).map(|p| format!("player {p} {}", after.scores()[p])).collect();
        Some(format!(
            "round {} over: {how}; {scored} (pips left: {}); scores: {}",
            after.rounds_played(),
            pips.join(", "),
            scores.join(", ")
        ))
    }
    fn board(s: &State, viewer: usize, _colour: bool) -> String {
        board(&s.observation(viewer))
    }
    fn legend() -> &'static str {
        LEGEND
    }
    fn move_forms() -> &'static str {
        "6-4L or 6-4R (tile 6-4 against the left or right end), pass (only with no playable tile and an empty boneyard); draws are made for you"
    }
    fn result(s: &State) -> String {
        result_line(s)
    }
    fn record(start: &State, moves: &[Move]) -> String {
        let mut s = if *start == State::start(start.variant()) { "start".to_string() } else { start.to_string() };
        s.push('\n');
        for m in moves {
            s.push_str(&m.to_string());
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_search::rng::rng_from_seed;

    /// Deals a match of `players` and plays its first decisions by the
    /// first legal move, checking the board of every seat at each step.
    #[test]
    fn a_seat_sees_its_hand_and_never_another() {
        for players in [2u8, 4] {
            let v = dominoes_rules::Variant::parse(&format!("players={players}")).unwrap();
            let mut s = State::start(v);
            let mut rng = rng_from_seed(1);
            for _ in 0..400 {
                match Dominoes::next(&s) {
                    Next::Over => break,
                    Next::Chance => s = Dominoes::apply(&s, Dominoes::chance(&s, &mut rng).unwrap()),
                    Next::Decide(_) => s = Dominoes::apply(&s, Dominoes::legal(&s)[0]),
                }
                if s.is_chance() || s.round_over() {
                    continue;
                }
                for me in 0..s.players() {
                    let b = board(&s.observation(me));
                    assert!(b.lines().all(|l| l.chars().count() <= 80), "{b}");
                    for p in (0..s.players()).filter(|&p| p != me) {
                        for t in s.hand(p).iter() {
                            assert!(!b.contains(&t.to_string()), "player {p}'s {t} shown to {me}:\n{b}");
                        }
                    }
                    for t in s.boneyard().iter() {
                        assert!(!b.contains(&t.to_string()), "the boneyard's {t} shown to {me}:\n{b}");
                    }
                    for t in s.hand(me).iter() {
                        assert!(b.contains(&t.to_string()), "own {t} not shown to {me}:\n{b}");
                    }
                }
                // The chain's ends are the state's open ends.
                let c = chain(&s.observation(0));
                if let Some((l, r)) = s.ends() {
                    assert_eq!((c[0].0, c[c.len() - 1].1), (l, r), "{c:?}");
                    assert!(c.windows(2).all(|w| w[0].1 == w[1].0), "links match: {c:?}");
                }
            }
        }
    }

    #[test]
    fn draws_are_told_to_the_drawer_only() {
        let v = dominoes_rules::Variant::default();
        let mut s = State::start(v);
        let mut rng = rng_from_seed(2);
        // To the first draw of the match.
        for _ in 0..2000 {
            if Dominoes::chance_seat(&s).is_some() {
                break;
            }
            s = match Dominoes::next(&s) {
                Next::Chance => Dominoes::apply(&s, Dominoes::chance(&s, &mut rng).unwrap()),
                Next::Decide(_) => Dominoes::apply(&s, Dominoes::legal(&s)[0]),
                Next::Over => panic!("a match without a draw"),
            };
        }
        let drawer = Dominoes::chance_seat(&s).expect("a draw");
        let m = Dominoes::chance(&s, &mut rng).unwrap();
        let Move::Draw { tile } = m else { panic!("{m} is not a draw") };
        assert_eq!(Dominoes::tell(&s, m, drawer).unwrap(), format!("draws {tile}"));
        assert_eq!(Dominoes::tell(&s, m, 1 - drawer).unwrap(), "draws a tile");
    }
}
