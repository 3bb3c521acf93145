package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/charsniff/charsniff/sniff"
)

// latePage is an HTML page whose <meta> lies past the 1024-byte window,
// after a prefix holding prefix (ASCII or not), then body in the declared
// encoding.
func latePage(prefix, label string, body []byte) []byte {
	var b bytes.Buffer
	b.WriteString("<html><head><title>")
	b.WriteString(prefix)
	b.WriteString("</title><!-- ")
	b.WriteString(strings.Repeat("padding ", 400))
	b.WriteString(" --><meta charset=" + label + "></head><body>")
	b.Write(body)
	b.WriteString("</body></html>\n")
	return b.Bytes()
}

// TestLookaheadDefault checks that --lookahead's default is a Reader's
// without WithLookahead: a <meta> a little less, and a little more, than
// defaultLookahead bytes past the first non-ASCII byte is acted on, or
// not, by both alike.
func TestLookaheadDefault(t *testing.T) {
	var got []string
	for _, gap := range []int{defaultLookahead - 512, defaultLookahead + 512} {
		page := "<html><title>\xE9</title><!-- " + strings.Repeat("p", gap) + " --><meta charset=koi8-r>"
		var stdout, stderr bytes.Buffer
		if code := run([]string{"--json", "--no-autodetect"}, strings.NewReader(page), &stdout, &stderr); code != 0 {
			t.Fatalf("gap %d: exit %d, stderr %q", gap, code, stderr.String())
		}
		var line struct{ Encoding string }
		if err := json.Unmarshal(stdout.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		rd, err := decode.NewReader(strings.NewReader(page), decode.WithSniff(sniff.Options{NoAutodetect: true}))
		if err != nil {
			t.Fatal(err)
		}
		rd.Settle(nil, -1)
		if want := rd.Result().Encoding.LowerName(); line.Encoding != want {
			t.Errorf("gap %d: the command's default lookahead gives %s, the library's %s", gap, line.Encoding, want)
		}
		got = append(got, line.Encoding)
	}
	if want := []string{"koi8-r", "windows-1252"}; !slices.Equal(got, want) {
		t.Errorf("encodings = %q, want %q: the pages do not straddle the default", got, want)
	}
}

func TestLateMeta(t *testing.T) {
	sjis, _ := japanese.ShiftJIS.NewEncoder().Bytes([]byte("日本語のページ"))
	cyr, _ := charmap.Windows1251.NewEncoder().Bytes([]byte("Жизнь"))
	body, _ := charmap.Windows1251.NewEncoder().Bytes([]byte("Привет"))
	ascii := latePage("plain", "shift_jis", sjis)
	nonASCII := latePage(string(cyr), "windows-1251", body)
	offset := func(page []byte) string {
		i := bytes.Index(page, []byte("></head>"))
		return strconv.Itoa(i + 1)
	}
	firstHigh := func(page []byte) string {
		return strconv.Itoa(bytes.IndexFunc(page, func(r rune) bool { return r >= 0x80 }))
	}
	tests := []struct {
		desc string
		page []byte
		args []string
		want string
	}{
		{"off: the sniffing answer", ascii, []string{"--json", "--no-autodetect", "--lookahead", "0"},
			`{"file":"-","encoding":"windows-1252","confidence":"tentative","source":"default"}`},
		{"default: switched on the fly", ascii, []string{"--json", "--no-autodetect"},
			`{"file":"-","encoding":"shift_jis","confidence":"certain","source":"prescan","late":{"change":"switched","from":"windows-1252","offset":` + offset(ascii) + `}}`},
		{"ASCII prefix: switched on the fly", ascii, []string{"--json", "--no-autodetect", "--late-meta", "65536"},
			`{"file":"-","encoding":"shift_jis","confidence":"certain","source":"prescan","late":{"change":"switched","from":"windows-1252","offset":` + offset(ascii) + `}}`},
		{"non-ASCII prefix: switched at the first non-ASCII byte", nonASCII, []string{"--json", "--no-autodetect", "--lookahead", "65536"},
			`{"file":"-","encoding":"windows-1251","confidence":"certain","source":"prescan","late":{"change":"switched","from":"windows-1252","offset":` + firstHigh(nonASCII) + `},"provenance":{"detected":"windows-1251","strength":"statistical"}}`},
		{"declaration past the limit", ascii, []string{"--json", "--no-autodetect", "--late-meta", "2048"},
			`{"file":"-","encoding":"windows-1252","confidence":"tentative","source":"default"}`},
		{"certain: nothing to change", ascii, []string{"--json", "--late-meta", "65536", "--content-type", "text/html; charset=utf-8"},
			`{"file":"-","encoding":"utf-8","confidence":"certain","source":"transport","provenance":{"transport_label":"utf-8","transport":"utf-8"}}`},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, bytes.NewReader(tc.page), &stdout, &stderr)
			if got := strings.TrimSpace(stdout.String()); got != tc.want || code != 0 {
				t.Errorf("run(%q):\ngot  %s, exit %d, stderr %q\nwant %s, exit 0", tc.args, got, code, stderr.String(), tc.want)
			}
		})
	}

	// --decode gives the text in the declared encoding either way, reading
	// each file once.
	dir := t.TempDir()
	for _, p := range []struct {
		name string
		page []byte
		want string
	}{
		{"ascii.html", ascii, "<body>日本語のページ</body>"},
		{"cyrillic.html", nonASCII, "<title>Жизнь</title>"},
		{"cyrillic-body.html", nonASCII, "<body>Привет</body>"},
	} {
		path := filepath.Join(dir, p.name)
		if err := os.WriteFile(path, p.page, 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := run([]string{"--decode", "--no-autodetect", "--late-meta", "65536", path}, nil, &stdout, &stderr)
		if code != 0 || !strings.Contains(stdout.String(), p.want) {
			t.Errorf("--decode %s: exit %d, stderr %q, output lacks %q", p.name, code, stderr.String(), p.want)
		}
	}

	// --decode --json writes the line before the text: it holds the final
	// decision all the same, for a plain file and for a WARC record.
	for _, args := range [][]string{{"--decode", "--json", "--no-autodetect", "-"}, {"--decode", "--json", "--no-autodetect", "--warc", "-"}} {
		in := ascii
		if slices.Contains(args, "--warc") {
			in = warctest.Bytes(warctest.Response("http://example.com/", warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, ascii)), false)
		}
		var stdout, stderr bytes.Buffer
		code := run(args, bytes.NewReader(in), &stdout, &stderr)
		line := stdout.String()
		if code != 0 || !strings.Contains(line, `"encoding":"shift_jis","confidence":"certain","source":"prescan","late":{"change":"switched","from":"windows-1252"`) || !strings.Contains(line, "日本語のページ") {
			t.Errorf("%q: exit %d, stderr %q, line %.300s", args, code, stderr.String(), line)
		}
	}

	// A bad limit is a usage error.
	var stdout, stderr bytes.Buffer
	for _, flag := range []string{"--late-meta", "--lookahead"} {
		stdout.Reset()
		stderr.Reset()
		if code := run([]string{flag, "-1"}, strings.NewReader(""), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "--lookahead (--late-meta)") {
			t.Errorf("%s -1: exit %d, stderr %q, want 2 and a message naming the flag", flag, code, stderr.String())
		}
	}
}

