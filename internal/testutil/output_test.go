package testutil

import "testing"

func TestMatchOutput(t *testing.T) {
	for _, tc := range []struct {
		got, want string
		match     bool
	}{
		{"a.html: utf-8", "a.html: utf-8", true},
		{"a.html: utf-8 (certain, bom)", "a.html: utf-8 ...", true},
		{"a.html: utf-8  ", "a.html: utf-8", true},
		{"x\nb", "...\nb", true},
		{"a.html: gbk", "a.html: utf-8...", false},
		{"one\ntwo", "one", false},
		{"a+b", "a.b", false},
		{"prefix a", "a...", false},
	} {
		if got := MatchOutput(tc.got, tc.want); got != tc.match {
			t.Errorf("MatchOutput(%q, %q) = %v, want %v", tc.got, tc.want, got, tc.match)
		}
	}
}
