package decode_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// waitTexts are texts of undeclared pages, long enough for the detector
// to be sure once it sees them whole.
var waitTexts = map[string]string{
	"big5": strings.Repeat("繁體中文的新聞摘要：今天臺北的天氣晴朗，氣溫二十五度。"+
		"政府宣布新的交通政策，市民反應熱烈，專家認為這項措施將改善都市生活。", 12),
	"shift_jis": strings.Repeat("日本語の記事です。東京の天気は晴れで、気温は二十度です。"+
		"政府は新しい交通政策を発表し、市民の反応は良好でした。", 12),
	"iso-8859-7": strings.Repeat("Άρθρο: Η Ελλάδα είναι χώρα της νοτιοανατολικής Ευρώπης. "+
		"Άνθρωποι από όλο τον κόσμο έρχονται κάθε καλοκαίρι στα νησιά. ", 12),
	"windows-874": strings.Repeat("ภาษาไทยเป็นภาษาราชการของประเทศไทย วันนี้อากาศดีมาก "+
		"ผู้คนจำนวนมากเดินทางไปเที่ยวทะเลในช่วงวันหยุดยาว ", 12),
	"windows-1252": strings.Repeat("Über die Brücke gingen fünf Männer, während die Mädchen "+
		"schöne Lieder über Grüße und Größe sangen; später aßen sie Käse. ", 20),
}

// waitPage builds an undeclared page: an ASCII head with, at the given
// offsets, the few non-ASCII words sprinkled (in label's encoding), ASCII
// filler up to textAt, then waitTexts[label]. It returns the page and the
// offset of its first non-ASCII byte.
func waitPage(t testing.TB, label string, sprinkle map[int]string, textAt int) ([]byte, int) {
	e := enc(label)
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html><head><title>News</title></head>\n<body>\n")
	filler := "<div class=item><a href=\"/news/item\">Read more</a> about it here.</div>\n"
	for _, at := range sortedKeys(sprinkle) {
		for b.Len() < at {
			b.WriteString(filler[:min(len(filler), at-b.Len())])
		}
		b.Write(encodeText(t, e, sprinkle[at]))
	}
	for b.Len() < textAt {
		b.WriteString(filler[:min(len(filler), textAt-b.Len())])
	}
	b.WriteString("<p>")
	b.Write(encodeText(t, e, waitTexts[label]))
	b.WriteString("</p></body></html>\n")
	return b.Bytes(), bytes.IndexFunc(b.Bytes(), func(r rune) bool { return r >= 0x80 })
}

func sortedKeys(m map[int]string) []int {
	var k []int
	for i := range m {
		k = append(k, i)
	}
	for i := range k {
		for j := i + 1; j < len(k); j++ {
			if k[j] < k[i] {
				k[i], k[j] = k[j], k[i]
			}
		}
	}
	return k
}

