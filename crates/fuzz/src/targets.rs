//! The fuzz targets, one per text senat reads, and the "legal moves are
//! legal" target. Each takes arbitrary bytes, returns quietly on input the
//! code rejects, and panics (through `assert!`) when a property breaks.
//!
//! What a target must never do: accept a failure of the code under test
//! silently, or touch files outside its own temporary folder (the policy
//! target skips `file=`, which would read any path; the weights and merge
//! targets write to `senat-fuzz-<pid>` under `$SENAT_FUZZ_TMP`, `/dev/shm`
//! or the system temporary folder).

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::OnceLock;

use senat_lab::policy::PolicySpec;
use senat_lab::rating::{Pentanomial, Sprt};
use senat_lab::selfplay::{self, Shard, identity};
use senat_rules::movegen::{nth_draft_move, nth_move, nth_play_move};
use senat_rules::notation::{parse_move_text, parse_setup};
use senat_rules::{GameRecord, Move, Phase, Position, Record, RecordError, Setup, sample};

use crate::engine::{Rng, Target};

/// Every target, in the order of a full run.
pub const TARGETS: &[Target] = &[
    Target {
        name: "spn",
        about: "SPN: parse, validate, write, parse again; movegen on the position",
        run: spn,
        dict: SPN_DICT,
        generate: gen_spn,
        max_len: 400,
    },
    Target {
        name: "move_text",
        about: "move text: parse, write, parse; legality agrees with the move list",
        run: move_text,
        dict: MOVE_DICT,
        generate: gen_move,
        max_len: 64,
    },
    Target {
        name: "record",
        about: "game records as `senat replay` reads them; written back, they replay the same",
        run: record,
        dict: RECORD_DICT,
        generate: gen_record,
        max_len: 4000,
    },
    Target {
        name: "legal",
        about: "from start or sample, byte-driven moves: every generated move is legal, hashes agree",
        run: legal,
        dict: &[],
        generate: gen_bytes,
        max_len: 600,
    },
    Target {
        name: "senat_variant",
        about: "Sénat `--variant` text (first line), then byte-driven moves from its start: thresholds and turns hold",
        run: senat_variant,
        dict: VARIANT_DICT,
        generate: gen_senat_variant,
        max_len: 500,
    },
    Target {
        name: "policy",
        about: "policy and agent specs: parse, Display, parse again",
        run: policy,
        dict: POLICY_DICT,
        generate: gen_policy,
        max_len: 200,
    },
    Target {
        name: "weights",
        about: "heuristic weights files (`heuristic:file=`): bounded weights, same as flags",
        run: weights,
        dict: WEIGHTS_DICT,
        generate: gen_weights,
        max_len: 600,
    },
    Target {
        name: "shard",
        about: "`--shard K/N`: bounds, write and parse again, contiguous ranges",
        run: shard,
        dict: &["/", "0", "1", "18446744073709551615", " "],
        generate: gen_shard,
        max_len: 60,
    },
    Target {
        name: "sprt",
        about: "SPRT specs: bounds, LLR, decisions",
        run: sprt,
        dict: SPRT_DICT,
        generate: gen_sprt,
        max_len: 200,
    },
    Target {
        name: "identity",
        about: "games-file identity lines: parse, write, parse again",
        run: identity_line,
        dict: IDENTITY_DICT,
        generate: gen_identity,
        max_len: 800,
    },
    Target {
        name: "games_csv",
        about: "games-file rows as merge and resume check them (parse_game_row, check_row)",
        run: games_csv,
        dict: CSV_DICT,
        generate: gen_games,
        max_len: 6000,
    },
    Target {
        name: "merge",
        about: "`senat merge` on one games file: merging its output again gives the same bytes",
        run: merge,
        dict: CSV_DICT,
        generate: gen_games,
        max_len: 6000,
    },
    Target {
        name: "game_agent",
        about: "agent specs of --game focus/debacle: parse, Display, parse again",
        run: game_agent,
        dict: GAME_AGENT_DICT,
        generate: gen_game_agent,
        max_len: 120,
    },
    Target {
        name: "game_weights",
        about: "learned weights files of Focus, Débâcle and dominoes (`mcts:file=`, `ab:file=`, dominoes' `file=`): parse, write, parse again",
        run: game_weights,
        dict: GAME_WEIGHTS_DICT,
        generate: gen_game_weights,
        max_len: 1200,
    },
    Target {
        name: "learned_weights",
        about: "Sénat's learned weights files (`learned:file=`, `mcts:…,file=`), networks included: parse, write, parse again",
        run: learned_weights,
        dict: LEARNED_WEIGHTS_DICT,
        generate: gen_learned_weights,
        max_len: 1600,
    },
    Target {
        name: "domino_agent",
        about: "agent specs of --game dominoes: parse, Display, parse again",
        run: domino_agent,
        dict: DOMINO_AGENT_DICT,
        generate: gen_domino_agent,
        max_len: 120,
    },
    Target {
        name: "game_merge",
        about: "`senat merge` of another game's games file: rows checked by the rules; merged again, same bytes",
        run: game_merge,
        dict: GAME_CSV_DICT,
        generate: gen_game_games,
        max_len: 3000,
    },
    Target {
        name: "weights_file",
        about: "the one reader of weights files: what it accepts reads back sealed; a sealed file cut or with a row changed is refused",
        run: weights_file,
        dict: WEIGHTS_FILE_DICT,
        generate: gen_weights_file,
        max_len: 1200,
    },
    Target {
        name: "parquet",
        about: "CSV to Parquet (`senat convert`): read back, every cell, type and metadata line the CSV's",
        run: parquet,
        dict: PARQUET_DICT,
        generate: gen_parquet,
        max_len: 4000,
    },
];

/// Every target of every game: Sénat's ([`TARGETS`]), then Focus's, Débâcle's, Dominoes' and Connect Four's, then the catalog's (every game).
pub fn all() -> impl Iterator<Item = &'static Target> {
    TARGETS
        .iter()
        .chain(crate::focus_targets::TARGETS)
        .chain(crate::debacle_targets::TARGETS)
        .chain(crate::dominoes_targets::TARGETS)
        .chain(crate::connect4_targets::TARGETS)
        .chain(crate::catalog_targets::TARGETS)
}

/// The target named `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    all().find(|t| t.name == name)
}

