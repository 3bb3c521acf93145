package singlebyte

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/charsniff/charsniff/override"
)

// denseEncodings are the encodings with a table: the single-byte ones and
// x-user-defined.
func denseEncodings() []override.Encoding {
	var es []override.Encoding
	for _, e := range override.All() {
		if High(e) != nil {
			es = append(es, e)
		}
	}
	return es
}

// refDecode decodes src byte by byte through t.
func refDecode(src []byte, t *[256]uint32) []byte {
	var out []byte
	for _, c := range src {
		v := t[c]
		for k := range int(v >> 24) {
			out = append(out, byte(v>>(8*k)))
		}
	}
	return out
}

// denseInput returns n bytes with no NUL or CR, each from 0x80 with
// probability p, else ASCII; with wide, some bytes from 0x80 are ones
// whose UTF-8 in e is three bytes (if e has any).
func denseInput(r *rand.Rand, e override.Encoding, n int, p float64, wide bool) []byte {
	high := High(e)
	var threes, twos []byte
	for k, c := range high {
		if c >= 0x800 {
			threes = append(threes, byte(0x80+k))
		} else {
			twos = append(twos, byte(0x80+k))
		}
	}
	b := make([]byte, n)
	for k := range b {
		switch {
		case r.Float64() >= p:
			c := byte(1 + r.IntN(127))
			if c == '\r' {
				c = '\n'
			}
			b[k] = c
		case len(threes) > 0 && (len(twos) == 0 || wide && r.IntN(40) == 0):
			b[k] = threes[r.IntN(len(threes))]
		default:
			b[k] = twos[r.IntN(len(twos))]
		}
	}
	return b
}

// checkDense checks Dense on src into room bytes, with e's Vector and
// without: the bytes it reads decode as the table says, it stops only
// where it must (fewer than eight bytes left, or 64 of room), and both
// ways agree.
func checkDense(t *testing.T, e override.Encoding, src []byte, room int) {
	t.Helper()
	checkDenseBy(t, e, src, room, Decode(e), Preprocess(e))
}

// checkDenseBy is checkDense with the tables tabs.
func checkDenseBy(t *testing.T, e override.Encoding, src []byte, room int, tabs ...*[256]uint32) {
	t.Helper()
	for _, tab := range tabs {
		var got [2][]byte
		var read [2]int
		for k, v := range []*Vector{Vec(e), nil} {
			dst := make([]byte, room)
			i, j := Dense(dst, src, tab, v)
			want := refDecode(src[:i], tab)
			if !bytes.Equal(dst[:j], want) {
				t.Fatalf("%v, vector %v, %d bytes into %d: Dense read %d, wrote %q, want %q", e, v != nil, len(src), room, i, dst[:j], want)
			}
			if i%8 != 0 || len(src)-i >= 8 && room-j >= 64 {
				t.Fatalf("%v, vector %v, %d bytes into %d: stopped at %d, %d", e, v != nil, len(src), room, i, j)
			}
			got[k], read[k] = dst[:j], i
		}
		if read[0] != read[1] || !bytes.Equal(got[0], got[1]) {
			t.Fatalf("%v: with a Vector read %d, without %d", e, read[0], read[1])
		}
	}
}

// TestDense checks Dense on every encoding, on text of every density of
// bytes from 0x80, with and without bytes of three, and room that runs out.
func TestDense(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, e := range denseEncodings() {
		for _, p := range []float64{0, 0.05, 0.5, 0.62, 0.9, 1} {
			for _, wide := range []bool{false, true} {
				src := denseInput(r, e, 100+r.IntN(3000), p, wide)
				checkDense(t, e, src, 3*len(src)+64)
				checkDense(t, e, src, r.IntN(2*len(src)+200))
				// NUL and CR, through the Decode table.
				for range 10 {
					src[r.IntN(len(src))] = "\x00\r"[r.IntN(2)]
				}
				checkDenseBy(t, e, src, 3*len(src)+64, Decode(e))
			}
		}
	}
}

