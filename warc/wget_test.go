package warc

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/internal/warctest"
)

var updateWget = flag.Bool("update-wget", false, "rewrite testdata/wget.warc.gz with a fresh wget crawl")

// crawl runs wget on the test site (warctest.Site, the site the committed
// testdata/wget.warc.gz was made from) and returns the WARC file it wrote.
func crawl(t *testing.T, compress bool) (warcPath, base string) {
	t.Helper()
	srv := warctest.NewSite(warctest.Site)
	defer srv.Close()
	return warctest.Wget(t, srv.URL+"/", t.TempDir(), compress), srv.URL
}

func TestWget(t *testing.T) {
	for _, compress := range []bool{true, false} {
		t.Run(fmt.Sprintf("compress=%v", compress), func(t *testing.T) {
			path, base := crawl(t, compress)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !IsWARC(data[:min(len(data), SniffLen)]) {
				t.Errorf("IsWARC(wget's file) = false")
			}
			checkCrawl(t, data, base)
			if compress && *updateWget {
				if err := os.WriteFile("testdata/wget.warc.gz", data, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote testdata/wget.warc.gz (%d bytes) from a crawl of %s", len(data), base)
			}
		})
	}
}

// TestWgetTestdata checks the wget-made WARC file committed in testdata,
// so that the checks run where wget is missing.
func TestWgetTestdata(t *testing.T) {
	checkCrawl(t, warctest.Testdata(t, "wget.warc.gz"), "")
}

// checkCrawl checks every record of a WARC file that wget wrote crawling
// the test site at base ("" to match any host): the warcinfo record, a
// request and a response for each page with its status, Content-Type and
// payload, then wget's metadata and log records.
func checkCrawl(t *testing.T, data []byte, base string) {
	t.Helper()
	pages := map[string]warctest.Page{}
	for _, p := range warctest.Site {
		pages[p.Path] = p
	}
	seen := map[string]bool{}
	var types []string
	eachRecord(t, NewReader(bytes.NewReader(data)), func(_ int, rec *Record) error {
		types = append(types, rec.Type)
		if rec.RecordID == "" || rec.Date.IsZero() || rec.Version != "1.0" {
			t.Errorf("record %d: RecordID %q, Date %v, Version %q", len(types), rec.RecordID, rec.Date, rec.Version)
		}
		switch rec.Type {
		case "warcinfo":
			if len(types) != 1 || rec.ContentType != "application/warc-fields" {
				t.Errorf("warcinfo record at %d with Content-Type %q", len(types), rec.ContentType)
			}
		case "request", "response":
			path := rec.TargetURI
			if base != "" {
				if !strings.HasPrefix(path, base+"/") {
					t.Errorf("%s record for %q: not on %s", rec.Type, rec.TargetURI, base)
					return nil
				}
				path = strings.TrimPrefix(path, base)
			} else if i := strings.Index(path, "://"); i >= 0 {
				if j := strings.IndexByte(path[i+3:], '/'); j >= 0 {
					path = path[i+3+j:]
				}
			}
			page, ok := pages[path]
			if !ok {
				t.Errorf("%s record for unknown page %q", rec.Type, rec.TargetURI)
				return nil
			}
			if rec.Type == "request" {
				if _, err := rec.Payload(); !errors.Is(err, ErrNoPayload) {
					t.Errorf("request %s: Payload error %v, want ErrNoPayload", path, err)
				}
				return nil
			}
			seen[path] = true
			checkResponse(t, rec, page)
		case "metadata", "resource":
			if !strings.HasPrefix(rec.TargetURI, "metadata://gnu.org/software/wget/warc/") {
				t.Errorf("%s record for %q", rec.Type, rec.TargetURI)
			}
		default:
			t.Errorf("unexpected %s record", rec.Type)
		}
		return nil
	})
	for _, p := range warctest.Site {
		if !seen[p.Path] {
			t.Errorf("no response record for %s", p.Path)
		}
	}
	if want := 1 + 2*len(warctest.Site) + 3; len(types) != want {
		t.Errorf("got %d records (%v), want %d", len(types), types, want)
	}
}

func checkResponse(t *testing.T, rec *Record, page warctest.Page) {
	t.Helper()
	if !strings.HasPrefix(rec.ContentType, "application/http") {
		t.Errorf("%s: record Content-Type %q", page.Path, rec.ContentType)
	}
	p, err := rec.Payload()
	if err != nil {
		t.Errorf("%s: Payload: %v", page.Path, err)
		return
	}
	wantStatus := page.Status
	if wantStatus == 0 {
		wantStatus = 200
	}
	if p.StatusCode != wantStatus {
		t.Errorf("%s: StatusCode = %d, want %d", page.Path, p.StatusCode, wantStatus)
	}
	if p.ContentType != page.ContentType {
		t.Errorf("%s: ContentType = %q, want %q", page.Path, p.ContentType, page.ContentType)
	}
	wantCharset, _ := reference.ContentTypeCharset(page.ContentType)
	if p.Charset != wantCharset {
		t.Errorf("%s: Charset = %q, want %q", page.Path, p.Charset, wantCharset)
	}
	if got := p.Header.Get("Content-Encoding"); got != page.Coding {
		t.Errorf("%s: Content-Encoding %q, want %q", page.Path, got, page.Coding)
	}
	if got := p.Header.Get("Transfer-Encoding"); (got == "chunked") != page.Chunked {
		t.Errorf("%s: Transfer-Encoding %q, chunked %v", page.Path, got, page.Chunked)
	}
	if wantHTML := strings.Contains(page.Text, "<html"); p.IsHTML() != wantHTML {
		t.Errorf("%s: IsHTML = %v, want %v", page.Path, !wantHTML, wantHTML)
	}
	if p.Undecoded != "" {
		t.Errorf("%s: Undecoded = %q", page.Path, p.Undecoded)
	}
	got, err := io.ReadAll(p.Body)
	if err != nil {
		t.Errorf("%s: reading payload: %v", page.Path, err)
	}
	if want := page.Body(); !bytes.Equal(got, want) {
		t.Errorf("%s: payload\ngot  %q\nwant %q", page.Path, got, want)
	}
}
