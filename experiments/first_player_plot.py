#!/usr/bin/env python3
"""Draws DIR/effects.csv (experiments/first_player.py) as DIR/balance.svg
(blue's score per tier in each of the four cells of first_giver x
first_mover, with 95 % intervals and the 50 % line) and DIR/effects.svg
(what moving first and placing first and last are worth, per tier). Colours are not the
game's red and blue. Standard library only; convert to PNG with
`chromium --headless --screenshot` (see experiments/first-player.sh).

Usage: first_player_plot.py DIR TIER...
"""
import csv
import os
import re
import sys

CELLS = [
    ("rules", "rules: blue moves first, red places last", "#222222", "0"),
    ("G", "first_giver=red: blue moves first and places last", "#e69f00", "6,3"),
    ("F", "first_mover=red: red moves first and places last", "#009e73", "2,3"),
    ("GF", "both: red moves first, blue places last", "#7b3294", "8,3,2,3"),
]


def main():
    d, tiers = sys.argv[1], sys.argv[2:]
    vals = {}
    with open(os.path.join(d, "effects.csv"), newline="") as f:
        for r in csv.DictReader(f):
            m = re.match(r"cell (\w+): blue score \((\d+) games", r["quantity"])
            if m:
                vals[(r["tier"], m.group(1))] = (float(r["estimate"]), float(r["low"]), float(r["high"]), m.group(2))
    w, h, left, right, top, bottom = 760, 470, 70, 20, 40, 150
    ys = [v for t in tiers for c, *_ in CELLS for v in vals[(t, c)][:3]] + [0.5]
    lo, hi = min(ys) - 0.02, max(ys) + 0.02
    lo, hi = max(0.0, lo), min(1.0, hi)
    px = lambda i: left + (i + 0.5) * (w - left - right) / len(tiers)
    py = lambda v: top + (hi - v) / (hi - lo) * (h - top - bottom)
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="13">',
         f'<rect width="{w}" height="{h}" fill="white"/>',
         f'<text x="{w / 2}" y="22" text-anchor="middle" font-size="15">Blue\'s score by tier, in the four cells of '
         f'first_giver × first_mover</text>']
    step = 0.05 if hi - lo > 0.2 else 0.02
    v = round(lo / step) * step
    while v <= hi + 1e-9:
        if v >= lo:
            s.append(f'<line x1="{left}" x2="{w - right}" y1="{py(v):.1f}" y2="{py(v):.1f}" stroke="#e5e5e5"/>')
            s.append(f'<text x="{left - 6}" y="{py(v) + 4:.1f}" text-anchor="end">{100 * v:.0f} %</text>')
        v += step
    s.append(f'<line x1="{left}" x2="{w - right}" y1="{py(0.5):.1f}" y2="{py(0.5):.1f}" stroke="#888" '
             f'stroke-width="1.5"/><text x="{w - right - 4}" y="{py(0.5) - 5:.1f}" text-anchor="end" fill="#555">'
             f'50 %: no advantage</text>')
    s.append(f'<text transform="translate(18,{(top + h - bottom) / 2}) rotate(-90)" text-anchor="middle">'
             f'blue\'s score (win 1, draw ½)</text>')
    for i, t in enumerate(tiers):
        n = vals[(t, "rules")][3]
        s.append(f'<text x="{px(i):.1f}" y="{h - bottom + 20}" text-anchor="middle">{t}</text>')
        s.append(f'<text x="{px(i):.1f}" y="{h - bottom + 36}" text-anchor="middle" fill="#666" font-size="11">'
                 f'{n} games per cell</text>')
    for k, (c, label, colour, dash) in enumerate(CELLS):
        off = (k - 1.5) * 7
        pts = []
        for i, t in enumerate(tiers):
            m, a, b, _ = vals[(t, c)]
            x = px(i) + off
            pts.append(f"{x:.1f},{py(m):.1f}")
            s.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{py(a):.1f}" y2="{py(b):.1f}" stroke="{colour}" '
                     f'stroke-width="2"/>')
            s.append(f'<circle cx="{x:.1f}" cy="{py(m):.1f}" r="3.5" fill="{colour}"/>')
        s.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{colour}" stroke-width="1.5" '
                 f'stroke-dasharray="{dash}"/>')
        ly = h - bottom + 62 + 19 * k
        s.append(f'<line x1="{left}" x2="{left + 34}" y1="{ly - 4}" y2="{ly - 4}" stroke="{colour}" stroke-width="2" '
                 f'stroke-dasharray="{dash}"/><circle cx="{left + 17}" cy="{ly - 4}" r="3.5" fill="{colour}"/>')
        s.append(f'<text x="{left + 42}" y="{ly}">{label}</text>')
    s.append(f'<text x="{w - right}" y="{h - 8}" text-anchor="end" fill="#666" font-size="11">bars: 95 % intervals; '
             f'tiers ordered by strength</text>')
    s.append("</svg>")
    with open(os.path.join(d, "balance.svg"), "w") as f:
        f.write("\n".join(s) + "\n")