const SPN_DICT: &[&str] = &[
    ".",
    ",",
    "/",
    " ",
    "b",
    "r",
    "give:b",
    "give:r",
    "place:b:",
    "place:r:",
    "-",
    "0-0-0",
    "Tr",
    "Sr",
    "Cr",
    "Tb",
    "Sb",
    "Cb",
    "S1",
    "S11",
    "M12",
    "M18",
    "I19",
    "I23",
    "23",
    "1",
    "2",
    "3",
    "17",
    "99",
    "5-0-3",
    ",.",
    "/.,.,.,.,.",
];
const MOVE_DICT: &[&str] = &[
    "g", "@", "=", "-", ">", ":", "D", "S1", "S5", "S11", "M12", "M15", "M18", "I19", "I21", "I23", "Tr", "Sb", "Cr",
    "Cb", "1", "2", "3", "23", "24", " ",
];
const RECORD_DICT: &[&str] = &[
    "\n",
    "# comment\n",
    "start\n",
    "sample\n",
    "g3\n",
    "3@M13=Tr\n",
    "M13>M14:I19\n",
    "I20>I21:D\n",
    "M16-M17\n",
    "I19>I20=Sb\n",
    "S1>S2\n",
    "\u{feff}",
    "\r\n",
    " b - 0-0-0 0\n",
];
const POLICY_DICT: &[&str] = &[
    "random",
    "greedy",
    "heuristic",
    "mcts",
    "ab",
    ":",
    ",",
    "=",
    "pile",
    "win",
    "own_i",
    "opp_i",
    "square",
    "exposed",
    "full_i",
    "playouts",
    "c",
    "rollout",
    "mb",
    "threads",
    "reuse",
    "true",
    "false",
    "depth",
    "tt",
    "1e6",
    "1e7",
    "-1",
    "0",
    "NaN",
    "inf",
];
const WEIGHTS_DICT: &[&str] = &[
    "pile=", "win=", "own_i=", "opp_i=", "square=", "exposed=", "full_i=", "\n", "# x\n", "1e6", "1000001", "-0.5",
    "\u{feff}", "\r\n", " = ",
];
const SPRT_DICT: &[&str] = &[
    "elo0=",
    "elo1=",
    "alpha=",
    "beta=",
    "model=",
    "logistic",
    "normalized",
    ",",
    "=",
    "0.05",
    "0.5",
    "1e-300",
    "5e-324",
];
const IDENTITY_DICT: &[&str] = &[
    "# senat-batch v1",
    "# senat-batch v2",
    " game=senat",
    " variant=-",
    " seed=",
    " games=",
    " shard=",
    " range=",
    " red=",
    " blue=",
    " draft_red=",
    " draft_blue=",
    " red_weights=",
    "fnv1a64:",
    " opening=",
    "-",
    "%20",
    "%",
    "%2",
    "%zz",
    "1/1",
    "0..10",
];
const CSV_DICT: &[&str] = &[
    ",",
    "\"",
    "\n",
    "red",
    "blue",
    "draw",
    "majority",
    "repetition",
    "closure",
    "block",
    "random",
    "greedy",
    "# senat-batch v1",
    "# senat-batch v2 game=senat variant=- ",
    "shard=1/2",
    "games=",
    "g1 1@S1=Tr",
    "5",
    "6",
];

// ---- shared helpers --------------------------------------------------------

/// The sample game's start (after the draft).
fn sample_start() -> Position {
    sample::START.parse().expect("the sample start is valid SPN")
}

/// A random walk of up to `plies` legal moves from `p`, stopping at the end.
fn walk(rng: &mut Rng, p: Position, plies: usize) -> GameRecord {
    let mut g = GameRecord::new(p);
    for _ in 0..plies {
        if g.outcome().is_some() {
            break;
        }
        let list = g.position().legal_moves();
        if list.is_empty() {
            break;
        }
        let m = list[rng.below(list.len())];
        g.play(m).expect("a generated move plays");
    }
    g
}

/// A fixed spread of reachable positions: starts, draft and play positions
/// of random games, the sample game's positions.
fn positions() -> &'static [Position] {
    static P: OnceLock<Vec<Position>> = OnceLock::new();
    P.get_or_init(|| {
        let mut v = vec![Position::start(), sample_start()];
        let mut rng = Rng::new(7);
        for i in 0..6 {
            let from = if i % 2 == 0 { Position::start() } else { sample_start() };
            let mut g = GameRecord::new(from);
            let mut n = 0;
            while g.outcome().is_none() && n < 200 {
                let list = g.position().legal_moves();
                if list.is_empty() {
                    break;
                }
                g.play(list[rng.below(list.len())]).expect("a generated move plays");
                n += 1;
                if n % 9 == 0 {
                    v.push(*g.position());
                }
            }
        }
        v
    })
}

/// A random reachable position.
fn random_position(rng: &mut Rng) -> Position {
    let from = if rng.one_in(2) { Position::start() } else { sample_start() };
    let plies = rng.below(120);
    *walk(rng, from, plies).position()
}

/// Runs every check of the "legal moves are legal" property on `p`.
fn check_position(p: &Position) {
    let list = p.legal_moves();
    assert_eq!(p.count_moves(), list.len(), "count_moves against legal_moves in {}", p.to_spn());
    assert_eq!(p.has_moves(), !list.is_empty(), "has_moves in {}", p.to_spn());
    let mut sets = 0;
    p.generate(|set| {
        let mut n = 0;
        set.for_each(|_| n += 1);
        assert_eq!(set.len(), n, "MoveSet::len in {}", p.to_spn());
        sets += n;
        false
    });
    assert_eq!(sets, list.len());
    let hash = p.hash();
    let spn = p.to_spn();
    assert_eq!(Position::from_spn_in(&spn, p.variant()).as_ref(), Ok(p), "SPN round trip of {spn}");
    // nth_move walks the same sets in index order (the order random play and
    // rollouts draw in, which may differ from generation order): k = 0..n
    // gives every legal move exactly once.
    let mut by_index: Vec<Move> =
        (0..list.len()).map(|k| nth_move(p, k).unwrap_or_else(|| panic!("nth_move({k}) is None in {spn}"))).collect();
    let mut generated: Vec<Move> = list.to_vec();
    by_index.sort_unstable_by_key(|m| m.to_string());
    generated.sort_unstable_by_key(|m| m.to_string());
    assert_eq!(by_index, generated, "nth_move(0..n) is not the legal moves in {spn}");
    for &m in list.iter() {
        if let Err(e) = p.check(m) {
            panic!("generated move {m} fails check in {}: {e}", p.to_spn());
        }
        assert_eq!(p.normalize(m), m, "generated move {m} is not canonical in {}", p.to_spn());
        assert_eq!(p.parse_move(&m.to_string()), Ok(m), "move text of {m} in {}", p.to_spn());
        let mut q = *p;
        let mut h = hash;
        q.play_hashed(m, &mut h);
        assert_eq!(h, q.hash(), "incremental hash after {m} in {}", p.to_spn());
        let mut r = *p;
        r.play(m).expect("a checked move plays");
        assert_eq!(r, q, "play and play_hashed differ after {m} in {spn}");
    }
    assert_eq!(nth_move(p, list.len()), None, "nth_move past the end in {}", p.to_spn());
    match p.phase() {
        Phase::Play => {
            let mut picked: Vec<Move> =
                (0..list.len()).map(|k| nth_play_move(p, k).expect("k below the count")).collect();
            let mut all = list.to_vec();
            picked.sort();
            all.sort();
            assert_eq!(picked, all, "nth_play_move gives another set of moves in {}", p.to_spn());
            assert_eq!(nth_play_move(p, list.len()), None);
            assert_eq!(nth_draft_move(p, 0), None);
        }
        Phase::Give | Phase::Place(_) | Phase::Decide => {
            for (k, &m) in list.iter().enumerate() {
                assert_eq!(nth_draft_move(p, k), Some(m), "nth_draft_move({k}) in {spn}");
            }
            assert_eq!(nth_draft_move(p, list.len()), None);
        }
    }
}

