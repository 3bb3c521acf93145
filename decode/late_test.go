package decode_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/decode/codec"
	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// lateCases are the html5lib cases whose only <meta> lies past byte 1024,
// which sniffing alone cannot pass (see sniff's TestHTML5lib).
var lateCases = []string{"tests1-048", "tests1-049", "tests1-050", "tests1-051", "tests1-052", "tests1-053", "tests1-054"}

// TestLateMetaHTML5lib checks that the seven cases pass through a Reader
// with the late-meta scan on (the encoding the document ends up decoded in
// is the expected one), and fail without it, as the sniffing step alone
// says they should.
func TestLateMetaHTML5lib(t *testing.T) {
	all, err := reference.ReadCases(casesPath)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]reference.Case{}
	for _, c := range all {
		cases[c.ID] = c
	}
	for _, id := range lateCases {
		c, ok := cases[id]
		if !ok {
			t.Fatalf("case %s missing", id)
		}
		want, _ := override.Lookup(c.Encoding)
		t.Run(id, func(t *testing.T) {
			// Off: the sniffing decision stays (windows-1252, the default,
			// when autodetection is off; with it, whatever it guessed).
			for _, opts := range [][]decode.Option{{decode.WithoutAutodetect()}, nil} {
				r, _ := decode.NewReader(bytes.NewReader(c.Input), opts...)
				if _, err := io.ReadAll(r); err != nil {
					t.Fatal(err)
				}
				if got := r.Encoding(); got == want || got != r.Result().Encoding {
					t.Errorf("off (%d options): Encoding() = %v, want the sniffed %v, not %v", len(opts), got, r.Result().Encoding, want)
				}
				if len(opts) == 1 && r.Encoding() != override.Windows1252 {
					t.Errorf("off, no autodetection: Encoding() = %v, want windows-1252", r.Encoding())
				}
				if got := r.Change().Kind; got != decode.NoChange {
					t.Errorf("off: Change().Kind = %v, want none", got)
				}
			}
			// On: the late-meta scan finds the declaration.
			ref := refDecode(t, want, c.Input, false, full, true)
			for _, opts := range [][]decode.Option{
				{decode.WithLateMeta(1 << 20), decode.WithAutoRestart()},
				{decode.WithLateMeta(1 << 20), decode.WithRestartBuffer(1 << 20)},
				{decode.WithLateMeta(1 << 20)},
			} {
				r, _ := decode.NewReader(bytes.NewReader(c.Input), opts...)
				got, err := io.ReadAll(r)
				if err != nil {
					t.Fatal(err)
				}
				ch := r.Change()
				if ch.Kind == decode.RestartNeeded {
					if len(opts) == 1 {
						continue // no bytes kept: a restart is impossible
					}
					if err := r.Restart(); err != nil {
						t.Fatalf("Restart: %v", err)
					}
					if got, err = io.ReadAll(r); err != nil {
						t.Fatal(err)
					}
				}
				if r.Encoding() != want || !bytes.Equal(got, ref) || !ch.Late || r.Confidence() != sniff.Certain {
					t.Errorf("on (%d options): Encoding() = %v, Change() = %+v, output equal: %v, want %v, late, certain",
						len(opts), r.Encoding(), ch, bytes.Equal(got, ref), want)
				}
			}
		})
	}
}

const casesPath = "../testdata/html5lib-encoding/cases.jsonl"

// asciiPage is a page of ASCII text with no declaration.
const asciiPage = "<!doctype html><title>x</title><p>" + "abcdefghijklmnopqrstuvwxyz0123456789 " + "abcdefghijklmnopqrstuvwxyz0123456789 "

// longASCII is more ASCII than a Reader decodes ahead of its output.
var longASCII = strings.Repeat("<p>ASCII text\r\n", 300)

