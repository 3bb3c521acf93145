package decode_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// The pieces of the restart tests' pages.
const (
	// jp is 日本語 in ISO-2022-JP: ESC $ B, three JIS X 0208 pairs, ESC ( B.
	jp = "\x1b$BF|K\\8l\x1b(B"
	// scriptMeta is a <meta> the window's prescan takes (it does not know
	// <script>) and the parser never meets: the parser's first <meta>
	// comes after it, in the window.
	scriptMeta = `<script>var a='<meta charset=utf-8>'</script>`
	jpMeta     = `<meta charset=iso-2022-jp>`
)

// restartPad is an ASCII comment that puts what follows past the window.
var restartPad = "<!-- " + strings.Repeat("ASCII padding ", 80) + "-->\n"

// restartCase is a page whose late <meta> asks for a change that the
// bytes before it may rule out: want is the Result a Reader ends with,
// ref the encoding whose decode of the whole input (WithEncoding) is its
// output: a browser's reload, or the encoding kept.
type restartCase struct {
	desc string
	in   string
	opts []decode.Option
	want decode.Result
	ref  override.Encoding
}

// restartCases are the pages of TestRestart.
func restartCases() []restartCase {
	w1252, utf8, jis, repl := override.Windows1252, override.UTF8, override.ISO2022JP, override.Replacement
	certain := func(e override.Encoding, kind decode.ChangeKind, from, to override.Encoding, at string) decode.Result {
		return decode.Result{
			Result:  sniff.Result{Encoding: e, Confidence: sniff.Certain, Source: sniff.SourcePrescan},
			Late:    decode.Change{Kind: kind, From: from, To: to, Offset: int64(len(at))},
			Decided: true,
		}
	}
	past := restartPad + jpMeta
	tests := []restartCase{
		// Every byte before the <meta> is ASCII but ESC, SO and SI: they
		// mean the same in ISO-2022-JP, so the switch is on the fly, and
		// the output is the reload's.
		{"ISO-2022-JP past the window, after ASCII", past + "\n<p>" + jp + "</p>\n", nil,
			certain(jis, decode.SwitchedOnTheFly, w1252, jis, past), jis},
		// The Reader holds its output at the first non-ASCII byte; the
		// <meta> after it switches there.
		{"ISO-2022-JP past the window, after a held non-ASCII byte", restartPad + "caf\xe9 " + jpMeta + jp, []decode.Option{noAutodetect},
			certain(jis, decode.SwitchedOnTheFly, w1252, jis, restartPad+"caf"), jis},
		// ESC after that byte is decoded in ISO-2022-JP, as in the reload.
		{"ISO-2022-JP past the window, ESC after a held non-ASCII byte", restartPad + "caf\xe9 " + jp + jpMeta + jp, []decode.Option{noAutodetect},
			certain(jis, decode.SwitchedOnTheFly, w1252, jis, restartPad+"caf"), jis},
	}
	// In the window, before the Reader has decoded a byte: a restart.
	for _, tc := range []struct{ desc, head, tail string }{
		{"after ESC", "<title>" + jp + "</title>" + scriptMeta, jp + restartPad},
		{"after SO", "<title>\x0e</title>" + scriptMeta, jp + restartPad},
		{"after non-ASCII", "<title>caf\xc3\xa9</title>" + scriptMeta, jp + restartPad},
		{"the whole input", "<title>" + jp + "</title>" + scriptMeta, jp},
		{"CR LF", "<title>\r\n" + jp + "\r</title>" + scriptMeta, jp + "\r\n" + restartPad},
	} {
		at := tc.head + jpMeta
		tests = append(tests, restartCase{"ISO-2022-JP in the window, " + tc.desc, at + tc.tail, nil,
			certain(jis, decode.Restarted, utf8, jis, at), jis})
	}
	// Without an ESC before it, a switch on the fly, also in the window.
	tests = append(tests, restartCase{"ISO-2022-JP in the window, after ASCII", scriptMeta + jpMeta + jp + restartPad, nil,
		certain(jis, decode.SwitchedOnTheFly, utf8, jis, scriptMeta+jpMeta), jis})
	// The replacement encoding decodes any input to one U+FFFD.
	for _, label := range []string{"iso-2022-kr", "csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext"} {
		at := scriptMeta + "<meta charset=" + label + ">"
		tests = append(tests,
			restartCase{"replacement in the window: " + label, at + "<p>hello</p>" + restartPad, nil,
				certain(repl, decode.Restarted, utf8, repl, at), repl},
			restartCase{"replacement in the window, the whole input: " + label, at + "hi", nil,
				certain(repl, decode.Restarted, utf8, repl, at), repl})
	}
	// Past the window the Reader has handed out the text before the
	// <meta> (or before the first non-ASCII byte, where it held its
	// output): it keeps the encoding in use, certain, as today.
	escPast := restartPad + "<title>" + jp + "</title>" + jpMeta
	krPast := restartPad + "<meta charset=iso-2022-kr>"
	krHeld := restartPad + "caf\xe9 <meta charset=iso-2022-kr>"
	heldJP := "<p>caf\xe9</p>" + restartPad + jpMeta // held from byte 6
	tests = append(tests,
		restartCase{"ISO-2022-JP past the window, after ESC", escPast + jp, nil,
			certain(w1252, decode.RestartNeeded, w1252, jis, escPast), w1252},
		restartCase{"ISO-2022-JP past the window, after SI", restartPad + "\x0f" + jpMeta + jp, nil,
			certain(w1252, decode.RestartNeeded, w1252, jis, restartPad+"\x0f"+jpMeta), w1252},
		restartCase{"ISO-2022-JP past the window, after ESC in the window", "<p>\x1b</p>" + restartPad + jpMeta + jp, []decode.Option{noAutodetect},
			certain(w1252, decode.RestartNeeded, w1252, jis, "<p>\x1b</p>"+restartPad+jpMeta), w1252},
		restartCase{"replacement past the window", krPast + "<p>hello</p>", nil,
			certain(w1252, decode.RestartNeeded, w1252, repl, krPast), w1252},
		restartCase{"replacement past the window, after a held non-ASCII byte", krHeld + "<p>hello</p>", []decode.Option{noAutodetect},
			certain(w1252, decode.RestartNeeded, w1252, repl, restartPad+"caf"), w1252},
	)
	// Past the look-ahead nothing changes: the <meta> ends one byte past
	// window + lookahead, or past lookahead bytes after the first
	// non-ASCII byte, where the Reader holds its output.
	tentative := decode.Result{Result: sniff.Result{Encoding: w1252, Confidence: sniff.Tentative, Source: sniff.SourceDefault}, Decided: true}
	tests = append(tests,
		restartCase{"replacement past the look-ahead", krPast + "hi", []decode.Option{noAutodetect, decode.WithLookahead(int64(len(krPast) - 1024 - 1))},
			tentative, w1252},
		restartCase{"ISO-2022-JP past the look-ahead after a held byte", heldJP + jp, []decode.Option{noAutodetect, decode.WithLookahead(int64(len(heldJP) - len("<p>caf") - 1))},
			tentative, w1252},
	)
	return tests
}

