package fuzz

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// fuzzEncoding maps a fuzzer byte to an encoding value: 0 is
// override.Unknown, 1 to 40 are the standard's encodings and 41 to 49 are
// values that name no encoding, which every option must ignore.
func fuzzEncoding(b uint8) override.Encoding { return override.Encoding(b % 50) }

// Option switches of FuzzSniff, one bit each of its flags argument.
const (
	withOverride = 1 << iota // Options.Override
	withLikely               // Options.Likely
	withDefault              // Options.Default
	withDetector             // a fixed-answer Options.Detector instead of the built-in one
	noAutodetect             // Options.NoAutodetect
	legacyLabels             // Options.Legacy
	atEOF                    // Options.AtEOF
	withLocale               // Options.Locale and Options.TLD
)

// fixedDetector answers enc, ok and records the length of the prefix it
// was shown.
type fixedDetector struct {
	enc  override.Encoding
	ok   bool
	seen *int
}

func (d fixedDetector) Detect(prefix []byte) (override.Encoding, bool) {
	*d.seen = len(prefix)
	return d.enc, d.ok
}

// isUTF8 reports whether prefix is valid UTF-8 with at least one
// non-ASCII character, where, unless atEOF, a character cut off at the
// very end is forgiven if what there is of it is a valid start. UTF-8 has
// a highly detectable bit pattern: such a prefix must be detected as
// UTF-8 (unless its zero bytes make it UTF-16).
func isUTF8(prefix []byte, atEOF bool) bool {
	nonASCII := false
	for i := 0; i < len(prefix); {
		r, n := utf8.DecodeRune(prefix[i:])
		if r == utf8.RuneError && n == 1 {
			// Invalid, or a valid start cut off by the end.
			return !atEOF && !utf8.FullRune(prefix[i:]) && nonASCII
		}
		if n > 1 {
			nonASCII = true
		}
		i += n
	}
	return nonASCII
}

// detectable is the set of encodings the built-in autodetection may
// answer: those a browser detects (see package detect).
var detectable = map[override.Encoding]bool{
	override.UTF8: true, override.Windows874: true, override.ISO8859_2: true, override.ISO8859_5: true,
	override.ISO8859_6: true, override.ISO8859_7: true, override.ISO8859_8: true, override.ISO8859_13: true,
	override.KOI8R: true, override.KOI8U: true, override.IBM866: true, override.ShiftJIS: true,
	override.EUCJP: true, override.ISO2022JP: true, override.EUCKR: true, override.GBK: true,
	override.GB18030: true, override.Big5: true, override.UTF16BE: true, override.UTF16LE: true,
	override.Windows1250: true, override.Windows1251: true, override.Windows1252: true, override.Windows1253: true,
	override.Windows1254: true, override.Windows1255: true, override.Windows1256: true, override.Windows1257: true,
	override.Windows1258: true,
}

// builtinDetect is the built-in autodetection as sniff.Options documents
// it: a fresh detect.Detector fed the whole prefix (as the last chunk at EOF),
// whose guess counts when it rests on evidence. The hint is the locale
// as a language and the TLD, or, for a locale that starts with a dot, the
// locale as a TLD unless a TLD is given. A fresh detector here against
// sniff's pooled ones also checks that a reused detector keeps nothing of
// its last input.
func builtinDetect(in []byte, locale, tld string, atEOF bool) (override.Encoding, bool) {
	hint := detect.Hint{Language: locale, TLD: tld}
	if strings.HasPrefix(locale, ".") {
		hint = detect.Hint{TLD: locale}
		if tld != "" {
			hint.TLD = tld
		}
	}
	d := detect.New()
	d.Feed(in, atEOF)
	e, c := d.Guess(hint)
	return e, c > detect.NoEvidence
}

// specNames is the set of the canonical names of the standard's encodings.
func specNames(tb testing.TB) map[string]bool {
	names := map[string]bool{}
	for _, name := range loadLabels(tb) {
		names[name] = true
	}
	return names
}

