package charsniff_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"strings"
	"testing"

	"github.com/charsniff/charsniff"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// pages are served by TestResponseReaderIntegration: each is a page in
// UTF-8 (with CR LF line ends), encoded into its encoding for the wire.
var pages = []struct {
	path        string
	label       string // encoding of the bytes on the wire
	contentType string // header value
	bom         string // bytes before the encoded page
	head        string // inside <head>, in UTF-8 before encoding
	title, text string // the expected text nodes
	source      sniff.Source
}{
	{"/sjis", "shift_jis", "text/html; charset=Shift_JIS", "", "",
		"ニュース", "今日は良い天気です。\r\n明日は雨でしょう。", sniff.SourceTransport},
	{"/euckr", "euc-kr", "text/html", "", `<meta charset="euc-kr">`,
		"블로그", "안녕하세요. 오늘은 날씨가 좋습니다.", sniff.SourcePrescan},
	{"/gbk", "gbk", "text/html", "", `<meta http-equiv="Content-Type" content="text/html; charset=gb2312">`,
		"商店", "欢迎光临本店，价格优惠。", sniff.SourcePrescan},
	{"/cp1251", "windows-1251", "text/html; charset=windows-1251", "", "",
		"Новости", "Привет, мир!\r\nКак дела?", sniff.SourceTransport},
	{"/utf16", "utf-16le", "text/html", "\xFF\xFE", "",
		"Letter", "Grüße aus Köln — 東京\r\nzweite Zeile", sniff.SourceBOM},
	{"/utf8", "utf-8", "text/html", "", `<meta charset=utf-8>`,
		"Notes", "Zeile eins\r\nZeile zwei\rZeile drei\r\n€ 10", sniff.SourcePrescan},
}

// TestResponseReaderIntegration serves pages in six encodings from a real
// HTTP server, reads each response through NewResponseReader, parses it
// with golang.org/x/net/html and compares the text nodes.
func TestResponseReaderIntegration(t *testing.T) {
	mux := http.NewServeMux()
	for _, p := range pages {
		page := "<!DOCTYPE html>\r\n<html><head>" + p.head + "<title>" + p.title + "</title></head>\r\n" +
			"<body><p>" + p.text + "</p></body></html>\r\n"
		e, _ := charsniff.Lookup(p.label)
		body, err := e.NewEncoder().String(page)
		if err != nil || strings.Contains(body, "&#") {
			t.Fatalf("%s: cannot encode the page in %s: %v", p.path, p.label, err)
		}
		body = p.bom + body
		mux.HandleFunc(p.path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", p.contentType)
			io.WriteString(w, body)
		})
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()

	for _, p := range pages {
		t.Run(p.label, func(t *testing.T) {
			r := responseReader(t, http.DefaultClient, must(http.NewRequest("GET", srv.URL+p.path, nil)))
			want, _ := override.Lookup(p.label)
			if res := r.Result(); res.Encoding != want || res.Source != p.source {
				t.Errorf("Result() = %+v, want %v from %v", res, want, p.source)
			}
			wantText := strings.ReplaceAll(strings.ReplaceAll(p.text, "\r\n", "\n"), "\r", "\n")
			if got := texts(t, r); len(got) != 2 || got[0] != p.title || got[1] != wantText {
				t.Errorf("text nodes = %q, want %q", got, []string{p.title, wantText})
			}
		})
	}
}

// TestResponseReaderRaw reads a CR LF page through NewResponseReader with
// options, and checks that no CR reaches the output without them.
func TestResponseReaderRaw(t *testing.T) {
	page := "<p>a\r\nb"
	for _, tc := range []struct {
		desc string
		opts []decode.Option
		want string
	}{
		{"default", nil, "<p>a\nb"},
		{"raw", []decode.Option{decode.WithoutPreprocessing()}, "<p>a\r\nb"},
		{"override beats the header", []decode.Option{decode.WithSniff(sniff.Options{Override: override.UTF16LE})}, "\u703C\u613E\u0A0D\uFFFD"},
		{"a caller's Content-Type replaces the header", []decode.Option{decode.WithSniff(sniff.Options{ContentType: "text/html; charset=utf-16le"})}, "\u703C\u613E\u0A0D\uFFFD"},
		{"a caller's hint merges with the header", []decode.Option{decode.WithSniff(sniff.Options{Locale: "ja"})}, "<p>a\nb"},
	} {
		resp := &http.Response{
			Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}},
			Body:   io.NopCloser(strings.NewReader(page)),
		}
		r, err := charsniff.NewResponseReader(resp, tc.opts...)
		if got := readString(t, r, err); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.desc, got, tc.want)
		}
	}
}

