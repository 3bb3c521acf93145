// Package charsniff finds the character encoding of an HTML byte stream
// exactly as the WHATWG HTML Standard says browsers do, and hands out the
// text as UTF-8.
//
// It has the four functions of golang.org/x/net/html/charset with the same
// signatures, so a program switches with a one-line change of its import:
//
//	import charset "github.com/charsniff/charsniff" // was "golang.org/x/net/html/charset"
//
//	r, err := charset.NewReader(resp.Body, resp.Header.Get("Content-Type"))
//	doc, err := html.Parse(r)
//
// [NewResponseReader] does the same from an *http.Response and gives the
// full [decode.Reader], which tells what was decided and why
// ([decode.Reader.Result]) and takes options (package decode). Package sniff
// has the sniffing algorithm on its own; package decode/codec has the
// decoders.
//
// # Crawlers
//
// [Transport] is an [http.RoundTripper] that hands out every HTML response
// decoded to UTF-8, so that any parser or scraping library built on
// golang.org/x/net/html (goquery, colly) reads the right text:
//
//	client := &http.Client{Transport: &charsniff.Transport{}}
//	resp, err := client.Get(url)
//	doc, err := html.Parse(resp.Body) // UTF-8; resp.Header says charset=utf-8
//	res, _ := charsniff.ResponseResult(resp) // which encoding, and why
//
// It and [NewResponseReader] decompress a body still compressed (gzip,
// deflate, br, zstd: a crawler that sets Accept-Encoding itself gets such
// bodies from net/http), within a bound against decompression bombs, and
// take the host of the URL as a hint for undeclared pages. The examples
// module (github.com/charsniff/charsniff/examples) shows goquery and colly.
//
// # Names of encodings
//
// Two spellings of an encoding's name are in use. [Lookup],
// [DetermineEncoding] and the charsniff command (text and JSON) give the
// lower-case form of the WHATWG name, as x/net/html/charset does:
// "shift_jis", "utf-8", "windows-1252", "big5"; [override.Encoding.LowerName]
// gives it for an encoding. The Encoding Standard's own spelling,
// "Shift_JIS", "UTF-8", "windows-1252", "Big5", is what
// override.Encoding.Name, sniff.Result.Name and so [decode.Reader.Result]
// give. Labels match in either case, so both spellings look up the same
// encoding.
//
// # Deliberate differences from x/net/html/charset
//
// Each of these is named in a test (TestDifferenceFromXNet_*).
//
//   - The reader's output is what an HTML parser's tokenizer sees: a leading
//     byte order mark is removed (x/net keeps it as U+FEFF, for UTF-8 and
//     UTF-16 alike), CR LF and lone CR become LF, and U+0000 becomes U+FFFD
//     (x/net passes all three through). [NewReaderLabel] removes a byte
//     order mark but changes no newline or NUL.
//   - The decoders are the Encoding Standard's, byte for byte: windows-1252's
//     81, 8D, 8F, 90 and 9D and the ISO-8859-x C1 bytes decode to U+0080 to
//     U+009F (x/net: U+FFFD); gbk accepts gb18030's four-byte sequences;
//     an ill-formed multi-byte sequence never swallows a following ASCII
//     byte.
//   - Text sniffed as UTF-8 is decoded as UTF-8: ill-formed bytes become
//     U+FFFD (x/net passes the bytes through unchanged, as
//     encoding.Nop, so its output may not be UTF-8).
//   - The Content-Type header is parsed as Fetch says: the first charset
//     parameter wins and an unterminated quoted value runs to the end
//     (mime.ParseMediaType, which x/net uses, rejects both headers and so
//     ignores their charset).
//   - The <meta> prescan is the standard's byte-level algorithm over the
//     first 1024 bytes (x/net runs the HTML tokenizer): a <meta> inside a
//     <script> or <title> counts, and a <meta> naming x-user-defined means
//     windows-1252.
//   - Labels match as the Encoding Standard's "get an encoding" says: ASCII
//     whitespace trimmed and ASCII case folded only, so "\u212Aoi8-r" (with
//     a Kelvin sign) is not koi8-r (x/net accepts it, and labels padded
//     with U+00A0 or U+0085).
//   - Without a declaration, the encoding is guessed from the bytes by
//     frequency analysis, as browsers do (x/net tries UTF-8 and otherwise
//     says windows-1252).
//   - While the encoding is tentative, [NewReader], [DetermineEncoding] and
//     [NewResponseReader] look past the first 1024 bytes as a browser's
//     parser and detector do: a <meta> further on (within 64 KiB) is acted
//     on, and a start that is all ASCII leaves the guess open until the
//     first non-ASCII text, with no text handed out that a later decision
//     would contradict (see [decode.WithLookahead]; WithLookahead(0) is
//     the first 1024 bytes alone). x/net decides from the first 1024 bytes
//     only, so a page declaring UTF-8 after a long <head> comes out as
//     windows-1252 mojibake.
//   - [NewReader] never fails: an empty input is an empty stream (x/net
//     returns io.EOF), and an error while reading the first 1024 bytes is
//     returned by Read after the bytes before it (x/net returns it from
//     NewReader and loses the bytes).
//   - [NewReaderLabel] lets a byte order mark choose the encoding and
//     removes it, as the Encoding Standard's decode does (x/net decodes the
//     mark as text in the labelled encoding).
//
// # References
//
//   - https://html.spec.whatwg.org/multipage/parsing.html#the-input-byte-stream
//   - https://encoding.spec.whatwg.org/
//   - https://fetch.spec.whatwg.org/#content-type-header
package charsniff