// TestChangeEncodingSteps runs each step of the standard's "change the
// encoding" through Reader.ChangeEncoding, called after reading some
// output.
func TestChangeEncodingSteps(t *testing.T) {
	noAuto := decode.WithoutAutodetect()
	tests := []struct {
		desc     string
		in       string
		opts     []decode.Option
		read     int    // bytes of output read before the call
		label    string // asked for
		kind     decode.ChangeKind
		from, to override.Encoding
		offset   int64 // -1: not checked
	}{
		{"certain: BOM", "\xEF\xBB\xBF" + asciiPage, nil, 10, "shift_jis", decode.IgnoredCertain, override.UTF8, override.ShiftJIS, 13},
		{"certain: override", asciiPage, []decode.Option{decode.WithOverride("koi8-r")}, 10, "shift_jis", decode.IgnoredCertain, override.KOI8R, override.ShiftJIS, 10},
		{"certain: transport", asciiPage, []decode.Option{decode.WithContentType("text/html; charset=koi8-r")}, 0, "shift_jis", decode.IgnoredCertain, override.KOI8R, override.ShiftJIS, 0},
		{"step 1: UTF-16LE in use", "<\x00?\x00x\x00m\x00l\x00", nil, 0, "shift_jis", decode.IgnoredUTF16, override.UTF16LE, override.ShiftJIS, 0},
		{"step 1: UTF-16BE in use, UTF-16LE asked", "\x00<\x00?\x00x\x00m\x00l", nil, 4, "utf-16le", decode.IgnoredUTF16, override.UTF16BE, override.UTF16LE, -1},
		{"step 2: UTF-16BE becomes UTF-8", asciiPage, []decode.Option{noAuto}, 10, "utf-16be", decode.SwitchedOnTheFly, override.Windows1252, override.UTF8, 10},
		{"step 2: UTF-16 becomes UTF-8, the same", "<meta charset=utf-8>" + asciiPage, nil, 10, "utf-16", decode.SameEncoding, override.UTF8, override.UTF8, 10},
		{"step 3: x-user-defined becomes windows-1252, the same", asciiPage, []decode.Option{noAuto}, 10, "x-user-defined", decode.SameEncoding, override.Windows1252, override.Windows1252, 10},
		{"step 3: x-user-defined becomes windows-1252", "<meta charset=koi8-r>" + asciiPage, nil, 30, "x-user-defined", decode.SwitchedOnTheFly, override.KOI8R, override.Windows1252, 30},
		{"step 4: the same by another label", asciiPage, []decode.Option{noAuto}, 10, "latin1", decode.SameEncoding, override.Windows1252, override.Windows1252, 10},
		{"step 5: nothing decoded yet", "caf\xE9 " + asciiPage, []decode.Option{noAuto}, 0, "utf-8", decode.SwitchedOnTheFly, override.Windows1252, override.UTF8, 0},
		{"step 5: ASCII decoded", asciiPage + "caf\xC3\xA9", []decode.Option{noAuto}, 20, "utf-8", decode.SwitchedOnTheFly, override.Windows1252, override.UTF8, 20},
		{"step 5: ASCII decoded, multi-byte to multi-byte", asciiPage + longASCII + "\xA4\xA2", []decode.Option{decode.WithDefault("shift_jis"), noAuto}, 20, "euc-jp", decode.SwitchedOnTheFly, override.ShiftJIS, override.EUCJP, -1},
		{"step 5: multi-byte to UTF-8", asciiPage + longASCII + "\xE3\x81\x82", []decode.Option{decode.WithDefault("big5"), noAuto}, 4, "utf-8", decode.SwitchedOnTheFly, override.Big5, override.UTF8, -1},
		{"step 5: GBK to gb18030 after non-ASCII", "<meta charset=gbk>\xD6\xD0\xCE\xC4" + asciiPage + "\x81\x30\x81\x30", nil, 22, "gb18030", decode.SwitchedOnTheFly, override.GBK, override.GB18030, -1},
		{"step 6: non-ASCII decoded", "caf\xE9 " + asciiPage, []decode.Option{noAuto}, 20, "utf-8", decode.RestartNeeded, override.Windows1252, override.UTF8, -1},
		{"step 6: multi-byte after non-ASCII", "\x82\xA0" + asciiPage, []decode.Option{decode.WithDefault("shift_jis"), noAuto}, 20, "euc-jp", decode.RestartNeeded, override.ShiftJIS, override.EUCJP, -1},
		{"step 6: ISO-2022-JP in use", asciiPage, []decode.Option{decode.WithDefault("iso-2022-jp"), noAuto}, 10, "shift_jis", decode.RestartNeeded, override.ISO2022JP, override.ShiftJIS, -1},
		{"step 6: to ISO-2022-JP", asciiPage, []decode.Option{noAuto}, 10, "iso-2022-jp", decode.RestartNeeded, override.Windows1252, override.ISO2022JP, 10},
		{"step 6: to replacement", asciiPage, []decode.Option{noAuto}, 10, "iso-2022-kr", decode.RestartNeeded, override.Windows1252, override.Replacement, 10},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			in := []byte(tc.in)
			r, err := decode.NewReader(bytes.NewReader(in), tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			sniffed := r.Result()
			head := make([]byte, tc.read)
			if _, err := io.ReadFull(r, head); err != nil {
				t.Fatal(err)
			}
			got, err := r.ChangeEncoding(tc.label)
			if err != nil {
				t.Fatal(err)
			}
			want := decode.ChangeResult{Kind: tc.kind, From: tc.from, To: tc.to, Offset: got.Offset}
			if tc.offset >= 0 {
				want.Offset = tc.offset
			}
			if got != want {
				t.Fatalf("ChangeEncoding(%q) = %+v, want %+v", tc.label, got, want)
			}
			if r.Result() != sniffed {
				t.Errorf("Result() = %+v, want the sniffing's %+v", r.Result(), sniffed)
			}
			if r.Confidence() != sniff.Certain {
				t.Errorf("Confidence() = %v, want certain", r.Confidence())
			}
			wantEnc := tc.from
			if tc.kind == decode.SwitchedOnTheFly {
				wantEnc = tc.to
			}
			if r.Encoding() != wantEnc {
				t.Errorf("Encoding() = %v, want %v", r.Encoding(), wantEnc)
			}
			rest, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			out := append(head, rest...)
			// The output: the bytes before the change in the old encoding,
			// the rest in the new one (the old one for the other kinds).
			var ref []byte
			if tc.kind == decode.SwitchedOnTheFly {
				ref = append(refDecode(t, tc.from, in[:got.Offset], true, full, true), refDecode(t, tc.to, in[got.Offset:], false, full, true)...)
			} else {
				ref = refDecode(t, tc.from, in, true, full, true)
			}
			if !bytes.Equal(out, ref) {
				t.Errorf("output:\ngot  %q\nwant %q", out, ref)
			}
			// A second change finds the confidence certain; Change keeps
			// the first.
			if tc.kind != decode.IgnoredCertain {
				again, _ := r.ChangeEncoding("koi8-u")
				if again.Kind != decode.IgnoredCertain || r.Change() != got {
					t.Errorf("second change = %+v, Change() = %+v, want ignored-certain and %+v", again, r.Change(), got)
				}
			} else if r.Change().Kind != decode.NoChange {
				t.Errorf("Change() = %+v, want none", r.Change())
			}
		})
	}
}

