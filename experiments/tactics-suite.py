#!/usr/bin/env python3
"""Builds a tactical suite: positions from self-play games, each with the
moves the exact solver proves winning (or saving) within a horizon.

Usage:
  experiments/tactics-suite.py --game senat --out tests/fixtures/tactics-senat.txt
  experiments/tactics-suite.py --game focus --out tests/fixtures/tactics-focus.txt
  experiments/tactics-suite.py --game connect4 --games 12 --tail 10 --every 4 --time 5.0 \
      --per-class 40 --book 4 --seed 2026 --out tests/fixtures/tactics-connect4.txt
  experiments/tactics-suite.py --game dominoes --out tests/fixtures/tactics-dominoes.txt

Dominoes (hidden hands) differs; see `dominoes_main`: positions are the
observations of the player deciding late in a round, and a verdict is a
sure win of the round from the observation (`senat solve --game dominoes`).

What it does, for one game:
  1. plays seeded self-play batches of several agent pairs (`senat selfplay
     --moves`), so the positions come from games of different strengths;
  2. replays each game (`senat replay --plain`) and takes candidate
     positions: every position of the last `--tail` plies before the end,
     and one position every `--every` plies before that;
  3. solves each candidate (`senat solve --max-depth H`, no history: a
     suite position is the position alone), then every legal move of it
     (`--each-move`) where it may be a win or a save;
  4. keeps, by class:
       win1-3 / win5 / win7: the side to move forces a win within 1-3, 5
         or 7 plies (its fastest win); the good moves are every move proved
         to win within the horizon; positions where more than half the
         moves win are dropped (little to find);
       save: at least 4 legal moves, every move but one to three proved lost
         within the horizon, the others (the good moves) not proved lost;
  5. picks at most `--per-class` positions per class, spread over the
     sources, and writes the suite file.

Nothing here decides a verdict: each good move is what `senat solve` says.
The file records the command, the binary's commit and every source batch.
"""
import argparse
import csv
import math
import os
import random
import re
import subprocess
import sys
import tempfile

SPN_SENAT = re.compile(r"^\S+/\S+/\S+ [rb] \S+ \d+-\d+-\d+ \d+$")
SPN_DEBACLE = re.compile(r"^[^ /]+(/[^ /]+){5} [ns] ")
# Connect Four: `start` or the columns played (a 7 x 6 board: no variant before them).
SPN_CONNECT4 = re.compile(r"^(start|[1-9]+)$")

# Agent pairs per game: (first, second). Drafting agents for Sénat draw
# their own randomness (learned), so play agents that search deterministically
# still meet varied positions.
PAIRS = {
    "senat": [
        ("learned", "learned"),
        ("heuristic", "learned"),
        ("learned>ab:depth=2", "learned"),
        ("learned>mcts:playouts=300,rollout=eval,prior=1000", "learned"),
        ("random", "random"),
        ("greedy", "heuristic"),
    ],
    "focus": [
        ("random", "random"),
        ("greedy", "random"),
        ("greedy", "greedy"),
        ("ab:depth=1", "greedy"),
        ("mcts:playouts=100", "greedy"),
    ],
    "dominoes": [
        ("random", "random"),
        ("greedy", "random"),
        ("greedy", "greedy"),
        ("ismcts:playouts=100", "greedy"),
        ("pimc:playouts=200,worlds=10", "ismcts:playouts=100"),
    ],
    "connect4": [
        ("random", "random"),
        ("greedy", "random"),
        ("greedy", "greedy"),
        ("ab:depth=1", "greedy"),
        ("mcts:playouts=100", "greedy"),
    ],
    "debacle": [
        ("random", "random"),
        ("greedy", "random"),
        ("greedy", "greedy"),
        ("ab:depth=1", "greedy"),
        ("mcts:playouts=100", "greedy"),
    ],
}


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def games_of(bin_, game, first, second, n, seed, tmp, book):
    out = os.path.join(tmp, f"g-{seed}.csv")
    moves = os.path.join(tmp, f"m-{seed}.csv")
    cmd = [bin_, "selfplay", "--games", str(n), "--seed", str(seed), "--out", out, "--moves", moves,
           "--summary", "", "--quiet", "--force"]
    if game == "senat":
        cmd += ["--red", first, "--blue", second]
    else:
        cmd += ["--game", game, "--first", first, "--second", second, "--book-plies", str(book)]
    run(cmd)
    by_game = {}
    with open(moves) as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        for r in rows:
            if "moves" in r:  # other games: one row per game, its moves space-separated
                by_game[r["game"]] = r["moves"].split()
            else:  # Sénat: one row per move
                by_game.setdefault(r["game"], []).append(r["move"])
    return cmd, by_game


