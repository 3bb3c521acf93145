package charsniff

import (
	"errors"
	"net/http"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/sniff"
)

// errNilResponse is returned by NewResponseReader for a nil response.
var errNilResponse = errors.New("charsniff: nil *http.Response")

// NewResponseReader returns a [decode.Reader] over the body of resp, with
// the Content-Type header of resp as the transport layer's declaration.
// opts come after that and merge with it ([decode.WithSniff]): a non-empty
// ContentType among them replaces the header. Like [decode.NewReader], it
// reads the first bytes of the body (1024 by default) before it returns,
// and it looks past them as a browser does ([decode.WithLookahead]); the
// caller still closes resp.Body.
//
// The error is non-nil for a nil resp and for bad options. A nil resp.Body
// reads as empty.
func NewResponseReader(resp *http.Response, opts ...decode.Option) (*decode.Reader, error) {
	if resp == nil {
		return nil, errNilResponse
	}
	body := resp.Body
	if body == nil {
		body = http.NoBody
	}
	all := make([]decode.Option, 0, 1+len(opts))
	all = append(all, decode.WithSniff(sniff.Options{ContentType: resp.Header.Get("Content-Type")}))
	all = append(all, opts...)
	return decode.NewReader(body, all...)
}
