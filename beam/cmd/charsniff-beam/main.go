// Command charsniff-beam sniffs and decodes the HTML records of WARC files
// on an Apache Beam runner, as `charsniff --json` does on one machine: one
// JSON line per record, damaged record and stretch of damaged input,
// written to --output in no particular order. Large files are split at
// record boundaries, so that one file is read by several workers.
//
//	charsniff-beam --input='crawl/*.warc.gz' --output=records.jsonl
//	charsniff-beam --index=rows.tsv --output=records.jsonl --text
//
// --input takes paths or globs, separated by commas, matched when the
// pipeline runs (fileio.MatchAll), each of which must match a file;
// --index a file of index rows, PATH<TAB>OFFSET<TAB>LENGTH (a Common
// Crawl columnar index's warc_filename, warc_record_offset and
// warc_record_length) or a PATH alone. Paths may be local or any scheme
// of Beam's filesystems (gs://). The sniffing flags are the charsniff
// command's (--content-type, --override, --hint-tld, ...), and win over
// each record's stored header and host as the command's do. --runner
// picks the runner: prism (the default, in this process), dataflow,
// flink, spark; docs/beam.md has their flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/charsniff/charsniff/beam/warcio"
	"github.com/charsniff/charsniff/sniff"
)

func init() {
	register.Function1x2(parseRow)
}

var (
	input    = flag.String("input", "", "WARC files to read: paths or globs, separated by commas")
	index    = flag.String("index", "", "a file of index rows to read: PATH<TAB>OFFSET<TAB>LENGTH, or PATH, a line each")
	output   = flag.String("output", "", "the file the JSON lines go to (required)")
	partSize = flag.Int64("part_size", warcio.DefaultPartSize, "the size of the pieces a gzip WARC file is cut into at record boundaries before the run")
	text     = flag.Bool("text", false, "put each record's decoded text into its line as \"text\", as charsniff --decode --json does")

	// The sniffing flags, named and meant as the charsniff command's.
	contentType  = flag.String("content-type", "", "transport-layer `VALUE` of the Content-Type header for every record, instead of the stored one")
	overrideEnc  = flag.String("override", "", "user override: decode as `LABEL` (certain) unless a BOM says otherwise")
	defaultEnc   = flag.String("default", "", "default encoding `LABEL` when nothing else decides (instead of the locale's)")
	likely       = flag.String("likely", "", "likely encoding `LABEL`, used when no declaration decides, before autodetection")
	locale       = flag.String("locale", "", "locale or top-level domain `HINT` (ja, zh-TW, .jp) biasing autodetection and choosing the default encoding")
	tld          = flag.String("hint-tld", "", "top-level `DOMAIN` or host name for every record, instead of the host of its WARC-Target-URI")
	window       = flag.Int("window", sniff.DefaultWindow, "prescan window in `BYTES`")
	lookahead    = flag.Int64("lookahead", 64<<10, "while the encoding is tentative, look past the window as a browser does, holding at most `BYTES` to decide (0: the window alone)")
	noAutodetect = flag.Bool("no-autodetect", false, "spec-literal: skip the autodetection step")
	detectAll    = flag.Bool("detect-all", false, "autodetection also guesses encodings browsers never guess, for old collections")
	legacy       = flag.Bool("legacy-labels", false, "resolve labels with the 2008 draft's loose matching (old archives)")
	raw          = flag.Bool("raw", false, "with --text: plain WHATWG decode, without the newline/NUL preprocessing")
)

func main() {
	flag.Parse()
	beam.Init()
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "charsniff-beam:", err)
		os.Exit(1)
	}
}

// run builds the pipeline of the flags and runs it on --runner.
func run(ctx context.Context) error {
	if *output == "" || (*input == "" && *index == "") {
		return errors.New("--output and --input or --index are required")
	}
	opts := options()
	p, s := beam.NewPipelineWithRoot()
	var records []beam.PCollection
	if *input != "" {
		var globs []string
		for _, g := range strings.Split(*input, ",") {
			if g == "" {
				continue
			}
			fs, err := filesystem.New(ctx, g) // a scheme of no filesystem fails here, not on the workers
			if err != nil {
				return fmt.Errorf("%s: %w", g, err)
			}
			fs.Close()
			globs = append(globs, g)
		}
		files := fileio.MatchAll(s, beam.CreateList(s, globs), fileio.MatchEmptyDisallow())
		recs, err := warcio.TryReadFiles(s, files, opts)
		if err != nil {
			return err
		}
		records = append(records, recs)
	}
	if *index != "" {
		recs, err := warcio.TryRead(s, beam.ParDo(s, parseRow, textio.Read(s, *index)), opts)
		if err != nil {
			return err
		}
		records = append(records, recs)
	}
	textio.Write(s, *output, beam.ParDo(s, warcio.JSON, beam.Flatten(s, records...)))
	return beamx.Run(ctx, p)
}

// options returns the options of the flags.
func options() warcio.Options {
	o := warcio.Options{PartSize: *partSize, Text: *text,
		ContentType: *contentType, Override: *overrideEnc, Default: *defaultEnc, Likely: *likely,
		Locale: *locale, TLD: *tld, Window: *window, Lookahead: *lookahead,
		NoAutodetect: *noAutodetect, DetectAll: *detectAll, Legacy: *legacy, Raw: *raw}
	if *lookahead == 0 {
		o.Lookahead = -1 // the window alone, as the command's --lookahead 0
	}
	return o
}

// parseRow parses an index row: PATH<TAB>OFFSET<TAB>LENGTH, or PATH.
func parseRow(line string) (warcio.Span, error) {
	f := strings.Split(strings.TrimSuffix(line, "\r"), "\t")
	switch len(f) {
	case 1:
		return warcio.Span{Path: f[0]}, nil
	case 3:
		off, err1 := strconv.ParseInt(f[1], 10, 64)
		n, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 == nil && err2 == nil && n > 0 {
			return warcio.Span{Path: f[0], Offset: off, Length: n}, nil
		}
	}
	return warcio.Span{}, fmt.Errorf("index row %q: want PATH<TAB>OFFSET<TAB>LENGTH (a positive length) or PATH", line)
}
