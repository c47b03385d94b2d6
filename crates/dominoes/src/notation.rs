//! The texts: tiles ("6-4"), moves ("6-4>1", "+6-4", "6-4L", "pass"), the
//! full-state line and the observation line (NOTATION.md), with precise
//! errors.
//!
//! What it must never do: accept a text silently changed (every field is
//! checked, every accepted state is one the engine can play from).

#![allow(clippy::needless_range_loop)] // per-player arrays are indexed by player number

use crate::observation::Observation;
use crate::state::{End, Event, HIST, Move, NO_END, Phase, RoundEnd, RoundEndKind, State};
use crate::tile::{ALL, NUM, Tile, TileSet};
use crate::{Variant, VariantError};
use std::fmt;
use std::str::FromStr;

/// Why a text is not a legal move here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move text at all.
    Syntax {
        /// The text.
        text: String,
    },
    /// A well-formed move that is not legal (nor a chance outcome) here.
    Illegal {
        /// The move, as written back.
        text: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax { text } => {
                write!(f, "`{text}` is not a move (expected 6-4L, 6-4R, pass, +6-4 for a draw, 6-4>1 for a deal)")
            }
            MoveError::Illegal { text } => write!(f, "move `{text}` is not legal here"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a text is not a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateError {
    /// The wrong number of space-separated fields.
    FieldCount {
        /// How many were found.
        found: usize,
        /// How many are needed.
        expected: usize,
    },
    /// A field that does not read.
    BadField {
        /// The field's name.
        field: &'static str,
        /// The text.
        text: String,
        /// What it should look like.
        expected: &'static str,
    },
    /// The variant field.
    Variant(VariantError),
    /// History event `index` (0-based) cannot have happened.
    History {
        /// Its index.
        index: usize,
        /// Why.
        reason: &'static str,
    },
    /// The fields read but do not fit together.
    Inconsistent {
        /// Why.
        reason: &'static str,
    },
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::FieldCount { found, expected } => write!(f, "{found} fields, expected {expected}"),
            StateError::BadField { field, text, expected } => {
                write!(f, "field `{field}`: cannot read `{text}`, expected {expected}")
            }
            StateError::Variant(e) => write!(f, "{e}"),
            StateError::History { index, reason } => write!(f, "history event {index}: {reason}"),
            StateError::Inconsistent { reason } => write!(f, "inconsistent: {reason}"),
        }
    }
}

impl std::error::Error for StateError {}

/// Why a text is not an observation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObservationError {
    /// The observer field.
    Observer {
        /// The text.
        text: String,
    },
    /// The rest, read as a state with hidden parts.
    State(StateError),
}

impl fmt::Display for ObservationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObservationError::Observer { text } => {
                write!(f, "field `observer`: cannot read `{text}`, expected o0..o3, a player of the variant")
            }
            ObservationError::State(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ObservationError {}

impl FromStr for Tile {
    type Err = MoveError;
    /// "a-b" with a, b in 0..=6, either order.
    fn from_str(text: &str) -> Result<Tile, MoveError> {
        let b = text.as_bytes();
        if b.len() == 3 && b[1] == b'-' && (b'0'..=b'6').contains(&b[0]) && (b'0'..=b'6').contains(&b[2]) {
            return Ok(Tile::new(b[0] - b'0', b[2] - b'0').expect("digits 0..6"));
        }
        Err(MoveError::Syntax { text: text.into() })
    }
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if *self == End::Left { "L" } else { "R" })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Deal { tile, to } => write!(f, "{tile}>{to}"),
            Move::Draw { tile } => write!(f, "+{tile}"),
            Move::Play { tile, end } => write!(f, "{tile}{end}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Move {
    type Err = MoveError;
    /// The move text alone (not checked against a state).
    fn from_str(text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax { text: text.into() };
        if text == "pass" {
            return Ok(Move::Pass);
        }
        if let Some(rest) = text.strip_prefix('+') {
            return Ok(Move::Draw { tile: rest.parse().map_err(|_| syntax())? });
        }
        if let Some((t, to)) = text.split_once('>') {
            let to = match to {
                "0" => 0,
                "1" => 1,
                "2" => 2,
                "3" => 3,
                _ => return Err(syntax()),
            };
            return Ok(Move::Deal { tile: t.parse().map_err(|_| syntax())?, to });
        }
        if text.len() == 4 && text.is_char_boundary(3) {
            let end = match &text[3..] {
                "L" => End::Left,
                "R" => End::Right,
                _ => return Err(syntax()),
            };
            return Ok(Move::Play { tile: text[..3].parse().map_err(|_| syntax())?, end });
        }
        Err(syntax())
    }
}

impl State {
    /// Reads a move and checks it is legal here (a decision, or a chance outcome at a chance node).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m: Move = text.parse()?;
        self.check(m)?;
        Ok(m)
    }
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Deal => "deal",
        Phase::Play => "play",
        Phase::RoundOver => "roundover",
        Phase::MatchOver => "matchover",
    }
}

