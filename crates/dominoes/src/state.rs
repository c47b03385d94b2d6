//! The full state of a match and its moves: the deal and the draws as
//! chance moves, plays and passes as decisions, the two endings of a round,
//! scoring and the match. Also the incremental Zobrist hash and perft.
//!
//! What it must never do: choose a chance outcome itself (the caller does),
//! or show a hidden hand to an agent (agents get an `Observation`).

use crate::notation::MoveError;
use crate::tile::{ALL, NUM, Tile, TileSet};
use crate::{Outcome, Variant};

/// The capacity of the public history of a round (plays at most 28, and at
/// most players−1 passes before each play and after the last one).
pub(crate) const HIST: usize = 120;
/// The end value of an empty chain.
pub(crate) const NO_END: u8 = 7;

/// The side of the chain a tile goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The left open end (also the end named for the round's first tile and
    /// when both ends show the same number).
    Left,
    /// The right open end.
    Right,
}

/// A move: a chance outcome (`Deal`, `Draw`) or a decision (`Play`, `Pass`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Chance: the next dealt tile is `tile` and goes to player `to`. Players
    /// receive their whole hand in turn (player 0's first), each dealt tile
    /// uniform over the undealt ones.
    Deal {
        /// The tile.
        tile: Tile,
        /// Its receiver (fixed by how many tiles were dealt).
        to: u8,
    },
    /// Chance: the player to move draws `tile`, uniform over the boneyard.
    Draw {
        /// The tile.
        tile: Tile,
    },
    /// Decision: put `tile` against `end` (the round's first play: `Left`).
    Play {
        /// The tile.
        tile: Tile,
        /// The end.
        end: End,
    },
    /// Decision: pass (only with an empty boneyard and no playable tile).
    Pass,
}

/// One turn of the public history of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    /// Whose turn it was.
    pub player: u8,
    /// How many tiles he drew first.
    pub drawn: u8,
    /// What he played and where; `None` for a pass (with `rules=openspiel`,
    /// a blocked player's skipped turn).
    pub play: Option<(Tile, End)>,
}

impl Event {
    pub(crate) fn pack(self) -> u16 {
        let (t, e) = match self.play {
            Some((t, End::Left)) => (u16::from(t.index()), 0),
            Some((t, End::Right)) => (u16::from(t.index()), 1),
            None => (31, 0),
        };
        u16::from(self.player) | e << 2 | t << 3 | u16::from(self.drawn) << 8
    }
    pub(crate) fn unpack(x: u16) -> Event {
        let t = (x >> 3 & 31) as u8;
        let end = if x >> 2 & 1 == 1 { End::Right } else { End::Left };
        Event { player: (x & 3) as u8, drawn: (x >> 8) as u8, play: Tile::from_index(t).map(|t| (t, end)) }
    }
}

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundEndKind {
    /// `player` played his last tile.
    Domino {
        /// Who went out.
        player: u8,
    },
    /// Nobody could play and the boneyard was empty.
    Block,
}

/// The end of a round: what the lab writes as a round row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoundEnd {
    /// Domino or block.
    pub kind: RoundEndKind,
    /// Who scored (`None`: a tie nobody wins, GAMES.md §2.6).
    pub winner: Option<u8>,
    /// What he scored (can be 0).
    pub points: u32,
    /// Pips left in each hand (unused players 0).
    pub pips: [u32; 4],
    /// Tiles left in each hand.
    pub tiles: [u8; 4],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Phase {
    Deal,
    Play,
    RoundOver,
    MatchOver,
}

/// The full state of a match: every hand, the boneyard, the chain, the
/// public history of the round, the scores. Copy, about 330 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub(crate) v: Variant,
    pub(crate) hands: [TileSet; 4],
    /// The undealt tiles during the deal, then the boneyard (never drawn with `rules=openspiel`).
    pub(crate) stock: TileSet,
    pub(crate) chain: TileSet,
    pub(crate) ends: [u8; 2],
    pub(crate) phase: Phase,
    pub(crate) to_move: u8,
    pub(crate) drawn: u8,
    pub(crate) scores: [u32; 4],
    pub(crate) rounds: u32,
    pub(crate) hist: [u16; HIST],
    pub(crate) nhist: u8,
    pub(crate) last: Option<RoundEnd>,
    pub(crate) z: u64,
}

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

const fn keys<const N: usize>(base: u64) -> [u64; N] {
    let mut k = [0u64; N];
    let mut i = 0;
    while i < N {
        k[i] = splitmix(base * 1000 + i as u64);
        i += 1;
    }
    k
}

