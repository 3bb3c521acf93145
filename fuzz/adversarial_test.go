package fuzz

import (
	"fmt"
	"testing"

	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/prescan"
	"github.com/charsniff/charsniff/sniff"
)

// An adversarial input is a known worst case for a prescan written
// naively: a search restarted at every byte, a scan back over an
// attribute list, a quote looked for again and again. make returns it at
// exactly n bytes: head, then body repeated, cut at n.
type adversarial struct {
	name       string
	head, body string
}

var adversarials = []adversarial{
	{"lt", "", "<"}, // megabytes of <
	{"comment-unclosed", "<!--", "<!-- -- -!>-"},     // <!-- with no end, and near-ends
	{"meta-attributes", "<meta", ` a=b charset ch=`}, // <meta with millions of attributes, no >
	{"metas-no-charset", "", `<meta http-equiv=content-type content="text/html"><meta name=x content="charset">`},
	{"quotes-unclosed", `<meta a="`, `'=> '`},                                                      // endless quotes: a value that never ends
	{"quotes-many", "<meta", ` a="'>" b='">'`},                                                     // quoted values with > inside that do end, and no >
	{"charset-unterminated", `<meta charset="`, "x"},                                               // <meta charset=" that never closes
	{"content-charset", `<meta http-equiv=content-type content="`, `charset charset= charset="x `}, // extract from meta's loop
	{"xml-encoding-flood", "<?xml", ` encoding encoding= encoding="`},                              // <?xml + encoding, no >
	{"tags-and-ends", "", "</a <b c='d' <!x <? </"},
}

func (a adversarial) make(n int) []byte {
	b := make([]byte, 0, n+len(a.body))
	b = append(b, a.head...)
	for len(b) < n {
		b = append(b, a.body...)
	}
	return b[:n]
}

// adversarialSizes are the input sizes of BenchmarkAdversarial.
var adversarialSizes = []struct {
	name string
	n    int
}{{"1KB", 1 << 10}, {"64KB", 64 << 10}, {"1MB", 1 << 20}, {"16MB", 16 << 20}}

// BenchmarkAdversarial runs each adversarial input at 1 KB, 64 KB, 1 MB and
// 16 MB through the prescan with the window set to the input size, the
// resumable Scanner with no window (fed 4 KB at a time, as a reader
// scanning a whole document for a late <meta> would), and sniff.Sniff with
// the window set to the input size. It reports ns/B, which must stay flat
// as the size grows: the work is linear in the input.
//
//	go test -run=^$ -bench=Adversarial ./fuzz
func BenchmarkAdversarial(b *testing.B) {
	for _, a := range adversarials {
		for _, size := range adversarialSizes {
			in := a.make(size.n)
			b.Run(fmt.Sprintf("%s/prescan/%s", a.name, size.name), func(b *testing.B) {
				opts := prescan.Options{Window: len(in)}
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					prescan.Prescan(in, &opts)
				}
				reportNsPerByte(b, len(in))
			})
			b.Run(fmt.Sprintf("%s/scanner/%s", a.name, size.name), func(b *testing.B) {
				opts := prescan.Options{Window: -1}
				var s prescan.Scanner
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					s.Reset(&opts)
					for i := 0; i < len(in); i += 4096 {
						s.Feed(in[i:min(i+4096, len(in))])
					}
					s.Close()
				}
				reportNsPerByte(b, len(in))
			})
			b.Run(fmt.Sprintf("%s/sniff/%s", a.name, size.name), func(b *testing.B) {
				opts := sniff.Options{Window: len(in), AtEOF: true}
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					sniff.Sniff(in, &opts)
				}
				reportNsPerByte(b, len(in))
			})
		}
	}
}

// reportNsPerByte adds the ns/B metric: time per input byte.
func reportNsPerByte(b *testing.B, n int) {
	if b.N > 0 && b.Elapsed() > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/B")
	}
}

// TestAdversarialLinear runs every adversarial input at 16 MB through the
// prescan (window set to the input size), the Scanner with no window fed
// 4 KB at a time, and Sniff, and its first 1 MB through the Scanner fed one
// byte at a time, and checks that they end and agree; and that at 64 KB
// none of them allocates. It asserts no timing; it is linear time that
// lets it end. The Scanner keeps no reference to the bytes it was fed and
// does not allocate, so each Feed can only work on its own chunk; with a
// million one-byte chunks, a per-call cost that grew with the offset (a
// rescan of what came before, in any form) would make the test run for
// hours instead of a second. Under the race detector, which slows it
// about tenfold, 16 MB and 1 MB become 1 MB and 64 KB.
func TestAdversarialLinear(t *testing.T) {
	const allocSize = 64 << 10
	size, byteFed := 16<<20, 1<<20
	if testutil.Race {
		size, byteFed = 1<<20, 64<<10
	}
	unlimited := prescan.Options{Window: -1}
	for _, a := range adversarials {
		t.Run(a.name, func(t *testing.T) {
			in := a.make(size)
			want := prescan.Prescan(in, &prescan.Options{Window: len(in)})
			var s prescan.Scanner
			s.Reset(&unlimited)
			for i := 0; i < len(in); i += 4096 {
				s.Feed(in[i:min(i+4096, len(in))])
			}
			if got := s.Close(); got != want {
				t.Errorf("Scanner fed 4 KB at a time = %+v, Prescan = %+v", got, want)
			}
			if r := sniff.Sniff(in, &sniff.Options{Window: len(in), AtEOF: true}); !r.Encoding.Valid() {
				t.Errorf("Sniff = %+v", r)
			}

			head := in[:byteFed]
			want = prescan.Prescan(head, &unlimited)
			s.Reset(&unlimited)
			for i := range head {
				s.Feed(head[i : i+1])
			}
			if got := s.Close(); got != want {
				t.Errorf("Scanner fed %d bytes one at a time = %+v, Prescan = %+v", len(head), got, want)
			}

			small := in[:allocSize]
			if n := allocsPerCall(func() { prescan.Prescan(small, &unlimited) }); n != 0 {
				t.Errorf("Prescan of %d bytes: %v allocations, want 0", len(small), n)
			}
			if n := allocsPerCall(func() {
				s.Reset(&unlimited)
				for i := range small {
					s.Feed(small[i : i+1])
				}
				s.Close()
			}); n != 0 {
				t.Errorf("Scanner fed %d bytes one at a time: %v allocations, want 0", len(small), n)
			}
			sopts := sniff.Options{Window: len(small), AtEOF: true}
			if n := allocsPerCall(func() { sniff.Sniff(small, &sopts) }); n != 0 {
				t.Errorf("Sniff of %d bytes: %v allocations, want 0", len(small), n)
			}
		})
	}
}
