package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/internal/firsterr"
	"github.com/charsniff/charsniff/sniff"
)

// runDecode decodes the inputs one after the other, in order, to standard
// output or -o FILE; with --json and no -o, into the JSON lines. With -o,
// the result lines go to standard output.
func (a *app) runDecode(stdout io.Writer) int {
	text, code := a.textOutput(stdout)
	if code >= 0 {
		return code
	}
	if a.cfg.stats {
		a.stats = newStats()
	}
	d := &decoder{a: a, note: true, headers: a.severalInputs()}
	if a.out != nil {
		d.out = a.out
	}
	if text != nil {
		d.tw = bufio.NewWriterSize(text, 64<<10)
	} else {
		d.text = &jsonText{valid: true}
	}
	w := a.newWorker()
	stop := a.startProgress(stdout, "decoding")
	var werr error
	var t total
	a.enumerate(func(in input) bool {
		if a.prog != nil {
			t.add(in)
		}
		werr = w.decode(in, d)
		return werr == nil
	})
	a.prog.setTotal(t.files, t.bytes)
	stop()
	if tw, ok := d.tw.(*bufio.Writer); ok {
		if err := tw.Flush(); werr == nil {
			werr = err
		}
	}
	if c, ok := text.(io.Closer); ok && text != stdout {
		if err := c.Close(); werr == nil {
			werr = err
		}
	}
	return a.finish(stdout, werr)
}

// severalInputs reports whether the run may have several inputs: several
// operands, a directory or a --files-from list. (A WARC file holds several
// documents too: see decode.)
func (a *app) severalInputs() bool {
	if len(a.cfg.paths) > 1 || a.cfg.filesFrom != "" {
		return true
	}
	for _, p := range a.cfg.paths {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() && p != "-" {
			return true
		}
	}
	return false
}

// textOutput sets up the outputs of --decode and returns where the text
// goes: standard output, the -o file (the result lines then go to standard
// output), or nil when it goes into the JSON lines. A problem is returned
// as an exit status; code is -1 otherwise.
func (a *app) textOutput(stdout io.Writer) (text io.Writer, code int) {
	switch {
	case a.cfg.outFile != "":
		if err := a.checkOutFile(); err != nil {
			fmt.Fprintf(a.stderr, "charsniff: %s\n", err)
			return nil, exitUsage
		}
		f, err := os.Create(a.cfg.outFile)
		if err != nil {
			fmt.Fprintf(a.stderr, "charsniff: %s: %s\n", a.cfg.outFile, describe(err))
			return nil, exitFailed
		}
		if fi, err := f.Stat(); err == nil {
			a.outs = append(a.outs, fi) // for the inputs found by walking
		}
		a.setOutput(stdout)
		return f, -1
	case a.cfg.json:
		a.setOutput(stdout)
		return nil, -1
	}
	return stdout, -1
}

// checkOutFile refuses an -o FILE that is also an input named on the
// command line or standard input (-): creating it would truncate the input
// before it is read.
func (a *app) checkOutFile() error {
	ofi, err := os.Stat(a.cfg.outFile)
	if err != nil {
		return nil // it does not exist yet (or Create will say why not)
	}
	for _, p := range a.cfg.paths {
		fi, err := os.Stat(p)
		if p == "-" {
			fi, err = regularFile(a.stdin), nil
		}
		if err == nil && fi != nil && os.SameFile(fi, ofi) {
			return fmt.Errorf("-o %s: is also an input", a.cfg.outFile)
		}
	}
	return nil
}