const Z_HAND: [u64; 112] = keys(1);
const Z_CHAIN: [u64; 28] = keys(2);
const Z_LEFT: [u64; 8] = keys(3);
const Z_RIGHT: [u64; 8] = keys(4);
const Z_TO_MOVE: [u64; 4] = keys(5);
const Z_DRAWN: [u64; 32] = keys(6);
const Z_PHASE: [u64; 4] = keys(7);

fn z_event(i: usize, e: u16) -> u64 {
    splitmix(0x5eed_0000_0000 ^ (i as u64) << 16 ^ u64::from(e))
}

fn phase_index(p: Phase) -> usize {
    match p {
        Phase::Deal => 0,
        Phase::Play => 1,
        Phase::RoundOver => 2,
        Phase::MatchOver => 3,
    }
}

impl State {
    /// The match before its first deal (a chance node).
    pub fn start(v: Variant) -> State {
        let mut s = State {
            v,
            hands: [TileSet::EMPTY; 4],
            stock: TileSet::ALL,
            chain: TileSet::EMPTY,
            ends: [NO_END; 2],
            phase: Phase::Deal,
            to_move: 0,
            drawn: 0,
            scores: [0; 4],
            rounds: 0,
            hist: [0; HIST],
            nhist: 0,
            last: None,
            z: 0,
        };
        s.z = s.recompute_z();
        s
    }

    /// The rules.
    pub fn variant(&self) -> Variant {
        self.v
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        usize::from(self.v.players)
    }

    /// Whether the next move is a chance outcome: a dealt tile (also right
    /// after a round ended, when the match goes on) or a drawn tile.
    pub fn is_chance(&self) -> bool {
        match self.phase {
            Phase::Deal | Phase::RoundOver => true,
            Phase::Play => self.must_draw(),
            Phase::MatchOver => false,
        }
    }

    fn must_draw(&self) -> bool {
        !self.v.openspiel
            && self.ends[0] != NO_END
            && !self.stock.is_empty()
            && self.hands[usize::from(self.to_move)].0 & self.play_mask() == 0
    }

    /// The tiles that fit an open end (all tiles on an empty chain).
    pub(crate) fn play_mask(&self) -> u32 {
        if self.ends[0] == NO_END { ALL } else { NUM[usize::from(self.ends[0])] | NUM[usize::from(self.ends[1])] }
    }

    /// The tiles dealt so far in this round.
    pub(crate) fn dealt(&self) -> usize {
        self.hands.iter().map(|h| h.len()).sum()
    }

    /// The chance outcomes, each with its probability (uniform over the
    /// undealt tiles or over the boneyard); nothing at a decision node.
    pub fn chance_outcomes(&self, out: &mut Vec<(Move, f64)>) {
        out.clear();
        let (set, deal) = match self.phase {
            Phase::Deal => (self.stock, true),
            Phase::RoundOver => (TileSet::ALL, true),
            Phase::Play if self.must_draw() => (self.stock, false),
            _ => return,
        };
        let p = 1.0 / set.len() as f64;
        let to = if self.phase == Phase::Deal { (self.dealt() / usize::from(self.v.hand)) as u8 } else { 0 };
        for tile in set.iter() {
            out.push((if deal { Move::Deal { tile, to } } else { Move::Draw { tile } }, p));
        }
    }

    /// The deciding player; at a chance node the player the outcome concerns
    /// (the receiver of the next dealt tile, the drawer).
    pub fn to_move(&self) -> usize {
        match self.phase {
            Phase::Deal => (self.dealt() / usize::from(self.v.hand)).min(self.players() - 1),
            Phase::RoundOver => 0,
            _ => usize::from(self.to_move),
        }
    }