/// Where the temporary folder goes: `$SENAT_FUZZ_TMP`, else `/dev/shm`
/// (memory: creating a file there is a hundred times faster than on a
/// disk-backed `/tmp`), else the system temporary folder.
fn temp_base() -> PathBuf {
    match std::env::var_os("SENAT_FUZZ_TMP") {
        Some(d) => PathBuf::from(d),
        None if std::path::Path::new("/dev/shm").is_dir() => PathBuf::from("/dev/shm"),
        None => std::env::temp_dir(),
    }
}

/// A folder of this process, `senat-fuzz-<pid>` under [`temp_base`].
fn temp_dir() -> &'static PathBuf {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| {
        let d = temp_base().join(format!("senat-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("creating the fuzz temporary folder");
        d
    })
}

/// A file name in [`temp_dir`] private to this thread.
fn temp_file(stem: &str) -> PathBuf {
    let t = format!("{:?}", std::thread::current().id());
    let t: String = t.chars().filter(char::is_ascii_digit).collect();
    temp_dir().join(format!("{stem}-{t}"))
}

/// Removes this process's temporary folder (call at the end of a run).
pub fn clean_temp() {
    let _ = std::fs::remove_dir_all(temp_base().join(format!("senat-fuzz-{}", std::process::id())));
}

// ---- SPN -------------------------------------------------------------------

fn spn(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let s = text.as_ref();
    let setup = match parse_setup(s) {
        Ok(setup) => setup,
        Err(e) => {
            let _ = e.to_string();
            assert!(e.column >= 1 && e.column <= s.chars().count() + 1, "error column {} in {s:?} ({e})", e.column);
            assert!(s.parse::<Position>().is_err());
            return;
        }
    };
    let p = match setup.validate() {
        Ok(p) => p,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    assert_eq!(s.parse::<Position>().as_ref(), Ok(&p));
    let out = p.to_spn();
    assert_eq!(out.parse::<Position>().as_ref(), Ok(&p), "SPN round trip of {s:?} through {out:?}");
    assert_eq!(out.parse::<Position>().map(|q| q.to_spn()).as_deref(), Ok(out.as_str()));
    assert_eq!(Setup::from_position(&p).validate().as_ref(), Ok(&p), "Setup::from_position of {out}");
    let _ = senat_rules::Outcome::of_occurrences(&p, 1).map(|o| o.to_string());
    check_position(&p);
}

fn gen_spn(rng: &mut Rng) -> Vec<u8> {
    if rng.one_in(4) {
        // A board from scratch: mostly invalid positions, for validate.
        let faces = ["Tr", "Sr", "Cr", "Tb", "Sb", "Cb"];
        let mut s = String::new();
        for i in 0..23 {
            if i > 0 {
                s.push(if i == 11 || i == 18 { '/' } else { ',' });
            }
            if rng.one_in(3) {
                s.push('.');
            } else {
                s.push_str(&format!("{}{}", 1 + rng.below(23), rng.pick(&faces)));
            }
        }
        let turn = ["b", "r", "give:b", "give:r", "place:b:7", "place:r:1"];
        s.push_str(&format!(
            " {} - {}-{}-{} {}",
            rng.pick(&turn),
            rng.below(6),
            rng.below(6),
            rng.below(8),
            rng.below(61)
        ));
        return s.into_bytes();
    }
    random_position(rng).to_spn().into_bytes()
}

// ---- move text -------------------------------------------------------------

fn move_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let t = text.as_ref();
    let parsed = parse_move_text(t);
    match &parsed {
        Ok(m) => {
            let out = m.to_string();
            assert_eq!(parse_move_text(&out).as_ref(), Ok(m), "move text round trip of {t:?} through {out:?}");
        }
        Err(e) => {
            let _ = e.to_string();
            assert!(e.column >= 1 && e.column <= t.chars().count() + 1, "error column {} in {t:?} ({e})", e.column);
        }
    }
    for p in positions() {
        match p.parse_move(t) {
            Ok(m) => {
                assert!(
                    p.legal_moves().contains(&m),
                    "parse_move accepts {t:?} as {m}, not in the move list of {}",
                    p.to_spn()
                );
                assert_eq!(p.normalize(m), m);
            }
            Err(e) => {
                let _ = e.to_string();
                if let Ok(m) = parsed {
                    assert!(
                        !p.legal_moves().contains(&p.normalize(m)),
                        "parse_move refuses {t:?} in {}: {e}",
                        p.to_spn()
                    );
                }
            }
        }
    }
}

fn gen_move(rng: &mut Rng) -> Vec<u8> {
    let p = positions()[rng.below(positions().len())];
    let list = p.legal_moves();
    if list.is_empty() {
        return b"g1".to_vec();
    }
    list[rng.below(list.len())].to_string().into_bytes()
}

// ---- game records ----------------------------------------------------------

