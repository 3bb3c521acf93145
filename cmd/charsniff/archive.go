package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/sniff"
	"github.com/charsniff/charsniff/warc"
)

// warcCounts counts what a run met in WARC files, for --stats.
type warcCounts struct {
	files   int            // WARC inputs
	records int            // records read (their header was good)
	sniffed int            // HTML records with a result and no error
	notHTML int            // response and resource records whose payload is not HTML
	skipped map[string]int // records of other types, by WARC-Type
	failed  int            // error lines: damaged records and stretches of garbage
}

func newWARCCounts() *warcCounts { return &warcCounts{skipped: make(map[string]int)} }

// add adds the counts of o to c.
func (c *warcCounts) add(o *warcCounts) {
	c.files += o.files
	c.records += o.records
	c.sniffed += o.sniffed
	c.notHTML += o.notHTML
	c.failed += o.failed
	for t, n := range o.skipped {
		c.skipped[t] += n
	}
}

// lines receives the result lines of one input, in order. The reading
// side calls begin for a document that was sniffed (rd reads its text,
// er tells of a read error), then end for the same result, which may have
// gained an error since; a result that is an error from the start gets end
// only. An error returned is the output's: the run stops.
type lines interface {
	begin(r *result, rd *decode.Reader, er *errReader) error
	end(r *result) error
}

// readWARC reads the WARC file src, whose path is path, and sends a line to
// out for each HTML record, each damaged record and each stretch of
// damaged input. Records of other types, and records whose payload is not
// HTML, are counted in c. The error is out's.
func (w *worker) readWARC(path string, src io.Reader, out lines, c *warcCounts) error {
	c.files++
	if w.a.optErr != nil {
		c.failed++
		r := errorResult(path, w.a.optErr)
		return out.end(&r)
	}
	if w.wr == nil {
		w.wr = warc.NewReader(src)
	} else {
		w.wr.Reset(src)
	}
	// held is the last record's line, ended only once the next call to
	// Next has read the rest of the record without finding it damaged
	// (the block's end is checked then).
	var held *result
	release := func() error {
		if held == nil {
			return nil
		}
		r := held
		held = nil
		if r.Error != "" {
			c.failed++
		} else {
			c.sniffed++
		}
		return out.end(r)
	}
	for {
		rec, err := w.wr.Next()
		var re *warc.RecordError
		bad := errors.As(err, &re)
		if bad && held != nil && re.Offset == held.Offset && re.RecordID == held.RecordID {
			// The rest of the held record is damaged: its line says so.
			held.Error = problemOfRecord(re)
			if werr := release(); werr != nil {
				return werr
			}
			continue
		}
		if werr := release(); werr != nil {
			return werr
		}
		switch {
		case err == io.EOF:
			return nil
		case bad:
			c.failed++
			r := result{File: path, warcFields: &warcFields{RecordID: re.RecordID, Offset: re.Offset}, Error: problemOfRecord(re)}
			if werr := out.end(&r); werr != nil {
				return werr
			}
			continue
		case err != nil:
			// The input itself failed: nothing more can be read.
			c.failed++
			r := errorResult(path, err)
			return out.end(&r)
		}
		c.records++
		r, rd := w.sniffRecord(path, rec, c)
		if r == nil {
			continue
		}
		held = r
		if rd != nil {
			if werr := out.begin(r, rd, &w.recErr); werr != nil {
				return werr
			}
		}
	}
}

// sniffRecord runs the sniffing algorithm on rec's payload, if rec is a
// response or resource record with an HTML payload, and returns its result
// and a reader of its text. For a record that is skipped it counts it and
// returns nil; for one whose payload cannot be read it returns an error
// result and no reader.
func (w *worker) sniffRecord(path string, rec *warc.Record, c *warcCounts) (*result, *decode.Reader) {
	if rec.Type != "response" && rec.Type != "resource" {
		c.skipped[rec.Type]++
		return nil, nil
	}
	r := &result{File: path, warcFields: &warcFields{RecordID: rec.RecordID, URI: rec.TargetURI, Offset: rec.Offset}}
	p, err := rec.Payload()
	if err != nil {
		r.Error = problemOfRecord(err)
		return r, nil
	}
	r.Status, r.HTTPCharset = p.StatusCode, p.Charset
	if !p.IsHTML() {
		c.notHTML++
		return nil, nil
	}
	if p.Undecoded != "" {
		r.Error = fmt.Sprintf("payload: content coding %q not decoded", p.Undecoded)
		return r, nil
	}
	// The record carries its own transport layer: its stored Content-Type
	// and its URI's host come after the flags' and so win over them.
	opts := append(w.recOpts[:0], w.a.opts...)
	if p.ContentType != "" || hostOf(rec.TargetURI) != "" {
		opts = append(opts, decode.WithSniff(sniff.Options{ContentType: p.ContentType, TLD: hostOf(rec.TargetURI)}))
	}
	w.recOpts = opts
	w.recErr = errReader{r: p.Body}
	if w.recRd == nil {
		w.recRd, err = decode.NewReader(&w.recErr, opts...)
	} else {
		err = w.recRd.Reset(&w.recErr, opts...)
	}
	rd := w.recRd
	if err != nil {
		// The flags were checked before the first record; only a bug
		// lands here.
		r.Error = problem(err).Error()
		return r, nil
	}
	res := newResult(path, rd.Result().Result)
	res.withChange(rd)
	res.warcFields = r.warcFields
	if w.recErr.err != nil {
		// The payload broke inside the window.
		res = *r
		res.Error = problemOfRecord(w.recErr.err)
		return &res, nil
	}
	return &res, rd
}

// problemOfRecord turns an error met reading a record into the text of its
// error line: the WARC package's description for damage to the record, the
// payload's problem otherwise ("payload: unexpected EOF").
func problemOfRecord(err error) string {
	var re *warc.RecordError
	if errors.As(err, &re) {
		return strings.TrimPrefix(re.Err.Error(), "warc: ")
	}
	return "payload: " + strings.TrimPrefix(err.Error(), "warc: ")
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
