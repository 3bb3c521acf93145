// Command charsniff reports the character encoding of HTML documents as a
// browser following the WHATWG HTML Standard determines it, and decodes them
// to normalized UTF-8.
//
// Usage:
//
//	charsniff [flags] [FILE or DIR ...]
//
// For each document it prints one line, PATH: ENCODING (CONFIDENCE, SOURCE),
// or with --json one JSON object:
//
//	{"file":"PATH","encoding":"windows-1252","confidence":"tentative","source":"prescan"}
//
// followed by optional fields (bom, bytes, error). With no FILE, or when FILE
// is -, it reads standard input; directories are walked recursively;
// --files-from LIST names more inputs, one a line.
//
// WARC files, plain or gzip, are recognized by their first bytes: each
// response or resource record with an HTML payload gets a line, sniffed with
// its stored HTTP Content-Type, and with the fields record_id, uri, offset,
// status and http_charset. With --decode --json each line carries the
// decoded text.
//
// The exit status is 0 when every input and record was processed (or with
// --exit-zero), 1 when any failed and 2 on a usage error. Run charsniff
// --help for the flags.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
	"github.com/charsniff/charsniff/warc"
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
		printUsage(stdout)
		return exitOK
	case err != nil:
		fmt.Fprintf(stderr, "charsniff: %v\nRun 'charsniff --help' for usage.\n", err)
		return exitUsage
	case c.version:
		fmt.Fprintf(stdout, "charsniff %s (%s)\n", version(), runtime.Version())
		return exitOK
	}
	a := &app{cfg: c, stdin: stdin, stderr: stderr}
	a.opts, a.optErr = c.readerOptions()
	if c.decode {
		return a.runDecode(stdout)
	}
	return a.runSniff(stdout)
}

// readerOptions turns the flags into options of decode.NewReader, so the
// command and the library always give one answer. An unknown label is an
// error naming its flag.
func (c *config) readerOptions() ([]decode.Option, error) {
	lookup := override.Lookup
	if c.legacy {
		lookup = override.LookupLegacy
	}
	o := sniff.Options{
		ContentType:  c.contentType,
		Locale:       c.locale,
		TLD:          c.tld,
		Window:       c.window,
		NoAutodetect: c.noAutodetect,
		Legacy:       c.legacy,
	}
	for _, l := range []struct {
		label, flag string
		e           *override.Encoding
	}{
		{c.override, "--override", &o.Override},
		{c.defaultLabel, "--default", &o.Default},
	} {
		if l.label == "" {
			continue
		}
		e, ok := lookup(l.label)
		if !ok {
			return nil, fmt.Errorf("unknown encoding label %q (%s)", l.label, l.flag)
		}
		*l.e = e
	}
	opts := []decode.Option{decode.WithSniff(o), decode.WithLookahead(c.lookahead)}
	if c.raw {
		opts = append(opts, decode.WithoutPreprocessing())
	}
	return opts, nil
}

// problem rewrites an error of the decode package in the command's terms.
func problem(err error) error { return err }

// settle reads rd, discarding the text, until its look-ahead has decided
// (see decode.Reader.Decided): what the sniff-only command needs for the
// final result, and no more.
func settle(rd *decode.Reader) {
	var buf [4096]byte
	for !rd.Decided() {
		if _, err := rd.Read(buf[:]); err != nil {
			return
		}
	}
}

// app is one run of the command.
type app struct {
	cfg    *config
	stdin  io.Reader
	stderr io.Writer
	opts   []decode.Option
	// optErr is the flags' problem for decode.NewReader (an unknown
	// label), reported for each input.
	optErr error
	failed bool // an input or a record failed (exit 1 unless --exit-zero)
	fatal  bool // the --files-from list could not be read (exit 1)
	stats  *stats
	prog   *progress
	out    *bufio.Writer // results (nil when standard output carries text)
	enc    *json.Encoder // on out, with --json
	// text writes the decoded text into JSON lines (--decode --json
	// without -o); nil otherwise.
	text *jsonText
}

// note counts a result and reports a failed one on standard error.
func (a *app) note(r *result) {
	if a.stats != nil {
		a.stats.add(r)
	}
	if r.Error != "" {
		a.failed = true
		if r.fatal {
			a.fatal = true
		}
		a.prog.clear()
		fmt.Fprintf(a.stderr, "charsniff: %s: %s\n", r.where(), r.Error)
	}
}

// emit reports one result: an output line, or an error line on standard
// error (and a JSON line with the error, with --json).
func (a *app) emit(r *result) error {
	a.note(r)
	if a.out == nil {
		return nil
	}
	if a.cfg.json {
		return a.enc.Encode(r)
	}
	if r.Error != "" {
		return nil
	}
	_, err := fmt.Fprintf(a.out, "%s: %s (%s, %s)\n", r.where(), r.Encoding, r.Confidence, r.Source)
	return err
}

