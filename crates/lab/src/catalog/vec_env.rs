//! [`VecEnv`]: N games of one kind stepped at once by integer actions, for
//! the array front ends (the Python package's `senat.VecEnv`): each call
//! moves every game one ply (or many random plies) and writes the results
//! into flat arrays the caller owns: observation tensors, legal-action
//! masks, rewards, dones and the player to move.
//!
//! The encoding is the one of [`crate::games::encode`] ([`Encoded`]), the
//! same the catalog's [`super::Position`] gives one position at a time;
//! nothing here knows a game. Chance (a dominoes deal or draw) is sampled
//! from the batch's generator, so every game the caller sees waits for a
//! player's decision.
//!
//! Auto-reset, same step: a step that ends game `i` writes its returns into
//! `rewards[i]` and sets `dones[i]`, and game `i` is already restarted, so
//! the observation, mask and player to move written for `i` are the new
//! game's first decision (the convention of Stable-Baselines3's `VecEnv`,
//! not Gymnasium's next-step reset); the finished game's last position is
//! not written.
//!
//! What this module must never do: encode a rule or a tensor itself (the
//! games' [`Encoded`] adapters do), allocate per ply, or panic on a bad
//! action (a refusal names the game and the action).

use super::{CatalogError, Position};
use crate::games::GameKind;
use crate::games::dominoes::Dominoes;
use crate::games::encode::{Encoded, Encoding, zero_sum};
use crate::games::senat::{Senat as SenatGame, SenatState};
use game_search::mcts::draw;
use game_search::rng::{GameRng, below, rng_from_seed};

/// The arrays one call writes, each flat, row by row (game `i`'s row is
/// `i * width ..`): the caller's, so that a front end can hand over its
/// own (NumPy) memory.
pub struct Buffers<'a> {
    /// `n × tensor_len` observation tensors, each as the player to move
    /// sees the game; `None`: not written (the mode without observations).
    pub obs: Option<&'a mut [f32]>,
    /// `n × actions` legal-action masks, true for a legal action. Only the
    /// entries this batch set are cleared at the next step: the caller
    /// must not write into it.
    pub mask: &'a mut [bool],
    /// `n × players` returns of the game that ended at this step
    /// (zero-sum, [`zero_sum`]), 0 where no game ended.
    pub rewards: &'a mut [f32],
    /// `n`: true where a game ended at this step (and was restarted).
    pub dones: &'a mut [bool],
    /// `n`: the player to move in each game.
    pub to_play: &'a mut [i64],
}

/// N games of one kind, stepped together.
pub struct VecEnv {
    encoding: Encoding,
    len: usize,
    inner: Box<dyn Batch>,
}

impl std::fmt::Debug for VecEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VecEnv").field("len", &self.len).field("encoding", &self.encoding).finish()
    }
}

