package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// stats counts results for --stats.
type stats struct {
	docs      int            // results with an encoding
	failed    int            // results with an error
	encodings map[string]int // by lower-case encoding name
	sources   map[string]int // by source ("prescan", ...)
	warc      *warcCounts    // the records of WARC inputs
}

func newStats() *stats {
	return &stats{encodings: make(map[string]int), sources: make(map[string]int), warc: newWARCCounts()}
}

func (s *stats) add(r *result) {
	if r.Err != nil {
		s.failed++
		return
	}

	s.docs++
	s.encodings[r.Encoding.LowerName()]++
	s.sources[r.Source.String()]++
}

// barWidth is the width in cells of the longest bar.
const barWidth = 30

// eighths draws the fractional end of a bar: index n is n/8 of a cell.
var eighths = [...]string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// bar returns a bar of n/top × barWidth cells, in eighths of a cell.
func bar(n, top int) string {
	if top <= 0 || n <= 0 {
		return ""
	}
	units := (n*barWidth*8 + top/2) / top
	if units == 0 {
		units = 1 // a non-zero count is never invisible
	}
	return strings.Repeat("█", units/8) + eighths[units%8]
}

// write prints the summary: a table of encodings and a table of sources,
// each row with its count, its share of the documents and a bar, largest
// first (ties by name), then the totals.
func (s *stats) write(w io.Writer) error {
	// One name column for both tables, so that they line up.
	width := len("encoding")
	for _, m := range []map[string]int{s.encodings, s.sources} {
		for name := range m {
			width = max(width, utf8.RuneCountInString(name))
		}
	}
	var b strings.Builder
	b.WriteByte('\n')
	if s.docs > 0 {
		s.table(&b, width, "encoding", s.encodings)
		b.WriteByte('\n')
		s.table(&b, width, "source", s.sources)
		b.WriteByte('\n')
	}
	if s.warc.files > 0 {
		s.writeWARC(&b)
	}
	fmt.Fprintf(&b, "%d %s, %d failed\n", s.docs, plural(s.docs, "document", "documents"), s.failed)
	_, err := io.WriteString(w, b.String())
	return err
}

// table prints the counts of m under title, a name column width wide.
func (s *stats) table(b *strings.Builder, width int, title string, m map[string]int) {
	type row struct {
		name string
		n    int
	}
	rows := make([]row, 0, len(m))
	top := 0
	for name, n := range m {
		rows = append(rows, row{name, n})
		top = max(top, n)
	}
	slices.SortFunc(rows, func(a, b row) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	fmt.Fprintf(b, "%-*s %9s %7s\n", width, title, "documents", "share")
	for _, r := range rows {
		share := 100 * float64(r.n) / float64(s.docs)
		fmt.Fprintf(b, "%-*s %9d %6.1f%% %s\n", width, r.name, r.n, share, bar(r.n, top))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// writeWARC prints what became of the records of the WARC inputs: one row
// for the records sniffed, one for those skipped because their payload is
// not HTML, one for each other record type (skipped), largest first, and
// the error lines, and the byte ranges skipped.
func (s *stats) writeWARC(b *strings.Builder) {
	c := s.warc
	type row struct {
		name string
		n    int
		note string
	}
	rows := []row{{"sniffed", c.Sniffed, ""}, {"not HTML", c.NotHTML, "(skipped)"}}
	for t, n := range c.Skipped {
		rows = append(rows, row{t, n, "(skipped)"})
	}
	slices.SortStableFunc(rows[2:], func(a, b row) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	width := len("WARC records")
	for _, r := range rows {
		width = max(width, utf8.RuneCountInString(r.name))
	}
	fmt.Fprintf(b, "%-*s %9s\n", width, "WARC records", "count")
	for _, r := range rows {
		line := fmt.Sprintf("%-*s %9d %s", width, r.name, r.n, r.note)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	fmt.Fprintf(b, "%d %s in %d WARC %s, %d failed\n", c.Records, plural(c.Records, "record", "records"),
		c.files, plural(c.files, "file", "files"), c.Failed)
	if n := c.SkippedRanges; n > 0 {
		// Records lost after a damaged one (warc.SkippedError).
		fmt.Fprintf(b, "%d byte %s skipped: %d %s not searched for records\n", n, plural(n, "range", "ranges"),
			c.SkippedBytes, plural(int(min(c.SkippedBytes, 2)), "byte", "bytes"))
	}
	b.WriteByte('\n')
}
