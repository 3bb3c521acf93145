package corpus

import "testing"

func TestTallyString(t *testing.T) {
	for _, tc := range []struct {
		t    Tally
		want string
	}{
		{Tally{}, "-"},
		{Tally{Right: 1, Total: 3}, "33.3 %"},
		{Tally{Right: 995, Total: 1000}, "99.5 %"},
		{Tally{Right: 7, Total: 7}, "100.0 %"},
	} {
		if got := tc.t.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.t, got, tc.want)
		}
	}
}

func TestSpread(t *testing.T) {
	docs := [][]byte{{0}, {1}, {2}, {3}, {4}, {5}}
	if got := Spread(docs, 10); len(got) != 6 {
		t.Errorf("Spread of 6 into 10 = %d documents, want all 6", len(got))
	}
	got := Spread(docs, 3)
	var firsts []byte
	for _, d := range got {
		firsts = append(firsts, d[0])
	}
	if string(firsts) != "\x00\x02\x04" {
		t.Errorf("Spread(6 documents, 3) = %v, want documents 0, 2, 4", firsts)
	}
}

func TestIsASCII(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{{"", true}, {"plain <p>", true}, {"\x7f", true}, {"caf\xe9", false}, {"\x80", false}} {
		if got := IsASCII([]byte(tc.in)); got != tc.want {
			t.Errorf("IsASCII(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
