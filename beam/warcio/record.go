package warcio

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
	"github.com/charsniff/charsniff/sniff"
)

// A Record is one output of Read: a record of a WARC file, a damaged
// record, a stretch of damaged input, or a span that is not in its file.
// It is archive.Result as a Beam row: every field typed and exported, so
// that Beam infers its schema (and downstream transforms, Beam SQL or a
// BigQuery or Parquet sink select its columns by name), with an error as
// its message, since a row cannot hold an error value.
//
// The beam tags are the column names of the schema: Common Crawl's
// columnar-index names for what that index has (warc_filename,
// warc_record_offset, warc_record_length, url, fetch_time, ...), and
// charsniff's for the rest, as in the Parquet index of package
// archive/index, so that the rows join Common Crawl's index on
// (warc_filename, warc_record_offset, warc_record_length).
type Record struct {
	// File is the path of the file read: the Span's Path.
	File string `beam:"warc_filename"`
	// Offset is where the record starts in the file (its gzip member, its
	// zstd or LZ4 frame in a compressed file), and Length its length in the
	// file as stored, so that the bytes [Offset, Offset+Length) read alone
	// are the record; Length is 0 when unknown (damaged input). For a span
	// that is not in its file (InFile false) they are the span's.
	Offset int64 `beam:"warc_record_offset"`
	Length int64 `beam:"warc_record_length"`
	// InFile is false only for a Span that is not in its file (a range
	// past its end, a negative offset or length): then Error says so, and
	// the record's fields below are empty.
	InFile bool `beam:"in_file"`

	RecordID string    `beam:"warc_record_id"`    // WARC-Record-ID, angle brackets included
	URI      string    `beam:"url"`               // WARC-Target-URI, without angle brackets
	Date     time.Time `beam:"fetch_time"`        // WARC-Date, UTC; zero if missing or malformed
	Status   int64     `beam:"fetch_status"`      // HTTP status of a response record; 0 if none
	MIME     string    `beam:"content_mime_type"` // the essence of the stored HTTP Content-Type, lower case
	Digest   string    `beam:"content_digest"`    // WARC-Payload-Digest, without its "sha1:" prefix
	// HTTPCharset is the charset parameter of the stored HTTP Content-Type.
	HTTPCharset string `beam:"http_charset"`

	// Encoding is the encoding decided on, by the Encoding Standard's name
	// in lower case ("shift_jis"); "" for a document that could not be
	// sniffed (then Confidence and Source are "" too).
	Encoding   string `beam:"encoding"`
	Confidence string `beam:"confidence"` // "certain" or "tentative"
	Source     string `beam:"source"`     // the sniffing step that decided: "transport", "prescan", ... (sniff.Source's String)
	BOM        int64  `beam:"bom"`        // the length of the byte order mark, if any

	// LateChange is a change of encoding after the window (decode.Change):
	// its kind ("switched", "restart-needed", "same", "restarted"), or ""
	// when there was none; LateFrom and LateTo are the encodings before
	// and asked for, LateOffset where in the payload it was made.
	LateChange string `beam:"late_change"`
	LateFrom   string `beam:"late_from"`
	LateTo     string `beam:"late_to"`
	LateOffset int64  `beam:"late_offset"`

	// The provenance columns, as archive/index's Parquet file has them
	// (archive.Result.Provenance, taken unless Options.Text is set, as the
	// command's --json lines carry it and its --decode lines do not): what
	// each step of the sniffing algorithm saw in the window, whichever
	// decided, encodings by their lower-case names and "" where the step
	// found nothing. BOMEncoding is the byte order mark's encoding;
	// TransportLabel the charset label of the Content-Type the sniffing
	// was given (the record's stored one, http_charset, or
	// Options.ContentType, which wins over it), which the Parquet file
	// leaves out, and TransportEncoding the encoding it names; the
	// prescan's <meta> or XML declaration: PrescanEncoding, PrescanRule
	// ("meta", "xml" or "utf-16 xml"; "" when it found none) and
	// PrescanOffset, the offset just past what it read (0 when it found
	// none, where the Parquet file has a null); the detector's guess,
	// DetectedEncoding, and DetectedStrength, the evidence it rests on
	// ("statistical", "structural", or "none" for a caller's detector).
	BOMEncoding       string `beam:"bom_encoding"`
	TransportLabel    string `beam:"transport_label"`
	TransportEncoding string `beam:"transport_encoding"`
	PrescanEncoding   string `beam:"prescan_encoding"`
	PrescanRule       string `beam:"prescan_rule"`
	PrescanOffset     int64  `beam:"prescan_offset"`
	DetectedEncoding  string `beam:"detected_encoding"`
	DetectedStrength  string `beam:"detected_strength"`

	// The mismatch columns (archive.Result.Mismatch): TransportMismatch
	// and PrescanMismatch say that the transport's or the prescan's
	// encoding is not the one decided; for a mismatch,
	// TransportReplacements and PrescanReplacements are the U+FFFD that
	// decoding the payload with the declared encoding gives, -1 when they
	// could not be counted (where the Parquet file has a null; a schema
	// row has no null int64), and 0 without a mismatch.
	TransportMismatch     bool  `beam:"transport_mismatch"`
	PrescanMismatch       bool  `beam:"prescan_mismatch"`
	TransportReplacements int64 `beam:"transport_replacements"`
	PrescanReplacements   int64 `beam:"prescan_replacements"`

	// Error is the problem of a failed document, or of one damaged after
	// it was sniffed (then the encoding fields are set too): the message
	// of archive.Result.Err, the command's error text; "" for none.
	Error string `beam:"error"`

	// Text is the record's decoded text (normalized UTF-8), with
	// Options.Text; empty otherwise, and for a record that has none.
	Text    string `beam:"text"`
	HasText bool   `beam:"has_text"` // the record has text (Text is set, with Options.Text)
}

