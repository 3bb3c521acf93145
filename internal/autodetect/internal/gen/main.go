// Command gen computes the statistics of the detector (package
// internal/autodetect, which package detect presents) and writes them as
// Go source (tables.go: the sizes, rows and declarations) and binary files
// beside it with the large tables' contents (classes.bin, scores.bin and a
// <name>.bin for each double-byte frequency table), which load.go embeds
// and copies into the arrays tables.go declares.
//
// Usage, from the internal/autodetect directory (go generate runs it so):
//
//	go run ./internal/gen -corpus /tmp/charsniff-corpus -spec ../spec/whatwg-encoding -out tables.go
//
// Inputs: the WHATWG index files vendored in internal/spec/whatwg-encoding
// (what each byte or byte pair of each encoding decodes to) and the
// training half of the text corpus that internal/corpus/fetch.sh gathers
// (translated manual pages and gettext catalogs, per language). The
// held-out half (eval.txt) is never read here.
//
// Outputs, for each group of single-byte encodings that share a script and
// languages: a character class per byte of each encoding, and a matrix of
// scores, one per pair of classes, which is 4*log2 of how likely the
// second class is to follow the first in the group's languages. For each
// double-byte index (jis0208, gb18030, big5, euc-kr): one letter per
// pointer telling how frequent its character is in the language (the
// negative log2 of its relative frequency), or that the pointer is
// unmapped.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/internal/spec"
	"github.com/charsniff/charsniff/override"
)

// Class numbers shared by every group; the letters of each group's
// alphabet follow them. The detector relies on these values.
const (
	classSpace     = 0 // ASCII space, punctuation, controls
	classDigit     = 1 // any digit
	classNBSP      = 2 // non-ASCII space-like characters
	classPunct     = 3 // non-ASCII punctuation (quotes, dashes, guillemets)
	classSymbol    = 4 // other non-ASCII symbols
	classRare      = 5 // a letter of the encoding outside the group's alphabet
	classASCIIBase = 6 // ASCII letters: one class, or a..z for Latin groups
	maxClasses     = 127
	upperBit       = 0x80
	invalid        = 0xFF
)

// Training knobs.
const (
	// scale turns log2 probabilities into table units (quarter bits), so
	// that int8 holds down to 2^-31.
	scale = 4
	// prior is the weight of the class's overall frequency when estimating
	// a pair seen rarely: it smooths the scores of rare first classes.
	prior = 8
	// perLanguage caps each language's share of a group's training text so
	// that the big man page sets do not drown the small languages.
	perLanguage = 1500 << 10
	// minLetter is how often a letter must occur in a group's text to get a
	// class of its own.
	minLetter = 20
	// asciiLetters is the effective number of ASCII letters (2 to the
	// entropy of their distribution in Latin text): a group that has one
	// class for all ASCII letters divides that class's probability by it,
	// so that its scores stay comparable with those of Latin groups, which
	// score each letter.
	asciiLetters = 17
	// rareLetters is the number of letters the rare-letter class stands
	// for, roughly: its probability is divided by it for the same reason.
	rareLetters = 16
	// unseenBucket is the frequency bucket of a CJK character never seen in
	// training: a little rarer than a character seen once.
	unseenExtra = 2
	// unseenExtension is the frequency bucket of a character of an index's
	// extension (see cjkIndex.extension) never seen in training: the
	// rarest there is, not a little rarer than one seen once. The Korean
	// training text (372 k syllables) holds 3 of windows-949's 8822
	// syllables outside KS X 1001, 43 times: pages in EUC-KR were written
	// in KS X 1001's 2350. Their trail bytes (0x41-0xA0) are where
	// Traditional Chinese lands when Big5 is read as EUC-KR, and at
	// unseenExtra a Big5 feed's title (馬力蓮霧 read as 감짵쉬츨) came out
	// EUC-KR (TestBig5Feeds).
	unseenExtension = 31
	// symbolsInUse is how many of the full-width punctuation marks and
	// symbols (cjkIndex.symbol) a text uses often: ，。、「」：（）？！
	// and a few brackets and spaces. Which punctuation a language writes
	// is in the training text, but how often each mark is used depends on
	// the kind of text: manual pages seldom put titles in 【】 or indent
	// with the ideographic space, Web pages often do. So a symbol seen in
	// training is at least as frequent as the symbols' share of the text
	// spread over symbolsInUse of them (2^-7 in the Chinese text, where
	// 【 was 2^-15, the ideographic space 2^-14). Those never seen (the
	// rows' other signs, where text of another index lands) stay rare.
	// Without the floor, a Big5 feed's title 【Leave Something】 and its
	// ideographic spaces, which windows-1252 reads as ¡i and ¡@, put
	// Big5 more than the pruning margin behind before the feed's Chinese
	// text came (TestBig5Feeds); 16 in use (2^-8) was not enough there.
	// The held-out evaluation is the same at 8 and 16.
	symbolsInUse = 8
)

