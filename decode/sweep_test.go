package decode

import (
	"bytes"
	"io"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"

	"github.com/charsniff/charsniff/internal/testutil"
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
	return checkSweepBy(t, p.sweep, p, s, table, room)
}

// checkSweepBy is checkSweepRoom with sweep as p.sweep: p.sweep itself, or
// the same over the Go twin (twinSweep).
func checkSweepBy(t *testing.T, sweep func(d, s []byte, table *[256]uint32) (j, i int, high bool), p *patterns, s []byte, table *[256]uint32, room int) int {
	t.Helper()
	buf := bytes.Repeat([]byte{guard}, room+256)
	d := buf[:room]
	j, i, high := sweep(d, s, table)
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
		t.Skip(noSweep)
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
		t.Skip(noSweep)
	}
	runs := []string{
		strings.Repeat("abcdefgh", 20),
		strings.Repeat("жизнь", 16),
		strings.Repeat("日本語の", 14),
	}
	pieces := append(append([]string{}, sweepStops...), sweepClean...)
	eachInsertion(runs, pieces, func(s []byte) {
		for _, cr := range []bool{false, true} {
			p := newPatterns(cr, true)
			checkSweep(t, &p, s, nil)
			checkSweep(t, &p, s, win1252)
			checkClean(t, &p, s)
		}
	})
}

// eachInsertion calls f with each of pieces put at every position of each
// of runs.
func eachInsertion(runs, pieces []string, f func(s []byte)) {
	for _, run := range runs {
		for _, piece := range pieces {
			for pos := 0; pos <= len(run); pos++ {
				f([]byte(run[:pos] + piece + run[pos:]))
			}
		}
	}
}

// FuzzSweep checks the promises of the sweep and of clean on any input:
// flags bits 0 and 1 turn CR and NUL handling on, bit 2 takes
// windows-1251's table and bit 3 windows-1252's, bit 4 turns the latin
// loop off.
func FuzzSweep(f *testing.F) {
	f.Add([]byte(strings.Repeat("日本語の文字 text\r\n", 8)), uint8(7), uint16(100))
	f.Add([]byte(strings.Repeat("русский\x00текст, ", 10)), uint8(6), uint16(64))
	f.Add([]byte(strings.Repeat("a\r\n\r\nb\xED\xA0\x80\xE0\x80\x80\xF0\x9F\x98\x80\xC0\x80 한국어\xE3\x81", 5)), uint8(5), uint16(80))
	f.Add([]byte(strings.Repeat("L'\xE9t\xE9 \xE0 la plage,\r\n\xAB oui \xBB\r\n", 9)), uint8(11), uint16(300))
	f.Fuzz(func(t *testing.T, s []byte, flags uint8, room uint16) {
		if !sweepOK {
			t.Skip(noSweep)
		}
		p, table := fuzzPatterns(flags)
		setLatin(t, flags&16 == 0)
		checkSweep(t, &p, s, table)
		checkSweepRoom(t, &p, s, table, int(room%512))
		checkClean(t, &p, s)
	})
}

// setLatin turns the sweep's latin loop for windows-1252 on (where the CPU
// has it) or off for the rest of the test.
func setLatin(t testing.TB, on bool) {
	was := latinOK
	latinOK = on && cpuLatinOK
	t.Cleanup(func() { latinOK = was })
}

// cpuLatinOK is latinOK as the package set it.
var cpuLatinOK = latinOK

// latinText returns about n bytes of windows-1252 text from rng: words of
// ASCII and Latin-1 letters (A0 to FF), letters at the rate of dense in
// 256 bytes, with line ends LF, CR LF or CR as ends says (any of them if
// it is ""), and, if stops, now and then a byte that the latin loop leaves
// to the others (80 to 9F, NUL).
func latinText(rng *rand.Rand, n, dense int, ends string, stops bool) []byte {
	var b []byte
	for len(b) < n {
		switch k := rng.IntN(256); {
		case stops && k == 0:
			b = append(b, 0)
		case stops && k == 1:
			b = append(b, byte(0x80+rng.IntN(0x20)))
		case k < dense:
			b = append(b, byte(0xA0+rng.IntN(0x60)))
		case rng.IntN(40) == 0:
			end := ends
			if end == "" {
				end = []string{"\n", "\r\n", "\r"}[rng.IntN(3)]
			}
			b = append(b, end...)
		default:
			b = append(b, "etaoin shrdlu<>/="[rng.IntN(17)])
		}
	}
	return b
}

