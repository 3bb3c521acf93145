package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// maxWindow bounds --window: every worker holds one window in memory.
const maxWindow = 16 << 20

// defaultLookahead is --lookahead's default: the library's, 64 KiB (see
// decode.WithLookahead; TestLookaheadDefault keeps them the same).
const defaultLookahead = 64 << 10

// maxLookahead bounds --lookahead: every worker may hold that many bytes
// read ahead in memory.
const maxLookahead = 64 << 20

// config is the parsed command line.
type config struct {
	contentType  string // --content-type: transport-layer Content-Type header value
	override     string // --override: user override label
	defaultLabel string // --default: default encoding label
	likely       string // --likely: likely encoding label
	locale       string // --locale / --hint-lang: locale or TLD hint for autodetection and the default
	tld          string // --hint-tld: top-level domain or host name hint for autodetection and the default
	lookahead    int64  // --lookahead (or --late-meta): decode.WithLookahead (0: the window alone)
	noAutodetect bool   // --no-autodetect: spec-literal, skip autodetection
	detectAll    bool   // --detect-all: sniff.Options.DetectAll, the wide detector
	window       int    // --window: prescan window in bytes
	legacy       bool   // --legacy-labels: 2008-draft label matching
	decode       bool   // --decode: write the decoded UTF-8 text
	outFile      string // -o: where --decode writes ("" means standard output)
	raw          bool   // --raw: plain WHATWG decode, no newline/NUL preprocessing
	stats        bool   // --stats: summary table at the end
	json         bool   // --json: JSON Lines output
	format       string // --format: text, json, cdxj or parquet ("" for text, or json with --json)
	all          bool   // --all: walk every file, not only HTML file names
	warc         bool   // --warc: read every input as a WARC file
	text         bool   // --text: read inputs that look like binary data as text
	filesFrom    string // --files-from: read the inputs' names from this file ("-": standard input)
	rangeSpec    string // --range OFFSET:LENGTH: read only this byte range of the one FILE
	rng          *span  // rangeSpec parsed
	exitZero     bool   // --exit-zero: exit 0 even if inputs or records failed
	version      bool   // --version

	paths []string // the operands; ["-"] when none was given

	// The encodings the label flags name, resolved at parse time
	// (override.Unknown when not given).
	overrideEnc, defaultEnc, likelyEnc override.Encoding
}

// errHelp is returned by parseArgs for --help (usage goes to standard output
// and the exit status is 0).
var errHelp = errors.New("help requested")

