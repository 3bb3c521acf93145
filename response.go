package charsniff

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/contentcoding"
	"github.com/charsniff/charsniff/internal/mimetype"
	"github.com/charsniff/charsniff/sniff"
)

// errNilResponse is returned by NewResponseReader for a nil response.
var errNilResponse = errors.New("charsniff: nil *http.Response")

// Errors of a body's content coding, wrapped in the errors that
// [NewResponseReader], [Transport] and their readers return (test with
// errors.Is).
var (
	// ErrUnsupportedCoding means the Content-Encoding header names a
	// coding other than gzip, x-gzip, deflate, br, zstd and identity. The
	// body is not read: compressed bytes are never sniffed as text.
	ErrUnsupportedCoding = contentcoding.ErrUnsupported
	// ErrBodyTooLarge means the decompressed body passed a limit: by
	// default [DefaultMaxDecodedSize], or [DefaultMaxRatio] times the
	// compressed bytes read plus 1 MiB (see [Transport]).
	ErrBodyTooLarge = contentcoding.ErrTooLarge
)

// Default limits on a decompressed body, against decompression bombs.
const (
	// DefaultMaxDecodedSize is the default cap on a decompressed body,
	// 256 MiB.
	DefaultMaxDecodedSize = contentcoding.DefaultMaxSize
	// DefaultMaxRatio is the default bound on the expansion of a
	// compressed body: after n compressed bytes, at most 1 MiB + 100*n
	// decompressed bytes. Real HTML compresses 4 to 20 times.
	DefaultMaxRatio = contentcoding.DefaultMaxRatio
)

// NewResponseReader returns a [decode.Reader] over the body of resp, with
// the Content-Type header of resp as the transport layer's declaration and
// the host of resp.Request.URL as the top-level-domain hint (an IP address
// gives none). opts come after these and merge with them
// ([decode.WithSniff]): a non-empty ContentType or TLD among them wins.
// Like [decode.NewReader], it reads the first bytes of the body (1024 by
// default) before it returns, and it looks past them as a browser does
// ([decode.WithLookahead]); the caller still closes resp.Body.
//
// A body still compressed (a Content-Encoding header and
// resp.Uncompressed false, as when the caller set Accept-Encoding itself)
// is decompressed first, as net/http does for the gzip it asks for:
// resp.Body is replaced by the decompressed body (whose Close closes the
// original too), the Content-Encoding and Content-Length headers are
// removed, resp.ContentLength becomes -1 and resp.Uncompressed true. The
// codings gzip, x-gzip, deflate (zlib or raw), br and zstd are known, in
// any stack; the size is bounded by the defaults ([DefaultMaxDecodedSize],
// [DefaultMaxRatio]).
//
// The error is non-nil for a nil resp, a coding not known
// ([ErrUnsupportedCoding]) or corrupt at its start (failing before its
// first decompressed byte, whatever the coding), and bad options; errors
// name the response's URL and the step, as in
// `charsniff: https://example.com/: content-encoding "foo": unsupported`.
// Errors of the decompression further on (damage past the first bytes,
// [ErrBodyTooLarge]) come from Read and name them too, as [Transport]
// says. A nil resp.Body reads as empty.
func NewResponseReader(resp *http.Response, opts ...decode.Option) (*decode.Reader, error) {
	if resp == nil {
		return nil, errNilResponse
	}
	if err := uncompress(resp, contentcoding.Limits{}); err != nil {
		return nil, err
	}
	body := resp.Body
	if body == nil {
		body = http.NoBody
	}
	contentType := resp.Header.Get("Content-Type")
	mime, _ := mimetype.Extract(contentType)
	r, err := decode.NewReader(body, responseOptions(resp, mimeType(contentType, mime), opts)...)
	if err != nil {
		return nil, responseError(resp, err)
	}
	return r, nil
}

// responseOptions returns the decode options for resp: its Content-Type
// header, parsed already as mime, and its URL's host, then opts, which thus
// win.
func responseOptions(resp *http.Response, mime sniff.MIMEType, opts []decode.Option) []decode.Option {
	all := make([]decode.Option, 0, 1+len(opts))
	all = append(all, decode.WithSniff(sniff.Options{
		MIMEType: mime,
		TLD:      responseHost(resp),
	}))
	return append(all, opts...)
}

// mimeType is the Content-Type header value contentType, parsed as m, as
// sniff takes it.
func mimeType(contentType string, m mimetype.Type) sniff.MIMEType {
	charset, _ := m.Charset()
	return sniff.MIMEType{Charset: charset, Given: contentType != ""}
}

// responseHost returns the host name of resp's URL, or "" for none or an
// IP address (which says nothing of a region).
func responseHost(resp *http.Response) string {
	if resp.Request == nil || resp.Request.URL == nil {
		return ""
	}
	host := resp.Request.URL.Hostname()
	if net.ParseIP(host) != nil {
		return ""
	}
	return host
}

// uncompress replaces a compressed resp.Body by its decompressed bytes,
// within limits, and removes the headers that described the compressed
// body. It does nothing if resp.Uncompressed or there is no coding but
// identity. It closes nothing on an error.
func uncompress(resp *http.Response, limits contentcoding.Limits) error {
	if resp.Uncompressed || resp.Body == nil {
		return nil
	}
	codings := contentcoding.Parse(resp.Header.Values("Content-Encoding"))
	if len(codings) == 0 {
		return nil
	}
	r, err := contentcoding.NewReader(resp.Body, codings, limits)
	if err != nil {
		return responseError(resp, err)
	}
	resp.Body = &namedBody{r, responseURL(resp)}
	resp.Header.Del("Content-Encoding")
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	resp.Uncompressed = true
	return nil
}

// namedBody names the URL in the errors of a decompressed body.
type namedBody struct {
	io.ReadCloser
	url string
}

func (b *namedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("charsniff: %s: %w", b.url, err)
	}
	return n, err
}

// responseURL names resp in errors: its request's URL, without a password.
func responseURL(resp *http.Response) string {
	if resp.Request == nil || resp.Request.URL == nil {
		return "response"
	}
	return resp.Request.URL.Redacted()
}

// responseError names resp in err.
func responseError(resp *http.Response, err error) error {
	return fmt.Errorf("charsniff: %s: %w", responseURL(resp), err)
}
