package sniff

import (
	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/internal/autodetect"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
)

// Provenance is what each step of the sniffing algorithm finds in an
// input, whichever step decided: the declarations that lost to an earlier
// step (a <meta> under an HTTP charset, a BOM against the header) and the
// detector's guess, with the evidence it rests on, for a page whose answer
// came from a declaration. Each field is the zero value where its step
// found nothing.
type Provenance struct {
	// BOM is the encoding of the byte order mark at the input's start.
	BOM override.Encoding
	// TransportLabel is the charset parameter of the transport layer's
	// Content-Type as given ("" for none), and Transport the encoding
	// it names (Unknown for a label of none).
	TransportLabel string
	Transport      override.Encoding
	// Prescan is what the prescan finds in the window: a <meta> or an XML
	// declaration (its Rule says which), its encoding and where it ends.
	Prescan prescan.Result
	// Detected is the built-in detector's guess over the prefix, and
	// Strength the kind of evidence it rests on (detect.NoEvidence, and
	// Unknown, for ASCII or too few non-ASCII bytes). With a caller's
	// Options.Detector, Detected is its answer and Strength is
	// detect.NoEvidence.
	Detected override.Encoding
	Strength detect.Strength
}

// Explain returns the Provenance of the answer Sniff gives for prefix and
// opts: it runs every step of the algorithm over prefix, not only up to the
// one that decides. It costs a full prescan and a run of the detector
// whatever decides, several times a Sniff that a header decides; it does
// not allocate (except in what a caller's Detector does).
func Explain(prefix []byte, opts *Options) Provenance {
	o := opts
	if o == nil {
		o = &Options{}
	}
	var p Provenance
	p.BOM, _ = sniffBOM(prefix)
	if o.ContentType != "" {
		p.TransportLabel, _ = ContentTypeCharset(o.ContentType)
	} else {
		p.TransportLabel = o.MIMEType.Charset
	}
	if p.TransportLabel != "" {
		p.Transport, _ = lookup(p.TransportLabel, o.Legacy)
	}
	window := o.Window
	if window == 0 {
		window = DefaultWindow
	}
	p.Prescan = prescan.Prescan(prefix, &prescan.Options{Window: window, Legacy: o.Legacy})
	if o.Detector != nil {
		if enc, ok := o.Detector.Detect(prefix); ok && enc.Valid() {
			p.Detected = enc
		}
		return p
	}
	if enc, s := autodetect.Guess(prefix, o.Locale, o.TLD, o.AtEOF, o.DetectAll); s > autodetect.NoEvidence {
		p.Detected, p.Strength = enc, detect.Strength(s)
	}
	return p
}
