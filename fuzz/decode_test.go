package fuzz

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/decode/codec"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// Mode bits of FuzzDecode.
const (
	windowOnly  = 1 << iota // WithLookahead(0)
	rawNewlines             // WithoutPreprocessing (this bit or the next)
	rawNUL                  // WithoutPreprocessing
	sniffMode               // sniff (the encoding is the default) instead of WithEncoding
	eofWithData             // the source returns io.EOF with its last bytes
	// bits 5-6: the window in sniff mode (default, 3, 100, 5000)
)

var sniffWindows = [4]int{0, 3, 100, 5000}

// memoryStream is the length of the stream the memory check decodes: the
// input repeated.
const memoryStream = 64 << 10

// FuzzDecode checks decode.Reader for every encoding (the fuzzer picks it
// with a byte), any input, with and without preprocessing, with the
// encoding fixed (WithEncoding) or sniffed (the fuzzer's encoding as the
// default), with the look-ahead or the window alone:
//
//   - The output is the Encoding Standard's decode by the codec decoder in
//     one shot (codec.Encoding(e).NewDecoder()) of the final encoding
//     (Result().Encoding: the look-ahead switches only after ASCII, which
//     every encoding it switches between decodes alike), with the leading
//     byte order mark of the encoding, and only that one, removed, then CR
//     LF and CR turned into LF and U+0000 into U+FFFD. With
//     WithoutPreprocessing it is the codec decoder's output less the BOM.
//   - So it is valid UTF-8, and has no CR and no U+0000 while
//     preprocessing is on (checked directly too).
//   - It is the same whatever the chunking: the source returns the
//     fuzzer's chunk sizes (empty reads and io.EOF with data included), and
//     the output is taken with the fuzzer's mix of Read (any size, 0 to 3
//     bytes included), ReadRune and WriteTo. The sniffing result too.
//   - Memory is bounded: on a sample of inputs, the input repeated to a
//     64 KB stream is decoded with runtime.MemStats read before NewReader
//     and after the last Read. Creating the reader may allocate (the
//     Reader, a codec decoder, a window above 4 KB), reading may not, so
//     the count and the bytes allocated must stay under a bound that does
//     not depend on the length of the stream. A reader whose buffers grew
//     with the input, or that allocated per Read, fails it.
func FuzzDecode(f *testing.F) {
	for i, in := range html5libInputs(f) {
		f.Add(uint8(i), in, uint8(i*11), []byte{byte(i), 7}, []byte{byte(i * 5), 2, 9})
	}
	for i, in := range testutil.SamplePages(f) {
		f.Add(uint8(i), in, uint8(sniffMode), []byte{}, []byte{})
		f.Add(uint8(i*3), in, uint8(i*5), []byte{1, 200, 0}, []byte{0, 10, 255, 33})
	}
	for i, s := range nastyInputs {
		f.Add(uint8(i), []byte(s), uint8(i*13), []byte{byte(i % 3), 1}, []byte{byte(i), 6, 8})
	}
	f.Add(uint8(override.UTF8-1), []byte("\xEF\xBB\xBF\xEF\xBB\xBFa\r"), uint8(0), []byte{1}, []byte{2})
	f.Add(uint8(override.UTF16LE-1), []byte("\xFF\xFE\r\x00\n\x00\x00\x00"), uint8(0), []byte{1}, []byte{2})
	f.Add(uint8(override.GB18030-1), []byte("\x84\x31\x95\x33\r\n"), uint8(0), []byte{3}, []byte{0})

	f.Fuzz(func(t *testing.T, which uint8, in []byte, mode uint8, chunks, ops []byte) {
		e := override.Encoding(1 + int(which)%override.NumEncodings)
		var opts []decode.Option
		if mode&sniffMode != 0 {
			opts = append(opts, decode.WithSniff(sniff.Options{Default: e, Window: sniffWindows[mode>>5&3]}))
		} else {
			opts = append(opts, decode.WithEncoding(e))
		}
		raw := mode&(rawNewlines|rawNUL) != 0
		if raw {
			opts = append(opts, decode.WithoutPreprocessing())
		}
		if mode&windowOnly != 0 {
			opts = append(opts, decode.WithLookahead(0))
		}

		// The reader in one piece gives the encoding and the BOM.
		r, err := decode.NewReader(bytes.NewReader(in), opts...)
		if err != nil {
			t.Fatalf("NewReader(%v): %v", e, err)
		}
		oneShot, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("%v: ReadAll: %v", e, err)
		}
		res := r.Result()
		enc := res.Encoding
		if mode&sniffMode == 0 && enc != e {
			t.Fatalf("WithEncoding(%v): Result() = %+v", e, res)
		}
		if mode&windowOnly != 0 && res.Late.Kind != decode.NoChange {
			t.Fatalf("WithLookahead(0): Result() = %+v", res)
		}

		// The oracle: codec decode, BOM of the encoding dropped, preprocessing.
		src := in
		if bom := boms[enc]; bytes.HasPrefix(in, []byte(bom)) {
			src = in[len(bom):]
			if mode&sniffMode != 0 && res.BOMLength != len(bom) {
				t.Fatalf("%v: %x starts with a BOM but Result() = %+v", enc, in, res)
			}
		}
		dec, err := codec.Encoding(enc).NewDecoder().Bytes(src)
		if err != nil {
			t.Fatalf("%v: codec decode of %x: %v", enc, src, err)
		}
		want := preprocess(dec, !raw, !raw)
		if !bytes.Equal(oneShot, want) {
			t.Fatalf("%v (mode %#x): decode(%x)\ngot  %q\nwant %q", enc, mode, in, oneShot, want)
		}
		checkOutput(t, enc, in, oneShot, mode)

		// Chunked source, mixed reads.
		cs := &chunkSource{data: in, sizes: chunks, eofWithData: mode&eofWithData != 0}
		r2, err := decode.NewReader(cs, opts...)
		if err != nil {
			t.Fatal(err)
		}
		got := readMixed(t, r2, ops, make([]byte, 0, len(want)+8))
		if !bytes.Equal(got, want) {
			t.Fatalf("%v (mode %#x): %x in chunks %v, reads %v\ngot  %q\nwant %q", enc, mode, in, chunks, ops, got, want)
		}
		if r2.Result() != res {
			t.Fatalf("%x in chunks %v: Result() = %+v, in one piece %+v", in, chunks, r2.Result(), res)
		}

		if len(in) > 0 && (len(in)+int(which))%8 == 0 {
			checkMemory(t, in, opts, chunks, ops, enc, mode&sniffMode != 0 && mode&windowOnly == 0, sniffWindows[mode>>5&3]*int(mode>>3&1))
		}
	})
}

