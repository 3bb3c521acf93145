package charsniff_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"

	"github.com/charsniff/charsniff"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// sitePage is one page of the test site: UTF-8 text to be encoded in
// label by golang.org/x/text's encoders (not ours) for the wire.
type sitePage struct {
	label       string // encoding on the wire, a WHATWG label
	host        string // the URL's host, whose top-level domain hints
	title, text string // the expected text nodes, in UTF-8 (CR LF in text)
	modes       []string
}

// Modes of declaring the encoding:
//   - header: the Content-Type charset only;
//   - meta: a <meta charset> in the first 1024 bytes;
//   - late: a <meta charset> past the first 1024 bytes, after ASCII only;
//   - none: no declaration, the host's top-level domain a hint;
//   - bom: a byte order mark (UTF-16LE).
var declared = []string{"header", "meta", "late"}

var site = []sitePage{
	{"windows-1252", "example.fr", "Café crème",
		"L'été à Paris : les élèves étudient à la bibliothèque,\r\noù règne un silence absolu. « Voilà ! »", nil},
	{"windows-1251", "example.ru", "Новости дня",
		"Привет, мир! Сегодня хорошая погода, и мы идём гулять в парк.\r\nЦены на хлеб и молоко снова выросли в этом месяце.", nil},
	{"koi8-r", "example.ru", "Новости дня",
		"Привет, мир! Сегодня хорошая погода, и мы идём гулять в парк.\r\nЦены на хлеб и молоко снова выросли в этом месяце.", nil},
	{"shift_jis", "example.jp", "ニュース",
		"今日は良い天気です。明日は雨でしょう。\r\n東京の天気予報をお知らせします。週末は晴れるでしょう。", nil},
	{"euc-jp", "example.jp", "ニュース",
		"今日は良い天気です。明日は雨でしょう。\r\n東京の天気予報をお知らせします。週末は晴れるでしょう。", nil},
	{"euc-kr", "example.kr", "블로그",
		"안녕하세요. 오늘은 날씨가 좋습니다.\r\n한국어 블로그에 오신 것을 환영합니다. 많이 읽어 주세요.", nil},
	{"gbk", "example.cn", "商店",
		"欢迎光临本店，价格优惠。\r\n今天的天气很好，我们去公园散步吧。明天见！", nil},
	{"big5", "example.tw", "商店",
		"歡迎光臨本店，價格優惠。\r\n今天的天氣很好，我們去公園散步吧。明天見！", nil},
	{"iso-8859-2", "example.pl", "Wiadomości",
		"Zażółć gęślą jaźń. Pchnąć w tę łódź jeża lub ośm skrzyń fig.\r\nŚwięto miasta odbędzie się w sobotę.", nil},
	{"windows-1256", "example.eg", "أخبار",
		"مرحبا بالعالم. الطقس جميل اليوم ونحن نذهب إلى الحديقة.\r\nارتفعت أسعار الخبز والحليب مرة أخرى هذا الشهر.", nil},
	{"utf-8", "example.de", "Notizen",
		"Grüße aus Köln — 東京\r\nZeile zwei\rZeile drei: € 10", nil},
	{"utf-16le", "example.de", "Letter",
		"Grüße aus Köln — 東京\r\nzweite Zeile", []string{"bom"}},
}

// codings are the Content-Encoding values the site serves. "deflate-raw"
// is raw deflate under the header "deflate"; "net/http" gzips only when
// the client's Transport asked for gzip itself.
var codings = []string{"", "gzip", "x-gzip", "deflate", "deflate-raw", "br", "zstd", "gzip, br", "deflate-raw, zstd", "net/http"}

// acceptAll is the Accept-Encoding header a crawler sets itself.
const acceptAll = "gzip, deflate, br, zstd"

// pageHTML returns the page p in mode, in UTF-8, and its Content-Type.
func pageHTML(p sitePage, mode string) (page, contentType string) {
	head, contentType := "", "text/html"
	switch mode {
	case "header":
		contentType = "text/html; charset=" + p.label
	case "meta":
		head = `<meta charset="` + p.label + `">`
	case "late":
		head = "<!-- " + strings.Repeat("padding ", 160) + "-->" + `<meta charset="` + p.label + `">`
	}
	page = "<!DOCTYPE html>\r\n<html><head>" + head + "<title>" + p.title + "</title></head>\r\n" +
		"<body><p>" + p.text + "</p></body></html>\r\n"
	return page, contentType
}

