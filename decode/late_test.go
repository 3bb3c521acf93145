package decode_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/decode/codec"
	"github.com/charsniff/charsniff/internal/firsterr"
	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// TestHTML5libByDefault checks that every html5lib encoding case passes
// through a Reader with the default options and autodetection off: the
// encoding the document ends up decoded in is the expected one (the seven
// cases whose <meta> lies past byte 1024 included), and fails for those
// seven with the window alone.
func TestHTML5libByDefault(t *testing.T) {
	cases := reference.Cases(t)
	late := 0
	for _, c := range cases {
		want, ok := override.Lookup(c.Encoding)
		if !ok {
			t.Fatalf("%s: unknown expected encoding %q", c.ID, c.Encoding)
		}
		for _, src := range chunkings {
			r, err := decode.NewReader(src.Wrap(bytes.NewReader(c.Input)), noAutodetect)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.ReadAll(r); err != nil && !errors.Is(err, iotest.ErrTimeout) {
				t.Fatal(err)
			}
			if got := r.Result().Encoding; got != want {
				t.Errorf("%s (%s): Result().Encoding = %v, want %v (%+v)", c.ID, src.Name, got, want, r.Result())
			}
		}
		r, _ := decode.NewReader(bytes.NewReader(c.Input), noAutodetect, windowOnly)
		io.ReadAll(r)
		if r.Result().Encoding != want {
			late++
		}
	}
	if late != 7 {
		t.Errorf("%d cases fail with the window alone, want the 7 with a late <meta>", late)
	}
}

// chunkings are the ways a source hands out its bytes in these tests.
var chunkings = testutil.Chunkings(5000)

