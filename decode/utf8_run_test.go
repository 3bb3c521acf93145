package decode

import (
	"strings"
	"testing"
)

// refRun is the reference for utf8Run: the length of the longest prefix of
// s made of ASCII bytes and whole valid sequences, found one sequence at a
// time, and whether it holds a non-ASCII byte.
func refRun(s []byte) (int, bool) {
	i, high := 0, false
	for i < len(s) {
		if s[i] < 0x80 {
			i++
			continue
		}
		n, ok := utf8Sequence(s[i:])
		if !ok {
			break
		}
		i += n
		high = true
	}
	return i, high
}

// utf8Runs are the texts that the tests of the UTF-8 paths put each of
// utf8Odd into: three-byte, two-byte, mixed (with a line feed), Korean and
// ASCII text.
var utf8Runs = []string{
	strings.Repeat("日本語の文字（：）", 3),
	strings.Repeat("русский", 4),
	strings.Repeat("日本 語a\u00e9の\nд", 4),
	strings.Repeat("한국어 텍스트", 3),
	strings.Repeat("abcdefgh", 5),
}

// utf8Odd are the sequences that the word-at-a-time UTF-8 paths must
// refuse, carry or hand to the careful path: E0 and ED leads, valid or
// not, four-byte sequences, C0/C1 and F5-FF leads, missing, stray and
// extra trail bytes, cut-off sequences, CR, NUL, and runs of ill-formed
// bytes (text in another encoding) with CR and NUL among them.
var utf8Odd = []string{
	"", "\xE0\xA0\x80", "\xE0\x9F\xBF", "\xED\x9F\xBF", "\xED\xA0\x80", "\xEC\xBF\xBF", "\xEE\x80\x80", "\xEF\xBF\xBF",
	"\xE1\x80", "\xE1\x41\x80", "\xE1\x80\x41", "\xE1\xC0\x80", "\xEF\xBF", "\xE3\x81\x82\x80",
	"\xC0\x80", "\xC1\xBF", "\xC2\x80", "\xDF\xBF", "\xC2\x41", "\xC2", "\xC2\x80\x80", "\xC2\xC2\x80",
	"\xF0\x9F\x98\x80", "\xF0\x8F\xBF\xBF", "\xF4\x90\x80\x80", "\xF0\x9F\x98", "\xF5\x80\x80", "\xFF",
	"\x80", "\xBF", "\x80\x80", "\x80\x80\x80",
	"\r", "\r\n", "\x00", "\n", "a",
	"\xC0\xC1\xFF\x80\xE3", "\xE3\x81\xE3\x81\x82\xCF", "\xE3\r\x81\x82", "\xE3\x81\x00\x82", "\r\x00\r",
}

// TestUTF8Run puts each of utf8Odd at every position of each of utf8Runs,
// behind 0 to 32 ASCII bytes (so that the odd sequence meets every offset
// in the 32-byte blocks and the eight-byte words), cut at every length,
// and checks utf8Run against refRun.
func TestUTF8Run(t *testing.T) {
	eachInsertion(utf8Runs, utf8Odd, func(s []byte) {
		for pad := 0; pad <= 32; pad++ {
			in := []byte(strings.Repeat("a", pad) + string(s))
			for _, cut := range []int{len(in), len(in) - 1, len(in) - 2, len(in) * 2 / 3, len(in) / 3} {
				src := in[:cut]
				want, wantHigh := refRun(src)
				got, gotHigh := utf8Run(make([]byte, len(src)), src)
				if got != want || gotHigh != wantHigh {
					t.Fatalf("%q cut at %d: got %d, %v, want %d, %v", in, cut, got, gotHigh, want, wantHigh)
				}
				// A shorter dst cuts the prefix as a shorter src.
				if cut > 0 {
					want, wantHigh = refRun(src[:cut-1])
					got, gotHigh = utf8Run(make([]byte, cut-1), src)
					if got != want || gotHigh != wantHigh {
						t.Fatalf("%q cut at %d, dst %d: got %d, %v, want %d, %v", in, cut, cut-1, got, gotHigh, want, wantHigh)
					}
				}
			}
		}
	})
}

