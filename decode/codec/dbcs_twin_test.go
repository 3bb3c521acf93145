package codec

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/charsniff/charsniff/override"
)

// noDBCSAsm is why the twin tests skip where the assembly does not run.
const noDBCSAsm = "dbcsBlockRun is its Go twin in this build (purego or not amd64): nothing to compare"

// compareBlockRun runs dbcsBlockRun and dbcsBlockRunGeneric over the same
// window src (at most dbcsWindow bytes, the rest 0xFF) with limit, on
// destinations filled alike, and fails unless k, m, ok and d[:m] agree.
func compareBlockRun(t *testing.T, pair *[1 << 16]uint32, name string, src []byte, limit uint) {
	t.Helper()
	var s, d1, d2 [dbcsWindow]byte
	for i := range s {
		s[i] = 0xFF
	}
	copy(s[:], src)
	k1, m1, ok1 := dbcsBlockRun(pair, &d1, &s, limit)
	k2, m2, ok2 := dbcsBlockRunGeneric(pair, &d2, &s, limit)
	if k1 != k2 || m1 != m2 || ok1 != ok2 || !bytes.Equal(d1[:m1], d2[:m2]) {
		t.Fatalf("%s: limit %d, s %x:\nassembly k %d m %d ok %v %x\ntwin     k %d m %d ok %v %x",
			name, limit, s[:min(len(src)+8, dbcsWindow)], k1, m1, ok1, d1[:m1], k2, m2, ok2, d2[:m2])
	}
}

// blockPieces returns the pieces TestDBCSBlockRunTwin builds windows of for
// t: ASCII runs of every length to 70 (the 8- and 32-byte steps), valid
// pairs of two- and three-byte UTF-8, a lead alone, trail bytes, a pair
// off the fast path, and the bytes the decode Reader cares about.
func blockPieces(t *dbcsTables) []string {
	pieces := []string{"\x00", "\r\n", "\x80", "\xFF", "\x81", "\x40", "\xA1"}
	for n := range 71 {
		pieces = append(pieces, string(bytes.Repeat([]byte("abcdefgh"), 9)[:n]))
	}
	var two, three, off int
	for x := 0x8000; x < 0x10000; x++ {
		e := t.pair[x]
		var keep bool
		switch {
		case e == 0:
			off++
			keep = off%97 == 1
		case e&dbcsThree == 0:
			two++
			keep = two%7 == 1
		default:
			three++
			keep = three%211 == 1
		}
		if keep {
			pieces = append(pieces, string([]byte{byte(x >> 8), byte(x)}))
		}
	}
	return pieces
}

// TestDBCSBlockRunTwin compares the assembly of dbcsBlockRun with its Go
// twin on windows of random pieces (blockPieces, mostly pairs) of every
// double-byte encoding, at limits around the steps and the block size.
func TestDBCSBlockRunTwin(t *testing.T) {
	if !dbcsBlockRunAsm {
		t.Skip(noDBCSAsm)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	limits := []uint{0, 1, 2, 3, 4, 5, 8, 31, 32, 33, 64, 100, 159, dbcsBlock, dbcsBlock + 1, 255}
	for _, c := range dbcsCases {
		tables := c.t()
		pieces := blockPieces(tables)
		for n := range 3000 {
			var src []byte
			for len(src) < dbcsWindow {
				p := pieces[rng.IntN(len(pieces))]
				if n%3 != 0 && rng.IntN(4) != 0 {
					p = pieces[len(pieces)-1-rng.IntN(len(pieces)/2)] // pairs
				}
				src = append(src, p...)
			}
			compareBlockRun(t, tables.pair, c.e.Name(), src[:dbcsWindow], limits[n%len(limits)])
		}
	}
}

// FuzzDBCSBlockRunTwin compares the assembly of dbcsBlockRun with its Go
// twin on any window (src repeated to dbcsWindow bytes) of any double-byte
// encoding, with any limit.
func FuzzDBCSBlockRunTwin(f *testing.F) {
	f.Add(uint8(2), []byte("\xC4\xE3\xBA\xC3 hello, world\r\n<p>\xD6\xD0\xCE\xC4</p>"), uint16(160))
	f.Add(uint8(0), []byte("\x82\xA0\x82\xA2abc\x81\x40\xF0\x40"), uint16(37))
	f.Add(uint8(3), []byte("\xA4\x40\x88\x62\x88\x64 x"), uint16(3))
	f.Add(uint8(4), []byte(""), uint16(0))
	f.Fuzz(func(t *testing.T, which uint8, src []byte, limit uint16) {
		if !dbcsBlockRunAsm {
			t.Skip(noDBCSAsm)
		}
		c := dbcsCases[int(which)%len(dbcsCases)]
		var s []byte
		for len(src) > 0 && len(s) < dbcsWindow {
			s = append(s, src...)
		}
		compareBlockRun(t, c.t().pair, c.e.Name(), s[:min(len(s), dbcsWindow)], uint(limit))
	})
}

// BenchmarkDBCSBlockRun decodes about 64 KB of text in each double-byte
// encoding (benchInputs) with dbcsFast's loop of blocks, through the
// assembly and through its Go twin in turn in each iteration, and reports
// asm-ns and go-ns, the median time of each a pass, and go/asm, their
// ratio: the modes take turns and the medians drop the turns another
// process interrupted, so that the ratio holds on a busy machine.
func BenchmarkDBCSBlockRun(b *testing.B) {
	if !dbcsBlockRunAsm {
		b.Skip(noDBCSAsm)
	}
	runs := []func(pair *[1 << 16]uint32, d, s *[dbcsWindow]byte, limit uint) (k, m uint, ok bool){dbcsBlockRun, dbcsBlockRunGeneric}
	for _, in := range benchInputs {
		var tables *dbcsTables
		for _, c := range dbcsCases {
			if c.e == in.e || c.e == override.GBK && in.e == override.GB18030 {
				tables = c.t()
			}
		}
		if tables == nil {
			continue
		}
		b.Run(in.name, func(b *testing.B) {
			src := benchInput(b, in.e, in.text)
			dst := make([]byte, 2*len(src)+dbcsWindow)
			var ns [2][]time.Duration
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				for k, run := range runs {
					t0 := time.Now()
					i, j := 0, 0
					for len(src)-i >= dbcsWindow {
						n, m, ok := run(tables.pair, (*[dbcsWindow]byte)(dst[j:]), (*[dbcsWindow]byte)(src[i:]), dbcsBlock)
						i += int(n)
						j += int(m)
						if !ok {
							i++ // a byte off the fast path
						}
					}
					ns[k] = append(ns[k], time.Since(t0))
				}
			}
			med := func(d []time.Duration) float64 { slices.Sort(d); return float64(d[len(d)/2]) }
			b.ReportMetric(med(ns[0]), "asm-ns")
			b.ReportMetric(med(ns[1]), "go-ns")
			b.ReportMetric(med(ns[1])/med(ns[0]), "go/asm")
		})
	}
}
