package singlebyte

import (
	"testing"
	"unicode/utf8"

	"github.com/charsniff/charsniff/override"
)

// TestHigh checks which encodings have a table: the 28 single-byte ones
// and x-user-defined, whose table is U+F780 + byte - 0x80.
func TestHigh(t *testing.T) {
	n := 0
	for _, e := range override.All() {
		high := High(e)
		if want := Is(e) || e == override.XUserDefined; (high != nil) != want {
			t.Errorf("High(%v) = %p, want a table %v", e, high, want)
		}
		if Is(e) {
			n++
		}
	}
	if n != 28 {
		t.Errorf("%d single-byte encodings, want 28", n)
	}
	for i, r := range High(override.XUserDefined) {
		if want := rune(0xF780 + i); r != want {
			t.Errorf("x-user-defined byte %#x: %U, want %U", 0x80+i, r, want)
		}
	}
	for _, e := range []override.Encoding{override.Unknown, override.UTF8, override.GBK, override.Encoding(override.NumEncodings + 1)} {
		if High(e) != nil || Decode(e) != nil || Preprocess(e) != nil {
			t.Errorf("%v: a table, want nil", e)
		}
	}
}

// TestTables checks every entry of every Decode and Preprocess table
// against High: the UTF-8 of the code point and its length, and in
// Preprocess NUL and CR 0; and that each table is built once and shared.
func TestTables(t *testing.T) {
	for _, e := range override.All() {
		high := High(e)
		if high == nil {
			continue
		}
		dt, pt := Decode(e), Preprocess(e)
		if dt != Decode(e) || pt != Preprocess(e) || dt == pt {
			t.Fatalf("%v: tables not shared, or Decode's is Preprocess's", e)
		}
		for b := range 256 {
			r := rune(b)
			if b >= 0x80 {
				r = high[b-0x80]
			}
			var buf [4]byte
			n := utf8.EncodeRune(buf[:], r)
			want := uint32(n)<<24 | uint32(buf[0]) | uint32(buf[1])<<8 | uint32(buf[2])<<16
			if dt[b] != want {
				t.Errorf("%v: Decode entry %#x = %#x, want %#x", e, b, dt[b], want)
			}
			if b == 0 || b == '\r' {
				want = 0
			}
			if pt[b] != want {
				t.Errorf("%v: Preprocess entry %#x = %#x, want %#x", e, b, pt[b], want)
			}
		}
	}
}

// TestNewTablePanics checks that a code point a table entry cannot hold
// (outside the BMP, or a surrogate) is refused at build time.
func TestNewTablePanics(t *testing.T) {
	for _, r := range []rune{0x10000, 0xD800, -1} {
		var high [128]rune
		high[5] = r
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("newTable with %U: no panic", r)
				}
			}()
			newTable(&high, false)
		}()
	}
}
