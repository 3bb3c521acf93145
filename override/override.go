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

//go:generate go run gen.go

// Encoding identifies one encoding of the WHATWG Encoding Standard. The zero
// value, [Unknown], is no encoding.
type Encoding uint8

// Name returns the encoding's canonical name as the Encoding Standard spells
// it ("UTF-8", "Shift_JIS", "windows-1252"), or "" for [Unknown] and values
// out of range.
func (e Encoding) Name() string {
	if e >= numEncodings {
		return ""
	}
	return canonical[e]
}

// String returns the canonical name, or "Encoding(N)" for a value that is
// not an encoding.
func (e Encoding) String() string {
	if e == Unknown || e >= numEncodings {
		return "Encoding(" + itoa(int(e)) + ")"
	}
	return canonical[e]
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
// Lookup does not allocate.
func Lookup(label string) (Encoding, bool) {
	var buf [longestLabel]byte
	n, ok := fold(&buf, label)
	if !ok {
		return Unknown, false
	}
	e, ok := labels[string(buf[:n])]
	return e, ok
}

// LookupBytes is [Lookup] for a byte slice. It does not allocate.
func LookupBytes(label []byte) (Encoding, bool) {
	var buf [longestLabel]byte
	n, ok := fold(&buf, label)
	if !ok {
		return Unknown, false
	}
	e, ok := labels[string(buf[:n])]
	return e, ok
}

// fold trims ASCII whitespace from label and writes it ASCII-lower-cased into
// buf. It fails when the trimmed label is longer than any label or holds a
// byte that no label has.
func fold[S string | []byte](buf *[longestLabel]byte, label S) (int, bool) {
	i, j := 0, len(label)
	for i < j && isASCIIWhitespace(label[i]) {
		i++
	}
	for j > i && isASCIIWhitespace(label[j-1]) {
		j--
	}
	if j-i > len(buf) {
		return 0, false
	}
	n := 0
	for ; i < j; i++ {
		c := label[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if !labelByte[c] {
			return 0, false
		}
		buf[n] = c
		n++
	}
	return n, true
}

// isASCIIWhitespace reports whether c is ASCII whitespace as the Infra
// Standard defines it (https://infra.spec.whatwg.org/#ascii-whitespace).
func isASCIIWhitespace(c byte) bool {
	return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
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
