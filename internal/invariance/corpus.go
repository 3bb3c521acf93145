// Package invariance holds charsniff's invariance suite: a corpus of a few
// hundred varied HTML documents and tests (in its _test files) that run
// each through every path of the module (fresh and reused readers, every
// chunking, the root package over HTTP, the command on files, pipes,
// batches and WARC files) and require the same encoding, confidence,
// source and text from all of them. The principle: same bytes, same answer.
package invariance

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// A Doc is one document of the corpus.
type Doc struct {
	// Name is unique in the corpus and stable: "samples/x.html",
	// "html5lib/tests1.dat#3", "gen/042-late-meta-shift_jis".
	Name string
	// Data is the document's bytes.
	Data []byte
	// ContentType is the HTTP Content-Type it is served and stored with
	// on the HTTP and WARC paths; never "".
	ContentType string
}

// Seed is the seed of the generated documents: the same seed, the same
// corpus, byte for byte.
const Seed = 23

// Corpus returns the documents of the suite: the module's samples (root is
// the module's directory), the documents of the html5lib encoding tests in
// its testdata, and the generated ones, in that order.
func Corpus(root string) ([]Doc, error) {
	var docs []Doc
	err := eachFile(filepath.Join(root, "samples", "*.*htm*"), func(p string, b []byte) {
		docs = append(docs, Doc{Name: "samples/" + filepath.Base(p), Data: b})
	})
	if err != nil {
		return nil, err
	}
	err = eachFile(filepath.Join(root, "testdata", "html5lib-encoding", "*.dat"), func(p string, b []byte) {
		for i, d := range datDocs(b) {
			docs = append(docs, Doc{Name: fmt.Sprintf("html5lib/%s#%d", filepath.Base(p), i), Data: d})
		}
	})
	if err != nil {
		return nil, err
	}
	if len(docs) < 20 {
		return nil, fmt.Errorf("invariance: only %d documents under %s", len(docs), root)
	}
	docs = append(docs, Generate(Seed)...)
	for i := range docs {
		if docs[i].ContentType == "" {
			docs[i].ContentType = "text/html"
		}
	}
	return docs, nil
}

// eachFile calls f with the path and contents of each file that pattern
// matches, in sorted order, and stops at the first read error.
func eachFile(pattern string, f func(path string, b []byte)) error {
	paths, err := filepath.Glob(pattern)
	if err != nil {
		return err
	}
	sort.Strings(paths)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f(p, b)
	}
	return nil
}

// datDocs returns the #data sections of an html5lib encoding test file.
func datDocs(b []byte) [][]byte {
	var out [][]byte
	for _, part := range bytes.Split(b, []byte("#data\n"))[1:] {
		if i := bytes.Index(part, []byte("\n#encoding")); i >= 0 {
			out = append(out, part[:i])
		}
	}
	return out
}

// A script is an encoding and text in a language it can write.
type script struct {
	label string            // the WHATWG label declared for it
	enc   encoding.Encoding // nil: the label's, in x/text's htmlindex
	text  string
}

var scripts = []script{
	{label: "shift_jis", text: "日本語のページです。文字コードの判定をします。東京、大阪、京都。"},
	{label: "euc-jp", text: "これは日本語の文書です。天気が良いので散歩に行きました。"},
	{label: "iso-2022-jp", text: "漢字とかなの混じった文章。ｶﾀｶﾅも少し。"},
	{label: "euc-kr", text: "한국어 웹 페이지입니다. 문자 인코딩을 확인합니다. 서울과 부산."},
	{label: "gbk", text: "这是一个中文网页。我们检查字符编码。北京和上海的天气很好。"},
	{label: "gb18030", text: "中文网页，编码为国标。€ 和 ḿ 也可以。"},
	{label: "big5", text: "這是一個繁體中文網頁。我們檢查字元編碼。臺北和高雄。"},
	{label: "windows-1251", text: "Это русская страница. Проверяем кодировку символов. Москва и Киев."},
	{label: "koi8-r", text: "Русский текст в кодировке КОИ-8. Съешь же ещё этих мягких булок."},
	{label: "windows-1252", text: "Ça déjà été l’été à Zürich — «naïve» façade, œuvre, smörgåsbord €."},
	{label: "iso-8859-2", text: "Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy."},
	{label: "iso-8859-7", text: "Αυτή είναι μια ελληνική σελίδα. Καλημέρα κόσμε."},
	{label: "windows-1256", text: "هذه صفحة باللغة العربية. نتحقق من ترميز الأحرف."},
	{label: "windows-1255", text: "זהו דף אינטרנט בעברית. אנחנו בודקים את קידוד התווים."},
	{label: "utf-8", text: "UTF-8: 日本語, 한국어, Русский, Ελληνικά, عربي, emoji 😀 and ü."},
}

