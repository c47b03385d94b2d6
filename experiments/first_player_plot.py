#!/usr/bin/env python3
"""Draws DIR/effects.csv (experiments/first_player.py) as DIR/balance.svg
(blue's score per tier in each of the four cells of first_giver x
first_mover, with 95 % intervals and the 50 % line) and DIR/effects.svg
(what moving first and placing first and last are worth, per tier).
Colours are not the game's red and blue. Standard library only; the PNGs
are drawn by experiments/report.sh (`chromium --headless --screenshot`).

Usage: first_player_plot.py DIR TIER...   (a TIER is T, or LABEL@PATH/NAME: senatstats.tier_arg)
"""
import csv
import os
import re
import sys

from senatstats import tier_arg

CELLS = [
    ("rules", "rules: blue moves first, red places last", "#222222", "0"),
    ("G", "first_giver=red: blue moves first and places last", "#e69f00", "6,3"),
    ("F", "first_mover=red: red moves first and places last", "#009e73", "2,3"),
    ("GF", "both: red moves first, blue places last", "#7b3294", "8,3,2,3"),
]
EFFECTS = [
    ("2M moving first", "moving first (2M)", "#222222", "0"),
    ("2P placing last", "placing first and last, 12 dice to 11 (2P)", "#e69f00", "6,3"),
]


class Chart:
    """One panel: tiers on x, a value with its interval on y, series with a legend below."""

    def __init__(self, tiers, values, w, h, bottom, title, ylabel):
        self.tiers, self.w, self.h, self.left, self.right, self.top, self.bottom = tiers, w, h, 70, 20, 40, bottom
        self.lo, self.hi = min(values) - 0.02, max(values) + 0.02
        self.s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" '
                  f'font-size="13">', f'<rect width="{w}" height="{h}" fill="white"/>',
                  f'<text x="{w / 2}" y="22" text-anchor="middle" font-size="15">{title}</text>',
                  f'<text transform="translate(18,{(self.top + h - bottom) / 2}) rotate(-90)" '
                  f'text-anchor="middle">{ylabel}</text>']

    def px(self, i):
        return self.left + (i + 0.5) * (self.w - self.left - self.right) / len(self.tiers)

    def py(self, v):
        return self.top + (self.hi - v) / (self.hi - self.lo) * (self.h - self.top - self.bottom)

    def grid(self, step, label, ref):
        """Grid lines every `step`, labelled by `label(v)`, and a darker line at `ref`."""
        v = round(self.lo / step) * step
        while v <= self.hi + 1e-9:
            if v >= self.lo:
                self.s.append(f'<line x1="{self.left}" x2="{self.w - self.right}" y1="{self.py(v):.1f}" '
                              f'y2="{self.py(v):.1f}" stroke="#e5e5e5"/>')
                self.s.append(f'<text x="{self.left - 6}" y="{self.py(v) + 4:.1f}" text-anchor="end">'
                              f'{label(v)}</text>')
            v += step
        self.s.append(f'<line x1="{self.left}" x2="{self.w - self.right}" y1="{self.py(ref):.1f}" '
                      f'y2="{self.py(ref):.1f}" stroke="#888" stroke-width="1.5"/>')

    def tier_labels(self, under=None):
        for i, t in enumerate(self.tiers):
            y = self.h - self.bottom + 20
            self.s.append(f'<text x="{self.px(i):.1f}" y="{y}" text-anchor="middle">{t}</text>')
            if under:
                self.s.append(f'<text x="{self.px(i):.1f}" y="{y + 16}" text-anchor="middle" fill="#666" '
                              f'font-size="11">{under(t)}</text>')

    def series(self, k, n, points, label, colour, dash, legend_y):
        """Series k of n: (mean, low, high) per tier, offset so the intervals do not overlap."""
        off, pts = (k - (n - 1) / 2) * 7, []
        for i, (m, a, b) in enumerate(points):
            x = self.px(i) + off
            pts.append(f"{x:.1f},{self.py(m):.1f}")
            self.s.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{self.py(a):.1f}" y2="{self.py(b):.1f}" '
                          f'stroke="{colour}" stroke-width="2"/>')
            self.s.append(f'<circle cx="{x:.1f}" cy="{self.py(m):.1f}" r="3.5" fill="{colour}"/>')
        self.s.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{colour}" stroke-width="1.5" '
                      f'stroke-dasharray="{dash}"/>')
        ly = legend_y + 19 * k
        self.s.append(f'<line x1="{self.left}" x2="{self.left + 34}" y1="{ly - 4}" y2="{ly - 4}" stroke="{colour}" '
                      f'stroke-width="2" stroke-dasharray="{dash}"/><circle cx="{self.left + 17}" cy="{ly - 4}" '
                      f'r="3.5" fill="{colour}"/>')
        self.s.append(f'<text x="{self.left + 42}" y="{ly}">{label}</text>')

    def save(self, path, note):
        self.s.append(f'<text x="{self.w - self.right}" y="{self.h - 8}" text-anchor="end" fill="#666" '
                      f'font-size="11">{note}</text>')
        self.s.append("</svg>")
        with open(path, "w") as f:
            f.write("\n".join(self.s) + "\n")


