package decode_test

import (
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// TestWithSniffMIMEType checks that options merge ContentType and
// MIMEType as one declaration: a non-empty ContentType or a Given MIMEType
// replaces both, as a later ContentType always did.
func TestWithSniffMIMEType(t *testing.T) {
	koi8 := sniff.Options{ContentType: "text/html; charset=koi8-r"}
	gbk := sniff.Options{MIMEType: sniff.MIMEType{Charset: "gbk", Given: true}}
	noCharset := sniff.Options{MIMEType: sniff.MIMEType{Given: true}} // as "text/html"
	for _, tc := range []struct {
		desc string
		opts []sniff.Options
		want override.Encoding // Unknown: no transport-layer answer
	}{
		{"MIMEType alone", []sniff.Options{gbk}, override.GBK},
		{"ContentType after MIMEType", []sniff.Options{gbk, koi8}, override.KOI8R},
		{"MIMEType after ContentType", []sniff.Options{koi8, gbk}, override.GBK},
		{"MIMEType without charset after ContentType", []sniff.Options{koi8, noCharset}, override.Unknown},
		{"MIMEType without charset after MIMEType", []sniff.Options{gbk, noCharset}, override.Unknown},
		{"zero MIMEType after ContentType", []sniff.Options{koi8, {Locale: "ja"}}, override.KOI8R},
		{"zero MIMEType after MIMEType", []sniff.Options{gbk, {TLD: "ru"}}, override.GBK},
	} {
		var opts []decode.Option
		for _, o := range tc.opts {
			opts = append(opts, decode.WithSniff(o))
		}
		r, err := decode.NewReader(strings.NewReader("<p>text"), opts...)
		if err != nil {
			t.Fatal(err)
		}
		got := r.Result()
		if tc.want == override.Unknown {
			if got.Source == sniff.SourceTransport {
				t.Errorf("%s: %+v, want no answer of the transport layer", tc.desc, got)
			}
		} else if got.Encoding != tc.want || got.Source != sniff.SourceTransport {
			t.Errorf("%s: %+v, want %v from the transport layer", tc.desc, got, tc.want)
		}
	}
}
