package detect

import "github.com/charsniff/charsniff/override"

// A family is the set of encodings customary in a region, which a TLD or
// language hint favours, and the one to fall back to without evidence.
type family struct {
	encs     []override.Encoding
	fallback override.Encoding
}

func (f *family) has(e override.Encoding) bool {
	for _, x := range f.encs {
		if x == e {
			return true
		}
	}
	return false
}

const (
	famNone = iota
	famWestern
	famCentral
	famCyrillic
	famGreek
	famTurkish
	famHebrew
	famArabic
	famBaltic
	famVietnamese
	famThai
	famJapanese
	famSimplified
	famTraditional
	famKorean
	numFamilies
)

// families are indexed by the fam constants. The fallbacks follow the
// HTML Standard's table of locale defaults
// (https://html.spec.whatwg.org/multipage/parsing.html#determining-the-character-encoding).
var families = [numFamilies]family{
	famNone:        {nil, override.Windows1252},
	famWestern:     {[]override.Encoding{override.Windows1252}, override.Windows1252},
	famCentral:     {[]override.Encoding{override.Windows1250, override.ISO8859_2}, override.Windows1250},
	famCyrillic:    {[]override.Encoding{override.Windows1251, override.KOI8U, override.ISO8859_5, override.IBM866}, override.Windows1251},
	famGreek:       {[]override.Encoding{override.Windows1253, override.ISO8859_7}, override.ISO8859_7},
	famTurkish:     {[]override.Encoding{override.Windows1254}, override.Windows1254},
	famHebrew:      {[]override.Encoding{override.Windows1255, override.ISO8859_8}, override.Windows1255},
	famArabic:      {[]override.Encoding{override.Windows1256, override.ISO8859_6}, override.Windows1256},
	famBaltic:      {[]override.Encoding{override.Windows1257, override.ISO8859_13}, override.Windows1257},
	famVietnamese:  {[]override.Encoding{override.Windows1258}, override.Windows1258},
	famThai:        {[]override.Encoding{override.Windows874}, override.Windows874},
	famJapanese:    {[]override.Encoding{override.ShiftJIS, override.EUCJP, override.ISO2022JP}, override.ShiftJIS},
	famSimplified:  {[]override.Encoding{override.GBK}, override.GBK},
	famTraditional: {[]override.Encoding{override.Big5}, override.Big5},
	famKorean:      {[]override.Encoding{override.EUCKR}, override.EUCKR},
}

// tlds maps country-code top-level domains to families. Generic domains
// (com, org, net, ...) and countries whose pages are mostly Western
// European favour nothing beyond the windows-1252 default.
var tlds = [...]struct {
	tld string
	fam uint8
}{
	{"ru", famCyrillic}, {"su", famCyrillic}, {"ua", famCyrillic}, {"by", famCyrillic},
	{"bg", famCyrillic}, {"kz", famCyrillic}, {"mk", famCyrillic}, {"rs", famCyrillic},
	{"kg", famCyrillic}, {"tj", famCyrillic}, {"mn", famCyrillic}, {"xn--p1ai", famCyrillic},
	{"cz", famCentral}, {"sk", famCentral}, {"pl", famCentral}, {"hu", famCentral},
	{"si", famCentral}, {"hr", famCentral}, {"ro", famCentral}, {"ba", famCentral},
	{"gr", famGreek}, {"cy", famGreek},
	{"tr", famTurkish}, {"az", famTurkish},
	{"il", famHebrew},
	{"sa", famArabic}, {"ae", famArabic}, {"eg", famArabic}, {"ir", famArabic}, {"iq", famArabic},
	{"jo", famArabic}, {"kw", famArabic}, {"lb", famArabic}, {"ly", famArabic}, {"ma", famArabic},
	{"om", famArabic}, {"qa", famArabic}, {"sy", famArabic}, {"tn", famArabic}, {"ye", famArabic},
	{"dz", famArabic}, {"sd", famArabic}, {"bh", famArabic}, {"ps", famArabic}, {"af", famArabic},
	{"pk", famArabic},
	{"lt", famBaltic}, {"lv", famBaltic},
	{"vn", famVietnamese},
	{"th", famThai},
	{"jp", famJapanese},
	{"cn", famSimplified}, {"sg", famSimplified},
	{"tw", famTraditional}, {"hk", famTraditional}, {"mo", famTraditional},
	{"kr", famKorean},
	{"de", famWestern}, {"fr", famWestern}, {"es", famWestern}, {"it", famWestern},
	{"nl", famWestern}, {"pt", famWestern}, {"br", famWestern}, {"se", famWestern},
	{"dk", famWestern}, {"fi", famWestern}, {"no", famWestern}, {"at", famWestern},
	{"ch", famWestern}, {"be", famWestern}, {"ee", famWestern}, {"is", famWestern},
}