fn write_event(f: &mut fmt::Formatter<'_>, e: Event) -> fmt::Result {
    write!(f, "{}", e.player)?;
    if e.drawn > 0 {
        write!(f, "+{}", e.drawn)?;
    }
    match e.play {
        Some((t, end)) => write!(f, ":{t}{end}"),
        None => f.write_str(":pass"),
    }
}

fn write_last(f: &mut fmt::Formatter<'_>, last: Option<RoundEnd>, n: usize) -> fmt::Result {
    let Some(l) = last else { return f.write_str("-") };
    match l.kind {
        RoundEndKind::Domino { player } => write!(f, "d{player}")?,
        RoundEndKind::Block => f.write_str("b")?,
    }
    match l.winner {
        Some(w) => write!(f, "/w{w}")?,
        None => f.write_str("/w-")?,
    }
    write!(f, "/{}/", l.points)?;
    let pips: Vec<String> = l.pips[..n].iter().map(u32::to_string).collect();
    let tiles: Vec<String> = l.tiles[..n].iter().map(u8::to_string).collect();
    write!(f, "{}/{}", pips.join("."), tiles.join("."))
}

/// Writes the state line; `hide` gives, per player (and 4 = the stock), whether to write a count instead.
pub(crate) fn write_state(
    f: &mut fmt::Formatter<'_>,
    s: &State,
    known: [bool; 5],
    counts: [u8; 5],
    stopped: bool,
) -> fmt::Result {
    let n = s.players();
    let v = s.v.to_text();
    write!(f, "{} {} {} {}", if v.is_empty() { "-" } else { &v }, phase_name(s.phase), s.to_move, s.drawn)?;
    if stopped {
        f.write_str("!")?;
    }
    let scores: Vec<String> = s.scores[..n].iter().map(u32::to_string).collect();
    write!(f, " {} {} ", scores.join(","), s.rounds)?;
    for p in 0..n {
        if p > 0 {
            f.write_str("/")?;
        }
        if known[p] { write!(f, "{}", s.hands[p])? } else { write!(f, "?{}", counts[p])? }
    }
    if known[4] {
        write!(f, " {} ", s.stock)?
    } else {
        write!(f, " ?{} ", counts[4])?
    }
    if s.nhist == 0 {
        f.write_str("-")?;
    }
    for (i, e) in s.history().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write_event(f, e)?;
    }
    f.write_str(" ")?;
    write_last(f, s.last, n)
}

impl fmt::Display for State {
    /// `variant phase to_move drawn scores rounds hands boneyard history last`, see NOTATION.md.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_state(f, self, [true; 5], [0; 5], false)
    }
}

fn bad(field: &'static str, text: &str, expected: &'static str) -> StateError {
    StateError::BadField { field, text: text.into(), expected }
}

fn num<T: FromStr>(field: &'static str, text: &str, expected: &'static str) -> Result<T, StateError> {
    if text.starts_with('+') || (text.len() > 1 && text.starts_with('0')) {
        return Err(bad(field, text, expected));
    }
    text.parse().map_err(|_| bad(field, text, expected))
}

