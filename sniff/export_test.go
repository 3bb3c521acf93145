package sniff

import "github.com/charsniff/charsniff/override"

// Autodetect is autodetect, the autodetection step of Sniff alone, for the
// tests of package sniff_test (TestAutodetector's oracle).
func Autodetect(b []byte, o *Options) (override.Encoding, bool) { return autodetect(b, o) }
