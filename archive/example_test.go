package archive_test

import (
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/sniff"
)

// processFile is the per-file function of a distributed engine (a Beam DoFn,
// a Spark mapPartitions task, a Hadoop mapper): it reads one WARC file and
// emits one Result per HTML record, in the charsniff command's schema, with
// damaged records reported and skipped over. Here it also counts the
// characters of each decoded page.
func processFile(path string, emit func(archive.Result, int)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	opts := archive.Options{
		File:   path,
		Decode: []decode.Option{decode.WithSniff(sniff.Options{Locale: "ja"})}, // the engine's own hints
	}
	for rec, err := range archive.Records(f, opts) {
		if err != nil {
			emit(archive.Result{File: path, Err: err}, 0)
			return nil // the file could not be read on; the job goes on
		}
		var text strings.Builder
		rec.WriteText(&text) // a Builder does not fail
		res := rec.Finish()  // the final result, damage after the text included
		emit(*res, utf8.RuneCountInString(text.String()))
	}
	return nil
}

// Example shows the per-file function of a third-party engine: every HTML
// record of a WARC file written by GNU Wget, sniffed with its stored HTTP
// header as the transport layer and its host as the TLD hint.
func Example() {
	err := processFile("../warc/testdata/wget.warc.gz", func(r archive.Result, chars int) {
		fmt.Printf("%-22s %-12s %-9s %-9s %d chars\n", r.URI[strings.LastIndexByte(r.URI, '/'):], r.Encoding.LowerName(), r.Confidence, r.Source, chars)
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// /                      utf-8        certain   transport 369 chars
	// /sjis.html             shift_jis    certain   transport 95 chars
	// /gbk.html              gbk          tentative prescan   100 chars
	// /cp1251.html           windows-1251 tentative prescan   181 chars
	// /euckr.html            euc-kr       certain   transport 848 chars
	// /cp1252.html           windows-1252 tentative prescan   1378 chars
	// /nocontenttype.html    utf-8        tentative prescan   109 chars
	// /deflate.html          utf-8        certain   transport 82 chars
	// /missing.html          utf-8        certain   transport 51 chars
}
