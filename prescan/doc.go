// Package prescan implements the WHATWG HTML Standard's "prescan a byte stream
// to determine its encoding": the <meta> scan over the first bytes of an HTML
// document, the UTF-16 XML declaration prefix, and "get an XML encoding".
//
// The scan is a byte state machine. It is resumable: a [Scanner] is fed
// chunks of any size, keeps its state across chunk boundaries and never looks
// at a byte twice, so a reader can keep scanning a stream past the window
// (with a larger or unlimited window) and learn where a late declaration
// ended. [Prescan] is the one-shot form over a byte slice. Both allocate
// nothing and take time linear in the input, whatever the input.
//
// The standard's rules, as this package applies them:
//
//   - UTF-16 XML prefix: input starting 3C 00 3F 00 78 00 is UTF-16LE, input
//     starting 00 3C 00 3F 00 78 is UTF-16BE. This looks at the first six
//     bytes of the stream, whatever the window.
//   - The <meta> scan examines the bytes at offsets below the window (1024 by
//     default). Comments (<!-- ... -->, including <!--> and <!--->), other
//     tags and their attributes (so a > inside a quoted attribute value does
//     not end a tag), </, <! and <? are skipped as the standard says; a
//     <meta> whose charset attribute, or whose content attribute together with
//     http-equiv="content-type", names an encoding ends the scan. UTF-16 found
//     this way becomes UTF-8 and x-user-defined becomes windows-1252.
//   - Abort rule: a <meta> counts only if its closing > lies inside the window.
//     When the scan reaches the end of the window or of the input without an
//     answer, the answer is "get an XML encoding" applied to the whole input:
//     the encoding named by an XML declaration (<?xml ... encoding="..." ...>)
//     at byte 0, which is not limited to the window.
//
// Labels are resolved with [override.Lookup] (or [override.LookupLegacy] when
// [Options.Legacy] is set). The prescan has no notion of <script>, <style> or
// other raw-text content: like the standard's, it finds a <meta> inside a
// script. [Options.Tokenizer] makes the scan see the markup as the HTML
// tokenizer (and, through a model of it, the tree builder) does instead,
// for a reader looking past the window for the <meta> a parser would meet.
//
// References:
//   - https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding
//   - https://html.spec.whatwg.org/multipage/parsing.html#concept-get-attributes-when-sniffing
//   - https://html.spec.whatwg.org/multipage/parsing.html#concept-get-xml-encoding-when-sniffing
//   - https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element
package prescan
