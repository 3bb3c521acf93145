//go:build goexperiment.simd && amd64

package decode

import (
	"math/bits"
	"simd/archsimd"
)

// Built with GOEXPERIMENT=simd on amd64, the sweeps for clean ASCII and for
// CR and NUL use 32-byte AVX2 vectors, when the CPU has AVX2.

// simdOK reports whether the vector sweeps run.
var simdOK = archsimd.X86.AVX2()

// linesVec is lines with vectors, 32 bytes at a time; it stops at no
// control byte but NUL and CR.
func (p *patterns) linesVec(d, s []byte) (j, i int) {
	cr, nul := byte(0x80), byte(0x80) // 0x80: a byte that is flagged anyway
	if p.crOn {
		cr = '\r'
	}
	if p.nulOn {
		nul = 0
	}
	crV, nulV := archsimd.BroadcastUint8x32(cr), archsimd.BroadcastUint8x32(nul)
	var zero archsimd.Int8x32
	for 0 <= i && i <= len(s)-32 && 0 <= j && j <= len(d)-32 {
		x := archsimd.LoadUint8x32((*[32]byte)(s[i:]))
		x.Store((*[32]byte)(d[j:]))
		m := x.Equal(crV).Or(x.Equal(nulV)).Or(x.AsInt8x32().Less(zero)).ToBits()
		if m == 0 {
			i += 32
			j += 32
			continue
		}
		k := bits.TrailingZeros32(m)
		i += k
		j += k
		if s[i] != '\r' || cr != '\r' || i == len(s)-1 {
			break
		}
		d[j] = '\n'
		j++
		i++
		if s[i] == '\n' {
			i++
		}
	}
	// Without this, the SSE code that runs next (memmove, for one) pays
	// for the upper halves the vectors left behind.
	archsimd.ClearAVXUpperBits()
	return j, i
}

// indexSpecialVec returns the position of the first CR (if cr) or NUL (if
// nul) in s, or len(s): one pass for both.
func indexSpecialVec(s []byte, cr, nul bool) int {
	if !cr && !nul {
		return len(s)
	}
	c, z := byte(0x0D), byte(0)
	if !cr {
		c = 0
	}
	if !nul {
		z = '\r'
	}
	cV, zV := archsimd.BroadcastUint8x32(c), archsimd.BroadcastUint8x32(z)
	k := 0
	for ; k <= len(s)-32; k += 32 {
		x := archsimd.LoadUint8x32((*[32]byte)(s[k:]))
		if m := x.Equal(cV).Or(x.Equal(zV)).ToBits(); m != 0 {
			archsimd.ClearAVXUpperBits()
			return k + bits.TrailingZeros32(m)
		}
	}
	archsimd.ClearAVXUpperBits()
	for ; k < len(s); k++ {
		if b := s[k]; b == c || b == z {
			return k
		}
	}
	return len(s)
}
