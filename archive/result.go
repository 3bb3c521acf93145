package archive

import (
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// Result is the outcome for one document of a WARC file: a record, or a
// stretch of damaged input. Its fields are typed; its JSON form
// (MarshalJSON) is the charsniff command's output line.
//
// An error result has File, Err and its Where only; a record found damaged
// after it was sniffed keeps its encoding fields and has Err too.
type Result struct {
	File string // the name given as Options.File

	// Encoding is the encoding decided on, Unknown for a document that
	// could not be sniffed (then Confidence and Source mean nothing).
	Encoding   override.Encoding
	Confidence sniff.Confidence
	Source     sniff.Source // the sniffing step that decided
	BOM        int          // length of the byte order mark, if any

	// Late is a change of encoding after the window (a late <meta>, late
	// autodetection); its Kind is decode.NoChange when there was none.
	Late decode.Change

	*Where // the place in the WARC file; nil outside one

	// Provenance is what every step of the sniffing algorithm saw in the
	// window, whichever decided (sniff.Explain): the BOM, the transport
	// label, the prescan's <meta> or XML declaration and where it ends,
	// the detector's guess and its evidence. Mismatch says which of the
	// declarations name another encoding than the one decided, and what
	// decoding with them would give. Both are filled with
	// Options.Provenance, and zero without.
	Provenance sniff.Provenance
	Mismatch   Mismatch

	// Err is the problem, for a failed document or one damaged after it
	// was sniffed. Its message is the command's error text; errors.As
	// reaches the warc package's error (a *warc.RecordError) through it.
	Err error
}

// Where locates a result in a WARC file: a record, or a stretch of damaged
// input. Offset and Length are the coordinates an index (CDX, CDXJ, Common
// Crawl's columnar index) gives a record: the bytes [Offset, Offset+Length)
// of the file, read alone, are the record as stored, its gzip member(s) or
// zstd or LZ4 frame(s) in a compressed file.
type Where struct {
	RecordID    string    // WARC-Record-ID, angle brackets included
	URI         string    // WARC-Target-URI, without angle brackets
	Offset      int64     // where the record starts in the file
	Length      int64     // the record's length in the file as stored; 0 when unknown (damaged input)
	Status      int       // HTTP status of a response record
	HTTPCharset string    // the charset parameter of the stored HTTP Content-Type
	MIME        string    // the essence of the stored HTTP Content-Type ("text/html"), lower case
	Digest      string    // WARC-Payload-Digest, without a "sha1:" prefix (as CDX gives it)
	Date        time.Time // WARC-Date; zero if missing or malformed
}

// Mismatch says which declarations of a document name an encoding other
// than the one decided (Result.Encoding, after any late change), and, for
// each, how many U+FFFD decoding the whole payload with it would give:
// counted over the payload's bytes (a check of each byte or sequence, not
// a decode to text, for UTF-8 and the single-byte encodings), -1 when it
// could not be counted (a payload that broke). A count is 0 for a
// declaration that did not lose.
type Mismatch struct {
	Transport         bool  // the transport's charset (the stored HTTP Content-Type) lost
	Prescan           bool  // the prescan's <meta> or XML declaration lost
	TransportReplaced int64 // U+FFFD decoding with the transport's encoding gives
	PrescanReplaced   int64 // U+FFFD decoding with the prescan's encoding gives
}

// MarshalJSON writes r as the charsniff command's JSON line (without its
// newline): the keys file, encoding, confidence and source in that order,
// then bom, late, the record's place (record_id, uri, offset, length,
// status, http_charset, mime, digest, date), provenance and error, each
// only when set. provenance is an object of what the steps saw (bom,
// transport_label, transport, prescan, prescan_rule, prescan_offset,
// detected, strength) and the mismatches (transport_mismatch,
// transport_replacements, prescan_mismatch, prescan_replacements), each
// key only when set; it is left out when no step found anything. Encoding names are the Encoding Standard's in lower case
// ("shift_jis"), the confidence "certain" or "tentative", the source the
// step's name (sniff.Source's String), the date RFC 3339 in UTC and the
// error its message. Characters <, > and & are not escaped here: a
// json.Encoder escapes them unless SetEscapeHTML(false) is set, as the
// command sets it.
func (r *Result) MarshalJSON() ([]byte, error) {
	return r.appendJSON(make([]byte, 0, 256)), nil
}

// appendJSON appends r's JSON line to b.
func (r *Result) appendJSON(b []byte) []byte {
	b = append(b, `{"file":`...)
	b = appendString(b, r.File)
	if r.Encoding != override.Unknown {
		b = append(b, `,"encoding":`...)
		b = appendString(b, r.Encoding.LowerName())
		b = append(b, `,"confidence":`...)
		b = appendString(b, r.Confidence.String())
		b = append(b, `,"source":`...)
		b = appendString(b, r.Source.String())
	}
	if r.BOM != 0 {
		b = append(b, `,"bom":`...)
		b = strconv.AppendInt(b, int64(r.BOM), 10)
	}
	if l := r.Late; l.Kind != decode.NoChange {
		b = append(b, `,"late":{"change":`...)
		b = appendString(b, l.Kind.String())
		b = append(b, `,"from":`...)
		b = appendString(b, l.From.LowerName())
		b = append(b, `,"offset":`...)
		b = strconv.AppendInt(b, l.Offset, 10)
		b = append(b, '}')
	}
	if w := r.Where; w != nil {
		b = w.appendJSON(b)
	}
	b = r.appendProvenance(b)
	return r.appendError(b)
}

// appendProvenance appends r's provenance key, if any step found
// something, to b after a comma. It depends on Provenance and Mismatch
// only.
func (r *Result) appendProvenance(b []byte) []byte {
	p, m := &r.Provenance, &r.Mismatch
	if *p == (sniff.Provenance{}) && *m == (Mismatch{}) {
		return b
	}
	b = append(b, `,"provenance":{`...)
	n := len(b)
	key := func(k string) {
		if len(b) > n {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, `":`...)
	}
	if p.BOM.Valid() {
		key("bom")
		b = appendString(b, p.BOM.LowerName())
	}
	if p.TransportLabel != "" {
		key("transport_label")
		b = appendString(b, p.TransportLabel)
	}
	if p.Transport.Valid() {
		key("transport")
		b = appendString(b, p.Transport.LowerName())
	}
	if p.Prescan.Found() {
		if p.Prescan.Encoding.Valid() {
			key("prescan")
			b = appendString(b, p.Prescan.Encoding.LowerName())
		}
		key("prescan_rule")
		b = appendString(b, p.Prescan.Rule.String())
		key("prescan_offset")
		b = strconv.AppendInt(b, int64(p.Prescan.Offset), 10)
	}
	if p.Detected.Valid() {
		key("detected")
		b = appendString(b, p.Detected.LowerName())
		key("strength")
		b = appendString(b, p.Strength.String())
	}
	if m.Transport {
		key("transport_mismatch")
		b = append(b, "true"...)
		key("transport_replacements")
		b = strconv.AppendInt(b, m.TransportReplaced, 10)
	}
	if m.Prescan {
		key("prescan_mismatch")
		b = append(b, "true"...)
		key("prescan_replacements")
		b = strconv.AppendInt(b, m.PrescanReplaced, 10)
	}
	return append(b, '}')
}

// appendJSON appends the keys of w to b, each after a comma.
func (w *Where) appendJSON(b []byte) []byte {
	if w.RecordID != "" {
		b = append(b, `,"record_id":`...)
		b = appendString(b, w.RecordID)
	}
	if w.URI != "" {
		b = append(b, `,"uri":`...)
		b = appendString(b, w.URI)
	}
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, w.Offset, 10)
	if w.Length != 0 {
		b = append(b, `,"length":`...)
		b = strconv.AppendInt(b, w.Length, 10)
	}
	if w.Status != 0 {
		b = append(b, `,"status":`...)
		b = strconv.AppendInt(b, int64(w.Status), 10)
	}
	if w.HTTPCharset != "" {
		b = append(b, `,"http_charset":`...)
		b = appendString(b, w.HTTPCharset)
	}
	if w.MIME != "" {
		b = append(b, `,"mime":`...)
		b = appendString(b, w.MIME)
	}
	if w.Digest != "" {
		b = append(b, `,"digest":`...)
		b = appendString(b, w.Digest)
	}
	if !w.Date.IsZero() {
		b = append(b, `,"date":"`...)
		b = w.Date.UTC().AppendFormat(b, time.RFC3339Nano)
		b = append(b, '"')
	}
	return b
}

// appendError appends r's error key, if any, and the closing brace of its
// line to b.
func (r *Result) appendError(b []byte) []byte {
	if r.Err != nil {
		b = append(b, `,"error":`...)
		b = appendString(b, r.Err.Error())
	}
	return append(b, '}')
}

const hex = "0123456789abcdef"

// appendString appends s to b as a JSON string, as encoding/json writes it
// with SetEscapeHTML(false): invalid UTF-8 becomes \ufffd, and U+2028 and
// U+2029 are escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// fromDecode sets r's encoding fields to rd's decision so far, with Late
// saying what changed after the window.
func (r *Result) fromDecode(rd *decode.Reader) {
	res := rd.Result()
	r.fromSniff(res.Result)
	r.Late = res.Late
}

// fromSniff sets r's encoding fields to the sniffing decision s.
func (r *Result) fromSniff(s sniff.Result) {
	r.Encoding, r.Confidence, r.Source, r.BOM = s.Encoding, s.Confidence, s.Source, s.BOMLength
}
