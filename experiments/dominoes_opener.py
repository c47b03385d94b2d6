#!/usr/bin/env python3
"""The opener's edge and the seat balance of a dominoes self-play batch
(`senat selfplay --game dominoes --rounds ROUNDS.csv [--out GAMES.csv]
[--rotate]`). Standard library only. Prints one CSV table:

- `opener` rows, from the rounds file: how often the round's opener (the
  seat that made its first play, column `opener`) scored the round, with a
  Wilson 95 % interval (rounds taken as independent) and a normal interval
  clustered by match (rounds of one match share its agents and scores), or
  in a `--rotate` batch by deal (with deterministic agents, such as greedy
  against greedy, the P rotations of a deal are one match with the seats
  renamed: its rounds are copies, and only the clustered interval is
  honest), against the fair share 1/P (P players; `p_fair`: two-sided normal test of
  the rate against 1/P). One row for all rounds, one for the rounds that
  ended with a domino and one for the blocked rounds (in which nobody may
  score: a `none` winner counts as the opener not scoring).
- `seat` rows, from the games file when given: each seat's share of the
  matches won. In a `--rotate` batch (identity `rotate=true`) game i is
  rotation i mod P of deal i div P, so each deal gives every hand to every
  seat once: the seat's rate is the mean over complete deals of its wins
  among the deal's P matches, with a normal 95 % interval over deals (paired:
  the deal's luck cancels), `p_fair` against 1/P and `p_holm` over the seats.
  Without `--rotate` the rows are plain Wilson intervals over matches.
  Seats carry no rule of their own (every round is opened by the hand
  holding the highest double), so with the same deterministic agent in
  every seat a rotated batch gives each seat exactly 1/P by construction;
  the seat rows measure something when the agents differ (seat 0 plays
  `--first`) or draw randomness.

Usage: experiments/dominoes_opener.py ROUNDS.csv [GAMES.csv]
"""
import csv
import math
import sys

from senatstats import holm, mean_ci, p_two_sided, wilson

HEADER = ["section", "row", "n", "wins", "rate", "lo95", "hi95", "interval", "fair", "p_fair", "p_holm"]


class Refusal(Exception):
    """A file that this script cannot read, with the reason."""


def read(path, kind):
    """The identity fields (a dict) and the rows (dicts) of a batch file."""
    try:
        with open(path, newline="") as f:
            line = f.readline()
            if not line.startswith("# senat-batch v2 ") or "game=dominoes" not in line.split():
                raise Refusal(f"{path}: not a {kind} file of `senat selfplay --game dominoes` (no dominoes identity line)")
            ident = dict(t.partition("=")[::2] for t in line.split()[3:])
            reader = csv.DictReader(f)
            rows = list(reader)
            return ident, reader.fieldnames or [], rows
    except OSError as e:
        raise Refusal(f"cannot read {path}: {e.strerror}") from None


def fmt(x):
    return f"{x:.4f}"


def p_against(rate, fair, se):
    """Two-sided normal p-value of `rate` against `fair` with standard error `se`."""
    if se <= 0:
        return 1.0 if rate == fair else 0.0
    return p_two_sided((rate - fair) / se)


def opener_rows(rounds, players, rotate):
    """The opener's share of round wins: all rounds, domino rounds, blocked
    rounds; clustered by match, or by deal in a rotated batch (with
    deterministic agents a deal's rotations are the same match with the
    seats renamed, so its rounds count once, not P times)."""
    fair = 1 / players
    out = []
    for label, keep in [
        ("all rounds", lambda r: True),
        ("domino rounds", lambda r: r["end"] == "domino"),
        ("blocked rounds", lambda r: r["end"] == "block"),
    ]:
        chosen = [r for r in rounds if keep(r)]
        n = len(chosen)
        k = sum(1 for r in chosen if r["winner"] == r["opener"])
        rate = k / n if n else 0.0
        lo, hi = wilson(k, n)
        out.append(["opener", label, n, k, fmt(rate), fmt(lo), fmt(hi), "wilson (rounds as independent)", fmt(fair),
                    fmt(p_against(rate, fair, math.sqrt(fair * (1 - fair) / n)) if n else 1.0), ""])
        # The same rate with rounds clustered by match or deal (ratio estimator).
        per = {}
        for r in chosen:
            key = int(r["game"]) // players if rotate else int(r["game"])
            won, total = per.get(key, (0, 0))
            per[key] = (won + (r["winner"] == r["opener"]), total + 1)
        m = len(per)
        if m > 1:
            ss = sum((w - rate * t) ** 2 for w, t in per.values())
            se = math.sqrt(m / (m - 1) * ss) / n
            out.append(["opener", label, n, k, fmt(rate), fmt(rate - 1.959963984540054 * se),
                        fmt(rate + 1.959963984540054 * se), f"clustered by {m} {'deals' if rotate else 'matches'}", fmt(fair),
                        fmt(p_against(rate, fair, se)), ""])
    return out


