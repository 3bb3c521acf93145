package fuzz

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/decode/codec"
	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
	"github.com/charsniff/charsniff/sniff"
)

// Mode bits of FuzzLateMeta.
const (
	lateLegacy     = 1 << iota // sniff.Options.Legacy
	lateAutodetect             // leave autodetection on
	lateEOFData                // the source returns io.EOF with its last bytes
	// bits 6-7: the window (default, 3, 100, 5000)
)

// FuzzLateMeta checks the look-ahead's late <meta>, on any input:
//
//   - The resumable prescan (prescan.Scanner) fed the fuzzer's chunks with
//     no window limit gives the one-shot prescan's answer over the whole
//     input (prescan.Prescan with an unlimited window), which is the
//     literal reference's.
//   - With autodetection off, a decode.Reader with WithLookahead(n) (the
//     fuzzer's n) acts on the first <meta> start tag the parser meets in
//     the first window+n bytes (prescan.Scanner in tokenizer mode, which
//     FuzzTokenizerMeta checks against x/net's tokenizer), unless it is
//     the <meta> the window's prescan chose the encoding from, exactly as
//     the standard's "change the encoding" steps say for the sniffed
//     encoding, when the sniffing was tentative and chose an
//     ASCII-compatible encoding: "same" for the encoding in use; a switch at the end of the
//     <meta> if every byte before it is ASCII; if a non-ASCII byte comes
//     first, a switch at that byte when the <meta> ends within n bytes of
//     it (the Reader holds its output there to decide), else nothing;
//     for ISO-2022-JP, a switch so if those bytes hold no ESC, SO or SI;
//     "restarted" for one in the window that names the replacement
//     encoding or ISO-2022-JP after a byte it decodes otherwise; else
//     "restart-needed" (and nothing changes) for an encoding that is not
//     ASCII-compatible.
//   - Its output is the reference decode: the old encoding before the
//     switch and the new one after it, the new one throughout after a
//     restart, or the old one throughout.
//   - The result (encoding, source, confidence, change) and the output are
//     the same for the fuzzer's chunking of the source and mix of Read,
//     ReadRune and WriteTo as for the input in one piece, autodetection on
//     or off.
func FuzzLateMeta(f *testing.F) {
	for i, in := range html5libInputs(f) {
		f.Add(uint8(i), in, int16(0), uint8(i*7), []byte{byte(i), 9}, []byte{byte(i * 3), 17})
	}
	for i, in := range testutil.SamplePages(f) {
		f.Add(uint8(i), in, int16(-1), uint8(i*5), []byte{200, 1}, []byte{255})
	}
	for i, s := range nastyInputs {
		f.Add(uint8(i), []byte(s), int16(i), uint8(i*13), []byte{byte(i % 5), 2}, []byte{byte(i), 6})
	}
	pad := strings.Repeat("x", 1030)
	for i, s := range []string{
		pad + `<meta charset="shift_jis"><p>` + "\x93\xfa\x96\x7b",
		"\xe9" + pad + `<meta charset="utf-8"><p>` + "\xc3\xa9",
		pad + "\xe9" + pad + `<meta charset="utf-8"><p>` + "\xc3\xa9",
		pad + `<meta http-equiv=content-type content="text/html;charset=gb18030">` + "\x81\x30\x81\x30",
		`<meta charset=gbk>` + "\xd6\xd0" + pad + `<meta charset=gb18030>` + "\x81\x30\x81\x30",
		pad + "<!--" + `<meta charset=koi8-r>` + "-->" + `<meta charset="utf-16le">`,
		"<\x00?\x00x\x00" + pad + `<meta charset=koi8-r>`,
		pad[:1010] + `<meta charset="x-user-defined">` + "\x80\r\n\x00",
		"\x1b$B" + pad + "\x1b(B<meta charset=euc-jp>\xa4\xa2",
		pad + `<meta charset=iso-2022-kr>` + "\xa4\xa2",
		"<script>'<meta charset=utf-8>'</script><meta charset=iso-2022-kr>hi" + pad,
		"<title>\x1b$BF|\x1b(B</title><script>'<meta charset=utf-8>'</script><meta charset=iso-2022-jp>\x1b$BF|\x1b(B" + pad,
		"\x0e<script>'<meta charset=utf-8>'</script><meta charset=iso-2022-jp>",
		pad + `<meta charset=iso-2022-jp>` + "\x1b$BF|\x1b(B",
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
		n := int64(limit)
		if n <= 0 {
			n = 1 << 20
		}
		window := sniffWindows[mode>>6&3]
		e := override.Encoding(1 + int(which)%override.NumEncodings)
		so := sniff.Options{Default: e, Window: window, Legacy: legacy, NoAutodetect: mode&lateAutodetect == 0}
		opts := []decode.Option{decode.WithSniff(so), decode.WithLookahead(n)}

		r, err := decode.NewReader(bytes.NewReader(in), opts...)
		if err != nil {
			t.Fatal(err)
		}
		sniffed := r.Result()
		if sniffed.Late.Kind == decode.Restarted {
			// The Reader restarted before the first Read: the sniffing's
			// answer is the window's alone.
			r0, _ := decode.NewReader(bytes.NewReader(in), decode.WithSniff(so), decode.WithLookahead(0))
			sniffed = r0.Result()
		}
		out := readMixed(t, r, nil, nil)
		res := r.Result()

		if mode&lateAutodetect == 0 {
			checkLate(t, in, sniffed, res, out, window, n, legacy)
		}

		// Any chunking, any mix of reads: the same.
		cs := &chunkSource{data: in, sizes: chunks, eofWithData: mode&lateEOFData != 0}
		r2, err := decode.NewReader(cs, opts...)
		if err != nil {
			t.Fatal(err)
		}
		got := readMixed(t, r2, ops, nil)
		if r2.Result() != res || !bytes.Equal(got, out) {
			t.Fatalf("%q in chunks %v, reads %v: %+v,\ngot  %q\nwant %+v,\n     %q", in, chunks, ops, r2.Result(), got, res, out)
		}
	})
}

