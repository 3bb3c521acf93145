// Package testutil holds test helpers shared by charsniff's packages: the
// WHATWG decoding vectors and readers that split their data in chosen
// ways. Nothing here is for users.
package testutil

import (
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/override"
)

// Root returns the module's root directory (the one with go.mod), found by
// walking up from the current directory, which go test sets to the
// package's.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("testutil: no go.mod above the current directory")
		}
		dir = parent
	}
}

// A Vector is one line of testdata/whatwg-decode/*.jsonl: an input and the
// Encoding Standard's decoding of it without BOM handling and without
// preprocessing.
type Vector struct {
	Encoding override.Encoding
	Label    string // the file's name: "shift_jis", "utf-16le", ...
	In, Out  []byte
	Kind     string // "edge", "table", "text" or "random"
	Line     int
}

// vectorLine is a line of a vector file, as JSON.
type vectorLine struct {
	Encoding string `json:"encoding"`
	In       string `json:"in_b64"`
	Out      string `json:"out_b64"`
	Kind     string `json:"kind"`
}

// Vectors returns the decoding vectors of every encoding, keyed by label
// (the file name), and the labels in order.
func Vectors(t testing.TB) (map[string][]Vector, []string) {
	t.Helper()
	dir := filepath.Join(Root(t), "testdata", "whatwg-decode")
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("testutil: no vector files in %s (%v)", dir, err)
	}
	all := map[string][]Vector{}
	var labels []string
	for _, name := range files {
		label := strings.TrimSuffix(filepath.Base(name), ".jsonl")
		e, ok := override.Lookup(label)
		if !ok {
			t.Fatalf("%s: unknown encoding %q", name, label)
		}
		labels = append(labels, label)
		err := ReadJSONL(name, func(line int, v vectorLine) error {
			in, err1 := base64.StdEncoding.DecodeString(v.In)
			out, err2 := base64.StdEncoding.DecodeString(v.Out)
			if err1 != nil || err2 != nil {
				return fmt.Errorf("%s:%d: bad base64", name, line)
			}
			all[label] = append(all[label], Vector{e, label, in, out, v.Kind, line})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(labels)
	return all, labels
}

// ChunkReader returns a reader that returns data in pieces: its Read
// returns at most the next size of sizes (cycling through them; a size of
// 0 makes that Read return (0, nil)), and io.EOF with the last bytes.
func ChunkReader(data []byte, sizes ...int) io.Reader {
	if len(sizes) == 0 {
		sizes = []int{len(data) + 1}
	}
	return &chunkReader{data: data, sizes: sizes}
}

type chunkReader struct {
	data  []byte
	sizes []int
	i     int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	size := r.sizes[r.i%len(r.sizes)]
	r.i++
	n := copy(p, r.data[:min(size, len(r.data))])
	r.data = r.data[n:]
	if len(r.data) == 0 {
		return n, io.EOF
	}
	return n, nil
}

// SplitReader returns a reader that returns data in the pieces between the
// given cut positions (increasing offsets into data), one piece per Read
// if p is large enough, and (0, io.EOF) at the end.
func SplitReader(data []byte, cuts ...int) io.Reader {
	var pieces [][]byte
	prev := 0
	for _, c := range cuts {
		pieces = append(pieces, data[prev:c])
		prev = c
	}
	pieces = append(pieces, data[prev:])
	return &splitReader{pieces: pieces}
}

type splitReader struct {
	pieces [][]byte
}

func (r *splitReader) Read(p []byte) (int, error) {
	if len(r.pieces) > 0 && len(r.pieces[0]) == 0 {
		r.pieces = r.pieces[1:]
		return 0, nil // an empty piece is an empty read
	}
	if len(r.pieces) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.pieces[0])
	r.pieces[0] = r.pieces[0][n:]
	if len(r.pieces[0]) == 0 {
		r.pieces = r.pieces[1:]
	}
	return n, nil
}

// ErrAfter returns a reader that returns data, then err once, then io.EOF:
// a transient error such as a timeout, after which reading may go on.
func ErrAfter(data []byte, err error) io.Reader {
	return &errAfter{data: data, err: err}
}

type errAfter struct {
	data []byte
	err  error
}

func (r *errAfter) Read(p []byte) (int, error) {
	if len(r.data) > 0 {
		n := copy(p, r.data)
		r.data = r.data[n:]
		return n, nil
	}
	if r.err != nil {
		err := r.err
		r.err = nil
		return 0, err
	}
	return 0, io.EOF
}

// Repeat is a reader that returns data over and over, forever, without
// allocating: for allocation tests and benchmarks.
type Repeat struct {
	Data []byte
	off  int
}

// Read fills p with the next bytes of the endless repetition of Data.
func (r *Repeat) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := copy(p[n:], r.Data[r.off:])
		n += k
		r.off = (r.off + k) % len(r.Data)
	}
	return n, nil
}
