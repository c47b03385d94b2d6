"""Type stub of the `senat` package: the names of its native module
`senat._senat` (the Rust extension of crates/python), which `senat`
re-exports. The Python modules `senat.openspiel` (every game registered
with OpenSpiel) and `senat.pettingzoo` (every game as a PettingZoo AEC
environment) carry their own types.

Sénat and the other games of the seeds (Focus, Débâcle, Connect Four, block
dominoes) on the engines of the `senat` command line: positions from their
texts, legal moves (as texts and as integer ids), tensors, perft, agents by
spec, and self-play batches written by the lab's batch runner. Refusals
raise `senat.Error` (a `ValueError`) carrying the lab's one-line message;
an argument it refuses (a negative integer, `games=0`) is named in it.
"""

from os import PathLike
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

GAMES: List[str]
"""The game names: senat, focus, focus4, debacle, dominoes, connect4."""

class Error(ValueError):
    """A refusal of the lab, with its one-line message (as `senat` prints it
    after `senat: error: `)."""

class Position:
    """A position of one game, immutable: `play` returns a new one.

    `Position(game, text="start", variant="")` reads `text` as
    `senat show --game GAME` does: `start` (with `variant`, the command
    line's `--variant`), for Sénat also `sample` or an SPN, for the other
    games their position text, for dominoes a full state or an observation.
    `str(p)` is the text `senat show` prints on its last line.
    """

    def __init__(self, game: str, text: str = "start", variant: str = "") -> None: ...
    @staticmethod
    def start(game: str, variant: str = "") -> "Position":
        """The start of `game` with the variant options `variant`."""
    @property
    def game(self) -> str:
        """The game's name."""
    @property
    def text(self) -> str:
        """The position text (read back by `Position(game, text)`)."""
    @property
    def variant(self) -> str:
        """The variant options of the position's rules (empty: the rules)."""
    @property
    def board(self) -> str:
        """The board as `senat show --plain` draws it; dominoes raises `Error`."""
    def picture(self) -> str:
        """The board picture as SVG text, as `senat render` draws it."""
    def picture_rgb(self) -> npt.NDArray[np.uint8]:
        """The board picture as a (height, width, 3) `uint8` RGB array
        (PettingZoo's `render_mode="rgb_array"`)."""
    def legal_moves(self) -> List[str]:
        """The legal moves in move text, sorted (`senat moves`); at a
        dominoes chance node the chance outcomes; none once a Sénat game is over."""
    def chance_outcomes(self) -> List[Tuple[str, float]]:
        """Dominoes at a chance node: each outcome with its probability."""
    @property
    def is_chance(self) -> bool:
        """Whether chance moves next (a dominoes deal or draw)."""
    def play(self, move: str) -> "Position":
        """The position after `move` (a new one); raises `Error` when the move
        cannot be read or played."""
    @property
    def is_over(self) -> bool:
        """Whether the game (the match, for dominoes) is over."""
    @property
    def result(self) -> str:
        """The one-line result, as `senat replay` ends."""
    @property
    def winner(self) -> Optional[str]:
        """The winning side or seats of a finished game; None otherwise and for a draw."""
    @property
    def to_move(self) -> Optional[str]:
        """The side or seat to move (`chance` at a dominoes deal or draw); None once over."""
    def observation(self, seat: Optional[int] = None) -> "Position":
        """Dominoes: the observation of `seat` (default: the player to move)."""
    def resample(self, seat: int, seed: int = 1) -> "Position":
        """Dominoes: a full state drawn uniformly among those player `seat`
        cannot tell from this one (the hidden tiles dealt anew), from a full
        state or `seat`'s observation; raises `Error` for the games of
        perfect information."""
    def perft(self, depth: int) -> int:
        """Leaves of the move tree `depth` plies below (`senat perft --depth`)."""
    def bestmove(self, spec: str, seed: int = 1) -> str:
        """The move of the agent `spec` here (`senat bestmove --agent SPEC --seed SEED`)."""
    def solve(
        self,
        max_depth: Optional[int] = None,
        time: Optional[float] = None,
        each_move: bool = False,
        threads: int = 1,
        tt_mb: int = 256,
    ) -> Dict[str, Any]:
        """The exact verdict here (`senat solve --game GAME`): `depth`,
        `verdict` (win, loss, draw or unknown for the side to move), `plies`,
        `text`, `line`, `nodes`, `seconds`, `timed_out`, or `moves` (one such
        dict per legal move, with `move`) with `each_move`; dominoes:
        `observation`, `states`, `text` or `moves`, `seconds`. Not Sénat."""
    def analyze(
        self,
        engine: str = "ab",
        *,
        depth: Optional[int] = None,
        playouts: Optional[int] = None,
        time: Optional[float] = None,
        multipv: Optional[int] = None,
        seed: int = 1,
        tt_mb: int = 64,
        c: float = 1.0,
        memory_mb: int = 512,
        solve: bool = True,
    ) -> Dict[str, Any]:
        """The engine's analysis here (`senat analyze --game GAME`): `best`,
        `line`, `win`, `seat`, `lines` (with `multipv`); `ab` adds `score`,
        `depth`, `nodes`; `mcts` `playouts`, `value`, `moves`; a finished
        game gives only `result`. Sénat: `ab` only (its MCTS analysis is
        the command's own); not dominoes."""
    def encoding(self) -> Dict[str, Any]:
        """The variant's integer encoding: `players`, `actions` (decision ids
        are below it), `chance_outcomes` (chance ids are below it), `max_plies`
        and `tensor_shape` (a list)."""
    @property
    def current_player(self) -> int:
        """The player to move as a number (Sénat's red 0, blue 1; seats in
        order), -1 for chance, -4 once the game is over (OpenSpiel's ids)."""
    def legal_actions(self) -> List[int]:
        """The integer ids of the legal moves (of the chance outcomes at a
        chance node), ascending."""
    def chance_actions(self) -> List[Tuple[int, float]]:
        """At a chance node, each outcome's id with its probability."""
    def action_text(self, action: int) -> str:
        """The move text of the legal action `action`."""
    def play_action(self, action: int) -> "Position":
        """The position after the legal action `action` (a new one)."""
    def returns(self) -> List[float]:
        """Each player's zero-sum return: +1 a win, 0 a draw and until the end."""
    def tensor(self, seat: int) -> List[float]:
        """The position as `seat` sees it, flat, of `encoding()['tensor_shape']`
        (dominoes: the seat's observation)."""
    def tensor_bytes(self, seat: int) -> bytes:
        """`tensor(seat)` as little-endian float32 bytes (`numpy.frombuffer`)."""
    def clone(self) -> "Position":
        """The same position (a Sénat game with its history)."""
    def __copy__(self) -> "Position": ...
    def __deepcopy__(self, memo: Any) -> "Position": ...
    @staticmethod
    def _restore(game: str, text: str, variant: str, moves: List[str]) -> "Position":
        """The position `text` of `game` with `moves` played (`pickle`'s call back)."""
    def __reduce__(self) -> Tuple[Any, Tuple[str, str, str, List[str]]]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

