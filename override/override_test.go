package override

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

type specEncoding struct {
	Name   string   `json:"name"`
	Labels []string `json:"labels"`
}

// loadSpec reads the vendored label table the generator reads.
func loadSpec(t *testing.T) []specEncoding {
	t.Helper()
	data, err := os.ReadFile("../internal/spec/whatwg-encoding/encodings.json")
	if err != nil {
		t.Fatal(err)
	}
	var groups []struct {
		Encodings []specEncoding `json:"encodings"`
	}
	if err := json.Unmarshal(data, &groups); err != nil {
		t.Fatal(err)
	}
	var all []specEncoding
	for _, g := range groups {
		all = append(all, g.Encodings...)
	}
	return all
}

// TestTables walks every row of the standard's label table.
func TestTables(t *testing.T) {
	spec := loadSpec(t)
	if len(spec) != NumEncodings || NumEncodings != 40 {
		t.Fatalf("spec has %d encodings, NumEncodings = %d, want 40", len(spec), NumEncodings)
	}
	nlabels := 0
	for i, se := range spec {
		want := Encoding(i + 1)
		if got := want.Name(); got != se.Name {
			t.Errorf("Encoding(%d).Name() = %q, want %q", i+1, got, se.Name)
		}
		for _, l := range se.Labels {
			nlabels++
			for _, variant := range []string{l, strings.ToUpper(l), " \t" + l + "\n\f\r ", strings.ToUpper(l[:1]) + l[1:]} {
				if got, ok := Lookup(variant); !ok || got != want {
					t.Errorf("Lookup(%q) = %v, %v, want %v, true", variant, got, ok, want)
				}
				if got, ok := Lookup([]byte(variant)); !ok || got != want {
					t.Errorf("Lookup([]byte(%q)) = %v, %v, want %v, true", variant, got, ok, want)
				}
				if got, ok := LookupLegacy(variant); !ok || got != want {
					t.Errorf("LookupLegacy(%q) = %v, %v, want %v, true", variant, got, ok, want)
				}
				if got, ok := LookupLegacy([]byte(variant)); !ok || got != want {
					t.Errorf("LookupLegacy([]byte(%q)) = %v, %v, want %v, true", variant, got, ok, want)
				}
			}
		}
	}
	if nlabels != len(labelList)-1 {
		t.Errorf("spec has %d labels, table has %d", nlabels, len(labelList)-1)
	}
	if got := len(All()); got != 40 {
		t.Errorf("len(All()) = %d, want 40", got)
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		label string
		want  Encoding
		ok    bool
	}{
		{"utf-8", UTF8, true},
		{"UTF8", UTF8, true},
		{"latin1", Windows1252, true},
		{"iso-8859-1", Windows1252, true},
		{"US-ASCII", Windows1252, true},
		{"gb2312", GBK, true},
		{"sjis", ShiftJIS, true},
		{"windows-31j", ShiftJIS, true},
		{"ks_c_5601-1987", EUCKR, true},
		{"tis-620", Windows874, true},
		{"iso-8859-9", Windows1254, true},
		{"koi8-ru", KOI8U, true},
		{"x-mac-ukrainian", XMacCyrillic, true},
		{"iso-2022-kr", Replacement, true},
		{"hz-gb-2312", Replacement, true},
		{"iso-2022-cn-ext", Replacement, true},
		{"utf-16", UTF16LE, true},
		{"unicodefffe", UTF16BE, true},
		{"x-user-defined", XUserDefined, true},
		{"  \tShift_JIS\r\n", ShiftJIS, true},
		// Only ASCII whitespace is trimmed and only A-Z folded.
		{"\u212Aoi8-r", Unknown, false}, // KELVIN SIGN folds to k under Unicode rules
		{"\u00a0utf-8", Unknown, false}, // NO-BREAK SPACE is not ASCII whitespace
		{"utf-8\u0085", Unknown, false}, // NEXT LINE is not ASCII whitespace
		{"utf-8\v", Unknown, false},     // VT is not ASCII whitespace
		{"utf_8", Unknown, false},
		{"utf-7", Unknown, false},
		{"utf-32", Unknown, false},
		{"cesu-8", Unknown, false},
		{"bocu-1", Unknown, false},
		{"scsu", Unknown, false},
		{"ebcdic-us", Unknown, false},
		{"ibm037", Unknown, false},
		{"", Unknown, false},
		{"   ", Unknown, false},
		{"x-user-defined-but-much-longer-than-any-label", Unknown, false},
		{"utf-8\x00", Unknown, false},
	}
	for _, tc := range tests {
		got, ok := Lookup(tc.label)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Lookup(%q) = %v, %v, want %v, %v", tc.label, got, ok, tc.want, tc.ok)
		}
	}
}

