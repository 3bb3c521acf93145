package prescan_test

import (
	"testing"

	"github.com/charsniff/charsniff/prescan"
)

// checkAlike checks ParsedAlike against the late scan itself on in: where
// it says the parser meets the prescan's <meta> first, the tokenizer-mode
// scan must end at that <meta>. It returns ParsedAlike's answer (false
// when the prescan found no <meta>).
func checkAlike(t *testing.T, in []byte) bool {
	t.Helper()
	pre := prescan.Prescan(in, &prescan.Options{})
	if pre.Rule != prescan.Meta || !prescan.ParsedAlike(in[:pre.Offset]) {
		return false
	}
	var s prescan.Scanner
	s.Reset(&prescan.Options{Window: len(in) + 1, Tokenizer: true})
	s.Feed(in)
	tok := s.Close()
	if tok.Rule != prescan.Meta || tok.Offset != pre.Offset || tok.Encoding != pre.Encoding {
		t.Errorf("%q: ParsedAlike, but the prescan gives %+v and the late scan %+v", in, pre, tok)
	}
	return true
}

func TestParsedAlike(t *testing.T) {
	for _, tc := range []struct {
		in    string
		alike bool
	}{
		{`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>x</title>`, true},
		{`<html><head><!-- a comment --><meta http-equiv=content-type content="text/html; charset=gbk">`, true},
		{`<br/><META CHARSET=koi8-r>`, true},
		{`<?xml version="1.0"?><!doctype html><meta charset=utf-8>`, true},
		{`<title>x</title><meta charset=utf-8>`, false},
		{`<script>var s = "<meta charset=iso-8859-2>";</script><meta charset=utf-8>`, false},
		{`<style>p{}</style><meta charset=utf-8>`, false},
		{`<TEXTAREA></textarea><meta charset=utf-8>`, false},
		{`<noscript></noscript><meta charset=utf-8>`, false},
		{`<plaintext><meta charset=utf-8>`, false},
		{`<meta name=x><meta charset=utf-8>`, false},
		{`<!-- x --!><meta charset=utf-8>-->`, false},
		{`<a/b='<meta charset=utf-8>'>`, false},
		{`<!-- <meta charset=koi8-r> --><meta charset=utf-8>`, false},
		{`no declaration`, false},
	} {
		if got := checkAlike(t, []byte(tc.in)); got != tc.alike {
			t.Errorf("prescan.ParsedAlike(%q) = %v, want %v", tc.in, got, tc.alike)
		}
	}
}

func FuzzParsedAlike(f *testing.F) {
	for _, s := range []string{
		`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">`,
		`<script><!--<script></script>--><meta charset=gbk></script><meta charset=utf-8>`,
		`<a title='x>y' b=<c><meta charset=big5>`,
		`<!--><meta charset=koi8-r>-->`,
		`</p title="<meta charset=x>"><meta charset=utf-8>`,
		`<xmp><meta charset=koi8-r></xmp><meta charset=utf-8>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkAlike(t, in)
	})
}
