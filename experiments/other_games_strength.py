"""Balance against strength for Focus, Focus4, Débâcle and dominoes: reads
the games files of experiments/other-games-strength.sh (OUT/games/*.csv)
and writes into OUT:

  strength.csv  one row per batch: the first player's (dominoes: seat 0's)
                score with its Wilson 95 % interval, W/D/L, distinct games
  metrics.csv   Ludii-like metrics the games files allow, per batch:
                AdvantageP1, Balance, Completion, Drawishness, Cap (games
                that reached Focus's ply cap, whoever it scores), Duration (mean, p10, median, p90)
  eval-metrics.csv  per batch, from `senat metrics` on its moves file
                (OUT/games/*-metrics.csv): the evaluation-based metrics
                DecisivenessMoves, LeadChange, Drama, Drama.max and
                BranchingFactor with their 95 % intervals
  seats.csv     dominoes: every seat's win rate per tier
  tests.csv     the plan's 18 tests (strongest - random, strongest - greedy),
                normal 95 % intervals, Holm over the 18; dominoes also paired
  strength.md   the tables in Markdown
  strength.png  the curve: tiers on the x axis, one line per cell

    python3 experiments/other_games_strength.py OUT
(results/other-games/strength/PLAN.md). Intervals from senatstats.py.
"""
import csv
import math
import os
import re
import sys

from senatstats import Z, holm, mean_ci, p_two_sided, wilson

CELLS = [  # (game, label, tiers weakest first, as in the plan)
    ("focus", "rules", ["random", "greedy", "mcts:playouts=1000", "ab:depth=2", "ab:depth=3"]),
    ("focus", "fix=draw", ["random", "greedy", "mcts:playouts=1000", "ab:depth=2", "ab:depth=3"]),
    ("focus", "fix=swap", ["random", "greedy", "mcts:playouts=1000", "ab:depth=2", "ab:depth=3"]),
    ("focus4", "rules", ["random", "greedy", "mcts:playouts=1000", "ab:depth=3"]),
    ("focus4", "order=ccw", ["random", "greedy", "mcts:playouts=1000", "ab:depth=3"]),
    ("debacle", "rules", ["random", "greedy", "ab:depth=2", "mcts:playouts=1000", "ab:depth=3"]),
    ("debacle", "scoring=winner", ["random", "greedy", "ab:depth=2", "mcts:playouts=1000", "ab:depth=3"]),
    ("dominoes", "2p", ["random", "greedy", "pimc:playouts=300,worlds=10", "ismcts:playouts=300"]),
    ("dominoes", "4p", ["random", "greedy", "pimc:playouts=300,worlds=10", "ismcts:playouts=300"]),
]
CAP = {"focus": 1000, "focus4": 2000}


def fname(out, game, label, tier):
    t = tier.replace(":", "_").replace("=", "_").replace(",", "_")
    return os.path.join(out, "games", f"{game}-{label}-{t}.csv")


def read(path):
    with open(path, newline="") as f:
        ident = f.readline()
        rows = list(csv.DictReader(f))
    return ident, rows


def quantile(xs, q):
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def fmt(x, lo, hi, pct=True):
    k = 100 if pct else 1
    return f"{k * x:.1f} [{k * lo:.1f}, {k * hi:.1f}]"


EVAL_METRICS = ["DecisivenessMoves", "LeadChange", "Drama", "Drama.max", "BranchingFactor"]


def read_eval_metrics(out):
    """The evaluation-based metrics of every batch whose `senat metrics` CSV
    exists: (game, cell, tier, games, formatted cells), and the CSV rows."""
    table, rows = [], []
    for game, label, tiers in CELLS:
        for tier in tiers:
            path = fname(out, game, label, tier)[:-len(".csv")] + "-metrics.csv"
            if not os.path.exists(path):
                continue
            with open(path, newline="") as f:
                got = {r["metric"]: r for r in csv.DictReader(f)}
            games = got["Duration"]["games"]
            cells = []
            for m in EVAL_METRICS:
                r = got.get(m)
                if r is None or r["value"] == "":
                    cells.append("–")
                    continue
                d = 1 if m == "BranchingFactor" else 3
                v = f"{float(r['value']):.{d}f}"
                if r["low"] != "":
                    v += f" [{float(r['low']):.{d}f}, {float(r['high']):.{d}f}]"
                if r["games"] != games:
                    v += f" ({r['games']})"
                cells.append(v)
                rows.append([game, label, tier, r["games"], m, r["value"], r["low"], r["high"]])
            table.append((game, label, tier, games, cells))
    return table, rows


