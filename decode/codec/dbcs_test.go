package codec

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/charsniff/charsniff/override"
)

// dbcsCases are the double-byte decoders, with their fast-path tables and
// their step of the standard.
var dbcsCases = []struct {
	e    override.Encoding
	t    func() *dbcsTables
	step dbcsStep
}{
	{override.ShiftJIS, shiftJISTables, shiftJISStep},
	{override.EUCJP, eucJPTables, eucJPStep},
	{override.GBK, gb18030Tables, gb18030Step},
	{override.Big5, big5Tables, big5Step},
	{override.EUCKR, eucKRTables, eucKRStep},
}

// stepDecode decodes all of src with step alone, a character at a time, as
// the standard does: the reference for the fast path.
func stepDecode(step dbcsStep, src []byte) []byte {
	return appendStepDecode(nil, step, src)
}

// appendStepDecode appends stepDecode(step, src) to out.
func appendStepDecode(out []byte, step dbcsStep, src []byte) []byte {
	for len(src) > 0 {
		if src[0] < 0x80 {
			out = append(out, src[0])
			src = src[1:]
			continue
		}
		r, r2, size, _ := step(src, true)
		out = utf8.AppendRune(out, r)
		if r2 >= 0 {
			out = utf8.AppendRune(out, r2)
		}
		src = src[size:]
	}
	return out
}

// TestDBCSPairTable checks every entry of each pair table against the
// step of the standard: an entry is either 0 or the UTF-8 of the pair
// with its length in the top two bits.
func TestDBCSPairTable(t *testing.T) {
	for _, c := range dbcsCases {
		tab := c.t()
		fast := 0
		for x := range tab.pair {
			e := tab.pair[x]
			if e == 0 {
				continue
			}
			fast++
			pair := []byte{byte(x >> 8), byte(x)}
			r, _, size, _ := c.step(pair, true)
			want := utf8.AppendRune(nil, r)
			n := int(e >> 30)
			got := []byte{byte(e), byte(e >> 8), byte(e >> 16)}[:min(n, 3)]
			if x < 0x8000 || size != 2 || r == utf8.RuneError || n < 2 || !bytes.Equal(got, want) || e>>24&0x3F != 0 {
				t.Errorf("%v: pair %04X: entry %08X, want %q (%d bytes read)", c.e, x, e, want, size)
			}
		}
		t.Logf("%v: %d pairs on the fast path", c.e, fast)
	}
}

// dbcsFillers go after each pair in TestDBCSEveryPair: nothing, ASCII of
// odd and even lengths, the bytes the decode Reader cuts or rewrites (00,
// CR, LF), a lead byte alone, and a valid pair.
var dbcsFillers = []string{"", "a", "\n", "", "ab", "\x00", "", "\r\n", "abcdefghij", "\x81", "", " x "}

// TestDBCSEveryPair decodes every lead × trail pair from lead 0x80, in runs
// of pairs back to back and between the fillers (so that each pair comes
// first and second in dbcsBlockRun's two-character step, before ASCII and
// before other pairs), through large and small buffers and cut into
// pieces, against stepDecode. A wrong entry of a pair table, or a wrong
// step of the fast path, fails.
func TestDBCSEveryPair(t *testing.T) {
	for _, c := range dbcsCases {
		t.Run(c.e.Name(), func(t *testing.T) {
			// A valid pair, to put after pairs.
			var valid []byte
			for x := 0x8000; x < 0x10000 && valid == nil; x++ {
				if c.t().pair[x] != 0 {
					valid = []byte{byte(x >> 8), byte(x)}
				}
			}
			for lead := 0x80; lead <= 0xFF; lead++ {
				var src []byte
				for trail := range 256 {
					src = append(src, byte(lead), byte(trail))
					f := dbcsFillers[(trail+lead)%len(dbcsFillers)]
					if f == "" && trail%5 == 0 {
						src = append(src, valid...)
					}
					src = append(src, f...)
				}
				want := stepDecode(c.step, src)
				if got := decodeAll(t, c.e, src); !bytes.Equal(got, want) {
					t.Fatalf("lead %02X: decode\n%x\ngot  %q\nwant %q", lead, src, got, want)
				}
				for _, p := range []struct{ split, dst int }{{0, 40}, {0, 300}, {37, 1000}, {101, 64}, {dbcsWindow - 1, 4096}, {dbcsWindow, dbcsWindow + 6}} {
					var splits []int
					for i := p.split; p.split > 0 && i < len(src); i += p.split {
						splits = append(splits, i)
					}
					if got := decodeChunked(t, c.e, src, splits, p.dst); !bytes.Equal(got, want) {
						t.Fatalf("lead %02X, pieces of %d bytes, dst of %d: decode\n%x\ngot  %q\nwant %q", lead, p.split, p.dst, src, got, want)
					}
				}
			}
		})
	}
}

