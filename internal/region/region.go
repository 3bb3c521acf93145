// Package region is the one table of the regions whose legacy Web content
// has customary encodings of its own, and of the top-level domains and
// languages that point to each. Package sniff reads it for the default
// encoding (sniff.DefaultEncoding, the last step of the sniffing
// algorithm) and package detect for the hint that favours a region's
// encodings, so the two cannot disagree.
//
// Languages follow the HTML Standard's table of suggested default encodings
// (https://html.spec.whatwg.org/multipage/parsing.html#determining-the-character-encoding):
// a language the standard lists gets its region's default; a few others
// have a region for detection only (their default stays windows-1252, as
// the standard says for all other locales). Top-level domains are ours, as
// the standard gives locales only: each country's main language's region,
// as Firefox's old TLD fallback table (domainsfallbacks.properties) and
// chardetng's TLD classes (tld.rs) have them; where those two disagree, the
// row says which was followed and why.
package region

import "github.com/charsniff/charsniff/override"

// Region is a group of locales and countries that share customary legacy
// encodings.
type Region uint8

// The regions. Each comment says why its encodings are its own.
const (
	// Generic is no region: generic TLDs (.com, .org, ...), unknown
	// countries and languages. windows-1252, the standard's default for
	// all other locales; no encoding is favoured.
	Generic Region = iota
	// Western is Western Europe and the Americas: Latin-1 languages,
	// whose legacy pages are windows-1252 (ISO-8859-1 and -15 are read as
	// windows-1252 by browsers).
	Western
	// CentralWindows is Czech, Slovak, Croatian (and, for detection,
	// Romanian and Bosnian): the standard gives cs, hr, sk windows-1250,
	// the Windows code page that Central European sites mostly used.
	CentralWindows
	// CentralISO is Polish, Hungarian and Slovenian: the standard gives
	// hu, pl, sl ISO-8859-2, which Unix-era sites there used more than
	// windows-1250.
	CentralISO
	// Cyrillic is Russian, Ukrainian, Belarusian, Bulgarian, Serbian,
	// Macedonian and the Cyrillic-script languages of Central Asia:
	// windows-1251 (the standard's default for all of them), with KOI8-R,
	// KOI8-U, ISO-8859-5 and IBM866 also in use.
	Cyrillic
	// Greek: the standard gives el ISO-8859-7; windows-1253 is the
	// other one in use.
	Greek
	// Turkish (and, for detection, Azerbaijani): windows-1254, which the
	// standard gives tr and ku.
	Turkish
	// Hebrew: windows-1255 (the standard's he), and ISO-8859-8 for visual
	// Hebrew.
	Hebrew
	// Arabic is Arabic-script languages (Arabic, Persian; Urdu for
	// detection): windows-1256 (the standard's ar, fa), and ISO-8859-6.
	Arabic
	// Baltic is Estonian, Latvian and Lithuanian: the standard gives et,
	// lt, lv windows-1257; ISO-8859-13 is the other one in use.
	Baltic
	// Vietnamese: windows-1258, the standard's vi.
	Vietnamese
	// Thai: windows-874, the standard's th.
	Thai
	// Japanese: Shift_JIS (the standard's ja), and EUC-JP and
	// ISO-2022-JP.
	Japanese
	// Simplified is Simplified Chinese: GBK (the Encoding Standard's
	// gb18030 decoder reads it; the HTML Standard's zh-CN row), with
	// gb18030 four-byte sequences allowed.
	Simplified
	// Traditional is Traditional Chinese (Taiwan, Hong Kong, Macao): Big5,
	// the standard's zh-TW.
	Traditional
	// Korean: EUC-KR, the standard's ko.
	Korean
	numRegions
)

var names = [numRegions]string{
	Generic:        "generic",
	Western:        "western",
	CentralWindows: "central-windows",
	CentralISO:     "central-iso",
	Cyrillic:       "cyrillic",
	Greek:          "greek",
	Turkish:        "turkish",
	Hebrew:         "hebrew",
	Arabic:         "arabic",
	Baltic:         "baltic",
	Vietnamese:     "vietnamese",
	Thai:           "thai",
	Japanese:       "japanese",
	Simplified:     "simplified",
	Traditional:    "traditional",
	Korean:         "korean",
}

