// Package sniff implements the encoding sniffing algorithm of the WHATWG HTML
// Standard (https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm):
// from the first bytes of an HTML document and what the caller knows about it
// (a user override, the HTTP Content-Type, a likely encoding, a locale), it
// decides the encoding to decode the document with, how sure that is, and
// which step decided.
//
// [Sniff] runs the steps in the standard's order:
//
//  1. A byte order mark (EF BB BF, FE FF, FF FE): certain.
//  2. The caller's user override ([Options.Override]): certain.
//  3. The transport layer: the charset of the Content-Type header
//     ([Options.ContentType], parsed as Fetch does, see [ContentTypeCharset];
//     or [Options.MIMEType], parsed already), if it names an encoding:
//     certain. UTF-16 named here stays UTF-16.
//  4. The prescan ([prescan.Prescan]) of the first [Options.Window] bytes: a
//     <meta> (source "prescan") or, if the prescan runs out of bytes without
//     one, an XML declaration or a UTF-16 XML prefix (source "xml"):
//     tentative.
//  5. A parent or likely encoding the caller knows ([Options.Likely]), unless
//     it is UTF-16: tentative.
//  6. Autodetection ([Options.Detector], by default the frequency-analysis
//     detector of package detect, hinted by [Options.Locale] and
//     [Options.TLD]), unless [Options.NoAutodetect]: tentative.
//  7. The default: [Options.Default], else the locale's ([DefaultEncoding] of
//     [Options.Locale]), else the top-level domain's ([Options.TLD]), else
//     windows-1252: tentative.
//
// A tentative answer may still change while parsing, when the parser meets a
// <meta> the prescan did not see (a later issue's reader does that).
package sniff

import (
	"github.com/charsniff/charsniff/internal/autodetect"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
)

// Confidence is how sure the sniffing algorithm is of its answer.
type Confidence uint8

const (
	// Tentative: a later <meta> may still change the encoding.
	Tentative Confidence = iota
	// Certain: the encoding is final.
	Certain
)

// String returns "tentative" or "certain".
func (c Confidence) String() string {
	if c == Certain {
		return "certain"
	}
	return "tentative"
}

// Source is the step of the sniffing algorithm that decided.
type Source uint8

// The steps of the sniffing algorithm, as reported in [Result.Source].
const (
	SourceDefault    Source = iota // the default encoding (last step)
	SourceBOM                      // a byte order mark
	SourceOverride                 // the caller's user override
	SourceTransport                // the transport layer's Content-Type charset
	SourcePrescan                  // a <meta> found by the prescan (or, in a decode.Result, met after the window: then certain)
	SourceXML                      // an XML declaration (or the UTF-16 XML prefix) found by the prescan
	SourceLikely                   // a likely or parent encoding given by the caller
	SourceAutodetect               // the autodetection step
)

var sourceNames = [...]string{
	SourceDefault:    "default",
	SourceBOM:        "bom",
	SourceOverride:   "override",
	SourceTransport:  "transport",
	SourcePrescan:    "prescan",
	SourceXML:        "xml",
	SourceLikely:     "likely",
	SourceAutodetect: "autodetect",
}

// String returns the lower-case name of the step: "bom", "override",
// "transport", "prescan", "xml", "likely", "autodetect" or "default".
func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "unknown"
}

// Result is the answer of the sniffing algorithm.
type Result struct {
	// Encoding is the encoding to decode with; always a valid encoding.
	Encoding override.Encoding
	// Confidence is Certain for a BOM, an override or a transport-layer
	// charset, and Tentative otherwise.
	Confidence Confidence
	// Source is the step that decided.
	Source Source
	// BOMLength is the length of the byte order mark at the start of the
	// input (0, 2 or 3); it is non-zero only when Source is SourceBOM.
	BOMLength int
	// End is the offset just past the declaration that decided: the > of
	// the <meta> (SourcePrescan) or of the XML declaration (SourceXML),
	// as prescan.Result.Offset gives it; 0 for the other sources, and in
	// a decode.Result after a change of encoding past the window (whose
	// Late.Offset says where it was made).
	End int
}

// Name returns the Encoding Standard's name of the encoding ("Shift_JIS").
func (r Result) Name() string { return r.Encoding.Name() }

// LowerName returns the encoding's name in lower case ("shift_jis"): the
// spelling of the charsniff command and its JSON, of charsniff.Lookup and
// of golang.org/x/net/html/charset, which Python's codecs accept too.
func (r Result) LowerName() string { return r.Encoding.LowerName() }

// Detector is the autodetection step: it guesses an encoding from a prefix
// of the input, or reports false to leave the decision to the default.
// Sniff ignores an answer that is not a valid encoding.
type Detector interface {
	Detect(prefix []byte) (override.Encoding, bool)
}

// DefaultWindow is the number of bytes the prescan examines by default.
const DefaultWindow = prescan.DefaultWindow