// checkOutput checks the properties of a decoded stream that do not need
// the oracle.
func checkOutput(t *testing.T, enc override.Encoding, in, out []byte, mode uint8) {
	t.Helper()
	raw := mode&(rawNewlines|rawNUL) != 0
	if !utf8.Valid(out) {
		t.Fatalf("%v: decode(%x) = %q: not UTF-8", enc, in, out)
	}
	if !raw && bytes.IndexByte(out, '\r') >= 0 {
		t.Fatalf("%v: decode(%x) = %q: CR with newline normalization", enc, in, out)
	}
	if !raw && bytes.IndexByte(out, 0) >= 0 {
		t.Fatalf("%v: decode(%x) = %q: U+0000 with NUL replacement", enc, in, out)
	}
}

// checkMemory decodes in repeated to a memoryStream-byte stream and checks
// the allocations from NewReader to the end of the stream. window is the
// window of the options (0 for the default); looking says that the reader
// sniffs with the look-ahead on, which may hold up to the lookahead.
//
// runtime.MemStats counts the allocations of the whole process, and now
// and then something else (the runtime, the testing package) allocates
// during the measurement; so a measurement over the bound is repeated, and
// the check fails only if three in a row are over. A reader that allocates
// per Read or grows with its input is over every time.
func checkMemory(t *testing.T, in []byte, opts []decode.Option, chunks, ops []byte, enc override.Encoding, looking bool, window int) {
	t.Helper()
	// The Reader and its input buffer, a codec decoder and its stage for a
	// multi-byte encoding (small), a detector for the autodetection step
	// (sniff pools them, but a pool may be empty: after a garbage
	// collection, or at random under the race detector), a window buffer
	// above 4 KB. With the look-ahead: the <meta> scanner and the held
	// bytes, pooled too, which grow from 8 KB by doubling up to the
	// lookahead when the pool is empty: 8, 16, 32 and 64 KB, four arrays
	// of less than twice the lookahead in all.
	//
	// Under the race detector sync.Pool drops items at random, every
	// pooled buffer may be allocated afresh, and the numbers say nothing
	// about the reader: the check is for the other builds (the README's
	// go test ./..., and the fuzz smoke of CI).
	if testutil.Race {
		return
	}
	maxAllocs, maxBytes := uint64(5), uint64(16<<10)
	if looking {
		maxAllocs += 1 + 4
		maxBytes += 2 * (64 << 10) // twice the default lookahead (decode.WithLookahead)
	}
	if window > 4096 {
		maxAllocs++
		maxBytes += uint64(window)
	}
	scratch := make([]byte, 4096)
	var allocs, bytes uint64
	var total int
	for range 3 {
		src := &chunkSource{data: in, sizes: chunks, repeat: memoryStream/len(in) + 1}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		r, err := decode.NewReader(src, opts...)
		if err != nil {
			t.Fatal(err)
		}
		err = drainMixed(r, ops, scratch)
		runtime.ReadMemStats(&m1)
		if err != nil {
			t.Fatalf("%v: reading %x repeated, reads %v: %v", enc, in, ops, err)
		}
		allocs, bytes, total = m1.Mallocs-m0.Mallocs, m1.TotalAlloc-m0.TotalAlloc, src.total
		if allocs <= maxAllocs && bytes <= maxBytes {
			return
		}
	}
	t.Fatalf("%v: decoding %d bytes (%x repeated, chunks %v, reads %v): %d allocations, %d bytes; want at most %d, %d",
		enc, total, in, chunks, ops, allocs, bytes, maxAllocs, maxBytes)
}