    /// The legal decisions: one `Play` per tile and end (one per tile when
    /// both ends show the same number), or a lone `Pass`; empty at chance
    /// nodes and when the match is over.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.phase != Phase::Play || self.must_draw() {
            return;
        }
        let hand = self.hands[usize::from(self.to_move)];
        if self.ends[0] == NO_END {
            if self.v.openspiel {
                for tile in hand.iter() {
                    out.push(Move::Play { tile, end: End::Left });
                }
            } else if let Some(tile) = hand.best_opener() {
                out.push(Move::Play { tile, end: End::Left });
            }
            return;
        }
        let (l, r) = (self.ends[0], self.ends[1]);
        let mut left = hand.0 & NUM[usize::from(l)];
        let right = if l == r { 0 } else { hand.0 & NUM[usize::from(r)] };
        if left | right == 0 {
            out.push(Move::Pass);
            return;
        }
        while left != 0 {
            let i = left.trailing_zeros() as u8;
            left &= left - 1;
            out.push(Move::Play { tile: Tile::from_index(i).expect("a tile"), end: End::Left });
        }
        let mut right = right;
        while right != 0 {
            let i = right.trailing_zeros() as u8;
            right &= right - 1;
            out.push(Move::Play { tile: Tile::from_index(i).expect("a tile"), end: End::Right });
        }
    }

    /// Whether `m` may be played here: at a chance node one of the
    /// [`State::chance_outcomes`], otherwise one of the [`State::legal_moves`].
    pub fn is_legal(&self, m: Move) -> bool {
        if self.is_chance() {
            let mut c = Vec::new();
            self.chance_outcomes(&mut c);
            c.iter().any(|&(x, _)| x == m)
        } else {
            let mut l = Vec::new();
            self.legal_moves(&mut l);
            l.contains(&m)
        }
    }

    /// Whether `m` may be played here ([`State::is_legal`]), and if not,
    /// [`MoveError::Illegal`].
    pub fn check(&self, m: Move) -> Result<(), MoveError> {
        if self.is_legal(m) { Ok(()) } else { Err(MoveError::Illegal { text: m.to_string() }) }
    }

    /// Plays `m`, a decision or a chance outcome, if it may be played here
    /// ([`State::check`]); otherwise leaves the state as it was and says so.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// The fast path of [`State::play`]: plays `m`, a decision or a chance
    /// outcome that must be legal here (from the generators, `parse_move`, or
    /// checked). Debug builds assert part of it (the tile is where the move
    /// takes it from); an illegal move leaves an inconsistent state.
    pub fn play_unchecked(&mut self, m: Move) {
        match m {
            Move::Deal { tile, to } => {
                if self.phase == Phase::RoundOver {
                    self.new_round();
                }
                debug_assert!(self.phase == Phase::Deal && self.stock.contains(tile));
                self.stock.remove(tile);
                self.give(usize::from(to), tile);
                if self.dealt() == usize::from(self.v.hand) * self.players() {
                    self.begin_play();
                }
            }
            Move::Draw { tile } => {
                debug_assert!(self.must_draw() && self.stock.contains(tile));
                self.stock.remove(tile);
                self.give(usize::from(self.to_move), tile);
                self.set_drawn(self.drawn + 1);
            }
            Move::Play { tile, end } => {
                let p = usize::from(self.to_move);
                debug_assert!(self.hands[p].contains(tile));
                self.take(p, tile);
                self.chain.insert(tile);
                self.z ^= Z_CHAIN[usize::from(tile.index())];
                let (l, r) = (self.ends[0], self.ends[1]);
                let (nl, nr) = if l == NO_END {
                    tile.ends()
                } else if end == End::Left {
                    (tile.other(l), r)
                } else {
                    (l, tile.other(r))
                };
                self.set_ends(nl, nr);
                self.push(Event { player: p as u8, drawn: self.drawn, play: Some((tile, end)) });
                self.set_drawn(0);
                if self.hands[p].is_empty() {
                    self.end_round(crate::RoundEndKind::Domino { player: p as u8 });
                } else {
                    self.advance();
                }
            }
            Move::Pass => {
                let p = usize::from(self.to_move);
                self.push(Event { player: p as u8, drawn: self.drawn, play: None });
                self.set_drawn(0);
                self.advance();
            }
        }
    }

    fn give(&mut self, p: usize, t: Tile) {
        self.hands[p].insert(t);
        self.z ^= Z_HAND[p * 28 + usize::from(t.index())];
    }

    fn take(&mut self, p: usize, t: Tile) {
        self.hands[p].remove(t);
        self.z ^= Z_HAND[p * 28 + usize::from(t.index())];
    }

    fn set_ends(&mut self, l: u8, r: u8) {
        self.z ^= Z_LEFT[usize::from(self.ends[0])] ^ Z_RIGHT[usize::from(self.ends[1])];
        self.ends = [l, r];
        self.z ^= Z_LEFT[usize::from(l)] ^ Z_RIGHT[usize::from(r)];
    }

    fn set_drawn(&mut self, d: u8) {
        self.z ^= Z_DRAWN[usize::from(self.drawn & 31)] ^ Z_DRAWN[usize::from(d & 31)];
        self.drawn = d;
    }

    fn set_to_move(&mut self, p: u8) {
        self.z ^= Z_TO_MOVE[usize::from(self.to_move)] ^ Z_TO_MOVE[usize::from(p)];
        self.to_move = p;
    }

    fn set_phase(&mut self, ph: Phase) {
        self.z ^= Z_PHASE[phase_index(self.phase)] ^ Z_PHASE[phase_index(ph)];
        self.phase = ph;
    }

    fn push(&mut self, e: Event) {
        let i = usize::from(self.nhist);
        if i < HIST {
            let x = e.pack();
            self.hist[i] = x;
            self.nhist += 1;
            self.z ^= z_event(i, x);
        }
    }

    fn new_round(&mut self) {
        let (v, scores, rounds, last) = (self.v, self.scores, self.rounds, self.last);
        *self = State::start(v);
        self.scores = scores;
        self.rounds = rounds;
        self.last = last;
    }

    fn begin_play(&mut self) {
        self.set_phase(Phase::Play);
        let opener = if self.v.openspiel {
            0
        } else {
            let best = TileSet(ALL & !self.stock.0).best_opener().expect("tiles were dealt");
            (0..self.players()).find(|&p| self.hands[p].contains(best)).expect("a holder") as u8
        };
        self.set_to_move(opener);
    }

    fn can_play(&self, p: usize) -> bool {
        self.hands[p].0 & self.play_mask() != 0
    }

    /// After a play or a pass: the next player, or the end of a blocked round.
    fn advance(&mut self) {
        let n = self.players();
        let stuck = (self.v.openspiel || self.stock.is_empty()) && (0..n).all(|q| !self.can_play(q));
        if stuck {
            self.end_round(crate::RoundEndKind::Block);
            return;
        }
        let mut next = (usize::from(self.to_move) + 1) % n;
        if self.v.openspiel {
            while !self.can_play(next) {
                self.push(Event { player: next as u8, drawn: 0, play: None });
                next = (next + 1) % n;
            }
        }
        self.set_to_move(next as u8);
    }

    fn end_round(&mut self, kind: crate::RoundEndKind) {
        let rec = self.round_record(kind);
        if let Some(w) = rec.winner {
            self.scores[usize::from(w)] += rec.points;
        }
        self.rounds += 1;
        self.last = Some(rec);
        let won = self.scores.iter().any(|&s| s >= self.v.target);
        let ph =
            if self.v.openspiel || won || self.rounds >= self.v.rounds { Phase::MatchOver } else { Phase::RoundOver };
        self.set_phase(ph);
    }

    /// The record of a round ending now in `kind` (GAMES.md §2.6 scoring).
    pub(crate) fn round_record(&self, kind: crate::RoundEndKind) -> RoundEnd {
        let n = self.players();
        let mut pips = [0u32; 4];
        let mut tiles = [0u8; 4];
        for p in 0..n {
            pips[p] = self.hands[p].pips();
            tiles[p] = self.hands[p].len() as u8;
        }
        let total: u32 = pips.iter().sum();
        let (winner, points) = match kind {
            // Playboard: going out wins the round even when the others hold
            // no pips (only 0-0): a round won for 0 points, the match goes on.
            crate::RoundEndKind::Domino { player } if !self.v.openspiel => {
                (Some(player), total - pips[usize::from(player)])
            }
            // A block under either rules, and going out under OpenSpiel's,
            // which compares the hands at every ending: the lighter hand
            // wins, so going out against a lone 0-0 is a tie on pips there
            // (returns [0, 0]).
            _ => {
                let min = (0..n).map(|p| pips[p]).min().expect("players");
                let low: Vec<usize> = (0..n).filter(|&p| pips[p] == min).collect();
                let w = if low.len() == 1 {
                    Some(low[0])
                } else if self.v.openspiel {
                    None
                } else {
                    let few = low.iter().map(|&p| tiles[p]).min().expect("tied");
                    let fewest: Vec<usize> = low.iter().copied().filter(|&p| tiles[p] == few).collect();
                    if fewest.len() == 1 { Some(fewest[0]) } else { None }
                };
                match w {
                    Some(w) if self.v.openspiel => (Some(w as u8), total - pips[w]),
                    Some(w) => (Some(w as u8), total - 2 * pips[w]),
                    None => (None, 0),
                }
            }
        };
        RoundEnd { kind, winner, points, pips, tiles }
    }

    /// The match result; `None` while it goes on. With `rules=openspiel`
    /// the single hand is the game: its scorer wins, a pip tie is a draw
    /// (a block on equal pips, or going out against a lone 0-0).
    pub fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::MatchOver {
            return None;
        }
        if self.v.openspiel {
            return Some(match self.last.and_then(|l| l.winner) {
                Some(w) => Outcome::Win { player: usize::from(w) },
                None => Outcome::Draw,
            });
        }
        Some(match (0..self.players()).find(|&p| self.scores[p] >= self.v.target) {
            Some(player) => Outcome::Win { player },
            None => Outcome::Draw,
        })
    }

    /// OpenSpiel's zero-sum returns of the hand (winner +points, loser
    /// −points; 0 each on a tie or before the end); with Playboard rules the
    /// same from the last round's record.
    pub fn openspiel_returns(&self) -> [f64; 4] {
        let mut r = [0.0; 4];
        if let Some(RoundEnd { winner: Some(w), points, .. }) = self.last {
            for (p, x) in r.iter_mut().enumerate().take(self.players()) {
                *x = if p == usize::from(w) {
                    f64::from(points)
                } else {
                    -f64::from(points) / (self.players() - 1) as f64
                };
            }
        }
        r
    }

    /// Whether the last round is over and the next not dealt yet (also true
    /// when the match is over).
    pub fn round_over(&self) -> bool {
        matches!(self.phase, Phase::RoundOver | Phase::MatchOver)
    }

    /// Whether the round is being dealt (its first deal included).
    pub fn dealing(&self) -> bool {
        self.phase == Phase::Deal
    }

    /// The rounds finished so far.
    pub fn rounds_played(&self) -> u32 {
        self.rounds
    }

    /// The match scores (unused players 0).
    pub fn scores(&self) -> [u32; 4] {
        self.scores
    }

    /// How the last finished round ended (kept until the next round is dealt).
    pub fn last_round(&self) -> Option<RoundEnd> {
        self.last
    }

    /// Player `p`'s hand.
    pub fn hand(&self, p: usize) -> TileSet {
        self.hands[p]
    }

    /// The boneyard (during the deal: the undealt tiles; with
    /// `rules=openspiel`: the 14 tiles never dealt).
    pub fn boneyard(&self) -> TileSet {
        self.stock
    }

    /// The tiles in the chain.
    pub fn chain(&self) -> TileSet {
        self.chain
    }

    /// The open ends (left, right); `None` on an empty chain.
    pub fn ends(&self) -> Option<(u8, u8)> {
        if self.ends[0] == NO_END { None } else { Some((self.ends[0], self.ends[1])) }
    }

    /// Tiles the player to move has drawn so far in this turn.
    pub fn drawn_this_turn(&self) -> usize {
        usize::from(self.drawn)
    }

    /// The public history of the round so far, one event per finished turn.
    pub fn history(&self) -> impl Iterator<Item = Event> + '_ {
        self.hist[..usize::from(self.nhist)].iter().map(|&x| Event::unpack(x))
    }

    /// The Zobrist hash: hands, chain, ends, turn, draws in the turn, phase
    /// and the history (all incremental), mixed with the scores and the
    /// round count when asked.
    pub fn hash(&self) -> u64 {
        let mut h = self.z;
        for (i, &s) in self.scores.iter().enumerate() {
            h ^= splitmix((i as u64) << 40 ^ u64::from(s) ^ 0xabc0_0000_0000);
        }
        h ^ splitmix(u64::from(self.rounds) ^ 0xdef0_0000_0000_0000)
    }

    /// The incremental part of the hash computed from scratch (for tests).
    pub fn recompute_hash(&self) -> u64 {
        let mut s = *self;
        s.z = self.recompute_z();
        s.hash()
    }

    pub(crate) fn recompute_z(&self) -> u64 {
        let mut z = 0;
        for p in 0..4 {
            for t in self.hands[p].iter() {
                z ^= Z_HAND[p * 28 + usize::from(t.index())];
            }
        }
        for t in self.chain.iter() {
            z ^= Z_CHAIN[usize::from(t.index())];
        }
        z ^= Z_LEFT[usize::from(self.ends[0])] ^ Z_RIGHT[usize::from(self.ends[1])];
        z ^= Z_TO_MOVE[usize::from(self.to_move)] ^ Z_DRAWN[usize::from(self.drawn & 31)];
        z ^= Z_PHASE[phase_index(self.phase)];
        for i in 0..usize::from(self.nhist) {
            z ^= z_event(i, self.hist[i]);
        }
        z
    }
}

/// Counts the leaves `depth` moves ahead, counting chance outcomes and
/// decisions alike as moves (a node with no move before `depth` counts 0).
pub fn perft(s: &State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    if s.is_chance() {
        let mut c = Vec::new();
        s.chance_outcomes(&mut c);
        moves.extend(c.into_iter().map(|(m, _)| m));
    } else {
        s.legal_moves(&mut moves);
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut t = *s;
            t.play_unchecked(m);
            perft(&t, depth - 1)
        })
        .sum()
}
