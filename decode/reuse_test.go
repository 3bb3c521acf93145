package decode_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
)

// reuseDocs returns the documents TestResetIsFresh reuses Readers over:
// the sample pages, and documents made for the paths a
// Reader's state takes (declared and late <meta>, late non-ASCII, XML
// declarations in double-byte encodings, UTF-16 with and without byte
// order mark, ASCII alone, CR LF and NUL, x-user-defined).
func reuseDocs(t testing.TB) [][]byte {
	docs := testutil.SamplePages(t)
	if len(docs) < 5 {
		t.Fatalf("only %d documents on disk", len(docs))
	}
	ascii := strings.Repeat("<p>plain ASCII text, line after line.</p>\r\n", 40) // > 1 KB
	// tail follows the first non-ASCII byte: > 8 KB, held past one
	// input buffer, and different in each document.
	tail := func(tag string) string {
		var b strings.Builder
		for i := range 400 {
			fmt.Fprintf(&b, "<p>%s %d</p>\n", tag, i)
		}
		return b.String()
	}
	made := []string{
		`<meta charset="euc-kr"><p>` + "\xc7\xd1\xb1\xb9\xbe\xee</p>",
		`<html>` + ascii + `<meta charset="shift_jis"><p>` + "\x82\xa0\x82\xa2</p>",
		`<html>` + ascii + `<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">` + "\xf0\xd2\xc9\xd7\xc5\xd4",
		`<html>` + ascii + "caf\xc3\xa9 na\xc3\xafve r\xc3\xa9sum\xc3\xa9" + strings.Repeat(" \xc3\xa0 la", 50) + tail("utf-8"),
		`<html>` + ascii + "caf\xe9 na\xefve r\xe9sum\xe9" + strings.Repeat(" \xe0 la", 50) + tail("latin"),
		`<html>` + ascii + strings.Repeat("\x82\xa0\x82\xa2\x82\xa4 ", 60) + tail("sjis"),
		"<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<rss>" + ascii + "\x82\xa0\x82\xa2</rss>",
		"<?xml version=\"1.0\" encoding=\"Big5\"?>\n<rss>" + ascii + "\xa4\xa4\xa4\xe5</rss>",
		"<?xml version=\"1.0\" encoding=\"EUC-KR\"?>\n<rss>\xc7\xd1\xb1\xb9</rss>",
		"\xff\xfe<\x00p\x00>\x00\xe9\x00\r\x00\n\x00\x00\x00",
		"\xfe\xff\x00<\x00p\x00>\x00\xe9\x00\r\x00\n",
		"<\x00h\x00t\x00m\x00l\x00>\x00" + strings.Repeat("a\x00b\x00", 300),
		"\xef\xbb\xbf<p>UTF-8 with a byte order mark \xe2\x82\xac\r\rend",
		ascii,
		"a\r\nb\rc\x00d\r",
		"\nthe LF a CR left pending must not eat",
		`<meta charset="x-user-defined">` + "\x80\xff\xe9\r\n",
		"",
		"\x82",
		"<!-- " + strings.Repeat("x", 2000) + " --><meta charset=gbk>\xc4\xe3\xba\xc3",
	}
	for _, s := range made {
		docs = append(docs, []byte(s))
	}
	return docs
}

// reuseOptions are the option sets of the trials: none, the window alone,
// a short look-ahead, a large window, no preprocessing, fixed encodings,
// a user override and a transport-layer charset.
var reuseOptions = [][]decode.Option{
	nil,
	{windowOnly},
	{decode.WithLookahead(100)},
	{withWindow(5000)},
	{withWindow(3), decode.WithLookahead(200)},
	{decode.WithoutPreprocessing()},
	{withEncoding("shift_jis")},
	{withEncoding("utf-16le")},
	{withOverride("big5")},
	{withContentType("text/html; charset=windows-1251")},
	{noAutodetect},
	{withDefault("euc-kr")},
}

// errAt returns a reader of b that fails with err after n bytes.
func errAt(b []byte, n int, err error) io.Reader {
	n = min(n, len(b))
	return io.MultiReader(bytes.NewReader(b[:n]), iotest.ErrReader(err))
}