// Options are the inputs of the sniffing algorithm other than the bytes.
// The zero Options (or a nil *Options) is the spec's browser with no
// transport layer and no hints, plus the built-in UTF-8 autodetection.
//
// The small fields come first, so that Options (held by every
// decode.Reader) has no padding between them.
type Options struct {
	Override     override.Encoding // user override; Unknown for none
	Likely       override.Encoding // parent or likely encoding; Unknown for none; UTF-16 is ignored
	Default      override.Encoding // default encoding; Unknown for the locale's or windows-1252
	NoAutodetect bool              // skip the autodetection step (spec-literal)
	Legacy       bool              // resolve labels with override.LookupLegacy
	AtEOF        bool              // prefix is the whole input: a character cut off at its end is not UTF-8
	DetectAll    bool              // the built-in detector also guesses encodings browsers never guess (ISO-8859-3, -4, -10, -14, -15, -16, macintosh, x-mac-cyrillic), for old collections; not browser-exact
	ContentType  string            // transport-layer Content-Type header value ("" for none); see ContentTypeCharset
	MIMEType     MIMEType          // the transport layer's Content-Type already parsed, used when ContentType is ""; see MIMEType
	Locale       string            // locale or top-level domain hint ("ja", "ru", "zh-TW", ".jp") for the default; see DefaultEncoding
	Window       int               // prescan window in bytes; 0 means DefaultWindow, negative means all of prefix
	TLD          string            // top-level domain or host name of the document's URL ("jp", "www.example.cz"): a hint for autodetection, and for the default when Locale is empty
	Detector     Detector          // autodetection; nil means the detect package's detector
}

// Sniff runs the encoding sniffing algorithm over prefix, the first bytes of
// the input: at least the window (1024 bytes by default), or all of it if it
// is shorter, in which case opts.AtEOF should say so. The prescan's <meta>
// scan looks at the window only; an XML declaration, the built-in
// autodetection and a Detector see all of prefix. A nil opts means the zero
// Options.
//
// Sniff always returns a valid encoding. It does not allocate (except in
// what a caller's Detector does).
func Sniff(prefix []byte, opts *Options) Result {
	o := opts // read through, not copied: Options is large
	if o == nil {
		o = &Options{}
	}

	// 1. BOM sniffing (Encoding Standard): only these three byte order marks.
	if bom, n := sniffBOM(prefix); n > 0 {
		return Result{bom, Certain, SourceBOM, n, 0}
	}

	// 2. The user's override.
	if o.Override.Valid() {
		return Result{o.Override, Certain, SourceOverride, 0, 0}
	}

	// 3 (waiting for bytes) is the caller's. 4. The transport layer.
	if o.ContentType != "" {
		if enc, ok := transportEncoding(o.ContentType, o.Legacy); ok {
			return Result{enc, Certain, SourceTransport, 0, 0}
		}
	} else if o.MIMEType.Charset != "" {
		if enc, ok := lookup(o.MIMEType.Charset, o.Legacy); ok {
			return Result{enc, Certain, SourceTransport, 0, 0}
		}
	}

	// 5. The prescan, which ends with get an XML encoding.
	window := o.Window
	if window == 0 {
		window = DefaultWindow
	}
	switch r := prescan.Prescan(prefix, &prescan.Options{Window: window, Legacy: o.Legacy}); r.Rule {
	case prescan.Meta:
		return Result{r.Encoding, Tentative, SourcePrescan, 0, r.Offset}
	case prescan.XMLDeclaration, prescan.UTF16XMLPrefix:
		return Result{r.Encoding, Tentative, SourceXML, 0, r.Offset}
	}

	// 6-7. A same-origin parent's encoding (never UTF-16) or a likely one.
	if o.Likely.Valid() && !o.Likely.IsUTF16() {
		return Result{o.Likely, Tentative, SourceLikely, 0, 0}
	}

	// 8. Autodetection.
	if enc, ok := detectStep(prefix, o); ok {
		return Result{enc, Tentative, SourceAutodetect, 0, 0}
	}

	// 9. The default.
	switch {
	case o.Default.Valid():
		return Result{o.Default, Tentative, SourceDefault, 0, 0}
	case o.Locale != "":
		return Result{DefaultEncoding(o.Locale), Tentative, SourceDefault, 0, 0}
	case o.TLD != "":
		return Result{tldDefault(o.TLD), Tentative, SourceDefault, 0, 0}
	}
	return Result{override.Windows1252, Tentative, SourceDefault, 0, 0}
}

// detectStep runs the autodetection step alone over b: o.Detector if set,
// else the built-in detector hinted by o.Locale and o.TLD (wide with
// o.DetectAll), with o.AtEOF saying whether b ends the input. It reports
// false when o.NoAutodetect is set or the detector found no evidence (or
// answered an encoding that is not valid).
func detectStep(b []byte, o *Options) (override.Encoding, bool) {
	if o.NoAutodetect {
		return override.Unknown, false
	}
	var enc override.Encoding
	var ok bool
	if o.Detector != nil {
		enc, ok = o.Detector.Detect(b)
	} else {
		enc, ok = autodetect.Builtin(b, o.Locale, o.TLD, o.AtEOF, o.DetectAll)
	}
	if !ok || !enc.Valid() {
		return override.Unknown, false
	}
	return enc, true
}

// sniffBOM is the Encoding Standard's BOM sniff: it returns the encoding and
// the length of a UTF-8, UTF-16BE or UTF-16LE byte order mark at the start
// of b, or 0. A prefix of a byte order mark is not one.
func sniffBOM(b []byte) (override.Encoding, int) {
	switch {
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		return override.UTF8, 3
	case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
		return override.UTF16BE, 2
	case len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE:
		return override.UTF16LE, 2
	}
	return override.Unknown, 0
}