func TestLookupLegacy(t *testing.T) {
	tests := []struct {
		label string
		want  Encoding
		ok    bool
	}{
		// UTS #22: case, punctuation and leading zeros are ignored.
		{"GB_2312-80", GBK, true},
		{"g.b.2312(80)", GBK, true},
		{"UTF8", UTF8, true},
		{"utf_8", UTF8, true},
		{"Shift-JIS", ShiftJIS, true},
		{"SHIFT_JIS", ShiftJIS, true},
		{"iso_8859-01", Windows1252, true},
		{"ISO8859_2", ISO8859_2, true},
		{"iso-8859-002", ISO8859_2, true},
		{"ISO_8859-1:1987", Windows1252, true},
		{"windows 1251", Windows1251, true},
		{"EUC_JP", EUCJP, true},
		{"Extended_UNIX_Code_Packed_Format_for_Japanese", EUCJP, true},
		// The 2008 draft's additional aliases.
		{"x-sjis", ShiftJIS, true},
		{"windows-932", ShiftJIS, true},
		{"x-x-big5", Big5, true},
		// Its character encoding overrides (targets as the current standard names them).
		{"EUC-KR", EUCKR, true},
		{"windows-949", EUCKR, true},
		{"KS_C_5601-1987", EUCKR, true},
		{"ISO-8859-11", Windows874, true},
		{"TIS-620", Windows874, true},
		{"windows-31J", ShiftJIS, true},
		{"US-ASCII", Windows1252, true},
		{"UTF-16", UTF16LE, true},
		// A zero that follows a digit is significant.
		{"iso-8859-10", ISO8859_10, true},
		{"iso-8859-1-0", Windows1252, true}, // "-0" starts a new number: its zero is leading
		{"windows-125", Unknown, false},
		// Never these, under any spelling.
		{"UTF-7", Unknown, false},
		{"utf7", Unknown, false},
		{"UNICODE-1-1-UTF-7", Unknown, false},
		{"CESU-8", Unknown, false},
		{"cesu8", Unknown, false},
		{"BOCU-1", Unknown, false},
		{"SCSU", Unknown, false},
		{"UTF-32", Unknown, false},
		{"UTF-32LE", Unknown, false},
		{"utf32be", Unknown, false},
		{"EBCDIC-US", Unknown, false},
		{"IBM037", Unknown, false},
		{"cp500", Unknown, false},
		{"\u212Aoi8-r", Unknown, false},
		{"", Unknown, false},
		{"-_.()", Unknown, false},
		{strings.Repeat("a", 1000), Unknown, false},
	}
	for _, tc := range tests {
		got, ok := LookupLegacy(tc.label)
		if got != tc.want || ok != tc.ok {
			t.Errorf("LookupLegacy(%q) = %v, %v, want %v, %v", tc.label, got, ok, tc.want, tc.ok)
		}
		if got, ok := LookupLegacy([]byte(tc.label)); got != tc.want || ok != tc.ok {
			t.Errorf("LookupLegacy([]byte(%q)) = %v, %v, want %v, %v", tc.label, got, ok, tc.want, tc.ok)
		}
	}
	// Loose matching is opt-in: Lookup itself rejects these.
	for _, l := range []string{"g.b.2312(80)", "utf_8", "Shift JIS", "windows 1251", "iso-8859-002", "Extended_UNIX_Code_Packed_Format_for_Japanese"} {
		if e, ok := Lookup(l); ok {
			t.Errorf("Lookup(%q) = %v, true; loose matching must be opt-in", l, e)
		}
	}
}

// TestLooseKeys checks that every key of the generated loose table is a
// fixed point of the runtime folding, so generator and runtime agree.
func TestLooseKeys(t *testing.T) {
	for k, want := range looseLabels {
		if got, ok := LookupLegacy(k); !ok || got != want {
			t.Errorf("LookupLegacy(%q) = %v, %v, want %v, true", k, got, ok, want)
		}
	}
}

func TestEncodingMethods(t *testing.T) {
	if Unknown.Valid() || Unknown.Name() != "" || Encoding(200).Valid() || Encoding(200).Name() != "" {
		t.Error("Unknown or out-of-range value reported as valid")
	}
	if got := Encoding(200).String(); got != "Encoding(200)" {
		t.Errorf("Encoding(200).String() = %q", got)
	}
	if got := Unknown.String(); got != "Encoding(0)" {
		t.Errorf("Unknown.String() = %q", got)
	}
	if got := ShiftJIS.String(); got != "Shift_JIS" {
		t.Errorf("ShiftJIS.String() = %q", got)
	}
	if !UTF16BE.IsUTF16() || !UTF16LE.IsUTF16() || UTF8.IsUTF16() {
		t.Error("IsUTF16 wrong")
	}
	for _, e := range All() {
		want := !(e.IsUTF16() || e == ISO2022JP || e == Replacement)
		if got := e.ASCIICompatible(); got != want {
			t.Errorf("%v.ASCIICompatible() = %v, want %v", e, got, want)
		}
	}
}

