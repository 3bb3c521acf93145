// Command extract gathers plain UTF-8 text per language from the translated
// manual pages and gettext catalogs installed on a Debian system, for
// training and evaluating the detector in package detect.
//
// Usage:
//
//	go run ./internal/corpus/extract [-out DIR] [-man /usr/share/man] [-locale /usr/share/locale]
//
// For each language it writes DIR/<lang>/train.txt and DIR/<lang>/eval.txt.
// A document is one manual page (keyed by its file name, e.g. "ls.1") or
// one gettext domain (keyed by its file name, e.g. "coreutils.mo"). A
// document whose key hashes to bucket 0 of [heldOutBuckets] goes to
// eval.txt, all others to train.txt, so the evaluation never sees a
// document (in any language) that was trained on. Documents in eval.txt
// are separated by a line holding a form feed.
//
// The raw text stays out of the repository; internal/corpus/fetch.sh
// installs the packages this reads.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"flag"
	"hash/fnv"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// heldOutBuckets is the number of hash buckets documents are split into;
// bucket 0 (a fifth of the documents) is held out for evaluation.
const heldOutBuckets = 5

// Caps keep the corpus small enough to train in seconds.
const (
	maxTrain = 4 << 20 // bytes of training text per language
	maxEval  = 1 << 20 // bytes of evaluation text per language
)

// langs maps a locale directory name to the language name used in the
// corpus. Variants (sr@latin, de_CH, ...) are left out on purpose.
var langs = map[string]string{
	// Western European (windows-1252).
	"de": "de", "fr": "fr", "es": "es", "it": "it", "nl": "nl", "pt": "pt", "pt_BR": "pt",
	"sv": "sv", "da": "da", "fi": "fi", "nb": "nb", "nn": "nn", "id": "id", "ca": "ca",
	"gl": "gl", "is": "is", "eu": "eu", "af": "af", "ga": "ga",
	// Central European (windows-1250, ISO-8859-2).
	"cs": "cs", "pl": "pl", "hu": "hu", "ro": "ro", "sk": "sk", "sl": "sl", "hr": "hr",
	// Cyrillic.
	"ru": "ru", "uk": "uk", "bg": "bg", "sr": "sr", "mk": "mk", "be": "be",
	// Others.
	"el": "el", "tr": "tr", "he": "he", "ar": "ar", "fa": "fa",
	"lt": "lt", "lv": "lv", "et": "et", "vi": "vi", "th": "th",
	"ja": "ja", "zh_CN": "zh-CN", "zh_TW": "zh-TW", "ko": "ko",
}

type doc struct {
	key  string
	text []byte
}

func main() {
	out := flag.String("out", "/tmp/charsniff-corpus", "output directory")
	manDir := flag.String("man", "/usr/share/man", "manual page root")
	localeDir := flag.String("locale", "/usr/share/locale", "gettext catalog root")
	flag.Parse()
	log.SetFlags(0)

	docs := map[string][]doc{}
	for dir, lang := range langs {
		files, _ := filepath.Glob(filepath.Join(*manDir, dir, "man*", "*"))
		for _, f := range files {
			t, err := readMan(f)
			if err != nil || len(t) == 0 {
				continue
			}
			key := strings.TrimSuffix(filepath.Base(f), ".gz")
			docs[lang] = append(docs[lang], doc{key, t})
		}
		mos, _ := filepath.Glob(filepath.Join(*localeDir, dir, "LC_MESSAGES", "*.mo"))
		for _, f := range mos {
			if strings.HasPrefix(filepath.Base(f), "iso_") {
				continue // lists of names, not prose
			}
			t, err := readMO(f)
			if err != nil || len(t) == 0 {
				continue
			}
			docs[lang] = append(docs[lang], doc{filepath.Base(f), t})
		}
	}
	for lang, ds := range docs {
		sort.Slice(ds, func(i, j int) bool { return ds[i].key < ds[j].key })
		var train, eval bytes.Buffer
		var held []doc
		for _, d := range ds {
			h := fnv.New32a()
			io.WriteString(h, d.key)
			if h.Sum32()%heldOutBuckets == 0 {
				held = append(held, d)
			} else if train.Len() < maxTrain {
				train.Write(d.text)
				train.WriteByte('\n')
			}
		}
		// Shared strings (gnulib messages in many catalogs, the same
		// paragraph in several manual pages) would leak training text into
		// the evaluation: drop held-out lines that occur in training.
		seen := map[string]bool{}
		for _, l := range bytes.Split(train.Bytes(), []byte("\n")) {
			seen[string(bytes.TrimSpace(l))] = true
		}
		for _, d := range held {
			if eval.Len() >= maxEval {
				break
			}
			for _, l := range bytes.SplitAfter(d.text, []byte("\n")) {
				if !seen[string(bytes.TrimSpace(l))] {
					eval.Write(l)
				}
			}
			eval.WriteString("\n\f\n")
		}
		dir := filepath.Join(*out, lang)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "train.txt"), train.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "eval.txt"), eval.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
		log.Printf("%-6s %4d docs  train %8d  eval %8d", lang, len(ds), train.Len(), eval.Len())
	}
}

