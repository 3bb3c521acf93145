package prescan_test

import (
	"bytes"
	"strings"
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
		// Foreign content and frameset: the tree builder may not meet it.
		{`<svg><![CDATA[ > <meta charset=utf-8> ]]>`, false},
		{`<MATH><![CDATA[ > <meta charset=utf-8> ]]>`, false},
		{`<frameset><meta charset=utf-8>`, false},
		{`<svgs><maths><framesets><meta charset=utf-8>`, true},
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
		for _, w := range [][]byte{in, append(in, `<meta charset=x>`...)} {
			if got, want := prescan.ParsedAlike(w), alikeRef(w); got != want {
				t.Errorf("prescan.ParsedAlike(%q) = %v, want %v (the plain reference)", w, got, want)
			}
		}
	})
}

// alikeRef is ParsedAlike written plainly, with bytes and strings: the
// word-at-a-time one must answer as it does.
func alikeRef(w []byte) bool {
	k := bytes.LastIndexByte(w, '<')
	if k < 0 || len(w)-k < 6 || !strings.EqualFold(string(w[k+1:k+5]), "meta") ||
		!strings.ContainsRune("\t\n\f\r /", rune(w[k+5])) {
		return false
	}
	p := w[:k]
	if bytes.Contains(p, []byte("--!")) {
		return false
	}
	for i := 0; ; {
		j := bytes.IndexByte(p[i:], '<')
		if j < 0 {
			return true
		}
		i += j + 1
		if i == len(p) || !('a' <= p[i]|0x20 && p[i]|0x20 <= 'z') {
			continue
		}
		j = bytes.IndexAny(p[i:], "\t\n\f\r />")
		if j < 0 {
			return false
		}
		j += i
		if p[j] == '/' && (j+1 == len(p) || p[j+1] != '>') {
			return false
		}
		switch strings.ToLower(string(p[i:j])) {
		case "meta", "script", "plaintext", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "title", "textarea":
			return false
		}
		i = j
	}
}

func TestParsedAlikeWords(t *testing.T) {
	// Marks at every offset of a word, and names across words.
	for _, in := range []string{
		`<!DOCTYPE html><html><head><meta charset="windows-1252">`,
		`<html><head><!-- a --!> --><meta charset=utf-8>`,
		`<a--!><meta charset=utf-8>`,
		`<html><!-- a --!> --><head><link rel=a><link rel=b><meta charset=utf-8>`,
		`<html><head><link rel="a--!b"><link rel=b><meta charset=utf-8>`,
		`abcdefg<b>abcdefgh<i>abcdefghi<u>x<meta charset=utf-8>`,
		`<link rel=a><link rel=b><link rel=c><TITLE>x</TITLE><meta charset=utf-8>`,
		`<html><head><meta charset="utf-8" content="<x>">`,
		`<a><b><c><d><e><f><g><h><i><j><k><meta/charset=utf-8>`,
		`<ab/cd><meta charset=utf-8>`,
		`<span></span><p>-<!-<meta charset=utf-8>`,
	} {
		for pad := range 9 {
			w := []byte(strings.Repeat(" ", pad) + in)
			if got, want := prescan.ParsedAlike(w), alikeRef(w); got != want {
				t.Errorf("prescan.ParsedAlike(%q) = %v, want %v", w, got, want)
			}
		}
	}
}
