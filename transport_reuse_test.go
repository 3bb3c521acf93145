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
	"github.com/charsniff/charsniff/sniff"
)

// TestTransportBodiesClosedEarly: bodies closed early (some text read,
// settled, nothing read), on kept-alive connections and from several
// goroutines, leave nothing behind for the bodies after them, whose
// decoders take the buffers the finished ones gave back: each body read
// to its end gives the text and result a fresh decode.Reader gives.
func TestTransportBodiesClosedEarly(t *testing.T) {
	ascii := strings.Repeat("<p>plain ASCII text, line after line.</p>\r\n", 40)
	tail := strings.Repeat("<p>more ASCII after the first non-ASCII byte</p>\n", 200)
	docs := []string{
		"<html>" + ascii + "caf\xe9 na\xefve r\xe9sum\xe9" + tail,
		"<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<rss>" + ascii + "\x82\xa0\x82\xa2</rss>",
		"<html>" + ascii + `<meta charset="koi8-r">` + "\xf0\xd2\xc9\xd7" + tail,
		"<html>" + ascii + strings.Repeat("\x82\xa0\x82\xa2\x82\xa4 ", 60) + tail,
		"a\r\nb\r",
		"\nstarts with LF",
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
