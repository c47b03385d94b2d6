"""`senat.VecEnv`: N games stepped at once in Rust, with NumPy arrays.
The arrays must agree with the one-position face (`senat.Position`'s
integer actions and tensors) game by game, and the refusals must name the
argument.
"""

import numpy as np
import pytest

import senat


@pytest.mark.parametrize("game", senat.GAMES)
def test_arrays_are_the_positions_face(game):
    n = 4
    env = senat.VecEnv(game, n, seed=3)
    obs, mask, rewards, dones, to_play = env.reset()
    assert obs.shape == (n, *env.tensor_shape) and obs.dtype == np.float32
    assert mask.shape == (n, env.num_actions) and mask.dtype == np.bool_
    assert rewards.shape == (n, env.num_players) and dones.shape == (n,) and to_play.dtype == np.int64
    start = senat.Position.start(game)
    if not start.is_chance:
        # Perfect information: every game is at the start, as the face says.
        for i in range(n):
            assert list(np.flatnonzero(mask[i])) == start.legal_actions()
            assert np.array_equal(obs[i].ravel(), np.asarray(start.tensor(start.current_player), np.float32))
    ended = 0
    for _ in range(60):
        actions = env.random_actions()
        assert all(mask[i, a] for i, a in enumerate(actions))
        obs, mask, rewards, dones, to_play = env.step(actions)
        assert mask.any(axis=1).all()
        assert np.allclose(rewards.sum(axis=1), 0.0)
        assert not rewards[~dones].any()
        ended += int(dones.sum())
    if game == "connect4":
        assert ended > 0


def test_step_random_with_and_without_observations():
    env = senat.VecEnv("connect4", 8, seed=1)
    ended = env.step_random(100)
    assert ended > 0 and env.dones.any()
    assert env.step_random(100, observe=False) > 0
    assert env.mask.any(axis=1).all()
    # The same seed gives the same games.
    a, b = senat.VecEnv("senat", 3, seed=9), senat.VecEnv("senat", 3, seed=9)
    a.step_random(200)
    b.step_random(200)
    assert np.array_equal(a.obs, b.obs) and np.array_equal(a.mask, b.mask)


def test_variant_keys_and_refusals():
    env = senat.VecEnv("connect4", 2, seed=1, width=5, height=4)
    assert env.variant == "height=4,width=5" and env.num_actions == 5 and env.tensor_shape == [3, 4, 5]
    with pytest.raises(senat.Error, match="n=0"):
        senat.VecEnv("connect4", 0)
    with pytest.raises(senat.Error, match="n=-1"):
        senat.VecEnv("connect4", -1)
    with pytest.raises(senat.Error, match="seed=-2"):
        senat.VecEnv("connect4", 1, seed=-2)
    with pytest.raises(senat.Error):
        senat.VecEnv("chess", 1)
    with pytest.raises(senat.Error, match="1 given for 2 games"):
        env.step([0])
    with pytest.raises(senat.Error, match="actions"):
        env.step("xy")
    full = senat.VecEnv("connect4", 1, seed=1, width=4, height=4)
    for _ in range(4):
        full.step([0])
    assert not full.mask[0, 0]
    with pytest.raises(senat.Error, match=r"actions\[0\] = 0: not a legal action"):
        full.step(np.array([0]))
