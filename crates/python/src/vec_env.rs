//! `senat.VecEnv`: the catalog's array batch ([`catalog::VecEnv`]) with
//! NumPy arrays: N games of one kind stepped by one call, no Python loop
//! per game.
//!
//! What this module must never do: play, encode or choose anything itself
//! (the lab's batch does); it owns the NumPy arrays the batch writes into
//! and converts the arguments.

use crate::{err, kind, lab, whole};
use numpy::{PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use senat_lab::catalog;
use senat_lab::games::GameKind;

/// N games of one kind stepped at once in Rust, with NumPy arrays.
///
/// `VecEnv(game, n, seed=None, **variant)`: `n` games of `game` (a name of
/// `senat.GAMES`) under the variant keys `variant` (as
/// `senat.variant_help(game)` lists them, e.g. `width=5` for connect4),
/// chance and `random_actions` drawn from `seed` (None: from the clock).
///
/// The arrays, owned by the environment and overwritten in place by every
/// call (copy one to keep it): `obs` (n × tensor_shape, float32, each
/// game as its player to move sees it), `mask` (n × num_actions, bool, the
/// legal actions), `rewards` (n × num_players, float32: the zero-sum
/// returns of a game that ended at this step, else 0), `dones` (n, bool)
/// and `to_play` (n, int64: the player to move). Do not write into them.
///
/// Auto-reset in the same step (as Stable-Baselines3's `VecEnv`, not
/// Gymnasium's next-step reset): a step that ends game `i` sets `dones[i]`
/// and `rewards[i]`, and game `i` is already restarted, so `obs[i]`,
/// `mask[i]` and `to_play[i]` are its next game's first decision. Chance
/// (dominoes' deals and draws) is drawn inside, so every game waits for a
/// player.
#[pyclass(module = "senat", name = "VecEnv")]
pub struct VecEnv {
    game: GameKind,
    variant: String,
    env: catalog::VecEnv,
    obs: Py<PyArrayDyn<f32>>,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    dones: Py<PyArray1<bool>>,
    to_play: Py<PyArray1<i64>>,
}

/// The arrays' tuple that `reset` and `step` return.
type Arrays = (Py<PyArrayDyn<f32>>, Py<PyArray2<bool>>, Py<PyArray2<f32>>, Py<PyArray1<bool>>, Py<PyArray1<i64>>);

/// A seed from the clock, for `seed=None`.
fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
}

/// `seed` as a whole number, or one from the clock.
fn seed_of(seed: Option<i128>) -> PyResult<u64> {
    seed.map_or_else(|| Ok(clock_seed()), |s| whole("seed", s))
}

impl VecEnv {
    /// Runs `f` on the batch with the arrays borrowed as slices (`observe`:
    /// with the observations).
    fn with<T>(
        &mut self,
        py: Python<'_>,
        observe: bool,
        f: impl FnOnce(&mut catalog::VecEnv, &mut catalog::vec_env::Buffers<'_>) -> PyResult<T>,
    ) -> PyResult<T> {
        let mut obs = self.obs.bind(py).try_readwrite().map_err(|e| err(format_args!("obs: {e}")))?;
        let mut mask = self.mask.bind(py).try_readwrite().map_err(|e| err(format_args!("mask: {e}")))?;
        let mut rewards = self.rewards.bind(py).try_readwrite().map_err(|e| err(format_args!("rewards: {e}")))?;
        let mut dones = self.dones.bind(py).try_readwrite().map_err(|e| err(format_args!("dones: {e}")))?;
        let mut to_play = self.to_play.bind(py).try_readwrite().map_err(|e| err(format_args!("to_play: {e}")))?;
        let slice = |e: numpy::AsSliceError| err(format_args!("the arrays must stay contiguous: {e}"));
        let obs = obs.as_slice_mut().map_err(slice)?;
        let mut b = catalog::vec_env::Buffers {
            obs: if observe { Some(obs) } else { None },
            mask: mask.as_slice_mut().map_err(slice)?,
            rewards: rewards.as_slice_mut().map_err(slice)?,
            dones: dones.as_slice_mut().map_err(slice)?,
            to_play: to_play.as_slice_mut().map_err(slice)?,
        };
        f(&mut self.env, &mut b)
    }

    /// The five arrays.
    fn arrays(&self, py: Python<'_>) -> Arrays {
        (
            self.obs.clone_ref(py),
            self.mask.clone_ref(py),
            self.rewards.clone_ref(py),
            self.dones.clone_ref(py),
            self.to_play.clone_ref(py),
        )
    }
}

#[pymethods]
impl VecEnv {
    /// `n` games of `game` under the variant keys `variant`; raises
    /// `senat.Error` for a bad game, variant or `n`. The games start reset.
    #[new]
    #[pyo3(signature = (game, n, seed = None, **variant))]
    fn new(
        py: Python<'_>,
        game: &str,
        n: i128,
        seed: Option<i128>,
        variant: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VecEnv> {
        let k = kind(game)?;
        let n: usize = whole("n", n)?;
        let mut keys = Vec::new();
        if let Some(d) = variant {
            for (key, value) in d.iter() {
                keys.push(format!("{}={}", key.str()?, value.str()?));
            }
        }
        keys.sort();
        let variant = keys.join(",");
        let env = lab(catalog::VecEnv::new(k, &variant, n, seed_of(seed)?))?;
        let e = env.encoding().clone();
        let mut shape = vec![n];
        shape.extend(&e.tensor_shape);
        let mut v = VecEnv {
            game: k,
            variant,
            obs: PyArrayDyn::<f32>::zeros(py, shape, false).unbind(),
            mask: PyArray2::<bool>::zeros(py, [n, e.actions], false).unbind(),
            rewards: PyArray2::<f32>::zeros(py, [n, e.players], false).unbind(),
            dones: PyArray1::<bool>::zeros(py, n, false).unbind(),
            to_play: PyArray1::<i64>::zeros(py, n, false).unbind(),
            env,
        };
        v.with(py, true, |env, b| lab(env.reset(b)))?;
        Ok(v)
    }

    /// Restarts every game (`seed`: a new generator, else the current one
    /// goes on) and returns `(obs, mask, rewards, dones, to_play)`, rewards
    /// and dones all 0.
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<i128>) -> PyResult<Arrays> {
        if let Some(s) = seed {
            self.env = lab(catalog::VecEnv::new(self.game, &self.variant, self.env.len(), whole("seed", s)?))?;
        }
        self.with(py, true, |env, b| lab(env.reset(b)))?;
        Ok(self.arrays(py))
    }