def binary_of(out):
    """The binary named in OUT/runs.txt's header (`binary PATH (senat VERSION)`), for the plot's title."""
    try:
        with open(os.path.join(out, "runs.txt")) as f:
            head = f.readline()
    except OSError:
        return "binary unknown"
    m = re.search(r"binary (\S+)", head)
    return f"binary {os.path.basename(m.group(1))}" if m else "binary unknown"


def main(out):
    evals, eval_rows = read_eval_metrics(out)
    with open(os.path.join(out, "eval-metrics.csv"), "w", newline="") as f:
        wr = csv.writer(f, lineterminator="\n")
        wr.writerow(["game", "cell", "tier", "games", "metric", "value", "low", "high"])
        wr.writerows(eval_rows)
    batches = {}
    strength, metrics, seats = [], [], []
    for game, label, tiers in CELLS:
        for tier in tiers:
            path = fname(out, game, label, tier)
            if not os.path.exists(path):
                continue
            ident, rows = read(path)
            n = len(rows)
            distinct = len({tuple(v for k, v in r.items() if k not in ("game", "game_seed")) for r in rows})
            plies = [int(r["plies"]) for r in rows]
            if game == "dominoes":
                players = int(label[0])
                x = [1.0 if r["winner_seat"] == "0" else 0.0 for r in rows]
                w = int(sum(x))
                d = sum(1 for r in rows if r["winner_seat"] == "draw")
                l = n - w - d
                rates = []
                for p in range(players):
                    k = sum(1 for r in rows if r["winner_seat"] == str(p))
                    lo, hi = wilson(k, n)
                    rates.append(k / n)
                    seats.append([label, tier, p, n, k, f"{k / n:.4f}", f"{lo:.4f}", f"{hi:.4f}"])
                balance = 1 - (max(rates) - min(rates))
                rounds = [int(r["rounds"]) for r in rows]
            else:
                w = sum(1 for r in rows if r["winner"] == "first")
                d = sum(1 for r in rows if r["winner"] == "draw")
                l = n - w - d
                x = [1.0 if r["winner"] == "first" else 0.5 if r["winner"] == "draw" else 0.0 for r in rows]
                balance = None
                rounds = None
            s = sum(x) / n
            lo, hi = wilson(sum(x), n)
            if balance is None:
                balance = 1 - abs(2 * s - 1)
            cap = sum(1 for p in plies if game in CAP and p >= CAP[game])  # fix=draw scores the cap as a win
            batches[(game, label, tier)] = x
            strength.append([game, label, tier, n, distinct, w, d, l, f"{s:.4f}", f"{lo:.4f}", f"{hi:.4f}"])
            m = mean_ci(plies)
            mm = [("AdvantageP1" if game != "dominoes" else "Seat0Wins", s, lo, hi),
                  ("Balance", balance, None, None),
                  ("Completion", (n - d) / n, *wilson(n - d, n)),
                  ("Drawishness", d / n, *wilson(d, n)),
                  ("Cap", cap / n, *wilson(cap, n)),
                  ("Duration", m[0], m[1], m[2]),
                  ("Duration.p10", quantile(plies, 0.1), None, None),
                  ("Duration.median", quantile(plies, 0.5), None, None),
                  ("Duration.p90", quantile(plies, 0.9), None, None)]
            if rounds:
                r = mean_ci(rounds)
                mm.append(("Rounds", r[0], r[1], r[2]))
            for name, v, a, b in mm:
                metrics.append([game, label, tier, n, name, f"{v:.4f}", "" if a is None else f"{a:.4f}",
                                "" if b is None else f"{b:.4f}"])
    with open(os.path.join(out, "strength.csv"), "w", newline="") as f:
        wr = csv.writer(f, lineterminator="\n")
        wr.writerow(["game", "cell", "tier", "games", "distinct_games", "first_wins", "draws", "first_losses",
                     "first_score", "score_lo", "score_hi"])
        wr.writerows(strength)
    with open(os.path.join(out, "metrics.csv"), "w", newline="") as f:
        wr = csv.writer(f, lineterminator="\n")
        wr.writerow(["game", "cell", "tier", "games", "metric", "value", "low", "high"])
        wr.writerows(metrics)
    with open(os.path.join(out, "seats.csv"), "w", newline="") as f:
        wr = csv.writer(f, lineterminator="\n")
        wr.writerow(["cell", "tier", "seat", "matches", "wins", "win_rate", "win_lo", "win_hi"])
        wr.writerows(seats)
    # the plan's 18 tests
    tests = []
    for game, label, tiers in CELLS:
        top = tiers[-1]
        for base in ("random", "greedy"):
            a, b = batches.get((game, label, top)), batches.get((game, label, base))
            if a is None or b is None:
                continue
            ma, va = sum(a) / len(a), sum((v - sum(a) / len(a)) ** 2 for v in a) / (len(a) - 1)
            mb, vb = sum(b) / len(b), sum((v - sum(b) / len(b)) ** 2 for v in b) / (len(b) - 1)
            diff, se = ma - mb, math.sqrt(va / len(a) + vb / len(b))
            p = p_two_sided(diff / se) if se > 0 else (1.0 if diff == 0 else 0.0)
            paired = ""
            if game == "dominoes":
                k = min(len(a), len(b))
                dm, dlo, dhi, _ = mean_ci([a[i] - b[i] for i in range(k)])
                paired = f"{dm:+.4f} [{dlo:+.4f}, {dhi:+.4f}] ({k} shared deals)"
            tests.append([game, label, f"{top} - {base}", len(a), len(b), diff, diff - Z * se, diff + Z * se, p, paired])
    adj = holm([t[8] for t in tests])
    with open(os.path.join(out, "tests.csv"), "w", newline="") as f:
        wr = csv.writer(f, lineterminator="\n")
        wr.writerow(["game", "cell", "contrast", "games_top", "games_base", "diff", "lo", "hi", "p", "p_holm", "paired"])
        for t, q in zip(tests, adj):
            wr.writerow(t[:5] + [f"{t[5]:+.4f}", f"{t[6]:+.4f}", f"{t[7]:+.4f}", f"{t[8]:.3g}", f"{q:.3g}", t[9]])
    with open(os.path.join(out, "strength.md"), "w") as f:
        f.write("| game | cell | " + " | ".join(f"tier {i + 1}" for i in range(5)) + " |\n|---|---|" + "---|" * 5 + "\n")
        for game, label, tiers in CELLS:
            cells = []
            for r in strength:
                if r[0] == game and r[1] == label:
                    dist = "" if r[4] == r[3] else f", {r[4]} distinct"
                    cells.append(f"{r[2]}: {fmt(float(r[8]), float(r[9]), float(r[10]))} % ({r[3]}{dist})")
            f.write(f"| {game} | {label} | " + " | ".join(cells + [""] * (5 - len(cells))) + " |\n")
        f.write("\nFirst player's score (dominoes: seat 0's wins), Wilson 95 %, (games).\n\n")
        f.write("| game | cell | contrast | difference (points) | p_Holm | paired (dominoes) |\n|---|---|---|---|---|---|\n")
        for t, q in zip(tests, adj):
            f.write(f"| {t[0]} | {t[1]} | {t[2]} ({t[3]} / {t[4]} games) | {100 * t[5]:+.1f} [{100 * t[6]:+.1f}, {100 * t[7]:+.1f}] | {q:.3g} | {t[9]} |\n")
        f.write("\n| game | cell | tier | games | Balance | Completion | Drawishness | at the ply cap | Duration (plies; dominoes: decisions) | p10 / median / p90 | rounds |\n")
        f.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
        byk = {}
        for r in metrics:
            byk.setdefault((r[0], r[1], r[2]), {})[r[4]] = r
        for (g, c, t), mm in byk.items():
            def sh(k, pct=True):
                r = mm.get(k)
                if r is None:
                    return ""
                if r[6] == "":
                    return f"{float(r[5]):.3g}"
                return fmt(float(r[5]), float(r[6]), float(r[7]), pct) + (" %" if pct else "")
            f.write(f"| {g} | {c} | {t} | {mm['Duration'][3]} | {float(mm['Balance'][5]):.3f} | {sh('Completion')} | "
                    f"{sh('Drawishness')} | {sh('Cap') if g in CAP else ''} | {sh('Duration', False)} | "
                    f"{sh('Duration.p10')} / {sh('Duration.median')} / {sh('Duration.p90')} | {sh('Rounds', False)} |\n")
        f.write("\nWilson 95 % for shares, normal for means; Balance = 1 - |s - (1 - s)| (dominoes: 1 - (max - min) of the seats' win rates).\n")
        if evals:
            f.write("\n| game | cell | tier | games | " + " | ".join(EVAL_METRICS) + " |\n")
            f.write("|---|---|---|---|" + "---|" * len(EVAL_METRICS) + "\n")
            for g, c, t, games, cells in evals:
                f.write(f"| {g} | {c} | {t} | {games} | " + " | ".join(cells) + " |\n")
            f.write("\n`senat metrics` on each batch's moves file (docs/commands/metrics.md): the values are the "
                    "game's evaluation as a win probability (Focus, Débâcle: the alpha-beta evaluation through the "
                    "fitted logistic; dominoes: each player's share of exp(score/25)); normal 95 % intervals over "
                    "games; the games each is measured on in brackets where fewer than the batch's (decided games "
                    "for DecisivenessMoves and Drama).\n")
    plot(out, strength)


