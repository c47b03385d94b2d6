//! The learned evaluation: a logistic model of the game's result, one
//! weight vector for play positions and one for draft positions, fitted to
//! self-play outcomes by `senat tune` ([`crate::tune`]) and shipped as data
//! (`crates/lab/data/learned-weights.txt`).
//!
//! [`Learned::logit`] is the log-odds that a side wins (a draw counts half)
//! as a weighted sum of features a player would name (see
//! [`PLAY_FEATURES`] and [`DRAFT_FEATURES`]); [`Learned::value`] is the
//! probability. Every feature is *antisymmetric* — seen from the other side
//! it changes sign — so the two sides' values always add up to one and a
//! draw-ish position sits at ½. The board terms are read from the shared
//! feature set ([`Features::of`]) and extended here; this one type is what
//! the `learned` policy and MCTS (`mcts:rollout=eval,prior=1000`: leaf
//! values and PUCT priors) evaluate with.
//!
//! This module only reads positions: it never plays a move, never draws
//! randomness and never encodes a rule (it asks [`Position`]). The only
//! text it reads is handed to [`Learned::parse`]; files are read by callers.

use crate::eval::Features;
use crate::net::{Net, NetError};
use senat_rules::board::Bitboard;
use senat_rules::dice::{Colour, Die, Face, Side};
use senat_rules::position::{Layers, Phase, Position};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// The names of the play features, in vector order (`play.<name>` in a weights file).
pub const PLAY_FEATURES: [&str; 18] = [
    "pile",
    "near",
    "row_s",
    "row_m",
    "row_i",
    "full_i",
    "squares",
    "exposed",
    "threat_now",
    "threat_next",
    "threats",
    "push_down",
    "agents_i",
    "flip_i",
    "restricted",
    "closure",
    "tempo",
    "red",
];

/// The names of the draft features, in vector order (`draft.<name>` in a weights file).
pub const DRAFT_FEATURES: [&str; 12] = [
    "row_s",
    "row_m",
    "row_i",
    "squares",
    "exposed",
    "threats",
    "bad_dice",
    "places_left",
    "pending",
    "free_i",
    "tempo",
    "red",
];

/// Number of play features.
pub const NP: usize = PLAY_FEATURES.len();
/// Number of draft features.
pub const ND: usize = DRAFT_FEATURES.len();

/// The log-odds given to a won (or lost) position: far beyond any fitted sum.
pub const DECIDED: f64 = 30.0;

/// The colour a side's dice show.
#[inline]
const fn colour_of(side: Side) -> Colour {
    match side {
        Side::Red => Colour::Red,
        Side::Blue => Colour::Blue,
    }
}

/// +1 for `true`, −1 for `false`.
#[inline]
fn sign(b: bool) -> f64 {
    if b { 1.0 } else { -1.0 }
}

/// Dice in row I showing `colour` that a square of the same colour beside
/// them in row I can push through the door now (neither restricted).
#[inline]
fn threats(l: &Layers, free: Bitboard, colour: Colour) -> u32 {
    let own = l.showing(colour) & free & Bitboard::ROW_I;
    let agents = own & l.square;
    (own & (agents.left() | agents.right())).len()
}

/// Dice in row M showing `colour` that a square of the same colour beside
/// them can push down into row I (neither restricted).
#[inline]
fn push_downs(l: &Layers, free: Bitboard, colour: Colour) -> u32 {
    let own = l.showing(colour) & free & Bitboard::ROW_M;
    let agents = own & l.square;
    (own & (agents.left() | agents.right())).len()
}

/// Dice in row I showing `other` beside a triangle of `colour` in row I
/// that can flip them (neither restricted).
#[inline]
fn flips(l: &Layers, free: Bitboard, colour: Colour, other: Colour) -> u32 {
    let row_i = Bitboard::ROW_I;
    let tri = l.showing(colour) & l.triangle & free & row_i;
    (l.showing(other) & free & row_i & (tri.left() | tri.right())).len()
}

/// Whether die `d` has a face showing `c` (the placer can show it).
#[inline]
fn shows(d: Die, c: Colour) -> bool {
    Face::ALL.iter().any(|&f| d.colour(f) == c)
}

