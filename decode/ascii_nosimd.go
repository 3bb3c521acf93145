//go:build !goexperiment.simd || !amd64

package decode

// Without GOEXPERIMENT=simd on amd64 the sweeps are portable (ascii.go).

// simdOK reports whether the vector sweeps run: never in this build.
const simdOK = false

// linesVec is not called in this build.
func (p *patterns) linesVec(d, s []byte) (int, int) { return 0, 0 }

// indexSpecialVec is not called in this build.
func indexSpecialVec(s []byte, cr, nul bool) int { return len(s) }