// TestChangeEncodingLabels checks label errors and the encoding variant.
func TestChangeEncodingLabels(t *testing.T) {
	r, _ := decode.NewReader(strings.NewReader(asciiPage), decode.WithoutAutodetect())
	res, err := r.ChangeEncoding("no-such-encoding")
	var le *decode.LabelError
	if !errors.As(err, &le) || le.Option != "ChangeEncoding" || res.Kind != decode.NoChange {
		t.Errorf("unknown label: %+v, %v, want none and a *LabelError", res, err)
	}
	if res := r.ChangeEncodingTo(override.Unknown); res.Kind != decode.NoChange {
		t.Errorf("ChangeEncodingTo(Unknown) = %+v, want none", res)
	}
	if r.Confidence() != sniff.Tentative || r.Change().Kind != decode.NoChange {
		t.Errorf("after failed changes: %v, %+v, want tentative and none", r.Confidence(), r.Change())
	}
	if res := r.ChangeEncodingTo(override.KOI8R); res.Kind != decode.SwitchedOnTheFly {
		t.Errorf("ChangeEncodingTo(KOI8R) = %+v, want switched", res)
	}
	// WithLegacyLabels resolves the label loosely.
	r, _ = decode.NewReader(strings.NewReader(asciiPage), decode.WithoutAutodetect(), decode.WithLegacyLabels())
	if res, err := r.ChangeEncoding("Shift-JIS"); err != nil || res.To != override.ShiftJIS {
		t.Errorf("legacy label: %+v, %v, want Shift_JIS", res, err)
	}
}

// lateTexts are the non-ASCII texts of the late-declaration documents.
var lateTexts = map[string]string{
	"shift_jis":    "日本語のテキスト、「カタカナ」と漢字。",
	"euc-jp":       "日本語のテキスト、「カタカナ」と漢字。",
	"gbk":          "中文文本，简体字与标点。",
	"windows-1251": "Русский текст: кириллица, «кавычки».",
	"utf-8":        "Ünïcödé — 日本語 — Русский — ✓",
}

// encodeText returns s in e.
func encodeText(t testing.TB, e override.Encoding, s string) []byte {
	t.Helper()
	b, err := codec.Encoding(e).NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encoding %q in %v: %v", s, e, err)
	}
	return b
}

