// Command mkzst makes the .warc.zst test files from warcfile.warc.gz with
// the zstd command-line tool (Debian's zstd 1.5.4 made the committed ones):
//
//	cd warc/testdata/resiliparse && go run ./mkzst
//
// It writes, from the 50 records of warcfile.warc.gz (one gzip member
// each):
//
//   - warcfile.dict.warc.zst: the layout of the warc-zstd specification
//     that ArchiveTeam's .warc.zst files have
//     (https://iipc.github.io/warc-specifications/specifications/warc-zstd/):
//     a dictionary frame first (a skippable frame with magic number
//     0x184D2A5D holding a dictionary trained by "zstd --train" on the
//     records, itself compressed by zstd, as ArchiveTeam's are), then one
//     zstd frame per record compressed with that dictionary
//     ("zstd -D dict"), with a content size, a checksum and the
//     dictionary's ID.
//   - warcfile.frames.warc.zst: one zstd frame per record, no dictionary,
//     and an extension frame (a skippable frame, magic 0x184D2A50) after
//     the first record.
//   - warcfile.whole.warc.zst: the whole file compressed at once
//     ("zstd -19"), one frame.
//
// The zstd frames are the tool's own; this program only splits the records
// and concatenates what zstd wrote.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/klauspost/compress/gzip"
)

func main() {
	tmp, err := os.MkdirTemp("", "mkzst")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	recs := records("warcfile.warc.gz")
	var names []string
	for i, rec := range recs {
		name := filepath.Join(tmp, fmt.Sprintf("rec%03d", i))
		if err := os.WriteFile(name, rec, 0o644); err != nil {
			log.Fatal(err)
		}
		names = append(names, name)
	}
	dict := filepath.Join(tmp, "dict")
	run(append([]string{"--train", "--maxdict=16384", "-q", "-o", dict}, names...)...)
	packed := zstd(dict, "-19")

	var withDict, frames bytes.Buffer
	withDict.Write(skippable(0x184D2A5D, packed))
	for i, name := range names {
		withDict.Write(zstd(name, "-19", "-D", dict))
		frames.Write(zstd(name, "-19"))
		if i == 0 {
			frames.Write(skippable(0x184D2A50, []byte("an extension frame")))
		}
	}
	whole := filepath.Join(tmp, "whole")
	if err := os.WriteFile(whole, bytes.Join(recs, nil), 0o644); err != nil {
		log.Fatal(err)
	}
	write("warcfile.dict.warc.zst", withDict.Bytes())
	write("warcfile.frames.warc.zst", frames.Bytes())
	write("warcfile.whole.warc.zst", zstd(whole, "-19"))
}

// records returns the decompressed gzip members of the file.
func records(path string) [][]byte {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var out [][]byte
	for {
		zr, err := gzip.NewReader(br)
		if err == io.EOF {
			return out
		}
		if err != nil {
			log.Fatal(err)
		}
		zr.Multistream(false)
		b, err := io.ReadAll(zr)
		if err != nil {
			log.Fatal(err)
		}
		out = append(out, b)
	}
}

// zstd returns what "zstd -c ARGS path" writes.
func zstd(path string, args ...string) []byte {
	return run(append(append([]string{"-q", "-c"}, args...), path)...)
}

func run(args ...string) []byte {
	out, err := exec.Command("zstd", args...).Output()
	if err != nil {
		log.Fatalf("zstd %v: %v", args, err)
	}
	return out
}

// skippable returns a skippable frame with the magic number and data.
func skippable(magic uint32, data []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, magic)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
	return append(b, data...)
}

func write(name string, b []byte) {
	if err := os.WriteFile(name, b, 0o644); err != nil {
		log.Fatal(err)
	}
}