// defaults are the regions' default encodings: the HTML Standard's
// suggested default of the region's languages.
var defaults = [numRegions]override.Encoding{
	Generic:        override.Windows1252,
	Western:        override.Windows1252,
	CentralWindows: override.Windows1250,
	CentralISO:     override.ISO8859_2,
	Cyrillic:       override.Windows1251,
	Greek:          override.ISO8859_7,
	Turkish:        override.Windows1254,
	Hebrew:         override.Windows1255,
	Arabic:         override.Windows1256,
	Baltic:         override.Windows1257,
	Vietnamese:     override.Windows1258,
	Thai:           override.Windows874,
	Japanese:       override.ShiftJIS,
	Simplified:     override.GBK,
	Traditional:    override.Big5,
	Korean:         override.EUCKR,
}

// customary are the encodings a region's legacy pages use, which a hint
// for the region favours in detection. Both Central European regions
// favour both Central European encodings, as chardetng does: either is
// common in either group of countries.
var customary = [numRegions][]override.Encoding{
	Generic:        nil,
	Western:        {override.Windows1252},
	CentralWindows: {override.Windows1250, override.ISO8859_2},
	CentralISO:     {override.ISO8859_2, override.Windows1250},
	Cyrillic:       {override.Windows1251, override.KOI8R, override.KOI8U, override.ISO8859_5, override.IBM866},
	Greek:          {override.ISO8859_7, override.Windows1253},
	Turkish:        {override.Windows1254},
	Hebrew:         {override.Windows1255, override.ISO8859_8},
	Arabic:         {override.Windows1256, override.ISO8859_6},
	Baltic:         {override.Windows1257, override.ISO8859_13},
	Vietnamese:     {override.Windows1258},
	Thai:           {override.Windows874},
	Japanese:       {override.ShiftJIS, override.EUCJP, override.ISO2022JP},
	Simplified:     {override.GBK, override.GB18030},
	Traditional:    {override.Big5},
	Korean:         {override.EUCKR},
}

// String returns the region's lower-case name, such as "cyrillic".
func (r Region) String() string {
	if r < numRegions {
		return names[r]
	}
	return "unknown"
}

// Default returns the region's default encoding.
func (r Region) Default() override.Encoding {
	if r < numRegions {
		return defaults[r]
	}
	return override.Windows1252
}

// Customary reports whether e is one of the region's customary encodings.
func (r Region) Customary(e override.Encoding) bool {
	if r >= numRegions {
		return false
	}
	for _, c := range customary[r] {
		if c == e {
			return true
		}
	}
	return false
}

