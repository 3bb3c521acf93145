package archive

import (
	"bytes"
	"io"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/decode/codec"
	"github.com/charsniff/charsniff/internal/utf8seq"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// A replCounter counts the U+FFFD that decoding a stream with one encoding
// (the Encoding Standard's decoder, without BOM sniffing) would give,
// without making the text:
//
//   - UTF-8 is validated, utf8.Valid over each chunk and, only for a chunk
//     that is not valid, the standard's decoder's error steps byte by byte
//     (one U+FFFD for each maximal subpart of a bad sequence, as browsers
//     give);
//   - a single-byte encoding looks each byte up in the set of bytes it maps
//     to no character (windows-1252 and a few others have none, and cost
//     nothing);
//   - the others (the CJK encodings, UTF-16, ISO-2022-JP, replacement) are
//     decoded by the codec into a small buffer, reused, whose U+FFFD are
//     counted: there a U+FFFD the bytes encode (gb18030 and UTF-16 can)
//     counts too.
//
// Its zero value counts nothing; reset starts a stream.
type replCounter struct {
	enc override.Encoding
	n   int64 // U+FFFD so far
	// UTF-8: the decoder's state between chunks, as the standard has it.
	needed, seen int
	lower, upper byte
	// single-byte: the bytes that decode to U+FFFD; nil for none.
	bad *[256]bool
	// the others: the codec's decoder, and what it left of the last chunk.
	t     transform.Transformer
	tenc  override.Encoding // the encoding t decodes
	carry []byte
	dst   []byte
}

// reset makes c count the stream decoded with e.
func (c *replCounter) reset(e override.Encoding) {
	c.enc, c.n = e, 0
	c.needed, c.seen, c.lower, c.upper = 0, 0, 0x80, 0xBF
	c.bad = nil
	c.carry = c.carry[:0]
	switch {
	case e == override.UTF8:
	case singleByte(e):
		c.bad = badBytes(e)
	default:
		if c.t == nil || c.tenc != e {
			c.t, c.tenc = codec.Encoding(e).NewDecoder().Transformer, e
		}
		c.t.Reset()
		if c.dst == nil {
			c.dst = make([]byte, 4096)
		}
	}
}

// singleByte reports whether e is one of the standard's single-byte
// encodings (x-user-defined included).
func singleByte(e override.Encoding) bool {
	return e >= override.IBM866 && e <= override.XMacCyrillic || e == override.XUserDefined
}

// badSets holds, for each single-byte encoding, the bytes it maps to no
// character (nil for an encoding with none), made on first use from the
// codec's decoder.
var badSets struct {
	once [override.NumEncodings + 1]sync.Once
	set  [override.NumEncodings + 1]*[256]bool
}

// badBytes returns the bytes single-byte encoding e decodes to U+FFFD,
// nil if there are none.
func badBytes(e override.Encoding) *[256]bool {
	badSets.once[e].Do(func() {
		var set [256]bool
		any := false
		d := codec.Encoding(e).NewDecoder()
		var dst [8]byte
		for b := 0x80; b < 0x100; b++ {
			n, _, _ := d.Transform(dst[:], []byte{byte(b)}, true)
			if r, _ := utf8.DecodeRune(dst[:n]); r == utf8.RuneError {
				set[b], any = true, true
			}
			d.Reset()
		}
		if any {
			badSets.set[e] = &set
		}
	})
	return badSets.set[e]
}

// write counts the U+FFFD of the next bytes of the stream, p.
func (c *replCounter) write(p []byte) {
	switch {
	case c.enc == override.UTF8:
		c.utf8(p)
	case singleByte(c.enc):
		if bad := c.bad; bad != nil {
			for _, b := range p {
				if bad[b] {
					c.n++
				}
			}
		}
	case c.t != nil:
		c.transform(p, false)
	}
}

// close counts what the end of the stream makes of a sequence it cut.
func (c *replCounter) close() {
	switch {
	case c.enc == override.UTF8:
		if c.needed != 0 {
			c.n++
			c.needed = 0
		}
	case c.t != nil && !singleByte(c.enc):
		c.transform(nil, true)
	}
}

// utf8 counts the errors of the UTF-8 decoder over p. A chunk that starts
// between sequences and is valid but for a sequence its end cuts is
// checked by utf8.Valid; the cut sequence, and any chunk with an error,
// go through the decoder's steps.
func (c *replCounter) utf8(p []byte) {
	if c.needed == 0 {
		cut := len(p) - cutUTF8(p)
		if utf8.Valid(p[:cut]) {
			p = p[cut:]
		}
	}
	for i := 0; i < len(p); i++ {
		b := p[i]
		if c.needed == 0 {
			switch need, lo, hi := utf8seq.Lead(b); {
			case need < 0:
				c.n++
			case need > 0:
				c.needed, c.lower, c.upper = need, lo, hi
			}
			continue
		}
		if b < c.lower || b > c.upper {
			// An error; the byte starts over (the standard's "prepend").
			c.needed, c.seen, c.lower, c.upper = 0, 0, 0x80, 0xBF
			c.n++
			i--
			continue
		}
		c.lower, c.upper = 0x80, 0xBF
		if c.seen++; c.seen == c.needed {
			c.needed, c.seen = 0, 0
		}
	}
}

// cutUTF8 returns how many bytes at the end of p are the start of a UTF-8
// sequence that p cuts short (0 to 3).
func cutUTF8(p []byte) int {
	for k := 1; k <= 3 && k <= len(p); k++ {
		b := p[len(p)-k]
		if b < 0x80 {
			return 0
		}
		if b >= 0xC0 {
			// A lead byte: cut if its sequence is longer than k.
			if need, _, _ := utf8seq.Lead(b); need+1 > k {
				return k
			}
			return 0
		}
	}
	return 0
}

// transform decodes p after what the last call left, counting the U+FFFD
// of the output.
func (c *replCounter) transform(p []byte, atEOF bool) {
	src := p
	if len(c.carry) > 0 {
		c.carry = append(c.carry, p...)
		src = c.carry
	}
	for {
		nDst, nSrc, err := c.t.Transform(c.dst, src, atEOF)
		c.n += countFFFD(c.dst[:nDst])
		src = src[nSrc:]
		if err != transform.ErrShortDst || (nDst == 0 && nSrc == 0) {
			break
		}
	}
	// What is left is a sequence cut short (ErrShortSrc): kept for the
	// next chunk. It is a few bytes; carry may hold src's own bytes.
	c.carry = append(c.carry[:0], src...)
}

// countFFFD counts the U+FFFD in valid UTF-8 b.
func countFFFD(b []byte) int64 {
	return int64(bytes.Count(b, fffd))
}

var fffd = []byte("\uFFFD")

// maxHold is the most bytes of a payload counting holds while the decoder
// reads its window, before the encodings to count are known: the default
// window is 1024 bytes; a caller's larger window past this leaves the
// U+FFFD uncounted.
const maxHold = 64 << 10

// counting passes a record's payload through to its decoder, counting the
// U+FFFD that decoding it with each encoding its transport and its prescan
// declare would give (Result.Mismatch). Until begin, which the sniffing
// results make known, it holds the bytes read (the decoder's window); then
// it counts them and all that follows.
type counting struct {
	r       io.Reader
	holding bool
	held    []byte // the bytes read while holding; a scratch buffer for drain later
	over    bool   // more than maxHold bytes went by while holding: nothing is counted
	eof     bool   // r has said io.EOF: the whole payload went through
	broken  bool   // r failed: the counts are of part of the payload
	c       [2]replCounter
	on      [2]bool // c[i] counts
}

// start makes c pass r on, holding what is read.
func (c *counting) start(r io.Reader) {
	c.r, c.holding, c.held = r, true, c.held[:0]
	c.over, c.eof, c.broken = false, false, false
	c.on = [2]bool{}
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		c.write(p[:n])
	}
	switch {
	case err == io.EOF:
		c.eof = true
	case err != nil:
		c.broken = true
	}
	return n, err
}

