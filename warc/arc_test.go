package warc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charsniff/charsniff/internal/warctest"
)

// TestARC reads warcio's ARC file, plain and as .arc.gz: the filedesc
// record and the capture, as WARC records.
func TestARC(t *testing.T) {
	for _, tc := range []struct {
		file string
		offs []int64
	}{
		{"example.arc", []int64{0, 151}},
		{"example.arc.gz", []int64{0, 171}},
	} {
		var got []string
		n := eachRecord(t, NewReader(bytes.NewReader(warctest.Testdata(t, "warcio/"+tc.file))), func(i int, rec *Record) error {
			line := fmt.Sprintf("%s %s %s %s %d @%d %s ip=%s", rec.Version, rec.Type, rec.TargetURI, rec.ContentType, rec.ContentLength, rec.Offset, rec.Date.Format(time.RFC3339), rec.Header.Get("WARC-IP-Address"))
			if p, err := rec.Payload(); err == nil {
				body, err := io.ReadAll(p.Body)
				line += fmt.Sprintf(" [%s %v %d %v]", p.ContentType, p.IsHTML(), len(body), err)
			}
			got = append(got, line)
			if rec.Offset != tc.offs[i] {
				return fmt.Errorf("record %d at %d, want %d", i, rec.Offset, tc.offs[i])
			}
			return nil
		})
		want := []string{
			fmt.Sprintf("ARC/1 warcinfo filedesc://live-web-example.arc.gz text/plain 75 @%d 2014-02-16T05:02:21Z ip=127.0.0.1", tc.offs[0]),
			fmt.Sprintf("ARC/1 response http://example.com/ application/http; msgtype=response 1591 @%d 2014-02-16T05:02:21Z ip=93.184.216.119 [text/html true 1270 <nil>]", tc.offs[1]),
		}
		if n != 2 || !slices.Equal(got, want) {
			t.Errorf("%s:\n%s", tc.file, warctest.DiffLines(got, want))
		}
	}
}

// TestARCSpaceInURL reads warcio's capture whose URL has spaces and whose
// block ends 12 bytes before its Archive-length.
func TestARCSpaceInURL(t *testing.T) {
	wr := NewReader(bytes.NewReader(warctest.Testdata(t, "warcio/example-space-in-url.arc")))
	var uris []string
	var errs []error
	for rec, err := range records(t, wr) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		uris = append(uris, rec.TargetURI)
		if _, err := io.ReadAll(rec.Body); err != nil {
			errs = append(errs, err)
		}
	}
	wantURIs := []string{"filedesc://live-web-example.arc.gz", "http://example.com/index.cfm?FuseAction=Email&EmailTitle=Examples From The Live Web&IsPopUp=False"}
	if !slices.Equal(uris, wantURIs) || len(errs) != 1 || !errors.Is(errs[0], ErrTruncated) {
		t.Errorf("URIs %q, errors %v; want %q and ErrTruncated", uris, errs, wantURIs)
	}
}

// arcCrawl returns an ARC file of warcio's filedesc record and copies of
// its capture under other URLs, with the block length of capture bad
// changed by delta, and the records' names and offsets.
func arcCrawl(t *testing.T, n, bad, delta int) (segs [][]byte, names []string) {
	in := warctest.Testdata(t, "warcio/example.arc")
	segs = append(segs, in[:151])
	names = append(names, "filedesc://live-web-example.arc.gz")
	capture := in[151:]
	for i := range n {
		url := fmt.Sprintf("http://example.com/%d", i)
		seg := bytes.Replace(capture, []byte("http://example.com/ "), []byte(url+" "), 1)
		if i == bad {
			seg = bytes.Replace(seg, []byte(" 1591\n"), []byte(fmt.Sprintf(" %d\n", 1591+delta)), 1)
		}
		segs = append(segs, seg)
		names = append(names, url)
	}
	return segs, names
}

