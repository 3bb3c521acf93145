package codec

import _ "embed"

// The large indexes are binary files beside tables.go, written by gen.go
// (go generate): little-endian, 2 or 4 bytes a pointer. init copies each
// into the array that tables.go declares, so the decoders index arrays of
// fixed length.
var (
	//go:embed gb18030.bin
	gb18030Bin string
	//go:embed big5.bin
	big5Bin string
	//go:embed jis0208.bin
	jis0208Bin string
	//go:embed jis0212.bin
	jis0212Bin string
	//go:embed euckr.bin
	eucKRBin string
)

func init() {
	load16(gb18030Index[:], gb18030Bin)
	load16(jis0208Index[:], jis0208Bin)
	load16(jis0212Index[:], jis0212Bin)
	load16(eucKRIndex[:], eucKRBin)
	if len(big5Bin) != 4*len(big5Index) {
		panic("codec: big5.bin does not fit tables.go (go generate)")
	}
	for i := range big5Index {
		s := big5Bin[4*i : 4*i+4]
		big5Index[i] = uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
	}
}

// load16 fills dst from src, two bytes a value, little-endian.
func load16(dst []uint16, src string) {
	if len(src) != 2*len(dst) {
		panic("codec: an index file does not fit tables.go (go generate)")
	}
	for i := range dst {
		dst[i] = uint16(src[2*i]) | uint16(src[2*i+1])<<8
	}
}