    /// Plays `actions[i]` (an int64 array or a sequence of ints, one per
    /// game, each legal in `mask[i]`) in every game and returns `(obs,
    /// mask, rewards, dones, to_play)`, the environment's own arrays.
    /// Raises `senat.Error` naming the first illegal action, with no game
    /// moved.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<Arrays> {
        let owned: Vec<i64>;
        let readonly: PyReadonlyArray1<i64>;
        let acts: &[i64] = match actions.extract::<PyReadonlyArray1<i64>>() {
            Ok(a) => {
                readonly = a;
                match readonly.as_slice() {
                    Ok(s) => s,
                    Err(_) => {
                        owned = readonly.as_array().to_vec();
                        &owned
                    }
                }
            }
            Err(_) => {
                owned = actions
                    .extract::<Vec<i64>>()
                    .map_err(|_| err("actions: expected an int64 array or a sequence of ints, one per game"))?;
                &owned
            }
        };
        self.with(py, true, |env, b| lab(env.step(acts, b)))?;
        Ok(self.arrays(py))
    }

    /// A legal action of every game, drawn uniformly (int64 array of n).
    fn random_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let mut out = vec![0i64; self.env.len()];
        lab(self.env.random_actions(&mut out))?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// Plays `steps` rounds of uniformly random legal actions in every game
    /// without returning to Python (`steps × n` plies) and returns how many
    /// games ended. Afterwards `rewards` holds the sum of the returns of
    /// the games that ended, `dones` which games ended at least once, and
    /// the other arrays the last position. `observe=False` skips the
    /// observation tensors (and masks) until the end, then writes the
    /// masks only: the mode without observations, for measuring the rules
    /// alone. Runs without the interpreter's lock, in slices of about
    /// 65,536 plies between which Ctrl-C (KeyboardInterrupt) stops it.
    #[pyo3(signature = (steps, observe = true))]
    fn step_random(&mut self, py: Python<'_>, steps: i128, observe: bool) -> PyResult<u64> {
        let steps: u64 = whole("steps", steps)?;
        let chunk = (65_536 / self.env.len() as u64).max(1);
        let mut left = steps;
        let mut ended = 0;
        while left > 0 {
            let now = left.min(chunk);
            ended += self.with(py, observe, |env, b| py.detach(|| lab(env.step_random(now, b))))?;
            left -= now;
            py.check_signals()?;
        }
        Ok(ended)
    }

    /// The observations (n × tensor_shape, float32).
    #[getter]
    fn obs(&self, py: Python<'_>) -> Py<PyArrayDyn<f32>> {
        self.obs.clone_ref(py)
    }
    /// The legal-action masks (n × num_actions, bool).
    #[getter]
    fn mask(&self, py: Python<'_>) -> Py<PyArray2<bool>> {
        self.mask.clone_ref(py)
    }
    /// The returns of the games that ended at the last step (n × num_players, float32).
    #[getter]
    fn rewards(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.rewards.clone_ref(py)
    }
    /// Which games ended at the last step (n, bool).
    #[getter]
    fn dones(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.dones.clone_ref(py)
    }
    /// The player to move in each game (n, int64).
    #[getter]
    fn to_play(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.to_play.clone_ref(py)
    }
    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.game.name()
    }
    /// The variant text built from the keyword arguments (sorted `k=v`).
    #[getter]
    fn variant(&self) -> String {
        self.variant.clone()
    }
    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.env.len()
    }
    /// The number of distinct action ids (the mask's width).
    #[getter]
    fn num_actions(&self) -> usize {
        self.env.encoding().actions
    }
    /// The number of players (the rewards' width).
    #[getter]
    fn num_players(&self) -> usize {
        self.env.encoding().players
    }
    /// The shape of one game's observation tensor.
    #[getter]
    fn tensor_shape(&self) -> Vec<usize> {
        self.env.encoding().tensor_shape.clone()
    }
    /// The number of games.
    fn __len__(&self) -> usize {
        self.env.len()
    }
    fn __repr__(&self) -> String {
        format!("senat.VecEnv({:?}, {}, variant={:?})", self.game.name(), self.env.len(), self.variant)
    }
}
