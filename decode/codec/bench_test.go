package codec

import (
	"testing"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/override"
)

// benchInputs are the benchmark inputs: about 64 KB of sample text in each
// encoding, made with x/text's encoders.
var benchInputs = []struct {
	name string
	e    override.Encoding
	text string
}{
	{"utf-8/english", override.UTF8, textEnglish},
	{"utf-8/japanese", override.UTF8, textJapanese},
	{"utf-8/russian", override.UTF8, textRussian},
	{"windows-1252/english", override.Windows1252, textEnglish},
	{"windows-1252/french", override.Windows1252, textFrench},
	{"windows-1251/russian", override.Windows1251, textRussian},
	{"koi8-r/russian", override.KOI8R, textRussianBasic},
	{"shift_jis/japanese", override.ShiftJIS, textJapanese},
	{"euc-jp/japanese", override.EUCJP, textJapanese},
	{"iso-2022-jp/japanese", override.ISO2022JP, textJapanese},
	{"gbk/chinese", override.GBK, textChinese},
	{"gb18030/chinese", override.GB18030, textChinese},
	{"big5/chinese", override.Big5, textTraditionalChinese},
	{"euc-kr/korean", override.EUCKR, textKorean},
	{"utf-16le/japanese", override.UTF16LE, textJapanese},
}

// benchInput returns about 64 KB of text encoded in e.
func benchInput(b *testing.B, e override.Encoding, text string) []byte {
	b.Helper()
	src, err := Encoding(e).NewEncoder().String(sampleText(text, 64<<10))
	if err != nil {
		b.Fatal(err)
	}
	return []byte(src)
}

// decodeBuffered decodes src through t into dst, reusing dst as a Reader
// would, and returns the number of bytes written.
func decodeBuffered(t transform.Transformer, dst, src []byte) int {
	total := 0
	for {
		nDst, nSrc, err := t.Transform(dst, src, true)
		total += nDst
		src = src[nSrc:]
		if err != transform.ErrShortDst {
			return total
		}
	}
}

// benchDecode times decoding src with d through a 32 KB dst, d Reset for
// each iteration; the throughput is in bytes of input.
func benchDecode(b *testing.B, d transform.Transformer, src []byte) {
	dst := make([]byte, 32<<10)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		d.Reset()
		decodeBuffered(d, dst, src)
	}
}

// BenchmarkDecode decodes about 64 KB of text through a 32 KB dst; the
// throughput is in bytes of input.
func BenchmarkDecode(b *testing.B) {
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			benchDecode(b, newDecoder(in.e), benchInput(b, in.e, in.text))
		})
	}
}

// BenchmarkXText decodes the same inputs with x/text's decoders, which
// golang.org/x/net/html/charset uses, for comparison.
func BenchmarkXText(b *testing.B) {
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			x := codecs[in.e].xtext
			if x == nil {
				b.Skipf("x/text has no %v", in.e)
			}
			benchDecode(b, x.NewDecoder(), benchInput(b, in.e, in.text))
		})
	}
}
