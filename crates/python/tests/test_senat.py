"""Tests of the `senat` Python package against the `senat` command line.

Every game is played to its end through the package; positions, legal
moves, perft, agents' moves, batch files and error messages are compared
with what the binary prints (`$SENAT_BIN`, by default `target/ci/senat` of
the workspace). The package must be installed (`maturin develop -m
crates/python/Cargo.toml --profile ci` in a virtual environment).
"""

import os
import random
import subprocess
from pathlib import Path

import pytest

import senat

ROOT = Path(__file__).resolve().parents[3]
BIN = os.environ.get("SENAT_BIN", str(ROOT / "target" / "ci" / "senat"))
# Every game the module registers: a game added to the catalog is tested here
# without an edit (the list is checked against the games known today).
GAMES = list(senat.GAMES)
assert set(GAMES) >= {"senat", "focus", "focus4", "debacle", "dominoes", "connect4"}, GAMES
# Plies after which a random game's positions are compared with the binary.
CHECK_PLIES = {0, 3, 17, 60}


def cli(*args, ok=True):
    """Runs the binary; returns (exit code, stdout, stderr). A position
    text comes after `--` (a dominoes text may start with `-`)."""
    if not Path(BIN).is_file():
        pytest.skip(f"no senat binary at {BIN} (build it with `cargo build --profile ci` or set SENAT_BIN)")
    r = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=120)
    if ok:
        assert r.returncode == 0, f"senat {' '.join(args)}: {r.stderr}"
    return r.returncode, r.stdout, r.stderr


def cli_error(*args):
    """The one-line message of a command the binary refuses."""
    code, _, err = cli(*args, ok=False)
    assert code == 2, err
    line = err.strip().splitlines()[-1]
    assert line.startswith("senat: error: "), line
    return line[len("senat: error: ") :]


