package decode

import "math/bits"

// A model of the assembly of sweep_amd64.s in Go, for the tests:
// sweepModel, cleanModel and squeezeModel follow sweepAVX2, cleanAVX2 and
// squeezeCRAVX2 block for block (the room each kind of block needs, the
// events limit, where the latin loop starts and stops), so that for the
// same input they return the same j, i and n, write the same bytes to
// d[:j], and agree on whether high is zero (the assembly's high is an OR
// of bit masks of 32- and 64-byte blocks, the model's of 32-bit ones: only
// high != 0 is compared). TestSweepTwin and FuzzSweepTwin compare them
// with the assembly where it runs. The Go twins that other builds run
// (sweep_generic.go) do the same job with the decoder's word loops, a run
// at a time, which is faster than this model (docs/speed.md).

// maxEvents is MAXEVENTS of sweep_amd64.s: the most bytes from 0x80 of a
// single-byte encoding that a 32-byte block may have for the table path.
const maxEvents = 6

// blockMasks returns the bit masks (bit k for b[k]; b has at most 64
// bytes) of the bytes of b from 0x80, its NULs, CRs and LFs, and of its
// bytes from 0x80 to 0x9F.
func blockMasks(b []byte) (high, nul, cr, lf, c1 uint64) {
	for k, c := range b {
		bit := uint64(1) << k
		switch {
		case c >= 0x80:
			high |= bit
			if c < 0xA0 {
				c1 |= bit
			}
		case c == 0:
			nul |= bit
		case c == '\r':
			cr |= bit
		case c == '\n':
			lf |= bit
		}
	}
	return high, nul, cr, lf, c1
}

// carriesInto reports whether UTF-8 taken up to i expects trail bytes at i
// or i+1 (R12 of the assembly): a lead at i-1, or a three-byte one at i-2.
func carriesInto(s []byte, i int) bool {
	return i >= 1 && s[i-1] >= 0xC0 || i >= 2 && s[i-2] >= 0xE0
}

// validBlock reports whether the 32 bytes of s at i pass VALIDATE: no NUL
// (if nul), no byte from 0xF0, no C0 or C1, a trail byte exactly where a
// lead before it (in the block or the two bytes before) expects one, and
// after E0 one from A0, after ED one below A0.
func validBlock(s []byte, i int, nul bool) bool {
	for q := i; q < i+32; q++ {
		c := s[q]
		if c == 0 && nul || c >= 0xF0 || c == 0xC0 || c == 0xC1 {
			return false
		}
		want := q >= 1 && s[q-1] >= 0xC0 || q >= 2 && s[q-2] >= 0xE0
		if want != (c&0xC0 == 0x80) {
			return false
		}
		if q >= 1 && (s[q-1] == 0xE0 && c&0x20 == 0 || s[q-1] == 0xED && c&0x20 != 0) {
			return false
		}
	}
	return true
}

// putBlock writes b to d as the sweep does and returns the bytes written:
// the bytes at drops left out, those at cr written as LF, and with a table
// the bytes from 0x80 as it says (its UTF-8 in the low bytes, its length
// in the top one).
func putBlock(d, b []byte, table *[256]uint32, cr, drops uint64) int {
	n := 0
	for k, c := range b {
		bit := uint64(1) << k
		switch {
		case drops&bit != 0:
		case cr&bit != 0:
			d[n] = '\n'
			n++
		case c >= 0x80 && table != nil:
			v := table[c]
			for m := range v >> 24 {
				d[n] = byte(v >> (8 * m))
				n++
			}
		default:
			d[n] = c
			n++
		}
	}
	return n
}

// sweepState is what sweepModel carries from block to block: the
// assembly's registers and stack slots of the same meaning.
type sweepState struct {
	i, j   int    // R8, R9
	high   uint64 // R11
	withCR bool   // 32(SP): a CR has been met
	prevCR uint64 // BX: 1 if the block before ended in a CR
	// latinFrom is 80(SP): the i before which latin does not start again.
	latinFrom int
}

