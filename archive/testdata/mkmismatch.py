#!/usr/bin/env python3
# mkmismatch.py writes mismatch.warc: four HTML responses on two hosts
# whose declarations disagree, for the docs' --stats and index examples.
# Run from this directory: python3 mkmismatch.py
import uuid

pages = [
    # The header says Shift_JIS and is right; the <meta> says UTF-8.
    ("http://a.example.jp/1", "text/html; charset=Shift_JIS",
     '<meta charset="utf-8"><title>\u65e5\u672c\u8a9e</title><p>\u65e5\u672c\u8a9e\u306e\u30da\u30fc\u30b8\u3067\u3059\u3002</p>'.encode("shift_jis")),
    # The header says ISO-8859-1 and is wrong; the <meta> says UTF-8.
    ("http://a.example.jp/2", "text/html; charset=ISO-8859-1",
     '<meta charset="utf-8"><title>caf\u00e9</title><p>\u65e5\u672c\u8a9e</p>'.encode("utf-8")),
    # The header says UTF-8; the page is windows-1253, as its <meta> says.
    ("http://b.example.gr/", "text/html; charset=utf-8",
     '<meta charset="windows-1253"><p>\u039a\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1</p>'.encode("cp1253")),
    # Nothing disagrees.
    ("http://b.example.gr/ok", "text/html",
     '<meta charset="windows-1253"><p>\u039a\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1</p>'.encode("cp1253")),
]

with open("mismatch.warc", "wb") as f:
    for i, (uri, ctype, body) in enumerate(pages):
        http = b"HTTP/1.1 200 OK\r\nContent-Type: " + ctype.encode() + b"\r\n\r\n" + body
        rid = uuid.UUID(int=0x6d69736d_6174_4000_8000_000000000000 + i + 1)
        head = ("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n"
                "WARC-Date: 2026-12-01T12:00:0%dZ\r\nWARC-Record-ID: <urn:uuid:%s>\r\n"
                "Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n"
                % (uri, i, rid, len(http))).encode()
        f.write(head + http + b"\r\n\r\n")