fn tileset(field: &'static str, text: &str) -> Result<TileSet, StateError> {
    const EXP: &str = "tiles like 1-0.6-4 in increasing order, or - for none";
    if text == "-" {
        return Ok(TileSet::EMPTY);
    }
    let mut s = TileSet::EMPTY;
    let mut prev: Option<Tile> = None;
    for part in text.split('.') {
        let t: Tile = part.parse().map_err(|_| bad(field, text, EXP))?;
        if t.to_string() != part || prev.is_some_and(|p| p >= t) {
            return Err(bad(field, text, EXP));
        }
        prev = Some(t);
        s.insert(t);
    }
    Ok(s)
}

/// A hand field: a set, or `?N` when hidden.
enum Part {
    Known(TileSet),
    Hidden(u8),
}

fn part(field: &'static str, text: &str) -> Result<Part, StateError> {
    match text.strip_prefix('?') {
        Some(n) => Ok(Part::Hidden(num(field, n, "?N with N a count of tiles, 0 to 28")?)).and_then(|p| match p {
            Part::Hidden(c) if c <= 28 => Ok(p),
            _ => Err(bad(field, text, "?N with N a count of tiles, 0 to 28")),
        }),
        None => Ok(Part::Known(tileset(field, text)?)),
    }
}

fn event(text: &str) -> Result<Event, StateError> {
    const EXP: &str = "events like 0:6-6L, 1+2:5-4R, 0+3:pass, separated by commas, or -";
    let e = || bad("history", text, EXP);
    let (who, what) = text.split_once(':').ok_or_else(e)?;
    let (p, d) = match who.split_once('+') {
        Some((p, d)) => (p, num::<u8>("history", d, EXP).map_err(|_| e())?),
        None => (who, 0),
    };
    if d == 0 && who.contains('+') || d > 28 {
        return Err(e());
    }
    let player = match p {
        "0" => 0,
        "1" => 1,
        "2" => 2,
        "3" => 3,
        _ => return Err(e()),
    };
    let play = match what.parse::<Move>() {
        Ok(Move::Pass) => None,
        Ok(Move::Play { tile, end }) if what == (Move::Play { tile, end }).to_string() => Some((tile, end)),
        _ => return Err(e()),
    };
    Ok(Event { player, drawn: d, play })
}

fn last(text: &str, n: usize) -> Result<Option<RoundEnd>, StateError> {
    const EXP: &str = "- or KIND/wW/POINTS/PIPS/TILES like d0/w0/23/0.23/0.4 or b/w-/0/7.7/2.2";
    if text == "-" {
        return Ok(None);
    }
    let e = || bad("last", text, EXP);
    let f: Vec<&str> = text.split('/').collect();
    if f.len() != 5 {
        return Err(e());
    }
    let player = |s: &str| match s {
        "0" => Ok(0u8),
        "1" => Ok(1),
        "2" => Ok(2),
        "3" => Ok(3),
        _ => Err(e()),
    };
    let kind = match f[0] {
        "b" => RoundEndKind::Block,
        k => RoundEndKind::Domino { player: player(k.strip_prefix('d').ok_or_else(e)?)? },
    };
    let winner = match f[1] {
        "w-" => None,
        w => Some(player(w.strip_prefix('w').ok_or_else(e)?)?),
    };
    let points: u32 = num("last", f[2], EXP).map_err(|_| e())?;
    let mut pips = [0u32; 4];
    let mut tiles = [0u8; 4];
    let ps: Vec<&str> = f[3].split('.').collect();
    let ts: Vec<&str> = f[4].split('.').collect();
    if ps.len() != n || ts.len() != n {
        return Err(e());
    }
    for p in 0..n {
        pips[p] = num("last", ps[p], EXP).map_err(|_| e())?;
        tiles[p] = num("last", ts[p], EXP).map_err(|_| e())?;
    }
    Ok(Some(RoundEnd { kind, winner, points, pips, tiles }))
}

