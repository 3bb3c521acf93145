package decode

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// twinFlags returns the flags of sweepBlocks for p and table, with the
// latin loop as latin says (with latin1Table only), whatever the CPU.
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

// bySweep returns p.sweep over f (the Go twin, or the model of the
// assembly), with the latin loop as latin says.
func bySweep(p *patterns, latin bool, f func(d, s []byte, table *[256]uint32, flags uint64) (j, i, high int)) func(d, s []byte, table *[256]uint32) (int, int, bool) {
	return func(d, s []byte, table *[256]uint32) (int, int, bool) {
		j, i, h := f(d, s, table, twinFlags(p, table, latin))
		j, i = p.sweepEnd(s, table, j, i)
		return j, i, h != 0
	}
}

// twinWant returns what the Go twin promises to take of s with room bytes
// of d: up to the first CR or NUL that flags name, and then, with a
// table, its ASCII, else the longest prefix of valid UTF-8 (found here a
// character at a time, with unicode/utf8, which agrees with the Encoding
// Standard on what is valid) that fits.
func twinWant(s []byte, room int, table *[256]uint32, flags uint64) int {
	n := 0
	for n < len(s) && n < room {
		c := s[n]
		if c == '\r' && flags&sweepCR != 0 || c == 0 && flags&sweepNUL != 0 {
			break
		}
		if c < 0x80 {
			n++
			continue
		}
		if table != nil {
			break
		}
		r, size := utf8.DecodeRune(s[n:])
		if r == utf8.RuneError && size <= 1 || n+size > room {
			break
		}
		n += size
	}
	return n
}

// checkTwin fails unless the Go twin's n (of s, with room bytes of d, if
// d is not nil) is twinWant's, and for sweepBlocksGeneric d[:n] is s[:n].
func checkTwin(t *testing.T, name string, s, d []byte, n, room int, table *[256]uint32, flags uint64) {
	t.Helper()
	if want := twinWant(s, room, table, flags); n != want {
		t.Fatalf("%s(%q, room %d, flags %04b, table=%v) = %d, want %d", name, s, room, flags, table != nil, n, want)
	}
	if d != nil && !bytes.Equal(d[:n], s[:n]) {
		t.Fatalf("%s(%q, flags %04b) wrote %q, want %q", name, s, flags, d[:n], s[:n])
	}
}

// compareSweep checks the Go twin of the sweep (sweepBlocksGeneric) and
// the model of the assembly (sweepModel) on s into room bytes with
// checkSweepBy, and where the assembly runs (and has the latin loop, if
// latin), that it and the model return the same j and i, agree on high
// being zero, and write the same d[:j]; and that the twin takes what it
// promises (checkTwin). The same for cleanBlocks and indexPair, with
// UTF-8.
func compareSweep(t *testing.T, p *patterns, s []byte, table *[256]uint32, latin bool, room int) {
	t.Helper()
	checkSweepBy(t, bySweep(p, latin, sweepModel), p, s, table, room)
	checkSweepBy(t, bySweep(p, latin, sweepBlocksGeneric), p, s, table, room)
	flags := twinFlags(p, table, latin)
	d3 := make([]byte, room+128)
	j3, i3, _ := sweepBlocksGeneric(d3[:room], s, table, flags)
	if j3 != i3 {
		t.Fatalf("sweepBlocksGeneric(%q, room %d, flags %04b) = %d, %d: j is not i", s, room, flags, j3, i3)
	}
	checkTwin(t, "sweepBlocksGeneric", s, d3, i3, room, table, flags)
	asm := sweepOK && (!latin || table != latin1Table || cpuLatinOK)
	if asm {
		d1, d2 := make([]byte, room+128), make([]byte, room+128)
		j1, i1, h1 := sweepBlocks(d1[:room], s, table, flags)
		j2, i2, h2 := sweepModel(d2[:room], s, table, flags)
		if j1 != j2 || i1 != i2 || (h1 != 0) != (h2 != 0) || !bytes.Equal(d1[:j1], d2[:j2]) {
			t.Fatalf("sweep(%q, room %d, flags %04b, table=%v):\nassembly j, i, high = %d, %d, %v wrote %q\nmodel    j, i, high = %d, %d, %v wrote %q",
				s, room, flags, table != nil, j1, i1, h1 != 0, d1[:j1], j2, i2, h2 != 0, d2[:j2])
		}
	}
	if table != nil {
		return
	}
	n2, h2 := cleanModel(s, flags)
	n3, _ := cleanBlocksGeneric(s, flags)
	checkTwin(t, "cleanBlocksGeneric", s, nil, n3, len(s), nil, flags)
	if asm {
		n1, h1 := cleanBlocks(s, flags)
		if n1 != n2 || (h1 != 0) != (h2 != 0) {
			t.Fatalf("clean(%q, flags %04b): assembly %d, %v; model %d, %v", s, flags, n1, h1 != 0, n2, h2 != 0)
		}
		if n1-cutSequence(s, n1) > n3 {
			t.Fatalf("clean(%q, flags %04b): assembly %d, Go twin %d: the twin takes the longest clean prefix", s, flags, n1, n3)
		}
	}
	if k := cutSequence(s, n2); !validPrefix(s[:n2-k], p) || n2 > len(s) {
		t.Fatalf("cleanModel(%q, flags %04b) = %d: not a clean prefix", s, flags, n2)
	}
	for _, ab := range [][2]byte{{'\r', 0}, {'\n', '<'}, {0x80, 0xE3}} {
		want := -1
		for k, c := range s {
			if c == ab[0] || c == ab[1] {
				want = k
				break
			}
		}
		if got := indexPairGeneric(s, ab[0], ab[1]); got != want {
			t.Fatalf("indexPairGeneric(%q, %q) = %d, want %d", s, ab, got, want)
		}
		if sweepOK {
			if got := indexPair(s, ab[0], ab[1]); got != want {
				t.Fatalf("indexPair(%q, %q): assembly %d, want %d", s, ab, got, want)
			}
		}
	}
}

