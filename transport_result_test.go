package charsniff_test

import (
	"io"
	"net/http"
	neturl "net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charsniff/charsniff"
)

// TestResponseResultBehindTimeout checks that ResponseResult finds the
// result of every page fetched through an http.Client with a Timeout,
// which wraps each response's body in a type of its own.
func TestResponseResultBehindTimeout(t *testing.T) {
	base := serveSite(t)
	client := &http.Client{Transport: &charsniff.Transport{Base: base}, Timeout: time.Minute}
	found := 0
	for _, p := range site {
		for _, mode := range declared {
			resp, err := client.Get("http://" + p.host + "/" + p.label + "/" + mode)
			if err != nil {
				t.Fatal(err)
			}
			if _, wrapped := resp.Body.(*charsniff.Body); wrapped {
				t.Fatalf("%s/%s: the client left the body unwrapped; the test tests nothing", p.label, mode)
			}
			io.Copy(io.Discard, resp.Body)
			res, ok := charsniff.ResponseResult(resp)
			resp.Body.Close()
			if !ok || res.Encoding.LowerName() != p.label {
				t.Errorf("%s/%s: ResponseResult = %v, %v; want %s", p.label, mode, res, ok, p.label)
				continue
			}
			found++
		}
	}
	if found == 0 {
		t.Fatal("no pages")
	}
}

// TestResultHeader checks the Charsniff-Encoding header of a decoded
// response and its absence on one passed through.
func TestResultHeader(t *testing.T) {
	base := serveSite(t)
	client := &http.Client{Transport: &charsniff.Transport{Base: base}}
	for _, tc := range []struct{ url, want string }{
		{"http://example.jp/shift_jis/meta", "shift_jis; confidence=tentative; source=prescan"},
		{"http://example.jp/shift_jis/header", "shift_jis; confidence=certain; source=transport"},
		{"http://example.jp/raw?ct=image/png&body=x", ""},
	} {
		resp, err := client.Get(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get(charsniff.ResultHeader); got != tc.want {
			t.Errorf("%s: %s: %q, want %q", tc.url, charsniff.ResultHeader, got, tc.want)
		}
	}
}

// TestResponseResultForgets checks that the responses ResponseResult can
// find behind wrappers are not kept alive by it: once they are collected,
// a fresh response is not found, and the memory in use does not grow with
// the number of responses.
func TestResponseResultForgets(t *testing.T) {
	base := serveSite(t)
	client := &http.Client{Transport: &charsniff.Transport{Base: base}, Timeout: time.Minute}
	fetch := func() {
		resp, err := client.Get("http://example.jp/shift_jis/meta")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if _, ok := charsniff.ResponseResult(resp); !ok {
			t.Fatal("ResponseResult not ok")
		}
	}
	heap := func() uint64 {
		for range 3 {
			runtime.GC()
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for range 50 {
		fetch()
	}
	before := heap()
	for range 2000 {
		fetch()
	}
	// A kept Body holds its decode.Reader (several KB each): 2000 of them
	// would be megabytes.
	if after := heap(); after > before+1<<20 {
		t.Errorf("heap grew from %d to %d bytes over 2000 responses", before, after)
	}
	// Not a decoded response: not found.
	resp := &http.Response{Body: http.NoBody}
	if _, ok := charsniff.ResponseResult(resp); ok {
		t.Error("ResponseResult ok for a response no Transport made")
	}
}

// TestTransportSniffsHTMLLikeTheCommand checks that a response without a
// Content-Type is told HTML by the MIME Sniffing Standard's rules over
// its first 1445 bytes, the rules the command uses: an HTML tag after 700
// bytes of white space (past the 512 bytes http.DetectContentType reads)
// still makes it HTML.
func TestTransportSniffsHTMLLikeTheCommand(t *testing.T) {
	base := serveSite(t)
	client := &http.Client{Transport: &charsniff.Transport{Base: base}}
	page := strings.Repeat(" ", 700) + string(encodePage(t, "shift_jis", "<!DOCTYPE html><meta charset=shift_jis><title>ニュース</title>"))
	resp, err := client.Get("http://example.jp/raw?ct=-&body=" + neturl.QueryEscape(page))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	res, ok := charsniff.ResponseResult(resp)
	if got := texts(t, resp.Body); !ok || res.LowerName() != "shift_jis" || len(got) != 1 || got[0] != "ニュース" {
		t.Errorf("ResponseResult = %v, %v; text %q", res, ok, got)
	}
}
