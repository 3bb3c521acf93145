package decode_test

import (
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

func TestWithTLD(t *testing.T) {
	tests := []struct {
		desc   string
		in     string
		opts   []decode.Option
		want   override.Encoding
		source sniff.Source
	}{
		{"ASCII page, .jp", "<p>hello</p>", []decode.Option{decode.WithTLD("www.example.jp")}, override.ShiftJIS, sniff.SourceDefault},
		{"ASCII page, no hint", "<p>hello</p>", nil, override.Windows1252, sniff.SourceDefault},
		{"short Greek word, .gr", "<p>\xe8\xe4\xe5</p>", []decode.Option{decode.WithTLD("gr")}, override.Windows1253, sniff.SourceAutodetect},
		{"locale wins for the default", "<p>hello</p>", []decode.Option{decode.WithTLD("jp"), decode.WithLocale("ru")}, override.Windows1251, sniff.SourceDefault},
	}
	for _, tc := range tests {
		r, err := decode.NewReader(strings.NewReader(tc.in), tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if res := r.Result(); res.Encoding != tc.want || res.Source != tc.source {
			t.Errorf("%s: Result() = %v, %v, want %v, %v", tc.desc, res.Encoding, res.Source, tc.want, tc.source)
		}
	}
}