/// The dice that have no face of `c`: the ones a giver hands to that side.
fn bad_for(c: Colour) -> u32 {
    static TABLE: OnceLock<[u32; 2]> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mask = |c| Die::all().filter(|&d| !shows(d, c)).fold(0u32, |m, d| m | 1 << d.number());
        [mask(Colour::Red), mask(Colour::Blue)]
    });
    match c {
        Colour::Blue => t[1],
        _ => t[0],
    }
}

/// The side that makes placement `k` (1-based) in `p`'s variant (red when
/// `k` is odd, in the rules).
#[inline]
fn placer(p: &Position, k: u32) -> Side {
    p.variant().placer(k)
}

/// The rows' counts of dice showing `c`: S, M, I.
#[inline]
fn rows(l: &Layers, c: Colour) -> [f64; 3] {
    let own = l.showing(c);
    [(own & Bitboard::ROW_S).len() as f64, (own & Bitboard::ROW_M).len() as f64, (own & Bitboard::ROW_I).len() as f64]
}

/// The play features of `p` seen from `me` (a play position).
pub fn play_features(p: &Position, me: Side) -> [f64; NP] {
    let l = p.layers();
    let f = Features::of_layers(p, &l, me);
    let (mine, theirs) = (colour_of(me), colour_of(me.other()));
    let (rm, rt) = (rows(&l, mine), rows(&l, theirs));
    let piles = p.piles();
    let (pm, pt) = (piles.of(me), piles.of(me.other()));
    let near = |n: u8, s: Side| f64::from(u8::from(n + 1 >= p.majority_of(s)));
    let to_move = p.side_to_move() == me;
    let restricted = p.restricted();
    let free = !restricted;
    let (tm, tt) = (threats(&l, free, mine) as f64, threats(&l, free, theirs) as f64);
    let any = |n: f64| f64::from(u8::from(n > 0.0));
    let (threat_now, threat_next) = if to_move { (any(tm), -any(tt)) } else { (-any(tt), any(tm)) };
    let agents_i = |c| (l.showing(c) & l.square & Bitboard::ROW_I).len() as f64;
    let row_i_diff = rm[2] - rt[2];
    [
        f.pile_diff as f64,
        near(pm, me) - near(pt, me.other()),
        rm[0] - rt[0],
        rm[1] - rt[1],
        row_i_diff,
        if f.row_i_full { row_i_diff } else { 0.0 },
        f.mine.squares as f64 - f.theirs.squares as f64,
        f.mine.exposed as f64 - f.theirs.exposed as f64,
        threat_now,
        threat_next,
        tm - tt,
        push_downs(&l, free, mine) as f64 - push_downs(&l, free, theirs) as f64,
        agents_i(mine) - agents_i(theirs),
        flips(&l, free, mine, theirs) as f64 - flips(&l, free, theirs, mine) as f64,
        (l.showing(mine) & restricted).len() as f64 - (l.showing(theirs) & restricted).len() as f64,
        f.pile_diff as f64 * f64::from(p.clock()) / f64::from(p.closure()),
        sign(to_move),
        sign(me == Side::Red),
    ]
}

/// Placements left to `side` after `placed` placements, when `odd` makes
/// the odd ones (red, in the rules).
#[inline]
fn left_to(side: Side, placed: u32, odd: Side) -> f64 {
    let odd_upto = |n: u32| n.div_ceil(2);
    let first = odd_upto(23) - odd_upto(placed.min(23));
    let all = 23 - placed.min(23);
    f64::from(if side == odd { first } else { all - first })
}

/// The draft features of the board alone (rows, squares, exposed, threats):
/// the first six of [`DRAFT_FEATURES`].
#[inline]
fn draft_board(p: &Position, me: Side) -> [f64; 6] {
    let l = p.layers();
    let f = Features::of_layers(p, &l, me);
    let (mine, theirs) = (colour_of(me), colour_of(me.other()));
    let (rm, rt) = (rows(&l, mine), rows(&l, theirs));
    let free = !p.restricted();
    [
        rm[0] - rt[0],
        rm[1] - rt[1],
        rm[2] - rt[2],
        f.mine.squares as f64 - f.theirs.squares as f64,
        f.mine.exposed as f64 - f.theirs.exposed as f64,
        threats(&l, free, mine) as f64 - threats(&l, free, theirs) as f64,
    ]
}

