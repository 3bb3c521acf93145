package main

import (
	"strings"
	"sync"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// result is the outcome for one document: one output line. Its JSON form is
// the CLI's contract: the four keys file, encoding, confidence and source in
// that order, then optional fields. An error result has file and error only,
// and for a WARC record its record fields; a WARC record found damaged after
// it was sniffed keeps its encoding fields and gets an error too.
type result struct {
	File       string `json:"file"`
	Encoding   string `json:"encoding,omitempty"`   // canonical WHATWG name, lower case
	Confidence string `json:"confidence,omitempty"` // "certain" or "tentative"
	Source     string `json:"source,omitempty"`     // the sniffing step that decided
	BOM        int    `json:"bom,omitempty"`        // length of the byte order mark, if any
	Late       *late  `json:"late,omitempty"`       // a change of encoding after the window (--lookahead)
	*warcFields
	Bytes *int64 `json:"bytes,omitempty"` // size of the input, when known
	Error string `json:"error,omitempty"` // the problem, for a failed input

	fatal bool // Error is a problem with the --files-from list
}

// warcFields locate a document in a WARC file: the result of a WARC record,
// or of a stretch of damaged input there.
type warcFields struct {
	RecordID    string `json:"record_id,omitempty"`    // WARC-Record-ID, angle brackets included
	URI         string `json:"uri,omitempty"`          // WARC-Target-URI, without angle brackets
	Offset      int64  `json:"offset"`                 // where the record starts (its gzip member's offset in a .warc.gz)
	Status      int    `json:"status,omitempty"`       // HTTP status of a response record
	HTTPCharset string `json:"http_charset,omitempty"` // the charset parameter of the stored HTTP Content-Type
}

// newResult fills a result from the sniffing decision.
func newResult(path string, r sniff.Result) result {
	return result{
		File:       path,
		Encoding:   lowerName(r.Encoding),
		Confidence: r.Confidence.String(),
		Source:     r.Source.String(),
		BOM:        r.BOMLength,
	}
}

// late reports a change of encoding after the window (--lookahead): how it
// was made ("switched" on the fly, "same", "restart-needed"), the encoding
// sniffing had chosen, and the raw offset from which the new one applies.
type late struct {
	Change string `json:"change"`
	From   string `json:"from"`
	Offset int64  `json:"offset"`
}

// withChange makes r report rd's decision so far: encoding, confidence
// and source become the final ones, and late says what changed after the
// window, if anything did.
func (r *result) withChange(rd *decode.Reader) {
	res := rd.Result()
	r.Encoding = lowerName(res.Encoding)
	r.Confidence = res.Confidence.String()
	r.Source = res.Source.String()
	if ch := res.Late; ch.Kind != decode.NoChange {
		r.Late = &late{Change: ch.Kind.String(), From: lowerName(ch.From), Offset: ch.Offset}
	}
}

// errorResult is the result of an input that failed.
func errorResult(path string, err error) result {
	return result{File: path, Error: describe(err)}
}

var (
	lowerOnce  sync.Once
	lowerNames [256]string
)

// lowerName returns e's canonical name in lower case ("shift_jis"), without
// allocating after the first call.
func lowerName(e override.Encoding) string {
	lowerOnce.Do(func() {
		for _, e := range override.All() {
			lowerNames[e] = strings.ToLower(e.Name())
		}
	})
	return lowerNames[e]
}
