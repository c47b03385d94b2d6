"""Every game of the catalog as an OpenSpiel game, played by the Rust core.

`register()` registers them with pyspiel, once; then

    import pyspiel, senat.openspiel
    senat.openspiel.register()
    game = pyspiel.load_game("senat_connect4", {"width": 5, "height": 4})
    state = game.new_initial_state()

gives OpenSpiel states that its algorithms (MCTS, CFR on small games, the
random-simulation checks) use unchanged.

| OpenSpiel name   | game      | chance              | information |
|------------------|-----------|---------------------|-------------|
| `senat`          | Sénat     | deterministic       | perfect     |
| `senat_focus`    | Focus     | deterministic       | perfect     |
| `senat_focus4`   | Focus, 4  | deterministic       | perfect     |
| `senat_debacle`  | Débâcle   | deterministic       | perfect     |
| `senat_dominoes` | dominoes  | explicit stochastic | imperfect   |
| `senat_connect4` | Connect 4 | deterministic       | perfect     |

The parameters are the keys of the game's variant text
(`senat.variant_help(game)`): an integer key whose rules' default is a plain
number has it as its default, a text key its default word; a default of 0
(a number) or "" (a text) leaves the key to the rules (their default may
depend on another key, as Focus's `cap` on `players`). Only keys that
differ from their default are passed to the rules.

Everything that plays is the Rust core's, through the catalog's one face
(`senat.Position`): integer actions (`legal_actions`, `action_text`,
`play_action`), chance outcomes and their probabilities, zero-sum returns
(+1 a win, 0 a draw), and the tensor each player sees. Observation tensors
are the whole position for the games of perfect information; dominoes'
observation and information-state tensors are both the seat's observation
(its hand, the chain, who played which tile, hand and boneyard sizes, the
scores: a summary of its information, not the order of the plays), and
its information-state string is the seat's observation text. The
observation string of a perfect-information game is the position text.
States serialise as OpenSpiel's default, their action history.

What this module must never do: encode a rule or an action of a game (the
ids and tensors come from the catalog). It imports pyspiel (and numpy);
`import senat` alone does not import this module.
"""

import re

import numpy as np
import pyspiel

from . import _senat

#: OpenSpiel short name -> the catalog's game name.
NAMES = {
    "senat": "senat",
    "senat_focus": "focus",
    "senat_focus4": "focus4",
    "senat_debacle": "debacle",
    "senat_dominoes": "dominoes",
    "senat_connect4": "connect4",
}

_LONG = {
    "senat": "Sénat",
    "focus": "Focus (2 players)",
    "focus4": "Focus (4 players in two partnerships)",
    "debacle": "Débâcle",
    "dominoes": "Block dominoes (Playboard rules)",
    "connect4": "Connect Four",
}

#: Keys a game fixes itself (the 4-player Focus is Focus with players=4).
_FIXED = {"focus4": {"players"}}

_DEFAULT = re.compile(r"\(default ([^ ):;,]+)\)")


def parameters(game):
    """The OpenSpiel parameter specification of the catalog's `game`: each
    variant key with its default (see the module's text)."""
    spec = {}
    for line in _senat.variant_help(game).splitlines():
        key, _, rest = line.partition("=")
        key = key.strip()
        if not key or key in _FIXED.get(game, ()):
            continue
        values = rest.split()[0] if rest.split() else ""
        numeric = values == "N" or re.fullmatch(r"\d+(\.\.\d+|(\|\d+)*)", values) is not None
        m = _DEFAULT.search(rest)
        word = m.group(1) if m else None
        if numeric or (word is not None and word.isdigit()):
            # OpenSpiel reads a parameter of digits back as a number.
            spec[key] = int(word) if word is not None and word.isdigit() else 0
        else:
            spec[key] = word if word is not None else ""
    return spec


def variant_text(game, params):
    """The variant text (`key=value,...`) of OpenSpiel parameters `params`
    for the catalog's `game`: the keys that differ from their default.
    Raises `senat.Error` naming an unknown key."""
    spec = parameters(game)
    items = []
    for key, value in sorted(params.items()):
        if key not in spec:
            known = ", ".join(spec) or "none"
            raise _senat.Error(f"parameter `{key}`: {game} has no such variant key (known: {known})")
        if value != spec[key]:
            items.append(f"{key}={value}")
    return ",".join(items)


_registered = False


def register():
    """Registers every game of the catalog with pyspiel under the names of
    `NAMES` (once; later calls do nothing). Returns the names."""
    global _registered
    if not _registered:
        for short, game in NAMES.items():
            pyspiel.register_game(_game_type(short, game), CLASSES[short])
        _registered = True
    return list(NAMES)


