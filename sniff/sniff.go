// Package sniff implements the encoding sniffing algorithm of the WHATWG HTML
// Standard (https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm).
//
// PLACEHOLDER: this file fixes the API other packages build on. The sniff
// helper replaces the body of Sniff with the full algorithm.
package sniff

import "github.com/charsniff/charsniff/override"

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

const (
	SourceDefault    Source = iota // the default encoding (last step)
	SourceBOM                      // a byte order mark
	SourceOverride                 // the caller's user override
	SourceTransport                // the transport layer's Content-Type charset
	SourcePrescan                  // a <meta> found by the prescan
	SourceXML                      // an XML declaration
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
	Encoding   override.Encoding
	Confidence Confidence
	Source     Source
	// BOMLength is the length of the byte order mark at the start of the
	// input (0, 2 or 3); it is non-zero only when Source is SourceBOM.
	BOMLength int
}

// Name returns the canonical WHATWG name of the encoding.
func (r Result) Name() string { return r.Encoding.Name() }

// Detector is the autodetection step: it guesses an encoding from a prefix
// of the input, or reports false to leave the decision to the default.
type Detector interface {
	Detect(prefix []byte) (override.Encoding, bool)
}

// DefaultWindow is the number of bytes the prescan examines by default.
const DefaultWindow = 1024

// Options are the inputs of the sniffing algorithm other than the bytes.
// The zero Options (or a nil *Options) is the spec's browser with no
// transport layer and no hints.
type Options struct {
	Override     override.Encoding // user override; Unknown for none
	ContentType  string            // transport-layer Content-Type header value
	Likely       override.Encoding // parent or likely encoding; Unknown for none
	Default      override.Encoding // default encoding; Unknown for the locale's or windows-1252
	Locale       string            // locale or top-level domain hint ("ja", "ru", "zh-TW", ".jp") for the default
	Window       int               // prescan window in bytes; 0 means DefaultWindow
	NoAutodetect bool              // skip the autodetection step (spec-literal)
	Detector     Detector          // autodetection; nil means the built-in detector
	Legacy       bool              // resolve labels with override.LookupLegacy
}

// Sniff runs the encoding sniffing algorithm over prefix, the first bytes of
// the input (at least the window, or all of it if shorter).
func Sniff(prefix []byte, opts *Options) Result {
	switch {
	case len(prefix) >= 3 && prefix[0] == 0xEF && prefix[1] == 0xBB && prefix[2] == 0xBF:
		return Result{override.UTF8, Certain, SourceBOM, 3}
	case len(prefix) >= 2 && prefix[0] == 0xFE && prefix[1] == 0xFF:
		return Result{override.UTF16BE, Certain, SourceBOM, 2}
	case len(prefix) >= 2 && prefix[0] == 0xFF && prefix[1] == 0xFE:
		return Result{override.UTF16LE, Certain, SourceBOM, 2}
	}
	if opts != nil && opts.Override.Valid() {
		return Result{opts.Override, Certain, SourceOverride, 0}
	}
	if opts != nil && opts.Default.Valid() {
		return Result{opts.Default, Tentative, SourceDefault, 0}
	}
	return Result{override.Windows1252, Tentative, SourceDefault, 0}
}
