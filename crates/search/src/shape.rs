//! The shape of an exact search's tree: how many nodes each side expanded
//! at each number of plies left, how many moves they tried, and how often
//! the first move tried decided the node. For measuring (is the tree close
//! to the smallest proof the position allows? would a better move order
//! help?); it must never change what a search does or answers.
//!
//! A node of a question "does team T force the goal within d plies?" is an
//! *OR node* where T chooses (one move reaching the goal is enough) and an
//! *AND node* where the other team chooses (or chance: every move must
//! reach it). A node is *cut* when a move decided it before the others were
//! tried (an OR node proven, an AND node refuted), and *exhausted* when
//! every move was tried (an OR node refuted, an AND node proven). Where a
//! goal is refuted, every OR node is exhausted and every AND node needs one
//! refuting move: with that move always first, the AND nodes' moves per
//! node are 1, and only other refutations (with smaller subtrees) could
//! make the tree smaller.

/// Expanded nodes of one kind and the moves they tried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Nodes.
    pub nodes: u64,
    /// Moves tried at those nodes (the children searched).
    pub moves: u64,
    /// Of the nodes, those decided by the first move tried (cut nodes only).
    pub at_first: u64,
}

impl Tally {
    /// The mean moves tried per node (0 where there is no node).
    pub fn moves_per_node(&self) -> f64 {
        if self.nodes == 0 { 0.0 } else { self.moves as f64 / self.nodes as f64 }
    }

    fn add(&mut self, tried: u64, first: bool) {
        self.nodes += 1;
        self.moves += tried;
        self.at_first += u64::from(first);
    }

    fn absorb(&mut self, other: Tally) {
        self.nodes += other.nodes;
        self.moves += other.moves;
        self.at_first += other.at_first;
    }
}

/// The nodes expanded with a number of plies left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Level {
    /// OR nodes where a move reached the goal.
    pub or_cut: Tally,
    /// OR nodes where every move was tried and none reached it.
    pub or_exhausted: Tally,
    /// AND nodes where a move refuted the goal.
    pub and_cut: Tally,
    /// AND nodes where every move was tried and none refuted it.
    pub and_exhausted: Tally,
}

impl Level {
    /// The nodes of all four kinds.
    pub fn nodes(&self) -> u64 {
        self.or_cut.nodes + self.or_exhausted.nodes + self.and_cut.nodes + self.and_exhausted.nodes
    }

    /// Whether no node was counted at this level.
    pub fn is_empty(&self) -> bool {
        self.nodes() == 0
    }

    fn absorb(&mut self, other: &Level) {
        self.or_cut.absorb(other.or_cut);
        self.or_exhausted.absorb(other.or_exhausted);
        self.and_cut.absorb(other.and_cut);
        self.and_exhausted.absorb(other.and_exhausted);
    }
}

/// A search tree's shape: [`Level`]s indexed by plies left (with iterative
/// deepening, the nodes of every horizon with that many plies left). Only nodes
/// whose moves were searched one by one are counted, with 2 plies left or
/// more: nodes answered by the table, a bound, a win at once or the end of
/// the game are not, nor the nodes one ply from the horizon (whose
/// children's results are read without a search).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    levels: Vec<Level>,
}

impl Shape {
    /// Counts one node with `left` plies left: an OR node (`or`) or an AND
    /// node, where `tried` moves were searched, and whether the last one
    /// decided it (`cut`) or every move was tried.
    pub(crate) fn count(&mut self, left: u32, or: bool, cut: bool, tried: usize) {
        let left = left as usize;
        if self.levels.len() <= left {
            self.levels.resize(left + 1, Level::default());
        }
        let level = &mut self.levels[left];
        let tally = match (or, cut) {
            (true, true) => &mut level.or_cut,
            (true, false) => &mut level.or_exhausted,
            (false, true) => &mut level.and_cut,
            (false, false) => &mut level.and_exhausted,
        };
        tally.add(tried as u64, cut && tried == 1);
    }

    /// The levels with a node, deepest (most plies left) first: (plies left, level).
    pub fn levels(&self) -> impl Iterator<Item = (u32, &Level)> {
        self.levels.iter().enumerate().rev().filter(|(_, l)| !l.is_empty()).map(|(d, l)| (d as u32, l))
    }

    /// All levels together.
    pub fn total(&self) -> Level {
        self.levels.iter().fold(Level::default(), |mut t, l| {
            t.absorb(l);
            t
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_each_kind_at_its_level() {
        let mut s = Shape::default();
        s.count(5, true, false, 40);
        s.count(5, true, false, 42);
        s.count(4, false, true, 1);
        s.count(4, false, true, 3);
        s.count(3, true, true, 1);
        s.count(2, false, false, 7);
        let levels: Vec<(u32, Level)> = s.levels().map(|(d, l)| (d, *l)).collect();
        assert_eq!(levels.iter().map(|l| l.0).collect::<Vec<_>>(), [5, 4, 3, 2]);
        assert_eq!(levels[0].1.or_exhausted, Tally { nodes: 2, moves: 82, at_first: 0 });
        assert_eq!(levels[0].1.or_exhausted.moves_per_node(), 41.0);
        assert_eq!(levels[1].1.and_cut, Tally { nodes: 2, moves: 4, at_first: 1 });
        assert_eq!(levels[2].1.or_cut, Tally { nodes: 1, moves: 1, at_first: 1 });
        assert_eq!(levels[3].1.and_exhausted, Tally { nodes: 1, moves: 7, at_first: 0 });
        let t = s.total();
        assert_eq!((t.or_cut.nodes, t.or_exhausted.nodes, t.and_cut.nodes, t.and_exhausted.nodes), (1, 2, 2, 1));
        assert_eq!(t.and_cut.at_first, 1);
        assert!(Shape::default().levels().next().is_none());
        assert_eq!(Tally::default().moves_per_node(), 0.0);
    }
}
