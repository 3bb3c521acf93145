package fuzz

import (
	"bytes"
	"testing"

	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
)

// referenceWindow is the reference's window for a prescan.Options window:
// zero is the default, negative is no limit.
func referenceWindow(w int) int {
	if w == 0 {
		return prescan.DefaultWindow
	}
	return w
}

// FuzzPrescan checks the fast prescan against the literal reference
// (internal/reference) on any bytes, any window (0 is the default 1024,
// negative is no limit, and the fuzzer picks tiny windows and windows
// beyond the input), and either label matching. It also checks that the
// resumable Scanner gives the one-shot answer whatever the chunking (the
// fuzzer picks the chunk sizes, empty chunks included), that an answer
// called final before Close is the answer. A sample of inputs is checked for zero allocations.
func FuzzPrescan(f *testing.F) {
	for i, in := range html5libInputs(f) {
		f.Add(in, int16(0), i%7 == 0, []byte{byte(i), 3})
	}
	for _, in := range testutil.SamplePages(f) {
		f.Add(in, int16(0), false, []byte{200})
		f.Add(in, int16(-1), false, []byte{1, 64})
	}
	for i, s := range nastyInputs {
		f.Add([]byte(s), int16(i%5), i%3 == 0, []byte{byte(i % 4)})
	}
	f.Add([]byte("<meta charset=gbk>"), int16(18), false, []byte{17, 1})
	f.Add([]byte("<meta charset=gbk>"), int16(17), false, []byte{0, 5})
	f.Add([]byte("<!-- x --><meta charset=big5>"), int16(12), false, []byte{6})
	f.Add([]byte(`<?xml encoding="gbk"?><meta charset=big5>`), int16(30), false, []byte{9})
	f.Add([]byte("<meta charset=GB_2312-80>"), int16(-5), true, []byte{2})

	f.Fuzz(func(t *testing.T, in []byte, w int16, legacy bool, chunks []byte) {
		window := int(w)
		opts := prescan.Options{Window: window, Legacy: legacy}
		got := prescan.Prescan(in, &opts)

		// The literal reference is the oracle.
		want := reference.Prescan(in, referenceWindow(window), legacy)
		gotSource := got.Rule.String()
		if !got.Found() {
			gotSource = ""
		}
		if got.Encoding != want.Encoding || gotSource != want.Source || got.Offset != want.Offset {
			t.Fatalf("Prescan(%q, window %d, legacy %v) = %v %q %d, reference says %v %q %d",
				in, window, legacy, got.Encoding, gotSource, got.Offset, want.Encoding, want.Source, want.Offset)
		}

		// Internal consistency of the answer.
		if got.Found() != got.Encoding.Valid() || got.Found() != (got.Offset > 0) || got.Offset > len(in) {
			t.Fatalf("Prescan(%q, window %d) = %+v: inconsistent", in, window, got)
		}
		if got.Rule == prescan.Meta {
			if got.Encoding.IsUTF16() || got.Encoding == override.XUserDefined {
				t.Fatalf("Prescan(%q) = %+v: a <meta> never gives UTF-16 or x-user-defined", in, got)
			}
			if lim := referenceWindow(window); lim >= 0 && got.Offset > lim {
				t.Fatalf("Prescan(%q, window %d) = %+v: <meta> ends past the window", in, window, got)
			}
		}

		// The resumable Scanner, in the fuzzer's chunks (cycled; a zero
		// is an empty chunk; no chunks is one chunk).
		var s prescan.Scanner
		s.Reset(&opts)
		var final prescan.Result
		isFinal := false
		fed := 0
		feedChunks(in, chunks, func(c []byte) {
			r, ok := s.Feed(c)
			fed += len(c)
			if s.Offset() != fed {
				t.Fatalf("%q: Offset() = %d after feeding %d bytes", in, s.Offset(), fed)
			}
			if isFinal && (!ok || r != final) {
				t.Fatalf("%q in chunks %v: final answer %+v became %+v, %v", in, chunks, final, r, ok)
			}
			if ok && !isFinal {
				final, isFinal = r, true
				if r != got {
					t.Fatalf("%q in chunks %v, window %d: final answer %+v after %d bytes, want %+v",
						in, chunks, window, r, fed, got)
				}
			}
		})
		if r, ok := s.Result(); isFinal && (!ok || r != final) {
			t.Fatalf("%q: Result() = %+v, %v after final %+v", in, r, ok, final)
		}
		if r := s.Close(); r != got {
			t.Fatalf("%q in chunks %v, window %d: Close() = %+v, want %+v", in, chunks, window, r, got)
		}

		// Zero allocations, on a sample (AllocsPerRun stops the world).
		if len(in)%8 == 1 {
			if a := allocsPerCall(func() { prescan.Prescan(in, &opts) }); a != 0 {
				t.Fatalf("Prescan(%q, %+v) allocated %v times, want 0", in, opts, a)
			}
		}
	})
}

