package autodetect

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/override"
)

// benchText is a Russian and a Japanese paragraph, the worst cases: nearly
// every byte is non-ASCII and few candidates drop out.
var benchTexts = []struct {
	name string
	enc  override.Encoding
	text string
}{
	{"windows-1251", override.Windows1251, "Если у вас есть вопросы по использованию программы, обратитесь к документации или напишите разработчикам. Каждый файл проверяется отдельно, а результаты записываются в журнал. "},
	{"Shift_JIS", override.ShiftJIS, "このプログラムは、指定されたファイルの内容を読み込み、文字コードを判定して標準出力に書き出します。オプションを指定しない場合は、現在のディレクトリが使われます。"},
	{"windows-1252", override.Windows1252, "Le programme lit chaque fichier indiqué et écrit le résultat sur la sortie standard. <a href=\"index.html\">Retour à l'accueil</a> Les données sont vérifiées avant d'être enregistrées. "},
	{"ASCII", override.Windows1252, "<!DOCTYPE html><html><head><title>Example</title></head><body><p>Hello, world. This page is plain ASCII.</p></body></html> "},
}

func benchInput(enc override.Encoding, text string, n int) []byte {
	b, _ := corpus.Encode(enc, text)
	return bytes.Repeat(b, n/len(b)+1)[:n]
}

// benchGuess times the detector's Reset, Feed of in whole, and Guess.
func benchGuess(b *testing.B, in []byte) {
	d := new(Detector)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		d.Reset()
		d.Feed(in, false)
		d.Guess(Hint{})
	}
}

func BenchmarkDetect(b *testing.B) {
	for _, tc := range benchTexts {
		for _, size := range []struct {
			name string
			n    int
		}{{"1KB", 1024}, {"64KB", 64 << 10}} {
			in := benchInput(tc.enc, tc.text, size.n)
			b.Run(tc.name+"/"+size.name, func(b *testing.B) { benchGuess(b, in) })
		}
	}
}

// BenchmarkDetectCJK measures what sniffing an undeclared CJK page costs:
// held-out text in each double-byte encoding, cut to 1 to 8 KB, fed whole
// and guessed (the detector's worst case: nearly every byte is non-ASCII).
func BenchmarkDetectCJK(b *testing.B) {
	for _, tc := range []struct {
		lang string
		enc  override.Encoding
	}{
		{"ja", override.ShiftJIS}, {"ja", override.EUCJP}, {"zh-CN", override.GBK},
		{"zh-TW", override.Big5}, {"ko", override.EUCKR},
	} {
		text, err := os.ReadFile(filepath.Join("..", "..", "detect", "testdata", "heldout", tc.lang+".txt"))
		if err != nil {
			b.Fatal(err)
		}
		for _, kb := range []int{1, 2, 4, 8} {
			in := benchInput(tc.enc, string(text), kb<<10)
			b.Run(tc.enc.Name()+"/"+strconv.Itoa(kb)+"KB", func(b *testing.B) { benchGuess(b, in) })
		}
	}
}
