"""Checks docs/formats.md against the files the binary writes.

Small real files of every kind are made with `$SENAT_BIN` (by default
`target/ci/senat` of the workspace) in a temporary folder. Then:

- every section of the page with a `File kind: `KIND`` line has a table
  whose first column names (in backticks) exactly the columns of the files
  of that kind (the header of a CSV, the keys of an identity line, the
  metrics of a summary, the keys of a weights file, the metadata keys of a
  Parquet file), so a column added, removed or renamed on either side
  fails here; a line `...; columns: those of `OTHER`` adds another kind's
  table;
- every ```python snippet whose first line is `# file: KIND` is run against
  each file of that kind (its path literals replaced by the file's path):
  pandas and pyarrow snippets when those are importable (skipped loudly
  otherwise), polars snippets when polars is, else only compiled. Every
  data frame a snippet builds from a CSV must have the file's rows and
  columns and no more missing cells than the file has empty ones.

This file does not import the `senat` module: only the binary is needed.
"""

import csv
import importlib.util
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# Absolute: the commands run in a temporary folder (CI passes target/ci/senat).
BIN = os.path.abspath(os.environ.get("SENAT_BIN", str(ROOT / "target" / "ci" / "senat")))
DOC = ROOT / "docs" / "formats.md"
SAMPLE_GAME = ROOT / "crates" / "rules" / "data" / "sample-game.txt"

# Kinds of the page whose table is not compared with a file's columns
# (the snippet and record checks below cover what they can).
NOT_COLUMNS = {"game-record", "partial-files", "annex-dir"}


# ---------------------------------------------------------------- the page


def parse_doc(text):
    """(kinds, snippets, records): kinds maps a kind to {names, optional,
    includes}; snippets is a list of (kind, code); records the text blocks
    of the game-record section."""
    kinds, snippets, records = {}, [], []
    kind, table_done, in_table = None, False, False
    fence, block = None, []
    for line in text.splitlines():
        if fence is not None:
            if line.startswith("```"):
                if fence == "python" and block and (m := re.match(r"#\s*file:\s*(\S+)", block[0])):
                    snippets.append((m.group(1), "\n".join(block) + "\n"))
                if fence == "text" and kind == "game-record":
                    records.append("\n".join(block) + "\n")
                fence, block = None, []
            else:
                block.append(line)
            continue
        if line.startswith("```"):
            fence, block, in_table = line[3:].strip(), [], False
            continue
        if line.startswith("#"):
            kind, table_done, in_table = None, False, False
            continue
        m = re.match(r"File kind: `([a-z0-9-]+)`", line)
        if m:
            kind = m.group(1)
            assert kind not in kinds, f"docs/formats.md: file kind `{kind}` has two sections"
            includes = re.findall(r"those of `([a-z0-9-]+)`", line)
            kinds[kind] = {"names": [], "optional": set(), "includes": includes}
            continue
        if kind is None or table_done:
            continue
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not in_table:
                in_table = True  # the table's header
                continue
            if set(cells[0]) <= set("-: "):
                continue  # the separator line
            names = re.findall(r"`([^`]+)`", cells[0])
            kinds[kind]["names"].extend(names)
            if len(cells) > 1 and "(optional)" in cells[1]:
                kinds[kind]["optional"].update(names)
        elif in_table:
            in_table, table_done = False, True
    return kinds, snippets, records


DOC_TEXT = DOC.read_text(encoding="utf-8") if DOC.is_file() else ""
KINDS, SNIPPETS, RECORDS = parse_doc(DOC_TEXT)


def table(kind):
    """The names of `kind`'s table and of the tables it includes."""
    assert kind in KINDS, f"docs/formats.md has no section with `File kind: `{kind}``"
    names = list(KINDS[kind]["names"])
    for other in KINDS[kind]["includes"]:
        names += table(other)
    return names


# ---------------------------------------------------------------- the files


