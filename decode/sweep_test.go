package decode

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charsniff/charsniff/override"
)

// checkSweep runs p.sweep over s (UTF-8 if table is nil) into a buffer
// with room to spare and checks what it promises: it stops after whole
// characters and not between a CR and the LF it drops; what it read is
// clean (valid UTF-8, or anything with a table; no NUL if p replaces it);
// and what it wrote is what it read, decoded with the table if any, with CR
// LF and lone CR turned into LF (if p says so). It returns the bytes read.
func checkSweep(t *testing.T, p *patterns, s []byte, table *[256]uint32) int {
	t.Helper()
	return checkSweepRoom(t, p, s, table, 3*len(s)+128)
}

// guard is what checkSweepRoom puts past the room it gives the sweep.
const guard = 0xA5

// checkSweepRoom is checkSweep with room bytes of output, followed by
// guard bytes that the sweep must leave alone.
func checkSweepRoom(t *testing.T, p *patterns, s []byte, table *[256]uint32, room int) int {
	t.Helper()
	buf := bytes.Repeat([]byte{guard}, room+256)
	d := buf[:room]
	j, i, high := p.sweep(d, s, table)
	if i < 0 || i > len(s) || j < 0 || j > len(d) {
		t.Fatalf("sweep(%q, cr=%v nul=%v table=%v) = %d, %d: out of range", s, p.crOn, p.nulOn, table != nil, j, i)
	}
	for k, c := range buf[room:] {
		if c != guard {
			t.Fatalf("sweep(%q, table=%v) into %d bytes wrote %d bytes past them", s, table != nil, room, k+1)
		}
	}
	read := s[:i]
	switch {
	case table == nil && !utf8.Valid(read):
		t.Fatalf("sweep(%q, UTF-8) read %q: not valid UTF-8", s, read)
	case p.nulOn && bytes.IndexByte(read, 0) >= 0:
		t.Fatalf("sweep(%q) read %q: a NUL", s, read)
	case p.crOn && i > 0 && i < len(s) && s[i-1] == '\r' && s[i] == '\n':
		t.Fatalf("sweep(%q) read %q: ends in CR before an LF", s, read)
	case !high && indexHigh(read) >= 0:
		t.Fatalf("sweep(%q) read %q: high false", s, read)
	}
	want := string(read)
	if table != nil {
		var b []byte
		for _, c := range read {
			if c < 0x80 {
				b = append(b, c)
				continue
			}
			v := table[c]
			for k := range int(v >> 24) {
				b = append(b, byte(v>>(8*k)))
			}
		}
		want = string(b)
	}
	if p.crOn {
		want = strings.ReplaceAll(want, "\r\n", "\n")
		want = strings.ReplaceAll(want, "\r", "\n")
	}
	if string(d[:j]) != want {
		t.Fatalf("sweep(%q, cr=%v nul=%v table=%v) wrote %q, want %q", s, p.crOn, p.nulOn, table != nil, d[:j], want)
	}
	return i
}

// checkClean runs p.clean over s and checks what it promises: what it
// takes is valid UTF-8 with no CR or NUL that p changes, and high is true
// if that holds a byte from 0x80. It returns the bytes taken.
func checkClean(t *testing.T, p *patterns, s []byte) int {
	t.Helper()
	n, high := p.clean(s)
	if n < 0 || n > len(s) {
		t.Fatalf("clean(%q) = %d: out of range", s, n)
	}
	c := s[:n]
	switch {
	case !utf8.Valid(c):
		t.Fatalf("clean(%q) took %q: not valid UTF-8", s, c)
	case p.crOn && bytes.IndexByte(c, '\r') >= 0 || p.nulOn && bytes.IndexByte(c, 0) >= 0:
		t.Fatalf("clean(%q, cr=%v nul=%v) took %q: CR or NUL", s, p.crOn, p.nulOn, c)
	case !high && indexHigh(c) >= 0:
		t.Fatalf("clean(%q) took %q: high false", s, c)
	}
	return n
}

// sweepPieces are the text the sweep copies (ASCII, two- and three-byte
// characters, E0 and ED with their trail bytes at both ends of the range,
// CR LF, lone CR, LF) and the pieces that stop it.
var (
	sweepClean = []string{
		"a", "hello world ", "\t", "\n", "é", "ж", "日本語", "\u0800", "\u0fff", "\ud7ff", "\ud000",
		"\uffef", "\u07ff", "\u0080", "\r\n", "\r", "\r\n\r\n", "\n\r", "<p>\r\n",
	}
	sweepStops = []string{
		"\x00", "😀", "\xF4\x8F\xBF\xBF", "\xC0\x80", "\xC1\xBF", "\xE0\x9F\xBF", "\xED\xA0\x80", "\x80",
		"\xC3", "\xE3\x81", "\xE3\x81a", "\xFF", "\xF5",
	}
)