def positions(bin_, game, moves, tmp):
    """The positions (as texts) before each ply of a game, in order."""
    rec = os.path.join(tmp, "rec.txt")
    with open(rec, "w") as f:
        f.write("start\n" + "\n".join(moves) + "\n")
    cmd = [bin_, "replay", "--plain", rec]
    if game != "senat":
        cmd[2:2] = ["--game", game]
    text = run(cmd)
    if game == "senat":
        return [line for line in text.splitlines() if SPN_SENAT.match(line)]
    # Other games: `replay` prints the position text after each ply on a
    # line of its own (Focus's starts with its name, Débâcle's with its
    # six board rows).
    if game == "debacle":
        return [line for line in text.splitlines() if SPN_DEBACLE.match(line)]
    if game == "connect4":
        return [line for line in text.splitlines() if SPN_CONNECT4.match(line)]
    return [line for line in text.splitlines() if line.startswith(game + " ")]


VERDICT = re.compile(r"^move (\S+) verdict (.*)$")
# Sénat's wording and the other games' wording of a win or loss for the side to move.
WIN = re.compile(r"\(to move\) wins within (\d+) plies|^win for the side to move within (\d+) plies")
LOSS = re.compile(r"wins within (\d+) plies \(.* to move loses\)|^loss for the side to move within (\d+) plies")
TIMEOUT = re.compile(r"time out|stopped by --time")


def kind(v):
    """('win' | 'loss' | 'other', distance) of a verdict text."""
    for name, rx in (("win", WIN), ("loss", LOSS)):
        m = rx.search(v)
        if m:
            return name, int(m.group(1) or m.group(2))
    return "other", None


def solve_cmd(bin_, game, pos, horizon, time_s, each):
    cmd = [bin_, "solve", "--max-depth", str(horizon), "--time", str(time_s), "--tt-mb", "32", pos]
    if each:
        cmd.insert(2, "--each-move")
    if game != "senat":
        cmd[2:2] = ["--game", game]
    return cmd


def solve_root(bin_, game, pos, horizon, time_s):
    """The position's verdict text (None if the solver failed or timed out)."""
    try:
        text = run(solve_cmd(bin_, game, pos, horizon, time_s, False), timeout=time_s * 4 + 30)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
        return None
    line = text.splitlines()[0] if text else ""
    if TIMEOUT.search(text):
        return None
    return line.removeprefix("verdict ")


