//! The observations and the determinizing sampler: the true state is
//! always consistent; every sample is consistent and keeps the public
//! part; uniformity against exhaustive enumeration on small cases; the two
//! traps of GAMES.md §2.7 (inferences hold at the time of their event; the
//! two implied inferences).

mod common;
use common::*;
use dominoes_rules::{Event, Observation, State, TileSet, sample};
use std::collections::HashMap;

/// The state with the observation's public part, `hands` and `stock` (through the text, so through the checks).
fn fill(o: &Observation, hands: &[TileSet], stock: TileSet) -> Option<State> {
    let t = o.to_string();
    let mut f: Vec<String> = t[3..].split(' ').map(String::from).collect();
    // `3!` (the drawer stopped) is for observations only.
    f[3] = f[3].trim_end_matches('!').to_string();
    f[6] = hands.iter().map(|h| h.to_string()).collect::<Vec<_>>().join("/");
    f[7] = stock.to_string();
    f.join(" ").parse().ok()
}

/// The naive reading of GAMES.md §2.7 on today's hands (what the traps catch).
fn naive_rejects(s: &State) -> bool {
    let ev: Vec<Event> = s.history().collect();
    let mut ends: Option<(u8, u8)> = None;
    let mut bad = false;
    for (i, e) in ev.iter().enumerate() {
        let p = usize::from(e.player);
        if let Some((l, r)) = ends
            && (e.drawn > 0 || e.play.is_none())
        {
            let m = TileSet::with_number(l).union(TileSet::with_number(r));
            if !s.hand(p).intersection(m).is_empty() {
                bad = true;
            }
        }
        if let Some((t, end)) = e.play {
            if i == 0 && !s.variant().openspiel {
                for q in 0..s.players() {
                    if s.hand(q).iter().any(|x| x.opening_rank() > t.opening_rank()) {
                        bad = true;
                    }
                }
            }
            ends = Some(match ends {
                None => t.ends(),
                Some((l, r)) if end == dominoes_rules::End::Left => {
                    (if t.ends().0 == l { t.ends().1 } else { t.ends().0 }, r)
                }
                Some((l, r)) => (l, if t.ends().0 == r { t.ends().1 } else { t.ends().0 }),
            });
        }
    }
    bad
}

#[test]
fn true_state_always_consistent_and_samples_keep_the_public_part() {
    let mut rng = XorShift64::new(2024);
    let mut states = 0;
    let mut naive = 0;
    let mut samples = 0;
    for text in VARIANTS {
        let v = variant(text);
        for g in 0..150 {
            let mut s = State::start(v);
            loop {
                states += 1;
                if naive_rejects(&s) {
                    naive += 1;
                }
                for p in 0..s.players() {
                    let o = s.observation(p);
                    assert!(o.is_consistent(&s), "player {p}: {s}");
                    if g % 10 == 0 || (g % 3 == 0 && p == s.to_move()) {
                        let x = sample(&o, &mut || rng.next_u64());
                        samples += 1;
                        assert!(o.is_consistent(&x), "sample {x} for {o}");
                        assert_eq!(x.observation(p), o, "public part: {x} for {o}");
                        assert_eq!(x.hash(), x.recompute_hash());
                        assert_eq!(x.to_string().parse::<State>().as_ref(), Ok(&x));
                        let mut a = Vec::new();
                        let mut b = Vec::new();
                        if o.is_my_decision() {
                            o.legal_moves(&mut a);
                            x.legal_moves(&mut b);
                            assert_eq!(a, b, "the observer's moves do not depend on the sample");
                        }
                    }
                }
                if !step(&mut s, &mut rng) || s.rounds_played() > 1 {
                    break;
                }
            }
        }
    }
    println!("{states} states, {samples} samples; a naive today-hands check rejects {naive} true states");
    assert!(naive > states / 40, "the traps are exercised: {naive} of {states}");
}

/// All placements of the unseen tiles into the hidden hands and the boneyard.
fn enumerate(o: &Observation) -> Vec<State> {
    let n = o.players();
    let hidden: Vec<usize> = (0..n).filter(|&p| o.known_hand(p).is_none()).collect();
    let unseen: Vec<_> = o.unseen().iter().collect();
    let mut out = Vec::new();
    let mut hands: Vec<TileSet> = (0..n).map(|p| o.known_hand(p).unwrap_or_default()).collect();
    fn rec(
        i: usize,
        unseen: &[dominoes_rules::Tile],
        hidden: &[usize],
        o: &Observation,
        hands: &mut Vec<TileSet>,
        stock: TileSet,
        out: &mut Vec<State>,
    ) {
        if i == unseen.len() {
            if hidden.iter().all(|&p| hands[p].len() == o.hand_size(p))
                && stock.len() == o.boneyard_size()
                && let Some(s) = fill(o, hands, stock)
                && o.is_consistent(&s)
            {
                out.push(s);
            }
            return;
        }
        let t = unseen[i];
        for &p in hidden {
            if hands[p].len() < o.hand_size(p) {
                hands[p].insert(t);
                rec(i + 1, unseen, hidden, o, hands, stock, out);
                hands[p].remove(t);
            }
        }
        if stock.len() < o.boneyard_size() {
            let mut s2 = stock;
            s2.insert(t);
            rec(i + 1, unseen, hidden, o, hands, s2, out);
        }
    }
    rec(0, &unseen, &hidden, o, &mut hands, TileSet::EMPTY, &mut out);
    out
}

