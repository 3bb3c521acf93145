"""charsniff: the HTML Standard's encoding sniffing, the Encoding Standard's
decoders and a WARC/ARC reader, from the Go library of the same name.

    >>> import charsniff
    >>> charsniff.sniff(b'<meta charset="shift_jis">').encoding
    'shift_jis'

The answers are the charsniff command's: sniff() gives the fields of
``charsniff --json FILE`` and read_archive() the lines of
``charsniff --json FILE.warc.gz``. The work runs in Go without the GIL, so
threads scale; see docs/python.md in the repository.
"""

from __future__ import annotations

import atexit
import codecs
import errno
import ctypes
import io
import json
import os
import stat
import weakref
from ctypes import byref, c_char_p, c_int64, c_uint64, c_void_p
from dataclasses import dataclass
from typing import Any, BinaryIO, Iterator, Optional, Union

from . import _native
from ._native import cs_result

__all__ = [
    "ArchiveError", "ArchiveReader", "DamagedArchiveError", "Error", "InternalError", "Late",
    "NotAnArchiveError", "Record", "Result", "TextStream", "decode", "open", "read_archive",
    "sniff",
]

__version__ = "0.1.0"

_Bytes = Union[bytes, bytearray, memoryview]
_builtin_open = open


class Error(Exception):
    """The base of charsniff's own errors."""


class InternalError(Error):
    """A bug in charsniff: a Go panic, recovered at the boundary."""


class ArchiveError(Error, ValueError):
    """An input read as a web archive that cannot be read as one."""


class NotAnArchiveError(ArchiveError):
    """The input is not a WARC or ARC file (or one in a container or WARC
    version the library does not read, such as bzip2 or WARC/2.0)."""


class DamagedArchiveError(ArchiveError):
    """A damaged record, or a stretch of damaged input where a record should
    start. ``line`` is the command's JSON line for it (its file, offset and
    error); reading can go on after it."""

    def __init__(self, message: str, line: dict[str, Any]):
        super().__init__(message)
        self.line = line


@dataclass(frozen=True, slots=True)
class Late:
    """A change of encoding after the sniffing window: ``change`` is how it
    was made ("switched", "same" or "restart-needed"), ``from_encoding`` the
    encoding it was made from, ``offset`` the raw byte offset."""

    change: str
    from_encoding: str
    offset: int


@dataclass(frozen=True, slots=True)
class Result:
    """A sniffing decision, with the fields of the command's JSON line.

    ``encoding`` is the Encoding Standard's name in lower case ("utf-8",
    "windows-1252", "shift_jis"), which Python's codecs accept for all but
    a few (x-user-defined, iso-8859-8-i, replacement, x-mac-cyrillic);
    ``confidence`` is "certain" or "tentative"; ``source`` is the step that
    decided ("bom", "http", "prescan", "autodetect", ...); ``bom`` the
    length of a byte order mark; ``late`` the change after the window.
    """

    encoding: str
    confidence: str
    source: str
    bom: int = 0
    late: Optional[Late] = None

    @property
    def certain(self) -> bool:
        """Whether the confidence is "certain"."""
        return self.confidence == "certain"

    def as_dict(self) -> dict[str, Any]:
        """The fields of the command's JSON line (without ``file``)."""
        d: dict[str, Any] = {"encoding": self.encoding, "confidence": self.confidence,
                             "source": self.source}
        if self.bom:
            d["bom"] = self.bom
        if self.late is not None:
            d["late"] = {"change": self.late.change, "from": self.late.from_encoding,
                         "offset": self.late.offset}
        return d


# Results are few and immutable: one object for each struct seen.
_results: dict[tuple[int, ...], Result] = {}


def _result(out: cs_result) -> Result:
    key = (out.encoding, out.confidence, out.source, out.bom, out.late_kind, out.late_from,
           out.late_offset)
    r = _results.get(key)
    if r is None:
        n = _native.names
        late = None
        if out.late_kind:
            late = Late(n[_native.NAMES_CHANGE][out.late_kind],
                        n[_native.NAMES_ENCODING][out.late_from], out.late_offset)
        r = Result(n[_native.NAMES_ENCODING][out.encoding],
                   n[_native.NAMES_CONFIDENCE][out.confidence],
                   n[_native.NAMES_SOURCE][out.source], out.bom, late)
        if len(_results) < 4096:
            _results[key] = r
    return r


