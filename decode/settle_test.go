package decode_test

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/sniff"
)

// TestSettle checks Reader.Settle: it reads until Decided, appends the
// text it read to buf and loses none of it (the text after it is the
// rest), stops at max bytes undecided, keeps nothing and reads as far as
// the decision needs with a negative max, and returns a source error but
// not io.EOF, whatever the chunking.
func TestSettle(t *testing.T) {
	ascii := strings.Repeat("<p>plain ASCII</p>\n", 200)                   // 3800 bytes
	tail := strings.Repeat("<p>more text</p>\n", 1000)                     // 17 KB
	late := "<html>" + ascii + "caf\xe9 na\xefve r\xe9sum\xe9 \xe0" + tail // decided by late detection
	tests := []struct {
		name     string
		doc      string
		max      int
		decided  bool // Decided after Settle
		minText  int  // Settle's text at least this long (in its bounds)
		wantEnc  string
		wantFrom sniff.Source
	}{
		{"late non-ASCII, unbounded", late, 1 << 20, true, len(ascii), "windows-1252", sniff.SourceAutodetect},
		{"late non-ASCII, discard", late, -1, true, 0, "windows-1252", sniff.SourceAutodetect},
		{"late non-ASCII, bounded", late, 1000, false, 1000, "windows-1252", sniff.SourceDefault},
		{"late meta", "<html>" + ascii + `<meta charset="koi8-r">` + "\xf0\xd2" + tail, 1 << 20, true, len(ascii), "koi8-r", sniff.SourcePrescan},
		{"meta in window", `<meta charset="euc-kr">` + ascii, 1 << 20, true, 0, "euc-kr", sniff.SourcePrescan},
		{"all ASCII to the end", ascii + ascii, 1 << 20, true, 2 * len(ascii), "windows-1252", sniff.SourceDefault},
		{"all ASCII, discard", ascii + ascii, -1, true, 0, "windows-1252", sniff.SourceDefault},
		{"max 0", late, 0, false, 0, "windows-1252", sniff.SourceDefault},
		{"empty", "", 100, true, 0, "windows-1252", sniff.SourceDefault},
	}
	for _, tc := range tests {
		for _, ch := range chunkings {
			fresh, _ := decode.NewReader(strings.NewReader(tc.doc))
			want, _ := io.ReadAll(fresh)
			r, _ := decode.NewReader(ch.Wrap(strings.NewReader(tc.doc)))
			prefix := []byte("kept:")
			got, err := r.Settle(prefix[:len(prefix):len(prefix)], tc.max)
			if err != nil {
				t.Errorf("%s, %s: Settle error %v", tc.name, ch.Name, err)
			}
			if !bytes.HasPrefix(got, prefix) {
				t.Fatalf("%s, %s: Settle lost buf: %.20q", tc.name, ch.Name, got)
			}
			text := got[len(prefix):]
			if tc.max >= 0 && len(text) > tc.max {
				t.Errorf("%s, %s: Settle read %d bytes, max %d", tc.name, ch.Name, len(text), tc.max)
			}
			if tc.max < 0 && len(text) != 0 {
				t.Errorf("%s, %s: Settle with max < 0 kept %d bytes", tc.name, ch.Name, len(text))
			}
			if len(text) < tc.minText {
				t.Errorf("%s, %s: Settle read %d bytes, want at least %d", tc.name, ch.Name, len(text), tc.minText)
			}
			if r.Result().Decided != tc.decided {
				t.Errorf("%s, %s: Decided() = %v, want %v", tc.name, ch.Name, r.Result().Decided, tc.decided)
			}
			res := r.Result()
			if res.Encoding != enc(tc.wantEnc) || res.Source != tc.wantFrom {
				t.Errorf("%s, %s: Result %v %v, want %s %v", tc.name, ch.Name, res.Encoding, res.Source, tc.wantEnc, tc.wantFrom)
			}
			rest, _ := io.ReadAll(r)
			if tc.max >= 0 {
				// Nothing lost: Settle's text and the rest are the whole.
				if whole := append(text, rest...); !bytes.Equal(whole, want) {
					t.Errorf("%s, %s: Settle's text + rest = %d bytes, want %d", tc.name, ch.Name, len(whole), len(want))
				}
			} else if !bytes.HasSuffix(want, rest) {
				t.Errorf("%s, %s: rest after discarding Settle is not the end of the text", tc.name, ch.Name)
			}
			if r.Result() != fresh.Result() {
				t.Errorf("%s, %s: final %+v, fresh %+v", tc.name, ch.Name, r.Result(), fresh.Result())
			}
		}
	}
}