// TestSweepLatin runs the sweep over windows-1252 text of every density of
// letters and kind of line end, with the latin loop on and off, and checks
// it with checkSweep. On text that holds nothing it stops at, with the latin
// loop, it must read all but the end it leaves for lack of room.
func TestSweepLatin(t *testing.T) {
	if !sweepOK {
		t.Skip(noSweep)
	}
	eachLatinLoop(t, sweepLatinTexts)
}

// eachLatinLoop runs f in a subtest with the latin loop on (skipped where
// the CPU lacks it) and in one with it off.
func eachLatinLoop(t *testing.T, f func(t *testing.T, latin bool)) {
	for _, latin := range []bool{true, false} {
		t.Run(loopName(latin), func(t *testing.T) {
			skipNoLatin(t, latin)
			setLatin(t, latin)
			f(t, latin)
		})
	}
}

// fuzzPatterns returns the patterns a fuzz input's flags ask for (bit 0:
// CR, bit 1: NUL) and its table: windows-1251 (bit 2), windows-1252 (bit
// 3) or none.
func fuzzPatterns(flags uint8) (patterns, *[256]uint32) {
	p := newPatterns(flags&1 != 0, flags&2 != 0)
	switch {
	case flags&4 != 0:
		return p, win1251
	case flags&8 != 0:
		return p, win1252
	}
	return p, nil
}

// loopName names the sweep's loops for windows-1252 in subtests: "latin"
// with the latin loop on, "avx2" with it off.
func loopName(latin bool) string {
	if latin {
		return "latin"
	}
	return "avx2"
}

// skipNoLatin skips t if latin asks for the latin loop and the CPU lacks
// AVX-512 VBMI2 (or GODEBUG turned it off): the loop would not run,
// and a PASS would say nothing of it.
func skipNoLatin(t *testing.T, latin bool) {
	t.Helper()
	if latin && !cpuLatinOK {
		t.Skip(noLatin)
	}
}

// latinFromStart reports whether the latin loop, which starts at the first
// 32-byte block with a CR or NUL, takes windows-1252 text from there on:
// no block before that one has more letters than the AVX2 loop takes
// (maxEvents), which would stop the sweep first.
func latinFromStart(text []byte) bool {
	for i := 0; i+32 <= len(text); i += 32 {
		b := text[i : i+32]
		if bytes.IndexByte(b, '\r') >= 0 || bytes.IndexByte(b, 0) >= 0 {
			return true
		}
		if high, _, _, _, _ := blockMasks(b); bits.OnesCount64(high) > maxEvents {
			return false
		}
	}
	return true
}

// sweepLatinTexts is TestSweepLatin for one setting of the latin loop.
func sweepLatinTexts(t *testing.T, latin bool) {
	rng := rand.New(rand.NewPCG(3, 4))
	{
		for _, dense := range []int{0, 2, 20, 80, 200, 256} {
			for _, ends := range []string{"\n", "\r\n", "\r", ""} {
				for n := range 60 {
					stops := n%3 == 0
					text := latinText(rng, rng.IntN(600), dense, ends, stops)
					for _, sw := range [][2]bool{{true, true}, {false, false}, {true, false}, {false, true}} {
						p := newPatterns(sw[0], sw[1])
						i := checkSweep(t, &p, text, win1252)
						if latin && latinOK && !stops && latinFromStart(text) && i < len(text)-64 {
							t.Fatalf("sweep(%q, cr=%v nul=%v) read %d of %d bytes, want all but at most 64", text, sw[0], sw[1], i, len(text))
						}
						if n%10 == 0 {
							for _, room := range []int{0, 64, 127, 128, 129, 200, len(text)} {
								checkSweepRoom(t, &p, text, win1252, room)
							}
						}
					}
				}
			}
		}
	}
}

// TestSweepLatinPositions puts each piece the latin loop must carry across
// its 64-byte steps (CR LF, a CR at a step's end), or leave to the other
// loops, at every position of 200 bytes of French, sparse and dense.
func TestSweepLatinPositions(t *testing.T) {
	if !sweepOK {
		t.Skip(noSweep)
	}
	eachLatinLoop(t, func(t *testing.T, _ bool) { sweepLatinPositions(t) })
}

