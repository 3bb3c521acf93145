package sniff

import "github.com/charsniff/charsniff/override"

// DefaultEncoding returns the default encoding for a locale or a top-level
// domain: the last step of the sniffing algorithm, for a user agent whose
// users expect what that locale's legacy content uses.
//
// A locale is a BCP 47 language tag or a POSIX locale name ("ja", "zh-TW",
// "zh-Hant-HK", "pt_BR.UTF-8"); ASCII case does not matter. Its language picks
// the encoding from the table of suggested defaults of the HTML Standard
// (https://html.spec.whatwg.org/multipage/parsing.html#determining-the-character-encoding):
// ar, fa windows-1256; ba, be, bg, kk, ky, mk, ru, sah, sr, tg, tt, uk
// windows-1251; cs, hr, sk windows-1250; el ISO-8859-7; et, lt, lv
// windows-1257; he windows-1255; hu, pl, sl ISO-8859-2; ja Shift_JIS; ko
// EUC-KR; ku, tr windows-1254; th windows-874; vi windows-1258; zh GBK, but
// Big5 with the script Hant or the region TW, HK or MO.
//
// A top-level domain is given with its leading dot (".jp", or a domain such
// as ".co.jp", whose last label counts), or as a bare two-letter code that is
// no language of the table ("jp", "cn", "tw"). It picks the encoding of the
// country's language in the table (.jp Shift_JIS, .cn GBK, .tw/.hk/.mo Big5,
// .kr EUC-KR, .ru/.ua/.by windows-1251, ...): a mapping of this package, as
// the standard lists locales only. Note that ".uk" is the United Kingdom
// (windows-1252) while "uk" is Ukrainian (windows-1251).
//
// Anything else, including "" and "en", gives windows-1252.
// DefaultEncoding does not allocate.
func DefaultEncoding(localeOrTLD string) override.Encoding {
	s := localeOrTLD
	for len(s) > 0 && isASCIIWhitespace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isASCIIWhitespace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[0] == '.' {
		// A domain: its last label is the top-level domain.
		for i := len(s) - 1; i >= 0; i-- {
			if s[i] == '.' {
				s = s[i+1:]
				break
			}
		}
		if e, ok := lookupShort(tldDefaults[:], s); ok {
			return e
		}
		return override.Windows1252
	}

	// A locale: the language subtag, then the others.
	end := len(s)
	for i := 0; i < len(s); i++ {
		if s[i] == '.' || s[i] == '@' { // POSIX codeset or modifier
			end = i
			break
		}
	}
	s = s[:end]
	lang, rest := s, ""
	for i := 0; i < len(s); i++ {
		if s[i] == '-' || s[i] == '_' {
			lang, rest = s[:i], s[i+1:]
			break
		}
	}
	if equalFold(lang, "zh") {
		// zh-Hant, zh-TW, zh-HK and zh-MO are Big5; other Chinese is GBK.
		for rest != "" {
			sub := rest
			rest = ""
			for i := 0; i < len(sub); i++ {
				if sub[i] == '-' || sub[i] == '_' {
					sub, rest = sub[:i], sub[i+1:]
					break
				}
			}
			if equalFold(sub, "hant") || equalFold(sub, "tw") || equalFold(sub, "hk") || equalFold(sub, "mo") {
				return override.Big5
			}
		}
		return override.GBK
	}
	if e, ok := lookupShort(localeDefaults[:], lang); ok {
		return e
	}
	if rest == "" && len(lang) == 2 {
		if e, ok := lookupShort(tldDefaults[:], lang); ok {
			return e
		}
	}
	return override.Windows1252
}

type shortDefault struct {
	code string
	enc  override.Encoding
}

// localeDefaults is the HTML Standard's table of suggested default
// encodings, by language (zh is handled apart).
var localeDefaults = [...]shortDefault{
	{"ar", override.Windows1256},
	{"ba", override.Windows1251},
	{"be", override.Windows1251},
	{"bg", override.Windows1251},
	{"cs", override.Windows1250},
	{"el", override.ISO8859_7},
	{"et", override.Windows1257},
	{"fa", override.Windows1256},
	{"he", override.Windows1255},
	{"hr", override.Windows1250},
	{"hu", override.ISO8859_2},
	{"ja", override.ShiftJIS},
	{"kk", override.Windows1251},
	{"ko", override.EUCKR},
	{"ku", override.Windows1254},
	{"ky", override.Windows1251},
	{"lt", override.Windows1257},
	{"lv", override.Windows1257},
	{"mk", override.Windows1251},
	{"pl", override.ISO8859_2},
	{"ru", override.Windows1251},
	{"sah", override.Windows1251},
	{"sk", override.Windows1250},
	{"sl", override.ISO8859_2},
	{"sr", override.Windows1251},
	{"tg", override.Windows1251},
	{"th", override.Windows874},
	{"tr", override.Windows1254},
	{"tt", override.Windows1251},
	{"uk", override.Windows1251},
	{"vi", override.Windows1258},
}

// tldDefaults maps country-code top-level domains to the suggested default
// of the country's main language in localeDefaults. This mapping is ours:
// the standard gives locales only.
var tldDefaults = [...]shortDefault{
	{"ae", override.Windows1256}, // Arabic
	{"bg", override.Windows1251},
	{"bh", override.Windows1256},
	{"by", override.Windows1251}, // Belarusian, Russian
	{"cn", override.GBK},
	{"cz", override.Windows1250},
	{"ee", override.Windows1257},
	{"eg", override.Windows1256},
	{"gr", override.ISO8859_7},
	{"hk", override.Big5},
	{"hr", override.Windows1250},
	{"hu", override.ISO8859_2},
	{"il", override.Windows1255},
	{"iq", override.Windows1256},
	{"ir", override.Windows1256}, // Persian
	{"jo", override.Windows1256},
	{"jp", override.ShiftJIS},
	{"kg", override.Windows1251}, // Kyrgyz
	{"kr", override.EUCKR},
	{"kw", override.Windows1256},
	{"kz", override.Windows1251}, // Kazakh
	{"lb", override.Windows1256},
	{"lt", override.Windows1257},
	{"lv", override.Windows1257},
	{"ly", override.Windows1256},
	{"mk", override.Windows1251},
	{"mo", override.Big5},
	{"om", override.Windows1256},
	{"pl", override.ISO8859_2},
	{"qa", override.Windows1256},
	{"rs", override.Windows1251}, // Serbian
	{"ru", override.Windows1251},
	{"sa", override.Windows1256},
	{"si", override.ISO8859_2}, // Slovenian
	{"sk", override.Windows1250},
	{"su", override.Windows1251},
	{"sy", override.Windows1256},
	{"th", override.Windows874},
	{"tj", override.Windows1251}, // Tajik
	{"tr", override.Windows1254},
	{"tw", override.Big5},
	{"ua", override.Windows1251}, // Ukrainian
	{"vn", override.Windows1258},
	{"ye", override.Windows1256},
}

func lookupShort(table []shortDefault, code string) (override.Encoding, bool) {
	for _, d := range table {
		if equalFold(code, d.code) {
			return d.enc, true
		}
	}
	return override.Unknown, false
}

// equalFold reports whether s equals lower, a lower-case ASCII string, with
// ASCII case folded.
func equalFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
