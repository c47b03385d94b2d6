"""Every game of the catalog as a PettingZoo AEC environment, played by the
Rust core.

    import senat.pettingzoo
    env = senat.pettingzoo.env("connect4", width=5, height=4)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

`env(game, render_mode=None, **variant)`: `game` is a name of
`senat.GAMES`, `variant` the keys of its variant text
(`senat.variant_help(game)`), e.g. `env("dominoes", players=3)`. The agents
are `player_0`, `player_1`... in the game's seat order (Sénat's red, then
blue). Each observation is a dict: `observation`, a `float32` array of the
game's tensor shape (the whole position for the games of perfect
information, the seat's own observation for dominoes), and `action_mask`,
an `int8` array over the game's integer actions with 1 on the legal ones
(all 0 for an agent not to move). Rewards are given once, at the end:
zero-sum, +1 a win, 0 a draw. Chance (dominoes' deals and draws) is played
inside the environment from the generator seeded by `reset(seed=…)`.
`render_mode="ansi"`: `render()` returns the board as `senat show --plain`
draws it (dominoes, which has no board drawing: the position text);
`render_mode="rgb_array"`: the board picture of `senat render` as a
`uint8` array of shape (height, width, 3) (`Position.picture_rgb()`;
dominoes with every hand face up).

`SingleAgentEnv(game, opponent="strong", seat=0, **variant)` is a
Gymnasium environment for training one seat against agents of the
package (`senat.Agent` specs, e.g. "play Sénat against `strong`"): the
other seats and chance move inside `step`, the observation and mask are
the seat's, the reward its return at the end.

What this module must never do: encode a rule or an action of a game (the
ids, masks and tensors come from the catalog's `senat.Position`; the
opponents' moves from `senat.Agent`).
"""

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from . import _senat


def env(game, render_mode=None, **variant):
    """The AEC environment of `game` with the variant keys `variant`,
    wrapped as PettingZoo's classic games are (actions out of range and
    calls out of order refused)."""
    e = raw_env(game, render_mode=render_mode, **variant)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def _variant_text(variant):
    return ",".join(f"{k}={v}" for k, v in sorted(variant.items()))


class raw_env(AECEnv):
    """A game of the catalog as an AEC environment (see the module's text)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "senat_v0", "is_parallelizable": False}

    def __init__(self, game, render_mode=None, **variant):
        super().__init__()
        if render_mode not in (None, "ansi", "rgb_array"):
            raise _senat.Error(f"render_mode `{render_mode}`: expected None, 'ansi' or 'rgb_array'")
        self.game = game
        self.render_mode = render_mode
        self._start = _senat.Position.start(game, _variant_text(variant))
        e = self._start.encoding()
        self._encoding = e
        self.metadata = dict(self.metadata, name=f"senat_{game}_v0")
        self.possible_agents = [f"player_{i}" for i in range(e["players"])]
        shape = tuple(e["tensor_shape"])
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=np.inf, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(e["actions"],), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(e["actions"]) for a in self.possible_agents}
        self.position = self._start
        self._rng = np.random.default_rng()

    def __str__(self):
        return self.metadata["name"]

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        p = self.position
        tensor = np.frombuffer(p.tensor_bytes(seat), dtype="<f4").reshape(self._encoding["tensor_shape"]).copy()
        mask = np.zeros(self._encoding["actions"], np.int8)
        if not p.is_over and p.current_player == seat:
            mask[p.legal_actions()] = 1
        return {"observation": tensor, "action_mask": mask}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.position = self._start
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self._chance()
        self.agent_selection = self.possible_agents[self.position.current_player]

    def _chance(self):
        """Plays chance's outcomes (drawn from the seeded generator) up to
        the next decision or the end."""
        p = self.position
        while p.current_player == -1:
            outcomes = p.chance_actions()
            probs = np.array([q for _, q in outcomes])
            i = self._rng.choice(len(outcomes), p=probs / probs.sum())
            p = p.play_action(outcomes[i][0])
        self.position = p

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.position = self.position.play_action(int(action))
        self._chance()
        p = self.position
        if p.is_over:
            for a, r in zip(self.possible_agents, p.returns()):
                self.rewards[a] = float(r)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[p.current_player]
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode (senat.pettingzoo.env(..., render_mode='ansi'))")
            return None
        if self.render_mode == "rgb_array":
            return self.position.picture_rgb()
        try:
            return self.position.board
        except _senat.Error:
            return self.position.text

    def close(self):
        pass


class SingleAgentEnv(gymnasium.Env):
    """One seat of `game` against agents of the package, as a Gymnasium
    environment. `opponent`: an agent spec (`senat.Agent`) for every other
    seat; `seat`: the trained seat's number. Actions are the game's
    integer ids (`Discrete`); the observation is the dict of the AEC
    environment (`observation`, `action_mask`); the reward is the seat's
    zero-sum return when the game ends, 0 before. `reset(seed=…)` seeds
    chance and the opponents (each reset starts them afresh)."""

    metadata = {"render_modes": ["ansi", "rgb_array"]}

    def __init__(self, game, opponent="strong", seat=0, render_mode=None, **variant):
        super().__init__()
        self._aec = raw_env(game, render_mode=render_mode, **variant)
        players = len(self._aec.possible_agents)
        if not 0 <= seat < players:
            raise _senat.Error(f"seat={seat}: {game} has seats 0 to {players - 1}")
        self.seat = seat
        self.opponent = opponent
        self.render_mode = render_mode
        _senat.Agent(game, opponent)  # refuses a bad spec now, naming it
        agent = self._aec.possible_agents[seat]
        self.observation_space = self._aec.observation_space(agent)
        self.action_space = self._aec.action_space(agent)
        self._opponents = None

    def _play_others(self):
        aec = self._aec
        p = aec.position
        while not p.is_over and p.current_player != self.seat:
            if p.current_player == -1:
                aec.position = p
                aec._chance()
            else:
                aec.position = p.play(self._opponents[p.current_player].choose(p))
            p = aec.position

    def _obs(self):
        return self._aec.observe(self._aec.possible_agents[self.seat])

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        base = int(self.np_random.integers(2**62))
        n = len(self._aec.possible_agents)
        self._opponents = [
            None if i == self.seat else _senat.Agent(self._aec.game, self.opponent, seed=base + i) for i in range(n)
        ]
        self._aec.reset(seed=base)
        self._play_others()
        return self._obs(), {}

    def step(self, action):
        aec = self._aec
        aec.position = aec.position.play_action(int(action))
        aec._chance()
        self._play_others()
        p = aec.position
        reward = float(p.returns()[self.seat]) if p.is_over else 0.0
        return self._obs(), reward, p.is_over, False, {}

    def render(self):
        return self._aec.render()
