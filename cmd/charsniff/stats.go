package main

import (
	"cmp"
	"fmt"
	"io"
	"net/url"
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
	// The declarations that lost (with provenance): in all, and by
	// input file and by the host of a WARC record's URI.
	lost  [2]lostCount // the transport's, the prescan's
	files map[string]*mismatchCount
	hosts map[string]*mismatchCount
}

// lostCount counts the documents where one kind of declaration lost, and
// those of them whose decode with it gives U+FFFD, or was not counted.
type lostCount struct{ n, fffd, uncounted int }

// mismatchCount counts the documents of a file or a host: all, those
// where a declaration lost, and of those, the ones that decoding with a
// lost declaration turns U+FFFD in, or where that was not counted.
type mismatchCount struct{ docs, mismatched, fffd, uncounted int }

func newStats() *stats {
	return &stats{encodings: make(map[string]int), sources: make(map[string]int), warc: newWARCCounts(),
		files: make(map[string]*mismatchCount), hosts: make(map[string]*mismatchCount)}
}

func (s *stats) add(r *result) {
	if r.Err != nil {
		s.failed++
		return
	}

	s.docs++
	s.encodings[r.Encoding.LowerName()]++
	s.sources[r.Source.String()]++
	s.addMismatch(r)
}

// addMismatch counts r's lost declarations, in all, for its file and for
// its host. A lost declaration's decode has U+FFFD when its count is
// positive, and was not counted when it is negative (see
// archive.Mismatch).
func (s *stats) addMismatch(r *result) {
	m := &r.Mismatch
	fffd, uncounted := false, false
	for i, lost := range [2]struct {
		ok bool
		n  int64
	}{{m.Transport, m.TransportReplaced}, {m.Prescan, m.PrescanReplaced}} {
		if !lost.ok {
			continue
		}
		c := &s.lost[i]
		c.n++
		switch {
		case lost.n > 0:
			c.fffd++
			fffd = true
		case lost.n < 0:
			c.uncounted++
			uncounted = true
		}
	}
	counts := []*mismatchCount{count(s.files, r.File)}
	if r.Where != nil {
		if u, err := url.Parse(r.URI); err == nil && u.Hostname() != "" {
			counts = append(counts, count(s.hosts, strings.ToLower(u.Hostname())))
		}
	}
	for _, c := range counts {
		c.docs++
		if m.Transport || m.Prescan {
			c.mismatched++
			switch {
			case fffd:
				c.fffd++
			case uncounted:
				c.uncounted++
			}
		}
	}
}

// count returns m's count for key, made if need be.
func count(m map[string]*mismatchCount, key string) *mismatchCount {
	c := m[key]
	if c == nil {
		c = new(mismatchCount)
		m[key] = c
	}
	return c
}

// maxMismatchRows is the most files or hosts the mismatch tables list.
const maxMismatchRows = 20

// writeMismatches prints the declarations that lost: a row for the
// transport's and one for the prescan's, then the files and the hosts
// with a mismatch, most first (ties by name), at most maxMismatchRows
// of each, with how many more there are.
func (s *stats) writeMismatches(b *strings.Builder) {
	fmt.Fprintf(b, "%-22s %9s %11s %11s\n", "declaration that lost", "documents", "with U+FFFD", "not counted")
	for i, name := range []string{"transport (HTTP)", "prescan (meta, XML)"} {
		c := s.lost[i]
		fmt.Fprintf(b, "%-22s %9d %11d %11d\n", name, c.n, c.fffd, c.uncounted)
	}
	for _, t := range []struct {
		title string
		m     map[string]*mismatchCount
	}{{"file", s.files}, {"host", s.hosts}} {
		type row struct {
			name string
			c    *mismatchCount
		}
		var rows []row
		width := len(t.title)
		for name, c := range t.m {
			if c.mismatched > 0 {
				rows = append(rows, row{name, c})
			}
		}
		if len(rows) == 0 {
			continue
		}
		slices.SortFunc(rows, func(a, b row) int {
			if c := cmp.Compare(b.c.mismatched, a.c.mismatched); c != 0 {
				return c
			}
			return strings.Compare(a.name, b.name)
		})
		more := len(rows) - maxMismatchRows
		rows = rows[:min(len(rows), maxMismatchRows)]
		for _, r := range rows {
			width = max(width, utf8.RuneCountInString(r.name))
		}
		b.WriteByte('\n')
		fmt.Fprintf(b, "%-*s %9s %10s %11s %11s\n", width, t.title, "documents", "mismatched", "with U+FFFD", "not counted")
		for _, r := range rows {
			fmt.Fprintf(b, "%-*s %9d %10d %11d %11d\n", width, r.name, r.c.docs, r.c.mismatched, r.c.fffd, r.c.uncounted)
		}
		if more > 0 {
			fmt.Fprintf(b, "(%d more %s with a mismatch)\n", more, plural(more, t.title, t.title+"s"))
		}
	}
	b.WriteByte('\n')
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
		s.writeMismatches(&b)
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
