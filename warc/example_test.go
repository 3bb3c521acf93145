package warc_test

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/charsniff/charsniff/warc"
)

// This example reads a WARC file that wget wrote and lists the HTML
// payloads of its response records, with the HTTP charset parameter where
// the server gave one.
func ExampleReader() {
	f, err := os.Open("testdata/wget.warc.gz")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()

	r := warc.NewReader(f)
	skipped := 0
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		var bad *warc.RecordError
		if errors.As(err, &bad) {
			log.Print(err) // the Reader has skipped the bad record
			continue
		}
		if err != nil {
			log.Fatal(err)
		}
		p, err := rec.Payload()
		if errors.Is(err, warc.ErrNoPayload) {
			skipped++ // warcinfo, request, metadata
			continue
		}
		if err != nil {
			log.Print(err)
			continue
		}
		if !p.IsHTML() {
			skipped++
			continue
		}
		body, err := io.ReadAll(p.Body)
		if err != nil {
			log.Print(err)
		}
		fmt.Printf("%-42s %d %-12q %4d bytes\n", rec.TargetURI, p.StatusCode, p.Charset, len(body))
	}
	fmt.Println(skipped, "records skipped")
	// Output:
	// http://127.0.0.1:41015/                    200 "utf-8"       371 bytes
	// http://127.0.0.1:41015/sjis.html           200 "Shift_JIS"   124 bytes
	// http://127.0.0.1:41015/gbk.html            200 ""            114 bytes
	// http://127.0.0.1:41015/cp1251.html         200 ""            181 bytes
	// http://127.0.0.1:41015/euckr.html          200 "euc-kr"     1228 bytes
	// http://127.0.0.1:41015/cp1252.html         200 ""           1378 bytes
	// http://127.0.0.1:41015/nocontenttype.html  200 ""            111 bytes
	// http://127.0.0.1:41015/deflate.html        200 "utf-8"        84 bytes
	// http://127.0.0.1:41015/missing.html        404 "utf-8"        51 bytes
	// 15 records skipped
}
