"""Memory is released across the boundary, Go runs without the GIL, and
the package works under multiprocessing (fork and spawn)."""

import gc
import io
import multiprocessing
import os
import threading
import unittest

import charsniff

from helpers import path, rss, samples

PAGE = (b'<!DOCTYPE html><html><head><meta charset="windows-1251"><title>t</title></head><body>'
        + "Это русская страница. ".encode("windows-1251") * 40 + b"</body></html>")[:1024]

# A bound on growth that a leak of even a few bytes a call would pass.
SLACK = 24 << 20


class Memory(unittest.TestCase):
    def grows(self, fn, n):
        for _ in range(n // 10):
            fn()
        gc.collect()
        before = rss()
        for _ in range(n):
            fn()
        gc.collect()
        return rss() - before

    def test_sniff_loop(self):
        grown = self.grows(lambda: charsniff.sniff(PAGE), 100_000)
        self.assertLess(grown, SLACK, f"RSS grew by {grown} bytes over 100k sniff calls")

    def test_decode_loop(self):
        grown = self.grows(lambda: charsniff.decode(PAGE), 50_000)
        self.assertLess(grown, SLACK, f"RSS grew by {grown} bytes over 50k decode calls")

    def test_errors_loop(self):
        def bad():
            try:
                charsniff.sniff(b"x", url="http://[::1")
            except ValueError:
                pass
        grown = self.grows(bad, 50_000)
        self.assertLess(grown, SLACK, f"RSS grew by {grown} bytes over 50k failed calls")

    def test_stream_loop(self):
        def stream():
            with charsniff.open(io.BytesIO(PAGE)) as s:
                s.read()
        grown = self.grows(stream, 10_000)
        self.assertLess(grown, SLACK, f"RSS grew by {grown} bytes over 10k streams")

    def test_archive_loop(self):
        p = path("warc", "testdata", "wget.warc.gz")
        grown = self.grows(lambda: list(charsniff.read_archive(p)), 1_000)
        self.assertLess(grown, SLACK, f"RSS grew by {grown} bytes over 1000 archives")

    def test_stream_is_bounded(self):
        # 64 MiB of text through a stream: memory stays far below it.
        class Endless(io.RawIOBase):
            def __init__(self, n):
                self.left = n

            def readable(self):
                return True

            def readinto(self, b):
                k = min(len(b), self.left)
                b[:k] = b"a" * k
                self.left -= k
                return k

        before = rss()
        n = 0
        with charsniff.open(Endless(64 << 20)) as s:
            while chunk := s.read(1 << 16):
                n += len(chunk)
        self.assertEqual(n, 64 << 20)
        self.assertLess(rss() - before, 32 << 20)


def record_reader(data: bytes, chunk: int, on_read):
    """A binary file over data whose reads of at most chunk bytes call
    on_read first."""

    class Reader(io.RawIOBase):
        pos = 0

        def readable(self):
            return True

        def readinto(self, b):
            on_read()
            k = min(len(b), chunk, len(data) - self.pos)
            b[:k] = data[self.pos:self.pos + k]
            self.pos += k
            return k

    return Reader()


class GIL(unittest.TestCase):
    """The archive reader of a file object runs ReadStream ahead on Go's
    threads, which call back into Python for more bytes while the caller
    waits in Go for the next record. Were the GIL held across that call,
    the callback could never run: these tests would hang (the join's
    timeout is a guard against hanging, not a measurement)."""

    def setUp(self):
        with open(path("warc", "testdata", "resiliparse", "warcfile.warc.gz"), "rb") as f:
            self.data = f.read()
        self.assertGreater(len(self.data), 2 * (64 << 10))  # read past what open reads
        self.want = [r.line for r in charsniff.read_archive(self.data, errors="record", text=False)]

    def test_callback_while_caller_in_go(self):
        other = []
        main = threading.get_ident()

        def on_read():
            if threading.get_ident() != main:
                other.append(1)

        r = charsniff.read_archive(record_reader(self.data, 4096, on_read), errors="record", text=False)
        got = [x.line for x in r]
        self.assertEqual(got, self.want)
        self.assertTrue(other, "no read came from Go's own threads")

    def test_two_threads_in_go_at_once(self):
        # Each reader's Go thread waits at the barrier in its read callback,
        # which both must reach while their callers wait in Go: two Go
        # readings in flight at once, each caller's thread outside Python.
        barrier = threading.Barrier(2, timeout=120)
        results = {}
        errors = []
        callers = set()

        def on_read():
            if not results.get("met") and threading.get_ident() not in callers:
                try:
                    barrier.wait()
                    results["met"] = True
                except threading.BrokenBarrierError as e:
                    errors.append(e)

        def work(name):
            callers.add(threading.get_ident())
            r = charsniff.read_archive(record_reader(self.data, 4096, on_read), errors="record", text=False)
            results[name] = [x.line for x in r]

        threads = [threading.Thread(target=work, args=(f"t{i}",)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
            self.assertFalse(t.is_alive(), "a reader hung: the GIL was held across a Go call")
        self.assertEqual(errors, [])
        self.assertTrue(results.get("met"))
        self.assertEqual(results["t0"], self.want)
        self.assertEqual(results["t1"], self.want)

    def test_many_threads(self):
        pages = []
        for f in samples():
            with open(f, "rb") as fh:
                pages.append(fh.read())
        want = [charsniff.decode(p) for p in pages]
        failures = []

        def work():
            for _ in range(50):
                for p, w in zip(pages, want):
                    if charsniff.decode(p) != w:
                        failures.append(p[:40])

        threads = [threading.Thread(target=work) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(failures, [])


def _sniff_file(p):
    with open(p, "rb") as f:
        return charsniff.sniff(f.read()).as_dict()


def _archive_lines(p):
    return [r.line for r in charsniff.read_archive(p, errors="record", text=False)]


class Multiprocessing(unittest.TestCase):
    def check(self, method):
        files = samples()
        want = [_sniff_file(p) for p in files]  # the library is loaded in the parent
        warcs = [path("warc", "testdata", "wget.warc.gz"),
                 path("warc", "testdata", "resiliparse", "warcfile.warc.gz")]
        want_warc = [_archive_lines(p) for p in warcs]
        ctx = multiprocessing.get_context(method)
        with ctx.Pool(2) as pool:
            self.assertEqual(pool.map(_sniff_file, files), want)
            self.assertEqual(pool.map(_archive_lines, warcs), want_warc)

    def test_fork(self):
        self.check("fork")

    def test_reader_from_before_fork(self):
        # A reader's handle belongs to the parent's runtime: the child gets
        # charsniff.Error for it, and a fresh library for new calls.
        s = charsniff.open(io.BytesIO(PAGE))
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                s.read()
            except charsniff.Error:
                code = 0 if charsniff.sniff(PAGE).encoding == "windows-1251" else 2
            except BaseException:
                code = 3
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)
        self.assertEqual(s.result.encoding, "windows-1251")
        s.close()

    def test_spawn(self):
        self.check("spawn")

    def test_forkserver(self):
        self.check("forkserver")


if __name__ == "__main__":
    unittest.main()
