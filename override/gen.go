//go:build ignore

// gen.go writes tables.go from the WHATWG Encoding Standard's label table
// (internal/spec/whatwg-encoding/encodings.json) and the hand-chosen legacy
// alias tables below. Run it with "go generate" in this directory.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"sort"
	"strings"
)

const (
	input    = "../internal/spec/whatwg-encoding/encodings.json"
	revision = "whatwg/encoding@a985b62a9b45c17da3e17a9f0a0b4e30c34c4a8a"
)

// consts names the Go identifier of every encoding of the standard, in the
// standard's order. An encoding missing here stops generation.
var consts = map[string]string{
	"UTF-8":          "UTF8",
	"IBM866":         "IBM866",
	"ISO-8859-2":     "ISO8859_2",
	"ISO-8859-3":     "ISO8859_3",
	"ISO-8859-4":     "ISO8859_4",
	"ISO-8859-5":     "ISO8859_5",
	"ISO-8859-6":     "ISO8859_6",
	"ISO-8859-7":     "ISO8859_7",
	"ISO-8859-8":     "ISO8859_8",
	"ISO-8859-8-I":   "ISO8859_8I",
	"ISO-8859-10":    "ISO8859_10",
	"ISO-8859-13":    "ISO8859_13",
	"ISO-8859-14":    "ISO8859_14",
	"ISO-8859-15":    "ISO8859_15",
	"ISO-8859-16":    "ISO8859_16",
	"KOI8-R":         "KOI8R",
	"KOI8-U":         "KOI8U",
	"macintosh":      "Macintosh",
	"windows-874":    "Windows874",
	"windows-1250":   "Windows1250",
	"windows-1251":   "Windows1251",
	"windows-1252":   "Windows1252",
	"windows-1253":   "Windows1253",
	"windows-1254":   "Windows1254",
	"windows-1255":   "Windows1255",
	"windows-1256":   "Windows1256",
	"windows-1257":   "Windows1257",
	"windows-1258":   "Windows1258",
	"x-mac-cyrillic": "XMacCyrillic",
	"GBK":            "GBK",
	"gb18030":        "GB18030",
	"Big5":           "Big5",
	"EUC-JP":         "EUCJP",
	"ISO-2022-JP":    "ISO2022JP",
	"Shift_JIS":      "ShiftJIS",
	"EUC-KR":         "EUCKR",
	"replacement":    "Replacement",
	"UTF-16BE":       "UTF16BE",
	"UTF-16LE":       "UTF16LE",
	"x-user-defined": "XUserDefined",
}

