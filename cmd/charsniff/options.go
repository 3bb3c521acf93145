package main

import (
	"strings"

	"golang.org/x/text/language"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// resolve checks the flags that name encodings and locales, so that a bad
// one is a usage error before any input is read: the labels of --override,
// --default and --likely must name an encoding (with --legacy-labels, by
// the 2008 draft's matching), and --locale must be a locale or top-level
// domain (see knownLocale).
func (c *config) resolve() error {
	lookup := override.Lookup[string]
	if c.legacy {
		lookup = override.LookupLegacy[string]
	}
	for _, f := range []struct {
		flag  string
		label string
		enc   *override.Encoding
	}{
		{"--override", c.override, &c.overrideEnc},
		{"--default", c.defaultLabel, &c.defaultEnc},
		{"--likely", c.likely, &c.likelyEnc},
	} {
		if f.label == "" {
			continue
		}
		e, ok := lookup(f.label)
		if !ok {
			return usagef("%s %q: unknown encoding label", f.flag, f.label)
		}
		*f.enc = e
	}
	if c.locale != "" && !knownLocale(c.locale) {
		return usagef("--locale %q: not a language tag (ja, zh-TW), a POSIX locale (pt_BR.UTF-8) or a top-level domain (.jp, jp)", c.locale)
	}
	return nil
}

// knownLocale reports whether s is a hint sniff.DefaultEncoding knows how to
// read: a BCP 47 language tag whose subtags are registered ("ja", "zh-Hant",
// "sah"), a POSIX locale name ("pt_BR.UTF-8", "C"), a domain with its
// leading dot (".jp", ".co.jp") or a bare ISO 3166 country code ("jp").
// A well-formed tag is known even when its language has no default of its
// own ("en" gives windows-1252); "xx", "ja-" or "Japanese" are not.
func knownLocale(s string) bool {
	if s == "C" || s == "POSIX" {
		return true
	}
	if strings.HasPrefix(s, ".") {
		return isDomain(s[1:])
	}
	tag := s
	if i := strings.IndexAny(tag, ".@"); i >= 0 {
		tag = tag[:i] // a POSIX locale's codeset and modifier
	}
	if _, err := language.Parse(strings.ReplaceAll(tag, "_", "-")); err == nil {
		return true
	}
	if len(s) == 2 {
		r, err := language.ParseRegion(s)
		return err == nil && !r.IsPrivateUse()
	}
	return false
}

// isDomain reports whether s is a domain name of letters, digits and
// hyphens whose last label is a top-level domain (letters, or an IDN's
// xn-- form).
func isDomain(s string) bool {
	labels := strings.Split(s, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 || strings.Trim(strings.ToLower(l), "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	tld := strings.ToLower(labels[len(labels)-1])
	return len(tld) >= 2 && (strings.HasPrefix(tld, "xn--") || strings.Trim(tld, "abcdefghijklmnopqrstuvwxyz") == "")
}

// readerOptions turns the flags into options of decode.NewReader, so the
// command and the library always give one answer. The labels were
// resolved by resolve.
func (c *config) readerOptions() []decode.Option {
	opts := []decode.Option{
		decode.WithSniff(sniff.Options{
			ContentType:  c.contentType,
			Override:     c.overrideEnc,
			Default:      c.defaultEnc,
			Likely:       c.likelyEnc,
			Locale:       c.locale,
			TLD:          c.tld,
			Window:       c.window,
			NoAutodetect: c.noAutodetect,
			DetectAll:    c.detectAll,
			Legacy:       c.legacy,
		}),
		decode.WithLookahead(c.lookahead),
	}
	if c.raw {
		opts = append(opts, decode.WithoutPreprocessing())
	}
	return opts
}