def seat_rows(games, players, rotate, ident):
    """Each seat's share of the matches won (paired over deals when rotated)."""
    fair = 1 / players
    agent = [ident.get("first", "") if s == 0 else ident.get("second", "") for s in range(players)]
    rows = []
    if rotate:
        by_index = {int(g["game"]): g["winner_seat"] for g in games}
        start = min(by_index) if by_index else 0
        deals = []
        for d in range(-(-start // players), max(by_index, default=-1) // players + 1):
            idx = range(d * players, (d + 1) * players)
            if all(i in by_index for i in idx):
                deals.append([by_index[i] for i in idx])
        if len(deals) < 2:
            raise Refusal("a rotated batch needs at least 2 complete deals (P games in a row each) for its seat rows")
        ps = []
        for s in range(players):
            xs = [sum(1 for w in deal if w == str(s)) / players for deal in deals]
            m, lo, hi, se = mean_ci(xs)
            ps.append(p_against(m, fair, se))
            wins = sum(1 for deal in deals for w in deal if w == str(s))
            rows.append(["seat", f"{s} ({agent[s]})", len(deals), wins, fmt(m), fmt(lo), fmt(hi),
                         f"paired over {len(deals)} deals", fmt(fair), fmt(ps[-1]), ""])
    else:
        n = len(games)
        ps = []
        for s in range(players):
            k = sum(1 for g in games if g["winner_seat"] == str(s))
            lo, hi = wilson(k, n)
            ps.append(p_against(k / n, fair, math.sqrt(fair * (1 - fair) / n)) if n else 1.0)
            rows.append(["seat", f"{s} ({agent[s]})", n, k, fmt(k / n if n else 0.0), fmt(lo), fmt(hi),
                         "wilson (unrotated: the deal's luck not cancelled)", fmt(fair), fmt(ps[-1]), ""])
    for row, p in zip(rows, holm(ps)):
        row[-1] = fmt(p)
    return rows


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    try:
        ident, columns, rounds = read(argv[1], "rounds")
        missing = [c for c in ("game", "end", "winner", "pips", "opener") if c not in columns]
        if missing:
            raise Refusal(f"{argv[1]}: no column {', '.join(missing)} (a rounds file written before `opener` "
                          "existed, or not a rounds file): play the batch again with this senat")
        if not rounds:
            raise Refusal(f"{argv[1]}: no rounds")
        players = rounds[0]["pips"].count("/") + 1
        out = opener_rows(rounds, players, ident.get("rotate") == "true")
        if len(argv) == 3:
            gident, gcolumns, games = read(argv[2], "games")
            if "winner_seat" not in gcolumns:
                raise Refusal(f"{argv[2]}: no column winner_seat (not a dominoes games file)")
            same = ("seed", "games", "variant", "first", "second", "rotate")
            if any(gident.get(k) != ident.get(k) for k in same):
                raise Refusal(f"{argv[2]} and {argv[1]} are not files of one batch (their identity lines differ)")
            out += seat_rows(games, players, gident.get("rotate") == "true", gident)
    except Refusal as e:
        print(f"dominoes_opener.py: {e}", file=sys.stderr)
        return 2
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
