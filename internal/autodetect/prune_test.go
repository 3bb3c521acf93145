package autodetect

import (
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/override"
)

// encText is a text and the encoding a test feeds it in.
type encText struct {
	enc  override.Encoding
	text string
}

// pruneTexts are the texts of the prune tests: two scripts whose first
// letters leave other scripts far behind, a Polish sentence then a Czech
// one, and French.
var pruneTexts = []encText{
	{override.Windows1253, "Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα."},
	{override.Windows1251, "Все люди рождаются свободными и равными в своем достоинстве и правах."},
	{override.ISO8859_2, "Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy."},
	{override.Windows1252, "Où est la bibliothèque? À côté de l'église, près du marché."},
}

// atPrune returns pruneTexts[i] encoded, the index of its k-th non-ASCII
// byte, and detectors fed the bytes before it and through it.
func atPrune(t *testing.T, i, k int) (in []byte, at int, before, after Detector) {
	t.Helper()
	tc := pruneTexts[i]
	in, dropped := corpus.Encode(tc.enc, tc.text)
	if dropped > 0 {
		t.Fatalf("%v: %d characters dropped", tc.enc, dropped)
	}
	at, n := -1, 0
	for j, b := range in {
		if b >= 0x80 {
			if n++; n == k {
				at = j
				break
			}
		}
	}
	if at < 0 {
		t.Fatalf("%v: text has %d non-ASCII bytes, want at least %d", tc.enc, n, k)
	}
	before.Feed(in[:at], false)
	after.Feed(in[:at+1], false)
	return in, at, before, after
}

// TestFirstPrune: the candidates far behind the leader stop being scored
// from the firstPrune-th non-ASCII byte on, not only from the pruneEvery-th:
// a text whose first firstPrune non-ASCII bytes already leave some
// candidates more than pruneMargin behind has rows die at that byte
// that the byte itself does not disqualify.
func TestFirstPrune(t *testing.T) {
	for i, tc := range pruneTexts[:2] {
		in, at, before, after := atPrune(t, i, firstPrune)
		var invalidRows uint64 // rows the byte itself disqualifies
		for enc := range sbEncodings {
			if sbEncodings[enc].classes[in[at]] == invalid {
				invalidRows |= rowsOf[enc]
			}
		}
		if pruned := after.sbDead &^ before.sbDead &^ invalidRows; pruned == 0 {
			t.Errorf("%v: no row pruned at the %d-th non-ASCII byte", tc.enc, firstPrune)
		}
	}
}

// TestEarlyPrune: at the earlyPrune-th non-ASCII byte only whole
// single-byte encodings stop being scored, those whose every row is more
// than earlyMargin behind the leader; the rows of an encoding nearer the
// lead all stay (a few letters do not tell a Polish sentence from a Czech
// one that follows), and no double-byte candidate is pruned there.
func TestEarlyPrune(t *testing.T) {
	for i, tc := range pruneTexts {
		in, at, before, after := atPrune(t, i, earlyPrune)
		// scored is after without the prune: the byte fed with the
		// count one short of earlyPrune (nothing else reads the count).
		scored := before
		scored.nonASCII--
		scored.feedByte(in[at])
		pruned := after.sbDead &^ scored.sbDead
		if pruned == 0 && (tc.enc == override.Windows1253 || tc.enc == override.Windows1251) {
			t.Errorf("%v: no encoding pruned at the %d-th non-ASCII byte", tc.enc, earlyPrune)
		}
		best := int32(-1 << 31)
		for r := range numRows {
			if scored.sbDead&(1<<r) == 0 {
				best = max(best, after.sbScore[r])
			}
		}
		for e := range sbEncodings {
			rows := rowsOf[e] &^ scored.sbDead
			lead := int32(-1 << 31)
			for r := range numRows {
				if rows&(1<<r) != 0 {
					lead = max(lead, after.sbScore[r])
				}
			}
			switch p := pruned & rows; {
			case p != 0 && p != rows:
				t.Errorf("%v: %v lost some of its rows at the early prune (%b of %b)", tc.enc, sbEncodings[e].enc, p, rows)
			case p != 0 && lead >= best-earlyMargin:
				t.Errorf("%v: %v pruned %d quarter bits behind, within earlyMargin", tc.enc, sbEncodings[e].enc, best-lead)
			case p == 0 && rows != 0 && lead < best-earlyMargin && !after.latin():
				t.Errorf("%v: %v kept %d quarter bits behind", tc.enc, sbEncodings[e].enc, best-lead)
			}
		}
		for k := range after.cjk {
			if after.cjk[k].dead && !scored.cjk[k].dead {
				t.Errorf("%v: %v pruned at the early prune", tc.enc, cjkEncodings[k])
			}
		}
	}
}