// legacyAliases are the names that the 2008 HTML draft (section 2.7,
// "Character encodings") asked user agents to accept on top of each
// encoding's own name: its "additional character encoding aliases" table,
// the input encodings of its "character encoding overrides" table, and the
// IANA character-set registry names and aliases of the charsets those
// tables and the WHATWG encodings stand for. Each maps to the WHATWG encoding
// that a browser uses for it; the draft's override targets windows-949 and
// windows-31J are EUC-KR and Shift_JIS in the current standard.
// Matching is loose (UTS #22), so punctuation and case need not be listed.
var legacyAliases = map[string]string{
	// Additional character encoding aliases (2008 draft).
	"x-sjis":      "Shift_JIS", // windows-31J
	"windows-932": "Shift_JIS", // windows-31J
	"x-x-big5":    "Big5",
	// Character encoding overrides (2008 draft): input encodings.
	"GB_2312-80":     "GBK",
	"KS_C_5601-1987": "EUC-KR", // windows-949
	"ISO-8859-11":    "windows-874",
	"TIS-620":        "windows-874",
	// The override targets themselves.
	"windows-949":  "EUC-KR",
	"windows-31J":  "Shift_JIS",
	"csWindows31J": "Shift_JIS",
	// IANA registry names and aliases (https://www.iana.org/assignments/character-sets).
	"ISO_8859-1:1987":  "windows-1252",
	"iso-ir-100":       "windows-1252",
	"ISO_8859-1":       "windows-1252",
	"latin1":           "windows-1252",
	"l1":               "windows-1252",
	"IBM819":           "windows-1252",
	"CP819":            "windows-1252",
	"csISOLatin1":      "windows-1252",
	"ANSI_X3.4-1986":   "windows-1252",
	"iso-ir-6":         "windows-1252",
	"ISO_646.irv:1991": "windows-1252",
	"ISO646-US":        "windows-1252",
	"us":               "windows-1252",
	"IBM367":           "windows-1252",
	"cp367":            "windows-1252",
	"csASCII":          "windows-1252",
	"ISO_8859-2:1987":  "ISO-8859-2",
	"latin2":           "ISO-8859-2",
	"l2":               "ISO-8859-2",
	"ISO_8859-3:1988":  "ISO-8859-3",
	"latin3":           "ISO-8859-3",
	"l3":               "ISO-8859-3",
	"ISO_8859-4:1988":  "ISO-8859-4",
	"latin4":           "ISO-8859-4",
	"l4":               "ISO-8859-4",
	"ISO_8859-5:1988":  "ISO-8859-5",
	"ISO_8859-6:1987":  "ISO-8859-6",
	"ECMA-114":         "ISO-8859-6",
	"ISO_8859-7:1987":  "ISO-8859-7",
	"ISO_8859-8:1988":  "ISO-8859-8",
	"ISO_8859-9:1989":  "windows-1254",
	"latin5":           "windows-1254",
	"l5":               "windows-1254",
	"latin6":           "ISO-8859-10",
	"l6":               "ISO-8859-10",
	"latin-9":          "ISO-8859-15",
	"latin10":          "ISO-8859-16",
	"l10":              "ISO-8859-16",
	"ISO_8859-16:2001": "ISO-8859-16",
	"iso-ir-226":       "ISO-8859-16",
	"csISOLatin10":     "ISO-8859-16",
	"csKOI8U":          "KOI8-U",
	"MS936":            "GBK",
	"windows-936":      "GBK",
	"CP936":            "GBK",
	"csGBK":            "GBK",
	"csGB18030":        "gb18030",
	"Big5-HKSCS":       "Big5",
	"csBig5HKSCS":      "Big5",
	"Extended_UNIX_Code_Packed_Format_for_Japanese": "EUC-JP",
	"csEUCPkdFmtJapanese":                           "EUC-JP",
	"MS_Kanji":                                      "Shift_JIS",
	"csShiftJIS":                                    "Shift_JIS",
	"csISO2022JP":                                   "ISO-2022-JP",
	"csEUCKR":                                       "EUC-KR",
	"UTF-16":                                        "UTF-16LE", // the 2008 draft: UTF-16 without a BOM is UTF-16LE
	"csUTF16":                                       "UTF-16LE",
	"csUTF16LE":                                     "UTF-16LE",
	"csUTF16BE":                                     "UTF-16BE",
	"csUTF8":                                        "UTF-8",
	"csWindows1250":                                 "windows-1250",
	"csWindows1251":                                 "windows-1251",
	"csWindows1252":                                 "windows-1252",
	"csWindows1253":                                 "windows-1253",
	"csWindows1254":                                 "windows-1254",
	"csWindows1255":                                 "windows-1255",
	"csWindows1256":                                 "windows-1256",
	"csWindows1257":                                 "windows-1257",
	"csWindows1258":                                 "windows-1258",
	"csPC866":                                       "IBM866",
	"IBM866":                                        "IBM866",
}

// forbidden are charsets that must never be returned under any label
// (HTML: CESU-8, UTF-7, BOCU-1, SCSU; UTF-32 and EBCDIC are not supported).
// Generation fails if a legacy alias loosely matches one of them.
var forbidden = []string{"UTF-7", "CESU-8", "BOCU-1", "SCSU", "UTF-32", "UTF-32LE", "UTF-32BE", "EBCDIC-US", "IBM037", "IBM500", "cp037", "cp500", "IBM1047", "csUTF7"}

type encoding struct {
	Name   string   `json:"name"`
	Labels []string `json:"labels"`
}

type group struct {
	Heading   string     `json:"heading"`
	Encodings []encoding `json:"encodings"`
}

// looseKey applies UTS #22 charset alias matching: ASCII letters are
// lower-cased, every byte that is not an ASCII letter or digit is dropped,
// and a 0 that does not follow a digit is dropped. It must agree with the
// runtime version in legacy.go; TestLegacyTables checks that it does.
func looseKey(s string) string {
	var b strings.Builder
	prevDigit := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
			prevDigit = false
		case 'a' <= c && c <= 'z':
			b.WriteByte(c)
			prevDigit = false
		case c == '0' && !prevDigit:
			// Leading zero of a number: dropped, and it does not start the number.
		case '0' <= c && c <= '9':
			b.WriteByte(c)
			prevDigit = true
		default:
			// Punctuation and spaces are dropped but end a number.
			prevDigit = false
		}
	}
	return b.String()
}