/// The draft features of `p` seen from `me` (a draft position).
pub fn draft_features(p: &Position, me: Side) -> [f64; ND] {
    let (mine, theirs) = (colour_of(me), colour_of(me.other()));
    let board = draft_board(p, me);
    let reserve = p.reserve().0;
    let bad = (reserve & bad_for(theirs)).count_ones() as f64 - (reserve & bad_for(mine)).count_ones() as f64;
    // Placements made, the one pending (if any) counted as made.
    let phase = p.phase();
    let placed = p.dice_count() + u32::from(matches!(phase, Phase::Place(_)));
    let pending = match phase {
        Phase::Place(d) => {
            let by = p.side_to_move();
            sign(by == me) * f64::from(u8::from(shows(d, colour_of(by))))
        }
        _ => 0.0,
    };
    // Who places next into the free cells of row I.
    let next = if matches!(phase, Phase::Place(_)) { p.side_to_move() } else { placer(p, placed + 1) };
    let free_i = (Bitboard::ROW_I & !p.occupied()).len() as f64;
    [
        board[0],
        board[1],
        board[2],
        board[3],
        board[4],
        board[5],
        bad,
        left_to(me, placed, placer(p, 1)) - left_to(me.other(), placed, placer(p, 1)),
        pending,
        free_i * sign(next == me),
        sign(p.side_to_move() == me),
        sign(me == Side::Red),
    ]
}

/// The learned evaluation: a logistic model per phase, and optionally a
/// small network ([`Net`]) whose output is added to the play logit.
#[derive(Clone, Debug, PartialEq)]
pub struct Learned {
    /// Weights of [`PLAY_FEATURES`].
    pub play: [f64; NP],
    /// Weights of [`DRAFT_FEATURES`].
    pub draft: [f64; ND],
    /// The network added to the play positions' logit (`net.…` lines of
    /// the file); `None`: the logistic model alone.
    pub net: Option<Arc<Net>>,
    /// The network added to the draft positions' logit (`draft_net.…`
    /// lines, inputs [`crate::net::draft_inputs`]); `None`: the draft's
    /// logistic model alone.
    pub draft_net: Option<Arc<Net>>,
}

/// A shared, copyable handle on a learned evaluation that lives for the
/// program: the shipped weights ([`LearnedRef::builtin`]) or weights read
/// from a file ([`LearnedRef::intern`]), for the search policies, whose
/// parameters are plain values. Two handles are equal when they name the
/// same weights.
#[derive(Clone, Copy)]
pub struct LearnedRef(&'static Learned);

impl LearnedRef {
    /// The shipped weights.
    pub fn builtin() -> LearnedRef {
        LearnedRef(Learned::builtin())
    }

    /// A handle on `w`: weights equal to ones interned before (or to the
    /// shipped ones) share their handle, so reading one file many times
    /// keeps one copy; each distinct set is kept until the program ends.
    pub fn intern(w: Learned) -> LearnedRef {
        static KEPT: std::sync::Mutex<Vec<&'static Learned>> = std::sync::Mutex::new(Vec::new());
        if w == *Learned::builtin() {
            return LearnedRef::builtin();
        }
        let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&k) = kept.iter().find(|&&k| *k == w) {
            return LearnedRef(k);
        }
        let k: &'static Learned = Box::leak(Box::new(w));
        kept.push(k);
        LearnedRef(k)
    }

    /// The weights.
    pub fn get(self) -> &'static Learned {
        self.0
    }

    /// The shipped weights with the value and draft networks ([`Learned::shipped_draft`]).
    pub fn shipped_draft() -> LearnedRef {
        LearnedRef(Learned::shipped_draft())
    }

    /// The shipped weights with a value network ([`Learned::shipped_net`]).
    pub fn shipped_net() -> LearnedRef {
        LearnedRef(Learned::shipped_net())
    }

    /// Whether these are the shipped weights.
    pub fn is_builtin(self) -> bool {
        std::ptr::eq(self.0, Learned::builtin())
    }
}

