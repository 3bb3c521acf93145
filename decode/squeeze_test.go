package decode

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// refCompactCR is newline normalization one byte at a time: CR LF and lone
// CR become LF, and an LF first in b is dropped if cr (the text before b
// ended in a CR). It returns the text and whether b ends in a CR.
func refCompactCR(b []byte, cr bool) ([]byte, bool) {
	var out []byte
	for _, c := range b {
		if c == '\n' && cr {
			cr = false
			continue
		}
		cr = c == '\r'
		if cr {
			c = '\n'
		}
		out = append(out, c)
	}
	return out, cr
}

// squeezeText returns random text of n bytes made of ASCII, UTF-8 letters
// and line ends of every kind, often several to a 32-byte block.
func squeezeText(rng *rand.Rand, n int) []byte {
	pieces := []string{"a", "word ", "\r\n", "\r", "\n", "\r\n\r\n", "\r\r\n", "\n\r", "é", "日本", strings.Repeat("x", 40)}
	var b []byte
	for len(b) < n {
		b = append(b, pieces[rng.IntN(len(pieces))]...)
	}
	return b[:n]
}

// compareSqueeze runs squeezeBlocks, its model squeezeModel and its Go
// twin squeezeBlocksGeneric on copies of b from r (w bytes written before
// it, cr for the byte before b[r]). It fails unless the assembly (where it
// runs) and the model return the same r, w and cr and write the same
// b[:w], and the twin, which takes all of b, writes what they do and
// then what refCompactCR makes of the rest. It returns the model's text,
// b[:w], and r and cr.
func compareSqueeze(t *testing.T, b []byte, r, w int, cr uint64) ([]byte, int, uint64) {
	t.Helper()
	b1, b2, b3 := bytes.Clone(b), bytes.Clone(b), bytes.Clone(b)
	r2, w2, cr2 := squeezeModel(b2, r, w, cr)
	if len(b)-r2 >= 32 || r2 < r || w2 > r2 {
		t.Fatalf("squeezeModel(%q, %d, %d, %d) = %d, %d, %d: stopped early or wrote past r", b, r, w, cr, r2, w2, cr2)
	}
	if sweepOK {
		r1, w1, cr1 := squeezeBlocks(b1, r, w, cr)
		if r1 != r2 || w1 != w2 || cr1 != cr2 || !bytes.Equal(b1[:w1], b2[:w2]) || !bytes.Equal(b1[r1:], b[r1:]) {
			t.Fatalf("squeeze %q from %d, %d, cr %d:\nassembly %d, %d, %d: %q\nmodel    %d, %d, %d: %q",
				b, r, w, cr, r1, w1, cr1, b1[:w1], r2, w2, cr2, b2[:w2])
		}
	}
	r3, w3, cr3 := squeezeBlocksGeneric(b3, r, w, cr)
	rest, restCR := refCompactCR(b[r2:], cr2 == 1)
	if r2 == len(b) {
		restCR = cr2 == 1
	}
	if r3 != len(b) || w3 > r3 || !bytes.Equal(b3[:w3], append(bytes.Clone(b2[:w2]), rest...)) || (cr3 == 1) != restCR {
		t.Fatalf("squeezeBlocksGeneric(%q, %d, %d, %d) = %d, %d, %d: %q, want %q then %q, cr %v",
			b, r, w, cr, r3, w3, cr3, b3[:w3], b2[:w2], rest, restCR)
	}
	return b2[:w2], r2, cr2
}

// TestSqueezeCRTwin compares squeezeBlocks with its model and its Go twin
// on random text (squeezeText) from every start and with either carry,
// and checks the model against refCompactCR.
func TestSqueezeCRTwin(t *testing.T) {
	if !sweepOK {
		t.Log(noSweep)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for n := range 400 {
		b := squeezeText(rng, n%200)
		for r := range min(len(b)+1, 40) {
			w := rng.IntN(r + 1)
			cr := uint64(rng.IntN(2))
			got, r2, cr2 := compareSqueeze(t, b, r, w, cr)
			want, wantCR := refCompactCR(b[r:r2], cr == 1)
			if !bytes.Equal(got[w:], want) || (cr2 == 1) != wantCR && r2 > r {
				t.Fatalf("squeezeModel(%q, %d, %d, %d): %q, cr %d, want %q, cr %v", b, r, w, cr, got[w:], cr2, want, wantCR)
			}
		}
	}
}

// FuzzSqueezeCRTwin compares squeezeBlocks with its model and its Go twin
// on any text.
func FuzzSqueezeCRTwin(f *testing.F) {
	f.Add([]byte(strings.Repeat("line\r\n\r\nx\r\r\n\n", 9)), uint8(3), true)
	f.Add([]byte(strings.Repeat("日本語の文字 text\r\n", 8)), uint8(0), false)
	f.Fuzz(func(t *testing.T, b []byte, r uint8, cr bool) {
		start := int(r) % (len(b) + 1)
		var c uint64
		if cr {
			c = 1
		}
		got, r2, _ := compareSqueeze(t, b, start, start, c)
		if want, _ := refCompactCR(b[start:r2], cr); !bytes.Equal(got[start:], want) {
			t.Fatalf("squeeze %q from %d: %q, want %q", b, start, got[start:], want)
		}
	})
}

// TestCompactCR checks compactCR, whose vector path (squeezeCR) runs from
// squeezeMin bytes after the first CR where the sweep runs, against
// refCompactCR on random text of every length to 300, with the CR carried
// from the text before and into the next.
func TestCompactCR(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for n := range 3000 {
		b := squeezeText(rng, n%300)
		cr := rng.IntN(2) == 1
		d := &decoder{cr: cr}
		want, wantCR := refCompactCR(b, cr)
		got := bytes.Clone(b)
		m := d.compactCR(got)
		if !bytes.Equal(got[:m], want) || d.cr != wantCR && len(b) > 0 {
			t.Fatalf("compactCR(%q), cr %v: %q, cr %v; want %q, cr %v", b, cr, got[:m], d.cr, want, wantCR)
		}
	}
}
