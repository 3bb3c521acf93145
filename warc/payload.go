package warc

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/charsniff/charsniff/internal/mimesniff"
	"github.com/charsniff/charsniff/internal/mimetype"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
)

// Payload is what a response or resource record carries: the body of the
// stored HTTP response, with its transfer and content codings removed, or
// the whole block of a resource record (and of a response record that is
// not HTTP, such as a DNS response).
//
// A Payload is valid until the next call to [Reader.Next].
type Payload struct {
	// StatusCode is the HTTP status code, such as 200; 0 when the block
	// is not an HTTP response.
	StatusCode int
	// Header is the stored HTTP response header; nil when the block is
	// not an HTTP response.
	Header http.Header
	// ContentType is the value to hand to an encoding sniffer as the
	// transport layer's Content-Type: the HTTP Content-Type header (several
	// fields joined with ", ", as Fetch combines them), or the record's
	// Content-Type when the block is not an HTTP response. It is "" when
	// there is none.
	ContentType string
	// Charset is the charset parameter of ContentType as written (quotes
	// and escapes removed, case kept), chosen as the Fetch Standard's
	// "extract a MIME type" chooses it; "" when there is none or
	// ContentType is no valid MIME type. It is what sniff.MIMEType takes.
	Charset string
	// Undecoded is the part of the Content-Encoding still applied to Body,
	// as the Reader does not know it (such as "br") or the payload does
	// not match it; "" when Body is fully decoded. Known codings are gzip,
	// x-gzip, deflate (zlib or raw) and identity. (In a WARC/0.x record a
	// gzip coding the body does not start as is taken as removed: see
	// docs/archives.md.)
	Undecoded string
	// Body reads the payload, without its chunked transfer coding and
	// then its content codings. A malformed HTTP message or coding gives
	// its error ([ErrHTTP], [ErrChunked], io.ErrUnexpectedEOF or the
	// decompressor's) in place of io.EOF, after every byte that could be
	// read; an error of the record's block is a *[RecordError].
	Body io.Reader

	b  *body
	br *bufio.Reader // the end of the decoding chain, for Peek
	// mime is ContentType parsed, by setCharset, once; mimeOK is false
	// when ContentType is no valid MIME type.
	mime   mimetype.Type
	mimeOK bool
	// err is a fault of the HTTP message found before the body, which
	// Body returns in place of io.EOF.
	err error
}

// httpState is the Reader's reusable machinery for payloads.
type httpState struct {
	block   *bufio.Reader // over the block
	chunked chunkedReader
	cbr     *bufio.Reader // over chunked
	gz      io.ReadCloser // gzip (a *gzip.Reader)
	fl      io.ReadCloser // raw deflate
	zl      io.ReadCloser // zlib
	dbr     []*bufio.Reader
	line    []byte // a header line longer than block's buffer
}

// blockReader reads a block without marking its error as reported: the
// payload machinery reads through it and the caller sees the error, if at
// all, through Payload.Body.
type blockReader struct{ b *body }

func (r blockReader) Read(p []byte) (int, error) { return r.b.read(p) }

// payloadReader is Payload.Body.
type payloadReader struct{ p *Payload }

func (r payloadReader) Read(p []byte) (int, error) {
	n, err := r.p.br.Read(p)
	if err == io.EOF && r.p.err != nil {
		err = r.p.err
	}
	r.p.b.noteError(err)
	return n, err
}

// noteError marks err as reported if it is the block's *RecordError.
func (b *body) noteError(err error) {
	if err != nil && err == b.err && err != io.EOF {
		b.reported = true
	}
}