// FromResult returns the Record of res, without text.
func FromResult(res *archive.Result) Record {
	r := Record{File: res.File}
	if res.Encoding.Valid() {
		r.Encoding, r.Confidence, r.Source = res.Encoding.LowerName(), res.Confidence.String(), res.Source.String()
	}
	r.BOM = int64(res.BOM)
	if l := res.Late; l.Kind != decode.NoChange {
		r.LateChange, r.LateFrom, r.LateTo, r.LateOffset = l.Kind.String(), l.From.LowerName(), l.To.LowerName(), l.Offset
	}
	p, m := &res.Provenance, &res.Mismatch
	r.BOMEncoding, r.TransportLabel, r.TransportEncoding = name(p.BOM), p.TransportLabel, name(p.Transport)
	if p.Prescan.Found() {
		r.PrescanEncoding, r.PrescanRule, r.PrescanOffset = name(p.Prescan.Encoding), p.Prescan.Rule.String(), int64(p.Prescan.Offset)
	}
	if p.Detected.Valid() {
		r.DetectedEncoding, r.DetectedStrength = p.Detected.LowerName(), p.Strength.String()
	}
	r.TransportMismatch, r.PrescanMismatch = m.Transport, m.Prescan
	r.TransportReplacements, r.PrescanReplacements = m.TransportReplaced, m.PrescanReplaced
	if res.Err != nil {
		r.Error = res.Err.Error()
	}
	if w := res.Where; w != nil {
		r.InFile = true
		r.Offset, r.Length, r.RecordID, r.URI = w.Offset, w.Length, w.RecordID, w.URI
		if !w.Date.IsZero() {
			r.Date = w.Date.UTC()
		}
		r.Status, r.MIME, r.Digest, r.HTTPCharset = int64(w.Status), w.MIME, w.Digest, w.HTTPCharset
	}
	return r
}