// tlds maps top-level domains (lower case, Punycode for IDNs) to regions.
// A country is in its main language's region, as in Firefox's
// domainsfallbacks.properties and chardetng's tld.rs unless a row says
// otherwise. Countries that both leave at windows-1252 without preferring
// it are not listed (Generic); those listed as Western favour windows-1252
// in detection, as chardetng does for all other two-letter domains.
var tlds = [...]struct {
	tld    string
	region Region
}{
	// Western Europe: windows-1252 favoured.
	{"at", Western}, {"be", Western}, {"br", Western}, {"ch", Western},
	{"de", Western}, {"dk", Western}, {"es", Western}, {"fi", Western},
	{"fr", Western}, {"is", Western}, {"it", Western}, {"nl", Western},
	{"no", Western}, {"pt", Western}, {"se", Western},

	{"cz", CentralWindows}, // Czech
	{"sk", CentralWindows}, // Slovak
	{"hr", CentralWindows}, // Croatian
	// Romanian: chardetng's CentralWindows; Firefox's old table left .ro
	// at windows-1252. Romanian ă â î ș ț are not in windows-1252, and
	// Romanian legacy pages are windows-1250 or ISO-8859-2: chardetng.
	{"ro", CentralWindows},
	// Bosnia: chardetng's CentralCyrillic, whose default is windows-1250
	// (Bosnian is mostly written in Latin script); not in Firefox's old
	// table.
	{"ba", CentralWindows},
	{"pl", CentralISO}, // Polish
	{"hu", CentralISO}, // Hungarian
	{"si", CentralISO}, // Slovenian

	{"ru", Cyrillic}, {"su", Cyrillic}, {"xn--p1ai", Cyrillic}, // Russian
	{"ua", Cyrillic}, {"xn--j1amh", Cyrillic}, // Ukrainian
	{"by", Cyrillic},                           // Belarusian, Russian
	{"bg", Cyrillic},                           // Bulgarian
	{"rs", Cyrillic}, {"xn--90a3ac", Cyrillic}, // Serbian
	{"mk", Cyrillic},                            // Macedonian
	{"kz", Cyrillic}, {"xn--80ao21a", Cyrillic}, // Kazakh, Russian
	{"kg", Cyrillic},                          // Kyrgyz, Russian
	{"tj", Cyrillic},                          // Tajik
	{"uz", Cyrillic},                          // Uzbek (Cyrillic in the legacy era)
	{"mn", Cyrillic}, {"xn--l1acc", Cyrillic}, // Mongolian

	{"gr", Greek}, // Greek
	// Cyprus: Greek (chardetng); not in Firefox's old table.
	{"cy", Greek},

	{"tr", Turkish}, // Turkish
	// Azerbaijan: chardetng's TurkishAzeri (Azerbaijani Latin is in
	// windows-1254); not in Firefox's old table.
	{"az", Turkish},

	// Israel: chardetng's Hebrew. Firefox's old table left .il out
	// because it ran a Hebrew detector there.
	{"il", Hebrew},

	// Arabic-script countries: windows-1256 (Firefox's old table and
	// chardetng). Pakistan (Urdu) is in chardetng only.
	{"ae", Arabic}, {"xn--mgbaam7a8h", Arabic}, {"af", Arabic}, {"bh", Arabic},
	{"dz", Arabic}, {"xn--lgbbat1ad8j", Arabic}, {"eg", Arabic}, {"xn--wgbh1c", Arabic},
	{"iq", Arabic}, {"ir", Arabic}, {"xn--mgba3a4f16a", Arabic}, {"jo", Arabic},
	{"xn--mgbayh7gpa", Arabic}, {"kw", Arabic}, {"lb", Arabic}, {"ly", Arabic},
	{"ma", Arabic}, {"xn--mgbc0a9azcg", Arabic}, {"om", Arabic}, {"xn--mgb9awbf", Arabic},
	{"pk", Arabic}, {"ps", Arabic}, {"xn--ygbi2ammx", Arabic}, {"qa", Arabic},
	{"xn--wgbl6a", Arabic}, {"sa", Arabic}, {"xn--mgberp4a5d4ar", Arabic}, {"sd", Arabic},
	{"xn--mgbpl2fh", Arabic}, {"sy", Arabic}, {"tn", Arabic}, {"xn--pgbs0dh", Arabic},
	{"ye", Arabic}, {"xn--mgb2ddes", Arabic},

	{"lt", Baltic}, // Lithuanian
	{"lv", Baltic}, // Latvian
	// Estonia: the standard's et and Firefox's old table say
	// windows-1257; chardetng counts .ee as Western. Estonian õ ä ö ü are
	// the same bytes in both, so only š and ž tell them apart; we keep
	// the standard's default.
	{"ee", Baltic},

	{"vn", Vietnamese},
	{"th", Thai}, {"xn--o3cw4h", Thai},
	{"jp", Japanese},
	{"cn", Simplified}, {"xn--fiqs8s", Simplified}, {"xn--fiqz9s", Simplified},
	{"sg", Simplified}, {"xn--yfro4i67o", Simplified}, // Singapore: Simplified Chinese
	{"tw", Traditional}, {"xn--kprw13d", Traditional}, {"xn--kpry57d", Traditional},
	{"hk", Traditional}, {"xn--j6w193g", Traditional}, // Hong Kong: Big5 (Firefox: Big5-HKSCS, the same encoding in the Encoding Standard)
	{"mo", Traditional}, // Macao
	{"kr", Korean}, {"xn--3e0b707e", Korean},
	{"kp", Korean},
}