// lateDoc returns a document whose <meta charset=label> starts at byte at
// and ends at end, after a script of ASCII filler; its title is ASCII or
// text in the encoding, as asciiPrefix says, and its body is text in the
// encoding.
func lateDoc(t testing.TB, label string, at int, asciiPrefix bool) (doc []byte, end int) {
	e, _ := override.Lookup(label)
	text := encodeText(t, e, lateTexts[label])
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\r\n<html><head><title>")
	if asciiPrefix {
		b.WriteString("A plain title")
	} else {
		b.Write(text)
	}
	b.WriteString("</title>\r\n<script>\r\n")
	const closing = "</script>\r\n"
	for b.Len() < at {
		b.WriteString("// filler, no declaration here: if (a > b && c) { d(); }\r\n")
	}
	b.Truncate(at - len(closing))
	b.WriteString(closing)
	fmt.Fprintf(&b, `<meta charset="%s">`, label)
	end = b.Len()
	b.WriteString("\r\n</head><body><p>")
	b.Write(text)
	b.WriteString("\r\n")
	b.Write(text)
	b.WriteString("</p></body></html>\r\n")
	return b.Bytes(), end
}

// lateModes are the ways of reading a document with a late declaration.
var lateModes = []struct {
	desc string
	opts []decode.Option
}{
	{"off", nil},
	{"late", []decode.Option{decode.WithLateMeta(1 << 20)}},
	{"late+buffer", []decode.Option{decode.WithLateMeta(1 << 20), decode.WithRestartBuffer(1 << 20)}},
	{"late+auto", []decode.Option{decode.WithLateMeta(1 << 20), decode.WithAutoRestart()}},
}

// lateWant returns what a mode gives for a document: the change and the
// output (after a restart, if the mode can restart).
func lateWant(t testing.TB, mode string, label string, doc []byte, end int, asciiPrefix bool) (decode.ChangeResult, []byte) {
	e, _ := override.Lookup(label)
	old := override.Windows1252
	ch := decode.ChangeResult{Kind: decode.SwitchedOnTheFly, From: old, To: e, Offset: int64(end), Late: true}
	switch {
	case mode == "off":
		return decode.ChangeResult{}, refDecode(t, old, doc, false, full, true)
	case asciiPrefix:
		return ch, refDecode(t, e, doc, false, full, true)
	case mode == "late":
		ch.Kind = decode.RestartNeeded
		return ch, refDecode(t, old, doc, false, full, true)
	}
	ch.Kind = decode.Restarted
	return ch, refDecode(t, e, doc, false, full, true)
}

// readLate reads r to the end with read (restarting once if a restart is
// needed and the bytes were kept) and returns the output and the change.
func readLate(t testing.TB, r *decode.Reader, read func(testing.TB, *decode.Reader) ([]byte, error)) ([]byte, decode.ChangeResult) {
	t.Helper()
	out, err := read(t, r)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if r.Change().Kind == decode.RestartNeeded {
		if err := r.Restart(); err == nil {
			if out, err = read(t, r); err != nil {
				t.Fatalf("read after Restart: %v", err)
			}
		} else if !errors.Is(err, decode.ErrCannotRestart) {
			t.Fatalf("Restart: %v", err)
		}
	}
	return out, r.Change()
}

// readMethods read a Reader to the end in different ways.
var readMethods = []struct {
	desc string
	read func(testing.TB, *decode.Reader) ([]byte, error)
}{
	{"Read(4096)", func(t testing.TB, r *decode.Reader) ([]byte, error) { return readAll(t, r, 4096) }},
	{"Read(7)", func(t testing.TB, r *decode.Reader) ([]byte, error) { return readAll(t, r, 7) }},
	{"Read(1)", func(t testing.TB, r *decode.Reader) ([]byte, error) { return readAll(t, r, 1) }},
	{"ReadRune", func(t testing.TB, r *decode.Reader) ([]byte, error) { return runeAll(t, r) }},
	{"WriteTo", func(t testing.TB, r *decode.Reader) ([]byte, error) {
		var b bytes.Buffer
		for {
			_, err := r.WriteTo(&b)
			if !errors.Is(err, iotest.ErrTimeout) {
				return b.Bytes(), err
			}
		}
	}},
}