// TestLowerName checks LowerName over all 40 encodings against the
// standard's name lower-cased, that it is a label of the encoding, and that
// it is "" for values that are not encodings and does not allocate.
func TestLowerName(t *testing.T) {
	for _, e := range All() {
		want := strings.ToLower(e.Name())
		if got := e.LowerName(); got != want {
			t.Errorf("%v.LowerName() = %q, want %q", e, got, want)
		}
		if got, ok := Lookup(e.LowerName()); got != e || !ok {
			t.Errorf("Lookup(%q) = %v, %v, want %v, true", e.LowerName(), got, ok, e)
		}
		if n := testing.AllocsPerRun(10, func() { _ = e.LowerName() }); n != 0 {
			t.Errorf("%v.LowerName(): %v allocs, want 0", e, n)
		}
	}
	for _, e := range []Encoding{Unknown, numEncodings, 255} {
		if got := e.LowerName(); got != "" {
			t.Errorf("Encoding(%d).LowerName() = %q, want \"\"", e, got)
		}
	}
}

// TestLookupAllocs checks that Lookup and LookupLegacy do not allocate, for
// a string, a byte slice and types defined on them.
func TestLookupAllocs(t *testing.T) {
	type label string
	type raw []byte
	for _, l := range []string{"utf-8", " Shift_JIS ", "nonsense", "GB_2312-80", strings.Repeat(" x", 40)} {
		b := []byte(l)
		for _, tc := range []struct {
			desc string
			f    func()
		}{
			{"Lookup(string)", func() { Lookup(l) }},
			{"Lookup([]byte)", func() { Lookup(b) }},
			{"Lookup(label)", func() { Lookup(label(l)) }},
			{"Lookup(raw)", func() { Lookup(raw(b)) }},
			{"LookupLegacy(string)", func() { LookupLegacy(l) }},
			{"LookupLegacy([]byte)", func() { LookupLegacy(b) }},
			{"LookupLegacy(raw)", func() { LookupLegacy(raw(b)) }},
		} {
			if n := testing.AllocsPerRun(100, tc.f); n != 0 {
				t.Errorf("%s of %q: %v allocs, want 0", tc.desc, l, n)
			}
		}
	}
	// Types defined on string and []byte are looked up as their bytes.
	if e, ok := Lookup(raw(" SJIS")); e != ShiftJIS || !ok {
		t.Errorf("Lookup(raw(\" SJIS\")) = %v, %v, want Shift_JIS, true", e, ok)
	}
	if e, ok := LookupLegacy(label("g.b.2312(80)")); e != GBK || !ok {
		t.Errorf("LookupLegacy(label(\"g.b.2312(80)\")) = %v, %v, want GBK, true", e, ok)
	}
}

// TestGenerated reruns the generator and checks tables.go is up to date.
func TestGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	want, err := os.ReadFile("tables.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	runGenerator(t, dir)
	got, err := os.ReadFile(dir + "/tables.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Error("tables.go is stale: run go generate ./override")
	}
}

func BenchmarkLookup(b *testing.B) {
	for _, l := range []string{"utf-8", "  Windows-1252 ", "cseucpkdfmtjapanese", "not-a-label"} {
		b.Run(strings.TrimSpace(l), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Lookup(l)
			}
		})
	}
}

func runGenerator(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("go", "run", "gen.go", "-o", filepath.Join(dir, "tables.go"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, out)
	}
}

// TestLookupNearMisses checks the hashed lookup against a map of the label
// table on strings one edit away from each label (a byte dropped, added or
// changed, among them the bytes around A to Z, NUL, non-ASCII and space),
// which land in other labels' slots or in empty ones.
func TestLookupNearMisses(t *testing.T) {
	table := map[string]Encoding{}
	for _, e := range labelList[1:] {
		table[keyString(e.key)] = e.enc
	}
	check := func(s string) {
		t.Helper()
		folded := strings.Map(func(r rune) rune {
			if 'A' <= r && r <= 'Z' {
				return r + 'a' - 'A'
			}
			return r
		}, strings.Trim(s, "\t\n\f\r "))
		want, wantOK := table[folded]
		if got, ok := Lookup(s); got != want || ok != wantOK {
			t.Fatalf("Lookup(%q) = %v, %v, want %v, %v", s, got, ok, want, wantOK)
		}
		if got, ok := Lookup([]byte(s)); got != want || ok != wantOK {
			t.Fatalf("Lookup([]byte(%q)) = %v, %v, want %v, %v", s, got, ok, want, wantOK)
		}
	}
	check("")
	for l := range table {
		check(l)
		for i := range len(l) + 1 {
			if i < len(l) {
				check(l[:i] + l[i+1:])
			}
			for _, c := range "-_.:0159aeiosxzAEZ@[`{\x00\x7F\u0080\u212A " {
				check(l[:i] + string(c) + l[i:])
				if i < len(l) {
					check(l[:i] + string(c) + l[i+1:])
				}
			}
		}
	}
}

// keyString returns the label of the key k.
func keyString(k labelKey) string {
	var b []byte
	for _, w := range [3]uint64{k.a, k.b, k.c} {
		for ; w != 0; w >>= 8 {
			b = append(b, byte(w))
		}
	}
	return string(b)
}

// BenchmarkLookupBytes is BenchmarkLookup with the labels as byte slices.
func BenchmarkLookupBytes(b *testing.B) {
	for _, l := range []string{"utf-8", "  Windows-1252 ", "cseucpkdfmtjapanese", "not-a-label"} {
		lb := []byte(l)
		b.Run(strings.TrimSpace(l), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Lookup(lb)
			}
		})
	}
}