// TestARCResync damages one capture's Archive-length in a generated ARC
// file (plain, and a gzip member per record): it is reported once, and
// every other record is read, through every chunking.
func TestARCResync(t *testing.T) {
	// (-1 is not seen: the block ends in a newline, taken for the one
	// after it, and the real one is a blank line.)
	for _, delta := range []int{-300, -2, 1, 300, 5000} {
		segs, names := arcCrawl(t, 8, 3, delta)
		for _, form := range []string{"plain", "members"} {
			var in bytes.Buffer
			var offs []int
			for _, s := range segs {
				offs = append(offs, in.Len())
				if form == "plain" {
					in.Write(s)
				} else {
					in.Write(warctest.Gzip(s))
				}
			}
			var want []string
			for i, name := range names {
				want = append(want, fmt.Sprintf("%s @%d", name, offs[i]))
				if i == 4 {
					kind := "length"
					if form == "members" && delta > 1 {
						// The member ends first, and the next one
						// starts a record. (At +1 it ends with the
						// block, which took the newline.)
						kind = "truncated"
					}
					want = append(want, fmt.Sprintf("err %s @%d", kind, offs[i]))
				}
			}
			for _, ch := range chunkings {
				var got []string
				wr := NewReader(ch.Wrap(bytes.NewReader(in.Bytes())))
				for rec, err := range records(t, wr) {
					var re *RecordError
					if errors.As(err, &re) {
						got = append(got, fmt.Sprintf("err %s @%d", kind(err), re.Offset))
						continue
					}
					if err != nil {
						got = append(got, "fatal "+err.Error())
						break
					}
					got = append(got, fmt.Sprintf("%s @%d", rec.TargetURI, rec.Offset))
				}
				if !slices.Equal(got, want) {
					t.Errorf("delta %d, %s, %s:\n%s", delta, form, ch.Name, warctest.DiffLines(got, want))
				}
			}
		}
	}
}

// TestARCGarbage puts garbage between ARC records: one error for it, and
// the records after it.
func TestARCGarbage(t *testing.T) {
	segs, names := arcCrawl(t, 3, -1, 0)
	in := slices.Concat(segs[0], segs[1], []byte("some garbage\nhttp://x 1.2.3.4 notadate text/html 5\n"), segs[2], segs[3])
	var got []string
	for rec, err := range records(t, NewReader(bytes.NewReader(in))) {
		if err != nil {
			got = append(got, "err "+kind(err))
			continue
		}
		got = append(got, rec.TargetURI)
	}
	want := []string{names[0], names[1], "err garbage", names[2], names[3]}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestParseARCLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{"http://example.com/ 93.184.216.119 20140216050221 text/html 1591", true},
		{"filedesc://x.arc 127.0.0.1 20140216050221 text/plain 75", true},
		{"dns:example.com 1.2.3.4 20140216050221 text/dns 56", true},
		{"http://a b c/ 1.2.3.4 20140216050221 text/html 1", true},
		{"http://x/ ::1 201402160502 - 0", true},
		{"http://x/ 1.2.3.4 2014021605 text/html 1", false},       // short date
		{"http://x/ 1.2.3.4 20140216050221 text/html -1", false},  // negative length
		{"http://x/ 1.2.3.4 20140216050221 text/html", false},     // 4 fields
		{"example.com 1.2.3.4 20140216050221 text/html 1", false}, // no scheme
		{"http://x/ host 20140216050221 text/html 1", false},      // not an address
		{"WARC/1.0", false},
	} {
		if _, ok := parseARCLine([]byte(tc.line)); ok != tc.ok {
			t.Errorf("parseARCLine(%q) = %v, want %v", tc.line, ok, tc.ok)
		}
	}
	if k, err := Detect(warctest.Testdata(t, "warcio/example.arc.gz")); err != nil || k.Format != "ARC" || k.Container != Gzip {
		t.Errorf("Detect(example.arc.gz) = %+v, %v", k, err)
	}
	if !strings.HasPrefix(string(warctest.Testdata(t, "warcio/example.arc")), "filedesc://") || !IsWARC(warctest.Testdata(t, "warcio/example.arc")) {
		t.Errorf("IsWARC(example.arc) = false")
	}
}