// encodePage encodes page in label with golang.org/x/text.
func encodePage(t testing.TB, label, page string) []byte {
	e, err := htmlindex.Get(label)
	if err != nil {
		t.Fatal(err)
	}
	if label == "utf-16le" {
		e = unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	}
	b, err := e.NewEncoder().Bytes([]byte(page))
	if err != nil {
		t.Fatalf("%s: cannot encode the page: %v", label, err)
	}
	return b
}

// compress applies the codings of header (in order) to b; "deflate-raw"
// is raw deflate, and an unknown coding leaves the bytes as they are.
func compress(t testing.TB, header string, b []byte) []byte {
	for c := range strings.SplitSeq(header, ",") {
		switch c = strings.TrimSpace(c); c {
		case "gzip", "x-gzip", "deflate", "deflate-raw", "br", "zstd":
			b = testutil.Encode(t, c, b)
		}
	}
	return b
}

// serveSite serves /{label}/{mode}?ce={coding} and /raw?ce=..&ct=..&body=..,
// returns a client Transport that sends every host to the server (so that
// http://example.ru/ reaches it), and stops the server at the end of t.
func serveSite(t *testing.T) *http.Transport {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		var contentType string
		ce := r.URL.Query().Get("ce")
		if r.URL.Path == "/raw" {
			body, contentType = []byte(r.URL.Query().Get("body")), r.URL.Query().Get("ct")
		} else {
			label, mode, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
			i := findPage(label)
			if i < 0 {
				http.NotFound(w, r)
				return
			}
			var page string
			page, contentType = pageHTML(site[i], mode)
			body = encodePage(t, label, page)
		}
		if ce == "net/http" {
			ce = ""
			if r.Header.Get("Accept-Encoding") == "gzip" { // net/http's own
				ce = "gzip"
			}
		}
		if ce != "" {
			w.Header().Set("Content-Encoding", strings.ReplaceAll(ce, "deflate-raw", "deflate"))
			body = compress(t, ce, body)
		}
		if contentType != "-" {
			w.Header().Set("Content-Type", contentType)
		} else {
			w.Header()["Content-Type"] = nil // no Content-Type, no sniffing by net/http
		}
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	return tr
}

func findPage(label string) int {
	for i, p := range site {
		if p.label == label {
			return i
		}
	}
	return -1
}

// texts parses r with golang.org/x/net/html and returns its non-blank
// text nodes.
func texts(t *testing.T, r io.Reader) []string {
	t.Helper()
	doc, err := html.Parse(r)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for n := range doc.Descendants() {
		if n.Type == html.TextNode && strings.TrimSpace(n.Data) != "" {
			out = append(out, n.Data)
		}
	}
	return out
}

