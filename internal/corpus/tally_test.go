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
