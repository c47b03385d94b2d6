//! An independent checker of Débâcle position texts, written from GAMES.md §3 and NOTATION.md
//! without the crate: it reads the text itself and decides whether a match played from the start
//! can be consistent with it, by the rules' invariants:
//!
//! - dice are never created or destroyed: a side's dice on the board plus those the opponent
//!   holds are 6; a die that reaches the enemy home row goes home at once;
//! - South starts round 1, and the starter alternates; within a round the sides alternate;
//! - the quiet turns are among the completed turns; a held die was captured in this round, by a
//!   turn that reset the quiet counter or by the turn in progress (its `+`);
//! - the `+` starts clear at each turn; a flip never captures; a rebond follows a capture; a
//!   capture puts a die in the mover's pile, which only his opponent's recovery empties;
//! - a round ends at the fifth capture (mid-turn) or at a safeguard (end of a turn), and scores 5
//!   dice of at most 6 for the capturer and at most 4 dice for the other (`scoring=both`), or 5
//!   to 30 for the capturer only (`scoring=winner`); the match ends as GAMES.md §3.3 says;
//! - a turn is at least two decisions, a round at least one; only a capture makes more (its
//!   rebond, a recovery of the die), so round 1 before its first capture has exactly two a turn.
//!
//! What it must never do: call the crate (its parser or its validation), so that agreement is
//! evidence and not a tautology.

#![allow(dead_code)]

/// The checker's variant: the fields the checks need.
#[derive(Clone, Copy, Debug)]
struct Rules {
    winner_only: bool,
    target: u64,
    quiet: u64,
    turns: u64,
    rounds: u64,
}

fn rules(text: &str) -> Result<Rules, String> {
    let mut r = Rules { winner_only: false, target: 30, quiet: 100, turns: 1000, rounds: 30 };
    if text == "-" {
        return Ok(r);
    }
    for item in text.split(',') {
        let (k, v) = item.split_once('=').ok_or(format!("variant item {item}"))?;
        let n = || v.parse::<u64>().map_err(|_| format!("variant value {item}"));
        match k {
            "scoring" => r.winner_only = v == "winner",
            "target" => r.target = n()?,
            "quiet" => r.quiet = n()?,
            "turns" => r.turns = n()?,
            "rounds" => r.rounds = n()?,
            "recovery_resets" | "relocate_on_end" | "faces" => {}
            _ => return Err(format!("variant key {k}")),
        }
    }
    Ok(r)
}

/// A die: (side, value); side 0 South (home rank 1), 1 North (home rank 6).
type Cell = Option<(usize, u8)>;

fn square(t: &str) -> Option<usize> {
    let b = t.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].to_ascii_lowercase();
    ((b'a'..=b'f').contains(&f) && (b'1'..=b'6').contains(&b[1]))
        .then(|| (b[1] - b'1') as usize * 6 + (f - b'a') as usize)
}

fn digits<T: std::str::FromStr>(t: &str, prefix: &str) -> Result<T, String> {
    let d = t.strip_prefix(prefix).ok_or(format!("field {t}"))?;
    if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("field {t}"));
    }
    d.parse().map_err(|_| format!("field {t}"))
}

fn side(t: &str) -> Result<usize, String> {
    match t {
        "s" => Ok(0),
        "n" => Ok(1),
        _ => Err(format!("side {t}")),
    }
}

/// The phase: `(regular actions done, flipped square, rebond square, recovery)`.
#[derive(Clone, Copy, PartialEq)]
enum Phase {
    First,
    Second(Option<usize>),
    Rebond(usize, u64),
    Recovery,
}

/// Whether scores can come from `rounds` scored rounds.
fn reachable(a: u64, b: u64, rounds: u64, winner_only: bool) -> bool {
    if winner_only {
        // A round won adds 5..30, so a score s needs at least ceil(s / 30) rounds won, and
        // cannot be 1..4.
        let won = |s: u64| s.div_ceil(30);
        a != 1 && a != 2 && a != 3 && a != 4 && !(1..5).contains(&b) && won(a) + won(b) <= rounds
    } else {
        // The capturer adds at most 5 × 6, the other at most 4 × 6 (and a safeguard round at most
        // 24 each).
        a <= 30 * rounds && b <= 30 * rounds && a + b <= 54 * rounds
    }
}