// restartModes are the ways TestRestart reads a Reader: bufSize as for
// decodeAll, and -2 for ReadRune.
var restartModes = []struct {
	name    string
	bufSize int
}{{"WriteTo", 0}, {"ReadAll", -1}, {"Read(1)", 1}, {"Read(7)", 7}, {"ReadRune", -2}}

// TestRestart decodes pages whose late <meta> names ISO-2022-JP or the
// replacement encoding through every chunking and way of reading, with a
// fresh Reader and with one reset after a page it left half read, and
// compares the output with the whole input decoded with WithEncoding:
// the new encoding where a browser's reload ends in it, the old one where
// the Reader had handed out text before it (see decode.RestartNeeded).
func TestRestart(t *testing.T) {
	reused, _ := decode.NewReader(strings.NewReader(""))
	// dirty holds read-ahead 1 KB in, after an ESC the look-ahead counted.
	dirty := "<p>\x1b</p>" + testutil.ReuseDocs()[0].Text
	for _, tc := range restartCases() {
		t.Run(tc.desc, func(t *testing.T) {
			in := []byte(tc.in)
			want, err := decodeAll(t, bytes.NewReader(in), 0, decode.WithEncoding(tc.ref))
			if err != nil {
				t.Fatal(err)
			}
			for _, src := range chunkings {
				for _, mode := range restartModes {
					for _, fresh := range []bool{true, false} {
						name := fmt.Sprintf("%s/%s/fresh=%v", src.Name, mode.name, fresh)
						r := reused
						if fresh {
							r, _ = decode.NewReader(src.Wrap(bytes.NewReader(in)), tc.opts...)
						} else {
							reused.Reset(strings.NewReader(dirty))
							io.ReadFull(reused, make([]byte, 1100))
							reused.Reset(src.Wrap(bytes.NewReader(in)), tc.opts...)
						}
						got, err := readWith(t, r, mode.bufSize)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if !bytes.Equal(got, want) {
							t.Fatalf("%s: output\ngot  %q\nwant %q (%v)", name, got, want, tc.ref)
						}
						if res := r.Result(); res != tc.want {
							t.Fatalf("%s: Result() = %+v\nwant       %+v", name, res, tc.want)
						}
					}
				}
			}
		})
	}
}