// langs maps primary language subtags (and zh's script or region) to
// families.
var langs = [...]struct {
	lang string
	fam  uint8
}{
	{"ru", famCyrillic}, {"uk", famCyrillic}, {"be", famCyrillic}, {"bg", famCyrillic},
	{"mk", famCyrillic}, {"sr", famCyrillic}, {"kk", famCyrillic}, {"ky", famCyrillic},
	{"tg", famCyrillic}, {"mn", famCyrillic},
	{"cs", famCentral}, {"sk", famCentral}, {"pl", famCentral}, {"hu", famCentral},
	{"sl", famCentral}, {"hr", famCentral}, {"ro", famCentral}, {"bs", famCentral},
	{"el", famGreek},
	{"tr", famTurkish}, {"az", famTurkish},
	{"he", famHebrew}, {"iw", famHebrew}, {"yi", famHebrew},
	{"ar", famArabic}, {"fa", famArabic}, {"ur", famArabic},
	{"lt", famBaltic}, {"lv", famBaltic},
	{"vi", famVietnamese},
	{"th", famThai},
	{"ja", famJapanese},
	{"ko", famKorean},
	{"de", famWestern}, {"fr", famWestern}, {"es", famWestern}, {"it", famWestern},
	{"nl", famWestern}, {"pt", famWestern}, {"sv", famWestern}, {"da", famWestern},
	{"fi", famWestern}, {"nb", famWestern}, {"nn", famWestern}, {"no", famWestern},
	{"ca", famWestern}, {"et", famWestern}, {"is", famWestern}, {"en", famWestern},
}

// hintFamily returns the family a hint favours: the TLD's if it names one,
// else the language's, else famNone. It does not allocate.
func hintFamily(h Hint) uint8 {
	if t := lastLabel(h.TLD); t != "" {
		for _, x := range tlds {
			if asciiEqualFold(t, x.tld) {
				return x.fam
			}
		}
	}
	l := h.Language
	if l == "" {
		return famNone
	}
	primary, rest := l, ""
	for i := 0; i < len(l); i++ {
		if l[i] == '-' || l[i] == '_' {
			primary, rest = l[:i], l[i+1:]
			break
		}
	}
	if asciiEqualFold(primary, "zh") {
		// Traditional script, or a region that uses it; Simplified otherwise.
		for rest != "" {
			sub := rest
			for i := 0; i < len(rest); i++ {
				if rest[i] == '-' || rest[i] == '_' {
					sub, rest = rest[:i], rest[i+1:]
					break
				}
			}
			if sub == rest {
				rest = ""
			}
			for _, t := range [...]string{"hant", "tw", "hk", "mo"} {
				if asciiEqualFold(sub, t) {
					return famTraditional
				}
			}
		}
		return famSimplified
	}
	for _, x := range langs {
		if asciiEqualFold(primary, x.lang) {
			return x.fam
		}
	}
	return famNone
}

// lastLabel returns the last label of a host name or TLD, without dots.
func lastLabel(s string) string {
	for len(s) > 0 && s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return s[i+1:]
		}
	}
	return s
}

// asciiEqualFold reports whether a and b are equal under ASCII case
// folding.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
