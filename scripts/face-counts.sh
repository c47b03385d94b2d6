#!/usr/bin/env bash
# Issue 57's counts of how split the games' face is, for a closing note's
# before and after: lines of the lab, the binary and the Python module,
# `GameKind::` references outside the catalog, `on_game!` uses, Arena
# types, and the import circles among the lab's modules (strongly connected
# components of the `crate::`/`super::` paths in code, test modules and
# comments, doc links included, left out).
# Usage: scripts/face-counts.sh [DIR]   (a checkout; default: this one)
set -euo pipefail
cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}"
lines() { find "$@" -name '*.rs' -print0 | xargs -0 cat | wc -l; }
refs() { { grep -ro 'GameKind::' "$@" --include='*.rs' 2>/dev/null || true; } | wc -l; }
echo "lab lines (crates/lab/src): $(lines crates/lab/src)"
echo "binary lines (src): $(lines src)"
echo "python module lines (crates/python/src): $(lines crates/python/src)"
cat_refs=$(( $(grep -o 'GameKind::' crates/lab/src/games/mod.rs | wc -l) + $(refs crates/lab/src/catalog) ))
echo "GameKind:: references: src/cli $(refs src), crates/python/src $(refs crates/python/src), crates/lab/src outside the catalog (games/mod.rs, catalog/) $(( $(refs crates/lab/src) - cat_refs )), in it ${cat_refs}"
echo "on_game! uses in src: $(grep -ro 'on_game!' src | wc -l)"
echo "Arena types (pub struct *Arena in crates/lab/src): $(grep -rE 'pub struct [A-Za-z]*Arena\b' crates/lab/src | wc -l)"
python3 - crates/lab/src <<'PY'
import os, re, sys
root = sys.argv[1]
mods = {}
for dp, _, fs in os.walk(root):
    for f in fs:
        if f.endswith('.rs'):
            p = os.path.join(dp, f)
            parts = os.path.relpath(p, root)[:-3].split(os.sep)
            if parts[-1] in ('mod', 'lib'):
                parts = parts[:-1]
            mods['::'.join(parts)] = p
def resolve(path):
    segs = path.split('::')
    while segs:
        k = '::'.join(segs)
        if k in mods:
            return k
        segs = segs[:-1]
    return None
edges = {m: set() for m in mods}
for m, p in mods.items():
    src = re.sub(r'#\[cfg\(test\)\]\s*mod tests\s*\{.*', '', open(p).read(), flags=re.S)
    src = re.sub(r'//.*', '', src)  # comments and doc links are not imports
    for mm in re.finditer(r'crate::([A-Za-z_][\w:]*)', src):
        t = resolve(mm.group(1))
        if t and t != m:
            edges[m].add(t)
    for mm in re.finditer(r'\bsuper::([A-Za-z_][\w:]*)', src):
        t = resolve('::'.join([x for x in m.split('::')[:-1] if x] + [mm.group(1)]))
        if t and t != m:
            edges[m].add(t)
index, low, stack, on, comps = {}, {}, [], set(), []
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v); on.add(v)
    for w in edges[v]:
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        comps.append(comp)
for v in list(edges):
    if v not in index:
        visit(v)
big = sorted((sorted(c) for c in comps if len(c) > 1), key=len)
print(f"import circles in crates/lab/src: {len(big)}, of {', '.join(str(len(c)) for c in big)} modules")
for c in big:
    print('  ' + ' '.join(c))
PY