EFFECTS = [
    ("2M moving first", "moving first (2M)", "#222222", "0"),
    ("2P placing last", "placing first and last, 12 dice to 11 (2P)", "#e69f00", "6,3"),
]


def effects(d, tiers):
    """DIR/effects.svg: what moving first and placing first and last are worth, per tier."""
    vals = {}
    with open(os.path.join(d, "effects.csv"), newline="") as f:
        for r in csv.DictReader(f):
            vals[(r["tier"], r["quantity"])] = (float(r["estimate"]), float(r["low"]), float(r["high"]))
    w, h, left, right, top, bottom = 760, 430, 70, 20, 40, 110
    ys = [v for t in tiers for k, *_ in EFFECTS for v in vals[(t, k)]] + [0.0]
    lo, hi = min(ys) - 0.02, max(ys) + 0.02
    px = lambda i: left + (i + 0.5) * (w - left - right) / len(tiers)
    py = lambda v: top + (hi - v) / (hi - lo) * (h - top - bottom)
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="13">',
         f'<rect width="{w}" height="{h}" fill="white"/>',
         f'<text x="{w / 2}" y="22" text-anchor="middle" font-size="15">What each first-player role is worth, '
         f'by tier (points of score)</text>']
    v = round(lo / 0.05) * 0.05
    while v <= hi + 1e-9:
        if v >= lo:
            s.append(f'<line x1="{left}" x2="{w - right}" y1="{py(v):.1f}" y2="{py(v):.1f}" stroke="#e5e5e5"/>')
            label = "0" if abs(v) < 1e-9 else f"{100 * v:+.0f}"
            s.append(f'<text x="{left - 6}" y="{py(v) + 4:.1f}" text-anchor="end">{label}</text>')
        v += 0.05
    s.append(f'<line x1="{left}" x2="{w - right}" y1="{py(0):.1f}" y2="{py(0):.1f}" stroke="#888" stroke-width="1.5"/>')
    s.append(f'<text transform="translate(18,{(top + h - bottom) / 2}) rotate(-90)" text-anchor="middle">'
             f'points of score for the side that has the role</text>')
    for i, t in enumerate(tiers):
        s.append(f'<text x="{px(i):.1f}" y="{h - bottom + 20}" text-anchor="middle">{t}</text>')
    for k, (key, label, colour, dash) in enumerate(EFFECTS):
        off = (k - 0.5) * 10
        pts = []
        for i, t in enumerate(tiers):
            m, a, b = vals[(t, key)]
            x = px(i) + off
            pts.append(f"{x:.1f},{py(m):.1f}")
            s.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{py(a):.1f}" y2="{py(b):.1f}" stroke="{colour}" '
                     f'stroke-width="2"/><circle cx="{x:.1f}" cy="{py(m):.1f}" r="3.5" fill="{colour}"/>')
        s.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{colour}" stroke-width="1.5" '
                 f'stroke-dasharray="{dash}"/>')
        ly = h - bottom + 48 + 19 * k
        s.append(f'<line x1="{left}" x2="{left + 34}" y1="{ly - 4}" y2="{ly - 4}" stroke="{colour}" stroke-width="2" '
                 f'stroke-dasharray="{dash}"/><circle cx="{left + 17}" cy="{ly - 4}" r="3.5" fill="{colour}"/>')
        s.append(f'<text x="{left + 42}" y="{ly}">{label}</text>')
    s.append(f'<text x="{w - right}" y="{h - 8}" text-anchor="end" fill="#666" font-size="11">bars: 95 % intervals; '
             f'random: 2P is 0 by construction</text>')
    s.append("</svg>")
    with open(os.path.join(d, "effects.svg"), "w") as f:
        f.write("\n".join(s) + "\n")


if __name__ == "__main__":
    main()
    effects(sys.argv[1], sys.argv[2:])
