package invariance

import (
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/charsniff/charsniff"
	"github.com/charsniff/charsniff/decode"
)

// TestRoot: the root package's NewReader, with and without the document's
// Content-Type, gives the fresh decode.Reader's answer.
func TestRoot(t *testing.T) {
	docs, ref, ctr := corpus(t)
	rng := rand.New(rand.NewPCG(*pathSeed, 3))
	for i := range docs {
		d := &docs[i]
		for _, c := range []struct {
			ct   string
			want answer
		}{{"", ref[i]}, {d.ContentType, ctr[i]}} {
			r, err := charsniff.NewReader(sources[i%len(sources)].make(d.Data, rng), c.ct)
			if err != nil {
				t.Fatal(err)
			}
			text, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			check(t, d, fmt.Sprintf("charsniff.NewReader(%q)", c.ct), answerOf(r.(*decode.Reader).Result(), text), c.want)
		}
	}
}

// server serves document i at /i with its Content-Type, gzip-encoded
// when asked for with ?gzip.
func server(docs []Doc) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i, err := strconv.Atoi(r.URL.Path[1:])
		if err != nil || i < 0 || i >= len(docs) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", docs[i].ContentType)
		if r.URL.RawQuery == "gzip" {
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			zw.Write(docs[i].Data)
			zw.Close()
			return
		}
		w.Write(docs[i].Data)
	}))
}

// TestHTTP: NewResponseReader and Transport over a real server, with the
// body plain and gzip-encoded, give the answer of the document with its
// Content-Type.
func TestHTTP(t *testing.T) {
	docs, _, ctr := corpus(t)
	srv := server(docs)
	defer srv.Close()
	raw := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	dec := &http.Client{Transport: &charsniff.Transport{}}
	for i := range docs {
		d := &docs[i]
		for _, q := range []string{"", "?gzip"} {
			if light(d) && q == "" {
				continue
			}
			url := fmt.Sprintf("%s/%d%s", srv.URL, i, q)
			resp, err := raw.Get(url)
			if err != nil {
				t.Fatal(err)
			}
			r, err := charsniff.NewResponseReader(resp)
			if err != nil {
				t.Fatalf("%s: %v", d.Name, err)
			}
			text, err := io.ReadAll(r)
			resp.Body.Close()
			if err != nil {
				t.Fatalf("%s: %v", d.Name, err)
			}
			check(t, d, "NewResponseReader"+q, answerOf(r.Result(), text), ctr[i])

			resp, err = dec.Get(url)
			if err != nil {
				t.Fatal(err)
			}
			text, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatalf("%s: %v", d.Name, err)
			}
			res, ok := charsniff.ResponseResult(resp)
			if !ok && len(d.Data) == 0 && len(text) == 0 {
				continue // net/http's empty body is http.NoBody, which Transport leaves alone
			}
			if !ok {
				t.Errorf("%s: Transport%s: not decoded (Content-Type %q)", d.Name, q, d.ContentType)
				continue
			}
			check(t, d, "Transport"+q, answerOf(res, text), ctr[i])
		}
	}
}