// boms are the byte order marks of the encodings that have one, written
// out here rather than taken from package decode: the test's own answer.
var boms = map[override.Encoding]string{
	override.UTF8: "\xEF\xBB\xBF", override.UTF16BE: "\xFE\xFF", override.UTF16LE: "\xFF\xFE",
}

// preprocess is the HTML input-stream preprocessing written the obvious
// way: CR LF and lone CR become LF, U+0000 becomes U+FFFD.
func preprocess(s []byte, newlines, nul bool) []byte {
	out := string(s)
	if newlines {
		out = strings.ReplaceAll(out, "\r\n", "\n")
		out = strings.ReplaceAll(out, "\r", "\n")
	}
	if nul {
		out = strings.ReplaceAll(out, "\x00", "\uFFFD")
	}
	return []byte(out)
}

// chunkSource is an io.Reader over data (repeated repeat times, once if
// repeat is 0) that returns pieces of the sizes in sizes, cycled: a size of
// 0 is one read that returns (0, nil) (never twice in a row); no sizes
// means as much as fits. With eofWithData the last piece comes with
// io.EOF. It does not allocate.
type chunkSource struct {
	data        []byte
	sizes       []byte
	eofWithData bool
	repeat      int

	off, k, rep int
	total       int // bytes returned
	lastZero    bool
}

func (s *chunkSource) Read(p []byte) (int, error) {
	if s.rep >= max(s.repeat, 1) || len(s.data) == 0 {
		return 0, io.EOF
	}
	n := len(p)
	if len(s.sizes) > 0 {
		n = int(s.sizes[s.k%len(s.sizes)])
		s.k++
		if n == 0 && !s.lastZero && len(p) > 0 {
			s.lastZero = true
			return 0, nil
		}
	}
	s.lastZero = false
	n = min(max(n, 1), len(p), len(s.data)-s.off)
	copy(p, s.data[s.off:s.off+n])
	s.off += n
	s.total += n
	if s.off == len(s.data) {
		s.off = 0
		s.rep++
		if s.eofWithData && s.rep >= max(s.repeat, 1) {
			return n, io.EOF
		}
	}
	return n, nil
}

