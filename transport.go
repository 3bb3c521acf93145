package charsniff

import (
	"bufio"
	"io"
	"net/http"
	"runtime"
	"sync"
	"weak"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/contentcoding"
	"github.com/charsniff/charsniff/internal/mimesniff"
	"github.com/charsniff/charsniff/internal/mimetype"
)

// Transport is an [http.RoundTripper] that hands out HTML responses
// decoded to UTF-8, for crawlers and scrapers whose parser expects UTF-8
// (golang.org/x/net/html, goquery, colly):
//
//	client := &http.Client{Transport: &charsniff.Transport{}}
//
// A response is HTML when its Content-Type essence is text/html or
// application/xhtml+xml, or when it has no Content-Type and its first
// 1445 bytes sniff as HTML by the MIME Sniffing Standard's rules for a
// resource of unknown type (as browsers do; the command tells text from
// binary data by the same rules). Every other response, and the responses to
// HEAD requests and with status 204 or 304, pass through untouched.
//
// An HTML response comes back with its body, a [*Body], decoded to UTF-8
// by [decode.NewReader] with the response's Content-Type header and URL
// host as hints (as [NewResponseReader] gives them), then Options. Its
// Content-Type becomes the essence with "; charset=utf-8", and its
// Content-Length header is removed (ContentLength -1). A compressed body
// (gzip, x-gzip, deflate, br, zstd, stacked, when the caller set
// Accept-Encoding itself) is decompressed first, within MaxDecodedSize and
// MaxRatio, and its Content-Encoding header removed (Uncompressed true).
//
// The body streams: RoundTrip reads the first bytes of it for the
// sniffing (1024 by default, more with late <meta> options), and memory
// stays bounded however long the body. Closing the body closes the
// original once. The sniffing result is the body's [Body.Result]:
// [ResponseResult] gets it from the response, also when a wrapper has
// replaced resp.Body (as an http.Client with a Timeout does). The
// response also carries the decision its first bytes gave in a
// Charsniff-Encoding header ([ResultHeader]), for crawlers that see only
// headers, such as colly.
//
// The body is UTF-8 already: a second conversion on top (colly's
// DetectCharset or Request.ResponseCharacterEncoding, x/net's
// charset.NewReader with the original header) would decode it again into
// mojibake. The Content-Type's "charset=utf-8" tells such code there is
// nothing to do.
//
// RoundTrip returns an error, naming the URL and the step, for a content
// coding not known ([ErrUnsupportedCoding]) or corrupt at its start, and
// for bad Options; it then closes the body. Corrupt at its start means
// that the coding fails before its first decompressed byte (a bad header,
// bad first blocks, a body cut short before them), the same for every
// coding: RoundTrip decodes that far before it looks at the response.
// Damage further on (a corrupt block, a bad checksum, a body cut short,
// [ErrBodyTooLarge]) comes from the body's Read, after the bytes before
// it, naming the URL and the coding. Raw deflate has no checksum:
// damage in it may decode to other bytes without an error.
//
// Ask for more codings than net/http does with AcceptEncoding.
//
// The zero value is ready to use. A Transport must not be changed while
// in use; it is safe for concurrent use if Base is.
type Transport struct {
	// Base is the RoundTripper that makes the requests; nil means
	// http.DefaultTransport.
	Base http.RoundTripper

	// Options are given to decode.NewReader for each HTML response, after
	// the response's Content-Type and URL host, with which they merge
	// (decode.WithSniff): a ContentType or TLD among them wins over the
	// response's.
	Options []decode.Option

	// MaxDecodedSize caps a decompressed body: 0 means
	// DefaultMaxDecodedSize, a negative value no cap.
	MaxDecodedSize int64
	// MaxRatio bounds a compressed body's expansion: after n compressed
	// bytes, at most 1 MiB + MaxRatio*n decompressed bytes. 0 means
	// DefaultMaxRatio, a negative value no bound.
	MaxRatio int64

	// AcceptEncoding, if not empty, is sent as the Accept-Encoding header
	// of a request that has none (and no Range header, and is not HEAD),
	// such as "gzip, br, zstd" to save bandwidth beyond the gzip net/http
	// asks for. The Transport then undoes the codings of every response
	// to such a request, HTML or not, as net/http does for its own gzip
	// (Content-Encoding and Content-Length removed, Uncompressed true).
	AcceptEncoding string
}

// base returns the RoundTripper t sends requests with.
func (t *Transport) base() http.RoundTripper {
	if t.Base == nil {
		return http.DefaultTransport
	}
	return t.Base
}

// CloseIdleConnections closes the idle connections of Base, if it has a
// CloseIdleConnections method (as *http.Transport has), so that
// http.Client.CloseIdleConnections reaches them.
func (t *Transport) CloseIdleConnections() {
	type closeIdler interface{ CloseIdleConnections() }
	if c, ok := t.base().(closeIdler); ok {
		c.CloseIdleConnections()
	}
}

