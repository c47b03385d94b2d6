//! An independent checker of Focus position texts, written from GAMES.md §1 and NOTATION.md
//! without the crate: it reads the text itself and decides whether a game played from the start
//! can be consistent with it, by the rules' invariants:
//!
//! - the side to move is the ply's (every decision passes the turn: 0 1 0 1 …, or 0 1 2 3 / 0 3 2 1);
//! - a decision empties at most one square and always fills its destination, so the stacks at
//!   the start (all single pieces) minus the stacks now is at most the ply;
//! - a decision changes at most two squares, so the squares that differ from the start are at
//!   most twice the ply;
//! - after a move the mover tops a stack (2 players); 4 players: the mover's team can play, and a
//!   mover who cannot play (he passed) passed in a game still going on;
//! - only an overflow takes pieces off the board, leaving a stack of 5, so 5 pieces at least stay;
//! - the start board comes back only once some player has moved twice (a move leaves its mover
//!   on top, and only a later move from that square can clear it): not after 1 to `players` moves;
//! - the swap phase of `fix=swap` (P0's swap, P1's swap that may not leave the board symmetric);
//! - and the plain limits: 5 pieces a stack, 18 or 13 pieces a player, the ply cap.
//!
//! What it must never do: call the crate (its parser or its validation), so that agreement is
//! evidence and not a tautology.

#![allow(dead_code)]

/// The 2-player start, ranks 8 down to 1, files a..h (`#` removed, `.` empty), GAMES.md §1.3.
const START_2P: [&str; 8] =
    ["##....##", "#001100#", ".110011.", ".001100.", ".110011.", ".001100.", "#110011#", "##....##"];

/// The 4-player start, GAMES.md §1.3.
const START_4P: [&str; 8] =
    ["##1132##", "#222323#", "11113232", "22223232", "01010000", "01013333", "#101000#", "##0133##"];

/// Stacks by `[rank][file]` (rank 0 = rank 1), bottom first; `None` for a removed corner.
type Board = [[Option<Vec<u8>>; 8]; 8];

fn start_board(players: usize) -> Board {
    let rows = if players == 4 { START_4P } else { START_2P };
    let mut b: Board = Default::default();
    for (i, row) in rows.iter().enumerate() {
        let r = 7 - i;
        for (f, ch) in row.bytes().enumerate() {
            b[r][f] = match ch {
                b'#' => None,
                b'.' => Some(Vec::new()),
                d => Some(vec![d - b'0']),
            };
        }
    }
    b
}

/// The checker's variant: the fields the checks need.
#[derive(Clone, Copy, Debug)]
struct Rules {
    players: usize,
    fix: &'static str,
    cap: u64,
    ccw: bool,
}

fn rules(text: &str) -> Result<Rules, String> {
    let mut r = Rules { players: 2, fix: "none", cap: 0, ccw: false };
    let mut cap = None;
    if text != "-" {
        for part in text.split(',') {
            let (k, v) = part.split_once('=').ok_or(format!("variant part {part}"))?;
            match (k, v) {
                ("players", "4") => r.players = 4,
                ("fix", "draw") => r.fix = "draw",
                ("fix", "swap") => r.fix = "swap",
                ("cap", n) => cap = Some(n.parse::<u64>().map_err(|_| format!("cap {n}"))?),
                ("order", "ccw") => r.ccw = true,
                _ => return Err(format!("variant {part}")),
            }
        }
    }
    r.cap = cap.unwrap_or(if r.players == 4 { 2000 } else { 1000 });
    Ok(r)
}

/// A number as NOTATION.md writes it: decimal digits, no leading zero, at most `max`.
fn number(text: &str, max: u64) -> Option<u64> {
    let ok = !text.is_empty()
        && text.len() <= 10
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    let n: u64 = if ok { text.parse().ok()? } else { return None };
    (n <= max).then_some(n)
}

fn labelled(text: &str, label: &str, max: u64) -> Result<u64, String> {
    text.strip_prefix(label).and_then(|t| number(t, max)).ok_or(format!("field {text}"))
}

fn swapped_colours(s: &[u8]) -> Vec<u8> {
    s.iter().map(|&p| 1 - p).collect()
}

/// Whether a 2-player board is unchanged by the 180° rotation or by the reflection in the
/// horizontal mid-line, each with the colours swapped (GAMES.md §1.8).
fn symmetric(b: &Board) -> bool {
    let same = |map: &dyn Fn(usize, usize) -> (usize, usize)| {
        (0..8).all(|r| {
            (0..8).all(|f| {
                let (mr, mf) = map(r, f);
                match (&b[r][f], &b[mr][mf]) {
                    (Some(x), Some(y)) => *y == swapped_colours(x),
                    _ => true,
                }
            })
        })
    };
    same(&|r, f| (7 - r, 7 - f)) || same(&|r, f| (7 - r, f))
}

/// The player who moves at `ply` (from player 0 at ply 0).
fn player_at(r: &Rules, ply: u64) -> usize {
    let order: &[usize] = match (r.players, r.ccw) {
        (2, _) => &[0, 1],
        (_, false) => &[0, 1, 2, 3],
        (_, true) => &[0, 3, 2, 1],
    };
    order[(ply % order.len() as u64) as usize]
}

