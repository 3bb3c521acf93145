package testutil

import (
	"io"
	"math/rand/v2"
	"testing/iotest"
)

// A Chunking is one way a source hands out its bytes: Wrap returns a reader
// of the same bytes in Name's pieces.
type Chunking struct {
	Name string
	Wrap func(io.Reader) io.Reader
}

// Chunkings returns the ways of reading a source that the streaming tests
// share: whole, one byte a Read, half a Read, the last bytes with io.EOF,
// and Reads of random sizes up to maxRead (seeded: the same sizes each
// run), one in four of them at most 16 bytes.
func Chunkings(maxRead int) []Chunking {
	return []Chunking{
		{"whole", func(r io.Reader) io.Reader { return r }},
		{"OneByteReader", iotest.OneByteReader},
		{"HalfReader", iotest.HalfReader},
		{"DataErrReader", iotest.DataErrReader},
		{"random", func(r io.Reader) io.Reader { return RandomReader(r, maxRead) }},
	}
}

// RandomReader returns a reader of r's bytes whose Reads ask r for at most
// 1 to max bytes (one in four at most 16), sizes drawn from a fixed seed.
func RandomReader(r io.Reader, max int) io.Reader {
	return &randomReader{r: r, max: max, rng: rand.New(rand.NewPCG(1, 2))}
}

// randomReader is RandomReader's reader; max >= 1.
type randomReader struct {
	r   io.Reader
	max int
	rng *rand.Rand
}

func (r *randomReader) Read(p []byte) (int, error) {
	n := 1 + r.rng.IntN(r.max)
	if r.rng.IntN(4) == 0 {
		n = 1 + r.rng.IntN(min(16, r.max))
	}
	return r.r.Read(p[:min(len(p), n)])
}
