package region

import (
	"strings"
	"testing"

	"github.com/charsniff/charsniff/override"
)

// TestTables checks every row: each region has a name, a default that is
// one of its customary encodings, and a top-level domain or a language
// that points to it; codes are lower-case and listed once.
func TestTables(t *testing.T) {
	reached := map[Region]bool{Generic: true}
	seen := map[string]bool{}
	for _, row := range tlds {
		if row.tld != strings.ToLower(row.tld) || strings.Contains(row.tld, ".") || row.tld == "" {
			t.Errorf("TLD %q: not a lower-case label", row.tld)
		}
		if seen[row.tld] {
			t.Errorf("TLD %q listed twice", row.tld)
		}
		seen[row.tld] = true
		reached[row.region] = true
	}
	seen = map[string]bool{}
	for _, row := range langs {
		if row.lang != strings.ToLower(row.lang) || len(row.lang) < 2 || len(row.lang) > 3 {
			t.Errorf("language %q: not a lower-case subtag", row.lang)
		}
		if seen[row.lang] {
			t.Errorf("language %q listed twice", row.lang)
		}
		seen[row.lang] = true
		if row.std {
			reached[row.region] = true
		}
	}
	names := map[string]bool{}
	for r := Region(0); r < numRegions; r++ {
		if r.String() == "" || names[r.String()] {
			t.Errorf("region %d: name %q empty or not unique", r, r.String())
		}
		names[r.String()] = true
		if !r.Default().Valid() {
			t.Errorf("%v: invalid default", r)
		}
		if r != Generic && !r.Customary(r.Default()) {
			t.Errorf("%v: default %v is not customary", r, r.Default())
		}
		if !reached[r] {
			t.Errorf("%v: no TLD and no language of the standard's table points to it", r)
		}
	}
	if got := numRegions.String(); got != "unknown" {
		t.Errorf("String of an out-of-range region = %q", got)
	}
	if got := numRegions.Default(); got != override.Windows1252 {
		t.Errorf("Default of an out-of-range region = %v", got)
	}
	if numRegions.Customary(override.Windows1252) {
		t.Error("an out-of-range region has customary encodings")
	}
}

func TestForTLD(t *testing.T) {
	tests := []struct {
		in   string
		want Region
	}{
		{"jp", Japanese},
		{".JP", Japanese},
		{"www.example.co.jp.", Japanese},
		{" jp\n", Japanese},
		{"example. jp", Japanese},
		{"xn--p1ai", Cyrillic},
		{"XN--P1AI", Cyrillic},
		{"pl", CentralISO},
		{"cz", CentralWindows},
		{"ee", Baltic},
		{"de", Western},
		{"uk", Generic},
		{"com", Generic},
		{"", Generic},
		{".", Generic},
		{"j\u212Ap", Generic},
	}
	for _, tc := range tests {
		if got := ForTLD(tc.in); got != tc.want {
			t.Errorf("ForTLD(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestForLocale(t *testing.T) {
	tests := []struct {
		in      string
		want    Region
		std, ok bool
	}{
		{"ja", Japanese, true, true},
		{"JA_jp.eucJP", Japanese, true, true},
		{" ru-RU ", Cyrillic, true, true},
		{"sah", Cyrillic, true, true},
		{"zh", Simplified, true, true},
		{"zh-Hant-CN", Traditional, true, true},
		{"zh_HK.Big5", Traditional, true, true},
		{"ro", CentralWindows, false, true},
		{"mn", Cyrillic, false, true},
		{"en-US", Western, false, true},
		{"cy", Western, false, true},
		{"xx", Generic, false, false},
		{"", Generic, false, false},
		{"jp", Generic, false, false},
	}
	for _, tc := range tests {
		r, std, ok := ForLocale(tc.in)
		if r != tc.want || std != tc.std || ok != tc.ok {
			t.Errorf("ForLocale(%q) = %v, %v, %v, want %v, %v, %v", tc.in, r, std, ok, tc.want, tc.std, tc.ok)
		}
	}
}

func TestAllocs(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		ForTLD("www.example.co.jp")
		ForLocale("zh-Hant-TW")
	})
	if n != 0 {
		t.Errorf("ForTLD and ForLocale allocate: %v allocations per run, want 0", n)
	}
}

// TestNoEmptyCodes: ForTLD and ForLocale answer an empty hint without
// looking in the tables, which is the same answer only while no row has an
// empty code.
func TestNoEmptyCodes(t *testing.T) {
	for _, r := range tlds {
		if r.tld == "" {
			t.Errorf("a top-level domain row with no domain: %+v", r)
		}
	}
	for _, l := range langs {
		if l.lang == "" {
			t.Errorf("a language row with no language: %+v", l)
		}
	}
}
