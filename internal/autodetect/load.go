package autodetect

import _ "embed"

// The large generated tables are binary files beside tables.go, written by
// the same generator (go generate). init copies the byte classes and the
// scores into the arrays that tables.go declares, as their element types
// are not bytes; the frequency tables are read where they are embedded, a
// string each (tables.go gives each one's length and meaning).
var (
	//go:embed classes.bin
	classesBin string // sbEncodings' byte classes, 256 an encoding
	//go:embed scores.bin
	scoresBin string // sbScores, a score a byte, two's complement
	//go:embed jis0208freq.bin
	jis0208Freq string
	//go:embed gbkfreq.bin
	gbkFreq string
	//go:embed big5freq.bin
	big5Freq string
	//go:embed euckrfreq.bin
	euckrFreq string
)

func init() {
	if len(classesBin) != numSingleByte*256 || len(scoresBin) != numScores {
		panic("detect: classes.bin or scores.bin does not fit tables.go (go generate)")
	}
	for e := range sbEncodings {
		copy(sbEncodings[e].classes[:], classesBin[e*256:])
	}
	for i := range sbScores {
		sbScores[i] = int8(scoresBin[i])
	}
	if len(jis0208Freq) != jis0208FreqLen || len(gbkFreq) != gbkFreqLen ||
		len(big5Freq) != big5FreqLen || len(euckrFreq) != euckrFreqLen {
		panic("detect: a frequency table's file does not fit tables.go (go generate)")
	}
}
