package archive_test

import (
	"fmt"
	"io"
	"os"

	"github.com/charsniff/charsniff/archive"
)

// job is one record on its way: held for a worker, its result to come on
// done.
type job struct {
	held *archive.Held
	done chan line
}

type line struct {
	res  archive.Result
	text int64 // bytes of decoded text
}

// decodeText reads the text of rec (the engine's work: here, a count)
// and returns its final result.
func decodeText(rec *archive.Record) line {
	var n int64
	if rec.Text != nil {
		n, _ = io.Copy(io.Discard, rec.Text)
	}
	return line{*rec.Finish(), n}
}

// ExampleReader_Hold decodes the records of one file on several
// goroutines and prints the results in file order: the reading goroutine
// holds small records for the workers, handles larger ones itself, and
// the capacity of order bounds the records in flight.
func ExampleReader_Hold() {
	f, err := os.Open("../warc/testdata/wget.warc.gz")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	rd := archive.NewReader(f, archive.Options{File: "wget.warc.gz"})
	work := make(chan job)
	order := make(chan chan line, 8)
	for range 4 {
		go func() {
			var w archive.Worker
			for j := range work {
				j.done <- decodeText(w.Open(j.held))
				j.held.Release()
			}
		}()
	}
	go func() {
		defer close(order)
		defer close(work)
		for {
			rec, h, err := rd.Hold(1 << 10) // small, to show both paths
			if err != nil {
				return // io.EOF, or the file could not be read on
			}
			done := make(chan line, 1)
			order <- done
			if h != nil {
				work <- job{h, done}
			} else {
				done <- decodeText(rec) // before the next Hold
			}
		}
	}()
	for done := range order {
		l := <-done
		fmt.Println(l.res.Offset, l.res.Encoding, l.text)
	}
	// Output:
	// 893 utf-8 371
	// 1919 shift_jis 153
	// 2924 gbk 128
	// 3900 windows-1251 211
	// 5031 euc-kr 1608
	// 6125 windows-1252 1427
	// 7260 utf-8 111
	// 8191 utf-8 84
	// 10085 utf-8 51
}
