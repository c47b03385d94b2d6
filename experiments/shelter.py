#!/usr/bin/env python3
"""results/annex/shelter/README.md: is the restriction a shelter? The rules
(line 115): "La restriction n'est pas seulement une gêne : c'est un abri.
Agir sur l'un de ses propres dés le met hors d'atteinte pendant le coup de
l'adversaire."

Replays every game of a Sénat games file (the `senat` Python module). After
each play move, while the game goes on, the dice of the restriction set
that show the colour of the side that just moved (M) are **sheltered**. A
position with at least one sheltered die is a **sheltered position**; its
**counterfactual** is the same position text with the sheltered cells
taken out of the restricted field (every other restriction kept). The
moves legal in the counterfactual and not in the position are the moves
the shelter **hides** from the side to move (O). O's agent (AGENT, the
tier's own, a fresh one per position seeded from (seed, game, ply)) then
chooses in the counterfactual: the shelter **binds** if it picks a hidden
move. The **chance baseline** is the share of the counterfactual's moves
that are hidden (what a uniform chooser would pick).

Prints, pooled over positions, with 95 % percentile intervals from
bootstrap resamples of games (games as clusters): the shelter's
frequency, the hidden moves, the binding share, the chance baseline and
their ratio with its 97.5 % interval (the planned test, Bonferroni over
two tiers), and what the chosen hidden moves do to
the sheltered die. Standard library plus the senat module.

Usage: shelter.py GAMES.csv AGENT [--seed S] [--resamples N] [--limit G]
"""
import argparse
import csv
import random

import senat

from dice_equal import whitened

WHITE = whitened()
WHITE[1] = WHITE[2] = set()
WHITE[3] = set(range(6))
CODES = ["Tr", "Sr", "Cr", "Tb", "Sb", "Cb"]
CELLS = [f"S{i}" for i in range(1, 12)] + [f"M{i}" for i in range(12, 19)] + [f"I{i}" for i in range(19, 24)]
ROLES = ("flip", "push", "turn", "dislodged")


def board(spn):
    """Cell name -> (die, face index) of a position text's occupied cells."""
    out = {}
    for name, tok in zip(CELLS, spn.split(" ", 1)[0].replace("/", ",").split(",")):
        if tok != ".":
            out[name] = (int(tok[:-2]), CODES.index(tok[-2:]))
    return out


def colour(die, face):
    """'r', 'b' or None (white) as the die shows it."""
    if face in WHITE[die]:
        return None
    return "r" if face < 3 else "b"


def role(move, sheltered, cells):
    """How a hidden move reaches a sheltered die: flip, push or turn of it
    as target, or dislodged by a push into a full row; None if it does not
    (which the rules forbid for a hidden move)."""
    if ">" not in move:
        return None
    target = move.split(">", 1)[1]
    if ":" in target:
        target, dest = target.split(":")
        if target in sheltered:
            return "push"
        return "dislodged" if dest in sheltered and dest in cells else None
    if "=" in target:
        return "turn" if target.split("=")[0] in sheltered else None
    return "flip" if target in sheltered else None


def counterfactual(fields, moved):
    """The position of `fields` (the restricted field already edited); if
    the rules' checks refuse it because the clock is 0 (only an ejection
    restricts a die at clock 0, so taking its target out of the set leaves
    a position no game reaches), the same with clock 1: the same legal
    moves, and the same input to the networks (their clock steps are
    coarser). Returns it and `moved` plus one if the clock was moved."""
    try:
        return senat.Position("senat", " ".join(fields), ""), moved
    except senat.Error:
        if fields[4] != "0":
            raise
        return senat.Position("senat", " ".join(fields[:4] + ["1"]), ""), moved + 1


def shelter(text):
    """The sheltered cells of a position text (the restricted dice that show
    the colour of the side that just moved), the counterfactual's fields
    (the text's fields with those cells taken out of the restricted field)
    and the board."""
    fields = text.split(" ")
    mover = "r" if fields[1] == "b" else "b"
    cells = board(text)
    restricted = [] if fields[2] == "-" else fields[2].split(",")
    sheltered = {x for x in restricted if colour(*cells[x]) == mover}
    kept = [x for x in restricted if x not in sheltered]
    return sheltered, fields[:2] + [",".join(kept) if kept else "-"] + fields[3:], cells