// where names a result's document in text lines: its path, and for a WARC
// record "PATH#OFFSET URI".
func (r *result) where() string {
	if r.warcFields == nil {
		return r.File
	}
	s := r.File + "#" + strconv.FormatInt(r.Offset, 10)
	if r.URI != "" {
		s += " " + r.URI
	}
	return s
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
// The summary goes to standard output unless that carries JSON Lines or
// decoded text; then it goes to standard error.
func (a *app) finish(stdout io.Writer, werr error) int {
	a.prog.finish()
	if a.out != nil {
		if err := a.out.Flush(); werr == nil {
			werr = err
		}
	}
	if a.stats != nil && werr == nil {
		w := stdout
		if a.cfg.json || (a.cfg.decode && a.cfg.outFile == "") {
			w = a.stderr
		}
		werr = a.stats.write(w)
	}
	switch {
	case werr != nil:
		fmt.Fprintf(a.stderr, "charsniff: writing output: %s\n", describe(werr))
		return exitFailed
	case a.fatal, a.failed && !a.cfg.exitZero:
		return exitFailed
	}
	return exitOK
}

// A job is one input on its way through the workers. The worker sends its
// results to out in batches, in order, and closes out when the input is
// done; out has room for a few batches, so that a worker runs ahead of the
// (ordered) output only a little and memory stays bounded however many
// records a WARC file holds.
type job struct {
	in  input
	out chan []result
	// warc counts the records of a WARC input; nil for other inputs. It is
	// complete when out is closed.
	warc *warcCounts
}

// batchSize is how many results a worker sends at a time.
const batchSize = 64

// runSniff sniffs every input, GOMAXPROCS of them at a time, and prints the
// results in input order.
func (a *app) runSniff(stdout io.Writer) int {
	a.setOutput(stdout)
	if a.cfg.stats {
		a.stats = newStats()
	}
	a.prog = newProgress(stdout, a.stderr)
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan *job)
	// order holds the jobs in input order; its capacity bounds how far the
	// workers may run ahead of the output, so memory stays bounded however
	// many files there are and however slow one of them is.
	order := make(chan *job, 4*workers)
	done := make(chan struct{}) // closed when the output gives up
	go func() {
		defer close(order)
		defer close(jobs)
		var n int64
		a.enumerate(true, func(in input) bool {
			n++
			j := &job{in: in, out: make(chan []result, 2)}
			if in.err != nil {
				r := errorResult(in.path, in.err)
				r.fatal = in.fatal
				j.out <- []result{r}
				close(j.out)
			}
			select {
			case order <- j:
			case <-done:
				return false
			}
			if in.err != nil {
				return true
			}
			select {
			case jobs <- j:
			case <-done:
				return false
			}
			return true
		})
		a.prog.setTotal(n)
	}()
	if a.prog != nil && a.cfg.filesFrom == "" {
		// The producer runs only a little ahead of the output, so count
		// the inputs in a walk of its own (names only, no file is opened)
		// to give the bar its total early.
		go func() {
			var n int64
			stopped := false
			a.enumerate(true, func(input) bool {
				n++
				select {
				case <-done:
					stopped = true
				default:
				}
				return !stopped
			})
			if !stopped {
				a.prog.setTotal(n)
			}
		}()
	}
	for range workers {
		go func() {
			w := a.newWorker()
			for j := range jobs {
				w.sniff(j, done)
			}
		}()
	}
	var werr error
	for {
		var j *job
		var ok bool
		select {
		case j, ok = <-order:
		default:
			// The next input is not there yet (a --files-from list on a
			// pipe, say): let what was printed so far out meanwhile.
			if err := a.out.Flush(); werr == nil {
				werr = err
			}
			j, ok = <-order
		}
		if !ok || werr != nil {
			break
		}
		for werr == nil {
			var rs []result
			var ok bool
			select {
			case rs, ok = <-j.out:
			default:
				// Nothing is ready: let what was printed so far out, so
				// that a reader of the pipe sees progress.
				if err := a.out.Flush(); werr == nil {
					werr = err
				}
				rs, ok = <-j.out
			}
			if !ok {
				break
			}
			for i := range rs {
				if err := a.emit(&rs[i]); err != nil && werr == nil {
					werr = err
				}
			}
			a.prog.add(len(rs))
		}
		if werr != nil {
			break
		}
		if j.warc != nil && a.stats != nil {
			a.stats.warc.add(j.warc)
		}
		a.prog.inputDone(j.warc != nil)
	}
	close(done)
	return a.finish(stdout, werr)
}

