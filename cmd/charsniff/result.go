package main

import (
	"strings"
	"sync"

	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// result is the outcome for one document: one output line. Its JSON form is
// the CLI's contract: the four keys file, encoding, confidence and source in
// that order, then optional fields. An error result has file and error only.
type result struct {
	File       string `json:"file"`
	Encoding   string `json:"encoding,omitempty"`   // canonical WHATWG name, lower case
	Confidence string `json:"confidence,omitempty"` // "certain" or "tentative"
	Source     string `json:"source,omitempty"`     // the sniffing step that decided
	BOM        int    `json:"bom,omitempty"`        // length of the byte order mark, if any
	Bytes      *int64 `json:"bytes,omitempty"`      // size of the input, when known
	Error      string `json:"error,omitempty"`      // the problem, for a failed input
}

// newResult fills a result from the sniffing decision.
func newResult(path string, r sniff.Result) result {
	return result{
		File:       path,
		Encoding:   lowerName(r.Encoding),
		Confidence: r.Confidence.String(),
		Source:     r.Source.String(),
		BOM:        r.BOMLength,
	}
}

// errorResult is the result of an input that failed.
func errorResult(path string, err error) result {
	return result{File: path, Error: describe(err)}
}

var (
	lowerOnce  sync.Once
	lowerNames [256]string
)

// lowerName returns e's canonical name in lower case ("shift_jis"), without
// allocating after the first call.
func lowerName(e override.Encoding) string {
	lowerOnce.Do(func() {
		for _, e := range override.All() {
			lowerNames[e] = strings.ToLower(e.Name())
		}
	})
	return lowerNames[e]
}
