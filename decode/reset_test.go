package decode

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestResetAfterHold resets a Reader that stopped at Decided while it
// still held bytes read ahead: the next stream must not see them.
func TestResetAfterHold(t *testing.T) {
	late := []byte("<html>" + strings.Repeat("abc ", 400) + "\xe9t\xe9" + strings.Repeat("xyz ", 3000) + "</html>")
	docs := [][]byte{
		[]byte("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<rss>" + strings.Repeat("abc ", 400) + "\x82\xa0\x82\xa2</rss>"),
		[]byte("<?xml version=\"1.0\" encoding=\"Big5\"?>\n<rss>" + strings.Repeat("abc ", 400) + "\xa4\xa4\xa4\xe5</rss>"),
		late,
	}
	for _, doc := range docs {
		fresh, _ := NewReader(bytes.NewReader(doc))
		want, _ := io.ReadAll(fresh)
		r, _ := NewReader(bytes.NewReader(late))
		buf := make([]byte, 10)
		for !r.Result().Decided {
			if _, err := r.Read(buf); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Reset(bytes.NewReader(doc)); err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		if r.Result() != fresh.Result() || !bytes.Equal(got, want) {
			t.Errorf("after Reset: %+v, %d bytes\nfresh:       %+v, %d bytes", r.Result(), len(got), fresh.Result(), len(want))
		}
	}
}
