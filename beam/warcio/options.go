package warcio

import (
	"fmt"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// Options configure Read. Their fields are plain values, which Beam
// serializes with the transform to its workers; the sniffing options are
// those of sniff.Options and the charsniff command's flags of the same
// names, with encodings given by label.
//
// What the caller says wins over what the record says, as everywhere in
// charsniff (docs/archives.md, "Whose word wins"): ContentType over the
// record's stored HTTP Content-Type, TLD over the host of its
// WARC-Target-URI, Override over all but a byte order mark; Likely,
// Default and Locale are the standard's later steps, which a <meta> or an
// XML declaration comes before.
type Options struct {
	// PartSize is the size of the pieces a gzip WARC file is cut into
	// before the run (see archive.Split); 0 means DefaultPartSize.
	// Smaller pieces spread a file over more workers, at the cost of
	// about 16 KiB read per cut.
	PartSize int64
	// Text makes each Record carry its decoded text.
	Text bool

	// ContentType is a transport-layer Content-Type ("text/html;
	// charset=utf-8") for every record, instead of the stored one
	// (--content-type).
	ContentType string
	// Override is the label of an encoding to decode every record in,
	// unless a byte order mark says otherwise (--override).
	Override string
	// Likely is the label of a likely encoding, used when no declaration
	// decides, before autodetection (--likely).
	Likely string
	// Default is the label of the encoding for a record nothing else
	// decides, instead of the locale's (--default).
	Default string
	// Locale is a locale or top-level domain hint ("ja", "zh-TW", ".jp")
	// for autodetection and the default encoding (--locale).
	Locale string
	// TLD is a top-level domain or host name for every record, instead of
	// the host of its WARC-Target-URI (--hint-tld).
	TLD string
	// Window is the prescan window in bytes, as sniff.Options.Window: 0
	// means sniff.DefaultWindow (--window).
	Window int
	// Lookahead is how many bytes past the window a tentative decision
	// may look, as a browser does (decode.WithLookahead); 0 means the
	// library's default (64 KiB), negative none: the window alone
	// (--lookahead 0).
	Lookahead int64
	// NoAutodetect skips the autodetection step (--no-autodetect).
	NoAutodetect bool
	// DetectAll lets autodetection guess encodings browsers never guess
	// (--detect-all).
	DetectAll bool
	// Legacy resolves labels, the options' and the documents', with the
	// 2008 draft's loose matching (--legacy-labels).
	Legacy bool
	// Raw makes the text the plain WHATWG decode, without the newline and
	// NUL preprocessing (--raw).
	Raw bool
}

// decodeOptions returns the options of each record's decoder, which
// archive.Options.Decode puts after the record's own Content-Type and
// host; or the error of a label that names no encoding.
func (o *Options) decodeOptions() ([]decode.Option, error) {
	lookup := override.Lookup[string]
	if o.Legacy {
		lookup = override.LookupLegacy[string]
	}
	so := sniff.Options{ContentType: o.ContentType, Locale: o.Locale, TLD: o.TLD, Window: o.Window,
		NoAutodetect: o.NoAutodetect, DetectAll: o.DetectAll, Legacy: o.Legacy}
	for _, f := range []struct {
		name, label string
		enc         *override.Encoding
	}{
		{"Override", o.Override, &so.Override},
		{"Likely", o.Likely, &so.Likely},
		{"Default", o.Default, &so.Default},
	} {
		if f.label == "" {
			continue
		}
		e, ok := lookup(f.label)
		if !ok {
			return nil, fmt.Errorf("warcio: Options.%s %q: unknown encoding label", f.name, f.label)
		}
		*f.enc = e
	}
	opts := []decode.Option{decode.WithSniff(so)}
	switch {
	case o.Lookahead < 0:
		opts = append(opts, decode.WithLookahead(0))
	case o.Lookahead > 0:
		opts = append(opts, decode.WithLookahead(o.Lookahead))
	}
	if o.Raw {
		opts = append(opts, decode.WithoutPreprocessing())
	}
	return opts, nil
}
