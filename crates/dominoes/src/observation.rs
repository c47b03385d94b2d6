//! What one player knows ([`Observation`]) and the determinizing sampler
//! ([`sample`]): full states consistent with an observation.
//!
//! # Consistency
//!
//! A state is consistent with an observation when it has the same public
//! part (variant, scores, rounds, chain, history, turn, draws this turn,
//! hand sizes, boneyard size), the observer's hand, and when some hidden
//! history (a deal and the identity of every drawn tile) leads to it and
//! respects every inference of GAMES.md §2.7, each taken **at the time of
//! its event**:
//!
//! - the opening tile outranks every dealt tile (opening with double d: no
//!   higher double dealt; opening with a non-double: no double dealt and no
//!   heavier tile dealt); before the opening play, the opener holds the
//!   best dealt tile;
//! - a player who drew k ≥ 1 tiles held no tile matching either open end
//!   before drawing, and his first k−1 drawn tiles did not match either;
//! - a tile played right after drawing is the last tile drawn;
//! - a pass (after drawing or not) means none of his tiles matched, the
//!   drawn ones included; with `rules=openspiel` a skipped turn is a pass;
//! - a player still drawing has matched nothing so far; a player who
//!   stopped drawing with tiles left in the boneyard holds exactly one
//!   matching tile, the last drawn.
//!
//! These constraints bind the tiles a player held at the event, not his
//! hand today: a tile matching an old end is allowed in today's hand if he
//! drew after that event and it can be one of those later draws. Checking
//! them is, per player, an assignment of his tiles (hand and played) to
//! "dealt" or to one of his draws, each tile within an interval of
//! allowed acquisition times; earliest-deadline-first decides it exactly.
//!
//! # What "uniform" is over
//!
//! [`sample`] is uniform over the consistent **states**: the ways to place
//! the unseen tiles (those neither in the observer's hand nor in the chain)
//! into the other hands and the boneyard, each consistent placement once.
//! That is not the true posterior: the posterior weights a placement by the
//! probability of the hidden histories that lead to it (how many deals and
//! draw orders produce it, each draw uniform over the boneyard of its
//! time), so placements reached by more histories (e.g. a hand whose tiles
//! could have been drawn in many orders or dealt in many ways) are more
//! likely in the game than under this sampler; and it ignores how the
//! other players chose their moves. It is exact uniform sampling: an exact
//! count of the placements that pass the per-tile tests (dynamic
//! programming over tiles and remaining hand sizes), then rejection of the
//! few that fail the full check.
//!
//! What it must never do: let an agent read a hidden hand, or draw
//! randomness from anywhere but the caller's `next_u64`.

use crate::state::{End, Move, NO_END, Phase, RoundEnd, State};
use crate::tile::{ALL, NUM, Tile, TileSet};
use crate::{Event, Variant};

/// What one player knows: his hand, the chain, the hand sizes, the
/// boneyard size, the public history (plays, draws, passes), the scores,
/// the round and whose turn it is; every hand once the round is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observation {
    pub(crate) observer: u8,
    /// The state with the hidden hands and the boneyard emptied.
    pub(crate) s: State,
    /// Hand sizes (0..4) and the boneyard size (4).
    pub(crate) counts: [u8; 5],
    /// The player to move drew this turn and stopped drawing.
    pub(crate) stopped: bool,
    /// The round is over: every hand is shown.
    pub(crate) revealed: bool,
}

impl State {
    /// What `observer` knows.
    pub fn observation(&self, observer: usize) -> Observation {
        let mut s = *self;
        let revealed = self.round_over();
        let mut counts = [0u8; 5];
        for (p, c) in counts.iter_mut().enumerate().take(4) {
            *c = self.hands[p].len() as u8;
            if p != observer && !revealed {
                s.hands[p] = TileSet::EMPTY;
            }
        }
        counts[4] = self.stock.len() as u8;
        s.stock = TileSet::EMPTY;
        s.z = 0;
        let stopped = self.phase == Phase::Play && self.drawn > 0 && !self.is_chance();
        Observation { observer: observer as u8, s, counts, stopped, revealed }
    }
}