// TestSweepPieces runs the sweep over texts of random pieces, clean or
// with pieces that stop it, under every switch of the preprocessing, as
// UTF-8 and through two single-byte tables, and checks them with
// checkSweep (and checkClean). On clean text it must read all but the end
// it leaves for lack of room.
func TestSweepPieces(t *testing.T) {
	if !sweepOK {
		t.Skip("no vector sweep in this build or on this CPU")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 4000 {
		var b strings.Builder
		clean := n%2 == 0
		for b.Len() < 20+rng.IntN(400) {
			piece := sweepClean[rng.IntN(len(sweepClean))]
			if !clean && rng.IntN(20) == 0 {
				piece = sweepStops[rng.IntN(len(sweepStops))]
			}
			b.WriteString(piece)
		}
		s := []byte(b.String())
		for _, sw := range []struct {
			cr, nul bool
			table   *[256]uint32
		}{
			{true, true, nil}, {false, false, nil}, {true, false, nil}, {false, true, nil},
			{true, true, win1252}, {false, false, win1251}, {true, false, win1251},
		} {
			p := newPatterns(sw.cr, sw.nul)
			text := s
			if sw.table != nil {
				// At most two bytes from 0x80 in 32: denser text
				// is left to tableDense.
				text = bytes.Clone(s)
				for k, c := range text {
					if c >= 0x80 && k%16 != 0 {
						text[k] = 'x'
					}
				}
			}
			i := checkSweep(t, &p, text, sw.table)
			if clean && i < len(text)-98 {
				t.Fatalf("sweep(%q, table=%v) read %d of %d bytes, want all but at most 98", text, sw.table != nil, i, len(text))
			}
			// Blocks stored as they are need only their own 32 bytes.
			if clean && sw.table == nil && (!sw.cr || bytes.IndexByte(text, '\r') < 0) && i < len(text)-33 {
				t.Fatalf("sweep(%q, cr=%v) read %d of %d bytes, want all but at most 33", text, sw.cr, i, len(text))
			}
			for _, room := range []int{0, 31, 32, 63, 64, 79, 80, 100, 127, len(text), len(text) + 17} {
				checkSweepRoom(t, &p, text, sw.table, room)
			}
			if sw.table != nil {
				continue
			}
			n := checkClean(t, &p, text)
			if k := bytes.IndexByte(text, '\r'); clean && (!sw.cr || k < 0) && n < len(text)-33 {
				t.Fatalf("clean(%q, cr=%v) took %d of %d bytes, want all but at most 33", text, sw.cr, n, len(text))
			}
		}
	}
}

// The tables of two single-byte encodings for the sweep tests.
var (
	win1252 = byteTable(override.Windows1252)
	win1251 = byteTable(override.Windows1251)
)

// TestSweepPositions puts each piece that stops the sweep, and each that
// it must carry across its 32-byte blocks, at every position of 160 bytes
// of ASCII, two-byte and three-byte text.
func TestSweepPositions(t *testing.T) {
	if !sweepOK {
		t.Skip("no vector sweep in this build or on this CPU")
	}
	runs := []string{
		strings.Repeat("abcdefgh", 20),
		strings.Repeat("жизнь", 16),
		strings.Repeat("日本語の", 14),
	}
	pieces := append(append([]string{}, sweepStops...), sweepClean...)
	for _, run := range runs {
		for _, piece := range pieces {
			for pos := 0; pos <= len(run); pos++ {
				s := []byte(run[:pos] + piece + run[pos:])
				for _, cr := range []bool{false, true} {
					p := newPatterns(cr, true)
					checkSweep(t, &p, s, nil)
					checkSweep(t, &p, s, win1252)
					checkClean(t, &p, s)
				}
			}
		}
	}
}

// FuzzSweep checks the promises of the sweep and of clean on any input.
func FuzzSweep(f *testing.F) {
	f.Add([]byte(strings.Repeat("日本語の文字 text\r\n", 8)), uint8(7), uint16(100))
	f.Add([]byte(strings.Repeat("русский\x00текст, ", 10)), uint8(6), uint16(64))
	f.Add([]byte(strings.Repeat("a\r\n\r\nb\xED\xA0\x80\xE0\x80\x80\xF0\x9F\x98\x80\xC0\x80 한국어\xE3\x81", 5)), uint8(5), uint16(80))
	f.Fuzz(func(t *testing.T, s []byte, flags uint8, room uint16) {
		if !sweepOK {
			t.Skip("no vector sweep in this build or on this CPU")
		}
		p := newPatterns(flags&1 != 0, flags&2 != 0)
		var table *[256]uint32
		if flags&4 != 0 {
			table = win1251
		}
		checkSweep(t, &p, s, table)
		checkSweepRoom(t, &p, s, table, int(room%512))
		checkClean(t, &p, s)
	})
}
