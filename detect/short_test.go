package detect_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/override"
)

// latinShort are short texts with a few non-ASCII letters among ASCII, as
// on a small page, written for these tests (UDHR Article 1 where it says
// "UDHR"), in encodings that browsers never guess or whose windows twin
// shadows them.
var latinShort = []sample{
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
		b := mustEncode(t, tc.enc, tc.text)
		for _, in := range [][]byte{b, page(b)} {
			if got, s := feedGuess(d, in, detect.Hint{}); !right(got, tc.enc, in) && !latinEncodings[got] {
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

// wideTexts are texts in the encodings only the wide detector
// (Detector.All) answers, each in a language it scores the encoding for;
// written for these tests (UDHR Article 1 where it says so).
var wideTexts = []struct {
	desc  string
	enc   override.Encoding
	exact bool // the text does not decode alike in a browser's encoding
	text  string
}{
	{"Polish UDHR", override.ISO8859_16, true, "Wszyscy ludzie rodzą się wolni i równi pod względem swej godności i swych praw. Są oni obdarzeni rozumem i sumieniem i powinni postępować wobec innych w duchu braterstwa."},
	{"Croatian UDHR", override.ISO8859_16, true, "Sva ljudska bića rađaju se slobodna i jednaka u dostojanstvu i pravima. Ona su obdarena razumom i sviješću i trebaju jedna prema drugima postupati u duhu bratstva. Šibenik, Čakovec, Žumberak."},
	{"Russian UDHR", override.XMacCyrillic, true, "Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и совестью и должны поступать в отношении друг друга в духе братства."},
	{"Ukrainian UDHR", override.XMacCyrillic, true, "Всі люди народжуються вільними і рівними у своїй гідності та правах. Вони наділені розумом і совістю і повинні діяти у відношенні один до одного в дусі братерства."},
	{"Turkish UDHR", override.ISO8859_3, true, "Bütün insanlar hür, haysiyet ve haklar bakımından eşit doğarlar. Akıl ve vicdana sahiptirler ve birbirlerine karşı kardeşlik zihniyeti ile hareket etmelidirler."},
	{"French", override.Macintosh, true, "Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de raison et de conscience et doivent agir les uns envers les autres dans un esprit de fraternité."},
	{"French with euro", override.ISO8859_15, true, "Le cœur a ses raisons que la raison ne connaît point. Un bœuf coûte 500 € à l'œil nu."},
	{"German", override.Macintosh, true, "Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und Gewissen begabt und sollen einander im Geist der Brüderlichkeit begegnen."},
	{"Icelandic UDHR", override.ISO8859_10, false, "Hver maður er borinn frjáls og jafn öðrum að virðingu og réttindum. Menn eru gæddir vitsmunum og samvisku, og ber þeim að breyta bróðurlega hverjum við annan."},
	{"Irish", override.ISO8859_14, false, "Saolaítear gach duine den chine daonna saor agus comhionann i ndínit agus i gcearta."},
}

// wideEncodings are the encodings only the wide detector answers.
var wideEncodings = map[override.Encoding]bool{
	override.ISO8859_3: true, override.ISO8859_10: true,
	override.ISO8859_14: true, override.ISO8859_15: true, override.ISO8859_16: true,
	override.Macintosh: true, override.XMacCyrillic: true,
}

// TestWide checks that the wide detector finds each of its encodings on
// text of a language it scores it for, fed whole and in a page, and that
// Reset keeps it wide. Where the text decodes alike in a browser's
// encoding (Icelandic in ISO-8859-10 and windows-1252), that is right too;
// exact cases must name the encoding itself.
func TestWide(t *testing.T) {
	d := detect.Detector{All: true}
	for _, tc := range wideTexts {
		b := mustEncode(t, tc.enc, tc.text)
		for _, in := range [][]byte{b, page(b)} {
			got, s := feedGuess(&d, in, detect.Hint{})
			if !right(got, tc.enc, in) || tc.exact && got != tc.enc {
				t.Errorf("%s in %v, wide: Guess = %v, %v, want %v", tc.desc, tc.enc, got, s, tc.enc)
			}
		}
	}
}

// TestDefaultNeverWide checks that the default detector never answers an
// encoding only the wide one does, on text in those encodings and on
// random bytes, and that the wide detector agrees with the default one on
// the browser's own sentences.
func TestDefaultNeverWide(t *testing.T) {
	var inputs [][]byte
	for _, tc := range wideTexts {
		b, _ := corpus.Encode(tc.enc, tc.text)
		inputs = append(inputs, b, page(b))
	}
	for _, tc := range latinShort {
		b, _ := corpus.Encode(tc.enc, tc.text)
		inputs = append(inputs, b)
	}
	rng := rand.New(rand.NewPCG(24, 4))
	for range 2000 {
		b := make([]byte, 1+rng.IntN(64))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		inputs = append(inputs, b)
	}
	for _, in := range inputs {
		if got, s := guess(in, detect.Hint{}); wideEncodings[got] {
			t.Fatalf("default Guess(%q) = %v, %v: a browser never guesses it", in, got, s)
		}
	}
	for _, tc := range sentences {
		b, _ := corpus.Encode(tc.enc, tc.text)
		d := detect.Detector{All: true}
		d.Feed(b, false)
		if got, s := d.Guess(detect.Hint{}); !right(got, tc.enc, b) {
			t.Errorf("%s in %v, wide: Guess = %v, %v", tc.desc, tc.enc, got, s)
		}
	}
}

// balticTexts are Lithuanian and Latvian in ISO-8859-4, which a browser
// guesses (Firefox's chardetng has it among its Latin candidates, beside
// windows-1257 and ISO-8859-13): the default detector must name it where
// the bytes are not alike in those two.
var balticTexts = []struct {
	desc string
	text string
}{
	{"Lithuanian UDHR", "Visi žmonės gimsta laisvi ir lygūs savo orumu ir teisėmis. Jiems suteiktas protas ir sąžinė, ir jie turi elgtis vienas kito atžvilgiu kaip broliai."},
	{"Latvian UDHR", "Visi cilvēki piedzimst brīvi un vienlīdzīgi savā pašcieņā un tiesībās. Viņi ir saprāta un sirdsapziņas apveltīti, un viņiem jāizturas citam pret citu brālības garā."},
}

// TestISO8859_4 checks that the default detector and the wide one both
// find ISO-8859-4 on Baltic text, fed whole and in a page.
func TestISO8859_4(t *testing.T) {
	for _, all := range []bool{false, true} {
		d := detect.Detector{All: all}
		for _, tc := range balticTexts {
			b := mustEncode(t, override.ISO8859_4, tc.text)
			for _, in := range [][]byte{b, page(b)} {
				if got, s := feedGuess(&d, in, detect.Hint{}); got != override.ISO8859_4 {
					t.Errorf("%s, All %v: Guess = %v, %v, want ISO-8859-4", tc.desc, all, got, s)
				}
			}
		}
	}
}

// TestLatinRuledOut: text whose non-ASCII bytes sit mostly beside ASCII
// letters reads as Latin script only while a Latin-script encoding is
// left. A catalog of English strings with quotation marks and a few
// Hebrew abbreviations first loses its Latin candidates to the Hebrew
// (the abbreviations come first), then looks Latin by the quotation
// marks; the Hebrew guess stands (it was the default, with no evidence,
// when the Latin rule found nothing to choose).
func TestLatinRuledOut(t *testing.T) {
	text := "ק״ב\nמ״ב\nג״ב\nט״ב\nקילובייט\nמגהבייט\n" + strings.Repeat("Invalid character “%s” in “name”, didn’t work\n", 10)
	b, _ := corpus.Encode(override.Windows1255, text)
	if got, s := guess(b, detect.Hint{}); got != override.Windows1255 || s != detect.Statistical {
		t.Errorf("Guess = %v, %v, want windows-1255, statistical", got, s)
	}
}

// TestHebrewCatalog: a catalog of English strings with curly quotes, then a
// few Hebrew abbreviations, in windows-1255. The quotation marks are the
// same in every windows encoding and decide nothing; the Hebrew letters
// decide (before, a model that saw few quotation marks in training lost
// the Hebrew encoding to pruning before its first letter).
func TestHebrewCatalog(t *testing.T) {
	text := strings.Repeat("Key file contains key “%s” in group “%s” which has no value\n", 12) +
		"קי״ב\nקי״ס\nמ״ב\nמ״ס\nמבי״ב\nמבי״ס\nחסרים ערך משתנה\n"
	b, _ := corpus.Encode(override.Windows1255, text)
	if got, s := guess(b, detect.Hint{}); !right(got, override.Windows1255, b) {
		t.Errorf("Guess = %v, %v, want windows-1255", got, s)
	}
	// Forty lines of such strings, then Hebrew sentences: the quotation
	// marks beside English words are not Latin letters past the first
	// few non-ASCII bytes, so they do not make the text read as Latin.
	text = strings.Repeat("Key file contains key “%s” in group “%s”\n", 40) +
		strings.Repeat("שלום עולם, זהו קובץ הגדרות. המשתנה חסר ערך.\n", 2)
	b, _ = corpus.Encode(override.Windows1255, text)
	if got, s := guess(b, detect.Hint{}); !right(got, override.Windows1255, b) {
		t.Errorf("after forty lines: Guess = %v, %v, want windows-1255", got, s)
	}
}
