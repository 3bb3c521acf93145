package detect_test

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/internal/autodetect"
	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/override"
)

// right reports whether guessing got for b encoded in want shows the
// reader the right text: the same encoding, or one that decodes b alike.
func right(got, want override.Encoding, b []byte) bool {
	return got == want || (got.Valid() && corpus.Decode(got, b) == corpus.Decode(want, b))
}

func guess(b []byte, hint detect.Hint) (override.Encoding, detect.Strength) {
	d := detect.New()
	d.Feed(b, false)
	return d.Guess(hint)
}

// Short real sentences (mostly Article 1 of the Universal Declaration of
// Human Rights), encoded, must be guessed right without any hint.
var sentences = []sample{
	{"French", override.Windows1252, "Le cœur a ses raisons que la raison ne connaît point."},
	{"German", override.Windows1252, "Über den Wolken muss die Freiheit wohl grenzenlos sein."},
	{"Spanish", override.Windows1252, "El niño comió una manzana en la cocina de su abuela."},
	{"Czech", override.Windows1250, "Příliš žluťoučký kůň úpěl ďábelské ódy."},
	{"Polish", override.ISO8859_2, "Zażółć gęślą jaźń, mówił Łukasz do sąsiadów."},
	{"Hungarian", override.Windows1250, "Minden emberi lény szabadon születik és egyenlő méltósága és joga van."},
	{"Russian", override.Windows1251, "Съешь же ещё этих мягких французских булок, да выпей чаю."},
	{"Russian KOI8-R", override.KOI8R, "Все люди рождаются свободными и равными в своем достоинстве и правах."},
	{"Ukrainian KOI8-U", override.KOI8U, "Усі люди народжуються вільними і рівними у своїй гідності та правах."},
	{"Bulgarian", override.ISO8859_5, "Всички хора се раждат свободни и равни по достойнство и права."},
	{"Russian IBM866", override.IBM866, "Все люди рождаются свободными и равными в своем достоинстве и правах."},
	{"Greek", override.Windows1253, "Άλλα λόγια να αγαπιόμαστε, είπε η γιαγιά στα εγγόνια της."},
	{"Greek ISO", override.ISO8859_7, "Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια."},
	{"Turkish", override.Windows1254, "Pijamalı hasta yağız şoföre çabucak güvendi."},
	{"Hebrew", override.Windows1255, "כל בני האדם נולדו בני חורין ושווים בערכם ובזכויותיהם."},
	{"Hebrew ISO", override.ISO8859_8, "כל בני האדם נולדו בני חורין ושווים בערכם ובזכויותיהם."},
	{"Arabic", override.Windows1256, "يولد جميع الناس أحراراً متساوين في الكرامة والحقوق."},
	{"Arabic ISO", override.ISO8859_6, "يولد جميع الناس أحرارا متساوين في الكرامة والحقوق."},
	{"Lithuanian", override.Windows1257, "Visi žmonės gimsta laisvi ir lygūs savo orumu ir teisėmis."},
	{"Latvian", override.ISO8859_13, "Visi cilvēki piedzimst brīvi un vienlīdzīgi savā pašcieņā un tiesībās."},
	{"Vietnamese", override.Windows1258, "Tất cả mọi người sinh ra đều được tự do và bình đẳng về nhân phẩm và quyền lợi."},
	{"Thai", override.Windows874, "มนุษย์ทั้งหลายเกิดมามีอิสระและเสมอภาคกันในเกียรติศักดิ์และสิทธิ"},
	{"Japanese Shift_JIS", override.ShiftJIS, "すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。"},
	{"Japanese EUC-JP", override.EUCJP, "すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。"},
	{"Japanese ISO-2022-JP", override.ISO2022JP, "すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。"},
	{"Korean", override.EUCKR, "모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다."},
	{"Simplified Chinese", override.GBK, "人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心。"},
	{"Traditional Chinese", override.Big5, "人人生而自由，在尊嚴和權利上一律平等。他們賦有理性和良心。"},
	{"UTF-8", override.UTF8, "Grüße aus Köln, Привет из Москвы."},
}