def random_game(game, seed):
    """The positions of one random game of `game` from its start, in order."""
    rng = random.Random(seed)
    p = senat.Position.start(game)
    seen = [p]
    while not p.is_over:
        moves = p.legal_moves()
        assert moves, f"{game}: no move in a game not over: {p.text}"
        p = p.play(rng.choice(moves))
        seen.append(p)
        assert len(seen) < 20_000, f"{game}: the game does not end"
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_a_random_game_is_played_to_its_end(game):
    seen = random_game(game, 7)
    end = seen[-1]
    assert end.is_over and end.legal_moves() == [] or game != "senat"
    assert end.to_move is None
    assert "wins" in end.result or "draw" in end.result, end.result
    if end.winner is not None:
        assert end.winner.split(" and ")[0] in end.result
    for p in seen[:: max(1, len(seen) // 25)]:
        # The text reads back the same position.
        assert senat.Position(game, p.text, p.variant) == p
        assert str(p) == p.text
    if game == "dominoes":
        chance = next(p for p in seen if p.is_chance)
        probs = [pr for _, pr in chance.chance_outcomes()]
        assert abs(sum(probs) - 1.0) < 1e-9
        decide = next(p for p in seen if not p.is_chance and not p.is_over)
        view = decide.observation()
        assert senat.bestmove(game, view.text, "greedy") in decide.legal_moves()
        with pytest.raises(senat.Error, match="observation"):
            view.perft(1)


@pytest.mark.parametrize("game", GAMES)
def test_positions_moves_and_perft_agree_with_the_binary(game):
    seen = random_game(game, 11)
    for ply in sorted(CHECK_PLIES):
        if ply >= len(seen):
            continue
        p = seen[ply]
        _, out, _ = cli("moves", "--game", game, "--", p.text)
        lines = out.splitlines()
        if p.is_chance:
            # The binary prints each chance outcome with its probability.
            assert [line.split()[0] for line in lines] == p.legal_moves()
        else:
            assert lines == p.legal_moves(), f"{game} ply {ply}"
        depth = 2 if game in ("focus", "focus4") else 3
        _, out, _ = cli("perft", "--game", game, "--depth", str(depth), "--", p.text)
        assert int(out.strip()) == p.perft(depth), f"{game} ply {ply}"
        _, out, _ = cli("show", "--game", game, "--plain", "--", p.text)
        assert out.splitlines()[-1] == p.text
        if game != "dominoes":
            assert out[: -len(p.text) - 1] == p.board


def test_the_start_and_perft_of_the_start_agree_with_the_binary():
    for game, depth in [("senat", 4), ("focus", 3), ("focus4", 2), ("debacle", 3), ("dominoes", 2), ("connect4", 5)]:
        _, out, _ = cli("perft", "--game", game, "start", "--depth", str(depth))
        assert int(out.strip()) == senat.Position.start(game).perft(depth), game
    _, out, _ = cli("show", "--game", "senat", "--plain", "sample")
    assert out.splitlines()[-1] == senat.Position("senat", "sample").text
    variant = "closure=30"
    _, out, _ = cli("moves", "--game", "senat", "--variant", variant, "start")
    assert out.splitlines() == senat.Position.start("senat", variant).legal_moves()


@pytest.mark.parametrize(
    "game,spec",
    [("senat", "greedy"), ("senat", "mcts:playouts=200"), ("focus", "ab:depth=2"), ("debacle", "random"),
     ("focus4", "fast"), ("dominoes", "greedy"), ("connect4", "ab:depth=4"), ("connect4", "mcts:playouts=200")],
)
def test_bestmove_agrees_with_the_binary(game, spec):
    seen = random_game(game, 5)
    p = next(q for q in seen[9:] if not q.is_chance)
    _, out, _ = cli("bestmove", "--game", game, "--agent", spec, "--seed", "4", "--", p.text)
    assert out.splitlines()[-1] == senat.bestmove(game, p.text, spec, seed=4)
    assert p.bestmove(spec, seed=4) == out.splitlines()[-1]


def test_an_agent_plays_a_whole_game():
    agents = [senat.Agent("focus", "greedy", seed=1), senat.Agent("focus", "random", seed=2)]
    p = senat.Position.start("focus")
    while not p.is_over:
        p = p.play(agents[0 if p.to_move == "white" else 1].choose(p))
    assert "wins" in p.result or "draw" in p.result


# An MCTS agent with value-bounded choices over its first 8 plies (`vary=`).
VARIED = "mcts:playouts=24,vary=0.05,temp_plies=8"


@pytest.mark.parametrize(
    "game,sides,flags",
    [
        ("senat", {"red": "greedy", "blue": "random"}, ["--red", "greedy", "--blue", "random"]),
        ("focus", {"first": "random", "second": "greedy"}, ["--first", "random", "--second", "greedy"]),
        ("dominoes", {"first": "greedy", "second": "random"}, ["--first", "greedy", "--second", "random"]),
        # vary=: each team's value loss in two more columns, read like any other.
        ("connect4", {"first": VARIED, "second": "greedy"}, ["--first", VARIED, "--second", "greedy"]),
    ],
)
def test_a_batch_writes_the_binarys_files(tmp_path, game, sides, flags):
    ours, theirs = tmp_path / "ours.csv", tmp_path / "theirs.csv"
    r = senat.selfplay(game, ours, 6, seed=3, threads=1, moves=tmp_path / "ours-moves.csv", **sides)
    cli("selfplay", "--game", game, "--games", "6", "--seed", "3", "--threads", "1", *flags, "--out", str(theirs),
        "--moves", str(tmp_path / "theirs-moves.csv"), "--summary", "", "--quiet")
    assert ours.read_bytes() == theirs.read_bytes()
    assert (tmp_path / "ours-moves.csv").read_bytes() == (tmp_path / "theirs-moves.csv").read_bytes()
    assert r["played"] == 6 and r["resumed"] == 0 and r["games_file"] == str(ours)
    assert r["identity"]["game"] == game and r["identity"]["seed"] == "3" and r["identity"]["games"] == "6"
    assert ours.read_text().splitlines()[0] == r["identity_line"]
    assert senat.read_identity(ours) == r["identity"]
    rows = senat.read_games(ours)
    assert [row["game"] for row in rows] == [str(i) for i in range(6)]
    assert all(row["winner"] for row in rows)
    if "vary=" in sides.get("first", ""):
        assert all(float(row["first_vary_loss"]) >= 0 and row["second_vary_loss"] == "0.000000" for row in rows)
        assert any(float(row["first_vary_loss"]) > 0 for row in rows)
    with pytest.raises(senat.Error, match="exists"):
        senat.selfplay(game, ours, 6, seed=3, **sides)
    try:
        import pandas
    except ImportError:
        print("!!!!!!!! SKIPPED: pandas is not installed; the batch file is NOT read back with pandas !!!!!!!!")
        pytest.skip("pandas is not installed")
    frame = pandas.read_csv(ours, skiprows=1)
    assert len(frame) == 6 and list(frame["game"]) == list(range(6))
    assert list(frame.columns) == list(rows[0].keys())


@pytest.mark.parametrize("game", ["senat", "focus"])
def test_a_parquet_batch_reads_back_with_pandas_and_its_identity(tmp_path, game):
    out, csv = tmp_path / "g.parquet", tmp_path / "c.csv"
    common = ["selfplay", "--game", game, "--games", "6", "--seed", "3", "--threads", "1", "--summary", "", "--quiet"]
    cli(*common, "--format", "parquet", "--out", str(out))
    cli(*common, "--out", str(csv))
    assert out.is_file() and not (tmp_path / "g.csv").exists()
    try:
        import pandas
        import pyarrow.parquet
    except ImportError:
        print("!!!!!!!! SKIPPED: pandas or pyarrow is not installed; the Parquet file is NOT read back !!!!!!!!")
        pytest.skip("pandas or pyarrow is not installed")
    frame = pandas.read_parquet(out)
    from_csv = pandas.read_csv(csv, skiprows=1)
    assert list(frame.columns) == list(from_csv.columns)
    assert len(frame) == 6 and list(frame["game"]) == list(range(6))
    # Integer columns are integers, text columns the CSV's text.
    assert str(frame["game"].dtype) == "int64"
    for column in from_csv.columns:
        if from_csv[column].dtype == object:
            assert list(frame[column]) == list(from_csv[column]), column
    identity = pyarrow.parquet.read_metadata(out).metadata[b"senat.identity"].decode()
    assert identity == csv.read_text().splitlines()[0]
    assert identity.startswith(f"# senat-batch v2 game={game} ")


@pytest.mark.parametrize(
    "game, agents, flags",
    [
        ("senat", ["random", "greedy", "heuristic"], {"seed": 3}),
        ("focus", ["random", "greedy"], {"seed": 5, "schedule": "gauntlet"}),
        ("focus4", ["random", "greedy"], {"seed": 2, "book_plies": 2}),
        ("debacle", ["random", "greedy"], {"seed": 4}),
        ("dominoes", ["random", "greedy"], {"seed": 6}),
    ],
)
def test_an_arena_gives_the_binarys_summary(tmp_path, game, agents, flags):
    import csv

    rows = senat.arena(game, agents, 6, threads=2, **flags)
    args = ["arena", "--game", game, *agents, "--games", "6", "--threads", "2", "--seed", str(flags["seed"])]
    if "schedule" in flags:
        args.append("--" + flags["schedule"])
    if "book_plies" in flags:
        args += ["--book-plies", str(flags["book_plies"])]
    cli(*args, "--summary", str(tmp_path / "s.csv"), "--quiet")
    with open(tmp_path / "s.csv", newline="") as f:
        want = list(csv.DictReader(f))
    assert len(rows) == len(want) and len(rows) >= 1
    for got, row in zip(rows, want):
        assert list(got) == list(row), "the columns of `senat arena --summary`"
        # Times are measurements, not results; numbers are numbers.
        same = [c for c in row if "ms" not in c and "think" not in c]
        assert {c: got[c] for c in same} == {c: typed(row[c]) for c in same}
        assert all(isinstance(got[c], (int, float)) for c in ("games", "wins", "score", "elo"))


def typed(cell):
    """A summary cell as `senat.arena` gives it: an int, a float, None for
    an empty cell, or the text."""
    if cell == "":
        return None
    for kind in (int, float):
        try:
            return kind(cell)
        except ValueError:
            pass
    return cell


def test_arguments_are_named_in_errors():
    for call, name in [
        (lambda: senat.arena("connect4", ["random", "greedy"], -2), "games=-2"),
        (lambda: senat.Position.start("focus").perft(-1), "depth=-1"),
        (lambda: senat.Agent("focus", "random", seed=-5), "seed=-5"),
        (lambda: senat.bestmove("focus", "start", "random", seed=2**64), "seed=18446744073709551616: too large"),
        (lambda: senat.selfplay("focus", "x.csv", games=0), "games=0"),
        (lambda: senat.selfplay("focus", "x.csv", 4, threads=0), "threads=0"),
        (lambda: senat.Position.start("connect4").play_action(-1), "action=-1"),
        (lambda: senat.Position.start("senat", "closure=99"), "variant: "),
        (lambda: senat.arena("focus", ["random", "bogus"], 2), "agent 2: "),
    ]:
        with pytest.raises(senat.Error) as e:
            call()
        assert str(e.value).startswith(name) and "--" not in str(e.value), str(e.value)
        assert isinstance(e.value, ValueError)


def test_errors_carry_the_binarys_message():
    with pytest.raises(senat.Error) as e:
        senat.Position("focus", "bogus position")
    assert str(e.value) == cli_error("show", "--game", "focus", "bogus position")
    assert isinstance(e.value, ValueError)
    with pytest.raises(senat.Error) as e:
        senat.Position("senat", "nonsense")
    assert str(e.value) == cli_error("show", "nonsense")
    with pytest.raises(senat.Error) as e:
        senat.Position.start("chess")
    assert "unknown game `chess`" in str(e.value)
    with pytest.raises(senat.Error) as e:
        senat.Agent("focus", "mcst")
    # The same message, sending to the agents' page instead of `--help`.
    want = cli_error("bestmove", "--game", "focus", "--agent", "mcst", "start")
    assert "--agent: " + str(e.value) == want.replace("see --help", "see docs/agents.md")
    with pytest.raises(senat.Error) as e:
        senat.Position.start("focus").play("z9-z8")
    assert "z9-z8" in str(e.value) and "\n" not in str(e.value)
    deal = senat.Position.start("dominoes")
    with pytest.raises(senat.Error) as e:
        deal.bestmove("greedy")
    assert str(e.value) == cli_error("bestmove", "--game", "dominoes", "--agent", "greedy", "--", deal.text)
    with pytest.raises(senat.Error, match="perfect information"):
        senat.Position.start("debacle").observation()
    with pytest.raises(senat.Error, match="dominoes has no board"):
        senat.Position.start("dominoes").board
    with pytest.raises(senat.Error, match="`depth=121`"):
        senat.Position.start("senat").perft(121)


@pytest.mark.parametrize("game", ["connect4", "senat"])
def test_ctrl_c_stops_a_batch_leaving_a_file_that_resumes(tmp_path, game):
    """Ctrl-C during `senat.selfplay` raises KeyboardInterrupt once the
    games in progress finish, leaving `.partial` files of whole rows that
    `resume=True` completes into the uninterrupted run's bytes."""
    import _thread
    import threading
    import time

    if game == "senat":
        args = dict(red="random", blue="greedy", threads=2)
        n = 15_000
    else:
        args = dict(first="random", second="mcts:playouts=30,temp=1", threads=2)
        n = 1500
    cut, whole = tmp_path / "cut.csv", tmp_path / "whole.csv"
    # Ctrl-C at 0.1 s: each whole batch takes about 0.4 s (Sénat) and 0.6 s
    # (Connect Four) on 2 threads of the 2-core development machine, so
    # the interrupt comes well before the batch could end (at 0.3 s a fast
    # or idle machine could finish first: "DID NOT RAISE").
    timer = threading.Timer(0.1, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        senat.selfplay(game, cut, n, seed=5, summary=None, **args)
    stopped = time.monotonic() - started
    timer.cancel()
    assert stopped < 5.0, f"stopped {stopped:.2f} s after the start (Ctrl-C at 0.1 s)"
    partial = Path(str(cut) + ".partial")
    assert partial.exists() and not cut.exists()
    text = partial.read_text()
    assert text.endswith("\n"), "whole rows only"
    rows = [line for line in text.splitlines()[2:]]
    assert [int(r.split(",")[0]) for r in rows] == list(range(len(rows))), "rows in game order, none missing"
    assert len(rows) < n
    print(f"{game}: stopped {stopped - 0.1:.3f} s after Ctrl-C, {len(rows)} of {n} games kept")
    senat.selfplay(game, cut, n, seed=5, summary=None, resume=True, **args)
    senat.selfplay(game, whole, n, seed=5, summary=None, **args)
    assert cut.read_bytes() == whole.read_bytes()


def test_solve_is_the_commands():
    """`Position.solve` is `senat solve --game GAME`: the same verdict, line
    and per-move verdicts, for the exact solver and for dominoes' proof."""
    # Connect Four: the game's own horizon by default (a loss in 2, a lost end).
    for text, verdict, plies in [("44335", "loss", 2), ("1122334", "loss", 0)]:
        r = senat.Position("connect4", text).solve()
        _, out, _ = cli("solve", "--game", "connect4", "--", text)
        assert (r["verdict"], r["plies"]) == (verdict, plies), r
        line = f"; line {' '.join(r['line'])}" if r["line"] else ""
        assert out.startswith(r["text"] + line + ";"), (out, r)
    small = senat.Position("connect4", "start", "width=4,height=4").solve()
    assert (small["verdict"], small["plies"], small["depth"]) == ("draw", 16, 16), small
    # Each move, as `--each-move` lists them.
    each = senat.Position("connect4", "44335").solve(each_move=True)["moves"]
    _, out, _ = cli("solve", "--game", "connect4", "--each-move", "--", "44335")
    got = sorted((m["move"], m["text"]) for m in each)
    want = sorted((line.split()[1], line.split(" verdict ")[1].split(";")[0]) for line in out.splitlines())
    assert got == want and len(got) == 7, (got, want)
    # Focus bounds no game's length: a horizon is needed, as on the command line.
    with pytest.raises(senat.Error, match="horizon"):
        senat.Position.start("focus").solve()
    assert senat.Position.start("debacle").solve(max_depth=2)["verdict"] == "unknown"
    # Dominoes: the proof over the observation, the command's words.
    win = next(
        line.split(" | ")[4]
        for line in (ROOT / "tests" / "fixtures" / "tactics-dominoes.txt").read_text().splitlines()
        if line.startswith("win |")
    )
    r = senat.Position("dominoes", win).solve(max_depth=40)
    _, out, _ = cli("solve", "--game", "dominoes", "--max-depth", "40", "--", win)
    first, second = out.splitlines()[:2]
    assert first == f"observation {r['observation']}", (first, r)
    assert second.startswith(f"{r['text']}; {r['states']}; "), (second, r)
    assert r["text"].startswith("win"), r
    with pytest.raises(senat.Error, match="threads"):
        senat.Position("dominoes", win).solve(max_depth=4, threads=2)
    # Sénat's solve is the command's own.
    with pytest.raises(senat.Error, match="Sénat"):
        senat.Position.start("senat").solve(max_depth=2)
    with pytest.raises(senat.Error, match="max_depth"):
        senat.Position.start("connect4").solve(max_depth=-1)


def test_the_type_stub_parses_and_declares_every_public_name():
    """The stub (`__init__.pyi`) is valid Python and declares every public
    name of the module and every public method of its classes."""
    import ast

    stub = Path(senat.__file__).with_name("__init__.pyi")
    tree = ast.parse(stub.read_text())
    declared = set()
    classes = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            declared.add(node.target.id)
        elif isinstance(node, ast.Assign):
            declared.update(t.id for t in node.targets if isinstance(t, ast.Name))
        if isinstance(node, ast.ClassDef):
            classes[node.name] = {m.name for m in node.body if isinstance(m, ast.FunctionDef)}
    assert set(senat.__all__) <= declared, set(senat.__all__) - declared
    for name in ("Position", "Agent", "VecEnv"):
        public = {m for m in dir(getattr(senat, name)) if not m.startswith("_")}
        assert public <= classes[name], (name, public - classes[name])


def test_analyze_is_the_commands():
    """`Position.analyze` is `senat analyze --game GAME`: the same best move,
    score, line and win chance for alpha-beta, and the same visits for a
    seeded MCTS."""
    p = senat.Position("connect4", "4453")
    r = p.analyze("ab", depth=3, multipv=2)
    _, out, _ = cli("analyze", "--game", "connect4", "--depth", "3", "--multipv", "2", "--", "4453")
    best = next(line for line in out.splitlines() if line.startswith("bestmove "))
    assert best.startswith(f"bestmove {r['best']} score {r['score']} depth 3 "), (best, r)
    assert f"win {r['win']:.3f} (first to move;" in out, (out, r)
    assert [m["move"] for m in r["lines"]] == [line.split()[3] for line in out.splitlines() if line.startswith("multipv")]
    r = p.analyze("mcts", playouts=300, seed=7)
    _, out, _ = cli("analyze", "--game", "connect4", "--engine", "mcts", "--playouts", "300", "--seed", "7", "--", "4453")
    visits = {line.split()[0]: int(line.split()[2]) for line in out.splitlines() if " visits " in line}
    assert visits == {m["move"]: m["visits"] for m in r["moves"]}, (visits, r["moves"])
    assert sum(visits.values()) == r["playouts"] == 300
    assert senat.Position("connect4", "1122334").analyze()["result"].startswith("first wins"), "a finished game"
    with pytest.raises(senat.Error):
        senat.Position.start("dominoes").analyze(depth=1)
    # Sénat: alpha-beta is `senat analyze`'s; its MCTS analysis is the command's own.
    spn = "13Tb,21Sb,12Sb,8Sr,3Sr,9Sr,17Cb,15Tb,1Tb,2Tb,19Tb/18Sb,23Sb,11Cb,10Sr,.,6Cr,14Tr/20Cb,22Sr,16Sb,4Cr,7Cr r I20 1-0-0 1"
    r = senat.Position("senat", spn).analyze("ab", depth=4, multipv=2)
    _, out, _ = cli("analyze", "--depth", "4", "--multipv", "2", "--", spn)
    assert f"bestmove {r['best']}\n" in out and f"win {r['win']:.3f} (red to move;" in out, (out, r)
    assert [m["move"] for m in r["lines"]] == [line.split()[3] for line in out.splitlines() if line.startswith("multipv")]
    with pytest.raises(senat.Error, match="--engine mcts"):
        senat.Position("senat", spn).analyze("mcts", playouts=10)
    with pytest.raises(senat.Error, match="engine"):
        p.analyze("minimax")
    with pytest.raises(senat.Error, match="--c"):
        p.analyze("mcts", c=-1.0)
