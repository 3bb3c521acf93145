// Command mkwarc writes a synthetic crawl (internal/warctest.Generate: HTML
// pages in several encodings, with their requests and metadata) as a WARC
// file, each record in its own gzip member as crawlers write them, or
// uncompressed with -gzip=false. It makes the input of bench/regress.sh's
// WARC commands:
//
//	go run ./mkwarc -size 33554432 -o crawl.warc.gz
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/charsniff/charsniff/internal/warctest"
)

func main() {
	log.SetFlags(0)
	size := flag.Int64("size", 32<<20, "uncompressed `bytes` of WARC records to write (about)")
	compress := flag.Bool("gzip", true, "write each record as its own gzip member")
	seed := flag.Uint64("seed", 1, "seed of the pages' random choices")
	out := flag.String("o", "", "output `file` (default: standard output)")
	flag.Parse()
	if flag.NArg() > 0 {
		log.Fatalf("mkwarc: unexpected argument %q", flag.Arg(0))
	}
	f := os.Stdout
	if *out != "" {
		var err error
		if f, err = os.Create(*out); err != nil {
			log.Fatal(err)
		}
	}
	w := bufio.NewWriterSize(f, 1<<20)
	st, err := warctest.Generate(w, *size, *compress, *seed)
	if err == nil {
		err = w.Flush()
	}
	if err == nil && f != os.Stdout {
		err = f.Close()
	}
	if err != nil {
		log.Fatalf("mkwarc: %v", err)
	}
	fmt.Fprintf(os.Stderr, "mkwarc: %+v\n", st)
}