// write counts, or holds, the next bytes of the payload.
func (c *counting) write(p []byte) {
	if c.holding {
		if len(c.held)+len(p) > maxHold {
			c.holding, c.over, c.held = false, true, c.held[:0]
			return
		}
		c.held = append(c.held, p...)
		return
	}
	for i := range c.c {
		if c.on[i] {
			c.c[i].write(p)
		}
	}
}

// begin starts the counts of the encodings res's declarations name, now
// that its sniffing is done, over the bytes held. A declared encoding is
// counted when it is not the one decided, or when the decision is
// tentative (a late change may still leave the declaration behind);
// finish keeps the counts of those that lost in the end.
func (c *counting) begin(res *Result) {
	c.holding = false
	if c.over {
		return
	}
	p := &res.Provenance
	decl := [2]override.Encoding{p.Transport, p.Prescan.Encoding}
	for i, e := range decl {
		if !e.Valid() || i == 1 && e == decl[0] && c.on[0] {
			continue
		}
		if e != res.Encoding || res.Confidence == sniff.Tentative {
			c.on[i] = true
			c.c[i].reset(e)
			c.c[i].write(c.held)
		}
	}
}

// finish sets res.Mismatch from the final decision: which declarations
// name another encoding, and for those, the U+FFFD counted, reading the
// rest of the payload (not decoded) if the decoder stopped short of it.
// A count is -1 when it could not be made: the payload broke, or the
// window was larger than counting holds. src is the reader of c whose
// errors are the record's.
func (c *counting) finish(res *Result, src io.Reader) {
	p := &res.Provenance
	m := Mismatch{
		Transport: p.Transport.Valid() && p.Transport != res.Encoding,
		Prescan:   p.Prescan.Encoding.Valid() && p.Prescan.Encoding != res.Encoding,
	}
	m.TransportReplaced, m.PrescanReplaced = -1, -1
	lost := [2]bool{m.Transport, m.Prescan}
	need := false
	for i := range c.on {
		c.on[i] = c.on[i] && lost[i]
		need = need || c.on[i]
	}
	if need && !c.eof && !c.broken {
		c.drain(src)
	}
	if c.eof && !c.broken {
		n := [2]int64{-1, -1}
		for i := range c.c {
			if c.on[i] {
				c.c[i].close()
				n[i] = c.c[i].n
			}
		}
		if lost[1] && !c.on[1] && c.on[0] && p.Prescan.Encoding == p.Transport {
			n[1] = n[0] // one encoding, counted once
		}
		if m.Transport {
			m.TransportReplaced = n[0]
		}
		if m.Prescan {
			m.PrescanReplaced = n[1]
		}
	}
	if !m.Transport {
		m.TransportReplaced = 0
	}
	if !m.Prescan {
		m.PrescanReplaced = 0
	}
	res.Mismatch = m
	c.r = nil
}

