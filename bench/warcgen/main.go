// Command warcgen writes a Common-Crawl-like WARC file for the WARC
// benchmarks of the charsniff command (bench/results/2026-12-01-warc.md):
// a warcinfo record, then for each capture a request, a response and a
// metadata record, each in its own gzip member (or zstd frame, with -zstd),
// as Common Crawl writes them. The pages are cut from the committed samples
// (bench/testdata/sample: English, French, Russian, Japanese and Chinese
// text, and their legacy encodings made by internal/benchpage), 2 to 80 KB
// each, with or without a <meta> charset and an HTTP charset, so that the
// sniffer meets the mix a crawl has. The same flags write the same bytes.
//
// Usage: go run ./warcgen -size 150000000 -o /tmp/cc.warc.gz   (from bench/)
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strconv"

	"github.com/charsniff/charsniff/internal/benchpage"
	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/klauspost/compress/zstd"
)

// pages are the sample files the pages are cut from, with the charset
// label their HTTP header and <meta> may give.
var pages = []struct{ file, label string }{
	{"utf-8-english.html", "utf-8"},
	{"utf-8-english.html", "utf-8"},
	{"utf-8-french.html", "utf-8"},
	{"utf-8-russian.html", "utf-8"},
	{"utf-8-japanese.html", "utf-8"},
	{"utf-8-chinese.html", "utf-8"},
	{"windows-1252.html", "windows-1252"},
	{"windows-1251.html", "windows-1251"},
	{"shift_jis.html", "shift_jis"},
	{"euc-jp.html", "euc-jp"},
	{"gbk.html", "gbk"},
}

func main() {
	log.SetFlags(0)
	size := flag.Int64("size", 150e6, "uncompressed bytes of WARC to write (at least)")
	out := flag.String("o", "", "file to write (required)")
	useZstd := flag.Bool("zstd", false, "a zstd frame a record instead of a gzip member")
	dir := flag.String("samples", "testdata/sample", "directory of the sample pages")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *out == "" {
		log.Fatal("warcgen: -o is required")
	}
	texts := make([][]byte, len(pages))
	for i, p := range pages {
		b, err := benchpage.Read(*dir, p.file)
		if err != nil {
			log.Fatal(err)
		}
		texts[i] = b
	}
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	c, err := newCompressor(bw, *useZstd)
	if err != nil {
		log.Fatal(err)
	}
	st, err := write(c, texts, *size, rand.New(rand.NewPCG(*seed, 0xcc)))
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "warcgen: %s: %d records (%d responses), %d bytes uncompressed\n", *out, st.records, st.responses, st.raw)
}

type stats struct {
	records, responses int
	raw                int64
}

// write writes captures to c until size uncompressed bytes are out.
func write(c *compressor, texts [][]byte, size int64, rng *rand.Rand) (stats, error) {
	var st stats
	var rec bytes.Buffer
	ww := warctest.NewWriter(&rec, false)
	put := func(r warctest.Record) (string, error) {
		rec.Reset()
		id, err := ww.Write(r)
		if err != nil {
			return "", err
		}
		st.records++
		st.raw += int64(rec.Len())
		return id, c.member(rec.Bytes())
	}
	if _, err := put(warctest.Record{Type: "warcinfo", ContentType: "application/warc-fields",
		Block: []byte("software: charsniff bench/warcgen\r\nformat: WARC File Format 1.1\r\n")}); err != nil {
		return st, err
	}
	for i := 0; st.raw < size; i++ {
		host := fmt.Sprintf("www.site%d.%s", i%211, []string{"com", "org", "de", "ru", "jp", "cn", "fr"}[i%7])
		uri := fmt.Sprintf("https://%s/articles/%d.html", host, i)
		req := fmt.Sprintf("GET /articles/%d.html HTTP/1.1\r\nHost: %s\r\nUser-Agent: CCBot/2.0\r\nAccept: text/html\r\n\r\n", i, host)
		reqID, err := put(warctest.Record{Type: "request", TargetURI: uri, ContentType: "application/http; msgtype=request", Block: []byte(req)})
		if err != nil {
			return st, err
		}
		k := rng.IntN(len(pages))
		body := page(texts[k], pages[k].label, rng)
		ct := "text/html"
		if rng.IntN(2) == 0 {
			ct += "; charset=" + pages[k].label
		}
		header := []string{"Content-Type: " + ct, "Server: nginx", "Content-Length: " + strconv.Itoa(len(body))}
		r := warctest.Response(uri, warctest.HTTPResponse(200, header, body))
		r.Fields = []string{"WARC-Concurrent-To: " + reqID, "WARC-IP-Address: 192.0.2.1"}
		if _, err := put(r); err != nil {
			return st, err
		}
		meta := fmt.Sprintf("fetchTimeMs: %d\r\ncharset-detected: %s\r\n", rng.IntN(2000), pages[k].label)
		if _, err := put(warctest.Record{Type: "metadata", TargetURI: uri, ContentType: "application/warc-fields", Block: []byte(meta)}); err != nil {
			return st, err
		}
		st.responses++
	}
	return st, nil
}

// page returns an HTML page of 2 to 80 KB cut from text at a line start.
func page(text []byte, label string, rng *rand.Rand) []byte {
	n := 2<<10 + rng.IntN(78<<10)
	from := rng.IntN(max(1, len(text)-n))
	if j := bytes.IndexByte(text[from:], '\n'); j >= 0 {
		from += j + 1
	}
	body := text[from:min(len(text), from+n)]
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html><head>")
	if rng.IntN(3) != 0 {
		fmt.Fprintf(&b, "<meta charset=\"%s\">", label)
	}
	b.WriteString("<title>article</title></head>\n<body>\n")
	b.Write(body)
	b.WriteString("\n</body></html>\n")
	return b.Bytes()
}

// A compressor writes each record as a gzip member or zstd frame of its own.
type compressor struct {
	w  *bufio.Writer
	zw *gzip.Writer
	ze *zstd.Encoder
}

func newCompressor(w *bufio.Writer, useZstd bool) (*compressor, error) {
	c := &compressor{w: w}
	if useZstd {
		var err error
		c.ze, err = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
		return c, err
	}
	c.zw, _ = gzip.NewWriterLevel(w, gzip.DefaultCompression)
	return c, nil
}

func (c *compressor) member(b []byte) error {
	if c.ze != nil {
		_, err := c.w.Write(c.ze.EncodeAll(b, nil))
		return err
	}
	c.zw.Reset(c.w)
	if _, err := c.zw.Write(b); err != nil {
		return err
	}
	return c.zw.Close()
}
