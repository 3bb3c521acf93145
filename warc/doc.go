// Package warc reads web archives, WARC files (ISO 28500, WARC 1.0 and
// 1.1, and the WARC/0.18 of ClueWeb09) and ARC files, and unwraps the HTTP
// responses they store.
//
// It knows nothing of character encodings: it hands out each record's
// header and block, and for response and resource records the payload with
// its HTTP envelope, chunked transfer coding and gzip or deflate content
// coding removed, along with the Content-Type an encoding sniffer needs.
//
// A [Reader] streams records in bounded memory from plain input or from
// gzip, zstd or LZ4 input, told apart by their first bytes (see [Detect]).
// It survives damage: a bad record, or a stretch of input skipped after
// one, is reported as a *[RecordError] with its offset, and the Reader
// carries on with the next record. The containers, and what damage costs
// on a file or a pipe, are described in docs/archives.md.
//
//	r := warc.NewReader(f)
//	for {
//		rec, err := r.Next()
//		if err == io.EOF {
//			break
//		}
//		var bad *warc.RecordError
//		if errors.As(err, &bad) {
//			log.Print(err) // skipped; go on
//			continue
//		}
//		if err != nil {
//			return err // the underlying reader failed
//		}
//		p, err := rec.Payload() // response and resource records only
//		if err != nil || !p.IsHTML() {
//			continue
//		}
//		// p.Body is the payload, p.ContentType the transport layer's
//		// Content-Type: hand both to an encoding sniffer.
//	}
//
// A record whose WARC framing is sound but whose stored HTTP message is not
// gives no *RecordError: [Record.Payload] fails with [ErrHTTP] if it cannot
// find its status line or read its header, and otherwise Payload.Body reads every byte it can and
// then returns the error ([ErrHTTP], [ErrChunked] or a content coding's) in
// place of io.EOF, so that what was read can still be sniffed.
//
// References:
//   - The WARC Format 1.1: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/
//   - Annex on gzip compression ("record-at-time compression"), same document.
//   - RFC 9112 (HTTP/1.1 message syntax, chunked transfer coding).
//   - Fetch, "extract a MIME type": https://fetch.spec.whatwg.org/#concept-header-extract-mime-type
package warc