// checkLate checks the result res and the output out of a Reader over in
// (autodetection off, lookahead n, the given window), whose sniffing gave
// sniffed, against the standard's steps and the reference prescan.
func checkLate(t *testing.T, in []byte, sniffed, res decode.Result, out []byte, window int, n int64, legacy bool) {
	t.Helper()
	if window <= 0 {
		window = sniff.DefaultWindow
	} else if window < 3 {
		window = 3
	}
	from := sniffed.Encoding
	want := sniffed
	want.Decided = true // the output is read to the end
	if sniffed.Confidence == sniff.Tentative && from.ASCIICompatible() {
		// The first <meta> start tag the parser meets (the scan in
		// tokenizer mode, which FuzzTokenizerMeta checks against
		// x/net's tokenizer), unless it is the one the window's prescan
		// chose the encoding from.
		var s prescan.Scanner
		s.Reset(&prescan.Options{Window: window + int(n), Legacy: legacy, Tokenizer: true})
		s.Feed(in)
		late := s.Close()
		if sniffed.Source == sniff.SourcePrescan && late.Offset == prescan.Prescan(in, &prescan.Options{Window: window, Legacy: legacy}).Offset {
			late = prescan.Result{}
		}
		first := bytes.IndexFunc(in, func(r rune) bool { return r >= 0x80 })
		if first < 0 {
			first = len(in)
		}
		at := int64(late.Offset)
		if first < late.Offset {
			at = int64(first)
		}
		to := late.Encoding
		switch to {
		case override.UTF16BE, override.UTF16LE:
			to = override.UTF8
		case override.XUserDefined:
			to = override.Windows1252
		}
		// ESC, SO and SI are the ASCII bytes ISO-2022-JP decodes otherwise.
		jisClean := func(b []byte) bool {
			return bytes.IndexFunc(b, func(r rune) bool { return r >= 0x80 || r == 0x1B || r == 0x0E || r == 0x0F }) < 0
		}
		inWindow := late.Offset <= min(window, len(in)) // found before the first Read
		switch {
		case late.Rule != prescan.Meta || to == from:
		case inWindow && (to == override.Replacement || to == override.ISO2022JP && !jisClean(in[:late.Offset])):
			// A reload: the whole input in the new encoding.
			want.Encoding, want.End = to, 0
			want.Confidence, want.Source = sniff.Certain, sniff.SourcePrescan
			want.Late = decode.Change{Kind: decode.Restarted, From: from, To: to, Offset: int64(late.Offset)}
			late = prescan.Result{}
		}
		if late.Rule == prescan.Meta && int64(late.Offset)-at <= n {
			ch := decode.Change{From: from, To: to, Offset: at}
			switch {
			case to == from:
				ch.Kind = decode.SameEncoding
			case at == 0 || to.ASCIICompatible() || sameDecoder(from, to) || to == override.ISO2022JP && jisClean(in[:at]):
				// Nothing decoded yet means the same in both.
				ch.Kind = decode.SwitchedOnTheFly
				want.Encoding = to
			default:
				ch.Kind = decode.RestartNeeded
			}
			want.Confidence, want.Source, want.Late, want.End = sniff.Certain, sniff.SourcePrescan, ch, 0
		}
	}
	if res != want {
		t.Fatalf("%q (window %d, lookahead %d): Result() = %+v, want %+v (sniffed %+v)", in, window, n, res, want, sniffed)
	}

	// The output.
	var dec []byte
	src := in
	if bom := boms[from]; sniffed.BOMLength > 0 && bytes.HasPrefix(in, []byte(bom)) {
		src = in[len(bom):]
	}
	switch want.Late.Kind {
	case decode.SwitchedOnTheFly:
		dec = append(codecDecode(t, from, in[:want.Late.Offset]), codecDecode(t, want.Late.To, in[want.Late.Offset:])...)
	case decode.Restarted:
		dec = codecDecode(t, want.Late.To, in)
	default:
		dec = codecDecode(t, from, src)
	}
	if wantOut := preprocess(dec, true, true); !bytes.Equal(out, wantOut) {
		t.Fatalf("%q (result %+v):\ngot  %q\nwant %q", in, res, out, wantOut)
	}
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