// Payload returns the payload of a response or resource record. It must be
// called before any read from Body; calling it again returns the same
// Payload.
//
// For a response record whose Content-Type is application/http, it reads
// the stored HTTP status line and header (skipping interim 1xx responses)
// and leaves the body to Payload.Body. The header is read leniently: lines
// without a colon are skipped, folded lines joined. For other records the
// block is the payload and the record's Content-Type is its type. Other
// record types give [ErrNoPayload].
func (rec *Record) Payload() (*Payload, error) {
	if rec.payload != nil {
		return rec.payload, nil
	}
	b := rec.b
	if b == nil || b.r.body != b || b.consumed {
		return nil, errStale
	}
	if rec.Type != "response" && rec.Type != "resource" {
		return nil, ErrNoPayload
	}
	hs := &b.r.http
	p := &Payload{b: b}
	src := hs.reader(&hs.block, blockReader{b})
	if m, _ := mimetype.Parse(rec.ContentType); rec.Type == "response" && m.Is("application/http") {
		if err := p.readHTTP(hs, src, strings.HasPrefix(rec.Version, "0.")); err != nil {
			b.noteError(err)
			return nil, err
		}
	} else {
		p.ContentType = rec.ContentType
		p.setCharset()
		p.br = src
	}
	p.Body = payloadReader{p}
	rec.payload = p
	return p, nil
}

// setCharset parses p.ContentType, once: it sets p.mime and p.Charset.
func (p *Payload) setCharset() {
	p.mime, p.mimeOK = mimetype.Extract(p.ContentType)
	p.Charset, _ = p.mime.Charset()
}

// reader resets *br (allocating it the first time) to read from r.
func (hs *httpState) reader(br **bufio.Reader, r io.Reader) *bufio.Reader {
	if *br == nil {
		*br = bufio.NewReaderSize(r, 16<<10)
	} else {
		(*br).Reset(r)
	}
	return *br
}

// readHTTP reads the stored HTTP response's head and sets up the decoding
// of its body.
//
// legacy is set for records of WARC/0.x (ClueWeb09), whose crawler stored
// bodies already gunzipped and kept their "Content-Encoding: gzip": a gzip
// coding the body does not start as is taken as removed.
func (p *Payload) readHTTP(hs *httpState, br *bufio.Reader, legacy bool) error {
	for i := 0; ; i++ {
		line, err := hs.readLine(br)
		if err != nil && (err != io.EOF || len(line) == 0) {
			if err == io.EOF {
				return fmt.Errorf("%w: empty block", ErrHTTP)
			}
			return err
		}
		code, ok := parseStatusLine(line)
		if !ok {
			if len(line) > 64 {
				line = line[:64]
			}
			return fmt.Errorf("%w: bad status line %q", ErrHTTP, line)
		}
		p.StatusCode = code
		h, ended, err := hs.readHeader(br)
		if err != nil {
			return err
		}
		p.Header = h
		if !ended {
			p.err = fmt.Errorf("%w: header not ended by a blank line", ErrHTTP)
		}
		// An interim response (100 Continue, 103 Early Hints) precedes the
		// final one.
		if code >= 100 && code < 200 && code != 101 && i < 8 {
			continue
		}
		break
	}
	h := p.Header
	p.ContentType = strings.Join(h["Content-Type"], ", ")
	p.setCharset()

	// Transfer coding.
	if te := lastToken(strings.Join(h["Transfer-Encoding"], ",")); te == "chunked" && p.err == nil {
		if looksChunked(br) {
			hs.chunked = chunkedReader{br: br}
			br = hs.reader(&hs.cbr, &hs.chunked)
		} else if head, _ := br.Peek(1); len(head) > 0 {
			// Either an archiver removed the transfer coding and kept
			// the field, or the first chunk size is malformed: the
			// body is handed out as stored, and the error after it.
			line, _ := br.Peek(16) // as much of it as there is, however it arrives
			if i := bytes.IndexAny(line, "\r\n"); i >= 0 {
				line = line[:i]
			}
			p.err = fmt.Errorf("%w: Transfer-Encoding is chunked but the body does not start with a chunk size (%q); body read as stored", ErrChunked, line)
		}
	}

	// Content codings, the last one applied first.
	codings := tokens(strings.Join(h["Content-Encoding"], ","))
	for k := len(codings) - 1; k >= 0; k-- {
		dec, err := hs.decoder(codings[k], br, len(codings)-1-k)
		if legacy && err == nil && dec == nil && (codings[k] == "gzip" || codings[k] == "x-gzip") {
			continue
		}
		if err != nil || dec == nil {
			p.Undecoded = strings.Join(codings[:k+1], ", ")
			break
		}
		if len(hs.dbr) <= len(codings)-1-k {
			hs.dbr = append(hs.dbr, nil)
		}
		br = hs.reader(&hs.dbr[len(codings)-1-k], dec)
	}
	p.br = br
	return nil
}