// dbcsAfters follow the pair in TestDBCSFastPositions, in turn.
var dbcsAfters = []string{"", "z", "\x00", "\xff", "\r", "\x81", "\xa1\xa1"}

// TestDBCSFastPositions puts each pair (and a lead alone) at the positions
// around dbcsFast's block and window edges and inside its 32-byte ASCII
// steps, after ASCII and after other
// pairs, followed by one of dbcsAfters (each in turn as the position
// changes), and checks what dbcsFast writes and reads (see check).
func TestDBCSFastPositions(t *testing.T) {
	const b, w = dbcsBlock, dbcsWindow
	positions := []int{0, 1, 2, 3, 45, 77, 100, 127, b - 1, b, b + 1, b + 2, b + 3, w - 1, w, w + 1}
	if testing.Short() {
		positions = []int{0, 1, b, w - 1}
	}
	for _, c := range dbcsCases {
		t.Run(c.e.Name(), func(t *testing.T) {
			t.Parallel()
			tab := c.t()
			var kanji []byte // a valid pair
			for x := 0xA0A0; x < 0x10000 && kanji == nil; x++ {
				if tab.pair[x] != 0 {
					kanji = []byte{byte(x >> 8), byte(x)}
				}
			}
			ck := fastChecker{t: t, step: c.step, tab: tab, dst: make([]byte, 1024)}
			for _, fill := range [][]byte{[]byte("a"), kanji} {
				for _, p := range positions {
					prefix := bytes.Repeat(fill, (p+len(fill)-1)/len(fill))
					ck.setPrefix(prefix)
					for lead := 0x80; lead <= 0xFF; lead++ {
						for trail := range 256 {
							after := dbcsAfters[(lead+trail+p)%len(dbcsAfters)]
							rest := append(append([]byte{byte(lead), byte(trail)}, after...), "0123456789"[:trail%11]...)
							ck.check(rest)
							if trail == 0 {
								ck.check(rest[:1])
							}
						}
					}
				}
			}
			// Short destinations: everything dbcsFast writes fits.
			ck.setPrefix(nil)
			rest := bytes.Repeat(append([]byte("ab"), kanji...), 200)
			for n := range 300 {
				ck.dst = make([]byte, n)
				ck.check(rest)
			}
		})
	}
}

// fastChecker runs dbcsFast on a fixed prefix followed by the bytes given
// to check, and checks what it writes and reads against stepDecode.
type fastChecker struct {
	t               *testing.T
	step            dbcsStep
	tab             *dbcsTables
	dst             []byte
	prefix          []byte // ASCII or pairs on the fast path
	prefixOut       []byte // stepDecode(prefix)
	src, want, full []byte // scratch
}

func (ck *fastChecker) setPrefix(prefix []byte) {
	ck.prefix = prefix
	ck.prefixOut = stepDecode(ck.step, prefix)
}

// check runs dbcsFast on prefix+rest: it must have read whole characters,
// all of the prefix if dst had room for it, and written their decoding
// within dst.
func (ck *fastChecker) check(rest []byte) {
	t := ck.t
	t.Helper()
	src := append(append(ck.src[:0], ck.prefix...), rest...)
	ck.src = src
	nDst, nSrc := dbcsFast(ck.tab, ck.dst, src)
	if nDst > len(ck.dst) || nSrc > len(src) || nSrc < 0 || nDst < 0 {
		t.Fatalf("dbcsFast(%d-byte dst, %x) = %d, %d: out of range", len(ck.dst), src, nDst, nSrc)
	}
	if len(ck.dst) >= 3*len(ck.prefix)/2+dbcsWindow+16 && nSrc < len(ck.prefix) {
		t.Fatalf("dbcsFast(%d-byte dst, %x) read %d bytes, want at least %d", len(ck.dst), src, nSrc, len(ck.prefix))
	}
	var want []byte
	if nSrc >= len(ck.prefix) {
		want = appendStepDecode(append(ck.want[:0], ck.prefixOut...), ck.step, rest[:nSrc-len(ck.prefix)])
		ck.want = want
	} else {
		want = stepDecode(ck.step, src[:nSrc])
	}
	if !bytes.Equal(ck.dst[:nDst], want) {
		t.Fatalf("dbcsFast(%x) read %d bytes, wrote %q, want %q", src, nSrc, ck.dst[:nDst], want)
	}
	// A character cut in two would decode differently.
	ck.full = appendStepDecode(append(ck.full[:0], ck.prefixOut...), ck.step, rest)
	if !bytes.HasPrefix(ck.full, want) {
		t.Fatalf("dbcsFast(%x) read %d bytes, wrote %q: not a prefix of %q", src, nSrc, want, ck.full)
	}
}