// TestLateMeta reads documents that declare their encoding at 1010 bytes
// (across the end of the window), 1 KB, 4 KB and 64 KB, after an ASCII or
// a non-ASCII prefix, in five encodings, in every mode, through every
// kind of source and read: the change and the output must be the same
// every time. An ASCII prefix switches on the fly and gives the document
// decoded in the declared encoding; a non-ASCII prefix needs a restart,
// which gives the same.
func TestLateMeta(t *testing.T) {
	for _, label := range []string{"shift_jis", "euc-jp", "gbk", "windows-1251", "utf-8"} {
		for _, at := range []int{1010, 1 << 10, 4 << 10, 64 << 10} {
			for _, asciiPrefix := range []bool{true, false} {
				doc, end := lateDoc(t, label, at, asciiPrefix)
				prefix := "ascii"
				if !asciiPrefix {
					prefix = "non-ascii"
				}
				t.Run(fmt.Sprintf("%s/%d/%s", label, at, prefix), func(t *testing.T) {
					for _, mode := range lateModes {
						wantCh, want := lateWant(t, mode.desc, label, doc, end, asciiPrefix)
						opts := append([]decode.Option{decode.WithoutAutodetect()}, mode.opts...)
						for _, src := range sources {
							for _, m := range readMethods {
								if at == 64<<10 && m.desc != "Read(4096)" && src.desc != "whole" {
									continue // the large document: every source or every read, not both
								}
								r, err := decode.NewReader(src.wrap(doc), opts...)
								if err != nil {
									t.Fatal(err)
								}
								got, ch := readLate(t, r, m.read)
								if ch != wantCh || !bytes.Equal(got, want) {
									t.Fatalf("%s, %s, %s: Change() = %+v, want %+v; output equal: %v", mode.desc, src.desc, m.desc, ch, wantCh, bytes.Equal(got, want))
								}
							}
						}
					}
				})
			}
		}
	}
}

// TestLateMetaAutoKnownEarly checks that with WithAutoRestart the change
// is known when NewReader returns, before any Read.
func TestLateMetaAutoKnownEarly(t *testing.T) {
	for _, asciiPrefix := range []bool{true, false} {
		doc, end := lateDoc(t, "shift_jis", 4<<10, asciiPrefix)
		r, _ := decode.NewReader(bytes.NewReader(doc), decode.WithoutAutodetect(), decode.WithLateMeta(1<<20), decode.WithAutoRestart())
		wantCh, _ := lateWant(t, "late+auto", "shift_jis", doc, end, asciiPrefix)
		if r.Change() != wantCh || r.Encoding() != override.ShiftJIS || r.Confidence() != sniff.Certain {
			t.Errorf("ascii prefix %v: after NewReader: %+v, %v, %v, want %+v, Shift_JIS, certain", asciiPrefix, r.Change(), r.Encoding(), r.Confidence(), wantCh)
		}
	}
}

// TestLateMetaSplitPoints cuts a small document with a late declaration
// (a 24-byte window) at every one and every two positions.
func TestLateMetaSplitPoints(t *testing.T) {
	sjis := encodeText(t, override.ShiftJIS, "日本語")
	for _, prefix := range []string{"<title>plain</title>", "<title>" + string(sjis) + "</title>"} {
		head := "<html><head>" + prefix + "<script>\r</script>"
		doc := []byte(head + `<meta http-equiv="Content-Type" content="text/html; charset=shift_jis">` + "\r\n<p>" + string(sjis) + "\r")
		end := int64(bytes.IndexByte(doc[len(head):], '>') + len(head) + 1)
		for _, mode := range lateModes[1:] {
			opts := append([]decode.Option{decode.WithoutAutodetect(), decode.WithWindow(24)}, mode.opts...)
			r, _ := decode.NewReader(bytes.NewReader(doc), opts...)
			want, wantCh := readLate(t, r, readMethods[0].read)
			if wantCh.Offset != end || wantCh.To != override.ShiftJIS {
				t.Fatalf("%s: Change() = %+v, want Shift_JIS at %d", mode.desc, wantCh, end)
			}
			for i := 0; i <= len(doc); i++ {
				for j := i; j <= len(doc); j++ {
					r, _ := decode.NewReader(testutil.SplitReader(doc, i, j), opts...)
					got, ch := readLate(t, r, readMethods[1].read)
					if ch != wantCh || !bytes.Equal(got, want) {
						t.Fatalf("%s, cut at %d, %d: %+v, %q, want %+v, %q", mode.desc, i, j, ch, got, wantCh, want)
					}
				}
			}
		}
	}
}