_Arrays = Tuple[
    npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64]
]

class VecEnv:
    """`n` games of one kind stepped at once in Rust, with NumPy arrays.

    `VecEnv(game, n, seed=None, **variant)`: `variant` are the keys of
    `variant_help(game)` (e.g. `VecEnv("connect4", 64, width=5)`), `seed`
    draws chance and `random_actions` (None: from the clock).

    The arrays are the environment's own, overwritten in place by every
    call (copy one to keep it; do not write into them): `obs`
    (n x tensor_shape, float32, each game as its player to move sees it),
    `mask` (n x num_actions, bool: the legal actions), `rewards`
    (n x num_players, float32: the zero-sum returns of a game that ended at
    this step, else 0), `dones` (n, bool), `to_play` (n, int64).

    Auto-reset in the same step (Stable-Baselines3's convention, not
    Gymnasium's next-step one): a step that ends game `i` sets `dones[i]`
    and `rewards[i]`, and `obs[i]`, `mask[i]`, `to_play[i]` already show
    its next game's first decision. Chance (dominoes' deals and draws) is
    drawn inside: every game waits for a player.
    """

    def __init__(self, game: str, n: int, seed: Optional[int] = None, **variant: Any) -> None: ...
    def reset(self, seed: Optional[int] = None) -> _Arrays:
        """Restarts every game (a new generator from `seed` if given);
        returns `(obs, mask, rewards, dones, to_play)`."""
    def step(self, actions: Union[npt.NDArray[np.int64], Sequence[int]]) -> _Arrays:
        """Plays `actions[i]` (legal in `mask[i]`) in every game; returns
        `(obs, mask, rewards, dones, to_play)`. Raises `Error` naming the
        first illegal action, with no game moved."""
    def random_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly drawn legal action of every game."""
    def step_random(self, steps: int, observe: bool = True) -> int:
        """`steps` rounds of random legal actions in every game, in Rust;
        returns the number of games that ended (`rewards` then sums their
        returns, `dones` marks the games that ended). `observe=False`
        computes no tensor (the mode without observations). Releases the
        interpreter's lock; Ctrl-C stops it between slices."""
    @property
    def obs(self) -> npt.NDArray[np.float32]: ...
    @property
    def mask(self) -> npt.NDArray[np.bool_]: ...
    @property
    def rewards(self) -> npt.NDArray[np.float32]: ...
    @property
    def dones(self) -> npt.NDArray[np.bool_]: ...
    @property
    def to_play(self) -> npt.NDArray[np.int64]: ...
    @property
    def game(self) -> str: ...
    @property
    def variant(self) -> str:
        """The variant text built from the keywords (sorted `k=v`)."""
    @property
    def num_envs(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def tensor_shape(self) -> List[int]: ...
    def __len__(self) -> int: ...


class Agent:
    """An agent of one game named by a spec (`random`, `greedy`,
    `mcts:playouts=500`, `ab:depth=3`, `top`, …), with its own generator."""

    def __init__(self, game: str, spec: str, seed: int = 1) -> None: ...
    @property
    def game(self) -> str: ...
    @property
    def spec(self) -> str: ...
    def choose(self, position: Position) -> str:
        """The agent's move in `position`, in move text."""
    def new_game(self) -> None:
        """Forgets what was kept from earlier moves."""

def bestmove(
    game: str, position: Union[str, Position], spec: str, seed: int = 1, variant: str = ""
) -> str:
    """The move that agent `spec` chooses in `position` (`senat bestmove`)."""

_Path = Union[str, "PathLike[str]"]

def selfplay(
    game: str,
    out: _Path,
    games: int = 100,
    *,
    seed: int = 1,
    variant: str = "",
    first: Optional[str] = None,
    second: Optional[str] = None,
    red: Optional[str] = None,
    blue: Optional[str] = None,
    draft_red: Optional[str] = None,
    draft_blue: Optional[str] = None,
    book_plies: int = 0,
    threads: Optional[int] = None,
    moves: Optional[_Path] = None,
    summary: Optional[_Path] = None,
    rounds: Optional[_Path] = None,
    rotate: bool = False,
    shard: Optional[str] = None,
    force: bool = False,
    resume: bool = False,
) -> Dict[str, Any]:
    """Plays a batch as `senat selfplay --game GAME` does and writes the same
    files; returns the files, `played`, `resumed`, `seconds`,
    `identity_line` and `identity` (its fields)."""

def arena(
    game: str,
    agents: List[str],
    games: int = 100,
    *,
    seed: int = 1,
    variant: str = "",
    schedule: str = "round-robin",
    book_plies: Optional[int] = None,
    draft: str = "random",
    threads: Optional[int] = None,
) -> List[Dict[str, Union[int, float, str, None]]]:
    """Plays an arena as `senat arena --game GAME` does (colour-swapped
    pairs, duplicate deals for dominoes; `schedule`: round-robin, gauntlet
    or ladder) and returns one dict per pairing with the columns of
    `senat arena --summary`: numbers as int or float (an infinite Elo as
    `float('inf')`), an empty cell as None, names as text."""

def read_identity(path: _Path) -> Dict[str, str]:
    """The identity fields of a batch file's first line."""

def read_games(path: _Path) -> List[Dict[str, str]]:
    """The rows of a batch file, `#` lines skipped, cells as text."""

def variant_help(game: str) -> str:
    """The variant options of `game`, as `--variant help` prints them."""
