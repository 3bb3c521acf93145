package zstdframe

import "testing"

func TestHeader(t *testing.T) {
	for _, tc := range []struct {
		fhd      byte
		n        int
		checksum bool
		ok       bool
	}{
		{0x00, 6, false, true},  // window descriptor only
		{0x20, 6, false, true},  // single segment: 1-byte content size
		{0x24, 6, true, true},   // with a checksum
		{0x03, 10, false, true}, // 4-byte dictionary ID
		{0xC0, 14, false, true}, // 8-byte content size
		{0x60, 7, false, true},  // single segment, 2-byte content size
		{0x08, 0, false, false}, // reserved bit
	} {
		n, sum, ok := Header(tc.fhd)
		if n != tc.n || sum != tc.checksum || ok != tc.ok {
			t.Errorf("Header(%#02x) = %d, %v, %v; want %d, %v, %v", tc.fhd, n, sum, ok, tc.n, tc.checksum, tc.ok)
		}
	}
}

func TestBlock(t *testing.T) {
	for _, tc := range []struct {
		h      [3]byte
		stored int64
		last   bool
		ok     bool
	}{
		{[3]byte{0x01, 0, 0}, 0, true, true},         // raw, empty, last
		{[3]byte{0x50, 0x01, 0}, 42, false, true},    // raw, 42 bytes
		{[3]byte{0x53, 0x01, 0}, 1, true, true},      // RLE of 42: one byte stored
		{[3]byte{0x54, 0x01, 0}, 42, false, true},    // compressed, 42 bytes
		{[3]byte{0x07, 0, 0}, 0, false, false},       // reserved type
		{[3]byte{0x08, 0x00, 0x10}, 0, false, false}, // 128 KiB + 1: too large
	} {
		stored, last, ok := Block(tc.h)
		if stored != tc.stored || last != tc.last || ok != tc.ok {
			t.Errorf("Block(% x) = %d, %v, %v; want %d, %v, %v", tc.h, stored, last, ok, tc.stored, tc.last, tc.ok)
		}
	}
}