// TestResponseReaderEdges covers a nil response and a nil body.
func TestResponseReaderEdges(t *testing.T) {
	if r, err := charsniff.NewResponseReader(nil); r != nil || err == nil {
		t.Errorf("NewResponseReader(nil) = %v, %v, want nil and an error", r, err)
	}
	r, err := charsniff.NewResponseReader(&http.Response{})
	if got := readString(t, r, err); got != "" {
		t.Errorf("nil body: got %q", got)
	}
	if _, err := charsniff.NewResponseReader(&http.Response{}, decode.WithEncoding(override.Unknown)); err == nil {
		t.Error("bad option: no error")
	}
}

// TestResponseReaderTLD serves a page whose first 1024 bytes are ASCII and
// whose text is windows-1251: the URL's host chooses the default encoding,
// unless an option gives another.
func TestResponseReaderTLD(t *testing.T) {
	base := serveSite(t)
	body := "<title>News</title><!-- " + strings.Repeat("padding ", 140) + "-->" +
		string(encodePage(t, "windows-1251", "<p>Новости дня"))
	for _, tc := range []struct {
		host string
		opts []decode.Option
		want override.Encoding
	}{
		{"example.ru", nil, override.Windows1251},
		{"www.example.jp", nil, override.ShiftJIS},
		{"127.0.0.1", nil, override.Windows1252},
		{"example.com", nil, override.Windows1252},
		{"example.ru", []decode.Option{decode.WithSniff(sniff.Options{TLD: "de"})}, override.Windows1252},
	} {
		req := must(http.NewRequest("GET", "http://"+tc.host+"/raw?ct=text/html&body="+neturl.QueryEscape(body), nil))
		r := responseReader(t, &http.Client{Transport: base}, req, tc.opts...)
		if res := r.Result(); res.Encoding != tc.want || res.Source != sniff.SourceDefault {
			t.Errorf("%s %d options: %v, want %v from the default", tc.host, len(tc.opts), res, tc.want)
		}
	}
}

// TestResponseReaderCoding checks what NewResponseReader does to a
// compressed response, and its errors.
func TestResponseReaderCoding(t *testing.T) {
	page := "<meta charset=windows-1252><p>Caf\xe9"
	newResp := func(ce string, body []byte) *http.Response {
		req, _ := http.NewRequest("GET", "https://user:secret@example.com/page", nil)
		return &http.Response{
			Header: http.Header{"Content-Type": {"text/html"}, "Content-Encoding": {ce},
				"Content-Length": {fmt.Sprint(len(body))}},
			ContentLength: int64(len(body)),
			Body:          io.NopCloser(bytes.NewReader(body)),
			Request:       req,
		}
	}
	resp := newResp("gzip", compress(t, "gzip", []byte(page)))
	r, err := charsniff.NewResponseReader(resp)
	if got := readString(t, r, err); got != "<meta charset=windows-1252><p>Café" {
		t.Errorf("gzip: got %q", got)
	}
	if !resp.Uncompressed || resp.ContentLength != -1 || resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Length") != "" {
		t.Errorf("gzip: response left as %+v", resp)
	}
	// Already uncompressed by net/http: the header is not acted on again.
	resp = newResp("gzip", []byte(page))
	resp.Uncompressed = true
	r, err = charsniff.NewResponseReader(resp)
	if got := readString(t, r, err); got != "<meta charset=windows-1252><p>Café" {
		t.Errorf("Uncompressed: got %q", got)
	}

	_, err = charsniff.NewResponseReader(newResp("gzip, foo", []byte(page)))
	if want := `charsniff: https://user:xxxxx@example.com/page: content-encoding "foo": unsupported`; err == nil || err.Error() != want || !errors.Is(err, charsniff.ErrUnsupportedCoding) {
		t.Errorf("unknown coding: error %v\nwant %s", err, want)
	}
	_, err = charsniff.NewResponseReader(newResp("gzip", []byte(page)))
	if err == nil || !strings.HasPrefix(err.Error(), `charsniff: https://user:xxxxx@example.com/page: content-encoding "gzip": `) {
		t.Errorf("not gzip: error %v", err)
	}
	bomb := compress(t, "zstd", make([]byte, 8<<20))
	r, err = charsniff.NewResponseReader(newResp("zstd", bomb))
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(io.Discard, r)
	if !errors.Is(err, charsniff.ErrBodyTooLarge) || !strings.HasPrefix(err.Error(), "charsniff: https://user:xxxxx@example.com/page: ") {
		t.Errorf("bomb: error %v", err)
	}
}