var (
	fontEsc   = regexp.MustCompile(`\\f(\[[^\]]*\]|\(..|.)`)
	namedEsc  = regexp.MustCompile(`\\(\(..|\[[^\]]*\]|\*(\(..|\[[^\]]*\]|.)|s[-+]?[0-9]|[&/,|^:%)])`)
	textMacro = regexp.MustCompile(`^[.'](SH|SS|B|I|BR|BI|IB|IR|RB|RI|SM|Nm|Nd|Sh|Ss)\s+`)
)

// readMan returns the running text of a groff manual page, with requests
// dropped (except the text of a few font and heading macros) and escapes
// removed. It is crude on purpose: only the letters matter.
func readMan(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		r = z
	}
	src, err := io.ReadAll(io.LimitReader(r, 4<<20))
	if err != nil || !utf8.Valid(src) {
		return nil, err
	}
	var b bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, ".so ") {
			return nil, nil // a link to another page
		}
		if m := textMacro.FindString(line); m != "" {
			line = strings.ReplaceAll(line[len(m):], `"`, "")
		} else if strings.HasPrefix(line, ".") || strings.HasPrefix(line, "'") {
			continue
		}
		line = fontEsc.ReplaceAllString(line, "")
		line = strings.ReplaceAll(line, `\-`, "-")
		line = strings.ReplaceAll(line, `\e`, `\`)
		line = strings.ReplaceAll(line, `\ `, " ")
		line = namedEsc.ReplaceAllString(line, "")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// readMO returns the translations (msgstr) of a GNU gettext catalog, one per
// line, or nothing if the catalog is not UTF-8.
func readMO(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if err != nil || len(data) < 28 {
		return nil, err
	}
	var bo binary.ByteOrder = binary.LittleEndian
	if bo.Uint32(data) != 0x950412de {
		bo = binary.BigEndian
		if bo.Uint32(data) != 0x950412de {
			return nil, nil
		}
	}
	n := int(bo.Uint32(data[8:]))
	trans := int(bo.Uint32(data[16:]))
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		o := trans + 8*i
		if o+8 > len(data) {
			break
		}
		l, off := int(bo.Uint32(data[o:])), int(bo.Uint32(data[o+4:]))
		if off+l > len(data) || l == 0 {
			continue
		}
		s := data[off : off+l]
		if i == 0 && bytes.Contains(s, []byte("Content-Type")) {
			if !bytes.Contains(bytes.ToLower(s), []byte("charset=utf-8")) {
				return nil, nil
			}
			continue // the header entry
		}
		if !utf8.Valid(s) {
			continue
		}
		s = bytes.ReplaceAll(s, []byte{0}, []byte("\n")) // plural forms
		b.Write(s)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}