impl Observation {
    /// Whose observation it is.
    pub fn observer(&self) -> usize {
        usize::from(self.observer)
    }
    /// The rules.
    pub fn variant(&self) -> Variant {
        self.s.v
    }
    /// The number of players.
    pub fn players(&self) -> usize {
        self.s.players()
    }
    /// The observer's hand.
    pub fn hand(&self) -> TileSet {
        self.s.hands[self.observer()]
    }
    /// Player `p`'s hand when it is known (the observer's; every hand once the round is over).
    pub fn known_hand(&self, p: usize) -> Option<TileSet> {
        (p == self.observer() || self.revealed).then_some(self.s.hands[p])
    }
    /// Player `p`'s hand size.
    pub fn hand_size(&self, p: usize) -> usize {
        usize::from(self.counts[p])
    }
    /// The boneyard size (during the deal: the undealt tiles).
    pub fn boneyard_size(&self) -> usize {
        usize::from(self.counts[4])
    }
    /// The tiles in the chain.
    pub fn chain(&self) -> TileSet {
        self.s.chain
    }
    /// The tiles the observer cannot see: neither in his hand nor in the chain (nor shown).
    pub fn unseen(&self) -> TileSet {
        let mut seen = self.s.chain;
        for p in 0..self.players() {
            seen = seen.union(self.s.hands[p]);
        }
        TileSet(ALL & !seen.0)
    }
    /// The open ends; `None` on an empty chain.
    pub fn ends(&self) -> Option<(u8, u8)> {
        self.s.ends()
    }
    /// The player whose turn it is (see [`State::to_move`]).
    pub fn to_move(&self) -> usize {
        self.s.to_move()
    }
    /// Tiles drawn so far in this turn.
    pub fn drawn_this_turn(&self) -> usize {
        usize::from(self.s.drawn)
    }
    /// The public history of the round.
    pub fn history(&self) -> impl Iterator<Item = Event> + '_ {
        self.s.history()
    }
    /// The match scores.
    pub fn scores(&self) -> [u32; 4] {
        self.s.scores
    }
    /// Rounds finished.
    pub fn rounds_played(&self) -> u32 {
        self.s.rounds
    }
    /// Whether the round (or the match) is over.
    pub fn round_over(&self) -> bool {
        self.s.round_over()
    }
    /// Whether the match is over.
    pub fn match_over(&self) -> bool {
        self.s.phase == Phase::MatchOver
    }
    /// The match result, public to every observer ([`State::outcome`]);
    /// `None` while it goes on.
    pub fn outcome(&self) -> Option<crate::Outcome> {
        self.s.outcome()
    }
    /// The last finished round's record.
    pub fn last_round(&self) -> Option<RoundEnd> {
        self.s.last
    }
    /// Whether the observer has a decision to make now (then `legal_moves` lists it).
    pub fn is_my_decision(&self) -> bool {
        self.s.phase == Phase::Play
            && self.to_move() == self.observer()
            && (self.s.v.openspiel
                || self.s.ends[0] == NO_END
                || self.hand().0 & self.s.play_mask() != 0
                || self.counts[4] == 0)
    }
    /// The observer's legal decisions when [`Self::is_my_decision`], else nothing.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if !self.is_my_decision() {
            return;
        }
        let mut s = self.s;
        s.stock = if self.counts[4] == 0 { TileSet::EMPTY } else { TileSet(ALL & !self.s.chain.0 & !self.hand().0) };
        if self.s.ends[0] == NO_END && !self.s.v.openspiel {
            // The forced opener: his best tile (he is the opener, so it is the best dealt).
            if let Some(tile) = self.hand().best_opener() {
                out.push(Move::Play { tile, end: End::Left });
            }
            return;
        }
        s.legal_moves(out);
    }

    /// Whether `s` is consistent with this observation (module docs).
    pub fn is_consistent(&self, s: &State) -> bool {
        if s.v != self.s.v
            || s.phase != self.s.phase
            || s.to_move != self.s.to_move
            || s.drawn != self.s.drawn
            || s.scores != self.s.scores
            || s.rounds != self.s.rounds
            || s.last != self.s.last
            || s.nhist != self.s.nhist
            || s.hist[..usize::from(s.nhist)] != self.s.hist[..usize::from(s.nhist)]
            || s.chain != self.s.chain
            || s.ends != self.s.ends
            || s.stock.len() != usize::from(self.counts[4])
        {
            return false;
        }
        let n = self.players();
        for p in 0..n {
            if s.hands[p].len() != usize::from(self.counts[p]) {
                return false;
            }
            if (p == self.observer() || self.revealed) && s.hands[p] != self.s.hands[p] {
                return false;
            }
        }
        let stopped = s.phase == Phase::Play && s.drawn > 0 && !s.is_chance();
        if stopped != self.stopped {
            return false;
        }
        let c = Constraints::new(self);
        c.check(s)
    }
}