// worker processes inputs one at a time, reusing its readers.
type worker struct {
	a  *app
	rd *decode.Reader // nil until the first plain input
	br *bufio.Reader  // over each input, to recognize WARC files
	wr *warc.Reader   // nil until the first WARC input
	// recRd reads each WARC record's text, reset with the record's own
	// options (nil until the first HTML record); recOpts and recErr serve
	// it.
	recRd   *decode.Reader
	recOpts []decode.Option
	recErr  errReader
}

func (a *app) newWorker() *worker { return &worker{a: a} }

// reader returns the worker's reader, reset to read src.
func (w *worker) reader(src io.Reader) (*decode.Reader, error) {
	if w.a.optErr != nil {
		return nil, w.a.optErr
	}
	if w.rd == nil {
		rd, err := decode.NewReader(src, w.a.opts...)
		if err != nil {
			return nil, problem(err)
		}
		w.rd = rd
		return rd, nil
	}
	if err := w.rd.Reset(src, w.a.opts...); err != nil {
		return nil, problem(err)
	}
	return w.rd, nil
}

// openInput opens in and looks at its first bytes. It returns the input
// buffered, and whether it is a WARC file (or --warc says to read it as
// one). A read error in the first bytes is returned as err.
func (w *worker) openInput(in input) (src *source, br *bufio.Reader, er *errReader, isWARC bool, err error) {
	src, err = open(in, w.a.stdin)
	if err != nil {
		return nil, nil, nil, false, err
	}
	er = &errReader{r: src}
	if w.br == nil {
		w.br = bufio.NewReaderSize(er, 64<<10)
	} else {
		w.br.Reset(er)
	}
	head, _ := w.br.Peek(warc.SniffLen)
	if er.err != nil {
		src.Close()
		return nil, nil, nil, false, er.err
	}
	return src, w.br, er, w.a.cfg.warc || warc.IsWARC(head), nil
}

