// Command charsniff reports the character encoding of HTML documents as a
// browser following the WHATWG HTML Standard determines it, and decodes them
// to normalized UTF-8.
//
// Usage:
//
//	charsniff [flags] [FILE or DIR ...]
//
// For each document it prints one line, PATH: ENCODING (CONFIDENCE, SOURCE),
// with ", late at byte N" before the ) when the encoding changed past the
// first kilobyte, or with --json one JSON object:
//
//	{"file":"PATH","encoding":"windows-1252","confidence":"tentative","source":"prescan"}
//
// followed by optional fields (bom, late, bytes, provenance, error). With no FILE, or when FILE
// is -, it reads standard input; directories are walked recursively (HTML
// files and web archives); --files-from LIST names more inputs, one a line.
// Gzip-compressed inputs are decompressed first. An input that is binary
// data (an executable, an image) gets an error, not an encoding, unless
// --text, --override, a text --content-type or a text file name (page.html)
// says to read it, as a browser would; otherwise the MIME Sniffing
// Standard's rules for an unknown type decide, with the encoding sniffing
// algorithm's own answers (a BOM, a <meta>) counting as text.
// With --decode and several documents, each text follows a header line,
// ==> NAME <==, as head writes them.
//
// WARC files (and ARC files), plain or gzip, zstd or LZ4 compressed, are
// recognized by their first bytes: each response or resource record with an
// HTML payload gets a line, sniffed with its stored HTTP Content-Type, and with the fields record_id, uri, offset,
// status and http_charset (the schema of package archive, which does the
// per-record work). With --decode --json each line carries the decoded
// text. A gzip WARC file of one member per record is read on all cores, in
// parts (from a pipe, --decode decodes its records on all cores). A single
// record is read by its index coordinates with --range OFFSET:LENGTH, or
// with PATH<TAB>OFFSET<TAB>LENGTH lines in the --files-from list.
//
// The exit status is 0 when every input and record was processed (or with
// --exit-zero), 1 when any failed and 2 on a usage error. Run charsniff
// --help for the flags.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK     = 0 // every input processed
	exitFailed = 1 // at least one input failed, or output could not be written
	exitUsage  = 2 // bad command line
)

// run is the command: it parses args, processes the inputs and returns the
// exit status. It never panics on bad input.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, err := parseArgs(args)
	switch {
	case errors.Is(err, errHelp):
		return report(stderr, printUsage(stdout))
	case err != nil:
		fmt.Fprintf(stderr, "charsniff: %v\nRun 'charsniff --help' for usage.\n", err)
		return exitUsage
	case c.version:
		_, err := fmt.Fprintf(stdout, "charsniff %s (%s)\n", version(), runtime.Version())
		return report(stderr, err)
	}
	a := &app{cfg: c, stdin: stdin, stderr: stderr, opts: c.readerOptions(), provenance: c.json && !c.decode || c.index() || c.stats}
	a.outs = []os.FileInfo{regularFile(stdout)} // nil unless a regular file
	a.given, a.givenEssence = c.givenType()
	if c.decode {
		return a.runDecode(stdout)
	}
	return a.runSniff(stdout)
}

// report returns the exit status after writing to standard output: 0, or
// 1 with a message when the write failed (a full disk, a closed pipe).
func report(stderr io.Writer, werr error) int {
	if werr != nil {
		fmt.Fprintf(stderr, "charsniff: writing output: %s\n", describe(werr))
		return exitFailed
	}
	return exitOK
}