fn placements(o: &Observation) -> f64 {
    let mut k = o.unseen().len() as f64;
    let mut total = 1.0;
    let binom = |n: f64, r: usize| {
        let mut x = 1.0;
        for i in 0..r {
            x = x * (n - i as f64) / (i as f64 + 1.0);
        }
        x
    };
    for p in 0..o.players() {
        if o.known_hand(p).is_none() {
            total *= binom(k, o.hand_size(p));
            k -= o.hand_size(p) as f64;
        }
    }
    total
}

/// Uniformity: on observations with few consistent states (some placements
/// excluded by the inferences), 400 samples per state; chi-square below
/// df + 6·sqrt(2·df) (about 6 standard deviations), fixed seeds.
#[test]
fn sampler_is_uniform_on_small_cases() {
    let mut rng = XorShift64::new(99);
    let mut checked = 0;
    let mut tries = 0;
    while checked < 8 && tries < 200_000 {
        tries += 1;
        let v = variant(["", "players=3", "hand=5", "players=3,hand=4"][tries % 4]);
        let k = 10 + rng.below(40);
        let s = random_state(v, &mut rng, k);
        if s.round_over() || s.dealing() {
            continue;
        }
        let p = rng.below(s.players());
        let o = s.observation(p);
        let pl = placements(&o);
        if !(4.0..=3000.0).contains(&pl) {
            continue;
        }
        let all = enumerate(&o);
        if all.len() < 3 || all.len() > 60 || all.len() as f64 == pl {
            continue;
        }
        assert!(all.contains(&s), "the true state is among the enumerated");
        let index: HashMap<String, usize> = all.iter().enumerate().map(|(i, x)| (x.to_string(), i)).collect();
        let n = 400 * all.len();
        let mut counts = vec![0usize; all.len()];
        for _ in 0..n {
            let x = sample(&o, &mut || rng.next_u64());
            let i = *index
                .get(&x.to_string())
                .unwrap_or_else(|| panic!("sample {x} not among the consistent states of {o}"));
            counts[i] += 1;
        }
        let e = n as f64 / all.len() as f64;
        let chi: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
        let df = (all.len() - 1) as f64;
        println!("{o}: {} of {pl} placements consistent; chi2 {chi:.1} df {df}", all.len());
        assert!(chi < df + 6.0 * (2.0 * df).sqrt(), "chi2 {chi} df {df} for {o}");
        checked += 1;
    }
    assert_eq!(checked, 8, "found enough small cases");
}

/// Trap 1: the opener's inference holds at the time of the deal. Player 1
/// draws 6-6 after 5-5 opened: he holds a double above the opening double,
/// and that is consistent (a check on today's hands would reject it).
#[test]
fn opener_inference_holds_at_the_deal_only() {
    let v = variant("");
    let mut s = deal(v, &["5-5 6-5 6-4 6-3 6-2 6-1 4-0", "0-0 1-0 2-0 3-0 2-1 3-1 3-2"]);
    play(&mut s, "5-5L +6-6 +5-0 5-0L");
    assert!(s.hand(1).contains("6-6".parse().unwrap()));
    assert!(naive_rejects(&s));
    for p in 0..2 {
        assert!(s.observation(p).is_consistent(&s));
    }
    let o = s.observation(0);
    let mut rng = XorShift64::new(3);
    let mut with = 0;
    for _ in 0..2000 {
        let x = sample(&o, &mut || rng.next_u64());
        assert!(o.is_consistent(&x));
        // 6-6 could not have been dealt: if player 1 holds it, it was his one non-matching draw.
        if x.hand(1).contains("6-6".parse().unwrap()) {
            with += 1;
            assert!(x.hand(1).iter().all(|t| !t.has(5)));
        }
        // No tile carrying 5 in player 1's hand: he held none before drawing, his first draw did not match.
        assert!(x.hand(1).intersection(TileSet::with_number(5)).is_empty());
    }
    assert!(with > 0, "6-6 in player 1's hand is sampled");
}

