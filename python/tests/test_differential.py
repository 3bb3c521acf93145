"""The package gives the command's answers: on the sample pages, the
html5lib encoding tests and the WARC and ARC files of the tree."""

import io
import os
import tempfile
import unittest

import charsniff

from helpers import archives, html5lib_cases, path, run_json, samples

ANSWER = ("encoding", "confidence", "source", "bom", "late")


def answer(line: dict) -> dict:
    return {k: line[k] for k in ANSWER if k in line}


class SniffLikeCommand(unittest.TestCase):
    def test_samples(self):
        files = samples()
        self.assertGreater(len(files), 5)
        lines = run_json(*files)
        self.assertEqual(len(lines), len(files))
        for f, line in zip(files, lines):
            with open(f, "rb") as fh:
                data = fh.read()
            with self.subTest(f):
                self.assertEqual(charsniff.sniff(data).as_dict(), answer(line))
                self.assertEqual(charsniff.decode(data)[1].as_dict(), answer(line))

    def test_html5lib_cases(self):
        cases = html5lib_cases()
        with tempfile.TemporaryDirectory() as d:
            files = []
            for name, data in cases:
                p = os.path.join(d, name + ".html")
                with open(p, "wb") as f:
                    f.write(data)
                files.append(p)
            lines = run_json(*files)
        self.assertEqual(len(lines), len(cases))
        for (name, data), line in zip(cases, lines):
            with self.subTest(name):
                self.assertEqual(charsniff.sniff(data).as_dict(), answer(line))

    def test_options(self):
        f = path("samples", "blog-windows1252-nodecl.html")
        with open(f, "rb") as fh:
            data = fh.read()
        for args, kw in [
            (["--content-type", "text/html; charset=koi8-r"], {"content_type": "text/html; charset=koi8-r"}),
            (["--hint-tld", "www.example.cz"], {"url": "http://www.example.cz/a?b"}),
            (["--lookahead", "0"], {"lookahead": 0}),
        ]:
            with self.subTest(args):
                line, = run_json(*args, f)
                self.assertEqual(charsniff.sniff(data, **kw).as_dict(), answer(line))

    def test_late_change(self):
        # Declarations and evidence past the 1024-byte window: the late
        # <meta> and late autodetection, with the command's late field.
        filler = b"<p>" + b"lorem ipsum dolor " * 80 + b"\n"
        docs = [
            b"<!DOCTYPE html><title>t</title>" + filler + b'<meta charset="koi8-r">' + "Привет".encode("koi8-r"),
            b"<!DOCTYPE html><title>t</title>" + filler + "Привет, мир. Это страница.".encode("windows-1251") * 20,
            b"<!DOCTYPE html><title>t</title>" + filler + "日本語のページです。".encode("shift_jis") * 20,
        ]
        with tempfile.TemporaryDirectory() as d:
            files = []
            for i, data in enumerate(docs):
                p = os.path.join(d, f"{i}.html")
                with open(p, "wb") as f:
                    f.write(data)
                files.append(p)
            lines = run_json(*files)
        self.assertTrue(any("late" in l for l in lines), lines)
        for data, line in zip(docs, lines):
            with self.subTest(line=line):
                self.assertEqual(charsniff.sniff(data).as_dict(), answer(line))
                self.assertEqual(charsniff.decode(data)[1].as_dict(), answer(line))
                with charsniff.open(io.BytesIO(data)) as s:
                    lines_read = list(s)
                    self.assertEqual(s.result.as_dict(), answer(line))
                self.assertEqual("".join(lines_read), charsniff.decode(data)[0])

    def test_decoded_text(self):
        for f in samples():
            with open(f, "rb") as fh:
                data = fh.read()
            line, = run_json("--decode", f)
            with self.subTest(f):
                text, _ = charsniff.decode(data)
                self.assertEqual(text, line["text"])
                with charsniff.open(f) as s:
                    self.assertEqual(s.read(), line["text"])
                with open(f, "rb") as fh, charsniff.open(fh) as s:
                    got = []
                    while chunk := s.read(7):
                        got.append(chunk)
                    self.assertEqual("".join(got), line["text"])
                    self.assertEqual(s.result.as_dict(), answer(line))


