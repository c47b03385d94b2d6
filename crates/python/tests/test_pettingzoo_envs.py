"""Every game of the catalog as a PettingZoo AEC environment
(`senat.pettingzoo`), through PettingZoo's own `api_test` and `seed_test`.
`pettingzoo` comes from PyPI (`.ci/run` installs it); the module is
skipped, loudly, without it.
"""

import warnings

import numpy as np
import pytest

import senat

pytest.importorskip("pettingzoo", reason="!! pettingzoo is not installed: the PettingZoo environments are NOT checked")
from pettingzoo.test import api_test, seed_test  # noqa: E402

import senat.pettingzoo as sp  # noqa: E402

CASES = [(g, {}) for g in senat.GAMES] + [("dominoes", {"players": 3}), ("focus", {"fix": "swap"})]


@pytest.mark.parametrize("game, variant", CASES)
def test_api_and_seed(game, variant):
    with warnings.catch_warnings():
        # PettingZoo warns on every dict observation of an environment it
        # does not list by name (its own classic games are listed).
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        api_test(sp.env(game, **variant), num_cycles=60)
        seed_test(lambda: sp.env(game, **variant), num_cycles=60)


def test_a_game_to_the_end_with_masks_rewards_and_render():
    env = sp.env("connect4", render_mode="ansi", width=5, height=4)
    env.reset(seed=3)
    assert env.render().startswith(". . . . .")
    rng = np.random.default_rng(3)
    moves = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        assert obs["observation"].shape == (3, 4, 5) and obs["action_mask"].dtype == np.int8
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        moves += 1
    assert 7 <= moves <= 20
    assert sum(env.unwrapped.rewards.values()) == 0


@pytest.mark.parametrize("game", list(senat.GAMES))
def test_rgb_array_renders_the_board_picture(game):
    env = sp.env(game, render_mode="rgb_array")
    env.reset(seed=1)
    before = env.render()
    assert before.dtype == np.uint8 and before.ndim == 3 and before.shape[2] == 3
    assert before.shape[0] >= 100 and before.shape[1] >= 100, before.shape
    assert len(np.unique(before.reshape(-1, 3), axis=0)) > 3, "a picture, not a blank"
    # A move (or a deal) changes the picture (its SVG, which the pixels are).
    svg = env.unwrapped.position.picture()
    assert svg.lstrip().startswith("<svg")
    for _ in range(2):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.unwrapped.position.picture() != svg, game


def test_dominoes_chance_is_seeded_and_hidden():
    a, b = sp.env("dominoes"), sp.env("dominoes")
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.unwrapped.position == b.unwrapped.position
    b.reset(seed=6)
    assert a.unwrapped.position != b.unwrapped.position
    o0, o1 = a.observe("player_0"), a.observe("player_1")
    assert not np.array_equal(o0["observation"], o1["observation"])
    with pytest.raises(senat.Error, match="unknown variant key"):
        sp.env("dominoes", colour="red")


def test_a_single_agent_environment_against_an_agent():
    from gymnasium.utils.env_checker import check_env

    env = sp.SingleAgentEnv("connect4", opponent="greedy", seat=1, width=5, height=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=2)
    assert env.unwrapped._aec.position.current_player == 1
    done, reward = False, 0.0
    while not done:
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, reward, done, _, _ = env.step(action)
    assert reward in (-1.0, 0.0, 1.0)
    d = sp.SingleAgentEnv("dominoes", opponent="greedy", seat=0)
    obs, _ = d.reset(seed=4)
    assert obs["action_mask"].any()
    with pytest.raises(senat.Error, match="seat=2"):
        sp.SingleAgentEnv("senat", seat=2)