// Result returns r as an archive.Result, whose MarshalJSON is the
// command's line for it. Its Err, if any, is an error with r.Error as its
// message: the warc package's error behind it stays with the worker.
func (r *Record) Result() archive.Result {
	res := archive.Result{File: r.File, BOM: int(r.BOM)}
	if e, ok := override.Lookup(r.Encoding); ok {
		res.Encoding = e
		res.Confidence = sniff.Tentative
		if r.Confidence == sniff.Certain.String() {
			res.Confidence = sniff.Certain
		}
		res.Source = sourceOf(r.Source)
	}
	if r.LateChange != "" {
		res.Late.Kind = changeOf(r.LateChange)
		res.Late.From, _ = override.Lookup(r.LateFrom)
		res.Late.To, _ = override.Lookup(r.LateTo)
		res.Late.Offset = r.LateOffset
	}
	p := &res.Provenance
	p.BOM, _ = override.Lookup(r.BOMEncoding)
	p.TransportLabel = r.TransportLabel
	p.Transport, _ = override.Lookup(r.TransportEncoding)
	if r.PrescanRule != "" {
		p.Prescan.Encoding, _ = override.Lookup(r.PrescanEncoding)
		p.Prescan.Rule, p.Prescan.Offset = ruleOf(r.PrescanRule), int(r.PrescanOffset)
	}
	if e, ok := override.Lookup(r.DetectedEncoding); ok {
		p.Detected, p.Strength = e, strengthOf(r.DetectedStrength)
	}
	res.Mismatch = archive.Mismatch{Transport: r.TransportMismatch, Prescan: r.PrescanMismatch,
		TransportReplaced: r.TransportReplacements, PrescanReplaced: r.PrescanReplacements}
	if r.Error != "" {
		res.Err = errors.New(r.Error)
	}
	if r.InFile {
		res.Where = &archive.Where{RecordID: r.RecordID, URI: r.URI, Offset: r.Offset, Length: r.Length,
			Status: int(r.Status), HTTPCharset: r.HTTPCharset, MIME: r.MIME, Digest: r.Digest, Date: r.Date}
	}
	return res
}

// sourceOf returns the sniff.Source whose String is name.
func sourceOf(name string) sniff.Source {
	for s := sniff.Source(0); s.String() != "unknown"; s++ {
		if s.String() == name {
			return s
		}
	}
	return sniff.SourceDefault
}

// ruleOf returns the prescan.Rule whose String is name; prescan.Meta for
// a name that is none of them, so that a rule given stays a prescan that
// found something.
func ruleOf(name string) prescan.Rule {
	for k := prescan.Meta; k.String() != "unknown"; k++ {
		if k.String() == name {
			return k
		}
	}
	return prescan.Meta
}

// strengthOf returns the detect.Strength whose String is name.
func strengthOf(name string) detect.Strength {
	for s := detect.NoEvidence; s <= detect.Structural; s++ {
		if s.String() == name {
			return s
		}
	}
	return detect.NoEvidence
}

// name returns e's lower-case name, "" for Unknown.
func name(e override.Encoding) string {
	if !e.Valid() {
		return ""
	}
	return e.LowerName()
}

// changeOf returns the decode.ChangeKind whose String is name.
func changeOf(name string) decode.ChangeKind {
	for k := decode.ChangeKind(0); k.String() != "unknown"; k++ {
		if k.String() == name {
			return k
		}
	}
	return decode.NoChange
}

// JSON returns the line `charsniff --json` prints for r (without its
// newline); for a record with text, the line of `charsniff --decode
// --json`: its fields, then "text", then its length and error, which the
// command knows once it has read the record through.
//
// The command starts a line with its text instead when the record's
// decision is not settled by its first MiB of text, which only a
// look-ahead of more than 1 MiB (Options.Lookahead) can make happen.
func JSON(r Record) string {
	res := r.Result()
	if !r.HasText {
		b, _ := res.MarshalJSON() // never fails
		return string(b)
	}
	head := res
	head.Err = nil
	if w := head.Where; w != nil {
		wc := *w
		wc.Length = 0
		head.Where = &wc
	}
	b, _ := head.MarshalJSON()
	var s strings.Builder
	s.Write(b[:len(b)-1])
	s.WriteString(`,"text":`)
	enc := json.NewEncoder(&s)
	enc.SetEscapeHTML(false)
	enc.Encode(r.Text) // a string always encodes; Encode adds a newline
	line := strings.TrimSuffix(s.String(), "\n")
	if r.InFile && r.Length != 0 {
		line += `,"length":` + strconv.FormatInt(r.Length, 10)
	}
	// The error key and the closing brace, as archive.Result writes them.
	tail, _ := (&archive.Result{Err: res.Err}).MarshalJSON()
	return line + string(tail[len(`{"file":""`):])
}
