//go:build !amd64 || purego

package decode

// sweepOK reports whether the vector sweep runs: never in this build (the
// portable sweeps of ascii.go run instead; the Go twins of sweep_generic.go
// were measured slower than those, see docs/speed.md).
const sweepOK = false

// latinOK is false in this build.
var latinOK = false

// sweepAVX2 is sweepGeneric in this build: the same contract as the
// assembly's (sweep_amd64.go).
func sweepAVX2(d, s []byte, table *[256]uint32, flags uint64) (j, i, high int) {
	return sweepGeneric(d, s, table, flags)
}

// indexPairAVX2 is indexPairGeneric in this build.
func indexPairAVX2(s []byte, a, b byte) int { return indexPairGeneric(s, a, b) }

// cleanAVX2 is cleanGeneric in this build.
func cleanAVX2(s []byte, flags uint64) (n, high int) { return cleanGeneric(s, flags) }

// squeezeCRAVX2 is squeezeCRGeneric in this build.
func squeezeCRAVX2(b []byte, r, w int, cr uint64) (r2, w2 int, cr2 uint64) {
	return squeezeCRGeneric(b, r, w, cr)
}