def game_counts(index, row, spec, seed):
    """One game's tallies: play positions with the opponent to move,
    sheltered positions, positions where the shelter hides a move, hidden
    moves, the chance baseline's sum, binding choices, and the chosen
    hidden moves' roles."""
    c = {"positions": 0, "sheltered": 0, "hiding": 0, "hidden": 0, "chance": 0.0, "binds": 0, "clock_moved": 0}
    c.update({r: 0 for r in ROLES})
    p = senat.Position.start("senat", "")
    for m in row["draft_moves"].split():
        p = p.play(m)
    for ply, m in enumerate(row["play_moves"].split()):
        p = p.play(m)
        if p.is_over:
            continue
        c["positions"] += 1
        sheltered, fields, cells = shelter(p.text)
        if not sheltered:
            continue
        c["sheltered"] += 1
        free, c["clock_moved"] = counterfactual(fields, c["clock_moved"])
        here, there = set(p.legal_moves()), free.legal_moves()
        assert here <= set(there), (p.text, here - set(there))
        hidden = [x for x in there if x not in here]
        assert all(role(x, sheltered, cells) for x in hidden), (p.text, hidden)
        if hidden:
            c["hiding"] += 1
            c["hidden"] += len(hidden)
            c["chance"] += len(hidden) / len(there)
        agent = senat.Agent("senat", spec, seed * 1_000_003 + index * 1_009 + ply)
        choice = agent.choose(free)
        if choice not in here:
            c["binds"] += 1
            c[role(choice, sheltered, cells)] += 1
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("games")
    ap.add_argument("agent", help="the agent that answers as the side to move, e.g. strong")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--limit", type=int, default=0, help="only the first G games (a check)")
    a = ap.parse_args()
    with open(a.games, newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    if a.limit:
        rows = rows[: a.limit]
    games = [game_counts(int(r["game"]), r, a.agent, a.seed) for r in rows]

    def total(sample, k):
        return sum(g[k] for g in sample)

    def stats(sample):
        s = total(sample, "sheltered")
        binds, chance = total(sample, "binds"), total(sample, "chance")
        return {
            "frequency": s / total(sample, "positions"),
            "hiding": total(sample, "hiding") / s,
            "hidden per sheltered position": total(sample, "hidden") / s,
            "binding": binds / s,
            "chance baseline": chance / s,
            "binding / chance": binds / chance if chance else float("nan"),
            **{f"role {r} (of binding)": total(sample, r) / binds if binds else float("nan") for r in ROLES},
        }

    point = stats(games)
    rng = random.Random(a.seed)
    boots = {k: [] for k in point}
    for _ in range(a.resamples):
        sample = [games[rng.randrange(len(games))] for _ in games]
        for k, v in stats(sample).items():
            boots[k].append(v)

    def ci(xs, level=0.95):
        xs = sorted(x for x in xs if x == x)
        tail = (1 - level) / 2
        return xs[int(tail * len(xs))], xs[int((1 - tail) * len(xs)) - 1]

    print(f"{a.games}: {len(games)} games, agent {a.agent}, seed {a.seed}, {a.resamples} bootstrap resamples of games")
    print("counts: " + ", ".join(f"{k} {total(games, k):g}" for k in ("positions", "sheltered", "hiding", "hidden", "binds", "clock_moved", *ROLES)))
    print("measure,value,lo,hi")
    for k, v in point.items():
        lo, hi = ci(boots[k])
        print(f"{k},{v:.4f},{lo:.4f},{hi:.4f}")
    lo, hi = ci(boots["binding / chance"], 0.975)
    verdict = "rejected" if lo > 1 else "not rejected"
    print(f"planned test: binding / chance = 1, 97.5 % interval [{lo:.4f}, {hi:.4f}]: {verdict}")


if __name__ == "__main__":
    main()
