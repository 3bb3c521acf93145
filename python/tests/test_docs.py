"""The Python blocks of docs/python.md run, in order, as one script from
the repository's root (so that multiprocessing's spawn can import its
functions). A block that imports a package the machine lacks (pyspark,
warcio) is compiled only."""

import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import unittest

from helpers import ROOT, path

OPTIONAL = ("pyspark", "warcio", "fastwarc", "resiliparse")


def python_blocks(rel):
    """(line, code) of each ```python block of the Markdown file rel."""
    with open(path(rel), encoding="utf-8") as f:
        text = f.read()
    blocks = []
    for m in re.finditer(r"^```python\n(.*?)^```$", text, re.S | re.M):
        blocks.append((text[: m.start()].count("\n") + 1, m.group(1)))
    return blocks


def missing(code):
    """The optional package code imports that is not installed, or None."""
    for mod in OPTIONAL:
        if re.search(rf"^\s*(from|import) {mod}\b", code, re.M) and importlib.util.find_spec(mod) is None:
            return mod
    return None


class Docs(unittest.TestCase):
    def test_python_md(self):
        blocks = python_blocks("docs/python.md")
        self.assertGreaterEqual(len(blocks), 5)
        script = []
        for line, code in blocks:
            compile(code, f"docs/python.md:{line}", "exec")
            if missing(code) is None:
                script.append(f"# docs/python.md:{line}\n{code}")
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write("\n".join(script))
        try:
            p = subprocess.run([sys.executable, f.name], cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