func TestSentences(t *testing.T) {
	for _, tc := range sentences {
		t.Run(tc.desc, func(t *testing.T) {
			b := mustEncode(t, tc.enc, tc.text)
			got, conf := guess(b, detect.Hint{})
			if !right(got, tc.enc, b) || conf == detect.NoEvidence {
				t.Errorf("Guess(%q) = %v, %v, want %v", b, got, conf, tc.enc)
			}
		})
	}
}

// TestChunking feeds each sentence, and each sentence twice, in random
// chunks: the guess must not change.
func TestChunking(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, tc := range sentences {
		b, _ := corpus.Encode(tc.enc, tc.text+" <p>"+tc.text)
		want, wantConf := guess(b, detect.Hint{})
		var d detect.Detector // the zero Detector is ready
		for trial := 0; trial < 50; trial++ {
			d.Reset()
			for rest := b; len(rest) > 0; {
				n := rng.Intn(min(len(rest), 9) + 1) // 0 to 9 bytes, empty chunks too
				d.Feed(rest[:n], false)
				rest = rest[n:]
			}
			if got, conf := d.Guess(detect.Hint{}); got != want || conf != wantConf {
				t.Fatalf("%s: chunked Guess = %v, %v, want %v, %v", tc.desc, got, conf, want, wantConf)
			}
		}
	}
}

func TestHints(t *testing.T) {
	// "Åðèå" is too short to tell; each hint tips it.
	short := []byte("\xe8\xe4\xe5")
	tests := []struct {
		desc string
		in   []byte
		hint detect.Hint
		want override.Encoding
		conf detect.Strength
	}{
		{"ASCII, no hint", []byte("<p>plain</p>"), detect.Hint{}, override.Windows1252, detect.NoEvidence},
		{"ASCII, .jp", []byte("<p>plain</p>"), detect.Hint{TLD: ".jp"}, override.ShiftJIS, detect.NoEvidence},
		{"ASCII, host in .cz", []byte("<p>plain</p>"), detect.Hint{TLD: "www.example.CZ."}, override.Windows1250, detect.NoEvidence},
		{"ASCII, zh-TW", []byte("<p>plain</p>"), detect.Hint{Language: "zh-TW"}, override.Big5, detect.NoEvidence},
		{"ASCII, zh-Hant-HK", []byte("<p>plain</p>"), detect.Hint{Language: "zh-Hant-HK"}, override.Big5, detect.NoEvidence},
		{"ASCII, zh", []byte("<p>plain</p>"), detect.Hint{Language: "zh"}, override.GBK, detect.NoEvidence},
		{"ASCII, TLD wins over language", []byte("x"), detect.Hint{TLD: "ru", Language: "ja"}, override.Windows1251, detect.NoEvidence},
		{"ASCII, generic TLD", []byte("x"), detect.Hint{TLD: "com"}, override.Windows1252, detect.NoEvidence},
		{"short, .ru", short, detect.Hint{TLD: "ru"}, override.Windows1251, detect.Statistical},
		{"short, .gr", short, detect.Hint{TLD: "gr"}, override.Windows1253, detect.Statistical},
		{"short, ru language", short, detect.Hint{Language: "ru-RU"}, override.Windows1251, detect.Statistical},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got, conf := guess(tc.in, tc.hint)
			if got != tc.want || conf != tc.conf {
				t.Errorf("Guess(%q, %+v) = %v, %v, want %v, %v", tc.in, tc.hint, got, conf, tc.want, tc.conf)
			}
		})
	}
}