// TestVec checks the Vectors: a pair for each byte whose UTF-8 is two
// bytes, none for the others, and none for the encodings whose letters
// take three (windows-874, x-user-defined).
func TestVec(t *testing.T) {
	for _, e := range denseEncodings() {
		v := Vec(e)
		if v != Vec(e) {
			t.Fatalf("%v: Vector not shared", e)
		}
		if none := e == override.Windows874 || e == override.XUserDefined; none != (v == nil) {
			t.Fatalf("%v: Vector %v, want one %v", e, v != nil, !none)
		}
		if v == nil {
			continue
		}
		tab := Decode(e)
		for k := range 128 {
			ent := tab[0x80+k]
			lead, trail := byte(ent), byte(ent>>8)
			if ent>>24 != 2 {
				lead, trail = 0, 0
			}
			if v.lead[k] != lead || v.trail[k] != trail {
				t.Errorf("%v byte %#x: pair %#x %#x, want %#x %#x", e, 0x80+k, v.lead[k], v.trail[k], lead, trail)
			}
		}
	}
	if Vec(override.UTF8) != nil || Vec(override.GBK) != nil {
		t.Error("a Vector for an encoding that is not single-byte")
	}
}

// compareVector checks denseVector, where the assembly runs, against its
// Go twin, denseWords, on src into room bytes: the same i and j and
// dst[:j].
func compareVector(t *testing.T, e override.Encoding, src []byte, room int) {
	t.Helper()
	compareVectorBy(t, e, src, room, Decode(e), Preprocess(e))
}

// compareVectorBy is compareVector with the tables tabs.
func compareVectorBy(t *testing.T, e override.Encoding, src []byte, room int, tabs ...*[256]uint32) {
	t.Helper()
	v := Vec(e)
	if v == nil {
		return
	}
	for _, tab := range tabs {
		d1, d2 := make([]byte, room), make([]byte, room)
		i1, j1 := denseVector(d1, src, tab, v)
		i2, j2 := denseWords(d2, src, tab)
		if i1 != i2 || j1 != j2 || !bytes.Equal(d1[:j1], d2[:j2]) {
			t.Fatalf("%v, %d bytes into %d:\nassembly read %d, wrote %q\nGo twin  read %d, wrote %q", e, len(src), room, i1, d1[:j1], i2, d2[:j2])
		}
	}
}

// skipNoVector skips a test of the assembly where it does not run.
func skipNoVector(t *testing.T) {
	if !vectorOK || !hasAssembly {
		t.Skip("denseVector's assembly does not run here: it needs amd64 with AVX-512 VBMI2 and BMI2, no purego tag, no GODEBUG=cpu.avx512f=off or cpu.avx2=off")
	}
}

// TestDenseVectorTwin compares the assembly of denseVector with its Go
// twin on every encoding with a Vector: text of every density of bytes
// from 0x80, with bytes of three or not, every room up to 400 bytes (around blockRoom), and
// every length of src up to 200.
func TestDenseVectorTwin(t *testing.T) {
	skipNoVector(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, e := range denseEncodings() {
		for _, p := range []float64{0, 0.01, 0.3, 0.62, 1} {
			for _, wide := range []bool{false, true} {
				src := denseInput(r, e, 64+r.IntN(4000), p, wide)
				compareVector(t, e, src, 3*len(src)+200)
				compareVector(t, e, src, r.IntN(2*len(src)+300))
				for range 10 {
					src[r.IntN(len(src))] = "\x00\r"[r.IntN(2)]
				}
				compareVectorBy(t, e, src, 3*len(src)+200, Decode(e))
			}
		}
	}
	src := denseInput(r, override.Windows1251, 200, 0.62, true)
	for room := range 2*blockRoom + 16 {
		compareVector(t, override.Windows1251, src, room)
	}
	for n := range len(src) {
		compareVector(t, override.Windows1251, src[:n], 500)
	}
}

// FuzzDenseVector compares the assembly of denseVector with its Go twin,
// and Dense with the table: on any bytes with a Decode table, and with NUL
// and CR made 'x' with both tables.
func FuzzDenseVector(f *testing.F) {
	f.Add([]byte("Привет, мир"), uint8(override.Windows1251-override.IBM866), uint16(300))
	f.Add(bytes.Repeat([]byte{0xC0, 'a', 0x97, 0xFF}, 40), uint8(0), uint16(1000))
	f.Fuzz(func(t *testing.T, src []byte, enc uint8, room uint16) {
		es := denseEncodings()
		e := es[int(enc)%len(es)]
		// Any bytes through the Decode table, whose entries all have a
		// length; with no NUL or CR through both.
		checkDenseBy(t, e, src, int(room), Decode(e))
		if vectorOK && hasAssembly {
			compareVectorBy(t, e, src, int(room), Decode(e))
		}
		src = bytes.Clone(src)
		for k, c := range src {
			if c == 0 || c == '\r' {
				src[k] = 'x'
			}
		}
		checkDense(t, e, src, int(room))
		if vectorOK && hasAssembly {
			compareVector(t, e, src, int(room))
		}
	})
}
