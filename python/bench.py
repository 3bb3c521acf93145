#!/usr/bin/env python3
"""Benchmark charsniff's Python package against the encoding sniffers and
detectors Python users have: bs4.UnicodeDammit, html5lib's sniffer
(HTMLBinaryInputStream's charEncoding, which runs chardet when it finds no
declaration), chardet and charset_normalizer (Debian's python3-bs4,
python3-html5lib, python3-chardet, python3-charset-normalizer).

    python3 python/bench.py [--out FILE.md] [--time SECONDS]

On the bench corpora's pages (bench/testdata/sample: 64 KB undeclared pages,
UTF-8 and, encoded here with Python's codecs, the legacy encodings the Go
benchmarks make of them) and on 1 KB documents (each page's first KB), one
run: per call µs and MB/s, and whether each tool names the page's encoding.
Then the cost of a 1 KB sniff across the boundary over the same work timed
inside Go, and read_archive against the command on a WARC file.
"""

from __future__ import annotations

import argparse
import codecs
import datetime
import os
import platform
import subprocess
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "tests"))

import charsniff  # noqa: E402
from charsniff import _native  # noqa: E402

PAGES = [  # (sample, encoding)
    ("english", "utf-8"), ("french", "utf-8"), ("russian", "utf-8"), ("japanese", "utf-8"),
    ("chinese", "utf-8"), ("english", "windows-1252"), ("french", "windows-1252"),
    ("russian", "windows-1251"), ("japanese", "shift_jis"), ("japanese", "euc-jp"),
    ("chinese", "gbk"),
]
PAGE_SIZE = 64 << 10


def pages() -> list[tuple[str, str, bytes]]:
    out = []
    for sample, enc in PAGES:
        with open(os.path.join(ROOT, "bench", "testdata", "sample", f"utf-8-{sample}.html"), "rb") as f:
            text = f.read().decode("utf-8")
        data = text.encode(enc, "replace")
        if len(data) > PAGE_SIZE:
            data = data[:PAGE_SIZE].decode(enc, "ignore").encode(enc)  # whole characters
        out.append((f"{sample} {enc}", enc, data))
    return out


def same(name: str | None, want: str) -> bool:
    """Whether name is want's encoding (Python's codec names, or the
    superset a detector names: gb2312 for gbk, iso-8859-1 for windows-1252,
    ascii for utf-8 on an ASCII page)."""
    if not name:
        return False
    try:
        got = codecs.lookup(name).name
    except LookupError:
        return False
    w = codecs.lookup(want).name
    aliases = {"cp1252": {"latin_1", "iso8859-1", "iso8859-15"}, "gbk": {"gb2312", "gb18030"},
               "utf-8": {"ascii"}, "shift_jis": {"cp932"}}
    return got == w or got in aliases.get(w, set())


def tools():
    import bs4
    import chardet
    import charset_normalizer
    from html5lib import _inputstream

    def html5(data):
        return _inputstream.HTMLBinaryInputStream(data).charEncoding[0].name

    def cn(data):
        best = charset_normalizer.from_bytes(data).best()
        return best.encoding if best else None

    return [
        ("charsniff.sniff", lambda d: charsniff.sniff(d).encoding),
        ("charsniff.decode", lambda d: charsniff.decode(d)[1].encoding),
        ("bs4.UnicodeDammit", lambda d: bs4.UnicodeDammit(d, is_html=True).original_encoding),
        ("html5lib sniffer", html5),
        ("chardet.detect", lambda d: chardet.detect(d)["encoding"]),
        ("charset_normalizer", cn),
    ]


def per_call(fn, data, budget: float) -> float:
    """Seconds a call, the best of a few rounds within about budget s."""
    n, t = 1, 0.0
    while True:  # rounds of at least budget/5
        t0 = time.perf_counter()
        for _ in range(n):
            fn(data)
        t = time.perf_counter() - t0
        if t >= budget / 5:
            break
        n *= 2 if t == 0 else max(2, min(100, int(budget / 5 / t) + 1))
    best = t / n
    for _ in range(2):
        t0 = time.perf_counter()
        for _ in range(n):
            fn(data)
        best = min(best, (time.perf_counter() - t0) / n)
    return best


def table(rows, cols) -> list[str]:
    out = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" if i == 0 else "--:" for i in range(len(cols))) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def bench_docs(docs, budget) -> tuple[list[str], dict]:
    rows, totals = [], {}
    ts = tools()
    for name, fn in ts:
        us, mbs, right = [], [], 0
        for _, enc, data in docs:
            s = per_call(fn, data, budget)
            us.append(s * 1e6)
            mbs.append(len(data) / s / 1e6)
            right += same(fn(data), enc)
        mean = sum(us) / len(us)
        totals[name] = mean
        rows.append([name, f"{mean:,.1f}", f"{min(us):,.1f} – {max(us):,.1f}",
                     f"{sum(len(d) for _, _, d in docs) / sum(u / 1e6 for u in us) / 1e6:,.1f}",
                     f"{right}/{len(docs)}"])
    base = totals["charsniff.sniff"]
    for r in rows:
        r.append(f"{totals[r[0]] / base:,.0f}×" if r[0] != "charsniff.sniff" else "1×")
    return table(rows, ["tool", "µs a call (mean)", "range", "MB/s", "right", "÷ sniff"]), totals


