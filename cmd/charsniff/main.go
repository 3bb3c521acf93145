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
// is -, it reads standard input; directories are walked recursively. The exit
// status is 0 when every input was processed, 1 when any failed and 2 on a
// usage error. Run charsniff --help for the flags.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/charsniff/charsniff/decode"
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
	a := &app{cfg: c, stdin: stdin, stderr: stderr, opts: c.readerOptions()}
	if c.decode {
		return a.runDecode(stdout)
	}
	return a.runSniff(stdout)
}

// readerOptions turns the flags into options of decode.NewReader, so the
// command and the library always give one answer.
func (c *config) readerOptions() []decode.Option {
	var opts []decode.Option
	if c.contentType != "" {
		opts = append(opts, decode.WithContentType(c.contentType))
	}
	if c.override != "" {
		opts = append(opts, decode.WithOverride(c.override))
	}
	if c.defaultLabel != "" {
		opts = append(opts, decode.WithDefault(c.defaultLabel))
	}
	if c.tld != "" {
		opts = append(opts, decode.WithTLD(c.tld))
	}
	if c.locale != "" {
		opts = append(opts, decode.WithLocale(c.locale))
	}
	if c.noAutodetect {
		opts = append(opts, decode.WithoutAutodetect())
	}
	if c.legacy {
		opts = append(opts, decode.WithLegacyLabels())
	}
	if c.raw {
		opts = append(opts, decode.Raw())
	}
	return append(opts, decode.WithWindow(c.window))
}

// flagOfOption names the command-line flag behind a decode option, for error
// messages.
var flagOfOption = map[string]string{
	"WithOverride": "--override",
	"WithDefault":  "--default",
}

// problem rewrites an error of the decode package in the command's terms.
func problem(err error) error {
	var le *decode.LabelError
	if errors.As(err, &le) {
		name := flagOfOption[le.Option]
		if name == "" {
			name = le.Option
		}
		return fmt.Errorf("unknown encoding label %q (%s)", le.Label, name)
	}
	return err
}

// app is one run of the command.
type app struct {
	cfg    *config
	stdin  io.Reader
	stderr io.Writer
	opts   []decode.Option
	failed bool
	stats  *stats
	prog   *progress
	out    *bufio.Writer // results (nil when standard output carries text)
	enc    *json.Encoder // on out, with --json
}

// emit reports one result: an output line, or an error line on standard
// error (and a JSON line with the error, with --json).
func (a *app) emit(r *result) error {
	if a.stats != nil {
		a.stats.add(r)
	}
	if r.Error != "" {
		a.failed = true
		a.prog.clear()
		fmt.Fprintf(a.stderr, "charsniff: %s: %s\n", r.File, r.Error)
	}
	if a.out == nil {
		return nil
	}
	if a.cfg.json {
		return a.enc.Encode(r)
	}
	if r.Error != "" {
		return nil
	}
	_, err := fmt.Fprintf(a.out, "%s: %s (%s, %s)\n", r.File, r.Encoding, r.Confidence, r.Source)
	return err
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
	if werr != nil {
		fmt.Fprintf(a.stderr, "charsniff: writing output: %s\n", describe(werr))
		return exitFailed
	}
	if a.failed {
		return exitFailed
	}
	return exitOK
}

// job is one input on its way through the workers. Its result channel has
// room for the one value the worker sends, so workers never wait for the
// (ordered) output.
type job struct {
	in  input
	out chan []result
}

