"""Shared support of the tests: the repository's files and the charsniff
command built from this tree."""

from __future__ import annotations

import base64
import functools
import glob
import json
import os
import shutil
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def path(*parts: str) -> str:
    return os.path.join(ROOT, *parts)


def go() -> str:
    return shutil.which("go") or "/usr/local/go/bin/go"


@functools.lru_cache(maxsize=None)
def command() -> str:
    """The charsniff command: $CHARSNIFF_BIN, or built from this tree."""
    if os.environ.get("CHARSNIFF_BIN"):
        return os.environ["CHARSNIFF_BIN"]
    out = os.path.join(tempfile.mkdtemp(prefix="charsniff-cmd-"), "charsniff")
    env = dict(os.environ, GOFLAGS=os.environ.get("GOFLAGS", "-buildvcs=false"))
    subprocess.check_call([go(), "build", "-o", out, "./cmd/charsniff"], cwd=ROOT, env=env)
    return out


def run_json(*args: str) -> list[dict]:
    """The JSON lines of charsniff --json ARGS (exit code 1, some failed, is fine)."""
    p = subprocess.run([command(), "--json", *args], capture_output=True, cwd=ROOT)
    if p.returncode not in (0, 1):
        raise AssertionError(f"charsniff {args}: exit {p.returncode}: {p.stderr.decode()}")
    return [json.loads(l) for l in p.stdout.splitlines() if l.strip()]


def samples() -> list[str]:
    return sorted(glob.glob(path("samples", "*.*htm*")))


def html5lib_cases() -> list[tuple[str, bytes]]:
    """The documents of the html5lib encoding tests (cases.jsonl)."""
    cases = []
    with open(path("testdata", "html5lib-encoding", "cases.jsonl")) as f:
        for line in f:
            c = json.loads(line)
            cases.append((c["id"], base64.b64decode(c["bytes_b64"])))
    return cases


def dat_docs(data: bytes) -> list[bytes]:
    """The #data sections of an html5lib .dat file, as internal/invariance reads them."""
    out = []
    for part in data.split(b"#data\n")[1:]:
        i = part.find(b"\n#encoding")
        if i >= 0:
            out.append(part[:i])
    return out


def archives() -> list[str]:
    """The WARC and ARC files of the tree's test data."""
    found = []
    for pattern in ("warc/testdata/*.warc*", "warc/testdata/*/*.warc*", "warc/testdata/*/*.arc*"):
        found += glob.glob(path(pattern))
    return sorted(p for p in found if not p.endswith(".dict"))


def rss() -> int:
    """The resident set size of this process, in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