type group struct {
	name    string
	latin   bool                // ASCII letters get a class each
	models  [][]string          // language sets scored separately, with one alphabet
	encs    []override.Encoding // single-byte encodings of the group, the first is primary
	indexes []string            // their WHATWG index names
}

func (g *group) langs() []string {
	var l []string
	for _, m := range g.models {
		l = append(l, m...)
	}
	return l
}

// groups are the single-byte groups. Each model is a set of languages
// close enough in letter pairs to share statistics; a model for a whole
// group would dilute a language's telltale pairs (Italian "è" between
// spaces) among its neighbours'.
var groups = []group{
	{"Western", true, [][]string{{"de"}, {"fr"}, {"it"}, {"es", "ca", "gl"}, {"pt"}, {"nl", "af"},
		{"sv", "da", "nb", "nn", "is"}, {"fi"}, {"id", "eu", "ga"}},
		[]override.Encoding{override.Windows1252}, []string{"windows-1252"}},
	{"Central", true, [][]string{{"cs", "sk"}, {"pl"}, {"hu"}, {"ro"}, {"sl", "hr"}},
		[]override.Encoding{override.Windows1250, override.ISO8859_2}, []string{"windows-1250", "iso-8859-2"}},
	{"Cyrillic", false, [][]string{{"ru", "be"}, {"uk"}, {"bg", "mk", "sr"}},
		[]override.Encoding{override.Windows1251, override.KOI8U, override.ISO8859_5, override.IBM866},
		[]string{"windows-1251", "koi8-u", "iso-8859-5", "ibm866"}},
	{"Greek", false, [][]string{{"el"}},
		[]override.Encoding{override.Windows1253, override.ISO8859_7}, []string{"windows-1253", "iso-8859-7"}},
	{"Turkish", true, [][]string{{"tr"}},
		[]override.Encoding{override.Windows1254}, []string{"windows-1254"}},
	{"Hebrew", false, [][]string{{"he"}},
		[]override.Encoding{override.Windows1255, override.ISO8859_8}, []string{"windows-1255", "iso-8859-8"}},
	{"Arabic", false, [][]string{{"ar", "fa"}},
		[]override.Encoding{override.Windows1256, override.ISO8859_6}, []string{"windows-1256", "iso-8859-6"}},
	{"Baltic", true, [][]string{{"lt"}, {"lv"}, {"et"}},
		[]override.Encoding{override.Windows1257, override.ISO8859_13, override.ISO8859_4}, []string{"windows-1257", "iso-8859-13", "iso-8859-4"}},
	{"Vietnamese", true, [][]string{{"vi"}},
		[]override.Encoding{override.Windows1258}, []string{"windows-1258"}},
	{"Thai", false, [][]string{{"th"}},
		[]override.Encoding{override.Windows874}, []string{"windows-874"}},
}

// wideEnc is an encoding that browsers never guess, scored by the wide
// detector (detect.Detector.All) with some of its group's models.
type wideEnc struct {
	enc    override.Encoding
	index  string
	models []int // indexes into the group's models
}

// wide are the wide detector's extra single-byte encodings, by group:
// those whose letters the group's alphabet holds, in the languages they
// were made for and that the corpus has. Their rows come after all the
// browser's rows, so that on a tie (text both decode alike) the browser's
// encoding wins. Encodings left out are listed in detect/README.md.
var wide = map[string][]wideEnc{
	"Western": {
		{override.ISO8859_15, "iso-8859-15", []int{0, 1, 7}}, // de, fr, fi: €, œ, š/ž
		{override.ISO8859_10, "iso-8859-10", []int{6}},       // Nordic
		{override.ISO8859_14, "iso-8859-14", []int{8}},       // Irish (with id+eu)
		{override.Macintosh, "macintosh", []int{0, 1}},       // German, French
	},
	"Central": {
		{override.ISO8859_16, "iso-8859-16", []int{1, 2, 3, 4}}, // pl, hu, ro, sl+hr
	},
	"Cyrillic": {
		{override.XMacCyrillic, "x-mac-cyrillic", []int{0, 1, 2}},
	},
	"Turkish": {
		{override.ISO8859_3, "iso-8859-3", []int{0}},
	},
}

