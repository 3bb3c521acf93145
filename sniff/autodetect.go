package sniff

import (
	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/override"
)

// autodetect runs the autodetection step of [Sniff] alone over b: o.Detector
// if set, else the built-in detector hinted by o.Locale and o.TLD (wide
// with o.DetectAll), with
// o.AtEOF saying whether b ends the input. It reports false when
// o.NoAutodetect is set or the detector found no evidence (or answered an
// encoding that is not valid).
func autodetect(b []byte, o *Options) (override.Encoding, bool) {
	if o.NoAutodetect {
		return override.Unknown, false
	}
	var enc override.Encoding
	var ok bool
	if o.Detector != nil {
		enc, ok = o.Detector.Detect(b)
	} else {
		enc, ok = builtinDetect(b, o.Locale, o.TLD, o.AtEOF, o.DetectAll)
	}
	if !ok || !enc.Valid() {
		return override.Unknown, false
	}
	return enc, true
}

// An Autodetector runs the autodetection step of [Sniff] alone (the
// Options' Detector, else the built-in detector hinted by Locale and TLD;
// nothing with NoAutodetect) over a prefix that grows, as a reader looking
// past the window sees it: package decode uses it to detect late, over
// bytes the window did not hold. Each call's prefix must extend the
// previous call's (the same bytes, and more or as many), and a call with
// atEOF must be the last. Its answers are those of the step for each
// prefix. The built-in detector is fed only the bytes it has not seen
// (its guess does not depend on how its input is cut), so asking at each
// doubling of a prefix costs about as much as asking once over the
// longest; a caller's Options.Detector is asked with the whole prefix each
// time. Call Reset before the first use and Release after the last. An
// Autodetector does not allocate.
type Autodetector struct {
	opts Options
	d    *detect.Detector // the built-in detector, from the pool once needed
	fed  int              // bytes of the prefix fed to d
	last bool             // d was fed the end of the input
}

// Reset makes a ready to detect over a new input with opts (nil means the
// zero Options).
func (a *Autodetector) Reset(opts *Options) {
	a.Release()
	a.opts = Options{}
	if opts != nil {
		a.opts = *opts
	}
	a.fed, a.last = 0, false
}

// Release hands the built-in detector back to its pool. The Autodetector
// may be used again after Reset.
func (a *Autodetector) Release() {
	if a.d != nil {
		detectors.Put(a.d)
		a.d = nil
	}
}

// Detect reports what the autodetection step of [Sniff] answers for prefix
// (false for no evidence), with atEOF saying whether prefix is the whole
// input (Options.AtEOF).
func (a *Autodetector) Detect(prefix []byte, atEOF bool) (override.Encoding, bool) {
	o := &a.opts
	if o.NoAutodetect {
		return override.Unknown, false
	}
	var enc override.Encoding
	var ok bool
	switch {
	case o.Detector != nil:
		enc, ok = o.Detector.Detect(prefix)
	default:
		var decided bool
		if enc, ok, decided = quickDetect(prefix, atEOF); decided {
			break
		}
		if a.d == nil {
			a.d = detectors.Get().(*detect.Detector)
			a.d.All = o.DetectAll
			a.d.Reset()
			a.fed = 0
		}
		if a.last || len(prefix) < a.fed {
			// Not a longer prefix of the same input: start over.
			a.d.Reset()
			a.fed, a.last = 0, false
		}
		a.d.Feed(prefix[a.fed:], atEOF)
		a.fed, a.last = len(prefix), atEOF
		var s detect.Strength
		enc, s = a.d.Guess(hintOf(o.Locale, o.TLD))
		ok = s > detect.NoEvidence
	}
	if !ok || !enc.Valid() {
		return override.Unknown, false
	}
	return enc, true
}