/// What a state or observation line holds before its checks.
pub(crate) struct Raw {
    pub state: State,
    pub parts: [Option<u8>; 5],
    pub stopped: bool,
}

fn inconsistent(reason: &'static str) -> StateError {
    StateError::Inconsistent { reason }
}

/// Reads and checks a state line whose hands and stock may be hidden (`?N`).
pub(crate) fn parse_raw(text: &str) -> Result<Raw, StateError> {
    let f: Vec<&str> = text.split(' ').collect();
    if f.len() != 10 {
        return Err(StateError::FieldCount { found: f.len(), expected: 10 });
    }
    let v = if f[0] == "-" { Variant::default() } else { Variant::parse(f[0]).map_err(StateError::Variant)? };
    if f[0] != "-" && v.to_text() != f[0] {
        return Err(bad("variant", f[0], "the canonical variant text (non-default keys in HELP order), or -"));
    }
    let n = usize::from(v.players);
    let phase = match f[1] {
        "deal" => Phase::Deal,
        "play" => Phase::Play,
        "roundover" => Phase::RoundOver,
        "matchover" => Phase::MatchOver,
        _ => return Err(bad("phase", f[1], "deal, play, roundover or matchover")),
    };
    let to_move: u8 = num("to_move", f[2], "a player number")?;
    if usize::from(to_move) >= n {
        return Err(bad("to_move", f[2], "a player number"));
    }
    let (dtext, stopped) = match f[3].strip_suffix('!') {
        Some(d) => (d, true),
        None => (f[3], false),
    };
    let drawn: u8 =
        num("drawn", dtext, "tiles drawn this turn, 0 to 28, with ! when the drawer stopped (observations)")?;
    if drawn > 28 {
        return Err(bad("drawn", f[3], "tiles drawn this turn, 0 to 28"));
    }
    let sc: Vec<&str> = f[4].split(',').collect();
    if sc.len() != n {
        return Err(bad("scores", f[4], "one score per player, separated by commas"));
    }
    let mut scores = [0u32; 4];
    for p in 0..n {
        scores[p] = num("scores", sc[p], "one score per player, separated by commas")?;
        if scores[p] > 100_000_000 {
            return Err(bad("scores", f[4], "scores up to 100000000"));
        }
    }
    let rounds: u32 = num("rounds", f[5], "the number of rounds played")?;
    let hs: Vec<&str> = f[6].split('/').collect();
    if hs.len() != n {
        return Err(bad("hands", f[6], "one hand per player, separated by /"));
    }
    let mut hands = [TileSet::EMPTY; 4];
    let mut parts = [None; 5];
    for p in 0..n {
        match part("hands", hs[p])? {
            Part::Known(h) => hands[p] = h,
            Part::Hidden(c) => parts[p] = Some(c),
        }
    }
    let stock = match part("boneyard", f[7])? {
        Part::Known(h) => h,
        Part::Hidden(c) => {
            parts[4] = Some(c);
            TileSet::EMPTY
        }
    };
    let mut events = Vec::new();
    if f[8] != "-" {
        for e in f[8].split(',') {
            events.push(event(e)?);
        }
    }
    if events.len() > HIST {
        return Err(inconsistent("history longer than any round"));
    }
    let lastr = last(f[9], n)?;
    let mut s = State::start(v);
    s.hands = hands;
    s.stock = stock;
    s.phase = phase;
    s.to_move = to_move;
    s.drawn = drawn;
    s.scores = scores;
    s.rounds = rounds;
    s.last = lastr;
    // Replay the history: chain, ends, turn order, counts.
    let cnt = |s: &TileSet, i: usize| parts[i].map_or(s.len(), usize::from);
    let mut known = stock;
    for p in 0..n {
        if known.0 & hands[p].0 != 0 {
            return Err(inconsistent("a tile is in two hands, or in a hand and the boneyard"));
        }
        known = known.union(hands[p]);
    }
    let init_stock = 28 - n * usize::from(v.hand);
    let mut chain = TileSet::EMPTY;
    let mut ends = [NO_END; 2];
    let mut draws = [0usize; 4];
    let mut plays = [0usize; 4];
    let mut total_draws = 0;
    for (i, e) in events.iter().enumerate() {
        let he = |reason| StateError::History { index: i, reason };
        let p = usize::from(e.player);
        if p >= n {
            return Err(he("no such player"));
        }
        if i == 0 && v.openspiel && p != 0 {
            return Err(he("player 0 opens with rules=openspiel"));
        }
        if i > 0 && p != (usize::from(events[i - 1].player) + 1) % n {
            return Err(he("not the next player's turn"));
        }
        if v.openspiel && e.drawn > 0 {
            return Err(he("nobody draws with rules=openspiel"));
        }
        if i == 0 && e.drawn > 0 {
            return Err(he("the opener does not draw"));
        }
        total_draws += usize::from(e.drawn);
        draws[p] += usize::from(e.drawn);
        if total_draws > init_stock {
            return Err(he("more tiles drawn than the boneyard held"));
        }
        match e.play {
            None => {
                if i == 0 {
                    return Err(he("the round opens with a play"));
                }
                if !v.openspiel && total_draws < init_stock {
                    return Err(he("a pass with tiles left in the boneyard"));
                }
            }
            Some((t, end)) => {
                if chain.contains(t) || known.contains(t) {
                    return Err(he("a tile played twice, or played and still held"));
                }
                if ends[0] == NO_END {
                    if end != End::Left {
                        return Err(he("the first tile goes Left"));
                    }
                    ends = [t.ends().0, t.ends().1];
                } else {
                    let (l, r) = (ends[0], ends[1]);
                    match end {
                        End::Left if t.has(l) => ends[0] = t.other(l),
                        End::Right if t.has(r) && l != r => ends[1] = t.other(r),
                        _ => return Err(he("the tile does not fit that end")),
                    }
                }
                chain.insert(t);
                plays[p] += 1;
            }
        }
    }
    s.chain = chain;
    s.ends = ends;
    for e in &events {
        let x = e.pack();
        s.hist[usize::from(s.nhist)] = x;
        s.nhist += 1;
    }
    // Counts per player and the boneyard.
    if phase == Phase::Deal {
        if !events.is_empty() || drawn != 0 || to_move != 0 {
            return Err(inconsistent("nothing is played or drawn during the deal (to_move 0)"));
        }
        let dealt: usize = (0..n).map(|p| cnt(&hands[p], p)).sum();
        let h = usize::from(v.hand);
        for p in 0..n {
            if cnt(&hands[p], p) != dealt.saturating_sub(p * h).min(h) {
                return Err(inconsistent("the deal fills hands in turn, player 0's first"));
            }
        }
        if dealt == n * h {
            return Err(inconsistent("a complete deal is a play phase"));
        }
        if cnt(&stock, 4) != 28 - dealt {
            return Err(inconsistent("the tiles do not add up to 28"));
        }
    } else {
        if events.is_empty() && phase != Phase::Play {
            return Err(inconsistent("a finished round has a history"));
        }
        for p in 0..n {
            let want = usize::from(v.hand)
                + draws[p]
                + if p == usize::from(to_move) && phase == Phase::Play { usize::from(drawn) } else { 0 };
            if cnt(&hands[p], p) + plays[p] != want {
                return Err(inconsistent("a hand's size does not match the deal, the draws and the plays"));
            }
        }
        let all_draws = total_draws + usize::from(drawn);
        if all_draws > init_stock || cnt(&stock, 4) != init_stock - all_draws {
            return Err(inconsistent("the boneyard's size does not match the draws"));
        }
        if parts.iter().all(Option::is_none) && known.union(chain) != TileSet::ALL {
            return Err(inconsistent("the tiles do not add up to 28"));
        }
    }
    if phase != Phase::Play && drawn != 0 {
        return Err(inconsistent("draws this turn outside play"));
    }
    if v.openspiel && (drawn != 0 || rounds > 1) {
        return Err(inconsistent("rules=openspiel: no draws, one hand"));
    }
    let over = v.openspiel || rounds >= v.rounds || scores.iter().any(|&x| x >= v.target);
    match phase {
        Phase::Deal | Phase::Play if over && !(v.openspiel && rounds == 0) => {
            return Err(inconsistent("the match is over"));
        }
        Phase::RoundOver if over => return Err(inconsistent("the match is over: matchover")),
        Phase::MatchOver if !over => return Err(inconsistent("the match goes on: roundover")),
        _ => {}
    }
    if (rounds == 0) != lastr.is_none() {
        return Err(inconsistent("a last-round record exactly when a round was played"));
    }
    check_scores(&v, &scores[..n], rounds, lastr)?;
    let all_known = parts.iter().all(Option::is_none);
    match phase {
        Phase::Play => {
            let tm = usize::from(to_move);
            let expected = match events.last() {
                Some(e) => (usize::from(e.player) + 1) % n,
                None if v.openspiel => 0,
                None => match (0..n).find(|&p| {
                    parts[p].is_none()
                        && hands[p].best_opener() == TileSet(ALL & !stock.0).minus(chain).best_opener()
                        && all_known
                }) {
                    Some(p) => p,
                    None if all_known => return Err(inconsistent("the holder of the best tile opens")),
                    None => tm,
                },
            };
            if tm != expected {
                return Err(inconsistent("not that player's turn"));
            }
            if events.is_empty() && drawn != 0 {
                return Err(inconsistent("the opener does not draw"));
            }
            for p in 0..n {
                if cnt(&hands[p], p) == 0 {
                    return Err(inconsistent("an empty hand ends the round"));
                }
            }
            if all_known && !events.is_empty() {
                let mask = NUM[usize::from(ends[0])] | NUM[usize::from(ends[1])];
                let can = |p: usize| hands[p].0 & mask != 0;
                if (v.openspiel || stock.is_empty()) && drawn == 0 && !(0..n).any(can) {
                    return Err(inconsistent("nobody can play: the round is blocked"));
                }
                if v.openspiel && !can(tm) {
                    return Err(inconsistent("a blocked player is skipped"));
                }
                if drawn > 0
                    && hands[tm].0 & mask != 0
                    && hands[tm].0 & mask & (hands[tm].0 & mask).wrapping_sub(1) != 0
                {
                    return Err(inconsistent("a drawer holds one playable tile, the last drawn"));
                }
            }
        }
        Phase::RoundOver | Phase::MatchOver if all_known => {
            let mut t = s;
            t.phase = Phase::Play;
            let kind = match lastr {
                Some(RoundEnd { kind, .. }) => kind,
                None => return Err(inconsistent("a finished round has a record")),
            };
            if let RoundEndKind::Domino { player } = kind
                && (usize::from(player) >= n || !hands[usize::from(player)].is_empty())
            {
                return Err(inconsistent("the domino player's hand is empty"));
            }
            t.scores = [0; 4];
            t.rounds = 0;
            let rec = t.round_record(kind);
            if Some(rec) != lastr {
                return Err(inconsistent("the last-round record does not match the hands"));
            }
            if kind == RoundEndKind::Block {
                let mask = NUM[usize::from(ends[0])] | NUM[usize::from(ends[1])];
                if !stock.is_empty() && !v.openspiel || (0..n).any(|p| hands[p].0 & mask != 0) {
                    return Err(inconsistent("a blocked round has nobody able to play"));
                }
            } else if events.last().and_then(|e| e.play).is_none() {
                return Err(inconsistent("a domino ends on a play"));
            }
        }
        _ => {}
    }
    s.z = s.recompute_z();
    Ok(Raw { state: s, parts, stopped })
}

