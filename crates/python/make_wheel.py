"""Packs an already built native library and `python/senat` into a wheel,
without compiling anything: what `.ci/run` installs in its virtual
environment, from the library its test stage built (`target/ci`).

    python3 crates/python/make_wheel.py LIBRARY OUT_DIR

`LIBRARY` is the built extension (`target/ci/libsenat_py.so`); the wheel,
`senat-VERSION-cp39-abi3-PLATFORM.whl`, is written into `OUT_DIR` (made if
missing) and its path printed. The name, version, Python requirement and
dependencies come from `pyproject.toml`, the files from `python/senat`
with the library as `senat/_senat.abi3.so`: the layout `maturin build`
gives (`pip install ./crates/python` builds the same package with maturin,
compiling the library itself). Why not `maturin build --profile ci` in CI:
maturin builds the package `senat-py` alone, whose dependencies resolve
with other features than the whole workspace's test build (`cargo tree`:
plotters, either, bitflags, serde_core among them), so the lab and
everything under it would compile a second time; and maturin's own
environment makes pyo3 and numpy rebuild as well.

What this script must never do: compile, or write anything but the wheel.
"""

import base64
import hashlib
import os
import re
import sys
import sysconfig
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def project():
    """(name, version, requires-python, dependencies) of pyproject.toml's
    `[project]` table (read with a regex: Python 3.9 has no tomllib)."""
    text = open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8").read()
    table = text.split("[project]", 1)[1].split("\n[", 1)[0]

    def key(k):
        m = re.search(rf'^{k}\s*=\s*"([^"]*)"', table, re.M)
        return m.group(1) if m else None

    deps = re.search(r"^dependencies\s*=\s*\[([^\]]*)\]", table, re.M)
    deps = re.findall(r'"([^"]+)"', deps.group(1)) if deps else []
    return key("name"), key("version"), key("requires-python"), deps


def record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make_wheel.py LIBRARY OUT_DIR")
    library, out_dir = sys.argv[1], sys.argv[2]
    name, version, requires, deps = project()
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    tag = f"cp39-abi3-{plat}"
    files = []
    src = os.path.join(HERE, "python", "senat")
    for f in sorted(os.listdir(src)):
        if f.endswith((".py", ".pyi")) or f == "py.typed":
            files.append((f"senat/{f}", open(os.path.join(src, f), "rb").read()))
    files.append(("senat/_senat.abi3.so", open(library, "rb").read()))
    info = f"{name}-{version}.dist-info"
    meta = [f"Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    if requires:
        meta.append(f"Requires-Python: {requires}")
    meta += [f"Requires-Dist: {d}" for d in deps]
    files.append((f"{info}/METADATA", ("\n".join(meta) + "\n").encode()))
    wheel = f"Wheel-Version: 1.0\nGenerator: crates/python/make_wheel.py\nRoot-Is-Purelib: false\nTag: {tag}\n"
    files.append((f"{info}/WHEEL", wheel.encode()))
    record = "\n".join(record_line(p, d) for p, d in files) + f"\n{info}/RECORD,,\n"
    files.append((f"{info}/RECORD", record.encode()))
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{name}-{version}-{tag}.whl")
    tmp = path + ".partial"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for p, d in files:
            zi = zipfile.ZipInfo(p, date_time=(2020, 1, 1, 0, 0, 0))
            zi.external_attr = (0o755 if p.endswith(".so") else 0o644) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, d)
    os.replace(tmp, path)
    print(path)


if __name__ == "__main__":
    main()