/// The per-player constraints of an observation's public part.
#[derive(Clone)]
struct Constraints {
    players: usize,
    active: bool,
    /// Per player: (mask, earliest acquisition for tiles of the mask held then).
    windows: [Vec<(u32, u8)>; 4],
    /// Per player: (tile, earliest, latest, windows before its play) of the tiles he played.
    played: [Vec<(u8, u8, u8, usize)>; 4],
    /// Per player: his draws so far.
    slots: [u8; 4],
    /// Tiles that cannot have been dealt.
    not_dealt: u32,
    hand: u8,
    /// The drawer who stopped with tiles left must hold exactly one tile of
    /// this mask; with `rules=openspiel` the player to move (not skipped) at least one.
    must_match: Option<(usize, u32, bool)>,
    /// The round is not blocked: some hand holds a tile of this mask.
    someone_can: Option<u32>,
    /// Before the opening play: the opener holds the best dealt tile.
    opener: Option<usize>,
}

impl Constraints {
    fn new(o: &Observation) -> Constraints {
        let s = &o.s;
        let n = s.players();
        let mut c = Constraints {
            players: n,
            active: s.phase != Phase::Deal && !o.revealed,
            windows: Default::default(),
            played: Default::default(),
            slots: [0; 4],
            not_dealt: 0,
            hand: s.v.hand,
            must_match: None,
            someone_can: None,
            opener: None,
        };
        if !c.active {
            return c;
        }
        let mut ends = [NO_END; 2];
        for (i, e) in s.history().enumerate() {
            let p = usize::from(e.player);
            let a = c.slots[p];
            let k = e.drawn;
            let mask = NUM[usize::from(ends[0])] | NUM[usize::from(ends[1])];
            match e.play {
                Some((t, end)) => {
                    let ti = t.index();
                    if i == 0 && !s.v.openspiel {
                        let r = t.opening_rank();
                        c.not_dealt =
                            (0..28u8).filter(|&x| crate::tile::RANK[usize::from(x)] > r).fold(0, |m, x| m | 1 << x);
                    }
                    let before = c.windows[p].len();
                    if k > 0 {
                        c.played[p].push((ti, a + k, a + k, before));
                        c.windows[p].push((mask & !(1 << ti), a + k));
                    } else {
                        c.played[p].push((ti, 0, a, before));
                    }
                    if ends[0] == NO_END {
                        ends = [t.ends().0, t.ends().1];
                    } else if end == End::Left {
                        ends[0] = t.other(ends[0]);
                    } else {
                        ends[1] = t.other(ends[1]);
                    }
                }
                None => c.windows[p].push((mask, a + k)),
            }
            c.slots[p] = a + k;
        }
        if s.phase == Phase::Play {
            let p = usize::from(s.to_move);
            let a = c.slots[p];
            let k = s.drawn;
            c.slots[p] = a + k;
            if k > 0 {
                let mask = s.play_mask();
                if o.stopped {
                    c.windows[p].push((mask, a + k - 1));
                    if o.counts[4] > 0 {
                        c.must_match = Some((p, mask, true));
                    }
                } else {
                    c.windows[p].push((mask, a + k));
                }
            }
            if s.nhist == 0 && !s.v.openspiel {
                c.opener = Some(p);
            }
            if s.nhist > 0 && s.v.openspiel {
                c.must_match = Some((p, s.play_mask(), false));
            }
            if s.nhist > 0 && k == 0 && o.counts[4] == 0 {
                c.someone_can = Some(s.play_mask());
            }
        }
        c
    }

    /// The earliest acquisition of tile `x` held by `p` now (position 0 = dealt, i = his i-th draw).
    fn earliest(&self, p: usize, x: u8) -> u8 {
        self.earliest_upto(p, x, self.windows[p].len())
    }

    /// The same, counting only the first `upto` windows of `p` (a played tile left his hand then).
    fn earliest_upto(&self, p: usize, x: u8, upto: usize) -> u8 {
        let mut e = u8::from(self.not_dealt >> x & 1 == 1);
        for &(mask, w) in &self.windows[p][..upto] {
            if mask >> x & 1 == 1 {
                e = e.max(w + 1);
            }
        }
        e
    }

    /// Whether `x` may be in `p`'s hand now, judged alone.
    fn allowed(&self, p: usize, x: u8) -> bool {
        !self.active || self.earliest(p, x) <= self.slots[p]
    }