// usageError is a command-line mistake: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// newFlagSet declares the flags into c.
func newFlagSet(c *config) *flag.FlagSet {
	fs := flag.NewFlagSet("charsniff", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by run, usage by printUsage
	fs.StringVar(&c.contentType, "content-type", "", "transport-layer `VALUE` of the Content-Type header, e.g. 'text/html; charset=utf-8'")
	fs.StringVar(&c.override, "override", "", "user override: decode as `LABEL` (certain) unless a BOM says otherwise")
	fs.StringVar(&c.defaultLabel, "default", "", "default encoding `LABEL` when nothing else decides (instead of the locale's)")
	fs.StringVar(&c.likely, "likely", "", "likely encoding `LABEL` (a parent frame's, say), used when no declaration decides, before autodetection")
	fs.StringVar(&c.locale, "locale", "", "locale or top-level domain `HINT` biasing autodetection and choosing the default encoding: a language tag (ja, ru, zh-TW), a POSIX locale (pt_BR.UTF-8), a domain (.kr) or a country code (kr); anything else is a usage error")
	fs.StringVar(&c.locale, "hint-lang", "", "language `TAG` of the document or user (ja, ru, zh-TW): the same as --locale")
	fs.StringVar(&c.tld, "hint-tld", "", "top-level `DOMAIN` or host name of the document's URL (jp, .ru, www.example.cz): biases autodetection and, without --locale, the default")
	fs.Int64Var(&c.lookahead, "lookahead", defaultLookahead, "while the encoding is tentative, look past the window as a browser does (a late <meta>, late autodetection), holding at most `BYTES` to decide (0: the window alone)")
	fs.Int64Var(&c.lookahead, "late-meta", defaultLookahead, "the same as --lookahead `BYTES`")
	fs.BoolVar(&c.noAutodetect, "no-autodetect", false, "spec-literal: skip the autodetection step")
	fs.BoolVar(&c.detectAll, "detect-all", false, "autodetection also guesses encodings browsers never guess (ISO-8859-3, -4, -10, -14, -15, -16, macintosh, x-mac-cyrillic): for old collections, not browser-exact")
	fs.IntVar(&c.window, "window", sniff.DefaultWindow, "prescan window in `BYTES`")
	fs.BoolVar(&c.legacy, "legacy-labels", false, "resolve labels with the 2008 draft's loose matching (old archives)")
	fs.BoolVar(&c.decode, "decode", false, "write the decoded, normalized UTF-8 text to standard output (or -o FILE), each document after a line ==> NAME <== when there are several; with --json and no -o, into each JSON line as \"text\"")
	fs.StringVar(&c.outFile, "o", "", "with --decode: write the text to `FILE`; with --format cdxj or parquet: write the index there")
	fs.BoolVar(&c.raw, "raw", false, "with --decode: plain WHATWG decode (the BOM still removed), without the newline/NUL preprocessing")
	fs.BoolVar(&c.stats, "stats", false, "end with a summary of encodings, sources and the declarations that lost, per file and host (on standard error when standard output has JSON, CDXJ or text)")
	fs.BoolVar(&c.json, "json", false, "one JSON object per document per line (--format json)")
	fs.StringVar(&c.format, "format", "", "the output `FORMAT`: text (the default), json (as --json), or an index of the WARC records: cdxj (CDXJ lines, as pywb and Common Crawl's URL index; standard output or -o FILE) or parquet (a Parquet file with Common Crawl's columnar-index columns, to -o FILE)")
	fs.BoolVar(&c.all, "all", false, "in directories, take every file, not only HTML file names")
	fs.BoolVar(&c.text, "text", false, "read an input that looks like binary data (an image, an executable, control bytes in its first 1445 bytes, a non-text --content-type) as text, as grep -a does, instead of refusing it")
	fs.BoolVar(&c.warc, "warc", false, "read every input as a WARC file (without it, WARC files are recognized by their first bytes)")
	fs.StringVar(&c.filesFrom, "files-from", "", "read more inputs from `LIST`, one a line (- for standard input): PATH, or PATH<TAB>OFFSET<TAB>LENGTH for one WARC record (a Common Crawl columnar index's warc_filename, warc_record_offset, warc_record_length; read as --range); a leading NUMBER<TAB>, as Hadoop Streaming hands a mapper its lines, is dropped; a line of another shape is an error naming it, LIST:LINE")
	fs.StringVar(&c.rangeSpec, "range", "", "read only the byte range `OFFSET:LENGTH` of the one FILE, as a WARC file (a record's coordinates in a CDX or columnar index); offsets in the output are the file's")
	fs.BoolVar(&c.exitZero, "exit-zero", false, "exit 0 even if inputs or records failed (they are still reported): for Hadoop Streaming and Spark, where a non-zero exit fails the task")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	return fs
}

// parseArgs parses the command line. Flags may come before, between or after
// the operands; "--" ends the flags.
func parseArgs(args []string) (*config, error) {
	c := new(config)
	fs := newFlagSet(c)
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, &usageError{doubleDash(err.Error())}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			c.paths = append(c.paths, rest...)
			break
		}
		c.paths = append(c.paths, rest[0])
		args = rest[1:]
	}
	if c.version {
		return c, nil
	}
	if c.window < 1 || c.window > maxWindow {
		return nil, usagef("--window %d: must be between 1 and %d", c.window, maxWindow)
	}
	if c.lookahead < 0 || c.lookahead > maxLookahead {
		return nil, usagef("--lookahead (--late-meta) %d: must be between 0 and %d", c.lookahead, maxLookahead)
	}
	if err := c.checkFormat(); err != nil {
		return nil, err
	}
	if !c.decode {
		if c.raw {
			return nil, usagef("--raw needs --decode")
		}
		if c.outFile != "" && !c.index() {
			return nil, usagef("-o needs --decode, or --format cdxj or parquet")
		}
	}
	if err := c.resolve(); err != nil {
		return nil, err
	}
	if err := c.parseRange(); err != nil {
		return nil, err
	}
	if c.filesFrom == "-" && slices.Contains(c.paths, "-") {
		return nil, usagef("--files-from - and the operand - both read standard input")
	}
	if len(c.paths) == 0 && c.filesFrom == "" {
		c.paths = []string{"-"}
	}
	return c, nil
}