func TestStructure(t *testing.T) {
	utf16 := func(s string, be bool) []byte {
		var b []byte
		for _, c := range []byte(s) {
			if be {
				b = append(b, 0, c)
			} else {
				b = append(b, c, 0)
			}
		}
		return b
	}
	sjis, _ := corpus.Encode(override.ShiftJIS, "日本語のテキストです")
	tests := []struct {
		desc string
		in   []byte
		want override.Encoding
		ok   bool // the guess rests on evidence
	}{
		{"empty", nil, override.Windows1252, false},
		{"ASCII markup", []byte(`<html><head><title>x</title><script>var a = "b";</script>`), override.Windows1252, false},
		{"UTF-8", []byte("<p>caf\xc3\xa9</p>"), override.UTF8, true},
		{"UTF-8 cut in a sequence", []byte("<p>\xe6\x97\xa5\xe6\x9c"), override.UTF8, true},
		{"UTF-8 cut after the lead", []byte("<p>\xc3\xa9 \xe2"), override.UTF8, true},
		{"invalid UTF-8 is not UTF-8", []byte("<p>caf\xc3\xa9 \xc3</p>"), override.Unknown, true},
		{"Shift_JIS cut after a lead byte", sjis[:len(sjis)-1], override.ShiftJIS, true},
		{"ISO-2022-JP", []byte("\x1b$B$3$s$K$A$O\x1b(B hello"), override.ISO2022JP, true},
		{"ESC without a valid sequence", []byte("a\x1b[31mred\x1b[0m"), override.Windows1252, false},
		{"UTF-16LE without BOM", utf16("<!DOCTYPE html><html><body>hi</body></html>", false), override.UTF16LE, true},
		{"UTF-16BE without BOM", utf16("<!DOCTYPE html><html><body>hi</body></html>", true), override.UTF16BE, true},
		{"too short for UTF-16", utf16("<p>hi</p>", false), override.Windows1252, false},
	}
	d := detect.New()
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got, s := feedGuess(d, tc.in, detect.Hint{})
			if ok := s > detect.NoEvidence; ok != tc.ok || (tc.want != override.Unknown && got != tc.want) {
				t.Errorf("Guess(%q) = %v, %v, want %v, evidence %v", tc.in, got, s, tc.want, tc.ok)
			}
			if tc.want == override.Unknown && got == override.UTF8 {
				t.Errorf("Guess(%q) = UTF-8 for invalid UTF-8", tc.in)
			}
		})
	}
}

// detected are the encodings the detector may answer.
var detected = map[override.Encoding]bool{
	override.UTF8: true, override.UTF16LE: true, override.UTF16BE: true,
	override.Windows1250: true, override.Windows1251: true, override.Windows1252: true,
	override.Windows1253: true, override.Windows1254: true, override.Windows1255: true,
	override.Windows1256: true, override.Windows1257: true, override.Windows1258: true,
	override.Windows874: true, override.ISO8859_2: true, override.ISO8859_4: true, override.ISO8859_5: true,
	override.ISO8859_6: true, override.ISO8859_7: true, override.ISO8859_8: true,
	override.ISO8859_13: true, override.KOI8R: true, override.KOI8U: true, override.IBM866: true,
	override.ShiftJIS: true, override.EUCJP: true, override.ISO2022JP: true, override.EUCKR: true,
	override.GBK: true, override.GB18030: true, override.Big5: true,
}