impl PartialEq for LearnedRef {
    fn eq(&self, other: &LearnedRef) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for LearnedRef {}

impl fmt::Debug for LearnedRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_builtin() { f.write_str("LearnedRef(builtin)") } else { write!(f, "LearnedRef({:p})", self.0) }
    }
}

/// The weights shipped with the program.
const BUILTIN: &str = include_str!("../data/learned-weights.txt");

/// The shipped weights with a value network (`net=on` in a spec): the text
/// of `crates/lab/data/net-senat.txt`, whose header says how it was made.
/// A batch's identity hashes it, as it hashes a `file=`.
pub const SHIPPED_NET: &str = include_str!("../data/net-senat.txt");

/// The shipped weights with the value network and a draft network
/// (`net=draft` in a spec): the text of `crates/lab/data/net-senat-draft.txt`,
/// [`SHIPPED_NET`]'s play weights and network with draft weights and a draft
/// network trained on their games (its header says how).
pub const SHIPPED_DRAFT: &str = include_str!("../data/net-senat-draft.txt");

impl Learned {
    /// All weights zero: every position is even.
    pub const ZERO: Learned = Learned { play: [0.0; NP], draft: [0.0; ND], net: None, draft_net: None };

    /// The fitted weights shipped with the program (`crates/lab/data/learned-weights.txt`).
    pub fn builtin() -> &'static Learned {
        static W: OnceLock<Learned> = OnceLock::new();
        W.get_or_init(|| Learned::parse(BUILTIN).expect("the shipped weights file parses (tested)"))
    }

    /// The shipped weights with a value network ([`SHIPPED_NET`]).
    pub fn shipped_net() -> &'static Learned {
        static W: OnceLock<Learned> = OnceLock::new();
        W.get_or_init(|| Learned::parse(SHIPPED_NET).expect("the shipped network's file parses (tested)"))
    }

    /// The shipped weights with the value network and the draft network ([`SHIPPED_DRAFT`]).
    pub fn shipped_draft() -> &'static Learned {
        static W: OnceLock<Learned> = OnceLock::new();
        W.get_or_init(|| Learned::parse(SHIPPED_DRAFT).expect("the shipped draft network's file parses (tested)"))
    }

    /// The log-odds that `me` wins `p` (a draw counting half); ±[`DECIDED`]
    /// once a side holds the majority.
    #[inline]
    pub fn logit(&self, p: &Position, me: Side) -> f64 {
        // The network of the position's phase; without one (or once decided),
        // the logistic model alone, which checks the majority itself.
        let play = p.is_play();
        match if play { &self.net } else { &self.draft_net } {
            Some(n) if p.majority().is_none() => {
                if play {
                    dot(&self.play, &play_features(p, me)) + n.logit(p, me)
                } else {
                    dot(&self.draft, &draft_features(p, me)) + n.draft_logit(p, me)
                }
            }
            _ => self.logistic_logit(p, me),
        }
    }

    /// [`Learned::logit`] without the networks: the logistic model alone
    /// (the same where there is no network). For the MCTS priors, which
    /// ask it of every child of every node expanded.
    #[inline]
    pub fn logistic_logit(&self, p: &Position, me: Side) -> f64 {
        if let Some(w) = p.majority() {
            return if w == me { DECIDED } else { -DECIDED };
        }
        if !p.is_play() {
            return dot(&self.draft, &draft_features(p, me));
        }
        dot(&self.play, &play_features(p, me))
    }

    /// The draft logit of `p` for `me` less the terms that every placement
    /// of one pending die leaves equal (reserve, placements left, pending die,
    /// who moves): ranks the placements of a `Place` position exactly as
    /// [`Learned::logit`] of their results does, at a fraction of the cost.
    /// For a draft position only (a play position, or any position under a
    /// draft network, gets [`Learned::logit`]).
    #[inline]
    pub fn placement_logit(&self, p: &Position, me: Side) -> f64 {
        if p.is_play() || self.draft_net.is_some() {
            return self.logit(p, me);
        }
        let b = draft_board(p, me);
        let free_i = (Bitboard::ROW_I & !p.occupied()).len() as f64;
        // After a placement the placer gives next; the placer after that is the other side.
        let next = placer(p, p.dice_count() + 1);
        let w = &self.draft;
        w[..6].iter().zip(b).map(|(a, x)| a * x).sum::<f64>() + w[9] * free_i * sign(next == me)
    }

    /// The probability that `me` wins `p`, a draw counting half.
    #[inline]
    pub fn value(&self, p: &Position, me: Side) -> f64 {
        sigmoid(self.logit(p, me))
    }

    /// Reads a weights file: one `play.<feature>=<number>` or
    /// `draft.<feature>=<number>` a line, then the `net.` and `draft_net.`
    /// lines, `#` comments, every weight exactly once; the lines read and
    /// checked by [`crate::weights_file::entries`] (a check line, no key
    /// twice, numbers within ±[`crate::limits::MAX_WEIGHT`]; a file without
    /// a check line must give every row of its networks).
    pub fn parse(text: &str) -> Result<Learned, LearnedError> {
        let mut w = Learned::ZERO;
        let mut seen_play = [false; NP];
        let mut seen_draft = [false; ND];
        let mut net: Option<Net> = None;
        let mut draft_net: Option<Net> = None;
        let file = crate::weights_file::entries(text)
            .map_err(|e| LearnedError::Line { line: e.line, kind: LineError::File(e.why) })?;
        for e in &file.entries {
            let at = |kind| LearnedError::Line { line: e.line, kind };
            let (key, value) = (e.key, e.value);
            if let Some(k) = key.strip_prefix("net.") {
                Net::read_line(&mut net, crate::net::INPUTS, k, value).map_err(|e| at(LineError::Net(e)))?;
                continue;
            }
            if let Some(k) = key.strip_prefix("draft_net.") {
                Net::read_line(&mut draft_net, crate::net::DRAFT_INPUTS, k, value)
                    .map_err(|e| at(LineError::DraftNet(e)))?;
                continue;
            }
            let v: f64 = crate::weights_file::number(value).map_err(|why| at(LineError::File(why)))?;
            let (slot, seen) = match key.split_once('.') {
                Some(("play", name)) => match PLAY_FEATURES.iter().position(|&f| f == name) {
                    Some(i) => (&mut w.play[i], &mut seen_play[i]),
                    None => return Err(at(LineError::Unknown(key.to_string()))),
                },
                Some(("draft", name)) => match DRAFT_FEATURES.iter().position(|&f| f == name) {
                    Some(i) => (&mut w.draft[i], &mut seen_draft[i]),
                    None => return Err(at(LineError::Unknown(key.to_string()))),
                },
                _ => return Err(at(LineError::Unknown(key.to_string()))),
            };
            *seen = true;
            *slot = v;
        }
        file.verdict().map_err(|e| LearnedError::Line { line: e.line, kind: LineError::File(e.why) })?;
        for (prefix, n, inputs) in
            [("net", &net, crate::net::INPUTS), ("draft_net", &draft_net, crate::net::DRAFT_INPUTS)]
        {
            if let Some(e) = n.as_ref().and_then(|_| file.missing_net(prefix, inputs)) {
                return Err(LearnedError::Line { line: e.line, kind: LineError::File(e.why) });
            }
        }
        let missing: Vec<String> = PLAY_FEATURES
            .iter()
            .zip(seen_play)
            .map(|(f, s)| (format!("play.{f}"), s))
            .chain(DRAFT_FEATURES.iter().zip(seen_draft).map(|(f, s)| (format!("draft.{f}"), s)))
            .filter(|(_, s)| !s)
            .map(|(f, _)| f)
            .collect();
        if !missing.is_empty() {
            return Err(LearnedError::Missing(missing));
        }
        w.net = net.map(Arc::new);
        w.draft_net = draft_net.map(Arc::new);
        Ok(w)
    }

    /// The weights as a file body that [`Learned::parse`] reads back exactly,
    /// after `header` (written as `#` comment lines), with its check line
    /// ([`crate::weights_file::seal`]).
    pub fn to_text(&self, header: &str) -> String {
        let mut s = String::new();
        for line in header.lines() {
            s.push_str("# ");
            s.push_str(line);
            s.push('\n');
        }
        for (name, w) in PLAY_FEATURES.iter().zip(self.play) {
            s.push_str(&format!("play.{name}={w:?}\n"));
        }
        for (name, w) in DRAFT_FEATURES.iter().zip(self.draft) {
            s.push_str(&format!("draft.{name}={w:?}\n"));
        }
        if let Some(n) = &self.net {
            s.push_str(&n.to_text());
        }
        if let Some(n) = &self.draft_net {
            s.push_str(&n.to_text_as("draft_net"));
        }
        crate::weights_file::seal(&s)
    }
}