    fn check(&self, s: &State) -> bool {
        if !self.active {
            return true;
        }
        if let Some(op) = self.opener {
            let dealt = TileSet((0..self.players).fold(0, |m, p| m | s.hands[p].0));
            if dealt.best_opener().is_none_or(|b| !s.hands[op].contains(b)) {
                return false;
            }
        }
        if let Some((p, mask, exact)) = self.must_match {
            let k = (s.hands[p].0 & mask).count_ones();
            if k == 0 || exact && k != 1 {
                return false;
            }
        }
        if let Some(mask) = self.someone_can
            && (0..self.players).all(|p| s.hands[p].0 & mask == 0)
        {
            return false;
        }
        (0..self.players).all(|p| self.feasible(p, s.hands[p]))
    }

    /// Earliest-deadline-first: can `p`'s tiles be given acquisition times within their intervals?
    fn feasible(&self, p: usize, hand: TileSet) -> bool {
        let m = self.slots[p];
        let mut jobs: Vec<(u8, u8)> = Vec::with_capacity(28);
        for t in hand.iter() {
            jobs.push((self.earliest(p, t.index()), m));
        }
        for &(x, e, l, upto) in &self.played[p] {
            let e2 = self.earliest_upto(p, x, upto).max(e);
            jobs.push((if e == l { e } else { e2 }, l));
        }
        if jobs.len() != usize::from(self.hand) + usize::from(m) {
            return false;
        }
        let mut done = vec![false; jobs.len()];
        for pos in 0..=m {
            let cap = if pos == 0 { usize::from(self.hand) } else { 1 };
            for _ in 0..cap {
                let mut best: Option<usize> = None;
                for (j, &(e, l)) in jobs.iter().enumerate() {
                    if !done[j] && e <= pos && best.is_none_or(|b| l < jobs[b].1) {
                        best = Some(j);
                    }
                }
                match best {
                    Some(j) if jobs[j].1 >= pos => done[j] = true,
                    _ => return false,
                }
            }
        }
        done.iter().all(|&d| d)
    }
}

fn below(n: u128, next_u64: &mut dyn FnMut() -> u64) -> u128 {
    let zone = u128::MAX - u128::MAX % n;
    loop {
        let x = u128::from(next_u64()) << 64 | u128::from(next_u64());
        if x < zone {
            return x % n;
        }
    }
}

/// Draws a full state consistent with `obs` (module docs), uniformly among
/// the consistent placements of the unseen tiles into the other hands and
/// the boneyard, using `next_u64` as the only randomness. The state's
/// public part is the observation's. To draw many states from one
/// observation, build a [`Sampler`] once.
///
/// # Panics
///
/// When no state is consistent with `obs` (it cannot come from a game).
pub fn sample(obs: &Observation, next_u64: &mut dyn FnMut() -> u64) -> State {
    Sampler::new(obs).draw(next_u64)
}

/// The determinizing sampler of one observation, with its counting table
/// built once (what [`sample`] builds on every call).
#[derive(Clone)]
pub struct Sampler {
    obs: Observation,
    c: Constraints,
    hidden: Vec<usize>,
    unseen: Vec<Tile>,
    caps: Vec<usize>,
    radix: Vec<usize>,
    width: usize,
    ways: Vec<u128>,
    full: usize,
}

impl Sampler {
    /// The sampler of `obs`.
    ///
    /// # Panics
    ///
    /// When no placement passes the per-tile tests (`obs` cannot come from a game).
    pub fn new(obs: &Observation) -> Sampler {
        let n = obs.players();
        let hidden: Vec<usize> = (0..n).filter(|&p| p != obs.observer() && !obs.revealed).collect();
        let unseen: Vec<Tile> = obs.unseen().iter().collect();
        let c = Constraints::new(obs);
        let caps: Vec<usize> = hidden.iter().map(|&p| usize::from(obs.counts[p])).collect();
        let mut radix = vec![1usize; hidden.len() + 1];
        for i in 0..hidden.len() {
            radix[i + 1] = radix[i] * (caps[i] + 1);
        }
        let width = radix[hidden.len()];
        let k = unseen.len();
        // ways[i * width + r]: placements of tiles i.. with hidden hands' remaining sizes r.
        let mut ways = vec![0u128; (k + 1) * width];
        ways[k * width] = 1;
        let decode = |r: usize, q: usize| r / radix[q] % (caps[q] + 1);
        for i in (0..k).rev() {
            let x = unseen[i].index();
            for r in 0..width {
                let used: usize = (0..hidden.len()).map(|q| decode(r, q)).sum();
                if used > k - i {
                    continue;
                }
                let mut w = 0;
                if used < k - i {
                    w += ways[(i + 1) * width + r];
                }
                for (q, &p) in hidden.iter().enumerate() {
                    if decode(r, q) > 0 && c.allowed(p, x) {
                        w += ways[(i + 1) * width + r - radix[q]];
                    }
                }
                ways[i * width + r] = w;
            }
        }
        let full: usize = (0..hidden.len()).map(|q| caps[q] * radix[q]).sum();
        assert!(ways[full] > 0 && caps.iter().sum::<usize>() <= k, "no state is consistent with this observation");
        Sampler { obs: *obs, c, hidden, unseen, caps, radix, width, ways, full }
    }

