"""The Python answers are the invariance suite's (internal/invariance,
its testdata/invariance.golden): for each document of the golden that
exists outside Go (the samples and the html5lib encoding tests; the
generated documents are made by the Go suite only), the encoding,
confidence, source and the SHA-256 of the decoded text, with default
options and with the document's Content-Type (text/html)."""

import glob
import hashlib
import os
import unittest

import charsniff

from helpers import dat_docs, path

GOLDEN = path("internal", "invariance", "testdata", "invariance.golden")


def golden():
    """document name → [(content type or None, answer words)]."""
    answers = {}
    name = None
    with open(GOLDEN, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if not line.startswith("\t"):
                name, words = line.split("\t", 1)
                answers[name] = [(None, words)]
            else:
                _, ct, words = line.split("\t", 2)
                answers[name].append((ct, words))
    return answers


def documents():
    docs = {}
    for p in sorted(glob.glob(path("samples", "*.*htm*"))):
        with open(p, "rb") as f:
            docs["samples/" + os.path.basename(p)] = f.read()
    for p in sorted(glob.glob(path("testdata", "html5lib-encoding", "*.dat"))):
        with open(p, "rb") as f:
            for i, d in enumerate(dat_docs(f.read())):
                docs[f"html5lib/{os.path.basename(p)}#{i}"] = d
    return docs


def answer(data, content_type):
    text, r = charsniff.decode(data, content_type=content_type)
    return f"{r.encoding} {r.confidence} {r.source} {hashlib.sha256(text.encode()).hexdigest()}"


class Invariance(unittest.TestCase):
    def test_golden(self):
        want = golden()
        docs = documents()
        self.assertGreater(len(docs), 20)
        checked = 0
        for name, data in docs.items():
            if name not in want:
                continue
            for ct, words in want[name]:
                with self.subTest(name, content_type=ct):
                    self.assertEqual(answer(data, ct), words)
                    checked += 1
        self.assertGreater(checked, 40)


if __name__ == "__main__":
    unittest.main()