def _raise(dll: ctypes.CDLL, status: int, err: c_char_p, cause: Optional[BaseException] = None):
    msg = _native.message(dll, err)
    if cause is not None:
        raise cause
    if status == _native.ERR_ARG:
        raise ValueError(msg)
    if status == _native.ERR_IO:
        raise OSError(msg)
    if status == _native.ERR_ARCHIVE:
        raise NotAnArchiveError(msg)
    if status == _native.ERR_HANDLE:
        raise ValueError("I/O operation on closed charsniff object")
    raise InternalError(msg)


def _data(data: Any, fn: str) -> Any:
    """data as something ctypes passes to a char * without a copy: bytes
    as they are, a writable buffer as a ctypes array over it; a read-only
    buffer other than bytes is copied."""
    if type(data) is bytes:
        return data
    if isinstance(data, str):
        raise TypeError(f"{fn}() needs bytes, not str (it sniffs the bytes of a document)")
    try:
        mv = memoryview(data)
    except TypeError:
        raise TypeError(f"{fn}() needs a bytes-like object, not {type(data).__name__}") from None
    if not mv.c_contiguous or mv.readonly:
        return mv.tobytes()
    mv = mv.cast("B")
    return (ctypes.c_char * len(mv)).from_buffer(mv) if len(mv) else b""


def _text_arg(value: Optional[str], name: str) -> tuple[Optional[bytes], int]:
    if value is None:
        return None, 0
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str or None, not {type(value).__name__}")
    b = value.encode("utf-8", "surrogateescape")
    return b, len(b)


def _lookahead(value: Optional[int]) -> int:
    if value is None:
        return -1
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"lookahead must be an int or None, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"lookahead must be 0 or more, not {value}")
    return value


def sniff(data: _Bytes, *, content_type: Optional[str] = None, url: Optional[str] = None,
          lookahead: Optional[int] = None) -> Result:
    """Sniff the encoding of the HTML document ``data`` as a browser would.

    ``content_type`` is the transport layer's Content-Type header value (a
    charset parameter there wins over the document); ``url`` the document's
    URL, whose host is a hint for autodetection and the default; and
    ``lookahead`` how far past the 1024-byte window a late ``<meta>`` or late
    autodetection may still decide (default 64 KiB, 0 for the window alone).
    The answer is the command's for the same bytes (``charsniff --json``).
    """
    if type(data) is bytes and content_type is None and url is None and lookahead is None:
        dll = _native._lib or _native.lib()
        v = dll.charsniff_sniff_bytes(data, len(data))  # the shortest call
    else:
        buf = _data(data, "sniff")
        ct, ctn = _text_arg(content_type, "content_type")
        u, un = _text_arg(url, "url")
        la = _lookahead(lookahead)
        dll = _native._lib or _native.lib()
        v = dll.charsniff_sniff_packed(buf, len(buf), ct, ctn, u, un, la)
    if v >= 0:
        r = _packed.get(v)
        return r if r is not None else _unpack(v)
    # An error, or a late offset too large to pack: the struct call says.
    buf = _data(data, "sniff")
    ct, ctn = _text_arg(content_type, "content_type")
    u, un = _text_arg(url, "url")
    out, err = cs_result(), c_char_p()
    status = dll.charsniff_sniff(buf, len(buf), ct, ctn, u, un, _lookahead(lookahead), byref(out),
                                 byref(err))
    if status != _native.OK:
        _raise(dll, status, err)
    return _result(out)


# charsniff_sniff_packed's answers: one Result for each seen.
_packed: dict[int, Result] = {}


def _unpack(v: int) -> Result:
    out = cs_result(encoding=v & 0xFF, confidence=(v >> 8) & 3, source=(v >> 10) & 0xF,
                    bom=(v >> 14) & 3, late_kind=(v >> 16) & 7, late_from=(v >> 19) & 0xFF,
                    late_offset=v >> 27)
    r = _result(out)
    if len(_packed) < 4096:
        _packed[v] = r
    return r


def decode(data: _Bytes, *, content_type: Optional[str] = None, url: Optional[str] = None,
           lookahead: Optional[int] = None) -> tuple[str, Result]:
    """Decode the HTML document ``data`` to text as a browser would, and
    say how it decided (the arguments as sniff's). The text is the HTML
    Standard's input stream: newlines normalized to ``\\n``, U+0000 as
    U+FFFD, a byte order mark removed, malformed bytes as U+FFFD."""
    buf = _data(data, "decode")
    ct, ctn = _text_arg(content_type, "content_type")
    u, un = _text_arg(url, "url")
    la = _lookahead(lookahead)
    dll = _native._lib or _native.lib()
    out, err, text, n = cs_result(), c_char_p(), c_void_p(), c_int64()
    status = dll.charsniff_decode(buf, len(buf), ct, ctn, u, un, la, byref(out), byref(text),
                                  byref(n), byref(err))
    if status != _native.OK:
        _raise(dll, status, err)
    return _native.take(dll, text, n.value), _result(out)