// RoundTrip sends req with Base and decodes an HTML response's body to
// UTF-8, as [Transport] says.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	asked := false
	if t.AcceptEncoding != "" && req.Header.Get("Accept-Encoding") == "" &&
		req.Header.Get("Range") == "" && req.Method != http.MethodHead {
		// A RoundTripper must not change the caller's request.
		req = req.Clone(req.Context())
		req.Header.Set("Accept-Encoding", t.AcceptEncoding)
		asked = true
	}
	resp, err := t.base().RoundTrip(req)
	if err != nil || resp == nil {
		return resp, err
	}
	if resp.Request == nil {
		resp.Request = req
	}
	if req.Method == http.MethodHead || resp.StatusCode == http.StatusNoContent ||
		resp.StatusCode == http.StatusNotModified || resp.Body == nil || resp.Body == http.NoBody {
		return resp, nil
	}
	contentType := resp.Header.Get("Content-Type")
	mime, ok := mimetype.Extract(contentType) // the one parse of it
	html := ok && mime.IsHTML()
	bodyType := mime // the header's MIME type, else the body's as sniffed
	if !html && contentType != "" && !asked {
		return resp, nil
	}
	limits := contentcoding.Limits{MaxSize: t.MaxDecodedSize, MaxRatio: t.MaxRatio}
	if err := uncompress(resp, limits); err != nil {
		resp.Body.Close()
		return nil, err
	}
	if !html && contentType != "" {
		return resp, nil // decompressed only, as asked
	}
	src := io.Reader(resp.Body)
	if contentType == "" {
		// No Content-Type: sniff the (decompressed) body as a browser does.
		b := bufio.NewReaderSize(resp.Body, mimesniff.HeaderLen)
		head, _ := b.Peek(mimesniff.HeaderLen)
		src = b
		bodyType, _ = mimetype.Extract(mimesniff.Sniff(head))
		html = bodyType.IsHTML()
		if !html {
			resp.Body = &readCloser{b, resp.Body}
			return resp, nil
		}
	}
	r, err := decode.NewReader(src, responseOptions(resp, mimeType(contentType, mime), t.Options)...)
	if err != nil {
		resp.Body.Close()
		return nil, responseError(resp, err)
	}
	body := &Body{r: r, c: resp.Body}
	resp.Body = body
	register(resp, body)
	resp.Header.Set("Content-Type", bodyType.Essence()+"; charset=utf-8")
	resp.Header.Set(ResultHeader, formatResult(r.Result()))
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	return resp, nil
}

// readCloser reads from r and closes c.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (r *readCloser) Close() error { return r.c.Close() }

// Body is the body of an HTML response that [Transport] decoded: its Read
// returns UTF-8, as a [decode.Reader] does.
type Body struct {
	r    *decode.Reader
	c    io.Closer // the body as received (decompressed)
	once sync.Once
	err  error
}

// Read reads UTF-8 text.
func (b *Body) Read(p []byte) (int, error) { return b.r.Read(p) }

// WriteTo writes the rest of the UTF-8 text to w.
func (b *Body) WriteTo(w io.Writer) (int64, error) { return b.r.WriteTo(w) }

// Close closes the response's body, once; later calls return the first
// call's error.
func (b *Body) Close() error {
	b.once.Do(func() { b.err = b.c.Close() })
	return b.err
}

// Result returns the encoding the body is decoded in, how confident and
// why, as [decode.Reader.Result]: final once the decoder has decided
// (at the latest at the end of the body).
func (b *Body) Result() decode.Result { return b.r.Result() }

// Decoder returns the reader that decodes the body, for its other
// methods ([decode.Reader.ChangeEncoding], say). Reading from it
// reads the body.
func (b *Body) Decoder() *decode.Reader { return b.r }

// ResultHeader is the response header in which [Transport] records the
// decision that the first bytes of an HTML body gave, as the encoding's
// lower-case name, its confidence and the step that chose it:
//
//	Charsniff-Encoding: shift_jis; confidence=tentative; source=prescan
//
// A tentative answer may still change while the body is read (a late
// <meta>); [ResponseResult] gives the final one.
const ResultHeader = "Charsniff-Encoding"

// formatResult returns r as the value of a ResultHeader.
func formatResult(r decode.Result) string {
	return r.LowerName() + "; confidence=" + r.Confidence.String() + "; source=" + r.Source.String()
}

// bodies maps each response that a Transport decoded to its Body, so that
// ResponseResult finds the Body when a wrapper has replaced resp.Body. Its
// keys are weak: an entry holds neither response nor Body past the
// response's life, and a cleanup deletes it when the response is
// collected.
var bodies sync.Map // weak.Pointer[http.Response] → *Body

// register records that resp's body is b.
func register(resp *http.Response, b *Body) {
	key := weak.Make(resp)
	bodies.Store(key, b)
	runtime.AddCleanup(resp, func(key weak.Pointer[http.Response]) { bodies.Delete(key) }, key)
}

// ResponseResult returns the sniffing result of a response that
// [Transport] decoded, and false if it decoded none (the response is not
// HTML, or came from another RoundTripper). It finds the [*Body] also
// behind wrappers that replace resp.Body in the same *http.Response, as an
// http.Client with a Timeout does. The result is final once the body is
// read.
func ResponseResult(resp *http.Response) (decode.Result, bool) {
	if resp == nil {
		return decode.Result{}, false
	}
	b, ok := resp.Body.(*Body)
	if !ok {
		v, found := bodies.Load(weak.Make(resp))
		if !found {
			return decode.Result{}, false
		}
		b = v.(*Body)
	}
	return b.Result(), true
}