// readMixed reads r to the end with the operations of ops, cycled: op%8 is
// 0 or 4 for ReadRune, 1 for WriteTo (which reads the rest), else Read
// into a buffer of op>>3 bytes (0 to 30; 31 means 4096). A Read of 0 bytes
// right after another one reads 1 byte instead, so that the loop ends, and
// ReadRune after a Read that stopped inside a character reads 1 byte
// instead (ReadRune would rightly return U+FFFD for each continuation
// byte, losing them). No ops means io.ReadAll. It appends the output to
// out.
func readMixed(t *testing.T, r *decode.Reader, ops []byte, out []byte) []byte {
	t.Helper()
	if len(ops) == 0 {
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("ReadAll: %v", err)
		}
		return append(out, b...)
	}
	var buf [4096]byte
	if err := mixedReads(r, ops, buf[:], &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// drainMixed reads r to the end like readMixed, without keeping the output
// (so ReadRune is used wherever ops say) and without allocating; no ops
// means WriteTo.
func drainMixed(r *decode.Reader, ops []byte, buf []byte) error {
	if len(ops) == 0 {
		_, err := r.WriteTo(discard{})
		return err
	}
	return mixedReads(r, ops, buf, nil)
}

// mixedReads reads r to the end with the operations of ops (at least one),
// as readMixed says, Reads into buf. With keep it appends the output to
// *keep and reads 1 byte for a ReadRune that would start inside a
// character; without, it allocates nothing unless r fails. It returns the
// first way in which r broke its contract.
func mixedReads(r *decode.Reader, ops []byte, buf []byte, keep *[]byte) error {
	lastZero := false
	for k := 0; ; k++ {
		op := ops[k%len(ops)]
		if op%4 == 0 && keep != nil && !endsOnBoundary(*keep) {
			op = 1<<3 | 2 // Read 1 byte
		}
		size := opSize(op, lastZero, len(buf))
		lastZero = false
		switch op % 8 {
		case 0, 4:
			ch, size, err := r.ReadRune()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("ReadRune: %w", err)
			}
			if keep == nil {
				continue
			}
			if ch == utf8.RuneError && size == 1 || size != utf8.RuneLen(ch) {
				return fmt.Errorf("ReadRune = %U, %d after %q: not UTF-8", ch, size, *keep)
			}
			*keep = utf8.AppendRune(*keep, ch)
		case 1:
			var w io.Writer = discard{}
			if keep != nil {
				w = &appendWriter{keep}
			}
			if _, err := r.WriteTo(w); err != nil {
				return fmt.Errorf("WriteTo: %w", err)
			}
			if n, err := r.Read(buf); n != 0 || err != io.EOF {
				return fmt.Errorf("Read after WriteTo = %d, %v, want 0, EOF", n, err)
			}
			return nil
		default:
			n, err := r.Read(buf[:size])
			if keep != nil {
				*keep = append(*keep, buf[:n]...)
			}
			if err == io.EOF {
				if n != 0 {
					return fmt.Errorf("Read = %d, EOF: want data and EOF apart", n)
				}
				return nil
			}
			if err != nil {
				return fmt.Errorf("Read: %w", err)
			}
			if n == 0 && size > 0 {
				return fmt.Errorf("Read(%d bytes) = 0, nil", size)
			}
			lastZero = size == 0
		}
	}
}

// opSize returns the buffer size of a Read operation of mixedReads:
// op>>3 bytes, 31 meaning the whole buffer of bufLen bytes, and
// 1 for a 0 right after a Read of 0 bytes.
func opSize(op byte, lastZero bool, bufLen int) int {
	size := int(op >> 3)
	switch {
	case size == 31:
		size = bufLen
	case size == 0 && lastZero:
		size = 1
	}
	return size
}