// readWith reads r to the end as decodeAll's bufSize says, or with
// ReadRune for -2.
func readWith(t *testing.T, r *decode.Reader, bufSize int) ([]byte, error) {
	t.Helper()
	switch {
	case bufSize == -2:
		return runeAll(t, r)
	case bufSize == 0:
		var b bytes.Buffer
		_, err := r.WriteTo(&b)
		return b.Bytes(), err
	case bufSize < 0:
		return io.ReadAll(r)
	}
	return readAll(t, r, bufSize)
}

// TestRestartSettle: a restart in the window is decided before the first
// Read, Result says so at once, and Settle reads nothing; a change past
// the window is decided by Settle, whose text and the rest are the whole
// output.
func TestRestartSettle(t *testing.T) {
	for _, tc := range restartCases() {
		t.Run(tc.desc, func(t *testing.T) {
			in := []byte(tc.in)
			want, _ := decodeAll(t, bytes.NewReader(in), 0, decode.WithEncoding(tc.ref))
			r, _ := decode.NewReader(bytes.NewReader(in), tc.opts...)
			before := r.Result()
			restarted := tc.want.Late.Kind == decode.Restarted
			if restarted && before != tc.want {
				t.Errorf("Result() before reading = %+v, want %+v", before, tc.want)
			}
			if !restarted && before.Decided && len(in) > 1024 {
				t.Errorf("Result() before reading = %+v, want undecided", before)
			}
			text, err := r.Settle(nil, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			if restarted && len(text) != 0 {
				t.Errorf("Settle read %q, want nothing: the window decided", text)
			}
			if res := r.Result(); res != tc.want {
				t.Errorf("Result() after Settle = %+v, want %+v", res, tc.want)
			}
			rest, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if got := append(text, rest...); !bytes.Equal(got, want) {
				t.Errorf("Settle's text and the rest:\ngot  %q\nwant %q", got, want)
			}
		})
	}
}

// TestRestartPadding reruns TestRestart's cases after 1 to 31 bytes of
// ASCII padding (spaces, then a letter), so that the bytes before the
// <meta> fall at every alignment of the word and vector loops: the
// output is still the whole input decoded in the encoding the case ends
// in, and the change moves with the padding.
func TestRestartPadding(t *testing.T) {
	for _, tc := range restartCases() {
		if strings.Contains(tc.desc, "past the look-ahead") {
			continue // its lookahead is measured to the byte
		}
		t.Run(tc.desc, func(t *testing.T) {
			for pad := 1; pad < 32; pad++ {
				in := []byte(strings.Repeat(" ", pad-1) + "x" + tc.in)
				want, _ := decodeAll(t, bytes.NewReader(in), 0, decode.WithEncoding(tc.ref))
				wantRes := tc.want
				wantRes.Late.Offset += int64(pad)
				for _, bufSize := range []int{0, 7} {
					r, _ := decode.NewReader(bytes.NewReader(in), tc.opts...)
					got, err := readWith(t, r, bufSize)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("pad %d, bufSize %d: output\ngot  %q\nwant %q", pad, bufSize, got, want)
					}
					if res := r.Result(); res != wantRes {
						t.Fatalf("pad %d, bufSize %d: Result() = %+v\nwant       %+v", pad, bufSize, res, wantRes)
					}
				}
			}
		})
	}
}
