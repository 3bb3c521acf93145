package testutil

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"io"
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