func FuzzDetect(f *testing.F) {
	for _, tc := range sentences {
		b, _ := corpus.Encode(tc.enc, tc.text)
		f.Add(b, uint8(len(b)/2))
	}
	f.Add([]byte("\x81\x30\x81\x30\xa1\xa1"), uint8(2))
	f.Add([]byte("\x1b$B\x1b(J\x8e\xa1"), uint8(1))
	d := detect.New()
	d2 := detect.New()
	w, w2 := &detect.Detector{All: true}, &detect.Detector{All: true}
	f.Fuzz(func(t *testing.T, b []byte, cut uint8) {
		d.Reset()
		nonASCII := d.Feed(b, false)
		if want := bytes.ContainsFunc(b, func(r rune) bool { return r >= 0x80 }); nonASCII != want {
			t.Fatalf("Feed(%q) = %v, want %v", b, nonASCII, want)
		}
		for _, hint := range []detect.Hint{{}, {TLD: "jp"}, {Language: "ru"}} {
			g, s := d.Guess(hint)
			if !g.Valid() || !detected[g] {
				t.Fatalf("Guess(%q, %+v) = %v, %v: not a detected encoding", b, hint, g, s)
			}
		}
		g, s := d.Guess(detect.Hint{TLD: "jp"})
		// Chunking: the same bytes in two pieces give the same guess.
		c := min(int(cut), len(b))
		d2.Reset()
		d2.Feed(b[:c], false)
		d2.Feed(b[c:], false)
		if g2, s2 := d2.Guess(detect.Hint{TLD: "jp"}); g2 != g || s2 != s {
			t.Fatalf("split at %d: Guess(%q) = %v, %v, want %v, %v", c, b, g2, s2, g, s)
		}
		// The wide detector: the same with chunks.
		w.Reset()
		w.Feed(b, false)
		w2.Reset()
		w2.Feed(b[:c], false)
		w2.Feed(b[c:], false)
		if g, s := w.Guess(detect.Hint{}); !g.Valid() {
			t.Fatalf("wide: Guess(%q) = %v, %v", b, g, s)
		} else if g2, s2 := w2.Guess(detect.Hint{}); g2 != g || s2 != s {
			t.Fatalf("wide, split at %d: Guess(%q) = %v, %v, want %v, %v", c, b, g2, s2, g, s)
		}
		// The last chunk marked changes nothing but a cut UTF-8 character.
		d2.Reset()
		d2.Feed(b[:c], false)
		d2.Feed(b[c:], true)
		if g2, s2 := d2.Guess(detect.Hint{TLD: "jp"}); g2 != g && g != override.UTF8 {
			t.Fatalf("last chunk: Guess(%q) = %v, %v, want %v, %v", b, g2, s2, g, s)
		}
	})
}

func TestAllocs(t *testing.T) {
	b, _ := corpus.Encode(override.Windows1251, strings.Repeat(sentences[4].text, 20))
	d := detect.New()
	hint := detect.Hint{TLD: "example.ru", Language: "zh-Hant"}
	n := testing.AllocsPerRun(100, func() {
		d.Reset()
		d.Feed(b, true)
		d.Guess(hint)
	})
	if n != 0 {
		t.Errorf("Reset, Feed and Guess allocate: got %v allocations per run, want 0", n)
	}
}

// heldOut maps the languages of testdata/heldout to the encodings their
// documents are tested in (the browser-detected ones, as in the
// evaluation tool).
var heldOut = map[string][]override.Encoding{
	"de": {override.Windows1252}, "fr": {override.Windows1252}, "es": {override.Windows1252},
	"it": {override.Windows1252}, "nl": {override.Windows1252}, "pt": {override.Windows1252},
	"sv": {override.Windows1252}, "da": {override.Windows1252}, "fi": {override.Windows1252},
	"nb": {override.Windows1252}, "ca": {override.Windows1252}, "is": {override.Windows1252},
	"cs": {override.Windows1250, override.ISO8859_2}, "pl": {override.Windows1250, override.ISO8859_2},
	"hu": {override.Windows1250, override.ISO8859_2}, "sk": {override.Windows1250, override.ISO8859_2},
	"sl": {override.Windows1250, override.ISO8859_2}, "hr": {override.Windows1250, override.ISO8859_2},
	"ro": {override.Windows1250},
	"ru": {override.Windows1251, override.KOI8R, override.ISO8859_5, override.IBM866},
	"uk": {override.Windows1251, override.KOI8U}, "bg": {override.Windows1251, override.ISO8859_5},
	"sr": {override.Windows1251}, "mk": {override.Windows1251}, "be": {override.Windows1251},
	"el": {override.Windows1253, override.ISO8859_7}, "tr": {override.Windows1254},
	"he": {override.Windows1255, override.ISO8859_8},
	"ar": {override.Windows1256, override.ISO8859_6}, "fa": {override.Windows1256},
	"lt": {override.Windows1257, override.ISO8859_13}, "lv": {override.Windows1257, override.ISO8859_13},
	"et": {override.Windows1257}, "vi": {override.Windows1258}, "th": {override.Windows874},
	"ja": {override.ShiftJIS, override.EUCJP, override.ISO2022JP}, "zh-CN": {override.GBK},
	"zh-TW": {override.Big5}, "ko": {override.EUCKR},
}

