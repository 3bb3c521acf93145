"""Bad input raises a clear Python exception, never crashes, and no Go
panic crosses the boundary."""

import io
import os
import tempfile
import unittest

import charsniff
from charsniff import _native

from helpers import path


class BadArguments(unittest.TestCase):
    def test_not_bytes(self):
        for fn in (charsniff.sniff, charsniff.decode):
            for bad in ("text", 42, None, [1, 2], object()):
                with self.subTest(fn=fn.__name__, bad=bad), self.assertRaises(TypeError):
                    fn(bad)

    def test_bytes_like(self):
        data = b'<meta charset="koi8-r">\xc1'
        want = charsniff.sniff(data)
        for b in (bytearray(data), memoryview(data), memoryview(bytearray(data)),
                  memoryview(b"xx" + data)[2:], memoryview(data + data)[::2]):
            with self.subTest(type(b)):
                got = charsniff.sniff(b)
                if isinstance(b, memoryview) and not b.c_contiguous:
                    self.assertEqual(got, charsniff.sniff(b.tobytes()))
                else:
                    self.assertEqual(got, want)
        self.assertEqual(charsniff.decode(bytearray(data))[0], "<meta charset=\"koi8-r\">а")
        self.assertEqual(charsniff.sniff(b"").encoding, "windows-1252")
        self.assertEqual(charsniff.decode(bytearray())[0], "")

    def test_options(self):
        with self.assertRaises(TypeError):
            charsniff.sniff(b"x", content_type=b"text/html")
        with self.assertRaises(TypeError):
            charsniff.sniff(b"x", url=3)
        with self.assertRaises(TypeError):
            charsniff.sniff(b"x", lookahead=True)
        with self.assertRaises(TypeError):
            charsniff.sniff(b"x", lookahead=1.5)
        with self.assertRaises(ValueError):
            charsniff.sniff(b"x", lookahead=-1)
        with self.assertRaises(ValueError):
            charsniff.sniff(b"x", url="http://[::1")  # an unclosed IPv6 literal
        with self.assertRaises(TypeError):
            charsniff.sniff(b"x", "text/html")  # keywords only

    def test_panic_is_an_error(self):
        dll = _native.lib()
        err = _native.c_char_p()
        status = dll.charsniff_selftest_panic(_native.byref(err))
        self.assertEqual(status, _native.ERR_INTERNAL)
        with self.assertRaisesRegex(charsniff.InternalError, "a panic for the tests"):
            charsniff._raise(dll, status, err)

    def test_unknown_handle(self):
        dll = _native.lib()
        got, err = _native.c_int64(), _native.c_char_p()
        buf = _native.ctypes.create_string_buffer(16)
        status = dll.charsniff_reader_read(12345, buf, 16, _native.byref(got), _native.byref(err))
        self.assertEqual(status, _native.ERR_HANDLE)
        self.assertIn("handle", _native.message(dll, err))
        self.assertEqual(dll.charsniff_archive_close(12345, None), _native.ERR_HANDLE)


class BadFiles(unittest.TestCase):
    def test_closed_file(self):
        f = io.BytesIO(b"<p>x")
        f.close()
        with self.assertRaises(ValueError):
            charsniff.open(f)
        with self.assertRaises(ValueError):
            charsniff.read_archive(f)

    def test_text_file(self):
        with open(path("samples", "news-utf8-meta.html")) as f:
            with self.assertRaises(TypeError):
                charsniff.open(f)
            with self.assertRaises(TypeError):
                charsniff.read_archive(f)
        with self.assertRaises(TypeError):
            charsniff.open(42)

    def test_closed_stream(self):
        s = charsniff.open(io.BytesIO(b"<p>x"))
        s.close()
        s.close()  # twice is fine
        with self.assertRaises(ValueError):
            s.read()
        with self.assertRaises(ValueError):
            s.result

    def test_missing_file(self):
        with self.assertRaises(FileNotFoundError):
            charsniff.open("/nonexistent/page.html")
        with self.assertRaises(FileNotFoundError):
            charsniff.read_archive("/nonexistent/x.warc.gz")
        with self.assertRaises(IsADirectoryError):
            charsniff.read_archive(path("samples"), text=False).__next__()

    def test_read_error_comes_through(self):
        class Broken(io.RawIOBase):
            def __init__(self):
                self.n = 0

            def readable(self):
                return True

            def readinto(self, b):
                self.n += 1
                if self.n > 1:
                    raise ConnectionResetError("the peer went away")
                b[:8] = b"<p>abcde"
                return 8

        s = charsniff.open(Broken())
        with self.assertRaises(ConnectionResetError):
            s.read()
        with self.assertRaises(ConnectionResetError):
            list(charsniff.read_archive(Broken()))

    def test_not_an_archive(self):
        for src in (path("samples", "news-utf8-meta.html"), b"<html>no archive</html>", b"",
                    io.BytesIO(b"WARC/2.0\r\n\r\n")):
            with self.subTest(src=src if not isinstance(src, io.BytesIO) else "WARC/2.0"):
                with self.assertRaises(charsniff.NotAnArchiveError) as cm:
                    charsniff.read_archive(src)
                self.assertIsInstance(cm.exception, ValueError)

    def test_damaged_archive(self):
        f = path("warc", "testdata", "length-past-eof.warc")
        with self.assertRaises(charsniff.DamagedArchiveError) as cm:
            list(charsniff.read_archive(f))
        self.assertIn("error", cm.exception.line)
        self.assertIsInstance(cm.exception, charsniff.Error)
        # errors="record" yields the damage as the command prints it.
        lines = [r for r in charsniff.read_archive(f, errors="record")]
        self.assertTrue(any(r.error for r in lines))

    def test_truncated_gzip(self):
        with open(path("warc", "testdata", "wget.warc.gz"), "rb") as f:
            data = f.read()
        with tempfile.NamedTemporaryFile(suffix=".warc.gz") as t:
            t.write(data[: len(data) * 2 // 3])
            t.flush()
            recs = list(charsniff.read_archive(t.name, errors="record"))
            self.assertTrue(recs[-1].error, recs[-1].line)
            with self.assertRaises(charsniff.DamagedArchiveError):
                list(charsniff.read_archive(t.name))

    def test_garbage_after_magic(self):
        # Random bytes behind a gzip header: an error, never a crash.
        for seed in range(20):
            data = b"\x1f\x8b\x08\x00" + os.urandom(200 + seed * 37)
            try:
                list(charsniff.read_archive(data, errors="record"))
            except (charsniff.Error, OSError):
                pass

    def test_bad_errors_argument(self):
        with self.assertRaises(ValueError):
            charsniff.read_archive(b"", errors="ignore")
        with self.assertRaises(ValueError):
            charsniff.read_archive(b"", offset=-1)

    def test_close_early(self):
        p = path("warc", "testdata", "resiliparse", "warcfile.warc.gz")
        for _ in range(20):
            with charsniff.read_archive(p) as r:
                next(r)
        r = charsniff.read_archive(p)
        r.close()
        self.assertEqual(list(r), [])


if __name__ == "__main__":
    unittest.main()
