package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charsniff/charsniff/internal/mimesniff"
	"github.com/charsniff/charsniff/internal/mimetype"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// The text-or-binary check of a plain input goes in a browser's order
// (docs/cli.md, "Not text", has it as a table):
//
//  1. --text: text.
//  2. What the caller says: --override names an encoding, so the caller
//     wants the bytes decoded: text. A --content-type naming a MIME type
//     (not unknown/unknown, application/unknown or */*) decides, as a
//     response's Content-Type does in a browser: a text type (isTextType)
//     is text, any other is binary.
//  3. The file's name: an ending of textExtensions is text, whatever the
//     bytes, as a browser renders a local page.html.
//  4. The bytes, for a resource of unknown type (standard input, another
//     name): checkBytes.
//
// WARC records are not checked here: archive takes only the records whose
// stored Content-Type (or, without one, whose first bytes) say HTML.

// binaryError is the problem of an input that is binary data, not text:
// an encoding named for it would be a guess about bytes that are no
// characters.
type binaryError struct {
	typ   string // the MIME type the rules sniffed, or --content-type's essence
	given bool   // typ is --content-type's
}

func (e *binaryError) Error() string {
	what := e.typ
	switch {
	case e.given:
		what += ", by --content-type"
	case what == "application/octet-stream":
		what = fmt.Sprintf("control bytes in the first %d bytes", mimesniff.HeaderLen)
	}
	return fmt.Sprintf("binary data (%s), not text; --text reads it as text", what)
}

// typeVerdict is what the command line says of every input's type.
type typeVerdict uint8

const (
	typeUnknown typeVerdict = iota // the name or the bytes decide
	typeText                       // read every input as text
	typeBinary                     // refuse every plain input (--content-type)
)

// givenType returns what the flags say of the inputs' type (steps 1 and
// 2 above) and, for typeBinary, the essence --content-type names.
func (c *config) givenType() (typeVerdict, string) {
	if c.text || c.overrideEnc != override.Unknown {
		return typeText, ""
	}
	if c.contentType == "" {
		return typeUnknown, ""
	}
	t, ok := mimetype.Extract(c.contentType)
	switch {
	case !ok || t.Is("unknown/unknown") || t.Is("application/unknown"):
		return typeUnknown, "" // the MIME Sniffing Standard sniffs these
	case isTextType(t.Essence()):
		return typeText, ""
	}
	return typeBinary, t.Essence()
}

// isTextType reports whether a MIME type essence is one a browser shows
// as text, that may hold HTML: text/*, and the MIME Sniffing Standard's
// XML, JSON and JavaScript MIME types (application/xml, image/svg+xml,
// application/xhtml+xml, application/json, application/javascript, ...).
func isTextType(essence string) bool {
	typ, sub, _ := strings.Cut(essence, "/")
	switch {
	case typ == "text", strings.HasSuffix(sub, "+xml"), strings.HasSuffix(sub, "+json"):
		return true
	}
	switch essence {
	case "application/xml", "application/json", "application/javascript",
		"application/ecmascript", "application/x-javascript", "application/x-ecmascript":
		return true
	}
	return false
}

// textExtensions are the file-name endings read as text whatever the
// bytes: those browsers map to a text type for a local file (Firefox's
// and Chromium's built-in tables, which do not ask the system), with the
// type they map to. A name ending in another way, or none, leaves it to
// the bytes.
var textExtensions = []struct{ ext, typ string }{
	{".html", "text/html"},
	{".htm", "text/html"},
	{".shtml", "text/html"},
	{".xhtml", "application/xhtml+xml"},
	{".xht", "application/xhtml+xml"},
	{".xml", "text/xml"},
	{".svg", "image/svg+xml"},
	{".txt", "text/plain"},
	{".text", "text/plain"},
	{".css", "text/css"},
	{".js", "text/javascript"},
	{".mjs", "text/javascript"},
	{".json", "application/json"},
	{".csv", "text/csv"},
	{".md", "text/markdown"},
}

// hasTextName reports whether the file name says text (textExtensions).
// The name of a file that was decompressed (unpacked) is taken without
// its compression's ending: page.html.gz holds page.html.
func hasTextName(name string, unpacked bool) bool {
	ext := filepath.Ext(name)
	if unpacked && (strings.EqualFold(ext, ".gz") || strings.EqualFold(ext, ".zst")) {
		ext = filepath.Ext(name[:len(name)-len(ext)])
	}
	for _, t := range textExtensions {
		if strings.EqualFold(ext, t.ext) {
			return true
		}
	}
	return false
}

// checkText returns a *binaryError if a plain input is binary data, not
// text: head is its first bytes (decompressed, if it was compressed, and
// then unpacked is set), name its file name ("" for standard input). See
// the order above.
func (a *app) checkText(head []byte, name string, unpacked bool) error {
	switch a.given {
	case typeText:
		return nil
	case typeBinary:
		return &binaryError{typ: a.givenEssence, given: true}
	}
	if name != "" && hasTextName(name, unpacked) {
		return nil
	}
	return a.checkBytes(head)
}

// utf32BEBOM is UTF-32BE's byte order mark. The HTML Standard knows no
// UTF-32 (its BOM sniffing answers such a page with the default encoding)
// and neither does the MIME Sniffing Standard, whose rules call it
// binary: 0x00 is a binary data byte. But it is a Unicode signature, no
// binary format's, and encoding sniffers' test suites (jsdom's, jsoup's,
// w3lib's) expect an answer for it: the command gives the standard's.
var utf32BEBOM = []byte{0x00, 0x00, 0xFE, 0xFF}

// checkBytes returns a *binaryError if head, the first bytes of an input
// of unknown type, is binary data by the MIME Sniffing Standard's rules
// for identifying an unknown MIME type (in their order: the HTML and XML
// signatures and the byte order marks of UTF-8 and UTF-16 are text; the
// PDF, PostScript, image, audio, video and archive signatures are binary;
// then an input without binary data bytes is text) and the HTML encoding
// sniffing algorithm has no answer of its own from the bytes: a byte
// order mark (UTF-32BE's too, see utf32BEBOM), the prescan's BOM-less
// UTF-16 XML prefix (3C 00 3F 00 78 00 or 00 3C 00 3F 00 78), or a <meta>
// or XML declaration naming an encoding, any of which says the bytes are
// characters. Only an input that the rules call application/octet-stream
// (a binary data byte, no signature) is prescanned, so the cost of the
// check for text stays that of the rules.
func (a *app) checkBytes(head []byte) error {
	if bytes.HasPrefix(head, utf32BEBOM) {
		return nil
	}
	typ := mimesniff.Sniff(head)
	switch {
	case mimesniff.IsText(typ):
		return nil
	case typ != "application/octet-stream":
		return &binaryError{typ: typ} // a binary signature
	case a.declaresEncoding(head):
		return nil
	}
	return &binaryError{typ: typ}
}

// declaresEncoding reports whether the HTML encoding sniffing algorithm
// finds an encoding in head itself: a byte order mark, or the prescan's
// (a <meta>, an XML declaration, the UTF-16 XML prefix) in the window.
func (a *app) declaresEncoding(head []byte) bool {
	r := sniff.Sniff(head, &sniff.Options{Window: a.cfg.window, Legacy: a.cfg.legacy, NoAutodetect: true})
	switch r.Source {
	case sniff.SourceBOM, sniff.SourcePrescan, sniff.SourceXML:
		return true
	}
	return false
}
