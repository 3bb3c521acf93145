package decode_test

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/firsterr"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// TestPreprocessing covers each preprocessing step and its switch.
func TestPreprocessing(t *testing.T) {
	tests := []struct {
		desc string
		in   string
		opts []decode.Option
		want string
	}{
		{"CRLF", "a\r\nb", nil, "a\nb"},
		{"lone CR", "a\rb\r", nil, "a\nb\n"},
		{"CR CR LF", "a\r\r\nb", nil, "a\n\nb"},
		{"LF CR", "a\n\rb", nil, "a\n\nb"},
		{"CRLF LF", "\r\n\n", nil, "\n\n"},
		{"NUL", "a\x00b", nil, "a\uFFFDb"},
		{"CR NUL LF", "\r\x00\n", nil, "\n\uFFFD\n"},
		{"UTF-8 BOM", "\xEF\xBB\xBFa", nil, "a"},
		{"only one BOM", "\xEF\xBB\xBF\xEF\xBB\xBFa", nil, "\uFEFFa"},
		{"BOM only", "\xEF\xBB\xBF", nil, ""},
		{"UTF-16LE BOM", "\xFF\xFEa\x00\r\x00\n\x00", nil, "a\n"},
		{"UTF-16BE BOM", "\xFE\xFF\x00a\x00\r", nil, "a\n"},
		{"UTF-16LE BOM, odd end", "\xFF\xFEa\x00b", nil, "a\uFFFD"},
		{"partial BOM is data", "\xEF\xBBa", []decode.Option{noAutodetect}, "\u00EF\u00BBa"},
		{"raw keeps newlines", "a\r\nb\rc", []decode.Option{decode.WithoutPreprocessing()}, "a\r\nb\rc"},
		{"raw keeps NUL", "a\x00b", []decode.Option{decode.WithoutPreprocessing()}, "a\x00b"},
		{"raw removes the UTF-16 BOM", "\xFF\xFEa\x00", []decode.Option{decode.WithoutPreprocessing()}, "a"},
		{"raw", "\xEF\xBB\xBFa\r\n\x00", []decode.Option{decode.WithoutPreprocessing()}, "a\r\n\x00"},
		{"windows-1252 CRLF", "caf\xE9\r\n\x80", []decode.Option{withDefault("windows-1252"), noAutodetect}, "caf\u00E9\n\u20AC"},
		{"windows-1252 keep CR", "\xE9\r\n", []decode.Option{withDefault("windows-1252"), noAutodetect, decode.WithoutPreprocessing()}, "\u00E9\r\n"},
		{"UTF-16 CR split from LF by text", "\xFF\xFE\r\x00x\x00\n\x00", nil, "\nx\n"},
		{"gb18030 U+FEFF is text", "\x84\x31\x95\x33a", []decode.Option{withOverride("gb18030")}, "\uFEFFa"},
		{"UTF-8 BOM under WithEncoding(utf-8)", "\xEF\xBB\xBFa", []decode.Option{withEncoding("utf-8")}, "a"},
		{"UTF-8 BOM under WithEncoding(windows-1252)", "\xEF\xBB\xBFa", []decode.Option{withEncoding("windows-1252")}, "\u00EF\u00BB\u00BFa"},
		{"UTF-16LE BOM under WithEncoding(utf-16be)", "\xFF\xFE\x00a", []decode.Option{withEncoding("utf-16be")}, "\uFFFEa"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			for _, size := range []int{1, 2, 100} {
				r, err := decode.NewReader(testutil.ChunkReader([]byte(tc.in), size), tc.opts...)
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(r)
				if string(got) != tc.want || err != nil {
					t.Errorf("chunks of %d: got %q, %v, want %q", size, got, err, tc.want)
				}
			}
		})
	}
}

