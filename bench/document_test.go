package bench

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
)

// docCorpora are the corpora BenchmarkDocument cuts into documents.
var docCorpora = []corpus{
	{"utf-8-english", "utf-8-english.html", "utf-8"},
	{"utf-8-japanese", "utf-8-japanese.html", "utf-8"},
	{"windows-1252", "windows-1252.html", "windows-1252"},
	{"shift_jis", "shift_jis.html", "shift_jis"},
}

// docSizes are the document sizes of BenchmarkDocument.
var docSizes = []int{1 << 10, 8 << 10, 64 << 10}

// document returns a page of about size bytes, as a crawler fetches one: a
// head that declares the charset in a <meta>, then text of the corpus, cut
// at a line end.
func document(text []byte, charset string, size int) []byte {
	doc := []byte("<!DOCTYPE html><html><head><meta charset=\"" + charset + "\"><title>x</title></head><body><pre>\n")
	body := text[:min(len(text), size-len(doc))]
	if i := bytes.LastIndexByte(body, '\n'); i > 0 {
		body = body[:i+1]
	}
	return append(doc, body...)
}

// BenchmarkDocument decodes one document of 1 KB, 8 KB or 64 KB per
// operation, the encoding found in the document's <meta> by each reader:
// x/net's charset.NewReader, charsniff.NewReader and decode.NewReader
// fresh for each document, and one decode.Reader reused (Reset) across
// documents. MB/s and cpu-MB/s are of input; allocs/op is per document.
func BenchmarkDocument(b *testing.B) {
	for _, c := range docCorpora {
		text := load(b, c)
		for _, size := range docSizes {
			doc := document(text, c.charset, size)
			name := fmt.Sprintf("%s/%dKB", c.name, size>>10)
			for _, rd := range readers {
				switch rd.name {
				case "x-net-charset.NewReader", "charsniff.NewReader":
					b.Run(name+"/"+rd.name, func(b *testing.B) {
						benchRead(b, doc, func(src io.Reader) error { return rd.read(src, "text/html") })
					})
				}
			}
			// Not readers' decode.NewReader, which passes the
			// Content-Type in sniff.Options.
			b.Run(name+"/decode.NewReader", func(b *testing.B) {
				benchRead(b, doc, func(src io.Reader) error {
					r, err := decode.NewReader(src)
					if err != nil {
						return err
					}
					_, err = r.WriteTo(io.Discard)
					return err
				})
			})
			b.Run(name+"/decode.Reader.Reset", func(b *testing.B) {
				var r decode.Reader
				benchRead(b, doc, func(src io.Reader) error {
					if err := r.Reset(src); err != nil {
						return err
					}
					_, err := r.WriteTo(io.Discard)
					return err
				})
			})
		}
	}
}

// benchRead runs read over doc once per operation, on one locked OS
// thread, and reports cpu-MB/s.
func benchRead(b *testing.B, doc []byte, read func(io.Reader) error) {
	src := bytes.NewReader(doc)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := testutil.ThreadCPU()
	for b.Loop() {
		src.Reset(doc)
		if err := read(src); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0, len(doc))
}