// TestLateMetaRules checks what counts as a late declaration.
func TestLateMetaRules(t *testing.T) {
	pad := strings.Repeat("x", 1100)
	meta := `<meta charset="koi8-r">`
	equiv := `<meta content="text/html;charset=koi8-r" http-equiv=content-type>`
	noEquiv := `<meta content="text/html;charset=koi8-r">`
	unknown := `<meta charset="nonesuch">`
	xml := `<?xml version="1.0" encoding="koi8-r"?>`
	w1252, koi8r := override.Windows1252, override.KOI8R
	switched := func(to override.Encoding, at string) decode.ChangeResult {
		return decode.ChangeResult{Kind: decode.SwitchedOnTheFly, From: w1252, To: to, Offset: int64(len(at)), Late: true}
	}
	tests := []struct {
		desc string
		in   string
		opts []decode.Option
		want decode.ChangeResult
	}{
		{"no declaration", asciiPage + pad, nil, decode.ChangeResult{}},
		{"late", pad + meta, nil, switched(koi8r, pad+meta)},
		{"http-equiv content-type", pad + equiv, nil, switched(koi8r, pad+equiv)},
		{"content without http-equiv does not count", pad + noEquiv + meta, nil, switched(koi8r, pad+noEquiv+meta)},
		{"unknown label does not count", pad + unknown + meta, nil, switched(koi8r, pad+unknown+meta)},
		{"in a comment does not count", pad + "<!--" + meta + "-->", nil, decode.ChangeResult{}},
		{"in an attribute value does not count", pad + "<p title='" + meta + "'>", nil, decode.ChangeResult{}},
		{"late UTF-16 becomes UTF-8", pad + `<meta charset="utf-16le">`, nil, switched(override.UTF8, pad+`<meta charset="utf-16le">`)},
		{"late x-user-defined is windows-1252", pad + `<meta charset="x-user-defined">`, nil, decode.ChangeResult{decode.SameEncoding, w1252, w1252, int64(len(pad) + 31), true}},
		{"only the first counts", pad + meta + `<meta charset="gbk">`, nil, switched(koi8r, pad+meta)},
		{"ends at the limit", pad + meta, []decode.Option{decode.WithLateMeta(int64(len(pad + meta)))}, switched(koi8r, pad+meta)},
		{"ends past the limit", pad + meta, []decode.Option{decode.WithLateMeta(int64(len(pad+meta)) - 1)}, decode.ChangeResult{}},
		{"limit inside the window", "<p>" + pad + meta, []decode.Option{decode.WithLateMeta(10)}, decode.ChangeResult{}},
		{"in the window: found again, certain", meta + pad + `<meta charset="gbk">`, nil, decode.ChangeResult{decode.SameEncoding, koi8r, koi8r, int64(len(meta)), true}},
		{"XML declaration past the window does not count", `<?xml version="1.0"` + pad + ` encoding="koi8-r"?>` + pad, nil, decode.ChangeResult{}},
		{"after an XML declaration", xml + pad + `<meta charset="gbk">`, nil, decode.ChangeResult{decode.SwitchedOnTheFly, koi8r, override.GBK, int64(len(xml + pad + `<meta charset="gbk">`)), true}},
		{"certain: transport", pad + meta, []decode.Option{decode.WithContentType("text/html;charset=gbk")}, decode.ChangeResult{}},
		{"certain: BOM", "\xEF\xBB\xBF" + pad + meta, nil, decode.ChangeResult{}},
		{"UTF-16 from the XML prefix", "<\x00?\x00x\x00" + pad + meta, nil, decode.ChangeResult{}},
		{"straddles the window", pad[:1010] + meta, nil, switched(koi8r, pad[:1010]+meta)},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			for _, auto := range []bool{false, true} {
				opts := append([]decode.Option{decode.WithoutAutodetect(), decode.WithLateMeta(1 << 20)}, tc.opts...)
				if auto {
					opts = append(opts, decode.WithAutoRestart())
				}
				r, err := decode.NewReader(iotest.HalfReader(strings.NewReader(tc.in)), opts...)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := io.ReadAll(r); err != nil {
					t.Fatal(err)
				}
				if got := r.Change(); got != tc.want {
					t.Errorf("auto %v: Change() = %+v, want %+v", auto, got, tc.want)
				}
			}
		})
	}
}

