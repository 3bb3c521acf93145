package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/decode/codec"
	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
	"github.com/charsniff/charsniff/sniff"
)

// provRecord is a record of the provenance tests: its HTTP Content-Type
// and payload.
type provRecord struct {
	contentType string
	body        []byte
}

// provRecords are pages whose declarations disagree in every way: a
// transport charset over a <meta> the bytes contradict, a BOM over both,
// a page that agrees with itself, one with cut and bad UTF-8 sequences
// longer than the counting buffers, and one in a multi-byte encoding.
func provRecords() []provRecord {
	greek := []byte("<meta charset=windows-1253><p>\xc1\xe8\xde\xed\xe1 \xaa \xd2 \xff</p>")
	var badUTF8 bytes.Buffer
	badUTF8.WriteString(`<meta charset="utf-8"><p>`)
	for i := range 3000 {
		// Valid text, then a cut sequence, a lone continuation byte, an
		// overlong form, a surrogate and a byte past U+10FFFF, at shifting
		// places (the chunks the decoder reads cut them anywhere).
		badUTF8.WriteString(strings.Repeat("日本語", i%7))
		switch i % 6 {
		case 0:
			badUTF8.WriteString("\xe6\x97")
		case 1:
			badUTF8.WriteString("\x80")
		case 2:
			badUTF8.WriteString("\xc0\xaf")
		case 3:
			badUTF8.WriteString("\xed\xa0\x80")
		case 4:
			badUTF8.WriteString("\xf4\x90\x80\x80")
		case 5:
			badUTF8.WriteString("\xf0\x9f\x98")
		}
		badUTF8.WriteString(" text ")
	}
	sjis := append([]byte("<meta charset=shift_jis><p>"), bytes.Repeat([]byte("\x93\xfa\x96\x7b\x8c\xea \x81\x40 \xa0\xfd"), 5000)...)
	return []provRecord{
		{"text/html; charset=utf-8", greek},
		{"text/html; charset=windows-1251", append([]byte("\xef\xbb\xbf<meta charset=shift_jis><p>"), "日本語 \xff"...)},
		{"text/html; charset=koi8-r", []byte("<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4")},
		{"text/html; charset=shift_jis", badUTF8.Bytes()},
		{"text/html; charset=iso-8859-1", sjis},
		{"text/html", []byte("<p>plain ASCII, nothing declared</p>")},
	}
}