// writeFails accepts n bytes, then fails.
type writeFails struct{ n int }

var errWrite = errors.New("write failed")

func (w *writeFails) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	k := w.n
	w.n = 0
	return k, errWrite
}

// stopKinds are the ways a first stream is left unfinished before Reset.
var stopKinds = []string{
	"none", "read", "decided", "readrune", "writeto", "settle",
	"errreader", "fail-mid", "timeout", "change", "bad-option",
}

// useFirst reads the first document doc as kind says, stopping at k.
func useFirst(t *testing.T, r *decode.Reader, kind string, doc []byte, k int, opts []decode.Option, rng *rand.Rand) {
	t.Helper()
	src := io.Reader(bytes.NewReader(doc))
	switch kind {
	case "errreader":
		src = iotest.ErrReader(errSource)
	case "fail-mid":
		src = errAt(doc, k, errSource)
	case "timeout":
		src = iotest.TimeoutReader(iotest.OneByteReader(bytes.NewReader(doc)))
	}
	if err := r.Reset(src, opts...); err != nil {
		t.Fatal(err)
	}
	small := make([]byte, 1+rng.IntN(7))
	switch kind {
	case "read", "fail-mid", "timeout", "errreader":
		for n := 0; n < k; {
			m, err := r.Read(small)
			n += m
			if err != nil && err != iotest.ErrTimeout {
				break
			}
		}
	case "decided":
		for !r.Result().Decided {
			if _, err := r.Read(small); err != nil {
				break
			}
		}
	case "readrune":
		for range k {
			if _, _, err := r.ReadRune(); err != nil {
				break
			}
		}
	case "writeto":
		r.WriteTo(&writeFails{n: k})
	case "settle":
		r.Settle(nil, k)
	case "change":
		io.ReadFull(r, make([]byte, k%64))
		r.ChangeEncoding(override.Encoding(1 + rng.IntN(override.NumEncodings)))
		io.ReadFull(r, make([]byte, k))
	case "bad-option":
		io.ReadFull(r, make([]byte, k))
		if r.Reset(bytes.NewReader(doc), decode.WithEncoding(override.Unknown)) == nil {
			t.Fatal("Reset with an invalid encoding: no error")
		}
	}
}

// TestResetIsFresh is the property that reuse is invisible: a Reader left
// anywhere in a first document (before the window is full, at Decided,
// while holding bytes read ahead, after a source error, after
// ChangeEncoding, after ReadRune's read-ahead, after WriteTo's writer
// failed, after a Reset with a bad option) and Reset to a second gives
// the second's Result and text exactly as a fresh Reader does, whatever
// the options of either and the chunking of the second.
func TestResetIsFresh(t *testing.T) {
	docs := reuseDocs(t)
	seed := uint64(0x5eed)
	rng := rand.New(rand.NewPCG(seed, seed))
	trials := 1500
	if testing.Short() {
		trials = 300
	}
	r := new(decode.Reader)
	for i := range trials {
		first, second := docs[rng.IntN(len(docs))], docs[rng.IntN(len(docs))]
		kind := stopKinds[rng.IntN(len(stopKinds))]
		k := rng.IntN(len(first) + 2)
		if rng.IntN(3) == 0 {
			k = rng.IntN(1100) // around the window
		}
		i1, i2 := rng.IntN(len(reuseOptions)), rng.IntN(len(reuseOptions))
		o1, o2 := reuseOptions[i1], reuseOptions[i2]
		ch := chunkings[rng.IntN(len(chunkings))]
		if rng.IntN(4) == 0 {
			r = new(decode.Reader) // the zero Reader reused too
		}
		name := fmt.Sprintf("trial %d: first %.20q opts %d, stop %s at %d; second %.20q opts %d, %s", i, first, i1, kind, k, second, i2, ch.Name)
		useFirst(t, r, kind, first, k, o1, rng)
		if err := r.Reset(ch.Wrap(bytes.NewReader(second)), o2...); err != nil {
			t.Fatalf("%s: Reset: %v", name, err)
		}
		got, gerr := io.ReadAll(r)
		fresh, err := decode.NewReader(ch.Wrap(bytes.NewReader(second)), o2...)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := io.ReadAll(fresh)
		if gerr != werr || r.Result() != fresh.Result() || !bytes.Equal(got, want) {
			t.Fatalf("%s:\nreused: %+v, %v, %q\nfresh:  %+v, %v, %q", name, r.Result(), gerr, trim(got), fresh.Result(), werr, trim(want))
		}
	}
}