// TestDetectorWaits holds the cases of issue 24: pages whose first
// non-ASCII bytes (in the window or after it) are too few to tell the
// encoding, followed by plenty of text. The Reader must not commit on the
// few: it holds its output from the first non-ASCII byte, reads on within
// the look-ahead, and decides on the text; the output is the page decoded
// in the right encoding, under every chunking, and Result says what was
// decided where. With the window alone the guess stays the window's.
func TestDetectorWaits(t *testing.T) {
	tests := []struct {
		desc     string
		label    string
		sprinkle map[int]string
		textAt   int
	}{
		// A feed whose window holds 8 non-ASCII bytes: four symbols.
		{"Big5 feed", "big5", map[int]string{300: "◎", 500: "★", 700: "→", 900: "※"}, 3000},
		// A page whose window holds a few symbols, then the article.
		{"Shift_JIS page", "shift_jis", map[int]string{300: "【", 600: "★", 900: "】"}, 6000},
		// A feed whose window holds a few Greek words common to
		// windows-1253 and ISO-8859-7; the Ά of the text tells them apart.
		{"Greek feed", "iso-8859-7", map[int]string{400: "Ειδήσεις", 900: "νέα"}, 2000},
		// All ASCII for 26 KB, â at 26819 and ý at 27124, then German
		// text after 40683.
		{"German page", "windows-1252", map[int]string{26817: "Château", 27123: "Mýto"}, 40683},
		// After the window, three Thai words whose windows-874 bytes
		// (E0 A1 A1) happen to be valid UTF-8, then Thai text that is not.
		{"Thai page", "windows-874", map[int]string{2000: "เกก เกก เกก"}, 2300},
	}
	for _, tc := range tests {
		doc, first := waitPage(t, tc.label, tc.sprinkle, tc.textAt)
		want := enc(tc.label)
		wantOut := refDecode(t, want, doc, false, full, true)
		// The window's (or the first bytes') guess, for Late.From.
		win := sniff.Sniff(doc[:sniff.DefaultWindow], nil)
		from := win.Encoding
		if first >= sniff.DefaultWindow {
			from = override.Windows1252
		} else if win.Source != sniff.SourceAutodetect && win.Source != sniff.SourceDefault {
			// A provisional guess of the detector, or the default where
			// the few bytes are no evidence at all (detect's Latin and
			// short-input rules): either way tentative, to be revisited.
			t.Fatalf("%s: the window's sniffing = %+v, want a guess of the detector or the default", tc.desc, win)
		}
		kind := decode.SwitchedOnTheFly
		switch {
		case from != want:
		case first >= sniff.DefaultWindow:
			// The default was right; detection says so (Source).
			kind = decode.SameEncoding
		default:
			t.Fatalf("%s: the window alone already guesses %v: not a test of waiting", tc.desc, want)
		}
		for _, src := range chunkings {
			desc := fmt.Sprintf("%s, %s", tc.desc, src.Name)
			r, err := decode.NewReader(src.Wrap(bytes.NewReader(doc)))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, wantOut) {
				t.Errorf("%s: output differs (%v): %d bytes, want %d; at the end %q, want %q", desc, err, len(got), len(wantOut), tail(got), tail(wantOut))
			}
			res := r.Result()
			wantRes := sniff.Result{Encoding: want, Confidence: sniff.Tentative, Source: sniff.SourceAutodetect}
			wantLate := decode.Change{Kind: kind, From: from, To: want, Offset: int64(first)}
			if res.Result != wantRes || res.Late != wantLate {
				t.Errorf("%s: Result() = %+v, want %+v, Late %+v", desc, res, wantRes, wantLate)
			}
		}
		// The window alone: the standard's sniffing, final at once.
		if first < sniff.DefaultWindow {
			r, _ := decode.NewReader(bytes.NewReader(doc), windowOnly)
			io.ReadAll(r)
			if got := r.Result().Encoding; got != from {
				t.Errorf("%s, window alone: Result().Encoding = %v, want the window's %v", tc.desc, got, from)
			}
		}
	}
}

// waitDocs are the pages of TestDetectorWaits.
func waitDocs(t testing.TB) [][]byte {
	var docs [][]byte
	for _, c := range []struct {
		label    string
		sprinkle map[int]string
		textAt   int
	}{
		{"big5", map[int]string{300: "◎", 500: "★", 700: "→", 900: "※"}, 3000},
		{"shift_jis", map[int]string{300: "【", 600: "★", 900: "】"}, 6000},
		{"iso-8859-7", map[int]string{400: "Ειδήσεις", 900: "νέα"}, 2000},
	} {
		doc, _ := waitPage(t, c.label, c.sprinkle, c.textAt)
		docs = append(docs, doc)
	}
	return docs
}