// checkFormat checks --format against the other flags and makes --json
// and --format json one.
func (c *config) checkFormat() error {
	switch c.format {
	case "":
		c.format = formatText
		if c.json {
			c.format = formatJSON
		}
	case formatText, formatJSON, formatCDXJ, formatParquet:
	default:
		return usagef("--format %s: want text, json, cdxj or parquet", c.format)
	}
	if c.json && c.format != formatJSON {
		return usagef("--json and --format %s: choose one", c.format)
	}
	c.json = c.format == formatJSON
	if c.index() && c.decode {
		return usagef("--format %s writes an index of the records, not their text: drop --decode", c.format)
	}
	if c.format == formatParquet && c.outFile == "" {
		return usagef("--format parquet needs -o FILE")
	}
	return nil
}

// index reports that the output is an index of WARC records.
func (c *config) index() bool { return c.format == formatCDXJ || c.format == formatParquet }

// parseRange parses --range, which applies to exactly one FILE.
func (c *config) parseRange() error {
	if c.rangeSpec == "" {
		return nil
	}
	off, n, ok := strings.Cut(c.rangeSpec, ":")
	if !ok {
		return usagef("--range %s: want OFFSET:LENGTH", c.rangeSpec)
	}
	rng, err := parseSpan(off, n)
	if err != nil {
		return usagef("--range: %v", err)
	}
	if len(c.paths) != 1 || c.paths[0] == "-" || c.filesFrom != "" {
		return usagef("--range takes exactly one FILE (and no --files-from)")
	}
	c.rng = rng
	return nil
}

// doubleDash rewrites the flag package's messages, which name flags with one
// dash ("flag provided but not defined: -frobnicate"), in the double-dash
// style of the usage text. One-letter flags (-o) keep one dash.
func doubleDash(msg string) string {
	for _, marker := range []string{"not defined: -", "needs an argument: -", "for flag -"} {
		i := strings.Index(msg, marker)
		if i < 0 {
			continue
		}
		i += len(marker)
		name := msg[i:]
		if j := strings.IndexAny(name, ": "); j >= 0 {
			name = name[:j]
		}
		if len(name) > 1 && name[0] != '-' {
			return msg[:i] + "-" + msg[i:]
		}
		return msg
	}
	return msg
}

