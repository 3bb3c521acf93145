package warcio_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/charsniff/charsniff/beam/warcio"
)

func init() {
	register.Function2x0(lateOrBOM)
	register.Emitter1[string]()
}

// Example reads a WARC file written by GNU Wget on the default runner
// (Prism, in this process), cut into pieces of 4 KiB at record
// boundaries, and writes the command's JSON lines to a file.
func Example() {
	dir, err := os.MkdirTemp("", "warcio-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "records.jsonl")

	p, s := beam.NewPipelineWithRoot()
	paths := beam.Create(s, "../../warc/testdata/wget.warc.gz")
	docs := warcio.Read(s, warcio.Paths(s, paths), warcio.Options{PartSize: 4 << 10})
	textio.Write(s, out, beam.ParDo(s, warcio.JSON, docs))
	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatal(err)
	}

	printByOffset(out)
	// Output:
	// 893 http://127.0.0.1:41015/ utf-8
	// 1919 http://127.0.0.1:41015/sjis.html shift_jis
	// 2924 http://127.0.0.1:41015/gbk.html gbk
	// 3900 http://127.0.0.1:41015/cp1251.html windows-1251
	// 5031 http://127.0.0.1:41015/euckr.html euc-kr
	// 6125 http://127.0.0.1:41015/cp1252.html windows-1252
	// 7260 http://127.0.0.1:41015/nocontenttype.html utf-8
	// 8191 http://127.0.0.1:41015/deflate.html utf-8
	// 10085 http://127.0.0.1:41015/missing.html utf-8
}

// ExampleReadGlob reads the WARC files a glob matches, as textio.Read
// reads text files (here FastWARC's test files in gzip), and uses the typed
// fields of each Record: it keeps the records whose encoding a byte order
// mark decided or that changed after the window, with their coordinates
// (file, offset, length), which read alone give the record again.
func ExampleReadGlob() {
	dir, err := os.MkdirTemp("", "warcio-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "late.txt")

	p, s := beam.NewPipelineWithRoot()
	records := warcio.ReadGlob(s, "../../warc/testdata/resiliparse/*.warc.gz", warcio.Options{})
	textio.Write(s, out, beam.ParDo(s, lateOrBOM, records))
	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatal(err)
	}

	printSorted(out)
	// Output:
	// warcfile.warc.gz 70222 4459 utf-8 bom bom=3
	// warcfile.warc.gz 75624 10695 windows-1252 prescan late=same from windows-1252 at 540
	// warcfile.warc.gz 87298 10860 windows-1252 prescan late=same from windows-1252 at 1229
}

// lateOrBOM emits a line for r if a byte order mark decided its encoding
// or the encoding changed after the window.
func lateOrBOM(r warcio.Record, emit func(string)) {
	line := fmt.Sprintf("%s %d %d %s %s", filepath.Base(r.File), r.Offset, r.Length, r.Encoding, r.Source)
	switch {
	case r.BOM > 0:
		emit(fmt.Sprintf("%s bom=%d", line, r.BOM))
	case r.LateChange != "":
		emit(fmt.Sprintf("%s late=%s from %s at %d", line, r.LateChange, r.LateFrom, r.LateOffset))
	}
}

// printSorted prints the lines of the file out, sorted.
func printSorted(out string) {
	b, err := os.ReadFile(out)
	if err != nil {
		log.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	sort.Strings(lines)
	fmt.Println(strings.Join(lines, "\n"))
}

// printByOffset prints the offset, URI and encoding of each JSON line of
// the file out, in the order of the offsets.
func printByOffset(out string) {
	b, err := os.ReadFile(out)
	if err != nil {
		log.Fatal(err)
	}
	type line struct {
		Offset   int64
		URI      string
		Encoding string
	}
	var rs []line
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r line
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			log.Fatal(err)
		}
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Offset < rs[j].Offset })
	for _, r := range rs {
		fmt.Println(r.Offset, r.URI, r.Encoding)
	}
}