// sniff runs the sniffing algorithm on the input of j, reading only the
// window of a plain input, and sends the results to j.out. It gives up when
// done is closed.
func (w *worker) sniff(j *job, done <-chan struct{}) {
	b := &batch{j: j, done: done}
	defer func() {
		// A last resort: a bug must cost one input, not the run.
		if v := recover(); v != nil {
			b.rs = append(b.rs, result{File: j.in.path, Error: fmt.Sprintf("internal error: %v", v)})
		}
		b.flush()
		close(j.out)
	}()
	src, br, er, isWARC, err := w.openInput(j.in)
	if err != nil {
		b.end(ptr(errorResult(j.in.path, err)))
		return
	}
	defer src.Close()
	if isWARC {
		j.warc = newWARCCounts()
		w.readWARC(j.in.path, br, b, j.warc)
		return
	}
	rd, err := w.reader(br)
	if err != nil {
		b.end(ptr(errorResult(j.in.path, err)))
		return
	}
	settle(rd)
	if er.err != nil {
		// The reader defers a read error to its first Read; report it
		// now.
		b.end(ptr(errorResult(j.in.path, er.err)))
		return
	}
	r := newResult(j.in.path, rd.Result().Result)
	r.withChange(rd)
	if src.size >= 0 {
		r.Bytes = &src.size
	}
	b.end(&r)
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// errStopped is returned by batch when the output has given up.
var errStopped = errors.New("output stopped")

// batch collects a worker's results for its job's channel.
type batch struct {
	j    *job
	done <-chan struct{}
	rs   []result
	err  error
}

// begin does nothing: in sniffing mode the line waits for end.
func (b *batch) begin(r *result, rd *decode.Reader, er *errReader) error {
	settle(rd)
	r.withChange(rd)
	if er.err != nil && r.Error == "" {
		r.Error = problemOfRecord(er.err)
	}
	return b.err
}

// end adds r to the batch, sending the batch when it is full.
func (b *batch) end(r *result) error {
	if b.err != nil {
		return b.err
	}
	b.rs = append(b.rs, *r)
	if len(b.rs) == batchSize {
		b.flush()
	}
	return b.err
}

// flush sends the results collected so far.
func (b *batch) flush() {
	if len(b.rs) == 0 || b.err != nil {
		return
	}
	select {
	case b.j.out <- b.rs:
		b.rs = make([]result, 0, batchSize)
	case <-b.done:
		b.err = errStopped
	}
}

// errReader remembers the first error other than io.EOF from its reader.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// runDecode decodes the inputs one after the other, in order, to standard
// output or -o FILE; with --json and no -o, into the JSON lines. With -o,
// the result lines go to standard output.
func (a *app) runDecode(stdout io.Writer) int {
	text := stdout
	switch {
	case a.cfg.outFile != "":
		if err := a.checkOutFile(); err != nil {
			fmt.Fprintf(a.stderr, "charsniff: %s\n", err)
			return exitUsage
		}
		f, err := os.Create(a.cfg.outFile)
		if err != nil {
			fmt.Fprintf(a.stderr, "charsniff: %s: %s\n", a.cfg.outFile, describe(err))
			return exitFailed
		}
		defer f.Close()
		text = f
		a.setOutput(stdout)
	case a.cfg.json:
		// The text goes into each JSON line.
		text = nil
		a.setOutput(stdout)
		a.text = new(jsonText)
	}
	if a.cfg.stats {
		a.stats = newStats()
	}
	d := &decoder{a: a}
	if text != nil {
		d.tw = bufio.NewWriterSize(text, 64<<10)
	}
	w := a.newWorker()
	var werr error
	a.enumerate(false, func(in input) bool {
		werr = w.decode(in, d)
		return werr == nil
	})
	if d.tw != nil {
		if err := d.tw.Flush(); werr == nil {
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

// checkOutFile refuses an -o FILE that is also an input: creating it would
// truncate the input before it is read.
func (a *app) checkOutFile() error {
	ofi, err := os.Stat(a.cfg.outFile)
	if err != nil {
		return nil // it does not exist yet (or Create will say why not)
	}
	for _, p := range a.cfg.paths {
		if fi, err := os.Stat(p); err == nil && os.SameFile(fi, ofi) {
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
			werr = d.end(&result{File: in.path, Error: fmt.Sprintf("internal error: %v", v)})
		}
	}()
	if in.err != nil {
		r := errorResult(in.path, in.err)
		r.fatal = in.fatal
		return d.end(&r)
	}
	src, br, er, isWARC, err := w.openInput(in)
	if err != nil {
		return d.end(ptr(errorResult(in.path, err)))
	}
	defer src.Close()
	if isWARC {
		c := newWARCCounts()
		err := w.readWARC(in.path, br, d, c)
		if w.a.stats != nil {
			w.a.stats.warc.add(c)
		}
		return err
	}
	cr := &countingReader{r: br}
	rd, err := w.reader(cr)
	if err != nil {
		return d.end(ptr(errorResult(in.path, err)))
	}
	r := newResult(in.path, rd.Result().Result)
	r.withChange(rd)
	if d.a.text != nil && src.size >= 0 {
		// The line is written before the text: the size must be known.
		r.Bytes = &src.size
	}
	if err := d.begin(&r, rd, er); err != nil {
		return err
	}
	if r.Error == "" && d.a.text == nil {
		r.Bytes = &cr.n
	}
	return d.end(&r)
}

// decoder writes the decoded text and the result lines of --decode.
type decoder struct {
	a     *app
	tw    *bufio.Writer // the text, unless it goes into the JSON lines
	begun bool          // a JSON line with text is open
	buf   bytes.Buffer  // for marshal
	enc   *json.Encoder // on buf
}

// begin writes the text of a document: to tw, or into a JSON line that
// stays open for end. A read error stops the text and goes into r.
func (d *decoder) begin(r *result, rd *decode.Reader, er *errReader) error {
	a := d.a
	var w io.Writer = d.tw
	if a.text != nil {
		// The line up to its closing brace, then the text.
		b, err := d.marshal(r)
		if err != nil {
			return err
		}
		b = append(b[:len(b)-1], `,"text":"`...)
		if _, err := a.out.Write(b); err != nil {
			return err
		}
		d.begun = true
		a.text.reset(a.out)
		w = a.text
	}
	_, err := rd.WriteTo(w)
	// The final decision, for a line written after the text (a line
	// written before it, with the text inside, has the window's).
	r.withChange(rd)
	if er.err != nil {
		// The source failed: the text up to the bad read has been
		// written, and the result says what went wrong.
		if r.warcFields != nil {
			r.Error = problemOfRecord(er.err)
		} else {
			r.Error = describe(er.err)
		}
		err = nil
	}
	if err != nil {
		return err // the output failed
	}
	if a.text != nil {
		if err := a.text.Close(); err != nil {
			return err
		}
		return a.out.WriteByte('"')
	}
	return nil
}

// end writes r's result line, or the end of the JSON line begin opened.
func (d *decoder) end(r *result) error {
	a := d.a
	if !d.begun {
		return a.emit(r)
	}
	d.begun = false
	a.note(r)
	if r.Error != "" {
		if _, err := a.out.WriteString(`,"error":`); err != nil {
			return err
		}
		q, err := d.marshal(r.Error)
		if err != nil {
			return err
		}
		if _, err := a.out.Write(q); err != nil {
			return err
		}
	}
	_, err := a.out.WriteString("}\n")
	return err
}

// marshal returns the JSON of v as the output lines write it (no HTML
// escaping), without the newline.
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
