package codec

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/decode/internal/singlebyte"
	"github.com/charsniff/charsniff/override"
)

func TestEncoding(t *testing.T) {
	for _, e := range override.All() {
		enc := Encoding(e)
		if enc == nil {
			t.Fatalf("Encoding(%v) = nil", e)
		}
		if got := enc.(interface{ String() string }).String(); got != e.Name() {
			t.Errorf("Encoding(%v).String() = %q, want %q", e, got, e.Name())
		}
		if enc.NewDecoder() == nil || enc.NewEncoder() == nil {
			t.Errorf("Encoding(%v): nil decoder or encoder", e)
		}
	}
	for _, e := range []override.Encoding{override.Unknown, override.Encoding(override.NumEncodings + 1), 255} {
		if got := Encoding(e); got != nil {
			t.Errorf("Encoding(%d) = %v, want nil", e, got)
		}
	}
}

// TestSingleByteTable checks the single-byte decoders and singlebyte.High
// against each other, byte for byte.
func TestSingleByteTable(t *testing.T) {
	n := 0
	for _, e := range override.All() {
		tab := singlebyte.High(e)
		if (singlebyte.Is(e) || e == override.XUserDefined) != (tab != nil) {
			t.Errorf("singlebyte.Is(%v) = %v, but singlebyte.High = %p", e, singlebyte.Is(e), tab)
		}
		if tab == nil {
			continue
		}
		if singlebyte.Is(e) {
			n++
		}
		// The table agrees with the decoder, byte for byte.
		for i, r := range tab {
			got := decodeAll(t, e, []byte{byte(0x80 + i)})
			if want := string(r); string(got) != want {
				t.Errorf("%v: byte %#x: table %U, decoder %q", e, 0x80+i, r, got)
			}
		}
	}
	if n != 28 {
		t.Errorf("%d single-byte encodings, want 28", n)
	}
	if singlebyte.High(override.ISO8859_8I) != singlebyte.High(override.ISO8859_8) {
		t.Errorf("ISO-8859-8-I and ISO-8859-8 tables differ")
	}
}