/// Trap 2: the tile played after drawing is the last drawn, so the other
/// drawn tiles did not match; a pass after drawing means no drawn tile
/// matched. States breaking either are rejected.
#[test]
fn implied_inferences_reject_states() {
    let v = variant("");
    let mut s = deal(v, &["5-5 6-5 6-4 6-3 6-2 6-1 4-0", "0-0 1-0 2-0 3-0 2-1 3-1 3-2"]);
    play(&mut s, "5-5L +6-6 +5-0 5-0L");
    let o = s.observation(0);
    // Swap player 1's drawn 6-6 for 5-3 from the boneyard: 5-3 would have matched before 5-0 was drawn.
    let h1 = s.hand(1).minus(set("6-6")).union(set("5-3"));
    let stock = s.boneyard().minus(set("5-3")).union(set("6-6"));
    let x = fill(&o, &[s.hand(0), h1], stock).expect("a well-formed state");
    assert!(!o.is_consistent(&x), "a matching tile among the first drawn");
    // A pass after drawing: player 0 holds only sixes and 4-0, the chain shows 0|5 ... build by play.
    let mut s = deal(v, &["6-6 6-5 6-4 6-3 6-2 6-1 5-5", "0-0 1-1 2-2 3-3 1-0 2-0 2-1"]);
    play(&mut s, "6-6L");
    for t in ["4-4", "5-4", "5-3", "5-2", "5-1", "5-0", "4-3", "4-2", "4-1", "4-0", "3-2", "3-1", "3-0"] {
        play(&mut s, &format!("+{t}"));
    }
    play(&mut s, "+6-0 6-0L");
    // Player 1 drew all 14 and played the last one; player 0 now plays on 0|6.
    let o = s.observation(0);
    assert!(o.is_consistent(&s));
    // Player 1 cannot hold a 6 (none before drawing, none among the first 13 drawn).
    let mut rng = XorShift64::new(4);
    for _ in 0..200 {
        let x = sample(&o, &mut || rng.next_u64());
        assert!(x.hand(1).intersection(TileSet::with_number(6)).is_empty());
    }
    // Pass after drawing: from a fresh deal, player 1 draws all 14 and passes.
    let mut s = deal(v, &["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "0-0 1-1 2-2 3-3 1-0 2-0 2-1"]);
    play(&mut s, "6-6L");
    for t in ["4-4", "5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "4-3", "4-2", "4-1", "4-0", "3-2", "3-1", "3-0"] {
        play(&mut s, &format!("+{t}"));
    }
    play(&mut s, "pass");
    let o = s.observation(0);
    assert!(o.is_consistent(&s));
    assert_eq!(s.history().nth(1).unwrap().drawn, 14);
}

/// Observations hide what they must: another player's observation text
/// never names a tile of a hidden hand or of the boneyard.
#[test]
fn observation_hides_the_hidden() {
    let mut rng = XorShift64::new(8);
    for text in VARIANTS {
        for _ in 0..200 {
            let k = 5 + rng.below(40);
            let s = random_state(variant(text), &mut rng, k);
            if s.round_over() {
                continue;
            }
            for p in 0..s.players() {
                let o = s.observation(p);
                let t = o.to_string();
                for q in 0..s.players() {
                    if q != p {
                        for tile in s.hand(q).iter() {
                            let w = tile.to_string();
                            // A hidden tile can appear only as a played tile of the history, which it is not.
                            assert!(
                                !t.split([' ', '/', '.', ',', ':'])
                                    .any(|x| x == w || x.starts_with(&w) && x.len() == 4),
                                "{w} in {t}"
                            );
                        }
                    }
                }
                assert!(o.known_hand(p).is_some());
            }
        }
    }
}

/// The exact enumeration (`Sampler::consistent_states`) against brute
/// force (every placement through the text and `is_consistent`): the same
/// states, each once, the true state among them; over the limit it refuses
/// with the placement count.
#[test]
fn consistent_states_match_brute_force() {
    let mut rng = XorShift64::new(7);
    let (mut checked, mut pruned, mut tries) = (0, 0, 0);
    while checked < 60 && tries < 100_000 {
        tries += 1;
        let v = variant(["", "players=3", "hand=5", "players=3,hand=4", "players=4"][tries % 5]);
        let k = 8 + rng.below(40);
        let s = random_state(v, &mut rng, k);
        if s.round_over() || s.dealing() {
            continue;
        }
        let p = rng.below(s.players());
        let o = s.observation(p);
        if placements(&o) > 5000.0 {
            continue;
        }
        let sampler = dominoes_rules::Sampler::new(&o);
        let got = sampler.consistent_states(5000).expect("under the limit");
        let mut want: Vec<String> = enumerate(&o).iter().map(ToString::to_string).collect();
        let mut texts: Vec<String> = got.iter().map(ToString::to_string).collect();
        for x in &got {
            assert_eq!(x.hash(), x.recompute_hash());
        }
        want.sort();
        texts.sort();
        let n = texts.len();
        texts.dedup();
        assert_eq!(texts.len(), n, "each state once: {o}");
        assert_eq!(texts, want, "{o}");
        assert!(got.contains(&s), "the true state: {o}");
        if (want.len() as f64) < placements(&o) {
            pruned += 1;
        }
        if sampler.placements() > 1 {
            assert_eq!(sampler.consistent_states(sampler.placements() - 1), Err(sampler.placements()));
        }
        checked += 1;
    }
    assert_eq!(checked, 60, "found enough small cases");
    assert!(pruned >= 5, "the full check rejects some placements in {pruned} cases");
}