def plot(out, strength):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return
    groups = [("Focus (2 players)", "focus"), ("Focus (4 players)", "focus4"), ("Débâcle", "debacle"),
              ("Dominoes (seat 0's wins)", "dominoes")]
    colours = ["#1b9e77", "#d95f02", "#7570b3", "#666666"]
    short = {"mcts:playouts=1000": "mcts 1000", "ab:depth=2": "ab d2", "ab:depth=3": "ab d3",
             "pimc:playouts=300,worlds=10": "pimc 300x10", "ismcts:playouts=300": "ismcts 300"}
    fig, axes = plt.subplots(1, 4, figsize=(17, 4.8))
    for ax, (title, game) in zip(axes, groups):
        cells = [c for c in CELLS if c[0] == game]
        for j, (g, label, tiers) in enumerate(cells):
            pts = [(tiers.index(r[2]), float(r[8]), float(r[9]), float(r[10])) for r in strength
                   if r[0] == g and r[1] == label]
            xs = [p[0] + (j - (len(cells) - 1) / 2) * 0.08 for p in pts]
            ys = [100 * p[1] for p in pts]
            err = [[100 * (p[1] - p[2]) for p in pts], [100 * (p[3] - p[1]) for p in pts]]
            ax.errorbar(xs, ys, yerr=err, marker="os^"[j], capsize=3, color=colours[j], label=label)
        tiers = cells[0][2]
        ax.set_xticks(range(len(tiers)))
        ax.set_xticklabels([short.get(t, t) for t in tiers], rotation=20)
        ref = 50 if game != "dominoes" else None
        if game == "dominoes":
            ax.axhline(50, color="black", lw=0.8, ls="--", label="50 % (2p fair)")
            ax.axhline(25, color="grey", lw=0.8, ls=":", label="25 % (4p fair)")
        else:
            ax.axhline(ref, color="black", lw=0.8, ls="--", label="50 %")
        ax.set_title(title)
        ax.set_xlabel("tier (ladder order, weakest first)")
        ax.set_ylim(0, 102)
        ax.legend(fontsize=8, loc="upper left" if game == "dominoes" else "lower left")
    axes[0].set_ylabel("first player's score, % (95 % Wilson)")
    fig.suptitle("Balance against strength, self-play, 4 random book plies (board games), seed 2801, " + binary_of(out))
    fig.tight_layout()
    fig.savefig(os.path.join(out, "strength.png"), dpi=90)


if __name__ == "__main__":
    main(sys.argv[1])
