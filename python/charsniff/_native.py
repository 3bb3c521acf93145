"""The ctypes binding of libcharsniff.so, the C ABI of _capi/ (see its
package comment for the status codes and who owns which memory).

The library is loaded on first use, not on import. A Go runtime does not
survive fork(): the child has only the forking thread, none of the
runtime's, and its first call into Go would wait forever for them. So a
child forked after the library was loaded (multiprocessing's "fork" start
method) loads a fresh copy of it, with a runtime of its own, on its first
call; the handles of the parent's readers are not valid in it.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import tempfile
import threading
from ctypes import (CFUNCTYPE, POINTER, byref, c_char_p, c_int32, c_int64,
                    c_uint64, c_void_p)

OK = 0
EOF = 1
ERR_ARG = -1
ERR_IO = -2
ERR_ARCHIVE = -3
ERR_HANDLE = -4
ERR_INTERNAL = -5
ERR_SHORT = -6

# Name tables of charsniff_names, in the order of the result struct.
NAMES_ENCODING, NAMES_CONFIDENCE, NAMES_SOURCE, NAMES_CHANGE = range(4)


class cs_result(ctypes.Structure):
    """The C struct cs_result of capi.h."""

    _fields_ = [
        ("encoding", c_int32),
        ("confidence", c_int32),
        ("source", c_int32),
        ("bom", c_int32),
        ("late_kind", c_int32),
        ("late_from", c_int32),
        ("late_offset", c_int64),
        ("decided", c_int32),
        ("pad", c_int32),
    ]


# int64_t (*cs_read_fn)(uintptr_t ctx, char *buf, int64_t n)
READ_FN = CFUNCTYPE(c_int64, c_uint64, c_void_p, c_int64)

_P = POINTER(c_char_p)
_I64P = POINTER(c_int64)
_HP = POINTER(c_uint64)
_SIGNATURES = {
    # name: (argument types), all returning int32 status
    "charsniff_sniff": (c_char_p, c_int64, c_char_p, c_int64, c_char_p, c_int64, c_int64,
                        POINTER(cs_result), _P),
    "charsniff_decode": (c_char_p, c_int64, c_char_p, c_int64, c_char_p, c_int64, c_int64,
                         POINTER(cs_result), POINTER(c_void_p), _I64P, _P),
    "charsniff_names": (c_int32, POINTER(c_void_p), _I64P, _P),
    "charsniff_selftest_panic": (_P,),
    "charsniff_reader_new": (READ_FN, c_uint64, c_char_p, c_int64, c_char_p, c_int64, c_int64,
                             _HP, _P),
    "charsniff_reader_read": (c_uint64, c_void_p, c_int64, _I64P, _P),
    "charsniff_reader_result": (c_uint64, POINTER(cs_result), _P),
    "charsniff_reader_close": (c_uint64, _P),
    "charsniff_archive_open_fd": (c_int32, c_char_p, c_int64, c_int64, c_int64, c_int32, _HP, _P),
    "charsniff_archive_open_bytes": (c_char_p, c_int64, c_char_p, c_int64, c_int64, c_int64,
                                     c_int32, _HP, _P),
    "charsniff_archive_open_reader": (READ_FN, c_uint64, c_char_p, c_int64, c_int64, c_int64,
                                      c_int32, _HP, _P),
    "charsniff_archive_next": (c_uint64, POINTER(c_void_p), _I64P, _I64P, _P),
    "charsniff_archive_close": (c_uint64, _P),
}
# name: (argument types, result type) of the functions that return no status
_OTHERS = {
    "charsniff_free": ((c_void_p,), None),
    "charsniff_bench_sniff": ((c_char_p, c_int64, c_int64), c_int64),
    "charsniff_sniff_packed": ((c_char_p, c_int64, c_char_p, c_int64, c_char_p, c_int64, c_int64),
                               c_int64),
    "charsniff_sniff_bytes": ((c_char_p, c_int64), c_int64),
}

_lock = threading.Lock()
_lib: ctypes.CDLL | None = None
_forked = False  # the library was loaded before a fork: load a copy
generation = 0  # counts the loads; a handle is valid in its generation only
names: dict[int, list[str]] = {}

# PyUnicode_DecodeUTF8 straight from the library's C memory: one pass from
# the decoded bytes to a str, no bytes object in between.
_decode_utf8 = ctypes.pythonapi.PyUnicode_DecodeUTF8
_decode_utf8.argtypes = (c_void_p, ctypes.c_ssize_t, c_char_p)
_decode_utf8.restype = ctypes.py_object


def library_path() -> str:
    """The shared library to load: $CHARSNIFF_LIBRARY, or the one built
    into the package."""
    return os.environ.get("CHARSNIFF_LIBRARY") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "libcharsniff.so")


def lib() -> ctypes.CDLL:
    """The loaded library, loading it on the first call."""
    global _lib
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is None:
            path = library_path()
            try:
                dll = _load(path)
            except OSError as e:
                raise ImportError(f"charsniff: cannot load {path} ({e}): "
                                  "build the package with its setup.py (it needs Go)") from e
            for name, (args, res) in _OTHERS.items():
                fn = getattr(dll, name)
                fn.argtypes, fn.restype = args, res
            for name, args in _SIGNATURES.items():
                fn = getattr(dll, name)
                fn.argtypes = args
                fn.restype = c_int32
            for kind in (NAMES_ENCODING, NAMES_CONFIDENCE, NAMES_SOURCE, NAMES_CHANGE):
                out, n, err = c_void_p(), c_int64(), c_char_p()
                if dll.charsniff_names(kind, byref(out), byref(n), byref(err)) != OK:
                    raise ImportError(f"charsniff: {path}: no names of kind {kind}")
                names[kind] = take(dll, out, n.value).split("\n")
            global generation
            generation += 1
            _lib = dll
    return _lib


def _load(path: str) -> ctypes.CDLL:
    if not _forked:
        return ctypes.CDLL(path)
    # dlopen gives the parent's (dead) runtime again for the same file: a
    # copy under another name is a new library.
    fd, copy = tempfile.mkstemp(prefix="libcharsniff-", suffix=".so")
    try:
        with os.fdopen(fd, "wb") as dst, open(path, "rb") as src:
            shutil.copyfileobj(src, dst)
        return ctypes.CDLL(copy)
    finally:
        os.unlink(copy)  # mapped, the library stays


def _after_fork_in_child() -> None:
    global _lib, _forked, _lock
    _lock = threading.Lock()
    if _lib is not None:
        _lib, _forked = None, True


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def take(dll: ctypes.CDLL, p: c_void_p, n: int) -> str:
    """The UTF-8 text p[:n] as a str, freeing p."""
    try:
        return _decode_utf8(p, n, b"strict") if n else ""
    finally:
        dll.charsniff_free(p)


def message(dll: ctypes.CDLL, err: c_char_p) -> str:
    """The error message err, freed."""
    if not err.value:
        return "charsniff: unknown error"
    msg = err.value.decode("utf-8", "replace")
    dll.charsniff_free(ctypes.cast(err, c_void_p))
    return msg