// TestRestart covers Reader.Restart: when it works, what it re-delivers,
// and when it cannot.
func TestRestart(t *testing.T) {
	doc, end := lateDoc(t, "windows-1251", 2<<10, false)
	want := refDecode(t, override.Windows1251, doc, false, full, true)
	opts := []decode.Option{decode.WithoutAutodetect(), decode.WithLateMeta(1 << 20)}

	t.Run("not needed", func(t *testing.T) {
		r, _ := decode.NewReader(bytes.NewReader(doc), append(opts, decode.WithRestartBuffer(1<<20))...)
		if err := r.Restart(); err != decode.ErrCannotRestart {
			t.Errorf("Restart before any change = %v, want ErrCannotRestart", err)
		}
	})
	t.Run("no buffer", func(t *testing.T) {
		r, _ := decode.NewReader(bytes.NewReader(doc), opts...)
		io.ReadAll(r)
		if r.Change().Kind != decode.RestartNeeded {
			t.Fatalf("Change() = %+v, want restart-needed", r.Change())
		}
		if err := r.Restart(); err != decode.ErrCannotRestart {
			t.Errorf("Restart = %v, want ErrCannotRestart", err)
		}
	})
	t.Run("buffer too small", func(t *testing.T) {
		r, _ := decode.NewReader(bytes.NewReader(doc), append(opts, decode.WithRestartBuffer(end-1))...)
		io.ReadAll(r)
		if err := r.Restart(); err != decode.ErrCannotRestart || r.Change().Kind != decode.RestartNeeded {
			t.Errorf("Restart = %v, %+v, want ErrCannotRestart", err, r.Change())
		}
	})
	t.Run("buffer just large enough", func(t *testing.T) {
		r, _ := decode.NewReader(bytes.NewReader(doc), append(opts, decode.WithRestartBuffer(len(doc)))...)
		io.ReadAll(r)
		if err := r.Restart(); err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		if !bytes.Equal(got, want) || r.Change().Kind != decode.Restarted || r.Encoding() != override.Windows1251 {
			t.Errorf("after Restart: %+v, %v, output equal: %v", r.Change(), r.Encoding(), bytes.Equal(got, want))
		}
		if err := r.Restart(); err != decode.ErrCannotRestart {
			t.Errorf("second Restart = %v, want ErrCannotRestart", err)
		}
	})
	t.Run("in the middle, output pending", func(t *testing.T) {
		// Read just past the declaration, leave a rune's bytes in the
		// Reader, restart: the document comes again from its start, and
		// the source is read on from where it was.
		src := &countReader{r: bytes.NewReader(doc)}
		r, _ := decode.NewReader(iotest.OneByteReader(src), append(opts, decode.WithRestartBuffer(1<<20))...)
		var head []byte
		for r.Change().Kind == decode.NoChange {
			c, _, err := r.ReadRune()
			if err != nil {
				t.Fatal(err)
			}
			head = append(head, string(c)...)
		}
		r.ReadRune()
		if err := r.Restart(); err != nil {
			t.Fatal(err)
		}
		got, err := readAll(t, r, 3)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("after Restart: %v, output equal: %v", err, bytes.Equal(got, want))
		}
		if src.n != len(doc) {
			t.Errorf("source read %d bytes, want %d (once)", src.n, len(doc))
		}
	})
	t.Run("source error pending", func(t *testing.T) {
		src := io.MultiReader(testutil.ErrAfter(doc[:end+10], errBroken), bytes.NewReader(doc[end+10:]))
		r, _ := decode.NewReader(src, append(opts, decode.WithRestartBuffer(1<<20))...)
		if _, err := readAll(t, r, 64); err != errBroken {
			t.Fatalf("first read: %v, want %v", err, errBroken)
		}
		if err := r.Restart(); err != nil {
			t.Fatal(err)
		}
		got, err := readAll(t, r, 64)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("after Restart: %v, output equal: %v", err, bytes.Equal(got, want))
		}
	})
}