// sweepModel is sweepAVX2 in Go (see the top of this file).
func sweepModel(d, s []byte, table *[256]uint32, flags uint64) (j, i, high int) {
	cr, nul := flags&sweepCR != 0, flags&sweepNUL != 0
	latin := flags&sweepLatin1 != 0 && table != nil
	// The room each kind of block needs, as in the assembly: a block
	// stored once, one with events, a step of latin.
	oneS, oneD := len(s)-32, len(d)-32
	evS, evD := len(s)-65, len(d)-64
	if table != nil {
		evD -= 16
	}
	latS, latD := len(s)-64, len(d)-128
	var st sweepState
	// tableNoCR: a table's text before its first block with a CR or NUL
	// (kept or not), which the assembly's loop tableNoCR takes, without
	// latin.
	tableNoCR := table != nil
	for st.i <= oneS && st.j <= oneD {
		i, j := st.i, st.j
		b := s[i : i+32]
		hi, nm, crm, lf, _ := blockMasks(b)
		if nm|crm != 0 {
			tableNoCR = false
		}
		if !nul {
			nm = 0
		}
		if !cr {
			crm = 0
		}
		carry := table == nil && carriesInto(s, i)
		if !st.withCR {
			if hi|nm|crm == 0 && !carry {
				st.i, st.j = i+32, j+copy(d[j:], b)
				continue
			}
			if crm != 0 {
				st.withCR = true // withCR takes the block again
				continue
			}
			if table == nil {
				st.high |= hi
				if !validBlock(s, i, nul) {
					break
				}
				st.i, st.j = i+32, j+copy(d[j:], b)
				continue
			}
		} else if hi|nm == 0 && !carry || table == nil {
			if table == nil && (hi|nm != 0 || carry) {
				st.high |= hi
				if !validBlock(s, i, nul) {
					break
				}
			}
			drops := lf & (crm<<1 | st.prevCR)
			st.prevCR = crm >> 31
			st.i, st.j = i+32, j+putBlock(d[j:], b, nil, crm, drops)
			continue
		}
		// A table's letters, a NUL, or in withCR line ends.
		if i > evS || j > evD {
			break
		}
		if latin && !tableNoCR && i >= st.latinFrom {
			st.latin(d, s, cr, nul, latS, latD)
			continue
		}
		var drops uint64
		if st.withCR {
			drops = lf & (crm<<1 | st.prevCR)
		}
		if bits.OnesCount64(hi) > maxEvents {
			break
		}
		if st.withCR {
			st.prevCR = crm >> 31
		}
		if nm != 0 {
			break
		}
		st.high |= hi
		st.i, st.j = i+32, j+putBlock(d[j:], b, table, crm, drops)
	}
	return st.j, st.i, int(st.high)
}

// latin is the latin loop of sweepAVX2: windows-1252 text 64 bytes a step
// while it holds no byte from 0x80 to 0x9F and no NUL (if nul) and there
// is room (64 bytes of s, 128 of d), and until four steps in a row are
// ASCII.
func (st *sweepState) latin(d, s []byte, cr, nul bool, latS, latD int) {
	ascii := 0
	for {
		if st.i > latS || st.j > latD {
			st.latinFrom = st.i + 64
			return
		}
		b := s[st.i : st.i+64]
		hi, nm, crm, lf, c1 := blockMasks(b)
		if c1 != 0 || nul && nm != 0 {
			st.latinFrom = st.i + 64
			return
		}
		if !cr {
			crm = 0
		}
		st.withCR = st.withCR || crm != 0
		drops := lf & (crm<<1 | st.prevCR)
		st.prevCR = crm >> 63
		st.j += putBlock(d[st.j:], b, latin1Table, crm, drops) // the loop expands A0-FF itself; the table agrees
		st.high |= hi
		st.i += 64
		ascii++
		if hi != 0 {
			ascii = 0
		}
		if ascii >= 4 {
			return
		}
	}
}

// cleanModel is cleanAVX2 in Go (see the top of this file).
func cleanModel(s []byte, flags uint64) (n, high int) {
	cr, nul := flags&sweepCR != 0, flags&sweepNUL != 0
	var h uint64
	i := 0
	for ; i <= len(s)-32; i += 32 {
		hi, nm, crm, _, _ := blockMasks(s[i : i+32])
		if !nul {
			nm = 0
		}
		if !cr {
			crm = 0
		}
		if hi|nm|crm == 0 && !carriesInto(s, i) {
			continue
		}
		if crm != 0 {
			break
		}
		h |= hi
		if !validBlock(s, i, nul) {
			break
		}
	}
	return i, int(h)
}

// squeezeModel is squeezeCRAVX2 in Go: block for block the same r, w, cr
// and bytes b[:w].
func squeezeModel(b []byte, r, w int, cr uint64) (r2, w2 int, cr2 uint64) {
	for r <= len(b)-32 {
		blk := b[r : r+32]
		_, _, crm, lf, _ := blockMasks(blk)
		drops := lf & (crm<<1 | cr)
		var out [32]byte
		n := putBlock(out[:], blk, nil, crm, drops)
		copy(b[w:], out[:n])
		cr = crm >> 31
		r += 32
		w += n
	}
	return r, w, cr
}