/// Σ wᵢ·xᵢ.
#[inline]
pub fn dot<const N: usize>(w: &[f64; N], x: &[f64; N]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// What is wrong with one line of a weights file.
#[derive(Clone, Debug, PartialEq)]
pub enum LineError {
    /// What the one reader of weights files refuses
    /// ([`crate::weights_file`]: a line that is not `key=value`, a key
    /// given twice, a check line that does not hold, a file cut short, a
    /// number not finite or beyond ±[`crate::limits::MAX_WEIGHT`]).
    File(String),
    /// No weight has this name.
    Unknown(String),
    /// A `net.` line is wrong.
    Net(NetError),
    /// A `draft_net.` line is wrong.
    DraftNet(NetError),
}

/// Why a learned weights file was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum LearnedError {
    /// A line is wrong (1-based line number).
    Line {
        /// The line number.
        line: usize,
        /// What is wrong.
        kind: LineError,
    },
    /// Weights the file does not give.
    Missing(Vec<String>),
}

impl fmt::Display for LearnedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LearnedError::Line { line, kind } => {
                write!(f, "line {line}: ")?;
                match kind {
                    LineError::File(why) => f.write_str(why),
                    LineError::Unknown(k) => write!(
                        f,
                        "unknown weight `{}` (accepted: play.{} and draft.{})",
                        crate::limits::clip(k),
                        PLAY_FEATURES.join("|"),
                        DRAFT_FEATURES.join("|")
                    ),
                    LineError::Net(e) => write!(f, "{e}"),
                    // The network's messages name its keys `net.…`.
                    LineError::DraftNet(e) => write!(f, "{}", e.to_string().replace("net.", "draft_net.")),
                }
            }
            LearnedError::Missing(names) => write!(f, "weights missing: {}", names.join(", ")),
        }
    }
}

