#!/usr/bin/env python3
"""The manifest of results/: for every committed file under results/, the
command that made it, the commit that ran it and its inputs, so that a
reader can rebuild any figure at HEAD, and a change that moves a
committed file without saying how shows up.

  experiments/manifest.py            writes results/MANIFEST.csv (atomically)
  experiments/manifest.py --check    exits 1, naming each, if a file under
                                     results/ has no row, a row names no file,
                                     or a file's SHA-256 is not its row's

The command of a file is found, in this order:
  1. in its own first lines: a `#` comment that runs something (`senat `,
     `experiments/`, `scripts/`, `cargo `, `python3 `);
  2. in its folder's, then each parent folder's, `runs.txt` or `README.md`:
     the first line that names the file (or its stem) and runs something;
  3. in a text twin's first lines (`X-summary.csv`, `X-games.csv`, `X.png`
     are written by the command at the head of `X.txt`);
  4. a picture (`.png`) takes the command of its `.svg` twin when it has one;
  5. a script of experiments/ or scripts/ that names the file's path (or,
     below results/, its folder);
  6. else the folder's `runs.txt` as a whole (`source` names it, `command`
     says "the folder's runs").
Plans, READMEs, the report and runs.txt files are written by hand
(`command` = `written`).
A file with none of these is listed with `command` = `unknown`: the gaps
are the manifest's point, and its summary line counts them. `commit` is
the nearest `commit <hash>` or `binary of <hash>` above the command in its
source, else the commit that added the file (`added <hash>`); `inputs`
are the repository paths named in the command that exist, each with the
first 12 hex digits of its SHA-256.

Standard library only; git is run for the `added` commits only.
"""
import csv
import hashlib
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
MANIFEST = "results/MANIFEST.csv"
RUNS = re.compile(r"(senat |senat-[0-9a-f]+ |experiments/|scripts/|cargo |python3 |valgrind |target/|\$senat|\$SENAT|/tmp/bin/senat)")
COMMIT = re.compile(r"(?:commit|binary of|at) ([0-9a-f]{7,40})\b")
TEXT = (".csv", ".txt", ".md", ".svg", ".tsv", ".json", ".toml", ".html")
HEAD = ["path", "bytes", "sha256", "source", "command", "commit", "inputs"]