// TestDetectorWaitsReset resets a Reader that stopped at Decided while it
// held the text after a provisional guess of the window: the next stream
// must come out as from a fresh Reader.
func TestDetectorWaitsReset(t *testing.T) {
	docs := waitDocs(t)
	for i, doc := range docs {
		next := docs[(i+1)%len(docs)]
		fresh, _ := decode.NewReader(bytes.NewReader(next))
		want, _ := io.ReadAll(fresh)
		r, _ := decode.NewReader(bytes.NewReader(doc))
		buf := make([]byte, 10)
		for !r.Result().Decided {
			if _, err := r.Read(buf); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Reset(bytes.NewReader(next)); err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		if r.Result() != fresh.Result() || !bytes.Equal(got, want) {
			t.Errorf("doc %d, after Reset: %+v, %d bytes\nfresh:       %+v, %d bytes", i, r.Result(), len(got), fresh.Result(), len(want))
		}
	}
}

// TestDetectorWaitsLookahead: the Reader looks no further than its
// lookahead past the first non-ASCII byte. With a lookahead that ends
// before the Big5 text, it decides on the symbols alone (the window's
// guess stands) and reads no more than the window and the lookahead
// before it does.
func TestDetectorWaitsLookahead(t *testing.T) {
	doc := waitDocs(t)[0]
	first := bytes.IndexFunc(doc, func(r rune) bool { return r >= 0x80 })
	win := sniff.Sniff(doc[:sniff.DefaultWindow], nil)
	const ahead = 1500 // past the window, before the text at 3000
	c := &countingReader{r: bytes.NewReader(doc)}
	r, _ := decode.NewReader(c, decode.WithLookahead(ahead))
	buf := make([]byte, 64)
	for !r.Result().Decided {
		if _, err := r.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	if limit := first + ahead + 4<<10; c.n > limit {
		t.Errorf("read %d bytes before deciding, want at most %d", c.n, limit)
	}
	if res := r.Result(); res.Result != win || res.Late.Kind != decode.NoChange {
		t.Errorf("Result() = %+v, want the window's %+v and no change", res, win)
	}
}

// TestDetectorWaitsAllocs: a Reader reset for each page, holding the text
// after a provisional guess, allocates nothing once warm.
func TestDetectorWaitsAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	docs := waitDocs(t)
	src := bytes.NewReader(nil)
	r, _ := decode.NewReader(src)
	var sink discard
	run := func() {
		for _, doc := range docs {
			src.Reset(doc)
			r.Reset(src)
			r.WriteTo(&sink)
		}
	}
	run()
	if a := testing.AllocsPerRun(20, run); a != 0 {
		t.Errorf("Reset and reading while the detector waits: %v allocations, want 0", a)
	}
}

// TestDetectorWaitsConfirms: when the text confirms the window's
// provisional guess, nothing changes: the Result is the window's, with no
// late change, and the output is the page in that encoding.
func TestDetectorWaitsConfirms(t *testing.T) {
	// 12 non-ASCII bytes: enough for the detector to guess Big5, too few
	// (sniff.EnoughEvidence) to keep the guess.
	doc, _ := waitPage(t, "big5", map[int]string{300: "新聞摘要", 700: "今日"}, 3000)
	win := sniff.Sniff(doc[:sniff.DefaultWindow], nil)
	if win.Encoding != override.Big5 || win.Source != sniff.SourceAutodetect || !sniff.Provisional(doc[:sniff.DefaultWindow], win, nil) {
		t.Fatalf("the window's sniffing = %+v, want a provisional Big5 guess", win)
	}
	want := refDecode(t, override.Big5, doc, false, full, true)
	for _, src := range chunkings {
		r, _ := decode.NewReader(src.Wrap(bytes.NewReader(doc)))
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: output differs (%v): at the end %q, want %q", src.Name, err, tail(got), tail(want))
		}
		if res := r.Result(); res.Result != win || res.Late.Kind != decode.NoChange {
			t.Errorf("%s: Result() = %+v, want the window's %+v and no change", src.Name, res, win)
		}
	}
}

// TestDetectorWaitsEnd: after an ASCII window, held text with too few
// non-ASCII bytes to be sure, ending the input at or near a length at
// which late autodetection asks (256, 512, 1024 bytes), is decided by the
// detector over all of it: the answer of the autodetection step for the
// held bytes as the whole input. Late autodetection skips the guesses
// that cannot be sure (sniff.Autodetector.CanBeSure), so the guess over
// the whole text must still be made when it ends at such a length.
func TestDetectorWaitsEnd(t *testing.T) {
	head := strings.Repeat("<div class=item><a href=\"/news/item\">Read more</a> about it.</div>\n", 20)
	word := encodeText(t, enc("windows-1251"), "Привет")
	for _, n := range []int{255, 256, 257, 511, 512, 1024, 1025} {
		held := append([]byte(nil), word...)
		for len(held) < n {
			held = append(held, "<p>read on</p>\n"[:min(15, n-len(held))]...)
		}
		want := sniff.Sniff(held, &sniff.Options{AtEOF: true})
		if want.Source != sniff.SourceAutodetect || want.Encoding == override.Windows1252 {
			t.Fatalf("held %d: Sniff = %+v, want an autodetected encoding other than the default", n, want)
		}
		page := append([]byte(head), held...)
		for _, src := range []io.Reader{bytes.NewReader(page), iotest.OneByteReader(bytes.NewReader(page))} {
			r, err := decode.NewReader(src)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, r); err != nil {
				t.Fatal(err)
			}
			if got := r.Result(); got.Encoding != want.Encoding || got.Late.Offset != int64(len(head)) {
				t.Errorf("held %d: Result %v, late %+v; want %v at %d", n, got.Encoding, got.Late, want.Encoding, len(head))
			}
		}
	}
}
