// Package index writes per-record charset indexes of web archives in the
// forms the archive world already queries: CDXJ lines, as pywb and
// OpenWayback read them, and Parquet files whose columns join Common
// Crawl's columnar index (url, warc_filename, warc_record_offset,
// warc_record_length, fetch_time, fetch_status, content_mime_type).
//
// A [Row] is one record: where it is in its file (so that the file, the
// offset and the length read alone give the record), what the archive says
// of it, and what charsniff decided and why. [NewRow] makes one from an
// [archive.Result]; [CDXJWriter] and [ParquetWriter] write rows as they
// come, in bounded memory.
//
// The package is apart from archive so that only programs that write
// indexes compile its Parquet library (github.com/parquet-go/parquet-go).
package index

import (
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
)

// Row is one record of an index. Its parquet tags are the Parquet file's
// columns: Common Crawl's names for what its columnar index has, then
// charsniff's. An empty optional string is a null.
type Row struct {
	// Common Crawl's columns.
	URLSurtkey       string     `parquet:"url_surtkey"`
	URL              string     `parquet:"url"`
	URLHostName      string     `parquet:"url_host_name"`
	FetchTime        *time.Time `parquet:"fetch_time,optional,timestamp(millisecond)"`
	FetchStatus      *int16     `parquet:"fetch_status,optional"`
	ContentDigest    string     `parquet:"content_digest,optional"`
	ContentMIMEType  string     `parquet:"content_mime_type,optional"`
	WARCRecordID     string     `parquet:"warc_record_id,optional"`
	WARCFilename     string     `parquet:"warc_filename"`
	WARCRecordOffset int64      `parquet:"warc_record_offset"`
	WARCRecordLength int64      `parquet:"warc_record_length"`

	// charsniff's columns.
	Encoding    string `parquet:"encoding,optional"`   // the lower-case name of the encoding decided
	Confidence  string `parquet:"confidence,optional"` // "certain" or "tentative"
	Source      string `parquet:"source,optional"`     // the step of the sniffing algorithm that decided
	HTTPCharset string `parquet:"http_charset,optional"`
	LateChange  string `parquet:"late_change,optional"` // how a change after the first bytes was made
	LateFrom    string `parquet:"late_from,optional"`   // the encoding before it
	LateOffset  *int64 `parquet:"late_offset,optional"` // where in the payload

	// What each step of the sniffing algorithm saw, whichever decided
	// (archive.Result.Provenance), as lower-case encoding names: the BOM's
	// encoding, the encoding http_charset names, the prescan's (its rule,
	// "meta", "xml" or "utf-16 xml", and the offset just past what it
	// read), the detector's guess and its evidence ("statistical" or
	// "structural").
	BOMEncoding       string `parquet:"bom_encoding,optional"`
	TransportEncoding string `parquet:"transport_encoding,optional"`
	PrescanEncoding   string `parquet:"prescan_encoding,optional"`
	PrescanRule       string `parquet:"prescan_rule,optional"`
	PrescanOffset     *int32 `parquet:"prescan_offset,optional"`
	DetectedEncoding  string `parquet:"detected_encoding,optional"`
	DetectedStrength  string `parquet:"detected_strength,optional"`
	// The mismatch flags: the transport's or the prescan's encoding is
	// not the one decided (archive.Result.Mismatch); for a mismatch, the
	// U+FFFD decoding the payload with the declared encoding gives (null
	// when not counted).
	TransportMismatch     bool   `parquet:"transport_mismatch"`
	PrescanMismatch       bool   `parquet:"prescan_mismatch"`
	TransportReplacements *int64 `parquet:"transport_replacements,optional"`
	PrescanReplacements   *int64 `parquet:"prescan_replacements,optional"`

	Error string `parquet:"error,optional"` // the problem of a damaged record
}

// provenance sets r's provenance columns from res.
func (r *Row) provenance(res *archive.Result) {
	p, m := &res.Provenance, &res.Mismatch
	r.BOMEncoding, r.TransportEncoding = name(p.BOM), name(p.Transport)
	if p.Prescan.Found() {
		off := int32(p.Prescan.Offset)
		r.PrescanEncoding, r.PrescanRule, r.PrescanOffset = name(p.Prescan.Encoding), p.Prescan.Rule.String(), &off
	}
	if p.Detected.Valid() {
		r.DetectedEncoding, r.DetectedStrength = p.Detected.LowerName(), p.Strength.String()
	}
	r.TransportMismatch, r.PrescanMismatch = m.Transport, m.Prescan
	if m.Transport && m.TransportReplaced >= 0 {
		n := m.TransportReplaced
		r.TransportReplacements = &n
	}
	if m.Prescan && m.PrescanReplaced >= 0 {
		n := m.PrescanReplaced
		r.PrescanReplacements = &n
	}
}