// classSubstitutes are letters that the training text holds as another
// letter (internal/corpus substitutes, for the group's first encoding):
// a byte that decodes to one has the class of its substitute.
var classSubstitutes = map[rune]rune{'ș': 'ş', 'Ș': 'Ş', 'ț': 'ţ', 'Ț': 'Ţ'}

// cjk lists the double-byte indexes: the table name, the WHATWG index, the
// corpus language, the number of pointers the detector can form, and
// pointers that decode although the index lacks them (Shift_JIS EUDC).
var cjk = []cjkIndex{
	{"jis0208Freq", "jis0208", "ja", 11280, 8836, 10716, jisSymbol, nil},
	{"gbkFreq", "gb18030", "zh-CN", 126 * 190, 0, 0, gbkSymbol, nil},
	{"big5Freq", "big5", "zh-TW", 126 * 157, 0, 0, big5Symbol, nil},
	{"euckrFreq", "euc-kr", "ko", 126 * 190, 0, 0, euckrSymbol, euckrExtension},
}

// cjkIndex is one double-byte index of cjk.
type cjkIndex struct {
	name, index, lang string
	size              int
	extraLo, extraHi  int
	// symbol reports whether pointer p is in the index's rows of
	// punctuation and symbols (full-width punctuation, brackets, the
	// ideographic space), which symbolsInUse is about.
	symbol func(p int) bool
	// extension, if not nil, reports whether pointer p is outside the
	// standard the index extends, whose characters pages seldom used
	// (unseenExtension).
	extension func(p int) bool
}

// jisSymbol: JIS X 0208 row 1 (punctuation, brackets, the ideographic
// space).
func jisSymbol(p int) bool { return p < 94 }

// gbkSymbol: GB 2312 rows 1 and 3 (0xA1A1-0xA1FE punctuation and
// brackets, 0xA3A1-0xA3FE full-width ASCII), not GBK's extension bytes
// in those rows.
func gbkSymbol(p int) bool { return (p/190 == 0xA1-0x81 || p/190 == 0xA3-0x81) && p%190 >= 0xA1-0x41 }

// big5Symbol: Big5's row 0xA1 (punctuation, full-width and ideographic,
// brackets, the ideographic space).
func big5Symbol(p int) bool { return p/157 == 0xA1-0x81 }

// euckrSymbol: KS X 1001 rows 1 and 3 (punctuation and brackets,
// full-width ASCII).
func euckrSymbol(p int) bool { return (p/190 == 0xA1-0x81 || p/190 == 0xA3-0x81) && p%190 >= 0xA1-0x41 }

// euckrExtension: windows-949's syllables outside KS X 1001, a lead byte
// 0x81-0xA0 or a trail byte 0x41-0xA0.
func euckrExtension(p int) bool { return p/190 < 0xA1-0x81 || p%190 < 0xA1-0x41 }

var (
	corpusDir = flag.String("corpus", "/tmp/charsniff-corpus", "corpus directory written by internal/corpus/extract")
	specDir   = flag.String("spec", "../spec/whatwg-encoding", "WHATWG index files")
	outFile   = flag.String("out", "tables.go", "output file")
)

