package sniff

import "github.com/charsniff/charsniff/override"

// Autodetect runs the autodetection step alone over b, as [Sniff] runs it
// (step 6): opts.Detector if set, else the built-in detector hinted by
// opts.Locale and opts.TLD, with opts.AtEOF saying whether b ends the
// input. It reports false when opts.NoAutodetect is set or the detector
// found no evidence (or answered an encoding that is not valid). A reader
// that looks past the window (package decode) uses it to detect late, over
// bytes the window did not hold. A nil opts means the zero Options.
func Autodetect(b []byte, opts *Options) (override.Encoding, bool) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.NoAutodetect {
		return override.Unknown, false
	}
	var enc override.Encoding
	var ok bool
	if o.Detector != nil {
		enc, ok = o.Detector.Detect(b)
	} else {
		enc, ok = builtinDetect(b, o.Locale, o.TLD, o.AtEOF)
	}
	if !ok || !enc.Valid() {
		return override.Unknown, false
	}
	return enc, true
}