// TestExamples holds the cases named in the issue and other corners of the
// standard's decoders, one row each.
func TestExamples(t *testing.T) {
	tests := []struct {
		desc string
		e    override.Encoding
		in   string
		want string
	}{
		{"windows-1252 unmapped bytes are C1 controls", override.Windows1252, "\x81\x8d\x8f\x90\x9d", "\u0081\u008d\u008f\u0090\u009d"},
		{"windows-1252 0x80 is the euro sign", override.Windows1252, "\x80", "€"},
		{"gbk four-byte sequence", override.GBK, "\x81\x30\x81\x30", "\u0080"},
		{"gb18030 four-byte sequence", override.GB18030, "\x81\x30\x81\x30", "\u0080"},
		{"gbk 0x80 is the euro sign", override.GBK, "\x80", "€"},
		{"gb18030 pointer 7457", override.GB18030, "\x81\x35\xf4\x37", "\ue7c7"},
		{"gb18030 A3 A0 is the ideographic space", override.GB18030, "\xa3\xa0", "\u3000"},
		{"gb18030 supplementary plane", override.GB18030, "\x90\x30\x81\x30", "\U00010000"},
		{"gb18030 last four-byte pointer", override.GB18030, "\xe3\x32\x9a\x35", "\U0010FFFF"},
		{"gb18030 pointer past the ranges", override.GB18030, "\xe3\x32\x9a\x36", "\ufffd"},
		{"gb18030 bad third byte restores second", override.GB18030, "\x81\x30\x20", "\ufffd0 "},
		{"gb18030 bad fourth byte restores second and third", override.GB18030, "\x81\x30\x81\x20", "\ufffd0\ufffd "},
		{"gb18030 truncated at EOF is one error", override.GB18030, "\x81\x30\x81", "\ufffd"},
		{"big5 ASCII trail byte is not swallowed", override.Big5, "\x81\x40", "\ufffd@"},
		{"big5 pointer with two code points", override.Big5, "\x88\x62\x88\x64\x88\xa3\x88\xa5", "\u00ca\u0304\u00ca\u030c\u00ea\u0304\u00ea\u030c"},
		{"big5 supplementary plane", override.Big5, "\x87\x45", "\U00027267"},
		{"big5 lead at EOF", override.Big5, "a\xa4", "a\ufffd"},
		{"Shift_JIS EUDC", override.ShiftJIS, "\xf0\x40", "\ue000"},
		{"Shift_JIS 0x80 is U+0080", override.ShiftJIS, "\x80", "\u0080"},
		{"Shift_JIS halfwidth katakana", override.ShiftJIS, "\xb1", "ｱ"},
		{"Shift_JIS ASCII trail restored", override.ShiftJIS, "\x81\x20", "\ufffd "},
		{"EUC-JP JIS X 0212", override.EUCJP, "\x8f\xa2\xaf", "\u02d8"},
		{"EUC-JP halfwidth katakana", override.EUCJP, "\x8e\xb1", "ｱ"},
		{"EUC-JP 0x8F lead, ASCII third byte", override.EUCJP, "\x8f\xa2A", "\ufffdA"},
		{"EUC-KR", override.EUCKR, "\xb0\xa1", "가"},
		{"EUC-KR 0x80 is an error", override.EUCKR, "\x80", "\ufffd"},
		{"ISO-2022-JP Roman yen sign", override.ISO2022JP, "\x1b(J\x5c", "\u00a5"},
		{"ISO-2022-JP Roman overline", override.ISO2022JP, "\x1b(J\x7e", "\u203e"},
		{"ISO-2022-JP JIS X 0208", override.ISO2022JP, "\x1b$B\x30\x21\x1b(B", "亜"},
		{"ISO-2022-JP katakana", override.ISO2022JP, "\x1b(I\x31", "ｱ"},
		{"ISO-2022-JP two escapes in a row", override.ISO2022JP, "\x1b(J\x1b(Ba", "\ufffda"},
		{"ISO-2022-JP escape at EOF", override.ISO2022JP, "a\x1b", "a\ufffd"},
		{"ISO-2022-JP bad escape restores bytes", override.ISO2022JP, "\x1b(Z", "\ufffd(Z"},
		{"ISO-2022-JP SO is an error", override.ISO2022JP, "\x0e", "\ufffd"},
		{"ISO-2022-JP newline in JIS X 0208 is an error", override.ISO2022JP, "\x1b$B\n", "\ufffd"},
		{"UTF-16BE lone high surrogate and odd final byte", override.UTF16BE, "\xd8\x00\x41", "\ufffd"},
		{"UTF-16LE lone high surrogate and odd final byte", override.UTF16LE, "\x00\xd8\x41", "\ufffd"},
		{"UTF-16BE surrogate pair", override.UTF16BE, "\xd8\x3d\xde\x00", "😀"},
		{"UTF-16LE lone low surrogate", override.UTF16LE, "\x00\xdcA\x00", "\ufffdA"},
		{"UTF-16LE high surrogate then BMP", override.UTF16LE, "\x00\xd8A\x00", "\ufffdA"},
		{"UTF-16LE odd byte", override.UTF16LE, "A\x00B", "A\ufffd"},
		{"UTF-16LE BOM is data", override.UTF16LE, "\xff\xfeA\x00", "\ufeffA"},
		{"replacement on empty input", override.Replacement, "", ""},
		{"replacement on any input", override.Replacement, "abc\xff", "\ufffd"},
		{"UTF-8 maximal subpart", override.UTF8, "\xe0\xa0A", "\ufffdA"},
		{"UTF-8 overlong", override.UTF8, "\xe0\x80\x80", "\ufffd\ufffd\ufffd"},
		{"UTF-8 surrogate", override.UTF8, "\xed\xa0\x80", "\ufffd\ufffd\ufffd"},
		{"UTF-8 above U+10FFFF", override.UTF8, "\xf4\x90\x80\x80", "\ufffd\ufffd\ufffd\ufffd"},
		{"UTF-8 truncated four-byte sequence", override.UTF8, "\xf0\x9f\x98", "\ufffd"},
		{"UTF-8 BOM is data", override.UTF8, "\xef\xbb\xbfa", "\ufeffa"},
		{"x-user-defined", override.XUserDefined, "a\x80\xff", "a\uf780\uf7ff"},
	}
	// C1 bytes in every ISO-8859-x encoding decode to C1 controls.
	for _, e := range []override.Encoding{override.ISO8859_2, override.ISO8859_3, override.ISO8859_4,
		override.ISO8859_5, override.ISO8859_6, override.ISO8859_7, override.ISO8859_8, override.ISO8859_8I,
		override.ISO8859_10, override.ISO8859_13, override.ISO8859_14, override.ISO8859_15, override.ISO8859_16} {
		var in, want strings.Builder
		for b := 0x80; b <= 0x9F; b++ {
			in.WriteByte(byte(b))
			want.WriteRune(rune(b))
		}
		tests = append(tests, struct {
			desc string
			e    override.Encoding
			in   string
			want string
		}{e.Name() + " C1 bytes", e, in.String(), want.String()})
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got := decodeAll(t, tc.e, []byte(tc.in))
			if string(got) != tc.want {
				t.Errorf("%v: decode(%q) = %q, want %q", tc.e, tc.in, got, tc.want)
			}
			checkChunking(t, tc.e, []byte(tc.in), []byte(tc.want), tc.desc)
		})
	}
}

