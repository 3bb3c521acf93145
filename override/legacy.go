package override

// LookupLegacy resolves label as the 2008 HTML draft did, for old archives
// whose labels predate the Encoding Standard. It first tries [Lookup]; failing
// that, it compares label with every WHATWG label and name, the draft's
// "additional character encoding aliases" (x-sjis, windows-932, x-x-big5),
// its "character encoding overrides" (GB_2312-80 → GBK, KS_C_5601-1987 →
// EUC-KR, TIS-620 → windows-874, ...) and the IANA registry aliases of those
// charsets, using the Charset Alias Matching of Unicode Technical Standard #22:
// ASCII case, every byte other than an ASCII letter or digit, and leading
// zeros of numbers are ignored, so "GB_2312-80" matches "g.b.2312(80)".
//
// The answer is always one of the standard's encodings: a label of UTF-7,
// CESU-8, BOCU-1, SCSU, UTF-32 or EBCDIC fails here as it does in Lookup.
// The label is a string or a byte slice, as for Lookup; LookupLegacy does not
// allocate for either.
func LookupLegacy[L ~string | ~[]byte](label L) (Encoding, bool) {
	if e, ok := Lookup(label); ok {
		return e, true
	}
	return lookupLoose(label)
}

// lookupLoose matches label against the legacy table by its UTS #22 key.
func lookupLoose[S ~string | ~[]byte](label S) (Encoding, bool) {
	var buf [longestLooseKey]byte
	n := 0
	prevDigit := false
	for i := 0; i < len(label); i++ {
		c := label[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
			prevDigit = false
		case 'a' <= c && c <= 'z':
			prevDigit = false
		case c == '0' && !prevDigit:
			continue
		case '0' <= c && c <= '9':
			prevDigit = true
		default:
			prevDigit = false
			continue
		}
		if n == len(buf) {
			return Unknown, false
		}
		buf[n] = c
		n++
	}
	e, ok := looseLabels[string(buf[:n])]
	return e, ok
}