def cli(*args, cwd, ok=True):
    if not Path(BIN).is_file():
        pytest.skip(f"no senat binary at {BIN} (build it with `cargo build --profile ci` or set SENAT_BIN)")
    r = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=120, cwd=cwd)
    if ok:
        assert r.returncode == 0, f"senat {' '.join(args)}: {r.stderr}"
    return r


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Makes one small file of every kind; returns the folder."""
    d = tmp_path_factory.mktemp("formats")

    def run(*args):
        return cli(*args, cwd=d)

    (d / "hw.txt").write_text("# weights\npile=12\nexposed=-1\n")
    (d / "h#w.txt").write_text("pile=11\n")
    (d / "open.txt").write_text("g17\n17@I19=Cb\n")
    sp = ("selfplay", "--quiet")
    run(*sp, "--games", "12", "--seed", "3", "--out", "s-g.csv", "--moves", "s-m.csv", "--summary", "s-s.csv")
    run(*sp, "--games", "3", "--red", "heuristic:file=h#w.txt", "--blue", "learned", "--out", "hash-g.csv",
        "--summary", "")
    run(*sp, "--games", "3", "--red", "heuristic:file=hw.txt", "--opening", "open.txt", "--book-plies", "2",
        "--out", "ob-g.csv", "--moves", "ob-m.csv", "--summary", "")
    vary = "mcts:playouts=20,rollout=eval,vary=0.05,temp_plies=8"
    run(*sp, "--games", "2", "--variant", "swap=yes", "--red", vary, "--blue", vary, "--out", "sv-g.csv",
        "--summary", "sv-s.csv")
    run(*sp, "--game", "focus", "--first", "random", "--second", "greedy", "--games", "4",
        "--out", "f-g.csv", "--moves", "f-m.csv", "--summary", "f-s.csv")
    run(*sp, "--game", "focus4", "--games", "2", "--out", "f4-g.csv", "--summary", "f4-s.csv")
    run(*sp, "--game", "focus", "--first", "mcts:playouts=20,vary=0.05,temp_plies=8", "--second", "greedy",
        "--games", "2", "--out", "fv-g.csv", "--summary", "fv-s.csv")
    net = ROOT / "crates" / "lab" / "data" / "net-focus.txt"
    run(*sp, "--game", "focus", "--first", f"mcts:playouts=8,file={net}", "--second", "greedy",
        "--games", "2", "--out", "fw-g.csv", "--summary", "")
    run(*sp, "--game", "debacle", "--first", "random", "--second", "greedy", "--games", "2",
        "--out", "d-g.csv", "--moves", "d-m.csv", "--summary", "d-s.csv")
    run(*sp, "--game", "dominoes", "--first", "random", "--second", "greedy", "--games", "3",
        "--out", "do-g.csv", "--moves", "do-m.csv", "--rounds", "do-r.csv", "--summary", "do-s.csv")
    run(*sp, "--game", "dominoes", "--players", "3", "--games", "3", "--rotate",
        "--out", "do3-g.csv", "--rounds", "do3-r.csv", "--summary", "do3-s.csv")
    ar = ("arena", "--quiet")
    run(*ar, "random", "greedy", "--games", "4", "--out", "a-g.csv", "--summary", "a-s.csv", "--moves", "a-m.csv")
    run(*ar, "random", "greedy", "--games", "4", "--sprt", "elo0=0,elo1=10", "--out", "asp-g.csv",
        "--summary", "asp-s.csv")
    run(*ar, "random", "greedy", "heuristic", "--games", "2", "--book-plies", "2", "--draft", "own",
        "--gauntlet", "--out", "ab-g.csv")
    run(*ar, "--game", "focus", "random", "greedy", "--games", "4", "--out", "af-g.csv", "--summary", "af-s.csv",
        "--moves", "af-m.csv")
    run(*ar, "--game", "focus", f"mcts:playouts=8,file={net}", "greedy", "--games", "2", "--out", "afw-g.csv")
    run(*ar, "--game", "debacle", "random", "greedy", "--games", "2", "--out", "ad-g.csv",
        "--summary", "ad-s.csv", "--moves", "ad-m.csv")
    run(*ar, "--game", "dominoes", "random", "greedy", "--games", "2", "--out", "ado-g.csv",
        "--summary", "ado-s.csv", "--moves", "ado-m.csv")
    run(*ar, "--game", "dominoes", "--players", "4", "random", "greedy", "--games", "2", "--no-duplicate",
        "--out", "ado4-g.csv", "--summary", "ado4-s.csv")
    run("draft-stats", "s-g.csv", "--moves", "s-m.csv", "--out-dir", "annex", "--quiet")
    run("metrics", "s-g.csv", "--out", "met.csv")
    run("tune", "--out", "w.txt", "--games", "200", "--rounds", "1")
    after12 = "".join(SAMPLE_GAME.read_text().splitlines(keepends=True)[:16])
    (d / "after12.txt").write_text(after12)
    run("solve", "--history", "after12.txt", "--max-depth", "2", "--each-move", "--store", "st.txt")
    run("solve", ".,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,4Sb,5Sb b - 4-4-13 0", "--max-depth", "3",
        "--store", "st.txt")
    run(*sp, "--games", "5", "--format", "parquet", "--out", "p-g.csv", "--moves", "p-m.csv", "--summary", "p-s.csv")
    run(*sp, "--game", "dominoes", "--games", "2", "--format", "parquet", "--out", "pd-g.csv",
        "--rounds", "pd-r.csv", "--summary", "pd-s.csv")
    run("convert", "f-g.csv", "--out", "conv-f.parquet")
    return d


ANNEX = ["summary", "length", "end", "die", "give_order", "first_give", "first_placement", "opening_tree",
         "first_move", "first_push", "legal_phase", "legal_ply"]

# Which made files each kind is checked against, and how their names are read.
FILES = {
    "senat-batch-identity": (["s-g.csv", "s-m.csv", "ob-g.csv", "ob-m.csv", "hash-g.csv"], "identity"),
    "game-batch-identity": (["f-g.csv", "f-m.csv", "f4-g.csv", "fw-g.csv", "d-g.csv", "do-g.csv", "do-r.csv",
                             "do3-g.csv"], "identity"),
    "senat-arena-identity": (["a-g.csv", "a-m.csv", "asp-g.csv", "ab-g.csv"], "identity"),
    "game-arena-identity": (["af-g.csv", "af-m.csv", "afw-g.csv", "ad-g.csv", "ado-g.csv", "ado4-g.csv"],
                            "identity"),
    "senat-games": (["s-g.csv", "hash-g.csv", "ob-g.csv", "sv-g.csv"], "csv"),
    "senat-moves": (["s-m.csv", "ob-m.csv"], "csv"),
    "senat-summary": (["s-s.csv"], "csv"),
    "senat-summary-metrics": (["s-s.csv", "sv-s.csv"], "metrics"),
    "focus-games": (["f-g.csv", "f4-g.csv", "fv-g.csv"], "csv"),
    "debacle-games": (["d-g.csv"], "csv"),
    "dominoes-games": (["do-g.csv", "do3-g.csv"], "csv"),
    "game-moves": (["f-m.csv", "d-m.csv", "do-m.csv"], "csv"),
    "dominoes-rounds": (["do-r.csv", "do3-r.csv"], "csv"),
    "game-summary": (["f-s.csv", "f4-s.csv", "fv-s.csv", "d-s.csv", "do-s.csv", "do3-s.csv"], "csv"),
    "senat-arena-games": (["a-g.csv", "asp-g.csv", "ab-g.csv"], "csv"),
    "senat-arena-moves": (["a-m.csv"], "csv"),
    "arena-summary": (["a-s.csv", "asp-s.csv"], "csv"),
    "game-arena-summary": (["af-s.csv", "ad-s.csv"], "csv"),
    "dominoes-arena-summary": (["ado-s.csv", "ado4-s.csv"], "csv"),
    "focus-arena-games": (["af-g.csv"], "csv"),
    "debacle-arena-games": (["ad-g.csv"], "csv"),
    "dominoes-arena-games": (["ado-g.csv", "ado4-g.csv"], "csv"),
    "game-arena-moves": (["af-m.csv", "ad-m.csv", "ado-m.csv"], "csv"),
    **{f"annex-{t.replace('_', '-')}": ([f"annex/{t}.csv"], "csv") for t in ANNEX},
    "metrics": (["met.csv"], "csv"),
    "learned-weights": (["w.txt"], "keys"),
    "heuristic-weights": ([None], "heuristic"),
    "proof-store": (["st.txt"], "store"),
    "parquet": (["p-g.parquet", "p-m.parquet", "p-s.parquet", "pd-r.parquet", "conv-f.parquet"], "parquet"),
}
# The snippets of a kind run against these files (by default its FILES).
SNIPPET_FILES = {"annex-dir": ["annex/"], "parquet": FILES["parquet"][0]}
# The CSV kind of each Parquet file: its columns are that kind's table.
PARQUET_OF = {"p-g.parquet": "senat-games", "p-m.parquet": "senat-moves", "p-s.parquet": "senat-summary",
              "pd-r.parquet": "dominoes-rounds", "conv-f.parquet": "focus-games"}


def split_csv(path):
    """(identity lines, header, rows) of a CSV file."""
    text = Path(path).read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    ident = []
    while lines and lines[0].startswith("#"):
        ident.append(lines.pop(0).rstrip("\n"))
    rows = list(csv.reader(lines))
    return ident, rows[0], rows[1:]


def names_in(path, how, d):
    """The names a file of this reading shows (a set, or a list for csv)."""
    if how == "csv":
        return split_csv(path)[1]
    if how == "identity":
        line = split_csv(path)[0][0]
        tokens = line.split(" ")[3:]  # after `# senat-batch v2` / `# senat-arena v2`
        return {re.sub(r"^agent\d+", "agentN", t.split("=", 1)[0]) for t in tokens}
    if how == "metrics":
        _, head, rows = split_csv(path)
        i = head.index("metric")
        return {re.sub(r"^length_hist_\d{3}_\d{3}$", "length_hist_LLL_HHH", r[i]) for r in rows}
    if how == "keys":
        return {ln.split("=", 1)[0].strip() for ln in Path(path).read_text().splitlines()
                if ln.strip() and not ln.startswith("#")}
    if how == "heuristic":
        # A weights file with an unknown key: the error lists the accepted ones.
        (d / "bad-weights.txt").write_text("nope=1\n")
        err = cli("selfplay", "--games", "1", "--red", "heuristic:file=bad-weights.txt", "--out", "x.csv",
                  "--summary", "", cwd=d, ok=False).stderr
        accepted = re.findall(r"(\w+)=<number>", err)
        assert accepted, f"no list of accepted weights in: {err}"
        return set(accepted)
    if how == "store":
        lines = Path(path).read_text().splitlines()
        assert re.fullmatch(r"# senat proof store, format 1, variant rules", lines[0]), lines[0]
        widths = {len(ln.split("\t")) for ln in lines[1:]}
        assert len(widths) == 1, widths
        return widths.pop()
    if how == "parquet":
        pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed: Parquet metadata not checked")
        meta = pq.read_metadata(path).metadata or {}
        return {k.decode() for k in meta if k.startswith(b"senat.")}
    raise AssertionError(how)


# ---------------------------------------------------------------- (a) tables


def test_every_kind_of_the_page_is_checked():
    assert DOC.is_file(), f"{DOC} is missing"
    unknown = set(KINDS) - set(FILES) - NOT_COLUMNS
    assert not unknown, f"docs/formats.md: kinds this test makes no file of: {sorted(unknown)}"
    missing = set(FILES) - set(KINDS)
    assert not missing, f"docs/formats.md: no section for kinds: {sorted(missing)}"
    for kind in set(KINDS) - NOT_COLUMNS:
        assert table(kind), f"docs/formats.md: the section of `{kind}` has no table of names"


def test_every_file_kind_read_as_a_table_has_a_pandas_and_a_polars_snippet():
    readable = {k for k, (_, how) in FILES.items() if how in ("csv", "store", "parquet")}
    readable = {"annex-dir" if k.startswith("annex-") else k for k in readable}
    for kind in sorted(readable):
        codes = [c for k, c in SNIPPETS if k == kind]
        for lib in ("pandas", "polars"):
            assert any(re.search(rf"^import {lib}\b", c, re.M) for c in codes), (
                f"docs/formats.md: no {lib} snippet `# file: {kind}`"
            )


@pytest.mark.parametrize("kind", sorted(FILES))
def test_the_table_names_exactly_the_files_columns(made, kind):
    paths, how = FILES[kind]
    doc = table(kind)
    optional = set(KINDS[kind]["optional"])
    seen = set()
    for p in paths:
        got = names_in(made / p if p else None, how, made)
        where = f"{kind} ({p})"
        if how == "store":
            assert got == len(doc), f"{where}: {got} fields a line, the table has {len(doc)}: {doc}"
            continue
        got = set(got)
        seen |= got
        extra = got - set(doc)
        assert not extra, f"{where}: in the file, not in the table of docs/formats.md: {sorted(extra)}"
        absent = set(doc) - optional - got
        assert not absent, f"{where}: in the table of docs/formats.md, not in the file: {sorted(absent)}"
    if how in ("identity", "csv"):
        never = set(doc) - seen
        assert not never, f"{kind}: in the table of docs/formats.md, in none of the files: {sorted(never)}"


def test_parquet_columns_are_those_of_their_csv_kind(made):
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed: Parquet columns not checked")
    for p, kind in PARQUET_OF.items():
        cols = set(pq.read_schema(made / p).names)
        doc, optional = set(table(kind)), set(KINDS[kind]["optional"])
        assert doc - optional <= cols <= doc, f"{p}: columns {sorted(cols)}, table of `{kind}`: {table(kind)}"


def test_the_learned_weights_table_is_the_shipped_files_keys():
    shipped = ROOT / "crates" / "lab" / "data" / "learned-weights.txt"
    keys = names_in(shipped, "keys", None)
    assert keys == set(table("learned-weights")), sorted(keys ^ set(table("learned-weights")))


def test_the_example_record_replays(made):
    assert RECORDS, "docs/formats.md: the game-record section has no ```text example record"
    for i, rec in enumerate(RECORDS):
        f = made / f"record{i}.txt"
        f.write_text(rec)
        cli("replay", "--quiet", f.name, cwd=made)


def test_links_stay_in_the_repository():
    assert "](http" not in DOC_TEXT and "<http" not in DOC_TEXT, "docs/formats.md links outside the repository"
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", DOC_TEXT):
        path = (DOC.parent / target).resolve()
        assert path.exists(), f"docs/formats.md links to {target}, which does not exist"
        assert ROOT in path.parents, f"docs/formats.md links to {target}, outside the repository"


# ---------------------------------------------------------------- (b) snippets


def have(module):
    return importlib.util.find_spec(module) is not None


# A file name in a snippet: "....csv", ".parquet", ".txt", or a folder "dir/" (not a glob pattern).
PATH_LITERAL = re.compile(r'"([^"\n*]*?\.(?:csv|parquet|txt)|[^"\n*]*?/)"')


def frames(ns):
    """Every data frame a snippet left, by name (dicts of frames included)."""
    out = {}
    for name, v in ns.items():
        items = v.items() if isinstance(v, dict) else [(None, v)]
        for k, f in items:
            if type(f).__name__ == "DataFrame" and type(f).__module__.split(".")[0] in ("pandas", "polars"):
                out[f"{name}[{k!r}]" if k is not None else name] = (k, f)
    return out


def check_frame(label, frame, path):
    """`frame` holds the rows and columns of the CSV at `path`, and no more
    missing cells than it has empty ones."""
    if path.suffix == ".txt":  # the proof store
        lines = path.read_text().splitlines()[1:]
        assert len(frame) == len(lines), f"{label}: {len(frame)} rows, the file has {len(lines)}"
        return
    _, head, rows = split_csv(path)
    cols = list(frame.columns)
    assert len(frame) == len(rows), f"{label}: {len(frame)} rows, {path.name} has {len(rows)}"
    missing = [c for c in head if c not in cols]
    assert not missing, f"{label}: columns of {path.name} not in the frame: {missing} (frame: {cols})"
    empty = sum(1 for r in rows for c in r if c == "")
    if type(frame).__module__.startswith("pandas"):
        nulls = int(frame[head].isna().sum().sum())
    else:
        nulls = int(sum(frame[c].null_count() for c in head))
    assert nulls <= empty, f"{label}: {nulls} missing cells, {path.name} has {empty} empty ones (rows cut short?)"


SNIPPET_IDS = [f"{kind}-{i}" for i, (kind, _) in enumerate(SNIPPETS)]


@pytest.mark.parametrize("kind,code", SNIPPETS, ids=SNIPPET_IDS)
def test_a_snippet_reads_its_file(made, kind, code, capsys):
    compile(code, f"docs/formats.md ({kind})", "exec")
    assert kind in KINDS or kind in SNIPPET_FILES, f"snippet `# file: {kind}`: no such file kind on the page"
    uses = {m for m in ("pandas", "polars", "pyarrow") if re.search(rf"^\s*(import|from)\s+{m}\b", code, re.M)}
    assert uses, f"snippet of {kind} imports none of pandas, polars, pyarrow"
    lacking = sorted(m for m in uses if not have(m))
    if "polars" in lacking:
        with capsys.disabled():
            print(f"\n!! polars is not installed: the polars snippet of {kind} is only compiled")
        return
    if lacking:
        with capsys.disabled():
            print(f"\n!!!!!!!! SKIPPED: {', '.join(lacking)} not installed; a snippet of {kind} is NOT run !!!!!!!!")
        pytest.skip(f"{', '.join(lacking)} not installed: the snippet of {kind} is not run")
    literals = PATH_LITERAL.findall(code)
    assert literals, f"snippet of {kind} names no file (a \"....csv\", \".parquet\", \".txt\" or \"dir/\" literal)"
    targets = SNIPPET_FILES.get(kind) or FILES[kind][0]
    for t in targets:
        path = made / t
        src = PATH_LITERAL.sub(lambda m: repr(str(path) + ("/" if t.endswith("/") else "")), code)
        ns = {}
        try:
            exec(compile(src, f"docs/formats.md ({kind}, {t})", "exec"), ns)
        except Exception as e:
            raise AssertionError(f"the snippet of {kind} fails on {t}: {type(e).__name__}: {e}\n{code}") from e
        found = frames(ns)
        assert found, f"the snippet of {kind} made no data frame from {t}"
        if "identity" in ns:
            assert str(ns["identity"]).startswith("# senat-"), f"{kind} ({t}): identity {ns['identity']!r}"
        for label, (key, frame) in found.items():
            if t.endswith("/"):
                check_frame(f"{kind} {label}", frame, path / f"{key}.csv")
            elif path.suffix == ".parquet":
                import pyarrow.parquet as pq

                assert len(frame) == pq.read_metadata(path).num_rows, f"{kind} {label}: rows of {t}"
            else:
                check_frame(f"{kind} {label} ({t})", frame, path)
