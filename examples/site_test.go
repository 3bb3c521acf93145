package examples_test

import (
	"net/http/httptest"

	"github.com/charsniff/charsniff/internal/warctest"
)

// site serves the pages of the examples: the test site that
// warc/testdata/wget.warc.gz was crawled from (warctest.Site), also served
// by the charsniff package's own examples. Its pages are in legacy
// encodings, which goquery and colly (through golang.org/x/net/html) would
// read as UTF-8, and each page's paragraph says how it is served:
// /sjis.html and /euckr.html declare theirs only in the header, /gbk.html
// only in a <meta>, and /cp1251.html in a <meta>, gzip-encoded.
func site() *httptest.Server {
	return warctest.NewSite(warctest.Site)
}
