package fuzz

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/decode/codec"
	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
	"github.com/charsniff/charsniff/sniff"
)

// Mode bits of FuzzLateMeta.
const (
	lateAuto       = 1 << iota // WithAutoRestart
	lateBuffer                 // WithRestartBuffer, large enough for the input
	lateTinyBuf                // WithRestartBuffer, too small to restart
	lateLegacy                 // WithLegacyLabels
	lateAutodetect             // leave autodetection on
	lateEOFData                // the source returns io.EOF with its last bytes
	// bits 6-7: the window (default, 3, 100, 5000)
)

// FuzzLateMeta checks changing the encoding while parsing, on any input:
//
//   - The resumable prescan (prescan.Scanner) fed the fuzzer's chunks with
//     no window limit gives the one-shot prescan's answer over the whole
//     input (prescan.Prescan with an unlimited window), which is the
//     literal reference's.
//   - A decode.Reader with WithLateMeta acts on the <meta> the reference
//     prescan finds in the first limit bytes (the fuzzer's limit), exactly
//     as the standard's "change the encoding" steps say for the sniffed
//     encoding: nothing if sniffing was certain or chose UTF-16; "same"
//     for the encoding in use; a switch on the fly at the end of the <meta>
//     if every byte before it is ASCII and both encodings are
//     ASCII-compatible (or GBK and gb18030); a restart otherwise, which
//     WithAutoRestart does by itself and WithRestartBuffer makes possible.
//   - Its output is the reference decode: the old encoding before the
//     switch and the new one after it, or the new one from the start after
//     a restart, or the old one throughout.
//   - The change (kind, encodings, offset) and the output are the same for
//     the fuzzer's chunking of the source and mix of Read, ReadRune and
//     WriteTo as for the input in one piece.
func FuzzLateMeta(f *testing.F) {
	for i, in := range html5libInputs(f) {
		f.Add(uint8(i), in, int16(0), uint8(i*7), []byte{byte(i), 9}, []byte{byte(i * 3), 17})
	}
	for i, in := range samplePages(f) {
		f.Add(uint8(i), in, int16(-1), uint8(i*5), []byte{200, 1}, []byte{255})
	}
	for i, s := range nastyInputs {
		f.Add(uint8(i), []byte(s), int16(i), uint8(i*13), []byte{byte(i % 5), 2}, []byte{byte(i), 6})
	}
	pad := strings.Repeat("x", 1030)
	for i, s := range []string{
		pad + `<meta charset="shift_jis"><p>` + "\x93\xfa\x96\x7b",
		"\xe9" + pad + `<meta charset="utf-8"><p>` + "\xc3\xa9",
		pad + `<meta http-equiv=content-type content="text/html;charset=gb18030">` + "\x81\x30\x81\x30",
		`<meta charset=gbk>` + "\xd6\xd0" + pad + `<meta charset=gb18030>` + "\x81\x30\x81\x30",
		pad + "<!--" + `<meta charset=koi8-r>` + "-->" + `<meta charset="utf-16le">`,
		"<\x00?\x00x\x00" + pad + `<meta charset=koi8-r>`,
		pad[:1010] + `<meta charset="x-user-defined">` + "\x80\r\n\x00",
		"\x1b$B" + pad + "\x1b(B<meta charset=euc-jp>\xa4\xa2",
	} {
		f.Add(uint8(i), []byte(s), int16(0), uint8(i*37), []byte{byte(i*7 + 1), 0, 3}, []byte{byte(i * 11), 255, 2})
	}

	f.Fuzz(func(t *testing.T, which uint8, in []byte, limit int16, mode uint8, chunks, ops []byte) {
		legacy := mode&lateLegacy != 0

		// The resumable prescan against the one-shot one.
		whole := prescan.Prescan(in, &prescan.Options{Window: -1, Legacy: legacy})
		var s prescan.Scanner
		s.Reset(&prescan.Options{Window: -1, Legacy: legacy})
		feedChunks(in, chunks, func(c []byte) { s.Feed(c) })
		if got := s.Close(); got != whole {
			t.Fatalf("%q in chunks %v: Scanner = %+v, Prescan = %+v", in, chunks, got, whole)
		}
		ref := reference.Prescan(in, -1, legacy)
		if whole.Encoding != ref.Encoding || whole.Offset != ref.Offset {
			t.Fatalf("%q: Prescan = %+v, reference %+v", in, whole, ref)
		}

		// The reader's options.
		lateLimit := int64(limit)
		if lateLimit <= 0 {
			lateLimit = 1 << 20
		}
		late := reference.Prescan(in, int(lateLimit), legacy)
		e := override.Encoding(1 + int(which)%override.NumEncodings)
		opts := []decode.Option{decode.WithDefault(e.Name()), decode.WithLateMeta(lateLimit)}
		if w := sniffWindows[mode>>6&3]; w != 0 {
			opts = append(opts, decode.WithWindow(w))
		}
		if mode&lateAutodetect == 0 {
			opts = append(opts, decode.WithoutAutodetect())
		}
		if legacy {
			opts = append(opts, decode.WithLegacyLabels())
		}
		if mode&lateAuto != 0 {
			opts = append(opts, decode.WithAutoRestart())
		}
		canRestart := mode&lateBuffer != 0
		switch {
		case canRestart:
			opts = append(opts, decode.WithRestartBuffer(len(in)+1))
		case mode&lateTinyBuf != 0 && late.Offset > 1:
			opts = append(opts, decode.WithRestartBuffer(late.Offset-1))
		}

		r, err := decode.NewReader(bytes.NewReader(in), opts...)
		if err != nil {
			t.Fatal(err)
		}
		res := r.Result()
		out := readLateAll(t, r, nil, canRestart)
		ch := r.Change()

		// The oracle: the change the standard's steps make.
		from := res.Encoding
		want := decode.ChangeResult{}
		if res.Confidence == sniff.Tentative && !from.IsUTF16() && late.Source == "meta" {
			to := late.Encoding
			want = decode.ChangeResult{From: from, To: to, Offset: int64(late.Offset), Late: true}
			ascii := isASCII(in[:late.Offset])
			switch {
			case to == from:
				want.Kind = decode.SameEncoding
			case sameDecoder(from, to) || ascii && from.ASCIICompatible() && to.ASCIICompatible():
				want.Kind = decode.SwitchedOnTheFly
			case mode&lateAuto != 0:
				want.Kind = decode.Restarted
			case canRestart:
				// A restart by the caller, or by the reader itself if it
				// had handed out nothing yet.
				want.Kind = decode.Restarted
			default:
				want.Kind = decode.RestartNeeded
			}
		}
		if ch != want {
			t.Fatalf("%q (default %v, limit %d, mode %#x): Change() = %+v, want %+v (sniffed %+v)", in, e, lateLimit, mode, ch, want, res)
		}
		if ch.Kind != decode.NoChange && r.Confidence() != sniff.Certain {
			t.Fatalf("%q: Confidence() = %v after %v", in, r.Confidence(), ch.Kind)
		}

		// The output.
		var wantOut []byte
		switch want.Kind {
		case decode.SwitchedOnTheFly:
			head := codecDecode(t, from, in[:want.Offset])
			if bom := bomOf(from); res.BOMLength > 0 && bytes.HasPrefix(in, []byte(bom)) {
				head = codecDecode(t, from, in[len(bom):want.Offset])
			}
			wantOut = preprocess(append(head, codecDecode(t, want.To, in[want.Offset:])...), true, true)
		case decode.Restarted:
			wantOut = preprocess(codecDecode(t, want.To, in), true, true)
		default:
			src := in
			if bom := bomOf(from); res.BOMLength > 0 && bytes.HasPrefix(in, []byte(bom)) {
				src = in[len(bom):]
			}
			wantOut = preprocess(codecDecode(t, from, src), true, true)
		}
		if !bytes.Equal(out, wantOut) {
			t.Fatalf("%q (default %v, mode %#x, change %+v):\ngot  %q\nwant %q", in, e, mode, ch, out, wantOut)
		}

		// Any chunking, any mix of reads: the same.
		cs := &chunkSource{data: in, sizes: chunks, eofWithData: mode&lateEOFData != 0}
		r2, err := decode.NewReader(cs, opts...)
		if err != nil {
			t.Fatal(err)
		}
		got := readLateAll(t, r2, ops, canRestart)
		if r2.Result() != res || r2.Change() != ch || !bytes.Equal(got, out) {
			t.Fatalf("%q in chunks %v, reads %v: %+v, %+v,\ngot  %q\nwant %+v, %+v,\n     %q", in, chunks, ops, r2.Result(), r2.Change(), got, res, ch, out)
		}
	})
}

