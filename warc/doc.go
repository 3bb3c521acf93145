// Package warc reads WARC files (ISO 28500, WARC 1.0 and 1.1, and the
// WARC/0.18 of ClueWeb09), the format of web archives and of Common Crawl,
// and unwraps the HTTP responses they store.
//
// It knows nothing of character encodings: it hands out each record's
// header and block, and for response and resource records the payload with
// its HTTP envelope, chunked transfer coding and gzip or deflate content
// coding removed, along with the Content-Type an encoding sniffer needs.
//
// A [Reader] streams: it holds one record's header at a time and bounded
// buffers however large the records, and reads uncompressed input as well as
// gzip input (one member per record, as archives write them, or any other
// split), zstd input (a frame per record after the dictionary frame of a
// .warc.zst file, as ArchiveTeam writes them, or without one, or any other
// split) and LZ4 frames, told apart by their first bytes (see [Detect]);
// other containers (bzip2, xz) and other WARC versions are refused with one
// final error ([ErrUnsupportedContainer], [ErrUnsupportedVersion]). It
// survives damage: a truncated or corrupt gzip member or frame, a record
// cut short, a wrong Content-Length, a malformed header or garbage between
// records is reported as a *[RecordError] with its offset, and the Reader
// carries on with the next record.
//
// A wrong Content-Length loses no good record after it when the input can
// seek (a file, a *bytes.Reader, an *io.SectionReader): the Reader seeks
// back to the damaged block's start, or in a compressed file to the start of
// the member or frame the block starts in, and looks for the next version
// line ("WARC/1.0" ...) from
// there, holding no more memory than usual. From a pipe it looks back at
// most 1 MiB from where the damage shows, so a Content-Length more than
// 1 MiB too long, or one running past the end of the input with more than
// 1 MiB of records after the block, loses the records that start before
// that. A file with one gzip member or frame per record, as archives write
// them, loses nothing either way. Nothing is lost in silence: a stretch of input
// the Reader could not search for records is reported, after the damaged
// record, as a *[SkippedError] (wrapped in a *[RecordError]) with its
// offsets. [Reader] has the details.
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
// is no *RecordError: [Record.Payload] returns an error wrapping [ErrHTTP]
// if it cannot find the response's status line or header, and otherwise
// the Payload, whose Body reads every byte it can and then, in place of
// io.EOF, the error: [ErrHTTP] for a header the block ends in before its
// blank line (Header and ContentType hold what was read; the body is
// empty), [ErrChunked] for a bad chunk size (the first one, such as "zz":
// the body as stored; a later one: the chunks before it), or a content
// coding's error. A caller sniffs what it read and reports the error with
// the record.
//
// References:
//   - The WARC Format 1.1: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/
//   - Annex on gzip compression ("record-at-time compression"), same document.
//   - RFC 9112 (HTTP/1.1 message syntax, chunked transfer coding).
//   - Fetch, "extract a MIME type": https://fetch.spec.whatwg.org/#concept-header-extract-mime-type
package warc