// labelSlotBits is the size of the label hash table, in bits of slot
// index: the smallest at which a multiplier was found that gives every
// label a slot of its own.
const labelSlotBits = 11

// labelKey is override's labelKey of a label given whole.
func labelKey(label string) [3]uint64 {
	var buf [24]byte
	copy(buf[:], label)
	return [3]uint64{
		binary.LittleEndian.Uint64(buf[0:8]),
		binary.LittleEndian.Uint64(buf[8:16]),
		binary.LittleEndian.Uint64(buf[16:24]),
	}
}

// labelSlot is override's labelKey.slot, with a multiplier.
func labelSlot(label string, mult uint64) uint64 {
	k := labelKey(label)
	return ((k[0]*mult^k[1])*mult ^ k[2]) * mult >> (64 - labelSlotBits)
}

// writeLabelHash writes the constants of the label table's perfect hash:
// the first multiplier, in a fixed pseudo-random order, under which the
// labels fall into slots of their own, and the declarations of the table,
// which override's init fills from labelsOf.
func writeLabelHash(buf *bytes.Buffer, labels map[string]string) {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
		if len(k) > 24 {
			log.Fatalf("label %q is longer than labelBufLen", k)
		}
	}
	sort.Strings(keys)
	if len(keys) > 255 {
		log.Fatalf("%d labels do not fit the uint8 slots", len(keys))
	}
	x := uint64(0x9E3779B97F4A7C15)
	var mult uint64
	var slots [1 << labelSlotBits]int
	for try := 0; ; try++ {
		if try == 1e7 {
			log.Fatalf("no multiplier gives the %d labels slots of their own in %d", len(keys), 1<<labelSlotBits)
		}
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		mult = x | 1
		slots = [1 << labelSlotBits]int{}
		ok := true
		for i, k := range keys {
			h := labelSlot(k, mult)
			if slots[h] != 0 {
				ok = false
				break
			}
			slots[h] = i + 1
		}
		if ok {
			break
		}
	}
	fmt.Fprintf(buf, "// labelSlotBits is the size of labelSlots in bits of index.\nconst labelSlotBits = %d\n\n", labelSlotBits)
	fmt.Fprintf(buf, "// labelMult is labelSlot's multiplier, one under which every label has a slot\n// of its own.\nconst labelMult = %#x\n\n", mult)
	fmt.Fprintf(buf, "// numLabels is the number of labels of the Encoding Standard's label table.\nconst numLabels = %d\n\n", len(keys))
	fmt.Fprintf(buf, "// labelList is the label table, each label as a key, after an empty entry\n// at 0, and labelSlots holds, at the slot of each label, its index in\n// labelList (0, no label, elsewhere). init fills both from labelsOf.\n")
	fmt.Fprintf(buf, "var (\n\tlabelList  [numLabels + 1]labelEntry\n\tlabelSlots [1 << labelSlotBits]uint8\n)\n\n")
}