// TestHeldOut checks a minimum accuracy on the committed sample of
// held-out text (see testdata/README.md): a little under what the full
// evaluation measures, so that a regression fails.
func TestHeldOut(t *testing.T) {
	files, err := filepath.Glob("testdata/heldout/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no held-out sample: %v", err)
	}
	prefixes := []struct {
		name string
		n    int
		min  float64
	}{{"whole", 1 << 30, 0.97}, {"1KB", 1024, 0.96}, {"256B", 256, 0.95}}
	var right_, total [3]int
	d := detect.New()
	for _, f := range files {
		lang := strings.TrimSuffix(filepath.Base(f), ".txt")
		encs, ok := heldOut[lang]
		if !ok {
			t.Errorf("%s: no encodings for %q", f, lang)
			continue
		}
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range bytes.Split(text, []byte("\n\f\n")) {
			if len(doc) == 0 {
				continue
			}
			for _, enc := range encs {
				b, _ := corpus.Encode(enc, string(doc))
				for i, p := range prefixes {
					pre := b[:min(len(b), p.n)]
					if !bytes.ContainsFunc(pre, func(r rune) bool { return r >= 0x80 || r == 0x1b }) {
						continue
					}
					d.Reset()
					d.Feed(pre, false)
					got, _ := d.Guess(detect.Hint{})
					total[i]++
					if right(got, enc, pre) {
						right_[i]++
					} else {
						t.Logf("%s %v %s: got %v", lang, enc, p.name, got)
					}
				}
			}
		}
	}
	for i, p := range prefixes {
		acc := float64(right_[i]) / float64(total[i])
		t.Logf("%s: %d/%d = %.1f %%", p.name, right_[i], total[i], 100*acc)
		if acc < p.min {
			t.Errorf("%s: accuracy %.3f, want at least %.3f", p.name, acc, p.min)
		}
	}
}

// TestEvidenceAtTheEnd covers input whose only non-ASCII bytes end it: a
// lone byte or a cut UTF-8 character is no evidence, and the last chunk makes a cut
// UTF-8 character count against UTF-8.
func TestEvidenceAtTheEnd(t *testing.T) {
	tests := []struct {
		desc string
		in   string
		last bool
		want override.Encoding
		conf detect.Strength
	}{
		{"lone lead byte", "<p>\xFE", false, override.Windows1252, detect.NoEvidence},
		{"lone latin-1 letter", "<p>caf\xE9", true, override.Windows1252, detect.NoEvidence},
		// The start of a UTF-8 character ending a prefix: a guess of
		// UTF-8 (chardetng's answer too); ending the input, nothing.
		{"half a UTF-8 BOM", "\xEF\xBB", false, override.UTF8, detect.Statistical},
		{"half a UTF-8 BOM at EOF", "\xEF\xBB", true, override.Windows1252, detect.NoEvidence},
		{"cut Cyrillic letter", "<p>the disk\n\xD0", false, override.UTF8, detect.Statistical},
		{"lone latin-1 letter ending a prefix", "<p>caf\xE9", false, override.UTF8, detect.Statistical},
		{"cut UTF-8 after a whole one", "<p>caf\xC3\xA9 \xE6\x97", false, override.UTF8, detect.Structural},
		{"cut UTF-8 at EOF", "<p>caf\xC3\xA9 \xE6\x97", true, override.Windows1252, detect.Statistical},
		{"whole UTF-8 at EOF", "<p>caf\xC3\xA9", true, override.UTF8, detect.Structural},
		{"three-byte word", "\xe8\xe4\xe5", false, override.Windows1251, detect.Statistical},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			d := detect.New()
			d.Feed([]byte(tc.in), tc.last)
			hint := detect.Hint{}
			if tc.desc == "three-byte word" {
				hint.TLD = "ru"
			}
			if got, conf := d.Guess(hint); got != tc.want || conf != tc.conf {
				t.Errorf("Guess(%q) = %v, %v, want %v, %v", tc.in, got, conf, tc.want, tc.conf)
			}
		})
	}
}