/// Accepted (`Ok`) or refused (`Err`, with the reason) by the rules' invariants.
pub fn verdict(text: &str) -> Result<(), String> {
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() < 2 || fields[0] != "focus" {
        return Err("tag".into());
    }
    let r = rules(fields[1])?;
    let total = if r.players == 4 { 13u64 } else { 18 };
    let swap = r.fix == "swap";
    if fields.len() != if swap { 7 } else { 6 } {
        return Err("field count".into());
    }
    // Board.
    let start = start_board(r.players);
    let mut b: Board = Default::default();
    let ranks: Vec<&str> = fields[2].split('/').collect();
    if ranks.len() != 8 {
        return Err("ranks".into());
    }
    let mut count = [0u64; 4];
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let files: Vec<usize> = (0..8).filter(|&f| start[rank][f].is_some()).collect();
        let cells: Vec<&str> = text.split(',').collect();
        if cells.len() != files.len() {
            return Err(format!("rank {} squares", rank + 1));
        }
        for (&f, cell) in files.iter().zip(cells) {
            let mut stack = Vec::new();
            if cell != "." {
                if cell.is_empty() || !cell.bytes().all(|c| c.is_ascii_digit()) {
                    return Err(format!("cell {cell}"));
                }
                if cell.len() > 5 {
                    return Err("stack over 5".into());
                }
                for c in cell.bytes() {
                    let p = (c - b'0') as usize;
                    if p >= r.players {
                        return Err(format!("no player {p}"));
                    }
                    count[p] += 1;
                    stack.push(p as u8);
                }
            }
            b[rank][f] = Some(stack);
        }
    }
    // Reserves, turn, ply, swaps.
    let res: Vec<&str> = fields[3].strip_prefix("res=").ok_or("res")?.split('/').collect();
    if res.len() != r.players {
        return Err("reserve count".into());
    }
    let mut reserve = [0u64; 4];
    for (p, t) in res.iter().enumerate() {
        reserve[p] = number(t, total).ok_or("reserve number")?;
    }
    for p in 0..r.players {
        if count[p] + reserve[p] > total {
            return Err(format!("player {p} has too many pieces"));
        }
    }
    let turn = labelled(fields[4], "turn=", 9)? as usize;
    if turn >= r.players {
        return Err("turn is not a player".into());
    }
    let ply = labelled(fields[5], "ply=", u32::MAX as u64)?;
    if ply > r.cap {
        return Err("ply over the cap".into());
    }
    let occupied = |x: &Board, rank: usize, f: usize| x[rank][f].as_ref().is_some_and(|s| !s.is_empty());
    let squares: Vec<(usize, usize)> =
        (0..8).flat_map(|rank| (0..8).map(move |f| (rank, f))).filter(|&(rank, f)| start[rank][f].is_some()).collect();
    let changed = squares.iter().filter(|&&(rank, f)| b[rank][f] != start[rank][f]).count() as u64;
    let singles_on_start = squares.iter().all(|&(rank, f)| {
        occupied(&b, rank, f) == occupied(&start, rank, f) && b[rank][f].as_ref().is_some_and(|s| s.len() <= 1)
    });
    let no_reserve = reserve.iter().all(|&n| n == 0);
    if swap {
        let swaps = labelled(fields[6], "swaps=", 2)?;
        match swaps {
            0 | 1 if ply != swaps || turn as u64 != swaps => return Err("swap phase: ply and turn".into()),
            0 | 1 if !no_reserve || !singles_on_start => return Err("swap phase: start pieces".into()),
            0 if changed != 0 => return Err("swap phase: no swap yet".into()),
            1 if changed != 2 => return Err("swap phase: one swap".into()),
            2 if ply < 2 => return Err("swap phase: two swaps need 2 plies".into()),
            2 if ply == 2 && (!no_reserve || !singles_on_start || symmetric(&b)) => {
                return Err("swap phase: the board after both swaps".into());
            }
            _ => {}
        }
    }
    // The history: turn, stacks lost, squares changed, the mover.
    if turn != player_at(&r, ply) {
        return Err("turn does not fit the ply".into());
    }
    let stacks = |x: &Board| squares.iter().filter(|&&(rank, f)| occupied(x, rank, f)).count() as u64;
    if stacks(&start).saturating_sub(stacks(&b)) > ply {
        return Err("more stacks lost than plies".into());
    }
    if changed > 2 * ply {
        return Err("more squares changed than two per ply".into());
    }
    let on_board: u64 = squares.iter().map(|&(rank, f)| b[rank][f].as_ref().map_or(0, |s| s.len() as u64)).sum();
    if on_board < 5 {
        return Err("fewer than 5 pieces on the board".into());
    }
    let swaps_done = if swap { labelled(fields[6], "swaps=", 2)? } else { 0 };
    let moves = ply - swaps_done.min(ply);
    if changed == 0 && moves >= 1 && moves <= r.players as u64 {
        return Err("the start board before anyone moved twice".into());
    }
    if ply > 0 {
        let mover = player_at(&r, ply - 1);
        let tops = |p: usize| {
            squares.iter().filter(|&&(rank, f)| b[rank][f].as_ref().and_then(|s| s.last()) == Some(&(p as u8))).count()
        };
        let can_play = |p: usize| tops(p) > 0 || reserve[p] > 0;
        if r.players == 2 {
            if tops(mover) == 0 {
                return Err("the mover tops no stack".into());
            }
        } else {
            let alive = |team: usize| can_play(team) || can_play(team + 2);
            if !alive(mover % 2) {
                return Err("the mover's team cannot play".into());
            }
            if !can_play(mover) && !alive(1 - mover % 2) {
                return Err("a pass in a game already over".into());
            }
        }
    }
    Ok(())
}
