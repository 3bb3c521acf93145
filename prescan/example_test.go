package prescan_test

import (
	"fmt"

	"github.com/charsniff/charsniff/prescan"
)

func ExamplePrescan() {
	head := []byte(`<!DOCTYPE html><html><head>
<!-- <meta charset="utf-8"> is inside a comment -->
<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">`)

	r := prescan.Prescan(head, nil)
	fmt.Println(r.Encoding, r.Rule, r.Offset == len(head))
	// Output: Shift_JIS meta true
}

func ExampleScanner() {
	// A reader feeds the stream as it arrives; a chunk boundary may fall
	// anywhere, even inside the declaration.
	var s prescan.Scanner
	s.Reset(nil)
	for _, chunk := range []string{`<?xml version="1.0" enc`, `oding="windows-1251"?>`, `<p>...`} {
		s.Feed([]byte(chunk))
	}
	r := s.Close()
	fmt.Println(r.Encoding, r.Rule, r.Offset)
	// Output: windows-1251 xml 45
}
