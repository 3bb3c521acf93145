package charsniff

import (
	"bytes"
	"io"
	"strconv"

	"golang.org/x/text/encoding"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/decode/codec"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// htmlEncoding is the encoding Lookup hands out: the WHATWG-exact codec
// encoding, whose encoder writes runes the encoding cannot represent as
// HTML numeric character references ("&#19990;"), as x/net's does.
type htmlEncoding struct{ encoding.Encoding }

// NewEncoder returns an encoder that replaces unsupported runes with HTML
// numeric character references.
func (h *htmlEncoding) NewEncoder() *encoding.Encoder {
	return encoding.HTMLEscapeUnsupported(h.Encoding.NewEncoder())
}

// encodings holds, for each encoding, the encoding Lookup returns.
var encodings [override.NumEncodings + 1]htmlEncoding

func init() {
	for _, e := range override.All() {
		encodings[e] = htmlEncoding{codec.Encoding(e)}
	}
}

// lookup returns what Lookup returns for e, or nil and "".
func lookup(e override.Encoding) (encoding.Encoding, string) {
	if !e.Valid() {
		return nil, ""
	}
	return &encodings[e], e.LowerName()
}

// Lookup returns the encoding with the given label, and its canonical name
// in lower case ("utf-8", "windows-1252", "shift_jis", "utf-16le"), or nil
// and "" if label is not one of the Encoding Standard's labels. It
// implements the standard's get an encoding
// (https://encoding.spec.whatwg.org/#concept-encoding-get): leading and
// trailing ASCII whitespace is ignored and ASCII letters match in either
// case, nothing else. So "latin1" and "ascii" give windows-1252, "sjis"
// gives shift_jis, and "utf-16" gives utf-16le.
//
// The encoding's decoder is the standard's, byte for byte, with no byte
// order mark handling. Its encoder writes runes that the encoding cannot
// represent as HTML numeric character references. The values returned are
// shared; Lookup does not allocate.
func Lookup(label string) (e encoding.Encoding, name string) {
	enc, _ := override.Lookup(label)
	return lookup(enc)
}

// DetermineEncoding determines the encoding of an HTML document as a
// browser ends up with it, from content and the Content-Type header value
// contentType (which may be ""): a byte order mark, then the header's
// charset, then a <meta> or XML declaration in the first 1024 bytes, then
// a guess from the bytes, then windows-1252 — and then, while that is
// tentative, what a browser's parser meets further on: a <meta> past the
// first 1024 bytes, or the first non-ASCII text when the start was ASCII
// (within 64 KiB of it), as [NewReader] does.
// certain reports the final confidence: true for a byte order mark, the
// header and a <meta> past the first 1024 bytes (acted on as the
// standard's change of the encoding); false for a <meta> within them (the
// sniffing algorithm's tentative answer, as x/net reports it), a guess or
// the default. name is as Lookup returns it. It always returns an
// encoding.
func DetermineEncoding(content []byte, contentType string) (e encoding.Encoding, name string, certain bool) {
	var r decode.Reader
	r.Reset(bytes.NewReader(content), decode.WithSniff(sniff.Options{ContentType: contentType}))
	r.Settle(nil, -1) // content is in memory: no read error
	res := r.Result()
	e, name = lookup(res.Encoding)
	return e, name, res.Confidence == sniff.Certain
}

// NewReader returns a reader of the UTF-8 text of the HTML document r,
// whose Content-Type header value is contentType (or ""). It reads the
// first 1024 bytes of r and determines the encoding from them, then
// streams the whole input decoded, with a byte order mark removed, CR LF
// and lone CR turned into LF, and U+0000 turned into U+FFFD, as an HTML
// parser sees it. While the encoding is tentative it looks further, as a
// browser does and as [DetermineEncoding] says: it never hands out text a
// later <meta> or guess would contradict, holding at most 64 KiB to
// decide.
//
// The error is always nil; an error from r is returned by the reader's Read
// after the text decoded before it. The reader is a [*decode.Reader]: use
// [decode.NewReader] for options, or [NewResponseReader].
func NewReader(r io.Reader, contentType string) (io.Reader, error) {
	return decode.NewReader(r, decode.WithSniff(sniff.Options{ContentType: contentType}))
}

// LabelError reports a label that names no encoding of the Encoding
// Standard.
type LabelError struct {
	Label string // the label as given
}

// Error returns a message such as `charsniff: unknown encoding label "foo"`.
func (e *LabelError) Error() string {
	return "charsniff: unknown encoding label " + strconv.Quote(e.Label)
}

// NewReaderLabel returns a reader that decodes input from the encoding with
// the given label (as [Lookup] resolves it) to UTF-8. It suits
// encoding/xml.Decoder's CharsetReader. As the Encoding Standard's decode
// does, a byte order mark at the start chooses the encoding instead of the
// label, and is removed; nothing else is changed (no newline or NUL
// preprocessing). An unknown label gives a [*LabelError].
func NewReaderLabel(label string, input io.Reader) (io.Reader, error) {
	e, ok := override.Lookup(label)
	if !ok {
		return nil, &LabelError{Label: label}
	}
	return decode.NewReader(input, decode.WithSniff(sniff.Options{Override: e}), decode.WithoutPreprocessing())
}