// langs maps language subtags (lower case) to regions. std marks the
// languages of the HTML Standard's table of suggested defaults, whose
// default is their region's; the others only steer detection (their
// default is windows-1252, the standard's for all other locales). zh is
// handled apart (see ForLocale).
var langs = [...]struct {
	lang   string
	region Region
	std    bool
}{
	{"ar", Arabic, true}, {"fa", Arabic, true},
	{"ur", Arabic, false}, // Urdu: Arabic script, not in the standard's table
	{"ba", Cyrillic, true}, {"be", Cyrillic, true}, {"bg", Cyrillic, true},
	{"kk", Cyrillic, true}, {"ky", Cyrillic, true}, {"mk", Cyrillic, true},
	{"ru", Cyrillic, true}, {"sah", Cyrillic, true}, {"sr", Cyrillic, true},
	{"tg", Cyrillic, true}, {"tt", Cyrillic, true}, {"uk", Cyrillic, true},
	{"mn", Cyrillic, false}, // Mongolian: Cyrillic script, not in the standard's table
	{"cs", CentralWindows, true}, {"hr", CentralWindows, true}, {"sk", CentralWindows, true},
	{"ro", CentralWindows, false}, // Romanian: see .ro; not in the standard's table
	{"bs", CentralWindows, false}, // Bosnian: see .ba; not in the standard's table
	{"hu", CentralISO, true}, {"pl", CentralISO, true}, {"sl", CentralISO, true},
	{"el", Greek, true},
	{"ku", Turkish, true}, {"tr", Turkish, true},
	{"az", Turkish, false}, // Azerbaijani: see .az; not in the standard's table
	{"he", Hebrew, true},
	{"iw", Hebrew, false}, {"yi", Hebrew, false}, // old code for Hebrew; Yiddish (Hebrew script)
	{"et", Baltic, true}, {"lt", Baltic, true}, {"lv", Baltic, true},
	{"vi", Vietnamese, true},
	{"th", Thai, true},
	{"ja", Japanese, true},
	{"ko", Korean, true},
	// Western languages: windows-1252 favoured in detection. Codes that
	// are also top-level domains of other regions are languages here
	// (Welsh is not Cypriot, Afrikaans not Afghan, Tswana not Tunisian,
	// Sango not Singaporean), so that a bare "cy" is not read as a
	// domain by sniff.DefaultEncoding.
	{"en", Western, false}, {"de", Western, false}, {"fr", Western, false},
	{"es", Western, false}, {"it", Western, false}, {"nl", Western, false},
	{"pt", Western, false}, {"sv", Western, false}, {"da", Western, false},
	{"fi", Western, false}, {"nb", Western, false}, {"nn", Western, false},
	{"no", Western, false}, {"ca", Western, false}, {"is", Western, false},
	{"ga", Western, false}, {"gl", Western, false}, {"eu", Western, false},
	{"cy", Western, false}, {"af", Western, false}, {"tn", Western, false},
	{"sg", Western, false},
	// Other codes that are also top-level domains of a region, so that
	// a bare one is read as the language.
	{"uz", Cyrillic, false},                      // Uzbek: Cyrillic in the legacy era; see .uz
	{"ps", Arabic, false}, {"sd", Arabic, false}, // Pashto, Sindhi: Arabic script
	{"dz", Generic, false}, // Dzongkha: Tibetan script, no legacy encoding here
}

// ForTLD returns the region of a top-level domain, given alone ("jp"),
// with its dot (".jp") or as a host name ("www.example.co.jp."), of which
// the last label counts; ASCII case and ASCII whitespace around the label
// do not matter. Unknown and generic domains are Generic. It does not
// allocate.
func ForTLD(host string) Region {
	host = trimASCIIWhitespace(host)
	for len(host) > 0 && host[len(host)-1] == '.' {
		host = host[:len(host)-1]
	}
	for i := len(host) - 1; i >= 0; i-- {
		if host[i] == '.' {
			host = host[i+1:]
			break
		}
	}
	host = trimASCIIWhitespace(host)
	if host == "" {
		return Generic // no hint, the common case: no need to look
	}
	for _, t := range tlds {
		if equalFold(host, t.tld) {
			return t.region
		}
	}
	return Generic
}

// ForLocale returns the region of a locale's language: a BCP 47 language
// tag or a POSIX locale name ("ja", "zh-TW", "zh-Hant-HK", "pt_BR.UTF-8"),
// ASCII case and surrounding ASCII whitespace ignored. std reports that the
// HTML Standard's table lists the language, with the region's default
// encoding; ok is false, and r Generic, for a language the table here does
// not know. Chinese is Traditional with the script Hant or the region TW,
// HK or MO, else Simplified. It does not allocate.
func ForLocale(locale string) (r Region, std, ok bool) {
	s := trimASCIIWhitespace(locale)
	for i := 0; i < len(s); i++ {
		if s[i] == '.' || s[i] == '@' { // POSIX codeset or modifier
			s = s[:i]
			break
		}
	}
	lang, rest := s, ""
	for i := 0; i < len(s); i++ {
		if s[i] == '-' || s[i] == '_' {
			lang, rest = s[:i], s[i+1:]
			break
		}
	}
	if lang == "" {
		return Generic, false, false // no hint: no need to look
	}
	if equalFold(lang, "zh") {
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
				return Traditional, true, true
			}
		}
		return Simplified, true, true
	}
	for _, l := range langs {
		if equalFold(lang, l.lang) {
			return l.region, l.std, true
		}
	}
	return Generic, false, false
}

func trimASCIIWhitespace(s string) string {
	isWS := func(c byte) bool { return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ' }
	for len(s) > 0 && isWS(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isWS(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
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