def _reader_fn(f: Any, keep: list) -> Any:
    """A read callback over the binary file f: an exception it meets is
    put in keep for the caller to raise."""
    readinto = getattr(f, "readinto", None)

    def read(_ctx: int, buf: int, n: int) -> int:
        try:
            if readinto is not None:
                got = readinto((ctypes.c_char * n).from_address(buf))
            else:
                b = f.read(n)
                if not isinstance(b, (bytes, bytearray)):
                    raise TypeError(f"read() gave {type(b).__name__}, not bytes: open the file in binary mode")
                got = len(b)
                if got > n:
                    raise ValueError(f"read({n}) gave {got} bytes")
                ctypes.memmove(buf, b, got)
            if got is None:
                raise BlockingIOError("charsniff: the file has no data ready (non-blocking)")
            return got
        except BaseException as e:  # noqa: BLE001 - handed back to the caller
            keep.append(e)
            return -1

    return _native.READ_FN(read)


def _binary(f: Any, fn: str) -> None:
    if isinstance(f, io.TextIOBase):
        raise TypeError(f"{fn}() needs a binary file, not a text file: open it with 'rb'")
    if not (hasattr(f, "readinto") or hasattr(f, "read")):
        raise TypeError(f"{fn}() needs a path or a binary file, not {type(f).__name__}")
    if getattr(f, "closed", False):
        raise ValueError("I/O operation on closed file")