impl std::error::Error for LearnedError {}

#[cfg(test)]
mod tests {
    use super::*;
    use senat_rules::sample;

    #[test]
    fn interned_weights_share_one_handle_and_the_builtin_is_recognised() {
        assert!(LearnedRef::intern(Learned::builtin().clone()).is_builtin());
        let mut w = Learned::builtin().clone();
        w.play[0] += 1.0;
        let (a, b) = (LearnedRef::intern(w.clone()), LearnedRef::intern(w.clone()));
        assert_eq!(a, b);
        assert!(!a.is_builtin());
        assert_eq!(*a.get(), w);
        w.play[0] += 1.0;
        assert_ne!(LearnedRef::intern(w), a);
    }

    /// The network adds to the logistic logit of play positions only, and
    /// `logistic_logit` leaves it out (the MCTS priors).
    #[test]
    fn the_network_adds_to_play_positions_and_the_logistic_logit_leaves_it_out() {
        let mut net = Net::zeros(crate::net::INPUTS, 2);
        net.b1 = vec![0.5, 0.25];
        net.w2 = vec![0.8, -0.4];
        let with = Learned { net: Some(Arc::new(net.clone())), ..Learned::builtin().clone() };
        let without = Learned::builtin();
        let play: Position = sample::START.parse().unwrap();
        for me in [Side::Red, Side::Blue] {
            let added = with.logit(&play, me) - without.logit(&play, me);
            assert!((added - net.logit(&play, me)).abs() < 1e-12 && added.abs() > 0.1, "{added}");
            assert_eq!(with.logistic_logit(&play, me), without.logit(&play, me));
            assert_eq!(with.logit(&Position::start(), me), without.logit(&Position::start(), me), "draft");
        }
    }

