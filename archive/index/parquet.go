package index

import (
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// RowsPerGroup is how many rows a ParquetWriter holds before it writes
// them out as a row group: the bound on its memory (a few hundred bytes a
// row), and a group size that DuckDB, Spark and Athena read in parallel.
const RowsPerGroup = 16384

// ParquetWriter writes rows to a Parquet file, one row group every
// RowsPerGroup rows, columns compressed with zstd. Its schema is [Row]'s.
// The file is readable once Close has written its footer.
type ParquetWriter struct {
	w   *parquet.GenericWriter[Row]
	n   int // rows in the current group
	buf [1]Row
	err error
}

// NewParquetWriter returns a ParquetWriter writing to w.
func NewParquetWriter(w io.Writer) *ParquetWriter {
	return &ParquetWriter{w: parquet.NewGenericWriter[Row](w,
		parquet.Compression(&zstd.Codec{}),
		parquet.CreatedBy("charsniff", "", ""),
	)}
}

// Write adds r to the file. After an error it writes nothing more and
// returns that error.
func (p *ParquetWriter) Write(r *Row) error {
	if p.err != nil {
		return p.err
	}
	p.buf[0] = *r
	if _, err := p.w.Write(p.buf[:]); err != nil {
		p.err = fmt.Errorf("parquet: %w", err)
		return p.err
	}
	if p.n++; p.n == RowsPerGroup {
		p.n = 0
		if err := p.w.Flush(); err != nil {
			p.err = fmt.Errorf("parquet: %w", err)
		}
	}
	return p.err
}

// Close writes the rows held and the file's footer. The file is complete
// only if it returns nil.
func (p *ParquetWriter) Close() error {
	if p.err != nil {
		return p.err
	}
	if err := p.w.Close(); err != nil {
		p.err = fmt.Errorf("parquet: %w", err)
	}
	return p.err
}
