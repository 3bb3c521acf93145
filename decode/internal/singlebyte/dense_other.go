//go:build !amd64 || purego

package singlebyte

// vectorOK reports whether Dense runs denseVector: in this build, where
// that is denseWords, always.
const vectorOK = true

// denseVector is denseWords in this build, the Go twin of the assembly
// (dense_amd64.s).
func denseVector(dst, src []byte, t *[256]uint32, _ *Vector) (i, j int) {
	return denseWords(dst, src, t)
}

// hasAssembly reports whether denseVector is assembly in this build.
const hasAssembly = false