class TextStream(io.TextIOBase):
    """The decoded text of a binary stream, read in bounded memory (a few
    buffers and the look-ahead), as charsniff.open returns it."""

    _CHUNK = 64 << 10

    def __init__(self, source: BinaryIO, *, content_type: Optional[str] = None,
                 url: Optional[str] = None, lookahead: Optional[int] = None,
                 closefd: bool = False):
        _binary(source, "open")
        ct, ctn = _text_arg(content_type, "content_type")
        u, un = _text_arg(url, "url")
        la = _lookahead(lookahead)
        self._dll = _native.lib()
        self._generation = _native.generation
        self._source, self._closefd = source, closefd
        self._errors: list[BaseException] = []
        self._fn = _reader_fn(source, self._errors)  # kept alive while Go may call it
        self._handle = 0
        self._pending = ""
        self._eof = False
        self._utf8 = codecs.getincrementaldecoder("utf-8")()
        self._buf = ctypes.create_string_buffer(self._CHUNK)
        h, err = c_uint64(), c_char_p()
        status = self._dll.charsniff_reader_new(self._fn, 0, ct, ctn, u, un, la, byref(h), byref(err))
        if status != _native.OK:
            _raise(self._dll, status, err)
        self._handle = h.value

    @property
    def result(self) -> Result:
        """The decision so far: final once ``decided`` is true (the text
        read so far settles it), and at the end of the stream."""
        out, err = cs_result(), c_char_p()
        status = self._dll.charsniff_reader_result(self._checked(), byref(out), byref(err))
        if status != _native.OK:
            _raise(self._dll, status, err)
        return _result(out)

    @property
    def decided(self) -> bool:
        """Whether ``result`` is final."""
        out, err = cs_result(), c_char_p()
        status = self._dll.charsniff_reader_result(self._checked(), byref(out), byref(err))
        if status != _native.OK:
            _raise(self._dll, status, err)
        return bool(out.decided)

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The encoding of the source so far (``result.encoding``)."""
        return self.result.encoding

    def readable(self) -> bool:
        return True

    def _checked(self) -> int:
        if self._handle == 0:
            raise ValueError("I/O operation on closed file")
        if self._generation != _native.generation or _native._lib is None:
            raise Error("charsniff: a stream opened before a fork, used in the child")
        return self._handle

    def _fill(self) -> bool:
        """Decode one more chunk into _pending; False at the end."""
        if self._eof:
            return False
        got, err = c_int64(), c_char_p()
        status = self._dll.charsniff_reader_read(self._checked(), self._buf, self._CHUNK,
                                                 byref(got), byref(err))
        if status == _native.EOF:
            self._eof = True
            self._pending += self._utf8.decode(b"", final=True)
            return False
        if status != _native.OK:
            cause = self._errors.pop() if self._errors else None
            _raise(self._dll, status, err, cause)
        self._pending += self._utf8.decode(self._buf.raw[:got.value])
        return True

    def read(self, size: Optional[int] = -1) -> str:
        """Up to ``size`` characters (all that is left for -1 or None)."""
        self._checked()
        if size is None or size < 0:
            parts = [self._pending]
            self._pending = ""
            while self._fill():
                parts.append(self._pending)
                self._pending = ""
            parts.append(self._pending)
            self._pending = ""
            return "".join(parts)
        while len(self._pending) < size and self._fill():
            pass
        s, self._pending = self._pending[:size], self._pending[size:]
        return s

    def readline(self, size: Optional[int] = -1) -> str:  # type: ignore[override]
        """One line, with its ``\\n`` (the text's newlines are normalized)."""
        self._checked()
        start = 0
        while True:
            i = self._pending.find("\n", start)
            if i >= 0:
                end = i + 1
                break
            start = len(self._pending)
            if size is not None and 0 <= size <= len(self._pending) or not self._fill():
                end = len(self._pending)
                break
        if size is not None and size >= 0:
            end = min(end, size)
        s, self._pending = self._pending[:end], self._pending[end:]
        return s

    def close(self) -> None:
        if self._handle:
            h, self._handle = self._handle, 0
            if self._generation == _native.generation and _native._lib is not None:
                self._dll.charsniff_reader_close(h, None)
            if self._closefd:
                self._source.close()
        super().close()

    @property
    def closed(self) -> bool:  # type: ignore[override]
        return self._handle == 0


def open(file: Union[str, os.PathLike, BinaryIO], *, content_type: Optional[str] = None,  # noqa: A001
         url: Optional[str] = None, lookahead: Optional[int] = None) -> TextStream:
    """Open the HTML document ``file`` (a path, or a binary file such as an
    HTTP response body) as a text stream (``io.TextIOBase``) that sniffs its
    encoding and decodes it in bounded memory; the arguments as sniff's.
    A file opened from a path is closed with the stream; a file object is
    left open."""
    if isinstance(file, (str, bytes, os.PathLike)):
        f = _builtin_open(file, "rb")
        try:
            return TextStream(f, content_type=content_type, url=url, lookahead=lookahead,
                              closefd=True)
        except BaseException:
            f.close()
            raise
    return TextStream(file, content_type=content_type, url=url, lookahead=lookahead)


@dataclass(frozen=True, slots=True)
class Record:
    """One line of ``charsniff --json`` for a web archive: an HTML record, a
    damaged record or a stretch of damaged input. ``line`` is the command's
    JSON object as a dict (file, encoding, confidence, source, record_id,
    uri, offset, status, http_charset, late, error, as the record has
    them); ``text`` the decoded text (None when read_archive was asked for
    no text)."""

    line: dict[str, Any]
    text: Optional[str]

    def __getitem__(self, key: str) -> Any:
        return self.line[key]

    def get(self, key: str, default: Any = None) -> Any:
        """The line's field ``key``, or default."""
        return self.line.get(key, default)

    @property
    def offset(self) -> int:
        """Where the record starts in the file."""
        return self.line.get("offset", 0)

    @property
    def uri(self) -> Optional[str]:
        """The record's WARC-Target-URI."""
        return self.line.get("uri")

    @property
    def encoding(self) -> Optional[str]:
        """The encoding sniffed, or None for an error line."""
        return self.line.get("encoding")

    @property
    def error(self) -> Optional[str]:
        """The problem, for a damaged record."""
        return self.line.get("error")


_open_readers: "weakref.WeakSet[ArchiveReader]" = weakref.WeakSet()


class ArchiveReader:
    """An iterator over the records of a web archive, in file order (see
    read_archive). Close it (or use it in a with statement) to stop the
    reading early."""

    def __init__(self, source: Any, *, text: bool = True, errors: str = "raise",
                 name: Optional[str] = None, offset: int = 0, lookahead: Optional[int] = None):
        self._handle = 0
        if errors not in ("raise", "record"):
            raise ValueError(f"errors must be 'raise' or 'record', not {errors!r}")
        if isinstance(offset, bool) or not isinstance(offset, int):
            raise TypeError(f"offset must be an int, not {type(offset).__name__}")
        if offset < 0:
            raise ValueError(f"offset must be 0 or more, not {offset}")
        la = _lookahead(lookahead)
        self._dll = _native.lib()
        self._generation = _native.generation
        self._errors_mode = errors
        self._text = bool(text)
        self._handle = 0
        self._fn = None
        self._failures: list[BaseException] = []
        h, err = c_uint64(), c_char_p()
        if isinstance(source, (str, os.PathLike)):
            path = os.fspath(source)
            nm, nn = _text_arg(path if name is None else name, "name")
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))  # OSError, errno and all
            if stat.S_ISDIR(os.fstat(fd).st_mode):
                os.close(fd)
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
            status = self._dll.charsniff_archive_open_fd(fd, nm, nn, offset, la, int(bool(text)),
                                                        byref(h), byref(err))
        elif isinstance(source, (bytes, bytearray, memoryview)):
            nm, nn = _text_arg("-" if name is None else name, "name")
            buf = _data(source, "read_archive")
            status = self._dll.charsniff_archive_open_bytes(buf, len(buf), nm, nn, offset, la,
                                                           int(bool(text)), byref(h), byref(err))
        else:
            _binary(source, "read_archive")
            if name is None:
                name = getattr(source, "name", None)
                name = name if isinstance(name, str) else "-"
            nm, nn = _text_arg(name, "name")
            self._fn = _reader_fn(source, self._failures)
            status = self._dll.charsniff_archive_open_reader(self._fn, 0, nm, nn, offset, la,
                                                            int(bool(text)), byref(h), byref(err))
        if status != _native.OK:
            cause = self._failures.pop() if self._failures else None
            _raise(self._dll, status, err, cause)
        self._handle = h.value
        _open_readers.add(self)

    def __iter__(self) -> "ArchiveReader":
        return self

    def __next__(self) -> Record:
        if self._handle == 0:
            raise StopIteration
        if self._generation != _native.generation or _native._lib is None:
            raise Error("charsniff: an archive reader opened before a fork, used in the child")
        out, ln, tn, err = c_void_p(), c_int64(), c_int64(), c_char_p()
        status = self._dll.charsniff_archive_next(self._handle, byref(out), byref(ln), byref(tn),
                                                  byref(err))
        if status == _native.EOF:
            self.close()
            raise StopIteration
        if status != _native.OK:
            cause = self._failures.pop() if self._failures else None
            self.close()
            _raise(self._dll, status, err, cause)
        try:
            line = json.loads(ctypes.string_at(out, ln.value))
            text = None
            if tn.value:
                text = _native._decode_utf8(out.value + ln.value, tn.value, b"strict")
            elif self._text and "encoding" in line:
                text = ""
        finally:
            self._dll.charsniff_free(out)
        if self._errors_mode == "raise" and "error" in line:
            where = f"{line.get('file')}#{line.get('offset', 0)}"
            raise DamagedArchiveError(f"{where}: {line['error']}", line)
        return Record(line, text)

    def close(self) -> None:
        """Stop the reading and release it (and the file it opened)."""
        if self._handle:
            h, self._handle = self._handle, 0
            if self._generation == _native.generation and _native._lib is not None:
                self._dll.charsniff_archive_close(h, None)
            self._fn = None
            _open_readers.discard(self)

    def __enter__(self) -> "ArchiveReader":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


