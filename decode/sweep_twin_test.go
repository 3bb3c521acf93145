package decode

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// twinFlags returns the flags of sweepAVX2 for p and table, with the latin
// loop as latin says (with latin1Table only), whatever the CPU.
func twinFlags(p *patterns, table *[256]uint32, latin bool) uint64 {
	flags := p.sweepFlags()
	switch {
	case table == nil:
		flags |= sweepUTF8
	case latin && table == latin1Table:
		flags |= sweepLatin1
	}
	return flags
}

// twinSweep returns p.sweep over the Go twin, sweepGeneric, with the
// latin loop as latin says.
func twinSweep(p *patterns, latin bool) func(d, s []byte, table *[256]uint32) (int, int, bool) {
	return func(d, s []byte, table *[256]uint32) (int, int, bool) {
		j, i, h := sweepGeneric(d, s, table, twinFlags(p, table, latin))
		j, i = p.sweepEnd(s, table, j, i)
		return j, i, h != 0
	}
}

// compareSweep checks the Go twin of the sweep on s into room bytes with
// checkSweepBy, and where the assembly runs (and has the latin loop, if
// latin), that the two return the same j and i, agree on high being zero,
// and write the same d[:j]. The same for clean and indexPair, with UTF-8.
func compareSweep(t *testing.T, p *patterns, s []byte, table *[256]uint32, latin bool, room int) {
	t.Helper()
	checkSweepBy(t, twinSweep(p, latin), p, s, table, room)
	flags := twinFlags(p, table, latin)
	asm := sweepOK && (!latin || table != latin1Table || cpuLatinOK)
	if asm {
		d1, d2 := make([]byte, room+128), make([]byte, room+128)
		j1, i1, h1 := sweepAVX2(d1[:room], s, table, flags)
		j2, i2, h2 := sweepGeneric(d2[:room], s, table, flags)
		if j1 != j2 || i1 != i2 || (h1 != 0) != (h2 != 0) || !bytes.Equal(d1[:j1], d2[:j2]) {
			t.Fatalf("sweep(%q, room %d, flags %04b, table=%v):\nassembly j, i, high = %d, %d, %v wrote %q\nGo twin  j, i, high = %d, %d, %v wrote %q",
				s, room, flags, table != nil, j1, i1, h1 != 0, d1[:j1], j2, i2, h2 != 0, d2[:j2])
		}
	}
	if table != nil {
		return
	}
	n2, h2 := cleanGeneric(s, flags)
	if asm {
		n1, h1 := cleanAVX2(s, flags)
		if n1 != n2 || (h1 != 0) != (h2 != 0) {
			t.Fatalf("clean(%q, flags %04b): assembly %d, %v; Go twin %d, %v", s, flags, n1, h1 != 0, n2, h2 != 0)
		}
	}
	if k := cutSequence(s, n2); !validPrefix(s[:n2-k], p) || n2 > len(s) {
		t.Fatalf("cleanGeneric(%q, flags %04b) = %d: not a clean prefix", s, flags, n2)
	}
	for _, ab := range [][2]byte{{'\r', 0}, {'\n', '<'}, {0x80, 0xE3}} {
		want := indexPairGeneric(s, ab[0], ab[1])
		if w := bytes.IndexAny(s, string(ab[:])); ab[0] < 0x80 && w != want {
			t.Fatalf("indexPairGeneric(%q, %q) = %d, want %d", s, ab, want, w)
		}
		if sweepOK {
			if got := indexPairAVX2(s, ab[0], ab[1]); got != want {
				t.Fatalf("indexPair(%q, %q): assembly %d, Go twin %d", s, ab, got, want)
			}
		}
	}
}

// validPrefix reports whether c is what clean may take under p: valid
// UTF-8 with no CR or NUL that p changes.
func validPrefix(c []byte, p *patterns) bool {
	return utf8.Valid(c) && !(p.crOn && bytes.IndexByte(c, '\r') >= 0) && !(p.nulOn && bytes.IndexByte(c, 0) >= 0)
}