// FuzzSniff checks sniff.Sniff against the precedence of the HTML
// Standard's encoding sniffing algorithm, computed from independent oracles:
// the byte order mark bytes; the override; the Content-Type charset by the
// literal Fetch transcription (reference.ContentTypeCharset) and label
// lookup; the literal prescan (reference.Prescan); the likely encoding; the
// autodetection (a fresh detect.Detector, or a fixed-answer Detector); and
// the default (Default, else the locale's, else the TLD's, else
// windows-1252). The built-in autodetection must answer an encoding a
// browser detects, and UTF-8 for valid UTF-8 with a non-ASCII character.
// The fuzzer picks the bytes, the header, every option and the window.
// Whatever the input, Sniff must not panic and must answer one of the 40
// encodings of the standard (never UTF-7, UTF-32, EBCDIC and the like,
// which have no value), certain exactly for a BOM, an override or the
// transport layer, with a BOM length only for a BOM.
func FuzzSniff(f *testing.F) {
	cts := append([]string{"text/html; charset=shift_jis"}, nastyContentTypes...)
	for i, in := range html5libInputs(f) {
		f.Add(in, cts[i%len(cts)], "", "", uint8(i), uint8(i*7), uint8(i*13), uint8(i*3), int16(0), uint8(i*37))
	}
	for i, in := range testutil.SamplePages(f) {
		f.Add(in, "", "ja", "", uint8(0), uint8(0), uint8(0), uint8(0), int16(0), uint8(0))
		f.Add(in, cts[i%len(cts)], "ru", "example.cz", uint8(1), uint8(2), uint8(3), uint8(4), int16(i*100), uint8(1<<i))
	}
	for i, s := range nastyInputs {
		f.Add([]byte(s), cts[i%len(cts)], ".tw", []string{"", "jp", ".ru"}[i%3], uint8(i), uint8(i+1), uint8(i+2), uint8(i+3), int16(i%7-1), uint8(i))
	}
	f.Add([]byte("\xEF\xBB\xBF<meta charset=gbk>"), "text/html; charset=big5", "", "", uint8(5), uint8(0), uint8(0), uint8(0), int16(0), uint8(withOverride))
	f.Add([]byte("<meta charset=gbk>"), "text/html; charset=utf-16", "", "", uint8(0), uint8(0), uint8(0), uint8(0), int16(0), uint8(0))
	f.Add([]byte("caf\xC3\xA9"), "", "", "", uint8(0), uint8(36), uint8(0), uint8(0), int16(0), uint8(withLikely))
	f.Add([]byte("caf\xC3"), "", "", "", uint8(0), uint8(0), uint8(0), uint8(0), int16(0), uint8(atEOF))

	names := specNames(f)
	f.Fuzz(func(t *testing.T, in []byte, ct, locale, tld string, ov, likely, def, det uint8, w int16, flags uint8) {
		opts := sniff.Options{
			ContentType:  ct,
			Window:       int(w),
			NoAutodetect: flags&noAutodetect != 0,
			Legacy:       flags&legacyLabels != 0,
			AtEOF:        flags&atEOF != 0,
		}
		if flags&withOverride != 0 {
			opts.Override = fuzzEncoding(ov)
		}
		if flags&withLikely != 0 {
			opts.Likely = fuzzEncoding(likely)
		}
		if flags&withDefault != 0 {
			opts.Default = fuzzEncoding(def)
		}
		if flags&withLocale != 0 {
			opts.Locale, opts.TLD = locale, tld
		}
		seen := -1
		if flags&withDetector != 0 {
			opts.Detector = fixedDetector{enc: fuzzEncoding(det), ok: det&0x80 == 0, seen: &seen}
		}
		got := sniff.Sniff(in, &opts)
		desc := func() string {
			return "Sniff(" + strings.ReplaceAll(string(in), "\n", `\n`) + ", " + ct + ")"
		}

		// What any answer must be.
		if !got.Encoding.Valid() || !names[got.Encoding.Name()] {
			t.Fatalf("%s = %+v: not an encoding of the standard", desc(), got)
		}
		for _, bad := range forbiddenNames {
			if strings.EqualFold(got.Name(), bad) {
				t.Fatalf("%s = %+v: a forbidden encoding", desc(), got)
			}
		}
		certain := got.Source == sniff.SourceBOM || got.Source == sniff.SourceOverride || got.Source == sniff.SourceTransport
		if (got.Confidence == sniff.Certain) != certain {
			t.Fatalf("%s = %+v: confidence does not match the source", desc(), got)
		}
		if (got.BOMLength != 0) != (got.Source == sniff.SourceBOM) {
			t.Fatalf("%s = %+v: BOM length does not match the source", desc(), got)
		}

		want := expectedSniff(in, &opts)
		if got != want {
			t.Fatalf("%s with %+v\ngot  %+v\nwant %+v", desc(), opts, got, want)
		}
		if got.Source == sniff.SourceAutodetect && opts.Detector == nil {
			if !detectable[got.Encoding] {
				t.Fatalf("%s = %+v: the built-in autodetection answered an encoding browsers do not detect", desc(), got)
			}
			if isUTF8(in, opts.AtEOF) && got.Encoding != override.UTF8 && !got.Encoding.IsUTF16() {
				t.Fatalf("%s = %+v: valid UTF-8 not detected as UTF-8", desc(), got)
			}
		}
		if flags&withDetector != 0 && (got.Source == sniff.SourceAutodetect || got.Source == sniff.SourceDefault) && !opts.NoAutodetect && seen != len(in) {
			t.Fatalf("%s: the Detector saw %d bytes, want all %d", desc(), seen, len(in))
		}

		// Sniff does not allocate (except with Legacy, for long labels).
		if !opts.Legacy && len(in)%8 == 3 {
			if a := allocsPerCall(func() { sniff.Sniff(in, &opts) }); a != 0 {
				t.Fatalf("%s allocated %v times, want 0", desc(), a)
			}
		}
	})
}

