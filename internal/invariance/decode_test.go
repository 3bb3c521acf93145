package invariance

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// A source splits a document's bytes as a reader hands them out.
type source struct {
	name string
	make func(b []byte, rng *rand.Rand) io.Reader
}

var sources = []source{
	{"whole", func(b []byte, _ *rand.Rand) io.Reader { return bytes.NewReader(b) }},
	{"OneByteReader", func(b []byte, _ *rand.Rand) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) }},
	{"HalfReader", func(b []byte, _ *rand.Rand) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) }},
	{"DataErrReader", func(b []byte, _ *rand.Rand) io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) }},
	{"random chunks", func(b []byte, rng *rand.Rand) io.Reader {
		sizes := make([]int, 1+rng.IntN(8))
		for i := range sizes {
			sizes[i] = 1 + rng.IntN(3000)
		}
		return testutil.ChunkReader(b, sizes...)
	}},
}

// A drain reads a Reader's text to its end.
type drain struct {
	name string
	read func(r *decode.Reader, rng *rand.Rand) ([]byte, error)
}

var drains = []drain{
	{"ReadAll", func(r *decode.Reader, _ *rand.Rand) ([]byte, error) { return io.ReadAll(r) }},
	{"WriteTo", func(r *decode.Reader, _ *rand.Rand) ([]byte, error) {
		var b bytes.Buffer
		_, err := r.WriteTo(&b)
		return b.Bytes(), err
	}},
	{"Read of random sizes", func(r *decode.Reader, rng *rand.Rand) ([]byte, error) {
		var out []byte
		buf := make([]byte, 5000)
		for {
			n, err := r.Read(buf[:1+rng.IntN(len(buf))])
			out = append(out, buf[:n]...)
			if err == io.EOF {
				return out, nil
			}
			if err != nil {
				return out, err
			}
		}
	}},
	{"ReadRune", readRunes},
	{"ReadRune then WriteTo", func(r *decode.Reader, rng *rand.Rand) ([]byte, error) {
		out, eof, err := appendRunes(nil, r, rng.IntN(3000))
		if eof || err != nil {
			return out, err
		}
		var b bytes.Buffer
		_, err = r.WriteTo(&b)
		return append(out, b.Bytes()...), err
	}},
}

func readRunes(r *decode.Reader, _ *rand.Rand) ([]byte, error) {
	out, _, err := appendRunes(nil, r, -1)
	return out, err
}

// appendRunes appends to out the characters r.ReadRune reads, at most max
// of them (all if max < 0); eof reports that r's text ended.
func appendRunes(out []byte, r *decode.Reader, max int) (_ []byte, eof bool, _ error) {
	for i := 0; max < 0 || i < max; i++ {
		c, _, err := r.ReadRune()
		if err == io.EOF {
			return out, true, nil
		}
		if err != nil {
			return out, false, err
		}
		out = utf8.AppendRune(out, c)
	}
	return out, false, nil
}

// TestChunkings: every way of splitting the input, with every way of
// reading the output, gives the fresh reader's answer.
func TestChunkings(t *testing.T) {
	docs, ref, _ := corpus(t)
	rng := rand.New(rand.NewPCG(*pathSeed, 1))
	for i := range docs {
		d := &docs[i]
		for _, src := range sources {
			for _, dr := range drains {
				if testing.Short() && src.name == "OneByteReader" && dr.name != "ReadAll" {
					continue
				}
				if light(d) && (src.name != "random chunks" || dr.name == "ReadRune") {
					continue
				}
				r, err := decode.NewReader(src.make(d.Data, rng))
				if err != nil {
					t.Fatal(err)
				}
				text, err := dr.read(r, rng)
				if err != nil {
					t.Errorf("%s: %s, %s: %v", d.Name, src.name, dr.name, err)
					continue
				}
				check(t, d, src.name+", "+dr.name, answerOf(r.Result(), text), ref[i])
			}
		}
	}
}