/// A record as `senat replay` reads it ([`Record::parse`] and
/// [`Record::play_each`], the functions the binary calls). Returns the game
/// and the moves played (all of them when the record is good), or `None`
/// when the start line is refused.
fn replay(text: &str) -> Option<(GameRecord, Vec<Move>, bool)> {
    let record = match Record::parse(text) {
        Ok(r) => r,
        Err(e) => {
            let _ = e.to_string();
            return None;
        }
    };
    let mut played = Vec::new();
    let outcome = record.play_each(|_, m, _| {
        played.push(m);
        Ok::<(), RecordError>(())
    });
    match outcome {
        Ok(game) => Some((game, played, true)),
        Err(e) => {
            assert!(e.line().is_some(), "a refused move names its line: {e}");
            let _ = e.to_string();
            let mut game = GameRecord::new(record.start);
            for &m in &played {
                game.play(m).expect("a move the replay accepted plays again");
            }
            Some((game, played, false))
        }
    }
}

fn record(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Some((game, played, _)) = replay(text) else { return };
    let mut out = game.start().to_spn();
    out.push('\n');
    for m in &played {
        out.push_str(&format!("{m}\n"));
    }
    let (again, moves, complete) = replay(&out).expect("a written record has a start");
    assert!(complete, "a written record does not replay:\n{out}");
    assert_eq!(moves, played);
    assert_eq!(again.position(), game.position());
    assert_eq!(again.outcome(), game.outcome());
}

fn gen_record(rng: &mut Rng) -> Vec<u8> {
    let (from, head) = match rng.below(3) {
        0 => (Position::start(), "start".to_string()),
        1 => (sample_start(), "sample".to_string()),
        _ => (sample_start(), sample::START.to_string()),
    };
    let plies = rng.below(80);
    let g = walk(rng, from, plies);
    let mut s = format!("# generated\n{head}\n");
    for m in g.moves() {
        s.push_str(&format!("{m}\n"));
        if rng.one_in(10) {
            s.push_str("  # a comment\n\n");
        }
    }
    s.into_bytes()
}

// ---- the "legal moves are legal" walk ----------------------------------------

fn legal(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else { return };
    let start = if first & 1 == 0 { Position::start() } else { sample_start() };
    let mut game = GameRecord::new(start);
    let mut p = start;
    let mut hash = p.hash();
    for pair in rest.chunks(2) {
        check_position(&p);
        if game.outcome().is_some() {
            return;
        }
        let list = p.legal_moves();
        if list.is_empty() {
            return;
        }
        let k = pair.iter().fold(0usize, |a, &b| a << 8 | b as usize) % list.len();
        let m = list[k];
        p.play_hashed(m, &mut hash);
        assert_eq!(hash, p.hash(), "incremental hash after {m}");
        game.play(m).expect("a generated move plays in the game");
        assert_eq!(game.position(), &p);
        assert_eq!(game.hash(), hash);
    }
    check_position(&p);
}

fn gen_bytes(rng: &mut Rng) -> Vec<u8> {
    let n = rng.below(400);
    (0..n).map(|_| rng.next_u64() as u8).collect()
}

// ---- Sénat variants ---------------------------------------------------------

const VARIANT_DICT: &[&str] =
    &["first_giver=", "first_mover=", "closure=", "majority=", "repetition=", "red", "blue", ",", "=", "63", "1", "7"];

fn senat_variant(data: &[u8]) {
    let (text, moves) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let text = String::from_utf8_lossy(text);
    let Ok(v) = senat_rules::Variant::parse(&text) else { return };
    let shown = v.to_text();
    assert_eq!(senat_rules::Variant::parse(&shown), Ok(v), "variant {text:?} written as {shown:?}");
    let mut game = GameRecord::new(Position::start_of(v));
    for pair in moves.chunks(2) {
        let p = *game.position();
        assert_eq!(p.variant(), v, "the variant after {} moves", game.moves().len());
        check_position(&p);
        assert!(
            p.clock() <= v.closure
                && p.piles().red <= v.majority_of(senat_rules::Side::Red)
                && p.piles().blue <= v.majority_of(senat_rules::Side::Blue),
            "{}",
            p.to_spn()
        );
        if game.outcome().is_some() {
            return;
        }
        let list = p.legal_moves();
        let k = pair.iter().fold(0usize, |a, &b| a << 8 | b as usize) % list.len();
        game.play(list[k]).expect("a generated move plays in the game");
    }
}

fn gen_senat_variant(rng: &mut Rng) -> Vec<u8> {
    let mut items = Vec::new();
    let side = |rng: &mut Rng| if rng.one_in(2) { "red" } else { "blue" };
    if rng.one_in(2) {
        items.push(format!("first_giver={}", side(rng)));
    }
    if rng.one_in(2) {
        items.push(format!("first_mover={}", side(rng)));
    }
    if rng.one_in(2) {
        items.push(format!("closure={}", 1 + rng.below(63)));
    }
    if rng.one_in(2) {
        items.push(format!("majority={}", 1 + rng.below(7)));
    }
    if rng.one_in(2) {
        items.push(format!("repetition={}", 2 + rng.below(6)));
    }
    let mut out = items.join(",").into_bytes();
    out.push(b'\n');
    out.extend(gen_bytes(rng).into_iter().take(400));
    out
}

// ---- policy specs ----------------------------------------------------------

