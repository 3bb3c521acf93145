package index

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
)

// CDXJWriter writes rows as CDXJ lines, the OpenWayback and pywb index
// format that Common Crawl's URL index uses too: the SURT key, the
// 14-digit timestamp and a JSON block, one record a line. The block has
// CDX's fields with Common Crawl's names and their values as strings (url,
// mime, status, digest, length, offset, filename), then charsniff's
// (encoding, confidence, source, http_charset, late_change, late_from,
// late_offset, the provenance columns of Row from bom_encoding to
// prescan_replacements, and error), each a string and left out when
// empty: a mismatch flag is "true" or absent. Lines come in the order rows are written (the
// records' order in their files); pywb looks records up by key in a file
// sorted bytewise (LC_ALL=C sort).
type CDXJWriter struct {
	w   *bufio.Writer
	enc *json.Encoder
	err error
}

// NewCDXJWriter returns a CDXJWriter writing to w. Call Flush when done.
func NewCDXJWriter(w io.Writer) *CDXJWriter {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &CDXJWriter{w: bw, enc: enc}
}

// cdxjBlock is the JSON block of a CDXJ line, in its order.
type cdxjBlock struct {
	URL         string `json:"url"`
	MIME        string `json:"mime,omitempty"`
	Status      string `json:"status,omitempty"`
	Digest      string `json:"digest,omitempty"`
	Length      string `json:"length"`
	Offset      string `json:"offset"`
	Filename    string `json:"filename"`
	Encoding    string `json:"encoding,omitempty"`
	Confidence  string `json:"confidence,omitempty"`
	Source      string `json:"source,omitempty"`
	HTTPCharset string `json:"http_charset,omitempty"`
	LateChange  string `json:"late_change,omitempty"`
	LateFrom    string `json:"late_from,omitempty"`
	LateOffset  string `json:"late_offset,omitempty"`

	BOMEncoding           string `json:"bom_encoding,omitempty"`
	TransportEncoding     string `json:"transport_encoding,omitempty"`
	PrescanEncoding       string `json:"prescan_encoding,omitempty"`
	PrescanRule           string `json:"prescan_rule,omitempty"`
	PrescanOffset         string `json:"prescan_offset,omitempty"`
	DetectedEncoding      string `json:"detected_encoding,omitempty"`
	DetectedStrength      string `json:"detected_strength,omitempty"`
	TransportMismatch     string `json:"transport_mismatch,omitempty"`
	TransportReplacements string `json:"transport_replacements,omitempty"`
	PrescanMismatch       string `json:"prescan_mismatch,omitempty"`
	PrescanReplacements   string `json:"prescan_replacements,omitempty"`

	Error string `json:"error,omitempty"`
}

// Write writes r as one line. After an error of the underlying writer it
// writes nothing more and returns that error.
func (c *CDXJWriter) Write(r *Row) error {
	if c.err != nil {
		return c.err
	}
	key, ts := r.URLSurtkey, ""
	if key == "" {
		key = SURT(r.URL)
	}
	if key == "" {
		key = "-"
	}
	if r.FetchTime != nil {
		ts = Timestamp(*r.FetchTime)
	}
	if ts == "" {
		ts = "-"
	}
	b := cdxjBlock{
		URL: r.URL, MIME: r.ContentMIMEType, Digest: r.ContentDigest,
		Length: strconv.FormatInt(r.WARCRecordLength, 10), Offset: strconv.FormatInt(r.WARCRecordOffset, 10),
		Filename: r.WARCFilename, Encoding: r.Encoding, Confidence: r.Confidence, Source: r.Source,
		HTTPCharset: r.HTTPCharset, LateChange: r.LateChange, LateFrom: r.LateFrom, Error: r.Error,
		BOMEncoding: r.BOMEncoding, TransportEncoding: r.TransportEncoding, PrescanEncoding: r.PrescanEncoding,
		PrescanRule: r.PrescanRule, DetectedEncoding: r.DetectedEncoding, DetectedStrength: r.DetectedStrength,
	}
	if r.PrescanOffset != nil {
		b.PrescanOffset = strconv.Itoa(int(*r.PrescanOffset))
	}
	if r.TransportMismatch {
		b.TransportMismatch = "true"
		if n := r.TransportReplacements; n != nil {
			b.TransportReplacements = strconv.FormatInt(*n, 10)
		}
	}
	if r.PrescanMismatch {
		b.PrescanMismatch = "true"
		if n := r.PrescanReplacements; n != nil {
			b.PrescanReplacements = strconv.FormatInt(*n, 10)
		}
	}
	if r.FetchStatus != nil {
		b.Status = strconv.Itoa(int(*r.FetchStatus))
	}
	if r.LateOffset != nil {
		b.LateOffset = strconv.FormatInt(*r.LateOffset, 10)
	}
	c.w.WriteString(key)
	c.w.WriteByte(' ')
	c.w.WriteString(ts)
	c.w.WriteByte(' ')
	c.err = c.enc.Encode(&b) // ends the line
	return c.err
}

// Flush writes what is buffered to the underlying writer.
func (c *CDXJWriter) Flush() error {
	if c.err != nil {
		return c.err
	}
	c.err = c.w.Flush()
	return c.err
}
