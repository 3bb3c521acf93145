package decode_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/decode/codec"
	"github.com/charsniff/charsniff/override"
)

// prep says which preprocessing steps the reference applies.
type prep struct {
	stripBOM, newlines, nul bool
}

var (
	full = prep{true, true, true}
	none = prep{}
)

// refDecode is the slow, obvious reference for what a Reader returns: BOM
// sniffing (if sniff), the codec's decoder run over the whole input at once,
// then the preprocessing done with strings.ReplaceAll. With atEOF false, a
// sequence cut off at the end is left out, as a Reader holds it back at a
// source error.
func refDecode(t testing.TB, e override.Encoding, in []byte, sniff bool, p prep, atEOF bool) []byte {
	t.Helper()
	if sniff {
		switch {
		case bytes.HasPrefix(in, []byte("\xEF\xBB\xBF")):
			e = override.UTF8
		case bytes.HasPrefix(in, []byte("\xFE\xFF")):
			e = override.UTF16BE
		case bytes.HasPrefix(in, []byte("\xFF\xFE")):
			e = override.UTF16LE
		}
	}
	if p.stripBOM {
		for _, b := range []struct {
			e   override.Encoding
			bom string
		}{{override.UTF8, "\xEF\xBB\xBF"}, {override.UTF16BE, "\xFE\xFF"}, {override.UTF16LE, "\xFF\xFE"}} {
			if e == b.e && bytes.HasPrefix(in, []byte(b.bom)) {
				in = in[len(b.bom):]
			}
		}
	}
	s := string(oneShot(t, e, in, atEOF))
	if p.newlines {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	if p.nul {
		s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	return []byte(s)
}

// oneShot runs the codec's decoder for e over all of in.
func oneShot(t testing.TB, e override.Encoding, in []byte, atEOF bool) []byte {
	t.Helper()
	tr := codec.Encoding(e).NewDecoder().Transformer
	dst := make([]byte, 4*len(in)+16)
	n, _, err := tr.Transform(dst, in, atEOF)
	if err != nil && (atEOF || err != transform.ErrShortSrc) {
		t.Fatalf("oneShot %v: %v", e, err)
	}
	return dst[:n]
}

// decodeAll decodes src with a new Reader of opts to the end: through
// WriteTo if bufSize is 0, io.ReadAll if it is negative, and Reads of
// bufSize bytes (readAll) otherwise.
func decodeAll(t testing.TB, src io.Reader, bufSize int, opts ...decode.Option) ([]byte, error) {
	t.Helper()
	r, err := decode.NewReader(src, opts...)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case bufSize == 0:
		var b bytes.Buffer
		_, err := r.WriteTo(&b)
		return b.Bytes(), err
	case bufSize < 0:
		return io.ReadAll(r)
	}
	return readAll(t, r, bufSize)
}

// readAll reads r to the end with reads of bufSize bytes, going on after
// iotest.ErrTimeout. It fails the test on a run of (0, nil) reads.
func readAll(t testing.TB, r io.Reader, bufSize int) ([]byte, error) {
	t.Helper()
	var got []byte
	buf := make([]byte, bufSize)
	empty := 0
	for {
		n, err := r.Read(buf)
		got = append(got, buf[:n]...)
		if n == 0 && err == nil {
			if empty++; empty > 100 {
				t.Fatal("Read returned (0, nil) 100 times in a row")
			}
		} else {
			empty = 0
		}
		switch {
		case errors.Is(err, iotest.ErrTimeout):
			continue
		case err == io.EOF:
			return got, nil
		case err != nil:
			return got, err
		}
	}
}

// runeAll reads r to the end with ReadRune and returns the UTF-8 of the
// runes.
func runeAll(t testing.TB, r io.RuneReader) ([]byte, error) {
	t.Helper()
	var got []byte
	for {
		c, size, err := r.ReadRune()
		if errors.Is(err, iotest.ErrTimeout) {
			continue
		}
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		n := len(got)
		got = append(got, string(c)...)
		if len(got)-n != size {
			t.Fatalf("ReadRune size %d for %U", size, c)
		}
	}
}
