package decode

import (
	"errors"

	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// defaultLookahead is the lookahead of a Reader without WithLookahead:
// the most bytes past the window it reads ahead and holds to decide.
const defaultLookahead = 64 << 10

// An Option configures a [Reader] (through [NewReader] and
// [Reader.Reset]). Options are applied in order.
type Option func(*config)

// config is the result of applying the options. Its zero value is the
// default configuration.
type config struct {
	// sniff holds the sniffing inputs, merged from every WithSniff.
	sniff sniff.Options
	// lookahead is the WithLookahead value; lookaheadSet reports that it
	// was given (else defaultLookahead).
	lookahead    int32 // at most maxLookahead
	lookaheadSet bool
	// fixed is the WithEncoding encoding; fixedSet reports that it was
	// given (no sniffing at all).
	fixed    override.Encoding
	fixedSet bool
	// raw is WithoutPreprocessing: newlines and U+0000 kept.
	raw bool
	// explain is WithProvenance's destination; nil for none.
	explain *sniff.Provenance
}

// errInvalidEncoding is NewReader's error for WithEncoding of an encoding
// that is not valid.
var errInvalidEncoding = errors.New("decode: WithEncoding of an invalid encoding")

// WithSniff gives the inputs of the encoding sniffing algorithm: the
// transport layer's Content-Type, a user override, a likely or default
// encoding, the locale and top-level domain hints, the window, the
// detector, legacy label matching, the wide detector (see [sniff.Options]). They affect the
// choice of encoding, and the late look-ahead's detection and <meta> scan
// (see [WithLookahead]).
//
// Options merge: the non-zero fields of o replace those set by earlier
// options, its zero fields leave them as they are. So a helper can put the
// response's Content-Type first and a caller's WithSniff(sniff.Options{Locale:
// "ja"}) adds to it, while a caller's non-empty ContentType replaces it.
// ContentType and MIMEType are one declaration: a non-empty ContentType or
// a Given MIMEType replaces both.
// o.AtEOF is ignored: the Reader knows where its input ends.
func WithSniff(o sniff.Options) Option {
	return func(c *config) {
		s := &c.sniff
		if o.Override.Valid() {
			s.Override = o.Override
		}
		if o.ContentType != "" {
			s.ContentType = o.ContentType // wins over MIMEType in Sniff
		} else if o.MIMEType.Given {
			s.ContentType, s.MIMEType = "", o.MIMEType
		}
		if o.Likely.Valid() {
			s.Likely = o.Likely
		}
		if o.Default.Valid() {
			s.Default = o.Default
		}
		if o.Locale != "" {
			s.Locale = o.Locale
		}
		if o.Window != 0 {
			s.Window = o.Window
		}
		if o.TLD != "" {
			s.TLD = o.TLD
		}
		if o.Detector != nil {
			s.Detector = o.Detector
		}
		s.NoAutodetect = s.NoAutodetect || o.NoAutodetect
		s.Legacy = s.Legacy || o.Legacy
		s.DetectAll = s.DetectAll || o.DetectAll
	}
}

// WithProvenance has the Reader record in *p what every step of the
// sniffing algorithm found in its window ([sniff.Explain]): the
// declarations that lost (a <meta> under the header's charset), the
// detector's guess and its evidence. *p is written when the Reader sniffs
// (at NewReader or Reset, before the first Read returns); a Reader that
// does not sniff ([WithEncoding]) leaves it zero. It costs a prescan and a
// run of the detector over the window, whatever step decides, and no
// allocation. What changed after the window is [Result.Late].
func WithProvenance(p *sniff.Provenance) Option {
	return func(c *config) { c.explain = p }
}

// WithEncoding skips sniffing altogether: the input is decoded with e, and
// a byte order mark of another encoding is data (the Encoding Standard's
// "decode without BOM"; a byte order mark of e itself is still removed).
// [Reader.Result] then reports e, confidence certain and
// [sniff.SourceOverride], and nothing is read from the source before the
// first Read. It overrides [WithSniff] and [WithLookahead]. If e is not
// valid, NewReader and Reset return an error.
func WithEncoding(e override.Encoding) Option {
	return func(c *config) { c.fixed, c.fixedSet = e, true }
}

// WithLookahead sets how far past the window the Reader looks while the
// encoding is tentative (no byte order mark, override or transport-layer
// charset decided), as a browser's parser does. The default is 64 KiB
// (65536 bytes). It affects:
//
//   - the late <meta>: the prescan's <meta> scan runs on over the first
//     window+n bytes, and a declaration found is acted on by the HTML
//     Standard's "change the encoding" (the confidence becomes certain,
//     [Result.Source] [sniff.SourcePrescan]);
//   - late autodetection: when the window gave the detector no evidence,
//     the Reader keeps watching the stream, however long, while it is
//     ASCII; when it gave too little (a statistical guess from fewer
//     non-ASCII bytes than its encoding needs: 16 for most, up to 256,
//     as docs/conformance.md lists), the guess is only the first
//     answer, and the text after it decides (the detector goes on from
//     the window, whose bytes it does not score again);
//   - both: at the first non-ASCII byte, while either may still decide,
//     the Reader holds its output and reads ahead at most n bytes (less if
//     the detector is sure sooner, or the source ends or fails), then
//     decides and goes on. No text it hands out is contradicted by a later
//     decision; the bytes before that first non-ASCII byte are ASCII, the
//     same in every encoding it can switch to. A <meta> naming
//     ISO-2022-JP after ESC, SO or SI, or the replacement encoding, rules
//     out the ASCII text too: a browser reloads the page. The Reader
//     does so when it finds the <meta> in the window ([Restarted]) and
//     keeps the old encoding past it ([RestartNeeded]).
//
// The bytes held are the only memory it adds (at most n, in a buffer
// Reset reuses; an n over 1 GiB counts as 1 GiB). n = 0 gives the standard's sniffing of the window alone;
// [Reader.ChangeEncoding] is still there for a caller's own parser.
func WithLookahead(n int64) Option {
	return func(c *config) { c.lookahead, c.lookaheadSet = int32(min(max(n, 0), maxLookahead)), true }
}

// WithoutPreprocessing makes the output exactly the Encoding Standard's
// decode of the input (https://encoding.spec.whatwg.org/#decode): a byte
// order mark is still removed (and still chooses the encoding), but CR and
// U+0000 are kept instead of HTML's newline normalization and U+0000
// replacement. It affects the output only, not the choice of encoding.
func WithoutPreprocessing() Option {
	return func(c *config) { c.raw = true }
}

// apply resets c to the default configuration and applies opts. It checks
// what can be wrong with the result.
func (c *config) apply(opts []Option) error {
	*c = config{}
	for _, o := range opts {
		o(c)
	}
	return c.check()
}

// check reports what can be wrong with c once the options are applied.
func (c *config) check() error {
	if c.fixedSet && !c.fixed.Valid() {
		return errInvalidEncoding
	}
	return nil
}

// window returns the number of bytes to read before sniffing.
func (c *config) window() int {
	switch {
	case c.sniff.Window <= 0:
		return sniff.DefaultWindow
	case c.sniff.Window < maxBOMLength:
		return maxBOMLength
	}
	return c.sniff.Window
}

// ahead returns the lookahead as an int.
func (c *config) ahead() int {
	if !c.lookaheadSet {
		return defaultLookahead
	}
	return int(c.lookahead)
}

// maxLookahead is the largest lookahead a Reader takes: 1 GiB, which it
// may hold in memory, and with the window still an int on 32-bit CPUs.
const maxLookahead = 1 << 30

// maxBOMLength is the length of the longest byte order mark, UTF-8's.
const maxBOMLength = 3