    /// The number of placements that pass the per-tile tests (an upper
    /// bound on the consistent states; the rest is rejection).
    pub fn placements(&self) -> u128 {
        self.ways[self.full]
    }

    /// Every state consistent with the observation (module docs), each
    /// once, in a fixed order (the unseen tiles in increasing number, the
    /// boneyard first, then the hidden hands in seat order); or, when more
    /// than `limit` placements pass the per-tile tests
    /// ([`Sampler::placements`]), `Err` with that count and nothing
    /// enumerated. An exact enumeration: the per-tile tests prune, the
    /// full check decides.
    pub fn consistent_states(&self, limit: u128) -> Result<Vec<State>, u128> {
        if self.placements() > limit {
            return Err(self.placements());
        }
        let mut base = self.obs.s;
        for &p in &self.hidden {
            base.hands[p] = TileSet::EMPTY;
        }
        base.stock = TileSet::EMPTY;
        let mut out = Vec::new();
        self.enumerate(0, self.full, &mut base, &mut out);
        Ok(out)
    }

    /// Places tiles `i..` with the hidden hands' remaining sizes `r` into
    /// `s` (tiles before `i` placed), pushing each full placement that
    /// passes the full check.
    fn enumerate(&self, i: usize, r: usize, s: &mut State, out: &mut Vec<State>) {
        let (k, width) = (self.unseen.len(), self.width);
        if self.ways[i * width + r] == 0 {
            return;
        }
        if i == k {
            if self.c.check(s) {
                let mut t = *s;
                t.z = t.recompute_z();
                out.push(t);
            }
            return;
        }
        let decode = |q: usize| r / self.radix[q] % (self.caps[q] + 1);
        let used: usize = (0..self.hidden.len()).map(decode).sum();
        let x = self.unseen[i];
        if used < k - i {
            s.stock.insert(x);
            self.enumerate(i + 1, r, s, out);
            s.stock.remove(x);
        }
        for (q, &p) in self.hidden.iter().enumerate() {
            if decode(q) > 0 && self.c.allowed(p, x.index()) {
                s.hands[p].insert(x);
                self.enumerate(i + 1, r - self.radix[q], s, out);
                s.hands[p].remove(x);
            }
        }
    }

    /// One state, uniform over the consistent states (module docs).
    ///
    /// # Panics
    ///
    /// When ten million proposals in a row fail the full check.
    pub fn draw(&self, next_u64: &mut dyn FnMut() -> u64) -> State {
        let (k, width) = (self.unseen.len(), self.width);
        let decode = |r: usize, q: usize| r / self.radix[q] % (self.caps[q] + 1);
        let mut base = self.obs.s;
        for _ in 0..10_000_000u32 {
            let mut r = self.full;
            let mut hands = self.obs.s.hands;
            for &p in &self.hidden {
                hands[p] = TileSet::EMPTY;
            }
            let mut stock = TileSet::EMPTY;
            for i in 0..k {
                let x = self.unseen[i];
                let used: usize = (0..self.hidden.len()).map(|q| decode(r, q)).sum();
                let mut pick = below(self.ways[i * width + r], next_u64);
                if used < k - i {
                    let w = self.ways[(i + 1) * width + r];
                    if pick < w {
                        stock.insert(x);
                        continue;
                    }
                    pick -= w;
                }
                for (q, &p) in self.hidden.iter().enumerate() {
                    if decode(r, q) > 0 && self.c.allowed(p, x.index()) {
                        let w = self.ways[(i + 1) * width + r - self.radix[q]];
                        if pick < w {
                            hands[p].insert(x);
                            r -= self.radix[q];
                            break;
                        }
                        pick -= w;
                    }
                }
            }
            base.hands = hands;
            base.stock = stock;
            if self.c.check(&base) {
                base.z = base.recompute_z();
                return base;
            }
        }
        panic!("no state consistent with this observation found in 10000000 tries");
    }
}
