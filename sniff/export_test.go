package sniff

import "github.com/charsniff/charsniff/override"

// Autodetect is detectStep, the autodetection step of Sniff alone, for the
// tests of package sniff_test.
func Autodetect(b []byte, o *Options) (override.Encoding, bool) { return detectStep(b, o) }