// decoder returns a reader that removes content coding c from br, or nil
// if c is unknown or br does not start as c says. stage counts the codings
// already removed; the reusable decompressors serve the first stage only.
func (hs *httpState) decoder(c string, br *bufio.Reader, stage int) (io.Reader, error) {
	head, _ := br.Peek(2)
	switch c {
	case "gzip", "x-gzip":
		if len(head) < 2 || head[0] != 0x1f || head[1] != 0x8b {
			return nil, nil
		}
		return keep(&hs.gz, stage, br, newGzip)
	case "deflate":
		// RFC 9110 says zlib, but many servers send raw deflate.
		if len(head) == 2 && head[0]&0x0f == 8 && (uint(head[0])<<8|uint(head[1]))%31 == 0 {
			return keep(&hs.zl, stage, br, zlib.NewReader)
		}
		if len(head) == 0 {
			return nil, nil
		}
		return keep(&hs.fl, stage, br, newFlate)
	}
	return nil, nil
}

// keep returns a decompressor of br. At stage 0 it is the one in *kept,
// reset to br, or a new one from open, kept there for the next payload;
// the stages after it (a coding under a coding) each get a new one.
func keep(kept *io.ReadCloser, stage int, br *bufio.Reader, open func(io.Reader) (io.ReadCloser, error)) (io.Reader, error) {
	if stage == 0 && *kept != nil {
		if gz, ok := (*kept).(*gzip.Reader); ok {
			return gz, gz.Reset(br)
		}
		return *kept, (*kept).(flate.Resetter).Reset(br, nil) // zlib's Resetter is the same
	}
	z, err := open(br)
	if err != nil {
		return nil, err
	}
	if stage == 0 {
		*kept = z
	}
	return z, nil
}

func newGzip(r io.Reader) (io.ReadCloser, error) { return gzip.NewReader(r) }

func newFlate(r io.Reader) (io.ReadCloser, error) { return flate.NewReader(r), nil }

// readLine returns the next line of br without its line ending. The line is
// valid until the next read. At the end of the block it returns what is
// left with io.EOF.
func (hs *httpState) readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		hs.line = append(hs.line[:0], line...)
		for err == bufio.ErrBufferFull {
			if len(hs.line) > maxLine {
				return nil, fmt.Errorf("%w: line longer than %d bytes", ErrHTTP, maxLine)
			}
			line, err = br.ReadSlice('\n')
			hs.line = append(hs.line, line...)
		}
		line = hs.line
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if len(line) > maxLine {
		return nil, fmt.Errorf("%w: line longer than %d bytes", ErrHTTP, maxLine)
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, err
}

// readHeader reads header fields up to a blank line or the end of the
// block, leniently (see fieldParser). It reports whether a blank line
// ended the header.
func (hs *httpState) readHeader(br *bufio.Reader) (h http.Header, ended bool, err error) {
	h = make(http.Header, 8)
	p := fieldParser{h: h, kind: ErrHTTP}
	for {
		line, err := hs.readLine(br)
		if err != nil && err != io.EOF {
			return nil, false, err
		}
		end, perr := p.add(line)
		if perr != nil {
			return nil, false, perr
		}
		if end {
			return h, err == nil, nil
		}
		if err == io.EOF {
			return h, false, nil
		}
	}
}

// parseStatusLine returns the status code of an HTTP/1.x status line
// ("HTTP/1.1 200 OK"); the reason phrase may be missing.
func parseStatusLine(line []byte) (int, bool) {
	if !bytes.HasPrefix(line, []byte("HTTP/")) {
		return 0, false
	}
	sp := bytes.IndexByte(line, ' ')
	if sp < 0 {
		return 0, false
	}
	rest := bytes.TrimLeft(line[sp:], " ")
	if len(rest) < 3 || (len(rest) > 3 && rest[3] != ' ' && rest[3] != '\t') {
		return 0, false
	}
	code := 0
	for _, c := range rest[:3] {
		if c < '0' || c > '9' {
			return 0, false
		}
		code = code*10 + int(c-'0')
	}
	return code, code >= 100
}

