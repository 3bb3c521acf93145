package detect_test

import (
	"testing"

	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/override"
)

// latinShort are short texts with a few non-ASCII letters among ASCII, as
// on a small page, written for these tests (UDHR Article 1 where it says
// "UDHR"), in encodings that browsers never guess or whose windows twin
// shadows them.
var latinShort = []struct {
	desc string
	enc  override.Encoding
	text string
}{
	{"Polish UDHR", override.ISO8859_13, "Wszyscy ludzie rodzą się wolni i równi pod względem swej godności i swych praw. Są oni obdarzeni rozumem i sumieniem."},
	{"Polish menu", override.ISO8859_13, "Strona główna - Kontakt - Mapa dojazdu do Gdańska"},
	{"Croatian UDHR", override.ISO8859_16, "Sva ljudska bića rađaju se slobodna i jednaka u dostojanstvu i pravima. Ona su obdarena razumom i sviješću."},
	{"Croatian menu", override.ISO8859_16, "Početna stranica - Vijesti iz Zagreba - Kontakt"},
	{"Romanian UDHR", override.ISO8859_16, "Toate ființele umane se nasc libere și egale în demnitate și în drepturi."},
	{"Esperanto UDHR", override.ISO8859_3, "Ĉiuj homoj estas denaske liberaj kaj egalaj laŭ digno kaj rajtoj. Ili posedas racion kaj konsciencon."},
	{"Esperanto menu", override.ISO8859_3, "Ĉefpaĝo - Novaĵoj - Kontakto"},
	{"Maltese UDHR", override.ISO8859_3, "Il-bnedmin kollha jitwieldu ħielsa u ugwali fid-dinjità u d-drittijiet."},
	{"Lithuanian UDHR", override.ISO8859_4, "Visi žmonės gimsta laisvi ir lygūs savo orumu ir teisėmis."},
	{"Latvian UDHR", override.ISO8859_4, "Visi cilvēki piedzimst brīvi un vienlīdzīgi savā pašcieņā un tiesībās."},
	{"Icelandic UDHR", override.ISO8859_10, "Hver maður er borinn frjáls og jafn öðrum að virðingu og réttindum."},
	{"French with euro", override.ISO8859_15, "Le cœur a ses raisons que la raison ne connaît point. Prix : 5 €."},
	{"Welsh", override.ISO8859_14, "Genir pawb yn rhydd ac yn gydradd â'i gilydd mewn urddas a hawliau. Mae ŵyr a ŷd yma."},
}

// latinEncodings are the default set's encodings of Latin-script text.
var latinEncodings = map[override.Encoding]bool{
	override.Windows1252: true, override.Windows1250: true, override.ISO8859_2: true,
	override.Windows1254: true, override.Windows1257: true, override.ISO8859_13: true,
	override.Windows1258: true,
}

// TestShortLatin checks that a few accented letters among ASCII words are
// guessed as a Latin-script encoding by the default (browser) detector,
// bare and in a page, even in an encoding it never answers. Before the
// lone-letter rule (latin.go) these came out windows-874, Big5,
// windows-1255 and gbk.
func TestShortLatin(t *testing.T) {
	d := detect.New()
	for _, tc := range latinShort {
		b, dropped := corpus.Encode(tc.enc, tc.text)
		if dropped > 0 {
			t.Fatalf("%s: %d characters not in %v", tc.desc, dropped, tc.enc)
		}
		for _, in := range [][]byte{b, page(b)} {
			d.Reset()
			d.Feed(in, false)
			if got, s := d.Guess(detect.Hint{}); !right(got, tc.enc, in) && !latinEncodings[got] {
				t.Errorf("%s in %v: Guess = %v, %v, want a Latin-script encoding", tc.desc, tc.enc, got, s)
			}
		}
	}
}

// page wraps b in the markup of a small page.
func page(b []byte) []byte {
	p := append([]byte("<html><head><title>Start</title></head><body><p>"), b...)
	return append(p, "</p></body></html>"...)
}

// TestGreekTwins checks that ISO-8859-7 and windows-1253 are told apart
// where their bytes differ (Ά is 0xB6 in ISO-8859-7 and 0xA2 in
// windows-1253; 0x80-0x9F are C1 controls in ISO-8859-7), and that either
// is accepted where they decode alike.
func TestGreekTwins(t *testing.T) {
	for _, text := range []string{
		"Άρθρο 1: Όλοι οι άνθρωποι γεννιούνται ελεύθεροι.",
		"Αρχική σελίδα - Άρθρα",
		"Ήρθε η ώρα. Ένας άνθρωπος.",
		"«Όλοι οι άνθρωποι» – είπε.",
	} {
		for _, enc := range []override.Encoding{override.ISO8859_7, override.Windows1253} {
			b, _ := corpus.Encode(enc, text)
			if got, s := guess(b, detect.Hint{}); !right(got, enc, b) {
				t.Errorf("%q in %v: Guess = %v, %v", text, enc, got, s)
			}
		}
	}
}
