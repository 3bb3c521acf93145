// Package benchpage builds the benchmark pages of bench/testdata/sample and
// bench/corpus/large (bench/corpus/make.sh writes both): the UTF-8 texts as
// they stand there, and the pages in legacy encodings encoded from them with
// golang.org/x/text when a benchmark starts, so that each text has one
// source. A rune the legacy encoding lacks is left out, as iconv -c did
// when the legacy pages were files.
package benchpage

import (
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/transform"
)

// SampleSize is the length of a page cut from a committed sample: 64 KB.
const SampleSize = 64 << 10

// legacy is, for each page in a legacy encoding, the UTF-8 text it is
// encoded from and the encoding.
var legacy = map[string]struct {
	text string
	enc  encoding.Encoding
}{
	"windows-1252.html": {"utf-8-french.html", charmap.Windows1252},
	"windows-1251.html": {"utf-8-russian.html", charmap.Windows1251},
	"shift_jis.html":    {"utf-8-japanese.html", japanese.ShiftJIS},
	"euc-jp.html":       {"utf-8-japanese.html", japanese.EUCJP},
	"gbk.html":          {"utf-8-chinese.html", simplifiedchinese.GBK},
}

// Sample returns the page file (utf-8-french.html, gbk.html, ...) cut from
// the committed samples in dir (bench/testdata/sample): its first
// SampleSize bytes, as `head -c` cut them when the pages were files.
func Sample(dir, file string) ([]byte, error) {
	data, err := Read(dir, file)
	if err != nil {
		return nil, err
	}
	if _, ok := legacy[file]; ok && len(data) < SampleSize {
		return nil, fmt.Errorf("benchpage: %s is %d bytes, fewer than %d: the sample of its text is too short (bench/corpus/make.sh)", file, len(data), SampleSize)
	}
	return data[:min(len(data), SampleSize)], nil
}

// Read returns the whole page file from dir: the UTF-8 text file, or the
// text a legacy page is encoded from, encoded.
func Read(dir, file string) ([]byte, error) {
	src, ok := legacy[file]
	if !ok {
		return os.ReadFile(filepath.Join(dir, file))
	}
	text, err := os.ReadFile(filepath.Join(dir, src.text))
	if err != nil {
		return nil, err
	}
	return Encode(src.enc, text)
}

// Encode returns text, UTF-8, in the encoding enc, leaving out the runes
// enc cannot encode.
func Encode(enc encoding.Encoding, text []byte) ([]byte, error) {
	t := enc.NewEncoder()
	out := make([]byte, 0, len(text))
	buf := make([]byte, 4<<10)
	for len(text) > 0 {
		nDst, nSrc, err := t.Transform(buf, text, true)
		out = append(out, buf[:nDst]...)
		text = text[nSrc:]
		if _, unsupported := err.(interface{ Replacement() byte }); unsupported {
			_, size := utf8.DecodeRune(text)
			text = text[size:]
			t.Reset()
		} else if err != nil && err != transform.ErrShortDst {
			return nil, fmt.Errorf("benchpage: %v", err)
		}
	}
	return out, nil
}
