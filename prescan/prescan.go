package prescan

import "github.com/charsniff/charsniff/override"

// DefaultWindow is the number of bytes the <meta> scan examines when
// [Options.Window] is zero: the 1024 bytes the standard encourages.
const DefaultWindow = 1024

// Options configure a prescan. The zero Options (or a nil *Options) is the
// standard's prescan with a 1024-byte window.
type Options struct {
	// Window is the end condition of the <meta> scan: it examines the bytes
	// at offsets below Window. Zero means DefaultWindow; a negative Window
	// means no limit, so the scan runs to the end of the input. The UTF-16
	// prefix and the XML declaration are not limited by Window.
	Window int

	// Legacy resolves labels with override.LookupLegacy instead of
	// override.Lookup. In this mode a label longer than MaxLabel bytes
	// (after removing surrounding ASCII whitespace) is not looked up.
	Legacy bool

	// Tokenizer makes the <meta> scan see the markup as the HTML
	// tokenizer does, so that it acts only on a <meta> start tag a parser
	// meets: it skips the text of script, style, textarea, title, xmp,
	// iframe, noembed, noframes and noscript (as with scripting on) up to
	// their end tags (script data with its escapes as the tokenizer sees
	// it), everything after <plaintext>, and comments ending at --> or
	// --!>; and as the tree builder does: in SVG and MathML those names
	// are ordinary elements and CDATA sections are text, a breakout start
	// tag such as <meta> returns to HTML, and nothing counts in or after
	// an accepted <frameset>. A <meta> names the encoding of its charset
	// attribute, or else (with http-equiv="content-type") of its content
	// attribute. This is not the standard's prescan, which finds a <meta>
	// anywhere; it is the scan a reader runs past the window, where the
	// parser, not the prescan, would meet a <meta> (decode's look-ahead).
	Tokenizer bool
}

// MaxLabel is the longest label, in bytes after removing surrounding ASCII
// whitespace, that the scan looks up. No label of the Encoding Standard comes
// close (the longest has 19 bytes), so the limit only matters with
// [Options.Legacy], whose loose matching ignores punctuation.
const MaxLabel = 64

// Rule is the rule of the prescan that found the encoding. (The step of
// the whole sniffing algorithm that decided is sniff.Source; a Meta or an
// XML rule here becomes its SourcePrescan or SourceXML.)
type Rule uint8

const (
	// NotFound means the prescan found no encoding.
	NotFound Rule = iota
	// Meta means a <meta> element inside the window named the encoding.
	Meta
	// XMLDeclaration means "get an XML encoding": an XML declaration at the
	// start of the input named the encoding.
	XMLDeclaration
	// UTF16XMLPrefix means the input starts with "<?x" in UTF-16 without a
	// byte order mark.
	UTF16XMLPrefix
)

var ruleNames = [...]string{
	NotFound:       "none",
	Meta:           "meta",
	XMLDeclaration: "xml",
	UTF16XMLPrefix: "utf-16 xml",
}

// String returns "none", "meta", "xml" or "utf-16 xml".
func (s Rule) String() string {
	if int(s) < len(ruleNames) {
		return ruleNames[s]
	}
	return "unknown"
}

// Result is the answer of a prescan.
type Result struct {
	// Encoding is the encoding found, or override.Unknown.
	Encoding override.Encoding
	// Rule is the rule that found it, or NotFound.
	Rule Rule
	// Offset is the stream offset just past the last byte the answer
	// depended on: past the > of the <meta>, past the XML declaration's
	// first > or the closing quote of its encoding value (whichever is
	// later), or 6 for the UTF-16 prefix. It is 0 when nothing was found.
	Offset int
}

// Found reports whether the prescan found an encoding.
func (r Result) Found() bool { return r.Rule != NotFound }

// Prescan runs the standard's prescan over b, the input (or the part of it
// obtained so far, which the prescan treats as all of it): the <meta> scan
// over the window, then, if that found nothing, "get an XML encoding" over
// all of b. A nil opts means the zero Options. Prescan does not allocate.
func Prescan(b []byte, opts *Options) Result {
	var s Scanner // zero: setOptions need not clear it again
	s.setOptions(opts)
	s.feed(b)
	return s.Close()
}

// A Scanner runs the prescan over a stream fed in chunks. It examines each
// byte once and keeps its state between calls, so the chunking never changes
// the answer: feeding a stream in any pieces and then calling Close gives
// what [Prescan] gives for the whole stream.
//
// The zero Scanner is ready to use with the zero Options. A Scanner holds no
// references to the chunks it is fed and allocates nothing.
type Scanner struct {
	limit  int  // meta scan end condition (a stream offset); -1 for none
	legacy bool // resolve labels with override.LookupLegacy
	inited bool // Reset has run (the zero Scanner resets itself)
	closed bool // Close has run: the stream has ended

	n     int // stream offset of the next byte to be fed
	metaN int // stream offset of the next byte for the meta scan; metaN <= n

	u16 uint8 // UTF-16 prefix candidates still alive: bit 0 LE, bit 1 BE

	meta  metaScan
	found Result // the meta scan's answer, once it has one
	xml   xmlScan
}

// Reset makes s ready to scan a new stream with opts (nil means the zero
// Options), discarding its state.
func (s *Scanner) Reset(opts *Options) {
	*s = Scanner{}
	s.setOptions(opts)
}