// lateTexts are the non-ASCII texts of the generated pages, long enough
// for the detector to be sure.
var lateTexts = map[string]string{
	"shift_jis":    strings.Repeat("日本語のテキスト、「カタカナ」と漢字。東京の天気は晴れです。", 8),
	"euc-kr":       strings.Repeat("한국어 텍스트입니다. 서울의 날씨는 맑습니다. 오늘은 좋은 날입니다. ", 8),
	"windows-1251": strings.Repeat("Русский текст: кириллица, «кавычки». Сегодня в Москве солнечно. ", 8),
	"utf-8":        strings.Repeat("Ünïcödé — 日本語 — Русский — ✓ ", 8),
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

// page returns a generated page: an ASCII head of about head bytes (a
// script), then, if meta, <meta charset=label>, then text in label's
// encoding. It returns the page and the offset of its first non-ASCII
// byte.
func page(t testing.TB, label string, head int, meta bool) ([]byte, int) {
	e := enc(label)
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\r\n<html><head><title>A plain title</title>\r\n<script>\r\n")
	for b.Len() < head {
		b.WriteString("// filler, no declaration here: if (a > b && c) { d(); }\r\n")
	}
	b.WriteString("</script>\r\n")
	if meta {
		fmt.Fprintf(&b, "<meta charset=%q>", label)
	}
	b.WriteString("</head><body><p>")
	first := b.Len()
	b.Write(encodeText(t, e, lateTexts[label]))
	b.WriteString("</p></body></html>\r\n")
	return b.Bytes(), first
}

// TestLatePages decodes generated pages whose first non-ASCII text comes
// after an ASCII head of 2 KB to 1 MB, with and without a <meta>, under
// every chunking: the text must come out right, and the result must say
// which step decided.
func TestLatePages(t *testing.T) {
	heads := []int{2 << 10, 70 << 10, 1 << 20}
	if testing.Short() {
		heads = heads[:2]
	}
	for _, label := range []string{"shift_jis", "euc-kr", "windows-1251", "utf-8"} {
		for _, head := range heads {
			for _, meta := range []bool{false, true} {
				doc, first := page(t, label, head, meta)
				want := refDecode(t, enc(label), doc, false, full, true)
				// A <meta> past the window and the lookahead is not seen;
				// late autodetection decides then.
				wantRes := sniff.Result{Encoding: enc(label), Confidence: sniff.Tentative, Source: sniff.SourceAutodetect}
				wantLate := decode.Change{Kind: decode.SwitchedOnTheFly, From: override.Windows1252, To: enc(label), Offset: int64(first)}
				if end := bytes.Index(doc, []byte("<meta")); meta && end < sniff.DefaultWindow+decode.DefaultLookahead {
					wantRes.Confidence, wantRes.Source = sniff.Certain, sniff.SourcePrescan
					wantLate.Offset = int64(bytes.Index(doc, []byte("</head>")))
				}
				for _, src := range chunkings {
					if src.Name == "OneByteReader" && head > 100<<10 {
						continue // slow, and the random chunks cover it
					}
					r, err := decode.NewReader(src.Wrap(bytes.NewReader(doc)))
					if err != nil {
						t.Fatal(err)
					}
					got, err := io.ReadAll(r)
					desc := fmt.Sprintf("%s, head %d, meta %v, %s", label, head, meta, src.Name)
					if err != nil || !bytes.Equal(got, want) {
						t.Errorf("%s: output differs (%v): %d bytes, want %d; at the end %q, want %q", desc, err, len(got), len(want), tail(got), tail(want))
					}
					if res := r.Result(); res.Result != wantRes || res.Late != wantLate {
						t.Errorf("%s: Result() = %+v, want %+v, Late %+v", desc, res, wantRes, wantLate)
					}
				}
			}
		}
	}
}

// tail returns the last 40 bytes of b.
func tail(b []byte) []byte { return b[max(0, len(b)-40):] }

// TestLateContradictingMeta: non-ASCII text before a <meta> that names
// another encoding. A browser reloads in the declared encoding; the Reader
// holds its output at the first non-ASCII byte and reaches the same text.
func TestLateContradictingMeta(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html><title>")
	b.WriteString(strings.Repeat("x", 2000))
	first := b.Len() + 3
	b.WriteString("caf\xC3\xA9</title>")
	b.WriteString(`<meta charset="windows-1251">`)
	b.Write(encodeText(t, override.Windows1251, lateTexts["windows-1251"]))
	doc := b.Bytes()
	want := refDecode(t, override.Windows1251, doc, false, full, true)
	for desc, r := range readChunked(t, "late <meta>", doc, want) {
		wantLate := decode.Change{Kind: decode.SwitchedOnTheFly, From: override.Windows1252, To: override.Windows1251, Offset: int64(first)}
		if res := r.Result(); res.Encoding != override.Windows1251 || res.Source != sniff.SourcePrescan || res.Confidence != sniff.Certain || res.Late != wantLate {
			t.Errorf("%s: Result() = %+v, want windows-1251, prescan, certain, %+v", desc, res, wantLate)
		}
	}
	// Past the lookahead from the first non-ASCII byte the <meta> is not
	// acted on: the text already handed out stands.
	r, _ := decode.NewReader(bytes.NewReader(doc), decode.WithLookahead(8))
	io.ReadAll(r)
	if res := r.Result(); res.Late.Kind == decode.SwitchedOnTheFly && res.Source == sniff.SourcePrescan {
		t.Errorf("lookahead 8: Result() = %+v, want the <meta> past it ignored", res)
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
	switched := func(to override.Encoding, at string) decode.Change {
		return decode.Change{Kind: decode.SwitchedOnTheFly, From: w1252, To: to, Offset: int64(len(at))}
	}
	tests := []struct {
		desc string
		in   string
		opts []decode.Option
		want decode.Change
	}{
		{"no declaration", pad, nil, decode.Change{}},
		{"late", pad + meta, nil, switched(koi8r, pad+meta)},
		{"http-equiv content-type", pad + equiv, nil, switched(koi8r, pad+equiv)},
		{"content without http-equiv does not count", pad + noEquiv + meta, nil, switched(koi8r, pad+noEquiv+meta)},
		{"unknown label does not count", pad + unknown + meta, nil, switched(koi8r, pad+unknown+meta)},
		{"in a comment does not count", pad + "<!--" + meta + "-->", nil, decode.Change{}},
		{"in an attribute value does not count", pad + "<p title='" + meta + "'>", nil, decode.Change{}},
		{"late UTF-16 becomes UTF-8", pad + `<meta charset="utf-16le">`, nil, switched(override.UTF8, pad+`<meta charset="utf-16le">`)},
		{"late x-user-defined is windows-1252", pad + `<meta charset="x-user-defined">`, nil, decode.Change{Kind: decode.SameEncoding, From: w1252, To: w1252, Offset: int64(len(pad) + 31)}},
		{"only the first counts", pad + meta + `<meta charset="gbk">`, nil, switched(koi8r, pad+meta)},
		{"ends at the limit", pad + meta, []decode.Option{decode.WithLookahead(int64(len(pad+meta)) - 1024)}, switched(koi8r, pad+meta)},
		{"ends past the limit", pad + meta, []decode.Option{decode.WithLookahead(int64(len(pad+meta)) - 1025)}, decode.Change{}},
		{"window alone", "<p>" + pad + meta, []decode.Option{windowOnly}, decode.Change{}},
		{"in the window: no late change", meta + pad + `<meta charset="gbk">`, nil, decode.Change{}},
		{"XML declaration past the window does not count", `<?xml version="1.0"` + pad + ` encoding="koi8-r"?>` + pad, nil, decode.Change{}},
		{"after an XML declaration", xml + pad + `<meta charset="gbk">`, nil, decode.Change{Kind: decode.SwitchedOnTheFly, From: koi8r, To: override.GBK, Offset: int64(len(xml + pad + `<meta charset="gbk">`))}},
		{"certain: transport", pad + meta, []decode.Option{withContentType("text/html;charset=gbk")}, decode.Change{}},
		{"certain: BOM", "\xEF\xBB\xBF" + pad + meta, nil, decode.Change{}},
		{"UTF-16 from the XML prefix", "<\x00?\x00x\x00" + pad + meta, nil, decode.Change{}},
		{"straddles the window", pad[:1010] + meta, nil, switched(koi8r, pad[:1010]+meta)},
		{"late ISO-2022-JP after ASCII: switched", pad + `<meta charset="iso-2022-jp">`, nil, switched(override.ISO2022JP, pad+`<meta charset="iso-2022-jp">`)},
		{"late ISO-2022-JP after ESC: restart needed, ignored", pad + "\x1b" + `<meta charset="iso-2022-jp">`, nil, decode.Change{Kind: decode.RestartNeeded, From: w1252, To: override.ISO2022JP, Offset: int64(len(pad) + 29)}},
		{"late replacement: restart needed, ignored", pad + `<meta charset="iso-2022-kr">`, nil, decode.Change{Kind: decode.RestartNeeded, From: w1252, To: override.Replacement, Offset: int64(len(pad) + 28)}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			opts := append([]decode.Option{noAutodetect}, tc.opts...)
			for _, src := range chunkings {
				r, err := decode.NewReader(src.Wrap(strings.NewReader(tc.in)), opts...)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := io.ReadAll(r); err != nil {
					t.Fatal(err)
				}
				if got := r.Result().Late; got != tc.want {
					t.Errorf("%s: Result().Late = %+v, want %+v", src.Name, got, tc.want)
				}
			}
		})
	}
}

// asciiPage is an ASCII document with no declaration.
const asciiPage = "<!DOCTYPE html><html><head><title>t</title></head><body><p>text</p></body></html>\r\n"

// longRun returns letter between 1000 bytes of ASCII text on each side.
func longRun(letter string) string {
	run := strings.Repeat("some ASCII text ", 63)
	return run + letter + run
}

// TestChangeEncodingSteps runs each step of the standard's "change the
// encoding" through Reader.ChangeEncoding, called after reading some
// output, with the window alone (the look-ahead would decide first).
func TestChangeEncodingSteps(t *testing.T) {
	longASCII := strings.Repeat("<p>ASCII text\r\n", 300)
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
		{"certain: BOM", "\xEF\xBB\xBF" + asciiPage, nil, 10, "shift_jis", decode.NoChange, override.UTF8, override.ShiftJIS, 13},
		{"certain: override", asciiPage, []decode.Option{withOverride("koi8-r")}, 10, "shift_jis", decode.NoChange, override.KOI8R, override.ShiftJIS, 10},
		{"certain: transport", asciiPage, []decode.Option{withContentType("text/html; charset=koi8-r")}, 0, "shift_jis", decode.NoChange, override.KOI8R, override.ShiftJIS, 0},
		{"step 1: UTF-16LE in use", "<\x00?\x00x\x00m\x00l\x00", nil, 0, "shift_jis", decode.SameEncoding, override.UTF16LE, override.UTF16LE, 0},
		{"step 2: UTF-16BE becomes UTF-8", asciiPage, []decode.Option{noAutodetect}, 10, "utf-16be", decode.SwitchedOnTheFly, override.Windows1252, override.UTF8, 10},
		{"step 3: x-user-defined becomes windows-1252, the same", asciiPage, []decode.Option{noAutodetect}, 10, "x-user-defined", decode.SameEncoding, override.Windows1252, override.Windows1252, 10},
		{"step 3: x-user-defined becomes windows-1252", "<meta charset=koi8-r>" + asciiPage, nil, 30, "x-user-defined", decode.SwitchedOnTheFly, override.KOI8R, override.Windows1252, 30},
		{"step 4: the same", asciiPage, []decode.Option{noAutodetect}, 10, "latin1", decode.SameEncoding, override.Windows1252, override.Windows1252, 10},
		{"step 5: nothing decoded yet", "caf\xE9 " + asciiPage, []decode.Option{noAutodetect}, 0, "utf-8", decode.SwitchedOnTheFly, override.Windows1252, override.UTF8, 0},
		{"step 5: ASCII decoded", asciiPage + "caf\xC3\xA9", []decode.Option{noAutodetect}, 20, "utf-8", decode.SwitchedOnTheFly, override.Windows1252, override.UTF8, 20},
		{"step 5: ASCII decoded, multi-byte to multi-byte", asciiPage + longASCII + "\xA4\xA2", []decode.Option{withDefault("shift_jis"), noAutodetect}, 20, "euc-jp", decode.SwitchedOnTheFly, override.ShiftJIS, override.EUCJP, -1},
		{"step 5: GBK to gb18030 after non-ASCII", "<meta charset=gbk>\xD6\xD0\xCE\xC4" + asciiPage + "\x81\x30\x81\x30", nil, 22, "gb18030", decode.SwitchedOnTheFly, override.GBK, override.GB18030, -1},
		{"step 6: non-ASCII decoded", "caf\xE9 " + asciiPage, []decode.Option{noAutodetect}, 20, "utf-8", decode.RestartNeeded, override.Windows1252, override.UTF8, -1},
		// A letter inside long runs of ASCII, which the vector sweep takes.
		{"step 6: non-ASCII decoded in a run", longRun("\xE9"), []decode.Option{noAutodetect}, 2000, "utf-8", decode.RestartNeeded, override.Windows1252, override.UTF8, -1},
		{"step 6: non-ASCII UTF-8 decoded in a run", longRun("\xC3\xA9"), []decode.Option{withDefault("utf-8"), noAutodetect}, 2000, "windows-1252", decode.RestartNeeded, override.UTF8, override.Windows1252, -1},
		{"step 6: to ISO-2022-JP", asciiPage, []decode.Option{noAutodetect}, 10, "iso-2022-jp", decode.RestartNeeded, override.Windows1252, override.ISO2022JP, 10},
		{"step 6: to replacement", asciiPage, []decode.Option{noAutodetect}, 10, "iso-2022-kr", decode.RestartNeeded, override.Windows1252, override.Replacement, 10},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			in := []byte(tc.in)
			r, err := decode.NewReader(bytes.NewReader(in), append(tc.opts, windowOnly)...)
			if err != nil {
				t.Fatal(err)
			}
			sniffed := r.Result()
			head := make([]byte, tc.read)
			if _, err := io.ReadFull(r, head); err != nil {
				t.Fatal(err)
			}
			got := r.ChangeEncoding(enc(tc.label))
			want := decode.Change{Kind: tc.kind, From: tc.from, To: tc.to, Offset: got.Offset}
			if tc.offset >= 0 {
				want.Offset = tc.offset
			}
			if got != want {
				t.Fatalf("ChangeEncoding(%q) = %+v, want %+v", tc.label, got, want)
			}
			res := r.Result()
			wantEnc := tc.from
			if tc.kind == decode.SwitchedOnTheFly {
				wantEnc = tc.to
			}
			if res.Confidence != sniff.Certain || res.Encoding != wantEnc || res.Source != sniffed.Source {
				t.Errorf("Result() = %+v, want %v, certain, source %v", res, wantEnc, sniffed.Source)
			}
			rest, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			out := append(head, rest...)
			var ref []byte
			if tc.kind == decode.SwitchedOnTheFly {
				ref = append(refDecode(t, tc.from, in[:got.Offset], true, full, true), refDecode(t, tc.to, in[got.Offset:], false, full, true)...)
			} else {
				ref = refDecode(t, tc.from, in, true, full, true)
			}
			if !bytes.Equal(out, ref) {
				t.Errorf("output:\ngot  %q\nwant %q", out, ref)
			}
			// A second change finds the confidence certain; Late keeps the
			// first.
			again := r.ChangeEncoding(override.KOI8U)
			if !strings.HasPrefix(tc.desc, "certain") {
				if again.Kind != decode.NoChange || r.Result().Late != got {
					t.Errorf("second change = %+v, Late = %+v, want none and %+v", again, r.Result().Late, got)
				}
			} else if r.Result().Late.Kind != decode.NoChange {
				t.Errorf("Late = %+v, want none", r.Result().Late)
			}
		})
	}
	r, _ := decode.NewReader(strings.NewReader(asciiPage), noAutodetect)
	if got := r.ChangeEncoding(override.Unknown); got.Kind != decode.NoChange || r.Result().Confidence != sniff.Tentative {
		t.Errorf("ChangeEncoding(Unknown) = %+v, %+v, want none and tentative", got, r.Result())
	}
}