// runSniff sniffs every input, GOMAXPROCS of them at a time, and prints the
// results in input order.
func (a *app) runSniff(stdout io.Writer) int {
	a.setOutput(stdout)
	if a.cfg.stats {
		a.stats = newStats()
	}
	a.prog = newProgress(stdout, a.stderr)
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan job)
	// order holds the jobs in input order; its capacity bounds how far the
	// workers may run ahead of the output, so memory stays bounded however
	// many files there are and however slow one of them is.
	order := make(chan job, 4*workers)
	done := make(chan struct{}) // closed when the output gives up
	go func() {
		defer close(order)
		defer close(jobs)
		var n int64
		enumerate(a.cfg.paths, true, a.cfg.all, func(in input) bool {
			n++
			j := job{in, make(chan []result, 1)}
			if in.err != nil {
				j.out <- []result{errorResult(in.path, in.err)}
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
	if a.prog != nil {
		// The producer runs only a little ahead of the output, so count
		// the inputs in a walk of its own (names only, no file is opened)
		// to give the bar its total early.
		go func() {
			var n int64
			stopped := false
			enumerate(a.cfg.paths, true, a.cfg.all, func(input) bool {
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
				j.out <- w.sniff(j.in)
			}
		}()
	}
	var werr error
	for j := range order {
		var rs []result
		select {
		case rs = <-j.out:
		default:
			// Nothing is ready: let what was printed so far out, so that a
			// reader of the pipe sees progress.
			if err := a.out.Flush(); werr == nil {
				werr = err
			}
			rs = <-j.out
		}
		for i := range rs {
			if err := a.emit(&rs[i]); err != nil && werr == nil {
				werr = err
			}
		}
		a.prog.add(1)
		if werr != nil {
			break
		}
	}
	close(done)
	return a.finish(stdout, werr)
}

// worker processes inputs one at a time, reusing one reader.
type worker struct {
	a  *app
	rd *decode.Reader // nil until the first input
}

func (a *app) newWorker() *worker { return &worker{a: a} }

// reader returns the worker's reader, reset to read src.
func (w *worker) reader(src io.Reader) (*decode.Reader, error) {
	if w.rd == nil {
		rd, err := decode.NewReader(src, w.a.opts...)
		if err != nil {
			return nil, problem(err)
		}
		w.rd = rd
		return rd, nil
	}
	if err := w.rd.Reset(src); err != nil {
		return nil, problem(err)
	}
	return w.rd, nil
}

// sniff runs the sniffing algorithm on in, reading only the window.
func (w *worker) sniff(in input) (rs []result) {
	defer func() {
		// A last resort: a bug must cost one input, not the run.
		if v := recover(); v != nil {
			rs = []result{{File: in.path, Error: fmt.Sprintf("internal error: %v", v)}}
		}
	}()
	src, err := open(in, w.a.stdin)
	if err != nil {
		return []result{errorResult(in.path, err)}
	}
	defer src.Close()
	er := &errReader{r: src}
	rd, err := w.reader(er)
	if err != nil {
		return []result{errorResult(in.path, err)}
	}
	if er.err != nil {
		// The reader defers a read error to its first Read; the window is
		// all that is read here, so report it now.
		return []result{errorResult(in.path, er.err)}
	}
	r := newResult(in.path, rd.Result())
	if src.size >= 0 {
		r.Bytes = &src.size
	}
	return []result{r}
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
// output or -o FILE. With -o, the result lines go to standard output.
func (a *app) runDecode(stdout io.Writer) int {
	text := stdout
	if a.cfg.outFile != "" {
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
	}
	if a.cfg.stats {
		a.stats = newStats()
	}
	tw := bufio.NewWriterSize(text, 64<<10)
	w := a.newWorker()
	var werr error
	enumerate(a.cfg.paths, false, a.cfg.all, func(in input) bool {
		r, err := w.decode(in, tw)
		if err != nil {
			werr = err
			return false
		}
		if err := a.emit(&r); err != nil {
			werr = err
			return false
		}
		return true
	})
	if err := tw.Flush(); werr == nil {
		werr = err
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

// decode writes the decoded text of in to tw and returns its result. The
// error is for the output only: a problem with the input is in the result.
func (w *worker) decode(in input, tw io.Writer) (r result, werr error) {
	defer func() {
		if v := recover(); v != nil {
			r = result{File: in.path, Error: fmt.Sprintf("internal error: %v", v)}
		}
	}()
	src, err := open(in, w.a.stdin)
	if err != nil {
		return errorResult(in.path, err), nil
	}
	defer src.Close()
	cr := &countingReader{r: src}
	er := &errReader{r: cr}
	rd, err := w.reader(er)
	if err != nil {
		return errorResult(in.path, err), nil
	}
	r = newResult(in.path, rd.Result())
	_, err = rd.WriteTo(tw)
	switch {
	case er.err != nil:
		// The text up to the bad read has been written.
		return errorResult(in.path, er.err), nil
	case err != nil:
		return r, err
	}
	r.Bytes = &cr.n
	return r, nil
}
