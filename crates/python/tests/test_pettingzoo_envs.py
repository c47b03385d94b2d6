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
