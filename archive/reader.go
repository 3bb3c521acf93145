package archive

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/firsterr"
	"github.com/charsniff/charsniff/sniff"
	"github.com/charsniff/charsniff/warc"
)

// Options configure a Reader.
type Options struct {
	// File is the name the results carry in their file field.
	File string
	// Decode are the options of each record's decode.Reader. They come
	// after the record's stored HTTP Content-Type (the transport layer)
	// and its target URI's host (the top-level-domain hint), and so win
	// where they say something (decode.WithSniff merges): the caller's
	// word before the document's, as in charsniff.Transport (the table in
	// docs/archives.md, "Whose word wins").
	Decode []decode.Option
	// Offset is where src starts in its file, when it is a byte range of
	// it (a record's coordinates in a CDX or columnar index): the
	// offsets of the results are the file's.
	Offset int64
	// Counts, if not nil, gets the counts of the file added to it when an
	// iteration of Records, Parallel or ParallelStream ends. A Reader
	// ignores it (see Reader.Counts).
	Counts *Counts
	// PartSize is the size of the parts Parallel cuts a file into (see
	// Split); 0 means 256 KiB. Smaller parts spread a small file over
	// more cores, at some cost per part. A Reader ignores it.
	PartSize int64
	// MaxHeld is the largest payload Parallel and ParallelStream decode ahead
	// of its turn, in memory; a larger one is decoded in its turn, as
	// it is read. 0 means 1 MiB; a negative value decodes every record in
	// its turn. A Reader ignores it.
	MaxHeld int
	// NoText tells ReadAll and ReadStream that fn reads no record's
	// Text, only its Result (the charsniff command without --decode):
	// each record is finished where it is read, its payload decoded no
	// further than the decision needs (see Record.Finish) and copied
	// nowhere, and fn gets it with Text nil. A Reader ignores it.
	NoText bool
	// Provenance has each record's Result carry what every step of the
	// sniffing algorithm saw (Result.Provenance) and which declarations
	// lost, with the U+FFFD decoding with them would give
	// (Result.Mismatch). It costs a prescan and a run of the detector over
	// each record's window, and a check of the payload's bytes against a
	// declared encoding that may lose (see Mismatch): the payload of a
	// record whose declaration lost is read to its end.
	Provenance bool
}

// Counts count what a Reader met in its file.
type Counts struct {
	Records int            // records read (their header was good)
	Sniffed int            // HTML records with a result and no error
	NotHTML int            // response and resource records whose payload is not HTML (skipped)
	Skipped map[string]int // records of other types, by WARC-Type (skipped)
	Failed  int            // error results: damaged records, stretches of garbage or skipped, and a final read error

	// SkippedRanges counts the stretches of input the warc.Reader could
	// not search for records after a damaged one (see warc.SkippedError):
	// each is also an error result, and the records in them are lost.
	// SkippedBytes is their total length.
	SkippedRanges int
	SkippedBytes  int64
}

// add adds the counts of o to c.
func (c *Counts) add(o *Counts) {
	c.Records += o.Records
	c.Sniffed += o.Sniffed
	c.NotHTML += o.NotHTML
	c.Failed += o.Failed
	c.SkippedRanges += o.SkippedRanges
	c.SkippedBytes += o.SkippedBytes
	for t, n := range o.Skipped {
		if c.Skipped == nil {
			c.Skipped = make(map[string]int)
		}
		c.Skipped[t] += n
	}
}

// A Reader reads the HTML records of one WARC file. It holds one record at
// a time, in bounded memory however large the records (see warc.Reader),
// and reuses its decoder from record to record. A Reader is not safe for
// concurrent use.
type Reader struct {
	opts    Options
	wr      *warc.Reader
	sniffer         // each record's decoder
	cur     *Record // the last record handed out, not yet finished
	// ahead holds what the warc.Reader returned after cur when Finish had
	// to look (valid when peeked).
	ahead    *warc.Record
	aheadErr error
	peeked   bool
	err      error // a final error: Next returns it from then on
	counts   Counts
}

// NewReader returns a Reader of the WARC file src. It reads nothing until
// the first call to Next.
func NewReader(src io.Reader, opts Options) *Reader {
	r := &Reader{wr: warc.NewReader(src)}
	r.init(opts)
	return r
}

// Reset makes r read src, as NewReader would, keeping its buffers.
func (r *Reader) Reset(src io.Reader, opts Options) {
	r.wr.Reset(src)
	r.init(opts)
}

func (r *Reader) init(opts Options) {
	r.opts = opts
	r.cur, r.ahead, r.aheadErr, r.peeked, r.err = nil, nil, nil, false, nil
	r.counts = Counts{Skipped: make(map[string]int)}
}

