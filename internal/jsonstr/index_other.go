//go:build !amd64 || purego

package jsonstr

// avx2OK reports whether the assembly of index_amd64.s runs: never in this
// build, where IndexSpecial is its Go twin.
const avx2OK = false

// IndexSpecial returns the index of the first byte of s for which
// NeedsLook is true, or -1 if there is none.
func IndexSpecial(s []byte) int { return indexSpecialGeneric(s) }
