// Package corpus holds the helpers shared by the detector's generator, its
// evaluation tool and its tests: turning UTF-8 text into a legacy encoding
// the way a legacy authoring tool would, decoding it back, and cutting text
// into documents.
//
// The text itself is not in the repository: fetch.sh installs it and
// extract writes it under /tmp/charsniff-corpus.
package corpus

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/charsniff/charsniff/override"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/unicode/norm"
)

// Codec returns the x/text encoding for e, or nil.
func Codec(e override.Encoding) encoding.Encoding {
	c, err := htmlindex.Get(e.Name())
	if err != nil {
		return nil
	}
	return c
}

// substitutes are what an author's tool would type for a character the
// target encoding lacks: Romanian comma-below letters became cedilla
// letters in windows-1250 and ISO-8859-2, Persian yeh and kaf became the
// Arabic letters in windows-1256 and ISO-8859-6.
var substitutes = map[rune]rune{
	'ș': 'ş', 'Ș': 'Ş', 'ț': 'ţ', 'Ț': 'Ţ',
	'\u06CC': '\u064A', '\u06A9': '\u0643',
}

// Encode returns s in encoding e. Characters e cannot represent are
// substituted when there is a customary substitute and dropped otherwise;
// dropped reports how many were dropped. Vietnamese text for
// windows-1258 uses precomposed letters where the encoding has them and a
// base letter plus a combining tone mark where it does not.
func Encode(e override.Encoding, s string) (b []byte, dropped int) {
	return encode(e, s, nil)
}

// EncodeOrSpace is like Encode but writes a space for each character e
// cannot represent, so that no false neighbours appear.
func EncodeOrSpace(e override.Encoding, s string) []byte {
	b, _ := encode(e, s, []byte{' '})
	return b
}

func encode(e override.Encoding, s string, repl []byte) (b []byte, dropped int) {
	if e == override.UTF8 {
		return []byte(s), 0
	}
	c := Codec(e)
	if c == nil {
		return nil, len(s)
	}
	if e == override.Windows1258 {
		s = Windows1258Form(s)
	}
	enc := c.NewEncoder()
	one := func(r rune) []byte {
		var buf [8]byte
		x, err := enc.Bytes(buf[:utf8.EncodeRune(buf[:], r)])
		if err != nil || len(x) == 0 {
			return nil
		}
		return x
	}
	var out bytes.Buffer
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if e == override.Windows1258 && i+1 < len(rs) && toneMarks[rs[i+1]] {
			// Prefer the precomposed letter where windows-1258 has one.
			if c := []rune(norm.NFC.String(string(rs[i : i+2]))); len(c) == 1 {
				if x := one(c[0]); x != nil {
					out.Write(x)
					i++
					continue
				}
			}
		}
		x := one(r)
		if x == nil {
			if sub, ok := substitutes[r]; ok {
				x = one(sub)
			}
		}
		if x == nil {
			dropped++
			out.Write(repl)
			continue
		}
		out.Write(x)
	}
	return out.Bytes(), dropped
}

// Decode returns b decoded from encoding e, or "" if e has no decoder.
func Decode(e override.Encoding, b []byte) string {
	c := Codec(e)
	if c == nil {
		return ""
	}
	s, err := c.NewDecoder().Bytes(b)
	if err != nil {
		return ""
	}
	return string(s)
}

// toneMarks are the Vietnamese tone marks windows-1258 encodes as
// combining characters rather than as parts of precomposed letters.
var toneMarks = map[rune]bool{0x300: true, 0x301: true, 0x303: true, 0x309: true, 0x323: true}

// Windows1258Form returns s with each Vietnamese letter split into a base
// letter (with its circumflex, breve or horn) and a combining tone mark,
// which is how windows-1258 represents the letters it lacks precomposed.
// [Encode] recomposes the pairs the encoding has as one letter.
func Windows1258Form(s string) string {
	d := norm.NFD.String(s)
	var out []rune
	var tones []rune
	flush := func() {
		out = append(out, tones...)
		tones = tones[:0]
	}
	for _, r := range d {
		switch {
		case toneMarks[r]:
			tones = append(tones, r)
		case r >= 0x300 && r <= 0x36F && len(out) > 0:
			// A non-tone mark: compose it with the base letter.
			c := []rune(norm.NFC.String(string([]rune{out[len(out)-1], r})))
			if len(c) == 1 {
				out[len(out)-1] = c[0]
			} else {
				out = append(out, r)
			}
		default:
			flush()
			out = append(out, r)
		}
	}
	flush()
	return string(out)
}

// Documents cuts text into documents of about size bytes, at line ends
// and at the form feeds extract writes between source documents. Pieces
// shorter than size/4 are dropped.
func Documents(text []byte, size int) [][]byte {
	var docs [][]byte
	for _, src := range bytes.Split(text, []byte("\n\f\n")) {
		for len(src) > 0 {
			n := size
			if n >= len(src) {
				n = len(src)
			} else if i := bytes.LastIndexByte(src[:n], '\n'); i > size/2 {
				n = i + 1
			}
			if n >= size/4 {
				docs = append(docs, src[:n])
			}
			src = src[n:]
		}
	}
	return docs
}

// A Tally counts a detector's answers and the right ones among them, for
// the accuracy tables of detect/internal/eval and bench/detectcmp.
type Tally struct{ Right, Total int }

// String gives the share of right answers as a percentage with one
// decimal, or "-" when there were none.
func (t Tally) String() string {
	if t.Total == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(t.Right)/float64(t.Total))
}

// Spread picks up to n documents spread evenly over docs, so that a
// sample draws on many source documents rather than the first few.
func Spread(docs [][]byte, n int) [][]byte {
	if len(docs) <= n {
		return docs
	}
	out := make([][]byte, 0, n)
	for i := range n {
		out = append(out, docs[i*len(docs)/n])
	}
	return out
}

// IsASCII reports whether b holds no byte above 0x7F: a prefix that gives
// a detector no evidence at all.
func IsASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
