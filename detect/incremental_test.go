package detect_test

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/override"
)

// TestGuessBetweenFeeds: a Guess between two Feeds does not disturb the
// Feeds that follow. Fed held-out text in random chunks and asked after
// each, with changing hints, a Detector answers for every prefix as a new
// Detector fed that prefix at once does. Late autodetection in package
// decode feeds one detector only the bytes it has not seen and asks it at
// growing prefixes, relying on this.
func TestGuessBetweenFeeds(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, tc := range []struct {
		file string
		enc  override.Encoding
	}{
		{"fr", override.Windows1252}, {"ru", override.Windows1251}, {"el", override.Windows1253},
		{"ja", override.ShiftJIS}, {"ja", override.EUCJP}, {"ru", override.UTF8},
	} {
		text, err := os.ReadFile(filepath.Join("testdata", "heldout", tc.file+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := corpus.Encode(tc.enc, string(text[:min(len(text), 3000)]))
		checkBetweenFeeds(t, rng, tc.file, b)
	}
	for _, tc := range sentences {
		b, _ := corpus.Encode(tc.enc, tc.text)
		checkBetweenFeeds(t, rng, tc.desc, b)
	}
}

// checkBetweenFeeds feeds b to a Detector in random chunks, asking after
// each with a random hint, and checks each answer against a new
// Detector's for that prefix.
func checkBetweenFeeds(t *testing.T, rng *rand.Rand, desc string, b []byte) {
	t.Helper()
	hints := []detect.Hint{{}, {TLD: "ru"}, {Language: "ja"}, {TLD: "gr"}}
	var d detect.Detector
	for n := 0; n < len(b); {
		k := n + rng.Intn(6)
		k = min(k, len(b))
		d.Feed(b[n:k], false)
		n = k
		h := hints[rng.Intn(len(hints))]
		got, gotS := d.Guess(h)
		want, wantS := guess(b[:n], h)
		if got != want || gotS != wantS {
			t.Fatalf("%s, prefix %d, %+v: Guess = %v, %v; at once %v, %v",
				desc, n, h, got, gotS, want, wantS)
		}
	}
}