// TestSettleErrors: a source error stops Settle, which returns it with the
// text before it; the next Settle reads the source again (a transient
// error loses nothing). io.EOF is not an error.
func TestSettleErrors(t *testing.T) {
	doc := "<html>" + strings.Repeat("<p>plain ASCII</p>\n", 200) + "caf\xe9"
	for _, max := range []int{1 << 20, -1} {
		r, _ := decode.NewReader(iotest.TimeoutReader(strings.NewReader(doc)))
		got, err := r.Settle(nil, max)
		if err != iotest.ErrTimeout {
			t.Fatalf("max %d: Settle error %v, want %v", max, err, iotest.ErrTimeout)
		}
		more, err := r.Settle(got, max)
		if err != nil || !r.Result().Decided {
			t.Fatalf("max %d: second Settle: %v, decided %v", max, err, r.Result().Decided)
		}
		rest, _ := io.ReadAll(r)
		if max >= 0 && string(append(more, rest...)) != "<html>"+strings.Repeat("<p>plain ASCII</p>\n", 200)+"café" {
			t.Errorf("max %d: text lost across the timeout: %d + %d bytes", max, len(more), len(rest))
		}
		fresh, _ := decode.NewReader(strings.NewReader(doc))
		io.ReadAll(fresh)
		if r.Result() != fresh.Result() {
			t.Errorf("max %d: Result %+v, fresh %+v", max, r.Result(), fresh.Result())
		}
	}
	r, _ := decode.NewReader(iotest.ErrReader(errSource))
	if _, err := r.Settle(nil, 100); err != errSource {
		t.Errorf("Settle error %v, want %v", err, errSource)
	}
	var zero decode.Reader
	if b, err := zero.Settle(nil, 100); err != nil || len(b) != 0 || !zero.Result().Decided {
		t.Errorf("zero Reader: Settle = %q, %v", b, err)
	}
}

// TestSettleReadRune: text ReadRune read ahead is Settle's text first.
func TestSettleReadRune(t *testing.T) {
	doc := "ab<html>" + strings.Repeat("<p>plain ASCII</p>\n", 200) + "caf\xe9"
	fresh, _ := decode.NewReader(strings.NewReader(doc))
	want, _ := io.ReadAll(fresh)
	r, _ := decode.NewReader(strings.NewReader(doc))
	c, _, _ := r.ReadRune()
	got, err := r.Settle([]byte{byte(c)}, 1<<20)
	rest, _ := io.ReadAll(r)
	if err != nil || string(append(got, rest...)) != string(want) {
		t.Errorf("ReadRune, Settle, ReadAll = %q, %v; want %q", append(got, rest...), err, want)
	}
	r, _ = decode.NewReader(strings.NewReader(doc))
	r.ReadRune()
	if _, err := r.Settle(nil, -1); err != nil || !r.Result().Decided {
		t.Fatalf("Settle(nil, -1) = %v, decided %v", err, r.Result().Decided)
	}
	if rest, _ := io.ReadAll(r); !bytes.HasSuffix(want, rest) {
		t.Errorf("ReadRune, Settle(nil, -1), ReadAll = %q: not the end of the text", rest)
	}
}

// TestSettleAllocs: a reused Reader settles without allocating, keeping
// the text in a buffer large enough or discarding it.
func TestSettleAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	doc := []byte("<html>" + strings.Repeat("<p>plain ASCII</p>\n", 200) + "caf\xe9 na\xefve" + strings.Repeat("<p>more</p>\n", 1000))
	src := bytes.NewReader(doc)
	var r decode.Reader
	buf := make([]byte, 0, 1<<20)
	for _, max := range []int{-1, 1 << 20} {
		settle := func() {
			src.Reset(doc)
			r.Reset(src)
			r.Settle(buf[:0], max)
		}
		settle()
		if a := testing.AllocsPerRun(50, settle); a != 0 {
			t.Errorf("Settle(buf, %d) on a reused Reader: %v allocations, want 0", max, a)
		}
	}
}
