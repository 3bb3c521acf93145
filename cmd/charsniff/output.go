package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/charsniff/charsniff/decode"
)

// app is one run of the command.
type app struct {
	cfg    *config
	stdin  io.Reader
	stderr io.Writer
	opts   []decode.Option
	// provenance says the results carry what each step of sniffing saw
	// and which declarations lost (--json, an index, --stats): the text
	// lines and the lines of --decode do not show it, and it costs a
	// prescan and a detector run a document.
	provenance bool
	// outs are the regular files the run writes to: standard output's
	// first (nil when standard output is no regular file), then the -o
	// FILE. No input may be one of them.
	outs []os.FileInfo
	// given is what the flags say of every plain input's type, and
	// givenEssence the --content-type that makes it typeBinary.
	given        typeVerdict
	givenEssence string
	failed       bool // an input or a record failed (exit 1 unless --exit-zero)
	intoInput    bool // an input was refused as the file standard output writes to
	fatal        bool // the --files-from list could not be read (exit 1)
	stats        *stats
	prog         *progress
	out          *bufio.Writer // results (nil when standard output carries text)
	enc          *json.Encoder // on out, with --json
	index        *indexOut     // with --format cdxj or parquet
	line         []byte        // a text line, reused
}

// note counts a result and reports a failed one on standard error.
func (a *app) note(r *result) {
	if a.stats != nil {
		a.stats.add(r)
	}
	if r.intoInput {
		a.intoInput = true
	}
	if r.Err != nil {
		a.failed = true
		if r.fatal {
			a.fatal = true
		}
		a.prog.clear()
		fmt.Fprintf(a.stderr, "charsniff: %s: %s\n", r.where(), r.Err)
	}
}

// emit reports one result: an output line, or an error line on standard
// error (and a JSON line with the error, with --json).
func (a *app) emit(r *result) error {
	a.note(r)
	if a.index != nil {
		return a.index.write(r)
	}
	if a.out == nil || r.intoInput {
		return nil
	}
	if a.cfg.json {
		return a.enc.Encode(r)
	}
	a.line = appendTextLine(a.line[:0], r)
	_, err := a.out.Write(a.line)
	return err
}

// appendTextLine appends r's line in the text format: PATH: ENCODING
// (CONFIDENCE, SOURCE), with ", late at byte OFFSET" before the ) when the
// encoding switched after the window (", late same at byte OFFSET",
// ", late restarted at byte OFFSET" or ", late restart-needed at byte
// OFFSET" for a late <meta> that named the encoding in use, or one the
// bytes before it rule out, in the window, where the reader decoded the
// input again, or past it), or nothing for a failed document (its error
// line is on standard error).
func appendTextLine(b []byte, r *result) []byte {
	if r.Err != nil {
		return b
	}
	b = fmt.Appendf(b, "%s: %s (%s, %s", r.where(), r.Encoding.LowerName(), r.Confidence, r.Source)
	if l := r.Late; l.Kind != decode.NoChange {
		b = append(b, ", late "...)
		if l.Kind != decode.SwitchedOnTheFly {
			b = append(b, l.Kind.String()...)
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "at byte %d", l.Offset)
	}
	return append(b, ")\n"...)
}

// setOutput directs result lines to w (nil: none).
func (a *app) setOutput(w io.Writer) {
	if w == nil {
		return
	}
	a.out = bufio.NewWriterSize(w, 64<<10)
	a.enc = json.NewEncoder(a.out)
	a.enc.SetEscapeHTML(false)
}

// finish flushes the output, writes the summary and returns the exit status.
// The summary goes to standard output when that carries the text lines or
// nothing (-o FILE has the output), unless standard output is one of the
// inputs; otherwise (JSON Lines, CDXJ lines or decoded text there) it goes
// to standard error.
func (a *app) finish(stdout io.Writer, werr error) int {
	a.prog.finish()
	if a.index != nil {
		werr = a.index.close(werr)
	}
	if a.out != nil {
		if err := a.out.Flush(); werr == nil {
			werr = err
		}
	}
	if a.stats != nil && werr == nil {
		w := stdout
		if a.cfg.json || (a.index != nil && a.cfg.outFile == "") || (a.cfg.decode && a.cfg.outFile == "") || a.intoInput {
			w = a.stderr
		}
		werr = a.stats.write(w)
	}
	switch {
	case werr != nil:
		return report(a.stderr, werr)
	case a.fatal, a.failed && !a.cfg.exitZero:
		return exitFailed
	}
	return exitOK
}