// decode decodes in, writing its text and result lines through d. The
// error is for the output only: a problem with the input is in its result.
func (w *worker) decode(in input, d *decoder) (werr error) {
	defer func() {
		if v := recover(); v != nil {
			werr = d.end(ptr(internalError(in.path, v)))
		}
	}()
	if in.err != nil {
		w.a.prog.inputDone()
		r := errorResult(in.path, in.err)
		r.fatal = in.fatal
		return d.end(&r)
	}
	o, err := w.openInput(in)
	if err == errNotArchive {
		return nil // skipped: no result
	}
	if err != nil {
		return d.end(ptr(errorResult(in.path, err)))
	}
	defer o.Close()
	if o.warc {
		// Its records are several documents (one, for a range).
		d.headers = d.headers || in.rng == nil
		c := newWARCCounts()
		var err error
		if f := splitWARC(in, o); f != nil {
			err = w.readParts(in, f, o.size, d, c, o.m)
		} else {
			err = w.decodeWARC(in, o.r, d, c)
		}
		if w.a.stats != nil {
			w.a.stats.warc.add(c)
		}
		return err
	}
	return w.decodeFile(in.path, o, d)
}

// decodeFile decodes the plain input o, whose path is path, writing its
// text and result line through d. The error is the output's.
func (w *worker) decodeFile(path string, o *opened, d *decoder) error {
	cr := &firsterr.Reader{R: o.r} // counts the document's bytes
	rd, err := w.countedReader(cr)
	if err != nil {
		return d.end(ptr(errorResult(path, err)))
	}
	// Settle first, so that a line written before the text holds the
	// final decision.
	pre := getSettled()
	defer putSettled(pre)
	*pre, _ = rd.Settle((*pre)[:0], maxSettle) // its error is o.er's
	r := result{Result: w.fileResult(path, rd), textFirst: unsettled(*pre)}
	if d.text != nil && o.size >= 0 && !o.unpack {
		// The line is written before the text: the size must be known.
		r.bytes = &o.size
	}
	text := func(w io.Writer) error {
		if _, err := w.Write(*pre); err != nil {
			return err
		}
		_, err := rd.WriteTo(w)
		if o.er.Err != nil {
			// The source failed: the text up to the bad read has been
			// written, and the result says what went wrong.
			r.Err = described{o.er.Err}
			return nil
		}
		return err
	}
	if err := d.begin(&r, text); err != nil {
		return err
	}
	// The final decision, for a line written after the text.
	fin := w.fileResult(path, rd)
	w.finishCount(&fin)
	fin.Err = r.Err
	r.Result = fin
	if r.Err == nil && d.text == nil {
		r.bytes = &cr.N
	}
	return d.end(&r)
}

// lineWriter is where a decoder writes result lines: the output's
// bufio.Writer, or a worker's buffer.
type lineWriter interface {
	io.Writer
	io.StringWriter
	io.ByteWriter
}

// decoder writes the decoded text and the result lines of --decode.
type decoder struct {
	a    *app
	out  lineWriter // the result lines; nil when there are none
	tw   io.Writer  // the text, unless it goes into the JSON lines
	text *jsonText  // the text into the JSON lines (--json without -o); nil otherwise
	// note says to count and report each result (a.note); a worker's
	// results are noted when they are written.
	note bool
	// headers says to write a header line naming each document before
	// its text in tw, as head does with several files: the run has
	// several inputs, or has met a WARC file.
	headers  bool
	headed   bool          // a header was written: the next starts with an empty line
	begun    bool          // a JSON line with text is open
	late     bool          // that line began with its text: end writes all its fields
	textLine []byte        // a text line, reused
	buf      bytes.Buffer  // for marshal
	enc      *json.Encoder // on buf
}

// begin writes the text of a document: to tw, or into a JSON line that
// stays open for end. The line starts with r's fields, or, if r.textFirst,
// with the text, and end writes the fields after it.
func (d *decoder) begin(r *result, text func(io.Writer) error) error {
	if d.text == nil {
		if err := d.header(r); err != nil {
			return err
		}
		return text(d.tw)
	}
	if err := d.open(r); err != nil {
		return err
	}
	d.begun, d.late = true, r.textFirst
	d.text.reset(d.out)
	if err := text(d.text); err != nil {
		return err
	}
	if err := d.text.Close(); err != nil {
		return err
	}
	return d.out.WriteByte('"')
}