// TestLateTextLine checks that the text line says what happened after the
// window: a switch, a <meta> naming the encoding in use, one the bytes
// read rule out, and nothing when nothing changed (issue 24: a <meta>
// inside a script changes nothing).
func TestLateTextLine(t *testing.T) {
	pad := strings.Repeat("x", 1258)
	script := pad + "<script>var s = '<meta charset=iso-8859-2>';</script><p>\xb1</p>"
	sw := pad + "<meta charset=iso-8859-2><p>\xb1</p>"
	same := pad + "<meta charset=windows-1252><p>\xb1</p>"
	restart := pad + "<meta charset=iso-2022-kr><p>x</p>"
	jis := pad + "<meta charset=iso-2022-jp><p>x</p>"
	restarted := "<script>s = '<meta charset=utf-8>'</script><meta charset=iso-2022-kr><p>x</p>" + pad
	end := func(s, sub string) string { return strconv.Itoa(strings.Index(s, sub) + len(sub)) }
	for _, tc := range []struct {
		desc, page string
		want       string
	}{
		{"switched", sw, "-: iso-8859-2 (certain, prescan, late at byte " + end(sw, "<meta charset=iso-8859-2>") + ")"},
		{"same", same, "-: windows-1252 (certain, prescan, late same at byte " + end(same, "<meta charset=windows-1252>") + ")"},
		{"restart needed", restart, "-: windows-1252 (certain, prescan, late restart-needed at byte " + end(restart, "<meta charset=iso-2022-kr>") + ")"},
		{"ISO-2022-JP after ASCII: switched", jis, "-: iso-2022-jp (certain, prescan, late at byte " + end(jis, "<meta charset=iso-2022-jp>") + ")"},
		{"restarted in the window", restarted, "-: replacement (certain, prescan, late restarted at byte " + end(restarted, "<meta charset=iso-2022-kr>") + ")"},
		{"in a script: nothing", script, "-: windows-1252 (tentative, default)"},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"--no-autodetect"}, strings.NewReader(tc.page), &stdout, &stderr)
		if got := strings.TrimSpace(stdout.String()); got != tc.want || code != 0 {
			t.Errorf("%s: got %q, exit %d, stderr %q; want %q", tc.desc, got, code, stderr.String(), tc.want)
		}
	}
}

// TestLateRestartJSON: --decode --json says "restarted" for a late <meta>
// in the window a browser reloads the page for, with the reload's text,
// and "restart-needed" past the window, with the old encoding's text.
func TestLateRestartJSON(t *testing.T) {
	pad := strings.Repeat("x", 1258)
	jp := "\x1b$BF|K\\8l\x1b(B" // 日本語
	head := "<title>" + jp + "</title><script>s = '<meta charset=utf-8>'</script><meta charset=iso-2022-jp>"
	past := pad + "<title>" + jp + "</title><meta charset=iso-2022-jp>"
	for _, tc := range []struct {
		desc, page string
		want       string
	}{
		{"restarted", head + "<p>" + jp,
			`{"file":"-","encoding":"iso-2022-jp","confidence":"certain","source":"prescan","late":{"change":"restarted","from":"utf-8","offset":` + strconv.Itoa(len(head)) + `},"text":"<title>日本語</title><script>s = '<meta charset=utf-8>'</script><meta charset=iso-2022-jp><p>日本語"}`},
		{"restart needed", past,
			`{"file":"-","encoding":"windows-1252","confidence":"certain","source":"prescan","late":{"change":"restart-needed","from":"windows-1252","offset":` + strconv.Itoa(len(past)) + `},"text":"` + pad + `<title>\u001b$BF|K\\8l\u001b(B</title><meta charset=iso-2022-jp>"}`},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"--decode", "--json"}, strings.NewReader(tc.page), &stdout, &stderr)
		if got := strings.TrimSpace(stdout.String()); got != tc.want || code != 0 {
			t.Errorf("%s: got  %s, exit %d, stderr %q\nwant %s", tc.desc, got, code, stderr.String(), tc.want)
		}
	}
}
