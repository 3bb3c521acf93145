package bench

import (
	"testing"

	saintfish "github.com/saintfish/chardet"
	wlynxg "github.com/wlynxg/chardet"

	"github.com/charsniff/charsniff/detect"
)

// detectInputs are the sample pages in legacy encodings: what an encoding
// detector is for.
var detectInputs = []string{"windows-1252.html", "windows-1251.html", "shift_jis.html", "euc-jp.html", "gbk.html"}

// BenchmarkDetect compares charsniff/detect with the two Go peers on the
// first 1 KB (what sniffing sees) and on the whole 64 KB sample.
func BenchmarkDetect(b *testing.B) {
	for _, name := range detectInputs {
		data := sample(b, name)
		for _, size := range []struct {
			name string
			n    int
		}{{"1KB", 1024}, {"64KB", len(data)}} {
			in := data[:min(size.n, len(data))]
			b.Run("charsniff/"+name+"/"+size.name, func(b *testing.B) {
				d := detect.New()
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					d.Reset()
					d.Feed(in, false)
					d.Guess(detect.Hint{})
				}
			})
			b.Run("saintfish/"+name+"/"+size.name, func(b *testing.B) {
				d := saintfish.NewHtmlDetector()
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					d.DetectBest(in)
				}
			})
			b.Run("wlynxg/"+name+"/"+size.name, func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					wlynxg.Detect(in)
				}
			})
		}
	}
}

// TestDetectPeers logs what each detector answers for the samples (with
// their declarations left in: a peer may read them), for the record.
func TestDetectPeers(t *testing.T) {
	sd := saintfish.NewHtmlDetector()
	for _, name := range detectInputs {
		data := sample(t, name)
		d := detect.New()
		d.Feed(data[:1024], false)
		e, _ := d.Guess(detect.Hint{})
		s, _ := sd.DetectBest(data[:1024])
		w := wlynxg.Detect(data[:1024])
		t.Logf("%s: charsniff %v, saintfish %s, wlynxg %s", name, e, s.Charset, w.Encoding)
	}
}