// provWARC writes recs as a gzip WARC file of one member per record.
func provWARC(t *testing.T, recs []provRecord) []byte {
	var b bytes.Buffer
	w := warctest.NewWriter(&b, true)
	for i, r := range recs {
		block := "HTTP/1.1 200 OK\r\nContent-Type: " + r.contentType + "\r\n\r\n" + string(r.body)
		if _, err := w.Write(warctest.Record{Type: "response", TargetURI: "http://example.test/" + itoa(i),
			ContentType: "application/http; msgtype=response", Block: []byte(block)}); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// replacements counts the U+FFFD decoding b with e gives, by decoding it.
func replacements(t *testing.T, e override.Encoding, b []byte) int64 {
	out, err := codec.Encoding(e).NewDecoder().Bytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return int64(bytes.Count(out, []byte("\uFFFD")))
}

// TestProvenance checks Result.Provenance and Result.Mismatch against
// sniff.Explain over each record's window and full decodes of each
// payload, in every way of reading the records.
func TestProvenance(t *testing.T) {
	recs := provRecords()
	data := provWARC(t, recs)
	var want []Result
	for _, r := range recs {
		prefix := r.body[:min(len(r.body), sniff.DefaultWindow)]
		p := sniff.Explain(prefix, &sniff.Options{ContentType: r.contentType, TLD: "example.test"})
		want = append(want, Result{Provenance: p})
	}
	check := func(how string, got []*Result) {
		t.Helper()
		if len(got) != len(recs) {
			t.Fatalf("%s: %d results, want %d", how, len(got), len(recs))
		}
		for i, res := range got {
			if res.Err != nil {
				t.Errorf("%s: record %d: %v", how, i, res.Err)
				continue
			}
			p := res.Provenance
			if p != want[i].Provenance {
				t.Errorf("%s: record %d: Provenance %+v, want %+v", how, i, p, want[i].Provenance)
			}
			m := Mismatch{
				Transport: p.Transport.Valid() && p.Transport != res.Encoding,
				Prescan:   p.Prescan.Encoding.Valid() && p.Prescan.Encoding != res.Encoding,
			}
			if m.Transport {
				m.TransportReplaced = replacements(t, p.Transport, recs[i].body)
			}
			if m.Prescan {
				m.PrescanReplaced = replacements(t, p.Prescan.Encoding, recs[i].body)
			}
			if res.Mismatch != m {
				t.Errorf("%s: record %d (%v, %v): Mismatch %+v, want %+v", how, i, res.Encoding, res.Source, res.Mismatch, m)
			}
		}
	}

	// What the records are: the cases the test means to cover.
	var first []*Result
	for rec, err := range Records(bytes.NewReader(data), Options{File: "f", Provenance: true}) {
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, rec.Finish())
	}
	check("Records without text", first)
	if r := first[0]; !r.Mismatch.Prescan || r.Mismatch.PrescanReplaced == 0 || r.Provenance.Prescan.Rule != prescan.Meta {
		t.Errorf("the Greek page: %+v", r)
	}
	if r := first[1]; r.Provenance.BOM != override.UTF8 || !r.Mismatch.Transport || !r.Mismatch.Prescan {
		t.Errorf("the page with a BOM: %+v", r)
	}
	if r := first[2]; r.Mismatch != (Mismatch{}) {
		t.Errorf("the page that agrees with itself: %+v", r)
	}
	if r := first[3]; r.Encoding != override.ShiftJIS || r.Mismatch.PrescanReplaced < 3000 {
		t.Errorf("the bad UTF-8: %+v", r)
	}
	if r := first[4]; !r.Mismatch.Prescan || r.Mismatch.PrescanReplaced == 0 || r.Mismatch.Transport {
		t.Errorf("the Shift_JIS page under latin-1: %+v", r)
	}
	if r := first[5]; r.Provenance != (sniff.Provenance{}) || r.Mismatch != (Mismatch{}) {
		t.Errorf("the page that declares nothing: %+v", r)
	}

	var texts []*Result
	for rec, err := range Records(bytes.NewReader(data), Options{File: "f", Provenance: true}) {
		if err != nil {
			t.Fatal(err)
		}
		// Part of the text, then Finish reads on.
		io.CopyN(io.Discard, rec.Text, 100)
		texts = append(texts, rec.Finish())
	}
	check("Records, text partly read", texts)

	for _, noText := range []bool{false, true} {
		for _, procs := range []int{1, 4} {
			func() {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				opts := Options{File: "f", Provenance: true, NoText: noText, PartSize: 1 << 10}
				var par, stream []*Result
				for rec, err := range Parallel(context.Background(), bytes.NewReader(data), int64(len(data)), opts) {
					if err != nil {
						t.Fatal(err)
					}
					rec.WriteText(io.Discard)
					par = append(par, rec.Finish())
				}
				check("Parallel", par)
				for rec, err := range ParallelStream(context.Background(), bytes.NewReader(data), opts) {
					if err != nil {
						t.Fatal(err)
					}
					rec.WriteText(io.Discard)
					stream = append(stream, rec.Finish())
				}
				check("ParallelStream", stream)
			}()
		}
	}

	// Without Options.Provenance, nothing.
	for rec, err := range Records(bytes.NewReader(data), Options{File: "f"}) {
		if err != nil {
			t.Fatal(err)
		}
		if res := rec.Finish(); res.Provenance != (sniff.Provenance{}) || res.Mismatch != (Mismatch{}) {
			t.Errorf("without Options.Provenance: %+v %+v", res.Provenance, res.Mismatch)
		}
	}
}

// TestProvenanceJSON checks the provenance key of a record's line.
func TestProvenanceJSON(t *testing.T) {
	data := provWARC(t, provRecords()[:1])
	for rec, err := range Records(bytes.NewReader(data), Options{File: "f", Provenance: true}) {
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(rec.Finish())
		want := `,"provenance":{"transport_label":"utf-8","transport":"utf-8","prescan":"windows-1253","prescan_rule":"meta","prescan_offset":27,"detected":"windows-1251","strength":"statistical","prescan_mismatch":true,"prescan_replacements":3}}`
		if !bytes.HasSuffix(b, []byte(want)) {
			t.Errorf("got  %s\nwant its end %s", b, want)
		}
	}
}

// TestReplCounter checks the counts of every encoding against a full
// decode, over input fed in pieces of every size up to 7 bytes.
func TestReplCounter(t *testing.T) {
	var in []byte
	for b := range 256 {
		in = append(in, byte(b), 'a', byte(255-b), byte(b), byte(b^0x55))
	}
	in = append(in, "日本語\xe6\x97\x1b$B\x30\x21\x1b(B\xd8\x00\xdc\x00"...)
	var c replCounter
	for _, e := range override.All() {
		want := replacements(t, e, in)
		for piece := 1; piece <= 7; piece++ {
			c.reset(e)
			for b := in; len(b) > 0; {
				n := min(piece, len(b))
				c.write(b[:n])
				b = b[n:]
			}
			c.close()
			if c.n != want {
				t.Errorf("%v in pieces of %d: %d U+FFFD, want %d", e, piece, c.n, want)
			}
		}
	}
}

// TestProvenanceChangesNothing checks that Options.Provenance changes no
// record's result or text but for its provenance fields, damaged files
// included (a record whose lost declaration is counted is read on to its
// end, and the damage met there must still be its error).
func TestProvenanceChangesNothing(t *testing.T) {
	files := testFiles(t)
	files["provenance"] = provWARC(t, provRecords())
	files["damaged"] = damagedFile(t)
	for name, data := range files {
		for _, text := range []bool{false, true} {
			lines := func(prov bool) []string {
				r := NewReader(bytes.NewReader(data), Options{File: "f", Provenance: prov})
				return warctest.Collect(t, r.Next, func(rec *Record) string {
					var b bytes.Buffer
					if text {
						rec.WriteText(&b)
					}
					res := *rec.Finish()
					res.Provenance, res.Mismatch = sniff.Provenance{}, Mismatch{}
					return marshal(&res) + " " + b.String()
				})
			}
			without, with := lines(false), lines(true)
			if !slices.Equal(with, without) {
				t.Errorf("%s (text %v): %s", name, text, firstDiff(with, without))
			}
		}
	}
}

// TestReplCounterRandom checks the counts against full decodes on random
// input, mostly high bytes and pieces of valid sequences, fed in random
// pieces. (A U+FFFD the UTF-8 input encodes is valid, and counted only by
// a decode: the input has none.)
func TestReplCounterRandom(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	pieces := [][]byte{[]byte("日本"), []byte("\xc3\xa9"), []byte("\xf0\x9f\x98\x80"), []byte("\x1b$B"), []byte("\x1b(B"), []byte("ab")}
	var c replCounter
	for round := range 300 {
		var in []byte
		for range rnd.IntN(200) {
			if rnd.IntN(3) == 0 {
				p := pieces[rnd.IntN(len(pieces))]
				in = append(in, p[:rnd.IntN(len(p)+1)]...)
			} else {
				in = append(in, byte(rnd.IntN(256)))
			}
		}
		in = bytes.ReplaceAll(in, []byte("\uFFFD"), []byte("x"))
		for _, e := range override.All() {
			want := replacements(t, e, in)
			c.reset(e)
			for b := in; len(b) > 0; {
				n := min(1+rnd.IntN(9), len(b))
				c.write(b[:n])
				b = b[n:]
			}
			c.close()
			if c.n != want {
				t.Fatalf("round %d, %v: %d U+FFFD, want %d, in %q", round, e, c.n, want, in)
			}
		}
	}
}

// TestCountingUncounted checks the counts that cannot be made: a payload
// that breaks, and more than maxHold bytes read before sniffing is done.
func TestCountingUncounted(t *testing.T) {
	res := Result{Encoding: override.Windows1252, Confidence: sniff.Certain,
		Provenance: sniff.Provenance{Transport: override.UTF8}}
	body := bytes.Repeat([]byte("caf\xe9 "), 1000)
	var c counting
	c.start(iotest.TimeoutReader(bytes.NewReader(body))) // fails on its second read
	io.ReadFull(&c, make([]byte, 100))
	c.begin(&res)
	c.finish(&res, &c)
	if m := res.Mismatch; !m.Transport || m.TransportReplaced != -1 {
		t.Errorf("a payload that broke: %+v", m)
	}

	res.Mismatch = Mismatch{}
	c.start(bytes.NewReader(bytes.Repeat(body, 20)))
	io.ReadFull(&c, make([]byte, maxHold+1))
	c.begin(&res)
	c.finish(&res, &c)
	if m := res.Mismatch; !m.Transport || m.TransportReplaced != -1 {
		t.Errorf("more than maxHold bytes before sniffing: %+v", m)
	}

	res.Mismatch = Mismatch{}
	c.start(bytes.NewReader(body))
	io.ReadFull(&c, make([]byte, 100))
	c.begin(&res)
	c.finish(&res, &c)
	if m := res.Mismatch; !m.Transport || m.TransportReplaced != 1000 {
		t.Errorf("the whole payload: %+v, want 1000 U+FFFD", m)
	}
}