/// The scores against the rounds played and the last round's record
/// (GAMES.md §2.6: a round adds its points to its winner's score alone,
/// and the match ends after the round that brings a score to the target
/// or plays the last round):
///
/// - no round played, no points;
/// - the last round's winner holds at least its points; after one round,
///   the scores are exactly that round's;
/// - the match was still going on before its last round: without the last
///   round's points and that round, no score at the target and rounds left.
fn check_scores(v: &Variant, scores: &[u32], rounds: u32, last: Option<RoundEnd>) -> Result<(), StateError> {
    let Some(rec) = last else {
        if scores.iter().any(|&s| s != 0) {
            return Err(inconsistent("scores without a round played"));
        }
        return Ok(());
    };
    let mut before = scores.to_vec();
    if let Some(w) = rec.winner {
        let w = usize::from(w);
        if w >= scores.len() || scores[w] < rec.points {
            return Err(inconsistent("the scores are below the last round's points"));
        }
        before[w] -= rec.points;
    }
    if rounds == 1 && before.iter().any(|&s| s != 0) {
        return Err(inconsistent("after one round the scores are that round's points alone"));
    }
    if !v.openspiel && (rounds > v.rounds || before.iter().any(|&s| s >= v.target)) {
        return Err(inconsistent("the match was over before the last round"));
    }
    Ok(())
}

