package decode_test

import (
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// enc returns the encoding of label, which must be known.
func enc(label string) override.Encoding {
	e, ok := override.Lookup(label)
	if !ok {
		panic("unknown label " + label)
	}
	return e
}

// The sniffing options the tests use most, each as one option.
func withOverride(label string) decode.Option {
	return decode.WithSniff(sniff.Options{Override: enc(label)})
}
func withContentType(ct string) decode.Option {
	return decode.WithSniff(sniff.Options{ContentType: ct})
}
func withDefault(label string) decode.Option {
	return decode.WithSniff(sniff.Options{Default: enc(label)})
}
func withEncoding(label string) decode.Option { return decode.WithEncoding(enc(label)) }
func withWindow(n int) decode.Option          { return decode.WithSniff(sniff.Options{Window: n}) }

// noAutodetect turns the autodetection step off.
var noAutodetect = decode.WithSniff(sniff.Options{NoAutodetect: true})

// windowOnly is the standard's sniffing of the window alone.
var windowOnly = decode.WithLookahead(0)
