// Package override maps encoding labels to the encodings of the WHATWG
// Encoding Standard.
//
// An [Encoding] is a compact identity for one of the standard's 40 encodings,
// cheap to compare and switch on, with its canonical name. This package hands
// out no decoders: package decode maps an Encoding to a WHATWG-exact decoder.
//
// [Lookup] implements the standard's "get an encoding": the label table of the
// current Encoding Standard, ASCII whitespace trimmed, ASCII case folded, and
// nothing else. [LookupLegacy] is an opt-in for old archives: it adds the
// 2008 HTML draft's charset alias matching (UTS #22), its additional aliases
// and its character encoding overrides. Neither ever yields UTF-7, CESU-8,
// BOCU-1, SCSU, UTF-32 or an EBCDIC encoding: they are not encodings here.
//
// References:
//   - https://encoding.spec.whatwg.org/#names-and-labels
//   - https://encoding.spec.whatwg.org/#concept-encoding-get
//   - https://www.unicode.org/reports/tr22/#Charset_Alias_Matching
package override

import "github.com/charsniff/charsniff/internal/ascii"

//go:generate go run gen.go

// Encoding identifies one encoding of the WHATWG Encoding Standard. The zero
// value, [Unknown], is no encoding.
type Encoding uint8

// Name returns the encoding's canonical name as the Encoding Standard spells
// it ("UTF-8", "Shift_JIS", "windows-1252"), or "" for [Unknown] and values
// out of range. [Encoding.LowerName] is the lower-case spelling.
func (e Encoding) Name() string {
	if e >= numEncodings {
		return ""
	}
	return names[e].canonical
}

// LowerName returns the encoding's name in lower case ("utf-8", "shift_jis",
// "windows-1252"), or "" for [Unknown] and values out of range. It is the
// spelling of golang.org/x/net/html/charset and of charsniff.Lookup,
// DetermineEncoding and the charsniff command and its JSON, and it is also
// one of the encoding's labels. It does not allocate.
func (e Encoding) LowerName() string {
	if e >= numEncodings {
		return ""
	}
	return names[e].lower
}

// String returns the canonical name, or "Encoding(N)" for a value that is
// not an encoding.
func (e Encoding) String() string {
	if e == Unknown || e >= numEncodings {
		return "Encoding(" + itoa(int(e)) + ")"
	}
	return names[e].canonical
}

// Valid reports whether e is one of the standard's encodings.
func (e Encoding) Valid() bool { return e != Unknown && e < numEncodings }

// IsUTF16 reports whether e is UTF-16BE or UTF-16LE.
func (e Encoding) IsUTF16() bool { return e == UTF16BE || e == UTF16LE }

// ASCIICompatible reports whether every byte 0x00-0x7F decodes to the same
// code point in e in every state, so that an all-ASCII prefix means the same
// text in e and in any other such encoding. UTF-16, ISO-2022-JP (whose escape
// sequences change the meaning of later ASCII bytes) and replacement are not.
func (e Encoding) ASCIICompatible() bool {
	switch e {
	case Unknown, UTF16BE, UTF16LE, ISO2022JP, Replacement:
		return false
	}
	return e < numEncodings
}

// All returns the standard's encodings in its order.
func All() []Encoding {
	all := make([]Encoding, 0, NumEncodings)
	for e := Encoding(1); e < numEncodings; e++ {
		all = append(all, e)
	}
	return all
}

// Lookup implements the Encoding Standard's get an encoding
// (https://encoding.spec.whatwg.org/#concept-encoding-get): it removes
// leading and trailing ASCII whitespace (TAB, LF, FF, CR, SPACE) from label,
// matches it ASCII case-insensitively against the label table, and returns
// the encoding and true, or [Unknown] and false. Non-ASCII bytes never match
// (unlike Unicode-aware folding, "\u212Aoi8-r" is not "koi8-r").
// The label is a string or a byte slice (a label read from a byte stream
// needs no conversion); Lookup does not allocate for either.
func Lookup[L ~string | ~[]byte](label L) (Encoding, bool) {
	k, ok := fold(label)
	if !ok {
		return Unknown, false
	}
	return k.lookup()
}

// A labelKey is a label, folded: its length, and its bytes as three
// little-endian words, zero past its end (room for the longest label).
// Fields, not an array, so that Go passes them in registers.
type labelKey struct {
	a, b, c uint64
	n       int
}

// A labelEntry is one row of the label table.
type labelEntry struct {
	key labelKey
	enc Encoding
}

// lookup looks k up in the label table: at its slot in the perfect hash of
// the labels (labelSlots, generated), which holds the one label it can be,
// or none.
func (k labelKey) lookup() (Encoding, bool) {
	e := &labelList[labelSlots[k.slot()]]
	if e.enc == Unknown || e.key != k {
		return Unknown, false
	}
	return e.enc, true
}

// slot returns k's slot in labelSlots: its words multiplied by labelMult in
// turn, and the top labelSlotBits bits kept. gen.go picks labelMult so that
// no two labels share a slot.
func (k labelKey) slot() uint {
	return uint(((k.a*labelMult^k.b)*labelMult ^ k.c) * labelMult >> (64 - labelSlotBits))
}

// fold trims ASCII whitespace from label and returns its key, ASCII
// lower-cased. It fails when the trimmed label is longer than any label.
// Bytes that no label has are kept: the key then matches no label.
func fold[S ~string | ~[]byte](label S) (labelKey, bool) {
	i, j := 0, len(label)
	for i < j && ascii.IsWhitespace(label[i]) {
		i++
	}
	for j > i && ascii.IsWhitespace(label[j-1]) {
		j--
	}
	n := j - i
	if n > longestLabel {
		return labelKey{}, false
	}
	label = label[i:j]
	k := labelKey{n: n}
	switch {
	case n <= 8:
		k.a = word(label)
	case n <= 16:
		k.a, k.b = word(label[:8]), word(label[8:])
	default:
		k.a, k.b, k.c = word(label[:8]), word(label[8:16]), word(label[16:])
	}
	k.a, k.b, k.c = lower(k.a), lower(k.b), lower(k.c)
	return k, true
}

// word returns the bytes of s, at most 8, as a little-endian word, zero past
// them, with at most three loads.
func word[S ~string | ~[]byte](s S) uint64 {
	switch n := len(s); {
	case n >= 8:
		return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	case n >= 4:
		// Two words of four that overlap: the bytes they share are the same.
		lo := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24
		hi := uint64(s[n-4]) | uint64(s[n-3])<<8 | uint64(s[n-2])<<16 | uint64(s[n-1])<<24
		return lo | hi<<(8*(n-4))
	case n >= 1:
		return uint64(s[0]) | uint64(s[n/2])<<(8*(n/2)) | uint64(s[n-1])<<(8*(n-1))
	}
	return 0
}

// lower returns the eight bytes of x with ASCII upper-case letters made
// lower-case, all at once: a byte's top bit is set where adding 0x80-'A'
// carries into it and adding 0x80-'Z'-1 does not, for bytes below 0x80.
func lower(x uint64) uint64 {
	const ones = ascii.LowBits
	h := x & (0x7F * ones)
	upper := (h + (0x80-'A')*ones) &^ (h + (0x80-'Z'-1)*ones) &^ x & (0x80 * ones)
	return x | upper>>2
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