def read(d):
    """effects.csv as {(tier, quantity): (estimate, low, high)}, cells keyed by their name, with games."""
    vals, games = {}, {}
    with open(os.path.join(d, "effects.csv"), newline="") as f:
        for r in csv.DictReader(f):
            est = (float(r["estimate"]), float(r["low"]), float(r["high"]))
            m = re.match(r"cell (\w+): blue score \((\d+) games", r["quantity"])
            if m:
                vals[(r["tier"], m.group(1))] = est
                games[(r["tier"], m.group(1))] = m.group(2)
            else:
                vals[(r["tier"], r["quantity"])] = est
    return vals, games


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    d = sys.argv[1]
    tiers = [tier_arg(d, a)[0] for a in sys.argv[2:]]
    vals, games = read(d)

    ys = [v for t in tiers for c, *_ in CELLS for v in vals[(t, c)]] + [0.5]
    c = Chart(tiers, ys, 760, 470, 150, "Blue's score by tier, in the four cells of first_giver × first_mover",
              "blue's score (win 1, draw ½)")
    c.lo, c.hi = max(0.0, c.lo), min(1.0, c.hi)
    c.grid(0.05 if c.hi - c.lo > 0.2 else 0.02, lambda v: f"{100 * v:.0f} %", 0.5)
    c.s.append(f'<text x="{c.w - c.right - 4}" y="{c.py(0.5) - 5:.1f}" text-anchor="end" fill="#555">'
               f'50 %: no advantage</text>')
    def sizes(t):
        rules, others = games[(t, "rules")], {games[(t, c)] for c in ("G", "F", "GF")}
        return f"{rules} games per cell" if others == {rules} else f"{rules} in rules, {'/'.join(sorted(others))} in the others"

    c.tier_labels(sizes)
    for k, (cell, label, colour, dash) in enumerate(CELLS):
        c.series(k, len(CELLS), [vals[(t, cell)] for t in tiers], label, colour, dash, c.h - c.bottom + 62)
    c.save(os.path.join(d, "balance.svg"), "bars: 95 % intervals; tiers ordered by strength")

    ys = [v for t in tiers for k, *_ in EFFECTS for v in vals[(t, k)]] + [0.0]
    e = Chart(tiers, ys, 760, 430, 110, "What each first-player role is worth, by tier (points of score)",
              "points of score for the side that has the role")
    e.grid(0.05, lambda v: "0" if abs(v) < 1e-9 else f"{100 * v:+.0f}", 0.0)
    e.tier_labels()
    for k, (key, label, colour, dash) in enumerate(EFFECTS):
        e.series(k, len(EFFECTS), [vals[(t, key)] for t in tiers], label, colour, dash, e.h - e.bottom + 48)
    e.save(os.path.join(d, "effects.svg"), "bars: 95 % intervals; random: 2P is 0 by construction")


if __name__ == "__main__":
    main()
