//go:build !amd64 || purego

package decode

// sweepOK reports whether the assembly of sweep_amd64.s runs: never in
// this build, where its functions are their Go twins.
const sweepOK = false

// latinOK is false in this build.
var latinOK = false

// sweepBlocks is sweepBlocksGeneric in this build (sweep_amd64.go has
// the contract).
func sweepBlocks(d, s []byte, table *[256]uint32, flags uint64) (j, i, high int) {
	return sweepBlocksGeneric(d, s, table, flags)
}

// indexPair is indexPairGeneric in this build.
func indexPair(s []byte, a, b byte) int { return indexPairGeneric(s, a, b) }

// cleanBlocks is cleanBlocksGeneric in this build.
func cleanBlocks(s []byte, flags uint64) (n, high int) { return cleanBlocksGeneric(s, flags) }

// squeezeBlocks is squeezeBlocksGeneric in this build.
func squeezeBlocks(b []byte, r, w int, cr uint64) (r2, w2 int, cr2 uint64) {
	return squeezeBlocksGeneric(b, r, w, cr)
}