// previous are the options a reused Reader's earlier document was read with.
var previous = []struct {
	name string
	opts []decode.Option
}{
	{"default", nil},
	{"lookahead 0", []decode.Option{decode.WithLookahead(0)}},
	{"lookahead 100", []decode.Option{decode.WithLookahead(100)}},
	{"gbk", []decode.Option{decode.WithEncoding(override.GBK)}},
	{"content-type utf-16le", []decode.Option{decode.WithSniff(sniff.Options{ContentType: "text/html; charset=utf-16le"})}},
	{"no preprocessing", []decode.Option{decode.WithoutPreprocessing()}},
	{"window 4096", []decode.Option{decode.WithSniff(sniff.Options{Window: 4096})}},
}

// stop reads part of r's text, as a caller that stops early does, and
// says how.
func stop(r *decode.Reader, n int, rng *rand.Rand) string {
	switch rng.IntN(5) {
	case 0:
		return "at once"
	case 1:
		for i := 0; !r.Result().Decided && i < 1<<20; i++ {
			if _, _, err := r.ReadRune(); err != nil {
				break
			}
		}
		return "at Decided"
	case 2:
		k, _ := r.WriteTo(io.Discard)
		return fmt.Sprintf("after WriteTo (%d bytes)", k)
	case 3:
		k := rng.IntN(n + 1)
		for range k {
			if _, _, err := r.ReadRune(); err != nil {
				break
			}
		}
		return fmt.Sprintf("after %d runes", k)
	}
	k := rng.IntN(n + 2)
	got, _ := io.ReadFull(r, make([]byte, k))
	return fmt.Sprintf("after %d bytes", got)
}

// TestReuse: a Reader reset after any previous document, read with any
// options and stopped anywhere, gives the fresh reader's answer.
func TestReuse(t *testing.T) {
	docs, ref, ctr := corpus(t)
	rng := rand.New(rand.NewPCG(*pathSeed, 2))
	r := new(decode.Reader)
	rounds := 3
	if testing.Short() {
		rounds = 1
	}
	for range rounds {
		for _, i := range rng.Perm(len(docs)) {
			d := &docs[i]
			j := rng.IntN(len(docs))
			prev := previous[rng.IntN(len(previous))]
			if err := r.Reset(bytes.NewReader(docs[j].Data), prev.opts...); err != nil {
				t.Fatal(err)
			}
			how := stop(r, len(ref[j].Text), rng)
			path := fmt.Sprintf("reused after %s (%s) stopped %s", docs[j].Name, prev.name, how)
			want, opts := ref[i], []decode.Option(nil)
			switch rng.IntN(6) {
			case 0:
				want, opts = ctr[i], []decode.Option{withCT(d)}
				path += ", with its Content-Type"
			case 1:
				o := previous[rng.IntN(len(previous))]
				want, opts = reference(d.Data, o.opts...), o.opts
				path += ", with options " + o.name
			}
			if err := r.Reset(sources[rng.IntN(len(sources))].make(d.Data, rng), opts...); err != nil {
				t.Fatal(err)
			}
			text, err := drains[rng.IntN(len(drains))].read(r, rng)
			if err != nil {
				t.Errorf("%s: %s: %v", d.Name, path, err)
				continue
			}
			check(t, d, path, answerOf(r.Result(), text), want)
		}
	}
}

// TestConcurrent: the documents decoded on several goroutines at once,
// each with its own reused Reader (the pools are shared), on one core and
// on several, give the fresh reader's answers.
func TestConcurrent(t *testing.T) {
	docs, ref, _ := corpus(t)
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		var wg sync.WaitGroup
		var mu sync.Mutex
		var errs []error
		for w := range 6 {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(*pathSeed, uint64(10+w)))
				r := new(decode.Reader)
				for _, i := range rng.Perm(len(docs)) {
					r.Reset(bytes.NewReader(docs[i].Data))
					text, err := io.ReadAll(r)
					if s := diff(answerOf(r.Result(), text), ref[i]); s != "" || err != nil {
						mu.Lock()
						errs = append(errs, fmt.Errorf("%s: GOMAXPROCS=%d, goroutine %d: %s %v", docs[i].Name, procs, w, s, err))
						mu.Unlock()
					}
				}
			})
		}
		wg.Wait()
		runtime.GOMAXPROCS(old)
		for _, err := range errs[:min(len(errs), 20)] {
			t.Error(err)
		}
		if len(errs) > 0 {
			t.Error(errors.New("and more: " + fmt.Sprint(len(errs))))
		}
	}
}