// setOptions readies s, which must be the zero Scanner, for a stream with
// opts (nil means the zero Options).
func (s *Scanner) setOptions(opts *Options) {
	var o Options
	if opts != nil {
		o = *opts
	}
	s.inited, s.legacy, s.u16 = true, o.Legacy, 3
	s.meta.tok, s.meta.fsOK = o.Tokenizer, o.Tokenizer
	switch {
	case o.Window == 0:
		s.limit = DefaultWindow
	case o.Window < 0:
		s.limit = -1
	default:
		s.limit = o.Window
	}
}

// Write feeds p to the scanner, like [Scanner.Feed]. It always returns
// len(p), nil; it makes a Scanner an io.Writer.
func (s *Scanner) Write(p []byte) (int, error) {
	s.Feed(p)
	return len(p), nil
}

// Offset returns the number of bytes fed so far.
func (s *Scanner) Offset() int { return s.n }

// Feed scans chunk, the next bytes of the stream, and returns the answer so
// far and whether it is final. An answer is final once a <meta> inside the
// window named an encoding, the UTF-16 prefix matched, or the <meta> scan
// has passed the end of the window without an answer and the XML
// declaration rule has decided. A final answer stays final, and later
// chunks change nothing.
// Feeding after Close does nothing.
func (s *Scanner) Feed(chunk []byte) (Result, bool) {
	s.init()
	if s.closed {
		return s.Result()
	}
	// Before the first byte no answer is final (the UTF-16 prefix is
	// undecided), so the first chunk skips the check.
	if s.n > 0 {
		if r, ok := s.Result(); ok {
			s.n += len(chunk)
			return r, true
		}
	}
	s.feed(chunk)
	return s.Result()
}

// feed scans chunk, the next bytes of a stream not closed and with no final
// answer yet.
func (s *Scanner) feed(chunk []byte) {
	base := s.n
	s.n += len(chunk)

	// The UTF-16 XML prefix: the first six bytes of the stream.
	for i := 0; s.u16 != 0 && base+i < 6 && i < len(chunk); i++ {
		c := chunk[i]
		if c != utf16LEPrefix[base+i] {
			s.u16 &^= 1
		}
		if c != utf16BEPrefix[base+i] {
			s.u16 &^= 2
		}
	}

	// The <meta> scan, over the part of the chunk inside the window.
	if s.metaN == base && s.found.Rule == NotFound {
		m := chunk
		if s.limit >= 0 {
			if s.limit <= base {
				m = nil
			} else if s.limit-base < len(m) {
				m = m[:s.limit-base]
			}
		}
		if len(m) > 0 {
			if enc, end, ok := s.meta.scan(m, base, s.legacy); ok {
				s.found = Result{Encoding: enc, Rule: Meta, Offset: end}
			}
			s.meta.lastSlash = m[len(m)-1] == '/'
			s.metaN = base + len(m)
		}
	}

	// Get an XML encoding runs alongside; it is consulted only when the
	// <meta> scan aborts, so not once the <meta> scan has an answer.
	if !s.xml.done && s.found.Rule == NotFound {
		s.xml.scan(chunk, base, s.legacy)
	}
}

// Result returns the answer so far and whether it is final, without feeding
// anything. See [Scanner.Feed].
func (s *Scanner) Result() (Result, bool) {
	s.init()
	// Step "Prescan for UTF-16 XML declarations" comes first.
	if s.u16 != 0 {
		if s.n >= 6 {
			if s.u16&1 != 0 {
				return Result{Encoding: override.UTF16LE, Rule: UTF16XMLPrefix, Offset: 6}, true
			}
			return Result{Encoding: override.UTF16BE, Rule: UTF16XMLPrefix, Offset: 6}, true
		}
		if !s.closed {
			return Result{}, false
		}
	}
	if s.found.Rule != NotFound {
		return s.found, true
	}
	// The <meta> scan aborts when it needs a byte it may not look at: past
	// the window, or past the end of the stream.
	aborted := s.closed || (s.limit >= 0 && s.metaN >= s.limit)
	if !aborted {
		return Result{}, false
	}
	if s.xml.done {
		if s.xml.enc != override.Unknown {
			return Result{Encoding: s.xml.enc, Rule: XMLDeclaration, Offset: s.xml.end}, true
		}
		return Result{}, true
	}
	if s.closed {
		return Result{}, true
	}
	return Result{}, false
}

// Close tells s that the stream has ended and returns the final answer.
func (s *Scanner) Close() Result {
	s.init()
	s.closed = true
	if !s.xml.done {
		s.xml.done = true // runs out of bytes: failure
	}
	r, _ := s.Result()
	return r
}

func (s *Scanner) init() {
	if !s.inited {
		s.Reset(nil)
	}
}

var (
	utf16LEPrefix = [6]byte{0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00}
	utf16BEPrefix = [6]byte{0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78}
)

// isSpace reports whether c is one of the bytes the prescan treats as white
// space: 09, 0A, 0C, 0D, 20 (ASCII whitespace; not 0B).
func isSpace(c byte) bool { return class[c]&cSpace != 0 }

// Byte classes of the tag and attribute states.
const (
	cSpace = 1 << iota // 09 0A 0C 0D 20
	cGT                // >
	cSlash             // /
	cEq                // =
)

// class gives the byte class of every byte; 0 for most.
var class = [256]uint8{
	'\t': cSpace, '\n': cSpace, '\f': cSpace, '\r': cSpace, ' ': cSpace,
	'>': cGT, '/': cSlash, '=': cEq,
}

// isLetter reports whether c is an ASCII letter (41-5A, 61-7A).
func isLetter(c byte) bool {
	c |= 0x20
	return 'a' <= c && c <= 'z'
}

// lower maps A-Z to a-z and leaves every other byte alone.
func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