/// Accepted (`Ok`) or refused (`Err`, with the reason) by the rules' invariants.
pub fn verdict(text: &str) -> Result<(), String> {
    let f: Vec<&str> = text.split_whitespace().collect();
    if f.len() != 12 {
        return Err("field count".into());
    }
    let r = rules(f[11])?;
    // Board, rank 6 first.
    let ranks: Vec<&str> = f[0].split('/').collect();
    if ranks.len() != 6 {
        return Err("ranks".into());
    }
    let mut board: [Cell; 36] = [None; 36];
    for (i, t) in ranks.iter().enumerate() {
        let rank = 5 - i;
        let b = t.as_bytes();
        let (mut j, mut file) = (0, 0);
        while j < b.len() {
            if file == 6 {
                return Err("rank too long".into());
            }
            if b[j] == b'.' {
                j += 1;
            } else if (b[j] == b'S' || b[j] == b'N') && j + 1 < b.len() && (b'1'..=b'6').contains(&b[j + 1]) {
                board[rank * 6 + file] = Some((usize::from(b[j] == b'N'), b[j + 1] - b'0'));
                j += 2;
            } else {
                return Err("cell".into());
            }
            file += 1;
        }
        if file != 6 {
            return Err("rank too short".into());
        }
    }
    let me = side(f[1])?;
    let phase = match f[2] {
        "1" => Phase::First,
        "2" => Phase::Second(None),
        "rec" => Phase::Recovery,
        t if t.starts_with("2-") => Phase::Second(Some(square(&t[2..]).ok_or("phase square")?)),
        t if t.starts_with("r1") || t.starts_with("r2") => {
            Phase::Rebond(square(&t[2..]).ok_or("phase square")?, if t.starts_with("r1") { 1 } else { 2 })
        }
        _ => return Err("phase".into()),
    };
    // piles[h]: the values of the dice side h holds (its opponent's).
    let (pa, pb) = f[3].split_once('/').ok_or("piles")?;
    let mut piles: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
    for (h, t) in [pa, pb].into_iter().enumerate() {
        if t == "-" {
            continue;
        }
        if t.is_empty() || t.len() > 6 || !t.bytes().all(|c| (b'1'..=b'6').contains(&c)) {
            return Err("piles".into());
        }
        piles[h] = t.bytes().map(|c| (c - b'0') as u64).collect();
    }
    let (sa, sb) = f[4].split_once('-').ok_or("scores")?;
    let (a, b): (u64, u64) = (digits::<u32>(sa, "")? as u64, digits::<u32>(sb, "")? as u64);
    let round = digits::<u16>(f[5], "r")? as u64;
    let starter = side(f[6])?;
    let turns = digits::<u16>(f[7], "t")? as u64;
    let (q, plus) = match f[8].strip_suffix('+') {
        Some(q) => (q, true),
        None => (f[8], false),
    };
    let quiet = digits::<u16>(q, "q")? as u64;
    let ply = digits::<u32>(f[9], "p")? as u64;
    let result = match f[10] {
        "-" => None,
        "s" => Some(Some(0)),
        "n" => Some(Some(1)),
        "=" => Some(None),
        _ => return Err("result".into()),
    };
    if round == 0 {
        return Err("round 0".into());
    }

    // Dice.
    let held = |h: usize| piles[h].len();
    for s in 0..2 {
        let on_board = board.iter().filter(|c| c.is_some_and(|(o, _)| o == s)).count();
        if on_board + held(1 - s) != 6 {
            return Err(format!("side {s}: the dice do not add up to 6"));
        }
    }
    for (sq, c) in board.iter().enumerate() {
        if let Some((o, _)) = c {
            let enemy_home = if *o == 0 { 5 } else { 0 };
            if sq / 6 == enemy_home {
                return Err("a die on its enemy home row".into());
            }
        }
    }
    // Round and turn order.
    if starter != ((round - 1) % 2) as usize {
        return Err("the starter alternates from South".into());
    }
    if quiet > turns {
        return Err("more quiet turns than turns".into());
    }
    let mine = |sq: usize| board[sq].is_some_and(|(o, _)| o == me);
    let sums = [piles[0].iter().sum::<u64>(), piles[1].iter().sum::<u64>()];
    match result {
        None => {
            if held(0) >= 5 || held(1) >= 5 {
                return Err("a pile of 5 in a running round".into());
            }
            if round > r.rounds || turns >= r.turns || quiet >= r.quiet {
                return Err("a counter at its limit in a running round".into());
            }
            if (a >= r.target || b >= r.target) && a != b {
                return Err("scores that end the match".into());
            }
            if me != starter ^ (turns % 2) as usize {
                return Err("side to move".into());
            }
            if held(0) + held(1) > 0 && quiet == turns && !plus {
                return Err("a held die no turn counted".into());
            }
            let plus_ok = match phase {
                Phase::First | Phase::Second(Some(_)) => !plus,
                Phase::Rebond(..) => plus,
                _ => true,
            };
            if !plus_ok || (plus && held(me) == 0) {
                return Err("the + mark".into());
            }
            match phase {
                Phase::Rebond(sq, _) | Phase::Second(Some(sq)) if !mine(sq) => {
                    return Err("the phase's die is not the mover's".into());
                }
                Phase::Recovery => {
                    let values: Vec<u8> =
                        board.iter().filter_map(|c| c.filter(|&(o, _)| o == me)).map(|(_, v)| v).collect();
                    if held(1 - me) == 0 || values.iter().any(|&v| v != values[0]) {
                        return Err("a recovery not offered".into());
                    }
                }
                _ => {}
            }
            if !reachable(a, b, round - 1, r.winner_only) {
                return Err("scores for the rounds".into());
            }
            let now = match phase {
                Phase::First => 0,
                Phase::Second(_) => 1,
                Phase::Rebond(_, after) => after,
                Phase::Recovery => 2,
            };
            if ply < (round - 1) + 2 * turns + now {
                return Err("too few plies".into());
            }
            if round == 1 && quiet == turns && !plus && ply != 2 * turns + now {
                return Err("plies that no capture explains".into());
            }
        }
        Some(winner) => {
            if phase != Phase::First || plus {
                return Err("a finished match's phase".into());
            }
            if held(1 - me) >= 5 {
                return Err("the fifth capture was not the mover's".into());
            }
            let five = held(me) == 5;
            // The result the end of the round gives.
            let higher = if a > b {
                Some(Some(0))
            } else if b > a {
                Some(Some(1))
            } else {
                None
            };
            let mut expected =
                if a >= r.target || b >= r.target { higher.or(if five { Some(Some(me)) } else { None }) } else { None };
            if expected.is_none() && round >= r.rounds {
                expected = Some(higher.unwrap_or(None));
            }
            if expected != Some(winner) {
                return Err("the result does not follow".into());
            }
            if round > r.rounds {
                return Err("round past the limit".into());
            }
            if five {
                if turns >= r.turns || quiet >= r.quiet {
                    return Err("a counter at its limit before the fifth capture".into());
                }
                if me != starter ^ (turns % 2) as usize {
                    return Err("side to move".into());
                }
                if ply < (round - 1) + 2 * turns + 1 {
                    return Err("too few plies".into());
                }
            } else {
                if turns > r.turns || quiet > r.quiet || (turns < r.turns && quiet < r.quiet) {
                    return Err("no safeguard ended the round".into());
                }
                if me != starter ^ ((turns - 1) % 2) as usize {
                    return Err("side to move".into());
                }
                if held(0) + held(1) > 0 && quiet == turns {
                    return Err("a held die no turn counted".into());
                }
                if ply < (round - 1) + 2 * turns {
                    return Err("too few plies".into());
                }
                if round == 1 && quiet == turns && ply != 2 * turns {
                    return Err("plies that no capture explains".into());
                }
            }
            let added = |h: usize| if !r.winner_only || (five && h == me) { sums[h] } else { 0 };
            let (Some(a0), Some(b0)) = (a.checked_sub(added(0)), b.checked_sub(added(1))) else {
                return Err("a score below the last round's pile".into());
            };
            if !reachable(a0, b0, round - 1, r.winner_only) {
                return Err("scores for the rounds".into());
            }
        }
    }
    Ok(())
}
