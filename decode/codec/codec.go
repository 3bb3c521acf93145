// Package codec implements the decoders of the WHATWG Encoding Standard for
// all of its 40 encodings, each exposed as a golang.org/x/text
// [encoding.Encoding].
//
// The decoders are byte-exact with the standard's decoder algorithms
// (https://encoding.spec.whatwg.org/#decoders), which is what browsers do;
// x/text's own decoders differ from them in many small ways (C1 bytes,
// unassigned bytes, error recovery, which bytes an error consumes). They do
// no BOM handling: a leading byte order mark is data, decoded like any other
// bytes, as in the standard's "decode without BOM handling". BOM sniffing,
// newline normalization and NUL replacement belong to the caller (package
// decode).
//
// Every decoder is a [transform.Transformer] that follows x/text's calling
// protocol exactly:
//   - A byte sequence cut off at the end of src (at most three bytes: a lead
//     byte, a partial UTF-8 or gb18030 sequence, half a UTF-16 code unit or
//     surrogate pair, the start of an ISO-2022-JP escape) is not consumed
//     when atEOF is false: Transform returns [transform.ErrShortSrc] and
//     expects those bytes again at the start of the next src, as
//     [transform.Reader] and [transform.Chain] do. With atEOF it becomes
//     U+FFFD, as the standard's end-of-queue steps say.
//   - When dst has no room for the next code point (at most four bytes of
//     UTF-8, or two code points for Big5's four combining pairs) Transform
//     returns [transform.ErrShortDst] after writing all it could.
//   - State that outlives a byte sequence (ISO-2022-JP's character set and
//     output flag, replacement's "error returned") is kept in the decoder;
//     Reset clears it.
//
// So any chunking of the input and any size of the output buffer give the
// same output. Malformed input is never an error: it becomes U+FFFD. Transform
// does not allocate. Runs of ASCII are copied eight bytes at a time; the
// single-byte decoders write precomputed UTF-8 from a 256-entry table; the
// double-byte decoders look pairs up in flat arrays indexed by pointer.
//
// The encoders are x/text's where x/text has the encoding, so that
// Encoding(e).NewEncoder() behaves as users of golang.org/x/net/html/charset
// expect (x/text's x-user-defined encoder is the standard's). They are not
// all the standard's encoders: x/text's single-byte encoders reject the C1
// controls U+0080-U+009F that the standard's indexes map bytes to, and its
// GBK and gb18030 encoders predate the gb18030 index's 2005 and 2022 changes
// (U+1E3F becomes 81 35 F4 37, which decodes to U+E7C7; some Private Use and
// vertical-form code points are unsupported or move). The replacement
// encoding has no encoder in the standard; its NewEncoder returns an encoder
// that fails on every rune (empty input encodes to empty output), with an
// error that encoding.ReplaceUnsupported turns into '?'.
//
// [Encoding] is the package's one name. Package decode runs these decoders
// behind its Reader, and the root package's Lookup hands them out wrapped,
// their encoders escaping what they cannot encode as x/net's charset does;
// Encoding is the way to them by encoding identity, with the plain
// encoders, which report what they cannot encode. (It stays a public
// package below decode rather than an internal one: the single-byte
// tables it shares with decode are in decode/internal, which a package
// under the module's internal/ could not import.)
//
// References:
//   - https://encoding.spec.whatwg.org/
//   - https://pkg.go.dev/golang.org/x/text/encoding
package codec

//go:generate go run gen.go

import (
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/decode/internal/singlebyte"
	"github.com/charsniff/charsniff/override"
)

// Encoding returns the encoding e as an x/text [encoding.Encoding], or nil
// if e is [override.Unknown] or not an encoding. Its decoder is WHATWG-exact
// and does no BOM handling; its encoder is x/text's where x/text has one (see
// the package documentation). The returned value is shared and safe for
// concurrent use; each NewDecoder call returns a decoder with its own state.
func Encoding(e override.Encoding) encoding.Encoding {
	if !e.Valid() {
		return nil
	}
	return &codecs[e]
}

// codec is the encoding.Encoding of one encoding of the standard.
type codec struct {
	e override.Encoding
	// xtext is the x/text encoding whose encoder codec uses, or nil if
	// newEncoder is set.
	xtext encoding.Encoding
	// newEncoder returns a new encoder transformer when xtext is nil.
	newEncoder func() transform.Transformer
}

// NewDecoder returns a decoder for c with its own state.
func (c *codec) NewDecoder() *encoding.Decoder {
	return &encoding.Decoder{Transformer: newDecoder(c.e)}
}

// NewEncoder returns an encoder for c.
func (c *codec) NewEncoder() *encoding.Encoder {
	if c.xtext != nil {
		return c.xtext.NewEncoder()
	}
	return &encoding.Encoder{Transformer: c.newEncoder()}
}