// logNoAsm says, in a test that compares the assembly with its model and
// its Go twin, which of them do not run here: the comparisons of the twin
// and the model with their promises still do.
func logNoAsm(t *testing.T) {
	t.Helper()
	switch {
	case !sweepOK:
		t.Log(noSweep)
	case !cpuLatinOK:
		t.Log(noLatin)
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

// TestSweepTwin compares the assembly with its model and its Go twin (and
// checks the twin's and the model's promises, in every build) on texts of random pieces of UTF-8 and
// of windows-1252, under every switch, table and setting of the latin
// loop, with room for all and for less.
func TestSweepTwin(t *testing.T) {
	logNoAsm(t)
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
	logNoAsm(t)
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

// FuzzSweepTwin compares the assembly with its model and its Go twin on
// any input:
// flags bits 0 and 1 turn CR and NUL handling on, bit 2 takes
// windows-1251's table and bit 3 windows-1252's, bit 4 turns the latin
// loop on (where the CPU lacks it only the model runs it).
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

// TestSweepFour checks noCR's four blocks at a time (sweepAVX2) as
// TestCleanFour checks cleanAVX2's, with compareSweep (the model, the
// twin, cleanBlocks too), UTF-8 under each switch, with room in d for
// all of it and for less (so that the step's room check stops it at each
// of its places).
func TestSweepFour(t *testing.T) {
	logNoAsm(t)
	base := strings.Repeat("<p>Some text.", 24)[:300]
	pieces := []string{"\r", "\r\n", "\x00", "é", "日", "😀", "\xff", "\xe3\x81"}
	for _, piece := range pieces {
		for at := 0; at+len(piece) <= len(base); at++ {
			s := []byte(base[:at] + piece + base[at+len(piece):])
			for _, sw := range twinSwitches[:4] {
				p := newPatterns(sw.cr, sw.nul)
				compareSweep(t, &p, s, nil, false, 3*len(s)+128)
			}
		}
	}
	p := newPatterns(true, true)
	for room := 0; room <= 400; room++ {
		compareSweep(t, &p, []byte(base), nil, false, room)
	}
}

// TestCleanFour checks cleanAVX2's four blocks at a time against its
// model: in 512 bytes of ASCII, a byte or sequence that stops it or makes
// it validate (CR, NUL, a two-, three- and four-byte character, an
// invalid byte, a lead byte cut at the end), at every place, with every
// switch, so that the four-block try fails at each of its 128 places, and
// after runs of blocks of every length.
func TestCleanFour(t *testing.T) {
	logNoAsm(t)
	if !sweepOK {
		t.Skip(noSweep)
	}
	base := strings.Repeat("<p>Some text.", 40)[:512]
	pieces := []string{"\r", "\r\n", "\x00", "é", "日", "😀", "\xff", "\xe3", "\xe3\x81"}
	for _, piece := range pieces {
		for at := 0; at+len(piece) <= len(base); at++ {
			s := []byte(base[:at] + piece + base[at+len(piece):])
			for flags := uint64(0); flags < 4; flags++ {
				flags := flags | sweepUTF8
				n1, h1 := cleanBlocks(s, flags)
				n2, h2 := cleanModel(s, flags)
				if n1 != n2 || (h1 != 0) != (h2 != 0) {
					t.Fatalf("clean(%q at %d, flags %04b): assembly %d, %v; model %d, %v", piece, at, flags, n1, h1 != 0, n2, h2 != 0)
				}
			}
		}
	}
}