// TestCandidate: Candidate follows disqualification and pruning, names
// KOI8-R and KOI8-U, GBK and gb18030 as one candidate, and knows only the
// encodings it scores (the wide ones with All); Twin pairs the two Greek
// encodings and no others.
func TestCandidate(t *testing.T) {
	for e, want := range map[override.Encoding]override.Encoding{
		override.Windows1253: override.ISO8859_7, override.ISO8859_7: override.Windows1253,
		override.Windows1252: override.Unknown, override.ISO8859_8: override.Unknown, override.Unknown: override.Unknown,
	} {
		if got := Twin(e); got != want {
			t.Errorf("Twin(%v) = %v, want %v", e, got, want)
		}
	}
	var d Detector
	for _, e := range []override.Encoding{override.UTF8, override.Windows1252, override.Windows1253, override.ISO8859_7, override.KOI8R, override.ShiftJIS, override.GB18030} {
		if !d.Candidate(e) {
			t.Errorf("new Detector: Candidate(%v) = false", e)
		}
	}
	for _, e := range []override.Encoding{override.UTF16LE, override.ISO2022JP, override.Macintosh, override.Unknown} {
		if d.Candidate(e) {
			t.Errorf("new Detector: Candidate(%v) = true", e)
		}
	}
	if wide := (Detector{All: true}); !wide.Candidate(override.Macintosh) {
		t.Errorf("Detector{All: true}: Candidate(macintosh) = false")
	}

	// “Καλημέρα” in windows-1253: 0x93 is a C1 control in ISO-8859-7 and
	// KOI8, and no UTF-8.
	greek, _ := corpus.Encode(override.Windows1253, "«Καλημέρα» “Καλημέρα”")
	d.Feed(greek, false)
	for e, want := range map[override.Encoding]bool{
		override.Windows1253: true, override.ISO8859_7: false, override.UTF8: false,
		override.KOI8R: false, override.KOI8U: false,
	} {
		if got := d.Candidate(e); got != want {
			t.Errorf("after %q: Candidate(%v) = %v, want %v", greek, e, got, want)
		}
	}
	if d.Candidate(override.GBK) != d.Candidate(override.GB18030) {
		t.Errorf("Candidate(GBK) = %v, Candidate(gb18030) = %v", d.Candidate(override.GBK), d.Candidate(override.GB18030))
	}

	// Ά is 0xA2 in windows-1253, a closing quotation mark in ISO-8859-7:
	// capitals after it leave ISO-8859-7 behind until it is pruned.
	d.Reset()
	text := strings.Repeat("Άρθρο: Άνθρωποι από όλο τον κόσμο. ", 12)
	in, _ := corpus.Encode(override.Windows1253, text)
	d.Feed(in, false)
	if d.Candidate(override.ISO8859_7) || !d.Candidate(override.Windows1253) {
		t.Errorf("after %d bytes with Ά: Candidate(ISO-8859-7) = %v, Candidate(windows-1253) = %v, want false, true",
			len(in), d.Candidate(override.ISO8859_7), d.Candidate(override.Windows1253))
	}
}

// TestSharedPunct: quotation marks, dashes and … beside ASCII are the same
// punctuation in every encoding that reads them as punctuation, so they
// add the same to each of its rows: English strings with curly quotes and
// nothing else non-ASCII leave those rows level (no language model's
// taste for quotation marks prunes an encoding before its letters come),
// while macintosh, which has letters there, is scored as usual.
func TestSharedPunct(t *testing.T) {
	in := []byte(strings.Repeat("Key file contains key \x93%s\x94 in group \x93%s\x94 \x97 it didn\x92t\x85\n", 20))
	d := Detector{All: true}
	d.Feed(in, false)
	var level int32
	first := true
	for r := range numRows {
		e := sbEncodings[sbRows[r].enc].enc
		if d.sbDead&(1<<r) != 0 {
			continue
		}
		if e == override.Macintosh {
			if d.sbScore[r] == level && !first {
				t.Errorf("macintosh row %d scored like the punctuation rows", r)
			}
			continue
		}
		if first {
			level, first = d.sbScore[r], false
		} else if d.sbScore[r] != level {
			t.Errorf("%v row %d: score %d, want %d as every row that reads the bytes as punctuation", e, r, d.sbScore[r], level)
		}
	}
	if first {
		t.Fatal("no live row")
	}
	// Nor are they evidence for a windows encoding, where they are for
	// Shift_JIS (lead bytes of kanji).
	if got := d.Evidence(override.Windows1252); got != 0 {
		t.Errorf("Evidence(windows-1252) = %d, want 0", got)
	}
	if got, want := d.Evidence(override.ShiftJIS), d.NonASCII(); got != want || want == 0 {
		t.Errorf("Evidence(Shift_JIS) = %d, want NonASCII %d", got, want)
	}
}
