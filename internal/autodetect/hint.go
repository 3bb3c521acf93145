package autodetect

import (
	"github.com/charsniff/charsniff/internal/region"
	"github.com/charsniff/charsniff/override"
)

// Hint is what the caller knows of the text's origin: detect.Hint, which
// documents the fields. The two types convert to each other.
type Hint struct {
	TLD      string
	Language string
}

// resolve returns the region whose encodings h favours, and the encoding
// to answer without evidence: the TLD's region if the TLD is known, else
// the language's. Without evidence the answer is what sniff.DefaultEncoding
// gives: the region's default, except for a language that the HTML
// Standard's table does not list (windows-1252). Both read one table,
// internal/region. resolve does not allocate.
func (h Hint) resolve() (region.Region, override.Encoding) {
	if r := region.ForTLD(h.TLD); r != region.Generic {
		return r, r.Default()
	}
	r, std, _ := region.ForLocale(h.Language)
	if !std {
		return r, override.Windows1252
	}
	return r, r.Default()
}