// feedChunks calls feed with consecutive pieces of in whose sizes are the
// bytes of sizes, cycled (0 is an empty piece, after which the next piece
// has at least one byte so that the loop ends); with no sizes, in is one
// piece.
func feedChunks(in []byte, sizes []byte, feed func([]byte)) {
	if len(sizes) == 0 {
		feed(in)
		return
	}
	for i, k := 0, 0; i < len(in); k++ {
		n := int(sizes[k%len(sizes)])
		if n == 0 {
			feed(in[i:i])
			n = 1
		}
		n = min(n, len(in)-i)
		feed(in[i : i+n])
		i += n
	}
}

// FuzzTokenizerMeta checks the <meta> scan in tokenizer mode (the
// look-ahead's, prescan.Options.Tokenizer) against golang.org/x/net/html's
// tokenizer: the first <meta> start tag the tokenizer emits whose
// attributes name an encoding under the tree builder's rule is the one the
// scan finds (same encoding, same offset past its >), for the input in one
// piece and in the fuzzer's chunks, where the tokenizer alone suffices (no
// svg, math or frameset: reference.TokenizerSuffices); and the encoding is
// the one of the first <meta> of x/net's tree builder
// (reference.TreeOracle) wherever that answers.
//
// x/net leaves the standard in one state, script data escaped less-than
// sign (a byte other than / or a letter goes back to script data; the
// standard stays escaped); prescan's own TestTokenizerDifferential shows
// that this is the only difference. Here an input where x/net may take that
// path (a <!- after which comes a < followed by neither / nor a letter)
// may differ. A <meta> tag with an & is judged on its raw bytes: x/net
// decodes character references in attribute values, the prescan's rules
// do not.
func FuzzTokenizerMeta(f *testing.F) {
	for i, in := range html5libInputs(f) {
		f.Add(in, []byte{byte(i), 3})
	}
	for _, s := range []string{
		"<script>'<meta charset=iso-8859-2>'</script><meta charset=koi8-r>",
		"<style></style a='>'><meta charset=gbk>",
		"<script><!--<script></script><meta charset=big5></script><meta charset=euc-kr>",
		"<!-- --!><meta charset=shift_jis>-->",
		"<title></TITLE\f><meta http-equiv=content-type content='charset=euc-jp'>",
		"<plaintext><meta charset=koi8-u>",
		"<a/x=\"y><meta charset=gb18030>\"><meta charset=iso-8859-5>",
		"<noscript><meta charset=koi8-r></noscript ><meta charset=windows-1251>",
	} {
		f.Add([]byte(s), []byte{3, 1, 200})
	}
	f.Fuzz(func(t *testing.T, in, chunks []byte) {
		wantEnc, wantOff := reference.TokenizerMeta(in)
		var s prescan.Scanner
		s.Reset(&prescan.Options{Window: -1, Tokenizer: true})
		s.Feed(in)
		whole := s.Close()
		s.Reset(&prescan.Options{Window: -1, Tokenizer: true})
		feedChunks(in, chunks, func(c []byte) { s.Feed(c) })
		if got := s.Close(); got != whole {
			t.Fatalf("%q in chunks %v: %+v, in one piece %+v", in, chunks, got, whole)
		}
		if whole.Rule != prescan.Meta {
			whole = prescan.Result{}
		}
		if xnetEscapeMayMatter(in) {
			return
		}
		if tEnc, ok := reference.TreeOracle(in, false); ok && whole.Encoding != tEnc {
			t.Fatalf("%q: scan finds %v ending at %d, x/net's tree builder %v", in, whole.Encoding, whole.Offset, tEnc)
		}
		if (whole.Encoding != wantEnc || whole.Offset != wantOff) && reference.TokenizerSuffices(in) {
			t.Fatalf("%q: scan finds %v ending at %d, x/net's tokenizer %v ending at %d", in, whole.Encoding, whole.Offset, wantEnc, wantOff)
		}
	})
}

// xnetEscapeMayMatter reports whether x/net's script data escaped
// less-than sign may take its non-standard path in b: a < followed by
// neither / nor a letter after a <!-.
func xnetEscapeMayMatter(b []byte) bool {
	i := bytes.Index(b, []byte("<!-"))
	if i < 0 {
		return false
	}
	for b = b[i+3:]; ; {
		j := bytes.IndexByte(b, '<')
		if j < 0 || j+1 >= len(b) {
			return false
		}
		if c := b[j+1] | 0x20; c != '/' && (c < 'a' || c > 'z') {
			return true
		}
		b = b[j+1:]
	}
}