// tokens splits a comma-separated list of codings into lower-case tokens,
// dropping empty ones and "identity".
func tokens(s string) []string {
	var out []string
	for t := range strings.SplitSeq(s, ",") {
		t = strings.ToLower(strings.Trim(t, " \t"))
		if t != "" && t != "identity" {
			out = append(out, t)
		}
	}
	return out
}

// lastToken returns the last token of a comma-separated list, lower-cased.
func lastToken(s string) string {
	t := tokens(s)
	if len(t) == 0 {
		return ""
	}
	return t[len(t)-1]
}

// looksChunked reports whether br starts with a chunk-size line (hex
// digits, then optional extensions, then a line ending). Archivers that
// decode the transfer coding sometimes keep the Transfer-Encoding field.
func looksChunked(br *bufio.Reader) bool {
	b, _ := br.Peek(18)
	i := 0
	for i < len(b) && i < 16 && isHex(b[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	if i == len(b) {
		return i < 16 // the block ends in the size line: let the reader report it
	}
	switch b[i] {
	case '\r', '\n', ';', ' ', '\t':
		return true
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// chunkedReader removes the chunked transfer coding (RFC 9112, section
// 7.1). Trailer fields are ignored.
type chunkedReader struct {
	br *bufio.Reader
	// left is the number of bytes left in the current chunk.
	left int64
	// inChunk is set between a chunk's size line and the line ending after
	// its data.
	inChunk bool
	err     error
}

func (c *chunkedReader) Read(p []byte) (int, error) {
	for c.err == nil {
		if c.left > 0 {
			if len(p) == 0 {
				return 0, nil
			}
			n, err := c.br.Read(p[:min(int64(len(p)), c.left)])
			c.left -= int64(n)
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			c.err = err
			if n > 0 {
				return n, nil
			}
			continue
		}
		if c.inChunk {
			// The line ending after the chunk's data.
			if b, _ := c.br.Peek(1); len(b) == 1 && b[0] == '\r' {
				c.br.Discard(1)
			}
			if b, _ := c.br.Peek(1); len(b) == 1 && b[0] == '\n' {
				c.br.Discard(1)
			}
			c.inChunk = false
		}
		line, err := c.br.ReadSlice('\n')
		if err != nil {
			if err == io.EOF && len(line) == 0 {
				// The last chunk is missing: the response was cut short
				// at a chunk boundary. What came is whole.
				c.err = io.EOF
			} else if err == io.EOF || err == bufio.ErrBufferFull {
				c.err = fmt.Errorf("%w: bad chunk-size line", ErrChunked)
			} else {
				c.err = err
			}
			break
		}
		if i := bytes.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		line = trimSpace(line)
		size, perr := strconv.ParseUint(string(line), 16, 63)
		if perr != nil || len(line) == 0 {
			c.err = fmt.Errorf("%w: bad chunk size %q", ErrChunked, line)
			break
		}
		if size == 0 {
			c.err = io.EOF
			break
		}
		c.left = int64(size)
		c.inChunk = true
	}
	return 0, c.err
}

// IsHTML reports whether the payload is HTML-ish, worth an HTML encoding
// sniffer: its ContentType's essence is text/html or application/xhtml+xml,
// or it has no usable ContentType (none, a malformed one, */*,
// unknown/unknown or application/unknown) and its resource header, the
// first 1445 bytes, is HTML by the MIME Sniffing Standard's rules for an
// unknown type (optional whitespace, then a tag such as <!DOCTYPE HTML,
// <html, <head, <body, <p, <table, <script or a comment), the check the
// command and the Transport make too. A declared type other than these,
// such as text/plain, is respected, as browsers do.
//
// IsHTML peeks at the payload without consuming it.
func (p *Payload) IsHTML() bool {
	m, ok := p.mime, p.mimeOK
	switch {
	case m.IsHTML():
		return true
	case !ok || m.Is("unknown/unknown") || m.Is("application/unknown"):
		head, _ := p.br.Peek(mimesniff.HeaderLen)
		return mimesniff.Sniff(head) == "text/html"
	}
	return false
}