// endsOnBoundary reports whether out does not end inside a UTF-8
// character.
func endsOnBoundary(out []byte) bool {
	for i := len(out) - 1; i >= 0 && i >= len(out)-utf8.UTFMax; i-- {
		if utf8.RuneStart(out[i]) {
			return utf8.FullRune(out[i:])
		}
	}
	return true
}

// appendWriter appends what is written to *b. It is not an io.ReaderFrom,
// so io.Copy-like callers cannot bypass WriteTo.
type appendWriter struct{ b *[]byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	*w.b = append(*w.b, p...)
	return len(p), nil
}

// discard is io.Discard without ReadFrom, a value type so that converting
// it to an io.Writer does not allocate.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// FuzzReset checks that reuse is invisible: a decode.Reader left anywhere
// in a first document (the fuzzer's stop point and kind: reads, Decided,
// ReadRune, Settle, a source that fails there, ChangeEncoding) and Reset
// to a second document gives the second's Result and text exactly as a
// fresh Reader does. The options of each stream come from the mode byte
// (the look-ahead short or off, no preprocessing); the second is read one
// byte at a time from its source half the time.
func FuzzReset(f *testing.F) {
	long := bytes.Repeat([]byte("<p>plain ASCII</p>\n"), 300)
	late := append(append([]byte("<html>"), long...), "caf\xe9 \xe0 la"+string(long)...)
	f.Add(late, []byte("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<rss>\x82\xa0</rss>"), uint16(0), byte(0x20))
	f.Add(late, append(append([]byte("<html>"), long...), `<meta charset="big5">`+"\xa4\xa4"...), uint16(2000), byte(0x21))
	f.Add([]byte("a\r"), []byte("\nb"), uint16(5), byte(0))
	f.Add([]byte("\xff\xfe<\x00"), []byte("\xfe\xff\x00<"), uint16(1), byte(0x13))
	f.Fuzz(func(t *testing.T, first, second []byte, stop uint16, mode byte) {
		k := int(stop)
		opts := func(m byte) []decode.Option {
			var o []decode.Option
			switch m & 3 {
			case 1:
				o = append(o, decode.WithLookahead(0))
			case 2:
				o = append(o, decode.WithLookahead(300))
			}
			if m&4 != 0 {
				o = append(o, decode.WithoutPreprocessing())
			}
			return o
		}
		r := new(decode.Reader)
		src := io.Reader(bytes.NewReader(first))
		if mode>>4&7 == 5 {
			src = io.MultiReader(bytes.NewReader(first[:min(k, len(first))]), iotest.ErrReader(errors.New("failed")))
		}
		if err := r.Reset(src, opts(mode)...); err != nil {
			t.Fatal(err)
		}
		switch mode >> 4 & 7 {
		case 1:
			io.ReadFull(r, make([]byte, k))
		case 2:
			for !r.Result().Decided {
				if _, err := r.Read(make([]byte, 7)); err != nil {
					break
				}
			}
		case 3:
			for range k {
				if _, _, err := r.ReadRune(); err != nil {
					break
				}
			}
		case 4:
			r.Settle(nil, k)
		case 5:
			io.Copy(io.Discard, r)
		case 6:
			io.ReadFull(r, make([]byte, k%100))
			r.ChangeEncoding(override.Encoding(1 + k%override.NumEncodings))
			io.ReadFull(r, make([]byte, k))
		}
		wrap := func(b []byte) io.Reader {
			if mode&8 != 0 {
				return iotest.OneByteReader(bytes.NewReader(b))
			}
			return bytes.NewReader(b)
		}
		o2 := opts(mode >> 7)
		if err := r.Reset(wrap(second), o2...); err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		fresh, _ := decode.NewReader(wrap(second), o2...)
		want, _ := io.ReadAll(fresh)
		if r.Result() != fresh.Result() || !bytes.Equal(got, want) {
			t.Fatalf("after Reset: %+v, %q\nfresh:       %+v, %q", r.Result(), got, fresh.Result(), want)
		}
	})
}