// encode returns s in sc's encoding, unrepresentable runes replaced.
func (sc script) encode(s string) []byte {
	e := sc.enc
	if e == nil {
		var err error
		if e, err = htmlindex.Get(sc.label); err != nil {
			panic(err) // the labels of scripts are x/text's
		}
	}
	b, err := encoding.ReplaceUnsupported(e.NewEncoder()).Bytes([]byte(s))
	if err != nil {
		panic(err) // a replacing encoder does not fail
	}
	return b
}

// gen holds the state of Generate.
type gen struct {
	rng  *rand.Rand
	docs []Doc
}

func (g *gen) add(kind string, sc script, data []byte, ct string) {
	name := fmt.Sprintf("gen/%03d-%s", len(g.docs), kind)
	if sc.label != "" {
		name += "-" + sc.label
	}
	g.docs = append(g.docs, Doc{Name: name, Data: data, ContentType: ct})
}

func (g *gen) pick() script { return scripts[g.rng.IntN(len(scripts))] }

// filler returns n bytes of ASCII markup.
func (g *gen) filler(n int) []byte {
	words := []string{"lorem", "ipsum", "dolor", "archive", "crawl", "<b>page</b>", "encoding", "&amp;", "<i>x</i>", "sit", "amet"}
	var b bytes.Buffer
	for b.Len() < n {
		if g.rng.IntN(12) == 0 {
			b.WriteString("\n<p>")
		}
		b.WriteString(words[g.rng.IntN(len(words))])
		b.WriteByte(' ')
	}
	return b.Bytes()[:n]
}