func main() {
	flag.Parse()
	log.SetFlags(0)
	var w bytes.Buffer
	fmt.Fprintf(&w, "// Code generated by \"go run ./internal/gen\" from internal/spec/whatwg-encoding and the training text of internal/corpus/fetch.sh; DO NOT EDIT.\n\n")
	fmt.Fprintf(&w, "package autodetect\n\nimport \"github.com/charsniff/charsniff/override\"\n\n")
	fmt.Fprintf(&w, "// Training text, in bytes of UTF-8 per language (train.txt of the corpus):\n")
	var langs []string
	for _, g := range groups {
		langs = append(langs, g.langs()...)
	}
	for _, c := range cjk {
		langs = append(langs, c.lang)
	}
	for _, l := range langs {
		fmt.Fprintf(&w, "//   %-6s %8d\n", l, len(readTrain(l)))
	}
	fmt.Fprintf(&w, "\n")

	var encs, rows, scores bytes.Buffer
	var classBin, scoreBin []byte // classes.bin and scores.bin
	var nenc, nrow, nscore int
	fmt.Fprintf(&encs, "// sbEncodings are the single-byte candidates; init fills in the class of\n// each byte from classes.bin (256 bytes an encoding, in this order).\nvar sbEncodings = [numSingleByte]sbEncoding{\n")
	fmt.Fprintf(&rows, "// sbRows are the single-byte (encoding, model) pairs that are scored,\n// in the order that breaks ties.\nvar sbRows = [numRows]sbRow{\n")
	fmt.Fprintf(&scores, "// sbScores holds the score matrices of all models: n*n scores, 4*log2\n// P(second class | first class). init fills it from scores.bin (a score a\n// byte, two's complement), the models at these offsets:\n")
	type trained struct {
		classOf *classifier
		n       int
		offs    []int
	}
	done := map[string]trained{}
	emitEnc := func(e override.Encoding, index string, classOf *classifier, latin bool) {
		tab := byteClasses(index, classOf, latin)
		fmt.Fprintf(&encs, "\t{enc: override.%s},\n", constName(e))
		classBin = append(classBin, tab[:]...)
	}
	for _, g := range groups {
		classOf, n := alphabet(g)
		var offs []int
		for _, m := range g.models {
			sc := train(g, m, classOf, n)
			offs = append(offs, nscore)
			fmt.Fprintf(&scores, "//\t%s %s at %d\n", g.name, strings.Join(m, "+"), nscore)
			for _, v := range sc {
				scoreBin = append(scoreBin, byte(v))
			}
			nscore += len(sc)
		}
		for i, e := range g.encs {
			emitEnc(e, g.indexes[i], classOf, g.latin)
			for mi, m := range g.models {
				fmt.Fprintf(&rows, "\t{enc: %d, n: %d, off: %d}, // %s %s\n", nenc, n, offs[mi], e.Name(), strings.Join(m, "+"))
				nrow++
			}
			nenc++
		}
		done[g.name] = trained{classOf, n, offs}
	}
	browserRows := nrow
	for _, g := range groups {
		t := done[g.name]
		for _, we := range wide[g.name] {
			emitEnc(we.enc, we.index, t.classOf, g.latin)
			for _, mi := range we.models {
				fmt.Fprintf(&rows, "\t{enc: %d, n: %d, off: %d}, // %s %s (wide)\n", nenc, t.n, t.offs[mi], we.enc.Name(), strings.Join(g.models[mi], "+"))
				nrow++
			}
			nenc++
		}
	}
	if nrow > 64 {
		log.Fatalf("%d rows: the detector's row sets are 64-bit masks", nrow)
	}
	fmt.Fprintf(&w, "const (\n\tnumSingleByte = %d\n\tnumRows = %d\n\tnumScores = %d\n", nenc, nrow, nscore)
	fmt.Fprintf(&w, "\t// numBrowserRows is the number of rows a browser scores; the rest\n\t// (the wide detector's) follow them.\n\tnumBrowserRows = %d\n)\n\n", browserRows)
	fmt.Fprintf(&encs, "}\n\n")
	fmt.Fprintf(&rows, "}\n\n")
	fmt.Fprintf(&scores, "var sbScores [numScores]int8\n")
	w.Write(rows.Bytes())
	w.Write(encs.Bytes())
	bins := map[string][]byte{"classes.bin": classBin, "scores.bin": scoreBin}
	for _, c := range cjk {
		bins[strings.ToLower(c.name)+".bin"] = emitCJK(&w, c)
	}
	w.Write(scores.Bytes())
	src, err := format.Source(w.Bytes())
	if err != nil {
		os.WriteFile(*outFile+".broken", w.Bytes(), 0o644)
		log.Fatalf("format: %v", err)
	}
	if err := os.WriteFile(*outFile, src, 0o644); err != nil {
		log.Fatal(err)
	}
	dir := filepath.Dir(*outFile)
	for name, data := range bins {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

func constName(e override.Encoding) string {
	m := map[override.Encoding]string{
		override.Windows1250: "Windows1250", override.Windows1251: "Windows1251", override.Windows1252: "Windows1252",
		override.Windows1253: "Windows1253", override.Windows1254: "Windows1254", override.Windows1255: "Windows1255",
		override.Windows1256: "Windows1256", override.Windows1257: "Windows1257", override.Windows1258: "Windows1258",
		override.Windows874: "Windows874", override.ISO8859_2: "ISO8859_2", override.ISO8859_5: "ISO8859_5",
		override.ISO8859_6: "ISO8859_6", override.ISO8859_7: "ISO8859_7", override.ISO8859_8: "ISO8859_8",
		override.ISO8859_13: "ISO8859_13", override.KOI8U: "KOI8U", override.IBM866: "IBM866",
		override.ISO8859_3: "ISO8859_3", override.ISO8859_4: "ISO8859_4", override.ISO8859_10: "ISO8859_10",
		override.ISO8859_14: "ISO8859_14", override.ISO8859_15: "ISO8859_15", override.ISO8859_16: "ISO8859_16",
		override.Macintosh: "Macintosh", override.XMacCyrillic: "XMacCyrillic",
	}
	n, ok := m[e]
	if !ok {
		log.Fatalf("no constant for %v", e)
	}
	return n
}

var trainCache = map[string][]byte{}

func readTrain(lang string) []byte {
	if b, ok := trainCache[lang]; ok {
		return b
	}
	b, err := os.ReadFile(filepath.Join(*corpusDir, lang, "train.txt"))
	if err != nil {
		log.Fatalf("%v (run internal/corpus/fetch.sh first)", err)
	}
	trainCache[lang] = b
	return b
}

// readIndex returns pointer → code point for a WHATWG index.
func readIndex(name string) map[int]rune {
	entries, err := spec.ReadIndex(*specDir, name)
	if err != nil {
		log.Fatal(err)
	}
	m := make(map[int]rune, len(entries))
	for _, e := range entries {
		m[e.Pointer] = e.CodePoint
	}
	return m
}

// classifier maps a rune to its class in one group.
type classifier struct {
	latin    bool
	alphabet map[rune]int
}

func (c *classifier) class(r rune) int {
	switch {
	case r < 0x80:
		switch {
		case r >= '0' && r <= '9':
			return classDigit
		case r >= 'a' && r <= 'z':
			if c.latin {
				return classASCIIBase + int(r-'a')
			}
			return classASCIIBase
		case r >= 'A' && r <= 'Z':
			if c.latin {
				return classASCIIBase + int(r-'A')
			}
			return classASCIIBase
		}
		return classSpace
	case isLetter(r):
		l := unicode.ToLower(r)
		if l < 0x80 {
			return c.class(l)
		}
		if k, ok := c.alphabet[l]; ok {
			return k
		}
		return classRare
	case unicode.IsDigit(r):
		return classDigit
	case unicode.IsSpace(r) || r == 0xA0:
		return classNBSP
	case unicode.IsPunct(r):
		return classPunct
	}
	return classSymbol
}

func isLetter(r rune) bool { return unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) }

// groupText returns the training text of langs as the group's primary
// encoding can carry it.
func groupText(g group, langs []string) [][]rune {
	var texts [][]rune
	for _, l := range langs {
		t := readTrain(l)
		if len(t) > perLanguage {
			t = t[:perLanguage]
		}
		s := corpus.Decode(g.encs[0], corpus.EncodeOrSpace(g.encs[0], string(t)))
		texts = append(texts, []rune(s))
	}
	return texts
}

// alphabet returns the classifier of a group and its number of classes.
func alphabet(g group) (*classifier, int) {
	counts := map[rune]int{}
	for _, t := range groupText(g, g.langs()) {
		for _, r := range t {
			if r >= 0x80 && isLetter(r) {
				counts[unicode.ToLower(r)]++
			}
		}
	}
	var letters []rune
	for r, n := range counts {
		if n >= minLetter && unicode.ToLower(r) >= 0x80 {
			letters = append(letters, r)
		}
	}
	sort.Slice(letters, func(i, j int) bool {
		if counts[letters[i]] != counts[letters[j]] {
			return counts[letters[i]] > counts[letters[j]]
		}
		return letters[i] < letters[j]
	})
	base := classASCIIBase + 1
	if g.latin {
		base = classASCIIBase + 26
	}
	if len(letters) > maxClasses-base {
		letters = letters[:maxClasses-base]
	}
	c := &classifier{latin: g.latin, alphabet: map[rune]int{}}
	for i, r := range letters {
		c.alphabet[r] = base + i
	}
	log.Printf("%-10s %3d classes, %d letters", g.name, base+len(letters), len(letters))
	return c, base + len(letters)
}

// train returns the n*n score matrix of one model of a group.
func train(g group, langs []string, c *classifier, n int) []int8 {
	pair := make([]float64, n*n)
	first := make([]float64, n)
	uni := make([]float64, n)
	var total float64
	for _, t := range groupText(g, langs) {
		prev := classSpace
		for _, r := range t {
			k := c.class(r)
			pair[prev*n+k]++
			first[prev]++
			uni[k]++
			total++
			prev = k
		}
	}
	scores := make([]int8, n*n)
	for p := 0; p < n; p++ {
		for k := 0; k < n; k++ {
			pu := uni[k] / total
			prob := (pair[p*n+k] + prior*pu) / (first[p] + prior)
			switch {
			case k == classASCIIBase && !g.latin:
				prob /= asciiLetters
			case k == classRare:
				prob /= rareLetters
			}
			s := -127.0
			if prob > 0 {
				s = math.Max(-127, math.Round(scale*math.Log2(prob)))
			}
			scores[p*n+k] = int8(s)
		}
	}
	return scores
}

// byteClasses returns the class of each byte of a single-byte encoding.
func byteClasses(index string, c *classifier, latin bool) [256]uint8 {
	var tab [256]uint8
	m := readIndex(index)
	for b := 0; b < 256; b++ {
		r := rune(b)
		if b >= 0x80 {
			cp, ok := m[b-0x80]
			if !ok || (cp >= 0x80 && cp <= 0x9F) {
				tab[b] = invalid // unmapped or a C1 control
				continue
			}
			r = cp
		}
		if sub, ok := classSubstitutes[r]; ok && c.class(r) == classRare {
			r = sub
		}
		k := uint8(c.class(r))
		if unicode.IsUpper(r) {
			k |= upperBit
		}
		tab[b] = k
	}
	return tab
}

// emitCJK writes the declaration of the frequency table name and returns
// its contents: one letter per pointer, ' ' for unmapped, else '@' plus the
// negative log2 of the character's relative frequency (1 to 31).
func emitCJK(w *bytes.Buffer, c cjkIndex) []byte {
	m := readIndex(c.index)
	counts := map[rune]float64{}
	var total float64
	for _, r := range string(readTrain(c.lang)) {
		if r >= 0x80 {
			counts[r]++
			total++
		}
	}
	// symbolFloor is the symbols' share of the text spread over
	// symbolsInUse of them.
	var symbolMass float64
	symbols := map[rune]bool{}
	for p := range c.size {
		if cp, ok := m[p]; ok && c.symbol(p) && !symbols[cp] {
			symbols[cp] = true
			symbolMass += counts[cp]
		}
	}
	symbolFloor := symbolMass / symbolsInUse
	tab := make([]byte, c.size)
	var mapped int
	for p := range tab {
		cp, ok := m[p]
		switch {
		case ok:
			n := counts[cp]
			if n > 0 && c.symbol(p) {
				n = max(n, symbolFloor) // symbolsInUse
			}
			b := 31.0
			switch {
			case n > 0:
				b = math.Min(31, math.Max(1, math.Round(-math.Log2(n/total))))
			case c.extension != nil && c.extension(p):
				b = unseenExtension
			default:
				b = math.Min(31, math.Round(-math.Log2(1/total))+unseenExtra)
			}
			tab[p] = '@' + byte(b)
			mapped++
		case p >= c.extraLo && p < c.extraHi:
			tab[p] = '@' + 31 // user-defined area: valid, never seen
		default:
			tab[p] = ' '
		}
	}
	fmt.Fprintf(w, "// %sLen is the length of %s (%s, embedded by load.go): one byte per\n// %s pointer, ' ' if unmapped, else '@'+b where 2^-b is the character's\n// relative frequency in %s text (%d mapped).\nconst %sLen = %d\n\n", c.name, c.name, strings.ToLower(c.name)+".bin", c.index, c.lang, mapped, c.name, c.size)
	return tab
}
