// Command charsniff-beam sniffs and decodes the HTML records of WARC files
// on an Apache Beam runner, as `charsniff --json` does on one machine: one
// JSON line per record, damaged record and stretch of damaged input,
// written to --output in no particular order. Large files are split at
// record boundaries, so that one file is read by several workers.
//
//	charsniff-beam --input='crawl/*.warc.gz' --output=records.jsonl
//	charsniff-beam --index=rows.tsv --output=records.jsonl --text
//
// --input takes paths or globs, separated by commas; --index a file of
// index rows, PATH<TAB>OFFSET<TAB>LENGTH (a Common Crawl columnar index's
// warc_filename, warc_record_offset and warc_record_length) or a PATH
// alone. Paths may be local or any scheme of Beam's filesystems (gs://).
// --runner picks the runner: prism (the default, in this process),
// dataflow, flink, spark; docs/beam.md has their flags.
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
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/charsniff/charsniff/beam/warcio"
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
	p, s := beam.NewPipelineWithRoot()
	var spans []beam.PCollection
	if *input != "" {
		paths, err := expand(ctx, *input)
		if err != nil {
			return err
		}
		spans = append(spans, warcio.Paths(s, beam.CreateList(s, paths)))
	}
	if *index != "" {
		spans = append(spans, beam.ParDo(s, parseRow, textio.Read(s, *index)))
	}
	docs := warcio.Read(s, beam.Flatten(s, spans...), warcio.Options{PartSize: *partSize, Text: *text})
	textio.Write(s, *output, beam.ParDo(s, warcio.JSON, docs))
	return beamx.Run(ctx, p)
}

// expand returns the files the comma-separated paths and globs of list
// name, each glob matching at least one.
func expand(ctx context.Context, list string) ([]string, error) {
	var paths []string
	for _, glob := range strings.Split(list, ",") {
		if glob == "" {
			continue
		}
		fs, err := filesystem.New(ctx, glob)
		if err != nil {
			return nil, err
		}
		files, err := fs.List(ctx, glob)
		fs.Close()
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("no file matches %s", glob)
		}
		paths = append(paths, files...)
	}
	return paths, nil
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