// header writes the line that names r's document before its text, if
// the run writes headers: "==> NAME <==" (NAME as in the result lines:
// PATH, or PATH#OFFSET URI for a WARC record), after an empty line but for
// the first, as head writes them.
func (d *decoder) header(r *result) error {
	if !d.headers {
		return nil
	}
	sep := "\n==> "
	if !d.headed {
		sep = sep[1:]
	}
	d.headed = true
	_, err := io.WriteString(d.tw, sep+r.where()+" <==\n")
	return err
}

// open writes the start of r's JSON line, up to the opening quote of its
// text: its fields first, unless r.textFirst. A WARC record's length is
// left for end: it is known once the record has been read through.
func (d *decoder) open(r *result) error {
	if r.textFirst {
		_, err := d.out.WriteString(`{"text":"`)
		return err
	}
	head := *r
	head.Provenance, head.Mismatch = sniff.Provenance{}, archive.Mismatch{} // see end
	if w := r.Where; w != nil && w.Length != 0 {
		wc := *w
		wc.Length = 0
		head.Where = &wc
	}
	r = &head
	b, err := d.marshal(r)
	if err != nil {
		return err
	}
	b = append(b[:len(b)-1], `,"text":"`...)
	_, err = d.out.Write(b)
	return err
}

// end writes r's result line, or the end of the JSON line begin opened.
func (d *decoder) end(r *result) error {
	if d.note {
		d.a.note(r)
	}
	// The lines of --decode carry no provenance (--stats counts it): the
	// U+FFFD of a lost declaration are known only after the text.
	if r.Provenance != (sniff.Provenance{}) || r.Mismatch != (archive.Mismatch{}) {
		bare := *r
		bare.Provenance, bare.Mismatch = sniff.Provenance{}, archive.Mismatch{}
		r = &bare
	}
	if !d.begun {
		return d.line(r)
	}
	d.begun = false
	if d.late {
		return d.fieldsAfter(r)
	}
	if r.Where != nil && r.Length != 0 {
		d.textLine = strconv.AppendInt(append(d.textLine[:0], `,"length":`...), r.Length, 10)
		if _, err := d.out.Write(d.textLine); err != nil {
			return err
		}
	}
	b, err := r.appendTail(d.textLine[:0])
	if err != nil {
		return err
	}
	d.textLine = append(b, '\n')
	_, err = d.out.Write(d.textLine)
	return err
}

// fieldsAfter ends a JSON line that began with its text: all of r's
// fields, then the closing brace.
func (d *decoder) fieldsAfter(r *result) error {
	b, err := d.marshal(r)
	if err != nil {
		return err
	}
	b[0] = ','
	if _, err := d.out.Write(b); err != nil {
		return err
	}
	return d.out.WriteByte('\n')
}

// line writes r's result line without text, if there are result lines.
func (d *decoder) line(r *result) error {
	if d.out == nil || r.intoInput {
		return nil
	}
	if !d.a.cfg.json {
		d.textLine = appendTextLine(d.textLine[:0], r)
		_, err := d.out.Write(d.textLine)
		return err
	}
	b, err := d.marshal(r)
	if err != nil {
		return err
	}
	if _, err := d.out.Write(b); err != nil {
		return err
	}
	return d.out.WriteByte('\n')
}

// marshal returns the JSON of v as the output lines write it (no HTML
// escaping), without the newline. It is valid until the next call.
func (d *decoder) marshal(v any) ([]byte, error) {
	if d.enc == nil {
		d.enc = json.NewEncoder(&d.buf)
		d.enc.SetEscapeHTML(false)
	}
	d.buf.Reset()
	if err := d.enc.Encode(v); err != nil {
		return nil, err
	}
	b := d.buf.Bytes()
	return b[:len(b)-1], nil
}
