package charsniff_test

import (
	"net/http"

	"golang.org/x/net/html"

	charset "github.com/charsniff/charsniff" // was "golang.org/x/net/html/charset"
)

// parseSwitched is the one-line switch from x/net/html/charset.
func parseSwitched(resp *http.Response) (*html.Node, error) {
	r, err := charset.NewReader(resp.Body, resp.Header.Get("Content-Type"))
	if err != nil {
		return nil, err
	}
	doc, err := html.Parse(r)
	return doc, err
}