// newDecoder returns a new decoder transformer for e, which must be valid.
func newDecoder(e override.Encoding) transform.Transformer {
	switch {
	case e == override.UTF8:
		return utf8Decoder{}
	case singlebyte.Is(e), e == override.XUserDefined:
		return &singleByteDecoder{table: singlebyte.Decode(e), vec: singlebyte.Vec(e)}
	case e == override.GBK, e == override.GB18030:
		return &dbcsDecoder{fast: gb18030Tables(), step: gb18030Step}
	case e == override.Big5:
		return &dbcsDecoder{fast: big5Tables(), step: big5Step}
	case e == override.EUCJP:
		return &dbcsDecoder{fast: eucJPTables(), step: eucJPStep}
	case e == override.ISO2022JP:
		return &iso2022JPDecoder{fast: eucJPTables()}
	case e == override.ShiftJIS:
		return &dbcsDecoder{fast: shiftJISTables(), step: shiftJISStep}
	case e == override.EUCKR:
		return &dbcsDecoder{fast: eucKRTables(), step: eucKRStep}
	case e == override.Replacement:
		return &replacementDecoder{}
	case e == override.UTF16BE:
		return &utf16Decoder{bigEndian: true}
	case e == override.UTF16LE:
		return &utf16Decoder{}
	}
	panic("codec: no decoder for " + e.String())
}

// String returns the encoding's canonical name.
func (c *codec) String() string { return c.e.Name() }

// codecs holds the Encoding of every encoding, indexed by override.Encoding.
var codecs = [override.NumEncodings + 1]codec{
	override.UTF8:         {e: override.UTF8, xtext: unicode.UTF8},
	override.IBM866:       {e: override.IBM866, xtext: charmap.CodePage866},
	override.ISO8859_2:    {e: override.ISO8859_2, xtext: charmap.ISO8859_2},
	override.ISO8859_3:    {e: override.ISO8859_3, xtext: charmap.ISO8859_3},
	override.ISO8859_4:    {e: override.ISO8859_4, xtext: charmap.ISO8859_4},
	override.ISO8859_5:    {e: override.ISO8859_5, xtext: charmap.ISO8859_5},
	override.ISO8859_6:    {e: override.ISO8859_6, xtext: charmap.ISO8859_6},
	override.ISO8859_7:    {e: override.ISO8859_7, xtext: charmap.ISO8859_7},
	override.ISO8859_8:    {e: override.ISO8859_8, xtext: charmap.ISO8859_8},
	override.ISO8859_8I:   {e: override.ISO8859_8I, xtext: charmap.ISO8859_8I},
	override.ISO8859_10:   {e: override.ISO8859_10, xtext: charmap.ISO8859_10},
	override.ISO8859_13:   {e: override.ISO8859_13, xtext: charmap.ISO8859_13},
	override.ISO8859_14:   {e: override.ISO8859_14, xtext: charmap.ISO8859_14},
	override.ISO8859_15:   {e: override.ISO8859_15, xtext: charmap.ISO8859_15},
	override.ISO8859_16:   {e: override.ISO8859_16, xtext: charmap.ISO8859_16},
	override.KOI8R:        {e: override.KOI8R, xtext: charmap.KOI8R},
	override.KOI8U:        {e: override.KOI8U, xtext: charmap.KOI8U},
	override.Macintosh:    {e: override.Macintosh, xtext: charmap.Macintosh},
	override.Windows874:   {e: override.Windows874, xtext: charmap.Windows874},
	override.Windows1250:  {e: override.Windows1250, xtext: charmap.Windows1250},
	override.Windows1251:  {e: override.Windows1251, xtext: charmap.Windows1251},
	override.Windows1252:  {e: override.Windows1252, xtext: charmap.Windows1252},
	override.Windows1253:  {e: override.Windows1253, xtext: charmap.Windows1253},
	override.Windows1254:  {e: override.Windows1254, xtext: charmap.Windows1254},
	override.Windows1255:  {e: override.Windows1255, xtext: charmap.Windows1255},
	override.Windows1256:  {e: override.Windows1256, xtext: charmap.Windows1256},
	override.Windows1257:  {e: override.Windows1257, xtext: charmap.Windows1257},
	override.Windows1258:  {e: override.Windows1258, xtext: charmap.Windows1258},
	override.XMacCyrillic: {e: override.XMacCyrillic, xtext: charmap.MacintoshCyrillic},
	override.GBK:          {e: override.GBK, xtext: simplifiedchinese.GBK},
	override.GB18030:      {e: override.GB18030, xtext: simplifiedchinese.GB18030},
	override.Big5:         {e: override.Big5, xtext: traditionalchinese.Big5},
	override.EUCJP:        {e: override.EUCJP, xtext: japanese.EUCJP},
	override.ISO2022JP:    {e: override.ISO2022JP, xtext: japanese.ISO2022JP},
	override.ShiftJIS:     {e: override.ShiftJIS, xtext: japanese.ShiftJIS},
	override.EUCKR:        {e: override.EUCKR, xtext: korean.EUCKR},
	override.Replacement:  {e: override.Replacement, newEncoder: newReplacementEncoder},
	override.UTF16BE:      {e: override.UTF16BE, xtext: unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)},
	override.UTF16LE:      {e: override.UTF16LE, xtext: unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)},
	override.XUserDefined: {e: override.XUserDefined, xtext: charmap.XUserDefined},
}