// expectedSniff computes the answer of the sniffing algorithm step by step
// from independent oracles.
func expectedSniff(in []byte, o *sniff.Options) sniff.Result {
	lookup := override.Lookup[string]
	if o.Legacy {
		lookup = override.LookupLegacy[string]
	}
	// 1. BOM sniffing.
	for _, bom := range []struct {
		bytes string
		enc   override.Encoding
	}{{"\xEF\xBB\xBF", override.UTF8}, {"\xFE\xFF", override.UTF16BE}, {"\xFF\xFE", override.UTF16LE}} {
		if bytes.HasPrefix(in, []byte(bom.bytes)) {
			return sniff.Result{Encoding: bom.enc, Confidence: sniff.Certain, Source: sniff.SourceBOM, BOMLength: len(bom.bytes)}
		}
	}
	// 2. The user override.
	if o.Override.Valid() {
		return sniff.Result{Encoding: o.Override, Confidence: sniff.Certain, Source: sniff.SourceOverride}
	}
	// 4. The transport layer: Fetch's literal charset extraction, then
	// get an encoding.
	if cs, ok := reference.ContentTypeCharset(o.ContentType); ok {
		if e, ok := lookup(cs); ok {
			return sniff.Result{Encoding: e, Confidence: sniff.Certain, Source: sniff.SourceTransport}
		}
	}
	// 5. The prescan, by the literal reference.
	window := o.Window
	if window == 0 {
		window = sniff.DefaultWindow
	}
	switch p := reference.Prescan(in, window, o.Legacy); p.Source {
	case "meta":
		return sniff.Result{Encoding: p.Encoding, Source: sniff.SourcePrescan, End: p.Offset}
	case "xml", "utf-16 xml":
		return sniff.Result{Encoding: p.Encoding, Source: sniff.SourceXML, End: p.Offset}
	case "":
	default:
		panic("unknown reference source " + p.Source)
	}
	// 6-7. The likely encoding, never UTF-16.
	if o.Likely.Valid() && !o.Likely.IsUTF16() {
		return sniff.Result{Encoding: o.Likely, Source: sniff.SourceLikely}
	}
	// 8. Autodetection.
	if !o.NoAutodetect {
		if d, ok := o.Detector.(fixedDetector); ok {
			if d.ok && d.enc.Valid() {
				return sniff.Result{Encoding: d.enc, Source: sniff.SourceAutodetect}
			}
		} else if e, ok := builtinDetect(in, o.Locale, o.TLD, o.AtEOF); ok {
			return sniff.Result{Encoding: e, Source: sniff.SourceAutodetect}
		}
	}
	// 9. The default.
	switch {
	case o.Default.Valid():
		return sniff.Result{Encoding: o.Default}
	case o.Locale != "":
		return sniff.Result{Encoding: sniff.DefaultEncoding(o.Locale)}
	case o.TLD != "":
		// The default of the TLD or host name, which DefaultEncoding
		// gives for a name with a leading dot.
		return sniff.Result{Encoding: sniff.DefaultEncoding("." + o.TLD)}
	}
	return sniff.Result{Encoding: override.Windows1252}
}