// body returns sc's text, repeated a few times, in sc's encoding.
func (g *gen) body(sc script) []byte {
	var s strings.Builder
	for range 1 + g.rng.IntN(6) {
		s.WriteString("<p>")
		s.WriteString(sc.text)
		s.WriteString("</p>\n")
	}
	return sc.encode(s.String())
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// Generate returns the generated documents of the corpus for seed: each
// way of declaring, not declaring and breaking an encoding the suite
// covers, in several encodings and sizes.
func Generate(seed uint64) []Doc {
	g := &gen{rng: rand.New(rand.NewPCG(seed, 0x1a7a))}
	head := func() []byte { return []byte("<!DOCTYPE html>\n<html><head><title>t</title>\n") }
	for _, sc := range scripts {
		// Declared in the window, as charset and as http-equiv.
		g.add("meta", sc, cat(head(), []byte(`<meta charset="`+sc.label+`">`), g.filler(g.rng.IntN(600)), g.body(sc)), "")
		g.add("httpequiv", sc, cat(head(), []byte(`<meta http-equiv="Content-Type" content="text/html; charset=`+sc.label+`">`), g.body(sc)), "")
		// Declared after the first KiB (a late <meta>).
		g.add("late-meta", sc, cat(head(), []byte("<script>/*"), g.filler(1000+g.rng.IntN(8000)), []byte("*/</script>\n<meta charset="+sc.label+">"), g.body(sc)), "")
		// Declared only inside a comment: the prescan skips it.
		g.add("comment-meta", sc, cat(head(), []byte("<!-- <meta charset="+sc.label+"> -->"), g.body(sc)), "")
		// Undeclared: text at once, and after an ASCII head of 1 to 60 KB.
		g.add("undeclared", sc, cat(head(), g.body(sc)), "")
		for _, n := range []int{1 + g.rng.IntN(1023), 1024 + g.rng.IntN(4096), 5000 + g.rng.IntN(55000)} {
			g.add(fmt.Sprintf("ascii-head-%d", n), sc, cat(g.filler(n), g.body(sc)), "")
		}
		// CR LF, lone CR and NUL bytes in the text.
		b := cat(head(), []byte(`<meta charset="`+sc.label+`">`), g.body(sc))
		b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
		g.add("crlf", sc, b, "")
		b = cat(g.filler(g.rng.IntN(2000)), g.body(sc))
		b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r"))
		g.add("cr", sc, b, "")
		b = cat(head(), g.body(sc), []byte("\x00a\x00\r\n\x00"), g.body(sc))
		g.add("nul", sc, b, "")
		// A multi-byte sequence cut off at the end.
		b = cat(head(), g.body(sc))
		for len(b) > 0 && b[len(b)-1] < 0x80 {
			b = b[:len(b)-1]
		}
		if len(b) > 0 {
			g.add("truncated", sc, b[:len(b)-1], "")
		}
		// Stored with a charset in its Content-Type (the WARC and HTTP
		// paths only; the reference without it is sniffed).
		g.add("transport", sc, cat(head(), g.body(sc)), "text/html; charset="+sc.label)
	}
	// XML declarations.
	for _, label := range []string{"shift_jis", "big5", "euc-kr", "windows-1251", "utf-8", "iso-8859-2"} {
		sc := byLabel(label)
		g.add("xmldecl", sc, cat([]byte(`<?xml version="1.0" encoding="`+sc.label+`"?>`+"\n<html xmlns=\"http://www.w3.org/1999/xhtml\">"), g.body(sc)), "application/xhtml+xml")
	}
	// UTF-16 with and without a byte order mark, and UTF-8 with one.
	for _, e := range []struct {
		name string
		enc  encoding.Encoding
	}{
		{"utf-16le-bom", unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)},
		{"utf-16be-bom", unicode.UTF16(unicode.BigEndian, unicode.UseBOM)},
		{"utf-16le-nobom", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)},
		{"utf-16be-nobom", unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)},
		{"utf-8-bom", unicode.UTF8BOM},
	} {
		for _, n := range []int{0, 200, 3000} {
			sc := script{enc: e.enc, text: scripts[g.rng.IntN(len(scripts))].text}
			b := sc.encode(string(head()) + `<meta charset="utf-16">` + string(g.filler(n)) + "\r\n" + sc.text + "\x00")
			g.add(fmt.Sprintf("%s-%d", e.name, n), script{}, b, "")
		}
	}
	// Tiny and odd inputs.
	for _, s := range []string{"", "a", "\xe3", "\xff", "\xfe", "\r", "\x00", "\xef\xbb", "\xff\xfe", "\xfe\xff", "\xef\xbb\xbf", "<", "<meta charset=gbk>", "\r\n\r\n"} {
		g.add("tiny", script{}, []byte(s), "")
	}
	// Random bytes, ASCII-heavy and not.
	for i := range 8 {
		b := make([]byte, g.rng.IntN(5000))
		for j := range b {
			if i%2 == 0 && g.rng.IntN(4) != 0 {
				b[j] = byte(0x20 + g.rng.IntN(0x5f))
			} else {
				b[j] = byte(g.rng.IntN(256))
			}
		}
		if len(b) > 0 && (b[0] == 0x1f || b[0] == 0x28) {
			b[0] = '<' // never a gzip or zstd magic number
		}
		g.add("random", script{}, b, "")
	}
	// Mixed: a window declaring one encoding, text in another.
	for range 10 {
		a, b := g.pick(), g.pick()
		g.add("mismatch-"+a.label, b, cat(head(), []byte("<meta charset="+a.label+">"), g.body(b)), "")
	}
	// Large: ASCII text for more than the look-ahead, then non-ASCII.
	for _, sc := range []script{byLabel("windows-1251"), byLabel("utf-8"), byLabel("shift_jis")} {
		g.add("beyond-lookahead", sc, cat(head(), g.filler(70000+g.rng.IntN(10000)), g.body(sc)), "")
	}
	// Larger than the command holds in memory for a record or a part
	// (1 MiB): a page in text at once, and one ASCII for more than 1 MiB.
	big := byLabel("euc-kr")
	var b bytes.Buffer
	b.Write(head())
	for b.Len() < 1200<<10 {
		b.Write(g.body(big))
	}
	g.add("large", big, b.Bytes(), "")
	big = byLabel("windows-1251")
	g.add("large-ascii-head", big, cat(head(), g.filler(1100<<10), g.body(big)), "")
	// As long as the window, give or take a byte, and ending inside a
	// character: whether the source says EOF with its last bytes or on
	// the next read must not matter (FuzzLateMeta found that it did).
	for _, tail := range []string{"\xc7\x90\xc7", "\x82\xa0\x82", "\xa4\xa4\xa4", "\xe3\x81"} {
		for _, n := range []int{1023, 1024, 1025} {
			b := cat(g.filler(n-len(tail)), []byte(tail))
			g.add(fmt.Sprintf("window-%d-cut", n), script{}, b[len(b)-n:], "")
		}
	}
	// The same, after a <meta> that the parser meets and the prescan
	// does not (the tokenizer ends the comment at "--!>"): the <meta>
	// decides, the detector's guess at EOF does not.
	meta := []byte("<!-- --!><meta charset=koi8-r>-->")
	g.add("window-cut-meta", script{}, cat(meta, g.filler(1022-len(meta)), []byte("\xe3\x81")), "")
	// English strings with curly quotes in windows-1255, then Hebrew
	// ("שלום עולם, זהו קובץ הגדרות. המשתנה חסר ערך.", twice): the
	// quotes, the same in every windows encoding, neither decide nor keep
	// a guess, nor make the text read as Latin script: the Hebrew
	// decides.
	quotes := bytes.Repeat([]byte("Key file contains key \x93%s\x94 in group \x93%s\x94\n"), 40)
	hebrew := bytes.Repeat([]byte("\xf9\xec\xe5\xed \xf2\xe5\xec\xed, \xe6\xe4\xe5 \xf7\xe5\xe1\xf5 \xe4\xe2\xe3\xf8\xe5\xfa. \xe4\xee\xf9\xfa\xf0\xe4 \xe7\xf1\xf8 \xf2\xf8\xea.\n"), 2)
	g.add("quotes-hebrew", script{}, cat(head(), quotes, hebrew), "")
	return g.docs
}

func byLabel(label string) script {
	for _, sc := range scripts {
		if sc.label == label {
			return sc
		}
	}
	panic("invariance: no script " + label)
}