// responseReader sends req with client and returns NewResponseReader's
// Reader of the response, with opts; the body is closed when t ends.
func responseReader(t *testing.T, client *http.Client, req *http.Request, opts ...decode.Option) *decode.Reader {
	t.Helper()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	r, err := charsniff.NewResponseReader(resp, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSite fetches every page of the site in every mode and coding, through
// Transport and through NewResponseReader, with and without the client's
// own Accept-Encoding, and compares the text x/net/html parses.
func TestSite(t *testing.T) {
	base := serveSite(t)
	crawler := &http.Client{Transport: &charsniff.Transport{
		Base: base,
	}}
	plain := &http.Client{Transport: base}
	for _, p := range site {
		modes := p.modes
		if modes == nil {
			modes = append(declared, "none")
		}
		for _, mode := range modes {
			want := []string{p.title, strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(p.text)}
			wantEnc, _ := override.Lookup(p.label)
			wantSource := map[string]sniff.Source{"header": sniff.SourceTransport, "meta": sniff.SourcePrescan,
				"none": sniff.SourceAutodetect, "bom": sniff.SourceBOM}[mode]
			for _, ce := range codings {
				url := fmt.Sprintf("http://%s/%s/%s?ce=%s", p.host, p.label, mode, neturl.QueryEscape(ce))
				for _, client := range []string{"Transport", "NewResponseReader"} {
					t.Run(fmt.Sprintf("%s/%s/%s/%s", p.label, mode, ce, client), func(t *testing.T) {
						req, _ := http.NewRequest("GET", url, nil)
						if ce != "net/http" {
							req.Header.Set("Accept-Encoding", acceptAll)
						}
						var r *decode.Reader
						var body io.Reader
						var resp *http.Response
						var err error
						if client == "Transport" {
							resp, err = crawler.Do(req)
							if err != nil {
								t.Fatal(err)
							}
							defer resp.Body.Close()
							if got := resp.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
								t.Errorf("Content-Type %q", got)
							}
							if resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Length") != "" || resp.ContentLength != -1 {
								t.Errorf("headers %v, ContentLength %d", resp.Header, resp.ContentLength)
							}
							b, ok := resp.Body.(*charsniff.Body)
							if !ok {
								t.Fatalf("body %T", resp.Body)
							}
							r, body = b.Decoder(), b
						} else {
							r = responseReader(t, plain, req)
							body = r
						}
						if res := r.Result(); mode != "late" && (res.Encoding != wantEnc || res.Source != wantSource) {
							t.Errorf("Result() = %v from %v, want %v from %v", res.Encoding, res.Source, wantEnc, wantSource)
						}
						if got := texts(t, body); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
							t.Errorf("text nodes\ngot  %q\nwant %q", got, want)
						}
						if got := r.Result().Encoding; got != wantEnc {
							t.Errorf("final encoding %v, want %v", got, wantEnc)
						}
					})
				}
			}
		}
	}
}

// countingBody is a response body that counts its Close calls.
type countingBody struct {
	io.Reader
	closes atomic.Int32
}

func (b *countingBody) Close() error { b.closes.Add(1); return nil }

// fixedTransport answers every request with a response it builds.
type fixedTransport func(*http.Request) *http.Response

func (f fixedTransport) RoundTrip(req *http.Request) (*http.Response, error) { return f(req), nil }

// respond returns a RoundTripper that answers with the header and body
// given, recording the body in *got.
func respond(header http.Header, body []byte, got **countingBody) http.RoundTripper {
	return fixedTransport(func(req *http.Request) *http.Response {
		b := &countingBody{Reader: bytes.NewReader(body)}
		*got = b
		return &http.Response{StatusCode: 200, Header: header.Clone(), Body: b, Request: req,
			ContentLength: int64(len(body))}
	})
}

