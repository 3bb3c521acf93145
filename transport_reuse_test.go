package charsniff_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/charsniff/charsniff"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/sniff"
)

// TestTransportBodiesClosedEarly: bodies closed early (some text read,
// settled, nothing read), on kept-alive connections and from several
// goroutines, leave nothing behind for the bodies after them, whose
// decoders take the buffers the finished ones gave back: each body read
// to its end gives the text and result a fresh decode.Reader gives.
func TestTransportBodiesClosedEarly(t *testing.T) {
	var docs []string
	for _, d := range testutil.ReuseDocs() {
		if d.Text != "" { // a response with no body is left as it is
			docs = append(docs, d.Text)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, docs[i])
	}))
	defer srv.Close()
	type want struct {
		text string
		res  decode.Result
	}
	wants := make([]want, len(docs))
	for i, d := range docs {
		r, _ := decode.NewReader(strings.NewReader(d), decode.WithSniff(sniff.Options{ContentType: "text/html"}))
		b, _ := io.ReadAll(r)
		wants[i] = want{string(b), r.Result()}
	}
	client := &http.Client{Transport: &charsniff.Transport{}}
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			for range 40 {
				i := rng.IntN(len(docs))
				resp, err := client.Get(srv.URL + "/" + strconv.Itoa(i))
				if err != nil {
					t.Error(err)
					return
				}
				body := resp.Body.(*charsniff.Body)
				switch rng.IntN(4) {
				case 0:
					io.CopyN(io.Discard, body, int64(rng.IntN(3000)))
				case 1:
					body.Decoder().Settle(nil, -1)
				case 2:
				default:
					var b bytes.Buffer
					_, err := b.ReadFrom(body)
					if err != nil || b.String() != wants[i].text || body.Result() != wants[i].res {
						t.Errorf("doc %d: %d bytes, %v, %+v; want %d bytes, %+v", i, b.Len(), err, body.Result(), len(wants[i].text), wants[i].res)
					}
				}
				body.Close()
			}
		})
	}
	wg.Wait()
}