// Counts returns what r has met so far. They are complete once Next has
// returned io.EOF or another error.
func (r *Reader) Counts() *Counts { return &r.counts }

// Next returns the next HTML record, or the next damaged record, stretch
// of garbage or stretch of input skipped (a Record whose Result.Err is
// set, with no Text). It finishes the previous record first (see
// Record.Finish).
//
// A stretch skipped is input the warc.Reader could not search for records
// after a damaged one (a warc.SkippedError: from a pipe, the records more
// than 1 MiB back from where the damage shows): its Record has the
// stretch's start as Offset, and an Err that names its byte range, such
// as "bytes 1234 to 5678 skipped (4444 bytes not searched for records):
// ...". It is counted in Counts.SkippedRanges and SkippedBytes.
//
// At the end of the file Next returns io.EOF. Another error means the file
// itself could not be read on (a read error of src): it is final, and
// counted as failed.
func (r *Reader) Next() (*Record, error) {
	if c := r.cur; c != nil {
		c.Finish()
	}
	rec, _, err := r.next(-1)
	return rec, err
}

// next is Next, which finished the last record; it also reports whether
// the payload of the record is at most max bytes for certain: its block
// is, and no content coding can make it larger (ReadAll decodes such a
// record's text into memory as it is read).
func (r *Reader) next(max int) (*Record, bool, error) {
	if r.err != nil {
		return nil, false, r.err
	}
	for {
		wrec, err := r.read()
		if err != nil {
			rec, err := r.problem(err)
			return rec, false, err
		}
		r.counts.Records++
		rec, p := r.frame(wrec)
		if rec == nil {
			continue
		}
		r.cur = rec
		if p == nil {
			return rec, false, nil
		}
		r.sniffer.start(rec, p.Body, &r.opts, mimeType(p), hostOf(rec.TargetURI))
		return rec, rec.ContentLength <= int64(max) && len(p.Header["Content-Encoding"]) == 0, nil
	}
}

// read returns the next record of the warc.Reader, or what Finish has
// read ahead.
func (r *Reader) read() (*warc.Record, error) {
	if r.peeked {
		r.peeked = false
		return r.ahead, r.aheadErr
	}
	return r.wr.Next()
}

// A Record is one HTML record of a WARC file (or a damaged record, or a
// stretch of garbage where a record should start).
type Record struct {
	Type      string    // WARC-Type: "response" or "resource"
	TargetURI string    // WARC-Target-URI, without angle brackets
	Date      time.Time // WARC-Date; zero if missing or malformed
	RecordID  string    // WARC-Record-ID, angle brackets included
	Offset    int64     // where the record starts in the file (its gzip member in a .warc.gz)

	// ContentLength is the record's Content-Length: the size of its
	// block. Its length in the file is Result.Length.
	ContentLength int64

	// Result is the record's line: the sniffing result, or the problem.
	// It is final once Finish has been called.
	Result Result

	// Text reads the decoded text (normalized UTF-8, as the decode
	// options say): of the whole payload, or of the bytes read before the
	// payload broke, whose problem is then in Result.Err; nil when the
	// record could not be sniffed at all. Text is valid until Finish or
	// the next call to Next.
	Text io.Reader

	r        *Reader
	wrec     *warc.Record // the record read, for its stored length
	text     *text
	buffered *bytes.Reader // the text held in memory by Parallel, if any
	finished bool
}

// WriteText writes the decoded text to w. The returned error is w's: a
// problem reading the record goes into Result.Err, after the text
// decoded up to it. WriteText writes nothing for a record without Text.
func (rec *Record) WriteText(w io.Writer) (int64, error) {
	if rec.buffered != nil {
		return rec.buffered.WriteTo(w)
	}
	t := rec.text
	if t == nil || rec.finished {
		return 0, nil
	}
	n, err := t.rd.WriteTo(w)
	if t.src.Err != nil {
		rec.fail(t.src.Err)
		return n, nil
	}
	return n, err
}

// Settle reads the record's text until its decoder has decided (see
// decode.Reader.Settle), or until max bytes of text are read, appends that
// text to buf and returns it, and brings Result up to the decision. Text
// and WriteText go on after the text Settle read: a caller that writes the
// text writes buf first. A caller that writes a record's line before its
// text (as the charsniff command's --decode --json does) settles first, so
// that the line holds the final decision; only a text that is ASCII for
// more than max bytes can still change it afterwards (see Finish).
func (rec *Record) Settle(buf []byte, max int) []byte {
	t := rec.text
	if t == nil || rec.finished {
		return buf
	}
	buf, _ = t.rd.Settle(buf, max)
	rec.settled()
	return buf
}