def solve_each(bin_, game, pos, horizon, time_s, max_good=None):
    """[(move, verdict)] for every legal move; None if a move timed out, or
    (with `max_good`) as soon as more than `max_good` moves are not lost."""
    proc = subprocess.Popen(solve_cmd(bin_, game, pos, horizon, time_s, True), stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    out, good = [], 0
    try:
        for line in proc.stdout:
            m = VERDICT.match(line.strip())
            if not m:
                continue
            if TIMEOUT.search(m.group(2)):
                return None
            out.append((m.group(1), m.group(2)))
            if kind(m.group(2))[0] != "loss":
                good += 1
                if max_good is not None and good > max_good:
                    return None
    finally:
        proc.kill()
        proc.wait()
    return out if proc.returncode in (0, -9) else None


def candidate(bin_, game, pos, horizon, time_s):
    """(class, good moves, legal moves, distance) or None."""
    root = solve_root(bin_, game, pos, horizon, time_s)
    if root is None:
        return None
    k, d = kind(root)
    if k == "loss":
        return None  # every move loses: nothing saves
    if k == "win":
        v = solve_each(bin_, game, pos, horizon, time_s)
        if not v:
            return None
        good = [mv for mv, t in v if kind(t)[0] == "win"]
        if not good or 2 * len(good) > len(v):
            return None  # most moves win: little to find
        cls = "win1-3" if d <= 3 else ("win5" if d <= 5 else "win7")
        return cls, good, len(v), d
    v = solve_each(bin_, game, pos, horizon, time_s, max_good=3)
    if not v or len(v) < 4:
        return None
    good = [mv for mv, t in v if kind(t)[0] != "loss"]
    if 1 <= len(good) <= 3:
        return "save", good, len(v), 0
    return None


DOMINO_HEADER = [
    "# A position is the observation of the player deciding (what `senat bestmove --game dominoes` is given).",
    "# Proved (`senat solve --game dominoes`, crates/lab/src/games/dominoes_proof.rs): a move is good in a `win` position",
    "# when it is a sure win of the round: one strategy, choosing from the observer's observations only, makes him",
    "# the round's winner against EVERY state consistent with the observation (enumerated exactly,",
    "# Sampler::consistent_states), every order of the remaining draws and every play of the other player (who may",
    "# see everything). A move is proved lost when, in every consistent state after it, the other player has such a",
    "# sure win from his own observation. Only the current round counts (the round's winner), not the match.",
    "# class: win (some move is a sure win; good = every sure-winning move, at most half the legal moves; distance =",
    "# the fewest plies, chance included, within which the best of them wins) or save (no sure win; every move",
    "# but the good ones proved lost, the good ones not proved lost; distance 0). At least 2 legal moves.",
]


def dominoes_solve(bin_, obs, horizon, timeout):
    """(observation text, [(move, verdict)]) or None."""
    cmd = [bin_, "solve", "--game", "dominoes", "--each-move", "--max-depth", str(horizon), "--", obs]
    try:
        text = run(cmd, timeout=timeout)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
        return None
    lines = text.splitlines()
    if not lines or not lines[0].startswith("observation "):
        return None
    out = []
    for line in lines[1:]:
        m = VERDICT.match(line.strip())
        if m:
            out.append((m.group(1), m.group(2)))
    return lines[0].removeprefix("observation "), out


def dominoes_candidate(v):
    """(class, good moves, distance) of a position's move verdicts, or None."""
    if len(v) < 2:
        return None
    kinds = [(mv, *kind(t)) for mv, t in v]
    wins = [(mv, d) for mv, k, d in kinds if k == "win"]
    if wins:
        if 2 * len(wins) > len(v):
            return None
        return "win", [mv for mv, _ in wins], min(d for _, d in wins)
    good = [mv for mv, k, _ in kinds if k != "loss"]
    if 1 <= len(good) < len(v):
        return "save", good, 0
    return None


def dominoes_main(a, commit):
    found = {"win": [], "save": []}
    seen, sources = set(), []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (first, second) in enumerate(PAIRS["dominoes"]):
            seed = a.seed + i
            out, moves = os.path.join(tmp, f"g-{seed}.csv"), os.path.join(tmp, f"m-{seed}.csv")
            cmd = [a.bin, "selfplay", "--game", "dominoes", "--games", str(a.games), "--seed", str(seed),
                   "--first", first, "--second", second, "--out", out, "--moves", moves, "--summary", "",
                   "--quiet", "--force"]
            run(cmd)
            sources.append(" ".join(cmd[1:]).replace(tmp + "/", ""))
            with open(moves) as f:
                rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
            for r in rows:
                rec = os.path.join(tmp, "rec.txt")
                with open(rec, "w") as f:
                    f.write("start\n" + "\n".join(r["moves"].split()) + "\n")
                text = run([a.bin, "replay", "--game", "dominoes", rec])
                for k, line in enumerate(text.splitlines()):
                    if "\t" not in line:
                        continue
                    state = line.split("\t", 1)[1]
                    f = state.split(" ")
                    # Late in a round: at most --placements ways to place the
                    # tiles the player to move does not see (2 players).
                    if len(f) != 10 or f[1] != "play":
                        continue
                    size = lambda t: 0 if t == "-" else len(t.split("."))
                    hands = f[6].split("/")
                    other = size(hands[1 - int(f[2])])
                    if math.comb(other + size(f[7]), other) > a.placements or state in seen:
                        continue
                    seen.add(state)
                    got = dominoes_solve(a.bin, state, a.horizon, a.time)
                    if not got:
                        continue
                    obs, v = got
                    c = dominoes_candidate(v)
                    if c:
                        cls, good, d = c
                        found[cls].append((obs, good, len(v), d, f"{first} v {second} seed={seed} game={r['game']} ply={k + 1}"))
            print(f"{first} v {second}: " + ", ".join(f"{c} {len(x)}" for c, x in found.items()), file=sys.stderr)
    rng = random.Random(a.seed)
    lines = [
        f"# tactics suite v1 game=dominoes horizon=round",
        f"# made by: experiments/tactics-suite.py --game dominoes --games {a.games} --seed {a.seed} "
        f"--horizon {a.horizon} --placements {a.placements} --time {a.time} --per-class {a.per_class} (commit {commit})",
        "# sources (senat selfplay --game dominoes, matches replayed; every decision with at most "
        f"{a.placements} placements of the unseen tiles solved with `senat solve --game dominoes --each-move --max-depth {a.horizon}`,"
        f" {a.time} s at most each):",
    ]
    lines += [f"#   {s}" for s in sources]
    lines += DOMINO_HEADER
    lines.append("# class | distance | legal moves | good moves | position | source")
    write_suite(a, rng, lines, found)


def write_suite(a, rng, lines, found):
    """Appends at most --per-class entries of each class (shuffled by the
    seed, then ordered by source) to the header `lines` and writes the
    suite atomically (a temporary file, then a rename)."""
    for cls, items in found.items():
        rng.shuffle(items)
        for p, good, n, d, src in sorted(items[: a.per_class], key=lambda x: x[4]):
            lines.append(f"{cls} | {d} | {n} | {' '.join(good)} | {p} | {src}")
    tmp_out = a.out + ".tmp"
    with open(tmp_out, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp_out, a.out)
    print("wrote " + a.out + ": " + ", ".join(f"{c} {min(len(x), a.per_class)} (of {len(x)})" for c, x in found.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="senat", choices=sorted(PAIRS))
    ap.add_argument("--bin", default="target/release/senat")
    ap.add_argument("--out", required=True)
    ap.add_argument("--games", type=int, default=40, help="games per agent pair")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--horizon", type=int, default=7)
    ap.add_argument("--tail", type=int, default=14)
    ap.add_argument("--every", type=int, default=12)
    ap.add_argument("--time", type=float, default=5.0, help="seconds per move for the solver")
    ap.add_argument("--per-class", type=int, default=30)
    ap.add_argument("--book", type=int, default=4, help="random plies at the start (not Sénat, not dominoes)")
    ap.add_argument("--placements", type=int, default=300,
                    help="dominoes: the most placements of the unseen tiles (opponent's hand and boneyard)")
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args()
    if os.path.exists(a.out) and not a.force:
        sys.exit(f"tactics-suite: {a.out} exists (use --force)")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    if a.game == "dominoes":
        return dominoes_main(a, commit)
    found = {c: [] for c in ["win1-3", "win5", "win7", "save"]}
    seen = set()
    sources = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (first, second) in enumerate(PAIRS[a.game]):
            seed = a.seed + i
            cmd, by_game = games_of(a.bin, a.game, first, second, a.games, seed, tmp, a.book)
            sources.append(" ".join(cmd[1:]).replace(tmp + "/", ""))
            for g, moves in by_game.items():
                pos = positions(a.bin, a.game, moves, tmp)
                # Positions before each ply: pos[k] is after k plies (pos[0] the start).
                before_end = pos[:-1]
                n = len(before_end)
                picks = set(range(max(0, n - a.tail), n)) | set(range(0, max(0, n - a.tail), a.every))
                for k in sorted(picks):
                    p = before_end[k]
                    if p in seen:
                        continue
                    seen.add(p)
                    c = candidate(a.bin, a.game, p, a.horizon, a.time)
                    if c:
                        cls, good, n, d = c
                        found[cls].append((p, good, n, d, f"{first} v {second} seed={seed} game={g} ply={k}"))
            print(f"{first} v {second}: " + ", ".join(f"{c} {len(x)}" for c, x in found.items()), file=sys.stderr)
    rng = random.Random(a.seed)
    lines = [
        f"# tactics suite v1 game={a.game} horizon={a.horizon}",
        f"# made by: experiments/tactics-suite.py --game {a.game} --games {a.games} --seed {a.seed} "
        f"--horizon {a.horizon} --tail {a.tail} --every {a.every} --time {a.time} --per-class {a.per_class}"
        + (f" --book {a.book}" if a.game != "senat" else "") + f" (commit {commit})",
        "# sources (senat selfplay, positions replayed, each move solved with `senat solve --each-move`):",
    ]
    lines += [f"#   {s}" for s in sources]
    lines += [
        "# class: win1-3, win5, win7 (the side to move forces a win within that many plies; good = every move",
        "# proved to win within the horizon, at most half the legal moves) or save (every move but the good ones proved lost within the horizon).",
        "# class | distance | legal moves | good moves | position | source",
    ]
    write_suite(a, rng, lines, found)


if __name__ == "__main__":
    main()