// name returns e's lower-case name, "" for Unknown.
func name(e override.Encoding) string {
	if !e.Valid() {
		return ""
	}
	return e.LowerName()
}

// SURT returns the Sort-friendly URI Reordering Transform of uri, as
// CDX and CDXJ indexes and Common Crawl's url_surtkey spell it: the host
// in reverse order, comma-separated and without a leading "www." (or
// "www2." and so on), then ")" and the path, query and no fragment, all in
// lower case, with the query's parameters sorted and the default port,
// user information and scheme dropped:
//
//	http://www.Example.com:80/A/b.html?z=1&a=2#top → com,example)/a/b.html?a=2&z=1
//
// A uri that does not parse as an absolute URL with a host is returned in
// lower case as it is.
func SURT(uri string) string {
	u, err := url.Parse(strings.TrimSpace(uri))
	if err != nil || u.Host == "" {
		return strings.ToLower(uri)
	}
	host := strings.ToLower(u.Hostname())
	host = strings.TrimSuffix(host, ".")
	if rest, ok := strings.CutPrefix(host, "www"); ok {
		digits := strings.TrimLeft(rest, "0123456789")
		if strings.HasPrefix(digits, ".") && strings.Count(digits, ".") >= 2 {
			host = digits[1:]
		}
	}
	var b strings.Builder
	labels := strings.Split(host, ".")
	if isIP(host) {
		b.WriteString(host)
	} else {
		for i := len(labels) - 1; i >= 0; i-- {
			b.WriteString(labels[i])
			if i > 0 {
				b.WriteByte(',')
			}
		}
	}
	if p := u.Port(); p != "" && !(p == "80" && u.Scheme == "http") && !(p == "443" && u.Scheme == "https") {
		b.WriteString(":" + p)
	}
	b.WriteByte(')')
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	b.WriteString(strings.ToLower(path))
	if q := u.RawQuery; q != "" {
		params := strings.Split(strings.ToLower(q), "&")
		params = slices.DeleteFunc(params, func(p string) bool { return p == "" })
		slices.Sort(params)
		if len(params) > 0 {
			b.WriteByte('?')
			b.WriteString(strings.Join(params, "&"))
		}
	}
	return b.String()
}

// isIP reports whether host is an IPv4 address or a bracketed IPv6 one,
// which SURT leaves in their order.
func isIP(host string) bool {
	if strings.Contains(host, ":") {
		return true
	}
	for _, l := range strings.Split(host, ".") {
		if l == "" || strings.Trim(l, "0123456789") != "" {
			return false
		}
	}
	return true
}

// Timestamp returns t as the 14 digits of a CDX timestamp
// (YYYYMMDDhhmmss, UTC), or "" for the zero time.
func Timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("20060102150405")
}

// NewRow returns the row of a WARC record's result: its coordinates and
// what the archive says of it from res.Where, the decision from the rest.
// A result outside a WARC file (res.Where nil) gives a row with only the
// decision and the file's name.
func NewRow(res *archive.Result) Row {
	r := Row{WARCFilename: res.File}
	if res.Encoding.Valid() {
		r.Encoding, r.Confidence, r.Source = res.Encoding.LowerName(), res.Confidence.String(), res.Source.String()
	}
	if l := res.Late; l.Kind != decode.NoChange {
		off := l.Offset
		r.LateChange, r.LateFrom, r.LateOffset = l.Kind.String(), l.From.LowerName(), &off
	}
	r.provenance(res)
	if res.Err != nil {
		r.Error = res.Err.Error()
	}
	w := res.Where
	if w == nil {
		return r
	}
	r.URL, r.URLSurtkey, r.WARCRecordID = w.URI, SURT(w.URI), w.RecordID
	if u, err := url.Parse(w.URI); err == nil {
		r.URLHostName = strings.ToLower(u.Hostname())
	}
	if !w.Date.IsZero() {
		t := w.Date.UTC()
		r.FetchTime = &t
	}
	if w.Status != 0 {
		s := int16(w.Status)
		r.FetchStatus = &s
	}
	r.ContentDigest, r.ContentMIMEType, r.HTTPCharset = w.Digest, w.MIME, w.HTTPCharset
	r.WARCRecordOffset, r.WARCRecordLength = w.Offset, w.Length
	return r
}
