package warctest

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Bytes returns rec written on its own, as a Writer of its own writes it:
// uncompressed, or as one gzip member if compress is set.
func Bytes(rec Record, compress bool) []byte {
	var b bytes.Buffer
	if _, err := NewWriter(&b, compress).Write(rec); err != nil {
		panic(err) // a bytes.Buffer does not fail
	}
	return b.Bytes()
}

// Segments returns the Bytes of each record.
func Segments(compress bool, recs ...Record) [][]byte {
	out := make([][]byte, len(recs))
	for i, rec := range recs {
		out[i] = Bytes(rec, compress)
	}
	return out
}

// Join joins pieces (records, damaged records, garbage) into one input and
// returns the offset where each piece starts in it.
func Join(pieces ...[]byte) ([]byte, []int64) {
	var b []byte
	var at []int64
	for _, p := range pieces {
		at = append(at, int64(len(b)))
		b = append(b, p...)
	}
	return b, at
}

// LengthField returns where the value of the first Content-Length field
// in seg, an uncompressed record (its record header's field), starts and
// ends.
func LengthField(seg []byte) (start, end int) {
	i := bytes.Index(seg, []byte("Content-Length: ")) + len("Content-Length: ")
	return i, i + bytes.IndexByte(seg[i:], '\r')
}

// WithLength returns a copy of seg, an uncompressed record, with its
// Content-Length changed by delta.
func WithLength(seg []byte, delta int64) []byte {
	i, j := LengthField(seg)
	n, _ := strconv.ParseInt(string(seg[i:j]), 10, 64)
	return SetLength(seg, n+delta)
}

// SetLength returns a copy of seg, an uncompressed record, with its
// Content-Length set to n.
func SetLength(seg []byte, n int64) []byte {
	i, j := LengthField(seg)
	out := append([]byte{}, seg[:i]...)
	out = strconv.AppendInt(out, n, 10)
	return append(out, seg[j:]...)
}

// DiffLines shows got and want side by side from their first difference,
// for a test's failure message.
func DiffLines(got, want []string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d lines equal, then\n", i)
	for k := i; k < min(i+6, max(len(got), len(want))); k++ {
		var g, w string
		if k < len(got) {
			g = got[k]
		}
		if k < len(want) {
			w = want[k]
		}
		fmt.Fprintf(&b, "got  %-30s want %s\n", g, w)
	}
	fmt.Fprintf(&b, "(%d lines, want %d)", len(got), len(want))
	return b.String()
}