// errSource is the error of the failing sources below.
var errSource = errors.New("source failed")

// TestLateSourceErrors: a source error while the Reader reads ahead hands
// out the text decoded so far, then the error, as the window alone does
// (issue 18): the prefix is never lost.
func TestLateSourceErrors(t *testing.T) {
	utf8Page := []byte("<!DOCTYPE html><title>caf\xC3\xA9</title>" + strings.Repeat("<p>caf\xC3\xA9 na\xC3\xAFve text\r\n", 1000))
	latin := []byte(strings.Repeat("<p>ASCII filler\r\n", 100) + strings.Repeat("<p>caf\xE9 na\xEFve\r\n", 1000))
	for _, doc := range [][]byte{utf8Page, latin} {
		for _, tc := range []struct {
			desc string
			src  func() io.Reader
			err  error
		}{
			{"error after 15 KB", func() io.Reader {
				return io.MultiReader(bytes.NewReader(doc[:15<<10]), iotest.ErrReader(errSource))
			}, errSource},
			{"error after 15 KB, half reads", func() io.Reader {
				return iotest.HalfReader(io.MultiReader(bytes.NewReader(doc[:15<<10]), iotest.ErrReader(errSource)))
			}, errSource},
			{"timeout", func() io.Reader { return iotest.TimeoutReader(bytes.NewReader(doc)) }, iotest.ErrTimeout},
		} {
			want, wantErr := func() ([]byte, error) {
				r, _ := decode.NewReader(tc.src(), windowOnly)
				return io.ReadAll(r)
			}()
			r, _ := decode.NewReader(tc.src())
			got, err := io.ReadAll(r)
			if !bytes.Equal(got, want) || err != tc.err || wantErr != tc.err || len(got) == 0 {
				t.Errorf("%.20q, %s: got %d bytes, %v; the window alone %d bytes, %v; want the same, ending %v", doc, tc.desc, len(got), err, len(want), wantErr, tc.err)
			}
		}
	}
	// After a transient error the Reader goes on.
	r, _ := decode.NewReader(iotest.TimeoutReader(bytes.NewReader(latin)))
	head, err := io.ReadAll(r)
	if err != iotest.ErrTimeout {
		t.Fatalf("first ReadAll error %v, want a timeout", err)
	}
	rest, err := io.ReadAll(r)
	if got, want := append(head, rest...), refDecode(t, override.Windows1252, latin, false, full, true); err != nil || !bytes.Equal(got, want) {
		t.Errorf("after the timeout: %d bytes, %v, want %d bytes", len(got), err, len(want))
	}
}