// TestFeedAfterLast checks chardetng's contract: nothing may follow the
// last chunk but Reset.
func TestFeedAfterLast(t *testing.T) {
	d := detect.New()
	d.Feed([]byte("caf\xe9"), true)
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Feed after the last chunk did not panic")
			}
		}()
		d.Feed(nil, false)
	}()
	d.Reset()
	if d.Feed([]byte("plain"), true) {
		t.Error("Feed after Reset reports non-ASCII input from before Reset")
	}
}

// shortSnippets are short real texts as they stand on undeclared pages: a
// title or a navigation word in the page's legacy encoding. Each must be
// guessed right with its country's TLD as hint. Without a hint the guess
// must be right or the default (windows-1252, with NoEvidence), except for
// the ambiguous ones, whose two or three letters fit other common
// encodings as well: those must at least not be a rare encoding.
//
// Before the short-input rules (shortEvidence), 東京 and 大阪 in Shift_JIS
// were guessed IBM866 (東京 even with .jp), 台北 in Big5 ISO-8859-13 (even
// with .tw), "Price: 5 €" IBM866, naïve windows-1257 and Grüße EUC-KR.
var shortSnippets = []struct {
	enc       override.Encoding
	text      string
	tld       string
	ambiguous bool
}{
	{override.ShiftJIS, "日本", "jp", false},
	{override.ShiftJIS, "東京", "jp", true},
	{override.ShiftJIS, "大阪", "jp", false},
	{override.ShiftJIS, "天気", "jp", true},
	{override.ShiftJIS, "会社概要", "jp", false},
	{override.ShiftJIS, "お問い合わせ", "jp", false},
	{override.ShiftJIS, "ホーム", "jp", false},
	{override.ShiftJIS, "検索", "jp", false},
	{override.EUCJP, "日本", "jp", false},
	{override.EUCJP, "お問い合わせ", "jp", false},
	{override.EUCJP, "東京", "jp", true},
	{override.EUCJP, "会社概要", "jp", true},
	{override.GBK, "中国", "cn", false},
	{override.GBK, "首页", "cn", false},
	{override.GBK, "联系我们", "cn", false},
	{override.GBK, "新闻", "cn", true},
	{override.GBK, "北京", "cn", true},
	{override.Big5, "台灣", "tw", false},
	{override.Big5, "首頁", "tw", false},
	{override.Big5, "新聞", "tw", false},
	{override.Big5, "聯絡我們", "tw", false},
	{override.Big5, "台北", "tw", true},
	{override.EUCKR, "한국", "kr", false},
	{override.EUCKR, "뉴스", "kr", false},
	{override.EUCKR, "회사소개", "kr", false},
	{override.Windows1251, "Главная", "ru", false},
	{override.Windows1251, "Новости", "ru", false},
	{override.Windows1251, "Да", "ru", false},
	{override.Windows1251, "Мир", "ru", false},
	{override.Windows1251, "Київ", "ua", true},
	{override.KOI8R, "Главная", "ru", false},
	{override.KOI8R, "Москва", "ru", false},
	{override.Windows1252, "Réservation", "fr", false},
	{override.Windows1252, "Hôtel", "fr", false},
	{override.Windows1252, "été", "fr", false},
	{override.Windows1252, "À propos", "fr", false},
	{override.Windows1252, "Français", "fr", false},
	{override.Windows1252, "Über uns", "de", false},
	{override.Windows1252, "Grüße", "de", false},
	{override.Windows1252, "Straße", "de", false},
	{override.Windows1252, "España", "es", false},
	{override.Windows1252, "São Paulo", "br", false},
	{override.Windows1252, "naïve", "", false},
	{override.Windows1252, "Price: 5 €", "", false},
	{override.Windows1252, "“Hello”", "", false},
	{override.Windows1252, "Copyright © 2003 – All rights reserved", "", false},
	{override.Windows1250, "Úvod", "cz", false},
	{override.Windows1250, "Česká republika", "cz", false},
	{override.Windows1250, "Žilina", "sk", false},
	{override.ISO8859_2, "Strona główna", "pl", false},
	{override.ISO8859_2, "Gdańsk", "pl", false},
	{override.ISO8859_2, "Łódź", "pl", true},
	{override.ISO8859_2, "Főoldal", "hu", true},
	{override.ISO8859_7, "Αρχική", "gr", false},
	{override.ISO8859_7, "Ελλάδα", "gr", false},
	{override.Windows1254, "Türkçe", "tr", false},
	{override.Windows1254, "İletişim", "tr", false},
	{override.Windows1255, "שלום", "il", false},
	{override.Windows1256, "مرحبا", "sa", false},
	{override.ISO8859_6, "مرحبا", "sa", true},
	{override.Windows874, "หน้าแรก", "th", false},
	{override.Windows1257, "Pradžia", "lt", false},
}

