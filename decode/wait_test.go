package decode_test

import (
	"bytes"
	"fmt"
	"io"
	"iter"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/autodetect"
	"github.com/charsniff/charsniff/internal/firsterr"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// readChunked reads doc through a new Reader with opts under each of
// chunkings, reports an output that is not want (desc names the case),
// and yields each chunking's name and Reader, read to the end, for the
// caller's checks of Result.
func readChunked(t *testing.T, desc string, doc, want []byte, opts ...decode.Option) iter.Seq2[string, *decode.Reader] {
	return func(yield func(string, *decode.Reader) bool) {
		for _, src := range chunkings {
			r, err := decode.NewReader(src.Wrap(bytes.NewReader(doc)), opts...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s, %s: output differs (%v): %d bytes, want %d; at the end %q, want %q",
					desc, src.Name, err, len(got), len(want), tail(got), tail(want))
			}
			if !yield(desc+", "+src.Name, r) {
				return
			}
		}
	}
}

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
		// A page whose look-ahead holds a few symbols past an ASCII
		// window, then the article. (In the window, 【★】 are enough
		// for Shift_JIS now: EUC-KR reads lead byte 0x81 as a syllable
		// outside KS X 1001, which detect counts as the rarest.)
		{"Shift_JIS page", "shift_jis", map[int]string{1500: "【", 1800: "★", 2100: "】"}, 6000},
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
		for desc, r := range readChunked(t, tc.desc, doc, wantOut) {
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

// TestResetAfterDecided resets a Reader that stopped at Decided while it
// still held text read ahead: after a late non-ASCII byte, or after a
// provisional guess of the window that the detector waited to confirm. The
// next stream must come out as from a fresh Reader, without the held bytes.
func TestResetAfterDecided(t *testing.T) {
	late := []byte("<html>" + strings.Repeat("abc ", 400) + "\xe9t\xe9" + strings.Repeat("xyz ", 3000) + "</html>")
	type pair struct {
		desc        string
		first, next []byte
	}
	pairs := []pair{
		{"late, then XML Shift_JIS", late, []byte("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<rss>" + strings.Repeat("abc ", 400) + "\x82\xa0\x82\xa2</rss>")},
		{"late, then XML Big5", late, []byte("<?xml version=\"1.0\" encoding=\"Big5\"?>\n<rss>" + strings.Repeat("abc ", 400) + "\xa4\xa4\xa4\xe5</rss>")},
		{"late, then late", late, late},
	}
	docs := waitDocs(t)
	for i, doc := range docs {
		pairs = append(pairs, pair{fmt.Sprintf("wait doc %d, then the next", i), doc, docs[(i+1)%len(docs)]})
	}
	for _, p := range pairs {
		fresh, _ := decode.NewReader(bytes.NewReader(p.next))
		want, _ := io.ReadAll(fresh)
		r, _ := decode.NewReader(bytes.NewReader(p.first))
		buf := make([]byte, 10)
		for !r.Result().Decided {
			if _, err := r.Read(buf); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Reset(bytes.NewReader(p.next)); err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		if r.Result() != fresh.Result() || !bytes.Equal(got, want) {
			t.Errorf("%s, after Reset: %+v, %d bytes\nfresh:       %+v, %d bytes", p.desc, r.Result(), len(got), fresh.Result(), len(want))
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
	c := &firsterr.Reader{R: bytes.NewReader(doc)}
	r, _ := decode.NewReader(c, decode.WithLookahead(ahead))
	buf := make([]byte, 64)
	for !r.Result().Decided {
		if _, err := r.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	if limit := int64(first + ahead + 4<<10); c.N > limit {
		t.Errorf("read %d bytes before deciding, want at most %d", c.N, limit)
	}
	if res := r.Result(); res.Result != win || res.Late.Kind != decode.NoChange {
		t.Errorf("Result() = %+v, want the window's %+v and no change", res, win)
	}
}

// TestDetectorWaitsAllocs: a Reader reset for each page, holding the text
// after a provisional guess, allocates nothing once warm.
func TestDetectorWaitsAllocs(t *testing.T) {
	if testutil.Race {
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
	// (autodetect.EnoughEvidence) to keep the guess.
	doc, _ := waitPage(t, "big5", map[int]string{300: "新聞摘要", 700: "今日"}, 3000)
	win := sniff.Sniff(doc[:sniff.DefaultWindow], nil)
	var auto autodetect.Autodetector
	defer auto.Release()
	auto.Window(doc[:sniff.DefaultWindow], &autodetect.Config{}, false)
	if win.Encoding != override.Big5 || win.Source != sniff.SourceAutodetect || !auto.Provisional() {
		t.Fatalf("the window's sniffing = %+v, want a provisional Big5 guess", win)
	}
	want := refDecode(t, override.Big5, doc, false, full, true)
	for desc, r := range readChunked(t, "Big5", doc, want) {
		if res := r.Result(); res.Result != win || res.Late.Kind != decode.NoChange {
			t.Errorf("%s: Result() = %+v, want the window's %+v and no change", desc, res, win)
		}
	}
}

// TestDetectorWaitsEnd: after an ASCII window, held text with too few
// non-ASCII bytes to be sure, ending the input at or near a length at
// which late autodetection asks (256, 512, 1024 bytes), is decided by the
// detector over all of it: the answer of the autodetection step for the
// held bytes as the whole input. Late autodetection skips the guesses
// that cannot be sure (autodetect.Autodetector.CanBeSure), so the guess over
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

// TestSettle checks Reader.Settle: it reads until Decided, appends the
// text it read to buf and loses none of it (the text after it is the
// rest), stops at max bytes undecided, keeps nothing and reads as far as
// the decision needs with a negative max, and returns a source error but
// not io.EOF, whatever the chunking.
func TestSettle(t *testing.T) {
	ascii := strings.Repeat("<p>plain ASCII</p>\n", 200)                   // 3800 bytes
	tail := strings.Repeat("<p>more text</p>\n", 1000)                     // 17 KB
	late := "<html>" + ascii + "caf\xe9 na\xefve r\xe9sum\xe9 \xe0" + tail // decided by late detection
	tests := []struct {
		name     string
		doc      string
		max      int
		decided  bool // Decided after Settle
		minText  int  // Settle's text at least this long (in its bounds)
		wantEnc  string
		wantFrom sniff.Source
	}{
		{"late non-ASCII, unbounded", late, 1 << 20, true, len(ascii), "windows-1252", sniff.SourceAutodetect},
		{"late non-ASCII, discard", late, -1, true, 0, "windows-1252", sniff.SourceAutodetect},
		{"late non-ASCII, bounded", late, 1000, false, 1000, "windows-1252", sniff.SourceDefault},
		{"late meta", "<html>" + ascii + `<meta charset="koi8-r">` + "\xf0\xd2" + tail, 1 << 20, true, len(ascii), "koi8-r", sniff.SourcePrescan},
		{"meta in window", `<meta charset="euc-kr">` + ascii, 1 << 20, true, 0, "euc-kr", sniff.SourcePrescan},
		{"all ASCII to the end", ascii + ascii, 1 << 20, true, 2 * len(ascii), "windows-1252", sniff.SourceDefault},
		{"all ASCII, discard", ascii + ascii, -1, true, 0, "windows-1252", sniff.SourceDefault},
		{"max 0", late, 0, false, 0, "windows-1252", sniff.SourceDefault},
		{"empty", "", 100, true, 0, "windows-1252", sniff.SourceDefault},
	}
	for _, tc := range tests {
		for _, ch := range chunkings {
			fresh, _ := decode.NewReader(strings.NewReader(tc.doc))
			want, _ := io.ReadAll(fresh)
			r, _ := decode.NewReader(ch.Wrap(strings.NewReader(tc.doc)))
			prefix := []byte("kept:")
			got, err := r.Settle(prefix[:len(prefix):len(prefix)], tc.max)
			if err != nil {
				t.Errorf("%s, %s: Settle error %v", tc.name, ch.Name, err)
			}
			if !bytes.HasPrefix(got, prefix) {
				t.Fatalf("%s, %s: Settle lost buf: %.20q", tc.name, ch.Name, got)
			}
			text := got[len(prefix):]
			if tc.max >= 0 && len(text) > tc.max {
				t.Errorf("%s, %s: Settle read %d bytes, max %d", tc.name, ch.Name, len(text), tc.max)
			}
			if tc.max < 0 && len(text) != 0 {
				t.Errorf("%s, %s: Settle with max < 0 kept %d bytes", tc.name, ch.Name, len(text))
			}
			if len(text) < tc.minText {
				t.Errorf("%s, %s: Settle read %d bytes, want at least %d", tc.name, ch.Name, len(text), tc.minText)
			}
			if r.Result().Decided != tc.decided {
				t.Errorf("%s, %s: Decided() = %v, want %v", tc.name, ch.Name, r.Result().Decided, tc.decided)
			}
			res := r.Result()
			if res.Encoding != enc(tc.wantEnc) || res.Source != tc.wantFrom {
				t.Errorf("%s, %s: Result %v %v, want %s %v", tc.name, ch.Name, res.Encoding, res.Source, tc.wantEnc, tc.wantFrom)
			}
			rest, _ := io.ReadAll(r)
			if tc.max >= 0 {
				// Nothing lost: Settle's text and the rest are the whole.
				if whole := append(text, rest...); !bytes.Equal(whole, want) {
					t.Errorf("%s, %s: Settle's text + rest = %d bytes, want %d", tc.name, ch.Name, len(whole), len(want))
				}
			} else if !bytes.HasSuffix(want, rest) {
				t.Errorf("%s, %s: rest after discarding Settle is not the end of the text", tc.name, ch.Name)
			}
			if r.Result() != fresh.Result() {
				t.Errorf("%s, %s: final %+v, fresh %+v", tc.name, ch.Name, r.Result(), fresh.Result())
			}
		}
	}
}

// TestSettleErrors: a source error stops Settle, which returns it with the
// text before it; the next Settle reads the source again (a transient
// error loses nothing). io.EOF is not an error.
func TestSettleErrors(t *testing.T) {
	doc := "<html>" + strings.Repeat("<p>plain ASCII</p>\n", 200) + "caf\xe9"
	for _, max := range []int{1 << 20, -1} {
		r, _ := decode.NewReader(iotest.TimeoutReader(strings.NewReader(doc)))
		got, err := r.Settle(nil, max)
		if err != iotest.ErrTimeout {
			t.Fatalf("max %d: Settle error %v, want %v", max, err, iotest.ErrTimeout)
		}
		more, err := r.Settle(got, max)
		if err != nil || !r.Result().Decided {
			t.Fatalf("max %d: second Settle: %v, decided %v", max, err, r.Result().Decided)
		}
		rest, _ := io.ReadAll(r)
		if max >= 0 && string(append(more, rest...)) != "<html>"+strings.Repeat("<p>plain ASCII</p>\n", 200)+"café" {
			t.Errorf("max %d: text lost across the timeout: %d + %d bytes", max, len(more), len(rest))
		}
		fresh, _ := decode.NewReader(strings.NewReader(doc))
		io.ReadAll(fresh)
		if r.Result() != fresh.Result() {
			t.Errorf("max %d: Result %+v, fresh %+v", max, r.Result(), fresh.Result())
		}
	}
	r, _ := decode.NewReader(iotest.ErrReader(errSource))
	if _, err := r.Settle(nil, 100); err != errSource {
		t.Errorf("Settle error %v, want %v", err, errSource)
	}
	var zero decode.Reader
	if b, err := zero.Settle(nil, 100); err != nil || len(b) != 0 || !zero.Result().Decided {
		t.Errorf("zero Reader: Settle = %q, %v", b, err)
	}
}

// TestSettleReadRune: text ReadRune read ahead is Settle's text first.
func TestSettleReadRune(t *testing.T) {
	doc := "ab<html>" + strings.Repeat("<p>plain ASCII</p>\n", 200) + "caf\xe9"
	fresh, _ := decode.NewReader(strings.NewReader(doc))
	want, _ := io.ReadAll(fresh)
	r, _ := decode.NewReader(strings.NewReader(doc))
	c, _, _ := r.ReadRune()
	got, err := r.Settle([]byte{byte(c)}, 1<<20)
	rest, _ := io.ReadAll(r)
	if err != nil || string(append(got, rest...)) != string(want) {
		t.Errorf("ReadRune, Settle, ReadAll = %q, %v; want %q", append(got, rest...), err, want)
	}
	r, _ = decode.NewReader(strings.NewReader(doc))
	r.ReadRune()
	if _, err := r.Settle(nil, -1); err != nil || !r.Result().Decided {
		t.Fatalf("Settle(nil, -1) = %v, decided %v", err, r.Result().Decided)
	}
	if rest, _ := io.ReadAll(r); !bytes.HasSuffix(want, rest) {
		t.Errorf("ReadRune, Settle(nil, -1), ReadAll = %q: not the end of the text", rest)
	}
}

// TestSettleAllocs: a reused Reader settles without allocating, keeping
// the text in a buffer large enough or discarding it.
func TestSettleAllocs(t *testing.T) {
	if testutil.Race {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	doc := []byte("<html>" + strings.Repeat("<p>plain ASCII</p>\n", 200) + "caf\xe9 na\xefve" + strings.Repeat("<p>more</p>\n", 1000))
	src := bytes.NewReader(doc)
	var r decode.Reader
	buf := make([]byte, 0, 1<<20)
	for _, max := range []int{-1, 1 << 20} {
		settle := func() {
			src.Reset(doc)
			r.Reset(src)
			r.Settle(buf[:0], max)
		}
		settle()
		if a := testing.AllocsPerRun(50, settle); a != 0 {
			t.Errorf("Settle(buf, %d) on a reused Reader: %v allocations, want 0", max, a)
		}
	}
}

// TestDetectorWaitsGreekRival: a windows-1253 guess from the window is
// kept once ISO-8859-7, which decodes Greek letters alike, is out of the
// running (“ and ” are C1 controls in ISO-8859-7); while both are in, the
// Reader detects on past the window. Either way the text decides
// windows-1253.
func TestDetectorWaitsGreekRival(t *testing.T) {
	for _, tc := range []struct {
		desc   string
		quoted bool
	}{{"quoted", true}, {"plain", false}} {
		text := "Η Ελλάδα είναι χώρα της νοτιοανατολικής Ευρώπης. "
		if tc.quoted {
			text = "“Η Ελλάδα” είναι χώρα της νοτιοανατολικής Ευρώπης. "
		}
		doc := []byte("<!DOCTYPE html>\n<html><body>\n")
		for len(doc) < 4000 {
			doc = append(doc, "<p>"...)
			doc = append(doc, encodeText(t, enc("windows-1253"), text)...)
			doc = append(doc, "</p>\n"...)
		}
		want := refDecode(t, override.Windows1253, doc, false, full, true)
		for _, src := range chunkings {
			r, err := decode.NewReader(src.Wrap(bytes.NewReader(doc)))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Detecting(); got == tc.quoted {
				t.Errorf("%s, %s: late autodetection open = %v, want %v", tc.desc, src.Name, got, !tc.quoted)
			}
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s, %s: output differs (%v)", tc.desc, src.Name, err)
			}
			if res := r.Result(); res.Encoding != override.Windows1253 || res.Source != sniff.SourceAutodetect || res.Late.Kind != decode.NoChange {
				t.Errorf("%s, %s: Result() = %+v, want windows-1253 from the window, no change", tc.desc, src.Name, res)
			}
		}
	}
}

// TestWindowEndsInCharacter: a window whose only non-ASCII bytes are the
// start of a UTF-8 character cut off by its end. The window's guess is
// UTF-8, provisional (chardetng's answer for such a prefix); what follows
// decides: the rest of the character keeps UTF-8, a Latin-1 text makes it
// windows-1252, and an input that ends inside the character leaves the
// detector no evidence, so the default decides, whether the source says
// EOF with the window's last bytes or on the next read.
func TestWindowEndsInCharacter(t *testing.T) {
	ascii := bytes.Repeat([]byte("<p>Nothing but ASCII here, for a while.</p>\n"), 30)
	tests := []struct {
		desc string
		cut  int // bytes of the character in the window
		rest string
		want override.Encoding
		src  sniff.Source
		late decode.ChangeKind
	}{
		{"the input ends in it", 2, "\xe3\x81", override.Windows1252, sniff.SourceDefault, decode.SwitchedOnTheFly},
		{"the character goes on", 2, "\xe3\x81\x82 and UTF-8 text: caf\xc3\xa9, na\xc3\xafve.\n", override.UTF8, sniff.SourceAutodetect, decode.NoChange},
		{"Latin-1 text", 1, "\xe9t\xe9 \xe0 Paris, caf\xe9, na\xefve, cr\xe8me br\xfbl\xe9e et d\xe9j\xe0 vu.\n", override.Windows1252, sniff.SourceAutodetect, decode.SwitchedOnTheFly},
	}
	for _, tc := range tests {
		head := ascii[:sniff.DefaultWindow-tc.cut]
		first := int64(len(head))
		doc := append(head[:len(head):len(head)], tc.rest...)
		if got := sniff.Sniff(doc[:sniff.DefaultWindow], nil); got.Encoding != override.UTF8 || got.Source != sniff.SourceAutodetect {
			t.Fatalf("%s: the window's sniffing = %+v, want a guess of UTF-8", tc.desc, got)
		}
		want := refDecode(t, tc.want, doc, false, full, true)
		for desc, r := range readChunked(t, tc.desc, doc, want) {
			res := r.Result()
			wantLate := decode.Change{}
			if tc.late != decode.NoChange {
				wantLate = decode.Change{Kind: tc.late, From: override.UTF8, To: tc.want, Offset: first}
			}
			if res.Encoding != tc.want || res.Source != tc.src || res.Late != wantLate {
				t.Errorf("%s: Result() = %+v, want %v from %v, Late %+v", desc, res, tc.want, tc.src, wantLate)
			}
		}
	}
}

// TestWindowEndsInCharacterMeta: as TestWindowEndsInCharacter's first
// case, with a <meta> that the parser meets and the window's prescan does
// not (after a comment the tokenizer ends at "--!>"): the <meta> decides,
// however the source says EOF.
func TestWindowEndsInCharacterMeta(t *testing.T) {
	head := "<!-- --!><meta charset=koi8-r>-->"
	doc := []byte(head + strings.Repeat("x", sniff.DefaultWindow-2-len(head)) + "\xe3\x81")
	if got := sniff.Sniff(doc, nil); got.Encoding != override.UTF8 || got.Source != sniff.SourceAutodetect {
		t.Fatalf("the window's sniffing = %+v, want a guess of UTF-8", got)
	}
	want := refDecode(t, override.KOI8R, doc, false, full, true)
	for desc, r := range readChunked(t, "koi8-r <meta>", doc, want) {
		if res := r.Result(); res.Encoding != override.KOI8R || res.Source != sniff.SourcePrescan {
			t.Errorf("%s: Result() = %+v, want koi8-r from the <meta>", desc, res)
		}
	}
}
