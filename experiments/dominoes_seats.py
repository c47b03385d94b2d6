"""Seat balance of a dominoes games file of `senat selfplay --game dominoes`:
one row per seat (players, seat, agent, matches, wins, win_rate, win_lo,
win_hi, draws, mean_rounds), wins from the `winner_seat` column, Wilson
95 % intervals. Seat 0 plays the batch's `first` agent, every other seat
its `second`.

    python3 experiments/dominoes_seats.py GAMES.csv PLAYERS
"""
import csv
import sys

from senatstats import wilson


def identity(line):
    """The key=value fields of a `# game-batch 1` identity line."""
    fields = {}
    for token in line.split()[3:]:
        key, _, value = token.partition("=")
        fields[key] = value
    return fields


def main(path, players):
    with open(path, newline="") as f:
        ident = identity(f.readline())
        rows = list(csv.DictReader(f))
    n = len(rows)
    wins = [sum(1 for r in rows if r["winner_seat"] == str(p)) for p in range(players)]
    draws = sum(1 for r in rows if r["winner_seat"] == "draw")
    rounds = sum(int(r["rounds"]) for r in rows) / n
    out = csv.writer(sys.stdout, lineterminator="\n")
    for p in range(players):
        lo, hi = wilson(wins[p], n)
        agent = ident["first"] if p == 0 else ident["second"]
        out.writerow([players, p, agent, n, wins[p], f"{wins[p] / n:.4f}", f"{lo:.4f}", f"{hi:.4f}", draws, f"{rounds:.2f}"])


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