// settled brings Result up to the decoder's decision, and notes the
// payload's error if it has met one.
func (rec *Record) settled() {
	t := rec.text
	if t.src.Err != nil {
		rec.fail(t.src.Err)
	}
	rec.Result.fromDecode(t.rd)
}

// Finish ends the record: it reads what is left of its block, so that
// damage found there (a wrong Content-Length, a corrupt gzip member) is
// in Result.Err, and returns the final Result: the decoder's final
// decision, reading on (and discarding the text) as far as that needs,
// however much of the text was read. Text reads nothing more
// afterwards. Calling Finish again, or Next, does nothing more.
func (rec *Record) Finish() *Result {
	if rec.finished {
		return &rec.Result
	}
	rec.finished = true
	if rec.text != nil {
		rec.text.rd.Settle(nil, -1) // its error is the payload's: see settled
		rec.settled()
		rec.text.done = true
		if c := rec.text.count; c != nil {
			// Through src, so that damage met reading on is the
			// record's, as when its text is read.
			c.finish(&rec.Result, rec.text.src)
			if rec.text.src.Err != nil {
				rec.fail(rec.text.src.Err)
			}
		}
	}
	r := rec.r
	if r == nil {
		return &rec.Result // a held record, finished when it was held
	}
	r.cur = nil
	if !r.peeked && r.err == nil {
		r.ahead, r.aheadErr = r.wr.Next()
		r.peeked = true
		var re *warc.RecordError
		var se *warc.SkippedError // a stretch after the record: a result of its own
		if errors.As(r.aheadErr, &re) && r.opts.Offset+re.Offset == rec.Offset && re.RecordID == rec.RecordID && !errors.As(re, &se) {
			// The rest of this record's block is damaged.
			rec.fail(re)
			r.peeked = false
		}
	}
	if w := rec.Result.Where; w != nil {
		// Known now that the warc.Reader has read the record through.
		w.Length = rec.wrec.StoredLength()
	}
	if rec.Result.Err != nil {
		r.counts.Failed++
	} else {
		r.counts.Sniffed++
	}
	return &rec.Result
}

// fail sets the record's error, unless it has one.
func (rec *Record) fail(err error) {
	if rec.Result.Err == nil {
		rec.Result.Err = problem(err)
	}
}

// frame returns wrec as a Record, with its payload if it is an HTML record
// to sniff; a Record without a payload if it is one that cannot be read
// (its Result has the error); nil for a record that is skipped, which it
// counts.
func (r *Reader) frame(wrec *warc.Record) (*Record, *warc.Payload) {
	if wrec.Type != "response" && wrec.Type != "resource" {
		r.counts.Skipped[wrec.Type]++
		return nil, nil
	}
	rec := &Record{
		Type: wrec.Type, TargetURI: wrec.TargetURI, Date: wrec.Date, RecordID: wrec.RecordID,
		Offset: r.opts.Offset + wrec.Offset, ContentLength: wrec.ContentLength, r: r, wrec: wrec,
	}
	where := &Where{RecordID: wrec.RecordID, URI: wrec.TargetURI, Offset: rec.Offset,
		Date: wrec.Date, Digest: digest(wrec.Header.Get("Warc-Payload-Digest"))}
	rec.Result = Result{File: r.opts.File, Where: where}
	p, err := wrec.Payload()
	if err != nil {
		rec.fail(err)
		return rec, nil
	}
	where.Status, where.HTTPCharset, where.MIME = p.StatusCode, p.Charset, essence(p.ContentType)
	if !p.IsHTML() {
		r.counts.NotHTML++
		return nil, nil
	}
	if p.Undecoded != "" {
		rec.Result.Err = fmt.Errorf("payload: content coding %q not decoded", p.Undecoded)
		return rec, nil
	}
	return rec, p
}

// sniffer sniffs records' payloads, reusing one decoder.
type sniffer struct {
	rd   *decode.Reader  // nil until the first record
	opts []decode.Option // the current record's options, reused
	src  firsterr.Reader // the current record's payload
	// With Options.Provenance: what the steps saw, the option that has
	// the decoder write it there, and the payload's U+FFFD counts.
	prov    sniff.Provenance
	provOpt decode.Option
	count   counting
}