// TestMixedWord checks mixedWord against a byte-at-a-time reading of what
// it accepts, for words made of every pair of bytes from a set that
// covers each class (ASCII, trail bytes 80-9F and A0-BF, every kind of
// lead) at every pair of positions in otherwise three-byte, two-byte and
// ASCII words, with every carry.
func TestMixedWord(t *testing.T) {
	bytes := []byte{0x00, 0x0D, 0x41, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xD0, 0xDF,
		0xE0, 0xE1, 0xE3, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF}
	bases := [][8]byte{
		{0xE3, 0x81, 0x82, 0xE3, 0x81, 0x82, 0xE3, 0x81},
		{0xD0, 0xB0, 0xD1, 0x80, 0xD0, 0xB0, 0xD1, 0x80},
		{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'},
	}
	for _, base := range bases {
		for p := range 8 {
			for q := p; q < 8; q++ {
				for _, b := range bytes {
					for _, c := range bytes {
						w := base
						w[p], w[q] = b, c
						for carry := range 4 {
							checkMixedWord(t, w, carry)
						}
					}
				}
			}
		}
	}
}

// checkMixedWord compares mixedWord(w, carry) (carry: bit 0, a trail byte
// expected at byte 0; bit 1, at byte 1) with the reference reading.
func checkMixedWord(t *testing.T, w [8]byte, carry int) {
	t.Helper()
	var x, c uint64
	for k := range 8 {
		x |= uint64(w[k]) << (8 * k)
	}
	if carry&1 != 0 {
		c |= 0x80
	}
	if carry&2 != 0 {
		c |= 0x8000
	}
	bad, next := mixedWord(x, c)
	// The reference: which bytes must be trail bytes, then each byte.
	var want [10]bool // trail byte expected at k
	want[0], want[1] = carry&1 != 0, carry&2 != 0
	wantBad := false
	for k, b := range w {
		switch {
		case b < 0x80:
		case b < 0xC0:
			if !want[k] {
				wantBad = true // stray trail byte
			}
			continue
		case b >= 0xC2 && b <= 0xDF:
			want[k+1] = true
		case b >= 0xE1 && b <= 0xEF && b != 0xED:
			want[k+1], want[k+2] = true, true
		default:
			wantBad = true // C0, C1, E0, ED, F0-FF
			want[k+1], want[k+2] = true, b >= 0xE0
		}
		if want[k] {
			wantBad = true // no trail byte where one is expected
		}
	}
	gotNext := [2]bool{next&0x80 != 0, next&0x8000 != 0}
	if gotBad := bad&hi8 != 0; gotBad != wantBad || !wantBad && gotNext != [2]bool{want[8], want[9]} {
		t.Fatalf("mixedWord(% x, carry %d): got bad %v, next %v, want %v, %v", w, carry, gotBad, gotNext, wantBad, [2]bool{want[8], want[9]})
	}
}

// FuzzUTF8Run checks utf8Run against refRun, with dst as long as src and
// shorter, at every start in the first 32 bytes (every offset in the
// blocks).
func FuzzUTF8Run(f *testing.F) {
	f.Add([]byte(strings.Repeat("日本語の文字 text\n", 4)), uint8(7))
	f.Add([]byte(strings.Repeat("русский текст, ", 5)), uint8(0))
	f.Add([]byte("\xED\xA0\x80\xE0\x80\x80\xF0\x9F\x98\x80\xC0\x80 한국어"), uint8(3))
	f.Fuzz(func(t *testing.T, in []byte, short uint8) {
		for start := 0; start <= min(32, len(in)); start++ {
			src := in[start:]
			for _, d := range []int{len(src), max(0, len(src)-int(short))} {
				want, wantHigh := refRun(src[:d])
				got, gotHigh := utf8Run(make([]byte, d), src)
				if got != want || gotHigh != wantHigh {
					t.Fatalf("utf8Run(dst %d, %q) = %d, %v, want %d, %v", d, src, got, gotHigh, want, wantHigh)
				}
			}
		}
	})
}
