package warcio

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"cloud.google.com/go/storage"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs" // gs:// sizes and globs
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/gcsx"
	"google.golang.org/api/option"
)

// A file is an open WARC file.
type file interface {
	io.Closer
	// section returns a reader of the file's bytes [from, end), once:
	// for a file read in order, the reader consumes it.
	section(from, end int64) (io.Reader, error)
	// readerAt returns the file for reads at offsets (to find cuts), or
	// nil for a file that can only be read in order.
	readerAt() io.ReaderAt
}

// open opens path: a plain path with the os package, a gs:// object with
// a Cloud Storage client that reads byte ranges, any other through Beam's
// filesystem registry, in order.
func open(ctx context.Context, path string) (file, error) {
	switch {
	case !strings.Contains(path, "://"):
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		return localFile{f}, nil
	case strings.HasPrefix(path, "gs://"):
		return openGCS(ctx, path)
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("warcio: %w", err)
	}
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		fs.Close()
		return nil, fmt.Errorf("warcio: %w", err)
	}
	return &fsFile{rc: rc, fs: fs}, nil
}

// A localFile is a file of the local filesystem.
type localFile struct{ f *os.File }

func (l localFile) Close() error { return l.f.Close() }

func (l localFile) section(from, end int64) (io.Reader, error) {
	return io.NewSectionReader(l.f, from, end-from), nil
}

func (l localFile) readerAt() io.ReaderAt { return l.f }

// A gcsFile is an object in Cloud Storage, read in byte ranges: one
// request for each ReadAt (a cut is found in a few), and one for a
// section, streamed.
type gcsFile struct {
	ctx    context.Context
	client *storage.Client
	obj    *storage.ObjectHandle
	open   []io.Closer // the sections' readers
}

// openGCS opens the object at path with the application default
// credentials, or without authentication when there are none, as Beam's
// own gcs filesystem does.
func openGCS(ctx context.Context, path string) (*gcsFile, error) {
	bucket, object, err := gcsx.ParseObject(path)
	if err != nil {
		return nil, fmt.Errorf("warcio: %w", err)
	}
	// JSON API reads: the XML API's are no faster for ranges, and an
	// emulator (STORAGE_EMULATOR_HOST) serves these at any host name.
	client, err := storage.NewClient(ctx, option.WithScopes(storage.ScopeReadOnly), storage.WithJSONReads())
	if err != nil {
		client, err = storage.NewClient(ctx, option.WithoutAuthentication(), storage.WithJSONReads())
		if err != nil {
			return nil, fmt.Errorf("warcio: %s: %w", path, err)
		}
	}
	return &gcsFile{ctx: ctx, client: client, obj: client.Bucket(bucket).Object(object)}, nil
}

func (g *gcsFile) Close() error {
	for _, c := range g.open {
		c.Close()
	}
	return g.client.Close()
}

func (g *gcsFile) section(from, end int64) (io.Reader, error) {
	if end <= from {
		return strings.NewReader(""), nil
	}
	r, err := g.obj.NewRangeReader(g.ctx, from, end-from)
	if err != nil {
		return nil, err
	}
	g.open = append(g.open, r)
	return r, nil
}

func (g *gcsFile) readerAt() io.ReaderAt { return g }

// ReadAt reads len(p) bytes at off with one ranged request.
func (g *gcsFile) ReadAt(p []byte, off int64) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r, err := g.obj.NewRangeReader(g.ctx, off, int64(len(p)))
	if err != nil {
		return 0, err
	}
	defer r.Close()
	n, err := io.ReadFull(r, p)
	if err == io.ErrUnexpectedEOF {
		err = io.EOF
	}
	return n, err
}

// An fsFile is a file opened through Beam's filesystem registry, read in
// order.
type fsFile struct {
	rc io.ReadCloser
	fs filesystem.Interface
}

func (f *fsFile) Close() error {
	err := f.rc.Close()
	if ferr := f.fs.Close(); err == nil {
		err = ferr
	}
	return err
}

func (f *fsFile) section(from, end int64) (io.Reader, error) {
	return &skipReader{r: f.rc, skip: from, n: end - from}, nil
}

func (f *fsFile) readerAt() io.ReaderAt { return nil }
