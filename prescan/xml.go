package prescan

import (
	"bytes"

	"github.com/charsniff/charsniff/override"
)

// xmlState is a step of "get an XML encoding", run one byte at a time from
// the start of the stream.
type xmlState uint8

const (
	xPrefix  xmlState = iota // step 2: the stream must start with <?xml
	xSearch                  // steps 3-4: "encoding" before the first >
	xSpaces1                 // step 6: bytes <= 20 before =
	xSpaces2                 // step 9: bytes <= 20 after =
	xValue                   // steps 13-15: up to the closing quote
	xNeedGT                  // the label is known; step 3 still needs a > somewhere
)

// xmlScan is "get an XML encoding" as a streaming machine. It runs alongside
// the <meta> scan from byte 0, but its answer is used only when that scan
// aborts.
type xmlScan struct {
	state xmlState
	k     uint8 // xPrefix: bytes of "<?xml" matched; xSearch: bytes of "encoding" matched
	quote byte  // xValue: the quote that ends the value
	gt    bool  // a > (xmlDeclarationEnd) has been seen
	label labelBuf

	pending override.Encoding // xNeedGT: the answer once a > turns up
	done    bool              // the answer is known
	enc     override.Encoding // when done: the encoding, or override.Unknown for failure
	end     int               // when done and found: the offset past the last byte used
}

func (x *xmlScan) fail() { x.done = true; x.enc = override.Unknown }

func (x *xmlScan) succeed(enc override.Encoding, end int) {
	x.done = true
	x.enc = enc
	x.end = end
}

// scan feeds p, whose first byte is at stream offset base.
func (x *xmlScan) scan(p []byte, base int, legacy bool) {
	for i := 0; i < len(p) && !x.done; i++ {
		c := p[i]
		switch x.state {
		case xPrefix:
			// Step 2: <?xml at the start of the stream (case-sensitive).
			if c != "<?xml"[x.k] {
				x.fail()
				return
			}
			x.k++
			if int(x.k) == len("<?xml") {
				x.state = xSearch
				x.k = 0
			}

		case xSearch:
			// Steps 3-4: xmlDeclarationEnd is the first >; "encoding" must
			// come before it ("encoding" holds no >).
			if c == '>' {
				x.fail()
				return
			}
			if matchWord("encoding", &x.k, c) {
				x.state = xSpaces1
			}

		case xSpaces1:
			// Steps 6-8.
			switch {
			case c <= 0x20:
			case c == '=':
				x.state = xSpaces2
			default:
				x.fail()
				return
			}

		case xSpaces2:
			// Steps 9-12.
			switch {
			case c <= 0x20:
			case c == '"' || c == '\'':
				x.quote = c
				x.label.reset()
				x.state = xValue
			default:
				x.fail()
				return
			}

		case xValue:
			// Steps 13-18. The closing quote may come after the first >.
			switch {
			case c == x.quote:
				enc, ok := x.label.lookup(legacy)
				if !ok {
					x.fail()
					return
				}
				if enc.IsUTF16() {
					enc = override.UTF8
				}
				if x.gt {
					x.succeed(enc, base+i+1)
					return
				}
				x.pending = enc
				x.state = xNeedGT
			case c <= 0x20:
				x.fail()
				return
			default:
				if c == '>' {
					x.gt = true
				}
				x.label.add(c)
			}

		case xNeedGT:
			// Step 3 fails if the stream holds no > at all.
			j := bytes.IndexByte(p[i:], '>')
			if j < 0 {
				return
			}
			x.succeed(x.pending, base+i+j+1)
			return
		}
	}
}
