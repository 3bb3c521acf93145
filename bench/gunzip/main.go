// Command gunzip is the baseline of the WARC benchmarks
// (bench/results/2026-12-01-warc.md): Go's gzip reader alone, inflating
// every member of a file to io.Discard, as the charsniff command must at
// least do on one core.
//
// Usage: go build -o /tmp/gunzip ./gunzip && /tmp/gunzip FILE.warc.gz
package main

import (
	"bufio"
	"compress/gzip"
	"io"
	"log"
	"os"
)

func main() {
	log.SetFlags(0)
	if len(os.Args) != 2 {
		log.Fatal("usage: gunzip FILE")
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 64<<10))
	if err != nil {
		log.Fatal(err)
	}
	zr.Multistream(true)
	if _, err := io.Copy(io.Discard, zr); err != nil {
		log.Fatal(err)
	}
}