// TestResult checks the decision a Reader reports and uses.
func TestResult(t *testing.T) {
	tests := []struct {
		desc string
		in   string
		opts []decode.Option
		want sniff.Result
	}{
		{"default", "abc", nil, sniff.Result{Encoding: override.Windows1252, Confidence: sniff.Tentative, Source: sniff.SourceDefault}},
		{"UTF-8 BOM", "\xEF\xBB\xBFabc", nil, sniff.Result{Encoding: override.UTF8, Confidence: sniff.Certain, Source: sniff.SourceBOM, BOMLength: 3}},
		{"UTF-16BE BOM", "\xFE\xFF", nil, sniff.Result{Encoding: override.UTF16BE, Confidence: sniff.Certain, Source: sniff.SourceBOM, BOMLength: 2}},
		{"override", "abc", []decode.Option{withOverride("sjis")}, sniff.Result{Encoding: override.ShiftJIS, Confidence: sniff.Certain, Source: sniff.SourceOverride}},
		{"BOM beats override", "\xFF\xFEa\x00", []decode.Option{withOverride("sjis")}, sniff.Result{Encoding: override.UTF16LE, Confidence: sniff.Certain, Source: sniff.SourceBOM, BOMLength: 2}},
		{"WithEncoding ignores the BOM", "\xFF\xFEa\x00", []decode.Option{withEncoding("koi8-r")}, sniff.Result{Encoding: override.KOI8R, Confidence: sniff.Certain, Source: sniff.SourceOverride}},
		{"default option", "abc", []decode.Option{withDefault("EUC-KR")}, sniff.Result{Encoding: override.EUCKR, Confidence: sniff.Tentative, Source: sniff.SourceDefault}},
		{"legacy label", "<meta charset=ISO_8859-1:1987>", []decode.Option{decode.WithSniff(sniff.Options{Legacy: true})}, sniff.Result{Encoding: override.Windows1252, Confidence: sniff.Tentative, Source: sniff.SourcePrescan, End: 30}},
		{"merged", "abc", []decode.Option{withContentType("text/html; charset=koi8-r"), withDefault("gbk"), withContentType("")}, sniff.Result{Encoding: override.KOI8R, Confidence: sniff.Certain, Source: sniff.SourceTransport}},
		{"merged, later wins", "abc", []decode.Option{withContentType("text/html; charset=koi8-r"), withContentType("text/html; charset=gbk")}, sniff.Result{Encoding: override.GBK, Confidence: sniff.Certain, Source: sniff.SourceTransport}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r, err := decode.NewReader(strings.NewReader(tc.in), tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			io.ReadAll(r)
			if got := r.Result().Result; got != tc.want {
				t.Errorf("Result() = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestWindow checks how much NewReader reads before it decides.
func TestWindow(t *testing.T) {
	tests := []struct {
		desc string
		opts []decode.Option
		want int64 // bytes read
	}{
		{"default", nil, 1024},
		{"WithWindow(100)", []decode.Option{withWindow(100)}, 100},
		{"WithWindow(1)", []decode.Option{withWindow(1)}, 3},
		{"WithWindow(10000)", []decode.Option{withWindow(10000)}, 10000},
		{"WithOverride", []decode.Option{withOverride("utf-8")}, 3},
		{"WithEncoding", []decode.Option{withEncoding("utf-8")}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			src := &firsterr.Reader{R: iotest.HalfReader(strings.NewReader(strings.Repeat("a", 20000)))}
			r, err := decode.NewReader(src, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if src.N != tc.want {
				t.Errorf("NewReader read %d bytes, want %d", src.N, tc.want)
			}
			got, err := io.ReadAll(r)
			if len(got) != 20000 || err != nil {
				t.Errorf("ReadAll = %d bytes, %v, want 20000, nil", len(got), err)
			}
		})
	}
}

// TestBadOption checks that WithEncoding of an invalid encoding fails
// NewReader and Reset, and that a failed Reset leaves the Reader as it was.
func TestBadOption(t *testing.T) {
	if r, err := decode.NewReader(strings.NewReader("x"), decode.WithEncoding(override.Unknown)); r != nil || err == nil {
		t.Errorf("NewReader(WithEncoding(Unknown)) = %v, %v, want nil, an error", r, err)
	}
}

// TestReset checks that a reset Reader sniffs and decodes the new source
// afresh.
func TestReset(t *testing.T) {
	r, err := decode.NewReader(strings.NewReader("\xEF\xBB\xBFa\r"))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1)
	r.Read(buf) // leave state behind: read-ahead, a pending CR
	for _, tc := range []struct {
		in, want string
		enc      override.Encoding
	}{
		{"\nb\xE9", "\nb\u00E9", override.Windows1252},
		{"\xFF\xFEx\x00", "x", override.UTF16LE},
		{"\xEF\xBB\xBF\xE2\x82\xAC", "\u20AC", override.UTF8},
		{"\xFF\xFEy\x00", "y", override.UTF16LE},
	} {
		if err := r.Reset(strings.NewReader(tc.in)); err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if string(got) != tc.want || err != nil || r.Result().Encoding != tc.enc {
			t.Errorf("after Reset(%q): got %q, %v, %v, want %q, %v", tc.in, got, err, r.Result().Encoding, tc.want, tc.enc)
		}
	}
}

// TestReadRuneThenRead mixes ReadRune, Read and WriteTo on one stream.
func TestReadRuneThenRead(t *testing.T) {
	in := "\xE9t\xE9\r\n\x00\x80" + strings.Repeat("x", 5000) + "\xE9"
	want := "\u00E9t\u00E9\n\uFFFD\u20AC" + strings.Repeat("x", 5000) + "\u00E9"
	r, _ := decode.NewReader(strings.NewReader(in), withEncoding("windows-1252"))
	var got []byte
	for range 3 {
		c, size, err := r.ReadRune()
		if err != nil || size != len(string(c)) {
			t.Fatalf("ReadRune = %q, %d, %v", c, size, err)
		}
		got = append(got, string(c)...)
	}
	buf := make([]byte, 1)
	n, _ := r.Read(buf)
	got = append(got, buf[:n]...)
	c, _, _ := r.ReadRune()
	got = append(got, string(c)...)
	var rest bytes.Buffer
	r.WriteTo(&rest)
	got = append(got, rest.Bytes()...)
	if string(got) != want {
		t.Errorf("got %q..., want %q...", got[:20], want[:20])
	}
	if c, size, err := r.ReadRune(); c != 0 || size != 0 || err != io.EOF {
		t.Errorf("ReadRune at the end = %q, %d, %v, want 0, 0, EOF", c, size, err)
	}
}

// TestWriteToErrors checks that WriteTo reports the writer's errors.
func TestWriteToErrors(t *testing.T) {
	r, _ := decode.NewReader(strings.NewReader(strings.Repeat("abc", 1000)))
	n, err := r.WriteTo(failWriter{})
	if n != 0 || err != errBroken {
		t.Errorf("WriteTo(failing writer) = %d, %v, want 0, %v", n, err, errBroken)
	}
	r, _ = decode.NewReader(strings.NewReader(strings.Repeat("abc", 1000)))
	n, err = r.WriteTo(shortWriter{})
	if n != 1 || err != io.ErrShortWrite {
		t.Errorf("WriteTo(short writer) = %d, %v, want 1, %v", n, err, io.ErrShortWrite)
	}
}

type failWriter struct{}

func (failWriter) Write(p []byte) (int, error) { return 0, errBroken }

type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return 1, nil }

// TestNewTransformer checks NewTransformer's nil result and its Reset.
func TestNewTransformer(t *testing.T) {
	if tr := decode.NewTransformer(override.Unknown); tr != nil {
		t.Errorf("NewTransformer(Unknown) = %v, want nil", tr)
	}
	tr := decode.NewTransformer(override.UTF8)
	dst := make([]byte, 10)
	if n, m, err := tr.Transform(dst, []byte("a\r"), false); string(dst[:n]) != "a\n" || m != 2 || err != nil {
		t.Errorf("Transform = %q, %d, %v", dst[:n], m, err)
	}
	tr.Reset()
	if n, _, _ := tr.Transform(dst, []byte("\nb"), true); string(dst[:n]) != "\nb" {
		t.Errorf("after Reset, Transform = %q, want %q (no CR pending)", dst[:n], "\nb")
	}
}

// TestResetOptions reuses one Reader across documents and option sets, in an
// order that grows and shrinks the window and the lookahead, and checks each stream against a new Reader
// with the same options.
func TestResetOptions(t *testing.T) {
	late := "<!DOCTYPE html><title>t</title>" + strings.Repeat("<p>filler</p>\n", 100) +
		"<meta charset=windows-1251><p>\xCF\xF0\xE8\xE2\xE5\xF2\r\n"
	docs := []string{
		"<meta charset=koi8-r><p>\xF0\xD2\xC9\xD7\xC5\xD4",
		"\xEF\xBB\xBF<p>caf\xC3\xA9\r\nx\x00y",
		late,
		"<p>\x93\x66\x96\x7B\x8C\xEA</p>",
		"\xFF\xFEa\x00\r\x00\n\x00",
		strings.Repeat("<p>filler</p>\n", 360) + "<meta charset=koi8-r><p>\xF0\xD2\xC9\xD7\xC5\xD4",
	}
	optSets := []struct {
		desc string
		opts []decode.Option
	}{
		{"none", nil},
		{"content type", []decode.Option{withContentType("text/html; charset=shift_jis")}},
		{"window 8192", []decode.Option{withWindow(8192)}},
		{"window only", []decode.Option{windowOnly}},
		{"raw, encoding", []decode.Option{decode.WithoutPreprocessing(), withEncoding("windows-1252")}},
		{"small lookahead", []decode.Option{decode.WithLookahead(4096)}},
		{"window 2048, locale", []decode.Option{withWindow(2048), decode.WithSniff(sniff.Options{Locale: "ru"})}},
	}
	r, err := decode.NewReader(strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		for _, set := range optSets {
			for _, doc := range docs {
				fresh, err := decode.NewReader(strings.NewReader(doc), set.opts...)
				if err != nil {
					t.Fatal(err)
				}
				want, wantErr := io.ReadAll(fresh)
				if err := r.Reset(strings.NewReader(doc), set.opts...); err != nil {
					t.Fatalf("%s: Reset: %v", set.desc, err)
				}
				got, err := io.ReadAll(r)
				if !bytes.Equal(got, want) || err != wantErr || r.Result() != fresh.Result() {
					t.Errorf("round %d, %s, %q:\ngot  %q, %v, %+v\nwant %q, %v, %+v", round, set.desc, doc,
						got, err, r.Result(), want, wantErr, fresh.Result())
				}
			}
		}
	}

	// A bad option leaves the Reader as it was.
	last := optSets[len(optSets)-1]
	if err := r.Reset(strings.NewReader("x"), decode.WithEncoding(override.Unknown)); err == nil {
		t.Fatal("Reset with an invalid encoding: got nil error")
	}
	if err := r.Reset(strings.NewReader(docs[2]), last.opts...); err != nil {
		t.Fatal(err)
	}
	fresh, _ := decode.NewReader(strings.NewReader(docs[2]), last.opts...)
	want, _ := io.ReadAll(fresh)
	if got, _ := io.ReadAll(r); !bytes.Equal(got, want) || r.Result() != fresh.Result() {
		t.Errorf("after a failed Reset: got %q, %+v, want %q, %+v (the options %s)", got, r.Result(), want, fresh.Result(), last.desc)
	}
}

// TestZeroReader checks that the zero Reader reads an empty stream and
// works once Reset gives it a source.
func TestZeroReader(t *testing.T) {
	var r decode.Reader
	if got, err := io.ReadAll(&r); len(got) != 0 || err != nil {
		t.Errorf("zero Reader: got %q, %v, want an empty stream", got, err)
	}
	if _, _, err := r.ReadRune(); err != io.EOF {
		t.Errorf("zero Reader: ReadRune error %v, want io.EOF", err)
	}
	for _, tc := range []struct {
		desc  string
		reset func(r *decode.Reader, src io.Reader) error
		want  string
	}{
		{"Reset", func(r *decode.Reader, src io.Reader) error { return r.Reset(src) }, "caf\u00e9\n"},
		{"Reset with options", func(r *decode.Reader, src io.Reader) error {
			return r.Reset(src, withContentType("text/html; charset=koi8-r"))
		}, "caf\u0418\n"},
	} {
		var r decode.Reader
		if err := tc.reset(&r, strings.NewReader("caf\xE9\r\n")); err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(&r); string(got) != tc.want || err != nil {
			t.Errorf("zero Reader after %s: got %q, %v, want %q", tc.desc, got, err, tc.want)
		}
	}
}

// TestWriteToClean checks WriteTo's path that writes clean UTF-8 straight
// from the input buffer against Read: across a late <meta> that switches
// the encoding on the fly, a byte order mark, CR LF, NUL and ill-formed
// bytes between long clean runs, and sources that return a few bytes at a
// time.
func TestWriteToClean(t *testing.T) {
	filler := strings.Repeat("<p>plain filler text, no declaration here</p>\n", 200)
	docs := []struct {
		desc string
		doc  string
		opts []decode.Option
	}{
		// After the <meta>, bytes that are valid UTF-8 and windows-1251
		// both, decoding differently.
		{"late meta", filler + "<meta charset=windows-1251>\n<p>" + strings.Repeat("\xD0\x9F\xD1\x80", 40) + "</p>\n" + filler,
			[]decode.Option{withDefault("utf-8"), noAutodetect, decode.WithLookahead(1 << 20)}},
		{"late meta after non-ASCII", "<p>\xD0\x9F</p>" + filler + "<meta charset=windows-1251>\n<p>\xCF\xF0\xE8\xE2\xE5\xF2</p>\n",
			[]decode.Option{withDefault("utf-8"), noAutodetect, decode.WithLookahead(1 << 20)}},
		{"tentative UTF-8, no meta", "<p>\xD0\x9F</p>" + filler + filler + filler + "\xD0\x9F",
			nil},
		{"BOM, CR LF, NUL, ill-formed", "\xEF\xBB\xBF" + filler + "a\r\nb\x00c\xFF\xE3\x81" + filler + "\r" + filler + "\xE3\x81\x82",
			nil},
		{"raw", "\xEF\xBB\xBF" + filler + "a\r\nb\x00c\xFF" + filler,
			[]decode.Option{withEncoding("utf-8"), decode.WithoutPreprocessing()}},
	}
	for _, d := range docs {
		for _, src := range []struct {
			desc string
			wrap func(io.Reader) io.Reader
		}{
			{"whole", func(r io.Reader) io.Reader { return r }},
			{"half", iotest.HalfReader},
			{"one byte", iotest.OneByteReader},
		} {
			want, wantCh := func() ([]byte, decode.Change) {
				r, err := decode.NewReader(src.wrap(strings.NewReader(d.doc)), d.opts...)
				if err != nil {
					t.Fatal(err)
				}
				got, err := readAll(t, r, 4096)
				if err != nil {
					t.Fatal(err)
				}
				return got, r.Result().Late
			}()
			r, err := decode.NewReader(src.wrap(strings.NewReader(d.doc)), d.opts...)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			n, err := r.WriteTo(&b)
			if err != nil || n != int64(b.Len()) || !bytes.Equal(b.Bytes(), want) || r.Result().Late != wantCh {
				t.Errorf("%s, %s: WriteTo = %d, %v, Change %+v; want %d bytes, Change %+v; output equal: %v",
					d.desc, src.desc, n, err, r.Result().Late, len(want), wantCh, bytes.Equal(b.Bytes(), want))
			}
		}
	}
}

// TestReadRuneAfterSplitRead: a Read into a 1-byte buffer returns the
// first byte of é; ReadRune then returns its second byte as U+FFFD of
// size 1, as bufio.Reader does, and the characters after it whole.
func TestReadRuneAfterSplitRead(t *testing.T) {
	r, _ := decode.NewReader(strings.NewReader("<p>\u00e9t\u00e9"))
	head := make([]byte, 3)
	if n, err := io.ReadFull(r, head); n != 3 || err != nil || string(head) != "<p>" {
		t.Fatalf("ReadFull = %d, %v, %q", n, err, head)
	}
	one := make([]byte, 1)
	if n, err := r.Read(one); n != 1 || err != nil || one[0] != 0xC3 {
		t.Fatalf("Read of 1 byte = %d, %v, %q, want the first byte of é", n, err, one[:n])
	}
	for _, want := range []struct {
		ch   rune
		size int
	}{{utf8.RuneError, 1}, {'t', 1}, {'é', 2}} {
		if ch, size, err := r.ReadRune(); ch != want.ch || size != want.size || err != nil {
			t.Errorf("ReadRune = %q, %d, %v, want %q, %d", ch, size, err, want.ch, want.size)
		}
	}
	if _, _, err := r.ReadRune(); err != io.EOF {
		t.Errorf("ReadRune at the end: %v, want io.EOF", err)
	}
}

// TestReadClean reads UTF-8 pages of up to 200 KB with Read buffers of 4 KB
// to 1 MB, from a source that returns all it can at once and from one that
// returns half: the clean text that Read takes straight from the source
// into the caller's buffer (readClean) must end at each byte that the
// preprocessing or the decoder changes, wherever it falls (the first
// bytes, a buffer's end, far past the Reader's 16 KB input buffer) and the
// bytes after it must be decoded as ever.
func TestReadClean(t *testing.T) {
	text := []byte(strings.Repeat("Grüße, 世界: a clean line of text.\n", 6000))[:200_000]
	odd := []string{"\r\n", "\r", "\x00", "\xFF", "\xE4\xB8", "\xF0\x9F\x98", "\xED\xA0\x80"}
	places := []int{0, 1, 4095, 4096, 16383, 16384, 16385, 40000, 65535, 150000, 199990}
	for _, o := range odd {
		for _, at := range places {
			in := slices.Concat(text[:at], []byte(o), text[at:])
			want := refDecode(t, override.UTF8, in, false, full, true)
			for _, size := range []int{4 << 10, 16 << 10, 64 << 10, 1 << 20} {
				for name, src := range map[string]io.Reader{
					"whole": bytes.NewReader(in),
					"half":  iotest.HalfReader(bytes.NewReader(in)),
				} {
					got, err := decodeAll(t, src, size, decode.WithEncoding(override.UTF8))
					if err != nil || !bytes.Equal(got, want) {
						t.Fatalf("%q at %d, Read %d, %s source: %d bytes, %v; want %d bytes (first difference at %d)",
							o, at, size, name, len(got), err, len(want), firstDiff(got, want))
					}
				}
			}
		}
	}
}