def read_archive(source: Union[str, os.PathLike, BinaryIO, _Bytes], *, text: bool = True,
                 errors: str = "raise", name: Optional[str] = None, offset: int = 0,
                 lookahead: Optional[int] = None) -> ArchiveReader:
    """Iterate over the HTML records of a WARC or ARC file (plain, gzip,
    zstd or LZ4) in file order, each a Record with the fields of the
    command's JSON line and its text.

    ``source`` is a path (read on all cores, as the command reads it), a
    binary file object (read in order, its records decoded on all cores), or
    the bytes of an archive or of a byte range of one (a record's offset and
    length from an index: pass its offset so the records carry the file's).
    ``name`` is the records' file field (default: the path, the file's
    name, or "-"). ``text=False`` skips decoding the text, for the encodings
    alone. A damaged record raises DamagedArchiveError (the reading can go
    on after it), unless ``errors="record"``, which yields it as the
    command prints it. An input that is not an archive raises
    NotAnArchiveError; a file that cannot be read, OSError.
    """
    return ArchiveReader(source, text=text, errors=errors, name=name, offset=offset,
                         lookahead=lookahead)


@atexit.register
def _close_readers() -> None:
    # Stop the archive readers' Go threads before the interpreter goes,
    # so that none calls back into a finalized Python.
    for r in list(_open_readers):
        r.close()