    #[test]
    fn the_shipped_network_loads_and_is_not_the_logistic_model() {
        let w = Learned::shipped_net();
        let net = w.net.as_ref().expect("net-senat.txt holds a network");
        assert!(net.w2.iter().any(|&x| x != 0.0));
        assert_eq!(w.draft, Learned::builtin().draft, "the draft weights are the shipped ones");
        assert_eq!(LearnedRef::shipped_net(), LearnedRef::shipped_net());
        assert_ne!(LearnedRef::shipped_net(), LearnedRef::builtin());
    }

    /// The shipped draft network's file keeps the play network's weights,
    /// adds its network to draft positions only, reads back exactly, and a
    /// placement is weighed by it in full.
    #[test]
    fn the_shipped_draft_network_weighs_draft_positions_only() {
        let (d, n) = (Learned::shipped_draft(), Learned::shipped_net());
        assert!(d.draft_net.is_some() && n.draft_net.is_none());
        assert_eq!((d.play, &d.net), (n.play, &n.net), "the play weights and network are net=on's");
        assert_eq!(&Learned::parse(&d.to_text("x")).unwrap(), d, "reads back");
        let mut rng = testkit::XorShift64::new(4);
        let (mut drafts, mut plays) = (0, 0);
        let mut p = Position::start();
        for _ in 0..4000 {
            let moves = p.legal_moves();
            if moves.is_empty() || p.majority().is_some() {
                p = Position::start();
                continue;
            }
            let me = p.side_to_move();
            if p.is_play() {
                assert_eq!(d.logit(&p, me), n.logit(&p, me));
                plays += 1;
            } else {
                assert_ne!(d.logit(&p, me), d.logistic_logit(&p, me), "{}", p.to_spn());
                drafts += 1;
            }
            if let Some(q) = moves
                .iter()
                .map(|&m| {
                    let mut q = p;
                    q.play_unchecked(m);
                    q
                })
                .find(|q| !q.is_play())
            {
                assert_eq!(d.placement_logit(&q, me), d.logit(&q, me), "{}", q.to_spn());
            }
            p.play_unchecked(moves[rng.below(moves.len())]);
        }
        assert!(drafts > 500 && plays > 500, "{drafts} {plays}");
        let bad = crate::weights_file::unsealed(&d.to_text("")).replace("draft_net.hidden=32", "draft_net.hidden=0");
        let e = Learned::parse(&bad).unwrap_err().to_string();
        assert!(e.contains("draft_net.hidden:"), "{e}");
    }

    #[test]
    fn the_shipped_weights_load_and_are_not_zero() {
        let w = Learned::builtin();
        assert_ne!(w.play, [0.0; NP]);
        assert_ne!(w.draft, [0.0; ND]);
        assert_eq!(&Learned::parse(&w.to_text("round trip")).unwrap(), w);
        for t in [BUILTIN, SHIPPED_NET, SHIPPED_DRAFT] {
            assert!(crate::weights_file::entries(t).unwrap().checked, "the shipped files have their check line");
        }
    }