def _game_type(short, game):
    GT = pyspiel.GameType
    start = _senat.Position.start(game)
    players = start.encoding()["players"]
    stochastic = game == "dominoes"
    low, high = (2, 4) if game in ("focus", "dominoes") else (players, players)
    return GT(
        short_name=short,
        long_name=f"{_LONG[game]} (senat)",
        dynamics=GT.Dynamics.SEQUENTIAL,
        chance_mode=GT.ChanceMode.EXPLICIT_STOCHASTIC if stochastic else GT.ChanceMode.DETERMINISTIC,
        information=GT.Information.IMPERFECT_INFORMATION if stochastic else GT.Information.PERFECT_INFORMATION,
        utility=GT.Utility.ZERO_SUM,
        reward_model=GT.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=stochastic,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game),
    )


def _game_class(short, game):
    game_type = _game_type(short, game)
    spec = parameters(game)

    class Game(pyspiel.Game):
        __doc__ = f"{_LONG[game]} on the senat engine, as the OpenSpiel game `{short}`."

        def __init__(self, params=None):
            given = dict(params or {})
            variant = variant_text(game, given)
            self._start = _senat.Position.start(game, variant)
            e = self._start.encoding()
            self._encoding = e
            info = pyspiel.GameInfo(
                num_distinct_actions=e["actions"],
                max_chance_outcomes=e["chance_outcomes"],
                num_players=e["players"],
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=e["max_plies"],
            )
            super().__init__(game_type, info, {**spec, **given})

        def new_initial_state(self):
            """The start of a game of this variant."""
            return State(self, self._start)

        def make_py_observer(self, iig_obs_type=None, params=None):
            """The observer of `iig_obs_type` (OpenSpiel's observation API)."""
            if params:
                raise ValueError(f"observation parameters not supported; passed {params}")
            if game != "dominoes" and iig_obs_type is not None and iig_obs_type.perfect_recall:
                from open_spiel.python.observation import IIGObserverForPublicInfoGame

                return IIGObserverForPublicInfoGame(iig_obs_type, params)
            return Observer(self._encoding["tensor_shape"], iig_obs_type)

    class State(pyspiel.State):
        __doc__ = f"A state of `{short}`: a `senat.Position` of {game}."

        def __init__(self, game_, position):
            super().__init__(game_)
            self.position = position

        def current_player(self):
            return self.position.current_player

        def _legal_actions(self, player):
            return self.position.legal_actions()

        def chance_outcomes(self):
            return self.position.chance_actions()

        def _apply_action(self, action):
            self.position = self.position.play_action(action)

        def _action_to_string(self, player, action):
            try:
                return self.position.action_text(action)
            except _senat.Error:
                return f"action {action}"

        def is_terminal(self):
            return self.position.is_over

        def returns(self):
            return self.position.returns()

        def __str__(self):
            return self.position.text

        def resample_from_infostate(self, player_id, probability_sampler):
            """A state `player_id` cannot tell from this one, drawn uniformly
            (dominoes: the hidden tiles dealt anew; OpenSpiel's ISMCTS bot
            asks for it), its randomness from `probability_sampler`."""
            seed = int(probability_sampler() * 2.0**63)
            state = State(self.get_game(), self.position.resample(player_id, seed))
            return state

    class Observer:
        """The tensor and string a player sees (OpenSpiel's PyObserver)."""

        def __init__(self, shape, iig_obs_type):
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}
            self._recall = iig_obs_type is not None and iig_obs_type.perfect_recall

        def set_from(self, state, player):
            self.tensor[:] = np.frombuffer(state.position.tensor_bytes(player), dtype="<f4")

        def string_from(self, state, player):
            p = state.position
            if game == "dominoes":
                return p.observation(player).text
            return p.text

    Game.__name__ = Game.__qualname__ = "".join(w.capitalize() for w in short.split("_")) + "Game"
    State.__name__ = State.__qualname__ = Game.__name__[:-4] + "State"
    Game.State = State
    return Game


#: OpenSpiel short name -> its game class (`SenatFocusGame`...); each class
#: and its state class (`SenatFocusState`...) are attributes of this module,
#: so that states pickle.
CLASSES = {short: _game_class(short, game) for short, game in NAMES.items()}
for _cls in CLASSES.values():
    globals()[_cls.__name__] = _cls
    globals()[_cls.State.__name__] = _cls.State
del _cls