func TestTransformContract(t *testing.T) {
	for _, e := range override.All() {
		t.Run(e.Name(), func(t *testing.T) {
			// Empty src is no work and no error, even with no dst.
			d := newDecoder(e)
			if nDst, nSrc, err := d.Transform(nil, nil, true); nDst != 0 || nSrc != 0 || err != nil {
				t.Errorf("Transform(nil, nil, true) = %d, %d, %v, want 0, 0, nil", nDst, nSrc, err)
			}
			// A full dst is ErrShortDst.
			in := []byte("abc")
			if e.IsUTF16() {
				in = []byte("a\x00b\x00")
			}
			if _, _, err := d.Transform(nil, in, true); err != transform.ErrShortDst {
				t.Errorf("Transform(nil, %q, true) error = %v, want ErrShortDst", in, err)
			}
		})
	}
}

func TestReset(t *testing.T) {
	tests := []struct {
		e        override.Encoding
		in, want string
	}{
		{override.ISO2022JP, "\x1b$B", "\x30\x21"},
		{override.Replacement, "x", "x"},
	}
	for _, tc := range tests {
		d := newDecoder(tc.e)
		dst := make([]byte, 64)
		d.Transform(dst, []byte(tc.in), true)
		d.Reset()
		want := decodeAll(t, tc.e, []byte(tc.want))
		nDst, _, _ := d.Transform(dst, []byte(tc.want), true)
		if got := dst[:nDst]; !bytes.Equal(got, want) {
			t.Errorf("%v: after Reset, decode(%q) = %q, want %q", tc.e, tc.want, got, want)
		}
	}
}

func TestReplacementEncoder(t *testing.T) {
	enc := Encoding(override.Replacement).NewEncoder()
	if got, err := enc.String(""); got != "" || err != nil {
		t.Errorf("encode(\"\") = %q, %v, want \"\", nil", got, err)
	}
	if _, err := enc.String("a"); err == nil {
		t.Errorf("encode(\"a\") succeeded, want an error")
	}
	got, err := encoding.ReplaceUnsupported(enc).String("ab")
	if got != "??" || err != nil {
		t.Errorf("ReplaceUnsupported: encode(\"ab\") = %q, %v, want \"??\", nil", got, err)
	}
}

func TestXUserDefinedEncoder(t *testing.T) {
	enc := Encoding(override.XUserDefined).NewEncoder()
	var in strings.Builder
	var want []byte
	for c := rune(0); c < 0x80; c++ {
		in.WriteRune(c)
		want = append(want, byte(c))
	}
	for c := rune(0xF780); c <= 0xF7FF; c++ {
		in.WriteRune(c)
		want = append(want, byte(c-0xF780+0x80))
	}
	got, err := enc.Bytes([]byte(in.String()))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("encode(ASCII + U+F780..U+F7FF) = %x, %v, want %x", got, err, want)
	}
	for _, r := range []rune{0x80, 0xE9, 0xF77F, 0xF800, 0x1F600} {
		if _, err := enc.String(string(r)); err == nil {
			t.Errorf("encode(%U) succeeded, want an error", r)
		}
	}
}

// TestXTextEncoderGaps pins where x/text's encoders, which Encoding hands
// out, fall short of the standard's encoders, so that a change in x/text is
// noticed: its single-byte encoders cannot encode the C1 controls that the
// standard's indexes map bytes to, and its GBK and gb18030 encoders predate
// the index's GB18030-2005 and -2022 changes.
func TestXTextEncoderGaps(t *testing.T) {
	for _, e := range override.All() {
		if !singlebyte.Is(e) {
			continue
		}
		enc := Encoding(e).NewEncoder()
		for i, r := range singlebyte.High(e) {
			if r == 0xFFFD {
				continue
			}
			got, err := enc.String(string(r))
			c1 := r >= 0x80 && r <= 0x9F
			switch {
			case c1 && err == nil:
				t.Errorf("%v: x/text now encodes %U: drop it from the gaps", e, r)
			case !c1 && (err != nil || got != string([]byte{byte(0x80 + i)})):
				t.Errorf("%v: encode(%U) = %x, %v, want %x", e, r, got, err, 0x80+i)
			}
		}
	}
	// U+1E3F is four bytes in GB18030-2005 (81 35 F4 37 is now U+E7C7).
	got, err := Encoding(override.GB18030).NewEncoder().String("\u1e3f")
	if err != nil || got != "\x81\x35\xf4\x37" {
		t.Logf("x/text's gb18030 encoder now gives %x, %v for U+1E3F: revisit the gap", got, err)
	}
	if back := decodeAll(t, override.GB18030, []byte("\x81\x35\xf4\x37")); string(back) != "\ue7c7" {
		t.Errorf("decode(81 35 F4 37) = %q, want U+E7C7", back)
	}
}