def sha(path, n=64):
    h = hashlib.sha256()
    with open(os.path.join(ROOT, path), "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:n]


def files():
    out = subprocess.run(["git", "ls-files", "-z", "results"], cwd=ROOT, capture_output=True, check=True).stdout
    return sorted(p for p in out.decode().split("\0") if p and p != MANIFEST and os.path.isfile(os.path.join(ROOT, p)))


def lines_of(path):
    try:
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return []


def commit_above(lines, i):
    for j in range(i, -1, -1):
        m = COMMIT.search(lines[j])
        if m:
            return m.group(1)
    return ""


def own_command(path):
    if not path.endswith(TEXT):
        return None
    lines = lines_of(path)[:40]
    for i, line in enumerate(lines):
        s = line.strip()
        if s.startswith(("#", "<!--")) and RUNS.search(s):
            return path, i + 1, s.lstrip("#<!- ").strip(), commit_above(lines, i)
    return None


def twin_command(path):
    """The own command of a text twin: `X-summary.csv`, `X-games.csv` and
    `X.png` are written by the command at the head of `X.txt`."""
    d, base = os.path.split(path)
    stem = re.sub(r"(-summary|-games)?\.[a-z.]+$", "", base)
    for ext in (".txt", ".md", ".svg"):
        twin = os.path.join(d, stem + ext)
        if twin != path and os.path.isfile(os.path.join(ROOT, twin)):
            hit = own_command(twin)
            if hit:
                return hit
    return None


def folder_command(path):
    """The first line of a runs.txt or README.md of the file's folder or a
    parent (then of any text file of its own folder) that names the file
    or its stem and runs something."""
    base = os.path.basename(path)
    stem = base.split(".")[0]
    d = os.path.dirname(path)
    sources = []
    while d.startswith("results"):
        sources += [os.path.join(d, n) for n in ("runs.txt", "README.md")]
        d = os.path.dirname(d)
    here = os.path.dirname(path)
    sources += sorted(os.path.join(here, n) for n in os.listdir(os.path.join(ROOT, here)) if n.endswith((".txt", ".md")))
    for src in sources:
        if src == path or not os.path.isfile(os.path.join(ROOT, src)):
            continue
        lines = lines_of(src)
        keys = [base, stem]
        if os.path.dirname(src) != os.path.dirname(path):
            keys.append(os.path.basename(os.path.dirname(path)) + "/")
            keys.append(os.path.basename(os.path.dirname(path)) + " ")
        for key in keys:
            for i, line in enumerate(lines):
                if key in line and RUNS.search(line):
                    return src, i + 1, line.strip(), commit_above(lines, i)
    return None


def scripts_text():
    """The experiment and helper scripts, with their lines."""
    out = []
    for d in ("experiments", "scripts"):
        for n in sorted(os.listdir(os.path.join(ROOT, d))):
            if n.endswith((".sh", ".py")) and n != "manifest.py":
                out.append((os.path.join(d, n), lines_of(os.path.join(d, n))))
    return out


def script_command(path, scripts):
    """A script of experiments/ or scripts/ that names the file's path, or
    else its folder below results/: the script is the command."""
    keys = [path] if os.path.dirname(path) == "results" else [path, os.path.dirname(path)]
    for key in keys:
        for name, lines in scripts:
            for i, line in enumerate(lines):
                if re.search(re.escape(key) + r"(\b|$|[\"'/ ])", line):
                    return name, i + 1, name, ""
    return None


def written(path):
    """A text written by hand (a plan, a README, the report, a run's log)."""
    base = os.path.basename(path)
    return base in ("README.md", "REPORT.md", "runs.txt") or re.match(r"PLAN.*\.md$", base) is not None


def whole_runs(path):
    """The folder's runs.txt as a whole, else the first line of its
    README.md that runs something (a folder made by one command)."""
    src = os.path.join(os.path.dirname(path), "runs.txt")
    if src != path and os.path.isfile(os.path.join(ROOT, src)):
        lines = lines_of(src)
        return src, 1, "the folder's runs", commit_above(lines, len(lines) - 1) if lines else ""
    src = os.path.join(os.path.dirname(path), "README.md")
    if src != path and os.path.isfile(os.path.join(ROOT, src)):
        lines = lines_of(src)
        for i, line in enumerate(lines):
            if RUNS.search(line) and not line.lstrip().startswith("#"):
                return src, i + 1, line.strip(), commit_above(lines, i)
    return None


def added(path):
    out = subprocess.run(["git", "log", "--diff-filter=A", "--format=%h", "-1", "--", path], cwd=ROOT,
                         capture_output=True, text=True).stdout.strip()
    return f"added {out}" if out else ""


def inputs(command):
    seen = []
    for tok in re.split(r"[\s'\"=,;()]+", command):
        tok = tok.rstrip(".:")
        if "/" in tok and not tok.startswith(("/", "$")) and os.path.isfile(os.path.join(ROOT, tok)):
            if tok not in seen:
                seen.append(tok)
    return " ".join(f"{p}@{sha(p, 12)}" for p in seen)


def build():
    rows, paths = [], files()
    found = {}
    scripts = scripts_text()
    for p in paths:
        found[p] = None if written(p) else own_command(p) or twin_command(p) or folder_command(p)
    for p in paths:
        if found[p] is None and not written(p) and not (p.endswith(".png") and found.get(p[:-4] + ".svg")):
            found[p] = script_command(p, scripts)
    for p in paths:
        if written(p):
            rows.append([p, os.path.getsize(os.path.join(ROOT, p)), sha(p), "", "written", added(p), ""])
            continue
        hit = found[p]
        if hit is None and p.endswith(".png"):
            twin = p[:-4] + ".svg"
            hit = found.get(twin)
        hit = hit or whole_runs(p)
        if hit is None:
            src, line, cmd, commit = "", "", "unknown", ""
        else:
            src, line, cmd, commit = hit
        rows.append([p, os.path.getsize(os.path.join(ROOT, p)), sha(p), f"{src}:{line}" if src else "",
                     cmd[:400], commit or added(p), inputs(cmd) if src else ""])
    return rows


def write(rows):
    fd, tmp = tempfile.mkstemp(dir=os.path.join(ROOT, "results"), prefix=".manifest-")
    with os.fdopen(fd, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEAD)
        w.writerows(rows)
    os.replace(tmp, os.path.join(ROOT, MANIFEST))


def check():
    try:
        with open(os.path.join(ROOT, MANIFEST), newline="") as f:
            rows = {r["path"]: r for r in csv.DictReader(f)}
    except OSError as e:
        sys.exit(f"manifest.py: cannot read {MANIFEST}: {e}")
    bad = []
    now = files()
    for p in now:
        if p not in rows:
            bad.append(f"{p}: no row (run experiments/manifest.py and say in the commit how it was made)")
        elif rows[p]["sha256"] != sha(p):
            bad.append(f"{p}: changed since the manifest was written (rerun by its command, then experiments/manifest.py)")
    for p in sorted(set(rows) - set(now)):
        bad.append(f"{p}: in the manifest but not under results/ (run experiments/manifest.py)")
    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        sys.exit(1)
    print(f"{MANIFEST}: {len(now)} files, every one in it with its hash")


def main():
    if sys.argv[1:] == ["--check"]:
        check()
        return
    if sys.argv[1:]:
        sys.exit(__doc__.split("\n\n")[1])
    rows = build()
    write(rows)
    kinds = {"own": 0, "folder": 0, "runs": 0, "unknown": 0, "written": 0}
    for r in rows:
        if r[4] == "written":
            kinds["written"] += 1
        elif r[4] == "unknown":
            kinds["unknown"] += 1
        elif r[4] == "the folder's runs":
            kinds["runs"] += 1
        elif r[3].startswith(r[0] + ":"):
            kinds["own"] += 1
        else:
            kinds["folder"] += 1
    print(f"wrote {MANIFEST}: {len(rows)} files; written by hand (plans, READMEs, the report, run logs) "
          f"{kinds['written']}; made by a command found in the file or its twin {kinds['own']}, named in its "
          f"folder's texts {kinds['folder']}, only the folder's runs {kinds['runs']}; unknown {kinds['unknown']}")


if __name__ == "__main__":
    main()