class ArchivesLikeCommand(unittest.TestCase):
    def test_archives(self):
        files = archives()
        self.assertGreater(len(files), 8)
        for f in files:
            rel = os.path.relpath(f, path())
            want = run_json(rel)
            with self.subTest(rel):
                got = [r.line for r in charsniff.read_archive(f, errors="record", text=False, name=rel)]
                self.assertEqual(got, want)
                with open(f, "rb") as fh:
                    got = [r.line for r in charsniff.read_archive(fh, errors="record", text=False, name=rel)]
                self.assertEqual(got, want)
                with open(f, "rb") as fh:
                    data = fh.read()
                got = [r.line for r in charsniff.read_archive(data, errors="record", text=False, name=rel)]
                self.assertEqual(got, want)

    def test_text(self):
        rel = "warc/testdata/wget.warc.gz"
        want = run_json("--decode", rel)
        got = list(charsniff.read_archive(path(rel), name=rel))
        self.assertEqual(len(got), len(want))
        for r, line in zip(got, want):
            text = line.pop("text")
            self.assertEqual(r.line, line)
            self.assertEqual(r.text, text)

    def test_range(self):
        # A record's coordinates, as an index gives them: the bytes of that
        # range, with their offset, give the command's line for it.
        rel = "warc/testdata/wget.warc.gz"
        lines = run_json(rel)
        size = os.path.getsize(path(rel))
        offsets = [l["offset"] for l in lines] + [size]
        for i, line in enumerate(lines[:-1]):
            off, n = offsets[i], offsets[i + 1] - offsets[i]
            with open(path(rel), "rb") as f:
                f.seek(off)
                data = f.read(n)
            got = [r.line for r in charsniff.read_archive(data, name=rel, offset=off, text=False)]
            self.assertEqual(got[0], line)
            want, = run_json("--range", f"{off}:{n}", rel)
            self.assertEqual(got[0], want)


class WarcioRecipe(unittest.TestCase):
    """The recipe of docs/python.md for bytes a WARC library already holds:
    the HTTP payload, the stored Content-Type and the target URI give the
    answer the command gives for the record."""

    def test_payload_content_type_uri(self):
        rel = "warc/testdata/wget.warc.gz"
        want = {l["offset"]: l for l in run_json(rel)}
        for rec in stored_records(path(rel)):
            if rec["offset"] not in want:
                continue
            line = want[rec["offset"]]
            # --- the recipe
            result = charsniff.sniff(rec["payload"], content_type=rec["content_type"], url=rec["uri"])
            text, result2 = charsniff.decode(rec["payload"], content_type=rec["content_type"], url=rec["uri"])
            # ---
            self.assertEqual(result.as_dict(), answer(line))
            self.assertEqual(result2, result)


def stored_records(p):
    """The response records of a .warc.gz as a WARC library hands them
    over: a minimal reader for the test (warcio is not a dependency)."""
    import gzip
    import zlib
    with open(p, "rb") as f:
        data = f.read()
    offset = 0
    while offset < len(data):
        d = zlib.decompressobj(31)
        raw = d.decompress(data[offset:])
        used = len(data) - offset - len(d.unused_data)
        head, _, block = raw.partition(b"\r\n\r\n")
        fields = dict(l.split(b":", 1) for l in head.split(b"\r\n")[1:] if b":" in l)
        fields = {k.strip().lower(): v.strip().decode() for k, v in fields.items()}
        if fields.get(b"warc-type".decode(), "") == "response" or fields.get("warc-type") == "response":
            http_head, _, payload = block.partition(b"\r\n\r\n")
            ct = None
            for l in http_head.split(b"\r\n")[1:]:
                k, _, v = l.partition(b":")
                if k.strip().lower() == b"content-type":
                    ct = v.strip().decode("latin-1")
            length = int(fields["content-length"])
            payload = payload[: max(0, length - len(http_head) - 4)]
            if b"transfer-encoding: chunked" in http_head.lower():
                payload = None
            if payload is not None:
                yield {"offset": offset, "payload": payload, "content_type": ct,
                       "uri": fields.get("warc-target-uri", "").strip("<>")}
        offset += used
    del gzip


if __name__ == "__main__":
    unittest.main()