// rareEncodings are those the short-input rules hold back.
var rareEncodings = map[override.Encoding]bool{
	override.IBM866: true, override.ISO8859_5: true, override.ISO8859_6: true,
	override.ISO8859_8: true, override.ISO8859_13: true, override.ISO8859_4: true,
}

func TestShortInputs(t *testing.T) {
	d := detect.New()
	for _, tc := range shortSnippets {
		b := mustEncode(t, tc.enc, tc.text)
		page := append(append([]byte("<html><head><title>"), b...), "</title></head><body><p>Welcome.</p></body></html>"...)
		for _, in := range [][]byte{b, page} {
			hint := detect.Hint{TLD: tc.tld}
			if got, s := feedGuess(d, in, hint); !right(got, tc.enc, in) {
				t.Errorf("%v %q: Guess(%q, %+v) = %v, %v", tc.enc, tc.text, in, hint, got, s)
			}
			got, s := d.Guess(detect.Hint{})
			switch {
			case right(got, tc.enc, in):
			case got == override.Windows1252 && s == detect.NoEvidence:
			case tc.ambiguous && !rareEncodings[got]:
			default:
				t.Errorf("%v %q: Guess(%q) = %v, %v, want %v or the default", tc.enc, tc.text, in, got, s, tc.enc)
			}
		}
	}
}

// TestStrengths: detect's Strength values are those of the detector
// inside the module, which Guess converts as they are.
func TestStrengths(t *testing.T) {
	for _, c := range []struct {
		public   detect.Strength
		internal autodetect.Strength
	}{
		{detect.NoEvidence, autodetect.NoEvidence},
		{detect.Statistical, autodetect.Statistical},
		{detect.Structural, autodetect.Structural},
	} {
		if detect.Strength(c.internal) != c.public || c.public.String() != c.internal.String() {
			t.Errorf("detect's %v is the detector's %v", c.public, c.internal)
		}
	}
}
