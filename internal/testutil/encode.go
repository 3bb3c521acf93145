package testutil

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// Encode applies the HTTP content coding c to data, as a server would:
// "gzip" (or "x-gzip"), "deflate" (zlib, as RFC 9110 says), "deflate-raw"
// (raw deflate, which some servers send as "deflate"), "br" or "zstd". Any
// other c is a test error.
func Encode(t testing.TB, c string, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	var w io.WriteCloser
	var err error
	switch c {
	case "gzip", "x-gzip":
		w = gzip.NewWriter(&b)
	case "deflate":
		w = zlib.NewWriter(&b)
	case "deflate-raw":
		w, err = flate.NewWriter(&b, flate.DefaultCompression)
	case "br":
		w = brotli.NewWriter(&b)
	case "zstd":
		w, err = zstd.NewWriter(&b, zstd.WithEncoderConcurrency(1))
	default:
		t.Fatalf("testutil.Encode: no coding %q", c)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// CodedText returns n bytes of HTML (n at least 64) that compress about
// four times, so that every decoder gives bytes well before the end of its
// input.
func CodedText(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><meta charset=utf-8>\n")
	for b.Len() < n {
		fmt.Fprintf(&b, "<p>word%d %x</p>\n", rng.IntN(1000), rng.Uint32())
	}
	return []byte(b.String()[:n])
}

// Spoil returns a copy of b, coded text, damaged as kind says: "start"
// (the first 16 bytes 0xFF), "cut8" (all but 8 bytes gone), "middle" (64
// bytes 0xFF half-way), "cut" (the second half gone), "empty" (nothing);
// any other kind, such as "valid", leaves it whole.
func Spoil(b []byte, kind string) []byte {
	b = bytes.Clone(b)
	switch kind {
	case "start":
		copy(b, bytes.Repeat([]byte{0xFF}, 16))
	case "cut8":
		b = b[:8]
	case "middle":
		copy(b[len(b)/2:], bytes.Repeat([]byte{0xFF}, 64))
	case "cut":
		b = b[:len(b)/2]
	case "empty":
		b = nil
	}
	return b
}
