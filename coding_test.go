package charsniff_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/charsniff/charsniff"
	"github.com/charsniff/charsniff/internal/testutil"
)

// codingCases are the content codings a server sends, as the header says
// and as compress applies them ("deflate-raw" is raw deflate).
var codingCases = []struct {
	header, apply string
	unchecked     bool // no checksum: damage in the middle may pass unseen
}{
	{"gzip", "gzip", false},
	{"x-gzip", "gzip", false},
	{"deflate", "deflate", false},
	{"deflate", "deflate-raw", true},
	{"br", "br", false},
	{"zstd", "zstd", false},
	{"gzip, br", "gzip, br", false},
}

// serveCoded serves /{i}/{kind}: the page coded as codingCases[i] says,
// damaged as spoil's kind says, as text/html with the case's
// Content-Encoding.
func serveCoded(t *testing.T, page []byte) *httptest.Server {
	coded := make([][]byte, len(codingCases))
	for i, c := range codingCases {
		coded[i] = compress(t, c.apply, page)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var i int
		var kind string
		if _, err := fmt.Sscanf(strings.ReplaceAll(r.URL.Path, "/", " "), "%d %s", &i, &kind); err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", codingCases[i].header)
		w.Write(testutil.Spoil(coded[i], kind))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCodingErrors checks that every content coding reports damage the
// same way, through a real server, in Transport.RoundTrip and in
// NewResponseReader: a body corrupt at its start (before its first
// decompressed byte) fails there, naming the URL and the coding; one
// corrupt or cut later fails on Read after the bytes before the damage;
// an empty body is an empty page; a valid one reads whole.
func TestCodingErrors(t *testing.T) {
	page := testutil.CodedText(1 << 20) // past a zstd block of 128 KiB
	srv := serveCoded(t, page)
	base := &http.Transport{DisableCompression: true}
	t.Cleanup(base.CloseIdleConnections)
	tr := &charsniff.Transport{Base: base}
	viaTransport := func(url string) (io.ReadCloser, error) {
		req, _ := http.NewRequest("GET", url, nil)
		resp, err := tr.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" && resp.ContentLength != 0 {
			t.Errorf("%s: Content-Type %q", url, ct)
		}
		return resp.Body, nil
	}
	viaResponseReader := func(url string) (io.ReadCloser, error) {
		resp, err := base.RoundTrip(must(http.NewRequest("GET", url, nil)))
		if err != nil {
			return nil, err
		}
		r, err := charsniff.NewResponseReader(resp)
		if err != nil {
			resp.Body.Close()
			return nil, err
		}
		return readCloser{r, resp.Body}, nil
	}
	for _, via := range []struct {
		name string
		get  func(string) (io.ReadCloser, error)
	}{{"Transport", viaTransport}, {"NewResponseReader", viaResponseReader}} {
		for i, c := range codingCases {
			outer := strings.TrimSpace(c.header[strings.LastIndex(c.header, ",")+1:])
			for _, kind := range []string{"start", "cut8", "middle", "cut", "empty", "valid"} {
				if kind == "middle" && c.unchecked {
					continue
				}
				url := fmt.Sprintf("%s/%d/%s", srv.URL, i, kind)
				name := fmt.Sprintf("%s %s (%s) %s", via.name, c.header, c.apply, kind)
				body, err := via.get(url)
				if kind == "start" || kind == "cut8" {
					want := fmt.Sprintf("charsniff: %s: content-encoding %q: ", url, outer)
					if err == nil || !strings.HasPrefix(err.Error(), want) {
						t.Errorf("%s: error %v, want one starting %s", name, err, want)
					}
					if body != nil {
						body.Close()
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				got, err := io.ReadAll(body)
				body.Close()
				switch kind {
				case "middle", "cut":
					// Damage in a stack may show in any of its codings.
					want := fmt.Sprintf("charsniff: %s: content-encoding ", url)
					if len(got) == 0 || !bytes.HasPrefix(page, got[:min(len(got), len(page)/4)]) || err == nil || !strings.HasPrefix(err.Error(), want) {
						t.Errorf("%s: read %d bytes, error %v; want some bytes, then an error starting %s", name, len(got), err, want)
					}
				case "empty":
					if len(got) != 0 || err != nil {
						t.Errorf("%s: %q, %v; want an empty page", name, got, err)
					}
				case "valid":
					if !bytes.Equal(got, page) || err != nil {
						t.Errorf("%s: %d bytes, %v; want the %d bytes of the page", name, len(got), err, len(page))
					}
				}
			}
		}
	}
}

// readCloser reads from a reader and closes a body.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