// trim shortens b for a message.
func trim(b []byte) []byte {
	if len(b) > 200 {
		return b[:200]
	}
	return b
}

// TestPooledBuffersNotShared: Readers whose buffers come from the
// package's pools (input, output, held bytes) and go back at the end of a
// stream, advanced in turns a few bytes at a time and Reset to the next
// document as each ends, each give a fresh Reader's text and Result: no
// buffer is back in a pool while its Reader still reads from it.
func TestPooledBuffersNotShared(t *testing.T) {
	docs := reuseDocs(t)
	type want struct {
		text []byte
		res  decode.Result
	}
	wants := make([]want, len(docs))
	for i, d := range docs {
		r, _ := decode.NewReader(bytes.NewReader(d))
		b, _ := io.ReadAll(r)
		wants[i] = want{b, r.Result()}
	}
	rng := rand.New(rand.NewPCG(11, 11))
	type reading struct {
		r   *decode.Reader
		doc int
		got []byte
	}
	rs := make([]*reading, 6)
	// held are the documents a Reader holds bytes of past one input
	// buffer to decide: the ones that share most.
	var held []int
	for i, d := range docs {
		if len(d) > 8<<10 && wants[i].res.Late.Kind != decode.NoChange {
			held = append(held, i)
		}
	}
	if len(held) == 0 {
		t.Fatal("no document holds bytes")
	}
	// Every pair of them, each stopped at Decided while it holds bytes,
	// then read to the end.
	for _, a := range held {
		for _, b := range held {
			ra, _ := decode.NewReader(bytes.NewReader(docs[a]))
			ta, _ := ra.Settle(nil, 1<<20)
			rb, _ := decode.NewReader(bytes.NewReader(docs[b]))
			tb, _ := rb.Settle(nil, 1<<20)
			for _, x := range []struct {
				r    *decode.Reader
				doc  int
				text []byte
			}{{ra, a, ta}, {rb, b, tb}} {
				rest, _ := io.ReadAll(x.r)
				if w := wants[x.doc]; !bytes.Equal(append(x.text, rest...), w.text) || x.r.Result() != w.res {
					t.Fatalf("docs %d and %d held together: doc %d: %d bytes, %+v\nwant %d, %+v", a, b, x.doc, len(rest), x.r.Result(), len(w.text), w.res)
				}
			}
		}
	}
	next := func(s *reading) {
		s.doc, s.got = rng.IntN(len(docs)), s.got[:0]
		if rng.IntN(2) == 0 {
			s.doc = held[rng.IntN(len(held))]
		}
		if rng.IntN(3) == 0 {
			s.r = new(decode.Reader) // buffers from the pools
		}
		s.r.Reset(bytes.NewReader(docs[s.doc]))
	}
	for i := range rs {
		rs[i] = &reading{r: new(decode.Reader)}
		next(rs[i])
	}
	buf := make([]byte, 300)
	for range 20000 {
		s := rs[rng.IntN(len(rs))]
		var err error
		// ReadRune after a Read that split a character returns U+FFFD
		// for the rest of it (as bufio does): half the documents are
		// read with ReadRune alone, the others with Read.
		if s.doc%2 == 0 {
			var c rune
			if c, _, err = s.r.ReadRune(); err == nil {
				s.got = utf8.AppendRune(s.got, c)
			}
		} else {
			var n int
			n, err = s.r.Read(buf[:1+rng.IntN(len(buf))])
			s.got = append(s.got, buf[:n]...)
		}
		if err == nil {
			continue
		}
		if w := wants[s.doc]; !bytes.Equal(s.got, w.text) || s.r.Result() != w.res {
			t.Fatalf("doc %d read in turns: %d bytes, %+v\nwant %d bytes, %+v", s.doc, len(s.got), s.r.Result(), len(w.text), w.res)
		}
		next(s)
	}
}
