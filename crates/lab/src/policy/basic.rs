//! The basic policies: uniform random, one-ply greedy, and the heuristic
//! policy that plays the move whose resulting position the evaluation's
//! [`Weights`] like best. They search no deeper than one ply, keep no state
//! between moves, and never draw randomness but from the generator they are
//! handed.

use super::{Agent, GameRng, Senat, Turn};
use crate::agent::OnePly;
use crate::eval::Weights;
use crate::games::senat::mover_colour_after;
use crate::learned::Learned;
use crate::temperature::Temperature;
use senat_rules::board::Row;
use senat_rules::dice::{Colour, Symbol};
use senat_rules::moves::{Move, MoveKind};
use senat_rules::position::{Phase, Position};

/// Uniform over the legal moves, in both phases: the lab's one random
/// agent ([`crate::agent::Random`]) on Sénat's counted moves.
pub type RandomPolicy = crate::agent::Random<Senat>;

/// The best-scoring legal move of `p`, ties drawn uniformly
/// ([`crate::agent::best_by`]: NaN the worst; a move scoring −∞ still ties
/// with the starting −∞, so no score, however computed, leaves the choice
/// empty).
fn best_by(p: &Position, rng: &mut GameRng, score: impl FnMut(Move) -> f64) -> Move {
    crate::agent::best_by(p.legal_moves().iter().copied(), rng, score)
        .expect("a game that is not over has a legal move")
}

/// One ply of lookahead: scores a die of its own colour when it can, never
/// pushes a die of the opponent's colour through the door when another move
/// exists, otherwise random; ties at random. In the draft it plays at
/// random. The lab's one greedy agent ([`crate::agent::Greedy`]) on Sénat's
/// scores ([`OnePly`] below). (Not the MCTS rollout spelled `greedy`,
/// [`crate::games::senat::SenatRollout::GreedyRollout`], which draws its
/// moves differently.)
pub type GreedyPolicy = crate::agent::Greedy<Senat>;

/// Sénat's one-ply scores: in play, a push that scores `n` of the mover's
/// dice is worth 1 + `n`, one that pushes `n` of the opponent's out −`n`,
/// anything else 0; the draft has no preference (a random give or
/// placement).
impl OnePly for Senat {
    fn prefers(turn: &Turn) -> bool {
        turn.position().is_play()
    }
    /// The move generator's list, as [`Position::legal_moves`] gives it.
    fn list(turn: &Turn, buf: &mut Vec<Move>) {
        buf.clear();
        buf.extend(turn.position().legal_moves().iter());
    }
    fn greedy_score(turn: &Turn, m: Move) -> f64 {
        let (mine, theirs) = turn.position().pile_gain(m);
        let (mine, theirs) = (mine as f64, theirs as f64);
        // Scoring first (more is better), then anything that gives nothing away.
        if mine > 0.0 {
            1.0 + mine
        } else if theirs > 0.0 {
            -theirs
        } else {
            0.0
        }
    }
}

/// Play: the move whose resulting position the weighted evaluation likes
/// best (ties at random). Draft: gives die 3 when it can (all white, worth
/// nothing to the receiver), otherwise a random die; places dice showing its
/// own colour low (row I, then M), squares of its colour in M, and the
/// opponent's colours high. The decision of `swap=yes`: the colour whose
/// evaluation of the full board is better.
#[derive(Clone, Debug, Default)]
pub struct HeuristicPolicy {
    /// The evaluation's weights.
    pub weights: Weights,
}

impl Agent<Senat> for HeuristicPolicy {
    fn choose(&mut self, turn: &Turn, rng: &mut GameRng) -> Move {
        let p = turn.position();
        let me = p.side_to_move();
        match p.phase() {
            Phase::Give => {
                let three = senat_rules::dice::Die::new(3).expect("die 3");
                if p.reserve().contains(three) { Move::give(three) } else { RandomPolicy::default().choose(turn, rng) }
            }
            Phase::Place(_) => best_by(p, rng, |m| match m.kind() {
                MoveKind::Place(die, cell, face) => {
                    let colour = die.colour(face);
                    let row = cell.row();
                    if colour.side() == Some(me) {
                        let low = match row {
                            Row::I => 3.0,
                            Row::M => 2.0,
                            Row::S => 0.0,
                        };
                        let square = if face.symbol() == Symbol::Square && row == Row::M { 1.5 } else { 0.0 };
                        low + square
                    } else if colour == Colour::White {
                        0.5
                    } else {
                        // The opponent's colour: as far from the door as possible.
                        if row == Row::S { 1.0 } else { -1.0 }
                    }
                }
                _ => 0.0,
            }),
            Phase::Play => best_by(p, rng, |m| {
                let mut q = *p;
                q.play_unchecked(m);
                self.weights.evaluate(&q, me)
            }),
            // `keep` or `swap`: the board for the colour the decider plays after it.
            Phase::Decide => best_by(p, rng, |m| {
                let mut q = *p;
                q.play_unchecked(m);
                self.weights.evaluate(&q, mover_colour_after(p, &q))
            }),
        }
    }
}

/// One ply on the learned evaluation ([`Learned`]), in both phases: plays
/// the move after which the evaluation gives its side the best chance (a
/// give is judged by the position the receiver must place from). Ties at
/// random. The decision of `swap=yes` (`keep` or `swap`) takes the colour
/// the evaluation gives the better chance. The fast strong player of big batches. With a move temperature
/// (`learned:temp=T`), the moves of its first plies are drawn from a
/// softmax of the evaluation's log-odds / T instead.
#[derive(Clone, Debug)]
pub struct LearnedPolicy {
    /// The evaluation.
    pub eval: Learned,
    /// The move temperature ([`Temperature::OFF`]: none).
    pub temp: Temperature,
}

impl Default for LearnedPolicy {
    fn default() -> LearnedPolicy {
        LearnedPolicy { eval: Learned::builtin().clone(), temp: Temperature::OFF }
    }
}

impl Agent<Senat> for LearnedPolicy {
    fn choose(&mut self, turn: &Turn, rng: &mut GameRng) -> Move {
        let p = turn.position();
        let me = p.side_to_move();
        let place = matches!(p.phase(), Phase::Place(_));
        let decide = p.phase() == Phase::Decide;
        let score = |m: Move| {
            let mut q = *p;
            q.play_unchecked(m);
            if place {
                self.eval.placement_logit(&q, me)
            } else if decide {
                // `keep` or `swap`: the board for the colour the decider plays after it.
                self.eval.logit(&q, mover_colour_after(p, &q))
            } else {
                self.eval.logit(&q, me)
            }
        };
        if self.temp.applies(turn.ply()) {
            let moves = p.legal_moves();
            let scores: Vec<f64> = moves.iter().map(|&m| score(m)).collect();
            if let Some(i) = self.temp.sample_scores(&scores, rng) {
                return moves[i];
            }
        }
        best_by(p, rng, score)
    }
}
