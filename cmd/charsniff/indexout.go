package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/charsniff/charsniff/archive/index"
)

// Output formats (--format).
const (
	formatText    = "text"
	formatJSON    = "json"
	formatCDXJ    = "cdxj"
	formatParquet = "parquet"
)

// indexOut writes the rows of WARC records as an index (--format cdxj or
// parquet). A Parquet file is written under a temporary name beside -o
// FILE and renamed to it once complete, so that a run that fails leaves
// no file, and a run that ends leaves a readable one.
type indexOut struct {
	cdxj    *index.CDXJWriter
	parquet *index.ParquetWriter
	f       *os.File // the temporary Parquet file
	name    string   // -o FILE
	err     error    // the first write error, naming the file
}

// newIndexOut returns the index output of format, to stdout (CDXJ) or to
// the file name (Parquet).
func newIndexOut(format, name string, stdout io.Writer) (*indexOut, error) {
	if format == formatCDXJ {
		if name == "" {
			return &indexOut{cdxj: index.NewCDXJWriter(stdout)}, nil
		}
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("%s: %s", name, describe(err))
	}
	// A file as os.Create makes it, not CreateTemp's owner-only one.
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("%s: %s", name, describe(err))
	}
	o := &indexOut{f: f, name: name}
	var w io.Writer = f
	if wrapIndexFile != nil {
		w = wrapIndexFile(f)
	}
	if format == formatCDXJ {
		o.cdxj = index.NewCDXJWriter(w)
	} else {
		o.parquet = index.NewParquetWriter(w)
	}
	return o, nil
}

// wrapIndexFile, if set (by the tests), wraps the writer of the temporary
// index file: a full disk is a writer that fails after some bytes.
var wrapIndexFile func(io.Writer) io.Writer

// write adds the row of r, a WARC record's or a damaged stretch's result;
// results of other inputs have no place in an index and are left out.
func (o *indexOut) write(r *result) error {
	if r.Where == nil || o.err != nil {
		return o.err
	}
	row := index.NewRow(&r.Result)
	var err error
	if o.cdxj != nil {
		err = o.cdxj.Write(&row)
	} else {
		err = o.parquet.Write(&row)
	}
	return o.fail(err)
}

// fail records err, naming the file, as the output's first error.
func (o *indexOut) fail(err error) error {
	if err != nil && o.err == nil {
		name := o.name
		if name == "" {
			name = "standard output"
		}
		// The file's name and the cause (a *fs.PathError's name is the
		// temporary file's): describe, which writes the report, would
		// take the cause alone from a wrapped PathError.
		o.err = errors.New(name + ": " + describe(err))
	}
	return o.err
}

// close completes the index: flushes the CDXJ lines, or writes the
// Parquet footer and renames the file to its name. After an error (werr,
// or one of its own) it removes the temporary file instead.
func (o *indexOut) close(werr error) error {
	if o.cdxj != nil {
		o.fail(o.cdxj.Flush())
	} else if o.err == nil && werr == nil {
		o.fail(o.parquet.Close())
	}
	if o.f == nil {
		return o.err
	}
	if o.err == nil && werr == nil {
		o.fail(o.f.Sync())
	}
	o.fail(o.f.Close())
	if o.err == nil && werr == nil {
		o.fail(os.Rename(o.f.Name(), o.name))
	}
	if o.err != nil || werr != nil {
		os.Remove(o.f.Name())
	}
	return errors.Join(werr, o.err)
}
