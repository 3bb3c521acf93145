package sniff_test

import (
	"mime"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/mimetype"
	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// TestContentTypeCharset runs the Content-Type table shared with package
// warc and the extractor both use.
func TestContentTypeCharset(t *testing.T) {
	for _, tc := range reference.ContentTypeCases {
		t.Run(tc.Desc, func(t *testing.T) {
			got, ok := sniff.ContentTypeCharset(tc.In)
			if got != tc.Charset || ok != tc.HasCharset {
				t.Errorf("ContentTypeCharset(%q) = %q, %v, want %q, %v", tc.In, got, ok, tc.Charset, tc.HasCharset)
			}
			want, wantOK := reference.ContentTypeCharset(tc.In)
			if got != want || ok != wantOK {
				t.Errorf("ContentTypeCharset(%q) = %q, %v, reference says %q, %v", tc.In, got, ok, want, wantOK)
			}
		})
	}
}

// FuzzContentTypeCharset compares ContentTypeCharset with the literal
// reference (exactly) and with mime.ParseMediaType (where the two parsers
// agree by design).
func FuzzContentTypeCharset(f *testing.F) {
	for _, tc := range reference.ContentTypeCases {
		f.Add(tc.In)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, ok := sniff.ContentTypeCharset(in)
		want, wantOK := reference.ContentTypeCharset(in)
		if got != want || ok != wantOK {
			t.Fatalf("ContentTypeCharset(%q) = %q, %v, reference says %q, %v", in, got, ok, want, wantOK)
		}
		// The transport step must agree with looking the charset up.
		r := sniff.Sniff(nil, &sniff.Options{ContentType: in})
		enc, found := override.Lookup(got)
		found = found && ok
		if found != (r.Source == sniff.SourceTransport) || (found && enc != r.Encoding) {
			t.Fatalf("Sniff with Content-Type %q = %+v, but the charset %q, %v names %v, %v", in, r, got, ok, enc, found)
		}

		// The same Content-Type parsed already gives the same answer.
		for _, legacy := range []bool{false, true} {
			if a, b := sniff.Sniff(nil, &sniff.Options{ContentType: in, Legacy: legacy}),
				sniff.Sniff(nil, &sniff.Options{MIMEType: sniff.MIMEType{Charset: got, Given: in != ""}, Legacy: legacy}); a != b {
				t.Fatalf("Content-Type %q (legacy %v): ContentType gives %+v, MIMEType %+v", in, legacy, a, b)
			}
		}

		// mime.ParseMediaType follows RFC 2045/2231 and rejects or reads
		// differently much of what Fetch accepts (see ContentTypeCharset).
		// Compare where both read the same grammar: one MIME type, no
		// quotes, escapes, commas, stars or repeated parameters.
		if strings.ContainsAny(in, "\",*\\\x00") || !ok {
			return
		}
		_, params, err := mime.ParseMediaType(in)
		if err != nil {
			return
		}
		// White space after = is part of a Fetch value; get an encoding
		// removes it.
		if cs, has := params["charset"]; has && cs != strings.Trim(got, " \t") {
			t.Fatalf("ContentTypeCharset(%q) = %q, mime.ParseMediaType says %q", in, got, cs)
		}
	})
}

// TestMIMEType checks that a Content-Type given parsed (Options.MIMEType)
// gives the answer the header gives (Options.ContentType), without
// parsing anything, and that ContentType wins when both are given.
func TestMIMEType(t *testing.T) {
	parses := 0
	mimetype.ExtractHook = func() { parses++ }
	t.Cleanup(func() { mimetype.ExtractHook = nil })
	ins := []string{
		`text/html; charset="sh\\ift_jis"`, `text/html; charset=" \\koi8-r\\ "`,
		"text/html; charset=" + strings.Repeat(" ", 70) + "gbk", `text/html;charset="` + strings.Repeat("x", 70) + `"`,
		"text/html; charset=x-user-defined", "text/html; charset=iso-8859-8-i", "text/html; charset=utf-16le",
	}
	for _, tc := range reference.ContentTypeCases {
		ins = append(ins, tc.In)
	}
	for _, in := range ins {
		charset, _ := sniff.ContentTypeCharset(in)
		for _, legacy := range []bool{false, true} {
			want := sniff.Sniff(nil, &sniff.Options{ContentType: in, Legacy: legacy})
			parses = 0
			got := sniff.Sniff(nil, &sniff.Options{MIMEType: sniff.MIMEType{Charset: charset, Given: in != ""}, Legacy: legacy})
			if got != want || parses != 0 {
				t.Errorf("Content-Type %q (legacy %v): MIMEType gives %+v with %d parses, want %+v with none", in, legacy, got, parses, want)
			}
		}
	}
	// ContentType wins over MIMEType.
	got := sniff.Sniff(nil, &sniff.Options{ContentType: "text/html; charset=koi8-r", MIMEType: sniff.MIMEType{Charset: "gbk", Given: true}})
	if got.Encoding != override.KOI8R {
		t.Errorf("ContentType and MIMEType: %v, want the ContentType's %v", got.Encoding, override.KOI8R)
	}
}
