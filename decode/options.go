package decode

import (
	"strconv"

	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// An Option configures a [Reader] or a transformer from [NewTransformer].
// Options are applied in order; a later option overrides an earlier one of
// the same kind. Labels given to options are resolved once all options are
// applied (so [WithLegacyLabels] affects them wherever it appears).
type Option func(*config)

// config is the result of applying the options.
type config struct {
	// sniff holds the sniffing inputs; its encodings are filled in from
	// the labels below by resolve.
	sniff sniff.Options

	// Labels as given, resolved by resolve; "" means not given.
	override, def, likely, fixed string

	// fixedSet reports that WithEncoding was given: no sniffing at all.
	fixedSet bool
	// fixedEnc is the resolved WithEncoding encoding.
	fixedEnc override.Encoding

	// keepBOM, keepNewlines and keepNUL switch the HTML input-stream
	// preprocessing off, step by step.
	keepBOM, keepNewlines, keepNUL bool

	// lateMeta is the WithLateMeta limit (0: off), restartBuffer the
	// WithRestartBuffer limit (0: off), autoRestart WithAutoRestart.
	lateMeta      int64
	restartBuffer int
	autoRestart   bool
}

// LabelError reports an encoding label that names no encoding of the
// Encoding Standard (or of the legacy tables, with [WithLegacyLabels]).
type LabelError struct {
	Option string // the option that carried the label, e.g. "WithOverride"
	Label  string // the label as given
}

// Error returns a message such as
// `decode: unknown encoding label "foo" (WithOverride)`.
func (e *LabelError) Error() string {
	return "decode: unknown encoding label " + strconv.Quote(e.Label) + " (" + e.Option + ")"
}

// WithContentType gives the value of the transport layer's Content-Type
// header (for HTTP, resp.Header.Get("Content-Type")). Its charset parameter,
// if it names an encoding, decides the encoding with confidence certain,
// unless a byte order mark or a user override came first.
func WithContentType(contentType string) Option {
	return func(c *config) { c.sniff.ContentType = contentType }
}

// WithOverride gives the user's override encoding (the sniffing algorithm's
// step 2): it wins over everything but a byte order mark, with confidence
// certain. An unknown label makes [NewReader] fail with a [*LabelError].
func WithOverride(label string) Option {
	return func(c *config) { c.override = label }
}

// WithEncoding skips sniffing altogether: the input is decoded with the
// encoding of label, and a byte order mark of another encoding is data
// (the Encoding Standard's "decode without BOM"; a byte order mark of the
// encoding itself is still removed unless [WithoutBOMRemoval] or [Raw] is
// given). [Reader.Result] then reports confidence certain and
// [sniff.SourceOverride]. Nothing is read from the source before the first
// Read. An unknown label makes [NewReader] fail with a [*LabelError].
func WithEncoding(label string) Option {
	return func(c *config) { c.fixed, c.fixedSet = label, true }
}

// WithDefault gives the default encoding, the sniffing algorithm's last
// step (tentative). Without it the default comes from [WithLocale], or is
// windows-1252. An unknown label makes [NewReader] fail with a [*LabelError].
func WithDefault(label string) Option {
	return func(c *config) { c.def = label }
}

// WithLikely gives a likely encoding, such as the encoding of the parent
// document or one remembered from an earlier visit (tentative). An unknown
// label makes [NewReader] fail with a [*LabelError].
func WithLikely(label string) Option {
	return func(c *config) { c.likely = label }
}

// WithLocale gives a locale ("ja", "zh-TW") or top-level domain (".ru") from
// which the default encoding is chosen as browsers do.
func WithLocale(hint string) Option {
	return func(c *config) { c.sniff.Locale = hint }
}

// WithWindow sets the number of bytes read before sniffing and examined by
// the prescan (default [sniff.DefaultWindow], 1024; n <= 0 means the
// default). Values from 1 to 2 are raised to 3, the length of the longest
// byte order mark. A window larger than the reader's 4 KB input buffer
// costs one more allocation, of n bytes.
func WithWindow(n int) Option {
	return func(c *config) { c.sniff.Window = n }
}

// WithoutAutodetect skips the autodetection step, as the spec allows: what
// neither a byte order mark, the transport layer nor a <meta> declares is
// decoded with the default encoding.
func WithoutAutodetect() Option {
	return func(c *config) { c.sniff.NoAutodetect = true }
}

// WithDetector replaces the built-in autodetection with d.
func WithDetector(d sniff.Detector) Option {
	return func(c *config) { c.sniff.Detector = d }
}

// WithLegacyLabels resolves every label (in options, in the Content-Type
// header and in <meta>) with [override.LookupLegacy], the 2008 HTML draft's
// loose matching, instead of the Encoding Standard's exact table.
func WithLegacyLabels() Option {
	return func(c *config) { c.sniff.Legacy = true }
}

// Raw turns all of the HTML input-stream preprocessing off: the output is
// exactly the Encoding Standard's decode of the input, with a byte order
// mark decoded as U+FEFF, CR bytes kept and U+0000 kept. (A byte order mark
// still chooses the encoding, unless [WithEncoding] is given.)
func Raw() Option {
	return func(c *config) { c.keepBOM, c.keepNewlines, c.keepNUL = true, true, true }
}

// WithoutBOMRemoval keeps a leading byte order mark in the output as U+FEFF.
func WithoutBOMRemoval() Option {
	return func(c *config) { c.keepBOM = true }
}

// WithoutNewlineNormalization keeps U+000D CARRIAGE RETURN in the output
// instead of turning CR LF and lone CR into LF.
func WithoutNewlineNormalization() Option {
	return func(c *config) { c.keepNewlines = true }
}

// WithoutNULReplacement keeps U+0000 in the output instead of replacing it
// with U+FFFD.
func WithoutNULReplacement() Option {
	return func(c *config) { c.keepNUL = true }
}

// resolve looks up the labels of c.
func (c *config) resolve() error {
	var err error
	c.sniff.Override, err = c.lookup(c.override, "WithOverride")
	if err != nil {
		return err
	}
	c.sniff.Default, err = c.lookup(c.def, "WithDefault")
	if err != nil {
		return err
	}
	c.sniff.Likely, err = c.lookup(c.likely, "WithLikely")
	if err != nil {
		return err
	}
	c.fixedEnc = override.Unknown
	if c.fixedSet {
		c.fixedEnc, err = c.lookup(c.fixed, "WithEncoding")
		if err == nil && !c.fixedEnc.Valid() {
			err = &LabelError{"WithEncoding", c.fixed}
		}
	}
	return err
}

// lookup resolves one label; "" is no label.
func (c *config) lookup(label, option string) (override.Encoding, error) {
	if label == "" {
		return override.Unknown, nil
	}
	var e override.Encoding
	var ok bool
	if c.sniff.Legacy {
		e, ok = override.LookupLegacy(label)
	} else {
		e, ok = override.Lookup(label)
	}
	if !ok {
		return override.Unknown, &LabelError{option, label}
	}
	return e, nil
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

// maxBOMLength is the length of the longest byte order mark, UTF-8's.
const maxBOMLength = 3
