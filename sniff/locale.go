package sniff

import (
	"github.com/charsniff/charsniff/internal/ascii"
	"github.com/charsniff/charsniff/internal/region"
	"github.com/charsniff/charsniff/override"
)

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
// no language code this package knows ("jp", "cn", "tw"). It picks the
// encoding of the country's main language (.jp Shift_JIS, .cn GBK,
// .tw/.hk/.mo Big5, .kr EUC-KR, .ru/.ua/.by windows-1251, .pl ISO-8859-2,
// .ro windows-1250, ...): a mapping of this package, as the standard lists
// locales only, shared with the autodetection's hints and following the TLD
// tables of Firefox and chardetng. Note that ".uk" is the United Kingdom
// (windows-1252) while "uk" is Ukrainian (windows-1251).
//
// Anything else, including "" and "en", gives windows-1252.
// DefaultEncoding does not allocate.
func DefaultEncoding(localeOrTLD string) override.Encoding {
	s := localeOrTLD
	for len(s) > 0 && ascii.IsWhitespace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && ascii.IsWhitespace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[0] == '.' {
		return region.ForTLD(s).Default()
	}
	r, std, ok := region.ForLocale(s)
	switch {
	case ok && std:
		return r.Default()
	case ok:
		// A language the standard's table does not list: windows-1252,
		// as the standard says for all other locales.
		return override.Windows1252
	case len(s) == 2:
		// A bare two-letter code that is no language we know: a
		// top-level domain.
		return region.ForTLD(s).Default()
	}
	return override.Windows1252
}

// tldDefault is the default encoding for a top-level domain or host name
// ("jp", ".jp", "www.example.jp"): that of its last label.
func tldDefault(host string) override.Encoding {
	return region.ForTLD(host).Default()
}
