package charsniff_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"testing"

	"github.com/charsniff/charsniff"
	"github.com/charsniff/charsniff/internal/mimetype"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// TestContentTypeParsedOnce checks that Transport and NewResponseReader
// parse a response's Content-Type once, for "is it HTML?" and for the
// sniffing, and that the charset still decides.
func TestContentTypeParsedOnce(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", r.URL.Query().Get("ct"))
		io.WriteString(w, "<p>\x93\xfa\x96{")
	}))
	t.Cleanup(srv.Close)
	base := &http.Transport{}
	t.Cleanup(base.CloseIdleConnections)
	parses := 0
	mimetype.ExtractHook = func() { parses++ }
	t.Cleanup(func() { mimetype.ExtractHook = nil })
	for _, tc := range []struct {
		ct     string
		want   override.Encoding
		source sniff.Source
	}{
		{"text/html; charset=Shift_JIS", override.ShiftJIS, sniff.SourceTransport},
		{"text/html", override.Windows1252, sniff.SourceDefault},
		{`application/xhtml+xml;charset="shift_jis"`, override.ShiftJIS, sniff.SourceTransport},
	} {
		url := srv.URL + "/?ct=" + neturl.QueryEscape(tc.ct)
		parses = 0
		resp, err := (&charsniff.Transport{Base: base}).RoundTrip(must(http.NewRequest("GET", url, nil)))
		if err != nil {
			t.Fatal(err)
		}
		res, _ := charsniff.ResponseResult(resp)
		resp.Body.Close()
		if n := parses; res.Encoding != tc.want || res.Source != tc.source || n != 1 {
			t.Errorf("Transport, %s: %v from %v, %d parses; want %v from %v, 1 parse", tc.ct, res.Encoding, res.Source, n, tc.want, tc.source)
		}

		resp, err = base.RoundTrip(must(http.NewRequest("GET", url, nil)))
		if err != nil {
			t.Fatal(err)
		}
		parses = 0
		r, err := charsniff.NewResponseReader(resp)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res, n := r.Result(), parses; res.Encoding != tc.want || res.Source != tc.source || n != 1 {
			t.Errorf("NewResponseReader, %s: %v from %v, %d parses; want %v from %v, 1 parse", tc.ct, res.Encoding, res.Source, n, tc.want, tc.source)
		}
	}
}