// readLateAll reads r to the end with ops (see readMixed), and once more
// after Restart if a restart is needed and possible.
func readLateAll(t *testing.T, r *decode.Reader, ops []byte, canRestart bool) []byte {
	t.Helper()
	out := readMixed(t, r, ops, nil)
	if r.Change().Kind == decode.RestartNeeded {
		err := r.Restart()
		if canRestart != (err == nil) {
			t.Fatalf("Restart() = %v with a buffer: %v", err, canRestart)
		}
		if err == nil {
			out = readMixed(t, r, ops, nil)
		}
	}
	return out
}

// codecDecode is the codec decoder for e over all of b.
func codecDecode(t *testing.T, e override.Encoding, b []byte) []byte {
	t.Helper()
	out, err := codec.Encoding(e).NewDecoder().Bytes(b)
	if err != nil {
		t.Fatalf("%v: codec decode of %x: %v", e, b, err)
	}
	return out
}

// sameDecoder reports whether a and b decode alike: the same encoding, or
// GBK and gb18030.
func sameDecoder(a, b override.Encoding) bool {
	gb := func(e override.Encoding) bool { return e == override.GBK || e == override.GB18030 }
	return a == b || gb(a) && gb(b)
}

// isASCII reports whether every byte of b is below 0x80.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
