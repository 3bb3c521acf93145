package decode_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/decode/internal/singlebyte"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// allocInputs are inputs for the allocation tests: a page in each of the
// three paths (UTF-8, single-byte table, multi-byte codec, staged and
// direct), with CR LF, NUL and non-ASCII text.
var allocInputs = []struct {
	label string
	page  string
}{
	{"utf-8", "<p>caf\xC3\xA9 \xE2\x82\xAC\x00\r\n"},
	{"windows-1252", "<p>caf\xE9 \x80\x00\r\n"},
	{"shift_jis", "<p>\x82\xA0\x82\xA2\x00\r\n"},
	// Long runs take the codec's direct path (no stage), short ones and
	// those near a NUL the staged one.
	{"euc-jp", "<p>\xA4\xA2\xA4\xA4 text of some length to decode in place\r\n\x00"},
	{"gbk", "<p>\xC4\xE3\xBA\xC3 text of some length to decode in place\r\n\x00"},
}

// TestReadAllocs checks that Read, ReadRune and WriteTo do not allocate,
// and that Reset and reading a whole stream after it do not either.
func TestReadAllocs(t *testing.T) {
	if testutil.Race {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	for _, in := range allocInputs {
		t.Run(in.label, func(t *testing.T) {
			page := []byte(strings.Repeat(in.page, 300))
			opt := withOverride(in.label)
			r, err := decode.NewReader(&testutil.Repeat{Data: page}, opt)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 1000)
			if a := testing.AllocsPerRun(100, func() { r.Read(buf) }); a != 0 {
				t.Errorf("Read: %v allocations, want 0", a)
			}
			if a := testing.AllocsPerRun(100, func() { r.Read(buf[:1]) }); a != 0 {
				t.Errorf("Read of 1 byte: %v allocations, want 0", a)
			}
			if a := testing.AllocsPerRun(100, func() { r.ReadRune() }); a != 0 {
				t.Errorf("ReadRune: %v allocations, want 0", a)
			}

			src := bytes.NewReader(page)
			var sink discard
			if a := testing.AllocsPerRun(20, func() {
				src.Reset(page)
				r.Reset(src, opt)
				for {
					if _, err := r.Read(buf); err != nil {
						break
					}
				}
				src.Reset(page)
				r.Reset(src, opt)
				r.WriteTo(&sink)
			}); a != 0 {
				t.Errorf("Reset and reading to the end: %v allocations, want 0", a)
			}
		})
	}
}

// TestResetOptionsAllocs checks that Reset with options made beforehand
// does not allocate, switching between Content-Types of the three paths,
// the look-ahead on and off, once each encoding has been met.
func TestResetOptionsAllocs(t *testing.T) {
	if testutil.Race {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	var optSets [][]decode.Option
	for _, in := range allocInputs {
		optSets = append(optSets,
			[]decode.Option{withContentType("text/html; charset=" + in.label)},
			[]decode.Option{withContentType("text/html; charset=" + in.label), windowOnly},
			[]decode.Option{decode.WithSniff(sniff.Options{Default: enc(in.label), TLD: "example.ru"})})
	}
	page := []byte(strings.Repeat(allocInputs[0].page, 100))
	src := bytes.NewReader(page)
	r, err := decode.NewReader(src)
	if err != nil {
		t.Fatal(err)
	}
	var sink discard
	run := func() {
		for _, opts := range optSets {
			src.Reset(page)
			if err := r.Reset(src, opts...); err != nil {
				t.Fatal(err)
			}
			r.WriteTo(&sink)
		}
	}
	run() // meet each encoding once
	if a := testing.AllocsPerRun(20, run); a != 0 {
		t.Errorf("Reset and reading to the end: %v allocations for %d streams, want 0", a, len(optSets))
	}
}

// TestNewReaderAllocs checks the allocations of NewReader: two (the
// Reader and its pointer-free input buffer) for UTF-8 and the single-byte
// encodings, at most three for the others (also the codec's decoder; the
// stage it may decode into waits for its first use).
func TestNewReaderAllocs(t *testing.T) {
	for _, e := range override.All() {
		want := 3.0
		if e == override.UTF8 || singlebyte.Is(e) || e == override.XUserDefined {
			want = 2
		}
		opts := []decode.Option{withOverride(e.Name())}
		src := strings.NewReader("")
		a := testing.AllocsPerRun(100, func() {
			src.Reset("<p>hello")
			decode.NewReader(src, opts...)
		})
		if a > want {
			t.Errorf("%v: NewReader: %v allocations, want at most %v", e, a, want)
		}
	}
}

// discard is io.Discard without the io.ReaderFrom that would let io.Copy
// bypass WriteTo.
type discard struct{}

func (*discard) Write(p []byte) (int, error) { return len(p), nil }