impl FromStr for State {
    type Err = StateError;
    fn from_str(text: &str) -> Result<State, StateError> {
        let raw = parse_raw(text)?;
        if raw.parts.iter().any(Option::is_some) {
            return Err(inconsistent("a state shows every hand and the boneyard (?N is for observations)"));
        }
        if raw.stopped {
            return Err(bad(
                "drawn",
                text.split(' ').nth(3).unwrap_or(""),
                "a count without ! (! is for observations)",
            ));
        }
        Ok(raw.state)
    }
}

impl fmt::Display for Observation {
    /// `oP` then the state line with the hidden hands and the boneyard as `?N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "o{} ", self.observer)?;
        let mut known = [false; 5];
        known[usize::from(self.observer)] = true;
        if self.revealed {
            known = [true, true, true, true, false];
        }
        write_state(f, &self.s, known, self.counts, self.stopped)
    }
}

impl FromStr for Observation {
    type Err = ObservationError;
    fn from_str(text: &str) -> Result<Observation, ObservationError> {
        let (o, rest) = text.split_once(' ').unwrap_or((text, ""));
        let bad_o = || ObservationError::Observer { text: o.into() };
        let observer = match o {
            "o0" => 0u8,
            "o1" => 1,
            "o2" => 2,
            "o3" => 3,
            _ => return Err(bad_o()),
        };
        let raw = parse_raw(rest).map_err(ObservationError::State)?;
        let mut s = raw.state;
        s.z = 0;
        let n = s.players();
        let st = |r| ObservationError::State(inconsistent(r));
        if usize::from(observer) >= n {
            return Err(bad_o());
        }
        let revealed = s.round_over();
        for p in 0..n {
            let hidden = raw.parts[p].is_some();
            if hidden == (p == usize::from(observer) || revealed) {
                return Err(st("the observer's hand is shown, the others' are ?N (all shown once the round is over)"));
            }
        }
        if raw.parts[4].is_none() {
            return Err(st("the boneyard is ?N in an observation"));
        }
        let stopped_ok = s.phase == Phase::Play && s.drawn > 0;
        if raw.stopped && !stopped_ok {
            return Err(st("! only after draws in this turn"));
        }
        let mut counts = [0u8; 5];
        for p in 0..n {
            counts[p] = raw.parts[p].unwrap_or(s.hands[p].len() as u8);
        }
        counts[4] = raw.parts[4].unwrap_or(0);
        let total: usize = counts.iter().map(|&c| usize::from(c)).sum::<usize>() + s.chain.len();
        if total != 28 {
            return Err(st("the tiles do not add up to 28"));
        }
        let obs = Observation { observer, s, counts, stopped: raw.stopped, revealed };
        if s.phase == Phase::Play && s.drawn > 0 && usize::from(observer) == usize::from(s.to_move) {
            let mask = s.play_mask();
            let can = s.hands[usize::from(observer)].0 & mask != 0;
            if raw.stopped != (can || counts[4] == 0) {
                return Err(st("the drawer stops exactly when he can play or the boneyard is empty"));
            }
        }
        Ok(obs)
    }
}
