package detect

import _ "embed"

// The large generated tables are binary files beside tables.go, written by
// the same generator (go generate): init copies each into the array that
// tables.go declares, so the detector indexes arrays of fixed length.
var (
	//go:embed classes.bin
	classesBin string // sbEncodings' byte classes, 256 an encoding
	//go:embed scores.bin
	scoresBin string // sbScores, a score a byte, two's complement
	//go:embed jis0208freq.bin
	jis0208FreqBin string
	//go:embed gbkfreq.bin
	gbkFreqBin string
	//go:embed big5freq.bin
	big5FreqBin string
	//go:embed euckrfreq.bin
	euckrFreqBin string
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
	for _, t := range []struct {
		dst []byte
		src string
	}{
		{jis0208Freq[:], jis0208FreqBin},
		{gbkFreq[:], gbkFreqBin},
		{big5Freq[:], big5FreqBin},
		{euckrFreq[:], euckrFreqBin},
	} {
		if len(t.src) != len(t.dst) {
			panic("detect: a frequency table's file does not fit tables.go (go generate)")
		}
		copy(t.dst, t.src)
	}
}