// sweepLatinPositions is TestSweepLatinPositions for one setting of the
// latin loop.
func sweepLatinPositions(t *testing.T) {
	runs := []string{
		strings.Repeat("L'\xE9t\xE9 \xE0 la plage ", 10),
		strings.Repeat("\xE9\xE8\xEA\xE0\xE7\xFF\xA0\xC0\xBF", 23),
	}
	pieces := []string{"\r\n", "\r", "\n", "\r\r\n", "\n\r", "\x00", "\x92", "\x80", "\x9F", "\xA0", "\xFF", "\xC0", "\xBF", "a"}
	eachInsertion(runs, pieces, func(s []byte) {
		for _, cr := range []bool{false, true} {
			p := newPatterns(cr, true)
			checkSweep(t, &p, s, win1252)
		}
	})
}

// TestSweepWidePositions puts each piece the wideCR loop (UTF-8 with CR,
// AVX-512) must carry across its 64-byte steps (CR LF, a CR at a step's
// end, CR CR LF), or leave to withCR (a NUL that stops the sweep, a
// letter, a sequence cut by a step's end), at every position of runs of
// ASCII with line ends, short and long lines, with the loop on and off,
// with NUL stopping the sweep and kept.
func TestSweepWidePositions(t *testing.T) {
	if !sweepOK {
		t.Skip(noSweep)
	}
	eachLatinLoop(t, func(t *testing.T, _ bool) {
		runs := []string{
			strings.Repeat("<p>a short line\r\n", 12),
			strings.Repeat("a longer line of plain text, with no end for a while; ", 4) + "\r\n",
			strings.Repeat("\r\n", 40),
		}
		pieces := []string{"\r\n", "\r", "\n", "\r\r\n", "\n\r", "\x00", "\r\x00", "\xC3\xA9", "\xE2\x80\x94", "\xF0\x9F\x98\x80", "\xFF", "a"}
		eachInsertion(runs, pieces, func(s []byte) {
			for _, nul := range []bool{true, false} {
				p := newPatterns(true, nul)
				checkSweep(t, &p, s, nil)
			}
		})
	})
}

// BenchmarkSweepLatin decodes windows-1252 text (the French sample, with LF
// and with CR LF line ends, 8 KB of it, and the English sample, almost all
// ASCII) to the end with WriteTo, the sweep's latin loop on ("latin", on
// CPUs that have it) and off ("avx2"), side by side.
func BenchmarkSweepLatin(b *testing.B) {
	if !sweepOK {
		b.Skip(noSweep)
	}
	french := testutil.BenchSample(b, "windows-1252.html")
	english, err := encoding.ReplaceUnsupported(charmap.Windows1252.NewEncoder()).Bytes(testutil.BenchSample(b, "utf-8-english.html"))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"french", french},
		{"french-crlf", bytes.ReplaceAll(french, []byte("\n"), []byte("\r\n"))},
		{"french-8KB", french[:8<<10]},
		{"english", english},
	} {
		for _, latin := range []bool{true, false} {
			b.Run(c.name+"/"+loopName(latin), func(b *testing.B) {
				if latin && !cpuLatinOK {
					b.Skip(noLatin)
				}
				setLatin(b, latin)
				src := bytes.NewReader(c.data)
				opt := WithEncoding(override.Windows1252)
				r, err := NewReader(src, opt)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(c.data)))
				for b.Loop() {
					src.Reset(c.data)
					r.Reset(src, opt)
					if _, err := r.WriteTo(io.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// noLatin is why tests of the latin loop skip where it does not run.
const noLatin = "the latin loop does not run here: the CPU lacks AVX-512 F, BW, VBMI, VBMI2 or BMI2 (or AVX2 or POPCNT), or GODEBUG turned one off"

// noSweep is why tests of the assembly skip where it does not run.
const noSweep = "the AVX2 sweep does not run here: the CPU lacks AVX2 or POPCNT, or GODEBUG=cpu.avx2=off, or a purego or non-amd64 build (the Go twin and the model are tested by TestSweepTwin)"
