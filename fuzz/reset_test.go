package fuzz

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
)

// FuzzReset checks that reuse is invisible: a decode.Reader left anywhere
// in a first document (the fuzzer's stop point and kind: reads, Decided,
// ReadRune, Settle, a source that fails there, ChangeEncoding) and Reset
// to a second document gives the second's Result and text exactly as a
// fresh Reader does. The options of each stream come from the mode byte
// (the look-ahead short or off, no preprocessing); the second is read one
// byte at a time from its source half the time.
func FuzzReset(f *testing.F) {
	long := bytes.Repeat([]byte("<p>plain ASCII</p>\n"), 300)
	late := append(append([]byte("<html>"), long...), "caf\xe9 \xe0 la"+string(long)...)
	f.Add(late, []byte("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<rss>\x82\xa0</rss>"), uint16(0), byte(0x20))
	f.Add(late, append(append([]byte("<html>"), long...), `<meta charset="big5">`+"\xa4\xa4"...), uint16(2000), byte(0x21))
	f.Add([]byte("a\r"), []byte("\nb"), uint16(5), byte(0))
	f.Add([]byte("\xff\xfe<\x00"), []byte("\xfe\xff\x00<"), uint16(1), byte(0x13))
	f.Fuzz(func(t *testing.T, first, second []byte, stop uint16, mode byte) {
		k := int(stop)
		opts := func(m byte) []decode.Option {
			var o []decode.Option
			switch m & 3 {
			case 1:
				o = append(o, decode.WithLookahead(0))
			case 2:
				o = append(o, decode.WithLookahead(300))
			}
			if m&4 != 0 {
				o = append(o, decode.WithoutPreprocessing())
			}
			return o
		}
		r := new(decode.Reader)
		src := io.Reader(bytes.NewReader(first))
		if mode>>4&7 == 5 {
			src = io.MultiReader(bytes.NewReader(first[:min(k, len(first))]), iotest.ErrReader(errors.New("failed")))
		}
		if err := r.Reset(src, opts(mode)...); err != nil {
			t.Fatal(err)
		}
		switch mode >> 4 & 7 {
		case 1:
			io.ReadFull(r, make([]byte, k))
		case 2:
			for !r.Result().Decided {
				if _, err := r.Read(make([]byte, 7)); err != nil {
					break
				}
			}
		case 3:
			for range k {
				if _, _, err := r.ReadRune(); err != nil {
					break
				}
			}
		case 4:
			r.Settle(nil, k)
		case 5:
			io.Copy(io.Discard, r)
		case 6:
			io.ReadFull(r, make([]byte, k%100))
			r.ChangeEncoding(override.Encoding(1 + k%override.NumEncodings))
			io.ReadFull(r, make([]byte, k))
		}
		wrap := func(b []byte) io.Reader {
			if mode&8 != 0 {
				return iotest.OneByteReader(bytes.NewReader(b))
			}
			return bytes.NewReader(b)
		}
		o2 := opts(mode >> 7)
		if err := r.Reset(wrap(second), o2...); err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		fresh, _ := decode.NewReader(wrap(second), o2...)
		want, _ := io.ReadAll(fresh)
		if r.Result() != fresh.Result() || !bytes.Equal(got, want) {
			t.Fatalf("after Reset: %+v, %q\nfresh:       %+v, %q", r.Result(), got, fresh.Result(), want)
		}
	})
}
