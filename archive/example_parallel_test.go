package archive_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charsniff/charsniff/archive"
)

// ExampleParallel reads a WARC file on all cores: the records come to the
// loop body in file order, one at a time, their text decoded ahead on other
// goroutines.
func ExampleParallel() {
	f, err := os.Open("../warc/testdata/wget.warc.gz")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		fmt.Println(err)
		return
	}
	var chars int64
	var counts archive.Counts
	opts := archive.Options{File: "wget.warc.gz", Counts: &counts}
	for rec, err := range archive.Parallel(context.Background(), f, fi.Size(), opts) {
		if err != nil {
			fmt.Println(err) // the file could not be read on
			return
		}
		n, _ := rec.WriteText(io.Discard) // or rec.Text
		chars += n
		res := rec.Finish()
		fmt.Printf("%-20s %s\n", rec.TargetURI[strings.LastIndexByte(rec.TargetURI, '/'):], res.Encoding.LowerName())
	}
	fmt.Printf("%d records, %d HTML, %d bytes of text\n", counts.Records, counts.Sniffed, chars)
	// Output:
	// /                    utf-8
	// /sjis.html           shift_jis
	// /gbk.html            gbk
	// /cp1251.html         windows-1251
	// /euckr.html          euc-kr
	// /cp1252.html         windows-1252
	// /nocontenttype.html  utf-8
	// /deflate.html        utf-8
	// /missing.html        utf-8
	// 24 records, 9 HTML, 4144 bytes of text
}