// twinSwitches are the preprocessing switches and tables the twin tests
// run under, with the latin loop on and off.
var twinSwitches = []struct {
	cr, nul bool
	table   *[256]uint32
	latin   bool
}{
	{true, true, nil, false}, {false, false, nil, false}, {true, false, nil, false}, {false, true, nil, false},
	{true, true, win1251, false}, {false, false, win1251, false},
	{true, true, win1252, false}, {true, false, win1252, true}, {false, true, win1252, true}, {true, true, win1252, true},
}

// TestSweepTwin compares the assembly with its Go twin (and checks the
// twin's promises, in every build) on texts of random pieces of UTF-8 and
// of windows-1252, under every switch, table and setting of the latin
// loop, with room for all and for less.
func TestSweepTwin(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := range 600 {
		var b strings.Builder
		for b.Len() < 20+rng.IntN(400) {
			piece := sweepClean[rng.IntN(len(sweepClean))]
			if n%2 == 1 && rng.IntN(20) == 0 {
				piece = sweepStops[rng.IntN(len(sweepStops))]
			}
			b.WriteString(piece)
		}
		utf := []byte(b.String())
		latinS := latinText(rng, rng.IntN(600), []int{0, 2, 20, 80, 200, 256}[n%6], []string{"\n", "\r\n", "\r", ""}[n%4], n%3 == 0)
		for _, sw := range twinSwitches {
			p := newPatterns(sw.cr, sw.nul)
			text := utf
			if sw.table != nil {
				text = latinS
			}
			for _, room := range []int{3*len(text) + 128, 0, 31, 64, 79, 80, 127, 128, 129, len(text)} {
				compareSweep(t, &p, text, sw.table, sw.latin, room)
			}
		}
	}
}

// TestSweepTwinPositions compares the two on each piece put at every
// position of runs of ASCII, Cyrillic, Japanese and French.
func TestSweepTwinPositions(t *testing.T) {
	runs := []string{
		strings.Repeat("abcdefgh", 20),
		strings.Repeat("жизнь", 16),
		strings.Repeat("日本語の", 14),
		strings.Repeat("L'\xE9t\xE9 \xE0 la plage ", 10),
	}
	pieces := append(append([]string{"\r\r\n", "\x92", "\xA0"}, sweepStops...), sweepClean...)
	eachInsertion(runs, pieces, func(s []byte) {
		for _, sw := range twinSwitches {
			p := newPatterns(sw.cr, sw.nul)
			compareSweep(t, &p, s, sw.table, sw.latin, 3*len(s)+128)
		}
	})
}

// FuzzSweepTwin compares the assembly with its Go twin on any input:
// flags bits 0 and 1 turn CR and NUL handling on, bit 2 takes
// windows-1251's table and bit 3 windows-1252's, bit 4 turns the latin
// loop on (where the CPU lacks it only the twin runs it).
func FuzzSweepTwin(f *testing.F) {
	f.Add([]byte(strings.Repeat("日本語の文字 text\r\n", 8)), uint8(7), uint16(100))
	f.Add([]byte(strings.Repeat("русский\x00текст, ", 10)), uint8(6), uint16(64))
	f.Add([]byte(strings.Repeat("a\r\n\r\nb\xED\xA0\x80\xE0\x80\x80\xF0\x9F\x98\x80\xC0\x80 한국어\xE3\x81", 5)), uint8(5), uint16(80))
	f.Add([]byte(strings.Repeat("L'\xE9t\xE9 \xE0 la plage,\r\n\xAB oui \xBB\r\n", 9)), uint8(27), uint16(300))
	f.Add([]byte(strings.Repeat("\uFFFD text \r\n", 12)), uint8(3), uint16(90))
	f.Fuzz(func(t *testing.T, s []byte, flags uint8, room uint16) {
		p, table := fuzzPatterns(flags)
		latin := flags&16 != 0
		compareSweep(t, &p, s, table, latin, 3*len(s)+128)
		compareSweep(t, &p, s, table, latin, int(room%512))
	})
}
