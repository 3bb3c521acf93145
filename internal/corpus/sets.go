package corpus

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/charsniff/charsniff/override"
)

// A Set is one language in one encoding, with the family it is reported in
// and a top-level domain of the language's country (a detector's hint).
type Set struct {
	Family string
	Lang   string
	Enc    override.Encoding
	TLD    string
}

// sets are the rows of Sets: the languages of a family and encoding, in
// the order the accuracy tables list them.
var sets = []struct {
	family, tld string
	enc         override.Encoding
	langs       string
	wide        bool // only detect.Detector.All answers enc
}{
	{"Western", "de", override.Windows1252, "de fr es it nl pt sv da fi nb ca is", false},
	{"Central European", "cz", override.Windows1250, "cs pl hu ro sk sl hr", false},
	{"Central European", "cz", override.ISO8859_2, "cs pl hu sk sl hr", false},
	{"Cyrillic", "ru", override.Windows1251, "ru uk bg sr mk be", false},
	{"Cyrillic", "ru", override.KOI8R, "ru", false},
	{"Cyrillic", "ua", override.KOI8U, "uk", false},
	{"Cyrillic", "ru", override.ISO8859_5, "ru bg", false},
	{"Cyrillic", "ru", override.IBM866, "ru", false},
	{"Greek", "gr", override.Windows1253, "el", false},
	{"Greek", "gr", override.ISO8859_7, "el", false},
	{"Turkish", "tr", override.Windows1254, "tr", false},
	{"Hebrew", "il", override.Windows1255, "he", false},
	{"Hebrew", "il", override.ISO8859_8, "he", false},
	{"Arabic", "sa", override.Windows1256, "ar fa", false},
	{"Arabic", "sa", override.ISO8859_6, "ar", false},
	{"Baltic", "lt", override.Windows1257, "lt lv et", false},
	{"Baltic", "lt", override.ISO8859_13, "lt lv", false},
	{"Baltic", "lt", override.ISO8859_4, "lt lv et", false},
	{"Vietnamese", "vn", override.Windows1258, "vi", false},
	{"Thai", "th", override.Windows874, "th", false},
	{"Japanese", "jp", override.ShiftJIS, "ja", false},
	{"Japanese", "jp", override.EUCJP, "ja", false},
	{"Japanese", "jp", override.ISO2022JP, "ja", false},
	{"Chinese", "cn", override.GBK, "zh-CN", false},
	{"Chinese", "tw", override.Big5, "zh-TW", false},
	{"Korean", "kr", override.EUCKR, "ko", false},
	{"UTF-8", "", override.UTF8, "de cs ru el tr he ar lt vi th ja zh-CN zh-TW ko", false},
	{"Wide ISO-8859-3", "tr", override.ISO8859_3, "tr", true},
	{"Wide ISO-8859-10", "is", override.ISO8859_10, "sv da nb is", true},
	{"Wide ISO-8859-14", "ie", override.ISO8859_14, "ga", true},
	{"Wide ISO-8859-15", "fr", override.ISO8859_15, "de fr fi", true},
	{"Wide ISO-8859-16", "ro", override.ISO8859_16, "pl hu ro sl hr", true},
	{"Wide macintosh", "fr", override.Macintosh, "fr de", true},
	{"Wide x-mac-cyrillic", "ru", override.XMacCyrillic, "ru uk bg", true},
}

// Sets returns the sets a detector is measured on (detect/internal/eval,
// bench/detectcmp): each language in each encoding a browser would detect
// for it, and with wide also in those only the wide detector
// (detect.Detector.All) answers, each a family of its own.
func Sets(wide bool) []Set {
	var out []Set
	for _, r := range sets {
		if r.wide && !wide {
			continue
		}
		for _, l := range strings.Fields(r.langs) {
			out = append(out, Set{r.family, l, r.enc, r.tld})
		}
	}
	return out
}

// A HeldOut hands out the held-out documents of each language: its
// eval.txt under Dir cut into documents of about Size bytes (Documents),
// at most Max of them spread over the text (Spread). It reads each
// language once.
type HeldOut struct {
	Dir       string
	Size, Max int

	docs map[string][][]byte // by language, once read
}

// Docs returns the documents of lang.
func (h *HeldOut) Docs(lang string) ([][]byte, error) {
	if docs, ok := h.docs[lang]; ok {
		return docs, nil
	}
	text, err := os.ReadFile(filepath.Join(h.Dir, lang, "eval.txt"))
	if err != nil {
		return nil, err
	}
	if h.docs == nil {
		h.docs = map[string][][]byte{}
	}
	docs := Spread(Documents(text, h.Size), h.Max)
	h.docs[lang] = docs
	return docs, nil
}

// Read returns the documents Docs has read so far, by language.
func (h *HeldOut) Read() map[string][][]byte { return h.docs }