fn policy(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if text.contains("file=") {
        return; // would read any path; the weights target covers weights files
    }
    match PolicySpec::parse(&text) {
        Ok(spec) => {
            let shown = spec.to_string();
            assert_eq!(shown, text.trim(), "Display of a policy spec");
            assert_eq!(PolicySpec::parse(&shown).as_ref(), Ok(&spec), "policy spec round trip of {shown:?}");
            assert!(identity::weight_files(&spec).is_empty());
            let _ = identity::PolicyId::of(&spec).expect("no weights file to read");
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

fn gen_policy(rng: &mut Rng) -> Vec<u8> {
    let s = match rng.below(6) {
        0 => "random".to_string(),
        1 => "greedy".to_string(),
        2 => format!("heuristic:pile={},exposed=-{}", rng.below(20), rng.below(3)),
        3 => format!("mcts:playouts={},c=1.4,rollout=greedy,mb=8,threads=1,reuse=false", rng.below(5000)),
        4 => format!("ab:depth={},tt={}", rng.below(8), rng.below(16)),
        _ => "heuristic".to_string(),
    };
    s.into_bytes()
}

// ---- weights files ---------------------------------------------------------

fn weights(data: &[u8]) {
    let path = temp_file("weights");
    std::fs::File::create(&path).and_then(|mut f| f.write_all(data)).expect("writing the weights file");
    let spec = PolicySpec::parse(&format!("heuristic:file={}", path.display()));
    let Ok(spec) = spec else { return };
    let w = &spec.weights;
    for v in [w.pile, w.win, w.own_i, w.opp_i, w.square, w.exposed, w.full_i] {
        assert!(v.is_finite() && v.abs() <= senat_lab::limits::MAX_WEIGHT, "weight {v} accepted");
    }
    // The same lines as flags give the same weights.
    let text = std::str::from_utf8(data).expect("an accepted weights file is UTF-8");
    let text = text.strip_prefix('\u{feff}').unwrap_or(text); // read_text skips a byte-order mark
    let items: Vec<&str> =
        text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty()).collect();
    if items.is_empty() || items.iter().any(|i| i.contains(',') || i.contains("file")) {
        return;
    }
    let flags = PolicySpec::parse(&format!("heuristic:{}", items.join(",")));
    // A key given twice is refused as flags (a spec names each key once);
    // a weights file reads its lines in order, the last one winning.
    if let Some(key) = senat_lab::suggest::duplicate_key(items.iter().copied()) {
        let refused = matches!(&flags, Err(senat_lab::policy::SpecError::Grammar(senat_lab::spec::SpecError {
            fault: senat_lab::spec::Fault::DuplicateKey(k),
            ..
        })) if k == key);
        assert!(refused, "a twice-given `{key}` as flags: {flags:?}");
        return;
    }
    assert_eq!(flags.map(|s| s.weights).as_ref(), Ok(w), "weights file and flags disagree on {text:?}");
}

fn gen_weights(rng: &mut Rng) -> Vec<u8> {
    let names = senat_lab::policy::Weights::NAMES;
    let mut s = String::from("# weights\n");
    for _ in 0..1 + rng.below(7) {
        s.push_str(&format!("{} = {}.{}\n", rng.pick(&names), rng.below(2000) as i64 - 1000, rng.below(10)));
    }
    s.into_bytes()
}

// ---- --shard ---------------------------------------------------------------

fn shard(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(s) = Shard::parse(&text) else { return };
    assert!(1 <= s.k && s.k <= s.n, "shard {}/{} accepted", s.k, s.n);
    assert_eq!(Shard::parse(&format!("{}/{}", s.k, s.n)), Ok(s));
    for games in [0, 1, 2, 7, 1000, u64::MAX / 3, u64::MAX] {
        let r = s.range(games);
        assert!(r.start <= r.end && r.end <= games, "shard {}/{} of {games}: {r:?}", s.k, s.n);
        if s.k < s.n {
            assert_eq!(r.end, Shard { k: s.k + 1, n: s.n }.range(games).start);
        } else {
            assert_eq!(r.end, games);
        }
        if s.k == 1 {
            assert_eq!(r.start, 0);
        }
    }
}

fn gen_shard(rng: &mut Rng) -> Vec<u8> {
    let n = 1 + rng.below(100);
    format!("{}/{n}", 1 + rng.below(n)).into_bytes()
}

// ---- SPRT specs ------------------------------------------------------------

fn sprt(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(t) = Sprt::parse(&text) else { return };
    let (lo, hi) = t.bounds();
    assert!(lo < 0.0 && hi > 0.0, "SPRT bounds {lo} {hi} for {text:?}");
    for counts in [[1, 2, 3, 2, 1], [0, 0, 10, 0, 0], [5, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 1, 0, 0, 100]] {
        let p = Pentanomial { counts };
        let llr = t.llr(&p);
        if counts.iter().all(|&c| c > 0) {
            assert!(!llr.is_nan(), "LLR is NaN for {counts:?} and {text:?}");
        }
        if let Some(r) = t.decide(&p) {
            let _ = r.to_string();
        }
    }
    let _ = t.expected_pairs(5.0, 0.1);
}

fn gen_sprt(rng: &mut Rng) -> Vec<u8> {
    let model = if rng.one_in(2) { "logistic" } else { "normalized" };
    format!(
        "elo0={},elo1={},alpha=0.0{},beta=0.0{},model={model}",
        rng.below(5),
        5 + rng.below(20),
        1 + rng.below(9),
        1 + rng.below(9)
    )
    .into_bytes()
}

// ---- identity lines and games files ---------------------------------------

const GAMES_SEED: &str = include_str!("../corpus/games_csv/batch-3-games.csv");
const GAMES_SEED_SHARD: &str = include_str!("../corpus/games_csv/shard-2-of-3.csv");

fn identity_line(data: &[u8]) {
    let mut r = data;
    let Ok(Some(Ok(id))) = identity::read_identity(&mut r) else { return };
    let line = id.line();
    assert_eq!(identity::Identity::parse(&line).as_ref(), Ok(&id), "identity round trip through {line:?}");
    assert_eq!(id.difference(&id, false), None);
    let _ = id.key().label();
}

fn gen_identity(rng: &mut Rng) -> Vec<u8> {
    let src = if rng.one_in(2) { GAMES_SEED } else { GAMES_SEED_SHARD };
    src.lines().next().unwrap_or("").as_bytes().to_vec()
}

fn games_csv(data: &[u8]) {
    let mut r = data;
    let id = match identity::read_identity(&mut r) {
        Ok(Some(Ok(id))) => id,
        _ => {
            let mut first = GAMES_SEED.as_bytes();
            identity::read_identity(&mut first).expect("reading memory").expect("a line").expect("the seed's identity")
        }
    };
    let mut rdr = csv::ReaderBuilder::new().has_headers(true).flexible(true).from_reader(r);
    let mut expected = id.shard.range(id.games).start;
    for rec in rdr.records().take(200) {
        let Ok(rec) = rec else { return };
        let parsed = selfplay::parse_game_row(&rec);
        match identity::check_row(&rec, &id, expected) {
            Ok((key, g)) => {
                let (i, _, k, g2) = parsed.expect("check_row accepts a row parse_game_row refuses");
                assert_eq!((i, &k, g2.play_len, g2.legal_sum), (expected, &key, g.play_len, g.legal_sum));
                expected += 1;
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

fn gen_games(rng: &mut Rng) -> Vec<u8> {
    let src = if rng.one_in(2) { GAMES_SEED } else { GAMES_SEED_SHARD };
    src.as_bytes().to_vec()
}

fn merge(data: &[u8]) {
    let input = temp_file("merge-in");
    let out = temp_file("merge-out");
    let again = temp_file("merge-again");
    std::fs::write(&input, data).expect("writing the merge input");
    let Ok(summary) = selfplay::merge(std::slice::from_ref(&input), &out, None, true) else { return };
    let first = std::fs::read(&out).expect("reading the merged file");
    let summary2 = selfplay::merge(std::slice::from_ref(&out), &again, None, true)
        .unwrap_or_else(|e| panic!("merging a merged file fails: {e}"));
    let second = std::fs::read(&again).expect("reading the merged file");
    assert!(first == second, "merging a merged file changes it");
    assert_eq!(summary, summary2);
}

// ---- other games: agent specs and games files -------------------------------

const GAME_AGENT_DICT: &[&str] = &[
    "random", "greedy", "ab", "mcts", ":", ",", "=", "depth", "tt", "movetime", "playouts", "c", "rollout", "eval",
    "random", "cut", "scale", "cap", "0", "1", "64", "1e9", "-1", "NaN",
];

fn game_agent(data: &[u8]) {
    use senat_lab::games::agent::AgentSpec;
    let text = String::from_utf8_lossy(data);
    if text.contains("file=") {
        return; // would read any path; the game_weights target covers learned weights files
    }
    match AgentSpec::parse(&text) {
        Ok(a) => {
            let shown = a.to_string();
            assert_eq!(AgentSpec::parse(&shown), Ok(a), "agent spec round trip of {shown:?}");
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

fn gen_game_agent(rng: &mut Rng) -> Vec<u8> {
    let s = match rng.below(5) {
        0 => "random".to_string(),
        1 => "greedy".to_string(),
        2 => format!("ab:depth={},tt={}", rng.below(8), 1 + rng.below(16)),
        3 => format!("mcts:playouts={},c=0.{},cut={}", 1 + rng.below(5000), rng.below(10), rng.below(8)),
        _ => format!("mcts:rollout=random,cap={}", rng.below(3000)),
    };
    s.into_bytes()
}

// ---- learned weights files of Focus and Débâcle ------------------------------

const GAME_WEIGHTS_DICT: &[&str] = &[
    "game=focus\n",
    "game=debacle\n",
    "game=dominoes\n",
    "linear.match=",
    "linear.pips=",
    "linear.tiles=",
    "net.inputs=119\n",
    "linear.stacks=",
    "linear.heights=",
    "linear.reserves=",
    "linear.pieces=",
    "linear.scores=",
    "linear.piles=",
    "linear.held=",
    "net.hidden=",
    "net.inputs=1344\n",
    "net.inputs=560\n",
    "net.b1=",
    "net.w2=",
    "net.b2=",
    "net.w1.",
    "# ",
    "NaN",
    "1e39",
];

fn game_weights(data: &[u8]) {
    use senat_lab::games::{debacle::Debacle, focus::Focus, learn::GameWeights};
    let text = String::from_utf8_lossy(data);
    let Ok(w) = senat_lab::games::parse_weights(&text) else { return };
    assert!(w.linear.iter().all(|x| x.is_finite()), "a weight that is not finite accepted");
    assert!(w.net.w1.iter().chain(&w.net.b1).chain(&w.net.w2).all(|x| x.is_finite()) && w.net.b2.is_finite());
    let again = match w.game.as_str() {
        "focus" => GameWeights::parse::<Focus>(&w.to_text::<Focus>("again")),
        "debacle" => GameWeights::parse::<Debacle>(&w.to_text::<Debacle>("again")),
        "dominoes" => {
            use senat_lab::games::dominoes_net::{TERMS, parse};
            parse(&w.to_text_terms(TERMS, "again"))
        }
        g => panic!("weights of an unknown game {g:?} accepted"),
    };
    assert_eq!(again.as_ref(), Ok(&w), "weights file round trip of {text:?}");
}

fn gen_game_weights(rng: &mut Rng) -> Vec<u8> {
    let (game, terms, inputs) = match rng.below(3) {
        0 => ("focus", &["stacks", "heights", "reserves", "pieces"][..], 1344),
        1 => ("debacle", &["scores", "piles", "held"][..], 560),
        _ => ("dominoes", &["match", "pips", "tiles"][..], 119),
    };
    let mut s = format!("# a weights file\ngame={game}\n");
    for t in terms {
        s.push_str(&format!("linear.{t}={}.{}\n", rng.below(20) as i64 - 10, rng.below(100)));
    }
    s.push_str(&gen_net_lines(rng, "net", inputs));
    seal_mostly(rng, s)
}

/// `text` with its check line ([`senat_lab::weights_file::seal`]) three
/// times in four: a sealed file need not give every row of its network,
/// so the reader's accepting path is reached.
fn seal_mostly(rng: &mut Rng, text: String) -> Vec<u8> {
    if rng.below(4) == 0 { text.into_bytes() } else { senat_lab::weights_file::seal(&text).into_bytes() }
}

/// A small network's lines under `prefix` (`net`, `draft_net`) for a network
/// of `inputs` inputs, now and then naming an input out of range.
fn gen_net_lines(rng: &mut Rng, prefix: &str, inputs: usize) -> String {
    let hidden = 1 + rng.below(3);
    let row = |rng: &mut Rng| (0..hidden).map(|_| format!("0.{}", rng.below(1000))).collect::<Vec<_>>().join(" ");
    let mut s = format!("{prefix}.hidden={hidden}\n{prefix}.inputs={inputs}\n");
    s.push_str(&format!("{prefix}.b1={}\n{prefix}.w2={}\n{prefix}.b2=0.5\n", row(rng), row(rng)));
    for _ in 0..rng.below(4) {
        s.push_str(&format!("{prefix}.w1.{}={}\n", rng.below(inputs + 2), row(rng)));
    }
    s
}

// ---- Sénat's learned weights files -------------------------------------------

const LEARNED_WEIGHTS_DICT: &[&str] = &[
    "play.pile=",
    "play.tempo=",
    "draft.row_s=",
    "draft.red=",
    "net.hidden=",
    "net.inputs=",
    "draft_net.hidden=",
    "draft_net.inputs=325\n",
    "net.b1=",
    "draft_net.w1.",
    "net.w1.",
    "net.b2=",
    "# ",
    "NaN",
    "1e39",
];

fn learned_weights(data: &[u8]) {
    use senat_lab::learned::Learned;
    let text = String::from_utf8_lossy(data);
    let Ok(w) = Learned::parse(&text) else { return };
    assert!(w.play.iter().chain(&w.draft).all(|x| x.is_finite()), "a weight that is not finite accepted");
    for n in w.net.iter().chain(&w.draft_net) {
        assert!(n.w1.iter().chain(&n.b1).chain(&n.w2).all(|x| x.is_finite()) && n.b2.is_finite());
    }
    assert_eq!(Learned::parse(&w.to_text("again")).as_ref(), Ok(&w), "weights file round trip of {text:?}");
}

fn gen_learned_weights(rng: &mut Rng) -> Vec<u8> {
    use senat_lab::learned::{DRAFT_FEATURES, PLAY_FEATURES};
    let mut s = String::from("# a weights file\n");
    for (phase, names) in [("play", &PLAY_FEATURES[..]), ("draft", &DRAFT_FEATURES[..])] {
        for n in names {
            s.push_str(&format!("{phase}.{n}={}.{}\n", rng.below(20) as i64 - 10, rng.below(100)));
        }
    }
    for (prefix, inputs) in [("net", senat_lab::net::INPUTS), ("draft_net", senat_lab::net::DRAFT_INPUTS)] {
        if rng.below(2) == 1 {
            s.push_str(&gen_net_lines(rng, prefix, inputs));
        }
    }
    seal_mostly(rng, s)
}

const DOMINO_AGENT_DICT: &[&str] = &[
    "leaf=net",
    "random",
    "greedy",
    "pimc",
    "ismcts",
    "top",
    "strong",
    "fast",
    ":",
    ",",
    "=",
    "playouts",
    "worlds",
    "c",
    "temp",
    "temp_plies",
    "guard",
    "guard_nodes",
    "on",
    "off",
    "0",
    "1",
    "20",
    "1e9",
    "-1",
    "NaN",
];

fn domino_agent(data: &[u8]) {
    use senat_lab::games::dominoes::DominoSpec;
    let text = String::from_utf8_lossy(data);
    if text.contains("file=") {
        return; // would read any path; the game_weights target covers the network leaf's files
    }
    match DominoSpec::parse(&text) {
        Ok(a) => {
            let shown = a.to_string();
            assert_eq!(DominoSpec::parse(&shown), Ok(a), "agent spec round trip of {shown:?}");
        }
        Err(e) => assert!(e.to_string().contains("agent"), "{e}"),
    }
}

fn gen_domino_agent(rng: &mut Rng) -> Vec<u8> {
    let s = match rng.below(5) {
        0 => "random".to_string(),
        1 => "top".to_string(),
        2 => format!("pimc:playouts={},worlds={},c=0.{}", 1 + rng.below(5000), rng.below(40), rng.below(10)),
        3 => format!("ismcts:playouts={},temp={}", rng.below(3000), rng.below(3)),
        _ => format!("ismcts:guard={},guard_nodes={}", ["on", "off"][rng.below(2)], rng.below(30000)),
    };
    s.into_bytes()
}

/// A games file of `senat selfplay --game debacle --games 3 --first greedy --second random`.
const GAME_GAMES_SEED: &str = include_str!("../corpus/game_merge/debacle-3.csv");

pub(crate) const GAME_CSV_DICT: &[&str] = &[
    "# game-batch 1 ",
    "# senat-batch v2 ",
    "game=",
    "debacle",
    "focus",
    "focus4",
    "variant=-",
    "seed=",
    "games=",
    "shard=",
    "range=",
    "first=",
    "second=",
    "greedy",
    "random",
    ",",
    "\n",
    "first",
    "second",
    "draw",
    "/",
    ".",
    "S1",
    "N6",
    " s ",
    " n ",
];

fn gen_game_games(rng: &mut Rng) -> Vec<u8> {
    let _ = rng.below(2);
    GAME_GAMES_SEED.as_bytes().to_vec()
}

fn game_merge(data: &[u8]) {
    use senat_lab::games::batch;
    use senat_lab::games::debacle::Debacle;
    let input = temp_file("game-merge-in");
    let out = temp_file("game-merge-out");
    let again = temp_file("game-merge-again");
    std::fs::write(&input, data).expect("writing the merge input");
    let Ok((_, t, _)) = batch::merge::<Debacle>(std::slice::from_ref(&input), &out, None, true) else { return };
    let first = std::fs::read(&out).expect("reading the merged file");
    let (_, t2, _) = batch::merge::<Debacle>(std::slice::from_ref(&out), &again, None, true)
        .unwrap_or_else(|e| panic!("merging a merged file fails: {e}"));
    assert!(first == std::fs::read(&again).expect("reading the merged file"), "merging a merged file changes it");
    assert_eq!(t, t2);
    assert_eq!(t.games, t.first + t.second + t.draws);
}

/// Merges the games file `data` of game `G` as [`game_merge`] does
/// Débâcle's; a file the merge accepts passes the check of `convert`
/// ([`senat_lab::games::batch::check_file`]) too, where its identity names
/// one of `kinds`, `G`'s games (the command line picks `G` from that name;
/// the generic merge names no game, so another game's file with `G`'s rows
/// is `G`'s to the merge and the other game's to `convert`).
pub(crate) fn lab_merge<G: senat_lab::games::batch::BatchGame>(data: &[u8], kinds: &[senat_lab::games::GameKind]) {
    use senat_lab::games::batch;
    let input = temp_file("lab-merge-in");
    let out = temp_file("lab-merge-out");
    std::fs::write(&input, data).expect("writing the merge input");
    let merged = batch::merge::<G>(std::slice::from_ref(&input), &out, None, true);
    let checked = senat_lab::catalog::check_batch_file(&input);
    let named = batch::batch_game(&input).is_some_and(|k| kinds.contains(&k));
    if let (Ok((_, t, _)), true) = (merged, named) {
        assert!(checked.is_ok(), "merge accepts a file that convert's check refuses: {checked:?}");
        assert_eq!(t.games, t.first + t.second + t.draws);
    }
}

/// A record of lab game `G` read as `replay --game`, `view` and `render`
/// read one (the record limits' lines, `start` or a position, one move a
/// line): what plays is written back (position text, move texts) and
/// plays again to the same position and moves.
pub(crate) fn lab_record<G: senat_lab::games::LabGame>(data: &[u8]) {
    use senat_lab::games::position_arg;
    use senat_lab::limits::{MAX_LINE_BYTES, record_lines};
    let play = |text: &str| -> Option<(G::State, Vec<String>)> {
        if text.lines().any(|l| l.len() > MAX_LINE_BYTES) {
            return None;
        }
        let mut lines = record_lines(text);
        let (_, first) = lines.next()?;
        let mut s = position_arg::<G>(first, "").ok()?;
        let mut moves = vec![G::position_text(&s)];
        for (_, l) in lines {
            let m = G::parse_move(&s, l).ok()?;
            moves.push(G::move_text(m));
            s = G::apply(&s, m);
        }
        Some((s, moves))
    };
    let text = String::from_utf8_lossy(data);
    let Some((end, written)) = play(&text) else { return };
    let again = written.join("\n") + "\n";
    let (end2, written2) = play(&again).unwrap_or_else(|| panic!("a written record does not play:\n{again}"));
    assert_eq!(written2, written, "a written record reads back otherwise");
    assert_eq!(G::position_text(&end2), G::position_text(&end));
}

/// A record of `G`: `start`, then up to 60 random legal moves, comments between.
pub(crate) fn gen_lab_record<G: senat_lab::games::LabGame>(rng: &mut Rng) -> Vec<u8> {
    use senat_lab::games::legal_moves;
    let mut s = G::start("").expect("the standard start");
    let mut out = String::from("# generated\nstart\n");
    for _ in 0..rng.below(60) {
        let moves = legal_moves::<G>(&s);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        out.push_str(&format!("{}\n", G::move_text(m)));
        if rng.one_in(10) {
            out.push_str("  # a comment\n\n");
        }
        s = G::apply(&s, m);
    }
    out.into_bytes()
}

// ---- weights files (the one reader) -------------------------------------------

const WEIGHTS_FILE_DICT: &[&str] =
    &["=", "\n", "#", "check=", "rows:", " fnv1a64:", "0000000000000000", "game=focus\n", "net.w1.0=", "1e6", "-1e7"];

fn gen_weights_file(rng: &mut Rng) -> Vec<u8> {
    let mut s = String::from("# a file\n");
    for k in 0..rng.below(12) {
        s.push_str(&format!("k{k}={}.{}\n", rng.below(20) as i64 - 10, rng.below(1000)));
    }
    seal_mostly(rng, s)
}

fn weights_file(data: &[u8]) {
    use senat_lab::weights_file::{entries, seal};
    let text = String::from_utf8_lossy(data);
    let Ok(f) = entries(&text) else { return };
    if f.verdict().is_err() {
        return;
    }
    let pairs = |f: &senat_lab::weights_file::WeightsFile| -> Vec<(String, String)> {
        f.entries.iter().map(|e| (e.key.to_string(), e.value.to_string())).collect()
    };
    let sealed = seal(&text);
    let again = entries(&sealed).unwrap_or_else(|e| panic!("a sealed file is refused: {e}\n{sealed}"));
    assert_eq!(pairs(&again), pairs(&f), "sealing changes the rows");
    assert!((again.checked && again.verdict().is_ok()) || f.entries.is_empty());
    // The sealed file without its last row: refused (or the row was its only one, and a comment).
    if again.checked && !again.entries.is_empty() {
        let last = again.entries[again.entries.len() - 1].line;
        let cut: String = sealed.lines().take(last - 1).map(|l| format!("{l}\n")).collect();
        assert!(entries(&cut).is_err(), "a sealed file without its last row is accepted:\n{cut}");
    }
}

// ---- CSV to Parquet ---------------------------------------------------------

const PARQUET_DICT: &[&str] = &[
    ",",
    "\n",
    "\r\n",
    "\"",
    "#",
    "# senat-batch v2 game=senat seed=1\n",
    "-",
    "0",
    "-0",
    "01",
    "+1",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "9007199254740993",
    "0.5",
    "1e308",
    "1e309",
    "NaN",
    "inf",
    "é",
];

/// Converts the input; when it converts, the Parquet file read back must
/// hold the CSV's rows (an empty cell null, a number the same number, text
/// the same text), the inferred types, and its `#` lines as metadata.
fn parquet(data: &[u8]) {
    use selfplay::columnar::{ColumnType, convert_bytes, read_table};
    let Ok((bytes, c)) = convert_bytes(data) else { return };
    let t = read_table(bytes).unwrap_or_else(|e| panic!("a converted file does not read back: {e}"));
    assert_eq!(t.columns, c.columns);
    assert_eq!(t.metadata, c.metadata);
    assert_eq!(t.rows.len() as u64, c.rows);
    // The CSV's own rows, after its `#` lines and header.
    let mut rest = data;
    while rest.first() == Some(&b'#') {
        let end = rest.iter().position(|&b| b == b'\n').map_or(rest.len(), |i| i + 1);
        rest = &rest[end..];
    }
    let mut rdr = csv::ReaderBuilder::new().has_headers(true).from_reader(rest);
    let header: Vec<String> = rdr.headers().expect("converted, so readable").iter().map(String::from).collect();
    assert_eq!(header, c.columns.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>());
    for (rec, row) in rdr.records().zip(&t.rows) {
        let rec = rec.expect("converted, so readable");
        assert_eq!(rec.len(), row.len());
        for ((cell, got), (_, kind)) in rec.iter().zip(row).zip(&c.columns) {
            match (got, kind) {
                (None, _) => assert!(cell.is_empty(), "{cell:?} read back as null"),
                (Some(g), ColumnType::Double) => {
                    assert_eq!(g.parse::<f64>().ok(), cell.parse::<f64>().ok(), "{cell:?} read back as {g:?}")
                }
                (Some(g), _) => assert_eq!(g, cell),
            }
        }
    }
}

fn gen_parquet(rng: &mut Rng) -> Vec<u8> {
    let mut s = String::new();
    if !rng.one_in(4) {
        s.push_str("# senat-batch v2 game=focus seed=1\n");
    }
    let cols = 1 + rng.below(5);
    let names: Vec<String> = (0..cols).map(|i| format!("c{i}")).collect();
    s.push_str(&names.join(","));
    s.push('\n');
    let kinds: Vec<usize> = (0..cols).map(|_| rng.below(4)).collect();
    for _ in 0..rng.below(12) {
        let cells: Vec<String> = kinds
            .iter()
            .map(|&k| match (k, rng.below(8)) {
                (_, 0) => String::new(),
                (0, n) => format!("{}", n as i64 - 4),
                (1, n) => format!("{}", u64::MAX - n as u64),
                (2, n) => format!("{}.{n}", n * 3),
                (_, n) => ["a", "b c", "\"q,\"\"x\"\"\"", "é"][n % 4].to_string(),
            })
            .collect();
        s.push_str(&cells.join(","));
        s.push('\n');
    }
    s.into_bytes()
}
