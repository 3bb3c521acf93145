package archive

import (
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/sniff"
)

// Result is the outcome for one document: a WARC record, a stretch of
// damaged input in a WARC file, or a plain file. Its JSON form is the
// charsniff command's output line: the four keys file, encoding,
// confidence and source in that order, then optional fields. Encoding names
// are the Encoding Standard's names in lower case ("shift_jis"), as the
// command prints them.
//
// An error result has file and error only, and for a WARC record its
// record fields; a record found damaged after it was sniffed keeps its
// encoding fields and gets an error too.
type Result struct {
	File       string `json:"file"`
	Encoding   string `json:"encoding,omitempty"`   // the Encoding Standard's name, lower case
	Confidence string `json:"confidence,omitempty"` // "certain" or "tentative"
	Source     string `json:"source,omitempty"`     // the sniffing step that decided
	BOM        int    `json:"bom,omitempty"`        // length of the byte order mark, if any
	Late       *Late  `json:"late,omitempty"`       // a change of encoding while parsing
	*Where            // the place in a WARC file; nil for a plain file
	Bytes      *int64 `json:"bytes,omitempty"` // size of a plain file, when known
	Error      string `json:"error,omitempty"` // the problem, for a failed document
}

// Where locates a result in a WARC file: a record, or a stretch of damaged
// input.
type Where struct {
	RecordID    string `json:"record_id,omitempty"`    // WARC-Record-ID, angle brackets included
	URI         string `json:"uri,omitempty"`          // WARC-Target-URI, without angle brackets
	Offset      int64  `json:"offset"`                 // where the record starts in the file (its gzip member's offset in a .warc.gz)
	Status      int    `json:"status,omitempty"`       // HTTP status of a response record
	HTTPCharset string `json:"http_charset,omitempty"` // the charset parameter of the stored HTTP Content-Type
}

// Late reports a change of encoding after the window (a late <meta>, late
// autodetection): how it was made (decode.ChangeKind's String: "switched"
// on the fly, "same" encoding, now certain, "restarted", where the bytes
// before a <meta> in the window read otherwise and the Reader decoded the
// input again from its start in the new encoding, as a browser's reload
// does, or "restart-needed", where text already handed out would read
// otherwise and the Reader went on in the encoding sniffing had chosen),
// that encoding, and the raw offset of the change (for "switched", from
// which the bytes are decoded in the new encoding).
type Late struct {
	Change string `json:"change"`
	From   string `json:"from"`
	Offset int64  `json:"offset"`
}

// NewResult returns the result of the document rd reads, named file: rd's
// decision so far (final once rd has decided, see decode.Result.Decided),
// with Late saying what changed after the window.
func NewResult(file string, rd *decode.Reader) Result {
	r := sniffResult(file, rd.Result().Result)
	r.setChange(rd)
	return r
}

// sniffResult fills a result from the sniffing decision.
func sniffResult(file string, s sniff.Result) Result {
	return Result{
		File:       file,
		Encoding:   s.Encoding.LowerName(),
		Confidence: s.Confidence.String(),
		Source:     s.Source.String(),
		BOM:        s.BOMLength,
	}
}

// setChange makes r report rd's decision so far, with the change of
// encoding rd made after the window, if any.
func (r *Result) setChange(rd *decode.Reader) {
	res := rd.Result()
	r.Encoding = res.Encoding.LowerName()
	r.Confidence = res.Confidence.String()
	r.Source = res.Source.String()
	if ch := res.Late; ch.Kind != decode.NoChange {
		r.Late = &Late{Change: ch.Kind.String(), From: ch.From.LowerName(), Offset: ch.Offset}
	}
}
