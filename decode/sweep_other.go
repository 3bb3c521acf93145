//go:build !amd64 || purego

package decode

// sweepOK reports whether the vector sweep runs: never in this build (the
// portable sweeps of ascii.go run instead).
const sweepOK = false

// latinOK is false in this build.
var latinOK = false

// sweepAVX2 is not called in this build.
func sweepAVX2(d, s []byte, table *[256]uint32, flags uint64) (j, i, high int) {
	return 0, 0, 0
}

// indexPairAVX2 is not called in this build.
func indexPairAVX2(s []byte, a, b byte) int { return -1 }

// cleanAVX2 is not called in this build.
func cleanAVX2(s []byte, flags uint64) (n, high int) { return 0, 0 }
