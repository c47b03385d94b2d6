"""Sénat, Focus, Débâcle, Connect Four and block dominoes on the engines of
the `senat` command line.

The native module `senat._senat` (Rust, PyO3) holds everything that plays:
`Position`, `Agent`, `VecEnv` (N games stepped at once, NumPy arrays),
`bestmove`, `selfplay`, `arena`, `read_identity`, `read_games`,
`variant_help`, `GAMES` and the exception `Error`; they are
re-exported here. Two Python modules sit beside it, loaded on first use:

- `senat.openspiel`: every game registered with OpenSpiel
  (`senat.openspiel.register()`, then `pyspiel.load_game("senat_focus")`);
- `senat.pettingzoo`: every game as a PettingZoo AEC environment
  (`senat.pettingzoo.env("connect4")`).

Neither imports OpenSpiel or PettingZoo until it is imported itself.
"""

from ._senat import (  # noqa: F401
    GAMES,
    Agent,
    Error,
    Position,
    VecEnv,
    __version__,
    arena,
    bestmove,
    read_games,
    read_identity,
    selfplay,
    variant_help,
)

__all__ = [
    "GAMES",
    "Agent",
    "Error",
    "Position",
    "VecEnv",
    "__version__",
    "arena",
    "bestmove",
    "read_games",
    "read_identity",
    "selfplay",
    "variant_help",
]
