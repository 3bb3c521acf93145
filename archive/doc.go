// Package archive sniffs and decodes the HTML records of WARC files (web
// archives, Common Crawl) the way the charsniff command does, for programs
// that run it inside their own engine (a Beam or Spark task, a crawler's
// post-processing): one iteration per file, one [Result] per document,
// typed, whose JSON form is the command's output line.
//
// [Records] reads a WARC file (plain, gzip, zstd or LZ4) with package warc
// and yields each response or resource record with an HTML payload as a
// [Record]: the record's metadata, the sniffing result and a reader of the
// decoded text. Each record is sniffed as a browser would have done when it
// was fetched: its stored HTTP Content-Type is the transport layer and the
// host of its target URI the top-level-domain hint, after the caller's
// options. Damage does not stop the iteration: a damaged record, or a
// stretch of garbage between records, is a Record whose Result has an Err
// (and the record's offset), and the records after it follow.
//
//	for rec, err := range archive.Records(f, archive.Options{File: name}) {
//		if err != nil {
//			return err // the file could not be read on
//		}
//		rec.WriteText(w)    // optional: the decoded text
//		res := rec.Finish() // the final result
//		enc.Encode(res)     // a json.Encoder; SetEscapeHTML(false) writes the command's bytes
//	}
//
// A Record's Result is final once Finish has been called: the rest of the
// record's block is checked then (a wrong Content-Length, say, is only
// known at its end). A [Reader]'s Next steps through the same records by
// hand.
//
// To use every core on one file, [Parallel] cuts a gzip file into parts
// read on separate goroutines, and [ParallelStream] decodes the records of
// a stream on several goroutines while one inflates and frames them; both
// yield the records in file order, in bounded memory. The charsniff
// command reads WARC files this way.
package archive
