package bench

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	xcharset "golang.org/x/net/html/charset"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/benchpage"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/sniff"
)

// corpus is one benchmark input: a file under corpus/large (made by
// corpus/make.sh) or, when that is absent, the committed 64 KB sample.
type corpus struct {
	name    string // benchmark name
	file    string // file name in corpus/large and testdata/sample
	charset string // the charset the transport layer declares
}

// corpora are the inputs of BenchmarkDecode and BenchmarkMemcpy: each
// corpus with LF line ends and, right after it, with CR LF (26% of real
// pages have CR), so that a cliff in the preprocessing's CR LF paths shows
// beside the same text with LF.
var corpora = withCRLF([]corpus{
	{"utf-8-english", "utf-8-english.html", "utf-8"},
	{"utf-8-japanese", "utf-8-japanese.html", "utf-8"},
	{"utf-8-russian", "utf-8-russian.html", "utf-8"},
	{"windows-1252", "windows-1252.html", "windows-1252"},
	{"windows-1251", "windows-1251.html", "windows-1251"},
	{"shift_jis", "shift_jis.html", "shift_jis"},
	{"euc-jp", "euc-jp.html", "euc-jp"},
	{"gbk", "gbk.html", "gbk"},
})

// withCRLF returns cs with each corpus followed by its -crlf twin.
func withCRLF(cs []corpus) []corpus {
	var out []corpus
	for _, c := range cs {
		crlf := c
		crlf.name += "-crlf"
		out = append(out, c, crlf)
	}
	return out
}

// load returns the corpus bytes, preferring the large corpus, with CR LF
// line ends if its name ends in -crlf.
func load(b *testing.B, c corpus) []byte {
	b.Helper()
	data, err := benchpage.Read(filepath.Join("corpus", "large"), c.file)
	if err != nil {
		data = sample(b, c.file)
	}
	if strings.HasSuffix(c.name, "-crlf") {
		data = bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
	}
	return data
}

// sample returns the 64 KB page file of testdata/sample (benchpage.Sample:
// a page in a legacy encoding is encoded from its UTF-8 text).
func sample(tb testing.TB, file string) []byte {
	tb.Helper()
	data, err := benchpage.Sample(filepath.Join("testdata", "sample"), file)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// readBuf is the caller's buffer of decode.NewReader.Read32K: Read decodes
// straight into it, where WriteTo decodes into the Reader's 2 KB buffer.
var readBuf [32 << 10]byte

// discard reads all of r into io.Discard, unless err, NewReader's error.
func discard(r io.Reader, err error) error {
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, r)
	return err
}

// readers are the contenders, each reading all of src into io.Discard.
var readers = []struct {
	name string
	read func(src io.Reader, contentType string) error
}{
	{"charsniff.NewReader", func(src io.Reader, ct string) error {
		return discard(charsniff.NewReader(src, ct))
	}},
	{"decode.NewReader", func(src io.Reader, ct string) error {
		r, err := decode.NewReader(src, decode.WithSniff(sniff.Options{ContentType: ct}))
		if err != nil {
			return err
		}
		_, err = r.WriteTo(io.Discard)
		return err
	}},
	{"decode.NewReader.Read32K", func(src io.Reader, ct string) error {
		r, err := decode.NewReader(src, decode.WithSniff(sniff.Options{ContentType: ct}))
		if err != nil {
			return err
		}
		buf := readBuf[:]
		for {
			if _, err := r.Read(buf); err != nil {
				if err == io.EOF {
					err = nil
				}
				return err
			}
		}
	}},
	{"x-net-charset.NewReader", func(src io.Reader, ct string) error {
		return discard(xcharset.NewReader(src, ct))
	}},
	{"x-text-transform.Reader", func(src io.Reader, ct string) error {
		label := ct[strings.LastIndex(ct, "=")+1:]
		e, err := htmlindex.Get(label)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, transform.NewReader(src, e.NewDecoder()))
		return err
	}},
}

// BenchmarkDecode decodes each corpus with each contender; MB/s is of input.
func BenchmarkDecode(b *testing.B) {
	for _, c := range corpora {
		data := load(b, c)
		ct := "text/html; charset=" + c.charset
		for _, rd := range readers {
			b.Run(c.name+"/"+rd.name, func(b *testing.B) {
				benchRead(b, data, func(src io.Reader) error { return rd.read(src, ct) })
			})
		}
	}
}

// reportCPU reports cpu-MB/s: the bytes of input per second of the
// benchmark thread's CPU time since cpu0 (Linux; on a shared machine this
// leaves out the time other processes hold the core, which the wall-clock
// MB/s counts). GC work on other threads is left out too, which matters
// little here: the readers allocate once or twice per document.
func reportCPU(b *testing.B, cpu0 int64, size int) {
	if cpu0 < 0 {
		return
	}
	if ns := testutil.ThreadCPU() - cpu0; ns > 0 {
		b.ReportMetric(float64(b.N)*float64(size)/float64(ns)*1e3, "cpu-MB/s")
	}
}

// BenchmarkMemcpy is the ceiling: copying the corpus with no decoding.
func BenchmarkMemcpy(b *testing.B) {
	for _, c := range corpora {
		data := load(b, c)
		dst := make([]byte, len(data))
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				copy(dst, data)
			}
		})
	}
}