// TestTransportClosesOnce reads and closes decoded bodies (plain and
// compressed) in the ways callers do, and counts the Close calls that
// reach the original body.
func TestTransportClosesOnce(t *testing.T) {
	page := []byte("<meta charset=windows-1252><p>Caf\xe9")
	for _, ce := range []string{"", "gzip", "br, zstd"} {
		var b *countingBody
		tr := &charsniff.Transport{Base: respond(http.Header{"Content-Type": {"text/html"},
			"Content-Encoding": {ce}}, compress(t, ce, page), &b)}
		req, _ := http.NewRequest("GET", "http://example.com/", nil)
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		if string(got) != "<meta charset=windows-1252><p>Café" {
			t.Errorf("%q: got %q", ce, got)
		}
		resp.Body.Close()
		resp.Body.Close()
		if n := b.closes.Load(); n != 1 {
			t.Errorf("%q: body closed %d times, want 1", ce, n)
		}
		// Through an http.Client, which may wrap the body, too.
		resp, err = (&http.Client{Transport: tr}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		resp.Body.Close()
		if n := b.closes.Load(); n != 1 {
			t.Errorf("%q via Client: body closed %d times, want 1", ce, n)
		}
	}
}

// TestTransportErrors checks the errors RoundTrip and Read return, and
// that RoundTrip closes the body when it fails.
func TestTransportErrors(t *testing.T) {
	var b *countingBody
	page := []byte("<p>text")
	header := http.Header{"Content-Type": {"text/html"}, "Content-Encoding": {"gzip, foo"}}
	req, _ := http.NewRequest("GET", "http://example.com/a", nil)
	resp, err := (&charsniff.Transport{Base: respond(header, page, &b)}).RoundTrip(req)
	if want := `charsniff: http://example.com/a: content-encoding "foo": unsupported`; resp != nil || err == nil || err.Error() != want {
		t.Errorf("unknown coding: %v, %v\nwant %s", resp, err, want)
	}
	if !errors.Is(err, charsniff.ErrUnsupportedCoding) || b.closes.Load() != 1 {
		t.Errorf("unknown coding: %v, body closed %d times", err, b.closes.Load())
	}

	header.Set("Content-Encoding", "gzip")
	_, err = (&charsniff.Transport{Base: respond(header, page, &b)}).RoundTrip(req)
	if err == nil || !strings.HasPrefix(err.Error(), `charsniff: http://example.com/a: content-encoding "gzip": `) || b.closes.Load() != 1 {
		t.Errorf("corrupt gzip: %v, body closed %d times", err, b.closes.Load())
	}

	_, err = (&charsniff.Transport{Base: respond(header, compress(t, "gzip", page), &b),
		Options: []decode.Option{decode.WithEncoding(override.Unknown)}}).RoundTrip(req)
	if err == nil || !strings.HasPrefix(err.Error(), `charsniff: http://example.com/a: decode: WithEncoding of an invalid encoding`) || b.closes.Load() != 1 {
		t.Errorf("bad option: %v, body closed %d times", err, b.closes.Load())
	}

	// A bomb: RoundTrip succeeds, Read fails, naming the URL.
	for _, tc := range []struct {
		tr   *charsniff.Transport
		size int
	}{
		{&charsniff.Transport{}, 16 << 20},
		{&charsniff.Transport{MaxDecodedSize: 4000, MaxRatio: -1}, 5000},
	} {
		header.Set("Content-Encoding", "br")
		tc.tr.Base = respond(header, compress(t, "br", make([]byte, tc.size)), &b)
		resp, err := tc.tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		if !errors.Is(err, charsniff.ErrBodyTooLarge) || !strings.HasPrefix(err.Error(), "charsniff: http://example.com/a: ") {
			t.Errorf("bomb of %d: %d bytes read, error %v", tc.size, n, err)
		}
		resp.Body.Close()
	}
	// Within the limit.
	tr := &charsniff.Transport{MaxDecodedSize: 5000, MaxRatio: -1, Base: respond(header, compress(t, "br", bytes.Repeat([]byte(" "), 5000)), &b)}
	resp, _ = tr.RoundTrip(req)
	if n, err := io.Copy(io.Discard, resp.Body); n != 5000 || err != nil {
		t.Errorf("5000 bytes within MaxDecodedSize 5000: %d, %v", n, err)
	}
}

// TestTransportPassthrough checks that responses other than HTML come back
// as Base returned them, byte for byte, headers and all.
func TestTransportPassthrough(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	for _, tc := range []struct {
		desc   string
		method string
		status int
		header http.Header
		body   []byte
	}{
		{"image", "GET", 200, http.Header{"Content-Type": {"image/png"}}, png},
		{"gzipped JSON", "GET", 200, http.Header{"Content-Type": {"application/json"}, "Content-Encoding": {"gzip"}}, compress(t, "gzip", []byte(`{"a":"\u00e9"}`))},
		{"unknown coding on text/plain", "GET", 200, http.Header{"Content-Type": {"text/plain; charset=iso-8859-1"}, "Content-Encoding": {"foo"}}, []byte("caf\xe9")},
		{"XML", "GET", 200, http.Header{"Content-Type": {"application/xml"}}, []byte("<?xml version='1.0' encoding='iso-8859-1'?><a>\xe9</a>")},
		{"no Content-Type, not HTML", "GET", 200, http.Header{}, png},
		{"HEAD", "HEAD", 200, http.Header{"Content-Type": {"text/html; charset=shift_jis"}, "Content-Length": {"1234"}}, nil},
		{"304", "GET", 304, http.Header{"Content-Type": {"text/html; charset=shift_jis"}}, nil},
	} {
		var b *countingBody
		base := fixedTransport(func(req *http.Request) *http.Response {
			b = &countingBody{Reader: bytes.NewReader(tc.body)}
			return &http.Response{StatusCode: tc.status, Header: tc.header.Clone(), Body: b, Request: req, ContentLength: 1234}
		})
		req, _ := http.NewRequest(tc.method, "http://example.jp/x", nil)
		resp, err := (&charsniff.Transport{Base: base}).RoundTrip(req)
		if err != nil {
			t.Errorf("%s: %v", tc.desc, err)
			continue
		}
		if fmt.Sprint(resp.Header) != fmt.Sprint(tc.header) || resp.ContentLength != 1234 || resp.Uncompressed {
			t.Errorf("%s: header %v, ContentLength %d, Uncompressed %v", tc.desc, resp.Header, resp.ContentLength, resp.Uncompressed)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !bytes.Equal(got, tc.body) || b.closes.Load() != 1 {
			t.Errorf("%s: body %q (closed %d times), want %q", tc.desc, got, b.closes.Load(), tc.body)
		}
		if _, ok := charsniff.ResponseResult(resp); ok {
			t.Errorf("%s: ResponseResult ok", tc.desc)
		}
	}
}

// TestTransportNoContentType checks that a response without Content-Type
// is decoded when its bytes sniff as HTML, compressed or not.
func TestTransportNoContentType(t *testing.T) {
	base := serveSite(t)
	page := string(encodePage(t, "shift_jis", "<!DOCTYPE html><title>ニュース</title>"))
	client := &http.Client{Transport: &charsniff.Transport{Base: base}}
	for _, ce := range []string{"", "zstd"} {
		req, _ := http.NewRequest("GET", "http://example.jp/raw?ct=-&ce="+ce+"&body="+neturl.QueryEscape(page), nil)
		req.Header.Set("Accept-Encoding", acceptAll)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res, ok := charsniff.ResponseResult(resp)
		got := texts(t, resp.Body)
		resp.Body.Close()
		if !ok || res.Encoding != override.ShiftJIS || len(got) != 1 || got[0] != "ニュース" {
			t.Errorf("%q: %v %v, text %q", ce, res, ok, got)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("%q: Content-Type %q", ce, ct)
		}
	}
}

// TestTransportContentType checks which Content-Types are decoded and what
// they become.
func TestTransportContentType(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"text/html", "text/html; charset=utf-8"},
		{"Text/HTML; charset=Shift_JIS", "text/html; charset=utf-8"},
		{" text/html ;charset=\"euc-jp\"; foo=bar", "text/html; charset=utf-8"},
		{"application/xhtml+xml; charset=iso-8859-1", "application/xhtml+xml; charset=utf-8"},
		{"text/htmlx", "text/htmlx"},
		{"text/plain; charset=shift_jis", "text/plain; charset=shift_jis"},
	} {
		var b *countingBody
		tr := &charsniff.Transport{Base: respond(http.Header{"Content-Type": {tc.in}}, []byte("<p>x"), &b)}
		req, _ := http.NewRequest("GET", "http://example.com/", nil)
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		if got := resp.Header.Get("Content-Type"); got != tc.want {
			t.Errorf("%q became %q, want %q", tc.in, got, tc.want)
		}
		resp.Body.Close()
	}
}