    /// A file cut short, with a row repeated, a number cut mid-way or
    /// beyond ±1e6 is refused at its line, with its check line or without.
    #[test]
    fn damaged_files_are_refused_at_their_line() {
        let sealed = SHIPPED_NET;
        let bare = crate::weights_file::unsealed(sealed);
        for text in [sealed, &bare[..]] {
            let lines: Vec<&str> = text.lines().collect();
            let cut = lines[..lines.len() - 40].join("\n") + "\n";
            let e = Learned::parse(&cut).unwrap_err().to_string();
            assert!(e.starts_with(&format!("line {}: ", lines.len() - 40)) && e.contains("cut short"), "{e}");
            let at = lines.iter().position(|l| l.starts_with("net.w1.7=")).unwrap();
            let mut twice = lines.clone();
            twice.insert(at + 1, lines[at]);
            let e = Learned::parse(&twice.join("\n")).unwrap_err().to_string();
            assert!(e.starts_with(&format!("line {}: `net.w1.7` given twice", at + 2)), "{e}");
            let mut edited = lines.clone();
            let mid = format!("{}e", &lines[at][..lines[at].len() - 3]);
            edited[at] = &mid;
            assert!(Learned::parse(&edited.join("\n")).unwrap_err().to_string().starts_with("line "));
        }
        let e = Learned::parse(&bare.replacen("play.pile=", "play.pile=2e6#", 1)).unwrap_err().to_string();
        assert!(e.contains("`2e6` is beyond ±1e6"), "{e}");
        let e = Learned::parse(&bare.replacen("net.b2=", "net.b2=-3e6 #", 1)).unwrap_err().to_string();
        assert!(e.contains("`-3e6` is beyond ±1e6"), "{e}");
    }

    #[test]
    fn features_change_sign_with_the_point_of_view() {
        let p: Position = sample::START.parse().unwrap();
        let (r, b) = (play_features(&p, Side::Red), play_features(&p, Side::Blue));
        for i in 0..NP {
            assert_eq!(r[i], -b[i], "play feature {}", PLAY_FEATURES[i]);
        }
        let w = Learned::builtin();
        assert!((w.value(&p, Side::Red) + w.value(&p, Side::Blue) - 1.0).abs() < 1e-12);
        let mut q = Position::start();
        for k in 0..9 {
            let (r, b) = (draft_features(&q, Side::Red), draft_features(&q, Side::Blue));
            for i in 0..ND {
                assert_eq!(r[i], -b[i], "draft feature {} after {k} moves", DRAFT_FEATURES[i]);
            }
            let m = q.legal_moves()[k % 3];
            q.play_unchecked(m);
        }
    }

    #[test]
    fn placement_logit_ranks_placements_as_logit_does() {
        let w = Learned::builtin();
        let mut q = Position::start();
        let mut rng = crate::policy::rng_from_seed(3);
        while !q.is_play() {
            if let Phase::Place(_) = q.phase() {
                let me = q.side_to_move();
                let mut offset = None;
                for m in q.legal_moves().iter() {
                    let mut c = q;
                    c.play_unchecked(*m);
                    if c.is_play() {
                        break;
                    }
                    let d = w.logit(&c, me) - w.placement_logit(&c, me);
                    let o = *offset.get_or_insert(d);
                    assert!((d - o).abs() < 1e-9, "placement {m:?}: {d} vs {o}");
                }
            }
            let n = q.count_moves();
            let m = senat_rules::movegen::nth_move(&q, crate::policy::below(&mut rng, n)).unwrap();
            q.play_unchecked(m);
        }
    }

    #[test]
    fn placements_left_add_up() {
        for placed in 0..=23 {
            let (r, b) = (left_to(Side::Red, placed, Side::Red), left_to(Side::Blue, placed, Side::Red));
            assert_eq!(r + b, f64::from(23 - placed));
            let red_odd = (placed + 1..=23).filter(|k| k % 2 == 1).count() as f64;
            assert_eq!(r, red_odd, "after {placed}");
        }
    }

    #[test]
    fn bad_files_are_refused_with_the_line() {
        let good = crate::weights_file::unsealed(&Learned::builtin().to_text(""));
        assert!(matches!(Learned::parse(""), Err(LearnedError::Missing(v)) if v.len() == NP + ND));
        let e = Learned::parse(&format!("{good}play.pile=1\n")).unwrap_err();
        assert!(e.to_string().contains("given twice"), "{e}");
        let e = Learned::parse(&good.replacen("play.pile=", "play.pile=nan#", 1)).unwrap_err();
        assert!(e.to_string().starts_with("line 1:"), "{e}");
        let e = Learned::parse(&format!("{good}play.nope=1\n")).unwrap_err();
        assert!(e.to_string().contains("unknown weight `play.nope`"), "{e}");
        let e = Learned::parse(&format!("{good}draft.pile\n")).unwrap_err();
        assert!(e.to_string().contains("not key=value"), "{e}");
    }
}