// drain reads the rest of the payload through the counts, from src.
func (c *counting) drain(src io.Reader) {
	if cap(c.held) < 32<<10 {
		c.held = make([]byte, 32<<10)
	}
	buf := c.held[:cap(c.held)]
	for empty := 0; !c.eof && !c.broken; {
		n, _ := src.Read(buf)
		if n > 0 {
			empty = 0
		} else if empty++; empty == 100 {
			c.broken = true // no progress, as io.ErrNoProgress
		}
	}
	c.held = c.held[:0]
}

// A Counter counts, for a document that is not a record (a plain file),
// the U+FFFD that decoding it with its lost declarations would give, as
// Options.Provenance does for a record's payload (see Mismatch): the
// document is read through it, Sniffed is called once its decoder has
// sniffed, and Finish once it is decided. The zero Counter is ready, and
// is reused document after document; it is not safe for concurrent use.
type Counter struct{ c counting }

// Reader returns src read through c, for the document's decoder: c holds
// what is read until Sniffed, then counts it and all that follows.
func (c *Counter) Reader(src io.Reader) io.Reader {
	c.c.start(src)
	return &c.c
}

// Sniffed starts the counts of the declarations res names, res being the
// document's first decision and its Provenance.
func (c *Counter) Sniffed(res *Result) { c.c.begin(res) }

// Finish sets res.Mismatch for res's final decision, reading the rest of
// the document through c (and discarding it) if a declaration lost and
// the decoder stopped short of the end.
func (c *Counter) Finish(res *Result) { c.c.finish(res, &c.c) }