// TestTransportConcurrent runs one Transport from several goroutines
// (under -race, a check that it shares nothing it should not).
func TestTransportConcurrent(t *testing.T) {
	base := serveSite(t)
	client := &http.Client{Transport: &charsniff.Transport{Base: base}}
	var wg sync.WaitGroup
	for _, p := range site[:6] {
		wg.Go(func() {
			req, _ := http.NewRequest("GET", "http://"+p.host+"/"+p.label+"/meta?ce=gzip", nil)
			req.Header.Set("Accept-Encoding", acceptAll)
			resp, err := client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			if got := texts(t, resp.Body); len(got) != 2 || got[0] != p.title {
				t.Errorf("%s: %q", p.label, got)
			}
		})
	}
	wg.Wait()
}

// TestTransportAcceptEncoding checks that AcceptEncoding asks for the
// codings without changing the caller's request, and that every response
// to such a request comes back decompressed, HTML or not.
func TestTransportAcceptEncoding(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ae := r.Header.Get("Accept-Encoding")
		seen = append(seen, ae)
		body := []byte(`{"name":"caf\u00e9"}`)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/html" {
			body = []byte("<meta charset=windows-1252><title>Caf\xe9</title>")
			w.Header().Set("Content-Type", "text/html")
		}
		if strings.Contains(ae, "br") {
			w.Header().Set("Content-Encoding", "br")
			body = compress(t, "br", body)
		}
		w.Write(body)
	}))
	defer srv.Close()
	tr := &charsniff.Transport{AcceptEncoding: "gzip, br, zstd"}
	client := &http.Client{Transport: tr}
	defer client.CloseIdleConnections()
	for _, tc := range []struct {
		path, rng, ownAE string
		wantAE, wantBody string
		uncompressed     bool
	}{
		{"/json", "", "", "gzip, br, zstd", `{"name":"caf\u00e9"}`, true},
		{"/html", "", "", "gzip, br, zstd", "Café", true},
		{"/html", "", "identity", "identity", "Café", false},
		{"/json", "bytes=0-", "", "", `{"name":"caf\u00e9"}`, false},
	} {
		seen = nil
		req, _ := http.NewRequest("GET", srv.URL+tc.path, nil)
		if tc.rng != "" {
			req.Header.Set("Range", tc.rng)
		}
		if tc.ownAE != "" {
			req.Header.Set("Accept-Encoding", tc.ownAE)
		}
		before := fmt.Sprint(req.Header)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if tc.path == "/html" {
			got = strings.Join(texts(t, resp.Body), "|")
		} else {
			b, _ := io.ReadAll(resp.Body)
			got = string(b)
		}
		resp.Body.Close()
		ae := ""
		if len(seen) == 1 {
			ae = seen[0]
		}
		if ae != tc.wantAE && !(tc.wantAE == "" && ae == "gzip") {
			t.Errorf("%s %q: server saw Accept-Encoding %q, want %q", tc.path, tc.ownAE, ae, tc.wantAE)
		}
		if got != tc.wantBody || resp.Header.Get("Content-Encoding") != "" || resp.Uncompressed != tc.uncompressed {
			t.Errorf("%s %q: body %q, Content-Encoding %q, Uncompressed %v", tc.path, tc.ownAE, got, resp.Header.Get("Content-Encoding"), resp.Uncompressed)
		}
		if after := fmt.Sprint(req.Header); after != before {
			t.Errorf("the caller's request changed: %s, was %s", after, before)
		}
	}
}

