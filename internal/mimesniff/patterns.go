package mimesniff

import (
	"bytes"
	"encoding/binary"
)

// A pattern is a row of the standard's tables: the pattern matching
// algorithm compares the resource header, leading bytes in the ignored set
// skipped, with pat under mask.
type pattern struct {
	pat, mask string // of equal length
	skipWS    bool   // the ignored set is the whitespace bytes (otherwise empty)
	typ       string // the sniffed MIME type
}

// match runs the pattern matching algorithm on input.
func (p *pattern) match(input []byte) bool {
	if p.skipWS {
		input = trimWhitespace(input)
	}
	if len(input) < len(p.pat) {
		return false
	}
	for i := range len(p.pat) {
		if input[i]&p.mask[i] != p.pat[i] {
			return false
		}
	}
	return true
}

// htmlTags are the tags of the HTML rows of the unknown MIME type table,
// each matched case-insensitively after leading whitespace and followed by
// a tag-terminating byte (0x20 or 0x3E).
var htmlTags = []string{
	"<!DOCTYPE HTML", "<HTML", "<HEAD", "<SCRIPT", "<IFRAME", "<H1", "<DIV", "<FONT",
	"<TABLE", "<A", "<STYLE", "<TITLE", "<B", "<BODY", "<BR", "<P", "<!--",
}

// trimWhitespace returns b without its leading whitespace bytes (0x09,
// 0x0A, 0x0C, 0x0D, 0x20).
func trimWhitespace(b []byte) []byte {
	for len(b) > 0 {
		switch b[0] {
		case '\t', '\n', '\f', '\r', ' ':
			b = b[1:]
			continue
		}
		break
	}
	return b
}

// html reports whether header matches an HTML row of the table. Every
// tag starts with "<", so a header that does not is none (the common
// case of a binary file costs one comparison), and the tags are ASCII
// upper case, so a byte matches when it equals the tag's byte with its
// lower-case letters folded. Without bytes.EqualFold's Unicode folding
// and bytes.TrimLeft's set, the command's check of the eight sample pages
// (BenchmarkCheckText in cmd/charsniff) took 2310 instructions instead of
// 6792 (callgrind).
func html(header []byte) bool {
	header = trimWhitespace(header)
	if len(header) == 0 || header[0] != '<' {
		return false
	}
	for _, tag := range htmlTags {
		if len(header) > len(tag) && hasUpperPrefix(header, tag) {
			if c := header[len(tag)]; c == ' ' || c == '>' {
				return true
			}
		}
	}
	return false
}

// hasUpperPrefix reports whether b starts with tag, an upper-case ASCII
// string, matched ASCII case-insensitively. len(b) >= len(tag).
func hasUpperPrefix(b []byte, tag string) bool {
	for i := range len(tag) {
		c := b[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != tag[i] {
			return false
		}
	}
	return true
}

// unknownPatterns are the other rows of the unknown MIME type table, in
// order: XML, PDF and PostScript, and the byte order marks (text).
var unknownPatterns = []pattern{
	{"<?xml", "\xff\xff\xff\xff\xff", true, "text/xml"},
	{"%PDF-", "\xff\xff\xff\xff\xff", false, "application/pdf"},
	{"%!PS-Adobe-", "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", false, "application/postscript"},
	{"\xfe\xff\x00\x00", "\xff\xff\x00\x00", false, "text/plain"}, // UTF-16BE BOM
	{"\xff\xfe\x00\x00", "\xff\xff\x00\x00", false, "text/plain"}, // UTF-16LE BOM
	{"\xef\xbb\xbf\x00", "\xff\xff\xff\x00", false, "text/plain"}, // UTF-8 BOM
}

// ff is a mask of n 0xFF bytes.
func ff(n int) string { return string(bytes.Repeat([]byte{0xff}, n)) }

// imagePatterns is the image type pattern table.
var imagePatterns = []pattern{
	{"\x00\x00\x01\x00", ff(4), false, "image/x-icon"},
	{"\x00\x00\x02\x00", ff(4), false, "image/x-icon"},
	{"BM", ff(2), false, "image/bmp"},
	{"GIF87a", ff(6), false, "image/gif"},
	{"GIF89a", ff(6), false, "image/gif"},
	{"RIFF\x00\x00\x00\x00WEBPVP", ff(4) + "\x00\x00\x00\x00" + ff(6), false, "image/webp"},
	{"\x89PNG\r\n\x1a\n", ff(8), false, "image/png"},
	{"\xff\xd8\xff", ff(3), false, "image/jpeg"},
}

// mediaPatterns is the audio or video type pattern table.
var mediaPatterns = []pattern{
	{"FORM\x00\x00\x00\x00AIFF", ff(4) + "\x00\x00\x00\x00" + ff(4), false, "audio/aiff"},
	{"ID3", ff(3), false, "audio/mpeg"},
	{"OggS\x00", ff(5), false, "application/ogg"},
	{"MThd\x00\x00\x00\x06", ff(8), false, "audio/midi"},
	{"RIFF\x00\x00\x00\x00AVI ", ff(4) + "\x00\x00\x00\x00" + ff(4), false, "video/avi"},
	{"RIFF\x00\x00\x00\x00WAVE", ff(4) + "\x00\x00\x00\x00" + ff(4), false, "audio/wave"},
}

// archivePatterns is the archive type pattern table.
var archivePatterns = []pattern{
	{"\x1f\x8b\x08", ff(3), false, "application/x-gzip"},
	{"PK\x03\x04", ff(4), false, "application/zip"},
	{"Rar \x1a\x07\x00", ff(7), false, "application/x-rar-compressed"},
}

// mp4 is the standard's "matches the signature for MP4": an ftyp box
// naming an mp4 brand, major or compatible.
func mp4(b []byte) bool {
	if len(b) < 12 {
		return false
	}
	size := binary.BigEndian.Uint32(b)
	if uint64(len(b)) < uint64(size) || size%4 != 0 || string(b[4:8]) != "ftyp" {
		return false
	}
	if string(b[8:11]) == "mp4" {
		return true
	}
	for i := uint32(16); i < size; i += 4 {
		if string(b[i:i+3]) == "mp4" {
			return true
		}
	}
	return false
}