// start sniffs the payload body of rec, filling its Result and Text.
func (s *sniffer) start(rec *Record, body io.Reader, o *Options, contentType sniff.MIMEType, host string) {
	s.opts = recordOptions(s.opts[:0], o.Decode, contentType, host)
	var count *counting
	if o.Provenance {
		if s.provOpt == nil {
			s.provOpt = decode.WithProvenance(&s.prov)
		}
		s.opts = append(s.opts, s.provOpt)
		count = &s.count
		count.start(body)
		body = count
	}
	s.src = firsterr.Reader{R: body}
	var err error
	if s.rd == nil {
		s.rd, err = decode.NewReader(&s.src, s.opts...)
	} else {
		err = s.rd.Reset(&s.src, s.opts...)
	}
	if err != nil {
		// Bad options: every record says so.
		rec.Result.Err = err
		return
	}
	rec.Result.fromDecode(s.rd)
	if count != nil {
		rec.Result.Provenance = s.prov
		count.begin(&rec.Result)
	}
	if s.src.Err != nil {
		// The payload broke inside the window (a malformed stored HTTP
		// message, a corrupt content coding): what was read before is
		// still sniffed and decoded, and the record says what broke.
		rec.fail(s.src.Err)
	}
	rec.text = &text{rec: rec, rd: s.rd, src: &s.src, count: count}
	rec.Text = rec.text
}

// recordOptions appends to dst the decode options of a record: its stored
// Content-Type as the transport layer and its URI's host as the
// top-level-domain hint, then the caller's, which come later and so win
// where they are given (decode.WithSniff merges).
func recordOptions(dst, base []decode.Option, contentType sniff.MIMEType, host string) []decode.Option {
	if contentType.Given || host != "" {
		dst = append(dst, decode.WithSniff(sniff.Options{MIMEType: contentType, TLD: host}))
	}
	return append(dst, base...)
}

// mimeType is the Content-Type of p as warc parsed it, for sniff to use
// without parsing it again.
func mimeType(p *warc.Payload) sniff.MIMEType {
	return sniff.MIMEType{Charset: p.Charset, Given: p.ContentType != ""}
}

// text is a Record's Text.
type text struct {
	rec   *Record
	rd    *decode.Reader
	src   *firsterr.Reader
	count *counting // with Options.Provenance
	done  bool      // the record is finished
}

func (t *text) Read(p []byte) (int, error) {
	if t.done {
		return 0, io.EOF
	}
	n, err := t.rd.Read(p)
	if t.src.Err != nil {
		t.rec.fail(t.src.Err)
	}
	return n, err
}

func (t *text) WriteTo(w io.Writer) (int64, error) {
	if t.done {
		return 0, nil
	}
	n, err := t.rd.WriteTo(w)
	if t.src.Err != nil {
		t.rec.fail(t.src.Err)
	}
	return n, err
}

// problem turns an error met reading a record into the error of its
// result, whose message is the command's: the warc package's description
// for damage to the record, the payload's problem otherwise ("payload:
// unexpected EOF").
func problem(err error) error {
	var re *warc.RecordError
	if errors.As(err, &re) {
		return &recordProblem{strings.TrimPrefix(re.Err.Error(), "warc: "), err}
	}
	return &recordProblem{"payload: " + strings.TrimPrefix(err.Error(), "warc: "), err}
}

// A recordProblem is a Result's Err: the message the command writes, and
// the error met, which errors.Is and errors.As reach.
type recordProblem struct {
	msg string
	err error
}

func (e *recordProblem) Error() string { return e.msg }
func (e *recordProblem) Unwrap() error { return e.err }

// digest returns a WARC-Payload-Digest as CDX indexes give it: without
// its "sha1:" prefix (other algorithms keep theirs).
func digest(d string) string {
	if len(d) > 5 && strings.EqualFold(d[:5], "sha1:") {
		return d[5:]
	}
	return d
}

// essence returns the MIME type of a Content-Type, without parameters, in
// lower case ("text/html").
func essence(ct string) string {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.ToLower(strings.TrimSpace(ct))
}

// hostOf returns the host name in a URI such as
// "http://user@www.example.jp:8080/a", without user, port or trailing dot,
// for the top-level-domain hint; "" for an IP address or a URI without a
// host.
func hostOf(uri string) string {
	i := strings.Index(uri, "://")
	if i < 0 {
		return ""
	}
	h := uri[i+3:]
	if j := strings.IndexAny(h, "/?#"); j >= 0 {
		h = h[:j]
	}
	if j := strings.LastIndexByte(h, '@'); j >= 0 {
		h = h[j+1:]
	}
	if strings.HasPrefix(h, "[") {
		return "" // an IPv6 address
	}
	if j := strings.LastIndexByte(h, ':'); j >= 0 {
		h = h[:j]
	}
	h = strings.TrimSuffix(h, ".")
	tld := h[strings.LastIndexByte(h, '.')+1:]
	if tld == "" || strings.Trim(tld, "0123456789") == "" {
		return "" // no host, or an IPv4 address
	}
	return h
}