// idleCounter counts CloseIdleConnections calls.
type idleCounter struct {
	http.RoundTripper
	n int
}

func (c *idleCounter) CloseIdleConnections() { c.n++ }

func TestTransportCloseIdleConnections(t *testing.T) {
	base := &idleCounter{}
	(&http.Client{Transport: &charsniff.Transport{Base: base}}).CloseIdleConnections()
	if base.n != 1 {
		t.Errorf("Base.CloseIdleConnections called %d times, want 1", base.n)
	}
	(&charsniff.Transport{Base: fixedTransport(nil)}).CloseIdleConnections() // no method: nothing
}

// TestTransportEmptyCompressed checks that an empty body with a
// Content-Encoding is an empty page, not an error.
func TestTransportEmptyCompressed(t *testing.T) {
	for _, ce := range []string{"gzip", "br", "deflate", "zstd"} {
		var b *countingBody
		tr := &charsniff.Transport{Base: respond(http.Header{"Content-Type": {"text/html"}, "Content-Encoding": {ce}}, nil, &b)}
		req, _ := http.NewRequest("GET", "http://example.com/", nil)
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Errorf("%s: %v", ce, err)
			continue
		}
		if got, err := io.ReadAll(resp.Body); len(got) != 0 || err != nil {
			t.Errorf("%s: %q, %v", ce, got, err)
		}
		resp.Body.Close()
	}
}