func TestZeroAllocs(t *testing.T) {
	tests := []struct {
		e    override.Encoding
		text string
	}{
		{override.UTF8, textEnglish + textJapanese + "\xff\xe0\xa0"},
		{override.Windows1252, textFrench},
		{override.ShiftJIS, textJapanese},
	}
	for _, tc := range tests {
		src, err := Encoding(tc.e).NewEncoder().String(sampleText(tc.text, 4096))
		if err != nil && tc.e != override.UTF8 {
			t.Fatal(err)
		}
		if tc.e == override.UTF8 {
			src = sampleText(tc.text, 4096)
		}
		in := []byte(src)
		dst := make([]byte, 4*len(in))
		d := Encoding(tc.e).NewDecoder()
		allocs := testing.AllocsPerRun(100, func() {
			d.Reset()
			d.Transform(dst, in, true)
			d.Transform(dst[:7], in, false)
		})
		if allocs != 0 {
			t.Errorf("%v: Transform allocates %v times per run, want 0", tc.e, allocs)
		}
	}
}

// TestValidUTF8Output checks that every decoder's output is valid UTF-8 for
// every two-byte input and a spread of three-byte ones.
func TestValidUTF8Output(t *testing.T) {
	var buf [3]byte
	dst := make([]byte, 64)
	for _, e := range override.All() {
		d := newDecoder(e)
		check := func(src []byte) {
			d.Reset()
			nDst, nSrc, err := d.Transform(dst, src, true)
			if err != nil || nSrc != len(src) || !utf8.Valid(dst[:nDst]) {
				t.Fatalf("%v: decode(%x) = %q, %d, %v: want valid UTF-8 for all input", e, src, dst[:nDst], nSrc, err)
			}
		}
		for i := range 1 << 16 {
			buf[0], buf[1], buf[2] = byte(i>>8), byte(i), byte(i*7)
			check(buf[:1])
			check(buf[:2])
			check(buf[:3])
		}
	}
}

// TestGenerated checks that the generated tables, codec's (tables.go and
// the index files it embeds) and package singlebyte's, are what gen.go
// makes from the vendored index files.
func TestGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir, sbDir := t.TempDir(), t.TempDir()
	cmd := exec.Command(goTool, "run", "gen.go", "-out", dir, "-singlebyte", sbDir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	sbFiles, _ := filepath.Glob(filepath.Join(sbDir, "*"))
	if len(files) != 6 || len(sbFiles) != 1 {
		t.Fatalf("gen.go wrote %d files for codec and %d for singlebyte, want 6 and 1", len(files), len(sbFiles))
	}
	for _, f := range append(files, sbFiles...) {
		// Each file's checked-in copy.
		have := filepath.Base(f)
		if filepath.Dir(f) == sbDir {
			have = filepath.Join("..", "internal", "singlebyte", have)
		}
		want, _ := os.ReadFile(f)
		got, err := os.ReadFile(have)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is out of date (%v): run go generate", have, err)
		}
		const header = `// Code generated by "go run gen.go" from whatwg/encoding@a985b62a9b45c17da3e17a9f0a0b4e30c34c4a8a; DO NOT EDIT.`
		if first, _, _ := bytes.Cut(got, []byte("\n")); strings.HasSuffix(have, ".go") && string(first) != header {
			t.Errorf("%s: first line %q", have, first)
		}
	}
}

// TestISO2022JPKatakana checks x/text's ISO-2022-JP encoder on halfwidth
// katakana against index ISO-2022-JP katakana: the standard's encoder writes
// the index's fullwidth katakana, x/text's may keep the halfwidth ones
// (ESC ( I), which the decoder also reads back. Either way the text decodes
// to the halfwidth or the index's fullwidth form.
func TestISO2022JPKatakana(t *testing.T) {
	enc := Encoding(override.ISO2022JP).NewEncoder()
	for i, full := range iso2022JPKatakanaIndex {
		half := rune(0xFF61 + i)
		out, err := enc.String(string(half))
		if err != nil {
			t.Errorf("encode(%U): %v", half, err)
			continue
		}
		got := string(decodeAll(t, override.ISO2022JP, []byte(out)))
		if got != string(half) && got != string(rune(full)) {
			t.Errorf("decode(encode(%U)) = %q, want %q or %q", half, got, string(half), string(rune(full)))
		}
	}
}
