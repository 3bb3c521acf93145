// Package zstdframe reads the two headers of a Zstandard frame that tell
// where its bytes end without decompressing it (RFC 8878, section 3.1.1):
// the frame header and the block header. warc follows frames with it as it
// reads them; archive walks them to cut a .warc.zst file into parts.
package zstdframe

// Header returns the length of a frame header whose Frame_Header_Descriptor
// (the byte after the magic number) is fhd, magic number included, and
// whether the frame ends with a 4-byte Content_Checksum; ok is false when
// fhd's reserved bit is set.
func Header(fhd byte) (n int, checksum, ok bool) {
	if fhd&0x08 != 0 { // reserved bit
		return 0, false, false
	}
	single := fhd&0x20 != 0
	n = 5
	if !single {
		n++ // Window_Descriptor
	}
	n += [4]int{0, 1, 2, 4}[fhd&3] // Dictionary_ID
	fcs := [4]int{0, 2, 4, 8}[fhd>>6]
	if single && fcs == 0 {
		fcs = 1
	}
	return n + fcs, fhd&0x04 != 0, true
}

// MaxBlockSize is the largest Block_Size a block may have.
const MaxBlockSize = 128 << 10

// Block reads the 3-byte block header h: the number of bytes the block
// stores after its header (one for an RLE block) and whether it is the
// frame's last; ok is false for a reserved block type or a size over
// MaxBlockSize.
func Block(h [3]byte) (stored int64, last, ok bool) {
	v := int64(h[0]) | int64(h[1])<<8 | int64(h[2])<<16
	stored = v >> 3
	switch (v >> 1) & 3 {
	case 1: // RLE: one byte stored
		stored = 1
	case 3: // reserved
		return 0, false, false
	}
	if stored > MaxBlockSize {
		return 0, false, false
	}
	return stored, v&1 != 0, true
}