def html5lib_right() -> list[str]:
    """How many of the html5lib encoding tests (testdata/html5lib-encoding,
    cases.jsonl) each tool answers as the test expects."""
    from helpers import html5lib_cases
    import json
    want = {}
    with open(os.path.join(ROOT, "testdata", "html5lib-encoding", "cases.jsonl")) as f:
        for line in f:
            c = json.loads(line)
            want[c["id"]] = c["expect_encoding"]
    cases = html5lib_cases()
    rows = []
    for name, fn in tools():
        if name == "charsniff.decode":
            continue
        right = sum(same(fn(data), want[i]) for i, data in cases)
        rows.append([name, f"{right}/{len(cases)}"])
    return table(rows, ["tool", "html5lib encoding tests answered as expected"])


def overhead(docs) -> list[str]:
    """Interleaved rounds, Go then Python, the median of each: on a shared
    machine the two see the same load."""
    import ctypes
    import statistics
    dll = _native.lib()
    libc = ctypes.CDLL(None)
    libc.labs.argtypes, libc.labs.restype = (ctypes.c_long,), ctypes.c_long

    def rounds(fn, n=5000, k=7):
        out = []
        for _ in range(k):
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            out.append((time.perf_counter() - t0) / n * 1e6)
        return out

    yard = statistics.median(rounds(lambda: libc.labs(-3)))
    rows = []
    for name, _, data in docs:
        go, py = [], []
        for _ in range(7):
            go.append(dll.charsniff_bench_sniff(data, len(data), 5000) / 5000 / 1000)
            py.append(statistics.median(rounds(lambda: charsniff.sniff(data), 5000, 1)))
        g, p = statistics.median(go), statistics.median(py)
        rows.append([name, f"{g:.2f}", f"{p:.2f}", f"{p - g:.2f}"])
    return table(rows, ["1 KB document", "Go, in the library (µs)", "charsniff.sniff (µs)", "overhead (µs)"]) + [
        "", f"For scale, on the same machine at the same time: a ctypes call of libc's labs() took "
        f"{yard:.2f} µs (a fraction of a µs on an idle machine)."]


def archive(budget) -> list[str]:
    """read_archive against the command on one WARC file: 30 copies of
    warc/testdata/resiliparse/warcfile.warc.gz one after the other (gzip
    members, so the records of each copy, 1,200 in all)."""
    import tempfile
    from helpers import command
    src = os.path.join(ROOT, "warc", "testdata", "resiliparse", "warcfile.warc.gz")
    with open(src, "rb") as f:
        one = f.read()
    tmp = tempfile.NamedTemporaryFile(suffix=".warc.gz", delete=False)
    tmp.write(one * 30)
    tmp.close()
    p, size, cmd = tmp.name, len(one) * 30, command()

    def py(text):
        return lambda _: sum(1 for _ in charsniff.read_archive(p, text=text, errors="record"))

    def sh(*flags):
        return lambda _: subprocess.run([cmd, *flags, p], stdout=subprocess.DEVNULL, check=False)

    rows = []
    try:
        for name, fn in [("read_archive(path, text=False)", py(False)), ("charsniff --json", sh("--json")),
                         ("read_archive(path), text as str", py(True)),
                         ("charsniff --decode --json", sh("--decode", "--json"))]:
            s = per_call(fn, None, budget)
            rows.append([name, f"{s * 1e3:,.1f}", f"{size / s / 1e6:,.1f}"])
    finally:
        os.unlink(p)
    return table(rows, [f"one WARC file of {size / 1e6:.1f} MB (30 × warcfile.warc.gz)", "ms", "MB/s (file)"])


def cpu() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="write the Markdown report here too")
    ap.add_argument("--time", type=float, default=0.5, help="seconds a measurement (default 0.5)")
    args = ap.parse_args()
    warnings.simplefilter("ignore")  # bs4 warns of each replacement character
    import bs4
    import chardet
    import charset_normalizer
    import html5lib
    big = pages()
    small = [(n, e, d[:1024]) for n, e, d in big]
    lines = [
        f"# charsniff for Python against Python's sniffers ({datetime.date.today().isoformat()})",
        "",
        f"- CPU: {cpu()} (Intel Xeon, Sapphire/Emerald Rapids class, AVX-512), {os.cpu_count()} vCPUs "
        "shared with other work: best of three rounds, per call.",
        f"- Python {platform.python_version()} ({sys.executable}); bs4 {bs4.__version__}, html5lib "
        f"{html5lib.__version__}, chardet {chardet.__version__}, charset_normalizer "
        f"{charset_normalizer.__version__}; charsniff {charsniff.__version__} ({_native.library_path()}).",
        f"- Command: `python3 python/bench.py{' --out ' + args.out if args.out else ''}`",
        "- \"right\": the tool names the page's encoding (a superset counts: gb18030 for gbk, "
        "ascii for UTF-8, iso-8859-1 for windows-1252). html5lib's sniffer runs chardet when the "
        "page declares nothing, as it does by default.",
        "",
        "## 64 KB pages (bench/testdata/sample, undeclared)",
        "",
    ]
    t, _ = bench_docs(big, args.time)
    lines += t + ["", "## 1 KB documents (the first KB of each page)", ""]
    t, _ = bench_docs(small, args.time)
    lines += t + ["", "## The html5lib encoding tests", ""]
    lines += html5lib_right()
    lines += ["", "## The boundary: a 1 KB sniff from Python over the same work inside Go", ""]
    lines += overhead(small) + ["", "## A WARC file: read_archive against the command", ""]
    lines += archive(args.time * 2)
    lines.append("")
    report = "\n".join(lines)
    print(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)


if __name__ == "__main__":
    main()