const usageHead = `Usage: charsniff [flags] [FILE or DIR ...]

charsniff tells the character encoding of HTML documents the way a browser
does: it runs the WHATWG HTML Standard's encoding sniffing algorithm (byte
order mark, transport layer, <meta> prescan, XML declaration, autodetection,
default) and reports the encoding, how sure it is and which step decided.
With --decode it writes the document as normalized UTF-8 instead.

With no FILE, or when FILE is -, it reads standard input. Directories are
walked recursively for *.html, *.htm, *.xhtml, *.xht and *.shtml files and
web archives (*.warc, *.warc.gz, *.warc.zst, *.warc.lz4, *.arc, *.arc.gz,
or any file whose first bytes are a WARC file's; every file with --all);
hidden files and directories are skipped there,
and so are links to directories (a link named as FILE is followed).
A gzip-compressed input (page.html.gz) is decompressed first; its line has
no bytes field. An input that is binary data (an executable, an image,
control bytes in its first 1445 bytes) gets an error line, not an
encoding; what decides is what decides in a browser, in this order:
--text or --override reads every input; a --content-type naming a type
decides (text, XML, JSON or JavaScript types read, others refuse); a
text file name (.html, .htm, .xhtml, .xml, .txt, .svg, ... see
docs/cli.md) reads; otherwise the MIME Sniffing Standard's rules for an
unknown type, and the encoding sniffing algorithm's answers from the
bytes (a BOM, a <meta>, an XML declaration, the UTF-16 XML prefix) read.
WARC records are taken by their stored Content-Type. An input that is the
file standard output (or -o) writes to is refused, standard input too;
its error line goes to standard error only, even with --json.
Files are read in parallel; output follows the order of the input. A long
run (sniffing or --decode, one large archive included) shows a progress
bar after a second, when standard error is a terminal and standard output
is not: bytes of input done, of the inputs' total size, and their rate.

Output, one line per document:
  PATH: ENCODING (CONFIDENCE, SOURCE)
  PATH: ENCODING (CONFIDENCE, SOURCE, late [same|restarted|restart-needed] at byte N)
with --json:
  {"file":"PATH","encoding":"shift_jis","confidence":"tentative","source":"prescan","bytes":676,
   "provenance":{"prescan":"shift_jis","prescan_rule":"meta","prescan_offset":66,...}}
where provenance is what every step of sniffing saw, and the declarations
that lost with the U+FFFD decoding with them would give (not with --decode).
With --decode and several inputs (or a WARC file's records), each text
comes after a line naming its document, and an empty line before each
header but the first, as head writes several files:
  ==> PATH <==            ==> PATH#OFFSET URI <==
With --decode --json the text is the line's "text" field, last; a document
whose first MiB of text does not settle its encoding has "text" first and
the other fields, final, after it.
ENCODING is the Encoding Standard's name in lower case; CONFIDENCE is certain
or tentative; SOURCE is bom, override, transport, prescan, xml, likely,
autodetect or default. "late" says the encoding changed (or a <meta> named
the encoding in use, or one a browser would reload for) at byte N, past the
first kilobyte; certain then means a <meta> the parser meets decided, and
no later one counts. A failed input gets an error line on standard error
(and, with --json, a line with an "error" field).

WARC files (web archives, Common Crawl; WARC/1.x and 0.18, and ARC), plain
or gzip, zstd or LZ4 compressed, are recognized by their first bytes (--warc
forces it). Each response or resource record with an HTML payload gets a line, sniffed with the stored HTTP Content-Type as
the transport layer and its URI's host as the --hint-tld:
  PATH#OFFSET URI: ENCODING (CONFIDENCE, SOURCE)
  {"file":"crawl.warc.gz","encoding":"shift_jis","confidence":"certain","source":"transport",
   "record_id":"<urn:uuid:...>","uri":"http://example.jp/","offset":1919,"status":200,"http_charset":"Shift_JIS"}
Other records are skipped (--stats counts them). A damaged record gets an
error line with its offset, and the records after it are read. A gzip
WARC file of one member per record is read on all cores, in parts of
256 KiB, each holding up to 1 MiB of output until its turn (2×cores+1
parts at a time); from a pipe, --decode decodes its records on all cores
(2×cores+2 records in flight, each held up to 1 MiB; larger ones are
decoded streaming, in turn). The output is in file order either way.

Flags:
`

const usageTail = `
Examples:
  charsniff page.html
  charsniff --stats ./samples
  charsniff --json --content-type 'text/html; charset=gbk' page.html
  curl -s https://example.com/ | charsniff --locale ja
  charsniff --hint-tld www.example.cz old-page.html
  charsniff --decode -o page.txt page.html
  charsniff --no-autodetect --default windows-1251 old-site/
  charsniff --json --stats crawl.warc.gz > crawl.jsonl
  charsniff --decode --json crawl.warc.gz > texts.jsonl
  charsniff --json --exit-zero --files-from - < warc-paths.txt
  charsniff --json --range 1919:1005 crawl.warc.gz
  printf 'crawl.warc.gz\t1919\t1005\n' | charsniff --json --files-from -

Exit status: 0 if every input and record was processed (or --exit-zero was
given), 1 if any failed (binary data included), the output could not be written or the --files-from
list could not be read, 2 on a usage error (a bad flag value, an unknown
encoding label or --locale), before any input is read.
`

// printUsage writes the help text, listing the flags with double dashes.
func printUsage(w io.Writer) error {
	fs := newFlagSet(new(config))
	var b strings.Builder
	b.WriteString(usageHead)
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		fmt.Fprintf(&b, "  %s%s", dash, f.Name)
		if name != "" {
			fmt.Fprintf(&b, " %s", name)
		}
		fmt.Fprintf(&b, "\n    \t%s", usage)
		if f.Name == "window" {
			fmt.Fprintf(&b, " (default %s)", f.DefValue)
		}
		b.WriteByte('\n')
	})
	b.WriteString(usageTail)
	_, err := io.WriteString(w, b.String())
	return err
}

// version returns the module version the binary was built from, with the VCS
// revision when the build recorded one.
func version() string {
	v, rev, dirty := "devel", "", false
	if info, ok := debug.ReadBuildInfo(); ok {
		if mv := info.Main.Version; mv != "" && mv != "(devel)" {
			v = mv
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += " " + rev
		if dirty {
			v += "+dirty"
		}
	}
	return v
}
