package warcio

import (
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.Function1x1(metadataSpan)
	register.Function1x1(readableSpan)
}

var (
	metadataType = reflect.TypeOf(fileio.FileMetadata{})
	readableType = reflect.TypeOf(fileio.ReadableFile{})
)

// ReadGlob reads the WARC files glob matches, as textio.Read reads text
// files: fileio.MatchFiles(s, glob), then ReadFiles. The glob is matched
// when the pipeline runs, by Beam's filesystem of its scheme (a local
// path, gs://, memfs://); as in fileio, a glob without a wildcard must
// match a file, one with a wildcard may match none.
func ReadGlob(s beam.Scope, glob string, opts Options) beam.PCollection {
	s = s.Scope("warcio.ReadGlob")
	return ReadFiles(s, fileio.MatchFiles(s, glob), opts)
}

// ReadFiles reads the WARC files of files, a PCollection of
// fileio.FileMetadata (the matches of fileio.MatchFiles or
// fileio.MatchAll, for globs given in a PCollection) or of
// fileio.ReadableFile (fileio.ReadMatches's), whole, as Read reads Spans of
// whole files: the same Records, split inside each file the same way.
//
// A ReadableFile's compression is not used: a WARC file's gzip members,
// zstd or LZ4 frames are the WARC reader's to find, since a record's
// offset and length are those of its member or frames in the file. Like
// Read, ReadFiles panics on bad options (TryReadFiles returns the error),
// and on a PCollection of another type.
func ReadFiles(s beam.Scope, files beam.PCollection, opts Options) beam.PCollection {
	out, err := TryReadFiles(s, files, opts)
	if err != nil {
		panic(err)
	}
	return out
}

// TryReadFiles is ReadFiles, returning the error of bad options or of a
// PCollection of another type instead of panicking.
func TryReadFiles(s beam.Scope, files beam.PCollection, opts Options) (beam.PCollection, error) {
	if !files.IsValid() {
		return beam.PCollection{}, fmt.Errorf("warcio.ReadFiles: invalid PCollection")
	}
	s = s.Scope("warcio.ReadFiles")
	var toSpan any
	switch t := files.Type().Type(); t {
	case metadataType:
		toSpan = metadataSpan
	case readableType:
		toSpan = readableSpan
	default:
		return beam.PCollection{}, fmt.Errorf("warcio.ReadFiles: a PCollection of %v; want fileio.FileMetadata or fileio.ReadableFile", t)
	}
	spans, err := beam.TryParDo(s, toSpan, files)
	if err != nil {
		return beam.PCollection{}, fmt.Errorf("warcio.ReadFiles: %w", err)
	}
	return TryRead(s, spans[0], opts)
}

// metadataSpan is the Span of a whole matched file.
func metadataSpan(m fileio.FileMetadata) Span { return Span{Path: m.Path} }

// readableSpan is the Span of a whole readable file.
func readableSpan(f fileio.ReadableFile) Span { return Span{Path: f.Metadata.Path} }