// TestAutoRestartSourceErrors checks that a source error while reading
// ahead comes before any output, and that reading on finishes the reading
// ahead, so no restart is ever needed; an error past the declaration comes
// after the output before it, as usual.
func TestAutoRestartSourceErrors(t *testing.T) {
	doc, end := lateDoc(t, "gbk", 3<<10, false)
	want := refDecode(t, override.GBK, doc, false, full, true)
	for _, cut := range []int{0, 10, 1023, 1024, 1025, 2000, end - 1, end, len(doc) - 1} {
		src := io.MultiReader(testutil.ErrAfter(doc[:cut], errBroken), bytes.NewReader(doc[cut:]))
		r, _ := decode.NewReader(src, decode.WithoutAutodetect(), decode.WithLateMeta(1<<20), decode.WithAutoRestart())
		var got []byte
		var errs int
		for {
			b, err := readAll(t, r, 100)
			got = append(got, b...)
			if err == nil {
				break
			}
			if err != errBroken || errs > 0 {
				t.Fatalf("cut %d: %v", cut, err)
			}
			if early := len(b) == 0; early != (cut < end) {
				t.Errorf("cut %d: the error came after %d bytes of output", cut, len(b))
			}
			errs++
		}
		if !bytes.Equal(got, want) || r.Change().Kind != decode.Restarted || errs != 1 {
			t.Errorf("cut %d: %+v, %d errors, output equal: %v", cut, r.Change(), errs, bytes.Equal(got, want))
		}
	}
}

// TestLateMetaReset checks that Reset starts the change machinery afresh.
func TestLateMetaReset(t *testing.T) {
	doc, _ := lateDoc(t, "euc-jp", 2<<10, false)
	plain := []byte(asciiPage)
	r, _ := decode.NewReader(bytes.NewReader(doc), decode.WithoutAutodetect(), decode.WithLateMeta(1<<20), decode.WithAutoRestart())
	for i := range 3 {
		r.Reset(bytes.NewReader(doc))
		got, _ := io.ReadAll(r)
		if r.Change().Kind != decode.Restarted || !bytes.Equal(got, refDecode(t, override.EUCJP, doc, false, full, true)) {
			t.Errorf("round %d: %+v", i, r.Change())
		}
		r.Reset(bytes.NewReader(plain))
		got, _ = io.ReadAll(r)
		if r.Change().Kind != decode.NoChange || r.Confidence() != sniff.Tentative || string(got) != asciiPage {
			t.Errorf("round %d, plain page: %+v, %v, %q", i, r.Change(), r.Confidence(), got)
		}
	}
}

// TestLateMetaAllocs checks that reading with the late-meta scan on does
// not allocate, and that Reset and reading a document that switches or
// restarts do not either, once the Reader has its buffers.
func TestLateMetaAllocs(t *testing.T) {
	page := []byte(strings.Repeat("<p class=x>Plain text, <b>no</b> declaration.\r\n", 100))
	r, _ := decode.NewReader(&testutil.Repeat{Data: page}, decode.WithoutAutodetect(), decode.WithLateMeta(1<<40), decode.WithRestartBuffer(64<<10))
	buf := make([]byte, 1000)
	for range 100 { // past the restart buffer's limit
		r.Read(buf)
	}
	if a := testing.AllocsPerRun(100, func() { r.Read(buf) }); a != 0 {
		t.Errorf("Read: %v allocations, want 0", a)
	}
	for _, asciiPrefix := range []bool{true, false} {
		doc, _ := lateDoc(t, "shift_jis", 4<<10, asciiPrefix)
		src := bytes.NewReader(doc)
		r, _ := decode.NewReader(src, decode.WithoutAutodetect(), decode.WithLateMeta(1<<20), decode.WithAutoRestart())
		var sink discard
		r.WriteTo(&sink)
		if a := testing.AllocsPerRun(20, func() {
			src.Reset(doc)
			r.Reset(src)
			r.WriteTo(&sink)
		}); a != 0 {
			t.Errorf("ascii prefix %v: Reset and reading: %v allocations, want 0", asciiPrefix, a)
		}
	}
}

func ExampleReader_lateMeta() {
	// An ASCII page that declares its encoding after 3 KB: decoded as
	// windows-1252 until the declaration, then as Shift_JIS.
	page := "<!doctype html><script>" + strings.Repeat("/* no declaration yet */\n", 120) + "</script>" +
		`<meta charset="shift_jis"><p>` + "\x93\xfa\x96\x7b\x8c\xea"
	r, err := decode.NewReader(strings.NewReader(page), decode.WithLateMeta(64<<10))
	if err != nil {
		log.Fatal(err)
	}
	text, _ := io.ReadAll(r)
	ch := r.Change()
	fmt.Println(r.Result().Name(), r.Result().Confidence)
	fmt.Println(ch.Kind, ch.From.Name(), "->", ch.To.Name(), "at", ch.Offset)
	fmt.Println(r.Encoding().Name(), r.Confidence())
	fmt.Printf("%q\n", text[len(text)-12:])
	// Output:
	// windows-1252 tentative
	// switched windows-1252 -> Shift_JIS at 3058
	// Shift_JIS certain
	// "<p>日本語"
}
