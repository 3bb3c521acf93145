package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
	"github.com/charsniff/charsniff/sniff"
)

// refLine is the command's JSON line as encoding/json writes it from
// struct tags: the reference MarshalJSON must match byte for byte.
type refLine struct {
	File       string   `json:"file"`
	Encoding   string   `json:"encoding,omitempty"`
	Confidence string   `json:"confidence,omitempty"`
	Source     string   `json:"source,omitempty"`
	BOM        int      `json:"bom,omitempty"`
	Late       *refLate `json:"late,omitempty"`
	*refWhere
	Provenance *refProvenance `json:"provenance,omitempty"`
	Error      string         `json:"error,omitempty"`
}

type refProvenance struct {
	BOM                   string `json:"bom,omitempty"`
	TransportLabel        string `json:"transport_label,omitempty"`
	Transport             string `json:"transport,omitempty"`
	Prescan               string `json:"prescan,omitempty"`
	PrescanRule           string `json:"prescan_rule,omitempty"`
	PrescanOffset         *int   `json:"prescan_offset,omitempty"`
	Detected              string `json:"detected,omitempty"`
	Strength              string `json:"strength,omitempty"`
	TransportMismatch     bool   `json:"transport_mismatch,omitempty"`
	TransportReplacements *int64 `json:"transport_replacements,omitempty"`
	PrescanMismatch       bool   `json:"prescan_mismatch,omitempty"`
	PrescanReplacements   *int64 `json:"prescan_replacements,omitempty"`
}

type refLate struct {
	Change string `json:"change"`
	From   string `json:"from"`
	Offset int64  `json:"offset"`
}

type refWhere struct {
	RecordID    string `json:"record_id,omitempty"`
	URI         string `json:"uri,omitempty"`
	Offset      int64  `json:"offset"`
	Length      int64  `json:"length,omitempty"`
	Status      int    `json:"status,omitempty"`
	HTTPCharset string `json:"http_charset,omitempty"`
	MIME        string `json:"mime,omitempty"`
	Digest      string `json:"digest,omitempty"`
	Date        string `json:"date,omitempty"`
}

func ref(r *Result) *refLine {
	l := &refLine{File: r.File, BOM: r.BOM}
	if r.Encoding != override.Unknown {
		l.Encoding, l.Confidence, l.Source = r.Encoding.LowerName(), r.Confidence.String(), r.Source.String()
	}
	if c := r.Late; c.Kind != decode.NoChange {
		l.Late = &refLate{c.Kind.String(), c.From.LowerName(), c.Offset}
	}
	if w := r.Where; w != nil {
		l.refWhere = &refWhere{w.RecordID, w.URI, w.Offset, w.Length, w.Status, w.HTTPCharset, w.MIME, w.Digest, ""}
		if !w.Date.IsZero() {
			l.Date = w.Date.UTC().Format(time.RFC3339Nano)
		}
	}
	if p, m := r.Provenance, r.Mismatch; p != (sniff.Provenance{}) || m != (Mismatch{}) {
		rp := &refProvenance{TransportLabel: p.TransportLabel}
		if p.BOM.Valid() {
			rp.BOM = p.BOM.LowerName()
		}
		if p.Transport.Valid() {
			rp.Transport = p.Transport.LowerName()
		}
		if p.Prescan.Found() {
			if p.Prescan.Encoding.Valid() {
				rp.Prescan = p.Prescan.Encoding.LowerName()
			}
			rp.PrescanRule, rp.PrescanOffset = p.Prescan.Rule.String(), &p.Prescan.Offset
		}
		if p.Detected.Valid() {
			rp.Detected, rp.Strength = p.Detected.LowerName(), p.Strength.String()
		}
		if m.Transport {
			rp.TransportMismatch, rp.TransportReplacements = true, &m.TransportReplaced
		}
		if m.Prescan {
			rp.PrescanMismatch, rp.PrescanReplacements = true, &m.PrescanReplaced
		}
		l.Provenance = rp
	}
	if r.Err != nil {
		l.Error = r.Err.Error()
	}
	return l
}

func encode(t *testing.T, v any, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestMarshalJSON checks that a Result's JSON is the line encoding/json
// writes from the command's schema, escaping and all, with and without
// HTML escaping.
func TestMarshalJSON(t *testing.T) {
	odd := "a\"b\\c\x00\x1f\b\f\n\r\t<>&\u2028\u2029\xff\xc3é日本"
	jst := time.FixedZone("JST", 9*3600)
	for _, r := range []Result{
		{File: "a.html"},
		{File: odd, Err: errors.New(odd)},
		{File: "f", Encoding: override.ShiftJIS, Confidence: sniff.Certain, Source: sniff.SourceTransport, BOM: 3},
		{File: "f", Encoding: override.UTF8, Source: sniff.SourceAutodetect,
			Late: decode.Change{Kind: decode.SwitchedOnTheFly, From: override.Windows1252, To: override.UTF8, Offset: 5000}},
		{File: "w.warc.gz", Encoding: override.GBK, Where: &Where{RecordID: "<urn:uuid:1>", URI: odd, Offset: 0}},
		{File: "w.warc.gz", Where: &Where{Offset: 77, Length: 1234, Status: 200, HTTPCharset: odd, MIME: "text/html",
			Digest: "ABC", Date: time.Date(2026, 1, 2, 12, 4, 5, 0, jst)}, Err: errors.New("x")},
		{File: "w", Where: &Where{Offset: 1, Date: time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC)}},
		{File: "p", Encoding: override.UTF8, Where: &Where{Offset: 9}, Provenance: sniff.Provenance{
			BOM: override.UTF8, TransportLabel: odd, Transport: override.KOI8R,
			Prescan:  prescan.Result{Encoding: override.ShiftJIS, Rule: prescan.Meta, Offset: 40},
			Detected: override.GBK, Strength: detect.Statistical,
		}, Mismatch: Mismatch{Transport: true, TransportReplaced: 7, Prescan: true, PrescanReplaced: -1}, Err: errors.New("e")},
		{File: "p", Provenance: sniff.Provenance{Prescan: prescan.Result{Rule: prescan.UTF16XMLPrefix, Offset: 6}}},
		{File: "p", Provenance: sniff.Provenance{TransportLabel: "nosuch"}},
	} {
		for _, html := range []bool{false, true} {
			got, want := encode(t, &r, html), encode(t, ref(&r), html)
			if got != want {
				t.Errorf("html %v:\ngot  %s\nwant %s", html, got, want)
			}
		}
	}
}