func main() {
	out := flag.String("o", "tables.go", "output file")
	flag.Parse()
	data, err := os.ReadFile(input)
	if err != nil {
		log.Fatal(err)
	}
	var groups []group
	if err := json.Unmarshal(data, &groups); err != nil {
		log.Fatal(err)
	}

	var names []string
	labels := map[string]string{} // label -> const
	longest := 0
	for _, g := range groups {
		for _, e := range g.Encodings {
			c, ok := consts[e.Name]
			if !ok {
				log.Fatalf("no const defined for %s", e.Name)
			}
			names = append(names, e.Name)
			for _, l := range e.Labels {
				if prev, dup := labels[l]; dup {
					log.Fatalf("label %q maps to %s and %s", l, prev, c)
				}
				labels[l] = c
				longest = max(longest, len(l))
				for i := 0; i < len(l); i++ {
					// fold lower-cases ASCII and keeps other bytes.
					if c := l[i]; c <= ' ' || c >= 0x7F || 'A' <= c && c <= 'Z' {
						log.Fatalf("label %q has byte %#x: not lower-case printable ASCII", l, c)
					}
				}
			}
		}
	}
	if len(names) != len(consts) {
		log.Fatalf("encodings.json has %d encodings, consts has %d", len(names), len(consts))
	}

	// Loose keys: every WHATWG label and name, then the legacy aliases.
	loose := map[string]string{}
	addLoose := func(label, c string) {
		k := looseKey(label)
		if prev, ok := loose[k]; ok && prev != c {
			log.Fatalf("loose key %q (from %q) maps to %s and %s", k, label, prev, c)
		}
		loose[k] = c
	}
	for l, c := range labels {
		addLoose(l, c)
	}
	for _, n := range names {
		addLoose(n, consts[n])
	}
	for a, n := range legacyAliases {
		c, ok := consts[n]
		if !ok {
			log.Fatalf("legacy alias %q names unknown encoding %q", a, n)
		}
		addLoose(a, c)
	}
	for _, f := range forbidden {
		if c, ok := loose[looseKey(f)]; ok {
			log.Fatalf("forbidden charset %q loosely matches %s", f, c)
		}
	}
	longestLoose := 0
	for k := range loose {
		longestLoose = max(longestLoose, len(k))
	}

	var buf bytes.Buffer
	fmt.Fprintf(&buf, "// Code generated by \"go run gen.go\" from %s; DO NOT EDIT.\n\n", revision)
	fmt.Fprintf(&buf, "package override\n\n")
	fmt.Fprintf(&buf, "// The encodings of the Encoding Standard, in its order.\nconst (\n")
	fmt.Fprintf(&buf, "\t// Unknown is the zero Encoding: no encoding, or a failed lookup.\n\tUnknown Encoding = iota\n")
	for _, n := range names {
		fmt.Fprintf(&buf, "\t%s // %s\n", consts[n], n)
	}
	fmt.Fprintf(&buf, "\n\tnumEncodings\n)\n\n")
	fmt.Fprintf(&buf, "// NumEncodings is the number of encodings of the Encoding Standard.\nconst NumEncodings = int(numEncodings) - 1\n\n")
	fmt.Fprintf(&buf, "// longestLabel is the length of the longest label of the label table.\nconst longestLabel = %d\n\n", longest)
	fmt.Fprintf(&buf, "// longestLooseKey is the length of the longest UTS #22 key of the legacy table.\nconst longestLooseKey = %d\n\n", longestLoose)
	for _, n := range names {
		if labels[strings.ToLower(n)] != consts[n] {
			log.Fatalf("%s: its lower-case name is not one of its labels", n)
		}
	}
	fmt.Fprintf(&buf, "// names holds each encoding's name as the standard spells it and in lower\n// case (a label of it).\nvar names = [numEncodings]struct{ canonical, lower string }{\n")
	for _, n := range names {
		fmt.Fprintf(&buf, "\t%s: {%q, %q},\n", consts[n], n, strings.ToLower(n))
	}
	fmt.Fprintf(&buf, "}\n\n")
	labelsOf := map[string][]string{} // const -> labels
	for l, c := range labels {
		labelsOf[c] = append(labelsOf[c], l)
	}
	fmt.Fprintf(&buf, "// labelsOf holds the labels of each encoding, sorted, separated by spaces.\nvar labelsOf = [numEncodings]string{\n")
	for _, n := range names {
		ls := labelsOf[consts[n]]
		sort.Strings(ls)
		fmt.Fprintf(&buf, "\t%s: %q,\n", consts[n], strings.Join(ls, " "))
	}
	fmt.Fprintf(&buf, "}\n\n")

	writeMap := func(name, doc string, m map[string]string) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(&buf, "// %s\nvar %s = map[string]Encoding{\n", doc, name)
		for _, k := range keys {
			fmt.Fprintf(&buf, "\t%q: %s,\n", k, m[k])
		}
		fmt.Fprintf(&buf, "}\n\n")
	}
	writeLabelHash(&buf, labels)
	writeMap("looseLabels", "looseLabels maps UTS #22 keys of WHATWG labels, names and the 2008 draft's aliases to encodings.", loose)

	src, err := format.Source(buf.Bytes())
	if err != nil {
		log.Fatalf("formatting output: %v\n%s", err, buf.Bytes())
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