// asciiThenSJIS is a source of n bytes of ASCII (lines of HTML with no
// declaration) followed by tail, generated as it is read.
type asciiThenSJIS struct {
	n, off int64
	tail   []byte
}

const asciiLine = "<p>plain ASCII text of a long feed, no declaration anywhere</p>\n"

func (s *asciiThenSJIS) Read(p []byte) (int, error) {
	if s.off >= s.n+int64(len(s.tail)) {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && s.off < s.n {
		c := copy(p[k:min(len(p), k+int(s.n-s.off))], asciiLine[s.off%int64(len(asciiLine)):])
		k += c
		s.off += int64(c)
	}
	if k < len(p) && s.off >= s.n {
		c := copy(p[k:], s.tail[s.off-s.n:])
		k += c
		s.off += int64(c)
	}
	return k, nil
}

// checkWriter compares what is written with n bytes of ASCII lines and
// then tail, keeping nothing.
type checkWriter struct {
	n, off int64
	tail   []byte
	bad    bool
}

func (w *checkWriter) Write(p []byte) (int, error) {
	for i := 0; i < len(p); {
		if w.off < w.n {
			line := asciiLine[w.off%int64(len(asciiLine)):]
			k := min(len(p)-i, len(line), int(w.n-w.off))
			if string(p[i:i+k]) != line[:k] {
				w.bad = true
			}
			i += k
			w.off += int64(k)
			continue
		}
		t := w.tail[min(w.off-w.n, int64(len(w.tail))):]
		k := min(len(p)-i, len(t))
		if k == 0 || !bytes.Equal(p[i:i+k], t[:k]) {
			w.bad = true
			return len(p), nil
		}
		i += k
		w.off += int64(k)
	}
	return len(p), nil
}

// TestLongASCIIHead pipes 100 MB of ASCII followed by undeclared Shift_JIS
// text through a Reader: late autodetection, open all along, finds
// Shift_JIS, and the memory allocated stays flat (1 MB at most, the held
// bytes within the lookahead).
func TestLongASCIIHead(t *testing.T) {
	n := int64(100 << 20)
	if testing.Short() {
		n = 8 << 20
	}
	n -= n % int64(len(asciiLine))
	sjis := encodeText(t, override.ShiftJIS, lateTexts["shift_jis"])
	text := []byte(lateTexts["shift_jis"])
	src := &asciiThenSJIS{n: n, tail: sjis}
	w := &checkWriter{n: n, tail: text}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	r, err := decode.NewReader(src)
	if err != nil {
		t.Fatal(err)
	}
	written, err := r.WriteTo(w)
	runtime.ReadMemStats(&m1)
	if err != nil || w.bad || written != n+int64(len(text)) {
		t.Errorf("WriteTo = %d, %v (mismatch %v), want %d bytes", written, err, w.bad, n+int64(len(text)))
	}
	if res := r.Result(); res.Encoding != override.ShiftJIS || res.Source != sniff.SourceAutodetect || res.Late.Offset != n {
		t.Errorf("Result() = %+v, want Shift_JIS by late autodetection at %d", res, n)
	}
	// The Reader and its buffers, the held bytes growing to the
	// lookahead, the <meta> scanner and a detector: flat, whatever n.
	if alloc, most := m1.TotalAlloc-m0.TotalAlloc, uint64(16*decode.DefaultLookahead); alloc > most {
		t.Errorf("%d bytes allocated for a %d-byte stream, want at most %d", alloc, n, most)
	}
}

// TestDecided checks that reading until Decided reads only as far as the
// decision needs.
func TestDecided(t *testing.T) {
	big := strings.Repeat("<p>caf\xC3\xA9 text\r\n", 20000) // 300 KB, UTF-8 from the start
	tests := []struct {
		desc    string
		in      string
		opts    []decode.Option
		maxRead int
		want    override.Encoding
	}{
		{"meta in the window", "<meta charset=koi8-r>" + big, nil, 4 << 10, override.KOI8R},
		{"certain", big, []decode.Option{withContentType("text/html; charset=utf-8")}, 4 << 10, override.UTF8},
		{"window alone", big, []decode.Option{windowOnly}, 4 << 10, override.UTF8},
		{"non-ASCII in the window", big, nil, 1024 + decode.DefaultLookahead + 4<<10, override.UTF8},
		// The <meta> is in the first read after the window: one input
		// buffer (16 KB) past it.
		{"ASCII, then a late <meta>", strings.Repeat("x", 3000) + "<meta charset=koi8-r>" + big, nil, 1<<10 + 16<<10, override.KOI8R},
	}
	for _, tc := range tests {
		c := &firsterr.Reader{R: strings.NewReader(tc.in)}
		r, _ := decode.NewReader(c, tc.opts...)
		buf := make([]byte, 512)
		for !r.Result().Decided {
			if _, err := r.Read(buf); err != nil {
				break
			}
		}
		if c.N > int64(tc.maxRead) || r.Result().Encoding != tc.want {
			t.Errorf("%s: read %d bytes, decided %v; want at most %d and %v", tc.desc, c.N, r.Result().Encoding, tc.maxRead, tc.want)
		}
	}
}

// TestLateAllocs checks that a Reader reset for each document, holding
// bytes to decide, allocates nothing once its held buffer has grown.
func TestLateAllocs(t *testing.T) {
	if testutil.Race {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	doc, _ := page(t, "windows-1251", 3000, false)
	src := bytes.NewReader(doc)
	r, _ := decode.NewReader(src)
	var sink discard
	run := func() {
		src.Reset(doc)
		r.Reset(src)
		r.WriteTo(&sink)
	}
	run()
	if r.Result().Source != sniff.SourceAutodetect {
		t.Fatalf("Result() = %+v, want late autodetection", r.Result())
	}
	if a := testing.AllocsPerRun(20, run); a != 0 {
		t.Errorf("Reset and reading with the look-ahead: %v allocations, want 0", a)
	}
}

// TestDecidedAtEOF: at the end of the input nothing is left to decide.
func TestDecidedAtEOF(t *testing.T) {
	r, _ := decode.NewReader(strings.NewReader(asciiPage))
	if r.Result().Decided {
		t.Fatal("Decided before reading an ASCII page, want the look-ahead open")
	}
	io.ReadAll(r)
	if !r.Result().Decided {
		t.Error("Decided = false at the end of the input")
	}
}

// TestDecidedInWindow: when the input ends inside the window and sniffing
// found evidence, nothing is left to look ahead for (sniffing's prescan
// saw every byte), so the Reader is decided before the first Read.
func TestDecidedInWindow(t *testing.T) {
	in := "<!doctype html><title>x</title><p>caf\u00e9 cr\u00e8me"
	r, _ := decode.NewReader(strings.NewReader(in))
	if !r.Result().Decided {
		t.Error("Decided = false on a short page the window holds whole")
	}
	out, err := io.ReadAll(r)
	if res := r.Result(); err != nil || string(out) != in || res.Encoding != override.UTF8 || res.Source != sniff.SourceAutodetect || res.Late.Kind != decode.NoChange {
		t.Errorf("got %q, %v, %+v; want the page in UTF-8 from autodetection", out, err, res)
	}
}
