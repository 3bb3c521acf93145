package jsonstr

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// indexReference is the literal reference: the first byte for which
// NeedsLook is true, one at a time.
func indexReference(s []byte) int {
	for i, c := range s {
		if c < 0x20 || c == '"' || c == '\\' || c == 0xE2 {
			return i
		}
	}
	return -1
}

// check compares the twin and, where it runs, the assembly with the
// reference on s.
func check(t *testing.T, s []byte) {
	t.Helper()
	want := indexReference(s)
	if got := indexSpecialGeneric(s); got != want {
		t.Fatalf("indexSpecialGeneric(%q) = %d, want %d", s, got, want)
	}
	if got := IndexSpecial(s); got != want {
		t.Fatalf("IndexSpecial(%q) = %d, want %d (assembly: %v)", s, got, want, avx2OK)
	}
}

// logNoAsm says when the assembly does not run here: the twin is still
// compared with the reference.
func logNoAsm(t *testing.T) {
	t.Helper()
	if !avx2OK {
		t.Log("the AVX2 assembly does not run here (no AVX2, GODEBUG=cpu.avx2=off or purego): IndexSpecial is the Go twin")
	}
}

// TestNeedsLook checks the set against encoding/json: an ASCII byte needs
// a look exactly when encoding/json escapes it, a byte from 0x80 exactly
// when it leads a character that encoding/json escapes (every character
// from U+0080 is marshaled in one string, and the lead bytes of those it
// writes as \u are collected).
func TestNeedsLook(t *testing.T) {
	want := map[byte]bool{}
	for c := range 0x80 {
		b, _ := json.Marshal(string([]byte{byte(c)}))
		want[byte(c)] = !bytes.Equal(b, []byte(`"`+string([]byte{byte(c)})+`"`))
	}
	want['<'], want['>'], want['&'] = false, false, false // HTML escaping is off
	var all strings.Builder
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if utf8.ValidRune(r) {
			all.WriteRune(r)
		}
	}
	b, err := json.Marshal(all.String())
	if err != nil {
		t.Fatal(err)
	}
	for out := b; ; {
		i := bytes.Index(out, []byte(`\u`))
		if i < 0 {
			break
		}
		r, err := strconv.ParseUint(string(out[i+2:i+6]), 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		want[string(rune(r))[0]] = true
		out = out[i+6:]
	}
	for c := range 256 {
		if NeedsLook(byte(c)) != want[byte(c)] {
			t.Errorf("NeedsLook(%#x) = %v, want %v", c, NeedsLook(byte(c)), want[byte(c)])
		}
	}
}

// TestIndexSpecial puts each byte that needs a look, and some that do not,
// at every place of texts of every length up to 100 (so at every place of
// a 32-byte block, in the last block and before it, and in texts shorter
// than one), over clean text of every kind.
func TestIndexSpecial(t *testing.T) {
	logNoAsm(t)
	fills := []string{"a", "é", "日", "😀", "\u2027"}
	needles := []byte{0, 0x1f, '\n', '"', '\\', 0xE2}
	near := []byte{0x20, '!', '#', 0x5b, 0x5d, 0xE1, 0xE3, 0x7f, 0x80, 0xff}
	for _, f := range fills {
		for n := 0; n <= 100; n++ {
			s := []byte(string(slices.Repeat([]rune(f), n)))[:n]
			s = bytes.ReplaceAll(s, []byte{0xE2}, []byte{'x'}) // \u2027's lead byte
			check(t, s)
			for at := range n {
				for _, c := range append(needles, near...) {
					b := slices.Clone(s)
					b[at] = c
					check(t, b)
				}
			}
		}
	}
}

// TestIndexSpecialRandom compares them on random texts drawn mostly from
// clean bytes, with a byte that needs a look every few dozen.
func TestIndexSpecialRandom(t *testing.T) {
	logNoAsm(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		s := make([]byte, rng.IntN(300))
		for i := range s {
			s[i] = byte(0x20 + rng.IntN(0xE0))
			if rng.IntN(60) == 0 {
				s[i] = []byte{0, '\t', '"', '\\', 0xE2}[rng.IntN(5)]
			}
		}
		check(t, s)
		for k := 0; k < len(s); k++ {
			if i := IndexSpecial(s[k:]); i >= 0 {
				check(t, s[k:])
				k += i
			}
		}
	}
}

func FuzzIndexSpecial(f *testing.F) {
	f.Add([]byte("plain text with a \"quote\" and a \\ backslash\n"))
	f.Add([]byte("\u2028 \u2029 é 日本"))
	f.Add(bytes.Repeat([]byte("abcdefgh"), 9))
	f.Fuzz(func(t *testing.T, s []byte) {
		check(t, s)
	})
}

// BenchmarkIndexSpecial runs the assembly ("asm") and the Go twin ("go")
// in turn, on the same text, each iteration: a 64 KB page of markup with a
// byte to escape every 32 bytes on average (the golden texts of the
// samples have one every 32), and a clean one. It reports the ratio of
// the median times, go/asm, in-process (so that a busy machine slows both
// alike).
func BenchmarkIndexSpecial(b *testing.B) {
	if !avx2OK {
		b.Skip("the AVX2 assembly does not run here")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	page := make([]byte, 64<<10)
	for i := range page {
		page[i] = "abcdefghijklmnopqrstuvwxyz <>=/"[rng.IntN(31)]
		if rng.IntN(32) == 0 {
			page[i] = "\"\n\\"[rng.IntN(3)]
		}
	}
	clean := bytes.Repeat([]byte("<p class=x>The quick brown fox. "), 2048)
	for _, c := range []struct {
		name string
		text []byte
	}{{"markup", page}, {"clean", clean}} {
		b.Run(c.name, func(b *testing.B) {
			scan := func(index func([]byte) int) {
				for s := c.text; ; {
					i := index(s)
					if i < 0 {
						return
					}
					s = s[i+1:]
				}
			}
			var goT, asmT []time.Duration
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				t0 := time.Now()
				scan(IndexSpecial)
				t1 := time.Now()
				scan(indexSpecialGeneric)
				asmT, goT = append(asmT, t1.Sub(t0)), append(goT, time.Since(t1))
			}
			slices.Sort(goT)
			slices.Sort(asmT)
			b.ReportMetric(float64(goT[len(goT)/2])/float64(asmT[len(asmT)/2]), "go/asm")
		})
	}
}