impl VecEnv {
    /// `n` games of `game` from the start of `variant` (the `--variant`
    /// text), chance drawn from `seed`. Refused for `n` = 0, an unreadable
    /// variant, or a start that is already over.
    pub fn new(game: GameKind, variant: &str, n: usize, seed: u64) -> Result<VecEnv, CatalogError> {
        if n == 0 {
            return Err(CatalogError::Refused("n=0: a batch needs at least one game".into()));
        }
        let start = Position::read(game, "start", variant)?;
        let encoding = start.encoding();
        let face = start.face().as_any();
        let state_of = |what: &str| CatalogError::Refused(format!("{game}: no {what} state at its start"));
        let inner: Box<dyn Batch> = crate::on_game!(game, G => {
            let s = face.downcast_ref::<super::position::Lab<G>>().ok_or_else(|| state_of("lab"))?.0;
            Box::new(Lanes::<G>::new(s, n, seed)?)
        },
        senat => {
            let rec = face.downcast_ref::<super::position::Senat>().ok_or_else(|| state_of("Sénat"))?;
            Box::new(Lanes::<SenatGame>::new(SenatState::from_game(&rec.0), n, seed)?)
        },
        dominoes => {
            let s = face.downcast_ref::<super::position::Domino>().ok_or_else(|| state_of("dominoes"))?.0;
            Box::new(Lanes::<Dominoes>::new(s, n, seed)?)
        });
        Ok(VecEnv { encoding, len: n, inner })
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Never: a batch has at least one game.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The sizes of the variant's encoding: the arrays' widths.
    pub fn encoding(&self) -> &Encoding {
        &self.encoding
    }

    /// Restarts every game (a fresh deal for dominoes) and writes every
    /// array whole (the masks cleared first), `rewards` and `dones` 0.
    pub fn reset(&mut self, out: &mut Buffers<'_>) -> Result<(), CatalogError> {
        self.check(out)?;
        self.inner.reset(out);
        Ok(())
    }

    /// Plays `actions[i]` in game `i`, for every game, then writes the
    /// arrays (auto-reset in the same step: the module's comment). Refused,
    /// with no game moved, if an action is not legal in its game.
    pub fn step(&mut self, actions: &[i64], out: &mut Buffers<'_>) -> Result<(), CatalogError> {
        self.check(out)?;
        if actions.len() != self.len {
            return Err(CatalogError::Refused(format!(
                "actions: {} given for {} games (one per game)",
                actions.len(),
                self.len
            )));
        }
        self.inner.step(actions, out)
    }

    /// Writes into `out` (one per game) a legal action of each game, drawn
    /// uniformly from the batch's generator.
    pub fn random_actions(&mut self, out: &mut [i64]) -> Result<(), CatalogError> {
        if out.len() != self.len {
            return Err(CatalogError::Refused(format!("{} places for {} games", out.len(), self.len)));
        }
        self.inner.random_actions(out);
        Ok(())
    }

    /// Plays `steps` rounds of a uniformly random legal action in every
    /// game, without leaving Rust; `rewards` sums the returns of the games
    /// that ended, `dones` says which games ended at least once, and the other arrays show
    /// the last position. With `out.obs` `None`, no tensor is computed
    /// until the end (then none). Returns the number of games that ended.
    pub fn step_random(&mut self, steps: u64, out: &mut Buffers<'_>) -> Result<u64, CatalogError> {
        self.check(out)?;
        Ok(self.inner.step_random(steps, out))
    }

    /// Refuses arrays of the wrong sizes.
    fn check(&self, out: &Buffers<'_>) -> Result<(), CatalogError> {
        let (n, e) = (self.len, &self.encoding);
        let sizes = [
            ("obs", out.obs.as_ref().map_or(n * e.tensor_len(), |o| o.len()), n * e.tensor_len()),
            ("mask", out.mask.len(), n * e.actions),
            ("rewards", out.rewards.len(), n * e.players),
            ("dones", out.dones.len(), n),
            ("to_play", out.to_play.len(), n),
        ];
        for (name, got, want) in sizes {
            if got != want {
                return Err(CatalogError::Refused(format!("{name}: {got} entries, expected {want}")));
            }
        }
        Ok(())
    }
}

/// The batch's verbs, whatever its game.
trait Batch: Send + Sync {
    fn reset(&mut self, out: &mut Buffers<'_>);
    fn step(&mut self, actions: &[i64], out: &mut Buffers<'_>) -> Result<(), CatalogError>;
    fn random_actions(&mut self, out: &mut [i64]);
    fn step_random(&mut self, steps: u64, out: &mut Buffers<'_>) -> u64;
}

/// The games of one kind `G`, each with its legal moves and their ids.
struct Lanes<G: Encoded> {
    start: G::State,
    states: Vec<G::State>,
    /// Each game's legal moves, and their ids in the same order: the ids
    /// set in the game's mask row.
    moves: Vec<Vec<G::Move>>,
    ids: Vec<Vec<u32>>,
    encoding: Encoding,
    rng: GameRng,
    chance: Vec<(G::Move, f64)>,
    /// Each game's move index of its action at this step.
    picks: Vec<usize>,
}

impl<G: Encoded> Lanes<G>
where
    G::State: Send + Sync,
    G::Move: Send + Sync,
{
    fn new(start: G::State, n: usize, seed: u64) -> Result<Lanes<G>, CatalogError> {
        let encoding = G::encoding(&start);
        let mut lanes: Lanes<G> = Lanes {
            states: vec![start.clone(); n],
            start,
            moves: (0..n).map(|_| Vec::new()).collect(),
            ids: (0..n).map(|_| Vec::new()).collect(),
            encoding,
            rng: rng_from_seed(seed),
            chance: Vec::new(),
            picks: vec![0; n],
        };
        // A start that is over (or has no decision after chance) would
        // restart forever.
        let mut s: G::State = lanes.start.clone();
        lanes.settle(&mut s);
        let mut v = Vec::new();
        G::moves(&s, &mut v);
        if v.is_empty() {
            return Err(CatalogError::Refused("this variant's start has no decision to make".into()));
        }
        Ok(lanes)
    }

    /// Plays chance outcomes, drawn by their probabilities, until a player
    /// is to decide (or the game is over).
    fn settle(&mut self, s: &mut G::State) {
        while G::is_chance(s) {
            G::chance_outcomes(s, &mut self.chance);
            let m = draw(&mut self.rng, self.chance.iter().map(|c| c.1)).map(|k| self.chance[k].0);
            match m {
                Some(m) => *s = G::apply(s, m),
                None => break,
            }
        }
    }

    /// Plays the `k`-th legal move of game `i`; if that ends the game,
    /// writes its returns, restarts it and returns true.
    fn play(&mut self, i: usize, k: usize, rewards: &mut [f32]) -> bool {
        let mut s = G::apply(&self.states[i], self.moves[i][k]);
        self.settle(&mut s);
        let moves = &mut self.moves[i];
        let ended = match G::result_unless_blocked(&s) {
            Some(r) => Some(r),
            None => {
                G::moves(&s, moves);
                if moves.is_empty() { G::result(&s) } else { None }
            }
        };
        let players = self.encoding.players;
        if let Some(r) = ended {
            for (x, v) in rewards[i * players..][..players].iter_mut().zip(zero_sum(&r, players)) {
                *x += v as f32;
            }
            s = self.start.clone();
            self.settle(&mut s);
            G::moves(&s, &mut self.moves[i]);
        }
        self.states[i] = s;
        ended.is_some()
    }

    /// Writes game `i`'s mask row (clearing the ids it set before), player
    /// to move and, with `obs`, tensor, from its legal moves.
    fn show(&mut self, i: usize, out: &mut Buffers<'_>, observe: bool) {
        let (s, a) = (&self.states[i], self.encoding.actions);
        let row = &mut out.mask[i * a..][..a];
        let ids = &mut self.ids[i];
        for &id in ids.iter() {
            row[id as usize] = false;
        }
        ids.clear();
        for &m in &self.moves[i] {
            let id = G::action_id(s, m);
            ids.push(id as u32);
            if let Some(x) = row.get_mut(id) {
                *x = true;
            }
        }
        let p = G::to_move(s);
        out.to_play[i] = p as i64;
        if observe && let Some(obs) = out.obs.as_deref_mut() {
            let t = self.encoding.tensor_len();
            G::tensor(s, p, &mut obs[i * t..][..t]);
        }
    }
}

impl<G: Encoded> Batch for Lanes<G>
where
    G::State: Send + Sync,
    G::Move: Send + Sync,
{
    fn reset(&mut self, out: &mut Buffers<'_>) {
        out.mask.fill(false);
        out.rewards.fill(0.0);
        out.dones.fill(false);
        for i in 0..self.states.len() {
            let mut s = self.start.clone();
            self.settle(&mut s);
            G::moves(&s, &mut self.moves[i]);
            self.states[i] = s;
            self.ids[i].clear();
            self.show(i, out, true);
        }
    }

    fn step(&mut self, actions: &[i64], out: &mut Buffers<'_>) -> Result<(), CatalogError> {
        for (i, &a) in actions.iter().enumerate() {
            let k = self.ids[i].iter().position(|&id| i64::from(id) == a);
            self.picks[i] = k.ok_or_else(|| {
                CatalogError::Refused(format!("actions[{i}] = {a}: not a legal action of game {i} (see mask[{i}])"))
            })?;
        }
        out.rewards.fill(0.0);
        for i in 0..self.states.len() {
            out.dones[i] = self.play(i, self.picks[i], out.rewards);
            self.show(i, out, true);
        }
        Ok(())
    }

    fn random_actions(&mut self, out: &mut [i64]) {
        for (i, x) in out.iter_mut().enumerate() {
            let ids = &self.ids[i];
            *x = ids.get(below(&mut self.rng, ids.len().max(1))).map_or(-1, |&id| i64::from(id));
        }
    }

    fn step_random(&mut self, steps: u64, out: &mut Buffers<'_>) -> u64 {
        let observe = out.obs.is_some();
        out.rewards.fill(0.0);
        out.dones.fill(false);
        let mut ended = 0;
        for _ in 0..steps {
            for i in 0..self.states.len() {
                let k = below(&mut self.rng, self.moves[i].len());
                if self.play(i, k, out.rewards) {
                    out.dones[i] = true;
                    ended += 1;
                }
                if observe {
                    self.show(i, out, true);
                }
            }
        }
        if !observe {
            out.mask.fill(false);
            for i in 0..self.states.len() {
                self.ids[i].clear();
                self.show(i, out, false);
            }
        }
        ended
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Owned arrays for `env`.
    struct Owned {
        obs: Vec<f32>,
        mask: Vec<bool>,
        rewards: Vec<f32>,
        dones: Vec<bool>,
        to_play: Vec<i64>,
    }

    impl Owned {
        fn new(env: &VecEnv) -> Owned {
            let (n, e) = (env.len(), env.encoding());
            Owned {
                obs: vec![0.0; n * e.tensor_len()],
                mask: vec![false; n * e.actions],
                rewards: vec![0.0; n * e.players],
                dones: vec![false; n],
                to_play: vec![0; n],
            }
        }
        fn buffers(&mut self, observe: bool) -> Buffers<'_> {
            Buffers {
                obs: if observe { Some(&mut self.obs) } else { None },
                mask: &mut self.mask,
                rewards: &mut self.rewards,
                dones: &mut self.dones,
                to_play: &mut self.to_play,
            }
        }
    }

    /// Every game: the batch's arrays are what the catalog's one-position
    /// face gives for the same games played by the same actions (mask =
    /// legal actions, obs = tensor of the player to move, rewards =
    /// returns at the end, then the start again).
    #[test]
    fn every_game_steps_as_the_catalog_plays() {
        for game in GameKind::ALL {
            let n = 3;
            let mut env = VecEnv::new(game, "", n, 5).unwrap();
            let mut a = Owned::new(&env);
            env.reset(&mut a.buffers(true)).unwrap();
            let e = env.encoding().clone();
            let (t, na) = (e.tensor_len(), e.actions);
            // Mirror games through the catalog (dominoes' chance comes from
            // the batch's generator: compare its arrays only).
            let perfect = game != GameKind::Dominoes;
            let mut mirror: Vec<Position> = (0..n).map(|_| Position::read(game, "start", "").unwrap()).collect();
            let mut actions = vec![0i64; n];
            let mut ended = 0;
            for _ in 0..300 {
                for (i, p) in mirror.iter().enumerate() {
                    let legal: Vec<usize> = (0..na).filter(|&x| a.mask[i * na + x]).collect();
                    assert!(!legal.is_empty(), "{game}");
                    if perfect {
                        assert_eq!(legal, p.legal_actions(), "{game}");
                        let seat = a.to_play[i] as usize;
                        assert_eq!(&a.obs[i * t..][..t], &p.tensor(seat).unwrap()[..], "{game}");
                    }
                }
                env.random_actions(&mut actions).unwrap();
                env.step(&actions, &mut a.buffers(true)).unwrap();
                for i in 0..n {
                    let row = &a.rewards[i * e.players..][..e.players];
                    if perfect {
                        let next = mirror[i].play_action(actions[i] as usize).unwrap();
                        if next.is_over() {
                            let r: Vec<f32> = next.returns().iter().map(|&x| x as f32).collect();
                            assert_eq!(row, &r[..], "{game}");
                            mirror[i] = Position::read(game, "start", "").unwrap();
                        } else {
                            mirror[i] = next;
                        }
                    }
                    if a.dones[i] {
                        ended += 1;
                        assert!((row.iter().sum::<f32>()).abs() < 1e-5, "{game}: {row:?}");
                    } else {
                        assert!(row.iter().all(|&x| x == 0.0), "{game}");
                    }
                }
            }
            assert!(ended > 0 || game != GameKind::Connect4, "{game}");
            // An illegal action is refused, naming the game, and moves nothing.
            let before = a.mask.clone();
            let bad = (0..na as i64).find(|&x| !a.mask[x as usize]).unwrap_or(-1);
            actions[0] = bad;
            let e = env.step(&actions, &mut a.buffers(true)).unwrap_err().to_string();
            assert!(e.starts_with(&format!("actions[0] = {bad}:")), "{e}");
            assert_eq!(a.mask, before);
            // Random steps without observations leave masks that match a
            // stepped batch's: one legal action or more in each row.
            let done = env.step_random(50, &mut a.buffers(false)).unwrap();
            assert!(done < 50 * n as u64);
            for i in 0..n {
                assert!(a.mask[i * na..][..na].iter().any(|&x| x), "{game}");
            }
        }
    }

    #[test]
    fn bad_sizes_and_counts_are_refused() {
        assert!(VecEnv::new(GameKind::Connect4, "", 0, 1).unwrap_err().to_string().starts_with("n=0"));
        assert!(VecEnv::new(GameKind::Connect4, "width=99", 2, 1).is_err());
        let mut env = VecEnv::new(GameKind::Connect4, "", 2, 1).unwrap();
        let mut a = Owned::new(&env);
        a.dones.push(false);
        assert!(env.reset(&mut a.buffers(true)).unwrap_err().to_string().starts_with("dones: 3 entries"));
        a.dones.pop();
        env.reset(&mut a.buffers(true)).unwrap();
        assert!(env.step(&[0], &mut a.buffers(true)).unwrap_err().to_string().contains("1 given for 2 games"));
    }
}
